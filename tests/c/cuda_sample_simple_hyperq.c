/*
 * cuda_sample_simple_hyperq.c — NVIDIA cuda-samples Samples/0_Introduction/simpleHyperQ/simpleHyperQ.cu
 * (github.com/NVIDIA/cuda-samples, commit c94ff366aed18c797b8a85dfaac7817b0228b420), ported to streamsim.
 *
 * Every runtime call and every check of the original is kept, in the original order. Changes, all marked
 * STREAMSIM:
 *   - helper_cuda.h and helper_functions.h are replaced by tests/c/cuda_samples_helpers.h (which also brings
 *     the <time.h> that helper_timer.h includes, for clock_t);
 *   - the device code (clock_block, kernel_A, kernel_B and the single-warp reduction sum) becomes the bodies of
 *     cudasimLaunchKernelCtx stand-ins, in C, on the device memory (see clock_block and sum), and its three
 *     kernel launches become those stand-ins: kernel_A and kernel_B run for the virtual time that clock_count
 *     ticks take at the device's clock rate and store the ticks they spun for; sum adds them up, so the final
 *     check a[0] >= total_clocks checks what the kernels computed. <cooperative_groups.h> and its namespace
 *     alias, which only the device code used, go with it.
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

//
// This sample demonstrates how HyperQ allows supporting devices to avoid false
// dependencies between kernels in different streams.
//
// - Devices without HyperQ will run a maximum of two kernels at a time (one
//   kernel_A and one kernel_B).
// - Devices with HyperQ will run up to 32 kernels simultaneously.

#include <stdio.h>

#include "cuda_samples_helpers.h" /* STREAMSIM: for helper_cuda.h and helper_functions.h */

const char *sSDKsample = "hyperQ";

/* STREAMSIM: the arguments of kernel_A and kernel_B (what their parameter lists carry). */
struct clock_block_args {
    clock_t *d_o;
    clock_t  clock_count;
};

/* STREAMSIM: __device__ void clock_block(clock_t *d_o, clock_t clock_count), the body of the kernel_A and
 * kernel_B stand-ins (<<<1, 1>>>: one thread). The device's clock() is not simulated; the stand-in instead runs
 * for the virtual time that clock_count ticks take at the device's clock rate (see clock_block_launch), so the
 * original's spin loop ends when exactly clock_count ticks have passed, and the body stores that clock_offset
 * to d_o[0], as the original does. */
static void clock_block(streamsimKernelCtx *ctx, void *arg)
{
    struct clock_block_args a = *(struct clock_block_args *)arg;
    free(arg);
    clock_t clock_offset = a.clock_count; /* (clock_t)(end_clock - start_clock) when the loop ends */
    /* d_o[0] = clock_offset; (a failed access has faulted the kernel, and the next synchronize reports it) */
    streamsimKernelWrite(ctx, a.d_o, &clock_offset, sizeof clock_offset);
}

/* STREAMSIM: kernel_A<<<1, 1, 0, stream>>>(d_o, clock_count) and kernel_B (the same kernel under another name,
 * so that the timeline tells them apart) as a stand-in that stores to d_o[0] and runs for clock_count ticks of
 * the device's clock (clockRate kHz: clock_count × 10^6 / clockRate ns). The arguments are the body's (it frees
 * them). */
static cudaError_t clock_block_launch(const char *name, cudaStream_t stream, clock_t *d_o, clock_t clock_count,
                                      int clockRate)
{
    struct clock_block_args *a = (struct clock_block_args *)malloc(sizeof *a);
    if (a == NULL) {
        return cudaErrorMemoryAllocation;
    }
    a->d_o                 = d_o;
    a->clock_count         = clock_count;
    streamsimAccess access = {d_o, sizeof(clock_t), STREAMSIM_ACCESS_WRITE};
    uint64_t        ns     = (uint64_t)clock_count * 1000000u / (uint64_t)clockRate;
    cudaError_t     err    = cudasimLaunchKernelCtx(stream, name, ns, clock_block, a, &access, 1);
    if (err != cudaSuccess) {
        free(a); /* refused: the body never runs */
    }
    return err;
}

/* STREAMSIM: the arguments of sum (what its parameter list carries). */
struct sum_args {
    clock_t *d_clocks;
    int      N;
};

