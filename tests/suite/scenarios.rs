//! The scenario language: parse errors (line, column, expected, found), statements and words refused by a
//! dialect that does not have them, what running each kind of statement answers in each dialect (the exact
//! vendor code and name), race reports placed on their lines, and property tests: random text never makes the
//! parser panic, and random valid programs (CUDA and ACL) run to a timeline that fits its width and a trace
//! whose flows pair up.

use proptest::prelude::*;
use serde_json::Value;
use streamsim::export::{ChromeTrace, Timeline};
use streamsim::scenario::{self, Outcome, Run, Vendor, outcome_text, parse};
use streamsim::{HandleProblem, SimError, Status};

use crate::common::with_watchdog;

fn run(text: &str) -> Run {
    let text = text.to_string();
    with_watchdog(20, move || scenario::run_source(&text).expect("parses"))
}

fn err(text: &str) -> scenario::ParseError {
    parse(text).expect_err("malformed")
}

/// The outcome of the call on `line`.
fn at(run: &Run, line: usize) -> &Outcome {
    &run.calls
        .iter()
        .find(|c| c.line == line)
        .unwrap_or_else(|| panic!("no call on line {line}: {:#?}", run.calls))
        .outcome
}

/// The printed answer of the call on `line`.
fn answer(run: &Run, line: usize) -> String {
    outcome_text(run.vendor, at(run, line))
}

/// Checks that each `(line, start of the answer)` pair holds, and that the run did not stop.
fn answers(run: &Run, expected: &[(usize, &str)]) {
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    for &(line, start) in expected {
        let a = answer(run, line);
        assert!(
            a.starts_with(start),
            "line {line}: expected {start:?}, got {a:?}\n{}",
            run.transcript()
        );
    }
}

// ---- parse errors ----------------------------------------------------------------------------------------

#[test]
fn unknown_command() {
    let e = err("\n\n   launch k\n");
    assert_eq!((e.line, e.column), (3, 4));
    assert!(e.expected.starts_with("a command (dialect, devices"), "{e}");
    assert_eq!(e.found, "unknown statement `launch`");
}

#[test]
fn missing_and_extra_words() {
    let e = err("event e1\nrecord e1 on");
    assert_eq!((e.line, e.column, e.found.as_str()), (2, 13, "end of line"));
    assert!(e.expected.starts_with("a stream"), "{e}");
    let e = err("event e1 # the start\nquery e1 now");
    assert_eq!((e.line, e.column), (2, 10));
    assert_eq!(e.expected, "end of line");
}

#[test]
fn undeclared_and_wrongly_typed_names() {
    let e = err("stream s1\nwait s1 e9");
    assert_eq!((e.line, e.column), (2, 9));
    assert!(e.found.contains("`e9`, which is not declared"), "{e}");
    let e = err("stream s1\nevent e1\nwait e1 s1");
    assert_eq!((e.line, e.column), (3, 6));
    assert!(e.found.contains("which is an event (line 2)"), "{e}");
    let e = err("malloc b 16\nkernel k reads nope");
    assert!(e.found.contains("`nope`"), "{e}");
    let e = err("pageable h 16\nkernel k writes h");
    assert!(e.expected.contains("device buffer"), "{e}");
    let e = err("stream default");
    assert!(e.expected.starts_with("a name for a stream"), "{e}");
}

#[test]
fn bad_numbers_sizes_and_durations() {
    for (text, col, expected) in [
        ("devices 1025", 9, "a device count"),
        ("devices many", 9, "a device count"),
        ("malloc b 4XB", 10, "a size"),
        ("kernel k 3 parsecs", 10, "a duration"),
        ("kernel k 1.0005us", 10, "a duration"),
        ("malloc b 1\nmemset b 256", 10, "a byte value"),
        ("set-device one", 12, "a device number"),
        ("dialect opencl", 9, "a dialect"),
    ] {
        let e = err(text);
        assert_eq!(e.column, col, "{text}: {e}");
        assert!(e.expected.starts_with(expected), "{text}: {e}");
    }
}

#[test]
fn configuration_before_the_first_call() {
    let e = err("stream s\ndialect cuda");
    assert_eq!(e.line, 2);
    assert!(e.expected.contains("before the first call (line 1)"), "{e}");
}

#[test]
fn errors_display_with_line_and_column() {
    let e = err("kernel");
    assert_eq!(
        e.to_string(),
        "line 1, column 7: expected a kernel name (letters, digits, `_ : < > . -`), found end of line"
    );
}

