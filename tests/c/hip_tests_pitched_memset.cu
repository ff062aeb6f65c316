/*
 * hip_tests_pitched_memset.cu — ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a) 2-D and 3-D memset unit tests, translated to CUDA names (hipX → cudaX)
 * and built with `streamsim cc`:
 *   catch/unit/memory/hipMemset2D.cc: Unit_hipMemset2D_BasicFunctional, Unit_hipMemset2DAsync_BasicFunctional,
 *                                     Unit_hipMemset2D_UniqueWidthHeight (7 shapes),
 *                                     Unit_hipMemset2DAsync_capturehipMemset2DAsync (9 shapes)
 *   catch/unit/memory/hipMemset3D.cc: Unit_hipMemset3D_BasicFunctional, Unit_hipMemset3DAsync_BasicFunctional,
 *                                     Unit_hipMemset3DAsync_capturehipMemset3DAsync (27 shapes)
 *   catch/unit/memory/hipMemset2DAsyncMultiThreadAndKernel.cc: Unit_hipMemset2DAsync_WithKernel (2 sections),
 *                                     Unit_hipMemset2DAsync_MultiThread
 *   catch/unit/memory/hipMemset3DRegressMultiThread.cc: Unit_hipMemset3D_RegressInLoop,
 *                                     Unit_hipMemset3DAsync_RegressInLoop, Unit_hipMemset3DAsync_ConcurrencyMthread
 *
 * Every runtime call and every check of those tests is kept, with these changes: Catch2 → tests/c/hip_tests_cu.h,
 * GENERATE / GENERATE(table) → loops in the generator's order; CHECK_IMAGE_SUPPORT dropped (a CUDA device supports
 * textures); the HT_NVIDIA branch's hipMemcpyKindToCudaMemcpyKind(hipMemcpyDeviceToHost) is cudaMemcpyDeviceToHost.
 *
 * Unit_hipMemset2DAsync_MultiThread starts getHostThreadCount(200, 1000) threads per iteration; upstream's helper
 * answers the machine's processor count, the port 2 on every machine, so the run is the same everywhere (and both
 * host buffers are written: with one thread upstream's check of B_h and A_h fails).
 *
 * loopRegression (hipMemset3DRegressMultiThread.cc) enables peer access for each pair of devices in each of its
 * iterations and never disables it, so its second iteration's cudaDeviceEnablePeerAccess would answer
 * cudaErrorPeerAccessAlreadyEnabled on CUDA with two devices; the port disables it after each pair
 * (cudaDeviceDisablePeerAccess, checked). With one device every pair is skipped, as on CUDA (a device is not its own
 * peer). Not ported: hipMemset3DFunctional.cc (not reached in the time of this port; it calls the same functions).
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2024 Advanced Micro Devices, Inc. (the notice is in
 * tests/c/hip_tests_cu.h).
 */
#include "hip_tests_cu.h"

#include <cstring>
#include <initializer_list>
#include <thread>
#include <tuple>
#include <vector>

/* ======================= hipMemset2D.cc ======================= */

typedef std::tuple<int, int, int, int> tupletype;
static constexpr std::initializer_list<tupletype> tableItems{
    std::make_tuple(20, 20, 20, 20),   std::make_tuple(10, 10, 4, 4),    std::make_tuple(100, 100, 20, 40),
    std::make_tuple(256, 256, 39, 19), std::make_tuple(100, 100, 20, 0), std::make_tuple(100, 100, 0, 20),
    std::make_tuple(100, 100, 0, 0),
};

static void Unit_hipMemset2D_BasicFunctional() {
    constexpr int memsetval = 0x24;
    constexpr size_t numH = 256;
    constexpr size_t numW = 256;
    size_t pitch_A;
    size_t width = numW * sizeof(char);
    size_t sizeElements = width * numH;
    size_t elements = numW * numH;
    char *A_d, *A_h;

    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, numH));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    for (size_t i = 0; i < elements; i++) {
        A_h[i] = 1;
    }
    HIP_CHECK(cudaMemset2D(A_d, pitch_A, memsetval, numW, numH));
    HIP_CHECK(cudaMemcpy2D(A_h, width, A_d, pitch_A, numW, numH, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < elements; i++) {
        if (A_h[i] != memsetval) {
            REQUIRE(false);
        }
    }
    HIP_CHECK(cudaFree(A_d));
    free(A_h);
}

