//! Random graphs built by hand (`docs/semantics/graph-building.md`):
//! - a random DAG of kernels, built by hand (nodes in a random order, edges added at once or later), replays
//!   with the same node times as the same DAG made by stream capture (streams, events, fork and join), and as
//!   an independent model of the replay (each node starts when the launch starts or its last dependency
//!   ends);
//! - random building calls (edges added and removed, nodes added and destroyed, on good, foreign and
//!   destroyed nodes; instantiations, updates and launches) answer only the documented results, and the
//!   graphs' edges always equal a model's, kept acyclic.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use proptest::prelude::*;
use streamsim::{
    CaptureMode, EventFlags, Graph, GraphNode, Kernel, Machine, NodeSpec, Process, SimError,
    StreamFlags,
};

use crate::common::with_watchdog;

/// A DAG: each node's duration (µs) and dependencies (earlier nodes).
#[derive(Debug, Clone)]
struct Dag {
    nodes: Vec<(u64, Vec<usize>)>,
    /// The order the nodes are added in when built by hand with every edge added afterwards (`None`: in
    /// order, each with its dependencies).
    order: Option<Vec<usize>>,
}

fn dag() -> impl Strategy<Value = Dag> {
    (1..9usize)
        .prop_flat_map(|n| {
            let nodes: Vec<_> = (0..n)
                .map(|i| {
                    (
                        1..60u64,
                        proptest::sample::subsequence((0..i).collect::<Vec<_>>(), 0..=i.min(3)),
                    )
                })
                .collect();
            (
                nodes,
                prop_oneof![
                    Just(None),
                    Just((0..n).collect::<Vec<_>>())
                        .prop_shuffle()
                        .prop_map(Some)
                ],
            )
        })
        .prop_map(|(nodes, order)| Dag { nodes, order })
}

fn kernel(i: usize, us: u64) -> Kernel {
    Kernel::new(format!("n{i}")).duration(Duration::from_micros(us))
}

/// Builds `d` by hand in `p`.
fn by_hand(p: &Process, d: &Dag) -> Graph {
    let g = p.create_graph().unwrap();
    build_into(p, g, d);
    g
}

/// Builds `d` by hand in graph `g` of `p`.
fn build_into(p: &Process, g: Graph, d: &Dag) {
    match &d.order {
        None => {
            let mut handles: Vec<GraphNode> = Vec::new();
            for (i, (us, deps)) in d.nodes.iter().enumerate() {
                let deps: Vec<GraphNode> = deps.iter().map(|&x| handles[x]).collect();
                handles.push(
                    p.add_graph_node(g, &deps, NodeSpec::Kernel(kernel(i, *us)))
                        .unwrap(),
                );
            }
        }
        Some(order) => {
            let mut handles = BTreeMap::new();
            for &i in order {
                let n = p
                    .add_graph_node(g, &[], NodeSpec::Kernel(kernel(i, d.nodes[i].0)))
                    .unwrap();
                handles.insert(i, n);
            }
            let edges: Vec<(GraphNode, GraphNode)> = d
                .nodes
                .iter()
                .enumerate()
                .flat_map(|(i, (_, deps))| deps.iter().map(move |&x| (x, i)))
                .map(|(a, b)| (handles[&a], handles[&b]))
                .collect();
            p.add_graph_dependencies(g, &edges).unwrap();
        }
    }
}

/// Captures `d` in `p`: a stream per node, which waits for its dependencies' events (or the origin's fork
/// event), launches the node and records its own event; the origin joins every node at the end.
fn by_capture(p: &Process, d: &Dag) -> Graph {
    capture_with(p, d, |origin| {
        p.begin_capture(origin, CaptureMode::Global).unwrap()
    })
}

