/*
 * hip_tests_graph_misc.cu — ROCm hip-tests' catch/unit/graph/hipGraphNodeSetEnabled.cc, hipGraphNodeGetEnabled.cc,
 * hipGraphUpload.cc and hipGraphInstantiateWithParams.cc (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime names (hipX → cudaX) as a .cu program
 * that both `streamsim cc` and NVIDIA's nvcc build (the kernels run on the CPU): every test case of these files.
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Each file's test cases are in a namespace of their own. Changes, marked STREAMSIM where they are:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them); `#define N 1024` → a constant of each namespace; UNSCOPED_INFO prints nothing.
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0) (CUDA 12's
 *     form); hipLaunchKernelGGL(k, grid, block, 0, stream, args…) → k<<<grid, block, 0, stream>>>(args…).
 *   - hipGraphInstantiateWithParams.cc declares its cudaGraphInstantiateParams without an initializer and sets
 *     `flags` only, so `uploadStream` is read uninitialized (the field belongs to cudaGraphInstantiateFlagUpload,
 *     which these calls do not pass); here each is value-initialized (`params{}`), the call kept.
 *   - Unit_hipGraphUpload_Functional_multidevice_test's common-stream section uploads and launches each device's
 *     graph into a stream of device 0: the suite runs the program with STREAMSIM_DEVICES=2, and the simulator
 *     accepts another device's stream in cudaGraphUpload as in cudaGraphLaunch (graph-building.md · GraphUpload).
 *   - Negative sections that pass a destroyed node, graph or executable graph expect cudaErrorInvalidValue, the
 *     Graph Management calls' code for a bad handle, as upstream.
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
#include <climits>
#include <cstdlib>
#include <cstring>

#include "hip_tests_cu.h"

#define UNSCOPED_INFO(msg) ((void)0)

/* A Catch2 TEST_CASE: its body runs once per SECTION (RunSections). */
#define HIP_PORT_CASE(name)                                                                                       \
    static void name##_pass();                                                                                    \
    static void name() { RunSections(name##_pass); }                                                              \
    static void name##_pass()

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

/* ---- hipGraphNodeSetEnabled.cc ---- */
namespace NodeSetEnabled {


constexpr int N = 1024;

/**
 * Functional Test for API - cudaGraphNodeSetEnabled
 1) Add MemCpy node to the graph and verify in graphExec it's enabled status
 2) Add MemSet node to the graph and verify in graphExec it's enabled status
 3) Add Kernel node to the graph and verify in graphExec it's enabled status
- Can check other node type, as only above 3 types are mentioned in the doc
 4) Add HostNode node to the graph and verify in graphExec it's enabled status
 5) Add emptyNode node to the graph and verify in graphExec it's enabled status
 6) Add ChildNode node to the graph and verify in graphExec it's enabled status
 7) Add EventWait node to the graph and verify in graphExec it's enabled status
 8) Add EventRecord node to the graph & verify in graphExec it's enabled status
 */

bool static verifyArray(char* A_h, char* C_h, size_t size) {
  for (size_t i = 0; i < size; i++) {
    if (C_h[i] != A_h[i]) {
      INFO("Array A and C not matching at " << i);
      return false;
    }
  }
  return true;
}

bool static verifyVectorSquare(int *A_h, int* C_h, size_t size) {
  for (size_t i = 0; i < size; i++) {
    if (C_h[i] != A_h[i] * A_h[i]) {
      INFO("VectorSquare A and C not matching at " << i);
      return false;
    }
  }
  return true;
}

static void callbackfunc(void *A_h) {
  int *A = reinterpret_cast<int *>(A_h);
  for (int i = 0; i < N; i++) {
    A[i] = i;
  }
}

HIP_PORT_CASE(Unit_hipGraphNodeSetEnabled_Functional_Basic) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, childGraph;
  cudaGraphNode_t memcpy_A, memcpy_B, memsetNode, kNodeAdd;
  cudaGraphNode_t hostNode, emptyNode, childGraphNode, eventWait, eventRecord;
  int *A_d, *B_d, *C_d, *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec;
  size_t NElem{N};
  unsigned int isEnabled, setEnable;
  cudaError_t ret;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  cudaKernelNodeParams kNodeParams{};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeAdd, graph, nullptr, 0, &kNodeParams));

  cudaMemsetParams memsetParams{};
  memset(&memsetParams, 0, sizeof(memsetParams));
  memsetParams.dst = reinterpret_cast<void*>(B_d);
  memsetParams.value = 7;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = Nbytes;
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0,
                                  &memsetParams));

  HIP_CHECK(cudaGraphAddEmptyNode(&emptyNode, graph, NULL, 0));

  cudaHostNodeParams hostParams = {0, 0};
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

  cudaEvent_t event;
  HIP_CHECK(cudaEventCreate(&event));
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventRecord, graph, nullptr,
                                       0, event));
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventWait, graph, nullptr, 0, event));

  HIP_CHECK(cudaGraphCreate(&childGraph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, childGraph, nullptr, 0,
                                    B_d, B_h, Nbytes, cudaMemcpyHostToDevice));

  HIP_CHECK(cudaGraphAddChildGraphNode(&childGraphNode, graph,
                                      nullptr, 0, childGraph));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  SECTION("Create graphExec with Kernel node and verify its enabled status") {
    setEnable = 0;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, kNodeAdd, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, kNodeAdd, &isEnabled));
    REQUIRE(setEnable == isEnabled);

    setEnable = 1;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, kNodeAdd, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, kNodeAdd, &isEnabled));
    REQUIRE(setEnable == isEnabled);
  }
  SECTION("Create graphExec with MemCpy node and verify its enabled status") {
    setEnable = 0;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memcpy_A, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memcpy_A, &isEnabled));
    REQUIRE(setEnable == isEnabled);

    setEnable = 1;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memcpy_A, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memcpy_A, &isEnabled));
    REQUIRE(setEnable == isEnabled);
  }
  SECTION("Create graphExec with MemSet node and verify its enabled status") {
    setEnable = 0;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memsetNode, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memsetNode, &isEnabled));
    REQUIRE(setEnable == isEnabled);

    setEnable = 1;
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memsetNode, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memsetNode, &isEnabled));
    REQUIRE(setEnable == isEnabled);
  }
  setEnable = 1;
  SECTION("Create graphExec with hostNode and verify its enabled status") {
    ret = cudaGraphNodeSetEnabled(graphExec, hostNode, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with emptyNode and verify its enabled status") {
    ret = cudaGraphNodeSetEnabled(graphExec, emptyNode, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with ChildGraphNode & verify its enabled status") {
    ret = cudaGraphNodeSetEnabled(graphExec, childGraphNode, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with EventWait and verify its enabled status") {
    ret = cudaGraphNodeSetEnabled(graphExec, eventWait, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with EventRecord and verify its enabled status") {
    ret = cudaGraphNodeSetEnabled(graphExec, eventRecord, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(childGraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

/* Functional Test for API - cudaGraphNodeSetEnabled
 9) Add a Kernel node(Vector_Square) with functonallty to the graph and than
    Disable kernel node and verify the result and
 10) Enable Kernel node and verify the result
 11) Make ClonedGraph and disabled the kernel node in ClonedGraph and verify
 12) Enable the Kernel node in ClonedGraph and verify the result */

HIP_PORT_CASE(Unit_hipGraphNodeSetEnabled_Functional_KernelNode) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, clonedGraph;
  cudaStream_t stream;
  cudaGraphNode_t memcpy_A, memcpy_C, kNodeSquare, kNodeSquare_C;
  cudaKernelNodeParams kNodeParams{};
  int *A_d, *C_d, *A_h, *C_h;
  cudaGraphExec_t graphExec, clonedGraphExec;
  size_t NElem{N};
  unsigned int setEnable = 0, getEnable = 0;

  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaStreamCreate(&stream));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vector_square<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeSquare, graph,
                                  nullptr, 0, &kNodeParams));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &kNodeSquare, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kNodeSquare, &memcpy_C, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  //  Verify the execution result - basic check 1st time
  HIP_CHECK(cudaGraphLaunch(graphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyVectorSquare(A_h, C_h, N));

  SECTION("After disabled kernel node and verify the execution result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, kNodeSquare, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, kNodeSquare, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaMemset(C_d, 0, Nbytes));
    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true != verifyVectorSquare(A_h, C_h, N));
  }
  SECTION("Again enabled kernel node and verify the execution result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, kNodeSquare, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, kNodeSquare, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaMemset(C_d, 0, Nbytes));
    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(A_h, C_h, N));
  }

  // Code for cloned graph operations
  HIP_CHECK(cudaGraphClone(&clonedGraph, graph));
  HIP_CHECK(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0));
  HIP_CHECK(cudaGraphNodeFindInClone(&kNodeSquare_C, kNodeSquare, clonedGraph));

  HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyVectorSquare(A_h, C_h, N));

  SECTION("After disabled kernel node in ClonedGraph & verify the result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec,
                                     kNodeSquare_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec,
                                     kNodeSquare_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaMemset(C_d, 0, Nbytes));
    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true != verifyVectorSquare(A_h, C_h, N));
  }
  SECTION("Again enabled kernel node in ClonedGraph & verify the result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec,
                                     kNodeSquare_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec,
                                     kNodeSquare_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaMemset(C_d, 0, Nbytes));
    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(A_h, C_h, N));
  }

  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphExecDestroy(clonedGraphExec));
  HIP_CHECK(cudaGraphDestroy(clonedGraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(stream));
}

