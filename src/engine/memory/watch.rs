//! The host's own loads and stores of managed memory, seen while a kernel may still run
//! (`docs/semantics/sanitizer.md`, "Managed memory touched by the host while a kernel may still run").
//!
//! Each managed allocation made in the window (`lazy.rs`) is a `memfd` mapped twice: the *program's view* at
//! the window address, which host code dereferences, and an *alias* elsewhere, through which the simulator
//! reaches the bytes (copies, memsets, the resolver that serves CPU-run kernels). Every program's view is
//! registered here. When a tracked launch takes its place in the race detector's program order ([`arm`]),
//! every registered program's view becomes `PROT_NONE`; a host access then faults, and the `SIGSEGV` handler
//! notes the first byte (the fault's address; read or write from the page fault's error code, bit 1 of
//! `REG_ERR`), makes that page readable and writable again, and returns, so the access runs again and
//! succeeds. So the first access to each page after each tracked launch is seen; later accesses to the same
//! page before the next launch are not.
//!
//! The handler takes no lock and allocates nothing: the note goes into a fixed per-thread buffer
//! ([`PENDING`]), which the thread's next runtime call works off before it does anything else
//! ([`take_pending`]), recording each note as a host access at that place in the thread's program order —
//! the same place the access had, since the thread made no call in between. That is also why recording
//! cannot deadlock: it runs at the start of a call, with no simulator lock held, whatever the faulting code
//! held (the program's own locks, `malloc`'s).
//!
//! A fault that is not in a registered program's view (a guard page, any other address) is not ours: it goes
//! to the disposition found when the handler was installed, as `host/guard.rs` does (the handler for host
//! dereferences of device pointers, `facade/host_deref.rs`, chains the same way, whichever was installed
//! first).
//!
//! Fork: the two views are shared mappings, which a `fork` child would share with its parent. A
//! `pthread_atfork` child handler copies each program's view into a private anonymous mapping at the same
//! address (only the parts of the `memfd` that hold data, found with `SEEK_DATA` / `SEEK_HOLE`), so the child's
//! bytes are its own copy, as for every other mapping.

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

const PAGE: usize = 4096;

/// How many managed allocations can be watched at once (one file descriptor each); past that an allocation is
/// an ordinary private mapping, whose host accesses are not seen.
pub(crate) const SLOTS: usize = 1024;

struct Slot {
    /// The program's view (0: free).
    base: AtomicUsize,
    /// Its length in bytes (whole pages).
    len: AtomicUsize,
    /// The alias the simulator uses.
    alias: AtomicUsize,
    /// The `memfd`.
    fd: AtomicI32,
}

#[allow(
    clippy::declare_interior_mutable_const,
    reason = "only the initialiser of the static table below"
)]
const FREE: Slot = Slot {
    base: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    alias: AtomicUsize::new(0),
    fd: AtomicI32::new(-1),
};

static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

/// Whether some slot may be protected (a tracked launch armed them since the last fork).
static ARMED: AtomicBool = AtomicBool::new(false);

/// How many notes a thread keeps between two of its calls; past that, faults are not noted (the pages are
/// still unprotected).
const NOTES: usize = 64;
/// Bit 63 of a note: the access wrote.
const WRITE: u64 = 1 << 63;

