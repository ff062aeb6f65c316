/*
 * cuda_sample_simple_cuda_graphs.c — NVIDIA cuda-samples Samples/3_CUDA_Features/simpleCudaGraphs/
 * simpleCudaGraphs.cu (github.com/NVIDIA/cuda-samples, commit c94ff366aed18c797b8a85dfaac7817b0228b420), its
 * stream-capture half (cudaGraphsUsingStreamCapture and main), ported to streamsim.
 *
 * Every runtime call and every check of cudaGraphsUsingStreamCapture and main is kept, in the original order:
 * four streams, a fork through forkStreamEvent to stream2 and stream3, the input copy on stream1 and two memsets
 * on the forks, joined back through memsetEvent1 / memsetEvent2 before the two reductions, the result copied to
 * the stack variable result_h and a host function printing it; cudaStreamEndCapture, cudaGraphGetNodes,
 * cudaGraphInstantiate, cudaGraphClone, each executable graph launched 3 times on streamForGraph.
 * Changes, all marked STREAMSIM:
 *   - helper_cuda.h is replaced by tests/c/cuda_samples_helpers.h;
 *   - cudaGraphsManual (cudaGraphCreate, cudaGraphAddMemcpyNode / AddMemsetNode / AddKernelNode / AddHostNode)
 *     is left out: its kernel nodes name the kernels by function, which a plain C program does not have (the
 *     unmodified sample, both halves, runs under streamsim cc: tests/suite/cc_programs.rs; the building calls
 *     from C: tests/c/graph_building.c);
 *   - the kernels reduce<<<numOfBlocks, THREADS_PER_BLOCK, 0, stream1>>> and reduceFinal<<<1, …>>> become
 *     cudasimLaunchKernelCtx stand-ins (reduce_launch / reduceFinal_launch) computing the same sums in C on the
 *     device memory: each block's threads sum their grid-stride elements, the block adds its threads' sums in
 *     thread order (the original's shared-memory tree adds them in another order: the sums can differ in the
 *     last bits). A captured kernel's body runs once per launch of the graph, with the same argument, so the
 *     arguments are the caller's (not freed by the body);
 *   - size is 1 << 20 instead of 1 << 24 (the simulator copies and sums real bytes);
 *   - the host callback also keeps each sum it prints, and main checks all 6 against the input's sum computed
 *     on the host, and that the captured graph has the 7 nodes of the sample (memcpy, 2 memsets, 2 kernels,
 *     memcpy, host);
 *   - events on streamForGraph time each series of 3 launches (printed as "… 3 launches: %.3f ms");
 *   - in C, cudaGraphInstantiate is the 3-argument function of CUDA 12 (the 5-argument form the sample calls is
 *     C++'s overload in cuda_runtime.h, which the C++ build calls);
 *   - for C11 as well as C++17: `callBackData_t hostFnData = {0}` becomes `= {NULL, NULL}`
 *     (-Wmissing-field-initializers, in -Wextra); (void **) casts where C++ calls cudaMalloc's and
 *     cudaMallocHost's template overloads; (void) for devID, which the original leaves unused.
 *
 * The original's licence follows.
 */
/* Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *  * Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 *  * Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 *  * Neither the name of NVIDIA CORPORATION nor the names of its
 *    contributors may be used to endorse or promote products derived
 *    from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
 * EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 * IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
 * PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT OWNER OR
 * CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
 * EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
 * PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
 * PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY
 * OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_samples_helpers.h" /* STREAMSIM: for helper_cuda.h */

#define THREADS_PER_BLOCK       512
#define GRAPH_LAUNCH_ITERATIONS 3

typedef struct callBackData
{
    const char *fn_name;
    double     *data;
} callBackData_t;

/* STREAMSIM: the arguments of reduce(inputVec, outputVec, inputSize, outputSize) and its grid. */
struct reduce_args {
    unsigned int gridDim;
    float       *inputVec;
    double      *outputVec;
    size_t       inputSize;
    size_t       outputSize;
};

/* STREAMSIM: __global__ void reduce(…) as a Ctx body: outputVec[b] = the sum of block b's threads' sums, thread t
 * of block b summing inputVec[i] for i = b * THREADS_PER_BLOCK + t, stepping by gridDim * THREADS_PER_BLOCK. */
