//! Kernels: what a launch carries ([`Kernel`]) and what a kernel body sees when it runs ([`KernelCtx`]).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::core::error::FaultKind;
use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::pointers::{DevicePtr, HostPtr};
use crate::engine::memory::Memory;
use crate::engine::memory::block::Region;

/// A kernel body that a graph can run at every launch.
pub(crate) type SharedBody = Arc<dyn Fn(&mut KernelCtx) -> Result<(), KernelError> + Send + Sync>;

/// A host function that a graph can run at every launch.
pub(crate) type SharedHostFn = Arc<dyn Fn() + Send + Sync>;

pub(crate) type KernelBody = Box<dyn FnOnce(&mut KernelCtx) -> Result<(), KernelError> + Send>;

/// A kernel's body: run once, or shareable (a graph that captured the launch runs it at every launch).
pub(crate) enum Body {
    Once(KernelBody),
    Shared(SharedBody),
}

impl Body {
    /// The body as one run of it.
    pub fn once(self) -> KernelBody {
        match self {
            Body::Once(b) => b,
            Body::Shared(f) => Box::new(move |ctx| f(ctx)),
        }
    }
}

/// A declared access of a kernel to device memory (for race detection, and for the bodies that keep to what
/// they declared: [`KernelCtx::read_declared`], [`KernelCtx::write_declared`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// Start of the range: a device address, or, where the dialect's kernels can reach pinned host memory
    /// ([`crate::Rules::kernel_pinned_access`]), a pinned host address as a `DevicePtr` (see
    /// [`Kernel::reads_pinned`]).
    pub ptr: DevicePtr,
    /// Length in bytes.
    pub bytes: u64,
    /// Whether the kernel writes the range (otherwise it only reads it).
    pub write: bool,
}

/// A kernel launch: name, virtual duration, declared accesses and an optional body run on the stream's worker.
///
/// ```
/// # use std::time::Duration;
/// # use streamsim::Kernel;
/// let k = Kernel::new("saxpy").duration(Duration::from_micros(40));
/// ```
#[must_use = "a kernel does nothing until launched"]
pub struct Kernel {
    pub(crate) name: Cow<'static, str>,
    pub(crate) duration: Option<Duration>,
    pub(crate) accesses: Vec<Access>,
    pub(crate) body: Option<Body>,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("duration", &self.duration)
            .field("accesses", &self.accesses)
            .field("body", &self.body.as_ref().map(|_| ".."))
            .finish()
    }
}

impl Kernel {
    /// A kernel with the cost model's default duration, no declared accesses and no body.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Kernel {
        Kernel {
            name: name.into(),
            duration: None,
            accesses: Vec::new(),
            body: None,
        }
    }

    /// How long the kernel runs in virtual time.
    pub fn duration(mut self, d: Duration) -> Kernel {
        self.duration = Some(d);
        self
    }

    /// Declares that the kernel reads `bytes` bytes at `ptr`.
    pub fn reads(mut self, ptr: DevicePtr, bytes: u64) -> Kernel {
        self.accesses.push(Access {
            ptr,
            bytes,
            write: false,
        });
        self
    }

    /// Declares that the kernel writes `bytes` bytes at `ptr`.
    pub fn writes(mut self, ptr: DevicePtr, bytes: u64) -> Kernel {
        self.accesses.push(Access {
            ptr,
            bytes,
            write: true,
        });
        self
    }

    /// Declares that the kernel reads `bytes` bytes of pinned host memory at `ptr` (mapped, zero-copy access:
    /// CUDA and MUSA kernels reach `cudaMallocHost` memory at its host address under unified addressing).
    /// The launch refuses it in a dialect whose kernels cannot ([`crate::Rules::kernel_pinned_access`]).
    pub fn reads_pinned(self, ptr: HostPtr, bytes: u64) -> Kernel {
        self.reads(DevicePtr(ptr.addr()), bytes)
    }

    /// Declares that the kernel writes `bytes` bytes of pinned host memory at `ptr` (see
    /// [`Kernel::reads_pinned`]).
    pub fn writes_pinned(self, ptr: HostPtr, bytes: u64) -> Kernel {
        self.writes(DevicePtr(ptr.addr()), bytes)
    }

    /// The code the kernel runs, on its stream's worker, when the stream reaches it. An `Err` or a panic is a
    /// kernel fault: sticky, reported by the next synchronize of the stream or device.
    pub fn body(
        mut self,
        f: impl FnOnce(&mut KernelCtx) -> Result<(), KernelError> + Send + 'static,
    ) -> Kernel {
        self.body = Some(Body::Once(Box::new(f)));
        self
    }

    /// Like [`Kernel::body`], for a body that can run more than once: a stream capture can put the launch into a
    /// graph, which runs the body at every launch of the graph (a [`Kernel::body`] cannot be captured:
    /// [`crate::SimError::NotSupported`]). The C API's kernels have bodies of this kind.
    pub fn shared_body(
        mut self,
        f: impl Fn(&mut KernelCtx) -> Result<(), KernelError> + Send + Sync + 'static,
    ) -> Kernel {
        self.body = Some(Body::Shared(std::sync::Arc::new(f)));
        self
    }
}

