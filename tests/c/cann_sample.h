/*
 * cann_sample.h — what the CANN runtime's samples (github.com/hicann/runtime, example/) get from their
 * example/utils.h and example/kernel_func/kernel_ops.h, for the ports in tests/c (C11 and C++17):
 *
 * - INFO_LOG / WARN_LOG / ERROR_LOG / CHECK_ERROR / CHECK_ERROR_WITHOUT_RETURN, as utils.h defines them (written
 *   with __VA_ARGS__ instead of the GNU `args...`, so that they compile as standard C11);
 * - the sample kernels EasyOP (x += 1), ErrorOP (a trap), LongOP (a long task, x += 1) and ShortOP (x *= 2), with
 *   the launch `Kernel<<<blockDim, nullptr, stream>>>(x)` replaced by the kernel stand-in aclsimLaunchKernel /
 *   aclsimLaunchFallibleKernel (streamsim.h). A stand-in's body cannot write device memory, so the kernels
 *   compute on a host mirror of the sample's one device counter, `cann_mirror` (the value the sample would read
 *   back), in the order the stream runs them. Virtual durations: EasyOP and ShortOP 10 µs, LongOP 2 s (longer
 *   than the 1000 ms timeouts the samples use to show a timeout), ErrorOP 10 µs, then a fault
 *   (ACL_ERROR_RT_AICORE_EXCEPTION at the next synchronize; the vendor's own output shows 507035, a vector-core
 *   exception, for its ErrorOP).
 */
#ifndef STREAMSIM_TESTS_CANN_SAMPLE_H
#define STREAMSIM_TESTS_CANN_SAMPLE_H

#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

#define INFO_LOG(...) (fprintf(stdout, "[INFO]  "), fprintf(stdout, __VA_ARGS__), fprintf(stdout, "\n"))
#define WARN_LOG(...) (fprintf(stdout, "[WARN]  "), fprintf(stdout, __VA_ARGS__), fprintf(stdout, "\n"))
#define ERROR_LOG(...) (fprintf(stdout, "[ERROR]  "), fprintf(stdout, __VA_ARGS__), fprintf(stdout, "\n"))

#define CHECK_ERROR(call)                                                                              \
    do {                                                                                               \
        aclError __ret = (call);                                                                       \
        if (__ret != ACL_SUCCESS) {                                                                    \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int32_t)__ret);           \
            return -1;                                                                                 \
        }                                                                                              \
    } while (0)

#define CHECK_ERROR_WITHOUT_RETURN(call)                                                               \
    do {                                                                                               \
        aclError __ret = (call);                                                                       \
        if (__ret != ACL_SUCCESS) {                                                                    \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int32_t)__ret);           \
        }                                                                                              \
    } while (0)

/* The host mirror of the sample's device counter (see above). */
static uint32_t cann_mirror = 0;

static void cann_easy_body(void *arg) { (void)arg; cann_mirror += 1; }
static void cann_short_body(void *arg) { (void)arg; cann_mirror *= 2; }
static int cann_error_body(void *arg) { (void)arg; return STREAMSIM_FAULT_LAUNCH_FAILURE; }

static inline void EasyOP(uint32_t blockDim, void *stream, uint32_t *x) {
    (void)blockDim;
    (void)x;
    (void)aclsimLaunchKernel(stream, "EasyOPf", 10000, cann_easy_body, NULL);
}

static inline void ErrorOP(uint32_t blockDim, void *stream) {
    (void)blockDim;
    (void)aclsimLaunchFallibleKernel(stream, "ErrorOPf", 10000, cann_error_body, NULL);
}

static inline void LongOP(uint32_t blockDim, void *stream, uint32_t *x) {
    (void)blockDim;
    (void)x;
    (void)aclsimLaunchKernel(stream, "LongOPf", 2000000000ull, cann_easy_body, NULL);
}

static inline void ShortOP(uint32_t blockDim, void *stream, uint32_t *x) {
    (void)blockDim;
    (void)x;
    (void)aclsimLaunchKernel(stream, "ShortOPf", 10000, cann_short_body, NULL);
}

#endif
