/*
 * hip_tests_stream_capture.c — the stream-capture tests of ROCm hip-tests (github.com/ROCm/hip-tests, commit
 * 87c8a0417c6f4ef2c7d905b71eb42e02a0c4ef4a), translated to the CUDA runtime names (hipX → cudaX) and ported to
 * streamsim: catch/unit/graph/hipStreamBeginCapture.cc, hipStreamEndCapture.cc, hipStreamIsCapturing.cc,
 * hipStreamGetCaptureInfo.cc, hipGraphLaunch.cc and the sequences of stream_capture_common.hh.
 *
 * Every runtime call and every check of the translated tests is kept, in their order. Each Catch2 SECTION runs
 * its TEST_CASE from the top, so each becomes a function of its own here; GENERATE over stream types and modes
 * becomes a loop. Changes, all marked STREAMSIM:
 *   - HIP_CHECK / HIP_CHECK_ERROR / REQUIRE become CHECK / CHECK_EQ of tests/c/check.h; LinearAllocGuard and
 *     StreamGuard become plain malloc / cudaMalloc / cudaStreamCreate (freed at the end);
 *   - the kernels (dummyKernel, incrementKernel, HipTest::vector_square) become cudasimLaunchKernelCtx
 *     stand-ins computing the same thing on the declared memory. incrementKernel's atomicAdd is a read-modify-
 *     write under a mutex of this program (the bodies of unordered nodes run on different threads); the race
 *     detector still reports those unordered increments as write/write races (it has no atomic access kind),
 *     so the test runs them with STREAMSIM_RACES=collect;
 *   - N is 4096 instead of 1000000 (the data checks are the same; the simulator copies real bytes);
 *   - hipErrorContextIsDestroyed (709, HIP's answer for a destroyed stream) is 400
 *     cudaErrorInvalidResourceHandle in the simulator: the Runtime API documents no code for a destroyed stream
 *     handle, and the simulator answers every destroyed handle so;
 *   - hipStreamEndCapture_Positive_GraphDestroy (hipGraphCreate) and the branches of hip-tests that only run on
 *     AMD (#if HT_AMD) are left out: the graph-building API is not simulated, and the NVIDIA behaviour is the
 *     one simulated.
 *
 * hip-tests is MIT-licensed: Copyright (c) 2022 - 2023 Advanced Micro Devices, Inc. All rights reserved.
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
 * documentation files (the "Software"), to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 * to permit persons to whom the Software is furnished to do so, subject to the following conditions: The above
 * copyright notice and this permission notice shall be included in all copies or substantial portions of the
 * Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
 * LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT
 * SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 * ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR
 * OTHER DEALINGS IN THE SOFTWARE.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "check.h"

#define CHECK_CODE(want, call) CHECK_EQ((long long)(call), (long long)(want))
#define HIP_CHECK(call) CHECK_CODE(cudaSuccess, call)
#define HIP_CHECK_ERROR(call, err) CHECK_CODE(err, call)

/* STREAMSIM: 4096 instead of 1000000. */
#define N 4096
static const size_t kLaunchIters = 10;

/* ------------------------------------------------------------------------------------------------ kernels */

/* STREAMSIM: dummyKernel<<<1, 1, 0, s>>>(): a 1 µs kernel with no body. */
static void dummyKernel(cudaStream_t s) {
    HIP_CHECK(cudasimLaunchKernel(s, "dummyKernel", 1000, NULL, NULL));
}

/* STREAMSIM: incrementKernel<<<1, 1, 0, s>>>(data): atomicAdd(data, 1) as a read-modify-write under a lock. */
static pthread_mutex_t increment_lock = PTHREAD_MUTEX_INITIALIZER;
static void incrementBody(streamsimKernelCtx *ctx, void *arg) {
    int *data = (int *)arg;
    int v = 0;
    pthread_mutex_lock(&increment_lock);
    if (streamsimKernelRead(ctx, &v, data, sizeof v) == STREAMSIM_SUCCESS) {
        v += 1;
        (void)streamsimKernelWrite(ctx, data, &v, sizeof v);
    }
    pthread_mutex_unlock(&increment_lock);
}
static void incrementKernel(cudaStream_t s, int *data) {
    streamsimAccess a = {data, sizeof(int), STREAMSIM_ACCESS_READ | STREAMSIM_ACCESS_WRITE};
    HIP_CHECK(cudasimLaunchKernelCtx(s, "incrementKernel", 1000, incrementBody, data, &a, 1));
}

/* STREAMSIM: HipTest::vector_square<<<512, 256, 0, s>>>(A, C, n): C[i] = A[i] * A[i]. */
struct square_args {
    const float *a;
    float *c;
    size_t n;
};
static void squareBody(streamsimKernelCtx *ctx, void *arg) {
    const struct square_args *p = (const struct square_args *)arg;
    void *a = NULL, *c = NULL;
    if (streamsimKernelMap(ctx, p->a, p->n * sizeof(float), &a) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, p->c, p->n * sizeof(float), &c) != STREAMSIM_SUCCESS) {
        return;
    }
    for (size_t i = 0; i < p->n; i++) {
        ((float *)c)[i] = ((const float *)a)[i] * ((const float *)a)[i];
    }
}
static void vector_square(cudaStream_t s, struct square_args *args) {
    streamsimAccess acc[2] = {{args->a, args->n * sizeof(float), STREAMSIM_ACCESS_READ},
                              {args->c, args->n * sizeof(float), STREAMSIM_ACCESS_WRITE}};
    HIP_CHECK(cudasimLaunchKernelCtx(s, "vector_square", 20000, squareBody, args, acc, 2));
}

/* ------------------------------------------------------------------------------------------------ sequences */

static void captureSequenceSimple(float *hostMem1, float *devMem1, float *hostMem2, size_t n, cudaStream_t s) {
    size_t Nbytes = n * sizeof(float);
    HIP_CHECK(cudaMemsetAsync(devMem1, 0, Nbytes, s));
    HIP_CHECK(cudaMemcpyAsync(devMem1, hostMem1, Nbytes, cudaMemcpyHostToDevice, s));
    HIP_CHECK(cudaMemcpyAsync(hostMem2, devMem1, Nbytes, cudaMemcpyDeviceToHost, s));
}

static void captureSequenceLinear(float *hostMem1, float *devMem1, float *devMem2, size_t n, cudaStream_t s) {
    size_t Nbytes = n * sizeof(float);
    HIP_CHECK(cudaMemcpyAsync(devMem1, hostMem1, Nbytes, cudaMemcpyHostToDevice, s));
    HIP_CHECK(cudaMemsetAsync(devMem2, 0, Nbytes, s));
}

