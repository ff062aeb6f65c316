/*
 * hip_tests_graph_params.cu — ROCm hip-tests' catch/unit/graph/hipGraphKernelNodeGetParams.cc,
 * hipGraphKernelNodeSetParams.cc, hipGraphHostNodeGetParams.cc, hipGraphHostNodeSetParams.cc,
 * hipGraphEventRecordNodeGetEvent.cc, hipGraphEventRecordNodeSetEvent.cc, hipGraphEventWaitNodeGetEvent.cc,
 * hipGraphEventWaitNodeSetEvent.cc, hipGraphMemsetNodeGetParams.cc, hipGraphMemcpyNodeGetParams.cc and
 * hipGraphMemsetNodeSetParams.cc with its helpers of graph_memset_node_test_common.hh (github.com/ROCm/hip-tests, commit 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime
 * names (hipX → cudaX) as a .cu program that both `streamsim cc` and NVIDIA's nvcc build (the kernels run on the
 * CPU): every test case of these files.
 *
 * Every runtime call and every check of those test cases is kept, in their order, with the kernels as written
 * upstream. Each file's test cases are in a namespace of their own. Changes, marked STREAMSIM where they are:
 *   - Catch2 → the harness of tests/c/hip_tests_cu.h (each SECTION in its own pass of its test case, as Catch2
 *     runs them); a file's `#define NAME value` constants → constants of its namespace; HT_NVIDIA is 1 (the
 *     NVIDIA sections are kept, the `#if 0` one of hipGraphMemsetNodeGetParams.cc stays out, as upstream);
 *     CHECK_IMAGE_SUPPORT is hip-tests' NVIDIA branch (the test goes on); hip_test_kernels.hh's vectorSUB,
 *     vectorADDReverse and vector_cubic, hip_test_checkers.hh's checkVectorSUB and resource_guards.hh's
 *     LinearAllocGuard2D / LinearAllocGuard3D are written out here; make_hipPos → make_cudaPos.
 *   - The memset helpers (GraphMemsetNodeCommonPositive, MemsetCommonNegative, the pinned-buffer guard) as
 *     tests/c/hip_tests_graph_memset_node.cu writes them out; TEMPLATE_TEST_CASE → the test run for uint8_t,
 *     uint16_t and uint32_t in turn; LinearAllocs::hipMalloc kept as the harness names it; a missing ; after a
 *     HIP_CHECK (hip-tests' macro is a block) added.
 *   - hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) → cudaGraphInstantiate(&exec, graph, 0) (CUDA 12's
 *     form). hipErrorInvalidHandle (cudaEventElapsedTime on events without timing) → cudaErrorInvalidResourceHandle,
 *     the code HIP's NVIDIA layer maps it from and the one the Runtime API lists.
 *   - hipGraphKernelNodeGetParams.cc's node_compare reads the getter's kernelParams. The Runtime API hands back
 *     `kernelParams` or `extra`, "according to which of these was most recently set"; the simulator always hands
 *     back `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER to the node's parameter block, `kernelParams` NULL: the CPU
 *     kernel's table does not describe each parameter, graph-building.md · GraphKernelNodeGetParams, a Note row).
 *     The port reads each argument from that block at its offset (GotArg) and does not compare the getter's
 *     `extra` with the NULL given; the values compared are upstream's.
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
#include <functional>
#include <vector>

#include "hip_tests_cu.h"

#define HT_NVIDIA 1
#define HT_AMD 0

/* hip_test_common.hh's CHECK_IMAGE_SUPPORT: HipTest::isImageSupported() is 1 on NVIDIA (its HT_AMD branch asks
 * the device). */
#define CHECK_IMAGE_SUPPORT

/* A Catch2 TEST_CASE: its body runs once per SECTION (RunSections). */
#define HIP_PORT_CASE(name)                                                                                       \
    static void name##_pass();                                                                                    \
    static void name() { RunSections(name##_pass); }                                                              \
    static void name##_pass()

namespace HipTest {
/* hip_test_kernels.hh */
template <typename T> __global__ void vectorSUB(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < NELEM; i += stride) {
        C_d[i] = A_d[i] - B_d[i];
    }
}

template <typename T> __global__ void vectorADDReverse(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;

    for (int64_t i = NELEM - stride + offset; i >= 0; i -= stride) {
        C_d[i] = A_d[i] + B_d[i];
    }
}

template <typename T> __global__ void vector_cubic(const T *A_d, T *C_d, size_t N_ELMTS) {
    size_t gputhread = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = gputhread; i < N_ELMTS; i += stride) {
        C_d[i] = A_d[i] * A_d[i] * A_d[i];
    }
}

/* hip_test_checkers.hh */
template <typename T>
size_t checkVectorSUB(T *A_h, T *B_h, T *result_H, size_t N, bool expectMatch = true, bool reportMismatch = true) {
    return checkVectors<T>(A_h, B_h, result_H, N, [](T a, T b) { return a - b; }, expectMatch, reportMismatch);
}
} // namespace HipTest

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

/* resource_guards.hh's LinearAllocGuard3D<T> (cudaMalloc3D). */
template <typename T> class LinearAllocGuard3D {
  public:
    LinearAllocGuard3D(const cudaExtent extent) : extent_(extent) { HIP_CHECK(cudaMalloc3D(&pitched_ptr_, extent_)); }
    LinearAllocGuard3D(const LinearAllocGuard3D &) = delete;
    ~LinearAllocGuard3D() { static_cast<void>(cudaFree(pitched_ptr_.ptr)); }
    T *ptr() const { return reinterpret_cast<T *>(pitched_ptr_.ptr); };
    cudaPitchedPtr pitched_ptr() const { return pitched_ptr_; }

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

/* ---- graph_memset_node_test_common.hh (as tests/c/hip_tests_graph_memset_node.cu writes it out) ---- */
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

/* ---- hipGraphKernelNodeGetParams.cc ---- */
namespace KernelNodeGetParams {

/**
Test Case Scenarios :
Negative -
1) Pass node as nullptr and verify api returns error code.
2) Pass pNodeParams as nullptr and verify api returns error code.
Functional -
1) Create a graph, add kernel node to graph with desired kernel node params.
   Verify api fetches the node params mentioned while adding kernel node.
2) Set kernel node params with cudaGraphKernelNodeSetParams,
   now get the params and verify both are same.
*/


constexpr int THREADS_PER_BLOCK = 512;

/* Test verifies cudaGraphKernelNodeGetParams API Negative scenarios.
 */
HIP_PORT_CASE(Unit_hipGraphKernelNodeGetParams_Negative) {
  constexpr int N = 1024;
  size_t NElem{N};
  int *A_d, *B_d, *C_d;
  cudaGraph_t graph;
  cudaGraphNode_t kNode;
  cudaKernelNodeParams kNodeParams{};

  HIP_CHECK(cudaMalloc(&A_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&B_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&C_d, sizeof(int) * N));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
  kNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(N / THREADS_PER_BLOCK, 1, 1);
  kNodeParams.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  HIP_CHECK(cudaGraphAddKernelNode(&kNode, graph, nullptr, 0, &kNodeParams));

  SECTION("Pass node as nullptr") {
    HIP_CHECK_ERROR(cudaGraphKernelNodeGetParams(nullptr, &kNodeParams), cudaErrorInvalidValue);
  }

  SECTION("Pass kNodeParams as nullptr") {
    HIP_CHECK_ERROR(cudaGraphKernelNodeGetParams(kNode, nullptr), cudaErrorInvalidValue);
  }

#if HT_NVIDIA  // segfaults on AMD
  SECTION("node is not a kernel node") {
    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphKernelNodeGetParams(empty_node, &kNodeParams), cudaErrorInvalidValue);
  }
#endif

  HIP_CHECK(cudaFree(A_d));
  HIP_CHECK(cudaFree(B_d));
  HIP_CHECK(cudaFree(C_d));
  HIP_CHECK(cudaGraphDestroy(graph));
}

static bool dim3_compare(dim3 node1, dim3 node2) {
  if ((node1.x == node2.x) && (node1.y == node2.y) && (node1.z == node2.z))
    return true;
  else
    return false;
}

/* STREAMSIM: cudaGraphKernelNodeGetParams hands the arguments back as `extra` (graph-building.md ·
 * GraphKernelNodeGetParams, a Note row): CU_LAUNCH_PARAM_BUFFER_POINTER to the node's parameter block. The kernels
 * compared here take four 8-byte arguments, at offsets 0, 8, 16 and 24 of the block. */
static void* GotArg(const cudaKernelNodeParams* got, int i) {
  if (got->kernelParams != nullptr) return got->kernelParams[i];
  REQUIRE(got->extra != nullptr && got->extra[0] == reinterpret_cast<void*>(0x01)) /* CU_LAUNCH_PARAM_BUFFER_POINTER */;
  return static_cast<char*>(got->extra[1]) + 8 * i;
}

static bool kernelParam_compare(void** p1, const cudaKernelNodeParams* got) {
  for (int i = 0; i < 4; i++) {
    if (*reinterpret_cast<int*>(p1[i]) != *reinterpret_cast<int*>(GotArg(got, i))) return false;
  }
  return true;
}

static bool node_compare(cudaKernelNodeParams* kNode1, cudaKernelNodeParams* kNode2) {
  if (!dim3_compare(kNode1->blockDim, kNode2->blockDim)) return false;
  /* STREAMSIM: the getter's `extra` is the node's parameter block (see GotArg) where upstream compares it with
   * the NULL given. */
  if (kNode1->extra != kNode2->extra && kNode2->kernelParams != nullptr) return false;
  if (kNode1->func != kNode2->func) return false;
  if (!dim3_compare(kNode1->gridDim, kNode2->gridDim)) return false;
  if (!kernelParam_compare(kNode1->kernelParams, kNode2)) return false;
  if (kNode1->sharedMemBytes != kNode2->sharedMemBytes) return false;
  return true;
}

/* Test verifies cudaGraphKernelNodeGetParams API Functional scenarios.
 */
HIP_PORT_CASE(Unit_hipGraphKernelNodeGetParams_Functional) {
  constexpr int N = 1024;
  size_t NElem{N};
  int *A_d, *B_d, *C_d;
  cudaGraph_t graph;
  cudaGraphNode_t kNode;
  cudaKernelNodeParams kNodeParams{};
  HIP_CHECK(cudaMalloc(&A_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&B_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&C_d, sizeof(int) * N));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
  kNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(N / THREADS_PER_BLOCK, 1, 1);
  kNodeParams.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  HIP_CHECK(cudaGraphAddKernelNode(&kNode, graph, nullptr, 0, &kNodeParams));

  SECTION("Get Kernel Param and verify.") {
    cudaKernelNodeParams kNodeGetParams;
    HIP_CHECK(cudaGraphKernelNodeGetParams(kNode, &kNodeGetParams));
    REQUIRE(node_compare(&kNodeParams, &kNodeGetParams));
  }

  SECTION("Set kernel node params then Get Kernel Param and verify.") {
    cudaKernelNodeParams kNodeParams1;
    kNodeParams1.func = reinterpret_cast<void*>(HipTest::vectorADDReverse<int>);
    kNodeParams1.gridDim = dim3(N / THREADS_PER_BLOCK, 1, 1);
    kNodeParams1.blockDim = dim3(THREADS_PER_BLOCK, 1, 1);
    kNodeParams1.sharedMemBytes = 0;
    kNodeParams1.kernelParams = reinterpret_cast<void**>(kernelArgs);
    kNodeParams1.extra = nullptr;
    HIP_CHECK(cudaGraphKernelNodeSetParams(kNode, &kNodeParams1));

    cudaKernelNodeParams kNodeGetParams1;
    HIP_CHECK(cudaGraphKernelNodeGetParams(kNode, &kNodeGetParams1));

    REQUIRE(node_compare(&kNodeParams1, &kNodeGetParams1));
  }

  HIP_CHECK(cudaFree(A_d));
  HIP_CHECK(cudaFree(B_d));
  HIP_CHECK(cudaFree(C_d));
  HIP_CHECK(cudaGraphDestroy(graph));
}
} // namespace KernelNodeGetParams

