/*
 * hip_tests_graph_exec_set_params.cu — ROCm hip-tests' catch/unit/graph/hipGraphExecEventRecordNodeSetEvent.cc,
 * hipGraphExecEventWaitNodeSetEvent.cc, hipGraphExecHostNodeSetParams.cc, hipGraphExecKernelNodeSetParams.cc and
 * hipGraphExecDestroy.cc (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated
 * to the CUDA runtime names (hipX → cudaX) as a .cu program that both `streamsim cc` and NVIDIA's nvcc build (the
 * kernels run on the CPU): every test case of these files that hip-tests builds for NVIDIA.
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Changes:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them); hip_test_kernels.hh's vectorSUB and hip_test_checkers.hh's checkVectorSUB are written out here.
 *     HT_NVIDIA is 1 and HT_AMD 0: the NVIDIA sections are kept, the AMD one (Unit_hipGraphExecKernelNodeSetParams_
 *     Negative's "Pass NodeParams as nullptr") is left out as upstream leaves it out on NVIDIA.
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0) (CUDA 12's
 *     form); hipBlockIdx_x / hipBlockDim_x / hipThreadIdx_x → blockIdx.x / blockDim.x / threadIdx.x; a missing ;
 *     after one HIP_CHECK (hip-tests' macro is a block) added. hipErrorInvalidHandle (cudaEventElapsedTime on
 *     events without timing) → cudaErrorInvalidResourceHandle, the code HIP's NVIDIA layer maps it from and the
 *     one the Runtime API lists.
 *   - Unit_hipGraphExecHostNodeSetParams_ClonedGraphWithHostNode clones its graph before adding the edges to the
 *     original, so the clone's three copies are unordered, as on a GPU: the copy into C_d and the copy out of it
 *     race (the simulator's one report; the check reads C_h, which only the host node writes). Kept as upstream.
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
#include <vector>

#include "hip_tests_cu.h"

#define HT_NVIDIA 1
#define HT_AMD 0

namespace HipTest {
/* hip_test_kernels.hh */
template <typename T> __global__ void vectorSUB(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (size_t i = offset; i < NELEM; i += stride) {
        C_d[i] = A_d[i] - B_d[i];
    }
}

/* hip_test_checkers.hh */
template <typename T>
size_t checkVectorSUB(T *A_h, T *B_h, T *result_H, size_t N, bool expectMatch = true, bool reportMismatch = true) {
    return checkVectors<T>(A_h, B_h, result_H, N, [](T a, T b) { return a - b; }, expectMatch, reportMismatch);
}
} // namespace HipTest

