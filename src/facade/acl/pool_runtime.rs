//! What the functions of `pool.rs` do: the ACL layer's argument checks (`src/acl/aclrt_impl/memory.cpp`:
//! [`ACL_ERROR_INVALID_PARAM`]) and the runtime's (`src/runtime/api/impl/api_impl_soma.cc`,
//! `src/runtime/feature/soma/`), then the engine's pool calls. The codes of the engine's pool errors are chosen in
//! `runtime::code`.

#![allow(
    clippy::missing_safety_doc,
    reason = "the vendor functions' contracts are the vendor's; see crate::facade::acl"
)]

use std::ffi::c_void;

use super::runtime::{WHAT_RT, not_null, run};
use super::types::*;
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{PoolProblem, SimError};
use crate::engine::core::handle::MemPool;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::pools::state::{PoolAttr, PoolProps};
use crate::facade::binding::{handle_ptr, invalid, out, stream};

/// `DEVICE_POOL_ALIGN_SIZE` / `DEVICE_POOL_MIN_BLOCK_SIZE` of the runtime's `stream_mem_pool.hpp`: 2 MiB.
const POOL_ALIGN: u64 = 2 << 20;

fn pool(p: aclrtMemPool) -> MemPool {
    MemPool::from_raw(p as usize as u64)
}

fn attr(what: &'static str, a: aclrtMemPoolAttr) -> Result<PoolAttr, SimError> {
    PoolAttr::from_number(a).ok_or(SimError::MemPool {
        what,
        problem: PoolProblem::UnknownAttribute(a),
    })
}

/// A NULL `value`: the runtime's `RT_ERROR_INVALID_VALUE` (107000).
fn value_arg(value: *mut c_void) -> Result<(), SimError> {
    if value.is_null() {
        return Err(invalid(WHAT_RT, "value is NULL"));
    }
    Ok(())
}

/// The size of a pool of `max_size` bytes on `device` (`SomaApi::AlignAndValidatePoolSize`): 0 is the device's
/// memory rounded down to 2 MiB; another size is rounded up, and may not exceed the device's memory
/// (107000). Also the scenario runner's `mem-pool` in ACL.
pub(crate) fn pool_size(
    p: &crate::engine::process::Process,
    device: u32,
    max_size: u64,
) -> Result<u64, SimError> {
    let total = p.machine().device_config(device)?.memory;
    let size = match max_size {
        0 => total / POOL_ALIGN * POOL_ALIGN,
        n => n.div_ceil(POOL_ALIGN).saturating_mul(POOL_ALIGN),
    };
    if size > total || size == 0 {
        return Err(invalid(
            WHAT_RT,
            format!("a pool of {size} bytes on a device of {total}"),
        ));
    }
    Ok(size)
}

pub(crate) unsafe fn create(
    mem_pool: *mut aclrtMemPool,
    props: *const aclrtMemPoolProps,
) -> aclError {
    let what = "aclrtMemPoolCreate";
    run(what, |p| {
        not_null(what, "memPool", mem_pool)?;
        not_null(what, "poolProps", props)?;
        // SAFETY: non-NULL; C contract.
        let pr = unsafe { props.read_unaligned() };
        if pr.allocType != ACL_MEM_ALLOCATION_TYPE_PINNED {
            return Err(invalid(
                what,
                format!("allocType {} (MEM_ALLOCATION_TYPE_PINNED(0))", pr.allocType),
            ));
        }
        if pr.location.r#type != ACL_MEM_LOCATION_TYPE_DEVICE {
            return Err(invalid(
                what,
                format!(
                    "location.type {} (MEM_LOCATION_TYPE_DEVICE(1))",
                    pr.location.r#type
                ),
            ));
        }
        if pr.reserved.iter().any(|&b| b != 0) {
            return Err(invalid(what, "reserved must be 0"));
        }
        let device = p.check_device(i64::from(pr.location.id))?;
        if pr.handleType != ACL_MEM_HANDLE_TYPE_NONE {
            return Err(SimError::NotSupported {
                what,
                reason: "IPC memory pools are not simulated".into(),
            });
        }
        let size = pool_size(p, device, pr.maxSize as u64)?;
        let h = p.create_pool(PoolProps::new(device).max_size(size))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, mem_pool, handle_ptr(h.to_raw())) }
    })
}

pub(crate) fn destroy(mem_pool: aclrtMemPool) -> aclError {
    let what = "aclrtMemPoolDestroy";
    run(what, |p| {
        not_null(what, "memPool", mem_pool)?;
        p.destroy_pool(pool(mem_pool))
    })
}

pub(crate) unsafe fn set_attr(
    mem_pool: aclrtMemPool,
    a: aclrtMemPoolAttr,
    value: *mut c_void,
) -> aclError {
    let what = "aclrtMemPoolSetAttr";
    run(what, |p| {
        not_null(what, "memPool", mem_pool)?;
        value_arg(value)?;
        let a = attr("pool_set_attribute", a)?;
        // SAFETY: non-NULL, of the attribute's type (C contract).
        let v = unsafe {
            if a.is_flag() {
                u64::from(value.cast::<u32>().read_unaligned())
            } else {
                value.cast::<u64>().read_unaligned()
            }
        };
        p.set_pool_attribute(pool(mem_pool), a, v)
    })
}

pub(crate) unsafe fn get_attr(
    mem_pool: aclrtMemPool,
    a: aclrtMemPoolAttr,
    value: *mut c_void,
) -> aclError {
    let what = "aclrtMemPoolGetAttr";
    run(what, |p| {
        not_null(what, "memPool", mem_pool)?;
        value_arg(value)?;
        let a = attr("pool_get_attribute", a)?;
        let v = p.pool_attribute(pool(mem_pool), a)?;
        // SAFETY: non-NULL, of the attribute's type (C contract).
        unsafe {
            if a.is_flag() {
                value.cast::<u32>().write_unaligned(v as u32);
            } else {
                value.cast::<u64>().write_unaligned(v);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe fn malloc_async(
    ptr: *mut *mut c_void,
    size: usize,
    mem_pool: aclrtMemPool,
    s: aclrtStream,
) -> aclError {
    let what = "aclrtMemPoolMallocAsync";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        not_null(what, "memPool", mem_pool)?;
        not_null(what, "stream", s)?;
        if size == 0 {
            return Ok(());
        }
        if size as u64 > u64::MAX - (POOL_ALIGN - 1) {
            return Err(invalid(
                WHAT_RT,
                format!("size {size} overflows its 2 MiB alignment"),
            ));
        }
        let d = p.malloc_from_pool_async(size as u64, pool(mem_pool), stream(s))?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, ptr, d.addr() as usize as *mut c_void) }
    })
}

pub(crate) fn free_async(ptr: *mut c_void, s: aclrtStream) -> aclError {
    let what = "aclrtMemPoolFreeAsync";
    run(what, |p| {
        not_null(what, "ptr", ptr)?;
        if s.is_null() {
            return Err(SimError::MemPool {
                what: EngineCall::FreeAsync.name(),
                problem: PoolProblem::NullStream,
            });
        }
        p.free_async(DevicePtr(ptr as usize as u64), stream(s))
    })
}

pub(crate) fn trim_to(mem_pool: aclrtMemPool, keep: usize) -> aclError {
    let what = "aclrtMemPoolTrimTo";
    run(what, |p| {
        not_null(what, "memPool", mem_pool)?;
        p.trim_pool(pool(mem_pool), keep as u64)
    })
}
