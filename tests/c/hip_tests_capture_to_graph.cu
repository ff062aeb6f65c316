/*
 * hip_tests_capture_to_graph.cu — the tests of ROCm hip-tests' catch/unit/graph/hipStreamBeginCaptureToGraph.cc
 * (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime
 * names (hipX → cudaX) and built by `streamsim cc` (the kernels run on the CPU): BasicFunctional,
 * CaptureIndepGraph, CaptureDepGraph, ComplexGraph, CaptureTwice, ModifyCloneGraph, CaptureChildpGraph,
 * ModifyChildpGraph, Negative, StateTesting, GetCaptureInfo, EndingWhileCaptureInProgress, MultipleFlags,
 * CapturePartialInThreads and IndepGraphsThreads.
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each section is one run of its test's function here (a section number), and
 * GENERATE becomes a loop. Changes, all marked STREAMSIM where they are:
 *   - HIP_CHECK / REQUIRE become CHECK / CHECK_EQ (below); the kernels HipTest::vectorADD and HipTest::vectorSUB
 *     are written out here (the same computation);
 *   - N is 1 << 16 instead of 1 << 20 (the data checks are the same; the kernels run on the CPU);
 *   - hipGraphInstantiate's five-argument form is CUDA's C++ overload of cudaGraphInstantiate;
 *   - IndepGraphsThreads calls SECTIONs from two threads (which Catch2 does not support; upstream marks the test
 *     "currently disabled"): here each of its two sections is one run of the test, both threads running it;
 *     Its main thread frees the buffers after joining the threads that synchronized their streams; the simulator
 *     does not see a thread join (threads made by std::thread / pthread_create are not intercepted:
 *     docs/semantics/stream-ordered-memory.md, the Free rows), so it reports those frees as uses after free
 *     (printed; they do not change the exit status). The suite's test checks that they are the only reports;
 *   - no section is AMD-only.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2024 Advanced Micro Devices, Inc. All rights reserved. Permission is
 * hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation
 * files (the "Software"), to deal in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
 * persons to whom the Software is furnished to do so, subject to the following conditions: The above copyright
 * notice and this permission notice shall be included in all copies or substantial portions of the Software.
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED
 * TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL
 * THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
 * CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 * DEALINGS IN THE SOFTWARE.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(x)                                                                   \
    do {                                                                           \
        if (!(x)) {                                                                \
            std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #x); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)
#define CHECK_EQ(a, b)                                                                                        \
    do {                                                                                                      \
        long long got_ = (long long)(a), want_ = (long long)(b);                                              \
        if (got_ != want_) {                                                                                  \
            std::fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, __LINE__, #a, got_, want_); \
            std::exit(1);                                                                                     \
        }                                                                                                     \
    } while (0)

template <typename T>
__global__ void vectorADD(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < NELEM; i += blockDim.x * gridDim.x) {
        C_d[i] = A_d[i] + B_d[i];
    }
}

template <typename T>
__global__ void vectorSUB(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < NELEM; i += blockDim.x * gridDim.x) {
        C_d[i] = A_d[i] - B_d[i];
    }
}

constexpr size_t N = 1 << 16; /* STREAMSIM: 1 << 20 upstream */
constexpr unsigned blocks = 256;
constexpr unsigned threadsPerBlock = 64;

static bool CaptureStreamAndLaunchGraph(int *A_d, int *B_d, int *C_d, int *A_h, int *B_h, int *C_h,
                                        cudaStreamCaptureMode mode, cudaStream_t &stream1, cudaStream_t &stream2,
                                        cudaGraph_t &graph, bool verifyStreamSync = false,
                                        std::function<bool()> verifyFunc1 = nullptr) {
    auto verifyFunc = [&]() {
        for (size_t i = 0; i < N; i++) {
            if (C_h[i] != (A_h[i] - B_h[i])) {
                std::fprintf(stderr, "Error at %zu: C=%d, A=%d, B=%d\n", i, C_h[i], A_h[i], B_h[i]);
                return false;
            }
        }
        return true;
    };
    cudaGraphExec_t graphExec{nullptr};
    size_t Nbytes = N * sizeof(int);
    cudaEvent_t e;
    CHECK_EQ(cudaEventCreate(&e), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, mode), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e, 0), cudaSuccess);
    CHECK_EQ(cudaMemsetAsync(C_d, 0, Nbytes, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(A_d, A_h, Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(B_d, B_h, Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e, stream2), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e, 0), cudaSuccess);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, C_d, N);
    CHECK_EQ(cudaMemcpyAsync(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    // Replay the recorded sequence multiple times
    CHECK_EQ(cudaGraphLaunch(graphExec, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream1), cudaSuccess);
    bool res = true;
    if (verifyStreamSync) {
        // Verify if hipStreamSynchronize() works as expected
        res = verifyFunc1 ? verifyFunc1() : true;
        res = res && verifyFunc();
    }
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e), cudaSuccess);
    if (!verifyStreamSync) {
        res = verifyFunc1 ? verifyFunc1() : true;
        res = res && verifyFunc();
    }
    return res;
}

