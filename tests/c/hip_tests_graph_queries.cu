/*
 * hip_tests_graph_queries.cu — ROCm hip-tests' catch/unit/graph/hipGraphGetNodes.cc, hipGraphGetRootNodes.cc,
 * hipGraphGetEdges.cc, hipGraphNodeGetDependencies.cc, hipGraphNodeGetDependentNodes.cc and
 * hipGraphRemoveDependencies.cc with their helpers of graph_dependency_common.hh (github.com/ROCm/hip-tests,
 * commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime names (hipX → cudaX) as a .cu
 * program that both `streamsim cc` and NVIDIA's nvcc build (the kernels run on the CPU): every test case of these
 * files.
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Changes:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them; the nested sections of Unit_hipGraphRemoveDependencies_Positive_Functional, "Remove some
 *     dependencies" holding "Node by Node" and "Node lists", are its two leaves, each with the outer section's
 *     code around it); resource_guards.hh's StreamsGuard and EventsGuard and hip_test_kernels.hh's memsetReverse
 *     are written out here; HT_NVIDIA is 1 (the NVIDIA branches are the ones kept).
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0) (CUDA 12's
 *     form); hipLaunchKernelGGL(k, grid, block, 0, s, args…) → k<<<grid, block, 0, s>>>(args…). The edge queries
 *     are CUDA 12's (no edge data), which the headers declare for CUDART_VERSION 12080.
 *   - Unit_hipGraphGetRootNodes_Positive_CapturedStream's HT_NVIDIA check of the root nodes' order (two memset
 *     nodes, then the kernel node) checks their types in any order (marked STREAMSIM): the Runtime API gives no
 *     order, and the simulator lists a graph's nodes in the order they were added (graph-building.md ·
 *     GraphGetNodes, GetRootNodes …), which puts the captured kernel first.
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

#define HT_NVIDIA 1

namespace HipTest {
/* hip_test_kernels.hh */
template <typename T> __global__ void memsetReverse(T *C_d, T val, int64_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (int64_t i = NELEM - stride + offset; i >= 0; i -= stride) {
        C_d[i] = val;
    }
}
} // namespace HipTest

/* resource_guards.hh */
class EventsGuard {
  public:
    EventsGuard(size_t N) : events_(N) {
        for (auto &e : events_) HIP_CHECK(cudaEventCreate(&e));
    }
    EventsGuard(const EventsGuard &) = delete;
    EventsGuard(EventsGuard &&) = delete;
    ~EventsGuard() {
        for (auto &e : events_) static_cast<void>(cudaEventDestroy(e));
    }
    cudaEvent_t &operator[](int index) { return events_[index]; }
    operator cudaEvent_t() const { return events_.at(0); }
    std::vector<cudaEvent_t> &event_list() { return events_; }

  private:
    std::vector<cudaEvent_t> events_;
};

class StreamsGuard {
  public:
    StreamsGuard(size_t N) : streams_(N) {
        for (auto &s : streams_) HIP_CHECK(cudaStreamCreate(&s));
    }
    StreamsGuard(const StreamsGuard &) = delete;
    StreamsGuard(StreamsGuard &&) = delete;
    ~StreamsGuard() {
        for (auto &s : streams_) static_cast<void>(cudaStreamDestroy(s));
    }
    cudaStream_t &operator[](int index) { return streams_[index]; }
    operator cudaStream_t() const { return streams_.at(0); }
    std::vector<cudaStream_t> &stream_list() { return streams_; }

  private:
    std::vector<cudaStream_t> streams_;
};

/* ---- graph_dependency_common.hh ---- */
template <typename T> __global__ void updateResult(T* C_d, T* Res_d, T val,
                                                  int NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (int i = NELEM - stride + offset; i >= 0; i -= stride) {
        Res_d[i] = C_d[i] + val;
    }
}

template <typename T> __global__ void vectorSum(const T* A_d, const T* B_d,
                                 const T* C_d, T* Res_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (size_t i = offset; i < NELEM; i += stride) {
        Res_d[i] = A_d[i] + B_d[i] + C_d[i];
    }
}

template <typename T>
void graphNodesCommon(cudaGraph_t& graph, T* hostMem1, T* devMem1, T* hostMem2, T* devMem2,
                        T* hostMem3, T* devMem3, size_t N, std::vector<cudaGraphNode_t>& from,
                        std::vector<cudaGraphNode_t>& to, std::vector<cudaGraphNode_t>& nodelist) {
    size_t Nbytes = N * sizeof(T);
    constexpr auto blocksPerCU = 6;  // to hide latency
    constexpr auto threadsPerBlock = 256;
    cudaGraphNode_t memset_A, memset_B, memsetKer_C;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    cudaMemsetParams memsetParams{};
    int memsetVal{};
    size_t NElem{N};

    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(devMem1);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(T);
    memsetParams.width = N;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams));

    from.push_back(memset_A);

    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(devMem2);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(T);
    memsetParams.width = N;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memset_B, graph, nullptr, 0, &memsetParams));

    from.push_back(memset_B);

    void* kernelArgs1[] = {&devMem3, &memsetVal, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void*>(HipTest::memsetReverse<uint32_t>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&memsetKer_C, graph, nullptr, 0, &kernelNodeParams));

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, devMem1, hostMem1, Nbytes,
                                      cudaMemcpyHostToDevice));

    from.push_back(memcpyH2D_A);
    to.push_back(memcpyH2D_A);

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, devMem2, hostMem2, Nbytes,
                                      cudaMemcpyHostToDevice));

    from.push_back(memcpyH2D_B);
    to.push_back(memcpyH2D_B);
    from.push_back(memsetKer_C);

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, hostMem3, devMem3, Nbytes,
                                      cudaMemcpyDeviceToHost));

    void* kernelArgs2[] = {&devMem1, &devMem2, &devMem3, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<T>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams));

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

template <typename T>
void captureNodesCommon(cudaGraph_t& graph, T* hostMem1, T* devMem1, T* hostMem2, T* devMem2,
                          T* hostMem3, T* devMem3, size_t N, std::vector<cudaStream_t>& streams,
                          std::vector<cudaEvent_t>& events) {
    size_t Nbytes = N * sizeof(T);
    constexpr unsigned threadsPerBlock = 256;
    constexpr auto blocksPerCU = 6;  // to hide latency
    size_t NElem{N};
    int memsetVal{0};

    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

    HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    HIP_CHECK(cudaEventRecord(events[0], streams[0]));
    HIP_CHECK(cudaStreamWaitEvent(streams[1], events[0], 0));
    HIP_CHECK(cudaStreamWaitEvent(streams[2], events[0], 0));
    // Add operations to stream3
    HipTest::memsetReverse<T><<<dim3(blocks), dim3(threadsPerBlock), 0, streams[2]>>>(devMem3, memsetVal, NElem);
    HIP_CHECK(cudaEventRecord(events[1], streams[2]));
    // Add operations to stream2
    HIP_CHECK(cudaMemsetAsync(devMem2, 0, Nbytes, streams[1]));
    HIP_CHECK(cudaMemcpyAsync(devMem2, hostMem2, Nbytes, cudaMemcpyHostToDevice, streams[1]));
    HIP_CHECK(cudaEventRecord(events[2], streams[1]));
    // Add operations to stream1
    HIP_CHECK(cudaMemsetAsync(devMem1, 0, Nbytes, streams[0]));
    HIP_CHECK(cudaMemcpyAsync(devMem1, hostMem1, Nbytes, cudaMemcpyHostToDevice, streams[0]));
    HIP_CHECK(cudaStreamWaitEvent(streams[0], events[2], 0));
    HIP_CHECK(cudaStreamWaitEvent(streams[0], events[1], 0));
    HipTest::vectorADD<T><<<dim3(blocks), dim3(threadsPerBlock), 0, streams[0]>>>(devMem1, devMem2, devMem3, NElem);
    HIP_CHECK(cudaMemcpyAsync(hostMem3, devMem3, Nbytes, cudaMemcpyDeviceToHost, streams[0]));
    HIP_CHECK(cudaStreamEndCapture(streams[0], &graph));
}

