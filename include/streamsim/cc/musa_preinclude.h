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
/* The allocation and free calls say where they are (call_sites.h), after the runtime's own declarations. */
#include "streamsim/cc/call_sites.h"
#ifdef STREAMSIM_CC_CALL_SITES
#define musaMalloc(...) STREAMSIM_CC_AT(musaMalloc, __VA_ARGS__)
#define musaMallocAsync(...) STREAMSIM_CC_AT(musaMallocAsync, __VA_ARGS__)
#define musaMallocFromPoolAsync(...) STREAMSIM_CC_AT(musaMallocFromPoolAsync, __VA_ARGS__)
#define musaMallocManaged(...) STREAMSIM_CC_AT(musaMallocManaged, __VA_ARGS__)
#define musaMallocHost(...) STREAMSIM_CC_AT(musaMallocHost, __VA_ARGS__)
#define musaHostAlloc(...) STREAMSIM_CC_AT(musaHostAlloc, __VA_ARGS__)
#define musaMallocPitch(...) STREAMSIM_CC_AT(musaMallocPitch, __VA_ARGS__)
#define musaMalloc3D(...) STREAMSIM_CC_AT(musaMalloc3D, __VA_ARGS__)
#define musaFree(...) STREAMSIM_CC_AT(musaFree, __VA_ARGS__)
#define musaFreeAsync(...) STREAMSIM_CC_AT(musaFreeAsync, __VA_ARGS__)
#define musaFreeHost(...) STREAMSIM_CC_AT(musaFreeHost, __VA_ARGS__)
#endif
#endif
