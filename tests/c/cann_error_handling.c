/*
 * cann_error_handling.c — the CANN runtime's sample example/0_quickstart/1_error_handling/main.cpp
 * (github.com/hicann/runtime), ported line by line to C against include/acl/acl.h: check every ACL return,
 * query the run mode, trigger an expected invalid-parameter error with aclrtGetRunMode(NULL), then read the
 * thread's diagnostics (aclrtPeekAtLastError, aclrtGetLastError, aclGetRecentErrMsg, aclrtGetErrorVerbose) and
 * read them again once consumed.
 *
 * Beyond the sample, each value is checked: the NULL check is the ACL layer's (100000), which keeps no runtime
 * error, so both reads give 0 (a runtime error, 107001 from aclrtQueryDeviceStatus, shows the difference: Peek
 * keeps it, Get clears it); aclrtGetErrorVerbose, "a reserved interface" that the sample expects to fail, is
 * refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT and leaves errorInfo as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "cann_sample.h"
#include "check.h"

static const char *SafeString(const char *message) { return message != NULL ? message : "<null>"; }

static const char *RunModeToString(aclrtRunMode runMode) { return runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE"; }

static void PrintVerboseErrorInfo(int32_t deviceId) {
    aclrtErrorInfo errorInfo;
    memset(&errorInfo, 0, sizeof errorInfo);
    errorInfo.tryRepair = 7;
    aclError verboseRet = aclrtGetErrorVerbose(deviceId, &errorInfo);
    CHECK_EQ(verboseRet, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_EQ(errorInfo.tryRepair, 7);
    if (verboseRet != ACL_SUCCESS) {
        WARN_LOG("aclrtGetErrorVerbose(%d) returned error code %d", deviceId, (int32_t)verboseRet);
        return;
    }
    INFO_LOG("Verbose error info: errorType=%d, tryRepair=%u, hasDetail=%u", (int32_t)errorInfo.errorType,
             (uint32_t)errorInfo.tryRepair, (uint32_t)errorInfo.hasDetail);
}

#define CHECK_ACL_RETURN(call)                                            \
    do {                                                                  \
        aclError ret_ = (call);                                           \
        if (ret_ != ACL_SUCCESS) {                                        \
            ERROR_LOG("%s failed: ret=%d", #call, (int32_t)ret_);         \
            return -1;                                                    \
        }                                                                 \
    } while (0)

int main(void) {
    const int32_t deviceId = 0;

    /* Initialize ACL and bind the current thread to a device. */
    CHECK_ACL_RETURN(aclInit(NULL));
    CHECK_ACL_RETURN(aclrtSetDevice(deviceId));
    INFO_LOG("ACL init and set device successfully");

    /* Query the run mode before triggering an expected API failure. */
    aclrtRunMode runMode = ACL_HOST;
    CHECK_ACL_RETURN(aclrtGetRunMode(&runMode));
    INFO_LOG("Current run mode: %s", RunModeToString(runMode));

    /* Collect thread-level diagnostics after an invalid-parameter call. */
    INFO_LOG("Triggering an expected invalid-parameter error with aclrtGetRunMode(nullptr)");
    aclError expectedRet = aclrtGetRunMode(NULL);
    CHECK_EQ(expectedRet, ACL_ERROR_INVALID_PARAM);
    if (expectedRet == ACL_SUCCESS) {
        WARN_LOG("Expected aclrtGetRunMode(nullptr) to fail, but it succeeded");
    } else {
        aclError peekError = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        aclError lastError = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
        const char *recentErrMsg = aclGetRecentErrMsg();
        CHECK_EQ(peekError, ACL_SUCCESS);
        CHECK_EQ(lastError, ACL_SUCCESS);
        CHECK_CONTAINS(recentErrMsg, "aclrtGetRunMode");
        ERROR_LOG("Diagnostics: ret=%d, peekErr=%d, lastErr=%d", (int32_t)expectedRet, (int32_t)peekError,
                  (int32_t)lastError);
        PrintVerboseErrorInfo(deviceId);

        /* Read the diagnostics again to show the consumed state. */
        aclError clearedPeek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        aclError clearedLast = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
        const char *clearedErrMsg = aclGetRecentErrMsg();
        /* aclrtGetErrorVerbose's refusal is a runtime code: the thread's last error until the Get. */
        CHECK_EQ(clearedPeek, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        CHECK_EQ(clearedLast, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        INFO_LOG("After diagnostics are consumed once: peekErr=%d, lastErr=%d, recentErrMsg present: %s",
                 (int32_t)clearedPeek, (int32_t)clearedLast, clearedErrMsg != NULL ? "yes" : "no");
        (void)SafeString;
    }

    /* Not in the sample: a runtime error is kept by Peek and cleared by Get. */
    aclrtDeviceStatus status;
    CHECK_EQ(aclrtQueryDeviceStatus(64, &status), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    INFO_LOG("Runtime error kept by peek, cleared by get");

    /* Release ACL resources. */
    CHECK_ACL_RETURN(aclrtResetDeviceForce(deviceId));
    CHECK_ACL_RETURN(aclFinalize());
    INFO_LOG("ACL finalize successfully");
    return 0;
}
