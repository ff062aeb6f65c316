/*
 * hip_tests_graph_memset_node.cu — ROCm hip-tests' catch/unit/graph/hipGraphAddMemsetNode.cc and
 * hipGraphExecMemsetNodeSetParams.cc with their helpers of graph_memset_node_test_common.hh and
 * graph_tests_common.hh (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to
 * the CUDA runtime names (hipX → cudaX) as a .cu program that both `streamsim cc` and NVIDIA's nvcc build: every
 * test case of these files. Unit_hipGraphExecMemsetNodeSetParams_Negative_Parameters' "Changing dst allocation
 * device" needs two devices (on one it is skipped, as upstream).
 *
 * Every runtime call and every check of those test cases is kept, in their order. Changes, marked STREAMSIM where
 * they are:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them). TEMPLATE_TEST_CASE → a template run for uint8_t, uint16_t and uint32_t in turn; the GENERATEs
 *     of GraphMemsetNodeCommonPositive (width, then height) and of Unit_hipGraphExecMemsetNodeSetParams_Positive_
 *     Basic (width, at the top of the test case) → loops in the generators' order, the
 *     DYNAMIC_SECTION their body; the GENERATE(0, 3, 5) inside MemsetCommonNegative's "elementSize != 1, 2, 4"
 *     section → three sections, one per value (Catch2 reruns the test case into that section once per value).
 *     The helpers' HT_NVIDIA sections are kept.
 *   - resource_guards.hh's LinearAllocGuard2D (cudaMallocPitch, freed by the destructor) and the
 *     LinearAllocs::hipHostMalloc guard (cudaMallocHost, HIP's NVIDIA layer for hipHostMalloc with flags 0) are
 *     written out here; CHECK_IMAGE_SUPPORT is hip-tests' NVIDIA branch (image support is 1: the test goes on);
 *     make_hipPos / make_hipPitchedPtr / make_hipExtent → make_cudaPos / make_cudaPitchedPtr / make_cudaExtent;
 *     HIPCHECK → HIP_CHECK; hipDeviceAttributeManagedMemory → cudaDevAttrManagedMemory.
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0); a missing ;
 *     after three HIP_CHECKs (hip-tests' macro is a block) added.
 *   - GraphAddNodeCommonNegativeTests' "Invalid numNodes" passes the address of one handle with a count of 2
 *     (the second read is past the variable, undefined in C++); here the handle is the first of two, the second
 *     a handle no call made.
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
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "hip_tests_cu.h"

/* hip_test_common.hh's CHECK_IMAGE_SUPPORT: HipTest::isImageSupported() is 1 on NVIDIA (its HT_AMD branch asks
 * the device). */
#define CHECK_IMAGE_SUPPORT

/* resource_guards.hh's LinearAllocGuard2D<T> (aligned: cudaMallocPitch). */
template <typename T> class LinearAllocGuard2D {
  public:
    LinearAllocGuard2D(const size_t width_logical, const size_t height)
        : extent_{make_cudaExtent(width_logical * sizeof(T), height, 1)} {
        HIP_CHECK(cudaMallocPitch(&pitched_ptr_.ptr, &pitched_ptr_.pitch, extent_.width, extent_.height));
    }
    LinearAllocGuard2D(const LinearAllocGuard2D &) = delete;
    ~LinearAllocGuard2D() { static_cast<void>(cudaFree(pitched_ptr_.ptr)); }
    T *ptr() const { return reinterpret_cast<T *>(pitched_ptr_.ptr); };
    size_t pitch() const { return pitched_ptr_.pitch; }

  private:
    cudaPitchedPtr pitched_ptr_{};
    const cudaExtent extent_;
};

/* STREAMSIM: resource_guards.hh's LinearAllocGuard<T>(LinearAllocs::hipHostMalloc, size): cudaMallocHost, freed
 * by the destructor without a check. */
template <typename T> class PinnedAllocGuard {
  public:
    PinnedAllocGuard(const size_t size) { HIP_CHECK(cudaMallocHost(reinterpret_cast<void **>(&ptr_), size)); }
    PinnedAllocGuard(const PinnedAllocGuard &) = delete;
    ~PinnedAllocGuard() { static_cast<void>(cudaFreeHost(ptr_)); }
    T *ptr() const { return ptr_; }

  private:
    T *ptr_ = nullptr;
};

