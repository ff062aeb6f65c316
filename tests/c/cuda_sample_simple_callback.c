/*
 * cuda_sample_simple_callback.c — NVIDIA cuda-samples Samples/0_Introduction/simpleCallback/simpleCallback.cu
 * and multithreading.h/.cpp (github.com/NVIDIA/cuda-samples, commit c94ff366aed18c797b8a85dfaac7817b0228b420),
 * ported to streamsim.
 *
 * Every runtime call and every check of the original is kept, in the original order: a CPU thread per workload
 * sets its device, makes a stream, cudaMalloc / cudaHostAlloc(cudaHostAllocPortable), copies, launches and adds a
 * CUDART_CB stream callback, which starts a postprocess thread that checks the data and frees everything.
 * Changes, all marked STREAMSIM:
 *   - helper_cuda.h and helper_functions.h are replaced by tests/c/cuda_samples_helpers.h;
 *   - multithreading.h and multithreading.cpp (the sample's own thread library, a separate file compiled with
 *     it) are inlined: their POSIX branch, the four functions the sample calls, with a typedef for the struct;
 *   - the kernel launch incKernel<<<grid, block, 0, stream>>>(d_data, N) becomes the stand-in
 *     cudasimLaunchKernelCtx (see incKernel_launch): 20 µs of virtual time, declaring that it reads and writes
 *     data[0 .. N), and the kernel's statement, in C, run for every (blockIdx, threadIdx) of the grid on the
 *     device memory (see incKernel), so the postprocess check checks what the kernel computed;
 *   - for C11 as well as C++17: a typedef for struct heterogeneous_workload; `dim3 block(512)` and `dim3
 *     grid(…)` initialised as C structs (C has no constructor); (void **) casts in C where C++ calls
 *     cudaMalloc's and cudaHostAlloc's template overloads (the C++ build still calls those); (void) for the
 *     parameters the original leaves unused (-Wunused-parameter, in -Wextra); the original's
 *     `major << 4 + minor` parenthesised as C parses it (-Wparentheses, in -Wall).
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
 * This sample implements multi-threaded heterogeneous computing workloads with
 * the new CPU callbacks for CUDA streams and events introduced with CUDA 5.0.
 * Together with the thread safety of the CUDA API implementing heterogeneous
 * workloads that float between CPU threads and GPUs has become simple and
 * efficient.
 *
 * The workloads in the sample follow the form CPU preprocess -> GPU process ->
 * CPU postprocess.
 * Each CPU processing step is handled by its own dedicated thread. GPU
 * workloads are sent to all available GPUs in the system.
 *
 */

// System includes
#include <stdio.h>

// helper functions and utilities to work with CUDA
#include "cuda_samples_helpers.h" /* STREAMSIM: for helper_cuda.h and helper_functions.h */

/* STREAMSIM: multithreading.h / multithreading.cpp (the POSIX branch), inlined. */
#include <pthread.h>
typedef pthread_t CUTThread;
typedef void *(*CUT_THREADROUTINE)(void *);
#define CUT_THREADPROC void *
#define CUT_THREADEND  return 0
typedef struct CUTBarrier
{
    pthread_mutex_t mutex;
    pthread_cond_t  conditionVariable;
    int             releaseCount;
    int             count;
} CUTBarrier;
static CUTThread cutStartThread(CUT_THREADROUTINE func, void *data)
{
    pthread_t thread;
    pthread_create(&thread, NULL, func, data);
    return thread;
}
static CUTBarrier cutCreateBarrier(int releaseCount)
{
    CUTBarrier barrier;
    barrier.count        = 0;
    barrier.releaseCount = releaseCount;
    pthread_mutex_init(&barrier.mutex, 0);
    pthread_cond_init(&barrier.conditionVariable, 0);
    return barrier;
}
static void cutIncrementBarrier(CUTBarrier *barrier)
{
    int myBarrierCount;
    pthread_mutex_lock(&barrier->mutex);
    myBarrierCount = ++barrier->count;
    pthread_mutex_unlock(&barrier->mutex);
    if (myBarrierCount >= barrier->releaseCount) {
        pthread_cond_signal(&barrier->conditionVariable);
    }
}
static void cutWaitForBarrier(CUTBarrier *barrier)
{
    pthread_mutex_lock(&barrier->mutex);
    while (barrier->count < barrier->releaseCount) {
        pthread_cond_wait(&barrier->conditionVariable, &barrier->mutex);
    }
    pthread_mutex_unlock(&barrier->mutex);
}

const int N_workloads             = 8;
const int N_elements_per_workload = 100000;

CUTBarrier thread_barrier;

void CUDART_CB myStreamCallback(cudaStream_t event, cudaError_t status, void *data);

typedef struct heterogeneous_workload /* STREAMSIM: typedef, for C */
{
    int id;
    int cudaDeviceID;

    int         *h_data;
    int         *d_data;
    cudaStream_t stream;

    bool success;
} heterogeneous_workload;

