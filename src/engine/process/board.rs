//! The wait board of a process: which of its host threads are live, and what the blocked ones wait for. A call
//! that must wait for something only another host thread can bring about — a record that has not been issued
//! (an ACL deferred wait), a callback that a subscribed thread has not processed — blocks here, as the vendor's
//! runtime would, while some other host thread of the process could still bring it about. When none can, the
//! board says so ([`Woken::Deadlock`]) and the call answers instead of hanging.
//!
//! The rule, and its limits:
//! - A host thread is *live* from its first call into the process until it ends (its thread-local state is
//!   dropped). A thread that has not made a call yet cannot be foreseen: a program whose recording thread starts
//!   calling only after another thread is already waiting gets the answer of a program without that thread.
//! - A live thread is *blocked* while it waits here for something not yet true; otherwise it is *runnable*,
//!   whatever it is doing (computing, sleeping, waiting on a lock of the program's own): the board cannot see
//!   outside the simulator, so a program that deadlocks on its own locks hangs, as on hardware.
//! - When every live thread of the process is blocked, nothing can change any more: the blocked calls are told
//!   ([`Woken::Deadlock`]), after the caller's resolver has had a chance to make progress (expiring timed waits).
//!   A single-threaded program therefore never blocks: its first wait that nothing could satisfy is answered
//!   at once, on every run.
//! - Stream callbacks name the thread that runs them by a key (`pthread_self()` through the ACL facade). A
//!   thread is known by its key from its first ACL call. A wait for a callback of a key that a program
//!   subscribed but no thread is known by yet expects that thread to come (the vendor's sample subscribes a
//!   thread it has just started): it blocks until the thread runs the callback, or ends without running it. So
//!   a callback for a key that is no thread's at all (a wrong id) blocks such a wait forever, as on the device.
//!
//! So the answer depends only on what the threads' calls do (program order per thread) and on which threads
//! have called the process — the same on every run of a program whose threads start calling before they wait
//! on each other.
//!
//! Lock order: a process's `state` lock may be held when the board's lock is taken (to notify); the board's lock
//! is never held while taking `state`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use crate::engine::core::time::VirtualTime;
use crate::engine::exec::callback::Callback;
use crate::engine::exec::point::Point;

/// What a blocked thread waits for.
#[derive(Clone)]
pub(crate) enum Want {
    /// Points whose virtual time is not fixed yet.
    Fixed(Vec<Point>),
    /// Blocking host callbacks to be run by their threads (`report.rs`).
    Callbacks(Vec<Arc<Callback>>),
    /// A callback becoming due to the waiting thread (`report.rs`; the condition reads only leaf locks).
    Due(Arc<dyn Fn() -> bool + Send + Sync>),
}

impl Want {
    fn ready(&self) -> bool {
        match self {
            Want::Fixed(points) => points.iter().all(|p| p.time().is_some()),
            Want::Callbacks(cbs) => cbs.iter().all(|cb| cb.is_finished()),
            Want::Due(f) => f(),
        }
    }
}

struct Blocked {
    want: Want,
    /// The call's own deadline (a synchronize with a timeout), for the resolver.
    deadline: Option<VirtualTime>,
    deadlocked: bool,
}

#[derive(Default)]
struct BoardState {
    live: BTreeSet<u32>,
    blocked: BTreeMap<u32, Blocked>,
    /// A thread is resolving a deadlock (the others wait for its verdict).
    resolving: bool,
    /// The key (e.g. `pthread_self()`) each live thread is known by, for stream callbacks.
    keys: BTreeMap<u64, u32>,
    /// Keys threads are subscribed with (`report.rs`), and those of them whose thread has ended.
    watched: BTreeSet<u64>,
    departed: BTreeSet<u64>,
    /// The threads a deadlock verdict was for (all blocked then), kept for each told thread until it takes
    /// them ([`WaitBoard::take_verdict`]), to name them in its error.
    verdicts: BTreeMap<u32, Vec<u32>>,
}

impl BoardState {
    /// Whether a blocked thread waits for a callback of a subscribed key no live thread is known by yet and whose
    /// thread has not ended: its thread may not have made its first call (the board then waits for it).
    fn awaits_unknown_key(&self) -> bool {
        self.blocked.values().any(|b| match &b.want {
            Want::Callbacks(cbs) => cbs.iter().any(|cb| {
                !cb.is_finished()
                    && !self.keys.contains_key(&cb.key)
                    && !self.departed.contains(&cb.key)
                    && self.watched.contains(&cb.key)
            }),
            _ => false,
        })
    }
}

/// How a wait on the board ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Woken {
    /// What the thread waited for is true.
    Ready,
    /// No live thread of the process can make it true.
    Deadlock,
}

