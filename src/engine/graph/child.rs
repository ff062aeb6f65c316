//! Where a graph came from, and the graphs inside nodes: a child graph node's embedded graph (CUDA
//! `cudaGraphChildGraphNodeGetGraph`), changing a child graph node of an executable graph
//! (`cudaGraphExecChildGraphNodeSetParams`), and the nodes of a clone (`cudaGraphNodeFindInClone`). Rows and
//! sources: `docs/semantics/graph-building.md`.
//!
//! A child graph node keeps a copy of its graph's nodes ([`NodeOp::Child`]), which instantiation inlines. Its
//! *embedded graph* is made the first time a program asks for it: a graph of the process (a handle like any
//! other) holding those nodes, owned by the node. The node then follows it: every change to the embedded graph
//! (a node added, an edge, a node destroyed, parameters set, a capture into it) copies its nodes into the node
//! again, and into the node that owns the graph of that node, and so on up. The embedded graph dies with its
//! node (or the node's graph); a program may not destroy it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::build::{Spec, with_op};
use super::exec_graph::{flatten, topological};
use super::node::{GraphState, Node, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Graph, GraphExec, GraphNode};
use crate::engine::memory::Memory;
use crate::engine::process::{Call, ProcState, Process};

fn invalid(what: &'static str, reason: impl Into<String>) -> SimError {
    SimError::InvalidValue {
        what,
        reason: reason.into(),
    }
}

/// Which graphs are embedded in which child graph nodes, and which nodes each clone copied (a field of
/// [`GraphState`]). Entries go with the graphs they are about.
#[derive(Default)]
pub(crate) struct Lineage {
    /// A child graph node (raw handle) → its embedded graph.
    embedded: BTreeMap<u64, u64>,
    /// An embedded graph → the child graph node that owns it.
    owner: BTreeMap<u64, GraphNode>,
    /// A graph made by `cudaGraphClone` → (original node, its copy), in the order of the original's nodes.
    clones: BTreeMap<u64, Vec<(GraphNode, GraphNode)>>,
}

impl Lineage {
    /// Whether graph `g` is a child graph node's embedded graph.
    pub fn is_embedded(&self, g: u64) -> bool {
        self.owner.contains_key(&g)
    }

    /// Records that graph `copy` was cloned with `pairs` (original node, its copy).
    pub fn cloned(&mut self, copy: u64, pairs: Vec<(GraphNode, GraphNode)>) {
        self.clones.insert(copy, pairs);
    }
}

/// Where a child graph node of an executable graph is: its top-level position in the graph it was
/// instantiated from, and the run of instantiated nodes its child graph became (first, count).
pub(crate) type Span = (u32, u32, u32);

/// The child graph nodes an executable graph can change (a field of its entry): the instantiated graph's, and
/// those of the graph of the latest successful update (as its node handles).
#[derive(Debug, Clone, Default)]
pub(crate) struct ChildSpans {
    original: BTreeMap<GraphNode, Span>,
    current: BTreeMap<GraphNode, Span>,
}

impl ChildSpans {
    /// The spans of the child graph nodes of `graph` (the nodes in the order they were added), as `flatten`
    /// places them.
    pub fn of(graph: &[Node]) -> ChildSpans {
        let spans = spans(graph);
        ChildSpans {
            original: spans.clone(),
            current: spans,
        }
    }

    /// After an update from `graph`: its child graph nodes, besides the instantiated graph's.
    pub fn updated(&mut self, graph: &[Node]) {
        self.current = self.original.clone();
        self.current.extend(spans(graph));
    }

    fn get(&self, n: GraphNode) -> Option<Span> {
        self.current.get(&n).copied()
    }
}

fn spans(graph: &[Node]) -> BTreeMap<GraphNode, Span> {
    let mut out = BTreeMap::new();
    let mut at = 0u32;
    for p in topological(graph) {
        let n = &graph[p as usize];
        match &n.op {
            NodeOp::Child(inner) => {
                let len = flatten(inner).0.len() as u32;
                out.insert(n.handle, (p, at, len));
                at += len;
            }
            _ => at += 1,
        }
    }
    out
}

impl GraphState {
    /// Forgets what lineage says about graph `g` and its `nodes`, removing the embedded graphs of its child
    /// graph nodes (they die with their nodes).
    pub(crate) fn forget_lineage(&mut self, g: u64, nodes: &[Node], memory: &Memory) {
        if let Some(owner) = self.lineage.owner.remove(&g) {
            self.lineage.embedded.remove(&owner.0);
        }
        self.lineage.clones.remove(&g);
        for n in nodes {
            self.drop_embedded(n.handle, memory);
        }
    }

