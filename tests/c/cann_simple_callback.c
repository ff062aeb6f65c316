/*
 * The CANN runtime's callback sample, ported: github.com/hicann/runtime,
 * example/2_advanced_features/callback/0_simple_callback/callback_sample.cpp and main.cpp (commit 681ef7610), as
 * C against include/acl/acl.h: a report thread sets the context and loops aclrtProcessReport(100); the main
 * thread subscribes it to the stream, launches a blocking callback, a long task and five blocking callbacks,
 * synchronizes, copies the result back, stops the report thread and unsubscribes. The vendor's expected output:
 * the "before task" callback, then five "after task" callbacks, each on the report thread.
 *
 * Changed from the original:
 * - C instead of C++: the class CallBackSample becomes functions and statics, std::thread a pthread, and the
 *   thread ids are pthread_self() values — what libstdc++ prints for a std::thread::id and the sample parses
 *   with std::stoull; the loop flag is read and written with __atomic builtins;
 * - the kernel launch is the stand-in of cann_sample.h (LongOP: 2 s of virtual time, counting on a host mirror);
 * - the host-function half is not ported. The sample also starts a second thread for aclrtSubscribeHostFunc /
 *   aclrtProcessHostFunc / aclrtUnSubscribeHostFunc, which its own README marks unsupported ("×") on every
 *   product it lists (they are IPV350 only, docs/zh/api_ref/24_other_APIs.md): on those products
 *   CHECK_ERROR(aclrtSubscribeHostFunc(...)) returns early and leaves both std::threads joinable, so the original
 *   ends in std::terminate. And its aclrtLaunchHostFunc on the stream subscribed with aclrtSubscribeReport is
 *   refused by the runtime (ACL_ERROR_RT_STREAM_SUBSCRIBE: `ApiErrorDecorator::LaunchHostFunc`,
 *   src/runtime/api/impl/api_error.cc; the API page of aclrtLaunchCallback says the two callback mechanisms must
 *   not be mixed on one stream). The port keeps that call and expects the runtime's answer;
 * - (not in the sample) the checks marked so.
 */
#include <pthread.h>
#include <stdint.h>

#include "cann_sample.h"
#include "check.h"

static aclrtContext context_ = NULL;
static aclrtStream stream_ = NULL;
static int32_t deviceId_ = 0;
static int callbacks_run = 0;           /* (not in the sample) */
static unsigned long report_thread_id;  /* (not in the sample) */

static int Init(void) {
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId_));
    CHECK_ERROR(aclrtCreateContext(&context_, deviceId_));
    CHECK_ERROR(aclrtCreateStream(&stream_));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
    return 0;
}

static int IsLoopFlag(void *arg) { return __atomic_load_n((int *)arg, __ATOMIC_SEQ_CST); }

static void *ThreadFunc(void *arg) {
    const int waitTime = 100;
    aclError ret = aclrtSetCurrentContext(context_);
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("aclrtSetCurrentContext failed in report thread: %d", (int32_t)ret);
        return NULL;
    }
    while (IsLoopFlag(arg)) {
        aclrtProcessReport(waitTime);
    }
    INFO_LOG("Report callback thread exit");
    return NULL;
}

static void CallBackBeforeLaunchFunc(void *arg) {
    INFO_LOG("Report callback thread id is %lu", (unsigned long)pthread_self());
    int *data = (int *)arg;
    INFO_LOG("This callback before task, result: user data is: %d.", *data);
    CHECK_EQ((unsigned long)pthread_self(), report_thread_id); /* (not in the sample) */
    callbacks_run++;
}

static void CallBackFunc(void *arg) {
    INFO_LOG("Report callback thread id is %lu", (unsigned long)pthread_self());
    int *data = (int *)arg;
    INFO_LOG("This callback after task and loop five times, result: user data is: %d.", *data);
    CHECK_EQ((unsigned long)pthread_self(), report_thread_id); /* (not in the sample) */
    CHECK_EQ(cann_mirror, 1); /* (not in the sample) the long task before it has run */
    callbacks_run++;
}

static void HostFunc(void *arg) {
    INFO_LOG("Hostfunc callback thread id is %lu", (unsigned long)pthread_self());
    int *data = (int *)arg;
    INFO_LOG("Hostfunc executed in subscribed thread, user data is: %d.", *data);
}

static int Callback(void) {
    uint32_t num = 0;
    const int blockDim = 1;
    int isReportLoop = 1;
    const size_t size = sizeof(uint32_t);
    uint32_t *numDevice = NULL;
    const int count = 5;
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */

    pthread_t reportThread;
    CHECK(pthread_create(&reportThread, NULL, ThreadFunc, &isReportLoop) == 0);

    unsigned long mainThreadId = (unsigned long)pthread_self();
    unsigned long reportThreadId = (unsigned long)reportThread;
    report_thread_id = reportThreadId;
    INFO_LOG("The main thread id is %lu", mainThreadId);
    INFO_LOG("The created report thread id is %lu", reportThreadId);

    int *userData = (int *)malloc(sizeof(int));
    *userData = 520;
    uint64_t reportTidInt = (uint64_t)reportThreadId;
    CHECK_ERROR(aclrtSubscribeReport(reportTidInt, stream_));

    CHECK_ERROR(aclrtLaunchCallback(CallBackBeforeLaunchFunc, userData, ACL_CALLBACK_BLOCK, stream_));
    LongOP(blockDim, stream_, numDevice);
    /* The original: CHECK_ERROR(aclrtLaunchHostFunc(stream_, HostFunc, userData)); refused on a subscribed
     * stream (see above). */
    EXPECT(aclrtLaunchHostFunc(stream_, HostFunc, userData), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    INFO_LOG("After begin a task, launch one hostfunc and five callbacks.");
    for (int i = 0; i < count; i++) {
        CHECK_ERROR(aclrtLaunchCallback(CallBackFunc, userData, ACL_CALLBACK_BLOCK, stream_));
    }

    CHECK_ERROR(aclrtSynchronizeStream(stream_));
    CHECK_EQ(callbacks_run, 6); /* (not in the sample) the synchronize waited for the callbacks */
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    INFO_LOG("After assigning the task, the current int is: %d.", (int)num);

    __atomic_store_n(&isReportLoop, 0, __ATOMIC_SEQ_CST);
    CHECK(pthread_join(reportThread, NULL) == 0);
    CHECK_ERROR(aclrtUnSubscribeReport(reportTidInt, stream_));
    CHECK_ERROR(aclrtFree(numDevice));
    free(userData);
    return 0;
}

static int Destroy(void) {
    CHECK_ERROR(aclrtDestroyStreamForce(stream_));
    CHECK_ERROR(aclrtDestroyContext(context_));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId_));
    CHECK_ERROR(aclFinalize());
    return 0;
}

int main(void) {
    CHECK_EQ(Init(), 0);     /* the original ignores the results: (void)callBackSample.Init(); */
    CHECK_EQ(Callback(), 0); /* (void)callBackSample.Callback(); */
    CHECK_EQ(Destroy(), 0);  /* the destructor's Destroy() */
    return 0;
}