static void captureSequenceBranched(float *hostMem1, float *devMem1, float *devMem2, size_t n, cudaStream_t s,
                                    cudaStream_t *streams, cudaEvent_t *events) {
    size_t Nbytes = n * sizeof(float);
    HIP_CHECK(cudaEventRecord(events[0], s));
    HIP_CHECK(cudaStreamWaitEvent(streams[0], events[0], 0));
    HIP_CHECK(cudaStreamWaitEvent(streams[1], events[0], 0));
    HIP_CHECK(cudaMemsetAsync(devMem1, 0, Nbytes, streams[0]));
    HIP_CHECK(cudaMemcpyAsync(devMem1, hostMem1, Nbytes, cudaMemcpyHostToDevice, streams[0]));
    HIP_CHECK(cudaEventRecord(events[1], streams[0]));
    HIP_CHECK(cudaMemsetAsync(devMem2, 0, Nbytes, streams[1]));
    HIP_CHECK(cudaEventRecord(events[2], streams[1]));
    HIP_CHECK(cudaStreamWaitEvent(s, events[1], 0));
    HIP_CHECK(cudaStreamWaitEvent(s, events[2], 0));
}

static void captureSequenceCompute(float *devMem1, float *hostMem2, float *devMem2, size_t n, cudaStream_t s,
                                   struct square_args *args) {
    args->a = devMem1;
    args->c = devMem2;
    args->n = n;
    vector_square(s, args);
    HIP_CHECK(cudaMemcpyAsync(hostMem2, devMem2, n * sizeof(float), cudaMemcpyDeviceToHost, s));
}

/* ArrayFindIfNot: every element equals `value`. */
static void ArrayFindIfNot(const float *a, float value, size_t n) {
    for (size_t i = 0; i < n; i++) {
        CHECK_NEAR(a[i], value);
    }
}

static cudaStream_t new_stream(void) {
    cudaStream_t s;
    HIP_CHECK(cudaStreamCreate(&s));
    return s;
}

static cudaEvent_t new_event(void) {
    cudaEvent_t e;
    HIP_CHECK(cudaEventCreate(&e));
    return e;
}

/* ------------------------------------------------------------------------------------------------ hipStreamBeginCapture.cc */

