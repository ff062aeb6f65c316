# The MUSA events article §2.3 — IPC events: process B waits for an event of process A.
#
#   // process A
#   musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess);
#   musaIpcGetEventHandle(&handle, event);
#   memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));
#   // process B
#   memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t));
#   musaIpcOpenEventHandle(&ipc_event, ipc_handle);
#   musaStreamWaitEvent(stream, ipc_event);
#
# The handle is passed by name (`handle`), standing for the shared memory. A records the event before B waits:
# a wait on an event that was never recorded is a no-op in CUDA/MUSA. B's consumer starts when A's producer
# ends, although each process has its own host clock. The opened event works for waits and queries, never for
# timing (IPC events have timing disabled).
dialect musa
devices 1

process A
stream stream
event event disable-timing interprocess
ipc-get-event-handle event handle
kernel producer on stream 200us
record event on stream

process B
ipc-open-event-handle handle ipc_event
stream stream_b
wait stream_b ipc_event           # musaStreamWaitEvent(stream, ipc_event)
kernel consumer on stream_b 50us
query ipc_event                   # A's producer is still running: 600
elapsed ipc_event ipc_event       # no timing for IPC events: 400
sync stream stream_b
query ipc_event                   # done

process A
sync stream stream
