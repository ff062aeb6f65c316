//! Building a graph by hand (CUDA `cudaGraphCreate`, `cudaGraphAdd*Node`, `cudaGraphAddNode`,
//! `cudaGraphAddDependencies` / `cudaGraphRemoveDependencies`, `cudaGraphDestroyNode`). A node added by hand is
//! the same [`NodeOp`] a capture makes, checked the same way when it is added (live memory of this process, in
//! range; a kernel's declared accesses), and resolved again at every launch. Rows and sources:
//! `docs/semantics/graph-building.md`.
//!
//! An edge that closes a cycle is accepted, as CUDA accepts it; instantiation refuses a graph with a cycle
//! (`exec_graph.rs`, `has_cycle`).

use std::panic::Location;
use std::sync::Arc;

use super::node::{Endpoint, Given, MemsetShape, Node, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Event, Graph, GraphNode};
use crate::engine::core::pointers::{AddressSpace, DevicePtr, HostPtr};
use crate::engine::core::rules::PeerCopy;
use crate::engine::core::time::{CopyPath, saturating_nanos};
use crate::engine::kernels::kernel::{Body, Kernel};
use crate::engine::memory::rows::{Extent, Pitch};
use crate::engine::process::{Call, ProcState, Process};

/// Memory a memcpy node reads or writes (the Rust API; the C API also names pageable host memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeMem {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory.
    Pinned(HostPtr),
}

impl NodeMem {
    fn endpoint(self) -> Endpoint {
        match self {
            NodeMem::Device(p) => Endpoint::Device(p),
            NodeMem::Pinned(p) => Endpoint::Pinned(p),
        }
    }
}

/// What a node added by hand does: the Rust form of `cudaGraphNodeParams` (the types the simulator makes).
pub enum NodeSpec {
    /// A kernel. Its body, if it has one, must be shared ([`Kernel::shared_body`]): a graph runs it at every
    /// launch.
    Kernel(Kernel),
    /// A copy of `bytes` bytes.
    Memcpy {
        /// Where to.
        dst: NodeMem,
        /// Where from.
        src: NodeMem,
        /// How many bytes (at least 1).
        bytes: u64,
    },
    /// A memset of device memory (`cudaMemsetParams`).
    Memset {
        /// The first byte of the first row.
        dst: DevicePtr,
        /// Rows, pitch, element size and value.
        shape: MemsetShape,
    },
    /// A host function, run at every launch.
    Host(Arc<dyn Fn() + Send + Sync>),
    /// A record of an event at every launch (the event then stands for the node's dependencies).
    EventRecord(Event),
    /// A wait, at every launch, for the event's record current at the launch.
    EventWait(Event),
    /// Nothing (orders others).
    Empty,
    /// A copy of another graph's nodes, made now (`cudaGraphAddChildGraphNode`: "the child graph is cloned").
    ChildGraph(Graph),
    /// A graph allocation of `bytes` bytes on `device` (`cudaGraphAddMemAllocNode`): its address is fixed now
    /// ([`Process::graph_mem_node`] gives it); each launch allocates it (`graph/memory.rs`).
    MemAlloc {
        /// The device of the memory (the graph's: multi-device graphs are not simulated).
        device: u32,
        /// At least 1.
        bytes: u64,
    },
    /// A free of the graph allocation at this address (`cudaGraphAddMemFreeNode`).
    MemFree(DevicePtr),
}

impl std::fmt::Debug for NodeSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeSpec::Kernel(k) => write!(f, "Kernel({:?})", k.name),
            NodeSpec::Memcpy { dst, src, bytes } => {
                write!(f, "Memcpy {{ dst: {dst:?}, src: {src:?}, bytes: {bytes} }}")
            }
            NodeSpec::Memset { dst, shape } => {
                write!(f, "Memset {{ dst: {dst:?}, shape: {shape:?} }}")
            }
            NodeSpec::Host(_) => write!(f, "Host"),
            NodeSpec::EventRecord(e) => write!(f, "EventRecord({e:?})"),
            NodeSpec::EventWait(e) => write!(f, "EventWait({e:?})"),
            NodeSpec::Empty => write!(f, "Empty"),
            NodeSpec::ChildGraph(g) => write!(f, "ChildGraph({g:?})"),
            NodeSpec::MemAlloc { device, bytes } => {
                write!(f, "MemAlloc {{ device: {device}, bytes: {bytes} }}")
            }
            NodeSpec::MemFree(p) => write!(f, "MemFree({p:?})"),
        }
    }
}

