/*
 * header_sets.c — a program that includes every header of the vendors' sets by the names real programs use
 * (CUDA's cuda_runtime_api.h, driver_types.h, vector_types.h, device_launch_parameters.h, cuda_fp16.h, …;
 * MUSA's musa_runtime_api.h; CANN's acl/acl_base.h, acl/acl_rt.h, acl/acl_rt_memory_soma.h,
 * acl/error_codes/rt_error_codes.h, …, each once before acl/acl.h) and calls a few functions of each:
 *   - the version macros against the calls (CUDART_VERSION and cudaRuntimeGetVersion, ACL_*_VERSION and
 *     aclrtGetVersion), and the guards programs test;
 *   - the vector types' sizes and alignment (NVIDIA's), the make_* functions;
 *   - cuda_fp16.h's host conversions on known values, bit for bit (nearest even, toward zero, down, up; NaN,
 *     infinity, overflow, subnormals, ties);
 *   - aclFloatToFloat16 / aclFloat16ToFloat against cuda_fp16.h's (a sweep of floats, every half),
 *     aclDataTypeSize, aclsysGetVersionNum (refused);
 *   - aclrtGetRunMode, aclrtGetSocName, aclrtGetLastError / aclrtPeekAtLastError, a capture whose
 *     aclmdlRICaptureGetInfo handle is the one aclmdlRICaptureEnd returns, a SOMA pool.
 * Built as C11 and C++17 by tests/suite/c_header_sets.rs; prints "header sets: ok".
 */
#include <acl/error_codes/rt_error_codes.h>
#include <acl/error_codes/ge_error_codes.h>
#include <acl/acl_base.h>
#include <acl/acl_base_rt.h>
#include <acl/acl_base_mdl.h>
#include <acl/acl_rt_allocator.h>
#include <acl/acl_rt.h>
#include <acl/acl_rt_memory_soma.h>
#include <acl/acl_op.h>
#include <acl/acl_mdl.h>
#include <acl/acl_prof.h>
#include <acl/acl.h>

#include <vector_types.h>
#include <vector_functions.h>
#include <driver_types.h>
#include <cuda_runtime_api.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cuda_fp16.h>
#include <cuda_profiler_api.h>

#include <musa_runtime_api.h>
#include <musa_runtime.h>
#include <musa_profiler_api.h>

#include <stdint.h>
#include <string.h>

#include "check.h"

#ifdef __cplusplus
#define ALIGNOF(t) alignof(t)
#else
#define ALIGNOF(t) _Alignof(t)
#endif

#if !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || !defined(__DRIVER_TYPES_H__) || \
    !defined(__VECTOR_TYPES_H__) || !defined(__VECTOR_FUNCTIONS_H__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__) || \
    !defined(__CUDA_FP16_H__)
#error "a CUDA include guard is missing"
#endif
#if !defined(CUDART_VERSION) || CUDART_VERSION < 12000 || __CUDART_API_VERSION != CUDART_VERSION
#error "CUDART_VERSION / __CUDART_API_VERSION"
#endif
#if !defined(INC_EXTERNAL_ACL_ACL_H_) || !defined(INC_EXTERNAL_ACL_ACL_RT_H_) || \
    !defined(INC_EXTERNAL_ACL_ACL_BASE_H_) || !defined(__INC_EXTERNEL_RT_ERROR_CODES_H__)
#error "an ACL include guard is missing"
#endif

