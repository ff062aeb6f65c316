/*
 * racy_streams.c — a producer/consumer on two streams that forgets the event between them, the mistake of
 * seed 004 (phenomenon 1: synchronizing one stream does not wait for another), as an unmodified C program
 * would make it, and what the C/C++ toolkit shows of it (README: "Testing your C/C++ program"):
 *
 *   cuda (default)  CUDA names: "produce" writes a buffer on the stream named "compute"; the copy on
 *                   "copy stream" reads it without waiting for the event "produced" — one race; then the
 *                   fixed version (record + wait), which adds none; a record of a destroyed event (400, a
 *                   failed call for the trace). Reads the reports from C and checks them field by field.
 *   acl             The same with aclrt names, the wrong synchronize of seed 004 (aclrtSynchronizeStream on
 *                   the consumer's stream) and ACL's code for the failed call (107017).
 *   options         Machines made with streamsimMachineCreateWithOptions: races collected / off, a trace or
 *                   none, bad options.
 *   options-fail    A machine made with races STREAMSIM_RACES_FAIL and a race: the process exits 66.
 *   bad-env         Run with a bad STREAMSIM_* value: every call fails, the default machine cannot be made.
 *
 * The expected race count follows STREAMSIM_RACES (off: 0, else 1). With an argument after the mode, the
 * trace is also written on demand to that file (streamsimMachineWriteTrace; STREAMSIM_ERROR_NO_TRACE if the
 * default machine keeps none, which the program then expects). Prints "racy: N race(s)" on success.
 */
#include <cuda_runtime.h>

#include "acl/acl.h"

#include "check.h"

#define SIZE (1u << 20)

static void check_str(const char *file, int line, const char *what, const char *got, const char *want) {
    if ((got == NULL) != (want == NULL) || (got != NULL && strcmp(got, want) != 0)) {
        fprintf(stderr, "%s:%d: %s\n  got \"%s\", expected \"%s\"\n", file, line, what,
                got == NULL ? "(NULL)" : got, want == NULL ? "(NULL)" : want);
        exit(1);
    }
}
#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, #got, (got), (want))

/* How many races the run should find: none with STREAMSIM_RACES=off. */
static size_t expected_races(void) {
    const char *mode = getenv("STREAMSIM_RACES");
    return mode != NULL && strcmp(mode, "off") == 0 ? 0 : 1;
}

/* The report of the producer/consumer race, read from C: struct and text. */
static void check_report(streamsimMachine m, const char *kernel_stream, const char *copy_stream,
                         const char *copy_call) {
    streamsimRaceReport r;
    EXPECT(streamsimMachineGetRace(m, 0, &r), STREAMSIM_SUCCESS);
    CHECK_EQ(r.first.accessor, STREAMSIM_ACCESSOR_OPERATION);
    CHECK_EQ(r.first.wrote, 1);
    CHECK_STR(r.first.operation, "kernel");
    CHECK_STR(r.first.name, "produce");
    CHECK_STR(r.first.streamName, kernel_stream);
    CHECK_EQ(r.first.device, 0);
    CHECK_EQ(r.first.process, 0);
    CHECK_EQ(r.first.thread, UINT32_MAX);
    CHECK_EQ(r.first.seq, 1);
    CHECK_EQ(r.second.accessor, STREAMSIM_ACCESSOR_OPERATION);
    CHECK_EQ(r.second.wrote, 0);
    CHECK_STR(r.second.operation, "memcpy");
    CHECK_STR(r.second.name, copy_call);
    CHECK_STR(r.second.streamName, copy_stream);
    CHECK_EQ(r.second.seq, 1);
    CHECK_EQ(r.allocation, 1);
    CHECK_EQ(r.offset, 0);
    CHECK_EQ(r.bytes, SIZE);
    CHECK_EQ(r.occurrences, 1);
    CHECK_EQ(r.memory, STREAMSIM_MEMORY_DEVICE);
    CHECK_EQ(r.memoryDevice, 0);
    char want[512];
    snprintf(want, sizeof want, "stream `%s`", kernel_stream);
    CHECK_STR(r.first.stream, want);
    snprintf(want, sizeof want,
             "record an event on stream `%s` after `produce` and make stream `%s` wait on it before `%s`",
             kernel_stream, copy_stream, copy_call);
    CHECK_STR(r.fix, want);
    /* The text, snprintf-style: the length first, then the whole text, then a cut one. */
    size_t length = 0;
    EXPECT(streamsimMachineGetRaceText(m, 0, NULL, 0, &length), STREAMSIM_SUCCESS);
    char text[1024];
    CHECK(length < sizeof text);
    size_t again = 0;
    EXPECT(streamsimMachineGetRaceText(m, 0, text, sizeof text, &again), STREAMSIM_SUCCESS);
    CHECK_EQ(again, length);
    CHECK_EQ(strlen(text), length);
    snprintf(want, sizeof want,
             "data race on 1048576 bytes at offset 0 of allocation #1 (device 0 memory)\n"
             "  first:  kernel `produce` on stream `%s` (device 0, process 0) writes\n"
             "  second: memcpy `%s` on stream `%s` (device 0, process 0) reads\n"
             "  fix: %s",
             kernel_stream, copy_call, copy_stream, r.fix);
    CHECK_STR(text, want);
    char cut[12];
    EXPECT(streamsimMachineGetRaceText(m, 0, cut, sizeof cut, NULL), STREAMSIM_SUCCESS);
    CHECK_STR(cut, "data race o");
    /* Past the last report. */
    EXPECT(streamsimMachineGetRace(m, 1, &r), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineGetRaceText(m, 1, text, sizeof text, &length), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineGetRace(m, 0, NULL), STREAMSIM_ERROR_INVALID_VALUE);
}

