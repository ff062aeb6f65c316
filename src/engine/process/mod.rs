//! [`Process`]: a simulated host process: its streams, events and allocations, and the per-host-thread state
//! (current device, host clock, last error). Every runtime call goes through [`Process::call`], the one place
//! that reads and advances the calling thread's state.
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the [`Process`] handle, [`Machine::process`](crate::Machine::process); blocking on points, a query's answer |
//! | `thread.rs` | per-host-thread state (one thread-local), [`Call`], [`Process::call`], last / sticky errors |
//! | `state.rs` | [`ProcState`], [`ProcShared`]: registries, per-device state, stream creation, ownership, the pump |
//! | `enqueue.rs` | appending an operation to a stream; the legacy default stream's implicit edges |
//! | `board.rs`, `wait.rs` | the wait board (which host threads could still release a blocked call), timed waits |
//! | `live.rs` | held operations released (the pump) and expired; the tails a device-wide wait or a drain covers |
//!
//! A stream's registry entry and the stream calls are `streams/` (`entry.rs`, `calls.rs`).
//!
//! Lock order: see `state.rs` (the process's `state` lock, then only leaf locks).

pub(crate) mod board;
mod enqueue;
pub(crate) mod live;
pub(crate) mod state;
pub(crate) mod thread;
mod wait;

use std::sync::Arc;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{InitProblem, Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::rules::FailureMode;
use crate::engine::exec::faults::Observe;
use crate::engine::exec::point::Point;
use crate::engine::machine::Shared;
use crate::engine::observe::trace::HostEvent;

pub use crate::engine::core::status::Status;
pub use crate::engine::streams::entry::StreamFlags;
pub(crate) use crate::engine::streams::entry::{HostClock, OpSpec, StreamEntry};
pub(crate) use board::{WaitBoard, Want, Woken};
pub(crate) use state::host_step;
pub(crate) use state::{ContextEntry, DeviceCtx, EventEntry, ProcShared, ProcState};
pub(crate) use thread::{Call, is_main_thread};

/// A simulated host process. A cheap `Clone + Send + Sync` handle; its streams, events and allocations are
/// its own (another process's handles are rejected). Each host thread that uses it has its own current
/// device (0 at first), virtual host clock and last error.
#[derive(Clone)]
pub struct Process {
    // Field order matters: the process state must go before the machine, whose drop joins the workers that
    // the state's stream queues keep alive.
    pub(crate) p: Arc<ProcShared>,
    pub(crate) m: Arc<Shared>,
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("id", &self.p.id)
            .field("machine", &self.m.id)
            .finish()
    }
}

impl Process {
    pub(crate) fn new(m: Arc<Shared>, p: Arc<ProcShared>) -> Process {
        Process { m, p }
    }

    /// This process's id on its machine.
    pub fn id(&self) -> ProcessId {
        self.p.id
    }

    /// The machine this process runs on.
    pub fn machine(&self) -> crate::Machine {
        crate::Machine {
            shared: self.m.clone(),
        }
    }

    /// Initialises the runtime for this process (ACL `aclInit`); a second time is an error.
    pub fn runtime_init(&self) -> Result<()> {
        self.call_unchecked(EngineCall::RuntimeInit.name(), |_| {
            let mut init = self.p.init.lock();
            if *init == Some(true) {
                return Err(SimError::Init {
                    what: EngineCall::RuntimeInit.name(),
                    problem: InitProblem::AlreadyInitialized,
                });
            }
            *init = Some(true);
            Ok(())
        })
    }

    /// Finalises the runtime for this process (ACL `aclFinalize`); a second time is an error.
    pub fn runtime_finalize(&self) -> Result<()> {
        self.call_unchecked(EngineCall::RuntimeFinalize.name(), |_| {
            let mut init = self.p.init.lock();
            let problem = match *init {
                Some(true) => {
                    *init = Some(false);
                    return Ok(());
                }
                Some(false) => InitProblem::AlreadyFinalized,
                None => InitProblem::NotInitialized,
            };
            Err(SimError::Init {
                what: EngineCall::RuntimeFinalize.name(),
                problem,
            })
        })
    }

    /// The current device's stream priority range: (least, greatest).
    pub fn device_priority_range(&self) -> Result<(i32, i32)> {
        self.call(EngineCall::DevicePriorityRange.name(), |c| {
            let (d, _) =
                self.state()
                    .current(&self.m, c, EngineCall::DevicePriorityRange.name())?;
            Ok(self.m.devices[d as usize].priority_range)
        })
    }

    /// Device `device` of the machine (its ordinal), or [`SimError::InvalidDevice`]. Does not advance the clock.
    pub fn check_device(&self, device: i64) -> Result<u32> {
        self.m.check_device(device)
    }

    /// The current device's memory: (total, free) bytes, free being what the simulated allocations of every
    /// process leave (ACL `aclrtGetMemInfo`).
    pub fn device_memory_info(&self) -> Result<(u64, u64)> {
        self.call(EngineCall::DeviceMemoryInfo.name(), |c| {
            let (d, _) = self
                .state()
                .current(&self.m, c, EngineCall::DeviceMemoryInfo.name())?;
            let total = self.m.devices[d as usize].memory;
            Ok((total, total.saturating_sub(self.m.memory.used(d))))
        })
    }

