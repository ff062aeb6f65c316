/*
 * hip_tests_streams.cu — stream and event unit tests of ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to CUDA names (hipX → cudaX) as a .cu program that both
 * `streamsim cc` and NVIDIA's nvcc build. Every test case of these files that hip-tests builds for NVIDIA:
 *   catch/unit/stream/streamCommon.cc (the helpers), hipStreamCreate.cc, hipStreamCreateWithFlags.cc,
 *   hipStreamDestroy.cc, hipStreamGetFlags.cc, hipStreamGetPriority.cc, hipDeviceGetStreamPriorityRange.cc,
 *   hipStreamQuery.cc, hipStreamSynchronize.cc, hipStreamWaitEvent.cc, hipMultiStream.cc, hipAPIStreamDisable.cc,
 *   hipStreamGetDevice.cc (cudaStreamGetDevice, CUDA 12.8),
 *   hipStreamCreateWithPriority.cc (a stream
 *   per priority level, the null stream, 16 host threads queueing on shared streams, and the elapsed times of
 *   low, normal and high priority streams compared on the virtual clock);
 *   catch/unit/event/Unit_hipEvent.cc, Unit_hipEventElapsedTime.cc, Unit_hipEventRecord.cc,
 *   Unit_hipEvent_Negative.cc, hipEventCreate.cc, hipEventCreateWithFlags.cc, hipEventSynchronize.cc.
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Changes:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them; GENERATE → a loop around the passes). The nested sections of Unit_hipStreamGetPriority_happy
 *     ("Created Stream" holding five) are its five leaves, each with the outer section's stream destroy.
 *   - hip error names → the CUDA codes HIP's NVIDIA layer maps them from (hipErrorInvalidHandle and
 *     hipErrorInvalidResourceHandle → cudaErrorInvalidResourceHandle, 400). hipErrorContextIsDestroyed (709, what
 *     a destroyed stream gave on hip-tests' NVIDIA machines) in Unit_hipStreamDestroy_Negative_DoubleDestroy →
 *     cudaErrorInvalidResourceHandle: the Runtime API lists 400 for cudaStreamDestroy and not 709, a destroyed
 *     handle is undefined behaviour, and the simulator answers every destroyed handle with 400 (cuda-musa.md).
 *     HIP_ASSERT / assert → REQUIRE.
 *   - hipStreamCreateWithPriority.cc: MEMCPYSIZE1 1 MiB and MEMCPYSIZE2 256 Ki elements instead of 64 MiB and
 *     1 Mi (the kernels run on the CPU); its hipLaunchKernelGGL calls are written as <<<…>>> launches; HIPASSERT
 *     → REQUIRE, UNSCOPED_INFO → INFO.
 *   - hipMultiStream.cc: Unit_hipMultiStream_sameDevice frees (cudaFree) the memory a kernel it has just
 *     queued on a created stream writes. The Programming Guide says "Managing memory allocations using cudaMalloc
 *     and cudaFree causes the GPU to synchronize across all executing CUDA streams"; the Runtime API only that
 *     cudaFree "may perform implicit synchronization", which the simulator follows (stream-ordered-memory.md:
 *     a use-after-free report), and a kernel run on the CPU after the free faults on the freed memory (700). The
 *     port synchronizes the stream before the free (cudaStreamSynchronize(streams[i])). Unit_hipMultiStream_
 *     multimeDevice loops 5000 times instead of 50000. hipAPIStreamDisable.cc's test case is as upstream.
 *   - hipStreamGetDevice.cc: Unit_hipStreamGetDevice_Usecase's "Null Stream" and "Stream Per Thread" sections
 *     create a context with the driver API (CTX_CREATE, cuCtxCreate on NVIDIA), which is not simulated: left out;
 *     hipDeviceGet(&d, i) (cuDeviceGet) is the ordinal i. Unit_hipStreamGetDevice_NullStream is HT_AMD only.
 *   - hipEventReleaseToDevice and hipEventReleaseToSystem are 0 in HIP's NVIDIA header: Unit_hipEventCreate_
 *     IncompatibleFlags' allFlags is written with 0 for them.
 *   - Unit_hipEvent: 64 Ki elements instead of 10 Mi (its kernel runs on the CPU); it prints whether the stream is
 *     the NULL stream instead of the handle's address (which changes run to run).
 *   - Unit_hipEventRecord: HipTest::get_time is read as upstream but only reaches INFO; TestContext::get()
 *     .cleanContext() (the harness's bookkeeping, no runtime call) is left out.
 *   - hipStreamWaitEvent.cc is built only for AMD by hip-tests' CMake (stream/CMakeLists.txt), but nothing in
 *     its test cases is AMD's but Unit_hipStreamWaitEvent_UninitializedStream_Negative (#if !HT_NVIDIA): the
 *     others run here, with CUDA's rules.
 *   - Left out as upstream leaves them out on NVIDIA: the test cases under #if HT_AMD ("frequency based wait is
 *     timing out on nvidia platforms": Unit_hipStreamCreateWithFlags_DefaultStreamInteraction,
 *     Unit_hipStreamDestroy_WithPendingWork, Unit_hipStreamQuery_SubmitWorkOnStreamAndQueryNullStream,
 *     _NullStreamQuery, _WithPendingWork, Unit_hipStreamSynchronize_FinishWork, _NullStreamSynchronization,
 *     _SynchronizeStreamAndQueryNullStream, _NullStreamAndStreamPerThread, Unit_hipEventElapsedTime_NotReady_
 *     Negative, Unit_hipEventDestroy_Unfinished, _WithWaitingStream, _Negative; the CU-mask ones; the
 *     memory-coherency ones of hipEventCreateWithFlags.cc) and under #if !HT_NVIDIA (the uninitialized and
 *     destroyed stream queries); the NVIDIA-excluded null-event checks of Unit_hipEventElapsedTime_NullCheck.
 *     Unit_hipEventQuery.cc is built only for AMD and is not ported.
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
#include <math.h>
#include <string.h>

#include <array>
#include <atomic>
#include <iostream>
#include <limits>
#include <thread>
#include <vector>

#include "hip_tests_cu.h"

/* ============================================================================ stream/streamCommon.cc */

namespace hip {
inline namespace internal {
bool checkStreamPriority_(cudaStream_t stream, bool checkPriority = false, int priority_ = 0) {
    int priority{0};
    HIP_CHECK(cudaStreamGetPriority(stream, &priority));
    if (checkPriority) {
        if (priority_ != priority) {
            INFO("Priority Mismatch, Expected Priority: " << priority_ << " Actual Priority: " << priority);
            return false;
        }
    } else {
        int priority_low{0}, priority_high{0};
        HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
        if (priority_low < priority || priority_high > priority) {
            INFO("Priority Mismatch");
            return false;
        }
    }
    return true;
}

bool checkStreamFlags_(cudaStream_t stream, bool checkFlags = false, unsigned flags_ = 0) {
    unsigned flags{0};
    HIP_CHECK(cudaStreamGetFlags(stream, &flags));
    if (checkFlags) {
        if (flags_ != flags) {
            INFO("Flags Mismatch, Expected Flag: " << flags_ << " Actual Flag: " << flags);
            return false;
        }
    } else {
        if (flags != cudaStreamDefault && flags != cudaStreamNonBlocking) {
            INFO("Flags Mismatch");
            return false;
        }
    }
    return true;
}
} // namespace internal

inline namespace stream {
/* Empty kernel to ensure work finishes on the stream quickly */
__global__ void empty_kernel() {}

// Checks stream for valid flags and a particular value of priority
bool checkStreamPriorityAndFlags(cudaStream_t stream, int priority, unsigned int flags = cudaStreamDefault) {
    { // Check flags
        auto res = checkStreamFlags_(stream, true, flags);
        if (!res) return false;
    }
    { // Check priority
        auto res = checkStreamPriority_(stream, true, priority);
        if (!res) return false;
    }
    return true;
}

bool checkStream(cudaStream_t stream) {
    { // Check default flags
        auto res = checkStreamFlags_(stream, true, cudaStreamDefault);
        if (!res) return false;
    }
    { // Check default Priority
        auto res = checkStreamPriority_(stream);
        if (!res) return false;
    }
    return true;
}
} // namespace stream
} // namespace hip

/* ============================================================================ stream/hipStreamCreate.cc */

static void Unit_hipStreamCreate_default() {
    for (int id = 0; id < HipTest::getDeviceCount(); id++) {
        HIP_CHECK(cudaSetDevice(id));
        cudaStream_t stream{nullptr};
        HIP_CHECK(cudaStreamCreate(&stream));
        REQUIRE(stream != nullptr);        // Check if stream has a valid ptr
        REQUIRE(hip::checkStream(stream)); // check its flags and priority
        HIP_CHECK(cudaStreamDestroy(stream));
    }
}

static void Unit_hipStreamCreate_Negative() { REQUIRE(cudaErrorInvalidValue == cudaStreamCreate(nullptr)); }

/* ============================================================================ stream/hipStreamCreateWithFlags.cc */

static void Unit_hipStreamCreateWithFlags_Negative_NullStream() {
    HIP_CHECK_ERROR(cudaStreamCreateWithFlags(nullptr, cudaStreamDefault), cudaErrorInvalidValue);
}

static void Unit_hipStreamCreateWithFlags_Negative_InvalidFlag() {
    cudaStream_t stream{};
    unsigned int flag = 0xFF;
    REQUIRE(flag != cudaStreamDefault);
    REQUIRE(flag != cudaStreamNonBlocking);
    HIP_CHECK_ERROR(cudaStreamCreateWithFlags(&stream, flag), cudaErrorInvalidValue);
}

static void Unit_hipStreamCreateWithFlags_Default() {
    for (const unsigned int flagUnderTest : {cudaStreamDefault, cudaStreamNonBlocking}) {
        cudaStream_t stream{};
        HIP_CHECK(cudaStreamCreateWithFlags(&stream, flagUnderTest));
        unsigned int flag{};
        HIP_CHECK(cudaStreamGetFlags(stream, &flag));
        REQUIRE(flag == flagUnderTest);
        int priority{};
        HIP_CHECK(cudaStreamGetPriority(stream, &priority));
        // zero is considered default priority
        REQUIRE(priority == 0);
        HIP_CHECK(cudaStreamDestroy(stream));
    }
}

/* ============================================================================ stream/hipStreamDestroy.cc */

static void Unit_hipStreamDestroy_Default() {
    cudaStream_t stream{};
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamDestroy(stream));
}

static void Unit_hipStreamDestroy_Negative_DoubleDestroy() {
    cudaStream_t stream{};
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamDestroy(stream));
    /* STREAMSIM: hipErrorContextIsDestroyed → cudaErrorInvalidResourceHandle (see the header). */
    HIP_CHECK_ERROR(cudaStreamDestroy(stream), cudaErrorInvalidResourceHandle);
}

static void Unit_hipStreamDestroy_Negative_NullStream() {
    HIP_CHECK_ERROR(cudaStreamDestroy(nullptr), cudaErrorInvalidResourceHandle);
}

