/*
 * cuda_device.h — the CUDA device language for kernels that `streamsim cc` runs on the CPU: the execution
 * space attributes, the built-in variables, barriers, atomics, warp functions, the math library, printf and
 * assert. `streamsim cc` includes it (through its dialect's pre-include) in both of clang's passes over a
 * `.cu` file; the device pass is rewritten for the host by src/tools/cc/ir.rs and runs on the functions of
 * kernel_rt.c. What is here and what is not: docs/semantics/kernels-on-the-cpu.md.
 */
#ifndef STREAMSIM_CC_CUDA_DEVICE_H
#define STREAMSIM_CC_CUDA_DEVICE_H

#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
#ifndef __managed__
/* A managed variable is a __device__ variable in a marker section: `streamsim cc` makes the host side refer to
 * the device definition (one copy, host memory that kernels and host code share) and registers it as managed
 * memory (src/tools/cc/ir.rs, docs/semantics/managed-memory.md). */
#define __managed__ __attribute__((device, section("__ssk_managed")))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#ifndef __noinline__
#define __noinline__ __attribute__((noinline))
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif
#ifndef __CUDA_ARCH__
#define STREAMSIM_CC_HOST_PASS 1
#endif

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#include <__clang_cuda_math_forward_declares.h>
#include <cmath>
#include <new>
#endif

#include "vector_types.h"

