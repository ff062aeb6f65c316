//! Bytes reserved in the host's address space and backed by zeroed pages only when touched: managed memory's
//! bytes. An anonymous private mapping with `MAP_NORESERVE`, so an allocation larger than the host's free
//! memory succeeds as the vendor's does (managed memory may oversubscribe the device), and only the pages the
//! program and the simulator touch take memory. It starts on a page boundary, as NVIDIA's allocations do.
//!
//! Managed allocations are made inside one reserved window of the address space ([`WINDOW_BASE`],
//! [`WINDOW_LEN`]), each followed by an unmapped guard page, so that the `streamsim cc` translator tells them
//! from the other host addresses with two compares and sends a kernel's accesses to them through the runtime's
//! resolver, as device memory's (checked by memcheck, their byte ranges tracked for the race detector). Where
//! the window cannot be reserved (the address range is taken), they are ordinary mappings, which kernels reach
//! unseen.
//!
//! A managed allocation in the window is a `memfd` mapped twice when it can be (`watch.rs`): the program's view
//! at the window address ([`LazyBytes::program_ptr`], the allocation's address) and an alias that the simulator
//! reaches the bytes through ([`LazyBytes::as_ptr`]), so that the program's view can be protected while a
//! kernel may run without kernels and copies ever faulting on it. Failing that (no descriptor, the watch's
//! table full) it is a private anonymous mapping, one view for both.

use std::collections::BTreeMap;
use std::ptr::NonNull;

use parking_lot::Mutex;

use crate::engine::memory::watch;

/// The start of the window managed allocations are made in (32 TiB: below where Linux loads position-independent
/// executables, about 0x55… and 0x56…, and puts mappings and stacks, 0x7f…; above a fixed-address executable's
/// segments and heap).
pub const WINDOW_BASE: u64 = 0x2000_0000_0000;
/// The window's length (16 TiB of address space, reserved without memory).
pub const WINDOW_LEN: u64 = 16 << 40;
const PAGE: u64 = 4096;

/// The window's free ranges (start → length), once it is reserved; `None` inside if it could not be.
static WINDOW: Mutex<Option<Option<BTreeMap<u64, u64>>>> = Mutex::new(None);

/// Takes `len` bytes (whole pages) of the window, first fit; `None` when it is not reserved or full.
fn window_take(len: u64) -> Option<u64> {
    let mut w = WINDOW.lock();
    let free = w.get_or_insert_with(|| {
        // SAFETY: a fresh reservation at an address nothing else maps (MAP_FIXED_NOREPLACE refuses otherwise).
        let p = unsafe {
            libc::mmap(
                WINDOW_BASE as *mut libc::c_void,
                WINDOW_LEN as usize,
                libc::PROT_NONE,
                libc::MAP_PRIVATE
                    | libc::MAP_ANONYMOUS
                    | libc::MAP_NORESERVE
                    | libc::MAP_FIXED_NOREPLACE,
                -1,
                0,
            )
        };
        if p as u64 == WINDOW_BASE {
            Some(BTreeMap::from([(WINDOW_BASE, WINDOW_LEN)]))
        } else {
            if p != libc::MAP_FAILED {
                // SAFETY: the mapping just made elsewhere (a kernel that ignores the flag).
                unsafe { libc::munmap(p, WINDOW_LEN as usize) };
            }
            None
        }
    });
    let free = free.as_mut()?;
    let (&start, &have) = free.iter().find(|&(_, &l)| l >= len)?;
    free.remove(&start);
    if have > len {
        free.insert(start + len, have - len);
    }
    Some(start)
}

/// Gives `[start, start + len)` back to the window, merged with its free neighbours.
fn window_give(start: u64, len: u64) {
    let mut w = WINDOW.lock();
    let Some(Some(free)) = w.as_mut() else {
        return;
    };
    let (mut start, mut len) = (start, len);
    if let Some((&s, &l)) = free.range(..start).next_back()
        && s + l == start
    {
        free.remove(&s);
        (start, len) = (s, l + len);
    }
    if let Some(l) = free.remove(&(start + len)) {
        len += l;
    }
    free.insert(start, len);
}

