//! The `extern "C"` functions of ACL's managed ("UVM") memory (`acl_rt.h` of the CANN runtime):
//! `aclrtMemAllocManaged`, `aclrtMemManagedAdvise`, `aclrtMemManagedPrefetchAsync`,
//! `aclrtMemManagedPrefetchBatchAsync`, `aclrtMemManagedGetAttr` and `aclrtMemManagedGetAttrs`, over the engine's
//! managed memory (the one CUDA's `cudaMallocManaged` uses; `aclrtFree` frees it). The ACL layer's checks come
//! first, in CANN's order (`memory.cpp` of the runtime); the rows, codes and sources are in
//! `docs/semantics/managed-memory.md`.

use std::ffi::{c_int, c_void};

use super::runtime::{WHAT_RT, not_null, run};
use super::types::*;
use crate::engine::core::error::SimError;
use crate::engine::memory::managed::{ManagedAdvice, ManagedAttach, ManagedLocation};
use crate::facade::binding::{invalid, stream};
use crate::facade::cuda_managed::{attribute_values, write_values};

/// `ACL_RT_MEM_ATTACH_GLOBAL`: the only flag `aclrtMemAllocManaged` takes.
pub const ACL_RT_MEM_ATTACH_GLOBAL: u32 = 0x01;

/// `enum aclrtMemManagedAdviseType`.
pub type aclrtMemManagedAdviseType = u32;
/// `ACL_MEM_ADVISE_SET_READ_MOSTLY`.
pub const ACL_MEM_ADVISE_SET_READ_MOSTLY: aclrtMemManagedAdviseType = 0;
/// `ACL_MEM_ADVISE_UNSET_READ_MOSTLY`.
pub const ACL_MEM_ADVISE_UNSET_READ_MOSTLY: aclrtMemManagedAdviseType = 1;
/// `ACL_MEM_ADVISE_SET_PREFERRED_LOCATION`.
pub const ACL_MEM_ADVISE_SET_PREFERRED_LOCATION: aclrtMemManagedAdviseType = 2;
/// `ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION`.
pub const ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION: aclrtMemManagedAdviseType = 3;
/// `ACL_MEM_ADVISE_SET_ACCESSED_BY`.
pub const ACL_MEM_ADVISE_SET_ACCESSED_BY: aclrtMemManagedAdviseType = 4;
/// `ACL_MEM_ADVISE_UNSET_ACCESSED_BY`.
pub const ACL_MEM_ADVISE_UNSET_ACCESSED_BY: aclrtMemManagedAdviseType = 5;

/// `enum aclrtMemManagedLocationType`.
pub type aclrtMemManagedLocationType = u32;
/// `ACL_MEM_LOCATIONTYPE_INVALID`.
pub const ACL_MEM_LOCATIONTYPE_INVALID: aclrtMemManagedLocationType = 0;
/// `ACL_MEM_LOCATIONTYPE_DEVICE`.
pub const ACL_MEM_LOCATIONTYPE_DEVICE: aclrtMemManagedLocationType = 1;
/// `ACL_MEM_LOCATIONTYPE_HOST`.
pub const ACL_MEM_LOCATIONTYPE_HOST: aclrtMemManagedLocationType = 2;
/// `ACL_MEM_LOCATIONTYPE_HOST_NUMA`.
pub const ACL_MEM_LOCATIONTYPE_HOST_NUMA: aclrtMemManagedLocationType = 3;
/// `ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT`.
pub const ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT: aclrtMemManagedLocationType = 4;

/// `struct aclrtMemManagedLocation`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aclrtMemManagedLocation {
    /// The kind of location.
    pub r#type: aclrtMemManagedLocationType,
    /// The device, for a device location.
    pub id: i32,
}

/// `enum aclrtMemManagedRangeAttribute`.
pub type aclrtMemManagedRangeAttribute = u32;
/// `ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY`.
pub const ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY: aclrtMemManagedRangeAttribute = 1;
/// `ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION`.
pub const ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: aclrtMemManagedRangeAttribute = 2;
/// `ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY`.
pub const ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: aclrtMemManagedRangeAttribute = 3;
/// `ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE`.
pub const ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: aclrtMemManagedRangeAttribute = 4;
/// `ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID`.
pub const ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: aclrtMemManagedRangeAttribute = 5;
/// `ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION`.
pub const ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION: aclrtMemManagedRangeAttribute = 6;
/// `ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE`.
pub const ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: aclrtMemManagedRangeAttribute = 7;
/// `ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID`.
pub const ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: aclrtMemManagedRangeAttribute = 8;

/// `aclrtMemAllocManaged`: `size` bytes of managed memory, attached globally, freed with `aclrtFree`. A NULL
/// `ptr` or a flag other than `ACL_RT_MEM_ATTACH_GLOBAL` is [`ACL_ERROR_INVALID_PARAM`]; size 0 is too (sim).
///
/// # Safety
/// `ptr` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemAllocManaged(
    ptr: *mut *mut c_void,
    size: u64,
    flag: u32,
) -> aclError {
    let what = "aclrtMemAllocManaged";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        if flag != ACL_RT_MEM_ATTACH_GLOBAL {
            return Err(invalid(
                what,
                format!("flag {flag:#x}: only ACL_RT_MEM_ATTACH_GLOBAL (0x1)"),
            ));
        }
        let h = p.malloc_managed(size, ManagedAttach::Global)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { ptr.write(h.0 as usize as *mut c_void) };
        Ok(())
    })
}