/* Functional Test for API - cudaGraphNodeSetEnabled
 13) Add a MemSet node with functonally to the graph and than
    Disable MemSet node and verify the result and
 14) Enable MemSet node and verify the result
 15) Make ClonedGraph and disabled the MemSet node in ClonedGraph and verify
 16) Enable the MemSet node in ClonedGraph and verify the result */

HIP_PORT_CASE(Unit_hipGraphNodeSetEnabled_Functional_MemSet) {
  constexpr size_t Nbytes = N * sizeof(char);
  constexpr size_t val = 9;
  cudaGraph_t graph, clonedGraph;
  cudaGraphExec_t graphExec, clonedGraphExec;
  cudaStream_t stream;
  cudaGraphNode_t memcpy_A, memcpy_AC, memcpy_C, memsetNode, memsetNode_C;
  unsigned int setEnable = 0, getEnable = 0;
  char *A_d, *C_d, *A_h, *B_h, *C_h;

  HipTest::initArrays<char>(&A_d, nullptr, &C_d, &A_h, &B_h, &C_h, N, false);

  memset(B_h, val, Nbytes);
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaStreamCreate(&stream));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  cudaMemsetParams memsetParams{};
  memset(&memsetParams, 0, sizeof(memsetParams));
  memsetParams.dst = reinterpret_cast<void*>(A_d);
  memsetParams.value = val;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = Nbytes;
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0,
                                  &memsetParams));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_AC, graph, nullptr, 0, C_d, A_d,
                                    Nbytes, cudaMemcpyDeviceToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &memsetNode, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memsetNode, &memcpy_AC, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_AC, &memcpy_C, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  //  Verify the execution result - basic check 1st time
  HIP_CHECK(cudaGraphLaunch(graphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyArray(B_h, C_h, N));

  SECTION("After disabled MemSet node and verify the execution result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memsetNode, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memsetNode, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyArray(A_h, C_h, N));
  }
  SECTION("Again enabled MemSet node and verify the execution result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memsetNode, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memsetNode, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyArray(B_h, C_h, N));
  }

  // Code for cloned graph operations
  HIP_CHECK(cudaGraphClone(&clonedGraph, graph));
  HIP_CHECK(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0));
  HIP_CHECK(cudaGraphNodeFindInClone(&memsetNode_C, memsetNode, clonedGraph));

  HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyArray(B_h, C_h, N));

  SECTION("After disabled MemSet node and verify the execution result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec,
                                     memsetNode_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec,
                                     memsetNode_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyArray(A_h, C_h, N));
  }
  SECTION("Again enabled MemSet node and verify the execution result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec,
                                     memsetNode_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec,
                                     memsetNode_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyArray(B_h, C_h, N));
  }

  HipTest::freeArrays<char>(A_d, nullptr, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphExecDestroy(clonedGraphExec));
  HIP_CHECK(cudaGraphDestroy(clonedGraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(stream));
}

