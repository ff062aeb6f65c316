/*
 * hip_tests_pitched_memset.cu — ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a) 2-D and 3-D memset unit tests, translated to CUDA names (hipX → cudaX)
 * and built with `streamsim cc`:
 *   catch/unit/memory/hipMemset2D.cc: Unit_hipMemset2D_BasicFunctional, Unit_hipMemset2DAsync_BasicFunctional,
 *                                     Unit_hipMemset2D_UniqueWidthHeight (7 shapes),
 *                                     Unit_hipMemset2DAsync_capturehipMemset2DAsync (9 shapes)
 *   catch/unit/memory/hipMemset3D.cc: Unit_hipMemset3D_BasicFunctional, Unit_hipMemset3DAsync_BasicFunctional,
 *                                     Unit_hipMemset3DAsync_capturehipMemset3DAsync (27 shapes)
 *
 * Every runtime call and every check of those tests is kept, with these changes: Catch2 → tests/c/hip_tests_cu.h,
 * GENERATE / GENERATE(table) → loops in the generator's order; CHECK_IMAGE_SUPPORT dropped (a CUDA device supports
 * textures); the HT_NVIDIA branch's hipMemcpyKindToCudaMemcpyKind(hipMemcpyDeviceToHost) is cudaMemcpyDeviceToHost.
 *   catch/unit/memory/hipMemset2DAsyncMultiThreadAndKernel.cc: Unit_hipMemset2DAsync_WithKernel (2 sections),
 *                                     Unit_hipMemset2DAsync_MultiThread
 *
 * Unit_hipMemset2DAsync_MultiThread starts getHostThreadCount(200, 1000) threads per iteration; upstream's helper
 * answers the machine's processor count, the port 2 on every machine, so the run is the same everywhere (and both
 * host buffers are written: with one thread upstream's check of B_h and A_h fails). Not ported:
 * hipMemset3DFunctional.cc and hipMemset3DRegressMultiThread.cc (not reached in the time of this port; they call the
 * same functions).
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2024 Advanced Micro Devices, Inc. (the notice is in
 * tests/c/hip_tests_cu.h).
 */
#include "hip_tests_cu.h"

#include <initializer_list>
#include <thread>
#include <tuple>

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
    printf("hip-tests pitched memsets: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
