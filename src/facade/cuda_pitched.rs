//! The CUDA-family pitched memory calls: `cudaMallocPitch`, `cudaMalloc3D`, `cudaMemcpy2D(Async)`,
//! `cudaMemcpy3D(Async)`, `cudaMemcpy3DPeer(Async)`, `cudaMemset2D(Async)`, `cudaMemset3D(Async)`, with
//! `struct cudaPitchedPtr`, `cudaExtent`, `cudaPos`, `cudaMemcpy3DParms` and `cudaMemcpy3DPeerParms` in CUDA's
//! layout, translated to the engine's pitched calls (`src/engine/memory/pitched.rs`). CUDA arrays are not
//! simulated: a copy naming one is refused with `cudaErrorNotSupported`. The rows, codes and sources are in
//! `docs/semantics/pitched-memory.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_memory::endpoints_sized;
use super::cuda_runtime::{Error, run};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::SimError;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::memory::pitched::{Extent as EngineExtent, Pitch, span};
use crate::engine::process::Process;

/// `struct cudaPitchedPtr` / `musaPitchedPtr`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PitchedPtr {
    /// The memory.
    pub ptr: *mut c_void,
    /// Bytes from one row to the next.
    pub pitch: usize,
    /// The logical width (bytes, for linear memory).
    pub xsize: usize,
    /// The logical height (rows per slice).
    pub ysize: usize,
}

/// `struct cudaExtent` / `musaExtent`: bytes per row (linear memory), rows, slices.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extent {
    /// Bytes per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Slices.
    pub depth: usize,
}

/// `struct cudaPos` / `musaPos`: an offset in bytes, rows and slices (linear memory).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pos {
    /// Bytes into the row.
    pub x: usize,
    /// Rows into the slice.
    pub y: usize,
    /// Slices.
    pub z: usize,
}

/// `struct cudaMemcpy3DParms` / `musaMemcpy3DParms`.
#[allow(non_snake_case, reason = "the vendor's field names")]
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Memcpy3DParms {
    /// A CUDA array source (not simulated: must be NULL).
    pub srcArray: *mut c_void,
    /// The source offset.
    pub srcPos: Pos,
    /// The source memory.
    pub srcPtr: PitchedPtr,
    /// A CUDA array destination (not simulated: must be NULL).
    pub dstArray: *mut c_void,
    /// The destination offset.
    pub dstPos: Pos,
    /// The destination memory.
    pub dstPtr: PitchedPtr,
    /// What to copy.
    pub extent: Extent,
    /// `cudaMemcpyKind`.
    pub kind: c_uint,
}

/// `struct cudaMemcpy3DPeerParms` / `musaMemcpy3DPeerParms`.
#[allow(non_snake_case, reason = "the vendor's field names")]
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Memcpy3DPeerParms {
    /// A CUDA array source (not simulated: must be NULL).
    pub srcArray: *mut c_void,
    /// The source offset.
    pub srcPos: Pos,
    /// The source memory.
    pub srcPtr: PitchedPtr,
    /// The source device.
    pub srcDevice: c_int,
    /// A CUDA array destination (not simulated: must be NULL).
    pub dstArray: *mut c_void,
    /// The destination offset.
    pub dstPos: Pos,
    /// The destination memory.
    pub dstPtr: PitchedPtr,
    /// The destination device.
    pub dstDevice: c_int,
    /// What to copy.
    pub extent: Extent,
}

fn extent(e: Extent) -> EngineExtent {
    EngineExtent::new(e.width as u64, e.height as u64, e.depth as u64)
}

pub(crate) unsafe fn malloc_pitch(
    api: Api,
    dev_ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> Error {
    run(api, |p| {
        let what = "MallocPitch";
        if dev_ptr.is_null() || pitch.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let (ptr, pt) = if width == 0 || height == 0 {
            (std::ptr::null_mut(), zero_pitch(p, width as u64)?)
        } else {
            let (d, pt) = p.malloc_pitch(width as u64, height as u64)?;
            (d.addr() as usize as *mut c_void, pt)
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            out(what, dev_ptr, ptr)?;
            out(what, pitch, pt as usize)
        }
    })
}

/// The pitch an empty allocation reports: its width rounded up as a real one's would be.
fn zero_pitch(p: &Process, width: u64) -> Result<u64, SimError> {
    let device = p.get_device()?;
    Ok(p.pitch_for(device, width).unwrap_or(0))
}

pub(crate) unsafe fn malloc_3d(api: Api, pitched: *mut PitchedPtr, e: Extent) -> Error {
    run(api, |p| {
        let what = "Malloc3D";
        if pitched.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let (ptr, pt) = if e.width == 0 || e.height == 0 || e.depth == 0 {
            (std::ptr::null_mut(), zero_pitch(p, e.width as u64)?)
        } else {
            let (d, pt) = p.malloc_3d(extent(e))?;
            (d.addr() as usize as *mut c_void, pt)
        };
        let v = PitchedPtr {
            ptr,
            pitch: pt as usize,
            xsize: e.width,
            ysize: e.height,
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, pitched, v) }
    })
}

