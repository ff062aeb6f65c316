# The CANN runtime's stream-ordered memory allocation (SOMA; hicann/runtime docs/zh/api_ref/
# 11-10_ordered_stream_memory_allocation.md), its example call for call, then its reuse rules:
#
#   aclrtMemPoolCreate(&testReusePool, &testProp);          // maxSize = 14GB
#   aclrtMemPoolMallocAsync(&ptr1, sizeof(uint64_t), testReusePool, stream1);   // ptr2, ptr3 alike
#   aclrtMemPoolMallocAsync(&ptr0, sizeof(ArgsInfo), testReusePool, stream1);
#   aclrtMemcpyAsync(ptr0, sizeof(ArgsInfo), &usrArgs, sizeof(ArgsInfo), ACL_MEMCPY_HOST_TO_DEVICE, stream1);
#   aclrtLaunchKernelV2(funcHandle, blockDim, ..., stream1);
#   aclrtMemPoolFreeAsync(ptr0, stream1);                    // "异步释放内存，此前无需进行流同步"
#   ...                                                      // ptr1, ptr2, ptr3
#   aclrtSynchronizeStream(stream1);
#   aclrtMemPoolDestroy(testReusePool);
#
# Each allocation takes 2 MiB of the pool (the runtime's DEVICE_POOL_ALIGN_SIZE); at the synchronize the freed
# memory goes back to the device (release threshold 0, "在下一次Stream同步时，系统将尝试真正释放空闲的物理内存").
# Then reuse: within one stream always; on another stream only under a reuse policy — none is on by default in
# the ACL runtime — so a second stream does not get the freed block even after an event, until
# ACL_RT_MEM_POOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES is set. ACL has no default pool: `malloc-async` always
# names one (and a created stream).
dialect acl

set-device 0
context context
stream stream1
stream stream2
event freed
mem-pool testReusePool max-size 14GiB

malloc-async ptr1 8 on stream1 pool testReusePool
malloc-async ptr2 8 on stream1 pool testReusePool
malloc-async ptr3 8 on stream1 pool testReusePool
malloc-async ptr0 24 on stream1 pool testReusePool       # sizeof(ArgsInfo): three pointers
pool-get testReusePool used-mem-current
pageable usrArgs 24
memcpy-async ptr0 usrArgs on stream1
kernel add_custom on stream1 20us reads ptr0 ptr1 ptr2 writes ptr3
free-async ptr0 on stream1
free-async ptr1 on stream1
free-async ptr2 on stream1
free-async ptr3 on stream1
pool-get testReusePool reserved-mem-current
sync stream1
pool-get testReusePool reserved-mem-current            # given back at the synchronize
pool-get testReusePool used-mem-high

# Reuse on one stream, and across streams.
pool-set testReusePool release-threshold 14GiB         # keep the memory (at most the pool's size in ACL)
malloc-async a 1MiB on stream1 pool testReusePool
free-async a on stream1
malloc-async b 1MiB on stream1 pool testReusePool      # a's address: the same stream
free-async b on stream1
record freed on stream1
wait stream2 freed
malloc-async c 1MiB on stream2 pool testReusePool      # a new block: no reuse policy is on
free-async c on stream2
pool-get testReusePool reuse-follow-event-dependencies
pool-set testReusePool reuse-follow-event-dependencies 1
malloc-async d 1MiB on stream1 pool testReusePool
free-async d on stream1
record freed on stream1
wait stream2 freed
malloc-async e 1MiB on stream2 pool testReusePool      # d's address: stream2 waits on an event after the free
free-async e on stream2
malloc-async f 0 on stream1 pool testReusePool         # size 0: ACL_SUCCESS, nothing allocated
sync device
trim-pool testReusePool 0
pool-get testReusePool reserved-mem-current
pool-set testReusePool release-threshold 16GiB         # above the pool's size: RT_ERROR_POOL_PROP_INVALID, 507000
destroy testReusePool