/* Functional Test for API - cudaGraphNodeSetEnabled
 17) Add a MemCpy node with functonally to the graph and than
    Disable MemCpy node and verify the result and
 18) Enable MemCpy node and verify the result
 19) Make ClonedGraph and disabled the MemCpy node in ClonedGraph and verify
 20) Enable the MemCpy node in ClonedGraph and verify the result */

HIP_PORT_CASE(Unit_hipGraphNodeSetEnabled_Functional_MemCpy) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, clonedGraph;
  cudaStream_t stream;
  cudaGraphNode_t memcpy_A, memcpy_B, memcpy_C, kNodeSquare, memcpy_B_C;
  cudaKernelNodeParams kNodeParams{};
  int *A_d, *C_d, *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec, clonedGraphExec;
  size_t NElem{N};
  unsigned int setEnable = 0, getEnable = 0;

  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaStreamCreate(&stream));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, graph, nullptr, 0, A_d, B_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vector_square<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeSquare, graph,
                                  nullptr, 0, &kNodeParams));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &memcpy_B, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_B, &kNodeSquare, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kNodeSquare, &memcpy_C, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  //  Verify the execution result - basic check 1st time
  HIP_CHECK(cudaGraphLaunch(graphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyVectorSquare(B_h, C_h, N));

  SECTION("After disabled MemCpy node and verify the execution result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memcpy_B, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memcpy_B, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(A_h, C_h, N));
  }
  SECTION("Again enabled MemCpy node and verify the execution result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(graphExec, memcpy_B, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memcpy_B, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(graphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(B_h, C_h, N));
  }

  // Code for cloned graph operations
  HIP_CHECK(cudaGraphClone(&clonedGraph, graph));
  HIP_CHECK(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0));
  HIP_CHECK(cudaGraphNodeFindInClone(&memcpy_B_C, memcpy_B, clonedGraph));

  HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  REQUIRE(true == verifyVectorSquare(B_h, C_h, N));

  SECTION("After disabled MemSet node and verify the execution result") {
    setEnable = 0;  // for disabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec, memcpy_B_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec, memcpy_B_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(A_h, C_h, N));
  }
  SECTION("Again enabled MemSet node and verify the execution result") {
    setEnable = 1;  // for enabled a node
    HIP_CHECK(cudaGraphNodeSetEnabled(clonedGraphExec, memcpy_B_C, setEnable));
    HIP_CHECK(cudaGraphNodeGetEnabled(clonedGraphExec, memcpy_B_C, &getEnable));
    REQUIRE(setEnable == getEnable);

    HIP_CHECK(cudaGraphLaunch(clonedGraphExec, stream));
    HIP_CHECK(cudaStreamSynchronize(stream));

    REQUIRE(true == verifyVectorSquare(B_h, C_h, N));
  }

  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphExecDestroy(clonedGraphExec));
  HIP_CHECK(cudaGraphDestroy(clonedGraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(stream));
}

/**
 Negative Test for API - cudaGraphNodeSetEnabled
 1) Pass graphExec as nullptr
 2) Pass graphExec as uninitialized object
 3) Pass Node as nullptr
 4) Pass Node as uninitialized object
 5) Pass setEnable as INT_MAX

 Negative Functional Test for API - cudaGraphNodeSetEnabled
 6) Pass hNode from different graph and verify
 7) Create graphExec and then add one more new node to the graph verify
 8) Pass hNode as clonedGraph node and exec as graphExec
 9) Pass graphExec as clonedGraphExec and hNode as graph node
 10) Pass hNode a deleted node from same graph where exec was created
 11) Create graphExec and then delete the graph and verify a node
 12) Create graphExec and then delete the graphExec and verify a node
 */

