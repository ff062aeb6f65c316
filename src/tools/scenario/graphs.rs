//! The scenario statements of stream capture and graphs: `begin-capture`, `end-capture`, `capture-info`,
//! `capture-mode`, `graph-launch` (both dialects) and CUDA / MUSA's `instantiate` and `graph-dot` — their
//! parsing (called by `parse.rs` for a command neither it nor `tasks.rs` knows) and their running (called by
//! `run.rs`), each the core calls of the vendor's function. Rules and sources:
//! `docs/semantics/capture-and-graphs.md`.
//!
//! In ACL, `end-capture S M` is `aclmdlRICaptureEnd`: the capture's model runtime instance, which
//! `graph-launch M` executes (`aclmdlRIExecuteAsync`) and `destroy M` destroys (`aclmdlRIDestroy`). In CUDA and
//! MUSA, `end-capture S G` gives a graph, `instantiate G X` its executable graph, `graph-launch X` launches it,
//! and `destroy` destroys either.

use super::ast::{Name, Stmt};
use super::lex::{Line, ParseError, Tok};
use super::outcome::{Outcome, RunError};
use super::parse::{Kind, Names};
use super::run::{Runner, Var, done};
use crate::engine::core::handle::{Graph, GraphExec};
use crate::engine::graph::{CaptureMode, CaptureStatus};
use crate::engine::process::Process;

/// Parses `cmd` if it is one of this module's statements (`None`: it is not).
pub(super) fn parse(
    names: &mut Names,
    line: &mut Line<'_>,
    cmd: Tok<'_>,
) -> Result<Option<Stmt>, ParseError> {
    let acl = names.vendor().is_acl();
    let stmt = match cmd.text {
        "begin-capture" => {
            let stream = names.stream(line)?;
            let mode = match line.peek() {
                Some(_) => mode(line)?,
                None => CaptureMode::Global,
            };
            Stmt::BeginCapture { stream, mode }
        }
        "end-capture" => {
            let stream = names.stream(line)?;
            let kind = if acl { Kind::GraphExec } else { Kind::Graph };
            Stmt::EndCapture {
                stream,
                graph: names.declare(line, kind)?,
            }
        }
        "capture-info" => Stmt::CaptureInfo(names.stream(line)?),
        "capture-mode" => Stmt::CaptureMode(mode(line)?),
        "instantiate" | "graph-dot" if acl => {
            return Err(line.error_at(
                Some(cmd),
                format!("a command of dialect {}", names.vendor().keyword()),
                Some(format!(
                    "`{}`, which dialect acl does not have (aclmdlRICaptureEnd makes the model at once: \
                     `end-capture S M`, then `graph-launch M`)",
                    cmd.text
                )),
            ));
        }
        "instantiate" => {
            let graph = names.use_name(line, &[Kind::Graph])?;
            Stmt::Instantiate {
                graph,
                exec: names.declare(line, Kind::GraphExec)?,
            }
        }
        "graph-launch" => {
            let exec = names.use_name(line, &[Kind::GraphExec])?;
            Stmt::GraphLaunch {
                exec,
                stream: names.on_stream(line)?,
            }
        }
        "graph-dot" => Stmt::GraphDot(names.use_name(line, &[Kind::Graph])?),
        _ => return Ok(None),
    };
    Ok(Some(stmt))
}

/// `global`, `thread-local` or `relaxed`.
fn mode(line: &mut Line<'_>) -> Result<CaptureMode, ParseError> {
    let expected = "a capture mode: `global`, `thread-local` or `relaxed`";
    let t = line.next(expected)?;
    match t.text {
        "global" => Ok(CaptureMode::Global),
        "thread-local" => Ok(CaptureMode::ThreadLocal),
        "relaxed" => Ok(CaptureMode::Relaxed),
        _ => Err(line.error_at(Some(t), expected, None)),
    }
}

