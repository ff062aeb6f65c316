//! Printing a [`Run`]: the header, one line per call with its answer, why the run stopped (if it did), the
//! terminal timeline, and the race reports.
//!
//! How an answer is written is decided in one function, [`outcome_text`]: the vendor's code and name for the
//! scenario's dialect (`600 cudaErrorNotReady`, `0 musaSuccess`, `107003 ACL_ERROR_RT_STREAM_CONTEXT`), then
//! what the call returned or why it failed. The code comes from the facades' own mapping functions
//! (`code` in `src/facade/cuda_runtime.rs` for CUDA and MUSA, in `src/facade/acl/runtime.rs` for ACL), so a
//! scenario prints exactly what the `cuda*` / `musa*` / `aclrt*` function would have returned.

use std::fmt::Write as _;

use super::ast::Vendor;
use super::outcome::{Outcome, Run};
use crate::engine::core::error::SimError;
use crate::engine::core::status::Status;
use crate::facade::binding::Api;
use crate::facade::{acl::runtime as acl, cuda_runtime as runtime};
use crate::tools::export::Timeline;

/// The variant name of an error (`InvalidHandle`, `NotReady`, ...): [`SimError::name`].
pub fn error_name(e: &SimError) -> String {
    e.name()
}

/// An error's message without the values that differ from run to run: [`SimError::stable_message`].
pub fn error_message(e: &SimError) -> String {
    e.stable_message()
}

/// The vendor's code and name for `e` in `vendor`'s dialect (`(600, "cudaErrorNotReady")`), mapped by the
/// facade's own function.
pub fn error_code(vendor: Vendor, e: &SimError) -> (i64, &'static str) {
    match vendor {
        Vendor::Cuda | Vendor::Musa => cuda_family(vendor, runtime::code(e)),
        Vendor::Acl => acl_code(acl::code(e)),
    }
}

fn api(vendor: Vendor) -> Api {
    match vendor {
        Vendor::Cuda => Api::Cuda,
        Vendor::Musa => Api::Musa,
        Vendor::Acl => Api::Acl,
    }
}

fn cuda_family(vendor: Vendor, code: runtime::Error) -> (i64, &'static str) {
    let name = runtime::code_name(api(vendor), code).unwrap_or("(unnamed code)");
    (code.into(), name)
}

fn acl_code(code: crate::facade::acl::aclError) -> (i64, &'static str) {
    (
        code.into(),
        acl::code_name(code).unwrap_or("(unnamed code)"),
    )
}

/// `0 cudaSuccess`, `0 musaSuccess`, `0 ACL_SUCCESS`.
fn success(vendor: Vendor) -> String {
    let (code, name) = match vendor {
        Vendor::Acl => acl_code(crate::facade::acl::ACL_SUCCESS),
        v => cuda_family(v, 0),
    };
    format!("{code} {name}")
}

fn failure(vendor: Vendor, e: &SimError) -> String {
    let (code, name) = error_code(vendor, e);
    format!("{code} {name}: {}", error_message(&named(vendor, e)))
}

/// `e` naming the vendor's function where the engine named its own method (ACL: `aclrtStreamWaitEvent`, not
/// `stream_wait_event`), as the facade's messages do.
fn named(vendor: Vendor, e: &SimError) -> SimError {
    match vendor {
        Vendor::Acl => crate::facade::acl::names::with_acl_names(e),
        Vendor::Cuda | Vendor::Musa => e.clone(),
    }
}

