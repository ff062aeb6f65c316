//! The process-wide pool of stream worker threads.
//!
//! Every live stream runs on a worker thread of its own (`exec.rs`). Threads are reused: when a stream's work
//! is drained (its stream was destroyed, or its machine dropped), its thread parks here and the next stream of
//! any machine of this OS process takes it, so creating and dropping machines in a loop (a property test)
//! spawns and joins no thread in the steady state. A parked thread sleeps on its own mailbox, costing no CPU;
//! it exits after [`IDLE`] without work, and at most [`MAX_PARKED`] threads wait at a time.
//!
//! A machine does not join threads: it waits for each of its streams' [`Done`], which the thread signals once
//! that stream's last operation has run and the thread no longer carries the machine's name.
//!
//! **Hand-off.** A destroyed stream's thread usually has a few operations left when the program creates its
//! next stream (a create/destroy loop outruns its workers), so waiting for it to park would not help and a new
//! thread would start each time. Instead a stream created when no thread is parked is handed to the thread of
//! a destroyed stream ([`retire`]) that is not inside an operation that can block (one with dependencies, a
//! body or a host function: [`may_block`]); that thread serves it as soon as its old stream is drained. A
//! thread about to enter such an operation first starts its hand-off elsewhere (a parked thread, another
//! retiring one, or a new thread), so a hand-off never waits behind work that might wait for it. The live
//! thread count follows the live streams (`tests/suite/churn.rs`).
//!
//! **Fork.** `fork` copies only the calling thread: in a child, no worker of the parent exists. A fork handler
//! ([`watch_forks`]) counts forks ([`fork_generation`]); a machine made before the fork refuses every call in
//! the child (`SimError::ForkedChild`), a wait for a stream of the parent returns at once there (nothing
//! would ever finish it), and the pool forgets the parent's parked and retiring threads, so that a machine
//! made in the child starts threads of its own: the child uses a pool of its own, never the parent's (whose
//! lock a thread of the parent may have held at the fork).
//!
//! Lock order: the pool's lock, then a stream's [`Handoff`]; both are taken for a few steps only. No operation
//! runs, and no other lock is taken, while either is held.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use crate::engine::exec::{OpReceiver, WorkerEnv, run_worker};

use crate::engine::exec::point::StreamExec;

/// How long a parked thread waits for a new stream before it exits.
pub(crate) const IDLE: Duration = Duration::from_secs(10);

/// The most threads parked at a time; a thread that finds the pool full exits.
pub(crate) const MAX_PARKED: usize = 256;

/// The name a parked thread carries (not any machine's prefix).
const IDLE_NAME: &str = "ss-idle";

/// What a worker thread is given: a stream's queue and what it needs to run it.
pub(crate) struct Assignment {
    pub rx: OpReceiver,
    pub env: WorkerEnv,
    /// The thread's name while it serves this stream (`ss<machine>-<process>`).
    pub name: String,
    pub done: Arc<Done>,
}

/// The end of one stream's service: signalled once the stream's last operation has run.
#[derive(Debug)]
pub(crate) struct Done {
    exec: Arc<StreamExec>,
    /// The fork generation the stream was made in (see the module doc, "Fork").
    generation: u32,
    finished: Mutex<bool>,
    cv: Condvar,
    /// The thread serving the stream (so that a machine dropped by one of its own workers does not wait for
    /// that worker).
    thread: Mutex<Option<ThreadMark>>,
}

impl Done {
    pub fn new(exec: Arc<StreamExec>) -> Done {
        Done {
            exec,
            generation: fork_generation(),
            finished: Mutex::new(false),
            cv: Condvar::new(),
            thread: Mutex::new(None),
        }
    }

    pub fn is_finished(&self) -> bool {
        *self.finished.lock()
    }

    /// Blocks until the stream's work is done, unless the caller is the thread doing it. A stream whose
    /// producer is gone and whose every operation has run is done already: its thread is let go without a
    /// wait (it notices the closed queue, renames itself and parks on its own; waking it and waiting for that
    /// would cost two thread switches per stream, most of a small machine's drop).
    pub fn wait(&self) {
        if self.exec.drained()
            || self.generation != fork_generation()
            || self
                .thread
                .lock()
                .is_some_and(|t| t == ThreadMark::current())
        {
            return;
        }
        let mut f = self.finished.lock();
        while !*f {
            self.cv.wait(&mut f);
        }
    }

