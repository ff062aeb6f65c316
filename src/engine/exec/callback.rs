//! One launched stream callback ([`Callback`], ACL `aclrtLaunchCallback`): when its stream reaches it, when
//! its subscribed thread runs it, and whether it is finished. A blocking callback gates the points after it
//! (`Point::gates`); the subscriptions that run callbacks are in `callbacks/`.

use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use crate::engine::core::time::VirtualTime;
use crate::engine::exec::point::Point;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Enqueued; the stream has not reached it.
    Issued,
    /// The stream has reached it: due to its thread.
    Reached,
    /// Run, or never to run (its stream stopped before it, or the process is gone).
    Finished,
}

/// One launched callback.
pub(crate) struct Callback {
    /// The key of the thread that runs it.
    pub key: u64,
    pub blocking: bool,
    /// The point at which its operation ends (set once it is enqueued); its start is that minus `cost`.
    point: std::sync::OnceLock<Point>,
    cost: u64,
    /// The order in which callbacks were issued in the process (ties of start times).
    order: u64,
    phase: Mutex<Phase>,
    cv: Condvar,
    f: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl std::fmt::Debug for Callback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Callback")
            .field("key", &self.key)
            .field("blocking", &self.blocking)
            .field("phase", &*self.phase.lock())
            .finish()
    }
}

impl Callback {
    /// A callback for the thread `key`, the `order`-th its process issued, that runs `f` and occupies its stream
    /// for `cost` nanoseconds.
    pub fn new(
        key: u64,
        blocking: bool,
        cost: u64,
        order: u64,
        f: Box<dyn FnOnce() + Send>,
    ) -> Callback {
        Callback {
            key,
            blocking,
            point: std::sync::OnceLock::new(),
            cost,
            order,
            phase: Mutex::new(Phase::Issued),
            cv: Condvar::new(),
            f: Mutex::new(Some(f)),
        }
    }

    /// Fixes the point at which its operation ends, once it is enqueued (a second call changes nothing).
    pub fn set_point(&self, point: Point) {
        let _ = self.point.set(point);
    }

    /// The order in which its process issued it (ties of start times).
    pub fn order(&self) -> u64 {
        self.order
    }

    /// Its virtual start, once fixed.
    pub fn start(&self) -> Option<VirtualTime> {
        self.point
            .get()
            .and_then(Point::time)
            .map(|t| VirtualTime(t.0.saturating_sub(self.cost)))
    }

    /// Its virtual end (its start plus the time it occupies its stream), once fixed.
    pub fn end(&self) -> Option<VirtualTime> {
        self.point.get().and_then(Point::time)
    }

    /// The blocking callbacks its stream's earlier work waits for.
    pub fn gates(&self) -> Vec<Arc<Callback>> {
        self.point
            .get()
            .map(|p| p.gates().to_vec())
            .unwrap_or_default()
    }

    pub fn exec(&self) -> Option<&Arc<crate::engine::exec::point::StreamExec>> {
        self.point.get().map(|p| &p.exec)
    }

    /// Whether it has run, or will never run.
    pub fn is_finished(&self) -> bool {
        *self.phase.lock() == Phase::Finished
    }

    fn set(&self, p: Phase) {
        let mut g = self.phase.lock();
        if *g != Phase::Finished {
            *g = p;
        }
        self.cv.notify_all();
    }

    /// The worker has reached it: it is due to its thread; a blocking one holds the worker until it has run.
    pub fn reach(&self) {
        self.set(Phase::Reached);
        if self.blocking {
            let mut g = self.phase.lock();
            while *g != Phase::Finished {
                self.cv.wait(&mut g);
            }
        }
    }

    /// It will never run (its stream stopped before it, or nothing can run it any more).
    pub fn cancel(&self) {
        self.f.lock().take();
        self.set(Phase::Finished);
    }

    /// Blocks until the worker has reached it (or cancelled it); whether it can run.
    pub fn wait_reached(&self) -> bool {
        let mut g = self.phase.lock();
        while *g == Phase::Issued {
            self.cv.wait(&mut g);
        }
        *g == Phase::Reached
    }

    /// Runs it on the calling thread (a panic in it is contained), then releases its stream.
    pub fn run(&self) {
        if let Some(f) = self.f.lock().take() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        }
        self.set(Phase::Finished);
    }
}
