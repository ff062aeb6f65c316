/*
 * Ported from NVIDIA cuda-samples (github.com/NVIDIA/cuda-samples, commit c94ff366),
 * Samples/0_Introduction/simpleIPC/simpleIPC.cu, with Common/helper_multiprocess.cpp's Linux
 * sharedMemoryCreate / sharedMemoryOpen / sharedMemoryClose / spawnProcess / waitProcess: "Inter Process
 * Communication using one process per GPU for computation", as written — real OS processes (the parent
 * forks and execs one child per device), device memory and events shared with cudaIpcGetMemHandle /
 * cudaIpcOpenMemHandle(cudaIpcMemLazyEnablePeerAccess) / cudaIpcCloseMemHandle and cudaIpcGetEventHandle /
 * cudaIpcOpenEventHandle. The parent allocates a buffer and an interprocess event per device and puts their
 * handles in a POSIX shared-memory slab; each child opens every buffer and event, and step by step (a
 * barrier) waits on the next buffer's event, runs a kernel that writes its id over that buffer, and records
 * the event on its own stream; at the end each child copies its own buffer back and checks that it holds the
 * id of the child after it. Run with STREAMSIM_DEVICES=3 (3 children on 3 devices).
 * Kept: the shared structure (with the memory handles), every runtime call and its order, fork + execvp,
 * the shared-memory slab named after the parent's pid, the barrier, the steps, the verification, the messages.
 * Changed, and why:
 *  - simpleKernel<<<blocks, threads, 0, stream>>> is cudasimLaunchKernelCtx (100 µs of virtual time) whose
 *    body does what simpleKernel does (every ptr[idx] = val) through the kernel context, declaring the buffer
 *    written; the occupancy call gets the body's address.
 *  - DATA_SIZE is 1 MiB (64 MiB in the sample): the bytes are really written and copied in a debug build.
 *  - cudaEventCreate(&event, flags) (the C++ overload) is cudaEventCreateWithFlags; std::vector is an array;
 *    the barrier's spins yield (sched_yield) and compare with casts (-Wsign-compare); a child that sees a
 *    mismatch also exits non-zero and stops at the first (the sample prints every mismatching byte); the
 *    shared-memory slab is created with mode 0600 (the sample: 0777) and unlinked by the parent at the end
 *    (the sample leaves it); the ARM guard is dropped; the parent says "ok" at the end.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>
#include <streamsim.h>

#include "check.h"

#define checkCudaErrors(val) EXPECT((val), cudaSuccess)
#define EXIT_WAIVED 2

static const char shmName[] = "simpleIPCshm";
// For direct NVLINK and PCI-E peers, at max 8 simultaneous peers are allowed
// For NVSWITCH connected peers like DGX-2, simultaneous peers are not limited
// in the same way.
#define MAX_DEVICES (32)
#define DATA_SIZE (1ULL << 20ULL) // 1MB (the sample: 64MB)

#define cpu_atomic_add32(a, x) __sync_add_and_fetch(a, x)

typedef struct shmStruct_st {
    size_t nprocesses;
    int barrier;
    int sense;
    int devices[MAX_DEVICES];
    cudaIpcMemHandle_t memHandle[MAX_DEVICES];
    cudaIpcEventHandle_t eventHandle[MAX_DEVICES];
} shmStruct;

/* helper_multiprocess.h */
typedef struct sharedMemoryInfo_st {
    void *addr;
    size_t size;
    int shmFd;
} sharedMemoryInfo;
typedef pid_t Process;

static int sharedMemoryCreate(const char *name, size_t sz, sharedMemoryInfo *info) {
    int status = 0;
    info->size = sz;
    info->shmFd = shm_open(name, O_RDWR | O_CREAT, 0600);
    if (info->shmFd < 0) {
        return errno;
    }
    status = ftruncate(info->shmFd, (off_t)sz);
    if (status != 0) {
        return status;
    }
    info->addr = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_SHARED, info->shmFd, 0);
    if (info->addr == NULL) {
        return errno;
    }
    return 0;
}

static int sharedMemoryOpen(const char *name, size_t sz, sharedMemoryInfo *info) {
    info->size = sz;
    info->shmFd = shm_open(name, O_RDWR, 0600);
    if (info->shmFd < 0) {
        return errno;
    }
    info->addr = mmap(0, sz, PROT_READ | PROT_WRITE, MAP_SHARED, info->shmFd, 0);
    if (info->addr == NULL) {
        return errno;
    }
    return 0;
}

