/*
 * graph_capture_to_graph.c — capture into an existing graph, child graph nodes' embedded graphs, executable
 * child graph nodes and the nodes of a clone, through the C API with CUDA names
 * (docs/semantics/graph-building.md, "Capture into a graph", "Child graphs and clones" and "Pitched nodes"):
 * every documented code, and the effects of the graphs launched.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"

#ifdef __cplusplus
#define DECLARE_NODE_PARAMS(p) cudaGraphNodeParams p{}
#else
#define DECLARE_NODE_PARAMS(p) \
    struct cudaGraphNodeParams p; \
    memset(&(p), 0, sizeof(p))
#endif

/* A memset node's parameters: 16 bytes of `value` at `dst`. */
static struct cudaMemsetParams memset16(void *dst, unsigned char value) {
    struct cudaMemsetParams p;
    memset(&p, 0, sizeof p);
    p.dst = dst;
    p.value = value;
    p.elementSize = 1;
    p.width = 16;
    p.height = 1;
    return p;
}

static size_t count_nodes(cudaGraph_t g) {
    size_t n = 0;
    CHECK_EQ(cudaGraphGetNodes(g, NULL, &n), cudaSuccess);
    return n;
}

static void launch(cudaGraph_t g, cudaStream_t s) {
    cudaGraphExec_t x = NULL;
    CHECK_EQ(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(cudaGraphExecDestroy(x), cudaSuccess);
}

static void capture_to_graph(cudaStream_t s, cudaStream_t s2, unsigned char *d) {
    unsigned char back[16];
    cudaGraph_t g = NULL, other = NULL, got = NULL;
    CHECK_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
    cudaGraphNode_t set = NULL, foreign = NULL;
    struct cudaMemsetParams mp = memset16(d, 0x42);
    CHECK_EQ(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp), cudaSuccess);
    CHECK_EQ(cudaGraphAddEmptyNode(&foreign, other, NULL, 0), cudaSuccess);

    /* The refusals: a bad mode, a NULL array with a count, a node of another graph or listed twice, a dead
     * graph, a non-default edge, the legacy stream. None begins a capture. */
    cudaGraphNode_t twice[2] = {set, set};
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, (enum cudaStreamCaptureMode)7), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 1, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, &foreign, NULL, 1, cudaStreamCaptureModeGlobal),
             cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, twice, NULL, 2, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue);
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    edge.type = 1;
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, &set, &edge, 1, cudaStreamCaptureModeGlobal), cudaErrorNotSupported);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(NULL, g, &set, NULL, 1, cudaStreamCaptureModeGlobal),
             cudaErrorStreamCaptureUnsupported);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    CHECK_EQ(cudaStreamIsCapturing(s, &status), cudaSuccess);
    CHECK_EQ(status, cudaStreamCaptureStatusNone);

    /* A capture into g after the memset node (a default edge given as data): the copy back depends on it. */
    memset(&edge, 0, sizeof edge);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, &set, &edge, 1, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK_EQ(cudaStreamIsCapturing(s, &status), cudaSuccess);
    CHECK_EQ(status, cudaStreamCaptureStatusActive);
    cudaGraph_t info_graph = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    CHECK_EQ(cudaStreamGetCaptureInfo(s, &status, NULL, &info_graph, &deps, &ndeps), cudaSuccess);
    CHECK(info_graph == g);
    CHECK_EQ(ndeps, 1);
    CHECK(deps[0] == set);
    /* Already capturing; g is the capture's until it ends; a second stream cannot capture into it. */
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s2, g, NULL, NULL, 0, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphDestroy(g), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphAddEmptyNode(&foreign, g, NULL, 0), cudaErrorInvalidValue);
    memset(back, 0, sizeof back);
    CHECK_EQ(cudaMemcpyAsync(back, d, 16, cudaMemcpyDeviceToHost, s), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(s, &got), cudaSuccess);
    CHECK(got == g);
    CHECK_EQ(count_nodes(g), 2);
    cudaGraphNode_t nodes[2];
    size_t n = 2;
    CHECK_EQ(cudaGraphGetNodes(g, nodes, &n), cudaSuccess);
    CHECK(nodes[0] == set);
    cudaGraphNode_t dep = NULL;
    n = 1;
    CHECK_EQ(cudaGraphNodeGetDependencies(nodes[1], &dep, &n), cudaSuccess);
    CHECK_EQ(n, 1);
    CHECK(dep == set);
    enum cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    CHECK_EQ(cudaGraphNodeGetType(nodes[1], &type), cudaSuccess);
    CHECK_EQ(type, cudaGraphNodeTypeMemcpy);
    launch(g, s);
    CHECK_EQ(back[0], 0x42);
    CHECK_EQ(back[15], 0x42);

    /* A capture into g whose forked work is not joined back: 904, *pGraph NULL, g keeps its two nodes. */
    cudaEvent_t fork = NULL;
    CHECK_EQ(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK_EQ(cudaEventRecord(fork, s), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
    CHECK_EQ(cudaMemsetAsync(d, 1, 16, s2), cudaSuccess);
    got = g;
    CHECK_EQ(cudaStreamEndCapture(s, &got), cudaErrorStreamCaptureUnjoined);
    CHECK(got == NULL);
    CHECK_EQ(count_nodes(g), 2);
    CHECK_EQ(cudaStreamIsCapturing(s2, &status), cudaSuccess);
    CHECK_EQ(status, cudaStreamCaptureStatusNone);
    /* The graph is the program's again: a node added by hand, a capture of no work (no node). */
    CHECK_EQ(cudaGraphAddEmptyNode(&dep, g, NULL, 0), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, cudaStreamCaptureModeRelaxed), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(s, &got), cudaSuccess);
    CHECK(got == g);
    CHECK_EQ(count_nodes(g), 3);
    CHECK_EQ(cudaEventDestroy(fork), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(other), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(g), cudaSuccess);
}