template <size_t numDataPoints> void checkDataSet(int *deviceData) {
    HIP_CHECK(cudaStreamSynchronize(nullptr));
    std::array<int, numDataPoints> hostData{};
    HIP_CHECK(cudaMemcpy(hostData.data(), deviceData, sizeof(int) * numDataPoints, cudaMemcpyDeviceToHost));
    REQUIRE(std::all_of(std::begin(hostData), std::end(hostData), [](int x) { return x == 1; }));
}

__global__ void setToOne(int *x, size_t size) {
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        x[idx] = 1;
    }
}

static void Unit_hipStreamDestroy_WithFinishedWork() {
    cudaStream_t stream{};
    HIP_CHECK(cudaStreamCreate(&stream));
    constexpr int numDataPoints = 10;
    int *deviceData{};
    HIP_CHECK(cudaMalloc(&deviceData, sizeof(int) * numDataPoints));
    HIP_CHECK(cudaMemset(deviceData, 0, sizeof(int) * numDataPoints));
    setToOne<<<1, numDataPoints, 0, stream>>>(deviceData, numDataPoints);
    checkDataSet<numDataPoints>(deviceData);
    HIP_CHECK(cudaStreamDestroy(stream));
    HIP_CHECK(cudaFree(deviceData));
}

/* ============================================================================ stream/hipStreamGetFlags.cc */

static void Unit_hipStreamGetFlags_Basic() {
    for (const unsigned int expectedFlag : {cudaStreamDefault, cudaStreamNonBlocking}) {
        unsigned int returnedFlags;
        cudaStream_t stream;
        HIP_CHECK(cudaStreamCreateWithFlags(&stream, expectedFlag));
        HIP_CHECK(cudaStreamGetFlags(stream, &returnedFlags));
        REQUIRE((returnedFlags & expectedFlag) == expectedFlag);
        HIP_CHECK(cudaStreamDestroy(stream));
    }
}

static void Unit_hipStreamGetFlags_Negative() {
    RunSections([&] {
        cudaStream_t validStream;
        unsigned int flags;
        HIP_CHECK(cudaStreamCreate(&validStream));
        SECTION("Nullptr Stream && Valid Flags") { /* EXSWCPHIPT-17; the HT_NVIDIA branch */
            HIP_CHECK(cudaStreamGetFlags(nullptr, &flags));
        }
        SECTION("Valid Stream && Nullptr Flags") {
            HIP_CHECK_ERROR(cudaStreamGetFlags(validStream, nullptr), cudaErrorInvalidValue);
        }
        HIP_CHECK(cudaStreamDestroy(validStream));
    });
}

/* ============================================================================ stream/hipStreamGetPriority.cc */

static void Unit_hipStreamGetPriority_happy() {
    for (int devID = 0; devID < HipTest::getDeviceCount(); devID++) {
        RunSections([&] {
            int priority_low = 0;
            int priority_high = 0;
            HIP_CHECK(cudaSetDevice(devID));
            HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
            cudaStream_t stream{};
            int priority = 0;
            SECTION("Null Stream") {
                HIP_CHECK(cudaStreamGetPriority(nullptr, &priority));
                // valid priority
                REQUIRE(priority_low >= priority);
                REQUIRE(priority >= priority_high);
            }
            /* SECTION("Created Stream") holds the five below: each pass enters one of them. */
            SECTION("Created Stream / Default Priority") {
                HIP_CHECK(cudaStreamCreate(&stream));
                HIP_CHECK(cudaStreamGetPriority(stream, &priority));
                // Lower the value higher the priority, higher the value lower the priority
                REQUIRE(priority_low >= priority);
                REQUIRE(priority >= priority_high);
                HIP_CHECK(cudaStreamDestroy(stream));
            }
            SECTION("Created Stream / High Priority") {
                HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault, priority_high));
                HIP_CHECK(cudaStreamGetPriority(stream, &priority));
                REQUIRE(priority == priority_high);
                HIP_CHECK(cudaStreamDestroy(stream));
            }
            SECTION("Created Stream / Higher Priority") {
                HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority_high - 1));
                HIP_CHECK(cudaStreamGetPriority(stream, &priority));
                REQUIRE(priority == priority_high);
                HIP_CHECK(cudaStreamDestroy(stream));
            }
            SECTION("Created Stream / Low Priority") {
                HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault, priority_low));
                HIP_CHECK(cudaStreamGetPriority(stream, &priority));
                REQUIRE(priority_low == priority);
                HIP_CHECK(cudaStreamDestroy(stream));
            }
            SECTION("Created Stream / Lower Priority") {
                HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority_low + 1));
                HIP_CHECK(cudaStreamGetPriority(stream, &priority));
                REQUIRE(priority_low == priority);
                HIP_CHECK(cudaStreamDestroy(stream));
            }
        });
    }
}

static void Unit_hipStreamGetPriority_nullptr_nullptr() {
    auto res = cudaStreamGetPriority(nullptr, nullptr);
    REQUIRE(res == cudaErrorInvalidValue);
}

static void Unit_hipStreamGetPriority_stream_nullptr() {
    cudaStream_t stream = nullptr;
    HIP_CHECK(cudaStreamCreate(&stream));
    auto res = cudaStreamGetPriority(stream, nullptr);
    REQUIRE(res == cudaErrorInvalidValue);
    HIP_CHECK(cudaStreamDestroy(stream));
}

static void Unit_hipStreamGetPriority_nullptr_priority() {
    int priority = -1;
    HIP_CHECK(cudaStreamGetPriority(nullptr, &priority));
}

static void Unit_hipStreamGetPriority_stream_priority() {
    int priority = -1;
    cudaStream_t stream = nullptr;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamGetPriority(stream, &priority));
    HIP_CHECK(cudaStreamDestroy(stream));
}

/* ============================================================================ stream/hipDeviceGetStreamPriorityRange.cc */

static void Unit_hipDeviceGetStreamPriorityRange_Default() {
    for (int devID = 0; devID < HipTest::getDeviceCount(); devID++) {
        int priority_low = 0;
        int priority_high = 0;
        HIP_CHECK(cudaSetDevice(devID));
        HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
        REQUIRE(priority_low >= priority_high);
    }
}

/* ============================================================================ stream/hipStreamQuery.cc */

static void Unit_hipStreamQuery_WithNoWork() {
    RunSections([&] {
        cudaStream_t stream{nullptr};
        SECTION("Null Stream") { HIP_CHECK(cudaStreamQuery(stream)); }
        SECTION("Created Stream") {
            HIP_CHECK(cudaStreamCreate(&stream));
            HIP_CHECK(cudaStreamQuery(stream));
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    });
}

static void Unit_hipStreamQuery_WithFinishedWork() {
    RunSections([&] {
        cudaStream_t stream{nullptr};
        SECTION("Null Stream") {
            hip::stream::empty_kernel<<<dim3(1), dim3(1), 0, stream>>>();
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaStreamQuery(stream));
        }
        SECTION("Created Stream") {
            HIP_CHECK(cudaStreamCreate(&stream));
            hip::stream::empty_kernel<<<dim3(1), dim3(1), 0, stream>>>();
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaStreamQuery(stream));
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    });
}

/* ============================================================================ stream/hipStreamSynchronize.cc */

static void Unit_hipStreamSynchronize_EmptyStream() {
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamSynchronize(stream));
    HIP_CHECK(cudaStreamDestroy(stream));
}

/* ============================================================================ stream/hipStreamWaitEvent.cc */

static void Unit_hipStreamWaitEvent_Negative() {
    enum class StreamTestType { NullStream = 0, StreamPerThread, CreatedStream };
    for (const auto streamType :
         {StreamTestType::NullStream, StreamTestType::StreamPerThread, StreamTestType::CreatedStream}) {
        RunSections([&] {
            cudaStream_t stream{nullptr};
            cudaEvent_t event{nullptr};
            if (streamType == StreamTestType::StreamPerThread) {
                stream = cudaStreamPerThread;
            } else if (streamType == StreamTestType::CreatedStream) {
                HIP_CHECK(cudaStreamCreate(&stream));
            }
            HIP_CHECK(cudaEventCreate(&event));
            REQUIRE((stream != nullptr) != (streamType == StreamTestType::NullStream));
            REQUIRE(event != nullptr);
            SECTION("Invalid Event") {
                INFO("Running against Invalid Event");
                HIP_CHECK_ERROR(cudaStreamWaitEvent(stream, nullptr, 0), cudaErrorInvalidResourceHandle);
            }
            SECTION("Invalid Flags") {
                INFO("Running against Invalid Flags");
                constexpr unsigned flag = ~0u;
                REQUIRE(flag != 0);
                HIP_CHECK_ERROR(cudaStreamWaitEvent(stream, event, flag), cudaErrorInvalidValue);
            }
            HIP_CHECK(cudaEventDestroy(event));
            if (streamType == StreamTestType::CreatedStream) {
                HIP_CHECK(cudaStreamDestroy(stream));
            }
        });
    }
}

static void Unit_hipStreamWaitEvent_Default() {
    cudaStream_t stream{nullptr};
    cudaEvent_t waitEvent{nullptr};
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaEventCreate(&waitEvent));
    REQUIRE(stream != nullptr);
    REQUIRE(waitEvent != nullptr);
    LaunchDelayKernel(std::chrono::milliseconds(2000), stream);
    HIP_CHECK(cudaEventRecord(waitEvent, stream));
    HIP_CHECK_ERROR(cudaEventQuery(waitEvent), cudaErrorNotReady);
    HIP_CHECK(cudaStreamWaitEvent(stream, waitEvent, 0));
    HIP_CHECK(cudaStreamSynchronize(stream));
    HIP_CHECK(cudaStreamDestroy(stream));
    HIP_CHECK(cudaEventDestroy(waitEvent));
}

static void Unit_hipStreamWaitEvent_DifferentStreams() {
    cudaStream_t blockedStreamA{nullptr}, streamBlockedOnStreamA{nullptr}, unblockingStream{nullptr};
    cudaEvent_t waitEvent{nullptr};
    HIP_CHECK(cudaStreamCreate(&blockedStreamA));
    HIP_CHECK(cudaStreamCreate(&streamBlockedOnStreamA));
    HIP_CHECK(cudaStreamCreate(&unblockingStream));
    HIP_CHECK(cudaEventCreate(&waitEvent));
    REQUIRE(blockedStreamA != nullptr);
    REQUIRE(streamBlockedOnStreamA != nullptr);
    REQUIRE(waitEvent != nullptr);
    LaunchDelayKernel(std::chrono::milliseconds(3000), blockedStreamA);
    HIP_CHECK(cudaEventRecord(waitEvent, blockedStreamA));
    HIP_CHECK_ERROR(cudaEventQuery(waitEvent), cudaErrorNotReady);
    HIP_CHECK(cudaStreamWaitEvent(streamBlockedOnStreamA, waitEvent, 0));
    LaunchDelayKernel(std::chrono::milliseconds(2000), streamBlockedOnStreamA);
    HIP_CHECK(cudaStreamSynchronize(unblockingStream));
    HIP_CHECK(cudaStreamSynchronize(blockedStreamA));
    HIP_CHECK_ERROR(cudaStreamQuery(streamBlockedOnStreamA), cudaErrorNotReady);
    HIP_CHECK(cudaStreamSynchronize(streamBlockedOnStreamA));
    HIP_CHECK(cudaStreamQuery(blockedStreamA));
    HIP_CHECK(cudaStreamQuery(streamBlockedOnStreamA));
    HIP_CHECK(cudaStreamDestroy(blockedStreamA));
    HIP_CHECK(cudaStreamDestroy(streamBlockedOnStreamA));
    HIP_CHECK(cudaStreamDestroy(unblockingStream));
    HIP_CHECK(cudaEventDestroy(waitEvent));
}