static void Unit_hipMemset2DAsync_BasicFunctional() {
    constexpr int memsetval = 0x26;
    constexpr size_t numH = 256;
    constexpr size_t numW = 256;
    size_t pitch_A;
    size_t width = numW * sizeof(char);
    size_t sizeElements = width * numH;
    size_t elements = numW * numH;
    char *A_d, *A_h;

    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, numH));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    for (size_t i = 0; i < elements; i++) {
        A_h[i] = 1;
    }
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaMemset2DAsync(A_d, pitch_A, memsetval, numW, numH, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));
    HIP_CHECK(cudaMemcpy2D(A_h, width, A_d, pitch_A, numW, numH, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < elements; i++) {
        if (A_h[i] != memsetval) {
            REQUIRE(false);
        }
    }
    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaStreamDestroy(stream));
    free(A_h);
}

static void Unit_hipMemset2D_UniqueWidthHeight() {
    for (const tupletype item : tableItems) {
        int width2D, height2D;
        int memsetWidth, memsetHeight;
        char *A_d, *A_h;
        size_t pitch_A;
        constexpr int memsetval = 0x26;
        std::tie(width2D, height2D, memsetWidth, memsetHeight) = item;
        size_t width = width2D * sizeof(char);
        size_t sizeElements = width * height2D;

        HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, height2D));
        A_h = reinterpret_cast<char *>(malloc(sizeElements));
        REQUIRE(A_h != nullptr);
        for (size_t index = 0; index < sizeElements; index++) {
            A_h[index] = 'c';
        }
        HIP_CHECK(cudaMemset2D(A_d, pitch_A, memsetval, memsetWidth, memsetHeight));
        HIP_CHECK(cudaMemcpy2D(A_h, width, A_d, pitch_A, width2D, height2D, cudaMemcpyDeviceToHost));
        for (int row = 0; row < memsetHeight; row++) {
            for (int column = 0; column < memsetWidth; column++) {
                if (A_h[(row * width) + column] != memsetval) {
                    REQUIRE(false);
                }
            }
        }
        HIP_CHECK(cudaFree(A_d));
        free(A_h);
    }
}

static void Unit_hipMemset2DAsync_capturehipMemset2DAsync() {
    for (const int rows : {3, 4, 100})
        for (const int cols : {3, 4, 100}) {
            char *A_h, *B_h, *A_d;
            cudaGraph_t graph{nullptr};
            cudaGraphExec_t graphExec{nullptr};
            cudaStream_t stream;
            size_t devPitch;
            A_h = reinterpret_cast<char *>(malloc(sizeof(char) * rows * cols));
            B_h = reinterpret_cast<char *>(malloc(sizeof(char) * rows * cols));
            HIP_CHECK(cudaStreamCreate(&stream));
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    A_h[i * cols + j] = 'a';
                }
            }
            HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &devPitch, sizeof(char) * cols, rows));
            HIP_CHECK(cudaMemcpy2D(A_d, devPitch, A_h, sizeof(char) * cols, sizeof(char) * cols, rows,
                                   cudaMemcpyHostToDevice));
            HIP_CHECK(cudaDeviceSynchronize());
            HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            HIP_CHECK(cudaMemset2DAsync(A_d, devPitch, 'b', sizeof(char) * cols, rows, stream));
            HIP_CHECK(cudaStreamEndCapture(stream, &graph));
            HIP_CHECK(cudaDeviceSynchronize());
            HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0));
            HIP_CHECK(cudaGraphLaunch(graphExec, stream));
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaMemcpy2D(B_h, sizeof(char) * cols, A_d, devPitch, sizeof(char) * cols, rows,
                                   cudaMemcpyDeviceToHost));
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    REQUIRE(B_h[i * cols + j] == 'b');
                }
            }
            HIP_CHECK(cudaGraphExecDestroy(graphExec));
            HIP_CHECK(cudaGraphDestroy(graph));
            HIP_CHECK(cudaStreamDestroy(stream));
            HIP_CHECK(cudaFree(A_d));
            free(A_h);
            free(B_h);
        }
}

/* ======================= hipMemset3D.cc ======================= */

