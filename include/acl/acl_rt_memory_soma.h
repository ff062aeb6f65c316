/*
 * acl/acl_rt_memory_soma.h — stream-ordered memory allocation (SOMA): pools of device memory, as in CANN's
 * include/external/acl/acl_rt_memory_soma.h. docs/semantics/stream-ordered-memory.md.
 */
#ifndef INC_EXTERNAL_ACL_RT_MEMORY_H_
#define INC_EXTERNAL_ACL_RT_MEMORY_H_

#include <stddef.h>
#include "acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtMemPool;

typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,   /* uint32_t, default 0 */
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,         /* uint32_t, default 0 */
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3, /* uint32_t, default 0 */
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,            /* uint64_t, default 0, at most the pool's size */
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,         /* uint64_t, read-only */
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,            /* uint64_t, set to 0 only */
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,             /* uint64_t, read-only */
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8                 /* uint64_t, set to 0 only */
} aclrtMemPoolAttr;

typedef struct {
    aclrtMemAllocationType allocType;
    aclrtMemHandleType handleType;
    aclrtMemLocation location;
    size_t maxSize; /* rounded up to 2 MiB; 0: the device's memory */
    unsigned char reserved[32];
} aclrtMemPoolProps;

/* ------------------------------------------------------------------------------------------------ stream-ordered
 * memory: every allocation is rounded up to 2 MiB; a freed block is reused on its stream, and on others as the
 * pool's reuse policies allow (none by default). aclrtMemPoolMallocAsync of size 0 is ACL_SUCCESS and writes
 * nothing. Unknown pools are ACL_ERROR_RT_INTERNAL_ERROR (ACL_ERROR_RT_PARAM_INVALID for Set/GetAttr). */

aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);
aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);
aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);
aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);
aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool, aclrtStream stream);
aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream);
aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_RT_MEMORY_H_ */
