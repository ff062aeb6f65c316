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

use std::collections::BTreeMap;

use super::ast::{EventCall, Name, Scenario, Statement, Stmt, StreamRef, Target, Vendor};
use super::outcome::{CallRecord, Outcome, Race, Run, RunError};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{Context, Event, Stream, StreamId};
use crate::engine::core::pointers::{DevicePtr, Dst, HostPtr, Src};
use crate::engine::core::races::Accessor;
use crate::engine::events::calls::EventFlags;
use crate::engine::ipc::events::IpcEventHandle;
use crate::engine::kernels::kernel::Kernel;
use crate::engine::machine::Machine;
use crate::engine::observe::trace::Trace;
use crate::engine::process::{Process, StreamFlags};
use crate::facade::acl::runtime::{self as acl_facade, EventKind};
use crate::facade::cuda_runtime as runtime;
use crate::tools::export::{Names, bytes_text, stream_ordinal_name};

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
        // A capturing stream keeps the pageable memory's address in its graph (the C API's contract): the
        // source is then the buffer itself, unless it is also the destination.
        let capturing = stream.is_some_and(|st| p.stream_is_capturing_now(st));
        // A pageable source is copied out first, so that it may also be the destination.
        let staged: Option<Vec<u8>> = match self.var(src)? {
            Var::Pageable(Some(v)) if !capturing || src.text == dst.text => Some(v.clone()),
            _ => None,
        };
        let mut taken: Option<Vec<u8>> = match self.var(dst)? {
            Var::Pageable(Some(_)) => match self.vars.get_mut(&dst.text) {
                Some(Var::Pageable(v)) => v.take(),
                _ => None,
            },
            _ => None,
        };
        let s: Src<'_> = match (self.vars.get(&src.text), &staged) {
            (Some(Var::Device(ptr, _)), _) => (*ptr).into(),
            (Some(Var::Pinned(ptr, _)), _) => (*ptr).into(),
            (_, Some(v)) => Src::Host(v),
            (Some(Var::Pageable(Some(v))), None) => Src::Host(v),
            _ => return Err(Self::wrong_kind(src, "a buffer")),
        };
        let d: Dst<'_> = match (self.vars.get(&dst.text), taken.as_mut()) {
            (Some(Var::Device(ptr, _)), _) => (*ptr).into(),
            (Some(Var::Pinned(ptr, _)), _) => (*ptr).into(),
            (_, Some(v)) => Dst::Host(v),
            _ => return Err(Self::wrong_kind(dst, "a buffer")),
        };
        let r = match stream {
            // SAFETY: the pageable memory a captured copy keeps (a buffer of `vars`, or `staged`) is never
            // resized and is kept until the runner is dropped, after the machine ran everything
            // (`kept_pageable`, `free` of a pageable buffer).
            Some(st) => unsafe { p.memcpy_async_c(d, s, bytes, st) },
            None => p.memcpy(d, s, bytes),
        };
        if let Some(v) = taken {
            self.vars.insert(dst.text.clone(), Var::Pageable(Some(v)));
        }
        if capturing && let Some(v) = staged {
            self.kept_pageable.push(v);
        }
        if r.is_ok() {
            self.accessed(
                p,
                stream.unwrap_or(Stream::DEFAULT),
                "memcpy",
                None,
                &[dst, src],
            );
        }
        Ok(done(r, |()| Outcome::Ok))
    }

    fn stream_stmt(
        &mut self,
        p: &Process,
        name: &Name,
        flags: u32,
        priority: Option<i32>,
    ) -> Outcome {
        // ACL's aclrtCreateStreamWithConfig: every ACL stream is alike (no legacy default stream).
        let r = p.create_stream_with_priority(StreamFlags(flags), priority.unwrap_or(0));
        self.created(name, &r, |s| Var::Stream(*s));
        match r {
            Ok(s) => {
                let id = p.stream_id(s).expect("a stream just created has an id");
                let label = self.label(name);
                p.name_stream(s, &label)
                    .expect("a stream just created can be named");
                Outcome::Created(format!(
                    "{} on device {}",
                    stream_ordinal_name(id),
                    id.device
                ))
            }
            Err(e) => Outcome::Error(e),
        }
    }

    fn event_stmt(&mut self, p: &Process, name: &Name, flags: u32, call: EventCall) -> Outcome {
        let r = match (self.vendor.is_acl(), call) {
            (false, _) => p.create_event(EventFlags(flags)),
            (true, call) => {
                let kind = match call {
                    EventCall::Create => EventKind::Plain,
                    EventCall::WithFlag => EventKind::WithFlag(flags),
                    EventCall::ExWithFlag => EventKind::ExWithFlag(flags),
                };
                // The facade's own translation; its argument errors never reach the core, so they are set as
                // the thread's last error here, as the facade does.
                acl_facade::event_config(kind)
                    .inspect_err(|e| p.set_last_error(e.clone()))
                    .and_then(|config| p.create_event_with(config))
            }
        };
        self.created(name, &r, |e| Var::Event(*e));
        self.name_event(p, name, &r);
        done(r, |e| Self::event_created(p, e))
    }

    /// What reports and traces call the object declared as `name`: the name, or `name#2` for its second
    /// declaration, and so on.
    fn label(&mut self, name: &Name) -> String {
        let uses = self.labels.entry(name.text.clone()).or_insert(0);
        *uses += 1;
        if *uses == 1 {
            name.text.clone()
        } else {
            format!("{}#{uses}", name.text)
        }
    }

    /// Names a created event after its declaration.
    fn name_event(&mut self, p: &Process, name: &Name, r: &crate::Result<Event>) {
        if let Ok(e) = r {
            let label = self.label(name);
            p.name_event(*e, &label)
                .expect("an event just created can be named");
        }
    }

    fn event_created(p: &Process, e: Event) -> Outcome {
        let id = p.event_id(e).expect("an event just created has an id");
        let dev = p
            .event_device(e)
            .expect("an event just created has a device");
        Outcome::Created(format!("event {id} on device {dev}"))
    }

    fn exec(&mut self, st: &Statement) -> Result<Option<Outcome>, RunError> {
        match &st.stmt {
            Stmt::Dialect(_) | Stmt::Devices(_) | Stmt::Seed(_) | Stmt::Engines(_) => {
                return Ok(None);
            }
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
            Stmt::GetDevice => done(p.get_device(), |d| Outcome::Value(format!("device {d}"))),
            // cudaGetDeviceCount on a machine without devices is cudaErrorNoDevice (100, count 0), as the
            // facade answers with STREAMSIM_DEVICES=0; aclrtGetDeviceCount answers 0 devices.
            Stmt::GetDeviceCount => match p.device_count() {
                Ok(0) if !self.vendor.is_acl() => Outcome::Error(SimError::NoDevice {
                    what: "get_device_count",
                }),
                r => done(r, |n| Outcome::Value(format!("count = {n}"))),
            },
            Stmt::Stream {
                name,
                flags,
                priority,
            } => self.stream_stmt(&p, name, *flags, *priority),
            Stmt::Event { name, flags, call } => self.event_stmt(&p, name, *flags, *call),
            Stmt::Malloc { name, bytes } => {
                let r = p.malloc(*bytes);
                self.created(name, &r, |ptr| Var::Device(*ptr, *bytes));
                if let Ok(ptr) = &r {
                    self.allocations
                        .push((name.text.clone(), ptr.addr(), *bytes));
                }
                let dev = r.as_ref().ok().and_then(|ptr| ptr.device()).unwrap_or(0);
                done(r, |_| {
                    Outcome::Created(format!("{} on device {dev}", bytes_text(*bytes)))
                })
            }
            Stmt::MallocHost { name, bytes } => {
                self.host_limit(name, *bytes)?;
                let r = p.malloc_host(*bytes);
                self.created(name, &r, |ptr| Var::Pinned(*ptr, *bytes));
                if let Ok(ptr) = &r {
                    self.allocations
                        .push((name.text.clone(), ptr.addr(), *bytes));
                }
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
                    // A graph may still copy to or from it: the memory is kept, the name is freed.
                    if let Some(Var::Pageable(Some(v))) =
                        self.vars.insert(name.text.clone(), Var::Pageable(None))
                    {
                        self.kept_pageable.push(v);
                    }
                    Outcome::Note("pageable host memory freed (no runtime call)".into())
                }
            },
            Stmt::Destroy(name) => match self.var(name)? {
                Var::Stream(s) => done(p.destroy_stream(*s), |()| Outcome::Ok),
                Var::Event(e) => done(p.destroy_event(*e), |()| Outcome::Ok),
                Var::Context(c) => done(p.destroy_context(*c), |()| Outcome::Ok),
                Var::Notify(n) => done(p.destroy_notify(*n), |()| Outcome::Ok),
                Var::Pool(h) => done(p.destroy_pool(*h), |()| Outcome::Ok),
                _ => match self.destroy_graph_var(&p, name) {
                    Some(outcome) => outcome,
                    None => {
                        return Err(Self::wrong_kind(
                            name,
                            "a stream, event, context, notify, graph, executable graph or memory pool",
                        ));
                    }
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
                let r = p.launch(s, k);
                if r.is_ok() {
                    let buffers: Vec<&Name> = reads.iter().chain(writes).collect();
                    self.accessed(&p, s, "kernel", Some(name.clone()), &buffers);
                }
                done(r, |()| Outcome::Ok)
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
                let s = stream.as_ref().map(|s| self.stream(s)).transpose()?;
                let r = match s {
                    Some(s) => p.memset_async(ptr, *value, n, s),
                    None => p.memset(ptr, *value, n),
                };
                if r.is_ok() {
                    self.accessed(&p, s.unwrap_or(Stream::DEFAULT), "memset", None, &[buf]);
                }
                done(r, |()| Outcome::Ok)
            }
            // The re-runnable form, which a capturing stream makes a host node.
            Stmt::HostFn(s) => done(p.launch_host_func_shared(self.stream(s)?, || {}), |()| {
                Outcome::Ok
            }),
            Stmt::Record { event, stream } => done(
                p.record_event(self.event(event)?, self.stream(stream)?),
                |()| Outcome::Ok,
            ),
            Stmt::Wait { stream, event } => done(
                p.stream_wait_event(self.stream(stream)?, self.event(event)?),
                |()| Outcome::Ok,
            ),
            Stmt::Query(Target::Stream(s)) => {
                done(p.stream_query(self.stream(s)?), Outcome::StreamStatus)
            }
            // ACL: aclrtQueryEventStatus, whose answer before the first record is the event's
            // `unrecorded_query` (set by the facade's event configuration).
            Stmt::Query(Target::Event(e)) => {
                done(p.event_query(self.event(e)?), Outcome::EventStatus)
            }
            Stmt::Query(Target::Device) => done(p.device_synchronize(), |()| Outcome::Ok),
            Stmt::Sync { target, timeout } => self.sync(&p, target, *timeout)?,
            Stmt::Elapsed(a, b) => done(
                p.event_elapsed_ms(self.event(a)?, self.event(b)?),
                Outcome::Elapsed,
            ),
            // CUDA: what cudaGetLastError / cudaPeekAtLastError return (a sticky error is never cleared).
            // ACL: the message of aclGetRecentErrMsg, which is not cleared.
            Stmt::LastError { clear } => Outcome::LastError(if self.vendor.is_acl() {
                p.peek_last_error()
            } else {
                runtime::last_error(&p, *clear)
            }),
            Stmt::CanAccessPeer(d, peer) => done(p.can_access_peer(*d, *peer), |yes| {
                Outcome::Value(format!("canAccessPeer = {}", i32::from(yes)))
            }),
            Stmt::SetDeviceFlags(bits) => done(
                crate::facade::cuda_device::device_flags_from_bits(*bits)
                    .and_then(|f| p.set_device_flags(f)),
                |()| Outcome::Ok,
            ),
            Stmt::GetDeviceFlags => done(p.device_flags(), |f| {
                Outcome::Value(format!(
                    "flags = {:#x}",
                    crate::facade::cuda_device::device_flags_bits(f)
                ))
            }),
            Stmt::EnablePeerAccess { peer, flags } => {
                done(p.enable_peer_access(*peer, *flags), |()| Outcome::Ok)
            }
            Stmt::DisablePeerAccess(peer) => done(p.disable_peer_access(*peer), |()| Outcome::Ok),
            Stmt::IpcGetEventHandle { event, handle } => {
                let r = p.ipc_get_event_handle(self.event(event)?);
                self.created(handle, &r, |h| Var::EventHandle(*h));
                done(r, |_| {
                    Outcome::Created(format!("`{}` holds the 64-byte handle", handle.text))
                })
            }
            Stmt::IpcOpenEventHandle { handle, event } => {
                let r = p.ipc_open_event_handle(&self.handle(handle)?);
                self.created(event, &r, |e| Var::Event(*e));
                self.name_event(&p, event, &r);
                done(r, |e| Self::event_created(&p, e))
            }
            Stmt::Context { name, device } => {
                let device = match device {
                    Some(d) => Ok(*d),
                    None => p.get_device().map(i64::from),
                };
                let r = device.and_then(|d| p.create_context(d).map(|c| (c, d)));
                self.created(name, &r, |(c, _)| Var::Context(*c));
                done(r, |(_, d)| {
                    Outcome::Created(format!("a context on device {d}, now current"))
                })
            }
            Stmt::SetContext(name) => {
                done(p.set_current_context(self.context(name)?), |()| Outcome::Ok)
            }
            Stmt::ResetDevice { device, force } => {
                // CUDA: cudaDeviceReset resets the current device.
                let d = match device {
                    Some(d) => Ok(*d),
                    None => p.get_device().map(i64::from),
                };
                let r = d.and_then(|d| {
                    if *force {
                        p.reset_device_force(d)
                    } else {
                        p.reset_device(d)
                    }
                });
                done(r, |()| Outcome::Ok)
            }
            Stmt::Dialect(_)
            | Stmt::Devices(_)
            | Stmt::Seed(_)
            | Stmt::Engines(_)
            | Stmt::Process(_) => {
                unreachable!("handled above")
            }
            other if super::graphs::is_graph_stmt(other) => self.graph_stmt(&p, other)?,
            s if super::pools::is_pool_stmt(s) => self.pool_stmt(&p, s)?,
            other => self.task(&p, other)?,
        };
        Ok(Some(outcome))
    }

    fn sync(
        &self,
        p: &Process,
        target: &Target,
        timeout: Option<i32>,
    ) -> Result<Outcome, RunError> {
        // ACL's *WithTimeout calls check their argument first (0 and values below -1 are 107000).
        let timeout = match timeout.map(acl_facade::timeout_arg).transpose() {
            Ok(t) => t.flatten(),
            Err(e) => {
                p.set_last_error(e.clone());
                return Ok(Outcome::Error(e));
            }
        };
        let r = match (target, timeout) {
            (Target::Device, _) => p.device_synchronize(),
            (Target::Stream(s), None) => p.stream_synchronize(self.stream(s)?),
            (Target::Stream(s), Some(t)) => p.stream_synchronize_timeout(self.stream(s)?, t),
            (Target::Event(e), None) => p.event_synchronize(self.event(e)?),
            (Target::Event(e), Some(t)) => p.event_synchronize_timeout(self.event(e)?, t),
        };
        Ok(done(r, |()| Outcome::Ok))
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