/* ---- hipGraphExecEventRecordNodeSetEvent.cc ---- */
namespace ExecEventRecordNodeSetEvent {
static __global__ void copy_ker_func(int* a, int* b, size_t N) {
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    if (tx < N) b[tx] = a[tx];
}

static void Unit_hipGraphExecEventRecordNodeSetEvent_Functional_pass() {
    constexpr size_t gridSize = 512;
    constexpr size_t blockSize = 512;
    constexpr size_t N = gridSize * blockSize;
    size_t memsize = N * sizeof(int);
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    // Create events
    cudaEvent_t event_start, event1_end, event2_end;
    HIP_CHECK(cudaEventCreate(&event_start));
    HIP_CHECK(cudaEventCreate(&event1_end));
    HIP_CHECK(cudaEventCreate(&event2_end));
    // Create nodes with event_start and event1_end
    cudaGraphNode_t event_start_rec, event_end_rec;
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_start_rec, graph, nullptr, 0, event_start));
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_end_rec, graph, nullptr, 0, event1_end));
    int *inp_h, *inp_d, *out_h, *out_d;
    // Allocate host buffers
    inp_h = reinterpret_cast<int*>(malloc(memsize));
    REQUIRE(inp_h != nullptr);
    out_h = reinterpret_cast<int*>(malloc(memsize));
    REQUIRE(out_h != nullptr);
    // Allocate device buffers
    HIP_CHECK(cudaMalloc(&inp_d, memsize));
    HIP_CHECK(cudaMalloc(&out_d, memsize));
    // Initialize host buffer
    for (uint32_t i = 0; i < N; i++) {
        inp_h[i] = i;
        out_h[i] = 0;
    }
    // graph creation ...........
    // Create memcpy and kernel nodes for graph
    cudaGraphNode_t memcpyH2D, memcpyD2H, kernelnode;
    cudaKernelNodeParams kernelNodeParams{};
    size_t NElem{N};
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D, graph, nullptr, 0, inp_d, inp_h, memsize,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H, graph, nullptr, 0, out_h, out_d, memsize,
                                      cudaMemcpyDeviceToHost));
    void* kernelArgs1[] = {&inp_d, &out_d, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void*>(copy_ker_func);
    kernelNodeParams.gridDim = dim3(gridSize);
    kernelNodeParams.blockDim = dim3(blockSize);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
    kernelNodeParams.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&kernelnode, graph, nullptr, 0, &kernelNodeParams));

    // Create dependencies for graph
    HIP_CHECK(cudaGraphAddDependencies(graph, &event_start_rec, &memcpyH2D, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D, &kernelnode, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &kernelnode, &memcpyD2H, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyD2H, &event_end_rec, 1));
    // Instantiate and launch the graph
    cudaStream_t streamForGraph;
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    // Change the event at event_end_rec node to event2_end
    HIP_CHECK(cudaGraphExecEventRecordNodeSetEvent(graphExec, event_end_rec, event2_end));

    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    // Wait for graph to complete
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));
    // Validate output
    bool btestPassed = true;
    for (uint32_t i = 0; i < N; i++) {
        if (out_h[i] != inp_h[i]) {
            btestPassed = false;
            break;
        }
    }
    REQUIRE(btestPassed == true);
    // Validate the changed events
    float t = 0.0f;
    HIP_CHECK(cudaEventElapsedTime(&t, event_start, event2_end));
    REQUIRE(t > 0.0f);
    // Since event1_end is never recorded, cudaEventElapsedTime
    // should return error code.
    HIP_CHECK_ERROR(cudaEventElapsedTime(&t, event_start, event1_end), cudaErrorInvalidResourceHandle);
    // Free resources
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaFree(inp_d));
    HIP_CHECK(cudaFree(out_d));
    free(inp_h);
    free(out_h);
    HIP_CHECK(cudaEventDestroy(event_start));
    HIP_CHECK(cudaEventDestroy(event1_end));
    HIP_CHECK(cudaEventDestroy(event2_end));
    HIP_CHECK(cudaGraphDestroy(graph));
}

static void Unit_hipGraphExecEventRecordNodeSetEvent_VerifyEventNotChanged_pass() {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaEvent_t event1, event2, event_out;
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventCreate(&event2));
    cudaGraphNode_t eventrec;
    HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphExecEventRecordNodeSetEvent(graphExec, eventrec, event2));
    HIP_CHECK(cudaGraphEventRecordNodeGetEvent(eventrec, &event_out));
    // validate set event and get event are same
    REQUIRE(event1 == event_out);
    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event2));
    HIP_CHECK(cudaEventDestroy(event1));
}

static void Unit_hipGraphExecEventRecordNodeSetEvent_Positive_DifferentDevices_pass() {
    const auto device_count = HipTest::getDeviceCount();
    if (device_count < 2) {
        HipTest::HIP_SKIP_TEST("Skipping because devices < 2");
        return;
    }
    cudaGraphExec_t graphExec;
    cudaStream_t streamForGraph;
    cudaGraph_t graph;
    cudaEvent_t event1, event2;

    HIP_CHECK(cudaSetDevice(0));
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaSetDevice(1));
    HIP_CHECK(cudaEventCreate(&event2));

    HIP_CHECK(cudaSetDevice(0));
    cudaGraphNode_t eventrec;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));

    // Verify event on different device can be set in graphExec
    // Instantiate and launch the graph
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphExecEventRecordNodeSetEvent(graphExec, eventrec, event2));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    // Wait for graph to complete
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));
    // Free resources
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event2));
    HIP_CHECK(cudaEventDestroy(event1)); /* the ; upstream leaves out */
}

