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

pub(crate) use crate::engine::block::{Backing, Block, HostBlock, Region, Store};
use crate::engine::error::{Result, SimError};
use crate::engine::handle::ProcessId;

mod reserve;

/// The `problem` of an [`crate::SimError::InvalidAddress`] for memory that a device reset freed.
pub const FREED_BY_RESET: &str = "freed by a device reset";

/// Where device `0`'s addresses start.
pub const DEVICE_ADDRESS_BASE: u64 = 0x00D0_0000_0000_0000;
const DEVICE_SPAN_SHIFT: u32 = 40;

/// Device `device`'s address range: `[start, end)`.
fn device_span(device: u32) -> (u64, u64) {
    let start = DEVICE_ADDRESS_BASE + (u64::from(device) << DEVICE_SPAN_SHIFT);
    (start, start + (1 << DEVICE_SPAN_SHIFT))
}
const ALIGN: u64 = 256;

/// A device address (what `cudaMalloc` returns). `Copy`; offset it with [`DevicePtr::offset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevicePtr(pub u64);

impl DevicePtr {
    /// The address `bytes` further on.
    #[must_use]
    pub fn offset(self, bytes: u64) -> DevicePtr {
        DevicePtr(self.0.wrapping_add(bytes))
    }

    /// The raw address.
    pub fn addr(self) -> u64 {
        self.0
    }

    /// The device whose address range holds this address, if any (it may still be unallocated).
    pub fn device(self) -> Option<u32> {
        device_of(self.0)
    }
}

impl std::fmt::Display for DevicePtr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// A pinned host buffer's address (what `cudaMallocHost` returns): real host memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostPtr(pub u64);

impl HostPtr {
    /// The address `bytes` further on.
    #[must_use]
    pub fn offset(self, bytes: u64) -> HostPtr {
        HostPtr(self.0.wrapping_add(bytes))
    }

    /// The raw address.
    pub fn addr(self) -> u64 {
        self.0
    }

    /// The address as a raw pointer (for C callers; reading or writing through it races with copies in
    /// flight exactly as on hardware).
    pub fn as_mut_ptr(self) -> *mut u8 {
        self.0 as usize as *mut u8
    }
}

/// Which address space an address was looked up in (for error messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// Device memory of this device.
    Device(u32),
    /// Pinned host memory.
    PinnedHost,
    /// Ordinary (pageable) host memory.
    PageableHost,
}

impl std::fmt::Display for AddressSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AddressSpace::Device(d) => write!(f, "device {d} memory"),
            AddressSpace::PinnedHost => f.write_str("pinned host memory"),
            AddressSpace::PageableHost => f.write_str("pageable host memory"),
        }
    }
}

/// A copy's source.
#[derive(Debug, Clone, Copy)]
pub enum Src<'a> {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory, read when the copy runs.
    Pinned(HostPtr),
    /// Pageable host memory, staged (copied) at the call.
    Host(&'a [u8]),
}

/// A copy's destination.
#[derive(Debug)]
pub enum Dst<'a> {
    /// Device memory.
    Device(DevicePtr),
    /// Pinned host memory, written when the copy runs.
    Pinned(HostPtr),
    /// Pageable host memory: the call returns once the data is there.
    Host(&'a mut [u8]),
}

impl From<DevicePtr> for Src<'_> {
    fn from(p: DevicePtr) -> Self {
        Src::Device(p)
    }
}
impl From<HostPtr> for Src<'_> {
    fn from(p: HostPtr) -> Self {
        Src::Pinned(p)
    }
}
impl<'a> From<&'a [u8]> for Src<'a> {
    fn from(s: &'a [u8]) -> Self {
        Src::Host(s)
    }
}
impl<'a, const N: usize> From<&'a [u8; N]> for Src<'a> {
    fn from(s: &'a [u8; N]) -> Self {
        Src::Host(s)
    }
}
impl<'a> From<&'a Vec<u8>> for Src<'a> {
    fn from(s: &'a Vec<u8>) -> Self {
        Src::Host(s)
    }
}
impl From<DevicePtr> for Dst<'_> {
    fn from(p: DevicePtr) -> Self {
        Dst::Device(p)
    }
}
impl From<HostPtr> for Dst<'_> {
    fn from(p: HostPtr) -> Self {
        Dst::Pinned(p)
    }
}
impl<'a> From<&'a mut [u8]> for Dst<'a> {
    fn from(s: &'a mut [u8]) -> Self {
        Dst::Host(s)
    }
}
impl<'a, const N: usize> From<&'a mut [u8; N]> for Dst<'a> {
    fn from(s: &'a mut [u8; N]) -> Self {
        Dst::Host(s)
    }
}
impl<'a> From<&'a mut Vec<u8>> for Dst<'a> {
    fn from(s: &'a mut Vec<u8>) -> Self {
        Dst::Host(s)
    }
}

