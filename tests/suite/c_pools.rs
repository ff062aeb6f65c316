//! C programs that use stream-ordered allocation and memory pools (`tests/c/`): ports of NVIDIA cuda-samples'
//! streamOrderedAllocation and of ROCm hip-tests' hipMallocAsync / hipMemPool tests (translated to CUDA names),
//! the caching-allocator program, and the ACL calls; each built as C11 and C++17 like those of `c_programs.rs`.
//! Rows: `docs/semantics/stream-ordered-memory.md`.

use std::time::Duration;

use std::process::Output;

use crate::c_programs::{Lang, build, run, toolchain};

const LIMIT: Duration = Duration::from_secs(120);

/// Builds `tests/c/<name>.c` as C11 and as C++17 (with libm; executables named after `label`) and runs each with
/// `args` and `env`; returns each one's output.
fn build_and_run_raw(
    name: &str,
    label: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Vec<(Lang, Output)> {
    let src = toolchain().c_dir.join(format!("{name}.c"));
    [Lang::C, Lang::Cxx]
        .into_iter()
        .map(|lang| {
            let exe = build(&src, label, lang, &["-lm"]);
            (lang, run(&exe, args, env, LIMIT))
        })
        .collect()
}

/// [`build_and_run_raw`] that checks each run exited 0; returns (stdout, stderr) of each.
fn build_and_run(name: &str, args: &[&str], env: &[(&str, &str)]) -> Vec<(String, String)> {
    let label = format!(
        "pools-{name}-{}-{}",
        args.join("-"),
        env.iter().map(|(_, v)| *v).collect::<Vec<_>>().join("-")
    );
    build_and_run_raw(name, &label, args, env)
        .into_iter()
        .map(|(lang, out)| {
            let (stdout, stderr) = (
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
            assert!(
                out.status.success(),
                "{name} ({lang:?}): {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                out.status
            );
            (stdout, stderr)
        })
        .collect()
}

/// cuda-samples streamOrderedAllocation, ported: both halves pass their own check of every element, with no
/// race or lifetime report (STREAMSIM_RACES=print writes none). The post-sync half's 20 iterations take
/// 18.089640 ms of virtual time: each is 904.432 µs — three allocations (1 µs each, the first 2 µs of launch
/// latency after the call), two 4 MiB host-to-device copies (2 µs + 4194304 B / 16 GB/s = 264.144 µs each), the
/// 100 µs kernel, two frees, the blocking 4 MiB copy back, then the last free (called 1 µs after the copy
/// returns, starting 2 µs later) that the synchronize waits for — plus 1 µs between the end event's record and
/// the last synchronize (the start event's record ends 2 µs after its call, the first allocation 3 µs).
#[test]
fn cuda_samples_stream_ordered_allocation() {
    for (out, err) in build_and_run("cuda_sample_stream_ordered_allocation", &[], &[]) {
        assert_eq!(
            out,
            "GPU Device 0: \"Ampere\" with compute capability 8.0\n\n\
             Starting basicStreamOrderedAllocation()\n\
             > Checking the results from vectorAddGPU() ...\n\
             basicStreamOrderedAllocation PASSED\n\
             Starting streamOrderedAllocationPostSync()\n\
             Total elapsed time = 18.089640 ms over 20 iterations\n\
             > Checking the results from vectorAddGPU() ...\n\
             streamOrderedAllocationPostSync PASSED\n"
        );
        assert_eq!(err, "", "{err}");
    }
}

/// hip-tests' hipMallocAsync / hipFreeAsync / hipMallocFromPoolAsync / hipMemPool* unit tests in CUDA names
/// (tests/c/hip_tests_mempool.c): every check of the originals passes — the exact codes of the negative tests, the
/// reuse on one stream, the counters, the opportunistic and event-dependency policies each way — with no race
/// or lifetime report.
#[test]
fn hip_tests_mempool() {
    for (out, err) in build_and_run("hip_tests_mempool", &[], &[]) {
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "MallocMemPoolAsync (OneAlloc, TwoAllocs, Reuse): ok",
                "hipMallocAsync, hipFreeAsync, hipMallocFromPoolAsync: ok",
                "hipMemPoolSetGetAttribute: ok",
                "hipMemPoolCreate, Destroy, TrimTo, hipDevice{Set,Get,GetDefault}MemPool: ok",
            ]
        );
        assert_eq!(err, "", "{err}");
    }
}

