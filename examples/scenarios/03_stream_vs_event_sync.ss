# Seed 004, scene 1 — one stream, wait for the whole batch: a stream synchronize.
#
#   aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
#   myKernel<<<..., stream>>>();
#   aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
#   aclrtSynchronizeStream(stream);          // recommended
#   ...
#   aclrtRecordEvent(event, stream);         // not recommended: one more call for the same wait
#   aclrtSynchronizeEvent(event);
#
# The seed is written for Ascend ACL, which the simulator does not support yet; the semantics shown here
# are the same in CUDA, so this scenario uses the CUDA dialect. Both ways end at the same virtual time: the
# event record captures exactly the work the stream synchronize waits for.
dialect cuda

stream stream
malloc-host src 4MiB
malloc dst 4MiB
malloc-host host 4MiB

# Recommended: synchronize the stream.
memcpy-async dst src on stream
kernel myKernel on stream 300us reads dst writes dst
memcpy-async host dst on stream
sync stream stream

# The same batch again, waited for through an event: the same result, one more call.
event event
memcpy-async dst src on stream
kernel myKernel on stream 300us reads dst writes dst
memcpy-async host dst on stream
record event on stream
sync event event
query stream stream           # complete: the event covered the whole stream