/// A pitched copy of `e` between `dst` (laid out as `dp`) and `src` (`sp`); `s: None` is the synchronous call.
///
/// # Safety
/// Host pointers are valid for the rows the copy names (the C contract).
#[allow(
    clippy::too_many_arguments,
    reason = "both sides, the extent, the kind and the stream"
)]
unsafe fn copy(
    p: &Process,
    what: &'static str,
    (dst, dp): (*mut c_void, Pitch),
    (src, sp): (*const c_void, Pitch),
    e: EngineExtent,
    kind: Option<c_uint>,
    s: Option<*mut c_void>,
    three_d: bool,
) -> Result<(), SimError> {
    let (dspan, sspan) = (
        span(what, "destination", dp, e)?,
        span(what, "source", sp, e)?,
    );
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(());
    }
    let fits = |n: u64| {
        usize::try_from(n).map_err(|_| invalid(what, "the rows span more than the address space"))
    };
    let (dn, sn) = (fits(dspan)?, fits(sspan)?);
    // SAFETY: the C caller's pointers are valid for the spans of their rows.
    let (d, sr) = unsafe { endpoints_sized(p, what, (dst, dn), (src, sn), kind) }?;
    match (s, three_d) {
        (None, false) => p.memcpy_2d(d, dp.pitch, sr, sp.pitch, e.width, e.height),
        (None, true) => p.memcpy_3d((d, dp), (sr, sp), e),
        // SAFETY: the C contract: pageable rows stay valid while a graph captured from the call may run.
        (Some(s), three_d) => unsafe {
            let call = if three_d {
                EngineCall::Memcpy3DAsync
            } else {
                EngineCall::Memcpy2DAsync
            };
            p.memcpy_rows_async_c(call, (d, dp), (sr, sp), e, stream(s))
        },
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "the vendor's argument list (cudaMemcpy2DAsync)"
)]
pub(crate) unsafe fn memcpy_2d(
    api: Api,
    what: &'static str,
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_uint,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        let e = EngineExtent::rows(width as u64, height as u64);
        let (dp, sp) = (Pitch::rows(dpitch as u64), Pitch::rows(spitch as u64));
        // SAFETY: forwarded C contract.
        unsafe { copy(p, what, (dst, dp), (src, sp), e, Some(kind), s, false) }
    })
}

/// One side of a 3-D copy: the array (refused), the pointer with the position applied, and the layout.
pub(crate) fn side(
    what: &'static str,
    name: &str,
    array: *mut c_void,
    ptr: PitchedPtr,
    pos: Pos,
    e: Extent,
) -> Result<(*mut c_void, Pitch), SimError> {
    if !array.is_null() && !ptr.ptr.is_null() {
        return Err(invalid(
            what,
            format!("both {name}Array and {name}Ptr are set: exactly one may be"),
        ));
    }
    if !array.is_null() {
        return Err(SimError::NotSupported {
            what,
            reason: format!(
                "{name}Array: CUDA arrays are not simulated (only pitched linear memory)"
            ),
        });
    }
    if ptr.ptr.is_null() {
        return Err(invalid(
            what,
            format!("neither {name}Array nor {name}Ptr is set"),
        ));
    }
    if e.width > ptr.pitch {
        // The engine reports it (cudaErrorInvalidPitchValue).
        return Ok((ptr.ptr, Pitch::slices(ptr.pitch as u64, ptr.ysize as u64)));
    }
    if pos.x.checked_add(e.width).is_none_or(|end| end > ptr.pitch) {
        return Err(invalid(
            what,
            format!(
                "{name}Pos.x ({}) + extent.width ({}) run past the pitch ({})",
                pos.x, e.width, ptr.pitch
            ),
        ));
    }
    let slices = e.depth > 1 || pos.z > 0;
    if slices
        && pos
            .y
            .checked_add(e.height)
            .is_none_or(|end| end > ptr.ysize)
    {
        return Err(invalid(
            what,
            format!(
                "{name}Pos.y ({}) + extent.height ({}) run past {name}Ptr.ysize ({}): the slices would overlap",
                pos.y, e.height, ptr.ysize
            ),
        ));
    }
    let at = (pos.z as u64)
        .checked_mul(ptr.pitch as u64)
        .and_then(|v| v.checked_mul(ptr.ysize as u64))
        .and_then(|v| v.checked_add((pos.y as u64).checked_mul(ptr.pitch as u64)?))
        .and_then(|v| v.checked_add(pos.x as u64))
        .and_then(|v| (ptr.ptr as usize as u64).checked_add(v))
        .ok_or_else(|| {
            invalid(
                what,
                format!("{name}Pos is past the end of the address space"),
            )
        })?;
    Ok((
        at as usize as *mut c_void,
        Pitch::slices(ptr.pitch as u64, ptr.ysize as u64),
    ))
}

