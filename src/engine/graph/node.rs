//! A graph's nodes and the per-process registries of graphs, executable graphs and node handles.
//!
//! A node keeps what it replays as a recipe ([`NodeOp`]) rather than an operation: addresses rather than
//! resolved regions (so that a launch after a `free` finds the memory gone, as a pointer baked into a graph
//! would), a shared body rather than a one-shot closure (a graph runs its nodes at every launch).

use std::borrow::Cow;
use std::panic::Location;

use super::NodeType;
use super::capture::Captures;
use crate::engine::core::error::{ObjectKind, Result};
use crate::engine::core::handle::{
    EventId, GraphNode, ProcessId, StreamId, TAG_GRAPH, TAG_GRAPH_EXEC, TAG_GRAPH_NODE,
    next_ordinal,
};
use crate::engine::core::pointers::{DevicePtr, HostPtr};
use crate::engine::core::registry::Registry;
use crate::engine::core::time::CopyPath;
use crate::engine::kernels::kernel::{Access, SharedBody, SharedHostFn};
use crate::engine::memory::rows::{Extent, Pitch};

/// One end of a captured copy or memset, as an address (resolved again at every launch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endpoint {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory.
    Pinned(HostPtr),
    /// Pageable host memory at this address: read at the launch (a source), written when the node runs (a
    /// destination). Only the C API makes these (its caller vouches for the memory, as the vendor's contract
    /// says); the Rust API refuses a pageable copy in a capture.
    Pageable(usize),
}

/// What a node replays.
#[derive(Clone)]
pub(crate) enum NodeOp {
    /// A kernel: its cost, declared accesses (checked and resolved at every launch) and body.
    Kernel {
        name: Cow<'static, str>,
        cost_ns: u64,
        accesses: Vec<Access>,
        body: Option<SharedBody>,
    },
    /// A copy of `bytes` bytes over `path`.
    Copy {
        what: &'static str,
        dst: Endpoint,
        src: Endpoint,
        bytes: u64,
        path: CopyPath,
    },
    /// A memset.
    Memset {
        what: &'static str,
        dst: Endpoint,
        value: u8,
        bytes: u64,
        path: CopyPath,
    },
    /// A memset node made by a building call (`build.rs`): rows of elements of 1, 2 or 4 bytes, on the device.
    MemsetShaped { dst: DevicePtr, shape: MemsetShape },
    /// A host function.
    Host(SharedHostFn),
    /// A record of an event (`cudaEventRecordExternal`): each launch records it.
    EventRecord { event: u64, id: EventId },
    /// A wait for an event (`cudaEventWaitExternal`): each launch waits for its record current at the launch.
    EventWait { event: u64, id: EventId },
    /// Nothing.
    Empty,
    /// A child graph: a copy of another graph's nodes as they were added (their own child graphs as child
    /// nodes), made when the node was added; instantiation inlines them in place of the node.
    Child(std::sync::Arc<[Node]>),
    /// A pitched copy or memset: rows apart (`rows.rs`).
    Rows(RowsNode),
    /// A graph allocation (`cudaGraphAddMemAllocNode`, `cudaMallocAsync` in a capture) at `base`, whose address
    /// is fixed when the node is made (`memory.rs`).
    MemAlloc { base: u64, bytes: u64 },
    /// A free of the graph allocation at `base` (`cudaGraphAddMemFreeNode`, `cudaFreeAsync` in a capture).
    MemFree { base: u64 },
}

/// The shape of a memset node (`cudaMemsetParams`): `height` rows of `width` elements of `element_size` bytes
/// (1, 2 or 4), each set to the low `element_size` bytes of `value`, the rows `pitch` bytes apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemsetShape {
    /// Bytes from the start of one row to the next (unused with one row).
    pub pitch: u64,
    /// The value, of which the low `element_size` bytes are written (little-endian).
    pub value: u32,
    /// 1, 2 or 4.
    pub element_size: u32,
    /// Elements per row.
    pub width: u64,
    /// Rows.
    pub height: u64,
}

impl MemsetShape {
    /// The bytes of one element.
    pub fn element(&self) -> Vec<u8> {
        self.value.to_le_bytes()[..self.element_size as usize].to_vec()
    }

    /// The bytes of one row.
    pub fn row_bytes(&self) -> u64 {
        self.width * u64::from(self.element_size)
    }

    /// Whether it is one run of one repeated byte (a plain memset).
    pub fn is_plain(&self) -> bool {
        let e = self.element();
        e.iter().all(|&b| b == e[0]) && (self.height == 1 || self.pitch == self.row_bytes())
    }

    /// The span of memory it touches, first row to the end of the last.
    pub fn span(&self) -> u64 {
        if self.height == 0 {
            return 0;
        }
        (self.height - 1) * self.pitch + self.row_bytes()
    }
}

