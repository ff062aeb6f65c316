//! Running a parsed [`Scenario`] on a fresh machine: each statement becomes one call into the core, whose
//! answer is kept as an [`Outcome`]. A call that fails is a result like any other (the run goes on, as a C
//! program that prints the code would); a feature the core does not have yet, or a misuse the simulator
//! cannot express (a variable whose creation failed), stops the run with a [`RunError`].

use std::collections::BTreeMap;

use super::ast::{Name, Scenario, Statement, Stmt, StreamRef, Target, Vendor};
use super::outcome::{CallRecord, Outcome, Run, RunError, race_reports};
use crate::error::SimError;
use crate::event::EventFlags;
use crate::export::{Names, bytes_text, stream_ordinal_name};
use crate::handle::{Event, Stream};
use crate::kernel::Kernel;
use crate::machine::Machine;
use crate::memory::{DevicePtr, Dst, HostPtr, Src};
use crate::process::{Process, StreamFlags};
use crate::trace::Trace;

/// The most host memory one `pageable` or `malloc-host` buffer may take in a scenario.
pub const MAX_HOST_BUFFER: u64 = 1 << 30;

enum Var {
    Stream(Stream),
    Event(Event),
    Device(DevicePtr, u64),
    Pinned(HostPtr, u64),
    Pageable(Option<Vec<u8>>),
    /// Creation failed on this line: the variable holds nothing usable.
    Failed(usize),
}

struct Runner {
    vendor: Vendor,
    devices: u32,
    seed: u64,
    dialect_line: Option<(usize, usize)>,
    machine: Option<Machine>,
    processes: Vec<(String, Process)>,
    current: String,
    named_processes: bool,
    vars: BTreeMap<String, Var>,
    names: Names,
    stream_labels: BTreeMap<String, u32>,
    calls: Vec<CallRecord>,
}

fn stop(line: usize, column: usize, message: impl Into<String>) -> RunError {
    RunError {
        line,
        column,
        not_supported: false,
        message: message.into(),
    }
}

fn unsupported(st: &Statement, feature: &str) -> RunError {
    RunError {
        line: st.line,
        column: st.column,
        not_supported: true,
        message: format!("{feature} is not supported yet (`{}`)", st.source),
    }
}

fn done<T>(r: crate::Result<T>, ok: impl FnOnce(T) -> Outcome) -> Outcome {
    match r {
        Ok(v) => ok(v),
        Err(e) => Outcome::Error(e),
    }
}

impl Runner {
    fn build(&mut self, st: &Statement) -> Result<(), RunError> {
        if self.machine.is_some() {
            return Ok(());
        }
        let built = Machine::builder()
            .devices(self.devices)
            .seed(self.seed)
            .dialect(self.vendor.dialect())
            .build();
        match built {
            Ok(m) => {
                self.machine = Some(m);
                Ok(())
            }
            Err(e) => {
                let (line, column) = self.dialect_line.unwrap_or((st.line, st.column));
                Err(RunError {
                    line,
                    column,
                    not_supported: matches!(e, SimError::NotSupported { .. }),
                    message: match e {
                        SimError::NotSupported { .. } => format!(
                            "dialect {} is not supported yet (the simulator says: {e})",
                            self.vendor.keyword()
                        ),
                        e => format!("cannot build the machine: {e}"),
                    },
                })
            }
        }
    }

    /// The current process, created at its first use.
    fn process(&mut self) -> Process {
        if let Some((_, p)) = self.processes.iter().find(|(n, _)| *n == self.current) {
            return p.clone();
        }
        let m = self.machine.as_ref().expect("built before the first call");
        let p = m.process();
        if self.named_processes {
            self.names.process(p.id(), self.current.clone());
        }
        self.processes.push((self.current.clone(), p.clone()));
        p
    }

    fn var(&self, name: &Name) -> Result<&Var, RunError> {
        match self.vars.get(&name.text) {
            Some(Var::Failed(at)) => Err(stop(
                name.line,
                name.column,
                format!(
                    "`{}` holds nothing: creating it failed on line {at}",
                    name.text
                ),
            )),
            Some(Var::Pageable(None)) => Err(stop(
                name.line,
                name.column,
                format!("`{}` was freed (host memory)", name.text),
            )),
            Some(v) => Ok(v),
            None => Err(stop(
                name.line,
                name.column,
                format!("`{}` is declared later than it is used", name.text),
            )),
        }
    }

    fn stream(&self, s: &StreamRef) -> Result<Stream, RunError> {
        match s {
            StreamRef::Default => Ok(Stream::DEFAULT),
            StreamRef::Legacy => Ok(Stream::LEGACY),
            StreamRef::PerThread => Ok(Stream::PER_THREAD),
            StreamRef::Named(n) => match self.var(n)? {
                Var::Stream(s) => Ok(*s),
                _ => Err(stop(
                    n.line,
                    n.column,
                    format!("`{}` is not a stream", n.text),
                )),
            },
        }
    }