impl Runner {
    fn graph(&self, n: &Name) -> Result<Graph, RunError> {
        match self.var(n)? {
            Var::Graph(g) => Ok(*g),
            _ => Err(Self::wrong_kind(n, "a graph")),
        }
    }

    fn exec_graph(&self, n: &Name) -> Result<GraphExec, RunError> {
        match self.var(n)? {
            Var::GraphExec(x) => Ok(*x),
            _ => Err(Self::wrong_kind(n, "an executable graph")),
        }
    }

    /// The vendor's name of a capture mode.
    fn mode_name(&self, m: CaptureMode) -> &'static str {
        let acl = self.vendor_is_acl();
        match (acl, m) {
            (true, CaptureMode::Global) => "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL",
            (true, CaptureMode::ThreadLocal) => "ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL",
            (true, CaptureMode::Relaxed) => "ACL_MODEL_RI_CAPTURE_MODE_RELAXED",
            (false, CaptureMode::Global) => "StreamCaptureModeGlobal",
            (false, CaptureMode::ThreadLocal) => "StreamCaptureModeThreadLocal",
            (false, CaptureMode::Relaxed) => "StreamCaptureModeRelaxed",
        }
    }

    /// The vendor's name of a capture status.
    fn status_name(&self, s: CaptureStatus) -> &'static str {
        match (self.vendor_is_acl(), s) {
            (true, CaptureStatus::None) => "ACL_MODEL_RI_CAPTURE_STATUS_NONE",
            (true, CaptureStatus::Active) => "ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE",
            (true, CaptureStatus::Invalidated) => "ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED",
            (false, CaptureStatus::None) => "StreamCaptureStatusNone",
            (false, CaptureStatus::Active) => "StreamCaptureStatusActive",
            (false, CaptureStatus::Invalidated) => "StreamCaptureStatusInvalidated",
        }
    }

    /// Runs one of this module's statements.
    pub(super) fn graph_stmt(&mut self, p: &Process, stmt: &Stmt) -> Result<Outcome, RunError> {
        let prefix = self.vendor_prefix();
        Ok(match stmt {
            Stmt::BeginCapture { stream, mode } => {
                done(p.begin_capture(self.stream(stream)?, *mode), |()| {
                    Outcome::Ok
                })
            }
            Stmt::EndCapture { stream, graph } => {
                let s = self.stream(stream)?;
                if self.vendor_is_acl() {
                    // aclmdlRICaptureEnd: the graph is made into the model at once, in the same call.
                    let r = p.end_capture_executable(s);
                    self.created(graph, &r, |(x, _)| Var::GraphExec(*x));
                    done(r, |(_, n)| {
                        Outcome::Created(format!("a model of {n} task{}", plural(n)))
                    })
                } else {
                    // The count is read without a runtime call (cudaStreamEndCapture is one call).
                    let r = p
                        .end_capture(s)
                        .map(|g| (g, p.graph_len_now(g).unwrap_or(0)));
                    self.created(graph, &r, |(g, _)| Var::Graph(*g));
                    done(r, |(_, n)| {
                        Outcome::Created(format!("a graph of {n} node{}", plural(n)))
                    })
                }
            }
            Stmt::CaptureInfo(stream) => done(p.capture_info(self.stream(stream)?), |info| {
                let status = self.status_name(info.status);
                let prefix = if self.vendor_is_acl() { "" } else { prefix };
                if info.status == CaptureStatus::None {
                    Outcome::Value(format!("{prefix}{status}"))
                } else {
                    Outcome::Value(format!(
                        "{prefix}{status}, capture {}, {} dependenc{}",
                        info.id,
                        info.dependencies.len(),
                        if info.dependencies.len() == 1 {
                            "y"
                        } else {
                            "ies"
                        }
                    ))
                }
            }),
            Stmt::CaptureMode(mode) => done(p.exchange_capture_mode(*mode), |old| {
                let prefix = if self.vendor_is_acl() { "" } else { prefix };
                Outcome::Value(format!("previous mode {prefix}{}", self.mode_name(old)))
            }),
            Stmt::Instantiate { graph, exec } => {
                let r = p.instantiate_graph(self.graph(graph)?);
                self.created(exec, &r, |x| Var::GraphExec(*x));
                done(r, |_| {
                    Outcome::Created(format!("executable graph of `{}`", graph.text))
                })
            }
            Stmt::GraphLaunch { exec, stream } => done(
                p.launch_graph(self.exec_graph(exec)?, self.stream(stream)?),
                |()| Outcome::Ok,
            ),
            Stmt::GraphDot(graph) => done(p.graph_dot(self.graph(graph)?), |dot| Outcome::Dot {
                graph: graph.text.clone(),
                dot,
            }),
            other => unreachable!("not a statement of graphs.rs: {other:?}"),
        })
    }

    /// `destroy` of a graph or an executable graph (model): `cudaGraphDestroy` / `cudaGraphExecDestroy` /
    /// `aclmdlRIDestroy`. `None`: `name` is neither.
    pub(super) fn destroy_graph_var(&self, p: &Process, name: &Name) -> Option<Outcome> {
        match self.vars.get(&name.text)? {
            Var::Graph(g) => Some(done(p.destroy_graph(*g), |()| Outcome::Ok)),
            Var::GraphExec(x) => Some(done(p.destroy_graph_exec(*x), |()| Outcome::Ok)),
            _ => None,
        }
    }
}

