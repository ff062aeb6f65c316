/*
 * hip_tests_graph_mem.cu — ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a) graph memory node unit tests, translated to CUDA names (hipX → cudaX)
 * and built with `streamsim cc` (the kernels run on the CPU):
 *   catch/unit/graph/hipGraphAddMemAllocNode.cc:       Unit_hipGraphAddMemAllocNode_Negative_Params (10 sections),
 *                                                       _Negative_NotSupported (4), _Positive_FreeInGraph,
 *                                                       _Positive_FreeOutsideStream, _Positive_FreeOutsideGraph,
 *                                                       _Positive_FreeSeparateGraph
 *   catch/unit/graph/hipGraphAddMemFreeNode.cc:        Unit_hipGraphAddMemFreeNode_Negative_Params (8),
 *                                                       _Negative_NotSupported (4)
 *   catch/unit/graph/hipDeviceGetGraphMemAttribute.cc: Unit_hipDeviceGetGraphMemAttribute_Positive_DoubleMemory,
 *                                                       _Negative_Parameters (3), Unit_hipDeviceGetGraphMemAttribute_
 *                                                       Negative (4), Unit_hipDeviceSetGraphMemAttribute_Negative (7)
 *   catch/unit/graph/hipDeviceGraphMemTrim.cc:         Unit_hipDeviceGraphMemTrim_Positive_Default,
 *                                                       _Negative_Parameters
 *   catch/unit/graph/hipDeviceSetGraphMemAttribute.cc: Unit_hipDeviceSetGraphMemAttribute_Positive_Default,
 *                                                       _Negative_Parameters (5)
 *   catch/unit/graph/hipGraphMemAllocNodeGetParams.cc: Unit_hipGraphMem_Alloc_Free_NodeGetParams_Functional,
 *                                                       _Functional_MultiDevice, _Functional_2, _Functional_3,
 *                                                       _Negative (8)
 *   catch/unit/graph/hipGraphMemFreeNodeGetParams.cc:  Unit_hipGraphMemFreeNodeGetParams_ValidArgs, _InvalidArgs (3)
 *
 * Every runtime call and every check of those tests is kept, with these changes:
 *   - Catch2 → plain functions: HIP_CHECK → EXPECT(call, cudaSuccess), HIP_CHECK_ERROR(call, e) → EXPECT(call, e),
 *     REQUIRE → CHECK (tests/c/check.h); each SECTION runs as its own pass of its test case, as Catch2 runs them;
 *     GENERATE(range(0, devices)) → a loop; the guards (StreamGuard, LinearAllocGuard) become explicit create /
 *     destroy calls at the guards' construction and destruction points; ArrayFindIfNot → a loop that CHECKs every
 *     element; HipTest::initArrays / vectorADD / checkVectorADD / setNumBlocks → the same computations written out.
 *   - hip error names → the CUDA codes with the same meaning: hipErrorInvalidValue → cudaErrorInvalidValue,
 *     hipErrorNotSupported → cudaErrorNotSupported, hipErrorOutOfMemory → cudaErrorMemoryAllocation,
 *     hipErrorInvalidDevice → cudaErrorInvalidDevice; hipMemAllocationTypeInvalid / hipMemLocationTypeInvalid → 0
 *     (CUDA's cudaMemAllocationTypeInvalid / cudaMemLocationTypeInvalid).
 *   - Sizes: the positive tests' 512 Mi-element (2 GiB) buffers → 4 Mi elements (16 MiB), so the CPU-run kernels
 *     and copies stay quick; the attribute test keeps its 64 Mi elements (256 MiB, never touched). The HT_NVIDIA
 *     branches run (a CUDA device); the !HT_NVIDIA tests (_Positive_ReuseMemory, _Functional, _Functional_Multi_
 *     Device of hipDeviceGetGraphMemAttribute.cc) are not ported: they are AMD-only.
 *   - The attribute test (_Positive_DoubleMemory) runs first: it reads the device's graph memory totals, which
 *     start at 0 in a fresh process, and upstream runs every test case as a process of its own (ctest).
 *   - After _Functional_MultiDevice (which leaves the last device current) device 0 is made current again, as it
 *     is in the fresh process upstream runs the next test case in.
 *   - _Functional_3 compares the parameters it gave with those cudaGraphMemAllocNodeGetParams returns with one
 *     memcmp. The Runtime API says the accessDescs returned "are owned by the node", so the pointer differs from the
 *     caller's: the port compares every byte but that pointer's, then the descriptors it points to.
 */
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

static constexpr size_t element_count = 4 * 1024 * 1024;

__global__ void validateGPU(int *const vec, const int value, size_t N, unsigned int *mismatch) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        if (vec[idx] != value) {
            atomicAdd(mismatch, 1);
        }
    }
}

template <typename T> __global__ void vectorADD(const T *A_d, const T *B_d, T *C_d, size_t NELEM) {
    size_t offset = (blockIdx.x * blockDim.x + threadIdx.x);
    size_t stride = blockDim.x * gridDim.x;
    for (size_t i = offset; i < NELEM; i += stride) {
        C_d[i] = A_d[i] + B_d[i];
    }
}

static void ArrayFindIfNot(const int *a, int value, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != value) {
            fprintf(stderr, "element %zu is %d, expected %d\n", i, a[i], value);
            CHECK(a[i] == value);
        }
    }
}

static int device_count() {
    int n = 0;
    EXPECT(cudaGetDeviceCount(&n), cudaSuccess);
    return n;
}

/* ---------------------------------------------------------------- hipGraphAddMemAllocNode.cc */

