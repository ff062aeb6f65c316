/*
 * cuda_runtime.h — the CUDA runtime API as streamsim simulates it (libstreamsim, no GPU needed).
 *
 * Compile unchanged CUDA host code against this directory and link libstreamsim instead of libcudart:
 *     cc app.c -I include -L target/release -lstreamsim
 * Names, argument order, constants and error codes are CUDA's; the semantics are the rows of streamsim's
 * reference table (docs/semantics/cuda-musa.md). `kernel<<<…, stream>>>(…)` becomes cudasimLaunchKernel (see
 * streamsim.h). The C functions are declared in cuda_runtime_api.h (which includes driver_types.h and
 * vector_types.h, as NVIDIA's does); this header adds vector_functions.h (the make_* functions) and the C++
 * overloads of NVIDIA's cuda_runtime.h.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
/* streamsim.h declares its cudasim* section when this is defined. */
#define STREAMSIM_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"
#include "vector_functions.h"

#ifdef __cplusplus

/* ------------------------------------------------------------------------------------------------ C++ API */

/* The C++ overloads of CUDA 12's cuda_runtime.h for the functions of cuda_runtime_api.h. */

/* The CUDA 11 signature, kept by CUDA 12's header for C++ (the error node and log are not written). */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                              cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
/* The CUDA 11 signature of cudaGraphExecUpdate, kept by CUDA 12's header for C++. */
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                             cudaGraphNode_t *hErrorNode_out,
                                             enum cudaGraphExecUpdateResult *updateResult_out) {
    cudaGraphExecUpdateResultInfo resultInfo;
    cudaError_t status = ::cudaGraphExecUpdate(hGraphExec, hGraph, &resultInfo);
    if (hErrorNode_out) {
        *hErrorNode_out = resultInfo.errorNode;
    }
    if (updateResult_out) {
        *updateResult_out = resultInfo.result;
    }
    return status;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
    return ::cudaEventCreateWithFlags(event, flags);
}

static inline cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc(ptr, size, flags);
}

/* CUDA's cudaLaunchKernelEx: the arguments converted to the kernel's parameter types, then their addresses (a
   kernel without parameters gets an array holding NULL). */
template <typename... ExpTypes, typename... ActTypes>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...),
                                            ActTypes &&...args) {
    return [&](ExpTypes... coercedArgs) {
        void *pArgs[] = {&coercedArgs..., nullptr};
        return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
    }(static_cast<ActTypes &&>(args)...);
}

template <class T> static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
    return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
    return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> static inline cudaError_t cudaFuncGetName(const char **name, T *func) {
    return ::cudaFuncGetName(name, (const void *)func);
}
/* The symbol calls on a variable itself (nvcc's templates). */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                  size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t stream = 0) {
    return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0) {
    return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
    return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
    return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static inline cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                     const T &symbol, const void *src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind) {
    return ::cudaGraphAddMemcpyNodeToSymbol(pGraphNode, graph, pDependencies, numDependencies, (const void *)&symbol,
                                           src, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                       void *dst, const T &symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind) {
    return ::cudaGraphAddMemcpyNodeFromSymbol(pGraphNode, graph, pDependencies, numDependencies, dst,
                                             (const void *)&symbol, count, offset, kind);
}
template <class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
                                           cudaStream_t stream = 0) {
    return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                      size_t sharedMem = 0, cudaStream_t stream = 0) {
    return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
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

template <class T>
static inline cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
    return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T> static inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                                                 unsigned int flags = cudaMemAttachSingle) {
    return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
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

#endif /* __CUDA_RUNTIME_H__ */
