//! The ACL C types, enum constants, event and stream flags, and error codes, as `acl_rt.h`, `acl_base_rt.h` and
//! `rt_error_codes.h` define them (bindgen's default style; see [`super`]). No functions: the runtime
//! (`runtime.rs`) and the `extern "C"` functions ([`super`]) use these.
#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    reason = "the vendor's names"
)]

use std::ffi::{c_char, c_uint, c_void};

// ---------------------------------------------------------------------------------------------- types

/// `aclError`: a return code ([`ACL_SUCCESS`] or one of the `ACL_ERROR_*` constants).
pub type aclError = i32;
/// `aclrtStream`: an opaque stream handle; NULL is the current context's default stream.
pub type aclrtStream = *mut c_void;
/// `aclrtEvent`: an opaque event handle.
pub type aclrtEvent = *mut c_void;
/// `aclrtContext`: an opaque context handle.
pub type aclrtContext = *mut c_void;
/// `enum aclrtMemcpyKind`: the direction of a copy.
pub type aclrtMemcpyKind = c_uint;
/// `enum aclrtMemMallocPolicy`: how device memory is allocated (no effect on the simulated semantics).
pub type aclrtMemMallocPolicy = c_uint;
/// `enum aclrtDevAttr`: a device attribute for [`aclrtGetDeviceInfo`](super::aclrtGetDeviceInfo).
pub type aclrtDevAttr = c_uint;
/// `enum aclrtEventRecordedStatus` ([`aclrtQueryEventStatus`](super::aclrtQueryEventStatus)): NOT_READY 0, COMPLETE 1.
pub type aclrtEventRecordedStatus = c_uint;
/// `enum aclrtEventStatus` (the deprecated [`aclrtQueryEvent`](super::aclrtQueryEvent)): COMPLETE 0, NOT_READY 1.
pub type aclrtEventStatus = c_uint;
/// `enum aclrtStreamStatus` ([`aclrtStreamQuery`](super::aclrtStreamQuery)): COMPLETE 0, NOT_READY 1.
pub type aclrtStreamStatus = c_uint;
/// `aclrtHostFunc`: `void (*)(void *args)`, for [`aclrtLaunchHostFunc`](super::aclrtLaunchHostFunc) (and the
/// kernel stand-in's body).
pub type aclrtHostFunc = Option<unsafe extern "C" fn(args: *mut c_void)>;

/// `aclrtNotify`: an opaque notify handle.
pub type aclrtNotify = *mut c_void;
/// `aclrtCallback`: `void (*)(void *userData)`, for [`aclrtLaunchCallback`](super::aclrtLaunchCallback).
pub type aclrtCallback = Option<unsafe extern "C" fn(userData: *mut c_void)>;
/// `enum aclrtCallbackBlockType`: whether a callback holds back the stream's later tasks.
pub type aclrtCallbackBlockType = c_uint;
/// `enum aclrtRunMode`: where the application runs ([`aclrtGetRunMode`](super::aclrtGetRunMode)).
pub type aclrtRunMode = c_uint;
/// `aclFloat16`: the bits of a half-precision value (`acl_base_rt.h`: `uint16_t`).
pub type aclFloat16 = u16;
/// `aclDataType` (an anonymous enum in `acl_base_rt.h`): a tensor element type ([`aclDataTypeSize`](super::aclDataTypeSize)).
pub type aclDataType = i32;
/// `aclrtErrorType`: the kind of a hardware fault (`aclrtErrorInfo::errorType`).
pub type aclrtErrorType = c_uint;
/// `enum aclrtAicoreErrorType`.
pub type aclrtAicoreErrorType = c_uint;
/// `aclCannAttr` (an anonymous enum in `acl_base_rt.h`): a feature of the CANN package.
pub type aclCannAttr = i32;
/// `aclDeviceInfo` (an anonymous enum in `acl_base_rt.h`): what
/// [`aclGetDeviceCapability`](super::aclGetDeviceCapability) reports.
pub type aclDeviceInfo = i32;
/// `enum aclrtLastErrLevel` ([`aclrtGetLastError`](super::aclrtGetLastError)): which last error is read.
pub type aclrtLastErrLevel = c_uint;
/// `enum aclrtDeviceStatus` ([`aclrtQueryDeviceStatus`](super::aclrtQueryDeviceStatus)).
pub type aclrtDeviceStatus = c_uint;
/// `enum aclrtMemAttr`: which memory [`aclrtGetMemInfo`](super::aclrtGetMemInfo) reports.
pub type aclrtMemAttr = c_uint;
/// `aclrtStreamAttr` (an anonymous enum in `acl_rt.h`): a stream attribute.
pub type aclrtStreamAttr = c_uint;
/// `aclrtMemPool`: a memory pool (`acl_rt_memory_soma.h`).
pub type aclrtMemPool = *mut c_void;
/// `aclrtMemPoolAttr`.
pub type aclrtMemPoolAttr = c_uint;
/// `aclrtMemAllocationType`.
pub type aclrtMemAllocationType = c_uint;
/// `aclrtMemHandleType`.
pub type aclrtMemHandleType = c_uint;
/// `aclrtMemLocationType`.
pub type aclrtMemLocationType = c_uint;

