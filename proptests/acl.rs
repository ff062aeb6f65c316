//! Properties of ACL programs ([`streamsim::testing::acl`]): contexts, deferred waits on SYNC events,
//! `aclrtResetEvent`, failure modes and a kernel fault — against the sequential model of
//! [`crate::model::acl`], and under perturbation.

use std::collections::BTreeMap;

use proptest::prelude::*;
use streamsim::testing::acl::{AStep, AclLimits, AclOutcome, AclProgram, acl_program};
use streamsim::testing::codes::acl_code;
use streamsim::{Dialect, EngineModel, Machine, OpKind, SimError, Trace};

use crate::model::acl::{expect_acl, expected_acl_code};
use crate::model::describe;
use crate::{config, with_watchdog};

/// A machine for ACL programs: `devices` devices, the ACL dialect, perturbed with `seed` if given.
fn acl_machine(devices: u32, perturb: Option<u64>) -> Machine {
    // The engine model (copy engines, kernel slots, priorities) is off, as for the other properties.
    let mut b = Machine::builder()
        .devices(devices)
        .dialect(Dialect::Acl)
        .engine_model(EngineModel::OFF);
    if let Some(seed) = perturb {
        b = b.perturb(true).seed(seed);
    }
    b.build().expect("machine")
}

fn run_acl(prog: &AclProgram, perturb: Option<u64>) -> (Trace, AclOutcome) {
    let prog = prog.clone();
    with_watchdog(30, move || {
        let m = acl_machine(prog.devices(), perturb);
        let outcome = prog
            .run(&m)
            .unwrap_or_else(|e| panic!("the set-up failed (perturbation {perturb:?}): {e}"));
        (m.trace(), outcome)
    })
}

/// The programs the properties run: those whose calls can be made in their order (no synchronize waits for
/// work that the other thread, still to call, could release: the runner would stop).
fn runnable() -> impl Strategy<Value = AclProgram> {
    acl_program(AclLimits::default())
        .prop_filter("a synchronize would wait for the other thread", |p| {
            expect_acl(p).valid
        })
}

