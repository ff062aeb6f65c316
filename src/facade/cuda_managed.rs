//! CUDA-family managed (unified) memory: `cudaMallocManaged` and its attach flags, `cudaMemPrefetchAsync` (the
//! CUDA 12 form with a device ordinal, and `cudaMemPrefetchAsync_v2` with a `cudaMemLocation` — the form CUDA 13
//! names `cudaMemPrefetchAsync`), `cudaMemAdvise` / `cudaMemAdvise_v2` likewise, `cudaStreamAttachMemAsync`, and
//! `cudaMemRangeGetAttribute(s)`. Managed memory is freed with `cudaFree`; `cudaPointerGetAttributes` reports it
//! as `cudaMemoryTypeManaged`. Rows and sources: `docs/semantics/managed-memory.md`.

use std::ffi::{c_int, c_uint, c_void};

use super::binding::{Api, invalid, out, stream};
use super::cuda_pool::MemLocation;
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::host_memory::managed::{
    ManagedAdvice, ManagedAttach, ManagedLocation, ManagedRangeAttributes,
};
use crate::engine::process::Process;

/// `cudaMemAttachGlobal`.
pub const MEM_ATTACH_GLOBAL: c_uint = 0x01;
/// `cudaMemAttachHost`.
pub const MEM_ATTACH_HOST: c_uint = 0x02;
/// `cudaMemAttachSingle`.
pub const MEM_ATTACH_SINGLE: c_uint = 0x04;

/// `cudaCpuDeviceId`.
const CPU_DEVICE_ID: c_int = -1;
/// `cudaInvalidDeviceId`.
const INVALID_DEVICE_ID: c_int = -2;

/// `cudaMemLocationTypeInvalid`, `Device`, `Host`, `HostNuma`, `HostNumaCurrent`.
const LOCATION_INVALID: c_uint = 0;
const LOCATION_DEVICE: c_uint = 1;
const LOCATION_HOST: c_uint = 2;
const LOCATION_HOST_NUMA: c_uint = 3;
const LOCATION_HOST_NUMA_CURRENT: c_uint = 4;

/// `enum cudaMemoryAdvise`.
const ADVISE_SET_READ_MOSTLY: c_int = 1;
const ADVISE_UNSET_READ_MOSTLY: c_int = 2;
const ADVISE_SET_PREFERRED_LOCATION: c_int = 3;
const ADVISE_UNSET_PREFERRED_LOCATION: c_int = 4;
const ADVISE_SET_ACCESSED_BY: c_int = 5;
const ADVISE_UNSET_ACCESSED_BY: c_int = 6;

/// `enum cudaMemRangeAttribute`.
const RANGE_READ_MOSTLY: c_int = 1;
const RANGE_PREFERRED_LOCATION: c_int = 2;
const RANGE_ACCESSED_BY: c_int = 3;
const RANGE_LAST_PREFETCH_LOCATION: c_int = 4;
const RANGE_PREFERRED_LOCATION_TYPE: c_int = 5;
const RANGE_PREFERRED_LOCATION_ID: c_int = 6;
const RANGE_LAST_PREFETCH_LOCATION_TYPE: c_int = 7;
const RANGE_LAST_PREFETCH_LOCATION_ID: c_int = 8;

pub(crate) unsafe fn malloc_managed(
    api: Api,
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "MallocManaged";
        if ptr.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        let attach = match flags {
            MEM_ATTACH_GLOBAL => ManagedAttach::Global,
            MEM_ATTACH_HOST => ManagedAttach::Host,
            _ => {
                return Err(SimError::InvalidFlags {
                    what,
                    flags,
                    reason: "must be cudaMemAttachGlobal (0x1) or cudaMemAttachHost (0x2)",
                });
            }
        };
        let h = p.malloc_managed(size as u64, attach)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, ptr, h.as_mut_ptr().cast()) }
    })
}

/// A device ordinal where `cudaCpuDeviceId` is the host (the CUDA 12 forms).
fn ordinal_location(p: &Process, device: c_int) -> Result<ManagedLocation, SimError> {
    if device == CPU_DEVICE_ID {
        return Ok(ManagedLocation::Host);
    }
    Ok(ManagedLocation::Device(p.check_device(i64::from(device))?))
}

/// A `cudaMemLocation` (the `_v2` forms). The machine has one host NUMA node, 0: `HostNuma` 0 and
/// `HostNumaCurrent` are the host.
fn struct_location(
    p: &Process,
    what: &'static str,
    loc: MemLocation,
) -> Result<ManagedLocation, SimError> {
    match loc.r#type {
        LOCATION_DEVICE => Ok(ManagedLocation::Device(p.check_device(i64::from(loc.id))?)),
        LOCATION_HOST | LOCATION_HOST_NUMA_CURRENT => Ok(ManagedLocation::Host),
        LOCATION_HOST_NUMA if loc.id == 0 => Ok(ManagedLocation::Host),
        LOCATION_HOST_NUMA => Err(invalid(
            what,
            format!(
                "host NUMA node {} does not exist (the machine has node 0)",
                loc.id
            ),
        )),
        t => Err(invalid(
            what,
            format!("location type {t} is not a device or the host"),
        )),
    }
}