#[test]
fn each_dialect_refuses_the_other_dialects_words() {
    for (text, col, found) in [
        (
            "context c",
            1,
            "which dialect cuda does not have (write `dialect acl` first)",
        ),
        (
            "dialect musa\nset-context c",
            1,
            "dialect musa does not have",
        ),
        ("reset-device-force 0", 1, "dialect cuda does not have"),
        (
            "dialect acl\nstream s non-blocking",
            10,
            "ACL streams never synchronize",
        ),
        (
            "dialect acl\nstream s flags 1",
            10,
            "dialect acl does not have",
        ),
        (
            "dialect acl\nevent e disable-timing",
            9,
            "event flag of the other dialect",
        ),
        ("event e sync", 9, "event flag of the other dialect"),
        ("event e ex", 9, "event flag of the other dialect"),
        (
            "dialect acl\nkernel k on legacy",
            13,
            "current context's default stream",
        ),
        (
            "dialect acl\nsync per-thread",
            6,
            "dialect acl does not have",
        ),
        (
            "stream s\nsync stream s timeout 5",
            15,
            "timeouts are ACL's",
        ),
        (
            "dialect acl\nsync device timeout 5",
            13,
            "aclrtSynchronizeDevice has no timeout",
        ),
        ("dialect acl\npeek-last-error", 1, "aclGetRecentErrMsg"),
        (
            "reset-device 0",
            14,
            "cudaDeviceReset resets the current device",
        ),
        (
            "malloc b 64\nipc-get-mem-handle b h",
            1,
            "IPC memory handles are not in the scenario language",
        ),
        (
            "ipc-open-mem-handle h b",
            1,
            "IPC memory handles are not in the scenario language",
        ),
    ] {
        let e = err(text);
        assert_eq!(e.line, text.lines().count(), "{text}: {e}");
        assert_eq!(e.column, col, "{text}: {e}");
        assert!(e.found.contains(found), "{text}: {e}");
    }
    // What needs an argument in one dialect and none in the other.
    let e = err("dialect acl\nreset-device");
    assert!(e.expected.starts_with("a device number"), "{e}");
    let e = err("dialect acl\nsync stream default timeout 0.5");
    assert!(e.expected.starts_with("a timeout in milliseconds"), "{e}");
    // Each dialect's own words parse.
    for text in [
        "dialect acl\nset-device 0\nstream s priority 1\nevent a\nevent b sync time-line\nevent c ex sync\n\
         event d flags 0x41\ncontext x device 0\nset-context x\nsync stream s timeout 10ms\n\
         sync event a timeout -1\nreset-device-force 0\ndestroy x",
        "dialect cuda\nstream s non-blocking priority -1\nevent e blocking-sync disable-timing interprocess\n\
         sync per-thread\nrecord e on legacy\npeek-last-error\nreset-device",
    ] {
        assert!(parse(text).is_ok(), "{text}: {:?}", parse(text));
    }
}

// ---- running ---------------------------------------------------------------------------------------------

#[test]
fn failed_calls_print_their_error_and_the_run_goes_on() {
    let r = run("event a disable-timing\n\
                 event b disable-timing\n\
                 record a\n\
                 record b\n\
                 sync event b\n\
                 elapsed a b\n\
                 destroy a\n\
                 query a\n\
                 event c flags 0x4\n\
                 get-last-error\n\
                 get-last-error\n");
    assert!(r.stopped.is_none());
    assert!(matches!(
        at(&r, 6),
        Outcome::Error(SimError::TimingDisabled { .. })
    ));
    assert!(matches!(
        at(&r, 8),
        Outcome::Error(SimError::InvalidHandle {
            problem: HandleProblem::Destroyed,
            ..
        })
    ));
    assert!(matches!(
        at(&r, 9),
        Outcome::Error(SimError::InvalidFlags { .. })
    ));
    assert!(matches!(
        at(&r, 10),
        Outcome::LastError(Some(SimError::InvalidFlags { .. }))
    ));
    assert_eq!(at(&r, 11), &Outcome::LastError(None));
    let text = r.transcript();
    assert!(
        text.contains("400 cudaErrorInvalidResourceHandle: invalid event handle: it was destroyed"),
        "{text}"
    );
    assert!(
        text.contains("400 cudaErrorInvalidResourceHandle: elapsed time: event 1 was created"),
        "{text}"
    );
    assert!(
        text.contains("1 cudaErrorInvalidValue: invalid flags 0x4"),
        "{text}"
    );
}

#[test]
fn queries_answer_not_ready_then_complete() {
    let r = run("stream s\nkernel k on s 1ms\nquery s\nquery stream s\nsync s\nquery s");
    assert_eq!(at(&r, 3), &Outcome::StreamStatus(Status::NotReady));
    assert_eq!(at(&r, 4), &Outcome::StreamStatus(Status::NotReady));
    assert_eq!(at(&r, 6), &Outcome::StreamStatus(Status::Complete));
    assert_eq!(answer(&r, 3), "600 cudaErrorNotReady");
    assert_eq!(answer(&r, 6), "0 cudaSuccess");
}

