//! Memory pools: the bookkeeping behind stream-ordered allocation (`cudaMallocAsync`, `aclrtMemPoolMallocAsync`).
//! The calls are in `pool_api.rs`; the rules and their sources in `docs/semantics/stream-ordered-memory.md`.
//!
//! A pool holds **chunks**: ranges of its device's memory it has reserved from the heap (`memory/reserve.rs`),
//! each with its own bytes; the sum of their sizes is the pool's reserved memory. An allocation takes a range
//! of a chunk and is a block of its own (its number, its shadow for race detection) whose bytes are that range
//! of the chunk's bytes: a later allocation that reuses the range sees what the earlier one left there, as on
//! hardware. A freed range remembers its **free point** — the free operation, its stream and its vector
//! clock — until a synchronize of the host observes it; from then on (and for ranges never used) it is
//! available to any allocation.
//!
//! An allocation on stream `S` at host time `now` may take a freed range when (Programming Guide §4.3.4.4):
//! - it was freed on `S` itself ("memory freed in a stream can be reused immediately in a subsequent allocation
//!   request on the same stream"), or it is available to any (never used, freed by the host, or observed by a
//!   synchronize: "Synchronization API Actions");
//! - `ReuseFollowEventDependencies`: `S` (with what the calling host thread knows, which the allocation joins)
//!   is ordered after the free;
//! - `ReuseAllowOpportunistic`: the free has completed in virtual time (`end <= now`); the allocation then waits
//!   for the free to have really run (no happens-before edge: the program did not order them);
//! - else, if a new chunk cannot be reserved, `ReuseAllowInternalDependencies`: the allocation waits for the
//!   free (a dependency, with its happens-before edge, as the driver's inserted wait).
//!
//! Among the ranges allowed, the smallest that fits (then the lowest address) is taken — ACL's "closest size"
//! rule, and the simulator's choice for CUDA. Every decision depends on program order and virtual time only.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::core::time::VirtualTime;
use crate::engine::exec::point::{Point, StreamExec};
use crate::engine::memory::block::Block;
use crate::engine::memory::block::Chunk;
use crate::engine::observe::race::clock::{Actor, ActorHold, Epoch, VectorClock};

pub use crate::engine::core::rules::ReusePolicy;

/// What a pool is made with ([`crate::Process::create_pool`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PoolProps {
    /// The device whose memory it holds.
    pub device: u32,
    /// The most bytes it may reserve; 0: no limit but the device's memory.
    pub max_size: u64,
}

impl PoolProps {
    /// A pool of `device`'s memory, without a limit of its own.
    pub fn new(device: u32) -> PoolProps {
        PoolProps {
            device,
            max_size: 0,
        }
    }

    /// With a maximum size in bytes (0: none).
    #[must_use]
    pub fn max_size(mut self, bytes: u64) -> PoolProps {
        self.max_size = bytes;
        self
    }
}

/// A pool attribute (`cudaMemPoolAttr`, ACL `aclrtMemPoolAttr`: the same eight, numbered 1 to 8 by both).
/// The three reuse policies are 0 or 1; the others are bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PoolAttr {
    /// `cudaMemPoolReuseFollowEventDependencies`.
    ReuseFollowEventDependencies,
    /// `cudaMemPoolReuseAllowOpportunistic`.
    ReuseAllowOpportunistic,
    /// `cudaMemPoolReuseAllowInternalDependencies`.
    ReuseAllowInternalDependencies,
    /// `cudaMemPoolAttrReleaseThreshold`: reserved bytes a synchronize leaves the pool.
    ReleaseThreshold,
    /// `cudaMemPoolAttrReservedMemCurrent` (read-only).
    ReservedMemCurrent,
    /// `cudaMemPoolAttrReservedMemHigh` (set to 0 only: resets it).
    ReservedMemHigh,
    /// `cudaMemPoolAttrUsedMemCurrent` (read-only).
    UsedMemCurrent,
    /// `cudaMemPoolAttrUsedMemHigh` (set to 0 only: resets it).
    UsedMemHigh,
}

