/*
 * hip_tests_cu.h — what the hip-tests ports written as .cu programs take from hip-tests' Catch2 harness
 * (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a: catch/include/hip_test_common.hh,
 * utils.hh, resource_guards.hh, hip_test_checkers.hh, hipMallocManagedCommon.hh, catch/kernels/Set.cpp), in CUDA
 * names. It needs nothing of streamsim's: the same source builds with `streamsim cc` and with NVIDIA's nvcc.
 *
 *   - HIP_CHECK(call) / HIP_CHECK_ERROR(call, code) / REQUIRE(cond) / REQUIRE_FALSE(cond): on a mismatch, print
 *     the file, the line, the call and both codes' names, and exit 1 (Catch2 ends the test case; here the run).
 *     INFO, WARN and SUCCEED print nothing (Catch2 prints them only with a failure or when asked).
 *   - SECTION(name): Catch2 runs a test case once per leaf section, from the top, each pass entering the next
 *     section; RunSections(body) does the same for a body whose sections are not nested. GENERATE becomes a loop
 *     around RunSections, in the generator's order.
 *   - HIP_SKIP_TEST(reason): says so on stdout; the caller returns, as hip-tests' does.
 *   - LinearAllocGuard and StreamGuard: hip-tests' guards (the allocation and stream kinds the ports use).
 *   - The kernels and helpers of hip_test_kernels.hh, hip_test_checkers.hh and hip_test_common.hh the ports
 *     call (vectorADD, vector_square, VectorIncrement, Set, Delay; setDefaultData, initArrays, freeArrays, checkVectorADD,
 *     setNumBlocks, launchKernel), as upstream; a mismatch's CHECK(false) ends the run as REQUIRE does.
 *   - MemPrefetchAsync / MemAdvise take a device ordinal as hipMemPrefetchAsync / hipMemAdvise do, and call the
 *     CUDA form the headers declare: CUDA 12's (an int device, cudaCpuDeviceId for the host) or CUDA 13's (a
 *     cudaMemLocation: the host for cudaCpuDeviceId, else a device of that ordinal; flags 0) — what HIP's NVIDIA
 *     layer does for each toolkit.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2024 Advanced Micro Devices, Inc. All rights reserved.
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 * to permit persons to whom the Software is furnished to do so, subject to the following conditions: The above
 * copyright notice and this permission notice shall be included in all copies or substantial portions of the
 * Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
 * LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT
 * SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 * ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR
 * OTHER DEALINGS IN THE SOFTWARE.
 */
#ifndef STREAMSIM_TESTS_HIP_TESTS_CU_H
#define STREAMSIM_TESTS_HIP_TESTS_CU_H

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

static inline void HipTestCheck(const char *file, int line, const char *call, cudaError_t got, cudaError_t want) {
    if (got != want) {
        printf("%s:%d: %s\n  got %d %s, expected %d %s\n", file, line, call, (int)got, cudaGetErrorName(got),
               (int)want, cudaGetErrorName(want));
        exit(1);
    }
}

static inline void HipTestRequire(const char *file, int line, const char *what, bool ok) {
    if (!ok) {
        printf("%s:%d: REQUIRE(%s) failed\n", file, line, what);
        exit(1);
    }
}

#define HIP_CHECK(call) HipTestCheck(__FILE__, __LINE__, #call, (call), cudaSuccess)
#define HIP_CHECK_ERROR(call, want) HipTestCheck(__FILE__, __LINE__, #call, (call), (want))
#define REQUIRE(cond) HipTestRequire(__FILE__, __LINE__, #cond, (cond))
#define REQUIRE_FALSE(cond) HipTestRequire(__FILE__, __LINE__, "!(" #cond ")", !(cond))
#define INFO(msg) ((void)0)
#define WARN(msg) ((void)0)
#define SUCCEED(msg) ((void)0)

/* Catch2's sections, not nested: pass k of a test case enters its k-th SECTION and skips the others. */
static int hip_tests_section_target = 0;
static int hip_tests_section_seen = 0;
#define SECTION(name) if (hip_tests_section_seen++ == hip_tests_section_target)

template <class F> static void RunSections(F body) {
    int target = 0;
    do {
        hip_tests_section_target = target;
        hip_tests_section_seen = 0;
        body();
        target++;
    } while (target < hip_tests_section_seen);
}

