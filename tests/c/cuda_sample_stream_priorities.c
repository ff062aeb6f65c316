/*
 * cuda_sample_stream_priorities.c — NVIDIA cuda-samples Samples/3_CUDA_Features/StreamPriorities/StreamPriorities.cu
 * (github.com/NVIDIA/cuda-samples, commit c94ff366aed18c797b8a85dfaac7817b0228b420), ported to streamsim.
 *
 * Every runtime call and every check of the original is kept, in the original order (the compute-capability
 * check, cudaDeviceGetStreamPriorityRange, two non-blocking streams of the lowest and the highest priority, the
 * copies, the four events, the pairs of kernels, the memcmp checks, the two elapsed times). Changes, all
 * marked STREAMSIM:
 *   - TOTAL_SIZE and EACH_SIZE are 4 MiB and 2 MiB instead of 256 MiB and 128 MiB (the same loop of two pairs of
 *     kernels; at full size a run takes about 50 s under the unoptimised library);
 *   - helper_cuda.h is replaced by tests/c/cuda_samples_helpers.h;
 *   - the kernel launches memcpy_kernel<<<TBLOCKS, THREADS, 0, stream>>>(dst, src, EACH_SIZE) become the
 *     stand-in cudasimLaunchKernelCtx (see memcpy_kernel_launch): 100 ps of virtual time per int copied (52.428 µs
 *     for the 512 Ki ints of EACH_SIZE), declaring its read of src and its write of dst; the kernel's grid-stride
 *     loop, in C, runs for every (blockIdx, threadIdx) of the grid on a map of the device memory (see
 *     memcpy_kernel), so the memcmp checks compare what the kernels copied;
 *   - for C11 as well as C++17: <stdio.h> for <cstdio>, <string.h> for memcmp and memset (which <cstdio> does
 *     not promise); cudaMalloc((void **)&p, …), as C has no template overload; mem_init's loop bound cast to
 *     int (-Wsign-compare under -Werror).
 *
 * What streamsim answers, and where it differs from a GPU: both streams' kernels run concurrently, each in
 * its own kernel slot (docs/semantics/engine-model.md · Kernel slots: a kernel takes one slot whatever its
 * grid), so the two elapsed times are equal (2 µs + 2 × 52.428 µs = 0.107 ms each). On a GPU each kernel of
 * 1024 blocks of 512 threads fills the device, the block scheduler prefers the high-priority stream's pending
 * blocks, and the HI time comes out shorter; the original prints the two times and checks neither, so it
 * passes on both.
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

// std::system includes
#include <stdio.h>  /* STREAMSIM: <cstdio>, in C11 and C++17 */
#include <string.h> /* STREAMSIM: memcmp, memset */

// CUDA-C includes
#include <cuda_runtime.h>

#include "cuda_samples_helpers.h" /* STREAMSIM: for helper_cuda.h */

/* STREAMSIM: 256 * 1024 * 1024 and 128 * 1024 * 1024 in the original; 64 times smaller here (the same two pairs
 * of kernels), for the suite's time: at full size one run takes about 50 s under the unoptimised library. */
#define TOTAL_SIZE 4 * 1024 * 1024
#define EACH_SIZE  2 * 1024 * 1024

// # threadblocks
#define TBLOCKS 1024
#define THREADS 512

// throw error on equality
#define ERR_EQ(X, Y)                                                                 \
    do {                                                                             \
        if ((X) == (Y)) {                                                            \
            fprintf(stderr, "Error in %s at %s:%d\n", __func__, __FILE__, __LINE__); \
            exit(-1);                                                                \
        }                                                                            \
    } while (0)

// throw error on difference
#define ERR_NE(X, Y)                                                                 \
    do {                                                                             \
        if ((X) != (Y)) {                                                            \
            fprintf(stderr, "Error in %s at %s:%d\n", __func__, __FILE__, __LINE__); \
            exit(-1);                                                                \
        }                                                                            \
    } while (0)

/* STREAMSIM: the kernel's arguments and launch configuration (what <<<…>>> and the parameter list carry). */
struct memcpy_kernel_args {
    unsigned int gridDim_x, blockDim_x;
    int         *dst;
    int         *src;
    size_t       n;
};

