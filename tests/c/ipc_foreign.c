/*
 * IPC handles that come from an OS process no longer attached to the shared host (an earlier run), or from
 * another shared host (another STREAMSIM_MACHINE). A handle of a live process of the same shared host opens
 * (tests/c/os_*.c); these must fail to open with the vendor's IPC error (CUDA/MUSA cudaErrorInvalidValue, ACL
 * ACL_ERROR_RT_IPC_ERROR) and a message saying why, which contains MESSAGE.
 *
 *   ipc_foreign export PREFIX            exports a CUDA and an ACL IPC event; writes their handles' bytes to
 *                                        PREFIX.cuda and PREFIX.acl
 *   ipc_foreign open PREFIX MESSAGE      (another OS process, after the first has exited) opens them: both
 *                                        must fail
 *   ipc_foreign export-then-open PREFIX MESSAGE  (another OS process) first exports its own events exactly as `export`
 *                                        did, then opens the files' handles from a second simulated process:
 *                                        they must still fail, since they come from an earlier run
 */
#include <cuda_runtime.h>
#include "acl/acl.h"

#include "check.h"

static const char *FOREIGN = "";

static void write_bytes(const char *prefix, const char *suffix, const void *bytes, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", prefix, suffix);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(bytes, 1, n, f) == n);
    CHECK(fclose(f) == 0);
}

static void read_bytes(const char *prefix, const char *suffix, void *bytes, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", prefix, suffix);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    CHECK(fread(bytes, 1, n, f) == n);
    CHECK(fclose(f) == 0);
}

/* Exports one IPC event through each facade (in the default processes). */
static void export_events(cudaIpcEventHandle_t *cuda, aclrtIpcEventHandle *acl) {
    cudaEvent_t ce;
    EXPECT(cudaEventCreateWithFlags(&ce, cudaEventDisableTiming | cudaEventInterprocess), cudaSuccess);
    EXPECT(cudaIpcGetEventHandle(cuda, ce), cudaSuccess);
    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtEvent ae;
    EXPECT(aclrtCreateEventWithFlag(&ae, ACL_EVENT_IPC), ACL_SUCCESS);
    EXPECT(aclrtIpcGetEventHandle(ae, acl), ACL_SUCCESS);
}

/* Opens the files' handles through each facade: both must fail as foreign. */
static void open_foreign(const char *prefix) {
    cudaIpcEventHandle_t ch;
    aclrtIpcEventHandle ah;
    read_bytes(prefix, "cuda", &ch, sizeof ch);
    read_bytes(prefix, "acl", &ah, sizeof ah);

    cudaEvent_t ce = NULL;
    EXPECT(cudaIpcOpenEventHandle(&ce, ch), cudaErrorInvalidValue);
    CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), FOREIGN);

    EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtEvent ae = NULL;
    EXPECT(aclrtIpcOpenEventHandle(ah, &ae), ACL_ERROR_RT_IPC_ERROR);
    CHECK_CONTAINS(aclGetRecentErrMsg(), FOREIGN);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s export|open|export-then-open PREFIX [MESSAGE]\n", argv[0]);
        return 2;
    }
    if (argc > 3) {
        FOREIGN = argv[3];
    }
    const char *mode = argv[1], *prefix = argv[2];
    if (strcmp(mode, "export") == 0) {
        cudaIpcEventHandle_t ch;
        aclrtIpcEventHandle ah;
        export_events(&ch, &ah);
        write_bytes(prefix, "cuda", &ch, sizeof ch);
        write_bytes(prefix, "acl", &ah, sizeof ah);
        printf("exported\n");
    } else if (strcmp(mode, "open") == 0) {
        open_foreign(prefix);
        printf("foreign handles refused\n");
    } else if (strcmp(mode, "export-then-open") == 0) {
        cudaIpcEventHandle_t ch;
        aclrtIpcEventHandle ah;
        export_events(&ch, &ah);
        /* Open from a second simulated process of each default machine (not the exporter). */
        streamsimProcess cuda_a, acl_a, cuda_b, acl_b;
        streamsimMachine cuda_m, acl_m;
        EXPECT(streamsimDefaultProcess(&cuda_a, STREAMSIM_API_CUDA), STREAMSIM_SUCCESS);
        EXPECT(streamsimDefaultProcess(&acl_a, STREAMSIM_API_ACL), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessGetMachine(cuda_a, &cuda_m), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessGetMachine(acl_a, &acl_m), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessCreate(&cuda_b, cuda_m), STREAMSIM_SUCCESS);
        EXPECT(streamsimProcessCreate(&acl_b, acl_m), STREAMSIM_SUCCESS);
        EXPECT(streamsimBind(cuda_b), STREAMSIM_SUCCESS);
        cudaIpcEventHandle_t foreign;
        read_bytes(prefix, "cuda", &foreign, sizeof foreign);
        if (memcmp(&foreign, &ch, sizeof ch) == 0) {
            fprintf(stderr, "note: the foreign CUDA handle's bytes equal this OS process's own export\n");
        }
        cudaEvent_t ce = NULL;
        EXPECT(cudaIpcOpenEventHandle(&ce, foreign), cudaErrorInvalidValue);
        CHECK_CONTAINS(streamsimGetLastErrorMessage(STREAMSIM_API_CUDA), FOREIGN);
        EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
        EXPECT(streamsimBind(acl_b), STREAMSIM_SUCCESS);
        aclrtIpcEventHandle afor;
        read_bytes(prefix, "acl", &afor, sizeof afor);
        EXPECT(aclrtSetDevice(0), ACL_SUCCESS);
        aclrtEvent ae = NULL;
        EXPECT(aclrtIpcOpenEventHandle(afor, &ae), ACL_ERROR_RT_IPC_ERROR);
        CHECK_CONTAINS(aclGetRecentErrMsg(), FOREIGN);
        EXPECT(streamsimUnbind(), STREAMSIM_SUCCESS);
        printf("foreign handles refused after exporting identical ones\n");
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
