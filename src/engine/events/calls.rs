//! Events: create, record, wait, query, synchronize, elapsed time, reset, destroy.
//!
//! An event holds its *latest record*: a [`Point`] on the recording stream. Re-recording replaces it; a stream
//! wait captures the point current at the call, so later re-records do not change what it waits for. The
//! state sits behind a shared lock so that another process that opened the event through IPC sees the same
//! records.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Event, EventId, Stream};
use crate::engine::core::labels::{EventLabel, EventVerb, Label};
use crate::engine::core::rules::{Allow, ElapsedCheck};
use crate::engine::core::status::Status;
use crate::engine::core::time::VirtualTime;
use crate::engine::events::config::EventConfig;
use crate::engine::events::config::EventFlags;
use crate::engine::events::config::RecordStatus;
use crate::engine::events::config::UnrecordedWait;
use crate::engine::events::state::EventState;
use crate::engine::exec::Work;
use crate::engine::exec::point::Point;
use crate::engine::graph::gate::Route;
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, EventEntry, OpSpec, Process};

/// A snapshot of an event taken under the process lock.
struct Snapshot {
    id: EventId,
    name: Option<Arc<str>>,
    device: u32,
    config: EventConfig,
    latest: Option<Point>,
}

impl Process {
    /// Creates an event on the current device with CUDA's flags.
    pub fn create_event(&self, flags: EventFlags) -> Result<Event> {
        let config = EventConfig::from_flags(flags);
        self.call(EngineCall::CreateEvent.name(), |c| {
            self.new_event(c, config?)
        })
    }

    /// Creates an event on the current device with an explicit [`EventConfig`].
    pub fn create_event_with(&self, config: EventConfig) -> Result<Event> {
        self.call(EngineCall::CreateEvent.name(), |c| {
            self.new_event(c, config)
        })
    }

    fn new_event(&self, c: &Call, config: EventConfig) -> Result<Event> {
        let mut st = self.state();
        let (device, ctx) = st.current(&self.m, c, EngineCall::CreateEvent.name())?;
        let state = Arc::new(Mutex::new(EventState::default()));
        st.add_event(c.process, (device, ctx), config, state)
    }

    /// Destroys an event. A pending record still completes; the handle is dead at once.
    pub fn destroy_event(&self, event: Event) -> Result<()> {
        self.call(EngineCall::DestroyEvent.name(), |_| {
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

    /// The event's configuration. Does not advance the clock.
    pub fn event_config(&self, event: Event) -> Result<EventConfig> {
        Ok(self.state().events.get(event.0)?.config)
    }

    /// Records `event` on `stream`: the event's latest record becomes "everything enqueued on `stream` so far"
    /// (on the legacy default stream: also everything earlier on the device's blocking streams).
    pub fn record_event(&self, event: Event, stream: Stream) -> Result<()> {
        self.call(EngineCall::RecordEvent.name(), |c| {
            let what = EngineCall::RecordEvent.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let e = st.events.get(event.0)?;
            let (id, interprocess, name) = (e.id, e.config.interprocess, e.name.clone());
            self.check_event_stream(&st, what, e, h, self.m.rules.record_other_device)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.record, h)?;
            if let Route::Capture(cid) = st.capture_route(&self.m, h, what)? {
                return st.capture_record(&self.m, cid, h, event.0, what);
            }
            // An exported event of a shared host: the stream publishes its progress for other OS processes,
            // and a record whose time is fixed later tells the host when it runs.
            let state = &st.events.get(event.0)?.state;
            let shared = state.lock().shared.clone();
            let spec = match &shared {
                // No label is formatted and nothing is boxed: the operation is the event's id (and name).
                None => (OpSpec::record(id, name), None),
                Some(sh) => {
                    self.m.check_not_forked()?;
                    let exec = st.streams.get(h)?.exec.clone();
                    crate::engine::host::events::attach(&sh.link, &exec)?;
                    type Later =
                        Option<(Arc<crate::engine::host::events::SharedEvent>, u64, Point)>;
                    let publish_later: Arc<Mutex<Later>> = Arc::new(Mutex::new(None));
                    let later = publish_later.clone();
                    let work = Work::Publish(Box::new(move |_end| {
                        if let Some((sh, record_gen, p)) = later.lock().take()
                            && let Some(t) = p.time()
                        {
                            sh.fix_time(record_gen, t, p.vc());
                        }
                    }));
                    let label = Label::Event {
                        verb: EventVerb::Record,
                        id,
                        name,
                    };
                    (
                        OpSpec::new(0, label, OpKind::Record { event: id }, work),
                        Some((exec, publish_later)),
                    )
                }
            };
            let (spec, progress) = spec;
            let point = st.enqueue(&self.m, c, h, spec)?;
            let point = st.with_clock(h, point)?;
            let old = {
                let mut es = st.events.get(event.0)?.state.lock();
                es.generation += 1;
                let old = es.latest.replace(point);
                if let (Some(sh), Some((exec, later))) = (&es.shared, &progress)
                    && let Some(progress) = exec.remote.get()
                {
                    let p = es.latest.as_ref().expect("just recorded");
                    sh.publish(progress, p.exec.id, p.seq, p.time(), p.vc(), es.generation);
                    if p.time().is_none() {
                        *later.lock() = Some((sh.clone(), es.generation, p.clone()));
                    }
                }
                old
            };
            // A record outside a capture replaces a captured one.
            st.events.get_mut(event.0)?.captured = None;
            st.pump(&self.m);
            drop(old);
            drop(st);
            if interprocess {
                // A deferred wait in another process may be waiting for this record.
                self.m.pump_all();
            }
            Ok(())
        })
    }

    /// Resets `event` to "not recorded" (ACL `aclrtResetEvent`). The reset is queued on `stream` as a
    /// zero-length operation and takes effect for every later call in program order (sim).
    pub fn reset_event(&self, event: Event, stream: Stream) -> Result<()> {
        self.call(EngineCall::ResetEvent.name(), |c| {
            let what = EngineCall::ResetEvent.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let e = st.events.get(event.0)?;
            let (id, state) = (e.id, e.state.clone());
            let label = Label::Event {
                verb: EventVerb::Reset,
                id,
                name: e.name.clone(),
            };
            if !e.config.resettable {
                return Err(not_resettable(what, id, e.config));
            }
            self.check_event_stream(&st, what, e, h, self.m.rules.record_other_device)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.record, h)?;
            st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(0, label, OpKind::Reset { event: id }, Work::Nothing),
            )?;
            state.lock().latest = None;
            Ok(())
        })
    }

