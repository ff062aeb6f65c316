//! The C programs of `tests/c` for the ACL calls of issue 13 (failure modes, callbacks, notifies, timeouts),
//! built as C11 and C++17 and run with the helpers of `c_programs.rs`: the ports of the CANN runtime's samples
//! (github.com/hicann/runtime, example/) and the programs written for their rows. Each program checks every
//! code it gets; these tests also check what they print — the order of effects.

use crate::c_programs::build_and_run;

/// The failure-mode pair (acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode): the same faulting
/// program in both modes. In ACL_CONTINUE_ON_FAILURE every later task runs and the fault is reported once; in
/// ACL_STOP_ON_FAILURE the faulted stream's later task and its context's stream ordered after the fault do not run,
/// a task not ordered after it does, and new tasks are refused once the fault is reported (the program checks the
/// codes).
#[test]
fn failure_mode_pair() {
    for out in build_and_run("acl_failure_mode", "acl_failure_mode", &["continue"], &[]) {
        assert_eq!(
            out.trim(),
            "continue: task1=ran task2=ran task3=ran task4=ran task5=ran"
        );
    }
    for out in build_and_run("acl_failure_mode", "acl_failure_mode_stop", &["stop"], &[]) {
        assert_eq!(
            out.trim(),
            "stop: task1=ran task2=skipped task3=skipped task4=ran task5=skipped"
        );
    }
}

/// The CANN sample stream_with_failure_mode, ported: the vendor's expected output — both synchronizes fail
/// (507015 here; the vendor's ErrorOP is a vector-core kernel, 507035), "the result is 2" in the default mode and
/// "the current result is: 1" after aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE).
#[test]
fn cann_stream_failure_mode_sample() {
    for out in build_and_run(
        "cann_stream_failure_mode",
        "cann_stream_failure_mode",
        &[],
        &[],
    ) {
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "[INFO]  Assigning task without failure mode.",
                "[ERROR]  Operation failed: aclrtSynchronizeStream(stream) returned error code 507015",
                "[INFO]  Without failure mode, the result is 2.",
                "[INFO]  Assigning task with failure mode.",
                "[ERROR]  Operation failed: aclrtSynchronizeStream(stream) returned error code 507015",
                "[INFO]  After set failure mode, the current result is: 1.",
                "[INFO]  Resource cleanup completed.",
                "[INFO]  Run the stream_with_failure_mode sample successfully.",
            ]
        );
    }
}

/// The CANN sample multi_stream, ported: stream, event and notify synchronization each give "The answer is 2"
/// (num += 1 on stream1, then num *= 2 on stream2); the 1000 ms synchronizes behind a 2 s task time out with
/// 507046 (stream) and 507047 (event); nothing else fails.
#[test]
fn cann_multi_stream_sample() {
    for out in build_and_run("cann_multi_stream", "cann_multi_stream", &[], &[]) {
        let answers = out
            .lines()
            .filter(|l| *l == "[INFO]  The answer is 2.")
            .count();
        assert_eq!(answers, 3, "{out}");
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("[ERROR]")).collect();
        assert_eq!(
            errors,
            [
                "[ERROR]  Operation failed: aclrtSynchronizeStreamWithTimeout(stream1, kWaitTimeMs) returned error code 507046",
                "[ERROR]  Operation failed: aclrtSynchronizeEventWithTimeout(event, kWaitTimeMs) returned error code 507047",
            ],
            "{out}"
        );
        assert!(out.contains("[INFO]  Use notify synchronize."), "{out}");
    }
}

