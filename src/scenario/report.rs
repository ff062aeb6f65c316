//! Printing a [`Run`]: the header, one line per call with its answer, why the run stopped (if it did), the
//! terminal timeline, and the race reports.
//!
//! How an answer is written is decided in one function, [`outcome_text`]: today it prints the core's answer
//! (`ok`, `NotReady`, or the [`SimError`] variant and message); when the vendor facades exist, that function
//! adds the dialect's code and name (`600 cudaErrorNotReady`, `107006 ACL_ERROR_RT_...`) and nothing else
//! changes.

use std::fmt::Write as _;

use super::ast::Vendor;
use super::outcome::{Outcome, Run};
use crate::error::SimError;
use crate::export::Timeline;
use crate::process::Status;

/// The variant name of an error (`InvalidHandle`, `NotReady`, ...).
pub fn error_name(e: &SimError) -> String {
    let debug = format!("{e:?}");
    debug
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

/// An error's message without the values that differ from run to run (raw handle bits carry the machine's
/// id; pinned host addresses are real pointers).
pub fn error_message(e: &SimError) -> String {
    match e {
        SimError::InvalidHandle { kind, problem, .. } => {
            format!("invalid {kind} handle: {problem}")
        }
        SimError::InvalidAddress {
            what,
            space,
            problem,
            ..
        } => format!("{what}: the address ({space}) is {problem}"),
        SimError::OutOfRange {
            what, bytes, len, ..
        } => format!("{what}: {bytes} bytes run past the end of the {len}-byte region"),
        e => e.to_string(),
    }
}

/// How one answer is written, for a scenario in `vendor`'s dialect. The one place where vendor codes will be
/// added (see the module documentation); `vendor` is unused until then.
pub fn outcome_text(vendor: Vendor, outcome: &Outcome) -> String {
    let _ = vendor;
    match outcome {
        Outcome::Ok => "ok".to_string(),
        Outcome::Created(what) => format!("ok: {what}"),
        Outcome::Status(Status::Complete) => "ok (complete)".to_string(),
        Outcome::Status(Status::NotReady) => "NotReady".to_string(),
        Outcome::Elapsed(ms) => format!("ok: {ms} ms"),
        Outcome::LastError(None) => "ok (no error)".to_string(),
        Outcome::LastError(Some(e)) => {
            format!("last error: {}: {}", error_name(e), error_message(e))
        }
        Outcome::Note(text) => format!("({text})"),
        Outcome::Error(e) => format!("{}: {}", error_name(e), error_message(e)),
    }
}

/// The widest the statement column of the transcript grows.
const MAX_SOURCE_WIDTH: usize = 40;

impl Run {
    /// The transcript: one line per executed statement, `line  host-clock  statement  answer`, and the
    /// reason the run stopped, if it did.
    pub fn transcript(&self) -> String {
        let mut out = String::new();
        let devices = if self.devices == 1 {
            "1 device".to_string()
        } else {
            format!("{} devices", self.devices)
        };
        let semantics = match self.vendor {
            Vendor::Musa => " (CUDA semantics)",
            _ => "",
        };
        let _ = writeln!(
            out,
            "streamsim · dialect {}{semantics} · {devices} · seed {}",
            self.vendor.keyword(),
            self.seed
        );
        let sources: Vec<String> = self
            .calls
            .iter()
            .map(|c| {
                if self.multi_process {
                    format!("[{}] {}", c.process, c.source)
                } else {
                    c.source.clone()
                }
            })
            .collect();
        let w = sources
            .iter()
            .map(|s| s.chars().count())
            .filter(|&n| n <= MAX_SOURCE_WIDTH)
            .max()
            .unwrap_or(0)
            .max(9);
        let _ = writeln!(
            out,
            "line   host clock  {:w$}  answer",
            if self.multi_process {
                "[process] statement"
            } else {
                "statement"
            }
        );
        for (c, source) in self.calls.iter().zip(&sources) {
            let _ = writeln!(
                out,
                "{:>4}  {:>11}  {source:w$}  {}",
                c.line,
                c.clock.to_string(),
                outcome_text(self.vendor, &c.outcome)
            );
        }
        if let Some(e) = &self.stopped {
            let _ = writeln!(out, "stopped: {e}");
        }
        out
    }

    /// The terminal timeline of the trace, `width` characters wide, with the scenario's names.
    pub fn timeline(&self, width: usize) -> String {
        Timeline::new(&self.trace)
            .width(width)
            .names(&self.names)
            .to_string()
    }

    /// The race section: the reports, or a line saying that races were not checked.
    pub fn race_section(&self) -> String {
        match &self.races {
            None => "races: not checked (the simulator does not detect races yet)\n".to_string(),
            Some(r) if r.is_empty() => "races: none found\n".to_string(),
            Some(r) => {
                let mut out = format!("races: {} found\n", r.len());
                for line in r {
                    let _ = writeln!(out, "  {line}");
                }
                out
            }
        }
    }

    /// Everything `streamsim run` prints: transcript, timeline, races.
    pub fn report(&self, width: usize) -> String {
        format!(
            "{}\n{}\n{}",
            self.transcript(),
            self.timeline(width),
            self.race_section()
        )
    }

    /// The trace as Chrome Trace Event JSON, with the scenario's names.
    pub fn chrome_json(&self) -> String {
        crate::export::ChromeTrace::new(&self.trace)
            .names(&self.names)
            .to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{HandleProblem, ObjectKind};

    #[test]
    fn errors_print_without_raw_handles() {
        let e = SimError::InvalidHandle {
            kind: ObjectKind::Event,
            raw: 0xdead_beef,
            problem: HandleProblem::Destroyed,
        };
        assert_eq!(error_name(&e), "InvalidHandle");
        let text = outcome_text(Vendor::Cuda, &Outcome::Error(e));
        assert_eq!(
            text,
            "InvalidHandle: invalid event handle: it was destroyed"
        );
        assert_eq!(error_name(&SimError::NotReady { what: "x" }), "NotReady");
    }
}
