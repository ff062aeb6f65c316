/*
 * musa_runtime_api.h — the types and C functions of the MUSA (Moore Threads) runtime API as streamsim simulates
 * it (libstreamsim, no GPU needed); musa_runtime.h includes it and adds the C++ overloads.
 *
 * Compile unchanged MUSA host code against this directory and link libstreamsim instead of libmusart:
 *     cc app.c -I include -L target/release -lstreamsim
 * MUSA mirrors the CUDA runtime: musaX = cudaX, with the same argument order, constants and error codes (see
 * cuda_runtime.h); the semantics are the rows of streamsim's reference table (docs/semantics/cuda-musa.md).
 * `kernel<<<…, stream>>>(…)` becomes musasimLaunchKernel (see streamsim.h). Only the functions below are
 * simulated.
 */
#ifndef STREAMSIM_MUSA_RUNTIME_API_H
#define STREAMSIM_MUSA_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ types */

/* The error codes the simulator produces (the same values as CUDA's). */
enum musaError {
    musaSuccess = 0,
    musaErrorInvalidValue = 1,
    musaErrorMemoryAllocation = 2,
    musaErrorInitializationError = 3,
    musaErrorInvalidConfiguration = 9,
    musaErrorInvalidPitchValue = 12,
    musaErrorInvalidSymbol = 13,
    musaErrorInvalidMemcpyDirection = 21,
    musaErrorInvalidDeviceFunction = 98,
    musaErrorNoDevice = 100,
    musaErrorInvalidDevice = 101,
    musaErrorDeviceUninitialized = 201,
    musaErrorMapBufferObjectFailed = 205,
    musaErrorUnsupportedLimit = 215,
    musaErrorInvalidResourceHandle = 400,
    musaErrorIllegalState = 401,
    musaErrorNotReady = 600,
    musaErrorIllegalAddress = 700,
    musaErrorPeerAccessAlreadyEnabled = 704,
    musaErrorPeerAccessNotEnabled = 705,
    musaErrorContextIsDestroyed = 709,
    musaErrorAssert = 710,
    musaErrorTooManyPeers = 711,
    musaErrorHostMemoryAlreadyRegistered = 712,
    musaErrorHostMemoryNotRegistered = 713,
    musaErrorMisalignedAddress = 716,
    musaErrorLaunchFailure = 719,
    musaErrorCooperativeLaunchTooLarge = 720,
    musaErrorNotPermitted = 800,
    musaErrorNotSupported = 801,
    musaErrorStreamCaptureUnsupported = 900,
    musaErrorStreamCaptureInvalidated = 901,
    musaErrorStreamCaptureMerge = 902,
    musaErrorStreamCaptureUnmatched = 903,
    musaErrorStreamCaptureUnjoined = 904,
    musaErrorStreamCaptureIsolation = 905,
    musaErrorStreamCaptureImplicit = 906,
    musaErrorCapturedEvent = 907,
    musaErrorStreamCaptureWrongThread = 908,
    musaErrorTimeout = 909,
    musaErrorGraphExecUpdateFailure = 910,
    musaErrorUnknown = 999
};
typedef enum musaError musaError_t;

/* Opaque handles; NULL is the legacy default stream of the current device. */
typedef struct MUstream_st *musaStream_t;
typedef struct MUevent_st *musaEvent_t;

enum musaMemcpyKind {
    musaMemcpyHostToHost = 0,
    musaMemcpyHostToDevice = 1,
    musaMemcpyDeviceToHost = 2,
    musaMemcpyDeviceToDevice = 3,
    musaMemcpyDefault = 4 /* inferred from the pointers */
};
typedef enum musaMemcpyKind musaMemcpyKind;

/* The device attributes (MUSA 12's enum). musaDeviceGetAttribute answers each one that has a musaDeviceProp
 * field, from the same configuration as musaGetDeviceProperties; the others are musaErrorInvalidValue. */
enum musaDeviceAttr {
    musaDevAttrMaxThreadsPerBlock = 1,
    musaDevAttrMaxBlockDimX = 2,
    musaDevAttrMaxBlockDimY = 3,
    musaDevAttrMaxBlockDimZ = 4,
    musaDevAttrMaxGridDimX = 5,
    musaDevAttrMaxGridDimY = 6,
    musaDevAttrMaxGridDimZ = 7,
    musaDevAttrMaxSharedMemoryPerBlock = 8,
    musaDevAttrTotalConstantMemory = 9,
    musaDevAttrWarpSize = 10,
    musaDevAttrMaxPitch = 11,
    musaDevAttrMaxRegistersPerBlock = 12,
    musaDevAttrClockRate = 13,
    musaDevAttrTextureAlignment = 14,
    musaDevAttrGpuOverlap = 15,
    musaDevAttrMultiProcessorCount = 16,
    musaDevAttrKernelExecTimeout = 17,
    musaDevAttrIntegrated = 18,
    musaDevAttrCanMapHostMemory = 19,
    musaDevAttrComputeMode = 20,
    musaDevAttrMaxTexture1DWidth = 21,
    musaDevAttrMaxTexture2DWidth = 22,
    musaDevAttrMaxTexture2DHeight = 23,
    musaDevAttrMaxTexture3DWidth = 24,
    musaDevAttrMaxTexture3DHeight = 25,
    musaDevAttrMaxTexture3DDepth = 26,
    musaDevAttrMaxTexture2DLayeredWidth = 27,
    musaDevAttrMaxTexture2DLayeredHeight = 28,
    musaDevAttrMaxTexture2DLayeredLayers = 29,
    musaDevAttrSurfaceAlignment = 30,
    musaDevAttrConcurrentKernels = 31,
    musaDevAttrEccEnabled = 32,
    musaDevAttrPciBusId = 33,
    musaDevAttrPciDeviceId = 34,
    musaDevAttrTccDriver = 35,
    musaDevAttrMemoryClockRate = 36,
    musaDevAttrGlobalMemoryBusWidth = 37,
    musaDevAttrL2CacheSize = 38,
    musaDevAttrMaxThreadsPerMultiProcessor = 39,
    musaDevAttrAsyncEngineCount = 40,
    musaDevAttrUnifiedAddressing = 41,
    musaDevAttrMaxTexture1DLayeredWidth = 42,
    musaDevAttrMaxTexture1DLayeredLayers = 43,
    musaDevAttrMaxTexture2DGatherWidth = 45,
    musaDevAttrMaxTexture2DGatherHeight = 46,
    musaDevAttrMaxTexture3DWidthAlt = 47,
    musaDevAttrMaxTexture3DHeightAlt = 48,
    musaDevAttrMaxTexture3DDepthAlt = 49,
    musaDevAttrPciDomainId = 50,
    musaDevAttrTexturePitchAlignment = 51,
    musaDevAttrMaxTextureCubemapWidth = 52,
    musaDevAttrMaxTextureCubemapLayeredWidth = 53,
    musaDevAttrMaxTextureCubemapLayeredLayers = 54,
    musaDevAttrMaxSurface1DWidth = 55,
    musaDevAttrMaxSurface2DWidth = 56,
    musaDevAttrMaxSurface2DHeight = 57,
    musaDevAttrMaxSurface3DWidth = 58,
    musaDevAttrMaxSurface3DHeight = 59,
    musaDevAttrMaxSurface3DDepth = 60,
    musaDevAttrMaxSurface1DLayeredWidth = 61,
    musaDevAttrMaxSurface1DLayeredLayers = 62,
    musaDevAttrMaxSurface2DLayeredWidth = 63,
    musaDevAttrMaxSurface2DLayeredHeight = 64,
    musaDevAttrMaxSurface2DLayeredLayers = 65,
    musaDevAttrMaxSurfaceCubemapWidth = 66,
    musaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    musaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    musaDevAttrMaxTexture1DLinearWidth = 69,
    musaDevAttrMaxTexture2DLinearWidth = 70,
    musaDevAttrMaxTexture2DLinearHeight = 71,
    musaDevAttrMaxTexture2DLinearPitch = 72,
    musaDevAttrMaxTexture2DMipmappedWidth = 73,
    musaDevAttrMaxTexture2DMipmappedHeight = 74,
    musaDevAttrComputeCapabilityMajor = 75,
    musaDevAttrComputeCapabilityMinor = 76,
    musaDevAttrMaxTexture1DMipmappedWidth = 77,
    musaDevAttrStreamPrioritiesSupported = 78,
    musaDevAttrGlobalL1CacheSupported = 79,
    musaDevAttrLocalL1CacheSupported = 80,
    musaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    musaDevAttrMaxRegistersPerMultiprocessor = 82,
    musaDevAttrManagedMemory = 83,
    musaDevAttrIsMultiGpuBoard = 84,
    musaDevAttrMultiGpuBoardGroupID = 85,
    musaDevAttrHostNativeAtomicSupported = 86,
    musaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    musaDevAttrPageableMemoryAccess = 88,
    musaDevAttrConcurrentManagedAccess = 89,
    musaDevAttrComputePreemptionSupported = 90,
    musaDevAttrCanUseHostPointerForRegisteredMem = 91,
    musaDevAttrCooperativeLaunch = 95,
    musaDevAttrCooperativeMultiDeviceLaunch = 96,
    musaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    musaDevAttrCanFlushRemoteWrites = 98,
    musaDevAttrHostRegisterSupported = 99,
    musaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    musaDevAttrDirectManagedMemAccessFromHost = 101,
    musaDevAttrMaxBlocksPerMultiprocessor = 106,
    musaDevAttrMaxPersistingL2CacheSize = 108,
    musaDevAttrMaxAccessPolicyWindowSize = 109,
    musaDevAttrSparseCudaArraySupported = 112,
    musaDevAttrHostRegisterReadOnlySupported = 113,
    musaDevAttrTimelineSemaphoreInteropSupported = 114,
    musaDevAttrMaxTimelineSemaphoreInteropSupported = 114,
    musaDevAttrMemoryPoolsSupported = 115,
    musaDevAttrGPUDirectRDMASupported = 116,
    musaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    musaDevAttrGPUDirectRDMAWritesOrdering = 118,
    musaDevAttrMemoryPoolSupportedHandleTypes = 119,
    musaDevAttrClusterLaunch = 120,
    musaDevAttrDeferredMappingCudaArraySupported = 121,
    musaDevAttrIpcEventSupport = 125,
    musaDevAttrMemSyncDomainCount = 126,
    musaDevAttrNumaConfig = 130,
    musaDevAttrNumaId = 131,
    musaDevAttrMpsEnabled = 133,
    musaDevAttrHostNumaId = 134,
    musaDevAttrD3D12CigSupported = 135
};
typedef enum musaDeviceAttr musaDeviceAttr;

