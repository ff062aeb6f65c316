//! What the ACL memory calls do (`aclrtMalloc*`, `aclrtFree*`, `aclrtMemcpy*`, `aclrtMemset*`), translated to
//! the engine's memory calls; errors are mapped by `runtime::code`.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's; see crate::facade::acl"
)]

use std::ffi::c_void;

use super::runtime::*;
use super::types::*;
use crate::engine::core::error::SimError;
use crate::engine::core::pointers::{AddressSpace, DevicePtr, HostPtr};
use crate::facade::binding::{invalid, out, stream};
use crate::facade::cuda_runtime::{self as rt};

/// The policy values (low byte) and the bits that may be combined with them.
const POLICY_BITS: u32 =
    ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;

pub(crate) unsafe fn malloc(
    ptr: *mut *mut c_void,
    size: usize,
    policy: aclrtMemMallocPolicy,
) -> aclError {
    let what = "aclrtMalloc";
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        if policy & !POLICY_BITS > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P {
            return Err(invalid(what, format!("unknown policy {policy:#x}")));
        }
        let d = p.malloc(size as u64)?;
        // SAFETY: C contract.
        unsafe { out(what, ptr, d.addr() as usize as *mut c_void) }
    })
}

pub(crate) fn free(ptr: *mut c_void) -> aclError {
    let what = "aclrtFree";
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        p.free(DevicePtr(ptr as usize as u64))
    })
}

pub(crate) unsafe fn malloc_host(ptr: *mut *mut c_void, size: usize) -> aclError {
    let what = "aclrtMallocHost";
    run(what, |p| {
        not_null(what, "hostPtr", ptr)?;
        if size == 0 {
            return Err(invalid(what, "size 0"));
        }
        let h = p.malloc_host(size as u64)?;
        // SAFETY: C contract.
        unsafe { out(what, ptr, h.as_mut_ptr().cast()) }
    })
}

pub(crate) fn free_host(ptr: *mut c_void) -> aclError {
    let what = "aclrtFreeHost";
    run(what, |p| {
        not_null(what, "hostPtr", ptr)?;
        p.free_host(HostPtr(ptr as usize as u64))
    })
}

/// The CUDA-family kind with the same meaning (the endpoint classification is shared).
fn copy_kind(kind: aclrtMemcpyKind) -> Option<u32> {
    Some(match kind {
        ACL_MEMCPY_HOST_TO_HOST => rt::MEMCPY_HOST_TO_HOST,
        ACL_MEMCPY_HOST_TO_DEVICE | ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE => rt::MEMCPY_HOST_TO_DEVICE,
        ACL_MEMCPY_DEVICE_TO_HOST => rt::MEMCPY_DEVICE_TO_HOST,
        ACL_MEMCPY_DEVICE_TO_DEVICE
        | ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
        | ACL_MEMCPY_INTER_DEVICE_TO_DEVICE => rt::MEMCPY_DEVICE_TO_DEVICE,
        ACL_MEMCPY_DEFAULT => rt::MEMCPY_DEFAULT,
        _ => return None,
    })
}