/// `aclrtMemLocation`: where memory lives.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct aclrtMemLocation {
    /// The device (for a device location).
    pub id: u32,
    /// [`ACL_MEM_LOCATION_TYPE_DEVICE`] for a pool.
    pub r#type: aclrtMemLocationType,
}

/// `aclrtMemPoolProps`: what a memory pool is made with.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct aclrtMemPoolProps {
    /// [`ACL_MEM_ALLOCATION_TYPE_PINNED`].
    pub allocType: aclrtMemAllocationType,
    /// [`ACL_MEM_HANDLE_TYPE_NONE`] (IPC pools are not simulated).
    pub handleType: aclrtMemHandleType,
    /// The device.
    pub location: aclrtMemLocation,
    /// The pool's size in bytes (rounded up to 2 MiB; 0: the device's memory).
    pub maxSize: usize,
    /// Must be 0.
    pub reserved: [u8; 32],
}

/// `ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES` (`uint32_t`, default 0).
pub const ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES: aclrtMemPoolAttr = 0x1;
/// `ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC` (`uint32_t`, default 0).
pub const ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC: aclrtMemPoolAttr = 0x2;
/// `ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES` (`uint32_t`, default 0).
pub const ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: aclrtMemPoolAttr = 0x3;
/// `ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD` (`uint64_t`, default 0).
pub const ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: aclrtMemPoolAttr = 0x4;
/// `ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT` (`uint64_t`, read-only).
pub const ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: aclrtMemPoolAttr = 0x5;
/// `ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH` (`uint64_t`, set to 0 only).
pub const ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: aclrtMemPoolAttr = 0x6;
/// `ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT` (`uint64_t`, read-only).
pub const ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: aclrtMemPoolAttr = 0x7;
/// `ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH` (`uint64_t`, set to 0 only).
pub const ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: aclrtMemPoolAttr = 0x8;
/// `ACL_MEM_ALLOCATION_TYPE_PINNED`.
pub const ACL_MEM_ALLOCATION_TYPE_PINNED: aclrtMemAllocationType = 0;
/// `ACL_MEM_HANDLE_TYPE_NONE`.
pub const ACL_MEM_HANDLE_TYPE_NONE: aclrtMemHandleType = 0;
/// `ACL_MEM_HANDLE_TYPE_POSIX` (IPC pools are not simulated).
pub const ACL_MEM_HANDLE_TYPE_POSIX: aclrtMemHandleType = 2;
/// `ACL_MEM_LOCATION_TYPE_HOST` (reserved by the runtime).
pub const ACL_MEM_LOCATION_TYPE_HOST: aclrtMemLocationType = 0;
/// `ACL_MEM_LOCATION_TYPE_DEVICE`.
pub const ACL_MEM_LOCATION_TYPE_DEVICE: aclrtMemLocationType = 1;
/// `ACL_MEM_LOCATION_TYPE_UNREGISTERED`.
pub const ACL_MEM_LOCATION_TYPE_UNREGISTERED: aclrtMemLocationType = 2;
/// `ACL_MEM_LOCATION_TYPE_MANAGED`.
pub const ACL_MEM_LOCATION_TYPE_MANAGED: aclrtMemLocationType = 3;
/// `ACL_MEM_LOCATION_TYPE_HOST_NUMA`.
pub const ACL_MEM_LOCATION_TYPE_HOST_NUMA: aclrtMemLocationType = 4;

/// `aclrtStreamAttrValue`: the value of a stream attribute (a union; which member is meant depends on the
/// attribute).
#[repr(C)]
#[derive(Clone, Copy)]
pub union aclrtStreamAttrValue {
    /// [`ACL_STREAM_ATTR_FAILURE_MODE`]: [`ACL_CONTINUE_ON_FAILURE`] or [`ACL_STOP_ON_FAILURE`].
    pub failureMode: u64,
    /// [`ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK`].
    pub overflowSwitch: u32,
    /// [`ACL_STREAM_ATTR_USER_CUSTOM_TAG`].
    pub userCustomTag: u32,
    /// [`ACL_STREAM_ATTR_CACHE_OP_INFO`].
    pub cacheOpInfoSwitch: u32,
    /// [`ACL_STREAM_ATTR_PRIORITY`].
    pub streamPriority: u32,
    /// Reserved.
    pub reserve: [u32; 4],
}

impl std::fmt::Debug for aclrtStreamAttrValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: every member is plain integers over the same 16 bytes; `reserve` covers them all.
        let words = unsafe { self.reserve };
        f.debug_struct("aclrtStreamAttrValue")
            .field("reserve", &words)
            .finish()
    }
}

/// `ACL_IPC_EVENT_HANDLE_SIZE`.
pub const ACL_IPC_EVENT_HANDLE_SIZE: u32 = 64;

/// `aclrtIpcEventHandle`: `struct { char reserved[ACL_IPC_EVENT_HANDLE_SIZE]; }`, the 64 opaque bytes of an
/// exported IPC event.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct aclrtIpcEventHandle {
    /// The bytes.
    pub reserved: [c_char; 64],
}

