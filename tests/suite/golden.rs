//! The shipped scenarios (`examples/scenarios/*.ss`): their full `streamsim run` output (transcript, terminal
//! timeline, races) and their Chrome trace JSON, byte for byte against `tests/data/scenarios/`; the JSON's
//! structure (tracks, slices, flows); the timeline's width; and the CLI itself.
//!
//! To regenerate the golden files after an intended change, run
//!
//! ```sh
//! STREAMSIM_BLESS=1 cargo test --test suite golden
//! ```
//!
//! and review the diff (`git diff tests/data`) before committing it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use streamsim::scenario::{self, Run};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped scenarios, sorted by file name.
fn scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("examples/scenarios"))
        .expect("examples/scenarios exists")
        .map(|e| e.expect("readable directory").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ss"))
        .collect();
    v.sort();
    assert!(v.len() >= 8, "the seeds' scenarios are shipped: {v:?}");
    v
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

fn run_file(p: &Path) -> Run {
    let text = std::fs::read_to_string(p).unwrap();
    let run = scenario::run_source(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(run.stopped.is_none(), "{}: {:?}", p.display(), run.stopped);
    run
}

fn data_dir() -> PathBuf {
    root().join("tests/data/scenarios")
}

/// Compares `actual` with the golden file, or writes it when `STREAMSIM_BLESS=1`.
fn golden(name: &str, actual: &str) {
    let path = data_dir().join(name);
    if std::env::var("STREAMSIM_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(data_dir()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `STREAMSIM_BLESS=1 cargo test --test suite golden` to create it)",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the output, first at line {}:\n  golden: {:?}\n  actual: {:?}\n\
             (if the change is intended: STREAMSIM_BLESS=1 cargo test --test suite golden)",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

#[test]
fn reports_match_the_golden_files() {
    for p in scenarios() {
        golden(&format!("{}.txt", stem(&p)), &run_file(&p).report(80));
    }
}

#[test]
fn traces_match_the_golden_files() {
    for p in scenarios() {
        golden(&format!("{}.json", stem(&p)), &run_file(&p).chrome_json());
    }
}

#[test]
fn every_golden_file_belongs_to_a_shipped_scenario() {
    let stems: BTreeSet<String> = scenarios().iter().map(|p| stem(p)).collect();
    for e in std::fs::read_dir(data_dir()).unwrap() {
        let p = e.unwrap().path();
        assert!(
            stems.contains(&stem(&p)),
            "{} has no scenario in examples/scenarios (stale golden file?)",
            p.display()
        );
    }
}

#[test]
fn runs_are_deterministic() {
    for p in scenarios() {
        let (a, b) = (run_file(&p), run_file(&p));
        assert_eq!(a.report(80), b.report(80), "{}", p.display());
        assert_eq!(a.chrome_json(), b.chrome_json(), "{}", p.display());
    }
}

#[test]
fn the_first_scenario_is_the_elapsed_time_one() {
    // The README's first command runs the first scenario in name order.
    assert_eq!(stem(&scenarios()[0]), "01_elapsed_time");
}

#[test]
fn timelines_fit_80_columns_and_other_widths() {
    for p in scenarios() {
        let run = run_file(&p);
        for width in [80, 40, 60, 100, 132, 20, 8] {
            let text = run.timeline(width);
            for line in text.lines() {
                assert!(
                    line.chars().count() <= width,
                    "{} at width {width}: {line:?} has {} characters",
                    p.display(),
                    line.chars().count()
                );
            }
        }
        // Every stream the scenario named and used has a row at 80 columns (its label may start with the
        // process and the device: `A stream`, `d1 s1`).
        let text = run.timeline(80);
        for c in run.calls.iter().filter(|c| c.source.starts_with("stream ")) {
            let name = c.source.split_whitespace().nth(1).unwrap();
            let used = run
                .calls
                .iter()
                .any(|u| u.line > c.line && u.source.split_whitespace().any(|w| w == name));
            if !used {
                continue;
            }
            assert!(
                text.lines().any(|l| l
                    .split('|')
                    .next()
                    .is_some_and(|label| label.trim_end().ends_with(&format!(" {name}"))
                        || label.trim_end() == name)),
                "{}: no row for {name}:\n{text}",
                p.display()
            );
        }
    }
}

// ---- JSON structure ------------------------------------------------------------------------------------

/// A parsed Chrome trace: tracks by (pid, tid) → name, and the non-metadata events.
struct Parsed {
    tracks: BTreeMap<(u64, u64), String>,
    events: Vec<Value>,
}

impl Parsed {
    fn new(json: &str) -> Parsed {
        let v: Value = serde_json::from_str(json).expect("the trace is valid JSON");
        let all = v["traceEvents"]
            .as_array()
            .expect("traceEvents is an array");
        let mut tracks = BTreeMap::new();
        let mut processes = BTreeSet::new();
        let mut events = Vec::new();
        for e in all {
            let ph = e["ph"].as_str().expect("every event has a phase");
            let pid = e["pid"].as_u64().expect("every event has a pid");
            let tid = e["tid"].as_u64().expect("every event has a tid");
            match (ph, e["name"].as_str()) {
                ("M", Some("thread_name")) => {
                    let name = e["args"]["name"].as_str().unwrap().to_string();
                    assert!(
                        tracks.insert((pid, tid), name).is_none(),
                        "one name per track"
                    );
                }
                ("M", Some("process_name")) => {
                    processes.insert(pid);
                }
                ("M", _) => {}
                _ => {
                    assert!(e["ts"].as_f64().is_some_and(|t| t >= 0.0), "ts: {e}");
                    events.push(e.clone());
                }
            }
        }
        for e in &events {
            let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
            assert!(tracks.contains_key(&key), "event on an unnamed track: {e}");
            assert!(
                processes.contains(&key.0),
                "event in an unnamed process: {e}"
            );
        }
        Parsed { tracks, events }
    }

    fn track(&self, e: &Value) -> &str {
        &self.tracks[&(e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap())]
    }

    fn with(&self, ph: &str, cat: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["ph"] == ph && e["cat"] == cat)
            .collect()
    }

    fn slice(&self, name: &str) -> &Value {
        self.events
            .iter()
            .find(|e| e["ph"] == "X" && e["name"] == name)
            .unwrap_or_else(|| panic!("no slice {name:?}"))
    }

    fn track_names(&self) -> BTreeSet<&str> {
        self.tracks.values().map(String::as_str).collect()
    }

    /// Flow arrows of the waits as (start event, end event), checked to pair up one to one.
    fn flows(&self) -> Vec<(&Value, &Value)> {
        self.flows_of("wait")
    }

    /// Flow arrows of category `cat` as (start event, end event), checked to pair up one to one.
    fn flows_of(&self, cat: &str) -> Vec<(&Value, &Value)> {
        let starts = self.with("s", cat);
        let ends = self.with("f", cat);
        assert_eq!(starts.len(), ends.len(), "every flow start has an end");
        starts
            .into_iter()
            .map(|s| {
                let matching: Vec<_> = ends
                    .iter()
                    .filter(|f| f["id"] == s["id"] && f["name"] == s["name"])
                    .collect();
                assert_eq!(matching.len(), 1, "one end for flow {s}");
                let f = *matching[0];
                assert_eq!(
                    f["bp"], "e",
                    "flow ends bind to the enclosing slice or instant"
                );
                assert!(f["ts"].as_f64() >= s["ts"].as_f64(), "arrows go forward");
                (s, f)
            })
            .collect()
    }
}

fn parsed(name: &str) -> Parsed {
    let p = root().join("examples/scenarios").join(name);
    Parsed::new(&run_file(&p).chrome_json())
}

#[test]
fn every_trace_parses_and_is_well_formed() {
    for p in scenarios() {
        let t = Parsed::new(&run_file(&p).chrome_json());
        for e in &t.events {
            match e["ph"].as_str().unwrap() {
                "X" => assert!(e["dur"].as_f64().is_some_and(|d| d >= 0.0), "{e}"),
                "i" => {
                    assert_eq!(e["s"], "t", "instants are thread-scoped");
                    assert!(
                        ["record", "error", "race"].contains(&e["cat"].as_str().unwrap()),
                        "{e}"
                    );
                }
                "s" | "f" => assert!(e["id"].is_u64()),
                other => panic!("unexpected phase {other}: {e}"),
            }
        }
        // Every wait slice whose record is in the trace ends a flow that starts at that record, except a wait
        // that gave up at its timeout before the record (ACL aclrtSetOpWaitTimeout), marked `gave_up`.
        let flows = t.flows();
        let released = t
            .with("X", "wait")
            .into_iter()
            .filter(|w| w["args"]["gave_up"] != true)
            .count();
        assert_eq!(flows.len(), released, "{}", p.display());
        for (s, f) in &flows {
            let record = t
                .with("i", "record")
                .into_iter()
                .find(|r| r["pid"] == s["pid"] && r["tid"] == s["tid"] && r["ts"] == s["ts"]);
            assert!(record.is_some(), "flow {s} starts at a record");
            assert!(
                t.with("X", "wait")
                    .iter()
                    .any(|w| w["pid"] == f["pid"] && w["tid"] == f["tid"] && w["ts"] == f["ts"]),
                "flow {f} ends at a wait"
            );
        }
        // Every failed call is an instant on a host thread's track, with the dialect's code.
        for e in t.with("i", "error") {
            assert!(t.track(e).starts_with("host thread "), "{e}");
            assert!(e["args"]["code"].is_i64(), "{e}");
            assert!(
                e["name"]
                    .as_str()
                    .unwrap()
                    .ends_with(e["args"]["error"].as_str().unwrap()),
                "{e}"
            );
        }
        // Every race is an instant on each operation's track, joined by one arrow.
        let races = t.with("i", "race");
        let race_flows = t.flows_of("race");
        assert_eq!(races.len(), 2 * race_flows.len(), "{}", p.display());
        // Flow ids are unique across waits and races.
        let ids: BTreeSet<u64> = t
            .with("s", "wait")
            .into_iter()
            .chain(t.with("s", "race"))
            .map(|s| s["id"].as_u64().unwrap())
            .collect();
        assert_eq!(ids.len(), flows.len() + race_flows.len());
    }
}

#[test]
fn elapsed_time_trace() {
    let t = parsed("01_elapsed_time.ss");
    assert_eq!(
        t.track_names(),
        BTreeSet::from(["host thread 0", "dev0 · default stream"])
    );
    let k = t.slice("kernel");
    assert_eq!(k["cat"], "kernel");
    assert_eq!(
        (k["ts"].as_f64(), k["dur"].as_f64()),
        (Some(6.0), Some(250.0))
    );
    assert_eq!(t.track(k), "dev0 · default stream");
    let records = t.with("i", "record");
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["ts"].as_f64(), Some(5.0));
    assert_eq!(records[1]["ts"].as_f64(), Some(256.0));
    let sync = t.slice("event_synchronize(event `event2`)");
    assert_eq!(t.track(sync), "host thread 0");
    assert_eq!(
        sync["ts"].as_f64().unwrap() + sync["dur"].as_f64().unwrap(),
        256.0
    );
    assert!(t.flows().is_empty());
}

#[test]
fn multi_stream_wait_trace_has_the_flow_from_stream2_to_stream1() {
    let t = parsed("02_multi_stream_wait.ss");
    let s1 = "dev0 · stream1 (stream 1)";
    let s2 = "dev0 · stream2 (stream 2)";
    assert!(
        t.track_names()
            .is_superset(&BTreeSet::from([s1, s2, "host thread 0"]))
    );
    assert_eq!(t.track(t.slice("kernel1")), s1);
    assert_eq!(t.track(t.slice("kernel2")), s2);
    assert_eq!(t.track(t.slice("kernel")), s1);
    let flows = t.flows();
    assert_eq!(flows.len(), 1);
    let (s, f) = flows[0];
    assert_eq!((t.track(s), t.track(f)), (s2, s1));
    assert_eq!(
        s["name"], "event `event1`",
        "the scenario's name for the event"
    );
    // The kernel after the wait starts when kernel2 ends, where the arrow points.
    let k2 = t.slice("kernel2");
    let end2 = k2["ts"].as_f64().unwrap() + k2["dur"].as_f64().unwrap();
    assert_eq!(f["ts"].as_f64(), Some(end2));
    assert_eq!(t.slice("kernel")["ts"].as_f64(), Some(end2));
}

#[test]
fn stream_vs_event_sync_trace() {
    let t = parsed("03_stream_vs_event_sync.ss");
    let copies = t.with("X", "memcpy");
    let names: Vec<&str> = copies.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "memcpy_async · H2D 4 MiB",
            "memcpy_async · D2H 4 MiB",
            "memcpy_async · H2D 4 MiB",
            "memcpy_async · D2H 4 MiB"
        ]
    );
    assert_eq!(t.with("X", "kernel").len(), 2);
    assert_eq!(t.with("i", "record").len(), 1);
    let host: Vec<&str> = t
        .with("X", "host")
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        host,
        [
            "stream_synchronize(stream `stream`)",
            "event_synchronize(event `event`)",
            "reset_device(0)"
        ]
    );
    assert!(t.flows().is_empty());
    // Both ways end at the same point of the stream: the record is the stream's last operation.
    let record = t.with("i", "record")[0]["ts"].as_f64().unwrap();
    let last = copies[3]["ts"].as_f64().unwrap() + copies[3]["dur"].as_f64().unwrap();
    assert_eq!(record, last);
}

