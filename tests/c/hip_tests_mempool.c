/*
 * hip_tests_mempool.c — ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a) stream-ordered allocator unit tests, translated to CUDA names
 * (hipX → cudaX) and ported to C11 / C++17 for streamsim:
 *   catch/unit/memory/mempool_common.hh:        MallocMemPoolAsync_OneAlloc, _TwoAllocs, _Reuse (run as
 *                                                Unit_hipMallocAsync_Basic_* and Unit_hipMallocFromPoolAsync_Basic_*)
 *   catch/unit/memory/hipMallocAsync.cc:         Unit_hipMallocAsync_Negative_Parameters, _ByUsinghipMalloc,
 *                                                _ByUsinghipFree
 *   catch/unit/memory/hipFreeAsync.cc:           Unit_hipFreeAsync_Negative_Parameters
 *   catch/unit/memory/hipMallocFromPoolAsync.cc: Unit_hipMallocFromPoolAsync_Negative_Parameters
 *   catch/unit/memory/hipMemPoolSetGetAttribute.cc: Unit_hipMemPoolSetAttribute_Opportunistic (4 sections),
 *                                                _EventDependencies (2 sections), _Negative_Parameters,
 *                                                Unit_hipMemPoolGetAttribute_Negative_Parameters
 *   catch/unit/memory/hipMemPoolCreate.cc:       Unit_hipMemPoolCreate_Negative_Parameter
 *   catch/unit/memory/hipMemPoolDestroy.cc:      Unit_hipMemPoolDestroy_Negative_Parameter
 *   catch/unit/memory/hipMemPoolTrimTo.cc:       Unit_hipMemPoolTrimTo_Negative_Parameter
 *   catch/unit/device/hipDeviceSetGetMemPool.cc: Unit_hipDeviceSetMemPool_Negative_Parameters,
 *                                                Unit_hipDeviceGetMemPool_Negative_Parameters
 *   catch/unit/device/hipDeviceGetDefaultMemPool.cc: Unit_hipDeviceGetDefaultMemPool_Negative_Parameters
 *
 * Every runtime call and every check of those tests is kept, with these changes:
 *   - Catch2 → plain functions: HIP_CHECK → EXPECT(call, cudaSuccess), HIP_CHECK_ERROR(call, e) → EXPECT(call, e),
 *     REQUIRE → CHECK (tests/c/check.h); GENERATE → loops; each SECTION runs as its own pass of its test case, as
 *     Catch2 runs them; the guards (MemPoolGuard, StreamGuard, LinearAllocGuard) become explicit create / destroy
 *     calls at the guards' construction and destruction points (MemPoolGuard of the default pool resets its two
 *     high watermarks on destruction, as the original's destructor does).
 *   - hip error names → the CUDA codes with the same meaning and value: hipErrorInvalidValue → cudaErrorInvalidValue,
 *     hipErrorInvalidHandle → cudaErrorInvalidResourceHandle (400), hipErrorOutOfMemory →
 *     cudaErrorMemoryAllocation (2), hipErrorInvalidDevice → cudaErrorInvalidDevice.
 *   - kernel_500ms<<<32, blocks, 0, stream>>>(ptr, clk_rate) → cudasimLaunchKernelCtx of 500 ms of virtual time whose
 *     body writes host_res[tid] = tid + 1 for the 32 * blocks threads (the kernel's effect; its busy loop on the
 *     clock is the virtual duration); VectorSet → a body setting the elements; vector_square → a body squaring;
 *     each declares the memory it touches. IsGfx11() is false (a CUDA device), so the non-gfx11 branches run.
 *   - std::this_thread::sleep_for(1000 ms) ("GPU should be idle by now") → streamsimHostSleep(1 s): the host's
 *     virtual clock moves on while the 500 ms kernel ends, as real time would (nothing sleeps in the simulator).
 *   - The negative tests' "Set values is nullptr" section is HT_AMD-only in the original: not ported. The
 *     hipMallocFromPoolAsync test's hipMemPoolCreate with a 1 GiB maxSize is HT_AMD-only: not ported.
 *   - The capture tests (Unit_hipFreeAsync_capturehipFreeAsync) are not ported: stream capture is not simulated
 *     here.
 *
 * The original's licence:
 *
 * Copyright (c) 2022-2024 Advanced Micro Devices, Inc. All rights reserved.
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or substantial portions of
 * the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
 * THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 * TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"

#define HIP_CHECK(call) EXPECT(call, cudaSuccess)
#define HIP_CHECK_ERROR(call, e) EXPECT(call, e)
#define REQUIRE(cond) CHECK(cond)

static const size_t kPageSize = 4096;
static const uint64_t MS500 = 500000000; /* kernel_500ms: 500 ms of virtual time */

