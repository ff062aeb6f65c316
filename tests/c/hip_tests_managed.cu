/*
 * hip_tests_managed.cu — the managed-memory unit tests of ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to CUDA names (hipX → cudaX) as a .cu program that both
 * `streamsim cc` and NVIDIA's nvcc build:
 *   catch/unit/memory/hipMallocManaged.cc:         Unit_hipMallocManaged_Basic, _Advanced, _Large
 *   catch/unit/memory/hipMemPrefetchAsync.cc:      Unit_hipMemPrefetchAsync_Basic, _Sync_Behavior,
 *                                                  _Rounding_Behavior, _Negative_Parameters
 *   catch/unit/memory/hipMemAdvise.cc:             Unit_hipMemAdvise_Set_Unset_Basic, _No_Flag_Interference,
 *                                                  _Rounding, _Flags_Do_Not_Cause_Prefetch,
 *                                                  _Read_Write_After_Advise, _Prefetch_After_Advise,
 *                                                  _AccessedBy_All_Devices, _Negative_Parameters
 *   catch/unit/memory/hipMemRangeGetAttribute.cc:  all twelve test cases (ReadMostly, PreferredLocation,
 *                                                  LastPrefetchLocation, AccessedBy; _Negative_Parameters)
 *   catch/unit/memory/hipMemRangeGetAttributes.cc: Unit_hipMemRangeGetAttributes_Positive_Basic,
 *                                                  _Negative_Parameters
 *   catch/unit/memory/hipStreamAttachMemAsync.cc:  Unit_hipStreamAttachMemAsync_Positive_Basic, _Pageable,
 *                                                  _AttachGlobal, _AttachHost, _AttachSingle, _Negative_Parameters
 *   catch/unit/memory/hipMallocManagedFlagsTst.cc: Unit_hipMallocManaged_FlgParam, _AccessMultiStream
 *   catch/unit/memory/hipMallocManaged_MultiScenario.cc: Unit_hipMallocManaged_HostDeviceConcurrent,
 *                                                  _MultiChunkSingleDevice, _MultiChunkMultiDevice,
 *                                                  _OverSubscription, _Negative, _TwoPointers (int, float,
 *                                                  double), _DeviceContextChange (unsigned char, int, float,
 *                                                  double)
 *   catch/unit/memory/hipMemPrefetchAsyncExtTsts.cc: Unit_hipMemPrefetchAsyncAdviseFlgTst, _AccsdByTst,
 *                                                  _NegativeTst, Unit_hipMemPrefetchAsync_NonPageSz
 *   catch/unit/memory/hipMemAdvise_old.cc:         the 14 test cases built for NVIDIA (Unit_hipMemAdvise_TstFlags,
 *                                                  _NegtveTsts, _PrefrdLoc, _ReadMostly, _TstFlgOverrideEffect,
 *                                                  _TstAccessedByFlg, 2, 3 and 4, _TstMemAdvisePrefrdLoc,
 *                                                  _TstMemAdviseLstPreftchLoc, _TstMemAdviseMultiFlag,
 *                                                  _ReadMosltyMgpuTst (its two sections are HT_AMD only),
 *                                                  _TstSetUnsetPrfrdLoc)
 *   catch/unit/memory/hipMemRangeGetAttribute_old.cc: all six test cases (_TstCountParam allocates the device's
 *                                                  free memory as managed memory, as upstream)
 *   catch/unit/memory/hipMemRangeGetAttributes_old.cc: Unit_hipMemRangeGetAttributes_TstFlgs, _NegativeTst
 *   catch/unit/memory/hipMemCoherencyTst.cc:       Unit_hipHostMalloc_CoherentTst (a kernel and a host thread
 *                                                  hand a pinned word back and forth with system-scope atomics),
 *                                                  Unit_hipMallocManaged_CoherentTstWthAdvise (the others are
 *                                                  HT_AMD only; hipHostMalloc → cudaHostAlloc with HIP's NVIDIA
 *                                                  flags: hipHostMallocCoherent is 0)
 *   catch/unit/stream/hipStreamAttachMemAsync.cc:  Unit_hipStreamAttachMemAsync_Negative, _UseCase (with its
 *                                                  __managed__ variables; hip-tests' CMake builds this file for
 *                                                  no platform yet: "Enable it after hipStreamAttachMemAsync is
 *                                                  feature complete on HIP")
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Changes:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h: each SECTION runs in its own pass of its test case, as
 *     Catch2 runs them; GENERATE → a loop around the passes, in the generator's order; the guards are
 *     hip-tests' own (LinearAllocGuard, StreamGuard), in that header.
 *   - hipMemPrefetchAsync(ptr, count, device, stream) and hipMemAdvise(ptr, count, advice, device) take a device
 *     ordinal (hipCpuDeviceId: the host); they become MemPrefetchAsync / MemAdvise of that header, which call the
 *     form the CUDA headers declare (CUDA 12's int device under `streamsim cc`, CUDA 13's cudaMemLocation under
 *     nvcc 13), as HIP's NVIDIA layer does.
 *   - hip error names → the CUDA codes HIP's NVIDIA layer maps them from: hipErrorInvalidValue →
 *     cudaErrorInvalidValue, hipErrorInvalidDevice → cudaErrorInvalidDevice, hipErrorNotReady →
 *     cudaErrorNotReady, hipErrorOutOfMemory → cudaErrorMemoryAllocation. hipErrorContextIsDestroyed (709, what a
 *     destroyed stream gave on hip-tests' NVIDIA machines) → cudaErrorInvalidResourceHandle (400): the Runtime API
 *     lists 400 and not 709 for cudaMemPrefetchAsync and cudaStreamAttachMemAsync, a destroyed handle is
 *     undefined behaviour, and the simulator answers every destroyed handle with 400 (cuda-musa.md).
 *   - Unit_hipMallocManaged_Basic / _Advanced: 1 Mi elements instead of 64 Mi (the kernels run on the CPU; the
 *     checks are the same). Its `printf("Time %.3f ms\n", time)` prints the kernel's virtual time.
 *   - AMD-only branches (#if HT_AMD) are left out: Unit_hipMemAdvise_Negative_Parameters' "Invalid advice"
 *     section; the HT_NVIDIA branches run (the prefetch of device memory, the accessed-by sections, "count
 *     larger than allocation size" and "Invalid device" of hipMemAdvise).
 *   - Unit_hipStreamAttachMemAsync_Positive_AttachGlobal creates a stream on each device and then launches into
 *     each with the last device current. HIP launches on the stream's device; CUDA does not: "A kernel launch will
 *     fail if it is issued to a stream that is not associated to the current device" (Programming Guide,
 *     "Multi-Device System"; the simulator answers 400, cuda-musa.md). On two or more devices the port makes the
 *     stream's device current (cudaSetDevice(i)) before each launch, as a CUDA program must.
 *   - Unit_hipMallocManaged_MultiChunkMultiDevice launches on a stream of each device, then calls
 *     cudaDeviceSynchronize once, with the last device current, and copies every device's results. CUDA's
 *     cudaDeviceSynchronize "blocks until the device has completed all preceding requested tasks": the current
 *     device only, so the copy of device 0's results races with device 0's kernel (it passes on hardware when the
 *     kernel happens to be done). The port synchronizes each device (cudaSetDevice(d), cudaDeviceSynchronize()).
 *   - Unit_hipMallocManaged_Negative: the HT_NVIDIA branch expects size 0 to succeed ("it is observed that cuda
 *     11.2 api returns success and contradicts with api doc"); the Runtime API says "If size is 0,
 *     cudaMallocManaged returns cudaErrorInvalidValue", which the simulator does and the port expects.
 *   - hipMallocManaged_MultiScenario.cc's N is 1 Mi instead of 4 Mi (the kernels run on the CPU);
 *     _DeviceContextChange frees its new[] arrays with delete[] (upstream: free()).
 *   - The _old files are converted mechanically (hipX → cudaX, hipMemAdvise / hipMemPrefetchAsync → MemAdvise /
 *     MemPrefetchAsync, hipHostMalloc(&p, n, 0) → cudaHostAlloc(&p, n, 0), TEST_CASE → a function, its SECTIONs
 *     run by RunSections); their HT_AMD-only parts are left out where marked.
 *   - A test case hip-tests skips on the device (HIP_SKIP_TEST) says so and returns, as upstream: _AttachHost and
 *     _AttachSingle need a device without concurrentManagedAccess, _Pageable one with pageableMemoryAccess.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2022 - 2024 Advanced Micro Devices, Inc. All rights reserved.
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
#include <math.h>

#include <string.h>

#include <array>
#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hip_tests_cu.h"

/* ============================================================================ hipMallocManaged.cc */

/* hipMallocManagedCommon.hh */
static int HmmAttrPrint() {
    int managed = 0;
    INFO("The following are the attribute values related to HMM for device 0:\n");
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrDirectManagedMemAccessFromHost, 0));
    INFO("hipDeviceAttributeDirectManagedMemAccessFromHost: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrConcurrentManagedAccess, 0));
    INFO("hipDeviceAttributeConcurrentManagedAccess: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrPageableMemoryAccess, 0));
    INFO("hipDeviceAttributePageableMemoryAccess: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
    INFO("hipDeviceAttributePageableMemoryAccessUsesHostPageTables:" << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
    INFO("hipDeviceAttributeManagedMemory: " << managed);
    if (managed != 1) {
        WARN("GPU 0 doesn't support hipDeviceAttributeManagedMemory attribute so defaulting to system memory.");
    }
    return managed;
}

/* STREAMSIM: 1 Mi elements instead of 64 Mi. */
static size_t numElements{1024 * 1024};
static unsigned blocksPerCU{6};
static unsigned threadsPerBlock{256};

static void Unit_hipMallocManaged_Basic() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        WARN("GPU doesn't support hipDeviceAttributeManagedMemory attribute so defaulting to system memory.");
    }

    float *A, *B, *C;

    HIP_CHECK(cudaMallocManaged(&A, numElements * sizeof(float)));
    HIP_CHECK(cudaMallocManaged(&B, numElements * sizeof(float)));
    HIP_CHECK(cudaMallocManaged(&C, numElements * sizeof(float)));
}

static void Unit_hipMallocManaged_Advanced() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    float *A, *B, *C;

    HIP_CHECK(cudaMallocManaged(&A, numElements * sizeof(float)));
    HIP_CHECK(cudaMallocManaged(&B, numElements * sizeof(float)));
    HIP_CHECK(cudaMallocManaged(&C, numElements * sizeof(float)));
    HipTest::setDefaultData(numElements, A, B, C);

    int device = cudaCpuDeviceId;

    HIP_CHECK(MemAdvise(A, numElements * sizeof(float), cudaMemAdviseSetReadMostly, device));
    HIP_CHECK(MemPrefetchAsync(A, numElements * sizeof(float), 0));
    HIP_CHECK(MemPrefetchAsync(B, numElements * sizeof(float), 0));
    HIP_CHECK(cudaDeviceSynchronize());
    HIP_CHECK(cudaMemRangeGetAttribute(&device, sizeof(device), cudaMemRangeAttributeLastPrefetchLocation, A,
                                       numElements * sizeof(float)));
    if (device != 0) {
        INFO("hipMemRangeGetAttribute error, device = " << device);
    }
    uint32_t read_only = 0xf;
    HIP_CHECK(cudaMemRangeGetAttribute(&read_only, sizeof(read_only), cudaMemRangeAttributeReadMostly, A,
                                       numElements * sizeof(float)));
    if (read_only != 1) {
        SUCCEED("hipMemRangeGetAttribute error, read_only = " << read_only);
    }

    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, numElements);
    cudaEvent_t event0, event1;
    HIP_CHECK(cudaEventCreate(&event0));
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventRecord(event0, 0));
    HipTest::vectorADD<<<dim3(blocks), dim3(threadsPerBlock), 0, 0>>>(static_cast<const float *>(A),
                                                             static_cast<const float *>(B), C, numElements);
    HIP_CHECK(cudaGetLastError());
    HIP_CHECK(cudaEventRecord(event1, 0));
    HIP_CHECK(cudaDeviceSynchronize());
    float time = 0.0f;
    HIP_CHECK(cudaEventElapsedTime(&time, event0, event1));
    printf("Time %.3f ms\n", time);
    float maxError = 0.0f;
    HIP_CHECK(MemPrefetchAsync(B, numElements * sizeof(float), cudaCpuDeviceId));
    HIP_CHECK(cudaDeviceSynchronize());
    device = 0;
    HIP_CHECK(cudaMemRangeGetAttribute(&device, sizeof(device), cudaMemRangeAttributeLastPrefetchLocation, A,
                                       numElements * sizeof(float)));
    if (device != cudaCpuDeviceId) {
        SUCCEED("hipMemRangeGetAttribute error device = " << device);
    }

    for (size_t i = 0; i < numElements; i++) {
        maxError = fmax(maxError, fabs(B[i] - 3.0f));
    }
    HIP_CHECK(cudaFree(A));
    HIP_CHECK(cudaFree(B));
    REQUIRE(maxError != 0.0f);
}

static void Unit_hipMallocManaged_Large() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        WARN("GPU doesn't support hipDeviceAttributeManagedMemory attribute so defaulting to system memory.");
    }

    float *A;
    HIP_CHECK_ERROR(cudaMallocManaged(&A, std::numeric_limits<size_t>::max()), cudaErrorMemoryAllocation);
}

/* ============================================================================ hipMemPrefetchAsync.cc */

static std::vector<int> GetDevicesWithPrefetchSupport() {
    const auto device_count = HipTest::getDeviceCount();
    std::vector<int> supported_devices;
    supported_devices.reserve(device_count + 1);
    for (int i = 0; i < device_count; ++i) {
        if (DeviceAttributesSupport(i, cudaDevAttrManagedMemory, cudaDevAttrConcurrentManagedAccess)) {
            supported_devices.push_back(i);
        }
    }
    return supported_devices;
}

__global__ void MemPrefetchAsyncKernel(int *C_d, const int *A_d, size_t N) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < N; i += stride) {
        C_d[i] = A_d[i] * A_d[i];
    }
}

static void Unit_hipMemPrefetchAsync_Basic() {
    const auto supported_devices = GetDevicesWithPrefetchSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test need at least one device with managed memory support");
        return;
    }

    LinearAllocGuard<int> alloc1(LinearAllocs::hipMallocManaged, kPageSize);
    const auto count = kPageSize / sizeof(*alloc1.ptr());
    constexpr auto fill_value = 42;
    std::fill_n(alloc1.ptr(), count, fill_value);

    for (const auto device : supported_devices) {
        HIP_CHECK(cudaSetDevice(device));
        LinearAllocGuard<int> alloc2(LinearAllocs::hipMallocManaged, kPageSize);
        StreamGuard sg(Streams::created);
        HIP_CHECK(MemPrefetchAsync(alloc1.ptr(), kPageSize, device, sg.stream()));
        MemPrefetchAsyncKernel<<<count / 1024 + 1, 1024, 0, sg.stream()>>>(alloc2.ptr(), alloc1.ptr(), count);
        HIP_CHECK(cudaGetLastError());
        HIP_CHECK(cudaStreamSynchronize(sg.stream()));
        ArrayFindIfNot(alloc1.ptr(), fill_value, count);
        ArrayFindIfNot(alloc2.ptr(), fill_value * fill_value, count);
    }

    HIP_CHECK(MemPrefetchAsync(alloc1.ptr(), kPageSize, cudaCpuDeviceId));
    HIP_CHECK(cudaStreamSynchronize(nullptr));
    ArrayFindIfNot(alloc1.ptr(), fill_value, count);
}

static void Unit_hipMemPrefetchAsync_Sync_Behavior() {
    const auto supported_devices = GetDevicesWithPrefetchSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test need at least one device with managed memory support");
        return;
    }
    const auto device = supported_devices.front();
    for (const auto stream_type : {Streams::nullstream, Streams::perThread, Streams::created}) {
        StreamGuard sg(stream_type);
        LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);
        LaunchDelayKernel(std::chrono::milliseconds{100}, sg.stream());
        HIP_CHECK(MemPrefetchAsync(alloc.ptr(), kPageSize, device, sg.stream()));
        HIP_CHECK_ERROR(cudaStreamQuery(sg.stream()), cudaErrorNotReady);
        HIP_CHECK(cudaStreamSynchronize(sg.stream()));
    }
}

static void Unit_hipMemPrefetchAsync_Rounding_Behavior() {
    auto supported_devices = GetDevicesWithPrefetchSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test need at least one device with managed memory support");
        return;
    }
    const auto device = supported_devices.front();
    const std::pair<size_t, size_t> generated[] = {
        std::make_pair(kPageSize / 4, kPageSize / 2), // Withing page
        std::make_pair(kPageSize / 2, kPageSize),     // Across page border
        std::make_pair(kPageSize / 2, kPageSize * 2)  // Across two page borders
    };
    for (const auto &[offset, width] : generated) {
        LinearAllocGuard<uint8_t> alloc(LinearAllocs::hipMallocManaged, 3 * kPageSize);
        REQUIRE_FALSE(reinterpret_cast<intptr_t>(alloc.ptr()) % kPageSize);
        HIP_CHECK(MemPrefetchAsync(alloc.ptr() + offset, width, device));
        HIP_CHECK(cudaStreamSynchronize(nullptr));
        constexpr auto RoundDown = [](const intptr_t a, const intptr_t n) { return a - a % n; };
        constexpr auto RoundUp = [RoundDown](const intptr_t a, const intptr_t n) { return RoundDown(a + n - 1, n); };
        const auto base = alloc.ptr();
        const auto rounded_up = RoundUp(offset + width, kPageSize);
        unsigned int attribute = 0;
        HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), cudaMemRangeAttributeLastPrefetchLocation,
                                           reinterpret_cast<void *>(base), rounded_up));
        REQUIRE(device == static_cast<int>(attribute));
        HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), cudaMemRangeAttributeLastPrefetchLocation,
                                           alloc.ptr(), 3 * kPageSize));
        REQUIRE((rounded_up == 3 * kPageSize ? device : cudaInvalidDeviceId) == static_cast<int>(attribute));
    }
}

