//! Ported public programs that use the CUDA runtime's long tail (issue 13): NVIDIA cuda-samples deviceQuery,
//! simpleStreams, asyncAPI, simpleCallback and simpleHyperQ, and ROCm hip-tests' host-memory tests translated to
//! CUDA names, built as C11 and C++17 with `-Wall -Wextra -Werror` (see `c_programs.rs`) and run against the
//! default machine. Each port says at its top where it came from and what was changed.
//!
//! The samples' virtual-time printouts are deterministic and asserted exactly, from the cost model where they
//! depend on it. Their kernels compute: each is a `cudasimLaunchKernelCtx` stand-in whose body runs the
//! original kernel's statements in C on the device memory the launch declares
//! (`docs/semantics/kernel-bodies.md`), so each sample's own data check passes as on hardware, and the tests
//! assert its success output and exit status 0. A body takes no virtual time of its own (a stand-in's duration
//! is what it was before the kernels computed), so the virtual-time figures did not change when they began to.

use std::process::Output;
use std::time::Duration;

use streamsim::{Attribute, CopyPath, CostModel, DeviceConfig};

use crate::c_programs::{Lang, build, build_and_run, run, toolchain};

const LIMIT: Duration = Duration::from_secs(120);

/// Builds `tests/c/<name>.c` as C11 and C++17 (optimised: the ported programs loop over millions of elements
/// on the host; linked with the maths library, which simpleStreams' `rint` needs in C) and runs both at once
/// (simpleStreams' kernel bodies take seconds of host time per build); returns their outputs, C11's first
/// (whatever the status).
fn build_and_run_any(name: &str, args: &[&str], env: &[(&str, &str)]) -> Vec<Output> {
    let src = toolchain().c_dir.join(format!("{name}.c"));
    let exes: Vec<_> = [Lang::C, Lang::Cxx]
        .into_iter()
        .map(|lang| build(&src, name, lang, &["-lm", "-O2"]))
        .collect();
    std::thread::scope(|scope| {
        let runs: Vec<_> = exes
            .iter()
            .map(|exe| scope.spawn(move || run(exe, args, env, LIMIT)))
            .collect();
        runs.into_iter()
            .map(|r| r.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What deviceQuery prints for a device of configuration `cfg` with ordinal `dev`, line by line, computed from
/// the configuration (not from the program).
fn device_query_lines(dev: u32, cfg: &DeviceConfig) -> Vec<String> {
    let a = |attr: Attribute| -> i64 {
        match attr {
            Attribute::TotalMemory => cfg.memory as i64,
            _ => cfg.attributes[&attr],
        }
    };
    let yes = |attr| if a(attr) != 0 { "Yes" } else { "No" };
    let (major, minor) = (
        a(Attribute::ComputeCapabilityMajor),
        a(Attribute::ComputeCapabilityMinor),
    );
    assert_eq!((major, minor), (8, 0), "the cores table below is 8.0's");
    // helper_cuda.h's _ConvertSMVer2Cores: {0x80, 64}.
    let cores = 64;
    let sms = a(Attribute::MultiprocessorCount);
    let clock = a(Attribute::ClockRateKhz) as f32;
    let mem = a(Attribute::TotalMemory);
    vec![
        format!("Device {dev}: \"{}\"", cfg.name),
        "  CUDA Driver Version / Runtime Version          12.8 / 12.8".into(),
        format!("  CUDA Capability Major/Minor version number:    {major}.{minor}"),
        format!(
            "  Total amount of global memory:                 {:.0} MBytes ({mem} bytes)",
            mem as f32 / 1_048_576.0
        ),
        format!(
            "  ({sms:03}) Multiprocessors, ({cores:03}) CUDA Cores/MP:    {} CUDA Cores",
            sms * cores
        ),
        format!(
            "  GPU Max Clock rate:                            {:.0} MHz ({:.2} GHz)",
            clock * 1e-3,
            clock * 1e-6
        ),
        format!(
            "  Memory Clock rate:                             {:.0} Mhz",
            a(Attribute::MemoryClockRateKhz) as f32 * 1e-3
        ),
        format!(
            "  Memory Bus Width:                              {}-bit",
            a(Attribute::MemoryBusWidth)
        ),
        format!(
            "  L2 Cache Size:                                 {} bytes",
            a(Attribute::L2CacheSize)
        ),
        format!(
            "  Maximum Texture Dimension Size (x,y,z)         1D=({}), 2D=({}, {}), 3D=({}, {}, {})",
            a(Attribute::MaxTexture1DWidth),
            a(Attribute::MaxTexture2DWidth),
            a(Attribute::MaxTexture2DHeight),
            a(Attribute::MaxTexture3DWidth),
            a(Attribute::MaxTexture3DHeight),
            a(Attribute::MaxTexture3DDepth)
        ),
        format!(
            "  Maximum Layered 1D Texture Size, (num) layers  1D=({}), {} layers",
            a(Attribute::MaxTexture1DLayeredWidth),
            a(Attribute::MaxTexture1DLayeredLayers)
        ),
        format!(
            "  Maximum Layered 2D Texture Size, (num) layers  2D=({}, {}), {} layers",
            a(Attribute::MaxTexture2DLayeredWidth),
            a(Attribute::MaxTexture2DLayeredHeight),
            a(Attribute::MaxTexture2DLayeredLayers)
        ),
        format!(
            "  Total amount of constant memory:               {} bytes",
            a(Attribute::TotalConstantMemory)
        ),
        format!(
            "  Total amount of shared memory per block:       {} bytes",
            a(Attribute::SharedMemoryPerBlock)
        ),
        format!(
            "  Total shared memory per multiprocessor:        {} bytes",
            a(Attribute::SharedMemoryPerMultiprocessor)
        ),
        format!(
            "  Total number of registers available per block: {}",
            a(Attribute::RegistersPerBlock)
        ),
        format!(
            "  Warp size:                                     {}",
            a(Attribute::WarpSize)
        ),
        format!(
            "  Maximum number of threads per multiprocessor:  {}",
            a(Attribute::MaxThreadsPerMultiprocessor)
        ),
        format!(
            "  Maximum number of threads per block:           {}",
            a(Attribute::MaxThreadsPerBlock)
        ),
        format!(
            "  Max dimension size of a thread block (x,y,z): ({}, {}, {})",
            a(Attribute::MaxBlockDimX),
            a(Attribute::MaxBlockDimY),
            a(Attribute::MaxBlockDimZ)
        ),
        format!(
            "  Max dimension size of a grid size    (x,y,z): ({}, {}, {})",
            a(Attribute::MaxGridDimX),
            a(Attribute::MaxGridDimY),
            a(Attribute::MaxGridDimZ)
        ),
        format!(
            "  Maximum memory pitch:                          {} bytes",
            a(Attribute::MaxPitch)
        ),
        format!(
            "  Texture alignment:                             {} bytes",
            a(Attribute::TextureAlignment)
        ),
        format!(
            "  Concurrent copy and kernel execution:          {} with {} copy engine(s)",
            yes(Attribute::GpuOverlap),
            a(Attribute::AsyncEngineCount)
        ),
        format!(
            "  Run time limit on kernels:                     {}",
            yes(Attribute::KernelExecTimeout)
        ),
        format!(
            "  Integrated GPU sharing Host Memory:            {}",
            yes(Attribute::Integrated)
        ),
        format!(
            "  Support host page-locked memory mapping:       {}",
            yes(Attribute::CanMapHostMemory)
        ),
        format!(
            "  Alignment requirement for Surfaces:            {}",
            yes(Attribute::SurfaceAlignment)
        ),
        format!(
            "  Device has ECC support:                        {}",
            if a(Attribute::EccEnabled) != 0 {
                "Enabled"
            } else {
                "Disabled"
            }
        ),
        format!(
            "  Device supports Unified Addressing (UVA):      {}",
            yes(Attribute::UnifiedAddressing)
        ),
        format!(
            "  Device supports Managed Memory:                {}",
            yes(Attribute::ManagedMemory)
        ),
        format!(
            "  Device supports Compute Preemption:            {}",
            yes(Attribute::ComputePreemptionSupported)
        ),
        format!(
            "  Supports Cooperative Kernel Launch:            {}",
            yes(Attribute::CooperativeLaunch)
        ),
        format!(
            "  Supports MultiDevice Co-op Kernel Launch:      {}",
            yes(Attribute::CooperativeMultiDeviceLaunch)
        ),
        format!(
            "  Device PCI Domain ID / Bus ID / location ID:   {} / {} / {}",
            a(Attribute::PciDomainId),
            a(Attribute::PciBusId),
            a(Attribute::PciDeviceId)
        ),
        "  Compute Mode:".into(),
        "     < Default (multiple host threads can use ::cudaSetDevice() with device simultaneously) >"
            .into(),
    ]
}

/// cuda-samples deviceQuery on two devices: every property it prints equals the machine's device configuration
/// (the default profile; PCI bus = ordinal + 1), the peer-access lines, the versions 12.8 / 12.8 and "Result =
/// PASS".
#[test]
fn cuda_samples_device_query_prints_the_configuration() {
    let machine = streamsim::Machine::builder().devices(2).build().unwrap();
    for out in build_and_run(
        "cuda_sample_device_query",
        "cuda_sample_device_query",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert!(out.contains("Detected 2 CUDA Capable device(s)"), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        for dev in 0..2 {
            let cfg = machine.device_config(dev).unwrap();
            let expected = device_query_lines(dev, cfg);
            let at = lines
                .iter()
                .position(|l| *l == expected[0])
                .unwrap_or_else(|| panic!("no {:?} in\n{out}", expected[0]));
            assert_eq!(
                &lines[at..at + expected.len()],
                &expected.iter().map(String::as_str).collect::<Vec<_>>()[..],
                "device {dev}"
            );
        }
        for line in [
            "> Peer access from streamsim device (GPU0) -> streamsim device (GPU1) : Yes",
            "> Peer access from streamsim device (GPU1) -> streamsim device (GPU0) : Yes",
            "deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = 12.8, CUDA Runtime Version = 12.8, NumDevs = 2",
            "Result = PASS",
        ] {
            assert!(lines.contains(&line), "{line:?} missing from\n{out}");
        }
    }
}

/// Virtual nanoseconds of a copy of `bytes` over `path` with the default cost model.
fn copy_ns(path: CopyPath, bytes: u64) -> u64 {
    CostModel::default().copy_nanos(path, bytes)
}

/// `ns` as the samples print milliseconds (`%.2f` of a float).
fn ms2(ns: u64) -> String {
    format!("{:.2}", (ns as f64 / 1e6) as f32)
}

fn expect_exit(o: &Output, code: i32, what: &str) -> String {
    let out = stdout(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{what}: {}\nstdout:\n{out}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// cuda-samples asyncAPI: cudaGetDeviceProperties, cudaMallocHost, events, cudaProfilerStart/Stop around the
/// asynchronous work, then the CPU spins on cudaEventQuery. In virtual time: the GPU time is 1 µs (from the start
/// record to the first copy) + the 64 MiB H2D copy + the 150 µs kernel stand-in + the D2H copy, and the spin
/// counts one iteration per 1 µs query until the stop record's time (it begins 3 µs after that record's call
/// time and the first query is 1 µs later). The kernel adds `value` (26) to each of the 16 M elements, so
/// correct_output finds every one equal to 26: the sample prints no "Error!" line (its whole output is
/// checked) and exits with EXIT_SUCCESS, which is all the original prints or returns on success.
#[test]
fn cuda_samples_async_api() {
    let bytes = 64 << 20;
    let gpu = 1_000
        + copy_ns(CopyPath::HostToDevice, bytes)
        + 150_000
        + copy_ns(CopyPath::DeviceToHost, bytes);
    let iterations = (gpu - 3_000).div_ceil(1_000) - 1;
    for o in build_and_run_any("cuda_sample_async_api", &[], &[]) {
        let out = expect_exit(&o, 0, "asyncAPI (correct_output)");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        // argv[0] and the wall-clock stopwatch vary; every other line is exact.
        assert!(
            lines[0].starts_with('[') && lines[0].ends_with("] - Starting..."),
            "{out}"
        );
        assert!(
            lines[5].starts_with("time spent by CPU in CUDA calls: "),
            "{out}"
        );
        let gpu_line = format!("time spent executing by the GPU: {}", ms2(gpu));
        let spin_line =
            format!("CPU executed {iterations} iterations while waiting for GPU to finish");
        assert_eq!(
            [lines[1], lines[2], lines[3], lines[4], lines[6]],
            [
                "GPU Device 0: \"Ampere\" with compute capability 8.0",
                "",
                "CUDA device [streamsim device]",
                gpu_line.as_str(),
                spin_line.as_str(),
            ],
            "{out}"
        );
    }
}

/// cuda-samples simpleStreams (default options: mmap + cudaHostRegister(cudaHostRegisterMapped),
/// cudaSetDeviceFlags(cudaDeviceScheduleAuto | cudaDeviceMapHost), 4 streams, 100 reps). Virtual times from the
/// cost model: memcopy = 1 µs + the 64 MiB D2H copy; kernel = 1 µs + the 16 M-element stand-in (100 ps per
/// element); non-streamed = (1 µs + 100 × (kernel + copy) + 100 × 3 µs of calls and launch latency) / 100;
/// 4 streams, with the engine model (docs/semantics/engine-model.md): the start event is recorded at h + 2 µs
/// (h: its call), stream i's first kernel runs from h + (3 + i) µs (its call, h + (1 + i) µs, plus the launch
/// latency), the four kernels overlapping; the device-to-host copies of all four streams share the device's one
/// D2H copy engine, so they run one after the other from the first kernel's end, h + 3 µs + quarter kernel,
/// without a gap (each later kernel, a quarter kernel after its stream's copy, ends well before the copy engine
/// is free again: a quarter kernel is less than 3 quarter copies), and the 400th copy ends at
/// h + 3 µs + quarter kernel + 400 quarter copies, where the stop event (legacy stream) is recorded:
/// 4 streams = (1 µs + a quarter kernel + 400 × a quarter copy) / 100 (copies into registered memory do not
/// block the host). With the engine model off, the streams overlapped fully:
/// (4 µs + 100 × (a quarter kernel + a quarter copy)) / 100. The kernels add `*factor` (5)
/// `niterations` (5) times per launch: after the streamed part (the device memory set to 0, then 100 rounds
/// of a kernel and a copy per quarter) every element is 5 × 100 × 5 = 2500, so correct_data prints no mismatch
/// (the separator is the last line) and the sample exits with EXIT_SUCCESS, which is all the original prints or
/// returns on success. The suite's slowest test: the bodies really add 5 × 16 M elements 200 times per build
/// (about 5 s of host CPU per build under `cargo test`'s unoptimised library).
#[test]
fn cuda_samples_simple_streams() {
    let (n, bytes) = (16u64 << 20, 64u64 << 20);
    let kernel = |elements: u64| elements * 100 / 1000;
    let copy = copy_ns(CopyPath::DeviceToHost, bytes);
    let quarter = copy_ns(CopyPath::DeviceToHost, bytes / 4);
    let non_streamed = (1_000 + 100 * (kernel(n) + copy) + 300_000) / 100;
    let streamed = (1_000 + kernel(n / 4) + 400 * quarter) / 100;
    for o in build_and_run_any("cuda_sample_simple_streams", &[], &[]) {
        let out = expect_exit(&o, 0, "simpleStreams (correct_data)");
        for line in [
            "Device: <streamsim device> canMapHostMemory: Yes".to_string(),
            "> CUDA Capable: SM 8.0 hardware".to_string(),
            "> 108 Multiprocessor(s) x 64 (Cores/Multiprocessor) = 6912 (Cores)".to_string(),
            "> array_size   = 16777216".to_string(),
            "> Using CPU/GPU Device Synchronization method (cudaDeviceScheduleAuto)".to_string(),
            "> cudaHostRegister() registering 64.00 Mbytes of generic allocated system memory"
                .to_string(),
            format!("memcopy:\t{}", ms2(1_000 + copy)),
            format!("kernel:\t\t{}", ms2(1_000 + kernel(n))),
            format!("non-streamed:\t{}", ms2(non_streamed)),
            format!("4 streams:\t{}", ms2(streamed)),
        ] {
            assert!(out.lines().any(|l| l == line), "{line:?} missing:\n{out}");
        }
        let streamed_line = format!("4 streams:\t{}", ms2(streamed));
        let tail: Vec<&str> = out.lines().rev().take(2).collect();
        assert_eq!(
            tail,
            ["-------------------------------", streamed_line.as_str()],
            "correct_data printed a mismatch:\n{out}"
        );
    }
}

/// cuda-samples simpleHyperQ: 32 streams, each kernel_A then kernel_B of 10 ms (the clock ticks at the device's
/// 1410 MHz), the stop event on the legacy stream: the 32 streams' kernels fit in the device's 128 kernel slots
/// (the engine model, docs/semantics/engine-model.md), so every stream runs concurrently and the measured time is
/// the fully concurrent 20 ms (plus 63 µs of launch offsets). Each kernel_A and kernel_B
/// stores the 14.1 M ticks it spun for, and sum adds the 64 of them into d_a[0], which the sample copies back:
/// a[0] >= total_clocks holds and the sample exits with EXIT_SUCCESS (the original prints nothing more on
/// success; its whole output is checked).
#[test]
fn cuda_samples_simple_hyperq() {
    for o in build_and_run_any("cuda_sample_simple_hyperq", &[], &[]) {
        let out = expect_exit(&o, 0, "simpleHyperQ (a[0] >= total_clocks)");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "starting hyperQ...",
                "GPU Device 0: \"Ampere\" with compute capability 8.0",
                "",
                "> Detected Compute SM 8.0 hardware with 108 multi-processors",
                "Expected time for serial execution of 32 sets of kernels is between approx. 0.330s and 0.640s",
                "Expected time for fully concurrent execution of 32 sets of kernels is approx. 0.020s",
                "Measured time for sample = 0.020s",
            ],
            "{out}"
        );
    }
}

/// cuda-samples simpleCallback on 2 devices: 8 CPU threads each set a device, create a stream, cudaMalloc and
/// cudaHostAlloc(cudaHostAllocPortable), copy, launch and add a CUDART_CB callback; each callback (run once, on
/// the stream's worker, with cudaSuccess) starts a postprocess thread that frees everything and signals the
/// barrier; all 8 finish. Each kernel increments its workload's elements (id + i becomes id + i + 1), so every
/// postprocess check holds and the sample prints "Success" and exits with EXIT_SUCCESS.
#[test]
fn cuda_samples_simple_callback() {
    for o in build_and_run_any(
        "cuda_sample_simple_callback",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        let out = expect_exit(&o, 0, "simpleCallback (the postprocess checks)");
        let expected = [
            "Starting simpleCallback",
            "Found 2 CUDA capable GPUs",
            "GPU[0] streamsim device supports SM 8.0, capable GPU Callback Functions",
            "GPU[1] streamsim device supports SM 8.0, capable GPU Callback Functions",
            "2 GPUs available to run Callback Functions",
            "Starting 8 heterogeneous computing workloads",
            "Total of 8 workloads finished:",
            "Success",
        ];
        assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
    }
}

/// hip-tests' host-memory unit tests in CUDA names on 2 devices (tests/c/hip_tests_host_memory.c):
/// hipHostRegister's Memcpy (register, copy, unregister at 128 offsets), SameChunkRepeat and
/// Chunks_SingleAttempt (a stand-in kernel increments the registered memory through its device pointer, which
/// is its host pointer), Perform_hipMemcpy, Flags, Negative (NULL, size 0, a size beyond the allocation → 1);
/// hipPointerGetAttributes' Basic, ClusterAlloc, TinyClusterAlloc, Negative and GpuIter; hipMemGetInfo's
/// FreeLessThanTotal. Every check of the originals passes.
#[test]
fn hip_tests_host_memory() {
    for o in build_and_run_any("hip_tests_host_memory", &[], &[("STREAMSIM_DEVICES", "2")]) {
        let out = expect_exit(&o, 0, "hip_tests_host_memory");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "hipHostRegister: ok",
                "hipPointerGetAttributes: ok",
                "hipMemGetInfo: ok"
            ]
        );
    }
}

/// The C++ API of cuda_runtime.h / musa_runtime.h (tests/c/cuda_cxx_overloads.c): cudaEventCreate(&e, flags),
/// cudaMallocHost(&p, size, flags), cudaMalloc / cudaMallocHost / cudaHostAlloc / cudaHostGetDevicePointer on
/// `T **`, the occupancy templates and cudaOccupancyMaxPotentialBlockSize (1024 threads, grid 160 on the default
/// profile; 64 threads with a limit of 100; 384 with 4 KiB of shared memory per warp), and a CUDART_CB callback.
/// As C11 the program checks the C calls only.
#[test]
fn cuda_cxx_overloads() {
    let outs = build_and_run_any("cuda_cxx_overloads", &[], &[]);
    assert_eq!(expect_exit(&outs[0], 0, "C11"), "c api: ok\n");
    assert_eq!(
        expect_exit(&outs[1], 0, "C++17"),
        "c api: ok\ncxx overloads: ok\n"
    );
}

/// managed-memory.md · the rows of allocation, free, prefetch and advice (both forms, the location passed by
/// value), range attributes, pointer attributes and stream association, through the C ABI, with the MUSA twins
/// (tests/c/managed_memory.c); as C++17 also cudaMallocManaged on `T **` with its default flags.
#[test]
fn managed_memory_from_c() {
    let outs = build_and_run_any("managed_memory", &[], &[]);
    assert_eq!(expect_exit(&outs[0], 0, "C11"), "c api: ok\n");
    assert_eq!(
        expect_exit(&outs[1], 0, "C++17"),
        "c api: ok\ncxx overloads: ok\n"
    );
}

/// engine-model.md · Copy engines · two host-to-device copies on two streams → one after the other;
/// · Turning it off: from C, `STREAMSIM_ENGINES=off` overlaps them (tests/c/copy_engines.c, times in its
/// comments): the start event at 11 µs, the copies 12..24 and 24..36 µs (off: 13..25), so 0.025 ms (off:
/// 0.014 ms); a kernel (41..61 µs) and a D2H copy on the other stream overlap either way: 0.021 ms.
#[test]
fn copy_engines_from_c_on_and_off() {
    for (setting, copies) in [("on", "0.025"), ("off", "0.014")] {
        for out in build_and_run(
            "copy_engines",
            "copy_engines",
            &[],
            &[("STREAMSIM_ENGINES", setting)],
        ) {
            assert_eq!(
                out.lines().collect::<Vec<_>>(),
                [
                    format!("two H2D copies on two streams: {copies} ms"),
                    "a kernel and a D2H copy on two streams: 0.021 ms".to_string(),
                ],
                "STREAMSIM_ENGINES={setting}"
            );
        }
    }
}

/// cuda-samples StreamPriorities (tests/c/cuda_sample_stream_priorities.c, at 1/64 of the original's sizes):
/// cudaDeviceGetStreamPriorityRange gives (0, -5) (cuda-musa.md · StreamCreateWithPriority), the two priority
/// streams each copy 4 MiB with two 2 MiB kernels, and the memcmp checks pass. The times follow
/// engine-model.md · Kernel slots (a kernel takes one slot whatever its grid): the start events are recorded at
/// a + 2 and a + 3 µs (a: the first record's call), the low stream's kernels run a + 4 .. a + 4 + 2K and the high
/// stream's a + 5 .. a + 5 + 2K (K = 512 Ki ints × 100 ps = 52.428 µs), each concurrently with the other
/// stream's, so both elapsed times are 2 µs + 2K = 0.107 ms. On a GPU the HI time is shorter (each kernel
/// fills the device); the original checks neither.
#[test]
fn cuda_samples_stream_priorities() {
    for o in build_and_run_any("cuda_sample_stream_priorities", &[], &[]) {
        let out = expect_exit(&o, 0, "StreamPriorities (memcmp checks)");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].starts_with("Starting [") && lines[0].ends_with("]..."),
            "{out}"
        );
        assert_eq!(
            lines[1..],
            [
                "GPU Device 0: \"Ampere\" with compute capability 8.0",
                "",
                "CUDA stream priority range: LOW: 0 to HIGH: -5",
                "elapsed time of kernels launched to LOW priority stream: 0.107 ms",
                "elapsed time of kernels launched to HI  priority stream: 0.107 ms",
            ],
            "{out}"
        );
    }
}