static void child_graphs(cudaStream_t s, unsigned char *d) {
    unsigned char back[32];
    cudaGraph_t child = NULL, parent = NULL, embedded = NULL, again = NULL;
    CHECK_EQ(cudaGraphCreate(&child, 0), cudaSuccess);
    CHECK_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
    cudaGraphNode_t first = NULL, node = NULL, root = NULL, added = NULL;
    struct cudaMemsetParams mp = memset16(d, 0x10);
    CHECK_EQ(cudaGraphAddMemsetNode(&first, child, NULL, 0, &mp), cudaSuccess);
    CHECK_EQ(cudaGraphAddEmptyNode(&root, parent, NULL, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddChildGraphNode(&node, parent, &root, 1, child), cudaSuccess);

    /* The embedded graph: not the child graph (it was cloned), the same handle each time. */
    CHECK_EQ(cudaGraphChildGraphNodeGetGraph(node, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphChildGraphNodeGetGraph(root, &embedded), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphChildGraphNodeGetGraph(node, &embedded), cudaSuccess);
    CHECK(embedded != NULL && embedded != child);
    CHECK_EQ(cudaGraphChildGraphNodeGetGraph(node, &again), cudaSuccess);
    CHECK(again == embedded);
    CHECK_EQ(count_nodes(embedded), 1);
    DECLARE_NODE_PARAMS(gp);
    CHECK_EQ(cudaGraphNodeGetParams(node, &gp), cudaSuccess);
    CHECK_EQ(gp.type, cudaGraphNodeTypeGraph);
    CHECK(gp.graph.graph == embedded);
    CHECK_EQ(cudaGraphDestroy(embedded), cudaErrorInvalidValue);

    /* A node added to the embedded graph is part of the node: both memsets run; the child graph is unchanged. */
    cudaGraphNode_t inner = NULL;
    size_t one = 1;
    CHECK_EQ(cudaGraphGetNodes(embedded, &inner, &one), cudaSuccess);
    struct cudaMemsetParams mp2 = memset16(d + 16, 0x20);
    CHECK_EQ(cudaGraphAddMemsetNode(&added, embedded, &inner, 1, &mp2), cudaSuccess);
    CHECK_EQ(count_nodes(embedded), 2);
    CHECK_EQ(count_nodes(child), 1);
    CHECK_EQ(cudaMemset(d, 0, 32), cudaSuccess);
    launch(parent, s);
    CHECK_EQ(cudaMemcpy(back, d, 32, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[0], 0x10);
    CHECK_EQ(back[16], 0x20);

    /* An executable graph's child graph node takes a graph of the same topology. */
    cudaGraphExec_t x = NULL;
    CHECK_EQ(cudaGraphInstantiate(&x, parent, 0), cudaSuccess);
    cudaGraph_t same = NULL, bigger = NULL;
    CHECK_EQ(cudaGraphClone(&same, embedded), cudaSuccess);
    cudaGraphNode_t copy = NULL;
    CHECK_EQ(cudaGraphNodeFindInClone(&copy, added, same), cudaSuccess);
    CHECK(copy != NULL && copy != added);
    CHECK_EQ(cudaGraphNodeFindInClone(NULL, added, same), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphNodeFindInClone(&copy, root, same), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphNodeFindInClone(&copy, added, parent), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphNodeFindInClone(&copy, added, same), cudaSuccess);
    mp2.value = 0x33;
    CHECK_EQ(cudaGraphMemsetNodeSetParams(copy, &mp2), cudaSuccess);
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(x, node, same), cudaSuccess);
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(x, root, same), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(x, node, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphClone(&bigger, same), cudaSuccess);
    cudaGraphNode_t extra = NULL;
    CHECK_EQ(cudaGraphAddEmptyNode(&extra, bigger, NULL, 0), cudaSuccess);
    CHECK_EQ(cudaGraphExecChildGraphNodeSetParams(x, node, bigger), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(cudaMemcpy(back, d, 32, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[0], 0x10);
    CHECK_EQ(back[16], 0x33);
    /* cudaGraphExecNodeSetParams with a child graph: the same rules. */
    DECLARE_NODE_PARAMS(cp);
    cp.type = cudaGraphNodeTypeGraph;
    cp.graph.graph = embedded;
    CHECK_EQ(cudaGraphExecNodeSetParams(x, node, &cp), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(cudaMemcpy(back, d, 32, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[16], 0x20);
    cp.graph.graph = bigger;
    CHECK_EQ(cudaGraphExecNodeSetParams(x, node, &cp), cudaErrorInvalidValue);

    /* A clone's copy destroyed: not found any more. */
    CHECK_EQ(cudaGraphDestroyNode(copy), cudaSuccess);
    CHECK_EQ(cudaGraphNodeFindInClone(&copy, added, same), cudaErrorInvalidValue);

    /* The embedded graph dies with its node. */
    CHECK_EQ(cudaGraphDestroyNode(node), cudaSuccess);
    CHECK_EQ(cudaGraphGetNodes(embedded, NULL, &one), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphExecDestroy(x), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(same), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(bigger), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(parent), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(child), cudaSuccess);
}

/* Pitched nodes: a hand-built pitched memcpy node, captured 2-D copies of pageable memory, a padded 3-D memset. */
static void pitched_nodes(cudaStream_t s) {
    void *a = NULL, *b = NULL;
    size_t pa = 0, pb = 0;
    CHECK_EQ(cudaMallocPitch(&a, &pa, 20, 4), cudaSuccess);
    CHECK_EQ(cudaMallocPitch(&b, &pb, 40, 4), cudaSuccess);
    CHECK_EQ(pa, 32);
    CHECK_EQ(pb, 64);
    unsigned char host[80], back[80];
    for (int i = 0; i < 80; i++) host[i] = (unsigned char)(i / 20 + 1);
    CHECK_EQ(cudaMemset(a, 0xEE, pa * 4), cudaSuccess);
    CHECK_EQ(cudaMemset(b, 0, pb * 4), cudaSuccess);

    /* Captured: host rows (pageable, 20 bytes apart) into a, then a's rows into b. */
    cudaGraph_t g = NULL;
    CHECK_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK_EQ(cudaMemcpy2DAsync(a, pa, host, 20, 20, 4, cudaMemcpyHostToDevice, s), cudaSuccess);
    CHECK_EQ(cudaMemcpy2DAsync(b, pb, a, pa, 20, 4, cudaMemcpyDeviceToDevice, s), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
    cudaGraphNode_t nodes[2];
    size_t n = 2;
    CHECK_EQ(cudaGraphGetNodes(g, nodes, &n), cudaSuccess);
    CHECK_EQ(n, 2);
    struct cudaMemcpy3DParms got;
    memset(&got, 0, sizeof got);
    CHECK_EQ(cudaGraphMemcpyNodeGetParams(nodes[0], &got), cudaSuccess);
    CHECK(got.srcPtr.ptr == (void *)host);
    CHECK_EQ(got.srcPtr.pitch, 20);
    CHECK(got.dstPtr.ptr == a);
    CHECK_EQ(got.dstPtr.pitch, pa);
    CHECK_EQ(got.dstPtr.ysize, 4);
    CHECK_EQ(got.extent.width, 20);
    CHECK_EQ(got.extent.height, 4);
    CHECK_EQ(got.extent.depth, 1);
    CHECK_EQ(got.kind, cudaMemcpyDefault);
    cudaGraphExec_t x = NULL;
    CHECK_EQ(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    unsigned char rows_b[256];
    CHECK_EQ(cudaMemcpy(rows_b, b, 256, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int r = 0; r < 4; r++) {
        CHECK_EQ(rows_b[r * 64], r + 1);
        CHECK_EQ(rows_b[r * 64 + 19], r + 1);
        CHECK_EQ(rows_b[r * 64 + 20], 0);
    }
    /* A pitched node of an executable graph cannot change ("multidimensional memory operands"). */
    CHECK_EQ(cudaGraphExecMemcpyNodeSetParams(x, nodes[1], &got), cudaErrorInvalidValue);
    CHECK_EQ(cudaGraphExecDestroy(x), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(g), cudaSuccess);

    /* By hand: b's rows back to the host, 20 bytes apart; a pitch shorter than the width is 1 (not 12). */
    struct cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(b, pb, 20, 4);
    cp.dstPtr = make_cudaPitchedPtr(back, 20, 20, 4);
    cp.extent = make_cudaExtent(20, 4, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphNode_t node = NULL;
    CHECK_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
    CHECK_EQ(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp), cudaSuccess);
    struct cudaMemcpy3DParms short_pitch = cp;
    short_pitch.dstPtr.pitch = 10;
    CHECK_EQ(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &short_pitch), cudaErrorInvalidValue);
    memset(back, 0, sizeof back);
    CHECK_EQ(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    CHECK_EQ(cudaGraphLaunch(x, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(memcmp(back, host, 80), 0);
    CHECK_EQ(cudaGraphExecDestroy(x), cudaSuccess);
    CHECK_EQ(cudaGraphDestroy(g), cudaSuccess);

    /* A 3-D memset of 2 rows of each 3-row slice: a memset node without cudaMemsetParams (801). */
    struct cudaPitchedPtr box;
    CHECK_EQ(cudaMalloc3D(&box, make_cudaExtent(8, 3, 2)), cudaSuccess);
    CHECK_EQ(cudaMemset(box.ptr, 0, box.pitch * 6), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK_EQ(cudaMemset3DAsync(box, 0x5A, make_cudaExtent(8, 2, 2), s), cudaSuccess);
    CHECK_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
    n = 1;
    CHECK_EQ(cudaGraphGetNodes(g, &node, &n), cudaSuccess);
    enum cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    CHECK_EQ(cudaGraphNodeGetType(node, &type), cudaSuccess);
    CHECK_EQ(type, cudaGraphNodeTypeMemset);
    struct cudaMemsetParams mp;
    CHECK_EQ(cudaGraphMemsetNodeGetParams(node, &mp), cudaErrorNotSupported);
    launch(g, s);
    unsigned char boxed[6 * 32];
    CHECK_EQ(box.pitch, 32);
    CHECK_EQ(cudaMemcpy(boxed, box.ptr, sizeof boxed, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int r = 0; r < 6; r++) {
        CHECK_EQ(boxed[r * 32], r % 3 == 2 ? 0 : 0x5A);
        CHECK_EQ(boxed[r * 32 + 8], 0);
    }
    CHECK_EQ(cudaGraphDestroy(g), cudaSuccess);
    CHECK_EQ(cudaFree(box.ptr), cudaSuccess);
    CHECK_EQ(cudaFree(a), cudaSuccess);
    CHECK_EQ(cudaFree(b), cudaSuccess);
}

int main(void) {
    cudaStream_t s, s2;
    CHECK_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    CHECK_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    unsigned char *d = NULL;
    CHECK_EQ(cudaMalloc((void **)&d, 64), cudaSuccess);
    capture_to_graph(s, s2, d);
    child_graphs(s, d);
    pitched_nodes(s);
    CHECK_EQ(cudaFree(d), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(s2), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(s), cudaSuccess);
    printf("graph_capture_to_graph: all checks passed\n");
    return 0;
}
