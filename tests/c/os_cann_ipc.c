/*
 * The CANN runtime's IPC samples as real OS processes that pass handles and keys through files, ported from
 * github.com/hicann/runtime (commit 681ef7610):
 *  1. example/2_advanced_features/ipcevent/0_ipcevent (proc_a.cpp, proc_b.cpp): A creates an ACL_EVENT_IPC
 *     event, records and synchronizes it, checks its status, writes the handle to event_handle.bin and waits
 *     for consumer_done.flag; B reads the handle, opens the event, makes its stream wait on it, synchronizes,
 *     records the event itself, synchronizes it, checks its status and writes the flag.
 *       os_cann_ipc event-a DIR | event-b DIR
 *  2. example/1_basic_features/memory/10_ipc_memory_withpid (proc_a.cpp, proc_b.cpp, file_ops.cpp): A writes
 *     123 into device memory with a kernel, exports it (aclrtIpcMemGetExportKey, pid validation on), reads B's
 *     pid from file/pid.bin (B got it with aclrtDeviceGetBareTgid), puts it on the allow list
 *     (aclrtIpcMemSetImportPid), writes the key to file/memName.bin, waits for file/flag.bin and closes the
 *     key (aclrtIpcMemClose); B imports the key (aclrtIpcMemImportByKey), reads the value with a kernel,
 *     writes the flag and closes the key. run.sh checks that B's "Destination data" equals A's "Source data".
 *       os_cann_ipc mem-a DIR [sync] | mem-b DIR
 * Kept: every runtime call of the samples, in order, with their checks (CHECK_ERROR is EXPECT(…, ACL_SUCCESS);
 * INFO_LOG / ERROR_LOG are printf), the files and their "done" files (file_ops.cpp's WriteFile / ReadFile),
 * run.sh's comparison (here: the test compares the two printed values).
 * Changed, and why:
 *  - The files live in DIR (the samples: "./" and "file/"), so parallel test runs do not meet.
 *  - The polling loops sleep 10 ms per try (sleep(1) and usleep(1000000) in the samples), with the samples'
 *    budgets (30 tries of 1 s for part 1 become 3000 of 10 ms); B's "simulate some work" usleep(2000000) is
 *    dropped: it only makes the run slower.
 *  - WriteDo / ReadDo (kernel_func/write_read_value.cpp: DeviceWrite sets devPtr[block_idx], DeviceRead reads
 *    it, both AscendC::printf the value) are aclsimLaunchKernelCtx bodies doing the same for blockDim 1,
 *    declaring what they write or read.
 *  - Added, "not in the sample": B synchronizes its stream after ReadDo (the sample destroys the stream with
 *    aclrtDestroyStreamForce right after the launch, so nothing says the read ran; the port must see its
 *    value); and with `sync`, A synchronizes its stream after WriteDo. Without it — the sample as written —
 *    nothing orders A's write before B's read: the CANN docs give no such order (an IPC event is the way), so
 *    streamsim's race detector reports the pair in B, naming both OS processes (the test checks it), and the
 *    value B reads is 123 only because A's kernel happened to run first. With `sync`, the bytes B reads are
 *    A's 123, really shared (the test compares the values), and nothing is reported.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include <streamsim.h>

#include "check.h"

#define CHECK_ERROR(call) EXPECT(call, ACL_SUCCESS)
#define INFO_LOG(...) (printf("[INFO]  " __VA_ARGS__), printf("\n"), fflush(stdout))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"), fflush(stdout))
#define WARN_LOG(...) ((void)0)

static char dir[3000];

static const char *in_dir(char *out, size_t n, const char *name) {
    snprintf(out, n, "%s/%s", dir, name);
    return out;
}

/* ------------------------------------------------------------------------- part 1: 0_ipcevent */

