/*
 * cuda_runtime.h — the CUDA runtime API as streamsim simulates it (libstreamsim, no GPU needed).
 *
 * Compile unchanged CUDA host code against this directory and link libstreamsim instead of libcudart:
 *     cc app.c -I include -L target/release -lstreamsim
 * Names, argument order, constants and error codes are CUDA's; the semantics are the rows of streamsim's
 * reference table (docs/semantics/cuda-musa.md). `kernel<<<…, stream>>>(…)` becomes cudasimLaunchKernel (see
 * streamsim.h). Only the functions below are simulated.
 */
#ifndef STREAMSIM_CUDA_RUNTIME_H
#define STREAMSIM_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ types */

/* The error codes the simulator produces (CUDA's values). */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorContextIsDestroyed = 709,
    cudaErrorTooManyPeers = 711,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorTimeout = 909,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

/* Opaque handles; NULL is the legacy default stream of the current device. */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4 /* inferred from the pointers */
};
typedef enum cudaMemcpyKind cudaMemcpyKind;

/* The device attributes (CUDA 12's enum). cudaDeviceGetAttribute answers each one that has a cudaDeviceProp
 * field, from the same configuration as cudaGetDeviceProperties; the others are cudaErrorInvalidValue. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrCooperativeMultiDeviceLaunch = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMaxTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135
};
typedef enum cudaDeviceAttr cudaDeviceAttr;

/* The calling convention of callbacks (empty except on Windows). */
#ifndef CUDART_CB
#define CUDART_CB
#endif

typedef void (CUDART_CB *cudaHostFn_t)(void *userData);
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* The runtime version this header describes (what cudaRuntimeGetVersion returns): 12.8. */
#define CUDART_VERSION 12080

/* Device limits (cudaDeviceSetLimit / cudaDeviceGetLimit). */
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};
typedef enum cudaLimit cudaLimit;

/* What a pointer points into (cudaPointerGetAttributes). Managed memory is not simulated. */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
typedef enum cudaMemoryType cudaMemoryType;

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
/* A typedef the vendor's header does not have, so that C code can write `cudaPointerAttributes` as C++ does. */
typedef struct cudaPointerAttributes cudaPointerAttributes;

enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
};
typedef enum cudaComputeMode cudaComputeMode;

/* Stream capture and graphs (docs/semantics/capture-and-graphs.md). A graph node handle is valid until its graph is
 * destroyed; an executable graph keeps the nodes it was instantiated with. */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;

enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2 /* invalidated by an error; end it (no graph) */
};
typedef enum cudaStreamCaptureStatus cudaStreamCaptureStatus;

/* Which potentially unsafe calls (malloc / free, event queries and synchronizes outside the capture) a capture
 * prohibits: see cudaThreadExchangeStreamCaptureMode. */
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
typedef enum cudaStreamCaptureMode cudaStreamCaptureMode;

enum cudaStreamUpdateCaptureDependenciesFlags {
    cudaStreamAddCaptureDependencies = 0x0,
    cudaStreamSetCaptureDependencies = 0x1
};

/* The node types a capture makes (the enum's other values are not produced). */
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00,
    cudaGraphNodeTypeMemcpy = 0x01,
    cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03,
    cudaGraphNodeTypeGraph = 0x04,
    cudaGraphNodeTypeEmpty = 0x05,
    cudaGraphNodeTypeWaitEvent = 0x06,
    cudaGraphNodeTypeEventRecord = 0x07
};
typedef enum cudaGraphNodeType cudaGraphNodeType;

/* Accepted and without effect (no memory nodes, no device launch, no priorities are simulated). */
enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
    cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4,
    cudaGraphInstantiateFlagUseNodePriority = 8
};

/* Every flag writes the same description (node number, type, what it does, the stream it was captured from). */
enum cudaGraphDebugDotFlags {
    cudaGraphDebugDotFlagsVerbose = 1
};

typedef struct cudaUUID_st {
    char bytes[16];
} cudaUUID_t;

/* A device's properties: CUDA 12's struct, field for field (1008 bytes on LP64), filled from the machine's
 * device configuration (fields outside its profile are 0). */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved2[2];
    int reserved1[1];
    int reserved[60];
};
/* A typedef the vendor's header does not have, so that C code can write `cudaDeviceProp` as C++ does. */
typedef struct cudaDeviceProp cudaDeviceProp;

