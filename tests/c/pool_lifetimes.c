/*
 * pool_lifetimes.c — the lifetime mistakes of stream-ordered allocation, as a C program makes them, and what the
 * toolkit shows of them (docs/semantics/stream-ordered-memory.md · Lifetime):
 *
 *   cuda (default)  cudaMallocAsync on stream "alloc"; a kernel on stream "use" writes the memory without
 *                   waiting for the allocation (use before allocation); after an event it writes it again, and
 *                   cudaFreeAsync on "alloc" does not wait for it (use after free). The default pool keeps its
 *                   memory across synchronizes (release threshold UINT64_MAX), so the next allocation on "alloc"
 *                   reuses the block (the same address), properly ordered: no report. Reads the two
 *                   reports from C (kind, sides, fix, text).
 *   acl             The same with aclrtMemPoolMallocAsync / aclrtMemPoolFreeAsync on a pool of device 0 (release
 *                   threshold: the whole pool, the most ACL accepts).
 *
 * Expects STREAMSIM_RACES=collect or print (two reports) or off (none). Prints "lifetimes: N report(s)".
 */
#include <cuda_runtime.h>

#include "acl/acl.h"

#include "check.h"

#define SIZE 4096u

static void check_str(const char *file, int line, const char *what, const char *got, const char *want) {
    if ((got == NULL) != (want == NULL) || (got != NULL && strcmp(got, want) != 0)) {
        fprintf(stderr, "%s:%d: %s\n  got \"%s\", expected \"%s\"\n", file, line, what,
                got == NULL ? "(NULL)" : got, want == NULL ? "(NULL)" : want);
        exit(1);
    }
}
#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, #got, (got), (want))

static size_t expected_reports(void) {
    const char *mode = getenv("STREAMSIM_RACES");
    return mode != NULL && strcmp(mode, "off") == 0 ? 0 : 2;
}

/* The two reports: the use before allocation, then the use after free. */
static void check_reports(streamsimMachine m, const char *alloc_call, const char *free_call) {
    streamsimRaceReport r;
    EXPECT(streamsimMachineGetRace(m, 0, &r), STREAMSIM_SUCCESS);
    CHECK_EQ(r.kind, STREAMSIM_RACE_USE_BEFORE_ALLOC);
    CHECK_STR(r.first.operation, "alloc");
    CHECK_STR(r.first.name, alloc_call);
    CHECK_STR(r.first.streamName, "alloc");
    CHECK_EQ(r.first.seq, 1);
    CHECK_STR(r.second.operation, "kernel");
    CHECK_STR(r.second.name, "early");
    CHECK_STR(r.second.streamName, "use");
    CHECK_EQ(r.second.wrote, 1);
    CHECK_EQ(r.allocation, 1);
    CHECK_EQ(r.bytes, SIZE);
    char want[1024];
    snprintf(want, sizeof want,
             "record an event on stream `alloc` after `%s` and make stream `use` wait on it before `early`",
             alloc_call);
    CHECK_STR(r.fix, want);
    char text[1024];
    EXPECT(streamsimMachineGetRaceText(m, 0, text, sizeof text, NULL), STREAMSIM_SUCCESS);
    snprintf(want, sizeof want,
             "use before allocation of 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n"
             "  first:  alloc `%s` on stream `alloc` (device 0, process 0) allocates\n"
             "  second: kernel `early` on stream `use` (device 0, process 0) writes\n"
             "  fix: %s",
             alloc_call, r.fix);
    CHECK_STR(text, want);

    EXPECT(streamsimMachineGetRace(m, 1, &r), STREAMSIM_SUCCESS);
    CHECK_EQ(r.kind, STREAMSIM_RACE_USE_AFTER_FREE);
    CHECK_STR(r.first.operation, "kernel");
    CHECK_STR(r.first.name, "use");
    CHECK_STR(r.first.streamName, "use");
    CHECK_STR(r.second.operation, "free");
    CHECK_STR(r.second.name, free_call);
    CHECK_STR(r.second.streamName, "alloc");
    snprintf(want, sizeof want,
             "record an event on stream `use` after `use` and make stream `alloc` wait on it before `%s`", free_call);
    CHECK_STR(r.fix, want);
    EXPECT(streamsimMachineGetRace(m, 2, &r), STREAMSIM_ERROR_INVALID_VALUE);
}

