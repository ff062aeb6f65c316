//! A graph's launch replays its DAG: node times from the dependencies, lanes in the trace, races.

use std::time::Duration;

use streamsim::{
    CaptureMode, EventFlags, Kernel, Machine, OpKind, Stream, StreamFlags, StreamKind,
};

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
}

/// A one-device machine with race detection and a process.
fn machine() -> (Machine, streamsim::Process) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    (m, p)
}

/// Captures on `s`: `w1` writes `buf`, then, on a fork through an event, `r` reads it unordered with `w2`,
/// which writes it on the origin; joined back. Returns the graph.
fn racy_graph(p: &streamsim::Process, s: Stream, buf: streamsim::DevicePtr) -> streamsim::Graph {
    let t = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (e1, e2) = (
        p.create_event(EventFlags::DEFAULT).unwrap(),
        p.create_event(EventFlags::DEFAULT).unwrap(),
    );
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(s, k("w1", 10).writes(buf, 64)).unwrap();
    p.record_event(e1, s).unwrap();
    p.stream_wait_event(t, e1).unwrap();
    p.launch(t, k("r", 10).reads(buf, 64)).unwrap();
    p.launch(s, k("w2", 10).writes(buf, 64)).unwrap();
    p.record_event(e2, t).unwrap();
    p.stream_wait_event(s, e2).unwrap();
    p.end_capture(s).unwrap()
}

/// capture-and-graphs.md · Replay · races · two nodes the DAG leaves unordered race (the read on the fork and
/// the origin's second write), named by their lanes; the nodes the DAG orders do not
#[test]
fn a_race_between_unordered_nodes_is_reported() {
    let (m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let buf = p.malloc(64).unwrap();
    let g = racy_graph(&p, s, buf);
    assert!(
        m.race_reports().is_empty(),
        "nothing ran during the capture"
    );
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:#?}");
    let labels = |a: &streamsim::RaceAccess| match &a.who {
        streamsim::Accessor::Op { label, stream, .. } => (label.clone(), stream.kind),
        other => panic!("{other:?}"),
    };
    let (first, second) = (labels(&r[0].first), labels(&r[0].second));
    let names = [first.0.as_str(), second.0.as_str()];
    assert!(names.contains(&"r") && names.contains(&"w2"), "{names:?}");
    assert!(
        matches!(first.1, StreamKind::Graph { .. }) && matches!(second.1, StreamKind::Graph { .. })
    );
    assert_ne!(first.1, second.1, "two lanes");
}

/// capture-and-graphs.md · Replay · launches · the same executable graph launched on two unsynchronized
/// streams: the second launch is ordered after the first (cudaGraphLaunch: "ordered behind … any previous
/// launches of graphExec"), so a graph that writes a buffer does not race with itself, and its roots start at
/// the first launch's end
#[test]
fn one_executable_graph_on_two_streams_is_ordered() {
    let (m, p) = machine();
    let (s, t, u) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let buf = p.malloc(64).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(s, k("write", 100).writes(buf, 64)).unwrap();
    let g = p.end_capture(s).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, t).unwrap();
    p.launch_graph(x, u).unwrap();
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty(), "{:#?}", m.race_reports());
    let writes: Vec<_> = m
        .trace()
        .ops
        .into_iter()
        .filter(|o| o.label == "write")
        .collect();
    assert_eq!(writes.len(), 2);
    assert_eq!(
        writes[1].start, writes[0].end,
        "the second launch waits for the first"
    );
}

