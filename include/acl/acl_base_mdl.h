/*
 * acl/acl_base_mdl.h — the model base types of CANN's include/external/acl/acl_base_mdl.h: the runtime ships it empty
 * (the model package overrides it), and so does streamsim (aclmdlRI is acl_rt.h's).
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */
