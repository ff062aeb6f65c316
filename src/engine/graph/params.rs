//! A node's parameters: read and change them on a graph (CUDA `cudaGraph*NodeGetParams` /
//! `cudaGraph*NodeSetParams`, `cudaGraphNodeGetParams` / `cudaGraphNodeSetParams`), change them on an executable
//! graph (`cudaGraphExec*NodeSetParams`, `cudaGraphExecNodeSetParams`), and enable or disable a node of an
//! executable graph (`cudaGraphNodeSetEnabled` / `cudaGraphNodeGetEnabled`). Rows and sources:
//! `docs/semantics/graph-building.md`.

use super::NodeType;
use super::build::{NodeSpec, Spec, being_captured, with_op};
use super::node::RowsNode;
use super::node::{Endpoint, Given, MemsetShape, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Event, GraphExec, GraphNode};
use crate::engine::core::pointers::{AddressSpace, DevicePtr};
use crate::engine::process::{ProcState, Process};

fn invalid(what: &'static str, reason: impl Into<String>) -> SimError {
    SimError::InvalidValue {
        what,
        reason: reason.into(),
    }
}

fn spec_type(spec: &Spec) -> NodeType {
    match spec {
        Spec::Copy { .. } | Spec::Rows { .. } => NodeType::Memcpy,
        Spec::Public(s) => match s {
            NodeSpec::Kernel(_) => NodeType::Kernel,
            NodeSpec::Memcpy { .. } => NodeType::Memcpy,
            NodeSpec::Memset { .. } => NodeType::Memset,
            NodeSpec::Host(_) => NodeType::Host,
            NodeSpec::EventRecord(_) => NodeType::EventRecord,
            NodeSpec::EventWait(_) => NodeType::EventWait,
            NodeSpec::Empty => NodeType::Empty,
            NodeSpec::ChildGraph(_) => NodeType::Graph,
            NodeSpec::MemAlloc { .. } => NodeType::MemAlloc,
            NodeSpec::MemFree(_) => NodeType::MemFree,
        },
    }
}

fn wrong_type(what: &'static str, node: GraphNode, is: NodeType, given: NodeType) -> SimError {
    invalid(
        what,
        format!(
            "node {:#x} is a {} node, and the parameters are of a {} node",
            node.0,
            is.dot_name(),
            given.dot_name()
        ),
    )
}

/// A node's parameters as the engine holds them, for a facade's getters.
pub(crate) struct NodeView {
    pub op: NodeOp,
    pub given: Option<Given>,
}

/// Node parameters.
impl Process {
    /// The event of an event record or event wait node (CUDA `cudaGraphEventRecordNodeGetEvent`,
    /// `cudaGraphEventWaitNodeGetEvent`); [`SimError::InvalidValue`] for a node of another type.
    pub fn graph_node_event(&self, node: GraphNode) -> Result<Event> {
        let v = self.graph_node_view(node)?;
        match v.op {
            NodeOp::EventRecord { event, .. } | NodeOp::EventWait { event, .. } => Ok(Event(event)),
            op => Err(invalid(
                EngineCall::GraphNodeParams.name(),
                format!(
                    "node {:#x} is a {} node, not an event node",
                    node.0,
                    op.node_type().dot_name()
                ),
            )),
        }
    }

    /// The destination and shape of a memset node (CUDA `cudaGraphMemsetNodeGetParams`; a captured memset is
    /// one row of bytes).
    pub fn graph_node_memset(&self, node: GraphNode) -> Result<(DevicePtr, MemsetShape)> {
        let v = self.graph_node_view(node)?;
        match v.op {
            NodeOp::MemsetShaped { dst, shape } => Ok((dst, shape)),
            NodeOp::Memset {
                dst: Endpoint::Device(p),
                value,
                bytes,
                ..
            } => Ok((
                p,
                MemsetShape {
                    pitch: 0,
                    value: u32::from(value),
                    element_size: 1,
                    width: bytes,
                    height: 1,
                },
            )),
            NodeOp::Rows(RowsNode::Fill { .. }) => Err(SimError::NotSupported {
                what: EngineCall::GraphNodeParams.name(),
                reason: "a captured 3-D memset whose slices are padded has no cudaMemsetParams form (rows of \
                         one pitch)"
                    .into(),
            }),
            op => Err(invalid(
                EngineCall::GraphNodeParams.name(),
                format!(
                    "node {:#x} is a {} node, not a memset node of device memory",
                    node.0,
                    op.node_type().dot_name()
                ),
            )),
        }
    }

    /// What node `node` replays and what its facade was given.
    pub(crate) fn graph_node_view(&self, node: GraphNode) -> Result<NodeView> {
        self.call(EngineCall::GraphNodeParams.name(), |_| {
            let st = self.state();
            let (g, i) = st.graphs.node(node)?;
            let n = &st.graphs.graphs.get(g)?.nodes[i as usize];
            Ok(NodeView {
                op: n.op.clone(),
                given: n.given.clone(),
            })
        })
    }

