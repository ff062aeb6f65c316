//! Bytes reserved in the host's address space and backed by zeroed pages only when touched: managed memory's
//! bytes. An anonymous private mapping with `MAP_NORESERVE`, so an allocation larger than the host's free
//! memory succeeds as the vendor's does (managed memory may oversubscribe the device), and only the pages the
//! program and the simulator touch take memory. It starts on a page boundary, as NVIDIA's allocations do.

use std::ptr::NonNull;

/// An owned anonymous mapping of `len` bytes (zeroed), unmapped on drop.
#[derive(Debug)]
pub(crate) struct LazyBytes {
    ptr: NonNull<u8>,
    len: usize,
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
        NonNull::new(p.cast::<u8>()).map(|ptr| LazyBytes { ptr, len })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` mapped, readable bytes, owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` is the only access through the simulator.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for LazyBytes {
    fn drop(&mut self) {
        // SAFETY: the mapping this value made, unmapped once.
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
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
        // 64 TiB of address space, none of it touched.
        let big = LazyBytes::new(64 << 40).expect("a reservation past the host's memory");
        assert_eq!(big.len(), 64 << 40);
        assert!(LazyBytes::new(usize::MAX).is_none());
    }
}
