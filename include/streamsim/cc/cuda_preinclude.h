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
#endif