/* captureStreamAndLaunchGraph: capture a sequence, instantiate, replay kLaunchIters times checking B = A * A. */
static void captureStreamAndLaunchGraph(int branched, cudaStreamCaptureMode mode, cudaStream_t stream) {
    size_t Nbytes = N * sizeof(float);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t graphExec = NULL;
    float *A_h = (float *)malloc(Nbytes), *B_h = (float *)malloc(Nbytes);
    float *A_d = NULL, *B_d = NULL;
    HIP_CHECK(cudaMalloc((void **)&A_d, Nbytes));
    HIP_CHECK(cudaMalloc((void **)&B_d, Nbytes));
    cudaStream_t streams[2] = {new_stream(), new_stream()};
    cudaEvent_t events[3] = {new_event(), new_event(), new_event()};
    struct square_args args;

    HIP_CHECK(cudaStreamBeginCapture(stream, mode));
    if (branched) {
        captureSequenceBranched(A_h, A_d, B_d, N, stream, streams, events);
    } else {
        captureSequenceLinear(A_h, A_d, B_d, N, stream);
    }
    captureSequenceCompute(A_d, B_h, B_d, N, stream, &args);
    HIP_CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(graph != NULL);
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    CHECK(graphExec != NULL);
    for (size_t i = 0; i < kLaunchIters; i++) {
        for (size_t j = 0; j < N; j++) {
            A_h[j] = (float)i;
        }
        HIP_CHECK(cudaGraphLaunch(graphExec, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
        ArrayFindIfNot(B_h, (float)i * (float)i, N);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    for (int i = 0; i < 3; i++) {
        HIP_CHECK(cudaEventDestroy(events[i]));
    }
    HIP_CHECK(cudaStreamDestroy(streams[0]));
    HIP_CHECK(cudaStreamDestroy(streams[1]));
    HIP_CHECK(cudaFree(A_d));
    HIP_CHECK(cudaFree(B_d));
    free(A_h);
    free(B_h);
}

static const cudaStreamCaptureMode modes[3] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                               cudaStreamCaptureModeRelaxed};

static void BeginCapture_Positive_Functional(void) {
    for (int st = 0; st < 2; st++) {
        cudaStream_t stream = st == 0 ? cudaStreamPerThread : new_stream();
        for (int m = 0; m < 3; m++) {
            captureStreamAndLaunchGraph(0, modes[m], stream); /* SECTION("Linear graph capture") */
            captureStreamAndLaunchGraph(1, modes[m], stream); /* SECTION("Branched graph capture") */
        }
        if (st == 1) {
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

static void BeginCapture_Negative_Parameters(void) {
    cudaGraph_t graph = NULL;
    {
        /* SECTION("Stream capture on legacy/null stream returns error code.") */
        HIP_CHECK_ERROR(cudaStreamBeginCapture(NULL, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    }
    {
        /* SECTION("Capturing hipStream status with same stream again") */
        cudaStream_t stream = new_stream();
        HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        HIP_CHECK_ERROR(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
        HIP_CHECK(cudaStreamEndCapture(stream, &graph)); /* STREAMSIM: the guard's end of the capture */
        HIP_CHECK(cudaGraphDestroy(graph));
        HIP_CHECK(cudaStreamDestroy(stream));
    }
    {
        /* SECTION("Creating hipStream with invalid mode") */
        cudaStream_t stream = new_stream();
        HIP_CHECK_ERROR(cudaStreamBeginCapture(stream, (cudaStreamCaptureMode)(-1)), cudaErrorInvalidValue);
        HIP_CHECK(cudaStreamDestroy(stream));
    }
    {
        /* SECTION("Stream capture on uninitialized stream returns error code.") */
        cudaStream_t gone = new_stream();
        HIP_CHECK(cudaStreamDestroy(gone));
        /* STREAMSIM: hipErrorContextIsDestroyed in HIP; 400 here (see the top of this file). */
        HIP_CHECK_ERROR(cudaStreamBeginCapture(gone, cudaStreamCaptureModeGlobal), cudaErrorInvalidResourceHandle);
    }
}

static void BeginCapture_Positive_Basic(void) {
    for (int st = 0; st < 2; st++) {
        for (int m = 0; m < 3; m++) {
            cudaGraph_t graph = NULL;
            cudaStream_t s = st == 0 ? cudaStreamPerThread : new_stream();
            HIP_CHECK(cudaStreamBeginCapture(s, modes[m]));
            HIP_CHECK(cudaStreamEndCapture(s, &graph));
            HIP_CHECK(cudaGraphDestroy(graph));
            if (st == 1) {
                HIP_CHECK(cudaStreamDestroy(s));
            }
        }
    }
}

/* interStrmEventSyncCapture */
static void interStrmEventSyncCapture(cudaStream_t stream1, cudaStream_t stream2) {
    cudaGraph_t graph1 = NULL, graph2 = NULL;
    cudaGraphExec_t graphExec1 = NULL, graphExec2 = NULL;
    cudaEvent_t event = new_event();
    HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
    HIP_CHECK(cudaEventRecord(event, stream1));
    HIP_CHECK(cudaStreamWaitEvent(stream2, event, 0));
    dummyKernel(stream1);
    HIP_CHECK(cudaStreamEndCapture(stream1, &graph1));
    HIP_CHECK(cudaStreamBeginCapture(stream2, cudaStreamCaptureModeGlobal));
    dummyKernel(stream2);
    dummyKernel(stream2);
    HIP_CHECK(cudaStreamEndCapture(stream2, &graph2));
    size_t numNodes1 = 0, numNodes2 = 0;
    HIP_CHECK(cudaGraphGetNodes(graph1, NULL, &numNodes1));
    HIP_CHECK(cudaGraphGetNodes(graph2, NULL, &numNodes2));
    CHECK_EQ((long long)numNodes1, 1);
    CHECK_EQ((long long)numNodes2, 2);
    HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
    CHECK(graphExec1 != NULL);
    HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph2, 0));
    CHECK(graphExec2 != NULL);
    for (size_t i = 0; i < kLaunchIters; i++) {
        HIP_CHECK(cudaGraphLaunch(graphExec1, stream1));
        HIP_CHECK(cudaGraphLaunch(graphExec2, stream2));
        HIP_CHECK(cudaStreamSynchronize(stream1));
        HIP_CHECK(cudaStreamSynchronize(stream2));
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec2));
    HIP_CHECK(cudaGraphExecDestroy(graphExec1));
    HIP_CHECK(cudaGraphDestroy(graph2));
    HIP_CHECK(cudaGraphDestroy(graph1));
    HIP_CHECK(cudaEventDestroy(event));
}

/* colligatedStrmCapture */
static void colligatedStrmCapture(cudaStream_t stream1, cudaStream_t stream2) {
    cudaGraph_t graph1 = NULL, graph2 = NULL;
    cudaGraphExec_t graphExec1 = NULL, graphExec2 = NULL;
    cudaEvent_t event = new_event();
    HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
    HIP_CHECK(cudaEventRecord(event, stream1));
    HIP_CHECK(cudaStreamBeginCapture(stream2, cudaStreamCaptureModeGlobal));
    HIP_CHECK(cudaStreamWaitEvent(stream1, event, 0));
    dummyKernel(stream1);
    HIP_CHECK(cudaStreamEndCapture(stream1, &graph1));
    dummyKernel(stream2);
    HIP_CHECK(cudaStreamEndCapture(stream2, &graph2));
    CHECK(graph2 != NULL);
    CHECK(graph1 != NULL);
    HIP_CHECK(cudaGraphInstantiate(&graphExec1, graph1, 0));
    CHECK(graphExec1 != NULL);
    HIP_CHECK(cudaGraphInstantiate(&graphExec2, graph2, 0));
    CHECK(graphExec2 != NULL);
    for (size_t i = 0; i < kLaunchIters; i++) {
        HIP_CHECK(cudaGraphLaunch(graphExec1, stream1));
        HIP_CHECK(cudaGraphLaunch(graphExec2, stream2));
        HIP_CHECK(cudaStreamSynchronize(stream1));
        HIP_CHECK(cudaStreamSynchronize(stream2));
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec2));
    HIP_CHECK(cudaGraphExecDestroy(graphExec1));
    HIP_CHECK(cudaGraphDestroy(graph2));
    HIP_CHECK(cudaGraphDestroy(graph1));
    HIP_CHECK(cudaEventDestroy(event));
}

static void BeginCapture_Positive_StrmPairs(void) {
    const unsigned int flags[2] = {cudaStreamDefault, cudaStreamNonBlocking};
    for (int a = 0; a < 2; a++) {
        for (int b = 0; b < 2; b++) {
            cudaStream_t s1, s2;
            HIP_CHECK(cudaStreamCreateWithFlags(&s1, flags[a]));
            HIP_CHECK(cudaStreamCreateWithFlags(&s2, flags[b]));
            interStrmEventSyncCapture(s1, s2); /* InterStrmEventSync_Flags */
            colligatedStrmCapture(s1, s2);     /* ColligatedStrmCapture_Flags */
            HIP_CHECK(cudaStreamDestroy(s1));
            HIP_CHECK(cudaStreamDestroy(s2));
        }
    }
    int minPriority = 0, maxPriority = 0;
    HIP_CHECK(cudaDeviceGetStreamPriorityRange(&minPriority, &maxPriority));
    cudaStream_t s1, s2;
    HIP_CHECK(cudaStreamCreateWithPriority(&s1, cudaStreamDefault, minPriority));
    HIP_CHECK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, maxPriority));
    interStrmEventSyncCapture(s1, s2); /* InterStrmEventSync_Priority */
    colligatedStrmCapture(s1, s2);     /* ColligatedStrmCapture_Prio */
    HIP_CHECK(cudaStreamDestroy(s1));
    HIP_CHECK(cudaStreamDestroy(s2));
}

/* threadStrmCaptureFunc / multithreadedTest */
struct capture_job {
    cudaStream_t stream;
    float *A_h, *A_d, *B_h, *B_d;
    cudaGraph_t graph;
    cudaStreamCaptureMode mode;
    struct square_args args;
};
static void *threadStrmCaptureFunc(void *arg) {
    struct capture_job *j = (struct capture_job *)arg;
    HIP_CHECK(cudaStreamBeginCapture(j->stream, j->mode));
    captureSequenceLinear(j->A_h, j->A_d, j->B_d, N, j->stream);
    captureSequenceCompute(j->A_d, j->B_h, j->B_d, N, j->stream, &j->args);
    HIP_CHECK(cudaStreamEndCapture(j->stream, &j->graph));
    return NULL;
}

static void multithreadedTest(cudaStreamCaptureMode mode) {
    size_t Nbytes = N * sizeof(float);
    struct capture_job jobs[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        jobs[i].stream = new_stream();
        jobs[i].A_h = (float *)malloc(Nbytes);
        jobs[i].B_h = (float *)malloc(Nbytes);
        HIP_CHECK(cudaMalloc((void **)&jobs[i].A_d, Nbytes));
        HIP_CHECK(cudaMalloc((void **)&jobs[i].B_d, Nbytes));
        jobs[i].mode = mode;
        jobs[i].graph = NULL;
    }
    for (int i = 0; i < 2; i++) {
        CHECK(pthread_create(&t[i], NULL, threadStrmCaptureFunc, &jobs[i]) == 0);
    }
    for (int i = 0; i < 2; i++) {
        CHECK(pthread_join(t[i], NULL) == 0);
    }
    cudaGraphExec_t graphExec[2];
    for (int i = 0; i < 2; i++) {
        HIP_CHECK(cudaGraphInstantiate(&graphExec[i], jobs[i].graph, 0));
        CHECK(graphExec[i] != NULL);
    }
    for (size_t iter = 0; iter < kLaunchIters; iter++) {
        for (int i = 0; i < 2; i++) {
            for (size_t j = 0; j < N; j++) {
                jobs[i].A_h[j] = (float)iter;
            }
        }
        HIP_CHECK(cudaGraphLaunch(graphExec[0], jobs[0].stream));
        HIP_CHECK(cudaGraphLaunch(graphExec[1], jobs[1].stream));
        HIP_CHECK(cudaStreamSynchronize(jobs[0].stream));
        HIP_CHECK(cudaStreamSynchronize(jobs[1].stream));
        ArrayFindIfNot(jobs[0].B_h, (float)(iter * iter), N);
        ArrayFindIfNot(jobs[1].B_h, (float)(iter * iter), N);
    }
    for (int i = 0; i < 2; i++) {
        HIP_CHECK(cudaGraphExecDestroy(graphExec[i]));
        HIP_CHECK(cudaGraphDestroy(jobs[i].graph));
        HIP_CHECK(cudaStreamDestroy(jobs[i].stream));
        HIP_CHECK(cudaFree(jobs[i].A_d));
        HIP_CHECK(cudaFree(jobs[i].B_d));
        free(jobs[i].A_h);
        free(jobs[i].B_h);
    }
}

static void BeginCapture_Positive_Multithreaded(void) {
    for (int m = 0; m < 3; m++) {
        multithreadedTest(modes[m]);
    }
}

static void BeginCapture_Positive_Multiplestrms(void) {
    for (int section = 0; section < 2; section++) {
        cudaStream_t streams[3] = {new_stream(), new_stream(), new_stream()};
        cudaGraph_t graphs[3];
        size_t numNodes1 = 0, numNodes2 = 0, numNodes3 = 0;
        cudaEvent_t events[2] = {new_event(), new_event()};
        if (section == 0) {
            /* SECTION("Capture Multiple stream with interdependent events") */
            HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
            HIP_CHECK(cudaEventRecord(events[0], streams[0]));
            HIP_CHECK(cudaStreamWaitEvent(streams[1], events[0], 0));
            dummyKernel(streams[0]);
            HIP_CHECK(cudaStreamEndCapture(streams[0], &graphs[0]));
            HIP_CHECK(cudaStreamBeginCapture(streams[1], cudaStreamCaptureModeGlobal));
            HIP_CHECK(cudaEventRecord(events[1], streams[1]));
            HIP_CHECK(cudaStreamWaitEvent(streams[2], events[1], 0));
            dummyKernel(streams[1]);
            HIP_CHECK(cudaStreamEndCapture(streams[1], &graphs[1]));
            HIP_CHECK(cudaStreamBeginCapture(streams[2], cudaStreamCaptureModeGlobal));
            dummyKernel(streams[2]);
            HIP_CHECK(cudaStreamEndCapture(streams[2], &graphs[2]));
        } else {
            /* SECTION("Capture Multiple stream with single event") */
            cudaEvent_t event = events[0];
            HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
            HIP_CHECK(cudaEventRecord(event, streams[0]));
            HIP_CHECK(cudaStreamWaitEvent(streams[1], event, 0));
            HIP_CHECK(cudaStreamWaitEvent(streams[2], event, 0));
            dummyKernel(streams[0]);
            HIP_CHECK(cudaStreamEndCapture(streams[0], &graphs[0]));
            HIP_CHECK(cudaStreamBeginCapture(streams[1], cudaStreamCaptureModeGlobal));
            dummyKernel(streams[1]);
            HIP_CHECK(cudaStreamEndCapture(streams[1], &graphs[1]));
            HIP_CHECK(cudaStreamBeginCapture(streams[2], cudaStreamCaptureModeGlobal));
            dummyKernel(streams[2]);
            HIP_CHECK(cudaStreamEndCapture(streams[2], &graphs[2]));
        }
        HIP_CHECK(cudaGraphGetNodes(graphs[0], NULL, &numNodes1));
        HIP_CHECK(cudaGraphGetNodes(graphs[1], NULL, &numNodes2));
        HIP_CHECK(cudaGraphGetNodes(graphs[2], NULL, &numNodes3));
        CHECK_EQ((long long)numNodes1, 1);
        CHECK_EQ((long long)numNodes2, 1);
        CHECK_EQ((long long)numNodes3, 1);
        for (int i = 0; i < 3; i++) {
            HIP_CHECK(cudaGraphDestroy(graphs[i]));
            HIP_CHECK(cudaStreamDestroy(streams[i]));
        }
        HIP_CHECK(cudaEventDestroy(events[0]));
        HIP_CHECK(cudaEventDestroy(events[1]));
    }
}

/* CapturingFromWithinStrms (the first kernels of streams[1] and [2] run before they join the capture) and
 * nestedStreamCapture: both expect 7 captured increments. */
static void incrementGraph(int fromWithin) {
    const int INCREMENT_KERNEL_FINALEXP_VAL = 7;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t graphExec = NULL;
    cudaStream_t streams[3] = {new_stream(), new_stream(), new_stream()};
    cudaEvent_t events[4] = {new_event(), new_event(), new_event(), new_event()};
    int *hostMem = (int *)malloc(sizeof(int));
    int *devMem = NULL;
    HIP_CHECK(cudaMalloc((void **)&devMem, sizeof(int)));
    HIP_CHECK(cudaMemset(devMem, 0, sizeof(int)));
    HIP_CHECK(cudaDeviceSynchronize());
    if (fromWithin) {
        incrementKernel(streams[0], devMem);
        HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
        HIP_CHECK(cudaEventRecord(events[0], streams[0]));
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[2], devMem);
        HIP_CHECK(cudaStreamWaitEvent(streams[1], events[0], 0));
        HIP_CHECK(cudaStreamWaitEvent(streams[2], events[0], 0));
        incrementKernel(streams[0], devMem);
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[2], devMem);
        incrementKernel(streams[0], devMem);
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[2], devMem);
        incrementKernel(streams[2], devMem);
        HIP_CHECK(cudaEventRecord(events[1], streams[1]));
        HIP_CHECK(cudaEventRecord(events[2], streams[2]));
        HIP_CHECK(cudaStreamWaitEvent(streams[0], events[1], 0));
        HIP_CHECK(cudaStreamWaitEvent(streams[0], events[2], 0));
    } else {
        HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
        HIP_CHECK(cudaEventRecord(events[0], streams[0]));
        HIP_CHECK(cudaStreamWaitEvent(streams[1], events[0], 0));
        HIP_CHECK(cudaEventRecord(events[1], streams[1]));
        HIP_CHECK(cudaStreamWaitEvent(streams[2], events[1], 0));
        incrementKernel(streams[0], devMem);
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[2], devMem);
        incrementKernel(streams[0], devMem);
        incrementKernel(streams[1], devMem);
        incrementKernel(streams[2], devMem);
        incrementKernel(streams[2], devMem);
        HIP_CHECK(cudaEventRecord(events[2], streams[1]));
        HIP_CHECK(cudaEventRecord(events[3], streams[2]));
        HIP_CHECK(cudaStreamWaitEvent(streams[0], events[3], 0));
        HIP_CHECK(cudaStreamWaitEvent(streams[0], events[2], 0));
    }
    HIP_CHECK(cudaMemcpyAsync(hostMem, devMem, sizeof(int), cudaMemcpyDefault, streams[0]));
    HIP_CHECK(cudaStreamEndCapture(streams[0], &graph));
    HIP_CHECK(cudaMemset(devMem, 0, sizeof(int)));
    HIP_CHECK(cudaDeviceSynchronize());
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    CHECK(graphExec != NULL);
    HIP_CHECK(cudaGraphLaunch(graphExec, streams[0]));
    HIP_CHECK(cudaStreamSynchronize(streams[0]));
    CHECK_EQ(*hostMem, INCREMENT_KERNEL_FINALEXP_VAL);
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    for (int i = 0; i < 3; i++) {
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
    for (int i = 0; i < 4; i++) {
        HIP_CHECK(cudaEventDestroy(events[i]));
    }
    HIP_CHECK(cudaFree(devMem));
    free(hostMem);
}

