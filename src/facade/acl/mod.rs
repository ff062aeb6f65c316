//! The Ascend CANN ACL runtime facade: `aclrt*` functions with ACL's names, C types and error codes, routed to
//! the bound process (see [`crate::Process::bind`]) or to the ACL default machine (see [`crate::facade`]).
//! `kernel<<<…, stream>>>` becomes [`aclsimLaunchKernel`]. The module is three files in `src/facade/acl/`:
//! `types.rs` (the C types, enum constants, flags and error codes), `mod.rs` (the `extern "C"` functions, each a
//! line that translates its arguments) and `runtime.rs` (what they do: calls into the engine, and `code`, the
//! one mapping of a simulator error to an `aclError`). The semantics are the rows of `docs/semantics/acl.md`.
//!
//! Types are written as bindgen writes `acl_rt.h` by default: handles are `*mut c_void`, a C enum is an
//! integer alias plus one constant per enumerator, `aclError` is `i32`. Status enums keep the vendor's
//! *opposite* numbering: [`ACL_EVENT_RECORDED_STATUS_COMPLETE`] is 1, while [`ACL_EVENT_STATUS_COMPLETE`] and
//! [`ACL_STREAM_STATUS_COMPLETE`] are 0.
//!
//! ```
//! use std::ptr;
//! use streamsim::acl::*;
//! use streamsim::{Dialect, Machine};
//!
//! let machine = Machine::builder().devices(1).dialect(Dialect::Acl).build()?;
//! let p = machine.process();
//! let _bound = p.bind(); // this thread's aclrt* calls go to `p`
//! unsafe {
//!     assert_eq!(aclrtSetDevice(0), ACL_SUCCESS);
//!     let (mut stream, mut event) = (ptr::null_mut(), ptr::null_mut());
//!     assert_eq!(aclrtCreateStream(&mut stream), ACL_SUCCESS);
//!     assert_eq!(aclrtCreateEvent(&mut event), ACL_SUCCESS);
//!     assert_eq!(aclsimLaunchKernel(stream, c"myKernel".as_ptr(), 1_000_000, None, ptr::null_mut()), 0);
//!     assert_eq!(aclrtRecordEvent(event, stream), ACL_SUCCESS);
//!     let mut status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
//!     assert_eq!(aclrtQueryEventStatus(event, &mut status), ACL_SUCCESS);
//!     assert_eq!(status, ACL_EVENT_RECORDED_STATUS_NOT_READY); // 1 ms of virtual work is still running
//!     assert_eq!(aclrtSynchronizeEvent(event), ACL_SUCCESS);
//!     assert_eq!(aclrtDestroyEvent(event), ACL_SUCCESS);
//!     assert_eq!(aclrtDestroyEvent(event), ACL_ERROR_RT_INVALID_HANDLE); // 107017
//! }
//! # Ok::<(), streamsim::SimError>(())
//! ```
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    non_snake_case,
    reason = "the vendor's names"
)]

use std::ffi::{c_char, c_void};

mod control;
mod control_runtime;
pub(crate) mod event_runtime;
mod ipc_memory;
mod managed;
pub(crate) mod memory_runtime;
pub(crate) mod model;
pub(crate) mod names;
mod pool;
pub(crate) mod pool_runtime;
pub(crate) mod runtime;
mod types;

pub use control::*;
pub use managed::*;
pub use model::*;
pub use pool::*;
use runtime as imp;
pub use types::*;

// ---------------------------------------------------------------------------------------------- init

/// `aclInit`: initialises ACL for the process; a second time is [`ACL_ERROR_REPEAT_INITIALIZE`]. The
/// configuration file is not read.
#[unsafe(no_mangle)]
pub extern "C" fn aclInit(configPath: *const c_char) -> aclError {
    imp::init(configPath)
}

/// `aclFinalize`: a second time is [`ACL_ERROR_REPEAT_FINALIZE`]; without `aclInit`,
/// [`ACL_ERROR_UNINITIALIZE`].
#[unsafe(no_mangle)]
pub extern "C" fn aclFinalize() -> aclError {
    imp::finalize()
}

