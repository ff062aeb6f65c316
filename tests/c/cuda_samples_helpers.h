/*
 * cuda_samples_helpers.h — a small local equivalent of the cuda-samples helpers the ported samples include
 * (Common/helper_cuda.h, helper_functions.h, helper_string.h, helper_timer.h of github.com/NVIDIA/cuda-samples
 * at c94ff366aed18c797b8a85dfaac7817b0228b420), written for C11 and C++17: checkCudaErrors, findCudaDevice (with
 * gpuGetMaxGflopsDeviceId's choice), _ConvertSMVer2Cores / _ConvertSMVer2ArchName (the same tables, up to
 * compute capability 9.0), checkCmdLineFlag / getCmdLineArgumentInt, and the sdk stopwatch (wall-clock time, as
 * the original: the only printout of a ported sample that is not deterministic). Not a copy: the same behaviour,
 * with only what the samples use.
 *
 * It includes the C headers the originals include (assert.h, math.h, stdint.h, stdio.h, stdlib.h, string.h,
 * time.h), which the samples rely on getting through them, and, in C, <stdbool.h>: the samples are C++ (nvcc),
 * where bool is built in, and this is the one header every port already includes in place of the samples' own,
 * so their sources need no change for it.
 */
#ifndef STREAMSIM_CUDA_SAMPLES_HELPERS_H
#define STREAMSIM_CUDA_SAMPLES_HELPERS_H

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include <cuda_runtime.h>

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

static inline void streamsim_sample_check(cudaError_t result, const char *func, const char *file, int line) {
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)result,
                cudaGetErrorName(result), func);
        exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) streamsim_sample_check((val), #val, __FILE__, __LINE__)

/* Cores per multiprocessor by compute capability (helper_cuda.h's table). */
static inline int _ConvertSMVer2Cores(int major, int minor) {
    static const int table[][2] = {{0x30, 192}, {0x32, 192}, {0x35, 192}, {0x37, 192}, {0x50, 128},
                                   {0x52, 128}, {0x53, 128}, {0x60, 64},  {0x61, 128}, {0x62, 128},
                                   {0x70, 64},  {0x72, 64},  {0x75, 64},  {0x80, 64},  {0x86, 128},
                                   {0x87, 128}, {0x89, 128}, {0x90, 128}};
    const int n = (int)(sizeof table / sizeof table[0]);
    for (int i = 0; i < n; i++) {
        if (table[i][0] == ((major << 4) + minor)) {
            return table[i][1];
        }
    }
    /* As the original: unknown versions default to the last known one. */
    printf("MapSMtoCores for SM %d.%d is undefined.  Default to use %d Cores/SM\n", major, minor, table[n - 1][1]);
    return table[n - 1][1];
}

static inline const char *_ConvertSMVer2ArchName(int major, int minor) {
    static const struct {
        int sm;
        const char *name;
    } table[] = {{0x30, "Kepler"}, {0x32, "Kepler"}, {0x35, "Kepler"}, {0x37, "Kepler"}, {0x50, "Maxwell"},
                 {0x52, "Maxwell"}, {0x53, "Maxwell"}, {0x60, "Pascal"}, {0x61, "Pascal"}, {0x62, "Pascal"},
                 {0x70, "Volta"},  {0x72, "Xavier"},  {0x75, "Turing"}, {0x80, "Ampere"}, {0x86, "Ampere"},
                 {0x87, "Ampere"}, {0x89, "Ada"},     {0x90, "Hopper"}};
    const int n = (int)(sizeof table / sizeof table[0]);
    for (int i = 0; i < n; i++) {
        if (table[i].sm == ((major << 4) + minor)) {
            return table[i].name;
        }
    }
    return table[n - 1].name;
}

/* `--name` or `--name=value` (or with one dash) among the arguments. */
static inline const char *streamsim_sample_arg(int argc, const char **argv, const char *name) {
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        while (*a == '-') {
            a++;
        }
        if (strncmp(a, name, len) == 0 && (a[len] == '\0' || a[len] == '=')) {
            return a + len;
        }
    }
    return NULL;
}

static inline int checkCmdLineFlag(int argc, const char **argv, const char *name) {
    return streamsim_sample_arg(argc, argv, name) != NULL;
}

/* The value of `--name=value`; 0 if absent, as helper_string.h. */
static inline int getCmdLineArgumentInt(int argc, const char **argv, const char *name) {
    char bare[64];
    size_t len = strlen(name);
    if (len >= sizeof bare) {
        return 0;
    }
    memcpy(bare, name, len + 1);
    if (len > 0 && bare[len - 1] == '=') {
        bare[len - 1] = '\0';
    }
    const char *v = streamsim_sample_arg(argc, argv, bare);
    return (v != NULL && *v == '=') ? atoi(v + 1) : 0;
}

/* gpuGetMaxGflopsDeviceId: the device with the most SMs × cores per SM × clock rate, skipping prohibited
 * devices (the first of equals). */
static inline int gpuGetMaxGflopsDeviceId(void) {
    int count = 0, best = 0;
    unsigned long long best_perf = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; d++) {
        int mode = 0, major = 0, minor = 0, sms = 0, clock = 0;
        checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
        if (mode == cudaComputeModeProhibited) {
            continue;
        }
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        checkCudaErrors(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d));
        unsigned long long perf =
            (unsigned long long)sms * (unsigned long long)_ConvertSMVer2Cores(major, minor) * (unsigned long long)clock;
        if (perf > best_perf) {
            best_perf = perf;
            best = d;
        }
    }
    return best;
}

static inline int findCudaDevice(int argc, const char **argv) {
    int dev = 0;
    if (checkCmdLineFlag(argc, argv, "device")) {
        dev = getCmdLineArgumentInt(argc, argv, "device=");
        if (dev < 0) {
            printf("Invalid command line parameter\n ");
            exit(EXIT_FAILURE);
        }
        checkCudaErrors(cudaSetDevice(dev));
    } else {
        dev = gpuGetMaxGflopsDeviceId();
        checkCudaErrors(cudaSetDevice(dev));
    }
    int major = 0, minor = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", dev, _ConvertSMVer2ArchName(major, minor),
           major, minor);
    return dev;
}

/* The sdk stopwatch: wall-clock milliseconds. */
typedef struct StopWatchInterface {
    struct timespec start;
    double total_ms;
    int running;
} StopWatchInterface;

static inline double streamsim_sample_ms(const struct timespec *a, const struct timespec *b) {
    return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static inline int sdkCreateTimer(StopWatchInterface **t) {
    *t = (StopWatchInterface *)calloc(1, sizeof(StopWatchInterface));
    return *t != NULL;
}
static inline int sdkResetTimer(StopWatchInterface **t) {
    (*t)->total_ms = 0;
    (*t)->running = 0;
    return 1;
}
static inline int sdkStartTimer(StopWatchInterface **t) {
    timespec_get(&(*t)->start, TIME_UTC);
    (*t)->running = 1;
    return 1;
}
static inline int sdkStopTimer(StopWatchInterface **t) {
    struct timespec now;
    timespec_get(&now, TIME_UTC);
    (*t)->total_ms += streamsim_sample_ms(&(*t)->start, &now);
    (*t)->running = 0;
    return 1;
}
static inline float sdkGetTimerValue(StopWatchInterface **t) {
    return (float)(*t)->total_ms;
}
static inline int sdkDeleteTimer(StopWatchInterface **t) {
    free(*t);
    *t = NULL;
    return 1;
}

#endif /* STREAMSIM_CUDA_SAMPLES_HELPERS_H */