/* ---- hipGraphKernelNodeSetParams.cc ---- */
namespace KernelNodeSetParams {

/**
Test Case Scenarios :
Negative -
1) Pass node as nullptr and verify api returns error code.
2) Pass pNodeParams as nullptr and verify api returns error code.
Functional -
1) Add kernel node to graph with certain kernel params, now update the kernel
   node params with set and check taking effect after launching graph.
2) Add kernel node to graph with certain kernel params, now get kernel node parameters
   with cudaGraphKernelNodeGetParams, then update the kernel node params with
   cudaGraphKernelNodeSetParams, finally check taking effect after launching graph.
*/


/* Test verifies cudaGraphKernelNodeSetParams API Negative scenarios.
 */
HIP_PORT_CASE(Unit_hipGraphKernelNodeSetParams_Negative) {
  constexpr int N = 1024;
  size_t NElem{N};
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
  int *A_d, *B_d, *C_d;
  cudaGraph_t graph;
  cudaGraphNode_t kNode;
  cudaKernelNodeParams kNodeParams{};

  HIP_CHECK(cudaMalloc(&A_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&B_d, sizeof(int) * N));
  HIP_CHECK(cudaMalloc(&C_d, sizeof(int) * N));
  HIP_CHECK(cudaGraphCreate(&graph, 0));

  void* kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void*>(&NElem)};
  kNodeParams.func = reinterpret_cast<void*>(HipTest::vectorADD<int>);
  kNodeParams.gridDim = dim3(blocks);
  kNodeParams.blockDim = dim3(threadsPerBlock);
  kNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
  HIP_CHECK(cudaGraphAddKernelNode(&kNode, graph, nullptr, 0, &kNodeParams));

  SECTION("Pass node as nullptr") {
    HIP_CHECK_ERROR(cudaGraphKernelNodeSetParams(nullptr, &kNodeParams), cudaErrorInvalidValue);
  }

  SECTION("Pass kNodeParams as nullptr") {
    HIP_CHECK_ERROR(cudaGraphKernelNodeSetParams(kNode, nullptr), cudaErrorInvalidValue);
  }

#if HT_NVIDIA  // on AMD this returns cudaErrorInvalidValue
  SECTION("Pass NodeParams func data member as nullptr") {
    kNodeParams.func = nullptr;
    HIP_CHECK_ERROR(cudaGraphKernelNodeSetParams(kNode, &kNodeParams),
                    cudaErrorInvalidDeviceFunction);
  }
#endif

#if HT_NVIDIA  // segfaults on AMD
  SECTION("Pass kernelParams data member as nullptr") {
    kNodeParams.kernelParams = nullptr;
    HIP_CHECK_ERROR(cudaGraphKernelNodeSetParams(kNode, &kNodeParams), cudaErrorInvalidValue);
  }
#endif

#if HT_NVIDIA  // segfaults on AMD
  SECTION("node is not a kernel node") {
    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphKernelNodeSetParams(empty_node, &kNodeParams), cudaErrorInvalidValue);
  }
#endif

  HIP_CHECK(cudaFree(A_d));
  HIP_CHECK(cudaFree(B_d));
  HIP_CHECK(cudaFree(C_d));
  HIP_CHECK(cudaGraphDestroy(graph));
}

/**
 * Functional Test for API Set Kernel Params
 */
HIP_PORT_CASE(Unit_hipGraphKernelNodeSetParams_Functional) {
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
  HIP_CHECK(cudaGraphKernelNodeSetParams(kNode, &kNodeParams1));

  dependencies.clear();
  dependencies.push_back(kNode);
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyNode, graph, dependencies.data(), dependencies.size(),
                                    C_h, C_d, Nbytes, cudaMemcpyDeviceToHost));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify graph execution result
  HipTest::checkVectorSUB<int>(A_h, B_h, C_h, N);

  HipTest::freeArrays(A_d, B_d, C_d, A_h, B_h, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

static __global__ void ker_vec_add(int* A, int* B) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  A[i] = A[i] + B[i];
}

static __global__ void ker_vec_sub(int* A, int* B) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  A[i] = A[i] - B[i];
}

// Internal class for creating nested graphs.
class GraphKernelNodeGetSetParam {
  const int N = 1024;
  size_t Nbytes;
  const int threadsPerBlock = 256;
  const int blocks = (N / threadsPerBlock);
  cudaGraphNode_t memcpyH2D_A1, memcpyH2D_A2, memcpyD2H_A3, vec_maths;
  cudaGraph_t graph;
  cudaKernelNodeParams kerNodeParams{};
  int *A1_d, *A2_d, *A1_h, *A2_h, *A3_h;