static void Unit_hipMemPrefetchAsync_Negative_Parameters() {
    auto supported_devices = GetDevicesWithPrefetchSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test need at least one device with managed memory support");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);
    for (const auto device : supported_devices) {
        RunSections([&] {
            LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);
            SECTION("dev_ptr == nullptr") {
                HIP_CHECK_ERROR(MemPrefetchAsync(nullptr, kPageSize, device), cudaErrorInvalidValue);
            }

            SECTION("dev_ptr points to non-managed memory") {
                LinearAllocGuard<void> alloc(LinearAllocs::hipMalloc, kPageSize);
                HIP_CHECK_ERROR(MemPrefetchAsync(alloc.ptr(), kPageSize, device), cudaErrorInvalidValue);
            }

            SECTION("count == 0") {
                HIP_CHECK_ERROR(MemPrefetchAsync(alloc.ptr(), 0, device), cudaErrorInvalidValue);
            }

            SECTION("count larger than allocation size") {
                HIP_CHECK_ERROR(MemPrefetchAsync(alloc.ptr(), kPageSize + 1, device), cudaErrorInvalidValue);
            }

            SECTION("Invalid device") {
                HIP_CHECK_ERROR(MemPrefetchAsync(alloc.ptr(), kPageSize, cudaInvalidDeviceId),
                                cudaErrorInvalidDevice);
            }

            SECTION("Invalid stream") {
                cudaStream_t stream;
                HIP_CHECK(cudaStreamCreate(&stream));
                HIP_CHECK(cudaStreamDestroy(stream));
                /* STREAMSIM: hipErrorContextIsDestroyed → cudaErrorInvalidResourceHandle (see the header). */
                HIP_CHECK_ERROR(MemPrefetchAsync(alloc.ptr(), kPageSize, device, stream),
                                cudaErrorInvalidResourceHandle);
            }
        });
    }
}

/* ============================================================================ hipMemAdvise.cc */

static inline cudaMemoryAdvise GetUnsetMemAdvice(const cudaMemoryAdvise advice) {
    switch (advice) {
    case cudaMemAdviseSetAccessedBy:
        return cudaMemAdviseUnsetAccessedBy;
    case cudaMemAdviseSetReadMostly:
        return cudaMemAdviseUnsetReadMostly;
    case cudaMemAdviseSetPreferredLocation:
        return cudaMemAdviseUnsetPreferredLocation;
    default:
        REQUIRE(!"Invalid hipMemoryAdvise enumerator");
        return advice;
    }
}

static inline cudaMemRangeAttribute GetMemAdviceAttr(const cudaMemoryAdvise advice) {
    switch (advice) {
    case cudaMemAdviseSetAccessedBy:
        return cudaMemRangeAttributeAccessedBy;
    case cudaMemAdviseSetReadMostly:
        return cudaMemRangeAttributeReadMostly;
    case cudaMemAdviseSetPreferredLocation:
        return cudaMemRangeAttributePreferredLocation;
    default:
        REQUIRE(!"Invalid hipMemoryAdvise enumerator");
        return static_cast<cudaMemRangeAttribute>(-1);
    }
}

static std::vector<int> GetDevicesWithAdviseSupport() {
    const auto device_count = HipTest::getDeviceCount();
    std::vector<int> supported_devices;
    supported_devices.reserve(device_count + 1);
    for (int i = 0; i < device_count; ++i) {
        if (DeviceAttributesSupport(i, cudaDevAttrManagedMemory, cudaDevAttrConcurrentManagedAccess)) {
            supported_devices.push_back(i);
        }
    }
    return supported_devices;
}

static void Unit_hipMemAdvise_Set_Unset_Basic() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);
    for (const auto device : supported_devices) {
        const auto SetUnset = [=](const cudaMemoryAdvise advice) {
            LinearAllocGuard<uint8_t> alloc(LinearAllocs::hipMallocManaged, kPageSize);
            int32_t attribute = 0;
            HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, advice, device));
            HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), GetMemAdviceAttr(advice), alloc.ptr(),
                                               kPageSize));
            REQUIRE((advice == cudaMemAdviseSetReadMostly ? 1 : device) == attribute);
            HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, GetUnsetMemAdvice(advice), device));
            HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), GetMemAdviceAttr(advice), alloc.ptr(),
                                               kPageSize));
            REQUIRE((advice == cudaMemAdviseSetReadMostly ? 0 : cudaInvalidDeviceId) == attribute);
        };
        RunSections([&] {
            SECTION("hipMemAdviseSetAccessedBy") { SetUnset(cudaMemAdviseSetAccessedBy); }
            SECTION("hipMemAdviseSetReadMostly") { SetUnset(cudaMemAdviseSetReadMostly); }
            SECTION("hipMemAdviseSetPreferredLocation") { SetUnset(cudaMemAdviseSetPreferredLocation); }
        });
    }
}

static void Unit_hipMemAdvise_No_Flag_Interference() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);
    for (const auto device : supported_devices) {
        std::array<cudaMemoryAdvise, 3> advice{cudaMemAdviseSetReadMostly, cudaMemAdviseSetPreferredLocation,
                                               cudaMemAdviseSetAccessedBy};
        for (int i = 0; i < 6; ++i) {
            std::next_permutation(std::begin(advice), std::end(advice));
            LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);

            for (const auto a : advice) {
                HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, a, device));
            }

            for (const auto a : advice) {
                int32_t attribute = 0;
                HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), GetMemAdviceAttr(a), alloc.ptr(),
                                                   kPageSize));
                REQUIRE((a == cudaMemAdviseSetReadMostly ? 1 : device) == attribute);
            }
        }
    }
}

static void Unit_hipMemAdvise_Rounding() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);
    const auto device = supported_devices.front();
    const std::pair<size_t, size_t> generated[] = {
        std::make_pair(kPageSize / 4, kPageSize / 2), // Withing page
        std::make_pair(kPageSize / 2, kPageSize),     // Across page border
        std::make_pair(kPageSize / 2, kPageSize * 2)  // Across two page borders
    };
    for (const auto &[offset, width] : generated) {
        LinearAllocGuard<uint8_t> alloc(LinearAllocs::hipMallocManaged, 3 * kPageSize);
        REQUIRE_FALSE(reinterpret_cast<intptr_t>(alloc.ptr()) % kPageSize);
        HIP_CHECK(MemAdvise(alloc.ptr() + offset, width, cudaMemAdviseSetAccessedBy, device));
        constexpr auto RoundDown = [](const intptr_t a, const intptr_t n) { return a - a % n; };
        constexpr auto RoundUp = [RoundDown](const intptr_t a, const intptr_t n) { return RoundDown(a + n - 1, n); };
        const auto base = alloc.ptr();
        const auto rounded_up = RoundUp(offset + width, kPageSize);
        unsigned int attribute = 0;
        HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), cudaMemRangeAttributeAccessedBy,
                                           reinterpret_cast<void *>(base), rounded_up));
        REQUIRE(device == static_cast<int>(attribute));
        HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), cudaMemRangeAttributeAccessedBy,
                                           alloc.ptr(), 3 * kPageSize));
        REQUIRE((rounded_up == 3 * kPageSize ? device : cudaInvalidDeviceId) == static_cast<int>(attribute));
    }
}

static void Unit_hipMemAdvise_Flags_Do_Not_Cause_Prefetch() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);

    const auto Test = [](const int device, const cudaMemoryAdvise advice) {
        LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);
        HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, advice, device));
        int32_t attribute = 0;
        HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), cudaMemRangeAttributeLastPrefetchLocation,
                                           alloc.ptr(), kPageSize));
        REQUIRE(attribute == cudaInvalidDeviceId);
    };
    for (const auto device : supported_devices) {
        RunSections([&] {
            SECTION("hipMemAdviseSetPreferredLocation") { Test(device, cudaMemAdviseSetPreferredLocation); }
            SECTION("hipMemAdviseSetAccessedBy") { Test(device, cudaMemAdviseSetAccessedBy); }
        });
    }
}

static void Unit_hipMemAdvise_Read_Write_After_Advise() {
    /* Catch2's order: the pass that enters "ReadMostly" (before the GENERATE) runs once; then, for each generated
     * device, one pass enters "PreferredLocation" and one "AccessedBy". Each pass runs from the top. */
    enum { ReadMostlyPass, PreferredLocationPass, AccessedByPass };
    const auto Pass = [](const int pass, const size_t generated) {
        auto supported_devices = GetDevicesWithAdviseSupport();
        if (supported_devices.empty()) {
            HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
            return false;
        }
        LinearAllocGuard<int> alloc(LinearAllocs::hipMallocManaged, kPageSize);
        constexpr size_t count = kPageSize / sizeof(*alloc.ptr());

        const auto ReadWriteManagedMemory = [&](const int device, const cudaMemoryAdvise advice) {
            HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, advice, device));

            std::fill_n(alloc.ptr(), count, -1);
            ArrayFindIfNot(alloc.ptr(), -1, count);
            for (int i = 0; i < static_cast<int>(supported_devices.size()); ++i) {
                HIP_CHECK(cudaSetDevice(supported_devices[i]));
                VectorIncrement<<<count / 1024 + 1, 1024>>>(alloc.ptr(), 1, count);
                HIP_CHECK(cudaGetLastError());
                HIP_CHECK(cudaDeviceSynchronize());
                ArrayFindIfNot(alloc.ptr(), i, count);
            }

            int32_t attribute = 0;
            HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), GetMemAdviceAttr(advice), alloc.ptr(),
                                               kPageSize));
            REQUIRE((advice == cudaMemAdviseSetReadMostly ? 1 : device) == attribute);
        };

        if (pass == ReadMostlyPass) {
            ReadWriteManagedMemory(cudaInvalidDeviceId, cudaMemAdviseSetReadMostly);
        }
        supported_devices.push_back(cudaCpuDeviceId);

        const auto device = supported_devices.at(generated);
        const size_t generated_count = supported_devices.size();
        supported_devices.pop_back();
        if (pass == PreferredLocationPass) {
            ReadWriteManagedMemory(device, cudaMemAdviseSetPreferredLocation);
        }
        if (pass == AccessedByPass) {
            ReadWriteManagedMemory(device, cudaMemAdviseSetAccessedBy);
        }
        return generated + 1 < generated_count;
    };
    if (!Pass(ReadMostlyPass, 0)) {
        return;
    }
    for (size_t generated = 0;; generated++) {
        Pass(PreferredLocationPass, generated);
        if (!Pass(AccessedByPass, generated)) {
            break;
        }
    }
}

static void Unit_hipMemAdvise_Prefetch_After_Advise() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    supported_devices.push_back(cudaCpuDeviceId);
    for (const auto advice : {cudaMemAdviseSetReadMostly, cudaMemAdviseSetPreferredLocation
                              // Skipped due to defect - EXSWHTEC - 132
                              // hipMemAdviseSetAccessedBy
         }) {
        for (const auto device : supported_devices) {
            LinearAllocGuard<int> alloc(LinearAllocs::hipMallocManaged, kPageSize);
            HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, advice, device));

            for (const auto d : supported_devices) {
                HIP_CHECK(MemPrefetchAsync(alloc.ptr(), kPageSize, d));
                HIP_CHECK(cudaStreamSynchronize(nullptr));
                int32_t attribute = 0;
                HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute),
                                                   cudaMemRangeAttributeLastPrefetchLocation, alloc.ptr(),
                                                   kPageSize));
                REQUIRE(d == attribute);
            }

            int32_t attribute = 0;
            HIP_CHECK(cudaMemRangeGetAttribute(&attribute, sizeof(attribute), GetMemAdviceAttr(advice), alloc.ptr(),
                                               kPageSize));
            REQUIRE((advice == cudaMemAdviseSetReadMostly ? 1 : device) == attribute);
        }
    }
}

static void Unit_hipMemAdvise_AccessedBy_All_Devices() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    // Disabling this hipCpuDeviceId scenario as it fails due to ROCr issue
    // Enable it once SWDEV-36994, SWDEV-392002 are fixed
    // supported_devices.push_back(hipCpuDeviceId);

    LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);
    for (const auto device : supported_devices) {
        HIP_CHECK(MemAdvise(alloc.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, device));
    }
    std::vector<int> accessed_by(supported_devices.size(), cudaInvalidDeviceId);
    HIP_CHECK(cudaMemRangeGetAttribute(accessed_by.data(), sizeof(int) * accessed_by.size(),
                                       cudaMemRangeAttributeAccessedBy, alloc.ptr(), kPageSize));
    REQUIRE(accessed_by == supported_devices);
}

static void Unit_hipMemAdvise_Negative_Parameters() {
    auto supported_devices = GetDevicesWithAdviseSupport();
    if (supported_devices.empty()) {
        HipTest::HIP_SKIP_TEST("Test needs at least 1 device that supports managed memory");
        return;
    }
    const auto device = supported_devices.front();

    for (const auto advice : {cudaMemAdviseSetAccessedBy, cudaMemAdviseSetReadMostly,
                              cudaMemAdviseSetPreferredLocation}) {
        RunSections([&] {
            LinearAllocGuard<void> alloc(LinearAllocs::hipMallocManaged, kPageSize);
            SECTION("count == 0") {
                HIP_CHECK_ERROR(MemAdvise(alloc.ptr(), 0, advice, device), cudaErrorInvalidValue);
            }

            SECTION("count larger than allocation size") {
                HIP_CHECK_ERROR(MemAdvise(alloc.ptr(), kPageSize + 1, advice, device), cudaErrorInvalidValue);
            }

            SECTION("dev_ptr == nullptr") {
                HIP_CHECK_ERROR(MemAdvise(nullptr, kPageSize, advice, device), cudaErrorInvalidValue);
            }

            SECTION("dev_ptr pointing to non-managed memory") {
                LinearAllocGuard<void> alloc(LinearAllocs::hipMalloc, kPageSize);
                HIP_CHECK_ERROR(MemAdvise(alloc.ptr(), kPageSize, advice, device), cudaErrorInvalidValue);
            }

            SECTION("Invalid device") {
                HIP_CHECK_ERROR(MemAdvise(alloc.ptr(), kPageSize, advice, cudaInvalidDeviceId),
                                (advice == cudaMemAdviseSetReadMostly ? cudaSuccess : cudaErrorInvalidDevice));
            }
        });
    }
}

/* ============================================================================ hipMemRangeGetAttribute.cc */

static void Unit_hipMemRangeGetAttribute_Positive_ReadMostly_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeReadMostly, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == 0);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetReadMostly, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeReadMostly, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == 1);
}

static void Unit_hipMemRangeGetAttribute_Positive_ReadMostly_Partial_Range() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, 2 * kPageSize);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetReadMostly, 0));

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeReadMostly, allocation.ptr(),
                                       2 * kPageSize));

    REQUIRE(data == 0);

    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeReadMostly, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == 1);
}

static void Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributePreferredLocation, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == cudaInvalidDeviceId);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributePreferredLocation, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == 0);
}

static void Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_CPU() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributePreferredLocation, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == cudaCpuDeviceId);
}

static void Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_Partial_Range() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, 2 * kPageSize);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetPreferredLocation, 0));

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributePreferredLocation, allocation.ptr(),
                                       2 * kPageSize));

    REQUIRE(data == cudaInvalidDeviceId);

    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributePreferredLocation, allocation.ptr(),
                                       kPageSize));

    REQUIRE(data == 0);
}

static void Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeLastPrefetchLocation,
                                       allocation.ptr(), kPageSize));

    REQUIRE(data == cudaInvalidDeviceId);

    HIP_CHECK(MemPrefetchAsync(allocation.ptr(), kPageSize, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeLastPrefetchLocation,
                                       allocation.ptr(), kPageSize));

    REQUIRE(data == 0);
}

static void Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_CPU() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    HIP_CHECK(MemPrefetchAsync(allocation.ptr(), kPageSize, cudaCpuDeviceId));

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeLastPrefetchLocation,
                                       allocation.ptr(), kPageSize));

    REQUIRE(data == cudaCpuDeviceId);
}

static void Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_Partial_Range() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, 2 * kPageSize);

    HIP_CHECK(MemPrefetchAsync(allocation.ptr(), kPageSize, 0));

    int32_t data;
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeLastPrefetchLocation,
                                       allocation.ptr(), 2 * kPageSize));

    REQUIRE(data == cudaInvalidDeviceId);

    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(data), cudaMemRangeAttributeLastPrefetchLocation,
                                       allocation.ptr(), kPageSize));

    REQUIRE(data == 0);
}

static void Unit_hipMemRangeGetAttribute_Positive_AccessedBy_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    std::array<int32_t, 4> data;
    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(data), cudaMemRangeAttributeAccessedBy, allocation.ptr(),
                                       kPageSize));

    for (auto device : data) {
        REQUIRE(device == cudaInvalidDeviceId);
    }

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(data), cudaMemRangeAttributeAccessedBy, allocation.ptr(),
                                       kPageSize));

    // Use std::find since there is no guaranteed order in which devices will be returned
    REQUIRE(std::find(cbegin(data), cend(data), cudaCpuDeviceId) != cend(data));
    REQUIRE(std::find(cbegin(data), cend(data), 0) != cend(data));

    // All the unused slots should be at the end
    for (auto it = cbegin(data) + 2; it != cend(data); ++it) {
        REQUIRE(*it == cudaInvalidDeviceId);
    }
}

static void Unit_hipMemRangeGetAttribute_Positive_AccessedBy_Partial_Range() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, 2 * kPageSize);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, 0));

    std::array<int32_t, 4> data;
    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(data), cudaMemRangeAttributeAccessedBy, allocation.ptr(),
                                       2 * kPageSize));

    for (auto device : data) {
        REQUIRE(device == cudaInvalidDeviceId);
    }

    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(data), cudaMemRangeAttributeAccessedBy, allocation.ptr(),
                                       kPageSize));

    // Use std::find since there is no guaranteed order in which devices will be returned
    REQUIRE(std::find(cbegin(data), cend(data), cudaCpuDeviceId) != cend(data));
    REQUIRE(std::find(cbegin(data), cend(data), 0) != cend(data));

    // All the unused slots should be at the end
    for (auto it = cbegin(data) + 2; it != cend(data); ++it) {
        REQUIRE(*it == cudaInvalidDeviceId);
    }
}

