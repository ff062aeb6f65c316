/*
 * hip_tests_graph_child.cu — child graph and clone tests of ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime names (hipX → cudaX) and built by
 * `streamsim cc` (the kernels run on the CPU): catch/unit/graph/hipGraphChildGraphNodeGetGraph.cc (Functional,
 * Negative), hipGraphNodeFindInClone.cc (Negative, Functional) and hipGraphExecChildGraphNodeSetParams.cc
 * (Negative, BasicFunc, ChildTopology).
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each section is one run of its test's function here (a section number).
 * Changes, all marked STREAMSIM where they are:
 *   - HIP_CHECK / REQUIRE become CHECK / CHECK_EQ of tests/c/check.h; HipTest::initArrays / freeArrays become
 *     init_arrays / free_arrays (cudaMalloc and malloc, the host arrays filled with distinct values);
 *     HipTest::setNumBlocks becomes the grid its formula gives on one multiprocessor;
 *   - the kernels HipTest::vectorADD and HipTest::memsetReverse are written out here (the same computation), and
 *     HipTest::checkVectorADD is check_vector_add (the same check);
 *   - the "uninitialized node" sections pass a handle no call made (0x1234) instead of an uninitialized
 *     variable, which C++ leaves undefined;
 *   - hipGraphNodeFindInClone_Func's memcpyD2D_C copies device to device with hipMemcpyDeviceToHost: the
 *     simulator refuses a kind that does not match the pointers (cudaErrorInvalidValue, as cudaMemcpy does), so
 *     the port passes cudaMemcpyDeviceToDevice;
 *   - the sections under #if HT_NVIDIA are kept (they give CUDA's answers); no section is AMD-only.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2023 Advanced Micro Devices, Inc. All rights reserved.
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

/* ------------------------------------------------------------------ hipGraphChildGraphNodeGetGraph.cc */

static void child_get_graph_functional() {
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
    cudaGraph_t Getgraph;
    CHECK_EQ(cudaGraphChildGraphNodeGetGraph(childGraphNode1, &Getgraph), cudaSuccess);
    // Instantiate and launch the child graph
    CHECK_EQ(cudaGraphInstantiate(&graphExec, Getgraph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    // Verify child graph execution result
    CHECK_EQ(cudaMemcpy(C_h, A_d, Nbytes, cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(A_h[i], C_h[i]);
    }
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void child_get_graph_negative(int section) {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1;
    int *A_d{nullptr}, *B_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, childGraphNode1;
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, childgraph1, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    cudaGraph_t Getgraph;
    switch (section) {
    case 0: /* nullptr to child node */
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(nullptr, &Getgraph), cudaErrorInvalidValue);
        break;
    case 1: /* nullptr to graph (HT_NVIDIA) */
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(childGraphNode1, nullptr), cudaErrorInvalidValue);
        break;
    case 2: /* Passing parent instead of child graph node (HT_NVIDIA) */
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(memcpyH2D_A, &Getgraph), cudaErrorInvalidValue);
        break;
    default: { /* Passing unintialized node (HT_NVIDIA); STREAMSIM: a handle no call made */
        cudaGraphNode_t unint_node = reinterpret_cast<cudaGraphNode_t>(0x1234);
        CHECK_EQ(cudaGraphChildGraphNodeGetGraph(unint_node, &Getgraph), cudaErrorInvalidValue);
    }
    }
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
}

/* ------------------------------------------------------------------ hipGraphNodeFindInClone.cc */

static void find_in_clone_negative(int section) {
    cudaGraph_t graph;
    cudaGraph_t clonedgraph;
    cudaGraphNode_t graphnode, newnode;
    cudaGraphNode_t clonedgraphnode;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    int *A_d, *A_h, *B_d, *B_h;
    init_arrays(&A_d, &B_d, nullptr, &A_h, &B_h, nullptr, 1024);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&graphnode, graph, nullptr, 0, A_d, A_h, 1024, cudaMemcpyHostToDevice),
             cudaSuccess);
    // Cloned the graph
    CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&newnode, graph, nullptr, 0, B_d, B_h, 1024, cudaMemcpyHostToDevice),
             cudaSuccess);
    switch (section) {
    case 0: /* Passing nullptr to Cloned graph */
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, graphnode, nullptr), cudaErrorInvalidValue);
        break;
    case 1: /* Passing nullptr to original graph */
        CHECK_EQ(cudaGraphNodeFindInClone(nullptr, graphnode, clonedgraph), cudaErrorInvalidValue);
        break;
    case 2: /* Passing nullptr to graph node */
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, nullptr, clonedgraph), cudaErrorInvalidValue);
        break;
    case 3: /* Pass uncloned graph (HT_NVIDIA) */
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, graphnode, graph), cudaErrorInvalidValue);
        break;
    case 4: /* Destroy the graph node and find in cloned graph (HT_NVIDIA) */
        CHECK_EQ(cudaGraphDestroyNode(graphnode), cudaSuccess);
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, graphnode, clonedgraph), cudaErrorInvalidValue);
        break;
    case 5: { /* Pass invalid original graphnode */
        cudaGraphNode_t unintialized_graphnode{nullptr};
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, unintialized_graphnode, graph), cudaErrorInvalidValue);
        break;
    }
    default: /* Find node in cloned graph which is only present in original graph */
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, newnode, clonedgraph), cudaErrorInvalidValue);
    }
    free_arrays(A_d, B_d, nullptr, A_h, B_h, nullptr);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(clonedgraph), cudaSuccess);
}