static void BasicFunctional(int mode_section, bool verifyStreamSync) {
    int *A_d, *B_d, *C_d;
    std::vector<int> A_h(N), B_h(N), C_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream1, stream2;
    bool ret;
    cudaGraph_t graph{nullptr};
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 2 * i;
        B_h[i] = 2 * i + 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    static const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                                  cudaStreamCaptureModeRelaxed};
    ret = CaptureStreamAndLaunchGraph(A_d, B_d, C_d, A_h.data(), B_h.data(), C_h.data(), modes[mode_section],
                                      stream1, stream2, graph, verifyStreamSync);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK(ret == true);
}

static void CaptureIndepGraph(bool verifyStreamSync) {
    int *A1_d, *B1_d, *C1_d;
    std::vector<int> A1_h(N), B1_h(N), C1_h(N);
    int *A2_d, *B2_d, *C2_d;
    std::vector<int> A2_h(N), B2_h(N), C2_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream1, stream2;
    bool ret;
    cudaGraph_t graph{nullptr};
    cudaGraphNode_t memcpyNode1, memcpyNode2, memcpyNode3, kernelNode;
    auto verifyFunc = [&]() {
        for (size_t i = 0; i < N; i++) {
            if (C2_h[i] != (A2_h[i] + B2_h[i])) {
                std::fprintf(stderr, "Error at %zu: C2=%d, A2=%d, B2=%d\n", i, C2_h[i], A2_h[i], B2_h[i]);
                return false;
            }
        }
        return true;
    };
    for (size_t i = 0; i < N; i++) {
        A2_h[i] = A1_h[i] = 2 * i;
        B2_h[i] = B1_h[i] = 2 * i + 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A2_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B2_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C2_d, Nbytes), cudaSuccess);
    // Create manual graph
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode1, graph, nullptr, 0, A2_d, A2_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode2, graph, nullptr, 0, B2_d, B2_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode3, graph, nullptr, 0, C2_h.data(), C2_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    size_t arrSize = N;
    void *kernelArgs[4] = {reinterpret_cast<void *>(&A2_d), reinterpret_cast<void *>(&B2_d),
                           reinterpret_cast<void *>(&C2_d), &arrSize};
    cudaKernelNodeParams kernelNodeParams{};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks, 1, 1);
    kernelNodeParams.blockDim = dim3(threadsPerBlock, 1, 1);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernelNode, graph, 0, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyNode1, &kernelNode, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyNode2, &kernelNode, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernelNode, &memcpyNode3, 1), cudaSuccess);
    // Capture an independent graph from stream
    ret = CaptureStreamAndLaunchGraph(A1_d, B1_d, C1_d, A1_h.data(), B1_h.data(), C1_h.data(),
                                      cudaStreamCaptureModeGlobal, stream1, stream2, graph, verifyStreamSync,
                                      verifyFunc);
    CHECK(ret == true);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A1_d), cudaSuccess);
    CHECK_EQ(cudaFree(B1_d), cudaSuccess);
    CHECK_EQ(cudaFree(C1_d), cudaSuccess);
    CHECK_EQ(cudaFree(A2_d), cudaSuccess);
    CHECK_EQ(cudaFree(B2_d), cudaSuccess);
    CHECK_EQ(cudaFree(C2_d), cudaSuccess);
    CHECK(ret == true);
}

