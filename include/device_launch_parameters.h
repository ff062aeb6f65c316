/*
 * device_launch_parameters.h — the built-in variables of device code (threadIdx, blockIdx, blockDim, gridDim,
 * warpSize), declared as NVIDIA's header declares them for a host compiler (extern const). streamsim runs host
 * code only and defines none of them: host code that includes this header compiles, and code that reads one
 * fails to link (the simulator does not model threads: a kernel body of cudasimLaunchKernelCtx is one host
 * function over the kernel's whole range, see streamsim.h).
 */
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "vector_types.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
extern const int warpSize;

#ifdef __cplusplus
}
#endif

#endif /* __DEVICE_LAUNCH_PARAMETERS_H__ */