enum MemPools { dev_default, created };

/* MemPoolGuard's constructor. */
static cudaMemPool_t mempool_guard(enum MemPools type, int device) {
    cudaMemPool_t pool = NULL;
    if (type == dev_default) {
        HIP_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    } else {
        cudaMemPoolProps props;
        memset(&props, 0, sizeof(props));
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        props.win32SecurityAttributes = NULL;
        HIP_CHECK(cudaMemPoolCreate(&pool, &props));
    }
    return pool;
}

/* MemPoolGuard's destructor. */
static void mempool_guard_end(enum MemPools type, cudaMemPool_t pool) {
    if (type == created) {
        (void)cudaMemPoolDestroy(pool);
    } else {
        uint64_t value = 0;
        HIP_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &value));
        HIP_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &value));
    }
}

static cudaStream_t stream_guard(void) {
    cudaStream_t s;
    HIP_CHECK(cudaStreamCreate(&s));
    return s;
}

static cudaStream_t stream_guard_flags(unsigned int flags) {
    cudaStream_t s;
    HIP_CHECK(cudaStreamCreateWithFlags(&s, flags));
    return s;
}

/* ------------------------------------------------------------------------------------------------ kernels */

struct k500 {
    int *host_res;
    int threads;
};

/* kernel_500ms: host_res[tid] = tid + 1, then a 500 ms busy loop (the virtual duration). */
static void kernel_500ms_body(streamsimKernelCtx *ctx, void *arg) {
    const struct k500 *a = (const struct k500 *)arg;
    void *m = NULL;
    if (streamsimKernelMap(ctx, a->host_res, (size_t)a->threads * sizeof(int), &m) != STREAMSIM_SUCCESS) {
        return;
    }
    int *res = (int *)m;
    for (int tid = 0; tid < a->threads; tid++) {
        res[tid] = tid + 1;
    }
}

static void kernel_500ms(int grid, int blocks, cudaStream_t stream, int *host_res, struct k500 *args) {
    args->host_res = host_res;
    args->threads = grid * blocks;
    streamsimAccess acc = {host_res, (size_t)args->threads * sizeof(int), STREAMSIM_ACCESS_WRITE};
    HIP_CHECK(cudasimLaunchKernelCtx(stream, "kernel_500ms", MS500, kernel_500ms_body, args, &acc, 1));
}

struct vset {
    int *data;
    int value;
    size_t n;
};

static void vector_set_body(streamsimKernelCtx *ctx, void *arg) {
    const struct vset *a = (const struct vset *)arg;
    void *m = NULL;
    if (streamsimKernelMap(ctx, a->data, a->n * sizeof(int), &m) != STREAMSIM_SUCCESS) {
        return;
    }
    for (size_t i = 0; i < a->n; i++) {
        ((int *)m)[i] = a->value;
    }
}

static void vector_set(cudaStream_t stream, int *data, int value, size_t n, struct vset *args) {
    args->data = data;
    args->value = value;
    args->n = n;
    streamsimAccess acc = {data, n * sizeof(int), STREAMSIM_ACCESS_WRITE};
    HIP_CHECK(cudasimLaunchKernelCtx(stream, "VectorSet", 10000, vector_set_body, args, &acc, 1));
}

/* ArrayFindIfNot(array, expected_value, num_elements). */
static void array_find_if_not(const int *array, int expected, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (array[i] != expected) {
            fprintf(stderr, "Value mismatch at index %zu: %d, expected %d\n", i, array[i], expected);
            exit(1);
        }
    }
}

/* The allocation functions MallocMemPoolAsync_* take: cudaMallocAsync or cudaMallocFromPoolAsync. */
typedef cudaError_t (*malloc_fn)(void **dev_ptr, size_t size, cudaMemPool_t mem_pool, cudaStream_t stream);

static cudaError_t malloc_async(void **dev_ptr, size_t size, cudaMemPool_t mem_pool, cudaStream_t stream) {
    (void)mem_pool;
    return cudaMallocAsync(dev_ptr, size, stream);
}

static cudaError_t malloc_from_pool(void **dev_ptr, size_t size, cudaMemPool_t mem_pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(dev_ptr, size, mem_pool, stream);
}

/* ------------------------------------------------------------------------------------------------ mempool_common.hh */