static int event_a(void) {
    char EVENT_HANDLE_FILE[3100], DONE_FILE[3100];
    in_dir(EVENT_HANDLE_FILE, sizeof EVENT_HANDLE_FILE, "event_handle.bin");
    in_dir(DONE_FILE, sizeof DONE_FILE, "consumer_done.flag");
    CHECK_ERROR(aclInit(NULL));

    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 创建支持IPC的事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Process A: IPC event created");

    // 2. 记录事件（模拟生产者自身任务完成）
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process A: event recorded and synchronized");

    // 3. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error: expected 1, got %d", status);
        return -1;
    }
    INFO_LOG("Process A: event status = %d (1=completed)", status);

    // 4. 导出IPC事件句柄（二进制写入文件）
    aclrtIpcEventHandle handle;
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    char tmp[3200];
    snprintf(tmp, sizeof tmp, "%s.tmp", EVENT_HANDLE_FILE); /* written whole, then renamed (not in the sample) */
    FILE *fp = fopen(tmp, "wb");
    if (!fp) {
        ERROR_LOG("Failed to create %s", EVENT_HANDLE_FILE);
        return -1;
    }
    fwrite(&handle, sizeof(handle), 1, fp);
    fclose(fp);
    CHECK(rename(tmp, EVENT_HANDLE_FILE) == 0);
    INFO_LOG("Process A: IPC event handle written to %s", EVENT_HANDLE_FILE);

    // 5. 等待消费者完成（等待标志文件出现）
    INFO_LOG("Process A: waiting for consumer to finish...");
    int timeout = 3000;
    while (access(DONE_FILE, F_OK) != 0 && timeout-- > 0) {
        usleep(10000);
    }
    if (timeout <= 0) {
        ERROR_LOG("Timeout waiting for consumer");
        return -1;
    }
    INFO_LOG("Process A: consumer finished");

    // 6. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    // 删除临时文件
    remove(EVENT_HANDLE_FILE);
    remove(DONE_FILE);

    INFO_LOG("Process A: cleanup completed");
    return 0;
}

static int event_b(void) {
    char EVENT_HANDLE_FILE[3100], DONE_FILE[3100];
    in_dir(EVENT_HANDLE_FILE, sizeof EVENT_HANDLE_FILE, "event_handle.bin");
    in_dir(DONE_FILE, sizeof DONE_FILE, "consumer_done.flag");
    CHECK_ERROR(aclInit(NULL));

    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));

    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    // 1. 等待生产者创建事件句柄文件
    INFO_LOG("Process B: waiting for event handle file...");
    int timeout = 3000;
    while (access(EVENT_HANDLE_FILE, F_OK) != 0 && timeout-- > 0) {
        usleep(10000);
    }
    if (timeout <= 0) {
        ERROR_LOG("Timeout waiting for %s", EVENT_HANDLE_FILE);
        return -1;
    }

    // 2. 二进制读取事件句柄
    aclrtIpcEventHandle handle;
    FILE *fp = fopen(EVENT_HANDLE_FILE, "rb");
    if (!fp) {
        ERROR_LOG("Failed to open %s", EVENT_HANDLE_FILE);
        return -1;
    }
    CHECK(fread(&handle, sizeof(handle), 1, fp) == 1); /* the sample ignores fread's result */
    fclose(fp);
    INFO_LOG("Process B: read event handle");

    // 3. 打开IPC事件
    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Process B: IPC event opened");

    // 4. 在流中等待该事件（等待生产者记录的事件）
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Process B: event received, stream synchronized");

    // 5. 模拟消费者自身的工作
    INFO_LOG("Process B: doing some work...");

    // 6. 记录事件，通知生产者
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process B: event recorded");

    // 7. 查询事件状态（应为已完成）
    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Process B: event status = %d (1=completed)", status);
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error");
        return -1;
    }

    // 8. 创建完成标志文件，通知生产者
    fp = fopen(DONE_FILE, "w");
    if (fp) {
        fprintf(fp, "done");
        fclose(fp);
    }
    INFO_LOG("Process B: completion flag created");

    // 9. 清理资源
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    INFO_LOG("Process B: cleanup completed");
    return 0;
}

/* ------------------------------------------------------------------ part 2: 10_ipc_memory_withpid */

