//! ROCm hip-tests' unit tests ported to CUDA names as `.cu` programs (`tests/c/hip_tests_*.cu`, the upstream
//! commit and every change in each file's header; the Catch2 harness they share is `tests/c/hip_tests_cu.h`):
//! managed memory (`hip_tests_managed.cu`), streams and events (`hip_tests_streams.cu`) and host callbacks
//! (`hip_tests_callbacks.cu`). Each runs two ways: built by `streamsim cc` and run, and built by NVIDIA's nvcc
//! with `-cudart shared` and run unmodified with `streamsim exec`, its kernels' CPU bodies from
//! `streamsim cc --kernels` of the same source (as `dropin.rs` runs cuda-samples). Each must pass its own checks,
//! with the same output both ways (`tests/data/hip_tests/<name>.out`, and `.err` where it says something on
//! standard error). nvcc is the one `dropin.rs` finds (`.ci/run`'s cached virtual environment, or
//! `STREAMSIM_NVCC`); without it these tests fail and say how to install it.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::c_programs::toolchain;
use crate::dropin::{exec, kernels_build, nvcc_build};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds `tests/c/{name}.cu` with `streamsim cc` and runs it on `devices` devices: (exit code, stdout, stderr).
fn cc_run(name: &str, devices: &str) -> (Option<i32>, String, String) {
    cc_run_with(name, "", &[("STREAMSIM_DEVICES", devices)])
}