static int hip_tests_skipped = 0;
namespace HipTest {
static inline void HIP_SKIP_TEST(const char *reason) {
    printf("  skipped: %s\n", reason);
    hip_tests_skipped++;
}

static inline int getDeviceCount() {
    int n = 0;
    HIP_CHECK(cudaGetDeviceCount(&n));
    return n;
}
} // namespace HipTest

namespace {
constexpr size_t kPageSize = 4096;
}

template <typename T> static void ArrayFindIfNot(T *const array, const T expected_value, const size_t num_elements) {
    T *const end = array + num_elements;
    T *const it = std::find_if_not(array, end, [expected_value](const T elem) { return expected_value == elem; });
    if (it != end) {
        INFO("Value mismatch at index " << (it - array));
        REQUIRE(expected_value == *it);
    }
}

static inline int DeviceAttributeSupport(const int device, const cudaDeviceAttr attribute) {
    int value = 0;
    HIP_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
}

template <typename... Attributes> static bool DeviceAttributesSupport(const int device, Attributes... attributes) {
    return (... && DeviceAttributeSupport(device, attributes));
}

/* utils.hh's Delay (HT_NVIDIA branch) and LaunchDelayKernel. */
static __global__ void Delay(uint32_t interval, const uint32_t ticks_per_ms) {
    while (interval--) {
        uint64_t start = clock64();
        while (clock64() - start < ticks_per_ms) {
        }
    }
}

static inline void LaunchDelayKernel(const std::chrono::milliseconds interval, const cudaStream_t stream = nullptr) {
    int ticks_per_ms = 0;
    HIP_CHECK(cudaDeviceGetAttribute(&ticks_per_ms, cudaDevAttrClockRate, 0));
    Delay<<<1, 1, 0, stream>>>(interval.count(), ticks_per_ms);
}

template <typename T> __global__ void VectorIncrement(T *const vec, const T increment_value, size_t N) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < N; i += stride) {
        vec[i] += increment_value;
    }
}

/* catch/kernels/Set.cpp */
__global__ void Set(int *Ad, int val) {
    int tx = threadIdx.x + blockIdx.x * blockDim.x;
    Ad[tx] = val;
}

namespace HipTest {
/* hip_test_kernels.hh */
template <typename T> __global__ void vector_square(const T *A_d, T *C_d, size_t N_ELMTS) {
    size_t gputhread = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = gputhread; i < N_ELMTS; i += stride) {
        C_d[i] = A_d[i] * A_d[i];
    }
}

template <typename T> __global__ void vectorADD(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < NELEM; i += stride) {
        C_d[i] = A_d[i] + B_d[i];
    }
}
} // namespace HipTest

namespace HipTest {
/* hip_test_checkers.hh */
template <typename T> void setDefaultData(size_t numElements, T *A_h, T *B_h, T *C_h) {
    for (size_t i = 0; i < numElements; i++) {
        if (std::is_same<T, int>::value || std::is_same<T, unsigned int>::value) {
            if (A_h) A_h[i] = 3;
            if (B_h) B_h[i] = 4;
            if (C_h) C_h[i] = 5;
        } else if (std::is_same<T, char>::value || std::is_same<T, unsigned char>::value) {
            if (A_h) A_h[i] = 'a';
            if (B_h) B_h[i] = 'b';
            if (C_h) C_h[i] = 'c';
        } else {
            if (A_h) A_h[i] = 3.146f + i;
            if (B_h) B_h[i] = 1.618f + i;
            if (C_h) C_h[i] = 1.4f + i;
        }
    }
}

/* hip_test_common.hh */
static inline unsigned setNumBlocks(unsigned blocksPerCU, unsigned threadsPerBlock, size_t N) {
    int device{0};
    HIP_CHECK(cudaGetDevice(&device));
    cudaDeviceProp props{};
    HIP_CHECK(cudaGetDeviceProperties(&props, device));
    unsigned blocks = props.multiProcessorCount * blocksPerCU;
    if (blocks * threadsPerBlock < N) {
        blocks = (N + threadsPerBlock - 1) / threadsPerBlock;
    }
    return blocks;
}
} // namespace HipTest

namespace HipTest {
/* hip_test_common.hh's launchKernel: the launch, then the launch's error. */
template <typename... Typenames, typename K, typename Dim, typename... Args>
void launchKernel(K kernel, Dim numBlocks, Dim numThreads, std::uint32_t memPerBlock, cudaStream_t stream,
                  Args &&...packedArgs) {
    kernel<<<numBlocks, numThreads, memPerBlock, stream>>>(std::forward<Args>(packedArgs)...);
    HIP_CHECK(cudaGetLastError());
}
} // namespace HipTest