/// The simulated kernel's declared device-memory access (`streamsimAccess`), for
/// [`aclsimLaunchKernelEx`](super::aclsimLaunchKernelEx).
pub use crate::facade::cuda_runtime::streamsimAccess;
/// The context and body of [`aclsimLaunchKernelCtx`](super::aclsimLaunchKernelCtx) (see [`crate::capi`]).
pub use crate::facade::kernel_ctx::{streamsimKernelCtx, streamsimKernelCtxBody};

// ---------------------------------------------------------------------------------------------- enums

/// `ACL_MEMCPY_HOST_TO_HOST`.
pub const ACL_MEMCPY_HOST_TO_HOST: aclrtMemcpyKind = 0;
/// `ACL_MEMCPY_HOST_TO_DEVICE`.
pub const ACL_MEMCPY_HOST_TO_DEVICE: aclrtMemcpyKind = 1;
/// `ACL_MEMCPY_DEVICE_TO_HOST`.
pub const ACL_MEMCPY_DEVICE_TO_HOST: aclrtMemcpyKind = 2;
/// `ACL_MEMCPY_DEVICE_TO_DEVICE`.
pub const ACL_MEMCPY_DEVICE_TO_DEVICE: aclrtMemcpyKind = 3;
/// `ACL_MEMCPY_DEFAULT`: the direction is inferred from the pointers.
pub const ACL_MEMCPY_DEFAULT: aclrtMemcpyKind = 4;
/// `ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE` (simulated as host to device).
pub const ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: aclrtMemcpyKind = 5;
/// `ACL_MEMCPY_INNER_DEVICE_TO_DEVICE` (simulated as device to device).
pub const ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: aclrtMemcpyKind = 6;
/// `ACL_MEMCPY_INTER_DEVICE_TO_DEVICE` (simulated as device to device).
pub const ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: aclrtMemcpyKind = 7;

/// `ACL_MEM_MALLOC_HUGE_FIRST`.
pub const ACL_MEM_MALLOC_HUGE_FIRST: aclrtMemMallocPolicy = 0;
/// `ACL_MEM_MALLOC_HUGE_ONLY`.
pub const ACL_MEM_MALLOC_HUGE_ONLY: aclrtMemMallocPolicy = 1;
/// `ACL_MEM_MALLOC_NORMAL_ONLY`.
pub const ACL_MEM_MALLOC_NORMAL_ONLY: aclrtMemMallocPolicy = 2;
/// `ACL_MEM_MALLOC_HUGE_FIRST_P2P`.
pub const ACL_MEM_MALLOC_HUGE_FIRST_P2P: aclrtMemMallocPolicy = 3;
/// `ACL_MEM_MALLOC_HUGE_ONLY_P2P`.
pub const ACL_MEM_MALLOC_HUGE_ONLY_P2P: aclrtMemMallocPolicy = 4;
/// `ACL_MEM_MALLOC_NORMAL_ONLY_P2P`.
pub const ACL_MEM_MALLOC_NORMAL_ONLY_P2P: aclrtMemMallocPolicy = 5;
/// `ACL_MEM_MALLOC_HUGE1G_ONLY`.
pub const ACL_MEM_MALLOC_HUGE1G_ONLY: aclrtMemMallocPolicy = 6;
/// `ACL_MEM_MALLOC_HUGE1G_ONLY_P2P`.
pub const ACL_MEM_MALLOC_HUGE1G_ONLY_P2P: aclrtMemMallocPolicy = 7;
/// `ACL_MEM_TYPE_LOW_BAND_WIDTH` (a bit combined with a policy).
pub const ACL_MEM_TYPE_LOW_BAND_WIDTH: aclrtMemMallocPolicy = 0x0100;
/// `ACL_MEM_TYPE_HIGH_BAND_WIDTH` (a bit combined with a policy).
pub const ACL_MEM_TYPE_HIGH_BAND_WIDTH: aclrtMemMallocPolicy = 0x1000;
/// `ACL_MEM_ACCESS_USER_SPACE_READONLY` (a bit combined with a policy).
pub const ACL_MEM_ACCESS_USER_SPACE_READONLY: aclrtMemMallocPolicy = 0x0010_0000;

/// `ACL_DEV_ATTR_AICPU_CORE_NUM`.
pub const ACL_DEV_ATTR_AICPU_CORE_NUM: aclrtDevAttr = 1;
/// `ACL_DEV_ATTR_AICORE_CORE_NUM`.
pub const ACL_DEV_ATTR_AICORE_CORE_NUM: aclrtDevAttr = 101;
/// `ACL_DEV_ATTR_CUBE_CORE_NUM`.
pub const ACL_DEV_ATTR_CUBE_CORE_NUM: aclrtDevAttr = 102;
/// `ACL_DEV_ATTR_VECTOR_CORE_NUM`.
pub const ACL_DEV_ATTR_VECTOR_CORE_NUM: aclrtDevAttr = 201;
/// `ACL_DEV_ATTR_WARP_SIZE`.
pub const ACL_DEV_ATTR_WARP_SIZE: aclrtDevAttr = 202;
/// `ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE` (bytes).
pub const ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: aclrtDevAttr = 301;

