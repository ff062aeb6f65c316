//! What a run produces: each call's [`Outcome`] as a [`CallRecord`], the [`Run`] as a whole, and the
//! [`RunError`] that stops one early; and the hook where race reports will come from.

use std::fmt;

use super::ast::Vendor;
use crate::error::SimError;
use crate::export::Names;
use crate::machine::Machine;
use crate::process::Status;
use crate::time::VirtualTime;
use crate::trace::Trace;

/// What one call answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome {
    /// Success with nothing to report.
    Ok,
    /// Success; the text names what was created (`stream 1 on device 0`).
    Created(String),
    /// A query's answer.
    Status(Status),
    /// Elapsed milliseconds.
    Elapsed(f32),
    /// `get-last-error` / `peek-last-error`: the thread's last error, if any.
    LastError(Option<SimError>),
    /// Not a runtime call (a pageable buffer, a process switch): what happened.
    Note(String),
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

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// `true` if the statement uses a feature the simulator does not have yet.
    pub not_supported: bool,
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

/// A finished run: every call's answer, the trace, and how it ended.
#[derive(Debug, Clone)]
pub struct Run {
    /// The scenario's dialect.
    pub vendor: Vendor,
    /// How many devices the machine had.
    pub devices: u32,
    /// The machine's seed.
    pub seed: u64,
    /// One record per executed statement (configuration lines excluded).
    pub calls: Vec<CallRecord>,
    /// What ran, with the blocking calls the scenario made (the runner's own final drain is left out).
    pub trace: Trace,
    /// Scenario names of streams and processes, for the exporters.
    pub names: Names,
    /// Why the run stopped early, if it did.
    pub stopped: Option<RunError>,
    /// Race reports: `None` while the simulator does not check for races (see [`race_reports`]).
    pub races: Option<Vec<String>>,
    /// Whether the scenario uses `process` (the transcript then shows which process made each call).
    pub multi_process: bool,
}

/// The hook for race reports. The simulator does not detect races yet, so this answers `None` ("not
/// checked"); when happens-before tracking lands, it returns the machine's reports and every printer and the
/// CLI show them without further change.
pub fn race_reports(_machine: &Machine) -> Option<Vec<String>> {
    None
}
