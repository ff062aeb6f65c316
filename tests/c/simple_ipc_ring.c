/*
 * An IPC event ring across 3 devices: an event opened with cudaIpcOpenEventHandle belongs to the opener's
 * current device, so each child records the events of the other devices on its own device's stream
 * (reference/cuda-musa.md · IPC · opened event).
 *
 * Ported from NVIDIA cuda-samples (github.com/NVIDIA/cuda-samples, commit c94ff366),
 * Samples/0_Introduction/simpleIPC/simpleIPC.cu: "Inter Process Communication using one process per GPU for
 * computation". The parent picks the peer-capable devices, creates an interprocess event per device and puts
 * their handles in shared memory; one child per device opens every event and, step by step in lock-step (a
 * barrier), waits on the next buffer's event, runs a kernel that writes its id into that buffer and records the
 * event on its own stream; at the end each child checks that its buffer holds the id of the child after it.
 * Kept: the shared structure, every runtime call on events, streams, devices and peers, the event ring, the
 * barrier, the steps, the verification, the messages.
 * Changed, and why:
 *  - The "processes" are simulated processes of one OS process (IPC between OS processes is another issue):
 *    the parent is the CUDA default process, each child a streamsimProcessCreate'd process bound to its own
 *    host thread (streamsimBind); spawnProcess / waitProcess are pthread_create / pthread_join, and the
 *    shared-memory slab (sharedMemoryCreate / Open) is a static structure (so its name has no pid in it).
 *  - IPC device memory (cudaIpcGetMemHandle / cudaIpcOpenMemHandle / cudaIpcCloseMemHandle) is not simulated
 *    yet (another issue), so the buffers the ring passes around are host stand-ins, one per device: the
 *    parent still cudaMallocs its device buffers (and frees them), but each child's kernel writes the host
 *    buffer of its step (the kernel stand-in's body does what simpleKernel does, `ptr[idx] = val` over the
 *    buffer), and the final cudaMemcpyAsync of the child's buffer into its verification buffer is a
 *    cudaLaunchHostFunc on the same stream after the same wait (a pageable-to-pageable cudaMemcpyAsync would
 *    be staged at the call, before the kernels run). The ring's ordering is still only the IPC events'.
 *  - simpleKernel<<<blocks, threads, 0, stream>>> is cudasimLaunchKernel (100 µs of virtual time);
 *    cudaGetDeviceProperties and cudaOccupancyMaxActiveBlocksPerMultiprocessor are not simulated: `blocks` is
 *    1 × cudaDevAttrMultiProcessorCount, and the unifiedAddressing / compute-mode checks are dropped (every
 *    simulated device has unified addressing and the default compute mode).
 *  - DATA_SIZE is 64 KiB (64 MiB in the sample): the buffers are host memory the bodies fill.
 *  - cudaEventCreate(&event, flags) (the C++ overload) is cudaEventCreateWithFlags; std::vector is an array;
 *    the barrier's spins yield the CPU (sched_yield) and compare with casts (-Wsign-compare); a child that sees
 *    a mismatch also fails (the sample only prints it); the ARM guard is dropped.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "check.h"

#define checkCudaErrors(val) EXPECT((val), cudaSuccess)
#define EXIT_WAIVED 2

static const char shmName[] = "simpleIPCshm";
// For direct NVLINK and PCI-E peers, at max 8 simultaneous peers are allowed
// For NVSWITCH connected peers like DGX-2, simultaneous peers are not limited
// in the same way.
#define MAX_DEVICES (32)
#define DATA_SIZE (64ULL << 10ULL) // 64KB (the sample: 64MB)

#define cpu_atomic_add32(a, x) __sync_add_and_fetch(a, x)

typedef struct shmStruct_st {
    size_t nprocesses;
    int barrier;
    int sense;
    int devices[MAX_DEVICES];
    /* cudaIpcMemHandle_t memHandle[MAX_DEVICES]: IPC device memory is not simulated yet (see above) */
    cudaIpcEventHandle_t eventHandle[MAX_DEVICES];
} shmStruct;

/* The shared-memory slab, and the host stand-ins of the parent's device buffers. */
static shmStruct shm_slab;
static char ipc_buffers[MAX_DEVICES][DATA_SIZE];

typedef struct simpleKernelArgs {
    char *ptr;
    int sz;
    char val;
} simpleKernelArgs;

/* __global__ void simpleKernel(char *ptr, int sz, char val): every ptr[idx] = val. */
static void simpleKernel(void *arg) {
    const simpleKernelArgs *a = (const simpleKernelArgs *)arg;
    for (int idx = 0; idx < a->sz; idx++) {
        a->ptr[idx] = a->val;
    }
}

typedef struct copyArgs {
    char *dst;
    const char *src;
    size_t n;
} copyArgs;

/* The stand-in of cudaMemcpyAsync(&verification_buffer[0], ptrs[id], DATA_SIZE, …, stream). */
static void copyOnStream(void *arg) {
    const copyArgs *a = (const copyArgs *)arg;
    memcpy(a->dst, a->src, a->n);
}

