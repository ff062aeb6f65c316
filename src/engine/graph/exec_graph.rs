//! An executable graph ([`ExecEntry`]): the instantiated nodes, their lanes and the lanes' streams; launched
//! by `replay.rs`.
//!
//! Instantiation (`ExecEntry::new`) takes a graph's nodes in the order they were added, orders them
//! topologically (the first ready node by position first, so a graph whose edges all point forward keeps its
//! order) and inlines child graphs: a child's roots take the child node's dependencies, and the child's sinks
//! stand for it in the dependencies of the nodes after it. It keeps the graph's own shape (each node's type and
//! dependencies, by position) for `cudaGraphExecUpdate`, and which node handles name which instantiated node.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::core::handle::GraphNode;
use crate::engine::exec::point::Point;
use crate::engine::graph::node::{Node, NodeOp};
use crate::engine::streams::entry::StreamEntry;

/// An executable graph (`cudaGraphExec_t`, ACL `aclmdlRI`).
pub(crate) struct ExecEntry {
    pub ordinal: u32,
    pub device: u32,
    pub ctx: Option<u64>,
    /// The instantiated nodes (topologically ordered, child graphs inlined).
    pub nodes: Arc<[Node]>,
    /// Whether each instantiated node is enabled (`cudaGraphNodeSetEnabled`; a disabled node runs as an empty
    /// one).
    pub enabled: Vec<bool>,
    /// The graph's shape when it was instantiated: each node's type and dependencies, by position.
    pub shape: super::update::Shape,
    /// The node handles that name an instantiated node: the instantiated graph's, and those of the graph of
    /// the latest successful update.
    pub handles: BTreeMap<GraphNode, u32>,
    /// The handles of the instantiated graph's nodes (kept when an update replaces the others).
    pub original: BTreeMap<GraphNode, u32>,
    /// Where each child graph node's graph was inlined (`child.rs`).
    pub children: super::child::ChildSpans,
    /// Each node's lane.
    pub lane_of: Vec<u32>,
    pub lane_count: u32,
    /// The nodes no other node depends on.
    pub sinks: Vec<u32>,
    /// The lanes' streams (made at the first launch).
    pub lanes: Vec<StreamEntry>,
    /// The previous launch's sinks, which the next launch's roots wait for.
    pub last: Vec<Point>,
    /// How many times it was launched.
    pub launches: u64,
    /// The graph it was made from (a graph with memory nodes may have only one executable graph at a time).
    pub from_graph: Option<u64>,
    /// `cudaGraphInstantiateFlagAutoFreeOnLaunch`: each launch first frees its allocations still live.
    pub auto_free: bool,
}

/// A graph's nodes instantiated: (nodes, the instantiated node of each top-level position, if it has one).
pub(crate) fn flatten(graph: &[Node]) -> (Vec<Node>, Vec<Option<u32>>) {
    let order = topological(graph);
    let mut out: Vec<Node> = Vec::with_capacity(graph.len());
    // What stands for each position in its dependents' dependencies.
    let mut exits: Vec<Vec<u32>> = vec![Vec::new(); graph.len()];
    let mut at = vec![None; graph.len()];
    for &p in &order {
        let n = &graph[p as usize];
        let mut deps: Vec<u32> = n
            .deps
            .iter()
            .flat_map(|&d| exits[d as usize].iter().copied())
            .collect();
        deps.sort_unstable();
        deps.dedup();
        match &n.op {
            NodeOp::Child(inner) => {
                // The child graph's nodes as added, their own child graphs inlined in turn.
                let (inner, _) = flatten(inner);
                let base = out.len() as u32;
                let mut has_dependent = vec![false; inner.len()];
                for c in inner.iter() {
                    let mut c = c.clone();
                    for &d in &c.deps {
                        has_dependent[d as usize] = true;
                    }
                    c.deps = if c.deps.is_empty() {
                        deps.clone()
                    } else {
                        c.deps.iter().map(|&d| d + base).collect()
                    };
                    out.push(c);
                }
                exits[p as usize] = if inner.is_empty() {
                    deps
                } else {
                    (0..inner.len() as u32)
                        .filter(|&i| !has_dependent[i as usize])
                        .map(|i| i + base)
                        .collect()
                };
            }
            _ => {
                let i = out.len() as u32;
                let mut c = n.clone();
                c.deps = deps;
                out.push(c);
                exits[p as usize] = vec![i];
                at[p as usize] = Some(i);
            }
        }
    }
    (out, at)
}