static void AddMemAllocNode_Negative_Params(int section) {
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    cudaGraphNode_t alloc_node;
    std::vector<cudaGraphNode_t> dependencies;

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    int num_dev = 0;
    EXPECT(cudaGetDeviceCount(&num_dev), cudaSuccess);

    cudaMemAccessDesc desc;
    memset(&desc, 0, sizeof(cudaMemAccessDesc));
    desc.location.type = cudaMemLocationTypeDevice;
    desc.location.id = 0;
    desc.flags = cudaMemAccessFlagsProtReadWrite;

    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = N;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;
    alloc_param.accessDescs = &desc;
    alloc_param.accessDescCount = 1;

    switch (section) {
    case 0: /* Passing nullptr to graph node */
        EXPECT(cudaGraphAddMemAllocNode(nullptr, graph, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        break;
    case 1: /* Passing nullptr to graph */
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, nullptr, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        break;
    case 2: /* Pass invalid numDependencies */
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 11, &alloc_param), cudaErrorInvalidValue);
        break;
    case 3: /* Pass invalid numDependencies and valid list for dependencies */
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);
        dependencies.push_back(alloc_node);
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, dependencies.data(), dependencies.size() + 1,
                                        &alloc_param),
               cudaErrorInvalidValue);
        break;
    case 4: /* Passing nullptr to alloc params */
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, nullptr), cudaErrorInvalidValue);
        break;
    case 5: /* Passing invalid poolProps alloc type */
        alloc_param.poolProps.allocType = (cudaMemAllocationType)0;
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
        break;
    case 6: /* Passing invalid poolProps location type */
        alloc_param.poolProps.location.type = (cudaMemLocationType)0;
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;
        break;
    case 7: /* Passing invalid poolProps location id */
        alloc_param.poolProps.location.id = num_dev;
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        alloc_param.poolProps.location.id = 0;
        break;
    case 8: /* Passing max size_t bytesize (HT_NVIDIA) */
        alloc_param.bytesize = SIZE_MAX;
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaErrorMemoryAllocation);
        alloc_param.bytesize = N;
        break;
    case 9: /* Passing invalid accessDescCount (HT_NVIDIA) */
        alloc_param.accessDescCount = num_dev + 1;
        EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaErrorInvalidValue);
        alloc_param.accessDescCount = 0;
        break;
    }

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

static void AddMemAllocNode_Negative_NotSupported(int section) {
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    cudaGraphNode_t alloc_node;

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = N;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);

    if (section == 0) { /* More than one instantation of the graph exists */
        cudaGraphExec_t graph_exec1, graph_exec2;
        EXPECT(cudaGraphInstantiate(&graph_exec1, graph, nullptr, nullptr, 0), cudaSuccess);
        EXPECT(cudaGraphInstantiate(&graph_exec2, graph, nullptr, nullptr, 0), cudaErrorNotSupported);
        EXPECT(cudaGraphExecDestroy(graph_exec1), cudaSuccess);
    }
    if (section == 1) { /* Clone graph with mem alloc node (HT_NVIDIA) */
        cudaGraph_t cloned_graph;
        EXPECT(cudaGraphClone(&cloned_graph, graph), cudaErrorNotSupported);
    }
    if (section == 2) { /* Use graph in a child node (HT_NVIDIA) */
        cudaGraph_t parent_graph;
        EXPECT(cudaGraphCreate(&parent_graph, 0), cudaSuccess);
        cudaGraphNode_t child_graph_node;
        EXPECT(cudaGraphAddChildGraphNode(&child_graph_node, parent_graph, nullptr, 0, graph),
               cudaErrorNotSupported);
        EXPECT(cudaGraphDestroy(parent_graph), cudaSuccess);
    }
    if (section == 3) { /* Delete edge of the graph (HT_NVIDIA) */
        cudaGraphNode_t empty_node;
        EXPECT(cudaGraphAddEmptyNode(&empty_node, graph, &alloc_node, 1), cudaSuccess);
        EXPECT(cudaGraphRemoveDependencies(graph, &alloc_node, &empty_node, 1), cudaErrorNotSupported);
    }

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