static unsigned int float_bits(float f) {
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(unsigned int u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void cuda_versions_and_types(void) {
    int runtime = 0, driver = 0, n = 0;
    EXPECT(cudaRuntimeGetVersion(&runtime), cudaSuccess);
    CHECK_EQ(runtime, CUDART_VERSION);
    EXPECT(cudaDriverGetVersion(&driver), cudaSuccess);
    CHECK(driver >= runtime);
    EXPECT(cudaGetDeviceCount(&n), cudaSuccess);
    CHECK(n >= 1);
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT(cudaStreamDestroy(s), cudaSuccess);
    EXPECT(cudaGetLastError(), cudaSuccess);

    CHECK_EQ(sizeof(dim3), 12);
    CHECK_EQ(sizeof(uint3), 12);
    CHECK_EQ(sizeof(int2), 8);
    CHECK_EQ(ALIGNOF(int2), 8);
    CHECK_EQ(sizeof(float4), 16);
    CHECK_EQ(ALIGNOF(float4), 16);
    CHECK_EQ(sizeof(double2), 16);
    CHECK_EQ(ALIGNOF(double2), 16);
    CHECK_EQ(sizeof(float3), 12);
    /* NVIDIA's alignments: 2 components of 2x the component, 4 of 4x (at most 16), 1 and 3 of the component. */
    CHECK_EQ(sizeof(char1), 1);
    CHECK_EQ(ALIGNOF(char2), 2);
    CHECK_EQ(sizeof(uchar3), 3);
    CHECK_EQ(ALIGNOF(uchar4), 4);
    CHECK_EQ(ALIGNOF(short2), 4);
    CHECK_EQ(sizeof(ushort3), 6);
    CHECK_EQ(ALIGNOF(ushort4), 8);
    CHECK_EQ(ALIGNOF(uint4), 16);
    CHECK_EQ(ALIGNOF(long2), 2 * sizeof(long));
    CHECK_EQ(ALIGNOF(ulong4), 16);
    CHECK_EQ(sizeof(longlong1), 8);
    CHECK_EQ(ALIGNOF(ulonglong2), 16);
    CHECK_EQ(sizeof(longlong4), 32);
    CHECK_EQ(ALIGNOF(longlong4), 16);
    CHECK_EQ(sizeof(double3), 24);
    CHECK_EQ(ALIGNOF(double3), ALIGNOF(double));
    CHECK_EQ(sizeof(double4), 32);
    CHECK_EQ(ALIGNOF(double4), 16);
    {
        uchar4 c = make_uchar4(1, 2, 3, 250);
        int2 i = make_int2(-1, 7);
        float4 f = make_float4(0.5f, 1.5f, 2.5f, 3.5f);
        ulonglong3 u = make_ulonglong3(1ull << 40, 2, 3);
        double1 d = make_double1(0.25);
        uint3 v = make_uint3(4, 5, 6);
        CHECK_EQ(c.x + c.y + c.z, 6);
        CHECK_EQ(c.w, 250);
        CHECK_EQ(i.x, -1);
        CHECK_EQ(i.y, 7);
        CHECK(f.x + f.w == 4.0f);
        CHECK_EQ(u.x, 1ull << 40);
        CHECK_EQ(u.z, 3);
        CHECK(d.x == 0.25);
#ifdef __cplusplus
        dim3 g(v);
        uint3 back = g;
        CHECK_EQ(g.x + g.y + g.z, 15);
        CHECK_EQ(back.z, 6);
        CHECK_EQ(dim3().y, 1);
#else
        CHECK_EQ(v.x + v.y + v.z, 15);
#endif
    }
    CHECK_EQ(sizeof threadIdx, sizeof(uint3)); /* declared, never defined: not read */
    CHECK_EQ(sizeof blockDim, sizeof(dim3));
}

/* float bits → the half bits of each rounding: nearest even, toward zero, down, up. */
static const struct {
    unsigned int f;
    unsigned short rn, rz, rd, ru;
} TO_HALF[] = {
    {0x3F800000u, 0x3C00, 0x3C00, 0x3C00, 0x3C00}, /* 1 */
    {0x3DCCCCCDu, 0x2E66, 0x2E66, 0x2E66, 0x2E67}, /* 0.1 */
    {0xBDCCCCCDu, 0xAE66, 0xAE66, 0xAE67, 0xAE66}, /* -0.1 */
    {0x3EAAAAABu, 0x3555, 0x3555, 0x3555, 0x3556}, /* 1/3 */
    {0x477FE000u, 0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF}, /* 65504, the largest half */
    {0x477FEF00u, 0x7BFF, 0x7BFF, 0x7BFF, 0x7C00}, /* 65519 */
    {0x477FF000u, 0x7C00, 0x7BFF, 0x7BFF, 0x7C00}, /* 65520: the tie rounds to infinity */
    {0xC77FF000u, 0xFC00, 0xFBFF, 0xFC00, 0xFBFF}, /* -65520 */
    {0x3F801000u, 0x3C00, 0x3C00, 0x3C00, 0x3C01}, /* 1 + 2^-11: a tie, to the even 1 */
    {0x3F803000u, 0x3C02, 0x3C01, 0x3C01, 0x3C02}, /* 1 + 3·2^-11: a tie, to the even 1 + 2^-9 */
    {0x33800000u, 0x0001, 0x0001, 0x0001, 0x0001}, /* 2^-24, the smallest subnormal */
    {0x33000000u, 0x0000, 0x0000, 0x0000, 0x0001}, /* 2^-25: a tie, to the even 0 */
    {0x33000001u, 0x0001, 0x0000, 0x0000, 0x0001}, /* just above 2^-25 */
    {0x38800000u, 0x0400, 0x0400, 0x0400, 0x0400}, /* 2^-14, the smallest normal */
    {0x7F800000u, 0x7C00, 0x7C00, 0x7C00, 0x7C00}, /* infinity */
    {0xFF800000u, 0xFC00, 0xFC00, 0xFC00, 0xFC00}, /* -infinity */
    {0x7FC00000u, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF}, /* NaN */
    {0xFFC00000u, 0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF}, /* -NaN */
    {0x80000000u, 0x8000, 0x8000, 0x8000, 0x8000}, /* -0 */
};

/* half bits → float bits (exact; a NaN becomes 0x7FFFFFFF). */
static const struct {
    unsigned short h;
    unsigned int f;
} TO_FLOAT[] = {
    {0x0001, 0x33800000u}, {0x03FF, 0x387FC000u}, {0x7BFF, 0x477FE000u}, {0x3555, 0x3EAAA000u},
    {0xFC00, 0xFF800000u}, {0x7E00, 0x7FFFFFFFu}, {0xFE01, 0x7FFFFFFFu}, {0x8000, 0x80000000u},
    {0x3C00, 0x3F800000u},
};

static void half_conversions(void) {
    CHECK_EQ(sizeof(__half), 2);
    CHECK_EQ(ALIGNOF(__half), 2);
    CHECK_EQ(sizeof(__half2), 4);
    CHECK_EQ(ALIGNOF(__half2), 4);
    for (size_t i = 0; i < sizeof TO_HALF / sizeof TO_HALF[0]; i++) {
        const float f = bits_float(TO_HALF[i].f);
        CHECK_EQ(__half_as_ushort(__float2half(f)), TO_HALF[i].rn);
        CHECK_EQ(__half_as_ushort(__float2half_rn(f)), TO_HALF[i].rn);
        CHECK_EQ(__half_as_ushort(__float2half_rz(f)), TO_HALF[i].rz);
        CHECK_EQ(__half_as_ushort(__float2half_rd(f)), TO_HALF[i].rd);
        CHECK_EQ(__half_as_ushort(__float2half_ru(f)), TO_HALF[i].ru);
    }
    for (size_t i = 0; i < sizeof TO_FLOAT / sizeof TO_FLOAT[0]; i++) {
        CHECK_EQ(float_bits(__half2float(__ushort_as_half(TO_FLOAT[i].h))), TO_FLOAT[i].f);
    }
    /* Every half survives half → float → half (a NaN comes back as 0x7FFF). */
    for (unsigned int h = 0; h < 0x10000u; h++) {
        const unsigned short back = __half_as_ushort(__float2half(__half2float(__ushort_as_half((unsigned short)h))));
        const int nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0u;
        CHECK_EQ(back, nan ? 0x7FFFu : h);
    }
    CHECK_EQ(__half_as_short(__float2half(-2.0f)), (short)-16384); /* 0xC000 */
    CHECK_EQ(__half_as_ushort(__short_as_half((short)-16384)), 0xC000);
    __half2 two = __floats2half2_rn(0.5f, -3.0f);
    CHECK_EQ(float_bits(__low2float(two)), float_bits(0.5f));
    CHECK_EQ(float_bits(__high2float(two)), float_bits(-3.0f));
    CHECK_EQ(__half_as_ushort(__low2half(__float2half2_rn(1.0f))), 0x3C00);
    CHECK_EQ(__half_as_ushort(__high2half(__halves2half2(__float2half(1.0f), __float2half(2.0f)))), 0x4000);
#ifdef __cplusplus
    /* C++: __half converts from and to float, and from and to its raw bits. */
    __half h = 1.5f;
    float f = h;
    CHECK_EQ(float_bits(f), float_bits(1.5f));
    __half_raw raw = h;
    CHECK_EQ(raw.x, 0x3E00);
    raw.x = 0x4000;
    h = raw;
    CHECK_EQ(float_bits(static_cast<float>(h)), float_bits(2.0f));
#endif
}

static void musa_calls(void) {
    int runtime = 0, n = 0;
    EXPECT(musaRuntimeGetVersion(&runtime), musaSuccess);
    CHECK(runtime > 0);
    EXPECT(musaGetDeviceCount(&n), musaSuccess);
    CHECK(n >= 1);
}

static void acl_calls(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    int32_t major = -1, minor = -1, patch = -1;
    EXPECT(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    CHECK_EQ(major, ACL_MAJOR_VERSION);
    CHECK_EQ(minor, ACL_MINOR_VERSION);
    CHECK_EQ(patch, ACL_PATCH_VERSION);
    CHECK_EQ(major * 10000 + minor * 100 + patch, 11700);
    aclrtRunMode mode = ACL_DEVICE;
    EXPECT(aclrtGetRunMode(&mode), ACL_SUCCESS);
    CHECK_EQ(mode, ACL_HOST);
    CHECK(aclrtGetSocName() != NULL);

    /* acl/acl_base_rt.h: the runtime's fp16 conversions are IEEE's to nearest even within the range
     * (cuda_fp16.h's __float2half_rn), and saturate beyond it. */
    for (uint64_t u = 0; u <= 0xFFFFFFFFu; u += 0x3F1u) {
        const float f = bits_float((unsigned int)u);
        const unsigned int mag = (unsigned int)u & 0x7FFFFFFFu;
        const unsigned short want = mag < 0x477FF000u ? __half_as_ushort(__float2half_rn(f))
                                                      : (unsigned short)(((unsigned int)u >> 16 & 0x8000u) | 0x7BFFu);
        CHECK_EQ(aclFloatToFloat16(f), want);
    }
    for (unsigned int h = 0; h < 0x10000u; h++) {
        if ((h & 0x7C00u) != 0x7C00u) {
            CHECK_EQ(float_bits(aclFloat16ToFloat((aclFloat16)h)), float_bits(__half2float(__ushort_as_half((unsigned short)h))));
        }
    }
    CHECK_EQ(float_bits(aclFloat16ToFloat(0x7C00)), float_bits(65536.0f));
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT16), 2);
    CHECK_EQ(aclDataTypeSize(ACL_COMPLEX128), 16);
    char pkg[] = "runtime";
    int32_t num = 0;
    EXPECT(aclsysGetVersionNum(pkg, &num), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* The thread's last runtime error: Peek reads, Get reads and clears. */
    EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtDeviceStatus status;
    EXPECT(aclrtQueryDeviceStatus(99, &status), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);

    /* A capture: the model GetInfo reports is the one End returns. */
    aclrtStream s;
    EXPECT(aclrtCreateStream(&s), ACL_SUCCESS);
    EXPECT(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(s, "k", 1000, NULL, NULL), ACL_SUCCESS);
    aclmdlRICaptureStatus cs = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI building = NULL, model = NULL;
    EXPECT(aclmdlRICaptureGetInfo(s, &cs, &building), ACL_SUCCESS);
    CHECK_EQ(cs, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK(building != NULL);
    EXPECT(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS);
    CHECK(model == building);
    EXPECT(aclmdlRICaptureGetInfo(s, &cs, &building), ACL_SUCCESS);
    CHECK_EQ(cs, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK(building == NULL);
    EXPECT(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
    EXPECT(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(aclmdlRIDestroy(model), ACL_SUCCESS);
    EXPECT(aclmdlRIDestroy(model), ACL_ERROR_RT_INVALID_HANDLE);

    /* acl/acl_rt_memory_soma.h: a pool. */
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    aclrtMemPool pool;
    EXPECT(aclrtMemPoolCreate(&pool, &props), ACL_SUCCESS);
    void *p = NULL;
    EXPECT(aclrtMemPoolMallocAsync(&p, 4096, pool, s), ACL_SUCCESS);
    EXPECT(aclrtMemPoolFreeAsync(p, s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(aclrtMemPoolDestroy(pool), ACL_SUCCESS);

    EXPECT(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
}

int main(void) {
    cuda_versions_and_types();
    half_conversions();
    musa_calls();
    acl_calls();
    printf("header sets: ok\n");
    return 0;
}