HIP_PORT_CASE(Unit_hipGraphNodeSetEnabled_Negative_Functional) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, graph2, clonedGraph;
  cudaGraphNode_t memcpy_A, memcpy_A_C, memcpy_B, memcpy_C, memcpy_A2, kNodeAdd;
  cudaKernelNodeParams kNodeParams{};
  int *A_d, *B_d, *C_d, *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec, graphExec2, clonedGraphExec;
  size_t NElem{N};
  unsigned int setEnable = 1;
  cudaError_t ret;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, graph, nullptr, 0, B_d, B_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeAdd, graph, nullptr, 0, &kNodeParams));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &kNodeAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_B, &kNodeAdd, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph, 0));

  HIP_CHECK(cudaGraphClone(&clonedGraph, graph));
  HIP_CHECK(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0));
  HIP_CHECK(cudaGraphNodeFindInClone(&memcpy_A_C, memcpy_A, clonedGraph));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kNodeAdd, &memcpy_C, 1));

  HIP_CHECK(cudaGraphCreate(&graph2, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A2, graph2, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  SECTION("Pass hGraphExec as nullptr") {
    ret = cudaGraphNodeSetEnabled(nullptr, memcpy_B, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hGraphExec as uninitialized object") {
    cudaGraphExec_t graphExec_uninit{};
    ret = cudaGraphNodeSetEnabled(graphExec_uninit, memcpy_B, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass Node as nullptr") {
    ret = cudaGraphNodeSetEnabled(graphExec, nullptr, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass Node as uninitialized object") {
    cudaGraphNode_t node_uninit{};
    ret = cudaGraphNodeSetEnabled(graphExec, node_uninit, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass setEnable as INT_MAX") {
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_B, INT_MAX);
    REQUIRE(cudaSuccess == ret);
  }
  SECTION("Pass hNode from different graph and verify") {
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_A2, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec and add one more new node to the graph & verify") {
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_C, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hNode as clonedGraph node and exec as graphExec") {
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_A_C, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass graphExec as clonedGraphExec and hNode as graph node") {
    ret = cudaGraphNodeSetEnabled(clonedGraphExec, memcpy_A, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hNode a deleted node from same graph where exec was created") {
    HIP_CHECK(cudaGraphDestroyNode(memcpy_A));
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_A, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HIP_CHECK(cudaGraphExecDestroy(graphExec2));
  SECTION("Create graphExec and then delete the graphExec and verify a node") {
    ret = cudaGraphNodeSetEnabled(graphExec2, memcpy_B, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HIP_CHECK(cudaGraphDestroy(graph));
  SECTION("Create graphExec and then delete the graph and verify a node") {
    ret = cudaGraphNodeSetEnabled(graphExec, memcpy_B, setEnable);
    REQUIRE(cudaErrorInvalidValue == ret);
  }

  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphExecDestroy(clonedGraphExec));
  HIP_CHECK(cudaGraphDestroy(clonedGraph));
  HIP_CHECK(cudaGraphDestroy(graph2));
}
} // namespace NodeSetEnabled

/* ---- hipGraphNodeGetEnabled.cc ---- */
namespace NodeGetEnabled {


constexpr int N = 1024;

/**
 * Functional Test for API - cudaGraphNodeGetEnabled
 1) Add MemCpy node to the graph and verify in graphExec it enabled status
 2) Add MemSet node to the graph and verify in graphExec it enabled status
 3) Add Kernel node to the graph and verify in graphExec it enabled status
- Can check other node type, as only above 3 types are mentioned in the doc
 4) Add HostNode node to the graph and verify in graphExec it enabled status
 5) Add emptyNode node to the graph and verify in graphExec it enabled status
 6) Add ChildNode node to the graph and verify in graphExec it enabled status
 7) Add EventWait node to the graph and verify in graphExec it enabled status
 8) Add EventRecord node to the graph and verify in graphExec it enabled status
 */

static void callbackfunc(void *A_h) {
  int *A = reinterpret_cast<int *>(A_h);
  for (int i = 0; i < N; i++) {
    A[i] = i;
  }
}

HIP_PORT_CASE(Unit_hipGraphNodeGetEnabled_Functional_Basic) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, childGraph;
  cudaGraphNode_t memcpy_A, memcpy_B, memsetNode, kNodeAdd;
  cudaGraphNode_t hostNode, emptyNode, childGraphNode, eventWait, eventRecord;
  int *A_d, *B_d, *C_d, *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec;
  size_t NElem{N};
  unsigned int isEnabled = 0;
  cudaError_t ret;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  cudaKernelNodeParams kNodeParams{};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeAdd, graph, nullptr, 0, &kNodeParams));

  cudaMemsetParams memsetParams{};
  memset(&memsetParams, 0, sizeof(memsetParams));
  memsetParams.dst = reinterpret_cast<void*>(B_d);
  memsetParams.value = 7;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = Nbytes;
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0,
                                  &memsetParams));

  HIP_CHECK(cudaGraphAddEmptyNode(&emptyNode, graph, NULL, 0));

  cudaHostNodeParams hostParams = {0, 0};
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

  cudaEvent_t event;
  HIP_CHECK(cudaEventCreate(&event));
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventRecord, graph, nullptr,
                                       0, event));
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventWait, graph, nullptr, 0, event));

  HIP_CHECK(cudaGraphCreate(&childGraph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, childGraph, nullptr, 0,
                                    B_d, B_h, Nbytes, cudaMemcpyHostToDevice));
  // Adding child node to clonedGraph
  HIP_CHECK(cudaGraphAddChildGraphNode(&childGraphNode, graph,
                                      nullptr, 0, childGraph));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  SECTION("Create graphExec with Kernel node and verify its enabled status") {
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, kNodeAdd, &isEnabled));
    REQUIRE(1 == isEnabled);
  }
  SECTION("Create graphExec with MemCpy node and verify its enabled status") {
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memcpy_A, &isEnabled));
    REQUIRE(1 == isEnabled);
  }
  SECTION("Create graphExec with MemSet node and verify its enabled status") {
    HIP_CHECK(cudaGraphNodeGetEnabled(graphExec, memsetNode, &isEnabled));
    REQUIRE(1 == isEnabled);
  }
  SECTION("Create graphExec with hostNode and verify its enabled status") {
    ret = cudaGraphNodeGetEnabled(graphExec, hostNode, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with emptyNode and verify its enabled status") {
    ret = cudaGraphNodeGetEnabled(graphExec, emptyNode, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with ChildGraphNode & verify its enabled status") {
    ret = cudaGraphNodeGetEnabled(graphExec, childGraphNode, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with EventWait and verify its enabled status") {
    ret = cudaGraphNodeGetEnabled(graphExec, eventWait, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec with EventRecord and verify its enabled status") {
    ret = cudaGraphNodeGetEnabled(graphExec, eventRecord, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(childGraph));
  HIP_CHECK(cudaGraphDestroy(graph));
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
}

/**
 Negative Test for API - cudaGraphNodeGetEnabled
 1) Pass graphExec as nullptr
 2) Pass graphExec as uninitialized object
 3) Pass Node as nullptr
 4) Pass Node as uninitialized object
 5) Pass isEnabled as nullptr

 Negative Functional Test for API - cudaGraphNodeGetEnabled
 6) Pass hNode from different graph and verify
 7) Create graphExec and then add one more new node to the graph verify
 8) Pass hNode as clonedGraph node and exec as graphExec
 9) Pass graphExec as clonedGraphExec and hNode as graph node
 10) Pass hNode a deleted node from same graph where exec was created
 11) Create graphExec and then delete the graph and verify a node
 12) Create graphExec and then delete the graphExec and verify a node
 */

HIP_PORT_CASE(Unit_hipGraphNodeGetEnabled_Negative_Functional) {
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph, graph2, clonedGraph;
  cudaGraphNode_t memcpy_A, memcpy_A_C, memcpy_B, memcpy_A2, memcpy_C, kNodeAdd;
  cudaKernelNodeParams kNodeParams{};
  int *A_d, *B_d, *C_d, *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec, graphExec2, clonedGraphExec;
  size_t NElem{N};
  unsigned int isEnabled;
  cudaError_t ret;

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, graph, nullptr, 0, B_d, B_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeAdd, graph, nullptr, 0, &kNodeParams));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &kNodeAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_B, &kNodeAdd, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph, 0));

  HIP_CHECK(cudaGraphClone(&clonedGraph, graph));
  HIP_CHECK(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0));
  HIP_CHECK(cudaGraphNodeFindInClone(&memcpy_A_C, memcpy_A, clonedGraph));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kNodeAdd, &memcpy_C, 1));

  HIP_CHECK(cudaGraphCreate(&graph2, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A2, graph2, nullptr, 0, A_d, A_h,
                                    Nbytes, cudaMemcpyHostToDevice));

  SECTION("Pass hGraphExec as nullptr") {
    ret = cudaGraphNodeGetEnabled(nullptr, memcpy_B, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hGraphExec as uninitialized object") {
    cudaGraphExec_t graphExec_uninit{};
    ret = cudaGraphNodeGetEnabled(graphExec_uninit, memcpy_B, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass Node as nullptr") {
    ret = cudaGraphNodeGetEnabled(graphExec, nullptr, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass Node as uninitialized object") {
    cudaGraphNode_t node_uninit{};
    ret = cudaGraphNodeGetEnabled(graphExec, node_uninit, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass isEnabled as nullptr") {
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_B, nullptr);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hNode from different graph and verify") {
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_A2, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Create graphExec and add one more new node to the graph & verify") {
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_C, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hNode as clonedGraph node and exec as graphExec") {
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_A_C, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass graphExec as clonedGraphExec and hNode as graph node") {
    ret = cudaGraphNodeGetEnabled(clonedGraphExec, memcpy_A, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  SECTION("Pass hNode a deleted node from same graph where exec was created") {
    HIP_CHECK(cudaGraphDestroyNode(memcpy_A));
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_A, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HIP_CHECK(cudaGraphExecDestroy(graphExec2));
  SECTION("Create graphExec and then delete the graphExec and verify a node") {
    ret = cudaGraphNodeGetEnabled(graphExec2, memcpy_B, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HIP_CHECK(cudaGraphDestroy(graph));
  SECTION("Create graphExec and then delete the graph and verify a node") {
    ret = cudaGraphNodeGetEnabled(graphExec, memcpy_B, &isEnabled);
    REQUIRE(cudaErrorInvalidValue == ret);
  }
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphExecDestroy(clonedGraphExec));
  HIP_CHECK(cudaGraphDestroy(clonedGraph));
  HIP_CHECK(cudaGraphDestroy(graph2));
}
} // namespace NodeGetEnabled

/* ---- hipGraphUpload.cc ---- */
namespace Upload {


/**
 * Functional Test for API - cudaGraphUpload
 - Make graph from cudaStreamBeginCapture with a stream.
   Upload the graph into different stream and execute the graph and verify.
 */

static void cudaGraphUploadFunctional_with_hipStreamBeginCapture(
                                                     cudaStream_t iStream) {
  cudaGraph_t graph{nullptr};
  cudaGraphExec_t graphExec{nullptr};
  constexpr unsigned blocks = 512;
  constexpr unsigned threadsPerBlock = 256;
  constexpr size_t N = 1024;
  size_t Nbytes = N * sizeof(float);

  int *A_d, *C_d;
  int *A_h, *C_h;
  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

  cudaStream_t stream;
  HIP_CHECK(cudaStreamCreate(&stream));
  HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));

  HIP_CHECK(cudaMemcpyAsync(A_d, A_h, Nbytes, cudaMemcpyHostToDevice, stream));

  HIP_CHECK(cudaMemsetAsync(C_d, 0, Nbytes, stream));
  HipTest::vector_square<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(A_d, C_d, N); /* STREAMSIM: hipLaunchKernelGGL */
  HIP_CHECK(cudaMemcpyAsync(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost, stream));

  HIP_CHECK(cudaStreamEndCapture(stream, &graph));

  // Validate end capture is successful
  REQUIRE(graph != nullptr);

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  REQUIRE(graphExec != nullptr);

  HIP_CHECK(cudaGraphUpload(graphExec, iStream));
  HIP_CHECK(cudaGraphLaunch(graphExec, iStream));
  HIP_CHECK(cudaStreamSynchronize(stream));
  HIP_CHECK(cudaStreamSynchronize(iStream));

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(stream));

  // Validate the computation
  for (size_t i = 0; i < N; i++) {
    if (C_h[i] != A_h[i] * A_h[i]) {
      UNSCOPED_INFO("A and C not matching at " << i);
    }
  }
  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
}

/**
 * Functional Test for API - cudaGraphUpload
 - Make graph by creating graph and add node and functionality to it.
   Upload the graph into different stream and execute the graph and verify.
 */

static void cudaGraphUploadFunctional_with_stream(cudaStream_t stream) {
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph;
  cudaGraphNode_t memcpy_A, memcpy_B, memcpy_C, kNodeAdd;
  cudaKernelNodeParams kNodeParams{};
  int *A_d, *B_d, *C_d;
  int *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec;
  size_t NElem{N};

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_A, graph, nullptr, 0, A_d, A_h,
                                   Nbytes, cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_B, graph, nullptr, 0, B_d, B_h,
                                   Nbytes, cudaMemcpyHostToDevice));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.sharedMemBytes = 0;
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  kNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kNodeAdd, graph, nullptr, 0, &kNodeParams));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpy_C, graph, nullptr, 0, C_h, C_d,
                                    Nbytes, cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_A, &kNodeAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpy_B, &kNodeAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kNodeAdd, &memcpy_C, 1));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  HIP_CHECK(cudaGraphUpload(graphExec, stream));
  HIP_CHECK(cudaGraphLaunch(graphExec, stream));
  HIP_CHECK(cudaStreamSynchronize(stream));

  // Verify graph execution result
  HipTest::checkVectorADD<int>(A_h, B_h, C_h, N);

  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
}

