//! The sanitizer's verdicts on small buggy programs built by `streamsim cc` (`tests/cu/streamsim/sanitizer/`),
//! each with its correct twin (built with `-DCORRECT`), which gets none: under the default schedule and under
//! `STREAMSIM_SCHEDULE=serialize`, the same on every run. The semantics: `docs/semantics/sanitizer.md`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::c_programs::toolchain;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the corpus program `file` with `defines` (each `-D`) into `name`.
fn cc(name: &str, file: &str, defines: &[&str]) -> PathBuf {
    build(name, file, defines, false, &[])
}

/// [`cc`] with ACL's dialect (`--dialect acl`).
fn cc_acl(name: &str, file: &str, defines: &[&str]) -> PathBuf {
    build(name, file, defines, false, &["--dialect", "acl"])
}

/// [`cc`] with debug information (`-g`), so that reports name source lines.
fn cc_g(name: &str, file: &str, defines: &[&str]) -> PathBuf {
    build(name, file, defines, true, &[])
}

fn build(name: &str, file: &str, defines: &[&str], debug: bool, args: &[&str]) -> PathBuf {
    let t = toolchain();
    let out = t.out_dir.join(format!("sanitizer-{name}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_streamsim"));
    cmd.arg("cc").args(args);
    if debug {
        cmd.arg("-g");
    }
    for d in defines {
        cmd.arg("-D").arg(d);
    }
    let output = cmd
        .arg(root().join("tests/cu/streamsim/sanitizer").join(file))
        .arg("-o")
        .arg(&out)
        .env("STREAMSIM_LIB", &t.lib_dir)
        .output()
        .expect("running streamsim cc");
    assert!(
        output.status.success(),
        "streamsim cc {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// Runs `exe` with `env` under both schedules (twice under the default one): its exit code, stdout and
/// stderr, which must be the same every time.
fn verdict(exe: &Path, env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let once = |extra: &[(&str, &str)]| {
        let mut all = env.to_vec();
        all.extend_from_slice(extra);
        let o = crate::c_programs::run(exe, &[], &all, Duration::from_secs(120));
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let first = once(&[]);
    assert_eq!(once(&[]), first, "a second run differs");
    assert_eq!(
        once(&[("STREAMSIM_SCHEDULE", "serialize")]),
        first,
        "the serialize schedule differs"
    );
    first
}

const CLEAN: (Option<i32>, &str, &str) = (Some(0), "sync: 0 cudaSuccess\n", "");

fn as_ref(v: &(Option<i32>, String, String)) -> (Option<i32>, &str, &str) {
    (v.0, v.1.as_str(), v.2.as_str())
}

#[test]
fn out_of_bounds_by_one_is_700_with_a_memcheck_report() {
    let bad = verdict(&cc("oob", "out_of_bounds.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 700 cudaErrorIllegalAddress\n",
            "streamsim: memcheck: kernel `fill`: invalid write of 4 bytes by block (3,0,0), thread (232,0,0) at \
             0xd0000000000fa0: 0 bytes after the end of allocation #1 (4000 bytes at 0xd0000000000000, cudaMalloc at \
             line 28 of out_of_bounds.cu)\n"
        )
    );
    // Built without the call sites (as an nvcc or C-library build has none): the same report without the site.
    let plain = verdict(
        &cc(
            "oob-plain",
            "out_of_bounds.cu",
            &["STREAMSIM_CC_NO_CALL_SITES"],
        ),
        &[],
    );
    assert_eq!(
        plain.2,
        "streamsim: memcheck: kernel `fill`: invalid write of 4 bytes by block (3,0,0), thread (232,0,0) at \
         0xd0000000000fa0: 0 bytes after the end of allocation #1 (4000 bytes at 0xd0000000000000)\n"
    );
    // STREAMSIM_CHECK=off: the kernel still faults (the address has no bytes), without the report.
    let off = verdict(
        &cc("oob", "out_of_bounds.cu", &[]),
        &[("STREAMSIM_CHECK", "off")],
    );
    assert_eq!(
        as_ref(&off),
        (Some(0), "sync: 700 cudaErrorIllegalAddress\n", "")
    );
    // Every report counts for STREAMSIM_RACES=fail.
    let fail = verdict(
        &cc("oob", "out_of_bounds.cu", &[]),
        &[("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(fail.0, Some(66), "{}", fail.2);
    assert!(
        fail.2.ends_with(
            "streamsim: 1 report, 1 of them the sanitizer's, found (STREAMSIM_RACES=fail): exit status 66\n"
        ),
        "{}",
        fail.2
    );
    let good = verdict(&cc("oob-ok", "out_of_bounds.cu", &["CORRECT"]), &[]);
    assert_eq!(as_ref(&good), CLEAN);
    // Under every check, memcheck's verdict is the same (initcheck's path faults the access as the inline one).
    let all = verdict(
        &cc("oob", "out_of_bounds.cu", &[]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(all, bad);
    // 4096 bytes with another allocation made after it: the write past the end falls in the 256-byte guard
    // that follows every allocation (sanitizer.md · memcheck), not in the neighbour.
    let next = verdict(&cc("oob-next", "out_of_bounds.cu", &["NEIGHBOUR"]), &[]);
    assert_eq!(
        as_ref(&next),
        (
            Some(0),
            "sync: 700 cudaErrorIllegalAddress\n",
            "streamsim: memcheck: kernel `fill`: invalid write of 4 bytes by block (4,0,0), thread (0,0,0) at \
             0xd0000000001000: 0 bytes after the end of allocation #1 (4096 bytes at 0xd0000000000000, cudaMalloc at \
             line 28 of out_of_bounds.cu)\n"
        )
    );
    let next_ok = verdict(
        &cc("oob-next-ok", "out_of_bounds.cu", &["NEIGHBOUR", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&next_ok), CLEAN);
}

#[test]
fn use_after_cuda_free_is_700_naming_the_freed_allocation() {
    let bad = verdict(&cc("uaf", "use_after_free.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 700 cudaErrorIllegalAddress\n",
            "streamsim: memcheck: kernel `inc`: invalid read of 4 bytes by block (0,0,0), thread (0,0,0) at \
             0xd0000000000000: inside the 1000-byte allocation at 0xd0000000000000 (cudaMalloc at line 23 of \
             use_after_free.cu), at offset 0, which was freed (cudaFree at line 26 of use_after_free.cu)\n"
        )
    );
    let good = verdict(&cc("uaf-ok", "use_after_free.cu", &["CORRECT"]), &[]);
    assert_eq!(as_ref(&good), CLEAN);
    let good = verdict(
        &cc("uafa-ok", "use_after_free.cu", &["CORRECT", "ASYNC"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
    // After cudaFreeAsync on the kernel's own stream the pool keeps the range mapped (as on hardware): no fault,
    // and the race detector's use-after-free reports, for the read and the write of the bytes the kernel
    // touched (sanitizer.md · memcheck).
    let uaf = |access: &str| {
        format!(
            "streamsim: use after free of 128 bytes at offset 0 of allocation #1 (device 0 memory)\n  first:  free \
             `free_async` on stream 1 (device 0, process 0) frees\n  second: kernel `inc` on stream 1 (device 0, \
             process 0) {access} (in block (0,0,0), thread (0,0,0))\n  fix: `inc` uses the memory after \
             `free_async` freed it: enqueue it before the free (and order the free after it), or allocate the \
             memory again\n"
        )
    };
    let bad = verdict(&cc("uafa", "use_after_free.cu", &["ASYNC"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            format!("{}{}", uaf("reads"), uaf("writes")).as_str()
        )
    );
}

#[test]
fn a_missing_event_between_kernels_on_two_streams_is_a_race_on_the_bytes_they_share() {
    let bad = verdict(&cc("streams", "streams.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 16384 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: kernel `consume` on stream 2 (device 0, process 0) reads (in block (0,0,0), thread (0,0,0))\n  \
             fix: record an event on stream 1 after `produce` and make stream 2 wait on it before `consume`\n"
        )
    );
    let good = verdict(&cc("streams-ok", "streams.cu", &["CORRECT"]), &[]);
    assert_eq!(as_ref(&good), CLEAN);
}

#[test]
fn disjoint_halves_are_no_race_and_halves_overlapping_by_one_element_race_on_four_bytes() {
    let disjoint = verdict(&cc("halves", "streams.cu", &["MODE=1"]), &[]);
    assert_eq!(as_ref(&disjoint), CLEAN);
    let overlap = verdict(&cc("overlap", "streams.cu", &["MODE=2"]), &[]);
    assert_eq!(
        as_ref(&overlap),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4 bytes at offset 8192 of allocation #1 (device 0 memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: kernel `produce` on stream 2 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             fix: record an event on stream 1 after `produce` and make stream 2 wait on it before `produce`\n"
        )
    );
    // Under every check (initcheck sends each access through the resolver), the same ranges and verdicts.
    let all = verdict(
        &cc("overlap", "streams.cu", &["MODE=2"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(all, overlap);
    let all = verdict(
        &cc("halves", "streams.cu", &["MODE=1"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(as_ref(&all), CLEAN);
    // STREAMSIM_RACES=off: nothing is tracked, nothing reported.
    let off = verdict(
        &cc("overlap", "streams.cu", &["MODE=2"]),
        &[("STREAMSIM_RACES", "off")],
    );
    assert_eq!(as_ref(&off), CLEAN);
}

#[test]
fn a_divergent_barrier_under_synccheck_is_a_report_and_719() {
    let exe = cc("divergent", "divergent_barrier.cu", &[]);
    let bad = verdict(&exe, &[("STREAMSIM_CHECK", "memcheck,synccheck")]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 719 cudaErrorLaunchFailure\n",
            "streamsim: synccheck: kernel `halves`: barrier divergence in block (0,0,0): thread (0,0,0) waits at a \
             __syncthreads that thread (32,0,0) does not reach (it exited)\n"
        )
    );
    let good = verdict(
        &cc("divergent-ok", "divergent_barrier.cu", &["CORRECT"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

#[test]
fn a_bad_streamsim_check_is_refused_like_the_other_variables() {
    let exe = cc("divergent-ok", "divergent_barrier.cu", &["CORRECT"]);
    let (code, out, err) = verdict(&exe, &[("STREAMSIM_CHECK", "racechek")]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "sync: 100 cudaErrorNoDevice\n");
    assert!(
        err.contains(
            "STREAMSIM_CHECK=\"racechek\" is not a valid value (expected memcheck, racecheck"
        ),
        "{err}"
    );
}

// ---- racecheck: hazards on __shared__ memory between threads of one block

#[test]
fn a_shared_memory_reduction_missing_a_syncthreads_is_a_racecheck_hazard_naming_both_threads_and_lines()
 {
    let exe = cc_g("reduction", "shared_reduction.cu", &[]);
    let bad = verdict(&exe, &[("STREAMSIM_CHECK", "racecheck")]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\nsums: 496 4064\n",
            "streamsim: racecheck: kernel `block_sum`: write-after-read hazard on __shared__ 0x80 (`s`, offset 128) \
             in block (0,0,0): thread (32,0,0) writes 4 bytes at line 15 that thread (0,0,0) read at line 21, with \
             no __syncthreads between them (64 hazards like it in the launch)\n"
        )
    );
    // The report is readable through the C API (streamsim.h).
    let c = verdict(
        &cc_g("reduction-reports", "shared_reduction.cu", &["REPORTS"]),
        &[("STREAMSIM_CHECK", "racecheck")],
    );
    assert_eq!(
        c.1,
        format!(
            "sync: 0 cudaSuccess\nsums: 496 4064\nreports: 1, the first 258 bytes: racecheck: {}\npast the last: -1\n",
            bad.2
                .trim_end()
                .strip_prefix("streamsim: racecheck: ")
                .expect("the report")
        )
    );
    // Every report counts for STREAMSIM_RACES=fail.
    let fail = verdict(
        &exe,
        &[
            ("STREAMSIM_CHECK", "racecheck"),
            ("STREAMSIM_RACES", "fail"),
        ],
    );
    assert_eq!(fail.0, Some(66), "{}", fail.2);
    // Without debug information the report has no lines; without racecheck (the default), no report.
    let plain = verdict(
        &cc("reduction-plain", "shared_reduction.cu", &[]),
        &[("STREAMSIM_CHECK", "memcheck,racecheck")],
    );
    assert_eq!(
        plain.2,
        "streamsim: racecheck: kernel `block_sum`: write-after-read hazard on __shared__ 0x80 (`s`, offset 128) in \
         block (0,0,0): thread (32,0,0) writes 4 bytes that thread (0,0,0) read, with no __syncthreads between \
         them (64 hazards like it in the launch)\n"
    );
    assert_eq!(verdict(&exe, &[]).2, "");
    let good = verdict(
        &cc_g("reduction-ok", "shared_reduction.cu", &["CORRECT"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\nsums: 2016 6112\n", "")
    );
}

#[test]
fn lanes_of_one_warp_are_ordered_by_syncwarp_and_not_without_it() {
    let bad = verdict(
        &cc_g("warp", "warp_reduction.cu", &[]),
        &[("STREAMSIM_CHECK", "racecheck")],
    );
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\nsum: 31\n",
            "streamsim: racecheck: kernel `warp_sum`: write-after-read hazard on __shared__ 0x4 (`s`, offset 4) in \
             block (0,0,0): thread (1,0,0) writes 4 bytes at line 22 that thread (0,0,0) read at line 17, with no \
             __syncthreads or __syncwarp between them (26 hazards like it in the launch)\n"
        )
    );
    let good = verdict(
        &cc_g("warp-ok", "warp_reduction.cu", &["CORRECT"]),
        &[("STREAMSIM_CHECK", "racecheck")],
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\nsum: 496\n", "")
    );
}

#[test]
fn a_misaligned_store_is_716_with_a_memcheck_report() {
    let bad = verdict(&cc("misaligned", "misaligned.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 716 cudaErrorMisalignedAddress\n",
            "streamsim: memcheck: kernel `store`: misaligned write of 4 bytes by block (0,0,0), thread (0,0,0) at \
             0xd0000000000002: it needs 4-byte alignment\n"
        )
    );
    let good = verdict(&cc("misaligned-ok", "misaligned.cu", &["CORRECT"]), &[]);
    assert_eq!(as_ref(&good), CLEAN);
}

// ---- initcheck: reads of device memory that nothing wrote since its allocation

#[test]
fn a_kernel_reading_a_buffer_nothing_wrote_is_an_initcheck_report_naming_the_allocation() {
    let exe = cc("uninit", "uninitialized.cu", &[]);
    let bad = verdict(&exe, &[("STREAMSIM_CHECK", "initcheck")]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\ntotal: 0\n",
            "streamsim: initcheck: kernel `sum`: uninitialized read of 4 bytes by block (0,0,0), thread (0,0,0) at \
             0xd0000000000000: offset 0 of allocation #1 (1024 bytes at 0xd0000000000000, cudaMalloc at line 24 of \
             uninitialized.cu), which nothing wrote since it was allocated (256 such reads of it in the launch)\n"
        )
    );
    let fail = verdict(
        &exe,
        &[
            ("STREAMSIM_CHECK", "initcheck"),
            ("STREAMSIM_RACES", "fail"),
        ],
    );
    assert_eq!(fail.0, Some(66), "{}", fail.2);
    // initcheck is opt-in: the default checks say nothing.
    assert_eq!(verdict(&exe, &[]).2, "");
    // A kernel wrote the first half: the reads of the second half are the unwritten ones.
    let half = verdict(
        &cc("uninit-half", "uninitialized.cu", &["HALF"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(
        as_ref(&half),
        (
            Some(0),
            "sync: 0 cudaSuccess\ntotal: 128\n",
            "streamsim: initcheck: kernel `sum`: uninitialized read of 4 bytes by block (1,0,0), thread (0,0,0) at \
             0xd0000000000200: offset 512 of allocation #1 (1024 bytes at 0xd0000000000000, cudaMalloc at line 24 of \
             uninitialized.cu), which nothing wrote since it was allocated (128 such reads of it in the launch)\n"
        )
    );
    let good = verdict(
        &cc("uninit-ok", "uninitialized.cu", &["CORRECT"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\ntotal: 0\n", "")
    );
}

#[test]
fn a_copy_to_the_host_of_bytes_nothing_wrote_is_an_initcheck_report() {
    let bad = verdict(
        &cc("uninit-copy", "uninitialized.cu", &["COPY"]),
        &[("STREAMSIM_CHECK", "initcheck")],
    );
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\ntotal: 0\n",
            "streamsim: initcheck: copy `memcpy`: uninitialized read of 1024 of its 1024 bytes, the first at offset \
             0 of allocation #1 (1024 bytes at 0xd0000000000000, cudaMalloc at line 24 of uninitialized.cu), which \
             nothing wrote since it was allocated\n"
        )
    );
    let good = verdict(
        &cc("uninit-copy-ok", "uninitialized.cu", &["COPY", "CORRECT"]),
        &[("STREAMSIM_CHECK", "initcheck")],
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\ntotal: 0\n", "")
    );
}

#[test]
fn the_same_reduction_in_global_memory_is_a_racecheck_hazard_between_threads_of_one_block() {
    let bad = verdict(
        &cc_g("global-reduction", "global_reduction.cu", &[]),
        &[("STREAMSIM_CHECK", "racecheck")],
    );
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\nsums: 496 2544\n",
            "streamsim: racecheck: kernel `block_sum`: write-after-read hazard on global memory at 0xd0000000000380 \
             (offset 128 of the 512-byte allocation at 0xd0000000000300, cudaMalloc at line 29 of \
             global_reduction.cu) in block (0,0,0): thread (32,0,0) writes 4 bytes at line 11 that thread (0,0,0) \
             read at line 17, with no __syncthreads between them (64 hazards like it in the launch)\n"
        )
    );
    // With every check, initcheck also sees the reads of scratch bytes that the missing barrier lets a thread
    // read before their writer ran.
    let all = verdict(
        &cc_g("global-reduction", "global_reduction.cu", &[]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(
        all.2,
        format!(
            "{}streamsim: initcheck: kernel `block_sum`: uninitialized read of 4 bytes by block (0,0,0), thread \
             (0,0,0) at 0xd0000000000380: offset 128 of allocation #2 (512 bytes at 0xd0000000000300, cudaMalloc at \
             line 29 of global_reduction.cu), which \
             nothing wrote since it was allocated (64 such reads of it in the launch)\n",
            bad.2
        )
    );
    let good = verdict(
        &cc_g("global-reduction-ok", "global_reduction.cu", &["CORRECT"]),
        &[("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\nsums: 2016 6112\n", "")
    );
}

/// The memcheck report of `fill`'s first write to allocation #1 of device 1 (4096 bytes, the first address of
/// device 1's range, made by `site`) from device 0, which cannot access it: `because`.
fn unreachable_report(site: &str, because: &str) -> String {
    format!(
        "streamsim: memcheck: kernel `fill`: invalid write of 4 bytes by block (0,0,0), thread (0,0,0) at \
         0xd0010000000000: at offset 0 of allocation #1 (4096 bytes at 0xd0010000000000 on device 1, {site}), \
         which device 0 cannot access: {because}\n"
    )
}

#[test]
fn a_kernel_writing_another_devices_memory_without_peer_access_is_700_naming_the_allocation_and_the_call()
 {
    let two = [("STREAMSIM_DEVICES", "2")];
    let peer = unreachable_report(
        "cudaMalloc at line 30 of peer_access.cu",
        "peer access to device 1 is not enabled (cudaDeviceEnablePeerAccess)",
    );
    let bad = verdict(&cc("peer", "peer_access.cu", &[]), &two);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 700 cudaErrorIllegalAddress\n",
            peer.as_str()
        )
    );
    let good = verdict(&cc("peer-ok", "peer_access.cu", &["CORRECT"]), &two);
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\na[31] = 38\n", "")
    );
    // Enabled, then disabled again before the launch: as never enabled.
    let off = verdict(&cc("peer-off", "peer_access.cu", &["DISABLE"]), &two);
    assert_eq!(off, bad);
    let on = verdict(
        &cc("peer-off-ok", "peer_access.cu", &["DISABLE", "CORRECT"]),
        &two,
    );
    assert_eq!(on, good);
    // STREAMSIM_CHECK=off: the same fault, no report.
    let quiet = verdict(
        &cc("peer", "peer_access.cu", &[]),
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_CHECK", "off")],
    );
    assert_eq!(
        as_ref(&quiet),
        (Some(0), "sync: 700 cudaErrorIllegalAddress\n", "")
    );
    // Every access goes through the resolver under initcheck and racecheck: the same verdict.
    let all = verdict(
        &cc("peer", "peer_access.cu", &[]),
        &[("STREAMSIM_DEVICES", "2"), ("STREAMSIM_CHECK", "all")],
    );
    assert_eq!(all, bad);
}

#[test]
fn a_pool_of_another_device_is_reached_through_its_access_not_peer_access() {
    let two = [("STREAMSIM_DEVICES", "2")];
    let bad = verdict(&cc("peer-pool", "peer_access.cu", &["POOL"]), &two);
    let report = unreachable_report(
        "cudaMallocFromPoolAsync at line 25 of peer_access.cu",
        "its memory pool does not give device 0 access (cudaMemPoolSetAccess)",
    );
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 700 cudaErrorIllegalAddress\n",
            report.as_str()
        )
    );
    let good = verdict(
        &cc("peer-pool-ok", "peer_access.cu", &["POOL", "CORRECT"]),
        &two,
    );
    assert_eq!(
        as_ref(&good),
        (Some(0), "sync: 0 cudaSuccess\na[31] = 38\n", "")
    );
}

#[test]
fn managed_and_pinned_host_memory_are_reached_from_every_device() {
    let ok = verdict(
        &cc("peer-host", "peer_access.cu", &["HOST"]),
        &[("STREAMSIM_DEVICES", "2")],
    );
    assert_eq!(
        as_ref(&ok),
        (Some(0), "sync: 0 cudaSuccess\na[31] = 38\nh[31] = 38\n", "")
    );
}

#[test]
fn musa_and_acl_kernels_on_another_devices_memory_fault_the_same_way_naming_their_call() {
    let two = [("STREAMSIM_DEVICES", "2")];
    let bad = verdict(&cc("peer-musa", "peer_access.mu", &[]), &two);
    let report = unreachable_report(
        "musaMalloc at line 11 of peer_access.mu",
        "peer access to device 1 is not enabled (musaDeviceEnablePeerAccess)",
    );
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 700 musaErrorIllegalAddress\n",
            report.as_str()
        )
    );
    let good = verdict(&cc("peer-musa-ok", "peer_access.mu", &["CORRECT"]), &two);
    assert_eq!(as_ref(&good), (Some(0), "sync: 0 musaSuccess\n", ""));
    // ACL: the next synchronize answers 507015 (ACL_ERROR_RT_AICORE_EXCEPTION).
    let bad = verdict(&cc_acl("peer-acl", "peer_access_acl.cpp", &[]), &two);
    let report = unreachable_report(
        "aclrtMalloc at line 17 of peer_access_acl.cpp",
        "peer access to device 1 is not enabled (aclrtDeviceEnablePeerAccess)",
    );
    assert_eq!(as_ref(&bad), (Some(0), "sync: 507015\n", report.as_str()));
    let good = verdict(
        &cc_acl("peer-acl-ok", "peer_access_acl.cpp", &["CORRECT"]),
        &two,
    );
    assert_eq!(as_ref(&good), (Some(0), "sync: 0\n", ""));
}

// ---- reports in the trace and the timeline

/// The events of category `check` in the Chrome trace `path` wrote.
fn check_events(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("the trace was written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("the trace is JSON");
    v["traceEvents"]
        .as_array()
        .expect("traceEvents")
        .iter()
        .filter(|e| e["cat"] == "check")
        .cloned()
        .collect()
}

#[test]
fn a_memcheck_report_is_an_instant_on_the_kernels_track_and_a_mark_on_its_timeline_row() {
    let exe = cc("oob-trace", "out_of_bounds.cu", &[]);
    let trace = toolchain().out_dir.join("sanitizer-oob-trace.json");
    let _ = std::fs::remove_file(&trace);
    let report = "kernel `fill`: invalid write of 4 bytes by block (3,0,0), thread (232,0,0) at \
                  0xd0000000000fa0: 0 bytes after the end of allocation #1 (4000 bytes at 0xd0000000000000, \
                  cudaMalloc at line 28 of out_of_bounds.cu)";
    let (code, out, err) = verdict(
        &exe,
        &[
            ("STREAMSIM_TRACE", trace.to_str().expect("a UTF-8 path")),
            ("STREAMSIM_TIMELINE", "1"),
        ],
    );
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "sync: 700 cudaErrorIllegalAddress\n")
    );
    // The instant: on the track of the default stream (tid 2, after host thread 0), at the kernel's start.
    assert_eq!(
        check_events(&trace),
        [
            serde_json::json!({"ph": "i", "s": "t", "cat": "check", "name": "memcheck #1", "pid": 1, "tid": 2,
            "ts": 4.0, "args": {"tool": "memcheck", "report": report, "operation": "fill"}})
        ]
    );
    // The timeline: `!` where the kernel's bar starts, and the report listed under the chart.
    let row = err
        .lines()
        .find(|l| l.starts_with("default |"))
        .expect("the default stream's row");
    assert!(row.ends_with("!fill=========================]"), "{err}");
    assert!(
        err.contains(
            "checks (!):\n  default at 4.000 µs: memcheck: kernel `fill`: invalid write of 4 bytes by block \
             (3,0,0), thread\n    (232,0,0) at 0xd0000000000fa0: 0 bytes after the end of allocation #1 (4000 \
             bytes at\n    0xd0000000000000, cudaMalloc at line 28 of out_of_bounds.cu)\n"
        ),
        "{err}"
    );
    // The correct twin: no instant, no mark, no list.
    let good = cc("oob-ok-trace", "out_of_bounds.cu", &["CORRECT"]);
    let _ = std::fs::remove_file(&trace);
    let (_, _, err) = verdict(
        &good,
        &[
            ("STREAMSIM_TRACE", trace.to_str().expect("a UTF-8 path")),
            ("STREAMSIM_TIMELINE", "1"),
        ],
    );
    assert_eq!(check_events(&trace), Vec::<serde_json::Value>::new());
    assert!(!err.contains("checks (!)") && !err.contains('!'), "{err}");
}

#[test]
fn an_initcheck_report_of_a_copy_is_an_instant_on_the_copys_track() {
    let exe = cc("uninit-copy-trace", "uninitialized.cu", &["COPY"]);
    let trace = toolchain().out_dir.join("sanitizer-uninit-copy-trace.json");
    let _ = std::fs::remove_file(&trace);
    verdict(
        &exe,
        &[
            ("STREAMSIM_CHECK", "initcheck"),
            ("STREAMSIM_TRACE", trace.to_str().expect("a UTF-8 path")),
        ],
    );
    // The copy back to the host is the default stream's second operation, at 9.001 µs.
    assert_eq!(
        check_events(&trace),
        [
            serde_json::json!({"ph": "i", "s": "t", "cat": "check", "name": "initcheck #1", "pid": 1, "tid": 2,
            "ts": 9.001, "args": {"tool": "initcheck", "operation": "memcpy",
            "report": "copy `memcpy`: uninitialized read of 1024 of its 1024 bytes, the first at offset 0 of \
                       allocation #1 (1024 bytes at 0xd0000000000000, cudaMalloc at line 24 of uninitialized.cu), \
                       which nothing wrote since it was allocated"}})
        ]
    );
}

#[test]
fn a_synccheck_report_is_an_instant_on_the_kernels_track() {
    let exe = cc("divergent-trace", "divergent_barrier.cu", &[]);
    let trace = toolchain().out_dir.join("sanitizer-divergent-trace.json");
    let _ = std::fs::remove_file(&trace);
    verdict(
        &exe,
        &[
            ("STREAMSIM_CHECK", "memcheck,synccheck"),
            ("STREAMSIM_TRACE", trace.to_str().expect("a UTF-8 path")),
        ],
    );
    let events = check_events(&trace);
    let seen: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap_or_default(),
                e["args"]["operation"].as_str().unwrap_or_default(),
                e["args"]["report"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [(
            "synccheck #1",
            "halves",
            "kernel `halves`: barrier divergence in block (0,0,0): thread (0,0,0) waits at a __syncthreads that \
             thread (32,0,0) does not reach (it exited)"
        )]
    );
}