/// `ACL_EVENT_RECORDED_STATUS_NOT_READY` (0: note the opposite numbering of [`aclrtEventStatus`]).
pub const ACL_EVENT_RECORDED_STATUS_NOT_READY: aclrtEventRecordedStatus = 0;
/// `ACL_EVENT_RECORDED_STATUS_COMPLETE` (1).
pub const ACL_EVENT_RECORDED_STATUS_COMPLETE: aclrtEventRecordedStatus = 1;

/// `ACL_EVENT_STATUS_COMPLETE` (0: note the opposite numbering of [`aclrtEventRecordedStatus`]).
pub const ACL_EVENT_STATUS_COMPLETE: aclrtEventStatus = 0;
/// `ACL_EVENT_STATUS_NOT_READY` (1).
pub const ACL_EVENT_STATUS_NOT_READY: aclrtEventStatus = 1;
/// `ACL_EVENT_STATUS_RESERVED` (never produced).
pub const ACL_EVENT_STATUS_RESERVED: aclrtEventStatus = 2;

/// `ACL_STREAM_STATUS_COMPLETE` (0).
pub const ACL_STREAM_STATUS_COMPLETE: aclrtStreamStatus = 0;
/// `ACL_STREAM_STATUS_NOT_READY` (1).
pub const ACL_STREAM_STATUS_NOT_READY: aclrtStreamStatus = 1;
/// `ACL_STREAM_STATUS_RESERVED` (never produced).
pub const ACL_STREAM_STATUS_RESERVED: aclrtStreamStatus = 0xFFFF;

/// `ACL_CALLBACK_NO_BLOCK`: the stream goes on while the callback waits for its thread.
pub const ACL_CALLBACK_NO_BLOCK: aclrtCallbackBlockType = 0;
/// `ACL_CALLBACK_BLOCK`: the stream's later tasks wait until the callback has run.
pub const ACL_CALLBACK_BLOCK: aclrtCallbackBlockType = 1;

/// `ACL_DEVICE`: the application runs on the device's control CPU.
pub const ACL_DEVICE: aclrtRunMode = 0;
/// `ACL_HOST`: the application runs on the host (always, in the simulator).
pub const ACL_HOST: aclrtRunMode = 1;

/// `ACL_DT_UNDEFINED`.
pub const ACL_DT_UNDEFINED: aclDataType = -1;
/// `ACL_FLOAT`.
pub const ACL_FLOAT: aclDataType = 0;
/// `ACL_FLOAT16`.
pub const ACL_FLOAT16: aclDataType = 1;
/// `ACL_INT8`.
pub const ACL_INT8: aclDataType = 2;
/// `ACL_INT32`.
pub const ACL_INT32: aclDataType = 3;
/// `ACL_UINT8`.
pub const ACL_UINT8: aclDataType = 4;
/// `ACL_INT16`.
pub const ACL_INT16: aclDataType = 6;
/// `ACL_UINT16`.
pub const ACL_UINT16: aclDataType = 7;
/// `ACL_UINT32`.
pub const ACL_UINT32: aclDataType = 8;
/// `ACL_INT64`.
pub const ACL_INT64: aclDataType = 9;
/// `ACL_UINT64`.
pub const ACL_UINT64: aclDataType = 10;
/// `ACL_DOUBLE`.
pub const ACL_DOUBLE: aclDataType = 11;
/// `ACL_BOOL`.
pub const ACL_BOOL: aclDataType = 12;
/// `ACL_STRING`.
pub const ACL_STRING: aclDataType = 13;
/// `ACL_COMPLEX64`.
pub const ACL_COMPLEX64: aclDataType = 16;
/// `ACL_COMPLEX128`.
pub const ACL_COMPLEX128: aclDataType = 17;
/// `ACL_BF16`.
pub const ACL_BF16: aclDataType = 27;
/// `ACL_INT4`.
pub const ACL_INT4: aclDataType = 29;
/// `ACL_UINT1`.
pub const ACL_UINT1: aclDataType = 30;
/// `ACL_COMPLEX32`.
pub const ACL_COMPLEX32: aclDataType = 33;
/// `ACL_HIFLOAT8`.
pub const ACL_HIFLOAT8: aclDataType = 34;
/// `ACL_FLOAT8_E5M2`.
pub const ACL_FLOAT8_E5M2: aclDataType = 35;
/// `ACL_FLOAT8_E4M3FN`.
pub const ACL_FLOAT8_E4M3FN: aclDataType = 36;
/// `ACL_FLOAT8_E8M0`.
pub const ACL_FLOAT8_E8M0: aclDataType = 37;
/// `ACL_FLOAT6_E3M2`.
pub const ACL_FLOAT6_E3M2: aclDataType = 38;
/// `ACL_FLOAT6_E2M3`.
pub const ACL_FLOAT6_E2M3: aclDataType = 39;
/// `ACL_FLOAT4_E2M1`.
pub const ACL_FLOAT4_E2M1: aclDataType = 40;
/// `ACL_FLOAT4_E1M2`.
pub const ACL_FLOAT4_E1M2: aclDataType = 41;

