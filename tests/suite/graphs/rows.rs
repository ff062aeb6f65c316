//! Pitched copy and memset nodes through the Rust API (`docs/semantics/graph-building.md` · Pitched nodes):
//! captured `memcpy_2d_async` / `memcpy_3d_async` / `memset_2d_async` / `memset_3d_async`, their bytes at each
//! launch, their virtual times (a 1-D copy's of the bytes moved) and their race checks by row.

use streamsim::{
    CaptureMode, CopyPath, CostModel, Extent, Machine, NodeType, Pitch, Process, RaceDetection,
    StreamFlags,
};

fn machine() -> (Machine, Process) {
    let m = Machine::builder()
        .devices(1)
        .race_detection(RaceDetection::Collect)
        .build()
        .unwrap();
    let p = m.process();
    (m, p)
}

/// graph-building.md · Pitched nodes · Memcpy2DAsync captured → a memcpy node of the rows: each launch moves
/// the rows (the padding untouched) and lasts what a 1-D copy of width × height bytes lasts (256 bytes host to
/// device: 2 µs + 16 ns)
#[test]
fn a_captured_2d_copy_is_a_node_of_its_rows() {
    let (m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let d = p.malloc(128 * 4).unwrap();
    p.memset(d, 0xEE, 128 * 4).unwrap();
    let src = p.malloc_host(128 * 4).unwrap();
    let data: Vec<u8> = (0..512u32).map(|i| (i / 128) as u8 + 1).collect();
    p.memcpy(src, &data[..], 512).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.memcpy_2d_async(d, 128, src, 128, 64, 4, s).unwrap();
    let g = p.end_capture(s).unwrap();
    let nodes = p.graph_nodes(g).unwrap();
    assert_eq!(nodes.len(), 1);
    assert_eq!(p.node_type(nodes[0]).unwrap(), NodeType::Memcpy);
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut out = vec![0u8; 512];
    p.memcpy(&mut out[..], d, 512).unwrap();
    for r in 0..4 {
        assert!(out[r * 128..r * 128 + 64].iter().all(|&b| b == r as u8 + 1));
        assert!(out[r * 128 + 64..(r + 1) * 128].iter().all(|&b| b == 0xEE));
    }
    let t = m.trace();
    let op = t.find("memcpy node").unwrap();
    let cost = CostModel::default().copy_nanos(CopyPath::HostToDevice, 256);
    assert_eq!(cost, 2_016);
    assert_eq!(op.end.0 - op.start.0, cost);
}

/// graph-building.md · Pitched nodes · race detection → two captured 2-D copies on forked streams into
/// interleaved rows do not race; into the same rows they race, on the bytes both touch
#[test]
fn captured_2d_copies_race_only_on_the_rows_they_share() {
    let (m, p) = machine();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let d = p.malloc(64 * 8).unwrap();
    let src = p.malloc_host(64 * 8).unwrap();
    let fork = p.create_event(Default::default()).unwrap();
    let join = p.create_event(Default::default()).unwrap();
    let graph = |second: u64, width: u64| {
        p.begin_capture(s1, CaptureMode::Global).unwrap();
        p.record_event(fork, s1).unwrap();
        p.stream_wait_event(s2, fork).unwrap();
        p.memcpy_2d_async(d, 128, src, 128, 64, 4, s1).unwrap();
        p.memcpy_2d_async(d.offset(second), 128, src, 128, width, 4, s2)
            .unwrap();
        p.record_event(join, s2).unwrap();
        p.stream_wait_event(s1, join).unwrap();
        p.end_capture(s1).unwrap()
    };
    let interleaved = p.instantiate_graph(graph(64, 64)).unwrap();
    p.launch_graph(interleaved, s1).unwrap();
    p.stream_synchronize(s1).unwrap();
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
    let same = p.instantiate_graph(graph(0, 32)).unwrap();
    p.launch_graph(same, s1).unwrap();
    p.stream_synchronize(s1).unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].offset, r[0].bytes), (0, 32));
    assert!(r[0].first.write && r[0].second.write);
}

/// graph-building.md · Pitched nodes · Memset2DAsync captured → a memset node of rows (its parameters: the
/// pitch, element size 1, the rows); Memset3DAsync with padded slices → a node that sets each slice's rows only;
/// Memcpy3DAsync → a memcpy node of the box
#[test]
fn captured_memsets_and_3d_copies() {
    let (_m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    // 2 slices of 3 rows of 32 bytes; the memsets set 2 rows of 8 bytes of each slice.
    let b = p.malloc(32 * 6).unwrap();
    p.memset(b, 0, 32 * 6).unwrap();
    let c = p.malloc(32 * 6).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.memset_2d_async(b, 32, 0x22, 16, 6, s).unwrap();
    p.memset_3d_async(b, Pitch::slices(32, 3), 0x33, Extent::new(8, 2, 2), s)
        .unwrap();
    p.memcpy_3d_async(
        (c, Pitch::slices(32, 3)),
        (b, Pitch::slices(32, 3)),
        Extent::new(32, 3, 2),
        s,
    )
    .unwrap();
    let g = p.end_capture(s).unwrap();
    let nodes = p.graph_nodes(g).unwrap();
    assert_eq!(nodes.len(), 3);
    let (dst, shape) = p.graph_node_memset(nodes[0]).unwrap();
    assert_eq!(dst, b);
    assert_eq!(
        (shape.pitch, shape.element_size, shape.width, shape.height),
        (32, 1, 16, 6)
    );
    assert_eq!(p.node_type(nodes[1]).unwrap(), NodeType::Memset);
    assert_eq!(p.node_type(nodes[2]).unwrap(), NodeType::Memcpy);
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut out = [0u8; 32 * 6];
    p.memcpy(&mut out[..], c, 32 * 6).unwrap();
    for row in 0..6 {
        let r = &out[row * 32..(row + 1) * 32];
        let first = if row % 3 == 2 { 0x22 } else { 0x33 };
        assert!(r[..8].iter().all(|&x| x == first), "row {row}: {r:?}");
        assert!(r[8..16].iter().all(|&x| x == 0x22), "row {row}");
        assert!(r[16..].iter().all(|&x| x == 0), "row {row}");
    }
}
