/*
 * cuda_preinclude.h — what `streamsim cc` includes before every .cu file, as nvcc pre-includes
 * cuda_runtime.h: the device language (cuda_device.h), the runtime API, and the two functions clang's
 * lowering of `kernel<<<grid, block, shmem, stream>>>(args)` calls (the launch itself is cudaLaunchKernel).
 */
#ifndef STREAMSIM_CC_CUDA_PREINCLUDE_H
#define STREAMSIM_CC_CUDA_PREINCLUDE_H
#include "streamsim/cc/cuda_device.h"
#include <cuda_runtime.h>
extern "C" {
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void **stream);
}
/* The allocation and free calls say where they are (call_sites.h), after the runtime's own declarations. */
#include "streamsim/cc/call_sites.h"
#ifdef STREAMSIM_CC_CALL_SITES
#define cudaMalloc(...) STREAMSIM_CC_AT(cudaMalloc, __VA_ARGS__)
#define cudaMallocAsync(...) STREAMSIM_CC_AT(cudaMallocAsync, __VA_ARGS__)
#define cudaMallocFromPoolAsync(...) STREAMSIM_CC_AT(cudaMallocFromPoolAsync, __VA_ARGS__)
#define cudaMallocManaged(...) STREAMSIM_CC_AT(cudaMallocManaged, __VA_ARGS__)
#define cudaMallocHost(...) STREAMSIM_CC_AT(cudaMallocHost, __VA_ARGS__)
#define cudaHostAlloc(...) STREAMSIM_CC_AT(cudaHostAlloc, __VA_ARGS__)
#define cudaMallocPitch(...) STREAMSIM_CC_AT(cudaMallocPitch, __VA_ARGS__)
#define cudaMalloc3D(...) STREAMSIM_CC_AT(cudaMalloc3D, __VA_ARGS__)
#define cudaFree(...) STREAMSIM_CC_AT(cudaFree, __VA_ARGS__)
#define cudaFreeAsync(...) STREAMSIM_CC_AT(cudaFreeAsync, __VA_ARGS__)
#define cudaFreeHost(...) STREAMSIM_CC_AT(cudaFreeHost, __VA_ARGS__)
#endif
#endif