static void Unit_hipMemRangeGetAttribute_Positive_AccessedBy_MultiDevice() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    const auto device_count = HipTest::getDeviceCount();
    if (device_count < 2) {
        HipTest::HIP_SKIP_TEST("Two or more device are required");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    std::vector<int32_t> data(device_count);
    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(int32_t) * data.size(), cudaMemRangeAttributeAccessedBy,
                                       allocation.ptr(), kPageSize));

    for (auto device : data) {
        REQUIRE(device == cudaInvalidDeviceId);
    }

    for (auto device = 0; device < device_count; ++device) {
        HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, device));
    }

    HIP_CHECK(cudaMemRangeGetAttribute(data.data(), sizeof(int32_t) * data.size(), cudaMemRangeAttributeAccessedBy,
                                       allocation.ptr(), kPageSize));

    // Use std::find since there is no guaranteed order in which devices will be returned
    for (auto device = 0; device < device_count; ++device) {
        REQUIRE(std::find(cbegin(data), cend(data), device) != cend(data));
    }
}

static void Unit_hipMemRangeGetAttribute_Negative_Parameters() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    RunSections([&] {
        int32_t data;
        LinearAllocGuard<void> managed(LinearAllocs::hipMallocManaged, kPageSize);

        SECTION("data == nullptr") {
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttribute(nullptr, 4, cudaMemRangeAttributeReadMostly, managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("data_size == 0") {
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttribute(&data, 0, cudaMemRangeAttributeReadMostly, managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("data_size != 4 with hipMemRangeAttributeReadMostly") {
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttribute(&data, 8, cudaMemRangeAttributeReadMostly, managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("data_size != 4 with hipMemRangeAttributePreferredLocation") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttribute(&data, 8, cudaMemRangeAttributePreferredLocation, managed.ptr(),
                                                     kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("data_size != 4 with hipMemRangeAttributeLastPrefetchLocation") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttribute(&data, 8, cudaMemRangeAttributeLastPrefetchLocation,
                                                     managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("data_size is not a multiple of 4 with hipMemRangeAttributeAccessedBy") {
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttribute(&data, 10, cudaMemRangeAttributeAccessedBy, managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("invalid attribute") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttribute(&data, 4, static_cast<cudaMemRangeAttribute>(999), managed.ptr(),
                                                     kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("dev_ptr == nullptr") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttribute(&data, 4, cudaMemRangeAttributeReadMostly, nullptr, kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("dev_ptr is not managed memory") {
            LinearAllocGuard<void> non_managed(LinearAllocs::hipMalloc, kPageSize);
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttribute(&data, 4, cudaMemRangeAttributeReadMostly, non_managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("count == 0") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttribute(&data, 4, cudaMemRangeAttributeReadMostly, managed.ptr(), 0),
                            cudaErrorInvalidValue);
        }
    });
}

/* ============================================================================ hipMemRangeGetAttributes.cc */

static void Unit_hipMemRangeGetAttributes_Positive_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    LinearAllocGuard<void> allocation(LinearAllocs::hipMallocManaged, kPageSize);

    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetReadMostly, 0));
    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(MemPrefetchAsync(allocation.ptr(), kPageSize, cudaCpuDeviceId));
    HIP_CHECK(MemAdvise(allocation.ptr(), kPageSize, cudaMemAdviseSetAccessedBy, 0));

    constexpr size_t num_attributes = 4;
    std::array<cudaMemRangeAttribute, num_attributes> attributes = {
        cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation,
        cudaMemRangeAttributeLastPrefetchLocation, cudaMemRangeAttributeAccessedBy};

    std::array<int32_t *, num_attributes> data;
    for (auto &ptr : data) {
        ptr = new int32_t;
    }
    std::array<size_t, num_attributes> data_sizes = {4, 4, 4, 4};

    HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data.data()), data_sizes.data(), attributes.data(),
                                        num_attributes, allocation.ptr(), kPageSize));

    REQUIRE(data[0][0] == 1);
    REQUIRE(data[1][0] == 0);
    REQUIRE(data[2][0] == cudaCpuDeviceId);
    REQUIRE(data[3][0] == 0);

    for (auto ptr : data) {
        delete ptr;
    }
}

static void Unit_hipMemRangeGetAttributes_Negative_Parameters() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory not supported");
        return;
    }

    RunSections([&] {
        constexpr size_t num_attributes = 4;
        cudaMemRangeAttribute attributes[] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation,
                                              cudaMemRangeAttributeLastPrefetchLocation,
                                              cudaMemRangeAttributeAccessedBy};

        int32_t *data[num_attributes];
        for (auto &ptr : data) {
            ptr = new int32_t;
        }
        size_t data_sizes[] = {4, 4, 4, 4};

        LinearAllocGuard<void> managed(LinearAllocs::hipMallocManaged, kPageSize);

        SECTION("data == nullptr") {
            HIP_CHECK_ERROR(
                cudaMemRangeGetAttributes(nullptr, data_sizes, attributes, num_attributes, managed.ptr(), kPageSize),
                cudaErrorInvalidValue);
        }

        SECTION("data contains invalid pointers") {
            void *invalid_data[num_attributes] = {nullptr};
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(invalid_data, data_sizes, attributes, num_attributes,
                                                      managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("data_sizes == nullptr") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), nullptr, attributes,
                                                      num_attributes, managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("data_sizes contains invalid values") {
            size_t invalid_data_sizes[] = {4, 5, 4, 6};
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), invalid_data_sizes, attributes,
                                                      num_attributes, managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("attributes == nullptr") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes, nullptr,
                                                      num_attributes, managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("attributes contains invalid attributes") {
            cudaMemRangeAttribute invalid_attributes[] = {
                cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation,
                static_cast<cudaMemRangeAttribute>(999), cudaMemRangeAttributeAccessedBy};
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes,
                                                      invalid_attributes, num_attributes, managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("num_attributes == 0") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes, attributes, 0,
                                                      managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("dev_ptr == nullptr") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes, attributes,
                                                      num_attributes, nullptr, kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("dev_ptr is not managed memory") {
            LinearAllocGuard<void> non_managed(LinearAllocs::hipMalloc, kPageSize);
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes, attributes,
                                                      num_attributes, non_managed.ptr(), kPageSize),
                            cudaErrorInvalidValue);
        }

        SECTION("count == 0") {
            HIP_CHECK_ERROR(cudaMemRangeGetAttributes(reinterpret_cast<void **>(data), data_sizes, attributes,
                                                      num_attributes, managed.ptr(), 0),
                            cudaErrorInvalidValue);
        }

        for (auto ptr : data) {
            delete ptr;
        }
    });
}

/* ============================================================================ hipStreamAttachMemAsync.cc */

static void Unit_hipStreamAttachMemAsync_Positive_Basic() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    StreamGuard stream(Streams::created);
    LinearAllocGuard<void *> managed(LinearAllocs::hipMallocManaged, kPageSize, cudaMemAttachHost);

    HIP_CHECK(cudaStreamAttachMemAsync(stream.stream(), managed.ptr(), 0));
    HIP_CHECK(cudaStreamSynchronize(stream.stream()));
}

static void Unit_hipStreamAttachMemAsync_Positive_Pageable() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    if (!DeviceAttributesSupport(0, cudaDevAttrPageableMemoryAccess)) {
        HipTest::HIP_SKIP_TEST("Pageable memory access is not supported");
        return;
    }

    StreamGuard stream(Streams::created);
    LinearAllocGuard<void *> pageable(LinearAllocs::malloc, kPageSize);

    HIP_CHECK(cudaStreamAttachMemAsync(stream.stream(), pageable.ptr(), kPageSize));
    HIP_CHECK(cudaStreamSynchronize(stream.stream()));
}

static void Unit_hipStreamAttachMemAsync_Positive_AttachGlobal() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    const auto device_count = HipTest::getDeviceCount();
    const auto stream_count = device_count < 2 ? 8 : device_count;

    std::vector<std::unique_ptr<StreamGuard>> streams;
    streams.reserve(stream_count);
    for (int i = 0; i < stream_count; ++i) {
        if (device_count > 1) {
            HIP_CHECK(cudaSetDevice(i));
        }
        streams.push_back(std::make_unique<StreamGuard>(Streams::created));
    }

    LinearAllocGuard<int> managed_global(LinearAllocs::hipMallocManaged, sizeof(int) * stream_count,
                                         cudaMemAttachHost);

    HIP_CHECK(cudaStreamAttachMemAsync(nullptr, reinterpret_cast<void **>(managed_global.ptr()), 0,
                                       cudaMemAttachGlobal));
    HIP_CHECK(cudaStreamSynchronize(nullptr));

    for (int i = 0; i < stream_count; ++i) {
        /* STREAMSIM: the stream's device made current first (see the header). */
        if (device_count > 1) {
            HIP_CHECK(cudaSetDevice(i));
        }
        HipTest::launchKernel(Set, 1, 1, 0, streams.at(i)->stream(), managed_global.ptr() + i, i);
    }

    for (auto &&stream : streams) {
        HIP_CHECK(cudaStreamSynchronize(stream->stream()));
    }

    for (int i = 0; i < stream_count; ++i) {
        REQUIRE(managed_global.ptr()[i] == i);
    }
}

static void Unit_hipStreamAttachMemAsync_Positive_AttachHost() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    if (DeviceAttributesSupport(0, cudaDevAttrConcurrentManagedAccess)) {
        HipTest::HIP_SKIP_TEST("Device supports concurrent managed access");
        return;
    }

    StreamGuard stream(Streams::created);
    LinearAllocGuard<int> managed_global(LinearAllocs::hipMallocManaged, sizeof(int));
    LinearAllocGuard<int> managed_host(LinearAllocs::hipMallocManaged, sizeof(int));

    HIP_CHECK(cudaStreamAttachMemAsync(stream.stream(), reinterpret_cast<void **>(managed_host.ptr()), 0,
                                       cudaMemAttachHost));
    HIP_CHECK(cudaStreamSynchronize(stream.stream()));

    HipTest::launchKernel(Set, 1, 1, 0, stream.stream(), managed_global.ptr(), 32);
    *managed_host.ptr() = 64;
    HIP_CHECK(cudaStreamSynchronize(stream.stream()));

    REQUIRE(*managed_global.ptr() == 32);
    REQUIRE(*managed_host.ptr() == 64);
}

static void Unit_hipStreamAttachMemAsync_Positive_AttachSingle() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    if (DeviceAttributesSupport(0, cudaDevAttrConcurrentManagedAccess)) {
        HipTest::HIP_SKIP_TEST("Device supports concurrent managed access");
        return;
    }

    StreamGuard stream1(Streams::created);
    StreamGuard stream2(Streams::created);

    LinearAllocGuard<int> managed_global(LinearAllocs::hipMallocManaged, sizeof(int));
    LinearAllocGuard<int> managed_single(LinearAllocs::hipMallocManaged, sizeof(int), cudaMemAttachHost);

    HIP_CHECK(cudaStreamAttachMemAsync(stream1.stream(), reinterpret_cast<void **>(managed_single.ptr()), 0,
                                       cudaMemAttachSingle));
    HIP_CHECK(cudaStreamSynchronize(stream1.stream()));

    HipTest::launchKernel(Set, 1, 1, 0, stream1.stream(), managed_single.ptr(), 64);
    HIP_CHECK(cudaStreamSynchronize(stream1.stream()));

    HipTest::launchKernel(Set, 1, 1, 0, stream2.stream(), managed_global.ptr(), 32);

    REQUIRE(*managed_single.ptr() == 64);
    *managed_single.ptr() = 128;

    HIP_CHECK(cudaStreamSynchronize(stream2.stream()));

    REQUIRE(*managed_global.ptr() == 32);
    REQUIRE(*managed_single.ptr() == 128);
}

static void Unit_hipStreamAttachMemAsync_Negative_Parameters() {
    if (!DeviceAttributesSupport(0, cudaDevAttrManagedMemory)) {
        HipTest::HIP_SKIP_TEST("Managed memory is not supported");
        return;
    }

    RunSections([&] {
        StreamGuard stream(Streams::created);
        LinearAllocGuard<void *> managed(LinearAllocs::hipMallocManaged, kPageSize, cudaMemAttachHost);

        SECTION("invalid stream") {
            HIP_CHECK(cudaStreamDestroy(stream.stream()));
            /* STREAMSIM: hipErrorContextIsDestroyed → cudaErrorInvalidResourceHandle (see the header). */
            HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), managed.ptr()), cudaErrorInvalidResourceHandle);
        }

        SECTION("dev_ptr == nullptr") {
            HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), nullptr), cudaErrorInvalidValue);
        }

        SECTION("length is not zero nor entire allocation size") {
            HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), managed.ptr(), kPageSize / 2),
                            cudaErrorInvalidValue);
        }

        SECTION("invalid flags") {
            HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), managed.ptr(), 0,
                                                     cudaMemAttachGlobal | cudaMemAttachHost | cudaMemAttachSingle),
                            cudaErrorInvalidValue);
        }

        SECTION("attach single to nullstream") {
            HIP_CHECK_ERROR(cudaStreamAttachMemAsync(nullptr, managed.ptr(), 0, cudaMemAttachSingle),
                            cudaErrorInvalidValue);
        }

        LinearAllocGuard<void *> pageable(LinearAllocs::malloc, kPageSize);

        if (!DeviceAttributesSupport(0, cudaDevAttrPageableMemoryAccess)) {
            SECTION("dev_ptr is pageable memory") {
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), pageable.ptr(), kPageSize),
                                cudaErrorInvalidValue);
            }
        } else {
            SECTION("length is zero for pageable memory") {
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream.stream(), pageable.ptr(), 0), cudaErrorInvalidValue);
            }
        }
    });
}

/* ============================================================================ hipMallocManagedFlagsTst.cc */

__global__ void MallcMangdFlgTst(int n, float *x, float *y) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride)
        y[i] = x[i] * x[i];
}

static void Unit_hipMallocManaged_FlgParam() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }
    std::atomic<int> DataMismatch{0};
    bool IfTestPassed = true;
    float *HmmAG = NULL, *HmmAH1 = NULL, *HmmAH2 = NULL, INIT_VAL = 2.5;
    int NumDevs = 0, NUM_ELMS = 4096;
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    float *Ad = NULL, *Ah = NULL;
    Ah = new float[NUM_ELMS];
    // Testing hipMemAttachGlobal Flag
    HIP_CHECK(cudaMallocManaged(&HmmAG, NUM_ELMS * sizeof(float), cudaMemAttachGlobal));
    // Initializing HmmAG memory
    for (int i = 0; i < NUM_ELMS; i++) {
        HmmAG[i] = INIT_VAL;
        Ah[i] = 0;
    }
    int blockSize = 256;
    int numBlocks = (NUM_ELMS + blockSize - 1) / blockSize;
    dim3 dimGrid(numBlocks, 1, 1);
    dim3 dimBlock(blockSize, 1, 1);
    cudaStream_t strm;
    for (int i = 0; i < NumDevs; i++) {
        HIP_CHECK(cudaSetDevice(i));
        HIP_CHECK(cudaStreamCreate(&strm));
        HIP_CHECK(cudaMalloc(&Ad, NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaMemset(Ad, 0, NUM_ELMS * sizeof(float)));
        MallcMangdFlgTst<<<dimGrid, dimBlock, 0, strm>>>(NUM_ELMS, HmmAG, Ad);
        HIP_CHECK(cudaStreamSynchronize(strm));
        HIP_CHECK(cudaMemcpy(Ah, Ad, NUM_ELMS * sizeof(float), cudaMemcpyDeviceToHost));
        for (int j = 0; j < NUM_ELMS; ++j) {
            if (Ah[j] != (INIT_VAL * INIT_VAL)) {
                DataMismatch++;
            }
        }
        if (DataMismatch != 0) {
            WARN("Data Mismatch observed when kernel launched on");
            WARN(" device: " << i);
            IfTestPassed = false;
        }
        DataMismatch = 0;
        HIP_CHECK(cudaFree(Ad));
        HIP_CHECK(cudaStreamDestroy(strm));
    }
    delete[] Ah;
    HIP_CHECK(cudaFree(HmmAG));
    DataMismatch = 0;
    HIP_CHECK(cudaMallocManaged(&HmmAH1, NUM_ELMS * sizeof(float), cudaMemAttachHost));
    HIP_CHECK(cudaMallocManaged(&HmmAH2, NUM_ELMS * sizeof(float), cudaMemAttachHost));
    // Initializing HmmAH memory
    for (int i = 0; i < NUM_ELMS; i++) {
        HmmAH1[i] = INIT_VAL;
        HmmAH2[i] = 0;
    }
    for (int i = 0; i < NumDevs; i++) {
        HIP_CHECK(cudaSetDevice(i));
        HIP_CHECK(cudaStreamCreate(&strm));
        HIP_CHECK(cudaMemset(HmmAH2, 0, NUM_ELMS * sizeof(float)));
        MallcMangdFlgTst<<<dimGrid, dimBlock, 0, strm>>>(NUM_ELMS, HmmAH1, HmmAH2);
        HIP_CHECK(cudaStreamSynchronize(strm));
        for (int j = 0; j < NUM_ELMS; ++j) {
            if (HmmAH2[j] != (INIT_VAL * INIT_VAL)) {
                DataMismatch++;
            }
        }
        if (DataMismatch != 0) {
            WARN("Data Mismatch observed when kernel launched on");
            WARN(" device: " << i);
            IfTestPassed = false;
        }
        HIP_CHECK(cudaStreamDestroy(strm));
    }
    HIP_CHECK(cudaFree(HmmAH1));
    HIP_CHECK(cudaFree(HmmAH2));
    REQUIRE(IfTestPassed);
}

