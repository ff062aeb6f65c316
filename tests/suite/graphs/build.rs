//! Graphs built by hand through the Rust API (`docs/semantics/graph-building.md`): nodes of each type, edges and
//! their rules, node removal, parameters on graphs and executable graphs, enabling, updates, child graphs,
//! replay times and races as for captured graphs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use streamsim::{
    CaptureMode, EventFlags, Graph, GraphNode, Kernel, Machine, MemsetShape, NodeMem, NodeSpec,
    NodeType, OpKind, Process, SimError, StreamFlags, StreamKind, UpdateResult,
};

fn k(name: &'static str, micros: u64) -> NodeSpec {
    NodeSpec::Kernel(Kernel::new(name).duration(Duration::from_micros(micros)))
}

fn machine() -> (Machine, Process) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    (m, p)
}

fn invalid(e: SimError, what: &str) {
    assert!(
        matches!(&e, SimError::InvalidValue { what: w, .. } if *w == what),
        "{e:?}"
    );
}

/// a → {b, c} → d, built by hand.
fn diamond(p: &Process) -> (Graph, [GraphNode; 4]) {
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 100)).unwrap();
    let b = p.add_graph_node(g, &[a], k("b", 200)).unwrap();
    let c = p.add_graph_node(g, &[a], k("c", 50)).unwrap();
    let d = p.add_graph_node(g, &[b, c], k("d", 10)).unwrap();
    (g, [a, b, c, d])
}

/// graph-building.md · Replay · a hand-built fork/join graph replays as the captured one does
/// (`graphs/replay.rs`): nodes as early as their dependencies allow, the launch lasts the critical path, the
/// same lanes
#[test]
fn a_hand_built_graph_replays_as_a_captured_one() {
    let (m, p) = machine();
    let (g, _) = diamond(&p);
    assert_eq!(p.graph_nodes(g).unwrap().len(), 4);
    assert_eq!(p.graph_edges(g).unwrap().len(), 4);
    assert_eq!(p.graph_root_nodes(g).unwrap().len(), 1);
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let span = |l: &str| {
        let o = t.find(l).unwrap();
        (o.start, o.end)
    };
    let start = before.plus(1_000).plus(2_000);
    assert_eq!(span("a"), (start, start.plus(100_000)));
    assert_eq!(span("b"), (start.plus(100_000), start.plus(300_000)));
    assert_eq!(span("c"), (start.plus(100_000), start.plus(150_000)));
    assert_eq!(span("d"), (start.plus(300_000), start.plus(310_000)));
    let lane = |l: &str| match t.find(l).unwrap().stream.kind {
        StreamKind::Graph { lane, .. } => lane,
        other => panic!("{l} ran on {other:?}"),
    };
    assert_eq!([lane("a"), lane("b"), lane("c"), lane("d")], [0, 0, 1, 0]);
}

/// graph-building.md · AddDependencies · an edge from a node to itself, an edge that exists, one listed twice, one
/// to a node of another graph or a destroyed node: InvalidValue, and none of the call's edges is added; one that
/// closes a cycle: added, and GraphInstantiate refuses the graph (InvalidValue) until it is removed;
/// RemoveDependencies of an edge that does not exist: InvalidValue, none removed
#[test]
fn edge_rules() {
    let (_m, p) = machine();
    let (g, [a, b, c, d]) = diamond(&p);
    let what = "add_graph_dependencies";
    invalid(p.add_graph_dependencies(g, &[(a, a)]).unwrap_err(), what);
    invalid(p.add_graph_dependencies(g, &[(a, b)]).unwrap_err(), what);
    invalid(
        p.add_graph_dependencies(g, &[(b, c), (b, c)]).unwrap_err(),
        what,
    );
    p.add_graph_dependencies(g, &[(d, a)]).unwrap();
    invalid(p.instantiate_graph(g).unwrap_err(), "instantiate_graph");
    p.remove_graph_dependencies(g, &[(d, a)]).unwrap();
    // All or nothing: the good first edge of a call that fails is not added.
    invalid(
        p.add_graph_dependencies(g, &[(b, c), (a, b)]).unwrap_err(),
        what,
    );
    assert_eq!(p.graph_edges(g).unwrap().len(), 4);
    let (h, [e, ..]) = diamond(&p);
    invalid(p.add_graph_dependencies(g, &[(a, e)]).unwrap_err(), what);
    invalid(p.add_graph_dependencies(h, &[(a, e)]).unwrap_err(), what);
    p.add_graph_dependencies(g, &[(b, c)]).unwrap();
    assert_eq!(p.node_dependencies(c).unwrap(), vec![a, b]);
    let what = "remove_graph_dependencies";
    invalid(p.remove_graph_dependencies(g, &[(c, b)]).unwrap_err(), what);
    invalid(
        p.remove_graph_dependencies(g, &[(b, c), (c, b)])
            .unwrap_err(),
        what,
    );
    assert_eq!(p.node_dependencies(c).unwrap(), vec![a, b]);
    p.remove_graph_dependencies(g, &[(b, c), (a, c)]).unwrap();
    assert_eq!(p.graph_root_nodes(g).unwrap(), vec![a, c]);
    p.destroy_graph_node(b).unwrap();
    invalid(
        p.add_graph_dependencies(g, &[(b, d)]).unwrap_err(),
        "add_graph_dependencies",
    );
}