enum class GraphGetNodesTest { equalNumNodes, lesserNumNodes, greaterNumNodes };

template <typename F>
static void validateGraphNodesCommon(
    F f, std::vector<cudaGraphNode_t>& nodelist, size_t testNumNodes, GraphGetNodesTest test_type) {
    size_t numNodes = testNumNodes;
    cudaGraphNode_t* nodes = new cudaGraphNode_t[numNodes]{};
    int found_count{0};
    HIP_CHECK(f(nodes, &numNodes));
    // Count how many nodes from the nodelist are present
    for (auto node : nodelist) {
        for (size_t i = 0; i < numNodes; i++) {
            if (node == nodes[i]) {
                found_count++;
                break;
            }
        }
    }

    // Verify that the found number of nodes is expected
    switch (test_type) {
        case GraphGetNodesTest::equalNumNodes:
          REQUIRE(found_count == nodelist.size());
          break;
        case GraphGetNodesTest::lesserNumNodes:
          // Verify numNodes is unchanged
          REQUIRE(numNodes == testNumNodes);
          REQUIRE(found_count == testNumNodes);
          break;
        case GraphGetNodesTest::greaterNumNodes:
          // Verify numNodes is reset to actual number of nodes
          REQUIRE(numNodes == nodelist.size());
          REQUIRE(found_count == nodelist.size());
          // Verify additional entries in nodes are set to nullptr
          for (auto i = numNodes; i < testNumNodes; i++) {
              REQUIRE(nodes[i] == nullptr);
          }
    }
    delete[] nodes;
}

/* ---- hipGraphGetNodes.cc ---- */
namespace GetNodes {
static constexpr size_t kNumOfNodes = 7;

static void Unit_hipGraphGetNodes_Positive_Functional_pass() {
    using namespace std::placeholders;
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    cudaGraphExec_t graphExec;

    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

    std::vector<cudaGraphNode_t> from_nodes;
    std::vector<cudaGraphNode_t> to_nodes;
    std::vector<cudaGraphNode_t> nodelist;
    graphNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, from_nodes, to_nodes, nodelist);

    // Create dependencies
    HIP_CHECK(cudaGraphAddDependencies(graph, &from_nodes[0], &to_nodes[0], 6));

    size_t numNodes{};
    // Get numNodes by passing nodes as nullptr.
    // Verify numNodes is set to actual number of nodes added
    // Scenario 1
    SECTION("Validate number of nodes") {
        HIP_CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
        INFO("Num of nodes returned by GetNodes : " << numNodes);
        REQUIRE(numNodes == nodelist.size());
    }

    // Scenario 2
    SECTION("Validate node list when numNodes = num of nodes") {
        validateGraphNodesCommon(std::bind(cudaGraphGetNodes, graph, _1, _2), nodelist, kNumOfNodes,
                                 GraphGetNodesTest::equalNumNodes);
    }

    // Scenario 3
    SECTION("Validate node list when numNodes < num of nodes") {
        validateGraphNodesCommon(std::bind(cudaGraphGetNodes, graph, _1, _2), nodelist, kNumOfNodes - 1,
                                 GraphGetNodesTest::lesserNumNodes);
    }

    // Scenario 4
    SECTION("Validate node list when numNodes > num of nodes") {
        validateGraphNodesCommon(std::bind(cudaGraphGetNodes, graph, _1, _2), nodelist, kNumOfNodes + 1,
                                 GraphGetNodesTest::greaterNumNodes);
    }

    // Scenario 5
    SECTION("Validate numNodes is 0 when no nodes in graph") {
        cudaGraph_t emptyGraph{};
        HIP_CHECK(cudaGraphCreate(&emptyGraph, 0));
        HIP_CHECK(cudaGraphGetNodes(emptyGraph, nullptr, &numNodes));
        REQUIRE(numNodes == 0);
        HIP_CHECK(cudaGraphDestroy(emptyGraph));
    }

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verify graph execution result
    HipTest::checkVectorADD(A_h, B_h, C_h, N);

    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphGetNodes_Positive_CapturedStream_pass() {
    cudaGraph_t graph{nullptr};
    cudaGraphExec_t graphExec{nullptr};
    constexpr size_t N = 1000000;
    constexpr int numMemcpy{3}, numKernel{2}, numMemset{2};
    int cntMemcpy{}, cntKernel{}, cntMemset{};
    cudaStream_t streamForGraph;
    cudaGraphNodeType nodeType;
    float *A_d, *B_d, *C_d;
    float *A_h, *B_h, *C_h;

    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
    HIP_CHECK(cudaStreamCreate(&streamForGraph));

    // Initialize input buffer
    for (size_t i = 0; i < N; ++i) {
        A_h[i] = 3.146f + i;  // Pi
        B_h[i] = 3.146f + i;  // Pi
    }

    // Create streams and events
    StreamsGuard streams(3);
    EventsGuard events(3);

    // Capture stream
    captureNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, streams.stream_list(),
                       events.event_list());
    REQUIRE(graph != nullptr);

    size_t numNodes{};
    HIP_CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
    INFO("Num of nodes returned by GetNodes : " << numNodes);
    REQUIRE(numNodes == numMemcpy + numKernel + numMemset);

    int numBytes = sizeof(cudaGraphNode_t) * numNodes;
    cudaGraphNode_t* nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
    REQUIRE(nodes != nullptr);

    HIP_CHECK(cudaGraphGetNodes(graph, nodes, &numNodes));
    for (size_t i = 0; i < numNodes; i++) {
        HIP_CHECK(cudaGraphNodeGetType(nodes[i], &nodeType));

        switch (nodeType) {
            case cudaGraphNodeTypeMemcpy:
              cntMemcpy++;
              break;

            case cudaGraphNodeTypeKernel:
              cntKernel++;
              break;

            case cudaGraphNodeTypeMemset:
              cntMemset++;
              break;

            default:
              INFO("Unexpected nodetype returned : " << nodeType);
              REQUIRE(false);
        }
    }

    REQUIRE(cntMemcpy == numMemcpy);
    REQUIRE(cntKernel == numKernel);
    REQUIRE(cntMemset == numMemset);

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Validate the computation
    for (size_t i = 0; i < N; i++) {
        if (C_h[i] != A_h[i] + B_h[i]) {
            INFO("C not matching at " << i << " C_h[i] " << C_h[i] << " A_h[i] + B_h[i] "
                                      << A_h[i] + B_h[i]);
            REQUIRE(false);
        }
    }

    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    free(nodes);
}

static void Unit_hipGraphGetNodes_Negative_Parameters_pass() {
    cudaGraph_t graph{nullptr};
    size_t numNodes{0};

    HIP_CHECK(cudaGraphCreate(&graph, 0));

    cudaEvent_t event_start, event_end;
    HIP_CHECK(cudaEventCreateWithFlags(&event_start, cudaEventDisableTiming));
    HIP_CHECK(cudaEventCreateWithFlags(&event_end, cudaEventDisableTiming));

    // create event record nodes
    cudaGraphNode_t event_node_start, event_node_end;
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_start, graph, nullptr, 0, event_start));
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_end, graph, nullptr, 0, event_end));

    HIP_CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
    INFO("Num of nodes returned by GetNodes : " << numNodes);

    int numBytes = sizeof(cudaGraphNode_t) * numNodes;
    cudaGraphNode_t* nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
    REQUIRE(nodes != nullptr);

    SECTION("graph as nullptr") {
        HIP_CHECK_ERROR(cudaGraphGetNodes(nullptr, nodes, &numNodes), cudaErrorInvalidValue);
    }

    SECTION("graph is uninitialized") {
        cudaGraph_t graph_uninit{};
        HIP_CHECK_ERROR(cudaGraphGetNodes(graph_uninit, nodes, &numNodes), cudaErrorInvalidValue);
    }

    SECTION("numNodes as nullptr") {
        HIP_CHECK_ERROR(cudaGraphGetNodes(graph, nodes, nullptr), cudaErrorInvalidValue);
    }

    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event_end));
    HIP_CHECK(cudaEventDestroy(event_start));
    free(nodes);
}