    fn event(&self, n: &Name) -> Result<Event, RunError> {
        match self.var(n)? {
            Var::Event(e) => Ok(*e),
            _ => Err(stop(
                n.line,
                n.column,
                format!("`{}` is not an event", n.text),
            )),
        }
    }

    fn device_buf(&self, n: &Name) -> Result<(DevicePtr, u64), RunError> {
        match self.var(n)? {
            Var::Device(p, len) => Ok((*p, *len)),
            _ => Err(stop(
                n.line,
                n.column,
                format!("`{}` is not a device buffer", n.text),
            )),
        }
    }

    fn buf_len(&self, n: &Name) -> Result<u64, RunError> {
        match self.var(n)? {
            Var::Device(_, len) | Var::Pinned(_, len) => Ok(*len),
            Var::Pageable(Some(v)) => Ok(v.len() as u64),
            _ => Err(stop(
                n.line,
                n.column,
                format!("`{}` is not a buffer", n.text),
            )),
        }
    }

    fn host_limit(&self, name: &Name, bytes: u64) -> Result<(), RunError> {
        if bytes > MAX_HOST_BUFFER {
            return Err(stop(
                name.line,
                name.column,
                format!(
                    "`{}`: scenarios allocate at most {} of host memory per buffer",
                    name.text,
                    bytes_text(MAX_HOST_BUFFER)
                ),
            ));
        }
        Ok(())
    }

    fn created<T>(&mut self, name: &Name, r: &crate::Result<T>, var: impl FnOnce(&T) -> Var) {
        let v = match r {
            Ok(x) => var(x),
            Err(_) => Var::Failed(name.line),
        };
        self.vars.insert(name.text.clone(), v);
    }

