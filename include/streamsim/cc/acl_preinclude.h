/*
 * acl_preinclude.h — what `streamsim cc --dialect acl` includes before every source: the device language,
 * CANN's runtime API (acl/acl.h), kernel_operator.h, and the launch entry points of
 * `kernel<<<blockDim, l2ctrl, stream>>>(args)`: clang builds the call to __cudaPushCallConfiguration from
 * the launch's own arguments, and this declaration gives it Ascend C's (the symbol is streamsim's ACL one).
 */
#ifndef STREAMSIM_CC_ACL_PREINCLUDE_H
#define STREAMSIM_CC_ACL_PREINCLUDE_H
#include "streamsim/cc/cuda_device.h"
#include "acl/acl.h"
#include "streamsim/cc/acl/kernel_operator.h"
extern "C" {
unsigned __cudaPushCallConfiguration(unsigned int blockDim, void *l2ctrl = 0, void *stream = 0)
    __asm__("__streamsimAclPushCallConfiguration");
int __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void **stream);
int cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, void *stream);
}
/* The allocation and free calls say where they are (call_sites.h), after the runtime's own declarations. */
#include "streamsim/cc/call_sites.h"
#ifdef STREAMSIM_CC_CALL_SITES
#define aclrtMalloc(...) STREAMSIM_CC_AT(aclrtMalloc, __VA_ARGS__)
#define aclrtMallocHost(...) STREAMSIM_CC_AT(aclrtMallocHost, __VA_ARGS__)
#define aclrtFree(...) STREAMSIM_CC_AT(aclrtFree, __VA_ARGS__)
#define aclrtFreeHost(...) STREAMSIM_CC_AT(aclrtFreeHost, __VA_ARGS__)
#define aclrtMemPoolMallocAsync(...) STREAMSIM_CC_AT(aclrtMemPoolMallocAsync, __VA_ARGS__)
#define aclrtMemPoolFreeAsync(...) STREAMSIM_CC_AT(aclrtMemPoolFreeAsync, __VA_ARGS__)
#endif
#endif