/* ------------------------------------------------------------------ the C library in device code */
#define STREAMSIM_DEV_F1(name) __device__ float name##f(float); __device__ double name(double);
#define STREAMSIM_DEV_F2(name) __device__ float name##f(float, float); __device__ double name(double, double);
#ifdef __cplusplus
extern "C" {
#endif
STREAMSIM_DEV_F1(sin) STREAMSIM_DEV_F1(cos) STREAMSIM_DEV_F1(tan) STREAMSIM_DEV_F1(asin) STREAMSIM_DEV_F1(acos)
STREAMSIM_DEV_F1(atan) STREAMSIM_DEV_F1(sinh) STREAMSIM_DEV_F1(cosh) STREAMSIM_DEV_F1(tanh) STREAMSIM_DEV_F1(asinh)
STREAMSIM_DEV_F1(acosh) STREAMSIM_DEV_F1(atanh) STREAMSIM_DEV_F1(exp) STREAMSIM_DEV_F1(exp2) STREAMSIM_DEV_F1(expm1)
STREAMSIM_DEV_F1(log) STREAMSIM_DEV_F1(log2) STREAMSIM_DEV_F1(log10) STREAMSIM_DEV_F1(log1p) STREAMSIM_DEV_F1(logb)
STREAMSIM_DEV_F1(sqrt) STREAMSIM_DEV_F1(cbrt) STREAMSIM_DEV_F1(ceil) STREAMSIM_DEV_F1(floor) STREAMSIM_DEV_F1(trunc)
STREAMSIM_DEV_F1(round) STREAMSIM_DEV_F1(rint) STREAMSIM_DEV_F1(nearbyint) STREAMSIM_DEV_F1(fabs) STREAMSIM_DEV_F1(erf)
STREAMSIM_DEV_F1(erfc) STREAMSIM_DEV_F1(tgamma) STREAMSIM_DEV_F1(lgamma) STREAMSIM_DEV_F1(exp10)
STREAMSIM_DEV_F2(pow) STREAMSIM_DEV_F2(atan2) STREAMSIM_DEV_F2(fmod) STREAMSIM_DEV_F2(fmin) STREAMSIM_DEV_F2(fmax)
STREAMSIM_DEV_F2(hypot) STREAMSIM_DEV_F2(copysign) STREAMSIM_DEV_F2(fdim) STREAMSIM_DEV_F2(remainder)
STREAMSIM_DEV_F2(nextafter)
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float frexpf(float, int *);
__device__ double frexp(double, int *);
__device__ float modff(float, float *);
__device__ double modf(double, double *);
__device__ float scalbnf(float, int);
__device__ double scalbn(double, int);
__device__ int ilogbf(float);
__device__ int ilogb(double);
__device__ long lroundf(float);
__device__ long lround(double);
__device__ long long llroundf(float);
__device__ long long llround(double);
__device__ long lrintf(float);
__device__ long lrint(double);
__device__ long long llrintf(float);
__device__ long long llrint(double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
__device__ int abs(int);
__device__ long labs(long);
__device__ long long llabs(long long);
__device__ int printf(const char *, ...);
__device__ void *malloc(size_t);
__device__ void free(void *);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assert_fail(const char *, const char *, unsigned int, const char *);
#ifdef __cplusplus
}
#endif
#undef STREAMSIM_DEV_F1
#undef STREAMSIM_DEV_F2

/* What clang's device cmath builds on (its __clang_cuda_math.h, over libdevice, has them). */
#define STREAMSIM_DM static __device__ __inline__ __attribute__((always_inline))
STREAMSIM_DM int __finitef(float x) { return __builtin_isfinite(x); }
STREAMSIM_DM int __isfinited(double x) { return __builtin_isfinite(x); }
STREAMSIM_DM int __isinff(float x) { return __builtin_isinf(x); }
STREAMSIM_DM int __isinf(double x) { return __builtin_isinf(x); }
STREAMSIM_DM int __isnanf(float x) { return __builtin_isnan(x); }
STREAMSIM_DM int __isnan(double x) { return __builtin_isnan(x); }
STREAMSIM_DM int __signbitf(float x) { return __builtin_signbit(x); }
STREAMSIM_DM int __signbitd(double x) { return __builtin_signbit(x); }
STREAMSIM_DM float powif(float x, int n) { return __builtin_powif(x, n); }
STREAMSIM_DM double powi(double x, int n) { return __builtin_powi(x, n); }
#ifdef __cplusplus
/* The double overloads clang's forward declarations name (its __clang_cuda_math.h defines them over libdevice):
 * the C library's functions, through the compiler's builtins. */
#define STREAMSIM_DD1(name) STREAMSIM_DM double name(double x) { return __builtin_##name(x); }
#define STREAMSIM_DD2(name) STREAMSIM_DM double name(double x, double y) { return __builtin_##name(x, y); }
STREAMSIM_DD1(acos) STREAMSIM_DD1(acosh) STREAMSIM_DD1(asin) STREAMSIM_DD1(asinh) STREAMSIM_DD1(atan)
STREAMSIM_DD1(atanh) STREAMSIM_DD1(cbrt) STREAMSIM_DD1(ceil) STREAMSIM_DD1(cos) STREAMSIM_DD1(cosh) STREAMSIM_DD1(erfc)
STREAMSIM_DD1(erf) STREAMSIM_DD1(exp2) STREAMSIM_DD1(exp) STREAMSIM_DD1(expm1) STREAMSIM_DD1(fabs) STREAMSIM_DD1(floor)
STREAMSIM_DD1(lgamma) STREAMSIM_DD1(log10) STREAMSIM_DD1(log1p) STREAMSIM_DD1(log2) STREAMSIM_DD1(logb)
STREAMSIM_DD1(log) STREAMSIM_DD1(nearbyint) STREAMSIM_DD1(rint) STREAMSIM_DD1(round) STREAMSIM_DD1(sin)
STREAMSIM_DD1(sinh) STREAMSIM_DD1(sqrt) STREAMSIM_DD1(tan) STREAMSIM_DD1(tanh) STREAMSIM_DD1(tgamma)
STREAMSIM_DD1(trunc)
STREAMSIM_DD2(atan2) STREAMSIM_DD2(copysign) STREAMSIM_DD2(fdim) STREAMSIM_DD2(fmax) STREAMSIM_DD2(fmin)
STREAMSIM_DD2(fmod) STREAMSIM_DD2(hypot) STREAMSIM_DD2(nextafter) STREAMSIM_DD2(pow) STREAMSIM_DD2(remainder)
#undef STREAMSIM_DD1
#undef STREAMSIM_DD2
#endif
#undef STREAMSIM_DM
#ifdef __cplusplus
#include <__clang_cuda_cmath.h>
#endif

/* min / max in the global namespace, for host and device code, as nvcc's headers provide them (the usual
 * arithmetic conversions pick the overload: a mixed signed / unsigned pair is compared unsigned). */
#ifdef __cplusplus
#define STREAMSIM_MINMAX(T)                                                                                   \
    static __host__ __device__ inline T min(T a, T b) { return b < a ? b : a; }                              \
    static __host__ __device__ inline T max(T a, T b) { return a < b ? b : a; }
STREAMSIM_MINMAX(int)
STREAMSIM_MINMAX(unsigned int)
STREAMSIM_MINMAX(long)
STREAMSIM_MINMAX(unsigned long)
STREAMSIM_MINMAX(long long)
STREAMSIM_MINMAX(unsigned long long)
#undef STREAMSIM_MINMAX
static __host__ __device__ inline float min(float a, float b) { return fminf(a, b); }
static __host__ __device__ inline float max(float a, float b) { return fmaxf(a, b); }
static __host__ __device__ inline double min(double a, double b) { return fmin(a, b); }
static __host__ __device__ inline double max(double a, double b) { return fmax(a, b); }
static __host__ __device__ inline double min(float a, double b) { return fmin(a, b); }
static __host__ __device__ inline double max(float a, double b) { return fmax(a, b); }
static __host__ __device__ inline double min(double a, float b) { return fmin(a, b); }
static __host__ __device__ inline double max(double a, float b) { return fmax(a, b); }
static __host__ __device__ inline unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static __host__ __device__ inline unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static __host__ __device__ inline unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static __host__ __device__ inline unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
#endif

/* ------------------------------------------------------------------ built-in variables */
#ifdef __cplusplus
#include <__clang_cuda_builtin_vars.h>
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }
#endif

