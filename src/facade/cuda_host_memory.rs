//! CUDA-family host memory: `cudaHostAlloc` and its flags, `cudaHostGetDevicePointer`, `cudaHostRegister` /
//! `cudaHostUnregister`, and `cudaPointerGetAttributes`. Rows and sources: `docs/semantics/
//! cuda-musa-runtime-api.md`.
#![allow(
    non_snake_case,
    reason = "the vendor's field names (attr.devicePointer)"
)]

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out};
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::host_memory::calls::MemoryKind;

/// `cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined`.
const HOST_ALLOC_FLAGS: c_uint = 0x01 | 0x02 | 0x04;
/// `cudaHostRegisterPortable | cudaHostRegisterMapped`: accepted, no effect beyond pinning (the machine has
/// one address space: every pinned range is mapped and portable).
const HOST_REGISTER_PLAIN: c_uint = 0x01 | 0x02;
/// `cudaHostRegisterIoMemory`.
const HOST_REGISTER_IO_MEMORY: c_uint = 0x04;
/// `cudaHostRegisterReadOnly`.
const HOST_REGISTER_READ_ONLY: c_uint = 0x08;

/// `cudaHostAlloc`: pinned host memory, as `cudaMallocHost` (the flags have no further effect: with unified
/// addressing every pinned allocation is mapped and portable, and write-combining only changes host read
/// speed, which virtual time does not model).
pub(crate) unsafe fn host_alloc(
    api: Api,
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "HostAlloc";
        if ptr.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        if flags & !HOST_ALLOC_FLAGS != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "only cudaHostAllocPortable (0x1), Mapped (0x2) and WriteCombined (0x4) are defined",
            });
        }
        let h = p.malloc_host(size as u64)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, ptr, h.as_mut_ptr().cast()) }
    })
}

pub(crate) unsafe fn host_get_device_pointer(
    api: Api,
    device_ptr: *mut *mut c_void,
    host: *mut c_void,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "HostGetDevicePointer";
        if device_ptr.is_null() || host.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        if flags != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "flags must be 0",
            });
        }
        let d = p.host_device_pointer(host as usize as u64)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, device_ptr, d as usize as *mut c_void) }
    })
}

pub(crate) unsafe fn host_register(
    api: Api,
    ptr: *mut c_void,
    size: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "HostRegister";
        let known = HOST_REGISTER_PLAIN | HOST_REGISTER_IO_MEMORY | HOST_REGISTER_READ_ONLY;
        if flags & !known != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "only cudaHostRegisterPortable, Mapped, IoMemory and ReadOnly are defined",
            });
        }
        if ptr.is_null() || size == 0 {
            return Err(invalid(what, "a NULL pointer or a size of 0"));
        }
        if flags & HOST_REGISTER_IO_MEMORY != 0 {
            return Err(SimError::NotSupported {
                what,
                reason: "registering memory-mapped I/O space (cudaHostRegisterIoMemory) is not simulated"
                    .into(),
            });
        }
        // SAFETY: the C caller's range is host memory valid until it unregisters it (the vendor's contract).
        unsafe {
            p.host_register(
                ptr.cast(),
                size as u64,
                flags & HOST_REGISTER_READ_ONLY != 0,
            )
        }
    })
}

pub(crate) fn host_unregister(api: Api, ptr: *mut c_void) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("HostUnregister", "NULL pointer"));
        }
        p.host_unregister(ptr.cast())
    })
}

/// `struct cudaPointerAttributes` (CUDA 11 and later): `type` is an `enum cudaMemoryType`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerAttributesC {
    /// `cudaMemoryTypeUnregistered` (0), `Host` (1), `Device` (2) or `Managed` (3).
    pub r#type: c_uint,
    /// The memory's device (device memory), or the device current when it was allocated or registered (pinned
    /// host memory); `cudaInvalidDeviceId` (-2) for unregistered memory.
    pub device: c_int,
    /// The address through which the current device reaches the memory, or NULL.
    pub devicePointer: *mut c_void,
    /// The address through which the host reaches the memory, or NULL.
    pub hostPointer: *mut c_void,
}

/// `cudaMemoryTypeUnregistered`, `cudaMemoryTypeHost`, `cudaMemoryTypeDevice`.
pub(crate) const MEMORY_TYPE_UNREGISTERED: c_uint = 0;
/// `cudaMemoryTypeHost`.
pub(crate) const MEMORY_TYPE_HOST: c_uint = 1;
/// `cudaMemoryTypeDevice`.
pub(crate) const MEMORY_TYPE_DEVICE: c_uint = 2;
/// `cudaMemoryTypeManaged`.
pub(crate) const MEMORY_TYPE_MANAGED: c_uint = 3;
/// `cudaInvalidDeviceId`.
pub(crate) const INVALID_DEVICE_ID: c_int = -2;

pub(crate) unsafe fn pointer_get_attributes(
    api: Api,
    attributes: *mut PointerAttributesC,
    ptr: *const c_void,
) -> Error {
    run(api, |p| {
        let what = "PointerGetAttributes";
        if attributes.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let a = p.pointer_attributes(ptr as usize as u64)?;
        let ptr = ptr.cast_mut();
        let device = a.device.map_or(INVALID_DEVICE_ID, |d| d as c_int);
        let v = match a.kind {
            MemoryKind::Device => PointerAttributesC {
                r#type: MEMORY_TYPE_DEVICE,
                device,
                devicePointer: ptr,
                hostPointer: std::ptr::null_mut(),
            },
            // One address space: the device reaches pinned memory through the host pointer.
            MemoryKind::Host => PointerAttributesC {
                r#type: MEMORY_TYPE_HOST,
                device,
                devicePointer: ptr,
                hostPointer: ptr,
            },
            // Managed memory: one address for the host and every device.
            MemoryKind::Managed => PointerAttributesC {
                r#type: MEMORY_TYPE_MANAGED,
                device,
                devicePointer: ptr,
                hostPointer: ptr,
            },
            MemoryKind::Unregistered => PointerAttributesC {
                r#type: MEMORY_TYPE_UNREGISTERED,
                device,
                devicePointer: std::ptr::null_mut(),
                hostPointer: std::ptr::null_mut(),
            },
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, attributes, v) }
    })
}
