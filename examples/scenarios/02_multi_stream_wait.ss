# The MUSA events article §2.2 — stream1 waits for a kernel of stream2 without blocking the host.
#
#   kernel1<<<1, 1, 0, stream1>>>();
#   kernel2<<<1, 1, 0, stream2>>>();
#   musaEventRecord(event1, stream2);
#   musaStreamWaitEvent(stream1, event1);
#   kernel<<<1, 1, 0, stream1>>>();
#
# kernel runs on stream1 only after kernel2 (stream2) has finished, even though kernel1 ended long before:
# the timeline shows the wait (W) on stream1 lined up with the record (R) on stream2.
dialect musa

stream stream1
stream stream2
event event1
kernel kernel1 on stream1 50us
kernel kernel2 on stream2 200us
record event1 on stream2
wait stream1 event1           # returns at once: the host is not blocked
kernel kernel on stream1 80us
query stream stream1          # still running
sync stream stream1
