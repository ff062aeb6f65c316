//! Kernels: what a launch carries ([`Kernel`]) and what a kernel body sees when it runs ([`KernelCtx`]).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::error::FaultKind;
use crate::engine::handle::ProcessId;
use crate::engine::memory::{DevicePtr, Memory, Region};

pub(crate) type KernelBody = Box<dyn FnOnce(&mut KernelCtx) -> Result<(), KernelError> + Send>;

/// A declared access of a kernel to device memory (for race detection and documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// Start of the range.
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
    pub(crate) body: Option<KernelBody>,
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

    /// The code the kernel runs, on its stream's worker, when the stream reaches it. An `Err` or a panic is a
    /// kernel fault: sticky, reported by the next synchronize of the stream or device.
    pub fn body(
        mut self,
        f: impl FnOnce(&mut KernelCtx) -> Result<(), KernelError> + Send + 'static,
    ) -> Kernel {
        self.body = Some(Box::new(f));
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
pub struct KernelCtx {
    memory: Arc<Memory>,
    process: ProcessId,
}

impl std::fmt::Debug for KernelCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelCtx")
            .field("process", &self.process)
            .finish()
    }
}

impl KernelCtx {
    pub(crate) fn new(memory: Arc<Memory>, process: ProcessId) -> KernelCtx {
        KernelCtx { memory, process }
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