/* ============================================================================ event/Unit_hipEvent.cc */

namespace HipTest {
template <typename T> __global__ void addCountReverse(const T *A_d, T *C_d, int64_t NELEM, int count) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    // Deliberately do this in an inefficient way to increase kernel runtime
    for (int i = 0; i < count; i++) {
        for (int64_t i = NELEM - stride + offset; i >= 0; i -= stride) {
            C_d[i] = A_d[i] + (T)count;
        }
    }
}
} // namespace HipTest

int tests = -1;

enum SyncMode {
    syncNone,
    syncStream,
    syncStopEvent,
};

const char *syncModeString(int syncMode) {
    switch (syncMode) {
    case syncNone:
        return "syncNone";
    case syncStream:
        return "syncStream";
    case syncStopEvent:
        return "syncStopEvent";
    default:
        return "unknown";
    };
};

void test(unsigned testMask, int *C_d, int *C_h, int64_t numElements, cudaStream_t stream, int waitStart,
          SyncMode syncMode) {
    if (!(testMask & tests)) {
        return;
    }
    /* STREAMSIM: the stream is printed as whether it is the NULL stream (its address differs run to run). */
    std::cout << "\ntest " << std::showbase << std::hex << testMask << ": stream=" << (stream ? "created" : "0")
              << " waitStart=" << waitStart << " syncMode=" << syncModeString(syncMode) << std::endl;

    size_t sizeBytes = numElements * sizeof(int);

    int count = 100;
    int init0 = 0;
    HIP_CHECK(cudaMemset(C_d, init0, sizeBytes));
    for (int i = 0; i < numElements; i++) {
        C_h[i] = -1; // initialize
    }

    cudaEvent_t neverCreated = 0, neverRecorded, timingDisabled;
    HIP_CHECK(cudaEventCreate(&neverRecorded));
    HIP_CHECK(cudaEventCreateWithFlags(&timingDisabled, cudaEventDisableTiming));

    cudaEvent_t start, stop;
    HIP_CHECK(cudaEventCreate(&start));
    HIP_CHECK(cudaEventCreate(&stop));

    unsigned blocksPerCU = 6;
    unsigned threadsPerBlock = 256;
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, numElements);

    HIP_CHECK(cudaEventRecord(timingDisabled, stream));

    // sandwhich a kernel:
    HIP_CHECK(cudaEventRecord(start, stream));
    HipTest::addCountReverse<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(static_cast<const int *>(C_d), C_h,
                                                                                numElements, count);
    HIP_CHECK(cudaGetLastError());
    HIP_CHECK(cudaEventRecord(stop, stream));

    if (waitStart) {
        HIP_CHECK(cudaEventSynchronize(start));
    }

    cudaError_t expectedStopError = cudaSuccess;

    // How to wait for the events to finish:
    switch (syncMode) {
    case syncNone:
        expectedStopError = cudaErrorNotReady;
        break;
    case syncStream:
        HIP_CHECK(cudaStreamSynchronize(stream)); // wait for recording to finish...
        break;
    case syncStopEvent:
        HIP_CHECK(cudaEventSynchronize(stop));
        break;
    default:
        REQUIRE(false);
    };

    float t;

    cudaError_t e = cudaEventElapsedTime(&t, start, start);
    if ((e != cudaSuccess) && (e != cudaErrorNotReady || syncMode != syncNone)) {
        printf("start event not in expected state, was %d=%s\n", e, cudaGetErrorName(e));
        REQUIRE(false);
    }

    // stop usually ready unless we skipped the synchronization (syncNone)
    if (e == cudaSuccess) REQUIRE(t == 0.0f);
    e = cudaEventElapsedTime(&t, stop, stop);
    REQUIRE(e == expectedStopError);
    if (e == cudaSuccess) REQUIRE(t == 0.0f);

    e = cudaEventElapsedTime(&t, start, stop);
    REQUIRE(e == expectedStopError);
    if (expectedStopError == cudaSuccess) REQUIRE(t > 0.0f);
    printf("time=%6.2f error=%s\n", t, cudaGetErrorName(e));

    e = cudaEventElapsedTime(&t, stop, start);
    REQUIRE(e == expectedStopError);
    if (expectedStopError == cudaSuccess) REQUIRE(t < 0.0f);
    printf("negtime=%6.2f error=%s\n", t, cudaGetErrorName(e));

    {
        // Check some error conditions for incomplete events:
        REQUIRE(cudaEventElapsedTime(&t, timingDisabled, stop) == cudaErrorInvalidResourceHandle);
        REQUIRE(cudaEventElapsedTime(&t, start, timingDisabled) == cudaErrorInvalidResourceHandle);
        REQUIRE(cudaEventElapsedTime(&t, neverCreated, stop) == cudaErrorInvalidResourceHandle);
        REQUIRE(cudaEventElapsedTime(&t, start, neverCreated) == cudaErrorInvalidResourceHandle);
        REQUIRE(cudaEventElapsedTime(&t, neverRecorded, stop) == cudaErrorInvalidResourceHandle);
        REQUIRE(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    }

    HIP_CHECK(cudaEventDestroy(neverRecorded));
    HIP_CHECK(cudaEventDestroy(timingDisabled));

    HIP_CHECK(cudaEventDestroy(start));
    HIP_CHECK(cudaEventDestroy(stop));

    HIP_CHECK(cudaDeviceSynchronize());

    printf("test:   OK  \n");
}

void runTests(int64_t numElements) {
    size_t sizeBytes = numElements * sizeof(int);

    printf("test: starting sequence with sizeBytes=%zu bytes, %6.2f MB\n", sizeBytes, sizeBytes / 1024.0 / 1024.0);

    int *C_h, *C_d;
    HIP_CHECK(cudaMalloc(&C_d, sizeBytes));
    HIP_CHECK(cudaMallocHost(&C_h, sizeBytes));

    {
        cudaStream_t stream;
        HIP_CHECK(cudaStreamCreateWithFlags(&stream, 0x0));

        for (int waitStart = 1; waitStart >= 0; waitStart--) {
            unsigned W = waitStart ? 0x1000 : 0;
            test(W | 0x01, C_d, C_h, numElements, 0, 0, syncNone);
            test(W | 0x02, C_d, C_h, numElements, stream, 0, syncNone);
            test(W | 0x04, C_d, C_h, numElements, 0, waitStart, syncStream);
            test(W | 0x08, C_d, C_h, numElements, stream, waitStart, syncStream);
            test(W | 0x10, C_d, C_h, numElements, 0, waitStart, syncStopEvent);
            test(W | 0x20, C_d, C_h, numElements, stream, waitStart, syncStopEvent);
        }

        HIP_CHECK(cudaStreamDestroy(stream));
    }

    HIP_CHECK(cudaFree(C_d));
    HIP_CHECK(cudaFreeHost(C_h));
}

static void Unit_hipEvent() {
    /* STREAMSIM: 64 Ki elements instead of 10 Mi (the kernel runs on the CPU). */
    runTests(64 * 1024);
    std::cout << std::dec;
}

/* ============================================================================ event/Unit_hipEventElapsedTime.cc */

static void Unit_hipEventElapsedTime_NullCheck() {
    cudaEvent_t start, end;
    HIP_CHECK(cudaEventCreate(&start));
    HIP_CHECK(cudaEventCreate(&end));
    REQUIRE(cudaEventElapsedTime(nullptr, start, end) == cudaErrorInvalidValue);
    /* The two null-event checks are not built for NVIDIA (#ifndef __HIP_PLATFORM_NVIDIA__). */
    HIP_CHECK(cudaEventDestroy(start));
    HIP_CHECK(cudaEventDestroy(end));
}

static void Unit_hipEventElapsedTime_DisableTiming() {
    float timeElapsed = 1.0f;
    cudaEvent_t start, stop;
    HIP_CHECK(cudaEventCreateWithFlags(&start, cudaEventDisableTiming));
    HIP_CHECK(cudaEventCreateWithFlags(&stop, cudaEventDisableTiming));
    REQUIRE(cudaEventElapsedTime(&timeElapsed, start, stop) == cudaErrorInvalidResourceHandle);
    HIP_CHECK(cudaEventDestroy(start));
    HIP_CHECK(cudaEventDestroy(stop));
}

static void Unit_hipEventElapsedTime_DifferentDevices() {
    int devCount = 0;
    HIP_CHECK(cudaGetDeviceCount(&devCount));
    if (devCount > 1) {
        // create event on dev=0
        HIP_CHECK(cudaSetDevice(0));
        cudaEvent_t start;
        HIP_CHECK(cudaEventCreate(&start));
        HIP_CHECK(cudaEventRecord(start, nullptr));
        HIP_CHECK(cudaEventSynchronize(start));

        // create event on dev=1
        HIP_CHECK(cudaSetDevice(1));
        cudaEvent_t stop;
        HIP_CHECK(cudaEventCreate(&stop));
        HIP_CHECK(cudaEventRecord(stop, nullptr));
        HIP_CHECK(cudaEventSynchronize(stop));

        float tElapsed = 1.0f;
        // start on device 0 but stop on device 1
        REQUIRE(cudaEventElapsedTime(&tElapsed, start, stop) == cudaErrorInvalidResourceHandle);

        HIP_CHECK(cudaEventDestroy(start));
        HIP_CHECK(cudaEventDestroy(stop));
    }
}

static void Unit_hipEventElapsedTime() {
    cudaEvent_t start;
    HIP_CHECK(cudaEventCreate(&start));

    cudaEvent_t stop;
    HIP_CHECK(cudaEventCreate(&stop));

    HIP_CHECK(cudaEventRecord(start, nullptr));
    HIP_CHECK(cudaEventSynchronize(start));

    HIP_CHECK(cudaEventRecord(stop, nullptr));
    HIP_CHECK(cudaEventSynchronize(stop));

    float tElapsed = 1.0f;
    HIP_CHECK(cudaEventElapsedTime(&tElapsed, start, stop));

    HIP_CHECK(cudaEventDestroy(start));
    HIP_CHECK(cudaEventDestroy(stop));
}

/* ============================================================================ event/Unit_hipEventRecord.cc */

namespace HipTest {
static inline long long get_time() {
    return std::chrono::high_resolution_clock::now().time_since_epoch() / std::chrono::microseconds(1);
}

static inline double elapsed_time(long long startTimeUs, long long stopTimeUs) {
    return ((double)(stopTimeUs - startTimeUs)) / ((double)(1000));
}
} // namespace HipTest

