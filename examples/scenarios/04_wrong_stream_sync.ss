# Seed 004, phenomenon 1 and scene 2 — the data comes from stream2, but the host synchronizes stream1.
#
#   // wrong: waits for stream1 only, not for stream2
#   aclrtSynchronizeStream(stream1);
#
#   // right: stream1 waits for an event that stream2 records; the host is not blocked
#   aclrtRecordEvent(event, stream2);
#   aclrtStreamWaitEvent(stream1, event);
#
# The seed is written for Ascend ACL, which the simulator does not support yet; CUDA behaves the same with
# non-blocking streams. (ACL streams never synchronize with the default stream; CUDA's blocking streams do,
# and that implicit synchronization could hide the bug.) A later version of the simulator reports the wrong
# half as a race; today the queries show it: the result is copied while the producer is still running.
dialect cuda

stream stream1 non-blocking
stream stream2 non-blocking
malloc-host input 1MiB
malloc data 1MiB
malloc-host result 1MiB

# Wrong: stream2 produces `data`; the host synchronizes stream1 only, then copies `data` out on stream1.
memcpy-async data input on stream1
kernel produce on stream2 400us writes data
sync stream stream1               # waits for the upload on stream1 only ...
query stream stream2              # ... produce (stream2) is still running: NotReady
memcpy-async result data on stream1
sync stream stream1               # the result has been copied ...
query stream stream2              # ... before produce finished writing it: NotReady

# Right: order the consumer after the producer with an event.
sync device
event ready
kernel produce on stream2 400us writes data
record ready on stream2
wait stream1 ready                # stream1 waits on the device; the host goes on
kernel consume on stream1 100us reads data
memcpy-async result data on stream1
sync stream stream1               # now everything the result depends on has run
query stream stream2              # complete