/// A node's description as the engine takes it: the public one, or a copy whose ends are raw (the C API, whose
/// ends may be pageable host memory).
pub(crate) enum Spec {
    Public(NodeSpec),
    Copy {
        dst: Endpoint,
        src: Endpoint,
        bytes: u64,
    },
    /// A pitched copy: rows apart on either side (`rows.rs`).
    Rows {
        dst: (Endpoint, Pitch),
        src: (Endpoint, Pitch),
        extent: Extent,
    },
}

pub(crate) fn being_captured(what: &'static str) -> SimError {
    SimError::InvalidValue {
        what,
        reason: "the graph is being captured into (end the capture first)".into(),
    }
}

fn invalid(what: &'static str, reason: impl Into<String>) -> SimError {
    SimError::InvalidValue {
        what,
        reason: reason.into(),
    }
}

/// The path of a copy between two address spaces.
fn copy_path(src: AddressSpace, dst: AddressSpace) -> CopyPath {
    match (src, dst) {
        (AddressSpace::Device(a), AddressSpace::Device(b)) if a == b => CopyPath::OnDevice,
        (AddressSpace::Device(_), AddressSpace::Device(_)) => CopyPath::StagedThroughHost,
        (AddressSpace::Device(_), _) => CopyPath::DeviceToHost,
        (_, AddressSpace::Device(_)) => CopyPath::HostToDevice,
        _ => CopyPath::HostToHost,
    }
}

/// Building graphs.
impl Process {
    /// A new empty graph on the current device (CUDA `cudaGraphCreate`).
    pub fn create_graph(&self) -> Result<Graph> {
        self.call(EngineCall::CreateGraph.name(), |c| {
            let mut st = self.state();
            let (device, ctx) = st.current(&self.m, c, EngineCall::CreateGraph.name())?;
            Ok(Graph(st.graphs.new_graph(c.process, device, ctx)?))
        })
    }

    /// Adds a node to `graph` that depends on `deps` (CUDA `cudaGraphAddNode` and the `cudaGraphAdd*Node`
    /// calls). [`SimError::InvalidValue`] for a dependency of another graph, a repeated dependency, and a
    /// description the node type refuses (see `docs/semantics/graph-building.md`).
    #[track_caller]
    pub fn add_graph_node(
        &self,
        graph: Graph,
        deps: &[GraphNode],
        spec: NodeSpec,
    ) -> Result<GraphNode> {
        let site = Location::caller();
        self.add_graph_node_in(graph, deps, Spec::Public(spec), None, site)
    }

    /// [`Process::add_graph_node`] for a facade: a raw copy, and what the facade was given.
    pub(crate) fn add_graph_node_in(
        &self,
        graph: Graph,
        deps: &[GraphNode],
        spec: Spec,
        given: Option<Given>,
        site: &'static Location<'static>,
    ) -> Result<GraphNode> {
        self.call(EngineCall::AddGraphNode.name(), |c| {
            let what = EngineCall::AddGraphNode.name();
            let mut st = self.state();
            let g = st.graphs.graphs.get(graph.0)?;
            if g.capture.is_some() {
                return Err(being_captured(what));
            }
            let device = g.device;
            let mut positions = Vec::with_capacity(deps.len());
            for &d in deps {
                let p = st.position_in(what, graph, d)?;
                if positions.contains(&p) {
                    return Err(invalid(
                        what,
                        format!("node {:#x} is listed twice in the dependencies", d.0),
                    ));
                }
                positions.push(p);
            }
            let op = match spec {
                Spec::Public(NodeSpec::MemAlloc { device: d, bytes }) => {
                    st.mem_alloc_op(&self.m, c, what, graph.0, device, d, bytes)?
                }
                Spec::Public(NodeSpec::MemFree(ptr)) => st.mem_free_op(what, graph.0, ptr)?,
                spec => self.node_op(&st, c, what, device, spec)?,
            };
            let freed = match op {
                NodeOp::MemFree { base } => Some(base),
                _ => None,
            };
            let node = st.graphs.push_node(graph.0, positions, op, site, None)?;
            if let Some(base) = freed {
                st.mem_free_added(graph.0, base);
            }
            if let Some(last) = st.graphs.graphs.get_mut(graph.0)?.nodes.last_mut() {
                last.given = given;
            }
            st.graphs.embedded_changed(graph.0);
            Ok(node)
        })
    }

