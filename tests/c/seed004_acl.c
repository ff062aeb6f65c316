/*
 * The CANN stream-vs-event note (Stream同步与Event同步的区别与选择) with acl names, as a C program against include/acl/acl.h:
 * the three scenarios (场景1 single-stream batch → stream synchronize; 场景2 cross-stream coordination → events;
 * 场景3 fine-grained time points → events), 现象1 (synchronizing stream1 does not wait for stream2), and the
 * related issue #477 (aclrtSynchronizeStream报错507015: a kernel exception). `myKernel<<<..., s>>>()` is
 * aclsimLaunchKernel; the faulting kernel is aclsimLaunchFallibleKernel.
 */
#include "acl/acl.h"

#include "check.h"

#define SIZE (1u << 20)

/* A pinned host buffer of SIZE bytes filled with `byte`. */
static void *pinned(int byte) {
    void *p = NULL;
    EXPECT(aclrtMallocHost(&p, SIZE), ACL_SUCCESS);
    memset(p, byte, SIZE);
    return p;
}

static void *device(void) {
    void *p = NULL;
    EXPECT(aclrtMalloc(&p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
}

static void check_ends(const void *buffer, int byte) {
    const unsigned char *b = (const unsigned char *)buffer;
    CHECK_EQ(b[0], byte);
    CHECK_EQ(b[SIZE - 1], byte);
}

static aclError my_kernel(aclrtStream stream, uint64_t micros) {
    return aclsimLaunchKernel(stream, "myKernel", micros * 1000, NULL, NULL);
}

static aclrtEventRecordedStatus recorded(aclrtEvent e) {
    aclrtEventRecordedStatus s = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT(aclrtQueryEventStatus(e, &s), ACL_SUCCESS);
    return s;
}

static aclrtStreamStatus stream_status(aclrtStream s) {
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    EXPECT(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    return st;
}

/* 场景1：单 Stream 等待整批任务 → Stream 同步 */
static void scenario1(void) {
    void *src = pinned(0x5A), *host = pinned(0), *dst = device();
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    EXPECT(my_kernel(stream, 200), ACL_SUCCESS); /* myKernel<<<..., stream>>>(); */
    EXPECT(aclrtMemcpyAsync(host, SIZE, dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    CHECK_EQ(stream_status(stream), ACL_STREAM_STATUS_NOT_READY);
    /* 推荐：Stream 同步 */
    EXPECT(aclrtSynchronizeStream(stream), ACL_SUCCESS); /* 等待整流完成 */
    CHECK_EQ(stream_status(stream), ACL_STREAM_STATUS_COMPLETE);
    check_ends(host, 0x5A);
    /* 不推荐：Event 同步（过度设计） */
    aclrtEvent event;
    EXPECT(aclrtCreateEvent(&event), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event, stream), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeEvent(event), ACL_SUCCESS); /* 多了一步 RecordEvent，复杂度高 */
    CHECK_EQ(stream_status(stream), ACL_STREAM_STATUS_COMPLETE);
    EXPECT(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT(aclrtFree(dst), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(src), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(host), ACL_SUCCESS);
}

/* 场景2：跨 Stream 协调 → Event 同步; and 现象1 */
static void scenario2(void) {
    void *src1 = pinned(1), *src2 = pinned(2), *dst1 = device(), *dst2 = device();
    aclrtStream stream1, stream2;
    EXPECT(aclrtCreateStream(&stream1), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&stream2), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(dst1, SIZE, src1, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream1), ACL_SUCCESS);
    /* 推荐：Event 同步 */
    aclrtEvent event;
    EXPECT(aclrtCreateEvent(&event), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event, stream1), ACL_SUCCESS);   /* stream1 记录时间点 */
    EXPECT(aclrtStreamWaitEvent(stream2, event), ACL_SUCCESS); /* stream2 等待该时间点 */
    EXPECT(aclrtMemcpyAsync(dst2, SIZE, src2, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream2), ACL_SUCCESS);
    /* (not in the sample) stream2's copy starts when stream1's copy ends: 1 MiB at 16 GB/s + 2 µs latency */
    aclrtEvent after2;
    EXPECT(aclrtCreateEvent(&after2), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(after2, stream2), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeEvent(after2), ACL_SUCCESS);
    float ms = 0;
    EXPECT(aclrtEventElapsedTime(&ms, event, after2), ACL_SUCCESS);
    CHECK_NEAR(ms, 0.067536);
    /* 不推荐：Stream 同步（会阻塞 stream1，影响并发） */
    EXPECT(my_kernel(stream1, 5000), ACL_SUCCESS);
    EXPECT(my_kernel(stream2, 5000), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream1), ACL_SUCCESS); /* 阻塞 stream1 全部任务 */
    EXPECT(aclrtMemcpyAsync(dst2, SIZE, src2, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream2), ACL_SUCCESS);
    /* 现象1: aclrtSynchronizeStream(stream1) 仅等待 stream1，不等待 stream2 */
    CHECK_EQ(stream_status(stream1), ACL_STREAM_STATUS_COMPLETE);
    CHECK_EQ(stream_status(stream2), ACL_STREAM_STATUS_NOT_READY);
    EXPECT(aclrtSynchronizeDevice(), ACL_SUCCESS);
    CHECK_EQ(stream_status(stream2), ACL_STREAM_STATUS_COMPLETE);
    EXPECT(aclrtDestroyEvent(event), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(after2), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream1), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream2), ACL_SUCCESS);
    EXPECT(aclrtFree(dst1), ACL_SUCCESS);
    EXPECT(aclrtFree(dst2), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(src1), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(src2), ACL_SUCCESS);
}

