//! Running a parsed [`Scenario`] on a fresh machine: each statement becomes one call into the core, whose
//! answer is kept as an [`Outcome`]. A call that fails is a result like any other (the run goes on, as a C
//! program that prints the code would); a misuse the simulator cannot express (a variable whose creation
//! failed) stops the run with a [`RunError`].
//!
//! Where a vendor function does more than one core call, the runner reuses the facade's own code (ACL's
//! event flags → [`EventConfig`](crate::EventConfig), its timeout argument, CUDA's last error with a sticky
//! fault), so a scenario answers what the `cuda*` / `aclrt*` function would.
//!
//! Races: after each statement the runner reads the machine's race reports; a new one was completed by that
//! statement. Its earlier access is placed on the latest earlier statement whose operation (same stream, kind
//! and kernel name) touched the same buffer.

mod statements;

use std::collections::BTreeMap;

use super::ast::{Name, Scenario, Statement, Stmt, StreamRef, Vendor};
use super::outcome::{CallRecord, Outcome, Race, Run, RunError};
use crate::engine::core::handle::{Context, Event, Stream, StreamId};
use crate::engine::core::pointers::{DevicePtr, HostPtr};
use crate::engine::core::races::Accessor;
use crate::engine::ipc::events::IpcEventHandle;
use crate::engine::machine::Machine;
use crate::engine::observe::trace::Trace;
use crate::engine::process::Process;
use crate::tools::export::{Names, bytes_text};

/// The most host memory one `pageable` or `malloc-host` buffer may take in a scenario.
pub const MAX_HOST_BUFFER: u64 = 1 << 30;

pub(super) enum Var {
    Stream(Stream),
    Notify(crate::engine::core::handle::Notify),
    Event(Event),
    Context(Context),
    EventHandle(IpcEventHandle),
    Device(DevicePtr, u64),
    Pinned(HostPtr, u64),
    Pageable(Option<Vec<u8>>),
    Graph(crate::engine::core::handle::Graph),
    /// An executable graph (ACL: a model runtime instance).
    GraphExec(crate::engine::core::handle::GraphExec),
    Pool(crate::engine::core::handle::MemPool),
    /// Creation failed on this line: the variable holds nothing usable.
    Failed(usize),
}

/// An operation a statement enqueued that touches memory, kept to place the earlier access of a race.
struct Access {
    /// Index of the statement's [`CallRecord`].
    call: usize,
    stream: StreamId,
    kind: &'static str,
    /// The kernel's name (kernels only).
    label: Option<String>,
    /// The address ranges of the buffers it touches.
    ranges: Vec<(u64, u64)>,
}

pub(super) struct Runner {
    vendor: Vendor,
    devices: u32,
    seed: u64,
    /// The `engines` statement, if any.
    engines: Option<crate::tools::scenario::ast::Engines>,
    dialect_line: Option<(usize, usize)>,
    machine: Option<Machine>,
    processes: Vec<(String, Process)>,
    current: String,
    named_processes: bool,
    pub(super) vars: BTreeMap<String, Var>,
    names: Names,
    /// How many times each name was declared (for `name#2`).
    labels: BTreeMap<String, u32>,
    calls: Vec<CallRecord>,
    /// Every allocation made: (name, address, bytes), in order.
    allocations: Vec<(String, u64, u64)>,
    accesses: Vec<Access>,
    races: Vec<Race>,
    /// Pageable memory no name holds any more that a captured copy may still use (see `memcpy`).
    kept_pageable: Vec<Vec<u8>>,
}

fn stop(line: usize, column: usize, message: impl Into<String>) -> RunError {
    RunError {
        line,
        column,
        message: message.into(),
    }
}

