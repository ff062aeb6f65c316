/*
 * C kernel bodies on device memory with ACL names (aclsimLaunchKernelCtx and the streamsimKernel* accessors;
 * docs/semantics/kernel-bodies.md), on the default machine with STREAMSIM_DEVICES=2:
 *   - device 0: H2D copy, a kernel computing out[i] = in[i] * in[i] through a map, D2H copy, every element
 *     checked;
 *   - aclrtMallocHost memory cannot be declared: 107000 (it reaches a kernel only through aclrtHostRegister,
 *     which is not simulated), and aclGetRecentErrMsg names aclsimLaunchKernelCtx;
 *   - device 1: a body reading memory it did not declare gets STREAMSIM_ERROR_ILLEGAL_ADDRESS, the next
 *     aclrtSynchronizeStream returns ACL_ERROR_RT_AICORE_EXCEPTION (507015), once: in the default failure
 *     mode ACL_CONTINUE_ON_FAILURE a synchronize reports a stream's fault and the runtime forgets it
 *     (docs/semantics/acl-runtime-api.md), so the next aclrtSynchronizeDevice returns 0; device 0 keeps
 *     working.
 */
#include "acl/acl.h"

#include "check.h"

#define N 1024

typedef struct Square {
    const float *in;
    float *out;
    int code;
} Square;

static void square(streamsimKernelCtx *ctx, void *arg) {
    Square *s = (Square *)arg;
    void *in = NULL, *out = NULL;
    s->code = streamsimKernelMap(ctx, s->in, N * sizeof(float), &in);
    if (s->code == STREAMSIM_SUCCESS) {
        s->code = streamsimKernelMap(ctx, s->out, N * sizeof(float), &out);
    }
    if (s->code != STREAMSIM_SUCCESS) {
        return;
    }
    for (int i = 0; i < N; i++) {
        ((float *)out)[i] = ((const float *)in)[i] * ((const float *)in)[i];
    }
}

static aclError launch_square(aclrtStream stream, Square *s) {
    streamsimAccess acc[2];
    acc[0].ptr = s->in;
    acc[0].bytes = N * sizeof(float);
    acc[0].flags = STREAMSIM_ACCESS_READ;
    acc[1].ptr = s->out;
    acc[1].bytes = N * sizeof(float);
    acc[1].flags = STREAMSIM_ACCESS_WRITE;
    return aclsimLaunchKernelCtx(stream, "square", 10000, square, s, acc, 2);
}

static void *device(size_t bytes) {
    void *p = NULL;
    EXPECT(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

static void computes_on_device_0(void) {
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    static float host[N];
    for (int i = 0; i < N; i++) {
        host[i] = (float)i / 8.0f;
    }
    Square s;
    s.in = (const float *)device(sizeof host);
    s.out = (float *)device(sizeof host);
    s.code = -1;
    EXPECT(aclrtMemcpy((void *)s.in, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT(launch_square(stream, &s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(s.code, STREAMSIM_SUCCESS);
    static float result[N];
    EXPECT(aclrtMemcpy(result, sizeof result, s.out, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < N; i++) {
        CHECK_NEAR(result[i], host[i] * host[i]);
    }

    /* Pinned host memory is not reachable from an ACL kernel. */
    void *pinned = NULL;
    EXPECT(aclrtMallocHost(&pinned, N * sizeof(float)), ACL_SUCCESS);
    Square p;
    p.in = (const float *)pinned;
    p.out = s.out;
    p.code = -1;
    EXPECT(launch_square(stream, &p), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_CONTAINS(aclGetRecentErrMsg(), "aclsimLaunchKernelCtx: ");
    CHECK_CONTAINS(aclGetRecentErrMsg(), "pinned host memory");
    EXPECT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(p.code, -1); /* never ran */
    EXPECT(aclrtFreeHost(pinned), ACL_SUCCESS);
}

typedef struct Stray {
    const void *declared;
    const void *other;
    int codes[2];
} Stray;

static void stray(streamsimKernelCtx *ctx, void *arg) {
    Stray *s = (Stray *)arg;
    float v = 0.0f;
    s->codes[0] = streamsimKernelRead(ctx, &v, s->other, sizeof v);
    s->codes[1] = streamsimKernelRead(ctx, &v, s->declared, sizeof v);
}

static void faults_on_device_1(void) {
    EXPECT(aclrtSetDevice(1), ACL_SUCCESS);
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    Stray s;
    s.declared = device(64);
    s.other = device(64);
    s.codes[0] = s.codes[1] = -1;
    streamsimAccess acc;
    acc.ptr = s.declared;
    acc.bytes = 64;
    acc.flags = STREAMSIM_ACCESS_READ;
    EXPECT(aclsimLaunchKernelCtx(stream, "stray", 1000, stray, &s, &acc, 1), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_EQ(s.codes[0], STREAMSIM_ERROR_ILLEGAL_ADDRESS);
    CHECK_EQ(s.codes[1], STREAMSIM_ERROR_ILLEGAL_ADDRESS);
    CHECK_CONTAINS(aclGetRecentErrMsg(), "outside the kernel's declared accesses");
    /* Reported once (ACL_CONTINUE_ON_FAILURE, the default): not sticky on device 1. */
    EXPECT(aclrtSynchronizeDevice(), ACL_SUCCESS);
}

int main(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    computes_on_device_0();
    faults_on_device_1();
    /* Device 0 keeps working. */
    computes_on_device_0();
    EXPECT(aclFinalize(), ACL_SUCCESS);
    printf("kernel bodies (ACL): ok\n");
    return 0;
}