HIP_PORT_CASE(Unit_hipGraphUpload_Functional) {
  SECTION("Pass a stream") {
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    cudaGraphUploadFunctional_with_hipStreamBeginCapture(stream);
    cudaGraphUploadFunctional_with_stream(stream);
    HIP_CHECK(cudaStreamDestroy(stream));
  }
  SECTION("Pass stream as default stream") {
    cudaGraphUploadFunctional_with_hipStreamBeginCapture(0);
    cudaGraphUploadFunctional_with_stream(0);
  }
  SECTION("Pass stream as cudaStreamPerThread") {
    cudaGraphUploadFunctional_with_hipStreamBeginCapture(cudaStreamPerThread);
    cudaGraphUploadFunctional_with_stream(cudaStreamPerThread);
  }
}

HIP_PORT_CASE(Unit_hipGraphUpload_Functional_multidevice_test) {
  int numDevices = 0;
  HIP_CHECK(cudaGetDeviceCount(&numDevices));

  if (numDevices > 0) {
    SECTION("Pass a common stream for all device") {
      cudaStream_t stream;
      HIP_CHECK(cudaStreamCreate(&stream));
      int currDevice = -1;
      HIP_CHECK(cudaGetDevice(&currDevice));
      for (int i = 0; i < numDevices; i++) {
        if (i != currDevice) {
          int can_access_peer = 0;
          HIP_CHECK(cudaDeviceCanAccessPeer(&can_access_peer, currDevice, i));
          if (!can_access_peer) {
            INFO("Peer access cannot be enabled between devices " << currDevice << " " << i);
            continue;
          }
        }
        HIP_CHECK(cudaSetDevice(i));
        cudaGraphUploadFunctional_with_hipStreamBeginCapture(stream);
        cudaGraphUploadFunctional_with_stream(stream);
      }

      HIP_CHECK(cudaStreamDestroy(stream));
    }
    SECTION("Pass a separate stream for each device") {
      for (int i = 0; i < numDevices; i++) {
        HIP_CHECK(cudaSetDevice(i));

        cudaStream_t dStream;
        HIP_CHECK(cudaStreamCreate(&dStream));
        cudaGraphUploadFunctional_with_hipStreamBeginCapture(dStream);
        cudaGraphUploadFunctional_with_stream(dStream);
        HIP_CHECK(cudaStreamDestroy(dStream));
      }
    }
    SECTION("Pass stream as default stream for each device") {
      for (int i = 0; i < numDevices; i++) {
        HIP_CHECK(cudaSetDevice(i));
        cudaGraphUploadFunctional_with_hipStreamBeginCapture(0);
        cudaGraphUploadFunctional_with_stream(0);
      }
    }
    SECTION("Pass stream as cudaStreamPerThread for each device") {
      for (int i = 0; i < numDevices; i++) {
        HIP_CHECK(cudaSetDevice(i));
        cudaGraphUploadFunctional_with_hipStreamBeginCapture(cudaStreamPerThread);
        cudaGraphUploadFunctional_with_stream(cudaStreamPerThread);
      }
    }
  } else {
    SUCCEED("Skipped the testcase as there is no device to test.");
  }
}