static void CaptureDepGraph() {
    cudaGraphExec_t graphExec{nullptr};
    int *A1_d, *B1_d, *C1_d, *C2_d;
    std::vector<int> A1_h(N), B1_h(N), C1_h(N), C2_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream;
    cudaGraph_t graph{nullptr};
    cudaGraphNode_t memcpyNode1, memcpyNode2, memcpyNode3, kernelNode;
    for (size_t i = 0; i < N; i++) {
        A1_h[i] = 2 * i;
        B1_h[i] = 2 * i + 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C2_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode1, graph, nullptr, 0, A1_d, A1_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode2, graph, nullptr, 0, B1_d, B1_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode3, graph, nullptr, 0, C1_h.data(), C1_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    size_t arrSize = N;
    void *kernelArgs[4] = {reinterpret_cast<void *>(&A1_d), reinterpret_cast<void *>(&B1_d),
                           reinterpret_cast<void *>(&C1_d), &arrSize};
    cudaKernelNodeParams kernelNodeParams{};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks, 1, 1);
    kernelNodeParams.blockDim = dim3(threadsPerBlock, 1, 1);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernelNode, graph, 0, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyNode1, &kernelNode, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyNode2, &kernelNode, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernelNode, &memcpyNode3, 1), cudaSuccess);
    // Capture an dependant graph from stream
    std::vector<cudaGraphNode_t> vnode;
    vnode.push_back(memcpyNode1);
    vnode.push_back(memcpyNode2);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, graph, vnode.data(), nullptr, vnode.size(),
                                           cudaStreamCaptureModeGlobal),
             cudaSuccess);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(A1_d, B1_d, C2_d, N);
    CHECK_EQ(cudaMemcpyAsync(C2_h.data(), C2_d, Nbytes, cudaMemcpyDeviceToHost, stream), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    bool ret = true;
    for (size_t i = 0; i < N; i++) {
        if (C1_h[i] != (A1_h[i] + B1_h[i])) {
            std::fprintf(stderr, "Error at %zu: C1=%d, A1=%d, B1=%d\n", i, C1_h[i], A1_h[i], B1_h[i]);
            ret = false;
            break;
        }
        if (C2_h[i] != (A1_h[i] - B1_h[i])) {
            std::fprintf(stderr, "Error at %zu: C2=%d, A1=%d, B1=%d\n", i, C2_h[i], A1_h[i], B1_h[i]);
            ret = false;
            break;
        }
    }
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A1_d), cudaSuccess);
    CHECK_EQ(cudaFree(B1_d), cudaSuccess);
    CHECK_EQ(cudaFree(C1_d), cudaSuccess);
    CHECK_EQ(cudaFree(C2_d), cudaSuccess);
    CHECK(ret == true);
}

static void ComplexGraph() {
    int *A_d, *B_d, *C_d, *D_d;
    std::vector<int> A_h(N), B_h(N), C_h(N), D_h(N);
    size_t Nbytes = N * sizeof(int);
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 2 * i;
        B_h[i] = 2 * i + 1;
    }
    cudaStream_t stream1, stream2, stream3, stream4;
    cudaEvent_t e1, e2, e3, e4;
    cudaGraph_t graph{nullptr};
    cudaGraphExec_t graphExec{nullptr};
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream3), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream4), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e2), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e3), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e4), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&D_d, Nbytes), cudaSuccess);
    // Capture Nodes from multiple streams
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
             cudaSuccess);
    // Capture all the other streams as well
    CHECK_EQ(cudaEventRecord(e1, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e1, 0), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream3, e1, 0), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream4, e1, 0), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(A_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(B_d, B_h.data(), Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
    CHECK_EQ(cudaMemsetAsync(C_d, 0, Nbytes, stream3), cudaSuccess);
    CHECK_EQ(cudaMemsetAsync(D_d, 0, Nbytes, stream4), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e1, stream1), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e2, stream2), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e3, stream3), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e2, 0), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e3, 0), cudaSuccess);
    vectorADD<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, C_d, N);
    CHECK_EQ(cudaStreamWaitEvent(stream4, e2, 0), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream4, e1, 0), cudaSuccess);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream4>>>(A_d, B_d, D_d, N);
    CHECK_EQ(cudaMemcpyAsync(C_h.data(), C_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(D_h.data(), D_d, Nbytes, cudaMemcpyDeviceToHost, stream4), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e4, stream4), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e4, 0), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream1), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == (A_h[i] + B_h[i]));
        CHECK(D_h[i] == (A_h[i] - B_h[i]));
    }
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream3), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream4), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e1), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e3), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e4), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK_EQ(cudaFree(D_d), cudaSuccess);
}