static void BeginCapture_Negative_DetectingInvalidCapture(void) {
    cudaStream_t streams[2] = {new_stream(), new_stream()};
    cudaEvent_t event = new_event();
    cudaGraph_t graph;
    HIP_CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    HIP_CHECK(cudaEventRecord(event, streams[0]));
    HIP_CHECK(cudaStreamWaitEvent(streams[1], event, 0));
    dummyKernel(streams[0]);
    /* Since stream[1] is already in capture mode due to event wait, hipStreamBeginCapture on stream[1] is
     * expected to return error. */
    HIP_CHECK_ERROR(cudaStreamBeginCapture(streams[1], cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    HIP_CHECK(cudaStreamEndCapture(streams[0], &graph));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(streams[0]));
    HIP_CHECK(cudaStreamDestroy(streams[1]));
    HIP_CHECK(cudaEventDestroy(event));
}

static void BeginCapture_Positive_CapturingMultGraphsFrom1Strm(void) {
    cudaGraph_t graphs[3];
    cudaStream_t stream1 = new_stream();
    int *hostMem = (int *)malloc(sizeof(int));
    int *devMem = NULL;
    HIP_CHECK(cudaMalloc((void **)&devMem, sizeof(int)));
    HIP_CHECK(cudaMemset(devMem, 0, sizeof(int)));
    HIP_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 3; i++) {
        HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
        for (int j = 0; j <= i; j++) {
            incrementKernel(stream1, devMem);
        }
        HIP_CHECK(cudaMemcpyAsync(hostMem, devMem, sizeof(int), cudaMemcpyDefault, stream1));
        HIP_CHECK(cudaStreamEndCapture(stream1, &graphs[i]));
    }
    for (int i = 0; i < 3; i++) {
        cudaGraphExec_t graphExec = NULL;
        HIP_CHECK(cudaMemset(devMem, 0, sizeof(int)));
        HIP_CHECK(cudaGraphInstantiate(&graphExec, graphs[i], 0));
        HIP_CHECK(cudaGraphLaunch(graphExec, stream1));
        HIP_CHECK(cudaStreamSynchronize(stream1));
        CHECK_EQ(*hostMem, i + 1);
        HIP_CHECK(cudaGraphExecDestroy(graphExec));
        HIP_CHECK(cudaGraphDestroy(graphs[i]));
    }
    HIP_CHECK(cudaStreamDestroy(stream1));
    HIP_CHECK(cudaFree(devMem));
    free(hostMem);
}

