//! Sticky faults, deterministically: a process's [`DeviceWatch`] for one device knows the operations that can
//! fault (kernels with a body, host functions) by their virtual end time, the faults that happened, and the
//! sticky error once a call has seen one.
//!
//! A fault becomes visible at its virtual time, not at whatever moment its worker happened to run: a call at
//! host time `now` first waits for every fallible operation of the device that ends by `now`, then reports the
//! earliest fault by `now` and latches it as the device's sticky error. A worker about to run a body or host
//! function starting at `t` likewise waits for the fallible operations that started before `t` and ended by
//! `t`, and skips its body if one of them faulted (two zero-length operations at the same instant count as
//! concurrent, so nothing waits on itself or on a twin).
//!
//! Lock order: `bodies`, `faults` and `sticky` are leaves, taken one at a time; nothing waits while holding one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::error::SimError;
use crate::exec::StreamExec;
use crate::handle::StreamId;
use crate::time::VirtualTime;

/// A fault recorded by a worker: the faulting operation's virtual (start, end), its stream, and the error.
pub(crate) type Fault = (Span, StreamId, SimError);

/// An operation's virtual (start, end).
pub(crate) type Span = (VirtualTime, VirtualTime);

type BodyKey = (VirtualTime, StreamId, u64);

/// One device's fallible operations, faults and sticky error in one process.
#[derive(Debug, Default)]
pub(crate) struct DeviceWatch {
    bodies: Mutex<BTreeMap<BodyKey, (VirtualTime, Arc<StreamExec>)>>,
    faults: Mutex<Vec<Fault>>,
    sticky: Mutex<Option<SimError>>,
    /// Fallible operations pending + faults + sticky: zero means calls need not look.
    active: AtomicUsize,
}

impl DeviceWatch {
    /// Whether a call must look (something can fault, or has).
    pub fn active(&self) -> bool {
        self.active.load(Ordering::SeqCst) > 0
    }

    /// Registers a fallible operation (at dispatch, when its end time is fixed).
    pub fn register(&self, (start, end): Span, stream: StreamId, seq: u64, exec: Arc<StreamExec>) {
        self.active.fetch_add(1, Ordering::SeqCst);
        self.bodies.lock().insert((end, stream, seq), (start, exec));
    }

    /// Unregisters a fallible operation once it has run (or been skipped).
    pub fn done(&self, end: VirtualTime, stream: StreamId, seq: u64) {
        if self.bodies.lock().remove(&(end, stream, seq)).is_some() {
            self.active.fetch_sub(1, Ordering::SeqCst);
        }
    }

    pub fn record_fault(&self, fault: Fault) {
        self.active.fetch_add(1, Ordering::SeqCst);
        self.faults.lock().push(fault);
    }

    /// Waits for every registered operation whose span is `due`.
    fn settle(&self, due: impl Fn(Span) -> bool) {
        let waits: Vec<(u64, Arc<StreamExec>)> = self
            .bodies
            .lock()
            .iter()
            .filter(|((end, _, _), (start, _))| due((*start, *end)))
            .map(|((_, _, seq), (_, exec))| (*seq, exec.clone()))
            .collect();
        for (seq, exec) in waits {
            exec.wait_for(seq);
        }
    }

    /// The earliest fault for which `due` holds (by time, then stream).
    fn first_fault(&self, due: impl Fn(Span) -> bool) -> Option<SimError> {
        self.faults
            .lock()
            .iter()
            .filter(|(span, _, _)| due(*span))
            .min_by_key(|((_, end), s, _)| (*end, *s))
            .map(|(_, _, e)| e.clone())
    }

    /// (worker) Whether an operation starting at `start` must skip its body: a fallible operation that
    /// started earlier and ended by then faulted.
    pub fn faulted_before(&self, start: VirtualTime) -> bool {
        let before = |(s, e): Span| e <= start && s < start;
        self.settle(before);
        self.first_fault(before).is_some()
    }

    /// (host) The sticky error as of host time `now`: waits for the fallible operations ending by `now`,
    /// latches the earliest fault by then.
    pub fn check(&self, now: VirtualTime) -> Result<(), SimError> {
        if let Some(e) = self.sticky.lock().clone() {
            return Err(e);
        }
        self.settle(|(_, end)| end <= now);
        match self.first_fault(|(_, end)| end <= now) {
            Some(e) => {
                self.latch(&e);
                Err(e)
            }
            None => Ok(()),
        }
    }

    /// Makes `e` the sticky error (if there is none yet).
    pub fn latch(&self, e: &SimError) {
        let mut s = self.sticky.lock();
        if s.is_none() {
            *s = Some(e.clone());
            self.active.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Forgets faults and the sticky error (device reset). Fallible operations still pending stay registered.
    pub fn clear(&self) {
        let mut faults = self.faults.lock();
        let mut sticky = self.sticky.lock();
        let n = faults.len() + usize::from(sticky.is_some());
        faults.clear();
        *sticky = None;
        self.active.fetch_sub(n, Ordering::SeqCst);
    }
}
