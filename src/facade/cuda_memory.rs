//! The CUDA-family memory calls: `cudaMalloc` / `cudaFree`, pinned host memory, copies (`cudaMemcpy*`, with the
//! copy kinds) and memsets, translated to the engine's memory calls.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's"
)]

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_runtime::*;
use crate::engine::core::error::SimError;
use crate::engine::core::pointers::{AddressSpace, DevicePtr, Dst, HostPtr, Src};
use crate::engine::process::Process;

pub(crate) unsafe fn malloc(api: Api, ptr: *mut *mut c_void, size: usize) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("Malloc", "NULL output pointer"));
        }
        let v = if size == 0 {
            std::ptr::null_mut()
        } else {
            p.malloc(size as u64)?.addr() as usize as *mut c_void
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("Malloc", ptr, v) }
    })
}

pub(crate) fn free(api: Api, ptr: *mut c_void) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Ok(());
        }
        p.free(DevicePtr(ptr as usize as u64))
    })
}

pub(crate) unsafe fn malloc_host(api: Api, ptr: *mut *mut c_void, size: usize) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Err(invalid("MallocHost", "NULL output pointer"));
        }
        let h = p.malloc_host(size as u64)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("MallocHost", ptr, h.as_mut_ptr().cast()) }
    })
}

pub(crate) fn free_host(api: Api, ptr: *mut c_void) -> Error {
    run(api, |p| {
        if ptr.is_null() {
            return Ok(());
        }
        p.free_host(HostPtr(ptr as usize as u64))
    })
}

/// `cudaMemcpyKind`.
pub const MEMCPY_HOST_TO_HOST: c_uint = 0;
/// `cudaMemcpyHostToDevice`.
pub const MEMCPY_HOST_TO_DEVICE: c_uint = 1;
/// `cudaMemcpyDeviceToHost`.
pub const MEMCPY_DEVICE_TO_HOST: c_uint = 2;
/// `cudaMemcpyDeviceToDevice`.
pub const MEMCPY_DEVICE_TO_DEVICE: c_uint = 3;
/// `cudaMemcpyDefault`: inferred from the pointers.
pub const MEMCPY_DEFAULT: c_uint = 4;

/// Resolves a copy's raw pointers to the core's endpoints, checking them against `kind` (a kind that
/// contradicts the pointers is InvalidValue; an unknown kind is InvalidMemcpyDirection).
///
/// # Safety
/// Host pointers must be valid for `count` bytes (the C contract).
pub(crate) unsafe fn endpoints<'a>(
    p: &Process,
    what: &'static str,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: Option<c_uint>,
) -> Result<(Dst<'a>, Src<'a>), SimError> {
    // SAFETY: forwarded contract.
    unsafe { endpoints_sized(p, what, (dst, count), (src, count), kind) }
}