impl NodeOp {
    pub fn node_type(&self) -> NodeType {
        match self {
            NodeOp::Kernel { .. } => NodeType::Kernel,
            NodeOp::Copy { .. } => NodeType::Memcpy,
            NodeOp::Memset { .. } | NodeOp::MemsetShaped { .. } => NodeType::Memset,
            NodeOp::Host(_) => NodeType::Host,
            NodeOp::EventRecord { .. } => NodeType::EventRecord,
            NodeOp::EventWait { .. } => NodeType::EventWait,
            NodeOp::Empty => NodeType::Empty,
            NodeOp::Child(_) => NodeType::Graph,
            NodeOp::Rows(r) if r.is_copy() => NodeType::Memcpy,
            NodeOp::Rows(_) => NodeType::Memset,
            NodeOp::MemAlloc { .. } => NodeType::MemAlloc,
            NodeOp::MemFree { .. } => NodeType::MemFree,
        }
    }

    /// The node's label in the trace, race reports and the DOT output.
    pub fn label(&self) -> Cow<'static, str> {
        match self {
            NodeOp::Kernel { name, .. } => name.clone(),
            NodeOp::Copy { what, .. } | NodeOp::Memset { what, .. } => Cow::Borrowed(what),
            NodeOp::MemsetShaped { .. } => Cow::Borrowed("memset node"),
            NodeOp::Host(_) => Cow::Borrowed("host function"),
            NodeOp::EventRecord { id, .. } => Cow::Owned(format!("record event {id}")),
            NodeOp::EventWait { id, .. } => Cow::Owned(format!("wait event {id}")),
            NodeOp::Empty => Cow::Borrowed("empty"),
            NodeOp::Child(_) => Cow::Borrowed("child graph"),
            NodeOp::Rows(r) if r.is_copy() => Cow::Borrowed("memcpy node"),
            NodeOp::Rows(_) => Cow::Borrowed("memset node"),
            NodeOp::MemAlloc { .. } => Cow::Borrowed("graph allocation"),
            NodeOp::MemFree { .. } => Cow::Borrowed("graph free"),
        }
    }
}

/// One node: what it replays and the nodes it depends on (all earlier in the graph's order, so the order is
/// topological).
#[derive(Clone)]
pub(crate) struct Node {
    pub handle: GraphNode,
    pub deps: Vec<u32>,
    pub op: NodeOp,
    /// The call that captured it (race reports name it).
    pub site: &'static Location<'static>,
    /// The stream it was captured from (`None`: added by a building call).
    pub stream: Option<StreamId>,
    /// What a facade's building call was given, which its getters hand back (the engine keeps it untouched).
    pub given: Option<Given>,
}

/// A facade's description of a node, kept with it (see [`Node::given`]).
pub(crate) type Given = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// A graph (`cudaGraph_t`).
pub(crate) struct GraphEntry {
    /// Its creation ordinal in the process (the DOT output's name), from 1.
    pub ordinal: u32,
    /// The device of its nodes (the capture's origin stream's).
    pub device: u32,
    /// The context it was captured in (ACL).
    pub ctx: Option<u64>,
    pub nodes: Vec<Node>,
    /// The capture building it, until that capture ends.
    pub capture: Option<u64>,
}

/// A node handle's target.
pub(crate) struct NodeRef {
    pub graph: u64,
    pub index: u32,
}

/// A process's graphs, executable graphs, node handles and capture sequences (a field of `ProcState`).
pub(crate) struct GraphState {
    pub graphs: Registry<GraphEntry>,
    pub execs: Registry<super::exec_graph::ExecEntry>,
    pub nodes: Registry<NodeRef>,
    pub captures: Captures,
    /// Embedded graphs of child graph nodes, and clones' nodes (`child.rs`).
    pub lineage: super::child::Lineage,
    /// Graph allocations and the graphs' allocator of each device (`memory.rs`).
    pub mem: super::memory::GraphMem,
    next_graph: u32,
    next_exec: u32,
}

impl GraphState {
    pub fn new(machine_tag: u64, process: u64) -> GraphState {
        GraphState {
            graphs: Registry::new(ObjectKind::Graph, TAG_GRAPH, machine_tag, process),
            execs: Registry::new(ObjectKind::GraphExec, TAG_GRAPH_EXEC, machine_tag, process),
            nodes: Registry::new(ObjectKind::GraphNode, TAG_GRAPH_NODE, machine_tag, process),
            captures: Captures::default(),
            lineage: Default::default(),
            mem: super::memory::GraphMem::default(),
            next_graph: 1,
            next_exec: 1,
        }
    }