// copy from source -> destination arrays
/* STREAMSIM: __global__ void memcpy_kernel(int *dst, int *src, size_t n), as the body of a Ctx stand-in: the
 * original loop runs for every (blockIdx, threadIdx) of the grid, on maps of src and dst (written back when the
 * body returns). A failed map has faulted the kernel, and the next synchronize reports it. */
static void memcpy_kernel(streamsimKernelCtx *ctx, void *arg)
{
    struct memcpy_kernel_args a = *(struct memcpy_kernel_args *)arg;
    free(arg);
    void *src_map = NULL, *dst_map = NULL;
    if (streamsimKernelMap(ctx, a.src, a.n, &src_map) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, a.dst, a.n, &dst_map) != STREAMSIM_SUCCESS) {
        return;
    }
    int *dst = (int *)dst_map;
    int *src = (int *)src_map;
    size_t n = a.n;
    for (unsigned int blockIdx = 0; blockIdx < a.gridDim_x; blockIdx++) {
        for (unsigned int threadIdx = 0; threadIdx < a.blockDim_x; threadIdx++) {
            int num = a.gridDim_x * a.blockDim_x;
            int id  = a.blockDim_x * blockIdx + threadIdx;

            for (int i = id; i < (int)(n / sizeof(int)); i += num) {
                dst[i] = src[i];
            }
        }
    }
}

/* STREAMSIM: memcpy_kernel<<<blocks, threads, 0, stream>>>(dst, src, n) as a stand-in of MEMCPY_PS_PER_INT
 * picoseconds of virtual time per int (52.428 µs for EACH_SIZE) that reads src and writes dst. The arguments are
 * the body's (it frees them). */
#define MEMCPY_PS_PER_INT 100
static cudaError_t memcpy_kernel_launch(unsigned int blocks, unsigned int threads, cudaStream_t stream, int *dst,
                                        int *src, size_t n)
{
    struct memcpy_kernel_args *a = (struct memcpy_kernel_args *)malloc(sizeof *a);
    if (a == NULL) {
        return cudaErrorMemoryAllocation;
    }
    a->gridDim_x  = blocks;
    a->blockDim_x = threads;
    a->dst        = dst;
    a->src        = src;
    a->n          = n;
    streamsimAccess accesses[2] = {{src, n, STREAMSIM_ACCESS_READ}, {dst, n, STREAMSIM_ACCESS_WRITE}};
    cudaError_t err = cudasimLaunchKernelCtx(stream, "memcpy_kernel",
                                             (uint64_t)(n / sizeof(int)) * MEMCPY_PS_PER_INT / 1000,
                                             memcpy_kernel, a, accesses, 2);
    if (err != cudaSuccess) {
        free(a); /* refused: the body never runs */
    }
    return err;
}

// initialise memory
void mem_init(int *buf, size_t n)
{
    for (int i = 0; i < (int)(n / sizeof(int)); i++) { /* STREAMSIM: (int), for -Wsign-compare */
        buf[i] = i;
    }
}