/// Why a kernel body failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelError {
    /// What kind of fault this is.
    pub kind: FaultKind,
    /// A description.
    pub message: String,
}

impl From<&str> for KernelError {
    fn from(s: &str) -> Self {
        KernelError {
            kind: FaultKind::LaunchFailure,
            message: s.to_string(),
        }
    }
}

impl From<String> for KernelError {
    fn from(s: String) -> Self {
        KernelError {
            kind: FaultKind::LaunchFailure,
            message: s,
        }
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.message)
    }
}

impl std::error::Error for KernelError {}

/// What a kernel body sees: the device memory of its process. An access outside every live allocation of the
/// process is an [`FaultKind::IllegalAddress`] error; return it with `?` to fault the kernel.
///
/// [`KernelCtx::read`] and [`KernelCtx::write`] reach any live device allocation of the process.
/// [`KernelCtx::read_declared`] and [`KernelCtx::write_declared`] reach only what the launch declared (the
/// ranges resolved at the launch, so memory freed after it is still there, as for copies): reading anywhere
/// in a declared range, writing only in a range declared written. A body that keeps to them makes the race
/// detector's verdicts cover every byte it touches.
pub struct KernelCtx {
    memory: Arc<Memory>,
    process: ProcessId,
    /// The launch's declared accesses, resolved at the launch: (region, written).
    declared: Vec<(Region, bool)>,
    /// The operation that runs the kernel: its stream (and so its device) and its place in the stream.
    op: (StreamId, u64),
    /// What the launch's device may reach of other devices' memory, as the launch found it; `None` on a
    /// machine of one device (and for work that is no launch of a kernel).
    reach: Option<Arc<Reach>>,
}

/// What a launch's device may reach of other devices' memory, taken when the launch is made (so that a later
/// change of peer access does not change what a queued kernel may do: program order decides): the devices
/// whose ordinary allocations it may access (peer access it enabled), and the chunks of other devices' memory
/// pools with whether it may access them (`cudaMemPoolSetAccess`; peer access does not reach pool memory).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    /// The devices whose ordinary memory the launch's device may access.
    pub peers: Vec<u32>,
    /// Chunks of other devices' pools: (base, length, whether the launch's device may access them).
    pub pool_chunks: Vec<(u64, u64, bool)>,
}

/// Why a kernel cannot access a live allocation of another device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unreachable {
    /// Ordinary memory of `peer`, to which the kernel's device has not enabled peer access.
    Peer { device: u32, peer: u32 },
    /// Memory of a pool of `peer` that does not give the kernel's device access.
    Pool { device: u32, peer: u32 },
}

impl std::fmt::Debug for KernelCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelCtx")
            .field("process", &self.process)
            .finish()
    }
}

