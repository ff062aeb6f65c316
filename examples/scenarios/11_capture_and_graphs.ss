# Stream capture and CUDA graphs: cuda-samples simpleCudaGraphs' capture, its DOT, its replay — and two
# classic mistakes.
#
#   cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
#   cudaEventRecord(fork, s1); cudaStreamWaitEvent(s2, fork); cudaStreamWaitEvent(s3, fork);   // fork
#   cudaMemcpyAsync(in_d, in_h, ..., s1); cudaMemsetAsync(partial, 0, ..., s2); cudaMemsetAsync(sum, 0, ..., s3);
#   cudaEventRecord(m1, s2); cudaEventRecord(m2, s3);
#   cudaStreamWaitEvent(s1, m1); reduce<<<..., s1>>>(); cudaStreamWaitEvent(s1, m2); reduceFinal<<<..., s1>>>();
#   cudaMemcpyAsync(&result, sum, ..., s1); cudaLaunchHostFunc(s1, print, ...);                   // join
#   cudaStreamEndCapture(s1, &graph); cudaGraphInstantiate(&exec, graph, 0); cudaGraphLaunch(exec, stream) x2
#
# The work runs once eagerly, then is captured. During the capture nothing runs: each call answers 0 and becomes
# a node (the record / wait pairs become the edges). A launch replays the graph: every node starts as early as
# its dependencies allow, on the graph's own tracks of the timeline ("graph 1 lane 0", ...; L and D on the
# launching stream), and the second launch waits for the first. The graph's critical path is the eager run's,
# without the host's calls in between.
dialect cuda
devices 1

stream s1
stream s2
stream s3
stream launcher
event fork disable-timing
event m1 disable-timing
event m2 disable-timing
malloc-host in_h 4MiB
malloc in_d 4MiB
malloc partial 4KiB
malloc sum 8
pageable result 8

# The work once without a graph (eagerly): each call enqueues at its own host time.
record fork on s1
wait s2 fork
wait s3 fork
memcpy-async in_d in_h on s1
memset-async partial 0 on s2
memset-async sum 0 on s3
record m1 on s2
record m2 on s3
wait s1 m1
kernel reduce on s1 50us reads in_d writes partial
wait s1 m2
kernel reduceFinal on s1 5us reads partial writes sum
memcpy-async result sum on s1
host-fn on s1
sync s1

# The same calls captured: nothing runs, each becomes a node.
begin-capture s1 global
capture-info s1
record fork on s1
wait s2 fork                         # s2 joins the capture: it is now capturing too
wait s3 fork
capture-info s2
memcpy-async in_d in_h on s1
memset-async partial 0 on s2
memset-async sum 0 on s3
record m1 on s2
record m2 on s3
wait s1 m1
kernel reduce on s1 50us reads in_d writes partial
wait s1 m2
kernel reduceFinal on s1 5us reads partial writes sum
memcpy-async result sum on s1        # into pageable memory: a node too
host-fn on s1
end-capture s1 graph                 # 7 nodes
graph-dot graph
instantiate graph exec
graph-launch exec on launcher
graph-launch exec on launcher
sync launcher

# Mistake 1: synchronizing a capturing stream (or querying it) is not allowed during the capture: 900, and
# the whole capture is invalidated — ending it answers 901 and gives no graph.
begin-capture s1
kernel k on s1 10us
sync s1                              # cudaStreamSynchronize: 900 cudaErrorStreamCaptureUnsupported
capture-info s1                      # invalidated
end-capture s1 broken                # 901 cudaErrorStreamCaptureInvalidated

# Mistake 2: forking work and never joining it back to the origin stream: 904 at the end.
begin-capture s1
record fork on s1
wait s2 fork
kernel side on s2 20us
kernel main on s1 10us
end-capture s1 unjoined              # 904 cudaErrorStreamCaptureUnjoined (no `wait s1 ...` for s2's work)
capture-info s2                      # s2 is no longer capturing

destroy exec
destroy graph