/// A location of the ACL calls: a device or the host (the NUMA kinds are the host's; an invalid type is
/// refused).
fn location(what: &'static str, l: aclrtMemManagedLocation) -> Result<ManagedLocation, SimError> {
    match l.r#type {
        ACL_MEM_LOCATIONTYPE_DEVICE => u32::try_from(l.id)
            .map(ManagedLocation::Device)
            .map_err(|_| invalid(what, format!("device {}", l.id))),
        ACL_MEM_LOCATIONTYPE_HOST
        | ACL_MEM_LOCATIONTYPE_HOST_NUMA
        | ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT => Ok(ManagedLocation::Host),
        other => Err(invalid(what, format!("location type {other}"))),
    }
}

/// `aclrtMemManagedAdvise`: advice for `size` bytes of managed memory at `ptr` (CUDA's advice, the same six
/// kinds). NULL or size 0 is [`ACL_ERROR_INVALID_PARAM`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemManagedAdvise(
    ptr: *const c_void,
    size: u64,
    advise: aclrtMemManagedAdviseType,
    location_: aclrtMemManagedLocation,
) -> aclError {
    let what = "aclrtMemManagedAdvise";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        if size == 0 {
            return Err(invalid(what, "size 0"));
        }
        let advice = match advise {
            ACL_MEM_ADVISE_SET_READ_MOSTLY => ManagedAdvice::SetReadMostly,
            ACL_MEM_ADVISE_UNSET_READ_MOSTLY => ManagedAdvice::UnsetReadMostly,
            ACL_MEM_ADVISE_SET_PREFERRED_LOCATION => {
                ManagedAdvice::SetPreferredLocation(location(what, location_)?)
            }
            ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION => ManagedAdvice::UnsetPreferredLocation,
            ACL_MEM_ADVISE_SET_ACCESSED_BY => {
                ManagedAdvice::SetAccessedBy(location(what, location_)?)
            }
            ACL_MEM_ADVISE_UNSET_ACCESSED_BY => {
                ManagedAdvice::UnsetAccessedBy(location(what, location_)?)
            }
            other => return Err(invalid(what, format!("advice {other}"))),
        };
        p.mem_advise(ptr as usize as u64, size, advice)
            .map_err(runtime)
    })
}

/// `aclrtMemManagedPrefetchAsync`: a prefetch of `size` bytes at `ptr` to `location` on `stream`. NULL, size 0 or
/// flags other than 0 are [`ACL_ERROR_INVALID_PARAM`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemManagedPrefetchAsync(
    ptr: *const c_void,
    size: usize,
    location_: aclrtMemManagedLocation,
    flags: u32,
    s: aclrtStream,
) -> aclError {
    let what = "aclrtMemManagedPrefetchAsync";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        if size == 0 || flags != 0 {
            return Err(invalid(what, format!("size {size}, flags {flags:#x}")));
        }
        let to = location(what, location_)?;
        p.mem_prefetch_async(ptr as usize as u64, size as u64, to, stream(s))
            .map_err(runtime)
    })
}

/// `aclrtMemManagedPrefetchBatchAsync`: `count` prefetches, `ptrs[i]` of `sizes[i]` bytes, range `i` going to
/// `prefetchLocs[k]` for the last `k` with `prefetchLocIdxs[k] <= i` (`prefetchLocIdxs[0]` must be 0 and the
/// indices increasing). Everything is checked before the first prefetch is enqueued.
///
/// # Safety
/// The arrays hold `count` (`ptrs`, `sizes`) and `numPrefetchLocs` (`prefetchLocs`, `prefetchLocIdxs`) entries.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments, reason = "the C signature")]
pub unsafe extern "C" fn aclrtMemManagedPrefetchBatchAsync(
    ptrs: *mut *const c_void,
    sizes: *mut usize,
    count: usize,
    prefetchLocs: *mut aclrtMemManagedLocation,
    prefetchLocIdxs: *mut usize,
    numPrefetchLocs: usize,
    flags: u64,
    s: aclrtStream,
) -> aclError {
    let what = "aclrtMemManagedPrefetchBatchAsync";
    run(what, |p| {
        not_null(what, "ptrs", ptrs)?;
        not_null(what, "sizes", sizes)?;
        not_null(what, "prefetchLocs", prefetchLocs)?;
        not_null(what, "prefetchLocIdxs", prefetchLocIdxs)?;
        if count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count || flags != 0 {
            return Err(invalid(
                what,
                format!("count {count}, numPrefetchLocs {numPrefetchLocs}, flags {flags:#x}"),
            ));
        }
        // SAFETY: the arrays' lengths are the C contract.
        let (ptrs, sizes, locs, idxs) = unsafe {
            (
                std::slice::from_raw_parts(ptrs, count),
                std::slice::from_raw_parts(sizes, count),
                std::slice::from_raw_parts(prefetchLocs, numPrefetchLocs),
                std::slice::from_raw_parts(prefetchLocIdxs, numPrefetchLocs),
            )
        };
        if idxs[0] != 0
            || idxs.windows(2).any(|w| w[0] >= w[1])
            || idxs[numPrefetchLocs - 1] >= count
        {
            return Err(invalid(
                what,
                "prefetchLocIdxs must start at 0 and increase below count",
            ));
        }
        let mut plan = Vec::with_capacity(count);
        for (i, (&ptr, &size)) in ptrs.iter().zip(sizes).enumerate() {
            not_null(what, "ptrs[i]", ptr)?;
            if size == 0 {
                return Err(invalid(what, format!("sizes[{i}] is 0")));
            }
            let k = idxs.partition_point(|&x| x <= i) - 1;
            plan.push((ptr as usize as u64, size as u64, location(what, locs[k])?));
        }
        for (addr, size, to) in plan {
            p.mem_prefetch_async(addr, size, to, stream(s))
                .map_err(runtime)?;
        }
        Ok(())
    })
}

