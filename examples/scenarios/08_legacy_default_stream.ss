# The CANN stream-vs-event note's wrong synchronization in CUDA — and how the legacy default stream can hide it.
#
#   produce<<<..., stream>>>(data);
#   cudaMemcpy(result, data, size, cudaMemcpyDeviceToHost);   // the NULL stream: no event, no stream sync
#
# A CUDA stream created without flags is *blocking*: work on the legacy default stream (the NULL stream, which
# cudaMemcpy uses) waits for all earlier work of the device's blocking streams. So the copy after `produce` on
# a blocking stream is correct by accident. Create the stream with cudaStreamNonBlocking and the same code
# races: the copy reads `data` while `produce` is still writing it. ACL has no such implicit synchronization
# (see 04_wrong_stream_sync.ss), and neither do two blocking streams with each other.
dialect cuda
devices 1

stream blocking                   # cudaStreamCreate
stream nonblocking non-blocking   # cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)
malloc data 1MiB
malloc-host result 1MiB

# Hidden: the NULL stream waits for the blocking stream, so the copy starts when produce ends.
kernel produce on blocking 400us writes data
memcpy result data

# Exposed: non-blocking streams are exempt; the copy runs while produce writes — the race below.
kernel produce on nonblocking 400us writes data
memcpy result data

# The fix in either case: an event recorded after produce, waited for by the stream that copies.
event done disable-timing
kernel produce on nonblocking 400us writes data
record done on nonblocking
wait default done                 # cudaStreamWaitEvent(0, done)
memcpy result data
