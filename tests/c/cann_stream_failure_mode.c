/*
 * The CANN runtime's stream failure-mode sample, ported: github.com/hicann/runtime,
 * example/1_basic_features/stream/1_stream_with_failure_mode/main.cpp (commit 681ef7610), main() line by line as
 * C against include/acl/acl.h. The same faulting program (EasyOP, ErrorOP, EasyOP) runs in the default mode
 * ACL_CONTINUE_ON_FAILURE and then in ACL_STOP_ON_FAILURE: the vendor's expected output is "the result is 2"
 * (the second EasyOP ran) and then "the current result is: 1" (it did not), each after a synchronize that
 * reports the fault.
 *
 * Changed from the original:
 * - the kernel launches are the stand-ins of cann_sample.h, which count on a host mirror of the device counter;
 *   the lines marked "(stand-in)" keep that mirror equal to the device counter the sample copies to and from
 *   (set after the copy to the device, read after the copy back);
 * - not ported: the stream-state callback (aclrtRegStreamStateCallback) and the two helper demos of
 *   aclrtStreamStop / aclrtStreamAbort (DemonstrateStopAndAbort), which streamsim does not simulate;
 * - StreamStateCallback, LogOptionalResult and the demo helpers, only used by those, are left out;
 * - (not in the sample) the final EXPECTs check what the sample only prints.
 */
#include <stdint.h>

#include "cann_sample.h"
#include "check.h"

static int run(uint32_t *without, uint32_t *with) {
    const int32_t deviceId = 0;
    const uint32_t blockDim = 1;
    uint32_t num = 0;
    uint32_t *numDevice = NULL;
    const size_t size = sizeof(uint32_t);
    aclrtStream stream = NULL;
    aclrtContext context = NULL;

    CHECK_ERROR(aclInit(NULL));

    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */

    INFO_LOG("Assigning task without failure mode.");
    EasyOP(blockDim, stream, numDevice);
    ErrorOP(blockDim, stream);
    EasyOP(blockDim, stream, numDevice);
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    INFO_LOG("Without failure mode, the result is %d.", (int)num);
    *without = num;

    num = 0;
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    cann_mirror = num; /* (stand-in) */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    INFO_LOG("Assigning task with failure mode.");
    EasyOP(blockDim, stream, numDevice);
    ErrorOP(blockDim, stream);
    EasyOP(blockDim, stream, numDevice);
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    num = cann_mirror; /* (stand-in) */
    INFO_LOG("After set failure mode, the current result is: %d.", (int)num);
    *with = num;

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    INFO_LOG("Run the stream_with_failure_mode sample successfully.");
    return 0;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    uint32_t without = 99, with = 99;
    int r = run(&without, &with);
    /* (not in the sample) */
    CHECK_EQ(r, 0);
    CHECK_EQ(without, 2);
    CHECK_EQ(with, 1);
    return 0;
}