static void Unit_hipGraphExecEventRecordNodeSetEvent_Negative_pass() {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaEvent_t event1, event2;
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventCreate(&event2));
    cudaGraphNode_t eventrec;
    HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
    // Create memset
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

    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    SECTION("hGraphExec = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(nullptr, eventrec, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("hNode = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, nullptr, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("event = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, eventrec, nullptr),
                        cudaErrorInvalidValue);
    }

    SECTION("hGraphExec is uninitialized") {
        cudaGraphExec_t graphExec1{};
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec1, eventrec, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("hNode is uninitialized") {
        cudaGraphNode_t dummy{};
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, dummy, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("event is uninitialized") {
        cudaEvent_t event_dummy{};
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, eventrec, event_dummy),
                        cudaErrorInvalidValue);
    }

    SECTION("event record node does not exist") {
        cudaGraph_t graph1;
        HIP_CHECK(cudaGraphCreate(&graph1, 0));
        HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph1, nullptr, 0, &memsetParams));
        cudaGraphExec_t graphExec1;
        HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec1, eventrec, event2),
                        cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphExecDestroy(graphExec1));
        HIP_CHECK(cudaGraphDestroy(graph1));
    }

    SECTION("pass memset node as hNode") {
        HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams));
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, memset_A, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("pass event wait node as hNode") {
        cudaGraphNode_t event_wait_node;
        HIP_CHECK(cudaGraphAddEventWaitNode(&event_wait_node, graph, nullptr, 0, event1));
        HIP_CHECK_ERROR(cudaGraphExecEventRecordNodeSetEvent(graphExec, event_wait_node, event2),
                        cudaErrorInvalidValue);
    }

    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event1));
    HIP_CHECK(cudaEventDestroy(event2));
}
static void Unit_hipGraphExecEventRecordNodeSetEvent_Functional() {
    RunSections(Unit_hipGraphExecEventRecordNodeSetEvent_Functional_pass);
}
static void Unit_hipGraphExecEventRecordNodeSetEvent_VerifyEventNotChanged() {
    RunSections(Unit_hipGraphExecEventRecordNodeSetEvent_VerifyEventNotChanged_pass);
}
static void Unit_hipGraphExecEventRecordNodeSetEvent_Positive_DifferentDevices() {
    RunSections(Unit_hipGraphExecEventRecordNodeSetEvent_Positive_DifferentDevices_pass);
}
static void Unit_hipGraphExecEventRecordNodeSetEvent_Negative() {
    RunSections(Unit_hipGraphExecEventRecordNodeSetEvent_Negative_pass);
}
} // namespace ExecEventRecordNodeSetEvent

