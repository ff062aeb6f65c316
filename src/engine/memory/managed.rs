//! Managed (unified) memory: what `cudaMallocManaged` allocates and `__managed__` variables are.
//!
//! A managed allocation is real host memory at a host address (the host dereferences it directly, as on
//! hardware), kept in the pinned table like a pinned buffer — so copies read and write it when they run,
//! kernels on the CPU reach it at its own address, and race detection tracks it — and recorded here as
//! managed, with what the runtime keeps about it: the stream association (`cudaMemAttachGlobal` / `Host` /
//! `Single`), and per page range the advice (`cudaMemAdvise`), the last prefetch location and where the pages
//! are (`cudaMemPrefetchAsync`), which set the cost of later prefetches. The rows and their sources:
//! `docs/semantics/managed-memory.md`.
//!
//! Lock order: the managed table's lock is a leaf: taken alone, or after the pinned table's, never before it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::{Mutex, MutexGuard};

use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::{AddressSpace, HostPtr};
use crate::engine::memory::lazy::LazyBytes;
use crate::engine::memory::{Backing, Block, HostBlock, Memory, Store};

/// The page size advice and prefetch ranges are rounded to (the host's page: "rounded down and rounded up
/// respectively to be aligned to CPU page size").
pub const MANAGED_PAGE: u64 = 4096;

/// A managed allocation's stream association (CUDA `cudaMemAttachGlobal`, `cudaMemAttachHost`,
/// `cudaMemAttachSingle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManagedAttach {
    /// Accessible from any stream on any device.
    Global,
    /// Not accessed from devices without concurrent managed access.
    Host,
    /// Accessed only from one stream (set with [`crate::Process::stream_attach_mem`]).
    Single,
}

/// Where managed memory is, is preferred, or is accessed from (CUDA `cudaMemLocation` of type device or host,
/// or a device ordinal where `cudaCpuDeviceId` is the host).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ManagedLocation {
    /// Host memory.
    Host,
    /// Device memory of this device.
    Device(u32),
}

/// Advice about a managed range (CUDA `enum cudaMemoryAdvise`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManagedAdvice {
    /// `cudaMemAdviseSetReadMostly`.
    SetReadMostly,
    /// `cudaMemAdviseUnsetReadMostly`.
    UnsetReadMostly,
    /// `cudaMemAdviseSetPreferredLocation`.
    SetPreferredLocation(ManagedLocation),
    /// `cudaMemAdviseUnsetPreferredLocation`.
    UnsetPreferredLocation,
    /// `cudaMemAdviseSetAccessedBy`.
    SetAccessedBy(ManagedLocation),
    /// `cudaMemAdviseUnsetAccessedBy`.
    UnsetAccessedBy(ManagedLocation),
}

/// What `cudaMemRangeGetAttribute(s)` reports about a managed range: each attribute holds only if it holds for
/// every page of the range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ManagedRangeAttributes {
    /// Every page is read-mostly.
    pub read_mostly: bool,
    /// The preferred location all pages share, if they share one.
    pub preferred_location: Option<ManagedLocation>,
    /// The locations advised as accessing every page: the host first, then devices in ascending order.
    pub accessed_by: Vec<ManagedLocation>,
    /// The location all pages were last prefetched to, if they were all prefetched to the same one.
    pub last_prefetch_location: Option<ManagedLocation>,
}

/// What one run of pages is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pages {
    read_mostly: bool,
    preferred: Option<ManagedLocation>,
    /// At most one entry per location (the host and the machine's devices).
    accessed_by: Vec<ManagedLocation>,
    last_prefetch: Option<ManagedLocation>,
    /// Where the pages are, for the cost of a prefetch (they start on the host).
    resident: ManagedLocation,
}

impl Default for Pages {
    fn default() -> Self {
        Pages {
            read_mostly: false,
            preferred: None,
            accessed_by: Vec::new(),
            last_prefetch: None,
            resident: ManagedLocation::Host,
        }
    }
}