/// capture-and-graphs.md · Replay · launches · two executable graphs of the same graph on two unsynchronized
/// streams race exactly as the streams do: one report (write / write), and both start at once
#[test]
fn two_executable_graphs_on_two_streams_race() {
    let (m, p) = machine();
    let (s, t, u) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let buf = p.malloc(64).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(s, k("write", 100).writes(buf, 64)).unwrap();
    let g = p.end_capture(s).unwrap();
    let (x, y) = (
        p.instantiate_graph(g).unwrap(),
        p.instantiate_graph(g).unwrap(),
    );
    p.launch_graph(x, t).unwrap();
    p.launch_graph(y, u).unwrap();
    p.device_synchronize().unwrap();
    assert_eq!(m.race_reports().len(), 1, "{:#?}", m.race_reports());
    // Ordered by an event between the streams: no race.
    let (m2, p2) = machine();
    let (s2, t2, u2) = (
        p2.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p2.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p2.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let buf2 = p2.malloc(64).unwrap();
    p2.begin_capture(s2, CaptureMode::Global).unwrap();
    p2.launch(s2, k("write", 100).writes(buf2, 64)).unwrap();
    let g2 = p2.end_capture(s2).unwrap();
    let (x2, y2) = (
        p2.instantiate_graph(g2).unwrap(),
        p2.instantiate_graph(g2).unwrap(),
    );
    let e = p2.create_event(EventFlags::DEFAULT).unwrap();
    p2.launch_graph(x2, t2).unwrap();
    p2.record_event(e, t2).unwrap();
    p2.stream_wait_event(u2, e).unwrap();
    p2.launch_graph(y2, u2).unwrap();
    p2.device_synchronize().unwrap();
    assert!(m2.race_reports().is_empty(), "{:#?}", m2.race_reports());
}

/// capture-and-graphs.md · Replay · races · a graph launch and work on another stream: the graph's write and an
/// unordered copy race; after a synchronize of the launch stream they do not
#[test]
fn a_graph_races_with_another_stream() {
    let (m, p) = machine();
    let (s, t) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let buf = p.malloc(64).unwrap();
    let host = p.malloc_host(64).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(s, k("produce", 100).writes(buf, 64)).unwrap();
    let g = p.end_capture(s).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.memcpy_async(host, buf, 64, t).unwrap();
    p.device_synchronize().unwrap();
    assert_eq!(m.race_reports().len(), 1);
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    p.memcpy_async(host, buf, 64, t).unwrap();
    p.device_synchronize().unwrap();
    assert_eq!(
        m.race_reports().len(),
        1,
        "the synchronized copy adds no report"
    );
}

/// capture-and-graphs.md · Replay · bodies · a captured kernel body and host function run at every launch
/// (shared bodies); a one-shot body cannot be captured (NotSupported), nor a one-shot host function
#[test]
fn bodies_run_at_every_launch() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};
    let (_m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let (kernels, hosts) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
    let (kc, hc) = (kernels.clone(), hosts.clone());
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(
        s,
        k("counted", 10).shared_body(move |_| {
            kc.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }),
    )
    .unwrap();
    p.launch_host_func_shared(s, move || {
        hc.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    assert!(matches!(
        p.launch(s, k("once", 10).body(|_| Ok(()))),
        Err(streamsim::SimError::NotSupported { .. })
    ));
    assert!(matches!(
        p.launch_host_func(s, || {}),
        Err(streamsim::SimError::NotSupported { .. })
    ));
    let g = p.end_capture(s).unwrap();
    assert_eq!(
        p.graph_nodes(g).unwrap().len(),
        2,
        "the refused calls added no node"
    );
    let x = p.instantiate_graph(g).unwrap();
    for _ in 0..3 {
        p.launch_graph(x, s).unwrap();
    }
    p.stream_synchronize(s).unwrap();
    assert_eq!(
        (kernels.load(Ordering::SeqCst), hosts.load(Ordering::SeqCst)),
        (3, 3)
    );
}

/// capture-and-graphs.md · Replay · memory · a node's addresses are resolved at every launch: after the buffer
/// is freed the launch is refused (InvalidAddress, nothing enqueued)
#[test]
fn a_launch_after_free_is_refused() {
    let (m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let buf = p.malloc(64).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.memset_async(buf, 1, 64, s).unwrap();
    let g = p.end_capture(s).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.free(buf).unwrap();
    assert!(matches!(
        p.launch_graph(x, s),
        Err(streamsim::SimError::InvalidAddress { .. })
    ));
    p.stream_synchronize(s).unwrap();
    assert!(m.trace().ops.is_empty(), "{:#?}", m.trace().ops);
}

/// capture-and-graphs.md · Replay · the launch stream · work enqueued on the launch stream after a launch
/// starts after the graph's sinks; a device synchronize waits for the graph's lanes; an executable graph
/// destroyed right after its launch still runs
#[test]
fn the_launch_stream_is_ordered_after_the_graph() {
    let (m, p) = machine();
    let (s, t) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.launch(s, k("inside", 500)).unwrap();
    let g = p.end_capture(s).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, t).unwrap();
    p.destroy_graph_exec(x).unwrap();
    p.launch(t, k("after", 10)).unwrap();
    p.device_synchronize().unwrap();
    let tr = m.trace();
    let inside = tr.find("inside").unwrap();
    let after = tr.find("after").unwrap();
    assert_eq!(after.start, inside.end);
    assert!(p.now() >= after.end);
    assert_eq!(inside.end.as_nanos() - inside.start.as_nanos(), 500_000);
}

/// capture-and-graphs.md · Replay · external events · an event record node records its event at every launch,
/// after the node's dependencies (other work waits on it); an event wait node waits for the event's record
/// current at the launch
#[test]
fn external_event_nodes() {
    let (m, p) = machine();
    let (s, t, other) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let (done, input) = (
        p.create_event(EventFlags::DEFAULT).unwrap(),
        p.create_event(EventFlags::DEFAULT).unwrap(),
    );
    p.begin_capture(s, CaptureMode::Global).unwrap();
    p.stream_wait_event_external(s, input).unwrap();
    p.launch(s, k("graph work", 100)).unwrap();
    p.record_event_external(done, s).unwrap();
    let g = p.end_capture(s).unwrap();
    let types: Vec<_> = p
        .graph_nodes(g)
        .unwrap()
        .into_iter()
        .map(|n| p.node_type(n).unwrap())
        .collect();
    use streamsim::NodeType;
    assert_eq!(
        types,
        [NodeType::EventWait, NodeType::Kernel, NodeType::EventRecord]
    );
    let x = p.instantiate_graph(g).unwrap();
    p.launch(other, k("producer", 300)).unwrap();
    p.record_event(input, other).unwrap();
    p.launch_graph(x, t).unwrap();
    p.stream_wait_event(other, done).unwrap();
    p.launch(other, k("consumer", 10)).unwrap();
    p.device_synchronize().unwrap();
    let tr = m.trace();
    let (producer, work, consumer) = (
        tr.find("producer").unwrap(),
        tr.find("graph work").unwrap(),
        tr.find("consumer").unwrap(),
    );
    assert_eq!(
        work.start, producer.end,
        "the wait node waited for the producer"
    );
    assert_eq!(
        consumer.start, work.end,
        "the consumer waited for the record node"
    );
    // Outside a capture the External calls are refused.
    assert!(matches!(
        p.record_event_external(done, s),
        Err(streamsim::SimError::Capture {
            problem: streamsim::CaptureProblem::NotCapturing,
            ..
        })
    ));
}

/// capture-and-graphs.md · Replay · the launch stream · a launch on the legacy stream waits for the device's
/// blocking streams, and a blocking stream's later work waits for the launch (the legacy stream's rules apply
/// to the launch as to any of its operations)
#[test]
fn a_launch_on_the_legacy_stream() {
    let (m, p) = machine();
    let (cap, blocking) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::DEFAULT).unwrap(),
    );
    p.begin_capture(cap, CaptureMode::Global).unwrap();
    p.launch(cap, k("node", 50)).unwrap();
    let g = p.end_capture(cap).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch(blocking, k("before", 200)).unwrap();
    p.launch_graph(x, Stream::DEFAULT).unwrap();
    p.launch(blocking, k("after", 10)).unwrap();
    p.device_synchronize().unwrap();
    let tr = m.trace();
    let (before, node, after) = (
        tr.find("before").unwrap(),
        tr.find("node").unwrap(),
        tr.find("after").unwrap(),
    );
    assert_eq!(node.start, before.end);
    assert_eq!(after.start, node.end);
}

/// capture-and-graphs.md · Replay · devices · CUDA: a graph captured on device 0 launched on a stream of device 1
/// (hip-tests StreamCaptureDeviceContextChg): its nodes run on device 0's lanes, after the launch stream's work
#[test]
fn a_launch_from_another_device() {
    let m = Machine::builder().devices(2).build().unwrap();
    let p = m.process();
    let s0 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.begin_capture(s0, CaptureMode::Global).unwrap();
    p.launch(s0, k("on device 0", 50)).unwrap();
    let g = p.end_capture(s0).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.set_device(1).unwrap();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch(s1, k("first on 1", 100)).unwrap();
    p.launch_graph(x, s1).unwrap();
    p.stream_synchronize(s1).unwrap();
    let tr = m.trace();
    let (first, node) = (
        tr.find("first on 1").unwrap(),
        tr.find("on device 0").unwrap(),
    );
    assert_eq!((node.stream.device, first.stream.device), (0, 1));
    assert_eq!(node.start, first.end);
}
