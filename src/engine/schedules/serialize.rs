//! The serialize schedule ([`Schedule::Serialize`](crate::engine::core::hang::Schedule::Serialize)): one operation
//! at a time in the whole machine, only while a host thread waits for the device, the next one chosen by the
//! machine seed among those whose dependencies have run.
//!
//! How it stays deterministic: the choice is made only when every stream with dispatched work has told the
//! schedule where it is — its next operation is *ready* (dependencies run) or *blocked* on a dependency that
//! has not run — and only while a host thread waits. A single-threaded program enqueues nothing while it waits,
//! so the set of candidates, and so the seed's choice, depends on program order alone.
//!
//! - A host that makes no call for [`IDLE`] (real time), none of whose threads is running (Linux: not `R` in
//!   `/proc`), waits by means the simulator does not see — a barrier of its own until a host function has run
//!   (cuda-samples simpleCallback), a sleep: the schedule then runs work as if a host thread waited, until the
//!   next call. A host that computes, or is only descheduled, does not open the schedule.
//! - The host side counts each stream's dispatched operations ([`Serial::dispatched`]) and registers what a
//!   blocked host thread waits for ([`Serial::demand`]: a stream's operation, or "anything" for waits whose
//!   target is not one point, such as the end of the machine).
//! - A worker says where it is before its dependencies ([`Serial::before_deps`]), asks for its turn once they
//!   have run ([`Serial::acquire`]) and gives it back once the operation is published ([`Serial::release`]).
//! - The watchdog (`watchdog.rs`) may find the running operation stuck (a host function spinning on a flag only
//!   a held-back operation sets): it gives the schedule up ([`Serial::give_up`]), so that everything runs
//!   concurrently from then on and no work is lost, and hands the waiting host threads the cycle it found.
//!
//! Costs follow live work: a stream is known here only while it has dispatched operations not yet run; a demand
//! only while its host thread waits.
//!
//! Lock order: a stream's completion lock (`StreamExec`) may be held when this lock is taken, never the reverse;
//! nothing blocks while this lock is held except on its own condition variable.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::engine::core::handle::StreamId;
use crate::engine::core::handle::stream_key;
use crate::engine::core::hang::{WaitCycle, WaitLink};

/// A stream's progress, as the schedule sees it (the stream's completion state, `exec/`'s `StreamExec`).
pub(crate) trait Progress: Send + Sync {
    /// The stream.
    fn stream(&self) -> StreamId;
    /// How many of its operations have run.
    fn completed(&self) -> u64;
    /// Wakes the threads waiting on the stream, to look again.
    fn wake(&self);
}

/// Where a stream's worker is, as far as the schedule knows.
enum At {
    /// Between operations (just given one, or just done with one): it will say soon.
    Moving,
    /// Waiting for these dependencies (stream, position) of its next operation.
    Deps(Vec<(Arc<dyn Progress>, u64)>),
    /// Its next operation, `seq`, is ready.
    Ready { seq: u64, label: String },
    /// Its operation holds the schedule.
    Running,
}

struct Slot {
    exec: Arc<dyn Progress>,
    /// Operations dispatched to it so far.
    sent: u64,
    at: At,
}

impl Slot {
    fn pending(&self) -> bool {
        self.exec.completed() < self.sent
    }
}

/// What a blocked host thread waits for.
struct Demand {
    id: u64,
    target: Option<(Arc<dyn Progress>, u64)>,
    verdict: Arc<OnceLock<WaitCycle>>,
}

impl Demand {
    fn open(&self) -> bool {
        self.verdict.get().is_none() && self.target.as_ref().is_none_or(|(e, s)| e.completed() < *s)
    }
}

/// The operation that holds the schedule.
#[derive(Clone)]
pub(crate) struct Turn {
    pub stream: StreamId,
    pub seq: u64,
}

#[derive(Default)]
struct State {
    slots: BTreeMap<StreamId, Slot>,
    running: Option<Turn>,
    granted: Option<(StreamId, u64)>,
    demands: Vec<Demand>,
    next_demand: u64,
    /// Run everything (the machine is ending).
    flush: bool,
}