    /// Checks a node description and makes what the node replays.
    pub(crate) fn node_op(
        &self,
        st: &ProcState,
        c: &Call,
        what: &'static str,
        device: u32,
        spec: Spec,
    ) -> Result<NodeOp> {
        let spec = match spec {
            Spec::Copy { dst, src, bytes } => {
                return self.copy_op(st, c, what, device, dst, src, bytes);
            }
            Spec::Rows { dst, src, extent } => {
                return self.rows_op(st, c, what, device, dst, src, extent);
            }
            Spec::Public(s) => s,
        };
        Ok(match spec {
            NodeSpec::Kernel(k) => {
                for a in &k.accesses {
                    self.declared_for_graph(a, c)?;
                }
                let body = match k.body {
                    None => None,
                    Some(Body::Shared(f)) => Some(f),
                    Some(Body::Once(_)) => {
                        return Err(SimError::NotSupported {
                            what,
                            reason: format!(
                                "kernel `{}` is a graph node, which runs at every launch: give its body with \
                                 Kernel::shared_body (Fn), not Kernel::body (FnOnce)",
                                k.name
                            ),
                        });
                    }
                };
                NodeOp::Kernel {
                    cost_ns: k
                        .duration
                        .map_or(self.m.hot.default_kernel_ns, saturating_nanos),
                    name: k.name,
                    accesses: k.accesses,
                    body,
                }
            }
            NodeSpec::Memcpy { dst, src, bytes } => {
                self.copy_op(st, c, what, device, dst.endpoint(), src.endpoint(), bytes)?
            }
            NodeSpec::Memset { dst, shape } => {
                if !matches!(shape.element_size, 1 | 2 | 4) {
                    return Err(invalid(
                        what,
                        format!(
                            "element size {}: it must be 1, 2 or 4 bytes",
                            shape.element_size
                        ),
                    ));
                }
                if shape.width == 0 || shape.height == 0 {
                    return Err(invalid(
                        what,
                        format!(
                            "a memset of {} x {} elements sets nothing (zero-sized memsets are not supported)",
                            shape.height, shape.width
                        ),
                    ));
                }
                if shape.height > 1 && shape.pitch < shape.row_bytes() {
                    return Err(invalid(
                        what,
                        format!(
                            "pitch {} is less than a row's {} bytes",
                            shape.pitch,
                            shape.row_bytes()
                        ),
                    ));
                }
                let span = shape
                    .width
                    .checked_mul(u64::from(shape.element_size))
                    .and_then(|r| (shape.height - 1).checked_mul(shape.pitch)?.checked_add(r))
                    .ok_or_else(|| invalid(what, "the memset's extent overflows"))?;
                // A graph allocation is resolved at each launch (graph/memory.rs). Managed memory is set where
                // it is, as `cudaMemset` sets it (graph-building.md · GraphAddMemsetNode, managed memory).
                let managed = self.m.memory.is_managed(dst.addr());
                let space = if managed {
                    self.m
                        .memory
                        .pinned_region(what, HostPtr(dst.addr()), span, c.process)?;
                    AddressSpace::Device(device)
                } else {
                    match self.m.memory.device_region(what, dst, span, c.process) {
                        Ok(r) => r.block.space,
                        Err(e) => self.m.memory.graph_space(dst.addr(), span).ok_or(e)?.0,
                    }
                };
                if space != AddressSpace::Device(device) {
                    return Err(SimError::InvalidValue {
                        what,
                        reason: format!(
                            "the memset's memory is on {space} and the graph on device {device}"
                        ),
                    });
                }
                NodeOp::MemsetShaped { dst, shape }
            }
            NodeSpec::Host(f) => NodeOp::Host(f),
            NodeSpec::EventRecord(e) => NodeOp::EventRecord {
                event: e.0,
                id: live_event(st, what, e)?,
            },
            NodeSpec::EventWait(e) => NodeOp::EventWait {
                event: e.0,
                id: live_event(st, what, e)?,
            },
            NodeSpec::Empty => NodeOp::Empty,
            NodeSpec::MemAlloc { .. } | NodeSpec::MemFree(_) => {
                return Err(SimError::NotSupported {
                    what,
                    reason: "the parameters of a memory node cannot be set".into(),
                });
            }
            NodeSpec::ChildGraph(child) => {
                // A graph may be its own child graph: the node holds a copy of its nodes as they are now.
                let g = st.graphs.graphs.get(child.0)?;
                if g.capture.is_some() {
                    return Err(being_captured(what));
                }
                super::memory::no_mem_nodes(what, &g.nodes, "be a child graph")?;
                if g.device != device {
                    return Err(SimError::NotSupported {
                        what,
                        reason: format!(
                            "the child graph is on device {} and the graph on device {device}: multi-device \
                             graphs are not simulated",
                            g.device
                        ),
                    });
                }
                // The child graph's nodes as they are now (instantiation inlines them).
                NodeOp::Child(Arc::from(g.nodes.clone()))
            }
        })
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "a copy's ends and size, and where it goes"
    )]
    fn copy_op(
        &self,
        st: &ProcState,
        c: &Call,
        what: &'static str,
        device: u32,
        dst: Endpoint,
        src: Endpoint,
        bytes: u64,
    ) -> Result<NodeOp> {
        if bytes == 0 {
            return Err(invalid(
                what,
                "a copy of 0 bytes (zero-length memcpy nodes are not supported)",
            ));
        }
        let path = self.node_copy_path(st, c, what, device, (dst, bytes), (src, bytes))?;
        Ok(NodeOp::Copy {
            what: "memcpy node",
            dst,
            src,
            bytes,
            path,
        })
    }

    /// A pitched memcpy node: each side's rows checked as a pitched copy checks them (the pitch at least the
    /// width, the rows in live memory of this process), the path as for a copy node.
    #[allow(
        clippy::too_many_arguments,
        reason = "a copy's sides and size, and where it goes"
    )]
    fn rows_op(
        &self,
        st: &ProcState,
        c: &Call,
        what: &'static str,
        device: u32,
        (dst, dp): (Endpoint, Pitch),
        (src, sp): (Endpoint, Pitch),
        extent: Extent,
    ) -> Result<NodeOp> {
        if extent.width == 0 || extent.height == 0 || extent.depth == 0 {
            return Err(invalid(
                what,
                "a copy of 0 bytes (zero-length memcpy nodes are not supported)",
            ));
        }
        // The graph calls answer cudaErrorInvalidValue, not cudaErrorInvalidPitchValue.
        let span = |side, p| {
            crate::engine::memory::rows::span(what, side, p, extent).map_err(|e| match e {
                SimError::InvalidPitch { what, reason } => SimError::InvalidValue { what, reason },
                e => e,
            })
        };
        let (dspan, sspan) = (span("destination", dp)?, span("source", sp)?);
        let path = self.node_copy_path(st, c, what, device, (dst, dspan), (src, sspan))?;
        Ok(NodeOp::Rows(super::node::RowsNode::Copy {
            dst,
            dp,
            src,
            sp,
            extent,
            path,
        }))
    }

    /// The path of a copy node between `dst` and `src` (each checked for `bytes` bytes of live memory of this
    /// process): between two devices, the peer link if the graph's device may access the other, else staged
    /// through the host (or refused where the dialect refuses that).
    fn node_copy_path(
        &self,
        st: &ProcState,
        c: &Call,
        what: &'static str,
        device: u32,
        (dst, dbytes): (Endpoint, u64),
        (src, sbytes): (Endpoint, u64),
    ) -> Result<CopyPath> {
        let mem = &self.m.memory;
        let space = |e: Endpoint, bytes: u64| -> Result<AddressSpace> {
            Ok(match e {
                // A graph allocation is resolved at each launch (graph/memory.rs).
                Endpoint::Device(p) => match mem.device_region(what, p, bytes, c.process) {
                    Ok(r) => r.block.space,
                    Err(e) => mem.graph_space(p.addr(), bytes).ok_or(e)?.0,
                },
                Endpoint::Pinned(p) => {
                    mem.pinned_region(what, p, bytes, c.process)?;
                    AddressSpace::PinnedHost
                }
                Endpoint::Pageable(_) => AddressSpace::PageableHost,
            })
        };
        let (ss, ds) = (space(src, sbytes)?, space(dst, dbytes)?);
        Ok(match copy_path(ss, ds) {
            CopyPath::StagedThroughHost => {
                let (AddressSpace::Device(a), AddressSpace::Device(b)) = (ss, ds) else {
                    unreachable!("staged copies are device to device")
                };
                let enabled = if device == a {
                    st.peers.contains(&(a, b))
                } else if device == b {
                    st.peers.contains(&(b, a))
                } else {
                    st.peers.contains(&(device, a)) && st.peers.contains(&(device, b))
                };
                if enabled {
                    CopyPath::PeerLink
                } else if self.m.rules.peer_copy_without_access == PeerCopy::Reject {
                    return Err(SimError::PeerAccessRequired {
                        what,
                        src: a,
                        dst: b,
                    });
                } else {
                    CopyPath::StagedThroughHost
                }
            }
            p => p,
        })
    }

    /// Adds the edges `from[i] → to[i]` to `graph` (CUDA `cudaGraphAddDependencies`): all of them or, on an
    /// error, none. [`SimError::InvalidValue`] for a node of another graph, an edge that exists (or is listed
    /// twice) and an edge from a node to itself. An edge that closes a cycle is accepted (instantiation refuses
    /// the graph).
    pub fn add_graph_dependencies(
        &self,
        graph: Graph,
        edges: &[(GraphNode, GraphNode)],
    ) -> Result<()> {
        self.call(EngineCall::AddGraphDependencies.name(), |_| {
            let what = EngineCall::AddGraphDependencies.name();
            let mut st = self.state();
            let mut deps = st.editable(what, graph)?;
            for &(from, to) in edges {
                let (f, t) = (
                    st.position_in(what, graph, from)?,
                    st.position_in(what, graph, to)?,
                );
                if f == t {
                    return Err(invalid(
                        what,
                        format!("an edge from node {:#x} to itself", from.0),
                    ));
                }
                if deps[t as usize].contains(&f) {
                    return Err(invalid(
                        what,
                        format!("the edge {:#x} -> {:#x} exists already", from.0, to.0),
                    ));
                }
                deps[t as usize].push(f);
            }
            st.set_deps(graph, deps)?;
            st.graphs.embedded_changed(graph.0);
            Ok(())
        })
    }

    /// Removes the edges `from[i] → to[i]` from `graph` (CUDA `cudaGraphRemoveDependencies`): all of them or, on
    /// an error, none. [`SimError::InvalidValue`] for a node of another graph and an edge that does not exist.
    pub fn remove_graph_dependencies(
        &self,
        graph: Graph,
        edges: &[(GraphNode, GraphNode)],
    ) -> Result<()> {
        self.call(EngineCall::RemoveGraphDependencies.name(), |_| {
            let what = EngineCall::RemoveGraphDependencies.name();
            let mut st = self.state();
            let mut deps = st.editable(what, graph)?;
            super::memory::no_mem_nodes(
                what,
                &st.graphs.graphs.get(graph.0)?.nodes,
                "lose an edge",
            )?;
            for &(from, to) in edges {
                let (f, t) = (
                    st.position_in(what, graph, from)?,
                    st.position_in(what, graph, to)?,
                );
                let Some(k) = deps[t as usize].iter().position(|&d| d == f) else {
                    return Err(invalid(
                        what,
                        format!("there is no edge {:#x} -> {:#x}", from.0, to.0),
                    ));
                };
                deps[t as usize].remove(k);
            }
            st.set_deps(graph, deps)?;
            st.graphs.embedded_changed(graph.0);
            Ok(())
        })
    }

    /// Removes `node` from its graph, with its edges to and from other nodes (CUDA `cudaGraphDestroyNode`).
    pub fn destroy_graph_node(&self, node: GraphNode) -> Result<()> {
        self.call(EngineCall::DestroyGraphNode.name(), |_| {
            let what = EngineCall::DestroyGraphNode.name();
            let mut st = self.state();
            let (g, p) = st.graphs.node(node)?;
            if st.graphs.graphs.get(g)?.capture.is_some() {
                return Err(being_captured(what));
            }
            super::memory::no_mem_nodes(what, &st.graphs.graphs.get(g)?.nodes, "lose a node")?;
            st.graphs.nodes.remove(node.0)?;
            st.graphs.drop_embedded(node, &self.m.memory);
            let entry = st.graphs.graphs.get_mut(g)?;
            entry.nodes.remove(p as usize);
            for n in &mut entry.nodes {
                n.deps.retain(|&d| d != p);
                for d in &mut n.deps {
                    if *d > p {
                        *d -= 1;
                    }
                }
            }
            let later: Vec<GraphNode> =
                entry.nodes[p as usize..].iter().map(|n| n.handle).collect();
            for h in later {
                if let Ok(r) = st.graphs.nodes.get_mut(h.0) {
                    r.index -= 1;
                }
            }
            st.graphs.embedded_changed(g);
            Ok(())
        })
    }
}