static void Unit_hipMallocManaged_AccessMultiStream() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }
    std::atomic<int> DataMismatch{0};
    bool IfTestPassed = true;
    float *HmmAG = NULL, *HmmAH1 = NULL, *HmmAH2 = NULL, INIT_VAL = 2.5;
    int NumStrms = 0, MultiDevice = 0, NUM_ELMS = 4096;
    HIP_CHECK(cudaGetDeviceCount(&MultiDevice));
    if (MultiDevice >= 2) {
        HIP_CHECK(cudaGetDeviceCount(&NumStrms));
    } else {
        NumStrms = 4;
    }
    cudaStream_t **Stream = new cudaStream_t *[NumStrms];
    for (int i = 0; i < NumStrms; ++i) {
        Stream[i] = reinterpret_cast<cudaStream_t *>(malloc(sizeof(cudaStream_t)));
    }
    float *Ad = NULL, *Ah = NULL;
    Ah = new float[NUM_ELMS];
    for (int i = 0; i < NumStrms; ++i) {
        if (MultiDevice >= 2) {
            HIP_CHECK(cudaSetDevice(i));
        }
        HIP_CHECK(cudaStreamCreate(Stream[i]));
    }
    HIP_CHECK(cudaSetDevice(0));
    // Testing hipMemAttachGlobal Flag
    HIP_CHECK(cudaMallocManaged(&HmmAG, NUM_ELMS * sizeof(float), cudaMemAttachGlobal));
    // Initializing HmmAG memory
    for (int i = 0; i < NUM_ELMS; i++) {
        HmmAG[i] = INIT_VAL;
        Ah[i] = 0;
    }
    int blockSize = 256;
    int numBlocks = (NUM_ELMS + blockSize - 1) / blockSize;
    dim3 dimGrid(numBlocks, 1, 1);
    dim3 dimBlock(blockSize, 1, 1);
    for (int i = 0; i < NumStrms; i++) {
        if (MultiDevice >= 2) {
            HIP_CHECK(cudaSetDevice(i));
        }
        HIP_CHECK(cudaMalloc(&Ad, NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaMemset(Ad, 0, NUM_ELMS * sizeof(float)));
        MallcMangdFlgTst<<<dimGrid, dimBlock, 0, *(Stream[i])>>>(NUM_ELMS, HmmAG, Ad);
        HIP_CHECK(cudaStreamSynchronize(*(Stream[i])));
        // Validating the results
        HIP_CHECK(cudaMemcpy(Ah, Ad, NUM_ELMS * sizeof(float), cudaMemcpyDeviceToHost));
        for (int j = 0; j < NUM_ELMS; ++j) {
            if (Ah[j] != (INIT_VAL * INIT_VAL)) {
                DataMismatch++;
            }
        }
        if (DataMismatch != 0) {
            WARN("Data Mismatch observed when kernel launched on");
            WARN(" device: " << i);
            IfTestPassed = false;
        }
        DataMismatch = 0;
        HIP_CHECK(cudaFree(Ad));
    }
    delete[] Ah;
    HIP_CHECK(cudaFree(HmmAG));
    DataMismatch = 0;
    HIP_CHECK(cudaMallocManaged(&HmmAH1, NUM_ELMS * sizeof(float), cudaMemAttachHost));
    HIP_CHECK(cudaMallocManaged(&HmmAH2, NUM_ELMS * sizeof(float), cudaMemAttachHost));
    // Initializing HmmAH memory
    for (int i = 0; i < NUM_ELMS; i++) {
        HmmAH1[i] = INIT_VAL;
        HmmAH2[i] = 0;
    }
    for (int i = 0; i < NumStrms; i++) {
        if (MultiDevice >= 2) {
            HIP_CHECK(cudaSetDevice(i));
        }
        HIP_CHECK(cudaMemset(HmmAH2, 0, NUM_ELMS * sizeof(float)));
        MallcMangdFlgTst<<<dimGrid, dimBlock, 0, *(Stream[i])>>>(NUM_ELMS, HmmAH1, HmmAH2);
        HIP_CHECK(cudaStreamSynchronize(*(Stream[i])));
        for (int j = 0; j < NUM_ELMS; ++j) {
            if (HmmAH2[j] != (INIT_VAL * INIT_VAL)) {
                DataMismatch++;
                break;
            }
        }
        if (DataMismatch != 0) {
            WARN("Data Mismatch observed when kernel launched on");
            WARN(" device: " << i);
            IfTestPassed = false;
        }
    }
    HIP_CHECK(cudaFree(HmmAH1));
    HIP_CHECK(cudaFree(HmmAH2));
    for (int i = 0; i < NumStrms; ++i) {
        HIP_CHECK(cudaStreamDestroy(*(Stream[i])));
    }
    REQUIRE(IfTestPassed);
}

/* ============================================================================ hipMallocManaged_MultiScenario.cc */

namespace MultiScenario {
const size_t MAX_GPU{256};
/* STREAMSIM: 1 Mi elements instead of 4 Mi (the kernels run on the CPU). */
static size_t N{1024 * 1024};
static unsigned blocksPerCU{6};
static unsigned threadsPerBlock{256};
#define INIT_VAL 123

template <typename T> __global__ void vector_sum(T *Ad1, T *Ad2, size_t NUM_ELMTS) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (size_t i = offset; i < NUM_ELMTS; i += stride) {
        Ad2[i] = Ad1[i] + Ad1[i];
    }
}

__global__ void KernelDouble(float *Hmm, float *dPtr, size_t n) {
    size_t index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index < n) {
        dPtr[index] = 2 * Hmm[index];
    }
}

void HostKernelDouble(float *Hmm, float *hPtr, size_t n) {
    for (size_t i = 0; i < n; i++) {
        hPtr[i] = 2 * Hmm[i];
    }
}

static void Unit_hipMallocManaged_HostDeviceConcurrent() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    float *Hmm = nullptr, *hPtr = nullptr, *dPtr = nullptr, *resPtr = nullptr;

    hPtr = reinterpret_cast<float *>(malloc(N * sizeof(float)));
    resPtr = reinterpret_cast<float *>(malloc(N * sizeof(float)));

    HIP_CHECK(cudaMalloc(&dPtr, N * sizeof(float)));
    HIP_CHECK(cudaMallocManaged(&Hmm, N * sizeof(float)));
    memset(Hmm, 2.0, N * sizeof(float));

    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    std::thread host_thread(HostKernelDouble, Hmm, hPtr, N);
    KernelDouble<<<dim3(blocks), dim3(threadsPerBlock), 0, 0>>>(Hmm, dPtr, N);
    host_thread.join();
    HIP_CHECK(cudaMemcpy(resPtr, dPtr, N * sizeof(float), cudaMemcpyDeviceToHost));

    for (size_t i = 0; i < N; i++) {
        REQUIRE(hPtr[i] == resPtr[i]);
    }

    free(hPtr);
    HIP_CHECK(cudaFree(dPtr));
    HIP_CHECK(cudaFree(Hmm));
}

static void Unit_hipMallocManaged_MultiChunkSingleDevice() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    std::atomic<int> DataMismatch{0};
    constexpr int Chunks = 4;
    int Counter = 0;
    int NUM_ELMS = (1024 * 1024);
    float *Ad[Chunks], *Hmm = nullptr, *Ah = new float[NUM_ELMS];
    cudaStream_t stream[Chunks];
    for (int i = 0; i < Chunks; ++i) {
        HIP_CHECK(cudaMalloc(&Ad[i], NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaMemset(Ad[i], 0, NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaStreamCreate(&stream[i]));
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, (Chunks * NUM_ELMS * sizeof(float))));
    for (int i = 0; i < Chunks; ++i) {
        for (; Counter < ((i + 1) * NUM_ELMS); ++Counter) {
            Hmm[Counter] = (INIT_VAL + i);
        }
    }
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    for (int k = 0; k < Chunks; ++k) {
        vector_sum<float><<<blocks, threadsPerBlock, 0, stream[k]>>>(&Hmm[k * NUM_ELMS], Ad[k], NUM_ELMS);
    }
    HIP_CHECK(cudaDeviceSynchronize());
    for (int m = 0; m < Chunks; ++m) {
        HIP_CHECK(cudaMemcpy(Ah, Ad[m], NUM_ELMS * sizeof(float), cudaMemcpyDeviceToHost));
        for (int n = 0; n < NUM_ELMS; ++n) {
            if (Ah[n] != ((INIT_VAL + m) * 2)) {
                DataMismatch++;
            }
        }
    }
    REQUIRE(DataMismatch.load() == 0);
    for (int i = 0; i < Chunks; ++i) {
        HIP_CHECK(cudaFree(Ad[i]));
        HIP_CHECK(cudaStreamDestroy(stream[i]));
    }
    HIP_CHECK(cudaFree(Hmm));
    delete[] Ah;
}

static void Unit_hipMallocManaged_MultiChunkMultiDevice() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    std::atomic<int> DataMismatch{0};
    int Counter = 0;
    int NumDevices = 0;
    HIP_CHECK(cudaGetDeviceCount(&NumDevices));
    if (NumDevices < 2) {
        HipTest::HIP_SKIP_TEST("Skipping test because more than one device was not found.");
        return;
    }
    unsigned int NUM_ELMS = (1024 * 1024);
    float *Ad[MAX_GPU], *Hmm = NULL, *Ah = new float[NUM_ELMS];
    cudaStream_t stream[MAX_GPU];
    for (int Oloop = 0; Oloop < NumDevices; ++Oloop) {
        HIP_CHECK(cudaSetDevice(Oloop));
        HIP_CHECK(cudaMalloc(&Ad[Oloop], NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaMemset(Ad[Oloop], 0, NUM_ELMS * sizeof(float)));
        HIP_CHECK(cudaStreamCreate(&stream[Oloop]));
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, (NumDevices * NUM_ELMS * sizeof(float))));
    for (int i = 0; i < NumDevices; ++i) {
        for (; Counter < static_cast<int>((i + 1) * NUM_ELMS); ++Counter) {
            Hmm[Counter] = INIT_VAL + i;
        }
    }
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    for (int Klaunch = 0; Klaunch < NumDevices; ++Klaunch) {
        HIP_CHECK(cudaSetDevice(Klaunch));
        vector_sum<float>
            <<<blocks, threadsPerBlock, 0, stream[Klaunch]>>>(&Hmm[Klaunch * NUM_ELMS], Ad[Klaunch], NUM_ELMS);
    }
    /* STREAMSIM: every device synchronized, not only the current one (see the header). */
    for (int d = 0; d < NumDevices; ++d) {
        HIP_CHECK(cudaSetDevice(d));
        HIP_CHECK(cudaDeviceSynchronize());
    }
    for (int m = 0; m < NumDevices; ++m) {
        HIP_CHECK(cudaMemcpy(Ah, Ad[m], NUM_ELMS * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t n = 0; n < NUM_ELMS; ++n) {
            if (Ah[n] != ((INIT_VAL + m) * 2)) {
                DataMismatch++;
            }
        }
        memset(reinterpret_cast<void *>(Ah), 0, NUM_ELMS * sizeof(float));
    }
    REQUIRE(DataMismatch.load() == 0);
    for (int i = 0; i < NumDevices; ++i) {
        HIP_CHECK(cudaFree(Ad[i]));
        HIP_CHECK(cudaStreamDestroy(stream[i]));
    }
    HIP_CHECK(cudaFree(Hmm));
    delete[] Ah;
}

static void Unit_hipMallocManaged_OverSubscription() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    void *A = nullptr;
    size_t total = 0, free = 0;
    HIP_CHECK(cudaMemGetInfo(&free, &total));
    HIP_CHECK(cudaMallocManaged(&A, (free + 1), cudaMemAttachGlobal));
}

static void Unit_hipMallocManaged_Negative() {
    RunSections([&] {
        void *A;
        size_t total = 0, free = 0;
        HIP_CHECK(cudaMemGetInfo(&free, &total));

        SECTION("Nullptr to devPtr") {
            HIP_CHECK_ERROR(cudaMallocManaged(NULL, 1024, cudaMemAttachGlobal), cudaErrorInvalidValue);
        }

        /* STREAMSIM: the HT_NVIDIA branch expects success for size 0 ("it is observed that cuda 11.2 api returns
         * success and contradicts with api doc"); the port expects the documented cudaErrorInvalidValue (see the
         * header). */
        SECTION("size 0 with flag hipMemAttachGlobal") {
            HIP_CHECK_ERROR(cudaMallocManaged(&A, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
        }

        SECTION("devptr is nullptr with flag hipMemAttachHost") {
            HIP_CHECK_ERROR(cudaMallocManaged(NULL, 1024, cudaMemAttachHost), cudaErrorInvalidValue);
        }

        SECTION("size 0 with flag hipMemAttachHost") {
            HIP_CHECK_ERROR(cudaMallocManaged(&A, 0, cudaMemAttachHost), cudaErrorInvalidValue);
        }

        SECTION("nullptr to devptr, size 0 and flag 0") {
            HIP_CHECK_ERROR(cudaMallocManaged(NULL, 0, 0), cudaErrorInvalidValue);
        }

        SECTION("Invalid flag parameter") {
            HIP_CHECK_ERROR(cudaMallocManaged(&A, 1024, 145), cudaErrorInvalidValue);
        }
        SECTION("Invalid flag parameter- flag set to 0") {
            HIP_CHECK_ERROR(cudaMallocManaged(&A, 1024, 0), cudaErrorInvalidValue);
        }
        SECTION("Invalid flag parameter- Both flags set") {
            HIP_CHECK_ERROR(cudaMallocManaged(&A, 1024, cudaMemAttachGlobal | cudaMemAttachHost),
                            cudaErrorInvalidValue);
        }
    });
}

template <typename TestType> static void Unit_hipMallocManaged_TwoPointers() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    int NumDevices = 0;
    HIP_CHECK(cudaGetDeviceCount(&NumDevices));
    TestType *Hmm1 = nullptr, *Hmm2 = nullptr;
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

    for (int i = 0; i < NumDevices; ++i) {
        HIP_CHECK(cudaSetDevice(i));
        std::atomic<int> DataMismatch{0};
        HIP_CHECK(cudaMallocManaged(&Hmm1, N * sizeof(TestType)));
        HIP_CHECK(cudaMallocManaged(&Hmm2, N * sizeof(TestType)));
        for (size_t m = 0; m < N; ++m) {
            Hmm1[m] = m;
            Hmm2[m] = 0;
        }
        // Kernel launch
        vector_sum<<<blocks, threadsPerBlock>>>(Hmm1, Hmm2, N);
        HIP_CHECK(cudaDeviceSynchronize());
        for (size_t v = 0; v < N; ++v) {
            if (Hmm2[v] != static_cast<TestType>(v + v)) {
                DataMismatch++;
            }
        }
        REQUIRE(DataMismatch.load() == 0);
        HIP_CHECK(cudaFree(Hmm1));
        HIP_CHECK(cudaFree(Hmm2));
    }
}

template <typename TestType> static void Unit_hipMallocManaged_DeviceContextChange() {
    auto managed = HmmAttrPrint();
    if (managed != 1) {
        HipTest::HIP_SKIP_TEST("GPU doesn't support managed memory so skipping test.");
        return;
    }

    std::atomic<unsigned int> DataMismatch;
    TestType *Ah1 = new TestType[N], *Ah2 = new TestType[N], *Ad = nullptr, *Hmm = nullptr;
    int NumDevices = 0;
    HIP_CHECK(cudaGetDeviceCount(&NumDevices));
    if (NumDevices < 2) {
        HipTest::HIP_SKIP_TEST("Skipping test because more than one device was not found.");
        return;
    }

    for (size_t i = 0; i < N; ++i) {
        Ah1[i] = INIT_VAL;
        Ah2[i] = 0;
    }
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    for (int Oloop = 0; Oloop < NumDevices; ++Oloop) {
        DataMismatch = 0;
        HIP_CHECK(cudaSetDevice(Oloop));
        HIP_CHECK(cudaMallocManaged(&Hmm, N * sizeof(TestType)));
        for (int Iloop = 0; Iloop < NumDevices; ++Iloop) {
            HIP_CHECK(cudaSetDevice(Iloop));
            HIP_CHECK(cudaMalloc(&Ad, N * sizeof(TestType)));
            // Copy data from host to hipMallocMananged memory and verify
            HIP_CHECK(cudaMemcpy(Hmm, Ah1, N * sizeof(TestType), cudaMemcpyHostToDevice));
            for (size_t v = 0; v < N; ++v) {
                if (Hmm[v] != INIT_VAL) {
                    DataMismatch++;
                }
            }
            REQUIRE(DataMismatch.load() == 0);

            // Executing D2D transfer with hipMallocManaged memory and verify
            HIP_CHECK(cudaMemcpy(Ad, Hmm, N * sizeof(TestType), cudaMemcpyDeviceToDevice));
            HIP_CHECK(cudaMemcpy(Ah2, Ad, N * sizeof(TestType), cudaMemcpyDeviceToHost));
            for (size_t k = 0; k < N; ++k) {
                if (Ah2[k] != INIT_VAL) {
                    DataMismatch++;
                }
            }
            REQUIRE(DataMismatch.load() == 0);
            HIP_CHECK(cudaMemset(Ad, 0, N * sizeof(TestType)));
            // Launching the kernel to check if there is any access issue with
            // hipMallocManaged memory and local device's memory
            vector_sum<<<blocks, threadsPerBlock>>>(Hmm, Ad, N);
            HIP_CHECK(cudaDeviceSynchronize());
            HIP_CHECK(cudaMemcpy(Ah2, Ad, N * sizeof(TestType), cudaMemcpyDeviceToHost));
            for (size_t m = 0; m < N; ++m) {
                if (Ah2[m] != 246) {
                    DataMismatch++;
                }
            }
            REQUIRE(DataMismatch.load() == 0);
            HIP_CHECK(cudaFree(Ad));
        }
        HIP_CHECK(cudaFree(Hmm));
    }
    /* STREAMSIM: delete[] for the upstream free() of new[] memory (undefined behaviour in C++). */
    delete[] Ah1;
    delete[] Ah2;
}
#undef INIT_VAL
} // namespace MultiScenario

/* ============================================================================ hipMemPrefetchAsyncExtTsts.cc */

