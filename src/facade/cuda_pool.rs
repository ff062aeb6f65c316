//! The CUDA-family stream-ordered allocator (`cudaMallocAsync`, `cudaFreeAsync`, `cudaMallocFromPoolAsync`)
//! and memory pools (`cudaMemPool*`, `cudaDevice{Get,Set}MemPool`, `cudaDeviceGetDefaultMemPool`), translated
//! to the engine's pool calls (`src/engine/pools/calls.rs`); `struct cudaMemPoolProps` in CUDA 12's layout. The
//! rows, codes and sources are in `docs/semantics/stream-ordered-memory.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, handle_ptr, invalid, out, stream};
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::MemPool;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::pools::access::PoolAccess;
use crate::engine::pools::state::{PoolAttr, PoolProps};

/// `cudaMemAllocationTypePinned`: the only allocation type a simulated pool has.
pub const MEM_ALLOCATION_TYPE_PINNED: c_uint = 1;
/// `cudaMemAllocationTypeManaged` (managed memory is not simulated).
pub const MEM_ALLOCATION_TYPE_MANAGED: c_uint = 2;
/// `cudaMemLocationTypeDevice`.
pub const MEM_LOCATION_TYPE_DEVICE: c_uint = 1;
/// `cudaMemHandleTypeNone`.
pub const MEM_HANDLE_TYPE_NONE: c_uint = 0;

/// `struct cudaMemLocation` / `musaMemLocation`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemLocation {
    /// `cudaMemLocationType` (`cudaMemLocationTypeDevice` = 1).
    pub r#type: c_uint,
    /// The device (for a device location).
    pub id: c_int,
}

/// `struct cudaMemPoolProps` / `musaMemPoolProps` (CUDA 12's layout, 88 bytes).
#[allow(non_snake_case, reason = "the vendor's field names")]
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemPoolProps {
    /// `cudaMemAllocationType`: must be `cudaMemAllocationTypePinned` (1).
    pub allocType: c_uint,
    /// `cudaMemAllocationHandleType` bits: IPC pools are not simulated (only `cudaMemHandleTypeNone`).
    pub handleTypes: c_uint,
    /// Where the memory lives: a device.
    pub location: MemLocation,
    /// Windows only; ignored.
    pub win32SecurityAttributes: *mut c_void,
    /// The most bytes the pool may reserve (0: no limit but the device's memory).
    pub maxSize: usize,
    /// Usage hints (0).
    pub usage: u16,
    /// Must be 0.
    pub reserved: [u8; 54],
}

fn pool(p: *mut c_void) -> MemPool {
    MemPool::from_raw(p as usize as u64)
}

/// The attribute of a vendor number, or `cudaErrorInvalidValue`.
fn attr(what: &'static str, a: c_int) -> Result<PoolAttr, SimError> {
    u32::try_from(a)
        .ok()
        .and_then(PoolAttr::from_number)
        .ok_or_else(|| invalid(what, format!("unknown cudaMemPoolAttr {a}")))
}

pub(crate) unsafe fn malloc_async(
    api: Api,
    ptr: *mut *mut c_void,
    size: usize,
    s: *mut c_void,
) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("MallocAsync", "NULL output pointer"));
        }
        let d = p.malloc_async(size as u64, stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("MallocAsync", ptr, d.addr() as usize as *mut c_void) }
    })
}

pub(crate) unsafe fn malloc_from_pool_async(
    api: Api,
    ptr: *mut *mut c_void,
    size: usize,
    mem_pool: *mut c_void,
    s: *mut c_void,
) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("MallocFromPoolAsync", "NULL output pointer"));
        }
        if mem_pool.is_null() {
            return Err(invalid("MallocFromPoolAsync", "NULL memory pool"));
        }
        let d = p.malloc_from_pool_async(size as u64, pool(mem_pool), stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("MallocFromPoolAsync", ptr, d.addr() as usize as *mut c_void) }
    })
}

pub(crate) fn free_async(api: Api, ptr: *mut c_void, s: *mut c_void) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("FreeAsync", "NULL pointer"));
        }
        p.free_async(DevicePtr(ptr as usize as u64), stream(s))
    })
}

