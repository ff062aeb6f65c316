//! The scenario statements of execution control and wait tasks: `faulty-kernel` (both dialects), and ACL's
//! `failure-mode`, `op-wait-timeout`, `notify` / `record-notify` / `wait-notify`, `value-write` / `value-wait`,
//! `subscribe` / `unsubscribe` / `callback` / `process-report` — their parsing (called by `parse.rs` for a
//! command it does not know) and their running (called by `run.rs`), each one call into the core with the ACL
//! function's argument rules.
//!
//! Callbacks: a process's lines run on one thread, which `subscribe` subscribes (the key [`THREAD_KEY`]) and
//! `process-report` makes run the callbacks due to it; a callback has no body here, so what it shows is when
//! it is due and what waits for it.

use super::ast::Stmt;
use super::lex::{Line, ParseError, Tok, parse_i64, parse_u64};
use super::outcome::{Outcome, RunError};
use super::parse::{Kind, Names, number};
use super::run::{Runner, Var, done};
use crate::engine::core::error::SimError;
use crate::engine::kernels::kernel::{Kernel, KernelError};
use crate::engine::process::Process;
use crate::engine::value_waits::state::ValueCondition;

/// The key of the thread a scenario's process runs on (its callbacks' thread).
pub(super) const THREAD_KEY: u64 = 1;

/// Parses `cmd` if it is one of this module's statements (`None`: it is not).
pub(super) fn parse(
    names: &mut Names,
    line: &mut Line<'_>,
    cmd: &str,
) -> Result<Option<Stmt>, ParseError> {
    let stmt = match cmd {
        "faulty-kernel" => match super::parse::kernel(names, line)? {
            Stmt::Kernel {
                name,
                stream,
                duration,
                reads,
                writes,
            } if reads.is_empty() && writes.is_empty() => Stmt::FaultyKernel {
                name,
                stream,
                duration,
            },
            _ => {
                return Err(line.error_at(
                    None,
                    "a faulty kernel without `reads` / `writes`",
                    None,
                ));
            }
        },
        "failure-mode" => {
            let stream = names.stream(line)?;
            let t = line.next("`continue` or `stop`")?;
            let stop = match t.text {
                "stop" => true,
                "continue" => false,
                _ => return Err(line.error_at(Some(t), "`continue` or `stop`", None)),
            };
            Stmt::FailureMode { stream, stop }
        }
        "op-wait-timeout" => Stmt::OpWaitTimeout(seconds(line)?),
        "notify" => Stmt::Notify(names.declare(line, Kind::Notify)?),
        "record-notify" => {
            let notify = names.use_name(line, &[Kind::Notify])?;
            Stmt::RecordNotify {
                notify,
                stream: names.on_stream(line)?,
            }
        }
        "wait-notify" => {
            let stream = names.stream(line)?;
            let notify = names.use_name(line, &[Kind::Notify])?;
            let timeout = if line.eat("timeout") {
                seconds(line)?
            } else {
                0
            };
            Stmt::WaitNotify {
                stream,
                notify,
                timeout,
            }
        }
        "value-write" => {
            let buf = names.use_name(line, &[Kind::Device])?;
            let value = number(line, "a value (an unsigned integer)", parse_u64)?;
            Stmt::ValueWrite {
                buf,
                value,
                stream: names.on_stream(line)?,
            }
        }
        "value-wait" => {
            let buf = names.use_name(line, &[Kind::Device])?;
            let expected = "a comparison: `geq`, `eq`, `and` or `nor`";
            let t = line.next(expected)?;
            let condition = condition(t).ok_or_else(|| line.error_at(Some(t), expected, None))?;
            let value = number(line, "a value (an unsigned integer)", parse_u64)?;
            Stmt::ValueWait {
                buf,
                condition,
                value,
                stream: names.on_stream(line)?,
            }
        }
        "subscribe" | "unsubscribe" => Stmt::Subscribe {
            stream: names.stream(line)?,
            on: cmd == "subscribe",
        },
        "callback" => {
            let stream = names.on_stream(line)?;
            let block = match line.peek().map(|t| t.text) {
                Some("block") => {
                    line.pos += 1;
                    true
                }
                Some("no-block") => {
                    line.pos += 1;
                    false
                }
                _ => true,
            };
            Stmt::Callback { stream, block }
        }
        "process-report" => {
            let timeout = if line.eat("timeout") {
                let expected = "a timeout in milliseconds such as `100`, `100ms` or `-1` (forever)";
                number(line, expected, |s| {
                    parse_i64(s.strip_suffix("ms").unwrap_or(s)).and_then(|v| i32::try_from(v).ok())
                })?
            } else {
                -1
            };
            Stmt::ProcessReport(timeout)
        }
        _ => return Ok(None),
    };
    Ok(Some(stmt))
}