/* Create graph with memory nodes that copies memset data to host array */
static void createGraph(cudaGraphExec_t *graph_exec, int *A_h, int fill_value, int **device_alloc = nullptr) {
    constexpr size_t num_bytes = element_count * sizeof(int);

    cudaGraph_t graph;
    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    cudaGraphNode_t alloc_node;
    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = num_bytes;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);
    CHECK(alloc_param.dptr != nullptr);
    int *A_d = reinterpret_cast<int *>(alloc_param.dptr);

    cudaGraphNode_t memset_node;
    cudaMemsetParams memset_params{};
    memset(&memset_params, 0, sizeof(memset_params));
    memset_params.dst = reinterpret_cast<void *>(A_d);
    memset_params.value = fill_value;
    memset_params.pitch = 0;
    memset_params.elementSize = sizeof(int);
    memset_params.width = element_count;
    memset_params.height = 1;
    EXPECT(cudaGraphAddMemsetNode(&memset_node, graph, &alloc_node, 1, &memset_params), cudaSuccess);

    cudaGraphNode_t memcpy_node;
    EXPECT(cudaGraphAddMemcpyNode1D(&memcpy_node, graph, &memset_node, 1, A_h, A_d, num_bytes,
                                    cudaMemcpyDeviceToHost),
           cudaSuccess);

    if (device_alloc == nullptr) {
        cudaGraphNode_t free_node;
        EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, &memcpy_node, 1, (void *)A_d), cudaSuccess);
    } else {
        *device_alloc = A_d;
    }

    EXPECT(cudaGraphInstantiate(graph_exec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

static void createFreeGraph(cudaGraphExec_t *graph_exec, int *device_alloc) {
    cudaGraph_t graph;
    cudaGraphNode_t free_node;
    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, nullptr, 0, (void *)device_alloc), cudaSuccess);
    EXPECT(cudaGraphInstantiate(graph_exec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

static void AddMemAllocNode_Positive_FreeInGraph() {
    cudaGraphExec_t graph_exec;
    int *host_alloc = (int *)malloc(element_count * sizeof(int));
    cudaStream_t stream;
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    constexpr int fill_value = 11;
    createGraph(&graph_exec, host_alloc, fill_value);
    EXPECT(cudaGraphLaunch(graph_exec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    ArrayFindIfNot(host_alloc, fill_value, element_count);

    EXPECT(cudaGraphExecDestroy(graph_exec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    free(host_alloc);
}

/* The three tests that free the allocation outside the graph: 0 with cudaFree after a synchronize, 1 with
 * cudaFreeAsync, 2 with a graph of a free node. */
static void AddMemAllocNode_Positive_FreeOutside(int how) {
    cudaGraphExec_t graph_exec, graph_exec2;
    int *host_alloc = (int *)malloc(element_count * sizeof(int));
    unsigned int *mismatch_count_h = (unsigned int *)malloc(sizeof(unsigned int));
    unsigned int *mismatch_count_d;
    EXPECT(cudaMalloc(&mismatch_count_d, sizeof(unsigned int)), cudaSuccess);
    EXPECT(cudaMemset(mismatch_count_d, 0, sizeof(unsigned int)), cudaSuccess);
    int *dev_p;

    cudaStream_t stream;
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    constexpr auto thread_count = 1024;
    const auto block_count = element_count / thread_count + 1;
    const int fill_value = how == 0 ? 12 : 13;

    createGraph(&graph_exec, host_alloc, fill_value, &dev_p);
    if (how == 2) {
        createFreeGraph(&graph_exec2, dev_p);
    }
    EXPECT(cudaGraphLaunch(graph_exec, stream), cudaSuccess);
    validateGPU<<<block_count, thread_count, 0, stream>>>(dev_p, fill_value, element_count, mismatch_count_d);
    if (how == 0) {
        // Since cudaFree is synchronous, the stream must synchronize before freeing dev_p
        EXPECT(cudaStreamSynchronize(stream), cudaSuccess);
        EXPECT(cudaFree(dev_p), cudaSuccess);
    } else if (how == 1) {
        EXPECT(cudaFreeAsync(dev_p, stream), cudaSuccess);
        EXPECT(cudaStreamSynchronize(stream), cudaSuccess);
    } else {
        EXPECT(cudaGraphLaunch(graph_exec2, stream), cudaSuccess);
        EXPECT(cudaStreamSynchronize(stream), cudaSuccess);
    }

    EXPECT(cudaMemcpy(mismatch_count_h, mismatch_count_d, sizeof(unsigned int), cudaMemcpyDeviceToHost),
           cudaSuccess);
    CHECK(mismatch_count_h[0] == 0);
    ArrayFindIfNot(host_alloc, fill_value, element_count);

    EXPECT(cudaGraphExecDestroy(graph_exec), cudaSuccess);
    if (how == 2) {
        EXPECT(cudaGraphExecDestroy(graph_exec2), cudaSuccess);
    }
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT(cudaFree(mismatch_count_d), cudaSuccess);
    free(mismatch_count_h);
    free(host_alloc);
}

/* ---------------------------------------------------------------- hipGraphAddMemFreeNode.cc */

static void AddMemFreeNode_Negative_Params(int section) {
    constexpr size_t N = 1024;
    cudaGraph_t graph;
    cudaGraphNode_t alloc_node, free_node;
    std::vector<cudaGraphNode_t> dependencies;

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = N;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);
    CHECK(alloc_param.dptr != nullptr);
    int *A_d = reinterpret_cast<int *>(alloc_param.dptr);

    switch (section) {
    case 0: /* Passing nullptr to graph node */
        EXPECT(cudaGraphAddMemFreeNode(nullptr, graph, &alloc_node, 1, (void *)A_d), cudaErrorInvalidValue);
        break;
    case 1: /* Passing nullptr to graph */
        EXPECT(cudaGraphAddMemFreeNode(&free_node, nullptr, &alloc_node, 1, (void *)A_d), cudaErrorInvalidValue);
        break;
    case 2: /* Pass invalid numDependencies */
        EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, nullptr, 5, (void *)A_d), cudaErrorInvalidValue);
        break;
    case 3: /* Pass invalid numDependencies and valid list for dependencies */
        dependencies.push_back(alloc_node);
        EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, dependencies.data(), dependencies.size() + 1,
                                       (void *)A_d),
               cudaErrorInvalidValue);
        break;
    case 4: /* Passing nullptr to dev_ptr */
        EXPECT(cudaGraphAddMemFreeNode(&alloc_node, graph, &alloc_node, 1, nullptr), cudaErrorInvalidValue);
        break;
    case 5: { /* Passing invalid address to dev_ptr */
        int value;
        EXPECT(cudaGraphAddMemFreeNode(&alloc_node, graph, &alloc_node, 1, &value), cudaErrorInvalidValue);
        break;
    }
    case 6: { /* Passing address not allocated with alloc node to dev_ptr (HT_NVIDIA) */
        int *dev_alloc;
        EXPECT(cudaMalloc(&dev_alloc, N * sizeof(int)), cudaSuccess);
        EXPECT(cudaGraphAddMemFreeNode(&alloc_node, graph, &alloc_node, 1, dev_alloc), cudaErrorInvalidValue);
        EXPECT(cudaFree(dev_alloc), cudaSuccess);
        break;
    }
    case 7: /* Free allocation twice in the same graph (HT_NVIDIA) */
        EXPECT(cudaGraphAddMemFreeNode(&alloc_node, graph, &alloc_node, 1, (void *)A_d), cudaSuccess);
        EXPECT(cudaGraphAddMemFreeNode(&alloc_node, graph, &alloc_node, 1, (void *)A_d), cudaErrorInvalidValue);
        break;
    }

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

static void AddMemFreeNode_Negative_NotSupported(int section) {
    constexpr size_t N = 1024;
    cudaGraph_t graph1, graph2;
    cudaGraphNode_t alloc_node, free_node;

    EXPECT(cudaGraphCreate(&graph1, 0), cudaSuccess);
    EXPECT(cudaGraphCreate(&graph2, 0), cudaSuccess);

    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = N;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph1, nullptr, 0, &alloc_param), cudaSuccess);
    CHECK(alloc_param.dptr != nullptr);
    int *A_d = reinterpret_cast<int *>(alloc_param.dptr);

    EXPECT(cudaGraphAddMemFreeNode(&free_node, graph2, nullptr, 0, (void *)A_d), cudaSuccess);

    if (section == 0) { /* More than one instantation of the graph exists */
        cudaGraphExec_t graph_exec1, graph_exec2;
        EXPECT(cudaGraphInstantiate(&graph_exec1, graph2, nullptr, nullptr, 0), cudaSuccess);
        EXPECT(cudaGraphInstantiate(&graph_exec2, graph2, nullptr, nullptr, 0), cudaErrorNotSupported);
        EXPECT(cudaGraphExecDestroy(graph_exec1), cudaSuccess);
    }
    if (section == 1) { /* Clone graph with mem free node (HT_NVIDIA) */
        cudaGraph_t cloned_graph;
        EXPECT(cudaGraphClone(&cloned_graph, graph2), cudaErrorNotSupported);
    }
    if (section == 2) { /* Use graph in a child node (HT_NVIDIA) */
        cudaGraph_t parent_graph;
        EXPECT(cudaGraphCreate(&parent_graph, 0), cudaSuccess);
        cudaGraphNode_t child_graph_node;
        EXPECT(cudaGraphAddChildGraphNode(&child_graph_node, parent_graph, nullptr, 0, graph2),
               cudaErrorNotSupported);
        EXPECT(cudaGraphDestroy(parent_graph), cudaSuccess);
    }
    if (section == 3) { /* Delete edge of the graph (HT_NVIDIA) */
        cudaGraphNode_t empty_node;
        EXPECT(cudaGraphAddEmptyNode(&empty_node, graph2, &free_node, 1), cudaSuccess);
        EXPECT(cudaGraphRemoveDependencies(graph2, &free_node, &empty_node, 1), cudaErrorNotSupported);
    }

    EXPECT(cudaGraphDestroy(graph1), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph2), cudaSuccess);
}

