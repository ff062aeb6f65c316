/*
 * The failure-mode pair: one faulting program, run in the mode its argument names ("continue": the default
 * ACL_CONTINUE_ON_FAILURE; "stop": aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE)), printing which of its
 * later tasks ran. Not a port: written for streamsim, after the rows of docs/semantics/acl-runtime-api.md.
 *
 * Two streams of one context: stream runs task 1, a faulting kernel, task 2 and records `event`; other waits on
 * `event`, then runs task 3; task 4 is a kernel on other that nothing orders after the fault. Then the program
 * synchronizes, and tries to enqueue task 5 on stream.
 *
 * continue: tasks 1-5 all run; the fault is reported once (507015), by the first synchronize of `stream`.
 * stop:     task 1 and task 4 run; task 2 (later on the faulted stream) and task 3 (its context's other stream,
 *           ordered after the fault) do not; every synchronize of them reports 507015, and once it is reported,
 *           new tasks (task 5) are refused with 507015.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "check.h"

static int ran[6];

static void task(void *arg) { ran[*(int *)arg] = 1; }

static int fault(void *arg) {
    (void)arg;
    return STREAMSIM_FAULT_ILLEGAL_ADDRESS;
}

static int ids[6] = {0, 1, 2, 3, 4, 5};

int main(int argc, char **argv) {
    CHECK(argc == 2 && (strcmp(argv[1], "continue") == 0 || strcmp(argv[1], "stop") == 0));
    int stop = strcmp(argv[1], "stop") == 0;
    aclrtStream stream, other;
    aclrtEvent event;
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&other), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&event), ACL_SUCCESS);
    if (stop) {
        EXPECT(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
    }
    aclrtStreamAttrValue mode;
    EXPECT(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &mode), ACL_SUCCESS);
    CHECK_EQ(mode.failureMode, stop ? ACL_STOP_ON_FAILURE : ACL_CONTINUE_ON_FAILURE);

    EXPECT(aclsimLaunchKernel(stream, "task1", 10000, task, &ids[1]), ACL_SUCCESS);
    EXPECT(aclsimLaunchFallibleKernel(stream, "faulty", 10000, fault, NULL), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(stream, "task2", 10000, task, &ids[2]), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(other, "task4", 10000, task, &ids[4]), ACL_SUCCESS);
    EXPECT(aclrtStreamWaitEvent(other, event), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(other, "task3", 10000, task, &ids[3]), ACL_SUCCESS);

    EXPECT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_CONTAINS(aclGetRecentErrMsg(), "faulty");
    EXPECT(aclrtSynchronizeStream(stream), stop ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(other), stop ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(stream, "task5", 10000, task, &ids[5]),
           stop ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS);
    if (!stop) {
        EXPECT(aclrtSynchronizeDevice(), ACL_SUCCESS);
    }
    printf("%s:", argv[1]);
    for (int i = 1; i <= 5; i++) {
        printf(" task%d=%s", i, ran[i] ? "ran" : "skipped");
    }
    printf("\n");
    EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    return 0;
}
