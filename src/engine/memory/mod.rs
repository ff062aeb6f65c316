//! Device memory and pinned host memory.
//!
//! Device memory lives at virtual device addresses ([`DevicePtr`]) that can never alias host memory: device
//! `d`'s heap starts at `0x00D0_0000_0000_0000 + d << 40`, an address no host mapping can have on x86-64 or
//! AArch64, so a host dereference of a device pointer faults as on hardware. Addresses are not reused until a
//! device's 1 TiB range is used up, so a freed pointer is recognised as freed. Pinned host memory ([`HostPtr`], from `malloc_host`) is real host
//! memory that asynchronous copies read and write when they run on their stream; a freed pinned buffer is
//! remembered as freed, its bytes kept reserved, within a bound (`freed_pinned.rs`).
//!
//! Lock order: a heap's or the pinned table's lock is taken alone and released before any block lock; two
//! block locks (a copy between two blocks) are taken in the order of the `Block`s' own addresses in the
//! simulator's memory — unique for live blocks — never by their simulated base, which a freed block still in
//! use by a queued copy can share with a new block.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::ProcessId;
pub(crate) use crate::engine::memory::block::{Backing, Block, HostBlock, Region, Store};

pub(crate) mod block;
pub(crate) mod copies;
mod describe;
pub(crate) mod freed_pinned;
pub(crate) mod init;
pub(crate) mod lazy;
pub mod managed;
pub mod pitched;
mod reserve;
pub(crate) mod rows;
pub(crate) mod site;
pub(crate) mod watch;

/// The `problem` of an [`crate::SimError::InvalidAddress`] for memory that a device reset freed.
pub const FREED_BY_RESET: &str = "freed by a device reset";

const ALIGN: u64 = 256;

/// The addresses an allocation of `bytes` takes: its bytes rounded up to [`ALIGN`], then one more [`ALIGN`] of
/// guard that no other allocation takes, so that an access just past its end (a kernel's off-by-one) is outside
/// every allocation and faults, as compute-sanitizer's padding makes it (`docs/semantics/sanitizer.md`). The
/// guard takes addresses, not capacity. `None` if that overflows.
fn footprint(bytes: u64) -> Option<u64> {
    bytes
        .max(1)
        .div_ceil(ALIGN)
        .checked_add(1)?
        .checked_mul(ALIGN)
}

pub use crate::engine::core::pointers::DEVICE_ADDRESS_BASE;
#[cfg(test)]
use crate::engine::core::pointers::DEVICE_SPAN_SHIFT;
pub use crate::engine::core::pointers::{AddressSpace, DevicePtr, Dst, HostPtr, Src};
use crate::engine::core::pointers::{device_of, device_span};

struct Heap {
    capacity: u64,
    used: u64,
    next: u64,
    live: BTreeMap<u64, Arc<Block>>,
    allocated: u64,
    /// Freed allocations: start → (length, how they were freed, where). At most `freed_cap` of them: past
    /// that the lowest (oldest, while addresses are handed out in order) is forgotten, and a pointer into it is
    /// then "not allocated" rather than "freed" (the same vendor code, except memory freed by a device reset).
    freed: BTreeMap<u64, Freed>,
    freed_cap: usize,
    /// Address ranges memory pools hold (`memory/reserve.rs`): start → (length, owner). The pools' allocations
    /// are live blocks inside them.
    reserved: BTreeMap<u64, (u64, ProcessId)>,
    /// The ranges of `reserved` that are a graph allocation's addresses (`Memory::reserve_addresses`), with the
    /// allocation's bytes: they take no capacity.
    graph_addresses: BTreeMap<u64, u64>,
}

/// How many freed allocations a device's heap remembers (about 64 MiB at most).
const FREED_REMEMBERED: usize = 1 << 20;

/// A freed allocation a heap remembers.
#[derive(Debug, Clone, Copy)]
struct Freed {
    len: u64,
    /// How it was freed ("freed", "unmapped …", [`FREED_BY_RESET`]).
    how: &'static str,
    /// Where the program allocated it and where it freed it, when its build said (`site.rs`).
    alloc: Option<site::Site>,
    free: Option<site::Site>,
}

impl Heap {
    /// `[base, base + len)` is handed out again: later addresses start after it, and none of it is "freed".
    fn take_range(&mut self, base: u64, len: u64) {
        self.next = self.next.max(base + len);
        let stale: Vec<u64> = self
            .freed
            .range(base..base + len)
            .map(|(&a, _)| a)
            .collect();
        for a in stale {
            self.freed.remove(&a);
        }
    }