/* The calling convention of callbacks (empty except on Windows). */
#ifndef MUSART_CB
#define MUSART_CB
#endif

typedef void (MUSART_CB *musaHostFn_t)(void *userData);
typedef void (MUSART_CB *musaStreamCallback_t)(musaStream_t stream, musaError_t status, void *userData);

/* The runtime version this header describes (what musaRuntimeGetVersion returns): 12.8. */
#define MUSART_VERSION 12080

/* Device limits (musaDeviceSetLimit / musaDeviceGetLimit). */
enum musaLimit {
    musaLimitStackSize = 0x00,
    musaLimitPrintfFifoSize = 0x01,
    musaLimitMallocHeapSize = 0x02,
    musaLimitDevRuntimeSyncDepth = 0x03,
    musaLimitDevRuntimePendingLaunchCount = 0x04,
    musaLimitMaxL2FetchGranularity = 0x05,
    musaLimitPersistingL2CacheSize = 0x06
};
typedef enum musaLimit musaLimit;

/* What a pointer points into (musaPointerGetAttributes). Managed memory is not simulated. */
enum musaMemoryType {
    musaMemoryTypeUnregistered = 0,
    musaMemoryTypeHost = 1,
    musaMemoryTypeDevice = 2,
    musaMemoryTypeManaged = 3
};
typedef enum musaMemoryType musaMemoryType;

/* An attribute of the link between two devices (musaDeviceGetP2PAttribute). */
enum musaDeviceP2PAttr {
    musaDevP2PAttrPerformanceRank = 1,
    musaDevP2PAttrAccessSupported = 2,
    musaDevP2PAttrNativeAtomicSupported = 3,
    musaDevP2PAttrCudaArrayAccessSupported = 4,
    musaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* What a kernel needs (musaFuncGetAttributes): CUDA 12's (MUSA's) layout. */
struct musaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* The attributes musaFuncSetAttribute sets (the simulator takes these two). */
enum musaFuncAttribute {
    musaFuncAttributeMaxDynamicSharedMemorySize = 8,
    musaFuncAttributePreferredSharedMemoryCarveout = 9
};
typedef struct musaFuncAttributes musaFuncAttributes;