/// `aclGetRecentErrMsg`: the message of the calling thread's last error, or NULL if there is none. The string
/// is valid until the next call of this function on this thread that finds another message.
#[unsafe(no_mangle)]
pub extern "C" fn aclGetRecentErrMsg() -> *const c_char {
    imp::recent_err_msg()
}

// ---------------------------------------------------------------------------------------------- devices

/// `aclrtSetDevice`: for the calling thread only; creates (or shares) the device's default context and
/// counts a reference. Out of range: [`ACL_ERROR_RT_INVALID_DEVICEID`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSetDevice(deviceId: i32) -> aclError {
    imp::set_device(deviceId)
}

/// `aclrtResetDevice`: drops one reference; at 0 frees the device's default context and streams after
/// their pending work. Not set: [`ACL_ERROR_RT_CONTEXT_RELEASE_ERROR`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtResetDevice(deviceId: i32) -> aclError {
    imp::reset_device(deviceId, false)
}

/// `aclrtResetDeviceForce`: frees the device at once, whatever its reference count.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtResetDeviceForce(deviceId: i32) -> aclError {
    imp::reset_device(deviceId, true)
}

/// `aclrtGetDevice`: no device on this thread is [`ACL_ERROR_RT_CONTEXT_NULL`].
///
/// # Safety
/// `deviceId` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetDevice(deviceId: *mut i32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_device(deviceId) }
}

/// `aclrtGetDeviceCount`.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetDeviceCount(count: *mut u32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_device_count(count) }
}

/// `aclrtGetDeviceInfo`: the `ACL_DEV_ATTR_*` values of the machine's device configuration.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetDeviceInfo(
    deviceId: u32,
    attr: aclrtDevAttr,
    value: *mut i64,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_device_info(deviceId, attr, value) }
}

/// `aclrtSynchronizeDevice`: waits for all work of the current device in this process.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeDevice() -> aclError {
    imp::synchronize_device()
}

/// `aclrtDeviceCanAccessPeer`: the machine's topology; `deviceId == peerDeviceId` is
/// [`ACL_ERROR_INVALID_PARAM`].
///
/// # Safety
/// `canAccessPeer` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtDeviceCanAccessPeer(
    canAccessPeer: *mut i32,
    deviceId: i32,
    peerDeviceId: i32,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::can_access_peer(canAccessPeer, deviceId, peerDeviceId) }
}

/// `aclrtDeviceEnablePeerAccess`: current device → peer, one direction. Flags other than 0:
/// [`ACL_ERROR_FEATURE_UNSUPPORTED`]; enabling twice is a no-op (sim).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDeviceEnablePeerAccess(peerDeviceId: i32, flags: u32) -> aclError {
    imp::enable_peer_access(peerDeviceId, flags)
}

/// `aclrtDeviceDisablePeerAccess`: disabling what is not enabled is a no-op (sim).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDeviceDisablePeerAccess(peerDeviceId: i32) -> aclError {
    imp::disable_peer_access(peerDeviceId)
}

// ---------------------------------------------------------------------------------------------- contexts

/// `aclrtCreateContext`: the new context (with its own default stream) becomes the thread's current one.
///
/// # Safety
/// `context` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateContext(context: *mut aclrtContext, deviceId: i32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_context(context, deviceId) }
}

/// `aclrtDestroyContext`: the default context of a device is [`ACL_ERROR_RT_CONTEXT_NULL`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDestroyContext(context: aclrtContext) -> aclError {
    imp::destroy_context(context)
}

/// `aclrtSetCurrentContext`: the current device switches with the context.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSetCurrentContext(context: aclrtContext) -> aclError {
    imp::set_current_context(context)
}

/// `aclrtGetCurrentContext`.
///
/// # Safety
/// `context` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetCurrentContext(context: *mut aclrtContext) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_current_context(context) }
}

// ---------------------------------------------------------------------------------------------- streams

/// `aclrtCreateStream`: a stream of the current context.
///
/// # Safety
/// `stream` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateStream(stream: *mut aclrtStream) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_stream(stream, 0, 0) }
}