impl KernelCtx {
    pub(crate) fn new(
        memory: Arc<Memory>,
        process: ProcessId,
        declared: Vec<(Region, bool)>,
        op: (StreamId, u64),
        reach: Option<Arc<Reach>>,
    ) -> KernelCtx {
        KernelCtx {
            memory,
            process,
            declared,
            op,
            reach,
        }
    }

    /// Whether the kernel may not access the live block `b` because it is memory of another device that the
    /// launch's device could not reach when the launch was made: managed and pinned host memory are reachable
    /// from every device; a pool's memory as its access says; other device memory (allocations, IPC mappings,
    /// which live on the exporter's device) through peer access.
    pub(crate) fn unreachable(
        &self,
        b: &crate::engine::memory::block::Block,
    ) -> Option<Unreachable> {
        let crate::engine::core::pointers::AddressSpace::Device(peer) = b.space else {
            return None;
        };
        let device = self.op.0.device;
        if peer == device {
            return None;
        }
        let reach = self.reach.as_ref()?;
        if let Some(&(_, _, ok)) = reach
            .pool_chunks
            .iter()
            .find(|&&(a, l, _)| b.base >= a && b.base - a < l)
        {
            return (!ok).then_some(Unreachable::Pool { device, peer });
        }
        (!reach.peers.contains(&peer)).then_some(Unreachable::Peer { device, peer })
    }

    /// The declared region holding `[ptr, ptr + len)`, checked: inside one allocation and covered by the
    /// declared ranges (written ones only, for a write). The block and the offset in it.
    fn declared_region(
        &self,
        ptr: DevicePtr,
        len: u64,
        write: bool,
    ) -> Result<(&Region, u64), KernelError> {
        let verb = if write { "write" } else { "read" };
        let fault = |why: &str| KernelError {
            kind: FaultKind::IllegalAddress,
            message: format!("{verb} of {len} bytes at {ptr} {why}"),
        };
        let start = ptr.addr();
        let end = start
            .checked_add(len)
            .ok_or_else(|| fault("runs past the end of the address space"))?;
        // The allocation: the one of a declared range that holds `ptr`.
        let Some(home) = self
            .declared
            .iter()
            .map(|(r, _)| r)
            .find(|r| start >= r.block.base && start - r.block.base < r.block.len.max(1))
        else {
            return Err(fault("is outside the kernel's declared accesses"));
        };
        if end > home.block.base + home.block.len {
            return Err(fault(&format!(
                "runs past the end of the {}-byte allocation at {:#x}",
                home.block.len, home.block.base
            )));
        }
        // Covered by the union of the declared ranges of that allocation (of the written ones for a write).
        let mut ranges: Vec<(u64, u64)> = self
            .declared
            .iter()
            .filter(|(r, w)| Arc::ptr_eq(&r.block, &home.block) && (*w || !write))
            .map(|(r, _)| (r.block.base + r.offset, r.block.base + r.offset + r.len))
            .collect();
        ranges.sort_unstable();
        let mut covered = start;
        for (a, b) in ranges {
            if a > covered {
                break;
            }
            covered = covered.max(b);
        }
        if covered < end {
            let readable = self.declared.iter().any(|(r, _)| {
                let a = r.block.base + r.offset;
                Arc::ptr_eq(&r.block, &home.block) && a <= covered && covered < a + r.len
            });
            return Err(fault(&if write && readable {
                format!("touches {covered:#x}, which the kernel declared read-only")
            } else {
                format!("touches {covered:#x}, outside the kernel's declared accesses")
            }));
        }
        Ok((home, start - home.block.base))
    }

    /// A CPU-run kernel's access of `len` bytes at `addr` (`streamsim cc`): the live allocation of this process
    /// that holds it, as (its base, its length, where its bytes are on the host, the block to hold while the
    /// kernel runs). An address outside every live allocation is the fault's message.
    pub(crate) fn resolve_live(
        &self,
        addr: u64,
        len: u64,
    ) -> Result<(u64, u64, *mut u8, Arc<crate::engine::memory::block::Block>), String> {
        // Managed memory is host memory at its own address: it resolves to itself.
        let r = if self.memory.is_managed(addr) {
            self.memory.pinned_region(
                "kernel access",
                crate::engine::core::pointers::HostPtr(addr),
                len.max(1),
                self.process,
            )
        } else {
            self.memory
                .device_region("kernel access", DevicePtr(addr), len.max(1), self.process)
        }
        .map_err(|e| e.to_string())?;
        let host = r.block.host_ptr().ok_or_else(|| {
            format!("{len}-byte access at {addr:#x}: the memory was unregistered")
        })?;
        Ok((r.block.base, r.block.len, host, r.block))
    }

