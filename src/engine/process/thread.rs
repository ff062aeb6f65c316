//! The per-host-thread state of a process and how a runtime call runs: each OS thread keeps, in one
//! thread-local, its state in every process it has called (current device and context, virtual host clock,
//! last error) and whether it is a stream worker; [`Process::call`] reads and advances it once per call and
//! hands the body a [`Call`]. Also the last-error and sticky-error accessors.
//!
//! No lock here: the thread-local is borrowed only while a closure that touches nothing but the thread's own
//! state runs, never across the body of a call.
//!
//! # After a thread's locals are destroyed
//! A call can come after its thread's thread-locals are gone: from an `atexit` handler or a C++ global
//! destructor (which run after the main thread's thread-locals are destroyed), or from a C++ `thread_local`
//! destructor. Every read of the thread-local goes through [`with_local`], which never panics there:
//! - on the main thread, the thread's state was saved when its thread-local was destroyed, and its calls go on
//!   with it (the same current device or context, host clock, last error and thread ordinal);
//! - on another thread, the calls run as one more host thread of each process, fresh at its first such call
//!   (CUDA: device 0; ACL: no context), shared by every thread in that situation (sim: the vendors do not say
//!   what a call from a dying thread sees). The saved states are two statics behind a lock, taken only
//!   there.
//!
//! Sim: the real CUDA runtime may refuse such calls with `cudaErrorCudartUnloading` (4), "called during
//! process shut down, at a point in time after CUDA driver has been unloaded" (the `cudaError_t` reference;
//! OpenCV's stream destructors hit it, opencv/opencv#7816) — it depends on the order in which the driver and
//! the program are torn down. The simulator is never torn down before the program's own exit code has run,
//! so those calls work, with the answers they would get in `main`.

use std::cell::{Cell, RefCell};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

#[cfg(doc)]
use super::ProcState;
use super::{ProcShared, Process};
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::time::VirtualTime;
use crate::engine::exec::workers::on_worker_thread;
use crate::engine::observe::trace::FailedCall;

/// The per-host-thread state of one process.
pub(super) struct ThreadState {
    pub(super) ordinal: u32,
    pub(super) device: Option<u32>,
    pub(super) ctx: Option<u64>,
    clock: VirtualTime,
    last_error: Option<SimError>,
    /// The key the thread is known by for stream callbacks (see `report.rs`), once told.
    key: Option<u64>,
    /// The thread's stream-capture mode (`cudaThreadExchangeStreamCaptureMode`, see `graph/`).
    capture_mode: crate::engine::graph::CaptureMode,
}

struct TlsEntry {
    machine: u64,
    process: ProcessId,
    alive: Weak<ProcShared>,
    st: ThreadState,
}

impl Drop for TlsEntry {
    /// The thread has ended (or its process is gone): it is no longer live on the process's wait board.
    fn drop(&mut self) {
        if let Some(p) = self.alive.upgrade() {
            p.board.leave(self.st.ordinal);
        }
    }
}

/// Everything the simulator keeps per OS thread, in one thread-local (one access per call).
struct ThreadLocal {
    /// The per-process states of this thread; `last` is the index used last.
    entries: RefCell<Vec<TlsEntry>>,
    last: Cell<usize>,
}

thread_local! {
    static THREAD: ThreadLocal = const { ThreadLocal::new() };
}

impl ThreadLocal {
    const fn new() -> ThreadLocal {
        ThreadLocal {
            entries: RefCell::new(Vec::new()),
            last: Cell::new(0),
        }
    }
}

impl Drop for ThreadLocal {
    /// The main thread's states outlive its thread-locals (see the module documentation).
    fn drop(&mut self) {
        if is_main_thread() {
            let entries = std::mem::take(self.entries.get_mut());
            MAIN_AFTER_EXIT.lock().entries.get_mut().extend(entries);
        }
    }
}