/* Writes the trace on demand to `path` if given: it works only when the machine keeps a trace. */
static void write_trace(streamsimMachine m, const char *path, int keeps_trace) {
    if (path == NULL) {
        return;
    }
    EXPECT(streamsimMachineWriteTrace(m, path), keeps_trace ? STREAMSIM_SUCCESS : STREAMSIM_ERROR_NO_TRACE);
}

static int keeps_trace(void) {
    const char *t = getenv("STREAMSIM_TIMELINE");
    return getenv("STREAMSIM_TRACE") != NULL || (t != NULL && strcmp(t, "1") == 0);
}

/* The race, then the fixed version, with CUDA names, on the process cuda* calls go to now. */
static void cuda_producer_consumer(void) {
    cudaStream_t compute, copy;
    EXPECT(cudaStreamCreate(&compute), cudaSuccess);
    EXPECT(cudaStreamCreate(&copy), cudaSuccess);
    EXPECT(streamsimNameStream(STREAMSIM_API_CUDA, compute, "compute"), STREAMSIM_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_CUDA, copy, "copy stream"), STREAMSIM_SUCCESS);
    cudaEvent_t produced;
    EXPECT(cudaEventCreate(&produced), cudaSuccess);
    EXPECT(streamsimNameEvent(STREAMSIM_API_CUDA, produced, "produced"), STREAMSIM_SUCCESS);
    void *dev = NULL, *host = NULL;
    EXPECT(cudaMalloc(&dev, SIZE), cudaSuccess);
    EXPECT(cudaMallocHost(&host, SIZE), cudaSuccess);
    streamsimAccess writes = {dev, SIZE, STREAMSIM_ACCESS_WRITE};

    /* The bug: the consumer's copy does not wait for the producer. */
    EXPECT(cudasimLaunchKernelEx(compute, "produce", 400000, NULL, NULL, &writes, 1), cudaSuccess);
    EXPECT(cudaMemcpyAsync(host, dev, SIZE, cudaMemcpyDeviceToHost, copy), cudaSuccess);
    EXPECT(cudaStreamSynchronize(copy), cudaSuccess);

    /* The fix: record after the producer, wait before the copy. No new race. */
    EXPECT(cudasimLaunchKernelEx(compute, "produce", 400000, NULL, NULL, &writes, 1), cudaSuccess);
    EXPECT(cudaEventRecord(produced, compute), cudaSuccess);
    EXPECT(cudaStreamWaitEvent(copy, produced, 0), cudaSuccess);
    EXPECT(cudaMemcpyAsync(host, dev, SIZE, cudaMemcpyDeviceToHost, copy), cudaSuccess);
    EXPECT(cudaStreamSynchronize(copy), cudaSuccess);

    /* A failed call, for the trace. */
    cudaEvent_t gone;
    EXPECT(cudaEventCreate(&gone), cudaSuccess);
    EXPECT(cudaEventDestroy(gone), cudaSuccess);
    EXPECT(cudaEventRecord(gone, compute), cudaErrorInvalidResourceHandle);
    EXPECT(streamsimNameEvent(STREAMSIM_API_CUDA, gone, "gone"), STREAMSIM_ERROR_INVALID_HANDLE);
    /* Naming is not a runtime call: the last error is still the record's. */
    EXPECT(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    EXPECT(cudaEventDestroy(produced), cudaSuccess);
    EXPECT(cudaStreamDestroy(compute), cudaSuccess);
    EXPECT(cudaStreamDestroy(copy), cudaSuccess);
    EXPECT(cudaFree(dev), cudaSuccess);
    EXPECT(cudaFreeHost(host), cudaSuccess);
}