/// The end of a slice.
fn end(e: &Value) -> f64 {
    e["ts"].as_f64().unwrap() + e["dur"].as_f64().unwrap()
}

#[test]
fn wrong_stream_sync_trace_shows_the_copy_before_the_producer_ends() {
    let t = parsed("04_wrong_stream_sync.ss");
    let s1 = "dev0 · stream1 (stream 1)";
    let s2 = "dev0 · stream2 (stream 2)";
    let produce: Vec<&Value> = t.events.iter().filter(|e| e["name"] == "produce").collect();
    assert_eq!(produce.len(), 3);
    assert!(produce.iter().all(|p| t.track(p) == s1));
    let d2h: Vec<&Value> = t
        .with("X", "memcpy")
        .into_iter()
        .filter(|c| c["args"]["path"] == "D2H")
        .collect();
    assert_eq!(d2h.len(), 3);
    assert!(d2h.iter().all(|c| t.track(c) == s2));
    // The wrong half: the result is copied out while produce is still writing it.
    assert!(end(d2h[0]) < end(produce[0]));
    // The recommended half: one arrow from the producer's stream to the consumer's, the copy after it, and
    // the host not blocked until the final synchronize.
    let flows = t.flows();
    assert_eq!(flows.len(), 1);
    assert_eq!((t.track(flows[0].0), t.track(flows[0].1)), (s1, s2));
    assert_eq!(flows[0].1["ts"].as_f64(), Some(end(produce[1])));
    assert_eq!(d2h[1]["ts"].as_f64(), Some(end(produce[1])));
    // The not-recommended half: correct too, but the host waits for stream1 before it enqueues the copy.
    let host = t.with("X", "host");
    let sync1 = host
        .iter()
        .find(|h| h["name"] == "stream_synchronize(stream `stream1`)")
        .expect("the host synchronizes stream1");
    assert_eq!(end(sync1), end(produce[2]));
    assert!(d2h[2]["ts"].as_f64().unwrap() > end(produce[2]));
    // The race report names the wrong half's lines.
    let run = run_file(&root().join("examples/scenarios/04_wrong_stream_sync.ss"));
    assert_eq!(run.races.len(), 1, "{}", run.race_section());
    let race = &run.races[0];
    assert!(
        race.second_line
            .1
            .starts_with("memcpy-async result data on stream2")
    );
    let first = race
        .first_line
        .as_ref()
        .expect("the producer's line is found");
    assert!(
        first.1.starts_with("kernel produce on stream1"),
        "{first:?}"
    );
    assert!(first.0 < race.second_line.0);
    assert_eq!(race.buffer.as_deref(), Some("data"));
    // The trace shows it: an instant at the start of each operation, on its track, and an arrow from the
    // producer (which starts first) to the copy.
    let races = t.with("i", "race");
    assert_eq!(races.len(), 2);
    assert!(races.iter().all(|r| r["name"] == "data race #1"));
    assert_eq!((t.track(races[0]), t.track(races[1])), (s1, s2));
    assert_eq!(races[0]["ts"], produce[0]["ts"]);
    assert_eq!(races[1]["ts"], d2h[0]["ts"]);
    assert_eq!(
        races[0]["args"]["this"],
        "kernel `produce` on stream `stream1` (device 0, process 0) writes"
    );
    assert_eq!(
        races[0]["args"]["other"],
        "memcpy `memcpy_async` on stream `stream2` (device 0, process 0) reads"
    );
    assert_eq!(races[0]["args"]["bytes"], 1 << 20);
    let arrows = t.flows_of("race");
    assert_eq!(arrows.len(), 1);
    assert_eq!((t.track(arrows[0].0), t.track(arrows[0].1)), (s1, s2));
    assert_eq!(arrows[0].0["ts"], produce[0]["ts"]);
    assert_eq!(arrows[0].1["ts"], d2h[0]["ts"]);
    // No stream is called by its ordinal in the race text.
    assert!(
        !run.race_section().contains("stream 1"),
        "{}",
        run.race_section()
    );
    assert!(
        !run.race_section().contains("stream 2"),
        "{}",
        run.race_section()
    );
}