    /// Replaces what `node` does (CUDA `cudaGraphNodeSetParams` and the `cudaGraph*NodeSetParams` calls): a
    /// description of another node type is [`SimError::InvalidValue`]; it is checked as adding it would be.
    /// Executable graphs made from the graph are not affected.
    pub fn set_graph_node(&self, node: GraphNode, spec: NodeSpec) -> Result<()> {
        self.set_graph_node_in(node, Spec::Public(spec), None)
    }

    pub(crate) fn set_graph_node_in(
        &self,
        node: GraphNode,
        spec: Spec,
        given: Option<Given>,
    ) -> Result<()> {
        self.call(EngineCall::SetGraphNodeParams.name(), |c| {
            let what = EngineCall::SetGraphNodeParams.name();
            let mut st = self.state();
            let (g, i) = st.graphs.node(node)?;
            let entry = st.graphs.graphs.get(g)?;
            if entry.capture.is_some() {
                return Err(being_captured(what));
            }
            let is = entry.nodes[i as usize].op.node_type();
            if is != spec_type(&spec) {
                return Err(wrong_type(what, node, is, spec_type(&spec)));
            }
            let device = entry.device;
            let op = self.node_op(&st, c, what, device, spec)?;
            let n = &mut st.graphs.graphs.get_mut(g)?.nodes[i as usize];
            n.op = op;
            n.given = given;
            if is == NodeType::Graph {
                st.graphs.refill_embedded(node, &self.m.memory)?;
            }
            st.graphs.embedded_changed(g);
            Ok(())
        })
    }

    /// Replaces what `node` does in executable graph `exec`, for its later launches (CUDA
    /// `cudaGraphExecNodeSetParams` and the `cudaGraphExec*NodeSetParams` calls); `node` is a node of the graph
    /// `exec` was instantiated from (or last updated from) and must still be in it. The node's type cannot
    /// change; a copy's ends and a memset's destination stay in the same kind of memory on the same device; a
    /// memset of several rows keeps its shape, and one of a row keeps its height. Else
    /// [`SimError::InvalidValue`].
    pub fn set_exec_node(&self, exec: GraphExec, node: GraphNode, spec: NodeSpec) -> Result<()> {
        self.set_exec_node_in(exec, node, Spec::Public(spec), None)
    }

    pub(crate) fn set_exec_node_in(
        &self,
        exec: GraphExec,
        node: GraphNode,
        spec: Spec,
        given: Option<Given>,
    ) -> Result<()> {
        self.call(EngineCall::SetExecNodeParams.name(), |c| {
            let what = EngineCall::SetExecNodeParams.name();
            let mut st = self.state();
            if let Some(child) = super::child::child_of(&spec) {
                return self.set_exec_child_locked(&mut st, what, exec, node, child);
            }
            let i = st.exec_index(what, exec, node)?;
            let x = st.graphs.execs.get(exec.0)?;
            let old = x.nodes[i as usize].op.clone();
            let device = x.device;
            if old.node_type() != spec_type(&spec) {
                return Err(wrong_type(what, node, old.node_type(), spec_type(&spec)));
            }
            let op = self.node_op(&st, c, what, device, spec)?;
            self.exec_change_allowed(what, &old, &op)?;
            let x = st.graphs.execs.get_mut(exec.0)?;
            let mut nodes = x.nodes.to_vec();
            nodes[i as usize] = with_op(&nodes[i as usize], op, given);
            x.nodes = nodes.into();
            Ok(())
        })
    }

