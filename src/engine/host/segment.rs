//! The shared segment's operating-system layer: the POSIX shared-memory object, its mapping, bounds-checked
//! atomic views of its words, the locks (open-file-description record locks, which the kernel drops when their
//! holder dies, and futex-based segment locks that steal from a dead holder) and futex waits.
//!
//! The segment is untrusted: another process of the same user may have written anything into it. Nothing read
//! from it becomes an offset without being checked against the fixed layout (`layout.rs`); every access goes
//! through [`Seg::u32`] / [`Seg::u64`], which check the offset against the mapping's length, so a malformed
//! segment can make an answer wrong, never make the process read or write outside the mapping.

use std::ffi::CString;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use super::layout::{E_GEN, E_USED, R_PRESENT, S_GEN, S_USED, S_WAKE, event, stream};

/// An open, mapped shared-memory object.
#[derive(Debug)]
pub(crate) struct Seg {
    base: *mut u8,
    len: usize,
    pub fd: i32,
    /// The mapping's slot in the SIGBUS guard (`guard.rs`), while mapped.
    guard: Option<usize>,
}

// SAFETY: the mapping is shared memory accessed only through atomics (`u32`, `u64`) and byte copies; the
// pointer itself is never handed out.
unsafe impl Send for Seg {}
// SAFETY: as above.
unsafe impl Sync for Seg {}

/// An OS error as text.
pub(crate) fn os_error(what: &str) -> String {
    format!("{what}: {}", std::io::Error::last_os_error())
}

impl Seg {
    /// Opens (creating it if needed, mode 0600) the shared-memory object `name` and checks that it belongs to
    /// this user and is private to them. The object is not mapped yet ([`Seg::map`]).
    pub fn open(name: &str, create: bool) -> Result<Seg, String> {
        let c = CString::new(name).map_err(|_| format!("{name:?} is not a valid name"))?;
        let flags = libc::O_RDWR | libc::O_CLOEXEC | if create { libc::O_CREAT } else { 0 };
        // SAFETY: a valid NUL-terminated name; the flags and mode are plain integers.
        let fd = unsafe { libc::shm_open(c.as_ptr(), flags, 0o600) };
        if fd < 0 {
            return Err(os_error(&format!("shm_open({name})")));
        }
        let seg = Seg {
            base: std::ptr::null_mut(),
            len: 0,
            fd,
            guard: None,
        };
        let st = seg.stat()?;
        // SAFETY: getuid cannot fail.
        let uid = unsafe { libc::getuid() };
        if st.st_uid != uid || st.st_mode & 0o077 != 0 {
            return Err(format!(
                "{name} belongs to uid {} with mode {:o}: not private to uid {uid}; refusing it",
                st.st_uid,
                st.st_mode & 0o7777
            ));
        }
        Ok(seg)
    }