#[test]
fn event_time_points_trace() {
    let t = parsed("05_event_time_points.ss");
    let records = t.with("i", "record");
    assert_eq!(records.len(), 3);
    let k = t.slice("myKernel");
    assert_eq!(
        records[1]["ts"],
        serde_json::json!(k["ts"].as_f64().unwrap() + 500.0)
    );
    let host: Vec<&str> = t
        .with("X", "host")
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        host,
        [
            "event_synchronize(event `event2`)",
            "event_synchronize(event `event3`)"
        ]
    );
    // The elapsed time asked for too early is a failed call on the host track, with ACL's code.
    let failed = t.with("i", "error");
    assert_eq!(failed.len(), 1);
    assert_eq!(
        failed[0]["name"],
        "event_elapsed_time: 107006 ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID"
    );
    assert_eq!(failed[0]["args"]["code"], 107006);
    assert_eq!(t.track(failed[0]), "host thread 0");
}

#[test]
fn multi_device_trace_has_each_device_and_the_p2p_copy() {
    let t = parsed("06_multi_device_p2p.ss");
    for track in [
        "dev0 · s0 (stream 1)",
        "dev1 · s1 (stream 2)",
        "dev1 · context 2 default stream",
    ] {
        assert!(t.track_names().contains(track), "{:?}", t.track_names());
    }
    // Only the launches made while their stream's context was current ran.
    let kernels = t.with("X", "kernel");
    assert_eq!(kernels.len(), 2);
    let p2p: Vec<&Value> = t
        .with("X", "memcpy")
        .into_iter()
        .filter(|c| c["args"]["path"] == "P2P")
        .collect();
    assert_eq!(p2p.len(), 1, "one direct copy over the link");
    assert_eq!(t.track(p2p[0]), "dev1 · context 2 default stream");
    // The codes of the seed's failing calls.
    let run = run_file(&root().join("examples/scenarios/06_multi_device_p2p.ss"));
    let count = |start: &str| {
        run.calls
            .iter()
            .filter(|c| scenario::outcome_text(run.vendor, &c.outcome).starts_with(start))
            .count()
    };
    assert_eq!(count("107003 ACL_ERROR_RT_STREAM_CONTEXT"), 4);
    assert_eq!(count("107000 ACL_ERROR_RT_PARAM_INVALID"), 1);
    assert_eq!(count("107002 ACL_ERROR_RT_CONTEXT_NULL"), 1);
    assert_eq!(count("507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR"), 1);
    assert_eq!(
        count("0 ACL_SUCCESS") + 7,
        run.calls.len(),
        "every other call succeeds"
    );
    // Each failed call is in the trace, on the host track, with its code.
    let failed: Vec<(&str, i64)> = t
        .with("i", "error")
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap(),
                e["args"]["code"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        failed,
        [
            ("get_device: 107002 ACL_ERROR_RT_CONTEXT_NULL", 107002),
            ("launch: 107003 ACL_ERROR_RT_STREAM_CONTEXT", 107003),
            ("memcpy_async: 107003 ACL_ERROR_RT_STREAM_CONTEXT", 107003),
            ("record_event: 107003 ACL_ERROR_RT_STREAM_CONTEXT", 107003),
            (
                "stream_wait_event: 107003 ACL_ERROR_RT_STREAM_CONTEXT",
                107003
            ),
            ("memcpy: 107000 ACL_ERROR_RT_PARAM_INVALID", 107000),
            (
                "reset_device: 507007 ACL_ERROR_RT_CONTEXT_RELEASE_ERROR",
                507007
            ),
        ]
    );
}