pub(crate) unsafe fn mem_pool_create(
    api: Api,
    mem_pool: *mut *mut c_void,
    props: *const MemPoolProps,
) -> Error {
    run(api, |p| {
        let what = "MemPoolCreate";
        if mem_pool.is_null() || props.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        // SAFETY: non-NULL; C contract.
        let pr = unsafe { props.read_unaligned() };
        match pr.allocType {
            MEM_ALLOCATION_TYPE_PINNED => {}
            MEM_ALLOCATION_TYPE_MANAGED => {
                return Err(SimError::NotSupported {
                    what,
                    reason: "managed memory pools are not simulated".into(),
                });
            }
            t => {
                return Err(invalid(
                    what,
                    format!("allocType {t} is not a cudaMemAllocationType"),
                ));
            }
        }
        if pr.location.r#type != MEM_LOCATION_TYPE_DEVICE {
            return Err(invalid(
                what,
                format!(
                    "location.type {}: only cudaMemLocationTypeDevice pools are simulated",
                    pr.location.r#type
                ),
            ));
        }
        if pr.handleTypes != MEM_HANDLE_TYPE_NONE {
            return Err(SimError::NotSupported {
                what,
                reason:
                    "IPC pools (handleTypes other than cudaMemHandleTypeNone) are not simulated"
                        .into(),
            });
        }
        if pr.reserved.iter().any(|&b| b != 0) {
            return Err(invalid(what, "reserved bytes must be 0"));
        }
        let count = p.machine().device_count();
        let device = u32::try_from(pr.location.id)
            .ok()
            .filter(|&d| d < count)
            .ok_or_else(|| {
                invalid(
                    what,
                    format!("location.id {} is not a device", pr.location.id),
                )
            })?;
        let h = p.create_pool(PoolProps::new(device).max_size(pr.maxSize as u64))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, mem_pool, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn mem_pool_destroy(api: Api, mem_pool: *mut c_void) -> Error {
    run(api, |p| {
        if mem_pool.is_null() {
            return Err(invalid("MemPoolDestroy", "NULL memory pool"));
        }
        p.destroy_pool(pool(mem_pool))
    })
}

pub(crate) unsafe fn device_get_default_mem_pool(
    api: Api,
    mem_pool: *mut *mut c_void,
    device: c_int,
) -> Error {
    run(api, |p| {
        if mem_pool.is_null() {
            return Err(invalid("DeviceGetDefaultMemPool", "NULL output pointer"));
        }
        let h = p.default_pool(i64::from(device))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("DeviceGetDefaultMemPool", mem_pool, handle_ptr(h.to_raw())) }
    })
}

/// The device of `cudaDevice{Get,Set}MemPool`: a device out of range is `cudaErrorInvalidValue` (the hip-tests'
/// `Unit_hipDevice{Set,Get}MemPool_Negative_Parameters`; the Runtime API lists it with
/// cudaErrorInvalidDevice).
fn pool_device(
    p: &crate::engine::process::Process,
    what: &'static str,
    device: c_int,
) -> Result<i64, SimError> {
    let count = p.machine().device_count();
    if device < 0 || device as u32 >= count {
        return Err(invalid(what, format!("device {device} of {count}")));
    }
    Ok(i64::from(device))
}

pub(crate) fn device_set_mem_pool(api: Api, device: c_int, mem_pool: *mut c_void) -> Error {
    run(api, |p| {
        if mem_pool.is_null() {
            return Err(invalid("DeviceSetMemPool", "NULL memory pool"));
        }
        let d = pool_device(p, "DeviceSetMemPool", device)?;
        p.set_device_pool(d, pool(mem_pool))
    })
}

pub(crate) unsafe fn device_get_mem_pool(
    api: Api,
    mem_pool: *mut *mut c_void,
    device: c_int,
) -> Error {
    run(api, |p| {
        if mem_pool.is_null() {
            return Err(invalid("DeviceGetMemPool", "NULL output pointer"));
        }
        let d = pool_device(p, "DeviceGetMemPool", device)?;
        let h = p.device_pool(d)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("DeviceGetMemPool", mem_pool, handle_ptr(h.to_raw())) }
    })
}

/// `cudaMemPoolSetAttribute`: `value` points to an `int` for the three policies, a `cuuint64_t` otherwise.
pub(crate) unsafe fn mem_pool_set_attribute(
    api: Api,
    mem_pool: *mut c_void,
    a: c_int,
    value: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "MemPoolSetAttribute";
        if mem_pool.is_null() {
            return Err(invalid(what, "NULL memory pool"));
        }
        let a = attr(what, a)?;
        if value.is_null() {
            return Err(invalid(what, "NULL value"));
        }
        // SAFETY: non-NULL, of the attribute's type (C contract).
        let v = unsafe {
            if a.is_flag() {
                value.cast::<c_int>().read_unaligned() as u64
            } else {
                value.cast::<u64>().read_unaligned()
            }
        };
        p.set_pool_attribute(pool(mem_pool), a, v)
    })
}

/// `cudaMemPoolGetAttribute`: writes an `int` for the three policies, a `cuuint64_t` otherwise.
pub(crate) unsafe fn mem_pool_get_attribute(
    api: Api,
    mem_pool: *mut c_void,
    a: c_int,
    value: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "MemPoolGetAttribute";
        if mem_pool.is_null() {
            return Err(invalid(what, "NULL memory pool"));
        }
        let a = attr(what, a)?;
        if value.is_null() {
            return Err(invalid(what, "NULL value"));
        }
        let v = p.pool_attribute(pool(mem_pool), a)?;
        // SAFETY: non-NULL, of the attribute's type (C contract).
        unsafe {
            if a.is_flag() {
                value.cast::<c_int>().write_unaligned(v as c_int);
            } else {
                value.cast::<u64>().write_unaligned(v);
            }
        }
        Ok(())
    })
}

