//! Updating an executable graph from a graph of the same topology (CUDA `cudaGraphExecUpdate`, the CUDA 12
//! form with `cudaGraphExecUpdateResultInfo`), and uploading one (`cudaGraphUpload`). Rows and sources:
//! `docs/semantics/graph-building.md`.
//!
//! The graphs are paired node by node in the order their nodes were added, and each pair's dependencies in
//! the order of their edges: a graph captured, or built, the same way twice pairs up.

use super::NodeType;
use super::exec_graph::flatten;
use super::node::{Node, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError, UpdateOutcome, UpdateResult};
use crate::engine::core::handle::{Graph, GraphExec, GraphNode, Stream};
use crate::engine::process::Process;

/// A graph's shape at its top level: each node's type and dependencies by position, and a child graph's own
/// (inlined) shape.
pub(crate) type Shape = Vec<(NodeType, Vec<u32>, Vec<(NodeType, Vec<u32>)>)>;

/// The shape of a graph's nodes.
pub(crate) fn shape_of(nodes: &[Node]) -> Shape {
    nodes
        .iter()
        .map(|n| {
            let inner = match &n.op {
                NodeOp::Child(c) => flatten(c)
                    .0
                    .iter()
                    .map(|x| (x.op.node_type(), x.deps.clone()))
                    .collect(),
                _ => Vec::new(),
            };
            (n.op.node_type(), n.deps.clone(), inner)
        })
        .collect()
}

fn refused(
    result: UpdateResult,
    node: Option<GraphNode>,
    from: Option<GraphNode>,
    reason: String,
) -> SimError {
    SimError::GraphExecUpdate {
        what: EngineCall::UpdateGraphExec.name(),
        outcome: UpdateOutcome {
            result,
            error_node: node,
            error_from: from,
        },
        reason,
    }
}