#[test]
fn copies_between_every_kind_of_buffer() {
    let r = run("stream s\n\
                 pageable h 4KiB\n\
                 malloc-host pin 4KiB\n\
                 malloc d 4KiB\n\
                 memcpy d h\n\
                 memcpy-async pin d on s\n\
                 memcpy-async h d 1KiB on s\n\
                 memcpy h h 16\n\
                 memset d 7\n\
                 memset-async d 0 128 on s\n\
                 host-fn on s\n\
                 memcpy d h 8KiB\n\
                 free d\n\
                 free pin\n\
                 free h\n\
                 sync device\n");
    assert!(r.stopped.is_none(), "{:?}", r.stopped);
    for line in 5..=11 {
        assert!(
            !matches!(at(&r, line), Outcome::Error(_)),
            "line {line}: {:?}",
            at(&r, line)
        );
    }
    assert!(matches!(
        at(&r, 12),
        Outcome::Error(SimError::OutOfRange { .. })
    ));
    let kinds: Vec<&str> = r.trace.ops.iter().map(|o| o.kind.name()).collect();
    assert!(kinds.contains(&"memcpy") && kinds.contains(&"memset") && kinds.contains(&"host-fn"));
}

#[test]
fn a_second_process_cannot_use_the_first_ones_event_without_ipc() {
    let r = run("process A\n\
                 stream s\n\
                 event e interprocess disable-timing\n\
                 kernel k on s 50us\n\
                 record e on s\n\
                 process B\n\
                 stream t\n\
                 wait t e\n\
                 kernel k2 on t 20us\n\
                 sync device\n");
    assert!(r.stopped.is_none());
    assert!(
        matches!(
            at(&r, 8),
            Outcome::Error(SimError::InvalidHandle {
                problem: HandleProblem::Foreign { .. },
                ..
            })
        ),
        "{:?}",
        at(&r, 8)
    );
    let text = r.report(80);
    assert!(text.contains("[B] wait t e"), "{text}");
    let timeline = r.timeline(80);
    assert!(
        timeline.lines().any(|l| l.starts_with("A s ")),
        "{timeline}"
    );
    assert!(
        timeline.lines().any(|l| l.starts_with("B t ")),
        "{timeline}"
    );
    let json = r.chrome_json();
    assert!(json.contains("\"process 1 (B)\""), "{json}");
}

/// Devices, peers and reset in CUDA (cuda-musa.md · Devices and peers, DeviceReset).
#[test]
fn cuda_devices_peers_and_reset() {
    let r = run("devices 2\n\
                 get-device-count\n\
                 get-device\n\
                 can-access-peer 0 0\n\
                 can-access-peer 0 1\n\
                 can-access-peer 0 5\n\
                 enable-peer-access 1 flags 1\n\
                 enable-peer-access 0\n\
                 enable-peer-access 1\n\
                 enable-peer-access 1\n\
                 disable-peer-access 1\n\
                 disable-peer-access 1\n\
                 stream s\n\
                 event e\n\
                 reset-device\n\
                 kernel k on s\n\
                 record e\n\
                 get-last-error\n\
                 get-last-error\n");
    answers(
        &r,
        &[
            (2, "0 cudaSuccess: count = 2"),
            (3, "0 cudaSuccess: device 0"),
            (4, "0 cudaSuccess: canAccessPeer = 0"),
            (5, "0 cudaSuccess: canAccessPeer = 1"),
            (6, "101 cudaErrorInvalidDevice"),
            (7, "1 cudaErrorInvalidValue"),
            (8, "101 cudaErrorInvalidDevice"),
            (9, "0 cudaSuccess"),
            (10, "704 cudaErrorPeerAccessAlreadyEnabled"),
            (11, "0 cudaSuccess"),
            (12, "705 cudaErrorPeerAccessNotEnabled"),
            (15, "0 cudaSuccess"),
            (
                16,
                "400 cudaErrorInvalidResourceHandle: invalid stream handle: it was destroyed by the reset",
            ),
            (
                17,
                "400 cudaErrorInvalidResourceHandle: invalid event handle: it was destroyed by the reset",
            ),
            (18, "400 cudaErrorInvalidResourceHandle"),
            (19, "0 cudaSuccess"),
        ],
    );
}

/// IPC events in MUSA across two processes (cuda-musa.md · IPC; the MUSA events article §2.3).
#[test]
fn musa_ipc_events_across_processes() {
    let r = run("dialect musa\n\
                 process A\n\
                 event bad interprocess\n\
                 event plain\n\
                 event e disable-timing interprocess\n\
                 ipc-get-event-handle plain h0\n\
                 ipc-get-event-handle e h\n\
                 ipc-open-event-handle h own\n\
                 stream s\n\
                 kernel producer on s 100us\n\
                 record e on s\n\
                 process B\n\
                 ipc-open-event-handle h e2\n\
                 stream t\n\
                 wait t e2\n\
                 kernel consumer on t 10us\n\
                 elapsed e2 e2\n\
                 sync stream t\n\
                 query e2\n");
    answers(
        &r,
        &[
            (3, "1 musaErrorInvalidValue"),
            (6, "400 musaErrorInvalidResourceHandle"),
            (7, "0 musaSuccess: `h` holds the 64-byte handle"),
            (8, "201 musaErrorDeviceUninitialized"),
            (13, "0 musaSuccess: event 1 on device 0"),
            (15, "0 musaSuccess"),
            (17, "400 musaErrorInvalidResourceHandle"),
            (19, "0 musaSuccess"),
        ],
    );
    let producer = r.trace.find("producer").expect("A's kernel ran");
    let consumer = r.trace.find("consumer").expect("B's kernel ran");
    assert_eq!(consumer.start, producer.end, "B waited for A's record");
    assert_ne!(consumer.stream.process, producer.stream.process);
    // A handle whose export failed holds nothing: using it stops the run.
    let r = run("event plain\nipc-get-event-handle plain h\nprocess B\nipc-open-event-handle h e");
    let e = r.stopped.expect("stopped");
    assert_eq!(e.line, 4);
    assert!(e.message.contains("creating it failed on line 2"), "{e}");
}