impl PoolAttr {
    /// The attribute of a vendor number (1 to 8, the same in CUDA and ACL).
    pub fn from_number(n: u32) -> Option<PoolAttr> {
        Some(match n {
            1 => PoolAttr::ReuseFollowEventDependencies,
            2 => PoolAttr::ReuseAllowOpportunistic,
            3 => PoolAttr::ReuseAllowInternalDependencies,
            4 => PoolAttr::ReleaseThreshold,
            5 => PoolAttr::ReservedMemCurrent,
            6 => PoolAttr::ReservedMemHigh,
            7 => PoolAttr::UsedMemCurrent,
            8 => PoolAttr::UsedMemHigh,
            _ => return None,
        })
    }

    /// Whether the value is a policy flag (the C type `int`; the others are `cuuint64_t`).
    pub fn is_flag(self) -> bool {
        matches!(
            self,
            PoolAttr::ReuseFollowEventDependencies
                | PoolAttr::ReuseAllowOpportunistic
                | PoolAttr::ReuseAllowInternalDependencies
        )
    }
}

/// The free operation a freed range waits on: its point (with the stream's clock there) and its stream's
/// actor.
#[derive(Debug, Clone)]
pub(crate) struct FreedAt {
    pub point: Point,
    pub actor: Actor,
    /// Keeps `actor`'s number from a new stream while the range waits on the free (see `race/clock.rs`).
    pub _hold: ActorHold,
}

impl FreedAt {
    /// The free's step, once its point is fixed.
    fn epoch(&self) -> Option<Epoch> {
        self.point.vc().map(|vc| Epoch {
            actor: self.actor,
            count: vc.get(self.actor),
        })
    }
}

/// A free range of a chunk: its length and, until any allocation may take it, the free it waits on.
#[derive(Debug, Clone)]
struct FreeRange {
    len: u64,
    freed: Option<FreedAt>,
}

/// One reserved range of the pool.
#[derive(Debug)]
pub(crate) struct PoolChunk {
    pub len: u64,
    pub mem: Arc<Chunk>,
    free: BTreeMap<u64, FreeRange>,
    live: usize,
}

/// A live allocation of the pool.
#[derive(Debug)]
pub(crate) struct PoolAlloc {
    pub block: Arc<Block>,
    /// Its size rounded up to the pool's alignment (what it takes of the chunk, and counts as used).
    pub size: u64,
    pub chunk: u64,
}

/// Who asks for memory, for the reuse policies.
pub(crate) struct Asker<'a> {
    /// The allocating stream's worker state (its identity).
    pub stream: &'a Arc<StreamExec>,
    /// The allocating stream's clock.
    pub stream_vc: &'a VectorClock,
    /// The calling host thread's clock.
    pub host_vc: Option<&'a VectorClock>,
    /// The host time of the call.
    pub now: VirtualTime,
}

/// A freed range an allocation may take: the chunk, the address, and what the allocation must wait for.
#[derive(Debug, Clone)]
pub(crate) struct Pick {
    pub chunk: u64,
    pub addr: u64,
    pub dep: Option<Point>,
}

/// A memory pool (in a process's registry).
#[derive(Debug)]
pub(crate) struct PoolEntry {
    pub device: u32,
    pub is_default: bool,
    pub max_size: u64,
    pub policy: ReusePolicy,
    pub release_threshold: u64,
    pub reserved: u64,
    pub reserved_high: u64,
    pub used: u64,
    pub used_high: u64,
    pub chunks: BTreeMap<u64, PoolChunk>,
    pub live: BTreeMap<u64, PoolAlloc>,
    /// The other devices that may access its memory (`cudaMemPoolSetAccess`, `pools/access.rs`); its own
    /// device always may.
    pub access: std::collections::BTreeSet<u32>,
}

impl PoolEntry {
    pub fn new(props: PoolProps, is_default: bool, policy: ReusePolicy) -> PoolEntry {
        PoolEntry {
            device: props.device,
            is_default,
            max_size: props.max_size,
            policy,
            release_threshold: 0,
            reserved: 0,
            reserved_high: 0,
            used: 0,
            used_high: 0,
            chunks: BTreeMap::new(),
            live: BTreeMap::new(),
            access: std::collections::BTreeSet::new(),
        }
    }

