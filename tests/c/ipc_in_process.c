/*
 * IPC events between two simulated processes inside one OS process, from C:
 *  1. the MUSA events article §2.3 (IPC Event) with musa names: process A is the MUSA default process,
 *     process B a second process created on its machine with streamsimProcessCreate and bound with streamsimBind;
 *  2. the same exchange with acl names on a machine made with streamsimMachineCreate, process B on its own
 *     host thread (bindings are per thread).
 */
#include <pthread.h>

#include <musa_runtime.h>
#include "acl/acl.h"

#include "check.h"

/* The host memory through which the handle travels (进程间通过任何主机侧IPC手段传递handle). */
static unsigned char IPC_Shared[64];

static int a_kernel_ran, b_saw_a_kernel;

static void a_kernel(void *unused) {
    (void)unused;
    a_kernel_ran = 1;
}

static void b_kernel(void *unused) {
    (void)unused;
    b_saw_a_kernel = a_kernel_ran;
}

static void musa_section_2_3(void) {
    streamsimProcess a, b;
    streamsimMachine machine;
    EXPECT(streamsimDefaultProcess(&a, STREAMSIM_API_MUSA), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessGetMachine(a, &machine), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&b, machine), STREAMSIM_SUCCESS);
    uint32_t ida = 99, idb = 99;
    EXPECT(streamsimProcessGetId(a, &ida), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessGetId(b, &idb), STREAMSIM_SUCCESS);
    CHECK(ida != idb);

    /* 进程A (not bound: the default process) */
    musaEvent_t event;
    musaIpcEventHandle_t handle;
    EXPECT(musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess), musaSuccess);
    EXPECT(musaIpcGetEventHandle(&handle, event), musaSuccess);
    memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));
    musaEvent_t own;
    EXPECT(musaIpcOpenEventHandle(&own, handle), musaErrorDeviceUninitialized); /* in the exporting process */
    EXPECT(musasimLaunchKernel(0, "producer", 1000000, a_kernel, NULL), musaSuccess);
    EXPECT(musaEventRecord(event, 0), musaSuccess);

    /* 进程B */
    EXPECT(streamsimBind(b), STREAMSIM_SUCCESS);
    musaIpcEventHandle_t ipc_handle;
    musaEvent_t ipc_event;
    musaStream_t stream;
    memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t));
    EXPECT(musaIpcOpenEventHandle(&ipc_event, ipc_handle), musaSuccess);
    EXPECT(musaStreamCreate(&stream), musaSuccess);
    EXPECT(musaStreamWaitEvent(stream, ipc_event, 0), musaSuccess);
    EXPECT(musasimLaunchKernel(stream, "consumer", 1000, b_kernel, NULL), musaSuccess);
    /* B's calls go to B: A's event handle is another process's. */
    EXPECT(musaEventQuery(event), musaErrorInvalidResourceHandle);
    EXPECT(musaEventQuery(ipc_event), musaErrorNotReady);
    float ms;
    /* 如果你使用了IPC类型的event，就无法通过这个event获取时间戳了 */
    EXPECT(musaEventElapsedTime(&ms, ipc_event, ipc_event), musaErrorInvalidResourceHandle);
    musaIpcEventHandle_t zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    musaEvent_t bad;
    EXPECT(musaIpcOpenEventHandle(&bad, zeroed), musaErrorInvalidValue);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_MUSA), "not exported on this simulated machine");
    EXPECT(musaStreamSynchronize(stream), musaSuccess);
    CHECK(b_saw_a_kernel); /* B's kernel ran after A's */
    EXPECT(musaEventQuery(ipc_event), musaSuccess);
    EXPECT(musaEventDestroy(ipc_event), musaSuccess);
    EXPECT(musaStreamDestroy(stream), musaSuccess);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);

    /* Back in A. Each simulated process has its own virtual host clock: A has not waited for anything yet. */
    EXPECT(musaEventQuery(event), musaErrorNotReady);
    EXPECT(musaEventSynchronize(event), musaSuccess);
    EXPECT(musaEventQuery(event), musaSuccess);
    EXPECT(musaEventDestroy(event), musaSuccess);
    EXPECT(streamsimProcessDestroy(b), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(a), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(machine), STREAMSIM_SUCCESS);
}