struct musaPointerAttributes {
    enum musaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
/* A typedef the vendor's header does not have, so that C code can write `musaPointerAttributes` as C++ does. */
typedef struct musaPointerAttributes musaPointerAttributes;

enum musaComputeMode {
    musaComputeModeDefault = 0,
    musaComputeModeExclusive = 1,
    musaComputeModeProhibited = 2,
    musaComputeModeExclusiveProcess = 3
};
typedef enum musaComputeMode musaComputeMode;

/* Stream capture and graphs (docs/semantics/capture-and-graphs.md). A graph node handle is valid until its graph is
 * destroyed or the node removed (GraphDestroyNode); an executable graph keeps the nodes it was instantiated with. */
typedef struct MUgraph_st *musaGraph_t;
typedef struct MUgraphExec_st *musaGraphExec_t;
typedef struct MUgraphNode_st *musaGraphNode_t;

enum musaStreamCaptureStatus {
    musaStreamCaptureStatusNone = 0,
    musaStreamCaptureStatusActive = 1,
    musaStreamCaptureStatusInvalidated = 2 /* invalidated by an error; end it (no graph) */
};
typedef enum musaStreamCaptureStatus musaStreamCaptureStatus;

/* Which potentially unsafe calls (malloc / free, event queries and synchronizes outside the capture) a capture
 * prohibits: see musaThreadExchangeStreamCaptureMode. */
enum musaStreamCaptureMode {
    musaStreamCaptureModeGlobal = 0,
    musaStreamCaptureModeThreadLocal = 1,
    musaStreamCaptureModeRelaxed = 2
};
typedef enum musaStreamCaptureMode musaStreamCaptureMode;

enum musaStreamUpdateCaptureDependenciesFlags {
    musaStreamAddCaptureDependencies = 0x0,
    musaStreamSetCaptureDependencies = 0x1
};

/* The node types captures and the building calls make (the enum's other values are not produced). */
enum musaGraphNodeType {
    musaGraphNodeTypeKernel = 0x00,
    musaGraphNodeTypeMemcpy = 0x01,
    musaGraphNodeTypeMemset = 0x02,
    musaGraphNodeTypeHost = 0x03,
    musaGraphNodeTypeGraph = 0x04,
    musaGraphNodeTypeEmpty = 0x05,
    musaGraphNodeTypeWaitEvent = 0x06,
    musaGraphNodeTypeEventRecord = 0x07,
    musaGraphNodeTypeMemAlloc = 0x0a,
    musaGraphNodeTypeMemFree = 0x0b
};
typedef enum musaGraphNodeType musaGraphNodeType;

/* Graph memory (docs/semantics/graph-memory.md): what musaDeviceGetGraphMemAttribute reports. */
enum musaGraphMemAttributeType {
    musaGraphMemAttrUsedMemCurrent = 0x0,
    musaGraphMemAttrUsedMemHigh = 0x1,
    musaGraphMemAttrReservedMemCurrent = 0x2,
    musaGraphMemAttrReservedMemHigh = 0x3
};
typedef enum musaGraphMemAttributeType musaGraphMemAttributeType;

/* AutoFreeOnLaunch frees a graph's allocations still live at each launch (docs/semantics/graph-memory.md);
 * Upload and DeviceLaunch are accepted and without effect; UseNodePriority is refused. */
enum musaGraphInstantiateFlags {
    musaGraphInstantiateFlagAutoFreeOnLaunch = 1,
    musaGraphInstantiateFlagUpload = 2,
    musaGraphInstantiateFlagDeviceLaunch = 4,
    musaGraphInstantiateFlagUseNodePriority = 8
};

/* Every flag writes the same description (node number, type, what it does, the stream it was captured from). */
enum musaGraphDebugDotFlags {
    musaGraphDebugDotFlagsVerbose = 1
};

/* Graphs built by hand (docs/semantics/graph-building.md). */
enum musaGraphExecUpdateResult {
    musaGraphExecUpdateSuccess = 0x0,
    musaGraphExecUpdateError = 0x1,
    musaGraphExecUpdateErrorTopologyChanged = 0x2,
    musaGraphExecUpdateErrorNodeTypeChanged = 0x3,
    musaGraphExecUpdateErrorFunctionChanged = 0x4,
    musaGraphExecUpdateErrorParametersChanged = 0x5,
    musaGraphExecUpdateErrorNotSupported = 0x6,
    musaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
    musaGraphExecUpdateErrorAttributesChanged = 0x8
};
typedef enum musaGraphExecUpdateResult musaGraphExecUpdateResult;

typedef struct musaGraphExecUpdateResultInfo_st {
    enum musaGraphExecUpdateResult result;
    musaGraphNode_t errorNode;
    musaGraphNode_t errorFromNode;
} musaGraphExecUpdateResultInfo;

typedef enum musaGraphInstantiateResult {
    musaGraphInstantiateSuccess = 0,
    musaGraphInstantiateError = 1,
    musaGraphInstantiateInvalidStructure = 2,
    musaGraphInstantiateNodeOperationNotSupported = 3,
    musaGraphInstantiateMultipleDevicesNotSupported = 4
} musaGraphInstantiateResult;

typedef struct musaGraphInstantiateParams_st {
    unsigned long long flags;
    musaStream_t uploadStream;
    musaGraphNode_t errNode_out;
    musaGraphInstantiateResult result_out;
} musaGraphInstantiateParams;

/* An edge's data (CUDA 12.3's layout): ports and type; streamsim's graphs have default edges only (all zero). */
typedef struct musaGraphEdgeData_st {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
} musaGraphEdgeData;

/* A memset node: height rows of width elements of elementSize bytes (1, 2 or 4), pitch bytes apart. */
struct musaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct musaHostNodeParams {
    musaHostFn_t fn;
    void *userData;
};

typedef struct musaUUID_st {
    char bytes[16];
} musaUUID_t;

/* A device's properties: MUSA 12's struct, field for field (1008 bytes on LP64), filled from the machine's
 * device configuration (fields outside its profile are 0). */
struct musaDeviceProp {
    char name[256];
    musaUUID_t uuid;
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
/* A typedef the vendor's header does not have, so that C code can write `musaDeviceProp` as C++ does. */
typedef struct musaDeviceProp musaDeviceProp;

/* Stream-ordered allocation and memory pools (docs/semantics/stream-ordered-memory.md). Pools hold device
 * memory of one device; IPC pools, managed and host pools are not simulated. */
typedef struct MUmemPoolHandle_st *musaMemPool_t;

enum musaMemPoolAttr {
    musaMemPoolReuseFollowEventDependencies = 1,   /* int, default 1 */
    musaMemPoolReuseAllowOpportunistic = 2,        /* int, default 1 */
    musaMemPoolReuseAllowInternalDependencies = 3, /* int, default 1 */
    musaMemPoolAttrReleaseThreshold = 4,           /* cuuint64_t, default 0 */
    musaMemPoolAttrReservedMemCurrent = 5,         /* cuuint64_t, read-only */
    musaMemPoolAttrReservedMemHigh = 6,            /* cuuint64_t, set to 0 only (resets it) */
    musaMemPoolAttrUsedMemCurrent = 7,             /* cuuint64_t, read-only */
    musaMemPoolAttrUsedMemHigh = 8                 /* cuuint64_t, set to 0 only (resets it) */
};
typedef enum musaMemPoolAttr musaMemPoolAttr;

enum musaMemAllocationType {
    musaMemAllocationTypeInvalid = 0x0,
    musaMemAllocationTypePinned = 0x1,
    musaMemAllocationTypeManaged = 0x2, /* not simulated: musaErrorNotSupported */
    musaMemAllocationTypeMax = 0x7FFFFFFF
};
typedef enum musaMemAllocationType musaMemAllocationType;

enum musaMemAllocationHandleType {
    musaMemHandleTypeNone = 0x0, /* the only one simulated */
    musaMemHandleTypePosixFileDescriptor = 0x1,
    musaMemHandleTypeWin32 = 0x2,
    musaMemHandleTypeWin32Kmt = 0x4,
    musaMemHandleTypeFabric = 0x8
};
typedef enum musaMemAllocationHandleType musaMemAllocationHandleType;

enum musaMemLocationType {
    musaMemLocationTypeInvalid = 0,
    musaMemLocationTypeDevice = 1, /* the only one pools simulate; managed memory also takes the host ones */
    musaMemLocationTypeHost = 2,
    musaMemLocationTypeHostNuma = 3,
    musaMemLocationTypeHostNumaCurrent = 4
};
typedef enum musaMemLocationType musaMemLocationType;

struct musaMemLocation {
    enum musaMemLocationType type;
    int id;
};
typedef struct musaMemLocation musaMemLocation;

/* Managed memory (docs/semantics/managed-memory.md): the attach flags of musaMallocManaged and
 * musaStreamAttachMemAsync, the advice of musaMemAdvise, the attributes of musaMemRangeGetAttribute(s). */
#define musaMemAttachGlobal 0x01
#define musaMemAttachHost 0x02
#define musaMemAttachSingle 0x04

enum musaMemoryAdvise {
    musaMemAdviseSetReadMostly = 1,
    musaMemAdviseUnsetReadMostly = 2,
    musaMemAdviseSetPreferredLocation = 3,
    musaMemAdviseUnsetPreferredLocation = 4,
    musaMemAdviseSetAccessedBy = 5,
    musaMemAdviseUnsetAccessedBy = 6
};
typedef enum musaMemoryAdvise musaMemoryAdvise;

enum musaMemRangeAttribute {
    musaMemRangeAttributeReadMostly = 1,
    musaMemRangeAttributePreferredLocation = 2,
    musaMemRangeAttributeAccessedBy = 3,
    musaMemRangeAttributeLastPrefetchLocation = 4,
    musaMemRangeAttributePreferredLocationType = 5,
    musaMemRangeAttributePreferredLocationId = 6,
    musaMemRangeAttributeLastPrefetchLocationType = 7,
    musaMemRangeAttributeLastPrefetchLocationId = 8
};
typedef enum musaMemRangeAttribute musaMemRangeAttribute;

/* CUDA 12's layout. maxSize 0: no limit but the device's memory. */
struct musaMemPoolProps {
    enum musaMemAllocationType allocType;
    enum musaMemAllocationHandleType handleTypes;
    struct musaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
typedef struct musaMemPoolProps musaMemPoolProps;

/* Pitched memory (docs/semantics/pitched-memory.md): musaMallocPitch / musaMalloc3D rows padded to the device's
 * texturePitchAlignment; 2-D and 3-D copies and memsets of linear memory. CUDA arrays are not simulated: a
 * musaMemcpy3DParms naming one ({src,dst}Array non-NULL) is refused with musaErrorNotSupported. */
struct musaPitchedPtr {
    void *ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
};
typedef struct musaPitchedPtr musaPitchedPtr;

struct musaExtent {
    size_t width; /* bytes, for linear memory */
    size_t height;
    size_t depth;
};
typedef struct musaExtent musaExtent;

struct musaPos {
    size_t x; /* bytes, for linear memory */
    size_t y;
    size_t z;
};
typedef struct musaPos musaPos;

typedef struct musaArray *musaArray_t;

struct musaMemcpy3DParms {
    musaArray_t srcArray; /* must be NULL */
    struct musaPos srcPos;
    struct musaPitchedPtr srcPtr;
    musaArray_t dstArray; /* must be NULL */
    struct musaPos dstPos;
    struct musaPitchedPtr dstPtr;
    struct musaExtent extent;
    enum musaMemcpyKind kind;
};
typedef struct musaMemcpy3DParms musaMemcpy3DParms;

struct musaMemcpy3DPeerParms {
    musaArray_t srcArray; /* must be NULL */
    struct musaPos srcPos;
    struct musaPitchedPtr srcPtr;
    int srcDevice;
    musaArray_t dstArray; /* must be NULL */
    struct musaPos dstPos;
    struct musaPitchedPtr dstPtr;
    int dstDevice;
    struct musaExtent extent;
};
typedef struct musaMemcpy3DPeerParms musaMemcpy3DPeerParms;

/* Access to a pool's memory from other devices (musaMemPoolSetAccess / musaMemPoolGetAccess). */
enum musaMemAccessFlags {
    musaMemAccessFlagsProtNone = 0,
    musaMemAccessFlagsProtRead = 1,
    musaMemAccessFlagsProtReadWrite = 3
};
typedef enum musaMemAccessFlags musaMemAccessFlags;

struct musaMemAccessDesc {
    struct musaMemLocation location;
    enum musaMemAccessFlags flags;
};
typedef struct musaMemAccessDesc musaMemAccessDesc;

/* What musaMemPoolExportPointer writes (IPC pools are not simulated: it is refused). */
struct musaMemPoolPtrExportData {
    unsigned char reserved[64];
};
typedef struct musaMemPoolPtrExportData musaMemPoolPtrExportData;

/* An IPC event handle's 64 bytes are opaque; bytes 24..27 hold the exporting OS process's id and are the only
 * ones that differ between runs of the same program. */
#define MUSA_IPC_HANDLE_SIZE 64
typedef struct musaIpcEventHandle_st {
    char reserved[MUSA_IPC_HANDLE_SIZE];
} musaIpcEventHandle_t;

/* An IPC memory handle: 64 opaque bytes (bytes 18..50 differ between runs: the exporting OS process and, on a
 * shared host, where the export lives there). */
typedef struct musaIpcMemHandle_st {
    char reserved[MUSA_IPC_HANDLE_SIZE];
} musaIpcMemHandle_t;

/* The one flag of musaIpcOpenMemHandle: enable peer access from the current device to the memory's. */
#define musaIpcMemLazyEnablePeerAccess 0x01

#define musaEventDefault 0x00
#define musaEventBlockingSync 0x01
#define musaEventDisableTiming 0x02
#define musaEventInterprocess 0x04
#define musaEventRecordDefault 0x00
#define musaEventWaitDefault 0x00
/* External record / wait: an event record / wait node of the graph being captured; invalid outside a capture. */
#define musaEventRecordExternal 0x01
#define musaEventWaitExternal 0x01
/* musaHostAlloc flags; with unified addressing every pinned allocation is mapped and portable. */
#define musaHostAllocDefault 0x00
#define musaHostAllocPortable 0x01
#define musaHostAllocMapped 0x02
#define musaHostAllocWriteCombined 0x04
/* musaHostRegister flags; IoMemory is not simulated (musaErrorNotSupported), ReadOnly needs
 * musaDevAttrHostRegisterReadOnlySupported (0 in the default profile: musaErrorNotSupported). */
#define musaHostRegisterDefault 0x00
#define musaHostRegisterPortable 0x01
#define musaHostRegisterMapped 0x02
#define musaHostRegisterIoMemory 0x04
#define musaHostRegisterReadOnly 0x08
/* musaSetDeviceFlags: at most one schedule flag; how a thread waits changes no result and no virtual time. */
#define musaDeviceScheduleAuto 0x00
#define musaDeviceScheduleSpin 0x01
#define musaDeviceScheduleYield 0x02
#define musaDeviceScheduleBlockingSync 0x04
#define musaDeviceBlockingSync 0x04
#define musaDeviceScheduleMask 0x07
#define musaDeviceMapHost 0x08
#define musaDeviceLmemResizeToMax 0x10
#define musaDeviceSyncMemops 0x80
#define musaDeviceMask 0xff
#define musaOccupancyDefault 0x00
#define musaOccupancyDisableCachingOverride 0x01
#define musaCpuDeviceId ((int)-1)
#define musaInvalidDeviceId ((int)-2)
#define musaStreamDefault 0x00
#define musaStreamNonBlocking 0x01
#define musaStreamLegacy ((musaStream_t)0x1)
#define musaStreamPerThread ((musaStream_t)0x2)

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

musaError_t musaGetDeviceCount(int *count);
musaError_t musaSetDevice(int device);
musaError_t musaGetDevice(int *device);
musaError_t musaDeviceSynchronize(void);
musaError_t musaDeviceReset(void);
musaError_t musaDeviceGetP2PAttribute(int *value, enum musaDeviceP2PAttr attr, int srcDevice, int dstDevice);
musaError_t musaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
musaError_t musaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
musaError_t musaDeviceDisablePeerAccess(int peerDevice);
musaError_t musaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
musaError_t musaDeviceGetAttribute(int *value, enum musaDeviceAttr attr, int device);
musaError_t musaGetDeviceProperties(struct musaDeviceProp *prop, int device);
/* free: the device's memory less every simulated process's allocations on it; total: the device's memory. */
musaError_t musaMemGetInfo(size_t *free, size_t *total);
musaError_t musaDriverGetVersion(int *driverVersion);
musaError_t musaRuntimeGetVersion(int *runtimeVersion);
/* "0000:01:00.0" (domain:bus:device.function, hexadecimal), truncated to len bytes with its NUL. */
musaError_t musaDeviceGetPCIBusId(char *pciBusId, int len, int device);
musaError_t musaDeviceGetByPCIBusId(int *device, const char *pciBusId);
musaError_t musaDeviceSetLimit(enum musaLimit limit, size_t value);
musaError_t musaDeviceGetLimit(size_t *pValue, enum musaLimit limit);
musaError_t musaSetDeviceFlags(unsigned int flags);
/* The flags set for the current device, with musaDeviceMapHost (implicit in the runtime's contexts). */
musaError_t musaGetDeviceFlags(unsigned int *flags);
/* From the device's attributes, for a kernel with no static shared memory and no register limit; func is any
 * non-NULL pointer standing for the kernel (musaErrorInvalidDeviceFunction if NULL). */
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize);
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags);

/* ------------------------------------------------------------------------------------------------ streams */

musaError_t musaStreamCreate(musaStream_t *pStream);
musaError_t musaStreamCreateWithFlags(musaStream_t *pStream, unsigned int flags);
musaError_t musaStreamCreateWithPriority(musaStream_t *pStream, unsigned int flags, int priority);
musaError_t musaStreamDestroy(musaStream_t stream);
/* On the NULL stream (musaStreamLegacy): also all earlier work of the device's blocking streams. */
musaError_t musaStreamSynchronize(musaStream_t stream);
musaError_t musaStreamQuery(musaStream_t stream);
musaError_t musaStreamWaitEvent(musaStream_t stream, musaEvent_t event,
                                unsigned int flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaStreamGetFlags(musaStream_t hStream, unsigned int *flags);
musaError_t musaStreamGetPriority(musaStream_t hStream, int *priority);
/* Unique among the process's streams for its whole life (created streams: 1, 2, … in creation order). */
musaError_t musaStreamGetId(musaStream_t hStream, unsigned long long *streamId);
musaError_t musaStreamGetDevice(musaStream_t hStream, int *device);
/* A host function is not called once its stream has seen a device fault; a stream callback
 * (musaStreamAddCallback) is called exactly once, with musaSuccess or the fault's error (e.g. 719, 700). */
musaError_t musaLaunchHostFunc(musaStream_t stream, musaHostFn_t fn, void *userData);
musaError_t musaStreamAddCallback(musaStream_t stream, musaStreamCallback_t callback, void *userData,
                                  unsigned int flags);

/* ------------------------------------------------------------------------------------------------ events */

musaError_t musaEventCreate(musaEvent_t *event);
musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags);
musaError_t musaEventDestroy(musaEvent_t event);
musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaEventRecordWithFlags(musaEvent_t event, musaStream_t stream STREAMSIM_DEFAULT_ARG(0),
                                     unsigned int flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaEventQuery(musaEvent_t event);
musaError_t musaEventSynchronize(musaEvent_t event);
musaError_t musaEventElapsedTime(float *ms, musaEvent_t start, musaEvent_t end);
musaError_t musaIpcGetEventHandle(musaIpcEventHandle_t *handle, musaEvent_t event);
/* A handle that was not exported on this simulated machine or its shared host (zeroed, forged, of an earlier
 * run or another STREAMSIM_MACHINE) is musaErrorInvalidValue; streamsimGetLastErrorMessage says
 * why. The opened event belongs to the calling thread's current device (not the exporter's) and shares the
 * exporter's records: record it on a stream of that device. */
musaError_t musaIpcOpenEventHandle(musaEvent_t *event, musaIpcEventHandle_t handle);

/* Exports the device allocation holding devPtr (the whole allocation; the same handle each time). */
musaError_t musaIpcGetMemHandle(musaIpcMemHandle_t *handle, void *devPtr);
/* Maps memory exported by another process into this one's current device: a pointer of this process to the
 * same bytes (not a copy). In the exporting process: musaErrorDeviceUninitialized; freed or closed export:
 * musaErrorMapBufferObjectFailed; forged, stale or foreign handle: musaErrorInvalidValue. Opening the same handle
 * again on the same device returns the same pointer (a reference more). flags: 0 or
 * musaIpcMemLazyEnablePeerAccess. */
musaError_t musaIpcOpenMemHandle(void **devPtr, musaIpcMemHandle_t handle, unsigned int flags);
/* Drops one reference of a mapping made by musaIpcOpenMemHandle; the last unmaps it. */
musaError_t musaIpcCloseMemHandle(void *devPtr);

/* ------------------------------------------------------------------------------------------------ capture, graphs */

/* Refused on the NULL / legacy stream (musaErrorStreamCaptureUnsupported) and on a capturing stream
 * (musaErrorIllegalState). While a stream captures, its operations become graph nodes; a record on it makes a
 * captured event, and a stream that waits on that joins the capture. */
musaError_t musaStreamBeginCapture(musaStream_t stream, enum musaStreamCaptureMode mode);
/* *pGraph is NULL on failure: not capturing (musaErrorIllegalState), capture joined only
 * (musaErrorStreamCaptureUnmatched), another thread (musaErrorStreamCaptureWrongThread), invalidated
 * (musaErrorStreamCaptureInvalidated), forked work not joined back (musaErrorStreamCaptureUnjoined). */
musaError_t musaStreamEndCapture(musaStream_t stream, musaGraph_t *pGraph);
musaError_t musaStreamIsCapturing(musaStream_t stream, enum musaStreamCaptureStatus *pCaptureStatus);
/* The CUDA 12 signature. *dependencies_out stays valid until the next capture call about the stream or the end of
 * the capture. */
musaError_t musaStreamGetCaptureInfo(musaStream_t stream, enum musaStreamCaptureStatus *captureStatus_out,
                                    unsigned long long *id_out STREAMSIM_DEFAULT_ARG(0),
                                    musaGraph_t *graph_out STREAMSIM_DEFAULT_ARG(0),
                                    const musaGraphNode_t **dependencies_out STREAMSIM_DEFAULT_ARG(0),
                                    size_t *numDependencies_out STREAMSIM_DEFAULT_ARG(0));
musaError_t musaStreamUpdateCaptureDependencies(musaStream_t stream, musaGraphNode_t *dependencies,
                                               size_t numDependencies,
                                               unsigned int flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaThreadExchangeStreamCaptureMode(enum musaStreamCaptureMode *mode);
musaError_t musaGraphInstantiate(musaGraphExec_t *pGraphExec, musaGraph_t graph,
                                unsigned long long flags STREAMSIM_DEFAULT_ARG(0));
musaError_t musaGraphInstantiateWithFlags(musaGraphExec_t *pGraphExec, musaGraph_t graph,
                                         unsigned long long flags STREAMSIM_DEFAULT_ARG(0));
/* Ordered after the stream's earlier work and after the executable graph's previous launch; the nodes run as
 * early as their dependencies allow, on the graph's own tracks of the trace. */
musaError_t musaGraphLaunch(musaGraphExec_t graphExec, musaStream_t stream);
musaError_t musaGraphExecDestroy(musaGraphExec_t graphExec);
musaError_t musaGraphDestroy(musaGraph_t graph);
musaError_t musaGraphClone(musaGraph_t *pGraphClone, musaGraph_t originalGraph);
musaError_t musaGraphGetNodes(musaGraph_t graph, musaGraphNode_t *nodes, size_t *numNodes);
musaError_t musaGraphGetRootNodes(musaGraph_t graph, musaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
/* The CUDA 12 signature (no edge data). */
musaError_t musaGraphGetEdges(musaGraph_t graph, musaGraphNode_t *from, musaGraphNode_t *to, size_t *numEdges);
musaError_t musaGraphNodeGetType(musaGraphNode_t node, enum musaGraphNodeType *pType);
musaError_t musaGraphNodeGetDependencies(musaGraphNode_t node, musaGraphNode_t *pDependencies,
                                        size_t *pNumDependencies);
musaError_t musaGraphNodeGetDependentNodes(musaGraphNode_t node, musaGraphNode_t *pDependentNodes,
                                          size_t *pNumDependentNodes);
/* A file that cannot be written is musaErrorInvalidValue. */
musaError_t musaGraphDebugDotPrint(musaGraph_t graph, const char *path, unsigned int flags);
/* ---------------------------------------------------------------------------------------- graphs built by hand */

/* docs/semantics/graph-building.md. A kernel node's func is a kernel registered by a streamsim cc program; a plain C
 * program makes one by capturing musasimLaunchKernel into a graph and adding it as a child graph node. */
struct musaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

/* musaGraphNodeParams' members (MUSA 12.8's layouts). */
struct musaKernelNodeParamsV2 {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct musaMemcpyNodeParams {
    int flags;
    int reserved[3];
    struct musaMemcpy3DParms copyParams;
};
struct musaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct musaHostNodeParamsV2 {
    musaHostFn_t fn;
    void *userData;
};
struct musaChildGraphNodeParams {
    musaGraph_t graph;
};
struct musaEventWaitNodeParams {
    musaEvent_t event;
};
struct musaEventRecordNodeParams {
    musaEvent_t event;
};
/* Graph memory nodes (docs/semantics/graph-memory.md). */
struct musaMemAllocNodeParams {
    struct musaMemPoolProps poolProps;
    const struct musaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
struct musaMemAllocNodeParamsV2 {
    struct musaMemPoolProps poolProps;
    const struct musaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
struct musaMemFreeNodeParams {
    void *dptr;
};
struct musaGraphNodeParams {
    enum musaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct musaKernelNodeParamsV2 kernel;
        struct musaMemcpyNodeParams memcpy;
        struct musaMemsetParamsV2 memset;
        struct musaHostNodeParamsV2 host;
        struct musaChildGraphNodeParams graph;
        struct musaEventWaitNodeParams eventWait;
        struct musaEventRecordNodeParams eventRecord;
        struct musaMemAllocNodeParamsV2 alloc;
        struct musaMemFreeNodeParams free;
    };
    long long reserved2;
};

musaError_t musaGraphCreate(musaGraph_t *pGraph, unsigned int flags);
musaError_t musaGraphAddKernelNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct musaKernelNodeParams *pNodeParams);
musaError_t musaGraphAddMemcpyNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct musaMemcpy3DParms *pCopyParams);
musaError_t musaGraphAddMemcpyNode1D(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                     const musaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaGraphAddMemsetNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct musaMemsetParams *pMemsetParams);
musaError_t musaGraphAddHostNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct musaHostNodeParams *pNodeParams);
musaError_t musaGraphAddEventRecordNode(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                        const musaGraphNode_t *pDependencies, size_t numDependencies,
                                        musaEvent_t event);
musaError_t musaGraphAddEventWaitNode(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                      const musaGraphNode_t *pDependencies, size_t numDependencies, musaEvent_t event);
musaError_t musaGraphAddEmptyNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                  size_t numDependencies);
/* The child graph is copied into the node; instantiation inlines it. */
musaError_t musaGraphAddChildGraphNode(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                       const musaGraphNode_t *pDependencies, size_t numDependencies,
                                       musaGraph_t childGraph);
/* The MUSA 12.2 signature (no edge data). */
/* Graph memory nodes (docs/semantics/graph-memory.md): the allocation's address is fixed when the node is added
 * (written into nodeParams->dptr); each launch allocates it, a free node (or musaFree / musaFreeAsync / another
 * graph's free node) frees it. A graph with memory nodes cannot be cloned, used as a child graph, lose nodes or
 * edges, or be instantiated twice at a time (musaErrorNotSupported). */
musaError_t musaGraphAddMemAllocNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                    size_t numDependencies, struct musaMemAllocNodeParams *nodeParams);
musaError_t musaGraphAddMemFreeNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                                   size_t numDependencies, void *dptr);
musaError_t musaGraphMemAllocNodeGetParams(musaGraphNode_t node, struct musaMemAllocNodeParams *params_out);
musaError_t musaGraphMemFreeNodeGetParams(musaGraphNode_t node, void *dptr_out);
musaError_t musaDeviceGraphMemTrim(int device);
musaError_t musaDeviceGetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr, void *value);
musaError_t musaDeviceSetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr, void *value);
musaError_t musaGraphAddNode(musaGraphNode_t *pGraphNode, musaGraph_t graph, const musaGraphNode_t *pDependencies,
                             size_t numDependencies, struct musaGraphNodeParams *nodeParams);