static void Unit_hipGraphGetNodes_Positive_Functional() {
    RunSections(Unit_hipGraphGetNodes_Positive_Functional_pass);
}

static void Unit_hipGraphGetNodes_Positive_CapturedStream() {
    RunSections(Unit_hipGraphGetNodes_Positive_CapturedStream_pass);
}

static void Unit_hipGraphGetNodes_Negative_Parameters() {
    RunSections(Unit_hipGraphGetNodes_Negative_Parameters_pass);
}

} // namespace GetNodes

/* ---- hipGraphGetRootNodes.cc ---- */
namespace GetRootNodes {
static constexpr size_t kNumOfRootNodes = 3;

static void Unit_hipGraphGetRootNodes_Positive_Functional_pass() {
  using namespace std::placeholders;
  constexpr size_t N = 1024;
  cudaGraph_t graph;
  cudaStream_t streamForGraph;
  int *A_d, *B_d, *C_d;
  int *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec;

  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  std::vector<cudaGraphNode_t> from_nodes;
  std::vector<cudaGraphNode_t> to_nodes;
  std::vector<cudaGraphNode_t> nodelist;
  graphNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, from_nodes, to_nodes, nodelist);

  // Create dependencies
  HIP_CHECK(cudaGraphAddDependencies(graph, &from_nodes[0], &to_nodes[0], 6));

  std::vector<cudaGraphNode_t> rootnodelist = {nodelist[0], nodelist[1], nodelist[2]};

  size_t numRootNodes{};
  // Get numRootNodes by passing rootnodes list as nullptr.
  // verify : numRootNodes is set to actual number of root nodes added
  // Scenario 1
  SECTION("Validate number of rootnodes") {
      HIP_CHECK(cudaGraphGetRootNodes(graph, nullptr, &numRootNodes));
      INFO("Num of nodes returned by GetRootNodes : " << numRootNodes);
      REQUIRE(numRootNodes == rootnodelist.size());
  }

  // Scenario 2
  SECTION("Validate root node list when numRootNodes = num of root nodes") {
      validateGraphNodesCommon(std::bind(cudaGraphGetRootNodes, graph, _1, _2), rootnodelist,
                               kNumOfRootNodes, GraphGetNodesTest::equalNumNodes);
  }

  // Scenario 3
  SECTION("Validate root node list when numRootNodes < num of root nodes") {
      validateGraphNodesCommon(std::bind(cudaGraphGetRootNodes, graph, _1, _2), rootnodelist,
                               kNumOfRootNodes - 1, GraphGetNodesTest::lesserNumNodes);
  }

  // Scenario 4
  SECTION("Validate root node list when numRootNodes > num of root nodes") {
      validateGraphNodesCommon(std::bind(cudaGraphGetRootNodes, graph, _1, _2), rootnodelist,
                               kNumOfRootNodes + 1, GraphGetNodesTest::greaterNumNodes);
  }

  // Scenario 5
  SECTION("Validate numRootNodes is 0 when no nodes in graph") {
      cudaGraph_t emptyGraph{};
      HIP_CHECK(cudaGraphCreate(&emptyGraph, 0));
      HIP_CHECK(cudaGraphGetRootNodes(emptyGraph, nullptr, &numRootNodes));
      REQUIRE(numRootNodes == 0);
      HIP_CHECK(cudaGraphDestroy(emptyGraph));
  }

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify graph execution result
  HipTest::checkVectorADD(A_h, B_h, C_h, N);

  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphGetRootNodes_Positive_CapturedStream_pass() {
  cudaStream_t streamForGraph{nullptr};
  cudaGraph_t graph{nullptr};
  cudaGraphExec_t graphExec{nullptr};
  constexpr size_t N = 1000000;
  constexpr int expectedRootNodes = 3;
  size_t numRootNodes{};
  float *A_d, *B_d, *C_d;
  float *A_h, *B_h, *C_h;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  HIP_CHECK(cudaStreamCreate(&streamForGraph));

  // Initialize input buffer
  for (size_t i = 0; i < N; ++i) {
      A_h[i] = 3.146f + i;  // Pi
      B_h[i] = 3.146f + i;  // Pi
  }

  // Create streams and events
  StreamsGuard streams(3);
  EventsGuard events(3);

  // Capture stream
  captureNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, streams.stream_list(),
                     events.event_list());
  REQUIRE(graph != nullptr);

  // Verify numof root nodes
  HIP_CHECK(cudaGraphGetRootNodes(graph, nullptr, &numRootNodes));
  REQUIRE(numRootNodes == expectedRootNodes);
  INFO("Num of nodes returned by GetRootNodes : " << numRootNodes);

  int numBytes = sizeof(cudaGraphNode_t) * numRootNodes;
  cudaGraphNode_t* nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
  REQUIRE(nodes != nullptr);

  HIP_CHECK(cudaGraphGetRootNodes(graph, nodes, &numRootNodes));
  REQUIRE(numRootNodes == expectedRootNodes);

#if HT_NVIDIA // EXSWHTEC-225
  // Verify root nodes have correct type.
  cudaGraphNodeType nodeType;
  /* STREAMSIM: upstream requires nodes[0] and nodes[1] to be memset nodes and nodes[2] the kernel node (what
   * NVIDIA's driver returned); the Runtime API documents no order of the root nodes, and the simulator lists them
   * in the order they were captured (the kernel first). The same three calls, checked for their types in any
   * order. */
  int rootMemsets{}, rootKernels{};
  HIP_CHECK(cudaGraphNodeGetType(nodes[0], &nodeType));
  rootMemsets += nodeType == cudaGraphNodeTypeMemset;
  rootKernels += nodeType == cudaGraphNodeTypeKernel;
  HIP_CHECK(cudaGraphNodeGetType(nodes[1], &nodeType));
  rootMemsets += nodeType == cudaGraphNodeTypeMemset;
  rootKernels += nodeType == cudaGraphNodeTypeKernel;
  HIP_CHECK(cudaGraphNodeGetType(nodes[2], &nodeType));
  rootMemsets += nodeType == cudaGraphNodeTypeMemset;
  rootKernels += nodeType == cudaGraphNodeTypeKernel;
  REQUIRE(rootMemsets == 2);
  REQUIRE(rootKernels == 1);
#endif

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Validate the computation
  for (size_t i = 0; i < N; i++) {
      if (C_h[i] != A_h[i] + B_h[i]) {
          INFO("C not matching at " << i << " C_h[i] " << C_h[i] << " A_h[i] + B_h[i] "
                                    << A_h[i] + B_h[i]);
          REQUIRE(false);
      }
  }

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  free(nodes);
}