/// The main thread's states once its thread-local is destroyed.
static MAIN_AFTER_EXIT: Mutex<ThreadLocal> = Mutex::new(ThreadLocal::new());
/// The states of the other threads whose thread-locals are destroyed (one host thread per process).
static OTHERS_AFTER_EXIT: Mutex<ThreadLocal> = Mutex::new(ThreadLocal::new());

/// Whether the calling thread is the process's main thread (the one that runs `main`, `atexit` handlers and
/// global destructors). Reads no thread-local, so it works while they are being destroyed.
pub(crate) fn is_main_thread() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and getpid take no arguments and cannot fail.
        let (tid, pid) = unsafe { (libc::syscall(libc::SYS_gettid), libc::getpid()) };
        tid == i64::from(pid)
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Runs `f` on the calling thread's [`ThreadLocal`], or, once it is destroyed, on what stands for it (see
/// the module documentation). Never panics for a destroyed thread-local.
fn with_local<R>(f: impl FnOnce(&ThreadLocal) -> R) -> R {
    let mut f = Some(f);
    match THREAD.try_with(|t| (f.take().expect("called once"))(t)) {
        Ok(r) => r,
        Err(_) => {
            let f = f.take().expect("not called: the thread-local is gone");
            let after = if is_main_thread() {
                &MAIN_AFTER_EXIT
            } else {
                &OTHERS_AFTER_EXIT
            };
            f(&after.lock())
        }
    }
}

/// One call in progress: who is calling, and at what virtual time.
pub(crate) struct Call {
    pub process: ProcessId,
    pub thread: u32,
    /// The thread's current device (`None`: ACL thread with no device set). ACL code should use
    /// [`ProcState::current`], which also checks that the context is still alive.
    pub device: Option<u32>,
    pub ctx: Option<u64>,
    /// The host clock at the call (after the call overhead).
    pub now: VirtualTime,
    /// The host clock when the call returns; blocking calls raise it.
    pub clock: VirtualTime,
}

impl Process {
    /// Runs `f` on the calling thread's state. A stream worker (running a kernel body or a host function) is
    /// not a host thread of the process: it gets a fresh state that is not kept, so that it never takes a
    /// thread ordinal — which would otherwise depend on when the worker happened to run.
    pub(super) fn with_thread<R>(&self, f: impl FnOnce(&mut ThreadState) -> R) -> R {
        if on_worker_thread() {
            let mut scratch = self.fresh_thread_state(u32::MAX);
            return f(&mut scratch);
        }
        with_local(|t| self.thread_state(t, f))
    }

    /// A host thread's state before its first call.
    fn fresh_thread_state(&self, ordinal: u32) -> ThreadState {
        ThreadState {
            ordinal,
            device: self.m.rules.implicit_device.then_some(0),
            ctx: None,
            clock: VirtualTime::ZERO,
            last_error: None,
            key: None,
            capture_mode: crate::engine::graph::CaptureMode::Global,
        }
    }

    /// This process's state for the calling thread (made on first use).
    #[inline]
    fn thread_state<R>(&self, t: &ThreadLocal, f: impl FnOnce(&mut ThreadState) -> R) -> R {
        let mut v = t.entries.borrow_mut();
        let last = t.last.get();
        let i = match v.get(last) {
            Some(e) if e.machine == self.p.machine && e.process == self.p.id => last,
            _ => self.find_thread_state(&mut v),
        };
        t.last.set(i);
        f(&mut v[i].st)
    }

    #[cold]
    fn find_thread_state(&self, t: &mut Vec<TlsEntry>) -> usize {
        let pos = t
            .iter()
            .position(|e| e.machine == self.p.machine && e.process == self.p.id);
        match pos {
            Some(i) => i,
            None => {
                t.retain(|e| e.alive.strong_count() > 0);
                let ordinal = self.p.next_thread.fetch_add(1, Ordering::Relaxed);
                self.p.board.join(ordinal);
                t.push(TlsEntry {
                    machine: self.p.machine,
                    process: self.p.id,
                    alive: Arc::downgrade(&self.p),
                    st: self.fresh_thread_state(ordinal),
                });
                t.len() - 1
            }
        }
    }

