/*
 * acl/error_codes/ge_error_codes.h — the graph engine's codes (ACL_ERROR_GE_*) of CANN's
 * include/external/acl/error_codes/ge_error_codes.h. streamsim simulates no graph engine (model loading and execution
 * from files) and produces none of them, so none is defined: a program that tests one does not compile here.
 */
#ifndef INC_EXTERNAL_GE_GE_ERROR_CODES_H_
#define INC_EXTERNAL_GE_GE_ERROR_CODES_H_

#include <stddef.h>
#include <stdint.h>

#endif /* INC_EXTERNAL_GE_GE_ERROR_CODES_H_ */