/* ---- graph_memset_node_test_common.hh ---- */
template <typename T, typename Tp, typename F> void GraphMemsetNodeCommonPositive(F f) {
    for (const size_t width : {size_t{1}, size_t{64}, kPageSize / sizeof(T) + 1}) { /* GENERATE */
        for (const size_t height : {size_t{1}, size_t{2}, size_t{1024}}) { /* GENERATE */
            /* DYNAMIC_SECTION("Width: " << width << " Height: " << height) */
            LinearAllocGuard2D<T> alloc(width, height);

            constexpr T set_value = 42;
            Tp params = {};
            params.dst = alloc.ptr();
            params.elementSize = sizeof(T);
            params.width = width;
            params.height = height;
            params.pitch = alloc.pitch();
            params.value = set_value;

            HIP_CHECK(f(&params));

            PinnedAllocGuard<T> buffer(width * sizeof(T) * height); /* STREAMSIM: LinearAllocs::hipHostMalloc */
            HIP_CHECK(cudaMemcpy2D(buffer.ptr(), width * sizeof(T), alloc.ptr(), alloc.pitch(), width * sizeof(T),
                                   height, cudaMemcpyDeviceToHost));
            ArrayFindIfNot(buffer.ptr(), set_value, width * height);
        }
    }
}

