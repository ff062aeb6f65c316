/*
 * musa_runtime.h — the MUSA (Moore Threads) runtime API as streamsim simulates it (libstreamsim, no GPU
 * needed).
 *
 * Compile unchanged MUSA host code against this directory and link libstreamsim instead of libmusart:
 *     cc app.c -I include -L target/release -lstreamsim
 * MUSA mirrors the CUDA runtime: musaX = cudaX, with the same argument order, constants and error codes (see
 * cuda_runtime.h); the semantics are the rows of streamsim's reference table (docs/semantics/cuda-musa.md).
 * `kernel<<<…, stream>>>(…)` becomes musasimLaunchKernel (see streamsim.h). Only the functions below are
 * simulated. The C functions and types are in musa_runtime_api.h; this header adds the C++ overloads.
 */
#ifndef STREAMSIM_MUSA_RUNTIME_H
#define STREAMSIM_MUSA_RUNTIME_H

#include "musa_runtime_api.h"

#ifdef __cplusplus

/* ------------------------------------------------------------------------------------------------ C++ API */

/* The C++ overloads of MUSA 12's musa_runtime.h for the functions of musa_runtime_api.h. */

/* The CUDA 11 signature, kept by CUDA 12's header for C++ (the error node and log are not written). */
static inline musaError_t musaGraphInstantiate(musaGraphExec_t *pGraphExec, musaGraph_t graph,
                                              musaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return ::musaGraphInstantiate(pGraphExec, graph, 0);
}
/* The CUDA 11 signature of musaGraphExecUpdate, kept by CUDA 12's header for C++. */
static inline musaError_t musaGraphExecUpdate(musaGraphExec_t hGraphExec, musaGraph_t hGraph,
                                             musaGraphNode_t *hErrorNode_out,
                                             enum musaGraphExecUpdateResult *updateResult_out) {
    musaGraphExecUpdateResultInfo resultInfo;
    musaError_t status = ::musaGraphExecUpdate(hGraphExec, hGraph, &resultInfo);
    if (hErrorNode_out) {
        *hErrorNode_out = resultInfo.errorNode;
    }
    if (updateResult_out) {
        *updateResult_out = resultInfo.result;
    }
    return status;
}
static inline musaError_t musaEventCreate(musaEvent_t *event, unsigned int flags) {
    return ::musaEventCreateWithFlags(event, flags);
}

static inline musaError_t musaMallocHost(void **ptr, size_t size, unsigned int flags) {
    return ::musaHostAlloc(ptr, size, flags);
}

static inline musaError_t musaMallocAsync(void **ptr, size_t size, musaMemPool_t memPool, musaStream_t stream) {
    return ::musaMallocFromPoolAsync(ptr, size, memPool, stream);
}

/* CUDA's cudaLaunchKernelEx: the arguments converted to the kernel's parameter types, then their addresses (a
   kernel without parameters gets an array holding NULL). */
template <typename... ExpTypes, typename... ActTypes>
static inline musaError_t musaLaunchKernelEx(const musaLaunchConfig_t *config, void (*kernel)(ExpTypes...),
                                            ActTypes &&...args) {
    return [&](ExpTypes... coercedArgs) {
        void *pArgs[] = {&coercedArgs..., nullptr};
        return ::musaLaunchKernelExC(config, (const void *)kernel, pArgs);
    }(static_cast<ActTypes &&>(args)...);
}