/**
 * Functional Test for API - cudaGraphUpload
 - Make graph by using cudaStreamBeginCapture with a low priority stream.
   Upload the graph into high priority stream and execute the graph and verify.
 */

HIP_PORT_CASE(Unit_hipGraphUpload_Functional_With_Priority_Stream) {
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;

  int *A_d, *B_d, *C_d, *A_h, *B_h, *C_h;
  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);

  cudaStream_t stream1, stream2;
  int minPriority = 0, maxPriority = 0;
  HIP_CHECK(cudaDeviceGetStreamPriorityRange(&minPriority, &maxPriority));
  HIP_CHECK(cudaStreamCreateWithPriority(&stream1, cudaStreamDefault,
                                        minPriority));
  HIP_CHECK(cudaStreamCreateWithPriority(&stream2, cudaStreamDefault,
                                        maxPriority));

  HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
  HIP_CHECK(cudaMemcpyAsync(A_d, A_h, Nbytes, cudaMemcpyHostToDevice, stream1));
  HIP_CHECK(cudaMemcpyAsync(B_d, B_h, Nbytes, cudaMemcpyHostToDevice, stream1));
  HipTest::vectorADD<int><<<1, 1, 0, stream1>>>(A_d, B_d, C_d, N);
  HIP_CHECK(cudaMemcpyAsync(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost, stream1));
  HIP_CHECK(cudaStreamEndCapture(stream1, &graph));

  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

  HIP_CHECK(cudaGraphUpload(graphExec, stream2));

  HIP_CHECK(cudaGraphLaunch(graphExec, stream2));
  HIP_CHECK(cudaStreamSynchronize(stream2));

  // Verify graph execution result
  HipTest::checkVectorADD(A_h, B_h, C_h, N);

  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(stream1));
  HIP_CHECK(cudaStreamDestroy(stream2));
}

/**
* Negative Test for API - cudaGraphUpload Argument Check
1) Pass graphExec node as nullptr.
2) Pass graphExec node as uninitialize object
3) Pass stream as uninitialize object
4) Graphexec is destroyed before upload
*/

