//! The managed-memory calls of [`Process`]: allocation (`cudaMallocManaged`), `__managed__` variables, the
//! free by `cudaFree`, prefetch (`cudaMemPrefetchAsync`), advice (`cudaMemAdvise`), stream association
//! (`cudaStreamAttachMemAsync`) and range attributes (`cudaMemRangeGetAttribute(s)`). What a managed
//! allocation is: `memory/managed.rs`; the rows and sources: `docs/semantics/managed-memory.md`.
//!
//! Managed memory is host memory at a host address, in the pinned table: copies, memsets, kernels' declared
//! accesses and the host reads and writes of the API are checked for races on it like on pinned memory. What
//! the host does by dereferencing the pointer is seen only after a tracked launch, the first access to each page
//! (`memory/watch.rs`, [`Process::record_host_faults`]).

use std::borrow::Cow;
use std::panic::Location;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::Stream;
use crate::engine::core::pointers::{AddressSpace, HostPtr};
use crate::engine::core::time::CopyPath;
use crate::engine::exec::Work;
use crate::engine::graph::gate::Route;
use crate::engine::machine::Attribute;
pub use crate::engine::memory::managed::{
    MANAGED_PAGE, ManagedAdvice, ManagedAttach, ManagedLocation, ManagedRangeAttributes,
};
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, Process};

/// A managed-memory call on a capturing stream: not simulated (refused; the capture goes on).
fn not_in_capture(what: &'static str) -> SimError {
    SimError::NotSupported {
        what,
        reason: "managed-memory operations in a capturing stream are not simulated".into(),
    }
}

/// The raw handles of the NULL stream (`0`, the per-process default) and the legacy stream (`cudaStreamLegacy`).
const NULL_STREAMS: [u64; 2] = [0, 1];

impl Process {
    /// Allocates `bytes` of managed memory on the current device (CUDA `cudaMallocManaged`): host memory at a
    /// host address, which the host may dereference and kernels of any device reach at the same address. A size
    /// of 0 is [`SimError::InvalidValue`]; a device without [`Attribute::ManagedMemory`] is
    /// [`SimError::NotSupported`]. [`ManagedAttach::Single`] is not an allocation's association
    /// ([`SimError::InvalidFlags`]). Freed with [`Process::free`].
    pub fn malloc_managed(&self, bytes: u64, attach: ManagedAttach) -> Result<HostPtr> {
        let what = "malloc_managed";
        self.call(what, |c| {
            self.check_unsafe_call(c, EngineCall::Malloc.name())?;
            if attach == ManagedAttach::Single {
                return Err(SimError::InvalidFlags {
                    what,
                    flags: 0x04,
                    reason: "an allocation is attached globally or to the host; a single stream only through \
                             cudaStreamAttachMemAsync",
                });
            }
            if bytes == 0 {
                return Err(SimError::InvalidValue {
                    what,
                    reason: "size 0".into(),
                });
            }
            let (d, _) = self.state().current(&self.m, c, what)?;
            self.managed_supported(what, d)?;
            self.m
                .memory
                .malloc_managed(what, bytes, c.process, d, attach)
        })
    }