 public:
  // Create a nested Graph
  GraphKernelNodeGetSetParam() {
    Nbytes = N * sizeof(int);
    // Allocate device buffers
    HIP_CHECK(cudaMalloc(&A1_d, Nbytes));
    HIP_CHECK(cudaMalloc(&A2_d, Nbytes));
    // Allocate host buffers
    A1_h = reinterpret_cast<int*>(malloc(Nbytes));
    REQUIRE(A1_h != nullptr);
    A2_h = reinterpret_cast<int*>(malloc(Nbytes));
    REQUIRE(A2_h != nullptr);
    A3_h = reinterpret_cast<int*>(malloc(Nbytes));
    REQUIRE(A3_h != nullptr);
    // Create all the 3 level graphs
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    void* kernelArgs[] = {&A1_d, &A2_d};
    kerNodeParams.func = reinterpret_cast<void*>(ker_vec_add);
    kerNodeParams.gridDim = dim3(blocks);
    kerNodeParams.blockDim = dim3(threadsPerBlock);
    kerNodeParams.kernelParams = reinterpret_cast<void**>(kernelArgs);
    HIP_CHECK(cudaGraphAddKernelNode(&vec_maths, graph, nullptr, 0, &kerNodeParams));
    // Add nodes to graph
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A1, graph, nullptr, 0, A1_d, A1_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_A2, graph, nullptr, 0, A2_d, A2_h, Nbytes,
                                      cudaMemcpyHostToDevice));
    HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_A3, graph, nullptr, 0, A3_h, A1_d, Nbytes,
                                      cudaMemcpyDeviceToHost));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A1, &vec_maths, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A2, &vec_maths, 1));
    HIP_CHECK(cudaGraphAddDependencies(graph, &vec_maths, &memcpyD2H_A3, 1));
  }

  // Fill Random Input Data
  void fillRandInpData() {
    for (int i = 0; i < N; i++) {
      A1_h[i] = (rand() % 256);  // NOLINT
      A2_h[i] = (rand() % 256);  // NOLINT
    }
  }

  cudaGraph_t* getRootGraph() { return &graph; }

  void updateNode() {
    size_t numNodes = 0;
    HIP_CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
    cudaGraphNode_t* nodes =
        reinterpret_cast<cudaGraphNode_t*>(malloc(numNodes * sizeof(cudaGraphNode_t)));
    HIP_CHECK(cudaGraphGetNodes(graph, nodes, &numNodes));
    // Get the Graph node from the embedded graph
    size_t nodeIdx = 0;
    for (size_t idx = 0; idx < numNodes; idx++) {
      cudaGraphNodeType nodeType;
      HIP_CHECK(cudaGraphNodeGetType(nodes[idx], &nodeType));
      if (nodeType == cudaGraphNodeTypeKernel) {
        nodeIdx = idx;
        break;
      }
    }
    cudaKernelNodeParams nodeParam;
    HIP_CHECK(cudaGraphKernelNodeGetParams(nodes[nodeIdx], &nodeParam));
    nodeParam.func = reinterpret_cast<void*>(ker_vec_sub);
    HIP_CHECK(cudaGraphKernelNodeSetParams(nodes[nodeIdx], &nodeParam));
    free(nodes);
  }

  // Function to validate result
  void validateOutData() { HipTest::checkVectorSUB<int>(A1_h, A2_h, A3_h, N); }

  // Destroy resources
  ~GraphKernelNodeGetSetParam() {
    // Free all allocated buffers
    HIP_CHECK(cudaFree(A2_d));
    HIP_CHECK(cudaFree(A1_d));
    free(A3_h);
    free(A2_h);
    free(A1_h);
    HIP_CHECK(cudaGraphDestroy(graph));
  }
};

HIP_PORT_CASE(Unit_hipGraphKernelNodeGetSetParams_Functional) {
  cudaGraph_t* graph;
  cudaStream_t streamForGraph;
  cudaGraphExec_t graphExec;
  GraphKernelNodeGetSetParam GraphKernelNodeGetSetParamObj;
  graph = GraphKernelNodeGetSetParamObj.getRootGraph();
  GraphKernelNodeGetSetParamObj.updateNode();
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  // Instantiate and launch the childgraph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, (*graph), 0));
  GraphKernelNodeGetSetParamObj.fillRandInpData();
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));
  GraphKernelNodeGetSetParamObj.validateOutData();
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
}
} // namespace KernelNodeSetParams

/* ---- hipGraphHostNodeGetParams.cc ---- */
namespace HostNodeGetParams {

/**
Test Case Scenarios of cudaGraphHostNodeGetParams API:

Functional Scenarios:
1) Create a graph, add Host node to graph with desired  node params. Verify api fetches the node
params which were mentioned while adding the host node. 2) Set host node params with
cudaGraphHostNodeSetParams, now get the params and verify both are same. 3) Create graph, Add Graph
nodes and clones the graph. Add Host node to the cloned graph, update hostNode params using
cudaGraphHostNodeSetParams API  now get the params and verify both are same

Negative Scenarios:

1) Pass pGraphNode as nullptr and verify api doesn’t crash, returns error code.
2) Pass pNodeParams as nullptr and verify api doesn’t crash, returns error code.
3) Pass uninitialized graph node
*/


constexpr int SIZE = 1024;

static void callbackfunc(void* A_h) {
  int* A = reinterpret_cast<int*>(A_h);
  for (int i = 0; i < SIZE; i++) {
    A[i] = i;
  }
}

static void callbackfunc_setparams(void* B_h) {
  int* B = reinterpret_cast<int*>(B_h);
  for (int i = 0; i < SIZE; i++) {
    B[i] = i * i;
  }
}

/*
This test case verifies the negative scenarios of
cudaGraphHostNodeGetParams API
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeGetParams_Negative) {
  constexpr size_t N = 1024;
  cudaGraph_t graph;
  int *A_d{nullptr}, *C_d{nullptr};
  int *A_h{nullptr}, *C_h{nullptr};
  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaGraphNode_t hostNode;
  cudaHostNodeParams hostParams = {0, 0};
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));
  cudaHostNodeParams GethostParams;

  SECTION("Passing nullptr to graph node") {
    HIP_CHECK_ERROR(cudaGraphHostNodeGetParams(nullptr, &GethostParams), cudaErrorInvalidValue);
  }

  SECTION("Passing nullptr to hostParams") {
    HIP_CHECK_ERROR(cudaGraphHostNodeGetParams(hostNode, nullptr), cudaErrorInvalidValue);
  }

#if HT_NVIDIA // segfaults on AMD
  SECTION("node is not a host node") {
    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphHostNodeGetParams(empty_node, &GethostParams), cudaErrorInvalidValue);
  }
#endif

  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
  HIP_CHECK(cudaGraphDestroy(graph));
}

/*
This test case verifies cudaGraphHostNodeGetParams API in cloned graph
Creates graph, Add graph nodes and clone the graph
Add HostNode to the cloned graph, update hostNode using cudaGraphHostNodeSetParams,
then get the host node params using cudaGraphHostNodeGetParams API  and
compare it.
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeGetParams_ClonedGraphWithHostNode) {
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
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_A, &memcpyD2H_AC, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));

  cudaGraph_t clonedgraph;
  HIP_CHECK(cudaGraphClone(&clonedgraph, graph));

  cudaGraphNode_t hostNode;
  cudaHostNodeParams hostParams = {0, 0};
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, clonedgraph, nullptr, 0, &hostParams));

  cudaHostNodeParams sethostParams = {0, 0};
  sethostParams.fn = callbackfunc_setparams;
  sethostParams.userData = C_h;
  HIP_CHECK(cudaGraphHostNodeSetParams(hostNode, &sethostParams));
  cudaHostNodeParams gethostParams;
  HIP_CHECK(cudaGraphHostNodeGetParams(hostNode, &gethostParams));
  REQUIRE(memcmp(&sethostParams, &gethostParams, sizeof(cudaHostNodeParams)) == 0);

  // Instantiate and launch the cloned graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, clonedgraph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify execution result
  for (size_t i = 0; i < N; i++) {
    if (C_h[i] != static_cast<int>(i * i)) {
      INFO("Validation failed i " << i << "C_h[i] " << C_h[i]);
      REQUIRE(false);
    }
  }

  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaGraphDestroy(clonedgraph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
}

/*
This test case verifies the following scenarios
Create graph, Adds host node to the graph, updates it
with cudaGraphHostNodeSetParams and gets the host node
params using cudaGraphHostNodeGetParams API and validates
it
*/
void cudaGraphHostNodeGetParams_func(bool setparams) {
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

  if (setparams) {
    cudaHostNodeParams sethostParams = {0, 0};
    sethostParams.fn = callbackfunc_setparams;
    sethostParams.userData = C_h;
    HIP_CHECK(cudaGraphHostNodeSetParams(hostNode, &sethostParams));

    cudaHostNodeParams gethostParams;
    HIP_CHECK(cudaGraphHostNodeGetParams(hostNode, &gethostParams));
    REQUIRE(memcmp(&sethostParams, &gethostParams, sizeof(cudaHostNodeParams)) == 0);
  } else {
    cudaHostNodeParams gethostParams;
    HIP_CHECK(cudaGraphHostNodeGetParams(hostNode, &gethostParams));
    REQUIRE(memcmp(&hostParams, &gethostParams, sizeof(cudaHostNodeParams)) == 0);
  }

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));

  // Verify execution result
  if (setparams) {
    for (size_t i = 0; i < N; i++) {
      if (C_h[i] != static_cast<int>(i * i)) {
        INFO("Validation failed i " << i << "C_h[i] " << C_h[i]);
        REQUIRE(false);
      }
    }
  } else {
    for (size_t i = 0; i < N; i++) {
      if (A_h[i] != static_cast<int>(i)) {
        INFO("Validation failed i " << i << "C_h[i] " << C_h[i]);
        REQUIRE(false);
      }
    }
  }

  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
}