namespace HipTest {
/* hip_test_checkers.hh */
#define TOL 0.001
template <typename T>
size_t checkVectors(T *A, T *B, T *Out, size_t N, T (*F)(T a, T b), bool expectMatch = true,
                    bool reportMismatch = true) {
    size_t mismatchCount = 0;
    for (size_t i = 0; i < N; i++) {
        T expected = F(A[i], B[i]);
        if (std::fabs(Out[i] - expected) > TOL) {
            mismatchCount++;
            if ((mismatchCount <= 10) && expectMatch) {
                INFO("Mismatch at " << i << " Computed: " << Out[i] << " Expeted: " << expected);
                REQUIRE(false); /* Catch2's CHECK(false): the test case fails */
            }
        }
    }
    if (reportMismatch) {
        if (expectMatch) {
            REQUIRE(mismatchCount == 0);
        } else {
            REQUIRE(mismatchCount != 0);
        }
    }
    return mismatchCount;
}

template <typename T>
size_t checkVectorADD(T *A_h, T *B_h, T *result_H, size_t N, bool expectMatch = true, bool reportMismatch = true) {
    return checkVectors<T>(A_h, B_h, result_H, N, [](T a, T b) { return a + b; }, expectMatch, reportMismatch);
}

template <typename T> bool initArraysForHost(T **A_h, T **B_h, T **C_h, size_t N, bool usePinnedHost = false) {
    size_t Nbytes = N * sizeof(T);
    if (usePinnedHost) {
        if (A_h) HIP_CHECK(cudaMallocHost((void **)A_h, Nbytes));
        if (B_h) HIP_CHECK(cudaMallocHost((void **)B_h, Nbytes));
        if (C_h) HIP_CHECK(cudaMallocHost((void **)C_h, Nbytes));
    } else {
        if (A_h) {
            *A_h = (T *)malloc(Nbytes);
            REQUIRE(*A_h != nullptr);
        }
        if (B_h) {
            *B_h = (T *)malloc(Nbytes);
            REQUIRE(*B_h != nullptr);
        }
        if (C_h) {
            *C_h = (T *)malloc(Nbytes);
            REQUIRE(*C_h != nullptr);
        }
    }
    setDefaultData(N, A_h ? *A_h : nullptr, B_h ? *B_h : nullptr, C_h ? *C_h : nullptr);
    return true;
}

template <typename T>
bool initArrays(T **A_d, T **B_d, T **C_d, T **A_h, T **B_h, T **C_h, size_t N, bool usePinnedHost = false) {
    size_t Nbytes = N * sizeof(T);
    if (A_d) HIP_CHECK(cudaMalloc(A_d, Nbytes));
    if (B_d) HIP_CHECK(cudaMalloc(B_d, Nbytes));
    if (C_d) HIP_CHECK(cudaMalloc(C_d, Nbytes));
    return initArraysForHost(A_h, B_h, C_h, N, usePinnedHost);
}

template <typename T> bool freeArraysForHost(T *A_h, T *B_h, T *C_h, bool usePinnedHost) {
    if (usePinnedHost) {
        if (A_h) HIP_CHECK(cudaFreeHost(A_h));
        if (B_h) HIP_CHECK(cudaFreeHost(B_h));
        if (C_h) HIP_CHECK(cudaFreeHost(C_h));
    } else {
        free(A_h);
        free(B_h);
        free(C_h);
    }
    return true;
}

template <typename T> bool freeArrays(T *A_d, T *B_d, T *C_d, T *A_h, T *B_h, T *C_h, bool usePinnedHost) {
    if (A_d) HIP_CHECK(cudaFree(A_d));
    if (B_d) HIP_CHECK(cudaFree(B_d));
    if (C_d) HIP_CHECK(cudaFree(C_d));
    return freeArraysForHost(A_h, B_h, C_h, usePinnedHost);
}
} // namespace HipTest

enum class LinearAllocs { malloc, hipMalloc, hipMallocManaged, noAlloc, hipHostMalloc };

/* resource_guards.hh's LinearAllocGuard: malloc / cudaMalloc / cudaMallocManaged (flags 0 → cudaMemAttachGlobal) /
 * cudaHostAlloc (hipHostMalloc), freed by the destructor without a check. */