/* ---------------------------------------------------------------- hipDeviceGetGraphMemAttribute.cc */

static constexpr size_t attr_element_count = 64 * 1024 * 1024;

static void createAttrGraph(cudaGraphExec_t *graph_exec, int **device_alloc = nullptr) {
    constexpr size_t num_bytes = attr_element_count * sizeof(int);

    cudaGraph_t graph;
    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    cudaGraphNode_t alloc_node;
    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = num_bytes;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);
    CHECK(alloc_param.dptr != nullptr);
    int *A_d = reinterpret_cast<int *>(alloc_param.dptr);

    if (device_alloc == nullptr) {
        cudaGraphNode_t free_node;
        EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, &alloc_node, 1, (void *)A_d), cudaSuccess);
    } else {
        *device_alloc = A_d;
    }

    EXPECT(cudaGraphInstantiate(graph_exec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
}

static void checkGraphMemAttribute(size_t used_mem, size_t high_mem) {
    size_t read_mem;
    cudaGraphMemAttributeType attr = cudaGraphMemAttrUsedMemCurrent;
    EXPECT(cudaDeviceGetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&read_mem)), cudaSuccess);
    CHECK(read_mem == used_mem);

    attr = cudaGraphMemAttrReservedMemCurrent;
    EXPECT(cudaDeviceGetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&read_mem)), cudaSuccess);
    CHECK(read_mem == used_mem);

    attr = cudaGraphMemAttrUsedMemHigh;
    EXPECT(cudaDeviceGetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&read_mem)), cudaSuccess);
    CHECK(read_mem == high_mem);

    attr = cudaGraphMemAttrReservedMemHigh;
    EXPECT(cudaDeviceGetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&read_mem)), cudaSuccess);
    CHECK(read_mem == high_mem);
}

static void ResetGraphMemAttribute(unsigned deviceId = 0) {
    size_t mem_size = 0;
    cudaGraphMemAttributeType attr = cudaGraphMemAttrUsedMemHigh;
    EXPECT(cudaDeviceSetGraphMemAttribute(deviceId, attr, &mem_size), cudaSuccess);
    attr = cudaGraphMemAttrReservedMemHigh;
    EXPECT(cudaDeviceSetGraphMemAttribute(deviceId, attr, &mem_size), cudaSuccess);
}

static void GetGraphMemAttribute_Positive_DoubleMemory() {
    cudaGraphExec_t graph_exec1, graph_exec2;
    int *dev_p1, *dev_p2;

    cudaStream_t stream;
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    createAttrGraph(&graph_exec1, &dev_p1);
    EXPECT(cudaGraphLaunch(graph_exec1, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    checkGraphMemAttribute(attr_element_count * sizeof(int), attr_element_count * sizeof(int));

    createAttrGraph(&graph_exec2, &dev_p2);
    EXPECT(cudaGraphLaunch(graph_exec2, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    checkGraphMemAttribute(2 * attr_element_count * sizeof(int), 2 * attr_element_count * sizeof(int));

    EXPECT(cudaFree(dev_p1), cudaSuccess);
    EXPECT(cudaFree(dev_p2), cudaSuccess);

    EXPECT(cudaGraphExecDestroy(graph_exec1), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graph_exec2), cudaSuccess);
    EXPECT(cudaDeviceGraphMemTrim(0), cudaSuccess);
    checkGraphMemAttribute(0, 2 * attr_element_count * sizeof(int));
    ResetGraphMemAttribute();
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
}

static void GetGraphMemAttribute_Negative_Parameters(int section) {
    int device_id = 0;
    EXPECT(cudaSetDevice(device_id), cudaSuccess);

    int num_dev = 0;
    EXPECT(cudaGetDeviceCount(&num_dev), cudaSuccess);

    cudaGraphMemAttributeType attr = cudaGraphMemAttrUsedMemHigh;
    size_t get_value = 0;

    if (section == 0) { /* Device is not valid */
        EXPECT(cudaDeviceGetGraphMemAttribute(num_dev, attr, reinterpret_cast<void *>(&get_value)),
               cudaErrorInvalidDevice);
    }
    if (section == 1) { /* Attribute value is not valid */
        EXPECT(cudaDeviceGetGraphMemAttribute(0, static_cast<cudaGraphMemAttributeType>(0x7),
                                              reinterpret_cast<void *>(&get_value)),
               cudaErrorInvalidValue);
    }
    if (section == 2) { /* Get value is nullptr */
        EXPECT(cudaDeviceGetGraphMemAttribute(0, attr, nullptr), cudaErrorInvalidValue);
    }
    ResetGraphMemAttribute();
}

static void GetGraphMemAttribute_Negative(int section) {
    size_t value = 0;
    cudaError_t ret;
    if (section == 0) { /* Pass device id as negative value */
        ret = cudaDeviceGetGraphMemAttribute(-1, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidDevice);
    }
    if (section == 1) { /* Pass device id which don't exist as INT_MAX */
        ret = cudaDeviceGetGraphMemAttribute(INT_MAX, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidDevice);
    }
    if (section == 2) { /* Pass cudaGraphMemAttributeType other than existing 4 type */
        ret = cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttributeType(99), &value);
        CHECK(ret == cudaErrorInvalidValue);
    }
    if (section == 3) { /* Pass value of footprint pointer as nullptr */
        ret = cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, nullptr);
        CHECK(ret == cudaErrorInvalidValue);
    }
    ResetGraphMemAttribute();
}

static void SetGraphMemAttribute_Negative(int section) {
    size_t value = 0;
    cudaError_t ret;
    if (section == 0) { /* Pass device id as negative value */
        ret = cudaDeviceSetGraphMemAttribute(-3, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidDevice);
    }
    if (section == 1) { /* Pass device id which don't exist as INT_MAX */
        ret = cudaDeviceSetGraphMemAttribute(INT_MAX, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidDevice);
    }
    if (section == 2) { /* Pass cudaGraphMemAttributeType as cudaGraphMemAttrUsedMemCurrent */
        ret = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidValue);
    }
    if (section == 3) { /* Pass GraphMemAttributeType as cudaGraphMemAttrReservedMemCurrent */
        ret = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidValue);
    }
    if (section == 4) { /* Pass value of footprint pointer as nullptr. */
        ret = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, nullptr);
        CHECK(ret == cudaErrorInvalidValue);
    }
    if (section == 5) { /* Pass value of footprint pointer as negative value address. */
        value = -1;
        ret = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &value);
        CHECK(ret == cudaErrorInvalidValue);
    }
    if (section == 6) { /* Pass value of footprint pointer as -1. */
        ret = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, reinterpret_cast<void *>(-1));
        CHECK(ret == cudaErrorInvalidValue);
    }
    ResetGraphMemAttribute();
}

