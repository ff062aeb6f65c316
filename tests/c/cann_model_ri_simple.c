/*
 * cann_model_ri_simple.c — the CANN runtime's sample example/2_advanced_features/model_ri/0_simple_model/main.cpp
 * with example/2_advanced_features/model_ri/model_utils.cpp (github.com/hicann/runtime, commit
 * 681ef7610df13c8128982901142a2c869ddbb53e), ported to streamsim.
 *
 * Every runtime call and every check of the original is kept, in its order: a model capture in
 * ACL_MODEL_RI_CAPTURE_MODE_GLOBAL of an H2D copy and the two operators out = (self + other * alpha) * other,
 * with the synchronous aclrtMemcpy of `other` in between run directly after aclmdlRICaptureThreadExchangeMode
 * to RELAXED (and back); then the model executed 4 times, each execution synchronized and its output read back
 * and printed. Changes, all marked STREAMSIM:
 *   - utils.h is tests/c/cann_sample.h; model_utils.h / .cpp's GetShapeSize and PrintArray are inlined (C arrays
 *     for std::vector) and CreateAclTensor keeps its aclrtMalloc only;
 *   - the aclTensor / aclScalar objects and the operator library's aclnnAddGetWorkspaceSize /
 *     aclnnMulGetWorkspaceSize (workspace size 0) are replaced by the stand-ins of tests/c/cann_aclnn_standins.h;
 *     aclnnAdd / aclnnMul become aclnn_launch; aclDestroyTensor / aclDestroyScalar are left out with them;
 *   - aclmdlRIDebugJsonPrint (a JSON dump of the model for the logs) is not simulated and is left out.
 *
 * The original's licence: Copyright (c) 2025 Huawei Technologies Co., Ltd. This program is free software, you can
 * redistribute it and/or modify it under the terms and conditions of CANN Open Software License Agreement Version
 * 2.0 (the "License"). Please refer to the License for details. You may not use this file except in compliance with
 * the License. THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE. See
 * LICENSE in the root of the software repository for the full text of the License.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "cann_aclnn_standins.h" /* STREAMSIM: for aclnnop/aclnn_add.h and aclnnop/aclnn_mul.h */
#include "cann_sample.h"         /* STREAMSIM: for utils.h */

/* STREAMSIM: model_utils.cpp's GetShapeSize, for a C array. */
static int64_t GetShapeSize(const int64_t *shape, size_t dims)
{
    int64_t shapeSize = 1;
    for (size_t i = 0; i < dims; i++) {
        shapeSize *= shape[i];
    }
    return shapeSize;
}

/* STREAMSIM: model_utils.cpp's CreateAclTensor: its device allocation (the aclTensor is not simulated). */
static int CreateAclTensor(const int64_t *shape, size_t dims, void **deviceAddr)
{
    size_t size = (size_t)GetShapeSize(shape, dims) * sizeof(float);
    // 申请Device侧内存
    aclError ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    return ret == ACL_SUCCESS ? 0 : -1;
}

/* STREAMSIM: model_utils.cpp's PrintArray (std::fixed, std::setprecision(4), two spaces after each). */
static void PrintArray(const float *data, int size)
{
    char line[512];
    int  at = snprintf(line, sizeof line, "The vector data is: ");
    for (int j = 0; j < size && at < (int)sizeof line; j++) {
        at += snprintf(line + at, sizeof line - (size_t)at, "%.4f  ", data[j]);
    }
    INFO_LOG("%s", line);
}