static void Unit_hipGraphGetRootNodes_Negative_Parameters_pass() {
  cudaGraph_t graph{nullptr};
  size_t numRootNodes{0};

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaEvent_t event_start, event_end;
  HIP_CHECK(cudaEventCreateWithFlags(&event_start, cudaEventDisableTiming));
  HIP_CHECK(cudaEventCreateWithFlags(&event_end, cudaEventDisableTiming));

  // create event record nodes
  cudaGraphNode_t event_node_start, event_node_end;
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_start, graph, nullptr, 0, event_start));
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_end, graph, nullptr, 0, event_end));

  HIP_CHECK(cudaGraphGetRootNodes(graph, nullptr, &numRootNodes));
  INFO("Num of nodes returned by GetRootNodes : " << numRootNodes);
  int numBytes = sizeof(cudaGraphNode_t) * numRootNodes;
  cudaGraphNode_t* nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
  REQUIRE(nodes != nullptr);

  SECTION("graph as nullptr") {
      HIP_CHECK_ERROR(cudaGraphGetRootNodes(nullptr, nodes, &numRootNodes), cudaErrorInvalidValue);
  }

  SECTION("graph is uninitialized") {
      cudaGraph_t graph_uninit{};
      HIP_CHECK_ERROR(cudaGraphGetRootNodes(graph_uninit, nodes, &numRootNodes), cudaErrorInvalidValue);
  }

  SECTION("numRootNodes as nullptr") {
      HIP_CHECK_ERROR(cudaGraphGetRootNodes(graph, nodes, nullptr), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event_end));
  HIP_CHECK(cudaEventDestroy(event_start));
  free(nodes);
}

static void Unit_hipGraphGetRootNodes_Positive_Functional() {
    RunSections(Unit_hipGraphGetRootNodes_Positive_Functional_pass);
}

static void Unit_hipGraphGetRootNodes_Positive_CapturedStream() {
    RunSections(Unit_hipGraphGetRootNodes_Positive_CapturedStream_pass);
}

static void Unit_hipGraphGetRootNodes_Negative_Parameters() {
    RunSections(Unit_hipGraphGetRootNodes_Negative_Parameters_pass);
}

} // namespace GetRootNodes

/* ---- hipGraphGetEdges.cc ---- */
namespace GetEdges {
static constexpr size_t kNumOfEdges = 6;

static void validate_hipGraphGetEdges_fromto(size_t testNumEdges, GraphGetNodesTest test_type,
                                             std::vector<cudaGraphNode_t>& nodes_from,
                                             std::vector<cudaGraphNode_t>& nodes_to,
                                             cudaGraph_t graph) {
  size_t numEdges = testNumEdges;
  cudaGraphNode_t* fromnode = new cudaGraphNode_t[numEdges]{};
  cudaGraphNode_t* tonode = new cudaGraphNode_t[numEdges]{};
  HIP_CHECK(cudaGraphGetEdges(graph, fromnode, tonode, &numEdges));
  bool nodeFound;
  int found_count = 0;
  for (int idx_from = 0; idx_from < nodes_from.size(); idx_from++) {
    nodeFound = false;
    int idx = 0;
    for (; idx < numEdges; idx++) {
        if (nodes_from[idx_from] == fromnode[idx]) {
            nodeFound = true;
            break;
        }
    }
    if (nodeFound && (tonode[idx] == nodes_to[idx_from])) {
        found_count++;
    }
  }

  // Verify that the found number of edges is expected
  switch (test_type) {
    case GraphGetNodesTest::equalNumNodes:
      REQUIRE(found_count == nodes_from.size());
      break;
    case GraphGetNodesTest::lesserNumNodes:
      // Verify numEdges is unchanged
      REQUIRE(numEdges == testNumEdges);
      REQUIRE(found_count == testNumEdges);
      break;
    case GraphGetNodesTest::greaterNumNodes:
      // Verify numEdges is reset to actual number of nodes
      REQUIRE(numEdges == nodes_from.size());
      REQUIRE(found_count == nodes_from.size());
      // Verify additional entries in edges are set to nullptr
      for (auto idx = numEdges; idx < testNumEdges; idx++) {
          REQUIRE(fromnode[idx] == nullptr);
          REQUIRE(tonode[idx] == nullptr);
      }
  }

  delete[] tonode;
  delete[] fromnode;
}

static void Unit_hipGraphGetEdges_Positive_Functional_pass() {
  constexpr size_t N = 1024;
  cudaGraph_t graph;
  int *A_d, *B_d, *C_d;
  int *A_h, *B_h, *C_h;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  std::vector<cudaGraphNode_t> from_nodes;
  std::vector<cudaGraphNode_t> to_nodes;
  std::vector<cudaGraphNode_t> nodelist;
  graphNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, from_nodes, to_nodes, nodelist);

  // Create dependencies
  HIP_CHECK(cudaGraphAddDependencies(graph, &from_nodes[0], &to_nodes[0], 6));

  // Validate cudaGraphGetEdges() API
  // Scenario 1
  SECTION("Validate number of edges") {
    size_t numEdges = 0;
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(numEdges == kNumOfEdges);
  }
  // Scenario 2
  SECTION("Validate from/to list when numEdges = num of edges") {
    validate_hipGraphGetEdges_fromto(kNumOfEdges, GraphGetNodesTest::equalNumNodes, from_nodes,
                                     to_nodes, graph);
  }
  // Scenario 3
  SECTION("Validate from/to list when numEdges = less than num of edges") {
    validate_hipGraphGetEdges_fromto(kNumOfEdges - 1, GraphGetNodesTest::lesserNumNodes, from_nodes,
                                     to_nodes, graph);
  }
  // Scenario 4
  SECTION("Validate from/to list when numEdges = more than num of edges") {
    validate_hipGraphGetEdges_fromto(kNumOfEdges + 1, GraphGetNodesTest::greaterNumNodes,
                                     from_nodes, to_nodes, graph);
  }
  // Scenario 5
  SECTION("Validate number of edges when zero or one node in graph") {
    size_t numEdges = 0;
    cudaGraph_t graphempty;
    HIP_CHECK(cudaGraphCreate(&graphempty, 0));
    HIP_CHECK(cudaGraphGetEdges(graphempty, nullptr, nullptr, &numEdges));
    REQUIRE(numEdges == 0);
    // Add an empty node
    cudaGraphNode_t emptyNode{};
    HIP_CHECK(cudaGraphAddEmptyNode(&emptyNode, graphempty, nullptr, 0));
    HIP_CHECK(cudaGraphGetEdges(graphempty, nullptr, nullptr, &numEdges));
    REQUIRE(numEdges == 0);
    HIP_CHECK(cudaGraphDestroy(graphempty));
  }
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphDestroy(graph));
}