/// The generator's coverage over 256 programs: each rule the ACL properties are about is exercised.
#[test]
fn the_acl_programs_exercise_every_rule() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = acl_program(AclLimits::default());
    let mut n: BTreeMap<&str, u32> = BTreeMap::new();
    for _ in 0..256 {
        let prog = strategy.new_tree(&mut runner).expect("a program").current();
        let exp = expect_acl(&prog);
        let all: Vec<_> = exp.results.iter().chain([&exp.last]).collect();
        let mut count = |what, yes: bool| *n.entry(what).or_default() += u32::from(yes);
        count("two contexts", prog.contexts == 2);
        count(
            "a released deferred wait",
            exp.ops
                .iter()
                .any(|o| matches!(o.kind, OpKind::DeferredWait { .. })),
        );
        count(
            "a reset",
            exp.ops
                .iter()
                .any(|o| matches!(o.kind, OpKind::Reset { .. })),
        );
        count("two devices", prog.devices() == 2);
        count("two threads calling", prog.on_thread.contains(&1));
        count(
            "a task refused by a stopped context",
            prog.steps.iter().enumerate().any(|(i, s)| {
                matches!(
                    s,
                    AStep::Launch { .. }
                        | AStep::Record { .. }
                        | AStep::Wait { .. }
                        | AStep::Reset { .. }
                ) && matches!(exp.results[i], Err(SimError::KernelFault { .. }))
            }),
        );
        count("not runnable (filtered)", !exp.valid);
        count(
            "no context",
            all.iter()
                .any(|r| matches!(r, Err(SimError::NoContext { .. }))),
        );
        count(
            "a fault reported to the other thread",
            prog.steps.iter().enumerate().any(|(i, _)| {
                prog.thread_of(i) == 1
                    && matches!(exp.results[i], Err(SimError::KernelFault { .. }))
            }),
        );
        count(
            "wrong device",
            all.iter()
                .any(|r| matches!(r, Err(SimError::WrongDevice { .. }))),
        );
        count(
            "a timeout",
            all.iter()
                .any(|r| matches!(r, Err(SimError::Timeout { .. }))),
        );
        count(
            "a timed synchronize that returns in time",
            prog.steps.iter().enumerate().any(|(i, s)| {
                matches!(
                    s,
                    AStep::StreamSynchronizeTimeout(..) | AStep::EventSynchronizeTimeout(..)
                ) && exp.results[i] == Ok(None)
            }),
        );
        count(
            "would deadlock",
            all.iter()
                .any(|r| matches!(r, Err(SimError::WouldDeadlock { .. }))),
        );
        count(
            "not recorded",
            all.iter()
                .any(|r| matches!(r, Err(SimError::EventNotRecorded { .. }))),
        );
        count(
            "not supported",
            all.iter()
                .any(|r| matches!(r, Err(SimError::NotSupported { .. }))),
        );
        count(
            "wrong context",
            all.iter()
                .any(|r| matches!(r, Err(SimError::WrongContext { .. }))),
        );
        count(
            "a stop mode",
            prog.steps
                .iter()
                .any(|s| matches!(s, AStep::SetFailureMode { stop: true, .. })),
        );
        count(
            "a reported fault",
            all.iter()
                .any(|r| matches!(r, Err(SimError::KernelFault { .. }))),
        );
        count(
            "a fault reported twice",
            all.iter()
                .filter(|r| matches!(r, Err(SimError::KernelFault { .. })))
                .count()
                >= 2,
        );
        count(
            "a kernel that does not run",
            exp.kernels_ran.len()
                < prog
                    .steps
                    .iter()
                    .filter(|s| matches!(s, AStep::Launch { .. }))
                    .count(),
        );
    }
    println!("ACL coverage over 256 programs: {n:?}");
    for (what, &k) in &n {
        assert!(k >= 3, "{what}: only {k} of 256 programs ({n:?})");
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn acl_programs_match_the_model(prog in runnable()) {
        let exp = expect_acl(&prog);
        let (trace, got) = run_acl(&prog, None);
        prop_assert!(
            trace.ops == exp.ops,
            "virtual times differ\nsimulator:\n{}\nmodel:\n{}",
            describe(&trace.ops),
            describe(&exp.ops)
        );
        // Thread ordinals: thread 0 calls first (the set-up), so the program's thread t is ordinal t.
        let mut host: Vec<(u64, u32, String, u64)> = trace
            .host
            .iter()
            .map(|h| (h.start.0, h.thread, h.label.clone(), h.end.0))
            .collect();
        host.sort();
        prop_assert_eq!(&host, &exp.host, "blocking host calls differ");
        for (i, (g, e)) in got.results.iter().zip(&exp.results).enumerate() {
            prop_assert_eq!(g, e, "step {} answered differently", i);
        }
        // The ACL facade's code for every error, against the truth table's.
        for e in got.results.iter().chain([&got.last]).filter_map(|r| r.as_ref().err()) {
            prop_assert_eq!(acl_code(e), expected_acl_code(e), "the ACL code of {:?}", e);
        }
        prop_assert_eq!(&got.last, &exp.last, "the final device synchronize differs");
        let ends: Vec<u64> = got.ends.iter().map(|t| t.0).collect();
        prop_assert_eq!(&ends, &exp.ends, "the host clocks at the end differ");
        prop_assert_eq!(&got.kernels_ran, &exp.kernels_ran, "which kernel bodies ran differs");
    }

    #[test]
    fn acl_perturbation_changes_nothing_observable(prog in runnable()) {
        let (trace, base) = run_acl(&prog, None);
        let trace = format!("{trace:?}");
        for seed in 0..4 {
            let (t, r) = run_acl(&prog, Some(seed));
            prop_assert!(format!("{t:?}") == trace, "perturbation seed {}: the trace differs", seed);
            prop_assert_eq!(&r, &base, "perturbation seed {}", seed);
        }
    }
}
