//! The C/C++ user's toolkit: what a C or C++ program gets beyond the vendors' calls — calls that work while
//! the process exits, bindings that end in any order, race verdicts (`STREAMSIM_RACES`), the Chrome trace
//! (`STREAMSIM_TRACE`) and the terminal timeline (`STREAMSIM_TIMELINE`), names for streams and events. The C
//! programs are in `tests/c/`, built and run with the helpers of [`crate::c_programs`].

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;
use streamsim::cuda::*;
use streamsim::{Machine, Process};

use crate::c_programs::{LIMIT, Lang, build, build_and_run, run, toolchain};

// ------------------------------------------------------------------------------------------------ exit

/// `tests/c/exit_calls.c`: an `atexit` handler, a global destructor (C++: a global object's destructor; C:
/// `__attribute__((destructor))`) and a pthread key destructor of another thread free memory, synchronize,
/// and destroy streams, events, a context and a machine, with CUDA and ACL names. Every code is checked by
/// the program (the main thread keeps its device 1, context and last error; the other thread is fresh:
/// device 0, ACL 107002 until it sets a context), which exits 0 and prints what ran. Before, the first such
/// call aborted the process (SIGABRT).
#[test]
fn calls_during_process_exit_work() {
    for out in build_and_run(
        "exit_calls",
        "exit_calls",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert_eq!(
            out, "thread destructor: ok\natexit: ok\ndestructor: ok\n",
            "every handler ran, in this order"
        );
    }
}

// ------------------------------------------------------------------------------------------------ bindings

fn device_count() -> i32 {
    let mut n = -1;
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { cudaGetDeviceCount(&mut n) }, cudaSuccess);
    n
}

fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder()
        .devices(devices)
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

/// Bindings dropped out of order: bind A, bind B, drop A's guard first → calls still go to B (the binding in
/// force), never to A; then C over B, B dropped first → C; then A again over C, C dropped first → A.
#[test]
fn bindings_dropped_out_of_order_route_to_the_remaining_one() {
    let ((_ma, a), (_mb, b), (_mc, c)) = (machine(2), machine(3), machine(4));
    let ga = a.bind();
    assert_eq!(device_count(), 2);
    let gb = b.bind();
    assert_eq!(device_count(), 3);
    drop(ga);
    assert_eq!(
        device_count(),
        3,
        "B is still bound: calls must not go to A"
    );
    let gc = c.bind();
    assert_eq!(device_count(), 4);
    drop(gb);
    assert_eq!(device_count(), 4, "C is the innermost binding left");
    let ga = a.bind();
    assert_eq!(device_count(), 2);
    drop(gc);
    assert_eq!(device_count(), 2, "A is the only binding left");
    drop(ga);
    // (With nothing bound, calls go to the default machine, which this test binary does not touch.)
}

// ------------------------------------------------------------------------------------------------ races

/// `tests/c/racy_streams.c`, built once per language.
fn racy(lang: Lang) -> &'static Path {
    static EXES: OnceLock<[PathBuf; 2]> = OnceLock::new();
    let exes = EXES.get_or_init(|| {
        let src = toolchain().c_dir.join("racy_streams.c");
        [Lang::C, Lang::Cxx].map(|l| build(&src, "racy_streams", l, &[]))
    });
    &exes[usize::from(lang == Lang::Cxx)]
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the racy program in `mode` (with `args` after it) with `env`; returns its output.
fn run_racy(lang: Lang, args: &[&str], env: &[(&str, &str)]) -> Output {
    run(racy(lang), args, env, LIMIT)
}

/// What `print` and `fail` write for the CUDA producer/consumer, the words of `RaceReport`'s `Display`
/// without call sites, with the names the program gave its streams.
const CUDA_REPORT: &str = "streamsim: data race on 1048576 bytes at offset 0 of allocation #1 (device 0 memory)\n\
\x20 first:  kernel `produce` on stream `compute` (device 0, process 0) writes\n\
\x20 second: memcpy `memcpy_async` on stream `copy stream` (device 0, process 0) reads\n\
\x20 fix: record an event on stream `compute` after `produce` and make stream `copy stream` wait on it before \
`memcpy_async`\n";

/// A run's environment, and its expected exit status, standard output and standard error.
type Case = (
    &'static [(&'static str, &'static str)],
    i32,
    &'static str,
    String,
);

const FAIL_LINE: &str = "streamsim: 1 data race found (STREAMSIM_RACES=fail): exit status ";

