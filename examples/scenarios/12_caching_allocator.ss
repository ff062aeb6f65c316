# The caching-allocator bug of examples/07_caching_allocator.rs (PyTorch's `record_stream`), in stream-ordered
# form, then the pool's reuse policies one by one (CUDA's stream-ordered allocator; docs/semantics/
# stream-ordered-memory.md):
#
#   cudaMallocAsync(&x, n, compute);  produce<<<..., compute>>>(x);
#   cudaEventRecord(produced, compute);  cudaStreamWaitEvent(side, produced, 0);
#   consume<<<..., side>>>(x);        // reads x for 200 µs
#   cudaFreeAsync(x, compute);        // wrong: compute does not wait for consume
#   cudaMallocAsync(&y, n, compute);  // the same address (freed on this stream) ...
#   overwrite<<<..., compute>>>(y);   // ... written while consume reads it
#
# The free is a "use after free" report naming both streams and the fix. With an event recorded on `side`
# after `consume` and `compute` waiting on it before the free, the run is clean and `y` still gets `x`'s
# address: a properly ordered reuse is never reported.
#
# Then memory freed on `compute` and allocated on `side`: not reused right after the free (nothing orders
# `side` after it, and it has not completed yet); reused once the host has slept past its end (opportunistic
# reuse); with opportunistic reuse off, not reused after the sleep, but reused once `side` waits on an event
# recorded after the free (event dependencies). The counters, then the release threshold and a trim give the
# memory back.
stream compute non-blocking
stream side non-blocking
event produced disable-timing
event consumed disable-timing
event freed disable-timing
default-pool pool
pool-set pool release-threshold max     # keep freed memory across synchronizes (default 0: give it back)

# Wrong: x freed on compute while side still reads it.
malloc-async x 1MiB on compute
kernel produce on compute 50us writes x
record produced on compute
wait side produced
kernel consume on side 200us reads x
free-async x on compute                 # does not wait for consume: use after free
malloc-async y 1MiB on compute          # x's address: freed on this stream
kernel overwrite on compute 50us writes y
free-async y on compute
sync device

# Right: compute waits for consume before the free.
malloc-async x2 1MiB on compute
kernel produce on compute 50us writes x2
record produced on compute
wait side produced
kernel consume on side 200us reads x2
record consumed on side
wait compute consumed
free-async x2 on compute
malloc-async y2 1MiB on compute          # the same address again, no report
kernel overwrite on compute 50us writes y2
free-async y2 on compute
sync device

# Reuse across streams.
malloc-async a 1MiB on compute
free-async a on compute
malloc-async b 1MiB on side             # a new address: the free has not completed, nothing orders side after it
free-async b on side
sleep 20us
malloc-async c 1MiB on side             # a's address: its free completed (opportunistic reuse)
free-async c on side
sync device
pool-set pool reuse-allow-opportunistic 0
malloc-async d 1MiB on compute
free-async d on compute
sleep 20us
malloc-async e 1MiB on side             # a new address: completed, but side is not ordered after the free
free-async e on side
record freed on compute
wait side freed
malloc-async f 1MiB on side             # d's address: side waits on an event after the free
free-async f on side
sync device

pool-get pool used-mem-current
pool-get pool used-mem-high
pool-get pool reserved-mem-current
pool-set pool release-threshold 0
sync device                             # above the threshold: the unused memory goes back at the synchronize
pool-get pool reserved-mem-current
pool-get pool reserved-mem-high
trim-pool pool 0