static void reduce(streamsimKernelCtx *ctx, void *arg)
{
    const struct reduce_args *a = (const struct reduce_args *)arg;
    void *in = NULL, *out = NULL;
    if (streamsimKernelMap(ctx, a->inputVec, a->inputSize * sizeof(float), &in) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, a->outputVec, a->outputSize * sizeof(double), &out) != STREAMSIM_SUCCESS) {
        return;
    }
    const float *inputVec  = (const float *)in;
    double      *outputVec = (double *)out;
    size_t       stride    = (size_t)a->gridDim * THREADS_PER_BLOCK;
    for (unsigned int blockIdx = 0; blockIdx < a->gridDim && blockIdx < a->outputSize; blockIdx++) {
        double beta = 0.0;
        for (unsigned int threadIdx = 0; threadIdx < THREADS_PER_BLOCK; threadIdx++) {
            double temp_sum = 0.0;
            for (size_t i = (size_t)blockIdx * THREADS_PER_BLOCK + threadIdx; i < a->inputSize; i += stride) {
                temp_sum += (double)inputVec[i];
            }
            beta += temp_sum;
        }
        outputVec[blockIdx] = beta;
    }
}

/* STREAMSIM: reduce<<<numOfBlocks, THREADS_PER_BLOCK, 0, stream>>>(…): 50 µs, reading inputVec and writing
 * outputVec. */
static cudaError_t reduce_launch(cudaStream_t stream, struct reduce_args *a)
{
    streamsimAccess acc[2] = {{a->inputVec, a->inputSize * sizeof(float), STREAMSIM_ACCESS_READ},
                              {a->outputVec, a->outputSize * sizeof(double), STREAMSIM_ACCESS_WRITE}};
    return cudasimLaunchKernelCtx(stream, "reduce", 50000, reduce, a, acc, 2);
}

/* STREAMSIM: the arguments of reduceFinal(inputVec, result, inputSize). */
struct reduce_final_args {
    double *inputVec;
    double *result;
    size_t  inputSize;
};

/* STREAMSIM: __global__ void reduceFinal(…) with one block as a Ctx body: result[0] = the sum of inputVec. */
static void reduceFinal(streamsimKernelCtx *ctx, void *arg)
{
    const struct reduce_final_args *a = (const struct reduce_final_args *)arg;
    void *in = NULL;
    if (streamsimKernelMap(ctx, a->inputVec, a->inputSize * sizeof(double), &in) != STREAMSIM_SUCCESS) {
        return;
    }
    double temp_sum = 0.0;
    for (size_t i = 0; i < a->inputSize; i++) {
        temp_sum += ((const double *)in)[i];
    }
    (void)streamsimKernelWrite(ctx, a->result, &temp_sum, sizeof temp_sum);
}

/* STREAMSIM: reduceFinal<<<1, THREADS_PER_BLOCK, 0, stream>>>(…): 5 µs, reading inputVec and writing result. */
static cudaError_t reduceFinal_launch(cudaStream_t stream, struct reduce_final_args *a)
{
    streamsimAccess acc[2] = {{a->inputVec, a->inputSize * sizeof(double), STREAMSIM_ACCESS_READ},
                              {a->result, sizeof(double), STREAMSIM_ACCESS_WRITE}};
    return cudasimLaunchKernelCtx(stream, "reduceFinal", 5000, reduceFinal, a, acc, 2);
}

void init_input(float *a, size_t size)
{
    for (size_t i = 0; i < size; i++)
        a[i] = (rand() & 0xFF) / (float)RAND_MAX;
}

/* STREAMSIM: the sums the callback printed, for main's check. */
static double printed_sums[2 * GRAPH_LAUNCH_ITERATIONS];
static int    printed = 0;

void CUDART_CB myHostNodeCallback(void *data)
{
    // Check status of GPU after stream operations are done
    callBackData_t *tmp = (callBackData_t *)(data);
    // checkCudaErrors(tmp->status);

    double *result   = (double *)(tmp->data);
    char   *function = (char *)(tmp->fn_name);
    printf("[%s] Host callback final reduced sum = %lf\n", function, *result);
    if (printed < 2 * GRAPH_LAUNCH_ITERATIONS) { /* STREAMSIM */
        printed_sums[printed++] = *result;
    }
    *result = 0.0; // reset the result
}

