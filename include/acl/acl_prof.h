/*
 * acl/acl_prof.h — CANN's include/external/acl/acl_prof.h declares the profiler (aclprof*), which streamsim does not
 * simulate (its trace is streamsim.h's): none is declared.
 */
#ifndef INC_EXTERNAL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_PROF_H_

#include "acl_base.h"

#endif /* INC_EXTERNAL_ACL_PROF_H_ */
