//! Stream capture and graphs: a stream in capture mode turns the operations enqueued on it into the nodes of a
//! graph instead of running them; an executable graph made from it replays those nodes, on every launch, as
//! ordinary operations (`docs/semantics/capture-and-graphs.md` has every rule and its source).
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the public types: [`CaptureMode`], [`CaptureStatus`], [`CaptureInfo`], [`NodeType`] |
//! | `node.rs` | a graph's nodes: what each one replays (`NodeOp`), the graph and executable-graph registries |
//! | `capture.rs` | capture sequences: which streams capture into which graph, their dependency sets, the rules that end or invalidate a capture |
//! | `gate.rs` | the capture rules other calls ask: whether an enqueue is captured, synchronize / query / unsafe calls during a capture |
//! | `events.rs` | events in a capture: captured records, forks and joins, the External record and wait nodes |
//! | `api.rs` | the capture calls of [`Process`](crate::Process): begin, end, status, dependencies, thread modes |
//! | `graph_api.rs` | the graph calls of [`Process`](crate::Process): instantiate, destroy, clone, inspect, DOT |
//! | `build.rs` | building a graph by hand: create, add nodes of each type, add and remove edges, destroy nodes |
//! | `params.rs` | a node's parameters: get and set them on a graph, set them on an executable graph, enable / disable |
//! | `child.rs` | child graph nodes' embedded graphs, changing a child graph node of an executable graph, the nodes of a clone |
//! | `memory.rs` | graph memory nodes: graph allocations (addresses fixed when the node is made, memory mapped at a launch), their frees, the graphs' allocator of each device (trim, attributes) |
//! | `update.rs` | updating an executable graph from a graph of the same topology (`cudaGraphExecUpdate`), upload |
//! | `rows.rs` | pitched copy and memset nodes (rows apart): captured 2-D / 3-D copies, pitched memcpy nodes |
//! | `replay.rs` | a launch: the graph's nodes as operations on the executable graph's lanes, with virtual times from the DAG |
//!
//! **Replay.** An executable graph owns *lanes*: streams of its own (the trace's graph tracks, kind
//! [`StreamKind::Graph`](crate::StreamKind::Graph)) that a program never sees. At instantiation every node gets
//! a lane whose previous node is one of its direct dependencies, so a lane orders nothing the DAG does not. A
//! launch on stream `S` enqueues a marker on `S` (after `S`'s earlier work, with the legacy stream's edges), then
//! each node on its lane with its DAG dependencies (the roots: the marker and the previous launch's last
//! nodes), then a join on `S` after the graph's sinks. Workers, the one scheduling function (a node starts as
//! soon as its dependencies allow), the trace and race detection see ordinary operations.
//!
//! Everything here runs under the process's state lock (see `process/state.rs`); nothing blocks under it.

pub(crate) mod api;
pub(crate) mod build;
pub(crate) mod capture;
pub(crate) mod child;
pub(crate) mod events;
pub(crate) mod exec_graph;
pub(crate) mod gate;
pub(crate) mod graph_api;
pub(crate) mod memory;
pub(crate) mod node;
pub(crate) mod params;
pub(crate) mod replay;
pub(crate) mod rows;
pub(crate) mod update;

pub use crate::engine::core::error::{UpdateOutcome, UpdateResult};
pub use build::{NodeMem, NodeSpec};
pub use node::MemsetShape;

use std::sync::Arc;

use crate::engine::core::handle::{Graph, GraphNode};

/// How a capture sequence, and a thread, interact with potentially unsafe calls made while a capture is in
/// progress (`cudaStreamCaptureMode`, `aclmdlRICaptureMode`; the values are the vendors').
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum CaptureMode {
    /// The default: a thread with a capture not begun relaxed, or any thread while another thread has a
    /// global capture, may not make potentially unsafe calls.
    #[default]
    Global,
    /// Only the thread's own captures (not begun relaxed) prohibit its potentially unsafe calls.
    ThreadLocal,
    /// Potentially unsafe calls are allowed; calls that necessarily conflict with a capture are still refused.
    Relaxed,
}

impl CaptureMode {
    /// The mode with the vendors' number (0 global, 1 thread-local, 2 relaxed).
    pub fn from_raw(raw: u32) -> Option<CaptureMode> {
        match raw {
            0 => Some(CaptureMode::Global),
            1 => Some(CaptureMode::ThreadLocal),
            2 => Some(CaptureMode::Relaxed),
            _ => None,
        }
    }