    fn check_event_stream(
        &self,
        st: &crate::engine::process::ProcState,
        what: &'static str,
        e: &EventEntry,
        h: u64,
        allow: Allow,
    ) -> Result<()> {
        let s = st.streams.get(h)?;
        if allow == Allow::No && e.device != s.device {
            return Err(SimError::WrongDevice {
                what,
                object: format!("event {}", e.id),
                object_device: e.device,
                expected: format!("{} is on device {}", s.id, s.device),
            });
        }
        Ok(())
    }

    /// Makes later work on `stream` wait for the event's record current at this call.
    pub fn stream_wait_event(&self, stream: Stream, event: Event) -> Result<()> {
        self.call(EngineCall::StreamWaitEvent.name(), |c| {
            let what = EngineCall::StreamWaitEvent.name();
            self.settle_shared(event);
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let e = st.events.get(event.0)?;
            let (id, config) = (e.id, e.config);
            let label = Label::Event {
                verb: EventVerb::Wait,
                id,
                name: e.name.clone(),
            };
            if !config.waitable {
                return Err(not_waitable(what, id));
            }
            self.check_event_stream(&st, what, e, h, self.m.rules.wait_other_device)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.wait, h)?;
            if st.capture_wait(&self.m, h, event.0, what)? {
                return Ok(());
            }
            let e = st.events.get(event.0)?;
            let (latest, generation) = {
                let es = e.state.lock();
                (es.newest(), es.generation)
            };
            let state = e.state.clone();
            let (deps, kind, deferred) = match latest {
                Some(point) => {
                    let kind = OpKind::Wait {
                        event: id,
                        on: point.exec.id,
                        seq: point.seq,
                    };
                    (vec![point], kind, None)
                }
                None => match config.unrecorded_wait {
                    UnrecordedWait::NoOp => return Ok(()),
                    UnrecordedWait::Error => {
                        return Err(SimError::EventNotRecorded { what, event: id });
                    }
                    // The wait holds the stream until the event's next record is issued and reached.
                    UnrecordedWait::Defer => (
                        Vec::new(),
                        OpKind::DeferredWait { event: id },
                        Some(crate::engine::exec::gate::Gate::Event {
                            state,
                            after: generation,
                        }),
                    ),
                },
            };
            let timeout = self.p.op_wait_timeout.load(Ordering::Relaxed);
            st.enqueue_with(
                &self.m,
                c,
                h,
                OpSpec::new(0, label, kind, Work::Nothing)
                    .deps(deps)
                    .wait_timeout(Some(timeout)),
                deferred,
            )?;
            Ok(())
        })
    }

    /// Sets the timeout of the stream waits on events enqueued from now on by any thread of the process (ACL
    /// `aclrtSetOpWaitTimeout`; `None` or zero: no timeout, the default). A wait whose record ends later than the
    /// wait's own start plus the timeout gives up then: it ends at that deadline, the stream goes on without the
    /// record, and the wait is a fault of its stream, [`SimError::WaitTimedOut`], reported as the stream's failure
    /// mode says (by the next synchronize). A wait held for a record not issued yet gives up when a call needs its
    /// answer past the deadline, or when nothing could issue the record.
    pub fn set_op_wait_timeout(&self, timeout: Option<Duration>) -> Result<()> {
        self.call(EngineCall::SetOpWaitTimeout.name(), |_| {
            let ns = timeout.map_or(0, crate::engine::core::time::saturating_nanos);
            self.p.op_wait_timeout.store(ns, Ordering::Relaxed);
            Ok(())
        })
    }

    /// For an event on a shared host whose newest record comes from another OS process and has no virtual time
    /// yet (behind an ACL deferred wait there): waits, holding no lock, until that process fixes it.
    fn settle_shared(&self, event: Event) {
        let sh = {
            let st = self.state();
            st.events
                .get(event.0)
                .ok()
                .and_then(|e| e.state.lock().shared.clone())
        };
        if let Some(sh) = sh {
            let _ = sh.latest_timed();
        }
    }

    /// The event as call `what` uses it; refused if its latest record was made in a capture, or if the call is
    /// potentially unsafe while a capture is in progress (see `graph/gate.rs`).
    fn snapshot(&self, c: &Call, event: Event, what: &'static str) -> Result<Snapshot> {
        self.settle_shared(event);
        let mode = self.capture_mode();
        let mut st = self.state();
        st.check_event_use(&self.m, event.0, c.thread, mode, what)?;
        let e = st.events.get(event.0)?;
        let latest = e.state.lock().newest();
        Ok(Snapshot {
            id: e.id,
            name: e.name.clone(),
            device: e.device,
            config: e.config,
            latest,
        })
    }

    /// Whether the event's latest record has finished at the calling thread's virtual time. Before the first
    /// record, the event's [`EventConfig::unrecorded_query`] answers (CUDA: complete).
    pub fn event_query(&self, event: Event) -> Result<Status> {
        self.call(EngineCall::EventQuery.name(), |c| {
            let e = self.snapshot(c, event, EngineCall::EventQuery.name())?;
            match e.latest {
                None => Ok(e.config.unrecorded_query),
                Some(p) => self.settle(c, EngineCall::EventQuery.name(), &p),
            }
        })
    }

    /// Where the event's latest record is: never recorded, not ready, or complete.
    pub fn event_status(&self, event: Event) -> Result<RecordStatus> {
        self.call(EngineCall::EventStatus.name(), |c| {
            let e = self.snapshot(c, event, EngineCall::EventStatus.name())?;
            Ok(match e.latest {
                None => RecordStatus::NeverRecorded,
                Some(p) => match self.settle(c, EngineCall::EventStatus.name(), &p)? {
                    Status::Complete => RecordStatus::Complete,
                    Status::NotReady => RecordStatus::NotReady,
                },
            })
        })
    }

    /// Blocks until the event's latest record has finished (at once if never recorded).
    pub fn event_synchronize(&self, event: Event) -> Result<()> {
        self.call(EngineCall::EventSynchronize.name(), |c| {
            self.sync_event(c, event, None)
        })
    }

    /// Like [`Process::event_synchronize`], but gives up with [`SimError::Timeout`] once `timeout` of
    /// virtual time has passed (the host clock then stands at the call's time plus `timeout`).
    pub fn event_synchronize_timeout(&self, event: Event, timeout: Duration) -> Result<()> {
        self.call(EngineCall::EventSynchronize.name(), |c| {
            self.sync_event(c, event, Some(timeout))
        })
    }

    fn sync_event(&self, c: &mut Call, event: Event, timeout: Option<Duration>) -> Result<()> {
        let e = self.snapshot(c, event, EngineCall::EventSynchronize.name())?;
        let Some(p) = e.latest else {
            return Ok(());
        };
        let what = EngineCall::EventSynchronize.name();
        let (id, name) = (e.id, e.name);
        let r = self.block_on_until(
            c,
            what,
            p.exec.id.device,
            std::slice::from_ref(&p),
            crate::engine::exec::faults::Observe::Other,
            timeout,
            || format!("event_synchronize({})", EventLabel(id, name.as_deref())),
        );
        self.pools_after_sync(c);
        r
    }

    /// One elapsed-time check of the dialect on one event.
    fn elapsed_check(&self, c: &Call, check: ElapsedCheck, e: &Snapshot) -> Result<()> {
        let what = EngineCall::EventElapsedTime.name();
        match check {
            ElapsedCheck::Recorded if e.latest.is_none() => {
                Err(SimError::EventNotRecorded { what, event: e.id })
            }
            ElapsedCheck::NotShared if e.config.interprocess || e.config.external => {
                Err(SimError::NotSupported {
                    what,
                    reason: format!("event {} is interprocess or external", e.id),
                })
            }
            ElapsedCheck::Timing if !e.config.timing => {
                Err(SimError::TimingDisabled { event: e.id })
            }
            ElapsedCheck::Finished
                if e.latest
                    .as_ref()
                    .is_some_and(|p| p.time().is_none_or(|t| t > c.now)) =>
            {
                Err(SimError::NotReady { what })
            }
            _ => Ok(()),
        }
    }

    /// The time of the event's latest record, after the dialect's checks in its order.
    fn timed_record(&self, c: &Call, checks: &[ElapsedCheck], e: &Snapshot) -> Result<VirtualTime> {
        let what = EngineCall::EventElapsedTime.name();
        for &check in checks {
            self.elapsed_check(c, check, e)?;
        }
        e.latest
            .as_ref()
            .map(|p| p.time().ok_or(SimError::NotReady { what }))
            .unwrap_or(Err(SimError::EventNotRecorded { what, event: e.id }))
    }

    /// Milliseconds between the latest records of `start` and `end` (negative if `end` finished first), with
    /// the dialect's checks in the dialect's order.
    pub fn event_elapsed_ms(&self, start: Event, end: Event) -> Result<f32> {
        self.call(EngineCall::EventElapsedTime.name(), |c| {
            let what = EngineCall::EventElapsedTime.name();
            let (a, b) = (self.snapshot(c, start, what)?, self.snapshot(c, end, what)?);
            let checks = self.m.rules.elapsed_checks;
            if checks.contains(&ElapsedCheck::SameDevice) && a.device != b.device {
                return Err(SimError::WrongDevice {
                    what: EngineCall::EventElapsedTime.name(),
                    object: format!("event {}", b.id),
                    object_device: b.device,
                    expected: format!("event {} is on device {}", a.id, a.device),
                });
            }
            // Each check is made on both events before the next check.
            for &check in checks {
                self.elapsed_check(c, check, &a)?;
                self.elapsed_check(c, check, &b)?;
            }
            Ok(self
                .timed_record(c, checks, &b)?
                .ms_since(self.timed_record(c, checks, &a)?))
        })
    }

    /// The virtual time of the event's latest record (ACL `aclrtEventGetTimestamp`), with the same checks as
    /// elapsed time.
    pub fn event_timestamp(&self, event: Event) -> Result<VirtualTime> {
        self.call(EngineCall::EventTimestamp.name(), |c| {
            let e = self.snapshot(c, event, EngineCall::EventTimestamp.name())?;
            self.timed_record(c, self.m.rules.elapsed_checks, &e)
        })
    }

    /// The virtual time at which the event's latest record completes (`None` if never recorded). Does not
    /// advance the clock and does not wait: a tool for tests and teaching.
    pub fn event_record_time(&self, event: Event) -> Result<Option<VirtualTime>> {
        let st = self.state();
        let e = st.events.get(event.0)?;
        Ok(e.state.lock().newest().as_ref().and_then(Point::time))
    }
}

fn not_waitable(what: &'static str, id: EventId) -> SimError {
    SimError::NotSupported {
        what,
        reason: format!(
            "event {id} was created without the SYNC flag: it cannot be waited on or reset"
        ),
    }
}

fn not_resettable(what: &'static str, id: EventId, config: EventConfig) -> SimError {
    if config.interprocess {
        SimError::NotSupported {
            what,
            reason: format!("event {id} is an IPC event: it cannot be reset"),
        }
    } else {
        not_waitable(what, id)
    }
}
