//! Property tests: random stream programs ([`streamsim::testing::program`]) run on the simulator and on an
//! independent reference model ([`model`]), 256 cases per property.
//!
//! 1. `simulator_matches_the_reference_model`: the trace (every operation's stream, position, kind, label and
//!    virtual start / end), the blocking host calls, the query answers, where each stream-ordered allocation
//!    was placed (its cell of the pool's chunk) and the race reports (which kind, which pairs, how many times:
//!    data races, uses before allocation, uses after free) equal the model's.
//! 2. `execution_order_respects_every_dependency`: kernels really ran after every kernel they are ordered
//!    after, and before the host returned from a step after which it knows them complete.
//! 3. `perturbation_changes_nothing_observable`: under 10 perturbation seeds the trace (`{:?}`), answers,
//!    allocation addresses and reports are byte-identical to the unperturbed run's.
//!
//! And `the_programs_exercise_stream_ordered_memory` checks, over 256 generated programs, that the properties
//! above see every way an allocation finds memory (fresh, after a synchronize, on the freeing stream, after an
//! event, opportunistically) and both lifetime reports.
//!
//! 4. The capture properties of [`graphs`]: captures against the model of [`model::capture`], replays against
//!    eager runs.
//!
//! A failure prints the minimal program (one line per step) and proptest's seed, and is saved in
//! `proptests/main.regressions` (replayed first on the next run; commit it). `PROPTEST_RNG_SEED=<n>` replays a
//! whole run; `PROPTEST_CASES=<n>` changes the number of cases.

mod acl;
mod graphs;
mod model;
mod world;

use std::collections::BTreeMap;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use streamsim::testing::{Executed, Limits, Outcome, Program, program};
use streamsim::{AddressSpace, Machine, RaceReport, Trace};

use model::{RaceKey, describe, expect};

pub(crate) fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

/// What one run of a program gave.
struct Run {
    trace: Trace,
    outcome: Outcome,
    reports: Vec<RaceReport>,
}

/// Runs `f` on a thread; panics if it does not finish within `secs` seconds.
pub(crate) fn with_watchdog<T: Send + 'static>(
    secs: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let h = std::thread::spawn(move || {
        let r = f();
        let _ = tx.send(());
        r
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match h.join() {
            Ok(r) => r,
            Err(p) => std::panic::resume_unwind(p),
        },
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("watchdog: the program did not finish within {secs} s (deadlock?)")
        }
    }
}

/// Runs `prog` on a fresh machine (race detection collects, the default; the engine model on, as by default:
/// the reference model places copies on their engines and kernels in slots), perturbed with `seed` if given.
fn run(prog: &Program, perturb: Option<u64>) -> Run {
    let prog = prog.clone();
    with_watchdog(30, move || {
        let mut b = Machine::builder().devices(prog.devices);
        if let Some(seed) = perturb {
            b = b.perturb(true).seed(seed);
        }
        let m = b.build().expect("machine");
        let outcome = prog
            .run(&m.process())
            .unwrap_or_else(|e| panic!("the program failed (perturbation {perturb:?}): {e}"));
        Run {
            trace: m.trace(),
            outcome,
            reports: m.race_reports(),
        }
    })
}

/// The reports as the model names races: (earlier side, later side) → occurrences.
pub(crate) fn race_counts(reports: &[RaceReport]) -> BTreeMap<RaceKey, u64> {
    let mut out = BTreeMap::new();
    for r in reports {
        let key = (
            r.kind,
            (r.first.who.clone(), r.first.write),
            (r.second.who.clone(), r.second.write),
        );
        *out.entry(key).or_default() += r.occurrences;
    }
    out
}

/// Reports without what differs between runs by design (a pinned buffer's real address).
fn normalized(reports: &[RaceReport]) -> Vec<RaceReport> {
    reports
        .iter()
        .cloned()
        .map(|mut r| {
            if r.space == AddressSpace::PinnedHost {
                r.addr = 0;
            }
            r
        })
        .collect()
}

