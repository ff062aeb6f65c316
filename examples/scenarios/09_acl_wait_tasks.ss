# ACL wait tasks: a notify, a value word, a callback — three ways for a stream to wait for something that
# another stream (or the host thread) does later. (docs/semantics/acl-runtime-api.md)
dialect acl
devices 1

set-device 0
stream s1
stream s2

# A notify wait may come before its record (the CANN notify guide's example): s2's kernel starts when s1's
# record is reached. One record releases one wait, which resets the notify.
notify n
wait-notify s2 n
kernel consume on s2 10us
kernel produce on s1 100us
record-notify n on s1
sync stream s2                # returns when consume ends, after produce
wait-notify s2 n              # a second wait: no record left for it
sync stream s2                # nothing else could record it: 507000 (the device would hang)
record-notify n on s1
sync stream s2

# A value wait holds its stream until a value write makes the word satisfy it.
malloc flag 8
value-wait flag eq 1 on s2
kernel after_flag on s2 10us
kernel before_flag on s1 50us
value-write flag 1 on s1
sync stream s2                # after_flag starts when the write is reached

# A blocking callback is run by the thread subscribed to the stream, when that thread processes reports: a
# synchronize from that same thread first would never return.
subscribe s1
kernel k1 on s1 10us
callback on s1 block
kernel k2 on s1 10us
sync stream s1                # 507000: only this thread could run the callback
process-report timeout 100    # runs it (its start is due within 100 ms)
sync stream s1
process-report timeout 5      # nothing due: 507012, 5 ms later
unsubscribe s1
