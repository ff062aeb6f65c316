/*
 * cann_aclnn_standins.h — the two aclnn operators the CANN runtime's capture samples (github.com/hicann/runtime,
 * example/2_advanced_features/model_ri and docs/zh/dev_guide/04-02_cross_stream_capture.md) launch, as Ctx
 * kernel stand-ins for the ports in tests/c (C11 and C++17):
 *
 *   aclnnAdd: out = self + other * alpha        aclnnMul: out = self * other
 *
 * The samples make each operator's executor from aclTensors (aclCreateTensor, aclnnAddGetWorkspaceSize /
 * aclnnMulGetWorkspaceSize: the operator library, not the runtime, and not simulated); a port fills an
 * aclnn_op (the tensors' device addresses, their element count, alpha) instead and launches it with
 * aclnn_launch, which declares the reads and the write. A captured operator runs once per execution of the
 * model with the same aclnn_op, so the op must outlive the model. 8 µs of virtual time each.
 */
#ifndef STREAMSIM_TESTS_CANN_ACLNN_STANDINS_H
#define STREAMSIM_TESTS_CANN_ACLNN_STANDINS_H

#include <stddef.h>

#include "acl/acl.h"

typedef struct aclnn_op {
    int          mul;   /* 0: aclnnAdd, 1: aclnnMul */
    const float *self;  /* device */
    const float *other; /* device */
    float       *out;   /* device */
    size_t       n;     /* elements of each tensor */
    float        alpha; /* aclnnAdd's scalar */
} aclnn_op;

static void aclnn_body(streamsimKernelCtx *ctx, void *arg) {
    const aclnn_op *op = (const aclnn_op *)arg;
    void *self = NULL, *other = NULL, *out = NULL;
    size_t bytes = op->n * sizeof(float);
    if (streamsimKernelMap(ctx, op->self, bytes, &self) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, op->other, bytes, &other) != STREAMSIM_SUCCESS ||
        streamsimKernelMap(ctx, op->out, bytes, &out) != STREAMSIM_SUCCESS) {
        return;
    }
    for (size_t i = 0; i < op->n; i++) {
        float s = ((const float *)self)[i], o = ((const float *)other)[i];
        ((float *)out)[i] = op->mul ? s * o : s + o * op->alpha;
    }
}

/* aclnnAdd(workspace, workspaceSize, executor, stream) / aclnnMul(…) as the stand-in for `op` on `stream`. */
static inline aclError aclnn_launch(aclnn_op *op, aclrtStream stream) {
    size_t bytes = op->n * sizeof(float);
    streamsimAccess acc[3] = {{op->self, bytes, STREAMSIM_ACCESS_READ},
                              {op->other, bytes, STREAMSIM_ACCESS_READ},
                              {op->out, bytes, STREAMSIM_ACCESS_WRITE}};
    return aclsimLaunchKernelCtx(stream, op->mul ? "aclnnMul" : "aclnnAdd", 8000, aclnn_body, op, acc, 3);
}

#endif