/// `STREAMSIM_RACES=off|collect|print|fail` on the racy C program (C and C++ builds), each checked with its
/// exact output: off → no report, 0 races readable from C, exit 0; collect → silent, 1 race readable from C
/// (the program checks its struct and text field by field), exit 0; print (and unset: the default) → the
/// report on standard error with the streams' names, exit 0; fail → the report, then the exit status 66,
/// `STREAMSIM_RACES_EXITCODE=3` → 3, `=0` → the program's own 0.
#[test]
fn racy_program_under_each_races_mode() {
    for lang in [Lang::C, Lang::Cxx] {
        let cases: [Case; 7] = [
            (
                &[("STREAMSIM_RACES", "off")],
                0,
                "racy: 0 race(s)\n",
                String::new(),
            ),
            (
                &[("STREAMSIM_RACES", "collect")],
                0,
                "racy: 1 race(s)\n",
                String::new(),
            ),
            (
                &[("STREAMSIM_RACES", "print")],
                0,
                "racy: 1 race(s)\n",
                CUDA_REPORT.into(),
            ),
            (&[], 0, "racy: 1 race(s)\n", CUDA_REPORT.into()),
            (
                &[("STREAMSIM_RACES", "fail")],
                66,
                "racy: 1 race(s)\n",
                format!("{CUDA_REPORT}{FAIL_LINE}66\n"),
            ),
            (
                &[
                    ("STREAMSIM_RACES", "fail"),
                    ("STREAMSIM_RACES_EXITCODE", "3"),
                ],
                3,
                "racy: 1 race(s)\n",
                format!("{CUDA_REPORT}{FAIL_LINE}3\n"),
            ),
            (
                &[
                    ("STREAMSIM_RACES", "fail"),
                    ("STREAMSIM_RACES_EXITCODE", "0"),
                ],
                0,
                "racy: 1 race(s)\n",
                CUDA_REPORT.into(),
            ),
        ];
        for (env, status, out, err) in cases {
            let o = run_racy(lang, &["cuda"], env);
            assert_eq!(
                (o.status.code(), stdout(&o), stderr(&o)),
                (Some(status), out.to_string(), err),
                "{lang:?} {env:?}"
            );
        }
    }
}