static void BeginCapture_Negative_CheckingSyncDuringCapture(void) {
    for (int m = 0; m < 3; m++) {
        for (int section = 0; section < 5; section++) {
            cudaStream_t stream = new_stream();
            cudaEvent_t e = new_event();
            cudaGraph_t graph = NULL;
            HIP_CHECK(cudaStreamBeginCapture(stream, modes[m]));
            switch (section) {
            case 0: /* SECTION("Synchronize stream during capture") */
                HIP_CHECK_ERROR(cudaStreamSynchronize(stream), cudaErrorStreamCaptureUnsupported);
                break;
            case 1: /* SECTION("Query stream during capture") */
                HIP_CHECK_ERROR(cudaStreamQuery(stream), cudaErrorStreamCaptureUnsupported);
                break;
            case 2: /* SECTION("Synchronize device during capture") */
                HIP_CHECK_ERROR(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported);
                break;
            case 3: /* SECTION("Synchronize event during capture") */
                HIP_CHECK(cudaEventRecord(e, stream));
                HIP_CHECK_ERROR(cudaEventSynchronize(e), cudaErrorCapturedEvent);
                break;
            default: /* SECTION("Query for an event during capture") */
                HIP_CHECK(cudaEventRecord(e, stream));
                HIP_CHECK_ERROR(cudaEventQuery(e), cudaErrorCapturedEvent);
                break;
            }
            /* STREAMSIM: the guard destroys the stream; the capture, invalidated, is ended first. */
            HIP_CHECK_ERROR(cudaStreamEndCapture(stream, &graph), cudaErrorStreamCaptureInvalidated);
            CHECK(graph == NULL);
            HIP_CHECK(cudaStreamDestroy(stream));
            HIP_CHECK(cudaEventDestroy(e));
        }
    }
}

