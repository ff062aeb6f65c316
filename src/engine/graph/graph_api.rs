//! The graph calls of [`Process`]: instantiate, destroy, clone, inspect (nodes, types, edges) and the DOT
//! description.

use std::fmt::Write as _;

use super::NodeType;
use super::exec_graph::ExecEntry;
use super::node::{Endpoint, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Graph, GraphExec, GraphNode};
use crate::engine::process::{Call, ProcState, Process};

fn being_captured(what: &'static str) -> SimError {
    SimError::InvalidValue {
        what,
        reason: "the graph is still being captured (end the capture first)".into(),
    }
}

/// Graphs.
impl Process {
    /// Instantiates `graph` as an executable graph (CUDA `cudaGraphInstantiate`; ACL's capture end makes one).
    /// The executable graph keeps the graph's nodes as they are now: later changes to the graph, or its
    /// destruction, do not affect it. A graph still being captured is [`SimError::InvalidValue`].
    pub fn instantiate_graph(&self, graph: Graph) -> Result<GraphExec> {
        self.call(EngineCall::InstantiateGraph.name(), |c| {
            self.state().instantiate_locked(c, graph, false)
        })
    }

    /// [`Process::instantiate_graph`] with `cudaGraphInstantiateFlagAutoFreeOnLaunch` (`auto_free`): each launch
    /// first frees the graph's allocations that are still live (`graph/memory.rs`).
    pub fn instantiate_graph_with(&self, graph: Graph, auto_free: bool) -> Result<GraphExec> {
        self.call(EngineCall::InstantiateGraph.name(), |c| {
            self.state().instantiate_locked(c, graph, auto_free)
        })
    }

    /// Destroys an executable graph (CUDA `cudaGraphExecDestroy`, ACL `aclmdlRIDestroy`). Launches already
    /// enqueued still run; the handle is dead at once.
    pub fn destroy_graph_exec(&self, exec: GraphExec) -> Result<()> {
        self.call(EngineCall::DestroyGraphExec.name(), |_| {
            let mut st = self.state();
            let x = st.graphs.execs.remove(exec.0)?;
            st.graphs.mem.exec_gone(&self.m.memory, &x.allocs());
            st.retire_lanes(x.lanes);
            Ok(())
        })
    }

    /// How many tails of destroyed streams and executable graphs' lanes the process keeps (work that may not
    /// have run, not summed up yet): it follows the live work, not the objects destroyed (`tests/suite/churn.rs`).
    #[doc(hidden)]
    pub fn destroyed_tails(&self) -> usize {
        self.state().destroyed_tails()
    }

    /// Destroys a graph and its nodes (CUDA `cudaGraphDestroy`); executable graphs made from it are not
    /// affected. A graph still being captured is [`SimError::InvalidValue`] (the capture owns it).
    pub fn destroy_graph(&self, graph: Graph) -> Result<()> {
        self.call(EngineCall::DestroyGraph.name(), |_| {
            let mut st = self.state();
            if st.graphs.graphs.get(graph.0)?.capture.is_some() {
                return Err(being_captured(EngineCall::DestroyGraph.name()));
            }
            if st.graphs.lineage.is_embedded(graph.0) {
                return Err(SimError::InvalidValue {
                    what: EngineCall::DestroyGraph.name(),
                    reason:
                        "the graph is a child graph node's embedded graph, which the node owns \
                             (destroy the node instead)"
                            .into(),
                });
            }
            st.graphs.remove_graph(graph.0, &self.m.memory).map(drop)
        })
    }

    /// A copy of `graph` with nodes of its own (CUDA `cudaGraphClone`).
    pub fn clone_graph(&self, graph: Graph) -> Result<Graph> {
        self.call(EngineCall::CloneGraph.name(), |c| {
            let mut st = self.state();
            let g = st.graphs.graphs.get(graph.0)?;
            if g.capture.is_some() {
                return Err(being_captured(EngineCall::CloneGraph.name()));
            }
            super::memory::no_mem_nodes(EngineCall::CloneGraph.name(), &g.nodes, "be cloned")?;
            let (device, ctx, nodes) = (g.device, g.ctx, g.nodes.clone());
            let copy = st.graphs.new_graph(c.process, device, ctx)?;
            let mut pairs = Vec::with_capacity(nodes.len());
            for n in nodes {
                let (given, original) = (n.given, n.handle);
                match st.graphs.push_node(copy, n.deps, n.op, n.site, n.stream) {
                    Ok(h) => {
                        pairs.push((original, h));
                        if let Some(last) = st.graphs.graphs.get_mut(copy)?.nodes.last_mut() {
                            last.given = given;
                        }
                    }
                    Err(e) => {
                        let _ = st.graphs.remove_graph(copy, &self.m.memory);
                        return Err(e);
                    }
                }
            }
            st.graphs.lineage.cloned(copy, pairs);
            Ok(Graph(copy))
        })
    }