static void find_in_clone_func(bool ModifyOrigGraph = false) {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph, clonedgraph;
    cudaGraphNode_t memset_A, memset_B, memsetKer_C;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C, memcpyD2D_C, memcpyD2H_C_new;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaMemsetParams memsetParams{};
    int memsetVal{};
    size_t NElem{N};
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(B_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_B, graph, nullptr, 0, &memsetParams), cudaSuccess);
    void *kernelArgs1[] = {&C_d, &memsetVal, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(memsetReverse<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&memsetKer_C, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
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
    // Create dependencies
    CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memset_B, &memcpyH2D_B, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memsetKer_C, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1), cudaSuccess);
    if (ModifyOrigGraph) {
        // Cloned the graph
        CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
        // Modify Original graph by adding new dependency (STREAMSIM: cudaMemcpyDeviceToDevice, see the header)
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2D_C, graph, nullptr, 0, C_d, B_d, Nbytes,
                                          cudaMemcpyDeviceToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C_new, graph, nullptr, 0, C_h, C_d, Nbytes,
                                          cudaMemcpyDeviceToHost),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2D_C, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyD2D_C, &memcpyD2H_C_new, 1), cudaSuccess);
    }
    // Cloned the graph
    CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
    cudaGraphNode_t clonedgraphnode;
    if (ModifyOrigGraph) {
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, memcpyD2H_C_new, clonedgraph), cudaSuccess);
    } else {
        CHECK_EQ(cudaGraphNodeFindInClone(&clonedgraphnode, memcpyH2D_A, clonedgraph), cudaSuccess);
    }
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(clonedgraph), cudaSuccess);
}

/* ------------------------------------------------------------------ hipGraphExecChildGraphNodeSetParams.cc */

