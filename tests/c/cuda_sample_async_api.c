/*
 * cuda_sample_async_api.c — NVIDIA cuda-samples Samples/0_Introduction/asyncAPI/asyncAPI.cu
 * (github.com/NVIDIA/cuda-samples, commit c94ff366aed18c797b8a85dfaac7817b0228b420), ported to streamsim.
 *
 * Every runtime call and every check of the original is kept, in the original order. Changes, all marked
 * STREAMSIM:
 *   - helper_cuda.h and helper_functions.h are replaced by tests/c/cuda_samples_helpers.h (its stopwatch is the
 *     wall clock, as the original's: "time spent by CPU in CUDA calls" is the one printout that varies);
 *   - the kernel launch increment_kernel<<<blocks, threads, 0, 0>>>(d_a, value) becomes the stand-in
 *     cudasimLaunchKernelCtx (see increment_kernel_launch): 150 µs of virtual time, declaring that it reads and
 *     writes g_data, and the kernel's statement, in C, run for every (blockIdx, threadIdx) of the grid on the
 *     device memory (see increment_kernel), so correct_output checks what the kernel computed;
 *   - for C11: the two dim3 are initialised as C structs (C has no constructor).
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

/*
 * This sample illustrates the usage of CUDA events for both GPU timing and
 * overlapping CPU and GPU execution.  Events are inserted into a stream
 * of CUDA calls.  Since CUDA stream calls are asynchronous, the CPU can
 * perform computations while GPU is executing (including DMA memcopies
 * between the host and device).  CPU can query CUDA events to determine
 * whether GPU has completed tasks.
 */

// includes, system
#include <stdio.h>

// includes CUDA Runtime
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

// includes, project
#include "cuda_samples_helpers.h" /* STREAMSIM: for helper_cuda.h and helper_functions.h */

/* STREAMSIM: the kernel's arguments and launch configuration (what <<<…>>> and the parameter list carry). */
struct increment_kernel_args {
    dim3 gridDim, blockDim;
    int *g_data;
    int  inc_value;
};

/* STREAMSIM: the elements of g_data a body stages in host memory at a time (16 KiB, on the worker's stack). */
#define INCREMENT_KERNEL_STAGE 4096

/* STREAMSIM: __global__ void increment_kernel(int *g_data, int inc_value), as the body of a Ctx stand-in. The
 * original statement runs for every (blockIdx, threadIdx) of the (1-D) grid, on g_data staged in host memory a
 * batch of whole blocks at a time: streamsimKernelRead, the statement on the copy, streamsimKernelWrite (every
 * thread stores its element, so the batch is written back whole). A failed access has faulted the kernel, and
 * the next synchronize reports it. */
static void increment_kernel(streamsimKernelCtx *ctx, void *arg)
{
    struct increment_kernel_args a = *(struct increment_kernel_args *)arg;
    free(arg);
    int          stage[INCREMENT_KERNEL_STAGE];
    unsigned int per_batch = INCREMENT_KERNEL_STAGE / a.blockDim.x;
    for (unsigned int first = 0; first < a.gridDim.x; first += per_batch) {
        unsigned int last  = first + per_batch < a.gridDim.x ? first + per_batch : a.gridDim.x;
        size_t       base  = (size_t)first * a.blockDim.x; /* the index of stage[0] in g_data */
        size_t       bytes = (size_t)(last - first) * a.blockDim.x * sizeof(int);
        if (streamsimKernelRead(ctx, stage, a.g_data + base, bytes) != STREAMSIM_SUCCESS) {
            return;
        }
        for (unsigned int blockIdx = first; blockIdx < last; blockIdx++) {
            for (unsigned int threadIdx = 0; threadIdx < a.blockDim.x; threadIdx++) {
                int idx = blockIdx * a.blockDim.x + threadIdx;
                /* g_data[idx] = g_data[idx] + inc_value; */
                stage[idx - base] = stage[idx - base] + a.inc_value;
            }
        }
        if (streamsimKernelWrite(ctx, a.g_data + base, stage, bytes) != STREAMSIM_SUCCESS) {
            return;
        }
    }
}

