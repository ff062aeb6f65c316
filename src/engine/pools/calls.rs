//! The memory-pool calls of [`Process`]: pools (create, destroy, default and current pools, attributes, trim),
//! stream-ordered allocation and free (operations on a stream: `malloc_async`, `malloc_from_pool_async`,
//! `free_async`), the host's free of pool memory, and what a synchronize does to the pools. The pools'
//! bookkeeping and reuse policies are in `pool.rs`; the rows and their sources in
//! `docs/semantics/stream-ordered-memory.md`.
//!
//! A process's first pool call turns vector clocks on for it (`ProcState::enable_clocks`): reuse follows the
//! happens-before order, with or without race detection, so the addresses a program gets do not depend on it.
//!
//! Lock order: the process's state lock, then the heap's (leaf).

use crate::engine::graph::gate::Route;
use crate::engine::graph::node::NodeOp;
use std::borrow::Cow;
use std::panic::Location;
use std::sync::Arc;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{PoolProblem, Result, SimError};
use crate::engine::core::handle::{MemPool, Stream};
use crate::engine::core::pointers::{AddressSpace, DevicePtr};
use crate::engine::core::races::Accessor;
use crate::engine::core::races::{LifePoint, Who};
use crate::engine::core::time::saturating_nanos;
use crate::engine::exec::Work;
use crate::engine::memory::block::Block;
use crate::engine::observe::race::clock::ActorHold;
use crate::engine::observe::trace::OpKind;
use crate::engine::pools::state::{Asker, FreedAt, Pick, PoolAttr, PoolEntry, PoolProps};
use crate::engine::process::{Call, OpSpec, ProcState, Process};

/// A pool error of call `what`.
pub(super) fn pool_err(what: &'static str, problem: PoolProblem) -> SimError {
    SimError::MemPool { what, problem }
}

/// A registry lookup's error, as a pool error of `what`.
fn handle_err(what: &'static str, e: SimError) -> SimError {
    match e {
        SimError::InvalidHandle { problem, .. } => pool_err(what, PoolProblem::Handle(problem)),
        e => e,
    }
}

/// `n` rounded up to a multiple of `to`; `None` on overflow.
fn round_up(n: u64, to: u64) -> Option<u64> {
    n.max(1).div_ceil(to).checked_mul(to)
}

/// Where a live pool allocation is: a pool of the registry, or a destroyed one.
enum Home {
    Pool(u64),
    Retired(usize),
}

impl ProcState {
    /// Device `device`'s default pool (made now if it is the first use).
    fn default_pool(
        &mut self,
        m: &crate::engine::machine::Shared,
        what: &'static str,
        device: u32,
    ) -> Result<u64> {
        if !m.rules.pools.default_pools {
            return Err(pool_err(what, PoolProblem::NoDefaultPool));
        }
        if let Some(h) = self.devices[device as usize].default_pool {
            return Ok(h);
        }
        let h = self.pools.insert(PoolEntry::new(
            PoolProps::new(device),
            true,
            m.rules.pools.reuse,
        ))?;
        self.devices[device as usize].default_pool = Some(h);
        Ok(h)
    }

    /// Device `device`'s current pool (by default its default pool).
    fn current_pool(
        &mut self,
        m: &crate::engine::machine::Shared,
        what: &'static str,
        device: u32,
    ) -> Result<u64> {
        match self.devices[device as usize].current_pool {
            Some(h) => Ok(h),
            None => self.default_pool(m, what, device),
        }
    }

    pub(super) fn pool(&mut self, what: &'static str, pool: MemPool) -> Result<&mut PoolEntry> {
        self.pools.get_mut(pool.0).map_err(|e| handle_err(what, e))
    }

    /// The pool holding the live allocation at `addr`, if any.
    fn home_of(&mut self, addr: u64) -> Option<Home> {
        if let Some((h, _)) = self
            .pools
            .iter_mut()
            .find(|(_, p)| p.live.contains_key(&addr))
        {
            return Some(Home::Pool(h));
        }
        self.retired_pools
            .iter()
            .position(|p| p.live.contains_key(&addr))
            .map(Home::Retired)
    }