    /// Records a blocking host call in the trace (its label made only then).
    pub(crate) fn host_event(&self, c: &Call, label: impl FnOnce() -> String) {
        if self.m.trace_on {
            let e = HostEvent {
                process: c.process,
                thread: c.thread,
                label: label(),
                start: c.now,
                end: c.clock,
            };
            if let Some(hook) = &self.m.trace.hook {
                (hook.0)(crate::engine::observe::trace_store::TraceRecord::Host(&e));
            }
            self.m.host_events.lock().push(e);
        }
    }

    pub(crate) fn state(&self) -> parking_lot::MutexGuard<'_, ProcState> {
        self.p.state.lock()
    }

    /// Moves the host clock past `points`, blocks until they have really run (no lock held), records the
    /// blocking call in the trace, and reports the fault the call observes (`observe`: how, in the failure modes
    /// `Continue` and `Stop`; in CUDA's mode `Sticky`, `device`'s fault, sticky from then on).
    ///
    /// A point whose time is not fixed (behind an ACL deferred wait whose record has not been issued) holds the
    /// call while another host thread could still issue the record; when none can, it is
    /// [`SimError::WouldDeadlock`] (see `wait.rs`).
    pub(crate) fn block_on(
        &self,
        c: &mut Call,
        what: &'static str,
        device: u32,
        points: &[Point],
        observe: Observe,
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        self.wait_points(c, what, points, label)?;
        self.observe(device, points, observe)
    }

    /// The fault a call that has waited for `points` reports (see [`Process::block_on`]).
    pub(crate) fn observe(&self, device: u32, points: &[Point], observe: Observe) -> Result<()> {
        if self.m.rules.failure_mode == FailureMode::Sticky {
            // A fault the call now observes is its answer, and sticky from now on.
            return self.p.watch[device as usize].observe(points);
        }
        match crate::engine::exec::faults::report(points, observe) {
            None => Ok(()),
            Some((f, ctx)) => {
                if f.sticky {
                    self.state().stop_context(ctx, &f.err);
                }
                Err(f.err)
            }
        }
    }

    /// [`Process::block_on`] without the fault check.
    pub(crate) fn wait_points(
        &self,
        c: &mut Call,
        what: &'static str,
        points: &[Point],
        label: impl FnOnce() -> String,
    ) -> Result<()> {
        self.wait_points_until(c, what, points, None, label)
    }
}

impl Process {
    /// A query's answer for `point` at the call's host time: complete iff its virtual time has passed, and
    /// then the work has really run (so its effects are visible and the host acquires it) — or the fault it
    /// observes.
    pub(crate) fn settle(&self, c: &Call, what: &'static str, point: &Point) -> Result<Status> {
        self.settle_all(c, what, std::slice::from_ref(point))
    }

    /// [`Process::settle`] for several points (of one device): complete iff every one's virtual time has
    /// passed; then all of them have really run, the host acquires them all, and the earliest fault among them
    /// is the answer.
    pub(crate) fn settle_all(
        &self,
        c: &Call,
        what: &'static str,
        points: &[Point],
    ) -> Result<Status> {
        if points.iter().any(|p| p.time().is_none()) {
            // A timed wait they are held behind may have given up by now.
            self.state().expire_for(&self.m, points, Some(c.now));
        }
        if !points.iter().all(|p| p.time().is_some_and(|t| t <= c.now)) {
            return Ok(Status::NotReady);
        }
        for p in points {
            // A query never blocks on another OS process (a record of it behind a host function that does not
            // return): not ready until that record has run there.
            match p.wait_unless_stalled() {
                Err(()) => return Ok(Status::NotReady),
                Ok(Some(cycle)) => return Err(self.schedule_deadlock(c, what, p.exec.id, cycle)),
                Ok(None) => {}
            }
        }
        if let Some(first) = points.first() {
            self.observe(first.exec.id.device, points, Observe::Other)?;
        }
        self.state().acquire(&self.m, c.thread, points);
        Ok(Status::Complete)
    }
}

impl crate::engine::machine::Machine {
    /// A new simulated host process on this machine. It lives, with its streams, events and memory, until its
    /// last handle ([`Process`] and its clones, bindings) is dropped; then its streams' queued work still runs
    /// and their threads are released (`tests/suite/churn.rs`). Ids count up from 0; after id 4,095 (the most a
    /// handle can carry) the id of a process that is gone is given again, the next one after the last given.
    pub fn process(&self) -> Process {
        let mut procs = self.shared.processes.lock();
        let id = procs.next_id();
        let p = Arc::new(ProcShared::new(&self.shared, id));
        procs.push(Arc::downgrade(&p) as std::sync::Weak<dyn crate::engine::machine::Member>);
        Process::new(self.shared.clone(), p)
    }
}

impl crate::engine::machine::Member for ProcShared {
    fn id(&self) -> ProcessId {
        self.id
    }

    fn pump(&self, m: &Shared) {
        self.state.lock().pump(m);
    }

    fn dispatched_tails(&self, out: &mut Vec<(Arc<crate::engine::exec::point::StreamExec>, u64)>) {
        self.state.lock().dispatched_tails(out);
    }
}
