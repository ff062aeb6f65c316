/*
 * acl/acl_mdl.h — the runtime ships include/external/acl/acl_mdl.h empty, for compatibility (the aclmdl package
 * overrides it); so does streamsim, which simulates no aclmdl* call. The aclmdlRI capture calls are in
 * acl/acl_rt.h, as in CANN.
 */
#ifndef STREAMSIM_ACL_ACL_MDL_H
#define STREAMSIM_ACL_ACL_MDL_H

#endif /* STREAMSIM_ACL_ACL_MDL_H */