/// [`endpoints`] with a size of its own for each side (a pitched copy's spans).
///
/// # Safety
/// Host pointers must be valid for their sizes (the C contract).
pub(crate) unsafe fn endpoints_sized<'a>(
    p: &Process,
    what: &'static str,
    (dst, dcount): (*mut c_void, usize),
    (src, scount): (*const c_void, usize),
    kind: Option<c_uint>,
) -> Result<(Dst<'a>, Src<'a>), SimError> {
    if dst.is_null() || src.is_null() {
        return Err(invalid(what, "NULL pointer"));
    }
    let m = p.machine();
    let (ds, ss) = (
        m.address_space(dst as usize as u64),
        m.address_space(src as usize as u64),
    );
    let on_device = |s: AddressSpace| matches!(s, AddressSpace::Device(_));
    if let Some(k) = kind {
        let expect = match k {
            MEMCPY_HOST_TO_HOST => Some((false, false)),
            MEMCPY_HOST_TO_DEVICE => Some((false, true)),
            MEMCPY_DEVICE_TO_HOST => Some((true, false)),
            MEMCPY_DEVICE_TO_DEVICE => Some((true, true)),
            MEMCPY_DEFAULT => None,
            _ => return Err(SimError::InvalidCopyKind { what, kind: k }),
        };
        // Managed memory is both host and device memory: any kind fits it (docs/semantics/managed-memory.md).
        let fits =
            |space: AddressSpace, ptr: u64, dev: bool| on_device(space) == dev || p.is_managed(ptr);
        if let Some((s_dev, d_dev)) = expect
            && (!fits(ss, src as usize as u64, s_dev) || !fits(ds, dst as usize as u64, d_dev))
        {
            return Err(invalid(
                what,
                format!("the copy kind does not match the pointers ({ss} to {ds})"),
            ));
        }
    }
    // No host buffer of `count` bytes can start at a pageable pointer if the range would pass the end of the
    // address space or exceed isize::MAX bytes: refused before a slice is made of it.
    let host_fits =
        |p: usize, count: usize| count <= isize::MAX as usize && p.checked_add(count).is_some();
    for (space, p, count) in [(ds, dst as usize, dcount), (ss, src as usize, scount)] {
        if space == AddressSpace::PageableHost && !host_fits(p, count) {
            return Err(invalid(
                what,
                format!(
                    "{count} bytes at host address {p:#x} run past the end of the address space"
                ),
            ));
        }
    }
    let dst = match ds {
        AddressSpace::Device(_) => Dst::Device(DevicePtr(dst as usize as u64)),
        AddressSpace::PinnedHost => Dst::Pinned(HostPtr(dst as usize as u64)),
        // SAFETY: a pageable host pointer valid for `count` bytes, by the C contract.
        AddressSpace::PageableHost => {
            Dst::Host(unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), dcount) })
        }
    };
    let src = match ss {
        AddressSpace::Device(_) => Src::Device(DevicePtr(src as usize as u64)),
        AddressSpace::PinnedHost => Src::Pinned(HostPtr(src as usize as u64)),
        // SAFETY: as above.
        AddressSpace::PageableHost => {
            Src::Host(unsafe { std::slice::from_raw_parts(src.cast::<u8>(), scount) })
        }
    };
    Ok((dst, src))
}

/// A copy; `stream: None` is the synchronous call.
pub(crate) unsafe fn memcpy(
    api: Api,
    what: &'static str,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: Option<c_uint>,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        if count == 0 {
            return Ok(());
        }
        // SAFETY: the C caller's pointers are valid for `count` bytes.
        let (d, sr) = unsafe { endpoints(p, what, dst, src, count, kind) }?;
        match s {
            None => p.memcpy(d, sr, count as u64),
            // SAFETY: the C caller keeps pageable memory valid for as long as a graph that captured the copy
            // may run (the vendor's contract).
            Some(s) => unsafe { p.memcpy_async_c(d, sr, count as u64, stream(s)) },
        }
    })
}

/// `cudaMemcpyPeer(Async)`: both pointers must be device memory of the named devices.
pub(crate) unsafe fn memcpy_peer(
    api: Api,
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        let what = "MemcpyPeer";
        let m = p.machine();
        for d in [dst_device, src_device] {
            if d < 0 || d as u32 >= m.device_count() {
                return Err(SimError::InvalidDevice {
                    device: d as i64,
                    count: m.device_count(),
                });
            }
        }
        if count == 0 {
            return Ok(());
        }
        let (dp, sp) = (
            DevicePtr(dst as usize as u64),
            DevicePtr(src as usize as u64),
        );
        if dp.device() != Some(dst_device as u32) || sp.device() != Some(src_device as u32) {
            return Err(invalid(
                what,
                "a pointer is not device memory of the device named with it",
            ));
        }
        match s {
            None => p.memcpy(dp, sp, count as u64),
            Some(s) => p.memcpy_async(dp, sp, count as u64, stream(s)),
        }
    })
}

pub(crate) fn memset(
    api: Api,
    ptr: *mut c_void,
    value: c_int,
    count: usize,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        let d = DevicePtr(ptr as usize as u64);
        match s {
            None => p.memset(d, value as u8, count as u64),
            Some(s) => p.memset_async(d, value as u8, count as u64, stream(s)),
        }
    })
}