/* The MUSA 12 signatures (no edge data). An edge that exists, or would close a cycle, is musaErrorInvalidValue. */
musaError_t musaGraphAddDependencies(musaGraph_t graph, const musaGraphNode_t *from, const musaGraphNode_t *to,
                                     size_t numDependencies);
musaError_t musaGraphRemoveDependencies(musaGraph_t graph, const musaGraphNode_t *from, const musaGraphNode_t *to,
                                        size_t numDependencies);
musaError_t musaGraphDestroyNode(musaGraphNode_t node);
/* Gives the kernel's parameter block as extra (CU_LAUNCH_PARAM_BUFFER_POINTER), kernelParams NULL. */
musaError_t musaGraphKernelNodeGetParams(musaGraphNode_t node, struct musaKernelNodeParams *pNodeParams);
musaError_t musaGraphKernelNodeSetParams(musaGraphNode_t node, const struct musaKernelNodeParams *pNodeParams);
musaError_t musaGraphMemcpyNodeGetParams(musaGraphNode_t node, struct musaMemcpy3DParms *pNodeParams);
musaError_t musaGraphMemcpyNodeSetParams(musaGraphNode_t node, const struct musaMemcpy3DParms *pNodeParams);
musaError_t musaGraphMemcpyNodeSetParams1D(musaGraphNode_t node, void *dst, const void *src, size_t count,
                                           enum musaMemcpyKind kind);
