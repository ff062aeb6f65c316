//! C programs under `STREAMSIM_SCHEDULE=serialize` (`docs/semantics/schedules-and-hangs.md`): the program of
//! `tests/c/serialize_hang.c` that needs two streams to progress concurrently fails with the cycle named on a
//! seed that runs its spinner first and passes with the right event; ported cuda-samples programs, which do not
//! depend on concurrency, print the same under the serialize schedule as under the concurrent one.

use std::process::Output;

use crate::c_programs::{LIMIT, Lang, build, run, toolchain};

fn exes(name: &str) -> Vec<std::path::PathBuf> {
    let src = toolchain().c_dir.join(format!("{name}.c"));
    [Lang::C, Lang::Cxx]
        .into_iter()
        .map(|lang| build(&src, name, lang, &["-lm", "-O2"]))
        .collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "{}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// The seed under which the serialize schedule runs stream 1's first operation before stream 2's (the seed's
/// choice: the same as in `schedules.rs`, whose streams and positions are the same), and one that runs stream 2's
/// first.
const SPINNER_FIRST: &str = "4";
const SETTER_FIRST: &str = "0";

/// schedules-and-hangs.md · Serialize · C: `STREAMSIM_SCHEDULE=serialize`, a host function spinning on a flag
/// only a later host function of another stream sets, the seed running the spinner first → cudaDeviceSynchronize
/// is 999 cudaErrorUnknown with the cycle in the last error message, the watchdog's report on stderr, and a
/// second synchronize succeeds (nothing lost); the seed running the setter first → success; with the event →
/// success on both seeds; under the concurrent schedule → success
#[test]
fn serialize_hang_fails_with_the_cycle_named_and_passes_with_the_event() {
    for exe in exes("serialize_hang") {
        let serial = |seed: &'static str| {
            vec![
                ("STREAMSIM_SCHEDULE", "serialize"),
                ("STREAMSIM_WATCHDOG_MS", "100"),
                ("STREAMSIM_SEED", seed),
            ]
        };
        let o = run(&exe, &["flag", "deadlock"], &serial(SPINNER_FIRST), LIMIT);
        assert_eq!(ok(&o), "serialize_hang: flag deadlock: ok\n");
        assert_eq!(
            text(&o.stderr),
            "streamsim: watchdog: host-fn \"host function\" (stream 1 of process 0, op 1) has not returned after \
             100 ms of real time; under the serialize schedule it holds back \"host function\" (stream 2 op 1), \
             ready and held back by the serialize schedule: it may be waiting for one of them, which needs two \
             streams to progress concurrently (the schedule stops serializing so that the work can finish)\n"
        );
        let o = run(&exe, &["flag", "pass"], &serial(SETTER_FIRST), LIMIT);
        assert_eq!(ok(&o), "serialize_hang: flag pass: ok\n");
        assert_eq!(text(&o.stderr), "");
        for seed in [SPINNER_FIRST, SETTER_FIRST] {
            let o = run(&exe, &["events", "pass"], &serial(seed), LIMIT);
            assert_eq!(ok(&o), "serialize_hang: events pass: ok\n");
            assert_eq!(text(&o.stderr), "");
        }
        let o = run(
            &exe,
            &["flag", "pass"],
            &[("STREAMSIM_SEED", SPINNER_FIRST)],
            LIMIT,
        );
        assert_eq!(ok(&o), "serialize_hang: flag pass: ok\n");
    }
}

/// The lines of a sample's output that do not depend on the wall clock.
fn virtual_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with("time spent by CPU"))
        .map(str::to_string)
        .collect()
}

/// schedules-and-hangs.md · Serialize · ported cuda-samples (asyncAPI, simpleHyperQ, simpleCallback with 8 host
/// threads waiting on a barrier their callbacks release) pass under the serialize schedule on two seeds with the
/// output of the concurrent schedule: they do not need streams to progress concurrently
#[test]
fn cuda_samples_pass_under_the_serialize_schedule() {
    for (name, devices) in [
        ("cuda_sample_async_api", "1"),
        ("cuda_sample_simple_hyperq", "1"),
        ("cuda_sample_simple_callback", "2"),
    ] {
        for exe in exes(name) {
            let c = run(&exe, &[], &[("STREAMSIM_DEVICES", devices)], LIMIT);
            let concurrent = ok(&c);
            // The race reports (simpleCallback's frees on the threads its callbacks start, which the simulator
            // cannot see ordered after the callbacks) are the same under both schedules: their first lines,
            // sorted (the sample's 8 host threads create their streams in an order of their own, so which stream
            // number is on which device varies from run to run under either schedule).
            let sorted = |b: &[u8]| {
                let mut l: Vec<String> = text(b)
                    .lines()
                    .filter(|l| l.starts_with("streamsim:"))
                    .map(str::to_string)
                    .collect();
                l.sort();
                l
            };
            for seed in ["1", "2"] {
                let env = [
                    ("STREAMSIM_DEVICES", devices),
                    ("STREAMSIM_SCHEDULE", "serialize"),
                    ("STREAMSIM_SEED", seed),
                ];
                let o = run(&exe, &[], &env, LIMIT);
                assert_eq!(
                    virtual_lines(&ok(&o)),
                    virtual_lines(&concurrent),
                    "{name}, seed {seed}"
                );
                assert_eq!(sorted(&o.stderr), sorted(&c.stderr), "{name}, seed {seed}");
            }
        }
    }
}