/* Process B of the ACL exchange, on its own host thread. */
struct acl_b {
    streamsimProcess process;
    aclrtEventRecordedStatus before;
    aclError open, wait_sync, elapsed, zeroed;
    char zeroed_message[512];
    int saw_a_kernel;
};

static void *acl_process_b(void *arg) {
    struct acl_b *b = (struct acl_b *)arg;
    EXPECT(streamsimBind(b->process), STREAMSIM_SUCCESS);
    aclrtIpcEventHandle handle;
    memcpy(&handle, IPC_Shared, sizeof handle);
    aclrtEvent event = NULL;
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    b->open = aclrtIpcOpenEventHandle(handle, &event);
    EXPECT(aclrtQueryEventStatus(event, &b->before), ACL_SUCCESS);
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(aclrtStreamWaitEvent(stream, event), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(stream, "consumer", 1000, b_kernel, NULL), ACL_SUCCESS);
    b->wait_sync = aclrtSynchronizeStream(stream);
    b->saw_a_kernel = b_saw_a_kernel;
    float ms;
    b->elapsed = aclrtEventElapsedTime(&ms, event, event);
    aclrtIpcEventHandle zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    aclrtEvent bad;
    b->zeroed = aclrtIpcOpenEventHandle(zeroed, &bad);
    const char *m = aclGetRecentErrMsg();
    snprintf(b->zeroed_message, sizeof b->zeroed_message, "%s", m == NULL ? "(NULL)" : m);
    EXPECT(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

static void acl_two_threads(void) {
    streamsimMachine machine;
    streamsimProcess a;
    struct acl_b b;
    memset(&b, 0, sizeof b);
    a_kernel_ran = b_saw_a_kernel = 0;
    EXPECT(streamsimMachineCreate(&machine, STREAMSIM_DIALECT_ACL, 1, 42), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&a, machine), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&b.process, machine), STREAMSIM_SUCCESS);

    EXPECT(streamsimBind(a), STREAMSIM_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtEvent event;
    aclrtIpcEventHandle handle;
    EXPECT(aclrtCreateEventWithFlag(&event, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_SUCCESS);
    EXPECT(aclrtIpcGetEventHandle(event, &handle), ACL_SUCCESS);
    aclrtEvent own;
    EXPECT(aclrtIpcOpenEventHandle(handle, &own), ACL_ERROR_RT_IPC_ERROR); /* one's own handle */
    memcpy(IPC_Shared, &handle, sizeof handle);
    EXPECT(aclsimLaunchKernel(NULL, "producer", 1000000, a_kernel, NULL), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event, NULL), ACL_SUCCESS);

    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, acl_process_b, &b) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    EXPECT(b.open, ACL_SUCCESS);
    CHECK_EQ(b.before, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT(b.wait_sync, ACL_SUCCESS);
    CHECK(b.saw_a_kernel);
    EXPECT(b.elapsed, ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* IPC events have no timing */
    EXPECT(b.zeroed, ACL_ERROR_RT_IPC_ERROR);
    CHECK_CONTAINS(b.zeroed_message, "not exported on this simulated machine");

    /* This thread is still bound to A. */
    EXPECT(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    EXPECT(streamsimUnbind(), STREAMSIM_ERROR_NOT_BOUND);
    EXPECT(streamsimProcessDestroy(a), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(b.process), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(machine), STREAMSIM_SUCCESS);
}

int main(void) {
    musa_section_2_3();
    acl_two_threads();
    printf("IPC between simulated processes: ok\n");
    return 0;
}