/* ---- hipGraphExecEventWaitNodeSetEvent.cc ---- */
namespace ExecEventWaitNodeSetEvent {
static __global__ void sqr_ker_func(int* a, int* b, size_t N) {
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    if (tx < N) b[tx] = a[tx] * a[tx];
}

static void Unit_hipGraphExecEventWaitNodeSetEvent_SetAndVerifyMemory_pass() {
    constexpr size_t gridSize = 64;
    constexpr size_t blockSize = 256;
    constexpr size_t N = gridSize * blockSize;
    size_t memsize = N * sizeof(int);
    cudaGraph_t graph1, graph2;
    HIP_CHECK(cudaGraphCreate(&graph1, 0));
    HIP_CHECK(cudaGraphCreate(&graph2, 0));
    // Create events
    cudaEvent_t event1, event2;
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventCreate(&event2));
    // Create nodes with event_start and event1_end
    cudaGraphNode_t event_rec;
    HIP_CHECK(cudaGraphAddEventRecordNode(&event_rec, graph1, nullptr, 0, event1));
    int *inp_h, *inp_d, *out_h, *out_d;
    // Allocate host buffers
    inp_h = reinterpret_cast<int*>(malloc(memsize));
    REQUIRE(inp_h != nullptr);
    out_h = reinterpret_cast<int*>(malloc(memsize));
    REQUIRE(out_h != nullptr);
    // Allocate device buffers
    HIP_CHECK(cudaMalloc(&inp_d, memsize));
    HIP_CHECK(cudaMalloc(&out_d, memsize));
    // Initialize host buffer
    for (uint32_t i = 0; i < N; i++) {
        inp_h[i] = i;
        out_h[i] = 0;
    }
    // graph1 creation ...........
    // Create memcpy and kernel nodes for graph1
    // MemcpyH2D -> kernel1 -> event_rec
    size_t NElem{N};
    cudaGraphNode_t memcpyH2D, kernelnode1;
    cudaKernelNodeParams kernelNodeParams1{};
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D, graph1, nullptr, 0, inp_d, inp_h, memsize,
                                      cudaMemcpyHostToDevice));
    void* kernelArgs[] = {&inp_d, &out_d, reinterpret_cast<void*>(&NElem)};
    kernelNodeParams1.func = reinterpret_cast<void*>(sqr_ker_func);
    kernelNodeParams1.gridDim = dim3(gridSize);
    kernelNodeParams1.blockDim = dim3(blockSize);
    kernelNodeParams1.sharedMemBytes = 0;
    kernelNodeParams1.kernelParams = reinterpret_cast<void**>(kernelArgs);
    kernelNodeParams1.extra = nullptr;
    HIP_CHECK(cudaGraphAddKernelNode(&kernelnode1, graph1, nullptr, 0, &kernelNodeParams1));
    // Create dependencies for graph1
    HIP_CHECK(cudaGraphAddDependencies(graph1, &memcpyH2D, &kernelnode1, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph1, &kernelnode1, &event_rec, 1));
    // graph2 creation ...........
    // waitnode(event1) -> MemcpyD2H
    cudaGraphNode_t event_wait_node, memcpyD2H;
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H, graph2, nullptr, 0, out_h, out_d, memsize,
                                      cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaGraphAddEventWaitNode(&event_wait_node, graph2, nullptr, 0, event1));
    HIP_CHECK(cudaGraphAddDependencies(graph2, &event_wait_node, &memcpyD2H, 1));
    // Instantiate graph1 and graph2
    cudaStream_t streamForGraph1, streamForGraph2;
    cudaGraphExec_t graphExec1, graphExec2;
    HIP_CHECK(cudaStreamCreate(&streamForGraph1));
    HIP_CHECK(cudaStreamCreate(&streamForGraph2));
    HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
    HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph2, 0));
    // Launch graph1 and graph2
    HIP_CHECK(cudaGraphLaunch(graphExec1, streamForGraph1));
    HIP_CHECK(cudaGraphLaunch(graphExec2, streamForGraph2));
    // Wait for graph2 to complete
    HIP_CHECK(cudaStreamSynchronize(streamForGraph2));
    // Validate output
    bool btestPassed = true;
    for (uint32_t i = 0; i < N; i++) {
        if (out_h[i] != (inp_h[i] * inp_h[i])) {
            btestPassed = false;
            break;
        }
    }
    REQUIRE(btestPassed == true);
    // cudaGraphExecEventWaitNodeSetEvent() TEST
    // Change the event at event_wait_node node to event2 and
    // the event at event_rec node to event2.
    HIP_CHECK(cudaGraphExecEventRecordNodeSetEvent(graphExec1, event_rec, event2));
    HIP_CHECK(cudaGraphExecEventWaitNodeSetEvent(graphExec2, event_wait_node, event2));
    // Launch graph1 and graph2
    HIP_CHECK(cudaGraphLaunch(graphExec1, streamForGraph1));
    HIP_CHECK(cudaGraphLaunch(graphExec2, streamForGraph2));
    // Wait for graph2 to complete
    HIP_CHECK(cudaStreamSynchronize(streamForGraph2));
    // Validate output
    btestPassed = true;
    for (uint32_t i = 0; i < N; i++) {
        if (out_h[i] != (inp_h[i] * inp_h[i])) {
            btestPassed = false;
            break;
        }
    }
    REQUIRE(btestPassed == true);
    // Free resources
    HIP_CHECK(cudaGraphExecDestroy(graphExec1));
    HIP_CHECK(cudaGraphExecDestroy(graphExec2));
    HIP_CHECK(cudaStreamDestroy(streamForGraph1));
    HIP_CHECK(cudaStreamDestroy(streamForGraph2));
    HIP_CHECK(cudaFree(inp_d));
    HIP_CHECK(cudaFree(out_d));
    free(inp_h);
    free(out_h);
    HIP_CHECK(cudaEventDestroy(event1));
    HIP_CHECK(cudaEventDestroy(event2));
    HIP_CHECK(cudaGraphDestroy(graph1));
    HIP_CHECK(cudaGraphDestroy(graph2));
}

static void Unit_hipGraphExecEventWaitNodeSetEvent_VerifyEventNotChanged_pass() {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaEvent_t event1, event2, event_out;
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventCreate(&event2));
    cudaGraphNode_t eventwait;
    HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event1));
    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphExecEventWaitNodeSetEvent(graphExec, eventwait, event2));
    HIP_CHECK(cudaGraphEventWaitNodeGetEvent(eventwait, &event_out));
    // validate set event and get event are same
    REQUIRE(event1 == event_out);
    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event2));
    HIP_CHECK(cudaEventDestroy(event1));
}