    fn finish(&self) {
        *self.finished.lock() = true;
        self.cv.notify_all();
    }
}

/// A thread's identity, read without thread-locals (the last handle of a machine can be dropped by a C++
/// `thread_local` destructor, when `std::thread::current` panics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ThreadMark(
    #[cfg(target_os = "linux")] libc::pthread_t,
    #[cfg(not(target_os = "linux"))] std::thread::ThreadId,
);

impl ThreadMark {
    fn current() -> ThreadMark {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: pthread_self takes no arguments and cannot fail.
            ThreadMark(unsafe { libc::pthread_self() })
        }
        #[cfg(not(target_os = "linux"))]
        {
            ThreadMark(std::thread::current().id())
        }
    }
}

/// A parked thread: its mailbox, and the stack size it was made with.
struct Parked {
    id: u64,
    stack: Option<usize>,
    mailbox: SyncSender<Assignment>,
}

struct Pool {
    parked: Vec<Parked>,
    next_id: u64,
    /// Destroyed streams whose thread may still be serving them (see the module doc, "Hand-off").
    retiring: Vec<Weak<StreamExec>>,
}

// Never held across anything that blocks. A forked child uses its own (see [`pool`]).
static POOL: Mutex<Pool> = Mutex::new(Pool {
    parked: Vec::new(),
    next_id: 0,
    retiring: Vec::new(),
});

/// What the thread serving a stream can be handed (see the module doc, "Hand-off"); in [`StreamExec`].
#[derive(Default)]
pub(crate) struct Handoff {
    /// The stack size of the thread serving the stream.
    stack: Option<usize>,
    /// The thread is inside an operation that can block.
    blocking: bool,
    /// The thread is done with the stream (it took its next stream, parked or exited).
    finished: bool,
    /// The stream the thread serves once this one is drained.
    next: Option<Assignment>,
}

impl std::fmt::Debug for Handoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handoff")
            .field("blocking", &self.blocking)
            .field("finished", &self.finished)
            .field("next", &self.next.is_some())
            .finish()
    }
}

/// The stream `exec` was destroyed (its queue is closed): its thread may take the next stream created.
pub(crate) fn retire(exec: &Arc<StreamExec>) {
    if exec.handoff.lock().finished {
        return;
    }
    let mut p = pool();
    // Forget the streams whose threads are done, so that the list follows the retiring streams.
    if p.retiring.len() >= 64 && p.retiring.len().is_power_of_two() {
        p.retiring
            .retain(|w| w.upgrade().is_some_and(|e| !e.handoff.lock().finished));
    }
    p.retiring.push(Arc::downgrade(exec));
}

/// The thread serving `exec` is about to run an operation that can block: the stream handed to it, if any,
/// goes elsewhere (kept for later only if the host refuses a new thread).
pub(crate) fn may_block(exec: &StreamExec) {
    let next = {
        let mut h = exec.handoff.lock();
        h.blocking = true;
        h.next.take()
    };
    if let Some(a) = next {
        let stack = exec.handoff.lock().stack;
        // Not to another retiring stream: `a` may be followed by streams handed to it, and one of them could
        // be chosen, making a cycle of streams each waiting for the other's thread.
        if let Err(a) = start_on(a, stack, false) {
            exec.handoff.lock().next = Some(a);
        }
    }
}

/// The operation [`may_block`] announced has run.
pub(crate) fn blocked_no_more(exec: &StreamExec) {
    exec.handoff.lock().blocking = false;
}

/// Hands `a` to the thread of a retiring stream with the same stack size that can take it; gives it back if
/// there is none. Under the pool's lock.
fn hand_to_retiring(p: &mut Pool, a: Assignment, stack: Option<usize>) -> Option<Assignment> {
    let mut i = p.retiring.len();
    while i > 0 {
        i -= 1;
        let Some(exec) = p.retiring[i].upgrade() else {
            p.retiring.swap_remove(i);
            continue;
        };
        let mut h = exec.handoff.lock();
        if h.finished || h.next.is_some() {
            drop(h);
            p.retiring.swap_remove(i);
            continue;
        }
        if h.blocking || h.stack != stack {
            continue;
        }
        h.next = Some(a);
        drop(h);
        p.retiring.swap_remove(i);
        return None;
    }
    Some(a)
}

