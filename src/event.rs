//! Events: create, record, wait, query, synchronize, elapsed time, destroy.
//!
//! An event holds its *latest record*: a [`Point`] on the recording stream. Re-recording replaces it; a stream
//! wait captures the point current at the call, so later re-records do not change what it waits for.

use std::borrow::Cow;

use crate::error::{Result, SimError};
use crate::exec::{Point, Work};
use crate::handle::{Event, EventId, Stream};
use crate::process::{EventEntry, OpSpec, Process, Status, settle};
use crate::rules::{Allow, ElapsedCheck, NeverRecordedWait};
use crate::trace::OpKind;

/// Event creation flags (CUDA's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EventFlags(pub u32);

impl EventFlags {
    /// Timing on, spin-waiting synchronize.
    pub const DEFAULT: EventFlags = EventFlags(0);
    /// Synchronize blocks the host thread instead of spinning (same results).
    pub const BLOCKING_SYNC: EventFlags = EventFlags(0x1);
    /// No timestamps: elapsed time is refused.
    pub const DISABLE_TIMING: EventFlags = EventFlags(0x2);
    /// Shareable with other processes; only together with `DISABLE_TIMING`.
    pub const INTERPROCESS: EventFlags = EventFlags(0x4);
    const ALL: u32 = 0x7;

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: EventFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether elapsed time can be asked of the event.
    pub fn timing(self) -> bool {
        !self.contains(EventFlags::DISABLE_TIMING)
    }
}

impl std::ops::BitOr for EventFlags {
    type Output = EventFlags;
    fn bitor(self, rhs: EventFlags) -> EventFlags {
        EventFlags(self.0 | rhs.0)
    }
}

impl Process {
    /// Creates an event on the current device.
    pub fn create_event(&self, flags: EventFlags) -> Result<Event> {
        self.call("create_event", |c| {
            let what = "create_event";
            if flags.0 & !EventFlags::ALL != 0 {
                return Err(SimError::InvalidFlags {
                    what,
                    flags: flags.0,
                    reason: "unknown bits (defined: BLOCKING_SYNC 0x1, DISABLE_TIMING 0x2, INTERPROCESS 0x4)",
                });
            }
            if flags.contains(EventFlags::INTERPROCESS) && flags.timing() {
                return Err(SimError::InvalidFlags {
                    what,
                    flags: flags.0,
                    reason: "INTERPROCESS requires DISABLE_TIMING",
                });
            }
            let mut st = self.state();
            let ordinal = st.next_event;
            st.next_event += 1;
            let h = st.events.insert(EventEntry {
                id: EventId {
                    process: c.process,
                    ordinal,
                },
                device: c.device,
                flags,
                latest: None,
            });
            Ok(Event(h))
        })
    }

    /// Destroys an event. A pending record still completes; the handle is dead at once.
    pub fn destroy_event(&self, event: Event) -> Result<()> {
        self.call("destroy_event", |_| {
            self.state().events.remove(event.0).map(drop)
        })
    }

    /// The event's identity (for messages and the trace). Does not advance the clock.
    pub fn event_id(&self, event: Event) -> Result<EventId> {
        Ok(self.state().events.get(event.0)?.id)
    }

    /// The device an event belongs to. Does not advance the clock.
    pub fn event_device(&self, event: Event) -> Result<u32> {
        Ok(self.state().events.get(event.0)?.device)
    }