/// Updating and uploading executable graphs.
impl Process {
    /// Updates executable graph `exec` with the parameters of `graph`'s nodes, for its later launches (CUDA
    /// `cudaGraphExecUpdate`). `graph` must have the topology of the graph `exec` was instantiated from: else
    /// [`SimError::GraphExecUpdate`] with the vendor's result ([`UpdateResult::TopologyChanged`], `…NodeTypeChanged`,
    /// `…ParametersChanged`) and the node it is about, and `exec` is unchanged. Nodes disabled in `exec` stay
    /// disabled. After an update, `graph`'s nodes name `exec`'s nodes (as the instantiated graph's still do).
    pub fn update_graph_exec(&self, exec: GraphExec, graph: Graph) -> Result<UpdateOutcome> {
        self.call(EngineCall::UpdateGraphExec.name(), |_| {
            let what = EngineCall::UpdateGraphExec.name();
            let mut st = self.state();
            let g = st.graphs.graphs.get(graph.0)?;
            if g.capture.is_some() {
                return Err(super::build::being_captured(what));
            }
            let new_nodes = g.nodes.clone();
            let gdev = g.device;
            let x = st.graphs.execs.get(exec.0)?;
            // graph-memory.md · ExecUpdate: memory nodes are not updated (the Runtime API names no rule for them;
            // an allocation's address is fixed for its node).
            if super::memory::has_mem_nodes(&new_nodes) || super::memory::has_mem_nodes(&x.nodes) {
                let node = new_nodes
                    .iter()
                    .find(|n| matches!(n.op, NodeOp::MemAlloc { .. } | NodeOp::MemFree { .. }))
                    .map(|n| n.handle);
                return Err(refused(
                    UpdateResult::NotSupported,
                    node,
                    None,
                    "an update of a graph with memory allocation or free nodes is not simulated"
                        .to_string(),
                ));
            }
            if super::exec_graph::has_cycle(&new_nodes) {
                // An executable graph has no cycle (instantiation refuses one), so the topology differs.
                return Err(refused(
                    UpdateResult::TopologyChanged,
                    None,
                    None,
                    "the graph's dependencies form a cycle".to_string(),
                ));
            }
            let new_shape = shape_of(&new_nodes);
            if new_shape.len() != x.shape.len() {
                return Err(refused(
                    UpdateResult::TopologyChanged,
                    None,
                    None,
                    format!(
                        "the graph has {} nodes and the executable graph {}",
                        new_shape.len(),
                        x.shape.len()
                    ),
                ));
            }
            for (i, ((ty, deps, inner), (ty0, deps0, inner0))) in
                new_shape.iter().zip(&x.shape).enumerate()
            {
                let node = Some(new_nodes[i].handle);
                if deps.len() != deps0.len() {
                    return Err(refused(
                        UpdateResult::TopologyChanged,
                        node,
                        None,
                        format!(
                            "node {i} has {} dependencies, and {} in the executable graph",
                            deps.len(),
                            deps0.len()
                        ),
                    ));
                }
                if let Some((&d, _)) = deps.iter().zip(deps0).find(|(a, b)| a != b) {
                    return Err(refused(
                        UpdateResult::TopologyChanged,
                        node,
                        Some(new_nodes[d as usize].handle),
                        format!(
                            "a dependency of node {i} does not pair with the executable graph's"
                        ),
                    ));
                }
                if ty != ty0 {
                    return Err(refused(
                        UpdateResult::NodeTypeChanged,
                        node,
                        None,
                        format!(
                            "node {i} is a {} node, and a {} node in the executable graph",
                            ty.dot_name(),
                            ty0.dot_name()
                        ),
                    ));
                }
                if inner != inner0 {
                    return Err(refused(
                        UpdateResult::TopologyChanged,
                        node,
                        None,
                        format!("the child graph of node {i} has another topology"),
                    ));
                }
            }
            if gdev != x.device {
                // "The owning context of the function cannot change": the first kernel node is refused; a graph
                // of another device without one is not simulated.
                let kernel = new_nodes.iter().find(|n| match &n.op {
                    NodeOp::Kernel { .. } => true,
                    NodeOp::Child(c) => flatten(c)
                        .0
                        .iter()
                        .any(|k| matches!(k.op, NodeOp::Kernel { .. })),
                    _ => false,
                });
                let reason = format!(
                    "the graph is on device {gdev} and the executable graph on device {}",
                    x.device
                );
                return Err(match kernel {
                    Some(k) => refused(
                        UpdateResult::UnsupportedFunctionChange,
                        Some(k.handle),
                        None,
                        format!("{reason}: a kernel node's function would change context"),
                    ),
                    None => refused(UpdateResult::NotSupported, None, None, reason),
                });
            }
            let (flat, at) = flatten(&new_nodes);
            for (k, (new, old)) in flat.iter().zip(x.nodes.iter()).enumerate() {
                if let Err(e) = self.exec_change_allowed(what, &old.op, &new.op) {
                    let pos = at.iter().position(|&a| a == Some(k as u32));
                    return Err(refused(
                        UpdateResult::ParametersChanged,
                        pos.map(|p| new_nodes[p].handle),
                        None,
                        e.to_string(),
                    ));
                }
            }
            let mut handles = x.original.clone();
            for (n, a) in new_nodes.iter().zip(&at) {
                if let Some(i) = a {
                    handles.insert(n.handle, *i);
                }
            }
            let x = st.graphs.execs.get_mut(exec.0)?;
            x.nodes = flat.into();
            x.handles = handles;
            x.children.updated(&new_nodes);
            Ok(UpdateOutcome {
                result: UpdateResult::Success,
                error_node: None,
                error_from: None,
            })
        })
    }

    /// Uploads executable graph `exec` in `stream` (CUDA `cudaGraphUpload`). The simulator has nothing to
    /// upload (a launch resolves every node at the launch), so the call checks its arguments: a live `exec` and
    /// stream, and a stream that is not capturing. A stream of another device is accepted, as `cudaGraphLaunch`
    /// accepts it (the nodes stay on `exec`'s device).
    pub fn upload_graph(&self, exec: GraphExec, stream: Stream) -> Result<()> {
        self.call(EngineCall::UploadGraph.name(), |c| {
            let what = EngineCall::UploadGraph.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.graphs.execs.get(exec.0)?;
            let s = st.streams.get(h)?;
            let id = s.id;
            if st.graphs.captures.of_stream(h).is_some() {
                return Err(SimError::Capture {
                    what,
                    stream: Some(id),
                    problem: CaptureProblem::Unsupported,
                });
            }
            Ok(())
        })
    }
}
