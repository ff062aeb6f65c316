//! Faults, deterministically, in the three failure modes of `Rules::failure_mode` ([`FailureMode`]).
//!
//! **Sticky** (CUDA). A fault (a kernel body that failed or panicked) poisons its stream from that operation
//! on, and the poison travels along every happens-before edge: a stream that waits on a poisoned record point
//! (a stream wait, a legacy default-stream edge) is poisoned from that wait on. A host call sees a fault when it
//! observes a poisoned point — a synchronize that covers it, a query that finds it complete — and then latches
//! it as the device's sticky error, which later calls return until the device is reset: every call of the
//! process, as `Rules::sticky_scope` says. Kernel bodies and host functions of a poisoned stream do not run; its
//! CUDA stream callbacks do, and are given the fault (`cudaStreamAddCallback`: "all subsequently executed
//! callbacks will receive an appropriate cudaError_t").
//!
//! **Continue** (ACL's default). A fault stays with its stream and poisons nothing: later operations run. It is
//! reported once, by the next synchronize of the stream or of the device that covers it ([`Observe::Sync`]),
//! and forgotten then; other calls never see it.
//!
//! **Stop** (ACL `ACL_STOP_ON_FAILURE`, per context). A fault poisons its stream, and the poison travels along
//! happens-before edges to the streams of the same context; a poisoned stream runs none of its later
//! operations. An operation keeps the mode it was sent with: one sent in `Continue` that is ordered after the
//! fault is not stopped, but its stream's next operation in `Stop` is (`exec.rs`, the worker's latent fault).
//! Every synchronize or query that covers a poisoned point reports it, and the first one latches it on the
//! context, which then refuses new tasks (`process/`).
//!
//! So a fault is visible exactly to what is ordered after it, the same on every run; a call that is not ordered
//! after the fault (on hardware: a race with it) does not see it until something orders it. Nothing here ever
//! waits: the points involved were already waited for by the call or the worker.
//!
//! Lock order: `StreamExec::faults` and `DeviceWatch::sticky` are leaves.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::engine::core::error::SimError;
#[cfg(doc)]
use crate::engine::core::rules::FailureMode;
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::point::Point;

/// A fault of a stream at operation `seq` (ending at `time`). A sticky one poisons the stream from there on.
#[derive(Debug, Clone)]
pub(crate) struct StreamFault {
    pub seq: u64,
    pub time: VirtualTime,
    pub err: SimError,
    /// Whether it stays (modes `Sticky` and `Stop`) or is forgotten once reported (mode `Continue`).
    pub sticky: bool,
}

/// The sticky fault that `point` observes: its stream's, if the poison started at or before it.
pub(crate) fn fault_at(point: &Point) -> Option<StreamFault> {
    point.exec.fault().filter(|f| f.seq <= point.seq)
}

/// Which faults a call of the modes `Continue` and `Stop` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Observe {
    /// A synchronize of a stream or a device: every fault it covers, forgetting those of the mode `Continue`.
    Sync,
    /// Anything else (an event synchronize, a query, a synchronous copy): sticky faults only.
    Other,
}

/// The fault a call of the modes `Continue` and `Stop` reports for `points`: the earliest (by virtual time,
/// then stream) that they cover, with the context of its stream and whether it is sticky.
pub(crate) fn report(points: &[Point], observe: Observe) -> Option<(StreamFault, u64)> {
    let mut best: Option<(StreamFault, u64, crate::engine::core::handle::StreamId)> = None;
    for p in points {
        let take = observe == Observe::Sync;
        if let Some(f) = p.exec.report(p.seq, take, !take)
            && best
                .as_ref()
                .is_none_or(|(b, _, id)| (f.time, p.exec.id) < (b.time, *id))
        {
            best = Some((f, p.exec.ctx, p.exec.id));
        }
    }
    best.map(|(f, ctx, _)| (f, ctx))
}

/// The earliest fault (by virtual time, then stream) observed by any of `points`.
pub(crate) fn first_fault(points: &[Point]) -> Option<SimError> {
    points
        .iter()
        .filter_map(|p| fault_at(p).map(|f| (f.time, p.exec.id, f.err)))
        .min_by_key(|(t, s, _)| (*t, *s))
        .map(|(_, _, e)| e)
}

/// One device's sticky error in one process.
#[derive(Debug)]
pub(crate) struct DeviceWatch {
    sticky: Mutex<Option<SimError>>,
    latched: AtomicBool,
    /// How many of the process's devices have a sticky error (shared by its watches), so that a call checking
    /// every device of the process (CUDA) reads one counter while there is none.
    in_process: Arc<AtomicUsize>,
}

impl DeviceWatch {
    /// The watches of a process's `devices` devices.
    pub fn for_process(devices: u32) -> Vec<Arc<DeviceWatch>> {
        let in_process = Arc::new(AtomicUsize::new(0));
        (0..devices)
            .map(|_| {
                Arc::new(DeviceWatch {
                    sticky: Mutex::new(None),
                    latched: AtomicBool::new(false),
                    in_process: in_process.clone(),
                })
            })
            .collect()
    }

    /// Whether any device of the process has a sticky error (then check each).
    #[inline]
    pub fn any_in_process(&self) -> bool {
        self.in_process.load(Ordering::Acquire) > 0
    }

    /// The sticky error, if a call has seen a fault of this device.
    #[inline]
    pub fn check(&self) -> Result<(), SimError> {
        if !self.latched.load(Ordering::Acquire) {
            return Ok(());
        }
        self.sticky()
    }

    #[cold]
    fn sticky(&self) -> Result<(), SimError> {
        match self.sticky.lock().clone() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Makes `e` the sticky error (if there is none yet).
    pub fn latch(&self, e: &SimError) {
        let mut s = self.sticky.lock();
        if s.is_none() {
            *s = Some(e.clone());
            self.latched.store(true, Ordering::Release);
            self.in_process.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Latches and returns the first fault that `points` observe, if any.
    pub fn observe(&self, points: &[Point]) -> Result<(), SimError> {
        match first_fault(points) {
            Some(e) => {
                self.latch(&e);
                Err(e)
            }
            None => Ok(()),
        }
    }

    /// Forgets the sticky error (device reset).
    pub fn clear(&self) {
        let mut s = self.sticky.lock();
        if s.take().is_some() {
            self.latched.store(false, Ordering::Release);
            self.in_process.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The process-wide count behind [`DeviceWatch::any_in_process`] follows latches and clears: a second
    /// latch of one device does not count twice, and clearing a device that has none does not go below zero.
    #[test]
    fn the_process_count_follows_latches_and_clears() {
        let w = DeviceWatch::for_process(2);
        let e = SimError::NotPermitted { what: "test" };
        assert!(!w[0].any_in_process());
        w[1].latch(&e);
        w[1].latch(&e);
        assert!(w[0].any_in_process() && w[1].any_in_process());
        assert_eq!(w[0].check(), Ok(()));
        assert_eq!(w[1].check(), Err(e.clone()));
        w[0].latch(&e);
        w[1].clear();
        assert!(w[0].any_in_process(), "device 0 still has one");
        w[0].clear();
        w[0].clear();
        assert!(!w[1].any_in_process());
        assert_eq!(w[0].in_process.load(Ordering::Relaxed), 0);
    }
}
