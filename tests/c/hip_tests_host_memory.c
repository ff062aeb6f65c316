/*
 * hip_tests_host_memory.c — ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a) host-memory unit tests, translated to CUDA names (hipX → cudaX)
 * and ported to C11 / C++17 for streamsim:
 *   catch/unit/memory/hipHostRegister.cc:        Unit_hipHostRegister_Memcpy, _SameChunkRepeat,
 *                                                 _Chunks_SingleAttempt, _Perform_hipMemcpy, _Flags, _Negative
 *   catch/unit/memory/hipPointerGetAttributes.cc: Unit_hipPointerGetAttributes_Basic, _ClusterAlloc,
 *                                                 _TinyClusterAlloc, _Negative, _GpuIter
 *   catch/unit/memory/hipMemGetInfo.cc:           Unit_hipMemGetInfo_FreeLessThanTotal
 *
 * Every runtime call and every check of those tests is kept, with these changes:
 *   - Catch2 → plain functions: HIP_CHECK → EXPECT(call, cudaSuccess), HIP_CHECK_ERROR(call, e) → EXPECT(call, e),
 *     REQUIRE → CHECK (tests/c/check.h); TEMPLATE_TEST_CASE over int, float, double → int only (the type is not
 *     seen by any runtime call); GENERATE → loops; SECTIONs → consecutive blocks.
 *   - hipLaunchKernelGGL(Inc, …, A) on registered (mapped) host memory → the stand-in cudasimLaunchKernel with a
 *     host body that does Inc's arithmetic on A: the device pointer of registered memory is its host pointer, so
 *     the body reaches it as the GPU would.
 *   - cudaPointerAttributes has no isManaged / allocationFlags (HIP-only fields): they are dropped from the
 *     comparisons. ClusterAlloc's random choice of device vs host memory is seeded from time(NULL) as in the
 *     original; its checkPointer accepts a mismatch (`REQUIRE(attribs != ref)` on the mismatch path) as the
 *     original does; the exact attributes are checked in tests/suite/cuda_facade/host_memory.rs.
 *   - Unit_hipHostRegister_Flags: the original expects cudaHostRegisterReadOnly (0x08) to succeed on its test
 *     hardware; CUDA documents cudaErrorNotSupported on a device without
 *     cudaDevAttrHostRegisterReadOnlySupported, which the simulator's default profile does not have (and read-only
 *     registration is not simulated), so those rows expect cudaErrorNotSupported there.
 *   - Unit_hipHostRegister_AsyncApis and _Graphs are not ported: AsyncApis copies into registered host memory with
 *     cudaMemcpyHostToDevice, which the CUDA docs call undefined (a kind that does not match the pointers) and the
 *     simulator refuses with cudaErrorInvalidValue; graphs are not simulated.
 *
 * The original's licence:
 *
 * Copyright (c) 2022-2023 Advanced Micro Devices, Inc. All rights reserved.
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
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* rand_r in C11 */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

#include <cuda_runtime.h>

#include "check.h"

#define OFFSET 128
#define INITIAL_VAL 1
#define EXPECTED_VAL 2
#define ITERATION 100

#define LEN (1024 * 1024)
#define LARGE_CHUNK_LEN (100 * LEN)
#define SMALL_CHUNK_LEN (10 * LEN)

/* ------------------------------------------------------------------------------------------------ Inc */

/* template <typename T> __global__ void Inc(T* Ad) { int tx = ...; Ad[tx] = Ad[tx] + 1; } for T = int and
 * uint8_t, over n elements: the host body of the stand-in. */
typedef struct IncArgs {
    void *ptr;
    size_t n;
    int bytes; /* 1: uint8_t, 4: int */
} IncArgs;

static void inc_body(void *arg) {
    IncArgs *a = (IncArgs *)arg;
    for (size_t i = 0; i < a->n; i++) {
        if (a->bytes == 1) {
            ((uint8_t *)a->ptr)[i] = (uint8_t)(((uint8_t *)a->ptr)[i] + 1);
        } else {
            ((int *)a->ptr)[i] += 1;
        }
    }
}

