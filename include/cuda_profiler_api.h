/*
 * cuda_profiler_api.h — CUDA's profiler control header, as streamsim provides it: cudaProfilerStart and
 * cudaProfilerStop, which cuda_runtime.h declares (each call is recorded in the trace as a host event).
 */
#ifndef STREAMSIM_CUDA_PROFILER_API_H
#define STREAMSIM_CUDA_PROFILER_API_H

#include "cuda_runtime.h"

#endif /* STREAMSIM_CUDA_PROFILER_API_H */