musaError_t musaGraphMemsetNodeGetParams(musaGraphNode_t node, struct musaMemsetParams *pNodeParams);
musaError_t musaGraphMemsetNodeSetParams(musaGraphNode_t node, const struct musaMemsetParams *pNodeParams);
musaError_t musaGraphHostNodeGetParams(musaGraphNode_t node, struct musaHostNodeParams *pNodeParams);
musaError_t musaGraphHostNodeSetParams(musaGraphNode_t node, const struct musaHostNodeParams *pNodeParams);
musaError_t musaGraphEventRecordNodeGetEvent(musaGraphNode_t node, musaEvent_t *event_out);
musaError_t musaGraphEventRecordNodeSetEvent(musaGraphNode_t node, musaEvent_t event);
musaError_t musaGraphEventWaitNodeGetEvent(musaGraphNode_t node, musaEvent_t *event_out);
musaError_t musaGraphEventWaitNodeSetEvent(musaGraphNode_t node, musaEvent_t event);
musaError_t musaGraphNodeGetParams(musaGraphNode_t node, struct musaGraphNodeParams *nodeParams);
musaError_t musaGraphNodeSetParams(musaGraphNode_t node, struct musaGraphNodeParams *nodeParams);
musaError_t musaGraphExecKernelNodeSetParams(musaGraphExec_t hGraphExec, musaGraphNode_t node,
                                             const struct musaKernelNodeParams *pNodeParams);