struct Heap {
    capacity: u64,
    used: u64,
    next: u64,
    live: BTreeMap<u64, Arc<Block>>,
    allocated: u64,
    /// Freed allocations: start → (length, how they were freed). At most `freed_cap` of them: past that the
    /// lowest (oldest, while addresses are handed out in order) is forgotten, and a pointer into it is then
    /// "not allocated" rather than "freed" (the same vendor code, except memory freed by a device reset).
    freed: BTreeMap<u64, (u64, &'static str)>,
    freed_cap: usize,
    /// Address ranges memory pools hold (`memory/reserve.rs`): start → (length, owner). The pools' allocations
    /// are live blocks inside them.
    reserved: BTreeMap<u64, (u64, ProcessId)>,
}

/// How many freed allocations a device's heap remembers (about 64 MiB at most).
const FREED_REMEMBERED: usize = 1 << 20;

impl Heap {
    /// Records a freed allocation, forgetting the lowest one past the cap.
    fn remember_freed(&mut self, base: u64, len: u64, how: &'static str) {
        self.freed.insert(base, (len, how));
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
            .map(|b| (b.base, b.len.max(1).div_ceil(ALIGN) * ALIGN))
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
}

/// The pinned host buffers: live ones by base, and the freed ones still remembered (`freed_pinned.rs`).
#[derive(Default)]
pub(crate) struct Pinned {
    live: BTreeMap<u64, Arc<Block>>,
    pub(crate) freed: crate::engine::freed_pinned::FreedPinned,
}

fn device_of(addr: u64) -> Option<u32> {
    if addr < DEVICE_ADDRESS_BASE {
        return None;
    }
    let d = (addr - DEVICE_ADDRESS_BASE) >> DEVICE_SPAN_SHIFT;
    u32::try_from(d)
        .ok()
        .filter(|&d| d < crate::engine::machine::MAX_DEVICES)
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
                    })
                })
                .collect(),
            pinned: Mutex::new(Pinned::default()),
            pinned_count: std::sync::atomic::AtomicU64::new(0),
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
        // The block's address range, rounded up to the alignment; `None` if that overflows.
        let len = bytes.max(1).div_ceil(ALIGN).checked_mul(ALIGN);
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
        heap.next = heap.next.max(base + len);
        // A reused range is no longer "freed".
        let stale: Vec<u64> = heap
            .freed
            .range(base..base + len)
            .map(|(&a, _)| a)
            .collect();
        for a in stale {
            heap.freed.remove(&a);
        }
        heap.used += bytes;
        heap.allocated += 1;
        let block = Arc::new(Block {
            base,
            len: bytes,
            owner,
            space: AddressSpace::Device(device),
            ordinal: heap.allocated,
            host: None,
            store: Store::new(Backing::Owned(data)),
            store_off: 0,
            mapping: false,
        });
        heap.live.insert(base, block);
        Ok(DevicePtr(base))
    }

    pub fn free(&self, ptr: DevicePtr, owner: ProcessId) -> Result<()> {
        let what = "free";
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
                heap.remember_freed(b.base, b.len, "freed");
                return Ok(());
            }
            Some(_) => "owned by another process",
            None if heap
                .freed
                .get(&ptr.0)
                .is_some_and(|(_, how)| *how == FREED_BY_RESET) =>
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
        let span = len.max(1).div_ceil(ALIGN) * ALIGN;
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
        heap.next = heap.next.max(base + span);
        let stale: Vec<u64> = heap
            .freed
            .range(base..base + span)
            .map(|(&a, _)| a)
            .collect();
        for a in stale {
            heap.freed.remove(&a);
        }
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
                heap.remember_freed(b.base, b.len, "unmapped (its IPC handle was closed)");
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
            heap.remember_freed(b.base, b.len, FREED_BY_RESET);
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
            heap.used -= len;
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
                    .filter(|&(&a, &(l, _))| ptr.0 < a + l.max(1))
                    .map(|(_, &(_, how))| how);
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
                what: "malloc_host",
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
        });
        self.pinned.lock().live.insert(base, block);
        Ok(HostPtr(base))
    }

    /// Frees a pinned buffer: it is remembered as freed (see `freed_pinned.rs`), so that its address is not
    /// taken for ordinary host memory afterwards. Work already queued on it still sees it.
    pub fn free_host(&self, ptr: HostPtr, owner: ProcessId) -> Result<()> {
        let mut pinned = self.pinned.lock();
        let problem = match pinned.live.get(&ptr.0) {
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
            what: "free_host",
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
                problem: crate::engine::error::HostMemoryProblem::AlreadyRegistered,
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
        });
        pinned.live.insert(addr, block);
        Ok(())
    }

    /// Ends a registration: `addr` must be the start of a range `owner` registered. Operations still holding
    /// the range touch no memory afterwards.
    pub fn unregister_host(&self, addr: u64, owner: ProcessId) -> Result<()> {
        let mut pinned = self.pinned.lock();
        match pinned.live.get(&addr) {
            Some(b) if b.owner == owner && b.host.is_some_and(|h| h.registered) => {
                let b = pinned
                    .live
                    .remove(&addr)
                    .expect("the block just found is still there: the pinned lock is held");
                drop(pinned);
                *b.bytes().lock() = Backing::Detached;
                Ok(())
            }
            _ => Err(SimError::HostMemory {
                what: "host_unregister",
                addr,
                problem: crate::engine::error::HostMemoryProblem::NotRegistered,
            }),
        }
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
mod tests {
    use super::*;

    const P: ProcessId = ProcessId(0);

    /// A device whose address range is used up (by malloc/free cycles: addresses are not reused before) reuses
    /// the lowest free gap that fits — never an address of the next device; a block no gap can hold is out of
    /// memory with `available` = the largest gap; a freed range is reused like any other.
    #[test]
    fn a_used_up_address_range_reuses_the_lowest_gap() {
        let m = Memory::new(&[u64::MAX, 1 << 20]);
        let (span_start, span_end) = device_span(0);
        let first = m.malloc(0, 1024, P).unwrap();
        assert_eq!(first.0, span_start);
        m.heaps[0].lock().next = span_end - 512;
        let last = m.malloc(0, 300, P).unwrap();
        assert_eq!(last.0, span_end - 512);
        // The range is used up: the lowest gap, right after `first`.
        let reused = m.malloc(0, 1, P).unwrap();
        assert_eq!(reused.0, span_start + 1024);
        assert_eq!(reused.device(), Some(0));
        // Larger than every gap (the largest runs from after `reused`, 256 bytes, to `last`).
        assert_eq!(
            m.malloc(0, 1 << DEVICE_SPAN_SHIFT, P),
            Err(SimError::OutOfMemory {
                device: 0,
                requested: 1 << DEVICE_SPAN_SHIFT,
                available: (span_end - 512) - (span_start + 1024 + 256),
            })
        );
        // A freed range is reused: the old pointer names the new block (as on hardware).
        m.free(first, P).unwrap();
        assert_eq!(m.malloc(0, 1000, P).unwrap(), first);
        // The next device's range is untouched.
        assert_eq!(m.malloc(1, 1, P).unwrap().device(), Some(1));
    }

    /// A heap remembers at most `freed_cap` freed allocations: a double free of a recent one is "already
    /// freed", of a forgotten one "not allocated" (both InvalidAddress), and the record stays bounded.
    #[test]
    fn freed_allocations_are_remembered_up_to_a_cap() {
        let m = Memory::new(&[1 << 30]);
        m.heaps[0].lock().freed_cap = 4;
        let ptrs: Vec<DevicePtr> = (0..10).map(|_| m.malloc(0, 64, P).unwrap()).collect();
        for &p in &ptrs {
            m.free(p, P).unwrap();
        }
        assert_eq!(m.heaps[0].lock().freed.len(), 4);
        let problem = |p: DevicePtr| match m.free(p, P) {
            Err(SimError::InvalidAddress { problem, .. }) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(problem(ptrs[9]), "already freed");
        assert_eq!(problem(ptrs[6]), "already freed");
        assert_eq!(problem(ptrs[5]), "not allocated");
        assert_eq!(problem(ptrs[0]), "not allocated");
    }

    /// A u64::MAX-byte malloc on a device with u64::MAX bytes of memory: out of memory, with no overflow in
    /// the address arithmetic.
    #[test]
    fn a_malloc_of_u64_max_on_an_unbounded_device_is_out_of_memory() {
        let m = Memory::new(&[u64::MAX]);
        assert_eq!(
            m.malloc(0, u64::MAX, P),
            Err(SimError::OutOfMemory {
                device: 0,
                requested: u64::MAX,
                available: 1 << DEVICE_SPAN_SHIFT,
            })
        );
        assert_eq!(m.used(0), 0);
    }

    #[test]
    fn device_addresses_are_not_host_addresses_and_never_reused() {
        let m = Memory::new(&[1 << 20, 1 << 20]);
        let a = m.malloc(0, 100, P).unwrap();
        let b = m.malloc(1, 100, P).unwrap();
        assert_eq!(a.device(), Some(0));
        assert_eq!(b.device(), Some(1));
        assert!(a.0 >= DEVICE_ADDRESS_BASE);
        m.free(a, P).unwrap();
        let c = m.malloc(0, 100, P).unwrap();
        assert_ne!(a, c);
        let err = m.device_region("read", a, 1, P).unwrap_err();
        assert!(matches!(
            err,
            SimError::InvalidAddress {
                problem: "freed",
                ..
            }
        ));
        assert!(matches!(
            m.free(a, P),
            Err(SimError::InvalidAddress {
                problem: "already freed",
                ..
            })
        ));
    }

    #[test]
    fn bounds_and_ownership_are_checked() {
        let m = Memory::new(&[1 << 20]);
        let a = m.malloc(0, 100, P).unwrap();
        assert!(m.device_region("x", a, 100, P).is_ok());
        assert!(m.device_region("x", a.offset(50), 50, P).is_ok());
        assert!(matches!(
            m.device_region("x", a.offset(50), 51, P),
            Err(SimError::OutOfRange {
                bytes: 51,
                len: 100,
                ..
            })
        ));
        assert!(matches!(
            m.device_region("x", a, u64::MAX, P),
            Err(SimError::OutOfRange { .. })
        ));
        assert!(matches!(
            m.device_region("x", a, 1, ProcessId(1)),
            Err(SimError::InvalidAddress {
                problem: "owned by another process",
                ..
            })
        ));
        assert!(matches!(
            m.malloc(0, 2 << 20, P),
            Err(SimError::OutOfMemory { .. })
        ));
    }

    /// A freed block that a queued copy still holds and a new block at the same, reused, base (a device whose
    /// address range is used up reuses the lowest gap): copies in both directions between them, on two threads,
    /// must not deadlock. With the old order (by simulated base, equal here) each copy took its destination's
    /// lock first, so the two copies locked the blocks in opposite orders. Under a watchdog.
    #[test]
    fn copies_between_blocks_with_the_same_base_do_not_deadlock() {
        let m = Memory::new(&[1 << 20]);
        let (_, span_end) = device_span(0);
        let first = m.malloc(0, 1024, P).unwrap();
        let old = m.device_region("copy", first, 1024, P).unwrap();
        m.heaps[0].lock().next = span_end; // the range is used up: the next malloc takes the lowest gap
        m.free(first, P).unwrap();
        let reused = m.malloc(0, 1024, P).unwrap();
        assert_eq!(
            reused, first,
            "the base is reused while the old block is still held"
        );
        let new = m.device_region("copy", reused, 1024, P).unwrap();
        assert_eq!(old.block.base, new.block.base);
        assert!(!Arc::ptr_eq(&old.block, &new.block));
        assert_ne!(
            Block::lock_first(&old.block, &new.block),
            Block::lock_first(&new.block, &old.block),
            "one order for the pair, whichever is the source"
        );
        let (done, rx) = std::sync::mpsc::channel();
        for (src, dst) in [(old.clone(), new.clone()), (new, old)] {
            let done = done.clone();
            std::thread::spawn(move || {
                for _ in 0..20_000 {
                    Block::copy(&src.block, 0, &dst.block, 0, 1024);
                }
                done.send(()).unwrap();
            });
        }
        for _ in 0..2 {
            rx.recv_timeout(std::time::Duration::from_secs(60))
                .expect("watchdog: two copies between same-base blocks deadlocked");
        }
    }

    #[test]
    fn pinned_buffers_are_real_memory() {
        let m = Memory::new(&[1 << 20]);
        let h = m.malloc_host(16, P, None).unwrap();
        assert_eq!(m.classify(h.0 + 15), AddressSpace::PinnedHost);
        assert_eq!(m.classify(h.0 + 16), AddressSpace::PageableHost);
        let r = m.pinned_region("w", h, 16, P).unwrap();
        r.block.write(r.offset, &[7; 16]);
        // SAFETY: the buffer is live and 16 bytes long; nothing else touches it.
        let seen = unsafe { *h.as_mut_ptr().add(3) };
        assert_eq!(seen, 7);
        m.free_host(h, P).unwrap();
        assert!(m.free_host(h, P).is_err());
    }
}
