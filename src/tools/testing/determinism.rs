//! The determinism self-check, after MadSim's: run a program twice on machines built the same way (same seed),
//! and optionally under other schedules, and report the first thing that differs — the program's answer, the
//! trace (every operation with its virtual times, every blocking host call, names, failed calls with their
//! errors), the race reports, or the watchdog's hang reports.
//!
//! A *perturbation* run `k` is the same program on the same machine (same seed: the same answers are due)
//! under the serialize schedule with schedule seed `k` ([`MachineBuilder::schedule_seed`]): one operation at a
//! time, in another order, deterministically. What the vendors promise does not depend on that order, so a
//! program whose answers do (a data race, a host function that reads another stream's progress) is caught,
//! and the same `k` catches it on every run. The trace is compared only between the two runs under the
//! builder's own schedule: virtual times do not depend on the schedule, but a perturbation run that the
//! watchdog stopped has a trace of its own.
//!
//! ```
//! use streamsim::testing::check_determinism;
//! use streamsim::{Kernel, Machine, Stream};
//!
//! let check = check_determinism(Machine::builder().seed(3), &[1, 2], |m| {
//!     let p = m.process();
//!     p.launch(Stream::DEFAULT, Kernel::new("k")).unwrap();
//!     p.device_synchronize().unwrap();
//!     p.now()
//! });
//! assert_eq!(check, Ok(()));
//! ```

use std::fmt::Debug;

use crate::{Machine, MachineBuilder, Schedule};

/// Which run differed from the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunKind {
    /// The second run, built exactly as the first.
    Repeat,
    /// A run under the serialize schedule with this schedule seed.
    Perturbed(u64),
}

impl std::fmt::Display for RunKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunKind::Repeat => f.write_str("the second run (same seed)"),
            RunKind::Perturbed(k) => write!(
                f,
                "the run under the serialize schedule with schedule seed {k}"
            ),
        }
    }
}

/// What differed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    /// The value the program returned.
    Answer,
    /// The trace's operations (kind, label, virtual times).
    Operations,
    /// The trace's blocking host calls (virtual times).
    HostCalls,
    /// The trace's failed calls (errors).
    FailedCalls,
    /// The trace's names of streams and events.
    Names,
    /// The race reports.
    Races,
    /// The watchdog's hang reports.
    Hangs,
}

/// The first divergence found: in which run, in what, at which position, and the two sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The run that differed from the first.
    pub run: RunKind,
    /// What differed.
    pub aspect: Aspect,
    /// The position of the first differing item (0 for the answer).
    pub index: usize,
    /// The first run's item there (`Debug`), or `(none)`.
    pub first: String,
    /// The other run's item there, or `(none)`.
    pub other: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not deterministic: {run} differs from the first in {aspect:?} at #{index}: first run: {first}; {run}: {other}",
            run = self.run,
            aspect = self.aspect,
            index = self.index,
            first = self.first,
            other = self.other
        )
    }
}

impl std::error::Error for Divergence {}

/// What one run produced.
struct Observed<T> {
    answer: T,
    ops: Vec<String>,
    host: Vec<String>,
    failed: Vec<String>,
    names: Vec<String>,
    races: Vec<String>,
    hangs: Vec<String>,
}

fn lines<I: Debug>(items: impl IntoIterator<Item = I>) -> Vec<String> {
    items.into_iter().map(|i| format!("{i:?}")).collect()
}

fn observe<T>(builder: MachineBuilder, run: &impl Fn(&Machine) -> T) -> Observed<T> {
    let machine = builder
        .build()
        .expect("check_determinism: the machine builder does not build");
    let answer = run(&machine);
    machine.drain();
    let trace = machine.trace();
    let names = {
        let n = &trace.names;
        let mut v = lines(n.streams.iter());
        v.extend(lines(n.events.iter()));
        v
    };
    Observed {
        answer,
        ops: lines(trace.ops.iter()),
        host: lines(trace.host.iter()),
        failed: lines(trace.failed.iter()),
        names,
        races: lines(machine.race_reports()),
        hangs: lines(machine.hang_reports()),
    }
}

fn first_difference(a: &[String], b: &[String]) -> Option<(usize, String, String)> {
    let none = || "(none)".to_string();
    (0..a.len().max(b.len())).find_map(|i| {
        let (x, y) = (a.get(i), b.get(i));
        (x != y).then(|| {
            (
                i,
                x.cloned().unwrap_or_else(none),
                y.cloned().unwrap_or_else(none),
            )
        })
    })
}

fn compare<T: Debug + PartialEq>(
    run: RunKind,
    first: &Observed<T>,
    other: &Observed<T>,
    with_trace: bool,
) -> Result<(), Divergence> {
    if first.answer != other.answer {
        return Err(Divergence {
            run,
            aspect: Aspect::Answer,
            index: 0,
            first: format!("{:?}", first.answer),
            other: format!("{:?}", other.answer),
        });
    }
    let mut aspects = vec![(Aspect::Races, &first.races, &other.races)];
    if with_trace {
        aspects.extend([
            (Aspect::Operations, &first.ops, &other.ops),
            (Aspect::HostCalls, &first.host, &other.host),
            (Aspect::FailedCalls, &first.failed, &other.failed),
            (Aspect::Names, &first.names, &other.names),
            (Aspect::Hangs, &first.hangs, &other.hangs),
        ]);
    }
    for (aspect, a, b) in aspects {
        if let Some((index, x, y)) = first_difference(a, b) {
            return Err(Divergence {
                run,
                aspect,
                index,
                first: x,
                other: y,
            });
        }
    }
    Ok(())
}

/// Runs `run` on a machine from `builder`, then again on another one built the same way, then under the
/// serialize schedule with each schedule seed of `perturbations` (see the module), and returns the first
/// divergence from the first run: in the answer `run` returns, the trace (operations and their virtual times,
/// blocking host calls, failed calls, names) or the hang reports (second run only), or the race reports. Each
/// machine is drained after `run` returns, so that the trace holds all the work. Panics if `builder` does not
/// build.
pub fn check_determinism<T: Debug + PartialEq>(
    builder: MachineBuilder,
    perturbations: &[u64],
    run: impl Fn(&Machine) -> T,
) -> Result<(), Divergence> {
    let first = observe(builder.clone(), &run);
    let again = observe(builder.clone(), &run);
    compare(RunKind::Repeat, &first, &again, true)?;
    for &k in perturbations {
        let perturbed = builder
            .clone()
            .schedule(Schedule::Serialize)
            .schedule_seed(k);
        let other = observe(perturbed, &run);
        compare(RunKind::Perturbed(k), &first, &other, false)?;
    }
    Ok(())
}