static int cuda_main(const char *trace_path) {
    cuda_producer_consumer();
    streamsimMachine m;
    EXPECT(streamsimDefaultMachine(&m, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
    size_t n = 99;
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, expected_races());
    if (n == 1) {
        check_report(m, "compute", "copy stream", "memcpy_async");
    }
    write_trace(m, trace_path, keeps_trace());
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    printf("racy: %zu race(s)\n", n);
    return 0;
}

/* Seed 004, phenomenon 1, with aclrt names: synchronizing the consumer's stream does not wait for the
 * producer's. */
static int acl_main(const char *trace_path) {
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream1, stream2;
    EXPECT(aclrtCreateStream(&stream1), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&stream2), ACL_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_ACL, stream1, "stream1"), STREAMSIM_SUCCESS);
    EXPECT(streamsimNameStream(STREAMSIM_API_ACL, stream2, "stream2"), STREAMSIM_SUCCESS);
    void *dev = NULL, *host = NULL;
    EXPECT(aclrtMalloc(&dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT(aclrtMallocHost(&host, SIZE), ACL_SUCCESS);
    streamsimAccess writes = {dev, SIZE, STREAMSIM_ACCESS_WRITE};
    EXPECT(aclsimLaunchKernelEx(stream1, "produce", 400000, NULL, NULL, &writes, 1), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream2), ACL_SUCCESS); /* the wrong stream */
    EXPECT(aclrtMemcpyAsync(host, SIZE, dev, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, stream2), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(stream2), ACL_SUCCESS);
    /* A failed call, for the trace: a destroyed event. */
    aclrtEvent gone;
    EXPECT(aclrtCreateEvent(&gone), ACL_SUCCESS);
    EXPECT(aclrtDestroyEvent(gone), ACL_SUCCESS);
    EXPECT(aclrtRecordEvent(gone, stream1), ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT(aclrtSynchronizeDevice(), ACL_SUCCESS);

    streamsimMachine m;
    EXPECT(streamsimDefaultMachine(&m, STREAMSIM_API_ACL), STREAMSIM_SUCCESS);
    size_t n = 99;
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, expected_races());
    if (n == 1) {
        check_report(m, "stream1", "stream2", "memcpy_async");
    }
    write_trace(m, trace_path, keeps_trace());
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    EXPECT(aclrtDestroyStream(stream1), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream2), ACL_SUCCESS);
    EXPECT(aclrtFree(dev), ACL_SUCCESS);
    EXPECT(aclrtFreeHost(host), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);
    printf("racy: %zu race(s)\n", n);
    return 0;
}

/* The producer/consumer on a machine made with `options`, bound on this thread; returns its race count. */
static size_t on_machine(const streamsimMachineOptions *options, const char *trace_path, int keeps) {
    streamsimMachine m;
    streamsimProcess p;
    EXPECT(streamsimMachineCreateWithOptions(&m, options), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(p), STREAMSIM_SUCCESS);
    cuda_producer_consumer();
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    size_t n = 99;
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_SUCCESS);
    write_trace(m, trace_path, keeps);
    EXPECT(streamsimProcessDestroy(p), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    return n;
}