template <typename F, typename T> void MemsetCommonNegative(F f, T params) {
    SECTION("pMemsetParams == nullptr") { HIP_CHECK_ERROR(f(nullptr), cudaErrorInvalidValue); }

    SECTION("pMemsetParams.dst == nullptr") {
        params.dst = nullptr;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }

    /* SECTION("pMemsetParams.elementSize != 1, 2, 4") with params.elementSize = GENERATE(0, 3, 5): one section per
     * generated value, as Catch2 runs it. */
    for (const unsigned int elementSize : {0u, 3u, 5u}) {
        SECTION("pMemsetParams.elementSize != 1, 2, 4") {
            params.elementSize = elementSize;
            HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
        }
    }

    // Disabled on AMD due to defect - EXSWHTEC-204 (the HT_NVIDIA branch)
    SECTION("pMemsetParams.width == 0") {
        params.width = 0;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }

    SECTION("pMemsetParams.width > allocation size") {
        params.width = params.width + 1000;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }

    SECTION("pMemsetParams.height == 0") {
        params.height = 0;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-205 (the HT_NVIDIA branch)
    SECTION("pMemsetParams.pitch < width when height > 1") {
        params.width = 2;
        params.height = 2;
        params.pitch = params.elementSize;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-206 (the HT_NVIDIA branch)
    SECTION("pMemsetParams.pitch * height > allocation size") {
        params.width = 2;
        params.height = 2;
        params.pitch = 3 * params.elementSize;
        HIP_CHECK_ERROR(f(&params), cudaErrorInvalidValue);
    }
}

/* ---- graph_tests_common.hh ---- */
template <typename F> void GraphAddNodeCommonNegativeTests(F f, cudaGraph_t graph) {
    cudaGraphNode_t node = nullptr;
    SECTION("graph == nullptr") {
        HIP_CHECK_ERROR(f(&node, nullptr, nullptr, 0), cudaErrorInvalidValue);
    }

    SECTION("node == nullptr") {
        HIP_CHECK_ERROR(f(nullptr, graph, nullptr, 0), cudaErrorInvalidValue);
    }

    SECTION("dependencies == nullptr with size != 0") {
        HIP_CHECK_ERROR(f(&node, graph, nullptr, 1), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-202 (the HT_NVIDIA branch)
    SECTION("Node in dependency is from different graph") {
        cudaGraph_t other_graph = nullptr;
        HIP_CHECK(cudaGraphCreate(&other_graph, 0));
        cudaGraphNode_t other_node = nullptr;
        HIP_CHECK(cudaGraphAddEmptyNode(&other_node, other_graph, nullptr, 0));
        cudaGraphNode_t node = nullptr;
        HIP_CHECK(cudaGraphAddEmptyNode(&node, graph, nullptr, 0));
        HIP_CHECK_ERROR(f(&node, graph, &other_node, 1), cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphDestroy(other_graph));
    }

    SECTION("Invalid numNodes") {
        /* STREAMSIM: upstream passes &dep_node, a single handle, with a count of 2 (the second read is past the
         * variable, undefined in C++); here the second entry is a handle no call made. */
        cudaGraphNode_t dep_nodes[2] = {nullptr, reinterpret_cast<cudaGraphNode_t>(0x1234)};
        cudaGraphNode_t &dep_node = dep_nodes[0];
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        HIP_CHECK_ERROR(f(&node, graph, dep_nodes, 2), cudaErrorInvalidValue);
    }

    // Disabled on AMD due to defect - EXSWHTEC-201 (the HT_NVIDIA branch)
    SECTION("Duplicate node in dependencies") {
        cudaGraphNode_t dep_node = nullptr;
        // Need to create two nodes to avoid overlap with Invalid numNodes case
        // First one is left dangling as the graph will be destroyed after the section anyway
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        HIP_CHECK(cudaGraphAddEmptyNode(&dep_node, graph, nullptr, 0));
        cudaGraphNode_t deps[] = {dep_node, dep_node};
        HIP_CHECK_ERROR(f(&node, graph, deps, 2), cudaErrorInvalidValue);
    }
}


namespace AddMemsetNode {
#define SIZE 1024
static char memSetVal = 'a';

template <typename TestType> static void Unit_hipGraphAddMemsetNode_Positive_Basic_pass() {
    CHECK_IMAGE_SUPPORT

    const auto f = [](cudaMemsetParams* params) {
        cudaGraph_t graph = nullptr;
        HIP_CHECK(cudaGraphCreate(&graph, 0));

        cudaGraphNode_t node = nullptr;
        HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, params));

        cudaGraphExec_t graph_exec = nullptr;
        HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

        HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
        HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

        HIP_CHECK(cudaGraphExecDestroy(graph_exec));
        HIP_CHECK(cudaGraphDestroy(graph));

        return cudaSuccess;
    };

    GraphMemsetNodeCommonPositive<TestType, cudaMemsetParams>(f);
}

static void Unit_hipGraphAddMemsetNode_Negative_Parameters_pass() {
    using namespace std::placeholders;
    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    LinearAllocGuard<int> alloc(LinearAllocs::hipMalloc, 4 * sizeof(int));
    cudaMemsetParams params = {};
    params.dst = alloc.ptr();
    params.elementSize = sizeof(*alloc.ptr());
    params.width = 1;
    params.height = 1;
    params.value = 42;

    GraphAddNodeCommonNegativeTests(std::bind(cudaGraphAddMemsetNode, _1, _2, _3, _4, &params), graph);

    cudaGraphNode_t node = nullptr;
    MemsetCommonNegative(std::bind(cudaGraphAddMemsetNode, &node, graph, nullptr, 0, _1), params);

    HIP_CHECK(cudaGraphDestroy(graph));
}
/*
 * Allocate a 2D array using cudaMallocPitch. Initialize the allocated memory
 * using cudaGraphAddMemsetNode. Copy the values in device memory to host using
 * cudaGraphAddMemcpyNode. Verify the results.
 */
static void Unit_hipGraphAddMemsetNode_hipMallocPitch_2D_pass() {
    CHECK_IMAGE_SUPPORT

    size_t width = SIZE * sizeof(char), numW{SIZE},
           numH{SIZE}, pitch_A;
    char *A_d;

    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;
    // Host memory.
    char* A_h = new char[numW * numH];
    for (size_t i = 0; i < numW; i++) {
        for (size_t j = 0; j < numH; j++) {
            *(A_h + i * numH + j) = ' ';
        }
    }
    // 2D Memory allocation cudaMallocPitch
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&A_d), &pitch_A, width, numH));
    // Create Graph
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memsetNode, memcpyNode;
    // Add MemSet Node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = memSetVal;
    memsetParams.pitch = pitch_A;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = numW;
    memsetParams.height = numH;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);
    // Add MemCpy Node
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = make_cudaPitchedPtr(A_d, pitch_A, numW, numH);
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.extent = make_cudaExtent(width, numH, 1);
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();
    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < numW; i++) {
        for (size_t j = 0; j < numH; j++) {
            REQUIRE(*(A_h + i * numH + j) == memSetVal);
        }
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    delete[] A_h;
    HIP_CHECK(cudaFree(A_d));
}
/*
 * Allocate a 1D array using cudaMallocPitch. Initialize the allocated memory using
 * cudaGraphAddMemsetNode. Copy the values in device memory to host using
 * cudaGraphAddMemcpyNode. Verify the results.
 */