/* CaptureTwice (useSameAPI) and ModifyCloneGraph (clone): a first capture, then a capture into the graph (or
 * its clone) after its root nodes. */
static void CaptureTwice(bool useSameAPI) {
    int *A_d, *B_d, *C_d, *D_d;
    std::vector<int> A_h(N), B_h(N), C_h(N), D_h(N);
    size_t Nbytes = N * sizeof(int);
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 2 * i;
        B_h[i] = 2 * i + 1;
    }
    cudaStream_t stream1, stream2;
    cudaEvent_t e1, e2;
    cudaGraph_t graph{nullptr};
    cudaGraphExec_t graphExec{nullptr};
    if (useSameAPI) {
        CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    }
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e2), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&D_d, Nbytes), cudaSuccess);
    if (useSameAPI) {
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
                 cudaSuccess);
    } else {
        CHECK_EQ(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal), cudaSuccess);
    }
    CHECK_EQ(cudaEventRecord(e1, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e1, 0), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(A_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(B_d, B_h.data(), Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e2, stream2), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e2, 0), cudaSuccess);
    vectorADD<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, C_d, N);
    CHECK_EQ(cudaMemcpyAsync(C_h.data(), C_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    // Get the dependant nodes
    size_t numRootNodes = 0;
    CHECK_EQ(cudaGraphGetRootNodes(graph, nullptr, &numRootNodes), cudaSuccess);
    std::vector<cudaGraphNode_t> rootNodes(numRootNodes);
    CHECK_EQ(cudaGraphGetRootNodes(graph, rootNodes.data(), &numRootNodes), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, rootNodes.data(), nullptr, rootNodes.size(),
                                           cudaStreamCaptureModeGlobal),
             cudaSuccess);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, D_d, N);
    CHECK_EQ(cudaMemcpyAsync(D_h.data(), D_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream1), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == (A_h[i] + B_h[i]));
        CHECK(D_h[i] == (A_h[i] - B_h[i]));
    }
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e1), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK_EQ(cudaFree(D_d), cudaSuccess);
}

static void ModifyCloneGraph() {
    int *A_d, *B_d, *C_d, *D_d;
    std::vector<int> A_h(N), B_h(N), C_h(N), D_h(N);
    size_t Nbytes = N * sizeof(int);
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 2 * i;
        B_h[i] = 2 * i + 1;
    }
    cudaStream_t stream1, stream2;
    cudaEvent_t e1, e2;
    cudaGraph_t graph{nullptr};
    cudaGraphExec_t graphExec{nullptr};
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e2), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&D_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
             cudaSuccess);
    CHECK_EQ(cudaEventRecord(e1, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e1, 0), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(A_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(B_d, B_h.data(), Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e2, stream2), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e2, 0), cudaSuccess);
    vectorADD<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, C_d, N);
    CHECK_EQ(cudaMemcpyAsync(C_h.data(), C_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    // Clone the graph
    cudaGraph_t graphClone{nullptr};
    CHECK_EQ(cudaGraphClone(&graphClone, graph), cudaSuccess);
    size_t numRootNodes = 0;
    CHECK_EQ(cudaGraphGetRootNodes(graphClone, nullptr, &numRootNodes), cudaSuccess);
    std::vector<cudaGraphNode_t> rootNodes(numRootNodes);
    CHECK_EQ(cudaGraphGetRootNodes(graphClone, rootNodes.data(), &numRootNodes), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graphClone, rootNodes.data(), nullptr, rootNodes.size(),
                                           cudaStreamCaptureModeGlobal),
             cudaSuccess);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream1>>>(A_d, B_d, D_d, N);
    CHECK_EQ(cudaMemcpyAsync(D_h.data(), D_d, Nbytes, cudaMemcpyDeviceToHost, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graphClone), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graphClone, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream1), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == (A_h[i] + B_h[i]));
        CHECK(D_h[i] == (A_h[i] - B_h[i]));
    }
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e1), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graphClone), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK_EQ(cudaFree(D_d), cudaSuccess);
}