/// `ACL_RT_NO_ERROR` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_NO_ERROR: aclrtErrorType = 0;
/// `ACL_RT_ERROR_MEMORY` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_MEMORY: aclrtErrorType = 1;
/// `ACL_RT_ERROR_L2` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_L2: aclrtErrorType = 2;
/// `ACL_RT_ERROR_AICORE` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_AICORE: aclrtErrorType = 3;
/// `ACL_RT_ERROR_LINK` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_LINK: aclrtErrorType = 4;
/// `ACL_RT_ERROR_L3_PORT` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_L3_PORT: aclrtErrorType = 5;
/// `ACL_RT_ERROR_OTHERS` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_ERROR_OTHERS: aclrtErrorType = 0xFFFF;
/// `ACL_RT_AICORE_ERROR_UNKNOWN` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_AICORE_ERROR_UNKNOWN: aclrtAicoreErrorType = 0;
/// `ACL_RT_AICORE_ERROR_SW` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_AICORE_ERROR_SW: aclrtAicoreErrorType = 1;
/// `ACL_RT_AICORE_ERROR_HW_LOCAL` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_AICORE_ERROR_HW_LOCAL: aclrtAicoreErrorType = 2;
/// `ACL_RT_MEM_UCE_INFO_MAX_NUM` (`aclrtErrorInfo`, which [`aclrtGetErrorVerbose`](super::aclrtGetErrorVerbose) never fills).
pub const ACL_RT_MEM_UCE_INFO_MAX_NUM: usize = 20;

/// `ACL_CANN_ATTR_UNDEFINED`.
pub const ACL_CANN_ATTR_UNDEFINED: aclCannAttr = -1;
/// `ACL_CANN_ATTR_INF_NAN`.
pub const ACL_CANN_ATTR_INF_NAN: aclCannAttr = 0;
/// `ACL_CANN_ATTR_BF16`.
pub const ACL_CANN_ATTR_BF16: aclCannAttr = 1;
/// `ACL_CANN_ATTR_JIT_COMPILE`.
pub const ACL_CANN_ATTR_JIT_COMPILE: aclCannAttr = 2;
/// `ACL_DEVICE_INFO_UNDEFINED`.
pub const ACL_DEVICE_INFO_UNDEFINED: aclDeviceInfo = -1;
/// `ACL_DEVICE_INFO_AI_CORE_NUM`.
pub const ACL_DEVICE_INFO_AI_CORE_NUM: aclDeviceInfo = 0;
/// `ACL_DEVICE_INFO_VECTOR_CORE_NUM`.
pub const ACL_DEVICE_INFO_VECTOR_CORE_NUM: aclDeviceInfo = 1;
/// `ACL_DEVICE_INFO_L2_SIZE`.
pub const ACL_DEVICE_INFO_L2_SIZE: aclDeviceInfo = 2;

/// `ACL_RT_THREAD_LEVEL`: the calling thread's last error (the only level `acl_rt.h` defines).
pub const ACL_RT_THREAD_LEVEL: aclrtLastErrLevel = 0;

/// `ACL_MAJOR_VERSION`: the ACL interface version `acl_rt.h` describes ([`aclrtGetVersion`](super::aclrtGetVersion)
/// returns it), 1.17.0 as in the CANN runtime's header.
pub const ACL_MAJOR_VERSION: i32 = 1;
/// `ACL_MINOR_VERSION`.
pub const ACL_MINOR_VERSION: i32 = 17;
/// `ACL_PATCH_VERSION`.
pub const ACL_PATCH_VERSION: i32 = 0;

/// `ACL_RT_DEVICE_STATUS_NORMAL`.
pub const ACL_RT_DEVICE_STATUS_NORMAL: aclrtDeviceStatus = 0;
/// `ACL_RT_DEVICE_STATUS_ABNORMAL` (never produced: a simulated device does not break).
pub const ACL_RT_DEVICE_STATUS_ABNORMAL: aclrtDeviceStatus = 1;
/// `ACL_RT_DEVICE_STATUS_END` (never produced).
pub const ACL_RT_DEVICE_STATUS_END: aclrtDeviceStatus = 0xFFFF;

/// `ACL_DDR_MEM`.
pub const ACL_DDR_MEM: aclrtMemAttr = 0;
/// `ACL_HBM_MEM`.
pub const ACL_HBM_MEM: aclrtMemAttr = 1;
/// `ACL_DDR_MEM_HUGE`.
pub const ACL_DDR_MEM_HUGE: aclrtMemAttr = 2;
/// `ACL_DDR_MEM_NORMAL`.
pub const ACL_DDR_MEM_NORMAL: aclrtMemAttr = 3;
/// `ACL_HBM_MEM_HUGE`.
pub const ACL_HBM_MEM_HUGE: aclrtMemAttr = 4;
/// `ACL_HBM_MEM_NORMAL`.
pub const ACL_HBM_MEM_NORMAL: aclrtMemAttr = 5;
/// `ACL_DDR_MEM_P2P_HUGE`.
pub const ACL_DDR_MEM_P2P_HUGE: aclrtMemAttr = 6;
/// `ACL_DDR_MEM_P2P_NORMAL`.
pub const ACL_DDR_MEM_P2P_NORMAL: aclrtMemAttr = 7;
/// `ACL_HBM_MEM_P2P_HUGE`.
pub const ACL_HBM_MEM_P2P_HUGE: aclrtMemAttr = 8;
/// `ACL_HBM_MEM_P2P_NORMAL`.
pub const ACL_HBM_MEM_P2P_NORMAL: aclrtMemAttr = 9;
/// `ACL_HBM_MEM_HUGE1G`.
pub const ACL_HBM_MEM_HUGE1G: aclrtMemAttr = 10;
/// `ACL_HBM_MEM_P2P_HUGE1G`.
pub const ACL_HBM_MEM_P2P_HUGE1G: aclrtMemAttr = 11;
/// `ACL_MEM_NORMAL`.
pub const ACL_MEM_NORMAL: aclrtMemAttr = 12;
/// `ACL_MEM_HUGE`.
pub const ACL_MEM_HUGE: aclrtMemAttr = 13;
/// `ACL_MEM_HUGE1G`.
pub const ACL_MEM_HUGE1G: aclrtMemAttr = 14;
/// `ACL_MEM_P2P_NORMAL`.
pub const ACL_MEM_P2P_NORMAL: aclrtMemAttr = 15;
/// `ACL_MEM_P2P_HUGE`.
pub const ACL_MEM_P2P_HUGE: aclrtMemAttr = 16;
/// `ACL_MEM_P2P_HUGE1G`.
pub const ACL_MEM_P2P_HUGE1G: aclrtMemAttr = 17;

