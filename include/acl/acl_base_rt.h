/*
 * acl/acl_base_rt.h — the base types, the ACL codes (not the runtime's ACL_ERROR_RT_*) and aclrtGetSocName, as
 * in the CANN runtime's include/external/acl/acl_base_rt.h. Included by acl/acl_base.h.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_RT_H_
#define INC_EXTERNAL_ACL_ACL_BASE_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------ types */

typedef int aclError;
typedef void *aclrtStream;  /* NULL: the current context's default stream */
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclrtNotify;

/* ------------------------------------------------------------------------------------------------ codes */

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000          /* NULL pointer or handle, unknown enum value or flag bit */
#define ACL_ERROR_UNINITIALIZE 100001           /* finalize without init; a bad STREAMSIM_* environment */
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_REPEAT_FINALIZE 100037
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006    /* aclrtDeviceEnablePeerAccess with flags != 0 */

/* ------------------------------------------------------------------------------------------------ queries */

const char *aclrtGetSocName(void); /* device 0's configured name */

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_BASE_RT_H_ */