/* CaptureChildpGraph (modify false) and ModifyChildpGraph (modify true). */
static void ChildpGraph(bool modify) {
    int *A_d, *B_d, *C_d, *D_d;
    std::vector<int> A_h(N), B_h(N), C_h(N), D_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream;
    cudaGraph_t graph{nullptr}, graphChild{nullptr};
    cudaGraphNode_t memcpyNode1, memcpyNode2, memcpyNode3, kernelNode1;
    for (size_t i = 0; i < N; i++) {
        A_h[i] = i;
        B_h[i] = N - i - 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graphChild, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&D_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode1, graph, nullptr, 0, A_d, A_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode2, graph, nullptr, 0, B_d, B_h.data(), Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyNode3, graphChild, nullptr, 0, C_h.data(), C_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    size_t arrSize = N;
    void *kernelArgs[4] = {reinterpret_cast<void *>(&A_d), reinterpret_cast<void *>(&B_d),
                           reinterpret_cast<void *>(&C_d), &arrSize};
    cudaKernelNodeParams kernelNodeParams{};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks, 1, 1);
    kernelNodeParams.blockDim = dim3(threadsPerBlock, 1, 1);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs);
    kernelNodeParams.extra = nullptr;
    // Create the child graph node kernelNode1->memcpyNode3
    CHECK_EQ(cudaGraphAddKernelNode(&kernelNode1, graphChild, 0, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graphChild, &kernelNode1, &memcpyNode3, 1), cudaSuccess);
    // Add the graphChild to graph with dependencies
    std::vector<cudaGraphNode_t> dependncy;
    dependncy.push_back(memcpyNode1);
    dependncy.push_back(memcpyNode2);
    cudaGraphNode_t childGraphNode;
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode, graph, dependncy.data(), dependncy.size(), graphChild),
             cudaSuccess);
    if (modify) {
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(childGraphNode, &graphChild), cudaSuccess);
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, graphChild, nullptr, nullptr, 0,
                                               cudaStreamCaptureModeGlobal),
                 cudaSuccess);
        vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(A_d, B_d, D_d, N);
        CHECK_EQ(cudaMemcpyAsync(D_h.data(), D_d, Nbytes, cudaMemcpyDeviceToHost, stream), cudaSuccess);
        CHECK_EQ(cudaStreamEndCapture(stream, &graphChild), cudaSuccess);
    } else {
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, graph, dependncy.data(), nullptr, dependncy.size(),
                                               cudaStreamCaptureModeGlobal),
                 cudaSuccess);
        vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(A_d, B_d, D_d, N);
        CHECK_EQ(cudaMemcpyAsync(D_h.data(), D_d, Nbytes, cudaMemcpyDeviceToHost, stream), cudaSuccess);
        CHECK_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    }
    cudaGraphExec_t graphExec{nullptr};
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == (A_h[i] + B_h[i]));
        CHECK(D_h[i] == (A_h[i] - B_h[i]));
    }
    CHECK_EQ(cudaStreamDestroy(stream), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    if (!modify) {
        CHECK_EQ(cudaGraphDestroy(graphChild), cudaSuccess);
    }
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK_EQ(cudaFree(D_d), cudaSuccess);
}

static void Negative(int section) {
    cudaStream_t stream;
    cudaGraph_t graph{nullptr};
    CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    switch (section) {
    case 0: /* Null graph */
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, nullptr, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
                 cudaErrorInvalidValue);
        break;
    case 1: /* Null dependencies */
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 1, cudaStreamCaptureModeGlobal),
                 cudaErrorInvalidValue);
        break;
    case 2: /* Invalid mode */
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0,
                                               static_cast<cudaStreamCaptureMode>(-1)),
                 cudaErrorInvalidValue);
        break;
    default: { /* Capturing a stream already in Capture mode */
        cudaGraph_t graphLoc{nullptr};
        CHECK_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
        cudaError_t err =
            cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
        CHECK_EQ(err, cudaErrorIllegalState);
        CHECK_EQ(cudaStreamEndCapture(stream, &graphLoc), cudaSuccess);
        CHECK_EQ(cudaGraphDestroy(graphLoc), cudaSuccess);
    }
    }
    CHECK_EQ(cudaStreamDestroy(stream), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

static void StateTesting() {
    cudaStream_t stream1, stream2;
    cudaEvent_t e;
    cudaGraph_t graph{nullptr};
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e), cudaSuccess);
    cudaStreamCaptureStatus captureStatus = cudaStreamCaptureStatusNone;
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaStreamIsCapturing(stream1, &captureStatus), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusNone);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
             cudaSuccess);
    CHECK_EQ(cudaStreamIsCapturing(stream1, &captureStatus), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusActive);
    CHECK_EQ(cudaEventRecord(e, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e, 0), cudaSuccess);
    CHECK_EQ(cudaStreamIsCapturing(stream2, &captureStatus), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusActive);
    CHECK_EQ(cudaEventRecord(e, stream2), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e, 0), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    CHECK_EQ(cudaStreamIsCapturing(stream1, &captureStatus), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusNone);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

