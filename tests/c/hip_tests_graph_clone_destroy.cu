/*
 * hip_tests_graph_clone_destroy.cu — ROCm hip-tests' catch/unit/graph/hipGraphClone.cc and hipGraphDestroyNode.cc
 * (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime
 * names (hipX → cudaX) and built by `streamsim cc` (the kernels run on the CPU): hipGraphClone's Negative and
 * Functional (3 sections), hipGraphDestroyNode's 6 test cases.
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each section is one run of its test's function here (a section number); the
 * three Complx_ChkNumOfNodesNDep test cases are one function with a variant. Changes, all marked STREAMSIM where
 * they are:
 *   - HIP_CHECK / REQUIRE become CHECK / CHECK_EQ; HipTest::initArrays / freeArrays / setNumBlocks /
 *     checkVectorADD and the kernels vectorADD and memsetReverse are written out here (the same computations and
 *     checks);
 *   - hipGraphClone_Func(true) adds a device-to-device copy node with hipMemcpyDeviceToHost: the Runtime API
 *     leaves a kind that does not match the pointers undefined and the simulator refuses it
 *     (cudaErrorInvalidValue, as for cudaMemcpy), so the port passes cudaMemcpyDeviceToDevice;
 *   - in hipGraphClone_Func(true) the copy of C_d to the host (memcpyD2H_C) and the new copy into C_d
 *     (memcpyD2D_C) both depend on the kernel only, so they are unordered: the race detector reports that read
 *     and write of C_d (printed; the exit status is 0; on a GPU they race too);
 *   - the device-context-change section needs two devices with peer access: the suite runs the program with
 *     STREAMSIM_DEVICES=2 (upstream skips without them);
 *   - Unit_hipGraphClone_MultiThreaded is AMD-only (#if HT_AMD: "hipGraphClone is failing in CUDA in multi
 *     threaded scenario so excluded for nvidia") and is left out.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2021 - 2022 Advanced Micro Devices, Inc. All rights reserved.
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

static void check_vector_add(const int *A, const int *B, const int *C, size_t N) {
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(C[i], A[i] + B[i]);
    }
}

/* ------------------------------------------------------------------ hipGraphClone.cc */

static void Clone_Negative(int section) {
    if (section == 0) { /* Passing nullptr to Cloned graph */
        cudaGraph_t graph;
        CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
        CHECK_EQ(cudaGraphClone(nullptr, graph), cudaErrorInvalidValue);
        CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    } else { /* Passing nullptr to original graph */
        cudaGraph_t clonedGraph;
        CHECK_EQ(cudaGraphClone(&clonedGraph, nullptr), cudaErrorInvalidValue);
    }
}