static void Unit_hipEventRecord() {
    constexpr size_t N = 1024;
    constexpr int iterations = 1;
    constexpr int blocks = 1024;
    constexpr size_t Nbytes = N * sizeof(float);
    enum TestType {
        WithFlags_Default = cudaEventDefault,
        WithFlags_Blocking = cudaEventBlockingSync,
        WithFlags_DisableTiming = cudaEventDisableTiming,
        WithoutFlags
    };
    for (const auto flags : {WithFlags_Default, WithFlags_Blocking, WithFlags_DisableTiming, WithoutFlags}) {
        float *A_h, *B_h, *C_h;
        float *A_d, *B_d, *C_d;
        HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);

        cudaEvent_t start{}, stop{};
        if (flags == WithoutFlags) {
            HIP_CHECK(cudaEventCreate(&start));
            HIP_CHECK(cudaEventCreate(&stop));
        } else {
            HIP_CHECK(cudaEventCreateWithFlags(&start, flags));
            HIP_CHECK(cudaEventCreateWithFlags(&stop, flags));
        }

        HIP_CHECK(cudaMemcpy(A_d, A_h, Nbytes, cudaMemcpyHostToDevice));
        HIP_CHECK(cudaMemcpy(B_d, B_h, Nbytes, cudaMemcpyHostToDevice));
        // Launching kernel to avoid lazy loading time
        HipTest::launchKernel<float>(HipTest::vectorADD<float>, blocks, 1, 0, 0, static_cast<const float *>(A_d),
                                     static_cast<const float *>(B_d), C_d, N);
        HIP_CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < iterations; i++) {
            long long hostStart = HipTest::get_time();
            HIP_CHECK(cudaEventRecord(start, NULL));
            HipTest::launchKernel<float>(HipTest::vectorADD<float>, blocks, 1, 0, 0,
                                         static_cast<const float *>(A_d), static_cast<const float *>(B_d), C_d,
                                         N);
            HIP_CHECK(cudaGetLastError());
            HIP_CHECK(cudaEventRecord(stop, NULL));
            HIP_CHECK(cudaEventSynchronize(stop));
            long long hostStop = HipTest::get_time();
            float hostMs = HipTest::elapsed_time(hostStart, hostStop);
            INFO("host_time (chrono)                = " << hostMs);
            (void)hostMs;
            if (flags != WithFlags_DisableTiming) {
                float eventMs = 1.0f;
                HIP_CHECK(cudaEventElapsedTime(&eventMs, start, stop));
                INFO("kernel_time (hipEventElapsedTime) = " << eventMs);
                REQUIRE(eventMs > 0.0f);
            }
        }
        HIP_CHECK(cudaMemcpy(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost));
        HIP_CHECK(cudaEventDestroy(start));
        HIP_CHECK(cudaEventDestroy(stop));
        HipTest::checkVectorADD(A_h, B_h, C_h, N, true);
        HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
        /* TestContext::get().cleanContext(): hip-tests' harness resets its own bookkeeping; no runtime call. */
    }
}

static void Unit_hipEventRecord_Negative() {
    RunSections([&] {
        SECTION("Nullptr event") {
            HIP_CHECK_ERROR(cudaEventRecord(nullptr, nullptr), cudaErrorInvalidResourceHandle);
        }
        SECTION("Different devices") {
            int devCount = 0;
            HIP_CHECK(cudaGetDeviceCount(&devCount));
            if (devCount > 1) {
                // create event on dev=0
                HIP_CHECK(cudaSetDevice(0));
                cudaEvent_t start;
                HIP_CHECK(cudaEventCreate(&start));
                // start on device 0 but null stream on device 1
                HIP_CHECK(cudaSetDevice(1));
                HIP_CHECK_ERROR(cudaEventRecord(start, nullptr), cudaErrorInvalidResourceHandle);
                HIP_CHECK(cudaEventDestroy(start));
            }
        }
    });
}

/* ============================================================================ event/Unit_hipEvent_Negative.cc */

static void Unit_hipEventCreate_NullCheck() {
    auto res = cudaEventCreate(nullptr);
    REQUIRE(res != cudaSuccess);
}

static void Unit_hipEventCreateWithFlags_NullCheck() {
    auto res = cudaEventCreateWithFlags(nullptr, 0);
    REQUIRE(res != cudaSuccess);
}

static void Unit_hipEventCreate_IncompatibleFlags() {
    cudaEvent_t event;
    HIP_CHECK_ERROR(cudaEventCreateWithFlags(&event, cudaEventInterprocess), cudaErrorInvalidValue);
    /* hipEventReleaseToDevice and hipEventReleaseToSystem are 0 on NVIDIA (HIP's NVIDIA header). */
    unsigned allFlags{0u | 0u | cudaEventBlockingSync | cudaEventDisableTiming | cudaEventDefault |
                      cudaEventInterprocess};
    /* Works on Non-AMD because hipEventReleaseToDevice / hipEventReleaseToSystem have no meaning in
     * that case */
    HIP_CHECK(cudaEventCreateWithFlags(&event, allFlags));
    unsigned invalidFlag{0x08000000};
    HIP_CHECK_ERROR(cudaEventCreateWithFlags(&event, invalidFlag), cudaErrorInvalidValue);
}

static void Unit_hipEventSynchronize_NullCheck() {
    auto res = cudaEventSynchronize(nullptr);
    REQUIRE(res != cudaSuccess);
}

static void Unit_hipEventQuery_NullCheck() {
    auto res = cudaEventQuery(nullptr);
    REQUIRE(res != cudaSuccess);
}

static void Unit_hipEventDestroy_NullCheck() {
    auto res = cudaEventDestroy(nullptr);
    REQUIRE(res != cudaSuccess);
}

/* ============================================================================ event/hipEventCreate.cc */

static void Unit_hipEventCreate_Positive() {
    for (int id = 0; id < HipTest::getDeviceCount(); id++) {
        HIP_CHECK(cudaSetDevice(id));
        cudaEvent_t event;
        HIP_CHECK(cudaEventCreate(&event));
        REQUIRE(event != nullptr);
        HIP_CHECK(cudaEventDestroy(event));
    }
}

/* ============================================================================ event/hipEventCreateWithFlags.cc */

static void Unit_hipEventCreateWithFlags_Positive() {
    for (const unsigned int flagUnderTest : {cudaEventDefault, cudaEventBlockingSync, cudaEventDisableTiming,
                                             cudaEventInterprocess | cudaEventDisableTiming}) {
        cudaEvent_t event;
        HIP_CHECK(cudaEventCreateWithFlags(&event, flagUnderTest));
        REQUIRE(event != nullptr);
        HIP_CHECK(cudaEventDestroy(event));
    }
}

/* ============================================================================ event/hipEventSynchronize.cc */

