/*
 * acl/acl_rt_allocator.h — CANN's include/external/acl/acl_rt_allocator.h declares the external allocator
 * registration (aclrtAllocatorRegister, ...), which streamsim does not simulate: none is declared.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_
#define INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#endif /* INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_ */