    /// The graph's nodes, in the order they were added (CUDA `cudaGraphGetNodes`).
    pub fn graph_nodes(&self, graph: Graph) -> Result<Vec<GraphNode>> {
        self.call(EngineCall::GraphNodes.name(), |_| {
            let st = self.state();
            Ok(st
                .graphs
                .graphs
                .get(graph.0)?
                .nodes
                .iter()
                .map(|n| n.handle)
                .collect())
        })
    }

    /// The graph's nodes that depend on no other node (CUDA `cudaGraphGetRootNodes`).
    pub fn graph_root_nodes(&self, graph: Graph) -> Result<Vec<GraphNode>> {
        self.call(EngineCall::GraphRootNodes.name(), |_| {
            let st = self.state();
            let g = st.graphs.graphs.get(graph.0)?;
            Ok(g.nodes
                .iter()
                .filter(|n| n.deps.is_empty())
                .map(|n| n.handle)
                .collect())
        })
    }

    /// The graph's edges, (from, to), in the order of the nodes they lead to (CUDA `cudaGraphGetEdges`).
    pub fn graph_edges(&self, graph: Graph) -> Result<Vec<(GraphNode, GraphNode)>> {
        self.call(EngineCall::GraphEdges.name(), |_| {
            let st = self.state();
            let g = st.graphs.graphs.get(graph.0)?;
            Ok(g.nodes
                .iter()
                .flat_map(|n| {
                    n.deps
                        .iter()
                        .map(move |&d| (g.nodes[d as usize].handle, n.handle))
                })
                .collect())
        })
    }

    /// What `node` does (CUDA `cudaGraphNodeGetType`).
    pub fn node_type(&self, node: GraphNode) -> Result<NodeType> {
        self.call(EngineCall::NodeType.name(), |_| {
            let st = self.state();
            let (g, i) = st.graphs.node(node)?;
            Ok(st.graphs.graphs.get(g)?.nodes[i as usize].op.node_type())
        })
    }

    /// The nodes `node` depends on (CUDA `cudaGraphNodeGetDependencies`).
    pub fn node_dependencies(&self, node: GraphNode) -> Result<Vec<GraphNode>> {
        self.call(EngineCall::NodeDependencies.name(), |_| {
            let st = self.state();
            let (g, i) = st.graphs.node(node)?;
            let g = st.graphs.graphs.get(g)?;
            Ok(g.nodes[i as usize]
                .deps
                .iter()
                .map(|&d| g.nodes[d as usize].handle)
                .collect())
        })
    }

    /// The nodes that depend on `node` (CUDA `cudaGraphNodeGetDependentNodes`).
    pub fn node_dependents(&self, node: GraphNode) -> Result<Vec<GraphNode>> {
        self.call(EngineCall::NodeDependents.name(), |_| {
            let st = self.state();
            let (g, i) = st.graphs.node(node)?;
            let g = st.graphs.graphs.get(g)?;
            Ok(g.nodes
                .iter()
                .filter(|n| n.deps.contains(&i))
                .map(|n| n.handle)
                .collect())
        })
    }

    /// The graph described in Graphviz's DOT language (what CUDA's `cudaGraphDebugDotPrint` writes to a file):
    /// a node per graph node with its number, type and what it does (kernel name and duration, copy direction
    /// and size, …), an edge per dependency. The same graph gives the same text on every run.
    pub fn graph_dot(&self, graph: Graph) -> Result<String> {
        self.call(EngineCall::GraphDot.name(), |_| {
            let st = self.state();
            dot(&st, graph)
        })
    }
}