/* ---------------------------------------------------------------- hipDeviceGraphMemTrim.cc */

static void GraphMemTrim_Positive_Default() {
    for (int device = 0; device < device_count(); device++) {
        EXPECT(cudaDeviceGraphMemTrim(device), cudaSuccess);
    }
}

static void GraphMemTrim_Negative_Parameters() {
    int device_id = 0;
    EXPECT(cudaSetDevice(device_id), cudaSuccess);
    int num_dev = 0;
    EXPECT(cudaGetDeviceCount(&num_dev), cudaSuccess);
    /* Device is not valid */
    EXPECT(cudaDeviceGraphMemTrim(num_dev), cudaErrorInvalidDevice);
}

/* ---------------------------------------------------------------- hipDeviceSetGraphMemAttribute.cc */

static void GraphSetGetAttribute(int device, cudaGraphMemAttributeType attr, size_t set_value) {
    size_t get_value = 100;
    EXPECT(cudaDeviceSetGraphMemAttribute(device, attr, &set_value), cudaSuccess);
    EXPECT(cudaDeviceGetGraphMemAttribute(device, attr, &get_value), cudaSuccess);
    CHECK(get_value == set_value);
}

static void SetGraphMemAttribute_Positive_Default() {
    const cudaGraphMemAttributeType attrs[] = {cudaGraphMemAttrUsedMemHigh, cudaGraphMemAttrReservedMemHigh};
    for (int device = 0; device < device_count(); device++) {
        for (auto attr_type : attrs) {
            size_t set_value = 0;
            GraphSetGetAttribute(device, attr_type, set_value);
        }
    }
}

static void SetGraphMemAttribute_Negative_Parameters(int section) {
    int device_id = 0;
    EXPECT(cudaSetDevice(device_id), cudaSuccess);
    int num_dev = 0;
    EXPECT(cudaGetDeviceCount(&num_dev), cudaSuccess);
    cudaGraphMemAttributeType attr = cudaGraphMemAttrUsedMemHigh;
    size_t set_value = 0;

    if (section == 0) { /* device is not valid */
        EXPECT(cudaDeviceSetGraphMemAttribute(num_dev, attr, reinterpret_cast<void *>(&set_value)),
               cudaErrorInvalidDevice);
    }
    if (section == 1) { /* Attribute value is not supported */
        EXPECT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, reinterpret_cast<void *>(&set_value)),
               cudaErrorInvalidValue);
    }
    if (section == 2) { /* Attribute value is not valid */
        EXPECT(cudaDeviceSetGraphMemAttribute(0, static_cast<cudaGraphMemAttributeType>(0x7),
                                              reinterpret_cast<void *>(&set_value)),
               cudaErrorInvalidValue);
    }
    if (section == 3) { /* Set cudaGraphMemAttrUsedMemHigh to non-zero */
        size_t invalid_value = 1;
        EXPECT(cudaDeviceSetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&invalid_value)),
               cudaErrorInvalidValue);
    }
    if (section == 4) { /* Set cudaGraphMemAttrReservedMemHigh to non-zero */
        attr = cudaGraphMemAttrReservedMemHigh;
        size_t invalid_value = 1;
        EXPECT(cudaDeviceSetGraphMemAttribute(0, attr, reinterpret_cast<void *>(&invalid_value)),
               cudaErrorInvalidValue);
    }
}

/* ---------------------------------------------------------------- hipGraphMemAllocNodeGetParams.cc */

static bool validateAllocParam(cudaMemAllocNodeParams in, cudaMemAllocNodeParams out) {
    if (in.bytesize != out.bytesize) return false;
    if (in.poolProps.allocType != out.poolProps.allocType) return false;
    if (in.poolProps.location.id != out.poolProps.location.id) return false;
    if (in.poolProps.location.type != out.poolProps.location.type) return false;
    return true;
}