static void Unit_hipGraphGetEdges_Positive_CapturedStream_pass() {
  cudaGraph_t graph{nullptr};
  constexpr size_t N = 1024;
  constexpr int numMemcpy[2]{2, 3}, numKernel[2]{2, 3}, numMemset[2]{2, 0};
  int cntMemcpy[2]{}, cntKernel[2]{}, cntMemset[2]{};
  cudaGraphNodeType nodeType;
  int *A_d, *B_d, *C_d;
  int *A_h, *B_h, *C_h;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

  // Create streams and events
  StreamsGuard streams(3);
  EventsGuard events(3);

  // Capture stream
  captureNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, streams.stream_list(),
                     events.event_list());
  REQUIRE(graph != nullptr);

  size_t numEdges = 0;
  HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
  REQUIRE(numEdges == kNumOfEdges);

  int numBytes = sizeof(cudaGraphNode_t) * numEdges;
  cudaGraphNode_t* from_nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
  REQUIRE(from_nodes != nullptr);
  cudaGraphNode_t* to_nodes = reinterpret_cast<cudaGraphNode_t*>(malloc(numBytes));
  REQUIRE(to_nodes != nullptr);

  HIP_CHECK(cudaGraphGetEdges(graph, from_nodes, to_nodes, &numEdges));
  for (size_t i = 0; i < 2; i++) {
    cudaGraphNode_t* current_nodes = (i == 0) ? from_nodes : to_nodes;
    for (size_t j = 0; j < numEdges; j++) {
        HIP_CHECK(cudaGraphNodeGetType(current_nodes[j], &nodeType));
        switch (nodeType) {
            case cudaGraphNodeTypeMemcpy:
              cntMemcpy[i]++;
              break;

            case cudaGraphNodeTypeKernel:
              cntKernel[i]++;
              break;

            case cudaGraphNodeTypeMemset:
              cntMemset[i]++;
              break;

            default:
              INFO("Unexpected nodetype returned : " << nodeType);
              REQUIRE(false);
        }
    }
    REQUIRE(cntMemcpy[i] == numMemcpy[i]);
    REQUIRE(cntKernel[i] == numKernel[i]);
    REQUIRE(cntMemset[i] == numMemset[i]);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

static void Unit_hipGraphGetEdges_Negative_Parameters_pass() {
  cudaGraph_t graph{}, graph_uninit{};
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t nodes_from[kNumOfEdges]{}, nodes_to[kNumOfEdges]{};

  cudaEvent_t event_start, event_end;
  HIP_CHECK(cudaEventCreateWithFlags(&event_start, cudaEventDisableTiming));
  HIP_CHECK(cudaEventCreateWithFlags(&event_end, cudaEventDisableTiming));

  // create event record nodes
  cudaGraphNode_t event_node_start, event_node_end;
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_start, graph, nullptr, 0, event_start));
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_end, graph, nullptr, 0, event_end));

  // Add dependency between nodes
  HIP_CHECK(cudaGraphAddDependencies(graph, &event_node_start, &event_node_end, 1));

  size_t numEdges = 0;
  SECTION("graph is nullptr") {
    HIP_CHECK_ERROR(cudaGraphGetEdges(nullptr, nodes_from, nodes_to, &numEdges),
                    cudaErrorInvalidValue);
  }

  SECTION("graph is uninitialized") {
    HIP_CHECK_ERROR(cudaGraphGetEdges(graph_uninit, nodes_from, nodes_to, &numEdges),
                    cudaErrorInvalidValue);
  }

  SECTION("From is nullptr") {
    HIP_CHECK_ERROR(cudaGraphGetEdges(graph, nullptr, nodes_to, &numEdges), cudaErrorInvalidValue);
  }

  SECTION("To is nullptr") {
    HIP_CHECK_ERROR(cudaGraphGetEdges(graph, nodes_from, nullptr, &numEdges), cudaErrorInvalidValue);
  }

  SECTION("numEdges is nullptr") {
    HIP_CHECK_ERROR(cudaGraphGetEdges(graph, nodes_from, nodes_to, nullptr), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event_end));
  HIP_CHECK(cudaEventDestroy(event_start));
}

static void Unit_hipGraphGetEdges_Positive_Functional() {
    RunSections(Unit_hipGraphGetEdges_Positive_Functional_pass);
}

static void Unit_hipGraphGetEdges_Positive_CapturedStream() {
    RunSections(Unit_hipGraphGetEdges_Positive_CapturedStream_pass);
}

static void Unit_hipGraphGetEdges_Negative_Parameters() {
    RunSections(Unit_hipGraphGetEdges_Negative_Parameters_pass);
}

} // namespace GetEdges

/* ---- hipGraphNodeGetDependencies.cc ---- */
namespace NodeGetDependencies {
static void Unit_hipGraphNodeGetDependencies_Positive_Functional_pass() {
  using namespace std::placeholders;
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraphNode_t kernel_vecSqr{}, kernel_vecAdd{};
  cudaGraphNode_t kernelmod1{}, kernelmod2{}, kernelmod3{};
  cudaGraphNode_t memcpyD2H{}, memcpyH2D_A{};
  cudaKernelNodeParams kernelNodeParams{};
  cudaGraph_t graph{nullptr};
  size_t numDeps{0};
  cudaStream_t streamForGraph;
  int *A_d, *C_d;
  int *A_h, *C_h;
  int *Res1_d, *Res2_d, *Res3_d;
  int *Sum_d, *Sum_h;
  cudaGraphExec_t graphExec;
  size_t NElem{N};

  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  HipTest::initArrays<int>(&A_d, &C_d, &Sum_d, &A_h, &C_h, &Sum_h, N);
  HipTest::initArrays<int>(&Res1_d, &Res2_d, &Res3_d, nullptr, nullptr, nullptr, N);

  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  // Initialize input buffer and vecsqr result
  for (size_t i = 0; i < N; ++i) {
    A_h[i] = i + 1;
    C_h[i] = A_h[i] * A_h[i];
  }

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                    cudaMemcpyHostToDevice));

  void* kernelArgsVS[] = {&A_d, &C_d, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(HipTest::vector_square<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgsVS);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecSqr, graph, &memcpyH2D_A, 1, &kernelNodeParams));

  // Create multiple nodes dependent on vecSqr node.
  // Dependent nodes takes vecSqr input and computes output independently.
  std::vector<cudaGraphNode_t> nodelist;
  int incValue1{1};
  void* kernelArgs1[] = {&C_d, &Res1_d, &incValue1, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod1, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod1);

  int incValue2{2};
  void* kernelArgs2[] = {&C_d, &Res2_d, &incValue2, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs2);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod2, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod2);

  int incValue3{3};
  void* kernelArgs3[] = {&C_d, &Res3_d, &incValue3, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs3);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod3, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod3);

  // Compute sum from all dependent nodes
  void* kernelArgsAdd[] = {&Res1_d, &Res2_d, &Res3_d, &Sum_d, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(vectorSum<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgsAdd);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nodelist.data(), nodelist.size(),
                                  &kernelNodeParams));

  HIP_CHECK(cudaGraphNodeGetDependencies(kernel_vecAdd, nullptr, &numDeps));
  REQUIRE(numDeps == nodelist.size());

  SECTION("Validate number of dependencies when numDeps = num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependencies, kernel_vecAdd, _1, _2),
                             nodelist, numDeps, GraphGetNodesTest::equalNumNodes);
  }

  SECTION("Validate number of dependencies when numDeps < num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependencies, kernel_vecAdd, _1, _2),
                             nodelist, numDeps - 1, GraphGetNodesTest::lesserNumNodes);
  }

  SECTION("Validate number of dependencies when numDeps > num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependencies, kernel_vecAdd, _1, _2),
                             nodelist, numDeps + 1, GraphGetNodesTest::greaterNumNodes);
  }

  SECTION("Validate number of dependecies is 0 when passed node is a root node") {
    cudaGraphNode_t depnodes;
    numDeps = 1;
    HIP_CHECK(cudaGraphNodeGetDependencies(memcpyH2D_A, &depnodes, &numDeps));

    // Api expected to return success and no dependencies.
    REQUIRE(numDeps == 0);
  }

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H, graph, &kernel_vecAdd, 1, Sum_h, Sum_d, Nbytes,
                                    cudaMemcpyDeviceToHost));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Validate the computation
  for (size_t i = 0; i < N; i++) {
    if (Sum_h[i] != ((C_h[i] + incValue1) + (C_h[i] + incValue2) + (C_h[i] + incValue3))) {
      INFO("Sum not matching at " << i << " Sum_h[i] " << Sum_h[i] << " C_h[i] " << C_h[i]);
      REQUIRE(false);
    }
  }

  HipTest::freeArrays<int>(A_d, C_d, Sum_d, A_h, C_h, Sum_h, false);
  HipTest::freeArrays<int>(Res1_d, Res2_d, Res3_d, nullptr, nullptr, nullptr, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphNodeGetDependencies_Negative_Parameters_pass() {
  cudaGraph_t graph{};
  const int numBytes = 100;
  size_t numDeps{1};
  cudaGraphNode_t memsetNode{}, depnodes{};
  char* A_d;

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaMalloc(&A_d, numBytes));
  cudaMemsetParams memsetParams{};
  memsetParams.dst = reinterpret_cast<void*>(A_d);
  memsetParams.value = 1;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = numBytes * sizeof(char);
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));

  SECTION("node as nullptr") {
    HIP_CHECK_ERROR(cudaGraphNodeGetDependencies(nullptr, &depnodes, &numDeps),
                    cudaErrorInvalidValue);
  }

  SECTION("NumDependencies as nullptr") {
    HIP_CHECK_ERROR(cudaGraphNodeGetDependencies(memsetNode, &depnodes, nullptr),
                    cudaErrorInvalidValue);
  }

  SECTION("node as un-initialized/invalid parameter") {
    cudaGraphNode_t uninit_node{};
    HIP_CHECK_ERROR(cudaGraphNodeGetDependencies(uninit_node, &depnodes, &numDeps),
                    cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaFree(A_d));
}

