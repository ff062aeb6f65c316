/*
 * hip_tests_graph_add_child.cu — ROCm hip-tests' catch/unit/graph/hipGraphAddChildGraphNode.cc
 * (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime
 * names (hipX → cudaX) and built by `streamsim cc` (the kernels run on the CPU): all 18 test cases, with the
 * nestedGraph class (a 3-level nested graph changed through cudaGraphChildGraphNodeGetGraph).
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each section is one run of its test's function here (a section number).
 * Changes, all marked STREAMSIM where they are:
 *   - HIP_CHECK / REQUIRE become CHECK / CHECK_EQ; HipTest::initArrays / freeArrays / setNumBlocks /
 *     checkVectorADD and the kernels vectorADD, memsetReverse, vector_square are written out here (the same
 *     computations and checks); HipTest::RAND_R is rand_r, seeded with 1 instead of time(nullptr) (the same
 *     values every run);
 *   - TEST_LOOP_SIZE is 5 instead of 50 (the kernels run on the CPU);
 *   - MultGraphsAsSingleGraph and CmplxNstGrph_MultGPU launch on streams they never create (an uninitialized
 *     hipStream_t, an array from new[] without initialization) and check the host results without waiting for
 *     the launch: here the streams are NULL (the legacy default stream) and a cudaStreamSynchronize of it
 *     precedes each check (without it the checks would read what a running copy writes, on a GPU too);
 *   - CmplxNstGrph_MultGPU runs on two devices (the suite sets STREAMSIM_DEVICES=2);
 *   - OrgGraphAsChildGraph adds the graph as its own child graph (CUDA answers success, as the simulator does
 *     now): the node's copies of the two memcpy nodes are not ordered with the originals (the edge between them
 *     is added after), so the launch has unordered copies into and out of B_d, which the race detector reports
 *     (printed; the exit status is 0; on a GPU they race too);
 *   - no section is AMD-only.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2022 Advanced Micro Devices, Inc. All rights reserved. Permission is
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
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(x)                                                                        \
    do {                                                                                \
        if (!(x)) {                                                                     \
            std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #x);      \
            std::exit(1);                                                               \
        }                                                                               \
    } while (0)
#define CHECK_EQ(a, b)                                                                                    \
    do {                                                                                                  \
        long long got_ = (long long)(a), want_ = (long long)(b);                                          \
        if (got_ != want_) {                                                                              \
            std::fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, __LINE__, #a, got_, want_); \
            std::exit(1);                                                                                 \
        }                                                                                                 \
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

template <typename T>
__global__ void vector_square(const T *A_d, T *C_d, size_t N_ELMTS) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < N_ELMTS; i += blockDim.x * gridDim.x) {
        C_d[i] = A_d[i] * A_d[i];
    }
}

template <typename T>
__global__ void memsetReverse(T *C_d, T val, int64_t NELEM) {
    size_t offset = blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = blockDim.x * gridDim.x;
    for (int64_t i = NELEM - stride + offset; i >= 0; i -= stride) {
        C_d[i] = val;
    }
}

/* STREAMSIM: HipTest::initArrays / freeArrays (not pinned). */
static void init_arrays(int **A_d, int **B_d, int **C_d, int **A_h, int **B_h, int **C_h, size_t N) {
    size_t Nbytes = N * sizeof(int);
    int **dev[3] = {A_d, B_d, C_d};
    int **host[3] = {A_h, B_h, C_h};
    for (int k = 0; k < 3; k++) {
        if (dev[k] != nullptr) {
            CHECK_EQ(cudaMalloc((void **)dev[k], Nbytes), cudaSuccess);
        }
        if (host[k] != nullptr) {
            *host[k] = (int *)std::malloc(Nbytes);
            CHECK(*host[k] != nullptr);
        }
    }
    for (size_t i = 0; i < N; i++) {
        if (A_h != nullptr) (*A_h)[i] = (int)(3.146f + i);
        if (B_h != nullptr) (*B_h)[i] = (int)(1.618f + i);
        if (C_h != nullptr) (*C_h)[i] = 0;
    }
}

