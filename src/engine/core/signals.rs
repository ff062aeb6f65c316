//! The simulator's fault handlers (`host/guard.rs`'s SIGBUS, `memory/watch.rs`'s and `facade/host_deref.rs`'s
//! SIGSEGV) each handle only their own faults and pass every other one to the disposition that was there
//! before them: this is that shared part — installing a handler in front of what was there, and passing a
//! signal on to it (async-signal-safe: `sigaction` and plain calls only).

use std::sync::OnceLock;

/// The disposition of a signal before one of ours.
pub(crate) struct Previous(libc::sigaction);
// SAFETY: a plain struct of integers and a function address, written once before the handler is installed.
unsafe impl Sync for Previous {}
// SAFETY: as above.
unsafe impl Send for Previous {}

/// A three-argument (`SA_SIGINFO`) handler.
pub(crate) type Handler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

/// Installs `handler` for `sig` (`SA_SIGINFO | SA_ONSTACK`), keeping the disposition found in `previous`
/// first (so that the handler never runs without it). Whether it was installed.
pub(crate) fn install(sig: libc::c_int, handler: Handler, previous: &OnceLock<Previous>) -> bool {
    // SAFETY: zeroed is a valid `sigaction`; the calls get valid pointers.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
            return false;
        }
        let _ = previous.set(Previous(old));
        let mut new: libc::sigaction = std::mem::zeroed();
        new.sa_sigaction = handler as *const () as usize;
        new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut new.sa_mask);
        libc::sigaction(sig, &new, std::ptr::null_mut()) == 0
    }
}

/// Passes signal `sig` (not ours) to the disposition before ours: the default or ignore is restored (returning
/// re-runs the faulting access, which then gets it); a handler of the program's is called as the kernel would.
pub(crate) fn pass_on(
    previous: &OnceLock<Previous>,
    sig: libc::c_int,
    info: *mut libc::siginfo_t,
    ctx: *mut libc::c_void,
) {
    let Some(Previous(prev)) = previous.get() else {
        return;
    };
    let h = prev.sa_sigaction;
    if h == libc::SIG_DFL || h == libc::SIG_IGN {
        // SAFETY: restores the earlier disposition.
        unsafe { libc::sigaction(sig, prev, std::ptr::null_mut()) };
    } else if prev.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: the earlier three-argument handler, called as the kernel would have.
        let f: Handler = unsafe { std::mem::transmute(h) };
        f(sig, info, ctx);
    } else {
        // SAFETY: the earlier one-argument handler.
        let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(h) };
        f(sig);
    }
}