pub(crate) unsafe fn memcpy_3d(
    api: Api,
    what: &'static str,
    parms: *const Memcpy3DParms,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        if parms.is_null() {
            return Err(invalid(what, "NULL parameters"));
        }
        // SAFETY: checked non-NULL; C contract.
        let m = unsafe { parms.read() };
        let (src, sp) = side(what, "src", m.srcArray, m.srcPtr, m.srcPos, m.extent)?;
        let (dst, dp) = side(what, "dst", m.dstArray, m.dstPtr, m.dstPos, m.extent)?;
        // SAFETY: forwarded C contract.
        unsafe {
            copy(
                p,
                what,
                (dst, dp),
                (src, sp),
                extent(m.extent),
                Some(m.kind),
                s,
                true,
            )
        }
    })
}

pub(crate) unsafe fn memcpy_3d_peer(
    api: Api,
    what: &'static str,
    parms: *const Memcpy3DPeerParms,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        if parms.is_null() {
            return Err(invalid(what, "NULL parameters"));
        }
        // SAFETY: checked non-NULL; C contract.
        let m = unsafe { parms.read() };
        let count = p.machine().device_count();
        for d in [m.dstDevice, m.srcDevice] {
            if d < 0 || d as u32 >= count {
                return Err(SimError::InvalidDevice {
                    device: d as i64,
                    count,
                });
            }
        }
        let (src, sp) = side(what, "src", m.srcArray, m.srcPtr, m.srcPos, m.extent)?;
        let (dst, dp) = side(what, "dst", m.dstArray, m.dstPtr, m.dstPos, m.extent)?;
        let (dd, sd) = (
            DevicePtr(dst as usize as u64),
            DevicePtr(src as usize as u64),
        );
        if dd.device() != Some(m.dstDevice as u32) || sd.device() != Some(m.srcDevice as u32) {
            return Err(invalid(
                what,
                "a pointer is not device memory of the device named with it",
            ));
        }
        // SAFETY: both are device pointers: no host memory is read or written through them.
        unsafe {
            copy(
                p,
                what,
                (dst, dp),
                (src, sp),
                extent(m.extent),
                None,
                s,
                true,
            )
        }
    })
}

pub(crate) fn memset_2d(
    api: Api,
    ptr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        let d = DevicePtr(ptr as usize as u64);
        let (pt, v, w, h) = (pitch as u64, value as u8, width as u64, height as u64);
        match s {
            None => p.memset_2d(d, pt, v, w, h),
            Some(s) => p.memset_2d_async(d, pt, v, w, h, stream(s)),
        }
    })
}

pub(crate) fn memset_3d(
    api: Api,
    pitched: PitchedPtr,
    value: c_int,
    e: Extent,
    s: Option<*mut c_void>,
) -> Error {
    run(api, |p| {
        let d = DevicePtr(pitched.ptr as usize as u64);
        let layout = Pitch::slices(pitched.pitch as u64, pitched.ysize as u64);
        match s {
            None => p.memset_3d(d, layout, value as u8, extent(e)),
            Some(s) => p.memset_3d_async(d, layout, value as u8, extent(e), stream(s)),
        }
    })
}
