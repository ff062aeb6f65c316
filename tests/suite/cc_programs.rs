//! Programs built by `streamsim cc` from their unmodified `.cu` sources, run with their kernels on the CPU:
//! streamsim's own checks (`tests/cu/streamsim/`) and NVIDIA's cuda-samples (`tests/cu/cuda-samples/`, byte
//! for byte as upstream; the commit is in its README). Each program must exit 0 and print what it prints when
//! it passes on a GPU. clang (17 or newer) must be installed: `.ci/run` installs Debian's `clang-19`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::c_programs::toolchain;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds `sources` (relative to the repository) with `streamsim cc` into `name`; the executable.
pub(crate) fn cc(name: &str, sources: &[&str], extra: &[&str]) -> PathBuf {
    let t = toolchain();
    let out = t.out_dir.join(format!("cc-{name}"));
    let output = Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .arg("cc")
        .args(extra)
        .args(sources.iter().map(|s| root().join(s)))
        .arg("-o")
        .arg(&out)
        .env("STREAMSIM_LIB", &t.lib_dir)
        .output()
        .expect("running streamsim cc");
    assert!(
        output.status.success(),
        "streamsim cc {name} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// Runs `exe` in its folder with `env`: (exit code, stdout, stderr).
pub(crate) fn run(exe: &Path, env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let o = crate::c_programs::run(exe, &[], env, Duration::from_secs(120));
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn kernels_run_on_the_cpu_with_the_vendors_answers() {
    let exe = cc("kernels", &["tests/cu/streamsim/kernels.cu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "saxpy: ok, 1024 threads\nblock_sum: ok\nwarp 0: sum 496, ballot 55555555\n\
         warp 1: sum 1520, ballot 55555555\nreverse: ok\ngraph: ok\nattributes: ok\nconfiguration: ok\nillegal address: ok\n"
    );
    // The fault's memcheck report names the kernel's thread, the address and the allocation (with the line of
    // the CHECK that wraps its cudaMalloc).
    assert_eq!(
        err,
        "streamsim: memcheck: kernel `poke`: invalid write of 4 bytes by block (0,0,0), thread (2,0,0) at \
         0xd0000000003310: 0 bytes after the end of allocation #4 (16 bytes at 0xd0000000003300, cudaMalloc at line \
         96 of kernels.cu)\n"
    );
    // Deterministic: the same output on a second run, and the same trace (virtual times included) when the
    // program runs itself again as a child (exit status 67 if the traces differ).
    let (code, again, err) = run(&exe, &[("STREAMSIM_CHECK_DETERMINISM", "1")]);
    assert_eq!(code, Some(0), "{again}{err}");
    assert_eq!(again, out);
}

/// `managed-memory.md` · the rows of `__managed__` variables, `cudaMallocManaged`, prefetch, advice, range
/// attributes, copies of any kind and the bad calls, through a program built by `streamsim cc`.
#[test]
fn managed_variables_and_allocations_are_shared_by_host_code_and_kernels() {
    let exe = cc("managed", &["tests/cu/streamsim/managed.cu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "concurrentManagedAccess 1\ntype 3, device 0, same pointers 1\nvariable type 3\n\
         data ok, counter 74, table[3] 2.5\npreferred location 0\nlast prefetch location -1\n\
         copied 1 4 0 0 3 108\nmanaged: ok\n"
    );
    assert!(err.is_empty(), "{err}");
}

/// kernels-on-the-cpu.md · cudaLaunchKernelExC: the config's dimensions and stream; Ignore, a 1×1×1 cluster and a
/// cooperative or non-cooperative launch run, every other attribute is 801 (nothing runs); NULL config or attrs
/// are 1.
#[test]
fn cuda_launch_kernel_ex_takes_its_config_and_refuses_what_it_does_not_simulate() {
    let exe = cc("launch_ex", &["tests/cu/streamsim/launch_ex.cu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "ex: 0\nnot cooperative: 0\ncooperative: 0\npriority: 801\ncluster of 2: 801\nno parameters: 0\n\
         NULL attrs: 1\nNULL config: 1\nlast error: 1\na: 0 30 60 ... 1890\n"
    );
    assert_eq!(err, "");
}

/// kernels-on-the-cpu.md · cooperative launches: `grid.sync()` waits for every block (each block reads what its
/// neighbour wrote before the barrier, three rounds), shared, dynamic shared and stack variables survive it,
/// `is_valid()`, `cudaLaunchKernelExC` with `cudaLaunchAttributeCooperative` 1, the largest co-resident grid
/// (864 blocks of 256 threads: 8 per multiprocessor × 108) and 720 one block past it, a captured cooperative
/// launch, a destroyed stream (400), a pointer that is not a kernel (98), a block of no threads (9), and
/// `grid.sync()` in a `<<<>>>` launch: 719, sticky, with its message.
#[test]
fn cooperative_launches_synchronize_the_grid() {
    let exe = cc("grid_sync", &["tests/cu/streamsim/grid_sync.cu"], &[]);
    let trace = toolchain().out_dir.join("grid_sync.trace.json");
    let trace_env = trace.to_str().expect("a UTF-8 path");
    let expected = "cooperative: 0\nsynchronize: 0\nblock 0 saw 603\nblock 1 saw 903\nblock 2 saw 703\n\
                    block 3 saw 503\nblock 4 saw 303\nis_valid cooperative: 1 1\nis_valid <<<>>>: 0 0\n\
                    ex cooperative: 0\nex: 96 threads arrived, block 0 saw 96 after the barrier\n\
                    864 blocks of 256: 0\n221184 threads arrived, block 0 saw 221184 after the barrier\n\
                    865 blocks of 256: 720\nlast error: 720, then 0\ncaptured: 0\n\
                    graph: 32 threads arrived, block 0 saw 32 after the barrier\ndestroyed stream: 400\n\
                    not a kernel: 98\nno threads: 9\n\
                    <<<>>> launch: 0\nsynchronize: 719 cudaErrorLaunchFailure\nafter: 719\n";
    let (code, out, err) = run(&exe, &[("STREAMSIM_TRACE", trace_env)]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, expected, "{err}");
    assert_eq!(err, "");
    let t = std::fs::read_to_string(&trace).expect("the trace");
    assert!(
        t.contains(
            "in `just_sync`: block (0,0,0), thread (0,0,0): grid.sync() in a kernel that was not launched \
             cooperatively (cudaLaunchCooperativeKernel, or cudaLaunchKernelExC with cudaLaunchAttributeCooperative)"
        ),
        "{t}"
    );
    // The same output under the serializing schedule and every sanitizer tool (none reports), and the same
    // trace, virtual times included, when the program runs itself again (exit status 67 if they differ).
    for env in [
        ("STREAMSIM_SCHEDULE", "serialize"),
        ("STREAMSIM_CHECK", "all"),
        ("STREAMSIM_CHECK_DETERMINISM", "1"),
    ] {
        let (code, again, err) = run(&exe, &[env]);
        assert_eq!(code, Some(0), "{env:?}: {again}{err}");
        assert_eq!(again, expected, "{env:?}: {err}");
        if env.0 == "STREAMSIM_CHECK" {
            assert_eq!(err, "", "{env:?}");
        }
    }
}

/// kernels-on-the-cpu.md · cooperative launches, MUSA's names: `musaLaunchCooperativeKernel`, `grid.sync()` and
/// `is_valid()` from `cooperative_groups.h` in a `.mu` file, 720 for a grid past what the device holds, 719 for
/// `grid.sync()` in a `<<<>>>` launch.
#[test]
fn musa_cooperative_launches_synchronize_the_grid() {
    let exe = cc("grid_sync_musa", &["tests/cu/streamsim/grid_sync.mu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "launch: 0\nsynchronize: 0\nseen: 2 3 1\n100000 blocks: 720, last error 720\n\
         <<<>>> launch: 719 musaErrorLaunchFailure\n"
    );
    assert_eq!(err, "");
}

/// kernels-on-the-cpu.md · cooperative launches: a block that exits while the others wait at the grid barrier
/// faults the kernel (719; on the device the grid would hang), a synccheck report under synccheck; a thread
/// that exits before it counts as arrived (as at `__syncthreads`) unless synccheck runs, which reports it; threads
/// of one block at the grid barrier and at a `__syncthreads` cannot go on (719, and a report under synccheck).
#[test]
fn a_grid_barrier_not_reached_by_the_whole_grid_is_divergence() {
    let exe = cc(
        "grid_sync_diverge",
        &["tests/cu/streamsim/grid_sync.cu"],
        &[],
    );
    let fault = "launch: 0\nsynchronize: 719 cudaErrorLaunchFailure\n";
    for (mode, checks, want_out, want_err) in [
        ("block-exits", None, fault, ""),
        (
            "block-exits",
            Some("synccheck"),
            fault,
            "streamsim: synccheck: kernel `diverge`: barrier divergence: block (0,0,0) waits at a grid.sync() \
             that block (1,0,0) does not reach (its threads exited)\n",
        ),
        (
            "thread-exits",
            None,
            "launch: 0\nsynchronize: 0 cudaSuccess\n9 threads arrived, block 0 saw 9 after the barrier\n",
            "",
        ),
        ("mixed", None, fault, ""),
        (
            "mixed",
            Some("synccheck"),
            fault,
            "streamsim: synccheck: kernel `mixed`: the threads of block (0,0,0) cannot go on: 3 at grid.sync(), 1 \
             at __syncthreads (barrier divergence)\n",
        ),
        (
            "thread-exits",
            Some("synccheck"),
            fault,
            "streamsim: synccheck: kernel `diverge`: barrier divergence in block (0,0,0): thread (0,0,0) waits \
             at a grid.sync() that thread (1,0,0) does not reach (it exited)\n",
        ),
    ] {
        let env: Vec<(&str, &str)> = checks.map(|c| ("STREAMSIM_CHECK", c)).into_iter().collect();
        let o = crate::c_programs::run(&exe, &[mode], &env, Duration::from_secs(120));
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{mode} {checks:?}: {out}{err}");
        assert_eq!(out, want_out, "{mode} {checks:?}: {err}");
        assert_eq!(err, want_err, "{mode} {checks:?}");
    }
}

#[test]
fn a_failing_device_assert_is_cuda_error_assert_and_sticks() {
    let exe = cc("assert", &["tests/cu/streamsim/assert.cu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "sync: 710 cudaErrorAssert\nafter: 710 cudaErrorAssert\n"
    );
    // CUDA's own message, for the first thread that failed (block 0, thread 3), from the source line.
    assert!(
        err.contains("assert.cu:6: void checked(const int *): block: [0,0,0], thread: [3,0,0] Assertion `*v > 0` failed."),
        "{err}"
    );
}

/// (sample folder, sources in it, a line it prints when it passes)
const SAMPLES: &[(&str, &[&str], &str)] = &[
    ("vectorAdd", &["vectorAdd.cu"], "Test PASSED"),
    (
        "simpleCallback",
        &["simpleCallback.cu", "multithreading.cpp"],
        "Success",
    ),
    ("simpleP2P", &["simpleP2P.cu"], "Test passed"),
    (
        "streamOrderedAllocation",
        &["streamOrderedAllocation.cu"],
        "streamOrderedAllocationPostSync PASSED",
    ),
    (
        "streamOrderedAllocationP2P",
        &["streamOrderedAllocationP2P.cu"],
        "PASSED",
    ),
    (
        "simpleAtomicIntrinsics",
        &[
            "simpleAtomicIntrinsics.cu",
            "simpleAtomicIntrinsics_cpu.cpp",
        ],
        "simpleAtomicIntrinsics completed, returned OK",
    ),
    (
        "simpleVoteIntrinsics",
        &["simpleVoteIntrinsics.cu"],
        "Shutting down...",
    ),
    (
        "simpleTemplates",
        &["simpleTemplates.cu"],
        "Test Results: 0 Failures",
    ),
    (
        "template",
        &["template.cu", "template_cpu.cpp"],
        "Processing time",
    ),
    (
        "simplePrintf",
        &["simplePrintf.cu"],
        "[3, 7]:\t\tValue is:10",
    ),
    ("asyncAPI", &["asyncAPI.cu"], "CPU executed"),
    (
        "simpleZeroCopy",
        &["simpleZeroCopy.cu"],
        "> Releasing CPU memory...",
    ),
    (
        "simpleMultiGPU",
        &["simpleMultiGPU.cu"],
        "Relative difference",
    ),
    (
        "scalarProd",
        &["scalarProd.cu", "scalarProd_cpu.cpp"],
        "Test passed",
    ),
    (
        "simpleAssert",
        &["simpleAssert.cu"],
        "Device assert failed as expected, CUDA error message is: device-side assert triggered",
    ),
    (
        "StreamPriorities",
        &["StreamPriorities.cu"],
        "elapsed time of kernels launched to HI  priority stream",
    ),
    (
        "simpleCooperativeGroups",
        &["simpleCooperativeGroups.cu"],
        "in this tiledPartition16 group is 120 (expected 120)",
    ),
    (
        "simpleHyperQ",
        &["simpleHyperQ.cu"],
        "Measured time for sample",
    ),
    (
        "simpleMultiCopy",
        &["simpleMultiCopy.cu"],
        "Overlapped using 4 streams",
    ),
    (
        "threadFenceReduction",
        &["threadFenceReduction.cu"],
        "GPU result = ",
    ),
    (
        "warpAggregatedAtomicsCG",
        &["warpAggregatedAtomicsCG.cu"],
        "Warp Aggregated Atomics PASSED",
    ),
    ("clock", &["clock.cu"], "Average clocks/block = "),
    (
        "shfl_scan",
        &["shfl_scan.cu"],
        "CPU verify result diff (GPUvsCPU) = 0",
    ),
    (
        "simpleIPC",
        &["simpleIPC.cu", "../Common/helper_multiprocess.cpp"],
        "Process 0 complete!",
    ),
    ("simpleOccupancy", &["simpleOccupancy.cu"], "Test PASSED"),
    // Managed memory: the host runs its atomics on it while the kernel runs its system-scope ones.
    (
        "systemWideAtomics",
        &["systemWideAtomics.cu"],
        "systemWideAtomics completed, returned OK",
    ),
    (
        "topologyQuery",
        &["topologyQuery.cu"],
        "GPU0 <-> GPU1:\n  * Atomic Supported: yes\n  * Perf Rank: 0",
    ),
    // A cooperative launch: grid.sync() between the solver's steps.
    (
        "conjugateGradientMultiBlockCG",
        &["conjugateGradientMultiBlockCG.cu"],
        "&&&& conjugateGradientMultiBlockCG PASSED",
    ),
    (
        "simpleCudaGraphs",
        &["simpleCudaGraphs.cu"],
        "Cloned Graph Output.. \n[cudaGraphsUsingStreamCapture] Host callback final reduced sum = 0.996214",
    ),
];

/// jacobiCudaGraphs passes its own check with each of its three methods (hand-built graph and
/// `cudaGraphExecKernelNodeSetParams`, capture and `cudaGraphExecUpdate`, no graph), but takes about two minutes
/// per method in a debug build (2954 iterations of a kernel whose barriers run its threads as fibers).
#[test]
#[ignore = "about two minutes per method in a debug build: run with --ignored"]
fn jacobi_cuda_graphs_passes_with_each_method() {
    let base = "tests/cu/cuda-samples/jacobiCudaGraphs";
    let include = root().join("tests/cu/cuda-samples/Common");
    let inc = format!("-I{}", include.display());
    let exe = cc(
        "jacobiCudaGraphs",
        &[&format!("{base}/jacobi.cu"), &format!("{base}/main.cpp")],
        &[&inc],
    );
    for method in ["0", "1", "2"] {
        let out = Command::new(&exe)
            .arg(format!("-gpumethod={method}"))
            .output()
            .expect("running jacobiCudaGraphs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("&&&& jacobiCudaGraphs PASSED"),
            "method {method}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// cuda-samples reductionMultiBlockCG, unmodified: a cooperative launch (`cudaLaunchCooperativeKernel`) whose
/// kernel sums its blocks' partial sums after `grid.sync()`, 100 times. Run with the sample's own flags for 2^20
/// elements and at most 16 blocks of 1024 threads (its default, 2^25 elements over 216 blocks, passes too but
/// takes over a minute: the ignored test below). It exits 0 when the GPU result is within its threshold of the
/// CPU's; the result is the same on every run (the blocks run in order), so it is checked exactly. Then again
/// smaller under `STREAMSIM_CHECK=all`: no report.
#[test]
fn cuda_samples_reduction_multi_block_cg() {
    let exe = reduction_multi_block_cg();
    let o = crate::c_programs::run(
        &exe,
        &["-n=1048576", "-maxblocks=16"],
        &[],
        Duration::from_secs(120),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("1048576 elements\nnumThreads: 1024\nnumBlocks: 16\n"),
        "{out}"
    );
    assert!(
        out.ends_with("GPU result = 0.062298238277\nCPU result = 0.062298242003\n"),
        "{out}"
    );
    // Under every sanitizer tool (smaller: 2^16 elements, 4 blocks): the same answer and no report.
    let o = crate::c_programs::run(
        &exe,
        &["-n=65536", "-maxblocks=4"],
        &[("STREAMSIM_CHECK", "all")],
        Duration::from_secs(120),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.ends_with("GPU result = 0.003899649251\nCPU result = 0.003899649251\n"),
        "{out}"
    );
    assert_eq!(err, "");
}

/// reductionMultiBlockCG with its defaults: 2^25 elements, 216 blocks of 1024 threads (2 per multiprocessor, as
/// the occupancy calls answer for 8 KiB of dynamic shared memory, × 108), each block set aside at the grid
/// barrier 100 times. About 75 s of CPU time with a debug build.
#[test]
#[ignore = "over a minute: run with --ignored"]
fn cuda_samples_reduction_multi_block_cg_at_its_default_size() {
    let exe = reduction_multi_block_cg();
    let o = crate::c_programs::run(&exe, &[], &[], Duration::from_secs(900));
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("33554432 elements\nnumThreads: 1024\nnumBlocks: 216\n"),
        "{out}"
    );
    assert!(
        out.ends_with("GPU result = 1.992401838303\nCPU result = 1.992401361465\n"),
        "{out}"
    );
}

fn reduction_multi_block_cg() -> PathBuf {
    let include = root().join("tests/cu/cuda-samples/Common");
    let inc = format!("-I{}", include.display());
    cc(
        "reductionMultiBlockCG",
        &["tests/cu/cuda-samples/reductionMultiBlockCG/reductionMultiBlockCG.cu"],
        &[&inc],
    )
}

#[test]
fn cuda_samples_build_unmodified_and_pass_their_own_checks() {
    let mut failed = Vec::new();
    for (dir, sources, pass) in SAMPLES {
        let base = format!("tests/cu/cuda-samples/{dir}");
        let srcs: Vec<String> = sources.iter().map(|s| format!("{base}/{s}")).collect();
        let srcs: Vec<&str> = srcs.iter().map(String::as_str).collect();
        let include = root().join("tests/cu/cuda-samples/Common");
        let inc = format!("-I{}", include.display());
        let exe = cc(dir, &srcs, &[&inc]);
        let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
        if code != Some(0) || !out.contains(pass) {
            failed.push(format!(
                "{dir}: exit {code:?}, wanted `{pass}`:\n{out}{err}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn seed_000_musa_events_run_as_written() {
    let exe = cc("seed000", &["tests/cu/seeds/seed000_events.mu"], &[]);
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    // §2.1's elapsed time: the record after a <<<1, 1>>> kernel (2 µs + 1 ns of the cost model) and a host
    // step of 1 µs, in virtual time: the same on every run.
    assert_eq!(
        out,
        "2.1: kernel took 0.003001 ms\n2.2: kernel ran after kernel2\n2.3 B: waited on A's event\n\
         2.3 A: process B is done\nseed 000: PASS\n"
    );
}

#[test]
fn seed_001_ascend_c_launches_run_as_written() {
    let exe = cc(
        "seed001",
        &["tests/cu/seeds/seed001_devices.cpp"],
        &["--dialect", "acl"],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
    assert_eq!(code, Some(0), "{out}{err}");
    let blocks: String = (0..8).map(|b| format!("block {b} of 8\n")).collect();
    assert_eq!(
        out,
        format!(
            "{blocks}{blocks}seed 001: the launch on another device's stream failed with 107003; PASS\n"
        )
    );
}

#[test]
fn a_kernel_spinning_on_another_streams_flag_finishes_under_every_schedule() {
    let exe = cc("spin", &["tests/cu/streamsim/spin.cu"], &[]);
    for schedule in ["concurrent", "serialize"] {
        let (code, out, err) = run(&exe, &[("STREAMSIM_SCHEDULE", schedule)]);
        assert_eq!(code, Some(0), "{schedule}: {out}{err}");
        assert_eq!(
            out, "synchronize: 0, the spinning kernel saw 7\n",
            "{schedule}: {err}"
        );
    }
}

#[test]
fn what_the_cpu_cannot_run_is_a_compile_error_that_names_it() {
    let t = toolchain();
    let src = t.out_dir.join("ptx.cu");
    std::fs::write(
        &src,
        "__global__ void lane(int *out) {\n    int l;\n    asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n    out[0] = l;\n}\nint main() { return 0; }\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .arg("cc")
        .arg(&src)
        .arg("-o")
        .arg(t.out_dir.join("ptx"))
        .env("STREAMSIM_LIB", &t.lib_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "device code uses what the CPU does not run: inline PTX assembly `mov.u32 $0, %laneid;`"
        ),
        "{err}"
    );
    // An option nvcc does not have: exit status 2 and the usage.
    let out = Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .args(["cc", "--frobnicate", "x.cu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("streamsim cc: unknown option `--frobnicate`\nusage: streamsim cc"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The host pass runs beside the device side: an error both passes see is printed once (the device side's),
/// and an error only the host pass sees (code under `#ifndef __CUDA_ARCH__`) is printed too; either fails
/// the build with status 1.
#[test]
fn a_compile_error_is_printed_once_by_the_pass_that_finds_it() {
    let t = toolchain();
    let build = |name: &str, text: &str| {
        let src = t.out_dir.join(format!("{name}.cu"));
        std::fs::write(&src, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_streamsim"))
            .arg("cc")
            .arg(&src)
            .arg("-o")
            .arg(t.out_dir.join(name))
            .env("STREAMSIM_LIB", &t.lib_dir)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = build(
        "both_passes_error",
        "__global__ void k(int *p) { *p = 1; }\nint main() { undeclared_thing(); return 0; }\n",
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.matches("use of undeclared identifier 'undeclared_thing'")
            .count(),
        1,
        "{err}"
    );
    let (code, err) = build(
        "host_pass_error",
        "__global__ void k(int *p) { *p = 1; }\n#ifndef __CUDA_ARCH__\n#error only the host pass sees this\n#endif\nint main() { return 0; }\n",
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.matches("error: only the host pass sees this").count(),
        1,
        "{err}"
    );
}

/// hip-tests' child graph and clone tests (hipGraphChildGraphNodeGetGraph, hipGraphNodeFindInClone,
/// hipGraphExecChildGraphNodeSetParams), translated to CUDA names in `tests/c/hip_tests_graph_child.cu`: every
/// check passes, the embedded graph launched on its own copies the child's bytes.
#[test]
fn hip_tests_graph_child() {
    let exe = cc(
        "hip_tests_graph_child",
        &["tests/c/hip_tests_graph_child.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests graph child: all checks passed"),
        "{out}{err}"
    );
}

/// hip-tests' hipStreamBeginCaptureToGraph.cc, translated to CUDA names in `tests/c/hip_tests_capture_to_graph.cu`:
/// captures into hand-built graphs, their clones and child graph nodes' embedded graphs, the codes of the
/// negative sections, captures begun and ended on different threads, two threads capturing at once; every check
/// passes. The only reports are IndepGraphsThreads' frees after joining the threads that synchronized the
/// streams (a thread join is ordering the simulator does not see: stream-ordered-memory.md · Free).
#[test]
fn hip_tests_capture_to_graph() {
    let exe = cc(
        "hip_tests_capture_to_graph",
        &["tests/c/hip_tests_capture_to_graph.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests capture to graph: all checks passed"),
        "{out}{err}"
    );
    for line in err.lines().filter(|l| l.starts_with("streamsim:")) {
        assert!(line.starts_with("streamsim: use after free of "), "{err}");
    }
    for line in err.lines().filter(|l| l.starts_with("  second: ")) {
        assert!(line.contains("`free` on host thread 0"), "{err}");
    }
}

/// hip-tests' hipGraphExecUpdate.cc, translated to CUDA names in `tests/c/hip_tests_graph_exec_update.cu`, on two
/// devices (its multi-device case): the result codes and error nodes of every case, the kernel function changed
/// by an update running the new kernel; where hip-tests' NVIDIA branches and the Runtime API disagree (differing
/// node counts), the documented answers (graph-building.md · GraphExecUpdate, the Note row).
#[test]
fn hip_tests_graph_exec_update() {
    let exe = cc(
        "hip_tests_graph_exec_update",
        &["tests/c/hip_tests_graph_exec_update.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests graph exec update: all checks passed"),
        "{out}{err}"
    );
}

/// hip-tests' hipGraphAddChildGraphNode.cc, translated to CUDA names in `tests/c/hip_tests_graph_add_child.cu`, on
/// two devices: child graph nodes, a graph as its own child, clones, a 3-level nested graph changed through its
/// embedded graphs (a kernel's function and dimensions set, a node destroyed and replaced); every check passes.
/// The only reports are the data races of the graph that is its own child (its copies run unordered with the
/// originals, as on a GPU).
#[test]
fn hip_tests_graph_add_child() {
    let exe = cc(
        "hip_tests_graph_add_child",
        &["tests/c/hip_tests_graph_add_child.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests graph add child: all checks passed"),
        "{out}{err}"
    );
    for line in err.lines().filter(|l| l.starts_with("streamsim:")) {
        assert!(
            line.starts_with("streamsim: data race on 4096 bytes"),
            "{err}"
        );
    }
}

/// hip-tests' hipGraphClone.cc and hipGraphDestroyNode.cc, translated to CUDA names in
/// `tests/c/hip_tests_graph_clone_destroy.cu`, on two devices: clones launched and left unchanged by changes to
/// their originals, a clone made on another current device, nodes destroyed one by one (in a graph, through
/// cudaGraphNodeFindInClone in a clone, after a child graph node of the graph was destroyed); every check
/// passes. The only report is the race the upstream graph has (two unordered copies of C_d).
#[test]
fn hip_tests_graph_clone_destroy() {
    let exe = cc(
        "hip_tests_graph_clone_destroy",
        &["tests/c/hip_tests_graph_clone_destroy.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests graph clone and destroy node: all checks passed"),
        "{out}{err}"
    );
    let reports: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("streamsim:"))
        .collect();
    assert_eq!(
        reports,
        ["streamsim: data race on 4096 bytes at offset 0 of allocation #6 (device 0 memory)"],
        "{err}"
    );
}

/// hip-tests' hipGraphAddDependencies.cc, translated to CUDA names in
/// `tests/c/hip_tests_graph_add_dependencies.cu`: edges added one by one and as lists give the graph its
/// result; zero-count calls, and the codes of NULL arrays, foreign and dead nodes, an existing edge, a self edge;
/// every check passes, with no report.
#[test]
fn hip_tests_graph_add_dependencies() {
    let exe = cc(
        "hip_tests_graph_add_dependencies",
        &["tests/c/hip_tests_graph_add_dependencies.cu"],
        &[],
    );
    let (code, out, err) = run(&exe, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("hip-tests graph add dependencies: all checks passed"),
        "{out}{err}"
    );
    assert!(!err.contains("streamsim:"), "{err}");
}

/// graph-memory.md · the unmodified cuda-samples graphMemoryNodes: allocation and free nodes built by hand and
/// captured from `cudaMallocAsync` / `cudaFreeAsync`, allocations freed by `cudaFree`, `cudaFreeAsync` and another
/// graph. The sample ignores its own validation results (its exit status is 0 either way), so every one of its six
/// validations must print PASSED; and no race or lifetime report, under the default schedule and serialized.
#[test]
fn cuda_samples_graph_memory_nodes() {
    let base = "tests/cu/cuda-samples/graphMemoryNodes";
    let include = root().join("tests/cu/cuda-samples/Common");
    let inc = format!("-I{}", include.display());
    let exe = cc(
        "graphMemoryNodes",
        &[&format!("{base}/graphMemoryNodes.cu")],
        &[&inc, "-O2"],
    );
    let mut outputs = Vec::new();
    for schedule in ["concurrent", "serialize"] {
        let (code, out, err) = run(
            &exe,
            &[
                ("STREAMSIM_RACES", "fail"),
                ("STREAMSIM_SCHEDULE", schedule),
            ],
        );
        assert_eq!(code, Some(0), "{schedule}:\n{out}{err}");
        assert_eq!(
            out.matches("Validation PASSED!").count(),
            6,
            "{schedule}:\n{out}{err}"
        );
        assert!(!out.contains("FAILURE"), "{schedule}:\n{out}");
        assert!(
            out.ends_with("Cleanup complete. Exiting sample.\n"),
            "{out}"
        );
        outputs.push(out);
    }
    assert_eq!(outputs[0], outputs[1]);
}

/// graph-memory.md · hip-tests' graph memory node tests in CUDA names (tests/c/hip_tests_graph_mem.cu, built by
/// `streamsim cc`) on 2 devices: every check of the originals passes, with no race or lifetime report
#[test]
fn hip_tests_graph_memory_nodes() {
    let exe = cc(
        "hip_tests_graph_mem",
        &["tests/c/hip_tests_graph_mem.cu"],
        &[&format!("-I{}", root().join("tests/c").display()), "-O2"],
    );
    let (code, out, err) = run(
        &exe,
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "hip_tests_graph_mem: all passed\n", "{err}");
}

/// managed-memory.md · the unmodified cuda-samples UnifiedMemoryStreams, with its pthreads build (`-DUSE_PTHREADS`,
/// which the sample provides besides OpenMP) and a test stand-in for its five cuBLAS calls
/// (tests/cu/standins/cublas_v2.h: a dgemv kernel on the handle's stream): four host threads, 40 tasks of managed
/// memory attached to the host (`cudaMemAttachHost`) or to a thread's stream (`cudaMemAttachSingle`), run on the host
/// or the device. The sample checks nothing but its calls' codes: every call succeeds (checkCudaErrors exits
/// otherwise), every task runs, and there is no race report.
#[test]
fn cuda_samples_unified_memory_streams() {
    let base = "tests/cu/cuda-samples/UnifiedMemoryStreams";
    let common = format!(
        "-I{}",
        root().join("tests/cu/cuda-samples/Common").display()
    );
    let standins = format!("-I{}", root().join("tests/cu/standins").display());
    let exe = cc(
        "UnifiedMemoryStreams",
        &[&format!("{base}/UnifiedMemoryStreams.cu")],
        &[&standins, &common, "-DUSE_PTHREADS", "-O2"],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_RACES", "fail")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out.matches(" executing on ").count(), 40, "{out}");
    assert!(out.ends_with("All Done!\n"), "{out}{err}");
}

/// graph-memory.md · the unmodified cuda-samples graphMemoryFootprint prints the device's graph memory footprint
/// (`cudaGraphMemAttrUsedMemCurrent`) through four examples; its text says what CUDA does, and the footprints
/// follow it: none before a launch, a graph's memory reused by the same graph and by other graphs launched after it
/// in the same stream (64 MiB), concurrent graphs on separate streams growing it, unfreed allocations growing it and
/// kept by a trim, kept after their frees, dropped by the trim after. The exception is the first example: the
/// simulator does not reuse a freed allocation's address for a later allocation node of the same graph, so d_a and
/// d_b do not share an address and the footprint is both allocations' (128 MiB, CUDA: 64 MiB).
#[test]
fn cuda_samples_graph_memory_footprint() {
    let base = "tests/cu/cuda-samples/graphMemoryFootprint";
    let include = root().join("tests/cu/cuda-samples/Common");
    let exe = cc(
        "graphMemoryFootprint",
        &[&format!("{base}/graphMemoryFootprint.cu")],
        &[&format!("-I{}", include.display()), "-O2"],
    );
    let (code, out, err) = run(&exe, &[("STREAMSIM_RACES", "fail")]);
    assert_eq!(code, Some(0), "{out}{err}");
    let footprints: Vec<u64> = out
        .lines()
        .filter_map(|l| l.split("FOOTPRINT: ").nth(1))
        .map(|v| v.trim_end_matches(" bytes").parse().unwrap())
        .collect();
    let mib = |n: u64| n << 20;
    let mut want = vec![mib(128), 0, 0, mib(64), mib(64)];
    want.extend([mib(64); 7]);
    want.extend([0, 0]);
    want.extend((1..=7).map(|i| mib(64) * i));
    want.push(0);
    want.extend((1..=8).map(|i| mib(64) * i));
    want.extend([mib(512), mib(512), 0, 0]);
    assert_eq!(footprints, want, "{out}");
    assert!(out.contains("Check shows that d_a and d_b DO NOT share a virtual address."));
    assert!(out.contains("Check confirms all graphs use a different virtual address."));
    assert!(out.ends_with("Sample complete.\n"), "{out}");
}

/// sanitizer.md · synccheck · cuda-samples clock and shfl_scan reach every `__syncthreads` uniformly: no
/// barrier divergence under `STREAMSIM_CHECK=synccheck` (the CPU pass keeps the barrier convergent, so it is not
/// duplicated into the two paths of a branch, which gave threads of one source barrier two call sites)
#[test]
fn uniform_barriers_of_cuda_samples_are_not_divergence() {
    let include = root().join("tests/cu/cuda-samples/Common");
    let inc = format!("-I{}", include.display());
    for (dir, src, pass) in [
        ("clock", "clock.cu", "Average clocks/block"),
        (
            "shfl_scan",
            "shfl_scan.cu",
            "CheckSum: 2073600, (expect 1920x1080=2073600)",
        ),
    ] {
        let exe = cc(
            &format!("{dir}-synccheck"),
            &[&format!("tests/cu/cuda-samples/{dir}/{src}")],
            &[&inc],
        );
        let (code, out, err) = run(&exe, &[("STREAMSIM_CHECK", "synccheck")]);
        assert_eq!(code, Some(0), "{dir}:\n{out}{err}");
        assert!(out.contains(pass), "{dir}:\n{out}{err}");
        assert!(!err.contains("synccheck"), "{dir}:\n{err}");
    }
}

// ---- hip-tests' graph-building tests (issue 25, item 6) ----

/// Builds and runs one of the hip-tests graph ports under `STREAMSIM_RACES=fail` (the upstream tests are
/// race-free): exit status 0, the pass line with its count of test cases, and no report.
fn hip_tests_graph_port(name: &str, pass_line: &str) {
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(&exe, &[("STREAMSIM_RACES", "fail")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.ends_with(&format!("{pass_line}\n")), "{out}{err}");
    assert!(!err.contains("streamsim:"), "{err}");
}

/// hip-tests' hipGraphAddKernelNode.cc, hipGraphAddHostNode.cc and hipGraphAddEmptyNode.cc in CUDA names
/// (`tests/c/hip_tests_graph_add_nodes.cu`): the codes of the negative sections, host nodes run after their
/// copies (in a graph and in a clone), empty nodes as barriers between copies and kernels, 50 launches.
#[test]
fn hip_tests_graph_add_nodes() {
    hip_tests_graph_port(
        "hip_tests_graph_add_nodes",
        "hip-tests graph add nodes: 8 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphGetNodes.cc, GetRootNodes.cc, GetEdges.cc, NodeGetDependencies.cc, NodeGetDependentNodes.cc
/// and RemoveDependencies.cc in CUDA names (`tests/c/hip_tests_graph_queries.cu`): node, root, edge, dependency
/// and dependent lists of built and captured graphs with arrays shorter, equal and longer than the lists (the
/// rest set to NULL), edges removed one by one and as lists (a kernel's inputs changed by it), and the codes of
/// NULL and uninitialized arguments, foreign nodes, missing and already removed edges.
#[test]
fn hip_tests_graph_queries() {
    hip_tests_graph_port(
        "hip_tests_graph_queries",
        "hip-tests graph queries: 18 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphAddEventRecordNode.cc and hipGraphAddEventWaitNode.cc in CUDA names
/// (`tests/c/hip_tests_graph_event_nodes.cu`): event record nodes around a graph's work (synchronized on, timed),
/// a wait node ordering a second graph after the first on another stream and on the same one, 100 launches, and
/// the codes of the negative sections (NULL and uninitialized arguments, foreign, missing and duplicate
/// dependencies).
#[test]
fn hip_tests_graph_event_nodes() {
    hip_tests_graph_port(
        "hip_tests_graph_event_nodes",
        "hip-tests graph event nodes: 15 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphInstantiateWithFlags.cc in CUDA names (`tests/c/hip_tests_graph_instantiate_with_flags.cu`),
/// on two devices: built and captured graphs instantiated and launched from the device they were made on and from
/// its peer, a graph whose allocation node is never freed relaunched with AutoFreeOnLaunch (the graph memory in use
/// and reserved unchanged by relaunches), and the codes of NULL arguments and a flag not accepted.
#[test]
fn hip_tests_graph_instantiate_with_flags() {
    let name = "hip_tests_graph_instantiate_with_flags";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(
        &exe,
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("hip-tests graph instantiate with flags: 6 test cases, 0 skipped: PASSED\n"),
        "{out}{err}"
    );
    assert!(!err.contains("streamsim:"), "{err}");
}

/// hip-tests' hipGraphAddMemsetNode.cc and hipGraphExecMemsetNodeSetParams.cc in CUDA names
/// (`tests/c/hip_tests_graph_memset_node.cu`), on two devices: memset nodes of 1-, 2- and 4-byte elements over 9
/// pitched shapes, of pitched, 3-D, linear and managed memory (graph-building.md · GraphAddMemsetNode, managed
/// memory), copied back by 3-D memcpy nodes; 1-D memsets of executable graphs changed (the graph's node unchanged);
/// the codes of the negative sections (a destination on another device, a 2-D memset's width changed).
#[test]
fn hip_tests_graph_memset_node() {
    let name = "hip_tests_graph_memset_node";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(
        &exe,
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("hip-tests graph memset node: 11 test cases, 0 skipped: PASSED\n"),
        "{out}{err}"
    );
    assert!(!err.contains("streamsim:"), "{err}");
}

/// hip-tests' hipGraphExecEventRecordNodeSetEvent.cc, ExecEventWaitNodeSetEvent.cc, ExecHostNodeSetParams.cc,
/// ExecKernelNodeSetParams.cc and ExecDestroy.cc in CUDA names (`tests/c/hip_tests_graph_exec_set_params.cu`), on
/// two devices: events, host functions and kernels changed in executable graphs (the graphs' nodes unchanged), an
/// event of another device, and the codes of the negative sections. The only report is the race the upstream
/// clone has (its copies into and out of C_d unordered).
#[test]
fn hip_tests_graph_exec_set_params() {
    let name = "hip_tests_graph_exec_set_params";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "2")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("hip-tests graph exec set params: 14 test cases, 0 skipped: PASSED\n"),
        "{out}{err}"
    );
    let reports: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("streamsim:"))
        .collect();
    assert_eq!(
        reports,
        ["streamsim: data race on 4096 bytes at offset 0 of allocation #38 (device 0 memory)"],
        "{err}"
    );
}

/// hip-tests' hipGraphAddMemcpyNode.cc, hipGraphAddMemcpyNode1D.cc, hipGraphExecMemcpyNodeSetParams1D.cc and
/// hipGraphExecMemcpyNodeSetParams.cc in CUDA names (`tests/c/hip_tests_graph_memcpy_nodes.cu`), on two devices:
/// 3-D and 1-D copy nodes (and copies changed in executable graphs) between pageable, pinned (every cudaHostAlloc
/// flag), pitched and device memory of both devices, with and without peer access, with explicit kinds and
/// cudaMemcpyDefault, their parameters read back; the codes of the negative sections, where a pitch shorter than
/// the width and a change of the kind to cudaMemcpyDefault keep the documented answers (graph-building.md, the
/// Note rows). The two CUDA-array sections are skipped (no CUDA arrays).
#[test]
fn hip_tests_graph_memcpy_nodes() {
    let name = "hip_tests_graph_memcpy_nodes";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(
        &exe,
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.ends_with("hip-tests graph memcpy nodes: 10 test cases, 2 skipped: PASSED\n"),
        "{out}{err}"
    );
    assert!(
        out.contains("  skipped: Array from/to Host: CUDA arrays are not simulated\n"),
        "{out}"
    );
    assert!(!err.contains("streamsim:"), "{err}");
}

// ---- hip-tests graph ports, second batch (graph-building.md · sources [hip-tests]) ----

/// Runs a hip-tests graph port on two devices (races fail the run) and checks its pass line.
fn hip_tests_graph_port_2dev(name: &str, pass_line: &str) {
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &[]);
    let (code, out, err) = run(
        &exe,
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.ends_with(&format!("{pass_line}\n")), "{out}{err}");
    assert!(!err.contains("streamsim:"), "{err}");
}

/// hip-tests' hipGraphNodeSetEnabled.cc, hipGraphNodeGetEnabled.cc, hipGraphUpload.cc and
/// hipGraphInstantiateWithParams.cc in CUDA names (`tests/c/hip_tests_graph_misc.cu`), on two devices: kernel,
/// memset and memcpy nodes disabled and enabled again (in a graph and its clone, the results checked), the other
/// node types refused; uploads into created, legacy, per-thread and higher-priority streams and into a stream of
/// the other device (graph-building.md · GraphUpload); instantiation with params of built and captured graphs;
/// the codes of NULL, uninitialized, foreign, destroyed and not-yet-instantiated arguments.
#[test]
fn hip_tests_graph_misc() {
    hip_tests_graph_port_2dev(
        "hip_tests_graph_misc",
        "hip-tests graph misc: 14 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphKernelNodeGetParams.cc / SetParams.cc, hipGraphHostNodeGetParams.cc / SetParams.cc,
/// hipGraphEventRecordNodeGetEvent.cc / SetEvent.cc, hipGraphEventWaitNodeGetEvent.cc / SetEvent.cc,
/// hipGraphMemsetNodeGetParams.cc, hipGraphMemcpyNodeGetParams.cc and hipGraphMemsetNodeSetParams.cc in CUDA names
/// (`tests/c/hip_tests_graph_params.cu`): node parameters read back after adding and setting them (the kernel's
/// arguments from the `extra` block, graph-building.md · GraphKernelNodeGetParams), set parameters taking effect
/// at the next instantiation (in graphs and clones) and not in an executable graph made before (an event record
/// node's event); memset nodes set to 9 pitched shapes of 1-, 2- and 4-byte elements; events swapped in
/// record and wait nodes (timing events and events without timing); the codes of NULL arguments, nodes of another
/// type and destroyed nodes.
#[test]
fn hip_tests_graph_params() {
    hip_tests_graph_port_2dev(
        "hip_tests_graph_params",
        "hip-tests graph params: 26 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphNodeGetType.cc, hipGraphCreate.cc, hipGraphDestroy.cc, hipGraphInstantiate.cc and
/// hipGraphCycle.cc in CUDA names (`tests/c/hip_tests_graph_lifecycle.cu`): the type of every kind of node (memcpy
/// nodes to and from a `__constant__` variable among them: graph-building.md · GraphAddMemcpyNodeToSymbol), in
/// clones, child graphs and another thread; graphs created, instantiated ten times and destroyed; edges that close
/// a cycle accepted and the graph refused by every instantiation (also its clone and a parent of it) until an edge
/// is removed (graph-building.md · GraphAddDependencies, GraphInstantiate); the codes of NULL and bad arguments.
#[test]
fn hip_tests_graph_lifecycle() {
    hip_tests_graph_port_2dev(
        "hip_tests_graph_lifecycle",
        "hip-tests graph lifecycle: 20 test cases, 0 skipped: PASSED",
    );
}

/// hip-tests' hipGraphMemcpyNodeSetParams1D.cc, hipGraphMemcpyNodeSetParams.cc and hipGraphAddNode.cc in CUDA names
/// (`tests/c/hip_tests_graph_memcpy_params.cu`), on two devices: a memcpy node's parameters set to each direction
/// (1D, and 3D between pitched device memory and host memory; device to device with and without peer access) and
/// the copies checked after a launch; memset, kernel, host, child graph, memcpy, event record / wait and memory
/// allocation / free nodes made by cudaGraphAddNode and run; the codes of NULL, out-of-range and wrong-kind
/// parameters (the pitch shorter than the width answered as graph-building.md · GraphAddMemcpyNode's Note row).
/// The four CUDA-array sections are skipped (no CUDA arrays).
#[test]
fn hip_tests_graph_memcpy_params() {
    hip_tests_graph_port_2dev(
        "hip_tests_graph_memcpy_params",
        "hip-tests graph memcpy params: 13 test cases, 4 skipped: PASSED",
    );
}

// ---- hip-tests' pitched-memory tests (issue 25, items 2 and 6) ----

/// pitched-memory.md · hip-tests' hipMallocPitch.cc, hipMalloc3D.cc, hipMemcpy2D.cc, hipMemcpy2DAsync.cc,
/// hipMemcpy3D.cc and hipMemcpy3DAsync.cc in CUDA names (`tests/c/hip_tests_pitched.cu`), on one device (on two,
/// upstream's asynchronous device-to-device shell fills the source with a kernel on the source device's legacy
/// stream and copies on a stream of device 0, unordered when the source is device 1: a race on two GPUs too, which
/// the race detector does not see yet (it does not compare kernels' accesses with copies), so the check that follows
/// is not deterministic there):
/// pitches of 47 random and zero extents validated by 3-D memsets and copies, allocations of 100 chunks from a thread
/// per device, 2-D and 3-D copies of every direction and kind on the legacy, per-thread and created streams (on one
/// device, between two with and without peer access, pageable and pinned host memory), which copies make the host wait,
/// zero widths and heights, a captured 2-D copy to pageable memory, and the codes of NULL pointers, pitches below the
/// width and above `cudaDevAttrMaxPitch`, positions outside the pitch and the slices, a bad kind, a destroyed stream
/// (400, cuda-musa.md); a 3-D device-to-device copy that leaves the host free while a blocked callback holds the legacy
/// stream. The CUDA-array sections are skipped (4). The only reports are the frees upstream makes while its copies are
/// still queued behind a delay kernel (stream-ordered-memory.md · Free of Malloc memory): a synchronous 2-D
/// device-to-device copy, and asynchronous 2-D and 3-D host-to-device and device-to-device ones.
#[test]
fn hip_tests_pitched_memory() {
    let name = "hip_tests_pitched";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &["-O2"]);
    let k = 4096;
    let (skipped, freed) = (
        4,
        [
            (1274, k),
            (1273, k),
            (1351, k),
            (1354, k),
            (1530, 8 * k),
            (1533, 8 * k),
        ],
    );
    {
        let (code, out, err) = run(&exe, &[("STREAMSIM_DEVICES", "1")]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(
            out.ends_with(&format!(
                "hip-tests pitched memory: 43 test cases, {skipped} skipped: PASSED\n"
            )),
            "{out}{err}"
        );
        let reports: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("streamsim:"))
            .collect();
        let uaf = freed.map(|(n, bytes)| {
            format!("streamsim: use after free of {bytes} bytes at offset 0 of allocation #{n} (device 0 memory)")
        });
        assert_eq!(reports, uaf, "{err}");
    }
}

/// pitched-memory.md · Memsets, Capture · hip-tests' hipMemset2D.cc, hipMemset3D.cc,
/// hipMemset2DAsyncMultiThreadAndKernel.cc and hipMemset3DRegressMultiThread.cc in CUDA names (`tests/c/hip_tests_pitched_memset.cu`): 2-D and 3-D
/// memsets, synchronous and on a stream, of whole and partial shapes (zero widths and heights included), captured
/// into graphs of 9 and 27 shapes, after kernels on created and per-thread streams, queued from 2 and 10 host threads
/// on one stream, and (on two devices) into a peer's memory, read back by 2-D and 3-D copies to pageable memory, on
/// one device and on two; no race or lifetime report.
#[test]
fn hip_tests_pitched_memsets() {
    let name = "hip_tests_pitched_memset";
    let exe = cc(name, &[&format!("tests/c/{name}.cu")], &["-O2"]);
    for devices in ["1", "2"] {
        let (code, out, err) = run(
            &exe,
            &[("STREAMSIM_DEVICES", devices), ("STREAMSIM_RACES", "fail")],
        );
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(
            out.ends_with("hip-tests pitched memsets: 12 test cases, 0 skipped: PASSED\n"),
            "{out}{err}"
        );
        assert!(!err.contains("streamsim:"), "{err}");
    }
}

/// Kernels with barriers and warp functions run as region loops (the kernel cut at each barrier, not fibers):
/// `STREAMSIM_REGIONS=report` says so for each kernel, and what they print is what fibers print — fibers as
/// `STREAMSIM_REGIONS=off` forces them for every kernel (divergent barrier sites, an early return), and as
/// synccheck, which needs them, for the kernels it accepts (`__syncthreads_count/and/or`, shuffles, a barrier
/// in a loop, a by-value struct and a local array across a barrier). A fault after a barrier ends the launch
/// as it does with fibers.
#[test]
fn kernels_with_barriers_run_as_region_loops_with_the_fibers_results() {
    let exe = cc("regions", &["tests/cu/streamsim/regions.cu"], &[]);
    let exe_with = |args: &[&str], env: &[(&str, &str)]| {
        let o = crate::c_programs::run(&exe, args, env, Duration::from_secs(120));
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, out, err) = exe_with(&[], &[("STREAMSIM_REGIONS", "report")]);
    assert_eq!(code, Some(0), "{out}{err}");
    for k in [
        "divergent_sites",
        "early_return",
        "count_and_or",
        "shuffle_reduce",
        "shuffle_kinds",
        "shuffle_partial",
        "clock_across",
        "by_value",
        "loop_barrier",
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(k) && l.ends_with("ran as region loops")),
            "{k} did not run as region loops:\n{err}"
        );
    }
    // Whole warps at one warp function with the full mask are released without the general scheduler (8
    // per block of shuffle_kinds: 5 shuffles and 3 votes; 6 per block of shuffle_reduce); shuffle_partial's
    // releases all need it.
    let fast = |k: &str| {
        err.lines()
            .find(|l| l.contains(k) && l.ends_with("at one warp function"))
            .unwrap_or_else(|| panic!("no count of {k}'s releases:\n{err}"))
            .to_string()
    };
    assert!(fast("shuffle_kinds").contains(": 32 releases"), "{err}");
    assert!(fast("shuffle_reduce").contains(": 48 releases"), "{err}");
    assert!(fast("shuffle_partial").contains(": 0 releases"), "{err}");
    let (code, fibers, ferr) = exe_with(&[], &[("STREAMSIM_REGIONS", "off")]);
    assert_eq!(code, Some(0), "{fibers}{ferr}");
    assert_eq!(out, fibers);
    assert!(out.contains("count/and/or: 3211 3211 3211"), "{out}");
    assert!(out.contains("loop: 154979792 (no error)"), "{out}");

    let (code, uniform, err) = exe_with(&["uniform"], &[("STREAMSIM_REGIONS", "report")]);
    assert_eq!(code, Some(0), "{uniform}{err}");
    assert!(err.contains("ran as region loops"), "{err}");
    let (code, checked, cerr) = exe_with(
        &["uniform"],
        &[
            ("STREAMSIM_CHECK", "synccheck"),
            ("STREAMSIM_REGIONS", "report"),
        ],
    );
    assert_eq!(code, Some(0), "{checked}{cerr}");
    assert!(
        !cerr.contains("region loops"),
        "synccheck must use fibers:\n{cerr}"
    );
    assert_eq!(uniform, checked);

    let (_, fault, ferr) = exe_with(&["fault"], &[("STREAMSIM_REGIONS", "report")]);
    let (_, fault_fibers, fferr) = exe_with(&["fault"], &[("STREAMSIM_REGIONS", "off")]);
    assert!(
        fault.contains("fault: an illegal memory access"),
        "{fault}{ferr}"
    );
    assert_eq!(fault, fault_fibers);
    assert_eq!(ferr, fferr);
}