/// `ACL_STREAM_ATTR_FAILURE_MODE`: the stream's failure mode (`failureMode`).
pub const ACL_STREAM_ATTR_FAILURE_MODE: aclrtStreamAttr = 1;
/// `ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK` (not simulated: 207000).
pub const ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: aclrtStreamAttr = 2;
/// `ACL_STREAM_ATTR_USER_CUSTOM_TAG` (not simulated: 207000).
pub const ACL_STREAM_ATTR_USER_CUSTOM_TAG: aclrtStreamAttr = 3;
/// `ACL_STREAM_ATTR_CACHE_OP_INFO` (not simulated: 207000).
pub const ACL_STREAM_ATTR_CACHE_OP_INFO: aclrtStreamAttr = 4;
/// `ACL_STREAM_ATTR_PRIORITY`: the stream's priority (`streamPriority`).
pub const ACL_STREAM_ATTR_PRIORITY: aclrtStreamAttr = 5;

// ---------------------------------------------------------------------------------------------- flags

/// `ACL_CONTINUE_ON_FAILURE`: after a failed task the stream's later tasks still run (the default).
pub const ACL_CONTINUE_ON_FAILURE: u64 = 0;
/// `ACL_STOP_ON_FAILURE`: after a failed task the stream — and every stream of its context — stops.
pub const ACL_STOP_ON_FAILURE: u64 = 1;

/// `ACL_NOTIFY_DEFAULT`.
pub const ACL_NOTIFY_DEFAULT: u64 = 0;
/// `ACL_NOTIFY_DEVICE_USE_ONLY` (accepted; no simulated effect).
pub const ACL_NOTIFY_DEVICE_USE_ONLY: u64 = 1;

/// `ACL_STREAM_WAIT_VALUE_GEQ`: wait until `(int64_t)(*devAddr - value) >= 0`.
pub const ACL_STREAM_WAIT_VALUE_GEQ: u32 = 0;
/// `ACL_STREAM_WAIT_VALUE_EQ`: wait until `*devAddr == value`.
pub const ACL_STREAM_WAIT_VALUE_EQ: u32 = 1;
/// `ACL_STREAM_WAIT_VALUE_AND`: wait until `(*devAddr & value) != 0`.
pub const ACL_STREAM_WAIT_VALUE_AND: u32 = 2;
/// `ACL_STREAM_WAIT_VALUE_NOR`: wait until `~(*devAddr | value) != 0`.
pub const ACL_STREAM_WAIT_VALUE_NOR: u32 = 3;

/// `ACL_EVENT_SYNC`: streams can wait on the event (and it can be reset); a wait before the first record
/// holds the stream until the next record.
pub const ACL_EVENT_SYNC: u32 = 0x1;
/// `ACL_EVENT_CAPTURE_STREAM_PROGRESS` (accepted; no simulated effect).
pub const ACL_EVENT_CAPTURE_STREAM_PROGRESS: u32 = 0x2;
/// `ACL_EVENT_TIME_LINE`: records carry timestamps (elapsed time and timestamps work).
pub const ACL_EVENT_TIME_LINE: u32 = 0x8;
/// `ACL_EVENT_DEVICE_USE_ONLY` (accepted; no simulated effect).
pub const ACL_EVENT_DEVICE_USE_ONLY: u32 = 0x10;
/// `ACL_EVENT_EXTERNAL`: an external event (no timing).
pub const ACL_EVENT_EXTERNAL: u32 = 0x20;
/// `ACL_EVENT_IPC`: shareable with another process (no timing).
pub const ACL_EVENT_IPC: u32 = 0x40;
/// `aclrtIpcMemGetExportKey`: importers must be on the pid allow list.
pub const ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT: u64 = 0x0;
/// `aclrtIpcMemGetExportKey`: any process may import.
pub const ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: u64 = 0x1;
/// `aclrtIpcMemImportByKey`: peer access is not enabled.
pub const ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT: u64 = 0x0;
/// `aclrtIpcMemImportByKey`: enables peer access from the current device to the memory's.
pub const ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS: u64 = 0x1;

