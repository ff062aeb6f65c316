//! The model's steps of an ACL program: what each call does (the rules are in the parent module's
//! documentation).

use streamsim::testing::acl::{AResult, AStep, AclEventKind};
use streamsim::{OpKind, SimError, Status};

use super::{Acl, Dep, event_id, not_sync};

impl Acl<'_> {
    pub(super) fn step(&mut self, i: usize, step: &AStep) -> AResult {
        match step {
            AStep::Launch {
                stream,
                duration_ns,
                fault,
            } => {
                let s = self.stream(*stream);
                let now = self.call();
                self.task(
                    s,
                    now,
                    *duration_ns,
                    Dep::None,
                    OpKind::Kernel,
                    format!("k{i}"),
                    Some((i, *fault)),
                )
                .map(|_| None)
            }
            AStep::LaunchForeign { stream } => {
                let own = self.prog.context_of(*stream);
                self.context(1 - own);
                self.call();
                let (id, d) = (self.streams[stream].id, self.streams[stream].device);
                Err(SimError::WrongContext {
                    what: "launch",
                    object: format!("{id} (device {d})"),
                    object_context: own + 1,
                    current: 2 - own,
                })
            }
            AStep::Record { event, stream } => {
                let s = self.stream(*stream);
                let now = self.call();
                let id = event_id(*event);
                self.same_device("record_event", *event, s)?;
                let op = self.task(
                    s,
                    now,
                    0,
                    Dep::None,
                    OpKind::Record { event: id },
                    format!("record event {id}"),
                    None,
                )?;
                let e = &mut self.events[*event as usize];
                e.latest = Some(op);
                for w in std::mem::take(&mut e.pending) {
                    self.ops[w].dep = Dep::Deferred(Some(op));
                }
                self.settle();
                Ok(None)
            }
            AStep::Wait { stream, event } => {
                let s = self.stream(*stream);
                let now = self.call();
                let id = event_id(*event);
                let e = &self.events[*event as usize];
                if e.kind == AclEventKind::TimeLine {
                    return Err(not_sync("stream_wait_event", id));
                }
                self.same_device("stream_wait_event", *event, s)?;
                let e = &self.events[*event as usize];
                match (e.latest, e.kind) {
                    (Some(rec), _) => {
                        let on = &self.ops[rec];
                        let kind = OpKind::Wait {
                            event: id,
                            on: on.stream,
                            seq: on.seq,
                        };
                        self.task(
                            s,
                            now,
                            0,
                            Dep::Op(rec),
                            kind,
                            format!("wait event {id}"),
                            None,
                        )?;
                    }
                    (None, AclEventKind::Sync) => {
                        let op = self.task(
                            s,
                            now,
                            0,
                            Dep::Deferred(None),
                            OpKind::DeferredWait { event: id },
                            format!("wait event {id}"),
                            None,
                        )?;
                        self.events[*event as usize].pending.push(op);
                    }
                    (None, _) => {
                        return Err(SimError::EventNotRecorded {
                            what: "stream_wait_event",
                            event: id,
                        });
                    }
                }
                Ok(None)
            }
            AStep::Reset { event, stream } => {
                let s = self.stream(*stream);
                let now = self.call();
                let id = event_id(*event);
                if self.events[*event as usize].kind == AclEventKind::TimeLine {
                    return Err(not_sync("reset_event", id));
                }
                self.same_device("reset_event", *event, s)?;
                self.task(
                    s,
                    now,
                    0,
                    Dep::None,
                    OpKind::Reset { event: id },
                    format!("reset event {id}"),
                    None,
                )?;
                self.events[*event as usize].latest = None;
                Ok(None)
            }
            AStep::SetFailureMode { stream, stop } => {
                let s = self.stream(*stream);
                self.call();
                let ms = self.streams.get_mut(&s).expect("exists");
                match (ms.stop, *stop) {
                    (true, false) => Err(SimError::NotSupported {
                        what: "set_stream_failure_mode",
                        reason: format!(
                            "{} is in the failure mode Stop, which cannot be undone",
                            ms.id
                        ),
                    }),
                    (_, true) => {
                        ms.stop = true;
                        let c = ms.ctx as usize;
                        self.ctx_stop[c] = true;
                        Ok(None)
                    }
                    (false, false) => Ok(None),
                }
            }
            AStep::StreamSynchronize(st) => {
                let s = self.stream(*st);
                let now = self.call();
                let ms = &self.streams[&s];
                let (id, points) = (ms.id, Vec::from_iter(ms.last));
                self.block(now, &points, format!("stream_synchronize({id})"), Some(id))
            }
            AStep::EventSynchronize(e) => {
                let now = self.call();
                match self.events[*e as usize].latest {
                    None => Ok(None),
                    Some(rec) => self.block(
                        now,
                        &[rec],
                        format!("event_synchronize(event {})", event_id(*e)),
                        None,
                    ),
                }
            }
            AStep::StreamSynchronizeTimeout(st, us) => {
                let s = self.stream(*st);
                let now = self.call();
                let ms = &self.streams[&s];
                let (id, points) = (ms.id, Vec::from_iter(ms.last));
                self.block_timeout(
                    now,
                    &points,
                    format!("stream_synchronize({id})"),
                    *us,
                    Some(id),
                )
            }
            AStep::EventSynchronizeTimeout(e, us) => {
                let now = self.call();
                match self.events[*e as usize].latest {
                    None => Ok(None),
                    Some(rec) => {
                        let label = format!("event_synchronize(event {})", event_id(*e));
                        self.block_timeout(now, &[rec], label, *us, None)
                    }
                }
            }
            AStep::DeviceSynchronize => self.device_synchronize(),
            AStep::StreamQuery(st) => {
                let s = self.stream(*st);
                let points = Vec::from_iter(self.streams[&s].last);
                self.query(&points)
            }
            AStep::EventQuery(e) => match self.events[*e as usize].latest {
                None => {
                    self.call();
                    Ok(Some(Status::NotReady))
                }
                Some(rec) => self.query(&[rec]),
            },
        }
    }
}