namespace PrefetchExt {
__global__ void MemPrftchAsyncKernel1(int *Hmm, size_t N) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < N; i += stride) {
        Hmm[i] = Hmm[i] * Hmm[i];
    }
}

static int HmmAttrPrint() {
    int managed = 0;
    WARN("The following are the attribute values related to HMM for device 0:\n");
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrDirectManagedMemAccessFromHost, 0));
    WARN("hipDeviceAttributeDirectManagedMemAccessFromHost: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrConcurrentManagedAccess, 0));
    WARN("hipDeviceAttributeConcurrentManagedAccess: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrPageableMemoryAccess, 0));
    WARN("hipDeviceAttributePageableMemoryAccess: " << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
    WARN("hipDeviceAttributePageableMemoryAccessUsesHostPageTables:" << managed);
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
    WARN("hipDeviceAttributeManagedMemory: " << managed);
    return managed;
}

static void Unit_hipMemPrefetchAsyncAdviseFlgTst() {
    int NGpus = 0;
    HIP_CHECK(cudaGetDeviceCount(&NGpus));
    if (NGpus >= 2) {
        int MangdMem = HmmAttrPrint();
        if (MangdMem == 1) {
            int *Hmm = nullptr, MemSz = (4096 * 4), InitVal = 123;
            int Outpt = 9999, NumElms = MemSz / 4;
            bool IfTestPassed = true;
            cudaStream_t strm;
            HIP_CHECK(cudaStreamCreate(&strm));
            HIP_CHECK(cudaMallocManaged(&Hmm, MemSz));
            // Initializing the memory
            for (int i = 0; i < NumElms; ++i) {
                Hmm[i] = InitVal;
            }
            HIP_CHECK(MemPrefetchAsync(Hmm, MemSz, 0, strm));
            HIP_CHECK(cudaStreamSynchronize(strm));
            HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetReadMostly, 1));
            HIP_CHECK(cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributeReadMostly, Hmm, MemSz));
            if (Outpt != 1) {
                WARN("hipMemRangeAttributeReadMostly flag did not take effect as expected!!");
                IfTestPassed = false;
            }
            HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetAccessedBy, 1));
            HIP_CHECK(cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributeAccessedBy, Hmm, MemSz));
            if (Outpt != 1) {
                WARN("hipMemRangeAttributeAccessedBy flag did not take effect as expected!!");
                IfTestPassed = false;
            }
            HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetPreferredLocation, 1));
            HIP_CHECK(
                cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributePreferredLocation, Hmm, MemSz));
            if (Outpt != 1) {
                WARN("hipMemRangeAttributePreferredLocation flag did not take effect as expected!!");
                IfTestPassed = false;
            }
            HIP_CHECK(cudaStreamDestroy(strm));
            HIP_CHECK(cudaFree(Hmm));
            REQUIRE(IfTestPassed);
        } else {
            SUCCEED("GPU 0 doesn't support hipDeviceAttributeManagedMemory attribute.");
        }
    } else {
        SUCCEED("This test needs atleast 2 gpus");
    }
}

static void Unit_hipMemPrefetchAsyncAccsdByTst() {
    int NGpus = 0;
    HIP_CHECK(cudaGetDeviceCount(&NGpus));
    if (NGpus >= 2) {
        int MangdMem = HmmAttrPrint();
        if (MangdMem == 1) {
            RunSections([&] {
                int *Hmm = nullptr, MemSz = (4096 * 4), InitVal = 123, NumElms = MemSz / 4;
                int Outpt = 9999;
                bool IfTestPassed = true;
                cudaStream_t strm;
                HIP_CHECK(cudaStreamCreate(&strm));
                HIP_CHECK(cudaMallocManaged(&Hmm, MemSz));
                // Initializing the memory
                for (int i = 0; i < NumElms; ++i) {
                    Hmm[i] = InitVal;
                }
                SECTION("Test AccessedBy with Prefetch") {
                    HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetAccessedBy, 1));
                    HIP_CHECK(MemPrefetchAsync(Hmm, MemSz, 0, strm));
                    HIP_CHECK(cudaStreamSynchronize(strm));
                    HIP_CHECK(
                        cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributeAccessedBy, Hmm, MemSz));
                    if (Outpt != 1) {
                        WARN("hipMemRangeAttributeAccessedBy flag did not take effect as expected!!");
                        IfTestPassed = false;
                    }
                }
                SECTION("Test ReadMostly with Prefetch") {
                    HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetReadMostly, 1));
                    HIP_CHECK(MemPrefetchAsync(Hmm, MemSz, 0, strm));
                    HIP_CHECK(cudaStreamSynchronize(strm));
                    MemPrftchAsyncKernel1<<<(NumElms / 32), 32, 0, strm>>>(Hmm, NumElms);
                    HIP_CHECK(cudaStreamSynchronize(strm));
                    HIP_CHECK(
                        cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributeReadMostly, Hmm, MemSz));
                    if (Outpt != 1) {
                        WARN("hipMemRangeAttributeReadMostly flag did not take effect as expected!!");
                        IfTestPassed = false;
                    }
                    // Verifying the results
                    for (int i = 0; i < NumElms; ++i) {
                        if (Hmm[i] != (InitVal * InitVal)) {
                            WARN("Did not receive expected value!!");
                            IfTestPassed = false;
                            break;
                        }
                    }
                }
                SECTION("Test PreferredLocation with Prefetch") {
                    HIP_CHECK(MemAdvise(Hmm, MemSz, cudaMemAdviseSetPreferredLocation, 1));
                    HIP_CHECK(MemPrefetchAsync(Hmm, MemSz, 0, strm));
                    HIP_CHECK(cudaStreamSynchronize(strm));
                    MemPrftchAsyncKernel1<<<(NumElms / 32), 32, 0, strm>>>(Hmm, NumElms);
                    HIP_CHECK(cudaStreamSynchronize(strm));
                    HIP_CHECK(cudaMemRangeGetAttribute(&Outpt, sizeof(int), cudaMemRangeAttributePreferredLocation,
                                                       Hmm, MemSz));
                    if (Outpt != 1) {
                        WARN("hipMemRangeAttributePreferredLocation flag did not take effect as expected!!");
                        IfTestPassed = false;
                    }
                    // Verifying the results
                    for (int i = 0; i < NumElms; ++i) {
                        if (Hmm[i] != (InitVal * InitVal)) {
                            WARN("Did not receive expected value!!");
                            IfTestPassed = false;
                            break;
                        }
                    }
                }
                HIP_CHECK(cudaFree(Hmm));
                HIP_CHECK(cudaStreamDestroy(strm));
                REQUIRE(IfTestPassed);
            });
        } else {
            SUCCEED("GPU 0 doesn't support hipDeviceAttributeManagedMemory attribute.");
        }
    } else {
        SUCCEED("This test needs atleast 2 gpus");
    }
}

static void Unit_hipMemPrefetchAsyncNegativeTst() {
    int MangdMem = HmmAttrPrint();
    if (MangdMem == 1) {
        RunSections([&] {
            int *Hmm = nullptr, MemSz = 4096 * 4, NumElms = MemSz / 4, InitVal = 123;
            bool IfTestPassed = true;
            HIP_CHECK(cudaMallocManaged(&Hmm, MemSz));
            for (int i = 0; i < NumElms; ++i) {
                Hmm[i] = InitVal;
            }
            cudaError_t err;
            cudaStream_t strm;
            HIP_CHECK(cudaStreamCreate(&strm));
            SECTION("Passing null for dev ptr") {
                err = MemPrefetchAsync(NULL, MemSz, 0, strm);
                if (err == cudaSuccess) {
                    WARN("hipMemPrefetchAsync() gives hipSuccess when NULL is passed!!");
                    IfTestPassed = false;
                }
            }
            SECTION("Passing unusual count size(2nd param)") {
                // Passing count size as zero
                // expectation: Api should return error
                err = MemPrefetchAsync(Hmm, 0, 0, strm);
                if (err == cudaSuccess) {
                    WARN("hipMemPrefetchAsync() gives hipSuccess when count size is passed as zero!!");
                    IfTestPassed = false;
                }
                // Passing count size half of actually allocated
                // expectation: No issue should be observed
                err = MemPrefetchAsync(Hmm, MemSz / 2, 0, strm);
                if (err != cudaSuccess) {
                    WARN("hipMemPrefetchAsync() returned error when count size passed is half of actually "
                         "allocated!!");
                    IfTestPassed = false;
                }
                // Passing count size double that of actually allocated
                // expectation: Api should return error
                err = MemPrefetchAsync(Hmm, MemSz * 2, 0, strm);
                if (err == cudaSuccess) {
                    WARN("hipMemPrefetchAsync() gives hipSuccess when count size passed is double that of actually "
                         "allocated!!");
                    IfTestPassed = false;
                }
            }
            SECTION("Passing invalid device Ordinal") {
                err = MemPrefetchAsync(Hmm, MemSz, 9999, strm);
                if (err == cudaSuccess) {
                    WARN("hipMemPrefetchAsync() gives hipSuccess when Invalid device ordinal is passed!!");
                    IfTestPassed = false;
                }
            }
            SECTION("Checking behavior with stream object") {
                // Passing Null stream
                // expectation: No issue should be observed
                err = MemPrefetchAsync(Hmm, MemSz, 0, 0);
                if (err != cudaSuccess) {
                    WARN("hipMemPrefetchAsync() returns error when Null stream is passed!!");
                    IfTestPassed = false;
                }
                // Passing stream object belong to destination device
                // expectation: No issue should be observed
                int NGpus = 0;
                HIP_CHECK(cudaGetDeviceCount(&NGpus));
                if (NGpus > 1) {
                    cudaStream_t strm1;
                    HIP_CHECK(cudaSetDevice(1));
                    HIP_CHECK(cudaStreamCreate(&strm1));
                    err = MemPrefetchAsync(Hmm, MemSz, 1, strm1);
                    if (err != cudaSuccess) {
                        WARN("hipMemPrefetchAsync() returns error when stream object created in the context of "
                             "destination gpu is passed!!");
                        IfTestPassed = false;
                    }
                    HIP_CHECK(cudaStreamDestroy(strm1));
                }
            }
            HIP_CHECK(cudaFree(Hmm));
            HIP_CHECK(cudaStreamDestroy(strm));
            REQUIRE(IfTestPassed);
        });
    } else {
        SUCCEED("GPU 0 doesn't support hipDeviceAttributeManagedMemory attribute.");
    }
}

static void Unit_hipMemPrefetchAsync_NonPageSz() {
    int *Hmm = nullptr, NumElms = 4096 * 2, InitVal = 123;
    cudaStream_t strm;
    bool IfTestPassed = true;
    HIP_CHECK(cudaStreamCreate(&strm));
    // Allocating memory = 2*Page Size + 8 bytes
    HIP_CHECK(cudaMallocManaged(&Hmm, (NumElms * sizeof(int) + 8)));
    for (int i = 0; i < (NumElms + 2); ++i) {
        Hmm[i] = InitVal;
    }
    HIP_CHECK(MemPrefetchAsync(Hmm, (NumElms * sizeof(int) + 8), 0, strm));
    HIP_CHECK(cudaStreamSynchronize(strm));
    MemPrftchAsyncKernel1<<<((NumElms + 2) / 32 + 1), 32, 0, strm>>>(Hmm, (NumElms + 2));
    HIP_CHECK(cudaStreamSynchronize(strm));
    for (int i = 0; i < (NumElms + 2); ++i) {
        if (Hmm[i] != (InitVal * InitVal)) {
            WARN("Didnt receive expected output after kernel launch!!");
            IfTestPassed = false;
            break;
        }
    }
    HIP_CHECK(cudaFree(Hmm));
    HIP_CHECK(cudaStreamDestroy(strm));
    REQUIRE(IfTestPassed);
}
} // namespace PrefetchExt

/* ============================================================================ stream/hipStreamAttachMemAsync.cc */

namespace StreamAttach {
__device__ __managed__ int var = 0;

enum class StreamAttachTestType { NullStream = 0, StreamPerThread, CreatedStream };

static void Unit_hipStreamAttachMemAsync_Negative() {
    for (const auto streamType : {StreamAttachTestType::NullStream, StreamAttachTestType::StreamPerThread,
                                  StreamAttachTestType::CreatedStream}) {
        RunSections([&] {
            cudaStream_t stream{nullptr};
            if (streamType == StreamAttachTestType::StreamPerThread) {
                stream = cudaStreamPerThread;
            } else if (streamType == StreamAttachTestType::CreatedStream) {
                HIP_CHECK(cudaStreamCreate(&stream));
                REQUIRE(stream != nullptr);
            }
            SECTION("Invalid Resource Handle") {
                int definitelyNotAManagedVariable = 0;
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(&definitelyNotAManagedVariable),
                                                         sizeof(int), cudaMemAttachSingle),
                                cudaErrorInvalidValue);
            }
            SECTION("Invalid devptr") {
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream, nullptr, sizeof(int), cudaMemAttachSingle),
                                cudaErrorInvalidValue);
            }
            SECTION("Invalid Resource Size") {
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(&var), sizeof(int) - 1,
                                                         cudaMemAttachSingle),
                                cudaErrorInvalidValue);
            }
            SECTION("Invalid Flags") {
                HIP_CHECK_ERROR(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(&var), sizeof(int) - 1,
                                                         cudaMemAttachSingle | cudaMemAttachHost | cudaMemAttachGlobal),
                                cudaErrorInvalidValue);
            }
            if (streamType == StreamAttachTestType::CreatedStream) {
                HIP_CHECK(cudaStreamDestroy(stream));
            }
        });
    }
}

__global__ void kernel(int *ptr, size_t size) {
    auto i = threadIdx.x;
    if (i < size) {
        ptr[i] = 1024;
    }
}

constexpr size_t size = 1024;
__device__ __managed__ int m_memory[size];

static void Unit_hipStreamAttachMemAsync_UseCase() {
    for (const auto streamType : {StreamAttachTestType::NullStream, StreamAttachTestType::StreamPerThread,
                                  StreamAttachTestType::CreatedStream}) {
        RunSections([&] {
            cudaStream_t stream{nullptr};
            if (streamType == StreamAttachTestType::CreatedStream) {
                HIP_CHECK(cudaStreamCreate(&stream));
                REQUIRE(stream != nullptr);
            }
            SECTION("Size zero is valid") {
                int *d_memory{nullptr};
                HIP_CHECK(cudaMallocManaged(&d_memory, sizeof(int) * size, cudaMemAttachHost));
                HIP_CHECK(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(d_memory), 0, cudaMemAttachHost));
                HIP_CHECK(cudaStreamSynchronize(stream)); // Wait for command to complete
                HIP_CHECK(cudaFree(d_memory));
            }
            SECTION("Access from device and host") {
                int *d_memory{nullptr};
                HIP_CHECK(cudaMallocManaged(&d_memory, sizeof(int) * size, cudaMemAttachHost));
                HIP_CHECK(cudaMemset(d_memory, 0, sizeof(int) * size));
                HIP_CHECK(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(d_memory), 0, cudaMemAttachHost));
                HIP_CHECK(cudaStreamSynchronize(stream)); // Wait for the command to complete
                kernel<<<1, size, 0, stream>>>(d_memory, size);
                HIP_CHECK(cudaStreamSynchronize(stream)); // Wait for the kernel to complete
                auto ptr = std::make_unique<int[]>(size);
                std::copy(d_memory, d_memory + size, ptr.get());
                HIP_CHECK(cudaFree(d_memory));
                REQUIRE(std::all_of(ptr.get(), ptr.get() + size, [](int n) { return n == size; }));
            }
            SECTION("Access ManagedMemory") {
                HIP_CHECK(cudaMemset(m_memory, 0, sizeof(int) * size));
                HIP_CHECK(cudaStreamAttachMemAsync(stream, reinterpret_cast<void *>(m_memory), 0, cudaMemAttachHost));
                HIP_CHECK(cudaStreamSynchronize(stream)); // Wait for the command to complete
                kernel<<<1, size, 0, stream>>>(m_memory, size);
                HIP_CHECK(cudaStreamSynchronize(stream)); // Wait for the kernel to complete
                auto ptr = std::make_unique<int[]>(size);
                std::copy(m_memory, m_memory + size, ptr.get());
                REQUIRE(std::all_of(ptr.get(), ptr.get() + size, [](int n) { return n == size; }));
            }
            if (streamType == StreamAttachTestType::CreatedStream) {
                HIP_CHECK(cudaStreamDestroy(stream));
            }
        });
    }
}
} // namespace StreamAttach

/* ============================================================================ hipMemAdvise_old.cc */

namespace AdviseOld {


// Kernel function
__global__ void MemAdvseKernel(int n, int *x) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < n)
    x[index] = x[index] * x[index];
}

// Kernel
__global__ void MemAdvise2(int *Hmm, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride) {
    Hmm[i] = Hmm[i] + 10;
  }
}

// Kernel
__global__ void MemAdvise3(int *Hmm, int *Hmm1, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride) {
    Hmm1[i] = Hmm[i] + 10;
  }
}


static bool CheckError(cudaError_t err, int LineNo) {
  if (err == cudaSuccess) {
    WARN("Error expected but received cudaSuccess at line no.:" << LineNo);
    return false;
  } else {
    return true;
  }
}

static int HmmAttrPrint() {
  int managed = 0;
  WARN("The following are the attribute values related to HMM for"
         " device 0:\n");
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrDirectManagedMemAccessFromHost, 0));
  WARN("cudaDevAttrDirectManagedMemAccessFromHost: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrConcurrentManagedAccess, 0));
  WARN("cudaDevAttrConcurrentManagedAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrPageableMemoryAccess, 0));
  WARN("cudaDevAttrPageableMemoryAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
  WARN("cudaDevAttrPageableMemoryAccessUsesHostPageTables:" << managed);

  HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory,
                                  0));
  WARN("cudaDevAttrManagedMemory: " << managed);
  return managed;
}


