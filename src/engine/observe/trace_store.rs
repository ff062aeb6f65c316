//! What a machine's trace keeps: every operation, blocking host call and failed call, or — the default — a
//! window of the latest [`TraceWindow::Last`] of each, so that a long run holds bounded memory; and the sink
//! ([`crate::MachineBuilder::trace_sink`]) that sees each one as it is recorded.
//!
//! **The window is deterministic.** "Latest" is in the trace's own order — operations by (virtual start,
//! stream, position), host calls by (virtual start, process, thread, call order), failed calls by (time,
//! process, thread, call order) — not in the order the workers happened to run: the trace keeps the `n`
//! greatest of everything recorded. Records pile up to twice the window, then the older half goes: a record
//! goes only when `n` greater ones are kept, so it is never among the `n` greatest of all, and reading the trace
//! (which sorts what is kept and keeps the `n` greatest) gives the same window whatever the arrival order was.
//!
//! **Streams that are gone leave no sink behind.** A sink belongs to one stream; once its stream is destroyed and
//! drained (only the store still holds the sink), what it kept is moved into the store's [`Retired`] list and the
//! sink goes, every 64 stream creations — so a create / destroy loop holds the records of its window, not a
//! sink per stream it ever made.
//!
//! Lock order: the compaction lock, then the store's `sinks` list, then `retired`, then each sink's events
//! (leaves).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::engine::observe::trace::{FailedCall, HostEvent, Retired, TraceEvent, TraceSink};

/// How much of its trace a machine keeps ([`crate::MachineBuilder::trace_window`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceWindow {
    /// Everything, for as long as the machine lives (what a short test or a scenario wants).
    All,
    /// The latest `n` operations, the latest `n` blocking host calls and the latest `n` failed calls, in the
    /// trace's order (see [`crate::Trace::dropped`] for how many were left out).
    Last(usize),
}

impl TraceWindow {
    /// The default: the latest 65,536 of each, whatever the length of the run. Up to twice the window is held
    /// between compactions: some 10 MiB of operations and as much of host calls at most (bench (i) and (l)
    /// measure it).
    pub const DEFAULT: TraceWindow = TraceWindow::Last(1 << 16);

    fn limit(self) -> Option<usize> {
        match self {
            TraceWindow::All => None,
            TraceWindow::Last(n) => Some(n),
        }
    }
}

impl Default for TraceWindow {
    fn default() -> Self {
        TraceWindow::DEFAULT
    }
}

