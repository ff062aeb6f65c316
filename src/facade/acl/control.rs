//! The `extern "C"` functions of ACL's execution control and queries: stream failure modes and attributes, the
//! wait-task timeout, callbacks on subscribed threads (`aclrtSubscribeReport` / `aclrtLaunchCallback` /
//! `aclrtProcessReport` / `aclrtUnSubscribeReport`), notifies, value waits and writes, and the device and stream
//! queries. Each is a line that forwards to `control_runtime.rs` (what they do); constants are in `types.rs`.
//! The rows they implement, with their vendor sources, are in `docs/semantics/acl-runtime-api.md`.

use std::ffi::{c_char, c_void};

use super::control_runtime as imp;
use super::types::*;

// ---------------------------------------------------------------------------------------------- failure modes

/// `aclrtSetStreamFailureMode`: [`ACL_CONTINUE_ON_FAILURE`] (the default: later tasks still run, the fault is
/// reported once at the next synchronize) or [`ACL_STOP_ON_FAILURE`] (the stream and every stream of its context
/// stop after a fault, and refuse new tasks once it has been reported). Only the lowest bit of `mode` counts, as
/// in the runtime; stop back to continue is [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]; NULL is the default stream.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSetStreamFailureMode(stream: aclrtStream, mode: u64) -> aclError {
    imp::set_stream_failure_mode(stream, mode, "aclrtSetStreamFailureMode")
}

/// `aclrtSetStreamAttribute`: [`ACL_STREAM_ATTR_FAILURE_MODE`] (as [`aclrtSetStreamFailureMode`]) and
/// [`ACL_STREAM_ATTR_PRIORITY`] (clamped to 0..=7; it orders the stream's later releases of held tasks, the engine
/// model's priority rule in `docs/semantics/engine-model.md`). The overflow, tag and cache attributes are
/// not simulated ([`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]); another value is [`ACL_ERROR_RT_PARAM_INVALID`].
///
/// # Safety
/// `value` is NULL or valid for a read.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtSetStreamAttribute(
    stream: aclrtStream,
    stmAttrType: aclrtStreamAttr,
    value: *mut aclrtStreamAttrValue,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::set_stream_attribute(stream, stmAttrType, value) }
}

/// `aclrtGetStreamAttribute`: the failure mode set on the stream (not its context's), or its priority.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetStreamAttribute(
    stream: aclrtStream,
    stmAttrType: aclrtStreamAttr,
    value: *mut aclrtStreamAttrValue,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::get_stream_attribute(stream, stmAttrType, value) }
}

// ---------------------------------------------------------------------------------------------- wait timeout

/// `aclrtSetOpWaitTimeout`: the timeout, in seconds, of the `aclrtStreamWaitEvent` tasks enqueued from now on in
/// the process (0: none, the default; the last call counts). A wait task that waits longer gives up at its
/// deadline, and the next synchronize of its stream returns [`ACL_ERROR_RT_TASK_TIMEOUT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSetOpWaitTimeout(timeout: u32) -> aclError {
    imp::set_op_wait_timeout(timeout)
}

// ---------------------------------------------------------------------------------------------- callbacks

/// `aclrtSubscribeReport`: the thread `threadId` (its `pthread_self()`, as the runtime identifies threads) runs
/// the callbacks of `stream`. A stream already subscribed, or one that has had an `aclrtLaunchHostFunc`, is
/// [`ACL_ERROR_RT_STREAM_SUBSCRIBE`]; a thread subscribed on another device [`ACL_ERROR_RT_THREAD_SUBSCRIBE`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSubscribeReport(threadId: u64, stream: aclrtStream) -> aclError {
    imp::subscribe_report(threadId, stream)
}

/// `aclrtLaunchCallback`: `fn_(userData)` runs on the subscribed thread, in its `aclrtProcessReport`, once the
/// stream reaches it; [`ACL_CALLBACK_BLOCK`] holds the stream's later tasks until then. No subscribed thread:
/// [`ACL_ERROR_RT_STREAM_NO_CB_REG`]; a stream used by `aclrtLaunchHostFunc`: [`ACL_ERROR_RT_STREAM_SUBSCRIBE`].
///
/// # Safety
/// `fn_` is NULL or a function that may be called with `userData` from the subscribed thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtLaunchCallback(
    fn_: aclrtCallback,
    userData: *mut c_void,
    blockType: aclrtCallbackBlockType,
    stream: aclrtStream,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::launch_callback(fn_, userData, blockType, stream) }
}

