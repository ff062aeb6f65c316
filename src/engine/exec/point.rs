//! Record points: [`Point`] ("operation `seq` of that stream", with its virtual end time) and
//! [`StreamExec`], a stream's completion state that points, waiters and the serialize schedule share.
use crate::engine::core::handle::StreamId;
use crate::engine::core::hang::WaitCycle;
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::callback::Callback;
use crate::engine::exec::faults::StreamFault;
use crate::engine::observe::race::clock::VectorClock;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::{Condvar, Mutex};

use crate::engine::schedules::serialize::Progress;

/// The completion state of one stream, shared with record points and waiters.
#[derive(Debug)]
pub(crate) struct StreamExec {
    pub id: StreamId,
    /// The owning context's registry handle (0: none), for the failure mode `Stop` (see `watch.rs`).
    pub ctx: u64,
    pub(super) completed: AtomicU64,
    pub(super) waiters: AtomicUsize,
    pub(super) lock: Mutex<()>,
    pub(super) cv: Condvar,
    /// The stream's faults not reported yet, in order (see `watch.rs`); written by the worker before it
    /// publishes the operation. A sticky fault (failure modes `Sticky` and `Stop`) stays; it is the last one.
    pub(super) faults: Mutex<Vec<StreamFault>>,
    pub(super) has_fault: AtomicBool,
    /// The position from which the stream's operations are in the failure mode `Stop` (`u64::MAX`: none).
    pub(super) stop_from: AtomicU64,
    /// Where the stream's progress is published for other OS processes, once it recorded an exported event
    /// of a shared host (`host/events.rs`).
    pub remote: OnceLock<crate::engine::host::remote::RemoteProgress>,
    /// How many operations the stream was given in all, once its producer is gone (`u64::MAX` before).
    pub(super) closed_at: AtomicU64,
    /// The machine's serialize schedule, if it runs under one (`serial.rs`): host threads waiting here tell it.
    pub serial: OnceLock<Arc<crate::engine::schedules::serialize::Serial>>,
    /// The position of the operation whose worker waits on a record of another OS process that has not run
    /// (0: none): a query does not wait for it (`wait_unless_stalled`).
    pub(super) remote_stall: AtomicU64,
    /// The point of another stream the worker waits for now, if it had not run when the wait began: a query
    /// follows the chain to a stall on another OS process (a leaf lock: cloned out, never held while waiting).
    pub(super) waiting_on: Mutex<Option<(Arc<StreamExec>, u64)>>,
    /// The record of another OS process that operation `remote_stall` waits for (a leaf lock), published in the
    /// stream's progress slot for other processes' hang reports once it has one ([`StreamExec::publish_block`]).
    pub(super) remote_on: Mutex<Option<Arc<crate::engine::host::remote::RemoteRecord>>>,
    /// The position of the program function (kernel body, host function, callback) the worker runs now (0:
    /// none), published like `remote_on`.
    pub(super) running_op: AtomicU64,
    /// What the thread serving the stream can be handed once the stream is destroyed (`workers.rs`).
    pub(crate) handoff: Mutex<crate::engine::exec::workers::Handoff>,
}

impl StreamExec {
    pub fn new(id: StreamId, ctx: Option<u64>) -> StreamExec {
        StreamExec {
            id,
            ctx: ctx.unwrap_or(0),
            completed: AtomicU64::new(0),
            waiters: AtomicUsize::new(0),
            lock: Mutex::new(()),
            cv: Condvar::new(),
            faults: Mutex::new(Vec::new()),
            has_fault: AtomicBool::new(false),
            stop_from: AtomicU64::new(u64::MAX),
            remote: OnceLock::new(),
            closed_at: AtomicU64::new(u64::MAX),
            serial: OnceLock::new(),
            remote_stall: AtomicU64::new(0),
            waiting_on: Mutex::new(None),
            remote_on: Mutex::new(None),
            running_op: AtomicU64::new(0),
            handoff: Mutex::new(Default::default()),
        }
    }

    /// The stream's first sticky fault, if any (the one that poisons what is ordered after it).
    pub fn fault(&self) -> Option<StreamFault> {
        if self.has_fault.load(Ordering::SeqCst) {
            self.faults.lock().iter().find(|f| f.sticky).cloned()
        } else {
            None
        }
    }

    /// The first fault at or before operation `seq` that a call reports: with `take`, the non-sticky faults
    /// up to `seq` are forgotten (reported once, failure mode `Continue`); sticky faults are always seen.
    /// With `sticky_only`, only a sticky fault is reported (and nothing is forgotten).
    pub fn report(&self, seq: u64, take: bool, sticky_only: bool) -> Option<StreamFault> {
        if !self.has_fault.load(Ordering::SeqCst) {
            return None;
        }
        let mut faults = self.faults.lock();
        let first = faults
            .iter()
            .find(|f| f.seq <= seq && (f.sticky || !sticky_only))
            .cloned();
        if take && !sticky_only {
            faults.retain(|f| f.sticky || f.seq > seq);
            if faults.is_empty() {
                self.has_fault.store(false, Ordering::SeqCst);
            }
        }
        first
    }