    fn home(&mut self, home: &Home) -> &mut PoolEntry {
        match *home {
            Home::Pool(h) => self
                .pools
                .get_mut(h)
                .expect("found just before, under the same lock"),
            Home::Retired(i) => &mut self.retired_pools[i],
        }
    }

    /// Whether `addr` is in a freed range of one of the process's pools.
    fn freed_in_pool(&mut self, addr: u64) -> bool {
        self.pools
            .values()
            .chain(&self.retired_pools)
            .any(|p| p.is_freed(addr))
    }
}

/// Memory pools and stream-ordered allocation.
impl Process {
    /// Creates a memory pool of `props.device`'s memory (`cudaMemPoolCreate`, `aclrtMemPoolCreate`), with the
    /// dialect's default reuse policies and a release threshold of 0.
    pub fn create_pool(&self, props: PoolProps) -> Result<MemPool> {
        self.call(EngineCall::PoolCreate.name(), |_| {
            let d = self.m.check_device(i64::from(props.device))?;
            let mut st = self.state();
            st.enable_clocks(&self.m);
            let props = PoolProps::new(d).max_size(props.max_size);
            let h = st
                .pools
                .insert(PoolEntry::new(props, false, self.m.rules.pools.reuse))?;
            Ok(MemPool(h))
        })
    }

    /// Destroys a pool (`cudaMemPoolDestroy`): the handle is dead at once; memory no allocation uses goes back
    /// to the device now, the rest once its allocations are freed and their frees observed ("the resources
    /// associated with the pool will be released automatically once there are no more outstanding
    /// allocations"). If it was its device's current pool, the default pool is current again. A default pool
    /// cannot be destroyed.
    pub fn destroy_pool(&self, pool: MemPool) -> Result<()> {
        let what = EngineCall::PoolDestroy.name();
        self.call(what, |_| {
            let mut st = self.state();
            if st.pool(what, pool)?.is_default {
                return Err(pool_err(what, PoolProblem::DefaultPool));
            }
            let mut entry = st.pools.remove(pool.0).map_err(|e| handle_err(what, e))?;
            let dev = entry.device as usize;
            if st.devices[dev].current_pool == Some(pool.0) {
                st.devices[dev].current_pool = None;
            }
            self.release_down_to(&mut entry, 0);
            if !entry.chunks.is_empty() {
                st.retired_pools.push(entry);
            }
            Ok(())
        })
    }

    /// Device `device`'s default pool (`cudaDeviceGetDefaultMemPool`); the dialect may have none.
    pub fn default_pool(&self, device: i64) -> Result<MemPool> {
        let what = "device_default_pool";
        self.call(what, |_| {
            let d = self.m.check_device(device)?;
            let mut st = self.state();
            st.enable_clocks(&self.m);
            Ok(MemPool(st.default_pool(&self.m, what, d)?))
        })
    }

    /// Makes `pool` (of that device) the current pool of `device` (`cudaDeviceSetMemPool`): what
    /// [`Process::malloc_async`] allocates from on the device's streams.
    pub fn set_device_pool(&self, device: i64, pool: MemPool) -> Result<()> {
        let what = "device_set_pool";
        self.call(what, |_| {
            let d = self.m.check_device(device)?;
            let mut st = self.state();
            let p = st.pool(what, pool)?;
            if p.device != d {
                let pool_device = p.device;
                return Err(pool_err(what, PoolProblem::OtherDevice { pool_device }));
            }
            st.devices[d as usize].current_pool = Some(pool.0);
            Ok(())
        })
    }

    /// Device `device`'s current pool (`cudaDeviceGetMemPool`): the last one set, or its default pool.
    pub fn device_pool(&self, device: i64) -> Result<MemPool> {
        let what = "device_pool";
        self.call(what, |_| {
            let d = self.m.check_device(device)?;
            let mut st = self.state();
            st.enable_clocks(&self.m);
            Ok(MemPool(st.current_pool(&self.m, what, d)?))
        })
    }