/*
This test case verifies cudaGraphHostNodeGetParams API by
adding host node to graph and gets the host params and
validates it
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeGetParams_BasicFunc) { cudaGraphHostNodeGetParams_func(false); }

/*
This test case verifies cudaGraphHostNodeGetParams API by
adding host node to graph, updates host node params
using cudaGraphHostNodeSetParams  and gets the host params
validates it
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeGetParams_SetParams) { cudaGraphHostNodeGetParams_func(true); }
} // namespace HostNodeGetParams

/* ---- hipGraphHostNodeSetParams.cc ---- */
namespace HostNodeSetParams {

/**
Test Case Scenarios of cudaGraphHostNodeSetParams API:

Functional:
1. Creates graph, Adds HostNode, update hostNode params using cudaGraphHostNodeSetParams API
   and validates the result
2. Create graph, Add Graph nodes and clones the graph. Add Host node to the cloned graph, update
   hostNode params using cudaGraphHostNodeSetParams API and validate the result

Negative:

1) Pass pGraphNode as nullptr and verify api doesn’t crash, returns error code.
2) Pass pNodeParams as nullptr and verify api doesn’t crash, returns error code.
3) Pass cudaHostNodeParams::cudaHostFn_t as nullptr and verify api doesn't crash, returns error code.
4) Pass uninitialized host params
*/


constexpr int SIZE = 1024;

static void callbackfunc(void* A_h) {
  int* A = reinterpret_cast<int*>(A_h);
  for (int i = 0; i < SIZE; i++) {
    A[i] = i;
  }
}

static void callbackfunc_setparams(void* B_h) {
  int* B = reinterpret_cast<int*>(B_h);
  for (int i = 0; i < SIZE; i++) {
    B[i] = i * i;
  }
}

/*
This test case verifies the negative scenarios of
cudaGraphHostNodeSetParams API
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeSetParams_Negative) {
  constexpr size_t N = 1024;
  cudaGraph_t graph;
  int *A_d{nullptr}, *C_d{nullptr};
  int *A_h{nullptr}, *C_h{nullptr};
  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));

  cudaGraphNode_t hostNode;
  cudaHostNodeParams hostParams;
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

  SECTION("Passing nullptr to graph node") {
    HIP_CHECK_ERROR(cudaGraphHostNodeSetParams(nullptr, &hostParams), cudaErrorInvalidValue);
  }

  SECTION("Passing nullptr to hostParams") {
    HIP_CHECK_ERROR(cudaGraphHostNodeSetParams(hostNode, nullptr), cudaErrorInvalidValue);
  }

  SECTION("Passing nullptr to host func") {
    hostParams.fn = nullptr;
    HIP_CHECK_ERROR(cudaGraphHostNodeSetParams(hostNode, &hostParams), cudaErrorInvalidValue);
  }

  SECTION("Passing uninitialized hostParams") {
    cudaHostNodeParams unintParams = {0, 0};
    HIP_CHECK_ERROR(cudaGraphHostNodeSetParams(hostNode, &unintParams), cudaErrorInvalidValue);
  }

#if HT_NVIDIA // segfaults on AMD
  SECTION("node is not a host node") {
    cudaGraphNode_t empty_node;
    HIP_CHECK(cudaGraphAddEmptyNode(&empty_node, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphHostNodeSetParams(empty_node, &hostParams), cudaErrorInvalidValue);
  }
#endif

  HipTest::freeArrays<int>(A_d, nullptr, C_d, A_h, nullptr, C_h, false);
  HIP_CHECK(cudaGraphDestroy(graph));
}

/*
This test case verifies cudaGraphHostNodeSetParams API in cloned graph
Creates graph, Add graph nodes and clone the graph
Add HostNode to the cloned graph,update the host params using
cudaGraphHostNodeSetParams API and validates the result
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeSetParams_ClonedGraphWithHostNode) {
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;
  int *A_d{nullptr}, *C_d{nullptr};
  int *A_h{nullptr}, *C_h{nullptr};
  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t memcpyH2D_C, memcpyD2H_AC;
  cudaStream_t streamForGraph;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes,
                                    cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_AC, graph, nullptr, 0, A_h, C_d, Nbytes,
                                    cudaMemcpyDeviceToHost));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));

  cudaGraph_t clonedgraph;
  HIP_CHECK(cudaGraphClone(&clonedgraph, graph));

  cudaGraphNode_t hostNode;
  cudaHostNodeParams hostParams;
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, clonedgraph, nullptr, 0, &hostParams));

  cudaHostNodeParams sethostParams;
  sethostParams.fn = callbackfunc_setparams;
  sethostParams.userData = C_h;
  HIP_CHECK(cudaGraphHostNodeSetParams(hostNode, &sethostParams));

  // Instantiate and launch the cloned graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, clonedgraph, 0));
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
updates the host params using cudaGraphHostNodeSetParams API
and validates the result
*/
HIP_PORT_CASE(Unit_hipGraphHostNodeSetParams_BasicFunc) {
  constexpr size_t N = 1024;
  constexpr size_t Nbytes = N * sizeof(int);
  cudaGraph_t graph;
  cudaGraphExec_t graphExec;
  int *A_d{nullptr}, *C_d{nullptr};
  int *A_h{nullptr}, *C_h{nullptr};
  HipTest::initArrays<int>(&A_d, nullptr, &C_d, &A_h, nullptr, &C_h, N, false);

  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t memcpyD2H_AC, memcpyH2D_C;
  cudaStream_t streamForGraph;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D_C, graph, nullptr, 0, C_d, C_h, Nbytes,
                                    cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_AC, graph, nullptr, 0, A_h, C_d, Nbytes,
                                    cudaMemcpyDeviceToHost));
  cudaGraphNode_t hostNode;
  cudaHostNodeParams hostParams;
  hostParams.fn = callbackfunc;
  hostParams.userData = A_h;
  HIP_CHECK(cudaGraphAddHostNode(&hostNode, graph, nullptr, 0, &hostParams));

  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyH2D_C, &memcpyD2H_AC, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memcpyD2H_AC, &hostNode, 1));

  cudaHostNodeParams sethostParams;
  sethostParams.fn = callbackfunc_setparams;
  sethostParams.userData = C_h;
  HIP_CHECK(cudaGraphHostNodeSetParams(hostNode, &sethostParams));

  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
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
} // namespace HostNodeSetParams

/* ---- hipGraphEventRecordNodeGetEvent.cc ---- */
namespace EventRecordNodeGetEvent {

/**
Testcase Scenarios :
 1) Validate that the event returned by cudaGraphEventRecordNodeGetEvent matches
with the event set in cudaGraphAddEventRecordNode.
 2) Negative Scenarios
    - Input node is a nullptr.
    - Output event is a nullptr.
    - Input node is an empty node.
    - Input node is a memset node.
    - Input node is event wait node
    - Input node is an uninitialized node.
*/


/**
 * Local Function to set and get event record node property.
 */
static void validateEventRecordNodeGetEvent(unsigned flag) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event, event_out;
  HIP_CHECK(cudaEventCreateWithFlags(&event, flag));
  cudaGraphNode_t eventrec;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event));
  HIP_CHECK(cudaGraphEventRecordNodeGetEvent(eventrec, &event_out));
  // validate set event and get event are same
  REQUIRE(event == event_out);
  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event));
}

/**
 * Scenario: Validate scenario 1 for different event flags.
 */