static void one_alloc(malloc_fn f, enum MemPools type) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    int mem_pool_support = 0;
    HIP_CHECK(cudaDeviceGetAttribute(&mem_pool_support, cudaDevAttrMemoryPoolsSupported, 0));
    REQUIRE(mem_pool_support);
    const size_t sizes[] = {kPageSize / 2, kPageSize, kPageSize * 2};
    for (int g = 0; g < 3; g++) {
        const size_t allocation_size = sizes[g];
        int *host = NULL;
        HIP_CHECK(cudaMallocHost((void **)&host, allocation_size));
        cudaMemPool_t mempool = mempool_guard(type, device_id);
        int *alloc_mem;
        cudaStream_t stream = stream_guard();
        HIP_CHECK(f((void **)&alloc_mem, allocation_size, mempool, stream));
        int blocks = 16;
        int clk_rate;
        HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
        struct k500 ka;
        kernel_500ms(32, blocks, stream, alloc_mem, &ka);
        const size_t element_count = allocation_size / sizeof(int);
        const int expected_value = 17;
        struct vset va;
        vector_set(stream, alloc_mem, expected_value, element_count, &va);
        HIP_CHECK(cudaMemcpyAsync(host, alloc_mem, allocation_size, cudaMemcpyDeviceToHost, stream));
        HIP_CHECK(cudaFreeAsync((void *)alloc_mem, stream));
        uint64_t res_before_sync = 0;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrReservedMemCurrent, &res_before_sync));
        HIP_CHECK(cudaStreamSynchronize(stream));
        uint64_t res_after_sync = 0;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrReservedMemCurrent, &res_after_sync));
        // Sync must release memory to OS
        REQUIRE(res_after_sync <= res_before_sync);
        uint64_t used_mem = 10;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemCurrent, &used_mem));
        REQUIRE(0 == used_mem);
        array_find_if_not(host, expected_value, element_count);
        HIP_CHECK(cudaStreamDestroy(stream));
        mempool_guard_end(type, mempool);
        HIP_CHECK(cudaFreeHost(host));
    }
}

static void two_allocs(malloc_fn f, enum MemPools type) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    const size_t sizes[] = {kPageSize / 2, kPageSize, kPageSize * 2};
    for (int g = 0; g < 3; g++) {
        const size_t allocation_size = sizes[g];
        int *host = NULL;
        HIP_CHECK(cudaMallocHost((void **)&host, allocation_size));
        cudaMemPool_t mempool = mempool_guard(type, device_id);
        int *alloc_mem1;
        int *alloc_mem2;
        cudaStream_t stream = stream_guard();
        HIP_CHECK(f((void **)&alloc_mem1, allocation_size, mempool, stream));
        HIP_CHECK(f((void **)&alloc_mem2, allocation_size, mempool, stream));
        int blocks = 16;
        int clk_rate;
        HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
        struct k500 ka;
        kernel_500ms(32, blocks, stream, alloc_mem1, &ka);
        const size_t element_count = allocation_size / sizeof(int);
        const int expected_value = 17;
        struct vset va;
        vector_set(stream, alloc_mem1, expected_value, element_count, &va);
        HIP_CHECK(cudaGetLastError());
        HIP_CHECK(cudaMemcpyAsync(alloc_mem2, alloc_mem1, allocation_size, cudaMemcpyDeviceToDevice, stream));
        HIP_CHECK(cudaMemcpyAsync(host, alloc_mem2, allocation_size, cudaMemcpyDeviceToHost, stream));
        HIP_CHECK(cudaFreeAsync((void *)alloc_mem1, stream));
        uint64_t res_before_sync = 0;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrReservedMemCurrent, &res_before_sync));
        HIP_CHECK(cudaStreamSynchronize(stream));
        uint64_t res_after_sync = 0;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrReservedMemCurrent, &res_after_sync));
        REQUIRE(res_after_sync <= res_before_sync);
        uint64_t used_mem = 0;
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemCurrent, &used_mem));
        // Make sure the current usage query works - just second buffer is left
        REQUIRE(allocation_size == used_mem);
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemHigh, &used_mem));
        // Make sure the high watermark usage works - both buffers must be reported
        REQUIRE((2 * allocation_size) == used_mem);
        HIP_CHECK(cudaFreeAsync((void *)alloc_mem2, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
        HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemCurrent, &used_mem));
        REQUIRE(0 == used_mem);
        array_find_if_not(host, expected_value, element_count);
        HIP_CHECK(cudaStreamDestroy(stream));
        mempool_guard_end(type, mempool);
        HIP_CHECK(cudaFreeHost(host));
    }
}

