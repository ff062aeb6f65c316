//! The per-machine trace: every executed operation (process, device, stream, kind, label, virtual start and
//! end), every blocking host call, every failed call, and the names given to streams and events. (The races
//! found are [`crate::Machine::race_reports`]; the exporters take them alongside.) Read it with [`crate::Machine::trace`]; the order is deterministic (by
//! virtual start, then stream, then position in the stream), so two runs of the same program give equal traces.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
use crate::engine::core::handle::{EventId, NotifyId, ProcessId, StreamId};
use crate::engine::core::labels::Label;
use crate::engine::core::time::{CopyPath, VirtualTime};
use crate::engine::observe::trace_store::{KeptCount, TraceStore};
pub use crate::engine::observe::trace_store::{TraceRecord, TraceWindow};

/// What an operation was.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OpKind {
    /// A kernel.
    Kernel,
    /// A copy of `bytes` bytes over `path`.
    Memcpy {
        /// The path.
        path: CopyPath,
        /// How many bytes.
        bytes: u64,
    },
    /// A memset of `bytes` bytes.
    Memset {
        /// How many bytes.
        bytes: u64,
    },
    /// An event record.
    Record {
        /// The event.
        event: EventId,
    },
    /// A stream wait on an event's record: operation `seq` of stream `on`.
    Wait {
        /// The event waited on.
        event: EventId,
        /// The stream that recorded it.
        on: StreamId,
        /// The record's position in that stream (1-based).
        seq: u64,
    },
    /// A host function.
    HostFunction,
    /// A wait for the next record of an event (ACL `ACL_EVENT_SYNC` on a never-recorded event); the record it
    /// ended up waiting for is not named.
    DeferredWait {
        /// The event.
        event: EventId,
    },
    /// An event reset (ACL).
    Reset {
        /// The event.
        event: EventId,
    },
    /// A notify record (ACL `aclrtRecordNotify`).
    NotifyRecord {
        /// The notify.
        notify: NotifyId,
    },
    /// A wait for a notify's record, which it then resets (ACL `aclrtWaitAndResetNotify`).
    NotifyWait {
        /// The notify.
        notify: NotifyId,
    },
    /// A write of a 64-bit value to device memory (ACL `aclrtValueWrite`).
    ValueWrite {
        /// The value written.
        value: u64,
    },
    /// A wait until a 64-bit word of device memory satisfies a condition (ACL `aclrtValueWait`).
    ValueWait {
        /// The value compared with.
        value: u64,
    },
    /// A host callback run by a subscribed thread (ACL `aclrtLaunchCallback`).
    Callback {
        /// Whether the stream's later work waits for it (`ACL_CALLBACK_BLOCK`).
        blocking: bool,
    },
    /// The start of an executable graph's launch on the launch stream (its nodes run on the graph's lanes after
    /// it).
    GraphLaunch {
        /// The executable graph's ordinal ([`crate::StreamKind::Graph`]'s `exec`).
        exec: u32,
    },
    /// The end of an executable graph's launch on the launch stream: after all its nodes.
    GraphEnd {
        /// The executable graph's ordinal.
        exec: u32,
    },
    /// A stream-ordered allocation of `bytes` bytes (`cudaMallocAsync`).
    MemAlloc {
        /// How many bytes.
        bytes: u64,
    },
    /// A stream-ordered free of an allocation of `bytes` bytes (`cudaFreeAsync`).
    MemFree {
        /// How many bytes.
        bytes: u64,
    },
}

impl OpKind {
    /// A short name: `kernel`, `memcpy`, `memset`, `record`, `wait`, `host-fn`, `reset`, `notify-record`,
    /// `notify-wait`, `value-write`, `value-wait`, `callback`, `graph-launch`, `graph-end`, `alloc`, `free`.
    pub fn name(&self) -> &'static str {
        match self {
            OpKind::Kernel => "kernel",
            OpKind::Memcpy { .. } => "memcpy",
            OpKind::Memset { .. } => "memset",
            OpKind::Record { .. } => "record",
            OpKind::Wait { .. } => "wait",
            OpKind::HostFunction => "host-fn",
            OpKind::DeferredWait { .. } => "wait",
            OpKind::Reset { .. } => "reset",
            OpKind::NotifyRecord { .. } => "notify-record",
            OpKind::NotifyWait { .. } => "notify-wait",
            OpKind::ValueWrite { .. } => "value-write",
            OpKind::ValueWait { .. } => "value-wait",
            OpKind::Callback { .. } => "callback",
            OpKind::GraphLaunch { .. } => "graph-launch",
            OpKind::GraphEnd { .. } => "graph-end",
            OpKind::MemAlloc { .. } => "alloc",
            OpKind::MemFree { .. } => "free",
        }
    }
}

/// One executed operation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TraceEvent {
    /// The stream (and so process and device) it ran on.
    pub stream: StreamId,
    /// Its position in the stream, starting at 1.
    pub seq: u64,
    /// What it was.
    pub kind: OpKind,
    /// Its label (kernel name, or a description).
    pub label: Cow<'static, str>,
    /// Virtual start.
    pub start: VirtualTime,
    /// Virtual end.
    pub end: VirtualTime,
}

