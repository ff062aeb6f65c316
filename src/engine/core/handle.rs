//! Handles: small `Copy` ids with a generation, looked up in per-process registries.
//!
//! A handle packs, from the most significant bit, `[kind 4 | machine 16 | process 12 | index 22 | epoch 10]`
//! (bits) into a `u64`, so the C ABI can pass it as an opaque pointer, and a destroyed, forged, foreign or
//! wrong-kind handle is a typed error, never a crash. `kind` is the object kind's tag (never 0), `machine` the
//! machine's id modulo 2^16, `process` the process id (up to 4,095), `index` the registry slot (up to 2^22 live
//! objects of a kind per process) and `epoch` the slot's reuse count (a slot is retired after 1,024 uses). The
//! values `0`, `1` and `2` are never produced (they are the vendors' special stream handles).

use crate::engine::core::error::{ObjectKind, ObjectLimit, Result, SimError};

/// A simulated host process (its ordinal on the machine, starting at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcessId(pub u32);

impl std::fmt::Display for ProcessId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which stream of a process an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StreamKind {
    /// The device's legacy default stream (CUDA `0` / `cudaStreamLegacy`).
    Legacy,
    /// A host thread's per-thread default stream (`cudaStreamPerThread`); the number is the host thread's
    /// ordinal in the process (in the order threads first called the simulator).
    PerThread(u32),
    /// A created stream; the number is its creation ordinal in the process, starting at 1.
    Created(u32),
    /// The default stream of a context (ACL); the number is the context's ordinal in the process.
    ContextDefault(u32),
    /// A lane of an executable graph (see `graph/`): the stream its launches replay some of the graph's nodes
    /// on. Not a handle a program holds; the trace shows it as the graph's track.
    Graph {
        /// The executable graph's creation ordinal in the process, starting at 1.
        exec: u32,
        /// The lane's number in the executable graph, starting at 0.
        lane: u32,
    },
}

/// A stream's identity for messages and traces: process, device and which stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId {
    /// The owning process.
    pub process: ProcessId,
    /// The stream's device.
    pub device: u32,
    /// Which stream.
    pub kind: StreamKind,
}

impl std::fmt::Display for StreamId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            StreamKind::Legacy => write!(f, "default stream of device {}", self.device),
            StreamKind::PerThread(t) => {
                write!(
                    f,
                    "per-thread stream of thread {t} on device {}",
                    self.device
                )
            }
            StreamKind::Created(n) => write!(f, "stream {n}"),
            StreamKind::ContextDefault(c) => {
                write!(f, "default stream of context {c} (device {})", self.device)
            }
            StreamKind::Graph { exec, lane } => write!(f, "graph exec {exec} lane {lane}"),
        }
    }
}

/// An event's identity for messages and traces: process and creation ordinal (starting at 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId {
    /// The owning process.
    pub process: ProcessId,
    /// Creation ordinal in the process, starting at 1.
    pub ordinal: u32,
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.ordinal)
    }
}

// A raw handle, from the top: the object kind, the machine (its id modulo 2^16: handles of two machines 65,536
// apart could be mistaken for each other), the process, the slot, and the slot's epoch (a slot whose epochs
// run out is retired, never reused: 1,024 reuses each).
pub(crate) const KIND_BITS: u32 = 4;
pub(crate) const MACHINE_BITS: u32 = 16;
pub(crate) const PROCESS_BITS: u32 = 12;
pub(crate) const INDEX_BITS: u32 = 22;
pub(crate) const EPOCH_BITS: u32 = 10;
const _: () = assert!(KIND_BITS + MACHINE_BITS + PROCESS_BITS + INDEX_BITS + EPOCH_BITS == 64);

/// The most process ids a handle can encode (ids 0 to 4,095).
pub(crate) const PROCESS_IDS: u32 = 1 << PROCESS_BITS;

/// The bits of machine `id` its handles carry.
pub(crate) fn machine_tag(id: u64) -> u64 {
    id & mask(MACHINE_BITS)
}

pub(crate) const fn mask(bits: u32) -> u64 {
    (1u64 << bits) - 1
}

/// The decoded fields of a raw handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawParts {
    pub kind: u64,
    pub machine: u64,
    pub process: u64,
    pub index: u64,
    pub epoch: u64,
}

pub(crate) const TAG_STREAM: u64 = 0xA;
pub(crate) const TAG_EVENT: u64 = 0xE;
pub(crate) const TAG_CONTEXT: u64 = 0xC;
pub(crate) const TAG_NOTIFY: u64 = 0x7;
pub(crate) const TAG_GRAPH: u64 = 0x6;
pub(crate) const TAG_GRAPH_EXEC: u64 = 0x5;
pub(crate) const TAG_GRAPH_NODE: u64 = 0x4;
pub(crate) const TAG_POOL: u64 = 0x3;

pub(crate) fn encode(p: RawParts) -> u64 {
    (p.kind << (64 - KIND_BITS))
        | ((p.machine & mask(MACHINE_BITS)) << (INDEX_BITS + EPOCH_BITS + PROCESS_BITS))
        | ((p.process & mask(PROCESS_BITS)) << (INDEX_BITS + EPOCH_BITS))
        | ((p.index & mask(INDEX_BITS)) << EPOCH_BITS)
        | (p.epoch & mask(EPOCH_BITS))
}