static void Unit_hipMemset3D_BasicFunctional() {
    constexpr int memsetval = 0x22;
    constexpr size_t numH = 256;
    constexpr size_t numW = 256;
    constexpr size_t depth = 10;
    size_t width = numW * sizeof(char);
    size_t sizeElements = width * numH * depth;
    size_t elements = numW * numH * depth;
    char *A_h;

    cudaExtent extent = make_cudaExtent(width, numH, depth);
    cudaPitchedPtr devPitchedPtr;
    HIP_CHECK(cudaMalloc3D(&devPitchedPtr, extent));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    for (size_t i = 0; i < elements; i++) {
        A_h[i] = 1;
    }
    HIP_CHECK(cudaMemset3D(devPitchedPtr, memsetval, extent));
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.srcPtr = devPitchedPtr;
    myparms.extent = extent;
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaMemcpy3D(&myparms));
    for (size_t i = 0; i < elements; i++) {
        if (A_h[i] != memsetval) {
            REQUIRE(false);
        }
    }
    HIP_CHECK(cudaFree(devPitchedPtr.ptr));
    free(A_h);
}

static void Unit_hipMemset3DAsync_BasicFunctional() {
    constexpr int memsetval = 0x22;
    constexpr size_t numH = 256;
    constexpr size_t numW = 256;
    constexpr size_t depth = 10;
    size_t width = numW * sizeof(char);
    size_t sizeElements = width * numH * depth;
    size_t elements = numW * numH * depth;
    cudaExtent extent = make_cudaExtent(width, numH, depth);
    cudaPitchedPtr devPitchedPtr;
    char *A_h;

    HIP_CHECK(cudaMalloc3D(&devPitchedPtr, extent));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    for (size_t i = 0; i < elements; i++) {
        A_h[i] = 1;
    }
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaMemset3DAsync(devPitchedPtr, memsetval, extent, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.srcPtr = devPitchedPtr;
    myparms.extent = extent;
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaMemcpy3D(&myparms));
    for (size_t i = 0; i < elements; i++) {
        if (A_h[i] != memsetval) {
            REQUIRE(false);
        }
    }
    HIP_CHECK(cudaFree(devPitchedPtr.ptr));
    free(A_h);
}

static void Unit_hipMemset3DAsync_capturehipMemset3DAsync() {
    for (const int row : {3, 4, 100})
        for (const int col : {3, 4, 100})
            for (const int dep : {3, 4, 100}) {
                char *A_h;
                cudaPitchedPtr A_d;
                cudaGraph_t graph{nullptr};
                cudaGraphExec_t graphExec{nullptr};
                cudaStream_t stream;
                A_h = reinterpret_cast<char *>(malloc(sizeof(char) * row * col * dep));
                cudaExtent extent = make_cudaExtent(col, row, dep);
                HIP_CHECK(cudaMalloc3D(&A_d, extent));
                HIP_CHECK(cudaStreamCreate(&stream));
                HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
                HIP_CHECK(cudaMemset3DAsync(A_d, 'a', extent, stream));
                HIP_CHECK(cudaStreamEndCapture(stream, &graph));
                HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0));
                HIP_CHECK(cudaGraphLaunch(graphExec, stream));
                HIP_CHECK(cudaStreamSynchronize(stream));
                cudaMemcpy3DParms params{};
                params.srcPos = make_cudaPos(0, 0, 0);
                params.dstPos = make_cudaPos(0, 0, 0);
                params.dstPtr = make_cudaPitchedPtr(A_h, col, col, row);
                params.srcPtr = A_d;
                params.extent = extent;
                params.kind = cudaMemcpyDeviceToHost;
                HIP_CHECK(cudaMemcpy3D(&params));
                for (int i = 0; i < (row * col * dep); i++) {
                    REQUIRE(A_h[i] == 'a');
                }
                HIP_CHECK(cudaGraphExecDestroy(graphExec));
                HIP_CHECK(cudaGraphDestroy(graph));
                HIP_CHECK(cudaStreamDestroy(stream));
                HIP_CHECK(cudaFree(A_d.ptr));
                free(A_h);
            }
}

/* ======================= hipMemset2DAsyncMultiThreadAndKernel.cc ======================= */

#define NUM_THREADS 1000
#define ITER 10
#define NUM_H 256
#define NUM_W 256

/* hip_test_helper.hh's getHostThreadCount answers the processor count (capped by NUM_THREADS) on a machine with
 * the memory; the port answers 2 on every machine (see the header). */
namespace HipTest {
static inline size_t getHostThreadCount(const size_t memPerThread, const size_t maxThreads) {
    if (memPerThread == 0) return 0;
    return maxThreads < 2 ? maxThreads : 2;
}
} // namespace HipTest