pub(crate) fn mem_prefetch_async(
    api: Api,
    ptr: *const c_void,
    count: usize,
    device: c_int,
    s: *mut c_void,
) -> Error {
    run(api, |p| {
        let to = ordinal_location(p, device)?;
        p.mem_prefetch_async(ptr as usize as u64, count as u64, to, stream(s))
    })
}

pub(crate) fn mem_prefetch_async_v2(
    api: Api,
    ptr: *const c_void,
    count: usize,
    location: MemLocation,
    flags: c_uint,
    s: *mut c_void,
) -> Error {
    run(api, |p| {
        let what = "MemPrefetchAsync";
        if flags != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "flags are for future use and must be 0",
            });
        }
        let to = struct_location(p, what, location)?;
        p.mem_prefetch_async(ptr as usize as u64, count as u64, to, stream(s))
    })
}

/// The engine's advice for `advice` at `location` (`None`: the advice ignores it).
fn advice(
    what: &'static str,
    advice: c_int,
    location: Option<Result<ManagedLocation, SimError>>,
) -> Result<ManagedAdvice, SimError> {
    let at = || location.unwrap_or_else(|| Err(invalid(what, "no location")));
    Ok(match advice {
        ADVISE_SET_READ_MOSTLY => ManagedAdvice::SetReadMostly,
        ADVISE_UNSET_READ_MOSTLY => ManagedAdvice::UnsetReadMostly,
        ADVISE_SET_PREFERRED_LOCATION => ManagedAdvice::SetPreferredLocation(at()?),
        ADVISE_UNSET_PREFERRED_LOCATION => ManagedAdvice::UnsetPreferredLocation,
        ADVISE_SET_ACCESSED_BY => ManagedAdvice::SetAccessedBy(at()?),
        ADVISE_UNSET_ACCESSED_BY => ManagedAdvice::UnsetAccessedBy(at()?),
        a => return Err(invalid(what, format!("{a} is not a cudaMemoryAdvise"))),
    })
}

pub(crate) fn mem_advise(
    api: Api,
    ptr: *const c_void,
    count: usize,
    adv: c_int,
    device: c_int,
) -> Error {
    run(api, |p| {
        let a = advice("MemAdvise", adv, Some(ordinal_location(p, device)))?;
        p.mem_advise(ptr as usize as u64, count as u64, a)
    })
}

pub(crate) fn mem_advise_v2(
    api: Api,
    ptr: *const c_void,
    count: usize,
    adv: c_int,
    location: MemLocation,
) -> Error {
    run(api, |p| {
        let what = "MemAdvise";
        let loc = match adv {
            // "The cudaMemLocation::type must be either cudaMemLocationTypeDevice ... or
            // cudaMemLocationTypeHost ... All other location types are invalid."
            ADVISE_SET_ACCESSED_BY | ADVISE_UNSET_ACCESSED_BY
                if !matches!(location.r#type, LOCATION_DEVICE | LOCATION_HOST) =>
            {
                Err(invalid(
                    what,
                    "accessed-by advice takes a device or the host",
                ))
            }
            _ => struct_location(p, what, location),
        };
        let a = advice(what, adv, Some(loc))?;
        p.mem_advise(ptr as usize as u64, count as u64, a)
    })
}

pub(crate) fn stream_attach_mem_async(
    api: Api,
    s: *mut c_void,
    ptr: *mut c_void,
    length: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "StreamAttachMemAsync";
        let attach = match flags {
            MEM_ATTACH_GLOBAL => ManagedAttach::Global,
            MEM_ATTACH_HOST => ManagedAttach::Host,
            MEM_ATTACH_SINGLE => ManagedAttach::Single,
            _ => {
                return Err(SimError::InvalidFlags {
                    what,
                    flags,
                    reason: "must be cudaMemAttachGlobal, cudaMemAttachHost or cudaMemAttachSingle",
                });
            }
        };
        p.stream_attach_mem(stream(s), ptr as usize as u64, length as u64, attach)
    })
}

/// A location as the `int` the range attributes report (`cudaCpuDeviceId` for the host).
fn location_int(l: Option<ManagedLocation>) -> c_int {
    match l {
        Some(ManagedLocation::Host) => CPU_DEVICE_ID,
        Some(ManagedLocation::Device(d)) => d as c_int,
        None => INVALID_DEVICE_ID,
    }
}