    /// memcheck's description of an access of `len` bytes at `addr` that [`KernelCtx::resolve_live`] refused:
    /// where it is relative to the allocations of its device.
    pub(crate) fn describe_bad_access(&self, addr: u64, len: u64) -> String {
        self.memory.describe_bad_access(addr, len, self.process)
    }

    /// Whether `[ptr, ptr + len)` may be read (`write == false`) or written through
    /// [`KernelCtx::read_declared`] / [`KernelCtx::write_declared`]: the same check, without touching memory
    /// (so that a caller can refuse a range before it allocates a buffer for it).
    pub(crate) fn check_declared(
        &self,
        ptr: DevicePtr,
        len: u64,
        write: bool,
    ) -> Result<(), KernelError> {
        if len == 0 {
            return Ok(());
        }
        self.declared_region(ptr, len, write).map(|_| ())
    }

    /// Reads `out.len()` bytes at `ptr`, which must lie in the kernel's declared accesses (read or written)
    /// and in one allocation; otherwise an [`FaultKind::IllegalAddress`] error. Pinned host memory the kernel
    /// declared is read the same way.
    pub fn read_declared(&self, ptr: DevicePtr, out: &mut [u8]) -> Result<(), KernelError> {
        if out.is_empty() {
            return Ok(());
        }
        let (r, offset) = self.declared_region(ptr, out.len() as u64, false)?;
        r.block.read(offset, out);
        Ok(())
    }

    /// Writes `data` at `ptr`, which must lie in the ranges the kernel declared it writes, in one allocation;
    /// otherwise (undeclared, declared read-only, past the allocation) an [`FaultKind::IllegalAddress`] error.
    pub fn write_declared(&self, ptr: DevicePtr, data: &[u8]) -> Result<(), KernelError> {
        if data.is_empty() {
            return Ok(());
        }
        let (r, offset) = self.declared_region(ptr, data.len() as u64, true)?;
        r.block.write(offset, data);
        Ok(())
    }

    fn region(&self, ptr: DevicePtr, bytes: u64) -> Result<Region, KernelError> {
        self.memory
            .device_region("kernel access", ptr, bytes, self.process)
            .map_err(|e| KernelError {
                kind: FaultKind::IllegalAddress,
                message: e.to_string(),
            })
    }

    /// Reads `out.len()` bytes at `ptr`.
    pub fn read(&self, ptr: DevicePtr, out: &mut [u8]) -> Result<(), KernelError> {
        let r = self.region(ptr, out.len() as u64)?;
        r.block.read(r.offset, out);
        Ok(())
    }

    /// Writes `data` at `ptr`.
    pub fn write(&self, ptr: DevicePtr, data: &[u8]) -> Result<(), KernelError> {
        let r = self.region(ptr, data.len() as u64)?;
        r.block.write(r.offset, data);
        Ok(())
    }

    /// Reads `n` little-endian `f32`s at `ptr`. The range is checked before anything is allocated: an `n`
    /// past the allocation (even one whose byte count overflows) is an illegal address.
    pub fn read_f32(&self, ptr: DevicePtr, n: usize) -> Result<Vec<f32>, KernelError> {
        let len = (n as u64).saturating_mul(4);
        let r = self.region(ptr, len)?;
        let mut bytes = vec![0u8; n * 4];
        r.block.read(r.offset, &mut bytes);
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Writes `values` as little-endian `f32`s at `ptr`.
    pub fn write_f32(&self, ptr: DevicePtr, values: &[f32]) -> Result<(), KernelError> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.write(ptr, &bytes)
    }
}