#[test]
fn ipc_trace_has_two_processes_and_the_arrow_between_them() {
    let t = parsed("07_ipc_event.ss");
    let producer = t.slice("producer");
    let consumer = t.slice("consumer");
    assert_ne!(producer["pid"], consumer["pid"], "two processes");
    assert_eq!(t.track(producer), "dev0 · stream (stream 1)");
    assert_eq!(t.track(consumer), "dev0 · stream_b (stream 1)");
    let flows = t.flows();
    assert_eq!(flows.len(), 1);
    let (s, f) = flows[0];
    assert_eq!((&s["pid"], &f["pid"]), (&producer["pid"], &consumer["pid"]));
    assert_eq!(s["ts"].as_f64(), Some(end(producer)));
    assert_eq!(consumer["ts"].as_f64(), Some(end(producer)));
}

#[test]
fn legacy_default_stream_trace_hides_then_exposes_the_race() {
    let t = parsed("08_legacy_default_stream.ss");
    let produce: Vec<&Value> = t.events.iter().filter(|e| e["name"] == "produce").collect();
    let d2h = t.with("X", "memcpy");
    assert_eq!((produce.len(), d2h.len()), (3, 3));
    assert!(d2h.iter().all(|c| t.track(c) == "dev0 · default stream"));
    assert_eq!(t.track(produce[0]), "dev0 · blocking (stream 1)");
    assert_eq!(t.track(produce[1]), "dev0 · nonblocking (stream 2)");
    // Blocking stream: the NULL-stream copy starts when produce ends. Non-blocking: it starts during it.
    assert_eq!(d2h[0]["ts"].as_f64(), Some(end(produce[0])));
    assert!(d2h[1]["ts"].as_f64().unwrap() < end(produce[1]));
    // The fix: the copy waits for the event.
    assert_eq!(t.flows().len(), 1);
    assert_eq!(d2h[2]["ts"].as_f64(), Some(end(produce[2])));
    let run = run_file(&root().join("examples/scenarios/08_legacy_default_stream.ss"));
    assert_eq!(run.races.len(), 1, "{}", run.race_section());
    assert!(
        run.races[0]
            .first_line
            .as_ref()
            .unwrap()
            .1
            .contains("on nonblocking")
    );
}

