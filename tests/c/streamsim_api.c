/*
 * The streamsim-specific C calls: machines, processes, bindings (nested, per thread, of another dialect), the
 * default machine from STREAMSIM_DEVICES / STREAMSIM_SEED, error strings and messages, and the fallible kernel
 * stand-ins with CUDA and MUSA codes.
 *
 *   streamsim_api          run with STREAMSIM_DEVICES=3
 *   streamsim_api bad-env  run with a STREAMSIM_DEVICES that is not a number
 */
#include <cuda_runtime.h>
#include <musa_runtime.h>
#include "acl/acl.h"

#include "check.h"

static int device_count(void) {
    int n = -1;
    EXPECT(cudaGetDeviceCount(&n), cudaSuccess);
    return n;
}

static void error_strings(void) {
    const streamsimError codes[] = {STREAMSIM_SUCCESS, STREAMSIM_ERROR_INVALID_VALUE, STREAMSIM_ERROR_INVALID_HANDLE,
                                    STREAMSIM_ERROR_NOT_BOUND, STREAMSIM_ERROR_CONFIG, STREAMSIM_ERROR_NOT_PERMITTED,
                                    STREAMSIM_ERROR_INTERNAL};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = streamsimGetErrorString(codes[i]);
        CHECK(s != NULL && strlen(s) > 0 && strstr(s, "unrecognized") == NULL);
    }
    CHECK_CONTAINS(streamsimGetErrorString((streamsimError)12345), "unrecognized");
    CHECK_CONTAINS(streamsimGetErrorString(STREAMSIM_ERROR_INVALID_HANDLE), "handle");
}

static void machines_and_bindings(void) {
    streamsimMachine m2, m3, bad;
    EXPECT(streamsimMachineCreate(&bad, (streamsimDialect)7, 1, 0), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineCreate(&bad, STREAMSIM_DIALECT_CUDA, 1025, 0), STREAMSIM_ERROR_INVALID_VALUE);
    EXPECT(streamsimMachineCreate(&m2, STREAMSIM_DIALECT_CUDA, 2, 1), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineCreate(&m3, STREAMSIM_DIALECT_CUDA, 5, 2), STREAMSIM_SUCCESS);
    uint32_t n = 0;
    EXPECT(streamsimMachineGetDeviceCount(m3, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, 5);
    streamsimProcess p2, p3;
    EXPECT(streamsimProcessCreate(&p2, m2), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p3, m3), STREAMSIM_SUCCESS);

    /* Unbound: the default machine, STREAMSIM_DEVICES=3. */
    CHECK_EQ(device_count(), 3);
    EXPECT(streamsimBind(p2), STREAMSIM_SUCCESS);
    CHECK_EQ(device_count(), 2);
    EXPECT(streamsimBind(p3), STREAMSIM_SUCCESS); /* nested */
    CHECK_EQ(device_count(), 5);
    int musa_n = 0;
    EXPECT(musaGetDeviceCount(&musa_n), musaSuccess); /* musa* calls are routed the same way */
    CHECK_EQ(musa_n, 5);
    streamsimProcess current, dflt;
    uint32_t id = 99;
    EXPECT(streamsimCurrentProcess(&current, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
    streamsimMachine current_m;
    EXPECT(streamsimProcessGetMachine(current, &current_m), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineGetDeviceCount(current_m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, 5);
    /* The default process, whatever this thread has bound. */
    EXPECT(streamsimDefaultProcess(&dflt, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessGetId(dflt, &id), STREAMSIM_SUCCESS);
    CHECK_EQ(id, 0);
    streamsimMachine dflt_m;
    EXPECT(streamsimProcessGetMachine(dflt, &dflt_m), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineGetDeviceCount(dflt_m, &n), STREAMSIM_SUCCESS);
    CHECK_EQ(n, 3);
    /* ACL calls on a thread bound to a CUDA-dialect process are refused. */
    EXPECT(aclrtSetDevice(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_ACL), "dialect");

    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    CHECK_EQ(device_count(), 2);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    CHECK_EQ(device_count(), 3);
    EXPECT(streamsimUnbind(), STREAMSIM_ERROR_NOT_BOUND);

    /* A binding outlives the handle it was made with; a machine outlives its handle while processes live. */
    EXPECT(streamsimBind(p2), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(p2), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m2), STREAMSIM_SUCCESS);
    CHECK_EQ(device_count(), 2);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    EXPECT(cudasimLaunchKernel(s, "k", 1000, NULL, NULL), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);

    /* A machine with no devices. */
    streamsimMachine m0;
    streamsimProcess p0;
    EXPECT(streamsimMachineCreate(&m0, STREAMSIM_DIALECT_CUDA, 0, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p0, m0), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(p0), STREAMSIM_SUCCESS);
    int zero = -1;
    EXPECT(cudaGetDeviceCount(&zero), cudaErrorNoDevice);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);

    EXPECT(streamsimProcessDestroy(p0), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(current), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(dflt), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(current_m), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(dflt_m), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(p3), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m3), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m3), STREAMSIM_ERROR_INVALID_HANDLE);
}