/// `aclrtProcessReport`: runs, on the calling thread, the callbacks due to it within `timeout` ms (−1: waits
/// for one); none due: [`ACL_ERROR_RT_REPORT_TIMEOUT`]; a thread subscribed to no stream:
/// [`ACL_ERROR_RT_THREAD_SUBSCRIBE`]; 0 or below −1: [`ACL_ERROR_INVALID_PARAM`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtProcessReport(timeout: i32) -> aclError {
    imp::process_report(timeout)
}

/// `aclrtUnSubscribeReport`: once the stream's callbacks have run. Not subscribed:
/// [`ACL_ERROR_RT_STREAM_SUBSCRIBE`]; subscribed to another thread: [`ACL_ERROR_RT_THREAD_SUBSCRIBE`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtUnSubscribeReport(threadId: u64, stream: aclrtStream) -> aclError {
    imp::unsubscribe_report(threadId, stream)
}

// ---------------------------------------------------------------------------------------------- notifies

/// `aclrtCreateNotify`: a notify of the current device; `flag` [`ACL_NOTIFY_DEFAULT`] or
/// [`ACL_NOTIFY_DEVICE_USE_ONLY`] (other bits: [`ACL_ERROR_RT_PARAM_INVALID`]).
///
/// # Safety
/// `notify` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtCreateNotify(notify: *mut aclrtNotify, flag: u64) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::create_notify(notify, flag) }
}

/// `aclrtDestroyNotify`.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtDestroyNotify(notify: aclrtNotify) -> aclError {
    imp::destroy_notify(notify)
}

/// `aclrtRecordNotify`: sets the notify when the stream reaches the record; it releases one wait (records and
/// waits pair in program order).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtRecordNotify(notify: aclrtNotify, stream: aclrtStream) -> aclError {
    imp::record_notify(notify, stream)
}

/// `aclrtWaitAndResetNotify`: later tasks on `stream` wait until the notify is set, which the wait then resets;
/// it may come before its record. `timeout` in seconds, 0 waits forever; a wait that times out makes the next
/// synchronize return [`ACL_ERROR_RT_TASK_TIMEOUT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtWaitAndResetNotify(
    notify: aclrtNotify,
    stream: aclrtStream,
    timeout: u32,
) -> aclError {
    imp::wait_notify(notify, stream, timeout)
}

// ---------------------------------------------------------------------------------------------- value waits

/// `aclrtValueWrite`: writes the 64-bit `value` at `devAddr` (device memory, 8-byte aligned) when the stream
/// reaches it; `flag` must be 0 ([`ACL_ERROR_RT_PARAM_INVALID`]).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtValueWrite(
    devAddr: *mut c_void,
    value: u64,
    flag: u32,
    stream: aclrtStream,
) -> aclError {
    imp::value_write(devAddr, value, flag, stream)
}

/// `aclrtValueWait`: later tasks on `stream` wait until the 64-bit word at `devAddr` satisfies `flag`
/// ([`ACL_STREAM_WAIT_VALUE_GEQ`], `_EQ`, `_AND`, `_NOR`) against `value`; it may come before the
/// [`aclrtValueWrite`] that satisfies it.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtValueWait(
    devAddr: *mut c_void,
    value: u64,
    flag: u32,
    stream: aclrtStream,
) -> aclError {
    imp::value_wait(devAddr, value, flag, stream)
}

// ---------------------------------------------------------------------------------------------- queries

/// `aclrtSynchronizeDeviceWithTimeout`: −1 waits forever; 0 or below −1 is [`ACL_ERROR_RT_PARAM_INVALID`];
/// running out (virtual time) is [`ACL_ERROR_RT_STREAM_SYNC_TIMEOUT`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtSynchronizeDeviceWithTimeout(timeout: i32) -> aclError {
    imp::synchronize_device_timeout(timeout)
}