/// An owned anonymous mapping of `len` bytes (zeroed), unmapped on drop.
#[derive(Debug)]
pub(crate) struct LazyBytes {
    ptr: NonNull<u8>,
    len: usize,
    /// The window's bytes it holds (its pages and the guard page after them), if it is in the window.
    window: Option<u64>,
    /// A watched managed allocation (`watch.rs`): the alias the simulator reaches the bytes through (`ptr` is
    /// the program's view), the `memfd` both map, the watch's slot.
    alias: Option<(NonNull<u8>, i32, usize)>,
}

// SAFETY: the mapping is owned by this value alone; access goes through the block's lock (or, for a kernel run
// on the CPU, by raw pointer while the block is held, as for the other backings).
unsafe impl Send for LazyBytes {}

impl LazyBytes {
    /// Maps `len` bytes (at least one page); `None` when the address space cannot hold them.
    pub(crate) fn new(len: usize) -> Option<LazyBytes> {
        let len = len.max(1);
        // SAFETY: a fresh anonymous mapping; no existing memory is touched.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        NonNull::new(p.cast::<u8>()).map(|ptr| LazyBytes {
            ptr,
            len,
            window: None,
            alias: None,
        })
    }

    /// [`LazyBytes::new`] inside the managed window, followed by a guard page (an ordinary mapping if the
    /// window is not there or full).
    pub(crate) fn managed(len: usize) -> Option<LazyBytes> {
        let len = len.max(1);
        let span = (len as u64)
            .checked_next_multiple_of(PAGE)
            .and_then(|l| l.checked_add(PAGE))?;
        let Some(start) = window_take(span) else {
            return LazyBytes::new(len);
        };
        if let Some(watched) = Self::watched(start, len, span) {
            return Some(watched);
        }
        // SAFETY: pages of the window's reservation that this value now owns; replacing them maps zeroed pages.
        let p = unsafe {
            libc::mmap(
                start as *mut libc::c_void,
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if p as u64 != start {
            window_give(start, span);
            return LazyBytes::new(len);
        }
        NonNull::new(p.cast::<u8>()).map(|ptr| LazyBytes {
            ptr,
            len,
            window: Some(span),
            alias: None,
        })
    }

    /// `len` bytes at `start` of the window (which this value then owns, `span` bytes with the guard page) as a
    /// `memfd` mapped twice, the program's view there and an alias elsewhere, registered with the watch
    /// (`watch.rs`); `None` (nothing left mapped) if any step fails.
    fn watched(start: u64, len: usize, span: u64) -> Option<LazyBytes> {
        let pages = len.checked_next_multiple_of(PAGE as usize)?;
        // SAFETY: a new file descriptor, owned by this value from here on (closed on every failure path).
        let fd = unsafe { libc::memfd_create(c"streamsim-managed".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return None;
        }
        let close = |fd| {
            // SAFETY: the descriptor made above, closed once.
            unsafe { libc::close(fd) };
        };
        // SAFETY: sizing the file just made (sparse: no memory until pages are touched).
        if unsafe { libc::ftruncate(fd, pages as libc::off_t) } != 0 {
            close(fd);
            return None;
        }
        let rw = libc::PROT_READ | libc::PROT_WRITE;
        // SAFETY: the window's pages this value owns, replaced by the file's; the alias is a fresh mapping.
        let (view, alias) = unsafe {
            let view = libc::mmap(
                start as *mut libc::c_void,
                pages,
                rw,
                libc::MAP_SHARED | libc::MAP_NORESERVE | libc::MAP_FIXED,
                fd,
                0,
            );
            let alias = libc::mmap(
                std::ptr::null_mut(),
                pages,
                rw,
                libc::MAP_SHARED | libc::MAP_NORESERVE,
                fd,
                0,
            );
            (view, alias)
        };
        let undo = |alias: *mut libc::c_void| {
            if alias != libc::MAP_FAILED {
                // SAFETY: the alias made above.
                unsafe { libc::munmap(alias, pages) };
            }
            close(fd);
        };
        if view as u64 != start || alias == libc::MAP_FAILED {
            undo(alias);
            return None;
        }
        let Some(slot) = watch::register(view.cast(), pages, alias.cast(), fd) else {
            undo(alias);
            return None;
        };
        Some(LazyBytes {
            ptr: NonNull::new(view.cast())?,
            len,
            window: Some(span),
            alias: Some((NonNull::new(alias.cast())?, fd, slot)),
        })
    }

    /// Where the program sees the bytes (the window's address for managed memory): the allocation's address.
    pub(crate) fn program_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Where the simulator reaches the bytes: the alias of a watched allocation (never protected), else the
    /// program's view.
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        match self.alias {
            Some((a, _, _)) => a.as_ptr(),
            None => self.ptr.as_ptr(),
        }
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` mapped, readable bytes, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.len) }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` is the only access through the simulator.
        unsafe { std::slice::from_raw_parts_mut(self.as_ptr(), self.len) }
    }
}

impl Drop for LazyBytes {
    fn drop(&mut self) {
        if let Some((alias, fd, slot)) = self.alias {
            watch::unregister(slot);
            let pages = self.len.next_multiple_of(PAGE as usize);
            // SAFETY: the alias and descriptor this value made, released once (the program's view is replaced
            // below).
            unsafe {
                libc::munmap(alias.as_ptr().cast(), pages);
                libc::close(fd);
            }
        }
        let Some(span) = self.window else {
            // SAFETY: the mapping this value made, unmapped once.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.len);
            }
            return;
        };
        // Back to the reservation (its pages dropped), then to the window's free ranges.
        // SAFETY: the window's pages this value owned.
        let p = unsafe {
            libc::mmap(
                self.ptr.as_ptr().cast(),
                span as usize,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if p != libc::MAP_FAILED {
            window_give(self.ptr.as_ptr() as u64, span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LazyBytes;

    #[test]
    fn a_mapping_is_zeroed_page_aligned_and_larger_than_memory_if_asked() {
        let mut m = LazyBytes::new(10).expect("a small mapping");
        assert_eq!(m.as_ptr() as usize % 4096, 0);
        assert_eq!(m.as_slice(), &[0u8; 10]);
        m.as_mut_slice()[9] = 7;
        assert_eq!(m.as_slice()[9], 7);
        // 4 TiB of address space, none of it touched: far past any host's memory, and small enough that the
        // managed window and other tests' reservations (in the same process, at once) leave room for it.
        let big = LazyBytes::new(4 << 40).expect("a reservation past the host's memory");
        assert_eq!(big.len(), 4 << 40);
        assert!(LazyBytes::new(usize::MAX).is_none());
    }

    #[test]
    fn managed_bytes_are_in_the_window_with_a_guard_page_and_their_range_is_reused() {
        let a = LazyBytes::managed(10).expect("a small managed mapping");
        let at = a.program_ptr() as u64;
        assert!((super::WINDOW_BASE..super::WINDOW_BASE + super::WINDOW_LEN).contains(&at));
        let b = LazyBytes::managed(4096).expect("another");
        assert_ne!(
            b.program_ptr() as u64,
            at + 4096,
            "a guard page between them"
        );
        drop(a);
        let c = LazyBytes::managed(5000).expect("a third");
        assert!(
            (super::WINDOW_BASE..super::WINDOW_BASE + super::WINDOW_LEN)
                .contains(&(c.program_ptr() as u64))
        );
        assert_eq!(c.as_slice(), &[0u8; 5000][..]);
        let big = LazyBytes::managed(8 << 40).expect("8 TiB of the window, none of it touched");
        assert_eq!(big.len(), 8 << 40);
    }
}