static void Unit_hipGraphNodeGetDependencies_Positive_Functional() {
    RunSections(Unit_hipGraphNodeGetDependencies_Positive_Functional_pass);
}

static void Unit_hipGraphNodeGetDependencies_Negative_Parameters() {
    RunSections(Unit_hipGraphNodeGetDependencies_Negative_Parameters_pass);
}

} // namespace NodeGetDependencies

/* ---- hipGraphNodeGetDependentNodes.cc ---- */
namespace NodeGetDependentNodes {
static void Unit_hipGraphNodeGetDependentNodes_Positive_Functional_pass() {
  using namespace std::placeholders;
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraphNode_t kernel_vecSqr{}, kernel_vecAdd{};
  cudaGraphNode_t kernelmod1{}, kernelmod2{}, kernelmod3{};
  cudaGraphNode_t memcpyD2H{}, memcpyH2D_A{};
  cudaKernelNodeParams kernelNodeParams{};
  cudaGraph_t graph{};
  size_t numDeps{};
  cudaStream_t streamForGraph;
  int *A_d, *C_d;
  int *A_h, *C_h;
  int *Res1_d, *Res2_d, *Res3_d;
  int *Sum_d, *Sum_h;
  cudaGraphExec_t graphExec;
  size_t NElem{N};

  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  HipTest::initArrays<int>(&A_d, &C_d, &Sum_d, &A_h, &C_h, &Sum_h, N);
  HipTest::initArrays<int>(&Res1_d, &Res2_d, &Res3_d, nullptr, nullptr, nullptr, N);

  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  // Initialize input buffer and vecsqr result
  for (size_t i = 0; i < N; ++i) {
    A_h[i] = i + 1;
    C_h[i] = A_h[i] * A_h[i];
  }

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                    cudaMemcpyHostToDevice));

  void* kernelArgsVS[] = {&A_d, &C_d, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(HipTest::vector_square<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgsVS);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecSqr, graph, &memcpyH2D_A, 1, &kernelNodeParams));

  // Create multiple nodes dependent on vecSqr node.
  // Dependent nodes takes vecSqr input and computes output independently.
  std::vector<cudaGraphNode_t> nodelist;
  int incValue1{1};
  void* kernelArgs1[] = {&C_d, &Res1_d, &incValue1, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod1, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod1);

  int incValue2{2};
  void* kernelArgs2[] = {&C_d, &Res2_d, &incValue2, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs2);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod2, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod2);

  int incValue3{3};
  void* kernelArgs3[] = {&C_d, &Res3_d, &incValue3, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(updateResult<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs3);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelmod3, graph, &kernel_vecSqr, 1, &kernelNodeParams));
  nodelist.push_back(kernelmod3);

  HIP_CHECK(cudaGraphNodeGetDependentNodes(kernel_vecSqr, nullptr, &numDeps));
  REQUIRE(numDeps == nodelist.size());

  SECTION("Validate number of dependent nodes when numDeps = num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependentNodes, kernel_vecSqr, _1, _2),
                             nodelist, numDeps, GraphGetNodesTest::equalNumNodes);
  }

  SECTION("Validate number of dependent nodes when numDeps < num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependentNodes, kernel_vecSqr, _1, _2),
                             nodelist, numDeps - 1, GraphGetNodesTest::lesserNumNodes);
  }

  SECTION("Validate number of dependent nodes when numDeps > num of nodes") {
    validateGraphNodesCommon(std::bind(cudaGraphNodeGetDependentNodes, kernel_vecSqr, _1, _2),
                             nodelist, numDeps + 1, GraphGetNodesTest::greaterNumNodes);
  }

  SECTION("Validate number of dependent nodes when passed node is the last in graph") {
    cudaGraphNode_t depnodes;
    numDeps = 1;
    HIP_CHECK(cudaGraphNodeGetDependentNodes(kernelmod3, &depnodes, &numDeps));

    // Api expected to return success and no dependent nodes.
    REQUIRE(numDeps == 0);
  }

  // Compute sum from all dependent nodes
  void* kernelArgsAdd[] = {&Res1_d, &Res2_d, &Res3_d, &Sum_d, reinterpret_cast<void*>(&NElem)};
  memset(&kernelNodeParams, 0, sizeof(kernelNodeParams));
  kernelNodeParams.func = reinterpret_cast<void*>(vectorSum<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgsAdd);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nodelist.data(), nodelist.size(),
                                  &kernelNodeParams));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H, graph, &kernel_vecAdd, 1, Sum_h, Sum_d, Nbytes,
                                    cudaMemcpyDeviceToHost));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Validate the computation
  for (size_t i = 0; i < N; i++) {
    if (Sum_h[i] != ((C_h[i] + incValue1) + (C_h[i] + incValue2) + (C_h[i] + incValue3))) {
      INFO("Sum not matching at " << i << " Sum_h[i] " << Sum_h[i] << " C_h[i] " << C_h[i]);
      REQUIRE(false);
    }
  }

  HipTest::freeArrays<int>(A_d, C_d, Sum_d, A_h, C_h, Sum_h, false);
  HipTest::freeArrays<int>(Res1_d, Res2_d, Res3_d, nullptr, nullptr, nullptr, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphNodeGetDependentNodes_Negative_Parameters_pass() {
  cudaGraph_t graph{};
  const int numBytes = 100;
  size_t numDeps{1};
  cudaGraphNode_t memsetNode{}, depnodes{};
  char* A_d;

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaMalloc(&A_d, numBytes));
  cudaMemsetParams memsetParams{};
  memsetParams.dst = reinterpret_cast<void*>(A_d);
  memsetParams.value = 1;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = numBytes * sizeof(char);
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));

  SECTION("node as nullptr") {
    HIP_CHECK_ERROR(cudaGraphNodeGetDependentNodes(nullptr, &depnodes, &numDeps),
                    cudaErrorInvalidValue);
  }

  SECTION("NumDependentNodes as nullptr") {
    HIP_CHECK_ERROR(cudaGraphNodeGetDependentNodes(memsetNode, &depnodes, nullptr),
                    cudaErrorInvalidValue);
  }

  SECTION("node as un-initialized/invalid parameter") {
    cudaGraphNode_t uninit_node{};
    HIP_CHECK_ERROR(cudaGraphNodeGetDependentNodes(uninit_node, &depnodes, &numDeps),
                    cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaFree(A_d));
}

static void Unit_hipGraphNodeGetDependentNodes_Positive_Functional() {
    RunSections(Unit_hipGraphNodeGetDependentNodes_Positive_Functional_pass);
}

static void Unit_hipGraphNodeGetDependentNodes_Negative_Parameters() {
    RunSections(Unit_hipGraphNodeGetDependentNodes_Negative_Parameters_pass);
}

} // namespace NodeGetDependentNodes

/* ---- hipGraphRemoveDependencies.cc ---- */
namespace RemoveDependencies {
static constexpr size_t kNumOfEdges = 6;

static __global__ void vector_square(int* A_d, size_t N_ELMTS) {
    size_t gputhread = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    int temp = 0;
    for (size_t i = gputhread; i < N_ELMTS; i += stride) {
        temp = A_d[i] * A_d[i];
        A_d[i] = temp;
    }
}

static void Unit_hipGraphRemoveDependencies_Positive_Functional_pass() {
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;

    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

    HIP_CHECK(cudaGraphCreate(&graph, 0));

    std::vector<cudaGraphNode_t> from_nodes;
    std::vector<cudaGraphNode_t> to_nodes;
    std::vector<cudaGraphNode_t> nodelist;
    graphNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, from_nodes, to_nodes, nodelist);