template <class T> static inline musaError_t musaFuncGetAttributes(struct musaFuncAttributes *attr, T *entry) {
    return ::musaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static inline musaError_t musaFuncSetAttribute(T *entry, enum musaFuncAttribute attr, int value) {
    return ::musaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> static inline musaError_t musaFuncGetName(const char **name, T *func) {
    return ::musaFuncGetName(name, (const void *)func);
}
/* The symbol calls on a variable itself (as CUDA's templates). */
template <class T>
static inline musaError_t musaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             enum musaMemcpyKind kind = musaMemcpyHostToDevice) {
    return ::musaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline musaError_t musaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                  size_t offset = 0,
                                                  enum musaMemcpyKind kind = musaMemcpyHostToDevice,
                                                  musaStream_t stream = 0) {
    return ::musaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static inline musaError_t musaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               enum musaMemcpyKind kind = musaMemcpyDeviceToHost) {
    return ::musaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static inline musaError_t musaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                    enum musaMemcpyKind kind = musaMemcpyDeviceToHost,
                                                    musaStream_t stream = 0) {
    return ::musaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> static inline musaError_t musaGetSymbolAddress(void **devPtr, const T &symbol) {
    return ::musaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> static inline musaError_t musaGetSymbolSize(size_t *size, const T &symbol) {
    return ::musaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static inline musaError_t musaGraphAddMemcpyNodeToSymbol(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                                     const musaGraphNode_t *pDependencies, size_t numDependencies,
                                                     const T &symbol, const void *src, size_t count, size_t offset,
                                                     enum musaMemcpyKind kind) {
    return ::musaGraphAddMemcpyNodeToSymbol(pGraphNode, graph, pDependencies, numDependencies, (const void *)&symbol,
                                           src, count, offset, kind);
}
template <class T>
static inline musaError_t musaGraphAddMemcpyNodeFromSymbol(musaGraphNode_t *pGraphNode, musaGraph_t graph,
                                                       const musaGraphNode_t *pDependencies, size_t numDependencies,
                                                       void *dst, const T &symbol, size_t count, size_t offset,
                                                       enum musaMemcpyKind kind) {
    return ::musaGraphAddMemcpyNodeFromSymbol(pGraphNode, graph, pDependencies, numDependencies, dst,
                                             (const void *)&symbol, count, offset, kind);
}
template <class T>
static inline musaError_t musaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
                                           musaStream_t stream = 0) {
    return ::musaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static inline musaError_t musaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                      size_t sharedMem = 0, musaStream_t stream = 0) {
    return ::musaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

template <class T> static inline musaError_t musaMallocAsync(T **ptr, size_t size, musaMemPool_t memPool, musaStream_t stream) {
    return ::musaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template <class T> static inline musaError_t musaMallocAsync(T **ptr, size_t size, musaStream_t stream) {
    return ::musaMallocAsync((void **)(void *)ptr, size, stream);
}

template <class T>
static inline musaError_t musaMallocFromPoolAsync(T **ptr, size_t size, musaMemPool_t memPool, musaStream_t stream) {
    return ::musaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template <class T>
static inline musaError_t musaMallocManaged(T **devPtr, size_t size, unsigned int flags = musaMemAttachGlobal) {
    return ::musaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T> static inline musaError_t musaStreamAttachMemAsync(musaStream_t stream, T *devPtr, size_t length = 0,
                                                                 unsigned int flags = musaMemAttachSingle) {
    return ::musaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

template <class T> static inline musaError_t musaMalloc(T **devPtr, size_t size) {
    return ::musaMalloc((void **)(void *)devPtr, size);
}

template <class T> static inline musaError_t musaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
    return ::musaMallocHost((void **)(void *)ptr, size, flags);
}

template <class T> static inline musaError_t musaHostAlloc(T **ptr, size_t size, unsigned int flags) {
    return ::musaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T> static inline musaError_t musaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
    return ::musaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template <class T>
static inline musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize) {
    return ::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, musaOccupancyDefault);
}

template <class T>
static inline musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize,
                                                                                 unsigned int flags) {
    return ::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, flags);
}

/* The block size with the highest occupancy (MUSA's algorithm: every block size from the limit down by whole
 * warps, the first with the most resident threads wins) and the grid that fills the device with it. The
 * simulator's kernels have no per-function thread limit, so the limit is the device's (or blockSizeLimit). */
template <typename UnaryFunction, class T>
static inline musaError_t musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
    if (!minGridSize || !blockSize || !func) {
        return musaErrorInvalidValue;
    }
    int device = 0, maxThreadsPerSM = 0, warp = 0, devMaxThreadsPerBlock = 0, smCount = 0;
    musaError_t status = ::musaGetDevice(&device);
    if (status == musaSuccess)
        status = ::musaDeviceGetAttribute(&maxThreadsPerSM, musaDevAttrMaxThreadsPerMultiProcessor, device);
    if (status == musaSuccess) status = ::musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, device);
    if (status == musaSuccess)
        status = ::musaDeviceGetAttribute(&devMaxThreadsPerBlock, musaDevAttrMaxThreadsPerBlock, device);
    if (status == musaSuccess) status = ::musaDeviceGetAttribute(&smCount, musaDevAttrMultiProcessorCount, device);
    if (status != musaSuccess) {
        return status;
    }
    if (warp <= 0) {
        return musaErrorInvalidValue;
    }
    if (blockSizeLimit == 0 || devMaxThreadsPerBlock < blockSizeLimit) {
        blockSizeLimit = devMaxThreadsPerBlock;
    }
    int best = 0, bestBlocks = 0, bestThreads = 0;
    for (int aligned = ((blockSizeLimit + warp - 1) / warp) * warp; aligned > 0; aligned -= warp) {
        int tryBlock = blockSizeLimit < aligned ? blockSizeLimit : aligned;
        int blocks = 0;
        status = ::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, tryBlock, (size_t)blockSizeToDynamicSMemSize(tryBlock), flags);
        if (status != musaSuccess) {
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
static inline musaError_t musaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                                                         UnaryFunction blockSizeToDynamicSMemSize,
                                                                         int blockSizeLimit = 0) {
    return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                   blockSizeToDynamicSMemSize, blockSizeLimit,
                                                                   musaOccupancyDefault);
}

template <class T>
static inline musaError_t musaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
    return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, streamsimOccupancyConstantSMem(dynamicSMemSize), blockSizeLimit,
        musaOccupancyDefault);
}

template <class T>
static inline musaError_t musaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                      size_t dynamicSMemSize = 0,
                                                                      int blockSizeLimit = 0,
                                                                      unsigned int flags = 0) {
    return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, streamsimOccupancyConstantSMem(dynamicSMemSize), blockSizeLimit, flags);
}
#endif

#include "streamsim.h"

#endif /* STREAMSIM_MUSA_RUNTIME_H */