thread_local! {
    /// This thread's notes of faulting accesses, not yet recorded (written by the signal handler: a const
    /// initialiser and no destructor, so reaching it takes no lock and allocates nothing).
    static PENDING: [Cell<u64>; NOTES] = const { [const { Cell::new(0) }; NOTES] };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

static PREVIOUS: OnceLock<crate::engine::core::signals::Previous> = OnceLock::new();
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Registers a program's view `base..base+len` with its alias and `memfd`: the slot to give to
/// [`unregister`], or `None` (the handler could not be installed, or the table is full).
pub(crate) fn register(base: *mut u8, len: usize, alias: *mut u8, fd: i32) -> Option<usize> {
    if !*INSTALLED.get_or_init(install) {
        return None;
    }
    for (i, s) in TABLE.iter().enumerate() {
        if s.base
            .compare_exchange(0, base as usize, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            s.alias.store(alias as usize, Ordering::Release);
            s.fd.store(fd, Ordering::Release);
            s.len.store(len, Ordering::Release);
            return Some(i);
        }
    }
    None
}

/// Gives back slot `i` (before its views are unmapped).
pub(crate) fn unregister(i: usize) {
    let s = &TABLE[i];
    s.len.store(0, Ordering::Release);
    s.fd.store(-1, Ordering::Release);
    s.alias.store(0, Ordering::Release);
    s.base.store(0, Ordering::Release);
}

/// Protects every registered program's view (a tracked launch took its place in program order): the host's
/// next access to each page faults and is noted.
pub(crate) fn arm() {
    let mut any = false;
    for s in &TABLE {
        let base = s.base.load(Ordering::Acquire);
        let len = s.len.load(Ordering::Acquire);
        if base != 0 && len != 0 {
            // SAFETY: a registered view of ours, still mapped (unregistered before it is unmapped).
            unsafe { libc::mprotect(base as *mut libc::c_void, len, libc::PROT_NONE) };
            any = true;
        }
    }
    if any {
        ARMED.store(true, Ordering::Release);
    }
}

/// The notes of this thread since its last call (and forgets them): (first byte, wrote).
pub(crate) fn take_pending() -> Vec<(u64, bool)> {
    let n = COUNT.with(Cell::get);
    if n == 0 {
        return Vec::new();
    }
    let notes = PENDING.with(|p| {
        p[..n.min(NOTES)]
            .iter()
            .map(|c| (c.get() & !WRITE, c.get() & WRITE != 0))
            .collect()
    });
    COUNT.with(|c| c.set(0));
    notes
}

/// Whether this thread has notes (one thread-local load: every call asks).
#[inline]
pub(crate) fn has_pending() -> bool {
    ARMED.load(Ordering::Relaxed) && COUNT.with(Cell::get) != 0
}

fn install() -> bool {
    // The handler is async-signal-safe: it reads atomics and a const-initialised thread local, calls mprotect
    // and sigaction, and never allocates or locks.
    if !crate::engine::core::signals::install(libc::SIGSEGV, on_sigsegv, &PREVIOUS) {
        return false;
    }
    // SAFETY: registers a fork handler, which calls mmap, mremap, lseek and memcpy only.
    unsafe { libc::pthread_atfork(None, None, Some(in_child)) };
    true
}

/// Whether the page fault described by `ctx` was a write (x86-64: bit 1 of the error code).
fn wrote(ctx: *mut libc::c_void) -> bool {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        if ctx.is_null() {
            return false;
        }
        // SAFETY: the kernel passes a valid ucontext for a SA_SIGINFO handler.
        let uc = unsafe { &*(ctx as *const libc::ucontext_t) };
        uc.uc_mcontext.gregs[libc::REG_ERR as usize] & 2 != 0
    }
    #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
    {
        let _ = ctx;
        false
    }
}

extern "C" fn on_sigsegv(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
    let (addr, code) = unsafe { ((*info).si_addr() as usize, (*info).si_code) };
    // SEGV_ACCERR: a mapped page the protection refused (not in the libc crate).
    const SEGV_ACCERR: libc::c_int = 2;
    if code == SEGV_ACCERR {
        for s in &TABLE {
            let base = s.base.load(Ordering::Acquire);
            let len = s.len.load(Ordering::Acquire);
            if base == 0 || addr < base || addr - base >= len {
                continue;
            }
            let page = addr & !(PAGE - 1);
            let rw = libc::PROT_READ | libc::PROT_WRITE;
            // SAFETY: a page of a registered view of ours; failing (too many mappings once pages are split),
            // the whole view, which merges them again.
            let ok = unsafe {
                libc::mprotect(page as *mut libc::c_void, PAGE, rw) == 0
                    || libc::mprotect(base as *mut libc::c_void, len, rw) == 0
            };
            if ok {
                let note = addr as u64 | if wrote(ctx) { WRITE } else { 0 };
                let _ = COUNT.try_with(|c| {
                    let n = c.get();
                    if n < NOTES {
                        let _ = PENDING.try_with(|p| p[n].set(note));
                        c.set(n + 1);
                    }
                });
                return;
            }
            break;
        }
    }
    // Not ours: what was there before us.
    crate::engine::core::signals::pass_on(&PREVIOUS, sig, info, ctx);
}