void testSynchronize(cudaStream_t stream) {
    constexpr size_t N = 1024;
    constexpr int blocks = 1024;
    constexpr size_t Nbytes = N * sizeof(float);
    float *A_h, *B_h, *C_h;
    float *A_d, *B_d, *C_d;
    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    cudaEvent_t end_event;
    HIP_CHECK(cudaEventCreate(&end_event));
    HIP_CHECK(cudaMemcpy(A_d, A_h, Nbytes, cudaMemcpyHostToDevice));
    HIP_CHECK(cudaMemcpy(B_d, B_h, Nbytes, cudaMemcpyHostToDevice));
    HipTest::launchKernel<float>(HipTest::vectorADD<float>, blocks, 1, 0, stream, static_cast<const float *>(A_d),
                                 static_cast<const float *>(B_d), C_d, N);
    if (stream != nullptr) {
        HIP_CHECK(cudaStreamSynchronize(stream));
    }
    HIP_CHECK(cudaEventRecord(end_event, nullptr));
    HIP_CHECK(cudaEventSynchronize(end_event));
    HIP_CHECK(cudaMemcpy(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaEventDestroy(end_event));
    HipTest::checkVectorADD(A_h, B_h, C_h, N, true);
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

static void Unit_hipEventSynchronize_Default_Positive() {
    RunSections([&] {
        cudaStream_t stream{nullptr};
        SECTION("Kernel launched in null stream") { testSynchronize(stream); }
        SECTION("Kernel launched in created stream") {
            HIP_CHECK(cudaStreamCreate(&stream));
            testSynchronize(stream);
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    });
}

static void Unit_hipEventSynchronize_NoEventRecord_Positive() {
    constexpr size_t N = 1024;
    constexpr int blocks = 1024;
    constexpr size_t Nbytes = N * sizeof(float);
    float *A_h, *B_h, *C_h;
    float *A_d, *B_d, *C_d;
    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    cudaEvent_t dummy_event;
    HIP_CHECK(cudaEventCreate(&dummy_event));
    cudaEvent_t end_event;
    HIP_CHECK(cudaEventCreate(&end_event));
    HIP_CHECK(cudaMemcpy(A_d, A_h, Nbytes, cudaMemcpyHostToDevice));
    HIP_CHECK(cudaMemcpy(B_d, B_h, Nbytes, cudaMemcpyHostToDevice));
    HipTest::launchKernel<float>(HipTest::vectorADD<float>, blocks, 1, 0, 0, static_cast<const float *>(A_d),
                                 static_cast<const float *>(B_d), C_d, N);
    HIP_CHECK(cudaEventRecord(end_event, NULL));
    HIP_CHECK(cudaEventSynchronize(dummy_event));
    HIP_CHECK(cudaEventSynchronize(end_event));
    HIP_CHECK(cudaMemcpy(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaEventDestroy(dummy_event));
    HIP_CHECK(cudaEventDestroy(end_event));
    HipTest::checkVectorADD(A_h, B_h, C_h, N, true);
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

/* ============================================================================ stream/hipStreamCreateWithPriority.cc */


/**
 * @addtogroup hipStreamCreateWithPriority hipStreamCreateWithPriority
 * @{
 * @ingroup StreamTest
 * `hipStreamCreateWithPriority (cudaStream_t *stream, unsigned int flags, int priority)` -
 * begins graph capture on a stream
 */


/* STREAMSIM: 1 MiB and 256 Ki elements instead of 64 MiB and 1 Mi (the kernels run on the CPU). */
#define MEMCPYSIZE1 (1024*1024)
#define MEMCPYSIZE2 (256*1024)
#define NUMITERS   2
#define GRIDSIZE   1024
#define BLOCKSIZE  256
#define TOTALTHREADS 16

namespace hipStreamCreateWithPriorityTest {

std::atomic<int> g_thTestPassed(1);
// helper rountine to initialize memory
template <typename T>
void mem_init(T* buf, size_t n) {
  for (size_t i = 0; i < n; i++) {
    buf[i] = i;
  }
}

// kernel to copy n elements from src to dst
template <typename T>
__global__ void memcpy_kernel(T* dst, T* src, size_t n) {
  int num = gridDim.x * blockDim.x;
  int id = blockDim.x * blockIdx.x + threadIdx.x;

  for (size_t i = id; i < n; i += num) {
    dst[i] = src[i];
  }
}

/**
 * Scenario: Create a stream for all available priority levels
 * and queue tasks in each of these streams and default stream.
 * Validate the calculated results.
 */
void funcTestsForAllPriorityLevelsWrtNullStrm(unsigned int flags,
                                        bool deviceSynchronize) {
  int priority;
  int priority_low{};
  int priority_high{};
  size_t size = MEMCPYSIZE2 * sizeof(int);
  // Test is to get the Stream Priority Range
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));

  // Check if priorities are indeed supported
  if (priority_low == priority_high) {
    WARN("Stream priority range not supported. Skipping test.");
    return;
  }

  int numOfPriorities = priority_low - priority_high;
  INFO("numOfPriorities = " << numOfPriorities);
  const int arr_size = numOfPriorities + 1;
  // 0 idx is for default stream
  cudaStream_t *stream = reinterpret_cast<cudaStream_t*>(
                       malloc(arr_size*sizeof(cudaStream_t)));
  REQUIRE(stream != nullptr);
  stream[0] = 0;
  int count = 1;
  // Create a stream for each of the priority levels
  for (priority = priority_high; priority < priority_low; priority++) {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream[count++],
            flags, priority));
  }
  // Allocate memory
  int **A_d = reinterpret_cast<int**>(malloc(arr_size*sizeof(int*)));
  int **C_d = reinterpret_cast<int**>(malloc(arr_size*sizeof(int*)));
  int **A_h = reinterpret_cast<int**>(malloc(arr_size*sizeof(int*)));
  int **C_h = reinterpret_cast<int**>(malloc(arr_size*sizeof(int*)));

  REQUIRE(A_d != nullptr);
  REQUIRE(C_d != nullptr);
  REQUIRE(A_h != nullptr);
  REQUIRE(C_h != nullptr);

  for (int idx = 0; idx < arr_size; idx++) {
    A_h[idx] = reinterpret_cast<int*>(malloc(size));
    REQUIRE(A_h[idx] != nullptr);
    C_h[idx] = reinterpret_cast<int*>(malloc(size));
    REQUIRE(C_h[idx] != nullptr);
    HIP_CHECK(cudaMalloc(&A_d[idx], size));
    HIP_CHECK(cudaMalloc(&C_d[idx], size));
  }

  // Initialize host memory
  constexpr int initVal = 2;
  for (int idx = 0; idx < arr_size; idx++) {
    for (int idy = 0; idy < MEMCPYSIZE2; idy++) {
      A_h[idx][idy] = initVal;
    }
  }

  // Launch task on each stream
  for (int idx = 0; idx < arr_size; idx++) {
    HIP_CHECK(cudaMemcpyAsync(A_d[idx], A_h[idx], size,
            cudaMemcpyHostToDevice, stream[idx]));
    HipTest::vector_square<<<dim3(GRIDSIZE), dim3(BLOCKSIZE), 0, stream[idx]>>>(A_d[idx], C_d[idx], MEMCPYSIZE2);
    HIP_CHECK(cudaGetLastError());
    HIP_CHECK(cudaMemcpyAsync(C_h[idx], C_d[idx], size,
            cudaMemcpyDeviceToHost, stream[idx]));
  }

  if (deviceSynchronize) {
    HIP_CHECK(cudaDeviceSynchronize());
  }

  // Validate the output of each queue
  for (int idx = 0; idx < arr_size; idx++) {
    if (!deviceSynchronize) {
      HIP_CHECK(cudaStreamSynchronize(stream[idx]));
    }
    for (int idy = 0; idy < MEMCPYSIZE2; idy++) {
      if (C_h[idx][idy] != A_h[idx][idy] * A_h[idx][idy]) {
        INFO("Data mismatch at idx:" << idx << " idy:" << idy);
        REQUIRE(false);
      }
    }
  }

  // Deallocate memory
  for (int idx = 0; idx < arr_size; idx++) {
    HIP_CHECK(cudaFree(reinterpret_cast<void*>(C_d[idx])));
    HIP_CHECK(cudaFree(reinterpret_cast<void*>(A_d[idx])));
    free(C_h[idx]);
    free(A_h[idx]);
  }

  // Destroy the stream for each of the priority levels
  count = 1;
  for (priority = priority_high; priority < priority_low; priority++) {
    HIP_CHECK(cudaStreamDestroy(stream[count++]));
  }
  free(stream);
  free(A_d);
  free(C_d);
  free(A_h);
  free(C_h);
}

/**
 * Scenario: Queue tasks in each of these streams and default stream.
 * Validate the calculated results.
 */
void queueTasksInStreams(std::vector<cudaStream_t> *stream,
                         const int arrsize) {
  size_t size = MEMCPYSIZE2 * sizeof(int);
  // Allocate memory
  int **A_d = reinterpret_cast<int**>(malloc(arrsize*sizeof(int *)));
  int **C_d = reinterpret_cast<int**>(malloc(arrsize*sizeof(int *)));
  int **A_h = reinterpret_cast<int**>(malloc(arrsize*sizeof(int *)));
  int **C_h = reinterpret_cast<int**>(malloc(arrsize*sizeof(int *)));

  REQUIRE(A_d != nullptr);
  REQUIRE(C_d != nullptr);
  REQUIRE(A_h != nullptr);
  REQUIRE(C_h != nullptr);

  for (int idx = 0; idx < arrsize; idx++) {
    A_h[idx] = reinterpret_cast<int*>(malloc(size));
    REQUIRE(A_h[idx] != nullptr);
    C_h[idx] = reinterpret_cast<int*>(malloc(size));
    REQUIRE(C_h[idx] != nullptr);
    HIP_CHECK(cudaMalloc(&A_d[idx], size));
    HIP_CHECK(cudaMalloc(&C_d[idx], size));
  }
  // Initialize host memory
  constexpr int initVal = 2;
  for (int idx = 0; idx < arrsize; idx++) {
    for (int idy = 0; idy < MEMCPYSIZE2; idy++) {
      A_h[idx][idy] = initVal;
    }
  }
  // Launch task on each stream
  for (int idx = 0; idx < arrsize; idx++) {
    HIP_CHECK(cudaMemcpyAsync(A_d[idx], A_h[idx], size,
             cudaMemcpyHostToDevice, (*stream)[idx]));
    HipTest::vector_square<<<dim3(GRIDSIZE), dim3(BLOCKSIZE), 0, (*stream)[idx]>>>(A_d[idx], C_d[idx], MEMCPYSIZE2);
    HIP_CHECK(cudaGetLastError());
    HIP_CHECK(cudaMemcpyAsync(C_h[idx], C_d[idx], size,
             cudaMemcpyDeviceToHost, (*stream)[idx]));
  }

  bool isPassed = true;
  // Validate the output of each queue
  for (int idx = 0; idx < arrsize; idx++) {
    HIP_CHECK(cudaStreamSynchronize((*stream)[idx]));
    for (int idy = 0; idy < MEMCPYSIZE2; idy++) {
      if (C_h[idx][idy] != A_h[idx][idy] * A_h[idx][idy]) {
        INFO("Data mismatch at idx:" << idx << " idy:" << idy);
        isPassed = false;
        break;
      }
    }
    if (false == isPassed) break;
  }
  // Deallocate memory
  for (int idx = 0; idx < arrsize; idx++) {
    HIP_CHECK(cudaFree(reinterpret_cast<void*>(C_d[idx])));
    HIP_CHECK(cudaFree(reinterpret_cast<void*>(A_d[idx])));
    free(C_h[idx]);
    free(A_h[idx]);
  }
  free(A_d);
  free(C_d);
  free(A_h);
  free(C_h);
  g_thTestPassed &= static_cast<int>(isPassed);
}

/**
 * Scenario:
 * Common streams used across multiple threads:Create a stream for each
 * priority level (flag = cudaStreamDefault/cudaStreamNonBlocking)
 * and 1 default stream.
 * Launch memcpy and kernel tasks on these streams from multiple threads
 * (use 16 threads). Validate all the results.
*/
bool runFuncTestsForAllPriorityLevelsMultThread(unsigned int flags) {
  bool TestPassed = true;
  std::thread T[TOTALTHREADS];
  int priority;
  int priority_low;
  int priority_high;
  std::vector<cudaStream_t> stream_set{};
  cudaStream_t stream{};
  // Test is to get the Stream Priority Range
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));

  // Check if priorities are indeed supported
  if (priority_low == priority_high) {
    WARN("Stream priority range not supported. Skipping test.");
    return true;
  }

  int numOfPriorities = priority_low - priority_high + 1;
  INFO("numOfPriorities : " << numOfPriorities);

  // Create a stream for each of the priority levels
  for (priority = priority_high; priority <= priority_low; priority++) {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, flags,
                                         priority));
    stream_set.push_back(stream);
  }

  for (int i = 0; i < TOTALTHREADS; i++) {
    T[i] = std::thread(queueTasksInStreams,
                       &stream_set, numOfPriorities);
  }

  for (int i=0; i < TOTALTHREADS; i++) {
    T[i].join();
  }
  if (g_thTestPassed) {
    TestPassed = true;
  } else {
    TestPassed = false;
  }

  // Destroy the stream for each of the priority levels
  size_t set_size = stream_set.size();
  for (int i = 0; i < set_size; i++) {
    HIP_CHECK(cudaStreamDestroy(stream_set[i]));
  }
  return TestPassed;
}


