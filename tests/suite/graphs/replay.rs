//! A graph's launch replays its DAG: node times from the dependencies, lanes in the trace, races.

use std::time::Duration;

use streamsim::{
    CaptureMode, EventFlags, Kernel, Machine, OpKind, Stream, StreamFlags, StreamKind, VirtualTime,
};

fn us(n: u64) -> VirtualTime {
    VirtualTime(n * 1_000)
}

fn k(name: &'static str, micros: u64) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(micros))
}

/// capture-and-graphs.md · Replay · a fork/join capture launched once: nodes as early as their dependencies
/// allow; the launch lasts the critical path (100 + 200 + 10 µs).
#[test]
fn fork_join_replay_times_are_the_critical_path() {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s3 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (e1, e2) = (
        p.create_event(EventFlags::DEFAULT).unwrap(),
        p.create_event(EventFlags::DEFAULT).unwrap(),
    );
    p.begin_capture(s1, CaptureMode::Global).unwrap();
    p.launch(s1, k("a", 100)).unwrap();
    p.record_event(e1, s1).unwrap();
    p.stream_wait_event(s2, e1).unwrap();
    p.launch(s1, k("b", 200)).unwrap();
    p.launch(s2, k("c", 50)).unwrap();
    p.record_event(e2, s2).unwrap();
    p.stream_wait_event(s1, e2).unwrap();
    p.launch(s1, k("d", 10)).unwrap();
    let g = p.end_capture(s1).unwrap();
    assert_eq!(p.graph_nodes(g).unwrap().len(), 4);
    assert_eq!(p.graph_edges(g).unwrap().len(), 4);
    // Nothing ran during the capture.
    p.device_synchronize().unwrap();
    assert!(m.trace().ops.is_empty(), "{:#?}", m.trace().ops);
    let x = p.instantiate_graph(g).unwrap();
    let before = p.now();
    p.launch_graph(x, s3).unwrap();
    p.stream_synchronize(s3).unwrap();
    let t = m.trace();
    let span = |l: &str| {
        let o = t.find(l).unwrap();
        (o.start, o.end)
    };
    // The launch call's host time plus the launch latency (2 µs): the marker, then the roots.
    let start = before.plus(1_000).plus(2_000);
    assert_eq!(span("a"), (start, start.plus(100_000)));
    assert_eq!(span("b"), (start.plus(100_000), start.plus(300_000)));
    assert_eq!(span("c"), (start.plus(100_000), start.plus(150_000)));
    assert_eq!(span("d"), (start.plus(300_000), start.plus(310_000)));
    let end = t
        .ops
        .iter()
        .find(|o| matches!(o.kind, OpKind::GraphEnd { .. }))
        .unwrap();
    assert_eq!(end.end, start.plus(310_000));
    // Two lanes: a, b, d on lane 0; c on lane 1.
    let lane = |l: &str| match t.find(l).unwrap().stream.kind {
        StreamKind::Graph { lane, .. } => lane,
        other => panic!("{l} ran on {other:?}"),
    };
    assert_eq!([lane("a"), lane("b"), lane("c"), lane("d")], [0, 0, 1, 0]);
    let _ = us(0);
    let _ = Stream::DEFAULT;
}
