/*
 * A host program (no kernels) built against NVIDIA's own headers and linked with NVIDIA's libcudart.so.12 or
 * libcudart.so.13, then run by `streamsim exec` on the drop-in of that name (tests/suite/dropin.rs). It calls
 * what each major's headers select under the plain names — CUDA 12: cudaGetDeviceProperties_v2,
 * cudaStreamGetCaptureInfo_v2 (and _v3 with edge data), cudaGraphGetEdges_v2, cudaMemPrefetchAsync with a
 * device ordinal; CUDA 13: its 1008-byte cudaDeviceProp and 88-byte cudaPointerAttributes, the edge-data forms
 * and the cudaMemLocation forms under the plain names — and the driver entry point queries, checking each code
 * and result. Built also with CUDA_API_PER_THREAD_DEFAULT_STREAM, its stream calls are the headers' _ptsz entry
 * points and its NULL stream the per-thread one: the same output.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"

#define N 1024

int main(void) {
    int count = 0;
    EXPECT(cudaGetDeviceCount(&count), cudaSuccess);
    CHECK_EQ(count, 2);
    int runtime = 0, driver = 0;
    EXPECT(cudaRuntimeGetVersion(&runtime), cudaSuccess);
    EXPECT(cudaDriverGetVersion(&driver), cudaSuccess);
    printf("runtime %d, driver %d\n", runtime, driver);

    /* The struct of the headers' major: every field up to the end written, nothing past it. */
    struct {
        struct cudaDeviceProp p;
        unsigned char guard[16];
    } prop;
    memset(&prop, 0x5a, sizeof prop);
    EXPECT(cudaGetDeviceProperties(&prop.p, 1), cudaSuccess);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(prop.guard[i], 0x5a);
    }
    printf("CUDA %d headers, sizeof(cudaDeviceProp) %zu: device 1 is %s, sm_%d%d, %d SMs, warp %d\n",
           CUDART_VERSION / 1000, sizeof prop.p, prop.p.name, prop.p.major, prop.p.minor,
           prop.p.multiProcessorCount, prop.p.warpSize);
    EXPECT(cudaGetDeviceProperties(&prop.p, 2), cudaErrorInvalidDevice);
    EXPECT(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue);

    /* Copies timed with events on a created stream. */
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    float *host, *dev;
    EXPECT(cudaMallocHost((void **)&host, N * sizeof(float)), cudaSuccess);
    EXPECT(cudaMalloc((void **)&dev, N * sizeof(float)), cudaSuccess);
    for (int i = 0; i < N; i++) {
        host[i] = (float)i;
    }
    struct {
        struct cudaPointerAttributes a;
        unsigned char guard[16];
    } attr;
    memset(&attr, 0x5a, sizeof attr);
    EXPECT(cudaPointerGetAttributes(&attr.a, dev), cudaSuccess);
    CHECK_EQ(attr.a.type, cudaMemoryTypeDevice);
    CHECK_EQ(attr.a.device, 0);
    CHECK(attr.a.devicePointer == dev);
    CHECK(attr.a.hostPointer == NULL);
#if CUDART_VERSION >= 13000
    CHECK_EQ(attr.a.localityDomainOrdinal, -1);
    for (int i = 0; i < 7; i++) {
        CHECK_EQ(attr.a.reserved[i], 0);
    }