template <typename T>
bool validateStreamPrioritiesWithEvents() {
  size_t size = NUMITERS * MEMCPYSIZE1;

  // get the range of priorities available
  #define OP(x) \
     int priority_##x; \
     bool enable_priority_##x = false;
  OP(low)
  OP(normal)
  OP(high)
  #undef OP
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));

  INFO("HIP stream priority range - low: " << priority_low << ",high: "
                                         << priority_high << ",normal: "
                                         << (priority_low + priority_high)/2);
  // Check if priorities are indeed supported
  if (priority_low == priority_high) {
    WARN("Stream priority range not supported. Skipping test.");
    return true;
  }

  // Enable/disable priorities based on number of available priority levels
  enable_priority_low = true;
  enable_priority_high = true;
  if ((priority_low - priority_high) > 1) {
    enable_priority_normal = true;
  }
  if (enable_priority_normal) {
    priority_normal = ((priority_low + priority_high) / 2);
  }
  // create streams with highest and lowest available priorities
  #define OP(x)\
    cudaStream_t stream_##x;\
    if (enable_priority_##x) {\
      HIP_CHECK(cudaStreamCreateWithPriority(&stream_##x, \
              cudaStreamDefault, priority_##x));\
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // allocate and initialise host source and destination buffers
  #define OP(x) \
    T* src_h_##x; \
    T* dst_h_##x; \
    if (enable_priority_##x) { \
      src_h_##x = reinterpret_cast<T*>(malloc(size)); \
      REQUIRE(src_h_##x != nullptr); \
      mem_init<T>(src_h_##x, (size / sizeof(T))); \
      dst_h_##x = reinterpret_cast<T*>(malloc(size)); \
      REQUIRE(dst_h_##x != nullptr); \
      memset(dst_h_##x, 0, size); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // allocate and initialize device source and destination buffers
  #define OP(x) \
    T* src_d_##x; \
    T* dst_d_##x; \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaMalloc(&src_d_##x, size)); \
      HIP_CHECK( \
        cudaMemcpy(src_d_##x, src_h_##x, size, cudaMemcpyHostToDevice)); \
      HIP_CHECK(cudaMalloc(&dst_d_##x, size)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // create events for measuring time spent in kernel execution
  #define OP(x) \
    cudaEvent_t event_start_##x; \
    cudaEvent_t event_end_##x; \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaEventCreate(&event_start_##x)); \
      HIP_CHECK(cudaEventCreate(&event_end_##x)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // record start events for each of the priority streams
  #define OP(x) \
    if (enable_priority_##x) { \
      HIP_CHECK(\
      cudaEventRecord(event_start_##x, stream_##x)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // launch kernels repeatedly on each of the prioritiy streams
  for (int i = 0; i < static_cast<int>(size); i += MEMCPYSIZE1) {
    int j = i / sizeof(T);
    #define OP(x) \
      if (enable_priority_##x) { \
        memcpy_kernel<T><<<dim3(GRIDSIZE), \
        dim3(BLOCKSIZE), 0, stream_##x>>>(dst_d_##x + j, src_d_##x + j, \
        (MEMCPYSIZE1 / sizeof(T))); \
        HIP_CHECK(cudaGetLastError()); \
      }
    OP(low)
    OP(normal)
    OP(high)
    #undef OP
  }

  // record end events for each of the priority streams
  #define OP(x) \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaEventRecord(event_end_##x, stream_##x)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // synchronize events for each of the priority streams
  #define OP(x) \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaEventSynchronize(event_end_##x)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // compute time spent for memcpy in each stream
  #define OP(x) \
    float time_spent_##x; \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaEventElapsedTime(&time_spent_##x, \
              event_start_##x, event_end_##x)); \
      INFO("time spent for memcpy in " << #x << \
      " priority stream: " << time_spent_##x << " ms"); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // sanity check
  #define OP(x) \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaMemcpy(dst_h_##x, dst_d_##x, size, \
                         cudaMemcpyDeviceToHost)); \
      if (memcmp(dst_h_##x, src_h_##x, size) != 0) { \
        REQUIRE(false); \
      } \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // destroy stream
  #define OP(x) \
    if (enable_priority_##x) { \
      HIP_CHECK(cudaStreamDestroy(stream_##x)); \
    }
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  // validate that stream priorities are working as expected
  #define OP(x, y) \
      if (enable_priority_##x && enable_priority_##y) { \
          if ((1.05f * time_spent_##x) < time_spent_##y) { \
            INFO("time_spent_##x : " << time_spent_##x << \
            "time_spent_##y : " << time_spent_##y); \
            REQUIRE(false); \
          } \
      }
  OP(low, normal)
  OP(normal, high)
  OP(low, high)
  #undef OP

  // free host & device memory
  #define OP(x) \
    free(src_h_##x); \
    free(dst_h_##x); \
    HIP_CHECK(cudaFree(src_d_##x)); \
    HIP_CHECK(cudaFree(dst_d_##x));
  OP(low)
  OP(normal)
  OP(high)
  #undef OP

  return true;
}

#define LOW_PRIORITY_STREAMCOUNT 2
#define HIGH_PRIORITY_STREAMCOUNT 2
#define NORMAL_PRIORITY_STREAMCOUNT 2
template <typename T>
void TestForMultipleStreamWithPriority(void) {
  size_t size = NUMITERS * MEMCPYSIZE1;
  // get the range of priorities available
  #define OP(x) \
      int priority_##x; \
      bool enable_priority_##x = false;
  OP(low)
  OP(normal)
  OP(high)
  #undef OP
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
  INFO("HIP stream priority range - low: " << priority_low << ",high: "
                                         << priority_high << ",normal: "
                                         << (priority_low + priority_high)/2);

  // Check if priorities are indeed supported
  // Enable/disable priorities based on number of available priority levels
  enable_priority_low = true;
  enable_priority_high = true;
  if ((priority_low - priority_high) > 1) {
    enable_priority_normal = true;
  }
  if (enable_priority_normal) {
    priority_normal = ((priority_low + priority_high) / 2);
  }
  // create streams with low priority
  cudaStream_t stream_low[LOW_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaStreamCreateWithPriority(&stream_low[i],
               cudaStreamDefault, priority_low));
    }
  }
  // create streams with normal priority
  cudaStream_t stream_normal[NORMAL_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaStreamCreateWithPriority(&stream_normal[i],
               cudaStreamDefault, priority_normal));
    }
  }
  // create streams with high priority
  cudaStream_t stream_high[HIGH_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaStreamCreateWithPriority(&stream_high[i],
               cudaStreamDefault, priority_high));
    }
  }
  // allocate and initialise host source and destination buffers for
  // low streams
  T* src_h_low[LOW_PRIORITY_STREAMCOUNT];
  T* dst_h_low[LOW_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      src_h_low[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(src_h_low[i] != nullptr);
      mem_init<T>(src_h_low[i], (size / sizeof(T)));
      dst_h_low[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(dst_h_low[i] != nullptr);
      memset(dst_h_low[i], 0, size);
    }
  }
  // allocate and initialise host source and destination buffers for
  // normal streams
  T* src_h_normal[NORMAL_PRIORITY_STREAMCOUNT];
  T* dst_h_normal[NORMAL_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      src_h_normal[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(src_h_normal[i] != nullptr);
      mem_init<T>(src_h_normal[i], (size / sizeof(T)));
      dst_h_normal[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(dst_h_normal[i] != nullptr);
      memset(dst_h_normal[i], 0, size);
    }
  }
  // allocate and initialise host source and destination buffers for
  // high streams
  T* src_h_high[HIGH_PRIORITY_STREAMCOUNT];
  T* dst_h_high[HIGH_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      src_h_high[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(src_h_high[i] != nullptr);
      mem_init<T>(src_h_high[i], (size / sizeof(T)));
      dst_h_high[i] = reinterpret_cast<T*>(malloc(size));
      REQUIRE(dst_h_high[i] != nullptr);
      memset(dst_h_high[i], 0, size);
    }
  }
  // allocate and initialize device source and destination buffers for
  // low streams
  T* src_d_low[LOW_PRIORITY_STREAMCOUNT];
  T* dst_d_low[LOW_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaMalloc(&src_d_low[i], size));
      HIP_CHECK(cudaMemcpy(src_d_low[i], src_h_low[i], size,
                cudaMemcpyHostToDevice));
      HIP_CHECK(cudaMalloc(&dst_d_low[i], size));
    }
  }
  // allocate and initialize device source and destination buffers for
  // normal streams
  T* src_d_normal[NORMAL_PRIORITY_STREAMCOUNT];
  T* dst_d_normal[NORMAL_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaMalloc(&src_d_normal[i], size));
      HIP_CHECK(cudaMemcpy(src_d_normal[i], src_h_normal[i], size,
                cudaMemcpyHostToDevice));
      HIP_CHECK(cudaMalloc(&dst_d_normal[i], size));
    }
  }
  // allocate and initialize device source and destination buffers for
  // high streams
  T* src_d_high[HIGH_PRIORITY_STREAMCOUNT];
  T* dst_d_high[HIGH_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaMalloc(&src_d_high[i], size));
      HIP_CHECK(cudaMemcpy(src_d_high[i], src_h_high[i], size,
                cudaMemcpyHostToDevice));
      HIP_CHECK(cudaMalloc(&dst_d_high[i], size));
    }
  }

  cudaEvent_t event_start_low[LOW_PRIORITY_STREAMCOUNT];
  cudaEvent_t event_end_low[LOW_PRIORITY_STREAMCOUNT];
  // create events for measuring time spent in kernel execution for low
  // priority streams
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaEventCreate(&event_start_low[i]));
      HIP_CHECK(cudaEventCreate(&event_end_low[i]));
    }
  }

  cudaEvent_t event_start_normal[NORMAL_PRIORITY_STREAMCOUNT];
  cudaEvent_t event_end_normal[NORMAL_PRIORITY_STREAMCOUNT];
  // create events for measuring time spent in kernel execution for
  // normal priority streams
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaEventCreate(&event_start_normal[i]));
      HIP_CHECK(cudaEventCreate(&event_end_normal[i]));
    }
  }

  cudaEvent_t event_start_high[HIGH_PRIORITY_STREAMCOUNT];
  cudaEvent_t event_end_high[HIGH_PRIORITY_STREAMCOUNT];
  // create events for measuring time spent in kernel execution for
  // high priority streams
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaEventCreate(&event_start_high[i]));
      HIP_CHECK(cudaEventCreate(&event_end_high[i]));
    }
  }
  // record start events for each of the low priority streams
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaEventRecord(event_start_low[i], stream_low[i]));
    }
  }
  // record start events for each of the normal priority streams
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaEventRecord(event_start_normal[i], stream_normal[i]));
    }
  }
  // record start events for each of the high priority streams
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaEventRecord(event_start_high[i], stream_high[i]));
    }
  }
  // launch kernels repeatedly on each of the low prioritiy stream
  for (int k = 0; k < LOW_PRIORITY_STREAMCOUNT; ++k) {
    for (size_t i = 0; i < size; i += MEMCPYSIZE1) {
      size_t j = i / sizeof(T);
      if (enable_priority_low) {
        memcpy_kernel<T><<<dim3(GRIDSIZE), dim3(BLOCKSIZE), 0, stream_low[k]>>>(dst_d_low[k] + j, src_d_low[k] + j, (MEMCPYSIZE1 / sizeof(T)));
      }
    }
  }
  // launch kernels repeatedly on each of the normal prioritiy stream
  for (int k = 0; k < NORMAL_PRIORITY_STREAMCOUNT; ++k) {
    for (size_t i = 0; i < size; i += MEMCPYSIZE1) {
      size_t j = i / sizeof(T);
      if (enable_priority_normal) {
        memcpy_kernel<T><<<dim3(GRIDSIZE), dim3(BLOCKSIZE), 0, stream_normal[k]>>>(dst_d_normal[k] + j, src_d_normal[k] + j, (MEMCPYSIZE1 / sizeof(T)));
      }
    }
  }
  // launch kernels repeatedly on each of the high prioritiy stream
  for (int k = 0; k < HIGH_PRIORITY_STREAMCOUNT; ++k) {
    for (size_t i = 0; i < size; i += MEMCPYSIZE1) {
      size_t j = i / sizeof(T);
      if (enable_priority_high) {
        memcpy_kernel<T><<<dim3(GRIDSIZE), dim3(BLOCKSIZE), 0, stream_high[k]>>>(dst_d_high[k] + j, src_d_high[k] + j, (MEMCPYSIZE1 / sizeof(T)));
      }
    }
  }
  // record end events for each of the low priority streams
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaEventRecord(event_end_low[i], stream_low[i]));
    }
  }
  // record end events for each of the normal priority streams
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaEventRecord(event_end_normal[i], stream_normal[i]));
    }
  }
  // record end events for each of the high priority streams
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaEventRecord(event_end_high[i], stream_high[i]));
    }
  }
  // synchronize events for each of the low priority streams
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaEventSynchronize(event_end_low[i]));
    }
  }
  // synchronize events for each of the normal priority streams
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaEventSynchronize(event_end_normal[i]));
    }
  }
  // synchronize events for each of the high priority streams
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaEventSynchronize(event_end_high[i]));
    }
  }
  // compute time spent for memcpy in each low stream
  float time_spent_low[LOW_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaEventElapsedTime(&time_spent_low[i], event_start_low[i],
                event_end_low[i]));
    }
  }
  // compute time spent for memcpy in each normal stream
  float time_spent_normal[NORMAL_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaEventElapsedTime(&time_spent_normal[i],
                event_start_normal[i], event_end_normal[i]));
    }
  }
  // compute time spent for memcpy in each high stream
  float time_spent_high[HIGH_PRIORITY_STREAMCOUNT];
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaEventElapsedTime(&time_spent_high[i], event_start_high[i],
                event_end_high[i]));
    }
  }
  // sanity check for low priority streams
  for (int i = 0; i < LOW_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_low) {
      HIP_CHECK(cudaMemcpy(dst_h_low[i], dst_d_low[i], size,
                cudaMemcpyDeviceToHost));
      REQUIRE(memcmp(dst_h_low[i], src_h_low[i], size) == 0);
    }
  }
  // sanity check for normal priority streams
  for (int i = 0; i < NORMAL_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_normal) {
      HIP_CHECK(cudaMemcpy(dst_h_normal[i], dst_d_normal[i], size,
                cudaMemcpyDeviceToHost));
      REQUIRE(memcmp(dst_h_normal[i], src_h_normal[i], size) == 0);
    }
  }
  // sanity check for high priority streams
  for (int i = 0; i < HIGH_PRIORITY_STREAMCOUNT; ++i) {
    if (enable_priority_high) {
      HIP_CHECK(cudaMemcpy(dst_h_high[i], dst_d_high[i], size,
                cudaMemcpyDeviceToHost));
      REQUIRE(memcmp(dst_h_high[i], src_h_high[i], size) == 0);
    }
  }
}
}  // namespace hipStreamCreateWithPriorityTest