HIP_PORT_CASE(Unit_hipGraphUpload_Negative_Parameters) {
  cudaGraphExec_t graphExec{};
  cudaError_t ret;

  cudaStream_t stream;
  HIP_CHECK(cudaStreamCreate(&stream));

  SECTION("Pass graphExec node as nullptr") {
    HIP_CHECK_ERROR(cudaGraphUpload(nullptr, stream), cudaErrorInvalidValue);
  }
  SECTION("Pass graphExec node as uninitialize object") {
    HIP_CHECK_ERROR(cudaGraphUpload(graphExec, stream), cudaErrorInvalidValue);
  }
  SECTION("Pass stream as uninitialize object") {
    cudaStream_t stream1{};
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));

    ret = cudaGraphUpload(graphExec, stream1);
    REQUIRE(cudaSuccess == ret);
  }
  SECTION("graphExec is destroyed"){
    cudaGraphExec_t graph_exec;
    cudaGraph_t graph;

    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
    
    HIP_CHECK(cudaGraphUpload(graph_exec, cudaStreamPerThread));
    HIP_CHECK(cudaGraphExecDestroy(graph_exec));
    HIP_CHECK_ERROR(cudaGraphUpload(graph_exec, cudaStreamPerThread), cudaErrorInvalidValue);
  }
  HIP_CHECK(cudaStreamDestroy(stream));
}
} // namespace Upload

/* ---- hipGraphInstantiateWithParams.cc ---- */
namespace InstantiateWithParams {

/*
cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                                cudaGraphInstantiateParams *params);
Testcase Scenarios of cudaGraphInstantiateWithParams API:
Negative:
1) Pass nullptr to pGraphExec
2) Pass nullptr to graph
3) Pass nullptr to params
4) Pass invalid flag
Functional:
1) Create dependencies graph and instantiate the graph
2) Create stream capture graph and instantite the graph
*/



#if CUDART_VERSION >= 12000

constexpr size_t N = 1000000;
/**
* Test Description
* ------------------------
* - Test covers the negative scenarios of cudaGraphInstantiateWithParams API

* Test source
* ------------------------
* - catch/unit/graph/cudaGraphInstantiateWithParams.cc
* Test requirements
* ------------------------
* - HIP_VERSION >= 6.2
*/
HIP_PORT_CASE(Unit_hipGraphInstantiateWithParams_Negative) {
  SECTION("Passing nullptr pGraphExec") {
    cudaGraph_t graph;
    cudaGraphInstantiateParams params{}; /* STREAMSIM: value-initialized (uploadStream) */
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    REQUIRE(cudaGraphInstantiateWithParams(nullptr,
                                       graph, &params) == cudaErrorInvalidValue);
  }

  SECTION("Passing nullptr to graph") {
    cudaGraphExec_t graphExec;
    cudaGraphInstantiateParams params{}; /* STREAMSIM: value-initialized (uploadStream) */
    REQUIRE(cudaGraphInstantiateWithParams(&graphExec,
                                     nullptr, &params) == cudaErrorInvalidValue);
  }

  SECTION("Passing nullptr to params") {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphExec_t graphExec;
    REQUIRE(cudaGraphInstantiateWithParams(&graphExec,
                                       graph, nullptr) == cudaErrorInvalidValue);
  }

  SECTION("Passing invalid flag") {
    cudaGraph_t graph;
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphExec_t graphExec;
    cudaGraphInstantiateParams params{}; /* STREAMSIM: value-initialized (uploadStream) */
    params.flags = 10;
    REQUIRE(cudaGraphInstantiateWithParams(&graphExec,
                                       graph, &params) == cudaErrorInvalidValue);
    REQUIRE(params.result_out == cudaGraphInstantiateError);
  }
}

void GraphInstantiateWithParams_DependencyGraph() {
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  cudaGraph_t graph;
  cudaGraphNode_t memset_A, memset_B, memsetKer_C;
  cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
  cudaGraphNode_t kernel_vecAdd;
  cudaKernelNodeParams kernelNodeParams{};
  int *A_d, *B_d, *C_d;
  int *A_h, *B_h, *C_h;
  cudaGraphExec_t graphExec;
  cudaMemsetParams memsetParams{};
  int memsetVal{};
  size_t NElem{N};

  HipTest::initArrays(&A_d, &B_d, &C_d, &A_h, &B_h, &C_h, N, false);
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  memset(&memsetParams, 0, sizeof(memsetParams));
  memsetParams.dst = reinterpret_cast<void*>(A_d);
  memsetParams.value = 0;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = Nbytes;
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memset_A, graph, nullptr, 0,
                                                              &memsetParams));

  memset(&memsetParams, 0, sizeof(memsetParams));
  memsetParams.dst = reinterpret_cast<void*>(B_d);
  memsetParams.value = 0;
  memsetParams.pitch = 0;
  memsetParams.elementSize = sizeof(char);
  memsetParams.width = Nbytes;
  memsetParams.height = 1;
  HIP_CHECK(cudaGraphAddMemsetNode(&memset_B, graph, nullptr, 0,
                                                              &memsetParams));

  void* kernelArgs1[] = {&C_d, &memsetVal, reinterpret_cast<void *>(&NElem)};
  kernelNodeParams.func =
                       reinterpret_cast<void *>(HipTest::memsetReverse<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs1);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&memsetKer_C, graph, nullptr, 0,
                                                        &kernelNodeParams));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, nullptr, 0, A_d, A_h,
                                   Nbytes, cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, nullptr, 0, B_d, B_h,
                                   Nbytes, cudaMemcpyHostToDevice));

  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, nullptr, 0, C_h, C_d,
                                   Nbytes, cudaMemcpyDeviceToHost));

  void* kernelArgs2[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
  kernelNodeParams.func = reinterpret_cast<void *>(HipTest::vectorADD<int>);
  kernelNodeParams.gridDim = dim3(blocks);
  kernelNodeParams.blockDim = dim3(threadsPerBlock);
  kernelNodeParams.sharedMemBytes = 0;
  kernelNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs2);
  kernelNodeParams.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0,
                                                        &kernelNodeParams));

  // Create dependencies
  HIP_CHECK(cudaGraphAddDependencies(graph, &memset_A, &memcpyH2D_A, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memset_B, &memcpyH2D_B, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memsetKer_C, &kernel_vecAdd, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &kernel_vecAdd, &memcpyD2H_C, 1));

  // Instantiate and launch the cloned graph
  cudaGraphInstantiateParams params{}; /* STREAMSIM: value-initialized (uploadStream) */
  params.flags = 0;
  HIP_CHECK(cudaGraphInstantiateWithParams(&graphExec, graph, &params));
  REQUIRE(params.result_out == cudaGraphInstantiateSuccess);

  HIP_CHECK(cudaGraphLaunch(graphExec, 0));
  HIP_CHECK(cudaStreamSynchronize(0));

  // Verify graph execution result
  HipTest::checkVectorADD(A_h, B_h, C_h, N);
  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
}

