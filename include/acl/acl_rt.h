/*
 * acl/acl_rt.h — the ACL runtime API (aclrt*, aclmdlRI*) as streamsim simulates it, in CANN's
 * include/external/acl/acl_rt.h (the base types and codes come from acl/acl_base.h).
 *
 * Compile unchanged ACL host code against this directory and link libstreamsim instead of libascendcl:
 *     cc app.c -I include -L target/release -lstreamsim
 * Names, argument order, enums and error codes are ACL's; the semantics are the rows of streamsim's reference
 * table (docs/semantics/acl.md). `myKernel<<<…, stream>>>(…)` becomes aclsimLaunchKernel (see streamsim.h). Only the
 * functions below are simulated.
 *
 * Note the vendor's opposite numbering of the status enums: ACL_EVENT_RECORDED_STATUS_COMPLETE is 1, while
 * ACL_EVENT_STATUS_COMPLETE and ACL_STREAM_STATUS_COMPLETE are 0.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_H_
#define INC_EXTERNAL_ACL_ACL_RT_H_

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ version */

/* The ACL interface version these headers describe (what aclrtGetVersion returns), as the CANN runtime's
 * acl_rt.h defines it. */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ------------------------------------------------------------------------------------------------ types */

typedef void (*aclrtHostFunc)(void *args);
typedef void (*aclrtCallback)(void *userData); /* aclrtLaunchCallback */

/* aclrtLaunchCallback: whether the stream's later tasks wait for the callback. */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK = 0,
    ACL_CALLBACK_BLOCK = 1
} aclrtCallbackBlockType;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,                /* inferred from the pointers */
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,  /* simulated as host to device */
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6, /* simulated as device to device */
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7  /* simulated as device to device */
} aclrtMemcpyKind;

/* The policy has no simulated effect. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

typedef enum aclrtDevAttr {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301
} aclrtDevAttr;

/* aclrtQueryEventStatus: NOT_READY 0, COMPLETE 1. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

/* aclrtQueryEvent (deprecated): COMPLETE 0, NOT_READY 1. */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2
} aclrtEventStatus;

/* aclrtStreamQuery: COMPLETE 0, NOT_READY 1. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

/* An IPC event handle's 64 bytes are opaque; bytes 24..27 hold the exporting OS process's id and are the only
 * ones that differ between runs of the same program. */
#define ACL_IPC_EVENT_HANDLE_SIZE 64
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Event flags (aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag). */
#define ACL_EVENT_SYNC 0x00000001u                    /* streams can wait on it; it can be reset */
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002u /* accepted, no simulated effect */
#define ACL_EVENT_TIME_LINE 0x00000008u               /* records carry timestamps */
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010u         /* accepted, no simulated effect */
#define ACL_EVENT_EXTERNAL 0x00000020u                /* no timing */
#define ACL_EVENT_IPC 0x00000040u                     /* shareable with another process; no timing */

/* Stream flags (aclrtCreateStreamWithConfig): accepted, no simulated effect. */
#define ACL_STREAM_FAST_LAUNCH 0x00000001u
#define ACL_STREAM_FAST_SYNC 0x00000002u
#define ACL_STREAM_PERSISTENT 0x00000004u
#define ACL_STREAM_HUGE 0x00000008u
#define ACL_STREAM_CPU_SCHEDULE 0x00000010u
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020u

/* aclrtCreateNotify flags. */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U /* accepted, no simulated effect */

/* aclrtValueWait comparisons. */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U /* until (int64_t)(*devAddr - value) >= 0 */
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U  /* until *devAddr == value */
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U /* until (*devAddr & value) != 0 */
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U /* until ~(*devAddr | value) != 0 */

/* Failure modes (aclrtSetStreamFailureMode, ACL_STREAM_ATTR_FAILURE_MODE). */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U /* the default: later tasks run; the fault is reported once */
#define ACL_STOP_ON_FAILURE 0x00000001U     /* the stream and its context's other streams stop */

/* aclrtGetRunMode. */
typedef enum aclrtRunMode {
    ACL_DEVICE = 0,
    ACL_HOST = 1 /* always, in the simulator */
} aclrtRunMode;

/* aclrtQueryDeviceStatus. */
typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL = 1, /* never produced */
    ACL_RT_DEVICE_STATUS_END = 0xFFFF
} aclrtDeviceStatus;

/* aclrtGetMemInfo: every attribute reports the simulated device's one kind of memory. */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1,
    ACL_DDR_MEM_HUGE = 2,
    ACL_DDR_MEM_NORMAL = 3,
    ACL_HBM_MEM_HUGE = 4,
    ACL_HBM_MEM_NORMAL = 5,
    ACL_DDR_MEM_P2P_HUGE = 6,
    ACL_DDR_MEM_P2P_NORMAL = 7,
    ACL_HBM_MEM_P2P_HUGE = 8,
    ACL_HBM_MEM_P2P_NORMAL = 9,
    ACL_HBM_MEM_HUGE1G = 10,
    ACL_HBM_MEM_P2P_HUGE1G = 11,
    ACL_MEM_NORMAL = 12,
    ACL_MEM_HUGE = 13,
    ACL_MEM_HUGE1G = 14,
    ACL_MEM_P2P_NORMAL = 15,
    ACL_MEM_P2P_HUGE = 16,
    ACL_MEM_P2P_HUGE1G = 17
} aclrtMemAttr;