/// One blocking host call (a synchronize or a synchronous copy) on a host thread.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostEvent {
    /// The process.
    pub process: ProcessId,
    /// The host thread's ordinal in the process (in the order threads first called the simulator).
    pub thread: u32,
    /// The call, e.g. `stream_synchronize(stream 1)`.
    pub label: String,
    /// When the call was made (virtual host clock).
    pub start: VirtualTime,
    /// When it returned.
    pub end: VirtualTime,
}

/// A runtime call that failed, on the host thread that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedCall {
    /// The process.
    pub process: ProcessId,
    /// The host thread's ordinal in the process.
    pub thread: u32,
    /// The call, as the simulator names it (`record_event`, `launch`, `stream_synchronize`); a facade's code
    /// for the error is the facade's mapping of `error`.
    pub call: &'static str,
    /// When it was made (the thread's virtual host clock, after the call overhead).
    pub at: VirtualTime,
    /// Why it failed.
    pub error: SimError,
}

/// The names a program gave its streams and events ([`crate::Process::name_stream`],
/// [`crate::Process::name_event`]) while tracing was on, for the trace's exporters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceNames {
    /// Streams' names.
    pub streams: BTreeMap<StreamId, Arc<str>>,
    /// Events' names.
    pub events: BTreeMap<EventId, Arc<str>>,
}

impl TraceNames {
    /// A stream's name, if it was given one.
    pub fn stream(&self, id: StreamId) -> Option<&str> {
        self.streams.get(&id).map(|n| &**n)
    }

    /// An event's name, if it was given one.
    pub fn event(&self, id: EventId) -> Option<&str> {
        self.events.get(&id).map(|n| &**n)
    }
}

/// A machine's trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// Executed operations, by virtual start, then process, device, stream and position.
    pub ops: Vec<TraceEvent>,
    /// Blocking host calls, by virtual start, then process and thread.
    pub host: Vec<HostEvent>,
    /// The names of the streams and events.
    pub names: TraceNames,
    /// Runtime calls that failed, by virtual time, then process and thread (in call order among equals).
    pub failed: Vec<FailedCall>,
    /// How many of each the machine's trace window left out: the earliest ones, in the trace's order
    /// ([`crate::TraceWindow`]; all zero with [`crate::TraceWindow::All`]).
    pub dropped: Dropped,
}

/// How many records a trace window left out ([`Trace::dropped`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Dropped {
    /// Operations.
    pub ops: u64,
    /// Blocking host calls.
    pub host: u64,
    /// Failed calls.
    pub failed: u64,
}

impl Trace {
    /// The operations of one stream, in execution order.
    pub fn stream(&self, stream: StreamId) -> impl Iterator<Item = &TraceEvent> {
        self.ops.iter().filter(move |e| e.stream == stream)
    }

    /// The first operation with this label.
    pub fn find(&self, label: &str) -> Option<&TraceEvent> {
        self.ops.iter().find(|e| e.label == label)
    }
}

/// Where one stream's worker appends what it ran (a part of the machine's [`TraceStore`]).
#[derive(Debug)]
pub(crate) struct TraceSink {
    stream: StreamId,
    /// In the stream's order, which is also the trace's (a stream's operations start in order).
    events: Mutex<VecDeque<Executed>>,
    /// The store, not held: the store holds its sinks, and a worker may keep its sink a moment after its
    /// machine is gone (so that a dropped machine's trace goes with it, not with its last worker).
    store: Weak<TraceStore>,
    /// How many records the store's sinks hold, and its window.
    count: Arc<KeptCount>,
    /// Whether the store has a hook ([`crate::MachineBuilder::trace_sink`]).
    hooked: bool,
}

/// A [`TraceEvent`] as a sink keeps it: 56 bytes instead of 96 (a long trace is mostly kernels, and its memory
/// is most of what tracing costs).
#[derive(Debug)]
struct Executed {
    seq: u64,
    start: VirtualTime,
    end: VirtualTime,
    label: Label,
    /// `None`: a kernel, or the record its label names.
    kind: Option<Box<OpKind>>,
}

impl Executed {
    fn event(&self, stream: StreamId) -> TraceEvent {
        TraceEvent {
            stream,
            seq: self.seq,
            kind: match (&self.kind, self.label.record_of()) {
                (Some(k), _) => (**k).clone(),
                (None, Some(event)) => OpKind::Record { event },
                (None, None) => OpKind::Kernel,
            },
            label: self.label.text(),
            start: self.start,
            end: self.end,
        }
    }
}

/// An operation's place in the trace's order: (virtual start, stream, position).
pub(crate) type OpKey = (VirtualTime, StreamId, u64);

impl TraceSink {
    pub fn new(stream: StreamId, store: &Arc<TraceStore>) -> TraceSink {
        TraceSink {
            stream,
            events: Mutex::new(VecDeque::new()),
            store: Arc::downgrade(store),
            count: store.count.clone(),
            hooked: store.hook.is_some(),
        }
    }

