/*
 * graph_building.c — graphs built by hand through the C API (docs/semantics/graph-building.md), CUDA names:
 * nodes of each type a plain C program can make (a kernel node is a captured cudasimLaunchKernel added as a
 * child graph node: a C program has no registered kernel to name), edges and their codes, parameters read back,
 * executable-graph parameters, enabling, cudaGraphExecUpdate's result codes, cudaGraphAddNode,
 * cudaGraphInstantiateWithParams, and the virtual time of a launch.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"

/* cudaGraphNodeParams' union holds dim3s, whose C++ constructors make its default constructor deleted (as with
 * CUDA's header): C++ value-initializes it, C clears it. */
#ifdef __cplusplus
#define CLEAR_NODE_PARAMS(p) ((p) = cudaGraphNodeParams{})
#define DECLARE_NODE_PARAMS(p) cudaGraphNodeParams p{}
#else
#define CLEAR_NODE_PARAMS(p) memset(&(p), 0, sizeof(p))
#define DECLARE_NODE_PARAMS(p) \
    struct cudaGraphNodeParams p; \
    memset(&(p), 0, sizeof(p))
#endif

static int host_calls = 0;

static void count_host(void *arg) {
    (void)arg;
    host_calls++;
}

/* A graph of one kernel of `ns` nanoseconds, captured. */
static cudaGraph_t kernel_graph(cudaStream_t s, const char *name, uint64_t ns) {
    cudaGraph_t g = NULL;
    CHECK_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK_EQ(cudasimLaunchKernel(s, name, ns, NULL, NULL), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
    return g;
}

int main(void) {
    cudaStream_t s;
    CHECK_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    unsigned char *d = NULL;
    CHECK_EQ(cudaMalloc((void **)&d, 64), cudaSuccess);
    unsigned char host[64];
    memset(host, 0x5a, sizeof host);

    cudaGraph_t g = NULL;
    CHECK_EQ(cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphCreate(NULL, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphCreate(&g, 0), cudaSuccess);

    /* copy host → device, then a memset of 2 rows of 4 four-byte elements 32 bytes apart, then a host node. */
    cudaGraphNode_t copy = NULL, set = NULL, host_node = NULL, k1 = NULL, k2 = NULL, empty = NULL;
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&copy, g, NULL, 0, d, host, 64, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&copy, g, NULL, 0, d, host, 64, cudaMemcpyDeviceToHost),
             cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphAddMemcpyNode1D(&copy, g, NULL, 0, d, host, 64, (enum cudaMemcpyKind)7),
             cudaErrorInvalidMemcpyDirection);
    struct cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = d;
    mp.pitch = 32;
    mp.value = 0x01020304;
    mp.elementSize = 4;
    mp.width = 4;
    mp.height = 2;
    CHECK_EQ(cudaGraphAddMemsetNode(&set, g, &copy, 1, &mp), cudaSuccess);
    struct cudaMemsetParams bad = mp;
    bad.elementSize = 8;
    CHECK_EQ(cudaGraphAddMemsetNode(&empty, g, NULL, 0, &bad), cudaErrorInvalidValue);
    /* A dependency listed twice. */
    cudaGraphNode_t twice[2] = {copy, copy};
    CHECK_EQ(cudaGraphAddEmptyNode(&empty, g, twice, 2), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphAddEmptyNode(&empty, g, NULL, 1), cudaErrorInvalidValue);
    struct cudaHostNodeParams hp = {count_host, NULL};
    CHECK_EQ(cudaGraphAddHostNode(&host_node, g, &set, 1, &hp), cudaSuccess);

    /* Kernel nodes: captured cudasimLaunchKernel graphs as child graph nodes, 100 µs then 50 µs, after the host
     * node. */
    cudaGraph_t c1 = kernel_graph(s, "k1", 100000), c2 = kernel_graph(s, "k2", 50000);
    CHECK_EQ(cudaGraphAddChildGraphNode(&k1, g, &host_node, 1, c1), cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&k2, g, &k1, 1, c2), cudaSuccess);
    enum cudaGraphNodeType ty;
    CHECK_EQ(cudaGraphNodeGetType(k1, &ty), cudaSuccess);
    CHECK_EQ(ty, cudaGraphNodeTypeGraph);

    /* Edges: existing, a cycle (accepted; the graph is not instantiated until it is removed), a node of another
     * graph. */
    CHECK_EQ(cudaGraphAddDependencies(g, &copy, &set, 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphAddDependencies(g, &k2, &copy, 1), cudaSuccess);
    cudaGraphExec_t cyclic = NULL;
    CHECK_EQ(cudaGraphInstantiate(&cyclic, g, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphRemoveDependencies(g, &k2, &copy, 1), cudaSuccess);
    cudaGraphNode_t other_nodes[1];
    size_t n = 1;
    CHECK_EQ(cudaGraphGetNodes(c1, other_nodes, &n), cudaSuccess);
    CHECK_EQ(cudaGraphAddDependencies(g, &copy, &other_nodes[0], 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphRemoveDependencies(g, &k2, &k1, 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphAddDependencies(g, &copy, &k2, 1), cudaSuccess);
    CHECK_EQ(cudaGraphRemoveDependencies(g, &copy, &k2, 1), cudaSuccess);
    n = 0;
    CHECK_EQ(cudaGraphGetEdges(g, NULL, NULL, &n), cudaSuccess);
    CHECK_EQ(n, 4);

    /* Parameters read back. */
    struct cudaMemsetParams got;
    CHECK_EQ(cudaGraphMemsetNodeGetParams(set, &got), cudaSuccess);
    CHECK(got.dst == (void *)d && got.pitch == 32 && got.value == 0x01020304 && got.elementSize == 4 &&
          got.width == 4 && got.height == 2);
    CHECK_EQ(cudaGraphMemsetNodeGetParams(copy, &got), cudaErrorInvalidValue);
    struct cudaHostNodeParams hgot;
    CHECK_EQ(cudaGraphHostNodeGetParams(host_node, &hgot), cudaSuccess);
    CHECK(hgot.fn == count_host && hgot.userData == NULL);
    struct cudaMemcpy3DParms cgot;
    CHECK_EQ(cudaGraphMemcpyNodeGetParams(copy, &cgot), cudaSuccess);
    CHECK(cgot.srcPtr.ptr == (void *)host && cgot.dstPtr.ptr == (void *)d && cgot.extent.width == 64 &&
          cgot.extent.height == 1 && cgot.extent.depth == 1);
    DECLARE_NODE_PARAMS(gp);
    CHECK_EQ(cudaGraphNodeGetParams(set, &gp), cudaSuccess);
    CHECK_EQ(gp.type, cudaGraphNodeTypeMemset);
    CHECK_EQ(gp.memset.elementSize, 4);

    /* Instantiate (with parameters: upload into s), launch, time it. */
    cudaGraphExec_t x = NULL;
    cudaGraphInstantiateParams ip;
    memset(&ip, 0, sizeof ip);
    ip.flags = cudaGraphInstantiateFlagUpload;
    ip.uploadStream = s;
    ip.result_out = cudaGraphInstantiateError;
    CHECK_EQ(cudaGraphInstantiateWithParams(&x, g, &ip), cudaSuccess);
    CHECK_EQ(ip.result_out, cudaGraphInstantiateSuccess);
    CHECK(ip.errNode_out == NULL);
    cudaEvent_t e0, e1;
    CHECK_EQ(cudaEventCreate(&e0), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e0, s), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e1, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    float ms = 0;
    CHECK_EQ(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess);
    printf("graph_building: launch %.6f ms\n", ms);
    CHECK_EQ(host_calls, 1);
    unsigned char back[64];
    CHECK_EQ(cudaMemcpy(back, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++) {
        int row = i / 32, col = i % 32;
        int want = (col < 16 && row < 2) ? (4 - col % 4) : 0x5a;
        CHECK_EQ(back[i], want);
    }

    /* Enabling: a host node cannot be disabled; the memset can. */
    unsigned int on = 7;
    CHECK_EQ(cudaGraphNodeSetEnabled(x, host_node, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphNodeSetEnabled(x, set, 0), cudaSuccess);
    CHECK_EQ(cudaGraphNodeGetEnabled(x, set, &on), cudaSuccess);
    CHECK_EQ(on, 0);
    memset(host, 0x11, sizeof host);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(cudaMemcpy(back, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[0], 0x11);
    CHECK_EQ(host_calls, 2);

    /* Executable-graph parameters: a memset of another value; a kernel-type change is refused. */
    CHECK_EQ(cudaGraphNodeSetEnabled(x, set, 1), cudaSuccess);
    mp.value = 0x09090909;
    CHECK_EQ(cudaGraphExecMemsetNodeSetParams(x, set, &mp), cudaSuccess);
    struct cudaMemsetParams taller = mp;
    taller.height = 1;
    CHECK_EQ(cudaGraphExecMemsetNodeSetParams(x, set, &taller), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphExecHostNodeSetParams(x, set, &hp), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(cudaMemcpy(back, d, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[0], 9);
    CHECK_EQ(back[16], 0x11);

    /* cudaGraphExecUpdate: a clone updates; one node fewer is TopologyChanged; a changed type NodeTypeChanged. */
    cudaGraph_t same = NULL;
    CHECK_EQ(cudaGraphClone(&same, g), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CHECK_EQ(cudaGraphExecUpdate(x, same, &info), cudaSuccess);
    CHECK_EQ(info.result, cudaGraphExecUpdateSuccess);
    cudaGraph_t fewer = NULL;
    CHECK_EQ(cudaGraphClone(&fewer, g), cudaSuccess);
    cudaGraphNode_t fewer_nodes[5];
    n = 5;
    CHECK_EQ(cudaGraphGetNodes(fewer, fewer_nodes, &n), cudaSuccess);
    CHECK_EQ(n, 5);
    CHECK_EQ(cudaGraphDestroyNode(fewer_nodes[4]), cudaSuccess);
    CHECK_EQ(cudaGraphExecUpdate(x, fewer, &info), cudaErrorGraphExecUpdateFailure);
    CHECK_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    CHECK(info.errorNode == NULL);
    CHECK_EQ(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
    /* fewer + an empty node after k1: the same count, the last node of another type. */
    CHECK_EQ(cudaGraphAddEmptyNode(&empty, fewer, &fewer_nodes[3], 1), cudaSuccess);
    CHECK_EQ(cudaGraphExecUpdate(x, fewer, &info), cudaErrorGraphExecUpdateFailure);
    CHECK_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
    CHECK(info.errorNode == empty);
    CHECK_EQ(cudaGraphExecUpdate(x, NULL, &info), cudaErrorInvalidValue);
    CHECK_EQ(info.result, cudaGraphExecUpdateError);

    /* cudaGraphAddNode: an event record node, and a type the simulator does not make. */
    cudaGraphNode_t rec = NULL;
    CLEAR_NODE_PARAMS(gp);
    gp.type = cudaGraphNodeTypeEventRecord;
    gp.eventRecord.event = e1;
    CHECK_EQ(cudaGraphAddNode(&rec, g, &k2, 1, &gp), cudaSuccess);
    cudaEvent_t ev = NULL;
    CHECK_EQ(cudaGraphEventRecordNodeGetEvent(rec, &ev), cudaSuccess);
    CHECK(ev == e1);
    CHECK_EQ(cudaGraphEventWaitNodeGetEvent(rec, &ev), cudaErrorInvalidValue);
    gp.type = (enum cudaGraphNodeType)10;
    CHECK_EQ(cudaGraphAddNode(&rec, g, NULL, 0, &gp), cudaErrorInvalidValue);

    CHECK_EQ(cudaGraphUpload(x, s), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(x), cudaSuccess);
    CHECK_EQ(cudaGraphUpload(x, s), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphDestroy(same), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(fewer), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(c1), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(c2), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(g), cudaSuccess);
    CHECK_EQ(cudaFree(d), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(s), cudaSuccess);
    printf("graph_building: all checks passed\n");
    return 0;
}