/* aclrtSetStreamAttribute / aclrtGetStreamAttribute: the failure mode and the priority are simulated; the
 * others are ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5
} aclrtStreamAttr;

typedef union {
    uint64_t failureMode;
    uint32_t overflowSwitch;
    uint32_t userCustomTag;
    uint32_t cacheOpInfoSwitch;
    uint32_t streamPriority;
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/* aclrtGetLastError / aclrtPeekAtLastError: the level of the error kept (only the calling thread's). */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0
} aclrtLastErrLevel;


typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2 /* IPC pools are not simulated: ACL_ERROR_RT_FEATURE_NOT_SUPPORT */
} aclrtMemHandleType;

typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE = 1, /* the only one a pool takes */
    ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
    ACL_MEM_LOCATION_TYPE_MANAGED = 3,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;


/* ------------------------------------------------------------------------------------------------ init */

aclError aclInit(const char *configPath); /* the configuration file is not read */
aclError aclFinalize(void);
/* The calling thread's last error message, or NULL. */
const char *aclGetRecentErrMsg(void);
/* The code of the calling thread's last failed runtime call (ACL_ERROR_RT_*), ACL_SUCCESS if none since the last
 * aclrtGetLastError; aclrtGetLastError clears it, aclrtPeekAtLastError does not. level other than
 * ACL_RT_THREAD_LEVEL: ACL_ERROR_INVALID_PARAM. */
aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
aclError aclrtGetLastError(aclrtLastErrLevel level);
/* ACL_MAJOR_VERSION.ACL_MINOR_VERSION.ACL_PATCH_VERSION; a NULL pointer: ACL_ERROR_INVALID_PARAM (deprecated by
 * CANN for aclsysGetVersionStr, which streamsim does not provide). */
aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);
/* Refused: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the runtime reads the version file of an installed CANN package; the
 * simulator installs none); a NULL pointer: ACL_ERROR_INVALID_PARAM. */
aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/* ------------------------------------------------------------------------------------------------ devices */

aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtResetDeviceForce(int32_t deviceId);
aclError aclrtGetDevice(int32_t *deviceId);
aclError aclrtGetDeviceCount(uint32_t *count);
aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);
aclError aclrtSynchronizeDevice(void);
aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* ------------------------------------------------------------------------------------------------ contexts */

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext *context);

/* ------------------------------------------------------------------------------------------------ streams */

aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtDestroyStreamForce(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);

/* ------------------------------------------------------------------------------------------------ events */

aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status); /* deprecated */
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp); /* microseconds */
aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
/* A handle that was not exported on this simulated machine or its shared host (zeroed, forged, of an earlier
 * run or another STREAMSIM_MACHINE) is ACL_ERROR_RT_IPC_ERROR; aclGetRecentErrMsg says why. The opened
 * event belongs to the current context (and its device), not the exporter's, and shares the exporter's records;
 * without a current context the open is ACL_ERROR_RT_CONTEXT_NULL. */
aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* IPC memory. The key is a NUL-terminated string of 56 characters (len: the CANN docs fix it at 65). Export
 * flags: DEFAULT = only the pids set with aclrtIpcMemSetImportPid may import. Errors: NULL pointers
 * ACL_ERROR_INVALID_PARAM; size or len 0, a len too small for the key, flags above 1, num 0
 * ACL_ERROR_RT_PARAM_INVALID; importing in the exporting process, a pid not allowed, a freed or closed export,
 * text that is no key ACL_ERROR_RT_IPC_ERROR (aclGetRecentErrMsg says which). An import maps the same bytes,
 * not a copy; aclrtIpcMemClose unmaps an importer's mapping, or closes the exporter's export. */
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags);
aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
aclError aclrtIpcMemClose(const char *key);
/* The calling OS process's id (what aclrtIpcMemSetImportPid lists). */
aclError aclrtDeviceGetBareTgid(int32_t *pid);

/* ------------------------------------------------------------------------------------------------ memory */

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream);
/* Matrix copies: height rows of width bytes, dpitch / spitch bytes apart. aclrtMemcpy2d copies host to device or
   device to host; aclrtMemcpy2dAsync also device to device. */
aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind);
aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream);
/* Managed ("UVM") memory (docs/semantics/managed-memory.md): host-addressable memory that kernels of any device
   reach, freed with aclrtFree; advice, prefetches and range attributes as CUDA's. */
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
typedef enum aclrtMemManagedAdviseType {
    ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
    ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
    ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_SET_ACCESSED_BY,
    ACL_MEM_ADVISE_UNSET_ACCESSED_BY,
} aclrtMemManagedAdviseType;
typedef enum aclrtMemManagedLocationType {
    ACL_MEM_LOCATIONTYPE_INVALID = 0,
    ACL_MEM_LOCATIONTYPE_DEVICE,
    ACL_MEM_LOCATIONTYPE_HOST,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT,
} aclrtMemManagedLocationType;
typedef struct aclrtMemManagedLocation {
    aclrtMemManagedLocationType type;
    int32_t id;
} aclrtMemManagedLocation;
typedef enum aclrtMemManagedRangeAttribute {
    ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
} aclrtMemManagedRangeAttribute;
aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);
aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location);
aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream);
aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                           aclrtMemManagedLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream);
aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size, void *data,
                                size_t dataSize);
aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes, size_t numAttributes, const void *ptr,
                                 size_t size, void **data, size_t *dataSizes);
/* devPtr: device memory, or host memory from aclrtMallocHost (a real write when the memset runs). */
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);


/* ------------------------------------------------------------------------------------------------ failure modes */

/* ACL_CONTINUE_ON_FAILURE (the default) or ACL_STOP_ON_FAILURE (the lowest bit counts); stop cannot be undone
 * (ACL_ERROR_RT_FEATURE_NOT_SUPPORT). */
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value);
aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value);

/* ------------------------------------------------------------------------------------------------ wait timeout */

/* Seconds (0: none) for the aclrtStreamWaitEvent tasks enqueued from now on; one that waits longer gives up and
 * the next synchronize of its stream returns ACL_ERROR_RT_TASK_TIMEOUT. */
aclError aclrtSetOpWaitTimeout(uint32_t timeout);

/* ------------------------------------------------------------------------------------------------ callbacks */

/* threadId: the pthread_self() of the thread that will call aclrtProcessReport. A stream has one such thread;
 * a thread's streams are on one device. A stream that has had aclrtLaunchHostFunc cannot be subscribed, and a
 * subscribed stream takes no aclrtLaunchHostFunc (ACL_ERROR_RT_STREAM_SUBSCRIBE). */
aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
/* fn(userData) runs on the subscribed thread in its aclrtProcessReport once the stream reaches it;
 * ACL_CALLBACK_BLOCK holds the stream's later tasks until then. No subscribed thread:
 * ACL_ERROR_RT_STREAM_NO_CB_REG. */
aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType, aclrtStream stream);
/* Runs the callbacks due to the calling thread within timeout ms (-1: waits for one). None due:
 * ACL_ERROR_RT_REPORT_TIMEOUT; not subscribed: ACL_ERROR_RT_THREAD_SUBSCRIBE. */
aclError aclrtProcessReport(int32_t timeout);
/* Waits until the stream's callbacks have run. */
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/* ------------------------------------------------------------------------------------------------ notifies */

/* flag: ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY. One record releases one wait (paired in program order). */
aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);
aclError aclrtDestroyNotify(aclrtNotify notify);
aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
/* May precede its record. timeout: seconds, 0 waits forever; running out is ACL_ERROR_RT_TASK_TIMEOUT at the
 * next synchronize. */
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/* ------------------------------------------------------------------------------------------------ value waits */

/* devAddr: device memory, 8-byte aligned; flag must be 0. */
aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
/* flag: ACL_STREAM_WAIT_VALUE_GEQ / _EQ / _AND / _NOR; may precede the aclrtValueWrite that satisfies it. */
aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);

/* ------------------------------------------------------------------------------------------------ queries */

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout); /* ms; -1 forever; ACL_ERROR_RT_STREAM_SYNC_TIMEOUT */
aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority); /* 7, 0 */
/* Created streams are 1, 2, ... in creation order; a context's default stream is 65536 + its ordinal. */
aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);
aclError aclrtGetRunMode(aclrtRunMode *runMode);
aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
/* Refused: ACL_ERROR_RT_FEATURE_NOT_SUPPORT, *canCompatible not written (the runtime's compatibility rules between
 * SoC versions are not modelled); a NULL pointer: ACL_ERROR_INVALID_PARAM. */
aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/* ------------------------------------------------------------------------------------------------ fault details */

#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14

typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN = 0,
    ACL_RT_AICORE_ERROR_SW = 1,
    ACL_RT_AICORE_ERROR_HW_LOCAL = 2
} aclrtAicoreErrorType;

#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

/* Refused: ACL_ERROR_RT_FEATURE_NOT_SUPPORT, *errorInfo not written (the runtime asks the device's driver for the
 * details of a hardware fault; a simulated device has none to give; CANN's sample calls it "reserved" and expects
 * a failure). NULL errorInfo: ACL_ERROR_INVALID_PARAM. */
aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

/* ------------------------------------------------------------------------------------------------ capture */

typedef void *aclmdlRI; /* a model runtime instance: what aclmdlRICaptureEnd makes */

typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;

typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

/* Tasks later delivered to stream are captured into a model instead of running (not on the default stream:
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT). Events recorded and waited on during a capture must come from
 * aclrtCreateEventExWithFlag. */
aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
/* During a capture *modelRI is the model being built: the handle aclmdlRICaptureEnd returns for it. */
aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI);
aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
/* RELAXED lets this thread call aclrtMemcpy / aclrtMemset during a capture (they run once, uncaptured). */
aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/* The model's tasks run after the stream's earlier tasks and the model's previous execution, each as early as
 * its dependencies allow. */
aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIDestroy(aclmdlRI modelRI);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_H_ */
