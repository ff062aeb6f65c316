/*
 * NULL, destroyed and garbage handles from C, through every facade (cuda, musa, acl) and the streamsim calls:
 * each call returns the vendor's code, the simulator never crashes, and the live handles keep working.
 */
#include <stdint.h>

#include <cuda_runtime.h>
#include <musa_runtime.h>
#include "acl/acl.h"

#include "check.h"

static void noop_host_fn(void *arg) {
    (void)arg;
}

static void cudanoop_callback(cudaStream_t stream, cudaError_t status, void *arg) {
    (void)stream;
    (void)status;
    (void)arg;
}

static void musanoop_callback(musaStream_t stream, musaError_t status, void *arg) {
    (void)stream;
    (void)status;
    (void)arg;
}

#define FAM(x) cuda##x
#define SIM(x) cudasim##x
#include "bad_handles_family.h"
#undef FAM
#undef SIM
#define FAM(x) musa##x
#define SIM(x) musasim##x
#include "bad_handles_family.h"
#undef FAM
#undef SIM

/* ACL: NULL handles are ACL_ERROR_INVALID_PARAM (100000); destroyed, forged and wrong-kind ones
 * ACL_ERROR_RT_INVALID_HANDLE (107017). */
static void acl_bad_handles(void) {
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream live_s, dead_s;
    aclrtEvent live_e, dead_e;
    aclrtContext live_c, dead_c;
    EXPECT(aclrtCreateStream(&live_s), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&dead_s), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(dead_s), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&live_e), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&dead_e), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(dead_e), ACL_SUCCESS);
    EXPECT(aclrtGetCurrentContext(&live_c), ACL_SUCCESS);
    EXPECT(aclrtCreateContext(&dead_c, 0), ACL_SUCCESS);
    EXPECT(aclrtDestroyContext(dead_c), ACL_SUCCESS);
    EXPECT(aclrtSetCurrentContext(live_c), ACL_SUCCESS);

    int host_variable = 0;
    void *garbage[] = {
        (void *)(uintptr_t)0xdeadbeef,
        (void *)(uintptr_t)0xA123456789ABCDEFull,
        (void *)(uintptr_t)0xE123456789ABCDEFull,
        (void *)(uintptr_t)0xC123456789ABCDEFull,
        (void *)(uintptr_t)UINTPTR_MAX,
        (void *)&host_variable,
    };
    void *d = NULL;
    char host[8] = {0};
    EXPECT(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const aclError bad = ACL_ERROR_RT_INVALID_HANDLE;
    for (size_t i = 0; i <= sizeof garbage / sizeof garbage[0]; i++) {
        /* i == count: the destroyed handles, and handles of the wrong kind */
        int last = i == sizeof garbage / sizeof garbage[0];
        aclrtStream s = last ? dead_s : garbage[i];
        aclrtEvent e = last ? dead_e : garbage[i];
        aclrtContext c = last ? dead_c : garbage[i];
        aclrtStreamStatus sst;
        aclrtEventStatus est;
        aclrtEventRecordedStatus rst;
        float ms;
        uint64_t us;
        aclrtIpcEventHandle h;
        EXPECT(aclrtDestroyStream(s), bad);
        EXPECT(aclrtDestroyStreamForce(s), bad);
        EXPECT(aclrtSynchronizeStream(s), bad);
        EXPECT(aclrtSynchronizeStreamWithTimeout(s, 10), bad);
        EXPECT(aclrtStreamQuery(s, &sst), bad);
        EXPECT(aclrtStreamWaitEvent(s, live_e), bad);
        EXPECT(aclrtLaunchHostFunc(s, noop_host_fn, NULL), bad);
        EXPECT(aclrtRecordEvent(live_e, s), bad);
        EXPECT(aclrtMemcpyAsync(d, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE, s), bad);
        EXPECT(aclrtMemsetAsync(d, 8, 0, 8, s), bad);
        EXPECT(aclsimLaunchKernel(s, "k", 1000, NULL, NULL), bad);
        EXPECT(aclsimLaunchKernelEx(s, "k", 1000, NULL, NULL, NULL, 0), bad);
        EXPECT(aclsimLaunchFallibleKernel(s, "k", 1000, NULL, NULL), bad);
        EXPECT(aclrtDestroyEvent(e), bad);
        EXPECT(aclrtRecordEvent(e, live_s), bad);
        EXPECT(aclrtResetEvent(e, live_s), bad);
        EXPECT(aclrtStreamWaitEvent(live_s, e), bad);
        EXPECT(aclrtQueryEvent(e, &est), bad);
        EXPECT(aclrtQueryEventStatus(e, &rst), bad);
        EXPECT(aclrtSynchronizeEvent(e), bad);
        EXPECT(aclrtSynchronizeEventWithTimeout(e, 10), bad);
        EXPECT(aclrtEventElapsedTime(&ms, e, live_e), bad);
        EXPECT(aclrtEventElapsedTime(&ms, live_e, e), bad);
        EXPECT(aclrtEventGetTimestamp(e, &us), bad);
        EXPECT(aclrtIpcGetEventHandle(e, &h), bad);
        EXPECT(aclrtDestroyContext(c), bad);
        EXPECT(aclrtSetCurrentContext(c), bad);
        CHECK(aclGetRecentErrMsg() != NULL);
    }
    /* Wrong kinds. */
    EXPECT(aclrtSynchronizeStream(live_e), bad);
    EXPECT(aclrtSynchronizeEvent(live_s), bad);
    EXPECT(aclrtSetCurrentContext(live_s), bad);

    /* NULL handles and out-pointers: ACL_ERROR_INVALID_PARAM. */
    const aclError null = ACL_ERROR_INVALID_PARAM;
    aclrtEventStatus est;
    aclrtEventRecordedStatus rst;
    float ms;
    uint64_t us;
    aclrtIpcEventHandle h;
    memset(&h, 0, sizeof h);
    EXPECT(aclrtDestroyStream(NULL), null);
    EXPECT(aclrtDestroyEvent(NULL), null);
    EXPECT(aclrtRecordEvent(NULL, live_s), null);
    EXPECT(aclrtResetEvent(NULL, live_s), null);
    EXPECT(aclrtStreamWaitEvent(live_s, NULL), null);
    EXPECT(aclrtQueryEvent(NULL, &est), null);
    EXPECT(aclrtQueryEventStatus(NULL, &rst), null);
    EXPECT(aclrtSynchronizeEvent(NULL), null);
    EXPECT(aclrtEventElapsedTime(&ms, NULL, live_e), null);
    EXPECT(aclrtEventGetTimestamp(NULL, &us), null);
    EXPECT(aclrtIpcGetEventHandle(NULL, &h), null);
    EXPECT(aclrtDestroyContext(NULL), null);
    EXPECT(aclrtSetCurrentContext(NULL), null);
    EXPECT(aclrtGetDevice(NULL), null);
    EXPECT(aclrtGetDeviceCount(NULL), null);
    EXPECT(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, NULL), null);
    EXPECT(aclrtDeviceCanAccessPeer(NULL, 0, 0), null);
    EXPECT(aclrtCreateContext(NULL, 0), null);
    EXPECT(aclrtGetCurrentContext(NULL), null);
    EXPECT(aclrtCreateStream(NULL), null);
    EXPECT(aclrtCreateStreamWithConfig(NULL, 0, 0), null);
    EXPECT(aclrtStreamQuery(live_s, NULL), null);
    EXPECT(aclrtLaunchHostFunc(live_s, NULL, NULL), null);
    EXPECT(aclrtCreateEvent(NULL), null);
    EXPECT(aclrtCreateEventWithFlag(NULL, 0), null);
    EXPECT(aclrtCreateEventExWithFlag(NULL, 0), null);
    EXPECT(aclrtQueryEvent(live_e, NULL), null);
    EXPECT(aclrtQueryEventStatus(live_e, NULL), null);
    EXPECT(aclrtEventElapsedTime(NULL, live_e, live_e), null);
    EXPECT(aclrtEventGetTimestamp(live_e, NULL), null);
    EXPECT(aclrtIpcGetEventHandle(live_e, NULL), null);
    EXPECT(aclrtIpcOpenEventHandle(h, NULL), null);
    EXPECT(aclrtMalloc(NULL, 8, ACL_MEM_MALLOC_HUGE_FIRST), null);
    EXPECT(aclrtFree(NULL), null);
    EXPECT(aclrtMallocHost(NULL, 8), null);
    EXPECT(aclrtFreeHost(NULL), null);
    EXPECT(aclrtMemcpy(NULL, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE), null);
    EXPECT(aclrtMemcpy(d, 8, NULL, 8, ACL_MEMCPY_HOST_TO_DEVICE), null);
    EXPECT(aclrtMemset(NULL, 8, 0, 8), null);
    /* Garbage IPC handles and enum values. */
    aclrtEvent opened;
    EXPECT(aclrtIpcOpenEventHandle(h, &opened), ACL_ERROR_RT_IPC_ERROR);
    memset(&h, 0x5A, sizeof h);
    EXPECT(aclrtIpcOpenEventHandle(h, &opened), ACL_ERROR_RT_IPC_ERROR);
    EXPECT(aclrtMemcpy(d, 8, host, 8, (aclrtMemcpyKind)99), null);
    EXPECT(aclrtCreateEventWithFlag(&opened, 0x80000000u), null);

    /* The live handles still work after all that. */
    EXPECT(aclrtRecordEvent(live_e, live_s), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeEvent(live_e), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(live_s), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(live_e), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(live_s), ACL_SUCCESS);
    EXPECT(aclrtFree(d), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
}

