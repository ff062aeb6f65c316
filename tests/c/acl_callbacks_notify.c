/*
 * Callbacks and notifies, in the block type its argument names ("block": ACL_CALLBACK_BLOCK; "no-block":
 * ACL_CALLBACK_NO_BLOCK), printing the order in which the tasks' effects happened. Not a port (the vendor's own
 * callback sample is ported in cann_simple_callback.c, for blocking callbacks only); written for streamsim
 * after the API pages of aclrtLaunchCallback / aclrtSubscribeReport / aclrtProcessReport and the notify guide
 * (docs/semantics/acl-runtime-api.md).
 *
 * stream1: kernel A, a callback, kernel B, a notify record. stream2: a wait for the notify (enqueued before the
 * record, as in the notify guide's example), kernel C. A report thread, subscribed to stream1, runs the
 * callback in its aclrtProcessReport.
 *
 * block:    the callback holds stream1's later tasks: A, callback, B, C — the synchronize of stream1 returns only
 *           once the report thread has run it.
 * no-block: stream1 goes on: the synchronizes of both streams return before the callback has run (the report
 *           thread starts processing only then): A, B, C, callback.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "check.h"

static const char *order[8];
static int next_slot = 0;
static int processing = 0; /* the report thread processes reports while set */
static int stopping = 0;
static aclrtContext context;
static int known = 0; /* the report thread has made its first call */
static unsigned long report_thread;

static void note(void *name) {
    order[__atomic_fetch_add(&next_slot, 1, __ATOMIC_SEQ_CST)] = (const char *)name;
}

static void on_callback(void *name) {
    CHECK_EQ((unsigned long)pthread_self(), report_thread); /* runs on the subscribed thread */
    note(name);
}

static void *report_main(void *arg) {
    (void)arg;
    EXPECT(aclrtSetCurrentContext(context), ACL_SUCCESS); /* the thread is known to the runtime from here */
    __atomic_store_n(&known, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&stopping, __ATOMIC_SEQ_CST)) {
        if (__atomic_load_n(&processing, __ATOMIC_SEQ_CST)) {
            aclError r = aclrtProcessReport(10);
            CHECK(r == ACL_SUCCESS || r == ACL_ERROR_RT_REPORT_TIMEOUT);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    CHECK(argc == 2 && (strcmp(argv[1], "block") == 0 || strcmp(argv[1], "no-block") == 0));
    int block = strcmp(argv[1], "block") == 0;
    aclrtStream s1, s2;
    aclrtNotify n;
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&s1), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&s2), ACL_SUCCESS);
    EXPECT(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);

    pthread_t t;
    CHECK(pthread_create(&t, NULL, report_main, NULL) == 0);
    report_thread = (unsigned long)t;
    while (!__atomic_load_n(&known, __ATOMIC_SEQ_CST)) {
    }
    EXPECT(aclrtLaunchCallback(on_callback, (void *)"callback", ACL_CALLBACK_BLOCK, s1), ACL_ERROR_RT_STREAM_NO_CB_REG);
    EXPECT(aclrtSubscribeReport((uint64_t)report_thread, s1), ACL_SUCCESS);
    if (block) {
        __atomic_store_n(&processing, 1, __ATOMIC_SEQ_CST);
    }

    EXPECT(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS); /* before its record */
    EXPECT(aclsimLaunchKernel(s2, "C", 10000, note, (void *)"C"), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(s1, "A", 10000, note, (void *)"A"), ACL_SUCCESS);
    EXPECT(aclrtLaunchCallback(on_callback, (void *)"callback", block ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK,
                               s1),
           ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(s1, "B", 10000, note, (void *)"B"), ACL_SUCCESS);
    EXPECT(aclrtRecordNotify(n, s1), ACL_SUCCESS);

    EXPECT(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    if (!block) {
        CHECK_EQ(__atomic_load_n(&next_slot, __ATOMIC_SEQ_CST), 3); /* A, B, C: the callback has not run */
        __atomic_store_n(&processing, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&next_slot, __ATOMIC_SEQ_CST) < 4) {
        }
    }
    __atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
    CHECK(pthread_join(t, NULL) == 0);
    EXPECT(aclrtUnSubscribeReport((uint64_t)report_thread, s1), ACL_SUCCESS);
    EXPECT(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE); /* this thread was never subscribed */

    printf("%s:", argv[1]);
    for (int i = 0; i < next_slot; i++) {
        printf(" %s", order[i]);
    }
    printf("\n");
    EXPECT(aclrtDestroyNotify(n), ACL_SUCCESS);
    EXPECT(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    return 0;
}
