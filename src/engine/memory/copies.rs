//! Work on memory: allocations, host reads and writes of pinned memory, copies, memsets (kernel launches and
//! host functions are `kernels/launch.rs`).

use std::borrow::Cow;
use std::panic::Location;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError};
use crate::engine::core::handle::Stream;
use crate::engine::core::pointers::{AddressSpace, DevicePtr, Dst, HostPtr, Src};
use crate::engine::core::races::Accessor;
use crate::engine::core::races::Who;
use crate::engine::core::rules::PeerCopy;
use crate::engine::core::time::CopyPath;
use crate::engine::exec::{CopySource, Work};
use crate::engine::graph::gate::Route;
use crate::engine::graph::node::{Endpoint, NodeOp};
use crate::engine::memory::block::Region;
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, Process};

/// What a memset writes.
enum Fill {
    Device(DevicePtr),
    Pinned(HostPtr),
}

enum Out<'a> {
    Region(Region),
    Host(&'a mut [u8]),
}

pub(crate) fn host_range(what: &'static str, addr: usize, len: usize, bytes: u64) -> Result<()> {
    if bytes > len as u64 {
        return Err(SimError::OutOfRange {
            what,
            addr: addr as u64,
            bytes,
            base: addr as u64,
            len: len as u64,
        });
    }
    Ok(())
}

/// Where a copy's source is, as a graph node keeps it.
fn src_endpoint(src: &Src<'_>) -> Endpoint {
    match src {
        Src::Device(p) => Endpoint::Device(*p),
        Src::Pinned(p) => Endpoint::Pinned(*p),
        Src::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    }
}

/// Where a copy's destination is, as a graph node keeps it.
fn dst_endpoint(dst: &Dst<'_>) -> Endpoint {
    match dst {
        Dst::Device(p) => Endpoint::Device(*p),
        Dst::Pinned(p) => Endpoint::Pinned(*p),
        Dst::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
    }
}

pub(crate) fn copy_path(src: AddressSpace, dst: AddressSpace) -> CopyPath {
    match (src, dst) {
        (AddressSpace::Device(a), AddressSpace::Device(b)) if a == b => CopyPath::OnDevice,
        (AddressSpace::Device(_), AddressSpace::Device(_)) => CopyPath::StagedThroughHost,
        (AddressSpace::Device(_), _) => CopyPath::DeviceToHost,
        (_, AddressSpace::Device(_)) => CopyPath::HostToDevice,
        _ => CopyPath::HostToHost,
    }
}

impl Process {
    /// Waits for the copy or memset `point` a synchronous call enqueued (or one whose pageable destination the
    /// caller fills from its result).
    pub(crate) fn wait_for_copy(
        &self,
        c: &mut Call,
        what: &'static str,
        point: &crate::engine::exec::point::Point,
    ) -> Result<()> {
        self.block_on(
            c,
            what,
            point.exec.id.device,
            std::slice::from_ref(point),
            crate::engine::exec::faults::Observe::Other,
            || what.to_string(),
        )
    }

    /// Allocates `bytes` of device memory on the current device.
    pub fn malloc(&self, bytes: u64) -> Result<DevicePtr> {
        self.call(EngineCall::Malloc.name(), |c| {
            self.check_unsafe_call(c, EngineCall::Malloc.name())?;
            if bytes == 0 {
                return Err(SimError::InvalidValue {
                    what: EngineCall::Malloc.name(),
                    reason: "size 0".into(),
                });
            }
            let (device, _) = self
                .state()
                .current(&self.m, c, EngineCall::Malloc.name())?;
            self.m.memory.malloc(device, bytes, c.process)
        })
    }

