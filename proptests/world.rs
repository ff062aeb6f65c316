//! Properties of world programs ([`streamsim::testing::world`]): several simulated processes with IPC events,
//! several host threads in an explicit order, two devices with peer access, legacy and per-thread default
//! streams, and a kernel fault with its sticky propagation — against the sequential model of
//! [`crate::model::world`], and under perturbation.

use std::collections::BTreeMap;

use proptest::prelude::*;
use streamsim::testing::codes::cuda_code;
use streamsim::testing::world::{WOp, WorldLimits, WorldOutcome, WorldProgram, world_program};
use streamsim::{EngineModel, Machine, RaceReport, Trace};

use crate::model::world::{expect_world, expected_cuda_code};
use crate::{config, race_counts, races_text, with_watchdog};

struct WorldRun {
    trace: Trace,
    outcome: WorldOutcome,
    reports: Vec<RaceReport>,
}

fn run_world(prog: &WorldProgram, perturb: Option<u64>) -> WorldRun {
    let prog = prog.clone();
    with_watchdog(30, move || {
        // The model schedules every operation when it is ready: the engine model (copy engines, kernel slots)
        // is off, as for the other properties.
        let mut b = Machine::builder()
            .devices(prog.devices)
            .engine_model(EngineModel::OFF);
        if let Some(seed) = perturb {
            b = b.perturb(true).seed(seed);
        }
        let m = b.build().expect("machine");
        let outcome = prog
            .run(&m)
            .unwrap_or_else(|e| panic!("the set-up failed (perturbation {perturb:?}): {e}"));
        WorldRun {
            trace: m.trace(),
            outcome,
            reports: m.race_reports(),
        }
    })
}