static void barrierWait(volatile int *barrier, volatile int *sense, unsigned int n) {
    int count;

    // Check-in
    count = cpu_atomic_add32(barrier, 1);
    if (count == (int)n) // Last one in
        *sense = 1;
    while (!*sense)
        sched_yield();

    // Check-out
    count = cpu_atomic_add32(barrier, -1);
    if (count == 0) // Last one out
        *sense = 0;
    while (*sense)
        sched_yield();
}

static int childProcess(int id) {
    volatile shmStruct *shm = NULL;
    cudaStream_t stream;
    size_t procCount, i;
    int blocks = 0;
    int multiProcessorCount = 0;
    void *ptrs[MAX_DEVICES];
    cudaEvent_t events[MAX_DEVICES];
    simpleKernelArgs kernelArgs[MAX_DEVICES];
    char *verification_buffer = (char *)malloc(DATA_SIZE);
    int failed = 0;
    CHECK(verification_buffer != NULL);

    printf("CP: lshmName = %s\n", shmName);

    shm = &shm_slab;
    procCount = shm->nprocesses;

    printf("Process %d: Starting on device %d...\n", id, shm->devices[id]);

    checkCudaErrors(cudaSetDevice(shm->devices[id]));
    checkCudaErrors(cudaDeviceGetAttribute(&multiProcessorCount, cudaDevAttrMultiProcessorCount, shm->devices[id]));
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    blocks = 1; /* cudaOccupancyMaxActiveBlocksPerMultiprocessor: not simulated */
    blocks *= multiProcessorCount;
    CHECK(blocks > 0);

    // Open and track all the allocations and events created in the master
    // process for use later
    for (i = 0; i < procCount; i++) {
        void *ptr = NULL;
        cudaEvent_t event;

        // Notice, we don't need to explicitly enable peer access for
        // allocations on other devices.
        ptr = ipc_buffers[i]; /* cudaIpcOpenMemHandle(&ptr, shm->memHandle[i], …): not simulated */
        checkCudaErrors(cudaIpcOpenEventHandle(&event, *(cudaIpcEventHandle_t *)&shm->eventHandle[i]));

        ptrs[i] = ptr;
        events[i] = event;
    }

    // At each iteration of the loop, each sibling process will push work on
    // their respective devices accessing the next peer mapped buffer allocated
    // by the master process (these can come from other sibling processes as
    // well). To coordinate each process' access, we force the stream to wait for
    // the work already accessing this buffer asynchronously through IPC events,
    // allowing the CPU processes to continue to queue more work.
    for (i = 0; i < procCount; i++) {
        size_t bufferId = (i + id) % procCount;
        // Wait for the buffer to be accessed to be ready
        checkCudaErrors(cudaStreamWaitEvent(stream, events[bufferId], 0));
        // Push a simple kernel on it
        kernelArgs[i].ptr = (char *)ptrs[bufferId];
        kernelArgs[i].sz = (int)DATA_SIZE;
        kernelArgs[i].val = (char)id;
        checkCudaErrors(cudasimLaunchKernel(stream, "simpleKernel", 100000, simpleKernel, &kernelArgs[i]));
        checkCudaErrors(cudaGetLastError());
        // Signal that this buffer is ready for the next consumer
        checkCudaErrors(cudaEventRecord(events[bufferId], stream));
        // Wait for all my sibling processes to push this stage of their work
        // before proceeding to the next. This prevents siblings from racing
        // ahead and clobbering the recorded event or waiting on the wrong
        // recorded event.
        barrierWait(&shm->barrier, &shm->sense, (unsigned int)procCount);
        if (id == 0) {
            printf("Step %lld done\n", (unsigned long long)i);
        }
    }

    // Now wait for my buffer to be ready so I can copy it locally and verify it
    checkCudaErrors(cudaStreamWaitEvent(stream, events[id], 0));
    copyArgs copy = {verification_buffer, (const char *)ptrs[id], DATA_SIZE};
    checkCudaErrors(cudaLaunchHostFunc(stream, copyOnStream, &copy)); /* the cudaMemcpyAsync, see above */
    // And wait for all the queued up work to complete
    checkCudaErrors(cudaStreamSynchronize(stream));

    printf("Process %d: verifying...\n", id);

    // The contents should have the id of the sibling just after me
    char compareId = (char)((id + 1) % procCount);
    for (unsigned long long j = 0; j < DATA_SIZE; j++) {
        if (verification_buffer[j] != compareId) {
            printf("Process %d: Verification mismatch at %lld: %d != %d\n", id, j, (int)verification_buffer[j],
                   (int)compareId);
            failed = 1;
        }
    }

    // Clean up!
    for (i = 0; i < procCount; i++) {
        /* cudaIpcCloseMemHandle(ptrs[i]): not simulated */
        checkCudaErrors(cudaEventDestroy(events[i]));
    }

    checkCudaErrors(cudaStreamDestroy(stream));
    free(verification_buffer);

    printf("Process %d complete!\n", id);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* What a spawned child runs: its simulated process bound to its thread, then the sample's childProcess. */
typedef struct Process {
    pthread_t thread;
    streamsimProcess process;
    int id;
    int status;
} Process;

static void *childMain(void *arg) {
    Process *p = (Process *)arg;
    EXPECT(streamsimBind(p->process), STREAMSIM_SUCCESS);
    p->status = childProcess(p->id);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    return NULL;
}

static void parentProcess(void) {
    int devCount, i;
    volatile shmStruct *shm = NULL;
    void *ptrs[MAX_DEVICES];
    cudaEvent_t events[MAX_DEVICES];
    Process processes[MAX_DEVICES];

    printf("PP: lshmName = %s\n", shmName);

    checkCudaErrors(cudaGetDeviceCount(&devCount));

    shm = &shm_slab;
    memset((void *)shm, 0, sizeof(*shm));

    // Pick all the devices that can access each other's memory for this test
    // Keep in mind that CUDA has minimal support for fork() without a
    // corresponding exec() in the child process, but in this case our
    // spawnProcess will always exec, so no need to worry.
    for (i = 0; i < devCount; i++) {
        int allPeers = 1;
        /* cudaGetDeviceProperties: prop.unifiedAddressing and cudaDevAttrComputeMode are not simulated */

        for (int j = 0; j < (int)shm->nprocesses; j++) {
            int canAccessPeerIJ, canAccessPeerJI;
            checkCudaErrors(cudaDeviceCanAccessPeer(&canAccessPeerJI, shm->devices[j], i));
            checkCudaErrors(cudaDeviceCanAccessPeer(&canAccessPeerIJ, i, shm->devices[j]));
            if (!canAccessPeerIJ || !canAccessPeerJI) {
                allPeers = 0;
                break;
            }
        }
        if (allPeers) {
            // Enable peers here.  This isn't necessary for IPC, but it will
            // setup the peers for the device.  For systems that only allow 8
            // peers per GPU at a time, this acts to remove devices from CanAccessPeer
            for (int j = 0; j < (int)shm->nprocesses; j++) {
                checkCudaErrors(cudaSetDevice(i));
                checkCudaErrors(cudaDeviceEnablePeerAccess(shm->devices[j], 0));
                checkCudaErrors(cudaSetDevice(shm->devices[j]));
                checkCudaErrors(cudaDeviceEnablePeerAccess(i, 0));
            }
            shm->devices[shm->nprocesses++] = i;
            if (shm->nprocesses >= MAX_DEVICES)
                break;
        } else {
            printf("Device %d is not peer capable with some other selected peers, "
                   "skipping\n",
                   i);
        }
    }

    if (shm->nprocesses == 0) {
        printf("No CUDA devices support IPC\n");
        exit(EXIT_WAIVED);
    }

    // Now allocate memory and an event for each process and fill the shared
    // memory buffer with the IPC handles to communicate
    for (i = 0; i < (int)shm->nprocesses; i++) {
        void *ptr = NULL;
        cudaEvent_t event;

        checkCudaErrors(cudaSetDevice(shm->devices[i]));
        checkCudaErrors(cudaMalloc(&ptr, DATA_SIZE));
        /* cudaIpcGetMemHandle(&shm->memHandle[i], ptr): not simulated */
        checkCudaErrors(cudaEventCreateWithFlags(&event, cudaEventDisableTiming | cudaEventInterprocess));
        checkCudaErrors(cudaIpcGetEventHandle((cudaIpcEventHandle_t *)&shm->eventHandle[i], event));

        ptrs[i] = ptr;
        events[i] = event;
    }

    // Launch the child processes!
    streamsimProcess parent;
    streamsimMachine machine;
    EXPECT(streamsimDefaultProcess(&parent, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessGetMachine(parent, &machine), STREAMSIM_SUCCESS);
    for (i = 0; i < (int)shm->nprocesses; i++) {
        processes[i].id = i;
        processes[i].status = -1;
        EXPECT(streamsimProcessCreate(&processes[i].process, machine), STREAMSIM_SUCCESS);
        if (pthread_create(&processes[i].thread, NULL, childMain, &processes[i]) != 0) {
            printf("Failed to create process\n");
            exit(EXIT_FAILURE);
        }
    }

    // And wait for them to finish
    for (i = 0; i < (int)shm->nprocesses; i++) {
        CHECK(pthread_join(processes[i].thread, NULL) == 0);
        if (processes[i].status != EXIT_SUCCESS) {
            printf("Process %d failed!\n", i);
            exit(EXIT_FAILURE);
        }
        EXPECT(streamsimProcessDestroy(processes[i].process), STREAMSIM_SUCCESS);
    }

    // Clean up!
    for (i = 0; i < (int)shm->nprocesses; i++) {
        checkCudaErrors(cudaSetDevice(shm->devices[i]));
        checkCudaErrors(cudaEventSynchronize(events[i]));
        checkCudaErrors(cudaEventDestroy(events[i]));
        checkCudaErrors(cudaFree(ptrs[i]));
    }
    EXPECT(streamsimProcessDestroy(parent), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(machine), STREAMSIM_SUCCESS);
}

int main(void) {
    parentProcess();
    return EXIT_SUCCESS;
}