static void reuse(malloc_fn f, enum MemPools type) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    cudaMemPool_t mempool = mempool_guard(type, device_id);
    int *alloc_mem1, *alloc_mem2, *alloc_mem3;
    cudaStream_t stream = stream_guard();
    size_t allocation_size1 = kPageSize * kPageSize * 2;
    HIP_CHECK(f((void **)&alloc_mem1, allocation_size1, mempool, stream));
    size_t allocation_size2 = kPageSize;
    HIP_CHECK(f((void **)&alloc_mem3, allocation_size2, mempool, stream));
    int blocks = 2;
    int clk_rate;
    HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
    struct k500 ka, kb;
    kernel_500ms(32, blocks, stream, alloc_mem1, &ka);
    // Not a real free, since kernel isn't done
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem1, stream));
    HIP_CHECK(f((void **)&alloc_mem2, allocation_size1, mempool, stream));
    // Runtime must reuse the pointer
    REQUIRE(alloc_mem1 == alloc_mem2);
    // Make a sync before the second kernel launch to make sure memory B isn't gone
    HIP_CHECK(cudaStreamSynchronize(stream));
    // Second kernel launch with new memory
    kernel_500ms(32, blocks, stream, alloc_mem2, &kb);
    HIP_CHECK(cudaStreamSynchronize(stream));
    uint64_t value64 = 0;
    HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemCurrent, &value64));
    // Make sure the current usage reports the both buffers
    REQUIRE((allocation_size1 + allocation_size2) == value64);
    HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemHigh, &value64));
    // Make sure the high watermark usage works - the both buffers must be reported
    REQUIRE((allocation_size1 + allocation_size2) == value64);
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem2, stream));
    HIP_CHECK(cudaMemPoolGetAttribute(mempool, cudaMemPoolAttrUsedMemCurrent, &value64));
    // Make sure the current usage reports just one buffer, because the above free doesn't hold memory
    REQUIRE(allocation_size2 == value64);
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem3, stream));
    HIP_CHECK(cudaStreamDestroy(stream));
    mempool_guard_end(type, mempool);
}

/* ------------------------------------------------------------------------------------------------ hipMallocAsync.cc */

static void malloc_async_negative(void) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    int *p = NULL;
    size_t max_size = SIZE_MAX;
    size_t alloc_size = 1024;
    for (int section = 0; section < 3; section++) {
        cudaMemPool_t mempool = mempool_guard(dev_default, device_id);
        cudaStream_t stream = stream_guard();
        if (section == 0) { /* dev_ptr is nullptr */
            HIP_CHECK_ERROR(cudaMallocAsync(NULL, alloc_size, stream), cudaErrorInvalidValue);
        } else if (section == 1) { /* invalid stream handle */
            HIP_CHECK_ERROR(cudaMallocAsync((void **)&p, alloc_size, (cudaStream_t)(intptr_t)-1),
                            cudaErrorInvalidResourceHandle);
        } else { /* Size is max size_t */
            HIP_CHECK_ERROR(cudaMallocAsync((void **)&p, max_size, stream), cudaErrorMemoryAllocation);
        }
        HIP_CHECK(cudaStreamDestroy(stream));
        mempool_guard_end(dev_default, mempool);
    }
}

struct square {
    const float *in;
    float *out;
    int n;
};

static void vector_square_body(streamsimKernelCtx *ctx, void *arg) {
    const struct square *a = (const struct square *)arg;
    void *in = NULL, *out = NULL;
    size_t bytes = (size_t)a->n * sizeof(float);
    if (streamsimKernelMap(ctx, a->in, bytes, &in) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, a->out, bytes, &out) != STREAMSIM_SUCCESS) {
        return;
    }
    for (int i = 0; i < a->n; i++) {
        ((float *)out)[i] = ((const float *)in)[i] * ((const float *)in)[i];
    }
}

static void vector_square(cudaStream_t stream, const float *in, float *out, int n, struct square *args) {
    args->in = in;
    args->out = out;
    args->n = n;
    streamsimAccess acc[2] = {{in, (size_t)n * sizeof(float), STREAMSIM_ACCESS_READ},
                              {out, (size_t)n * sizeof(float), STREAMSIM_ACCESS_WRITE}};
    HIP_CHECK(cudasimLaunchKernelCtx(stream, "vector_square", 20000, vector_square_body, args, acc, 2));
}

#define NUM_ELM (1024 * 1024)