// aclnnadd计算：out = self + other * alpha
// aclnnmul计算: out = self * other
// 做一个model来计算： out = (self + other * alpha) * other
int main(void)
{
    int32_t       deviceId          = 0;
    void         *selfDevice        = NULL;
    void         *otherDevice       = NULL;
    void         *outDevice         = NULL;
    void         *outTmpDevice      = NULL;
    void         *selfHost          = NULL;
    float         selfHostData[8]   = {1, 2, 3, 4, 5, 6, 7, 8};
    float         otherHostData[8]  = {2, 2, 2, 2, 2, 2, 2, 2};
    float         outHostData[8]    = {0, 0, 0, 0, 0, 0, 0, 0};
    const int64_t shape[2]          = {4, 2};
    float         alphaValue        = 1.1f;
    uint64_t      addWorkspaceSize  = 0;
    uint64_t      mulWorkspaceSize  = 0;
    aclrtContext  context;
    const int     loopCount         = 4;
    int64_t       size              = GetShapeSize(shape, 2) * (int64_t)sizeof(float);

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    // 创建tensor来执行aclnn算子，tensor与数据的device地址是绑定的
    CreateAclTensor(shape, 2, &selfDevice);
    CreateAclTensor(shape, 2, &otherDevice);
    CreateAclTensor(shape, 2, &outDevice);
    CreateAclTensor(shape, 2, &outTmpDevice);

    // 创建workspace来执行算子，不同算子的workspace可能不同，该处计算outTmp = self + other * alpha
    /* STREAMSIM: aclnnAddGetWorkspaceSize(self, other, alpha, outTmp, &addWorkspaceSize, &addExecutor); */
    aclnn_op addExecutor = {0, (const float *)selfDevice, (const float *)otherDevice, (float *)outTmpDevice, 8,
                            alphaValue};
    void *addWorkspaceAddr = NULL;
    if (addWorkspaceSize > 0) {
        CHECK_ERROR(aclrtMalloc(&addWorkspaceAddr, addWorkspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    // 该算子计算out = outTmp * other，outTmp是上一个add算子的输出。
    /* STREAMSIM: aclnnMulGetWorkspaceSize(outTmp, other, out, &mulWorkspaceSize, &mulExecutor); */
    aclnn_op mulExecutor = {1, (const float *)outTmpDevice, (const float *)otherDevice, (float *)outDevice, 8, 0.0f};
    void *mulWorkspaceAddr = NULL;
    if (mulWorkspaceSize > 0) {
        CHECK_ERROR(aclrtMalloc(&mulWorkspaceAddr, mulWorkspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    }

    aclmdlRI    modelRI;
    aclrtStream stream;
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMallocHost(&selfHost, (size_t)size));
    CHECK_ERROR(aclrtMemcpy(selfHost, (size_t)size, selfHostData, (size_t)size, ACL_MEMCPY_HOST_TO_HOST));

    // 标志着model的开始直到end。此处设置的mode为ACL_MODEL_RI_CAPTURE_MODE_GLOBAL，禁止执行非安全的函数
    // 该model执行了将内存从host复制到device侧，然后调用了一个add算子和一个mul算子
    CHECK_ERROR(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    // 异步复制为安全函数，可以在GLOBAL的mode下调用，该函数会入图。
    CHECK_ERROR(aclrtMemcpyAsync(selfDevice, (size_t)size, selfHost, (size_t)size, ACL_MEMCPY_HOST_TO_DEVICE,
                                 stream));
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    // 可以通过该函数设置mode，此处修改为ACL_MODEL_RI_CAPTURE_MODE_RELAXED，可以执行非安全的函数
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode));
    // 同步复制为非安全函数，要设置为RELAXED，该调用不会入图，会直接执行
    CHECK_ERROR(aclrtMemcpy(otherDevice, (size_t)size, otherHostData, (size_t)size, ACL_MEMCPY_HOST_TO_DEVICE));
    // 再次调用会回到上次设置的Mode
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode));
    // 调用aclnn算子，会入图
    CHECK_ERROR(aclnn_launch(&addExecutor, stream)); /* STREAMSIM: aclnnAdd(addWorkspaceAddr, …, stream); */
    CHECK_ERROR(aclnn_launch(&mulExecutor, stream)); /* STREAMSIM: aclnnMul(mulWorkspaceAddr, …, stream); */
    // 标志model创建结束，且保存为modelRI,后续调用可以通过modelRI进行
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &modelRI));
    /* STREAMSIM: aclmdlRIDebugJsonPrint(modelRI, "./modelRI.json", 0) is not simulated. */

    // 循环执行刚才创建的modelRI
    for (int i = 0; i < loopCount; i++) {
        INFO_LOG("execute model, loop count: %d.", i + 1);
        CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(outHostData, (size_t)size, outDevice, (size_t)size, ACL_MEMCPY_DEVICE_TO_HOST));
        PrintArray(outHostData, 8);
    }

    // 释放资源
    CHECK_ERROR(aclmdlRIDestroy(modelRI));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    /* STREAMSIM: aclDestroyTensor ×4 and aclDestroyScalar are left out (no tensors). */
    CHECK_ERROR(aclrtFree(selfDevice));
    CHECK_ERROR(aclrtFree(otherDevice));
    CHECK_ERROR(aclrtFree(outDevice));
    CHECK_ERROR(aclrtFree(outTmpDevice));
    if (addWorkspaceAddr != NULL) {
        CHECK_ERROR(aclrtFree(addWorkspaceAddr));
    }
    if (mulWorkspaceAddr != NULL) {
        CHECK_ERROR(aclrtFree(mulWorkspaceAddr));
    }
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
