/*
 * cudaStreamQuery / cudaStreamSynchronize on the NULL (legacy default) stream cover the earlier work of the
 * device's blocking streams (reference/cuda-musa.md · StreamQuery / StreamSynchronize · the NULL (legacy)
 * stream; the CUDA "stream synchronization behavior" page).
 *
 * Ported from ROCm hip-tests (github.com/ROCm/hip-tests, commit 87c8a041): catch/unit/stream/hipStreamQuery.cc
 * and catch/unit/stream/hipStreamSynchronize.cc, every test case that uses the null stream or a plain stream
 * and can run on NVIDIA (the #if !HT_NVIDIA cases, which expect AMD's hipErrorContextIsDestroyed, are left
 * out). hip* is translated to cuda*, hip::nullStream to NULL, hip::streamPerThread to cudaStreamPerThread,
 * HIP_CHECK(call) to EXPECT(call, cudaSuccess) and HIP_CHECK_ERROR(call, e) to EXPECT(call, e). The kernels
 * are the stand-in: hip::stream::empty_kernel<<<…>>>() is a 0 ns cudasimLaunchKernel, LaunchDelayKernel(ms,
 * stream) a cudasimLaunchKernel of that many virtual milliseconds (time is virtual: nothing sleeps, and the
 * answers are the same on every run). Catch2's SECTIONs and GENERATE_COPY become loops that run the test case
 * once per section / value, as Catch2 does. The cases guarded by `#if HT_AMD` ("Disabled because frequency
 * based wait is timing out on nvidia platforms") are included: the guard is about the delay kernel's timing
 * on NVIDIA hardware, not about the semantics (Unit_hipStreamSynchronize_SynchronizeStreamAndQueryNullStream's
 * body is the non-AMD branch; on AMD it is skipped, "EXSWCPHIPT-22").
 */
#include <cuda_runtime.h>

#include "check.h"

#define HIP_CHECK(call) EXPECT(call, cudaSuccess)
#define HIP_CHECK_ERROR(call, e) EXPECT(call, e)

static const cudaStream_t nullStream = NULL;

static void empty_kernel(cudaStream_t stream) {
    HIP_CHECK(cudasimLaunchKernel(stream, "empty_kernel", 0, NULL, NULL));
}

static void LaunchDelayKernel(unsigned long long ms, cudaStream_t stream) {
    HIP_CHECK(cudasimLaunchKernel(stream, "delay", ms * 1000000ULL, NULL, NULL));
}

