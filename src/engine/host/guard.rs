//! Mappings of shared-memory objects that a shrink cannot crash. Another process of the user can truncate a
//! shared object while this one maps it (a hostile process, a broken tool, an older streamsim build); touching
//! a mapped page past the object's new end raises SIGBUS, which would kill a process that was only waiting.
//! No check before each access can close that window (the object can shrink between the check and the load),
//! so the fault itself is handled: every mapping of a shared object is registered here, and a SIGBUS inside a
//! registered mapping replaces the whole mapping, in place, with private zero pages (`mmap` `MAP_FIXED`) and
//! marks it *cut off*; the faulting load or store then runs again on the zeros. From then on the process reads
//! zeros where the host was — wrong answers, never a crash: every value read from a segment is checked anyway
//! (`segment.rs`) — and the host's code asks [`cut_off`] to stop waiting and to refuse further IPC calls with a
//! clear error. A SIGBUS outside every registered mapping is not ours: the disposition found when the handler
//! was installed is restored (or its handler called), so the program's own handling, or the default crash,
//! is unchanged.
//!
//! The registry is a fixed table of atomics (a signal handler can neither lock nor allocate): [`SLOTS`]
//! mappings at once; a mapping that finds no free slot is refused (`Seg::map` fails with a message).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many shared mappings an OS process can have at once (a host's segment and one per exported or imported
/// allocation).
pub(crate) const SLOTS: usize = 2048;

struct Slot {
    base: AtomicUsize,
    len: AtomicUsize,
    hit: AtomicBool,
}

#[allow(
    clippy::declare_interior_mutable_const,
    reason = "only the initialiser of the static table below"
)]
const FREE: Slot = Slot {
    base: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    hit: AtomicBool::new(false),
};

static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

static PREVIOUS: OnceLock<crate::engine::core::signals::Previous> = OnceLock::new();
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Registers the mapping `base..base+len`: the slot to give back to [`unregister`], or `None` if the table is
/// full or the handler could not be installed.
pub(crate) fn register(base: *mut u8, len: usize) -> Option<usize> {
    if !*INSTALLED.get_or_init(install) {
        return None;
    }
    for (i, s) in TABLE.iter().enumerate() {
        if s.base
            .compare_exchange(0, base as usize, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            s.hit.store(false, Ordering::Release);
            s.len.store(len, Ordering::Release);
            return Some(i);
        }
    }
    None
}

/// Gives back slot `i` (before the mapping is unmapped).
pub(crate) fn unregister(i: usize) {
    let s = &TABLE[i];
    s.len.store(0, Ordering::Release);
    s.hit.store(false, Ordering::Release);
    s.base.store(0, Ordering::Release);
}

/// Whether the mapping of slot `i` was cut off (its object shrank under it: it now reads zeros).
pub(crate) fn cut_off(i: usize) -> bool {
    TABLE[i].hit.load(Ordering::Acquire)
}

fn install() -> bool {
    // The handler is async-signal-safe: it reads atomics, calls mmap (a system call) and sigaction, and never
    // allocates or locks.
    crate::engine::core::signals::install(libc::SIGBUS, on_sigbus, &PREVIOUS)
}

extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    for s in &TABLE {
        let base = s.base.load(Ordering::Acquire);
        let len = s.len.load(Ordering::Acquire);
        if base != 0 && addr >= base && addr - base < len {
            // SAFETY: replaces exactly the registered mapping (ours, still mapped: it is unregistered before it
            // is unmapped) with private zero pages at the same address.
            let p = unsafe {
                libc::mmap(
                    base as *mut libc::c_void,
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if p as usize == base {
                s.hit.store(true, Ordering::Release);
                return;
            }
            break;
        }
    }
    // Not ours (or the zero pages could not be mapped): what was there before us.
    crate::engine::core::signals::pass_on(&PREVIOUS, sig, info, ctx);
}