    /// A new empty graph of `device` (and context `ctx`); its handle.
    pub fn new_graph(&mut self, process: ProcessId, device: u32, ctx: Option<u64>) -> Result<u64> {
        self.graphs.has_room()?;
        let ordinal = next_ordinal(&mut self.next_graph, ObjectKind::Graph, process)?;
        self.graphs.insert(GraphEntry {
            ordinal,
            device,
            ctx,
            nodes: Vec::new(),
            capture: None,
        })
    }

    /// The next executable graph's ordinal.
    pub fn next_exec_ordinal(&mut self, process: ProcessId) -> Result<u32> {
        next_ordinal(&mut self.next_exec, ObjectKind::GraphExec, process)
    }

    /// Appends a node to graph `g` (whose nodes `deps` index); its handle.
    pub fn push_node(
        &mut self,
        g: u64,
        deps: Vec<u32>,
        op: NodeOp,
        site: &'static Location<'static>,
        stream: Option<StreamId>,
    ) -> Result<GraphNode> {
        let index = self.graphs.get(g)?.nodes.len() as u32;
        let handle = GraphNode(self.nodes.insert(NodeRef { graph: g, index })?);
        self.graphs.get_mut(g)?.nodes.push(Node {
            handle,
            deps,
            op,
            site,
            stream,
            given: None,
        });
        Ok(handle)
    }

    /// Removes graph `g` and its node handles; the graph allocations of its allocation nodes are released if
    /// nothing else holds them.
    pub fn remove_graph(
        &mut self,
        g: u64,
        memory: &crate::engine::memory::Memory,
    ) -> Result<GraphEntry> {
        let entry = self.graphs.remove(g)?;
        for n in &entry.nodes {
            let _ = self.nodes.remove(n.handle.0);
        }
        self.forget_lineage(g, &entry.nodes, memory);
        let allocs = super::memory::allocs_of(&entry.nodes);
        if !allocs.is_empty() {
            self.mem.graph_gone(memory, g, &allocs);
        }
        Ok(entry)
    }

    /// Removes the nodes of graph `g` after its first `keep` (and their handles, and the graph allocations of
    /// the allocation nodes among them).
    pub fn truncate_graph(
        &mut self,
        g: u64,
        keep: u32,
        memory: &crate::engine::memory::Memory,
    ) -> Result<()> {
        let gone = self.graphs.get_mut(g)?.nodes.split_off(keep as usize);
        for n in &gone {
            let _ = self.nodes.remove(n.handle.0);
            self.drop_embedded(n.handle, memory);
        }
        let allocs = super::memory::allocs_of(&gone);
        if !allocs.is_empty() {
            self.mem.graph_gone(memory, g, &allocs);
        }
        Ok(())
    }

    /// A reset of `device`: its captures end, its graphs and executable graphs are freed (their handles say so).
    pub fn reset_device(&mut self, device: u32, memory: &crate::engine::memory::Memory) {
        self.mem.reset_device(memory, device);
        for cid in self.captures.on_device(device) {
            self.captures.terminate(cid);
        }
        for h in self.graphs.handles_where(|g| g.device == device) {
            if let Ok(g) = self.graphs.remove_by_reset(h, device) {
                for n in &g.nodes {
                    let _ = self.nodes.remove_by_reset(n.handle.0, device);
                }
                self.forget_lineage(h, &g.nodes, memory);
            }
        }
        for h in self.execs.handles_where(|x| x.device == device) {
            let _ = self.execs.remove_by_reset(h, device);
        }
    }

    /// The graph and index of node `n`.
    pub fn node(&self, n: GraphNode) -> Result<(u64, u32)> {
        let r = self.nodes.get(n.0)?;
        Ok((r.graph, r.index))
    }
}

/// What a pitched node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowsNode {
    /// `extent`'s rows from `src` (laid out as `sp`) to `dst` (as `dp`), over `path`.
    Copy {
        dst: Endpoint,
        dp: Pitch,
        src: Endpoint,
        sp: Pitch,
        extent: Extent,
        path: CopyPath,
    },
    /// `extent`'s rows of device memory at `dst` (laid out as `p`) set to `value`.
    Fill {
        dst: DevicePtr,
        p: Pitch,
        value: u8,
        extent: Extent,
    },
}

impl RowsNode {
    /// The bytes it moves or sets (the padding between rows is not).
    pub fn bytes(&self) -> u64 {
        let e = match self {
            RowsNode::Copy { extent, .. } | RowsNode::Fill { extent, .. } => extent,
        };
        e.width * e.height * e.depth
    }

    /// Whether it is a copy (else a memset).
    pub fn is_copy(&self) -> bool {
        matches!(self, RowsNode::Copy { .. })
    }
}