static void MemAllocNodeGetParams_Functional(unsigned deviceId = 0) {
    constexpr size_t N = 1024 * 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaStream_t stream;
    cudaGraphNode_t allocNodeA, freeNodeA;
    cudaMemAllocNodeParams params_in, params_out;

    EXPECT(cudaSetDevice(deviceId), cudaSuccess);
    EXPECT(cudaDeviceGraphMemTrim(deviceId), cudaSuccess);

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    memset(&params_in, 0, sizeof(cudaMemAllocNodeParams));
    params_in.bytesize = Nbytes;
    params_in.poolProps.allocType = cudaMemAllocationTypePinned;
    params_in.poolProps.location.id = deviceId;
    params_in.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&allocNodeA, graph, NULL, 0, &params_in), cudaSuccess);
    int *A_d = reinterpret_cast<int *>(params_in.dptr);
    CHECK(A_d != nullptr);

    EXPECT(cudaGraphAddMemFreeNode(&freeNodeA, graph, &allocNodeA, 1, A_d), cudaSuccess);

    EXPECT(cudaGraphMemAllocNodeGetParams(allocNodeA, &params_out), cudaSuccess);
    CHECK(true == validateAllocParam(params_in, params_out));

    EXPECT(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graphExec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT(cudaDeviceGraphMemTrim(deviceId), cudaSuccess);
}