/// One process's wait board.
#[derive(Default)]
pub(crate) struct WaitBoard {
    state: Mutex<BoardState>,
    cv: Condvar,
}

impl std::fmt::Debug for WaitBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let st = self.state.lock();
        f.debug_struct("WaitBoard")
            .field("live", &st.live)
            .field("blocked", &st.blocked.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl WaitBoard {
    /// Host thread `thread` has made its first call into the process.
    pub fn join(&self, thread: u32) {
        self.state.lock().live.insert(thread);
    }

    /// Host thread `thread` has ended.
    pub fn leave(&self, thread: u32) {
        let mut st = self.state.lock();
        st.live.remove(&thread);
        st.blocked.remove(&thread);
        st.verdicts.remove(&thread);
        let gone: Vec<u64> = st
            .keys
            .iter()
            .filter(|&(_, t)| *t == thread)
            .map(|(k, _)| *k)
            .collect();
        for k in gone {
            st.keys.remove(&k);
            if st.watched.contains(&k) {
                st.departed.insert(k);
            }
        }
        drop(st);
        self.cv.notify_all();
    }

    /// The threads (all blocked) of the deadlock verdict `thread` was told last, if any; forgotten here.
    pub fn take_verdict(&self, thread: u32) -> Option<Vec<u32>> {
        self.state.lock().verdicts.remove(&thread)
    }

    /// Host thread `thread` is known by `key` (the ACL facade passes `pthread_self()`).
    pub fn set_key(&self, thread: u32, key: u64) {
        let mut st = self.state.lock();
        if st.keys.get(&key) != Some(&thread) {
            st.keys.insert(key, thread);
            st.departed.remove(&key);
            drop(st);
            self.cv.notify_all();
        }
    }

    /// The live thread known by `key`, if any.
    pub fn thread_of_key(&self, key: u64) -> Option<u32> {
        self.state.lock().keys.get(&key).copied()
    }

    /// A thread is subscribed with `key`: until it has called, a wait for its callbacks expects it.
    pub fn watch_key(&self, key: u64) {
        self.state.lock().watched.insert(key);
    }

    /// No thread is subscribed with `key` any more.
    pub fn unwatch_key(&self, key: u64) {
        let mut st = self.state.lock();
        st.watched.remove(&key);
        st.departed.remove(&key);
    }

    /// Something a blocked thread may wait for has become true (a record issued, a callback run).
    pub fn notify(&self) {
        let _st = self.state.lock();
        self.cv.notify_all();
    }

    /// Blocks host thread `thread` until `want` is true, or until no live thread of the process could make it
    /// true. On a deadlock, `resolve` is called first (without the board's lock) with what every blocked thread
    /// waits for and its deadline; if it makes progress (returns `true`), the threads wait on.
    pub fn wait(
        &self,
        thread: u32,
        want: Want,
        deadline: Option<VirtualTime>,
        resolve: impl Fn(&[(Want, Option<VirtualTime>)]) -> bool,
    ) -> Woken {
        let mut st = self.state.lock();
        st.live.insert(thread);
        st.verdicts.remove(&thread);
        st.blocked.insert(
            thread,
            Blocked {
                want,
                deadline,
                deadlocked: false,
            },
        );
        let woken = loop {
            let me = &st.blocked[&thread];
            if me.want.ready() {
                break Woken::Ready;
            }
            if me.deadlocked {
                break Woken::Deadlock;
            }
            let stuck = !st.resolving
                && st
                    .live
                    .iter()
                    .all(|t| st.blocked.get(t).is_some_and(|b| !b.want.ready()))
                && !st.awaits_unknown_key();
            if stuck {
                st.resolving = true;
                let (threads, wants): (Vec<u32>, Vec<_>) = st
                    .blocked
                    .iter()
                    .map(|(t, b)| (*t, (b.want.clone(), b.deadline)))
                    .unzip();
                drop(st);
                let progress = resolve(&wants);
                st = self.state.lock();
                st.resolving = false;
                if !progress {
                    // The verdict is for the threads the resolver saw; one that blocked meanwhile checks again.
                    for t in &threads {
                        if let Some(b) = st.blocked.get_mut(t)
                            && !b.want.ready()
                        {
                            b.deadlocked = true;
                        }
                    }
                    for t in &threads {
                        if st.blocked.get(t).is_some_and(|b| b.deadlocked) {
                            st.verdicts.insert(*t, threads.clone());
                        }
                    }
                }
                self.cv.notify_all();
                continue;
            }
            self.cv.wait(&mut st);
        };
        st.blocked.remove(&thread);
        drop(st);
        // A thread that stops waiting may change what the others can count on.
        self.cv.notify_all();
        woken
    }
}