void queueJobsForhipMemset2DAsync(char *A_d, char *A_h, size_t pitch, size_t width, cudaStream_t stream) {
    constexpr int memsetval = 0x22;
    HIP_CHECK(cudaMemset2DAsync(A_d, pitch, memsetval, NUM_W, NUM_H, stream));
    HIP_CHECK(cudaMemcpy2DAsync(A_h, width, A_d, pitch, NUM_W, NUM_H, cudaMemcpyDeviceToHost, stream));
}

static void Unit_hipMemset2DAsync_WithKernel() {
    RunSections([] {
        constexpr auto N = 4 * 1024 * 1024;
        constexpr auto blocksPerCU = 6; // to hide latency
        constexpr auto threadsPerBlock = 256;
        constexpr int memsetval = 0x22;
        char *A_d, *A_h, *B_d, *B_h, *C_d;
        size_t pitch_A, pitch_B, pitch_C;
        size_t width = NUM_W * sizeof(char);
        size_t sizeElements = width * NUM_H;
        size_t elements = NUM_W * NUM_H;
        unsigned blocks{};
        int validateCount{};

        blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
        HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, NUM_H));
        HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&B_d), &pitch_B, width, NUM_H));
        A_h = reinterpret_cast<char *>(malloc(sizeElements));
        REQUIRE(A_h != nullptr);
        B_h = reinterpret_cast<char *>(malloc(sizeElements));
        REQUIRE(B_h != nullptr);
        HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&C_d), &pitch_C, width, NUM_H));
        for (size_t i = 0; i < elements; i++) {
            B_h[i] = i;
        }
        HIP_CHECK(cudaMemcpy2D(B_d, width, B_h, pitch_B, NUM_W, NUM_H, cudaMemcpyHostToDevice));

        SECTION("Using User created stream") {
            cudaStream_t stream;
            HIP_CHECK(cudaStreamCreate(&stream));
            for (size_t k = 0; k < ITER; k++) {
                HipTest::vector_square<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(B_d, C_d, elements);
                HIP_CHECK(cudaStreamSynchronize(stream));
                HIP_CHECK(cudaMemset2DAsync(C_d, pitch_C, memsetval, NUM_W, NUM_H, stream));
                HIP_CHECK(cudaStreamSynchronize(stream));
                HIP_CHECK(cudaMemcpy2D(A_h, width, C_d, pitch_C, NUM_W, NUM_H, cudaMemcpyDeviceToHost));
                for (size_t p = 0; p < elements; p++) {
                    if (A_h[p] == memsetval) {
                        validateCount += 1;
                    }
                }
            }
            HIP_CHECK(cudaStreamDestroy(stream));
        }

        SECTION("Using hipStreamPerThread stream") {
            for (size_t k = 0; k < ITER; k++) {
                HipTest::vector_square<<<dim3(blocks), dim3(threadsPerBlock), 0, cudaStreamPerThread>>>(B_d, C_d,
                                                                                                      elements);
                HIP_CHECK(cudaGetLastError());
                HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
                HIP_CHECK(cudaMemset2DAsync(C_d, pitch_C, memsetval, NUM_W, NUM_H, cudaStreamPerThread));
                HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
                HIP_CHECK(cudaMemcpy2D(A_h, width, C_d, pitch_C, NUM_W, NUM_H, cudaMemcpyDeviceToHost));
                for (size_t p = 0; p < elements; p++) {
                    if (A_h[p] == memsetval) {
                        validateCount += 1;
                    }
                }
            }
        }

        REQUIRE(static_cast<size_t>(validateCount) == (ITER * elements));
        HIP_CHECK(cudaFree(A_d));
        HIP_CHECK(cudaFree(B_d));
        HIP_CHECK(cudaFree(C_d));
        free(A_h);
        free(B_h);
    });
}