    /// A pool attribute: a reuse policy (0 or 1), the release threshold, or a counter in bytes.
    pub fn pool_attribute(&self, pool: MemPool, attr: PoolAttr) -> Result<u64> {
        let what = EngineCall::PoolGetAttribute.name();
        self.call(what, |_| {
            let mut st = self.state();
            let p = st.pool(what, pool)?;
            Ok(match attr {
                PoolAttr::ReuseFollowEventDependencies => p.policy.follow_event_dependencies.into(),
                PoolAttr::ReuseAllowOpportunistic => p.policy.allow_opportunistic.into(),
                PoolAttr::ReuseAllowInternalDependencies => {
                    p.policy.allow_internal_dependencies.into()
                }
                PoolAttr::ReleaseThreshold => p.release_threshold,
                PoolAttr::ReservedMemCurrent => p.reserved,
                PoolAttr::ReservedMemHigh => p.reserved_high,
                PoolAttr::UsedMemCurrent => p.used,
                PoolAttr::UsedMemHigh => p.used_high,
            })
        })
    }

    /// Sets a pool attribute: a reuse policy (any non-zero value enables it), the release threshold, or resets
    /// a high watermark (only 0 is accepted; it becomes the current value, or 0 where the dialect says so).
    /// The current counters are read-only.
    pub fn set_pool_attribute(&self, pool: MemPool, attr: PoolAttr, value: u64) -> Result<()> {
        let what = EngineCall::PoolSetAttribute.name();
        let rules = self.m.rules.pools;
        self.call(what, |_| {
            let mut st = self.state();
            let p = st.pool(what, pool)?;
            let on = value != 0;
            match attr {
                PoolAttr::ReuseFollowEventDependencies => p.policy.follow_event_dependencies = on,
                PoolAttr::ReuseAllowOpportunistic => p.policy.allow_opportunistic = on,
                PoolAttr::ReuseAllowInternalDependencies => {
                    p.policy.allow_internal_dependencies = on
                }
                PoolAttr::ReleaseThreshold => {
                    if rules.threshold_within_pool && p.max_size != 0 && value > p.max_size {
                        let size = p.max_size;
                        return Err(pool_err(what, PoolProblem::ThresholdAbovePool { size }));
                    }
                    p.release_threshold = value;
                }
                PoolAttr::ReservedMemCurrent | PoolAttr::UsedMemCurrent => {
                    return Err(pool_err(what, PoolProblem::ReadOnlyAttribute));
                }
                PoolAttr::ReservedMemHigh | PoolAttr::UsedMemHigh if on => {
                    return Err(pool_err(what, PoolProblem::WatermarkNotZero));
                }
                PoolAttr::ReservedMemHigh => {
                    p.reserved_high = if rules.watermark_reset_to_zero {
                        0
                    } else {
                        p.reserved
                    };
                }
                PoolAttr::UsedMemHigh => {
                    p.used_high = if rules.watermark_reset_to_zero {
                        0
                    } else {
                        p.used
                    };
                }
            }
            Ok(())
        })
    }

    /// Gives memory of `pool` back to the device until it holds at most `keep` reserved bytes
    /// (`cudaMemPoolTrimTo`): only chunks no allocation uses, whose frees the calling host thread has observed
    /// ("Allocations that have been asynchronously freed but whose completion has not been observed on the
    /// host … can count as outstanding"). The dialect may refuse to keep fewer bytes than are in use.
    pub fn trim_pool(&self, pool: MemPool, keep: u64) -> Result<()> {
        let what = EngineCall::PoolTrim.name();
        let strict = self.m.rules.pools.strict_trim;
        self.call(what, |c| {
            let mut st = self.state();
            st.ensure_host(&self.m, c.thread);
            let ProcState { pools, hosts, .. } = &mut *st;
            let p = pools.get_mut(pool.0).map_err(|e| handle_err(what, e))?;
            if strict {
                if p.max_size != 0 && keep > p.max_size {
                    let size = p.max_size;
                    return Err(pool_err(what, PoolProblem::TrimAbovePool { size }));
                }
                if keep >= p.reserved {
                    return Ok(());
                }
                if keep < p.used {
                    let used = p.used;
                    return Err(pool_err(what, PoolProblem::TrimBelowUsed { used }));
                }
            }
            if let Some(h) = hosts.get(c.thread as usize) {
                p.observe(&h.vc);
            }
            self.release_down_to(p, keep);
            Ok(())
        })
    }

