/*
 * cooperative_groups/reduce.h — cg::reduce and its operators (plus, less, greater, bit_and, bit_or, bit_xor);
 * streamsim's cooperative_groups.h defines them, so this header only includes it.
 */
#ifndef STREAMSIM_COOPERATIVE_GROUPS_REDUCE_H
#define STREAMSIM_COOPERATIVE_GROUPS_REDUCE_H
#include "../cooperative_groups.h"
#endif /* STREAMSIM_COOPERATIVE_GROUPS_REDUCE_H */