/* STREAMSIM: the kernel's arguments and launch configuration (what <<<…>>> and the parameter list carry). */
struct incKernel_args {
    dim3 gridDim, blockDim;
    int *data;
    int  N;
};

/* STREAMSIM: the elements of data a body stages in host memory at a time (16 KiB, on the worker's stack). */
#define INC_KERNEL_STAGE 4096

/* STREAMSIM: __global__ void incKernel(int *data, int N), as the body of a Ctx stand-in. The original statement
 * runs for every (blockIdx, threadIdx) of the (1-D) grid, on data[0 .. N) staged in host memory a batch of
 * whole blocks at a time: streamsimKernelRead, the statement on the copy, streamsimKernelWrite (every element
 * below N is incremented, so the batch is written back whole). A failed access has faulted the kernel, and the
 * stream callback gets the error. */
static void incKernel(streamsimKernelCtx *ctx, void *arg)
{
    struct incKernel_args a = *(struct incKernel_args *)arg;
    free(arg);
    int          stage[INC_KERNEL_STAGE];
    unsigned int per_batch = INC_KERNEL_STAGE / a.blockDim.x;
    for (unsigned int first = 0; first < a.gridDim.x; first += per_batch) {
        unsigned int last = first + per_batch < a.gridDim.x ? first + per_batch : a.gridDim.x;
        size_t       base = (size_t)first * a.blockDim.x; /* the index of stage[0] in data */
        size_t       end  = (size_t)last * a.blockDim.x;
        if (end > (size_t)a.N) {
            end = a.N > 0 ? (size_t)a.N : 0; /* the threads from N on store nothing */
        }
        if (base >= end) {
            break;
        }
        size_t bytes = (end - base) * sizeof(int);
        if (streamsimKernelRead(ctx, stage, a.data + base, bytes) != STREAMSIM_SUCCESS) {
            return;
        }
        for (unsigned int blockIdx = first; blockIdx < last; blockIdx++) {
            for (unsigned int threadIdx = 0; threadIdx < a.blockDim.x; threadIdx++) {
                int i = blockIdx * a.blockDim.x + threadIdx;

                if (i < a.N)
                    stage[i - base]++; /* data[i]++; */
            }
        }
        if (streamsimKernelWrite(ctx, a.data + base, stage, bytes) != STREAMSIM_SUCCESS) {
            return;
        }
    }
}

/* STREAMSIM: incKernel<<<grid, block, 0, stream>>>(data, N) as a stand-in of INC_KERNEL_NS of virtual time that
 * reads and writes data[0 .. N). The arguments are the body's (it frees them); a block has at most 1024 threads
 * on every CUDA device (cudaErrorInvalidConfiguration otherwise, as the launch would), so a batch holds at least
 * 4 blocks. */
#define INC_KERNEL_NS 20000
static cudaError_t incKernel_launch(dim3 grid, dim3 block, cudaStream_t stream, int *data, int N)
{
    if (block.x == 0 || block.x > 1024) {
        return cudaErrorInvalidConfiguration;
    }
    struct incKernel_args *a = (struct incKernel_args *)malloc(sizeof *a);
    if (a == NULL) {
        return cudaErrorMemoryAllocation;
    }
    a->gridDim                  = grid;
    a->blockDim                 = block;
    a->data                     = data;
    a->N                        = N;
    streamsimAccess accesses[2] = {{data, (size_t)N * sizeof(int), STREAMSIM_ACCESS_READ},
                                   {data, (size_t)N * sizeof(int), STREAMSIM_ACCESS_WRITE}};
    cudaError_t     err = cudasimLaunchKernelCtx(stream, "incKernel", INC_KERNEL_NS, incKernel, a, accesses, 2);
    if (err != cudaSuccess) {
        free(a); /* refused: the body never runs */
    }
    return err;
}