/// graph-building.md · Add*Node · a dependency listed twice, one of another graph, one destroyed: InvalidValue;
/// a graph being captured into: InvalidValue; a destroyed graph: InvalidHandle (cudaErrorInvalidValue in C)
#[test]
fn node_dependency_rules() {
    let (_m, p) = machine();
    let what = "add_graph_node";
    let (g, [a, ..]) = diamond(&p);
    invalid(p.add_graph_node(g, &[a, a], k("x", 1)).unwrap_err(), what);
    let (h, [e, ..]) = diamond(&p);
    invalid(p.add_graph_node(g, &[e], k("x", 1)).unwrap_err(), what);
    p.destroy_graph(h).unwrap();
    invalid(p.add_graph_node(g, &[e], k("x", 1)).unwrap_err(), what);
    assert!(matches!(
        p.add_graph_node(h, &[], k("x", 1)).unwrap_err(),
        SimError::InvalidHandle { .. }
    ));
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.begin_capture(s, CaptureMode::Global).unwrap();
    let captured = p.capture_info(s).unwrap().graph.unwrap();
    invalid(
        p.add_graph_node(captured, &[], k("x", 1)).unwrap_err(),
        what,
    );
    p.end_capture(s).unwrap();
    assert_eq!(p.graph_nodes(g).unwrap().len(), 4);
}

/// graph-building.md · Instantiate · edges added after the nodes order them: y added after x, then x made to
/// depend on y, replays y first (a topological order of the edges, not the order of the calls)
#[test]
fn later_edges_order_the_replay() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let x = p.add_graph_node(g, &[], k("x", 30)).unwrap();
    let y = p.add_graph_node(g, &[], k("y", 20)).unwrap();
    p.add_graph_dependencies(g, &[(y, x)]).unwrap();
    assert_eq!(p.graph_root_nodes(g).unwrap(), vec![y]);
    let e = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(e, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("y").unwrap().start, start);
    assert_eq!(t.find("x").unwrap().start, start.plus(20_000));
    assert_eq!(t.find("x").unwrap().end, start.plus(50_000));
}

/// graph-building.md · DestroyNode · removes the node and its edges (its dependents keep their other
/// dependencies); its handle is dead; an executable graph made before keeps it
#[test]
fn destroying_a_node() {
    let (m, p) = machine();
    let (g, [a, b, c, d]) = diamond(&p);
    let before = p.instantiate_graph(g).unwrap();
    p.destroy_graph_node(b).unwrap();
    assert_eq!(p.graph_nodes(g).unwrap(), vec![a, c, d]);
    assert_eq!(p.node_dependencies(d).unwrap(), vec![c]);
    assert_eq!(p.node_dependents(a).unwrap(), vec![c]);
    assert!(matches!(
        p.node_type(b).unwrap_err(),
        SimError::InvalidHandle { .. }
    ));
    assert!(matches!(
        p.destroy_graph_node(b).unwrap_err(),
        SimError::InvalidHandle { .. }
    ));
    let after = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch_graph(after, s).unwrap();
    p.stream_synchronize(s).unwrap();
    assert!(m.trace().find("b").is_none());
    p.launch_graph(before, s).unwrap();
    p.stream_synchronize(s).unwrap();
    assert!(m.trace().find("b").is_some());
}