    /// Frees device memory (also memory from [`Process::malloc_async`]: see `pool_api.rs`). Copies and kernels
    /// already queued on it still see it; with race detection, those the calling thread has not observed
    /// complete are a use after free (`cudaFree` "may perform implicit synchronization" — it is not promised;
    /// `aclrtFree` performs none).
    #[track_caller]
    pub fn free(&self, ptr: DevicePtr) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::Free.name(), |c| {
            self.check_unsafe_call(c, EngineCall::Free.name())?;
            // A graph allocation (docs/semantics/graph-memory.md).
            if self.free_graph_alloc_by_host(c, site, ptr)? {
                return Ok(());
            }
            if self.free_pooled_by_host(c, site, ptr)? {
                return Ok(());
            }
            // Managed memory (docs/semantics/managed-memory.md): freed with cudaFree too.
            if self.free_managed_by_host(c, site, ptr.addr())? {
                return Ok(());
            }
            let region = self
                .m
                .memory
                .device_region(EngineCall::Free.name(), ptr, 1, c.process);
            if let Ok(r) = &region
                && r.offset == 0
                && r.block.owner == c.process
                && !r.block.mapping
            {
                self.host_free_check(&mut self.state(), c, site, &r.block)?;
            }
            self.m.memory.free(ptr, c.process)?;
            if let Ok(r) = region {
                let block = r.block;
                // Exported: the handle opens nowhere any more (mappings made stay, "sim").
                self.m.ipc_mem.lock().freed(&block);
                crate::engine::value_waits::state::forget(
                    &mut self.state().words,
                    block.base,
                    block.len,
                );
            }
            Ok(())
        })
    }

    /// Allocates `bytes` of pinned host memory (zeroed).
    pub fn malloc_host(&self, bytes: u64) -> Result<HostPtr> {
        self.call(EngineCall::MallocHost.name(), |c| {
            self.check_unsafe_call(c, EngineCall::MallocHost.name())?;
            self.m.memory.malloc_host(bytes, c.process, c.device)
        })
    }

    /// Frees pinned host memory.
    pub fn free_host(&self, ptr: HostPtr) -> Result<()> {
        self.call(EngineCall::FreeHost.name(), |c| {
            self.check_unsafe_call(c, EngineCall::FreeHost.name())?;
            self.m.memory.free_host(ptr, c.process)
        })
    }

    /// Writes `data` into a pinned buffer from the host (no stream; what a C program does with a store). Checked
    /// for races with the copies that use the buffer.
    #[track_caller]
    pub fn host_write(&self, ptr: HostPtr, data: &[u8]) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::HostWrite.name(), |c| {
            let r = self.m.memory.pinned_region(
                EngineCall::HostWrite.name(),
                ptr,
                data.len() as u64,
                c.process,
            )?;
            self.host_access(c, EngineCall::HostWrite.name(), site, &r, true)?;
            r.block.write(r.offset, data);
            Ok(())
        })
    }

    /// Reads a pinned buffer from the host. Checked for races with the copies that use the buffer.
    #[track_caller]
    pub fn host_read(&self, ptr: HostPtr, out: &mut [u8]) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::HostRead.name(), |c| {
            let r = self.m.memory.pinned_region(
                EngineCall::HostRead.name(),
                ptr,
                out.len() as u64,
                c.process,
            )?;
            // A host read of managed memory of a device without concurrent access conflicts with kernels.
            let exclusive = self.m.race.on() && self.managed_exclusive(&r);
            self.host_access(c, EngineCall::HostRead.name(), site, &r, exclusive)?;
            r.block.read(r.offset, out);
            Ok(())
        })
    }

    /// A host thread's access to pinned memory: one step of its actor, checked against the shadow.
    pub(crate) fn host_access(
        &self,
        c: &Call,
        call: &'static str,
        site: &'static Location<'static>,
        r: &Region,
        write: bool,
    ) -> Result<()> {
        if !self.m.race.on() || r.len == 0 {
            return Ok(());
        }
        let mut st = self.state();
        crate::engine::process::host_step(&mut st, &self.m, c, (call, site), |epoch, vc, who| {
            crate::engine::observe::race::check(
                &self.m.race,
                &[(r.clone(), write)],
                epoch,
                vc,
                who,
                true,
            )
        })
    }

    /// A potentially unsafe call `what` (see [`crate::rules::CaptureRules::unsafe_calls`]): refused while a
    /// capture that the calling thread's capture mode respects is in progress.
    pub(crate) fn check_unsafe_call(&self, c: &Call, what: &'static str) -> Result<()> {
        if !self.m.rules.capture.unsafe_calls.contains(&what) {
            return Ok(());
        }
        let mode = self.capture_mode();
        self.state().check_unsafe(&self.m, c.thread, mode, what)
    }

    /// Who an operation is, for race reports (only when detection is on and it touches memory). The stream
    /// keeps the last one made; this lends it out (see [`Process::who_back`]) when the same line enqueues the
    /// same operation again.
    pub(crate) fn who(
        &self,
        st: &mut crate::engine::process::ProcState,
        h: u64,
        kind: &'static str,
        label: &str,
        site: &'static Location<'static>,
        accesses: &[(Region, bool)],
    ) -> Result<Option<Who>> {
        // A CPU-run kernel being launched declares nothing, and its real accesses are checked once it ran.
        let tracked = crate::engine::observe::race::kernel_ranges::is_pending();
        if !self.m.race.on() || (accesses.is_empty() && !tracked) {
            return Ok(None);
        }
        let s = st.streams.get_mut(h)?;
        // A loop enqueues the same operation from the same line again and again: reuse its record.
        if let Some(w) = &s.last_who
            && std::ptr::eq(w.1, site)
            && matches!(&w.0, Accessor::Op { kind: k, label: l, .. } if *k == kind && l == label)
        {
            return Ok(s.last_who.take());
        }
        Ok(Some(Arc::new((
            Accessor::Op {
                stream: s.id,
                stream_name: s.name.clone(),
                kind,
                label: label.to_string(),
            },
            site,
        ))))
    }

    /// Gives the stream back the record [`Process::who`] lent (moving it costs nothing; a clone would be two
    /// atomic operations per launch).
    pub(crate) fn who_back(st: &mut crate::engine::process::ProcState, h: u64, who: Option<Who>) {
        if let (Some(w), Ok(s)) = (who, st.streams.get_mut(h)) {
            s.last_who = Some(w);
        }
    }

    /// Copies `bytes` bytes and returns when they have arrived (ordered on the default stream).
    #[track_caller]
    pub fn memcpy<'a>(
        &self,
        dst: impl Into<Dst<'a>>,
        src: impl Into<Src<'a>>,
        bytes: u64,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        self.call(EngineCall::Memcpy.name(), |c| {
            self.copy(
                c,
                (EngineCall::Memcpy.name(), site),
                dst,
                src,
                bytes,
                Stream::DEFAULT,
                (true, false),
            )
        })
    }

    /// Enqueues a copy of `bytes` bytes on `stream`. Pageable host sources are staged at the call; a pageable
    /// host destination makes the call wait for the copy (as the vendors do); pinned and device memory are
    /// read and written when the copy runs.
    #[track_caller]
    pub fn memcpy_async<'a>(
        &self,
        dst: impl Into<Dst<'a>>,
        src: impl Into<Src<'a>>,
        bytes: u64,
        stream: Stream,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        self.call(EngineCall::MemcpyAsync.name(), |c| {
            self.copy(
                c,
                (EngineCall::MemcpyAsync.name(), site),
                dst,
                src,
                bytes,
                stream,
                (false, false),
            )
        })
    }

    /// [`Process::memcpy_async`] for the C API: a capturing stream may keep pageable host memory in its graph (a
    /// node that reads the source at each launch and writes the destination when it runs).
    ///
    /// # Safety
    /// The pageable memory of `dst` and `src` stays valid for as long as a graph captured from this call can
    /// run (the vendor's contract for a captured copy).
    #[track_caller]
    pub(crate) unsafe fn memcpy_async_c<'a>(
        &self,
        dst: Dst<'a>,
        src: Src<'a>,
        bytes: u64,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::MemcpyAsync.name(), |c| {
            self.copy(
                c,
                (EngineCall::MemcpyAsync.name(), site),
                dst,
                src,
                bytes,
                stream,
                (false, true),
            )
        })
    }

    /// The path a copy from `src` to `dst` (each an address space and, for memory of a block, the block's base)
    /// run by stream `h` takes: between two devices, over the peer link if the device that runs the copy (the
    /// stream's) may access the other one — through the peer table for ordinary memory, through the pool's
    /// access for a pool's (`pools/access.rs`) — else staged through the host (or refused, where the dialect
    /// refuses copies between devices without peer access).
    pub(crate) fn route_path(
        &self,
        st: &crate::engine::process::ProcState,
        h: u64,
        what: &'static str,
        (sspace, sbase): (AddressSpace, Option<u64>),
        (dspace, dbase): (AddressSpace, Option<u64>),
    ) -> Result<CopyPath> {
        Ok(match copy_path(sspace, dspace) {
            CopyPath::StagedThroughHost => {
                let (AddressSpace::Device(a), AddressSpace::Device(b)) = (sspace, dspace) else {
                    unreachable!("staged copies are device to device")
                };
                // Access is one direction: the device that runs the copy (the stream's) must be able to reach
                // the memory of the other one (both, when it is neither).
                let runner = st.streams.get(h)?.device;
                let reaches = |device: u32, base: Option<u64>| {
                    device == runner
                        || match base.and_then(|b| st.pool_access_of(b)) {
                            Some((_, access)) => access.contains(&runner),
                            None => st.peers.contains(&(runner, device)),
                        }
                };
                if reaches(a, sbase) && reaches(b, dbase) {
                    CopyPath::PeerLink
                } else if self.m.rules.peer_copy_without_access == PeerCopy::Reject {
                    return Err(SimError::PeerAccessRequired {
                        what,
                        src: a,
                        dst: b,
                    });
                } else {
                    CopyPath::StagedThroughHost
                }
            }
            p => p,
        })
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for four public copy calls"
    )]
    fn copy(
        &self,
        c: &mut Call,
        (what, site): (&'static str, &'static Location<'static>),
        dst: Dst<'_>,
        src: Src<'_>,
        bytes: u64,
        stream: Stream,
        (sync, raw): (bool, bool),
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        if sync {
            self.check_unsafe_call(c, what)?;
        }
        let endpoints = (dst_endpoint(&dst), src_endpoint(&src));
        let mem = &self.m.memory;
        // A captured copy may name a graph allocation that is not live: its node resolves it at each launch
        // (graph/memory.rs). Anywhere else the address's error stands (`unresolved`).
        let mut unresolved: Option<SimError> = None;
        let mut device = |p: DevicePtr| -> Result<(Option<Region>, AddressSpace, u64)> {
            match mem.device_region(what, p, bytes, c.process) {
                Ok(r) => {
                    let (space, base) = (r.block.space, r.block.base);
                    Ok((Some(r), space, base))
                }
                Err(e) => match mem.graph_space(p.addr(), bytes) {
                    Some((space, base)) => {
                        unresolved.get_or_insert(e);
                        Ok((None, space, base))
                    }
                    None => Err(e),
                },
            }
        };
        let (source, sspace, sbase) = match src {
            Src::Device(p) => {
                let (r, space, base) = device(p)?;
                (r.map(CopySource::Region), space, Some(base))
            }
            Src::Pinned(p) => {
                let r = mem.pinned_region(what, p, bytes, c.process)?;
                let base = r.block.base;
                (
                    Some(CopySource::Region(r)),
                    AddressSpace::PinnedHost,
                    Some(base),
                )
            }
            Src::Host(s) => {
                host_range(what, s.as_ptr() as usize, s.len(), bytes)?;
                (
                    Some(CopySource::Staged(s[..bytes as usize].to_vec())),
                    AddressSpace::PageableHost,
                    None,
                )
            }
        };
        let (out, dspace, dbase) = match dst {
            Dst::Device(p) => {
                let (r, space, base) = device(p)?;
                (r.map(Out::Region), space, Some(base))
            }
            Dst::Pinned(p) => {
                let r = mem.pinned_region(what, p, bytes, c.process)?;
                let base = r.block.base;
                (Some(Out::Region(r)), AddressSpace::PinnedHost, Some(base))
            }
            Dst::Host(s) => {
                host_range(what, s.as_ptr() as usize, s.len(), bytes)?;
                (Some(Out::Host(s)), AddressSpace::PageableHost, None)
            }
        };
        let mut accesses = Vec::new();
        if let Some(CopySource::Region(r)) = &source {
            accesses.push((r.clone(), false));
        }
        if let Some(Out::Region(r)) = &out {
            accesses.push((r.clone(), true));
        }
        let bases = (sbase, dbase);
        let back = Arc::new(Mutex::new(Vec::new()));
        let (work, out) = match (out, source) {
            (Some(Out::Region(dst)), Some(src)) => (Some(Work::Copy { src, dst }), None),
            (Some(Out::Host(slice)), Some(CopySource::Region(src))) => (
                Some(Work::CopyOut {
                    src,
                    out: back.clone(),
                }),
                Some(slice),
            ),
            (Some(Out::Host(slice)), Some(CopySource::Staged(bytes))) => {
                // Pageable to pageable: the bytes move on the host, once the copy is accepted.
                *back.lock() = bytes;
                (Some(Work::Nothing), Some(slice))
            }
            _ => (None, None),
        };
        let point = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            if !sync {
                st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            }
            let path = self.route_path(&st, h, what, (sspace, bases.0), (dspace, bases.1))?;
            if let Route::Capture(cid) = st.capture_route(&self.m, h, what)? {
                let (dst, src) = endpoints;
                let pageable = |e: Endpoint| matches!(e, Endpoint::Pageable(_));
                if pageable(dst) || pageable(src) {
                    if !self.m.rules.capture.pageable_copies {
                        let id = st.streams.get(h)?.id;
                        return Err(SimError::Capture {
                            what,
                            stream: Some(id),
                            problem: CaptureProblem::PageableCopy,
                        });
                    }
                    if !raw {
                        return Err(SimError::NotSupported {
                            what,
                            reason: "a copy of pageable host memory (a borrowed slice) cannot be captured \
                                     through the Rust API: the graph would outlive the borrow (use pinned \
                                     memory; the C API captures it)"
                                .into(),
                        });
                    }
                }
                let op = NodeOp::Copy {
                    what,
                    dst,
                    src,
                    bytes,
                    path,
                };
                return st.capture_node(cid, h, op, site).map(drop);
            }
            let Some(work) = work else {
                return Err(unresolved.expect("an unresolved end has its error"));
            };
            let who = self.who(&mut st, h, "memcpy", what, site, &accesses)?;
            // The operation keeps its own reference; the stream keeps one too, for the next time.
            Self::who_back(&mut st, h, who.clone());
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    self.m.cost.copy_nanos(path, bytes),
                    Cow::Borrowed(what),
                    OpKind::Memcpy { path, bytes },
                    work,
                )
                .accesses(accesses, who)
                .synchronous(sync),
            )?;
            // A host that waits on it acquires the stream's clock there.
            if sync || out.is_some() {
                st.with_clock(h, point)?
            } else {
                point
            }
        };
        if sync || out.is_some() {
            self.wait_for_copy(c, what, &point)?;
        }
        if let Some(slice) = out {
            let data = back.lock();
            slice[..data.len()].copy_from_slice(&data);
        }
        Ok(())
    }

    /// Sets `bytes` bytes of device memory to `value` and returns when done (ordered on the default stream).
    #[track_caller]
    pub fn memset(&self, ptr: DevicePtr, value: u8, bytes: u64) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::Memset.name(), |c| {
            let at = (EngineCall::Memset.name(), site);
            self.fill(
                c,
                at,
                Fill::Device(ptr),
                value,
                bytes,
                Stream::DEFAULT,
                true,
            )
        })
    }

    /// Enqueues a memset on `stream`.
    #[track_caller]
    pub fn memset_async(
        &self,
        ptr: DevicePtr,
        value: u8,
        bytes: u64,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::MemsetAsync.name(), |c| {
            let at = (EngineCall::MemsetAsync.name(), site);
            self.fill(c, at, Fill::Device(ptr), value, bytes, stream, false)
        })
    }

    /// Sets `bytes` bytes of pinned host memory (from [`Process::malloc_host`]) to `value` and returns when done
    /// (ordered on the default stream): ACL's `aclrtMemset` on `aclrtMallocHost` memory ("host memory from the
    /// ACL APIs", `docs/semantics/acl.md` · Memset / MemsetAsync). A real write when it runs, checked for races like a
    /// copy into the buffer. It costs a device-to-host copy of its size (sim: the device writes host memory).
    #[track_caller]
    pub fn memset_host(&self, ptr: HostPtr, value: u8, bytes: u64) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::Memset.name(), |c| {
            let at = (EngineCall::Memset.name(), site);
            self.fill(
                c,
                at,
                Fill::Pinned(ptr),
                value,
                bytes,
                Stream::DEFAULT,
                true,
            )
        })
    }

    /// Enqueues a memset of pinned host memory on `stream` (see [`Process::memset_host`]).
    #[track_caller]
    pub fn memset_host_async(
        &self,
        ptr: HostPtr,
        value: u8,
        bytes: u64,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        self.call(EngineCall::MemsetAsync.name(), |c| {
            let at = (EngineCall::MemsetAsync.name(), site);
            self.fill(c, at, Fill::Pinned(ptr), value, bytes, stream, false)
        })
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for four public calls"
    )]
    fn fill(
        &self,
        c: &mut Call,
        (what, site): (&'static str, &'static Location<'static>),
        target: Fill,
        value: u8,
        bytes: u64,
        stream: Stream,
        sync: bool,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        if sync {
            self.check_unsafe_call(c, what)?;
        }
        let endpoint = match target {
            Fill::Device(p) => Endpoint::Device(p),
            Fill::Pinned(p) => Endpoint::Pinned(p),
        };
        let mem = &self.m.memory;
        let (dst, path) = match target {
            // Managed memory is host memory at a host address; a memset of it is the device's.
            Fill::Device(ptr) if mem.is_managed(ptr.addr()) => (
                Ok(mem.pinned_region(what, HostPtr(ptr.addr()), bytes, c.process)?),
                CopyPath::OnDevice,
            ),
            // A captured memset may name a graph allocation that is not live (its node resolves it at each
            // launch, graph/memory.rs); anywhere else the address's error stands.
            Fill::Device(ptr) => match mem.device_region(what, ptr, bytes, c.process) {
                Ok(r) => (Ok(r), CopyPath::OnDevice),
                Err(e) if mem.graph_space(ptr.addr(), bytes).is_some() => {
                    (Err(e), CopyPath::OnDevice)
                }
                Err(e) => return Err(e),
            },
            Fill::Pinned(ptr) => (
                Ok(mem.pinned_region(what, ptr, bytes, c.process)?),
                CopyPath::DeviceToHost,
            ),
        };
        let point = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            if !sync {
                st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            }
            if let Route::Capture(cid) = st.capture_route(&self.m, h, what)? {
                let op = NodeOp::Memset {
                    what,
                    dst: endpoint,
                    value,
                    bytes,
                    path,
                };
                return st.capture_node(cid, h, op, site).map(drop);
            }
            let dst = dst?;
            let accesses = vec![(dst.clone(), true)];
            let who = self.who(&mut st, h, "memset", what, site, &accesses)?;
            // The operation keeps its own reference; the stream keeps one too, for the next time.
            Self::who_back(&mut st, h, who.clone());
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    self.m.cost.copy_nanos(path, bytes),
                    Cow::Borrowed(what),
                    OpKind::Memset { bytes },
                    Work::Fill { dst, value },
                )
                .accesses(accesses, who)
                .synchronous(sync),
            )?;
            // A host that waits on it acquires the stream's clock there.
            if sync {
                st.with_clock(h, point)?
            } else {
                point
            }
        };
        if sync {
            self.wait_for_copy(c, what, &point)?;
        }
        Ok(())
    }
}