/* 场景3：精细时间点控制 → Event 同步 */
static void scenario3(void) {
    void *src = pinned(7), *host = pinned(0), *dst = device();
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    aclrtEvent event1, event2, event3;
    EXPECT(aclrtCreateEvent(&event1), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&event2), ACL_SUCCESS);
    EXPECT(aclrtCreateEvent(&event3), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(dst, SIZE, src, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event1, stream), ACL_SUCCESS); /* 记录复制完成时间点 */
    EXPECT(my_kernel(stream, 500), ACL_SUCCESS);            /* myKernel<<<..., stream>>>(); */
    EXPECT(aclrtRecordEvent(event2, stream), ACL_SUCCESS); /* 记录算子完成时间点 */
    EXPECT(aclrtMemcpyAsync(host, SIZE, dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(event3, stream), ACL_SUCCESS); /* 记录输出复制完成时间点 */
    /* 灵活等待特定时间点 */
    EXPECT(aclrtSynchronizeEvent(event2), ACL_SUCCESS); /* 仅等待算子完成，不等待后续复制 */
    CHECK_EQ(recorded(event2), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_EQ(recorded(event3), ACL_EVENT_RECORDED_STATUS_NOT_READY);
    float ms = 0;
    EXPECT(aclrtEventElapsedTime(&ms, event1, event2), ACL_SUCCESS);
    CHECK_NEAR(ms, 0.5); /* the kernel alone */
    EXPECT(aclrtEventElapsedTime(&ms, event1, event3), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID); /* not finished */
    EXPECT(aclrtSynchronizeEvent(event3), ACL_SUCCESS);
    check_ends(host, 7);
    EXPECT(aclrtDestroyEvent(event1), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(event2), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(event3), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT(aclrtFree(dst), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(src), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(host), ACL_SUCCESS);
}

static int faulty_body(void *arg) {
    (void)arg;
    return STREAMSIM_FAULT_ILLEGAL_ADDRESS;
}

/* Issue #477: aclrtSynchronizeStream报错507015 — a kernel exception is reported at the next synchronize. In the
 * default failure mode (ACL_CONTINUE_ON_FAILURE) it is reported once: later calls work (the vendor's runtime clears
 * the stream's error once a synchronize has read it; see tests/c/acl_failure_mode.c for both modes). */
static void kernel_exception(void) {
    aclrtStream stream;
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(aclsimLaunchFallibleKernel(stream, "faultyKernel", 100000, faulty_body, NULL), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_CONTAINS(aclGetRecentErrMsg(), "faultyKernel");
    EXPECT(aclrtSynchronizeDevice(), ACL_SUCCESS);   /* reported once */
    EXPECT(my_kernel(stream, 1), ACL_SUCCESS);       /* not sticky */
    EXPECT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT(aclrtResetDeviceForce(0), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT(my_kernel(stream, 1), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream), ACL_SUCCESS);
}

int main(void) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    scenario1();
    scenario2();
    scenario3();
    kernel_exception();
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    printf("seed 004 scenarios 1-3 and the kernel exception: ok\n");
    return 0;
}