fn seconds(line: &mut Line<'_>) -> Result<u32, ParseError> {
    number(line, "seconds (an unsigned integer, 0: none)", |s| {
        parse_u64(s.strip_suffix('s').unwrap_or(s)).and_then(|v| u32::try_from(v).ok())
    })
}

fn condition(t: Tok<'_>) -> Option<ValueCondition> {
    Some(match t.text {
        "geq" => ValueCondition::Geq,
        "eq" => ValueCondition::Eq,
        "and" => ValueCondition::And,
        "nor" => ValueCondition::Nor,
        _ => return None,
    })
}

impl Runner {
    fn notify(
        &self,
        n: &super::ast::Name,
    ) -> Result<crate::engine::core::handle::Notify, RunError> {
        match self.var(n)? {
            Var::Notify(x) => Ok(*x),
            _ => Err(Self::wrong_kind(n, "a notify")),
        }
    }

    /// Runs one of this module's statements.
    pub(super) fn task(&mut self, p: &Process, stmt: &Stmt) -> Result<Outcome, RunError> {
        Ok(match stmt {
            Stmt::FaultyKernel {
                name,
                stream,
                duration,
            } => {
                let mut k = Kernel::new(name.clone())
                    .body(|_| Err(KernelError::from("the kernel faults (faulty-kernel)")));
                if let Some(d) = duration {
                    k = k.duration(*d);
                }
                done(p.launch(self.stream(stream)?, k), |()| Outcome::Ok)
            }
            Stmt::FailureMode { stream, stop } => {
                let mode = if *stop {
                    crate::FailureMode::Stop
                } else {
                    crate::FailureMode::Continue
                };
                done(
                    p.set_stream_failure_mode(self.stream(stream)?, mode),
                    |()| Outcome::Ok,
                )
            }
            Stmt::OpWaitTimeout(secs) => done(
                p.set_op_wait_timeout(
                    (*secs > 0).then(|| std::time::Duration::from_secs((*secs).into())),
                ),
                |()| Outcome::Ok,
            ),
            Stmt::Notify(name) => {
                let r = p.create_notify();
                self.created(name, &r, |n| Var::Notify(*n));
                done(r, |n| match p.notify_id(n) {
                    Ok(id) => Outcome::Created(format!("notify {id}")),
                    Err(e) => Outcome::Error(e),
                })
            }
            Stmt::RecordNotify { notify, stream } => done(
                p.record_notify(self.notify(notify)?, self.stream(stream)?),
                |()| Outcome::Ok,
            ),
            Stmt::WaitNotify {
                stream,
                notify,
                timeout,
            } => done(
                p.wait_notify(
                    self.notify(notify)?,
                    self.stream(stream)?,
                    (*timeout > 0).then(|| std::time::Duration::from_secs((*timeout).into())),
                ),
                |()| Outcome::Ok,
            ),
            Stmt::ValueWrite { buf, value, stream } => {
                let (ptr, _) = self.device_buf(buf)?;
                done(p.value_write(ptr, *value, self.stream(stream)?), |()| {
                    Outcome::Ok
                })
            }
            Stmt::ValueWait {
                buf,
                condition,
                value,
                stream,
            } => {
                let (ptr, _) = self.device_buf(buf)?;
                done(
                    p.value_wait(ptr, *value, *condition, self.stream(stream)?),
                    |()| Outcome::Ok,
                )
            }
            Stmt::Subscribe { stream, on } => {
                let s = self.stream(stream)?;
                let r = if *on {
                    p.subscribe_report(THREAD_KEY, s)
                } else {
                    p.unsubscribe_report(THREAD_KEY, s)
                };
                done(r, |()| Outcome::Ok)
            }
            Stmt::Callback { stream, block } => done(
                p.launch_callback(self.stream(stream)?, || {}, *block),
                |()| Outcome::Ok,
            ),
            Stmt::ProcessReport(timeout) => {
                // The ACL layer's own check of the timeout (aclrtProcessReport: 100000).
                let t = match *timeout {
                    -1 => None,
                    t if t > 0 => Some(std::time::Duration::from_millis(t as u64)),
                    t => {
                        let e = SimError::InvalidValue {
                            what: "aclrtProcessReport",
                            reason: format!("timeout {t} ms"),
                        };
                        p.set_last_error(e.clone());
                        return Ok(Outcome::Error(e));
                    }
                };
                done(p.process_report(THREAD_KEY, t), |n| {
                    Outcome::Value(format!("{n} callback{} run", if n == 1 { "" } else { "s" }))
                })
            }
            other => unreachable!("not a statement of tasks.rs: {other:?}"),
        })
    }
}
