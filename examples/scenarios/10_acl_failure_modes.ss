# ACL failure modes: after a faulting kernel, the default ACL_CONTINUE_ON_FAILURE runs the stream's later tasks
# and reports the fault once; ACL_STOP_ON_FAILURE stops the stream — and its context's streams ordered after the
# fault — and, once the fault is reported, refuses new tasks. A wait task longer than aclrtSetOpWaitTimeout is
# a fault of its stream too. (docs/semantics/acl-runtime-api.md; the CANN sample stream_with_failure_mode)
dialect acl
devices 1

set-device 0
stream s1
stream s2

faulty-kernel ErrorOP on s1 10us
kernel EasyOP on s1 10us      # still runs: the sample's output shows it
sync stream s1                # 507015, at the end of EasyOP
sync stream s1                # 0: reported once

# A wait that waits longer than the op-wait timeout gives up at its deadline: 107020 at the next synchronize.
op-wait-timeout 1
event e
kernel LongOP on s2 2s
record e on s2
wait s1 e                     # gives up 1 s after it starts; s1 goes on
kernel after_wait on s1 10us
sync stream s1                # 107020
op-wait-timeout 0
sync stream s2

failure-mode s1 stop          # the context's streams stop on failure from now on
faulty-kernel ErrorOP2 on s1 10us
kernel skipped on s1 10us     # does not run (the timeline keeps its slot)
record e on s1
wait s2 e                     # s2 is ordered after the fault: it stops too
kernel also_skipped on s2 10us
sync stream s1                # 507015
sync stream s1                # 507015 again: the stream keeps its error
kernel refused on s2          # 507015: the context takes no new task
reset-device-force 0          # a reset clears it
set-device 0
stream s3
kernel fine on s3
sync stream s3