static void Unit_hipGraphExecEventWaitNodeSetEvent_Negative_pass() {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaEvent_t event1, event2;
    HIP_CHECK(cudaEventCreate(&event1));
    HIP_CHECK(cudaEventCreate(&event2));
    cudaGraphNode_t eventrec, eventwait;
    HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
    HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event1));
    // Create memset
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

    cudaGraphExec_t graphExec;
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    SECTION("hGraphExec = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(nullptr, eventwait, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("hNode = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, nullptr, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("event = nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, eventwait, nullptr),
                        cudaErrorInvalidValue);
    }

    SECTION("hGraphExec is uninitialized") {
        cudaGraphExec_t graphExec1{};
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec1, eventwait, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("hNode is uninitialized") {
        cudaGraphNode_t dummy{};
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, dummy, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("event is uninitialized") {
        cudaEvent_t event_dummy{};
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, eventwait, event_dummy),
                        cudaErrorInvalidValue);
    }

    SECTION("event wait node does not exist") {
        cudaGraph_t graph1;
        HIP_CHECK(cudaGraphCreate(&graph1, 0));
        HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph1, nullptr, 0, &memsetParams));
        cudaGraphExec_t graphExec1;
        HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec1, eventwait, event2),
                        cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphExecDestroy(graphExec1));
        HIP_CHECK(cudaGraphDestroy(graph1));
    }

    SECTION("pass memset node as hNode") {
        HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0, &memsetParams));
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, memset_A, event2),
                        cudaErrorInvalidValue);
    }

    SECTION("pass event record node as hNode") {
        HIP_CHECK_ERROR(cudaGraphExecEventWaitNodeSetEvent(graphExec, eventrec, event2),
                        cudaErrorInvalidValue);
    }

    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaEventDestroy(event1));
    HIP_CHECK(cudaEventDestroy(event2));
}
static void Unit_hipGraphExecEventWaitNodeSetEvent_SetAndVerifyMemory() {
    RunSections(Unit_hipGraphExecEventWaitNodeSetEvent_SetAndVerifyMemory_pass);
}
static void Unit_hipGraphExecEventWaitNodeSetEvent_VerifyEventNotChanged() {
    RunSections(Unit_hipGraphExecEventWaitNodeSetEvent_VerifyEventNotChanged_pass);
}
static void Unit_hipGraphExecEventWaitNodeSetEvent_Negative() {
    RunSections(Unit_hipGraphExecEventWaitNodeSetEvent_Negative_pass);
}
} // namespace ExecEventWaitNodeSetEvent

