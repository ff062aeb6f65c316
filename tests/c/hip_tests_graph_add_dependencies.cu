/*
 * hip_tests_graph_add_dependencies.cu — ROCm hip-tests' catch/unit/graph/hipGraphAddDependencies.cc with the
 * graphNodesCommon helper of graph_dependency_common.hh (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime names (hipX → cudaX) and built by
 * `streamsim cc` (the kernels run on the CPU): Positive_Functional, Positive_Parameters, Negative_Parameters.
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each section is one run of its test's function here (a section number; the two
 * "belongs to different graph" sections share their code, with the graphs swapped). Changes, all marked
 * STREAMSIM where they are:
 *   - HIP_CHECK / HIP_CHECK_ERROR / REQUIRE become CHECK / CHECK_EQ; HipTest::initArrays / freeArrays /
 *     setNumBlocks / checkVectorADD and the kernels vectorADD and memsetReverse are written out here (the same
 *     computations and checks);
 *   - the node handles some sections use without setting them (uninitialized upstream, which C++ leaves
 *     undefined) are a handle no call made (0x1234); "numDependencies > To/From length" reads a third entry
 *     past upstream's two-entry arrays: here the arrays have a third entry, a handle no call made;
 *   - no section is AMD-only.
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

/* graph_dependency_common.hh's graphNodesCommon. */
template <typename T>
static void graphNodesCommon(cudaGraph_t &graph, T *hostMem1, T *devMem1, T *hostMem2, T *devMem2, T *hostMem3,
                             T *devMem3, size_t N, std::vector<cudaGraphNode_t> &from,
                             std::vector<cudaGraphNode_t> &to, std::vector<cudaGraphNode_t> &nodelist) {
    size_t Nbytes = N * sizeof(T);
    constexpr auto blocksPerCU = 6;
    constexpr auto threadsPerBlock = 256;
    cudaGraphNode_t memset_A, memset_B, memsetKer_C;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    cudaMemsetParams memsetParams{};
    int memsetVal{};
    size_t NElem{N};
    unsigned blocks = set_num_blocks(blocksPerCU, threadsPerBlock, N);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(devMem1);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(T);
    memsetParams.width = N;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
    from.push_back(memset_A);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(devMem2);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(T);
    memsetParams.width = N;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_B, graph, nullptr, 0, &memsetParams), cudaSuccess);
    from.push_back(memset_B);
    void *kernelArgs1[] = {&devMem3, &memsetVal, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(memsetReverse<uint32_t>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&memsetKer_C, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, devMem1, hostMem1, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    from.push_back(memcpyH2D_A);
    to.push_back(memcpyH2D_A);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, devMem2, hostMem2, Nbytes,
                                      cudaMemcpyHostToDevice),
             cudaSuccess);
    from.push_back(memcpyH2D_B);
    to.push_back(memcpyH2D_B);
    from.push_back(memsetKer_C);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, hostMem3, devMem3, Nbytes,
                                      cudaMemcpyDeviceToHost),
             cudaSuccess);
    void *kernelArgs2[] = {&devMem1, &devMem2, &devMem3, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<T>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    CHECK_EQ(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);
    from.push_back(kernel_vecAdd);
    to.push_back(kernel_vecAdd);
    to.push_back(kernel_vecAdd);
    to.push_back(kernel_vecAdd);
    to.push_back(memcpyD2H_C);
    nodelist.push_back(memset_A);
    nodelist.push_back(memset_B);
    nodelist.push_back(memsetKer_C);
    nodelist.push_back(memcpyH2D_A);
    nodelist.push_back(memcpyH2D_B);
    nodelist.push_back(kernel_vecAdd);
    nodelist.push_back(memcpyD2H_C);
}

static void Positive_Functional(int section) {
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaGraphExec_t graphExec;
    CHECK_EQ(cudaStreamCreate(&streamForGraph), cudaSuccess);
    init_arrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N);
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    std::vector<cudaGraphNode_t> from_nodes;
    std::vector<cudaGraphNode_t> to_nodes;
    std::vector<cudaGraphNode_t> nodelist;
    graphNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, from_nodes, to_nodes, nodelist);
    if (section == 0) { /* Create dependencies node by node */
        for (int k = 0; k < 6; k++) {
            CHECK_EQ(cudaGraphAddDependencies(graph, &from_nodes[k], &to_nodes[k], 1), cudaSuccess);
        }
    } else { /* Create dependencies with node lists */
        cudaGraphNode_t *from_list = &from_nodes[0];
        cudaGraphNode_t *to_list = &to_nodes[0];
        CHECK_EQ(cudaGraphAddDependencies(graph, from_list, to_list, 6), cudaSuccess);
    }
    CHECK_EQ(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(graphExec, streamForGraph), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(streamForGraph), cudaSuccess);
    check_vector_add(A_h, B_h, C_h, N);
    free_arrays(A_d, B_d, C_d, A_h, B_h, C_h);
    CHECK_EQ(cudaGraphExecDestroy(graphExec), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(streamForGraph), cudaSuccess);
}

