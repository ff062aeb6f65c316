/*
 * warp_ops.h — the operations of __ssk_warp_op / __ssk_warp_op64, shared by the device language
 * (cuda_device.h) and the CPU runtime that computes them (kernel_rt.c).
 */
#ifndef STREAMSIM_CC_WARP_OPS_H
#define STREAMSIM_CC_WARP_OPS_H
enum {
    STREAMSIM_W_SYNC = 0,
    STREAMSIM_W_IDX = 1,
    STREAMSIM_W_UP = 2,
    STREAMSIM_W_DOWN = 3,
    STREAMSIM_W_XOR = 4,
    STREAMSIM_W_BALLOT = 5,
    STREAMSIM_W_ANY = 6,
    STREAMSIM_W_ALL = 7,
    STREAMSIM_W_ACTIVEMASK = 8,
    STREAMSIM_W_MATCH_ANY = 9,
    STREAMSIM_W_MATCH_ALL = 10
};
#endif