/// `aclrtCreateStreamWithConfig`: the `ACL_STREAM_*` flags are accepted and have no simulated effect; unknown
/// bits are [`ACL_ERROR_INVALID_PARAM`].
///
/// # Safety
/// `stream` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateStreamWithConfig(
    stream: *mut aclrtStream,
    priority: u32,
    flag: u32,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_stream(stream, priority, flag) }
}

/// `aclrtDestroyStream`: only from the stream's context ([`ACL_ERROR_RT_STREAM_CONTEXT`]); queued work still
/// completes.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDestroyStream(stream: aclrtStream) -> aclError {
    imp::destroy_stream(stream, "aclrtDestroyStream")
}

/// `aclrtDestroyStreamForce`: like [`aclrtDestroyStream`] (the simulator does not discard queued work).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDestroyStreamForce(stream: aclrtStream) -> aclError {
    imp::destroy_stream(stream, "aclrtDestroyStreamForce")
}

/// `aclrtSynchronizeStream`: works on a stream of any context or device; reports a kernel fault as
/// [`ACL_ERROR_RT_AICORE_EXCEPTION`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeStream(stream: aclrtStream) -> aclError {
    imp::synchronize_stream(stream, -1)
}

/// `aclrtSynchronizeStreamWithTimeout`: −1 waits forever; 0 or below −1 is [`ACL_ERROR_RT_PARAM_INVALID`];
/// running out (virtual time) is [`ACL_ERROR_RT_STREAM_SYNC_TIMEOUT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeStreamWithTimeout(stream: aclrtStream, timeout: i32) -> aclError {
    imp::synchronize_stream(stream, timeout)
}

/// `aclrtStreamQuery`: [`ACL_STREAM_STATUS_COMPLETE`] (0) or [`ACL_STREAM_STATUS_NOT_READY`] (1).
///
/// # Safety
/// `status` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtStreamQuery(
    stream: aclrtStream,
    status: *mut aclrtStreamStatus,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::stream_query(stream, status) }
}

/// `aclrtStreamWaitEvent` (stream first): later work on `stream` waits for the event's record current now. The
/// event needs `ACL_EVENT_SYNC`, or is an `ACL_EVENT_IPC` event (local or opened with
/// [`aclrtIpcOpenEventHandle`]; before its first record the wait does nothing); else
/// [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtStreamWaitEvent(stream: aclrtStream, event: aclrtEvent) -> aclError {
    imp::stream_wait_event(stream, event)
}

/// `aclrtLaunchHostFunc` (stream first): `fn_(args)` runs on the host after the stream's earlier work.
///
/// # Safety
/// `fn_` is NULL or a function that may be called with `args` from another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtLaunchHostFunc(
    stream: aclrtStream,
    fn_: aclrtHostFunc,
    args: *mut c_void,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::launch_host_func(stream, fn_, args) }
}

/// `kernel<<<…, stream>>>`, simulated: a kernel named `name` taking `durationNs` of virtual time, whose body
/// (if `fn_` is not NULL) is `fn_(arg)`. It obeys the launch rules: the stream must belong to the current
/// context ([`ACL_ERROR_RT_STREAM_CONTEXT`]).
///
/// # Safety
/// `name` is NULL or NUL-terminated; `fn_` is NULL or a function that may be called with `arg` from another
/// thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclsimLaunchKernel(
    stream: aclrtStream,
    name: *const c_char,
    durationNs: u64,
    fn_: aclrtHostFunc,
    arg: *mut c_void,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe {
        imp::launch_kernel(
            "aclsimLaunchKernel",
            stream,
            name,
            durationNs,
            fn_,
            arg,
            std::ptr::null(),
            0,
        )
    }
}

/// [`aclsimLaunchKernel`] with the kernel's declared device-memory accesses (for race detection).
///
/// # Safety
/// As [`aclsimLaunchKernel`]; `accesses` is NULL or valid for `count` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclsimLaunchKernelEx(
    stream: aclrtStream,
    name: *const c_char,
    durationNs: u64,
    fn_: aclrtHostFunc,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe {
        imp::launch_kernel(
            "aclsimLaunchKernelEx",
            stream,
            name,
            durationNs,
            fn_,
            arg,
            accesses,
            count,
        )
    }
}