/// schedules-and-hangs.md · C environment · a bad STREAMSIM_SCHEDULE or STREAMSIM_WATCHDOG_MS → the default
/// machine cannot be made; the program's first call fails and the message says why
#[test]
fn bad_schedule_environment_is_refused() {
    for exe in exes("serialize_hang") {
        let o = run(
            &exe,
            &["events", "pass"],
            &[("STREAMSIM_SCHEDULE", "harsh")],
            LIMIT,
        );
        assert!(!o.status.success());
        assert!(
            text(&o.stderr).contains(
                "streamsim: STREAMSIM_SCHEDULE=\"harsh\" is not a valid value (expected concurrent or serialize)"
            ),
            "{}",
            text(&o.stderr)
        );
        let o = run(
            &exe,
            &["events", "pass"],
            &[("STREAMSIM_WATCHDOG_MS", "soon")],
            LIMIT,
        );
        assert!(!o.status.success());
        assert!(
            text(&o.stderr)
                .contains("streamsim: STREAMSIM_WATCHDOG_MS=\"soon\" is not a valid value"),
            "{}",
            text(&o.stderr)
        );
    }
}

/// schedules-and-hangs.md · The determinism self-check · `STREAMSIM_CHECK_DETERMINISM=1`: a deterministic
/// program → the second run's trace is the same, exit status 0; a program whose kernel duration differs in its
/// second run → the first differing trace line of each run on stderr, exit status 67
#[test]
fn check_determinism_in_c_runs_the_program_again_and_compares_the_traces() {
    for exe in exes("determinism_check") {
        let env = [("STREAMSIM_CHECK_DETERMINISM", "1")];
        let o = run(&exe, &["same"], &env, LIMIT);
        assert_eq!(ok(&o), "determinism_check: same: ok\n");
        let err = text(&o.stderr);
        assert!(
            err.starts_with(
                "streamsim: STREAMSIM_CHECK_DETERMINISM=1: the second run's trace is the same ("
            ),
            "{err}"
        );
        let o = run(&exe, &["differ"], &env, LIMIT);
        assert_eq!(o.status.code(), Some(67), "{}", text(&o.stderr));
        assert_eq!(text(&o.stdout), "determinism_check: differ: ok\n");
        let err = text(&o.stderr);
        assert!(
            err.starts_with(
                "streamsim: STREAMSIM_CHECK_DETERMINISM=1: not deterministic: the second run's trace differs at line "
            ),
            "{err}"
        );
        assert!(err.contains("\n  first run:  "), "{err}");
        assert!(err.contains("\"name\":\"work\""), "{err}");
        // Without the variable, nothing is checked.
        let o = run(&exe, &["differ"], &[], LIMIT);
        assert_eq!(ok(&o), "determinism_check: differ: ok\n");
        assert_eq!(text(&o.stderr), "");
    }
}

/// schedules-and-hangs.md · Serialize · the CANN runtime's samples ported in tests/c (multi-stream;
/// simpleCallback: a subscribed report thread runs the callbacks with aclrtProcessReport while the main thread
/// synchronizes) pass under the serialize schedule on two seeds with the output of the concurrent schedule
/// (thread ids aside; simpleCallback's two printing threads each in their own order, see below)
#[test]
fn cann_samples_pass_under_the_serialize_schedule() {
    let stable = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.contains("thread id"))
            .map(str::to_string)
            .collect()
    };
    for name in ["cann_multi_stream", "cann_simple_callback"] {
        for exe in exes(name) {
            // (cann_multi_stream's own "[ERROR]" line is its simulated timeout, the same in both.)
            let concurrent = ok(&run(&exe, &[], &[], LIMIT));
            for seed in ["1", "2"] {
                let env = [
                    ("STREAMSIM_SCHEDULE", "serialize"),
                    ("STREAMSIM_SEED", seed),
                ];
                let o = run(&exe, &[], &env, LIMIT);
                if name == "cann_simple_callback" {
                    // Two host threads print, each a line in two printf calls: the main thread ("After begin a
                    // task", then, after its synchronize, "After assigning the task") and the subscribed report
                    // thread (its id, the callbacks in their stream's order, "Report callback thread exit"). The
                    // sample fixes no order between the main thread's first line and the report thread's first
                    // callback, so their characters may even interleave, on hardware as here: each message the
                    // same number of times as in the concurrent run, in the order the program does fix.
                    let (serial, concurrent) = (ok(&o), concurrent.clone());
                    let messages = [
                        (
                            "After begin a task, launch one hostfunc and five callbacks.",
                            1,
                        ),
                        ("This callback before task, result: user data is: 520.", 1),
                        (
                            "This callback after task and loop five times, result: user data is: 520.",
                            5,
                        ),
                        ("After assigning the task, the current int is: 1.", 1),
                        ("Report callback thread exit", 1),
                    ];
                    for out in [&serial, &concurrent] {
                        for (m, n) in messages {
                            assert_eq!(
                                out.matches(m).count(),
                                n,
                                "{name}, seed {seed}: {m:?} in {out}"
                            );
                        }
                        let at = |m: &str| out.find(m).expect("counted above");
                        let last_callback = out.rfind(messages[2].0).expect("counted above");
                        assert!(
                            at(messages[1].0) < at(messages[2].0)
                                && last_callback < at(messages[3].0)
                                && at(messages[3].0) < at(messages[4].0),
                            "{name}, seed {seed}: {out}"
                        );
                    }
                } else {
                    assert_eq!(stable(&ok(&o)), stable(&concurrent), "{name}, seed {seed}");
                }
                assert_eq!(text(&o.stderr), "", "{name}, seed {seed}");
            }
        }
    }
}