/// A location's `cudaMemLocationType`.
fn location_type(l: Option<ManagedLocation>) -> c_int {
    (match l {
        Some(ManagedLocation::Host) => LOCATION_HOST,
        Some(ManagedLocation::Device(_)) => LOCATION_DEVICE,
        None => LOCATION_INVALID,
    }) as c_int
}

/// A location's id for the `…LocationId` attributes: the device, or `cudaInvalidDeviceId` for the host or no
/// location (which the vendor says to ignore).
fn location_id(l: Option<ManagedLocation>) -> c_int {
    match l {
        Some(ManagedLocation::Device(d)) => d as c_int,
        _ => INVALID_DEVICE_ID,
    }
}

/// The 32-bit values of `attribute` for a buffer of `size` bytes, checked.
pub(crate) fn attribute_values(
    what: &'static str,
    a: &ManagedRangeAttributes,
    attribute: c_int,
    size: usize,
) -> Result<Vec<c_int>, SimError> {
    let one = |v: c_int| {
        if size == 4 {
            Ok(vec![v])
        } else {
            Err(invalid(
                what,
                format!("attribute {attribute} takes 4 bytes, not {size}"),
            ))
        }
    };
    match attribute {
        RANGE_READ_MOSTLY => one(c_int::from(a.read_mostly)),
        RANGE_PREFERRED_LOCATION => one(location_int(a.preferred_location)),
        RANGE_LAST_PREFETCH_LOCATION => one(location_int(a.last_prefetch_location)),
        RANGE_PREFERRED_LOCATION_TYPE => one(location_type(a.preferred_location)),
        RANGE_PREFERRED_LOCATION_ID => one(location_id(a.preferred_location)),
        RANGE_LAST_PREFETCH_LOCATION_TYPE => one(location_type(a.last_prefetch_location)),
        RANGE_LAST_PREFETCH_LOCATION_ID => one(location_id(a.last_prefetch_location)),
        RANGE_ACCESSED_BY => {
            if size == 0 || !size.is_multiple_of(4) {
                return Err(invalid(
                    what,
                    format!(
                        "cudaMemRangeAttributeAccessedBy takes a non-zero multiple of 4 bytes, not {size}"
                    ),
                ));
            }
            let mut v: Vec<c_int> = a
                .accessed_by
                .iter()
                .map(|l| location_int(Some(*l)))
                .take(size / 4)
                .collect();
            v.resize(size / 4, INVALID_DEVICE_ID);
            Ok(v)
        }
        _ => Err(invalid(
            what,
            format!("{attribute} is not a cudaMemRangeAttribute"),
        )),
    }
}

/// Writes `values` to `data`.
///
/// # Safety
/// `data` is valid for `values.len()` `int`s (checked against the caller's size).
pub(crate) unsafe fn write_values(data: *mut c_void, values: &[c_int]) {
    // SAFETY: forwarded contract; `copy_nonoverlapping` with an unaligned destination through bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(
            values.as_ptr().cast::<u8>(),
            data.cast::<u8>(),
            std::mem::size_of_val(values),
        );
    }
}

pub(crate) unsafe fn mem_range_get_attribute(
    api: Api,
    data: *mut c_void,
    size: usize,
    attribute: c_int,
    ptr: *const c_void,
    count: usize,
) -> Error {
    run(api, |p| {
        let what = "MemRangeGetAttribute";
        if data.is_null() {
            return Err(invalid(what, "NULL data pointer"));
        }
        let a = p.mem_range_attributes(ptr as usize as u64, count as u64)?;
        let v = attribute_values(what, &a, attribute, size)?;
        // SAFETY: `data` holds `size` bytes (C contract), and `v` is `size` bytes.
        unsafe { write_values(data, &v) };
        Ok(())
    })
}

pub(crate) unsafe fn mem_range_get_attributes(
    api: Api,
    data: *mut *mut c_void,
    sizes: *mut usize,
    attributes: *mut c_int,
    n: usize,
    ptr: *const c_void,
    count: usize,
) -> Error {
    run(api, |p| {
        let what = "MemRangeGetAttributes";
        if n == 0 || data.is_null() || sizes.is_null() || attributes.is_null() {
            return Err(invalid(
                what,
                "no attributes, or a NULL array of data, sizes or attributes",
            ));
        }
        let a = p.mem_range_attributes(ptr as usize as u64, count as u64)?;
        // Every attribute is checked before anything is written.
        let mut all = Vec::with_capacity(n.min(64));
        for i in 0..n {
            // SAFETY: the three arrays hold `n` entries (C contract).
            let (d, size, attr) = unsafe { (*data.add(i), *sizes.add(i), *attributes.add(i)) };
            if d.is_null() {
                return Err(invalid(what, format!("data[{i}] is NULL")));
            }
            all.push((d, attribute_values(what, &a, attr, size)?));
        }
        for (d, v) in all {
            // SAFETY: as in mem_range_get_attribute.
            unsafe { write_values(d, &v) };
        }
        Ok(())
    })
}
