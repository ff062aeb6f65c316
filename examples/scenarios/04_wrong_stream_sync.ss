# The CANN stream-vs-event note, phenomenon 1 and scene 2 — synchronizing one stream does not wait for another.
#
#   // wrong: the work needed is on another stream, but the host waits for this one only
#   aclrtSynchronizeStream(stream1);   // 仅等待 stream1，不等待 stream2
#
#   // recommended: stream1 records a point, stream2 waits for it; the host is not blocked
#   aclrtRecordEvent(event, stream1);
#   aclrtStreamWaitEvent(stream2, event);
#   aclrtMemcpyAsync(dst2, size, src2, size, ACL_MEMCPY_HOST_TO_DEVICE, stream2);
#
#   // not recommended: correct, but the host blocks until stream1 is done
#   aclrtSynchronizeStream(stream1);
#   aclrtMemcpyAsync(dst2, size, src2, size, ACL_MEMCPY_HOST_TO_DEVICE, stream2);
#
# As in scene 2, stream1 produces `data` and stream2 consumes it. The wrong half synchronizes the consumer's
# stream and copies `data` out while `produce` is still writing it: the race report at the end names both
# operations and their lines. (08_legacy_default_stream.ss shows how CUDA's legacy default stream can hide
# this bug.)
dialect acl
devices 1

set-device 0
stream stream1
stream stream2
malloc data 1MiB
malloc-host result 1MiB
event event                           # aclrtCreateEvent: timed, and streams can wait for it

# Wrong: stream1 produces `data`; the host synchronizes stream2 only, then copies `data` out on stream2.
kernel produce on stream1 400us writes data
sync stream stream2                   # waits for stream2 only: returns at once ...
query stream stream1                  # ... produce is still running: NOT_READY
memcpy-async result data on stream2   # reads `data` while produce writes it: the race below
sync stream stream2

# Recommended: order the consumer after the producer on the device; the host goes on at once.
kernel produce on stream1 400us writes data
record event on stream1
wait stream2 event                    # aclrtStreamWaitEvent(stream2, event)
memcpy-async result data on stream2
sync stream stream2

# Not recommended: also correct, but the host blocks until stream1 is done before it can enqueue anything.
kernel produce on stream1 400us writes data
sync stream stream1
memcpy-async result data on stream2
sync stream stream2
