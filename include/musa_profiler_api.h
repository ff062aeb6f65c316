/*
 * musa_profiler_api.h — MUSA's profiler control header, as streamsim provides it: musaProfilerStart and
 * musaProfilerStop, which musa_runtime.h declares (each call is recorded in the trace as a host event).
 */
#ifndef STREAMSIM_MUSA_PROFILER_API_H
#define STREAMSIM_MUSA_PROFILER_API_H

#include "musa_runtime.h"

#endif /* STREAMSIM_MUSA_PROFILER_API_H */
