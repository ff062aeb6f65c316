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

typedef uint16_t aclFloat16; /* the bits of a half */

/* aclDataTypeSize: a tensor element type. */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

/* ------------------------------------------------------------------------------------------------ data types */

/* The runtime's conversions, bit for bit: to nearest even and saturating (a value beyond the range, an infinity
 * or a NaN becomes +-65504, 0x7BFF / 0xFBFF); back, the exponent 31 is read as a finite one (+infinity becomes
 * 65536, a NaN 98304 or more). Not cuda_fp16.h's IEEE conversions. */
float aclFloat16ToFloat(aclFloat16 value);
aclFloat16 aclFloatToFloat16(float value);
/* The bytes of an element: 0 for ACL_STRING and ACL_DT_UNDEFINED, 1 for the 1-byte and sub-byte types, 2, 4, 16
 * for ACL_COMPLEX128, and 8 for the 8-byte types and any other value (the runtime's default). */
size_t aclDataTypeSize(aclDataType dataType);

/* aclGetCannAttribute: a feature of the installed CANN package. */
typedef enum {
    ACL_CANN_ATTR_UNDEFINED = -1,
    ACL_CANN_ATTR_INF_NAN = 0,
    ACL_CANN_ATTR_BF16 = 1,
    ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

/* aclGetDeviceCapability. */
typedef enum {
    ACL_DEVICE_INFO_UNDEFINED = -1,
    ACL_DEVICE_INFO_AI_CORE_NUM = 0,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
    ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/* ------------------------------------------------------------------------------------------------ queries */

const char *aclrtGetSocName(void); /* device 0's configured name */
/* Refused: ACL_ERROR_RT_FEATURE_NOT_SUPPORT, nothing written (the attributes are the installed CANN package's; the
 * simulator installs none); a NULL pointer: ACL_ERROR_INVALID_PARAM. */
aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);
aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);
/* The AI core and vector core counts of the device's configuration (as aclrtGetDeviceInfo's
 * ACL_DEV_ATTR_AICORE_CORE_NUM / ACL_DEV_ATTR_VECTOR_CORE_NUM); ACL_DEVICE_INFO_L2_SIZE is not modelled:
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT. A device beyond the machine's, another value or NULL: ACL_ERROR_INVALID_PARAM
 * (the ACL layer's checks). */
aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_BASE_RT_H_ */
