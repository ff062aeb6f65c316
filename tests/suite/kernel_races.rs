//! Races of kernels built by `streamsim cc` from the bytes they really touched, against copies, memsets and
//! host accesses (`tests/cu/streamsim/sanitizer/kernel_copy.cu`, `managed_host_read.cu`), each program with
//! its correct twin (built with `-DCORRECT`), which gets none: under the default schedule and under
//! `STREAMSIM_SCHEDULE=serialize`, the same on every run. The semantics: `docs/semantics/sanitizer.md`,
//! "Races between streams from what kernels did".

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::c_programs::toolchain;

/// Builds the corpus program `file` with `defines` (each `-D`) into `name`.
fn cc(name: &str, file: &str, defines: &[&str]) -> PathBuf {
    let t = toolchain();
    let out = t.out_dir.join(format!("kernel-races-{name}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_streamsim"));
    cmd.arg("cc");
    for d in defines {
        cmd.arg("-D").arg(d);
    }
    let output = cmd
        .arg(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("tests/cu/streamsim/sanitizer")
                .join(file),
        )
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

/// Runs `exe` with `env` under both schedules (three times under the default one): its exit code, stdout
/// and stderr, which must be the same every time.
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
    assert_eq!(once(&[]), first, "a third run differs");
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

/// sanitizer.md · Races between streams from what kernels did · a kernel and a copy on unordered streams
/// whose bytes overlap → a data race naming the kernel's block and thread, the copy, the bytes, the fix.
#[test]
fn a_kernel_writing_what_a_copy_on_an_unordered_stream_reads_is_a_race() {
    let bad = verdict(&cc("copy", "kernel_copy.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: memcpy `memcpy_async` on stream 2 (device 0, process 0) reads\n  \
             fix: record an event on stream 1 after `produce` and make stream 2 wait on it before `memcpy_async`\n"
        )
    );
    let good = verdict(&cc("copy-ok", "kernel_copy.cu", &["CORRECT"]), &[]);
    assert_eq!(as_ref(&good), CLEAN);
    // STREAMSIM_RACES=off: nothing is tracked, nothing reported.
    let off = verdict(
        &cc("copy", "kernel_copy.cu", &[]),
        &[("STREAMSIM_RACES", "off")],
    );
    assert_eq!(as_ref(&off), CLEAN);
    // Every report counts for STREAMSIM_RACES=fail.
    let fail = verdict(
        &cc("copy", "kernel_copy.cu", &[]),
        &[("STREAMSIM_RACES", "fail")],
    );
    assert_eq!(fail.0, Some(66), "{}", fail.2);
}

/// sanitizer.md · Races between streams from what kernels did · the reverse: a memset writing what a kernel
/// on an unordered stream reads → a race, the memset (earlier in program order) first.
#[test]
fn a_memset_writing_what_a_kernel_on_an_unordered_stream_reads_is_a_race_the_memset_first() {
    let bad = verdict(&cc("memset", "kernel_copy.cu", &["MODE=1"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  memset `memset_async` on stream 1 (device 0, process 0) writes\n  \
             second: kernel `twice` on stream 2 (device 0, process 0) reads (in block (0,0,0), thread (0,0,0))\n  \
             fix: record an event on stream 1 after `memset_async` and make stream 2 wait on it before `twice`\n"
        )
    );
    let good = verdict(
        &cc("memset-ok", "kernel_copy.cu", &["MODE=1", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · a kernel and a copy on disjoint bytes → none.
#[test]
fn a_kernel_and_a_copy_of_disjoint_halves_are_no_race() {
    let disjoint = verdict(&cc("halves", "kernel_copy.cu", &["MODE=2"]), &[]);
    assert_eq!(as_ref(&disjoint), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · a synchronous copy on the legacy default
/// stream → ordered after a blocking stream's kernel, not after a non-blocking stream's.
#[test]
fn a_synchronous_copy_waits_for_a_blocking_streams_kernel_and_not_for_a_non_blocking_ones() {
    let bad = verdict(&cc("legacy", "kernel_copy.cu", &["MODE=3"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: memcpy `memcpy` on default stream of device 0 (device 0, process 0) reads\n  \
             fix: record an event on stream 1 after `produce` and make default stream of device 0 wait on it \
             before `memcpy`\n"
        )
    );
    let good = verdict(
        &cc("legacy-ok", "kernel_copy.cu", &["MODE=3", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · checked at the launch's place in program
/// order → a copy superseded before the kernel ran still races with it, and the verdicts do not depend on
/// when the kernel ran (the serialize schedule runs it only at the final synchronize).
#[test]
fn a_kernel_is_checked_at_its_launchs_place_whenever_it_ran() {
    let bad = verdict(&cc("order", "kernel_copy.cu", &["MODE=4"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  memcpy `memcpy_async` on stream 2 (device 0, process 0) writes\n  \
             second: kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             fix: record an event on stream 2 after `memcpy_async` and make stream 1 wait on it before `produce`\n\
             streamsim: data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: memset `memset_async` on stream 2 (device 0, process 0) writes\n  \
             fix: record an event on stream 1 after `produce` and make stream 2 wait on it before `memset_async`\n"
        )
    );
    let good = verdict(
        &cc("order-ok", "kernel_copy.cu", &["MODE=4", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · a kernel not ordered after the
/// stream-ordered allocation of the memory it touched → a use before allocation; a free not ordered after a
/// kernel that touched the memory → a use after free, naming the kernel.
#[test]
fn a_kernel_between_an_unordered_malloc_async_and_free_async_is_a_use_before_allocation_and_after_free()
 {
    let bad = verdict(&cc("life", "kernel_copy.cu", &["MODE=5"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: use before allocation of 4096 bytes at offset 0 of allocation #3 (device 0 memory)\n  \
             first:  alloc `malloc_async` on stream 1 (device 0, process 0) allocates\n  \
             second: kernel `produce` on stream 2 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             fix: record an event on stream 1 after `malloc_async` and make stream 2 wait on it before `produce`\n\
             streamsim: use after free of 4096 bytes at offset 0 of allocation #3 (device 0 memory)\n  \
             first:  kernel `produce` on stream 2 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: free `free_async` on stream 1 (device 0, process 0) frees\n  \
             fix: record an event on stream 2 after `produce` and make stream 1 wait on it before `free_async`\n"
        )
    );
    let good = verdict(
        &cc("life-ok", "kernel_copy.cu", &["MODE=5", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · managed memory from cudaMallocManaged → its
/// kernels' accesses are tracked as device memory's: a kernel writing it and a copy on an unordered stream
/// reading it race. (The report calls it pinned host memory: the simulator keeps managed memory in the table
/// of pinned host memory.)
#[test]
fn a_kernel_writing_managed_memory_that_a_copy_on_an_unordered_stream_reads_is_a_race() {
    let bad = verdict(&cc("managed", "kernel_copy.cu", &["MODE=6"]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            "sync: 0 cudaSuccess\n",
            "streamsim: data race on 4096 bytes at offset 0 of allocation #2 (pinned host memory)\n  \
             first:  kernel `produce` on stream 1 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: memcpy `memcpy_async` on stream 2 (device 0, process 0) reads\n  \
             fix: record an event on stream 1 after `produce` and make stream 2 wait on it before `memcpy_async`\n"
        )
    );
    let good = verdict(
        &cc("managed-ok", "kernel_copy.cu", &["MODE=6", "CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), CLEAN);
}

/// sanitizer.md · Races between streams from what kernels did · the host's own load of managed memory while
/// a kernel that writes it may still run → a data race naming the kernel's block and thread and the host's
/// load (the byte the fault named: its size is not in the fault); after `cudaDeviceSynchronize` → none.
#[test]
fn a_host_load_of_managed_memory_a_running_kernel_writes_is_a_race() {
    let out = "sync: 0 cudaSuccess\na[1023] = 1023\n";
    let bad = verdict(&cc("host-read", "managed_host_read.cu", &[]), &[]);
    assert_eq!(
        as_ref(&bad),
        (
            Some(0),
            out,
            "streamsim: data race on 1 bytes at offset 0 of allocation #1 (pinned host memory)\n  \
             first:  kernel `produce` on default stream of device 0 (device 0, process 0) writes (in block (0,0,0), thread (0,0,0))\n  \
             second: `host load` on host thread 0 of process 0 reads\n  \
             fix: synchronize default stream of device 0 (or an event recorded after `produce`) before `host load`\n"
        )
    );
    let good = verdict(
        &cc("host-read-ok", "managed_host_read.cu", &["CORRECT"]),
        &[],
    );
    assert_eq!(as_ref(&good), (Some(0), out, ""));
    // STREAMSIM_RACES=off: no launch is tracked, the pages are never protected.
    let off = verdict(
        &cc("host-read", "managed_host_read.cu", &[]),
        &[("STREAMSIM_RACES", "off")],
    );
    assert_eq!(as_ref(&off), (Some(0), out, ""));
}