fn pool() -> parking_lot::MutexGuard<'static, Pool> {
    if fork_generation() == 0 {
        return POOL.lock();
    }
    // A forked child: a pool of its own (see the module doc, "Fork"). The parent's lists name threads that do
    // not exist here, and its lock may have been held by one of them (unlocking it could wake them).
    let mut at = CHILD_POOL.load(Ordering::Acquire);
    if at.is_null() {
        let fresh = Box::into_raw(Box::new(Mutex::new(Pool {
            parked: Vec::new(),
            next_id: 0,
            retiring: Vec::new(),
        })));
        at = match CHILD_POOL.compare_exchange(
            std::ptr::null_mut(),
            fresh,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => fresh,
            Err(other) => {
                // SAFETY: `fresh` was never shared.
                drop(unsafe { Box::from_raw(fresh) });
                other
            }
        };
    }
    // SAFETY: a pool once published is never freed (a child's pool is left behind by its own forks, never
    // dropped: a few bytes per fork).
    unsafe { &*at }.lock()
}

/// The pool of a forked child, made at its first use there; reset (not freed) by each fork.
static CHILD_POOL: std::sync::atomic::AtomicPtr<Mutex<Pool>> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// How many times this OS process's ancestors forked it since it started (0 in a process that was not forked
/// from a process running streamsim), once [`watch_forks`] ran.
static FORKS: AtomicU32 = AtomicU32::new(0);

/// The number of forks this OS process descends from (see [`FORKS`]).
pub(crate) fn fork_generation() -> u32 {
    FORKS.load(Ordering::SeqCst)
}

/// Installs the fork handlers, once (every machine build calls it, before any stream exists).
pub(crate) fn watch_forks() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        extern "C" fn child() {
            // Only atomic stores: the child may not take any lock a thread of the parent held at the fork.
            FORKS.fetch_add(1, Ordering::SeqCst);
            CHILD_POOL.store(std::ptr::null_mut(), Ordering::SeqCst);
        }
        ONCE.call_once(|| {
            // SAFETY: the handler is an `extern "C"` function that lives for the whole program; it only stores
            // to atomics (async-signal-safe, no allocation, no lock).
            unsafe {
                libc::pthread_atfork(None, None, Some(child));
            }
        });
    }
}

/// Starts serving a stream: on a parked thread with the same stack size if there is one, else on a new
/// thread. `Err` gives the assignment back if the host refuses a new thread.
/// Failing that, on the thread of a destroyed stream (see the module doc, "Hand-off").
pub(crate) fn start(a: Assignment, stack: Option<usize>) -> Result<(), Assignment> {
    start_on(a, stack, true)
}

/// [`start`], handing `a` to a retiring stream's thread only `if handoff`.
fn start_on(a: Assignment, stack: Option<usize>, handoff: bool) -> Result<(), Assignment> {
    a.env.exec.handoff.lock().stack = stack;
    let mut a = a;
    loop {
        let parked = {
            let mut p = pool();
            let at = p.parked.iter().rposition(|w| w.stack == stack);
            match at {
                Some(i) => Some(p.parked.swap_remove(i)),
                None if !handoff => None,
                None => match hand_to_retiring(&mut p, a, stack) {
                    None => return Ok(()),
                    Some(back) => {
                        a = back;
                        None
                    }
                },
            }
        };
        let Some(w) = parked else { break };
        // The thread waits on its mailbox until it takes itself out of the pool, which it can no longer do
        // (it is out already): the send finds it, unless it died (a bug in a kernel body's unwinding).
        match w.mailbox.send(a) {
            Ok(()) => return Ok(()),
            Err(e) => a = e.0,
        }
    }
    spawn(a, stack)
}

