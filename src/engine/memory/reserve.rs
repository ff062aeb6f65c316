//! What the memory pools (`pool.rs`) need of a device's heap: address ranges reserved for a pool (its physical
//! allocations, "reserved memory": they count as used device memory), and the pool's allocations installed
//! as live blocks inside them — found by address like any allocation — and removed when a reservation is
//! released. A freed pool allocation stays a live block until its range is reused or released, so that a late
//! access to it is a use-after-free report rather than an unknown address.

use std::sync::Arc;

use super::{ALIGN, AddressSpace, Backing, Block, Memory, device_span, zeroed};
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::memory::block::{Chunk, Store};

impl Memory {
    /// Reserves `len` bytes (a multiple of [`ALIGN`]) of `device`'s memory and addresses for a pool owned by
    /// `owner`, with their zeroed bytes; returns the range's base. Addresses are chosen as `malloc` chooses
    /// them. [`SimError::OutOfMemory`] if the device's capacity, its address range or the host cannot hold it.
    pub fn reserve(&self, device: u32, len: u64, owner: ProcessId) -> Result<(u64, Arc<Chunk>)> {
        let mut heap = self.heaps[device as usize].lock();
        let (span_start, span_end) = device_span(device);
        let oom = |available| SimError::OutOfMemory {
            device,
            requested: len,
            available,
        };
        if len > heap.capacity - heap.used {
            return Err(oom(heap.capacity - heap.used));
        }
        let base = match heap.next.checked_add(len) {
            Some(end) if end <= span_end => Some(heap.next),
            _ => heap.gap(span_start, span_end, len),
        };
        let Some(base) = base else {
            return Err(oom(heap.largest_gap(span_start, span_end)));
        };
        let Some(bytes) = usize::try_from(len).ok().and_then(zeroed) else {
            return Err(oom(heap.capacity - heap.used));
        };
        heap.take_range(base, len);
        heap.used += len;
        heap.reserved.insert(base, (len, owner));
        Ok((base, Arc::new(Chunk::new(bytes))))
    }

    /// Releases a reservation made by [`Memory::reserve`]: its bytes are no longer used device memory, and
    /// the blocks still installed in it (freed pool allocations) are forgotten, remembered as freed.
    pub fn release(&self, device: u32, base: u64) {
        let mut heap = self.heaps[device as usize].lock();
        let Some((len, _)) = heap.reserved.remove(&base) else {
            return;
        };
        heap.used -= len;
        let gone: Vec<(u64, u64)> = heap
            .live
            .range(base..base + len)
            .map(|(&a, b)| (a, b.len))
            .collect();
        for (a, l) in gone {
            heap.live.remove(&a);
            heap.remember_freed(a, l, "freed");
        }
    }

    /// A new allocation of a pool: `bytes` bytes at `addr` (inside a reservation of `device`), backed by
    /// `chunk` at `offset`. It takes the device's next allocation number and replaces the blocks installed over
    /// its range (freed allocations whose memory it reuses).
    #[allow(clippy::too_many_arguments, reason = "one allocation, spelled out")]
    pub fn install(
        &self,
        device: u32,
        addr: u64,
        bytes: u64,
        owner: ProcessId,
        chunk: Arc<Chunk>,
        offset: u64,
    ) -> Arc<Block> {
        let mut heap = self.heaps[device as usize].lock();
        let end = addr + bytes.max(1).div_ceil(ALIGN) * ALIGN;
        let over: Vec<u64> = heap
            .live
            .range(..end)
            .rev()
            .take_while(|(_, b)| b.base + b.len.max(1) > addr)
            .map(|(&a, _)| a)
            .collect();
        for a in over {
            heap.live.remove(&a);
        }
        heap.allocated += 1;
        let block = Arc::new(Block {
            base: addr,
            len: bytes,
            owner,
            space: AddressSpace::Device(device),
            ordinal: heap.allocated,
            host: None,
            store: Store::with_init(
                Backing::Pool {
                    chunk,
                    offset: offset as usize,
                    len: bytes as usize,
                },
                bytes,
            ),
            store_off: 0,
            mapping: false,
        });
        heap.live.insert(addr, block.clone());
        block
    }

    /// Removes `block` (installed by [`Memory::install`]) from the live blocks, if it is still there (an
    /// allocation whose operation could not be enqueued).
    pub fn forget_block(&self, block: &Arc<Block>) {
        let AddressSpace::Device(device) = block.space else {
            return;
        };
        let mut heap = self.heaps[device as usize].lock();
        if heap
            .live
            .get(&block.base)
            .is_some_and(|b| Arc::ptr_eq(b, block))
        {
            heap.live.remove(&block.base);
        }
    }
}
