//! What a run produces: each call's [`Outcome`] as a [`CallRecord`], the [`Run`] as a whole, the [`RunError`]
//! that stops one early, and the [`Race`]s the machine reported, placed on the scenario's lines.

use std::fmt;

use super::ast::Vendor;
use crate::engine::core::error::SimError;
use crate::engine::core::races::RaceReport;
use crate::engine::core::status::Status;
use crate::engine::core::time::VirtualTime;
use crate::engine::observe::trace::Trace;
use crate::tools::export::Names;

/// What one call answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// Success with nothing to report.
    Ok,
    /// Success; the text names what was created (`stream 1 on device 0`).
    Created(String),
    /// Success; the text is what the call wrote through its out-pointer (`canAccessPeer = 1`).
    Value(String),
    /// A stream query's answer.
    StreamStatus(Status),
    /// An event query's answer.
    EventStatus(Status),
    /// Elapsed milliseconds.
    Elapsed(f32),
    /// `get-last-error` / `peek-last-error`: the thread's last error, if any.
    LastError(Option<SimError>),
    /// Not a runtime call (a pageable buffer, a process switch): what happened.
    Note(String),
    /// `graph-dot`: the graph's DOT description (printed after the transcript).
    Dot {
        /// The graph's scenario name.
        graph: String,
        /// The DOT text.
        dot: String,
    },
    /// The call failed.
    Error(SimError),
}

/// One executed statement.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord {
    /// Its line.
    pub line: usize,
    /// Its text.
    pub source: String,
    /// The process it ran in (its scenario name).
    pub process: String,
    /// The calling thread's virtual clock after the call.
    pub clock: VirtualTime,
    /// The answer.
    pub outcome: Outcome,
}

/// Why a run stopped early: a statement the simulator cannot carry out (a variable whose creation failed, a
/// host buffer over the limit), or a machine that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The explanation.
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for RunError {}

/// A race the machine reported ([`crate::Machine::race_reports`]), with the scenario lines of its two
/// accesses in place of the runner's own call sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    /// The machine's report.
    pub report: RaceReport,
    /// The line whose operation made the earlier access (the latest earlier line with that operation on that
    /// stream touching that buffer), if there is one.
    pub first_line: Option<(usize, String)>,
    /// The line whose call completed the race, with its text.
    pub second_line: (usize, String),
    /// The scenario's name for the buffer, if it has one.
    pub buffer: Option<String>,
}

impl fmt::Display for Race {
    /// The report's own text ([`RaceReport`]'s `Display`), with "enqueued at `<call site>`" replaced by the
    /// scenario line and the buffer's name added after its allocation number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.report;
        let mut text = r.to_string();
        let line = |l: &Option<(usize, String)>| match l {
            Some((n, source)) => format!("line {n}: `{source}`"),
            None => "an earlier line".to_string(),
        };
        text = text.replacen(
            &format!("enqueued at {}", r.first.call_site),
            &line(&self.first_line),
            1,
        );
        text = text.replacen(
            &format!("enqueued at {}", r.second.call_site),
            &line(&Some(self.second_line.clone())),
            1,
        );
        if let Some(name) = &self.buffer {
            text = text.replacen(
                &format!("allocation #{} ({})", r.allocation, r.space),
                &format!("allocation #{} ({}, `{name}`)", r.allocation, r.space),
                1,
            );
        }
        f.write_str(&text)
    }
}

/// A finished run: every call's answer, the trace, the races, and how it ended.
#[derive(Debug, Clone)]
pub struct Run {
    /// The scenario's dialect.
    pub vendor: Vendor,
    /// How many devices the machine had.
    pub devices: u32,
    /// The machine's seed.
    pub seed: u64,
    /// The `engines` statement, if the scenario has one (the default engine model otherwise).
    pub engines: Option<crate::tools::scenario::ast::Engines>,
    /// One record per executed statement (configuration lines excluded).
    pub calls: Vec<CallRecord>,
    /// What ran, with the blocking calls the scenario made (the runner's own final drain is left out).
    pub trace: Trace,
    /// Scenario names of processes, for the exporters (streams and events carry their scenario names in the
    /// trace: the runner names them with [`crate::Process::name_stream`] and [`crate::Process::name_event`]).
    pub names: Names,
    /// Why the run stopped early, if it did.
    pub stopped: Option<RunError>,
    /// The machine's race reports, in the order they were found.
    pub races: Vec<Race>,
    /// Whether the scenario uses `process` (the transcript then shows which process made each call).
    pub multi_process: bool,
}
