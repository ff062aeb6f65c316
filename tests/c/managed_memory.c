/*
 * managed_memory.c — managed memory through the C ABI, as C11 and C++17 (docs/semantics/managed-memory.md):
 * cudaMallocManaged memory the host dereferences and a kernel body writes, the CUDA 12 and the cudaMemLocation
 * (_v2, passed by value) forms of prefetch and advice, the range attributes one by one and in arrays, pointer
 * attributes, stream association, the exact codes of bad calls, and the MUSA twins. In C++ also the template
 * overloads (cudaMallocManaged on `T **` with flags defaulting to cudaMemAttachGlobal).
 */
#include <cuda_runtime.h>
#include <musa_runtime.h>

#include "check.h"

/* A kernel body: doubles the 16 ints at `arg`. */
static void twice(void *arg) {
    int *v = (int *)arg;
    for (int i = 0; i < 16; i++)
        v[i] *= 2;
}

int main(void) {
    int *a = NULL;
    EXPECT(cudaMallocManaged((void **)&a, 4096 * 2, cudaMemAttachGlobal), cudaSuccess);
    for (int i = 0; i < 16; i++)
        a[i] = i;
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    EXPECT(cudasimLaunchKernel(s, "twice", 1000, twice, a), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(a[i], 2 * i);

    struct cudaPointerAttributes pa;
    EXPECT(cudaPointerGetAttributes(&pa, a + 3), cudaSuccess);
    CHECK_EQ(pa.type, cudaMemoryTypeManaged);
    CHECK_EQ(pa.device, 0);
    CHECK(pa.hostPointer == (void *)(a + 3) && pa.devicePointer == (void *)(a + 3));

    /* Prefetch and advice, both forms; the location struct by value. */
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    EXPECT(cudaMemPrefetchAsync(a, 4096, 0, s), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync_v2((char *)a + 4096, 4096, host, 0, s), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync_v2(a, 4096, dev0, 1, s), cudaErrorInvalidValue);
    struct cudaMemLocation bad = {cudaMemLocationTypeDevice, 9};
    EXPECT(cudaMemPrefetchAsync_v2(a, 4096, bad, 0, s), cudaErrorInvalidDevice);
    EXPECT(cudaMemAdvise(a, 8192, cudaMemAdviseSetReadMostly, 0), cudaSuccess);
    EXPECT(cudaMemAdvise_v2(a, 8192, cudaMemAdviseSetPreferredLocation, dev0), cudaSuccess);
    EXPECT(cudaMemAdvise_v2(a, 4096, cudaMemAdviseSetAccessedBy, host), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);

    int last = 7, pref = 7, mostly = 7, by[2] = {7, 7};
    EXPECT(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, a, 16),
           cudaSuccess);
    CHECK_EQ(last, 0);
    EXPECT(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, a, 8192),
           cudaSuccess);
    CHECK_EQ(last, cudaInvalidDeviceId);
    void *data[3] = {&pref, &mostly, by};
    size_t sizes[3] = {4, 4, 8};
    enum cudaMemRangeAttribute attrs[3] = {cudaMemRangeAttributePreferredLocation, cudaMemRangeAttributeReadMostly,
                                           cudaMemRangeAttributeAccessedBy};
    EXPECT(cudaMemRangeGetAttributes(data, sizes, attrs, 3, a, 4096), cudaSuccess);
    CHECK_EQ(pref, 0);
    CHECK_EQ(mostly, 1);
    CHECK_EQ(by[0], cudaCpuDeviceId);
    CHECK_EQ(by[1], cudaInvalidDeviceId);
    sizes[0] = 2;
    EXPECT(cudaMemRangeGetAttributes(data, sizes, attrs, 3, a, 4096), cudaErrorInvalidValue);

    /* Stream association. */
    EXPECT(cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachSingle), cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(NULL, a, 0, cudaMemAttachSingle), cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, a, 100, cudaMemAttachGlobal), cudaErrorInvalidValue);

    /* Bad allocations and frees. */
    void *p = NULL;
    EXPECT(cudaMallocManaged(&p, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
    EXPECT(cudaMallocManaged(&p, 64, cudaMemAttachSingle), cudaErrorInvalidValue);
    EXPECT(cudaMallocManaged(NULL, 64, cudaMemAttachHost), cudaErrorInvalidValue);
    EXPECT(cudaFreeHost(a), cudaErrorInvalidValue);
    EXPECT(cudaFree(a + 1), cudaErrorInvalidValue);
    EXPECT(cudaFree(a), cudaSuccess);
    EXPECT(cudaFree(a), cudaErrorInvalidValue);
    EXPECT(cudaStreamDestroy(s), cudaSuccess);

    /* The MUSA twins. */
    float *m = NULL;
    EXPECT(musaMallocManaged((void **)&m, 256, musaMemAttachHost), musaSuccess);
    m[0] = 1.5f;
    struct musaMemLocation mhost = {musaMemLocationTypeHostNumaCurrent, 3};
    EXPECT(musaMemPrefetchAsync_v2(m, 256, mhost, 0, NULL), musaSuccess);
    EXPECT(musaMemRangeGetAttribute(&last, 4, musaMemRangeAttributeLastPrefetchLocationType, m, 256),
           musaSuccess);
    CHECK_EQ(last, musaMemLocationTypeHost);
    EXPECT(musaMemAdvise(m, 256, (enum musaMemoryAdvise)9, 0), musaErrorInvalidValue);
    EXPECT(musaFree(m), musaSuccess);
    printf("c api: ok\n");

#ifdef __cplusplus
    double *d = nullptr;
    EXPECT(cudaMallocManaged(&d, 8 * sizeof(double)), cudaSuccess);
    d[7] = 2.0;
    EXPECT(cudaPointerGetAttributes(&pa, d), cudaSuccess);
    CHECK_EQ(pa.type, cudaMemoryTypeManaged);
    cudaStream_t t;
    EXPECT(cudaStreamCreate(&t), cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(t, d), cudaSuccess);
    EXPECT(cudaMemPrefetchAsync(d, 8 * sizeof(double), 0, t), cudaSuccess);
    EXPECT(cudaStreamSynchronize(t), cudaSuccess);
    EXPECT(cudaFree(d), cudaSuccess);
    EXPECT(cudaStreamDestroy(t), cudaSuccess);
    printf("cxx overloads: ok\n");
#endif
    return 0;
}