/// One machine's serialize schedule.
pub(crate) struct Serial {
    seed: u64,
    st: Mutex<State>,
    cv: Condvar,
    /// The watchdog gave the schedule up: everything runs concurrently.
    given_up: AtomicBool,
    /// When a host thread last entered or left a call (nanoseconds since `base`).
    last_call: AtomicU64,
    base: Instant,
    /// No host thread has called for [`IDLE`]: the host waits by other means, work runs.
    idle: AtomicBool,
    /// The OS thread ids of the host threads that have called (Linux), to tell a host that waits from one
    /// that computes or is descheduled.
    host_tids: Mutex<std::collections::BTreeSet<i64>>,
}

/// How long the host may make no call before the schedule takes it to be waiting by means the simulator does not
/// see (a lock or barrier of its own, a sleep) and runs work (real time).
pub const IDLE: Duration = Duration::from_millis(100);

impl std::fmt::Debug for Serial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Serial").field("seed", &self.seed).finish()
    }
}

/// A host thread's registered wait; removed when dropped.
pub(crate) struct DemandGuard<'a> {
    serial: &'a Serial,
    id: u64,
    pub verdict: Arc<OnceLock<WaitCycle>>,
}

impl Drop for DemandGuard<'_> {
    fn drop(&mut self) {
        let mut st = self.serial.st.lock();
        st.demands.retain(|d| d.id != self.id);
        self.serial.decide(&mut st);
    }
}

impl Serial {
    /// A schedule, and its idle ticker thread (which ends once the schedule is gone). `Err` if the host refuses
    /// the thread.
    pub fn start(seed: u64) -> std::io::Result<Arc<Serial>> {
        let s = Arc::new(Serial {
            seed,
            st: Mutex::new(State::default()),
            cv: Condvar::new(),
            given_up: AtomicBool::new(false),
            last_call: AtomicU64::new(0),
            base: Instant::now(),
            idle: AtomicBool::new(false),
            host_tids: Mutex::new(Default::default()),
        });
        let weak = Arc::downgrade(&s);
        std::thread::Builder::new()
            .name("ss-serialize".to_string())
            .spawn(move || {
                loop {
                    // Real time, by design: the idle rule is about the host's real behaviour.
                    std::thread::sleep(IDLE / 2);
                    let Some(s) = weak.upgrade() else { break };
                    s.tick();
                }
            })?;
        Ok(s)
    }

    fn now_ns(&self) -> u64 {
        u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// A host thread enters or leaves a call: the host is not idle.
    pub fn host_active(&self) {
        self.last_call.store(self.now_ns(), Ordering::Relaxed);
        if let Some(tid) = os_thread_id() {
            let mut tids = self.host_tids.lock();
            if !tids.contains(&tid) {
                tids.insert(tid);
            }
        }
        if self.idle.load(Ordering::Relaxed) {
            self.idle.store(false, Ordering::SeqCst);
        }
    }

    fn tick(&self) {
        if self.off() || self.idle.load(Ordering::SeqCst) {
            return;
        }
        let quiet = self
            .now_ns()
            .saturating_sub(self.last_call.load(Ordering::Relaxed));
        if quiet >= u64::try_from(IDLE.as_nanos()).unwrap_or(u64::MAX) && self.host_waits() {
            let mut st = self.st.lock();
            if st.slots.values().any(Slot::pending) {
                self.idle.store(true, Ordering::SeqCst);
                self.decide(&mut st);
            }
        }
    }

    fn off(&self) -> bool {
        self.given_up.load(Ordering::SeqCst)
    }

    /// The host dispatched one more operation to `exec`'s stream.
    pub fn dispatched<P: Progress + 'static>(&self, exec: &Arc<P>) {
        let mut st = self.st.lock();
        // A stream is known here only while it has work: a new entry starts from what has run (everything
        // dispatched before, since the entry goes once its work has run).
        let slot = st.slots.entry(exec.stream()).or_insert_with(|| Slot {
            exec: exec.clone() as Arc<dyn Progress>,
            sent: exec.completed(),
            at: At::Moving,
        });
        if !slot.pending() {
            slot.at = At::Moving;
        }
        slot.sent += 1;
        self.decide(&mut st);
    }