pub(crate) fn decode(raw: u64) -> RawParts {
    RawParts {
        kind: raw >> (64 - KIND_BITS),
        machine: (raw >> (INDEX_BITS + EPOCH_BITS + PROCESS_BITS)) & mask(MACHINE_BITS),
        process: (raw >> (INDEX_BITS + EPOCH_BITS)) & mask(PROCESS_BITS),
        index: (raw >> EPOCH_BITS) & mask(INDEX_BITS),
        epoch: raw & mask(EPOCH_BITS),
    }
}

/// A stream handle. `Copy`; valid until the stream is destroyed. [`Stream::DEFAULT`] names the default stream
/// of the current device (CUDA's NULL stream), [`Stream::LEGACY`] and [`Stream::PER_THREAD`] the vendor's special
/// handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stream(pub(crate) u64);

impl Stream {
    /// The default stream (CUDA: the legacy default stream of the current device; the C value NULL).
    pub const DEFAULT: Stream = Stream(0);
    /// `cudaStreamLegacy` (`(cudaStream_t)0x1`): the legacy default stream of the current device.
    pub const LEGACY: Stream = Stream(1);
    /// `cudaStreamPerThread` (`(cudaStream_t)0x2`): the calling host thread's per-thread default stream.
    pub const PER_THREAD: Stream = Stream(2);

    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Stream {
        Stream(raw)
    }
}

/// An event handle. `Copy`; valid until the event is destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(pub(crate) u64);

impl Event {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Event {
        Event(raw)
    }
}

/// A context handle (ACL `aclrtContext`). `Copy`; valid until the context is destroyed or its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Context(pub(crate) u64);

impl Context {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Context {
        Context(raw)
    }
}

/// A notify handle (ACL `aclrtNotify`). `Copy`; valid until the notify is destroyed or its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Notify(pub(crate) u64);

impl Notify {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Notify {
        Notify(raw)
    }
}

/// A graph handle (CUDA `cudaGraph_t`): the DAG a stream capture built. `Copy`; valid until the graph is
/// destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Graph(pub(crate) u64);

impl Graph {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> Graph {
        Graph(raw)
    }
}

/// An executable graph handle (CUDA `cudaGraphExec_t`, ACL `aclmdlRI`). `Copy`; valid until destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GraphExec(pub(crate) u64);

impl GraphExec {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> GraphExec {
        GraphExec(raw)
    }
}

/// A node of a graph (CUDA `cudaGraphNode_t`). `Copy`; valid until its graph is destroyed. The C ABI passes
/// arrays of them as arrays of opaque pointers, so it is exactly one `u64` wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct GraphNode(pub(crate) u64);

impl GraphNode {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> GraphNode {
        GraphNode(raw)
    }
}

/// A memory pool handle (`cudaMemPool_t`, ACL `aclrtMemPool`). `Copy`; valid until the pool is destroyed or
/// its device reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemPool(pub(crate) u64);

impl MemPool {
    /// The raw value (what the C ABI passes as the opaque pointer).
    pub fn to_raw(self) -> u64 {
        self.0
    }

    /// A handle from a raw value. Any value is accepted here; a bad one is rejected when used.
    pub fn from_raw(raw: u64) -> MemPool {
        MemPool(raw)
    }
}

/// A notify's identity for messages and traces: process and creation ordinal (starting at 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NotifyId {
    /// The owning process.
    pub process: ProcessId,
    /// Creation ordinal in the process, starting at 1.
    pub ordinal: u32,
}

impl std::fmt::Display for NotifyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.ordinal)
    }
}

/// Hands out the next creation ordinal from `counter` (ordinals start at 1: `StreamKind::Created`,
/// [`EventId::ordinal`], context ordinals); [`SimError::TooManyObjects`] once every `u32` ordinal has been
/// used, rather than wrapping to a number that names an earlier object.
pub(crate) fn next_ordinal(counter: &mut u32, kind: ObjectKind, process: ProcessId) -> Result<u32> {
    let n = *counter;
    if n == u32::MAX {
        return Err(SimError::TooManyObjects {
            kind,
            process,
            limit: ObjectLimit::Ordinals {
                max: u64::from(u32::MAX - 1),
            },
        });
    }
    *counter = n + 1;
    Ok(n)
}

/// A number for a stream, unique within a machine, from its identity alone (for the seed's choices).
pub(crate) fn stream_key(stream: StreamId) -> u64 {
    let kind = match stream.kind {
        StreamKind::Legacy => 0,
        StreamKind::PerThread(t) => 1 + (u64::from(t) << 4),
        StreamKind::Created(n) => 2 + (u64::from(n) << 4),
        StreamKind::ContextDefault(c) => 3 + (u64::from(c) << 4),
        StreamKind::Graph { exec, lane } => 4 + (u64::from(exec) << 4) + (u64::from(lane) << 36),
    };
    (u64::from(stream.process.0) << 48) ^ (u64::from(stream.device) << 40) ^ (kind << 20)
}