/// [`aclsimLaunchKernelEx`] whose body works on the kernel's declared memory: `body(ctx, arg)` reads and writes
/// it through `streamsimKernelRead`, `streamsimKernelWrite` and `streamsimKernelMap` ([`crate::capi`]); an
/// access outside the declared accesses faults the kernel ([`ACL_ERROR_RT_AICORE_EXCEPTION`] at the next
/// synchronize). Pinned host memory cannot be declared ([`ACL_ERROR_RT_PARAM_INVALID`]: `aclrtMallocHost`
/// memory reaches a kernel only through `aclrtHostRegister`, not simulated).
///
/// # Safety
/// As [`aclsimLaunchKernelEx`]; `body` is NULL or a function that may be called from another thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclsimLaunchKernelCtx(
    stream: aclrtStream,
    name: *const c_char,
    durationNs: u64,
    body: streamsimKernelCtxBody,
    arg: *mut c_void,
    accesses: *const streamsimAccess,
    count: usize,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::launch_kernel_ctx(stream, name, durationNs, body, arg, accesses, count) }
}

// ---------------------------------------------------------------------------------------------- events

/// `aclrtCreateEvent`: a timed, waitable event. Before its first record a status query says NOT_READY and a
/// stream wait is [`ACL_ERROR_RT_PARAM_INVALID`].
///
/// # Safety
/// `event` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateEvent(event: *mut aclrtEvent) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_event(event, imp::EventKind::Plain) }
}

/// `aclrtCreateEventWithFlag`: timed iff `ACL_EVENT_TIME_LINE`, waitable iff `ACL_EVENT_SYNC` (a wait before
/// the first record then holds the stream until the next record). Unknown bits: [`ACL_ERROR_INVALID_PARAM`].
///
/// # Safety
/// `event` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateEventWithFlag(event: *mut aclrtEvent, flag: u32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_event(event, imp::EventKind::WithFlag(flag)) }
}

/// `aclrtCreateEventExWithFlag`: the same flags; before its first record a status query says COMPLETE and a
/// stream wait does nothing. `ACL_EVENT_IPC` must be the only flag ([`ACL_ERROR_RT_PARAM_INVALID`] otherwise):
/// an IPC event, untimed, which streams can wait on without `ACL_EVENT_SYNC` and which cannot be reset.
///
/// # Safety
/// `event` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateEventExWithFlag(event: *mut aclrtEvent, flag: u32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_event(event, imp::EventKind::ExWithFlag(flag)) }
}

/// `aclrtDestroyEvent`: at once, even with a record pending.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDestroyEvent(event: aclrtEvent) -> aclError {
    imp::destroy_event(event)
}

/// `aclrtRecordEvent`: the stream must belong to the current context and to the event's device
/// ([`ACL_ERROR_RT_STREAM_CONTEXT`]).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtRecordEvent(event: aclrtEvent, stream: aclrtStream) -> aclError {
    imp::record_event(event, stream)
}

/// `aclrtResetEvent`: queued on the stream; the event is "not recorded" again. Needs `ACL_EVENT_SYNC`; an IPC
/// event cannot be reset ([`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtResetEvent(event: aclrtEvent, stream: aclrtStream) -> aclError {
    imp::reset_event(event, stream)
}

/// `aclrtQueryEvent` (deprecated): [`ACL_EVENT_STATUS_COMPLETE`] (0) — also before the first record — or
/// [`ACL_EVENT_STATUS_NOT_READY`] (1). Not for IPC events ([`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]).
///
/// # Safety
/// `status` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtQueryEvent(
    event: aclrtEvent,
    status: *mut aclrtEventStatus,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::query_event(event, status) }
}

/// `aclrtQueryEventStatus`: [`ACL_EVENT_RECORDED_STATUS_NOT_READY`] (0) or
/// [`ACL_EVENT_RECORDED_STATUS_COMPLETE`] (1); before the first record, NOT_READY for `aclrtCreateEvent` /
/// `…WithFlag` events and COMPLETE for `…ExWithFlag` events.
///
/// # Safety
/// `status` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtQueryEventStatus(
    event: aclrtEvent,
    status: *mut aclrtEventRecordedStatus,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::query_event_status(event, status) }
}