    /// Releases chunks of `p` that no allocation uses and whose frees are observed, in address order, while it
    /// holds more than `keep` bytes and keeps at least `keep` after the release ("If the pool has less than
    /// minBytesToKeep reserved, the TrimTo operation is a no-op. Otherwise the pool will be guaranteed to have
    /// at least minBytesToKeep bytes reserved after the operation"; the release threshold is what a pool
    /// "hold[s] onto"). Memory is released in whole chunks.
    fn release_down_to(&self, p: &mut PoolEntry, keep: u64) {
        for base in p.releasable() {
            let len = p.chunks[&base].len;
            if p.reserved <= keep || p.reserved - len < keep {
                continue;
            }
            p.remove_chunk(base);
            self.m.memory.release(p.device, base);
        }
    }

    /// What a synchronize (of a stream, an event or a device) does to the pools, once it has returned: the frees
    /// it observed become available to any allocation, and each pool gives memory above its release threshold
    /// back to the device (destroyed pools: all they can) — the Programming Guide's "Synchronization API
    /// Actions".
    pub(crate) fn pools_after_sync(&self, c: &Call) {
        let mut st = self.state();
        if st.retired_pools.is_empty() && st.pools.values().next().is_none() {
            return;
        }
        let ProcState {
            pools,
            retired_pools,
            hosts,
            ..
        } = &mut *st;
        let host = hosts.get(c.thread as usize).map(|h| &h.vc);
        for (_, p) in pools.iter_mut() {
            if let Some(h) = host {
                p.observe(h);
            }
            let keep = p.release_threshold;
            self.release_down_to(p, keep);
        }
        for p in retired_pools.iter_mut() {
            if let Some(h) = host {
                p.observe(h);
            }
            self.release_down_to(p, 0);
        }
        retired_pools.retain(|p| !p.chunks.is_empty());
    }

    /// Allocates `bytes` of device memory with stream-ordered semantics (`cudaMallocAsync`): from the current
    /// pool of `stream`'s device (whatever the current device), as an operation on `stream` (cost model:
    /// `pool_alloc`). The pointer is returned at once; the memory may be used by work ordered after the
    /// allocation, which is a lifetime point for the race detector.
    #[track_caller]
    pub fn malloc_async(&self, bytes: u64, stream: Stream) -> Result<DevicePtr> {
        let site = Location::caller();
        self.call(EngineCall::MallocAsync.name(), |c| {
            self.alloc_async(
                c,
                (EngineCall::MallocAsync.name(), site),
                bytes,
                None,
                stream,
            )
        })
    }

    /// Allocates from `pool`, which may be of another device than `stream`'s (`cudaMallocFromPoolAsync`,
    /// `aclrtMemPoolMallocAsync`).
    #[track_caller]
    pub fn malloc_from_pool_async(
        &self,
        bytes: u64,
        pool: MemPool,
        stream: Stream,
    ) -> Result<DevicePtr> {
        let site = Location::caller();
        let what = EngineCall::MallocFromPoolAsync.name();
        self.call(what, |c| {
            self.alloc_async(c, (what, site), bytes, Some(pool), stream)
        })
    }