HIP_PORT_CASE(Unit_hipGraphEventRecordNodeGetEvent_Functional) {
  // Create event nodes with different flags and validate with
  // cudaGraphEventRecordNodeGetEvent.
  SECTION("Flag = cudaEventDefault") {
    validateEventRecordNodeGetEvent(cudaEventDefault);
  }

  SECTION("Flag = cudaEventBlockingSync") {
    validateEventRecordNodeGetEvent(cudaEventBlockingSync);
  }

  SECTION("Flag = cudaEventDisableTiming") {
    validateEventRecordNodeGetEvent(cudaEventDisableTiming);
  }
}

/**
 * Scenario 2: Negative tests.
 */
HIP_PORT_CASE(Unit_hipGraphEventRecordNodeGetEvent_Negative) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event_out;
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventrec, eventwait;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event2));

  SECTION("node = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(nullptr, &event_out), cudaErrorInvalidValue);
  }

  SECTION("event_out = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(eventrec, nullptr), cudaErrorInvalidValue);
  }

  SECTION("input node is empty node") {
    cudaGraphNode_t EmptyGraphNode;
    HIP_CHECK(cudaGraphAddEmptyNode(&EmptyGraphNode, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(EmptyGraphNode, &event_out),
                    cudaErrorInvalidValue);
  }

  SECTION("input node is memset node") {
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
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(memset_A, &event_out), cudaErrorInvalidValue);
    HIP_CHECK(cudaFree(A_d));
  }

  SECTION("input node is event wait node") {
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(eventwait, &event_out), cudaErrorInvalidValue);
  }

  SECTION("input node is uninitialized node") {
    cudaGraphNode_t node_unit{};
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeGetEvent(node_unit, &event_out), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}
} // namespace EventRecordNodeGetEvent

/* ---- hipGraphEventRecordNodeSetEvent.cc ---- */
namespace EventRecordNodeSetEvent {

/**
Testcase Scenarios :
 1) Set a different type of event using cudaGraphEventRecordNodeSetEvent and
    validate using cudaGraphEventRecordNodeGetEvent.
 2) Add different kinds of nodes to graph and add dependencies to nodes.
    Create an event record node at the end with Default flag. Set a different
    type of event using cudaGraphEventRecordNodeSetEvent.  Instantiate and
    Launch graph. Wait for the event to complete. Verify the results.
 3) Negative Scenarios
    - Input node parameter is nullptr.
    - Input event parameter is nullptr.
    - Empty node is passed as input node.
    - Memset node is passed as input node.
    - Event wait node is passed as input node.
    - Input node is an uninitialized node.
    - Input event is an uninitialized event.
*/



/**
 * Local Function: Set Get test
 */
static void validateEventRecordNodeSetEvent(unsigned flag) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  // Create events
  cudaEvent_t event1, event2, event_out;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreateWithFlags(&event2, flag));
  cudaGraphNode_t eventrec;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
  // Set a different event
  HIP_CHECK(cudaGraphEventRecordNodeSetEvent(eventrec, event2));
  HIP_CHECK(cudaGraphEventRecordNodeGetEvent(eventrec, &event_out));
  // validate set event and get event are same
  REQUIRE(event2 == event_out);
  // Free resources
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}

/**
 * Local Function
 */
static void setEventWaitNode() {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  // Create events
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventwait;
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event1));
  // Set a different event eventwait using cudaGraphEventRecordNodeSetEvent
  HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(eventwait, event2), cudaErrorInvalidValue);
  // Free resources
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}

/**
 * Scenario 2: Validate Change of event property in event record node.
 */
HIP_PORT_CASE(Unit_hipGraphEventRecordNodeSetEvent_SetEventProperty) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  // Create events
  cudaEvent_t event1_start, event2_start, event1_end, event2_end;
  HIP_CHECK(cudaEventCreate(&event1_start));
  HIP_CHECK(cudaEventCreate(&event1_end));
  HIP_CHECK(cudaEventCreateWithFlags(&event2_start, cudaEventDisableTiming));
  HIP_CHECK(cudaEventCreateWithFlags(&event2_end, cudaEventDisableTiming));
  // Create nodes
  cudaGraphNode_t event_start_rec, event_end_rec;
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_start_rec, graph, nullptr, 0, event1_start));
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_end_rec, graph, nullptr, 0, event1_end));
  // Create memset node
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
  // Create dependencies
  // event_start_rec --> memset_A --> event_end_rec
  HIP_CHECK(cudaGraphAddDependencies(graph, &event_start_rec, &memset_A, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph, &memset_A, &event_end_rec, 1));

  // Instantiate and launch graph
  cudaStream_t streamForGraph;
  cudaGraphExec_t graphExec;
  HIP_CHECK(cudaStreamCreate(&streamForGraph));
  HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));
  // Validate by measuring time difference between event_end_rec &
  // event_start_rec
  float t = 0.0f;
  REQUIRE(cudaSuccess == cudaEventElapsedTime(&t, event1_start, event1_end));
  REQUIRE(t > 0.0f);
  // Change the event property after instantiation
  HIP_CHECK(cudaGraphEventRecordNodeSetEvent(event_start_rec, event2_start));
  HIP_CHECK(cudaGraphEventRecordNodeSetEvent(event_end_rec, event2_end));
  // Launch the graph again with the new settings
  HIP_CHECK(cudaGraphLaunch(graphExec, streamForGraph));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph));
  // Validate cudaEventElapsedTime() must return
  // cudaErrorInvalidHandle when events are created using
  // cudaEventDisableTiming flag.
  t = 0.0f;
  HIP_CHECK_ERROR(cudaEventElapsedTime(&t, event2_start, event2_end), cudaErrorInvalidResourceHandle) /* STREAMSIM: hipErrorInvalidHandle */;
  // Free resources
  HIP_CHECK(cudaGraphExecDestroy(graphExec));
  HIP_CHECK(cudaStreamDestroy(streamForGraph));
  HIP_CHECK(cudaFree(A_d));
  HIP_CHECK(cudaEventDestroy(event1_start));
  HIP_CHECK(cudaEventDestroy(event2_start));
  HIP_CHECK(cudaEventDestroy(event1_end));
  HIP_CHECK(cudaEventDestroy(event2_end));
  HIP_CHECK(cudaGraphDestroy(graph));
}

/**
 * Scenario 1: Validate Set Get test for all Event flags
 */
HIP_PORT_CASE(Unit_hipGraphEventRecordNodeSetEvent_SetGet) {
  SECTION("Flag = cudaEventDefault") {
    validateEventRecordNodeSetEvent(cudaEventDefault);
  }

  SECTION("Flag = cudaEventBlockingSync") {
    validateEventRecordNodeSetEvent(cudaEventBlockingSync);
  }

  SECTION("Flag = cudaEventDisableTiming") {
    validateEventRecordNodeSetEvent(cudaEventDisableTiming);
  }
}

/**
 * Scenario 3: Negative Tests
 */
HIP_PORT_CASE(Unit_hipGraphEventRecordNodeSetEvent_Negative) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventrec;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
  SECTION("node = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(nullptr, event2), cudaErrorInvalidValue);
  }

  SECTION("event_out = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(eventrec, nullptr), cudaErrorInvalidValue);
  }

  SECTION("input node is empty node") {
    cudaGraphNode_t EmptyGraphNode;
    HIP_CHECK(cudaGraphAddEmptyNode(&EmptyGraphNode, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(EmptyGraphNode, event2), cudaErrorInvalidValue);
  }

  SECTION("input node is memset node") {
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
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(memset_A, event2), cudaErrorInvalidValue);
    HIP_CHECK(cudaFree(A_d));
  }

  SECTION("input node is event wait node") {
    setEventWaitNode();
  }

  SECTION("input node is uninitialized node") {
    cudaGraphNode_t node_uninit{};
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(node_uninit, event2), cudaErrorInvalidValue);
  }

  SECTION("input event is uninitialized") {
    cudaEvent_t event_uninit{};
    HIP_CHECK_ERROR(cudaGraphEventRecordNodeSetEvent(eventrec, event_uninit), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}
} // namespace EventRecordNodeSetEvent

/* ---- hipGraphEventWaitNodeGetEvent.cc ---- */
namespace EventWaitNodeGetEvent {

/**
Testcase Scenarios :
 1) Validate that the event returned by cudaGraphEventWaitNodeGetEvent matches
with the event set in cudaGraphAddEventWaitNode.
 2) Negative Scenarios
    - Input node parameter is passed as nullptr.
    - Output event parameter is passed as nullptr.
    - Input node parameter is an empty node.
    - Input node parameter is a memset node.
    - Input node parameter is a event record node.
    - Input node parameter is an uninitialized node.
*/



/**
 * Local Function
 */
static void validateEventWaitNodeGetEvent(unsigned flag) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event, event_out;
  HIP_CHECK(cudaEventCreateWithFlags(&event, flag));
  cudaGraphNode_t eventwait;
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event));
  HIP_CHECK(cudaGraphEventWaitNodeGetEvent(eventwait, &event_out));
  // validate set event and get event are same
  REQUIRE(event == event_out);
  // Instantiate and launch the graph
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event));
}