/// `aclrtSynchronizeEvent`: works for an event of any device; never recorded returns at once.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeEvent(event: aclrtEvent) -> aclError {
    imp::synchronize_event(event, -1)
}

/// `aclrtSynchronizeEventWithTimeout`: −1 waits forever; 0 or below −1 is [`ACL_ERROR_RT_PARAM_INVALID`];
/// running out (virtual time) is [`ACL_ERROR_RT_EVENT_SYNC_TIMEOUT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeEventWithTimeout(event: aclrtEvent, timeout: i32) -> aclError {
    imp::synchronize_event(event, timeout)
}

/// `aclrtEventElapsedTime`: milliseconds between the two latest records (negative if `endEvent` finished
/// first). Never recorded: [`ACL_ERROR_RT_INTERNAL_ERROR`]; IPC / external: [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`];
/// not finished or not `ACL_EVENT_TIME_LINE`: [`ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID`].
///
/// # Safety
/// `ms` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtEventElapsedTime(
    ms: *mut f32,
    startEvent: aclrtEvent,
    endEvent: aclrtEvent,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::event_elapsed_time(ms, startEvent, endEvent) }
}

/// `aclrtEventGetTimestamp`: the virtual time of the latest record in microseconds, with the rules of
/// [`aclrtEventElapsedTime`].
///
/// # Safety
/// `timestamp` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtEventGetTimestamp(
    event: aclrtEvent,
    timestamp: *mut u64,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::event_get_timestamp(event, timestamp) }
}

/// `aclrtIpcGetEventHandle`: the event must be created with `ACL_EVENT_IPC`.
///
/// # Safety
/// `handle` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcGetEventHandle(
    event: aclrtEvent,
    handle: *mut aclrtIpcEventHandle,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::ipc_get_event_handle(event, handle) }
}

/// `aclrtIpcOpenEventHandle`: opens an event exported by another process of the machine.
///
/// # Safety
/// `event` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcOpenEventHandle(
    handle: aclrtIpcEventHandle,
    event: *mut aclrtEvent,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::ipc_open_event_handle(handle, event) }
}

/// `aclrtIpcMemGetExportKey`: exports `size` bytes of device memory from `devPtr` and writes the key (a
/// NUL-terminated string of 56 characters) into `key`, which holds `len` bytes (the CANN docs: 65). `flags`:
/// [`ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT`] (only the pids set with [`aclrtIpcMemSetImportPid`] may import) or
/// [`ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION`].
///
/// # Safety
/// `key` is NULL or valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcMemGetExportKey(
    devPtr: *mut c_void,
    size: usize,
    key: *mut c_char,
    len: usize,
    flags: u64,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { ipc_memory::get_export_key(devPtr, size, key, len, flags) }
}

/// `aclrtIpcMemSetImportPid`: allows the OS processes `pid[0..num]` to import the key's memory.
///
/// # Safety
/// `key` is NULL or NUL-terminated; `pid` is NULL or holds `num` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcMemSetImportPid(
    key: *const c_char,
    pid: *mut i32,
    num: usize,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { ipc_memory::set_import_pid(key, pid, num) }
}

/// `aclrtIpcMemImportByKey`: maps the memory another process exported as `key` into this one (the same bytes,
/// not a copy). `flags`: [`ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT`] or
/// [`ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS`].
///
/// # Safety
/// `devPtr` is NULL or valid for a write; `key` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcMemImportByKey(
    devPtr: *mut *mut c_void,
    key: *const c_char,
    flags: u64,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { ipc_memory::import_by_key(devPtr, key, flags) }
}

/// `aclrtIpcMemClose`: in an importing process, unmaps its mapping of `key`; in the exporting one, closes the
/// export (no new import).
///
/// # Safety
/// `key` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtIpcMemClose(key: *const c_char) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { ipc_memory::close(key) }
}

/// `aclrtDeviceGetBareTgid`: the calling OS process's id (what [`aclrtIpcMemSetImportPid`] lists). Every
/// simulated process of one OS process has the same.
///
/// # Safety
/// `pid` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtDeviceGetBareTgid(pid: *mut i32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { ipc_memory::device_get_bare_tgid(pid) }
}