/// Contexts, refcounted reset and peers in ACL (acl.md · Devices and contexts, Ownership, Peers).
#[test]
fn acl_contexts_reset_and_peers() {
    let r = run("dialect acl\n\
                 devices 2\n\
                 get-device\n\
                 set-device 0\n\
                 stream s0\n\
                 context c device 0\n\
                 kernel k on s0\n\
                 kernel k\n\
                 set-device 0\n\
                 kernel k on s0\n\
                 destroy c\n\
                 set-context c\n\
                 context d device 1\n\
                 get-device\n\
                 reset-device 0\n\
                 reset-device 0\n\
                 reset-device 0\n\
                 reset-device-force 1\n\
                 set-device 1\n\
                 can-access-peer 1 1\n\
                 enable-peer-access 1\n\
                 enable-peer-access 0 flags 1\n\
                 enable-peer-access 0\n\
                 enable-peer-access 0\n\
                 disable-peer-access 0\n\
                 disable-peer-access 0\n\
                 get-last-error\n\
                 set-device 7\n");
    answers(
        &r,
        &[
            (3, "107002 ACL_ERROR_RT_CONTEXT_NULL"),
            (4, "0 ACL_SUCCESS"),
            (6, "0 ACL_SUCCESS: a context on device 0, now current"),
            (7, "107003 ACL_ERROR_RT_STREAM_CONTEXT"),
            (8, "0 ACL_SUCCESS"),
            (10, "0 ACL_SUCCESS"),
            (11, "0 ACL_SUCCESS"),
            (12, "107017 ACL_ERROR_RT_INVALID_HANDLE"),
            (14, "0 ACL_SUCCESS: device 1"),
            (15, "0 ACL_SUCCESS"),
            (16, "0 ACL_SUCCESS"),
            (17, "507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR"),
            (18, "507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR"),
            (20, "100000 ACL_ERROR_INVALID_PARAM"),
            (21, "100000 ACL_ERROR_INVALID_PARAM"),
            (22, "200006 ACL_ERROR_FEATURE_UNSUPPORTED"),
            (23, "0 ACL_SUCCESS"),
            (24, "0 ACL_SUCCESS"),
            (25, "0 ACL_SUCCESS"),
            (26, "0 ACL_SUCCESS"),
            (
                27,
                "message: invalid flags 0x1 for aclrtDeviceEnablePeerAccess",
            ),
            (28, "107001 ACL_ERROR_RT_INVALID_DEVICEID"),
        ],
    );
    // The context's default stream has its own timeline row.
    assert!(
        r.timeline(80)
            .lines()
            .any(|l| l.starts_with("ctx 2 default")),
        "{}",
        r.timeline(80)
    );
}