#endif
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(attr.guard[i], 0x5a);
    }
    EXPECT(cudaPointerGetAttributes(NULL, dev), cudaErrorInvalidValue);
    cudaEvent_t a, b;
    EXPECT(cudaEventCreate(&a), cudaSuccess);
    EXPECT(cudaEventCreate(&b), cudaSuccess);
    EXPECT(cudaEventRecord(a, s), cudaSuccess);
    EXPECT(cudaMemcpyAsync(dev, host, N * sizeof(float), cudaMemcpyHostToDevice, s), cudaSuccess);
    EXPECT(cudaMemcpyAsync(host, dev, N * sizeof(float), cudaMemcpyDeviceToHost, s), cudaSuccess);
    EXPECT(cudaEventRecord(b, s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    float ms = -1;
    EXPECT(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    printf("two copies of %zu bytes: %.6f ms\n", N * sizeof(float), ms);
    for (int i = 0; i < N; i++) {
        CHECK_EQ(host[i], (float)i);
    }

    /* A capture: its status and dependencies, and with edge data (all default edges). */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT(cudaMemsetAsync(dev, 0, N * sizeof(float), s), cudaSuccess);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    cudaGraph_t captured = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
#if CUDART_VERSION >= 13000
    const cudaGraphEdgeData *edges = NULL;
    EXPECT(cudaStreamGetCaptureInfo(s, &status, &id, &captured, &deps, &edges, &ndeps), cudaSuccess);
#else
    EXPECT(cudaStreamGetCaptureInfo(s, &status, &id, &captured, &deps, &ndeps), cudaSuccess);
    const cudaGraphEdgeData *edges = NULL;
    size_t ndeps3 = 0;
    EXPECT(cudaStreamGetCaptureInfo_v3(s, &status, &id, &captured, &deps, &edges, &ndeps3), cudaSuccess);
    CHECK_EQ(ndeps3, 1);
#endif
    CHECK_EQ(status, cudaStreamCaptureStatusActive);
    CHECK_EQ(ndeps, 1);
    CHECK(edges != NULL);
    CHECK_EQ(edges[0].from_port, 0);
    CHECK_EQ(edges[0].type, cudaGraphDependencyTypeDefault);
    EXPECT(cudaMemcpyAsync(host, dev, N * sizeof(float), cudaMemcpyDeviceToHost, s), cudaSuccess);
    cudaGraph_t graph;
    EXPECT(cudaStreamEndCapture(s, &graph), cudaSuccess);
    CHECK(graph == captured);
    cudaGraphNode_t from[2], to[2];
    cudaGraphEdgeData data[2];
    memset(data, 0x77, sizeof data);
    size_t nedges = 2;
#if CUDART_VERSION >= 13000
    EXPECT(cudaGraphGetEdges(graph, from, to, data, &nedges), cudaSuccess);
    EXPECT(cudaGraphGetEdges(graph, NULL, NULL, data, &nedges), cudaErrorInvalidValue);
#else
    EXPECT(cudaGraphGetEdges_v2(graph, from, to, data, &nedges), cudaSuccess);
    EXPECT(cudaGraphGetEdges_v2(graph, NULL, NULL, data, &nedges), cudaErrorInvalidValue);
#endif
    CHECK_EQ(nedges, 1);
    CHECK_EQ(data[0].to_port, 0);
    CHECK_EQ(data[1].to_port, 0x77);
    cudaGraphExec_t exec;
    EXPECT(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(exec, s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    /* With parameters and an upload into the NULL stream (the per-thread stream in a per-thread build). */
    cudaGraphExec_t uploaded;
    cudaGraphInstantiateParams ip;
    memset(&ip, 0, sizeof ip);
    ip.flags = cudaGraphInstantiateFlagUpload;
    EXPECT(cudaGraphInstantiateWithParams(&uploaded, graph, &ip), cudaSuccess);
    CHECK_EQ(ip.result_out, cudaGraphInstantiateSuccess);
    EXPECT(cudaGraphLaunch(uploaded, s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(uploaded), cudaSuccess);
    for (int i = 0; i < N; i++) {
        CHECK_EQ(host[i], 0);
    }
    printf("captured graph: %zu edge, launched\n", nedges);

    /* Managed memory: prefetch and advice, in the form each major's headers give the plain names. */
    float *managed;
    EXPECT(cudaMallocManaged((void **)&managed, N * sizeof(float), cudaMemAttachGlobal), cudaSuccess);
    struct cudaMemLocation dev1 = {cudaMemLocationTypeDevice, 1};
    struct cudaMemLocation bad = {cudaMemLocationTypeDevice, 7};
#if CUDART_VERSION >= 13000
    EXPECT(cudaMemPrefetchAsync(managed, N * sizeof(float), dev1, 0, s), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync(managed, N * sizeof(float), dev1, 1, s), cudaErrorInvalidValue);
    EXPECT(cudaMemPrefetchAsync(managed, N * sizeof(float), bad, 0, s), cudaErrorInvalidDevice);
    EXPECT(cudaMemAdvise(managed, N * sizeof(float), cudaMemAdviseSetPreferredLocation, dev1), cudaSuccess);
#else
    EXPECT(cudaMemPrefetchAsync(managed, N * sizeof(float), 1, s), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync(managed, N * sizeof(float), 7, s), cudaErrorInvalidDevice);
    EXPECT(cudaMemPrefetchAsync_v2(managed, N * sizeof(float), dev1, 0, s), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync_v2(managed, N * sizeof(float), dev1, 1, s), cudaErrorInvalidValue);
    EXPECT(cudaMemAdvise(managed, N * sizeof(float), cudaMemAdviseSetPreferredLocation, 1), cudaSuccess);
    EXPECT(cudaMemAdvise_v2(managed, N * sizeof(float), cudaMemAdviseSetPreferredLocation, bad),
           cudaErrorInvalidDevice);
#endif
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);

    /* The driver entry points: no driver function is simulated. */
    void *fn = (void *)&count;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &found), cudaSuccess);
    CHECK(fn == NULL);
    CHECK_EQ(found, cudaDriverEntryPointSymbolNotFound);
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, driver, cudaEnableDefault, &found), cudaSuccess);
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, driver + 10, cudaEnableDefault, &found),
           cudaErrorInvalidValue);
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, 4, &found), cudaErrorInvalidValue);
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", NULL, 12000, 0, &found), cudaErrorInvalidValue);
    EXPECT(cudaGetDriverEntryPointByVersion(NULL, &fn, 12000, 0, NULL), cudaErrorInvalidValue);
    EXPECT(cudaGetLastError(), cudaErrorInvalidValue);
#if CUDART_VERSION < 13000
    fn = (void *)&count;
    EXPECT(cudaGetDriverEntryPoint("cuStreamWaitValue32", &fn, cudaEnableLegacyStream, NULL), cudaSuccess);
    CHECK(fn == NULL);
#endif

    EXPECT(cudaGraphExecDestroy(exec), cudaSuccess);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    EXPECT(cudaFree(managed), cudaSuccess);
    EXPECT(cudaFree(dev), cudaSuccess);
    EXPECT(cudaFreeHost(host), cudaSuccess);
    EXPECT(cudaEventDestroy(a), cudaSuccess);
    EXPECT(cudaEventDestroy(b), cudaSuccess);
    EXPECT(cudaStreamDestroy(s), cudaSuccess);
    printf("dropin_cudart (CUDA %d): ok\n", CUDART_VERSION / 1000);
    return 0;
}