    /// The vendors' number.
    pub fn to_raw(self) -> u32 {
        match self {
            CaptureMode::Global => 0,
            CaptureMode::ThreadLocal => 1,
            CaptureMode::Relaxed => 2,
        }
    }
}

/// A stream's capture status (`cudaStreamCaptureStatus`, `aclmdlRICaptureStatus`; the values are the
/// vendors').
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureStatus {
    /// Not capturing.
    None,
    /// Capturing.
    Active,
    /// Part of a capture sequence that an error invalidated and that has not been ended yet.
    Invalidated,
}

impl CaptureStatus {
    /// The vendors' number (0 none, 1 active, 2 invalidated).
    pub fn to_raw(self) -> u32 {
        match self {
            CaptureStatus::None => 0,
            CaptureStatus::Active => 1,
            CaptureStatus::Invalidated => 2,
        }
    }
}

/// What [`Process::capture_info`](crate::Process::capture_info) reports about a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureInfo {
    /// The stream's status.
    pub status: CaptureStatus,
    /// The capture sequence's id, unique in the process (0 when the stream is not capturing).
    pub id: u64,
    /// The graph being captured into.
    pub graph: Option<Graph>,
    /// The nodes the stream's next captured node will depend on. The engine keeps this array until the next
    /// capture call about the stream or the end of the capture (the C API hands out a pointer into it).
    pub dependencies: Arc<[GraphNode]>,
}

/// What a graph node does (`cudaGraphNodeType`; [`NodeType::to_raw`] gives the vendor's value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeType {
    /// A kernel.
    Kernel,
    /// A copy.
    Memcpy,
    /// A memset.
    Memset,
    /// A host function.
    Host,
    /// A child graph (`cudaGraphAddChildGraphNode`).
    Graph,
    /// Nothing (a node that only orders others).
    Empty,
    /// A wait for an event recorded outside the graph (`cudaEventWaitExternal`).
    EventWait,
    /// A record of an event for work outside the graph (`cudaEventRecordExternal`).
    EventRecord,
    /// A graph allocation (`cudaGraphAddMemAllocNode`).
    MemAlloc,
    /// A free of a graph allocation (`cudaGraphAddMemFreeNode`).
    MemFree,
}

impl NodeType {
    /// `cudaGraphNodeType`: kernel 0, memcpy 1, memset 2, host 3, graph 4, empty 5, wait event 6, event record 7,
    /// memory allocation 10, memory free 11.
    pub fn to_raw(self) -> u32 {
        match self {
            NodeType::Kernel => 0,
            NodeType::Memcpy => 1,
            NodeType::Memset => 2,
            NodeType::Host => 3,
            NodeType::Graph => 4,
            NodeType::Empty => 5,
            NodeType::EventWait => 6,
            NodeType::EventRecord => 7,
            NodeType::MemAlloc => 10,
            NodeType::MemFree => 11,
        }
    }

    /// The type with the vendor's number, if it is one the simulator makes.
    pub fn from_raw(raw: u32) -> Option<NodeType> {
        [
            NodeType::Kernel,
            NodeType::Memcpy,
            NodeType::Memset,
            NodeType::Host,
            NodeType::Graph,
            NodeType::Empty,
            NodeType::EventWait,
            NodeType::EventRecord,
            NodeType::MemAlloc,
            NodeType::MemFree,
        ]
        .into_iter()
        .find(|t| t.to_raw() == raw)
    }

    /// The upper-case name the DOT output uses (`KERNEL`, `MEMCPY`, …).
    pub fn dot_name(self) -> &'static str {
        match self {
            NodeType::Kernel => "KERNEL",
            NodeType::Memcpy => "MEMCPY",
            NodeType::Memset => "MEMSET",
            NodeType::Host => "HOST",
            NodeType::Graph => "GRAPH",
            NodeType::Empty => "EMPTY",
            NodeType::EventWait => "EVENT_WAIT",
            NodeType::EventRecord => "EVENT_RECORD",
            NodeType::MemAlloc => "MEM_ALLOC",
            NodeType::MemFree => "MEM_FREE",
        }
    }
}