/// acl-runtime-api.md · notifies, value waits, callbacks: each wait ends where what releases it is reached.
#[test]
fn acl_wait_tasks_trace() {
    let t = parsed("09_acl_wait_tasks.ss");
    let at = |cat: &str| -> Vec<(f64, f64)> {
        t.with("X", cat)
            .iter()
            .map(|e| (e["ts"].as_f64().unwrap(), end(e)))
            .collect()
    };
    // The first notify wait ends when `produce` ends (109 µs) and s1 reaches the record; the second when the
    // second record is reached.
    let produce = t.slice("produce");
    assert_eq!(at("notify-record"), [(109.0, 109.0), (124.0, 124.0)]);
    assert_eq!(
        at("notify-wait"),
        [(end(produce), end(produce)), (124.0, 124.0)]
    );
    assert_eq!(t.slice("consume")["ts"].as_f64(), Some(end(produce)));
    // The value wait ends at the value write, after `before_flag`.
    assert_eq!(at("value-write"), [(180.0, 180.0)]);
    assert_eq!(at("value-wait"), [(180.0, 180.0)]);
    assert_eq!(end(t.slice("before_flag")), 180.0);
    assert_eq!(t.slice("after_flag")["ts"].as_f64(), Some(180.0));
    // The blocking callback occupies s1 from k1's end; k2 starts after it.
    assert_eq!(at("callback"), [(204.0, 205.0)]);
    assert_eq!(t.slice("k2")["ts"].as_f64(), Some(205.0));
    let codes: Vec<i64> = t
        .with("i", "error")
        .iter()
        .map(|e| e["args"]["code"].as_i64().unwrap())
        .collect();
    assert_eq!(codes, [507000, 507000, 507012]);
}

