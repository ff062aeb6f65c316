//! Pitched memory: `malloc_pitch` / `malloc_3d`, 2-D and 3-D copies and memsets (their bytes, their virtual
//! times, their race checks by row), and access to a pool's memory from another device. The rows are
//! `docs/semantics/pitched-memory.md`'s and `stream-ordered-memory.md` · Access from other devices; each test
//! names the row it checks.

use streamsim::{
    CopyPath, Extent, Machine, OpKind, Pitch, PoolAccess, PoolProblem, PoolProps, Process,
    RaceDetection, SimError, StreamFlags,
};

use crate::common::{span, us};

fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder()
        .devices(devices)
        .race_detection(RaceDetection::Collect)
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

/// pitched-memory.md · Allocation · MallocPitch · — → rows padded to `TexturePitchAlignment` (32 bytes): a
/// 100-byte row gets a pitch of 128, a 64-byte row keeps 64; the allocation is pitch × height bytes.
#[test]
fn malloc_pitch_pads_rows_to_the_texture_pitch_alignment() {
    let (_m, p) = machine(1);
    let (a, pitch) = p.malloc_pitch(100, 10).unwrap();
    assert_eq!(pitch, 128);
    // The last row ends at 9 × 128 + 100; the allocation holds 10 full rows (1280 bytes).
    p.memset(a, 1, 1280).unwrap();
    assert!(matches!(
        p.memset(a, 1, 1281),
        Err(SimError::OutOfRange {
            bytes: 1281,
            len: 1280,
            ..
        })
    ));
    assert_eq!(p.malloc_pitch(64, 3).unwrap().1, 64);
    let (_, pitch) = p.malloc_3d(Extent::new(33, 2, 2)).unwrap();
    assert_eq!(pitch, 64);
    assert!(matches!(
        p.malloc_pitch(0, 4),
        Err(SimError::InvalidValue { .. })
    ));
}

/// pitched-memory.md · Copies · Memcpy2D · host → device → host → the rows arrive at their pitch, the padding
/// between them untouched; pitched-memory.md · Virtual time · a 2-D copy → one operation costing a 1-D copy of
/// width × height bytes (2 µs + 1000 B / 16 GB/s = 2.063 µs host to device).
#[test]
fn a_2d_copy_moves_the_rows_and_costs_its_bytes() {
    let (m, p) = machine(1);
    let (d, pitch) = p.malloc_pitch(100, 10).unwrap(); // call at 1 µs
    // Host rows of 100 bytes, 120 apart: row r is all r.
    let mut src = vec![0xEEu8; 120 * 10];
    for r in 0..10 {
        src[r * 120..r * 120 + 100].fill(r as u8);
    }
    p.memcpy_2d(d, pitch, &src[..], 120, 100, 10).unwrap(); // called at 2 µs: runs 4 µs .. 6.063 µs
    let mut back = vec![0xAAu8; 150 * 10];
    p.memcpy_2d(&mut back[..], 150, d, pitch, 100, 10).unwrap();
    for r in 0..10 {
        assert!(back[r * 150..r * 150 + 100].iter().all(|&b| b == r as u8));
        assert!(
            back[r * 150 + 100..(r + 1) * 150]
                .iter()
                .all(|&b| b == 0xAA)
        );
    }
    let t = m.trace();
    assert_eq!(
        span(&t, "memcpy_2d"),
        (us(4), streamsim::VirtualTime(6_063))
    );
    let kinds: Vec<OpKind> = t.ops.iter().map(|o| o.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            OpKind::Memcpy {
                path: CopyPath::HostToDevice,
                bytes: 1000
            },
            OpKind::Memcpy {
                path: CopyPath::DeviceToHost,
                bytes: 1000
            },
        ]
    );
}

/// pitched-memory.md · Copies · Memcpy2D · width > pitch → `InvalidPitch` (12); rows past the allocation →
/// `OutOfRange` (1); a zero width or height → nothing, no operation.
#[test]
fn a_2d_copy_checks_its_pitches_and_range() {
    let (m, p) = machine(1);
    let (d, pitch) = p.malloc_pitch(64, 4).unwrap();
    let host = vec![0u8; 1024];
    assert!(matches!(
        p.memcpy_2d(d, 32, &host[..], 64, 64, 4),
        Err(SimError::InvalidPitch { .. })
    ));
    assert!(matches!(
        p.memcpy_2d(d, pitch, &host[..], 16, 64, 4),
        Err(SimError::InvalidPitch { .. })
    ));
    // Five rows of a four-row allocation.
    assert!(matches!(
        p.memcpy_2d(d, pitch, &host[..], 64, 64, 5),
        Err(SimError::OutOfRange {
            bytes: 320,
            len: 256,
            ..
        })
    ));
    // The host slice is too short for the rows.
    assert!(matches!(
        p.memcpy_2d(d, pitch, &host[..100], 64, 64, 4),
        Err(SimError::OutOfRange { .. })
    ));
    p.memcpy_2d(d, pitch, &host[..], 64, 0, 4).unwrap();
    p.memcpy_2d(d, pitch, &host[..], 64, 64, 0).unwrap();
    assert!(m.trace().ops.is_empty());
}

