/*
 * The MUSA events article (MUSA Event 相关接口使用, seed 000) §2.3 "IPC Event" with two real OS processes, A
 * and B, exactly as written: A creates an interprocess event, gets its handle and copies it into shared memory
 * (here a POSIX shared-memory object, shm_open); B copies it out, opens it and makes a stream wait for it.
 * Around the article's calls: A records the event after a 2 ms kernel (the article leaves what A records to
 * the reader), B checks what the wait did (its stream is not finished before A's record's virtual time, its
 * query and synchronize answer from A's record), and the two processes tell each other where they are through
 * flags in the same shared memory (the article's "任何主机侧IPC手段").
 *
 *   os_musa_ipc_event a SHM_NAME     process A
 *   os_musa_ipc_event b SHM_NAME     process B (start it alongside A)
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <musa_runtime.h>

#include "check.h"

struct shared {
    int handle_ready; /* A: the handle is in `IPC_Shared` and the event is recorded */
    int b_done;       /* B: finished with the event */
    unsigned char IPC_Shared[sizeof(musaIpcEventHandle_t)];
};

static struct shared *map_shared(const char *name, int create) {
    int fd = shm_open(name, O_RDWR | (create ? O_CREAT : 0), 0600);
    for (int i = 0; fd < 0 && !create && i < 6000; i++) { /* B may start first: wait up to 60 s */
        usleep(10000);
        fd = shm_open(name, O_RDWR, 0600);
    }
    CHECK(fd >= 0);
    if (create) {
        CHECK(ftruncate(fd, sizeof(struct shared)) == 0);
    } else {
        /* A makes the object, then sizes it: B must not map it before (a store to a mapping past the object's
         * end is SIGBUS). */
        struct stat st;
        for (int i = 0;; i++) {
            CHECK(fstat(fd, &st) == 0);
            if (st.st_size >= (off_t)sizeof(struct shared)) {
                break;
            }
            CHECK(i < 6000);
            usleep(10000);
        }
    }
    void *p = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(p != MAP_FAILED);
    close(fd);
    return (struct shared *)p;
}

/* The flags are read and written with the compiler's atomic builtins (C11 and C++17 alike). */
static void set_flag(int *flag) {
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

static void wait_flag(int *flag) {
    for (int i = 0; __atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0; i++) {
        CHECK(i < 6000); /* 60 s */
        usleep(10000);
    }
}

static void process_a(const char *name) {
    struct shared *IPC = map_shared(name, 1);
    musaStream_t stream;
    EXPECT(musaStreamCreate(&stream), musaSuccess);
    musaEvent_t event;
    musaIpcEventHandle_t handle;

    /* 进程A */
    EXPECT(musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess), musaSuccess);
    EXPECT(musaIpcGetEventHandle(&handle, event), musaSuccess);
    memcpy(IPC->IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));

    /* What A's stream does before the record B waits for: a 2 ms kernel. */
    EXPECT(musasimLaunchKernel(stream, "producer", 2000000, NULL, NULL), musaSuccess);
    EXPECT(musaEventRecord(event, stream), musaSuccess);
    set_flag(&IPC->handle_ready);

    wait_flag(&IPC->b_done);
    EXPECT(musaEventSynchronize(event), musaSuccess);
    EXPECT(musaEventDestroy(event), musaSuccess);
    EXPECT(musaStreamDestroy(stream), musaSuccess);
    printf("process A: ok\n");
}

static void process_b(const char *name) {
    struct shared *IPC = map_shared(name, 0);
    musaStream_t stream;
    EXPECT(musaStreamCreate(&stream), musaSuccess);
    musaEvent_t before, after;
    EXPECT(musaEventCreate(&before), musaSuccess);
    EXPECT(musaEventCreate(&after), musaSuccess);
    wait_flag(&IPC->handle_ready);

    musaIpcEventHandle_t ipc_handle;
    musaEvent_t ipc_event;
    /* 进程B */
    memcpy(&ipc_handle, IPC->IPC_Shared, sizeof(musaIpcEventHandle_t));
    EXPECT(musaIpcOpenEventHandle(&ipc_event, ipc_handle), musaSuccess);
    EXPECT(musaEventRecord(before, stream), musaSuccess);
    EXPECT(musaStreamWaitEvent(stream, ipc_event, 0), musaSuccess);
    EXPECT(musaEventRecord(after, stream), musaSuccess);

    /* B's host clock is a few µs in; the wait takes A's record's virtual time (A's 2 ms kernel and A's calls
     * before it): B's stream is not finished yet. */
    EXPECT(musaStreamQuery(stream), musaErrorNotReady);
    EXPECT(musaStreamSynchronize(stream), musaSuccess);
    EXPECT(musaStreamQuery(stream), musaSuccess);
    /* B's query of the opened event answers from A's record, which has run. */
    EXPECT(musaEventQuery(ipc_event), musaSuccess);
    EXPECT(musaEventSynchronize(ipc_event), musaSuccess);
    /* "如果你使用了IPC类型的event，就无法通过这个event获取时间戳了" */
    float ms = 0;
    EXPECT(musaEventElapsedTime(&ms, ipc_event, ipc_event), musaErrorInvalidResourceHandle);
    /* The wait ended at A's record: A's host clock at its record (its create, handle, launch and record
     * calls, 1 µs each, after its stream's creation) plus the kernel's 2 ms, against B's clock at `before`. */
    EXPECT(musaEventElapsedTime(&ms, before, after), musaSuccess);
    printf("process B: waited %.6f ms of virtual time\n", ms);
    EXPECT(musaEventDestroy(ipc_event), musaSuccess);
    set_flag(&IPC->b_done);
    printf("process B: ok\n");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s a|b SHM_NAME\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "a") == 0) {
        process_a(argv[2]);
        shm_unlink(argv[2]);
    } else {
        process_b(argv[2]);
    }
    return 0;
}