/* STREAMSIM: __global__ void sum(clock_t *d_clocks, int N), the single-warp reduction, as the body of a Ctx
 * stand-in launched <<<1, 32>>>: each step runs for every thread of the block in turn, each cg::sync(cta) being
 * the end of a step (every thread has done its part before any goes on); the loads of d_clocks and the final
 * store go through the context. */
static void sum(streamsimKernelCtx *ctx, void *arg)
{
    struct sum_args a = *(struct sum_args *)arg;
    free(arg);
    const int blockDim = 32, warpSize = 32; /* <<<1, 32>>>: one block of one warp */
    clock_t   s_clocks[32];                 /* __shared__ */

    for (int threadIdx = 0; threadIdx < blockDim; threadIdx++) {
        clock_t my_sum = 0;

        for (int i = threadIdx; i < a.N; i += blockDim) {
            clock_t d_clocks_i; /* my_sum += d_clocks[i]; */
            if (streamsimKernelRead(ctx, &d_clocks_i, &a.d_clocks[i], sizeof d_clocks_i) != STREAMSIM_SUCCESS) {
                return; /* the kernel has faulted: the next synchronize reports it */
            }
            my_sum += d_clocks_i;
        }

        s_clocks[threadIdx] = my_sum;
    }
    /* cg::sync(cta); */

    for (int i = warpSize / 2; i > 0; i /= 2) {
        for (int threadIdx = 0; threadIdx < blockDim; threadIdx++) {
            if (threadIdx < i) {
                s_clocks[threadIdx] += s_clocks[threadIdx + i];
            }
        }
        /* cg::sync(cta); */
    }

    /* if (threadIdx.x == 0) d_clocks[0] = s_clocks[0]; */
    streamsimKernelWrite(ctx, &a.d_clocks[0], &s_clocks[0], sizeof(clock_t));
}

/* STREAMSIM: sum<<<1, 32, 0, stream>>>(d_clocks, N) as a stand-in of SUM_NS of virtual time that reads
 * d_clocks[0 .. N) and writes d_clocks[0]. The arguments are the body's (it frees them). */
#define SUM_NS 5000
static cudaError_t sum_launch(cudaStream_t stream, clock_t *d_clocks, int N)
{
    struct sum_args *a = (struct sum_args *)malloc(sizeof *a);
    if (a == NULL) {
        return cudaErrorMemoryAllocation;
    }
    a->d_clocks                 = d_clocks;
    a->N                        = N;
    streamsimAccess accesses[2] = {{d_clocks, (size_t)N * sizeof(clock_t), STREAMSIM_ACCESS_READ},
                                   {d_clocks, sizeof(clock_t), STREAMSIM_ACCESS_WRITE}};
    cudaError_t     err         = cudasimLaunchKernelCtx(stream, "sum", SUM_NS, sum, a, accesses, 2);
    if (err != cudaSuccess) {
        free(a); /* refused: the body never runs */
    }
    return err;
}