musaError_t musaGraphExecMemcpyNodeSetParams(musaGraphExec_t hGraphExec, musaGraphNode_t node,
                                             const struct musaMemcpy3DParms *pNodeParams);
musaError_t musaGraphExecMemcpyNodeSetParams1D(musaGraphExec_t hGraphExec, musaGraphNode_t node, void *dst,
                                               const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaGraphExecMemsetNodeSetParams(musaGraphExec_t hGraphExec, musaGraphNode_t node,
                                             const struct musaMemsetParams *pNodeParams);
musaError_t musaGraphExecHostNodeSetParams(musaGraphExec_t hGraphExec, musaGraphNode_t node,
                                           const struct musaHostNodeParams *pNodeParams);
musaError_t musaGraphExecEventRecordNodeSetEvent(musaGraphExec_t hGraphExec, musaGraphNode_t hNode,
                                                 musaEvent_t event);
musaError_t musaGraphExecEventWaitNodeSetEvent(musaGraphExec_t hGraphExec, musaGraphNode_t hNode, musaEvent_t event);
musaError_t musaGraphExecNodeSetParams(musaGraphExec_t graphExec, musaGraphNode_t node,
                                       struct musaGraphNodeParams *nodeParams);
/* The MUSA 12 signature; a graph it cannot take is musaErrorGraphExecUpdateFailure, with resultInfo saying why. */
musaError_t musaGraphExecUpdate(musaGraphExec_t hGraphExec, musaGraph_t hGraph,
                                musaGraphExecUpdateResultInfo *resultInfo);
/* Kernel, memcpy and memset nodes only; a disabled node runs as an empty node. */
musaError_t musaGraphNodeSetEnabled(musaGraphExec_t hGraphExec, musaGraphNode_t hNode, unsigned int isEnabled);
musaError_t musaGraphNodeGetEnabled(musaGraphExec_t hGraphExec, musaGraphNode_t hNode, unsigned int *isEnabled);
/* Nothing to upload (every node is resolved at each launch): checks its arguments. */
musaError_t musaGraphUpload(musaGraphExec_t graphExec, musaStream_t stream);
musaError_t musaGraphInstantiateWithParams(musaGraphExec_t *pGraphExec, musaGraph_t graph,
                                           musaGraphInstantiateParams *instantiateParams);
/* Capture into an existing graph: the captured nodes are added to graph, the first ones depending on
 * dependencies (nodes of graph); musaStreamEndCapture returns graph. dependencyData NULL or default edges (else
 * musaErrorNotSupported). */
musaError_t musaStreamBeginCaptureToGraph(musaStream_t stream, musaGraph_t graph, const musaGraphNode_t *dependencies,
                                         const musaGraphEdgeData *dependencyData, size_t numDependencies,
                                         enum musaStreamCaptureMode mode);
/* The node's embedded graph, not a copy: changes to it change the node. The node owns it (valid while the
 * node lives; musaGraphDestroy refuses it). */
musaError_t musaGraphChildGraphNodeGetGraph(musaGraphNode_t node, musaGraph_t *pGraph);
/* childGraph must have the topology and node order of the node's graph (else musaErrorInvalidValue). */
musaError_t musaGraphExecChildGraphNodeSetParams(musaGraphExec_t hGraphExec, musaGraphNode_t node,
                                                musaGraph_t childGraph);
musaError_t musaGraphNodeFindInClone(musaGraphNode_t *pNode, musaGraphNode_t originalNode, musaGraph_t clonedGraph);

/* ------------------------------------------------------------------------------------------------ memory */

musaError_t musaMalloc(void **devPtr, size_t size);
musaError_t musaFree(void *devPtr);
musaError_t musaMallocHost(void **ptr, size_t size);
musaError_t musaFreeHost(void *ptr);
musaError_t musaHostAlloc(void **pHost, size_t size, unsigned int flags);
/* The device pointer of pinned memory is its host pointer (one address space). */
musaError_t musaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
/* Registered memory behaves as pinned memory (copies read and write it when they run; races are tracked) until
 * musaHostUnregister; work still queued on it then touches no memory. */
musaError_t musaHostRegister(void *ptr, size_t size, unsigned int flags);
musaError_t musaHostUnregister(void *ptr);
musaError_t musaPointerGetAttributes(struct musaPointerAttributes *attributes, const void *ptr);
musaError_t musaMemcpy(void *dst, const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, enum musaMemcpyKind kind,
                            musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
enum musaLaunchAttributeID {
    musaLaunchAttributeIgnore = 0,
    musaLaunchAttributeAccessPolicyWindow = 1,
    musaLaunchAttributeCooperative = 2,
    musaLaunchAttributeSynchronizationPolicy = 3,
    musaLaunchAttributeClusterDimension = 4,
    musaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    musaLaunchAttributeProgrammaticStreamSerialization = 6,
    musaLaunchAttributeProgrammaticEvent = 7,
    musaLaunchAttributePriority = 8,
    musaLaunchAttributeMemSyncDomainMap = 9,
    musaLaunchAttributeMemSyncDomain = 10
};
typedef enum musaLaunchAttributeID musaLaunchAttributeID;
typedef union musaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    int priority;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
} musaLaunchAttributeValue;
typedef struct musaLaunchAttribute_st {
    musaLaunchAttributeID id;
    char pad[8 - sizeof(musaLaunchAttributeID)];
    musaLaunchAttributeValue val;
} musaLaunchAttribute;
typedef struct musaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    musaStream_t stream;
    musaLaunchAttribute *attrs;
    unsigned int numAttrs;
} musaLaunchConfig_t;
musaError_t musaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             musaStream_t stream);
musaError_t musaLaunchKernelExC(const musaLaunchConfig_t *config, const void *func, void **args);
musaError_t musaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        musaStream_t stream);
musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset STREAMSIM_DEFAULT_ARG(0),
                               enum musaMemcpyKind kind STREAMSIM_DEFAULT_ARG(musaMemcpyHostToDevice));