static void Unit_hipMemset2DAsync_MultiThread() {
    constexpr auto memPerThread = 200;
    constexpr int memsetval = 0x22;
    char *A_d, *A_h, *B_d, *B_h, *C_d;
    size_t pitch_A, pitch_B, pitch_C;
    size_t width = NUM_W * sizeof(char);
    size_t sizeElements = width * NUM_H;
    size_t elements = NUM_W * NUM_H;
    int validateCount{};
    cudaStream_t stream;
    auto thread_count = HipTest::getHostThreadCount(memPerThread, NUM_THREADS);
    if (thread_count == 0) {
        WARN("Resources not available for thread creation");
        return;
    }
    std::thread *t = new std::thread[thread_count];
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&A_d), &pitch_A, width, NUM_H));
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&B_d), &pitch_B, width, NUM_H));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    B_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(B_h != nullptr);
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&C_d), &pitch_C, width, NUM_H));
    for (size_t i = 0; i < elements; i++) {
        B_h[i] = i;
    }
    HIP_CHECK(cudaMemcpy2D(B_d, width, B_h, pitch_B, NUM_W, NUM_H, cudaMemcpyHostToDevice));
    HIP_CHECK(cudaStreamCreate(&stream));
    for (int i = 0; i < ITER; i++) {
        for (size_t k = 0; k < thread_count; k++) {
            if (k % 2) {
                t[k] = std::thread(queueJobsForhipMemset2DAsync, A_d, A_h, pitch_A, width, stream);
            } else {
                t[k] = std::thread(queueJobsForhipMemset2DAsync, A_d, B_h, pitch_A, width, stream);
            }
        }
        for (size_t j = 0; j < thread_count; j++) {
            t[j].join();
        }
        HIP_CHECK(cudaStreamSynchronize(stream));
        for (size_t k = 0; k < elements; k++) {
            if ((A_h[k] == memsetval) && (B_h[k] == memsetval)) {
                validateCount += 1;
            }
        }
    }
    REQUIRE(static_cast<size_t>(validateCount) == (ITER * elements));
    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaFree(B_d));
    HIP_CHECK(cudaFree(C_d));
    free(A_h);
    free(B_h);
    HIP_CHECK(cudaStreamDestroy(stream));
    delete[] t;
}

/* ======================= hipMemset3DRegressMultiThread.cc ======================= */

#define MAX_REGRESS_ITERS 2
#define MAX_THREADS 10

static __global__ void func_set_value(cudaPitchedPtr devicePitchedPointer, cudaExtent extent, unsigned char val) {
    size_t x = threadIdx.x + blockDim.x * blockIdx.x;
    size_t y = threadIdx.y + blockDim.y * blockIdx.y;
    size_t z = threadIdx.z + blockDim.z * blockIdx.z;
    char *devicePointer = reinterpret_cast<char *>(devicePitchedPointer.ptr);
    size_t pitch = devicePitchedPointer.pitch;
    size_t slicePitch = pitch * extent.height;
    if (z < extent.depth) {
        char *current_slice_index = devicePointer + z * slicePitch;
        if (y < extent.height) {
            char *current_row = reinterpret_cast<char *>(current_slice_index + y * pitch);
            if (x < extent.width) {
                current_row[x] = val;
            }
        }
    }
}

static void threadFunc(cudaStream_t stream, cudaPitchedPtr devpPtr, int memsetval, int testval, cudaExtent extent,
                       cudaMemcpy3DParms myparms) {
    constexpr auto size = 8;
    dim3 threadsPerBlock = dim3(size, size, size);
    dim3 blocks;
    blocks = dim3((extent.width + threadsPerBlock.x - 1) / threadsPerBlock.x,
                  (extent.height + threadsPerBlock.y - 1) / threadsPerBlock.y,
                  (extent.depth + threadsPerBlock.z - 1) / threadsPerBlock.z);
    func_set_value<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(devpPtr, extent, memsetval);
    HIP_CHECK(cudaGetLastError());
    HIP_CHECK(cudaMemset3DAsync(devpPtr, testval, extent, stream));
    HIP_CHECK(cudaMemcpy3DAsync(&myparms, stream));
}