/* ---- hipGraphExecHostNodeSetParams.cc ---- */
namespace ExecHostNodeSetParams {
#define SIZE 1024

void callbackfunc(void* A_h) {
    int* A = reinterpret_cast<int*>(A_h);
    for (int i = 0; i < SIZE; i++) {
        A[i] = i;
    }
}

void callbackfunc_setparams(void* B_h) {
    int* B = reinterpret_cast<int*>(B_h);
    for (int i = 0; i < SIZE; i++) {
        B[i] = i * i;
    }
}

/*
This test case verifies the negative scenarios of
cudaGraphExecHostNodeSetParams API
*/
static void Unit_hipGraphExecHostNodeSetParams_Negative_pass() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *C_h{nullptr};
    HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memcpyH2D_A, memcpyD2H_AC, memcpyH2D_C;
    cudaStream_t streamForGraph;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_AC, graph, nullptr, 0, A_h, C_d, Nbytes,
                                      cudaMemcpyDeviceToHost));

    cudaGraphNode_t hostNode;
    cudaHostNodeParams hostParams = {0, 0};
    hostParams.fn = callbackfunc;
    hostParams.userData = A_h;
    HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_AC, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyD2H_AC, &hostNode, 1));

    cudaHostNodeParams sethostParams = {0, 0};
    sethostParams.fn = callbackfunc_setparams;
    sethostParams.userData = C_h;

    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, &hostNode, 1));

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    SECTION("Passing nullptr to graphExec") {
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(nullptr, hostNode, &sethostParams),
                        cudaErrorInvalidValue);
    }

    SECTION("Passing nullptr to hostParams") {
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, hostNode, nullptr),
                        cudaErrorInvalidValue);
    }

    SECTION("Passing nullptr to graph") {
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, nullptr, &sethostParams),
                        cudaErrorInvalidValue);
    }

    SECTION("Passing nullptr to host func") {
        sethostParams.fn = nullptr;
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, hostNode, &sethostParams),
                        cudaErrorInvalidValue);
    }

    SECTION("Passing uninitialized hostParams") {
        cudaHostNodeParams unintParams = {0, 0};
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, hostNode, &unintParams),
                        cudaErrorInvalidValue);
    }

  #if HT_NVIDIA // segfaults on AMD
    SECTION("node is not a host node") {
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, empty_node, &sethostParams),
                        cudaErrorInvalidValue);
    }
  #endif

    SECTION("node is not instantiated") {
        HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));
        HIP_CHECK_ERROR(cudaGraphExecHostNodeSetParams(graphExec, hostNode, &sethostParams),
                        cudaErrorInvalidValue);
    }

    HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/*
This test case verifies cudaGraphExecHostNodeSetParams API in cloned graph
Creates graph, Add graph nodes and clone the graph
Add HostNode to the cloned graph,update the host params using
cudaGraphExecHostNodeSetParams API and validates the result
*/
static void Unit_hipGraphExecHostNodeSetParams_ClonedGraphWithHostNode_pass() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *C_h{nullptr};
    HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_C, memcpyD2H_AC;
    cudaStream_t streamForGraph;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_AC, graph, nullptr, 0, A_h, C_d, Nbytes,
                                      cudaMemcpyDeviceToHost));

    cudaGraph_t clonedgraph;
    HIP_CHECK(cudaGraphClone(&clonedgraph, graph));

    cudaGraphNode_t hostNode;
    cudaHostNodeParams hostParams = {0, 0};
    hostParams.fn = callbackfunc;
    hostParams.userData = A_h;
    HIP_CHECK(cudaGraphAddHostNode(&hostNode, clonedgraph, nullptr, 0, &hostParams));

    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_AC, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));

    cudaHostNodeParams sethostParams = {0, 0};
    sethostParams.fn = callbackfunc_setparams;
    sethostParams.userData = C_h;

    // Instantiate and launch the cloned graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, clonedgraph, 0));
    HIP_CHECK(cudaGraphExecHostNodeSetParams(graphExec, hostNode, &sethostParams));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verify execution result
    for (size_t i = 0; i < N; i++) {
        if (C_h[i] != static_cast<int>(i * i)) {
            INFO("Validation failed i " << i << "C_h[i] " << C_h[i]);
            REQUIRE(false);
        }
    }

    HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/*
This test case verifies the following scenario
Create graph, Adds host node to the graph,
updates the host params using cudaGraphExecHostNodeSetParams API
and validates the result
*/
static void Unit_hipGraphExecHostNodeSetParams_BasicFunc_pass() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    int *A_d{nullptr}, *C_d{nullptr};
    int *A_h{nullptr}, *C_h{nullptr};
    HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t memcpyH2D_A, memcpyD2H_AC, memcpyH2D_C;
    cudaStream_t streamForGraph;
    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_AC, graph, nullptr, 0, A_h, C_d, Nbytes,
                                      cudaMemcpyDeviceToHost));

    cudaGraphNode_t hostNode;
    cudaHostNodeParams hostParams = {0, 0};
    hostParams.fn = callbackfunc;
    hostParams.userData = A_h;
    HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_AC, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyD2H_AC, &hostNode, 1));

    cudaHostNodeParams sethostParams = {0, 0};
    sethostParams.fn = callbackfunc_setparams;
    sethostParams.userData = C_h;

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    HIP_CHECK(cudaGraphExecHostNodeSetParams(graphExec, hostNode, &sethostParams));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verify execution result
    for (size_t i = 0; i < N; i++) {
        if (C_h[i] != static_cast<int>(i * i)) {
            INFO("Validation failed i " << i << "C_h[i] " << C_h[i]);
            REQUIRE(false);
        }
    }

    HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}
static void Unit_hipGraphExecHostNodeSetParams_Negative() {
    RunSections(Unit_hipGraphExecHostNodeSetParams_Negative_pass);
}
static void Unit_hipGraphExecHostNodeSetParams_ClonedGraphWithHostNode() {
    RunSections(Unit_hipGraphExecHostNodeSetParams_ClonedGraphWithHostNode_pass);
}
static void Unit_hipGraphExecHostNodeSetParams_BasicFunc() {
    RunSections(Unit_hipGraphExecHostNodeSetParams_BasicFunc_pass);
}
} // namespace ExecHostNodeSetParams

