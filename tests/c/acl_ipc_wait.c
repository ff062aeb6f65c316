/*
 * ACL: an ACL_EVENT_IPC event waited on with aclrtStreamWaitEvent after aclrtIpcOpenEventHandle, on one device
 * and across devices, and recorded by the opener on its own stream (reference/acl.md · Events ·
 * StreamWaitEvent · an ACL_EVENT_IPC event; opened IPC event).
 *
 * Ported from the CANN runtime's own samples, github.com/hicann/runtime (commit 681ef7610):
 *  1. example/2_advanced_features/ipcevent/0_ipcevent (proc_a.cpp, proc_b.cpp): A creates an IPC event,
 *     records it, exports the handle; B opens it, waits on it, records it to notify A;
 *  2. example/2_advanced_features/ipcevent/1_ipcevent_multi_device (proc_a.cpp, proc_b.cpp, precheck.cpp): a
 *     producer on device 0, consumers on devices 1.. (run.sh's CONSUMER_NUM, here 2), each waiting on the
 *     producer's event on its own device and recording it.
 * Every runtime call and check of the samples is kept, in its order. Changed, because the samples are several
 * OS processes talking through files and IPC between OS processes is not simulated: each process is a
 * simulated process (streamsimProcessCreate) on a machine of 3 devices (streamsimMachineCreate), run on its
 * own host thread bound to it (streamsimBind); the files (event_handle.bin, consumer_done.flag,
 * consumer_N.done) become host memory guarded by a mutex and a condition variable, and the samples' 1-second
 * polling loops (sleep / access) become waits on them; the "simulate some work" usleep calls are dropped (time
 * is virtual); part 2's consumers run one after the other, not at once (see main: their status checks race
 * with each other's records of the shared event); CHECK_ERROR(call) is EXPECT(call, ACL_SUCCESS) and INFO_LOG / ERROR_LOG are printf; the
 * samples' `return -1` on a wrong status is a CHECK. Added, marked "not in the sample": in part 1, A runs a
 * 1 ms kernel before its record, and B records a timed event of its own right after its wait, whose timestamp
 * (aclrtEventGetTimestamp, µs) proves that B's stream waited for A's record: 1007 µs on B's stream, exactly;
 * A sees B's record of the shared event; the flags and calls the docs forbid for an IPC event fail.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#include "check.h"

#define CHECK_ERROR(call) EXPECT(call, ACL_SUCCESS)
#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))

#define CONSUMER_NUM 2

/* ------------------------------------------------------------------ the files, as host memory between threads */

typedef struct Mailbox {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int posted;
    aclrtIpcEventHandle handle;
} Mailbox;

static Mailbox EVENT_HANDLE_FILE = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}};
static Mailbox DONE_FILE = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}};
static Mailbox MULTI_HANDLE_FILE = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}};
static Mailbox CONSUMER_DONE = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}};

/* fwrite + fclose: the bytes (if any) are there and the file exists. */
static void post(Mailbox *m, const aclrtIpcEventHandle *handle) {
    CHECK(pthread_mutex_lock(&m->mu) == 0);
    if (handle != NULL) {
        memcpy(&m->handle, handle, sizeof *handle);
    }
    m->posted++;
    CHECK(pthread_cond_broadcast(&m->cv) == 0);
    CHECK(pthread_mutex_unlock(&m->mu) == 0);
}

/* while (access(FILE, F_OK) != 0) sleep(1); fread: waits until `count` posts, then reads the bytes. */
static void wait_for(Mailbox *m, int count, aclrtIpcEventHandle *handle) {
    CHECK(pthread_mutex_lock(&m->mu) == 0);
    while (m->posted < count) {
        CHECK(pthread_cond_wait(&m->cv, &m->mu) == 0);
    }
    if (handle != NULL) {
        memcpy(handle, &m->handle, sizeof *handle);
    }
    CHECK(pthread_mutex_unlock(&m->mu) == 0);
}

/* ------------------------------------------------------------------ part 1: 0_ipcevent */

static uint64_t b_after_wait_us; /* (not in the sample) */

static void *proc_a(void *process) {
    EXPECT(streamsimBind((streamsimProcess)process), STREAMSIM_SUCCESS);
    CHECK_ERROR(aclInit(NULL));

    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 创建支持IPC的事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Process A: IPC event created");

    /* (not in the sample) the producer's own task: 1 ms, 7..1007 µs */
    CHECK_ERROR(aclsimLaunchKernel(stream, "producer", 1000000, NULL, NULL));
    // 2. 记录事件（模拟生产者自身任务完成）
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process A: event recorded and synchronized");

    // 3. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    INFO_LOG("Process A: event status = %d (1=completed)", status);

    // 4. 导出IPC事件句柄（二进制写入文件）
    aclrtIpcEventHandle handle;
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    post(&EVENT_HANDLE_FILE, &handle);
    INFO_LOG("Process A: IPC event handle written to %s", "./event_handle.bin");

    // 5. 等待消费者完成（等待标志文件出现）
    INFO_LOG("Process A: waiting for consumer to finish...");
    wait_for(&DONE_FILE, 1, NULL);
    INFO_LOG("Process A: consumer finished");

    /* (not in the sample) B's record of the shared event is the newest: A waits for it and sees it complete */
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    /* (not in the sample) what the docs forbid for an IPC event */
    aclrtEventStatus deprecated;
    EXPECT(aclrtQueryEvent(ipcEvent, &deprecated), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT(aclrtResetEvent(ipcEvent, stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    aclrtEvent combined = NULL;
    EXPECT(aclrtCreateEventExWithFlag(&combined, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);

    // 6. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    INFO_LOG("Process A: cleanup completed");
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

static void *proc_b(void *process) {
    EXPECT(streamsimBind((streamsimProcess)process), STREAMSIM_SUCCESS);
    CHECK_ERROR(aclInit(NULL));

    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 等待生产者创建事件句柄文件
    INFO_LOG("Process B: waiting for event handle file...");
    // 2. 二进制读取事件句柄
    aclrtIpcEventHandle handle;
    wait_for(&EVENT_HANDLE_FILE, 1, &handle);
    INFO_LOG("Process B: read event handle");

    // 3. 打开IPC事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Process B: IPC event opened");

    // 4. 在流中等待该事件（等待生产者记录的事件）
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    /* (not in the sample) a timed event right after the wait: at A's record, 1007 µs */
    aclrtEvent after = NULL;
    CHECK_ERROR(aclrtCreateEvent(&after));
    CHECK_ERROR(aclrtRecordEvent(after, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Process B: event received, stream synchronized");
    CHECK_ERROR(aclrtEventGetTimestamp(after, &b_after_wait_us));

    // 5. 模拟消费者自身的工作 (usleep dropped: time is virtual)
    INFO_LOG("Process B: doing some work...");

    // 6. 记录事件，通知生产者
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process B: event recorded");

    // 7. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Process B: event status = %d (1=completed)", status);
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);

    // 8. 创建完成标志文件，通知生产者
    post(&DONE_FILE, NULL);
    INFO_LOG("Process B: completion flag created");

    // 9. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    CHECK_ERROR(aclrtDestroyEvent(after));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    INFO_LOG("Process B: cleanup completed");
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

/* ------------------------------------------------------------------ part 2: 1_ipcevent_multi_device */

typedef struct Consumer {
    streamsimProcess process;
    int32_t deviceId;
    int consumerId;
} Consumer;

/* precheck.cpp: the producer's own machine must have enough devices. */
static int precheck(int requiredDeviceCount) {
    CHECK_ERROR(aclInit(NULL));
    uint32_t deviceCount = 0;
    aclError ret = aclrtGetDeviceCount(&deviceCount);
    aclFinalize();
    CHECK_ERROR(ret);
    INFO_LOG("Available device count: %u, required device count: %d", deviceCount, requiredDeviceCount);
    return deviceCount < (uint32_t)requiredDeviceCount ? 2 : 0;
}

static void *multi_producer(void *process) {
    EXPECT(streamsimBind((streamsimProcess)process), STREAMSIM_SUCCESS);
    int consumerNum = CONSUMER_NUM;
    CHECK_EQ(precheck(consumerNum + 1), 0);

    CHECK_ERROR(aclInit(NULL));

    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 创建支持IPC的事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Producer: IPC event created on device %d", deviceId);

    // 2. 记录事件（模拟生产者自身任务完成）
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));

    // 3. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    INFO_LOG("Producer: event status = %d (1=completed)", status);

    // 4. 导出IPC事件句柄（二进制写入文件）
    aclrtIpcEventHandle handle;
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    post(&MULTI_HANDLE_FILE, &handle);
    INFO_LOG("Producer: IPC event handle written to %s", "./event_handle.bin");

    // 5. 等待所有消费者完成
    INFO_LOG("Producer: waiting for %d consumer(s) to finish...", consumerNum);
    wait_for(&CONSUMER_DONE, consumerNum, NULL);
    INFO_LOG("All %d consumers have finished.", consumerNum);

    // 6. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    INFO_LOG("Producer: finished successfully.");
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

static void *multi_consumer(void *arg) {
    const Consumer *c = (const Consumer *)arg;
    EXPECT(streamsimBind(c->process), STREAMSIM_SUCCESS);
    int32_t deviceId = c->deviceId;
    int consumerId = c->consumerId;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 等待生产者创建事件句柄文件
    INFO_LOG("Consumer %d (device %d): waiting for event handle file...", consumerId, deviceId);
    // 2. 二进制读取事件句柄
    aclrtIpcEventHandle handle;
    wait_for(&MULTI_HANDLE_FILE, 1, &handle);
    INFO_LOG("Consumer %d: read event handle", consumerId);

    // 3. 打开IPC事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Consumer %d: IPC event opened on device %d", consumerId, deviceId);

    // 4. 在流中等待该事件（等待生产者记录的事件）
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Consumer %d: event received, stream synchronized", consumerId);

    // 5. 模拟消费者自身的工作 (usleep dropped: time is virtual)
    INFO_LOG("Consumer %d: doing some work...", consumerId);

    // 6. 记录事件，通知其他等待者（这里主要是为了演示，实际已无等待者）
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));

    // 7. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Consumer %d: event status = %d (1=completed)", consumerId, status);
    CHECK_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);

    // 8. 创建完成标志文件，通知生产者
    post(&CONSUMER_DONE, NULL);
    INFO_LOG("Consumer %d: completion flag created", consumerId);

    // 9. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    INFO_LOG("Consumer %d (device %d) finished successfully.", consumerId, deviceId);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

int main(void) {
    streamsimMachine machine;
    EXPECT(streamsimMachineCreate(&machine, STREAMSIM_DIALECT_ACL, CONSUMER_NUM + 1, 0), STREAMSIM_SUCCESS);

    /* part 1: run.sh starts proc_a and proc_b together */
    streamsimProcess a, b;
    EXPECT(streamsimProcessCreate(&a, machine), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&b, machine), STREAMSIM_SUCCESS);
    pthread_t ta, tb;
    CHECK(pthread_create(&ta, NULL, proc_a, a) == 0);
    CHECK(pthread_create(&tb, NULL, proc_b, b) == 0);
    CHECK(pthread_join(ta, NULL) == 0);
    CHECK(pthread_join(tb, NULL) == 0);
    CHECK_EQ(b_after_wait_us, 1007); /* (not in the sample) B's stream waited for A's record, exactly */
    printf("[SUCCESS] IPC event synchronization works correctly.\n");

    /* part 2: the producer on device 0, consumer i on device i */
    streamsimProcess producer;
    EXPECT(streamsimProcessCreate(&producer, machine), STREAMSIM_SUCCESS);
    Consumer consumers[CONSUMER_NUM];
    pthread_t tp, tc[CONSUMER_NUM];
    CHECK(pthread_create(&tp, NULL, multi_producer, producer) == 0);
    for (int i = 0; i < CONSUMER_NUM; i++) {
        consumers[i].deviceId = i + 1;
        consumers[i].consumerId = i + 1;
        EXPECT(streamsimProcessCreate(&consumers[i].process, machine), STREAMSIM_SUCCESS);
        INFO_LOG("Starting consumer %d on device %d", consumers[i].consumerId, consumers[i].deviceId);
        CHECK(pthread_create(&tc[i], NULL, multi_consumer, &consumers[i]) == 0);
        /* One consumer after the other (run.sh starts them together): every consumer records the same IPC
         * event, so with two at once one consumer's status query can see the other's newer record still
         * running and answer NOT_READY (on hardware too); the sample's check assumes it does not happen. */
        CHECK(pthread_join(tc[i], NULL) == 0);
    }
    CHECK(pthread_join(tp, NULL) == 0);
    for (int i = 0; i < CONSUMER_NUM; i++) {
        EXPECT(streamsimProcessDestroy(consumers[i].process), STREAMSIM_SUCCESS);
    }
    printf("[SUCCESS] IPC event multi-device synchronization works correctly.\n");

    EXPECT(streamsimProcessDestroy(a), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(b), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(producer), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(machine), STREAMSIM_SUCCESS);
    return 0;
}