/**
 * Scenario 1
 */
HIP_PORT_CASE(Unit_hipGraphEventWaitNodeGetEvent_Functional) {
  // Create event nodes with different flags and validate with
  // cudaGraphEventWaitNodeGetEvent.
  SECTION("Flag = cudaEventDefault") {
    validateEventWaitNodeGetEvent(cudaEventDefault);
  }

  SECTION("Flag = cudaEventBlockingSync") {
    validateEventWaitNodeGetEvent(cudaEventBlockingSync);
  }

  SECTION("Flag = cudaEventDisableTiming") {
    validateEventWaitNodeGetEvent(cudaEventDisableTiming);
  }
}

/**
 * Scenario 2
 */
HIP_PORT_CASE(Unit_hipGraphEventWaitNodeGetEvent_Negative) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event_out;
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventrec, eventwait;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event2));

  SECTION("node = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(nullptr, &event_out), cudaErrorInvalidValue);
  }

  SECTION("event_out = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(eventwait, nullptr), cudaErrorInvalidValue);
  }

  SECTION("input node is empty node") {
    cudaGraphNode_t EmptyGraphNode;
    HIP_CHECK(cudaGraphAddEmptyNode(&EmptyGraphNode, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(EmptyGraphNode, &event_out),
                    cudaErrorInvalidValue);
  }

  SECTION("input node is memset node") {
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
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(memset_A, &event_out), cudaErrorInvalidValue);
    HIP_CHECK(cudaFree(A_d));
  }

  SECTION("input node is event record node") {
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(eventrec, &event_out), cudaErrorInvalidValue);
  }

  SECTION("input node is uninitialized") {
    cudaGraphNode_t node_uninit{};
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeGetEvent(node_uninit, &event_out), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}
} // namespace EventWaitNodeGetEvent

/* ---- hipGraphEventWaitNodeSetEvent.cc ---- */
namespace EventWaitNodeSetEvent {

/**
Testcase Scenarios :
 1) Set a different type of event using cudaGraphEventWaitNodeSetEvent and
    validate using cudaGraphEventWaitNodeGetEvent.
 2) Create a graph1 with memset (Value 1) node, event record node (event A)
    and memset (Value 2) node and event record node (event B). Create a
    graph2 with Event Wait (event A ) node and memcpyd2h. Instantiate
    graph1 on stream1 and graph2 on stream2. Set the Event Wait node event
    to B using cudaGraphEventWaitNodeSetEvent. Launch graphs. Wait for the
    event to complete. Verify the results.
 3) Negative Scenarios
    - Input node parameter is passed as nullptr.
    - Input event parameter is passed as nullptr.
    - Input node is an empty node.
    - Input node is a memset node.
    - Input node is a event record node.
    - Input node is an uninitialized node.
    - Input event is an uninitialized node.
*/



/**
 * Local Function
 */
static void validateEventWaitNodeSetEvent(unsigned flag) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  // Create events
  cudaEvent_t event1, event2, event_out;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreateWithFlags(&event2, flag));
  cudaGraphNode_t eventwait;
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event1));
  // Set a different event
  HIP_CHECK(cudaGraphEventWaitNodeSetEvent(eventwait, event2));
  HIP_CHECK(cudaGraphEventWaitNodeGetEvent(eventwait, &event_out));
  // validate set event and get event are same
  REQUIRE(event2 == event_out);
  // Free resources
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}

/**
 * Local Function
 */
static void setEventRecordNode() {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  // Create events
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventrec;
  HIP_CHECK(cudaGraphAddEventRecordNode(&eventrec, graph, nullptr, 0, event1));
  // Set a different event eventrec using cudaGraphEventWaitNodeSetEvent
  HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(eventrec, event2), cudaErrorInvalidValue);
  // Free resources
  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}

/**
 * Scenario 2
 */
HIP_PORT_CASE(Unit_hipGraphEventWaitNodeSetEvent_SetProp) {
  constexpr size_t N = 512;
  size_t memsize = N * sizeof(int);
  constexpr auto blocksPerCU = 6;  // to hide latency
  constexpr auto threadsPerBlock = 256;
  unsigned blocks = HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N);
  size_t NElem{N};
  cudaGraph_t graph1, graph2;
  cudaStream_t streamForGraph1, streamForGraph2;
  cudaGraphExec_t graphExec1, graphExec2;
  HIP_CHECK(cudaStreamCreate(&streamForGraph1));
  HIP_CHECK(cudaGraphCreate(&graph1, 0));
  HIP_CHECK(cudaGraphCreate(&graph2, 0));
  HIP_CHECK(cudaStreamCreate(&streamForGraph2));

  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreateWithFlags(&event1, cudaEventDefault));
  HIP_CHECK(cudaEventCreateWithFlags(&event2, cudaEventBlockingSync));
  cudaGraphNode_t event_rec_node, event_wait_node;
  int *inp_h, *inp_d, *out_h_g1, *out_d_g1, *out_h_g2, *out_d_g2;
  // Allocate host buffers
  inp_h = reinterpret_cast<int*>(malloc(memsize));
  REQUIRE(inp_h != nullptr);
  out_h_g1 = reinterpret_cast<int*>(malloc(memsize));
  REQUIRE(out_h_g1 != nullptr);
  out_h_g2 = reinterpret_cast<int*>(malloc(memsize));
  REQUIRE(out_h_g2 != nullptr);
  // Allocate device buffers
  HIP_CHECK(cudaMalloc(&inp_d, memsize));
  HIP_CHECK(cudaMalloc(&out_d_g1, memsize));
  HIP_CHECK(cudaMalloc(&out_d_g2, memsize));
  // Initialize host buffer
  for (uint32_t i = 0; i < N; i++) {
    inp_h[i] = i;
    out_h_g1[i] = 0;
    out_h_g2[i] = 0;
  }
  // Graph1 creation ...........
  // Create event1 record node in graph1
  HIP_CHECK(cudaGraphAddEventRecordNode(&event_rec_node, graph1, nullptr, 0, event1));

  // Create memcpy and kernel nodes for graph1
  cudaGraphNode_t memcpyH2D, memcpyD2H_1, kernelnode_1;
  cudaKernelNodeParams kernelNodeParams1{};
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyH2D, graph1, nullptr, 0, inp_d, inp_h, memsize,
                                    cudaMemcpyHostToDevice));
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_1, graph1, nullptr, 0, out_h_g1, out_d_g1, memsize,
                                    cudaMemcpyDeviceToHost));

  void* kernelArgs1[] = {&inp_d, &out_d_g1, reinterpret_cast<void*>(&NElem)};
  kernelNodeParams1.func = reinterpret_cast<void*>(HipTest::vector_square<int>);
  kernelNodeParams1.gridDim = dim3(blocks);
  kernelNodeParams1.blockDim = dim3(threadsPerBlock);
  kernelNodeParams1.sharedMemBytes = 0;
  kernelNodeParams1.kernelParams = reinterpret_cast<void**>(kernelArgs1);
  kernelNodeParams1.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelnode_1, graph1, nullptr, 0, &kernelNodeParams1));
  // Create dependencies for graph1
  HIP_CHECK(cudaGraphAddDependencies(graph1, &memcpyH2D, &event_rec_node, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph1, &event_rec_node, &kernelnode_1, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph1, &kernelnode_1, &memcpyD2H_1, 1));

  // Graph2 creation ...........
  // Create event1 record node in graph2
  HIP_CHECK(cudaGraphAddEventWaitNode(&event_wait_node, graph2, nullptr, 0, event1));
  // Create memcpy and kernel nodes for graph2
  cudaGraphNode_t memcpyD2H_2, kernelnode_2;
  cudaKernelNodeParams kernelNodeParams2{};
  HIP_CHECK(cudaGraphAddMemcpyNode1D(&memcpyD2H_2, graph2, nullptr, 0, out_h_g2, out_d_g2, memsize,
                                    cudaMemcpyDeviceToHost));

  void* kernelArgs2[] = {&inp_d, &out_d_g2, reinterpret_cast<void*>(&NElem)};
  kernelNodeParams2.func = reinterpret_cast<void*>(HipTest::vector_cubic<int>);
  kernelNodeParams2.gridDim = dim3(blocks);
  kernelNodeParams2.blockDim = dim3(threadsPerBlock);
  kernelNodeParams2.sharedMemBytes = 0;
  kernelNodeParams2.kernelParams = reinterpret_cast<void**>(kernelArgs2);
  kernelNodeParams2.extra = nullptr;
  HIP_CHECK(cudaGraphAddKernelNode(&kernelnode_2, graph2, nullptr, 0, &kernelNodeParams2));
  // Create dependencies for graph2
  HIP_CHECK(cudaGraphAddDependencies(graph2, &event_wait_node, &kernelnode_2, 1));
  HIP_CHECK(cudaGraphAddDependencies(graph2, &kernelnode_2, &memcpyD2H_2, 1));

  // Instantiate and launch the graphs
  HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
  HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph2, 0));
  // Set event
  HIP_CHECK(cudaGraphEventRecordNodeSetEvent(event_rec_node, event2));
  HIP_CHECK(cudaGraphEventWaitNodeSetEvent(event_wait_node, event2));

  HIP_CHECK(cudaGraphLaunch(graphExec1, streamForGraph1));
  HIP_CHECK(cudaGraphLaunch(graphExec2, streamForGraph2));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph1));
  HIP_CHECK(cudaStreamSynchronize(streamForGraph2));
  // Validate output
  bool btestPassed1 = true;
  for (uint32_t i = 0; i < N; i++) {
    if (out_h_g1[i] != (inp_h[i] * inp_h[i])) {
      btestPassed1 = false;
      break;
    }
  }
  REQUIRE(btestPassed1 == true);
  bool btestPassed2 = true;
  for (uint32_t i = 0; i < N; i++) {
    if (out_h_g2[i] != (inp_h[i] * inp_h[i] * inp_h[i])) {
      btestPassed2 = false;
      break;
    }
  }
  REQUIRE(btestPassed2 == true);
  // Destroy all resources
  HIP_CHECK(cudaFree(inp_d));
  HIP_CHECK(cudaFree(out_d_g1));
  HIP_CHECK(cudaFree(out_d_g2));
  free(inp_h);
  free(out_h_g1);
  free(out_h_g2);
  HIP_CHECK(cudaGraphExecDestroy(graphExec1));
  HIP_CHECK(cudaGraphExecDestroy(graphExec2));
  HIP_CHECK(cudaGraphDestroy(graph1));
  HIP_CHECK(cudaGraphDestroy(graph2));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
  HIP_CHECK(cudaStreamDestroy(streamForGraph1));
  HIP_CHECK(cudaStreamDestroy(streamForGraph2));
}
/**
 * Scenario 1
 */