static void Positive_Parameters(int section) {
    constexpr size_t Nbytes = 1024;
    cudaGraphNode_t memcpyH2D_A;
    cudaGraphNode_t memcpyD2H_A;
    cudaGraphNode_t memset_A;
    cudaMemsetParams memsetParams{};
    char *A_d;
    char *A_h;
    cudaGraph_t graph;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    A_h = reinterpret_cast<char *>(std::malloc(Nbytes));
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
             cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, A_h, A_d, Nbytes, cudaMemcpyDeviceToHost),
             cudaSuccess);
    switch (section) {
    case 0: /* numDependencies is zero, To/From are nullptr */
        CHECK_EQ(cudaGraphAddDependencies(graph, nullptr, nullptr, 0), cudaSuccess);
        break;
    case 1: /* numDependencies is zero, To or From are nullptr */
        CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, nullptr, 0), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, nullptr, &memcpyH2D_A, 0), cudaSuccess);
        break;
    case 2: /* numDependencies is zero, To/From are valid */
        CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_A, 0), cudaSuccess);
        break;
    case 3: /* numDependencies is zero, To/From are the same */
        CHECK_EQ(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyH2D_A, 0), cudaSuccess);
        break;
    default: { /* numDependencies < To/From length */
        size_t numDependencies = 0;
        cudaGraphNode_t from_list[] = {memset_A, memcpyH2D_A};
        cudaGraphNode_t to_list[] = {memcpyH2D_A, memcpyD2H_A};
        CHECK_EQ(cudaGraphAddDependencies(graph, from_list, to_list, 1), cudaSuccess);
        CHECK_EQ(cudaGraphNodeGetDependencies(memcpyH2D_A, nullptr, &numDependencies), cudaSuccess);
        CHECK_EQ(numDependencies, 1);
        CHECK_EQ(cudaGraphNodeGetDependencies(memcpyD2H_A, nullptr, &numDependencies), cudaSuccess);
        CHECK_EQ(numDependencies, 0);
    }
    }
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    std::free(A_h);
}

static void Negative_Parameters(int section) {
    constexpr size_t Nbytes = 1024;
    cudaGraph_t graph;
    CHECK_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    char *A_d;
    /* STREAMSIM: the handles a section leaves unset are a handle no call made (upstream: uninitialized). */
    cudaGraphNode_t memset_A = reinterpret_cast<cudaGraphNode_t>(0x1234);
    cudaMemsetParams memsetParams{};
    CHECK_EQ(cudaMalloc(&A_d, Nbytes), cudaSuccess);
    std::memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void *>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    cudaGraphNode_t memcpyH2D_A = reinterpret_cast<cudaGraphNode_t>(0x1234);
    cudaGraphNode_t memcpyD2H_A;
    char *A_h;
    A_h = reinterpret_cast<char *>(std::malloc(Nbytes));
    switch (section) {
    case 0: /* Null Graph */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(nullptr, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        break;
    case 1: { /* graph is uninitialized */
        cudaGraph_t graph_uninit{};
        CHECK_EQ(cudaGraphAddDependencies(graph_uninit, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        break;
    }
    case 2: /* To or From is nullptr */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, nullptr, 1), cudaErrorInvalidValue);
        CHECK_EQ(cudaGraphAddDependencies(graph, nullptr, &memset_A, 1), cudaErrorInvalidValue);
        break;
    case 3: /* To/From are nullptr */
        CHECK_EQ(cudaGraphAddDependencies(graph, nullptr, nullptr, 1), cudaErrorInvalidValue);
        break;
    case 4: /* From belongs to different graph */
    case 5: { /* To belongs to different graph */
        cudaGraph_t graph1;
        CHECK_EQ(cudaGraphCreate(&graph1, 0), cudaSuccess);
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, section == 4 ? graph1 : graph, nullptr, 0, &memsetParams),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, section == 4 ? graph : graph1, nullptr, 0, A_d, A_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        CHECK_EQ(cudaGraphDestroy(graph1), cudaSuccess);
        break;
    }
    case 6: /* From is uninitialized */
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        break;
    case 7: /* To is uninitialized */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        break;
    case 8: /* Duplicate Dependencies */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1), cudaErrorInvalidValue);
        break;
    case 9: /* Same Node Dependencies */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddDependencies(graph, &memset_A, &memset_A, 1), cudaErrorInvalidValue);
        break;
    default: { /* numDependencies > To/From length */
        CHECK_EQ(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams), cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
        CHECK_EQ(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, A_h, A_d, Nbytes,
                                          cudaMemcpyDeviceToHost),
                 cudaSuccess);
        /* STREAMSIM: a third entry no call made, where upstream reads past the end of its two-entry arrays. */
        cudaGraphNode_t from_list[] = {memset_A, memcpyH2D_A, reinterpret_cast<cudaGraphNode_t>(0x1234)};
        cudaGraphNode_t to_list[] = {memcpyH2D_A, memcpyD2H_A, reinterpret_cast<cudaGraphNode_t>(0x1234)};
        CHECK_EQ(cudaGraphAddDependencies(graph, from_list, to_list, 3), cudaErrorInvalidValue);
    }
    }
    CHECK_EQ(cudaFree(A_d), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(graph), cudaSuccess);
    std::free(A_h);
}

int main() {
    Positive_Functional(0);
    Positive_Functional(1);
    for (int s = 0; s < 5; s++) Positive_Parameters(s);
    for (int s = 0; s < 11; s++) Negative_Parameters(s);
    std::printf("hip-tests graph add dependencies: all checks passed\n");
    return 0;
}