/* STREAMSIM: the virtual milliseconds of GRAPH_LAUNCH_ITERATIONS launches of exec on stream, printed. */
static void timeLaunches(const char *what, cudaGraphExec_t exec, cudaStream_t stream)
{
    cudaEvent_t start, stop;
    float       ms = 0.0f;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start, stream));
    for (int i = 0; i < GRAPH_LAUNCH_ITERATIONS; i++) {
        checkCudaErrors(cudaGraphLaunch(exec, stream));
    }
    checkCudaErrors(cudaEventRecord(stop, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    printf("STREAMSIM %s, %d launches: %.3f ms\n", what, GRAPH_LAUNCH_ITERATIONS, ms);
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
}

void cudaGraphsUsingStreamCapture(float  *inputVec_h,
                                  float  *inputVec_d,
                                  double *outputVec_d,
                                  double *result_d,
                                  size_t  inputSize,
                                  size_t  numOfBlocks)
{
    cudaStream_t stream1, stream2, stream3, streamForGraph;
    cudaEvent_t  forkStreamEvent, memsetEvent1, memsetEvent2;
    cudaGraph_t  graph;
    double       result_h = 0.0;

    checkCudaErrors(cudaStreamCreate(&stream1));
    checkCudaErrors(cudaStreamCreate(&stream2));
    checkCudaErrors(cudaStreamCreate(&stream3));
    checkCudaErrors(cudaStreamCreate(&streamForGraph));

    checkCudaErrors(cudaEventCreate(&forkStreamEvent));
    checkCudaErrors(cudaEventCreate(&memsetEvent1));
    checkCudaErrors(cudaEventCreate(&memsetEvent2));

    checkCudaErrors(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));

    checkCudaErrors(cudaEventRecord(forkStreamEvent, stream1));
    checkCudaErrors(cudaStreamWaitEvent(stream2, forkStreamEvent, 0));
    checkCudaErrors(cudaStreamWaitEvent(stream3, forkStreamEvent, 0));

    checkCudaErrors(cudaMemcpyAsync(inputVec_d, inputVec_h, sizeof(float) * inputSize, cudaMemcpyDefault, stream1));

    checkCudaErrors(cudaMemsetAsync(outputVec_d, 0, sizeof(double) * numOfBlocks, stream2));

    checkCudaErrors(cudaEventRecord(memsetEvent1, stream2));

    checkCudaErrors(cudaMemsetAsync(result_d, 0, sizeof(double), stream3));
    checkCudaErrors(cudaEventRecord(memsetEvent2, stream3));

    checkCudaErrors(cudaStreamWaitEvent(stream1, memsetEvent1, 0));

    /* STREAMSIM: reduce<<<numOfBlocks, THREADS_PER_BLOCK, 0, stream1>>>(inputVec_d, outputVec_d, inputSize,
     * numOfBlocks); */
    struct reduce_args reduceArgs = {(unsigned int)numOfBlocks, inputVec_d, outputVec_d, inputSize, numOfBlocks};
    checkCudaErrors(reduce_launch(stream1, &reduceArgs));

    checkCudaErrors(cudaStreamWaitEvent(stream1, memsetEvent2, 0));

    /* STREAMSIM: reduceFinal<<<1, THREADS_PER_BLOCK, 0, stream1>>>(outputVec_d, result_d, numOfBlocks); */
    struct reduce_final_args finalArgs = {outputVec_d, result_d, numOfBlocks};
    checkCudaErrors(reduceFinal_launch(stream1, &finalArgs));
    checkCudaErrors(cudaMemcpyAsync(&result_h, result_d, sizeof(double), cudaMemcpyDefault, stream1));

    callBackData_t hostFnData = {NULL, NULL}; /* STREAMSIM: {0} */
    hostFnData.data           = &result_h;
    hostFnData.fn_name        = "cudaGraphsUsingStreamCapture";
    cudaHostFn_t fn           = myHostNodeCallback;
    checkCudaErrors(cudaLaunchHostFunc(stream1, fn, &hostFnData));
    checkCudaErrors(cudaStreamEndCapture(stream1, &graph));

    cudaGraphNode_t *nodes    = NULL;
    size_t           numNodes = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, nodes, &numNodes));
    printf("\nNum of nodes in the graph created using stream capture API = %zu\n", numNodes);
    if (numNodes != 7) { /* STREAMSIM */
        printf("STREAMSIM: expected 7 nodes\n");
        exit(EXIT_FAILURE);
    }

    cudaGraphExec_t graphExec;
