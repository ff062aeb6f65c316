//! The scenario language: parse errors (line, column, expected, found), what running each kind of statement
//! answers, the features that must stop with "not supported yet", and property tests: random text never
//! makes the parser panic, and random valid programs run to a timeline that fits its width and a trace whose
//! flows pair up.

use proptest::prelude::*;
use serde_json::Value;
use streamsim::export::{ChromeTrace, Timeline};
use streamsim::scenario::{self, Outcome, Run, parse};
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

// ---- parse errors ----------------------------------------------------------------------------------------

#[test]
fn unknown_command() {
    let e = err("\n\n   launch k\n");
    assert_eq!((e.line, e.column), (3, 4));
    assert!(e.expected.starts_with("a command (dialect, devices"), "{e}");
    assert_eq!(e.found, "`launch`");
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
        ("devices 0", 9, "a device count"),
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
        text.contains("InvalidHandle: invalid event handle: it was destroyed"),
        "{text}"
    );
    assert!(
        text.contains("TimingDisabled: elapsed time: event 1 was created"),
        "{text}"
    );
}

#[test]
fn queries_answer_not_ready_then_complete() {
    let r = run("stream s\nkernel k on s 1ms\nquery s\nquery stream s\nsync s\nquery s");
    assert_eq!(at(&r, 3), &Outcome::Status(Status::NotReady));
    assert_eq!(at(&r, 4), &Outcome::Status(Status::NotReady));
    assert_eq!(at(&r, 6), &Outcome::Status(Status::Complete));
    assert!(r.transcript().contains("NotReady"));
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

#[test]
fn unsupported_features_stop_with_their_line() {
    for (text, line, feature) in [
        ("devices 2\ncan-access-peer 0 1", 2, "peer access"),
        ("devices 2\nenable-peer-access 1", 2, "peer access"),
        (
            "devices 2\nkernel k\ndisable-peer-access 1",
            3,
            "peer access",
        ),
        (
            "event e interprocess disable-timing\nipc-get-event-handle e h",
            2,
            "IPC",
        ),
        ("malloc b 64\nipc-get-mem-handle b h", 2, "IPC"),
        ("context c device 0", 1, "contexts"),
        ("reset-device", 1, "device reset"),
        ("dialect acl\nstream s", 1, "dialect acl"),
        ("# only configuration\ndialect acl", 2, "dialect acl"),
    ] {
        let r = run(text);
        let e = r
            .stopped
            .as_ref()
            .unwrap_or_else(|| panic!("{text}: not stopped"));
        assert!(e.not_supported, "{text}: {e}");
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.message.starts_with(feature), "{text}: {e}");
        assert!(e.message.contains("not supported yet"), "{text}: {e}");
        assert!(r.report(80).contains("stopped: line"), "{text}");
    }
    // Statements after an unsupported one that use its names still parse.
    let s = parse(
        "process A\nevent e interprocess disable-timing\nipc-get-event-handle e h\n\
         process B\nipc-open-event-handle h e2\nstream s\nwait s e2\ncontext c\nset-context c\ndestroy c",
    );
    assert!(s.is_ok(), "{s:?}");
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
    assert!(!e.not_supported);
    assert_eq!((e.line, e.column), (3, 8));
    assert!(e.message.contains("creating it failed on line 2"), "{e}");
}

#[test]
fn host_buffers_are_limited() {
    let r = run("pageable h 2GiB");
    assert!(r.stopped.unwrap().message.contains("at most 1 GiB"));
}

#[test]
fn the_race_hook_says_not_checked() {
    let r = run("kernel k");
    assert!(r.races.is_none());
    assert!(r.report(80).contains("races: not checked"));
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
    "ipc-get-event-handle",
    "ipc-open-event-handle",
    "context",
    "set-context",
    "reset-device",
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

/// A random valid program over two streams, two events and a buffer.
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