static bool loopRegression(bool bAsync) {
    bool testPassed = true;
    char *A_h;
    constexpr int memsetval = 1;
    constexpr size_t numH = 256, numW = 100, depth = 10;
    int numGpu = 0, hasPeerAccess = 0;
    size_t width = numW * sizeof(char);
    cudaExtent extent = make_cudaExtent(width, numH, depth);
    size_t sizeElements = width * numH * depth;
    size_t elements = numW * numH * depth;
    std::vector<cudaPitchedPtr> devPitchedPtrlist;
    cudaPitchedPtr pitchedPtr, devpPtr;

    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    memset(A_h, 0, sizeElements);
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.extent = extent;
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaGetDeviceCount(&numGpu));
    REQUIRE(numGpu > 0);
    for (int j = 0; j < numGpu; j++) {
        HIP_CHECK(cudaSetDevice(j));
        HIP_CHECK(cudaMalloc3D(&pitchedPtr, extent));
        devPitchedPtrlist.push_back(pitchedPtr);
    }
    for (int itern = 0; itern < MAX_REGRESS_ITERS; itern++) {
        for (int i = 0; i < numGpu; i++) {
            for (int j = 0; j < numGpu; j++) {
                HIP_CHECK(cudaDeviceCanAccessPeer(&hasPeerAccess, i, j));
                if (!hasPeerAccess) {
                    continue;
                }
                HIP_CHECK(cudaSetDevice(i));
                devpPtr = devPitchedPtrlist[j];
                HIP_CHECK(cudaDeviceEnablePeerAccess(j, 0));
                HIP_CHECK(cudaMemset3D(devpPtr, 0, extent));
                if (bAsync) {
                    cudaStream_t stream;
                    HIP_CHECK(cudaStreamCreate(&stream));
                    HIP_CHECK(cudaMemset3DAsync(devpPtr, memsetval, extent, stream));
                    HIP_CHECK(cudaStreamSynchronize(stream));
                    HIP_CHECK(cudaStreamDestroy(stream));
                } else {
                    HIP_CHECK(cudaMemset3D(devpPtr, memsetval, extent));
                }
                myparms.srcPtr = devpPtr;
                memset(A_h, 0, sizeElements);
                HIP_CHECK(cudaMemcpy3D(&myparms));
                for (size_t indx = 0; indx < elements; indx++) {
                    if (A_h[indx] != memsetval) {
                        testPassed = false;
                        printf("RegressIter : mismatch at index:%d computed:%02x, memsetval:%02x\n",
                               static_cast<int>(indx), static_cast<int>(A_h[indx]), static_cast<int>(memsetval));
                        break;
                    }
                }
                HIP_CHECK(cudaDeviceDisablePeerAccess(j)); /* the port's (see the header) */
            }
        }
    }
    for (int j = 0; j < numGpu; j++) {
        HIP_CHECK(cudaFree(devPitchedPtrlist[j].ptr));
    }
    free(A_h);
    return testPassed;
}

static void Unit_hipMemset3D_RegressInLoop() {
    bool TestPassed = false;
    TestPassed = loopRegression(0);
    REQUIRE(TestPassed == true);
}

static void Unit_hipMemset3DAsync_RegressInLoop() {
    bool TestPassed = false;
    TestPassed = loopRegression(1);
    REQUIRE(TestPassed == true);
}

static void Unit_hipMemset3DAsync_ConcurrencyMthread() {
    char *A_h;
    constexpr int memsetval = 1, testval = 2;
    constexpr size_t numH = 256, numW = 100, depth = 10;
    size_t width = numW * sizeof(char);
    cudaExtent extent = make_cudaExtent(width, numH, depth);
    size_t sizeElements = width * numH * depth;
    size_t elements = numW * numH * depth;
    cudaPitchedPtr devpPtr;
    cudaStream_t stream;

    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaMalloc3D(&devpPtr, extent));
    A_h = reinterpret_cast<char *>(malloc(sizeElements));
    REQUIRE(A_h != nullptr);
    memset(A_h, 0, sizeElements);
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = devpPtr;
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.extent = extent;
    myparms.kind = cudaMemcpyDeviceToHost;
    std::vector<std::thread> threadlist;
    for (int i = 0; i < MAX_THREADS; i++) {
        threadlist.push_back(std::thread(threadFunc, stream, devpPtr, memsetval, testval, extent, myparms));
    }
    for (auto &t : threadlist) {
        t.join();
    }
    HIP_CHECK(cudaStreamSynchronize(stream));
    for (size_t k = 0; k < elements; k++) {
        if (A_h[k] != testval) {
            REQUIRE(false);
        }
    }
    HIP_CHECK(cudaStreamDestroy(stream));
    free(A_h);
    HIP_CHECK(cudaFree(devpPtr.ptr));
}

int main() {
    HIP_TEST_CASE(Unit_hipMemset2D_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset2D_UniqueWidthHeight);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_capturehipMemset2DAsync);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_WithKernel);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_MultiThread);
    HIP_TEST_CASE(Unit_hipMemset3D_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_capturehipMemset3DAsync);
    HIP_TEST_CASE(Unit_hipMemset3D_RegressInLoop);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_RegressInLoop);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_ConcurrencyMthread);
    printf("hip-tests pitched memsets: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