/* ------------------------------------------------------------------ the runtime's device functions */
extern "C" {
__device__ void __ssk_syncthreads(void);
__device__ int __ssk_syncthreads_op(int op, int pred);
__device__ void __ssk_syncwarp(unsigned int mask);
__device__ unsigned int __ssk_warp_op(int op, unsigned int mask, unsigned int val, int arg, int width);
__device__ unsigned long long __ssk_warp_op64(int op, unsigned int mask, unsigned long long val, int arg,
                                              int width);
__device__ long long __ssk_clock64(void);
__device__ void __ssk_trap(void);
__device__ void __assertfail(const char *message, const char *file, unsigned int line, const char *function,
                             size_t charSize);
}

#define STREAMSIM_DI static __device__ __inline__ __attribute__((always_inline))

/* Barriers. */
/* __syncthreads() is clang's builtin (llvm.nvvm.barrier0, which the rewrite makes __ssk_syncthreads). */
STREAMSIM_DI int __syncthreads_count(int p) { return __ssk_syncthreads_op(1, p); }
STREAMSIM_DI int __syncthreads_and(int p) { return __ssk_syncthreads_op(2, p); }
STREAMSIM_DI int __syncthreads_or(int p) { return __ssk_syncthreads_op(3, p); }
STREAMSIM_DI void __syncwarp(unsigned int mask = 0xffffffffu) { __ssk_syncwarp(mask); }
/* A device- or system-wide fence also tells racecheck (racecheck_rt.h), which orders blocks by fences and
 * atomics; a block-wide one orders nothing between blocks. */
extern "C" __device__ void __ssk_fence(void);
STREAMSIM_DI void __threadfence(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __ssk_fence();
}
STREAMSIM_DI void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
STREAMSIM_DI void __threadfence_system(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __ssk_fence();
}
STREAMSIM_DI void __trap(void) { __ssk_trap(); }
STREAMSIM_DI void __brkpt(void) {}
STREAMSIM_DI void __nanosleep(unsigned int) {}
STREAMSIM_DI long long clock64(void) { return __ssk_clock64(); }
STREAMSIM_DI long clock(void) { return (long)__ssk_clock64(); }
/* warpSize is clang's (a device constant, 32). */

/* Atomics: on the host's memory, with the host's atomic instructions (every scope is the system's). */
#define STREAMSIM_ATOMIC_ARITH(T)                                                                             \
    STREAMSIM_DI T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }             \
    STREAMSIM_DI T atomicMin(T *p, T v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicMax(T *p, T v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }                 \
    STREAMSIM_DI T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }               \
    STREAMSIM_DI T atomicCAS(T *p, T cmp, T v) {                                                              \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                   \
        return cmp;                                                                                           \
    }