CUT_THREADPROC launch(void *void_arg)
{
    heterogeneous_workload *workload = (heterogeneous_workload *)void_arg;

    // Select GPU for this CPU thread
    checkCudaErrors(cudaSetDevice(workload->cudaDeviceID));

    // Allocate Resources
    checkCudaErrors(cudaStreamCreate(&workload->stream));
#ifdef __cplusplus
    checkCudaErrors(cudaMalloc(&workload->d_data, N_elements_per_workload * sizeof(int)));
    checkCudaErrors(cudaHostAlloc(&workload->h_data, N_elements_per_workload * sizeof(int), cudaHostAllocPortable));
#else /* STREAMSIM: C has no template overloads taking int ** */
    checkCudaErrors(cudaMalloc((void **)&workload->d_data, N_elements_per_workload * sizeof(int)));
    checkCudaErrors(
        cudaHostAlloc((void **)&workload->h_data, N_elements_per_workload * sizeof(int), cudaHostAllocPortable));
#endif

    // CPU thread generates data
    for (int i = 0; i < N_elements_per_workload; ++i) {
        workload->h_data[i] = workload->id + i;
    }

    // Schedule work for GPU in CUDA stream without blocking the CPU thread
    // Note: Dedicated streams enable concurrent execution of workloads on the GPU
    /* STREAMSIM: dim3 block(512); dim3 grid((N_elements_per_workload + block.x - 1) / block.x); */
    dim3 block = {512, 1, 1};
    dim3 grid  = {(N_elements_per_workload + block.x - 1) / block.x, 1, 1};

    checkCudaErrors(cudaMemcpyAsync(workload->d_data,
                                    workload->h_data,
                                    N_elements_per_workload * sizeof(int),
                                    cudaMemcpyHostToDevice,
                                    workload->stream));
    /* STREAMSIM: incKernel<<<grid, block, 0, workload->stream>>>(workload->d_data, N_elements_per_workload); */
    incKernel_launch(grid, block, workload->stream, workload->d_data, N_elements_per_workload);
    checkCudaErrors(cudaMemcpyAsync(workload->h_data,
                                    workload->d_data,
                                    N_elements_per_workload * sizeof(int),
                                    cudaMemcpyDeviceToHost,
                                    workload->stream));

    // New in CUDA 5.0: Add a CPU callback which is called once all currently
    // pending operations in the CUDA stream have finished
    checkCudaErrors(cudaStreamAddCallback(workload->stream, myStreamCallback, workload, 0));

    CUT_THREADEND;
    // CPU thread end of life, GPU continues to process data...
}

CUT_THREADPROC postprocess(void *void_arg)
{
    heterogeneous_workload *workload = (heterogeneous_workload *)void_arg;
    // ... GPU is done with processing, continue on new CPU thread...

    // Select GPU for this CPU thread
    checkCudaErrors(cudaSetDevice(workload->cudaDeviceID));

    // CPU thread consumes results from GPU
    workload->success = true;

    for (int i = 0; i < N_workloads; ++i) {
        workload->success &= workload->h_data[i] == i + workload->id + 1;
    }

    // Free Resources
    checkCudaErrors(cudaFree(workload->d_data));
    checkCudaErrors(cudaFreeHost(workload->h_data));
    checkCudaErrors(cudaStreamDestroy(workload->stream));

    // Signal the end of the heterogeneous workload to main thread
    cutIncrementBarrier(&thread_barrier);

    CUT_THREADEND;
}

void CUDART_CB myStreamCallback(cudaStream_t stream, cudaError_t status, void *data)
{
    (void)stream; /* STREAMSIM: -Wunused-parameter */
    // Check status of GPU after stream operations are done
    checkCudaErrors(status);

    // Spawn new CPU worker thread and continue processing on the CPU
    cutStartThread(postprocess, data);
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv; /* STREAMSIM: -Wunused-parameter */
    int N_gpus, max_gpus = 0;
    int gpuInfo[32]; // assume a maximum of 32 GPUs in a system configuration

    printf("Starting simpleCallback\n");

    checkCudaErrors(cudaGetDeviceCount(&N_gpus));
    printf("Found %d CUDA capable GPUs\n", N_gpus);

    if (N_gpus > 32) {
        printf("simpleCallback only supports 32 GPU(s)\n");
    }

    for (int devid = 0; devid < N_gpus; devid++) {
        int            SMversion;
        cudaDeviceProp deviceProp;
        cudaSetDevice(devid);
        cudaGetDeviceProperties(&deviceProp, devid);
        SMversion = deviceProp.major << (4 + deviceProp.minor); /* STREAMSIM: the original's precedence, spelled out (-Wparentheses) */
        printf("GPU[%d] %s supports SM %d.%d", devid, deviceProp.name, deviceProp.major, deviceProp.minor);
        printf(", %s GPU Callback Functions\n", (SMversion >= 0x11) ? "capable" : "NOT capable");

        if (SMversion >= 0x11) {
            gpuInfo[max_gpus++] = devid;
        }
    }

    printf("%d GPUs available to run Callback Functions\n", max_gpus);

    heterogeneous_workload *workloads;
    workloads = (heterogeneous_workload *)malloc(N_workloads * sizeof(heterogeneous_workload));
    ;
    thread_barrier = cutCreateBarrier(N_workloads);

    // Main thread spawns a CPU worker thread for each heterogeneous workload
    printf("Starting %d heterogeneous computing workloads\n", N_workloads);

    for (int i = 0; i < N_workloads; ++i) {
        workloads[i].id           = i;
        workloads[i].cudaDeviceID = gpuInfo[i % max_gpus]; // i % N_gpus;

        cutStartThread(launch, &workloads[i]);
    }

    // Sleep until all workloads have finished
    cutWaitForBarrier(&thread_barrier);
    printf("Total of %d workloads finished:\n", N_workloads);

    bool success = true;

    for (int i = 0; i < N_workloads; ++i) {
        success &= workloads[i].success;
    }

    printf("%s\n", success ? "Success" : "Failure");

    free(workloads);

    exit(success ? EXIT_SUCCESS : EXIT_FAILURE);
}
