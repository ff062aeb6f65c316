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
//! Lock order: the pool's lock is a leaf. No operation runs, and no other lock is taken, while it is held.

use std::cell::Cell;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use crate::engine::exec::{OpReceiver, StreamExec, WorkerEnv, run_worker};

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
}

// std's Mutex: `const`-constructible in a static, and never held across anything that blocks.
static POOL: StdMutex<Pool> = StdMutex::new(Pool {
    parked: Vec::new(),
    next_id: 0,
});

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    // A panic while the pool is locked cannot leave it inconsistent (each step is one Vec operation).
    POOL.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts serving a stream: on a parked thread with the same stack size if there is one, else on a new
/// thread. `Err` gives the assignment back if the host refuses a new thread.
pub(crate) fn start(a: Assignment, stack: Option<usize>) -> Result<(), Assignment> {
    let mut a = a;
    loop {
        let parked = {
            let mut p = pool();
            let at = p.parked.iter().rposition(|w| w.stack == stack);
            at.map(|i| p.parked.swap_remove(i))
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
        run_worker(job.rx, job.env);
        set_name(IDLE_NAME);
        job.done.finish();
        let id = {
            let mut p = pool();
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
