# Overlapping copies with compute — cuda-samples simpleStreams' shape (and the CUDA blog post "How to Overlap
# Data Transfers in CUDA C/C++"), three streams, pinned host memory:
#
#   cudaEventRecord(start, 0);
#   for (i = 0; i < 3; i++) {
#     cudaMemcpyAsync(d[i], in[i], 320000, cudaMemcpyHostToDevice, s[i]);
#     kernel<<<..., s[i]>>>(d[i]);
#     cudaMemcpyAsync(out[i], d[i], 320000, cudaMemcpyDeviceToHost, s[i]);
#   }
#   cudaEventRecord(stop, 0); cudaEventSynchronize(stop); cudaEventElapsedTime(&ms, start, stop);
#
# The engine model (docs/semantics/engine-model.md): the device has one copy engine per direction (the default
# profile's asyncEngineCount 6) and 128 kernel slots. Each copy takes 2 µs + 320000 B / 16 GB/s = 22 µs. The
# three host-to-device copies share the H2D engine and run one after the other (18..40, 40..62, 62..84), and so
# do the device-to-host copies (80..102, 102..124, 124..146); the kernels overlap each other and the copies of
# the other streams (k1 40..80 with stream 2's H2D copy, k2 62..102 with stream 3's and stream 1's D2H copy).
# The stop event is recorded at 146 µs: 0.129 ms after the start (17 µs). With `engines off` every stream would
# run alone: 0.091 ms.
dialect cuda

stream s1
stream s2
stream s3
malloc-host in1 320000
malloc-host in2 320000
malloc-host in3 320000
malloc d1 320000
malloc d2 320000
malloc d3 320000
malloc-host out1 320000
malloc-host out2 320000
malloc-host out3 320000
event start
event stop
record start                        # on the legacy default stream: at 17 µs
memcpy-async d1 in1 on s1           # H2D 18..40
kernel k1 on s1 40us reads d1 writes d1
memcpy-async out1 d1 on s1          # D2H 80..102
memcpy-async d2 in2 on s2           # ready at 21 µs; the H2D engine is busy until 40: 40..62
kernel k2 on s2 40us reads d2 writes d2
memcpy-async out2 d2 on s2          # ready at 102 µs, when the D2H engine frees: 102..124
memcpy-async d3 in3 on s3           # H2D 62..84
kernel k3 on s3 40us reads d3 writes d3
memcpy-async out3 d3 on s3          # D2H 124..146
record stop                         # waits for the three streams: 146 µs
sync stop
elapsed start stop                  # 0.129 ms