/// The CANN sample simple_callback, ported (its host-function half is not: see the file): the callback before
/// the task, then the five after it, each on the report thread (the program checks the thread), with the user
/// data 520; the synchronize returns after all six.
#[test]
fn cann_simple_callback_sample() {
    for out in build_and_run("cann_simple_callback", "cann_simple_callback", &[], &[]) {
        let report = out
            .lines()
            .find_map(|l| l.strip_prefix("[INFO]  The created report thread id is "))
            .expect("the report thread's id")
            .to_string();
        let callbacks: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("This callback"))
            .collect();
        let mut expected = vec!["[INFO]  This callback before task, result: user data is: 520."];
        expected.extend(
            ["[INFO]  This callback after task and loop five times, result: user data is: 520."; 5],
        );
        assert_eq!(callbacks, expected, "{out}");
        let on: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("[INFO]  Report callback thread id is "))
            .collect();
        assert_eq!(on, vec![report.as_str(); 6], "{out}");
        assert!(
            out.contains("[INFO]  After begin a task, launch one hostfunc and five callbacks."),
            "{out}"
        );
        assert!(out.contains("[INFO]  Report callback thread exit"), "{out}");
        assert!(!out.contains("[ERROR]"), "{out}");
    }
}

/// Callbacks and notifies in both block types, with the documented order of effects (acl-runtime-api.md · Callbacks
/// · aclrtLaunchCallback · ACL_CALLBACK_BLOCK / ACL_CALLBACK_NO_BLOCK; notifies): a blocking callback runs between
/// the tasks around it, on the subscribed thread; a non-blocking one lets the stream go on; the notify wait,
/// enqueued before its record, releases stream2 after stream1's B.
#[test]
fn callbacks_and_notifies_in_both_block_types() {
    for out in build_and_run(
        "acl_callbacks_notify",
        "acl_callbacks_block",
        &["block"],
        &[],
    ) {
        assert_eq!(out.trim(), "block: A callback B C");
    }
    for out in build_and_run(
        "acl_callbacks_notify",
        "acl_callbacks_no_block",
        &["no-block"],
        &[],
    ) {
        assert_eq!(out.trim(), "no-block: A B C callback");
    }
}

/// The CANN runtime's example/0_quickstart/1_error_handling, ported (acl-runtime-api.md · Device and stream
/// queries · GetLastError / PeekAtLastError, GetErrorVerbose): aclrtGetRunMode(NULL) → 100000 keeps no runtime
/// error (both reads 0); aclrtGetErrorVerbose → 207000, which the next reads return; a runtime error (107001) is
/// kept by Peek and cleared by Get. The program checks the codes; here, the order of its log.
#[test]
fn cann_error_handling_sample() {
    for out in build_and_run("cann_error_handling", "cann_error_handling", &[], &[]) {
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "[INFO]  ACL init and set device successfully",
                "[INFO]  Current run mode: ACL_HOST",
                "[INFO]  Triggering an expected invalid-parameter error with aclrtGetRunMode(nullptr)",
                "[ERROR]  Diagnostics: ret=100000, peekErr=0, lastErr=0",
                "[WARN]  aclrtGetErrorVerbose(0) returned error code 207000",
                "[INFO]  After diagnostics are consumed once: peekErr=207000, lastErr=207000, recentErrMsg present: yes",
                "[INFO]  Runtime error kept by peek, cleared by get",
                "[INFO]  ACL finalize successfully",
            ],
            "{out}"
        );
    }
}

/// acl-runtime-api.md · Memcpy2d: aclrtMemcpy2d / aclrtMemcpy2dAsync copy the rows (the padding untouched), answer
/// every argument check with CANN's code in CANN's order, and a 2-D copy takes the virtual time of a 1-D copy of
/// its bytes (the program checks the codes and the bytes; this checks what it prints).
#[test]
fn acl_memcpy_2d() {
    for out in build_and_run("acl_memcpy2d", "acl_memcpy2d", &[], &[]) {
        // From the record before the copy to the one after: the copy call's 1 µs, then the host-to-device
        // latency (2 µs) and 64 bytes at 16 GB/s (4 ns).
        assert_eq!(out, "2-D copy of 64 bytes: 0.003004 ms\nacl_memcpy2d: ok\n");
    }
}

/// managed-memory.md · ACL: aclrtMemAllocManaged and the aclrtMemManaged* calls over the engine's managed memory,
/// with CANN's ACL-layer codes (the program checks each code and attribute; this checks what it prints).
#[test]
fn acl_managed_memory() {
    for out in build_and_run("acl_managed", "acl_managed", &[], &[]) {
        assert_eq!(out, "advise after free: 107000\nacl_managed: ok\n");
    }
}