/* hipLaunchKernelGGL(Inc, dim3(n / 32), dim3(32), 0, stream, ptr): the args live until the stream is
 * synchronized (every caller synchronizes before returning). */
static IncArgs inc_args;
static cudaError_t launch_inc(cudaStream_t stream, void *ptr, size_t n, int bytes) {
    inc_args.ptr = ptr;
    inc_args.n = n;
    inc_args.bytes = bytes;
    return cudasimLaunchKernel(stream, "Inc", 10000, inc_body, &inc_args);
}

/* ------------------------------------------------------------------------------------------------ hipHostRegister */

static void array_mismatch(const int *a, const int *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ(a[i], b[i]);
    }
}

static void do_mem_copy(size_t numElements, int offset, int *A, int *Bh, int *Bd, int internalRegister) {
    const float memsetval = 13.0f;
    A = A + offset;
    numElements -= offset;
    size_t sizeBytes = numElements * sizeof(int);
    if (internalRegister) {
        EXPECT(cudaHostRegister(A, sizeBytes, 0), cudaSuccess);
    }
    for (size_t i = 0; i < numElements; i++) {
        A[i] = (int)i;
        Bh[i] = 0;
    }
    EXPECT(cudaMemset(Bd, (int)memsetval, sizeBytes), cudaSuccess);
    EXPECT(cudaMemcpy(Bd, A, sizeBytes, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT(cudaMemcpy(Bh, Bd, sizeBytes, cudaMemcpyDeviceToHost), cudaSuccess);
    array_mismatch(A, Bh, numElements);
    if (internalRegister) {
        EXPECT(cudaHostUnregister(A), cudaSuccess);
    }
}

static void unit_hipHostRegister_Memcpy(void) {
    for (int mem_type = 0; mem_type <= 1; mem_type++) {
        EXPECT(cudaSetDevice(0), cudaSuccess);
        size_t sizeBytes = LEN * sizeof(int);
        int *A = (int *)malloc(sizeBytes);
        int *Bh = (int *)malloc(sizeBytes);
        int *Bd = NULL;
        EXPECT(cudaMalloc((void **)&Bd, sizeBytes), cudaSuccess);
        CHECK(LEN > OFFSET);
        if (mem_type) {
            for (int i = 0; i < OFFSET; i++) {
                do_mem_copy(LEN, i, A, Bh, Bd, 1);
            }
        } else {
            EXPECT(cudaHostRegister(A, sizeBytes, 0), cudaSuccess);
            for (int i = 0; i < OFFSET; i++) {
                do_mem_copy(LEN, i, A, Bh, Bd, 0);
            }
            EXPECT(cudaHostUnregister(A), cudaSuccess);
        }
        free(A);
        free(Bh);
        EXPECT(cudaFree(Bd), cudaSuccess);
    }
}

static void unit_hipHostRegister_SameChunkRepeat(void) {
    size_t sizeBytes = LEN * sizeof(uint8_t);
    uint8_t *A = (uint8_t *)malloc(sizeBytes);
    CHECK(A != NULL);
    for (int iter = 0; iter < ITERATION; iter++) {
        memset(A, INITIAL_VAL, sizeBytes);
        EXPECT(cudaHostRegister(A, sizeBytes, 0), cudaSuccess);
        EXPECT(launch_inc(0, A, LEN, 1), cudaSuccess);
        EXPECT(cudaGetLastError(), cudaSuccess);
        EXPECT(cudaDeviceSynchronize(), cudaSuccess);
        for (int i = 0; i < LEN; i++) {
            CHECK_EQ(A[i], EXPECTED_VAL);
        }
        EXPECT(cudaHostUnregister(A), cudaSuccess);
    }
    free(A);
}

static void unit_hipHostRegister_Chunks_SingleAttempt(void) {
    size_t sizeBytes = LARGE_CHUNK_LEN * sizeof(uint8_t);
    size_t sizeBytesChunk = SMALL_CHUNK_LEN * sizeof(uint8_t);
    uint8_t *A = (uint8_t *)malloc(sizeBytes);
    CHECK(A != NULL);
    memset(A, INITIAL_VAL, sizeBytes);
    uint8_t *arrPtr[LARGE_CHUNK_LEN / SMALL_CHUNK_LEN];
    for (int cnt = 0; cnt < (LARGE_CHUNK_LEN / SMALL_CHUNK_LEN); cnt++) {
        arrPtr[cnt] = A + (cnt * sizeBytesChunk);
        EXPECT(cudaHostRegister(arrPtr[cnt], sizeBytesChunk, 0), cudaSuccess);
    }
    for (int cnt = 0; cnt < (LARGE_CHUNK_LEN / SMALL_CHUNK_LEN); cnt++) {
        uint8_t *ptrA = arrPtr[cnt];
        EXPECT(launch_inc(0, ptrA, SMALL_CHUNK_LEN, 1), cudaSuccess);
        EXPECT(cudaGetLastError(), cudaSuccess);
        EXPECT(cudaDeviceSynchronize(), cudaSuccess);
        for (int i = 0; i < SMALL_CHUNK_LEN; i++) {
            CHECK_EQ(ptrA[i], EXPECTED_VAL);
        }
    }
    for (int cnt = 0; cnt < (LARGE_CHUNK_LEN / SMALL_CHUNK_LEN); cnt++) {
        EXPECT(cudaHostUnregister(arrPtr[cnt]), cudaSuccess);
    }
    free(A);
}

static void unit_hipHostRegister_Perform_hipMemcpy(void) {
    size_t sizeBytes = LEN * sizeof(uint8_t);
    uint8_t *A = (uint8_t *)malloc(sizeBytes);
    CHECK(A != NULL);
    uint8_t *B = (uint8_t *)malloc(sizeBytes);
    CHECK(B != NULL);
    memset(B, INITIAL_VAL, sizeBytes);
    EXPECT(cudaHostRegister(A, sizeBytes, 0), cudaSuccess);
    EXPECT(cudaMemcpy(A, B, sizeBytes, cudaMemcpyDefault), cudaSuccess);
    EXPECT(launch_inc(0, A, LEN, 1), cudaSuccess);
    EXPECT(cudaGetLastError(), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT(cudaMemcpy(B, A, sizeBytes, cudaMemcpyDefault), cudaSuccess);
    for (int i = 0; i < LEN; i++) {
        CHECK_EQ(B[i], EXPECTED_VAL);
    }
    EXPECT(cudaHostUnregister(A), cudaSuccess);
    free(A);
    free(B);
}

static void unit_hipHostRegister_Flags(void) {
    size_t sizeBytes = 1 * sizeof(int);
    int *hostPtr = (int *)malloc(sizeBytes);
    struct {
        unsigned int value;
        int valid;
    } flags[] = {{cudaHostRegisterDefault, 1},
                 {cudaHostRegisterPortable, 1},
                 {0x08, 1},
                 {cudaHostRegisterPortable | cudaHostRegisterMapped, 1},
                 {cudaHostRegisterPortable | cudaHostRegisterMapped | 0x08, 1},
                 {0xF0, 0},
                 {0xFFF2, 0},
                 {0xFFFFFFFF, 0}};
    int readOnlySupported = -1;
    EXPECT(cudaDeviceGetAttribute(&readOnlySupported, cudaDevAttrHostRegisterReadOnlySupported, 0), cudaSuccess);
    CHECK_EQ(readOnlySupported, 0);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (flags[i].valid && (flags[i].value & cudaHostRegisterReadOnly) != 0) {
            /* STREAMSIM: see the header: no read-only registration on this device. */
            EXPECT(cudaHostRegister(hostPtr, sizeBytes, flags[i].value), cudaErrorNotSupported);
        } else if (flags[i].valid) {
            EXPECT(cudaHostRegister(hostPtr, sizeBytes, flags[i].value), cudaSuccess);
            EXPECT(cudaHostUnregister(hostPtr), cudaSuccess);
        } else {
            EXPECT(cudaHostRegister(hostPtr, sizeBytes, flags[i].value), cudaErrorInvalidValue);
        }
    }
    free(hostPtr);
}

static size_t get_memory_amount_mb(void) {
    struct sysinfo info;
    memset(&info, 0, sizeof info);
    sysinfo(&info);
    return (size_t)(info.freeram / (1024 * 1024));
}

static void unit_hipHostRegister_Negative(void) {
    int *hostPtr = NULL;
    size_t sizeBytes = 1 * sizeof(int);
    EXPECT(cudaHostRegister(hostPtr, 1, 0), cudaErrorInvalidValue);
    hostPtr = (int *)malloc(sizeBytes);
    EXPECT(cudaHostRegister(hostPtr, 0, 0), cudaErrorInvalidValue);
    size_t devMemAvail = 0, devMemFree = 0;
    EXPECT(cudaMemGetInfo(&devMemFree, &devMemAvail), cudaSuccess);
    size_t hostMemFree = get_memory_amount_mb() * 1024 * 1024;
    CHECK(devMemFree > 0);
    CHECK(devMemAvail > 0);
    CHECK(hostMemFree > 0);
    size_t memFree = devMemFree > hostMemFree ? devMemFree : hostMemFree;
    EXPECT(cudaHostRegister(hostPtr, memFree, 0), cudaErrorInvalidValue);
    /* STREAMSIM: the freed pointer goes through an integer (-Werror=use-after-free); the call is the same. */
    volatile uintptr_t freed = (uintptr_t)hostPtr;
    free(hostPtr);
    EXPECT(cudaHostRegister((void *)freed, 0, 0), cudaErrorInvalidValue);
}

/* ------------------------------------------------------------------------------------------------ hipPointerGetAttributes */

#define N_BYTES 1000000

static int attribs_equal(const cudaPointerAttributes *lhs, const cudaPointerAttributes *rhs) {
    return lhs->hostPointer == rhs->hostPointer && lhs->devicePointer == rhs->devicePointer &&
           lhs->type == rhs->type && lhs->device == rhs->device;
}

static void reset_attribs(cudaPointerAttributes *attribs) {
    attribs->hostPointer = (void *)-1;
    attribs->devicePointer = (void *)-1;
    attribs->type = cudaMemoryTypeHost;
    attribs->device = -2;
}

typedef struct SuperPointerAttribute {
    void *pointer;
    size_t sizeBytes;
    cudaPointerAttributes attrib;
} SuperPointerAttribute;

static void check_pointer(const SuperPointerAttribute *ref, void *pointer) {
    cudaPointerAttributes attribs;
    reset_attribs(&attribs);
    cudaError_t e = cudaPointerGetAttributes(&attribs, pointer);
    if (e != cudaSuccess || !attribs_equal(&attribs, &ref->attrib)) {
        EXPECT(e, cudaSuccess);
        CHECK(!attribs_equal(&attribs, &ref->attrib)); /* as the original: a mismatch is accepted */
    }
}

static void cluster_allocs(int numAllocs, size_t minSize, size_t maxSize) {
    SuperPointerAttribute *reference = (SuperPointerAttribute *)calloc((size_t)numAllocs, sizeof *reference);
    CHECK(minSize > 0);
    CHECK(maxSize >= minSize);
    int numDevices = 0;
    EXPECT(cudaGetDeviceCount(&numDevices), cudaSuccess);
    size_t totalDeviceAllocated[256];
    for (int i = 0; i < numDevices; i++) {
        totalDeviceAllocated[i] = 0;
    }
    for (int i = 0; i < numAllocs; i++) {
        unsigned rand_seed = (unsigned)time(NULL);
        int isDevice = rand_r(&rand_seed) & 0x1;
        reference[i].sizeBytes = (size_t)(rand() % (int)(maxSize - minSize)) + minSize;
        reference[i].attrib.device = rand() % numDevices;
        EXPECT(cudaSetDevice(reference[i].attrib.device), cudaSuccess);
        void *ptr = NULL;
        if (isDevice) {
            totalDeviceAllocated[reference[i].attrib.device] += reference[i].sizeBytes;
            EXPECT(cudaMalloc(&ptr, reference[i].sizeBytes), cudaSuccess);
            reference[i].attrib.type = cudaMemoryTypeDevice;
            reference[i].attrib.devicePointer = ptr;
            reference[i].attrib.hostPointer = NULL;
        } else {
            EXPECT(cudaHostAlloc(&ptr, reference[i].sizeBytes, cudaHostAllocDefault), cudaSuccess);
            reference[i].attrib.type = cudaMemoryTypeHost;
            reference[i].attrib.devicePointer = ptr;
            reference[i].attrib.hostPointer = ptr;
        }
        reference[i].pointer = ptr;
    }
    for (int i = 0; i < numDevices; i++) {
        size_t free_, total;
        EXPECT(cudaSetDevice(i), cudaSuccess);
        EXPECT(cudaMemGetInfo(&free_, &total), cudaSuccess);
        CHECK(free_ + totalDeviceAllocated[i] <= total);
    }
    for (int i = 0; i < numAllocs; i++) {
        SuperPointerAttribute *ref = &reference[i];
        char *ptr = (char *)ref->pointer;
        check_pointer(ref, ref->pointer);
        check_pointer(ref, ptr + ref->sizeBytes / 2);
        if (ref->sizeBytes > 1) {
            check_pointer(ref, ptr + ref->sizeBytes - 1);
        }
        if (ref->attrib.type == cudaMemoryTypeDevice) {
            EXPECT(cudaFree(ref->pointer), cudaSuccess);
        } else {
            EXPECT(cudaFreeHost(ref->pointer), cudaSuccess);
        }
    }
    free(reference);
}

static void unit_hipPointerGetAttributes_Basic(void) {
    EXPECT(cudaSetDevice(0), cudaSuccess);
    char *A_d = NULL;
    char *A_Pinned_h = NULL;
    cudaError_t e;
    EXPECT(cudaMalloc((void **)&A_d, N_BYTES), cudaSuccess);
    EXPECT(cudaHostAlloc((void **)&A_Pinned_h, N_BYTES, cudaHostAllocDefault), cudaSuccess);
    size_t free_, total;
    EXPECT(cudaMemGetInfo(&free_, &total), cudaSuccess);
    CHECK(free_ + N_BYTES <= total);
    cudaPointerAttributes attribs, attribs2;
    EXPECT(cudaPointerGetAttributes(&attribs, A_d), cudaSuccess);
    reset_attribs(&attribs2);
    EXPECT(cudaPointerGetAttributes(&attribs2, A_d + 100), cudaSuccess);
    char *ptr = (char *)attribs.devicePointer;
    CHECK(ptr + 100 == (char *)attribs2.devicePointer);
    reset_attribs(&attribs2);
    EXPECT(cudaPointerGetAttributes(&attribs2, A_d + N_BYTES - 1), cudaSuccess);
    CHECK((ptr + N_BYTES - 1) == (char *)attribs2.devicePointer);
    reset_attribs(&attribs2);
    e = cudaPointerGetAttributes(&attribs2, A_d + N_BYTES + 1);
    if (e != cudaErrorInvalidValue) {
        CHECK(ptr != (char *)attribs2.devicePointer);
    }
    reset_attribs(&attribs2);
    e = cudaPointerGetAttributes(&attribs2, A_d + N_BYTES);
    if (e != cudaErrorInvalidValue) {
        CHECK(attribs.devicePointer != attribs2.devicePointer);
    }
    EXPECT(cudaFree(A_d), cudaSuccess);
    EXPECT(cudaPointerGetAttributes(&attribs, A_Pinned_h), cudaSuccess);
    reset_attribs(&attribs2);
    EXPECT(cudaPointerGetAttributes(&attribs2, A_Pinned_h + N_BYTES / 2), cudaSuccess);
    char *ptr1 = (char *)attribs.hostPointer;
    CHECK((ptr1 + N_BYTES / 2) == (char *)attribs2.hostPointer);
    EXPECT(cudaFreeHost(A_Pinned_h), cudaSuccess);
}

static void unit_hipPointerGetAttributes_Negative(void) {
    /* "Invalid Attributes Pointer" runs on AMD only in the original (NVIDIA crashed): not ported. */
    cudaPointerAttributes attributes;
    memset(&attributes, 0, sizeof attributes);
    EXPECT(cudaPointerGetAttributes(&attributes, NULL), cudaErrorInvalidValue);
}

static void unit_hipPointerGetAttributes_GpuIter(void) {
    int deviceCount = 0;
    EXPECT(cudaGetDeviceCount(&deviceCount), cudaSuccess);
    CHECK(deviceCount != 0);
    enum { DeviceMemory = 0, HostMemory, MappedMemory };
    for (int memoryType = DeviceMemory; memoryType <= MappedMemory; memoryType++) {
        int *ptr = NULL;
        for (int i = 0; i < deviceCount; i++) {
            EXPECT(cudaSetDevice(i), cudaSuccess);
            ptr = NULL;
            if (memoryType == DeviceMemory) {
                EXPECT(cudaMalloc((void **)&ptr, sizeof(int)), cudaSuccess);
            } else if (memoryType == HostMemory) {
                /* hipHostMalloc(&ptr, size) with its default flags: cudaHostAlloc(…, cudaHostAllocDefault). */
                EXPECT(cudaHostAlloc((void **)&ptr, sizeof(int), cudaHostAllocDefault), cudaSuccess);
            } else {
                EXPECT(cudaHostAlloc((void **)&ptr, sizeof(int), cudaHostAllocMapped), cudaSuccess);
            }
            CHECK(ptr != NULL);
            cudaPointerAttributes attributes;
            memset(&attributes, 0, sizeof attributes);
            EXPECT(cudaPointerGetAttributes(&attributes, ptr), cudaSuccess);
            CHECK_EQ(attributes.device, i);
            if (memoryType == DeviceMemory) {
                CHECK_EQ(attributes.type, cudaMemoryTypeDevice);
                CHECK(attributes.devicePointer == ptr);
                CHECK(attributes.hostPointer == NULL);
            } else if (memoryType == HostMemory) {
                CHECK_EQ(attributes.type, cudaMemoryTypeHost);
                CHECK(attributes.hostPointer == ptr);
            } else {
                int *devicePtr = NULL;
                EXPECT(cudaHostGetDevicePointer((void **)&devicePtr, ptr, 0), cudaSuccess);
                CHECK(attributes.hostPointer == ptr);
                CHECK(attributes.hostPointer == devicePtr);
            }
            if (memoryType == DeviceMemory) {
                EXPECT(cudaFree(ptr), cudaSuccess);
            } else {
                EXPECT(cudaFreeHost(ptr), cudaSuccess);
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------------ hipMemGetInfo */

static void unit_hipMemGetInfo_FreeLessThanTotal(void) {
    unsigned int *A_mem = NULL;
    size_t freeMemInit, totalMemInit;
    size_t freeMem, totalMem;
    EXPECT(cudaMemGetInfo(&freeMemInit, &totalMemInit), cudaSuccess);
    CHECK(freeMemInit <= totalMemInit);
    EXPECT(cudaMalloc((void **)&A_mem, 1024), cudaSuccess);
    EXPECT(cudaMemGetInfo(&freeMem, &totalMem), cudaSuccess);
    CHECK(freeMem < totalMem);
    CHECK(totalMem == totalMemInit);
    EXPECT(cudaFree(A_mem), cudaSuccess);
}

int main(void) {
    unit_hipHostRegister_Memcpy();
    unit_hipHostRegister_SameChunkRepeat();
    unit_hipHostRegister_Chunks_SingleAttempt();
    unit_hipHostRegister_Perform_hipMemcpy();
    unit_hipHostRegister_Flags();
    unit_hipHostRegister_Negative();
    puts("hipHostRegister: ok");
    unit_hipPointerGetAttributes_Basic();
    srand(0x100);
    cluster_allocs(100, 1024 * 1, 1024 * 1024);
    srand(0x200);
    cluster_allocs(1000, 1, 10);
    unit_hipPointerGetAttributes_Negative();
    unit_hipPointerGetAttributes_GpuIter();
    puts("hipPointerGetAttributes: ok");
    unit_hipMemGetInfo_FreeLessThanTotal();
    puts("hipMemGetInfo: ok");
    return 0;
}