/**
 * Test Description
 * ------------------------
 *    - Create streams with default flag for all available priority levels and
 * queue tasks in each of these streams, perform device synchronize and validate
 * behavior.
 *    - Create streams with non-blocking flag for all available priority levels
 * and queue tasks in each of these streams, perform stream synchronize and
 * validate behavior.
 *    - Create streams with default flag for all available priority levels and
 * queue tasks in each of these streams, perform stream synchronize and validate
 * behavior.
 *    - Create streams with non-blocking flag for all available priority levels
 * and queue tasks in each of these streams, perform device synchronize and validate
 * behavior.
 * Test source
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_FunctionalForAllPriorities() {
  RunSections([&] {
  SECTION("Default flag and device synchronize") {
    hipStreamCreateWithPriorityTest::
    funcTestsForAllPriorityLevelsWrtNullStrm(cudaStreamDefault, true);
  }

  SECTION("Stream non-blocking flag and stream synchronize") {
    hipStreamCreateWithPriorityTest::
    funcTestsForAllPriorityLevelsWrtNullStrm(cudaStreamNonBlocking, false);
  }

  SECTION("Default flag and stream synchronize") {
    hipStreamCreateWithPriorityTest::
    funcTestsForAllPriorityLevelsWrtNullStrm(cudaStreamDefault, false);
  }

  SECTION("Stream non-blocking flag and device synchronize") {
    hipStreamCreateWithPriorityTest::
    funcTestsForAllPriorityLevelsWrtNullStrm(cudaStreamNonBlocking, true);
  }
  });
}

/**
 * Test Description
 * ------------------------
 *    - Create a stream for each priority level with default flag, Launch
 * memcpy and kernel tasks on these streams from multiple threads. Validate
 * all the results.
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_MulthreadDefaultflag() {
  bool TestPassed = true;
  TestPassed = hipStreamCreateWithPriorityTest::
  runFuncTestsForAllPriorityLevelsMultThread(cudaStreamDefault);
  REQUIRE(TestPassed);
}

/**
 * Test Description
 * ------------------------
 *    - Create a stream for each priority level with non-blocking flag, Launch
 * memcpy and kernel tasks on these streams from multiple threads. Validate all
 * the results.
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_MulthreadNonblockingflag() {
  bool TestPassed = true;
  TestPassed = hipStreamCreateWithPriorityTest::
  runFuncTestsForAllPriorityLevelsMultThread(cudaStreamNonBlocking);
  REQUIRE(TestPassed);
}

/**
 * Test Description
 * ------------------------
 *    - Validates functionality of hipStreamCreateWithPriority when stream = nullptr
 *    - Validates functionality of hipStreamCreateWithPriority when flag = 0xffffffff
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_NegTst() {
  RunSections([&] {
  cudaStream_t stream{nullptr};
  int priority_low{0};
  int priority_high{0};

  // Test is to get the Stream Priority Range
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
  // Check if priorities are indeed supported
  if (priority_low == priority_high) {
    WARN("Stream priority range not supported. Skipping test.");
    return;  // exit the test since priorities are not supported
  }

  SECTION("stream = nullptr test") {
    REQUIRE(cudaErrorInvalidValue ==
        cudaStreamCreateWithPriority(nullptr, cudaStreamDefault, priority_low));
  }

  SECTION("flag value invalid test") {
    REQUIRE(cudaErrorInvalidValue ==
        cudaStreamCreateWithPriority(&stream, 0xffffffff, priority_low));
  }
  });
}

/**
 * Test Description
 * ------------------------
 *    - Set and Get Priority Value
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_CheckPriorityVal() {
  for (int id = 0; id < HipTest::getDeviceCount(); id++) {
  RunSections([&] {

  HIP_CHECK(cudaSetDevice(id));

  int priority_low = 0, priority_high = 0;
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_high));
  cudaStream_t stream{nullptr};

  SECTION("Setting high priority") {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault,
              priority_high));
    REQUIRE(stream != nullptr);
    REQUIRE(hip::checkStreamPriorityAndFlags(stream, priority_high));
  }

  SECTION("Setting low priority") {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault,
              priority_low));
    REQUIRE(stream != nullptr);
    REQUIRE(hip::checkStreamPriorityAndFlags(stream, priority_low));
  }

  SECTION("Setting lowest possible priority") {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault,
              std::numeric_limits<int>::max()));
    REQUIRE(stream != nullptr);
    REQUIRE(hip::checkStreamPriorityAndFlags(stream, priority_low));
  }

  SECTION("Setting highest possible priority") {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault,
              std::numeric_limits<int>::min()));
    REQUIRE(stream != nullptr);
    REQUIRE(hip::checkStreamPriorityAndFlags(stream, priority_high));
  }

  SECTION("Setting flags to cudaStreamNonBlocking") {
    HIP_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking,
              priority_high));
    REQUIRE(stream != nullptr);
    REQUIRE(hip::checkStreamPriorityAndFlags(stream, priority_high,
            cudaStreamNonBlocking));
  }

  HIP_CHECK(cudaStreamDestroy(stream));
  });
  }
}

/**
 * Test Description
 * ------------------------
 *    - Validate stream priorities with event after classifying them as low,
 * medium and high.
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_ValidateWithEvents() {
  bool TestPassed = true;
  TestPassed =
  hipStreamCreateWithPriorityTest::validateStreamPrioritiesWithEvents<int>();
  REQUIRE(TestPassed);
}

/**
 * Test Description
 * ------------------------
 *    - Test that create Multiple streams with priority low, normal and high
 * then these streams used to launch the kernel in random seq high,normal,low.
 * ------------------------
 *    - catch\unit\stream\hipStreamCreateWithPriority.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
static void Unit_hipStreamCreateWithPriority_TestMultipleStreamWithPriority() {
  hipStreamCreateWithPriorityTest::TestForMultipleStreamWithPriority<int>();
}

/**
* End doxygen group StreamTest.
* @}
*/

/* ============================================================================ stream/hipMultiStream.cc */