static void exec_child_set_params_negative(int section) {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1, childgraph2;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *B_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph2, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_A, memcpyH2D_B_child, childGraphNode1;
    CHECK_EQ(cudaMemcpy(C_d, C_h, Nbytes, cudaMemcpyHostToDevice), cudaSuccess);
    // Adding MemcpyNode to graph
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    // Adding memcpyNode to childgraph
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph1, nullptr, 0, B_d, A_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    // Adding childnode to graph
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    // Adding memcpynode to graph
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, B_h, B_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &childGraphNode1, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode1, &memcpyD2H_A, 1), cudaSuccess);
    // Adding memcpynode to new childgraph which is used to update the childgraph node
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B_child, childgraph2, nullptr, 0, B_d, C_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    // Instantiate and launch the graph
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    switch (section) {
    case 0: /* Pass nullptr to graphExec */
        CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(nullptr, childGraphNode1, childgraph2), cudaErrorInvalidValue);
        break;
    case 1: /* Pass nullptr to child graph node */
        CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(graphExec, nullptr, childgraph2), cudaErrorInvalidValue);
        break;
    case 2: /* Pass nullptr to child graph */
        CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(graphExec, childGraphNode1, nullptr), cudaErrorInvalidValue);
        break;
    case 3: /* Passing parent graph instead of child graph */
        CHECK(cudaGraphExecChildGraphNodeSetParams(graphExec, childGraphNode1, graph) != cudaSuccess);
        break;
    default: { /* Updating the child graph topology */
        cudaGraphNode_t newnode;
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&newnode, childgraph2, nullptr, 0, B_d, C_d, Nbytes,
                                          cudaMemcpyDeviceToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(childgraph2, &memcpyH2D_B_child, &newnode, 1), cudaSuccess);
        CHECK(cudaGraphExecChildGraphNodeSetParams(graphExec, childGraphNode1, childgraph2) != cudaSuccess);
    }
    }
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void exec_child_set_params_basic_func() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, childgraph1, childgraph2;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *B_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *B_h{nullptr}, *C_h{nullptr};
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph2, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_A, memcpyH2D_B_child, childGraphNode1;
    CHECK_EQ(cudaMemcpy(C_d, C_h, Nbytes, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph1, nullptr, 0, B_d, A_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, B_h, B_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &childGraphNode1, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode1, &memcpyD2H_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B_child, childgraph2, nullptr, 0, B_d, C_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    // Update the childgraph node
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(graphExec, childGraphNode1, childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    for (unsigned int i = 0; i < N; i++) {
        CHECK_EQ(B_h[i], C_h[i]);
    }
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

/* STREAMSIM: HipTest::checkVectorADD. */
static void check_vector_add(const int *A, const int *B, const int *C, size_t N) {
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(C[i], A[i] + B[i]);
    }
}

static void exec_child_set_params_child_topology() {
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
    std::vector<cudaGraphNode_t> childdependencies, childdependencies1;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyH2D_C, childGraphNode1, memcpyD2H_A, memcpyD2D_AB;
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph1, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&childgraph2, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2D_AB, childgraph1, nullptr, 0, B_d, A_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    childdependencies.push_back(memcpyD2D_AB);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, childgraph1, childdependencies.data(), childdependencies.size(),
                                      B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, childgraph1, childdependencies.data(), childdependencies.size(),
                                      C_d, C_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    childdependencies.clear();
    childdependencies.push_back(memcpyH2D_B);
    childdependencies.push_back(memcpyH2D_C);
    void *kernelArgs2[] = {&B_d, &C_d, &A_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd, childgraph1, childdependencies.data(), childdependencies.size(),
                                    &kernelNodeParams),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode1, graph, nullptr, 0, childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, A_h, A_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &childGraphNode1, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &childGraphNode1, &memcpyD2H_A, 1), cudaSuccess);
    // Another child graph with the same topology for the update
    cudaGraphNode_t memcpyD2D_AB1, memcpyH2D_B1, memcpyH2D_C1, kernel_vecAdd1;
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2D_AB1, childgraph2, nullptr, 0, B_d, A_d, Nbytes,
                                      cudaMemcpyDeviceToDevice),
             cudaSuccess);
    childdependencies.clear();
    childdependencies.push_back(memcpyD2D_AB1);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B1, childgraph2, childdependencies.data(), childdependencies.size(),
                                      B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_C1, childgraph2, childdependencies.data(), childdependencies.size(),
                                      C_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    childdependencies.clear();
    childdependencies.push_back(memcpyH2D_B1);
    childdependencies.push_back(memcpyH2D_C1);
    void *kernelArgs21[] = {&B_d, &C_d, &A_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs21);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd1, childgraph2, childdependencies.data(), childdependencies.size(),
                                    &kernelNodeParams),
             cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(graphExec, childGraphNode1, childgraph2), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(B_h, B_h, A_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(childgraph1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

int main() {
    child_get_graph_functional();
    for (int s = 0; s < 4; s++) child_get_graph_negative(s);
    for (int s = 0; s < 7; s++) find_in_clone_negative(s);
    find_in_clone_func();
    find_in_clone_func(true);
    for (int s = 0; s < 5; s++) exec_child_set_params_negative(s);
    exec_child_set_params_basic_func();
    exec_child_set_params_child_topology();
    std::printf("hip-tests graph child: all checks passed\n");
    return 0;
}