static void Unit_hipGraphAddMemsetNode_hipMallocPitch_1D_pass() {
    CHECK_IMAGE_SUPPORT

    size_t width = SIZE * sizeof(char), numW{SIZE}, pitch_A;
    char* A_d;

    // Initialize the host memory
    std::vector<char> A_h(numW, ' ');

    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;
    // 1D Memory allocation cudaMallocPitch
    HIP_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&A_d), &pitch_A, width, 1));
    // Create Graph
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memsetNode, memcpyNode;
    // Add MemSet Node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = memSetVal;
    memsetParams.pitch = pitch_A;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = numW;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);
    // Add MemCpy Node
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = make_cudaPitchedPtr(A_d, pitch_A, numW, 1);
    myparms.dstPtr = make_cudaPitchedPtr(A_h.data(), width, numW, 1);
    myparms.extent = make_cudaExtent(width, 1, 1);
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();

    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < numW; i++) {
        REQUIRE(A_h[i] == memSetVal);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaFree(A_d));
}
/*
 * Allocate a 2D array using cudaMalloc3D. Initialize the allocated memory using
 * cudaGraphAddMemsetNode. Copy the values in device memory to host using
 * cudaGraphAddMemcpyNode. Verify the results.
 */
static void Unit_hipGraphAddMemsetNode_hipMalloc3D_2D_pass() {
    CHECK_IMAGE_SUPPORT

    size_t width = SIZE * sizeof(char);
    size_t numW = SIZE, numH = SIZE;

    // Host Memory
    char* A_h = new char[numW * numH];
    for (size_t i = 0; i < numW; i++) {
        for (size_t j = 0; j < numH; j++) {
            *(A_h + i * numH + j) = ' ';
        }
    }
    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;

    cudaPitchedPtr A_d;
    cudaExtent extent3D = make_cudaExtent(width, numH, 1);

    // Allocate 3D memory.
    HIP_CHECK(cudaMalloc3D(&A_d, extent3D));

    // Create Graph
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memsetNode, memcpyNode;

    // Add MemSet Node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = A_d.ptr;
    memsetParams.value = memSetVal;
    memsetParams.pitch = A_d.pitch;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = numW;
    memsetParams.height = numH;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);

    // MemCpy params
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = A_d;
    myparms.dstPtr = make_cudaPitchedPtr(A_h, width, numW, numH);
    myparms.extent = make_cudaExtent(width, numH, 1);
    myparms.kind = cudaMemcpyDeviceToHost;

    // Add MemCpy Node
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();

    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < numW; i++) {
        for (size_t j = 0; j < numH; j++) {
            REQUIRE(*(A_h + i * numH + j) == memSetVal);
        }
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    delete[] A_h;
    HIP_CHECK(cudaFree(A_d.ptr));
}
/*
 * Allocate a 1D array using cudaMalloc3D. Initialize the allocated
 * memory using cudaGraphAddMemsetNode. Copy the values in device
 * memory to host using cudaGraphAddMemcpyNode. Verify the results.
 */