// The following Function Tests the working of flags which can be assigned
// to HMM memory using MemAdvise() api
static void Unit_hipMemAdvise_TstFlags() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int NumDevs = 0, *Outpt = nullptr;
    int MEM_SIZE = 4*1024, A_CONST = 9999;
    float *Hmm = nullptr;
    int AttrVal = 0;
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    Outpt = new int[NumDevs];
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE * 2, cudaMemAttachGlobal));
    // With the following for loop we iterate through each of the Gpus in the
    // system set and unset the flags and check the behavior.
    for (int i = 0; i < NumDevs; ++i) {
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2, cudaMemAdviseSetReadMostly, i));
      HIP_CHECK(cudaMemRangeGetAttribute(&AttrVal, sizeof(AttrVal),
                                        cudaMemRangeAttributeReadMostly, Hmm,
                                       MEM_SIZE * 2));
      if (AttrVal != 1) {
        WARN("Attempt to set cudaMemAdviseSetReadMostly flag failed!\n");
        IfTestPassed = false;
      }
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2, cudaMemAdviseUnsetReadMostly,
                             i));

      HIP_CHECK(cudaMemRangeGetAttribute(&AttrVal, sizeof(AttrVal),
                                       cudaMemRangeAttributeReadMostly, Hmm,
                                       (MEM_SIZE * 2)));
      if (AttrVal != 0) {
        WARN("Attempt to Unset cudaMemAdviseSetReadMostly flag failed!\n");
        IfTestPassed = false;
      }
      AttrVal = A_CONST;
      // Currently cudaMemAdviseSetPreferredLocation and
      // cudaMemAdviseSetAccessedBy
      // flags are resulting in issues: SWDEV-267357
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2,
                            cudaMemAdviseSetPreferredLocation, i));
      HIP_CHECK(cudaMemRangeGetAttribute(&AttrVal, sizeof(AttrVal),
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, (MEM_SIZE * 2)));
      if (AttrVal != i) {
        WARN("Attempt to set cudaMemAdviseSetPreferredLocation flag failed!\n");
        IfTestPassed = false;
      }
      AttrVal = A_CONST;
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2,
                            cudaMemAdviseUnsetPreferredLocation, i));
      HIP_CHECK(cudaMemRangeGetAttribute(&AttrVal, sizeof(AttrVal),
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, (MEM_SIZE * 2)));
      if (AttrVal == i) {
      WARN("Attempt to Unset cudaMemAdviseUnsetPreferredLocation ");
      WARN("flag failed!\n");
      IfTestPassed = false;
      }
      for (int m = 0; m < NumDevs; ++m) {
        Outpt[m] = A_CONST;
      }
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2, cudaMemAdviseSetAccessedBy, i));
      HIP_CHECK(cudaMemRangeGetAttribute(Outpt, sizeof(Outpt),
                                       cudaMemRangeAttributeAccessedBy, Hmm,
                                       (MEM_SIZE * 2)));
      if ((Outpt[0]) != i) {
        WARN("Attempt to set cudaMemAdviseSetAccessedBy flag failed!\n");
        IfTestPassed = false;
      }
      for (int m = 0; m < NumDevs; ++m) {
        Outpt[m] = A_CONST;
      }
      HIP_CHECK(MemAdvise(Hmm , MEM_SIZE * 2, cudaMemAdviseUnsetAccessedBy,
                             i));
      HIP_CHECK(cudaMemRangeGetAttribute(Outpt, sizeof(Outpt),
                                       cudaMemRangeAttributeAccessedBy, Hmm,
                                       (MEM_SIZE * 2)));
      if ((Outpt[0]) >= 0) {
        WARN("Attempt to Unset cudaMemAdviseUnsetAccessedBy flag failed!\n");
        IfTestPassed = false;
      }
    }
    delete [] Outpt;
    HIP_CHECK(cudaFree(Hmm));
    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

static void Unit_hipMemAdvise_NegtveTsts() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int NumDevs = 0, MEM_SIZE = 4*1024;
    float *Hmm = nullptr;
    std::string str;
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE * 2, cudaMemAttachGlobal));
    // Passing NULL as first parameter instead of valid pointer to a memory
    IfTestPassed &= CheckError(MemAdvise(NULL, MEM_SIZE * 2,
                               cudaMemAdviseSetReadMostly, 0), __LINE__);

    // Passing 0 for count(2nd param) parameter
    IfTestPassed &= CheckError(MemAdvise(Hmm, 0, cudaMemAdviseSetReadMostly,
                                            0), __LINE__);

    // Passing count much more than actually allocated value
    IfTestPassed &= CheckError(MemAdvise(Hmm, MEM_SIZE * 6,
                               cudaMemAdviseSetReadMostly, 0), __LINE__);

    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

// The following function tests various scenarios around the flag
// 'cudaMemAdviseSetPreferredLocation' using HMM memory and MemAdvise() api
static void Unit_hipMemAdvise_PrefrdLoc() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    // Check that when a page fault occurs for the memory region set to devPtr,
    // the data is migrated to the destn processor
    int MEM_SIZE = 4096, A_CONST = 9999;
    int *Hmm = nullptr, NumDevs = 0, dev = A_CONST;
    bool IfTestPassed = true;
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE * 3, cudaMemAttachGlobal));
    for (int i = 0; i < ((MEM_SIZE * 3)/4); ++i) {
        Hmm[i]  = 4;
    }
    for (int devId = 0; devId < NumDevs; ++devId) {
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE * 3,
                             cudaMemAdviseSetPreferredLocation, devId));
      int NumElms = ((MEM_SIZE * 3)/4);
      MemAdvseKernel<<<NumElms/32, 32>>>(NumElms, Hmm);
      int dev = A_CONST;
      HIP_CHECK(cudaMemRangeGetAttribute(&dev, sizeof(dev),
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, MEM_SIZE * 3));
      if (dev != devId) {
        WARN("Memory observed to be not available on expected location\n");
        WARN("line no: " << __LINE__);
        WARN("dev: " << dev);
        IfTestPassed = false;
      }
    }

    // Check that when preferred location is set for a memory region,
    // data can still be prefetched using hipMemPrefetchAsync
    cudaStream_t strm;
    dev = A_CONST;
    for (int devId = 0; devId < NumDevs; ++devId) {
      HIP_CHECK(cudaSetDevice(devId));
      HIP_CHECK(cudaStreamCreate(&strm));
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE * 3,
                             cudaMemAdviseSetPreferredLocation, devId));
      HIP_CHECK(MemPrefetchAsync(Hmm, MEM_SIZE * 3, devId, strm));
      HIP_CHECK(cudaStreamSynchronize(strm));
      HIP_CHECK(cudaMemRangeGetAttribute(&dev, sizeof(dev),
                                       cudaMemRangeAttributeLastPrefetchLocation,
                                       Hmm, MEM_SIZE * 3));
      if (dev != devId) {
        WARN("Memory reported to be not available at the Prefetched ");
        WARN("location with device id: " << devId);
        WARN("line no: " << __LINE__);
        WARN("dev: " << dev);
        IfTestPassed = false;
      }
      HIP_CHECK(cudaStreamDestroy(strm));
    }
    HIP_CHECK(cudaFree(Hmm));
    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

// The following function tests various scenarios around the flag
// 'cudaMemAdviseSetReadMostly' using HMM memory and MemAdvise() api

static void Unit_hipMemAdvise_ReadMostly() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int MEM_SIZE = 4096, A_CONST = 9999;
    float *Hmm = nullptr;
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE));
    for (uint64_t i = 0; i < (MEM_SIZE/sizeof(float)); ++i) {
      Hmm[i] = A_CONST;
    }
    HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetReadMostly, 0));
    // Checking if the data can be read after setting cudaMemAdviseSetReadMostly
    for (uint64_t i = 0; i < (MEM_SIZE/sizeof(float)); ++i) {
      if (Hmm[i] != A_CONST) {
        WARN("Didn't find expected value in Hmm memory after setting");
        WARN(" cudaMemAdviseSetReadMostly flag line no.: " << __LINE__);
        IfTestPassed = false;
      }
    }

    // Checking if the memory region can be modified
    for (uint64_t i = 0; i < (MEM_SIZE/sizeof(float)); ++i) {
      Hmm[i] = A_CONST;
    }

    for (uint64_t i = 0; i < (MEM_SIZE/sizeof(float)); ++i) {
      if (Hmm[i] != A_CONST) {
        WARN("Didn't find expected value in Hmm memory after Modification\n");
        WARN("line no.: " << __LINE__);
        IfTestPassed = false;
      }
    }

    int out = A_CONST;
    HIP_CHECK(cudaMemRangeGetAttribute(&out, 4, cudaMemRangeAttributeReadMostly,
                                      Hmm, MEM_SIZE));
    if (out != 1) {
      WARN("out value: " << out);
      IfTestPassed = false;
    }
    // Checking the advise attribute after prefetch
    HIP_CHECK(MemPrefetchAsync(Hmm, MEM_SIZE, 0, 0));
    HIP_CHECK(cudaDeviceSynchronize());
    HIP_CHECK(cudaMemRangeGetAttribute(&out, sizeof(int),
                                     cudaMemRangeAttributeReadMostly, Hmm,
                                     MEM_SIZE));
    if (out != 1) {
      WARN("Attribute assigned to memory changed after calling ");
      WARN("MemPrefetchAsync(). line no.: " << __LINE__);
      WARN("out value: " << out);
      IfTestPassed = false;
    }
    // hipMemAdvise should succeed for SetReadMostly and UnsetReadMostly
    // irrespective of the device
    HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetReadMostly, 99));
    HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseUnsetReadMostly, -12));

    HIP_CHECK(cudaFree(Hmm));
    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

// The following function verifies if assigning of a flag invalidates the
// earlier flag which was assigned to the same memory region using
// MemAdvise()
static void Unit_hipMemAdvise_TstFlgOverrideEffect() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int MEM_SIZE = 4*4096, A_CONST = 9999;
    float *Hmm = nullptr;
    int NumDevs = 0, dev = A_CONST;

    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE, cudaMemAttachGlobal));
    for (int i = 0; i < NumDevs; ++i) {
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetReadMostly, i));
      HIP_CHECK(cudaMemRangeGetAttribute(&dev, sizeof(int),
                                       cudaMemRangeAttributeReadMostly, Hmm,
                                       MEM_SIZE));
      if (dev != 1) {
        WARN("cudaMemAdviseSetReadMostly flag did not take affect despite ");
        WARN("setting it using MemAdvise(). line no.: " << __LINE__);
        IfTestPassed = false;
        break;
      }
      dev = A_CONST;
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetPreferredLocation,
                             i));
      HIP_CHECK(cudaMemRangeGetAttribute(&dev, sizeof(int),
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, MEM_SIZE));
      if (dev != i) {
        WARN("cudaMemAdviseSetPreferredLocation flag did not take affect ");
        WARN("despite setting it using MemAdvise()\n");
        WARN("line no.: " << __LINE__);
        IfTestPassed = false;
        break;
      }

      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetAccessedBy, i));
      dev = A_CONST;
      HIP_CHECK(cudaMemRangeGetAttribute(&dev, sizeof(int),
                                       cudaMemRangeAttributeAccessedBy, Hmm,
                                       MEM_SIZE));
      if (dev != i) {
        WARN("cudaMemAdviseSetAccessedBy flag did not take affect despite ");
        WARN("setting it using MemAdvise(). line no.: " << __LINE__);
        IfTestPassed = false;
        break;
      }
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseUnsetAccessedBy, i));
    }
    HIP_CHECK(cudaFree(Hmm));
    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


// The following function tests if peers can set cudaMemAdviseSetAccessedBy flag
// on HMM memory prefetched on each of the other gpus
/* STREAMSIM: an HT_AMD-only part of upstream is left out here. */



/* Set AccessedBy flag and check value returned by cudaMemRangeGetAttribute()
   It should be -2(same is observed on cuda)*/
static void Unit_hipMemAdvise_TstAccessedByFlg() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999;
    HIP_CHECK(cudaMallocManaged(&Hmm, 2*4096));
    HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetAccessedBy, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeLastPrefetchLocation,
                                     Hmm, 2*4096));
    if (data != -2) {
      WARN("Didnt get expected value!!\n");
      REQUIRE(false);
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

/* Set AccessedBy flag to device 0 on Hmm memory and prefetch the memory to
   device 1, then probe for AccessedBy flag using cudaMemRangeGetAttribute()
   we should still see the said flag is set for device 0*/
static void Unit_hipMemAdvise_TstAccessedByFlg2() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999, Ngpus = 0;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    if (Ngpus >= 2) {
      cudaStream_t strm;
      HIP_CHECK(cudaStreamCreate(&strm));
      HIP_CHECK(cudaMallocManaged(&Hmm, 2*4096));
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetAccessedBy, 0));
      HIP_CHECK(MemPrefetchAsync(Hmm, 2*4096, 1, strm));
      HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                cudaMemRangeAttributeAccessedBy, Hmm, 2*4096));
      if (data != 0) {
        WARN("Didnt get expected behavior at line: " << __LINE__);
        REQUIRE(false);
      }
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseUnsetAccessedBy, 0));
      HIP_CHECK(cudaStreamDestroy(strm));
      HIP_CHECK(cudaFree(Hmm));
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}



/* 1) Set AccessedBy to device 0 followed by PreferredLocation to device 1
   check for AccessedBy flag using cudaMemRangeGetAttribute() it should
   return 0
   2) Unset AccessedBy to 0 and set it to device 1 followed by
   PreferredLocation to device 1, check for AccessedBy flag using
   cudaMemRangeGetAttribute() it should return 1*/

static void Unit_hipMemAdvise_TstAccessedByFlg3() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999, Ngpus = 0;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    if (Ngpus >= 2) {
      HIP_CHECK(cudaMallocManaged(&Hmm, 2*4096));
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetAccessedBy, 0));
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetPreferredLocation, 1));
      HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                cudaMemRangeAttributeAccessedBy, Hmm, 2*4096));
      if (data != 0) {
        WARN("Didnt get expected behavior at line: " << __LINE__);
        REQUIRE(false);
      }
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseUnsetAccessedBy, 0));
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetAccessedBy, 1));
      HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetPreferredLocation, 0));
      HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                cudaMemRangeAttributeAccessedBy, Hmm, 2*4096));
      if (data != 1) {
        WARN("Didnt get expected behavior at line: " << __LINE__);
        REQUIRE(false);
      }
      HIP_CHECK(cudaFree(Hmm));
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


/* Set AccessedBy flag to HMM memory launch a kernel and then unset
   AccessedBy, launch kernel. We should not have any access issues*/

static void Unit_hipMemAdvise_TstAccessedByFlg4() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, NumElms = (1024 * 1024), InitVal = 123, blockSize = 64;
    int DataMismatch = 0;
    cudaStream_t strm;
    HIP_CHECK(cudaStreamCreate(&strm));
    HIP_CHECK(cudaMallocManaged(&Hmm, (NumElms * sizeof(int))));
    HIP_CHECK(MemAdvise(Hmm, (NumElms * sizeof(int)),
                           cudaMemAdviseSetAccessedBy, 0));
    // Initializing memory
    for (int i = 0; i < NumElms; ++i) {
      Hmm[i] = InitVal;
    }
    dim3 dimBlock(blockSize, 1, 1);
    dim3 dimGrid((NumElms + blockSize -1)/blockSize, 1, 1);
    // launching kernel from each one of the gpus
    MemAdvise2<<<dimGrid, dimBlock, 0, strm>>>(Hmm, NumElms);
    HIP_CHECK(cudaStreamSynchronize(strm));

    // verifying the final result
    for (int i = 0; i < NumElms; ++i) {
      if (Hmm[i] != (InitVal + 10)) {
        DataMismatch++;
      }
    }

    if (DataMismatch != 0) {
      WARN("DataMismatch is observed at line: " << __LINE__);
      REQUIRE(false);
    }

    HIP_CHECK(MemAdvise(Hmm, (NumElms * sizeof(int)),
                           cudaMemAdviseUnsetAccessedBy, 0));
    MemAdvise2<<<dimGrid, dimBlock, 0, strm>>>(Hmm, NumElms);
    HIP_CHECK(cudaStreamSynchronize(strm));
    // verifying the final result
    for (int i = 0; i < NumElms; ++i) {
      if (Hmm[i] != (InitVal + (2*10))) {
        DataMismatch++;
      }
    }

    if (DataMismatch != 0) {
      WARN("DataMismatch is observed at line: " << __LINE__);
      REQUIRE(false);
    }
    HIP_CHECK(cudaFree(Hmm));
    HIP_CHECK(cudaStreamDestroy(strm));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

/* Allocate memory using aligned_alloc(), assign PreferredLocation flag to
   the allocated memory and launch a kernel. Kernel should get executed
   successfully without hang or segfault*/
/* STREAMSIM: an HT_AMD-only part of upstream is left out here. */


/* Allocate Hmm memory, set advise to PreferredLocation and then get
   attribute using the api cudaMemRangeGetAttribute() for
   cudaMemRangeAttributeLastPrefetchLocation the value returned should be -2*/

static void Unit_hipMemAdvise_TstMemAdvisePrefrdLoc() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999;
    HIP_CHECK(cudaMallocManaged(&Hmm, 4096));
    HIP_CHECK(MemAdvise(Hmm, 4096, cudaMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeLastPrefetchLocation,
                                     Hmm, 4096));
    if (data != -2) {
      WARN("Didnt receive expected value.");
      REQUIRE(false);
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


/* Allocate HMM memory, set PreferredLocation to device 0, Prfetch the mem
   to device1, probe for cudaMemRangeAttributeLastPrefetchLocation using
   cudaMemRangeGetAttribute(), we should get 1*/

static void Unit_hipMemAdvise_TstMemAdviseLstPreftchLoc() {
  int NumDevs = 0;
  HIP_CHECK(cudaGetDeviceCount(&NumDevs));
  if (NumDevs >= 2) {
    int managed = HmmAttrPrint();
    if (managed == 1) {
      int *Hmm = NULL, data = 999;
      cudaStream_t strm;
      HIP_CHECK(cudaSetDevice(1));
      HIP_CHECK(cudaStreamCreate(&strm));
      HIP_CHECK(cudaMallocManaged(&Hmm, 4096));
      HIP_CHECK(MemAdvise(Hmm, 4096, cudaMemAdviseSetPreferredLocation, 0));
      HIP_CHECK(MemPrefetchAsync(Hmm, 4096, 1, strm));
      HIP_CHECK(cudaStreamSynchronize(strm));
      HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                       cudaMemRangeAttributeLastPrefetchLocation,
                                       Hmm, 4096));
      if (data != 1) {
        WARN("Didnt receive expected value!!");
        REQUIRE(false);
      }
    } else {
      SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
             "attribute. Hence skipping the testing with Pass result.\n");
    }
  } else {
    SUCCEED("This system has less than 2 gpus hence skipping the test.\n");
  }
}