static void free_arrays(int *A_d, int *B_d, int *C_d, int *A_h, int *B_h, int *C_h) {
    int *dev[3] = {A_d, B_d, C_d};
    int *host[3] = {A_h, B_h, C_h};
    for (int k = 0; k < 3; k++) {
        if (dev[k] != nullptr) CHECK_EQ(cudaFree(dev[k]), cudaSuccess);
        std::free(host[k]);
    }
}

/* STREAMSIM: HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N) on one multiprocessor. */
static unsigned set_num_blocks(unsigned blocksPerCU, unsigned threadsPerBlock, size_t N) {
    unsigned blocks = blocksPerCU;
    if ((size_t)blocks * threadsPerBlock > N) blocks = (unsigned)((N + threadsPerBlock - 1) / threadsPerBlock);
    return blocks;
}

#define TEST_LOOP_SIZE 5 /* STREAMSIM: 50 upstream */

static void check_vector_add(const int *A, const int *B, const int *C, size_t N) {
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(C[i], A[i] + B[i]);
    }
}

static void Negative(int section) {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1;
    int *A_d{nullptr}, *B_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr};
    init_arrays(&A_d, &B_d, nullptr, &A_h, &B_h, nullptr, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, childGraphNode1;
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph1, nullptr, 0, A_h, B_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    switch (section) {
    case 0: /* Pass nullptr to graph noe */
        CHECK_EQ(cudaGraphAddChildGraphNode(nullptr, graph, nullptr, 0, childgraph1), cudaErrorInvalidValue);
        break;
    case 1: /* Pass nullptr to graph */
        CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, nullptr, nullptr, 0, childgraph1),
                 cudaErrorInvalidValue);
        break;
    case 2: /* Pass nullptr to child graph */
        CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, nullptr), cudaErrorInvalidValue);
        break;
    default: /* Pass invalid depdencies */
        CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 10, childgraph1),
                 cudaErrorInvalidValue);
    }
}