    fn memcpy(
        &mut self,
        p: &Process,
        dst: &Name,
        src: &Name,
        bytes: Option<u64>,
        stream: Option<&StreamRef>,
    ) -> Result<Outcome, RunError> {
        let bytes = match bytes {
            Some(b) => b,
            None => self.buf_len(src)?,
        };
        let stream = stream.map(|s| self.stream(s)).transpose()?;
        // A pageable source is copied out first, so that it may also be the destination.
        let staged: Option<Vec<u8>> = match self.var(src)? {
            Var::Pageable(Some(v)) => Some(v.clone()),
            _ => None,
        };
        let s: Src<'_> = match (self.var(src)?, &staged) {
            (Var::Device(ptr, _), _) => (*ptr).into(),
            (Var::Pinned(ptr, _), _) => (*ptr).into(),
            (_, Some(v)) => Src::Host(v),
            _ => return Err(stop(src.line, src.column, "not a buffer")),
        };
        let mut taken: Option<Vec<u8>> = match self.var(dst)? {
            Var::Pageable(Some(_)) => match self.vars.get_mut(&dst.text) {
                Some(Var::Pageable(v)) => v.take(),
                _ => None,
            },
            _ => None,
        };
        let d: Dst<'_> = match (self.var_raw(dst), taken.as_mut()) {
            (Some(Var::Device(ptr, _)), _) => (*ptr).into(),
            (Some(Var::Pinned(ptr, _)), _) => (*ptr).into(),
            (_, Some(v)) => Dst::Host(v),
            _ => return Err(stop(dst.line, dst.column, "not a buffer")),
        };
        let r = match stream {
            Some(st) => p.memcpy_async(d, s, bytes, st),
            None => p.memcpy(d, s, bytes),
        };
        if let Some(v) = taken {
            self.vars.insert(dst.text.clone(), Var::Pageable(Some(v)));
        }
        Ok(done(r, |()| Outcome::Ok))
    }

    fn var_raw(&self, n: &Name) -> Option<&Var> {
        self.vars.get(&n.text)
    }

    fn exec(&mut self, st: &Statement) -> Result<Option<Outcome>, RunError> {
        match &st.stmt {
            Stmt::Dialect(_) | Stmt::Devices(_) | Stmt::Seed(_) => return Ok(None),
            _ => {}
        }
        self.build(st)?;
        if let Stmt::Process(name) = &st.stmt {
            self.current = name.text.clone();
            return Ok(Some(Outcome::Note(format!(
                "later calls run in process `{}`",
                name.text
            ))));
        }
        let p = self.process();
        let outcome = match &st.stmt {
            Stmt::SetDevice(d) => done(p.set_device(*d), |()| Outcome::Ok),
            Stmt::Stream {
                name,
                flags,
                priority,
            } => {
                let r = p.create_stream_with_priority(StreamFlags(*flags), priority.unwrap_or(0));
                self.created(name, &r, |s| Var::Stream(*s));
                match r {
                    Ok(s) => {
                        let id = p.stream_id(s).expect("a stream just created has an id");
                        let uses = self.stream_labels.entry(name.text.clone()).or_insert(0);
                        *uses += 1;
                        let label = if *uses == 1 {
                            name.text.clone()
                        } else {
                            format!("{}#{uses}", name.text)
                        };
                        self.names.stream(id, label);
                        Outcome::Created(format!(
                            "{} on device {}",
                            stream_ordinal_name(id),
                            id.device
                        ))
                    }
                    Err(e) => Outcome::Error(e),
                }
            }
            Stmt::Event { name, flags } => {
                let r = p.create_event(EventFlags(*flags));
                self.created(name, &r, |e| Var::Event(*e));
                match r {
                    Ok(e) => {
                        let id = p.event_id(e).expect("an event just created has an id");
                        let dev = p
                            .event_device(e)
                            .expect("an event just created has a device");
                        Outcome::Created(format!("event {id} on device {dev}"))
                    }
                    Err(e) => Outcome::Error(e),
                }
            }
            Stmt::Malloc { name, bytes } => {
                let r = p.malloc(*bytes);
                self.created(name, &r, |ptr| Var::Device(*ptr, *bytes));
                let dev = r.as_ref().ok().and_then(|ptr| ptr.device()).unwrap_or(0);
                done(r, |_| {
                    Outcome::Created(format!("{} on device {dev}", bytes_text(*bytes)))
                })
            }
            Stmt::MallocHost { name, bytes } => {
                self.host_limit(name, *bytes)?;
                let r = p.malloc_host(*bytes);
                self.created(name, &r, |ptr| Var::Pinned(*ptr, *bytes));
                done(r, |_| {
                    Outcome::Created(format!("{} of pinned host memory", bytes_text(*bytes)))
                })
            }
            Stmt::Pageable { name, bytes } => {
                self.host_limit(name, *bytes)?;
                let n = usize::try_from(*bytes)
                    .map_err(|_| stop(name.line, name.column, "too large"))?;
                self.vars
                    .insert(name.text.clone(), Var::Pageable(Some(vec![0; n])));
                Outcome::Note(format!(
                    "{} of pageable host memory (no runtime call)",
                    bytes_text(*bytes)
                ))
            }
            Stmt::Free(name) => match self.var(name)? {
                Var::Device(ptr, _) => done(p.free(*ptr), |()| Outcome::Ok),
                Var::Pinned(ptr, _) => done(p.free_host(*ptr), |()| Outcome::Ok),
                _ => {
                    self.vars.insert(name.text.clone(), Var::Pageable(None));
                    Outcome::Note("pageable host memory freed (no runtime call)".into())
                }
            },
            Stmt::Destroy(name) => match self.var_raw(name) {
                None => return Err(unsupported(st, "contexts")),
                Some(_) => match self.var(name)? {
                    Var::Stream(s) => done(p.destroy_stream(*s), |()| Outcome::Ok),
                    Var::Event(e) => done(p.destroy_event(*e), |()| Outcome::Ok),
                    _ => return Err(unsupported(st, "contexts")),
                },
            },
            Stmt::Kernel {
                name,
                stream,
                duration,
                reads,
                writes,
            } => {
                let s = self.stream(stream)?;
                let mut k = Kernel::new(name.clone());
                if let Some(d) = duration {
                    k = k.duration(*d);
                }
                for b in reads {
                    let (ptr, len) = self.device_buf(b)?;
                    k = k.reads(ptr, len);
                }
                for b in writes {
                    let (ptr, len) = self.device_buf(b)?;
                    k = k.writes(ptr, len);
                }
                done(p.launch(s, k), |()| Outcome::Ok)
            }
            Stmt::Memcpy {
                dst,
                src,
                bytes,
                stream,
            } => self.memcpy(&p, dst, src, *bytes, stream.as_ref())?,
            Stmt::Memset {
                buf,
                value,
                bytes,
                stream,
            } => {
                let (ptr, len) = self.device_buf(buf)?;
                let n = bytes.unwrap_or(len);
                let r = match stream {
                    Some(s) => p.memset_async(ptr, *value, n, self.stream(s)?),
                    None => p.memset(ptr, *value, n),
                };
                done(r, |()| Outcome::Ok)
            }
            Stmt::HostFn(s) => done(p.launch_host_func(self.stream(s)?, || {}), |()| Outcome::Ok),
            Stmt::Record { event, stream } => done(
                p.record_event(self.event(event)?, self.stream(stream)?),
                |()| Outcome::Ok,
            ),
            Stmt::Wait { stream, event } => done(
                p.stream_wait_event(self.stream(stream)?, self.event(event)?),
                |()| Outcome::Ok,
            ),
            Stmt::Query(Target::Stream(s)) => {
                done(p.stream_query(self.stream(s)?), Outcome::Status)
            }
            Stmt::Query(Target::Event(e)) => done(p.event_query(self.event(e)?), Outcome::Status),
            Stmt::Query(Target::Device) | Stmt::Sync(Target::Device) => {
                done(p.device_synchronize(), |()| Outcome::Ok)
            }
            Stmt::Sync(Target::Stream(s)) => {
                done(p.stream_synchronize(self.stream(s)?), |()| Outcome::Ok)
            }
            Stmt::Sync(Target::Event(e)) => {
                done(p.event_synchronize(self.event(e)?), |()| Outcome::Ok)
            }
            Stmt::Elapsed(a, b) => done(
                p.event_elapsed_ms(self.event(a)?, self.event(b)?),
                Outcome::Elapsed,
            ),
            Stmt::LastError { clear } => Outcome::LastError(if *clear {
                p.take_last_error()
            } else {
                p.peek_last_error()
            }),
            Stmt::CanAccessPeer(..) | Stmt::EnablePeerAccess(_) | Stmt::DisablePeerAccess(_) => {
                return Err(unsupported(st, "peer access"));
            }
            Stmt::IpcGetEventHandle { .. }
            | Stmt::IpcOpenEventHandle { .. }
            | Stmt::IpcGetMemHandle { .. }
            | Stmt::IpcOpenMemHandle { .. } => {
                return Err(unsupported(st, "IPC (sharing handles between processes)"));
            }
            Stmt::Context { .. } | Stmt::SetContext(_) => return Err(unsupported(st, "contexts")),
            Stmt::ResetDevice => return Err(unsupported(st, "device reset")),
            Stmt::Dialect(_) | Stmt::Devices(_) | Stmt::Seed(_) | Stmt::Process(_) => {
                unreachable!("handled above")
            }
        };
        Ok(Some(outcome))
    }

    /// Waits for everything queued, without adding to the trace what the scenario did not do: the host
    /// events are taken before the drain.
    fn finish(self, stopped: Option<RunError>) -> Run {
        let mut trace = Trace::default();
        let mut races = None;
        if let Some(m) = &self.machine {
            trace.host = m.trace().host;
            for (_, p) in &self.processes {
                for d in 0..self.devices {
                    // Errors here (a sticky fault) were reported, if at all, by the scenario's own calls.
                    let _ = p.set_device(i64::from(d));
                    let _ = p.device_synchronize();
                }
            }
            trace.ops = m.trace().ops;
            races = race_reports(m);
        }
        // Drop the processes before the machine. The other order (a `Process` as the last handle) hangs in
        // the core at the time of writing: `Process` drops its machine handle before its process state, so
        // the machine's shutdown joins workers whose queues are still open (see the failing test
        // tests/suite/shutdown.rs `dropping_the_last_process_handle_after_the_machine_shuts_down`).
        drop(self.processes);
        drop(self.machine);
        Run {
            vendor: self.vendor,
            devices: self.devices,
            seed: self.seed,
            calls: self.calls,
            trace,
            names: self.names,
            stopped,
            races,
            multi_process: self.named_processes,
        }
    }
}