/// tests/c/pool_lifetimes.c, CUDA: with STREAMSIM_RACES=collect the program reads two reports through the C
/// toolkit — kind STREAMSIM_RACE_USE_BEFORE_ALLOC (first side the `alloc` operation `malloc_async`, second the
/// kernel `early` that writes without waiting; the text starts "use before allocation of 4096 bytes") and
/// STREAMSIM_RACE_USE_AFTER_FREE (the kernel `use`, then the `free_async` that does not wait for it) — and the
/// properly ordered reuse at the same address adds none. Rows: stream-ordered-memory.md · Lifetime.
#[test]
fn lifetimes_collect_cuda() {
    for (out, err) in build_and_run("pool_lifetimes", &[], &[("STREAMSIM_RACES", "collect")]) {
        assert_eq!(out, "lifetimes: 2 report(s)\n");
        assert_eq!(err, "", "{err}");
    }
}

/// The same with STREAMSIM_RACES=print: both reports are written to stderr as they are found, in the report's
/// Display form (the title line, both sides with their verbs "allocates" / "frees", the fix).
#[test]
fn lifetimes_print_cuda() {
    for (out, err) in build_and_run("pool_lifetimes", &[], &[("STREAMSIM_RACES", "print")]) {
        assert_eq!(out, "lifetimes: 2 report(s)\n");
        assert!(
            err.contains(
                "use before allocation of 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
                 first:  alloc `malloc_async` on stream `alloc` (device 0, process 0) allocates\n  \
                 second: kernel `early` on stream `use` (device 0, process 0) writes\n"
            ),
            "{err}"
        );
        assert!(err.contains("use after free of 4096 bytes"), "{err}");
        assert!(
            err.contains("second: free `free_async` on stream `alloc` (device 0, process 0) frees"),
            "{err}"
        );
    }
}

/// STREAMSIM_RACES=off: no lifetime check either — no report, nothing on stderr, and the same addresses (the
/// reuse `q == p` holds with the detector off: reuse depends on program order and virtual time only).
#[test]
fn lifetimes_off_cuda() {
    for (out, err) in build_and_run("pool_lifetimes", &[], &[("STREAMSIM_RACES", "off")]) {
        assert_eq!(out, "lifetimes: 0 report(s)\n");
        assert_eq!(err, "", "{err}");
    }
}

/// STREAMSIM_RACES=fail: both reports are printed as found, and the process ends with the race exit code, 66,
/// the last line counting them as lifetime errors.
#[test]
fn lifetimes_fail_cuda() {
    for (lang, out) in build_and_run_raw(
        "pool_lifetimes",
        "pools-lifetimes-fail",
        &[],
        &[("STREAMSIM_RACES", "fail")],
    ) {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(66), "{lang:?}: {err}");
        assert!(err.contains("use before allocation of 4096 bytes"), "{err}");
        assert!(err.contains("use after free of 4096 bytes"), "{err}");
        assert!(
            err.ends_with(
                "streamsim: 2 race reports, 2 of them lifetime errors, found (STREAMSIM_RACES=fail): \
                 exit status 66\n"
            ),
            "{err}"
        );
    }
}

/// tests/c/pool_lifetimes.c `acl`: the same two reports with aclrtMemPoolMallocAsync / aclrtMemPoolFreeAsync
/// on a pool of device 0 (the allocation is `malloc_from_pool_async`: ACL allocates from a pool the program
/// names), and the same reuse once the free is synchronized.
#[test]
fn lifetimes_collect_acl() {
    for (out, err) in build_and_run(
        "pool_lifetimes",
        &["acl"],
        &[("STREAMSIM_RACES", "collect")],
    ) {
        assert_eq!(out, "lifetimes: 2 report(s)\n");
        assert_eq!(err, "", "{err}");
    }
}

/// The CANN runtime's SOMA example (tests/c/cann_soma_sample.c): four allocations from a 14 GB pool on one
/// stream, the ArgsInfo copied to the device, the kernel computing 40 + 2 from it, four frees with no
/// synchronize before them, one aclrtSynchronizeStream; the counters (2 MiB per allocation, nothing reserved
/// after the synchronize at release threshold 0) and no report with the detector collecting.
#[test]
fn cann_soma_sample() {
    for (out, err) in build_and_run("cann_soma_sample", &[], &[("STREAMSIM_RACES", "collect")]) {
        assert_eq!(out, "add_custom: 40 + 2 = 42\n");
        assert_eq!(err, "", "{err}");
    }
}

/// `tests/c/pitched_copies.c`: pitched memory and pool access through the C library, every code exact
/// (`docs/semantics/pitched-memory.md`, `stream-ordered-memory.md` · Access from other devices), a 2-D copy's
/// events 3.063 µs apart, built as C11 and C++17.
#[test]
fn pitched_copies_and_pool_access_from_c() {
    for (out, err) in build_and_run("pitched_copies", &[], &[("STREAMSIM_DEVICES", "2")]) {
        assert_eq!(out, "pitched copies: ok\n", "{err}");
    }
}
