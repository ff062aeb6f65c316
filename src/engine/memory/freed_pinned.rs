//! Freed pinned host buffers, remembered as freed: `cudaFreeHost` / `aclrtFreeHost` memory is not ordinary host
//! memory afterwards. A later copy, memset or host access at such an address is refused as a use of freed
//! memory (sim; the vendors leave it undefined — on hardware the pages are unmapped) instead of being read or
//! written as pageable memory.
//!
//! Pinned buffers are real host memory from the global allocator, so remembering only the address range would
//! be wrong: once the bytes went back to the allocator, the program's next `malloc` could get the same address,
//! and a copy from that new, pageable buffer would then be refused. So a freed buffer keeps its bytes (the
//! address stays reserved, nothing else can be given it) for as long as it is remembered. That is bounded: at
//! most [`MAX_BYTES`] bytes in at most [`MAX_BUFFERS`] buffers; past that the oldest are forgotten (their
//! bytes go back to the allocator, and their addresses are then ordinary host memory again, as before this
//! record existed). A freed buffer larger than [`MAX_BYTES`] is not remembered at all.
//!
//! Lives under the machine's pinned-table lock (see `memory.rs`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::engine::memory::block::Block;

/// The most bytes of freed pinned buffers kept reserved (64 MiB).
pub(crate) const MAX_BYTES: u64 = 64 << 20;
/// The most freed pinned buffers remembered.
pub(crate) const MAX_BUFFERS: usize = 1 << 16;

/// The freed pinned buffers still reserved, by base address, and their order of freeing.
#[derive(Debug)]
pub(crate) struct FreedPinned {
    blocks: BTreeMap<u64, Arc<Block>>,
    /// Bases, oldest free first.
    order: VecDeque<u64>,
    /// Reserved bytes (each buffer counts at least 1: a 0-byte buffer holds one).
    bytes: u64,
    max_bytes: u64,
    max_buffers: usize,
}

impl Default for FreedPinned {
    fn default() -> Self {
        FreedPinned::with_limits(MAX_BYTES, MAX_BUFFERS)
    }
}

impl FreedPinned {
    /// A record keeping at most `max_bytes` bytes in `max_buffers` buffers.
    pub fn with_limits(max_bytes: u64, max_buffers: usize) -> FreedPinned {
        FreedPinned {
            blocks: BTreeMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            max_bytes,
            max_buffers,
        }
    }

    /// Remembers `block`, just freed, forgetting the oldest ones past the limits.
    pub fn keep(&mut self, block: Arc<Block>) {
        let size = block.len.max(1);
        if size > self.max_bytes || self.max_buffers == 0 {
            return;
        }
        self.bytes += size;
        self.order.push_back(block.base);
        self.blocks.insert(block.base, block);
        while self.bytes > self.max_bytes || self.blocks.len() > self.max_buffers {
            let oldest = self
                .order
                .pop_front()
                .expect("a kept block has its base in the order");
            let b = self
                .blocks
                .remove(&oldest)
                .expect("every base in the order names a kept block");
            self.bytes -= b.len.max(1);
        }
    }

    /// The remembered freed buffer that holds `addr`, if any.
    pub fn find(&self, addr: u64) -> Option<&Arc<Block>> {
        self.blocks
            .range(..=addr)
            .next_back()
            .map(|(_, b)| b)
            .filter(|b| addr < b.base + b.len.max(1))
    }

    /// How many buffers and bytes are kept.
    #[cfg(test)]
    pub fn kept(&self) -> (usize, u64) {
        (self.blocks.len(), self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::error::SimError;
    use crate::engine::core::handle::ProcessId;
    use crate::engine::core::pointers::{AddressSpace, HostPtr};
    use crate::engine::memory::Memory;

    const P: ProcessId = ProcessId(0);

    fn problem(r: crate::engine::core::error::Result<impl std::fmt::Debug>) -> &'static str {
        match r {
            Err(SimError::InvalidAddress { problem, .. }) => problem,
            other => panic!("{other:?}"),
        }
    }

    /// A freed pinned buffer is still classified as pinned memory — so a facade does not read it as pageable —
    /// and every use of it is "freed"; freeing it again is "already freed"; its bytes stay reserved, so no later
    /// pinned allocation gets its address while it is remembered.
    #[test]
    fn a_freed_pinned_buffer_is_remembered_as_freed() {
        let m = Memory::new(&[1 << 20]);
        let h = m.malloc_host(64, P, None).unwrap();
        m.free_host(h, P).unwrap();
        assert_eq!(m.classify(h.0), AddressSpace::PinnedHost);
        assert_eq!(m.classify(h.0 + 63), AddressSpace::PinnedHost);
        assert_eq!(m.classify(h.0 + 64), AddressSpace::PageableHost);
        assert_eq!(problem(m.pinned_region("memcpy", h, 8, P)), "freed");
        assert_eq!(
            problem(m.pinned_region("memcpy", h.offset(8), 8, P)),
            "freed"
        );
        assert_eq!(problem(m.free_host(h, P)), "already freed");
        assert_eq!(
            problem(m.free_host(h.offset(1), P)),
            "not a pinned allocation"
        );
        let later: Vec<HostPtr> = (0..64)
            .map(|_| m.malloc_host(64, P, None).unwrap())
            .collect();
        assert!(
            later.iter().all(|p| p.0 + 64 <= h.0 || p.0 >= h.0 + 64),
            "no new buffer overlaps the freed one"
        );
    }

    /// The record is bounded by bytes and by count: past either limit the oldest freed buffers are forgotten
    /// (and then are ordinary host memory again); a buffer larger than the byte limit is not kept at all.
    #[test]
    fn the_record_is_bounded() {
        let m = Memory::new(&[1 << 20]);
        let bufs: Vec<HostPtr> = (0..4)
            .map(|_| m.malloc_host(100, P, None).unwrap())
            .collect();
        {
            let mut p = m.pinned_for_tests();
            p.freed = FreedPinned::with_limits(250, 10);
        }
        for &b in &bufs {
            m.free_host(b, P).unwrap();
        }
        assert_eq!(
            m.pinned_for_tests().freed.kept(),
            (2, 200),
            "two of 100 bytes fit in 250"
        );
        assert_eq!(problem(m.free_host(bufs[3], P)), "already freed");
        assert_eq!(problem(m.free_host(bufs[2], P)), "already freed");
        assert_eq!(problem(m.free_host(bufs[0], P)), "not a pinned allocation");
        let mut f = FreedPinned::with_limits(1 << 20, 3);
        let big = Memory::new(&[1]);
        let blocks: Vec<_> = (0..5)
            .map(|_| {
                let h = big.malloc_host(8, P, None).unwrap();
                big.pinned_region("x", h, 8, P).unwrap().block
            })
            .collect();
        for b in &blocks {
            f.keep(b.clone());
        }
        assert_eq!(f.kept(), (3, 24));
        assert!(f.find(blocks[0].base).is_none() && f.find(blocks[4].base).is_some());
        let mut tiny = FreedPinned::with_limits(4, 3);
        tiny.keep(blocks[0].clone());
        assert_eq!(tiny.kept(), (0, 0), "larger than the byte limit: not kept");
        assert_eq!((MAX_BYTES, MAX_BUFFERS), (64 << 20, 65_536));
    }
}
