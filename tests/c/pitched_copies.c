/*
 * pitched_copies.c — cudaMallocPitch, cudaMalloc3D, 2-D and 3-D copies and memsets, and access to a pool from a
 * peer device, through the C library with CUDA's names: the bytes, the exact codes of
 * docs/semantics/pitched-memory.md and stream-ordered-memory.md · Access from other devices, and the virtual
 * time of a 2-D copy. Runs with STREAMSIM_DEVICES=2.
 */
#include <cuda_runtime.h>
#include <string.h>

#include "check.h"

static void rows_2d(void) {
    void *d = NULL;
    size_t pitch = 0;
    EXPECT(cudaMallocPitch(&d, &pitch, 100, 10), cudaSuccess);
    CHECK_EQ(pitch, 128); /* the default profile's texturePitchAlignment, 32 */
    EXPECT(cudaMallocPitch(&d, NULL, 100, 10), cudaErrorInvalidValue);
    unsigned char src[120 * 10], back[150 * 10];
    for (int r = 0; r < 10; r++) {
        memset(src + r * 120, r + 1, 100);
        memset(src + r * 120 + 100, 0xEE, 20);
    }
    memset(back, 0xAA, sizeof back);
    EXPECT(cudaMemcpy2D(d, pitch, src, 120, 100, 10, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT(cudaMemcpy2D(back, 150, d, pitch, 100, 10, cudaMemcpyDefault), cudaSuccess);
    for (int r = 0; r < 10; r++) {
        CHECK_EQ(back[r * 150], r + 1);
        CHECK_EQ(back[r * 150 + 99], r + 1);
        CHECK_EQ(back[r * 150 + 100], 0xAA);
    }
    /* pitched-memory.md · Copies · Memcpy2D · w > pitch → 12; a bad kind → 21; rows past the allocation → 1;
     * a zero height → 0. */
    EXPECT(cudaMemcpy2D(d, 64, src, 120, 100, 10, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    EXPECT(cudaGetLastError(), cudaErrorInvalidPitchValue);
    CHECK(strcmp(cudaGetErrorName(cudaErrorInvalidPitchValue), "cudaErrorInvalidPitchValue") == 0);
    EXPECT(cudaMemcpy2D(d, pitch, src, 120, 100, 10, (enum cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaMemcpy2D(d, pitch, src, 120, 100, 11, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT(cudaMemcpy2D(d, pitch, src, 120, 100, 10, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT(cudaMemcpy2D(d, pitch, src, 120, 100, 0, cudaMemcpyHostToDevice), cudaSuccess);
    /* Memset2D: 50 bytes of each row; the rest keeps what the copy wrote. */
    EXPECT(cudaMemset2D(d, pitch, 0x7F, 50, 10), cudaSuccess);
    EXPECT(cudaMemset2D(d, 32, 0x7F, 50, 10), cudaErrorInvalidPitchValue);
    EXPECT(cudaMemcpy2D(back, 150, d, pitch, 100, 10, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[9 * 150 + 49], 0x7F);
    CHECK_EQ(back[9 * 150 + 50], 10);
    EXPECT(cudaFree(d), cudaSuccess);
}

/* pitched-memory.md · Virtual time · a 2-D copy costs a 1-D copy of its bytes: 1000 bytes host to device from
 * pinned memory, 2 µs + 62.5 ns; the events around it are 3.063 µs apart (the copy waits 1 µs for its launch
 * latency after the first record). */
static void time_2d(void) {
    void *d = NULL, *h = NULL;
    size_t pitch = 0;
    cudaStream_t s;
    cudaEvent_t a, b;
    EXPECT(cudaMallocPitch(&d, &pitch, 100, 10), cudaSuccess);
    EXPECT(cudaMallocHost(&h, 2000), cudaSuccess);
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    EXPECT(cudaEventCreate(&a), cudaSuccess);
    EXPECT(cudaEventCreate(&b), cudaSuccess);
    EXPECT(cudaEventRecord(a, s), cudaSuccess);
    EXPECT(cudaMemcpy2DAsync(d, pitch, h, 200, 100, 10, cudaMemcpyHostToDevice, s), cudaSuccess);
    EXPECT(cudaEventRecord(b, s), cudaSuccess);
    EXPECT(cudaEventSynchronize(b), cudaSuccess);
    float ms = 0;
    EXPECT(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    CHECK_NEAR(ms, 0.003063);
    /* Captured: a memcpy node of the rows (graph-building.md, Pitched nodes), launched. */
    cudaGraph_t g;
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT(cudaMemcpy2DAsync(d, pitch, h, 200, 100, 10, cudaMemcpyHostToDevice, s), cudaSuccess);
    EXPECT(cudaStreamEndCapture(s, &g), cudaSuccess);
    size_t nodes = 0;
    EXPECT(cudaGraphGetNodes(g, NULL, &nodes), cudaSuccess);
    CHECK_EQ(nodes, 1);
    cudaGraphExec_t x;
    EXPECT(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(x, s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT(cudaGraphExecDestroy(x), cudaSuccess);
    EXPECT(cudaGraphDestroy(g), cudaSuccess);
    EXPECT(cudaStreamDestroy(s), cudaSuccess);
    EXPECT(cudaFreeHost(h), cudaSuccess);
    EXPECT(cudaFree(d), cudaSuccess);
}

static void boxes_3d(void) {
    struct cudaExtent e = make_cudaExtent(20, 3, 2);
    struct cudaPitchedPtr a, b;
    EXPECT(cudaMalloc3D(&a, e), cudaSuccess);
    CHECK_EQ(a.pitch, 32);
    CHECK_EQ(a.xsize, 20);
    CHECK_EQ(a.ysize, 3);
    EXPECT(cudaMalloc3D(&b, make_cudaExtent(40, 4, 2)), cudaSuccess);
    CHECK_EQ(b.pitch, 64);
    EXPECT(cudaMemset3D(b, 0, make_cudaExtent(64, 4, 2)), cudaSuccess);
    EXPECT(cudaMemset3D(a, 5, e), cudaSuccess);
    /* a's box into b at (x 4, y 1): slices 4 rows apart. */
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = a;
    p.dstPtr = b;
    p.dstPos = make_cudaPos(4, 1, 0);
    p.extent = e;
    p.kind = cudaMemcpyDeviceToDevice;
    EXPECT(cudaMemcpy3D(&p), cudaSuccess);
    unsigned char out[64 * 8];
    EXPECT(cudaMemcpy(out, b.ptr, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int z = 0; z < 2; z++) {
        for (int y = 0; y < 4; y++) {
            const unsigned char *row = out + (z * 4 + y) * 64;
            CHECK_EQ(row[3], 0);
            CHECK_EQ(row[4], y >= 1 ? 5 : 0);
            CHECK_EQ(row[23], y >= 1 ? 5 : 0);
            CHECK_EQ(row[24], 0);
        }
    }
    /* pitched-memory.md · Copies · Memcpy3D: an array → 801; an array and a pointer → 1; neither → 1; the box
     * past a side's ysize → 1; past its pitch → 1; extent.width above a pitch → 12. */
    p.srcArray = (cudaArray_t)0x10;
    EXPECT(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    p.srcPtr = make_cudaPitchedPtr(NULL, 0, 0, 0);
    EXPECT(cudaMemcpy3D(&p), cudaErrorNotSupported);
    p.srcArray = NULL;
    EXPECT(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    p.srcPtr = a;
    p.dstPos = make_cudaPos(4, 2, 0);
    EXPECT(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    p.dstPos = make_cudaPos(50, 0, 0);
    EXPECT(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    p.dstPos = make_cudaPos(0, 0, 0);
    p.extent = make_cudaExtent(40, 3, 2);
    EXPECT(cudaMemcpy3D(&p), cudaErrorInvalidPitchValue);
    EXPECT(cudaMemcpy3D(NULL), cudaErrorInvalidValue);

    /* Memcpy3DPeer: device 1's copy of a's box. */
    struct cudaPitchedPtr c;
    EXPECT(cudaSetDevice(1), cudaSuccess);
    EXPECT(cudaMalloc3D(&c, e), cudaSuccess);
    struct cudaMemcpy3DPeerParms q;
    memset(&q, 0, sizeof q);
    q.srcPtr = a;
    q.srcDevice = 0;
    q.dstPtr = c;
    q.dstDevice = 1;
    q.extent = e;
    EXPECT(cudaMemcpy3DPeer(&q), cudaSuccess);
    unsigned char one[32 * 6];
    EXPECT(cudaMemcpy(one, c.ptr, sizeof one, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(one[5 * 32 + 19], 5);
    q.dstDevice = 0;
    EXPECT(cudaMemcpy3DPeer(&q), cudaErrorInvalidValue);
    q.dstDevice = 9;
    EXPECT(cudaMemcpy3DPeer(&q), cudaErrorInvalidDevice);
    EXPECT(cudaSetDevice(0), cudaSuccess);
}

/* stream-ordered-memory.md · Access from other devices. */
static void pool_access(void) {
    cudaMemPool_t pool;
    EXPECT(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    struct cudaMemAccessDesc desc[2];
    memset(desc, 0, sizeof desc);
    desc[0].location.type = cudaMemLocationTypeDevice;
    desc[0].location.id = 1;
    desc[0].flags = cudaMemAccessFlagsProtReadWrite;
    desc[1].location.type = cudaMemLocationTypeDevice;
    desc[1].location.id = 0;
    desc[1].flags = cudaMemAccessFlagsProtNone;
    /* The owning device's access cannot change: 101, and device 1's entry does not apply either. */
    EXPECT(cudaMemPoolSetAccess(pool, desc, 2), cudaErrorInvalidDevice);
    enum cudaMemAccessFlags f = cudaMemAccessFlagsProtRead;
    struct cudaMemLocation loc = {cudaMemLocationTypeDevice, 1};
    EXPECT(cudaMemPoolGetAccess(&f, pool, &loc), cudaSuccess);
    CHECK_EQ(f, cudaMemAccessFlagsProtNone);
    EXPECT(cudaMemPoolSetAccess(pool, desc, 1), cudaSuccess);
    EXPECT(cudaMemPoolGetAccess(&f, pool, &loc), cudaSuccess);
    CHECK_EQ(f, cudaMemAccessFlagsProtReadWrite);
    loc.id = 0;
    EXPECT(cudaMemPoolGetAccess(&f, pool, &loc), cudaSuccess);
    CHECK_EQ(f, cudaMemAccessFlagsProtReadWrite);
    desc[0].flags = cudaMemAccessFlagsProtRead;
    EXPECT(cudaMemPoolSetAccess(pool, desc, 1), cudaErrorNotSupported);
    desc[0].flags = (enum cudaMemAccessFlags)2;
    EXPECT(cudaMemPoolSetAccess(pool, desc, 1), cudaErrorInvalidValue);
    desc[0].flags = cudaMemAccessFlagsProtReadWrite;
    desc[0].location.type = cudaMemLocationTypeHost;
    EXPECT(cudaMemPoolSetAccess(pool, desc, 1), cudaErrorInvalidValue);
    EXPECT(cudaMemPoolSetAccess(pool, NULL, 1), cudaErrorInvalidValue);
    EXPECT(cudaMemPoolSetAccess(pool, NULL, 0), cudaSuccess);
    loc.id = 5;
    EXPECT(cudaMemPoolGetAccess(&f, pool, &loc), cudaErrorInvalidDevice);
    /* IPC pools are not simulated: no pool can be exported, nothing imported. */
    int fd = -1;
    EXPECT(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0),
           cudaErrorInvalidValue);
    cudaMemPool_t imported;
    EXPECT(cudaMemPoolImportFromShareableHandle(&imported, (void *)(long)3, cudaMemHandleTypePosixFileDescriptor, 0),
           cudaErrorInvalidValue);
    void *ptr = NULL;
    EXPECT(cudaMallocAsync(&ptr, 4096, 0), cudaSuccess);
    struct cudaMemPoolPtrExportData data;
    EXPECT(cudaMemPoolExportPointer(&data, ptr), cudaErrorInvalidValue);
    EXPECT(cudaMemPoolImportPointer(&ptr, pool, &data), cudaErrorInvalidValue);
    EXPECT(cudaFreeAsync(ptr, 0), cudaSuccess);
    EXPECT(cudaDeviceSynchronize(), cudaSuccess);
}

int main(void) {
    rows_2d();
    time_2d();
    boxes_3d();
    pool_access();
    printf("pitched copies: ok\n");
    return 0;
}