/* Allocate HMM memory, set ReadMostly followed by PreferredLocation, probe
   for cudaMemRangeAttributeReadMostly and cudaMemRangeAttributePreferredLocation
   using cudaMemRangeGetAttribute() we should observe 1 and 0 correspondingly.
   In other words setting of cudaMemRangeAttributePreferredLocation should not
   impact cudaMemRangeAttributeReadMostly advise to the memory*/

static void Unit_hipMemAdvise_TstMemAdviseMultiFlag() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999;
    HIP_CHECK(cudaMallocManaged(&Hmm, 4096));
    HIP_CHECK(MemAdvise(Hmm, 4096, cudaMemAdviseSetReadMostly, 0));
    HIP_CHECK(MemAdvise(Hmm, 4096, cudaMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly, Hmm,
                                     4096));
    if (data != 1) {
      WARN("Didnt receive expected value at line: " << data);
      REQUIRE(false);
    }
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributePreferredLocation, Hmm,
                                     4096));
    if (data != 0) {
      WARN("Didnt receive expected value at line: " << data);
      REQUIRE(false);
    }
    HIP_CHECK(cudaFree(Hmm));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}



/*Allocate Hmm memory, advise it to ReadMostly for gpu: 0 and launch kernel
  on all other gpus except 0. This test case may discover any effect or
  access denial case arising due to setting ReadMostly only to a particular
  gpu*/

static void Unit_hipMemAdvise_ReadMosltyMgpuTst() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int Ngpus = 0;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    if (Ngpus < 2) {
      SUCCEED("This test needs atleast two gpus to run."
      "Hence skipping the test.\n");
    }
    int *Hmm = NULL, NumElms = (1024 * 1024), InitVal = 123, blockSize = 64;
    int *Hmm1 = NULL, DataMismatch = 0;
    cudaStream_t strm;
    HIP_CHECK(cudaStreamCreate(&strm));
    HIP_CHECK(cudaMallocManaged(&Hmm, (NumElms * sizeof(int))));
    // Initializing memory
    for (int i = 0; i < NumElms; ++i) {
      Hmm[i] = InitVal;
    }
    HIP_CHECK(MemAdvise(Hmm, (NumElms * sizeof(int)),
                           cudaMemAdviseSetReadMostly, 0));
    dim3 dimBlock(blockSize, 1, 1);
    dim3 dimGrid((NumElms + blockSize -1)/blockSize, 1, 1);
/* STREAMSIM: an HT_AMD-only part of upstream is left out here. */

    HIP_CHECK(cudaFree(Hmm));
    HIP_CHECK(cudaStreamDestroy(strm));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


static void Unit_hipMemAdvise_TstSetUnsetPrfrdLoc() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, data = 999;
    HIP_CHECK(cudaMallocManaged(&Hmm, 2*4096));
    HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseSetPreferredLocation, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                        cudaMemRangeAttributePreferredLocation, Hmm, 2*4096));
    if (data != 0) {
      WARN("Didnt receive expected value!!");
      REQUIRE(false);
    }
    HIP_CHECK(MemAdvise(Hmm, 2*4096, cudaMemAdviseUnsetPreferredLocation, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                          cudaMemRangeAttributePreferredLocation, Hmm, 2*4096));
    if (data != -2) {
      WARN("Didnt receive expected value!!");
      REQUIRE(false);
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

} // namespace AdviseOld

/* ============================================================================ hipMemRangeGetAttribute_old.cc */

namespace RangeGetAttributeOld {

static bool CheckError(cudaError_t err, int LineNo) {
  if (err == cudaSuccess) {
    WARN("Error expected but received cudaSuccess at line no.:"
           << LineNo);
    return false;
  } else {
    return true;
  }
}


static int HmmAttrPrint() {
  int managed = 0;
  WARN("The following are the attribute values related to HMM for"
         " device 0:\n");
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrDirectManagedMemAccessFromHost, 0));
  WARN("cudaDevAttrDirectManagedMemAccessFromHost: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrConcurrentManagedAccess, 0));
  WARN("cudaDevAttrConcurrentManagedAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrPageableMemoryAccess, 0));
  WARN("cudaDevAttrPageableMemoryAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
  WARN("cudaDevAttrPageableMemoryAccessUsesHostPageTables:"
         << managed);

  HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory,
                                  0));
  WARN("cudaDevAttrManagedMemory: " << managed);
  return managed;
}

// The following function tests the count parameter(last param) to
// hipMemRangeGetAttribute api by passing possible extreme values.
// Curently the only way to test if count param working properly is to verify
// the first parameter of cudaMemRangeGetAttribute() api has value 1 stored
static void Unit_hipMemRangeGetAttribute_TstCountParam() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {

    /* STREAMSIM: an HT_AMD-only part of upstream is left out here. */


    int MEM_SIZE = 4096, RND_NUM = 9999, FLG_READMOSTLY_ENBLD = 1;
    bool IfTestPassed = true;
    int data = RND_NUM, *devPtr = nullptr;
    size_t TotGpuMem, TotGpuFreeMem;
    HIP_CHECK(cudaMemGetInfo(&TotGpuFreeMem, &TotGpuMem));

    HIP_CHECK(cudaMallocManaged(&devPtr, MEM_SIZE, cudaMemAttachGlobal));
    HIP_CHECK(MemAdvise(devPtr, MEM_SIZE, cudaMemAdviseSetReadMostly, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(reinterpret_cast<void*>(&data),
                                     sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, MEM_SIZE));
    if (data != FLG_READMOSTLY_ENBLD) {
      WARN("cudaMemRangeGetAttribute() api didnt return expected value!\n");
      IfTestPassed = false;
    }
    HIP_CHECK(cudaFree(devPtr));
    HIP_CHECK(cudaMallocManaged(&devPtr, TotGpuFreeMem, cudaMemAttachGlobal));
    HIP_CHECK(MemAdvise(devPtr, TotGpuFreeMem, cudaMemAdviseSetReadMostly,
                           0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, TotGpuFreeMem));

    if (data != FLG_READMOSTLY_ENBLD) {
      WARN("cudaMemRangeGetAttribute() api didnt return expected value!\n");
      IfTestPassed = false;
    }
    HIP_CHECK(cudaFree(devPtr));
    HIP_CHECK(cudaMallocManaged(&devPtr, (TotGpuFreeMem - 1),
                              cudaMemAttachGlobal));
    HIP_CHECK(MemAdvise(devPtr, (TotGpuFreeMem - 1),
                          cudaMemAdviseSetReadMostly, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, (TotGpuFreeMem - 1)));

    if (data != FLG_READMOSTLY_ENBLD) {
      WARN("cudaMemRangeGetAttribute() api didnt return expected value!\n");
      IfTestPassed = false;
    }
    HIP_CHECK(cudaFree(devPtr));

    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

/* The following Test Case does negative tests on cudaMemRangeGetAttribute()*/

static void Unit_hipMemRangeGetAttribute_NegativeTests() {
  RunSections([&] {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    int MEM_SIZE = 4096, RND_NUM = 9999;
    float *devPtr = nullptr;
    int NumDevs;
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    int data = RND_NUM;
    int *OutData = new int[NumDevs];
    for (int m = 0; m < NumDevs; ++m) {
      OutData[m] = RND_NUM;
    }
    HIP_CHECK(cudaMallocManaged(&devPtr, MEM_SIZE, cudaMemAttachGlobal));
    HIP_CHECK(MemAdvise(devPtr, MEM_SIZE, cudaMemAdviseSetReadMostly, 0));

    // checking the behavior with dataSize 0
    SECTION("checking the behavior with dataSize 0") {
      REQUIRE(CheckError(cudaMemRangeGetAttribute(&data, 0,
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, MEM_SIZE), __LINE__));
    }
    // checking the behavior with dataSize > 4 and even
    SECTION("checking the behavior with dataSize > 4 and even") {
      REQUIRE(CheckError(cudaMemRangeGetAttribute(OutData, 6,
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, MEM_SIZE), __LINE__));
    }
    // checking the behavior with dataSize > 4 and odd
    SECTION("checking the behavior with dataSize > 4 and odd") {
      REQUIRE(CheckError(cudaMemRangeGetAttribute(OutData, 7,
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, MEM_SIZE), __LINE__));
    }
    // checking the behavior with dataSize which is not multiple of 4
    SECTION("checking the behavior with dataSize which is not multiple of 4") {
      REQUIRE(CheckError(cudaMemRangeGetAttribute(OutData, 27,
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, MEM_SIZE), __LINE__));
    }
    // checking the behaviour with devPtr(4th param) as NULL
    SECTION("checking the behaviour with devPtr(4th param) as NULL") {
    REQUIRE(CheckError(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     NULL, MEM_SIZE), __LINE__));
    }
    // checking the behaviour with count(5th param) as 0
    SECTION("checking the behaviour with count(5th param) as 0") {
      REQUIRE(CheckError(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     devPtr, 0), __LINE__));
    }
    // checking the behavior with invalid attribute (3rd param) as 0
    // as it is attribute hence avoiding the negative tests with 3rd param

    // checking the behaviour of the api with ptr allocated using
    // hipHostMalloc
    void *ptr = nullptr;
    SECTION("Checking behavior with hipHostMalloc ptr") {
      HIP_CHECK(cudaHostAlloc(&ptr, MEM_SIZE, 0));
      REQUIRE(CheckError(cudaMemRangeGetAttribute(&data, sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     ptr, MEM_SIZE), __LINE__));
      HIP_CHECK(cudaFreeHost(ptr));
    }
    HIP_CHECK(cudaFree(devPtr));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
  });
}

/* This test case checks the behavior of cudaMemRangeGetAttribute()  with
   AccessedBy flag is consistent with cuda's counter part*/
static void Unit_hipMemRangeGetAttribute_AccessedBy1() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int Ngpus = 0, *Hmm = NULL, MEM_SZ = 4096, RND_NUM = 999;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    std::vector<int> OutData;
    for (int i = 0; i < Ngpus; ++i) {
      OutData.push_back(RND_NUM);
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SZ));
    HIP_CHECK(MemAdvise(Hmm, MEM_SZ, cudaMemAdviseSetAccessedBy, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int)*OutData.size(),
                                     cudaMemRangeAttributeAccessedBy,
                                     Hmm, MEM_SZ));
    if (OutData[0] != 0) {
      WARN("Didn't receive expected value at line: " << __LINE__);
      REQUIRE(false);
    }
    for (int i = 1; i < Ngpus; ++i) {
      if (OutData[i] != -2) {
        WARN("Didn't receive expected value at line: " << __LINE__);
        REQUIRE(false);
      }
    }
    if (Ngpus >= 2) {
      for (int i = 0; i < Ngpus; ++i) {
        HIP_CHECK(MemAdvise(Hmm, MEM_SZ, cudaMemAdviseSetAccessedBy, i));
      }
      // checking the behavior with dataSize less than the number of gpus
      // This should not result in segfault.
      HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int)*(OutData.size()-1),
                                       cudaMemRangeAttributeAccessedBy,
                                       Hmm, MEM_SZ));
      // OutData should have stored the gpu ordinals for which AccessedBy is
      // assigned except for the last element which should have -2 stored
      // so as to be consistent with cuda's behavior
      for (int i = 0; i < (Ngpus - 1); ++i) {
        if (OutData[i] != i) {
          WARN("Didn't receive expected value at line: " << __LINE__);
          REQUIRE(false);
        }
      }
      if (OutData[Ngpus - 1] != -2) {
        WARN("Didn't receive expected value at line: " << __LINE__);
        REQUIRE(false);
      }
    }
    HIP_CHECK(cudaFree(Hmm));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}




/* Allocate  4 * page size of memory with the flag cudaMemAttachGloal. Advise
   AccessedBy, ReadMostly and PreferredLocation to first half(2*pageSz) of the
    memory and probe the for the flags which are set earlier using
   cudaMemRangeGetAttribute() api for the full size(4*PageSz).*/
/* Need to discuss the difference in behavior w.r.t cuda*/

static void Unit_hipMemRangeGetAttribte_3() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int Ngpus = 0, *Hmm = NULL, MEM_SZ = 4096*4, RND_NUM = 999;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    std::vector<int> OutData;
    for (int i = 0; i < Ngpus; ++i) {
      OutData.push_back(RND_NUM);
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SZ));
    HIP_CHECK(MemAdvise(Hmm, MEM_SZ/2, cudaMemAdviseSetAccessedBy, 0));
    HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int)*OutData.size(),
                                     cudaMemRangeAttributeAccessedBy,
                                     (Hmm), MEM_SZ));

    HIP_CHECK(MemAdvise(Hmm, MEM_SZ/2, cudaMemAdviseSetReadMostly, 0));
    // The Api called below should not fail
    HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int),
                                     cudaMemRangeAttributeReadMostly,
                                     (Hmm), MEM_SZ));

    HIP_CHECK(MemAdvise(Hmm, MEM_SZ/2, cudaMemAdviseSetPreferredLocation, 0));
    // The api called below should not fail
    HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int),
                                     cudaMemRangeAttributePreferredLocation,
                                     (Hmm), MEM_SZ));
    HIP_CHECK(cudaFree(Hmm));
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


/* The following scenarios tests that probing the attributes which are not set
   by MemAdvise() but being probed using cudaMemRangeGetAttribute() should
   not result in a crash*/

static void Unit_hipMemRangeGetAttribute_4() {
  RunSections([&] {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int *Hmm = NULL, PageSz = 4096, Ngpus, RND_NUM = 999;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));
    int *OutData = new int[Ngpus];
    for (int i = 0; i < Ngpus; ++i) {
      OutData[i] = RND_NUM;
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, 4*PageSz));
    SECTION("Set ReadMostly & probe other flags") {
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseSetReadMostly, 0));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4*Ngpus,
                                       cudaMemRangeAttributeAccessedBy,
                                       Hmm, 4*PageSz));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4,
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, 4*PageSz));
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseUnsetReadMostly, 0));
    }
    SECTION("Set AccessedBy & probe other flags") {
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseSetAccessedBy, 0));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4,
                                       cudaMemRangeAttributeReadMostly,
                                       Hmm, 4*PageSz));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4,
                                       cudaMemRangeAttributePreferredLocation,
                                       Hmm, 4*PageSz));
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseUnsetAccessedBy, 0));
    }
    SECTION("Set AccessedBy & probe other flags") {
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseSetPreferredLocation,
                            0));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4,
                                       cudaMemRangeAttributeReadMostly,
                                       Hmm, 4*PageSz));
      HIP_CHECK(cudaMemRangeGetAttribute(OutData, 4*Ngpus,
                                       cudaMemRangeAttributeAccessedBy,
                                       Hmm, 4*PageSz));
      HIP_CHECK(MemAdvise(Hmm, 4*PageSz, cudaMemAdviseUnsetPreferredLocation,
                            0));
    }
    HIP_CHECK(cudaFree(Hmm));
    delete[] OutData;
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
  });
}


/* The following scenario is a simple test which does the following:
   Allocate Hmm memory --> MemPrefetchAsync() to device 0 and then
   probe LastPrefetchLocation attribute using hipMemRangeGetAttribute*/

static void Unit_hipMemRangeGetAttribute_PrefetchAndGtAttr() {
  int managed = HmmAttrPrint();
  if (managed == 1) {
    int Ngpus = 0, *Hmm = NULL, RND_NUM = 999;
    size_t PageSz = 4096;
    HIP_CHECK(cudaGetDeviceCount(&Ngpus));

    std::vector<int> OutData;
    for (int i = 0; i < Ngpus; ++i) {
      OutData.push_back(RND_NUM);
    }
    HIP_CHECK(cudaMallocManaged(&Hmm, PageSz*4));
    cudaStream_t strm;
    HIP_CHECK(cudaStreamCreate(&strm));
    HIP_CHECK(MemPrefetchAsync(Hmm, PageSz*4, 0, strm));
    HIP_CHECK(cudaStreamSynchronize(strm));
    HIP_CHECK(cudaMemRangeGetAttribute(OutData.data(), sizeof(int),
                                     cudaMemRangeAttributeLastPrefetchLocation,
                                     Hmm, PageSz*4));
    HIP_CHECK(cudaStreamDestroy(strm));
    HIP_CHECK(cudaFree(Hmm));
    if (OutData[0] != 0) {
      WARN("Didnt receive expected value at line: " << __LINE__);
      REQUIRE(false);
    }
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}


} // namespace RangeGetAttributeOld

/* ============================================================================ hipMemRangeGetAttributes_old.cc */

namespace RangeGetAttributesOld {
#define MEM_SIZE 8192

static bool CheckError(cudaError_t err, int LineNo) {
  if (err == cudaSuccess) {
    WARN("Error expected but received cudaSuccess at line no.:"
           << LineNo);
    return false;
  } else {
    return true;
  }
}

static int HmmAttrPrint() {
  int managed = 0;
  WARN("The following are the attribute values related to HMM for"
         " device 0:\n");
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrDirectManagedMemAccessFromHost, 0));
  WARN("cudaDevAttrDirectManagedMemAccessFromHost: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrConcurrentManagedAccess, 0));
  WARN("cudaDevAttrConcurrentManagedAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
                                 cudaDevAttrPageableMemoryAccess, 0));
  WARN("cudaDevAttrPageableMemoryAccess: " << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed,
              cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0));
  WARN("cudaDevAttrPageableMemoryAccessUsesHostPageTables:"
         << managed);
  HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory,
                                  0));
  WARN("cudaDevAttrManagedMemory: " << managed);
  return managed;
}