static int fault_with(void *arg) {
    return *(int *)arg;
}

/* What a kernel body saw when it called the runtime. */
static int inside_query = -1, inside_bind = -1;

static void calls_the_runtime(void *arg) {
    inside_query = (int)cudaStreamQuery((cudaStream_t)arg);
    inside_bind = (int)streamsimBind(NULL);
}

static void fallible_kernels(void) {
    streamsimMachine m;
    streamsimProcess p;
    EXPECT(streamsimMachineCreate(&m, STREAMSIM_DIALECT_CUDA, 1, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(p), STREAMSIM_SUCCESS);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);

    int none = STREAMSIM_FAULT_NONE, fail = STREAMSIM_FAULT_LAUNCH_FAILURE, illegal = STREAMSIM_FAULT_ILLEGAL_ADDRESS;
    int other = 42;
    EXPECT(cudasimLaunchFallibleKernel(s, "fine", 1000, fault_with, &none), cudaSuccess);
    EXPECT(cudasimLaunchFallibleKernel(s, "no body", 1000, NULL, NULL), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);

    /* A body that calls the runtime gets NotPermitted (800) and STREAMSIM_ERROR_NOT_PERMITTED. */
    EXPECT(cudasimLaunchKernel(s, "calls the runtime", 1000, calls_the_runtime, (void *)s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    CHECK_EQ(inside_query, cudaErrorNotPermitted);
    CHECK_EQ(inside_bind, STREAMSIM_ERROR_NOT_PERMITTED);

    EXPECT(cudasimLaunchFallibleKernel(s, "failing", 1000, fault_with, &fail), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaErrorLaunchFailure);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "failing");
    EXPECT(cudaDeviceSynchronize(), cudaErrorLaunchFailure); /* sticky */
    EXPECT(cudaStreamQuery(s), cudaErrorLaunchFailure);
    EXPECT(cudaDeviceReset(), cudaSuccess);

    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    EXPECT(cudasimLaunchFallibleKernel(s, "out of bounds", 1000, fault_with, &illegal), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaErrorIllegalAddress);
    EXPECT(cudaDeviceReset(), cudaSuccess);

    /* MUSA: the same codes with musa names; any other non-zero result is a launch failure. */
    musaStream_t ms;
    EXPECT(musaStreamCreate(&ms), musaSuccess);
    EXPECT(musasimLaunchFallibleKernel(ms, "failing", 1000, fault_with, &other), musaSuccess);
    EXPECT(musaStreamSynchronize(ms), musaErrorLaunchFailure);
    EXPECT(musaDeviceReset(), musaSuccess);
    EXPECT(musaStreamCreate(&ms), musaSuccess);
    EXPECT(musasimLaunchFallibleKernel(ms, "out of bounds", 1000, fault_with, &illegal), musaSuccess);
    EXPECT(musaStreamSynchronize(ms), musaErrorIllegalAddress);
    EXPECT(musaDeviceReset(), musaSuccess);

    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(p), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
}

/* STREAMSIM_DEVICES is not a number: the default machines cannot be built, and say why; explicit machines
 * still work. */
static void bad_environment(void) {
    int n;
    EXPECT(cudaGetDeviceCount(&n), cudaErrorNoDevice);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), "STREAMSIM_DEVICES");
    EXPECT(musaSetDevice(0), musaErrorNoDevice);
    EXPECT(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    CHECK_CONTAINS(aclGetRecentErrMsg(), "STREAMSIM_DEVICES");
    streamsimProcess p;
    EXPECT(streamsimDefaultProcess(&p, STREAMSIM_API_CUDA), STREAMSIM_ERROR_CONFIG);
    EXPECT(streamsimDefaultProcess(&p, STREAMSIM_API_ACL), STREAMSIM_ERROR_CONFIG);
    EXPECT(streamsimCurrentProcess(&p, STREAMSIM_API_MUSA), STREAMSIM_ERROR_CONFIG);

    streamsimMachine m;
    EXPECT(streamsimMachineCreate(&m, STREAMSIM_DIALECT_ACL, 1, 0), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessCreate(&p, m), STREAMSIM_SUCCESS);
    EXPECT(streamsimBind(p), STREAMSIM_SUCCESS);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream s;
    EXPECT(aclrtCreateStream(&s), ACL_SUCCESS);
    EXPECT(aclsimLaunchKernel(s, "k", 1000, NULL, NULL), ACL_SUCCESS);
    EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
    EXPECT(streamsimProcessDestroy(p), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "bad-env") == 0) {
        bad_environment();
        printf("bad environment: ok\n");
        return 0;
    }
    error_strings();
    machines_and_bindings();
    fallible_kernels();
    printf("streamsim calls: ok\n");
    return 0;
}