static void OrgGraphAsChildGraph() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *B_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr};
    init_arrays(&A_d, &B_d, nullptr, &A_h, &B_h, nullptr, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, childGraphNode1;
    size_t numNodes;
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_h, B_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, graph), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_B, &memcpyH2D_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphGetNodes(graph, nullptr, &numNodes), cudaSuccess);
    CHECK_EQ(numNodes, 3);
    free_arrays(A_d, B_d, nullptr, A_h, B_h, nullptr);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void ExecuteChildGraph() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1;
    cudaGraphExec_t graphExec;
    int *B_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
    init_arrays(nullptr, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, childGraphNode1, memcpyH2D_C;
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph1, nullptr, 0, B_d, B_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph1, nullptr, 0, A_h, B_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, A_h, C_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph1, &memcpyH2D_B, &memcpyH2D_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, childgraph1, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(B_h[i], A_h[i]);
    }
    free_arrays(nullptr, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void CloneChildGraph() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1, clonedgraph;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *B_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr};
    init_arrays(&A_d, &B_d, nullptr, &A_h, &B_h, nullptr, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&clonedgraph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, childGraphNode1;
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph1, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_h, A_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode1, &memcpyH2D_B, 1), cudaSuccess);
    CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, clonedgraph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(B_h[i], A_h[i]);
    }
    free_arrays(A_d, B_d, nullptr, A_h, B_h, nullptr);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void MultipleChildNodes() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;
    size_t NElem{N};
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph, childgraph1, childgraph2;
    cudaGraphExec_t graphExec;
    cudaKernelNodeParams kernelNodeParams{};
    cudaGraphNode_t kernel_vecAdd;
    int *A_d{nullptr}, *B_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, childGraphNode1, childGraphNode2, memcpyD2H_C;
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph2, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph1, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph2, nullptr, 0, B_d, B_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode2, graph, nullptr, 0, childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, C_h, C_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    void *kernelArgs2[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode1, &childGraphNode2, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode2, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(A_h, B_h, C_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void SingleChildNode() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph;
    cudaGraphNode_t memset_A, memset_B, memsetKer_C;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaGraphExec_t graphExec;
    cudaMemsetParams memsetParams{};
    size_t NElem{N};
    int memsetVal{};
    cudaGraph_t childgraph;
    cudaGraphNode_t ChildGraphNode;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph, 0), cudaSuccess);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, childgraph, nullptr, 0, &memsetParams), cudaSuccess);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(B_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_B, childgraph, nullptr, 0, &memsetParams), cudaSuccess);
    void *kernelArgs1[] = {&C_d, &memsetVal, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(memsetReverse<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&memsetKer_C, childgraph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph, nullptr, 0, B_d, B_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, childgraph, nullptr, 0, C_h, C_d, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    void *kernelArgs2[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd, childgraph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &memset_A, &memcpyH2D_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &memset_B, &memcpyH2D_B, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &memcpyH2D_A, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &memcpyH2D_B, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &memsetKer_C, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(childgraph, &kernel_vecAdd, &memcpyD2H_C, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&ChildGraphNode, graph, nullptr, 0, childgraph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(A_h, B_h, C_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static __global__ void ker_vec_mul(int *A, int *B, int *C) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    C[i] = A[i] * B[i];
}

static __global__ void ker_vec_add(int *A, int *B) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    A[i] = A[i] + B[i];
}

static __global__ void ker_vec_sub(int *A, int *B) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    A[i] = A[i] - B[i];
}

static __global__ void ker_vec_sqr(int *A, int *B) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    A[i] = B[i] * B[i];
}

enum class updateGraphNodeTests {
    normalTest,
    updateFunKerNodParamTest,
    updateGrdBlkParamTest,
    deleteAddNewKerNodTest,
    addAnotherChildNodeTest
};

/* Internal class for creating nested graphs. */
class nestedGraph {
    const int const_val1 = 11;
    const int const_val2 = 7;
    const int N = 1024;
    size_t Nbytes;
    const int threadsPerBlock = 256;
    const int blocks = (N / threadsPerBlock);
    const int threadsPerBlockUpd = 128;
    const int blocksUpd = (N / threadsPerBlockUpd);
    cudaGraphNode_t memset_B1, memset_B2;
    cudaGraphNode_t memcpyH2D_A1, memcpyH2D_A2, memcpyD2H_A3;
    cudaGraphNode_t vec_mul1, vec_mul2, vec_add, vec_sqr, vec_sub;
    cudaGraphNode_t child_node1, child_node2, child_node3;
    cudaGraph_t graph[4];
    cudaKernelNodeParams kerNodeParams1{}, kerNodeParams2{}, kerNodeParams3{}, kerNodeParams4{};
    int *A1_d, *A2_d, *A1_h, *A2_h, *A3_h;
    int *B1_d, *B2_d, *C1_d, *C2_d;
    cudaMemsetParams memsetParams{};
    cudaEvent_t eventstart, eventend;
    cudaGraphNode_t event_start, event_final;

  public:
    nestedGraph() {
        Nbytes = N * sizeof(int);
        CHECK_EQ(cudaMalloc(&A1_d, Nbytes), cudaSuccess);
        CHECK_EQ(cudaMalloc(&A2_d, Nbytes), cudaSuccess);
        CHECK_EQ(cudaMalloc(&B1_d, Nbytes), cudaSuccess);
        CHECK_EQ(cudaMalloc(&B2_d, Nbytes), cudaSuccess);
        CHECK_EQ(cudaMalloc(&C1_d, Nbytes), cudaSuccess);
        CHECK_EQ(cudaMalloc(&C2_d, Nbytes), cudaSuccess);
        A1_h = reinterpret_cast<int *>(std::malloc(Nbytes));
        CHECK(A1_h != nullptr);
        A2_h = reinterpret_cast<int *>(std::malloc(Nbytes));
        CHECK(A2_h != nullptr);
        A3_h = reinterpret_cast<int *>(std::malloc(Nbytes));
        CHECK(A3_h != nullptr);
        for (int k = 0; k < 4; k++) {
            CHECK_EQ(cudaGraphCreate(&graph[k], 0), cudaSuccess);
        }
        void *kernelArgs1[] = {&A1_d, &B1_d, &C1_d};
        kerNodeParams1.func = reinterpret_cast<void *>(ker_vec_mul);
        kerNodeParams1.gridDim = dim3(blocks);
        kerNodeParams1.blockDim = dim3(threadsPerBlock);
        kerNodeParams1.sharedMemBytes = 0;
        kerNodeParams1.kernelParams = reinterpret_cast<void **>(kernelArgs1);
        kerNodeParams1.extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&vec_mul1, graph[2], nullptr, 0, &kerNodeParams1), cudaSuccess);
        void *kernelArgs2[] = {&A2_d, &B2_d, &C2_d};
        kerNodeParams2.func = reinterpret_cast<void *>(ker_vec_mul);
        kerNodeParams2.gridDim = dim3(blocks);
        kerNodeParams2.blockDim = dim3(threadsPerBlock);
        kerNodeParams2.sharedMemBytes = 0;
        kerNodeParams2.kernelParams = reinterpret_cast<void **>(kernelArgs2);
        kerNodeParams2.extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&vec_mul2, graph[2], nullptr, 0, &kerNodeParams2), cudaSuccess);
        void *kernelArgs3[] = {&C1_d, &C2_d};
        kerNodeParams3.func = reinterpret_cast<void *>(ker_vec_add);
        kerNodeParams3.gridDim = dim3(blocks);
        kerNodeParams3.blockDim = dim3(threadsPerBlock);
        kerNodeParams3.sharedMemBytes = 0;
        kerNodeParams3.kernelParams = reinterpret_cast<void **>(kernelArgs3);
        kerNodeParams3.extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&vec_add, graph[2], nullptr, 0, &kerNodeParams3), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[2], &vec_mul1, &vec_add, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[2], &vec_mul2, &vec_add, 1), cudaSuccess);
        std::memset(&memsetParams, 0, sizeof(memsetParams));
        memsetParams.dst = reinterpret_cast<void *>(B1_d);
        memsetParams.value = const_val1;
        memsetParams.pitch = 0;
        memsetParams.elementSize = sizeof(int);
        memsetParams.width = N;
        memsetParams.height = 1;
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_B1, graph[1], nullptr, 0, &memsetParams), cudaSuccess);
        std::memset(&memsetParams, 0, sizeof(memsetParams));
        memsetParams.dst = reinterpret_cast<void *>(B2_d);
        memsetParams.value = const_val2;
        memsetParams.pitch = 0;
        memsetParams.elementSize = sizeof(int);
        memsetParams.width = N;
        memsetParams.height = 1;
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_B2, graph[1], nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddChildGraphNode(&child_node1, graph[1], nullptr, 0, graph[2]), cudaSuccess);
        void *kernelArgs4[] = {&C1_d, &C1_d};
        kerNodeParams3.func = reinterpret_cast<void *>(ker_vec_sqr);
        kerNodeParams3.gridDim = dim3(blocks);
        kerNodeParams3.blockDim = dim3(threadsPerBlock);
        kerNodeParams3.sharedMemBytes = 0;
        kerNodeParams3.kernelParams = reinterpret_cast<void **>(kernelArgs4);
        kerNodeParams3.extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&vec_sqr, graph[1], nullptr, 0, &kerNodeParams3), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[1], &memset_B1, &child_node1, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[1], &memset_B2, &child_node1, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[1], &child_node1, &vec_sqr, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A1, graph[0], nullptr, 0, A1_d, A1_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A2, graph[0], nullptr, 0, A2_d, A2_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A3, graph[0], nullptr, 0, A3_h, C1_d, Nbytes,
                                          cudaMemcpyDeviceToHost),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddChildGraphNode(&child_node2, graph[0], nullptr, 0, graph[1]), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[0], &memcpyH2D_A1, &child_node2, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[0], &memcpyH2D_A2, &child_node2, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph[0], &child_node2, &memcpyD2H_A3, 1), cudaSuccess);
    }
    void fillRandInpData() {
        unsigned int seed = 1; /* STREAMSIM: time(nullptr) upstream */
        for (int i = 0; i < N; i++) {
            A1_h[i] = (rand_r(&seed) & 0xFF);
            A2_h[i] = (rand_r(&seed) & 0xFF);
        }
    }
    cudaGraph_t *getRootGraph() { return &graph[0]; }
    void updateInnermostNode(updateGraphNodeTests updatetype) {
        cudaGraph_t embGraph1, embGraph2;
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(child_node2, &embGraph2), cudaSuccess);
        size_t numNodes{};
        CHECK_EQ(cudaGraphGetNodes(embGraph2, nullptr, &numNodes), cudaSuccess);
        cudaGraphNode_t *nodes = reinterpret_cast<cudaGraphNode_t *>(std::malloc(numNodes * sizeof(cudaGraphNode_t)));
        CHECK_EQ(cudaGraphGetNodes(embGraph2, nodes, &numNodes), cudaSuccess);
        size_t nodeIdx = 0;
        for (size_t idx = 0; idx < numNodes; idx++) {
            cudaGraphNodeType nodeType;
            CHECK_EQ(cudaGraphNodeGetType(nodes[idx], &nodeType), cudaSuccess);
            if (nodeType == cudaGraphNodeTypeGraph) {
                nodeIdx = idx;
                break;
            }
        }
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(nodes[nodeIdx], &embGraph1), cudaSuccess);
        std::free(nodes);
        numNodes = 0;
        CHECK_EQ(cudaGraphGetNodes(embGraph1, nullptr, &numNodes), cudaSuccess);
        nodes = reinterpret_cast<cudaGraphNode_t *>(std::malloc(numNodes * sizeof(cudaGraphNode_t)));
        CHECK_EQ(cudaGraphGetNodes(embGraph1, nodes, &numNodes), cudaSuccess);
        nodeIdx = 0;
        cudaKernelNodeParams nodeParam;
        for (size_t idx = 0; idx < numNodes; idx++) {
            cudaGraphNodeType nodeType;
            CHECK_EQ(cudaGraphNodeGetType(nodes[idx], &nodeType), cudaSuccess);
            if (nodeType == cudaGraphNodeTypeKernel) {
                CHECK_EQ(cudaGraphKernelNodeGetParams(nodes[idx], &nodeParam), cudaSuccess);
                if (nodeParam.func == reinterpret_cast<void *>(ker_vec_add)) {
                    nodeIdx = idx;
                    break;
                }
            }
        }
        if (updatetype == updateGraphNodeTests::updateFunKerNodParamTest) {
            nodeParam.func = reinterpret_cast<void *>(ker_vec_sub);
            CHECK_EQ(cudaGraphKernelNodeSetParams(nodes[nodeIdx], &nodeParam), cudaSuccess);
        } else if (updatetype == updateGraphNodeTests::deleteAddNewKerNodTest) {
            CHECK_EQ(cudaGraphDestroyNode(nodes[nodeIdx]), cudaSuccess);
            void *kernelArgs[] = {&C1_d, &C2_d};
            kerNodeParams3.func = reinterpret_cast<void *>(ker_vec_sub);
            kerNodeParams3.gridDim = dim3(blocks);
            kerNodeParams3.blockDim = dim3(threadsPerBlock);
            kerNodeParams3.sharedMemBytes = 0;
            kerNodeParams3.kernelParams = reinterpret_cast<void **>(kernelArgs);
            kerNodeParams3.extra = nullptr;
            CHECK_EQ(cudaGraphAddKernelNode(&vec_sub, embGraph1, nullptr, 0, &kerNodeParams3), cudaSuccess);
            for (size_t idx = 0; idx < numNodes; idx++) {
                if (idx == nodeIdx) {
                    continue;
                }
                CHECK_EQ(cudaGraphAddDependencies(embGraph1, &nodes[idx], &vec_sub, 1), cudaSuccess);
            }
        } else if (updatetype == updateGraphNodeTests::updateGrdBlkParamTest) {
            nodeParam.blockDim = threadsPerBlockUpd;
            nodeParam.gridDim = blocksUpd;
            CHECK_EQ(cudaGraphKernelNodeSetParams(nodes[nodeIdx], &nodeParam), cudaSuccess);
        } else if (updatetype == updateGraphNodeTests::addAnotherChildNodeTest) {
            CHECK_EQ(cudaGraphDestroyNode(nodes[nodeIdx]), cudaSuccess);
            void *kernelArgs[] = {&C1_d, &C2_d};
            kerNodeParams3.func = reinterpret_cast<void *>(ker_vec_sub);
            kerNodeParams3.gridDim = dim3(blocks);
            kerNodeParams3.blockDim = dim3(threadsPerBlock);
            kerNodeParams3.sharedMemBytes = 0;
            kerNodeParams3.kernelParams = reinterpret_cast<void **>(kernelArgs);
            kerNodeParams3.extra = nullptr;
            CHECK_EQ(cudaGraphAddKernelNode(&vec_sub, graph[3], nullptr, 0, &kerNodeParams3), cudaSuccess);
            CHECK_EQ(cudaEventCreate(&eventstart), cudaSuccess);
            CHECK_EQ(cudaEventCreate(&eventend), cudaSuccess);
            CHECK_EQ(cudaGraphAddEventRecordNode(&event_start, graph[3], nullptr, 0, eventstart), cudaSuccess);
            CHECK_EQ(cudaGraphAddEventRecordNode(&event_final, graph[3], nullptr, 0, eventend), cudaSuccess);
            CHECK_EQ(cudaGraphAddDependencies(graph[3], &event_start, &vec_sub, 1), cudaSuccess);
            CHECK_EQ(cudaGraphAddDependencies(graph[3], &vec_sub, &event_final, 1), cudaSuccess);
            CHECK_EQ(cudaGraphAddChildGraphNode(&child_node3, embGraph1, nullptr, 0, graph[3]), cudaSuccess);
            for (size_t idx = 0; idx < numNodes; idx++) {
                if (idx == nodeIdx) {
                    continue;
                }
                CHECK_EQ(cudaGraphAddDependencies(embGraph1, &nodes[idx], &child_node3, 1), cudaSuccess);
            }
        }
        std::free(nodes);
    }
    void validateOutData(updateGraphNodeTests updatetype) {
        if ((updatetype == updateGraphNodeTests::normalTest) ||
            (updatetype == updateGraphNodeTests::updateGrdBlkParamTest)) {
            for (int i = 0; i < N; i++) {
                int result = (const_val1 * A1_h[i] + const_val2 * A2_h[i]);
                result = result * result;
                CHECK_EQ(result, A3_h[i]);
            }
        } else if ((updatetype == updateGraphNodeTests::deleteAddNewKerNodTest) ||
                   (updatetype == updateGraphNodeTests::updateFunKerNodParamTest) ||
                   (updatetype == updateGraphNodeTests::addAnotherChildNodeTest)) {
            for (int i = 0; i < N; i++) {
                int result = (const_val1 * A1_h[i] - const_val2 * A2_h[i]);
                result = result * result;
                CHECK_EQ(result, A3_h[i]);
            }
        }
    }
    ~nestedGraph() {
        CHECK_EQ(cudaFree(C2_d), cudaSuccess);
        CHECK_EQ(cudaFree(C1_d), cudaSuccess);
        CHECK_EQ(cudaFree(B2_d), cudaSuccess);
        CHECK_EQ(cudaFree(B1_d), cudaSuccess);
        CHECK_EQ(cudaFree(A2_d), cudaSuccess);
        CHECK_EQ(cudaFree(A1_d), cudaSuccess);
        std::free(A3_h);
        std::free(A2_h);
        std::free(A1_h);
        CHECK_EQ(cudaGraphDestroy(graph[3]), cudaSuccess);
        CHECK_EQ(cudaGraphDestroy(graph[2]), cudaSuccess);
        CHECK_EQ(cudaGraphDestroy(graph[1]), cudaSuccess);
        CHECK_EQ(cudaGraphDestroy(graph[0]), cudaSuccess);
    }
};
typedef nestedGraph clNestedGraph;