static void Unit_hipGraphAddMemsetNode_hipMalloc3D_1D_pass() {
    CHECK_IMAGE_SUPPORT

    size_t width = SIZE * sizeof(char);
    size_t numW = SIZE;

    // Initialize the host memory
    std::vector<char> A_h(numW, ' ');

    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;

    cudaPitchedPtr A_d;
    cudaExtent extent1D = make_cudaExtent(width, 1, 1);

    // Allocate 3D memory.
    HIP_CHECK(cudaMalloc3D(&A_d, extent1D));

    // Create Graph
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memsetNode, memcpyNode;

    // Add MemSet Node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = A_d.ptr;
    memsetParams.value = memSetVal;
    memsetParams.pitch = A_d.pitch;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = numW;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);

    // MemCpy params
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = A_d;
    myparms.dstPtr = make_cudaPitchedPtr(A_h.data(), width, numW, 1);
    myparms.extent = make_cudaExtent(width, 1, 1);
    myparms.kind = cudaMemcpyDeviceToHost;

    // Add MemCpy Node
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();

    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < numW; i++) {
        REQUIRE(A_h[i] == memSetVal);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph)); /* STREAMSIM: the ; upstream leaves out */
    HIP_CHECK(cudaFree(A_d.ptr));
}
/*
 * Allocate a 1D array using cudaMalloc. Initialize the allocated memory using
 * cudaGraphAddMemsetNode. Copy the values in device memory to host using
 * cudaGraphAddMemcpyNode. Verify the results.
 */
static void Unit_hipGraphAddMemsetNode_hipMalloc_1D_pass() {
    char* A_d;
    size_t NumW = SIZE;
    size_t Nbytes1D = SIZE * sizeof(char);

    // Initialize the host memory
    std::vector<char> A_h(NumW, ' ');

    // Allocate memory to Device pointer
    HIP_CHECK(cudaMalloc(reinterpret_cast<void**>(&A_d), Nbytes1D));

    // Create the graph
    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;
    cudaGraphNode_t memsetNode, memcpyNode;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    // Add Memset node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = memSetVal;
    memsetParams.pitch = Nbytes1D;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = NumW;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);
    // Add MemCpy Node
    cudaPitchedPtr devPitchedPtr{A_d, Nbytes1D, NumW, 0};
    cudaPitchedPtr hostPitchedPtr{A_h.data(), Nbytes1D, NumW, 0};
    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = devPitchedPtr;
    myparms.dstPtr = hostPitchedPtr;
    myparms.extent = make_cudaExtent(Nbytes1D, 1, 1);
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();
    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < NumW; i++) {
        REQUIRE(A_h[i] == memSetVal);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaFree(A_d));
}

static void Unit_hipGraphAddMemsetNode_hipMallocManaged_pass() {
    int managed = 0;
    HIP_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
    INFO("cudaDevAttrManagedMemory: " << managed);
    if (managed != 1) {
        WARN(
            "GPU 0 doesn't support cudaDevAttrManagedMemory attribute"
            "so defaulting to system memory.");
    }
    size_t Nbytes1D = SIZE * sizeof(char);
    char* A_d;
    // Initialize the host memory
    std::vector<char> A_h(SIZE, ' ');
    // Device Memory
    HIP_CHECK(cudaMallocManaged(&A_d, SIZE * sizeof(char)));
    // Create the graph
    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> nodeDependencies;
    cudaGraphNode_t memsetNode, memcpyNode;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    // Add Memset node
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = memSetVal;
    memsetParams.pitch = Nbytes1D;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = SIZE;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));
    nodeDependencies.push_back(memsetNode);

    // Add MemCpy Node
    cudaPitchedPtr devPitchedPtr{A_d, Nbytes1D, SIZE, 1};
    cudaPitchedPtr hostPitchedPtr{A_h.data(), Nbytes1D, SIZE, 1};

    cudaMemcpy3DParms myparms{};
    myparms.srcPos = make_cudaPos(0, 0, 0);
    myparms.dstPos = make_cudaPos(0, 0, 0);
    myparms.srcPtr = devPitchedPtr;
    myparms.dstPtr = hostPitchedPtr;
    myparms.extent = make_cudaExtent(Nbytes1D, 1, 1);
    myparms.kind = cudaMemcpyDeviceToHost;
    HIP_CHECK(cudaGraphAddMemcpyNode(&memcpyNode, graph, nodeDependencies.data(),
                                    nodeDependencies.size(), &myparms));
    nodeDependencies.clear();

    // Create executable graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verfication
    for (size_t i = 0; i < SIZE; i++) {
        REQUIRE(A_h[i] == memSetVal);
    }

    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaFree(A_d));
}