int main(int argc, char **argv)
{
    cudaDeviceProp device_prop;
    int            dev_id;

    printf("Starting [%s]...\n", argv[0]);

    // set device
    dev_id = findCudaDevice(argc, (const char **)argv);
    checkCudaErrors(cudaGetDeviceProperties(&device_prop, dev_id));

    if ((device_prop.major << 4) + device_prop.minor < 0x35) {
        fprintf(stderr,
                "%s requires Compute Capability of SM 3.5 or higher to "
                "run.\nexiting...\n",
                argv[0]);
        exit(EXIT_WAIVED);
    }

    // get the range of priorities available
    // [ greatest_priority, lowest_priority ]
    int priority_low;
    int priority_hi;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&priority_low, &priority_hi));

    printf("CUDA stream priority range: LOW: %d to HIGH: %d\n", priority_low, priority_hi);

    // create streams with highest and lowest available priorities
    cudaStream_t st_low;
    cudaStream_t st_hi;
    checkCudaErrors(cudaStreamCreateWithPriority(&st_low, cudaStreamNonBlocking, priority_low));
    checkCudaErrors(cudaStreamCreateWithPriority(&st_hi, cudaStreamNonBlocking, priority_hi));

    size_t size;
    size = TOTAL_SIZE;

    // initialise host data
    int *h_src_low;
    int *h_src_hi;
    ERR_EQ(h_src_low = (int *)malloc(size), NULL);
    ERR_EQ(h_src_hi = (int *)malloc(size), NULL);
    mem_init(h_src_low, size);
    mem_init(h_src_hi, size);

    // initialise device data
    int *h_dst_low;
    int *h_dst_hi;
    ERR_EQ(h_dst_low = (int *)malloc(size), NULL);
    ERR_EQ(h_dst_hi = (int *)malloc(size), NULL);
    memset(h_dst_low, 0, size);
    memset(h_dst_hi, 0, size);

    // copy source data -> device
    int *d_src_low;
    int *d_src_hi;
    checkCudaErrors(cudaMalloc((void **)&d_src_low, size)); /* STREAMSIM: (void **), C has no template overload */
    checkCudaErrors(cudaMalloc((void **)&d_src_hi, size)); /* STREAMSIM: (void **), C has no template overload */
    checkCudaErrors(cudaMemcpy(d_src_low, h_src_low, size, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_src_hi, h_src_hi, size, cudaMemcpyHostToDevice));

    // allocate memory for memcopy destination
    int *d_dst_low;
    int *d_dst_hi;
    checkCudaErrors(cudaMalloc((void **)&d_dst_low, size)); /* STREAMSIM: (void **), C has no template overload */
    checkCudaErrors(cudaMalloc((void **)&d_dst_hi, size)); /* STREAMSIM: (void **), C has no template overload */

    // create some events
    cudaEvent_t ev_start_low;
    cudaEvent_t ev_start_hi;
    cudaEvent_t ev_end_low;
    cudaEvent_t ev_end_hi;
    checkCudaErrors(cudaEventCreate(&ev_start_low));
    checkCudaErrors(cudaEventCreate(&ev_start_hi));
    checkCudaErrors(cudaEventCreate(&ev_end_low));
    checkCudaErrors(cudaEventCreate(&ev_end_hi));

    /* */

    // call pair of kernels repeatedly (with different priority streams)
    checkCudaErrors(cudaEventRecord(ev_start_low, st_low));
    checkCudaErrors(cudaEventRecord(ev_start_hi, st_hi));

    for (int i = 0; i < TOTAL_SIZE; i += EACH_SIZE) {
        int j = i / sizeof(int);
        /* STREAMSIM: memcpy_kernel<<<TBLOCKS, THREADS, 0, st_low>>>(d_dst_low + j, d_src_low + j, EACH_SIZE); */
        memcpy_kernel_launch(TBLOCKS, THREADS, st_low, d_dst_low + j, d_src_low + j, EACH_SIZE);
        /* STREAMSIM: memcpy_kernel<<<TBLOCKS, THREADS, 0, st_hi>>>(d_dst_hi + j, d_src_hi + j, EACH_SIZE); */
        memcpy_kernel_launch(TBLOCKS, THREADS, st_hi, d_dst_hi + j, d_src_hi + j, EACH_SIZE);
    }

    checkCudaErrors(cudaEventRecord(ev_end_low, st_low));
    checkCudaErrors(cudaEventRecord(ev_end_hi, st_hi));

    checkCudaErrors(cudaEventSynchronize(ev_end_low));
    checkCudaErrors(cudaEventSynchronize(ev_end_hi));

    /* */

    size = TOTAL_SIZE;
    checkCudaErrors(cudaMemcpy(h_dst_low, d_dst_low, size, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(h_dst_hi, d_dst_hi, size, cudaMemcpyDeviceToHost));

    // check results of kernels
    ERR_NE(memcmp(h_dst_low, h_src_low, size), 0);
    ERR_NE(memcmp(h_dst_hi, h_src_hi, size), 0);

    // check timings
    float ms_low;
    float ms_hi;
    checkCudaErrors(cudaEventElapsedTime(&ms_low, ev_start_low, ev_end_low));
    checkCudaErrors(cudaEventElapsedTime(&ms_hi, ev_start_hi, ev_end_hi));

    printf("elapsed time of kernels launched to LOW priority stream: %.3lf ms\n", ms_low);
    printf("elapsed time of kernels launched to HI  priority stream: %.3lf ms\n", ms_hi);

    exit(EXIT_SUCCESS);
}