STREAMSIM_ATOMIC_ARITH(int)
STREAMSIM_ATOMIC_ARITH(unsigned int)
STREAMSIM_ATOMIC_ARITH(unsigned long long)
STREAMSIM_ATOMIC_ARITH(long long)
#undef STREAMSIM_ATOMIC_ARITH
STREAMSIM_DI unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v) {
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}
STREAMSIM_DI float atomicAdd(float *p, float v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
STREAMSIM_DI double atomicAdd(double *p, double v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
STREAMSIM_DI float atomicExch(float *p, float v) {
    unsigned int bits;
    __builtin_memcpy(&bits, &v, 4);
    bits = __atomic_exchange_n((unsigned int *)p, bits, __ATOMIC_SEQ_CST);
    __builtin_memcpy(&v, &bits, 4);
    return v;
}
STREAMSIM_DI unsigned int atomicInc(unsigned int *p, unsigned int limit) {
    unsigned int old = __atomic_load_n(p, __ATOMIC_SEQ_CST), next;
    do {
        next = old >= limit ? 0 : old + 1;
    } while (!__atomic_compare_exchange_n(p, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}
STREAMSIM_DI unsigned int atomicDec(unsigned int *p, unsigned int limit) {
    unsigned int old = __atomic_load_n(p, __ATOMIC_SEQ_CST), next;
    do {
        next = (old == 0 || old > limit) ? limit : old - 1;
    } while (!__atomic_compare_exchange_n(p, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}
/* The scoped forms: the host has one scope. */
#define STREAMSIM_SCOPED(op)                                                                                  \
    template <typename T, typename... A> STREAMSIM_DI auto op##_block(T *p, A... a) { return op(p, a...); }   \
    template <typename T, typename... A> STREAMSIM_DI auto op##_system(T *p, A... a) { return op(p, a...); }
STREAMSIM_SCOPED(atomicAdd)
STREAMSIM_SCOPED(atomicSub)
STREAMSIM_SCOPED(atomicExch)
STREAMSIM_SCOPED(atomicMin)
STREAMSIM_SCOPED(atomicMax)
STREAMSIM_SCOPED(atomicInc)
STREAMSIM_SCOPED(atomicDec)
STREAMSIM_SCOPED(atomicCAS)
STREAMSIM_SCOPED(atomicAnd)
STREAMSIM_SCOPED(atomicOr)
STREAMSIM_SCOPED(atomicXor)
#undef STREAMSIM_SCOPED

/* Warp functions: the 32 lanes of a warp are consecutive threads of the block (x fastest). */
#include "streamsim/cc/warp_ops.h"
template <typename T> STREAMSIM_DI T __ssk_shfl(int op, unsigned int mask, T var, int arg, int width) {
    /* A value of more than 8 bytes (cooperative groups shuffle any trivially copyable type) moves 8 bytes
     * at a time, each its own warp operation, as CUDA's implementation does. */
    unsigned long long words[(sizeof(T) + 7) / 8] = {};
    __builtin_memcpy(words, &var, sizeof(T));
    for (unsigned i = 0; i < (sizeof(T) + 7) / 8; i++)
        words[i] = __ssk_warp_op64(op, mask, words[i], arg, width);
    T out;
    __builtin_memcpy(&out, words, sizeof(T));
    return out;
}
template <typename T> STREAMSIM_DI T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32) {
    return __ssk_shfl(STREAMSIM_W_IDX, mask, var, srcLane, width);
}
template <typename T> STREAMSIM_DI T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32) {
    return __ssk_shfl(STREAMSIM_W_UP, mask, var, (int)delta, width);
}
template <typename T>
STREAMSIM_DI T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32) {
    return __ssk_shfl(STREAMSIM_W_DOWN, mask, var, (int)delta, width);
}
template <typename T> STREAMSIM_DI T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32) {
    return __ssk_shfl(STREAMSIM_W_XOR, mask, var, laneMask, width);
}
STREAMSIM_DI unsigned int __ballot_sync(unsigned int mask, int pred) {
    return __ssk_warp_op(STREAMSIM_W_BALLOT, mask, pred != 0, 0, 32);
}
STREAMSIM_DI int __any_sync(unsigned int mask, int pred) { return (int)__ssk_warp_op(STREAMSIM_W_ANY, mask, pred != 0, 0, 32); }
STREAMSIM_DI int __all_sync(unsigned int mask, int pred) { return (int)__ssk_warp_op(STREAMSIM_W_ALL, mask, pred != 0, 0, 32); }
STREAMSIM_DI unsigned int __activemask(void) { return __ssk_warp_op(STREAMSIM_W_ACTIVEMASK, 0xffffffffu, 0, 0, 32); }
template <typename T> STREAMSIM_DI unsigned int __match_any_sync(unsigned int mask, T value) {
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(T));
    return (unsigned int)__ssk_warp_op64(STREAMSIM_W_MATCH_ANY, mask, bits, 0, 32);
}
template <typename T> STREAMSIM_DI unsigned int __match_all_sync(unsigned int mask, T value, int *pred) {
    unsigned long long bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(T));
    unsigned int r = (unsigned int)__ssk_warp_op64(STREAMSIM_W_MATCH_ALL, mask, bits, 0, 32);
    *pred = r != 0;
    return r;
}
STREAMSIM_DI unsigned int __reduce_add_sync(unsigned int mask, unsigned int v) {
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(mask, v, o);
    return v;
}