/* Cmplx_NestedGraphs (clone false) and CmplxClone_NestedGraphs (clone true). */
static void NestedGraphs(bool clone) {
    cudaGraph_t *graph, clonedGraph;
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    class nestedGraph nestedGraphObj;
    graph = nestedGraphObj.getRootGraph();
    if (clone) {
        CHECK_EQ(cudaGraphClone(&clonedGraph, *graph), cudaSuccess);
    }
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, clone ? clonedGraph : (*graph), nullptr, nullptr, 0), cudaSuccess);
    for (int iter = 0; iter < TEST_LOOP_SIZE; iter++) {
        nestedGraphObj.fillRandInpData();
        CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
        CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
        nestedGraphObj.validateOutData(updateGraphNodeTests::normalTest);
    }
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    if (clone) {
        CHECK_EQ(cudaGraphDestroy(clonedGraph), cudaSuccess);
    }
}

static void EmptyGraphAsChildNode() {
    cudaGraph_t graph, graphChild;
    cudaGraphNode_t child_node;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graphChild, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&child_node, graph, nullptr, 0, graphChild), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graphChild), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

/* The CmplxNstGrph tests: the innermost graph changed by `update`, then (with `clone`) the graph cloned; the
 * (cloned) graph launched and checked. UpdKerFun, UpdKerFun_Clone, UpdKerDim, DelAddNode, AddNode_Clone,
 * AddChdNode and AddChdNode_Clone (the last two change the graph as DelAddNode does, as upstream). */