/* The streamsim calls: NULL, destroyed, garbage and wrong-kind machine and process handles are
 * STREAMSIM_ERROR_INVALID_HANDLE; NULL out-pointers STREAMSIM_ERROR_INVALID_VALUE. */
static void streamsim_bad_handles(void) {
    streamsimMachine m, dead_m;
    streamsimProcess p, dead_p;
    EXPECT(streamsimMachineCreate(&m, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineCreate(&dead_m, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(dead_m), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&dead_p, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(dead_p), STREAMSIM_SUCCESS);

    int host_variable = 0;
    void *garbage[] = {NULL, (void *)(uintptr_t)0xdeadbeef, (void *)(uintptr_t)UINTPTR_MAX, (void *)&host_variable};
    const streamsimError bad = STREAMSIM_ERROR_INVALID_HANDLE;
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0] + 2; i++) {
        streamsimMachine gm = i < 4 ? (streamsimMachine)garbage[i] : i == 4 ? dead_m : (streamsimMachine)(void *)p;
        streamsimProcess gp = i < 4 ? (streamsimProcess)garbage[i] : i == 4 ? dead_p : (streamsimProcess)(void *)m;
        streamsimProcess out_p;
        streamsimMachine out_m;
        uint32_t n;
        EXPECT(streamsimMachineDestroy(gm), bad);
        EXPECT(streamsimMachineGetDeviceCount(gm, &n), bad);
        EXPECT(streamsimProcessCreate(&out_p, gm), bad);
        EXPECT(streamsimProcessDestroy(gp), bad);
        EXPECT(streamsimProcessGetMachine(gp, &out_m), bad);
        EXPECT(streamsimProcessGetId(gp, &n), bad);
        EXPECT(streamsimBind(gp), bad);
    }
    EXPECT(streamsimUnbind(), STREAMSIM_ERROR_NOT_BOUND);
    EXPECT(streamsimMachineCreate(NULL, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineGetDeviceCount(m, NULL), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimProcessCreate(NULL, m), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimProcessGetMachine(p, NULL), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimProcessGetId(p, NULL), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimDefaultProcess(NULL, STREAMSIM_API_CUDA), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimCurrentProcess(NULL, STREAMSIM_API_CUDA), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimDefaultProcess(&p, (streamsimApi)7), STREAMSIM_ERROR_INVALID_VALUE);
    CHECK(streamsimGetLastErrorMessage((streamsimApi)7) == NULL);
    EXPECT(streamsimProcessDestroy(p), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
}

int main(void) {
    cuda_bad_handles();
    musa_bad_handles();
    acl_bad_handles();
    streamsim_bad_handles();
    printf("NULL, destroyed and garbage handles: vendor codes, no crash\n");
    return 0;
}