static void malloc_async_by_using_malloc(int use_free) {
    size_t byte_size = NUM_ELM * sizeof(float);
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    float *A_h = (float *)malloc(byte_size);
    float *C_h = (float *)malloc(byte_size);
    for (int i = 0; i < NUM_ELM; i++) {
        A_h[i] = use_free ? 5.0f : 7.0f;
        C_h[i] = 0;
    }
    float *A_d, *C_d;
    struct square sq;
    if (!use_free) { /* Unit_hipMallocAsync_ByUsinghipMalloc */
        HIP_CHECK(cudaMalloc((void **)&A_d, byte_size));
        HIP_CHECK(cudaMalloc((void **)&C_d, byte_size));
        HIP_CHECK(cudaMemcpyAsync(A_d, A_h, byte_size, cudaMemcpyHostToDevice, stream));
        vector_square(stream, A_d, C_d, NUM_ELM, &sq);
        HIP_CHECK(cudaMemcpyAsync(C_h, C_d, byte_size, cudaMemcpyDeviceToHost, stream));
        HIP_CHECK(cudaFreeAsync((void *)A_d, stream));
        HIP_CHECK(cudaFreeAsync((void *)C_d, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
    } else { /* Unit_hipMallocAsync_ByUsinghipFree */
        HIP_CHECK(cudaMallocAsync((void **)&A_d, byte_size, stream));
        HIP_CHECK(cudaMallocAsync((void **)&C_d, byte_size, stream));
        HIP_CHECK(cudaMemcpyAsync(A_d, A_h, byte_size, cudaMemcpyHostToDevice, stream));
        vector_square(stream, A_d, C_d, NUM_ELM, &sq);
        HIP_CHECK(cudaMemcpyAsync(C_h, C_d, byte_size, cudaMemcpyDeviceToHost, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
        HIP_CHECK(cudaFree((void *)A_d));
        HIP_CHECK(cudaFree((void *)C_d));
    }
    for (int i = 0; i < NUM_ELM; i++) {
        REQUIRE(C_h[i] == (A_h[i] * A_h[i]));
    }
    HIP_CHECK(cudaStreamDestroy(stream));
    free(A_h);
    free(C_h);
}

/* ------------------------------------------------------------------------------------------------ hipFreeAsync.cc */

static void free_async_negative(void) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    int *p = NULL;
    size_t alloc_size = 1024;
    for (int section = 0; section < 3; section++) {
        cudaStream_t stream = stream_guard();
        if (section == 0) { /* dev_ptr is nullptr */
            HIP_CHECK_ERROR(cudaFreeAsync(NULL, stream), cudaErrorInvalidValue);
        } else if (section == 1) { /* Invalid stream handle */
            HIP_CHECK(cudaMallocAsync((void **)&p, alloc_size, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK_ERROR(cudaFreeAsync(p, (cudaStream_t)(intptr_t)-1), cudaErrorInvalidResourceHandle);
            HIP_CHECK(cudaFreeAsync((void *)p, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));
        } else { /* Double free */
            HIP_CHECK(cudaMallocAsync((void **)&p, alloc_size, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaFreeAsync((void *)p, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK_ERROR(cudaFreeAsync((void *)p, stream), cudaErrorInvalidValue);
        }
        HIP_CHECK(cudaStreamDestroy(stream));
    }
}

/* ------------------------------------------------------------------------------------------------ hipMallocFromPoolAsync.cc */

static void malloc_from_pool_negative(void) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    void *p = NULL;
    size_t max_size = SIZE_MAX;
    size_t alloc_size = 1024;
    for (int section = 0; section < 4; section++) {
        cudaMemPool_t mempool = mempool_guard(created, device_id);
        cudaStream_t stream = stream_guard();
        if (section == 0) { /* dev_ptr is nullptr */
            HIP_CHECK_ERROR(cudaMallocFromPoolAsync(NULL, alloc_size, mempool, stream), cudaErrorInvalidValue);
        } else if (section == 1) { /* Mempool not created */
            cudaMemPool_t dummy_mem_pool = NULL;
            HIP_CHECK_ERROR(cudaMallocFromPoolAsync(&p, alloc_size, dummy_mem_pool, stream), cudaErrorInvalidValue);
        } else if (section == 2) { /* Invalid stream handle */
            HIP_CHECK_ERROR(cudaMallocFromPoolAsync(&p, alloc_size, mempool, (cudaStream_t)(intptr_t)-1),
                            cudaErrorInvalidResourceHandle);
        } else { /* Size is max size_t */
            HIP_CHECK_ERROR(cudaMallocFromPoolAsync(&p, max_size, mempool, stream), cudaErrorMemoryAllocation);
        }
        HIP_CHECK(cudaStreamDestroy(stream));
        mempool_guard_end(created, mempool);
    }
}

/* ------------------------------------------------------------------------------------------------ hipMemPoolSetGetAttribute.cc */

/* Unit_hipMemPoolSetAttribute_Opportunistic, one section per pass (0: Disallow - No Reuse, 1: Disallow - Reuse,
 * 2: Allow - Reuse, 3: Allow - No Reuse). */
static void opportunistic(int section) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    cudaMemPool_t mempool = mempool_guard(created, device_id);
    int blocks = 2;
    int clk_rate;
    HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
    int *alloc_mem1, *alloc_mem2, *alloc_mem3;
    // Create 2 async non-blocking streams
    cudaStream_t stream1 = stream_guard_flags(cudaStreamNonBlocking);
    cudaStream_t stream2 = stream_guard_flags(cudaStreamNonBlocking);
    size_t allocation_size = kPageSize;
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem3, allocation_size, mempool, stream1));
    int value = 0;
    struct k500 ka, kb;
    allocation_size = kPageSize * kPageSize * 2;
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem1, allocation_size, mempool, stream1));
    if (section < 2) {
        // Disable all default pool states
        HIP_CHECK(cudaMemPoolSetAttribute(mempool, cudaMemPoolReuseFollowEventDependencies, &value));
        HIP_CHECK(cudaMemPoolSetAttribute(mempool, cudaMemPoolReuseAllowOpportunistic, &value));
        HIP_CHECK(cudaMemPoolSetAttribute(mempool, cudaMemPoolReuseAllowInternalDependencies, &value));
    } else {
        value = 1;
        // Enable Opportunistic
        HIP_CHECK(cudaMemPoolSetAttribute(mempool, cudaMemPoolReuseAllowOpportunistic, &value));
        if (section == 2) {
            HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
        }
    }
    // Run kernel for 500 ms in the first stream
    kernel_500ms(32, blocks, stream1, alloc_mem1, &ka);
    // Not a real free, since kernel isn't done
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem1, stream1));
    if (section != 3) {
        // Sleep for 1 second GPU should be idle by now
        EXPECT(streamsimHostSleep(STREAMSIM_API_CUDA, 1000000000), STREAMSIM_SUCCESS);
    }
    cudaStream_t second = section == 1 ? stream1 : stream2;
    // Allocate memory for the second stream
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem2, allocation_size, mempool, second));
    if (section == 0) {
        // Without Opportunistic state runtime must allocate another buffer
        REQUIRE(alloc_mem1 != alloc_mem2);
    } else if (section == 1) {
        // Without Opportunistic state runtime must allocate another buffer
        REQUIRE(alloc_mem1 == alloc_mem2);
    } else if (section == 2) {
        // With Opportunistic state runtime will reuse freed buffer A
        REQUIRE(alloc_mem1 == alloc_mem2);
    } else {
        // With Opportunistic state runtime can't reuse freed buffer A, because it's still busy with the kernel
        REQUIRE(alloc_mem1 != alloc_mem2);
    }
    // Run kernel with the new memory in the second stream
    kernel_500ms(32, blocks, second, alloc_mem2, &kb);
    HIP_CHECK(cudaStreamSynchronize(stream1));
    if (section != 1) {
        HIP_CHECK(cudaStreamSynchronize(stream2));
    }
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem2, second));
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem3, stream1));
    HIP_CHECK(cudaStreamDestroy(stream2));
    HIP_CHECK(cudaStreamDestroy(stream1));
    mempool_guard_end(created, mempool);
}