/// The identity of live event `e`: [`SimError::InvalidValue`] if it is not one (the Graph Management calls answer
/// `cudaErrorInvalidValue`).
fn live_event(
    st: &ProcState,
    what: &'static str,
    e: Event,
) -> Result<crate::engine::core::handle::EventId> {
    st.events
        .get(e.0)
        .map(|x| x.id)
        .map_err(|_| invalid(what, format!("{:#x} is not a live event", e.0)))
}

impl ProcState {
    /// The position of `node` in `graph`: [`SimError::InvalidValue`] if it is not a live node of it.
    pub(crate) fn position_in(
        &self,
        what: &'static str,
        graph: Graph,
        node: GraphNode,
    ) -> Result<u32> {
        match self.graphs.node(node) {
            Ok((g, p)) if g == graph.0 => Ok(p),
            Ok(_) => Err(invalid(
                what,
                format!("node {:#x} belongs to another graph", node.0),
            )),
            Err(_) => Err(invalid(
                what,
                format!("{:#x} is not a node of a live graph", node.0),
            )),
        }
    }

    /// The dependencies of `graph`'s nodes, to edit (refused while the graph is being captured into).
    fn editable(&self, what: &'static str, graph: Graph) -> Result<Vec<Vec<u32>>> {
        let g = self.graphs.graphs.get(graph.0)?;
        if g.capture.is_some() {
            return Err(being_captured(what));
        }
        Ok(g.nodes.iter().map(|n| n.deps.clone()).collect())
    }

    fn set_deps(&mut self, graph: Graph, deps: Vec<Vec<u32>>) -> Result<()> {
        let g = self.graphs.graphs.get_mut(graph.0)?;
        for (n, d) in g.nodes.iter_mut().zip(deps) {
            n.deps = d;
        }
        Ok(())
    }
}

/// A node of a graph, with what it replays replaced (`params.rs`).
pub(crate) fn with_op(n: &Node, op: NodeOp, given: Option<Given>) -> Node {
    Node {
        handle: n.handle,
        deps: n.deps.clone(),
        op,
        site: n.site,
        stream: n.stream,
        given,
    }
}