/// graph-building.md · SetParams / ExecSetParams · a graph's node changed after instantiation does not change
/// the executable graph; the executable graph's node changed changes its later launches only; a description of
/// another type, a node of another graph, a removed node: InvalidValue
#[test]
fn node_parameters_on_graphs_and_executable_graphs() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let n = p.add_graph_node(g, &[], k("first", 10)).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.set_graph_node(n, k("graph_changed", 40)).unwrap();
    invalid(
        p.set_graph_node(n, NodeSpec::Empty).unwrap_err(),
        "set_graph_node",
    );
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let first = t.find("first").unwrap();
    assert_eq!(first.end.0 - first.start.0, 10_000);
    assert!(t.find("graph_changed").is_none());
    p.set_exec_node(x, n, k("exec_changed", 70)).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let changed = t.find("exec_changed").unwrap();
    assert_eq!(changed.end.0 - changed.start.0, 70_000);
    let what = "set_exec_node";
    invalid(p.set_exec_node(x, n, NodeSpec::Empty).unwrap_err(), what);
    let (_, [other, ..]) = diamond(&p);
    invalid(p.set_exec_node(x, other, k("x", 1)).unwrap_err(), what);
    p.destroy_graph_node(n).unwrap();
    invalid(p.set_exec_node(x, n, k("x", 1)).unwrap_err(), what);
}

/// graph-building.md · NodeSetEnabled · a disabled kernel runs as an empty node (no time) until enabled again;
/// GetEnabled reports it; a host node cannot be disabled: InvalidValue
#[test]
fn disabled_nodes_run_as_empty_nodes() {
    let (m, p) = machine();
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 100)).unwrap();
    let b = p.add_graph_node(g, &[a], k("b", 10)).unwrap();
    let h = p
        .add_graph_node(g, &[b], NodeSpec::Host(Arc::new(|| {})))
        .unwrap();
    let x = p.instantiate_graph(g).unwrap();
    assert!(p.exec_node_enabled(x, a).unwrap());
    p.set_exec_node_enabled(x, a, false).unwrap();
    assert!(!p.exec_node_enabled(x, a).unwrap());
    invalid(
        p.set_exec_node_enabled(x, h, false).unwrap_err(),
        "set_exec_node_enabled",
    );
    invalid(p.exec_node_enabled(x, h).unwrap_err(), "exec_node_enabled");
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let start = before.plus(3_000);
    let t = m.trace();
    // `a` is an empty operation (0 ns) under its label, `b` starts at once.
    let a_op = t.find("a").unwrap();
    assert_eq!((a_op.start, a_op.end), (start, start));
    assert_eq!(t.find("b").unwrap().start, start);
    p.set_exec_node_enabled(x, a, true).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let bs: Vec<_> = t.ops.iter().filter(|o| o.label == "b").collect();
    assert_eq!(bs.len(), 2);
    assert_eq!(bs[1].start, before.plus(3_000).plus(100_000));
}