/// `aclrtDeviceGetStreamPriorityRange`: the device's range (ACL: least 7, greatest 0); either pointer may be NULL.
///
/// # Safety
/// Each pointer is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtDeviceGetStreamPriorityRange(
    leastPriority: *mut i32,
    greatestPriority: *mut i32,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::priority_range(leastPriority, greatestPriority) }
}

/// `aclrtStreamGetId`: created streams are numbered 1, 2, … in creation order in the process; the default stream
/// of a context is 65,536 plus the context's ordinal (sim).
///
/// # Safety
/// `streamId` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtStreamGetId(stream: aclrtStream, streamId: *mut i32) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::stream_get_id(stream, streamId) }
}

/// `aclrtGetSocName`: the name configured for device 0 (`DeviceConfig::name`); NULL without a machine or device.
/// The string lives as long as the library.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtGetSocName() -> *const c_char {
    imp::soc_name()
}

/// `aclrtGetRunMode`: always [`ACL_HOST`] (the program runs on the host).
///
/// # Safety
/// `runMode` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetRunMode(runMode: *mut aclrtRunMode) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::run_mode(runMode) }
}

/// `aclrtQueryDeviceStatus`: [`ACL_RT_DEVICE_STATUS_NORMAL`] for every device of the machine.
///
/// # Safety
/// `deviceStatus` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtQueryDeviceStatus(
    deviceId: i32,
    deviceStatus: *mut aclrtDeviceStatus,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::device_status(deviceId, deviceStatus) }
}

/// `aclrtGetMemInfo`: the current device's free and total memory from the simulated allocations (every attribute
/// reports the device's one kind of memory).
///
/// # Safety
/// `free` and `total` are NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetMemInfo(
    attr: aclrtMemAttr,
    free: *mut usize,
    total: *mut usize,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::mem_info(attr, free, total) }
}

/// `aclrtPeekAtLastError`: the code of the calling thread's last failed runtime call (an `ACL_ERROR_RT_*`),
/// [`ACL_SUCCESS`] if none; the read does not clear it. A `level` other than [`ACL_RT_THREAD_LEVEL`]:
/// [`ACL_ERROR_INVALID_PARAM`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtPeekAtLastError(level: aclrtLastErrLevel) -> aclError {
    super::runtime::last_error(level, false)
}

/// `aclrtGetLastError`: as [`aclrtPeekAtLastError`], and the read clears it (the next read is [`ACL_SUCCESS`]
/// until a runtime call fails again).
#[unsafe(no_mangle)]
pub extern "C" fn aclrtGetLastError(level: aclrtLastErrLevel) -> aclError {
    super::runtime::last_error(level, true)
}

/// `aclrtGetVersion`: [`ACL_MAJOR_VERSION`].[`ACL_MINOR_VERSION`].[`ACL_PATCH_VERSION`] (1.17.0). A NULL
/// pointer: [`ACL_ERROR_INVALID_PARAM`], nothing written.
///
/// # Safety
/// Each pointer is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclrtGetVersion(
    majorVersion: *mut i32,
    minorVersion: *mut i32,
    patchVersion: *mut i32,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::version(majorVersion, minorVersion, patchVersion) }
}

/// `aclFloatToFloat16`: the runtime's conversion (`acl::FloatToFp16`), bit for bit: to nearest even, and
/// saturating: a value beyond the range, an infinity or a NaN becomes ±65504 (0x7BFF / 0xFBFF), never an
/// infinity or a NaN.
#[unsafe(no_mangle)]
pub extern "C" fn aclFloatToFloat16(value: f32) -> aclFloat16 {
    crate::facade::binding::contain(0x7BFF, || imp::float_to_fp16(value))
}

/// `aclFloat16ToFloat`: the runtime's conversion (`acl::Fp16ToFloat`), bit for bit: exact for finite halves; the
/// exponent 31 is read as a finite one, so +infinity becomes 65536, a NaN 98304 or more.
#[unsafe(no_mangle)]
pub extern "C" fn aclFloat16ToFloat(value: aclFloat16) -> f32 {
    crate::facade::binding::contain(0.0, || imp::fp16_to_float(value))
}