static void finish(streamsimApi api, const char *alloc_call, const char *free_call) {
    streamsimMachine m;
    EXPECT(streamsimDefaultMachine(&m, api), STREAMSIM_SUCCESS);
    size_t n = 99;
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, expected_reports());
    if (n > 0) {
        check_reports(m, alloc_call, free_call);
    }
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    printf("lifetimes: %zu report(s)\n", n);
}

static void cuda_lifetimes(void) {
    cudaStream_t a, u;
    EXPECT(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking), cudaSuccess);
    EXPECT(cudaStreamCreateWithFlags(&u, cudaStreamNonBlocking), cudaSuccess);
    EXPECT(streamsimNameStream(STREAMSIM_API_CUDA, a, "alloc"), STREAMSIM_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_CUDA, u, "use"), STREAMSIM_SUCCESS);
    cudaEvent_t e;
    EXPECT(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), cudaSuccess);
    cudaMemPool_t pool;
    EXPECT(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    uint64_t keep = UINT64_MAX;
    EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), cudaSuccess);
    void *p = NULL;
    EXPECT(cudaMallocAsync(&p, SIZE, a), cudaSuccess);
    streamsimAccess w = {p, SIZE, STREAMSIM_ACCESS_WRITE};
    /* The bug: "use" does not wait for the allocation. */
    EXPECT(cudasimLaunchKernelEx(u, "early", 10000, NULL, NULL, &w, 1), cudaSuccess);
    /* Ordered after the allocation now; but the free does not wait for this kernel. */
    EXPECT(cudaEventRecord(e, a), cudaSuccess);
    EXPECT(cudaStreamWaitEvent(u, e, 0), cudaSuccess);
    EXPECT(cudasimLaunchKernelEx(u, "use", 10000, NULL, NULL, &w, 1), cudaSuccess);
    EXPECT(cudaFreeAsync(p, a), cudaSuccess);
    EXPECT(cudaStreamSynchronize(u), cudaSuccess);
    EXPECT(cudaStreamSynchronize(a), cudaSuccess);
    /* Reuse, ordered: the same address, no report. */
    void *q = NULL;
    EXPECT(cudaMallocAsync(&q, SIZE, a), cudaSuccess);
    CHECK(q == p);
    streamsimAccess wq = {q, SIZE, STREAMSIM_ACCESS_WRITE};
    EXPECT(cudasimLaunchKernelEx(a, "again", 10000, NULL, NULL, &wq, 1), cudaSuccess);
    EXPECT(cudaFreeAsync(q, a), cudaSuccess);
    EXPECT(cudaStreamSynchronize(a), cudaSuccess);
    finish(STREAMSIM_API_CUDA, "malloc_async", "free_async");
}

static void acl_lifetimes(void) {
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.id = 0;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.maxSize = 64u << 20;
    aclrtMemPool pool = NULL;
    EXPECT(aclrtMemPoolCreate(&pool, &props), ACL_SUCCESS);
    uint64_t keep = props.maxSize;
    EXPECT(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep), ACL_SUCCESS);
    aclrtStream a, u;
    EXPECT(aclrtCreateStream(&a), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&u), ACL_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_ACL, a, "alloc"), STREAMSIM_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_ACL, u, "use"), STREAMSIM_SUCCESS);
    aclrtEvent e;
    EXPECT(aclrtCreateEvent(&e), ACL_SUCCESS);
    void *p = NULL;
    EXPECT(aclrtMemPoolMallocAsync(&p, SIZE, pool, a), ACL_SUCCESS);
    streamsimAccess w = {p, SIZE, STREAMSIM_ACCESS_WRITE};
    EXPECT(aclsimLaunchKernelEx(u, "early", 10000, NULL, NULL, &w, 1), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(e, a), ACL_SUCCESS);
    EXPECT(aclrtStreamWaitEvent(u, e), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernelEx(u, "use", 10000, NULL, NULL, &w, 1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolFreeAsync(p, a), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(u), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    void *q = NULL;
    EXPECT(aclrtMemPoolMallocAsync(&q, SIZE, pool, a), ACL_SUCCESS);
    CHECK(q == p);
    EXPECT(aclrtMemPoolFreeAsync(q, a), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(a), ACL_SUCCESS);
    EXPECT(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
    finish(STREAMSIM_API_ACL, "malloc_from_pool_async", "free_async");
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "acl") == 0) {
        acl_lifetimes();
    } else {
        cuda_lifetimes();
    }
    return 0;
}