pub(crate) fn mem_pool_trim_to(api: Api, mem_pool: *mut c_void, min_bytes_to_keep: usize) -> Error {
    run(api, |p| {
        if mem_pool.is_null() {
            return Err(invalid("MemPoolTrimTo", "NULL memory pool"));
        }
        p.trim_pool(pool(mem_pool), min_bytes_to_keep as u64)
    })
}

/// `struct cudaMemAccessDesc` / `musaMemAccessDesc`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemAccessDesc {
    /// The device whose access changes.
    pub location: MemLocation,
    /// `cudaMemAccessFlags`: 0 none, 3 read-write (1 read-only is not simulated).
    pub flags: c_uint,
}

/// `struct cudaMemPoolPtrExportData` / `musaMemPoolPtrExportData`: 64 opaque bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemPoolPtrExportData {
    /// Opaque.
    pub reserved: [u8; 64],
}

/// A device location of a pool access call: the device, or `cudaErrorInvalidValue` for another kind.
fn access_device(what: &'static str, l: MemLocation) -> Result<i64, SimError> {
    if l.r#type != MEM_LOCATION_TYPE_DEVICE {
        return Err(invalid(
            what,
            format!(
                "location.type {}: only device locations are simulated",
                l.r#type
            ),
        ));
    }
    Ok(i64::from(l.id))
}

pub(crate) unsafe fn mem_pool_set_access(
    api: Api,
    mem_pool: *mut c_void,
    desc_list: *const MemAccessDesc,
    count: usize,
) -> Error {
    run(api, |p| {
        let what = "MemPoolSetAccess";
        if mem_pool.is_null() {
            return Err(invalid(what, "NULL memory pool"));
        }
        if count > 0 && desc_list.is_null() {
            return Err(invalid(what, "NULL descriptor list"));
        }
        let mut list = Vec::with_capacity(count.min(1024));
        for i in 0..count {
            // SAFETY: non-NULL and valid for `count` descriptors (C contract).
            let d = unsafe { desc_list.add(i).read_unaligned() };
            let access = PoolAccess::from_flags(d.flags).ok_or_else(|| {
                invalid(
                    what,
                    format!("flags {} is not a cudaMemAccessFlags value", d.flags),
                )
            })?;
            list.push((access_device(what, d.location)?, access));
        }
        p.set_pool_access(pool(mem_pool), &list)
    })
}

pub(crate) unsafe fn mem_pool_get_access(
    api: Api,
    flags: *mut c_uint,
    mem_pool: *mut c_void,
    location: *mut MemLocation,
) -> Error {
    run(api, |p| {
        let what = "MemPoolGetAccess";
        if flags.is_null() || mem_pool.is_null() || location.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        // SAFETY: non-NULL; C contract.
        let l = unsafe { location.read_unaligned() };
        let a = p.pool_access(pool(mem_pool), access_device(what, l)?)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, flags, a.flags()) }
    })
}

/// IPC pools are not simulated (`cudaMemPoolCreate` refuses handle types): no pool can be exported, no handle or
/// export data can name one, so these calls answer as the vendor does for a pool that is not IPC capable.
fn no_ipc_pools(what: &'static str) -> SimError {
    invalid(
        what,
        "IPC memory pools are not simulated: no pool is IPC capable (made with handle types), so none can be \
         exported or imported",
    )
}

pub(crate) fn mem_pool_export_to_shareable_handle(
    api: Api,
    handle: *mut c_void,
    mem_pool: *mut c_void,
    _handle_type: c_uint,
    _flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "MemPoolExportToShareableHandle";
        if handle.is_null() || mem_pool.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        // A dead handle is its own error; a live pool is not IPC capable.
        p.pool_attribute(pool(mem_pool), PoolAttr::ReservedMemCurrent)?;
        Err(no_ipc_pools(what))
    })
}

pub(crate) fn mem_pool_import_from_shareable_handle(
    api: Api,
    mem_pool: *mut *mut c_void,
    _handle: *mut c_void,
    _handle_type: c_uint,
    _flags: c_uint,
) -> Error {
    run(api, |_| {
        let what = "MemPoolImportFromShareableHandle";
        if mem_pool.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        Err(no_ipc_pools(what))
    })
}

pub(crate) fn mem_pool_export_pointer(
    api: Api,
    export_data: *mut MemPoolPtrExportData,
    ptr: *mut c_void,
) -> Error {
    run(api, |_| {
        let what = "MemPoolExportPointer";
        if export_data.is_null() || ptr.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        Err(no_ipc_pools(what))
    })
}

pub(crate) fn mem_pool_import_pointer(
    api: Api,
    ptr: *mut *mut c_void,
    mem_pool: *mut c_void,
    export_data: *mut MemPoolPtrExportData,
) -> Error {
    run(api, |_| {
        let what = "MemPoolImportPointer";
        if ptr.is_null() || mem_pool.is_null() || export_data.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        Err(no_ipc_pools(what))
    })
}