static int options_main(const char *trace_path) {
    streamsimMachineOptions o;
    EXPECT(streamsimMachineOptionsInit(&o), STREAMSIM_SUCCESS);
    CHECK_EQ(o.dialect, STREAMSIM_DIALECT_CUDA);
    CHECK_EQ(o.devices, 1);
    CHECK_EQ(o.seed, 0);
    CHECK_EQ(o.races, STREAMSIM_RACES_PRINT);
    CHECK_EQ(o.trace, 0);
    EXPECT(streamsimMachineOptionsInit(NULL), STREAMSIM_ERROR_INVALID_VALUE);
    /* Collected silently, with a trace to write. */
    o.races = STREAMSIM_RACES_COLLECT;
    o.trace = 1;
    CHECK_EQ(on_machine(&o, trace_path, 1), 1);
    /* Off, and no trace: nothing found, nothing to write. */
    o.races = STREAMSIM_RACES_OFF;
    o.trace = 0;
    CHECK_EQ(on_machine(&o, "unused.json", 0), 0);
    /* Bad options. */
    streamsimMachine m = NULL;
    o.races = (streamsimRaceMode)7;
    EXPECT(streamsimMachineCreateWithOptions(&m, &o), STREAMSIM_ERROR_INVALID_VALUE);
    o.races = STREAMSIM_RACES_COLLECT;
    o.dialect = (streamsimDialect)9;
    EXPECT(streamsimMachineCreateWithOptions(&m, &o), STREAMSIM_ERROR_INVALID_VALUE);
    o.dialect = STREAMSIM_DIALECT_ACL;
    o.devices = 1025;
    EXPECT(streamsimMachineCreateWithOptions(&m, &o), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineCreateWithOptions(&m, NULL), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineCreateWithOptions(NULL, &o), STREAMSIM_ERROR_INVALID_VALUE);
    CHECK(m == NULL);
    /* A machine made the old way keeps a trace and collects races. */
    EXPECT(streamsimMachineCreate(&m, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
    size_t n = 99;
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, 0);
    EXPECT(streamsimMachineWriteTrace(m, NULL), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineWriteTrace(m, "/no/such/directory/trace.json"), STREAMSIM_ERROR_IO);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineGetRaceCount(m, &n), STREAMSIM_ERROR_INVALID_HANDLE);
    EXPECT(streamsimMachineWriteTrace(m, "x.json"), STREAMSIM_ERROR_INVALID_HANDLE);
    printf("options: ok\n");
    return 0;
}

/* A machine in fail mode that finds a race: the process exits with STREAMSIM_RACES_EXITCODE (66). */
static int options_fail_main(void) {
    streamsimMachineOptions o;
    EXPECT(streamsimMachineOptionsInit(&o), STREAMSIM_SUCCESS);
    o.races = STREAMSIM_RACES_FAIL;
    CHECK_EQ(on_machine(&o, NULL, 0), 1);
    printf("options-fail: 1 race, exiting\n");
    return 0;
}

/* A bad STREAMSIM_* value: the default machine cannot be made; every call says so. */
static int bad_env_main(void) {
    cudaStream_t s = NULL;
    EXPECT(cudaStreamCreate(&s), cudaErrorNoDevice);
    aclrtStream a = NULL;
    EXPECT(aclrtCreateStream(&a), ACL_ERROR_UNINITIALIZE);
    streamsimMachine m = NULL;
    EXPECT(streamsimDefaultMachine(&m, STREAMSIM_API_CUDA), STREAMSIM_ERROR_CONFIG);
    EXPECT(streamsimNameStream(STREAMSIM_API_CUDA, NULL, "x"), STREAMSIM_ERROR_CONFIG);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "STREAMSIM_");
    printf("bad environment: ok\n");
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "cuda";
    const char *trace_path = argc > 2 ? argv[2] : NULL;
    if (strcmp(mode, "cuda") == 0) {
        return cuda_main(trace_path);
    }
    if (strcmp(mode, "acl") == 0) {
        return acl_main(trace_path);
    }
    if (strcmp(mode, "options") == 0) {
        return options_main(trace_path);
    }
    if (strcmp(mode, "options-fail") == 0) {
        return options_fail_main();
    }
    if (strcmp(mode, "bad-env") == 0) {
        return bad_env_main();
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