/// pitched-memory.md · Memsets · Memset2D, Memset3D → the rows (of every slice) set, the padding untouched; a
/// memset costs its bytes on the device (1 µs + 96 B / 500 GB/s = 1.001 µs).
#[test]
fn memsets_set_the_rows_only() {
    let (m, p) = machine(1);
    let (d, pitch) = p.malloc_pitch(48, 4).unwrap(); // pitch 64
    assert_eq!(pitch, 64);
    p.memset(d, 0x11, 256).unwrap();
    p.memset_2d(d, pitch, 0x22, 24, 4).unwrap();
    let mut out = vec![0u8; 256];
    p.memcpy(&mut out[..], d, 256).unwrap();
    for r in 0..4 {
        assert!(out[r * 64..r * 64 + 24].iter().all(|&b| b == 0x22));
        assert!(out[r * 64 + 24..(r + 1) * 64].iter().all(|&b| b == 0x11));
    }
    let t = m.trace();
    let (s, e) = span(&t, "memset_2d");
    assert_eq!(e.0 - s.0, 1_001);
    // Two slices of two rows (of 64 bytes), 8 bytes of each row.
    let (b, pitch) = p.malloc_3d(Extent::new(8, 2, 2)).unwrap();
    assert_eq!(pitch, 32);
    p.memset(b, 0, 128).unwrap();
    p.memset_3d(b, Pitch::slices(pitch, 2), 0x33, Extent::new(8, 2, 2))
        .unwrap();
    let mut out = [0u8; 128];
    p.memcpy(&mut out[..], b, 128).unwrap();
    for row in 0..4 {
        assert_eq!(&out[row * 32..row * 32 + 8], &[0x33; 8]);
        assert!(out[row * 32 + 8..(row + 1) * 32].iter().all(|&x| x == 0));
    }
    // Slices that overlap their rows: a slice of 1 row cannot hold 2.
    assert!(matches!(
        p.memset_3d(b, Pitch::slices(pitch, 1), 0, Extent::new(8, 2, 2)),
        Err(SimError::InvalidValue { .. })
    ));
}

/// pitched-memory.md · Copies · Memcpy3D · device → device → each slice's rows at the destination's pitch and
/// slice pitch.
#[test]
fn a_3d_copy_between_pitched_allocations() {
    let (_m, p) = machine(1);
    let e = Extent::new(20, 3, 2);
    let (a, pa) = p.malloc_3d(e).unwrap(); // pitch 32, 6 rows
    let (b, pb) = p.malloc_3d(Extent::new(40, 4, 2)).unwrap(); // pitch 64, 8 rows
    let mut src = vec![0u8; (pa * 6) as usize];
    for (i, row) in src.chunks_mut(pa as usize).enumerate() {
        row.fill(i as u8 + 1);
    }
    p.memcpy(a, &src[..], pa * 6).unwrap();
    p.memset(b, 0, pb * 8).unwrap();
    p.memcpy_3d((b, Pitch::slices(pb, 4)), (a, Pitch::slices(pa, 3)), e)
        .unwrap();
    let mut out = vec![0u8; (pb * 8) as usize];
    p.memcpy(&mut out[..], b, pb * 8).unwrap();
    for z in 0..2 {
        for y in 0..4 {
            let row = &out[((z * 4 + y) * pb) as usize..][..pb as usize];
            let want = if y < 3 { (z * 3 + y) as u8 + 1 } else { 0 };
            assert!(row[..20].iter().all(|&x| x == want), "z {z} y {y}");
            assert!(row[20..].iter().all(|&x| x == 0));
        }
    }
}

/// pitched-memory.md · Races · two 2-D copies on unordered streams → no race into interleaved rows (the rows,
/// not their bounding box, are checked); a race into the same rows, reported on the first row's bytes.
#[test]
fn two_2d_copies_race_only_on_the_rows_they_share() {
    let (m, p) = machine(1);
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let d = p.malloc(64 * 8).unwrap();
    let src = p.malloc_host(64 * 8).unwrap();
    // Even rows from s1, odd rows from s2: rows of 64 bytes at a pitch of 128.
    p.memcpy_2d_async(d, 128, src, 128, 64, 4, s1).unwrap();
    p.memcpy_2d_async(d.offset(64), 128, src, 128, 64, 4, s2)
        .unwrap();
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
    // The same rows from both streams.
    p.memcpy_2d_async(d, 128, src, 128, 64, 4, s1).unwrap();
    p.memcpy_2d_async(d, 128, src, 128, 32, 4, s2).unwrap();
    p.device_synchronize().unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].offset, r[0].bytes), (0, 32));
    assert!(r[0].first.write && r[0].second.write);
}