template <typename T> class LinearAllocGuard {
  public:
    LinearAllocGuard(const LinearAllocs allocation_type, const size_t size, const unsigned int flags = 0u)
        : allocation_type_{allocation_type} {
        switch (allocation_type_) {
        case LinearAllocs::malloc:
            ptr_ = host_ptr_ = reinterpret_cast<T *>(::malloc(size));
            break;
        case LinearAllocs::hipMalloc:
            HIP_CHECK(cudaMalloc(reinterpret_cast<void **>(&ptr_), size));
            break;
        case LinearAllocs::hipMallocManaged:
            HIP_CHECK(cudaMallocManaged(reinterpret_cast<void **>(&ptr_), size, flags ? flags : 1u));
            host_ptr_ = ptr_;
            break;
        case LinearAllocs::noAlloc:
            break;
        case LinearAllocs::hipHostMalloc:
            HIP_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&ptr_), size, flags));
            host_ptr_ = ptr_;
            break;
        }
    }
    LinearAllocGuard(const LinearAllocGuard &) = delete;
    ~LinearAllocGuard() {
        if (ptr_ == nullptr) {
            return;
        }
        switch (allocation_type_) {
        case LinearAllocs::noAlloc:
            break;
        case LinearAllocs::malloc:
            free(ptr_);
            break;
        case LinearAllocs::hipHostMalloc:
            static_cast<void>(cudaFreeHost(ptr_));
            break;
        case LinearAllocs::hipMalloc:
        case LinearAllocs::hipMallocManaged:
            static_cast<void>(cudaFree(ptr_));
        }
    }
    T *ptr() const { return ptr_; }
    T *host_ptr() const { return host_ptr_; }

  private:
    LinearAllocs allocation_type_ = LinearAllocs::noAlloc;
    T *ptr_ = nullptr;
    T *host_ptr_ = nullptr;
};

enum class Streams { nullstream, perThread, created };

/* resource_guards.hh's StreamGuard. */
class StreamGuard {
  public:
    StreamGuard(const Streams stream_type) : stream_type_{stream_type} {
        switch (stream_type_) {
        case Streams::nullstream:
            stream_ = nullptr;
            break;
        case Streams::perThread:
            stream_ = cudaStreamPerThread;
            break;
        case Streams::created:
            HIP_CHECK(cudaStreamCreate(&stream_));
        }
    }
    StreamGuard(const StreamGuard &) = delete;
    ~StreamGuard() {
        if (stream_type_ == Streams::created) {
            static_cast<void>(cudaStreamDestroy(stream_));
        }
    }
    cudaStream_t stream() const { return stream_; }

  private:
    const Streams stream_type_;
    cudaStream_t stream_;
};

/* hipMemPrefetchAsync / hipMemAdvise as HIP's NVIDIA layer calls CUDA. */
#if CUDART_VERSION >= 13000
static inline cudaMemLocation HipTestLocation(int device) {
    cudaMemLocation l = {};
    if (device == cudaCpuDeviceId) {
        l.type = cudaMemLocationTypeHost;
        l.id = 0;
    } else {
        l.type = cudaMemLocationTypeDevice;
        l.id = device;
    }
    return l;
}
static inline cudaError_t MemPrefetchAsync(const void *dev_ptr, size_t count, int device,
                                           cudaStream_t stream = nullptr) {
    return cudaMemPrefetchAsync(dev_ptr, count, HipTestLocation(device), 0, stream);
}
static inline cudaError_t MemAdvise(const void *dev_ptr, size_t count, cudaMemoryAdvise advice, int device) {
    return cudaMemAdvise(dev_ptr, count, advice, HipTestLocation(device));
}
#else
static inline cudaError_t MemPrefetchAsync(const void *dev_ptr, size_t count, int device,
                                           cudaStream_t stream = nullptr) {
    return cudaMemPrefetchAsync(dev_ptr, count, device, stream);
}
static inline cudaError_t MemAdvise(const void *dev_ptr, size_t count, cudaMemoryAdvise advice, int device) {
    return cudaMemAdvise(dev_ptr, count, advice, device);
}
#endif

/* Runs one TEST_CASE and says so. hip-tests' ctest runs each test case in a process of its own, so what a test
 * case leaves does not reach the next: device 0 is made current and the last error (cudaGetLastError) cleared
 * first. */
#define HIP_TEST_CASE(name)                                                                                       \
    do {                                                                                                          \
        printf("%s\n", #name);                                                                                    \
        static_cast<void>(cudaSetDevice(0));                                                                      \
        static_cast<void>(cudaGetLastError());                                                                    \
        name();                                                                                                   \
        hip_tests_cases++;                                                                                        \
    } while (0)
static int hip_tests_cases = 0;

#endif