/// Runs a scenario on a fresh machine. Always returns a [`Run`]; [`Run::stopped`] says whether (and why) it
/// ended early.
pub fn run(scenario: &Scenario) -> Run {
    let mut r = Runner {
        vendor: Vendor::default(),
        devices: 1,
        seed: 0,
        dialect_line: None,
        machine: None,
        processes: Vec::new(),
        current: "main".to_string(),
        named_processes: scenario.has_processes(),
        vars: BTreeMap::new(),
        names: Names::default(),
        stream_labels: BTreeMap::new(),
        calls: Vec::new(),
    };
    for st in &scenario.statements {
        match st.stmt {
            Stmt::Dialect(v) => {
                r.vendor = v;
                r.dialect_line = Some((st.line, st.column));
            }
            Stmt::Devices(n) => r.devices = n,
            Stmt::Seed(s) => r.seed = s,
            _ => {}
        }
    }
    let mut stopped = None;
    for st in &scenario.statements {
        match r.exec(st) {
            Ok(None) => {}
            Ok(Some(outcome)) => {
                let clock = r.process().now();
                r.calls.push(CallRecord {
                    line: st.line,
                    source: st.source.clone(),
                    process: r.current.clone(),
                    clock,
                    outcome,
                });
            }
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    if stopped.is_none() && r.machine.is_none() {
        // A scenario with only configuration lines still builds its machine (and so reports a bad dialect).
        if let Some(st) = scenario.statements.first()
            && let Err(e) = r.build(st)
        {
            stopped = Some(e);
        }
    }
    r.finish(stopped)
}