/* Unit_hipMemPoolSetAttribute_EventDependencies (0: Allow - Reuse, 1: Disallow - No Reuse). */
static void event_dependencies(int section) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    cudaMemPool_t mempool = mempool_guard(created, device_id);
    int blocks = 2;
    int clk_rate;
    HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
    int *alloc_mem1, *alloc_mem2, *alloc_mem3;
    cudaStream_t stream1 = stream_guard_flags(cudaStreamNonBlocking);
    cudaStream_t stream2 = stream_guard_flags(cudaStreamNonBlocking);
    cudaEvent_t event;
    HIP_CHECK(cudaEventCreate(&event));
    size_t allocation_size = kPageSize;
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem3, allocation_size, mempool, stream1));
    int value = section == 0 ? 1 : 0;
    struct k500 ka, kb;
    allocation_size = kPageSize * kPageSize * 2;
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem1, allocation_size, mempool, stream1));
    HIP_CHECK(cudaMemPoolSetAttribute(mempool, cudaMemPoolReuseFollowEventDependencies, &value));
    if (section == 0) {
        HIP_CHECK(cudaDeviceGetAttribute(&clk_rate, cudaDevAttrClockRate, 0));
    }
    kernel_500ms(32, blocks, stream1, alloc_mem1, &ka);
    // Not a real free, since kernel isn't done
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem1, stream1));
    HIP_CHECK(cudaEventRecord(event, stream1));
    HIP_CHECK(cudaStreamWaitEvent(stream2, event, 0));
    HIP_CHECK(cudaMallocFromPoolAsync((void **)&alloc_mem2, allocation_size, mempool, stream2));
    if (section == 0) {
        REQUIRE(alloc_mem1 == alloc_mem2);
    } else {
        REQUIRE(alloc_mem1 != alloc_mem2);
    }
    kernel_500ms(32, blocks, stream2, alloc_mem2, &kb);
    HIP_CHECK(cudaStreamSynchronize(stream1));
    HIP_CHECK(cudaStreamSynchronize(stream2));
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem2, stream2));
    HIP_CHECK(cudaFreeAsync((void *)alloc_mem3, stream1));
    HIP_CHECK(cudaEventDestroy(event));
    HIP_CHECK(cudaStreamDestroy(stream2));
    HIP_CHECK(cudaStreamDestroy(stream1));
    mempool_guard_end(created, mempool);
}