    /// Removes the embedded graph of child graph node `n`, if it has one.
    pub(crate) fn drop_embedded(&mut self, n: GraphNode, memory: &Memory) {
        if let Some(e) = self.lineage.embedded.remove(&n.0) {
            self.lineage.owner.remove(&e);
            let _ = self.remove_graph(e, memory);
        }
    }

    /// Graph `g` changed: if it is embedded, its node (and the nodes above it) copy its nodes again.
    pub(crate) fn embedded_changed(&mut self, g: u64) {
        let mut g = g;
        // Each step goes up one level of nesting; an embedded graph's owner is never below it.
        while let Some(&owner) = self.lineage.owner.get(&g) {
            let Ok((pg, pi)) = self.node(owner) else {
                return;
            };
            let Ok(nodes) = self.graphs.get(g).map(|e| e.nodes.clone()) else {
                return;
            };
            if let Ok(parent) = self.graphs.get_mut(pg) {
                parent.nodes[pi as usize].op = NodeOp::Child(Arc::from(nodes));
            }
            g = pg;
        }
    }

    /// A child graph node's parameters were set to `op`: its embedded graph, if it has one, now holds the new
    /// child graph's nodes (the handle stays valid).
    pub(crate) fn refill_embedded(&mut self, n: GraphNode, memory: &Memory) -> Result<()> {
        let Some(&e) = self.lineage.embedded.get(&n.0) else {
            return Ok(());
        };
        let (g, i) = self.node(n)?;
        let NodeOp::Child(inner) = self.graphs.get(g)?.nodes[i as usize].op.clone() else {
            return Ok(());
        };
        let old = std::mem::take(&mut self.graphs.get_mut(e)?.nodes);
        for x in &old {
            let _ = self.nodes.remove(x.handle.0);
            self.drop_embedded(x.handle, memory);
        }
        self.fill(e, &inner)?;
        self.embedded_changed(e);
        Ok(())
    }

    /// Appends copies of `nodes` (with handles of their own) to graph `g`.
    fn fill(&mut self, g: u64, nodes: &[Node]) -> Result<()> {
        for n in nodes {
            self.push_node(g, n.deps.clone(), n.op.clone(), n.site, n.stream)?;
            if let Some(last) = self.graphs.get_mut(g)?.nodes.last_mut() {
                last.given = n.given.clone();
            }
        }
        Ok(())
    }
}

/// Child graphs and clones.
impl Process {
    /// The embedded graph of child graph node `node` (CUDA `cudaGraphChildGraphNodeGetGraph`, and the graph
    /// `cudaGraphNodeGetParams` gives): not a copy — nodes added to it, edges and parameters changed in it,
    /// change the node. The node owns it: it is valid while the node lives, and [`Process::destroy_graph`]
    /// refuses it. [`SimError::InvalidValue`] for a node that is not a child graph node.
    pub fn child_graph(&self, node: GraphNode) -> Result<Graph> {
        self.call(EngineCall::ChildGraph.name(), |c| {
            let what = EngineCall::ChildGraph.name();
            let mut st = self.state();
            child_graph_locked(&mut st, c, what, node, &self.m.memory)
        })
    }

    /// Changes child graph node `node` of executable graph `exec`, for its later launches, as though its
    /// child graph's nodes had the parameters of `child`'s nodes (CUDA `cudaGraphExecChildGraphNodeSetParams`,
    /// and `cudaGraphExecNodeSetParams` with a child graph). `child` must have the topology and node order of
    /// the node's child graph, and each node may change only as `cudaGraphExecUpdate` allows; else
    /// [`SimError::InvalidValue`], and `exec` is unchanged. The node itself is not changed.
    pub fn set_exec_child_graph(
        &self,
        exec: GraphExec,
        node: GraphNode,
        child: Graph,
    ) -> Result<()> {
        self.call(EngineCall::SetExecChildGraph.name(), |_| {
            let what = EngineCall::SetExecChildGraph.name();
            let mut st = self.state();
            self.set_exec_child_locked(&mut st, what, exec, node, child)
        })
    }