/// [`by_capture`], the capture begun by `begin` on the origin stream.
fn capture_with(p: &Process, d: &Dag, begin: impl FnOnce(streamsim::Stream)) -> Graph {
    let origin = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let fork = p.create_event(EventFlags::DEFAULT).unwrap();
    let mut events = Vec::new();
    begin(origin);
    p.record_event(fork, origin).unwrap();
    for (i, (us, deps)) in d.nodes.iter().enumerate() {
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        if deps.is_empty() {
            p.stream_wait_event(s, fork).unwrap();
        }
        for &x in deps {
            p.stream_wait_event(s, events[x]).unwrap();
        }
        p.launch(s, kernel(i, *us)).unwrap();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        p.record_event(e, s).unwrap();
        events.push(e);
    }
    for &e in &events {
        p.stream_wait_event(origin, e).unwrap();
    }
    p.end_capture(origin).unwrap()
}

/// Launches `g` once on a new stream of `p`: each node's (start, end) from the launch call's host time.
fn replay(m: &Machine, p: &Process, g: Graph, n: usize) -> Vec<(u64, u64)> {
    let x = p.instantiate_graph(g).unwrap();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let before = p.now();
    p.launch_graph(x, s).unwrap();
    p.stream_synchronize(s).unwrap();
    let t = m.trace();
    (0..n)
        .map(|i| {
            let o = t.find(&format!("n{i}")).expect("every node ran");
            (o.start.0 - before.0, o.end.0 - before.0)
        })
        .collect()
}

/// The model: a node starts at the launch's start (the call, 1 µs, and the launch latency, 2 µs) or when its
/// last dependency ends.
fn model(d: &Dag) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (us, deps) in &d.nodes {
        let start = deps.iter().map(|&x| out[x].1).fold(3_000, u64::max);
        out.push((start, start + us * 1_000));
    }
    out
}

/// A random building call on graph slots 0..2 and node slots (indices into the nodes made so far, past them:
/// a destroyed or never-made node).
#[derive(Debug, Clone)]
enum Op {
    Add(usize, Vec<usize>),
    Edge(usize, usize, usize),
    Unedge(usize, usize, usize),
    Destroy(usize),
    Instantiate(usize),
    Update(usize, usize),
    Launch(usize),
    Disable(usize, usize),
    /// An allocation node (graph-memory.md) in a graph slot, depending on nothing.
    Alloc(usize),
    /// A free node in a graph slot of the allocation made by the `n`th Alloc so far (past them: a `malloc`
    /// pointer, which no allocation node returned).
    Free(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    let g = 0..2usize;
    let n = 0..12usize;
    prop_oneof![
        4 => (g.clone(), proptest::collection::vec(n.clone(), 0..3)).prop_map(|(g, d)| Op::Add(g, d)),
        4 => (g.clone(), n.clone(), n.clone()).prop_map(|(g, a, b)| Op::Edge(g, a, b)),
        2 => (g.clone(), n.clone(), n.clone()).prop_map(|(g, a, b)| Op::Unedge(g, a, b)),
        1 => n.clone().prop_map(Op::Destroy),
        1 => g.clone().prop_map(Op::Instantiate),
        1 => (0..4usize, g.clone()).prop_map(|(x, g)| Op::Update(x, g)),
        1 => (0..4usize).prop_map(Op::Launch),
        1 => (0..4usize, n).prop_map(|(x, a)| Op::Disable(x, a)),
        1 => g.clone().prop_map(Op::Alloc),
        1 => (g, 0..4usize).prop_map(|(g, a)| Op::Free(g, a)),
    ]
}

/// The model of the graphs: each live node's graph and dependencies, and the graph memory nodes.
#[derive(Default)]
struct Model {
    /// node slot → (graph slot, dependencies as node slots), for live nodes.
    live: BTreeMap<usize, (usize, Vec<usize>)>,
    /// Graph allocations, in the order made: (graph slot of the allocation node, address, graph slots that
    /// free it, whether a launch allocated it and nothing freed it since).
    allocs: Vec<(usize, streamsim::DevicePtr, BTreeSet<usize>, bool)>,
}

impl Model {
    fn has_mem_nodes(&self, g: usize) -> bool {
        self.allocs.iter().any(|a| a.0 == g || a.2.contains(&g))
    }
}

impl Model {
    /// Whether graph `g`'s edges form a cycle: a node one of whose dependencies depends on it.
    fn cyclic(&self, g: usize) -> bool {
        self.live
            .iter()
            .filter(|(_, (graph, _))| *graph == g)
            .any(|(&n, (_, deps))| deps.iter().any(|&d| self.reaches(d, n)))
    }

    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut stack = vec![from];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n) {
                stack.extend(self.live[&n].1.iter().copied());
            }
        }
        false
    }
}

