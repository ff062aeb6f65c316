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
 * Not ported: hipMemset2DAsyncMultiThreadAndKernel.cc, hipMemset3DFunctional.cc and hipMemset3DRegressMultiThread.cc
 * (not reached in the time of this port; they call the same functions).
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2024 Advanced Micro Devices, Inc. (the notice is in
 * tests/c/hip_tests_cu.h).
 */
#include "hip_tests_cu.h"

#include <initializer_list>
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

int main() {
    HIP_TEST_CASE(Unit_hipMemset2D_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset2D_UniqueWidthHeight);
    HIP_TEST_CASE(Unit_hipMemset2DAsync_capturehipMemset2DAsync);
    HIP_TEST_CASE(Unit_hipMemset3D_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_BasicFunctional);
    HIP_TEST_CASE(Unit_hipMemset3DAsync_capturehipMemset3DAsync);
    printf("hip-tests pitched memsets: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
