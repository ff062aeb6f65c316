//! The `extern "C"` functions of ACL's stream-ordered memory allocation (SOMA, `acl_rt_memory_soma.h` of the CANN
//! runtime): memory pools, `aclrtMemPoolMallocAsync` / `aclrtMemPoolFreeAsync`, attributes and trims. Each is a
//! line that forwards to `pool_runtime.rs`. The rows, codes and sources are in
//! `docs/semantics/stream-ordered-memory.md`.

use std::ffi::c_void;

use super::pool_runtime as imp;
use super::types::*;

/// `aclrtMemPoolCreate`: a pool of `poolProps->location.id`'s memory (`ACL_MEM_ALLOCATION_TYPE_PINNED`,
/// `ACL_MEM_LOCATION_TYPE_DEVICE`; IPC pools are not simulated), of `maxSize` bytes rounded up to 2 MiB (0: the
/// device's memory, rounded down). No reuse policy is enabled: the runtime's defaults.
///
/// # Safety
/// `memPool` is NULL or valid for a write; `poolProps` is NULL or valid for a read.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemPoolCreate(
    memPool: *mut aclrtMemPool,
    poolProps: *const aclrtMemPoolProps,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create(memPool, poolProps) }
}

/// `aclrtMemPoolDestroy`: the handle is dead at once; memory still allocated goes back to the device once freed.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemPoolDestroy(memPool: aclrtMemPool) -> aclError {
    imp::destroy(memPool)
}

/// `aclrtMemPoolSetAttr`: the reuse policies take a `uint32_t`, the others a `uint64_t`.
///
/// # Safety
/// `value` is NULL or valid for a read of the attribute's type.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemPoolSetAttr(
    memPool: aclrtMemPool,
    attr: aclrtMemPoolAttr,
    value: *mut c_void,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::set_attr(memPool, attr, value) }
}

/// `aclrtMemPoolGetAttr`: the reuse policies as a `uint32_t`, the others as a `uint64_t`.
///
/// # Safety
/// `value` is NULL or valid for a write of the attribute's type.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemPoolGetAttr(
    memPool: aclrtMemPool,
    attr: aclrtMemPoolAttr,
    value: *mut c_void,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_attr(memPool, attr, value) }
}

/// `aclrtMemPoolMallocAsync`: `size` bytes (rounded up to 2 MiB) from `memPool`, as a task of `stream` (of the
/// current context). Size 0 is [`ACL_SUCCESS`] and does nothing (`*ptr` is not written), as in the ACL layer.
///
/// # Safety
/// `ptr` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemPoolMallocAsync(
    ptr: *mut *mut c_void,
    size: usize,
    memPool: aclrtMemPool,
    stream: aclrtStream,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::malloc_async(ptr, size, memPool, stream) }
}

/// `aclrtMemPoolFreeAsync`: a task of `stream` (of the current context) that gives `ptr` back to its pool; memory
/// from `aclrtMalloc` is freed when the stream reaches the task.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemPoolFreeAsync(ptr: *mut c_void, stream: aclrtStream) -> aclError {
    imp::free_async(ptr, stream)
}

/// `aclrtMemPoolTrimTo`: gives memory no allocation uses (whose frees the host has observed) back to the device,
/// keeping at least `minBytesToKeep`; below the bytes in use, or above the pool's size, is refused.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemPoolTrimTo(memPool: aclrtMemPool, minBytesToKeep: usize) -> aclError {
    imp::trim_to(memPool, minBytesToKeep)
}