/* file_ops.cpp */
static void WriteFile(const char *filePath, const char *doneFile, void *data, size_t size) {
    INFO_LOG("Start writing to %s", filePath);
    int fd = open(filePath, O_WRONLY | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    if (fd == -1) {
        ERROR_LOG("Open file %s failed", filePath);
        return;
    }
    if (write(fd, data, size) != (ssize_t)size) {
        ERROR_LOG("Partial write");
        (void)close(fd);
        return;
    }
    (void)close(fd);
    // Create a file to indicate that data writing is complete
    int fdDone = open(doneFile, O_WRONLY | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    if (fdDone == -1) {
        ERROR_LOG("Open file %s failed", doneFile);
        return;
    }
    (void)close(fdDone);
}

static void ReadFile(const char *filePath, const char *doneFile, void *data, size_t bufferSize) {
    INFO_LOG("Start reading from %s", filePath);
    const uint32_t waitTime = 10000; /* the sample: 1000000 */
    int attempts = 0;
    const int attemptsMax = 6000; /* the sample: 1000000000 */
    // Wait for data writing to complete
    while (attempts < attemptsMax) {
        int fdDone = open(doneFile, O_RDONLY);
        if (fdDone != -1) {
            (void)close(fdDone);
            break;
        } else {
            attempts++;
            WARN_LOG("Data writing not yet complete");
            CHECK(attempts < attemptsMax);
            (void)usleep(waitTime);
        }
    }
    // Read data from the target file
    int fd = open(filePath, O_RDONLY);
    CHECK(fd != -1);
    struct stat fileStat;
    CHECK(fstat(fd, &fileStat) == 0);
    size_t fileSize = (size_t)fileStat.st_size;
    CHECK(fileSize <= bufferSize);
    CHECK(read(fd, data, fileSize) == (ssize_t)fileSize);
    INFO_LOG("Read data successfully");
    (void)close(fd);
}

typedef struct valueArgs {
    int *devPtr;
    int value;
} valueArgs;

/* DeviceWrite: devPtr[block_idx] = value; AscendC::printf("Source data: %d\n", value). */
static void DeviceWrite(streamsimKernelCtx *ctx, void *arg) {
    valueArgs *a = (valueArgs *)arg;
    if (streamsimKernelWrite(ctx, a->devPtr, &a->value, sizeof(int)) == STREAMSIM_SUCCESS) {
        printf("Source data: %d\n", a->value);
        fflush(stdout);
    }
}

/* DeviceRead: value = devPtr[block_idx]; AscendC::printf("Destination data: %d\n", value). */
static void DeviceRead(streamsimKernelCtx *ctx, void *arg) {
    valueArgs *a = (valueArgs *)arg;
    if (streamsimKernelRead(ctx, &a->value, a->devPtr, sizeof(int)) == STREAMSIM_SUCCESS) {
        printf("Destination data: %d\n", a->value);
        fflush(stdout);
    }
}

static valueArgs writeArgs, readArgs;

static void WriteDo(uint32_t blockDim, aclrtStream stream, int *devPtr, int value) {
    CHECK(blockDim == 1);
    writeArgs.devPtr = devPtr;
    writeArgs.value = value;
    streamsimAccess w = {devPtr, sizeof(int), STREAMSIM_ACCESS_WRITE};
    CHECK_ERROR(aclsimLaunchKernelCtx(stream, "DeviceWrite", 10000, DeviceWrite, &writeArgs, &w, 1));
}

static void ReadDo(uint32_t blockDim, aclrtStream stream, int *devPtr) {
    CHECK(blockDim == 1);
    readArgs.devPtr = devPtr;
    streamsimAccess r = {devPtr, sizeof(int), STREAMSIM_ACCESS_READ};
    CHECK_ERROR(aclsimLaunchKernelCtx(stream, "DeviceRead", 10000, DeviceRead, &readArgs, &r, 1));
}

static int mem_a(int sync) {
    char pidFile[3100], pidDone[3100], nameFile[3100], nameDone[3100], flagFile[3100], flagDone[3100];
    in_dir(pidFile, sizeof pidFile, "pid.bin");
    in_dir(pidDone, sizeof pidDone, "pid.bin.done");
    in_dir(nameFile, sizeof nameFile, "memName.bin");
    in_dir(nameDone, sizeof nameDone, "memName.bin.done");
    in_dir(flagFile, sizeof flagFile, "flag.bin");
    in_dir(flagDone, sizeof flagDone, "flag.bin.done");
    aclInit(NULL);
    int32_t deviceId = 0;
    aclrtSetDevice(deviceId);
    aclrtStream stream = NULL;
    aclrtCreateStream(&stream);

    // Allocate memory on the device
    uint64_t size = 1 * 1024 * 1024;
    int *devPtr;
    CHECK_ERROR(aclrtMalloc((void **)&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device %p successfully", (void *)devPtr);

    const uint32_t blockDim = 1;
    int writeValue = 123;
    WriteDo(blockDim, stream, devPtr, writeValue);
    INFO_LOG("Write data %d to the device address %p", writeValue, (void *)devPtr);
    if (sync) {
        CHECK_ERROR(aclrtSynchronizeStream(stream)); /* not in the sample: see the top of the file */
    }

    // Export the shareable memory identifier
    char memName[256] = "name";
    size_t lenName = 65;
    CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, memName, lenName, 0));
    INFO_LOG("Process A: get the shareable memory identifier %s successfully", memName);

    // Read Process B's pid from the file
    int32_t pid = 0;
    ReadFile(pidFile, pidDone, &pid, sizeof(pid));
    INFO_LOG("Process A: get Process B's pid successfully, Process B's pid = %d", pid);

    // Add Process B to the whitelist
    CHECK_ERROR(aclrtIpcMemSetImportPid(memName, &pid, 1));
    INFO_LOG("Process A: add Process B to the whitelist successfully");

    // Transfer the shareable memory identifier to Process B by writing it to the file
    WriteFile(nameFile, nameDone, memName, strlen(memName));

    // Read the completion flag from the file
    int32_t flag = 0;
    ReadFile(flagFile, flagDone, &flag, sizeof(flag));
    INFO_LOG("Process A: receive the completion signal from Process B, completion signal = %d", flag);

    // Release memory resources
    CHECK_ERROR(aclrtIpcMemClose(memName));

    aclrtDestroyStreamForce(stream);
    aclrtFree(devPtr);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

static int mem_b(void) {
    char pidFile[3100], pidDone[3100], nameFile[3100], nameDone[3100], flagFile[3100], flagDone[3100];
    in_dir(pidFile, sizeof pidFile, "pid.bin");
    in_dir(pidDone, sizeof pidDone, "pid.bin.done");
    in_dir(nameFile, sizeof nameFile, "memName.bin");
    in_dir(nameDone, sizeof nameDone, "memName.bin.done");
    in_dir(flagFile, sizeof flagFile, "flag.bin");
    in_dir(flagDone, sizeof flagDone, "flag.bin.done");
    aclInit(NULL);
    int32_t deviceId = 0;
    aclrtSetDevice(deviceId);
    aclrtStream stream = NULL;
    aclrtCreateStream(&stream);

    // Get Process B's pid
    int32_t pid = 0;
    CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
    INFO_LOG("Process B: get Process B's pid successfully");

    // Write Process B's pid to the file
    WriteFile(pidFile, pidDone, &pid, sizeof(pid));
    INFO_LOG("Process B: write Process B's pid to the file successfully, Process B's pid = %d", pid);

    // Get the shareable memory identifier from the file
    char memName[256] = "name";
    ReadFile(nameFile, nameDone, memName, sizeof(memName));
    INFO_LOG("Process B: get the shareable memory identifier successfully, shareable identifier = %s", memName);

    // Return a device memory pointer accessible to Process B
    void *devPtr = NULL;
    CHECK_ERROR(aclrtIpcMemImportByKey(&devPtr, memName, 0));

    const uint32_t blockDim = 1;
    ReadDo(blockDim, stream, (int *)devPtr);
    CHECK_ERROR(aclrtSynchronizeStream(stream)); /* not in the sample: see the top of the file */

    // Write the completion flag to the file
    int32_t flag = 1;
    WriteFile(flagFile, flagDone, &flag, sizeof(flag));
    INFO_LOG("Process B: complete ipc memory sharing");

    // Release memory resources
    CHECK_ERROR(aclrtIpcMemClose(memName));

    aclrtDestroyStreamForce(stream);
    aclrtFree(devPtr);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s event-a|event-b|mem-a|mem-b DIR [sync]\n", argv[0]);
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[2]);
    if (strcmp(argv[1], "event-a") == 0) {
        return event_a();
    } else if (strcmp(argv[1], "event-b") == 0) {
        return event_b();
    } else if (strcmp(argv[1], "mem-a") == 0) {
        return mem_a(argc > 3 && strcmp(argv[3], "sync") == 0);
    } else if (strcmp(argv[1], "mem-b") == 0) {
        return mem_b();
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
