//! The scenario statements of capture and graphs (`begin-capture` … `graph-launch`): what each answers in
//! each dialect, with the vendor's codes, the DOT section, the graph's tracks, the clock.

use streamsim::scenario::{self, Outcome, Run, outcome_text};
use streamsim::{StreamKind, VirtualTime};

fn run(text: &str) -> Run {
    let run = scenario::run_source(text).expect("parses");
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    run
}

/// The printed answers of the calls, in order, for the lines of `lines`.
fn answers(run: &Run, lines: &[usize]) -> Vec<String> {
    lines
        .iter()
        .map(|&l| {
            let c = run.calls.iter().find(|c| c.line == l).expect("a call");
            outcome_text(run.vendor, &c.outcome)
        })
        .collect()
}

/// The shipped scenario's answers: a fork/join capture of 7 nodes (the events' records and waits are edges,
/// not nodes), the two mistakes with 900, 901 and 904, and the captured streams' status.
#[test]
fn the_shipped_scenario_answers_the_vendor_codes() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/scenarios/11_capture_and_graphs.ss"
    ))
    .unwrap();
    let r = run(&text);
    // The answer of the last call whose line is `s`.
    let by_source = |s: &str| {
        let c = r.calls.iter().rev().find(|c| c.source == s).unwrap();
        outcome_text(r.vendor, &c.outcome)
    };
    assert_eq!(
        by_source("end-capture s1 graph"),
        "0 cudaSuccess: a graph of 7 nodes"
    );
    assert!(by_source("sync s1").starts_with("900 cudaErrorStreamCaptureUnsupported"));
    assert!(
        by_source("end-capture s1 broken").starts_with("901 cudaErrorStreamCaptureInvalidated")
    );
    assert!(by_source("end-capture s1 unjoined").starts_with("904 cudaErrorStreamCaptureUnjoined"));
    assert_eq!(
        by_source("capture-info s1"),
        "0 cudaSuccess: cudaStreamCaptureStatusInvalidated, capture 2, 1 dependency"
    );
    assert_eq!(
        by_source("capture-info s2"),
        "0 cudaSuccess: cudaStreamCaptureStatusNone"
    );
    let dot = r.dot_section();
    assert!(dot.starts_with("graph `graph` (line "), "{dot}");
    assert_eq!(dot.matches(" -> ").count(), 6, "{dot}");
    // The two launches ran on the graph's lanes; nothing of the captures ran on s1.
    let lanes = r
        .trace
        .ops
        .iter()
        .filter(|o| matches!(o.stream.kind, StreamKind::Graph { .. }))
        .count();
    assert_eq!(lanes, 14);
    assert!(r.report(80).contains("graph 1 lane 0 |"));
}

