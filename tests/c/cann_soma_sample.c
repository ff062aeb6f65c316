/*
 * cann_soma_sample.c — the CANN runtime's example of stream-ordered memory allocation (hicann/runtime
 * docs/zh/api_ref/11-10_ordered_stream_memory_allocation.md, "示例代码"), made to compile and run: a pool of
 * 14 GB on device 0, four aclrtMemPoolMallocAsync on one stream (three uint64_t operands and the kernel's
 * ArgsInfo), the ArgsInfo copied to the device with aclrtMemcpyAsync, the kernel `add_custom` (here
 * aclsimLaunchKernelCtx, computing z = x + y from the ArgsInfo it reads on the device), four
 * aclrtMemPoolFreeAsync with no synchronize before them, one aclrtSynchronizeStream, then the pool, stream
 * and context destroyed. Additions, checked: the operands' values (copied in before the kernel, z copied out
 * before the frees), the pool's counters (each allocation takes 2 MiB: ACL rounds to 2 MiB; the release
 * threshold 0 gives the memory back at the synchronize), and no race or lifetime report.
 * Rows: docs/semantics/stream-ordered-memory.md · ACL.
 */
#include "acl/acl.h"

#include "check.h"

/* 定义算子信息结构体 (the operator's arguments, as in the example). */
typedef struct {
    void *input_x;
    void *input_y;
    void *output_z;
} ArgsInfo;

typedef struct AddCustom {
    const ArgsInfo *args; /* device memory */
    int code;
} AddCustom;

/* add_custom: reads its ArgsInfo from the device, then z = x + y. */
static void add_custom(streamsimKernelCtx *ctx, void *arg) {
    AddCustom *a = (AddCustom *)arg;
    ArgsInfo args;
    uint64_t x = 0, y = 0;
    a->code = streamsimKernelRead(ctx, &args, a->args, sizeof args);
    if (a->code == STREAMSIM_SUCCESS) {
        a->code = streamsimKernelRead(ctx, &x, args.input_x, sizeof x);
    }
    if (a->code == STREAMSIM_SUCCESS) {
        a->code = streamsimKernelRead(ctx, &y, args.input_y, sizeof y);
    }
    if (a->code == STREAMSIM_SUCCESS) {
        uint64_t z = x + y;
        a->code = streamsimKernelWrite(ctx, args.output_z, &z, sizeof z);
    }
}

static uint64_t attr(aclrtMemPool pool, aclrtMemPoolAttr which) {
    uint64_t v = 0;
    EXPECT(aclrtMemPoolGetAttr(pool, which, &v), ACL_SUCCESS);
    return v;
}