pub(super) fn done<T>(r: crate::Result<T>, ok: impl FnOnce(T) -> Outcome) -> Outcome {
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
        // A scenario's report and trace show every call: the whole trace is kept.
        let mut builder = Machine::builder()
            .devices(self.devices)
            .seed(self.seed)
            .dialect(self.vendor.dialect())
            .trace_window(crate::TraceWindow::All);
        if let Some(e) = self.engines {
            let mut model = crate::EngineModel::ON;
            model.enabled = !e.off;
            if let Some(n) = e.kernel_slots {
                model = model.kernel_slots(n);
            }
            builder = builder.engine_model(model);
            if let Some(n) = e.copy_engines {
                for d in 0..self.devices {
                    builder = builder.device(
                        d,
                        crate::DeviceConfig::default()
                            .attribute(crate::Attribute::AsyncEngineCount, i64::from(n)),
                    );
                }
            }
        }
        let built = builder.build();
        match built {
            Ok(m) => {
                self.machine = Some(m);
                Ok(())
            }
            Err(e) => {
                let (line, column) = self.dialect_line.unwrap_or((st.line, st.column));
                Err(stop(line, column, format!("cannot build the machine: {e}")))
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
        // The thread the process's lines run on, as stream callbacks name it (`subscribe`, `process-report`).
        p.set_host_thread_key(super::tasks::THREAD_KEY);
        if self.named_processes {
            self.names.process(p.id(), self.current.clone());
        }
        self.processes.push((self.current.clone(), p.clone()));
        p
    }

    pub(super) fn var(&self, name: &Name) -> Result<&Var, RunError> {
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

    /// Whether the scenario is in ACL's dialect.
    pub(super) fn vendor_is_acl(&self) -> bool {
        self.vendor.is_acl()
    }

    /// `cuda` or `musa` (the prefix of the runtime's names; ACL: `acl`).
    pub(super) fn vendor_prefix(&self) -> &'static str {
        self.vendor.keyword()
    }

    /// The scenario's dialect.
    pub(super) fn vendor(&self) -> Vendor {
        self.vendor
    }

    /// Remembers an allocation (what race reports name by the variable).
    pub(super) fn allocated(&mut self, name: &Name, addr: u64, bytes: u64) {
        self.allocations.push((name.text.clone(), addr, bytes));
    }

    pub(super) fn wrong_kind(n: &Name, what: &str) -> RunError {
        stop(n.line, n.column, format!("`{}` is not {what}", n.text))
    }

    pub(super) fn stream(&self, s: &StreamRef) -> Result<Stream, RunError> {
        match s {
            StreamRef::Default => Ok(Stream::DEFAULT),
            StreamRef::Legacy => Ok(Stream::LEGACY),
            StreamRef::PerThread => Ok(Stream::PER_THREAD),
            StreamRef::Named(n) => match self.var(n)? {
                Var::Stream(s) => Ok(*s),
                _ => Err(Self::wrong_kind(n, "a stream")),
            },
        }
    }

    fn event(&self, n: &Name) -> Result<Event, RunError> {
        match self.var(n)? {
            Var::Event(e) => Ok(*e),
            _ => Err(Self::wrong_kind(n, "an event")),
        }
    }

    fn context(&self, n: &Name) -> Result<Context, RunError> {
        match self.var(n)? {
            Var::Context(c) => Ok(*c),
            _ => Err(Self::wrong_kind(n, "a context")),
        }
    }

    fn handle(&self, n: &Name) -> Result<IpcEventHandle, RunError> {
        match self.var(n)? {
            Var::EventHandle(h) => Ok(*h),
            _ => Err(Self::wrong_kind(n, "an IPC event handle")),
        }
    }

    pub(super) fn device_buf(&self, n: &Name) -> Result<(DevicePtr, u64), RunError> {
        match self.var(n)? {
            Var::Device(p, len) => Ok((*p, *len)),
            _ => Err(Self::wrong_kind(n, "a device buffer")),
        }
    }

    fn buf_len(&self, n: &Name) -> Result<u64, RunError> {
        match self.var(n)? {
            Var::Device(_, len) | Var::Pinned(_, len) => Ok(*len),
            Var::Pageable(Some(v)) => Ok(v.len() as u64),
            _ => Err(Self::wrong_kind(n, "a buffer")),
        }
    }

    /// The address range of a device or pinned buffer (what race reports name).
    fn range(&self, n: &Name) -> Option<(u64, u64)> {
        match self.vars.get(&n.text)? {
            Var::Device(p, len) => Some((p.addr(), *len)),
            Var::Pinned(p, len) => Some((p.addr(), *len)),
            _ => None,
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

    pub(super) fn created<T>(
        &mut self,
        name: &Name,
        r: &crate::Result<T>,
        var: impl FnOnce(&T) -> Var,
    ) {
        let v = match r {
            Ok(x) => var(x),
            Err(_) => Var::Failed(name.line),
        };
        self.vars.insert(name.text.clone(), v);
    }

    /// Remembers an operation that touches `buffers`, enqueued on `stream` by the statement being run.
    pub(super) fn accessed(
        &mut self,
        p: &Process,
        stream: Stream,
        kind: &'static str,
        label: Option<String>,
        buffers: &[&Name],
    ) {
        let Ok(id) = p.stream_id(stream) else {
            return;
        };
        let ranges = buffers.iter().filter_map(|b| self.range(b)).collect();
        self.accesses.push(Access {
            call: self.calls.len(),
            stream: id,
            kind,
            label,
            ranges,
        });
    }

    /// Takes the races the statement just run completed (the machine's reports past those already taken).
    fn collect_races(&mut self) {
        let Some(m) = &self.machine else {
            return;
        };
        let reports = m.race_reports();
        let Some(call) = self.calls.last() else {
            return;
        };
        let (index, second) = (self.calls.len() - 1, (call.line, call.source.clone()));
        for report in reports.into_iter().skip(self.races.len()) {
            let first_line = match &report.first.who {
                Accessor::Op {
                    stream,
                    kind,
                    label,
                    ..
                } => self
                    .accesses
                    .iter()
                    .rev()
                    .filter(|a| a.call < index)
                    .find(|a| {
                        a.stream == *stream
                            && a.kind == *kind
                            && a.label.as_ref().is_none_or(|l| l == label)
                            && a.ranges
                                .iter()
                                .any(|&(base, len)| (base..base + len).contains(&report.addr))
                    })
                    .map(|a| {
                        let c = &self.calls[a.call];
                        (c.line, c.source.clone())
                    }),
                Accessor::Host { .. } => None,
            };
            let buffer = self
                .allocations
                .iter()
                .rev()
                .find(|(_, base, len)| (*base..base + len).contains(&report.addr))
                .map(|(name, ..)| name.clone());
            self.races.push(Race {
                report,
                first_line,
                second_line: second.clone(),
                buffer,
            });
        }
    }

    /// Waits for everything queued (without a runtime call, so nothing the scenario did not do is added to
    /// the trace), then takes the trace.
    fn finish(self, stopped: Option<RunError>) -> Run {
        let trace = match &self.machine {
            Some(m) => {
                m.drain();
                m.trace()
            }
            None => Trace::default(),
        };
        // Drop the processes before the machine. The other order (a `Process` as the last handle) hung in the
        // core once (tests/suite/shutdown.rs `dropping_the_last_process_handle_after_the_machine_shuts_down`).
        drop(self.processes);
        drop(self.machine);
        Run {
            vendor: self.vendor,
            devices: self.devices,
            seed: self.seed,
            engines: self.engines,
            calls: self.calls,
            trace,
            names: self.names,
            stopped,
            races: self.races,
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
        engines: None,
        dialect_line: None,
        machine: None,
        processes: Vec::new(),
        current: "main".to_string(),
        named_processes: scenario.has_processes(),
        vars: BTreeMap::new(),
        names: Names::default(),
        labels: BTreeMap::new(),
        calls: Vec::new(),
        allocations: Vec::new(),
        accesses: Vec::new(),
        races: Vec::new(),
        kept_pageable: Vec::new(),
    };
    for st in &scenario.statements {
        match st.stmt {
            Stmt::Dialect(v) => {
                r.vendor = v;
                r.dialect_line = Some((st.line, st.column));
            }
            Stmt::Devices(n) => r.devices = n,
            Stmt::Seed(s) => r.seed = s,
            Stmt::Engines(e) => r.engines = Some(e),
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
                r.collect_races();
            }
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    if stopped.is_none() && r.machine.is_none() {
        // A scenario with only configuration lines still builds its machine.
        if let Some(st) = scenario.statements.first()
            && let Err(e) = r.build(st)
        {
            stopped = Some(e);
        }
    }
    r.finish(stopped)
}