namespace hipMultiStreamTest {
constexpr int NN = 1 << 21;

__global__ void kernel_do_nothing(__attribute__((unused)) int a) {}

__global__ void kernel(float *x, float *y, int n) {
    size_t tid{threadIdx.x};
    if (tid < 1) {
        for (int i = 0; i < n; i++) {
            x[i] = sqrt(powf(3.14159, i));
        }
        y[tid] = y[tid] + 1.0f;
    }
}

__global__ void nKernel(float *y) {
    size_t tid{threadIdx.x};
    y[tid] = y[tid] + 1.0f;
}

static void Unit_hipMultiStream_sameDevice() {
    constexpr int num_streams{8};
    cudaStream_t streams[num_streams];
    float *data[num_streams], *yd, *xd;
    float y{1.0f}, x{1.0f};
    HIP_CHECK(cudaMalloc((void **)&yd, sizeof(float)));
    HIP_CHECK(cudaMalloc((void **)&xd, sizeof(float)));
    HIP_CHECK(cudaMemcpy(yd, &y, sizeof(float), cudaMemcpyHostToDevice));
    HIP_CHECK(cudaMemcpy(xd, &x, sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < num_streams; i++) {
        HIP_CHECK(cudaStreamCreate(&streams[i]));
        HIP_CHECK(cudaMalloc(&data[i], NN * sizeof(float)));
        kernel<<<dim3(1), dim3(1), 0, streams[i]>>>(data[i], xd, NN);
        HIP_CHECK(cudaGetLastError());
        nKernel<<<dim3(1), dim3(1), 0, 0>>>(yd);
        HIP_CHECK(cudaGetLastError());
        /* STREAMSIM: the stream synchronized before the free of the memory its kernel writes (see the header). */
        HIP_CHECK(cudaStreamSynchronize(streams[i]));
        HIP_CHECK(cudaFree(data[i]));
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
    HIP_CHECK(cudaMemcpy(&x, xd, sizeof(float), cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaMemcpy(&y, yd, sizeof(float), cudaMemcpyDeviceToHost));
    REQUIRE(x == y); /* Catch2's Approx(y) */
}

static void Unit_hipMultiStream_multimeDevice() {
    /* STREAMSIM: 5000 loops instead of 50000. */
    constexpr int nLoops = 5000;
    constexpr int nStreams = 2;
    std::vector<cudaStream_t> streams(nStreams);
    int nGpu = 0;
    HIP_CHECK(cudaGetDeviceCount(&nGpu));
    if (nGpu < 1) {
        INFO("No GPU for Testing");
        SUCCEED(true);
    }
    static int device = 0;
    HIP_CHECK(cudaSetDevice(device));
    cudaDeviceProp props;
    HIP_CHECK(cudaGetDeviceProperties(&props, device));
    INFO("Running on Bus: " << props.pciBusID << " " << props.name);
    for (int i = 0; i < nStreams; i++) {
        HIP_CHECK(cudaStreamCreate(&streams[i]));
    }
    for (int k = 0; k <= nLoops; ++k) {
        HIP_CHECK(cudaDeviceSynchronize());
        kernel_do_nothing<<<dim3(1), dim3(1), 0, 0>>>(1);
        HIP_CHECK(cudaGetLastError());
        for (int i = 0; i < nStreams; i++) {
            kernel_do_nothing<<<dim3(1), dim3(1), 0, streams[i]>>>(1);
            HIP_CHECK(cudaGetLastError());
        }
        HIP_CHECK(cudaStreamSynchronize(streams[0]));
        if (k % 10000 == 0 || k == nLoops) {
            INFO("Iter: " << k);
        }
    }
    HIP_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < nStreams; i++) {
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
}
} // namespace hipMultiStreamTest

/* ============================================================================ stream/hipAPIStreamDisable.cc */

#define NUM_STREAMS 8

namespace hipAPIStreamDisableTest {
const int NN = 1 << 21;

__global__ void kernel(float *x, float *y, int n) {
    int tid = threadIdx.x;
    if (tid < 1) {
        for (int i = 0; i < n; i++) {
            x[i] = sqrt(powf(3.14159, i));
        }
        y[tid] = y[tid] + 1.0f;
    }
}

__global__ void nKernel(float *y) {
    int tid = threadIdx.x;
    y[tid] = y[tid] + 1.0f;
}
} // namespace hipAPIStreamDisableTest

static void Unit_hipStreamCreate_MultistreamBasicFunctionalities() {
    cudaStream_t streams[NUM_STREAMS];
    float *data[NUM_STREAMS], *yd, *xd;
    float y = 1.0f, x = 1.0f;
    HIP_CHECK(cudaMalloc(reinterpret_cast<void **>(&yd), sizeof(float)));
    HIP_CHECK(cudaMalloc(reinterpret_cast<void **>(&xd), sizeof(float)));
    HIP_CHECK(cudaMemcpy(yd, &y, sizeof(float), cudaMemcpyHostToDevice));
    HIP_CHECK(cudaMemcpy(xd, &x, sizeof(float), cudaMemcpyHostToDevice));

    for (int i = 0; i < NUM_STREAMS; i++) {
        HIP_CHECK(cudaStreamCreate(&streams[i]));
        HIP_CHECK(cudaMalloc(&data[i], (hipAPIStreamDisableTest::NN) * sizeof(float)));
        hipAPIStreamDisableTest::kernel<<<dim3(1), dim3(1), 0, streams[i]>>>(data[i], xd, hipAPIStreamDisableTest::NN);
        HIP_CHECK(cudaGetLastError());
        hipAPIStreamDisableTest::nKernel<<<dim3(1), dim3(1), 0, 0>>>(yd);
        HIP_CHECK(cudaGetLastError());
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
    HIP_CHECK(cudaMemcpy(&x, xd, sizeof(float), cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaMemcpy(&y, yd, sizeof(float), cudaMemcpyDeviceToHost));
    REQUIRE(x == y);
}

/* ============================================================================ stream/hipStreamGetDevice.cc */

namespace hipStreamGetDeviceTest {
#define NUMBER_OF_THREADS 10
static bool thread_results[NUMBER_OF_THREADS];

static void Unit_hipStreamGetDevice_Negative() {
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK_ERROR(cudaStreamGetDevice(nullptr, nullptr), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaStreamGetDevice(cudaStreamPerThread, nullptr), cudaErrorInvalidValue);
    HIP_CHECK_ERROR(cudaStreamGetDevice(stream, nullptr), cudaErrorInvalidValue);
    HIP_CHECK(cudaStreamDestroy(stream));
}

static void Unit_hipStreamGetDevice_Usecase() {
    RunSections([&] {
        int device_count = 0;
        HIP_CHECK(cudaGetDeviceCount(&device_count));
        REQUIRE(device_count != 0);
        /* STREAMSIM: the "Null Stream" and "Stream Per Thread" sections create a context with the driver API
         * (CTX_CREATE: cuCtxCreate), which is not simulated: left out (see the header). */
        SECTION("Created Stream") {
            for (int i = 0; i < device_count; i++) {
                HIP_CHECK(cudaSetDevice(i));
                int device_from_stream, device_from_ordinal;
                cudaStream_t stream;
                HIP_CHECK(cudaStreamCreate(&stream));
                HIP_CHECK(cudaStreamGetDevice(stream, &device_from_stream));
                /* STREAMSIM: hipDeviceGet(&device_from_ordinal, i) (the driver's cuDeviceGet) → the ordinal. */
                device_from_ordinal = i;
                REQUIRE(device_from_stream == device_from_ordinal);
            }
        }
    });
}

static bool validateStreamGetDevice() {
    int gpu = 0;
    int device_from_stream;
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamGetDevice(stream, &device_from_stream));
    REQUIRE(device_from_stream == gpu);
    return true;
}

static void thread_Test(int threadNum) { thread_results[threadNum] = validateStreamGetDevice(); }

static bool test_hipStreamGetDevice_MThread() {
    std::vector<std::thread> tests;
    for (int idx = 0; idx < NUMBER_OF_THREADS; idx++) {
        thread_results[idx] = false;
        tests.push_back(std::thread(thread_Test, idx));
    }
    for (std::thread &t : tests) {
        t.join();
    }
    bool status = true;
    for (int idx = 0; idx < NUMBER_OF_THREADS; idx++) {
        status = status & thread_results[idx];
    }
    return status;
}

static void Unit_hipStreamGetDevice_MThread() { REQUIRE(true == test_hipStreamGetDevice_MThread()); }

static void Unit_hipStreamGetDevice_SetDiffDevice() {
    int device_from_stream;
    int device_count = 0;
    HIP_CHECK(cudaGetDeviceCount(&device_count));
    if (device_count < 2) {
        HipTest::HIP_SKIP_TEST("Skipping because devices < 2");
        return;
    }
    for (int i = 0; i < device_count; ++i) {
        HIP_CHECK(cudaSetDevice(i));
        cudaStream_t stream;
        HIP_CHECK(cudaStreamCreate(&stream));
        for (int j = 0; j < device_count; ++j) {
            if (i != j) {
                HIP_CHECK(cudaSetDevice(j));
                HIP_CHECK(cudaStreamGetDevice(stream, &device_from_stream));
                REQUIRE(device_from_stream == i);
            }
        }
    }
}
#undef NUMBER_OF_THREADS
} // namespace hipStreamGetDeviceTest

int main() {
    HIP_TEST_CASE(Unit_hipStreamCreate_default);
    HIP_TEST_CASE(Unit_hipStreamCreate_Negative);
    HIP_TEST_CASE(Unit_hipStreamCreateWithFlags_Negative_NullStream);
    HIP_TEST_CASE(Unit_hipStreamCreateWithFlags_Negative_InvalidFlag);
    HIP_TEST_CASE(Unit_hipStreamCreateWithFlags_Default);
    HIP_TEST_CASE(Unit_hipStreamDestroy_Default);
    HIP_TEST_CASE(Unit_hipStreamDestroy_Negative_DoubleDestroy);
    HIP_TEST_CASE(Unit_hipStreamDestroy_Negative_NullStream);
    HIP_TEST_CASE(Unit_hipStreamDestroy_WithFinishedWork);
    HIP_TEST_CASE(Unit_hipStreamGetFlags_Basic);
    HIP_TEST_CASE(Unit_hipStreamGetFlags_Negative);
    HIP_TEST_CASE(Unit_hipStreamGetPriority_happy);
    HIP_TEST_CASE(Unit_hipStreamGetPriority_nullptr_nullptr);
    HIP_TEST_CASE(Unit_hipStreamGetPriority_stream_nullptr);
    HIP_TEST_CASE(Unit_hipStreamGetPriority_nullptr_priority);
    HIP_TEST_CASE(Unit_hipStreamGetPriority_stream_priority);
    HIP_TEST_CASE(Unit_hipDeviceGetStreamPriorityRange_Default);
    HIP_TEST_CASE(Unit_hipStreamQuery_WithNoWork);
    HIP_TEST_CASE(Unit_hipStreamQuery_WithFinishedWork);
    HIP_TEST_CASE(Unit_hipStreamSynchronize_EmptyStream);
    HIP_TEST_CASE(Unit_hipStreamWaitEvent_Negative);
    HIP_TEST_CASE(Unit_hipStreamWaitEvent_Default);
    HIP_TEST_CASE(Unit_hipStreamWaitEvent_DifferentStreams);
    HIP_TEST_CASE(Unit_hipEvent);
    HIP_TEST_CASE(Unit_hipEventElapsedTime_NullCheck);
    HIP_TEST_CASE(Unit_hipEventElapsedTime_DisableTiming);
    HIP_TEST_CASE(Unit_hipEventElapsedTime_DifferentDevices);
    HIP_TEST_CASE(Unit_hipEventElapsedTime);
    HIP_TEST_CASE(Unit_hipEventRecord);
    HIP_TEST_CASE(Unit_hipEventRecord_Negative);
    HIP_TEST_CASE(Unit_hipEventCreate_NullCheck);
    HIP_TEST_CASE(Unit_hipEventCreateWithFlags_NullCheck);
    HIP_TEST_CASE(Unit_hipEventCreate_IncompatibleFlags);
    HIP_TEST_CASE(Unit_hipEventSynchronize_NullCheck);
    HIP_TEST_CASE(Unit_hipEventQuery_NullCheck);
    HIP_TEST_CASE(Unit_hipEventDestroy_NullCheck);
    HIP_TEST_CASE(Unit_hipEventCreate_Positive);
    HIP_TEST_CASE(Unit_hipEventCreateWithFlags_Positive);
    HIP_TEST_CASE(Unit_hipEventSynchronize_Default_Positive);
    HIP_TEST_CASE(Unit_hipEventSynchronize_NoEventRecord_Positive);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_FunctionalForAllPriorities);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_MulthreadDefaultflag);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_MulthreadNonblockingflag);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_NegTst);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_CheckPriorityVal);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_ValidateWithEvents);
    HIP_TEST_CASE(Unit_hipStreamCreateWithPriority_TestMultipleStreamWithPriority);
    HIP_TEST_CASE(hipMultiStreamTest::Unit_hipMultiStream_sameDevice);
    HIP_TEST_CASE(hipMultiStreamTest::Unit_hipMultiStream_multimeDevice);
    HIP_TEST_CASE(Unit_hipStreamCreate_MultistreamBasicFunctionalities);
    HIP_TEST_CASE(hipStreamGetDeviceTest::Unit_hipStreamGetDevice_Negative);
    HIP_TEST_CASE(hipStreamGetDeviceTest::Unit_hipStreamGetDevice_Usecase);
    HIP_TEST_CASE(hipStreamGetDeviceTest::Unit_hipStreamGetDevice_MThread);
    HIP_TEST_CASE(hipStreamGetDeviceTest::Unit_hipStreamGetDevice_SetDiffDevice);
    printf("hip-tests streams and events: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
