/*
 * kernel_operator.h — what plain-C++ Ascend C kernels use, for `streamsim cc --dialect acl`: the __aicore__
 * and __gm__ qualifiers, GM_ADDR, and AscendC::GetBlockIdx() / GetBlockNum(). A launch
 * `kernel<<<blockDim, l2ctrl, stream>>>(args)` runs blockDim blocks, one after another, each once.
 * The AscendC class library (TPipe, TQue, GlobalTensor, DataCopy, the vector instructions) is not here.
 */
#ifndef STREAMSIM_CC_KERNEL_OPERATOR_H
#define STREAMSIM_CC_KERNEL_OPERATOR_H
#include <stdint.h>
#include "streamsim/cc/cuda_device.h"

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif

namespace AscendC {
/* The index of the block (AI core) running the kernel, 0 .. GetBlockNum() - 1. */
static __device__ __inline__ int64_t GetBlockIdx() { return (int64_t)blockIdx.x; }
/* The launch's blockDim. */
static __device__ __inline__ int64_t GetBlockNum() { return (int64_t)gridDim.x; }
} // namespace AscendC
#endif