/// Whether `nodes`, or a child graph among them, has a cycle (the building calls accept one, as CUDA's do;
/// instantiation refuses such a graph: `CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE`, "such as cycles").
pub(crate) fn has_cycle(nodes: &[Node]) -> bool {
    placed(nodes).len() < nodes.len()
        || nodes.iter().any(|n| match &n.op {
            NodeOp::Child(inner) => has_cycle(inner),
            _ => false,
        })
}

/// The positions of `nodes` in a topological order: of the nodes whose dependencies are all placed, the first
/// by position goes next. The nodes of a cycle (see [`has_cycle`]: such a graph is never instantiated) follow
/// in position order, so the queries that walk a graph answer on one too.
pub(crate) fn topological(nodes: &[Node]) -> Vec<u32> {
    let mut order = placed(nodes);
    if order.len() < nodes.len() {
        let mut seen = vec![false; nodes.len()];
        for &i in &order {
            seen[i as usize] = true;
        }
        order.extend((0..nodes.len() as u32).filter(|&i| !seen[i as usize]));
    }
    order
}

/// The nodes that a topological order places (all of them unless a cycle holds some back).
fn placed(nodes: &[Node]) -> Vec<u32> {
    let n = nodes.len();
    let mut missing: Vec<usize> = nodes.iter().map(|x| x.deps.len()).collect();
    let mut dependents: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, x) in nodes.iter().enumerate() {
        for &d in &x.deps {
            dependents[d as usize].push(i as u32);
        }
    }
    let mut ready: std::collections::BTreeSet<u32> = (0..n as u32)
        .filter(|&i| missing[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &d in &dependents[i as usize] {
            missing[d as usize] -= 1;
            if missing[d as usize] == 0 {
                ready.insert(d);
            }
        }
    }
    order
}

impl ExecEntry {
    /// An executable graph of a graph's `nodes` (in the order they were added).
    pub fn new(ordinal: u32, device: u32, ctx: Option<u64>, graph: Vec<Node>) -> ExecEntry {
        let shape = super::update::shape_of(&graph);
        let children = super::child::ChildSpans::of(&graph);
        let (nodes, at) = flatten(&graph);
        let handles: BTreeMap<GraphNode, u32> = graph
            .iter()
            .zip(&at)
            .filter_map(|(n, a)| a.map(|i| (n.handle, i)))
            .collect();
        let (lane_of, lane_count) = assign_lanes(&nodes);
        let sinks = sinks(&nodes);
        ExecEntry {
            ordinal,
            device,
            ctx,
            enabled: vec![true; nodes.len()],
            nodes: nodes.into(),
            shape,
            original: handles.clone(),
            handles,
            children,
            lane_of,
            lane_count,
            sinks,
            lanes: Vec::new(),
            last: Vec::new(),
            launches: 0,
            from_graph: None,
            auto_free: false,
        }
    }

    /// The base addresses of its graph allocations.
    pub fn allocs(&self) -> Vec<u64> {
        super::memory::allocs_of(&self.nodes)
    }
}

/// The nodes of `nodes` (topologically ordered) no other node depends on.
pub(crate) fn sinks(nodes: &[Node]) -> Vec<u32> {
    let mut has_dependent = vec![false; nodes.len()];
    for n in nodes {
        for &d in &n.deps {
            has_dependent[d as usize] = true;
        }
    }
    (0..nodes.len() as u32)
        .filter(|&i| !has_dependent[i as usize])
        .collect()
}

/// Gives every node a lane whose previous node is one of its direct dependencies (or a new lane): (lane of
/// each node, number of lanes).
pub(crate) fn assign_lanes(nodes: &[Node]) -> (Vec<u32>, u32) {
    let mut lane_of = Vec::with_capacity(nodes.len());
    // The last node of each lane.
    let mut tails: Vec<u32> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let reuse = n
            .deps
            .iter()
            .map(|&d| lane_of[d as usize])
            .find(|&l: &u32| n.deps.contains(&tails[l as usize]));
        let lane = match reuse {
            Some(l) => l,
            None => {
                tails.push(0);
                tails.len() as u32 - 1
            }
        };
        tails[lane as usize] = i as u32;
        lane_of.push(lane);
    }
    (lane_of, tails.len() as u32)
}