static void Updated(updateGraphNodeTests update, bool clone) {
    cudaGraph_t *graph, clonedGraph;
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    class nestedGraph nestedGraphObj;
    graph = nestedGraphObj.getRootGraph();
    nestedGraphObj.updateInnermostNode(update);
    if (clone) {
        CHECK_EQ(cudaGraphClone(&clonedGraph, *graph), cudaSuccess);
    }
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, clone ? clonedGraph : (*graph), nullptr, nullptr, 0), cudaSuccess);
    nestedGraphObj.fillRandInpData();
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    nestedGraphObj.validateOutData(update);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    if (clone) {
        CHECK_EQ(cudaGraphDestroy(clonedGraph), cudaSuccess);
    }
}

static void validateResults(int *A1_h, int *A2_h, size_t N) {
    for (size_t i = 0; i < N; i++) {
        int result = (A1_h[i] * A1_h[i]);
        CHECK_EQ(result, A2_h[i]);
    }
}

static void MultGraphsAsSingleGraph() {
    size_t size = 1024;
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, size);
    cudaGraph_t graph1, graph2, graph3, graph4;
    std::vector<cudaGraphNode_t> nodeDependencies;
    CHECK_EQ(cudaGraphCreate(&graph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph2, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph3, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&graph4, 0), cudaSuccess);
    int *in_d[3], *in_h[3], *out_h[3], *out_d[3];
    for (int k = 0; k < 3; k++) {
        init_arrays(&in_d[k], &out_d[k], nullptr, &in_h[k], &out_h[k], nullptr, size);
    }
    cudaGraphNode_t memcpyH2D[3], vecSqr[3], memcpyD2H[3];
    cudaGraphNode_t childGraphNode1, childGraphNode2, childGraphNode3;
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D[k], graph1, nullptr, 0, in_d[k], in_h[k], (sizeof(int) * size),
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
    }
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph4, nullptr, 0, graph1), cudaSuccess);
    nodeDependencies.clear();
    nodeDependencies.push_back(childGraphNode1);
    cudaKernelNodeParams kerNodeParams[3]{};
    void *kernelArgs[3][3];
    for (int k = 0; k < 3; k++) {
        kernelArgs[k][0] = reinterpret_cast<void *>(&in_d[k]);
        kernelArgs[k][1] = reinterpret_cast<void *>(&out_d[k]);
        kernelArgs[k][2] = reinterpret_cast<void *>(&size);
        kerNodeParams[k].func = reinterpret_cast<void *>(vector_square<int>);
        kerNodeParams[k].gridDim = dim3(blocks);
        kerNodeParams[k].blockDim = dim3(threadsPerBlock);
        kerNodeParams[k].sharedMemBytes = 0;
        kerNodeParams[k].kernelParams = reinterpret_cast<void **>(kernelArgs[k]);
        kerNodeParams[k].extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&vecSqr[k], graph2, nullptr, 0, &kerNodeParams[k]), cudaSuccess);
    }
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode2, graph4, nodeDependencies.data(), nodeDependencies.size(),
                                        graph2),
             cudaSuccess);
    nodeDependencies.clear();
    nodeDependencies.push_back(childGraphNode2);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H[k], graph3, nullptr, 0, out_h[k], out_d[k],
                                          (sizeof(int) * size), cudaMemcpyDeviceToHost),
                 cudaSuccess);
    }
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode3, graph4, nodeDependencies.data(), nodeDependencies.size(),
                                        graph3),
             cudaSuccess);
    nodeDependencies.clear();
    cudaStream_t streamForGraph = nullptr; /* STREAMSIM: never created upstream (see the header) */
    cudaGraphExec_t graphExec{nullptr};
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph4, nullptr, nullptr, 0), cudaSuccess);
    for (int iter = 0; iter < TEST_LOOP_SIZE; iter++) {
        unsigned int seed = 1; /* STREAMSIM: time(nullptr) upstream */
        for (size_t i = 0; i < size; i++) {
            for (int k = 0; k < 3; k++) {
                in_h[k][i] = (rand_r(&seed) & 0xFF);
            }
        }
        CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
        CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess); /* STREAMSIM (see the header) */
        for (int k = 0; k < 3; k++) {
            validateResults(in_h[k], out_h[k], size);
        }
    }
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    for (int k = 0; k < 3; k++) {
        free_arrays(in_d[k], out_d[k], nullptr, in_h[k], out_h[k], nullptr);
    }
    CHECK_EQ(cudaGraphDestroy(graph4), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph3), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph1), cudaSuccess);
}