    /// From operation `seq` on (the next one enqueued), the stream is in the failure mode `Stop`.
    pub fn stop_from(&self, seq: u64) {
        self.stop_from.fetch_min(seq, Ordering::SeqCst);
    }

    pub(super) fn poison(&self, f: StreamFault) {
        let mut faults = self.faults.lock();
        // After a sticky fault nothing more is recorded: it is the stream's answer from then on.
        if !faults.iter().any(|x| x.sticky) {
            faults.push(f);
            self.has_fault.store(true, Ordering::SeqCst);
        }
    }

    pub fn completed(&self) -> u64 {
        self.completed.load(Ordering::SeqCst)
    }

    /// Publishes in the stream's progress slot, if it has one, which record of another OS process its worker
    /// waits for now (none: it waits for none): other processes' hang reports follow it.
    pub(crate) fn publish_block(&self) {
        std::sync::atomic::fence(Ordering::SeqCst);
        if let Some(p) = self.remote.get() {
            let op = self.remote_stall.load(Ordering::SeqCst);
            let r = self.remote_on.lock().clone();
            p.blocked_on(op, r.as_deref().filter(|_| op != 0));
            p.running(self.running_op.load(Ordering::Acquire));
        }
    }

    /// The worker runs the program function of operation `op` now (0: it has returned). On the worker's path of
    /// every kernel and host function, so a plain store and no fence: a slot attached at that very moment may
    /// miss one such change, which only makes another process's hang report say "held" instead of "running".
    pub(super) fn set_running(&self, op: u64) {
        self.running_op.store(op, Ordering::Release);
        if let Some(p) = self.remote.get() {
            p.running(op);
        }
    }

    /// The producer is gone after giving the stream `seq` operations.
    pub fn close(&self, seq: u64) {
        self.closed_at.store(seq, Ordering::SeqCst);
    }

    /// Whether the producer is gone and every operation it gave has run.
    pub fn drained(&self) -> bool {
        self.completed() >= self.closed_at.load(Ordering::SeqCst)
    }

    pub(super) fn publish(&self, seq: u64) {
        self.completed.store(seq, Ordering::SeqCst);
        if let Some(r) = self.remote.get() {
            r.publish(seq);
        }
        if self.waiters.load(Ordering::SeqCst) > 0 {
            let _g = self.lock.lock();
            self.cv.notify_all();
        }
    }

