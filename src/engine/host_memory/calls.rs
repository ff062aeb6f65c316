//! Pinned host memory beyond `malloc_host`: registering the program's own memory as pinned, the device
//! pointer of pinned memory, and what a pointer is.
//!
//! A registered range behaves as pinned memory from the registration on: copies read and write it when they
//! run on their stream (not staged at the call, as pageable memory is), and race detection tracks it like a
//! `malloc_host` buffer. The machine has one address space shared by host and devices (unified addressing), so
//! the device pointer of pinned memory is its host pointer.

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::pointers::{AddressSpace, DEVICE_ADDRESS_BASE};
use crate::engine::machine::Attribute;
use crate::engine::process::Process;

/// What kind of memory a pointer points into (CUDA `enum cudaMemoryType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryKind {
    /// Host memory the runtime does not know (ordinary pageable memory).
    Unregistered,
    /// Pinned host memory: allocated pinned, or registered.
    Host,
    /// Device memory.
    Device,
    /// Managed memory (`cudaMallocManaged`, `__managed__`): host memory the devices reach too.
    Managed,
}

/// What a pointer points into (CUDA `cudaPointerAttributes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointerAttributes {
    /// The kind of memory.
    pub kind: MemoryKind,
    /// Device memory: its device. Pinned host memory: the device that was current when it was allocated or
    /// registered. `None` for unregistered memory.
    pub device: Option<u32>,
    /// The start of the allocation or registered range (the pointer itself for unregistered memory).
    pub base: u64,
    /// Its length in bytes (0 for unregistered memory).
    pub len: u64,
    /// Whether it is registered program memory (rather than a pinned allocation).
    pub registered: bool,
}