/// An engine refusal of the range (not managed memory, past its end, an unknown device) as the runtime's: after the
/// ACL layer's checks the call is the runtime's (`rtMemManaged*`), whose invalid value is 107000.
fn runtime(e: SimError) -> SimError {
    match e {
        SimError::InvalidValue { what, reason } => invalid(WHAT_RT, format!("{what}: {reason}")),
        other => other,
    }
}

/// The CUDA number of an ACL range attribute (the same attributes in another order).
fn cuda_attribute(what: &'static str, a: aclrtMemManagedRangeAttribute) -> Result<c_int, SimError> {
    Ok(match a {
        ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY => 1,
        ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION => 2,
        ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY => 3,
        ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION => 4,
        ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE => 5,
        ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID => 6,
        ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE => 7,
        ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID => 8,
        other => return Err(invalid(what, format!("range attribute {other}"))),
    })
}

/// `aclrtMemManagedGetAttr`: one attribute of `size` bytes of managed memory at `ptr`, written as 32-bit values to
/// `data` (`dataSize` bytes: 4, or a multiple of 4 for ACCESSED_BY): the same answers as CUDA's
/// `cudaMemRangeGetAttribute` (a location as its device, -1 for the host, -2 for none). NULL `ptr` or `data`, or
/// size 0, is [`ACL_ERROR_INVALID_PARAM`].
///
/// # Safety
/// `data` is NULL or valid for `dataSize` bytes of writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemManagedGetAttr(
    attribute: aclrtMemManagedRangeAttribute,
    ptr: *const c_void,
    size: usize,
    data: *mut c_void,
    dataSize: usize,
) -> aclError {
    let what = "aclrtMemManagedGetAttr";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        not_null(what, "data", data)?;
        if size == 0 {
            return Err(invalid(what, "size 0"));
        }
        let a = p
            .mem_range_attributes(ptr as usize as u64, size as u64)
            .map_err(runtime)?;
        let v = attribute_values(what, &a, cuda_attribute(what, attribute)?, dataSize)?;
        // SAFETY: `data` holds `dataSize` bytes (C contract), and `v` is `dataSize` bytes.
        unsafe { write_values(data, &v) };
        Ok(())
    })
}

/// `aclrtMemManagedGetAttrs`: [`aclrtMemManagedGetAttr`] for `numAttributes` attributes, each into `data[i]` of
/// `dataSizes[i]` bytes; every attribute is checked before anything is written.
///
/// # Safety
/// The arrays hold `numAttributes` entries, and each `data[i]` is NULL or valid for `dataSizes[i]` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemManagedGetAttrs(
    attributes: *mut aclrtMemManagedRangeAttribute,
    numAttributes: usize,
    ptr: *const c_void,
    size: usize,
    data: *mut *mut c_void,
    dataSizes: *mut usize,
) -> aclError {
    let what = "aclrtMemManagedGetAttrs";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        not_null(what, "attributes", attributes)?;
        not_null(what, "data", data)?;
        not_null(what, "dataSizes", dataSizes)?;
        if size == 0 || numAttributes == 0 {
            return Err(invalid(
                what,
                format!("size {size}, numAttributes {numAttributes}"),
            ));
        }
        let a = p
            .mem_range_attributes(ptr as usize as u64, size as u64)
            .map_err(runtime)?;
        let mut all = Vec::with_capacity(numAttributes.min(64));
        for i in 0..numAttributes {
            // SAFETY: the arrays hold `numAttributes` entries (C contract).
            let (attr, d, n) = unsafe { (*attributes.add(i), *data.add(i), *dataSizes.add(i)) };
            if d.is_null() {
                return Err(invalid(what, format!("data[{i}] is NULL")));
            }
            all.push((
                d,
                attribute_values(what, &a, cuda_attribute(what, attr)?, n)?,
            ));
        }
        for (d, v) in all {
            // SAFETY: as in aclrtMemManagedGetAttr.
            unsafe { write_values(d, &v) };
        }
        Ok(())
    })
}