#ifdef __cplusplus
    checkCudaErrors(cudaGraphInstantiate(&graphExec, graph, NULL, NULL, 0));
#else
    checkCudaErrors(cudaGraphInstantiate(&graphExec, graph, 0)); /* STREAMSIM: CUDA 12's C function */
#endif

    cudaGraph_t     clonedGraph;
    cudaGraphExec_t clonedGraphExec;
    checkCudaErrors(cudaGraphClone(&clonedGraph, graph));
#ifdef __cplusplus
    checkCudaErrors(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, NULL, NULL, 0));
#else
    checkCudaErrors(cudaGraphInstantiate(&clonedGraphExec, clonedGraph, 0)); /* STREAMSIM */
#endif

    /* STREAMSIM: the launch loop and the synchronize, timed by events (timeLaunches). */
    timeLaunches("graph", graphExec, streamForGraph);

    printf("Cloned Graph Output.. \n");
    /* STREAMSIM: the launch loop and the synchronize, timed by events (timeLaunches). */
    timeLaunches("cloned graph", clonedGraphExec, streamForGraph);

    checkCudaErrors(cudaGraphExecDestroy(graphExec));
    checkCudaErrors(cudaGraphExecDestroy(clonedGraphExec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaGraphDestroy(clonedGraph));
    checkCudaErrors(cudaStreamDestroy(stream1));
    checkCudaErrors(cudaStreamDestroy(stream2));
    checkCudaErrors(cudaStreamDestroy(streamForGraph));
}

int main(int argc, char **argv)
{
    size_t size      = 1 << 20; // number of elements to reduce (STREAMSIM: 1 << 24 in the original)
    size_t maxBlocks = 512;

    // This will pick the best possible CUDA capable device
    int devID = findCudaDevice(argc, (const char **)argv);
    (void)devID; /* STREAMSIM */

    printf("%zu elements\n", size);
    printf("threads per block  = %d\n", THREADS_PER_BLOCK);
    printf("Graph Launch iterations = %d\n", GRAPH_LAUNCH_ITERATIONS);

    float  *inputVec_h = NULL, *inputVec_d = NULL;
    double *outputVec_d = NULL, *result_d;

    checkCudaErrors(cudaMallocHost((void **)&inputVec_h, sizeof(float) * size));
    checkCudaErrors(cudaMalloc((void **)&inputVec_d, sizeof(float) * size));
    checkCudaErrors(cudaMalloc((void **)&outputVec_d, sizeof(double) * maxBlocks));
    checkCudaErrors(cudaMalloc((void **)&result_d, sizeof(double)));

    init_input(inputVec_h, size);

    /* STREAMSIM: cudaGraphsManual(inputVec_h, inputVec_d, outputVec_d, result_d, size, maxBlocks); is left out. */
    cudaGraphsUsingStreamCapture(inputVec_h, inputVec_d, outputVec_d, result_d, size, maxBlocks);

    /* STREAMSIM: every launch's sum is the input's. */
    double expected = 0.0;
    for (size_t i = 0; i < size; i++) {
        expected += (double)inputVec_h[i];
    }
    if (printed != 2 * GRAPH_LAUNCH_ITERATIONS) {
        printf("STREAMSIM: the callback ran %d times\n", printed);
        return EXIT_FAILURE;
    }
    for (int i = 0; i < printed; i++) {
        if (fabs(printed_sums[i] - expected) > 1e-9 * expected) {
            printf("STREAMSIM: launch %d summed %f, the input sums to %f\n", i, printed_sums[i], expected);
            return EXIT_FAILURE;
        }
    }
    printf("STREAMSIM: every sum matches the host's\n");

    checkCudaErrors(cudaFree(inputVec_d));
    checkCudaErrors(cudaFree(outputVec_d));
    checkCudaErrors(cudaFree(result_d));
    checkCudaErrors(cudaFreeHost(inputVec_h));
    return EXIT_SUCCESS;
}