/// ACL events: the three create calls, what a query and a wait do before the first record, deferred waits,
/// timeouts and elapsed time (acl.md · Events; Peers, memory, timeouts).
#[test]
fn acl_events_waits_and_timeouts() {
    let r = run("dialect acl\n\
                 set-device 0\n\
                 stream s\n\
                 stream s2\n\
                 event plain\n\
                 event tl time-line\n\
                 event sy sync\n\
                 event ex ex sync\n\
                 event bad flags 0x100\n\
                 get-last-error\n\
                 query plain\n\
                 query ex\n\
                 wait s plain\n\
                 wait s tl\n\
                 wait s ex\n\
                 wait s sy\n\
                 kernel k on s 10us\n\
                 sync stream s timeout 5\n\
                 sync stream s timeout 0\n\
                 sync stream s\n\
                 record sy on s2\n\
                 sync stream s\n\
                 elapsed plain plain\n\
                 record plain on s\n\
                 kernel k2 on s 2ms\n\
                 record tl on s\n\
                 elapsed plain tl\n\
                 sync event tl timeout 1ms\n\
                 sync event tl timeout -1\n\
                 elapsed plain tl\n\
                 query stream s\n");
    answers(
        &r,
        &[
            (5, "0 ACL_SUCCESS: event 1 on device 0"),
            (
                9,
                "100000 ACL_ERROR_INVALID_PARAM: invalid flags 0x100 for aclrtCreateEventWithFlag",
            ),
            (10, "message: invalid flags 0x100"),
            (11, "0 ACL_SUCCESS: ACL_EVENT_RECORDED_STATUS_NOT_READY"),
            (12, "0 ACL_SUCCESS: ACL_EVENT_RECORDED_STATUS_COMPLETE"),
            (13, "107000 ACL_ERROR_RT_PARAM_INVALID"),
            (14, "207000 ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
            (15, "0 ACL_SUCCESS"),
            (16, "0 ACL_SUCCESS"),
            (18, "507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT"),
            (
                19,
                "107000 ACL_ERROR_RT_PARAM_INVALID: invalid value for timeout",
            ),
            (20, "507000 ACL_ERROR_RT_INTERNAL_ERROR"),
            (22, "0 ACL_SUCCESS"),
            (23, "507000 ACL_ERROR_RT_INTERNAL_ERROR"),
            (27, "107006 ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID"),
            (28, "507047 ACL_ERROR_RT_EVENT_SYNC_TIMEOUT"),
            (29, "0 ACL_SUCCESS"),
            (30, "0 ACL_SUCCESS: 2.001 ms"),
            (31, "0 ACL_SUCCESS: ACL_STREAM_STATUS_COMPLETE"),
        ],
    );
    // The timeout moved the host clock by exactly its length.
    let clock = |line| r.calls.iter().find(|c| c.line == line).unwrap().clock;
    assert_eq!(
        clock(18).as_nanos() - clock(17).as_nanos(),
        5_000_000 + 1_000
    );
}

#[test]
fn misuse_of_a_failed_creation_stops_the_run() {
    let r = run("set-device 3\nmalloc b 64GiB\nmemset b 0");
    assert!(matches!(
        at(&r, 1),
        Outcome::Error(SimError::InvalidDevice { .. })
    ));
    assert!(matches!(
        at(&r, 2),
        Outcome::Error(SimError::OutOfMemory { .. })
    ));
    let e = r.stopped.unwrap();
    assert_eq!((e.line, e.column), (3, 8));
    assert!(e.message.contains("creating it failed on line 2"), "{e}");
}

#[test]
fn host_buffers_are_limited() {
    let r = run("pageable h 2GiB");
    assert!(r.stopped.unwrap().message.contains("at most 1 GiB"));
}

/// A race is reported with the lines of both accesses, the buffer's name, and the report's fix; ordering the
/// accesses with an event removes it.
#[test]
fn races_are_reported_on_their_lines() {
    let r = run("dialect acl\n\
                 set-device 0\n\
                 stream a\n\
                 stream b\n\
                 malloc buf 4KiB\n\
                 malloc-host out 4KiB\n\
                 kernel produce on a 100us writes buf\n\
                 kernel other on a 10us\n\
                 memcpy-async out buf on b\n\
                 sync device\n");
    assert_eq!(r.races.len(), 1, "{}", r.race_section());
    let race = &r.races[0];
    assert_eq!(race.second_line.0, 9);
    assert_eq!(race.first_line.as_ref().map(|l| l.0), Some(7));
    assert_eq!(race.buffer.as_deref(), Some("buf"));
    assert!(race.report.first.write && !race.report.second.write);
    let text = r.race_section();
    assert!(text.starts_with("races: 1 found\n"), "{text}");
    for needle in [
        "(device 0 memory, `buf`)",
        "writes — line 7: `kernel produce on a 100us writes buf`",
        "reads — line 9: `memcpy-async out buf on b`",
        "first:  kernel `produce` on stream `a` (device 0, process 0) writes",
        "second: memcpy `memcpy_async` on stream `b` (device 0, process 0) reads",
        "fix: record an event on stream `a` after `produce` and make stream `b` wait on it",
    ] {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
    assert!(!text.contains(".rs:"), "no Rust call sites: {text}");
    // The same program with the event: no race.
    let r = run("dialect acl\n\
                 set-device 0\n\
                 stream a\n\
                 stream b\n\
                 event e\n\
                 malloc buf 4KiB\n\
                 malloc-host out 4KiB\n\
                 kernel produce on a 100us writes buf\n\
                 record e on a\n\
                 wait b e\n\
                 memcpy-async out buf on b\n\
                 sync device\n");
    assert!(r.races.is_empty(), "{}", r.race_section());
    assert!(r.report(80).ends_with("races: none found\n"));
}

// ---- properties ------------------------------------------------------------------------------------------

const WORDS: &[&str] = &[
    "dialect",
    "cuda",
    "musa",
    "acl",
    "devices",
    "seed",
    "process",
    "set-device",
    "stream",
    "event",
    "malloc",
    "malloc-host",
    "pageable",
    "free",
    "destroy",
    "kernel",
    "memcpy",
    "memcpy-async",
    "memset",
    "memset-async",
    "host-fn",
    "record",
    "wait",
    "query",
    "sync",
    "elapsed",
    "get-last-error",
    "peek-last-error",
    "can-access-peer",
    "enable-peer-access",
    "disable-peer-access",
    "ipc-get-event-handle",
    "ipc-open-event-handle",
    "ipc-get-mem-handle",
    "context",
    "set-context",
    "reset-device",
    "reset-device-force",
    "get-device",
    "get-device-count",
    "timeout",
    "ex",
    "sync",
    "time-line",
    "ipc",
    "external",
    "10ms",
    "on",
    "reads",
    "writes",
    "default",
    "legacy",
    "per-thread",
    "device",
    "non-blocking",
    "priority",
    "flags",
    "disable-timing",
    "interprocess",
    "s1",
    "s2",
    "e1",
    "e2",
    "b",
    "h",
    "0",
    "1",
    "-1",
    "2",
    "0x7",
    "4096",
    "4KiB",
    "99999999999999999999999",
    "200us",
    "1.5ms",
    "µs",
    "#",
    "##",
    "é",
    "\t",
    "",
    "1.",
    ".",
    "_",
    "0x",
];

fn check_error(text: &str, e: &scenario::ParseError) {
    let lines = text.lines().count().max(1);
    assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
    assert!(e.column >= 1, "{e}");
    let line = text.lines().nth(e.line - 1).unwrap_or("");
    assert!(
        e.column <= line.chars().count() + 1,
        "column {} past the end of {line:?}",
        e.column
    );
    assert!(!e.expected.is_empty() && !e.found.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Random text: an error or a scenario, never a panic.
    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        if let Err(e) = parse(&text) {
            check_error(&text, &e);
        }
    }

    /// Random soups of the language's own words, which get much further into the parser.
    #[test]
    fn token_soups_never_panic(
        lines in prop::collection::vec(prop::collection::vec(prop::sample::select(WORDS), 0..7), 1..12)
    ) {
        let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
        if let Err(e) = parse(&text) {
            check_error(&text, &e);
        }
    }
}

/// A random valid CUDA program over two streams, two events and a buffer.
fn program() -> impl Strategy<Value = String> {
    let stream = prop::sample::select(vec!["s1", "s2", "default", "per-thread"]);
    let event = prop::sample::select(vec!["e1", "e2"]);
    let stmt = prop_oneof![
        (stream.clone(), 1u32..500).prop_map(|(s, us)| format!("kernel k on {s} {us}us writes b")),
        (event.clone(), stream.clone()).prop_map(|(e, s)| format!("record {e} on {s}")),
        (stream.clone(), event.clone()).prop_map(|(s, e)| format!("wait {s} {e}")),
        stream.clone().prop_map(|s| format!("query stream {s}")),
        event.clone().prop_map(|e| format!("query {e}")),
        stream.clone().prop_map(|s| format!("sync stream {s}")),
        event.clone().prop_map(|e| format!("sync event {e}")),
        Just("sync device".to_string()),
        Just("elapsed e1 e2".to_string()),
        stream
            .clone()
            .prop_map(|s| format!("memcpy-async b h 1KiB on {s}")),
        stream
            .clone()
            .prop_map(|s| format!("memset-async b 1 64 on {s}")),
        stream.prop_map(|s| format!("host-fn on {s}")),
        Just("memcpy h b".to_string()),
    ];
    prop::collection::vec(stmt, 0..25).prop_map(|body| {
        format!(
            "devices 1\nstream s1\nstream s2 non-blocking\nevent e1\nevent e2\n\
             malloc b 4KiB\nmalloc-host h 4KiB\n{}\n",
            body.join("\n")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random valid programs run to the end; the timeline fits any width; every flow arrow in the trace
    /// starts at a record and ends at a later wait.
    #[test]
    fn random_programs_render_within_width(text in program(), width in 1usize..140) {
        let r = run(&text);
        prop_assert!(r.stopped.is_none(), "{:?}", r.stopped);
        for line in Timeline::new(&r.trace).width(width).names(&r.names).to_string().lines() {
            prop_assert!(line.chars().count() <= width, "{line:?} at width {width}");
        }
        let v: Value = serde_json::from_str(&ChromeTrace::new(&r.trace).to_json()).unwrap();
        let events = v["traceEvents"].as_array().unwrap();
        let starts: Vec<&Value> = events.iter().filter(|e| e["ph"] == "s").collect();
        let ends: Vec<&Value> = events.iter().filter(|e| e["ph"] == "f").collect();
        prop_assert_eq!(starts.len(), ends.len());
        for s in starts {
            let f = ends.iter().find(|f| f["id"] == s["id"]).unwrap();
            prop_assert!(f["ts"].as_f64() >= s["ts"].as_f64());
        }
        let waits = r.trace.ops.iter().filter(|o| o.kind.name() == "wait").count();
        prop_assert_eq!(ends.len(), waits);
    }
}

/// A random valid ACL program: two streams and the context's default stream, a plain event and a SYNC event
/// (whose waits before a record are deferred), a second context, timeouts and device resets.
fn acl_program() -> impl Strategy<Value = String> {
    let stream = prop::sample::select(vec!["s1", "s2", "default"]);
    let event = prop::sample::select(vec!["e1", "e2"]);
    let stmt = prop_oneof![
        (stream.clone(), 1u32..500).prop_map(|(s, us)| format!("kernel k on {s} {us}us writes b")),
        (event.clone(), stream.clone()).prop_map(|(e, s)| format!("record {e} on {s}")),
        (stream.clone(), event.clone()).prop_map(|(s, e)| format!("wait {s} {e}")),
        stream.clone().prop_map(|s| format!("query stream {s}")),
        event.clone().prop_map(|e| format!("query {e}")),
        stream.clone().prop_map(|s| format!("sync stream {s}")),
        (stream.clone(), -1i32..3).prop_map(|(s, t)| format!("sync stream {s} timeout {t}")),
        (event.clone(), 1i32..3).prop_map(|(e, t)| format!("sync event {e} timeout {t}")),
        Just("sync device".to_string()),
        Just("elapsed e1 e2".to_string()),
        stream
            .clone()
            .prop_map(|s| format!("memcpy-async b h 1KiB on {s}")),
        stream.clone().prop_map(|s| format!("host-fn on {s}")),
        Just("set-context c".to_string()),
        Just("set-device 0".to_string()),
        Just("reset-device 0".to_string()),
        Just("get-last-error".to_string()),
    ];
    prop::collection::vec(stmt, 0..25).prop_map(|body| {
        format!(
            "dialect acl\ndevices 1\nset-device 0\ncontext c device 0\nset-device 0\nstream s1\n\
             stream s2\nevent e1\nevent e2 sync\nmalloc b 4KiB\nmalloc-host h 4KiB\n{}\n",
            body.join("\n")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random valid ACL programs (deferred waits that may never be released, resets that free the streams)
    /// run to the end without hanging, answer every call with an ACL code, and render within any width.
    #[test]
    fn random_acl_programs_run_to_the_end(text in acl_program(), width in 1usize..140) {
        let r = run(&text);
        prop_assert!(r.stopped.is_none(), "{:?}", r.stopped);
        for c in &r.calls {
            let a = outcome_text(Vendor::Acl, &c.outcome);
            prop_assert!(
                a.starts_with("0 ACL_SUCCESS") || a.contains(" ACL_ERROR_") || a.starts_with("message: ")
                    || a.starts_with("NULL"),
                "line {}: {a}", c.line
            );
        }
        for line in r.timeline(width).lines() {
            prop_assert!(line.chars().count() <= width, "{line:?} at width {width}");
        }
        let v: Value = serde_json::from_str(&r.chrome_json()).unwrap();
        let events = v["traceEvents"].as_array().unwrap();
        let starts = events.iter().filter(|e| e["ph"] == "s").count();
        let ends = events.iter().filter(|e| e["ph"] == "f").count();
        prop_assert_eq!(starts, ends);
    }
}

/// A typo of a statement gets the nearest statement (issue 12, item 8): one transposition (`recrod`), one
/// letter missing (`memcpy-asyn`), two edits in a long word (`kernal` → one, `synchronize` is no typo of
/// `sync`); a word far from every statement gets none.
#[test]
fn a_typo_of_a_statement_suggests_the_nearest() {
    for (text, near) in [
        ("recrod e", Some("record")),
        ("kernal k", Some("kernel")),
        ("memcpy-asyn a b", Some("memcpy-async")),
        ("sycn device", Some("sync")),
        ("evnet e", Some("event")),
        ("launch k", None),
        ("synchronize device", None),
    ] {
        let e = err(text);
        let word = text.split(' ').next().unwrap();
        let want = match near {
            Some(n) => format!("unknown statement `{word}`; did you mean `{n}`?"),
            None => format!("unknown statement `{word}`"),
        };
        assert_eq!(e.found, want, "{text}");
        assert_eq!((e.line, e.column), (1, 1), "{text}");
    }
}

/// A name is declared once: a second declaration, of the same kind or another, is refused at its line with
/// the first one's line; `process A` again switches back to A (not a declaration).
#[test]
fn a_second_declaration_of_a_name_is_refused_with_both_lines() {
    let e = err("stream s1\nevent e\nstream s1");
    assert_eq!((e.line, e.column), (3, 8));
    assert_eq!(e.expected, "a new name for a stream");
    assert_eq!(
        e.found,
        "`s1`, already declared on line 1 as a stream (line 3: a second declaration; give it another name)"
    );
    let e = err("malloc b 16\nevent b");
    assert_eq!(e.line, 2);
    assert!(
        e.found
            .contains("already declared on line 1 as a device buffer"),
        "{e}"
    );
    let e = err(
        "dialect musa\nevent e interprocess disable-timing\nipc-get-event-handle e h\nprocess B\nipc-open-event-handle h e",
    );
    assert_eq!(e.line, 5);
    assert!(
        e.found.contains("already declared on line 2 as an event"),
        "{e}"
    );
    let e = err("process A\nstream s\nprocess s");
    assert!(
        e.found.contains("already declared on line 2 as a stream"),
        "{e}"
    );
    // Switching back to a process is not a declaration.
    assert!(
        streamsim::scenario::parse("process A\nstream s\nprocess B\nprocess A\nkernel k on s")
            .is_ok()
    );
}

/// `devices 0` is a machine without devices, as `STREAMSIM_DEVICES=0` makes the facades' default machine, and
/// both answer the same codes (cuda-musa.md · Devices: 100 NoDevice is the code for "no device"; SetDevice ·
/// id >= count → 101; acl.md is silent on a machine without devices: 0 and count 0, sim). CUDA:
/// `cudaGetDeviceCount` → 100 (count 0), `cudaSetDevice(0)` → 101, `cudaStreamCreate` and `cudaMalloc` →
/// 100; ACL: `aclrtGetDeviceCount` → 0 with count 0, `aclrtSetDevice(0)` → 107001, `aclrtCreateStream` →
/// 107001.
#[test]
fn devices_0_and_a_facade_machine_without_devices_agree() {
    use std::ptr::null_mut;
    use streamsim::{Dialect, Machine, acl, cuda};

    let r = run("devices 0\nget-device-count\nset-device 0\nstream s\nmalloc b 16");
    assert_eq!(r.devices, 0);
    let codes: Vec<String> = (2..=5).map(|l| answer(&r, l)).collect();
    assert_eq!(
        codes
            .iter()
            .map(|a| a.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        [
            "100 cudaErrorNoDevice",
            "101 cudaErrorInvalidDevice",
            "100 cudaErrorNoDevice",
            "100 cudaErrorNoDevice"
        ]
    );
    let m = Machine::builder().devices(0).build().unwrap();
    let p = m.process();
    with_watchdog(20, move || {
        let _bound = p.bind();
        let (mut n, mut s, mut d) = (7, null_mut(), null_mut());
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(cuda::cudaGetDeviceCount(&mut n), 100);
            assert_eq!(n, 0);
            assert_eq!(cuda::cudaSetDevice(0), 101);
            assert_eq!(cuda::cudaStreamCreate(&mut s), 100);
            assert_eq!(cuda::cudaMalloc(&mut d, 16), 100);
        }
    });

    let r = run("dialect acl\ndevices 0\nget-device-count\nset-device 0\nstream s");
    assert_eq!(answer(&r, 3), "0 ACL_SUCCESS: count = 0");
    assert!(answer(&r, 4).starts_with("107001 ACL_ERROR_RT_INVALID_DEVICEID"));
    assert!(answer(&r, 5).starts_with("107001 ACL_ERROR_RT_INVALID_DEVICEID"));
    let m = Machine::builder()
        .devices(0)
        .dialect(Dialect::Acl)
        .build()
        .unwrap();
    let p = m.process();
    with_watchdog(20, move || {
        let _bound = p.bind();
        let (mut n, mut s) = (7u32, null_mut());
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(acl::aclrtGetDeviceCount(&mut n), acl::ACL_SUCCESS);
            assert_eq!(n, 0);
            assert_eq!(acl::aclrtSetDevice(0), 107001);
            assert_eq!(acl::aclrtCreateStream(&mut s), 107001);
        }
    });
}

/// `set-device-flags` / `get-device-flags` (cudaSetDeviceFlags / cudaGetDeviceFlags): the flags read back with
/// cudaDeviceMapHost; two schedule words → 1 and nothing changes; a device reset restores the default; ACL has
/// no such statement. The same program with spin or blocking-sync gives the same virtual times
/// (docs/semantics/cuda-musa-runtime-api.md · SetDeviceFlags).
#[test]
fn device_flags_statements() {
    let r = run("get-device-flags\n\
                 set-device-flags blocking-sync map-host\n\
                 get-device-flags\n\
                 set-device-flags spin yield\n\
                 set-device-flags flags 0x20\n\
                 get-device-flags\n\
                 set-device-flags spin flags 0x10\n\
                 get-device-flags\n\
                 reset-device\n\
                 get-device-flags\n");
    answers(
        &r,
        &[
            (1, "0 cudaSuccess: flags = 0x8"),
            (2, "0 cudaSuccess"),
            (3, "0 cudaSuccess: flags = 0xc"),
            (4, "1 cudaErrorInvalidValue"),
            (5, "1 cudaErrorInvalidValue"),
            (6, "0 cudaSuccess: flags = 0xc"),
            (7, "0 cudaSuccess"),
            (8, "0 cudaSuccess: flags = 0x19"),
            (10, "0 cudaSuccess: flags = 0x8"),
        ],
    );
    let e = err("dialect acl\nset-device-flags spin\n");
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.found.contains("dialect acl does not have"), "{e}");
    let e = err("set-device-flags\n");
    assert!(e.expected.starts_with("a device flag"), "{e}");
    let e = err("set-device-flags fast\n");
    assert_eq!((e.line, e.column, e.found.as_str()), (1, 18, "`fast`"));
    let program = |flag: &str| {
        let r = run(&format!(
            "set-device-flags {flag}\nstream s\nevent a\nevent b\nrecord a on s\nkernel k on s 2ms\n\
             record b on s\nsync b\nelapsed a b\nsync device\n"
        ));
        (answer(&r, 9), r.trace)
    };
    let (spin_elapsed, spin_trace) = program("spin");
    assert!(
        spin_elapsed.starts_with("0 cudaSuccess: 2.001 ms"),
        "{spin_elapsed}"
    );
    for flag in ["auto", "yield", "blocking-sync"] {
        assert_eq!(
            program(flag),
            (spin_elapsed.clone(), spin_trace.clone()),
            "{flag}"
        );
    }
}