/// graph-building.md · ExecUpdate · a graph of the same topology updates the executable graph (its kernels'
/// new durations at the next launch); a node count, a dependency, a node type that differ are
/// TopologyChanged (no node), TopologyChanged (the node and the dependency), NodeTypeChanged (the node), and
/// leave the executable graph as it was
#[test]
fn exec_update_results() {
    let (m, p) = machine();
    let (g, _) = diamond(&p);
    let x = p.instantiate_graph(g).unwrap();
    // Same topology, new durations.
    let g2 = p.create_graph().unwrap();
    let a2 = p.add_graph_node(g2, &[], k("a2", 1)).unwrap();
    let b2 = p.add_graph_node(g2, &[a2], k("b2", 2)).unwrap();
    let c2 = p.add_graph_node(g2, &[a2], k("c2", 3)).unwrap();
    let d2 = p.add_graph_node(g2, &[b2, c2], k("d2", 4)).unwrap();
    let ok = p.update_graph_exec(x, g2).unwrap();
    assert_eq!(ok.result, UpdateResult::Success);
    // g2's nodes now name x's nodes.
    p.set_exec_node(x, d2, k("d3", 5)).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("a2").unwrap().start, start);
    assert_eq!(t.find("d3").unwrap().start, start.plus(4_000));
    assert_eq!(t.find("d3").unwrap().end, start.plus(9_000));
    let outcome = |e: SimError| match e {
        SimError::GraphExecUpdate { what, outcome, .. } => {
            assert_eq!(what, "update_graph_exec");
            outcome
        }
        other => panic!("{other:?}"),
    };
    // Fewer nodes.
    let g3 = p.create_graph().unwrap();
    p.add_graph_node(g3, &[], k("a", 1)).unwrap();
    let o = outcome(p.update_graph_exec(x, g3).unwrap_err());
    assert_eq!(
        (o.result, o.error_node, o.error_from),
        (UpdateResult::TopologyChanged, None, None)
    );
    // d depends on b only.
    let g4 = p.create_graph().unwrap();
    let a4 = p.add_graph_node(g4, &[], k("a", 1)).unwrap();
    let b4 = p.add_graph_node(g4, &[a4], k("b", 1)).unwrap();
    let c4 = p.add_graph_node(g4, &[a4], k("c", 1)).unwrap();
    let d4 = p.add_graph_node(g4, &[b4], k("d", 1)).unwrap();
    let o = outcome(p.update_graph_exec(x, g4).unwrap_err());
    assert_eq!(
        (o.result, o.error_node),
        (UpdateResult::TopologyChanged, Some(d4))
    );
    // d depends on c and b (the dependencies pair in edge order).
    p.add_graph_dependencies(g4, &[(c4, d4)]).unwrap();
    p.remove_graph_dependencies(g4, &[(b4, d4)]).unwrap();
    p.add_graph_dependencies(g4, &[(b4, d4)]).unwrap();
    let o = outcome(p.update_graph_exec(x, g4).unwrap_err());
    assert_eq!(
        (o.result, o.error_node, o.error_from),
        (UpdateResult::TopologyChanged, Some(d4), Some(c4))
    );
    // c is an empty node.
    let g5 = p.create_graph().unwrap();
    let a5 = p.add_graph_node(g5, &[], k("a", 1)).unwrap();
    let b5 = p.add_graph_node(g5, &[a5], k("b", 1)).unwrap();
    let c5 = p.add_graph_node(g5, &[a5], NodeSpec::Empty).unwrap();
    p.add_graph_node(g5, &[b5, c5], k("d", 1)).unwrap();
    let o = outcome(p.update_graph_exec(x, g5).unwrap_err());
    assert_eq!(
        (o.result, o.error_node),
        (UpdateResult::NodeTypeChanged, Some(c5))
    );
    assert_eq!(UpdateResult::NodeTypeChanged.to_raw(), 3);
    // x is as the successful update left it.
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let d3: Vec<_> = t.ops.iter().filter(|o| o.label == "d3").collect();
    assert_eq!(d3[1].start, before.plus(3_000).plus(4_000));
}