static void sharedMemoryClose(sharedMemoryInfo *info) {
    if (info->addr) {
        munmap(info->addr, info->size);
    }
    if (info->shmFd) {
        close(info->shmFd);
    }
}

static int spawnProcess(Process *process, const char *app, char *const *args) {
    *process = fork();
    if (*process == 0) {
        if (0 > execvp(app, args)) {
            return errno;
        }
    } else if (*process < 0) {
        return errno;
    }
    return 0;
}

static int waitProcess(Process *process) {
    int status = 0;
    do {
        if (0 > waitpid(*process, &status, 0)) {
            return errno;
        }
    } while (!WIFEXITED(status));
    return WEXITSTATUS(status);
}

typedef struct simpleKernelArgs {
    char *ptr;
    int sz;
    char val;
} simpleKernelArgs;

/* __global__ void simpleKernel(char *ptr, int sz, char val): every ptr[idx] = val. */
static void simpleKernel(streamsimKernelCtx *ctx, void *arg) {
    const simpleKernelArgs *a = (const simpleKernelArgs *)arg;
    char *p = NULL;
    if (streamsimKernelMap(ctx, a->ptr, (size_t)a->sz, (void **)&p) != STREAMSIM_SUCCESS) {
        return; /* the kernel has faulted: the next synchronize says so */
    }
    for (int idx = 0; idx < a->sz; idx++) {
        p[idx] = a->val;
    }
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
    sharedMemoryInfo info;
    size_t procCount, i;
    int blocks = 0;
    int threads = 128;
    struct cudaDeviceProp prop;
    void *ptrs[MAX_DEVICES];
    cudaEvent_t events[MAX_DEVICES];
    simpleKernelArgs kernelArgs[MAX_DEVICES];
    char *verification_buffer = (char *)malloc(DATA_SIZE);
    char pidString[20] = {0};
    char lshmName[40] = {0};
    CHECK(verification_buffer != NULL);

    // Use parent process ID to create a unique shared memory name for Linux multi-process
    pid_t pid;
    pid = getppid();
    snprintf(pidString, sizeof(pidString), "%d", pid);
    strcat(lshmName, shmName);
    strcat(lshmName, pidString);

    printf("CP: lshmName = %s\n", lshmName);

    if (sharedMemoryOpen(lshmName, sizeof(shmStruct), &info) != 0) {
        printf("Failed to create shared memory slab\n");
        exit(EXIT_FAILURE);
    }
    shm = (volatile shmStruct *)info.addr;
    procCount = shm->nprocesses;

    printf("Process %d: Starting on device %d...\n", id, shm->devices[id]);

    checkCudaErrors(cudaSetDevice(shm->devices[id]));
    checkCudaErrors(cudaGetDeviceProperties(&prop, shm->devices[id]));
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)(uintptr_t)simpleKernel,
                                                                  threads, 0));
    blocks *= prop.multiProcessorCount;
    CHECK(blocks > 0);

    // Open and track all the allocations and events created in the master
    // process for use later
    for (i = 0; i < procCount; i++) {
        void *ptr = NULL;
        cudaEvent_t event;

        // Notice, we don't need to explicitly enable peer access for
        // allocations on other devices.
        checkCudaErrors(
            cudaIpcOpenMemHandle(&ptr, *(cudaIpcMemHandle_t *)&shm->memHandle[i], cudaIpcMemLazyEnablePeerAccess));
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
        streamsimAccess written = {ptrs[bufferId], DATA_SIZE, STREAMSIM_ACCESS_WRITE};
        checkCudaErrors(
            cudasimLaunchKernelCtx(stream, "simpleKernel", 100000, simpleKernel, &kernelArgs[i], &written, 1));
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
    checkCudaErrors(cudaMemcpyAsync(&verification_buffer[0], ptrs[id], DATA_SIZE, cudaMemcpyDeviceToHost, stream));
    // And wait for all the queued up work to complete
    checkCudaErrors(cudaStreamSynchronize(stream));

    printf("Process %d: verifying...\n", id);

    // The contents should have the id of the sibling just after me
    char compareId = (char)((id + 1) % procCount);
    for (unsigned long long j = 0; j < DATA_SIZE; j++) {
        if (verification_buffer[j] != compareId) {
            printf("Process %d: Verification mismatch at %lld: %d != %d\n", id, j, (int)verification_buffer[j],
                   (int)compareId);
            return 1;
        }
    }

    // Clean up!
    for (i = 0; i < procCount; i++) {
        checkCudaErrors(cudaIpcCloseMemHandle(ptrs[i]));
        checkCudaErrors(cudaEventDestroy(events[i]));
    }

    checkCudaErrors(cudaStreamDestroy(stream));
    free(verification_buffer);

    printf("Process %d complete!\n", id);
    return 0;
}