musaError_t musaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum musaMemcpyKind kind, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset STREAMSIM_DEFAULT_ARG(0),
                                 enum musaMemcpyKind kind STREAMSIM_DEFAULT_ARG(musaMemcpyDeviceToHost));
musaError_t musaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum musaMemcpyKind kind, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaGetSymbolAddress(void **devPtr, const void *symbol);
musaError_t musaGetSymbolSize(size_t *size, const void *symbol);
/* Memcpy nodes to and from a device variable (docs/semantics/graph-building.md). */
musaError_t musaGraphAddMemcpyNodeToSymbol(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                         const musaGraphNode_t *pDependencies, size_t numDependencies,
                                         const void *symbol, const void *src, size_t count, size_t offset,
                                         enum musaMemcpyKind kind);
musaError_t musaGraphAddMemcpyNodeFromSymbol(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                           const musaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                           const void *symbol, size_t count, size_t offset,
                                           enum musaMemcpyKind kind);
musaError_t musaFuncGetAttributes(struct musaFuncAttributes *attr, const void *func);
musaError_t musaFuncSetAttribute(const void *func, enum musaFuncAttribute attr, int value);
musaError_t musaFuncGetName(const char **name, const void *func);
musaError_t musaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemset(void *devPtr, int value, size_t count);
musaError_t musaMemsetAsync(void *devPtr, int value, size_t count,
                            musaStream_t stream STREAMSIM_DEFAULT_ARG(0));