    fn alloc_async(
        &self,
        c: &mut Call,
        (what, site): (&'static str, &'static Location<'static>),
        bytes: u64,
        pool: Option<MemPool>,
        stream: Stream,
    ) -> Result<DevicePtr> {
        let rules = self.m.rules.pools;
        if bytes == 0 {
            return Err(SimError::InvalidValue {
                what,
                reason: "size 0".into(),
            });
        }
        let mut st = self.state();
        st.enable_clocks(&self.m);
        st.ensure_host(&self.m, c.thread);
        let h = st.resolve_stream(&self.m, c, stream.0)?;
        st.check_owner(&self.m, c, what, rules.stream_in_context, h)?;
        let route = st.capture_route(&self.m, h, what)?;
        let stream_device = st.streams.get(h)?.device;
        let ph = match pool {
            Some(p) => {
                st.pool(what, p)?;
                p.0
            }
            None => st.current_pool(&self.m, what, stream_device)?,
        };
        if let Route::Capture(_) = route
            && !self.m.rules.capture.memory_nodes
        {
            return Err(not_captured(&st, what, h, "an allocation node")?);
        }
        if let Route::Capture(cid) = route {
            // Captured: an allocation node of the graph, owned by the graph (docs/semantics/graph-memory.md).
            let pool_device = st.pools.get(ph).map_err(|e| handle_err(what, e))?.device;
            let graph = st.graphs.captures.get(cid).expect("routed").graph;
            let graph_device = st.graphs.graphs.get(graph)?.device;
            let op = st.mem_alloc_op(&self.m, c, what, graph, graph_device, pool_device, bytes)?;
            let NodeOp::MemAlloc { base, .. } = op else {
                unreachable!("an allocation node")
            };
            if let Err(e) = st.capture_node(cid, h, op, site) {
                st.graphs.mem.graph_gone(&self.m.memory, graph, &[base]);
                return Err(e);
            }
            return Ok(DevicePtr(base));
        }
        let Some(size) = round_up(bytes, rules.alignment) else {
            return Err(pool_err(
                what,
                PoolProblem::Exhausted {
                    requested: bytes,
                    reserved: 0,
                },
            ));
        };
        let pick = {
            let ProcState {
                pools,
                streams,
                hosts,
                ..
            } = &mut *st;
            let s = streams.get(h)?;
            let p = pools.get_mut(ph).map_err(|e| handle_err(what, e))?;
            let asker = Asker {
                stream: &s.exec,
                stream_vc: &s.vc,
                host_vc: hosts.get(c.thread as usize).map(|h| &h.vc),
                now: c.now,
            };
            match p.pick(size, &asker) {
                Some(pick) => pick,
                None => self.grow(what, p, size, c)?,
            }
        };
        let (device, mem, offset) = {
            let p = st.pools.get(ph).expect("looked up above");
            let chunk = &p.chunks[&pick.chunk];
            (
                p.device,
                chunk.mem.clone(),
                p.offset_in(pick.chunk, pick.addr),
            )
        };
        let block = self
            .m
            .memory
            .install(device, pick.addr, bytes, c.process, mem, offset);
        let who = self.life_who(&st, h, "alloc", what, site)?;
        let mut spec = OpSpec::new(
            saturating_nanos(self.m.cost.pool_alloc),
            Cow::Borrowed(what),
            OpKind::MemAlloc { bytes },
            Work::Nothing,
        );
        if let Some(dep) = pick.dep.clone() {
            spec = spec.deps(vec![dep]);
        }
        let spec = spec.life(block.clone(), LifePoint::Alloc, who);
        if let Err(e) = st.enqueue(&self.m, c, h, spec) {
            self.m.memory.forget_block(&block);
            return Err(e);
        }
        let Pick { chunk, addr, .. } = pick;
        st.pools
            .get_mut(ph)
            .expect("looked up above")
            .take(chunk, addr, size, block);
        Ok(DevicePtr(addr))
    }

    /// A new chunk for an allocation of `size` bytes that no freed range can hold; when the pool cannot grow, a
    /// freed range the allocation will wait for (internal dependencies), or the pool is exhausted.
    fn grow(&self, what: &'static str, p: &mut PoolEntry, size: u64, c: &Call) -> Result<Pick> {
        let exhausted = |p: &PoolEntry| {
            pool_err(
                what,
                PoolProblem::Exhausted {
                    requested: size,
                    reserved: p.reserved,
                },
            )
        };
        let len = round_up(size, self.m.rules.pools.chunk);
        let fits = len.is_some_and(|l| {
            p.max_size == 0 || p.reserved.checked_add(l).is_some_and(|t| t <= p.max_size)
        });
        if let (Some(len), true) = (len, fits)
            && let Ok((base, mem)) = self.m.memory.reserve(p.device, len, c.process)
        {
            p.add_chunk(base, len, mem);
            return Ok(Pick {
                chunk: base,
                addr: base,
                dep: None,
            });
        }
        p.pick_waiting(size).ok_or_else(|| exhausted(p))
    }

    /// Who a lifetime point on stream `h` is, for race reports (race detection on).
    pub(crate) fn life_who(
        &self,
        st: &ProcState,
        h: u64,
        kind: &'static str,
        what: &'static str,
        site: &'static Location<'static>,
    ) -> Result<Option<Who>> {
        if !self.m.race.on() {
            return Ok(None);
        }
        let s = st.streams.get(h)?;
        Ok(Some(Arc::new((
            Accessor::Op {
                stream: s.id,
                stream_name: s.name.clone(),
                kind,
                label: what.to_string(),
            },
            site,
        ))))
    }

    /// Frees `ptr` with stream-ordered semantics (`cudaFreeAsync`): an operation on `stream` (cost model:
    /// `pool_free`) after which the memory must not be used. Pool memory goes back to its pool, where it waits
    /// on this free before another stream may reuse it; memory from [`Process::malloc`] is freed too ("Memory
    /// allocated with cudaMalloc() can be freed with cudaFreeAsync()"). A second free, or an address that is no
    /// allocation, is [`SimError::InvalidAddress`].
    #[track_caller]
    pub fn free_async(&self, ptr: DevicePtr, stream: Stream) -> Result<()> {
        let site = Location::caller();
        let what = EngineCall::FreeAsync.name();
        self.call(what, |c| {
            let rules = self.m.rules.pools;
            let mut st = self.state();
            st.enable_clocks(&self.m);
            st.ensure_host(&self.m, c.thread);
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, rules.stream_in_context, h)?;
            let addr = ptr.addr();
            let route = st.capture_route(&self.m, h, what)?;
            if let Route::Capture(_) = route
                && !self.m.rules.capture.memory_nodes
            {
                return Err(not_captured(&st, what, h, "a free node")?);
            }
            if let Route::Capture(cid) = route {
                // Captured: a free node of the graph (docs/semantics/graph-memory.md).
                let graph = st.graphs.captures.get(cid).expect("routed").graph;
                let op = st.mem_free_op(what, graph, ptr)?;
                st.capture_node(cid, h, op, site)?;
                st.mem_free_added(graph, addr);
                return Ok(());
            }
            if let Some(block) = st.graph_alloc_to_free(what, addr)? {
                // A graph allocation freed on a stream, as a free node of another graph would.
                let who = self.life_who(&st, h, "free", what, site)?;
                let spec = OpSpec::new(
                    saturating_nanos(self.m.cost.pool_free),
                    Cow::Borrowed(what),
                    OpKind::MemFree { bytes: block.len },
                    Work::Nothing,
                )
                .life(block.clone(), LifePoint::Free, who);
                st.enqueue(&self.m, c, h, spec)?;
                st.graphs.mem.set_freed(&self.m.memory, addr, Some(h));
                crate::engine::value_waits::state::forget(&mut st.words, block.base, block.len);
                return Ok(());
            }
            let bad = |problem| SimError::InvalidAddress {
                what,
                addr,
                space: ptr
                    .device()
                    .map_or(AddressSpace::PageableHost, AddressSpace::Device),
                problem,
            };
            let (block, home) = match st.home_of(addr) {
                Some(home) => {
                    let block = match &home {
                        Home::Pool(ph) => {
                            st.pools.get(*ph).expect("found").live[&addr].block.clone()
                        }
                        Home::Retired(i) => st.retired_pools[*i].live[&addr].block.clone(),
                    };
                    (block, Some(home))
                }
                None if st.freed_in_pool(addr) => return Err(bad("already freed")),
                None => {
                    let r = match self.m.memory.device_region(what, ptr, 1, c.process) {
                        Err(SimError::InvalidAddress {
                            problem: "freed", ..
                        }) => return Err(bad("already freed")),
                        r => r?,
                    };
                    if r.offset != 0 {
                        return Err(bad("not the start of an allocation"));
                    }
                    if r.block.mapping {
                        return Err(bad(
                            "an IPC mapping, not an allocation: it is unmapped with its close call \
                             (cudaIpcCloseMemHandle, aclrtIpcMemClose)",
                        ));
                    }
                    (r.block, None)
                }
            };
            let who = self.life_who(&st, h, "free", what, site)?;
            let spec = OpSpec::new(
                saturating_nanos(self.m.cost.pool_free),
                Cow::Borrowed(what),
                OpKind::MemFree { bytes: block.len },
                Work::Nothing,
            )
            .life(block.clone(), LifePoint::Free, who);
            let point = st.enqueue(&self.m, c, h, spec)?;
            let point = st.with_clock(h, point)?;
            let actor = st.streams.get(h)?.actor;
            match home {
                Some(home) => {
                    st.home(&home).give_back(
                        addr,
                        Some(FreedAt {
                            point,
                            actor,
                            _hold: ActorHold::new(&self.m.race.actors, actor),
                        }),
                    );
                }
                None => self.m.memory.free(ptr, c.process)?,
            }
            crate::engine::value_waits::state::forget(&mut st.words, block.base, block.len);
            Ok(())
        })
    }