    /// Records `event` on `stream`: the event's latest record becomes "everything enqueued on `stream` so far"
    /// (on the legacy default stream: also everything earlier on the device's blocking streams).
    pub fn record_event(&self, event: Event, stream: Stream) -> Result<()> {
        self.call("record_event", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let (sdev, sid) = {
                let s = st.streams.get(h)?;
                (s.device, s.id)
            };
            let e = st.events.get(event.0)?;
            let id = e.id;
            if self.m.rules.record_other_device == Allow::No && e.device != sdev {
                return Err(SimError::WrongDevice {
                    what: "record_event",
                    object: format!("event {id}"),
                    object_device: e.device,
                    expected: format!("{sid} is on device {sdev}"),
                });
            }
            let point = st.enqueue(
                &self.m,
                c.now,
                h,
                OpSpec {
                    cost_ns: 0,
                    deps: Vec::new(),
                    work: Work::Nothing,
                    kind: OpKind::Record { event: id },
                    label: Cow::Owned(format!("record event {id}")),
                },
            )?;
            st.events.get_mut(event.0)?.latest = Some(point);
            Ok(())
        })
    }

    /// Makes later work on `stream` wait for the event's record current at this call.
    pub fn stream_wait_event(&self, stream: Stream, event: Event) -> Result<()> {
        self.call("stream_wait_event", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let (sdev, sid) = {
                let s = st.streams.get(h)?;
                (s.device, s.id)
            };
            let e = st.events.get(event.0)?;
            let id = e.id;
            if self.m.rules.wait_other_device == Allow::No && e.device != sdev {
                return Err(SimError::WrongDevice {
                    what: "stream_wait_event",
                    object: format!("event {id}"),
                    object_device: e.device,
                    expected: format!("{sid} is on device {sdev}"),
                });
            }
            let Some(point) = e.latest.clone() else {
                return match self.m.rules.never_recorded_wait {
                    NeverRecordedWait::NoOp => Ok(()),
                    NeverRecordedWait::ByEventFlags => Err(SimError::EventNotRecorded {
                        what: "stream_wait_event",
                        event: id,
                    }),
                };
            };
            let kind = OpKind::Wait {
                event: id,
                on: point.exec.id,
                seq: point.seq,
            };
            st.enqueue(
                &self.m,
                c.now,
                h,
                OpSpec {
                    cost_ns: 0,
                    deps: vec![point],
                    work: Work::Nothing,
                    kind,
                    label: Cow::Owned(format!("wait event {id}")),
                },
            )?;
            Ok(())
        })
    }

    fn latest(&self, event: Event) -> Result<(EventEntry, Option<Point>)> {
        let st = self.state();
        let e = st.events.get(event.0)?;
        st.check_sticky(e.device)?;
        Ok((
            EventEntry {
                id: e.id,
                device: e.device,
                flags: e.flags,
                latest: None,
            },
            e.latest.clone(),
        ))
    }

    /// Whether the event's latest record has finished at the calling thread's virtual time. A never-recorded
    /// event is complete.
    pub fn event_query(&self, event: Event) -> Result<Status> {
        self.call("event_query", |c| {
            let (_, latest) = self.latest(event)?;
            Ok(latest.map_or(Status::Complete, |p| settle(&p, c.now)))
        })
    }

    /// Blocks until the event's latest record has finished (at once if never recorded).
    pub fn event_synchronize(&self, event: Event) -> Result<()> {
        self.call("event_synchronize", |c| {
            let (e, latest) = self.latest(event)?;
            let Some(p) = latest else {
                return Ok(());
            };
            let id = e.id;
            self.block_on(c, std::slice::from_ref(&p), || {
                format!("event_synchronize(event {id})")
            });
            let fault = p.exec.fault.lock().clone();
            if let Some((t, _, err)) = fault
                && t <= p.time
            {
                self.state().latch(p.exec.id.device, &err);
                return Err(err);
            }
            Ok(())
        })
    }

    /// Milliseconds between the latest records of `start` and `end` (negative if `end` finished first), with
    /// the dialect's checks in the dialect's order.
    pub fn event_elapsed_ms(&self, start: Event, end: Event) -> Result<f32> {
        self.call("event_elapsed_time", |c| {
            let (a, pa) = self.latest(start)?;
            let (b, pb) = self.latest(end)?;
            for check in self.m.rules.elapsed_checks {
                match check {
                    ElapsedCheck::SameDevice if a.device != b.device => {
                        return Err(SimError::WrongDevice {
                            what: "event_elapsed_time",
                            object: format!("event {}", b.id),
                            object_device: b.device,
                            expected: format!("event {} is on device {}", a.id, a.device),
                        });
                    }
                    ElapsedCheck::Recorded => {
                        for (e, p) in [(&a, &pa), (&b, &pb)] {
                            if p.is_none() {
                                return Err(SimError::EventNotRecorded {
                                    what: "event_elapsed_time",
                                    event: e.id,
                                });
                            }
                        }
                    }
                    ElapsedCheck::Timing => {
                        for e in [&a, &b] {
                            if !e.flags.timing() {
                                return Err(SimError::TimingDisabled { event: e.id });
                            }
                        }
                    }
                    ElapsedCheck::Finished => {
                        for p in [&pa, &pb].into_iter().flatten() {
                            if p.time > c.now {
                                return Err(SimError::NotReady {
                                    what: "event_elapsed_time",
                                });
                            }
                        }
                    }
                    ElapsedCheck::SameDevice => {}
                }
            }
            match (pa, pb) {
                (Some(pa), Some(pb)) => Ok(pb.time.ms_since(pa.time)),
                (None, _) => Err(SimError::EventNotRecorded {
                    what: "event_elapsed_time",
                    event: a.id,
                }),
                (_, None) => Err(SimError::EventNotRecorded {
                    what: "event_elapsed_time",
                    event: b.id,
                }),
            }
        })
    }

    /// The virtual time at which the event's latest record completes (`None` if never recorded). Does not
    /// advance the clock and does not wait: a tool for tests and teaching.
    pub fn event_record_time(&self, event: Event) -> Result<Option<crate::VirtualTime>> {
        let st = self.state();
        Ok(st.events.get(event.0)?.latest.as_ref().map(|p| p.time))
    }
}