/// `aclDataTypeSize`: the bytes of an element of `dataType` (`aclDataTypeSizeImpl`): 0 for [`ACL_STRING`] and
/// [`ACL_DT_UNDEFINED`], 1 for the 1-byte and sub-byte types, 2, 4, 16 for [`ACL_COMPLEX128`], and 8 for the
/// 8-byte types and for any other value (the runtime's default).
#[unsafe(no_mangle)]
pub extern "C" fn aclDataTypeSize(dataType: aclDataType) -> usize {
    crate::facade::binding::contain(8, || imp::data_type_size(dataType))
}

/// `aclsysGetVersionStr`: refused, [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`] (the runtime reads the version file of an
/// installed CANN package; the simulator installs none). NULL: [`ACL_ERROR_INVALID_PARAM`]. The pointers are
/// neither read nor written.
#[unsafe(no_mangle)]
pub extern "C" fn aclsysGetVersionStr(pkgName: *mut c_char, versionStr: *mut c_char) -> aclError {
    imp::sys_version("aclsysGetVersionStr", pkgName, versionStr.cast())
}

/// `aclsysGetVersionNum`: refused as [`aclsysGetVersionStr`].
#[unsafe(no_mangle)]
pub extern "C" fn aclsysGetVersionNum(pkgName: *mut c_char, versionNum: *mut i32) -> aclError {
    imp::sys_version("aclsysGetVersionNum", pkgName, versionNum.cast())
}

/// `aclrtGetErrorVerbose`: refused, [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`], `*errorInfo` not written (the runtime
/// asks the driver for a hardware fault's details; a simulated device has none). NULL errorInfo:
/// [`ACL_ERROR_INVALID_PARAM`].
#[unsafe(no_mangle)]
pub extern "C" fn aclrtGetErrorVerbose(deviceId: i32, errorInfo: *mut c_void) -> aclError {
    imp::error_verbose(deviceId, errorInfo)
}

/// `aclGetCannAttributeList`: refused, [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`] (the attributes are the installed CANN
/// package's; the simulator installs none). NULL: [`ACL_ERROR_INVALID_PARAM`]. Nothing written.
#[unsafe(no_mangle)]
pub extern "C" fn aclGetCannAttributeList(
    cannAttrList: *mut *const aclCannAttr,
    num: *mut usize,
) -> aclError {
    imp::refused(
        "aclGetCannAttributeList",
        &[cannAttrList.cast(), num.cast()],
        "the attributes are the installed CANN package's, and the simulator installs none",
    )
}

/// `aclGetCannAttribute`: refused as [`aclGetCannAttributeList`].
#[unsafe(no_mangle)]
pub extern "C" fn aclGetCannAttribute(cannAttr: aclCannAttr, value: *mut i32) -> aclError {
    let _ = cannAttr;
    imp::refused(
        "aclGetCannAttribute",
        &[value.cast()],
        "the attributes are the installed CANN package's, and the simulator installs none",
    )
}

/// `aclrtCheckArchCompatibility`: refused, [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`] (the compatibility rules between
/// SoC versions are not modelled). NULL: [`ACL_ERROR_INVALID_PARAM`]. Nothing written.
#[unsafe(no_mangle)]
pub extern "C" fn aclrtCheckArchCompatibility(
    socVersion: *const c_char,
    canCompatible: *mut i32,
) -> aclError {
    imp::refused(
        "aclrtCheckArchCompatibility",
        &[socVersion.cast(), canCompatible.cast()],
        "the compatibility rules between SoC versions are not modelled",
    )
}

/// `aclGetDeviceCapability`: the AI core or vector core count of the device's configuration (as
/// [`aclrtGetDeviceInfo`](super::aclrtGetDeviceInfo)); [`ACL_DEVICE_INFO_L2_SIZE`] is not modelled,
/// [`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`]. NULL, a device beyond the machine's or another value:
/// [`ACL_ERROR_INVALID_PARAM`] (the ACL layer's checks, `aclGetDeviceCapabilityImpl`).
///
/// # Safety
/// `value` is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aclGetDeviceCapability(
    deviceId: u32,
    deviceInfo: aclDeviceInfo,
    value: *mut i64,
) -> aclError {
    // SAFETY: forwarded C contract.
    unsafe { imp::device_capability(deviceId, deviceInfo, value) }
}