static void MemAllocNodeGetParams_Functional_2() {
    constexpr size_t N = 1024 * 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    constexpr auto blocksPerCU = 6;  // to hide latency
    constexpr auto threadsPerBlock = 256;
    /* HipTest::setNumBlocks(blocksPerCU, threadsPerBlock, N) */
    int cus = 0;
    EXPECT(cudaDeviceGetAttribute(&cus, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    unsigned blocks = (N + threadsPerBlock - 1) / threadsPerBlock;
    if (blocks > (unsigned)(blocksPerCU * cus)) {
        blocks = blocksPerCU * cus;
    }
    size_t NElem{N};

    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaStream_t stream;
    cudaGraphNode_t memcpyH2D_A, memcpyH2D_B, memcpyD2H_C;
    cudaGraphNode_t kernel_vecAdd;
    cudaKernelNodeParams kernelNodeParams{};
    cudaGraphNode_t allocNodeA, freeNodeA, allocNodeB, freeNodeB;
    cudaGraphNode_t allocNodeC, freeNodeC;
    cudaMemAllocNodeParams params_in, params_out;

    int *A_d, *B_d, *C_d;
    /* HipTest::initArrays<int>(nullptr, nullptr, nullptr, &A_h, &B_h, &C_h, N, false) */
    int *A_h = (int *)malloc(Nbytes), *B_h = (int *)malloc(Nbytes), *C_h = (int *)malloc(Nbytes);
    for (size_t i = 0; i < N; i++) {
        A_h[i] = 3.146f + i;
        B_h[i] = 1.618f + i;
        C_h[i] = 0;
    }

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    memset(&params_in, 0, sizeof(params_in));
    params_in.bytesize = Nbytes;
    params_in.poolProps.allocType = cudaMemAllocationTypePinned;
    params_in.poolProps.location.id = 0;
    params_in.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&allocNodeA, graph, NULL, 0, &params_in), cudaSuccess);
    CHECK(params_in.dptr != nullptr);
    A_d = reinterpret_cast<int *>(params_in.dptr);
    EXPECT(cudaGraphAddMemAllocNode(&allocNodeB, graph, &allocNodeA, 1, &params_in), cudaSuccess);
    CHECK(params_in.dptr != nullptr);
    B_d = reinterpret_cast<int *>(params_in.dptr);
    EXPECT(cudaGraphAddMemAllocNode(&allocNodeC, graph, &allocNodeB, 1, &params_in), cudaSuccess);
    CHECK(params_in.dptr != nullptr);
    C_d = reinterpret_cast<int *>(params_in.dptr);

    // Check shows that A_d, B_d & C_d DON'T share any virtual address each other
    CHECK(A_d != B_d);
    CHECK(B_d != C_d);
    CHECK(A_d != C_d);

    EXPECT(cudaGraphAddMemcpyNode1D(&memcpyH2D_A, graph, &allocNodeC, 1, A_d, A_h, Nbytes, cudaMemcpyHostToDevice),
           cudaSuccess);
    EXPECT(cudaGraphAddMemcpyNode1D(&memcpyH2D_B, graph, &allocNodeC, 1, B_d, B_h, Nbytes, cudaMemcpyHostToDevice),
           cudaSuccess);

    void *kernelArgs[] = {&A_d, &B_d, &C_d, reinterpret_cast<void *>(&NElem)};
    kernelNodeParams.func = reinterpret_cast<void *>(vectorADD<int>);
    kernelNodeParams.gridDim = dim3(blocks);
    kernelNodeParams.blockDim = dim3(threadsPerBlock);
    kernelNodeParams.sharedMemBytes = 0;
    kernelNodeParams.kernelParams = reinterpret_cast<void **>(kernelArgs);
    kernelNodeParams.extra = nullptr;
    EXPECT(cudaGraphAddKernelNode(&kernel_vecAdd, graph, nullptr, 0, &kernelNodeParams), cudaSuccess);

    // Create dependencies
    EXPECT(cudaGraphAddDependencies(graph, &memcpyH2D_A, &kernel_vecAdd, 1), cudaSuccess);
    EXPECT(cudaGraphAddDependencies(graph, &memcpyH2D_B, &kernel_vecAdd, 1), cudaSuccess);

    EXPECT(cudaGraphAddMemcpyNode1D(&memcpyD2H_C, graph, &kernel_vecAdd, 1, C_h, C_d, Nbytes, cudaMemcpyDeviceToHost),
           cudaSuccess);

    EXPECT(cudaGraphAddMemFreeNode(&freeNodeA, graph, &memcpyD2H_C, 1, reinterpret_cast<void *>(A_d)), cudaSuccess);
    EXPECT(cudaGraphAddMemFreeNode(&freeNodeB, graph, &memcpyD2H_C, 1, reinterpret_cast<void *>(B_d)), cudaSuccess);
    EXPECT(cudaGraphAddMemFreeNode(&freeNodeC, graph, &memcpyD2H_C, 1, reinterpret_cast<void *>(C_d)), cudaSuccess);

    EXPECT(cudaGraphMemAllocNodeGetParams(allocNodeA, &params_out), cudaSuccess);
    CHECK(true == validateAllocParam(params_in, params_out));
    EXPECT(cudaGraphMemAllocNodeGetParams(allocNodeB, &params_out), cudaSuccess);
    CHECK(true == validateAllocParam(params_in, params_out));
    EXPECT(cudaGraphMemAllocNodeGetParams(allocNodeC, &params_out), cudaSuccess);
    CHECK(true == validateAllocParam(params_in, params_out));

    int temp[] = {0};
    EXPECT(cudaGraphMemFreeNodeGetParams(freeNodeA, reinterpret_cast<void *>(temp)), cudaSuccess);
    EXPECT(cudaGraphMemFreeNodeGetParams(freeNodeB, reinterpret_cast<void *>(temp)), cudaSuccess);
    EXPECT(cudaGraphMemFreeNodeGetParams(freeNodeC, reinterpret_cast<void *>(temp)), cudaSuccess);

    EXPECT(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    /* HipTest::checkVectorADD(A_h, B_h, C_h, N) */
    for (size_t i = 0; i < N; i++) {
        CHECK(C_h[i] == A_h[i] + B_h[i]);
    }

    free(A_h);
    free(B_h);
    free(C_h);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graphExec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT(cudaDeviceGraphMemTrim(0), cudaSuccess);
}

static void MemAllocNodeGetParams_Functional_3() {
    constexpr size_t num_bytes = element_count * sizeof(int);

    cudaGraphExec_t graph_exec;
    cudaGraph_t graph;

    int *A_h = (int *)malloc(element_count * sizeof(int));

    cudaStream_t stream;
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);
    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);

    cudaMemAccessDesc desc;
    memset(&desc, 0, sizeof(cudaMemAccessDesc));
    desc.location.type = cudaMemLocationTypeDevice;
    desc.location.id = 0;
    desc.flags = cudaMemAccessFlagsProtReadWrite;

    cudaGraphNode_t alloc_node;
    cudaMemAllocNodeParams alloc_param;
    memset(&alloc_param, 0, sizeof(alloc_param));
    alloc_param.bytesize = num_bytes;
    alloc_param.poolProps.allocType = cudaMemAllocationTypePinned;
    alloc_param.poolProps.location.id = 0;
    alloc_param.poolProps.location.type = cudaMemLocationTypeDevice;
    alloc_param.accessDescs = &desc;
    alloc_param.accessDescCount = 1;

    EXPECT(cudaGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc_param), cudaSuccess);
    CHECK(alloc_param.dptr != nullptr);
    int *A_d = reinterpret_cast<int *>(alloc_param.dptr);

    cudaMemAllocNodeParams get_alloc_params;
    EXPECT(cudaGraphMemAllocNodeGetParams(alloc_node, &get_alloc_params), cudaSuccess);
    /* The original: memcmp(&alloc_param, &get_alloc_params, sizeof(cudaMemAllocNodeParams)) == 0 (see the header). */
    cudaMemAllocNodeParams a = alloc_param, b = get_alloc_params;
    a.accessDescs = nullptr;
    b.accessDescs = nullptr;
    CHECK(memcmp(&a, &b, sizeof(cudaMemAllocNodeParams)) == 0);
    CHECK(get_alloc_params.accessDescs != nullptr);
    CHECK(memcmp(get_alloc_params.accessDescs, &desc, sizeof(cudaMemAccessDesc)) == 0);

    constexpr int fill_value = 11;
    cudaGraphNode_t memset_node;
    cudaMemsetParams memset_params{};
    memset(&memset_params, 0, sizeof(memset_params));
    memset_params.dst = reinterpret_cast<void *>(A_d);
    memset_params.value = fill_value;
    memset_params.pitch = 0;
    memset_params.elementSize = sizeof(int);
    memset_params.width = element_count;
    memset_params.height = 1;
    EXPECT(cudaGraphAddMemsetNode(&memset_node, graph, &alloc_node, 1, &memset_params), cudaSuccess);

    cudaGraphNode_t memcpy_node;
    EXPECT(cudaGraphAddMemcpyNode1D(&memcpy_node, graph, &memset_node, 1, A_h, A_d, num_bytes, cudaMemcpyDeviceToHost),
           cudaSuccess);

    cudaGraphNode_t free_node;
    EXPECT(cudaGraphAddMemFreeNode(&free_node, graph, &memcpy_node, 1, (void *)A_d), cudaSuccess);

    void *dptr_out;
    EXPECT(cudaGraphMemFreeNodeGetParams(free_node, &dptr_out), cudaSuccess);
    CHECK(A_d == static_cast<int *>(dptr_out));

    EXPECT(cudaGraphInstantiate(&graph_exec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(graph_exec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    ArrayFindIfNot(A_h, fill_value, element_count);

    EXPECT(cudaGraphExecDestroy(graph_exec), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    free(A_h);
}

static void MemAllocNodeGetParams_Negative(int section) {
    cudaError_t ret;
    constexpr size_t N = 1024 * 1024;
    constexpr size_t Nbytes = N * sizeof(int);
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaStream_t stream;
    cudaGraphNode_t allocNodeA, freeNodeA;
    cudaMemAllocNodeParams params_in, params_out;

    EXPECT(cudaDeviceGraphMemTrim(0), cudaSuccess);
    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    memset(&params_in, 0, sizeof(cudaMemAllocNodeParams));
    params_in.bytesize = Nbytes;
    params_in.poolProps.allocType = cudaMemAllocationTypePinned;
    params_in.poolProps.location.id = 0;
    params_in.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&allocNodeA, graph, NULL, 0, &params_in), cudaSuccess);
    int *A_d = reinterpret_cast<int *>(params_in.dptr);
    CHECK(A_d != nullptr);

    EXPECT(cudaGraphAddMemFreeNode(&freeNodeA, graph, &allocNodeA, 1, A_d), cudaSuccess);

    if (section == 0) { /* Pass MemAllocNode as nullptr */
        ret = cudaGraphMemAllocNodeGetParams(nullptr, &params_out);
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 1) { /* Pass MemAllocNode as empty node */
        cudaGraphNode_t allocNode_empty{};
        ret = cudaGraphMemAllocNodeGetParams(allocNode_empty, &params_out);
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 2) { /* Pass params_out as nullptr */
        ret = cudaGraphMemAllocNodeGetParams(allocNodeA, nullptr);
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 3) { /* Pass MemFreeNode inplace of MemAllocNode in 1st arguments */
        ret = cudaGraphMemAllocNodeGetParams(freeNodeA, &params_out);
        CHECK(cudaErrorInvalidValue == ret);
    }
    int temp[] = {0};
    if (section == 4) { /* Pass MemFreeNode as nullptr */
        ret = cudaGraphMemFreeNodeGetParams(nullptr, reinterpret_cast<void *>(temp));
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 5) { /* Pass MemFreeNode as empty node */
        cudaGraphNode_t freeNode_empty{};
        ret = cudaGraphMemFreeNodeGetParams(freeNode_empty, reinterpret_cast<void *>(temp));
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 6) { /* Pass free pointer as nullptr */
        ret = cudaGraphMemFreeNodeGetParams(freeNodeA, nullptr);
        CHECK(cudaErrorInvalidValue == ret);
    }
    if (section == 7) { /* Pass MemAllocNode inplace of MemFreeNode in 1st arguments */
        ret = cudaGraphMemFreeNodeGetParams(allocNodeA, reinterpret_cast<void *>(temp));
        CHECK(cudaErrorInvalidValue == ret);
    }

    EXPECT(cudaGraphInstantiate(&graphExec, graph, nullptr, nullptr, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graphExec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT(cudaDeviceGraphMemTrim(0), cudaSuccess);
}

/* ---------------------------------------------------------------- hipGraphMemFreeNodeGetParams.cc */

static void MemFreeNodeGetParams_ValidArgs() {
    cudaGraphNode_t allocNode, freeNode;
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaMemAllocNodeParams allocParam;
    cudaStream_t stream;
    void *out_dev_ptr;

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    memset(&allocParam, 0, sizeof(allocParam));
    allocParam.bytesize = 256;
    allocParam.poolProps.allocType = cudaMemAllocationTypePinned;
    allocParam.poolProps.location.id = 0;
    allocParam.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &allocParam), cudaSuccess);
    EXPECT(cudaGraphAddMemFreeNode(&freeNode, graph, &allocNode, 1, allocParam.dptr), cudaSuccess);
    EXPECT(cudaGraphMemFreeNodeGetParams(freeNode, &out_dev_ptr), cudaSuccess);
    EXPECT(cudaGraphInstantiateWithFlags(&graphExec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch), cudaSuccess);
    EXPECT(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graphExec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);

    CHECK(out_dev_ptr == allocParam.dptr);
}

static void MemFreeNodeGetParams_InvalidArgs(int section) {
    cudaGraphNode_t allocNode, freeNode;
    cudaMemAllocNodeParams allocParam;
    cudaGraph_t graph;
    cudaGraphExec_t graphExec;
    cudaStream_t stream;

    EXPECT(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT(cudaStreamCreate(&stream), cudaSuccess);

    memset(&allocParam, 0, sizeof(allocParam));
    allocParam.bytesize = 256;
    allocParam.poolProps.allocType = cudaMemAllocationTypePinned;
    allocParam.poolProps.location.id = 0;
    allocParam.poolProps.location.type = cudaMemLocationTypeDevice;

    EXPECT(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &allocParam), cudaSuccess);
    EXPECT(cudaGraphAddMemFreeNode(&freeNode, graph, &allocNode, 1, allocParam.dptr), cudaSuccess);

    if (section == 0) { /* Null graph node */
        void *out_dev_ptr;
        EXPECT(cudaGraphMemFreeNodeGetParams(nullptr, &out_dev_ptr), cudaErrorInvalidValue);
    }
    if (section == 1) { /* Null out pointer */
        EXPECT(cudaGraphMemFreeNodeGetParams(freeNode, nullptr), cudaErrorInvalidValue);
    }
    if (section == 2) { /* Mismatched node type */
        void *out_dev_ptr;
        EXPECT(cudaGraphMemFreeNodeGetParams(allocNode, &out_dev_ptr), cudaErrorInvalidValue);
    }

    EXPECT(cudaGraphInstantiateWithFlags(&graphExec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch), cudaSuccess);
    EXPECT(cudaGraphLaunch(graphExec, stream), cudaSuccess);
    EXPECT(cudaStreamSynchronize(stream), cudaSuccess);

    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(graphExec), cudaSuccess);
    EXPECT(cudaStreamDestroy(stream), cudaSuccess);
}