HIP_PORT_CASE(Unit_hipGraphEventWaitNodeSetEvent_SetGet) {
  SECTION("Flag = cudaEventDefault") {
    validateEventWaitNodeSetEvent(cudaEventDefault);
  }

  SECTION("Flag = cudaEventBlockingSync") {
    validateEventWaitNodeSetEvent(cudaEventBlockingSync);
  }

  SECTION("Flag = cudaEventDisableTiming") {
    validateEventWaitNodeSetEvent(cudaEventDisableTiming);
  }
}

/**
 * Scenario 3
 */
HIP_PORT_CASE(Unit_hipGraphEventWaitNodeSetEvent_Negative) {
  cudaGraph_t graph;
  HIP_CHECK(cudaGraphCreate(&graph, 0));
  cudaEvent_t event1, event2;
  HIP_CHECK(cudaEventCreate(&event1));
  HIP_CHECK(cudaEventCreate(&event2));
  cudaGraphNode_t eventwait;
  HIP_CHECK(cudaGraphAddEventWaitNode(&eventwait, graph, nullptr, 0, event1));
  SECTION("node = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(nullptr, event2), cudaErrorInvalidValue);
  }

  SECTION("event = nullptr") {
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(eventwait, nullptr), cudaErrorInvalidValue);
  }

  SECTION("input node is empty node") {
    cudaGraphNode_t EmptyGraphNode;
    HIP_CHECK(cudaGraphAddEmptyNode(&EmptyGraphNode, graph, nullptr, 0));
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(EmptyGraphNode, event2), cudaErrorInvalidValue);
  }

  SECTION("input node is memset node") {
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
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(memset_A, event2), cudaErrorInvalidValue);
    HIP_CHECK(cudaFree(A_d));
  }

  SECTION("input node is event record node") {
    setEventRecordNode();
  }

  SECTION("input node is uninitialized node") {
    cudaGraphNode_t node_uninit{};
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(node_uninit, event2), cudaErrorInvalidValue);
  }

  SECTION("input event is uninitialized") {
    cudaEvent_t event_uninit{};
    HIP_CHECK_ERROR(cudaGraphEventWaitNodeSetEvent(eventwait, event_uninit), cudaErrorInvalidValue);
  }

  HIP_CHECK(cudaGraphDestroy(graph));
  HIP_CHECK(cudaEventDestroy(event1));
  HIP_CHECK(cudaEventDestroy(event2));
}
} // namespace EventWaitNodeSetEvent

/* ---- hipGraphMemsetNodeGetParams.cc ---- */
namespace MemsetNodeGetParams {


/**
 * @addtogroup cudaGraphMemsetNodeGetParams cudaGraphMemsetNodeGetParams
 * @{
 * @ingroup GraphTest
 * `cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams *pNodeParams)` -
 * 	Gets a memset node's parameters
 * ________________________
 * Test cases from other APIs:
 *  - @ref Unit_hipGraphMemsetNodeSetParams_Positive_Basic
 *  - @ref Unit_hipGraphExecMemsetNodeSetParams_Positive_Basic
 */

/**
 * Test Description
 * ------------------------
 *    - Verify API behaviour with invalid arguments:
 *      -# node is nullptr
 *      -# pNodeParams is nullptr
 *      -# node is destroyed
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemsetNodeGetParams.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
HIP_PORT_CASE(Unit_hipGraphMemsetNodeGetParams_Negative_Parameters) {
  CHECK_IMAGE_SUPPORT

  LinearAllocGuard2D<int> alloc(1, 1);
  cudaMemsetParams params = {};
  params.dst = alloc.ptr();
  params.elementSize = sizeof(int);
  params.width = 1;
  params.height = 1;

  cudaGraph_t graph = nullptr;
  cudaGraphNode_t node = nullptr;

  SECTION("node == nullptr") {
    HIP_CHECK_ERROR(cudaGraphMemsetNodeGetParams(nullptr, &params), cudaErrorInvalidValue);
  }

  SECTION("pNodeParams == nullptr") {
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &params));
    HIP_CHECK_ERROR(cudaGraphMemsetNodeGetParams(node, nullptr), cudaErrorInvalidValue);
    HIP_CHECK(cudaGraphDestroy(graph));
  }

// Disabled on AMD due to defect - EXSWHTEC-208
#if 0
  SECTION("Node is destroyed") {
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &params));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK_ERROR(cudaGraphMemsetNodeGetParams(node, &params), cudaErrorInvalidValue);
  }
#endif
}

/**
* End doxygen group GraphTest.
* @}
*/
} // namespace MemsetNodeGetParams

/* ---- hipGraphMemcpyNodeGetParams.cc ---- */
namespace MemcpyNodeGetParams {


/**
 * @addtogroup cudaGraphMemcpyNodeGetParams cudaGraphMemcpyNodeGetParams
 * @{
 * @ingroup GraphTest
 * `cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms *pNodeParams)` -
 * 	Gets a memcpy node's parameters
 * ________________________
 * Test cases from other APIs:
 *  - @ref Unit_hipGraphMemcpyNodeSetParams_Positive_Basic
 */

/**
 * Test Description
 * ------------------------
 *    - Verify API behaviour with invalid arguments:
 *      -# node is nullptr
 *      -# pNodeParams is nullptr
 *      -# node is destroyed
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemcpyNodeGetParams.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
HIP_PORT_CASE(Unit_hipGraphMemcpyNodeGetParams_Negative_Parameters) {
  CHECK_IMAGE_SUPPORT
  constexpr cudaExtent extent{128 * sizeof(int), 128, 8};

  LinearAllocGuard3D<int> src_alloc(extent);
  LinearAllocGuard3D<int> dst_alloc(extent);

  cudaMemcpy3DParms params = {};
  params.srcPtr = src_alloc.pitched_ptr();
  params.srcPos = make_cudaPos(0, 0, 0);
  params.dstPtr = dst_alloc.pitched_ptr();
  params.dstPos = make_cudaPos(0, 0, 0);
  params.extent = extent;
  params.kind = cudaMemcpyDeviceToDevice;

  cudaGraph_t graph = nullptr;
  cudaGraphNode_t node = nullptr;

  SECTION("node == nullptr") {
    HIP_CHECK_ERROR(cudaGraphMemcpyNodeGetParams(nullptr, &params), cudaErrorInvalidValue);
  }

  SECTION("pNodeParams == nullptr") {
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &params));
    HIP_CHECK_ERROR(cudaGraphMemcpyNodeGetParams(node, nullptr), cudaErrorInvalidValue);
    HIP_CHECK(cudaGraphDestroy(graph));
  }

#if HT_NVIDIA  // Disabled on AMD due to defect - EXSWHTEC-208
  SECTION("Node is destroyed") {
    HIP_CHECK(cudaGraphCreate(&graph, 0));
    HIP_CHECK(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &params));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK_ERROR(cudaGraphMemcpyNodeGetParams(node, &params), cudaErrorInvalidValue);
  }
#endif
}

/**
* End doxygen group GraphTest.
* @}
*/
} // namespace MemcpyNodeGetParams