/* TEMPLATE_TEST_CASE(..., uint8_t, uint16_t, uint32_t) */
static void Unit_hipGraphAddMemsetNode_Positive_Basic() {
    RunSections(Unit_hipGraphAddMemsetNode_Positive_Basic_pass<uint8_t>);
    RunSections(Unit_hipGraphAddMemsetNode_Positive_Basic_pass<uint16_t>);
    RunSections(Unit_hipGraphAddMemsetNode_Positive_Basic_pass<uint32_t>);
}
static void Unit_hipGraphAddMemsetNode_Negative_Parameters() {
    RunSections(Unit_hipGraphAddMemsetNode_Negative_Parameters_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMallocPitch_2D() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMallocPitch_2D_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMallocPitch_1D() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMallocPitch_1D_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMalloc3D_2D() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMalloc3D_2D_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMalloc3D_1D() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMalloc3D_1D_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMalloc_1D() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMalloc_1D_pass);
}
static void Unit_hipGraphAddMemsetNode_hipMallocManaged() {
    RunSections(Unit_hipGraphAddMemsetNode_hipMallocManaged_pass);
}
} // namespace AddMemsetNode

/* ---- hipGraphExecMemsetNodeSetParams.cc ---- */
namespace ExecMemsetNodeSetParams {
template <typename TestType> static void Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic_pass() {
    CHECK_IMAGE_SUPPORT

    for (const size_t width : {size_t{1}, size_t{64}, kPageSize / sizeof(TestType) + 1}) { /* GENERATE */

        cudaGraph_t graph = nullptr;
        HIP_CHECK(cudaGraphCreate(&graph, 0));

        cudaGraphNode_t node = nullptr;
        LinearAllocGuard<TestType> initial_alloc(LinearAllocs::hipMalloc, 2 * sizeof(TestType));

        cudaMemsetParams initial_params = {};
        initial_params.dst = initial_alloc.ptr();
        initial_params.elementSize = sizeof(TestType);
        initial_params.width = 2;
        initial_params.height = 1;
        HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &initial_params));

        cudaGraphExec_t graph_exec = nullptr;
        HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

        LinearAllocGuard2D<TestType> alloc(width, 1);
        constexpr TestType set_value = 42;
        cudaMemsetParams params = {};
        params.dst = alloc.ptr();
        params.elementSize = sizeof(TestType);
        params.width = width;
        params.height = 1;
        params.value = set_value;
        HIP_CHECK(cudaGraphExecMemsetNodeSetParams(graph_exec, node, &params));

        cudaMemsetParams retrieved_params = {};
        HIP_CHECK(cudaGraphMemsetNodeGetParams(node, &retrieved_params));
        REQUIRE(initial_params.dst == retrieved_params.dst);
        REQUIRE(initial_params.elementSize == retrieved_params.elementSize);
        REQUIRE(initial_params.width == retrieved_params.width);
        REQUIRE(initial_params.height == retrieved_params.height);
        REQUIRE(initial_params.pitch == retrieved_params.pitch);
        REQUIRE(initial_params.value == retrieved_params.value);

        HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
        HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

        HIP_CHECK(cudaGraphExecDestroy(graph_exec));
        HIP_CHECK(cudaGraphDestroy(graph));

        PinnedAllocGuard<TestType> buffer(width * sizeof(TestType)); /* STREAMSIM: LinearAllocs::hipHostMalloc */
        HIP_CHECK(cudaMemcpy2D(buffer.ptr(), width * sizeof(TestType), alloc.ptr(), alloc.pitch(),
                              width * sizeof(TestType), 1, cudaMemcpyDeviceToHost));
        ArrayFindIfNot(buffer.ptr(), set_value, width);
    }
}