int main(int argc, char **argv)
{
    int   nstreams    = 32; // One stream for each pair of kernels
    float kernel_time = 10; // Time each kernel should run in ms
    float elapsed_time;
    int   cuda_device = 0;

    printf("starting %s...\n", sSDKsample);

    // Get number of streams (if overridden on the command line)
    if (checkCmdLineFlag(argc, (const char **)argv, "nstreams")) {
        nstreams = getCmdLineArgumentInt(argc, (const char **)argv, "nstreams");
    }

    // Use command-line specified CUDA device, otherwise use device with
    // highest Gflops/s
    cuda_device = findCudaDevice(argc, (const char **)argv);

    // Get device properties
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDevice(&cuda_device));
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, cuda_device));

    // Get device clock rate
    int clockRate;
    checkCudaErrors(cudaDeviceGetAttribute(&clockRate, cudaDevAttrClockRate, cuda_device));

    // HyperQ is available in devices of Compute Capability 3.5 and higher
    if (deviceProp.major < 3 || (deviceProp.major == 3 && deviceProp.minor < 5)) {
        if (deviceProp.concurrentKernels == 0) {
            printf("> GPU does not support concurrent kernel execution (SM 3.5 or "
                   "higher required)\n");
            printf("  CUDA kernel runs will be serialized\n");
        }
        else {
            printf("> GPU does not support HyperQ\n");
            printf("  CUDA kernel runs will have limited concurrency\n");
        }
    }

    printf("> Detected Compute SM %d.%d hardware with %d multi-processors\n",
           deviceProp.major,
           deviceProp.minor,
           deviceProp.multiProcessorCount);

    // Allocate host memory for the output (reduced to a single value)
    clock_t *a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, sizeof(clock_t)));

    // Allocate device memory for the output (one value for each kernel)
    clock_t *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, 2 * nstreams * sizeof(clock_t)));

    // Allocate and initialize an array of stream handles
    cudaStream_t *streams = (cudaStream_t *)malloc(nstreams * sizeof(cudaStream_t));

    for (int i = 0; i < nstreams; i++) {
        checkCudaErrors(cudaStreamCreate(&(streams[i])));
    }

    // Create CUDA event handles
    cudaEvent_t start_event, stop_event;
    checkCudaErrors(cudaEventCreate(&start_event));
    checkCudaErrors(cudaEventCreate(&stop_event));

    // Target time per kernel is kernel_time ms, clockRate is in KHz
    // Target number of clocks = target time * clock frequency
#if defined(__arm__) || defined(__aarch64__)
    // the kernel takes more time than the channel reset time on arm archs, so to
    // prevent hangs reduce time_clocks.
    clock_t time_clocks = (clock_t)(kernel_time * (clockRate / 100));
#else
    clock_t time_clocks = (clock_t)(kernel_time * clockRate);
#endif
    clock_t total_clocks = 0;

    // Start the clock
    checkCudaErrors(cudaEventRecord(start_event, 0));

    // Queue pairs of {kernel_A, kernel_B} in separate streams
    for (int i = 0; i < nstreams; ++i) {
        /* STREAMSIM: kernel_A<<<1, 1, 0, streams[i]>>>(&d_a[2 * i], time_clocks); */
        clock_block_launch("kernel_A", streams[i], &d_a[2 * i], time_clocks, clockRate);
        total_clocks += time_clocks;
        /* STREAMSIM: kernel_B<<<1, 1, 0, streams[i]>>>(&d_a[2 * i + 1], time_clocks); */
        clock_block_launch("kernel_B", streams[i], &d_a[2 * i + 1], time_clocks, clockRate);
        total_clocks += time_clocks;
    }

    // Stop the clock in stream 0 (i.e. all previous kernels will be complete)
    checkCudaErrors(cudaEventRecord(stop_event, 0));

    // At this point the CPU has dispatched all work for the GPU and can
    // continue processing other tasks in parallel. In this sample we just want
    // to wait until all work is done so we use a blocking cudaMemcpy below.

    // Run the sum kernel and copy the result back to host
    /* STREAMSIM: sum<<<1, 32>>>(d_a, 2 * nstreams); */
    sum_launch(0, d_a, 2 * nstreams);
    checkCudaErrors(cudaMemcpy(a, d_a, sizeof(clock_t), cudaMemcpyDeviceToHost));

    // stop_event will have been recorded but including the synchronize here to
    // prevent copy/paste errors!
    checkCudaErrors(cudaEventSynchronize(stop_event));
    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));

    printf("Expected time for serial execution of %d sets of kernels is between "
           "approx. %.3fs and %.3fs\n",
           nstreams,
           (nstreams + 1) * kernel_time / 1000.0f,
           2 * nstreams * kernel_time / 1000.0f);
    printf("Expected time for fully concurrent execution of %d sets of kernels is "
           "approx. %.3fs\n",
           nstreams,
           2 * kernel_time / 1000.0f);
    printf("Measured time for sample = %.3fs\n", elapsed_time / 1000.0f);

    bool bTestResult = (a[0] >= total_clocks);

    // Release resources
    for (int i = 0; i < nstreams; i++) {
        cudaStreamDestroy(streams[i]);
    }

    free(streams);
    cudaEventDestroy(start_event);
    cudaEventDestroy(stop_event);
    cudaFreeHost(a);
    cudaFree(d_a);

    exit(bTestResult ? EXIT_SUCCESS : EXIT_FAILURE);
}
