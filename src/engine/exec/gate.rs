//! Gates: what a wait operation enqueued before the record it waits for is held back by. A held wait (and
//! everything after it on its stream) keeps its place until its gate opens; then it gets the point to wait for
//! and its virtual times are fixed (see `process/stream.rs`, `HeldOp`).
//!
//! - [`Gate::Event`]: the next record of an event (ACL `aclrtStreamWaitEvent` on a never-recorded `ACL_EVENT_SYNC`
//!   event).
//! - [`Gate::Slot`]: a point handed over by a later call — the record a notify wait is paired with
//!   (`notify.rs`), the value write that satisfies a value wait (`value.rs`).
//!
//! A held wait with a timeout can be expired instead (`expire`): it is then dispatched as timed out, and its slot
//! is marked abandoned so that the call that would have handed it a point gives it to the next waiter.
//!
//! Lock order: an event's record state and a slot are leaves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

use crate::engine::events::state::EventState;
use crate::engine::exec::point::Point;

/// What a held wait waits for before its dependency is known.
#[derive(Clone)]
pub(crate) enum Gate {
    /// The next record of an event issued after generation `after`.
    Event {
        state: Arc<Mutex<EventState>>,
        after: u64,
    },
    /// A point handed over later.
    Slot(Arc<Slot>),
}

/// A point a later call hands to one held wait.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    point: OnceLock<Point>,
    abandoned: AtomicBool,
}

impl Slot {
    /// A new, empty slot.
    pub fn new() -> Arc<Slot> {
        Arc::new(Slot::default())
    }

    /// Hands `point` to the slot's wait; `false` if the wait no longer takes it (it timed out) or has one.
    pub fn fill(&self, point: Point) -> bool {
        !self.abandoned.load(Ordering::SeqCst) && self.point.set(point).is_ok()
    }

    /// Whether the slot's wait timed out before it got a point.
    pub fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::SeqCst)
    }
}

impl Gate {
    /// `None` while the gate is shut; once it is open, the point the wait then waits for (`Some(None)`: the record
    /// was reset meanwhile, nothing to wait for).
    pub fn open(&self) -> Option<Option<Point>> {
        match self {
            Gate::Event { state, after } => {
                let st = state.lock();
                (st.generation > *after).then(|| st.latest.clone())
            }
            Gate::Slot(slot) => slot.point.get().cloned().map(Some),
        }
    }

    /// The wait timed out: a slot is not to be filled any more.
    pub fn abandon(&self) {
        if let Gate::Slot(slot) = self {
            slot.abandoned.store(true, Ordering::SeqCst);
        }
    }
}