pub(crate) fn races_text(m: &BTreeMap<RaceKey, u64>) -> String {
    m.iter()
        .map(|((kind, (a, aw), (b, bw)), n)| {
            let v = |w: &bool| if *w { "writes" } else { "reads" };
            format!("  {kind:?}: {a} {} / {b} {} ×{n}", v(aw), v(bw))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The generator's coverage of the engine model, as the model sees it over 256 programs: copies wait for
/// their engine (two copies of one direction on two streams) in some of them. (Kernel slots, 128, are never
/// all taken by programs of this size: `tests/suite/engines.rs` fills them.)
#[test]
fn the_programs_exercise_the_copy_engines() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = program(Limits::default());
    let (mut programs, mut copies) = (0, 0);
    for _ in 0..256 {
        let prog = strategy.new_tree(&mut runner).expect("a program").current();
        let (c, k) = expect(&prog).engine_waits;
        assert_eq!(k, 0, "a program of this size filled 128 kernel slots");
        programs += u64::from(c > 0);
        copies += c;
    }
    println!("{programs} of 256 programs have {copies} copies waiting for their engine");
    // The runner is deterministic: the same 256 programs every run (10 of them wait today).
    assert!(programs >= 8, "{programs}");
}

/// The generator's coverage of stream-ordered memory, as the model sees it over 256 programs of the strategy
/// the properties use: each way of finding memory, and each kind of report, happens in some of them.
#[test]
fn the_programs_exercise_stream_ordered_memory() {
    use proptest::strategy::ValueTree;
    use streamsim::RaceKind;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = program(Limits::default());
    let mut total = model::PoolStats::default();
    let mut kinds: BTreeMap<RaceKind, u64> = BTreeMap::new();
    let mut with_pools = 0;
    for _ in 0..256 {
        let prog = strategy.new_tree(&mut runner).expect("a program").current();
        with_pools += u64::from(prog.uses_pools());
        let exp = expect(&prog);
        let p = exp.pool;
        total.allocs += p.allocs;
        total.fresh += p.fresh;
        total.observed += p.observed;
        total.same_stream += p.same_stream;
        total.stream_after += p.stream_after;
        total.host_after += p.host_after;
        total.opportunistic += p.opportunistic;
        for ((kind, ..), n) in &exp.races {
            *kinds.entry(*kind).or_default() += n;
        }
    }
    println!("{with_pools} of 256 programs allocate: {total:?}; reports by kind: {kinds:?}");
    assert!(with_pools >= 128, "{with_pools}");
    // The least common ways (an allocation on another stream that is after the free) need a record, a wait
    // and the allocation in that order: a few per 256 programs.
    for (what, n, least) in [
        ("fresh", total.fresh, 100),
        ("after a synchronize", total.observed, 3),
        ("on the freeing stream", total.same_stream, 20),
        ("after an event", total.stream_after, 2),
        ("opportunistic", total.opportunistic, 3),
    ] {
        assert!(n >= least, "{what}: {n} ({total:?})");
    }
    for kind in [
        RaceKind::Data,
        RaceKind::UseBeforeAlloc,
        RaceKind::UseAfterFree,
    ] {
        assert!(
            kinds.get(&kind).copied().unwrap_or(0) >= 5,
            "{kind:?}: {kinds:?}"
        );
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn simulator_matches_the_reference_model(prog in program(Limits::default())) {
        let exp = expect(&prog);
        let got = run(&prog, None);
        prop_assert!(
            got.trace.ops == exp.ops,
            "virtual times differ\nsimulator:\n{}\nmodel:\n{}",
            describe(&got.trace.ops),
            describe(&exp.ops)
        );
        let host: Vec<(String, u64, u64)> = got
            .trace
            .host
            .iter()
            .map(|h| (h.label.clone(), h.start.0, h.end.0))
            .collect();
        prop_assert_eq!(&host, &exp.host, "blocking host calls differ");
        prop_assert!(got.trace.host.iter().all(|h| h.process.0 == 0 && h.thread == 0));
        prop_assert_eq!(&got.outcome.answers, &exp.answers, "query answers differ");
        // The addresses: each device's chunk starts at its first allocation (cell 0 of a fresh chunk).
        let mut base: BTreeMap<u32, u64> = BTreeMap::new();
        let cells: Vec<(usize, u32, usize)> = got
            .outcome
            .allocations
            .iter()
            .map(|&(step, addr)| {
                let device = match &prog.steps[step] {
                    streamsim::testing::Step::MallocAsync { stream, .. } => prog.device_of(*stream),
                    other => unreachable!("an allocation from {other:?}"),
                };
                let b = *base.entry(device).or_insert(addr);
                (step, device, ((addr - b) / streamsim::testing::BUFFER_BYTES) as usize)
            })
            .collect();
        prop_assert_eq!(&cells, &exp.cells, "stream-ordered allocations' addresses differ");
        prop_assert_eq!(got.outcome.end.0, exp.end, "the host clock at the end differs");
        // The model's own guarantee: every access that races is in at least one reported pair.
        prop_assert_eq!(&exp.racing_accesses.0, &exp.racing_accesses.1);
        let races = race_counts(&got.reports);
        prop_assert!(
            races == exp.races,
            "race reports differ\nsimulator:\n{}\nmodel:\n{}\n(reports:\n{})",
            races_text(&races),
            races_text(&exp.races),
            got.reports.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("\n")
        );
        prop_assert_eq!(got.reports.is_empty(), exp.full_races.is_empty());
        for r in &got.reports {
            prop_assert_eq!((r.offset, r.bytes), (0, streamsim::testing::BUFFER_BYTES));
        }
    }

    #[test]
    fn execution_order_respects_every_dependency(prog in program(Limits::default())) {
        let exp = expect(&prog);
        let got = run(&prog, None);
        let pos: BTreeMap<Executed, usize> = got
            .outcome
            .executed
            .iter()
            .enumerate()
            .map(|(i, e)| (*e, i))
            .collect();
        prop_assert_eq!(pos.len(), got.outcome.executed.len(), "something ran twice");
        prop_assert_eq!(got.outcome.kernels_executed(), prog.kernel_count());
        for (&k, after) in &exp.kernel_after {
            for &a in after {
                prop_assert!(
                    pos[&Executed::Kernel(a)] < pos[&Executed::Kernel(k)],
                    "k{} ran before k{}, which it is ordered after\n{:?}",
                    k, a, got.outcome.executed
                );
            }
        }
        for (step, known) in exp.known_after_step.iter().enumerate() {
            for &k in known {
                prop_assert!(
                    pos[&Executed::Kernel(k)] < pos[&Executed::Host(step)],
                    "the host returned from step {} before k{} ran, which it knows complete\n{:?}",
                    step, k, got.outcome.executed
                );
            }
        }
    }

    #[test]
    fn perturbation_changes_nothing_observable(prog in program(Limits::default())) {
        let base = run(&prog, None);
        let (trace, reports) = (format!("{:?}", base.trace), normalized(&base.reports));
        for seed in 0..10 {
            let r = run(&prog, Some(seed));
            prop_assert!(format!("{:?}", r.trace) == trace, "perturbation seed {}: the trace differs", seed);
            prop_assert_eq!(&r.outcome.answers, &base.outcome.answers, "perturbation seed {}", seed);
            prop_assert_eq!(
                &r.outcome.allocations, &base.outcome.allocations, "perturbation seed {}: addresses", seed
            );
            prop_assert_eq!(normalized(&r.reports), reports.clone(), "perturbation seed {}", seed);
        }
    }
}