static void set_attribute_negative(void) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    for (int section = 0; section < 4; section++) {
        cudaMemPool_t mempool = mempool_guard(dev_default, device_id);
        enum cudaMemPoolAttr attr = cudaMemPoolReuseFollowEventDependencies;
        int set_value = 0;
        uint64_t set_value64 = 0;
        if (section == 0) { /* Mempool is nullptr */
            HIP_CHECK_ERROR(cudaMemPoolSetAttribute(NULL, attr, &set_value), cudaErrorInvalidValue);
        } else if (section == 1) { /* Attribute value is not valid */
            HIP_CHECK_ERROR(cudaMemPoolSetAttribute(mempool, (enum cudaMemPoolAttr)0x9, &set_value),
                            cudaErrorInvalidValue);
        } else if (section == 2) { /* Set hipMemPoolAttrReservedMemHigh to non-zero */
            set_value64 = 1;
            HIP_CHECK_ERROR(cudaMemPoolSetAttribute(mempool, cudaMemPoolAttrReservedMemHigh, &set_value64),
                            cudaErrorInvalidValue);
        } else { /* Set hipMemPoolAttrUsedMemHigh to non-zero */
            set_value64 = 1;
            HIP_CHECK_ERROR(cudaMemPoolSetAttribute(mempool, cudaMemPoolAttrUsedMemHigh, &set_value64),
                            cudaErrorInvalidValue);
        }
        mempool_guard_end(dev_default, mempool);
    }
}

static void get_attribute_negative(void) {
    int device_id = 0;
    HIP_CHECK(cudaSetDevice(device_id));
    for (int section = 0; section < 3; section++) {
        cudaMemPool_t mempool = mempool_guard(dev_default, device_id);
        enum cudaMemPoolAttr attr = cudaMemPoolReuseFollowEventDependencies;
        int get_value = 0;
        if (section == 0) { /* Mempool is nullptr */
            HIP_CHECK_ERROR(cudaMemPoolGetAttribute(NULL, attr, &get_value), cudaErrorInvalidValue);
        } else if (section == 1) { /* Attribute value is not valid */
            HIP_CHECK_ERROR(cudaMemPoolGetAttribute(mempool, (enum cudaMemPoolAttr)0x9, &get_value),
                            cudaErrorInvalidValue);
        } else { /* Get values is nullptr */
            HIP_CHECK_ERROR(cudaMemPoolGetAttribute(mempool, attr, NULL), cudaErrorInvalidValue);
        }
        mempool_guard_end(dev_default, mempool);
    }
}

/* ------------------------------------------------------------------------------------------------ create / destroy / trim */