static void CmplxNstGrph_MultGPU() {
    int devcount = 0;
    CHECK_EQ(cudaGetDeviceCount(&devcount), cudaSuccess);
    CHECK(devcount >= 2); /* STREAMSIM: the suite gives the program two devices; upstream skips with one */
    cudaGraph_t **graph = new cudaGraph_t *[devcount]();
    cudaStream_t *streamForGraph = new cudaStream_t[devcount](); /* STREAMSIM: NULL streams (see the header) */
    cudaGraphExec_t *graphExec = new cudaGraphExec_t[devcount];
    clNestedGraph **nestedGraphObj = new clNestedGraph *[devcount]();
    for (int dev = 0; dev < devcount; dev++) {
        CHECK_EQ(cudaSetDevice(dev), cudaSuccess);
        nestedGraphObj[dev] = new clNestedGraph();
        graph[dev] = nestedGraphObj[dev]->getRootGraph();
        CHECK_EQ(cudaGraphInstantiate(&graphExec[dev], *(graph[dev]), nullptr, nullptr, 0), cudaSuccess);
    }
    for (int dev = 0; dev < devcount; dev++) {
        CHECK_EQ(cudaSetDevice(dev), cudaSuccess);
        nestedGraphObj[dev]->fillRandInpData();
        CHECK_EQ(cudaGraphLaunch(graphExec[dev], streamForGraph[dev]), cudaSuccess);
    }
    for (int dev = 0; dev < devcount; dev++) {
        CHECK_EQ(cudaSetDevice(dev), cudaSuccess);
        CHECK_EQ(cudaStreamSynchronize(streamForGraph[dev]), cudaSuccess); /* STREAMSIM (see the header) */
        nestedGraphObj[dev]->validateOutData(updateGraphNodeTests::normalTest);
    }
    for (int dev = 0; dev < devcount; dev++) {
        CHECK_EQ(cudaGraphExecDestroy(graphExec[dev]), cudaSuccess);
        delete nestedGraphObj[dev];
    }
    delete[] nestedGraphObj;
    delete[] graphExec;
    delete[] streamForGraph;
    delete[] graph;
    CHECK_EQ(cudaSetDevice(0), cudaSuccess);
}

int main() {
    for (int s = 0; s < 4; s++) Negative(s);
    OrgGraphAsChildGraph();
    ExecuteChildGraph();
    CloneChildGraph();
    MultipleChildNodes();
    SingleChildNode();
    NestedGraphs(false);
    NestedGraphs(true);
    EmptyGraphAsChildNode();
    Updated(updateGraphNodeTests::updateFunKerNodParamTest, false);
    Updated(updateGraphNodeTests::updateFunKerNodParamTest, true);
    Updated(updateGraphNodeTests::updateGrdBlkParamTest, false);
    Updated(updateGraphNodeTests::deleteAddNewKerNodTest, false);
    Updated(updateGraphNodeTests::deleteAddNewKerNodTest, true);
    Updated(updateGraphNodeTests::deleteAddNewKerNodTest, false);
    Updated(updateGraphNodeTests::deleteAddNewKerNodTest, true);
    MultGraphsAsSingleGraph();
    CmplxNstGrph_MultGPU();
    std::printf("hip-tests graph add child: all checks passed\n");
    return 0;
}
