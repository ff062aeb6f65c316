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
        heap.forget_range(base, len);
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
            site: crate::engine::memory::site::current(),
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

/// What graph memory nodes (`graph/memory.rs`) need of a device's heap: an address range fixed when the
/// allocation node is made, which takes no capacity ("the allocation's address remains fixed across
/// instantiations and launches"), and the device memory behind it, taken when a launch first needs it and kept
/// for the graphs' allocator until `cudaDeviceGraphMemTrim` gives it back.
impl Memory {
    /// Reserves `len` addresses (a multiple of [`ALIGN`]) of `device` for a graph allocation of `bytes` bytes of
    /// `owner`, taking no capacity. [`SimError::OutOfMemory`] if the device's address range has no room for it.
    pub fn reserve_addresses(
        &self,
        device: u32,
        len: u64,
        bytes: u64,
        owner: ProcessId,
    ) -> Result<u64> {
        let mut heap = self.heaps[device as usize].lock();
        let (span_start, span_end) = device_span(device);
        let base = match heap.next.checked_add(len) {
            Some(end) if end <= span_end => Some(heap.next),
            _ => heap.gap(span_start, span_end, len),
        };
        let Some(base) = base else {
            return Err(SimError::OutOfMemory {
                device,
                requested: len,
                available: heap.largest_gap(span_start, span_end),
            });
        };
        heap.take_range(base, len);
        heap.reserved.insert(base, (len, owner));
        heap.graph_addresses.insert(base, bytes);
        Ok(base)
    }

    /// Releases addresses reserved by [`Memory::reserve_addresses`]; the blocks installed in them are forgotten,
    /// remembered as freed.
    pub fn release_addresses(&self, device: u32, base: u64) {
        let mut heap = self.heaps[device as usize].lock();
        if heap.graph_addresses.remove(&base).is_none() {
            return;
        }
        let Some((len, _)) = heap.reserved.remove(&base) else {
            return;
        };
        heap.forget_range(base, len);
    }

    /// If `[addr, addr + bytes)` lies inside a graph allocation's addresses: the device and the allocation's
    /// base. A node of a graph (captured or added) may name such memory whether or not it is live: it is resolved
    /// at each launch.
    pub fn graph_space(&self, addr: u64, bytes: u64) -> Option<(AddressSpace, u64)> {
        let device = self.heap_of(addr)?;
        let heap = self.heaps[device as usize].lock();
        let (&base, &len) = heap.graph_addresses.range(..=addr).next_back()?;
        (addr.checked_add(bytes.max(1))? <= base + len)
            .then_some((AddressSpace::Device(device), base))
    }

    /// `len` bytes of `device`'s memory (zeroed), counted as used until [`Memory::uncommit`].
    /// [`SimError::OutOfMemory`] if the device's capacity or the host cannot hold them.
    pub fn commit(&self, device: u32, len: u64) -> Result<Arc<Chunk>> {
        let mut heap = self.heaps[device as usize].lock();
        let available = heap.capacity - heap.used;
        let oom = SimError::OutOfMemory {
            device,
            requested: len,
            available,
        };
        if len > available {
            return Err(oom);
        }
        let Some(bytes) = usize::try_from(len).ok().and_then(zeroed) else {
            return Err(oom);
        };
        heap.used += len;
        Ok(Arc::new(Chunk::new(bytes)))
    }

    /// Gives back `len` bytes taken by [`Memory::commit`].
    pub fn uncommit(&self, device: u32, len: u64) {
        let mut heap = self.heaps[device as usize].lock();
        heap.used = heap.used.saturating_sub(len);
    }

    /// Puts `block` back among the live blocks (a graph launch that failed after installing its allocations
    /// restores the ones they replaced).
    pub fn put_back(&self, block: &Arc<Block>) {
        let AddressSpace::Device(device) = block.space else {
            return;
        };
        self.heaps[device as usize]
            .lock()
            .live
            .insert(block.base, block.clone());
    }
}