static void GetCaptureInfo() {
    cudaStream_t stream1, stream2;
    cudaEvent_t e;
    cudaGraph_t graph{nullptr};
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e), cudaSuccess);
    cudaStreamCaptureStatus captureStatus = cudaStreamCaptureStatusNone;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    unsigned long long id_before = 0, id_after = 0, id_strm1 = 0, id_strm2 = 0;
    CHECK_EQ(cudaStreamGetCaptureInfo(stream1, &captureStatus, &id_before), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusNone);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
             cudaSuccess);
    CHECK_EQ(cudaStreamGetCaptureInfo(stream1, &captureStatus, &id_strm1), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusActive);
    CHECK_EQ(cudaEventRecord(e, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream2, e, 0), cudaSuccess);
    CHECK_EQ(cudaStreamGetCaptureInfo(stream2, &captureStatus, &id_strm2), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusActive);
    CHECK_EQ(cudaEventRecord(e, stream2), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(stream1, e, 0), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(stream1, &graph), cudaSuccess);
    CHECK_EQ(cudaStreamGetCaptureInfo(stream1, &captureStatus, &id_after), cudaSuccess);
    CHECK(captureStatus == cudaStreamCaptureStatusNone);
    CHECK(id_strm1 == id_strm2);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

static void EndingWhileCaptureInProgress(int section) {
    cudaStream_t stream1, stream2;
    cudaGraph_t graph{nullptr};
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    size_t Nbytes = N * sizeof(int);
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    int *A_d, *B_d, *C_d;
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    std::vector<int> A_h(N);
    if (section == 0) { /* Abruptly end strm capture when in progress in forked strm */
        cudaEvent_t e;
        CHECK_EQ(cudaEventCreate(&e), cudaSuccess);
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
                 cudaSuccess);
        CHECK_EQ(cudaEventRecord(e, stream1), cudaSuccess);
        CHECK_EQ(cudaStreamWaitEvent(stream2, e, 0), cudaSuccess);
        CHECK_EQ(cudaMemcpyAsync(A_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
        CHECK(cudaSuccess == cudaStreamEndCapture(stream1, &graph));
        CHECK_EQ(cudaEventDestroy(e), cudaSuccess);
    } else { /* End strm capture when forked strm still has operations */
        cudaEvent_t e1, e2;
        CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
        CHECK_EQ(cudaEventCreate(&e2), cudaSuccess);
        CHECK_EQ(cudaStreamBeginCaptureToGraph(stream1, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal),
                 cudaSuccess);
        CHECK_EQ(cudaMemcpyAsync(A_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream1), cudaSuccess);
        CHECK_EQ(cudaEventRecord(e1, stream1), cudaSuccess);
        CHECK_EQ(cudaStreamWaitEvent(stream2, e1, 0), cudaSuccess);
        CHECK_EQ(cudaMemcpyAsync(B_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
        CHECK_EQ(cudaEventRecord(e2, stream2), cudaSuccess);
        CHECK_EQ(cudaStreamWaitEvent(stream1, e2, 0), cudaSuccess);
        CHECK_EQ(cudaMemcpyAsync(C_d, A_h.data(), Nbytes, cudaMemcpyHostToDevice, stream2), cudaSuccess);
        CHECK(cudaErrorStreamCaptureUnjoined == cudaStreamEndCapture(stream1, &graph));
        CHECK_EQ(cudaEventDestroy(e2), cudaSuccess);
        CHECK_EQ(cudaEventDestroy(e1), cudaSuccess);
    }
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
}

enum class strmFlag { defFlag, sameFlag, diffFlag, diffPrio };

static void MultipleFlags(strmFlag flag, bool verifyStreamSync) {
    int *A_d, *B_d, *C_d;
    std::vector<int> A_h(N), B_h(N), C_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream1, stream2;
    bool ret;
    cudaGraph_t graph{nullptr};
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 2 * i;
        B_h[i] = 2 * i + 1;
    }
    if (flag == strmFlag::sameFlag) {
        CHECK_EQ(cudaStreamCreateWithFlags(&stream1, cudaStreamNonBlocking), cudaSuccess);
        CHECK_EQ(cudaStreamCreateWithFlags(&stream2, cudaStreamNonBlocking), cudaSuccess);
    } else if (flag == strmFlag::diffFlag) {
        CHECK_EQ(cudaStreamCreateWithFlags(&stream1, cudaStreamNonBlocking), cudaSuccess);
        CHECK_EQ(cudaStreamCreateWithFlags(&stream2, cudaStreamDefault), cudaSuccess);
    } else if (flag == strmFlag::diffPrio) {
        int minPriority = 0, maxPriority = 0;
        CHECK_EQ(cudaDeviceGetStreamPriorityRange(&minPriority, &maxPriority), cudaSuccess);
        CHECK_EQ(cudaStreamCreateWithPriority(&stream1, cudaStreamDefault, minPriority), cudaSuccess);
        CHECK_EQ(cudaStreamCreateWithPriority(&stream2, cudaStreamDefault, maxPriority), cudaSuccess);
    } else {
        CHECK_EQ(cudaStreamCreateWithFlags(&stream1, cudaStreamDefault), cudaSuccess);
        CHECK_EQ(cudaStreamCreateWithFlags(&stream2, cudaStreamDefault), cudaSuccess);
    }
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    ret = CaptureStreamAndLaunchGraph(A_d, B_d, C_d, A_h.data(), B_h.data(), C_h.data(),
                                      cudaStreamCaptureModeGlobal, stream1, stream2, graph, verifyStreamSync);
    CHECK(ret == true);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
}

static void threadCaptureEnd(cudaStream_t *streamCapt, cudaGraph_t *graph, int *A_d, int *B_d, int *C_d, int *C_h,
                             size_t n) {
    size_t Nbytes = n * sizeof(int);
    vectorSUB<<<dim3(blocks), dim3(threadsPerBlock), 0, *streamCapt>>>(A_d, B_d, C_d, n);
    CHECK_EQ(cudaMemcpyAsync(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost, *streamCapt), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(*streamCapt, graph), cudaSuccess);
}

static void threadCaptureStart(cudaStream_t *streamCapt, cudaStream_t *streamFork, cudaGraph_t *graph, int *A_d,
                               int *B_d, int *C_d, int *A_h, int *B_h, size_t n) {
    size_t Nbytes = n * sizeof(int);
    cudaEvent_t e;
    CHECK_EQ(cudaEventCreate(&e), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(*streamCapt, *graph, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed),
             cudaSuccess);
    CHECK_EQ(cudaEventRecord(e, *streamCapt), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(*streamFork, e, 0), cudaSuccess);
    CHECK_EQ(cudaMemsetAsync(C_d, 0, Nbytes, *streamCapt), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(A_d, A_h, Nbytes, cudaMemcpyHostToDevice, *streamCapt), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(B_d, B_h, Nbytes, cudaMemcpyHostToDevice, *streamFork), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e, *streamFork), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(*streamCapt, e, 0), cudaSuccess);
}

static void CapturePartialInThreads() {
    int *A_d, *B_d, *C_d;
    std::vector<int> A_h(N), B_h(N), C_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream1, stream2;
    cudaGraph_t graph{nullptr};
    for (size_t i = 0; i < N; i++) {
        A_h[i] = i;
        B_h[i] = N - i - 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C_d, Nbytes), cudaSuccess);
    std::thread startCaptureThread(threadCaptureStart, &stream1, &stream2, &graph, A_d, B_d, C_d, A_h.data(),
                                   B_h.data(), N);
    startCaptureThread.join();
    std::thread endCaptureThread(threadCaptureEnd, &stream1, &graph, A_d, B_d, C_d, C_h.data(), N);
    endCaptureThread.join();
    cudaGraphExec_t graphExec{nullptr};
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK(graphExec != nullptr);
    CHECK_EQ(cudaGraphLaunch(graphExec, stream1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(stream1), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == (A_h[i] - B_h[i]));
    }
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaFree(B_d), cudaSuccess);
    CHECK_EQ(cudaFree(C_d), cudaSuccess);
}