static void parentProcess(char *app) {
    sharedMemoryInfo info;
    int devCount, i;
    volatile shmStruct *shm = NULL;
    void *ptrs[MAX_DEVICES];
    cudaEvent_t events[MAX_DEVICES];
    Process processes[MAX_DEVICES];
    char pidString[20] = {0};
    char lshmName[40] = {0};

    // Use current process ID to create a unique shared memory name for Linux multi-process
    pid_t pid;
    pid = getpid();
    snprintf(pidString, sizeof(pidString), "%d", pid);
    strcat(lshmName, shmName);
    strcat(lshmName, pidString);

    printf("PP: lshmName = %s\n", lshmName);

    checkCudaErrors(cudaGetDeviceCount(&devCount));

    if (sharedMemoryCreate(lshmName, sizeof(*shm), &info) != 0) {
        printf("Failed to create shared memory slab\n");
        exit(EXIT_FAILURE);
    }
    shm = (volatile shmStruct *)info.addr;
    memset((void *)shm, 0, sizeof(*shm));

    // Pick all the devices that can access each other's memory for this test
    // Keep in mind that CUDA has minimal support for fork() without a
    // corresponding exec() in the child process, but in this case our
    // spawnProcess will always exec, so no need to worry.
    for (i = 0; i < devCount; i++) {
        int allPeers = 1;
        struct cudaDeviceProp prop;
        checkCudaErrors(cudaGetDeviceProperties(&prop, i));

        // CUDA IPC is only supported on devices with unified addressing
        if (!prop.unifiedAddressing) {
            printf("Device %d does not support unified addressing, skipping...\n", i);
            continue;
        }
        // This sample requires two processes accessing each device, so we need
        // to ensure exclusive or prohibited mode is not set
        int computeMode;
        checkCudaErrors(cudaDeviceGetAttribute(&computeMode, cudaDevAttrComputeMode, i));
        if (computeMode != cudaComputeModeDefault) {
            printf("Device %d is in an unsupported compute mode for this sample\n", i);
            continue;
        }

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
        checkCudaErrors(cudaIpcGetMemHandle((cudaIpcMemHandle_t *)&shm->memHandle[i], ptr));
        checkCudaErrors(cudaEventCreateWithFlags(&event, cudaEventDisableTiming | cudaEventInterprocess));
        checkCudaErrors(cudaIpcGetEventHandle((cudaIpcEventHandle_t *)&shm->eventHandle[i], event));

        ptrs[i] = ptr;
        events[i] = event;
    }

    // Launch the child processes!
    for (i = 0; i < (int)shm->nprocesses; i++) {
        char devIdx[12]; // Increased size to ensure enough space for formatted integer
        char *const args[] = {app, devIdx, NULL};
        Process process;

        snprintf(devIdx, sizeof(devIdx), "%d", i);

        if (spawnProcess(&process, app, args)) {
            printf("Failed to create process\n");
            exit(EXIT_FAILURE);
        }

        processes[i] = process;
    }

    // And wait for them to finish
    for (i = 0; i < (int)shm->nprocesses; i++) {
        if (waitProcess(&processes[i]) != EXIT_SUCCESS) {
            printf("Process %d failed!\n", i);
            exit(EXIT_FAILURE);
        }
    }

    // Clean up!
    for (i = 0; i < (int)shm->nprocesses; i++) {
        checkCudaErrors(cudaSetDevice(shm->devices[i]));
        checkCudaErrors(cudaEventSynchronize(events[i]));
        checkCudaErrors(cudaEventDestroy(events[i]));
        checkCudaErrors(cudaFree(ptrs[i]));
    }

    sharedMemoryClose(&info);
    shm_unlink(lshmName);
    printf("simpleIPC with %d processes: ok\n", i);
}

int main(int argc, char **argv) {
    if (argc == 1) {
        parentProcess(argv[0]);
    } else {
        return childProcess(atoi(argv[1]));
    }
    return EXIT_SUCCESS;
}