// ---------------------------------------------------------------------------------------------- memory

/// `aclrtMalloc`: device memory of the current device. Size 0: [`ACL_ERROR_INVALID_PARAM`]; the policy has
/// no simulated effect.
///
/// # Safety
/// `devPtr` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMalloc(
    devPtr: *mut *mut c_void,
    size: usize,
    policy: aclrtMemMallocPolicy,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::malloc(devPtr, size, policy) }
}

/// `aclrtFree`.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtFree(devPtr: *mut c_void) -> aclError {
    imp::free(devPtr)
}

/// `aclrtMallocHost`: pinned host memory (real memory, readable and writable by the caller).
///
/// # Safety
/// `hostPtr` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMallocHost(hostPtr: *mut *mut c_void, size: usize) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::malloc_host(hostPtr, size) }
}

/// `aclrtFreeHost`.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtFreeHost(hostPtr: *mut c_void) -> aclError {
    imp::free_host(hostPtr)
}

/// `aclrtMemcpy`: a synchronous copy. `count == 0` succeeds without checking anything; `count > destMax`,
/// a kind that contradicts the pointers, or device to device across devices without peer access is
/// [`ACL_ERROR_RT_PARAM_INVALID`].
///
/// # Safety
/// Host pointers (pageable or pinned) are valid for `count` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemcpy(
    dst: *mut c_void,
    destMax: usize,
    src: *const c_void,
    count: usize,
    kind: aclrtMemcpyKind,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::memcpy(dst, destMax, src, count, kind, None) }
}

/// `aclrtMemcpyAsync`: [`aclrtMemcpy`] queued on `stream` (which must belong to the current context).
///
/// # Safety
/// As [`aclrtMemcpy`]; pinned memory must stay allocated until the copy has run.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemcpyAsync(
    dst: *mut c_void,
    destMax: usize,
    src: *const c_void,
    count: usize,
    kind: aclrtMemcpyKind,
    stream: aclrtStream,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::memcpy(dst, destMax, src, count, kind, Some(stream)) }
}

/// `aclrtMemcpy2d`: copies `height` rows of `width` bytes from `src` (rows `spitch` bytes apart) to `dst` (rows
/// `dpitch` bytes apart), host to device or device to host (`ACL_MEMCPY_DEFAULT`: inferred), and returns when they
/// have arrived. `width` or `height` 0 copies nothing; a NULL pointer, `width` above either pitch or an unknown
/// kind is [`ACL_ERROR_INVALID_PARAM`]; device to device is [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]; `width` above
/// 5,000,000, `height` above 5,242,880, or a kind the pointers contradict is [`ACL_ERROR_RT_PARAM_INVALID`].
///
/// # Safety
/// Host pointers are valid for the rows the copy names.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemcpy2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: aclrtMemcpyKind,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::memcpy_2d(dst, dpitch, src, spitch, (width, height), kind, None) }
}

/// `aclrtMemcpy2dAsync`: [`aclrtMemcpy2d`] queued on `stream`, device to device too.
///
/// # Safety
/// As [`aclrtMemcpy2d`]; pinned memory must stay allocated until the copy has run.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtMemcpy2dAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: aclrtMemcpyKind,
    stream: aclrtStream,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe {
        imp::memcpy_2d(
            dst,
            dpitch,
            src,
            spitch,
            (width, height),
            kind,
            Some(stream),
        )
    }
}

/// `aclrtMemset`: sets `count` bytes of device memory, or of host memory from [`aclrtMallocHost`], to `value`
/// (its low byte); `count > maxCount` is [`ACL_ERROR_RT_PARAM_INVALID`], and so is any other (pageable) host
/// pointer.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemset(
    devPtr: *mut c_void,
    maxCount: usize,
    value: i32,
    count: usize,
) -> aclError {
    imp::memset(devPtr, maxCount, value, count, None)
}

/// `aclrtMemsetAsync`: [`aclrtMemset`] queued on `stream`.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtMemsetAsync(
    devPtr: *mut c_void,
    maxCount: usize,
    value: i32,
    count: usize,
    stream: aclrtStream,
) -> aclError {
    imp::memset(devPtr, maxCount, value, count, Some(stream))
}