/// A managed allocation or variable.
#[derive(Debug, Clone)]
pub(crate) struct ManagedEntry {
    pub len: u64,
    pub owner: ProcessId,
    /// The association it was allocated with (what a destroyed stream's association reverts to).
    pub default_attach: ManagedAttach,
    /// The association now, and the stream (raw handle) of a single association.
    pub attach: ManagedAttach,
    pub attach_stream: Option<u64>,
    /// A `__managed__` variable (registered program memory): not freed by `cudaFree`.
    pub variable: bool,
    /// Runs of pages: (start offset, what they are), sorted, the first at 0; a run ends where the next starts
    /// (the last at `len`). At most one run per page, so bounded by the allocation's size.
    runs: Vec<(u64, Pages)>,
}

impl ManagedEntry {
    fn new(len: u64, owner: ProcessId, attach: ManagedAttach, variable: bool) -> Self {
        ManagedEntry {
            len,
            owner,
            default_attach: attach,
            attach,
            attach_stream: None,
            variable,
            runs: vec![(0, Pages::default())],
        }
    }

    /// The page-rounded range of `[off, off + bytes)`, clamped to the allocation.
    fn pages_of(&self, off: u64, bytes: u64) -> (u64, u64) {
        let lo = off / MANAGED_PAGE * MANAGED_PAGE;
        let hi = (off + bytes)
            .div_ceil(MANAGED_PAGE)
            .saturating_mul(MANAGED_PAGE);
        (lo, hi.min(self.len))
    }

    /// Splits the runs at `at` (a run starts there afterwards), if it is inside the allocation.
    fn split(&mut self, at: u64) {
        if at >= self.len {
            return;
        }
        let i = self.runs.partition_point(|(s, _)| *s <= at) - 1;
        if self.runs[i].0 != at {
            let pages = self.runs[i].1.clone();
            self.runs.insert(i + 1, (at, pages));
        }
    }

    /// Applies `f` to every page of `[lo, hi)`, then merges equal neighbours.
    fn apply(&mut self, (lo, hi): (u64, u64), mut f: impl FnMut(&mut Pages)) {
        self.split(lo);
        self.split(hi);
        for (start, pages) in &mut self.runs {
            if *start >= lo && *start < hi {
                f(pages);
            }
        }
        self.runs.dedup_by(|b, a| a.1 == b.1);
    }

    /// The runs overlapping `[lo, hi)`, with their lengths inside it.
    fn overlapping(&self, (lo, hi): (u64, u64)) -> impl Iterator<Item = (u64, &Pages)> {
        let ends = self
            .runs
            .iter()
            .skip(1)
            .map(|(s, _)| *s)
            .chain(std::iter::once(self.len));
        self.runs.iter().zip(ends).filter_map(move |((s, p), e)| {
            let (a, b) = ((*s).max(lo), e.min(hi));
            (a < b).then(|| (b - a, p))
        })
    }

    /// What `[off, off + bytes)` is, over all its pages.
    pub fn attributes(&self, off: u64, bytes: u64) -> ManagedRangeAttributes {
        let range = self.pages_of(off, bytes);
        let runs: Vec<&Pages> = self.overlapping(range).map(|(_, p)| p).collect();
        let common = |get: &dyn Fn(&Pages) -> Option<ManagedLocation>| {
            let first = runs.first().and_then(|p| get(p))?;
            runs.iter().all(|p| get(p) == Some(first)).then_some(first)
        };
        let mut accessed_by: Vec<ManagedLocation> = runs
            .first()
            .map(|p| p.accessed_by.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|l| runs.iter().all(|p| p.accessed_by.contains(l)))
            .collect();
        accessed_by.sort_unstable();
        ManagedRangeAttributes {
            read_mostly: !runs.is_empty() && runs.iter().all(|p| p.read_mostly),
            preferred_location: common(&|p| p.preferred),
            accessed_by,
            last_prefetch_location: common(&|p| p.last_prefetch),
        }
    }