static void BeginCapture_Negative_UnsafeCallsDuringCapture(void) {
    const cudaStreamCaptureMode unsafeModes[2] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal};
    for (int m = 0; m < 2; m++) {
        for (int section = 0; section < 3; section++) {
            cudaStream_t stream = new_stream();
            int *hostMem = (int *)malloc(sizeof(int));
            int *devMem = NULL;
            HIP_CHECK(cudaMalloc((void **)&devMem, sizeof(int)));
            int *devMem2 = NULL;
            cudaGraph_t graph = NULL;
            HIP_CHECK(cudaStreamBeginCapture(stream, unsafeModes[m]));
            switch (section) {
            case 0: /* SECTION("hipMalloc during capture") */
                HIP_CHECK_ERROR(cudaMalloc((void **)&devMem2, sizeof(int)), cudaErrorStreamCaptureUnsupported);
                break;
            case 1: /* SECTION("hipMemcpy during capture") */
                HIP_CHECK_ERROR(cudaMemcpy(devMem, hostMem, sizeof(int), cudaMemcpyHostToDevice),
                                cudaErrorStreamCaptureImplicit);
                break;
            default: /* SECTION("hipMemset during capture") */
                HIP_CHECK_ERROR(cudaMemset(devMem, 0, sizeof(int)), cudaErrorStreamCaptureImplicit);
                break;
            }
            HIP_CHECK_ERROR(cudaStreamEndCapture(stream, &graph), cudaErrorStreamCaptureInvalidated);
            HIP_CHECK(cudaStreamDestroy(stream));
            HIP_CHECK(cudaFree(devMem));
            free(hostMem);
        }
    }
}