/* Stream-ordered allocation and memory pools (docs/semantics/stream-ordered-memory.md). Pools hold device
 * memory of one device; IPC pools, managed and host pools are not simulated. */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1,   /* int, default 1 */
    cudaMemPoolReuseAllowOpportunistic = 2,        /* int, default 1 */
    cudaMemPoolReuseAllowInternalDependencies = 3, /* int, default 1 */
    cudaMemPoolAttrReleaseThreshold = 4,           /* cuuint64_t, default 0 */
    cudaMemPoolAttrReservedMemCurrent = 5,         /* cuuint64_t, read-only */
    cudaMemPoolAttrReservedMemHigh = 6,            /* cuuint64_t, set to 0 only (resets it) */
    cudaMemPoolAttrUsedMemCurrent = 7,             /* cuuint64_t, read-only */
    cudaMemPoolAttrUsedMemHigh = 8                 /* cuuint64_t, set to 0 only (resets it) */
};
typedef enum cudaMemPoolAttr cudaMemPoolAttr;

enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    cudaMemAllocationTypePinned = 0x1,
    cudaMemAllocationTypeManaged = 0x2, /* not simulated: cudaErrorNotSupported */
    cudaMemAllocationTypeMax = 0x7FFFFFFF
};
typedef enum cudaMemAllocationType cudaMemAllocationType;

enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone = 0x0, /* the only one simulated */
    cudaMemHandleTypePosixFileDescriptor = 0x1,
    cudaMemHandleTypeWin32 = 0x2,
    cudaMemHandleTypeWin32Kmt = 0x4,
    cudaMemHandleTypeFabric = 0x8
};
typedef enum cudaMemAllocationHandleType cudaMemAllocationHandleType;

enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1, /* the only one simulated */
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
typedef enum cudaMemLocationType cudaMemLocationType;

struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
typedef struct cudaMemLocation cudaMemLocation;

/* CUDA 12's layout. maxSize 0: no limit but the device's memory. */
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
typedef struct cudaMemPoolProps cudaMemPoolProps;

/* An IPC event handle's 64 bytes are opaque; bytes 24..27 hold the exporting OS process's id and are the only
 * ones that differ between runs of the same program. */
#define CUDA_IPC_HANDLE_SIZE 64
typedef struct cudaIpcEventHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;

/* An IPC memory handle: 64 opaque bytes (bytes 18..50 differ between runs: the exporting OS process and, on a
 * shared host, where the export lives there). */
typedef struct cudaIpcMemHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;

/* The one flag of cudaIpcOpenMemHandle: enable peer access from the current device to the memory's. */
#define cudaIpcMemLazyEnablePeerAccess 0x01

#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventWaitDefault 0x00
/* External record / wait: an event record / wait node of the graph being captured; invalid outside a capture. */
#define cudaEventRecordExternal 0x01
#define cudaEventWaitExternal 0x01
/* cudaHostAlloc flags; with unified addressing every pinned allocation is mapped and portable. */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
/* cudaHostRegister flags; IoMemory is not simulated (cudaErrorNotSupported), ReadOnly needs
 * cudaDevAttrHostRegisterReadOnlySupported (0 in the default profile: cudaErrorNotSupported). */
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
/* cudaSetDeviceFlags: at most one schedule flag; how a thread waits changes no result and no virtual time. */
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceSyncMemops 0x80
#define cudaDeviceMask 0xff
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

/* Grid and block dimensions: accepted for source compatibility; the simulator does not model threads. */
#ifndef STREAMSIM_DIM3
#define STREAMSIM_DIM3
typedef struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
#endif
} dim3;
#endif

/* C++ default arguments, as in CUDA's header. */
#ifndef STREAMSIM_DEFAULT_ARG
#ifdef __cplusplus
#define STREAMSIM_DEFAULT_ARG(value) = value
#else
#define STREAMSIM_DEFAULT_ARG(value)
#endif
#endif

/* ------------------------------------------------------------------------------------------------ devices */

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
/* free: the device's memory less every simulated process's allocations on it; total: the device's memory. */
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
/* "0000:01:00.0" (domain:bus:device.function, hexadecimal), truncated to len bytes with its NUL. */
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
/* The flags set for the current device, with cudaDeviceMapHost (implicit in the runtime's contexts). */
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
/* From the device's attributes, for a kernel with no static shared memory and no register limit; func is any
 * non-NULL pointer standing for the kernel (cudaErrorInvalidDeviceFunction if NULL). */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags);