    /// Applies `advice` to the pages of `[off, off + bytes)`.
    pub fn advise(&mut self, off: u64, bytes: u64, advice: ManagedAdvice) {
        let range = self.pages_of(off, bytes);
        self.apply(range, |p| match advice {
            ManagedAdvice::SetReadMostly => p.read_mostly = true,
            ManagedAdvice::UnsetReadMostly => p.read_mostly = false,
            ManagedAdvice::SetPreferredLocation(l) => p.preferred = Some(l),
            ManagedAdvice::UnsetPreferredLocation => p.preferred = None,
            ManagedAdvice::SetAccessedBy(l) => {
                if !p.accessed_by.contains(&l) {
                    p.accessed_by.push(l);
                    p.accessed_by.sort_unstable();
                }
            }
            ManagedAdvice::UnsetAccessedBy(l) => p.accessed_by.retain(|x| *x != l),
        });
    }

    /// Records a prefetch of `[off, off + bytes)` to `to`: the pages' last prefetch location, and where they
    /// are. Returns the bytes that move and from where (the first run that moves; `None` if none do).
    pub fn prefetch(
        &mut self,
        off: u64,
        bytes: u64,
        to: ManagedLocation,
    ) -> (u64, Option<ManagedLocation>) {
        let range = self.pages_of(off, bytes);
        let mut moved = 0;
        let mut from = None;
        for (n, p) in self.overlapping(range) {
            if p.resident != to {
                moved += n;
                from.get_or_insert(p.resident);
            }
        }
        self.apply(range, |p| {
            p.last_prefetch = Some(to);
            p.resident = to;
        });
        (moved, from)
    }

    /// How many runs of pages it keeps (tests: bounded by its pages).
    #[cfg(test)]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }
}

/// The managed allocations and variables of a machine, by base address.
#[derive(Debug, Default)]
pub(crate) struct ManagedTable {
    pub entries: BTreeMap<u64, ManagedEntry>,
}

/// The table behind its lock, and how many entries it has (read without the lock by every launch).
#[derive(Debug, Default)]
pub(crate) struct Managed {
    table: Mutex<ManagedTable>,
    live: AtomicUsize,
}

/// The table's guard: keeps the count of entries up to date when it is released.
pub(crate) struct ManagedGuard<'a> {
    guard: MutexGuard<'a, ManagedTable>,
    live: &'a AtomicUsize,
}

impl std::ops::Deref for ManagedGuard<'_> {
    type Target = ManagedTable;
    fn deref(&self) -> &ManagedTable {
        &self.guard
    }
}

impl std::ops::DerefMut for ManagedGuard<'_> {
    fn deref_mut(&mut self) -> &mut ManagedTable {
        &mut self.guard
    }
}

impl Drop for ManagedGuard<'_> {
    fn drop(&mut self) {
        self.live.store(self.guard.entries.len(), Ordering::Relaxed);
    }
}

impl Managed {
    pub fn lock(&self) -> ManagedGuard<'_> {
        ManagedGuard {
            guard: self.table.lock(),
            live: &self.live,
        }
    }
}

impl ManagedTable {
    /// The entry holding `addr`, as (its base, the entry).
    pub fn find(&self, addr: u64) -> Option<(u64, &ManagedEntry)> {
        self.entries
            .range(..=addr)
            .next_back()
            .filter(|(b, e)| addr < *b + e.len.max(1))
            .map(|(b, e)| (*b, e))
    }

    /// The entry holding `addr`, mutably.
    pub fn find_mut(&mut self, addr: u64) -> Option<(u64, &mut ManagedEntry)> {
        self.entries
            .range_mut(..=addr)
            .next_back()
            .filter(|(b, e)| addr < **b + e.len.max(1))
            .map(|(b, e)| (*b, e))
    }
}

