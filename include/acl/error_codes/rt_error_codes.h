/*
 * acl/error_codes/rt_error_codes.h — the runtime's codes (ACL_ERROR_RT_*) that streamsim produces, as in CANN's
 * include/external/acl/error_codes/rt_error_codes.h.
 */
#ifndef __INC_EXTERNEL_RT_ERROR_CODES_H__
#define __INC_EXTERNEL_RT_ERROR_CODES_H__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_ERROR_RT_PARAM_INVALID 107000       /* count > destMax, wrong copy kind, bad timeout, ... */
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002        /* no current context */
#define ACL_ERROR_RT_STREAM_CONTEXT 107003      /* stream or event of another context / device */
#define ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID 107006
#define ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL 107007 /* never produced */
#define ACL_ERROR_RT_STREAM_SUBSCRIBE 107011    /* stream (un)subscribed twice, or used by aclrtLaunchHostFunc */
#define ACL_ERROR_RT_THREAD_SUBSCRIBE 107012    /* thread not subscribed, or subscribed on another device */
#define ACL_ERROR_RT_STREAM_NO_CB_REG 107015    /* aclrtLaunchCallback on a stream without a subscribed thread */
#define ACL_ERROR_RT_INVALID_HANDLE 107017      /* destroyed, forged, or another process's handle */
#define ACL_ERROR_RT_WAIT_TIMEOUT 107019
#define ACL_ERROR_RT_TASK_TIMEOUT 107020        /* a wait task waited longer than its timeout */
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_DEVICE_OOM 207018
#define ACL_ERROR_RT_INTERNAL_ERROR 507000
#define ACL_ERROR_RT_CONTEXT_RELEASE_ERROR 507007
#define ACL_ERROR_RT_REPORT_TIMEOUT 507012      /* aclrtProcessReport: no callback within the timeout */
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015    /* a kernel fault, at the next synchronize (see the failure modes) */
#define ACL_ERROR_RT_IPC_ERROR 507022           /* a bad IPC handle (or one's own) */
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046
#define ACL_ERROR_RT_EVENT_SYNC_TIMEOUT 507047
/* Stream capture (docs/semantics/capture-and-graphs.md). */
#define ACL_ERROR_RT_MODEL_CONTEXT 107004             /* a model of another context */
#define ACL_ERROR_RT_CAPTURE_DEPENDENCY 107024        /* a capturing stream waits on an event recorded outside */
#define ACL_ERROR_RT_STREAM_UNJOINED 107025           /* a sub stream not joined back to the origin stream */
#define ACL_ERROR_RT_STREAM_CAPTURED 107027           /* sync / query / destroy of a capturing stream */
#define ACL_ERROR_RT_EVENT_CAPTURED 107028            /* sync / query / elapsed time of a captured event */
#define ACL_ERROR_RT_STREAM_NOT_CAPTURED 107029       /* end of a capture on a stream not capturing */
#define ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT 107030  /* aclrtMemcpy / aclrtMemset the capture mode prohibits */
#define ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT 107031   /* the default stream waits on a captured event */
#define ACL_ERROR_STREAM_CAPTURE_CONFLICT 107032      /* a wait that would join two captures */
#define ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED 107036  /* end of a capture on a stream it was not begun on */
#define ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD 107038
#define ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED 507903

#ifdef __cplusplus
}
#endif

#endif /* __INC_EXTERNEL_RT_ERROR_CODES_H__ */
