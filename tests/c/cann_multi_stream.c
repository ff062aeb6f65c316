/*
 * The CANN runtime's multi-stream sample, ported: github.com/hicann/runtime,
 * example/1_basic_features/stream/2_multi_stream/main.cpp (commit 681ef7610), line by line as C against
 * include/acl/acl.h: three ways to order a short task (num *= 2) on stream2 after a long one (num += 1) on
 * stream1 — stream synchronization, an event, a notify — each expected to print "The answer is 2", and a
 * synchronize with a 1000 ms timeout that runs out (the long task takes 2 s here).
 *
 * Changed from the original: the kernel launches are the stand-ins of cann_sample.h, which compute on a host
 * mirror of the device counter; the lines marked "(stand-in)" keep it equal to the counter the sample copies to
 * and from. The sample ignores aclInit's result after the first (ACL_ERROR_REPEAT_INITIALIZE), as here. The
 * final EXPECTs (not in the sample) check what it only prints.
 */
#include <stdint.h>

#include "cann_sample.h"
#include "check.h"

#define kWaitTimeMs 1000
#define kDeviceId 0
#define kBlockDim 1

static uint32_t answers[3];

/* Event同步 */
static int EventSynchronization(void) {
    uint32_t num = 0;
    uint32_t *numDevice = NULL;
    size_t size = sizeof(uint32_t);
    aclrtContext context = NULL;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    aclrtEvent event = NULL;
    aclInit(NULL);

    /* 申请设备 */
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    /* 默认为遇错继续执行，调用该函数设置为遇错即停，当一个任务执行遇到错误，后续任务将不进行。 */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtCreateEvent(&event));
    INFO_LOG("Use event synchronize.");
    /* 开始做长任务 */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream1));
    INFO_LOG("Event synchronize.");
    CHECK_ERROR(aclrtStreamWaitEvent(stream2, event));

    /* 复位event，确保在同步后再复位，可以重复使用event，节省资源。 */
    CHECK_ERROR(aclrtResetEvent(event, stream2));
    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream2));
    CHECK_ERROR(aclrtSynchronizeEvent(event));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    /* 按照顺序执行结果应该为2 */
    INFO_LOG("The answer is %d.", (int)num);
    answers[1] = num;

    /* event超时等待 */
    INFO_LOG("Simulate timeout, wait 1000ms, the task will fail.");
    LongOP(kBlockDim, stream1, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream1));
    /* 流的超时等待，如果超时直接报函数错误，将时间变长则不会报错。 */
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeEventWithTimeout(event, kWaitTimeMs));

    /* 释放资源 */
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}

/* Stream同步 */
static int StreamSynchronization(void) {
    uint32_t num = 0;
    uint32_t *numDevice = NULL;
    size_t size = sizeof(uint32_t);
    aclrtContext context = NULL;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    aclInit(NULL);

    /* 申请设备 */
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    /* 默认为遇错继续执行，调用该函数设置为遇错即停，当一个任务执行遇到错误，后续任务将不进行。 */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    INFO_LOG("Use stream synchronize.");
    /* 开始做长任务 */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    INFO_LOG("Stream synchronize.");
    CHECK_ERROR(aclrtSynchronizeStream(stream1));

    /* 复位event，确保在同步后再复位，可以重复使用event，节省资源。 */
    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(stream2));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    /* 按照顺序执行结果应该为2 */
    INFO_LOG("The answer is %d.", (int)num);
    answers[0] = num;

    /* event超时等待 */
    INFO_LOG("Simulate timeout, wait 1000ms, the task will fail.");
    LongOP(kBlockDim, stream1, numDevice);
    /* 流的超时等待，如果超时直接报函数错误，将时间变长则不会报错。 */
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStreamWithTimeout(stream1, kWaitTimeMs));

    /* 释放资源 */
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}

/* Notify同步 */
static int NotifySynchronization(void) {
    uint32_t num = 0;
    uint32_t *numDevice = NULL;
    size_t size = sizeof(uint32_t);
    aclrtContext context = NULL;
    aclrtNotify notify;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    aclInit(NULL);

    /* 申请设备 */
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    CHECK_ERROR(aclrtCreateNotify(&notify, 0x00U));
    /* 默认为遇错继续执行，调用该函数设置为遇错即停，当一个任务执行遇到错误，后续任务将不进行。 */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    INFO_LOG("Use notify synchronize.");
    /* 开始做长任务 */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    INFO_LOG("Stream synchronize.");
    CHECK_ERROR(aclrtRecordNotify(notify, stream1));

    CHECK_ERROR(aclrtWaitAndResetNotify(notify, stream2, 0));
    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(stream2));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    /* 按照顺序执行结果应该为2 */
    INFO_LOG("The answer is %d.", (int)num);
    answers[2] = num;
    /* 释放资源 */
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyNotify(notify));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}

int main(void) {
    /* 每个函数代表一种同步的方法 */
    int r0 = StreamSynchronization();
    int r1 = EventSynchronization();
    int r2 = NotifySynchronization();
    /* (not in the sample) */
    CHECK_EQ(r0, 0);
    CHECK_EQ(r1, 0);
    CHECK_EQ(r2, 0);
    CHECK_EQ(answers[0], 2);
    CHECK_EQ(answers[1], 2);
    CHECK_EQ(answers[2], 2);
    return 0;
}