    /// Registers the program's `len` bytes at `ptr` — a `__managed__` variable — as managed memory of this
    /// process, attached globally to the current device (`streamsim cc` calls this when the variable is
    /// registered).
    ///
    /// # Safety
    /// The range is host memory valid for reads and writes for the process's life.
    pub unsafe fn register_managed_var(&self, ptr: *mut u8, len: u64) -> Result<()> {
        let what = "register_managed_var";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            // SAFETY: forwarded contract.
            unsafe {
                self.m
                    .memory
                    .register_managed(ptr as usize as u64, len, c.process, d)
            }
        })
    }

    /// Whether `addr` is in managed memory of this process (allocated or a `__managed__` variable).
    pub fn is_managed(&self, addr: u64) -> bool {
        let me = self.id();
        self.m
            .memory
            .with_managed(|t| t.find(addr).is_some_and(|(_, e)| e.owner == me))
    }

    /// The free of managed memory by [`Process::free`]: `Ok(false)` if `addr` is not managed memory.
    /// Like any host free, work the calling thread has not observed complete is a use after free.
    pub(crate) fn free_managed_by_host(
        &self,
        c: &Call,
        site: &'static Location<'static>,
        addr: u64,
    ) -> Result<bool> {
        let found = self.m.memory.with_managed(|t| {
            t.find(addr)
                .map(|(base, e)| (base, e.owner == c.process, e.variable))
        });
        let problem = match found {
            None => return Ok(false),
            Some((_, false, _)) => "managed memory of another process",
            Some((_, _, true)) => "a __managed__ variable, which is not freed",
            Some((base, _, _)) if base != addr => "not the start of an allocation",
            Some(_) => {
                if let Some(block) = self.m.memory.block_at(addr) {
                    self.host_free_check(&mut self.state(), c, site, &block)?;
                }
                self.m.memory.free_managed(addr);
                return Ok(true);
            }
        };
        Err(SimError::InvalidAddress {
            what: EngineCall::Free.name(),
            addr,
            space: AddressSpace::PinnedHost,
            problem,
        })
    }

    /// Enqueues a prefetch of `bytes` managed bytes at `addr` to `to` on `stream` (CUDA `cudaMemPrefetchAsync`).
    /// It moves the pages that are elsewhere (costing a copy of them over their path, on the stream) and
    /// records `to` as their last prefetch location; it reads and writes no data, so it is never part of a race.
    /// Memory that is not managed memory of this process, a size of 0 or a range past the allocation is
    /// [`SimError::InvalidValue`]; a device `to` that does not exist, or lacks
    /// [`Attribute::ConcurrentManagedAccess`], and a stream on such a device, [`SimError::InvalidDevice`].
    pub fn mem_prefetch_async(
        &self,
        addr: u64,
        bytes: u64,
        to: ManagedLocation,
        stream: Stream,
    ) -> Result<()> {
        let what = "mem_prefetch_async";
        self.call(what, |c| {
            self.managed_range(what, c, addr, bytes)?;
            if let ManagedLocation::Device(d) = to {
                self.concurrent_device(d)?;
            }
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            let runner = st.streams.get(h)?.device;
            self.concurrent_device(runner)?;
            if let Route::Capture(_) = st.capture_route(&self.m, h, what)? {
                return Err(not_in_capture(what));
            }
            let (moved, from) = self.m.memory.with_managed(|t| {
                let (base, e) = t.find_mut(addr).expect("checked by managed_range");
                e.prefetch(addr - base, bytes, to)
            });
            let path = match (from, to) {
                (None, _) => CopyPath::HostToHost,
                (Some(ManagedLocation::Host), ManagedLocation::Host) => CopyPath::HostToHost,
                (Some(ManagedLocation::Host), ManagedLocation::Device(_)) => CopyPath::HostToDevice,
                (Some(ManagedLocation::Device(_)), ManagedLocation::Host) => CopyPath::DeviceToHost,
                (Some(ManagedLocation::Device(a)), ManagedLocation::Device(b)) => {
                    if st.peers.contains(&(runner, a)) && st.peers.contains(&(runner, b))
                        || st.peers.contains(&(a, b))
                    {
                        CopyPath::PeerLink
                    } else {
                        CopyPath::StagedThroughHost
                    }
                }
            };
            let cost = if moved == 0 {
                0
            } else {
                self.m.cost.copy_nanos(path, moved)
            };
            st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    cost,
                    Cow::Borrowed("mem_prefetch_async"),
                    OpKind::Memcpy { path, bytes: moved },
                    Work::Nothing,
                ),
            )?;
            Ok(())
        })
    }

    /// Applies `advice` to `bytes` managed bytes at `addr` (CUDA `cudaMemAdvise`), page by page. The same
    /// checks as [`Process::mem_prefetch_async`] for the range; a preferred or accessing device that does not
    /// exist or lacks [`Attribute::ConcurrentManagedAccess`] is [`SimError::InvalidDevice`].
    pub fn mem_advise(&self, addr: u64, bytes: u64, advice: ManagedAdvice) -> Result<()> {
        let what = "mem_advise";
        self.call(what, |c| {
            self.managed_range(what, c, addr, bytes)?;
            if let ManagedAdvice::SetPreferredLocation(ManagedLocation::Device(d))
            | ManagedAdvice::SetAccessedBy(ManagedLocation::Device(d))
            | ManagedAdvice::UnsetAccessedBy(ManagedLocation::Device(d)) = advice
            {
                self.concurrent_device(d)?;
            }
            self.m.memory.with_managed(|t| {
                let (base, e) = t.find_mut(addr).expect("checked by managed_range");
                e.advise(addr - base, bytes, advice);
            });
            Ok(())
        })
    }

    /// What `bytes` managed bytes at `addr` are (CUDA `cudaMemRangeGetAttribute(s)`): each attribute as it holds
    /// for every page of the range. The same range checks as [`Process::mem_prefetch_async`].
    pub fn mem_range_attributes(&self, addr: u64, bytes: u64) -> Result<ManagedRangeAttributes> {
        let what = "mem_range_attributes";
        self.call(what, |c| {
            self.managed_range(what, c, addr, bytes)?;
            Ok(self.m.memory.with_managed(|t| {
                let (base, e) = t.find(addr).expect("checked by managed_range");
                e.attributes(addr - base, bytes)
            }))
        })
    }

    /// Associates the managed allocation at `addr` with `stream` (CUDA `cudaStreamAttachMemAsync`):
    /// [`ManagedAttach::Single`] with that stream only, or globally, or with the host. `addr` must be the start
    /// of the allocation and `len` 0 or its whole size; a single association with the NULL or the legacy stream
    /// is refused ([`SimError::InvalidValue`]). The association takes effect at the call (sim: the vendor
    /// orders it on the stream; no call observes the difference), and reverts to the allocation's own when the
    /// stream is destroyed.
    pub fn stream_attach_mem(
        &self,
        stream: Stream,
        addr: u64,
        len: u64,
        attach: ManagedAttach,
    ) -> Result<()> {
        let what = "stream_attach_mem";
        self.call(what, |c| {
            let invalid = |reason: String| SimError::InvalidValue { what, reason };
            let found = self.m.memory.with_managed(|t| {
                t.find(addr)
                    .map(|(b, e)| (b, e.len, e.owner == c.process))
            });
            let Some((base, size, true)) = found else {
                return Err(invalid(format!(
                    "{addr:#x} is not managed memory of this process"
                )));
            };
            if base != addr || (len != 0 && len != size) {
                return Err(invalid(format!(
                    "the association is the whole allocation's: the pointer must be its start ({base:#x}) and the \
                     length 0 or {size}"
                )));
            }
            if attach == ManagedAttach::Single && NULL_STREAMS.contains(&stream.0) {
                return Err(invalid(
                    "a single association needs a stream: the NULL stream is not one".into(),
                ));
            }
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.streams.get(h)?;
            if let Route::Capture(_) = st.capture_route(&self.m, h, what)? {
                return Err(not_in_capture(what));
            }
            drop(st);
            self.m.memory.with_managed(|t| {
                let (_, e) = t.find_mut(addr).expect("found above");
                e.attach = attach;
                e.attach_stream = (attach == ManagedAttach::Single).then_some(h);
            });
            Ok(())
        })
    }

    /// The association of the managed allocation holding `addr`: the kind and, for a single association, the
    /// stream (the allocation's own once that stream is destroyed).
    pub fn managed_attach(&self, addr: u64) -> Result<(ManagedAttach, Option<Stream>)> {
        let what = "managed_attach";
        self.call(what, |c| {
            let found = self.m.memory.with_managed(|t| {
                t.find(addr)
                    .filter(|(_, e)| e.owner == c.process)
                    .map(|(_, e)| (e.attach, e.attach_stream, e.default_attach))
            });
            let Some((attach, stream, default)) = found else {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!("{addr:#x} is not managed memory of this process"),
                });
            };
            match stream {
                Some(h) if self.state().streams.get(h).is_ok() => Ok((attach, Some(Stream(h)))),
                Some(_) => Ok((default, None)),
                None => Ok((attach, None)),
            }
        })
    }

    /// The rule of a device without [`Attribute::ConcurrentManagedAccess`] ("the host may not touch managed
    /// memory while any kernel runs"): a kernel launched on stream `h` of such a device is taken to read every
    /// managed allocation it may reach — attached globally, or singly to `h` — and a host access of such memory
    /// ([`Process::host_read`] too, see [`Process::managed_exclusive`]) counts as a write, so that a host access
    /// the runtime sees not ordered after the kernel is a race report, while kernels and copies on other streams
    /// do not conflict with it. Appended to `accesses`; nothing on devices with concurrent access.
    pub(crate) fn managed_implicit(
        &self,
        st: &crate::engine::process::ProcState,
        h: u64,
        accesses: &mut Vec<(crate::engine::memory::block::Region, bool)>,
    ) -> Result<()> {
        let device = st.streams.get(h)?.device;
        if self
            .machine()
            .device_attribute(device, Attribute::ConcurrentManagedAccess)?
            != 0
        {
            return Ok(());
        }
        let reach = self
            .m
            .memory
            .reachable_managed(self.id(), h, |s| st.streams.get(s).is_ok());
        for (base, len) in reach {
            if len == 0 {
                continue;
            }
            if let Ok(r) =
                self.m
                    .memory
                    .pinned_region("kernel launch", HostPtr(base), len, self.id())
            {
                accesses.push((r, false));
            }
        }
        Ok(())
    }

    /// The host's own loads and stores of managed memory that faulted since this thread's last call
    /// (`memory/watch.rs`), recorded now, at the start of the thread's next call (the same place in its program
    /// order, and no simulator lock is held): each a host access of the byte the fault named, checked like
    /// [`Process::host_read`]'s (a read of managed memory of a device without concurrent managed access
    /// conflicts with kernels' reads too). Notes of another machine's memory are dropped.
    pub(crate) fn record_host_faults(&self, c: &Call) {
        for (addr, write) in self.m.memory.take_host_faults() {
            if !self.m.memory.is_managed(addr) {
                continue;
            }
            let Ok(r) = self
                .m
                .memory
                .pinned_region("host access", HostPtr(addr), 1, c.process)
            else {
                continue;
            };
            let (call, site) = if write {
                ("host store", Location::caller())
            } else {
                ("host load", Location::caller())
            };
            let conflicts = write || (self.m.race.on() && self.managed_exclusive(&r));
            let _ = self.host_access(c, call, site, &r, conflicts);
        }
    }

    /// Whether a host access of `r` conflicts with any kernel access: `r` is managed memory of a device without
    /// [`Attribute::ConcurrentManagedAccess`] (see [`Process::managed_implicit`]).
    pub(crate) fn managed_exclusive(&self, r: &crate::engine::memory::block::Region) -> bool {
        let Some(device) = r.block.host.and_then(|h| h.device) else {
            return false;
        };
        self.m.memory.is_managed_base(r.block.base)
            && self
                .machine()
                .device_attribute(device, Attribute::ConcurrentManagedAccess)
                .is_ok_and(|v| v == 0)
    }

    /// `[addr, addr + bytes)` is inside one managed allocation (or variable) of this process, and not empty.
    fn managed_range(&self, what: &'static str, c: &Call, addr: u64, bytes: u64) -> Result<()> {
        let invalid = |reason: String| SimError::InvalidValue { what, reason };
        if bytes == 0 {
            return Err(invalid("a range of 0 bytes".into()));
        }
        let found = self
            .m
            .memory
            .with_managed(|t| t.find(addr).map(|(b, e)| (b, e.len, e.owner == c.process)));
        match found {
            Some((base, len, true)) => {
                if (addr - base).checked_add(bytes).is_none_or(|end| end > len) {
                    return Err(invalid(format!(
                        "{bytes} bytes at {addr:#x} run past the end of the {len}-byte managed allocation at \
                         {base:#x}"
                    )));
                }
                Ok(())
            }
            _ => Err(invalid(format!(
                "{addr:#x} is not managed memory of this process (cudaMallocManaged or __managed__)"
            ))),
        }
    }

    /// Device `d` exists and supports managed memory.
    fn managed_supported(&self, what: &'static str, d: u32) -> Result<()> {
        if self
            .machine()
            .device_attribute(d, Attribute::ManagedMemory)?
            == 0
        {
            return Err(SimError::NotSupported {
                what,
                reason: format!("device {d} does not support managed memory"),
            });
        }
        Ok(())
    }

    /// Device `d` exists and has concurrent managed access (a prefetch to it, or advice naming it).
    fn concurrent_device(&self, d: u32) -> Result<()> {
        let d = self.m.check_device(i64::from(d))?;
        if self
            .machine()
            .device_attribute(d, Attribute::ConcurrentManagedAccess)?
            == 0
        {
            return Err(SimError::InvalidDevice {
                device: i64::from(d),
                count: self.machine().device_count(),
            });
        }
        Ok(())
    }
}