int main(void) {
    const uint64_t MiB = 1u << 20;
    uint32_t devid = 0;
    EXPECT(aclInit(NULL), ACL_SUCCESS);
    EXPECT(aclrtSetDevice(devid), ACL_SUCCESS);

    /* 创建Context和Stream */
    aclrtContext context;
    aclrtStream stream1;
    EXPECT(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&stream1), ACL_SUCCESS);

    /* 设置内存池属性 */
    aclrtMemLocation testLoc = {
        0,                           /* id */
        ACL_MEM_LOCATION_TYPE_DEVICE /* type */
    };
    aclrtMemPoolProps testProp;
    memset(&testProp, 0, sizeof testProp);
    testProp.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    testProp.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    testProp.location = testLoc;
    testProp.maxSize = 14ULL << 30; /* maxSize = 14GB, 内存池大小为14GB */

    /* 创建内存池 */
    aclrtMemPool testReusePool;
    aclError ret = aclrtMemPoolCreate(&testReusePool, &testProp);
    if (ret != ACL_SUCCESS) {
        fprintf(stderr, "Failed to create memory pool\n");
        return -1;
    }

    void *ptr0 = NULL;
    void *ptr1 = NULL;
    void *ptr2 = NULL;
    void *ptr3 = NULL;

    /* 异步申请内存 */
    EXPECT(aclrtMemPoolMallocAsync(&ptr1, sizeof(uint64_t), testReusePool, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolMallocAsync(&ptr2, sizeof(uint64_t), testReusePool, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolMallocAsync(&ptr3, sizeof(uint64_t), testReusePool, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolMallocAsync(&ptr0, sizeof(ArgsInfo), testReusePool, stream1), ACL_SUCCESS);
    CHECK(ptr0 != NULL && ptr1 != NULL && ptr2 != NULL && ptr3 != NULL);
    CHECK(ptr0 != ptr1 && ptr0 != ptr2 && ptr0 != ptr3 && ptr1 != ptr2 && ptr1 != ptr3 && ptr2 != ptr3);
    CHECK_EQ(attr(testReusePool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 4 * 2 * MiB);

    /* The operands (not in the example, which leaves them to the kernel's caller). */
    uint64_t x = 40, y = 2, z = 0;
    EXPECT(aclrtMemcpyAsync(ptr1, sizeof x, &x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(ptr2, sizeof y, &y, sizeof y, ACL_MEMCPY_HOST_TO_DEVICE, stream1), ACL_SUCCESS);

    /* 配置任务下发 */
    ArgsInfo usrArgs;
    usrArgs.input_x = ptr1;
    usrArgs.input_y = ptr2;
    usrArgs.output_z = ptr3;
    EXPECT(aclrtMemcpyAsync(ptr0, sizeof(ArgsInfo), (void *)&usrArgs, sizeof(ArgsInfo), ACL_MEMCPY_HOST_TO_DEVICE,
                            stream1),
           ACL_SUCCESS);

    /* 下发任务 */
    AddCustom k = {(const ArgsInfo *)ptr0, -1};
    streamsimAccess acc[] = {
        {ptr0, sizeof(ArgsInfo), STREAMSIM_ACCESS_READ},
        {ptr1, sizeof(uint64_t), STREAMSIM_ACCESS_READ},
        {ptr2, sizeof(uint64_t), STREAMSIM_ACCESS_READ},
        {ptr3, sizeof(uint64_t), STREAMSIM_ACCESS_WRITE},
    };
    EXPECT(aclsimLaunchKernelCtx(stream1, "add_custom", 20000, add_custom, &k, acc, 4), ACL_SUCCESS);
    EXPECT(aclrtMemcpyAsync(&z, sizeof z, ptr3, sizeof z, ACL_MEMCPY_DEVICE_TO_HOST, stream1), ACL_SUCCESS);

    /* 异步释放内存，此前无需进行流同步 */
    EXPECT(aclrtMemPoolFreeAsync(ptr0, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolFreeAsync(ptr1, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolFreeAsync(ptr2, stream1), ACL_SUCCESS);
    EXPECT(aclrtMemPoolFreeAsync(ptr3, stream1), ACL_SUCCESS);
    CHECK_EQ(attr(testReusePool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    CHECK_EQ(attr(testReusePool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) > 0, 1);

    /* 流同步 */
    EXPECT(aclrtSynchronizeStream(stream1), ACL_SUCCESS);
    CHECK_EQ(k.code, STREAMSIM_SUCCESS);
    CHECK_EQ(z, 42);
    CHECK_EQ(attr(testReusePool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
    CHECK_EQ(attr(testReusePool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 4 * 2 * MiB);

    /* 销毁内存池、Stream和Context */
    EXPECT(aclrtMemPoolDestroy(testReusePool), ACL_SUCCESS);
    EXPECT(aclrtDestroyStream(stream1), ACL_SUCCESS);
    EXPECT(aclrtDestroyContext(context), ACL_SUCCESS);

    EXPECT(aclrtResetDevice(devid), ACL_SUCCESS);
    EXPECT(aclFinalize(), ACL_SUCCESS);

    streamsimMachine m;
    size_t races = 99;
    EXPECT(streamsimDefaultMachine(&m, STREAMSIM_API_ACL), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineGetRaceCount(m, &races), STREAMSIM_SUCCESS);
    EXPECT(streamsimMachineDestroy(m), STREAMSIM_SUCCESS);
    CHECK_EQ(races, 0);
    printf("add_custom: %llu + %llu = %llu\n", (unsigned long long)x, (unsigned long long)y, (unsigned long long)z);
    return 0;
}
