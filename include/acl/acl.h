/*
 * acl/acl.h — the Ascend CANN ACL umbrella header as streamsim provides it (libstreamsim, no NPU needed).
 *
 * Compile unchanged ACL host code against this directory and link libstreamsim instead of libascendcl:
 *     cc app.c -I include -L target/release -lstreamsim
 * As CANN's include/external/acl/acl.h, it includes acl/acl_rt.h, acl/acl_op.h and acl/acl_mdl.h (and through
 * them acl/acl_base.h and the code lists of acl/error_codes/). Two additions of streamsim's: the stream-ordered
 * memory calls (acl/acl_rt_memory_soma.h, which a CANN program includes itself) and the aclsim* kernel launches
 * of streamsim.h (`myKernel<<<…, stream>>>(…)` becomes aclsimLaunchKernel).
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_
/* streamsim.h declares its aclsim* section when this is defined. */
#define STREAMSIM_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"
#include "acl_rt_memory_soma.h"

#include "../streamsim.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