/* ---- hipGraphExecKernelNodeSetParams.cc ---- */
namespace ExecKernelNodeSetParams {
static void Unit_hipGraphExecKernelNodeSetParams_Negative_pass() {
    constexpr size_t N = 1024;
    constexpr auto blocksPerCU = 6;  // to hide latency
    constexpr auto threadsPerBlock = 256;
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    cudaGraph_t graph;
    cudaGraphNode_t kNode{};
    cudaKernelNodeParams kNodeParams{};
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    std::vector<cudaGraphNode_t> dependencies;
    cudaGraphExec_t graphExec;
    size_t NElem{N};

    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
    kNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
    kNodeParams.gridDim = dim3(blocks);
    kNodeParams.blockDim = dim3(threadsPerBlock);
    kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
    HIP_CHECK(cudaGraphAddKernelNode(&kNode, graph, nullptr, 0, &kNodeParams));

    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, &kNode, 1));

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    SECTION("Pass cudaGraphExec as nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(nullptr, kNode, &kNodeParams),
                        cudaErrorInvalidValue);
    }

    SECTION("Pass Node as nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, nullptr, &kNodeParams),
                        cudaErrorInvalidValue);
    }

  #if HT_AMD
    /* NodeParams null check is disabled on Nvidia as
     * this call gives SIGSEGV error in CUDA setup */
    SECTION("Pass NodeParams as nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, kNode, nullptr),
                        cudaErrorInvalidValue);
    }
  #endif

  #if HT_NVIDIA  // on AMD this returns cudaErrorInvalidValue
    SECTION("Pass NodeParams func data member as nullptr") {
        kNodeParams.func = nullptr;
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, kNode, &kNodeParams),
                        cudaErrorInvalidDeviceFunction);
    }
  #endif

  #if HT_NVIDIA  // segfaults on AMD
    SECTION("Pass kernelParams data member as nullptr") {
        kNodeParams.kernelParams = nullptr;
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, kNode, &kNodeParams),
                        cudaErrorInvalidValue);
    }
  #endif

  #if HT_NVIDIA  // segfaults on AMD
    SECTION("node is not a kernel node") {
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, empty_node, &kNodeParams),
                        cudaErrorInvalidValue);
    }
  #endif

    SECTION("node is not instantiated") {
        HIP_CHECK(cudaGraphAddKernelNode(&kNode, graph, nullptr, 0, &kNodeParams));
        HIP_CHECK_ERROR(cudaGraphExecKernelNodeSetParams(graphExec, kNode, &kNodeParams),
                        cudaErrorInvalidValue);
    }

    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static void Unit_hipGraphExecKernelNodeSetParams_Functional_pass() {
    constexpr size_t N = 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;  // to hide latency
    constexpr auto threadsPerBlock = 256;
    unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
    cudaGraph_t graph;
    cudaGraphNode_t memcpyNode, kNode;
    cudaKernelNodeParams kNodeParams{}, kNodeParams1{};
    cudaStream_t streamForGraph;
    int *A_d, *B_d, *C_d;
    int *A_h, *B_h, *C_h;
    std::vector<cudaGraphNode_t> dependencies;
    cudaGraphExec_t graphExec;
    size_t NElem{N};

    HIP_CHECK(cudaStreamCreate(&streamForGraph));
    HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
    HIP_CHECK(cudaGraphCreate(&graph, 0));

    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyNode, graph, nullptr, 0, A_d, A_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    dependencies.push_back(memcpyNode);
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyNode, graph, nullptr, 0, B_d, B_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    dependencies.push_back(memcpyNode);

    void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
    kNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
    kNodeParams.gridDim = dim3(blocks);
    kNodeParams.blockDim = dim3(threadsPerBlock);
    kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
    HIP_CHECK(
        cudaGraphAddKernelNode(&kNode, graph, dependencies.data(), dependencies.size(), &kNodeParams));

    kNodeParams1.func = reinterpret_cast<void*>(HipTest::vectorSUB<int>);
    kNodeParams1.gridDim = dim3(blocks);
    kNodeParams1.blockDim = dim3(threadsPerBlock);
    kNodeParams1.kernelParams = reinterpret_cast<void**>(kernelArgs);

    dependencies.clear();
    dependencies.push_back(kNode);
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyNode, graph, dependencies.data(), dependencies.size(),
                                      C_h, C_d, Nbytes, cudaMemcpyDeviceToHost));

    // Instantiate and launch the graph
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    HIP_CHECK(cudaGraphExecKernelNodeSetParams(graphExec, kNode, &kNodeParams1));
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    // Verify graph execution result
    HipTest::checkVectorSUB<int>(A_h, B_h, C_h, N);

    HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}