/* ---- hipGraphMemsetNodeSetParams.cc ---- */
namespace MemsetNodeSetParams {




/**
 * @addtogroup cudaGraphMemsetNodeSetParams cudaGraphMemsetNodeSetParams
 * @{
 * @ingroup GraphTest
 * `cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams *pNodeParams)` -
 * Sets a memset node's parameters
 */

/**
 * Test Description
 * ------------------------
 *    - Verify that node parameters get updated correctly by creating a node with valid but
 * incorrect parameters, and then setting them to the correct values after which the graph is
 * executed and the results verified.
 * The parameters are also verified via cudaGraphMemsetNodeGetParams, which also constitutes a test
 * for said API.
 * The test is repeated for all valid element sizes(1, 2, 4), and several allocations of different
 * height and width both on host and device
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemsetNodeSetParams.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
template <typename TestType> static void Unit_hipGraphMemsetNodeSetParams_Positive_Basic_pass() {
  CHECK_IMAGE_SUPPORT

  const auto f = [](cudaMemsetParams* params) {
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

    cudaMemsetParams retrieved_params = {};
    HIP_CHECK(cudaGraphMemsetNodeGetParams(node, &retrieved_params));
    REQUIRE(initial_params.dst == retrieved_params.dst);
    REQUIRE(initial_params.elementSize == retrieved_params.elementSize);
    REQUIRE(initial_params.width == retrieved_params.width);
    REQUIRE(initial_params.height == retrieved_params.height);
    REQUIRE(initial_params.pitch == retrieved_params.pitch);
    REQUIRE(initial_params.value == retrieved_params.value);

    HIP_CHECK(cudaGraphMemsetNodeSetParams(node, params));
    HIP_CHECK(cudaGraphMemsetNodeGetParams(node, &retrieved_params));
    REQUIRE(params->dst == retrieved_params.dst);
    REQUIRE(params->elementSize == retrieved_params.elementSize);
    REQUIRE(params->width == retrieved_params.width);
    REQUIRE(params->height == retrieved_params.height);
    REQUIRE(params->pitch == retrieved_params.pitch);
    REQUIRE(params->value == retrieved_params.value);

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

/**
 * Test Description
 * ------------------------
 *    - Verify API behaviour with invalid arguments:
 *        -# node is nullptr
 *        -# pNodeParams is nullptr
 *        -# pNodeParams::dst is nullptr
 *        -# pNodeParams::elementSize is different from 1, 2, and 4
 *        -# pNodeParams::width is zero
 *        -# pNodeParams::width is larger than the allocated memory region
 *        -# pNodeParams::height is zero
 *        -# pNodeParams::pitch is less than width when height is more than 1
 *        -# pNodeParams::pitch * pMemsetParams::height is larger than the allocated memory region
 * Test source
 * ------------------------
 *    - unit/graph/cudaGraphMemsetNodeSetParams.cc
 * Test requirements
 * ------------------------
 *    - HIP_VERSION >= 5.2
 */
/* TEMPLATE_TEST_CASE(..., uint8_t, uint16_t, uint32_t) */
static void Unit_hipGraphMemsetNodeSetParams_Positive_Basic() {
    RunSections(Unit_hipGraphMemsetNodeSetParams_Positive_Basic_pass<uint8_t>);
    RunSections(Unit_hipGraphMemsetNodeSetParams_Positive_Basic_pass<uint16_t>);
    RunSections(Unit_hipGraphMemsetNodeSetParams_Positive_Basic_pass<uint32_t>);
}

HIP_PORT_CASE(Unit_hipGraphMemsetNodeSetParams_Negative_Parameters) {
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
  HIP_CHECK(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &params)); /* STREAMSIM: ; added */

  SECTION("node == nullptr") {
    HIP_CHECK_ERROR(cudaGraphMemsetNodeSetParams(nullptr, &params), cudaErrorInvalidValue);
  }

  MemsetCommonNegative(std::bind(cudaGraphMemsetNodeSetParams, node, _1), params);

  HIP_CHECK(cudaGraphDestroy(graph));
}

/**
* End doxygen group GraphTest.
* @}
*/
} // namespace MemsetNodeSetParams

int main() {
    HIP_TEST_CASE(KernelNodeGetParams::Unit_hipGraphKernelNodeGetParams_Negative);
    HIP_TEST_CASE(KernelNodeGetParams::Unit_hipGraphKernelNodeGetParams_Functional);
    HIP_TEST_CASE(KernelNodeSetParams::Unit_hipGraphKernelNodeSetParams_Negative);
    HIP_TEST_CASE(KernelNodeSetParams::Unit_hipGraphKernelNodeSetParams_Functional);
    HIP_TEST_CASE(KernelNodeSetParams::Unit_hipGraphKernelNodeGetSetParams_Functional);
    HIP_TEST_CASE(HostNodeGetParams::Unit_hipGraphHostNodeGetParams_Negative);
    HIP_TEST_CASE(HostNodeGetParams::Unit_hipGraphHostNodeGetParams_ClonedGraphWithHostNode);
    HIP_TEST_CASE(HostNodeGetParams::Unit_hipGraphHostNodeGetParams_BasicFunc);
    HIP_TEST_CASE(HostNodeGetParams::Unit_hipGraphHostNodeGetParams_SetParams);
    HIP_TEST_CASE(HostNodeSetParams::Unit_hipGraphHostNodeSetParams_Negative);
    HIP_TEST_CASE(HostNodeSetParams::Unit_hipGraphHostNodeSetParams_ClonedGraphWithHostNode);
    HIP_TEST_CASE(HostNodeSetParams::Unit_hipGraphHostNodeSetParams_BasicFunc);
    HIP_TEST_CASE(EventRecordNodeGetEvent::Unit_hipGraphEventRecordNodeGetEvent_Functional);
    HIP_TEST_CASE(EventRecordNodeGetEvent::Unit_hipGraphEventRecordNodeGetEvent_Negative);
    HIP_TEST_CASE(EventRecordNodeSetEvent::Unit_hipGraphEventRecordNodeSetEvent_SetEventProperty);
    HIP_TEST_CASE(EventRecordNodeSetEvent::Unit_hipGraphEventRecordNodeSetEvent_SetGet);
    HIP_TEST_CASE(EventRecordNodeSetEvent::Unit_hipGraphEventRecordNodeSetEvent_Negative);
    HIP_TEST_CASE(EventWaitNodeGetEvent::Unit_hipGraphEventWaitNodeGetEvent_Functional);
    HIP_TEST_CASE(EventWaitNodeGetEvent::Unit_hipGraphEventWaitNodeGetEvent_Negative);
    HIP_TEST_CASE(EventWaitNodeSetEvent::Unit_hipGraphEventWaitNodeSetEvent_SetProp);
    HIP_TEST_CASE(EventWaitNodeSetEvent::Unit_hipGraphEventWaitNodeSetEvent_SetGet);
    HIP_TEST_CASE(EventWaitNodeSetEvent::Unit_hipGraphEventWaitNodeSetEvent_Negative);
    HIP_TEST_CASE(MemsetNodeGetParams::Unit_hipGraphMemsetNodeGetParams_Negative_Parameters);
    HIP_TEST_CASE(MemcpyNodeGetParams::Unit_hipGraphMemcpyNodeGetParams_Negative_Parameters);
    HIP_TEST_CASE(MemsetNodeSetParams::Unit_hipGraphMemsetNodeSetParams_Positive_Basic);
    HIP_TEST_CASE(MemsetNodeSetParams::Unit_hipGraphMemsetNodeSetParams_Negative_Parameters);
    printf("hip-tests graph params: %d test cases, %d skipped: PASSED\n", hip_tests_cases, hip_tests_skipped);
    return 0;
}
