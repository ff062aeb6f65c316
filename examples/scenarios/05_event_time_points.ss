# The CANN stream-vs-event note, scene 3 — fine-grained time points: wait for the kernel, not the copy after it.
#
#   aclrtEvent event1, event2, event3;
#   aclrtCreateEvent(&event1); aclrtCreateEvent(&event2); aclrtCreateEvent(&event3);
#   aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
#   aclrtRecordEvent(event1, stream);   // input copied
#   myKernel<<<..., stream>>>();
#   aclrtRecordEvent(event2, stream);   // kernel done
#   aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
#   aclrtRecordEvent(event3, stream);   // output copied
#   aclrtSynchronizeEvent(event2);      // waits for the kernel only, not for the copy after it
#
# aclrtCreateEvent makes timed events, so the time points also measure each step.
dialect acl
devices 1

set-device 0
stream stream
event event1
event event2
event event3
malloc-host src 8MiB
malloc dst 8MiB
malloc-host host 8MiB

memcpy-async dst src on stream
record event1 on stream
kernel myKernel on stream 500us reads dst writes dst
record event2 on stream
memcpy-async host dst on stream
record event3 on stream
sync event event2             # returns when the kernel is done ...
query event3                  # ... while the output copy is still running: NOT_READY
elapsed event1 event2         # the kernel's time
elapsed event2 event3         # not finished yet: 107006
sync event event3
elapsed event2 event3         # the output copy's time