/* ------------------------------------------------------------------------------------------------ stream-ordered
 * memory: musaMallocAsync allocates from the current pool of the stream's device, as an operation of the stream;
 * musaFreeAsync frees as one. A freed block is reused by a later allocation as the pool's reuse policies allow
 * (the same stream; an order by events; a free complete in virtual time; a synchronize); with race detection, an
 * access not ordered after the allocation or before the free is a "use before allocation" / "use after free"
 * report. musaFree of such memory does not synchronize. */

musaError_t musaMallocAsync(void **devPtr, size_t size, musaStream_t hStream);
musaError_t musaFreeAsync(void *devPtr, musaStream_t hStream);
musaError_t musaMallocFromPoolAsync(void **ptr, size_t size, musaMemPool_t memPool, musaStream_t stream);
musaError_t musaMemPoolCreate(musaMemPool_t *memPool, const struct musaMemPoolProps *poolProps);
musaError_t musaMemPoolDestroy(musaMemPool_t memPool);
musaError_t musaDeviceGetDefaultMemPool(musaMemPool_t *memPool, int device);
musaError_t musaDeviceSetMemPool(int device, musaMemPool_t memPool);
musaError_t musaDeviceGetMemPool(musaMemPool_t *memPool, int device);
musaError_t musaMemPoolSetAttribute(musaMemPool_t memPool, enum musaMemPoolAttr attr, void *value);
musaError_t musaMemPoolGetAttribute(musaMemPool_t memPool, enum musaMemPoolAttr attr, void *value);
musaError_t musaMemPoolTrimTo(musaMemPool_t memPool, size_t minBytesToKeep);
/* Access to a pool's memory from other devices: its own device always reads and writes it; a peer given
 * musaMemAccessFlagsProtReadWrite (it must be able to access the pool's device) may run copies and kernels on it.
 * IPC pools are not simulated: exporting a pool or a pointer, and importing, are refused (musaErrorInvalidValue,
 * as for a pool made without handle types). */
musaError_t musaMemPoolSetAccess(musaMemPool_t memPool, const struct musaMemAccessDesc *descList, size_t count);
musaError_t musaMemPoolGetAccess(enum musaMemAccessFlags *flags, musaMemPool_t memPool, struct musaMemLocation *location);
musaError_t musaMemPoolExportToShareableHandle(void *shareableHandle, musaMemPool_t memPool,
                                               enum musaMemAllocationHandleType handleType, unsigned int flags);
musaError_t musaMemPoolImportFromShareableHandle(musaMemPool_t *memPool, void *shareableHandle,
                                                 enum musaMemAllocationHandleType handleType, unsigned int flags);
musaError_t musaMemPoolExportPointer(struct musaMemPoolPtrExportData *exportData, void *ptr);
musaError_t musaMemPoolImportPointer(void **ptr, musaMemPool_t memPool, struct musaMemPoolPtrExportData *exportData);

/* ------------------------------------------------------------------------------------------------ pitched memory
 * (docs/semantics/pitched-memory.md): rows padded to the device's texturePitchAlignment (32 bytes in the default
 * profile); a 2-D / 3-D copy or memset is one operation of its stream costing what a 1-D copy of its bytes costs,
 * checked for races row by row. Capturing one is refused (musaErrorStreamCaptureUnsupported). */

musaError_t musaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
musaError_t musaMalloc3D(struct musaPitchedPtr *pitchedDevPtr, struct musaExtent extent);
musaError_t musaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum musaMemcpyKind kind);
musaError_t musaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum musaMemcpyKind kind, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemcpy3D(const struct musaMemcpy3DParms *p);
musaError_t musaMemcpy3DAsync(const struct musaMemcpy3DParms *p, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemcpy3DPeer(const struct musaMemcpy3DPeerParms *p);
musaError_t musaMemcpy3DPeerAsync(const struct musaMemcpy3DPeerParms *p, musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
musaError_t musaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemset3D(struct musaPitchedPtr pitchedDevPtr, int value, struct musaExtent extent);
musaError_t musaMemset3DAsync(struct musaPitchedPtr pitchedDevPtr, int value, struct musaExtent extent,
                              musaStream_t stream STREAMSIM_DEFAULT_ARG(0));

static inline struct musaPitchedPtr make_musaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct musaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}
static inline struct musaPos make_musaPos(size_t x, size_t y, size_t z) {
    struct musaPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}
static inline struct musaExtent make_musaExtent(size_t w, size_t h, size_t d) {
    struct musaExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}

/* ------------------------------------------------------------------------------------------------ managed
 * memory (docs/semantics/managed-memory.md): host memory at a host address that the host dereferences and the
 * kernels of every device reach; freed with musaFree. The CUDA 12 forms of prefetch and advice take a device
 * ordinal (musaCpuDeviceId: the host); the _v2 forms take a musaMemLocation (CUDA 13 names them without _v2). */

musaError_t musaMallocManaged(void **devPtr, size_t size, unsigned int flags STREAMSIM_DEFAULT_ARG(musaMemAttachGlobal));
musaError_t musaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                               musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct musaMemLocation location, unsigned int flags,
                                  musaStream_t stream STREAMSIM_DEFAULT_ARG(0));
musaError_t musaMemAdvise(const void *devPtr, size_t count, enum musaMemoryAdvise advice, int device);
musaError_t musaMemAdvise_v2(const void *devPtr, size_t count, enum musaMemoryAdvise advice, struct musaMemLocation location);
/* The association takes effect at the call; it matters on devices without concurrent managed access. */
musaError_t musaStreamAttachMemAsync(musaStream_t stream, void *devPtr, size_t length STREAMSIM_DEFAULT_ARG(0),
                                   unsigned int flags STREAMSIM_DEFAULT_ARG(musaMemAttachSingle));
musaError_t musaMemRangeGetAttribute(void *data, size_t dataSize, enum musaMemRangeAttribute attribute, const void *devPtr,
                                   size_t count);
musaError_t musaMemRangeGetAttributes(void **data, size_t *dataSizes, enum musaMemRangeAttribute *attributes,
                                    size_t numAttributes, const void *devPtr, size_t count);

/* ------------------------------------------------------------------------------------------------ errors */

musaError_t musaGetLastError(void);
musaError_t musaPeekAtLastError(void);
const char *musaGetErrorName(musaError_t error);
const char *musaGetErrorString(musaError_t error);

/* ------------------------------------------------------------------------------------------------ profiler */

/* Recorded in the trace as host events profiler_start(device N) / profiler_stop(device N). Also declared by
 * musa_profiler_api.h. */
musaError_t musaProfilerStart(void);
musaError_t musaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* STREAMSIM_MUSA_RUNTIME_API_H */