/// [`cc_run`] with the environment `env`, the executable named with `tag` (tests running at once build their
/// own).
fn cc_run_with(name: &str, tag: &str, env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let t = toolchain();
    let exe = t.out_dir.join(format!("cc-{name}{tag}"));
    let o = Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .arg("cc")
        .arg(root().join(format!("tests/c/{name}.cu")))
        .arg("-o")
        .arg(&exe)
        .env("STREAMSIM_LIB", &t.lib_dir)
        .output()
        .expect("running streamsim cc");
    assert!(
        o.status.success(),
        "streamsim cc {name} failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let o = crate::c_programs::run(&exe, &[], env, Duration::from_secs(120));
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Builds `tests/c/{name}.cu` with nvcc (`-cudart shared`) and its kernels with `streamsim cc --kernels`, and runs
/// it with `streamsim exec` on `devices` devices: (exit code, stdout, stderr).
fn nvcc_run(name: &str, devices: &str) -> (Option<i32>, String, String) {
    let t = toolchain();
    let src = root().join(format!("tests/c/{name}.cu"));
    let exe = t.out_dir.join(format!("nvcc-{name}"));
    let kernels = t.out_dir.join(format!("nvcc-{name}.kernels.so"));
    nvcc_build(&src, &exe, &["-cudart", "shared"]);
    kernels_build(&src, &kernels);
    exec(&[
        "--devices",
        devices,
        "--kernels",
        &kernels.to_string_lossy(),
        "--",
        &exe.to_string_lossy(),
    ])
}

/// What `tests/c/{name}.cu` prints when every test case passes (`tests/data/hip_tests/{name}.out`).
fn expected(name: &str) -> String {
    let path = root().join(format!("tests/data/hip_tests/{name}.out"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// managed-memory.md (all of it but ACL's rows): hip-tests' managed-memory tests (hipMallocManaged,
/// hipMemPrefetchAsync, hipMemAdvise, hipMemRangeGetAttribute(s), hipStreamAttachMemAsync) built by
/// `streamsim cc` (CUDA 12's int-device prefetch and advice) pass on two devices. The default profile has
/// `concurrentManagedAccess` 1, `pageableMemoryAccess` 0 and `hostNativeAtomicSupported` 0 (a PCIe A100), so the
/// test cases that need otherwise say they skip, as hip-tests does on such a GPU (one of them on standard error,
/// the expected `.err`).
#[test]
fn hip_tests_managed_memory_built_by_streamsim_cc_pass() {
    let (code, out, err) = cc_run("hip_tests_managed", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(0),
            expected("hip_tests_managed").as_str(),
            expected_err("hip_tests_managed").as_str()
        )
    );
}

/// The same program built by nvcc 13 (CUDA 13's `cudaMemLocation` prefetch and advice), run with
/// `streamsim exec` on the drop-in `libcudart.so.13`: the same output and standard error (every kernel, the
/// `static __global__` one too, found its CPU body).
#[test]
fn hip_tests_managed_memory_built_by_nvcc_pass_under_exec() {
    let (code, out, err) = nvcc_run("hip_tests_managed", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(0),
            expected("hip_tests_managed").as_str(),
            expected_err("hip_tests_managed").as_str()
        )
    );
}

/// cuda-musa.md (streams, events, elapsed time, waits, the default stream): hip-tests' stream and event tests
/// built by `streamsim cc` pass on two devices — among them Unit_hipEvent's not-ready answers of an unsynchronised
/// stop event, and hipStreamWaitEvent's cross-stream wait seen through cudaStreamQuery.
#[test]
fn hip_tests_streams_and_events_built_by_streamsim_cc_pass() {
    let (code, out, err) = cc_run("hip_tests_streams", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(0), expected("hip_tests_streams").as_str(), "")
    );
}

/// The same program built by nvcc 13, under `streamsim exec`: the same output.
#[test]
fn hip_tests_streams_and_events_built_by_nvcc_pass_under_exec() {
    let (code, out, err) = nvcc_run("hip_tests_streams", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (Some(0), expected("hip_tests_streams").as_str(), "")
    );
}

/// What `tests/c/{name}.cu` says on standard error when it passes (`tests/data/hip_tests/{name}.err`).
fn expected_err(name: &str) -> String {
    let path = root().join(format!("tests/data/hip_tests/{name}.err"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// cuda-musa.md (host functions and callbacks) and stream-ordered-memory.md (the lifetime checks): hip-tests'
/// cudaStreamAddCallback and cudaLaunchHostFunc tests built by `streamsim cc` pass on two devices — callbacks
/// see their stream's finished work, a captured graph with a host node replays 1000 times — and the race
/// detector reports the one test case whose cross-stream uses of a stream-ordered allocation are ordered only
/// through a host flag.
#[test]
fn hip_tests_callbacks_built_by_streamsim_cc_pass() {
    let (code, out, err) = cc_run("hip_tests_callbacks", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(0),
            expected("hip_tests_callbacks").as_str(),
            expected_err("hip_tests_callbacks").as_str()
        )
    );
}

/// The same program built by nvcc 13, under `streamsim exec`: the same output and reports (its `static
/// __global__` kernels in a namespace found their CPU bodies).
#[test]
fn hip_tests_callbacks_built_by_nvcc_pass_under_exec() {
    let (code, out, err) = nvcc_run("hip_tests_callbacks", "2");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(0),
            expected("hip_tests_callbacks").as_str(),
            expected_err("hip_tests_callbacks").as_str()
        )
    );
}

/// schedules-and-hangs.md (`STREAMSIM_SCHEDULE=serialize`, the harshest legal schedule): the three ports built by
/// `streamsim cc` pass with the same output and reports under it — none of their checks depends on two streams
/// running at once.
#[test]
fn hip_tests_ports_pass_under_the_serialized_schedule() {
    for name in [
        "hip_tests_managed",
        "hip_tests_streams",
        "hip_tests_callbacks",
    ] {
        let (code, out, err) = cc_run_with(
            name,
            "-serialized",
            &[
                ("STREAMSIM_DEVICES", "2"),
                ("STREAMSIM_SCHEDULE", "serialize"),
            ],
        );
        let want_err = if name == "hip_tests_streams" {
            String::new()
        } else {
            expected_err(name)
        };
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (Some(0), expected(name).as_str(), want_err.as_str()),
            "{name}"
        );
    }
}