/// How one answer is written, for a scenario in `vendor`'s dialect: the code and name the vendor's function
/// returns, then what it returned through its out-pointer or why it failed. Queries follow the vendor: CUDA's
/// return `600 cudaErrorNotReady`; ACL's return `0 ACL_SUCCESS` and the status.
pub fn outcome_text(vendor: Vendor, outcome: &Outcome) -> String {
    let ok = success(vendor);
    let not_ready = |what| {
        let (code, name) = error_code(vendor, &SimError::NotReady { what });
        format!("{code} {name}")
    };
    match outcome {
        Outcome::Ok => ok,
        Outcome::Created(what) | Outcome::Value(what) => format!("{ok}: {what}"),
        Outcome::StreamStatus(s) if vendor.is_acl() => format!(
            "{ok}: {}",
            match s {
                Status::Complete => "ACL_STREAM_STATUS_COMPLETE",
                Status::NotReady => "ACL_STREAM_STATUS_NOT_READY",
            }
        ),
        Outcome::EventStatus(s) if vendor.is_acl() => format!(
            "{ok}: {}",
            match s {
                Status::Complete => "ACL_EVENT_RECORDED_STATUS_COMPLETE",
                Status::NotReady => "ACL_EVENT_RECORDED_STATUS_NOT_READY",
            }
        ),
        Outcome::StreamStatus(Status::Complete) | Outcome::EventStatus(Status::Complete) => ok,
        Outcome::StreamStatus(Status::NotReady) => not_ready("stream_query"),
        Outcome::EventStatus(Status::NotReady) => not_ready("event_query"),
        Outcome::Elapsed(ms) => format!("{ok}: {ms} ms"),
        // aclGetRecentErrMsg returns the message, not a code.
        Outcome::LastError(None) if vendor.is_acl() => "NULL (no error message)".to_string(),
        Outcome::LastError(Some(e)) if vendor.is_acl() => {
            format!("message: {}", error_message(&named(vendor, e)))
        }
        Outcome::LastError(None) => ok,
        Outcome::LastError(Some(e)) => failure(vendor, e),
        Outcome::Note(text) => format!("({text})"),
        Outcome::Dot { graph, .. } => format!("{ok}: the DOT of `{graph}`, printed below"),
        Outcome::Error(e) => failure(vendor, e),
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
        let engines = match self.engines {
            Some(e) if !e.describe().is_empty() => format!(" · {}", e.describe()),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "streamsim · dialect {}{semantics} · {devices} · seed {}{engines}",
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

    /// The race section: how many races the machine found, and each report.
    pub fn race_section(&self) -> String {
        if self.races.is_empty() {
            return "races: none found\n".to_string();
        }
        let mut out = format!("races: {} found\n", self.races.len());
        for race in &self.races {
            for line in race.to_string().lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        out
    }

    /// The DOT text of each `graph-dot` line, after a header naming the line (empty without one).
    pub fn dot_section(&self) -> String {
        let mut out = String::new();
        for c in &self.calls {
            if let Outcome::Dot { graph, dot } = &c.outcome {
                let _ = writeln!(out, "graph `{graph}` (line {}):", c.line);
                out.push_str(dot);
                out.push('\n');
            }
        }
        out
    }

    /// Everything `streamsim run` prints: transcript, the DOT of `graph-dot` lines, timeline, races.
    pub fn report(&self, width: usize) -> String {
        format!(
            "{}\n{}{}\n{}",
            self.transcript(),
            self.dot_section(),
            self.timeline(width),
            self.race_section()
        )
    }

    /// The trace as Chrome Trace Event JSON, with the scenario's names and failed calls with the dialect's
    /// codes.
    pub fn chrome_json(&self) -> String {
        use crate::tools::export::{ChromeTrace, ErrorCode, acl_code, cuda_code, musa_code};
        let codes: ErrorCode = match self.vendor {
            Vendor::Cuda => cuda_code,
            Vendor::Musa => musa_code,
            Vendor::Acl => acl_code,
        };
        let races: Vec<crate::engine::core::races::RaceReport> =
            self.races.iter().map(|r| r.report.clone()).collect();
        ChromeTrace::new(&self.trace)
            .names(&self.names)
            .error_codes(codes)
            .races(&races)
            .to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::error::{HandleProblem, ObjectKind};

    #[test]
    fn errors_print_with_the_dialect_code_and_without_raw_handles() {
        let e = SimError::InvalidHandle {
            kind: ObjectKind::Event,
            raw: 0xdead_beef,
            problem: HandleProblem::Destroyed,
        };
        assert_eq!(error_name(&e), "InvalidHandle");
        assert_eq!(
            outcome_text(Vendor::Cuda, &Outcome::Error(e.clone())),
            "400 cudaErrorInvalidResourceHandle: invalid event handle: it was destroyed"
        );
        assert_eq!(
            outcome_text(Vendor::Musa, &Outcome::Error(e.clone())),
            "400 musaErrorInvalidResourceHandle: invalid event handle: it was destroyed"
        );
        assert_eq!(
            outcome_text(Vendor::Acl, &Outcome::Error(e)),
            "107017 ACL_ERROR_RT_INVALID_HANDLE: invalid event handle: it was destroyed"
        );
        assert_eq!(error_name(&SimError::NotReady { what: "x" }), "NotReady");
    }

    #[test]
    fn queries_follow_each_vendor() {
        let q = Outcome::EventStatus(Status::NotReady);
        assert_eq!(outcome_text(Vendor::Cuda, &q), "600 cudaErrorNotReady");
        assert_eq!(
            outcome_text(Vendor::Acl, &q),
            "0 ACL_SUCCESS: ACL_EVENT_RECORDED_STATUS_NOT_READY"
        );
        assert_eq!(
            outcome_text(Vendor::Musa, &Outcome::StreamStatus(Status::Complete)),
            "0 musaSuccess"
        );
        assert_eq!(
            outcome_text(Vendor::Acl, &Outcome::StreamStatus(Status::Complete)),
            "0 ACL_SUCCESS: ACL_STREAM_STATUS_COMPLETE"
        );
        assert_eq!(
            outcome_text(Vendor::Acl, &Outcome::LastError(None)),
            "NULL (no error message)"
        );
        assert_eq!(
            outcome_text(Vendor::Cuda, &Outcome::LastError(None)),
            "0 cudaSuccess"
        );
    }
}