/// graph-building.md · Memset node · rows of elements of 1, 2 or 4 bytes, `pitch` bytes apart: only the rows
/// are written; element size 3, zero width, a pitch shorter than a row: InvalidValue
#[test]
fn memset_nodes_write_rows_of_elements() {
    let (_m, p) = machine();
    let buf = p.malloc(64).unwrap();
    p.memset(buf, 0xee, 64).unwrap();
    let g = p.create_graph().unwrap();
    let shape = MemsetShape {
        pitch: 16,
        value: 0x1122_3344,
        element_size: 4,
        width: 2,
        height: 3,
    };
    let n = p
        .add_graph_node(g, &[], NodeSpec::Memset { dst: buf, shape })
        .unwrap();
    assert_eq!(p.node_type(n).unwrap(), NodeType::Memset);
    assert_eq!(p.graph_node_memset(n).unwrap(), (buf, shape));
    let what = "add_graph_node";
    for bad in [
        MemsetShape {
            element_size: 3,
            ..shape
        },
        MemsetShape { width: 0, ..shape },
        MemsetShape { pitch: 4, ..shape },
    ] {
        invalid(
            p.add_graph_node(
                g,
                &[],
                NodeSpec::Memset {
                    dst: buf,
                    shape: bad,
                },
            )
            .unwrap_err(),
            what,
        );
    }
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut out = [0u8; 64];
    p.memcpy(&mut out[..], buf, 64).unwrap();
    let row = [0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11];
    for r in 0..4 {
        let line = &out[r * 16..r * 16 + 16];
        if r < 3 {
            assert_eq!(&line[..8], &row, "row {r}");
        } else {
            assert_eq!(&line[..8], &[0xee; 8], "row {r}");
        }
        assert_eq!(&line[8..], &[0xee; 8], "gap after row {r}");
    }
}

/// graph-building.md · GraphAddMemsetNode · managed memory: rows of managed memory set at each launch, as
/// `cudaMemset` sets it; an executable graph's memset moves to other managed memory but not to device memory
/// (InvalidValue); pinned host memory is not a memset node's (InvalidAddress)
#[test]
fn memset_nodes_set_managed_memory() {
    let (_m, p) = machine();
    let a = p
        .malloc_managed(64, streamsim::ManagedAttach::Global)
        .unwrap();
    let b = p
        .malloc_managed(64, streamsim::ManagedAttach::Global)
        .unwrap();
    let dev = p.malloc(64).unwrap();
    let shape = MemsetShape {
        pitch: 16,
        value: 0xabab_abab,
        element_size: 1,
        width: 8,
        height: 2,
    };
    let g = p.create_graph().unwrap();
    let on = |addr: u64| NodeSpec::Memset {
        dst: streamsim::DevicePtr(addr),
        shape,
    };
    let n = p.add_graph_node(g, &[], on(a.addr())).unwrap();
    let pinned = p.malloc_host(64).unwrap();
    assert!(matches!(
        p.add_graph_node(g, &[], on(pinned.addr())).unwrap_err(),
        SimError::InvalidAddress { .. }
    ));
    let x = p.instantiate_graph(g).unwrap();
    invalid(
        p.set_exec_node(x, n, on(dev.addr())).unwrap_err(),
        "set_exec_node",
    );
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch_graph(x, s).unwrap();
    p.set_exec_node(x, n, on(b.addr())).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    for h in [a, b] {
        let mut out = [0u8; 32];
        p.host_read(h, &mut out).unwrap();
        assert_eq!(&out[..8], &[0xab; 8]);
        assert_eq!(&out[8..16], &[0; 8]);
        assert_eq!(&out[16..24], &[0xab; 8]);
        assert_eq!(&out[24..], &[0; 8]);
    }
}

/// graph-building.md · Memcpy node · a copy between device and pinned memory at every launch; freed before a
/// launch: the launch fails (a node keeps addresses, resolved at each launch)
#[test]
fn memcpy_nodes_copy_at_every_launch() {
    let (_m, p) = machine();
    let (src, dst) = (p.malloc(16).unwrap(), p.malloc_host(16).unwrap());
    p.memset(src, 7, 16).unwrap();
    let g = p.create_graph().unwrap();
    p.add_graph_node(
        g,
        &[],
        NodeSpec::Memcpy {
            dst: NodeMem::Pinned(dst),
            src: NodeMem::Device(src),
            bytes: 16,
        },
    )
    .unwrap();
    invalid(
        p.add_graph_node(
            g,
            &[],
            NodeSpec::Memcpy {
                dst: NodeMem::Pinned(dst),
                src: NodeMem::Device(src),
                bytes: 0,
            },
        )
        .unwrap_err(),
        "add_graph_node",
    );
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut out = [0u8; 16];
    p.host_read(dst, &mut out).unwrap();
    assert_eq!(out, [7; 16]);
    p.memset(src, 9, 16).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    p.host_read(dst, &mut out).unwrap();
    assert_eq!(out, [9; 16]);
    p.free(src).unwrap();
    assert!(matches!(
        p.launch_graph(x, s).unwrap_err(),
        SimError::InvalidAddress { .. }
    ));
}

