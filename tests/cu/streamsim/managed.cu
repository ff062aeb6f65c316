// Managed memory under `streamsim cc`: __managed__ variables shared by host code and kernels, cudaMallocManaged
// memory the host dereferences, prefetch and advice with their range attributes, copies of any kind, and the
// codes of bad calls (docs/semantics/managed-memory.md).
#include <cstdio>

__managed__ int counter = 5;
__managed__ float table[8];

__global__ void bump(int *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += i;
        atomicAdd(&counter, 1);
    }
    if (i == 0) {
        table[3] = 2.5f;
    }
}

#define CHECK(what, call, want)                                                                                \
    do {                                                                                                       \
        cudaError_t e_ = (call);                                                                               \
        if (e_ != (want)) {                                                                                    \
            printf("%s: %d %s, wanted %d\n", what, (int)e_, cudaGetErrorName(e_), (int)(want));              \
            return 1;                                                                                          \
        }                                                                                                      \
    } while (0)

int main() {
    int dev = -9, value = -9;
    CHECK("get device", cudaGetDevice(&dev), cudaSuccess);
    CHECK("attribute", cudaDeviceGetAttribute(&value, cudaDevAttrConcurrentManagedAccess, dev), cudaSuccess);
    printf("concurrentManagedAccess %d\n", value);

    // The host initialises the variables and the allocation directly; a kernel updates them.
    counter = 10;
    const int n = 64;
    int *data = nullptr;
    CHECK("malloc managed", cudaMallocManaged(&data, n * sizeof(int)), cudaSuccess);
    for (int i = 0; i < n; i++)
        data[i] = 100;
    cudaPointerAttributes attr;
    CHECK("pointer attributes", cudaPointerGetAttributes(&attr, data), cudaSuccess);
    printf("type %d, device %d, same pointers %d\n", (int)attr.type, attr.device,
           attr.devicePointer == (void *)data && attr.hostPointer == (void *)data);
    CHECK("variable attributes", cudaPointerGetAttributes(&attr, &counter), cudaSuccess);
    printf("variable type %d\n", (int)attr.type);

    cudaStream_t s;
    CHECK("stream", cudaStreamCreate(&s), cudaSuccess);
    CHECK("advise", cudaMemAdvise(data, n * sizeof(int), cudaMemAdviseSetPreferredLocation, 0), cudaSuccess);
    CHECK("prefetch", cudaMemPrefetchAsync(data, n * sizeof(int), 0, s), cudaSuccess);
    bump<<<2, 32, 0, s>>>(data, n);
    CHECK("sync", cudaStreamSynchronize(s), cudaSuccess);
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= data[i] == 100 + i;
    printf("data %s, counter %d, table[3] %.1f\n", ok ? "ok" : "wrong", counter, table[3]);

    int loc = -9;
    CHECK("preferred", cudaMemRangeGetAttribute(&loc, 4, cudaMemRangeAttributePreferredLocation, data, 16),
          cudaSuccess);
    printf("preferred location %d\n", loc);
    CHECK("prefetch to host", cudaMemPrefetchAsync(data, n * sizeof(int), cudaCpuDeviceId, s), cudaSuccess);
    CHECK("sync", cudaStreamSynchronize(s), cudaSuccess);
    CHECK("last prefetch", cudaMemRangeGetAttribute(&loc, 4, cudaMemRangeAttributeLastPrefetchLocation, data, 16),
          cudaSuccess);
    printf("last prefetch location %d\n", loc);

    // Copies of any kind to and from managed memory, and a memset.
    int host[4] = {1, 2, 3, 4};
    CHECK("copy in", cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    CHECK("memset", cudaMemset(data + 4, 0, 4 * sizeof(int)), cudaSuccess);
    int back[8] = {0};
    CHECK("copy out", cudaMemcpy(back, data, sizeof back, cudaMemcpyDefault), cudaSuccess);
    printf("copied %d %d %d %d %d %d\n", back[0], back[3], back[4], back[7], data[2], data[8]);

    // Bad calls.
    void *p = nullptr;
    CHECK("bad flags", cudaMallocManaged(&p, 64, 0x4), cudaErrorInvalidValue);
    CHECK("size 0", cudaMallocManaged(&p, 0), cudaErrorInvalidValue);
    int plain[4];
    CHECK("prefetch unmanaged", cudaMemPrefetchAsync(plain, sizeof plain, 0, s), cudaErrorInvalidValue);
    CHECK("prefetch bad device", cudaMemPrefetchAsync(data, 16, 7, s), cudaErrorInvalidDevice);
    CHECK("attach NULL stream", cudaStreamAttachMemAsync(0, data, 0, cudaMemAttachSingle), cudaErrorInvalidValue);
    CHECK("attach", cudaStreamAttachMemAsync(s, data), cudaSuccess);
    CHECK("free host", cudaFreeHost(data), cudaErrorInvalidValue);
    CHECK("free variable", cudaFree(&counter), cudaErrorInvalidValue);
    CHECK("free", cudaFree(data), cudaSuccess);
    CHECK("stream destroy", cudaStreamDestroy(s), cudaSuccess);
    printf("managed: ok\n");
    return 0;
}