/* Unit_hipStreamQuery_WithNoWork */
static void query_with_no_work(void) {
    for (int section = 0; section < 2; section++) {
        cudaStream_t stream = NULL;
        if (section == 0) { /* SECTION("Null Stream") */
            HIP_CHECK(cudaStreamQuery(stream));
        } else { /* SECTION("Created Stream") */
            HIP_CHECK(cudaStreamCreate(&stream));
            HIP_CHECK(cudaStreamQuery(stream));
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

/* Unit_hipStreamQuery_WithFinishedWork */
static void query_with_finished_work(void) {
    for (int section = 0; section < 2; section++) {
        cudaStream_t stream = NULL;
        if (section == 0) { /* SECTION("Null Stream") */
            empty_kernel(stream);
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaStreamQuery(stream));
        } else { /* SECTION("Created Stream") */
            HIP_CHECK(cudaStreamCreate(&stream));
            empty_kernel(stream);
            HIP_CHECK(cudaStreamSynchronize(stream));
            HIP_CHECK(cudaStreamQuery(stream));
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

/* Unit_hipStreamQuery_SubmitWorkOnStreamAndQueryNullStream */
static void submit_work_on_stream_and_query_null_stream(void) {
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));

    HIP_CHECK(cudaStreamQuery(nullStream));
    LaunchDelayKernel(500, stream);
    HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);
    HIP_CHECK(cudaDeviceSynchronize());

    HIP_CHECK(cudaStreamDestroy(stream));
}

/* Unit_hipStreamQuery_NullStreamQuery */
static void null_stream_query(void) {
    HIP_CHECK(cudaStreamQuery(nullStream));
    LaunchDelayKernel(500, nullStream);
    HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);

    HIP_CHECK(cudaStreamSynchronize(nullStream));
}

/* Unit_hipStreamQuery_WithPendingWork */
static void query_with_pending_work(void) {
    cudaStream_t waitingStream = NULL;
    HIP_CHECK(cudaStreamCreate(&waitingStream));

    LaunchDelayKernel(500, waitingStream);
    HIP_CHECK_ERROR(cudaStreamQuery(waitingStream), cudaErrorNotReady);
    HIP_CHECK(cudaStreamSynchronize(waitingStream));
    HIP_CHECK(cudaStreamQuery(waitingStream));

    HIP_CHECK(cudaStreamDestroy(waitingStream));
}

/* Unit_hipStreamSynchronize_EmptyStream */
static void synchronize_empty_stream(void) {
    cudaStream_t stream;
    HIP_CHECK(cudaStreamCreate(&stream));
    HIP_CHECK(cudaStreamSynchronize(stream));
    HIP_CHECK(cudaStreamDestroy(stream));
}

/* Unit_hipStreamSynchronize_FinishWork */
static void synchronize_finish_work(void) {
    const cudaStream_t explicitStream = (cudaStream_t)(-1);
    const cudaStream_t generated[] = {explicitStream, nullStream, cudaStreamPerThread};
    for (int g = 0; g < 3; g++) { /* GENERATE_COPY(explicitStream, hip::nullStream, hip::streamPerThread) */
        cudaStream_t stream = generated[g];

        const int isExplicitStream = stream == explicitStream;
        if (isExplicitStream) {
            HIP_CHECK(cudaStreamCreate(&stream));
        }

        LaunchDelayKernel(500, stream);
        HIP_CHECK(cudaStreamSynchronize(stream));
        HIP_CHECK(cudaStreamQuery(stream));

        if (isExplicitStream) {
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

/* Unit_hipStreamSynchronize_NullStreamSynchronization */
static void null_stream_synchronization(void) {
    enum { totalStreams = 10 };

    cudaStream_t streams[totalStreams];

    for (int i = 0; i < totalStreams; ++i) {
        cudaStream_t stream;
        HIP_CHECK(cudaStreamCreate(&stream));
        streams[i] = stream;
    }

    for (int i = 0; i < totalStreams; ++i) {
        LaunchDelayKernel(1000, streams[i]);
    }

    HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);

    for (int i = 0; i < totalStreams; ++i) {
        HIP_CHECK_ERROR(cudaStreamQuery(streams[i]), cudaErrorNotReady);
    }

    HIP_CHECK(cudaStreamSynchronize(nullStream));
    HIP_CHECK(cudaStreamQuery(nullStream));

    for (int i = 0; i < totalStreams; ++i) {
        HIP_CHECK(cudaStreamQuery(streams[i]));
    }

    for (int i = 0; i < totalStreams; ++i) {
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
}

/* Unit_hipStreamSynchronize_SynchronizeStreamAndQueryNullStream (the non-AMD branch) */
static void synchronize_stream_and_query_null_stream(void) {
    for (int section = 0; section < 3; section++) {
        cudaStream_t stream1;
        cudaStream_t stream2;

        HIP_CHECK(cudaStreamCreate(&stream1));
        HIP_CHECK(cudaStreamCreate(&stream2));

        LaunchDelayKernel(500, stream1);
        LaunchDelayKernel(2000, stream2);

        if (section == 0) { /* SECTION("Do not use NullStream") */
        } else if (section == 1) { /* SECTION("Submit Kernel to NullStream") */
            empty_kernel(nullStream);
        } else { /* SECTION("Query NullStream") */
            HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);
        }

        HIP_CHECK_ERROR(cudaStreamQuery(stream1), cudaErrorNotReady);
        HIP_CHECK_ERROR(cudaStreamQuery(stream2), cudaErrorNotReady);

        HIP_CHECK(cudaStreamSynchronize(stream1));
        HIP_CHECK(cudaStreamQuery(stream1));
        HIP_CHECK_ERROR(cudaStreamQuery(stream2), cudaErrorNotReady);
        HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);

        HIP_CHECK(cudaStreamSynchronize(stream2));
        HIP_CHECK(cudaStreamQuery(stream2));

        HIP_CHECK(cudaStreamDestroy(stream1));
        HIP_CHECK(cudaStreamDestroy(stream2));
    }
}

/* Unit_hipStreamSynchronize_NullStreamAndStreamPerThread */
static void null_stream_and_stream_per_thread(void) {
    LaunchDelayKernel(500, cudaStreamPerThread);
    HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaErrorNotReady);
    HIP_CHECK_ERROR(cudaStreamQuery(cudaStreamPerThread), cudaErrorNotReady);
    LaunchDelayKernel(500, nullStream);
    HIP_CHECK(cudaStreamSynchronize(nullStream));
    HIP_CHECK_ERROR(cudaStreamQuery(cudaStreamPerThread), cudaSuccess);
    HIP_CHECK_ERROR(cudaStreamQuery(nullStream), cudaSuccess);
}

/* (not in hip-tests) a non-blocking stream is not covered by the NULL stream */
static void non_blocking_streams_are_not_covered(void) {
    cudaStream_t nb;
    HIP_CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    LaunchDelayKernel(500, nb);
    HIP_CHECK(cudaStreamQuery(nullStream));
    HIP_CHECK(cudaStreamSynchronize(nullStream));
    HIP_CHECK_ERROR(cudaStreamQuery(nb), cudaErrorNotReady);
    HIP_CHECK(cudaStreamSynchronize(nb));
    HIP_CHECK(cudaStreamDestroy(nb));
}

int main(void) {
    query_with_no_work();
    query_with_finished_work();
    submit_work_on_stream_and_query_null_stream();
    null_stream_query();
    query_with_pending_work();
    synchronize_empty_stream();
    synchronize_finish_work();
    null_stream_synchronization();
    synchronize_stream_and_query_null_stream();
    null_stream_and_stream_per_thread();
    non_blocking_streams_are_not_covered();
    printf("null stream query / synchronize: ok\n");
    return 0;
}
