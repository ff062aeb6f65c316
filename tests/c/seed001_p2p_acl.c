/*
 * The Ascend multi-device guide (多设备编程) 跨Device的数据交互: the P2P copy sample, line by line with acl names, as a C
 * program against include/acl/acl.h, run with STREAMSIM_DEVICES=2. Not in the sample: known bytes are put in dev0Mem
 * and read back from dev1Mem, and a cross-device copy without peer access is refused.
 */
#include "acl/acl.h"

#include "check.h"

int main(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS); /* 初始化 */
    int32_t canAccessPeer = 0;
    EXPECT(aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1), ACL_SUCCESS); /* 查询Device 0和Device 1之间是否支持数据交互 */
    CHECK_EQ(canAccessPeer, 1);
    if (canAccessPeer == 1) {
        EXPECT(aclrtSetDevice(0), ACL_SUCCESS); /* Device 0下的操作 */
        uint32_t reserveFlag = 0U;
        EXPECT(aclrtDeviceEnablePeerAccess(1, reserveFlag), ACL_SUCCESS); /* 开启当前Device(Device 0)到指定Device(Device 1）的数据交互 */
        void *dev0Mem = NULL;
        EXPECT(aclrtMalloc(&dev0Mem, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_SUCCESS);
        /* (not in the sample) known bytes in dev0Mem */
        EXPECT(aclrtMemcpy(dev0Mem, 10, "0123456789", 10, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        EXPECT(aclrtSetDevice(1), ACL_SUCCESS); /* Device 1下的操作 */
        void *dev1Mem = NULL;
        EXPECT(aclrtMalloc(&dev1Mem, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_SUCCESS);
        /* (not in the sample) before device 1 enables access to device 0, the copy is refused */
        EXPECT(aclrtMemcpy(dev1Mem, 10, dev0Mem, 10, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        CHECK_CONTAINS(aclGetRecentErrMsg(), "aclrtDeviceEnablePeerAccess");
        EXPECT(aclrtDeviceEnablePeerAccess(0, reserveFlag), ACL_SUCCESS); /* 开启当前Device(Device 1)到指定Device(Device 0）的数据交互 */
        EXPECT(aclrtMemcpy(dev1Mem, 10, dev0Mem, 10, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS); /* 将Device 0上的内存数据复制到Device 1上 */
        /* (not in the sample) read dev1Mem back */
        char back[11] = {0};
        EXPECT(aclrtMemcpy(back, 10, dev1Mem, 10, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        CHECK(memcmp(back, "0123456789", 10) == 0);
        EXPECT(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS); /* 关闭当前Device（Device 1）到指定Device（Device 0）的数据交互 */
        EXPECT(aclrtFree(dev1Mem), ACL_SUCCESS);
        EXPECT(aclrtResetDevice(1), ACL_SUCCESS); /* 释放Device 1的资源 */
        EXPECT(aclrtSetDevice(0), ACL_SUCCESS);   /* 切换到Device 0上进行操作 */
        EXPECT(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS); /* 关闭当前Device（Device 0）到指定Device（Device 1）的数据交互 */
        EXPECT(aclrtFree(dev0Mem), ACL_SUCCESS);
        EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS); /* Device 0下的操作，调用aclrtResetDeviceForce接口释放Device 0的资源 */
        printf("P2P copy success\n");
    } else {
        printf("current device doesn't support p2p feature\n");
    }
    EXPECT(aclFinalize(), ACL_SUCCESS); /* 去初始化 */
    EXPECT(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    return 0;
}