/// One entry of the trace as it is recorded, handed to the builder's [`crate::MachineBuilder::trace_sink`].
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum TraceRecord<'a> {
    /// An operation that ran (recorded by its stream's worker once it has run).
    Op(&'a TraceEvent),
    /// A blocking host call that returned.
    Host(&'a HostEvent),
    /// A runtime call that failed.
    Failed(&'a FailedCall),
}

/// The function behind [`crate::MachineBuilder::trace_sink`].
#[derive(Clone)]
pub(crate) struct TraceHook(pub Arc<dyn Fn(TraceRecord<'_>) + Send + Sync>);

impl std::fmt::Debug for TraceHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TraceHook(..)")
    }
}

/// How many records a store's sinks hold (counted only with a window), shared with the sinks.
#[derive(Debug)]
pub(crate) struct KeptCount {
    window: Option<usize>,
    kept: AtomicUsize,
}

impl KeptCount {
    /// `n` more records; whether the store should compact (it holds more than twice its window).
    #[inline]
    pub fn added(&self, n: usize) -> bool {
        match self.window {
            Some(w) => self.kept.fetch_add(n, Ordering::Relaxed) + n > w.saturating_mul(2).max(1),
            None => false,
        }
    }
}

/// The operations' side of a machine's trace: the streams' sinks, how many records they hold, and how many
/// were dropped.
#[derive(Debug)]
pub(crate) struct TraceStore {
    window: Option<usize>,
    pub hook: Option<TraceHook>,
    sinks: Mutex<Vec<Arc<TraceSink>>>,
    /// What the sinks of streams that are gone held.
    retired: Mutex<Retired>,
    pub count: Arc<KeptCount>,
    /// Records dropped by compactions.
    dropped: AtomicU64,
    compacting: Mutex<()>,
}

impl TraceStore {
    pub fn new(window: TraceWindow, hook: Option<TraceHook>) -> TraceStore {
        TraceStore {
            window: window.limit(),
            hook,
            sinks: Mutex::new(Vec::new()),
            retired: Mutex::new(Retired::default()),
            count: Arc::new(KeptCount {
                window: window.limit(),
                kept: AtomicUsize::new(0),
            }),
            dropped: AtomicU64::new(0),
            compacting: Mutex::new(()),
        }
    }

    /// The window.
    pub fn window(&self) -> TraceWindow {
        self.window.map_or(TraceWindow::All, TraceWindow::Last)
    }

    /// Adds a new stream's sink. From time to time (every 64 sinks) the sinks of streams that are gone are
    /// forgotten, what they held moved into `retired`, so that create / destroy loops do not pile them up.
    pub fn add(&self, sink: Arc<TraceSink>) {
        // A compaction under way works on its copy of the list: leave the sinks it may hold alone.
        let compacting = self.compacting.try_lock();
        let mut sinks = self.sinks.lock();
        if sinks.len() >= 64 && sinks.len().is_power_of_two() {
            match compacting {
                Some(_) => {
                    let mut retired = self.retired.lock();
                    // Only the list holds the sink: its stream and worker are gone, nothing more arrives.
                    sinks.retain(|s| {
                        let live = Arc::strong_count(s) > 1;
                        if !live {
                            retired.take_from(s);
                        }
                        live
                    });
                }
                None => sinks.retain(|s| Arc::strong_count(s) > 1 || !s.is_empty()),
            }
        }
        sinks.push(sink);
    }

    /// Drops the records that are not among the `window` greatest (see the module documentation).
    #[cold]
    pub fn compact(&self) {
        let Some(window) = self.window else {
            return;
        };
        // One compaction at a time; a worker that finds one under way goes on (the next record retries).
        let Some(_g) = self.compacting.try_lock() else {
            return;
        };
        let sinks: Vec<Arc<TraceSink>> = self.sinks.lock().clone();
        let mut retired = self.retired.lock();
        let mut holding = sinks.iter().filter(|s| !s.is_empty());
        if let (true, Some(only), None) = (retired.is_empty(), holding.next(), holding.next()) {
            // One stream holds everything (a long single-stream run): its last `window` are the greatest. (A
            // record another sink takes meanwhile is not dropped.)
            let dropped = only.keep_last(window);
            self.count.kept.fetch_sub(dropped, Ordering::Relaxed);
            self.dropped.fetch_add(dropped as u64, Ordering::Relaxed);
            return;
        }
        let mut keys = Vec::new();
        retired.keys_into(&mut keys);
        for s in &sinks {
            s.keys_into(&mut keys);
        }
        if keys.len() <= window {
            return;
        }
        // The smallest key kept (none with a window of 0).
        let threshold = match keys.len() - window {
            cut if cut < keys.len() => Some(*keys.select_nth_unstable(cut).1),
            _ => None,
        };
        let mut dropped = retired.drop_below(threshold);
        drop(retired);
        for s in &sinks {
            dropped += s.drop_below(threshold);
        }
        self.count.kept.fetch_sub(dropped, Ordering::Relaxed);
        self.dropped.fetch_add(dropped as u64, Ordering::Relaxed);
        self.sinks
            .lock()
            .retain(|s| Arc::strong_count(s) > 1 || !s.is_empty());
    }

    /// Every operation kept, sorted, within the window; and how many were left out.
    pub fn ops(&self) -> (Vec<TraceEvent>, u64) {
        let mut ops = Vec::new();
        let sinks = self.sinks.lock();
        for s in sinks.iter() {
            s.extend_into(&mut ops);
        }
        self.retired.lock().extend_into(&mut ops);
        drop(sinks);
        crate::engine::observe::trace::sort_ops(&mut ops);
        let mut dropped = self.dropped.load(Ordering::Relaxed);
        if let Some(w) = self.window
            && ops.len() > w
        {
            let extra = ops.len() - w;
            ops.drain(..extra);
            dropped += extra as u64;
        }
        (ops, dropped)
    }
}

/// A window of host calls or failed calls (see the module documentation): the entries with their order of
/// arrival, which breaks ties in the trace's order.
#[derive(Debug)]
pub(crate) struct Kept<T> {
    window: Option<usize>,
    items: Vec<(u64, T)>,
    arrived: u64,
    dropped: u64,
}

/// The trace's order of host calls and failed calls: (time, process, thread), then arrival.
pub(crate) trait Ordered {
    fn key(&self) -> (crate::VirtualTime, crate::ProcessId, u32);
}

impl Ordered for HostEvent {
    fn key(&self) -> (crate::VirtualTime, crate::ProcessId, u32) {
        (self.start, self.process, self.thread)
    }
}

impl Ordered for FailedCall {
    fn key(&self) -> (crate::VirtualTime, crate::ProcessId, u32) {
        (self.at, self.process, self.thread)
    }
}

impl<T: Ordered + Clone> Kept<T> {
    pub fn new(window: TraceWindow) -> Kept<T> {
        Kept {
            window: window.limit(),
            items: Vec::new(),
            arrived: 0,
            dropped: 0,
        }
    }

    pub fn push(&mut self, item: T) {
        self.items.push((self.arrived, item));
        self.arrived += 1;
        if let Some(w) = self.window
            && self.items.len() > w.saturating_mul(2).max(1)
        {
            let cut = self.items.len() - w;
            if cut < self.items.len() {
                self.items
                    .select_nth_unstable_by_key(cut, |(n, x)| (x.key(), *n));
            }
            self.items.drain(..cut);
            self.dropped += cut as u64;
        }
    }

    /// The entries kept, in the trace's order, within the window; and how many were left out.
    pub fn sorted(&self) -> (Vec<T>, u64) {
        let mut v: Vec<&(u64, T)> = self.items.iter().collect();
        v.sort_by_key(|(n, x)| (x.key(), *n));
        let mut dropped = self.dropped;
        if let Some(w) = self.window
            && v.len() > w
        {
            let extra = v.len() - w;
            v.drain(..extra);
            dropped += extra as u64;
        }
        (v.into_iter().map(|(_, x)| x.clone()).collect(), dropped)
    }
}
