/*
 * The Ascend multi-device guide (多设备编程) with acl names, as a C program against include/acl/acl.h, run with
 * STREAMSIM_DEVICES=2: 多Device选择 (device selection), then Stream和Event的行为 (the launches, copies, records and waits
 * that fail on a stream or event of another device, and the event synchronize / query that work).
 * `myKernel<<<8, nullptr, s>>>()` is aclsimLaunchKernel(s, "myKernel", ns, NULL, NULL).
 */
#include "acl/acl.h"

#include "check.h"

static aclError my_kernel(aclrtStream s) {
    return aclsimLaunchKernel(s, "myKernel", 8000, NULL, NULL);
}

/* 多Device选择 */
static void device_selection(void) {
    /* 获取Device数量及其对应的属性信息 */
    uint32_t deviceCount;
    EXPECT(aclrtGetDeviceCount(&deviceCount), ACL_SUCCESS);
    CHECK_EQ(deviceCount, 2);
    uint32_t deviceId;
    for (deviceId = 0; deviceId < deviceCount; ++deviceId) {
        /* 按需查询设备属性信息 */
        aclrtDevAttr attr = ACL_DEV_ATTR_VECTOR_CORE_NUM;
        int64_t value;
        EXPECT(aclrtGetDeviceInfo(deviceId, attr, &value), ACL_SUCCESS);
        CHECK(value > 0);
    }
    int64_t value;
    EXPECT(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);

    /* 指定Device 0作为计算设备，并将Device 0的默认Context作为当前线程的默认Context */
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream s0;
    EXPECT(aclrtCreateStream(&s0), ACL_SUCCESS);
    EXPECT(my_kernel(s0), ACL_SUCCESS); /* 执行任务1 */
    /* 指定Device 1作为计算设备，并将Device1的默认Context作为当前线程的默认Context */
    EXPECT(aclrtSetDevice(1), ACL_SUCCESS);
    aclrtStream s1;
    EXPECT(aclrtCreateStream(&s1), ACL_SUCCESS);
    EXPECT(my_kernel(s1), ACL_SUCCESS); /* 执行任务2 */
    /* 复位Device 1，释放计算资源，线程默认Context被释放 */
    EXPECT(aclrtResetDeviceForce(1), ACL_SUCCESS);
    /* 如需继续运行任务，需要显式指定Device和Context */
    int32_t current;
    EXPECT(aclrtGetDevice(&current), ACL_ERROR_RT_CONTEXT_NULL);
    aclrtStream s;
    EXPECT(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    /* 复位device0，释放计算资源 */
    EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    /* Both devices' streams are gone. */
    EXPECT(aclrtSynchronizeStream(s0), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
}

/* Stream和Event的行为 */
static void streams_and_events(void) {
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS); /* 指定Device 0作为计算设备 */
    aclrtStream s0;
    EXPECT(aclrtCreateStream(&s0), ACL_SUCCESS); /* 在Device 0上创建Stream s0 */
    EXPECT(my_kernel(s0), ACL_SUCCESS);          /* 在Device 0上通过Stream s0下发算子 */
    aclrtEvent e0;
    EXPECT(aclrtCreateEvent(&e0), ACL_SUCCESS);
    void *d0;
    EXPECT(aclrtMalloc(&d0, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(s0, "long", 500000, NULL, NULL), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e0, s0), ACL_SUCCESS);

    EXPECT(aclrtSetDevice(1), ACL_SUCCESS); /* 指定Device 1作为计算设备 */
    aclrtStream s1;
    EXPECT(aclrtCreateStream(&s1), ACL_SUCCESS); /* 在Device 1上创建Stream s1 */
    EXPECT(my_kernel(s1), ACL_SUCCESS);          /* 在Device 1上通过Stream s1下发算子 */
    aclrtEvent e1;
    EXPECT(aclrtCreateEvent(&e1), ACL_SUCCESS);

    /* 算子下发失败: 在Device 1上通过Stream s0下发算子 */
    EXPECT(my_kernel(s0), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK(aclGetRecentErrMsg() != NULL);
    /* 当Stream所属的Device和当前操作的Device不相同时，在此Stream上调用aclrtMemcpyAsync会失败 */
    char host[64];
    memset(host, 3, sizeof host);
    EXPECT(aclrtMemcpyAsync(d0, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* 当Event和Stream关联到不同的Device上时，调用aclrtRecordEvent会失败 */
    EXPECT(aclrtRecordEvent(e0, s1), ACL_ERROR_RT_STREAM_CONTEXT);
    EXPECT(aclrtRecordEvent(e1, s0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* 当Event和Stream关联到不同的Device上时，调用aclrtStreamWaitEvent会失败 */
    EXPECT(aclrtStreamWaitEvent(s1, e0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* 当Event所属的Device和当前操作的Device不相同时，aclrtSynchronizeEvent和aclrtQueryEvent会成功 */
    aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
    EXPECT(aclrtQueryEvent(e0, &status), ACL_SUCCESS);
    CHECK_EQ(status, ACL_EVENT_STATUS_NOT_READY);
    EXPECT(aclrtSynchronizeEvent(e0), ACL_SUCCESS);
    EXPECT(aclrtQueryEvent(e0, &status), ACL_SUCCESS);
    CHECK_EQ(status, ACL_EVENT_STATUS_COMPLETE);
    /* Stream synchronize and query have no ownership check either. */
    aclrtStreamStatus sst = ACL_STREAM_STATUS_RESERVED;
    EXPECT(aclrtStreamQuery(s0, &sst), ACL_SUCCESS);
    CHECK_EQ(sst, ACL_STREAM_STATUS_COMPLETE);
    EXPECT(aclrtSynchronizeStream(s0), ACL_SUCCESS);

    /* Back on device 0, the same calls work. */
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(d0, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s0), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e0, s0), ACL_SUCCESS);
    EXPECT(my_kernel(s0), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s0), ACL_SUCCESS);
    EXPECT(aclrtFree(d0), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(e0), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(s0), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(1), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(e1), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(s1), ACL_SUCCESS);
    EXPECT(aclrtResetDeviceForce(1), ACL_SUCCESS);
    EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS);
}

int main(void) {
    device_selection();
    streams_and_events();
    printf("seed 001 device selection, streams and events: ok\n");
    return 0;
}