/// graph-building.md · ChildGraph node · a copy of the child made when it is added (later changes to the child
/// do not reach it), type Graph (4), inlined at instantiation: its roots after the node's dependencies, its
/// sinks before the node's dependents
#[test]
fn child_graphs_are_copied_and_inlined() {
    let (m, p) = machine();
    let child = p.create_graph().unwrap();
    let c1 = p.add_graph_node(child, &[], k("c1", 10)).unwrap();
    p.add_graph_node(child, &[c1], k("c2", 20)).unwrap();
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 5)).unwrap();
    let n = p
        .add_graph_node(g, &[a], NodeSpec::ChildGraph(child))
        .unwrap();
    p.add_graph_node(g, &[n], k("z", 1)).unwrap();
    assert_eq!(p.node_type(n).unwrap(), NodeType::Graph);
    assert_eq!(NodeType::Graph.to_raw(), 4);
    p.add_graph_node(child, &[], k("late", 1000)).unwrap();
    // The graph as its own child: a copy of its nodes as they are (hip-tests' OrgGraphAsChildGraph).
    let own = p.add_graph_node(g, &[], NodeSpec::ChildGraph(g)).unwrap();
    p.destroy_graph_node(own).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("c1").unwrap().start, start.plus(5_000));
    assert_eq!(t.find("c2").unwrap().start, start.plus(15_000));
    assert_eq!(t.find("z").unwrap().start, start.plus(35_000));
    assert!(t.find("late").is_none());
}

/// graph-building.md · EventRecord / EventWait nodes · a record node records its event at each launch (the
/// event then stands for the node's dependencies); a wait node waits for the event's record current at the
/// launch; a destroyed event is InvalidValue when the node is added
#[test]
fn event_nodes() {
    let (m, p) = machine();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 100)).unwrap();
    let r = p.add_graph_node(g, &[a], NodeSpec::EventRecord(e)).unwrap();
    p.add_graph_node(g, &[r], k("after", 50)).unwrap();
    assert_eq!(p.graph_node_event(r).unwrap(), e);
    assert_eq!(p.node_type(r).unwrap(), NodeType::EventRecord);
    let x = p.instantiate_graph(g).unwrap();
    let (s, t) = (
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
        p.create_stream(StreamFlags::NON_BLOCKING).unwrap(),
    );
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_wait_event(t, e).unwrap();
    p.launch(t, Kernel::new("waiter").duration(Duration::from_micros(1)))
        .unwrap();
    p.device_synchronize().unwrap();
    let tr = m.trace();
    // The waiter starts when `a` (the record node's dependency) ends, not after `after`.
    assert_eq!(
        tr.find("waiter").unwrap().start,
        before.plus(3_000).plus(100_000)
    );
    // A wait node in a second graph orders its node after the record of the first one's launch.
    let g2 = p.create_graph().unwrap();
    let w = p.add_graph_node(g2, &[], NodeSpec::EventWait(e)).unwrap();
    p.add_graph_node(g2, &[w], k("gated", 1)).unwrap();
    let x2 = p.instantiate_graph(g2).unwrap();
    let u = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.launch_graph(x2, u).unwrap();
    p.device_synchronize().unwrap();
    let tr = m.trace();
    let a2 = tr.ops.iter().filter(|o| o.label == "a").nth(1).unwrap();
    assert!(a2.start >= before);
    assert_eq!(tr.find("gated").unwrap().start, a2.end);
    let dead = p.create_event(EventFlags::DEFAULT).unwrap();
    p.destroy_event(dead).unwrap();
    invalid(
        p.add_graph_node(g, &[], NodeSpec::EventRecord(dead))
            .unwrap_err(),
        "add_graph_node",
    );
}