    // Create dependencies
    HIP_CHECK(cudaGraphAddDependencies(graph, &from_nodes[0], &to_nodes[0], 6));

    size_t numEdgesExpected = kNumOfEdges;
    /* Catch2's nested sections: "Remove some dependencies" holds "Node by Node" and "Node lists"; each pass enters
     * one leaf, with the outer section's code around it. */
    auto removeSomeDependencies = [&](bool nodeByNode) {
        // Remove some dependencies
        constexpr size_t numEdgesRemoved = 3;
        cudaGraphNode_t expected_from_nodes[numEdgesRemoved] = {from_nodes[2], from_nodes[3],
                                                                 from_nodes[4]};
        cudaGraphNode_t expected_to_nodes[numEdgesRemoved] = {to_nodes[2], to_nodes[3], to_nodes[4]};

        if (nodeByNode) { /* SECTION("Node by Node") */
            HIP_CHECK(cudaGraphRemoveDependencies(graph, &from_nodes[2], &to_nodes[2], 1));
            HIP_CHECK(cudaGraphRemoveDependencies(graph, &from_nodes[3], &to_nodes[3], 1));
            HIP_CHECK(cudaGraphRemoveDependencies(graph, &from_nodes[4], &to_nodes[4], 1));
        } else { /* SECTION("Node lists") */
            HIP_CHECK(cudaGraphRemoveDependencies(graph, expected_from_nodes, expected_to_nodes,
                                                 numEdgesRemoved));
        }

        // Validate manually with cudaGraphGetEdges() API
        cudaGraphNode_t fromnode[kNumOfEdges]{};
        cudaGraphNode_t tonode[kNumOfEdges]{};
        size_t numEdges = kNumOfEdges;
        HIP_CHECK(cudaGraphGetEdges(graph, fromnode, tonode, &numEdges));

        bool nodeFound;
        int found_count = 0;
        for (size_t idx_from = 0; idx_from < numEdgesRemoved; idx_from++) {
            nodeFound = false;
            int idx = 0;
            for (; idx < kNumOfEdges; idx++) {
                if (expected_from_nodes[idx_from] == fromnode[idx]) {
                    nodeFound = true;
                    break;
                }
            }
            if (nodeFound && (tonode[idx] == expected_to_nodes[idx_from])) {
                found_count++;
            }
        }
        // Ensure none of the nodes are discovered
        REQUIRE(0 == found_count);
        numEdgesExpected = kNumOfEdges - numEdgesRemoved;
    };
    SECTION("Remove some dependencies / Node by Node") {
        removeSomeDependencies(true);
    }
    SECTION("Remove some dependencies / Node lists") {
        removeSomeDependencies(false);
    }
    SECTION("Remove all dependencies") {
        size_t numEdges = kNumOfEdges;
        cudaGraphNode_t fromnode[kNumOfEdges]{};
        cudaGraphNode_t tonode[kNumOfEdges]{};
        HIP_CHECK(cudaGraphGetEdges(graph, fromnode, tonode, &numEdges));

        HIP_CHECK(cudaGraphRemoveDependencies(graph, fromnode, tonode, numEdges));
        numEdgesExpected = 0;
    }

    // Validate with returned number of edges from cudaGraphGetEdges() API
    size_t numEdges = 0;
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(numEdgesExpected == numEdges);
    // Destroy
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    HIP_CHECK(cudaGraphDestroy(graph));
}

static void Unit_hipGraphRemoveDependenciesPositive_CapturedStream_pass() {
    cudaGraph_t graph;
    constexpr size_t N = 1024;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;

    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
    // Create streams and events
    StreamsGuard streams(3);
    EventsGuard events(3);

    // Capture stream
    captureNodesCommon(graph, A_h, A_d, B_h, B_d, C_h, C_d, N, streams.stream_list(),
                       events.event_list());

    cudaGraphNode_t* nodes{nullptr};
    size_t numNodes = 0, numEdges = 0;
    HIP_CHECK(cudaGraphGetNodes(graph, nodes, &numNodes));
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(7 == numNodes);
    REQUIRE(kNumOfEdges == numEdges);
    // Get the edges and remove one edge. Verify edge is removed.
    cudaGraphNode_t fromnode[kNumOfEdges]{};
    cudaGraphNode_t tonode[kNumOfEdges]{};
    HIP_CHECK(cudaGraphGetEdges(graph, fromnode, tonode, &numEdges));
    size_t expected_num_edges = kNumOfEdges;

    SECTION("Remove some dependencies") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &fromnode[0], &tonode[0], 1));
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &fromnode[1], &tonode[1], 1));
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &fromnode[2], &tonode[2], 1));
        expected_num_edges = 3;
    }
    SECTION("Remove all dependencies") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, fromnode, tonode, numEdges));
        expected_num_edges = 0;
    }
    // Verify
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(expected_num_edges == numEdges);
    // Destroy
    HIP_CHECK(cudaGraphDestroy(graph));
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

static void Unit_hipGraphRemoveDependencies_Positive_ChangeComputeFunc_pass() {
    cudaStream_t streamForGraph;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;  // to hide latency
    constexpr auto threadsPerBlock = 256;
    cudaGraph_t graph;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd, kernel_square;
    cudaKernelNodeParams kernelNodeParams{};
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    size_t NElem{N};

    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_d, B_h, Nbytes,
                                      cudaMemcpyHostToDevice));

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, C_h, C_d, Nbytes,
                                      cudaMemcpyDeviceToHost));

    void* kernelArgs2[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs2);
    kernelNodeParams.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams));

    // Create dependencies
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1));
    // Instantiate and execute Graph
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));
    // Validate
    bool bMismatch = false;
    for (size_t idx = 0; idx < NElem; idx++) {
        if (C_h[idx] != (A_h[idx] + B_h[idx])) {
            bMismatch = true;
            break;
        }
    }
    REQUIRE(false == bMismatch);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    // Remove dependency memcpyH2D_B -> kernel_vecAdd and
    // add new dependencies memcpyH2D_B -> kernel_square -> kernel_vecAdd
    // Square kernel
    void* kernelArgs1[] = {&B_d, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void*>(vector_square);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&kernel_square, graph, nullptr, 0, &kernelNodeParams));
    HIP_CHECK(cudaGraphRemoveDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1));
    // Add new dependencies
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_square, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &kernel_square, &kernel_vecAdd, 1));
    size_t numEdges = 0, numNodes = 0;
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(4 == numEdges);
    HIP_CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
    REQUIRE(5 == numNodes);
    // Instantiate and execute graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));
    // Validate
    bMismatch = false;
    for (size_t idx = 0; idx < NElem; idx++) {
        if (C_h[idx] != (A_h[idx] + B_h[idx] * B_h[idx])) {
            bMismatch = true;
            break;
        }
    }
    REQUIRE(false == bMismatch);
    // Destroy
    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphRemoveDependencies_Positive_Parameters_pass() {
    constexpr size_t Nbytes = 1024;
    cudaGraphNode_t memcpyH2D_A;
    cudaGraphNode_t memcpyD2H_A;
    cudaGraphNode_t memset_A;
    cudaMemsetParams memsetParams{};
    char* A_d;
    char* A_h;
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    HIP_CHECK(cudaMalloc(&A_d, Nbytes));
    A_h = reinterpret_cast<char*>(malloc(Nbytes));

    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;

    HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams));

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_A, graph, nullptr, 0, A_h, A_d, Nbytes,
                                      cudaMemcpyDeviceToHost));

    HIP_CHECK(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_A, 1));
    size_t totalEdges = 2;
  #if HT_NVIDIA // EXSWHTEC-218
    SECTION("numDependencies is zero, To/From are nullptr") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, nullptr, nullptr, 0));
    }
    SECTION("numDependencies is zero, To or From are nullptr") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &memcpyH2D_A, nullptr, 0));
        HIP_CHECK(cudaGraphRemoveDependencies(graph, nullptr, &memcpyH2D_A, 0));
    }
  #endif
    SECTION("numDependencies is zero, To/From are valid") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &memcpyH2D_A, &memcpyD2H_A, 0));
    }
    SECTION("numDependencies is zero, To/From are the same") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &memcpyH2D_A, &memcpyH2D_A, 0));
    }

    size_t numEdges = 0;
    HIP_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, &numEdges));
    REQUIRE(totalEdges == numEdges);

    SECTION("numDependencies < To/From length") {
        size_t numDependencies = 0;
        cudaGraphNode_t from_list[] = {memset_A, memcpyH2D_A};
        cudaGraphNode_t to_list[] = {memcpyH2D_A, memcpyD2H_A};
        HIP_CHECK(cudaGraphRemoveDependencies(graph, from_list, to_list, 1));
        HIP_CHECK(cudaGraphNodeGetDependencies(memcpyH2D_A, nullptr, &numDependencies));
        REQUIRE(numDependencies == 0);
        HIP_CHECK(cudaGraphNodeGetDependencies(memcpyD2H_A, nullptr, &numDependencies));
        REQUIRE(numDependencies == 1);
    }
    // Destroy
    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaGraphDestroy(graph));
    free(A_h);
}

