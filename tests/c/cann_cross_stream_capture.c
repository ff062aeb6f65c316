/*
 * cann_cross_stream_capture.c — the cross-stream capture example of the CANN runtime's developer guide,
 * docs/zh/dev_guide/04-02_cross_stream_capture.md ("跨流捕获", github.com/hicann/runtime, commit
 * 681ef7610df13c8128982901142a2c869ddbb53e), ported to streamsim.
 *
 * Every runtime call of the example is kept, in its order: events made with aclrtCreateEventExWithFlag(…,
 * ACL_EVENT_SYNC) (the guide: capture needs them), a GLOBAL capture on stream1 of the H2D copy of self, the
 * synchronous copy of other run directly in RELAXED mode, a fork to stream2 through event1, aclnnAdd (out = self +
 * other * alpha) on stream2, the join back through event2 and the D2H copy of out into self_h; the model is
 * executed 8 times, each execution synchronized and self_h printed: each execution adds other * alpha to the
 * values of the previous one. Changes, all marked STREAMSIM:
 *   - the aclTensor / aclScalar objects and aclnnAddGetWorkspaceSize (workspace size 0) are replaced by the
 *     stand-ins of tests/c/cann_aclnn_standins.h; aclnnAdd becomes aclnn_launch; aclDestroyTensor /
 *     aclDestroyScalar are left out with them; C arrays for std::vector, C casts for static_cast;
 *   - the example ignores every returned code; here each is checked with CHECK_ERROR (cann_sample.h), so a refusal
 *     fails the program;
 *   - ACL_LOG's format ends with "\n" and the macro adds another, as the guide's: the blank lines are kept.
 */
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "cann_aclnn_standins.h" /* STREAMSIM: for aclnnop/aclnn_add.h */
#include "cann_sample.h"         /* STREAMSIM: CHECK_ERROR */

#define ACL_LOG(...) (fprintf(stdout, "[INFO]  "), fprintf(stdout, __VA_ARGS__), fprintf(stdout, "\n"))

static int64_t GetShapeSize(const int64_t *shape, size_t dims)
{
    int64_t shape_size = 1;
    for (size_t i = 0; i < dims; i++) {
        shape_size *= shape[i];
    }
    return shape_size;
}

/* STREAMSIM: CreateAclTensor's device allocation (the aclTensor is not simulated). */
static int CreateAclTensor(const int64_t *shape, size_t dims, void **deviceAddr)
{
    size_t size = (size_t)GetShapeSize(shape, dims) * sizeof(float);
    // 申请Device侧内存
    aclError ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    return ret == ACL_SUCCESS ? 0 : -1;
}

int main(void)
{
    int32_t devID = 0;
    void *self_d = NULL;
    void *other_d = NULL;
    void *out_d = NULL;
    /* aclnnAdd: out = self  +  other * alpha */
    float *self_h = NULL;
    float *other_h = NULL;
    const int64_t shape[2] = {4, 2};
    float alphaValue = 1.1f;
    uint64_t workspaceSize = 0;
    size_t size = (size_t)GetShapeSize(shape, 2);

    // 初始化
    CHECK_ERROR(aclInit(NULL));
    // 指定计算设备
    CHECK_ERROR(aclrtSetDevice(devID));

    // 准备aclnnAdd算子的输入、输出参数
    CreateAclTensor(shape, 2, &self_d);
    CreateAclTensor(shape, 2, &other_d);
    CreateAclTensor(shape, 2, &out_d);

    // 获取算子计算所需的workspace大小以及包含了算子计算流程的执行器
    /* STREAMSIM: aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor); */
    aclnn_op executor = {0, (const float *)self_d, (const float *)other_d, (float *)out_d, size, alphaValue};
    void *workspaceAddr = NULL;
    if (workspaceSize > 0) {
        CHECK_ERROR(aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    }

    // 使用aclrtMallocHost申请锁页内存
    CHECK_ERROR(aclrtMallocHost((void **)&self_h, size * sizeof(float)));
    CHECK_ERROR(aclrtMallocHost((void **)&other_h, size * sizeof(float)));
    for (int i = 0; i < 8; i++) {
        self_h[i] = (float)0;
        other_h[i] = (float)1;
    }

    aclmdlRI modelRI;
    aclrtStream stream1, stream2;
    aclrtEvent event1, event2;
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    // 捕获场景下需通过aclrtCreateEventExWithFlag接口创建带ACL_EVENT_SYNC标记的Event
    CHECK_ERROR(aclrtCreateEventExWithFlag(&event1, ACL_EVENT_SYNC));
    CHECK_ERROR(aclrtCreateEventExWithFlag(&event2, ACL_EVENT_SYNC));

    // ========开始捕获任务========
    CHECK_ERROR(aclmdlRICaptureBegin(stream1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    // 异步拷贝，将算子self输入的数据从Host侧传到Device侧
    CHECK_ERROR(aclrtMemcpyAsync(self_d, size * sizeof(float), self_h, size * sizeof(float),
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream1));
    // 切换捕获模式为RELAXED，允许调用aclrtMemcpy函数
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode));
    // 同步拷贝，将算子other输入的数据从Host侧传到Device侧，仅执行一次
    CHECK_ERROR(aclrtMemcpy(other_d, size * sizeof(float), other_h, size * sizeof(float),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    // 将捕获模式切换回GLOBAL
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode));
    // 通过event1，将stream2加入捕获状态
    CHECK_ERROR(aclrtRecordEvent(event1, stream1));
    CHECK_ERROR(aclrtStreamWaitEvent(stream2, event1));
    // 执行aclnnAdd算子
    CHECK_ERROR(aclnn_launch(&executor, stream2)); /* STREAMSIM: aclnnAdd(workspaceAddr, …, stream2); */
    // stream2上的任务执行完成后，通过event2，让stream2返回主流stream1
    CHECK_ERROR(aclrtRecordEvent(event2, stream2));
    CHECK_ERROR(aclrtStreamWaitEvent(stream1, event2));
    // 异步拷贝，将算子输出数据从Device侧传回Host侧
    CHECK_ERROR(aclrtMemcpyAsync(self_h, size * sizeof(float), out_d, size * sizeof(float),
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream1));
    // ========结束捕获任务========
    CHECK_ERROR(aclmdlRICaptureEnd(stream1, &modelRI));

    // 多次执行模型
    for (int i = 0; i < 8; i++) {
        CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, stream1));
        CHECK_ERROR(aclrtSynchronizeStream(stream1));
        // 打印每一次的算子输出数据
        ACL_LOG("%f %f %f %f %f %f %f %f\n", self_h[0], self_h[1], self_h[2], self_h[3], self_h[4], self_h[5],
                self_h[6], self_h[7]);
    }

    // 释放资源
    CHECK_ERROR(aclmdlRIDestroy(modelRI));
    CHECK_ERROR(aclrtDestroyStream(stream1));
    CHECK_ERROR(aclrtDestroyStream(stream2));
    CHECK_ERROR(aclrtDestroyEvent(event1));
    CHECK_ERROR(aclrtDestroyEvent(event2));
    /* STREAMSIM: aclDestroyTensor ×3 and aclDestroyScalar are left out (no tensors). */
    CHECK_ERROR(aclrtFree(self_d));
    CHECK_ERROR(aclrtFree(other_d));
    CHECK_ERROR(aclrtFree(out_d));
    if (workspaceAddr != NULL) {
        CHECK_ERROR(aclrtFree(workspaceAddr));
    }
    // 释放计算设备的资源
    CHECK_ERROR(aclrtResetDevice(devID));
    // 去初始化
    CHECK_ERROR(aclFinalize());
    return 0;
}