    /// `n` more records: compacts the store once it holds twice its window.
    #[inline]
    fn added(&self, n: usize) {
        if self.count.added(n)
            && let Some(store) = self.store.upgrade()
        {
            store.compact();
        }
    }

    /// Hands each of `events` to the store's hook, if it has one (and is still there).
    fn hook<'a>(&self, events: impl Iterator<Item = &'a Executed>) {
        if self.hooked
            && let Some(store) = self.store.upgrade()
            && let Some(hook) = &store.hook
        {
            for e in events {
                (hook.0)(TraceRecord::Op(&e.event(self.stream)));
            }
        }
    }

    /// Appends operation `seq` of the sink's stream.
    pub fn push(
        &self,
        seq: u64,
        kind: OpKind,
        label: Label,
        (start, end): (VirtualTime, VirtualTime),
    ) {
        let kind = match kind {
            OpKind::Kernel => None,
            OpKind::Record { event } if label.record_of() == Some(event) => None,
            k => Some(Box::new(k)),
        };
        let e = Executed {
            seq,
            start,
            end,
            label,
            kind,
        };
        self.hook(std::iter::once(&e));
        self.events.lock().push_back(e);
        self.added(1);
    }

    /// Appends the kernels gathered in `batch` (emptying it), under one lock.
    pub fn append(&self, batch: &mut KernelBatch) {
        self.hook(batch.0.iter());
        let n = batch.0.len();
        self.events.lock().extend(batch.0.drain(..));
        self.added(n);
    }

    pub fn extend_into(&self, out: &mut Vec<TraceEvent>) {
        out.extend(self.events.lock().iter().map(|e| e.event(self.stream)));
    }

    pub fn is_empty(&self) -> bool {
        self.events.lock().is_empty()
    }

    /// The trace-order keys of what the sink holds.
    pub fn keys_into(&self, out: &mut Vec<OpKey>) {
        out.extend(
            self.events
                .lock()
                .iter()
                .map(|e| (e.start, self.stream, e.seq)),
        );
    }

    /// Keeps only the last `n` records (the greatest in the trace's order: they are in it); how many went.
    pub fn keep_last(&self, n: usize) -> usize {
        let mut events = self.events.lock();
        debug_assert!(
            events
                .iter()
                .zip(events.iter().skip(1))
                .all(|(a, b)| (a.start, a.seq) < (b.start, b.seq)),
            "a stream's operations are in the trace's order"
        );
        let extra = events.len().saturating_sub(n);
        events.drain(..extra);
        extra
    }

    /// Drops what comes before `threshold` in the trace's order (`None`: everything); how many records went.
    pub fn drop_below(&self, threshold: Option<OpKey>) -> usize {
        let mut events = self.events.lock();
        let before = events.len();
        match threshold {
            Some(t) => events.retain(|e| (e.start, self.stream, e.seq) >= t),
            None => events.clear(),
        }
        before - events.len()
    }
}

/// The operations of streams that are gone, moved out of their sinks ([`TraceStore`] folds them), so that a
/// create / destroy loop holds one 64-byte record per operation kept rather than a sink, a lock and a queue per
/// stream it ever made.
#[derive(Debug, Default)]
pub(crate) struct Retired(Vec<(StreamId, Executed)>);

impl Retired {
    /// Moves everything `sink` holds here (its stream is gone: nothing more arrives).
    pub fn take_from(&mut self, sink: &TraceSink) {
        let stream = sink.stream;
        self.0
            .extend(sink.events.lock().drain(..).map(|e| (stream, e)));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn extend_into(&self, out: &mut Vec<TraceEvent>) {
        out.extend(self.0.iter().map(|(s, e)| e.event(*s)));
    }

    /// The trace-order keys of what is held.
    pub fn keys_into(&self, out: &mut Vec<OpKey>) {
        out.extend(self.0.iter().map(|(s, e)| (e.start, *s, e.seq)));
    }

    /// Drops what comes before `threshold` in the trace's order (`None`: everything); how many records went.
    pub fn drop_below(&mut self, threshold: Option<OpKey>) -> usize {
        let before = self.0.len();
        match threshold {
            Some(t) => self.0.retain(|(s, e)| (e.start, *s, e.seq) >= t),
            None => self.0.clear(),
        }
        if self.0.capacity() > 2 * self.0.len().max(64) {
            self.0.shrink_to_fit();
        }
        before - self.0.len()
    }
}

/// Kernels a worker ran and has not appended to its sink yet (see `exec::run_worker`).
#[derive(Debug, Default)]
pub(crate) struct KernelBatch(Vec<Executed>);

impl KernelBatch {
    pub fn push(&mut self, seq: u64, label: Label, (start, end): (VirtualTime, VirtualTime)) {
        self.0.push(Executed {
            seq,
            start,
            end,
            label,
            kind: None,
        });
    }
}

pub(crate) fn sort_ops(ops: &mut [TraceEvent]) {
    ops.sort_by_key(|e| (e.start, e.stream, e.seq));
}
