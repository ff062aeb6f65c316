//! The scenario statements of execution control and wait tasks (`src/tools/scenario/tasks.rs`): `faulty-kernel`
//! in both dialects, and ACL's `failure-mode`, `op-wait-timeout`, notifies, value waits and callbacks — their
//! parse errors and what running them answers (the exact vendor code and virtual time).

use streamsim::scenario::{self, Run, outcome_text, parse};

use crate::common::with_watchdog;

fn run(text: &str) -> Run {
    let text = text.to_string();
    with_watchdog(20, move || scenario::run_source(&text).expect("parses"))
}

/// The printed answer and the host clock after the call on `line`.
fn answer(run: &Run, line: usize) -> (String, String) {
    let c = run
        .calls
        .iter()
        .find(|c| c.line == line)
        .unwrap_or_else(|| panic!("no call on line {line}: {}", run.transcript()));
    (outcome_text(run.vendor, &c.outcome), c.clock.to_string())
}

/// Checks `(line, start of the answer, host clock after it)` for each line, and that the run did not stop.
fn answers(run: &Run, expected: &[(usize, &str, &str)]) {
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    for &(line, start, clock) in expected {
        let (a, t) = answer(run, line);
        assert!(
            a.starts_with(start) && t == clock,
            "line {line}: expected {start:?} at {clock}, got {a:?} at {t}\n{}",
            run.transcript()
        );
    }
}

#[test]
fn malformed_task_statements_say_what_was_expected() {
    let e = parse("dialect acl\nstream s\nfailure-mode s maybe").unwrap_err();
    assert_eq!((e.line, e.column), (3, 16));
    assert_eq!(e.expected, "`continue` or `stop`");
    let e = parse("dialect acl\nmalloc b 8\nvalue-wait b gt 1").unwrap_err();
    assert_eq!(e.expected, "a comparison: `geq`, `eq`, `and` or `nor`");
    let e = parse("dialect acl\nmalloc b 8\nvalue-write b -1").unwrap_err();
    assert_eq!(e.expected, "a value (an unsigned integer)");
    let e = parse("dialect acl\nop-wait-timeout 1.5").unwrap_err();
    assert_eq!(e.expected, "seconds (an unsigned integer, 0: none)");
    let e = parse("malloc b 8\nfaulty-kernel k reads b").unwrap_err();
    assert_eq!(e.expected, "a faulty kernel without `reads` / `writes`");
    let e = parse("dialect acl\nprocess-report timeout soon").unwrap_err();
    assert!(e.expected.starts_with("a timeout in milliseconds"), "{e}");
    // A notify is its own kind of name.
    let e = parse("dialect acl\nstream s\nnotify n\nrecord-notify s").unwrap_err();
    assert_eq!(e.line, 4);
    // A typo is told the nearest statement.
    let e = parse("dialect acl\nproces-report").unwrap_err();
    assert_eq!(
        e.found,
        "unknown statement `proces-report`; did you mean `process-report`?"
    );
}

#[test]
fn the_acl_task_statements_are_refused_in_cuda() {
    for stmt in [
        "failure-mode default stop",
        "op-wait-timeout 1",
        "notify n",
        "value-write b 1",
        "subscribe default",
        "callback",
        "process-report",
    ] {
        let e = parse(&format!("malloc b 8\n{stmt}")).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{stmt}: {e}");
        assert!(e.found.contains("dialect acl"), "{stmt}: {e}");
    }
    assert!(parse("faulty-kernel k 5us").is_ok(), "both dialects");
}

/// cuda-musa.md · sticky errors: a faulty kernel is 719 at the next synchronize and at every later one; the
/// kernel after it does not run (its slot stays in the trace).
#[test]
fn a_faulty_kernel_is_sticky_in_cuda() {
    let r = run(
        "set-device 0\nstream s\nfaulty-kernel k on s\nkernel after on s\nsync stream s\nsync stream s\nsync device",
    );
    answers(
        &r,
        &[
            (5, "719 cudaErrorLaunchFailure", "25.000 µs"),
            (6, "719 cudaErrorLaunchFailure", "26.000 µs"),
            (7, "719 cudaErrorLaunchFailure", "27.000 µs"),
        ],
    );
}

/// acl-runtime-api.md · aclrtSetStreamFailureMode · default ACL_CONTINUE_ON_FAILURE: 507015 once; with
/// ACL_STOP_ON_FAILURE every time, and the context takes no new task.
#[test]
fn failure_modes_in_a_scenario() {
    let r = run("dialect acl
set-device 0
stream s
faulty-kernel k on s
sync stream s
sync stream s
failure-mode s stop
faulty-kernel k2 on s
sync stream s
kernel refused on s
failure-mode s continue
");
    answers(
        &r,
        &[
            // k runs 5..15 µs.
            (5, "507015 ACL_ERROR_RT_AICORE_EXCEPTION", "15.000 µs"),
            (6, "0 ACL_SUCCESS", "16.000 µs"),
            (7, "0 ACL_SUCCESS", "17.000 µs"),
            (9, "507015 ACL_ERROR_RT_AICORE_EXCEPTION", "30.000 µs"),
            (10, "507015 ACL_ERROR_RT_AICORE_EXCEPTION", "31.000 µs"),
            // aclrtSetStreamFailureMode: from stop back to continue is refused (StreamSetMode, 207000).
            (11, "207000 ACL_ERROR_RT_FEATURE_NOT_SUPPORT", "32.000 µs"),
        ],
    );
}

/// acl-runtime-api.md · aclrtWaitAndResetNotify with a timeout / aclrtDestroyNotify / aclrtValueWait /
/// aclrtLaunchCallback without a subscription / aclrtProcessReport(0)
#[test]
fn wait_tasks_in_a_scenario() {
    let r = run("dialect acl
set-device 0
stream s
stream t
notify n
wait-notify s n timeout 1
kernel k on s 10us
sync stream s
sync stream s
destroy n
record-notify n on t
malloc b 8
value-wait b geq 5 on s
value-write b 7 on t
sync stream s
callback on s
subscribe s
callback on s no-block
process-report
unsubscribe s
process-report timeout 0
");
    answers(
        &r,
        &[
            // The notify wait starts at 7 µs and gives up 1 s later; the kernel after it runs, 10 µs.
            (8, "107020 ACL_ERROR_RT_TASK_TIMEOUT", "1.000 s"),
            (9, "0 ACL_SUCCESS", "1.000 s"),
            (11, "107017 ACL_ERROR_RT_INVALID_HANDLE", "1.000 s"),
            (15, "0 ACL_SUCCESS", "1.000 s"),
            (16, "107015 ACL_ERROR_RT_STREAM_NO_CB_REG", "1.000 s"),
            (19, "0 ACL_SUCCESS: 1 callback run", "1.000 s"),
            (21, "100000 ACL_ERROR_INVALID_PARAM", "1.000 s"),
        ],
    );
    let c8 = r.calls.iter().find(|c| c.line == 8).unwrap();
    assert_eq!(c8.clock.as_nanos(), 1_000_017_000, "7 µs + 1 s + 10 µs");
}