fn not_supported(e: &SimError) -> bool {
    matches!(e, SimError::NotSupported { .. })
}

fn is_invalid(e: &SimError) -> bool {
    matches!(
        e,
        SimError::InvalidValue { .. } | SimError::InvalidHandle { .. }
    )
}

fn run_ops(ops: &[Op]) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    let graphs = [p.create_graph().unwrap(), p.create_graph().unwrap()];
    let mut nodes: Vec<GraphNode> = Vec::new();
    let mut model = Model::default();
    let mut execs: Vec<(streamsim::GraphExec, usize, Vec<usize>, Vec<usize>)> = Vec::new();
    let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let plain = p.malloc(256).unwrap();
    let node =
        |nodes: &Vec<GraphNode>, i: usize| nodes.get(i).copied().unwrap_or(GraphNode::from_raw(0));
    for op in ops {
        match op {
            Op::Add(g, deps) => {
                let handles: Vec<GraphNode> = deps.iter().map(|&d| node(&nodes, d)).collect();
                let ok = deps
                    .iter()
                    .all(|d| model.live.get(d).is_some_and(|x| x.0 == *g))
                    && deps.iter().collect::<BTreeSet<_>>().len() == deps.len();
                let i = nodes.len();
                match p.add_graph_node(graphs[*g], &handles, NodeSpec::Kernel(kernel(i, 1))) {
                    Ok(n) => {
                        assert!(ok, "{op:?} succeeded");
                        nodes.push(n);
                        model.live.insert(i, (*g, deps.clone()));
                    }
                    Err(e) => assert!(!ok && is_invalid(&e), "{op:?}: {e:?}"),
                }
            }
            Op::Edge(g, a, b) => {
                let ok = [a, b]
                    .iter()
                    .all(|x| model.live.get(x).is_some_and(|y| y.0 == *g))
                    && a != b
                    && !model.live[b].1.contains(a);
                match p.add_graph_dependencies(graphs[*g], &[(node(&nodes, *a), node(&nodes, *b))])
                {
                    Ok(()) => {
                        assert!(ok, "{op:?} succeeded");
                        model.live.get_mut(b).unwrap().1.push(*a);
                    }
                    Err(e) => assert!(!ok && is_invalid(&e), "{op:?}: {e:?}"),
                }
            }
            Op::Unedge(g, a, b) => {
                let ok = [a, b]
                    .iter()
                    .all(|x| model.live.get(x).is_some_and(|y| y.0 == *g))
                    && model.live[b].1.contains(a);
                let mem = model.has_mem_nodes(*g);
                match p
                    .remove_graph_dependencies(graphs[*g], &[(node(&nodes, *a), node(&nodes, *b))])
                {
                    Ok(()) => {
                        assert!(ok && !mem, "{op:?} succeeded");
                        model.live.get_mut(b).unwrap().1.retain(|x| x != a);
                    }
                    // A graph with memory nodes loses no edge (checked after the graph's other checks).
                    Err(e) if mem && not_supported(&e) => {}
                    Err(e) => assert!(!ok && is_invalid(&e), "{op:?}: {e:?}"),
                }
            }
            Op::Destroy(a) => match p.destroy_graph_node(node(&nodes, *a)) {
                Err(e)
                    if not_supported(&e)
                        && model.live.get(a).is_some_and(|x| model.has_mem_nodes(x.0)) => {}
                Ok(()) => {
                    let g = model.live.get(a).map(|x| x.0);
                    assert!(
                        g.is_some_and(|g| !model.has_mem_nodes(g)),
                        "{op:?} succeeded"
                    );
                    model.live.remove(a);
                    for (_, deps) in model.live.values_mut() {
                        deps.retain(|x| x != a);
                    }
                }
                Err(e) => assert!(
                    !model.live.contains_key(a) && is_invalid(&e),
                    "{op:?}: {e:?}"
                ),
            },
            Op::Instantiate(g) => {
                // Instantiation fails for a second executable graph of a graph with memory nodes, and for a
                // graph whose edges form a cycle (graph-building.md · GraphInstantiate).
                let second = model.has_mem_nodes(*g) && execs.iter().any(|x| x.1 == *g);
                let cyclic = model.cyclic(*g);
                match p.instantiate_graph(graphs[*g]) {
                    Ok(x) => {
                        assert!(!second && !cyclic, "{op:?} succeeded");
                        let allocs: Vec<usize> = (0..model.allocs.len())
                            .filter(|&i| model.allocs[i].0 == *g)
                            .collect();
                        let frees: Vec<usize> = (0..model.allocs.len())
                            .filter(|&i| model.allocs[i].2.contains(g))
                            .collect();
                        execs.push((x, *g, allocs, frees));
                    }
                    Err(e) => assert!(
                        (second && not_supported(&e)) || (!second && cyclic && is_invalid(&e)),
                        "{op:?}: {e:?}"
                    ),
                }
            }
            Op::Update(x, g) => {
                if let Some(&(e, ..)) = execs.get(*x) {
                    match p.update_graph_exec(e, graphs[*g]) {
                        Ok(o) => assert_eq!(o.result, streamsim::UpdateResult::Success),
                        Err(SimError::GraphExecUpdate { .. }) => {}
                        Err(e) => panic!("{op:?}: {e:?}"),
                    }
                }
            }
            Op::Launch(x) => {
                if let Some((e, _, allocs, frees)) = execs.get(*x) {
                    // graph-memory.md · GraphLaunch: its allocations must not be live, its free nodes' must be
                    // (or be its own).
                    let ok = allocs.iter().all(|&a| !model.allocs[a].3)
                        && frees
                            .iter()
                            .all(|f| allocs.contains(f) || model.allocs[*f].3);
                    match p.launch_graph(*e, s) {
                        Ok(()) => {
                            assert!(ok, "{op:?} succeeded");
                            for &a in allocs {
                                model.allocs[a].3 = true;
                            }
                            for &f in frees {
                                model.allocs[f].3 = false;
                            }
                        }
                        Err(e) => assert!(!ok && is_invalid(&e), "{op:?}: {e:?}"),
                    }
                }
            }
            Op::Alloc(g) => {
                let i = nodes.len();
                let n = p
                    .add_graph_node(
                        graphs[*g],
                        &[],
                        NodeSpec::MemAlloc {
                            device: 0,
                            bytes: 256,
                        },
                    )
                    .unwrap();
                nodes.push(n);
                model.live.insert(i, (*g, Vec::new()));
                let (ptr, _) = p.graph_mem_node(n).unwrap();
                model.allocs.push((*g, ptr, BTreeSet::new(), false));
            }
            Op::Free(g, a) => {
                let ptr = model.allocs.get(*a).map_or(plain, |x| x.1);
                // graph-memory.md · AddMemFreeNode: an allocation node's address, not freed by this graph, and
                // freed only by its own graph or only by others.
                let ok = model.allocs.get(*a).is_some_and(|(owner, _, by, _)| {
                    !by.contains(g)
                        && if owner == g {
                            by.is_empty()
                        } else {
                            !by.contains(owner)
                        }
                });
                let i = nodes.len();
                match p.add_graph_node(graphs[*g], &[], NodeSpec::MemFree(ptr)) {
                    Ok(n) => {
                        assert!(ok, "{op:?} succeeded");
                        nodes.push(n);
                        model.live.insert(i, (*g, Vec::new()));
                        model.allocs[*a].2.insert(*g);
                    }
                    Err(e) => assert!(!ok && is_invalid(&e), "{op:?}: {e:?}"),
                }
            }
            Op::Disable(x, a) => {
                if let Some(&(e, ..)) = execs.get(*x)
                    && let Err(e) = p.set_exec_node_enabled(e, node(&nodes, *a), false)
                {
                    assert!(is_invalid(&e), "{op:?}: {e:?}");
                }
            }
        }
        // The graphs' edges are the model's.
        for (gi, g) in graphs.iter().enumerate() {
            let got: BTreeSet<(GraphNode, GraphNode)> =
                p.graph_edges(*g).unwrap().into_iter().collect();
            let want: BTreeSet<(GraphNode, GraphNode)> = model
                .live
                .iter()
                .filter(|(_, (gg, _))| *gg == gi)
                .flat_map(|(&b, (_, deps))| deps.iter().map(move |&a| (a, b)))
                .map(|(a, b)| (nodes[a], nodes[b]))
                .collect();
            assert_eq!(got, want, "after {op:?}");
        }
    }
    p.stream_synchronize(s).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// graph-building.md · Replay · a random DAG built by hand replays as its capture and as the model
    #[test]
    fn hand_built_dags_replay_as_captured_ones(d in dag()) {
        with_watchdog(60, move || {
            let (m1, m2) = (
                Machine::builder().devices(1).build().unwrap(),
                Machine::builder().devices(1).build().unwrap(),
            );
            let (p1, p2) = (m1.process(), m2.process());
            let hand = replay(&m1, &p1, by_hand(&p1, &d), d.nodes.len());
            let captured = replay(&m2, &p2, by_capture(&p2, &d), d.nodes.len());
            assert_eq!(hand, captured, "{d:?}");
            assert_eq!(hand, model(&d), "{d:?}");
        });
    }

    /// graph-building.md · ChildGraphNodeGetGraph, StreamBeginCaptureToGraph · a random DAG built by hand in a
    /// child graph node's embedded graph, and one captured into a graph after an empty node, replay as the model
    #[test]
    fn embedded_and_captured_into_dags_replay_as_the_model(d in dag()) {
        with_watchdog(60, move || {
            let (m1, m2) = (
                Machine::builder().devices(1).build().unwrap(),
                Machine::builder().devices(1).build().unwrap(),
            );
            let (p1, p2) = (m1.process(), m2.process());
            let parent = p1.create_graph().unwrap();
            let empty = p1.create_graph().unwrap();
            let child = p1.add_graph_node(parent, &[], NodeSpec::ChildGraph(empty)).unwrap();
            build_into(&p1, p1.child_graph(child).unwrap(), &d);
            let embedded = replay(&m1, &p1, parent, d.nodes.len());
            assert_eq!(embedded, model(&d), "{d:?}");
            let g = p2.create_graph().unwrap();
            let first = p2.add_graph_node(g, &[], NodeSpec::Empty).unwrap();
            let captured = capture_with(&p2, &d, |origin| {
                p2.begin_capture_to_graph(origin, g, &[first], CaptureMode::Global).unwrap()
            });
            assert_eq!(captured, g);
            assert_eq!(p2.graph_nodes(g).unwrap().len(), d.nodes.len() + 1);
            assert_eq!(replay(&m2, &p2, g, d.nodes.len()), model(&d), "{d:?}");
        });
    }

    /// graph-building.md · Edges and nodes · random building calls answer only the documented results; the edges
    /// are always the model's
    #[test]
    fn random_building_calls_answer_documented_results(ops in proptest::collection::vec(op(), 1..40)) {
        with_watchdog(60, move || run_ops(&ops));
    }
}