    /// Whether an executable graph's node may change from `old` to `new` (the rules of
    /// `cudaGraphExecMemcpyNodeSetParams` / `cudaGraphExecMemsetNodeSetParams`, also `cudaGraphExecUpdate`'s).
    pub(crate) fn exec_change_allowed(
        &self,
        what: &'static str,
        old: &NodeOp,
        new: &NodeOp,
    ) -> Result<()> {
        let mem = &self.m.memory;
        let space = |e: &Endpoint| match e {
            Endpoint::Device(p) => mem.classify(p.addr()),
            Endpoint::Pinned(_) => AddressSpace::PinnedHost,
            Endpoint::Pageable(_) => AddressSpace::PageableHost,
        };
        match (old, new) {
            // "either the original or new memory operands are multidimensional" (ExecMemcpyNodeSetParams).
            (NodeOp::Rows(r), _) | (_, NodeOp::Rows(r)) if r.is_copy() => {
                return Err(invalid(
                    what,
                    "a pitched copy (rows apart) of an executable graph cannot be changed, nor a copy changed \
                     into one (multidimensional memory operands)",
                ));
            }
            // A 3-D memset keeps its dimensions and device; only its value may change.
            (NodeOp::Rows(a), NodeOp::Rows(b)) => {
                let same = match (a, b) {
                    (
                        RowsNode::Fill {
                            dst: d0,
                            p: p0,
                            extent: e0,
                            ..
                        },
                        RowsNode::Fill {
                            dst: d1,
                            p: p1,
                            extent: e1,
                            ..
                        },
                    ) => p0 == p1 && e0 == e1 && mem.classify(d0.addr()) == mem.classify(d1.addr()),
                    _ => false,
                };
                if !same {
                    return Err(invalid(
                        what,
                        "a 3-D memset of an executable graph keeps its dimensions and device",
                    ));
                }
            }
            (NodeOp::Rows(_), _) | (_, NodeOp::Rows(_)) => {
                return Err(invalid(
                    what,
                    "a 3-D memset of an executable graph keeps its dimensions (all dimension changes of a \
                     multi-row memset are rejected)",
                ));
            }
            (
                NodeOp::Copy {
                    dst: d0, src: s0, ..
                },
                NodeOp::Copy {
                    dst: d1, src: s1, ..
                },
            ) if space(d0) != space(d1) || space(s0) != space(s1) => {
                return Err(invalid(
                    what,
                    format!(
                        "the copy's memory changes from {} to {} into {} to {}: an executable graph's copy \
                         keeps the kind and device of its ends",
                        space(s0),
                        space(d0),
                        space(s1),
                        space(d1)
                    ),
                ));
            }
            (
                NodeOp::MemsetShaped { dst: p0, shape: a },
                NodeOp::MemsetShaped { dst: p1, shape: b },
            ) => {
                if mem.classify(p0.addr()) != mem.classify(p1.addr()) {
                    return Err(invalid(
                        what,
                        "the memset's destination moves to another device: an executable graph's memset keeps \
                         its device",
                    ));
                }
                let two_d = a.height > 1 || b.height > 1;
                let same_dims = a.width == b.width
                    && a.height == b.height
                    && a.element_size == b.element_size
                    && (a.height == 1 || a.pitch == b.pitch);
                if (two_d && !same_dims) || a.height != b.height {
                    return Err(invalid(
                        what,
                        format!(
                            "the memset's shape changes from {} x {} x {} to {} x {} x {}: a 2D memset of an \
                             executable graph keeps its dimensions, and a 1D one its height",
                            a.height, a.width, a.element_size, b.height, b.width, b.element_size
                        ),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Enables or disables `node` in executable graph `exec` for its later launches (CUDA
    /// `cudaGraphNodeSetEnabled`): a disabled node runs as an empty node. Only kernel, memcpy and memset nodes;
    /// others are [`SimError::InvalidValue`].
    pub fn set_exec_node_enabled(
        &self,
        exec: GraphExec,
        node: GraphNode,
        enabled: bool,
    ) -> Result<()> {
        self.call(EngineCall::SetExecNodeEnabled.name(), |_| {
            let what = EngineCall::SetExecNodeEnabled.name();
            let mut st = self.state();
            let i = st.enable_index(what, exec, node)?;
            st.graphs.execs.get_mut(exec.0)?.enabled[i as usize] = enabled;
            Ok(())
        })
    }

    /// Whether `node` is enabled in executable graph `exec` (CUDA `cudaGraphNodeGetEnabled`); the rules of
    /// [`Process::set_exec_node_enabled`].
    pub fn exec_node_enabled(&self, exec: GraphExec, node: GraphNode) -> Result<bool> {
        self.call(EngineCall::ExecNodeEnabled.name(), |_| {
            let what = EngineCall::ExecNodeEnabled.name();
            let st = self.state();
            let i = st.enable_index(what, exec, node)?;
            Ok(st.graphs.execs.get(exec.0)?.enabled[i as usize])
        })
    }
}

impl ProcState {
    /// The instantiated node of `exec` that `node` names: [`SimError::InvalidValue`] if `node` is not (or no
    /// longer) a node of the graph `exec` was instantiated or last updated from.
    pub(crate) fn exec_index(
        &self,
        what: &'static str,
        exec: GraphExec,
        node: GraphNode,
    ) -> Result<u32> {
        let x = self.graphs.execs.get(exec.0)?;
        let removed = self.graphs.nodes.get(node.0).is_err();
        match x.handles.get(&node) {
            Some(&i) if !removed => Ok(i),
            _ => Err(invalid(
                what,
                format!(
                    "{:#x} is not a node of the graph graph exec {} was instantiated from (or it was removed)",
                    node.0, x.ordinal
                ),
            )),
        }
    }

    fn enable_index(&self, what: &'static str, exec: GraphExec, node: GraphNode) -> Result<u32> {
        let i = self.exec_index(what, exec, node)?;
        let ty = self.graphs.execs.get(exec.0)?.nodes[i as usize]
            .op
            .node_type();
        if !matches!(ty, NodeType::Kernel | NodeType::Memcpy | NodeType::Memset) {
            return Err(invalid(
                what,
                format!(
                    "node {:#x} is a {} node: only kernel, memcpy and memset nodes can be enabled or disabled",
                    node.0,
                    ty.dot_name()
                ),
            ));
        }
        Ok(i)
    }
}