    /// Forgets the blocks installed in `[base, base + len)` (a released reservation's), remembered as freed.
    fn forget_range(&mut self, base: u64, len: u64) {
        let gone: Vec<u64> = self.live.range(base..base + len).map(|(&a, _)| a).collect();
        for a in gone {
            if let Some(b) = self.live.remove(&a) {
                self.remember_freed(&b, "freed");
            }
        }
    }

    /// Records a freed allocation (freed by the call this thread is in), forgetting the lowest one past the
    /// cap.
    fn remember_freed(&mut self, b: &Block, how: &'static str) {
        let freed = Freed {
            len: b.len,
            how,
            alloc: b.site,
            free: site::current(),
        };
        self.freed.insert(b.base, freed);
        if self.freed.len() > self.freed_cap {
            self.freed.pop_first();
        }
    }

    /// The free address ranges between `start` and `end` (live blocks take their length rounded up to the
    /// alignment), in address order.
    fn gaps(&self, start: u64, end: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut cursor = start;
        // Live blocks and pool reservations, in address order (a pool's blocks lie inside its reservations).
        let mut blocks = self
            .live
            .values()
            .map(|b| (b.base, footprint(b.len).unwrap_or(u64::MAX - b.base)))
            .peekable();
        let mut reserved = self.reserved.iter().map(|(&a, &(l, _))| (a, l)).peekable();
        let mut taken = std::iter::from_fn(move || match (blocks.peek(), reserved.peek()) {
            (Some(b), Some(r)) if r.0 < b.0 => reserved.next(),
            (Some(_), _) => blocks.next(),
            (None, _) => reserved.next(),
        });
        std::iter::from_fn(move || {
            loop {
                match taken.next() {
                    Some((base, len)) => {
                        let gap = (cursor, base);
                        cursor = cursor.max(base + len);
                        if gap.1 > gap.0 {
                            return Some(gap);
                        }
                    }
                    None if cursor < end => {
                        let gap = (cursor, end);
                        cursor = end;
                        return Some(gap);
                    }
                    None => return None,
                }
            }
        })
    }

    /// The lowest free range of `len` addresses between `start` and `end`.
    fn gap(&self, start: u64, end: u64, len: u64) -> Option<u64> {
        self.gaps(start, end)
            .find(|&(a, b)| b - a >= len)
            .map(|(a, _)| a)
    }

    /// The longest free range between `start` and `end`.
    fn largest_gap(&self, start: u64, end: u64) -> u64 {
        self.gaps(start, end).map(|(a, b)| b - a).max().unwrap_or(0)
    }
}

/// All memory of a machine: one heap per device and the table of pinned host buffers.
pub(crate) struct Memory {
    heaps: Vec<Mutex<Heap>>,
    pinned: Mutex<Pinned>,
    pinned_count: std::sync::atomic::AtomicU64,
    /// Which pinned blocks are managed memory, and what the runtime keeps about them (`managed.rs`).
    managed: managed::Managed,
}

/// The pinned host buffers: live ones by base, and the freed ones still remembered (`freed_pinned.rs`).
#[derive(Default)]
pub(crate) struct Pinned {
    live: BTreeMap<u64, Arc<Block>>,
    pub(crate) freed: crate::engine::memory::freed_pinned::FreedPinned,
}