void GraphInstantiateWithParams_StreamCapture() {
  float *A_d, *C_d;
  float *A_h, *C_h;
  size_t Nbytes = N * sizeof(float);
  cudaStream_t stream;
  cudaGraph_t graph{nullptr};
  cudaGraphExec_t graphExec{nullptr};

  A_h = reinterpret_cast<float*>(malloc(Nbytes));
  C_h = reinterpret_cast<float*>(malloc(Nbytes));
  REQUIRE(A_h != nullptr);
  REQUIRE(C_h != nullptr);

  // Fill with Phi + i
  for (size_t i = 0; i < N; i++) {
      A_h[i] = 1.618f + i;
  }
  HIP_CHECK(cudaMalloc(&A_d, Nbytes));
  HIP_CHECK(cudaMalloc(&C_d, Nbytes));
  REQUIRE(A_d != nullptr);
  REQUIRE(C_d != nullptr);
  HIP_CHECK(cudaGraphCreate(&graph, 0));


  HIP_CHECK(cudaStreamCreate(&stream));
  constexpr unsigned blocks = 512;
  constexpr unsigned threadsPerBlock = 256;

  HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  HIP_CHECK(cudaMemcpyAsync(A_d, A_h, Nbytes, cudaMemcpyHostToDevice, stream));

  HIP_CHECK(cudaMemsetAsync(C_d, 0, Nbytes, stream));
  HipTest::vector_square<<<dim3(blocks), dim3(threadsPerBlock), 0, stream>>>(A_d, C_d, N); /* STREAMSIM: hipLaunchKernelGGL */
  HIP_CHECK(cudaMemcpyAsync(C_h, C_d, Nbytes, cudaMemcpyDeviceToHost, stream));

  HIP_CHECK(cudaStreamEndCapture(stream, &graph));

  // Validate end capture is successful
  REQUIRE(graph != nullptr);
  cudaGraphInstantiateParams params{}; /* STREAMSIM: value-initialized (uploadStream) */
  params.flags = 0;
  HIP_CHECK(cudaGraphInstantiateWithParams(&graphExec, graph, &params));
  REQUIRE(graphExec != nullptr);
  REQUIRE(params.result_out == cudaGraphInstantiateSuccess);

  HIP_CHECK(cudaGraphLaunch(graphExec, stream));

  HIP_CHECK(cudaStreamSynchronize(stream));

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));

  // Validate the computation
  for (size_t i = 0; i < N; i++) {
    if (C_h[i] != A_h[i] * A_h[i]) {
      UNSCOPED_INFO("A and C not matching at " << i);
      REQUIRE(false);
    }
  }

  HIP_CHECK(cudaStreamDestroy(stream));
  free(A_h);
  free(C_h);
  HIP_CHECK(cudaFree(A_d));
  HIP_CHECK(cudaFree(C_d));
}

/**
* Test Description
* ------------------------
* - Verifies cudaGraphInstantiateWithParams API by creating dependency graph
* - and instantiate, launch and verify the result
*
* Test source
* ------------------------
* - catch/unit/graph/cudaGraphInstantiateWithParams.cc
* Test requirements
* ------------------------
* - HIP_VERSION >= 6.2
*/
HIP_PORT_CASE(Unit_hipGraphInstantiateWithParams_DependencyGraph) {
  GraphInstantiateWithParams_DependencyGraph();
}


/**
* Test Description
* ------------------------
* - Verifies cudaGraphInstantiateWithParams API by using StreamCapture
* - to create create a graph and instantiate, launch and verify results
*
* Test source
* ------------------------
* - catch/unit/graph/cudaGraphInstantiateWithParams.cc
* Test requirements
* ------------------------
* - HIP_VERSION >= 6.2
*/
HIP_PORT_CASE(Unit_hipGraphInstantiateWithParams_StreamCapture) {
      GraphInstantiateWithParams_StreamCapture();
}


#endif // CUDART_VERSION >= 12000
} // namespace InstantiateWithParams

int main() {
    HIP_TEST_CASE(NodeSetEnabled::Unit_hipGraphNodeSetEnabled_Functional_Basic);
    HIP_TEST_CASE(NodeSetEnabled::Unit_hipGraphNodeSetEnabled_Functional_KernelNode);
    HIP_TEST_CASE(NodeSetEnabled::Unit_hipGraphNodeSetEnabled_Functional_MemSet);
    HIP_TEST_CASE(NodeSetEnabled::Unit_hipGraphNodeSetEnabled_Functional_MemCpy);
    HIP_TEST_CASE(NodeSetEnabled::Unit_hipGraphNodeSetEnabled_Negative_Functional);
    HIP_TEST_CASE(NodeGetEnabled::Unit_hipGraphNodeGetEnabled_Functional_Basic);
    HIP_TEST_CASE(NodeGetEnabled::Unit_hipGraphNodeGetEnabled_Negative_Functional);
    HIP_TEST_CASE(Upload::Unit_hipGraphUpload_Functional);
    HIP_TEST_CASE(Upload::Unit_hipGraphUpload_Functional_multidevice_test);
    HIP_TEST_CASE(Upload::Unit_hipGraphUpload_Functional_With_Priority_Stream);
    HIP_TEST_CASE(Upload::Unit_hipGraphUpload_Negative_Parameters);
#if CUDART_VERSION >= 12000
    HIP_TEST_CASE(InstantiateWithParams::Unit_hipGraphInstantiateWithParams_Negative);
    HIP_TEST_CASE(InstantiateWithParams::Unit_hipGraphInstantiateWithParams_DependencyGraph);
    HIP_TEST_CASE(InstantiateWithParams::Unit_hipGraphInstantiateWithParams_StreamCapture);
#endif
    printf("hip-tests graph misc: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