/// Seed 004's wrong-stream synchronization with aclrt names: the report names ACL's streams as the program
/// named them.
#[test]
fn racy_acl_program_prints_the_seed004_race() {
    let o = run_racy(Lang::C, &["acl"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "racy: 1 race(s)\n");
    assert_eq!(
        stderr(&o),
        "streamsim: data race on 1048576 bytes at offset 0 of allocation #1 (device 0 memory)\n\
         \x20 first:  kernel `produce` on stream `stream1` (device 0, process 0) writes\n\
         \x20 second: memcpy `memcpy_async` on stream `stream2` (device 0, process 0) reads\n\
         \x20 fix: record an event on stream `stream1` after `produce` and make stream `stream2` wait on it \
         before `memcpy_async`\n"
    );
}

/// A file of the test's own under target/, removed first.
fn out_file(name: &str) -> PathBuf {
    let p = toolchain()
        .out_dir
        .join(format!("{name}-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// A Chrome trace file, parsed: (track name by (pid, tid), the other events).
fn parse_trace(path: &Path) -> (std::collections::BTreeMap<(u64, u64), String>, Vec<Value>) {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).expect("the trace is Chrome trace JSON");
    let mut tracks = std::collections::BTreeMap::new();
    let mut events = Vec::new();
    for e in v["traceEvents"].as_array().expect("traceEvents") {
        let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        if e["ph"] == "M" {
            if e["name"] == "thread_name" {
                tracks.insert(key, e["args"]["name"].as_str().unwrap().to_string());
            }
        } else {
            events.push(e.clone());
        }
    }
    (tracks, events)
}

/// `STREAMSIM_TRACE=out.json`: at exit the racy program's trace is written; it parses as Chrome trace JSON
/// and holds the race (category `race`, an instant on each operation's track at its start — `produce` at
/// 8 µs on `compute`, the copy at 9 µs on `copy stream` — joined by one arrow), the failed record (400 on
/// the host track) and the program's names. `streamsimMachineWriteTrace` wrote the same on demand; without
/// `STREAMSIM_TRACE` the machine keeps no trace and it returns STREAMSIM_ERROR_NO_TRACE.
#[test]
fn trace_at_exit_holds_the_race_and_the_failed_call() {
    let at_exit = out_file("racy-trace");
    let on_demand = out_file("racy-trace-on-demand");
    let o = run_racy(
        Lang::Cxx,
        &["cuda", on_demand.to_str().unwrap()],
        &[
            ("STREAMSIM_RACES", "collect"),
            ("STREAMSIM_TRACE", at_exit.to_str().unwrap()),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for path in [&at_exit, &on_demand] {
        let (tracks, events) = parse_trace(path);
        let track =
            |e: &Value| tracks[&(e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap())].as_str();
        assert_eq!(
            tracks.values().map(String::as_str).collect::<Vec<_>>(),
            [
                "host thread 0",
                "dev0 · compute (stream 1)",
                "dev0 · copy stream (stream 2)"
            ]
        );
        let races: Vec<&Value> = events
            .iter()
            .filter(|e| e["cat"] == "race" && e["ph"] == "i")
            .collect();
        assert_eq!(races.len(), 2, "{}", path.display());
        assert_eq!(
            races
                .iter()
                .map(|e| (
                    track(e),
                    e["ts"].as_f64().unwrap(),
                    e["name"].as_str().unwrap()
                ))
                .collect::<Vec<_>>(),
            [
                ("dev0 · compute (stream 1)", 8.0, "data race #1"),
                ("dev0 · copy stream (stream 2)", 9.0, "data race #1")
            ]
        );
        assert_eq!(
            races[0]["args"]["this"],
            "kernel `produce` on stream `compute` (device 0, process 0) writes"
        );
        assert_eq!(
            races[0]["args"]["other"],
            "memcpy `memcpy_async` on stream `copy stream` (device 0, process 0) reads"
        );
        let arrows: Vec<(&str, &str)> = events
            .iter()
            .filter(|e| e["cat"] == "race" && (e["ph"] == "s" || e["ph"] == "f"))
            .map(|e| (e["ph"].as_str().unwrap(), track(e)))
            .collect();
        assert_eq!(
            arrows,
            [
                ("s", "dev0 · compute (stream 1)"),
                ("f", "dev0 · copy stream (stream 2)")
            ]
        );
        let failed: Vec<&Value> = events.iter().filter(|e| e["cat"] == "error").collect();
        assert_eq!(failed.len(), 1);
        assert_eq!(
            failed[0]["name"],
            "record_event: 400 cudaErrorInvalidResourceHandle"
        );
        assert_eq!(failed[0]["args"]["code"], 400);
        assert_eq!(track(failed[0]), "host thread 0");
        assert!(
            events
                .iter()
                .any(|e| e["name"] == "record event `produced`"),
            "the event's name"
        );
    }
    // The same program without STREAMSIM_TRACE: no trace is kept, so none can be written on demand.
    let none = out_file("racy-no-trace");
    let o = run_racy(
        Lang::C,
        &["cuda", none.to_str().unwrap()],
        &[("STREAMSIM_RACES", "collect")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!none.exists());
    // ACL's code for ACL's failed call.
    let acl = out_file("racy-acl-trace");
    let o = run_racy(
        Lang::C,
        &["acl"],
        &[
            ("STREAMSIM_RACES", "collect"),
            ("STREAMSIM_TRACE", acl.to_str().unwrap()),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, events) = parse_trace(&acl);
    let failed: Vec<&str> = events
        .iter()
        .filter(|e| e["cat"] == "error")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["record_event: 107017 ACL_ERROR_RT_INVALID_HANDLE"]);
    assert_eq!(events.iter().filter(|e| e["cat"] == "race").count(), 4);
    for p in [at_exit, on_demand, acl] {
        let _ = std::fs::remove_file(p);
    }
}

/// The C library's default machine keeps a trace only when `STREAMSIM_TRACE` or `STREAMSIM_TIMELINE=1` asks
/// (a long-running program must not grow): the racy program's on-demand `streamsimMachineWriteTrace` returns
/// STREAMSIM_ERROR_NO_TRACE with neither or with `STREAMSIM_TIMELINE=0` (the program checks the code and its
/// exit status says so; no file is written), and writes the trace — both kernels `produce` among its slices
/// — when only the timeline is asked for.
#[test]
fn the_default_machine_keeps_a_trace_only_when_asked() {
    for (timeline, kept) in [(None, false), (Some("0"), false), (Some("1"), true)] {
        let path = out_file(&format!("racy-kept-{timeline:?}"));
        let mut env = vec![("STREAMSIM_RACES", "collect")];
        if let Some(t) = timeline {
            env.push(("STREAMSIM_TIMELINE", t));
        }
        let o = run_racy(Lang::C, &["cuda", path.to_str().unwrap()], &env);
        assert_eq!(o.status.code(), Some(0), "{timeline:?}: {}", stderr(&o));
        assert_eq!(path.exists(), kept, "{timeline:?}");
        if kept {
            let (_, events) = parse_trace(&path);
            let produce = events
                .iter()
                .filter(|e| e["ph"] == "X" && e["name"] == "produce")
                .count();
            assert_eq!(produce, 2);
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// `STREAMSIM_TRACE_WINDOW`: the default machine keeps the latest N operations of its trace (here the racy
/// program's trace at exit): `all` keeps every slice (2 kernels, 2 copies, the fixed version's wait), `2` only
/// the last two operations in the trace's order — that wait and its copy — and `0` none.
#[test]
fn trace_window_at_exit() {
    let slices = |window: &str| {
        let path = out_file(&format!("racy-window-{window}"));
        let o = run_racy(
            Lang::C,
            &["cuda"],
            &[
                ("STREAMSIM_RACES", "collect"),
                ("STREAMSIM_TRACE", path.to_str().unwrap()),
                ("STREAMSIM_TRACE_WINDOW", window),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (_, events) = parse_trace(&path);
        let _ = std::fs::remove_file(&path);
        events
            .iter()
            .filter(|e| e["ph"] == "X" && e["cat"] != "host")
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let copy = "memcpy_async · D2H 1 MiB";
    let wait = "wait event `produced`";
    assert_eq!(slices("all"), ["produce", copy, "produce", wait, copy]);
    assert_eq!(slices("2"), [wait, copy]);
    assert_eq!(slices("0"), Vec::<String>::new());
}

/// `STREAMSIM_TIMELINE=1`: at exit the timeline is printed to standard error, with the streams' names and
/// the wait on the named event.
#[test]
fn timeline_at_exit() {
    let o = run_racy(
        Lang::C,
        &["cuda"],
        &[("STREAMSIM_RACES", "collect"), ("STREAMSIM_TIMELINE", "1")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "streamsim: timeline of the cuda default machine\ntimeline: 0 ns to 875.536 µs"
        ),
        "{err}"
    );
    for row in [
        "compute     |[produce=",
        "copy stream |[D2H 1]",
        "host 0      |",
    ] {
        assert!(err.lines().any(|l| l.starts_with(row)), "{row:?} in {err}");
    }
    assert!(
        err.contains(
            "copy stream at 808.000 µs: event `produced` recorded on compute (done at 808.000 µs)"
        ),
        "{err}"
    );
    assert!(err.lines().all(|l| l.chars().count() <= 100), "{err}");
}

/// Machines made from C with options: races collected (1, and a trace written on demand that parses) or off
/// (0, no trace: STREAMSIM_ERROR_NO_TRACE), bad options refused; and a machine in fail mode makes the process
/// exit with 66 even though it was destroyed before exit.
#[test]
fn machines_with_options() {
    let trace = out_file("racy-options-trace");
    for lang in [Lang::C, Lang::Cxx] {
        let o = run_racy(lang, &["options", trace.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), "options: ok\n");
        let (_, events) = parse_trace(&trace);
        assert_eq!(events.iter().filter(|e| e["cat"] == "race").count(), 4);
        let o = run_racy(lang, &["options-fail"], &[]);
        assert_eq!(o.status.code(), Some(66), "{}", stderr(&o));
        assert_eq!(stdout(&o), "options-fail: 1 race, exiting\n");
        assert_eq!(stderr(&o), format!("{CUDA_REPORT}{FAIL_LINE}66\n"));
    }
    let _ = std::fs::remove_file(trace);
}

/// A bad value of a toolkit variable is a clear error like the others: the message names the variable, and
/// every call of the default machine fails.
#[test]
fn bad_toolkit_variables_are_errors() {
    for (var, value, message) in [
        (
            "STREAMSIM_RACES",
            "sometimes",
            "STREAMSIM_RACES=\"sometimes\" is not a valid value (expected off, collect, print or fail)",
        ),
        (
            "STREAMSIM_RACES_EXITCODE",
            "300",
            "STREAMSIM_RACES_EXITCODE=300 is not an exit status (0 to 255)",
        ),
        (
            "STREAMSIM_RACES_EXITCODE",
            "-1",
            "STREAMSIM_RACES_EXITCODE=\"-1\" is not a valid value",
        ),
        (
            "STREAMSIM_TIMELINE",
            "yes",
            "STREAMSIM_TIMELINE=\"yes\" is not a valid value (expected 0 or 1)",
        ),
        (
            "STREAMSIM_TRACE",
            "",
            "STREAMSIM_TRACE is empty (expected the path of the JSON file to write)",
        ),
        (
            "STREAMSIM_TRACE",
            "/nonexistent-streamsim-dir/trace.json",
            "STREAMSIM_TRACE=\"/nonexistent-streamsim-dir/trace.json\" cannot be written",
        ),
        (
            "STREAMSIM_TRACE_WINDOW",
            "everything",
            "STREAMSIM_TRACE_WINDOW=\"everything\" is not a valid value (expected a number of operations, or all)",
        ),
        (
            "STREAMSIM_ENGINES",
            "maybe",
            "STREAMSIM_ENGINES=\"maybe\" is not a valid value (expected on or off)",
        ),
        (
            "STREAMSIM_REGIONS",
            "0",
            "STREAMSIM_REGIONS=\"0\" is not a valid value (expected on, off or report)",
        ),
    ] {
        let o = run_racy(Lang::C, &["bad-env"], &[(var, value)]);
        assert_eq!(o.status.code(), Some(0), "{var}={value:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "bad environment: ok\n");
        assert!(
            stderr(&o).contains(message),
            "{var}={value:?}: {}",
            stderr(&o)
        );
    }
}

/// The exit actions run after every `atexit` handler and global destructor: with `STREAMSIM_TRACE`, the
/// exit-calls program (which uses the CUDA and the ACL default machines, so each gets its own file,
/// `out.cuda.json` and `out.acl.json`) has in its CUDA trace the kernel its atexit handler launched, and in
/// its ACL trace the device reset its global destructor made.
#[test]
fn exit_actions_run_after_atexit_handlers_and_destructors() {
    let base = out_file("exit-calls-trace");
    let (cuda, acl) = (
        base.with_extension("cuda.json"),
        base.with_extension("acl.json"),
    );
    for lang in [Lang::C, Lang::Cxx] {
        let _ = (std::fs::remove_file(&cuda), std::fs::remove_file(&acl));
        let exe = build(
            &toolchain().c_dir.join("exit_calls.c"),
            // Not "exit_calls": calls_during_process_exit_work builds that executable at the same time.
            "exit_calls-trace",
            lang,
            &[],
        );
        let o = run(
            &exe,
            &[],
            &[
                ("STREAMSIM_DEVICES", "2"),
                ("STREAMSIM_TRACE", base.to_str().unwrap()),
            ],
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(!base.exists(), "two default machines: one file each");
        let (_, events) = parse_trace(&cuda);
        assert!(
            events
                .iter()
                .any(|e| e["name"] == "late" && e["cat"] == "kernel"),
            "{lang:?}: the atexit handler's kernel is in the trace"
        );
        let (_, events) = parse_trace(&acl);
        assert!(
            events.iter().any(|e| e["name"] == "reset_device(0)"),
            "{lang:?}: the destructor's aclrtResetDevice is in the trace"
        );
    }
    let _ = (std::fs::remove_file(&cuda), std::fs::remove_file(&acl));
}

/// With the static library too, the exit actions are linked in (the archive member holding them is pulled
/// in by the default machine's code): `fail` exits 66 and `STREAMSIM_TRACE` writes the trace.
#[test]
fn exit_actions_work_with_the_static_library() {
    let t = toolchain();
    let exe = t.out_dir.join("racy_streams-static");
    let out = std::process::Command::new(crate::c_programs::compiler(Lang::C))
        .args(crate::c_programs::flags(Lang::C))
        .arg("-I")
        .arg(&t.include_dir)
        .arg("-I")
        .arg(&t.c_dir)
        .arg(t.c_dir.join("racy_streams.c"))
        .arg("-o")
        .arg(&exe)
        .arg(t.lib_dir.join("libstreamsim.a"))
        .args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ])
        .output()
        .expect("running the C compiler");
    assert!(
        out.status.success(),
        "static link failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o = run(&exe, &["cuda"], &[("STREAMSIM_RACES", "fail")], LIMIT);
    assert_eq!(o.status.code(), Some(66), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("{CUDA_REPORT}{FAIL_LINE}66\n"));
    let trace = out_file("racy-static-trace");
    let o = run(
        &exe,
        &["cuda"],
        &[
            ("STREAMSIM_RACES", "collect"),
            ("STREAMSIM_TRACE", trace.to_str().unwrap()),
        ],
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, events) = parse_trace(&trace);
    assert_eq!(events.iter().filter(|e| e["cat"] == "race").count(), 4);
    let _ = std::fs::remove_file(trace);
}