    /// The host's free of pool memory (`cudaFree` of a `cudaMallocAsync` pointer): "the driver assumes that all
    /// accesses to the allocation are complete and performs no further synchronization" — work the calling
    /// thread has not observed is a use after free. The memory is available to any allocation at once.
    /// `Ok(false)` if `ptr` is not pool memory of this process.
    pub(crate) fn free_pooled_by_host(
        &self,
        c: &Call,
        site: &'static Location<'static>,
        ptr: DevicePtr,
    ) -> Result<bool> {
        let mut st = self.state();
        let addr = ptr.addr();
        let Some(home) = st.home_of(addr) else {
            if st.freed_in_pool(addr) {
                return Err(SimError::InvalidAddress {
                    what: EngineCall::Free.name(),
                    addr,
                    space: ptr
                        .device()
                        .map_or(AddressSpace::PageableHost, AddressSpace::Device),
                    problem: "already freed",
                });
            }
            return Ok(false);
        };
        let block = st.home(&home).live[&addr].block.clone();
        self.host_free_check(&mut st, c, site, &block)?;
        st.home(&home).give_back(addr, None);
        crate::engine::value_waits::state::forget(&mut st.words, block.base, block.len);
        Ok(true)
    }

    /// The lifetime check of a free by the host: one step of the calling thread, at which every access to
    /// `block` it is not ordered after is a use after free (race detection on).
    pub(crate) fn host_free_check(
        &self,
        st: &mut ProcState,
        c: &Call,
        site: &'static Location<'static>,
        block: &Arc<Block>,
    ) -> Result<()> {
        if !self.m.race.on() {
            return Ok(());
        }
        crate::engine::process::host_step(
            st,
            &self.m,
            c,
            (EngineCall::Free.name(), site),
            |epoch, vc, who| {
                crate::engine::observe::race::lifetime(
                    &self.m.race,
                    block,
                    LifePoint::Free,
                    (epoch, vc),
                    who,
                    true,
                )
            },
        )
    }

    /// Forgets the pools of `device` (its reset: their memory went with the device's).
    pub(crate) fn forget_pools(st: &mut ProcState, device: u32) -> Result<()> {
        for h in st.pools.handles_where(|p| p.device == device) {
            st.pools.remove_by_reset(h, device)?;
        }
        st.retired_pools.retain(|p| p.device != device);
        Ok(())
    }
}

/// A stream-ordered allocation or free on a capturing stream where the dialect has no memory nodes (ACL): refused
/// with [`SimError::NotSupported`], the capture left as it was (not invalidated).
fn not_captured(st: &ProcState, what: &'static str, h: u64, node: &str) -> Result<SimError> {
    let id = st.streams.get(h)?.id;
    Ok(SimError::NotSupported {
        what,
        reason: format!("{id} is capturing: this dialect's graphs have no memory nodes ({node})"),
    })
}
