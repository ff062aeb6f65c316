/*
 * The MUSA events article (MUSA Event 相关接口使用) §2.1 and §2.2, with musa names, as a C program against
 * include/musa_runtime.h. `kernel<<<1, 1, 0, s>>>()` is musasimLaunchKernel(s, "kernel", ns, body, arg).
 * Every call's code is checked; the exit status is non-zero on the first mismatch.
 */
#include <musa_runtime.h>

#include "check.h"

/* What the kernel bodies saw. Bodies run on the streams' worker threads: each flag has one writer, and the
 * simulator's ordering (the stream wait, then the host's synchronize) makes the writes visible to the readers. */
static int kernel1_ran, kernel2_ran, kernel_saw_kernel2;

static void set_flag(void *flag) {
    *(int *)flag = 1;
}

static void kernel_body(void *unused) {
    (void)unused;
    kernel_saw_kernel2 = kernel2_ran;
}

/* §2.1 统计设备端耗时: time a kernel with two events. */
static void section_2_1(void) {
    musaEvent_t event1, event2;
    EXPECT(musaEventCreate(&event1), musaSuccess);
    EXPECT(musaEventCreate(&event2), musaSuccess);

    EXPECT(musaEventRecord(event1, 0), musaSuccess);                           /* musaEventRecord(event1); */
    EXPECT(musasimLaunchKernel(0, "kernel", 250000, NULL, NULL), musaSuccess); /* kernel<<<1, 1>>>();      */
    EXPECT(musaEventRecord(event2, 0), musaSuccess);                           /* musaEventRecord(event2); */
    /* "如果它的返回值是musaSuccess表明结束了，而如果是musaErrorNotReady，即表示还没有完成" */
    EXPECT(musaEventQuery(event2), musaErrorNotReady);
    EXPECT(musaEventSynchronize(event2), musaSuccess); /* musaEventSynchronize(event2); */
    EXPECT(musaEventQuery(event2), musaSuccess);
    float time_ms = 0;
    EXPECT(musaEventElapsedTime(&time_ms, event1, event2), musaSuccess);
    /* The kernel's 250 µs plus the 1 µs of call overhead between the first record and the launch: the same
     * virtual time on every run. */
    CHECK_NEAR(time_ms, 0.251);

    EXPECT(musaEventDestroy(event1), musaSuccess);
    EXPECT(musaEventDestroy(event2), musaSuccess);
    EXPECT(musaEventQuery(event1), musaErrorInvalidResourceHandle);
}

/* §2.2 同步 stream: stream1 waits for an event recorded on stream2, without a host-side wait. */
static void section_2_2(void) {
    musaStream_t stream1, stream2;
    EXPECT(musaStreamCreate(&stream1), musaSuccess);
    EXPECT(musaStreamCreate(&stream2), musaSuccess);
    musaEvent_t event1, done;
    EXPECT(musaEventCreate(&event1), musaSuccess);
    EXPECT(musaEventCreate(&done), musaSuccess);

    /* kernel1<<<1, 1, 0, stream1>>>(); kernel2<<<1, 1, 0, stream2>>>(); */
    EXPECT(musasimLaunchKernel(stream1, "kernel1", 20000, set_flag, &kernel1_ran), musaSuccess);
    EXPECT(musasimLaunchKernel(stream2, "kernel2", 300000, set_flag, &kernel2_ran), musaSuccess);
    EXPECT(musaEventRecord(event1, stream2), musaSuccess);
    EXPECT(musaStreamWaitEvent(stream1, event1, 0), musaSuccess);
    EXPECT(musasimLaunchKernel(stream1, "kernel", 10000, kernel_body, NULL), musaSuccess); /* kernel<<<1, 1, 0, stream1>>>(); */
    EXPECT(musaEventRecord(done, stream1), musaSuccess);

    /* The host did not wait: stream1's work is still running. */
    EXPECT(musaStreamQuery(stream1), musaErrorNotReady);
    EXPECT(musaStreamSynchronize(stream1), musaSuccess);
    EXPECT(musaStreamQuery(stream1), musaSuccess);

    /* stream1's kernel started when stream2's kernel2 ended (event1), and ran its 10 µs. */
    float ms = 0;
    EXPECT(musaEventElapsedTime(&ms, event1, done), musaSuccess);
    CHECK_NEAR(ms, 0.010);
    CHECK(kernel_saw_kernel2);
    CHECK(kernel1_ran);

    EXPECT(musaEventDestroy(event1), musaSuccess);
    EXPECT(musaEventDestroy(done), musaSuccess);
    EXPECT(musaStreamDestroy(stream1), musaSuccess);
    EXPECT(musaStreamDestroy(stream2), musaSuccess);
    EXPECT(musaStreamDestroy(stream2), musaErrorInvalidResourceHandle);
}

int main(void) {
    section_2_1();
    section_2_2();
    EXPECT(musaGetLastError(), musaErrorInvalidResourceHandle); /* the last failing call's code, cleared */
    EXPECT(musaGetLastError(), musaSuccess);
    printf("seed 000 §2.1 and §2.2: ok\n");
    return 0;
}