/* ------------------------------------------------------------------------------------------------ streams */

cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
/* On the NULL stream (cudaStreamLegacy): also all earlier work of the device's blocking streams. */
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
/* Unique among the process's streams for its whole life (created streams: 1, 2, … in creation order). */
cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device);
/* A host function is not called once its stream has seen a device fault; a stream callback
 * (cudaStreamAddCallback) is called exactly once, with cudaSuccess or the fault's error (e.g. 719, 700). */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags);

/* ------------------------------------------------------------------------------------------------ events */

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0),
                                     unsigned int flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
/* A handle that was not exported on this simulated machine or its shared host (zeroed, forged, of an earlier
 * run or another STREAMSIM_MACHINE) is cudaErrorInvalidValue; streamsimGetLastErrorMessage says
 * why. The opened event belongs to the calling thread's current device (not the exporter's) and shares the
 * exporter's records: record it on a stream of that device. */
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);

/* Exports the device allocation holding devPtr (the whole allocation; the same handle each time). */
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
/* Maps memory exported by another process into this one's current device: a pointer of this process to the
 * same bytes (not a copy). In the exporting process: cudaErrorDeviceUninitialized; freed or closed export:
 * cudaErrorMapBufferObjectFailed; forged, stale or foreign handle: cudaErrorInvalidValue. Opening the same handle
 * again on the same device returns the same pointer (a reference more). flags: 0 or
 * cudaIpcMemLazyEnablePeerAccess. */
cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
/* Drops one reference of a mapping made by cudaIpcOpenMemHandle; the last unmaps it. */
cudaError_t cudaIpcCloseMemHandle(void *devPtr);

/* ------------------------------------------------------------------------------------------------ capture, graphs */

/* Refused on the NULL / legacy stream (cudaErrorStreamCaptureUnsupported) and on a capturing stream
 * (cudaErrorIllegalState). While a stream captures, its operations become graph nodes; a record on it makes a
 * captured event, and a stream that waits on that joins the capture. */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
/* *pGraph is NULL on failure: not capturing (cudaErrorIllegalState), capture joined only
 * (cudaErrorStreamCaptureUnmatched), another thread (cudaErrorStreamCaptureWrongThread), invalidated
 * (cudaErrorStreamCaptureInvalidated), forked work not joined back (cudaErrorStreamCaptureUnjoined). */
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
/* The CUDA 12 signature. *dependencies_out stays valid until the next capture call about the stream or the end of
 * the capture. */
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                    unsigned long long *id_out STREAMSIM_DEFAULT_ARG(0),
                                    cudaGraph_t *graph_out STREAMSIM_DEFAULT_ARG(0),
                                    const cudaGraphNode_t **dependencies_out STREAMSIM_DEFAULT_ARG(0),
                                    size_t *numDependencies_out STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                               size_t numDependencies,
                                               unsigned int flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                unsigned long long flags STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                         unsigned long long flags STREAMSIM_DEFAULT_ARG(0));
/* Ordered after the stream's earlier work and after the executable graph's previous launch; the nodes run as
 * early as their dependencies allow, on the graph's own tracks of the trace. */
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
/* The CUDA 12 signature (no edge data). */
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *numEdges);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                        size_t *pNumDependencies);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                          size_t *pNumDependentNodes);
/* A file that cannot be written is cudaErrorInvalidValue. */
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);

/* ------------------------------------------------------------------------------------------------ memory */

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
/* The device pointer of pinned memory is its host pointer (one address space). */
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
/* Registered memory behaves as pinned memory (copies read and write it when they run; races are tracked) until
 * cudaHostUnregister; work still queued on it then touches no memory. */
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));

/* ------------------------------------------------------------------------------------------------ stream-ordered
 * memory: cudaMallocAsync allocates from the current pool of the stream's device, as an operation of the stream;
 * cudaFreeAsync frees as one. A freed block is reused by a later allocation as the pool's reuse policies allow
 * (the same stream; an order by events; a free complete in virtual time; a synchronize); with race detection, an
 * access not ordered after the allocation or before the free is a "use before allocation" / "use after free"
 * report. cudaFree of such memory does not synchronize. */

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);

