/*
 * acl/acl_op.h — the runtime ships include/external/acl/acl_op.h empty, for compatibility (the aclop package
 * overrides it); so does streamsim, which simulates no aclop* call. The aclmdlRI capture calls are in
 * acl/acl_rt.h, as in CANN.
 */
#ifndef STREAMSIM_ACL_ACL_OP_H
#define STREAMSIM_ACL_ACL_OP_H

#endif /* STREAMSIM_ACL_ACL_OP_H */