/// Whether `stmt` is one of this module's statements.
pub(super) fn is_graph_stmt(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::BeginCapture { .. }
            | Stmt::EndCapture { .. }
            | Stmt::CaptureInfo(_)
            | Stmt::CaptureMode(_)
            | Stmt::Instantiate { .. }
            | Stmt::GraphLaunch { .. }
            | Stmt::GraphDot(_)
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    #[test]
    fn capture_statements_parse_with_their_modes() {
        let s = parse(
            "stream s\nbegin-capture s\ncapture-mode relaxed\ncapture-info s\nend-capture s g\n\
             instantiate g x\ngraph-launch x on s\ngraph-dot g\ndestroy x\ndestroy g\n\
             begin-capture s thread-local",
        )
        .unwrap();
        let stmts: Vec<&Stmt> = s.statements.iter().map(|st| &st.stmt).collect();
        assert!(matches!(
            stmts[1],
            Stmt::BeginCapture {
                mode: CaptureMode::Global,
                ..
            }
        ));
        assert_eq!(stmts[2], &Stmt::CaptureMode(CaptureMode::Relaxed));
        assert!(matches!(
            stmts[10],
            Stmt::BeginCapture {
                mode: CaptureMode::ThreadLocal,
                ..
            }
        ));
        let e = parse("stream s\nbegin-capture s local").unwrap_err();
        assert_eq!((e.line, e.column), (2, 17));
        assert!(e.expected.contains("`thread-local`"), "{e}");
    }

    #[test]
    fn graphs_and_executables_are_kinds_of_their_own() {
        let e = parse("stream s\nend-capture s g\ngraph-launch g").unwrap_err();
        assert!(e.found.contains("which is a graph"), "{e}");
        let e = parse("stream s\nend-capture s g\ninstantiate g x\ngraph-dot x").unwrap_err();
        assert!(e.found.contains("which is an executable graph"), "{e}");
    }

    /// ACL's aclmdlRICaptureEnd makes the model: no `instantiate`, no DOT; `end-capture` declares what
    /// `graph-launch` and `destroy` take.
    #[test]
    fn acl_ends_a_capture_with_a_model() {
        assert!(
            parse("dialect acl\nstream s\nend-capture s m\ngraph-launch m on s\ndestroy m").is_ok()
        );
        for w in ["instantiate m x", "graph-dot m"] {
            let e = parse(&format!("dialect acl\nstream s\nend-capture s m\n{w}")).unwrap_err();
            assert!(e.found.contains("which dialect acl does not have"), "{e}");
        }
    }
}