static void BeginCapture_Negative_EndingCapwhenCapInProg(void) {
    cudaGraph_t graph = NULL;
    for (int section = 0; section < 2; section++) {
        cudaStream_t stream1 = new_stream(), stream2 = new_stream();
        if (section == 0) {
            /* SECTION("Abruptly end strm capture when in progress in forked strm") */
            cudaEvent_t e = new_event();
            HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
            dummyKernel(stream1);
            HIP_CHECK(cudaEventRecord(e, stream1));
            HIP_CHECK(cudaStreamWaitEvent(stream2, e, 0));
            dummyKernel(stream2);
            HIP_CHECK_ERROR(cudaStreamEndCapture(stream1, &graph), cudaErrorStreamCaptureUnjoined);
            HIP_CHECK(cudaEventDestroy(e));
        } else {
            /* SECTION("End strm capture when forked strm still has operations") */
            cudaEvent_t e1 = new_event(), e2 = new_event();
            HIP_CHECK(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
            dummyKernel(stream1);
            HIP_CHECK(cudaEventRecord(e1, stream1));
            HIP_CHECK(cudaStreamWaitEvent(stream2, e1, 0));
            dummyKernel(stream2);
            HIP_CHECK(cudaEventRecord(e2, stream2));
            HIP_CHECK(cudaStreamWaitEvent(stream1, e2, 0));
            dummyKernel(stream2);
            HIP_CHECK_ERROR(cudaStreamEndCapture(stream1, &graph), cudaErrorStreamCaptureUnjoined);
            HIP_CHECK(cudaEventDestroy(e1));
            HIP_CHECK(cudaEventDestroy(e2));
        }
        HIP_CHECK(cudaStreamDestroy(stream1));
        HIP_CHECK(cudaStreamDestroy(stream2));
    }
}

/* ------------------------------------------------------------------------------------------------ hipStreamIsCapturing.cc */

static void IsCapturing_Negative_Parameters(void) {
    cudaStream_t stream = new_stream();
    cudaStreamCaptureStatus cStatus;
    /* SECTION("Check capture status with null pCaptureStatus.") */
    HIP_CHECK_ERROR(cudaStreamIsCapturing(stream, NULL), cudaErrorInvalidValue);
    /* SECTION("Check capture status when checked on null stream") */
    cudaGraph_t graph = NULL;
    HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    HIP_CHECK_ERROR(cudaStreamIsCapturing(NULL, &cStatus), cudaErrorStreamCaptureImplicit);
    HIP_CHECK(cudaStreamEndCapture(stream, &graph));
    HIP_CHECK(cudaGraphDestroy(graph));
    /* SECTION("Check capture status when stream is uninitialized") */
    cudaStream_t gone = new_stream();
    HIP_CHECK(cudaStreamDestroy(gone));
    /* STREAMSIM: hipErrorContextIsDestroyed in HIP; 400 here. */
    HIP_CHECK_ERROR(cudaStreamIsCapturing(gone, &cStatus), cudaErrorInvalidResourceHandle);
    HIP_CHECK(cudaStreamDestroy(stream));
}

static void checkStreamCaptureStatus(cudaStreamCaptureMode mode, cudaStream_t stream) {
    size_t Nbytes = N * sizeof(float);
    cudaStreamCaptureStatus cStatus;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t graphExec = NULL;
    float *A_h = (float *)malloc(Nbytes), *B_h = (float *)malloc(Nbytes), *A_d = NULL;
    HIP_CHECK(cudaMalloc((void **)&A_d, Nbytes));
    HIP_CHECK(cudaStreamIsCapturing(stream, &cStatus));
    CHECK_EQ(cStatus, cudaStreamCaptureStatusNone);
    HIP_CHECK(cudaStreamBeginCapture(stream, mode));
    captureSequenceSimple(A_h, A_d, B_h, N, stream);
    HIP_CHECK(cudaStreamIsCapturing(stream, &cStatus));
    CHECK_EQ(cStatus, cudaStreamCaptureStatusActive);
    HIP_CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(graph != NULL);
    HIP_CHECK(cudaStreamIsCapturing(stream, &cStatus));
    CHECK_EQ(cStatus, cudaStreamCaptureStatusNone);
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    CHECK(graphExec != NULL);
    for (size_t i = 0; i < kLaunchIters; i++) {
        for (size_t j = 0; j < N; j++) {
            A_h[j] = (float)i;
        }
        HIP_CHECK(cudaGraphLaunch(graphExec, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
        ArrayFindIfNot(B_h, (float)i, N);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaFree(A_d));
    free(A_h);
    free(B_h);
}

static void IsCapturing_Positive(void) {
    for (int st = 0; st < 2; st++) {
        cudaStream_t stream = st == 0 ? cudaStreamPerThread : new_stream();
        cudaStreamCaptureStatus cStatus;
        HIP_CHECK(cudaStreamIsCapturing(stream, &cStatus)); /* Unit_hipStreamIsCapturing_Positive_Basic */
        CHECK_EQ(cStatus, cudaStreamCaptureStatusNone);
        for (int m = 0; m < 3; m++) {
            checkStreamCaptureStatus(modes[m], stream); /* Unit_hipStreamIsCapturing_Positive_Functional */
        }
        if (st == 1) {
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

static void *isCapturingThread(void *arg) {
    cudaStreamCaptureStatus cStatus;
    HIP_CHECK(cudaStreamIsCapturing((cudaStream_t)arg, &cStatus));
    CHECK_EQ(cStatus, cudaStreamCaptureStatusActive);
    return NULL;
}

static void IsCapturing_Positive_Thread(void) {
    size_t Nbytes = N * sizeof(float);
    cudaGraph_t graph = NULL;
    cudaStream_t stream = new_stream();
    float *A_h = (float *)malloc(Nbytes), *B_h = (float *)malloc(Nbytes), *A_d = NULL;
    HIP_CHECK(cudaMalloc((void **)&A_d, Nbytes));
    HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    captureSequenceSimple(A_h, A_d, B_h, N, stream);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, isCapturingThread, (void *)stream) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    HIP_CHECK(cudaStreamEndCapture(stream, &graph));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaStreamDestroy(stream));
    HIP_CHECK(cudaFree(A_d));
    free(A_h);
    free(B_h);
}

/* ------------------------------------------------------------------------------------------------ hipStreamEndCapture.cc */

static void EndCapture_Negative_Parameters(void) {
    for (int st = 0; st < 2; st++) {
        cudaGraph_t graph = NULL;
        cudaStream_t stream = st == 0 ? cudaStreamPerThread : new_stream();
        /* SECTION("Pass stream as nullptr") */
        HIP_CHECK_ERROR(cudaStreamEndCapture(NULL, &graph), cudaErrorIllegalState);
        /* SECTION("Pass graph as nullptr") (HT_NVIDIA) */
        HIP_CHECK_ERROR(cudaStreamEndCapture(stream, NULL), cudaErrorInvalidValue);
        /* SECTION("End capture on stream where capture has not yet started") */
        HIP_CHECK_ERROR(cudaStreamEndCapture(stream, &graph), cudaErrorIllegalState);
        /* SECTION("Destroy stream and try to end capture") */
        cudaStream_t destroyed_stream;
        HIP_CHECK(cudaStreamCreate(&destroyed_stream));
        HIP_CHECK(cudaStreamBeginCapture(destroyed_stream, cudaStreamCaptureModeGlobal));
        HIP_CHECK(cudaStreamDestroy(destroyed_stream));
        /* STREAMSIM: hipErrorContextIsDestroyed in HIP; 400 here. */
        HIP_CHECK_ERROR(cudaStreamEndCapture(destroyed_stream, &graph), cudaErrorInvalidResourceHandle);
        if (st == 1) {
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
}

struct end_job {
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaError_t got;
};
static void *endCaptureThread(void *arg) {
    struct end_job *j = (struct end_job *)arg;
    j->got = cudaStreamEndCapture(j->stream, &j->graph);
    return NULL;
}

static void EndCapture_Thread(void) {
    size_t Nbytes = N * sizeof(float);
    float *A_h = (float *)malloc(Nbytes), *B_h = (float *)malloc(Nbytes), *A_d = NULL;
    HIP_CHECK(cudaMalloc((void **)&A_d, Nbytes));
    for (int relaxed = 0; relaxed < 2; relaxed++) {
        struct end_job j;
        j.stream = new_stream();
        j.graph = NULL;
        HIP_CHECK(cudaStreamBeginCapture(j.stream, relaxed ? cudaStreamCaptureModeRelaxed
                                                           : cudaStreamCaptureModeGlobal));
        captureSequenceSimple(A_h, A_d, B_h, N, j.stream);
        pthread_t t;
        CHECK(pthread_create(&t, NULL, endCaptureThread, &j) == 0);
        CHECK(pthread_join(t, NULL) == 0);
        if (!relaxed) {
            /* Unit_hipStreamEndCapture_Negative_Thread */
            CHECK_EQ(j.got, cudaErrorStreamCaptureWrongThread);
        } else {
            /* Unit_hipStreamEndCapture_Positive_Thread */
            CHECK_EQ(j.got, cudaSuccess);
            CHECK(j.graph != NULL);
            cudaGraphExec_t graphExec = NULL;
            HIP_CHECK(cudaGraphInstantiate(&graphExec, j.graph, 0));
            for (size_t i = 0; i < kLaunchIters; i++) {
                for (size_t k = 0; k < N; k++) {
                    A_h[k] = (float)i;
                }
                HIP_CHECK(cudaGraphLaunch(graphExec, j.stream));
                HIP_CHECK(cudaStreamSynchronize(j.stream));
                ArrayFindIfNot(B_h, (float)i, N);
            }
            HIP_CHECK(cudaGraphExecDestroy(graphExec));
            HIP_CHECK(cudaGraphDestroy(j.graph));
        }
        HIP_CHECK(cudaStreamDestroy(j.stream));
    }
    HIP_CHECK(cudaFree(A_d));
    free(A_h);
    free(B_h);
}

/* ------------------------------------------------------------------------------------------------ hipStreamGetCaptureInfo.cc */

static void checkStreamCaptureInfo(cudaStreamCaptureMode mode, cudaStream_t stream) {
    size_t Nbytes = N * sizeof(float);
    cudaStreamCaptureStatus captureStatus = cudaStreamCaptureStatusNone;
    unsigned long long capSequenceID = 0;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t graphExec = NULL;
    float *A_h = (float *)malloc(Nbytes), *B_h = (float *)malloc(Nbytes), *A_d = NULL;
    HIP_CHECK(cudaMalloc((void **)&A_d, Nbytes));
    HIP_CHECK(cudaStreamBeginCapture(stream, mode));
    captureSequenceSimple(A_h, A_d, B_h, N, stream);
    HIP_CHECK(cudaStreamGetCaptureInfo(stream, &captureStatus, &capSequenceID, NULL, NULL, NULL));
    CHECK_EQ(captureStatus, cudaStreamCaptureStatusActive);
    CHECK(capSequenceID > 0);
    HIP_CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(graph != NULL);
    capSequenceID = 0;
    HIP_CHECK(cudaStreamGetCaptureInfo(stream, &captureStatus, &capSequenceID, NULL, NULL, NULL));
    CHECK_EQ(captureStatus, cudaStreamCaptureStatusNone);
    CHECK_EQ((long long)capSequenceID, 0);
    HIP_CHECK(cudaStreamGetCaptureInfo(stream, &captureStatus, NULL, NULL, NULL, NULL));
    CHECK_EQ(captureStatus, cudaStreamCaptureStatusNone);
    HIP_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
    CHECK(graphExec != NULL);
    for (size_t i = 0; i < kLaunchIters; i++) {
        for (size_t k = 0; k < N; k++) {
            A_h[k] = (float)i;
        }
        HIP_CHECK(cudaGraphLaunch(graphExec, stream));
        HIP_CHECK(cudaStreamSynchronize(stream));
        ArrayFindIfNot(B_h, (float)i, N);
    }
    HIP_CHECK(cudaGraphExecDestroy(graphExec));
    HIP_CHECK(cudaGraphDestroy(graph));
    HIP_CHECK(cudaFree(A_d));
    free(A_h);
    free(B_h);
}

static void GetCaptureInfo(void) {
    for (int st = 0; st < 2; st++) {
        cudaStream_t stream = st == 0 ? cudaStreamPerThread : new_stream();
        for (int m = 0; m < 3; m++) {
            checkStreamCaptureInfo(modes[m], stream); /* Positive_Functional */
        }
        /* Negative_Parameters */
        unsigned long long capSequenceID;
        cudaStreamCaptureStatus cStatus;
        HIP_CHECK_ERROR(cudaStreamGetCaptureInfo(stream, NULL, &capSequenceID, NULL, NULL, NULL),
                        cudaErrorInvalidValue);
        if (st == 1) {
            /* "Capture status when checked on null stream" (HT_NVIDIA): only a created stream is a blocking
             * stream the legacy stream encompasses. STREAMSIM: the per-thread stream also is, in CUDA; the
             * test's GENERATE runs the section for both, with the same answer. */
            cudaGraph_t graph = NULL;
            HIP_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            HIP_CHECK_ERROR(cudaStreamGetCaptureInfo(NULL, &cStatus, &capSequenceID, NULL, NULL, NULL),
                            cudaErrorStreamCaptureImplicit);
            HIP_CHECK(cudaStreamEndCapture(stream, &graph));
            HIP_CHECK(cudaGraphDestroy(graph));
            cudaStream_t gone = new_stream();
            HIP_CHECK(cudaStreamDestroy(gone));
            HIP_CHECK_ERROR(cudaStreamGetCaptureInfo(gone, &cStatus, &capSequenceID, NULL, NULL, NULL),
                            cudaErrorInvalidResourceHandle); /* STREAMSIM: HIP 709 */
            HIP_CHECK(cudaStreamDestroy(stream));
        }
    }
    /* Positive_UniqueID: 100 concurrent captures, 100 different ids. */
    enum { numStreams = 100 };
    cudaStream_t streams[numStreams];
    unsigned long long ids[numStreams];
    for (int i = 0; i < numStreams; i++) {
        cudaStreamCaptureStatus captureStatus;
        streams[i] = new_stream();
        HIP_CHECK(cudaStreamBeginCapture(streams[i], cudaStreamCaptureModeGlobal));
        HIP_CHECK(cudaStreamGetCaptureInfo(streams[i], &captureStatus, &ids[i], NULL, NULL, NULL));
        CHECK_EQ(captureStatus, cudaStreamCaptureStatusActive);
        CHECK(ids[i] > 0);
    }
    for (int i = 0; i < numStreams; i++) {
        for (int j = i + 1; j < numStreams; j++) {
            CHECK(ids[i] != ids[j]);
        }
    }
    for (int i = 0; i < numStreams; i++) {
        cudaGraph_t graph;
        HIP_CHECK(cudaStreamEndCapture(streams[i], &graph));
        HIP_CHECK(cudaGraphDestroy(graph));
        HIP_CHECK(cudaStreamDestroy(streams[i]));
    }
}

/* ------------------------------------------------------------------------------------------------ hipGraphLaunch.cc */

static void GraphLaunch_Negative_Parameters(void) {
    {
        /* SECTION("graphExec is nullptr and stream is a created stream") */
        cudaStream_t stream;
        cudaError_t ret;
        HIP_CHECK(cudaStreamCreate(&stream));
        ret = cudaGraphLaunch(NULL, stream);
        HIP_CHECK(cudaStreamDestroy(stream));
        CHECK_EQ(ret, cudaErrorInvalidValue);
    }
    /* SECTION("graphExec is nullptr and stream is hipStreamPerThread") */
    HIP_CHECK_ERROR(cudaGraphLaunch(NULL, cudaStreamPerThread), cudaErrorInvalidValue);
    {
        /* SECTION("graphExec is destroyed"): CreateTestExecutableGraph captures a kernel setting `number` to 1
         * (STREAMSIM: a host function, the stand-in keeps the data on the host). */
        cudaGraph_t graph;
        cudaGraphExec_t graph_exec;
        HIP_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
        dummyKernel(cudaStreamPerThread);
        HIP_CHECK(cudaStreamEndCapture(cudaStreamPerThread, &graph));
        HIP_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
        HIP_CHECK(cudaGraphLaunch(graph_exec, cudaStreamPerThread));
        HIP_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
        HIP_CHECK(cudaGraphExecDestroy(graph_exec));
        HIP_CHECK_ERROR(cudaGraphLaunch(graph_exec, cudaStreamPerThread), cudaErrorInvalidValue);
        HIP_CHECK(cudaGraphDestroy(graph));
    }
}

int main(void) {
    BeginCapture_Positive_Functional();
    BeginCapture_Negative_Parameters();
    BeginCapture_Positive_Basic();
    BeginCapture_Positive_StrmPairs();
    BeginCapture_Positive_Multithreaded();
    BeginCapture_Positive_Multiplestrms();
    incrementGraph(1); /* Unit_hipStreamBeginCapture_Positive_CapturingFromWithinStrms */
    incrementGraph(0); /* Unit_hipStreamBeginCapture_Positive_nestedStreamCapture */
    BeginCapture_Negative_DetectingInvalidCapture();
    BeginCapture_Positive_CapturingMultGraphsFrom1Strm();
    BeginCapture_Negative_CheckingSyncDuringCapture();
    BeginCapture_Negative_UnsafeCallsDuringCapture();
    BeginCapture_Negative_EndingCapwhenCapInProg();
    IsCapturing_Negative_Parameters();
    IsCapturing_Positive();
    IsCapturing_Positive_Thread();
    EndCapture_Negative_Parameters();
    EndCapture_Thread();
    GetCaptureInfo();
    GraphLaunch_Negative_Parameters();
    printf("hip-tests stream capture: all checks passed\n");
    return 0;
}