/// Zeroed bytes from the host allocator, or `None` if it cannot provide them (never an abort: a huge request
/// is an ordinary out-of-memory error). Zeroed allocation is lazy on the systems we run on.
fn zeroed(n: usize) -> Option<Box<[u8]>> {
    if n == 0 {
        return Some(Box::new([]));
    }
    let layout = std::alloc::Layout::array::<u8>(n).ok()?;
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[u8; n]`, and is zeroed.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) })
}

fn find(map: &BTreeMap<u64, Arc<Block>>, addr: u64) -> Option<&Arc<Block>> {
    map.range(..=addr)
        .next_back()
        .map(|(_, b)| b)
        .filter(|b| addr < b.base + b.len.max(1))
}

fn range_check(what: &'static str, block: &Arc<Block>, addr: u64, bytes: u64) -> Result<Region> {
    let offset = addr - block.base;
    if offset.checked_add(bytes).is_none_or(|end| end > block.len) {
        return Err(SimError::OutOfRange {
            what,
            addr,
            bytes,
            base: block.base,
            len: block.len,
        });
    }
    Ok(Region {
        block: block.clone(),
        offset,
        len: bytes,
    })
}

impl Memory {
    pub fn new(capacities: &[u64]) -> Memory {
        Memory {
            heaps: capacities
                .iter()
                .enumerate()
                .map(|(d, &capacity)| {
                    Mutex::new(Heap {
                        capacity,
                        used: 0,
                        next: device_span(d as u32).0,
                        live: BTreeMap::new(),
                        allocated: 0,
                        freed: BTreeMap::new(),
                        freed_cap: FREED_REMEMBERED,
                        reserved: BTreeMap::new(),
                        graph_addresses: BTreeMap::new(),
                    })
                })
                .collect(),
            pinned: Mutex::new(Pinned::default()),
            pinned_count: std::sync::atomic::AtomicU64::new(0),
            managed: managed::Managed::default(),
        }
    }

    /// Allocates `bytes` on `device`. Addresses are handed out in increasing order over the device's
    /// `DEVICE_SPAN_SHIFT`-bit (1 TiB) address range and not reused while any is left, so a freed pointer is
    /// recognised as freed for as long as possible; once the range is used up (by malloc/free cycles), the
    /// lowest free gap that fits is reused, as a real allocator would. Out of memory when the device's
    /// capacity or its address range cannot hold the block (`available` is then the most it could), or when
    /// the host cannot back it — never an abort.
    pub fn malloc(&self, device: u32, bytes: u64, owner: ProcessId) -> Result<DevicePtr> {
        let mut heap = self.heaps[device as usize].lock();
        let (span_start, span_end) = device_span(device);
        // The block's address range with its guard; `None` if that overflows.
        let len = footprint(bytes);
        let fits_capacity = bytes <= heap.capacity - heap.used;
        let base = match len {
            Some(len) if fits_capacity => match heap.next.checked_add(len) {
                Some(end) if end <= span_end => Some(heap.next),
                _ => heap.gap(span_start, span_end, len),
            },
            _ => None,
        };
        let (Some(base), Some(len), Ok(n)) = (base, len, usize::try_from(bytes)) else {
            let available = (heap.capacity - heap.used).min(heap.largest_gap(span_start, span_end));
            return Err(SimError::OutOfMemory {
                device,
                requested: bytes,
                available,
            });
        };
        let Some(data) = zeroed(n) else {
            return Err(SimError::OutOfMemory {
                device,
                requested: bytes,
                available: heap.capacity - heap.used,
            });
        };
        heap.take_range(base, len);
        heap.used += bytes;
        heap.allocated += 1;
        let block = Arc::new(Block {
            base,
            len: bytes,
            owner,
            space: AddressSpace::Device(device),
            ordinal: heap.allocated,
            host: None,
            store: Store::with_init(Backing::Owned(data), bytes),
            store_off: 0,
            mapping: false,
            site: site::current(),
        });
        heap.live.insert(base, block);
        Ok(DevicePtr(base))
    }

    pub fn free(&self, ptr: DevicePtr, owner: ProcessId) -> Result<()> {
        let what = EngineCall::Free.name();
        let Some(device) = self.heap_of(ptr.0) else {
            return Err(SimError::InvalidAddress {
                what,
                addr: ptr.0,
                space: AddressSpace::PageableHost,
                problem: "not a device address",
            });
        };
        let mut heap = self.heaps[device as usize].lock();
        let problem = match heap.live.get(&ptr.0) {
            Some(b) if b.pooled() => "memory of a memory pool (the pool frees it)",
            Some(b) if b.owner == owner && b.mapping => {
                "an IPC mapping, not an allocation: it is unmapped with its close call \
                 (cudaIpcCloseMemHandle, aclrtIpcMemClose)"
            }
            Some(b) if b.owner == owner => {
                let b = heap
                    .live
                    .remove(&ptr.0)
                    .expect("the block just found is still there: the heap lock is held");
                heap.used -= b.len;
                heap.remember_freed(&b, "freed");
                return Ok(());
            }
            Some(_) => "owned by another process",
            None if heap
                .freed
                .get(&ptr.0)
                .is_some_and(|f| f.how == FREED_BY_RESET) =>
            {
                FREED_BY_RESET
            }
            None if heap.freed.contains_key(&ptr.0) => "already freed",
            None if find(&heap.live, ptr.0).is_some() => "not the start of an allocation",
            None => "not allocated",
        };
        Err(SimError::InvalidAddress {
            what,
            addr: ptr.0,
            space: AddressSpace::Device(device),
            problem,
        })
    }

    /// Maps `len` bytes of `store` from `store_off` on into device `device`'s address range for `owner` (an IPC
    /// mapping of memory exported by another process): a new address, taking no capacity (the bytes are the
    /// exporter's). `ordinal` is the exported allocation's, so that race reports name the allocation.
    pub fn map(
        &self,
        device: u32,
        store: Arc<Store>,
        store_off: u64,
        len: u64,
        owner: ProcessId,
        ordinal: u64,
    ) -> Result<DevicePtr> {
        let mut heap = self.heaps[device as usize].lock();
        let (span_start, span_end) = device_span(device);
        let span = footprint(len).unwrap_or(u64::MAX);
        let base = match heap.next.checked_add(span) {
            Some(end) if end <= span_end => Some(heap.next),
            _ => heap.gap(span_start, span_end, span),
        };
        let Some(base) = base else {
            return Err(SimError::OutOfMemory {
                device,
                requested: len,
                available: heap.largest_gap(span_start, span_end),
            });
        };
        heap.take_range(base, span);
        heap.live.insert(
            base,
            Arc::new(Block {
                base,
                len,
                owner,
                space: AddressSpace::Device(device),
                ordinal,
                host: None,
                store,
                store_off,
                mapping: true,
                site: site::current(),
            }),
        );
        Ok(DevicePtr(base))
    }

    /// Removes the IPC mapping at `ptr` of `owner` (work already queued on it still sees its bytes).
    pub fn unmap(&self, ptr: DevicePtr, owner: ProcessId) -> bool {
        let Some(device) = self.heap_of(ptr.0) else {
            return false;
        };
        let mut heap = self.heaps[device as usize].lock();
        match heap.live.get(&ptr.0) {
            Some(b) if b.owner == owner && b.mapping => {
                let b = heap
                    .live
                    .remove(&ptr.0)
                    .expect("just found, under the lock");
                heap.remember_freed(&b, "unmapped (its IPC handle was closed)");
                true
            }
            _ => false,
        }
    }

    /// Frees every allocation of `owner` on `device` (device reset).
    pub fn free_all(&self, device: u32, owner: ProcessId) {
        let mut heap = self.heaps[device as usize].lock();
        let gone: Vec<u64> = heap
            .live
            .iter()
            .filter(|(_, b)| b.owner == owner)
            .map(|(&a, _)| a)
            .collect();
        for a in gone {
            let b = heap
                .live
                .remove(&a)
                .expect("the blocks just listed are still there: the heap lock is held");
            // A pool's blocks count in `used` through the pool's reservation (released below).
            if !b.pooled() {
                heap.used -= b.len;
            }
            heap.remember_freed(&b, FREED_BY_RESET);
        }
        // The pools' reservations go too (their blocks, owned by `owner`, went above and did not count in
        // `used`: a pool's reservation does).
        let pools: Vec<u64> = heap
            .reserved
            .iter()
            .filter(|(_, (_, o))| *o == owner)
            .map(|(&a, _)| a)
            .collect();
        for a in pools {
            let (len, _) = heap.reserved.remove(&a).expect("listed just above");
            if heap.graph_addresses.remove(&a).is_none() {
                heap.used -= len;
            }
        }
    }

    fn heap_of(&self, addr: u64) -> Option<u32> {
        device_of(addr).filter(|&d| (d as usize) < self.heaps.len())
    }

    /// The device region `[ptr, ptr + bytes)`, checked: live, owned by `owner`, in range.
    pub fn device_region(
        &self,
        what: &'static str,
        ptr: DevicePtr,
        bytes: u64,
        owner: ProcessId,
    ) -> Result<Region> {
        let Some(device) = self.heap_of(ptr.0) else {
            let (space, problem) = match device_of(ptr.0) {
                Some(d) => (
                    AddressSpace::Device(d),
                    "in the range of a device the machine does not have",
                ),
                None => (AddressSpace::PageableHost, "not a device address"),
            };
            return Err(SimError::InvalidAddress {
                what,
                addr: ptr.0,
                space,
                problem,
            });
        };
        let heap = self.heaps[device as usize].lock();
        let bad = |problem| SimError::InvalidAddress {
            what,
            addr: ptr.0,
            space: AddressSpace::Device(device),
            problem,
        };
        match find(&heap.live, ptr.0) {
            Some(b) if b.owner != owner => Err(bad("owned by another process")),
            Some(b) => range_check(what, b, ptr.0, bytes),
            None => {
                let freed = heap
                    .freed
                    .range(..=ptr.0)
                    .next_back()
                    .filter(|&(&a, f)| ptr.0 < a + f.len.max(1))
                    .map(|(_, f)| f.how);
                Err(bad(freed.unwrap_or("not allocated")))
            }
        }
    }

    pub fn malloc_host(
        &self,
        bytes: u64,
        owner: ProcessId,
        device: Option<u32>,
    ) -> Result<HostPtr> {
        let Ok(n) = usize::try_from(bytes) else {
            return Err(SimError::InvalidValue {
                what: EngineCall::MallocHost.name(),
                reason: format!("{bytes} bytes do not fit in host memory"),
            });
        };
        let Some(boxed) = zeroed(n.max(1)) else {
            return Err(SimError::HostOutOfMemory { requested: bytes });
        };
        let base = boxed.as_ptr() as u64;
        let block = Arc::new(Block {
            base,
            len: bytes,
            owner,
            space: AddressSpace::PinnedHost,
            ordinal: self
                .pinned_count
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                + 1,
            host: Some(HostBlock {
                device,
                registered: false,
            }),
            store: Store::new(Backing::Owned(boxed)),
            store_off: 0,
            mapping: false,
            site: site::current(),
        });
        self.pinned.lock().live.insert(base, block);
        Ok(HostPtr(base))
    }

    /// Frees a pinned buffer: it is remembered as freed (see `freed_pinned.rs`), so that its address is not
    /// taken for ordinary host memory afterwards. Work already queued on it still sees it.
    pub fn free_host(&self, ptr: HostPtr, owner: ProcessId) -> Result<()> {
        let mut pinned = self.pinned.lock();
        let problem = match pinned.live.get(&ptr.0) {
            Some(_) if self.is_managed_base(ptr.0) => {
                "managed memory: it is freed with cudaFree (a __managed__ variable is not freed)"
            }
            Some(b) if b.owner == owner && !b.host.is_some_and(|h| h.registered) => {
                let b = pinned
                    .live
                    .remove(&ptr.0)
                    .expect("the block just found is still there: the pinned lock is held");
                pinned.freed.keep(b);
                return Ok(());
            }
            Some(b) if b.owner != owner => "owned by another process",
            Some(_) => "registered host memory: unregister it (cudaHostUnregister) instead",
            None if pinned.freed.find(ptr.0).is_some_and(|b| b.base == ptr.0) => "already freed",
            None => "not a pinned allocation",
        };
        Err(SimError::InvalidAddress {
            what: EngineCall::FreeHost.name(),
            addr: ptr.0,
            space: AddressSpace::PinnedHost,
            problem,
        })
    }

    /// The pinned region `[ptr, ptr + bytes)`, checked.
    pub fn pinned_region(
        &self,
        what: &'static str,
        ptr: HostPtr,
        bytes: u64,
        owner: ProcessId,
    ) -> Result<Region> {
        let pinned = self.pinned.lock();
        let bad = |problem| SimError::InvalidAddress {
            what,
            addr: ptr.0,
            space: AddressSpace::PinnedHost,
            problem,
        };
        match find(&pinned.live, ptr.0) {
            Some(b) if b.owner != owner => Err(bad("owned by another process")),
            Some(b) => range_check(what, b, ptr.0, bytes),
            None if pinned.freed.find(ptr.0).is_some() => Err(bad("freed")),
            None => Err(bad("not a pinned allocation")),
        }
    }

    /// Which address space `addr` belongs to: a device's range (allocated or not, even of a device the machine
    /// does not have: such an address is never host memory), a pinned buffer — live, or freed and still
    /// remembered (using it is then refused as "freed") — or else pageable host memory. This is how a facade
    /// classifies a raw pointer.
    pub fn classify(&self, addr: u64) -> AddressSpace {
        if let Some(d) = device_of(addr) {
            return AddressSpace::Device(d);
        }
        let pinned = self.pinned.lock();
        if find(&pinned.live, addr).is_some() || pinned.freed.find(addr).is_some() {
            AddressSpace::PinnedHost
        } else {
            AddressSpace::PageableHost
        }
    }

    /// Registers `len` bytes of the program's host memory at `addr` as pinned (see `host_memory.rs`): from
    /// now on copies read and write it when they run, and race detection tracks it. Refused if the range
    /// overlaps a pinned block (registered or allocated) of any process.
    ///
    /// # Safety
    /// The range is host memory valid for reads and writes until it is unregistered.
    pub unsafe fn register_host(
        &self,
        addr: u64,
        len: u64,
        owner: ProcessId,
        device: Option<u32>,
    ) -> Result<()> {
        let what = "host_register";
        let end = addr.checked_add(len);
        let fits = len <= isize::MAX as u64 && end.is_some();
        if addr == 0 || len == 0 || !fits || device_of(addr).is_some() {
            return Err(SimError::InvalidValue {
                what,
                reason: format!("{len} bytes at {addr:#x} are not a host memory range"),
            });
        }
        let end = end.expect("checked above");
        if self.own_bytes_in(addr, end) {
            // Registering them would give the same bytes two blocks, each with its own lock.
            return Err(SimError::InvalidValue {
                what,
                reason: format!(
                    "{len} bytes at {addr:#x} overlap the bytes the simulator allocated for device memory: not \
                     memory of the program"
                ),
            });
        }
        let mut pinned = self.pinned.lock();
        // The last block starting before the end overlaps iff it ends after the start.
        let overlaps = pinned
            .live
            .range(..end)
            .next_back()
            .is_some_and(|(_, b)| b.base + b.len.max(1) > addr);
        if overlaps {
            return Err(SimError::HostMemory {
                what,
                addr,
                problem: crate::engine::core::error::HostMemoryProblem::AlreadyRegistered,
            });
        }
        let block = Arc::new(Block {
            base: addr,
            len,
            owner,
            space: AddressSpace::PinnedHost,
            ordinal: self
                .pinned_count
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                + 1,
            host: Some(HostBlock {
                device,
                registered: true,
            }),
            store: Store::new(Backing::Registered {
                ptr: addr as usize as *mut u8,
                len: len as usize,
            }),
            store_off: 0,
            mapping: false,
            site: site::current(),
        });
        pinned.live.insert(addr, block);
        Ok(())
    }

    /// Ends a registration: `addr` must be the start of a range `owner` registered. Operations still holding
    /// the range touch no memory afterwards.
    pub fn unregister_host(&self, addr: u64, owner: ProcessId) -> Result<()> {
        let mut pinned = self.pinned.lock();
        match pinned.live.get(&addr) {
            Some(b)
                if b.owner == owner
                    && b.host.is_some_and(|h| h.registered)
                    && !self.is_managed_base(addr) =>
            {
                let b = pinned
                    .live
                    .remove(&addr)
                    .expect("the block just found is still there: the pinned lock is held");
                drop(pinned);
                *b.bytes().lock() = Backing::Detached;
                Ok(())
            }
            _ => Err(SimError::HostMemory {
                what: EngineCall::HostUnregister.name(),
                addr,
                problem: crate::engine::core::error::HostMemoryProblem::NotRegistered,
            }),
        }
    }

    /// Whether host range `addr..end` overlaps the bytes the simulator owns for a live device allocation. Takes
    /// each heap's lock in turn (copying its blocks out), then each block's lock alone.
    fn own_bytes_in(&self, addr: u64, end: u64) -> bool {
        self.heaps.iter().any(|heap| {
            let blocks: Vec<Arc<Block>> = heap.lock().live.values().cloned().collect();
            blocks.iter().any(|b| {
                b.store.with_backing(|bytes| match bytes {
                    Backing::Owned(own) => {
                        let start = own.as_ptr() as u64;
                        start < end && addr < start + own.len() as u64
                    }
                    _ => false,
                })
            })
        })
    }

    /// Where the simulator keeps the byte of device address `addr` in its own memory, if it owns it (tests:
    /// `Machine::own_bytes_of`).
    pub fn own_byte_address(&self, addr: u64) -> Option<u64> {
        let b = self.block_at(addr)?;
        let at = b.store_off + (addr - b.base);
        b.store.with_backing(|bytes| match bytes {
            Backing::Owned(own) => Some(own.as_ptr() as u64 + at),
            _ => None,
        })
    }

    /// The live block holding `addr` (device memory of any device, or pinned host memory), if any.
    pub fn block_at(&self, addr: u64) -> Option<Arc<Block>> {
        match self.heap_of(addr) {
            Some(d) => find(&self.heaps[d as usize].lock().live, addr).cloned(),
            None => find(&self.pinned.lock().live, addr).cloned(),
        }
    }

    pub fn used(&self, device: u32) -> u64 {
        self.heaps[device as usize].lock().used
    }

    /// The pinned table (unit tests set small limits on the freed record).
    #[cfg(test)]
    pub(crate) fn pinned_for_tests(&self) -> parking_lot::MutexGuard<'_, Pinned> {
        self.pinned.lock()
    }
}

#[cfg(test)]
mod tests;