impl Memory {
    /// Allocates `bytes` of managed memory (zeroed) for `owner`, associated with `device` (the device current at
    /// the call): real host memory in the pinned table, recorded as managed. It is reserved address space that
    /// takes host memory only as its pages are touched, starting on a page boundary.
    pub fn malloc_managed(
        &self,
        what: &'static str,
        bytes: u64,
        owner: ProcessId,
        device: u32,
        attach: ManagedAttach,
    ) -> Result<HostPtr> {
        let Ok(n) = usize::try_from(bytes) else {
            return Err(SimError::InvalidValue {
                what,
                reason: format!("{bytes} bytes do not fit in host memory"),
            });
        };
        // Reserved, not committed: an allocation may be larger than the host's free memory (oversubscription),
        // and it starts on a page boundary, as NVIDIA's allocations do (hip-tests' HT_NVIDIA rounding tests
        // require it).
        // In the managed window, so that kernels' accesses to it are resolved and tracked (`lazy.rs`).
        let Some(lazy) = LazyBytes::managed(n) else {
            return Err(SimError::HostOutOfMemory { requested: bytes });
        };
        let base = lazy.program_ptr() as u64;
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
                device: Some(device),
                registered: false,
            }),
            store: Store::new(Backing::Lazy(lazy)),
            store_off: 0,
            mapping: false,
            site: crate::engine::memory::site::current(),
        });
        // Pinned table first, then the managed one (the lock order above).
        let mut pinned = self.pinned.lock();
        pinned.live.insert(base, block);
        self.managed
            .lock()
            .entries
            .insert(base, ManagedEntry::new(bytes, owner, attach, false));
        Ok(HostPtr(base))
    }

    /// Registers the program's `len` bytes at `addr` (a `__managed__` variable) as managed memory of `owner`,
    /// associated globally with `device`. Refused if the range overlaps pinned or managed memory.
    ///
    /// # Safety
    /// The range is host memory valid for reads and writes for the program's life.
    pub unsafe fn register_managed(
        &self,
        addr: u64,
        len: u64,
        owner: ProcessId,
        device: u32,
    ) -> Result<()> {
        // SAFETY: forwarded contract.
        unsafe { self.register_host(addr, len, owner, Some(device)) }?;
        self.managed.lock().entries.insert(
            addr,
            ManagedEntry::new(len, owner, ManagedAttach::Global, true),
        );
        Ok(())
    }

    /// Frees the managed allocation starting at `addr` of `owner`: it leaves both tables (the pinned one
    /// remembers it as freed). Work already queued on it still sees its bytes.
    pub fn free_managed(&self, addr: u64) {
        self.managed.lock().entries.remove(&addr);
        let mut pinned = self.pinned.lock();
        if let Some(b) = pinned.live.remove(&addr) {
            pinned.freed.keep(b);
        }
    }

    /// Runs `f` on the managed table.
    pub fn with_managed<R>(&self, f: impl FnOnce(&mut ManagedTable) -> R) -> R {
        f(&mut self.managed.lock())
    }

    /// Whether the machine has any live managed memory (a launch's quick test).
    pub fn has_managed(&self) -> bool {
        self.managed.live.load(Ordering::Relaxed) != 0
    }

    /// The managed allocations of `owner` that a kernel on stream `stream` (raw handle) of a device without
    /// concurrent managed access may touch: those attached globally, and those attached singly to that stream
    /// (`alive` says whether an attached stream still lives: a destroyed one's allocation is its own
    /// association again). As (base, length).
    pub(crate) fn reachable_managed(
        &self,
        owner: ProcessId,
        stream: u64,
        alive: impl Fn(u64) -> bool,
    ) -> Vec<(u64, u64)> {
        self.managed
            .lock()
            .entries
            .iter()
            .filter(|(_, e)| e.owner == owner)
            .filter(|(_, e)| match (e.attach, e.attach_stream) {
                (ManagedAttach::Single, Some(s)) if alive(s) => s == stream,
                (ManagedAttach::Single, _) => e.default_attach == ManagedAttach::Global,
                (attach, _) => attach == ManagedAttach::Global,
            })
            .map(|(b, e)| (*b, e.len))
            .collect()
    }

    /// Whether `addr` is in live managed memory (of any process).
    pub fn is_managed(&self, addr: u64) -> bool {
        self.managed.lock().find(addr).is_some()
    }

    /// Whether `base` is the start of live managed memory (the pinned table's lock may be held).
    pub(crate) fn is_managed_base(&self, base: u64) -> bool {
        self.managed.lock().entries.contains_key(&base)
    }
}