    /// A host thread waits for operation `seq` of `exec`'s stream (`None`: for anything, until it stops
    /// waiting). While it waits, the schedule runs operations.
    pub fn demand(&self, target: Option<(Arc<dyn Progress>, u64)>) -> DemandGuard<'_> {
        let mut st = self.st.lock();
        let id = st.next_demand;
        st.next_demand += 1;
        let verdict = Arc::new(OnceLock::new());
        st.demands.push(Demand {
            id,
            target,
            verdict: verdict.clone(),
        });
        self.decide(&mut st);
        DemandGuard {
            serial: self,
            id,
            verdict,
        }
    }

    /// The machine is ending: run everything that is left.
    pub fn flush(&self) {
        let mut st = self.st.lock();
        st.flush = true;
        self.decide(&mut st);
    }

    /// A worker is about to wait for the dependencies of its next operation.
    pub fn before_deps(
        &self,
        stream: StreamId,
        deps: impl Iterator<Item = (Arc<dyn Progress>, u64)>,
    ) {
        if self.off() {
            return;
        }
        let mut st = self.st.lock();
        if let Some(slot) = st.slots.get_mut(&stream) {
            slot.at = At::Deps(deps.collect());
        }
        self.decide(&mut st);
    }

    /// A worker's operation `seq` is ready: blocks until it is its turn (at once once the schedule is given up).
    pub fn acquire(&self, stream: StreamId, seq: u64, label: &str) {
        if self.off() {
            return;
        }
        let mut st = self.st.lock();
        if let Some(slot) = st.slots.get_mut(&stream) {
            slot.at = At::Ready {
                seq,
                label: label.to_string(),
            };
        }
        self.decide(&mut st);
        while st.granted != Some((stream, seq)) && !self.off() {
            self.cv.wait(&mut st);
        }
        if st.granted == Some((stream, seq)) {
            st.granted = None;
        }
        if let Some(slot) = st.slots.get_mut(&stream) {
            slot.at = At::Running;
        }
        st.running = Some(Turn { stream, seq });
    }

    /// A worker's operation has run and is published: the next may run.
    pub fn release(&self, stream: StreamId) {
        let mut st = self.st.lock();
        if st.running.as_ref().is_some_and(|t| t.stream == stream) {
            st.running = None;
        }
        let drained = st.slots.get_mut(&stream).is_some_and(|slot| {
            slot.at = At::Moving;
            !slot.pending()
        });
        if drained {
            st.slots.remove(&stream);
        }
        self.decide(&mut st);
    }

    /// The running operation is stuck (the watchdog). If it holds back ready operations (which it may be waiting
    /// for), the schedule is given up — from now on everything runs concurrently — and every waiting host thread
    /// is told the cycle: `running`, then the operations held back. Returns those (the seed's next choice first);
    /// none: nothing changes (the function is slow, or waits for something else).
    /// `record` is given them first (before any waiting thread can see its verdict).
    pub fn give_up(&self, running: WaitLink, record: impl FnOnce(&[WaitLink])) -> Vec<WaitLink> {
        let mut st = self.st.lock();
        if self.off() {
            return Vec::new();
        }
        let mut ready: Vec<(u64, WaitLink)> = st
            .slots
            .iter()
            .filter(|(_, s)| s.pending())
            .filter_map(|(id, s)| match &s.at {
                At::Ready { seq, label } => Some((
                    self.priority(*id, *seq),
                    WaitLink::Scheduled {
                        stream: *id,
                        seq: *seq,
                        label: label.clone(),
                    },
                )),
                _ => None,
            })
            .collect();
        ready.sort_by_key(|(k, _)| *k);
        let held: Vec<WaitLink> = ready.into_iter().map(|(_, l)| l).collect();
        if held.is_empty() {
            return held;
        }
        record(&held);
        self.given_up.store(true, Ordering::SeqCst);
        let mut cycle = Vec::new();
        cycle.push(running);
        cycle.extend(held.iter().cloned());
        let mut wake = Vec::new();
        for d in &st.demands {
            if d.open() {
                let _ = d.verdict.set(WaitCycle(cycle.clone()));
                if let Some((e, _)) = &d.target {
                    wake.push(e.clone());
                }
            }
        }
        st.granted = None;
        self.cv.notify_all();
        drop(st);
        for e in wake {
            e.wake();
        }
        held
    }

    /// The operations of other streams waiting for `stream`'s operation `seq` or a later one.
    pub fn waiting_for(&self, stream: StreamId, seq: u64) -> Vec<WaitLink> {
        let st = self.st.lock();
        let mut out = Vec::new();
        for (id, slot) in &st.slots {
            if let At::Deps(deps) = &slot.at {
                for (e, s) in deps {
                    if e.stream() == stream && *s >= seq && e.completed() < *s {
                        out.push(WaitLink::WaitsFor {
                            stream: *id,
                            seq: slot.exec.completed() + 1,
                            on: stream,
                            on_seq: *s,
                        });
                    }
                }
            }
        }
        out
    }

    /// Whether no host thread that has called is running (Linux: each one's state in `/proc` is not `R`): a
    /// host that computes, or is only descheduled, is not waiting. Threads that have ended are forgotten.
    /// Elsewhere: `true` (the quiet time alone decides).
    fn host_waits(&self) -> bool {
        let mut tids = self.host_tids.lock();
        let mut waits = true;
        tids.retain(|tid| match thread_state(*tid) {
            None => false,
            Some(state) => {
                waits &= state != 'R';
                true
            }
        });
        waits
    }

    /// Whether the schedule still serializes (the watchdog has not given it up).
    pub fn serializing(&self) -> bool {
        !self.off()
    }

    /// The operation holding the schedule, if any.
    pub fn running(&self) -> Option<Turn> {
        self.st.lock().running.clone()
    }

    fn priority(&self, stream: StreamId, seq: u64) -> u64 {
        crate::engine::core::rng::mix(
            self.seed ^ crate::engine::core::rng::mix(stream_key(stream) ^ seq),
        )
    }

    /// Gives the turn to the seed's choice among the ready operations, once nothing runs, a host thread waits,
    /// and every stream with work has said where it is.
    fn decide(&self, st: &mut State) {
        if self.off() || st.running.is_some() || st.granted.is_some() {
            return;
        }
        if !st.flush && !self.idle.load(Ordering::SeqCst) && !st.demands.iter().any(Demand::open) {
            return;
        }
        let mut best: Option<(u64, StreamId, u64)> = None;
        for (id, slot) in &st.slots {
            if !slot.pending() {
                continue;
            }
            match &slot.at {
                At::Moving => return,
                // Its dependencies have run: it is on its way to ask.
                At::Deps(deps) if deps.iter().all(|(e, s)| e.completed() >= *s) => return,
                At::Deps(_) | At::Running => {}
                At::Ready { seq, .. } => {
                    let k = self.priority(*id, *seq);
                    if best.is_none_or(|(b, _, _)| k < b) {
                        best = Some((k, *id, *seq));
                    }
                }
            }
        }
        if let Some((_, id, seq)) = best {
            st.granted = Some((id, seq));
            self.cv.notify_all();
        }
    }
}

/// The calling thread's OS id (Linux), cached per thread.
fn os_thread_id() -> Option<i64> {
    #[cfg(target_os = "linux")]
    {
        thread_local! {
            static TID: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
        }
        TID.try_with(|t| {
            if t.get() == 0 {
                // SAFETY: gettid takes no arguments and cannot fail.
                t.set(unsafe { libc::syscall(libc::SYS_gettid) });
            }
            t.get()
        })
        .ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// A thread's scheduling state letter (`R` running or runnable, `S` sleeping, …) from
/// `/proc/self/task/<tid>/stat`; `None` if it has ended.
fn thread_state(tid: i64) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // The state follows the command name, which is in parentheses and may hold spaces or parentheses.
    let after = &stat[stat.rfind(')')? + 1..];
    after.trim_start().chars().next()
}