/// pitched-memory.md · Capture · a pitched copy on a capturing stream → a memcpy node of its rows (the capture
/// goes on; graph-building.md · Pitched nodes); pageable memory through the Rust API → NotSupported, the
/// capture not invalidated
#[test]
fn a_pitched_copy_is_captured_as_a_node() {
    let (_m, p) = machine(1);
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let d = p.malloc(256).unwrap();
    let h = p.malloc_host(256).unwrap();
    p.begin_capture(s, streamsim::CaptureMode::Global).unwrap();
    p.memcpy_2d_async(d, 64, h, 64, 32, 4, s).unwrap();
    let g = p.end_capture(s).unwrap();
    let nodes = p.graph_nodes(g).unwrap();
    assert_eq!(nodes.len(), 1);
    assert_eq!(p.node_type(nodes[0]).unwrap(), streamsim::NodeType::Memcpy);
    // A pageable side through the Rust API: a borrowed slice cannot outlive the call in a graph.
    let host = vec![0u8; 256];
    p.begin_capture(s, streamsim::CaptureMode::Global).unwrap();
    assert!(matches!(
        p.memcpy_2d_async(d, 64, &host[..], 64, 32, 4, s),
        Err(SimError::NotSupported { .. })
    ));
    p.end_capture(s).unwrap();
}

/// stream-ordered-memory.md · Access from other devices · SetAccess → a copy between the pool's memory and
/// another device's, run by the other device's stream, is staged through the host until the pool gives that
/// device access (peer access enabled with `enable_peer_access` does not reach pool memory), then takes the
/// peer link: 4 KiB cost 2 × (2 µs + 256 ns) staged, 3 µs + 82 ns over the link.
#[test]
fn pool_access_decides_the_path_of_a_copy_between_devices() {
    let (m, p) = machine(2);
    let pool = p.create_pool(PoolProps::new(0)).unwrap();
    p.set_device(1).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let src = p.malloc_from_pool_async(4096, pool, s).unwrap();
    let dst = p.malloc(4096).unwrap();
    p.enable_peer_access(0, 0).unwrap();
    p.memcpy_async(dst, src, 4096, s).unwrap();
    assert_eq!(p.pool_access(pool, 1).unwrap(), PoolAccess::None);
    p.set_pool_access(pool, &[(1, PoolAccess::ReadWrite)])
        .unwrap();
    assert_eq!(p.pool_access(pool, 1).unwrap(), PoolAccess::ReadWrite);
    assert_eq!(p.pool_access(pool, 0).unwrap(), PoolAccess::ReadWrite);
    p.memcpy_async(dst, src, 4096, s).unwrap();
    // Taken away again: staged.
    p.set_pool_access(pool, &[(1, PoolAccess::None)]).unwrap();
    p.memcpy_async(dst, src, 4096, s).unwrap();
    p.free_async(src, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let copies: Vec<(CopyPath, u64)> = m
        .trace()
        .ops
        .iter()
        .filter_map(|o| match o.kind {
            OpKind::Memcpy { path, .. } => Some((path, o.end.0 - o.start.0)),
            _ => None,
        })
        .collect();
    assert_eq!(
        copies,
        vec![
            (CopyPath::StagedThroughHost, 4_512),
            (CopyPath::PeerLink, 3_082),
            (CopyPath::StagedThroughHost, 4_512),
        ]
    );
}

/// stream-ordered-memory.md · Access from other devices · SetAccess · the pool's own device with anything but
/// read-write / a device without a link / read-only / not a device → refused, nothing applied (the whole list
/// is checked first); GetAccess of a device that is not one → InvalidDevice.
#[test]
fn pool_access_refusals() {
    let m = Machine::builder()
        .devices(3)
        .peer_links([(0, 1), (1, 2)])
        .build()
        .expect("machine");
    let p = m.process();
    let pool = p.create_pool(PoolProps::new(0)).unwrap();
    let own = p.set_pool_access(pool, &[(1, PoolAccess::ReadWrite), (0, PoolAccess::None)]);
    assert!(matches!(
        own,
        Err(SimError::MemPool {
            problem: PoolProblem::OwnDeviceAccess { device: 0 },
            ..
        })
    ));
    assert_eq!(p.pool_access(pool, 1).unwrap(), PoolAccess::None);
    p.set_pool_access(pool, &[(0, PoolAccess::ReadWrite)])
        .unwrap();
    assert!(matches!(
        p.set_pool_access(pool, &[(2, PoolAccess::ReadWrite)]),
        Err(SimError::MemPool {
            problem: PoolProblem::NoPeerLink {
                device: 2,
                pool_device: 0
            },
            ..
        })
    ));
    assert!(matches!(
        p.set_pool_access(pool, &[(1, PoolAccess::Read)]),
        Err(SimError::MemPool {
            problem: PoolProblem::AccessFlags(1),
            ..
        })
    ));
    assert!(matches!(
        p.set_pool_access(pool, &[(7, PoolAccess::ReadWrite)]),
        Err(SimError::InvalidDevice { device: 7, .. })
    ));
    assert!(matches!(
        p.pool_access(pool, -1),
        Err(SimError::InvalidDevice { .. })
    ));
}