/* Test Scenario: Testing basic working of cudaMemRangeGetAttributes()
   api with different flags */

static void Unit_hipMemRangeGetAttributes_TstFlgs() {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int NumDevs = 0;
    int *Outpt[4], *AcsdBy = nullptr;
    float *Hmm = nullptr;
    cudaStream_t strm;
    cudaMemRangeAttribute AttrArr[4] =
                                {cudaMemRangeAttributeReadMostly,
                                cudaMemRangeAttributePreferredLocation,
                                cudaMemRangeAttributeAccessedBy,
                                cudaMemRangeAttributeLastPrefetchLocation};
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    AcsdBy = new int(NumDevs);
    size_t dataSizes[4] = {sizeof(int), sizeof(int),
                        (NumDevs * sizeof(int)), sizeof(int)};
    Outpt[0] = new int;
    Outpt[1] = new int;
    Outpt[2] = new int[NumDevs];
    Outpt[3] = new int;
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE, cudaMemAttachGlobal));
    for (int i = 0; i < NumDevs; ++i) {
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetReadMostly, i));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                        dataSizes, AttrArr, 4, Hmm,
                                        MEM_SIZE));
      if (*(Outpt[0]) != 1) {
        WARN("Attempt to set cudaMemAdviseSetReadMostly flag failed!\n");
        IfTestPassed = false;
      }
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseUnsetReadMostly, i));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                    reinterpret_cast<size_t*>(dataSizes),
                                    AttrArr, 4, Hmm, MEM_SIZE));

      if (*(Outpt[0]) != 0) {
        WARN("Attempt to set cudaMemAdviseUnsetReadMostly flag failed!\n");
        IfTestPassed = false;
      }

      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE,
                            cudaMemAdviseSetPreferredLocation, i));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                    reinterpret_cast<size_t*>(dataSizes),
                                    AttrArr, 4, Hmm, MEM_SIZE));
      if (*(Outpt[1]) != i) {
        WARN("Attempt to set cudaMemAdviseSetPreferredLocation flag");
        WARN(" failed!\n");
        IfTestPassed = false;
      }
      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseSetAccessedBy, i));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                     reinterpret_cast<size_t*>(dataSizes),
                                     AttrArr, 4, Hmm, MEM_SIZE));
      if ((Outpt[2][0]) != i) {
        WARN("Attempt to set cudaMemAdviseSetAccessedBy flag");
        WARN(" failed!\n");
        IfTestPassed = false;
      }

      HIP_CHECK(MemAdvise(Hmm, MEM_SIZE, cudaMemAdviseUnsetAccessedBy, i));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                     reinterpret_cast<size_t*>(dataSizes),
                                     AttrArr, 4, Hmm, MEM_SIZE));
      if (!((Outpt[2][i]) < 0)) {
        WARN("Attempt to set cudaMemAdviseUnsetAccessedBy flag failed!\n");
        IfTestPassed = false;
      }
      HIP_CHECK(cudaStreamCreate(&strm));
      HIP_CHECK(MemPrefetchAsync(Hmm, MEM_SIZE, i, strm));
      HIP_CHECK(cudaStreamSynchronize(strm));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                     reinterpret_cast<size_t*>(dataSizes),
                                     AttrArr, 4, Hmm, MEM_SIZE));
      if (*(Outpt[3]) != i) {
        WARN("Attempt to prefetch memory to device: " << i);
        WARN("failed!\n");
        IfTestPassed = false;
      }
      // Prefetching back to Host
      HIP_CHECK(MemPrefetchAsync(Hmm, MEM_SIZE, -1, strm));
      HIP_CHECK(cudaStreamSynchronize(strm));
      HIP_CHECK(cudaMemRangeGetAttributes(reinterpret_cast<void**>(Outpt),
                                     reinterpret_cast<size_t*>(dataSizes),
                                     AttrArr, 4, Hmm, MEM_SIZE));
      if (*(Outpt[3]) != -1) {
        WARN("Attempt to prefetch memory to Host failed!\n");
        IfTestPassed = false;
      }
    }

    HIP_CHECK(cudaFree(Hmm));
    delete[] AcsdBy;
    for (int i = 0; i < 4; ++i) {
      delete Outpt[i];
    }
    REQUIRE(IfTestPassed);
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
}

/* Test Scenario: Negative testing with cudaMemRangeGetAttributes() api*/
static void Unit_hipMemRangeGetAttributes_NegativeTst() {
  RunSections([&] {
  int MangdMem = HmmAttrPrint();
  if (MangdMem == 1) {
    bool IfTestPassed = true;
    int NumDevs = 0, *Outpt[4];
    float *Hmm = nullptr;
    cudaMemRangeAttribute AttrArr[4] =
                                {cudaMemRangeAttributeReadMostly,
                                cudaMemRangeAttributePreferredLocation,
                                cudaMemRangeAttributeAccessedBy,
                                cudaMemRangeAttributeLastPrefetchLocation};
    HIP_CHECK(cudaGetDeviceCount(&NumDevs));
    size_t dataSizes[4] = {sizeof(int), sizeof(int),
                        (NumDevs * sizeof(int)), sizeof(int)};
    Outpt[0] = new int;
    Outpt[1] = new int;
    Outpt[2] = new int[NumDevs];
    Outpt[3] = new int;
    HIP_CHECK(cudaMallocManaged(&Hmm, MEM_SIZE, cudaMemAttachGlobal));
    HIP_CHECK(MemAdvise(Hmm , MEM_SIZE, cudaMemAdviseSetReadMostly, 0));
    // passing zero for num of attributes param(4th)
    SECTION("passing zero for num of attributes param(4th)") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 0, Hmm, MEM_SIZE), __LINE__)) {
        IfTestPassed = false;
      }
    }

    // the first dataSize element passed as 0
    dataSizes[0] = 0;
    dataSizes[1] = sizeof(int);
    dataSizes[2] = NumDevs * sizeof(int);
    dataSizes[3] = sizeof(int);
    SECTION("the first dataSize element passed as 0") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // passing datasize as 2 while the requirement is multiple of 4
    dataSizes[0] = 2;
    dataSizes[1] = sizeof(int);
    dataSizes[2] = NumDevs * sizeof(int);
    dataSizes[3] = sizeof(int);
    SECTION("datasize as 2 while the requirement is multiple of 4") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // passing datasize as 6 while the requirement is multiple of 4
    dataSizes[0] = 6;
    dataSizes[1] = sizeof(int);
    dataSizes[2] = NumDevs * sizeof(int);
    dataSizes[3] = sizeof(int);
    SECTION("datasize as 6 while the requirement is multiple of 4") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // passing datasize as 7 while the requirement is multiple of 4
    dataSizes[0] = 7;
    dataSizes[1] = sizeof(int);
    dataSizes[2] = NumDevs * sizeof(int);
    dataSizes[3] = sizeof(int);
    SECTION("datasize as 7 while the requirement is multiple of 4") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // passing dataSize as 7 for attribute cudaMemRangeAttributeAccessedBy
    cudaMemRangeAttribute AttrArr1[1] = {cudaMemRangeAttributeAccessedBy};
    dataSizes[2] = {7};
    SECTION("passing dataSize as 7 for attribute hipMemRangeAttrAccessedBy") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr1, 1, Hmm, MEM_SIZE), __LINE__)) {
        IfTestPassed = false;
      }
    }
    // Passing NULL as first parameter
    SECTION("Passing NULL as first parameter") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(NULL),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // Passing count parameter as zero
    SECTION("Passing count parameter as zero") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      AttrArr, 4, Hmm, 0),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // Passing NULL for Attribute array(3rd param)
    SECTION("Passing NULL for Attribute array(3rd param)") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      NULL, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    // Passing 0 for Attribute array(3rd param)
    SECTION("Passing 0 for Attribute array(3rd param)") {
      if (!CheckError(cudaMemRangeGetAttributes(
                                      reinterpret_cast<void**>(Outpt),
                                      reinterpret_cast<size_t*>(dataSizes),
                                      0, 4, Hmm, MEM_SIZE),
                                      __LINE__)) {
        IfTestPassed = false;
      }
    }
    for (int i = 0; i < 4; ++i) {
      delete Outpt[i];
    }
    REQUIRE(IfTestPassed);

    // The following scenarios have been removed considering the nature of the
    //  api. With Consultation with Maneesh Gupta, the following scenarios
    //   have been removed.
    // passing numAttributes as 4 while the attributes array has only 2 members
    // passing numAttributes as 10 while the attributes array has only 2 members
    // length of the list of dataSizes less than the number of
    // attributes being probed
  } else {
    SUCCEED("GPU 0 doesn't support cudaDevAttrManagedMemory "
           "attribute. Hence skipping the testing with Pass result.\n");
  }
  });
}


} // namespace RangeGetAttributesOld
#undef MEM_SIZE

/* ============================================================================ hipMemCoherencyTst.cc */

namespace Coherency {
__global__ void CoherentTst(int *ptr) { // ptr was set to 1
    atomicAdd_system(ptr, 1);           // now ptr is 2
    while (atomicCAS_system(ptr, 3, 4) != 3) {
        // wait till ptr is updated to 3 in host, then change it to 4
    }
}

__global__ void SquareKrnl(int *ptr) {
    // ptr value squared here
    *ptr = (*ptr) * (*ptr);
}

// The variable below will work as signal to decide pass/fail
static bool YES_COHERENT = false;

// The function tests the coherency of allocated memory
// If this test hangs, means there is issue in coherency
static void TstCoherency(int *ptr, bool hmmMem) {
    int *dptr = nullptr;
    cudaStream_t stream{};
    HIP_CHECK(cudaStreamCreate(&stream));

    // storing value 1 in the memory created above
    *ptr = 1;

    if (!hmmMem) {
        HIP_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&dptr), ptr, 0));
        CoherentTst<<<1, 1, 0, stream>>>(dptr);
    } else {
        CoherentTst<<<1, 1, 0, stream>>>(ptr);
    }
    // To prevent Windows batch dispatching issue, run inspecting code in thread
    std::thread my_thread([ptr] {
        int d = 0;
        std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
        while (std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count() <=
               3) {
            d = __sync_fetch_and_add(ptr, 0); // Retrieve *ptr
            if (d == 2) break;                // If kernel has updated *ptr to 2, exit
        } // wait till ptr is updated to 2 from kernel or 3 seconds
        if (d != 2) {
            // 3 seconds should be long enough for kernel to update ptr
            fprintf(stderr, "d = %d hasn't been updated to 2 in 3s\n", d);
            return;
        }
        // increment it to 3
        __sync_fetch_and_add(ptr, 1);
    });

    HIP_CHECK(cudaStreamSynchronize(stream));
    HIP_CHECK(cudaStreamDestroy(stream));
    my_thread.join();
    if (*ptr == 4) {
        YES_COHERENT = true;
    }
}

static void Unit_hipHostMalloc_CoherentTst() {
    int pcieAtomic = 0;
    HIP_CHECK(cudaDeviceGetAttribute(&pcieAtomic, cudaDevAttrHostNativeAtomicSupported, 0));
    if (!pcieAtomic) {
        fprintf(stderr, "Device doesn't support pcie atomic, Skipped\n");
        REQUIRE(true);
        return;
    }
    RunSections([&] {
        int *Ptr = nullptr, SIZE = sizeof(int);
        bool HmmMem = false;
        YES_COHERENT = false;

        // Allocating hipHostMalloc() memory with hipHostMallocCoherent flag (0 on NVIDIA)
        SECTION("hipHostMalloc with hipHostMallocCoherent flag") { HIP_CHECK(cudaHostAlloc(&Ptr, SIZE, 0x0)); }
        SECTION("hipHostMalloc with Default flag") { HIP_CHECK(cudaHostAlloc(&Ptr, SIZE, cudaHostAllocDefault)); }
        SECTION("hipHostMalloc with hipHostMallocMapped flag") {
            HIP_CHECK(cudaHostAlloc(&Ptr, SIZE, cudaHostAllocMapped));
        }

        TstCoherency(Ptr, HmmMem);
        HIP_CHECK(cudaFreeHost(Ptr));
        REQUIRE(YES_COHERENT);
    });
}

static void Unit_hipMallocManaged_CoherentTstWthAdvise() {
    RunSections([&] {
        int *Ptr = nullptr, SIZE = sizeof(int), managed = 0;
        YES_COHERENT = false;

        HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
        INFO("hipDeviceAttributeManagedMemory: " << managed);

        if (managed == 1) {
            // Allocating hipMallocManaged() memory
            SECTION("hipMallocManaged with hipMemAttachGlobal flag") {
                HIP_CHECK(cudaMallocManaged(&Ptr, SIZE, cudaMemAttachGlobal));
            }
            SECTION("hipMallocManaged with hipMemAttachHost flag") {
                HIP_CHECK(cudaMallocManaged(&Ptr, SIZE, cudaMemAttachHost));
            }
            /* the hipMemAdviseSetCoarseGrain advice is HT_AMD only */
            // Initializing Ptr memory with 9
            *Ptr = 9;
            cudaStream_t strm;
            HIP_CHECK(cudaStreamCreate(&strm));
            SquareKrnl<<<1, 1, 0, strm>>>(Ptr);
            HIP_CHECK(cudaStreamSynchronize(strm));
            if (*Ptr == 81) {
                YES_COHERENT = true;
            }
            HIP_CHECK(cudaFree(Ptr));
            HIP_CHECK(cudaStreamDestroy(strm));
            REQUIRE(YES_COHERENT);
        } else {
            SUCCEED("GPU 0 doesn't support hipDeviceAttributeManagedMemory attribute.");
        }
    });
}
} // namespace Coherency

int main() {
    HIP_TEST_CASE(Unit_hipMallocManaged_Basic);
    HIP_TEST_CASE(Unit_hipMallocManaged_Advanced);
    HIP_TEST_CASE(Unit_hipMallocManaged_Large);
    HIP_TEST_CASE(Unit_hipMemPrefetchAsync_Basic);
    HIP_TEST_CASE(Unit_hipMemPrefetchAsync_Sync_Behavior);
    HIP_TEST_CASE(Unit_hipMemPrefetchAsync_Rounding_Behavior);
    HIP_TEST_CASE(Unit_hipMemPrefetchAsync_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemAdvise_Set_Unset_Basic);
    HIP_TEST_CASE(Unit_hipMemAdvise_No_Flag_Interference);
    HIP_TEST_CASE(Unit_hipMemAdvise_Rounding);
    HIP_TEST_CASE(Unit_hipMemAdvise_Flags_Do_Not_Cause_Prefetch);
    HIP_TEST_CASE(Unit_hipMemAdvise_Read_Write_After_Advise);
    HIP_TEST_CASE(Unit_hipMemAdvise_Prefetch_After_Advise);
    HIP_TEST_CASE(Unit_hipMemAdvise_AccessedBy_All_Devices);
    HIP_TEST_CASE(Unit_hipMemAdvise_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_ReadMostly_Basic);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_ReadMostly_Partial_Range);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_Basic);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_CPU);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_PreferredLocation_Partial_Range);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_Basic);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_CPU);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_LastPrefetchLocation_Partial_Range);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_AccessedBy_Basic);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_AccessedBy_Partial_Range);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Positive_AccessedBy_MultiDevice);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttribute_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttributes_Positive_Basic);
    HIP_TEST_CASE(Unit_hipMemRangeGetAttributes_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Positive_Basic);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Positive_Pageable);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Positive_AttachGlobal);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Positive_AttachHost);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Positive_AttachSingle);
    HIP_TEST_CASE(Unit_hipStreamAttachMemAsync_Negative_Parameters);
    HIP_TEST_CASE(Unit_hipMallocManaged_FlgParam);
    HIP_TEST_CASE(Unit_hipMallocManaged_AccessMultiStream);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_HostDeviceConcurrent);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_MultiChunkSingleDevice);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_MultiChunkMultiDevice);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_OverSubscription);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_Negative);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_TwoPointers<int>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_TwoPointers<float>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_TwoPointers<double>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_DeviceContextChange<unsigned char>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_DeviceContextChange<int>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_DeviceContextChange<float>);
    HIP_TEST_CASE(MultiScenario::Unit_hipMallocManaged_DeviceContextChange<double>);
    HIP_TEST_CASE(PrefetchExt::Unit_hipMemPrefetchAsyncAdviseFlgTst);
    HIP_TEST_CASE(PrefetchExt::Unit_hipMemPrefetchAsyncAccsdByTst);
    HIP_TEST_CASE(PrefetchExt::Unit_hipMemPrefetchAsyncNegativeTst);
    HIP_TEST_CASE(PrefetchExt::Unit_hipMemPrefetchAsync_NonPageSz);
    HIP_TEST_CASE(StreamAttach::Unit_hipStreamAttachMemAsync_Negative);
    HIP_TEST_CASE(StreamAttach::Unit_hipStreamAttachMemAsync_UseCase);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstFlags);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_NegtveTsts);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_PrefrdLoc);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_ReadMostly);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstFlgOverrideEffect);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstAccessedByFlg);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstAccessedByFlg2);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstAccessedByFlg3);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstAccessedByFlg4);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstMemAdvisePrefrdLoc);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstMemAdviseLstPreftchLoc);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstMemAdviseMultiFlag);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_ReadMosltyMgpuTst);
    HIP_TEST_CASE(AdviseOld::Unit_hipMemAdvise_TstSetUnsetPrfrdLoc);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribute_TstCountParam);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribute_NegativeTests);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribute_AccessedBy1);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribte_3);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribute_4);
    HIP_TEST_CASE(RangeGetAttributeOld::Unit_hipMemRangeGetAttribute_PrefetchAndGtAttr);
    HIP_TEST_CASE(RangeGetAttributesOld::Unit_hipMemRangeGetAttributes_TstFlgs);
    HIP_TEST_CASE(RangeGetAttributesOld::Unit_hipMemRangeGetAttributes_NegativeTst);
    HIP_TEST_CASE(Coherency::Unit_hipHostMalloc_CoherentTst);
    HIP_TEST_CASE(Coherency::Unit_hipMallocManaged_CoherentTstWthAdvise);
    printf("hip-tests managed memory: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
