/*
 * ACL: aclrtMemset / aclrtMemsetAsync of host memory from aclrtMallocHost (reference/acl.md · Memset /
 * MemsetAsync · host memory from aclrtMallocHost → works).
 *
 * Ported from the CANN runtime's own sample: github.com/hicann/runtime (commit 681ef7610),
 * example/1_basic_features/device/2_device_P2P/main.cpp, which memsets aclrtMallocHost memory
 * (`aclrtMemset(host, memSize, 0, memSize)`) before copying device 1's bytes into it. Every runtime call and
 * check of the sample is kept, in its order. Changed: C instead of C++ (the sample's <random>, <vector> and
 * <iostream> are unused by its body; rand() is C's); CHECK_ERROR(call) is EXPECT(call, ACL_SUCCESS) (it exits
 * on any other code); INFO_LOG / ERROR_LOG are printf; the sample only logs its verification
 * (`if (char_ptr[0] == randValue) INFO_LOG(...)`), here it is a CHECK, on every byte. Run with
 * STREAMSIM_DEVICES=2. Added, marked "not in the sample": the host buffer is first set to a pattern and read
 * back (so that the sample's memset of 0 is seen to write), an aclrtMemsetAsync of the host buffer on a stream
 * after a kernel, and a memset of pageable memory (refused, 107000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"

#include "check.h"

#define UINT8_DATA_LEN 256
#define CHECK_ERROR(call) EXPECT(call, ACL_SUCCESS)
#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR]  " __VA_ARGS__), printf("\n"))

/* (not in the sample) every byte of `p` is `value` */
static int all_bytes(const void *p, size_t n, unsigned char value) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != value) {
            return 0;
        }
    }
    return 1;
}

int main(void) {
    INFO_LOG("Start to run device_P2P sample.");
    CHECK_ERROR(aclInit(NULL));

    uint32_t deviceCount = 0;
    CHECK_ERROR(aclrtGetDeviceCount(&deviceCount));
    if (deviceCount < 2) {
        INFO_LOG("[SKIP] Need at least 2 visible devices for P2P, but got %u.", deviceCount);
        CHECK_ERROR(aclFinalize());
        return 0;
    }

    CHECK_ERROR(aclrtSetDevice(0));

    int32_t canAccessPeer = 0;
    // Query whether data interaction is supported between device 0 and device 1
    CHECK_ERROR(aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1));

    // 1 represents support for data interaction
    CHECK_EQ(canAccessPeer, 1); /* (not in the sample) the simulated devices are linked */
    if (canAccessPeer == 1) {
        // Enable data interaction between the current Device and the specified Device
        CHECK_ERROR(aclrtDeviceEnablePeerAccess(1, 0));

        void *dev0, *dev1, *host;
        uint32_t memSize = 10;
        CHECK_ERROR(aclrtMalloc(&dev0, memSize, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
        int randValue = rand() % UINT8_DATA_LEN;
        // Initialize the memory of device 0
        CHECK_ERROR(aclrtMemset(dev0, memSize, randValue, memSize));

        // Switch to device 1
        CHECK_ERROR(aclrtSetDevice(1));
        // Enable data interaction between the current Device and the specified Device
        CHECK_ERROR(aclrtDeviceEnablePeerAccess(0, 0));

        CHECK_ERROR(aclrtMalloc(&dev1, memSize, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
        CHECK_ERROR(aclrtMemset(dev1, memSize, 0, memSize));

        // Start performing memory copying between devices
        CHECK_ERROR(aclrtMemcpy(dev1, memSize, dev0, memSize, ACL_MEMCPY_DEVICE_TO_DEVICE));
        INFO_LOG("Device 0 to device 1 memcpy success.");

        CHECK_ERROR(aclrtMallocHost(&host, memSize));
        /* (not in the sample) a pattern first, read back: a memset of pinned memory is a real write */
        CHECK_ERROR(aclrtMemset(host, memSize, 0xEE, memSize));
        CHECK(all_bytes(host, memSize, 0xEE));
        CHECK_ERROR(aclrtMemset(host, memSize, 0, memSize));
        CHECK(all_bytes(host, memSize, 0)); /* (not in the sample) */

        char *char_ptr = (char *)host;
        CHECK_ERROR(aclrtMemcpy(host, memSize, dev1, memSize, ACL_MEMCPY_DEVICE_TO_HOST));
        INFO_LOG("Device 1 to host memcpy success.");

        // Verify the memory copy result
        CHECK(all_bytes(host, memSize, (unsigned char)randValue)); /* the sample logs; here it is checked */
        if (char_ptr[0] == randValue) {
            INFO_LOG("The data read from the memory is %d, verify success!", char_ptr[0]);
        } else {
            ERROR_LOG("The data read from the memory is %d, expected %d", char_ptr[0], randValue);
            return 1;
        }

        /* (not in the sample) an asynchronous memset of the pinned buffer, queued after a kernel */
        aclrtStream stream = NULL;
        CHECK_ERROR(aclrtCreateStream(&stream));
        CHECK_ERROR(aclsimLaunchKernel(stream, "myKernel", 100000, NULL, NULL));
        CHECK_ERROR(aclrtMemsetAsync(host, memSize, 0x1A5, memSize / 2, stream));
        aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
        CHECK_ERROR(aclrtStreamQuery(stream, &status));
        CHECK_EQ(status, ACL_STREAM_STATUS_NOT_READY); /* the kernel still runs */
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK(all_bytes(host, memSize / 2, 0xA5));
        CHECK(all_bytes(char_ptr + memSize / 2, memSize / 2, (unsigned char)randValue));
        CHECK_ERROR(aclrtDestroyStream(stream));
        /* (not in the sample) pageable memory is not ACL memory */
        char pageable[10] = {0};
        EXPECT(aclrtMemset(pageable, sizeof pageable, 1, sizeof pageable), ACL_ERROR_RT_PARAM_INVALID);
        CHECK_CONTAINS(aclGetRecentErrMsg(), "neither device memory nor host memory from aclrtMallocHost");

        CHECK_ERROR(aclrtSynchronizeDevice());

        CHECK_ERROR(aclrtDeviceDisablePeerAccess(0));
        CHECK_ERROR(aclrtFreeHost(host));
        CHECK_ERROR(aclrtFree(dev1));
        CHECK_ERROR(aclrtResetDeviceForce(1));

        // Switch to device 0
        CHECK_ERROR(aclrtSetDevice(0));
        CHECK_ERROR(aclrtDeviceDisablePeerAccess(1));
        CHECK_ERROR(aclrtFree(dev0));
        CHECK_ERROR(aclrtResetDeviceForce(0));
    } else {
        ERROR_LOG("The device does not support peer access feature.");
    }

    CHECK_ERROR(aclFinalize());
    INFO_LOG("Run the device_P2P sample successfully.");
    return 0;
}