/// The DOT text of `graph`.
fn dot(st: &ProcState, graph: Graph) -> Result<String> {
    let g = st.graphs.graphs.get(graph.0)?;
    let mut out = String::new();
    let name = format!("graph_{}", g.ordinal);
    let _ = writeln!(out, "digraph {name} {{");
    let _ = writeln!(
        out,
        "  label=\"graph {} (device {})\";",
        g.ordinal, g.device
    );
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for (i, n) in g.nodes.iter().enumerate() {
        let ty = n.op.node_type().dot_name();
        let what = match &n.op {
            NodeOp::Kernel { name, cost_ns, .. } => {
                format!(
                    "{}\\n{}",
                    escape(name),
                    crate::engine::core::time::VirtualTime(*cost_ns)
                )
            }
            NodeOp::Copy {
                bytes,
                path,
                dst,
                src,
                ..
            } => format!(
                "{:?}\\n{} bytes{}",
                path,
                bytes,
                if matches!(src, Endpoint::Pageable(_)) || matches!(dst, Endpoint::Pageable(_)) {
                    " (pageable host)"
                } else {
                    ""
                }
            ),
            NodeOp::Memset { bytes, value, .. } => format!("{bytes} bytes = {value:#04x}"),
            NodeOp::MemsetShaped { shape, .. } => format!(
                "{} x {} x {} bytes = {:#x}",
                shape.height, shape.width, shape.element_size, shape.value
            ),
            NodeOp::Child(nodes) => format!("{} nodes", nodes.len()),
            NodeOp::Rows(r) => format!("{} bytes in rows", r.bytes()),
            NodeOp::Host(_) => "host function".to_string(),
            NodeOp::EventRecord { id, .. } | NodeOp::EventWait { id, .. } => format!("event {id}"),
            NodeOp::Empty => String::new(),
            NodeOp::MemAlloc { base, bytes } => format!("{bytes} bytes at {base:#x}"),
            NodeOp::MemFree { base } => format!("{base:#x}"),
        };
        let _ = writeln!(
            out,
            "  \"{name}_node_{i}\" [label=\"{i}\\n{ty}\\n{what}\\n{}\"];",
            escape(
                &n.stream
                    .map_or_else(|| "added by hand".to_string(), |s| s.to_string())
            )
        );
    }
    for (i, n) in g.nodes.iter().enumerate() {
        for d in &n.deps {
            let _ = writeln!(out, "  \"{name}_node_{d}\" -> \"{name}_node_{i}\";");
        }
    }
    out.push_str("}\n");
    Ok(out)
}

/// `s` with DOT's special characters escaped inside a quoted string.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Process {
    /// How many nodes `graph` has, read without a runtime call (no host time; for the scenario runner's
    /// answers). `None`: not a live graph.
    pub(crate) fn graph_len_now(&self, graph: Graph) -> Option<usize> {
        self.state()
            .graphs
            .graphs
            .get(graph.0)
            .ok()
            .map(|g| g.nodes.len())
    }
}

impl ProcState {
    /// [`Process::instantiate_graph`] with the process's state locked.
    pub(super) fn instantiate_locked(
        &mut self,
        c: &Call,
        graph: Graph,
        auto_free: bool,
    ) -> Result<GraphExec> {
        let what = EngineCall::InstantiateGraph.name();
        self.graphs.execs.has_room()?;
        let g = self.graphs.graphs.get(graph.0)?;
        if g.capture.is_some() {
            return Err(being_captured(what));
        }
        if super::memory::has_mem_nodes(&g.nodes)
            && self
                .graphs
                .execs
                .values()
                .any(|x| x.from_graph == Some(graph.0))
        {
            return Err(SimError::NotSupported {
                what,
                reason: "the graph has memory nodes and an executable graph made from it is alive: only one \
                         instantiation of such a graph may exist at a time (destroy it first)"
                    .into(),
            });
        }
        if super::exec_graph::has_cycle(&g.nodes) {
            return Err(SimError::InvalidValue {
                what,
                reason: "the graph's dependencies form a cycle (in it or in a child graph)".into(),
            });
        }
        let (device, ctx, nodes) = (g.device, g.ctx, g.nodes.clone());
        let ordinal = self.graphs.next_exec_ordinal(c.process)?;
        let mut x = ExecEntry::new(ordinal, device, ctx, nodes);
        x.from_graph = Some(graph.0);
        x.auto_free = auto_free;
        let allocs = x.allocs();
        let h = self.graphs.execs.insert(x)?;
        self.graphs.mem.exec_made(&allocs);
        Ok(GraphExec(h))
    }
}