/// A copy; `stream: None` is the synchronous call.
pub(crate) unsafe fn memcpy(
    dst: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
    kind: aclrtMemcpyKind,
    s: Option<aclrtStream>,
) -> aclError {
    let what = if s.is_some() {
        "aclrtMemcpyAsync"
    } else {
        "aclrtMemcpy"
    };
    run(what, |p| {
        if count == 0 {
            return Ok(());
        }
        not_null(what, "dst", dst)?;
        not_null(what, "src", src)?;
        let Some(k) = copy_kind(kind) else {
            return Err(invalid(what, format!("unknown copy kind {kind}")));
        };
        if count > dest_max {
            return Err(SimError::OutOfRange {
                what,
                addr: dst as usize as u64,
                bytes: count as u64,
                base: dst as usize as u64,
                len: dest_max as u64,
            });
        }
        // SAFETY: the C caller's host pointers are valid for `count` bytes (and count <= destMax).
        let (d, sr) = match unsafe { rt::endpoints(p, WHAT_COPY_KIND, dst, src, count, Some(k)) } {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        match s {
            None => p.memcpy(d, sr, count as u64),
            Some(s) => p.memcpy_async(d, sr, count as u64, stream(s)),
        }
    })
}

/// CANN's largest 2-D copy (`RT_MAX_MEMCPY2D_WIDTH`, `RT_MAX_MEMCPY2D_HEIGHT` of the runtime).
const MAX_2D_WIDTH: usize = 5_000_000;
const MAX_2D_HEIGHT: usize = 5 * 1024 * 1024;

/// A matrix copy (`aclrtMemcpy2d`, `aclrtMemcpy2dAsync`); `stream: None` is the synchronous call. The checks in
/// CANN's order: the ACL layer's (`CheckMemcpy2dParam`), then the runtime's (`MemCopy2DCheckParam`, the kinds of
/// `MemCopy2DSync` / `MemCopy2DAsync`): `docs/semantics/acl-runtime-api.md` · Memcpy2d.
pub(crate) unsafe fn memcpy_2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    (width, height): (usize, usize),
    kind: aclrtMemcpyKind,
    s: Option<aclrtStream>,
) -> aclError {
    let what = if s.is_some() {
        "aclrtMemcpy2dAsync"
    } else {
        "aclrtMemcpy2d"
    };
    run(what, |p| {
        if width == 0 || height == 0 {
            return Ok(());
        }
        not_null(what, "dst", dst)?;
        not_null(what, "src", src)?;
        if width > spitch || width > dpitch {
            return Err(SimError::InvalidPitch {
                what,
                reason: format!("width {width} is more than spitch {spitch} or dpitch {dpitch}"),
            });
        }
        let k = match kind {
            ACL_MEMCPY_HOST_TO_DEVICE => rt::MEMCPY_HOST_TO_DEVICE,
            ACL_MEMCPY_DEVICE_TO_HOST => rt::MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_DEVICE_TO_DEVICE => rt::MEMCPY_DEVICE_TO_DEVICE,
            ACL_MEMCPY_DEFAULT => rt::MEMCPY_DEFAULT,
            _ => {
                return Err(invalid(
                    what,
                    format!(
                        "copy kind {kind}: a 2-D copy is host to device, device to host, device to device or \
                         default"
                    ),
                ));
            }
        };
        if height > MAX_2D_HEIGHT || width > MAX_2D_WIDTH {
            return Err(invalid(
                WHAT_RT,
                format!(
                    "{what}: {width} bytes by {height} rows: at most {MAX_2D_WIDTH} bytes by {MAX_2D_HEIGHT} rows"
                ),
            ));
        }
        if s.is_none() && k == rt::MEMCPY_DEVICE_TO_DEVICE {
            return Err(SimError::NotSupported {
                what,
                reason: "a synchronous 2-D copy is host to device or device to host (aclrtMemcpy2dAsync copies \
                         device to device)"
                    .into(),
            });
        }
        let m = p.machine();
        let on_device = |ptr: usize| matches!(m.address_space(ptr as u64), AddressSpace::Device(_));
        let (from_device, to_device) = (on_device(src as usize), on_device(dst as usize));
        if k == rt::MEMCPY_DEFAULT && (from_device == to_device) && (s.is_none() || !from_device) {
            return Err(invalid(
                WHAT_COPY_KIND,
                format!(
                    "{what}: ACL_MEMCPY_DEFAULT between {} and {} memory: a 2-D copy is host to device or device to \
                     host{}",
                    if from_device { "device" } else { "host" },
                    if to_device { "device" } else { "host" },
                    if s.is_some() {
                        " or device to device"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let span = |pitch: usize| {
            pitch
                .checked_mul(height - 1)
                .and_then(|v| v.checked_add(width))
                .ok_or_else(|| invalid(what, "the rows span more than the address space"))
        };
        let (dspan, sspan) = (span(dpitch)?, span(spitch)?);
        // SAFETY: the C caller's host pointers are valid for the rows the copy names.
        let (d, sr) = unsafe {
            crate::facade::cuda_memory::endpoints_sized(
                p,
                WHAT_COPY_KIND,
                (dst, dspan),
                (src, sspan),
                Some(k),
            )
        }?;
        let (dp, sp) = (dpitch as u64, spitch as u64);
        match s {
            None => p.memcpy_2d(d, dp, sr, sp, width as u64, height as u64),
            Some(s) => p.memcpy_2d_async(d, dp, sr, sp, width as u64, height as u64, stream(s)),
        }
    })
}

pub(crate) fn memset(
    ptr: *mut c_void,
    max_count: usize,
    value: i32,
    count: usize,
    s: Option<aclrtStream>,
) -> aclError {
    let what = if s.is_some() {
        "aclrtMemsetAsync"
    } else {
        "aclrtMemset"
    };
    run(what, |p| {
        not_null(what, "devPtr", ptr)?;
        if count > max_count {
            return Err(SimError::OutOfRange {
                what,
                addr: ptr as usize as u64,
                bytes: count as u64,
                base: ptr as usize as u64,
                len: max_count as u64,
            });
        }
        // Device memory, or host memory from aclrtMallocHost ("host memory from the ACL APIs"; the vendor's
        // own device_P2P sample memsets aclrtMallocHost memory): `docs/semantics/acl.md` · Memset / MemsetAsync.
        let addr = ptr as usize as u64;
        let (value, count) = (value as u8, count as u64);
        match (p.machine().address_space(addr), s) {
            (AddressSpace::PinnedHost, None) => p.memset_host(HostPtr(addr), value, count),
            (AddressSpace::PinnedHost, Some(s)) => {
                p.memset_host_async(HostPtr(addr), value, count, stream(s))
            }
            (AddressSpace::PageableHost, _) => Err(SimError::InvalidAddress {
                what,
                addr,
                space: AddressSpace::PageableHost,
                problem: "neither device memory nor host memory from aclrtMallocHost",
            }),
            (AddressSpace::Device(_), None) => p.memset(DevicePtr(addr), value, count),
            (AddressSpace::Device(_), Some(s)) => {
                p.memset_async(DevicePtr(addr), value, count, stream(s))
            }
        }
    })
}