/// `ACL_STREAM_FAST_LAUNCH` (accepted; no simulated effect).
pub const ACL_STREAM_FAST_LAUNCH: u32 = 0x1;
/// `ACL_STREAM_FAST_SYNC` (accepted; no simulated effect).
pub const ACL_STREAM_FAST_SYNC: u32 = 0x2;
/// `ACL_STREAM_PERSISTENT` (accepted; no simulated effect).
pub const ACL_STREAM_PERSISTENT: u32 = 0x4;
/// `ACL_STREAM_HUGE` (accepted; no simulated effect).
pub const ACL_STREAM_HUGE: u32 = 0x8;
/// `ACL_STREAM_CPU_SCHEDULE` (accepted; no simulated effect).
pub const ACL_STREAM_CPU_SCHEDULE: u32 = 0x10;
/// `ACL_STREAM_DEVICE_USE_ONLY` (accepted; no simulated effect).
pub const ACL_STREAM_DEVICE_USE_ONLY: u32 = 0x20;

// ---------------------------------------------------------------------------------------------- capture

/// `aclmdlRI`: an opaque model runtime instance (an executable graph).
pub type aclmdlRI = *mut c_void;
/// `enum aclmdlRICaptureMode`.
pub type aclmdlRICaptureMode = c_uint;
/// `enum aclmdlRICaptureStatus`.
pub type aclmdlRICaptureStatus = c_uint;

/// `ACL_MODEL_RI_CAPTURE_MODE_GLOBAL`.
pub const ACL_MODEL_RI_CAPTURE_MODE_GLOBAL: aclmdlRICaptureMode = 0;
/// `ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL`.
pub const ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL: aclmdlRICaptureMode = 1;
/// `ACL_MODEL_RI_CAPTURE_MODE_RELAXED`.
pub const ACL_MODEL_RI_CAPTURE_MODE_RELAXED: aclmdlRICaptureMode = 2;
/// `ACL_MODEL_RI_CAPTURE_STATUS_NONE`.
pub const ACL_MODEL_RI_CAPTURE_STATUS_NONE: aclmdlRICaptureStatus = 0;
/// `ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE`.
pub const ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE: aclmdlRICaptureStatus = 1;
/// `ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED`.
pub const ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED: aclmdlRICaptureStatus = 2;

// ---------------------------------------------------------------------------------------------- codes