/* ------------------------------------------------------------------------------------------------ errors */

cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* ------------------------------------------------------------------------------------------------ profiler */

/* Recorded in the trace as host events profiler_start(device N) / profiler_stop(device N). Also declared by
 * cuda_profiler_api.h. */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

#ifdef __cplusplus
}

/* ------------------------------------------------------------------------------------------------ C++ API */

/* The C++ overloads of CUDA 12's cuda_runtime.h for the functions above. */

/* The CUDA 11 signature, kept by CUDA 12's header for C++ (the error node and log are not written). */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                              cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
    return ::cudaEventCreateWithFlags(event, flags);
}

static inline cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc(ptr, size, flags);
}

static inline cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template <class T> static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template <class T> static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
    return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

template <class T>
static inline cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template <class T> static inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
    return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
    return ::cudaMallocHost((void **)(void *)ptr, size, flags);
}

template <class T> static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T> static inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
    return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, cudaOccupancyDefault);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize,
                                                                                 unsigned int flags) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, flags);
}

/* The block size with the highest occupancy (CUDA's algorithm: every block size from the limit down by whole
 * warps, the first with the most resident threads wins) and the grid that fills the device with it. The
 * simulator's kernels have no per-function thread limit, so the limit is the device's (or blockSizeLimit). */
template <typename UnaryFunction, class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
    if (!minGridSize || !blockSize || !func) {
        return cudaErrorInvalidValue;
    }
    int device = 0, maxThreadsPerSM = 0, warp = 0, devMaxThreadsPerBlock = 0, smCount = 0;
    cudaError_t status = ::cudaGetDevice(&device);
    if (status == cudaSuccess)
        status = ::cudaDeviceGetAttribute(&maxThreadsPerSM, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    if (status == cudaSuccess) status = ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (status == cudaSuccess)
        status = ::cudaDeviceGetAttribute(&devMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device);
    if (status == cudaSuccess) status = ::cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device);
    if (status != cudaSuccess) {
        return status;
    }
    if (warp <= 0) {
        return cudaErrorInvalidValue;
    }
    if (blockSizeLimit == 0 || devMaxThreadsPerBlock < blockSizeLimit) {
        blockSizeLimit = devMaxThreadsPerBlock;
    }
    int best = 0, bestBlocks = 0, bestThreads = 0;
    for (int aligned = ((blockSizeLimit + warp - 1) / warp) * warp; aligned > 0; aligned -= warp) {
        int tryBlock = blockSizeLimit < aligned ? blockSizeLimit : aligned;
        int blocks = 0;
        status = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, tryBlock, (size_t)blockSizeToDynamicSMemSize(tryBlock), flags);
        if (status != cudaSuccess) {
            return status;
        }
        if (tryBlock * blocks > bestThreads) {
            best = tryBlock;
            bestBlocks = blocks;
            bestThreads = tryBlock * blocks;
        }
        if (bestThreads == maxThreadsPerSM) {
            break;
        }
    }
    *minGridSize = bestBlocks * smCount;
    *blockSize = best;
    return status;
}

/* A fixed amount of dynamic shared memory, whatever the block size (shared by cuda_runtime.h and
 * musa_runtime.h). */
#ifndef STREAMSIM_OCCUPANCY_CONSTANT_SMEM
#define STREAMSIM_OCCUPANCY_CONSTANT_SMEM
class streamsimOccupancyConstantSMem {
    size_t n;

  public:
    explicit streamsimOccupancyConstantSMem(size_t bytes) : n(bytes) {}
    size_t operator()(int) const { return n; }
};
#endif

template <typename UnaryFunction, class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                                                         UnaryFunction blockSizeToDynamicSMemSize,
                                                                         int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                   blockSizeToDynamicSMemSize, blockSizeLimit,
                                                                   cudaOccupancyDefault);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, streamsimOccupancyConstantSMem(dynamicSMemSize), blockSizeLimit,
        cudaOccupancyDefault);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                      size_t dynamicSMemSize = 0,
                                                                      int blockSizeLimit = 0,
                                                                      unsigned int flags = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, streamsimOccupancyConstantSMem(dynamicSMemSize), blockSizeLimit, flags);
}
#endif

#include "streamsim.h"

#endif /* STREAMSIM_CUDA_RUNTIME_H */