    /// Runs one runtime call: refuses it on a worker thread, advances the host clock by the call overhead,
    /// runs `f`, then stores the new clock and (on failure) the thread's last error.
    pub(crate) fn call<T>(
        &self,
        what: &'static str,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        self.call_with(what, true, f)
    }

    /// A call that works despite a sticky error (setting / resetting a device, reading state).
    pub(crate) fn call_unchecked<T>(
        &self,
        what: &'static str,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        self.call_with(what, false, f)
    }

    fn call_with<T>(
        &self,
        what: &'static str,
        sticky: bool,
        f: impl FnOnce(&mut Call) -> Result<T>,
    ) -> Result<T> {
        let api = self.m.hot.api_call_ns;
        let state = (!on_worker_thread()).then(|| {
            with_local(|t| {
                self.thread_state(t, |st| {
                    st.clock = st.clock.plus(api);
                    (st.ordinal, st.device, st.ctx, st.clock)
                })
            })
        });
        let Some((thread, device, ctx, now)) = state else {
            return Err(SimError::NotPermitted { what });
        };
        // Before anything else is touched: in a forked child, locks of the parent's threads may be held.
        if let Err(e) = self.m.check_usable(what) {
            self.with_thread(|st| st.last_error = Some(e.clone()));
            return Err(e);
        }
        // The serialize schedule's idle rule counts from the last call a host thread entered or left.
        if let Some(s) = &self.m.serial {
            s.host_active();
        }
        let mut c = Call {
            process: self.p.id,
            thread,
            device,
            ctx,
            now,
            clock: now,
        };
        // The host's loads and stores of managed memory since this thread's last call, at their place.
        if crate::engine::memory::watch::has_pending() {
            self.record_host_faults(&c);
        }
        // The vendors' sticky error: once a call has seen a kernel fault, every later call returns it (of the
        // process or on that device, as the dialect says).
        // A panic inside the simulator (a bug) may leave the machine half-updated (its locks are not poisoned):
        // the machine is marked broken, and this and every later call on it fail (`SimError::Broken`).
        let body = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.m.injected_panic(what);
            if sticky {
                self.check_sticky(device).and_then(|()| f(&mut c))
            } else {
                f(&mut c)
            }
        }));
        let r = body.unwrap_or_else(|p| {
            let message = format!("{what}: {}", crate::engine::exec::panic_message(p));
            let _ = self.m.broken.set(message.clone());
            Err(SimError::Broken { what, message })
        });
        if c.clock != now || r.is_err() {
            self.with_thread(|st| {
                st.clock = st.clock.max(c.clock);
                if let Err(e) = &r {
                    st.last_error = Some(e.clone());
                }
            });
            if let Err(e) = &r
                && self.m.trace_on
            {
                let f = FailedCall {
                    process: c.process,
                    thread,
                    call: what,
                    at: now,
                    error: e.clone(),
                };
                if let Some(hook) = &self.m.trace.hook {
                    (hook.0)(crate::engine::observe::trace_store::TraceRecord::Failed(&f));
                }
                self.m.failed_calls.lock().push(f);
            }
        }
        if let Some(s) = &self.m.serial {
            s.host_active();
        }
        r
    }

    /// The calling thread's ordinal, current device and context (does not advance the clock).
    pub(crate) fn thread_identity(&self) -> (u32, Option<u32>, Option<u64>) {
        self.with_thread(|st| (st.ordinal, st.device, st.ctx))
    }

    /// The calling thread's virtual host clock (does not advance it). Inside a kernel body or host function
    /// (not a host thread): zero.
    pub fn now(&self) -> VirtualTime {
        self.with_thread(|st| st.clock)
    }

    /// The calling host thread spends `d` outside the runtime — a `sleep`, host computation — and its virtual
    /// clock moves by `d` (saturating). Not a runtime call: nothing else changes. (Nothing sleeps in real time; a
    /// program that waits for the device by sleeping, as `std::this_thread::sleep_for` does on hardware, calls
    /// this instead.) Inside a kernel body or host function: nothing.
    pub fn host_sleep(&self, d: std::time::Duration) {
        let ns = crate::engine::core::time::saturating_nanos(d);
        if on_worker_thread() {
            return;
        }
        self.with_thread(|st| st.clock = st.clock.plus(ns));
    }

    /// The calling thread's current device, without advancing the clock: CUDA starts every thread on
    /// device 0; ACL threads have none until they set a device or a context (`None`). Inside a kernel body or
    /// host function: what a thread that has made no call has.
    pub fn current_device(&self) -> Option<u32> {
        self.with_thread(|st| st.device)
    }

    pub(crate) fn set_thread_current(&self, device: Option<u32>, ctx: Option<u64>) {
        self.with_thread(|st| {
            st.device = device;
            st.ctx = ctx;
        });
    }

    /// Notes that the calling thread is known by `key`; its ordinal if that is new (a stream worker: never).
    pub(crate) fn note_thread_key(&self, key: u64) -> Option<u32> {
        if on_worker_thread() {
            return None;
        }
        self.with_thread(|st| {
            (st.key != Some(key)).then(|| {
                st.key = Some(key);
                st.ordinal
            })
        })
    }

    /// The calling thread's last error, cleared (`cudaGetLastError`).
    pub fn take_last_error(&self) -> Option<SimError> {
        self.with_thread(|st| st.last_error.take())
    }

    /// Sets the calling thread's last error (for a facade's argument errors that never reach the core). Inside a
    /// kernel body or host function it is not kept (there is no host thread to keep it for).
    pub fn set_last_error(&self, e: SimError) {
        self.with_thread(|st| st.last_error = Some(e));
    }

    /// The sticky error a call of this thread would return, if a call has seen a kernel fault (of any device
    /// of the process, or of the current device, as the dialect's [`StickyScope`](crate::rules::StickyScope)
    /// says). Does not advance the clock.
    pub fn sticky_error(&self) -> Option<SimError> {
        self.check_sticky(self.current_device()).err()
    }

    /// The sticky error for a call whose current device is `device`.
    #[inline]
    fn check_sticky(&self, device: Option<u32>) -> Result<()> {
        match self.m.rules.sticky_scope {
            crate::engine::core::rules::StickyScope::Process => match self.p.watch.first() {
                Some(w) if w.any_in_process() => self.p.watch.iter().try_for_each(|w| w.check()),
                _ => Ok(()),
            },
            crate::engine::core::rules::StickyScope::Device => {
                match device.and_then(|d| self.p.watch.get(d as usize)) {
                    Some(w) => w.check(),
                    None => Ok(()),
                }
            }
            crate::engine::core::rules::StickyScope::None => Ok(()),
        }
    }

    /// The calling thread's capture mode (see [`crate::graph::CaptureMode`]).
    pub(crate) fn capture_mode(&self) -> crate::engine::graph::CaptureMode {
        self.with_thread(|st| st.capture_mode)
    }

    /// Sets the calling thread's capture mode; the one it had.
    pub(crate) fn swap_capture_mode(
        &self,
        mode: crate::engine::graph::CaptureMode,
    ) -> crate::engine::graph::CaptureMode {
        self.with_thread(|st| std::mem::replace(&mut st.capture_mode, mode))
    }

    /// The calling thread's last error, kept (`cudaPeekAtLastError`).
    pub fn peek_last_error(&self) -> Option<SimError> {
        self.with_thread(|st| st.last_error.clone())
    }
}