/* STREAMSIM: increment_kernel<<<blocks, threads, 0, stream>>>(g_data, inc_value) as a stand-in of
 * INCREMENT_KERNEL_NS of virtual time that reads and writes the grid's elements of g_data. The arguments are
 * the body's (it frees them); a block has at most 1024 threads on every CUDA device (cudaErrorInvalidConfiguration
 * otherwise, as the launch would), so a batch holds at least 4 blocks. */
#define INCREMENT_KERNEL_NS 150000
static cudaError_t increment_kernel_launch(dim3 blocks, dim3 threads, cudaStream_t stream, int *g_data, int inc_value)
{
    if (threads.x == 0 || threads.x > 1024) {
        return cudaErrorInvalidConfiguration;
    }
    struct increment_kernel_args *a = (struct increment_kernel_args *)malloc(sizeof *a);
    if (a == NULL) {
        return cudaErrorMemoryAllocation;
    }
    a->gridDim   = blocks;
    a->blockDim  = threads;
    a->g_data    = g_data;
    a->inc_value = inc_value;
    size_t nbytes = (size_t)blocks.x * threads.x * sizeof(int);
    streamsimAccess accesses[2] = {{g_data, nbytes, STREAMSIM_ACCESS_READ}, {g_data, nbytes, STREAMSIM_ACCESS_WRITE}};
    cudaError_t err = cudasimLaunchKernelCtx(stream, "increment_kernel", INCREMENT_KERNEL_NS, increment_kernel, a,
                                             accesses, 2);
    if (err != cudaSuccess) {
        free(a); /* refused: the body never runs */
    }
    return err;
}

bool correct_output(int *data, const int n, const int x)
{
    for (int i = 0; i < n; i++)
        if (data[i] != x) {
            printf("Error! data[%d] = %d, ref = %d\n", i, data[i], x);
            return false;
        }

    return true;
}

int main(int argc, char *argv[])
{
    int            devID;
    cudaDeviceProp deviceProps;

    printf("[%s] - Starting...\n", argv[0]);

    // This will pick the best possible CUDA capable device
    devID = findCudaDevice(argc, (const char **)argv);

    // get device name
    checkCudaErrors(cudaGetDeviceProperties(&deviceProps, devID));
    printf("CUDA device [%s]\n", deviceProps.name);

    int n      = 16 * 1024 * 1024;
    int nbytes = n * sizeof(int);
    int value  = 26;

    // allocate host memory
    int *a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));
    memset(a, 0, nbytes);

    // allocate device memory
    int *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMemset(d_a, 255, nbytes));

    // set kernel launch configuration
    /* STREAMSIM: dim3 threads = dim3(512, 1); dim3 blocks = dim3(n / threads.x, 1); (C has no constructor) */
    dim3 threads = {512, 1, 1};
    dim3 blocks  = {n / threads.x, 1, 1};

    // create cuda event handles
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));

    StopWatchInterface *timer = NULL;
    sdkCreateTimer(&timer);
    sdkResetTimer(&timer);

    checkCudaErrors(cudaDeviceSynchronize());
    float gpu_time = 0.0f;

    // asynchronously issue work to the GPU (all to stream 0)
    checkCudaErrors(cudaProfilerStart());
    sdkStartTimer(&timer);
    cudaEventRecord(start, 0);
    cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0);
    /* STREAMSIM: increment_kernel<<<blocks, threads, 0, 0>>>(d_a, value); */
    increment_kernel_launch(blocks, threads, 0, d_a, value);
    cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(stop, 0);
    sdkStopTimer(&timer);
    checkCudaErrors(cudaProfilerStop());

    // have CPU do some work while waiting for stage 1 to finish
    unsigned long int counter = 0;

    while (cudaEventQuery(stop) == cudaErrorNotReady) {
        counter++;
    }

    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));

    // print the cpu and gpu times
    printf("time spent executing by the GPU: %.2f\n", gpu_time);
    printf("time spent by CPU in CUDA calls: %.2f\n", sdkGetTimerValue(&timer));
    printf("CPU executed %lu iterations while waiting for GPU to finish\n", counter);

    // check the output for correctness
    bool bFinalResults = correct_output(a, n, value);

    // release resources
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d_a));

    exit(bFinalResults ? EXIT_SUCCESS : EXIT_FAILURE);
}
