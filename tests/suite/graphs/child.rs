//! Capture into an existing graph, child graph nodes' embedded graphs, executable child graph nodes and the
//! nodes of a clone, through the Rust API (`docs/semantics/graph-building.md`, "Capture into a graph" and
//! "Child graphs and clones"), with the virtual times of the launches.

use std::time::Duration;

use streamsim::{CaptureMode, Kernel, Machine, NodeSpec, NodeType, Process, SimError, StreamFlags};

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

/// graph-building.md · StreamBeginCaptureToGraph · the captured nodes go into the graph after its own, the
/// first depending on the given nodes; EndCapture returns that graph; a launch runs the hand-built node, then
/// the captured ones (1 µs launch call + 2 µs for the launch's marker, then 100 + 50 µs)
#[test]
fn a_capture_into_a_graph_follows_the_given_nodes() {
    let (m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 100)).unwrap();
    let lone = p.add_graph_node(g, &[], k("lone", 1)).unwrap();
    p.begin_capture_to_graph(s, g, &[a], CaptureMode::Global)
        .unwrap();
    assert_eq!(p.capture_info(s).unwrap().dependencies.as_ref(), &[a]);
    p.launch(s, Kernel::new("b").duration(Duration::from_micros(50)))
        .unwrap();
    assert_eq!(p.end_capture(s).unwrap(), g);
    let nodes = p.graph_nodes(g).unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(&nodes[..2], &[a, lone]);
    assert_eq!(p.node_dependencies(nodes[2]).unwrap(), vec![a]);
    let x = p.instantiate_graph(g).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("a").unwrap().start, start);
    assert_eq!(t.find("b").unwrap().start, start.plus(100_000));
    assert_eq!(t.find("b").unwrap().end, start.plus(150_000));
}

/// graph-building.md · StreamBeginCaptureToGraph · a dependency of another graph or listed twice, a graph of a
/// capture: InvalidValue; a failed end (forked work not joined) leaves the graph with its own nodes, usable
#[test]
fn capture_into_a_graph_rules() {
    let (_m, p) = machine();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let g = p.create_graph().unwrap();
    let other = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 1)).unwrap();
    let o = p.add_graph_node(other, &[], NodeSpec::Empty).unwrap();
    let what = "begin_capture_to_graph";
    invalid(
        p.begin_capture_to_graph(s, g, &[o], CaptureMode::Global)
            .unwrap_err(),
        what,
    );
    invalid(
        p.begin_capture_to_graph(s, g, &[a, a], CaptureMode::Global)
            .unwrap_err(),
        what,
    );
    p.begin_capture_to_graph(s, g, &[], CaptureMode::Global)
        .unwrap();
    invalid(
        p.begin_capture_to_graph(s2, g, &[], CaptureMode::Global)
            .unwrap_err(),
        what,
    );
    let e = p.create_event(Default::default()).unwrap();
    p.record_event(e, s).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    p.launch(s2, Kernel::new("forked")).unwrap();
    assert!(matches!(
        p.end_capture(s).unwrap_err(),
        SimError::Capture { .. }
    ));
    assert_eq!(p.graph_nodes(g).unwrap(), vec![a]);
    p.add_graph_node(g, &[a], NodeSpec::Empty).unwrap();
    p.instantiate_graph(g).unwrap();
}

/// graph-building.md · ChildGraphNodeGetGraph · the embedded graph is not the child graph; nodes added to it and
/// edges changed in it change the node (a launch runs them: c1 after a, then late after c1); it dies with the
/// node; DestroyGraph refuses it
#[test]
fn the_embedded_graph_is_the_node() {
    let (m, p) = machine();
    let child = p.create_graph().unwrap();
    let c1 = p.add_graph_node(child, &[], k("c1", 10)).unwrap();
    let g = p.create_graph().unwrap();
    let a = p.add_graph_node(g, &[], k("a", 5)).unwrap();
    let n = p
        .add_graph_node(g, &[a], NodeSpec::ChildGraph(child))
        .unwrap();
    invalid(p.child_graph(a).unwrap_err(), "child_graph");
    let e = p.child_graph(n).unwrap();
    assert_ne!(e, child);
    assert_eq!(p.child_graph(n).unwrap(), e);
    let inner = p.graph_nodes(e).unwrap();
    assert_eq!(inner.len(), 1);
    assert_ne!(inner[0], c1);
    assert_eq!(p.node_type(inner[0]).unwrap(), NodeType::Kernel);
    p.add_graph_node(e, &[inner[0]], k("late", 1000)).unwrap();
    invalid(p.destroy_graph(e).unwrap_err(), "destroy_graph");
    assert_eq!(p.graph_nodes(child).unwrap(), vec![c1]);
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("c1").unwrap().start, start.plus(5_000));
    assert_eq!(t.find("late").unwrap().start, start.plus(15_000));
    // Executable child graph nodes: a graph of the same topology, another's refused.
    let same = p.clone_graph(e).unwrap();
    let copy = p.node_in_clone(inner[0], same).unwrap();
    p.set_graph_node(copy, k("c1-new", 20)).unwrap();
    p.set_exec_child_graph(x, n, same).unwrap();
    invalid(
        p.set_exec_child_graph(x, a, same).unwrap_err(),
        "set_exec_child_graph",
    );
    invalid(
        p.set_exec_child_graph(x, n, child).unwrap_err(),
        "set_exec_child_graph",
    );
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    // The second launch's late starts after a (5 µs) and the new c1 (20 µs).
    let start = before.plus(3_000);
    assert_eq!(t.find("c1-new").unwrap().start, start.plus(5_000));
    let lates: Vec<_> = t.ops.iter().filter(|o| o.label == "late").collect();
    assert_eq!(lates.len(), 2);
    assert_eq!(lates[1].start, start.plus(25_000));
    // The embedded graph dies with its node.
    p.destroy_graph_node(n).unwrap();
    assert!(p.graph_nodes(e).is_err());
    invalid(p.node_in_clone(a, same).unwrap_err(), "node_in_clone");
}