/// graph-building.md · Replay · races · two hand-built kernel nodes that write one buffer with no edge between
/// them race (named by their lanes); with an edge they do not
#[test]
fn unordered_hand_built_nodes_race() {
    let (m, p) = machine();
    let buf = p.malloc(64).unwrap();
    let w = |name: &'static str| {
        NodeSpec::Kernel(
            Kernel::new(name)
                .duration(Duration::from_micros(10))
                .writes(buf, 64),
        )
    };
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], w("w1")).unwrap();
    let b = p.add_graph_node(g, &[], w("w2")).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:#?}");
    p.add_graph_dependencies(g, &[(a, b)]).unwrap();
    let x = p.instantiate_graph(g).unwrap();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    assert_eq!(m.race_reports().len(), 1, "{:#?}", m.race_reports());
}

/// graph-building.md · Host node · runs at every launch; its body must be shareable (a graph runs it again)
#[test]
fn host_nodes_run_at_every_launch() {
    let (m, p) = machine();
    let count = Arc::new(AtomicU32::new(0));
    let c = count.clone();
    let g = p.create_graph().unwrap();
    p.add_graph_node(
        g,
        &[],
        NodeSpec::Host(Arc::new(move || {
            c.fetch_add(1, Ordering::SeqCst);
        })),
    )
    .unwrap();
    let once = Kernel::new("once").body(|_| Ok(()));
    assert!(matches!(
        p.add_graph_node(g, &[], NodeSpec::Kernel(once))
            .unwrap_err(),
        SimError::NotSupported { .. }
    ));
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    for _ in 0..3 {
        p.launch_graph(x, s).unwrap();
    }
    p.stream_synchronize(s).unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 3);
    p.upload_graph(x, s).unwrap();
    let gx = m.trace();
    assert_eq!(
        gx.ops
            .iter()
            .filter(|o| matches!(o.kind, OpKind::HostFunction))
            .count(),
        3
    );
}

/// graph-building.md · Building · through both C facades: GraphCreate with flags 1 → 1; a dependency listed twice
/// → 1; a kernel node whose `func` is not a registered kernel → 98; both `kernelParams` and `extra` → 1; an empty
/// node → 0, listed by GraphGetNodes
#[test]
fn the_c_facades_answer_the_building_codes() {
    use std::ffi::c_void;
    use std::ptr::null_mut;
    macro_rules! family {
        ($m:ident, $create:ident, $empty:ident, $kernel:ident, $nodes:ident, $params:ident, $dim:expr) => {{
            use streamsim::$m::*;
            let m = Machine::builder().devices(1).build().unwrap();
            let p = m.process();
            let _b = p.bind();
            // SAFETY: the facade's C functions, called with valid pointers.
            unsafe {
                let mut g: *mut c_void = null_mut();
                assert_eq!($create(&mut g, 1), 1);
                assert_eq!($create(&mut g, 0), 0);
                let mut a: *mut c_void = null_mut();
                assert_eq!($empty(&mut a, g, std::ptr::null(), 0), 0);
                let twice = [a, a];
                let mut b: *mut c_void = null_mut();
                assert_eq!($empty(&mut b, g, twice.as_ptr(), 2), 1);
                let mut arg = 0u64;
                let mut args = [(&mut arg as *mut u64).cast::<c_void>()];
                let mut params = $params {
                    func: 0x1234 as *mut c_void,
                    gridDim: $dim,
                    blockDim: $dim,
                    sharedMemBytes: 0,
                    kernelParams: args.as_mut_ptr(),
                    extra: null_mut(),
                };
                assert_eq!($kernel(&mut b, g, &a, 1, &params), 98);
                params.extra = args.as_mut_ptr();
                assert_eq!($kernel(&mut b, g, &a, 1, &params), 1);
                let mut n = 0usize;
                assert_eq!($nodes(g, null_mut(), &mut n), 0);
                assert_eq!(n, 1);
            }
        }};
    }
    let dim = streamsim::cuda::dim3 { x: 1, y: 1, z: 1 };
    family!(
        cuda,
        cudaGraphCreate,
        cudaGraphAddEmptyNode,
        cudaGraphAddKernelNode,
        cudaGraphGetNodes,
        cudaKernelNodeParams,
        dim
    );
    family!(
        musa,
        musaGraphCreate,
        musaGraphAddEmptyNode,
        musaGraphAddKernelNode,
        musaGraphGetNodes,
        musaKernelNodeParams,
        dim
    );
}
