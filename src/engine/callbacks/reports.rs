//! The subscriptions of a process's threads to its streams' callbacks ([`Reports`]): the per-thread queues of
//! callbacks due. The calls are in `subscribed.rs`; a callback itself is `exec/callback.rs`.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::time::VirtualTime;
use crate::engine::exec::callback::Callback;

/// Where a stream's host callbacks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallbackRoute {
    /// Nowhere yet.
    None,
    /// Through the runtime's own thread: the stream has had a host function (`launch_host_func`).
    Runtime,
    /// To the thread subscribed with this key.
    Thread(u64),
}

/// The callbacks issued to one thread and not run yet, in issue order.
#[derive(Debug, Default)]
pub(crate) struct KeyQueue {
    pub(super) pending: Mutex<VecDeque<Arc<Callback>>>,
}

impl KeyQueue {
    /// Whether a callback is issued to the thread with a fixed start not after `horizon` (`None`: any).
    pub fn has_due(&self, horizon: Option<VirtualTime>) -> bool {
        self.pending.lock().iter().any(|cb| {
            !cb.is_finished() && cb.start().is_some_and(|s| horizon.is_none_or(|h| s <= h))
        })
    }

    /// The earliest due callback (by start, then issue order).
    pub(super) fn first_due(&self, horizon: Option<VirtualTime>) -> Option<Arc<Callback>> {
        let mut q = self.pending.lock();
        q.retain(|cb| !cb.is_finished());
        q.iter()
            .filter_map(|cb| cb.start().map(|s| (s, cb.order(), cb)))
            .filter(|(s, _, _)| horizon.is_none_or(|h| *s <= h))
            .min_by_key(|(s, o, _)| (*s, *o))
            .map(|(_, _, cb)| cb.clone())
    }
}

/// One subscribed thread key: its device, how many streams it is subscribed to, its callbacks.
pub(super) struct KeyState {
    pub(super) device: u32,
    pub(super) streams: usize,
    pub(super) queue: Arc<KeyQueue>,
}

/// A process's subscriptions.
#[derive(Default)]
pub(crate) struct Reports {
    pub(super) keys: BTreeMap<u64, KeyState>,
    pub(super) issued: u64,
}

impl Drop for Reports {
    /// The process is gone: no thread will run its callbacks; the workers waiting on blocking ones go on.
    fn drop(&mut self) {
        for k in self.keys.values() {
            for cb in k.queue.pending.lock().iter() {
                cb.cancel();
            }
        }
    }
}