    /// Whether a free range (of a live chunk) may be taken by `asker` without waiting, and what it must then
    /// wait for in real time only (opportunistic reuse: `Some`).
    fn allowed(&self, r: &FreeRange, asker: &Asker<'_>) -> Option<Option<Point>> {
        let Some(f) = &r.freed else {
            return Some(None);
        };
        if Arc::ptr_eq(&f.point.exec, asker.stream) {
            return Some(None);
        }
        if self.policy.follow_event_dependencies
            && let Some(e) = f.epoch()
            && (asker.stream_vc.knows(e) || asker.host_vc.is_some_and(|h| h.knows(e)))
        {
            return Some(None);
        }
        if self.policy.allow_opportunistic
            && let Some(t) = f.point.time()
            && t <= asker.now
        {
            // The program did not order them: a wait in real time only, so that the earlier work is really
            // done before the new allocation's work touches the bytes (no clock: no happens-before edge).
            return Some(Some(Point::new(f.point.exec.clone(), f.point.seq, t)));
        }
        None
    }

    /// The smallest freed range of at least `size` bytes that `asker` may take (then the lowest address).
    pub fn pick(&self, size: u64, asker: &Asker<'_>) -> Option<Pick> {
        let mut best: Option<(u64, Pick)> = None;
        for (&chunk, c) in &self.chunks {
            for (&addr, r) in &c.free {
                if r.len < size || best.as_ref().is_some_and(|(l, _)| *l <= r.len) {
                    continue;
                }
                if let Some(dep) = self.allowed(r, asker) {
                    best = Some((r.len, Pick { chunk, addr, dep }));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// When the pool cannot grow: the smallest freed range of at least `size` bytes still waiting on its free,
    /// with that free as the allocation's dependency (`ReuseAllowInternalDependencies`).
    pub fn pick_waiting(&self, size: u64) -> Option<Pick> {
        if !self.policy.allow_internal_dependencies {
            return None;
        }
        let mut best: Option<(u64, Pick)> = None;
        for (&chunk, c) in &self.chunks {
            for (&addr, r) in &c.free {
                let Some(f) = &r.freed else { continue };
                if r.len < size || best.as_ref().is_some_and(|(l, _)| *l <= r.len) {
                    continue;
                }
                let dep = Some(f.point.clone());
                best = Some((r.len, Pick { chunk, addr, dep }));
            }
        }
        best.map(|(_, p)| p)
    }

    /// A new chunk of `len` bytes at `base`, all of it free for anyone.
    pub fn add_chunk(&mut self, base: u64, len: u64, mem: Arc<Chunk>) {
        let free = BTreeMap::from([(base, FreeRange { len, freed: None })]);
        self.chunks.insert(
            base,
            PoolChunk {
                len,
                mem,
                free,
                live: 0,
            },
        );
        self.reserved += len;
        self.reserved_high = self.reserved_high.max(self.reserved);
    }

    /// Takes `size` bytes at `addr` (the start of a free range of chunk `chunk`) for the allocation `block`.
    pub fn take(&mut self, chunk: u64, addr: u64, size: u64, block: Arc<Block>) {
        let c = self.chunks.get_mut(&chunk).expect("a picked chunk exists");
        let r = c.free.remove(&addr).expect("a picked range exists");
        if r.len > size {
            c.free.insert(
                addr + size,
                FreeRange {
                    len: r.len - size,
                    freed: r.freed,
                },
            );
        }
        c.live += 1;
        self.live.insert(addr, PoolAlloc { block, size, chunk });
        self.used += size;
        self.used_high = self.used_high.max(self.used);
    }

    /// The offset in its chunk's bytes of address `addr` of chunk `chunk`.
    pub fn offset_in(&self, chunk: u64, addr: u64) -> u64 {
        debug_assert!(self.chunks.contains_key(&chunk));
        addr - chunk
    }

    /// Frees the allocation at `addr`: its range waits on `freed` (`None`: available to any allocation).
    pub fn give_back(&mut self, addr: u64, freed: Option<FreedAt>) -> Option<PoolAlloc> {
        let a = self.live.remove(&addr)?;
        self.used -= a.size;
        let c = self
            .chunks
            .get_mut(&a.chunk)
            .expect("a live allocation's chunk exists");
        c.live -= 1;
        c.free.insert(addr, FreeRange { len: a.size, freed });
        merge(c);
        Some(a)
    }

    /// Whether `addr` lies in a freed range of the pool (a second free of it).
    pub fn is_freed(&self, addr: u64) -> bool {
        self.chunks
            .range(..=addr)
            .next_back()
            .filter(|&(&base, c)| addr < base + c.len)
            .and_then(|(_, c)| c.free.range(..=addr).next_back())
            .is_some_and(|(&a, r)| addr < a + r.len)
    }

    /// Makes available to any allocation the freed ranges whose free `host` knows (a synchronize, or a trim,
    /// observed them).
    pub fn observe(&mut self, host: &VectorClock) {
        for c in self.chunks.values_mut() {
            let mut changed = false;
            for r in c.free.values_mut() {
                if r.freed
                    .as_ref()
                    .and_then(FreedAt::epoch)
                    .is_some_and(|e| host.knows(e))
                {
                    r.freed = None;
                    changed = true;
                }
            }
            if changed {
                merge(c);
            }
        }
    }

    /// The chunks with no allocation in them whose frees have all been observed: what the pool can give
    /// back to the device, in address order.
    pub fn releasable(&self) -> Vec<u64> {
        self.chunks
            .iter()
            .filter(|(_, c)| c.live == 0 && c.free.values().all(|r| r.freed.is_none()))
            .map(|(&b, _)| b)
            .collect()
    }

    /// Forgets chunk `base` (its reservation is released by the caller); returns its length.
    pub fn remove_chunk(&mut self, base: u64) -> u64 {
        let c = self
            .chunks
            .remove(&base)
            .expect("a releasable chunk exists");
        self.reserved -= c.len;
        c.len
    }
}

/// Joins the adjacent free ranges of a chunk that are available to anyone.
fn merge(c: &mut PoolChunk) {
    let mut merged: BTreeMap<u64, FreeRange> = BTreeMap::new();
    for (addr, r) in std::mem::take(&mut c.free) {
        if let Some((&last, prev)) = merged.iter_mut().next_back()
            && prev.freed.is_none()
            && r.freed.is_none()
            && last + prev.len == addr
        {
            prev.len += r.len;
            continue;
        }
        merged.insert(addr, r);
    }
    c.free = merged;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(len: usize) -> Arc<Chunk> {
        Arc::new(Chunk::new(vec![0; len].into_boxed_slice()))
    }

    /// Ranges available to anyone merge with their neighbours; the smallest range that fits is taken.
    #[test]
    fn free_ranges_merge_and_the_best_fit_is_taken() {
        let policy = ReusePolicy {
            follow_event_dependencies: true,
            allow_opportunistic: true,
            allow_internal_dependencies: true,
        };
        let mut p = PoolEntry::new(PoolProps::new(0), false, policy);
        p.add_chunk(0x1000, 0x1000, chunk(0x1000));
        p.add_chunk(0x4000, 0x400, chunk(0x400));
        let exec = Arc::new(StreamExec::new(
            crate::StreamId {
                process: crate::ProcessId(0),
                device: 0,
                kind: crate::StreamKind::Legacy,
            },
            None,
        ));
        let vc = VectorClock::default();
        let asker = Asker {
            stream: &exec,
            stream_vc: &vc,
            host_vc: None,
            now: VirtualTime::ZERO,
        };
        // 0x300 fits both; the smaller chunk is taken.
        let pick = p.pick(0x300, &asker).unwrap();
        assert_eq!((pick.chunk, pick.addr), (0x4000, 0x4000));
        assert_eq!(p.reserved, 0x1400);
        let dummy = |addr| {
            Arc::new(Block {
                base: addr,
                len: 1,
                owner: crate::ProcessId(0),
                space: crate::AddressSpace::Device(0),
                ordinal: 1,
                host: None,
                store: crate::engine::memory::block::Store::new(
                    crate::engine::memory::block::Backing::Detached,
                ),
                store_off: 0,
                mapping: false,
                site: None,
            })
        };
        p.take(0x1000, 0x1000, 0x100, dummy(0x1000));
        p.take(0x1000, 0x1100, 0x100, dummy(0x1100));
        assert_eq!(p.used, 0x200);
        assert!(p.releasable() == vec![0x4000]);
        p.give_back(0x1000, None).unwrap();
        assert!(p.is_freed(0x1000) && !p.is_freed(0x1100));
        p.give_back(0x1100, None).unwrap();
        // One range again: 0x1000 bytes at 0x1000.
        assert_eq!(p.chunks[&0x1000].free.len(), 1);
        assert_eq!(p.chunks[&0x1000].free[&0x1000].len, 0x1000);
        assert_eq!(p.releasable(), vec![0x1000, 0x4000]);
        assert_eq!((p.used, p.used_high), (0, 0x200));
    }
}