static void Unit_hipGraphExecMemsetNodeSetParams_Negative_Parameters_pass() {
    // FIXME: this test tests 1D/2D/3D stuff in one single go, need to decouple it so that it can run
    // on devices with no image support
    CHECK_IMAGE_SUPPORT

    using namespace std::placeholders;

    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    LinearAllocGuard<int> alloc(LinearAllocs::hipMalloc, 4 * sizeof(int));
    cudaMemsetParams params = {};
    params.dst = alloc.ptr();
    params.elementSize = sizeof(*alloc.ptr());
    params.width = 1;
    params.height = 1;
    params.value = 42;

    cudaGraphNode_t node = nullptr;
    HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &params)); /* the ; upstream leaves out */

    cudaGraphExec_t graph_exec = nullptr;
    HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

    SECTION("pGraphExec == nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecMemsetNodeSetParams(nullptr, node, &params), cudaErrorInvalidValue);
    }

    SECTION("node == nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecMemsetNodeSetParams(graph_exec, nullptr, &params),
                        cudaErrorInvalidValue);
    }

    MemsetCommonNegative(std::bind(cudaGraphExecMemsetNodeSetParams, graph_exec, node, _1), params);

    SECTION("Changing dst allocation device") {
        if (HipTest::getDeviceCount() < 2) {
            HipTest::HIP_SKIP_TEST("Test requires two connected GPUs");
            return;
        }
        HIP_CHECK(cudaSetDevice(1));
        LinearAllocGuard<int> new_alloc(LinearAllocs::hipMalloc, 4 * sizeof(int));
        params.dst = new_alloc.ptr();
        HIP_CHECK_ERROR(cudaGraphExecMemsetNodeSetParams(graph_exec, node, &params),
                        cudaErrorInvalidValue);
    }

    HIP_CHECK(cudaGraphExecDestroy(graph_exec));
    HIP_CHECK(cudaGraphDestroy(graph));
}

static void Unit_hipGraphExecMemsetNodeSetParams_Negative_Updating_Non1D_Node_pass() {
    CHECK_IMAGE_SUPPORT

    cudaGraph_t graph = nullptr;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    LinearAllocGuard2D<int> alloc(2, 2);
    cudaMemsetParams params = {};
    params.dst = alloc.ptr();
    params.elementSize = sizeof(*alloc.ptr());
    params.width = 1;
    params.height = 2;
    params.pitch = alloc.pitch();
    params.value = 42;

    cudaGraphNode_t node = nullptr;
    HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &params)); /* the ; upstream leaves out */

    cudaGraphExec_t graph_exec = nullptr;
    HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

    params.width = 2;
    HIP_CHECK_ERROR(cudaGraphExecMemsetNodeSetParams(graph_exec, node, &params), cudaErrorInvalidValue);

    HIP_CHECK(cudaGraphExecDestroy(graph_exec));
    HIP_CHECK(cudaGraphDestroy(graph));
}

/* TEMPLATE_TEST_CASE(..., uint8_t, uint16_t, uint32_t) */
static void Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic() {
    RunSections(Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic_pass<uint8_t>);
    RunSections(Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic_pass<uint16_t>);
    RunSections(Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic_pass<uint32_t>);
}
static void Unit_hipGraphExecMemsetNodeSetParams_Negative_Parameters() {
    RunSections(Unit_hipGraphExecMemsetNodeSetParams_Negative_Parameters_pass);
}
static void Unit_hipGraphExecMemsetNodeSetParams_Negative_Updating_Non1D_Node() {
    RunSections(Unit_hipGraphExecMemsetNodeSetParams_Negative_Updating_Non1D_Node_pass);
}
} // namespace ExecMemsetNodeSetParams

int main() {
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_Positive_Basic);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_Negative_Parameters);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMallocPitch_2D);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMallocPitch_1D);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMalloc3D_2D);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMalloc3D_1D);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMalloc_1D);
    HIP_TEST_CASE(AddMemsetNode::Unit_hipGraphAddMemsetNode_hipMallocManaged);
    HIP_TEST_CASE(ExecMemsetNodeSetParams::Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic);
    HIP_TEST_CASE(ExecMemsetNodeSetParams::Unit_hipGraphExecMemsetNodeSetParams_Negative_Parameters);
    HIP_TEST_CASE(ExecMemsetNodeSetParams::Unit_hipGraphExecMemsetNodeSetParams_Negative_Updating_Non1D_Node);
    printf("hip-tests graph memset node: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