static void hipGraphClone_DeviceContextChange() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph, clonedgraph;
    cudaGraphExec_t graphExec;
    cudaStream_t streamForGraph;
    cudaGraphNode_t memcpyH2D_A, memcpyD2H_A;
    int *A_d{nullptr}, *A_h{nullptr}, *B_h{nullptr};
    init_arrays(&A_d, nullptr, nullptr, &A_h, &B_h, nullptr, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, B_h, A_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_A, 1), cudaSuccess);
    CHECK_EQ(cudaSetDevice(1), cudaSuccess);
    CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, clonedgraph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    for (size_t i = 0; i < N; i++) {
        CHECK_EQ(A_h[i], B_h[i]);
    }
    free_arrays(A_d, nullptr, nullptr, A_h, B_h, nullptr);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(clonedgraph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void hipGraphClone_Func(bool ModifyOrigGraph = false) {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph, clonedgraph;
    cudaGraphNode_t memset_A, memset_B, memsetKer_C;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C, memcpyD2D_C, memcpyD2H_C_new;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaGraphExec_t graphExec;
    cudaMemsetParams memsetParams{};
    int memsetVal{};
    size_t NElem{N};
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
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
    CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memset_B, &memcpyH2D_B, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memsetKer_C, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1), cudaSuccess);
    CHECK_EQ(cudaGraphClone(&clonedgraph, graph), cudaSuccess);
    if (ModifyOrigGraph) {
        /* STREAMSIM: cudaMemcpyDeviceToDevice for upstream's cudaMemcpyDeviceToHost (see the header). */
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2D_C, graph, nullptr, 0, C_d, B_d, Nbytes,
                                          cudaMemcpyDeviceToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C_new, graph, nullptr, 0, C_h, C_d, Nbytes,
                                          cudaMemcpyDeviceToHost),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2D_C, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyD2D_C, &memcpyD2H_C_new, 1), cudaSuccess);
        CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
        CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
        CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
        for (size_t i = 0; i < NElem; i++) {
            CHECK_EQ(C_h[i], B_h[i]);
        }
    }
    CHECK_EQ(cudaGraphInstantiate(&graphExec, clonedgraph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(A_h, B_h, C_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(clonedgraph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void Clone_Functional(int section) {
    if (section == 0) {
        hipGraphClone_Func();
    } else if (section == 1) {
        hipGraphClone_Func(true);
    } else { /* Device context change */
        int numDevices = 0;
        int canAccessPeer = 0;
        CHECK_EQ(cudaGetDeviceCount(&numDevices), cudaSuccess);
        /* STREAMSIM: the suite gives the program two devices with peer access; upstream skips without them. */
        CHECK(numDevices > 1);
        CHECK_EQ(cudaDeviceCanAccessPeer(&canAccessPeer, 0, 1), cudaSuccess);
        CHECK(canAccessPeer);
        hipGraphClone_DeviceContextChange();
        CHECK_EQ(cudaSetDevice(0), cudaSuccess);
    }
}

/* ------------------------------------------------------------------ hipGraphDestroyNode.cc */

#define NUM_OF_DUMMY_NODES 8

static __global__ void dummyKernel() { return; }

static void DestroyNode_Negative() {
    /* Passing nullptr to graph Node */
    CHECK_EQ(cudaGraphDestroyNode(nullptr), cudaErrorInvalidValue);
}

static void DestroyNode_BasicFunctionality() {
    char *pOutBuff_d{};
    constexpr size_t size = 1024;
    cudaGraph_t graph{};
    cudaGraphNode_t memsetNode{};
    CHECK_EQ(cudaMalloc(&pOutBuff_d, size), cudaSuccess);
    cudaMemsetParams memsetParams{};
    memsetParams.dst = reinterpret_cast<void *>(pOutBuff_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = size * sizeof(char);
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams), cudaSuccess);
    CHECK_EQ(cudaGraphDestroyNode(memsetNode), cudaSuccess);
    CHECK_EQ(cudaFree(pOutBuff_d), cudaSuccess);
}

static void DestroyNode_DestroyDependencyNode() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyH2D_B2Copies, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaGraphExec_t graphExec;
    size_t NElem{N};
    cudaStream_t streamForGraph;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B2Copies, graph, nullptr, 0, B_d, C_h, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, B_h, C_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    void *kernelArgs2[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_B2Copies, &kernel_vecAdd, 1), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroyNode(memcpyH2D_B), cudaSuccess);
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(A_h, C_h, B_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

/* A chain of NUM_OF_DUMMY_NODES dummy kernel nodes in `graph`. */
static void dummy_chain(cudaGraph_t graph, cudaGraphNode_t *kernelnode, cudaKernelNodeParams *kernelNodeParams) {
    for (int i = 0; i < NUM_OF_DUMMY_NODES; i++) {
        void *kernelArgs[] = {nullptr};
        kernelNodeParams[i].func = reinterpret_cast<void *>(dummyKernel);
        kernelNodeParams[i].gridDim = dim3(1);
        kernelNodeParams[i].blockDim = dim3(1);
        kernelNodeParams[i].sharedMemBytes = 0;
        kernelNodeParams[i].kernelParams = reinterpret_cast<void **>(kernelArgs);
        kernelNodeParams[i].extra = nullptr;
        CHECK_EQ(cudaGraphAddKernelNode(&kernelnode[i], graph, nullptr, 0, &kernelNodeParams[i]), cudaSuccess);
    }
    for (int i = 1; i < NUM_OF_DUMMY_NODES; i++) {
        CHECK_EQ(cudaGraphAddDependencies(graph, &kernelnode[i - 1], &kernelnode[i], 1), cudaSuccess);
    }
}

/* Complx_ChkNumOfNodesNDep (variant 0), _ClonedGrph (1), _ChldNode (2). */
static void DestroyNode_Complx(int variant) {
    cudaGraph_t graph, other;
    cudaGraphNode_t kernelnode[NUM_OF_DUMMY_NODES], childGraphNode;
    cudaKernelNodeParams kernelNodeParams[NUM_OF_DUMMY_NODES];
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    if (variant > 0) {
        CHECK_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
    }
    dummy_chain(graph, kernelnode, kernelNodeParams);
    if (variant == 1) {
        CHECK_EQ(cudaGraphClone(&other, graph), cudaSuccess);
    } else if (variant == 2) {
        CHECK_EQ(cudaGraphAddChildGraphNode(&childGraphNode, other, nullptr, 0, graph), cudaSuccess);
        CHECK_EQ(cudaGraphDestroyNode(childGraphNode), cudaSuccess);
    }
    cudaGraph_t shrinking = variant == 1 ? other : graph;
    size_t numOfNodes = 0, numOfDep = 0;
    for (size_t i = 0; i < (NUM_OF_DUMMY_NODES - 1); i++) {
        if (variant == 1) {
            cudaGraphNode_t node;
            CHECK_EQ(cudaGraphNodeFindInClone(&node, kernelnode[i], other), cudaSuccess);
            CHECK_EQ(cudaGraphDestroyNode(node), cudaSuccess);
        } else {
            CHECK_EQ(cudaGraphDestroyNode(kernelnode[i]), cudaSuccess);
        }
        CHECK_EQ(cudaGraphGetNodes(shrinking, nullptr, &numOfNodes), cudaSuccess);
        CHECK_EQ(numOfNodes, NUM_OF_DUMMY_NODES - i - 1);
        CHECK_EQ(cudaGraphGetEdges(shrinking, nullptr, nullptr, &numOfDep), cudaSuccess);
        CHECK_EQ(numOfDep, NUM_OF_DUMMY_NODES - i - 2);
    }
    if (variant == 0) {
        CHECK_EQ(cudaGraphDestroyNode(kernelnode[NUM_OF_DUMMY_NODES - 1]), cudaSuccess);
        CHECK_EQ(cudaGraphGetNodes(graph, nullptr, &numOfNodes), cudaSuccess);
        CHECK_EQ(numOfNodes, 0);
    } else if (variant == 1) {
        numOfNodes = 0;
        CHECK_EQ(cudaGraphGetNodes(graph, nullptr, &numOfNodes), cudaSuccess);
        CHECK_EQ(numOfNodes, NUM_OF_DUMMY_NODES);
        CHECK_EQ(cudaGraphDestroy(other), cudaSuccess);
    } else {
        CHECK_EQ(cudaGraphGetNodes(other, nullptr, &numOfNodes), cudaSuccess);
        CHECK_EQ(numOfNodes, 0);
    }
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    if (variant == 2) {
        CHECK_EQ(cudaGraphDestroy(other), cudaSuccess);
    }
}

int main() {
    Clone_Negative(0);
    Clone_Negative(1);
    for (int s = 0; s < 3; s++) Clone_Functional(s);
    DestroyNode_Negative();
    DestroyNode_BasicFunctionality();
    DestroyNode_DestroyDependencyNode();
    for (int v = 0; v < 3; v++) DestroyNode_Complx(v);
    std::printf("hip-tests graph clone and destroy node: all checks passed\n");
    return 0;
}