/// graph-building.md · ChildGraphNodeGetGraph, GraphNodeSetParams · nested embedded graphs: a node added two
/// levels down runs at the top graph's launch; parameters set on a child graph node refill its embedded graph
/// (the same handle, the old nodes' handles dead); the embedded graphs die with the top graph
#[test]
fn nested_embedded_graphs_follow_their_nodes() {
    let (m, p) = machine();
    let inner = p.create_graph().unwrap();
    p.add_graph_node(inner, &[], k("i1", 10)).unwrap();
    let middle = p.create_graph().unwrap();
    p.add_graph_node(middle, &[], NodeSpec::ChildGraph(inner))
        .unwrap();
    let top = p.create_graph().unwrap();
    let n = p
        .add_graph_node(top, &[], NodeSpec::ChildGraph(middle))
        .unwrap();
    let e1 = p.child_graph(n).unwrap();
    let mid_node = p.graph_nodes(e1).unwrap()[0];
    assert_eq!(p.node_type(mid_node).unwrap(), NodeType::Graph);
    let e2 = p.child_graph(mid_node).unwrap();
    let i1 = p.graph_nodes(e2).unwrap()[0];
    p.add_graph_node(e2, &[i1], k("i2", 20)).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let x = p.instantiate_graph(top).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    let start = before.plus(3_000);
    assert_eq!(t.find("i1").unwrap().start, start);
    assert_eq!(t.find("i2").unwrap().start, start.plus(10_000));
    // Parameters set on the middle node: its embedded graph keeps its handle, with the new graph's nodes.
    let other = p.create_graph().unwrap();
    p.add_graph_node(other, &[], k("o1", 5)).unwrap();
    p.set_graph_node(mid_node, NodeSpec::ChildGraph(other))
        .unwrap();
    assert_eq!(p.child_graph(mid_node).unwrap(), e2);
    let now = p.graph_nodes(e2).unwrap();
    assert_eq!(now.len(), 1);
    assert!(p.node_type(i1).is_err());
    assert_eq!(p.node_type(now[0]).unwrap(), NodeType::Kernel);
    // The top graph destroyed: both embedded graphs are gone.
    p.destroy_graph(top).unwrap();
    assert!(p.graph_nodes(e1).is_err());
    assert!(p.graph_nodes(e2).is_err());
}

/// graph-building.md · GraphAddMemAllocNode … · an embedded graph → InvalidValue ("Allocation and free nodes
/// cannot be added to the returned graph"); the same node goes into an ordinary graph
#[test]
fn memory_nodes_cannot_go_into_an_embedded_graph() {
    let (_m, p) = machine();
    let child = p.create_graph().unwrap();
    let g = p.create_graph().unwrap();
    let n = p
        .add_graph_node(g, &[], NodeSpec::ChildGraph(child))
        .unwrap();
    let e = p.child_graph(n).unwrap();
    let alloc = NodeSpec::MemAlloc {
        device: 0,
        bytes: 4096,
    };
    invalid(
        p.add_graph_node(e, &[], alloc).unwrap_err(),
        "add_graph_node",
    );
    assert!(p.graph_nodes(e).unwrap().is_empty());
    let other = p.create_graph().unwrap();
    p.add_graph_node(
        other,
        &[],
        NodeSpec::MemAlloc {
            device: 0,
            bytes: 4096,
        },
    )
    .unwrap();
}