/// The trace's operations, one per line, with their process (for failure messages).
fn describe_world(ops: &[streamsim::TraceEvent]) -> String {
    ops.iter()
        .map(|e| {
            format!(
                "  p{} {} #{} {} [{} ns, {} ns]",
                e.stream.process.0, e.stream, e.seq, e.label, e.start.0, e.end.0
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The generator's coverage over 256 programs: each feature the world properties are about occurs.
#[test]
fn the_world_programs_exercise_every_feature() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = world_program(WorldLimits::default());
    let mut n: BTreeMap<&str, u32> = BTreeMap::new();
    for _ in 0..256 {
        let prog = strategy.new_tree(&mut runner).expect("a program").current();
        let exp = expect_world(&prog);
        let mut count = |what, yes: bool| *n.entry(what).or_default() += u32::from(yes);
        count("two processes", prog.processes.len() == 2);
        count("two threads", prog.processes.iter().any(|p| p.threads == 2));
        count(
            "second thread calls",
            prog.steps.iter().any(|s| s.thread == 1),
        );
        count("two devices", prog.devices == 2);
        count(
            "waits on an imported event",
            prog.steps
                .iter()
                .any(|s| matches!(s.op, WOp::Wait { event, .. } if event.owner != s.process)),
        );
        count(
            "a peer-link copy",
            exp.ops.iter().any(|o| {
                matches!(
                    o.kind,
                    streamsim::OpKind::Memcpy {
                        path: streamsim::CopyPath::PeerLink,
                        ..
                    }
                )
            }),
        );
        count(
            "a staged copy",
            exp.ops.iter().any(|o| {
                matches!(
                    o.kind,
                    streamsim::OpKind::Memcpy {
                        path: streamsim::CopyPath::StagedThroughHost,
                        ..
                    }
                )
            }),
        );
        count(
            "a per-thread stream",
            exp.ops
                .iter()
                .any(|o| matches!(o.stream.kind, streamsim::StreamKind::PerThread(_))),
        );
        count(
            "a per-thread stream of thread 1",
            exp.ops
                .iter()
                .any(|o| matches!(o.stream.kind, streamsim::StreamKind::PerThread(1))),
        );
        count(
            "a fault",
            prog.steps
                .iter()
                .any(|s| matches!(s.op, WOp::Launch { fault: true, .. })),
        );
        count(
            "a reported fault",
            exp.results
                .iter()
                .chain(exp.finals.iter().flatten())
                .any(|r| matches!(r, Err(streamsim::SimError::KernelFault { .. }))),
        );
        count(
            "a fault in another process",
            prog.steps.iter().enumerate().any(|(i, s)| {
                matches!(exp.results[i], Err(streamsim::SimError::KernelFault { stream, .. }) if stream.process.0 != s.process)
            }) || exp.finals.iter().enumerate().any(|(p, f)| {
                f.iter().any(|r| matches!(r, Err(streamsim::SimError::KernelFault { stream, .. }) if stream.process.0 != p as u32))
            }),
        );
        count(
            "a kernel that does not run",
            exp.kernels_ran.len() < prog.kernel_count(),
        );
        count(
            "a peer error",
            exp.results
                .iter()
                .any(|r| matches!(r, Err(streamsim::SimError::PeerAccess { .. }))),
        );
        count("a race", !exp.races.is_empty());
    }
    println!("world coverage over 256 programs: {n:?}");
    for (what, &k) in &n {
        assert!(k >= 3, "{what}: only {k} of 256 programs ({n:?})");
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn world_programs_match_the_model(prog in world_program(WorldLimits::default())) {
        let exp = expect_world(&prog);
        let got = run_world(&prog, None);
        if std::env::var_os("WORLD_DEBUG").is_some() {
            eprintln!("results {:?}\nmodel   {:?}\nfinals {:?} / {:?}", got.outcome.results, exp.results, got.outcome.finals, exp.finals);
        }
        prop_assert!(
            got.trace.ops == exp.ops,
            "virtual times differ\nsimulator:\n{}\nmodel:\n{}",
            describe_world(&got.trace.ops),
            describe_world(&exp.ops)
        );
        let mut host: Vec<(u32, u32, String, u64, u64)> = got
            .trace
            .host
            .iter()
            .map(|h| (h.process.0, h.thread, h.label.clone(), h.start.0, h.end.0))
            .collect();
        host.sort();
        prop_assert_eq!(&host, &exp.host, "blocking host calls differ");
        for (i, (g, e)) in got.outcome.results.iter().zip(&exp.results).enumerate() {
            prop_assert_eq!(g, e, "step {} answered differently", i);
        }
        prop_assert_eq!(&got.outcome.finals, &exp.finals, "the final synchronizes differ");
        // The CUDA facade's code for every error, against the truth table's.
        for e in got.outcome.results.iter().chain(got.outcome.finals.iter().flatten()).filter_map(|r| r.as_ref().err()) {
            prop_assert_eq!(cuda_code(e), expected_cuda_code(e), "the CUDA code of {:?}", e);
        }
        let clocks: Vec<Vec<u64>> = got.outcome.clocks.iter().map(|c| c.iter().map(|t| t.0).collect()).collect();
        prop_assert_eq!(&clocks, &exp.clocks, "the host clocks at the end differ");
        prop_assert_eq!(&got.outcome.kernels_ran, &exp.kernels_ran, "which kernel bodies ran differs");
        let races = race_counts(&got.reports);
        prop_assert!(
            races == exp.races,
            "race reports differ\nsimulator:\n{}\nmodel:\n{}",
            races_text(&races),
            races_text(&exp.races)
        );
    }

    #[test]
    fn world_perturbation_changes_nothing_observable(prog in world_program(WorldLimits::default())) {
        let base = run_world(&prog, None);
        let trace = format!("{:?}", base.trace);
        for seed in 0..4 {
            let r = run_world(&prog, Some(seed));
            prop_assert!(format!("{:?}", r.trace) == trace, "perturbation seed {}: the trace differs", seed);
            prop_assert_eq!(&r.outcome, &base.outcome, "perturbation seed {}", seed);
            prop_assert_eq!(&r.reports, &base.reports, "perturbation seed {}", seed);
        }
    }
}
