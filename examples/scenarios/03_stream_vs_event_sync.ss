# The CANN stream-vs-event note, scene 1 and phenomenon 2 — one stream's whole batch: a stream synchronize.
#
#   aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
#   myKernel<<<..., stream>>>();
#   aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
#   aclrtSynchronizeStream(stream);          // recommended: waits for the 3 tasks above
#   ...
#   aclrtRecordEvent(event, stream);         // not recommended: one more call for the same wait
#   aclrtSynchronizeEvent(event);
#
# Both ways end at the same virtual time: the record captures exactly the work the stream synchronize waits
# for, so the event only adds a call (and an event to create and destroy).
dialect acl
devices 1

set-device 0                  # aclrtSetDevice: the device's default context becomes current
stream stream                 # aclrtCreateStream
malloc-host src 4MiB
malloc dst 4MiB
malloc-host host 4MiB

# Recommended: synchronize the stream.
memcpy-async dst src on stream
kernel myKernel on stream 300us reads dst writes dst
memcpy-async host dst on stream
sync stream stream

# Not recommended: the same batch, waited for through an event.
event event                   # aclrtCreateEvent
memcpy-async dst src on stream
kernel myKernel on stream 300us reads dst writes dst
memcpy-async host dst on stream
record event on stream
sync event event
query stream stream           # ACL_STREAM_STATUS_COMPLETE: the event covered the whole stream
destroy event
destroy stream
reset-device 0                # pairs with set-device 0
