//! Race detection: every edge the detector knows (stream order, host enqueue, record / wait, re-record, the
//! legacy default stream, synchronizes and completed queries, IPC events), every tracked access (kernels'
//! declared reads / writes, memsets, copies D2D / H2D / D2H with pinned memory, host reads / writes of pinned
//! buffers), the three modes, deduplication and the report's text. The scenarios of the CANN
//! stream-vs-event note come first.
//!
//! Every test asserts the exact reports: both sides (who, read or write, and the line of the call in this
//! file), the allocation, the byte range and the count. Every scenario runs on a fresh machine 11 times —
//! without and with schedule perturbation (seeds 0..10) — and must give the same reports each time.

use std::time::Duration;

use streamsim::{
    Accessor, AddressSpace, Dialect, EventFlags, Kernel, Machine, MachineBuilder, OpKind, Process,
    ProcessId, RaceDetection, RaceReport, SimError, Status, Stream, StreamFlags,
};

use crate::common::with_watchdog;

const N: u64 = 4096;

/// One side of a report as the tests compare it: who, whether it wrote, the line of its call in the test's file.
type Side = (Accessor, bool, u32);

/// A report as the tests compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    first: Side,
    second: Side,
    /// (allocation number, offset, bytes, address space)
    range: (u64, u64, u64, AddressSpace),
    occurrences: u64,
}

/// `r` as the tests compare it; both call sites must be in `file` (the test's).
fn seen(r: &RaceReport, file: &str) -> Seen {
    for side in [&r.first, &r.second] {
        assert_eq!(
            side.call_site.file(),
            file,
            "the call site names the enqueueing call in the test file: {r}"
        );
    }
    Seen {
        first: (r.first.who.clone(), r.first.write, r.first.call_site.line()),
        second: (
            r.second.who.clone(),
            r.second.write,
            r.second.call_site.line(),
        ),
        range: (r.allocation, r.offset, r.bytes, r.space),
        occurrences: r.occurrences,
    }
}

/// A whole-buffer report seen once.
fn race(first: Side, second: Side, allocation: u64, space: AddressSpace) -> Seen {
    Seen {
        first,
        second,
        range: (allocation, 0, N, space),
        occurrences: 1,
    }
}

const DEV0: AddressSpace = AddressSpace::Device(0);
const PINNED: AddressSpace = AddressSpace::PinnedHost;

/// An operation on `stream` of `p`.
fn op(p: &Process, stream: Stream, kind: &'static str, label: &str) -> Accessor {
    Accessor::Op {
        stream: p.stream_id(stream).unwrap(),
        stream_name: p.stream_name(stream).unwrap(),
        kind,
        label: label.to_string(),
    }
}

/// A kernel on `stream` of `p`.
fn kernel(p: &Process, stream: Stream, name: &str) -> Accessor {
    op(p, stream, "kernel", name)
}

/// A host call of thread `thread` of process 0.
fn host(thread: u32, call: &'static str) -> Accessor {
    Accessor::Host {
        process: ProcessId(0),
        thread,
        call,
    }
}

/// Reports with the pinned buffers' real addresses (which differ between runs) zeroed.
fn normalized(reports: Vec<RaceReport>) -> Vec<RaceReport> {
    reports
        .into_iter()
        .map(|mut r| {
            if r.space == PINNED {
                r.addr = 0;
            }
            r
        })
        .collect()
}

/// Runs `scenario` on a machine made by `builder`, then 10 more times with schedule perturbation (seeds
/// 0..10). Each run must report exactly what the scenario expects (it returns that), and the same reports (all
/// fields) as the first run. Returns the first run's reports. The reports' call sites must be in the file that
/// calls `check`.
#[track_caller]
fn check<F>(builder: fn() -> MachineBuilder, scenario: F) -> Vec<RaceReport>
where
    F: Fn(&Machine) -> Vec<Seen> + Send + Sync + 'static,
{
    let file = std::panic::Location::caller().file();
    with_watchdog(120, move || {
        let mut first: Option<Vec<RaceReport>> = None;
        for seed in [None, Some(0), Some(1), Some(2), Some(3)]
            .into_iter()
            .chain((4..10).map(Some))
        {
            let b = match seed {
                None => builder(),
                Some(s) => builder().perturb(true).seed(s),
            };
            let m = b.build().unwrap();
            let expected = scenario(&m);
            let reports = m.race_reports();
            let got: Vec<Seen> = reports.iter().map(|r| seen(r, file)).collect();
            assert_eq!(
                got, expected,
                "perturbation seed {seed:?}; the reports:\n{reports:#?}"
            );
            let reports = normalized(reports);
            match &first {
                None => first = Some(reports),
                Some(f) => assert_eq!(&reports, f, "perturbation seed {seed:?}"),
            }
        }
        first.expect("ran")
    })
}

fn one_device() -> MachineBuilder {
    Machine::builder().devices(1)
}

fn two_devices() -> MachineBuilder {
    Machine::builder().devices(2)
}

fn fail_fast() -> MachineBuilder {
    Machine::builder()
        .devices(1)
        .race_detection(RaceDetection::FailFast)
}

fn streams(p: &Process, n: usize, flags: StreamFlags) -> Vec<Stream> {
    (0..n).map(|_| p.create_stream(flags).unwrap()).collect()
}

fn work(name: &'static str) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(20))
}

mod edges;
mod ipc;
mod lifetimes;
mod modes;
mod seed004;
mod tracked;