    /// The object's status.
    pub fn stat(&self) -> Result<libc::stat, String> {
        // SAFETY: `st` is written by fstat before it is read; the fd is ours.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        if unsafe { libc::fstat(self.fd, &mut st) } != 0 {
            return Err(os_error("fstat"));
        }
        Ok(st)
    }

    /// Sets the object's size (new bytes read as zero).
    pub fn truncate(&self, len: usize) -> Result<(), String> {
        // SAFETY: our fd, a plain length.
        if unsafe { libc::ftruncate(self.fd, len as libc::off_t) } != 0 {
            return Err(os_error("ftruncate"));
        }
        Ok(())
    }

    /// Maps `len` bytes of the object (which must be at least that long: checked).
    pub fn map(&mut self, len: usize) -> Result<(), String> {
        let size = self.stat()?.st_size;
        if size < 0 || (size as u64) < len as u64 {
            return Err(format!(
                "the shared object has {size} bytes, fewer than the {len} of the layout"
            ));
        }
        // SAFETY: a fresh shared mapping of our fd; the kernel chooses the address.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.fd,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(os_error("mmap"));
        }
        // A shrink of the object under the mapping must not kill the process (`guard.rs`).
        let Some(slot) = super::guard::register(p.cast(), len) else {
            // SAFETY: the mapping just made, not handed out.
            unsafe { libc::munmap(p, len) };
            return Err(format!(
                "more than {} shared mappings in this OS process (or no SIGBUS guard)",
                super::guard::SLOTS
            ));
        };
        self.base = p.cast();
        self.len = len;
        self.guard = Some(slot);
        Ok(())
    }

    /// Whether the object shrank under the mapping, which now reads zeros (`guard.rs`).
    pub fn cut_off(&self) -> bool {
        self.guard.is_some_and(super::guard::cut_off)
    }

    /// The mapping's start and length (null and 0 when not mapped).
    pub fn raw(&self) -> (*mut u8, usize) {
        (self.base, self.len)
    }

    /// Removes the mapping (the object stays open).
    pub fn unmap(&mut self) {
        if let Some(slot) = self.guard.take() {
            super::guard::unregister(slot);
        }
        if !self.base.is_null() {
            // SAFETY: the mapping made by `map`, unmapped once; nothing borrows it (`&mut self`).
            unsafe { libc::munmap(self.base.cast(), self.len) };
            self.base = std::ptr::null_mut();
            self.len = 0;
        }
    }

    /// The 32-bit word at byte `off`. Panics (a bug: offsets come from the fixed layout) if it is not inside
    /// the mapping or not aligned.
    pub fn u32(&self, off: usize) -> &AtomicU32 {
        assert!(
            off.is_multiple_of(4) && off.checked_add(4).is_some_and(|e| e <= self.len),
            "segment offset {off} outside the {}-byte mapping",
            self.len
        );
        // SAFETY: in bounds and aligned (checked); the mapping lives as long as `self`.
        unsafe { &*self.base.add(off).cast::<AtomicU32>() }
    }

    /// The 64-bit word at byte `off` (checked as [`Seg::u32`]).
    pub fn u64(&self, off: usize) -> &AtomicU64 {
        assert!(
            off.is_multiple_of(8) && off.checked_add(8).is_some_and(|e| e <= self.len),
            "segment offset {off} outside the {}-byte mapping",
            self.len
        );
        // SAFETY: in bounds and aligned (checked); the mapping lives as long as `self`.
        unsafe { &*self.base.add(off).cast::<AtomicU64>() }
    }

    /// Writes `bytes` as 64-bit words from `off` (zero-padded to `cap` bytes).
    pub fn put_bytes(&self, off: usize, cap: usize, bytes: &[u8]) {
        for w in 0..cap / 8 {
            let mut word = [0u8; 8];
            for (i, b) in word.iter_mut().enumerate() {
                if let Some(&x) = bytes.get(w * 8 + i) {
                    *b = x;
                }
            }
            self.u64(off + w * 8)
                .store(u64::from_le_bytes(word), Ordering::Relaxed);
        }
    }

    /// Reads `len` bytes (at most `cap`) stored by [`Seg::put_bytes`].
    pub fn get_bytes(&self, off: usize, cap: usize, len: usize) -> Vec<u8> {
        let len = len.min(cap);
        let mut out = Vec::with_capacity(len);
        for w in 0..len.div_ceil(8) {
            out.extend_from_slice(&self.u64(off + w * 8).load(Ordering::Relaxed).to_le_bytes());
        }
        out.truncate(len);
        out
    }

    /// Takes (`F_WRLCK`) or releases (`F_UNLCK`) the record lock on byte `byte` of the object, held by this
    /// open file description until released or until the process dies. With `wait`, blocks until it is free.
    /// `false` if it is held elsewhere (without `wait`).
    pub fn record_lock(&self, byte: i64, kind: i32, wait: bool) -> Result<bool, String> {
        let mut fl = flock(byte, kind);
        let cmd = if wait {
            libc::F_OFD_SETLKW
        } else {
            libc::F_OFD_SETLK
        };
        loop {
            // SAFETY: our fd and a valid flock.
            let r = unsafe { libc::fcntl(self.fd, cmd, &mut fl) };
            if r == 0 {
                return Ok(true);
            }
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::EAGAIN) | Some(libc::EACCES) if !wait => return Ok(false),
                _ => {
                    return Err(format!(
                        "fcntl(F_OFD_SETLK{}): {e}",
                        if wait { "W" } else { "" }
                    ));
                }
            }
        }
    }

    /// Whether another open file description holds a record lock on byte `byte` (the kernel drops it when its
    /// holder dies, so a free byte means its owner is gone).
    pub fn record_locked_elsewhere(&self, byte: i64) -> bool {
        let mut fl = flock(byte, libc::F_WRLCK);
        // SAFETY: our fd and a valid flock.
        let r = unsafe { libc::fcntl(self.fd, libc::F_OFD_GETLK, &mut fl) };
        // An error leaves the answer "held": a live process is never taken for dead.
        r != 0 || fl.l_type != libc::F_UNLCK as libc::c_short
    }
}

impl Drop for Seg {
    fn drop(&mut self) {
        self.unmap();
        // SAFETY: our fd, closed once.
        unsafe { libc::close(self.fd) };
    }
}

fn flock(byte: i64, kind: i32) -> libc::flock {
    // SAFETY: a plain struct of integers; zero is a valid value for every field.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = kind as libc::c_short;
    fl.l_whence = libc::SEEK_SET as libc::c_short;
    fl.l_start = byte as libc::off_t;
    fl.l_len = 1;
    fl
}

/// Removes the shared-memory object `name` (an absent one is not an error).
pub(crate) fn unlink(name: &str) {
    if let Ok(c) = CString::new(name) {
        // SAFETY: a valid NUL-terminated name.
        unsafe { libc::shm_unlink(c.as_ptr()) };
    }
}