/// The fork child's copy of every program's view: a private anonymous mapping at the same address holding
/// the same bytes (the data parts of the `memfd`, read through the alias, which the protection never covers).
/// A view that cannot be copied is left shared with the parent.
extern "C" fn in_child() {
    ARMED.store(false, Ordering::Release);
    for s in &TABLE {
        let base = s.base.load(Ordering::Acquire);
        let len = s.len.load(Ordering::Acquire);
        let alias = s.alias.load(Ordering::Acquire);
        let fd = s.fd.load(Ordering::Acquire);
        if base == 0 || len == 0 || alias == 0 || fd < 0 {
            continue;
        }
        // SAFETY: a fresh anonymous mapping; the copies stay inside it and inside the alias (both `len` bytes);
        // the move replaces exactly the registered view.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                continue;
            }
            let mut at: libc::off_t = 0;
            while (at as usize) < len {
                let data = libc::lseek(fd, at, libc::SEEK_DATA);
                if data < 0 || data as usize >= len {
                    break;
                }
                let hole = libc::lseek(fd, data, libc::SEEK_HOLE);
                let end = if hole < 0 {
                    len
                } else {
                    (hole as usize).min(len)
                };
                std::ptr::copy_nonoverlapping(
                    (alias + data as usize) as *const u8,
                    (p as usize + data as usize) as *mut u8,
                    end - data as usize,
                );
                at = end as libc::off_t;
            }
            let moved = libc::mremap(
                p,
                len,
                len,
                libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                base as *mut libc::c_void,
            );
            if moved as usize != base {
                libc::munmap(p, len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{arm, take_pending};
    use crate::engine::memory::lazy::LazyBytes;

    #[test]
    fn an_armed_view_notes_the_hosts_first_access_to_each_page_and_the_alias_is_never_protected() {
        let mut m = LazyBytes::managed(3 * 4096).expect("a managed mapping");
        let view = m.program_ptr();
        assert_ne!(view, m.as_ptr(), "watched: the simulator has an alias");
        m.as_mut_slice()[5] = 7;
        let _ = take_pending();
        arm();
        // The alias stays readable and writable while the view is protected.
        m.as_mut_slice()[4096] = 9;
        // SAFETY: bytes of the mapping above; the handler lifts the protection of each page it faults on.
        let (a, b) = unsafe {
            let a = std::ptr::read_volatile(view.add(5));
            std::ptr::write_volatile(view.add(4096 + 3), 1);
            // The same page again: no second note.
            let b = std::ptr::read_volatile(view.add(4096));
            (a, b)
        };
        assert_eq!((a, b), (7, 9));
        assert_eq!(
            take_pending(),
            vec![(view as u64 + 5, false), (view as u64 + 4096 + 3, true)]
        );
        assert_eq!(m.as_slice()[4096 + 3], 1, "one file under both views");
        assert!(take_pending().is_empty());
    }

    #[test]
    fn a_fork_child_gets_its_own_copy_of_the_bytes() {
        let mut m = LazyBytes::managed(2 * 4096).expect("a managed mapping");
        m.as_mut_slice()[4100] = 5;
        let view = m.program_ptr();
        // SAFETY: the child only reads and writes the mapping and exits (no lock, no allocation).
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            // SAFETY: the child's copy of the mapping.
            unsafe {
                let seen = std::ptr::read_volatile(view.add(4100));
                std::ptr::write_volatile(view.add(4100), 6);
                libc::_exit(if seen == 5 { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: waits for the child made above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{status}"
        );
        // SAFETY: the parent's mapping.
        assert_eq!(unsafe { std::ptr::read_volatile(view.add(4100)) }, 5);
        assert_eq!(m.as_slice()[4100], 5);
    }
}