/// ACL: `end-capture` makes the model (one call: the host clock advances by one call's time), which
/// `graph-launch` executes and `destroy` destroys; unjoined work is 107025, a plain event 207000, a synchronize
/// of a capturing stream 107027 (the capture goes on), a pageable copy 107000, a destroyed model 107017.
#[test]
fn acl_capture_statements_answer_the_cann_codes() {
    let r = run("dialect acl
set-device 0
stream s1
stream s2
event e ex sync
event plain
malloc a 4KiB
pageable h 4KiB
begin-capture s1
record e on s1
wait s2 e
kernel k on s2 10us writes a
end-capture s1 m
begin-capture s1
record plain on s1
kernel k on s1 10us
sync s1
capture-info s1
end-capture s1 m2
begin-capture s1 relaxed
memcpy-async a h on s1
kernel k on s1 10us writes a
capture-mode relaxed
end-capture s1 m3
graph-launch m3 on s2
graph-launch m3 on s2
sync s2
destroy m3
graph-launch m3 on s2
capture-mode global
");
    let a = answers(&r, &[13, 15, 17, 18, 19, 21, 23, 24, 29, 30]);
    assert!(
        a[0].starts_with("107025 ACL_ERROR_RT_STREAM_UNJOINED"),
        "{a:?}"
    );
    assert!(
        a[1].starts_with("207000 ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
        "{a:?}"
    );
    assert!(
        a[2].starts_with("107027 ACL_ERROR_RT_STREAM_CAPTURED"),
        "{a:?}"
    );
    assert_eq!(
        a[3],
        "0 ACL_SUCCESS: ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, capture 2, 1 dependency"
    );
    assert_eq!(a[4], "0 ACL_SUCCESS: a model of 1 task");
    assert!(
        a[5].starts_with("107000 ACL_ERROR_RT_PARAM_INVALID"),
        "{a:?}"
    );
    assert_eq!(
        a[6],
        "0 ACL_SUCCESS: previous mode ACL_MODEL_RI_CAPTURE_MODE_GLOBAL"
    );
    assert_eq!(a[7], "0 ACL_SUCCESS: a model of 1 task");
    assert!(
        a[8].starts_with("107017 ACL_ERROR_RT_INVALID_HANDLE"),
        "{a:?}"
    );
    assert_eq!(
        a[9],
        "0 ACL_SUCCESS: previous mode ACL_MODEL_RI_CAPTURE_MODE_RELAXED"
    );
    let clock = |l: usize| r.calls.iter().find(|c| c.line == l).unwrap().clock;
    assert_eq!(clock(19), clock(18).plus(1_000));
    // The two executions of m3's kernel ran back to back on its lane.
    let ks: Vec<(VirtualTime, VirtualTime)> = r
        .trace
        .ops
        .iter()
        .filter(|o| matches!(o.stream.kind, StreamKind::Graph { .. }))
        .map(|o| (o.start, o.end))
        .collect();
    assert_eq!(ks.len(), 2);
    assert_eq!(ks[1].0, ks[0].1);
    assert!(r.dot_section().is_empty());
}

/// CUDA: the capture calls answer their codes: `capture-info` of a stream outside any capture, ending a
/// capture that never began and beginning one twice (401 cudaErrorIllegalState), the legacy stream during a
/// capture (906, the capture invalidated: 901 at its end), a launch of a destroyed executable graph and the DOT
/// of a destroyed graph (1 cudaErrorInvalidValue, the Runtime API's answer for a bad graph handle).
#[test]
fn cuda_capture_statements_answer_the_cuda_codes() {
    let r = run("stream s
stream t
capture-info s
end-capture s g0
begin-capture s
begin-capture s
kernel k on legacy
capture-info s
end-capture s g1
begin-capture s relaxed
kernel k on s 20us
end-capture s g
instantiate g x
graph-launch x on t
destroy x
graph-launch x on t
destroy g
graph-dot g
");
    let a = answers(&r, &[3, 4, 6, 7, 8, 9, 12, 13, 14, 16, 18]);
    assert_eq!(a[0], "0 cudaSuccess: cudaStreamCaptureStatusNone");
    assert!(a[1].starts_with("401 cudaErrorIllegalState"), "{a:?}");
    assert!(a[2].starts_with("401 cudaErrorIllegalState"), "{a:?}");
    assert!(
        a[3].starts_with("906 cudaErrorStreamCaptureImplicit"),
        "{a:?}"
    );
    assert_eq!(
        a[4],
        "0 cudaSuccess: cudaStreamCaptureStatusInvalidated, capture 1, 0 dependencies"
    );
    assert!(
        a[5].starts_with("901 cudaErrorStreamCaptureInvalidated"),
        "{a:?}"
    );
    assert_eq!(a[6], "0 cudaSuccess: a graph of 1 node");
    assert_eq!(a[7], "0 cudaSuccess: executable graph of `g`");
    assert_eq!(a[8], "0 cudaSuccess");
    assert!(a[9].starts_with("1 cudaErrorInvalidValue"), "{a:?}");
    assert!(a[10].starts_with("1 cudaErrorInvalidValue"), "{a:?}");
    assert!(matches!(
        r.calls.iter().find(|c| c.line == 18).unwrap().outcome,
        Outcome::Error(_)
    ));
}
