//! Running one statement: `exec` makes each statement its call into the core (streams, events, copies,
//! kernels, synchronizes, …) and hands the graph, pool and task statements to their own files.

use super::{Runner, Var, done, stop};
use crate::facade::acl::runtime::{self as acl_facade, EventKind};
use crate::facade::cuda_runtime as runtime;
use crate::tools::export::{bytes_text, stream_ordinal_name};
use crate::tools::scenario::ast::{EventCall, Name, Statement, Stmt, StreamRef, Target};
use crate::tools::scenario::outcome::{Outcome, RunError};
use crate::tools::scenario::{graphs, pools};
use crate::{Dst, Event, EventFlags, Kernel, Process, SimError, Src, Stream, StreamFlags};

impl Runner {
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

    pub(super) fn exec(&mut self, st: &Statement) -> Result<Option<Outcome>, RunError> {
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
            other if graphs::is_graph_stmt(other) => self.graph_stmt(&p, other)?,
            s if pools::is_pool_stmt(s) => self.pool_stmt(&p, s)?,
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
}