/// acl-runtime-api.md · aclrtSetStreamFailureMode, aclrtSetOpWaitTimeout: the wait that gave up has no arrow and
/// ends at its deadline; the errors are the sample's.
#[test]
fn acl_failure_modes_trace() {
    let t = parsed("10_acl_failure_modes.ss");
    let waits = t.with("X", "wait");
    assert_eq!(waits.len(), 2);
    assert_eq!(waits[0]["args"]["gave_up"], true);
    assert_eq!(
        (waits[0]["ts"].as_f64(), waits[0]["dur"].as_f64()),
        (Some(34.0), Some(1_000_000.0))
    );
    assert_eq!(
        t.slice("after_wait")["ts"].as_f64(),
        Some(end(waits[0])),
        "s1 goes on at the deadline"
    );
    assert!(end(waits[0]) < t.slice("LongOP")["ts"].as_f64().unwrap() + 2_000_000.0);
    assert_eq!(
        t.flows().len(),
        1,
        "only the second wait was released by its record"
    );
    let codes: Vec<i64> = t
        .with("i", "error")
        .iter()
        .map(|e| e["args"]["code"].as_i64().unwrap())
        .collect();
    assert_eq!(codes, [507015, 107020, 507015, 507015, 507015]);
}

// ---- the binary ------------------------------------------------------------------------------------------