int main(void) {
    /* First: it reads the device's graph memory totals, which start at 0 in a fresh process (upstream runs every
     * test case as a process of its own, through ctest). */
    GetGraphMemAttribute_Positive_DoubleMemory();
    for (int s = 0; s < 10; s++) AddMemAllocNode_Negative_Params(s);
    for (int s = 0; s < 4; s++) AddMemAllocNode_Negative_NotSupported(s);
    AddMemAllocNode_Positive_FreeInGraph();
    for (int how = 0; how < 3; how++) AddMemAllocNode_Positive_FreeOutside(how);
    for (int s = 0; s < 8; s++) AddMemFreeNode_Negative_Params(s);
    for (int s = 0; s < 4; s++) AddMemFreeNode_Negative_NotSupported(s);
    for (int s = 0; s < 3; s++) GetGraphMemAttribute_Negative_Parameters(s);
    for (int s = 0; s < 4; s++) GetGraphMemAttribute_Negative(s);
    for (int s = 0; s < 7; s++) SetGraphMemAttribute_Negative(s);
    GraphMemTrim_Positive_Default();
    GraphMemTrim_Negative_Parameters();
    SetGraphMemAttribute_Positive_Default();
    for (int s = 0; s < 5; s++) SetGraphMemAttribute_Negative_Parameters(s);
    MemAllocNodeGetParams_Functional();
    for (int d = 0; d < device_count(); d++) MemAllocNodeGetParams_Functional(d);
    /* The next test case starts with device 0 current, as the fresh process upstream runs it in. */
    EXPECT(cudaSetDevice(0), cudaSuccess);
    MemAllocNodeGetParams_Functional_2();
    MemAllocNodeGetParams_Functional_3();
    for (int s = 0; s < 8; s++) MemAllocNodeGetParams_Negative(s);
    MemFreeNodeGetParams_ValidArgs();
    for (int s = 0; s < 3; s++) MemFreeNodeGetParams_InvalidArgs(s);
    printf("hip_tests_graph_mem: all passed\n");
    return 0;
}
