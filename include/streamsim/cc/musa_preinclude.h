/*
 * musa_preinclude.h — what `streamsim cc` includes before every .mu file (MUSA's mcc pre-includes
 * musa_runtime.h): the device language and the MUSA runtime API. clang lowers `<<<…>>>` to the CUDA-named
 * entry points; the module's registration marks its kernels as MUSA's, so they launch on MUSA's machine.
 */
#ifndef STREAMSIM_CC_MUSA_PREINCLUDE_H
#define STREAMSIM_CC_MUSA_PREINCLUDE_H
#include "streamsim/cc/cuda_device.h"
#include <musa_runtime.h>
extern "C" {
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
int __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void **stream);
int cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, void *stream);
}
#endif