fn streamsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_streamsim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the streamsim binary runs")
}

#[test]
fn cli_prints_the_report_and_writes_the_trace() {
    let out_json =
        std::env::temp_dir().join(format!("streamsim-golden-{}.json", std::process::id()));
    let out = streamsim(&[
        "run",
        "examples/scenarios/02_multi_stream_wait.ss",
        "--trace",
        out_json.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = run_file(&root().join("examples/scenarios/02_multi_stream_wait.ss"));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), run.report(80));
    let written = std::fs::read_to_string(&out_json).unwrap();
    std::fs::remove_file(&out_json).unwrap();
    assert_eq!(written, run.chrome_json());
}

#[test]
fn cli_width_option() {
    let out = streamsim(&[
        "run",
        "examples/scenarios/01_elapsed_time.ss",
        "--width",
        "50",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let timeline: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("timeline:"))
        .take_while(|l| !l.starts_with("races:"))
        .collect();
    assert!(timeline.len() > 4, "{text}");
    assert!(
        timeline.iter().all(|l| l.chars().count() <= 50),
        "{timeline:#?}"
    );
}

#[test]
fn cli_reports_a_malformed_file_with_line_and_column() {
    let path = std::env::temp_dir().join(format!("streamsim-bad-{}.ss", std::process::id()));
    std::fs::write(&path, "stream s1\nkernel k on s1 fast\n").unwrap();
    let out = streamsim(&["run", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(":2:16: error: expected `on STREAM`, a duration"),
        "{err}"
    );
    assert!(err.contains("found `fast`"), "{err}");
    assert!(out.stdout.is_empty(), "nothing runs");
}

#[test]
fn cli_stops_where_a_statement_cannot_run() {
    let path = std::env::temp_dir().join(format!("streamsim-stop-{}.ss", std::process::id()));
    std::fs::write(
        &path,
        "devices 2\nkernel k 5us\nmalloc b 64GiB\nmemset b 0\nkernel k2\n",
    )
    .unwrap();
    let out = streamsim(&["run", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(":4:8: error: `b` holds nothing: creating it failed on line 3"),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("2 cudaErrorMemoryAllocation"),
        "what ran before is printed: {text}"
    );
    assert!(!text.contains("kernel k2"), "nothing after it runs: {text}");
}

#[test]
fn cli_runs_the_readme_command() {
    // The README's first command, without cargo: `streamsim run examples/scenarios/01_elapsed_time.ss`.
    let out = streamsim(&["run", "examples/scenarios/01_elapsed_time.ss"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("0 musaSuccess: 0.251 ms"), "{text}");
    assert!(text.contains("600 musaErrorNotReady"), "{text}");
    assert!(text.ends_with("races: none found\n"), "{text}");
}

#[test]
fn cli_missing_file() {
    let out = streamsim(&["run", "no/such/file.ss"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("cannot read")
    );
}

/// `streamsim run --width N` is clamped to `Timeline::MAX_WIDTH` (1000), so that no value can exhaust memory
/// (the chart's rows are `width` characters each; `--width 18446744073709551615` used to abort the run): the
/// largest width prints exactly what `--width 1000` prints, successfully, with the chart's lines up to 1000
/// characters.
#[test]
fn cli_clamps_a_huge_width() {
    assert_eq!(streamsim::export::Timeline::MAX_WIDTH, 1_000);
    let file = "examples/scenarios/02_multi_stream_wait.ss";
    let huge = streamsim(&["run", file, "--width", &usize::MAX.to_string()]);
    assert!(
        huge.status.success(),
        "{}",
        String::from_utf8_lossy(&huge.stderr)
    );
    let clamped = streamsim(&["run", file, "--width", "1000"]);
    assert_eq!(huge.stdout, clamped.stdout);
    let text = String::from_utf8(huge.stdout).unwrap();
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert_eq!(widest, 1_000, "the ruler spans the clamped width");
}