    /// Blocks until operation `seq` of this stream has run. On a host thread of a machine under the serialize
    /// schedule, the wait lets the schedule run operations (`serial.rs`), and it ends early with the wait-for
    /// cycle if the watchdog finds the schedule stuck (`Some`: the work has not run).
    pub fn wait_for(self: &Arc<Self>, seq: u64) -> Option<WaitCycle> {
        // Most waits are short: spin, then yield, before sleeping on the condvar (a sleep and wake-up costs
        // tens of microseconds on a virtual machine).
        for i in 0..128 {
            if self.completed() >= seq {
                return None;
            }
            if i < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        let demand = self
            .serial
            .get()
            .filter(|_| !crate::engine::exec::workers::on_worker_thread())
            .map(|s| s.demand(Some((self.clone() as Arc<dyn Progress>, seq))));
        let verdict = demand.as_ref().map(|d| d.verdict.clone());
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let mut g = self.lock.lock();
        let mut stuck = None;
        loop {
            // The verdict is given before the schedule lets anything else run: a wait that has one reports it,
            // even if the work has run since (the same answer on every run).
            if let Some(c) = verdict.as_ref().and_then(|v| v.get()) {
                stuck = Some(c.clone());
                break;
            }
            if self.completed() >= seq {
                break;
            }
            self.cv.wait(&mut g);
        }
        drop(g);
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        drop(demand);
        stuck
    }

    /// For a query: blocks until operation `seq` has run, like [`StreamExec::wait_for`], unless the stream's
    /// worker waits, at or before `seq`, on a record of another OS process that has not run (`Err`): how long
    /// that takes depends on the other process (a host function of it may never return), and a query never
    /// blocks on it. Polls every 2 ms while the work has not run.
    pub fn wait_unless_stalled(self: &Arc<Self>, seq: u64) -> Result<Option<WaitCycle>, ()> {
        let stalled = || self.stalled_at(seq, 16);
        if self.serial.get().is_some() {
            // The serialize schedule runs the work only while the host waits, and diagnoses stuck waits.
            return if stalled() {
                Err(())
            } else {
                Ok(self.wait_for(seq))
            };
        }
        for i in 0..128 {
            if self.completed() >= seq {
                return Ok(None);
            }
            if i < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        self.waiters.fetch_add(1, Ordering::SeqCst);
        let mut g = self.lock.lock();
        let r = loop {
            if self.completed() >= seq {
                break Ok(None);
            }
            if stalled() {
                break Err(());
            }
            self.cv
                .wait_for(&mut g, std::time::Duration::from_millis(2));
        };
        drop(g);
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        r
    }

    /// Whether operation `seq` has not run and the worker, on its way there, waits on a record of another OS
    /// process that has not run — directly, or through up to `depth` streams it waits for in turn. (The
    /// operation the worker runs now is the next one, at or before `seq`.)
    pub(super) fn stalled_at(&self, seq: u64, depth: u32) -> bool {
        if self.completed() >= seq {
            return false;
        }
        if self.remote_stall.load(Ordering::SeqCst) != 0 {
            return true;
        }
        let next = if depth == 0 {
            None
        } else {
            self.waiting_on.lock().clone()
        };
        next.is_some_and(|(e, q)| e.stalled_at(q, depth - 1))
    }

    /// Wakes the threads waiting here (the watchdog's verdict for them has come).
    pub fn wake(&self) {
        let _g = self.lock.lock();
        self.cv.notify_all();
    }
}

impl Progress for StreamExec {
    fn stream(&self) -> StreamId {
        self.id
    }

    fn completed(&self) -> u64 {
        StreamExec::completed(self)
    }

    fn wake(&self) {
        StreamExec::wake(self);
    }
}

/// A point on one stream's timeline: "operation `seq` of that stream". Its virtual end time is known at
/// enqueue, except behind an ACL deferred wait, where it is fixed once the awaited record is issued (`cell`).
///
/// With race detection on, a point also carries the stream's vector clock at that point (what a wait or a
/// synchronize on it acquires).
#[derive(Debug, Clone)]
pub(crate) struct Point {
    pub exec: Arc<StreamExec>,
    pub seq: u64,
    pub(super) known: VirtualTime,
    pub(super) cell: Option<Arc<OnceLock<Fixed>>>,
    pub(super) vc: Option<Arc<VectorClock>>,
    /// The blocking host callbacks (`report.rs`) not yet run that the point is ordered after.
    pub(super) gates: Option<Arc<Vec<Arc<Callback>>>>,
    /// A record made in another OS process of a shared host: the point is done here at once (`exec` stands
    /// for the other stream, `seq` is 0) and waiting on it waits for that process's stream (`host/events.rs`).
    pub(super) remote: Option<Arc<crate::engine::host::remote::RemoteRecord>>,
}

/// What a held operation's point learns when it is released.
#[derive(Debug)]
pub(crate) struct Fixed {
    pub time: VirtualTime,
    pub vc: Option<Arc<VectorClock>>,
}

impl Point {
    pub fn new(exec: Arc<StreamExec>, seq: u64, time: VirtualTime) -> Point {
        Point {
            exec,
            seq,
            known: time,
            cell: None,
            vc: None,
            gates: None,
            remote: None,
        }
    }

    /// The point, standing for a record of another OS process (see the field `remote`).
    pub fn with_remote(mut self, r: Arc<crate::engine::host::remote::RemoteRecord>) -> Point {
        self.remote = Some(r);
        self
    }

    /// The point, ordered after the blocking callbacks `gates`.
    pub fn with_gates(mut self, gates: Option<Arc<Vec<Arc<Callback>>>>) -> Point {
        self.gates = gates;
        self
    }

    /// The blocking callbacks the point is ordered after (some may have run since).
    pub fn gates(&self) -> &[Arc<Callback>] {
        self.gates.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The point with the stream's clock at it.
    pub fn with_vc(mut self, vc: Option<Arc<VectorClock>>) -> Point {
        self.vc = vc;
        self
    }

    /// The stream's vector clock at this point (race detection on), once fixed.
    pub fn vc(&self) -> Option<&VectorClock> {
        match &self.cell {
            None => self.vc.as_deref(),
            Some(c) => c.get().and_then(|f| f.vc.as_deref()),
        }
    }

    /// A point whose time is fixed later, through `cell`.
    pub fn pending(exec: Arc<StreamExec>, seq: u64, cell: Arc<OnceLock<Fixed>>) -> Point {
        Point {
            exec,
            seq,
            known: VirtualTime::ZERO,
            cell: Some(cell),
            vc: None,
            gates: None,
            remote: None,
        }
    }

    /// The virtual end time, if it is fixed yet.
    pub fn time(&self) -> Option<VirtualTime> {
        match &self.cell {
            None => Some(self.known),
            Some(c) => c.get().map(|f| f.time),
        }
    }

    /// For a query: [`Point::wait`], unless the point waits on a record of another OS process that has not
    /// run (`Err`: the query answers "not ready" rather than blocking; see [`StreamExec::wait_unless_stalled`]).
    pub fn wait_unless_stalled(&self) -> Result<Option<WaitCycle>, ()> {
        if self.remote_pending() {
            return Err(());
        }
        let r = self.exec.wait_unless_stalled(self.seq)?;
        if r.is_none() && self.remote_pending() {
            return Err(());
        }
        Ok(r)
    }

    /// Whether the point stands for a record of another OS process that has not run yet.
    pub fn remote_pending(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| r.pending())
    }

    /// Blocks until the point has run (see [`StreamExec::wait_for`]: `Some` is the serialize schedule's
    /// wait-for cycle, the point has not run).
    pub fn wait(&self) -> Option<WaitCycle> {
        if let Some(c) = self.exec.wait_for(self.seq) {
            return Some(c);
        }
        if let Some(r) = &self.remote {
            r.wait();
        }
        None
    }
}