/// Sleeps on `word` while it holds `expected`, at most `timeout` (a futex on shared memory: not private).
/// `true` if the sleep lasted the whole timeout.
pub(crate) fn futex_wait(word: &AtomicU32, expected: u32, timeout: Duration) -> bool {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `word` is a valid, aligned u32 in a shared mapping; the timeout is a valid timespec. A spurious
    // return is harmless: every caller re-checks.
    let r = unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
            std::ptr::null::<u32>(),
            0u32,
        )
    };
    r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ETIMEDOUT)
}

/// Wakes every waiter on `word`.
pub(crate) fn futex_wake(word: &AtomicU32) {
    // SAFETY: `word` is a valid, aligned u32 in a shared mapping.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0u32,
        )
    };
}

/// A lock word in the segment: 0 free, otherwise the holder's member index + 1, with [`CONTENDED`] set when
/// someone sleeps on it. A waiter that finds the holder dead (`alive` says no) takes the lock over.
pub(crate) const CONTENDED: u32 = 1 << 31;

/// How many 5 ms sleeps on a lock word that keeps one value (nobody takes or releases it meanwhile) make it
/// corrupted rather than held: about 2 s of real time, where a real hold lasts microseconds (no lock word is
/// held across a blocking call).
pub(crate) const STUCK_SLEEPS: u32 = 400;

/// Takes the lock word `w` for member `me` (its index + 1 is stored). `alive(index)` tells whether a member
/// still lives. `Err(value)` if the word kept holding `value` for [`STUCK_SLEEPS`] sleeps while its holder
/// lives (or names this member, whose threads never hold a word that long): it is corrupted, and the caller
/// goes on without it (`HostLink::with_word`). A holder that died is taken over at once.
pub(crate) fn seg_lock(w: &AtomicU32, me: u32, alive: &dyn Fn(u32) -> bool) -> Result<(), u32> {
    let mine = me + 1;
    if w.compare_exchange(0, mine, Ordering::Acquire, Ordering::Relaxed)
        .is_ok()
    {
        return Ok(());
    }
    let mut spins = 0u32;
    // The value the word kept over consecutive timed-out sleeps, and how many.
    let mut stuck = (0u32, 0u32);
    loop {
        let v = w.load(Ordering::Relaxed);
        if v == 0 {
            if w.compare_exchange(0, mine | CONTENDED, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return Ok(());
            }
            continue;
        }
        if spins < 64 {
            spins += 1;
            std::hint::spin_loop();
            continue;
        }
        if v & CONTENDED == 0
            && w.compare_exchange(v, v | CONTENDED, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            continue;
        }
        let timed_out = futex_wait(w, v | CONTENDED, Duration::from_millis(5));
        let now = w.load(Ordering::Relaxed);
        // A release wakes the sleepers (the word is marked contended): only sleeps that time out on an
        // unchanged word count towards "corrupted".
        if timed_out && now == v | CONTENDED {
            stuck = if stuck.0 == now {
                (now, stuck.1 + 1)
            } else {
                (now, 1)
            };
            if stuck.1 >= STUCK_SLEEPS {
                return Err(now);
            }
        } else if !timed_out {
            stuck = (0, 0);
        }
        let holder = (now & !CONTENDED).wrapping_sub(1);
        if now != 0
            && now & !CONTENDED != mine
            && !alive(holder)
            && w.compare_exchange(now, mine | CONTENDED, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            // The holder died holding it: taken over.
            return Ok(());
        }
    }
}

/// Releases the lock word `w`.
pub(crate) fn seg_unlock(w: &AtomicU32) {
    if w.swap(0, Ordering::Release) & CONTENDED != 0 {
        futex_wake(w);
    }
}

/// A fresh random 64-bit value (the kernel's generator; the clock and the pid if it is unavailable). Used only
/// for a run's epoch and secret, never for anything a program's output depends on.
pub(crate) fn random_u64() -> u64 {
    let mut v = 0u64;
    // SAFETY: writes at most 8 bytes into `v`.
    let n = unsafe { libc::getrandom((&mut v as *mut u64).cast(), 8, 0) };
    if n != 8 {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        v = crate::engine::core::rng::mix(t ^ u64::from(std::process::id()) << 32);
    }
    v | 1
}

/// Frees event slot `e` (nobody holds it any more).
pub(crate) fn free_event_slot(seg: &Seg, e: u32) {
    seg.u32(event(e, E_USED)).store(0, Ordering::Release);
    seg.u32(event(e, E_GEN)).fetch_add(1, Ordering::AcqRel);
    seg.u32(event(e, R_PRESENT)).store(0, Ordering::Release);
}

/// Frees stream progress slot `s`: waiters on it see its generation change and stop waiting.
pub(crate) fn free_stream_slot(seg: &Seg, s: u32) {
    seg.u32(stream(s, S_USED)).store(0, Ordering::Release);
    seg.u32(stream(s, S_GEN)).fetch_add(1, Ordering::AcqRel);
    seg.u32(stream(s, S_WAKE)).fetch_add(1, Ordering::AcqRel);
    futex_wake(seg.u32(stream(s, S_WAKE)));
}