impl super::Memory {
    /// The calling thread's host accesses of managed memory that faulted since it last asked (`watch.rs`): each
    /// the faulting address and whether it was a write.
    pub(crate) fn take_host_faults(&self) -> Vec<(u64, bool)> {
        super::watch::take_pending()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(len: u64) -> ManagedEntry {
        ManagedEntry::new(len, ProcessId(0), ManagedAttach::Global, false)
    }

    #[test]
    fn advice_is_per_page_and_runs_merge_back() {
        let mut e = entry(4 * MANAGED_PAGE);
        e.advise(MANAGED_PAGE + 1, 10, ManagedAdvice::SetReadMostly);
        assert_eq!(e.runs(), 3);
        assert!(e.attributes(MANAGED_PAGE, MANAGED_PAGE).read_mostly);
        assert!(!e.attributes(0, 2 * MANAGED_PAGE).read_mostly);
        // A range after the advised run (the runs before it end before the range starts).
        assert!(!e.attributes(3 * MANAGED_PAGE, MANAGED_PAGE).read_mostly);
        e.advise(0, 4 * MANAGED_PAGE, ManagedAdvice::UnsetReadMostly);
        assert_eq!(e.runs(), 1);
    }

    #[test]
    fn locations_are_reported_only_when_every_page_shares_them() {
        let mut e = entry(2 * MANAGED_PAGE);
        let d1 = ManagedLocation::Device(1);
        e.advise(0, MANAGED_PAGE, ManagedAdvice::SetPreferredLocation(d1));
        assert_eq!(e.attributes(0, 1).preferred_location, Some(d1));
        assert_eq!(e.attributes(0, 2 * MANAGED_PAGE).preferred_location, None);
        e.advise(0, 2 * MANAGED_PAGE, ManagedAdvice::SetAccessedBy(d1));
        e.advise(0, 1, ManagedAdvice::SetAccessedBy(ManagedLocation::Host));
        assert_eq!(e.attributes(0, 2 * MANAGED_PAGE).accessed_by, vec![d1]);
        assert_eq!(
            e.attributes(0, 1).accessed_by,
            vec![ManagedLocation::Host, d1]
        );
    }

    #[test]
    fn a_prefetch_moves_only_pages_elsewhere() {
        let mut e = entry(3 * MANAGED_PAGE);
        let d0 = ManagedLocation::Device(0);
        assert_eq!(
            e.prefetch(0, MANAGED_PAGE, d0),
            (MANAGED_PAGE, Some(ManagedLocation::Host))
        );
        assert_eq!(
            e.prefetch(0, 3 * MANAGED_PAGE, d0),
            (2 * MANAGED_PAGE, Some(ManagedLocation::Host))
        );
        assert_eq!(e.prefetch(0, 3 * MANAGED_PAGE, d0), (0, None));
        assert_eq!(
            e.attributes(0, 3 * MANAGED_PAGE).last_prefetch_location,
            Some(d0)
        );
        // A partial last page stays inside the allocation.
        let mut small = entry(100);
        assert_eq!(
            small.prefetch(0, 100, d0),
            (100, Some(ManagedLocation::Host))
        );
    }
}