/// `ACL_SUCCESS`.
pub const ACL_SUCCESS: aclError = 0;
/// `ACL_ERROR_INVALID_PARAM`: a NULL pointer or handle, an unknown enum value or flag bit.
pub const ACL_ERROR_INVALID_PARAM: aclError = 100000;
/// `ACL_ERROR_UNINITIALIZE`: finalize without init (and every call when the default machine's environment is
/// bad).
pub const ACL_ERROR_UNINITIALIZE: aclError = 100001;
/// `ACL_ERROR_REPEAT_INITIALIZE`: `aclInit` a second time.
pub const ACL_ERROR_REPEAT_INITIALIZE: aclError = 100002;
/// `ACL_ERROR_REPEAT_FINALIZE`: `aclFinalize` a second time.
pub const ACL_ERROR_REPEAT_FINALIZE: aclError = 100037;
/// `ACL_ERROR_BAD_ALLOC`.
pub const ACL_ERROR_BAD_ALLOC: aclError = 200000;
/// `ACL_ERROR_FEATURE_UNSUPPORTED`: `aclrtDeviceEnablePeerAccess` with flags other than 0.
pub const ACL_ERROR_FEATURE_UNSUPPORTED: aclError = 200006;
/// `ACL_ERROR_RT_PARAM_INVALID`: count > destMax, a copy kind that contradicts the pointers, an unknown or
/// freed address, a cross-device copy without peer access, a bad timeout, a wait on a never-recorded
/// `aclrtCreateEvent` event.
pub const ACL_ERROR_RT_PARAM_INVALID: aclError = 107000;
/// `ACL_ERROR_RT_INVALID_DEVICEID`.
pub const ACL_ERROR_RT_INVALID_DEVICEID: aclError = 107001;
/// `ACL_ERROR_RT_CONTEXT_NULL`: no current context (and destroying a default context).
pub const ACL_ERROR_RT_CONTEXT_NULL: aclError = 107002;
/// `ACL_ERROR_RT_STREAM_CONTEXT`: a stream (or event) used from a context it does not belong to.
pub const ACL_ERROR_RT_STREAM_CONTEXT: aclError = 107003;
/// `ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID`: elapsed time / timestamp of an unfinished or untimed record.
pub const ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID: aclError = 107006;
/// `ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL` (never produced: end before start gives negative milliseconds).
pub const ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL: aclError = 107007;
/// `ACL_ERROR_RT_STREAM_SUBSCRIBE`: a stream already subscribed (or not subscribed, to unsubscribe), or one whose
/// callbacks go through `aclrtLaunchHostFunc`'s thread (the two callback mechanisms do not mix).
pub const ACL_ERROR_RT_STREAM_SUBSCRIBE: aclError = 107011;
/// `ACL_ERROR_RT_THREAD_SUBSCRIBE`: a thread not subscribed to any stream (`aclrtProcessReport`), subscribed to a
/// stream of another device, or not the stream's subscriber (unsubscribe).
pub const ACL_ERROR_RT_THREAD_SUBSCRIBE: aclError = 107012;
/// `ACL_ERROR_RT_STREAM_NO_CB_REG`: `aclrtLaunchCallback` on a stream no thread is subscribed to.
pub const ACL_ERROR_RT_STREAM_NO_CB_REG: aclError = 107015;
/// `ACL_ERROR_RT_INVALID_HANDLE`: a destroyed, forged, or other process's handle.
pub const ACL_ERROR_RT_INVALID_HANDLE: aclError = 107017;
/// `ACL_ERROR_RT_WAIT_TIMEOUT`.
pub const ACL_ERROR_RT_WAIT_TIMEOUT: aclError = 107019;
/// `ACL_ERROR_RT_TASK_TIMEOUT`: a wait task waited longer than its timeout (`aclrtSetOpWaitTimeout`, the
/// timeout of `aclrtWaitAndResetNotify`), reported at the next synchronize.
pub const ACL_ERROR_RT_TASK_TIMEOUT: aclError = 107020;
/// `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`: wait / reset of an event without `ACL_EVENT_SYNC`, elapsed time of an
/// IPC or external event, a runtime call from inside a host function.
pub const ACL_ERROR_RT_FEATURE_NOT_SUPPORT: aclError = 207000;
/// `ACL_ERROR_RT_MEMORY_ALLOCATION`: device memory exhausted.
pub const ACL_ERROR_RT_MEMORY_ALLOCATION: aclError = 207001;
/// `ACL_ERROR_RT_DEVICE_OOM`.
pub const ACL_ERROR_RT_DEVICE_OOM: aclError = 207018;
/// `ACL_ERROR_RT_INTERNAL_ERROR`: elapsed time of a never-recorded event; a panic inside the simulator.
pub const ACL_ERROR_RT_INTERNAL_ERROR: aclError = 507000;
/// `ACL_ERROR_RT_CONTEXT_RELEASE_ERROR`: resetting a device that is not set (or already freed).
pub const ACL_ERROR_RT_CONTEXT_RELEASE_ERROR: aclError = 507007;
/// `ACL_ERROR_RT_REPORT_TIMEOUT`: `aclrtProcessReport` found no callback to run within its timeout.
pub const ACL_ERROR_RT_REPORT_TIMEOUT: aclError = 507012;
/// `ACL_ERROR_RT_AICORE_EXCEPTION`: a kernel fault, at the next synchronize (see `aclrtSetStreamFailureMode`).
pub const ACL_ERROR_RT_AICORE_EXCEPTION: aclError = 507015;
/// `ACL_ERROR_RT_IPC_ERROR`: opening a bad IPC handle, or one's own.
pub const ACL_ERROR_RT_IPC_ERROR: aclError = 507022;
/// `ACL_ERROR_RT_STREAM_SYNC_TIMEOUT`.
pub const ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: aclError = 507046;
/// `ACL_ERROR_RT_EVENT_SYNC_TIMEOUT`.
pub const ACL_ERROR_RT_EVENT_SYNC_TIMEOUT: aclError = 507047;
/// `ACL_ERROR_RT_MODEL_CONTEXT`: a model runtime instance used from a context it does not belong to.
pub const ACL_ERROR_RT_MODEL_CONTEXT: aclError = 107004;
/// `ACL_ERROR_RT_CAPTURE_DEPENDENCY`: a capturing stream waits on an event recorded outside the capture.
pub const ACL_ERROR_RT_CAPTURE_DEPENDENCY: aclError = 107024;
/// `ACL_ERROR_RT_STREAM_UNJOINED`: a sub stream's captured work was not joined back to the origin stream.
pub const ACL_ERROR_RT_STREAM_UNJOINED: aclError = 107025;
/// `ACL_ERROR_RT_STREAM_CAPTURED`: a synchronize, query or destroy of a capturing stream (or a synchronize of its
/// device), a capture begun on a capturing stream.
pub const ACL_ERROR_RT_STREAM_CAPTURED: aclError = 107027;
/// `ACL_ERROR_RT_EVENT_CAPTURED`: a synchronize, query or elapsed time of an event recorded in a capture.
pub const ACL_ERROR_RT_EVENT_CAPTURED: aclError = 107028;
/// `ACL_ERROR_RT_STREAM_NOT_CAPTURED`: ending a capture on a stream that is not capturing.
pub const ACL_ERROR_RT_STREAM_NOT_CAPTURED: aclError = 107029;
/// `ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT`: a synchronous copy or memset that the thread's capture mode prohibits.
pub const ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT: aclError = 107030;
/// `ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT`: a wait on a captured event from the default stream.
pub const ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT: aclError = 107031;
/// `ACL_ERROR_STREAM_CAPTURE_CONFLICT`: a wait that would join two different captures.
pub const ACL_ERROR_STREAM_CAPTURE_CONFLICT: aclError = 107032;
/// `ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED`: ending a capture on a stream it was not begun on.
pub const ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED: aclError = 107036;
/// `ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD`: ending a capture on another thread than the one that began it.
pub const ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD: aclError = 107038;
/// `ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED`: ending a capture that an error invalidated.
pub const ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED: aclError = 507903;