static void create_negative(void) {
    int num_dev = 0;
    HIP_CHECK(cudaGetDeviceCount(&num_dev));
    cudaMemPoolProps pool_props;
    memset(&pool_props, 0, sizeof(pool_props));
    pool_props.allocType = cudaMemAllocationTypePinned;
    pool_props.location.id = 0;
    pool_props.location.type = cudaMemLocationTypeDevice;
    cudaMemPool_t mem_pool = NULL;
    HIP_CHECK_ERROR(cudaMemPoolCreate(NULL, &pool_props), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaMemPoolCreate(&mem_pool, NULL), cudaErrorInvalidValue);
    pool_props.allocType = cudaMemAllocationTypeInvalid;
    HIP_CHECK_ERROR(cudaMemPoolCreate(&mem_pool, &pool_props), cudaErrorInvalidValue);
    pool_props.allocType = cudaMemAllocationTypePinned;
    pool_props.location.type = cudaMemLocationTypeInvalid;
    HIP_CHECK_ERROR(cudaMemPoolCreate(&mem_pool, &pool_props), cudaErrorInvalidValue);
    pool_props.location.type = cudaMemLocationTypeDevice;
    pool_props.location.id = num_dev;
    HIP_CHECK_ERROR(cudaMemPoolCreate(&mem_pool, &pool_props), cudaErrorInvalidValue);
    pool_props.location.id = 0;
}

static void destroy_negative(void) {
    cudaMemPool_t mem_pool = NULL;
    HIP_CHECK_ERROR(cudaMemPoolDestroy(NULL), cudaErrorInvalidValue);
    cudaMemPoolProps kPoolProps;
    memset(&kPoolProps, 0, sizeof(kPoolProps));
    kPoolProps.allocType = cudaMemAllocationTypePinned;
    kPoolProps.handleTypes = cudaMemHandleTypeNone;
    kPoolProps.location.type = cudaMemLocationTypeDevice;
    kPoolProps.location.id = 0;
    kPoolProps.win32SecurityAttributes = NULL;
    HIP_CHECK(cudaMemPoolCreate(&mem_pool, &kPoolProps));
    HIP_CHECK(cudaMemPoolDestroy(mem_pool));
    HIP_CHECK_ERROR(cudaMemPoolDestroy(mem_pool), cudaErrorInvalidValue);
    cudaMemPool_t default_mem_pool = NULL;
    int device = 0;
    HIP_CHECK(cudaDeviceGetDefaultMemPool(&default_mem_pool, device));
    HIP_CHECK_ERROR(cudaMemPoolDestroy(default_mem_pool), cudaErrorInvalidValue);
}

static void trim_to_negative(void) {
    size_t trim_size = 1024;
    HIP_CHECK_ERROR(cudaMemPoolTrimTo(NULL, trim_size), cudaErrorInvalidValue);
}

static void device_pool_negative(void) {
    int count = 0;
    HIP_CHECK(cudaGetDeviceCount(&count));
    cudaMemPool_t mem_pool;
    HIP_CHECK(cudaDeviceGetDefaultMemPool(&mem_pool, 0));
    HIP_CHECK_ERROR(cudaDeviceSetMemPool(0, NULL), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceSetMemPool(-1, mem_pool), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceSetMemPool(count, mem_pool), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceGetMemPool(NULL, 0), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceGetMemPool(&mem_pool, -1), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceGetMemPool(&mem_pool, count), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceGetDefaultMemPool(NULL, 0), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaDeviceGetDefaultMemPool(&mem_pool, -1), cudaErrorInvalidDevice);
    HIP_CHECK_ERROR(cudaDeviceGetDefaultMemPool(&mem_pool, count), cudaErrorInvalidDevice);
}

int main(void) {
    one_alloc(malloc_async, dev_default);
    two_allocs(malloc_async, dev_default);
    reuse(malloc_async, dev_default);
    one_alloc(malloc_from_pool, created);
    two_allocs(malloc_from_pool, created);
    reuse(malloc_from_pool, created);
    printf("MallocMemPoolAsync (OneAlloc, TwoAllocs, Reuse): ok\n");
    malloc_async_negative();
    malloc_async_by_using_malloc(0);
    malloc_async_by_using_malloc(1);
    free_async_negative();
    malloc_from_pool_negative();
    printf("hipMallocAsync, hipFreeAsync, hipMallocFromPoolAsync: ok\n");
    for (int section = 0; section < 4; section++) {
        opportunistic(section);
    }
    for (int section = 0; section < 2; section++) {
        event_dependencies(section);
    }
    set_attribute_negative();
    get_attribute_negative();
    printf("hipMemPoolSetGetAttribute: ok\n");
    create_negative();
    destroy_negative();
    trim_to_negative();
    device_pool_negative();
    printf("hipMemPoolCreate, Destroy, TrimTo, hipDevice{Set,Get,GetDefault}MemPool: ok\n");
    return 0;
}