/* Integer intrinsics. */
STREAMSIM_DI int __popc(unsigned int x) { return __builtin_popcount(x); }
STREAMSIM_DI int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
STREAMSIM_DI int __ffs(int x) { return __builtin_ffs(x); }
STREAMSIM_DI int __ffsll(long long x) { return __builtin_ffsll(x); }
STREAMSIM_DI int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
STREAMSIM_DI int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
STREAMSIM_DI unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
STREAMSIM_DI unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
STREAMSIM_DI int __mul24(int x, int y) { return ((x << 8) >> 8) * ((y << 8) >> 8); }
STREAMSIM_DI unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffff) * (y & 0xffffff); }
STREAMSIM_DI int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
STREAMSIM_DI unsigned int __umulhi(unsigned int x, unsigned int y) {
    return (unsigned int)(((unsigned long long)x * y) >> 32);
}
STREAMSIM_DI unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
STREAMSIM_DI unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? x - y : y - x); }

/* Float intrinsics: the host's IEEE arithmetic (no flush to zero, correctly rounded). */
STREAMSIM_DI float __fdividef(float x, float y) { return x / y; }
STREAMSIM_DI float __expf(float x) { return expf(x); }
STREAMSIM_DI float __exp10f(float x) { return exp10f(x); }
STREAMSIM_DI float __logf(float x) { return logf(x); }
STREAMSIM_DI float __log2f(float x) { return log2f(x); }
STREAMSIM_DI float __log10f(float x) { return log10f(x); }
STREAMSIM_DI float __sinf(float x) { return sinf(x); }
STREAMSIM_DI float __cosf(float x) { return cosf(x); }
STREAMSIM_DI float __tanf(float x) { return tanf(x); }
STREAMSIM_DI float __powf(float x, float y) { return powf(x, y); }
STREAMSIM_DI void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
STREAMSIM_DI float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
STREAMSIM_DI float __fadd_rn(float x, float y) { return x + y; }
STREAMSIM_DI float __fmul_rn(float x, float y) { return x * y; }
STREAMSIM_DI float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
STREAMSIM_DI double __dadd_rn(double x, double y) { return x + y; }
STREAMSIM_DI double __dmul_rn(double x, double y) { return x * y; }
STREAMSIM_DI double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
STREAMSIM_DI float rsqrtf(float x) { return 1.0f / sqrtf(x); }
STREAMSIM_DI double rsqrt(double x) { return 1.0 / sqrt(x); }
STREAMSIM_DI float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
STREAMSIM_DI float __fsqrt_rn(float x) { return sqrtf(x); }
STREAMSIM_DI float __frcp_rn(float x) { return 1.0f / x; }
STREAMSIM_DI float exp10f_(float x) { return exp10f(x); }
STREAMSIM_DI float fdividef(float x, float y) { return x / y; }
STREAMSIM_DI int __float2int_rn(float x) { return (int)rintf(x); }
STREAMSIM_DI int __float2int_rz(float x) { return (int)x; }
STREAMSIM_DI unsigned int __float2uint_rn(float x) { return (unsigned int)rintf(x); }
STREAMSIM_DI float __int2float_rn(int x) { return (float)x; }
STREAMSIM_DI float __uint2float_rn(unsigned int x) { return (float)x; }
STREAMSIM_DI int __float_as_int(float x) { int i; __builtin_memcpy(&i, &x, 4); return i; }
STREAMSIM_DI float __int_as_float(int i) { float x; __builtin_memcpy(&x, &i, 4); return x; }
STREAMSIM_DI unsigned int __float_as_uint(float x) { unsigned int i; __builtin_memcpy(&i, &x, 4); return i; }
STREAMSIM_DI float __uint_as_float(unsigned int i) { float x; __builtin_memcpy(&x, &i, 4); return x; }
STREAMSIM_DI long long __double_as_longlong(double x) { long long i; __builtin_memcpy(&i, &x, 8); return i; }
STREAMSIM_DI double __longlong_as_double(long long i) { double x; __builtin_memcpy(&x, &i, 8); return x; }
STREAMSIM_DI int __double2int_rn(double x) { return (int)rint(x); }
STREAMSIM_DI float __double2float_rn(double x) { return (float)x; }

/* Read-only loads. */
template <typename T> STREAMSIM_DI T __ldg(const T *p) { return *p; }
template <typename T> STREAMSIM_DI T __ldcg(const T *p) { return *p; }
template <typename T> STREAMSIM_DI T __ldca(const T *p) { return *p; }
template <typename T> STREAMSIM_DI T __ldcs(const T *p) { return *p; }
template <typename T> STREAMSIM_DI void __stcg(T *p, T v) { *p = v; }
template <typename T> STREAMSIM_DI void __stcs(T *p, T v) { *p = v; }
template <typename T> STREAMSIM_DI void __stwb(T *p, T v) { *p = v; }

#undef STREAMSIM_DI
#endif /* STREAMSIM_CC_CUDA_DEVICE_H */
