/*
 * cuda_runtime_api.h — the C functions of the CUDA runtime API as streamsim simulates it (libstreamsim, no GPU
 * needed), as NVIDIA's header declares them; cuda_runtime.h includes it and adds the C++ overloads.
 *
 * Compile unchanged CUDA host code against this directory and link libstreamsim instead of libcudart:
 *     cc app.c -I include -L target/release -lstreamsim
 * Names, argument order, constants and error codes are CUDA's; the semantics are the rows of streamsim's
 * reference table (docs/semantics/cuda-musa.md). `kernel<<<…, stream>>>(…)` becomes cudasimLaunchKernel (see
 * streamsim.h). Only the functions below are simulated.
 */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

/* The runtime version these headers describe (what cudaRuntimeGetVersion returns): 12.8. __CUDART_API_VERSION
 * is the API version the declarations follow (NVIDIA's header: CUDART_VERSION unless a program asks for an
 * older API). */
#define CUDART_VERSION 12080
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif

#include <stddef.h>
#include <stdint.h>

#include "driver_types.h"
#include "vector_types.h"

#ifdef __cplusplus
extern "C" {
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
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
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

/* ---------------------------------------------------------------------------------------- graphs built by hand */

/* docs/semantics/graph-building.md. A kernel node's func is a kernel registered by a streamsim cc program; a plain C
 * program makes one by capturing cudasimLaunchKernel into a graph and adding it as a child graph node. */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

/* cudaGraphNodeParams' members (CUDA 12.8's layouts). */
struct cudaKernelNodeParamsV2 {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemcpyNodeParams {
    int flags;
    int reserved[3];
    struct cudaMemcpy3DParms copyParams;
};
struct cudaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaHostNodeParamsV2 {
    cudaHostFn_t fn;
    void *userData;
};
struct cudaChildGraphNodeParams {
    cudaGraph_t graph;
};
struct cudaEventWaitNodeParams {
    cudaEvent_t event;
};
struct cudaEventRecordNodeParams {
    cudaEvent_t event;
};
/* Graph memory nodes (docs/semantics/graph-memory.md). */
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
struct cudaMemAllocNodeParamsV2 {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
struct cudaMemFreeNodeParams {
    void *dptr;
};
struct cudaGraphNodeParams {
    enum cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParamsV2 kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParamsV2 memset;
        struct cudaHostNodeParamsV2 host;
        struct cudaChildGraphNodeParams graph;
        struct cudaEventWaitNodeParams eventWait;
        struct cudaEventRecordNodeParams eventRecord;
        struct cudaMemAllocNodeParamsV2 alloc;
        struct cudaMemFreeNodeParams free;
    };
    long long reserved2;
};

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies);
/* The child graph is copied into the node; instantiation inlines it. */
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph);
/* Graph memory nodes (docs/semantics/graph-memory.md): the allocation's address is fixed when the node is added
 * (written into nodeParams->dptr); each launch allocates it, a free node (or cudaFree / cudaFreeAsync / another
 * graph's free node) frees it. A graph with memory nodes cannot be cloned, used as a child graph, lose nodes or
 * edges, or be instantiated twice at a time (cudaErrorNotSupported). */
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                    size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, void *dptr);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
/* The CUDA 12.2 signature (no edge data). */
cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             size_t numDependencies, struct cudaGraphNodeParams *nodeParams);
/* The CUDA 12 signatures (no edge data). An edge that exists, or would close a cycle, is cudaErrorInvalidValue. */
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     size_t numDependencies);
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        size_t numDependencies);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
/* Gives the kernel's parameter block as extra (CU_LAUNCH_PARAM_BUFFER_POINTER), kernelParams NULL. */
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                               const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                 cudaEvent_t event);
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       struct cudaGraphNodeParams *nodeParams);
/* The CUDA 12 signature; a graph it cannot take is cudaErrorGraphExecUpdateFailure, with resultInfo saying why. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo);
/* Kernel, memcpy and memset nodes only; a disabled node runs as an empty node. */
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled);
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled);
/* Nothing to upload (every node is resolved at each launch): checks its arguments. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams);
/* Capture into an existing graph: the captured nodes are added to graph, the first ones depending on
 * dependencies (nodes of graph); cudaStreamEndCapture returns graph. dependencyData NULL or default edges (else
 * cudaErrorNotSupported). */
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                         const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                         enum cudaStreamCaptureMode mode);
/* The node's embedded graph, not a copy: changes to it change the node. The node owns it (valid while the
 * node lives; cudaGraphDestroy refuses it). */
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
/* childGraph must have the topology and node order of the node's graph (else cudaErrorInvalidValue). */
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                cudaGraph_t childGraph);
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph);

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
/* The extensible launch (cudaLaunchKernelExC; CUDA's layouts: a 64-byte value union, 72-byte attributes). */
typedef union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    int priority;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;
/* Kernels and device variables of programs built with `streamsim cc` (docs/semantics/kernels-on-the-cpu.md). */
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset STREAMSIM_DEFAULT_ARG(0),
                               enum cudaMemcpyKind kind STREAMSIM_DEFAULT_ARG(cudaMemcpyHostToDevice));
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset STREAMSIM_DEFAULT_ARG(0),
                                 enum cudaMemcpyKind kind STREAMSIM_DEFAULT_ARG(cudaMemcpyDeviceToHost));
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
/* Memcpy nodes to and from a device variable (docs/semantics/graph-building.md). */
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                         const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                           const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetName(const char **name, const void *func);
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
/* Access to a pool's memory from other devices: its own device always reads and writes it; a peer given
 * cudaMemAccessFlagsProtReadWrite (it must be able to access the pool's device) may run copies and kernels on it.
 * IPC pools are not simulated: exporting a pool or a pointer, and importing, are refused (cudaErrorInvalidValue,
 * as for a pool made without handle types). */
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count);
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool, struct cudaMemLocation *location);
cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                               enum cudaMemAllocationHandleType handleType, unsigned int flags);
cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                 enum cudaMemAllocationHandleType handleType, unsigned int flags);
cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr);
cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData);

/* ------------------------------------------------------------------------------------------------ pitched memory
 * (docs/semantics/pitched-memory.md): rows padded to the device's texturePitchAlignment (32 bytes in the default
 * profile); a 2-D / 3-D copy or memset is one operation of its stream costing what a 1-D copy of its bytes costs,
 * checked for races row by row. Capturing one is refused (cudaErrorStreamCaptureUnsupported). */

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct cudaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    struct cudaPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
    struct cudaExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}

/* ------------------------------------------------------------------------------------------------ managed
 * memory (docs/semantics/managed-memory.md): host memory at a host address that the host dereferences and the
 * kernels of every device reach; freed with cudaFree. The CUDA 12 forms of prefetch and advice take a device
 * ordinal (cudaCpuDeviceId: the host); the _v2 forms take a cudaMemLocation (CUDA 13 names them without _v2). */

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags STREAMSIM_DEFAULT_ARG(cudaMemAttachGlobal));
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                               cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                  cudaStream_t stream STREAMSIM_DEFAULT_ARG(0));
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location);
/* The association takes effect at the call; it matters on devices without concurrent managed access. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length STREAMSIM_DEFAULT_ARG(0),
                                   unsigned int flags STREAMSIM_DEFAULT_ARG(cudaMemAttachSingle));
cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute, const void *devPtr,
                                   size_t count);
cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
                                    size_t numAttributes, const void *devPtr, size_t count);

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
#endif

#endif /* __CUDA_RUNTIME_API_H__ */