    pub(crate) fn set_exec_child_locked(
        &self,
        st: &mut ProcState,
        what: &'static str,
        exec: GraphExec,
        node: GraphNode,
        child: Graph,
    ) -> Result<()> {
        let x = st.graphs.execs.get(exec.0)?;
        let removed = st.graphs.nodes.get(node.0).is_err();
        let Some((pos, start, len)) = x.children.get(node).filter(|_| !removed) else {
            return Err(invalid(
                what,
                format!(
                    "{:#x} is not a child graph node of the graph graph exec {} was instantiated from (or it \
                     was removed)",
                    node.0, x.ordinal
                ),
            ));
        };
        let device = x.device;
        let g = st.graphs.graphs.get(child.0)?;
        if g.capture.is_some() {
            return Err(super::build::being_captured(what));
        }
        if g.device != device {
            return Err(invalid(
                what,
                format!(
                    "the graph is on device {} and the executable graph on device {device}",
                    g.device
                ),
            ));
        }
        if super::exec_graph::has_cycle(&g.nodes) {
            return Err(invalid(
                what,
                "the graph's dependencies form a cycle: its topology is not the node's child graph's",
            ));
        }
        let (flat, _) = flatten(&g.nodes);
        let shape: Vec<_> = flat
            .iter()
            .map(|n| (n.op.node_type(), n.deps.clone()))
            .collect();
        if flat.len() as u32 != len || shape != x.shape[pos as usize].2 {
            return Err(invalid(
                what,
                format!(
                    "the graph ({} nodes) has another topology or node order than the node's child graph ({len} \
                     nodes)",
                    flat.len()
                ),
            ));
        }
        for (k, new) in flat.iter().enumerate() {
            self.exec_change_allowed(what, &x.nodes[start as usize + k].op, &new.op)?;
        }
        let x = st.graphs.execs.get_mut(exec.0)?;
        let mut nodes = x.nodes.to_vec();
        for (k, new) in flat.into_iter().enumerate() {
            let i = start as usize + k;
            nodes[i] = with_op(&nodes[i], new.op, new.given);
        }
        x.nodes = nodes.into();
        Ok(())
    }

    /// The node of `clone` that is the copy of `original` (CUDA `cudaGraphNodeFindInClone`). `clone` was made
    /// by [`Process::clone_graph`] from the graph `original` was in; [`SimError::InvalidValue`] if not, or if
    /// the copy was destroyed since.
    pub fn node_in_clone(&self, original: GraphNode, clone: Graph) -> Result<GraphNode> {
        self.call(EngineCall::NodeInClone.name(), |_| {
            let what = EngineCall::NodeInClone.name();
            let st = self.state();
            st.graphs.graphs.get(clone.0)?;
            if st.graphs.nodes.get(original.0).is_err() {
                return Err(invalid(
                    what,
                    format!("{:#x} is not a node of a live graph", original.0),
                ));
            }
            let found = st
                .graphs
                .lineage
                .clones
                .get(&clone.0)
                .and_then(|pairs| pairs.iter().find(|(o, _)| *o == original))
                .map(|&(_, copy)| copy);
            match found {
                Some(copy) if matches!(st.graphs.node(copy), Ok((g, _)) if g == clone.0) => Ok(copy),
                Some(_) => Err(invalid(
                    what,
                    format!("the copy of node {:#x} was destroyed", original.0),
                )),
                None => Err(invalid(
                    what,
                    format!(
                        "{:#x} is not a node the graph was cloned from (the graph is not a clone of its graph, \
                         or the node was added after the clone)",
                        original.0
                    ),
                )),
            }
        })
    }
}

fn child_graph_locked(
    st: &mut ProcState,
    c: &Call,
    what: &'static str,
    node: GraphNode,
    memory: &Memory,
) -> Result<Graph> {
    let (g, i) = st
        .graphs
        .node(node)
        .map_err(|_| invalid(what, format!("{:#x} is not a node of a live graph", node.0)))?;
    if let Some(&e) = st.graphs.lineage.embedded.get(&node.0) {
        return Ok(Graph(e));
    }
    let entry = st.graphs.graphs.get(g)?;
    let NodeOp::Child(inner) = entry.nodes[i as usize].op.clone() else {
        return Err(invalid(
            what,
            format!(
                "node {:#x} is a {} node, not a child graph node",
                node.0,
                entry.nodes[i as usize].op.node_type().dot_name()
            ),
        ));
    };
    let (device, ctx) = (entry.device, entry.ctx);
    let e = st.graphs.new_graph(c.process, device, ctx)?;
    if let Err(err) = st.graphs.fill(e, &inner) {
        let _ = st.graphs.remove_graph(e, memory);
        return Err(err);
    }
    st.graphs.lineage.embedded.insert(node.0, e);
    st.graphs.lineage.owner.insert(e, node);
    // The node's copy now names the embedded graph's nodes.
    st.graphs.embedded_changed(e);
    Ok(Graph(e))
}

/// A description for [`Process::set_exec_node_in`]: the child graph it names, if it is a child graph's.
pub(crate) fn child_of(spec: &Spec) -> Option<Graph> {
    match spec {
        Spec::Public(super::build::NodeSpec::ChildGraph(g)) => Some(*g),
        _ => None,
    }
}
