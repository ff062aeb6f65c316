//! Property tests of stream capture and graph launch: random single-device captures
//! ([`streamsim::testing::capture_program`]) run captured and launched on the simulator, checked against the
//! reference model ([`crate::model::capture`]) and against the same calls run eagerly, 256 cases each.
//!
//! 1. `captures_answer_and_replay_as_the_model_says`: every captured call succeeds; the mistake's answer and
//!    the end's (the node count, or `Invalidated` / `Unjoined`) are the model's; every replayed node of every
//!    launch runs on a graph lane at the model's virtual start and end; the replay races exactly when the
//!    model finds two unordered conflicting nodes; every captured kernel ran once per launch.
//! 2. `replay_equals_eager_where_the_dag_is_the_same`: for captures without a mistake (they end with a graph),
//!    with a cost model without call overhead or launch latency, the first launch's work
//!    runs at exactly the eager run's times (the second at those plus the first's makespan), the same kernels
//!    run, and the race reports name the same pairs of operations.

use std::collections::BTreeSet;

use proptest::prelude::*;
use streamsim::testing::{CaptureLimits, CaptureProgram, CaptureRun, capture_program};
use streamsim::{
    Accessor, CaptureProblem, CostModel, EngineModel, Machine, OpKind, RaceReport, SimError,
    StreamKind, Trace, TraceEvent,
};

use crate::model::capture::expect;
use crate::{config, with_watchdog};

/// (what, start, end) of a traced operation, as the model names it.
fn what(op: &TraceEvent) -> Option<(String, u64, u64)> {
    let w = match &op.kind {
        OpKind::Kernel => format!("kernel {}", op.label),
        OpKind::Memset { .. } => "memset".to_string(),
        OpKind::Memcpy { path, .. } => format!("memcpy {path:?}"),
        _ => return None,
    };
    Some((w, op.start.0, op.end.0))
}

/// The work operations of `trace` on streams `keep` selects, sorted.
fn work(trace: &Trace, keep: impl Fn(StreamKind) -> bool) -> Vec<(String, u64, u64)> {
    let mut v: Vec<_> = trace
        .ops
        .iter()
        .filter(|o| keep(o.stream.kind))
        .filter_map(what)
        .collect();
    v.sort();
    v
}

fn lane(k: StreamKind) -> bool {
    matches!(k, StreamKind::Graph { .. })
}

fn problem(r: &Result<(), SimError>) -> Result<(), CaptureProblem> {
    match r {
        Ok(()) => Ok(()),
        Err(SimError::Capture { problem, .. }) => Err(*problem),
        Err(e) => panic!("not a capture refusal: {e}"),
    }
}

/// The pairs of operations the reports name (kind and label, whatever stream or lane they ran on).
fn pairs(reports: &[RaceReport]) -> BTreeSet<((String, String), (String, String))> {
    let side = |a: &Accessor| match a {
        Accessor::Op { kind, label, .. } => (kind.to_string(), label.clone()),
        Accessor::Host { call, .. } => ("host".to_string(), call.to_string()),
    };
    reports
        .iter()
        .map(|r| {
            let (a, b) = (side(&r.first.who), side(&r.second.who));
            if a <= b { (a, b) } else { (b, a) }
        })
        .collect()
}

/// A machine for the reference model, which schedules every operation when it is ready: the engine model is
/// off (copy engines and kernel slots are not in the model yet; `tests/suite/engines.rs` checks them).
fn machine(cost: Option<CostModel>) -> Machine {
    let mut b = Machine::builder().devices(1);
    if let Some(c) = cost {
        b = b.cost_model(c);
    }
    b.engine_model(EngineModel::OFF).build().expect("machine")
}

fn captured(
    prog: &CaptureProgram,
    cost: Option<CostModel>,
) -> (CaptureRun, Trace, Vec<RaceReport>) {
    let prog = prog.clone();
    with_watchdog(30, move || {
        let m = machine(cost);
        let run = prog
            .run_captured(&m.process())
            .unwrap_or_else(|e| panic!("the captured run failed: {e}"));
        (run, m.trace(), m.race_reports())
    })
}

fn zero_overhead() -> CostModel {
    let mut c = CostModel::default();
    c.api_call = std::time::Duration::ZERO;
    c.launch_latency = std::time::Duration::ZERO;
    c
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn captures_answer_and_replay_as_the_model_says(prog in capture_program(CaptureLimits::default())) {
        let exp = expect(&prog);
        let (got, trace, reports) = captured(&prog, None);
        for (i, r) in got.steps.iter().enumerate() {
            prop_assert!(r.is_ok(), "step {} failed: {:?}", i, r);
        }
        prop_assert_eq!(got.mistake.as_ref().map(problem), exp.mistake, "the mistake's answer");
        let end = match &got.end {
            Ok(n) => Ok(*n),
            Err(SimError::Capture { problem, .. }) => Err(*problem),
            Err(e) => panic!("end_capture: {e}"),
        };
        prop_assert_eq!(end, exp.end, "end_capture's answer");
        let replay = work(&trace, lane);
        prop_assert!(
            replay == exp.replay,
            "replay times differ\nsimulator: {:#?}\nmodel: {:#?}\nnodes: {:#?}",
            replay, exp.replay, exp.nodes
        );
        prop_assert_eq!(!reports.is_empty(), exp.racy, "race verdict; reports: {:#?}", reports);
        let kernels = exp.nodes.iter().filter(|n| n.what.starts_with("kernel")).count();
        let launches = if exp.end.is_ok() { prog.launches as usize } else { 0 };
        prop_assert_eq!(got.executed.len(), kernels * launches);
    }

    #[test]
    fn replay_equals_eager_where_the_dag_is_the_same(
        prog in capture_program(CaptureLimits { mistakes: false, ..CaptureLimits::default() })
    ) {
        prop_assert!(expect(&prog).end.is_ok());
        let (got, trace, reports) = captured(&prog, Some(zero_overhead()));
        let eager_prog = prog.clone();
        let (eager_log, eager_trace, eager_reports) = with_watchdog(30, move || {
            let m = machine(Some(zero_overhead()));
            let log = eager_prog.run_eager(&m.process()).expect("the eager run");
            (log, m.trace(), m.race_reports())
        });
        let eager = work(&eager_trace, |k| matches!(k, StreamKind::Created(_)));
        let makespan = eager.iter().map(|w| w.2).max().unwrap_or(0);
        let mut want = Vec::new();
        for k in 0..u64::from(prog.launches) {
            want.extend(eager.iter().map(|(w, s, e)| (w.clone(), s + k * makespan, e + k * makespan)));
        }
        want.sort();
        let replay = work(&trace, lane);
        prop_assert!(replay == want, "replay {:#?}\neager {:#?}", replay, eager);
        let ran: BTreeSet<usize> = got.executed.iter().copied().collect();
        let eager_ran: BTreeSet<usize> = eager_log.iter().copied().collect();
        prop_assert_eq!(ran, eager_ran);
        prop_assert_eq!(pairs(&reports), pairs(&eager_reports));
    }
}
