# The MUSA events article §2.1 — time a kernel with two events (MUSA; CUDA is the same with cuda* names).
#
#   musaEventRecord(event1);
#   kernel<<<1, 1>>>();
#   musaEventRecord(event2);
#   musaEventSynchronize(event2);
#   float time_ms;
#   musaEventElapsedTime(&time_ms, event1, event2);
#
# The record is asynchronous: right after it, querying event2 answers NotReady. After the synchronize the
# elapsed time is the kernel's 250 µs plus the 1 µs call between the two records: 0.251 ms, on every run.
dialect musa
devices 1

event event1
event event2
record event1
kernel kernel 250us
record event2
query event2                  # not reached yet: NotReady
sync event event2             # the host waits for event2
query event2                  # now complete
elapsed event1 event2         # 0.251 ms