fn spawn(a: Assignment, stack: Option<usize>) -> Result<(), Assignment> {
    let (tx, rx) = sync_channel::<Assignment>(1);
    let slot = Arc::new(Mutex::new(Some(a)));
    let first = slot.clone();
    let mut builder = std::thread::Builder::new().name(IDLE_NAME.to_string());
    if let Some(bytes) = stack {
        builder = builder.stack_size(bytes);
    }
    match builder.spawn(move || serve(first, tx, rx, stack)) {
        Ok(_) => Ok(()),
        Err(_) => Err(slot
            .lock()
            .take()
            .expect("a thread that was never started did not take its assignment")),
    }
}

thread_local! {
    /// Whether this thread is a stream worker.
    static WORKER: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread is a stream worker (runtime calls from one are not permitted: they can only come
/// from inside a host function or kernel body). Works while thread-locals are destroyed (the flag has no
/// destructor).
pub(crate) fn on_worker_thread() -> bool {
    WORKER.try_with(Cell::get).unwrap_or(false)
}

/// Marks the calling thread as a stream worker.
pub(crate) fn mark_worker_thread() {
    let _ = WORKER.try_with(|w| w.set(true));
}

/// A worker thread's life: serve the first stream, then park and serve the next, until idle.
fn serve(
    first: Arc<Mutex<Option<Assignment>>>,
    mailbox: SyncSender<Assignment>,
    rx: Receiver<Assignment>,
    stack: Option<usize>,
) {
    mark_worker_thread();
    let mut job = first
        .lock()
        .take()
        .expect("a new worker thread starts with its assignment");
    drop(first);
    loop {
        *job.done.thread.lock() = Some(ThreadMark::current());
        set_name(&job.name);
        let exec = job.env.exec.clone();
        run_worker(job.rx, job.env);
        set_name(IDLE_NAME);
        job.done.finish();
        let id = {
            let mut p = pool();
            let next = {
                let mut h = exec.handoff.lock();
                h.finished = true;
                h.next.take()
            };
            drop(exec);
            if let Some(next) = next {
                // Handed a stream while draining this one: serve it without parking.
                drop(p);
                job = next;
                continue;
            }
            if p.parked.len() >= MAX_PARKED {
                return;
            }
            let id = p.next_id;
            p.next_id += 1;
            p.parked.push(Parked {
                id,
                stack,
                mailbox: mailbox.clone(),
            });
            id
        };
        job = match rx.recv_timeout(IDLE) {
            Ok(next) => next,
            Err(RecvTimeoutError::Timeout) => {
                let mut p = pool();
                if let Some(i) = p.parked.iter().position(|w| w.id == id) {
                    p.parked.swap_remove(i);
                    return;
                }
                // A stream took this thread between the timeout and the lock: its send is on its way.
                drop(p);
                match rx.recv() {
                    Ok(next) => next,
                    Err(_) => return,
                }
            }
            // Every sender is gone: the pool dropped this entry without sending (never happens: only `start`
            // takes entries, and it sends to them).
            Err(RecvTimeoutError::Disconnected) => return,
        };
    }
}

/// Names the calling thread (Linux: what `/proc/self/task/*/comm` and debuggers show); at most 15 bytes.
fn set_name(name: &str) {
    #[cfg(target_os = "linux")]
    {
        let mut bytes = [0u8; 16];
        let n = name.len().min(15);
        bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
        // SAFETY: PR_SET_NAME reads a NUL-terminated string of at most 16 bytes, which `bytes` is.
        unsafe {
            libc::prctl(libc::PR_SET_NAME, bytes.as_ptr() as libc::c_ulong, 0, 0, 0);
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = name;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_done_wait_returns_once_finished_and_at_once_on_its_own_thread() {
        let exec = Arc::new(StreamExec::new(
            crate::engine::core::handle::StreamId {
                process: crate::engine::core::handle::ProcessId(0),
                device: 0,
                kind: crate::engine::core::handle::StreamKind::Created(1),
            },
            None,
        ));
        let d = Arc::new(Done::new(exec));
        assert!(!d.is_finished());
        *d.thread.lock() = Some(ThreadMark::current());
        d.wait(); // its own thread: does not block
        let d2 = d.clone();
        let h = std::thread::spawn(move || d2.wait());
        d.finish();
        h.join().unwrap();
        assert!(d.is_finished());
    }
}