/// Registration, device pointers and pointer attributes.
impl Process {
    /// Registers `len` bytes of host memory at `ptr` as pinned memory of this process (CUDA
    /// `cudaHostRegister`): copies then read and write it when they run, and race detection tracks it. The
    /// current device must have [`Attribute::HostRegisterSupported`]. Read-only registration is refused with
    /// [`SimError::NotSupported`] (the device must have [`Attribute::HostRegisterReadOnlySupported`], and even
    /// then the simulator does not model it). A range that overlaps pinned memory is
    /// [`SimError::HostMemory`] ([`HostMemoryProblem::AlreadyRegistered`](crate::error::HostMemoryProblem)).
    ///
    /// # Safety
    /// The range is host memory valid for reads and writes until [`Process::host_unregister`]; work queued on it
    /// must be finished before then (work still queued at the unregistration touches no memory).
    pub unsafe fn host_register(&self, ptr: *mut u8, len: u64, read_only: bool) -> Result<()> {
        let what = "host_register";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            let m = self.machine();
            if m.device_attribute(d, Attribute::HostRegisterSupported)? == 0 {
                return Err(SimError::NotSupported {
                    what,
                    reason: format!("device {d} does not support registering host memory"),
                });
            }
            if read_only {
                let supported = m.device_attribute(d, Attribute::HostRegisterReadOnlySupported)?;
                return Err(SimError::NotSupported {
                    what,
                    reason: if supported == 0 {
                        format!("device {d} does not support read-only registration")
                    } else {
                        "read-only registration is not simulated".to_string()
                    },
                });
            }
            let addr = ptr as usize as u64;
            if writable_host_range(addr, len) == Some(false) {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "{len} bytes at {addr:#x} are not mapped writable host memory of this OS process"
                    ),
                });
            }
            // SAFETY: forwarded contract; the range is mapped and writable (checked above where the OS says).
            unsafe {
                self.m
                    .memory
                    .register_host(addr, len, c.process, Some(d))
            }
        })
    }

    /// Ends the registration of the range starting at `ptr` (CUDA `cudaHostUnregister`); the memory is
    /// pageable again.
    pub fn host_unregister(&self, ptr: *mut u8) -> Result<()> {
        self.call(EngineCall::HostUnregister.name(), |c| {
            self.m
                .memory
                .unregister_host(ptr as usize as u64, c.process)
        })
    }

    /// The device pointer through which the current device reaches pinned host memory at `addr` (CUDA
    /// `cudaHostGetDevicePointer`): the same address, the machine having one address space. Memory that is not
    /// this process's pinned memory, or a device that cannot map host memory ([`Attribute::CanMapHostMemory`]
    /// 0), is [`SimError::InvalidValue`].
    pub fn host_device_pointer(&self, addr: u64) -> Result<u64> {
        let what = "host_device_pointer";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            if self.machine().device_attribute(d, Attribute::CanMapHostMemory)? == 0 {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!("device {d} cannot map host memory"),
                });
            }
            match self.m.memory.block_at(addr) {
                Some(b) if b.space == AddressSpace::PinnedHost && b.owner == c.process => Ok(addr),
                _ => Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "{addr:#x} is not pinned host memory of this process (allocated pinned or registered)"
                    ),
                }),
            }
        })
    }

    /// What `addr` points into (CUDA `cudaPointerGetAttributes`): device memory of this process, pinned host
    /// memory of this process, or else unregistered host memory. NULL, and an address in a device's range that
    /// is no live allocation of this process, are [`SimError::InvalidValue`].
    pub fn pointer_attributes(&self, addr: u64) -> Result<PointerAttributes> {
        let what = "pointer_attributes";
        self.call(what, |c| {
            let invalid = |reason: String| SimError::InvalidValue { what, reason };
            if addr == 0 {
                return Err(invalid("NULL pointer".into()));
            }
            let block = self.m.memory.block_at(addr).filter(|b| b.owner == c.process);
            match (block, addr >= DEVICE_ADDRESS_BASE) {
                (Some(b), _) => Ok(PointerAttributes {
                    kind: match b.space {
                        AddressSpace::Device(_) => MemoryKind::Device,
                        _ if self.m.memory.is_managed_base(b.base) => MemoryKind::Managed,
                        _ => MemoryKind::Host,
                    },
                    device: match b.space {
                        AddressSpace::Device(d) => Some(d),
                        _ => b.host.and_then(|h| h.device),
                    },
                    base: b.base,
                    len: b.len,
                    registered: b.host.is_some_and(|h| h.registered),
                }),
                (None, true) if self.m.memory.classify(addr) != AddressSpace::PageableHost => {
                    Err(invalid(format!(
                        "{addr:#x} is in a device's address range but in no live allocation of this process"
                    )))
                }
                (None, _) => Ok(PointerAttributes {
                    kind: MemoryKind::Unregistered,
                    device: None,
                    base: addr,
                    len: 0,
                    registered: false,
                }),
            }
        })
    }
}

/// Whether `[addr, addr + len)` is covered by writable mappings of this OS process, as `/proc/self/maps` lists
/// them (the driver page-locks the range, which fails on unmapped pages; the simulator will read and write
/// it). `None` where the OS does not say (no `/proc`).
fn writable_host_range(addr: u64, len: u64) -> Option<bool> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let Some(end) = addr.checked_add(len) else {
        return Some(false);
    };
    let mut writable: Vec<(u64, u64)> = maps
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (range, perms) = (fields.next()?, fields.next()?);
            let (a, b) = range.split_once('-')?;
            let (a, b) = (
                u64::from_str_radix(a, 16).ok()?,
                u64::from_str_radix(b, 16).ok()?,
            );
            (perms.as_bytes().get(1) == Some(&b'w')).then_some((a, b))
        })
        .collect();
    writable.sort_unstable();
    // Walk the covered prefix from `addr`: every byte up to `end` must be in some writable mapping.
    let mut covered = addr;
    for (a, b) in writable {
        if a > covered {
            break;
        }
        covered = covered.max(b);
        if covered >= end {
            return Some(true);
        }
    }
    Some(covered >= end)
}