static std::atomic<int> retValG(1);

static void threadCaptureExec(int *A_d, int *B_d, int *C_d, int *A_h, int *B_h, int *C_h, cudaStream_t *stream1,
                              cudaStream_t *stream2, cudaGraph_t *graph, bool verifyStreamSync) {
    /* STREAMSIM: the section is the argument (see the header). */
    bool ret = CaptureStreamAndLaunchGraph(A_d, B_d, C_d, A_h, B_h, C_h, cudaStreamCaptureModeRelaxed, *stream1,
                                           *stream2, *graph, verifyStreamSync);
    int val = 0;
    if (ret) {
        val = 1;
    }
    retValG.fetch_and(val);
}

static void IndepGraphsThreads(bool verifyStreamSync) {
    int *A1_d, *B1_d, *C1_d;
    std::vector<int> A1_h(N), B1_h(N), C1_h(N);
    int *A2_d, *B2_d, *C2_d;
    std::vector<int> A2_h(N), B2_h(N), C2_h(N);
    size_t Nbytes = N * sizeof(int);
    cudaStream_t stream1, stream2, stream3, stream4;
    cudaGraph_t graph1{nullptr}, graph2{nullptr};
    for (size_t i = 0; i < N; i++) {
        A2_h[i] = A1_h[i] = 2 * i;
        B2_h[i] = B1_h[i] = 2 * i + 1;
    }
    CHECK_EQ(cudaStreamCreate(&stream1), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream2), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream3), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&stream4), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph2, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C1_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A2_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&B2_d, Nbytes), cudaSuccess);
    CHECK_EQ(cudaMalloc(&C2_d, Nbytes), cudaSuccess);
    std::thread thread1(threadCaptureExec, A1_d, B1_d, C1_d, A1_h.data(), B1_h.data(), C1_h.data(), &stream1,
                        &stream2, &graph1, verifyStreamSync);
    std::thread thread2(threadCaptureExec, A2_d, B2_d, C2_d, A2_h.data(), B2_h.data(), C2_h.data(), &stream3,
                        &stream4, &graph2, verifyStreamSync);
    thread1.join();
    thread2.join();
    CHECK(retValG.load() == 1);
    CHECK_EQ(cudaStreamDestroy(stream1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream2), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream3), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(stream4), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph2), cudaSuccess);
    CHECK_EQ(cudaFree(A1_d), cudaSuccess);
    CHECK_EQ(cudaFree(B1_d), cudaSuccess);
    CHECK_EQ(cudaFree(C1_d), cudaSuccess);
    CHECK_EQ(cudaFree(A2_d), cudaSuccess);
    CHECK_EQ(cudaFree(B2_d), cudaSuccess);
    CHECK_EQ(cudaFree(C2_d), cudaSuccess);
    std::fprintf(stderr, "Unit_hipStreamBeginCaptureToGraph_IndepGraphsThreads\n");
}

int main() {
    for (int mode = 0; mode < 3; mode++) {
        BasicFunctional(mode, false);
        BasicFunctional(mode, true);
    }
    CaptureIndepGraph(false);
    CaptureIndepGraph(true);
    CaptureDepGraph();
    ComplexGraph();
    CaptureTwice(true);
    CaptureTwice(false);
    ModifyCloneGraph();
    ChildpGraph(false);
    ChildpGraph(true);
    for (int s = 0; s < 4; s++) Negative(s);
    StateTesting();
    GetCaptureInfo();
    EndingWhileCaptureInProgress(0);
    EndingWhileCaptureInProgress(1);
    for (strmFlag f : {strmFlag::defFlag, strmFlag::sameFlag, strmFlag::diffFlag, strmFlag::diffPrio}) {
        MultipleFlags(f, false);
        MultipleFlags(f, true);
    }
    CapturePartialInThreads();
    IndepGraphsThreads(false);
    IndepGraphsThreads(true);
    std::printf("hip-tests capture to graph: all checks passed\n");
    return 0;
}