static void Unit_hipGraphRemoveDependencies_Negative_Parameters_pass() {
    cudaGraph_t graph{};
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaEvent_t event_start, event_end;
    HIP_CHECK(cudaEventCreateWithFlags(&event_start, cudaEventDisableTiming));
    HIP_CHECK(cudaEventCreateWithFlags(&event_end, cudaEventDisableTiming));
    // memset node
    constexpr size_t Nbytes = 1024;
    char* A_d;
    cudaGraphNode_t memset_A;
    cudaMemsetParams memsetParams{};
    HIP_CHECK(cudaMalloc(&A_d, Nbytes));
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(A_d);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = Nbytes;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams));
    // create event record node
    cudaGraphNode_t event_node_start, event_node_end;
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_start, graph, nullptr, 0, event_start));
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_node_end, graph, nullptr, 0, event_end));
    // Add dependencies between nodes
    HIP_CHECK(cudaGraphAddDependencies(graph, &event_node_start, &memset_A, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memset_A, &event_node_end, 1));

    SECTION("graph is nullptr") {
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(nullptr, &event_node_start, &memset_A, 1),
                        cudaErrorInvalidValue);
    }

    SECTION("graph is uninitialized") {
        cudaGraph_t graph_uninit{};
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph_uninit, &event_node_start, &memset_A, 1),
                        cudaErrorInvalidValue);
    }

    SECTION("To or From is nullptr") {
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, nullptr, &memset_A, 1), cudaErrorInvalidValue);
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, &event_node_start, nullptr, 1),
                        cudaErrorInvalidValue);
    }

    SECTION("To/From are nullptr") {
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, nullptr, nullptr, 1), cudaErrorInvalidValue);
    }
  #if HT_NVIDIA // EXSWHTEC-218
    SECTION("To/From belong to different graph") {
        cudaGraph_t graph1;
        cudaGraphNode_t emptyNode1{};
        cudaGraphNode_t emptyNode2{};
        HIP_CHECK(cudaGraphCreate(&graph1, 0));
        // create empty node
        HIP_CHECK(cudaGraphAddEmptyNode(&emptyNode1, graph1, nullptr, 0));
        HIP_CHECK(cudaGraphAddEmptyNode(&emptyNode2, graph1, nullptr, 0));
        HIP_CHECK(cudaGraphAddDependencies(graph1, &emptyNode1, &emptyNode2, 1));
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, &emptyNode1, &emptyNode2, 1),
                        cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphDestroy(graph1));
    }
  #endif
    SECTION("Remove non existing dependency") {
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, &event_node_start, &event_node_end, 1),
                        cudaErrorInvalidValue);
    }

    SECTION("Remove same dependency twice") {
        HIP_CHECK(cudaGraphRemoveDependencies(graph, &event_node_start, &memset_A, 1));
        HIP_CHECK_ERROR(cudaGraphRemoveDependencies(graph, &event_node_start, &memset_A, 1),
                        cudaErrorInvalidValue);
    }

    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event_end));
    HIP_CHECK(cudaEventDestroy(event_start));
}
static void Unit_hipGraphRemoveDependencies_Positive_Functional() {
    RunSections(Unit_hipGraphRemoveDependencies_Positive_Functional_pass);
}
static void Unit_hipGraphRemoveDependenciesPositive_CapturedStream() {
    RunSections(Unit_hipGraphRemoveDependenciesPositive_CapturedStream_pass);
}
static void Unit_hipGraphRemoveDependencies_Positive_ChangeComputeFunc() {
    RunSections(Unit_hipGraphRemoveDependencies_Positive_ChangeComputeFunc_pass);
}
static void Unit_hipGraphRemoveDependencies_Positive_Parameters() {
    RunSections(Unit_hipGraphRemoveDependencies_Positive_Parameters_pass);
}
static void Unit_hipGraphRemoveDependencies_Negative_Parameters() {
    RunSections(Unit_hipGraphRemoveDependencies_Negative_Parameters_pass);
}
} // namespace RemoveDependencies

int main() {
    HIP_TEST_CASE(GetNodes::Unit_hipGraphGetNodes_Positive_Functional);
    HIP_TEST_CASE(GetNodes::Unit_hipGraphGetNodes_Positive_CapturedStream);
    HIP_TEST_CASE(GetNodes::Unit_hipGraphGetNodes_Negative_Parameters);
    HIP_TEST_CASE(GetRootNodes::Unit_hipGraphGetRootNodes_Positive_Functional);
    HIP_TEST_CASE(GetRootNodes::Unit_hipGraphGetRootNodes_Positive_CapturedStream);
    HIP_TEST_CASE(GetRootNodes::Unit_hipGraphGetRootNodes_Negative_Parameters);
    HIP_TEST_CASE(GetEdges::Unit_hipGraphGetEdges_Positive_Functional);
    HIP_TEST_CASE(GetEdges::Unit_hipGraphGetEdges_Positive_CapturedStream);
    HIP_TEST_CASE(GetEdges::Unit_hipGraphGetEdges_Negative_Parameters);
    HIP_TEST_CASE(NodeGetDependencies::Unit_hipGraphNodeGetDependencies_Positive_Functional);
    HIP_TEST_CASE(NodeGetDependencies::Unit_hipGraphNodeGetDependencies_Negative_Parameters);
    HIP_TEST_CASE(NodeGetDependentNodes::Unit_hipGraphNodeGetDependentNodes_Positive_Functional);
    HIP_TEST_CASE(NodeGetDependentNodes::Unit_hipGraphNodeGetDependentNodes_Negative_Parameters);
    HIP_TEST_CASE(RemoveDependencies::Unit_hipGraphRemoveDependencies_Positive_Functional);
    HIP_TEST_CASE(RemoveDependencies::Unit_hipGraphRemoveDependenciesPositive_CapturedStream);
    HIP_TEST_CASE(RemoveDependencies::Unit_hipGraphRemoveDependencies_Positive_ChangeComputeFunc);
    HIP_TEST_CASE(RemoveDependencies::Unit_hipGraphRemoveDependencies_Positive_Parameters);
    HIP_TEST_CASE(RemoveDependencies::Unit_hipGraphRemoveDependencies_Negative_Parameters);
    printf("hip-tests graph queries: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