static void Unit_hipGraphExecKernelNodeSetParams_Negative() {
    RunSections(Unit_hipGraphExecKernelNodeSetParams_Negative_pass);
}
static void Unit_hipGraphExecKernelNodeSetParams_Functional() {
    RunSections(Unit_hipGraphExecKernelNodeSetParams_Functional_pass);
}
} // namespace ExecKernelNodeSetParams

/* ---- hipGraphExecDestroy.cc ---- */
namespace ExecDestroy {
static void Unit_hipGraphExecDestroy_Negative_Parameters_pass() {

    SECTION("Pass cudaGraphExecDestroy with nullptr") {
        HIP_CHECK_ERROR(cudaGraphExecDestroy(nullptr), cudaErrorInvalidValue);
    }

    SECTION("Pass cudaGraphExecDestroy with un-initilze structure") {
        cudaGraphExec_t graph_exec{};
        HIP_CHECK_ERROR(cudaGraphExecDestroy(graph_exec), cudaErrorInvalidValue);
    }
}

static void Unit_hipGraphExecDestroy_Positive_Basic_pass() {
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaStream_t streamForGraph;
    cudaGraphNode_t memsetNode;

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaStreamCreate(&streamForGraph));

    char *devData;
    HIP_CHECK(cudaMalloc(&devData, 1024));
    cudaMemsetParams memsetParams{};
    memset(&memsetParams, 0, sizeof(memsetParams));
    memsetParams.dst = reinterpret_cast<void*>(devData);
    memsetParams.value = 0;
    memsetParams.pitch = 0;
    memsetParams.elementSize = sizeof(char);
    memsetParams.width = 1024;
    memsetParams.height = 1;
    HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0,
                                    &memsetParams));

    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    REQUIRE(graphExec != nullptr);
    HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
    HIP_CHECK(cudaStreamSynchronize(streamForGraph));

    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaStreamDestroy(streamForGraph));
}
static void Unit_hipGraphExecDestroy_Negative_Parameters() {
    RunSections(Unit_hipGraphExecDestroy_Negative_Parameters_pass);
}
static void Unit_hipGraphExecDestroy_Positive_Basic() {
    RunSections(Unit_hipGraphExecDestroy_Positive_Basic_pass);
}
} // namespace ExecDestroy


int main() {
    HIP_TEST_CASE(ExecEventRecordNodeSetEvent::Unit_hipGraphExecEventRecordNodeSetEvent_Functional);
    HIP_TEST_CASE(ExecEventRecordNodeSetEvent::Unit_hipGraphExecEventRecordNodeSetEvent_VerifyEventNotChanged);
    HIP_TEST_CASE(ExecEventRecordNodeSetEvent::Unit_hipGraphExecEventRecordNodeSetEvent_Positive_DifferentDevices);
    HIP_TEST_CASE(ExecEventRecordNodeSetEvent::Unit_hipGraphExecEventRecordNodeSetEvent_Negative);
    HIP_TEST_CASE(ExecEventWaitNodeSetEvent::Unit_hipGraphExecEventWaitNodeSetEvent_SetAndVerifyMemory);
    HIP_TEST_CASE(ExecEventWaitNodeSetEvent::Unit_hipGraphExecEventWaitNodeSetEvent_VerifyEventNotChanged);
    HIP_TEST_CASE(ExecEventWaitNodeSetEvent::Unit_hipGraphExecEventWaitNodeSetEvent_Negative);
    HIP_TEST_CASE(ExecHostNodeSetParams::Unit_hipGraphExecHostNodeSetParams_Negative);
    HIP_TEST_CASE(ExecHostNodeSetParams::Unit_hipGraphExecHostNodeSetParams_ClonedGraphWithHostNode);
    HIP_TEST_CASE(ExecHostNodeSetParams::Unit_hipGraphExecHostNodeSetParams_BasicFunc);
    HIP_TEST_CASE(ExecKernelNodeSetParams::Unit_hipGraphExecKernelNodeSetParams_Negative);
    HIP_TEST_CASE(ExecKernelNodeSetParams::Unit_hipGraphExecKernelNodeSetParams_Functional);
    HIP_TEST_CASE(ExecDestroy::Unit_hipGraphExecDestroy_Negative_Parameters);
    HIP_TEST_CASE(ExecDestroy::Unit_hipGraphExecDestroy_Positive_Basic);
    printf("hip-tests graph exec set params: %d test cases, %d skipped: PASSED\n", hip_tests_cases,
           hip_tests_skipped);
    return 0;
}
