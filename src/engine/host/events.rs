//! Exported events on a shared host: event slots with their latest record, the progress of the streams that
//! recorded them, and waits in one OS process on records of another (see the module `host` for the design).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::HostLink;
use super::layout::*;
use super::remote::LIVENESS_EVERY;
use super::segment::{self};
use crate::engine::core::error::{IpcProblem, SimError};
use crate::engine::core::handle::{ProcessId, StreamId, StreamKind};
use crate::engine::core::status::Status;
use crate::engine::core::time::VirtualTime;
use crate::engine::events::config::EventConfig;
use crate::engine::exec::point::{Point, StreamExec};
use crate::engine::host::remote::RemoteProgress;
use crate::engine::host::remote::RemoteRecord;
use crate::engine::observe::race::clock::VectorClock;

/// An event's configuration as the slot keeps it.
pub(crate) fn config_bits(c: &EventConfig) -> u32 {
    let wait = match c.unrecorded_wait {
        crate::engine::events::config::UnrecordedWait::NoOp => 0,
        crate::engine::events::config::UnrecordedWait::Error => 1,
        crate::engine::events::config::UnrecordedWait::Defer => 2,
    };
    u32::from(c.timing)
        | u32::from(c.blocking_sync) << 1
        | u32::from(c.interprocess) << 2
        | u32::from(c.external) << 3
        | u32::from(c.waitable) << 4
        | u32::from(c.resettable) << 5
        | u32::from(c.unrecorded_query == Status::NotReady) << 6
        | wait << 7
}

/// The configuration kept by [`config_bits`] (any bits decode to some configuration).
pub(crate) fn config_of(bits: u32) -> EventConfig {
    let wait = match (bits >> 7) & 3 {
        1 => crate::engine::events::config::UnrecordedWait::Error,
        2 => crate::engine::events::config::UnrecordedWait::Defer,
        _ => crate::engine::events::config::UnrecordedWait::NoOp,
    };
    EventConfig::new()
        .timing(bits & 1 != 0)
        .blocking_sync(bits & 2 != 0)
        .interprocess(bits & 4 != 0)
        .external(bits & 8 != 0)
        .waitable(bits & 16 != 0)
        .resettable(bits & 32 != 0)
        .unrecorded_query(if bits & 64 != 0 {
            Status::NotReady
        } else {
            Status::Complete
        })
        .unrecorded_wait(wait)
}

/// A member's hold on an exported event's slot (the exporter's, or an opener's). Dropping the last hold of
/// every member frees the slot.
#[derive(Debug)]
pub(crate) struct SharedEvent {
    pub link: Arc<HostLink>,
    pub slot: u32,
    pub generation_: u32,
    /// The machine's device count (bounds a device number read from the segment).
    devices: u32,
}

/// The latest record of a shared event, as read from its slot.
#[derive(Debug, Clone)]
pub(crate) struct Latest {
    pub member_uid: u32,
    pub member_idx: u32,
    pub pid: u32,
    pub stream_slot: u32,
    pub stream_gen: u32,
    pub seq: u64,
    pub time: Option<VirtualTime>,
    pub process: u32,
    pub device: u32,
    pub kind: StreamKind,
    pub clock: Vec<(u32, u32, u64)>,
}

impl SharedEvent {
    fn hold(link: &Arc<HostLink>, slot: u32, generation_: u32, devices: u32) -> SharedEvent {
        *link.held_events.lock().entry(slot).or_insert(0) += 1;
        SharedEvent {
            link: link.clone(),
            slot,
            generation_,
            devices,
        }
    }

    /// A new slot for an event this member exports.
    pub fn export(
        link: &Arc<HostLink>,
        config: &EventConfig,
        devices: u32,
    ) -> Result<SharedEvent, SimError> {
        let seg = &link.seg;
        let found = link.with_table(|| {
            (0..EVENTS as u32).find(|&e| {
                let free = seg.u32(event(e, E_USED)).load(Ordering::Acquire) == 0;
                if free {
                    seg.u32(event(e, E_EXPORTER))
                        .store(link.uid, Ordering::Relaxed);
                    seg.u32(event(e, E_CONFIG))
                        .store(config_bits(config), Ordering::Relaxed);
                    seg.u64(event(e, E_HOLDERS))
                        .store(1 << link.index, Ordering::Relaxed);
                    seg.u64(event(e, E_RECORDS)).store(0, Ordering::Relaxed);
                    seg.u32(event(e, R_PRESENT)).store(0, Ordering::Relaxed);
                    seg.u32(event(e, E_USED)).store(1, Ordering::Release);
                }
                free
            })
        });
        let Some(slot) = found else {
            return Err(SimError::HostUnavailable {
                name: link.name.clone(),
                reason: format!("all {EVENTS} exported-event slots are in use"),
            });
        };
        let generation_ = seg.u32(event(slot, E_GEN)).load(Ordering::Acquire);
        let held = SharedEvent::hold(link, slot, generation_, devices);
        // A corrupted lock word found on the way fails this call too (dropping the hold frees the slot).
        link.fault().map_or(Ok(held), Err)
    }

    /// A hold on slot `slot` of generation `generation_` for an opener: the event's configuration, or why not.
    pub fn open(
        link: &Arc<HostLink>,
        slot: u32,
        generation_: u32,
        devices: u32,
    ) -> Result<(SharedEvent, EventConfig), IpcProblem> {
        if slot as usize >= EVENTS {
            return Err(IpcProblem::InvalidHandle);
        }
        let seg = &link.seg;
        let bit = 1u64 << link.index;
        let ok = link.with_table(|| {
            let live = seg.u32(event(slot, E_USED)).load(Ordering::Acquire) == 1
                && seg.u32(event(slot, E_GEN)).load(Ordering::Acquire) == generation_;
            if live {
                seg.u64(event(slot, E_HOLDERS))
                    .fetch_or(bit, Ordering::AcqRel);
            }
            live
        });
        if !ok {
            return Err(IpcProblem::ExportGone);
        }
        let config = config_of(seg.u32(event(slot, E_CONFIG)).load(Ordering::Acquire));
        Ok((SharedEvent::hold(link, slot, generation_, devices), config))
    }

    /// Publishes a record: the recording stream's progress slot, its position, time and clock.
    #[allow(clippy::too_many_arguments, reason = "one record, spelled out")]
    pub fn publish(
        &self,
        progress: &RemoteProgress,
        stream: StreamId,
        seq: u64,
        time: Option<VirtualTime>,
        vc: Option<&VectorClock>,
        local_gen: u64,
    ) {
        let seg = &self.link.seg;
        let s = self.slot;
        let entries = vc.map(|v| v.entries(self.link.uid)).unwrap_or_default();
        if entries.len() > CLOCK_CAP {
            self.link
                .report_clock_truncated("a record of an IPC event", entries.len(), CLOCK_CAP);
        }
        self.link.with_word(event(s, E_LOCK), || {
            if seg.u32(event(s, E_GEN)).load(Ordering::Acquire) != self.generation_ {
                return;
            }
            seg.u32(event(s, R_MEMBER_UID))
                .store(self.link.uid, Ordering::Relaxed);
            seg.u32(event(s, R_MEMBER_IDX))
                .store(self.link.index, Ordering::Relaxed);
            seg.u32(event(s, R_PID))
                .store(self.link.pid, Ordering::Relaxed);
            seg.u32(event(s, R_STREAM_SLOT))
                .store(progress.slot, Ordering::Relaxed);
            seg.u32(event(s, R_STREAM_GEN))
                .store(progress.generation_, Ordering::Relaxed);
            seg.u64(event(s, R_SEQ)).store(seq, Ordering::Relaxed);
            seg.u64(event(s, R_TIME))
                .store(time.map_or(0, |t| t.as_nanos()), Ordering::Relaxed);
            seg.u32(event(s, R_TIME_KNOWN))
                .store(u32::from(time.is_some()), Ordering::Relaxed);
            seg.u64(event(s, R_LOCAL_GEN))
                .store(local_gen, Ordering::Relaxed);
            seg.u32(event(s, R_PROCESS))
                .store(stream.process.0, Ordering::Relaxed);
            seg.u32(event(s, R_DEVICE))
                .store(stream.device, Ordering::Relaxed);
            seg.u64(event(s, R_KIND))
                .store(kind_bits(stream.kind), Ordering::Relaxed);
            let n = entries.len().min(CLOCK_CAP);
            for (i, &(m, a, c)) in entries.iter().take(n).enumerate() {
                seg.u64(event(s, R_CLOCK + i * 16))
                    .store(u64::from(m) << 32 | u64::from(a), Ordering::Relaxed);
                seg.u64(event(s, R_CLOCK + i * 16 + 8))
                    .store(c, Ordering::Relaxed);
            }
            seg.u32(event(s, R_CLOCK_LEN))
                .store(n as u32, Ordering::Relaxed);
            seg.u64(event(s, E_RECORDS)).fetch_add(1, Ordering::Relaxed);
            seg.u32(event(s, R_PRESENT)).store(1, Ordering::Release);
        });
        self.bump();
    }

    /// Fixes the time of the latest record if it is still record `local_gen` of this member (a record whose
    /// time was not known at the call: behind an ACL deferred wait).
    pub fn fix_time(&self, local_gen: u64, time: VirtualTime, vc: Option<&VectorClock>) {
        let seg = &self.link.seg;
        let s = self.slot;
        let entries = vc.map(|v| v.entries(self.link.uid)).unwrap_or_default();
        if entries.len() > CLOCK_CAP {
            self.link
                .report_clock_truncated("a record of an IPC event", entries.len(), CLOCK_CAP);
        }
        self.link.with_word(event(s, E_LOCK), || {
            if seg.u32(event(s, E_GEN)).load(Ordering::Acquire) == self.generation_
                && seg.u32(event(s, R_MEMBER_UID)).load(Ordering::Relaxed) == self.link.uid
                && seg.u64(event(s, R_LOCAL_GEN)).load(Ordering::Relaxed) == local_gen
            {
                seg.u64(event(s, R_TIME))
                    .store(time.as_nanos(), Ordering::Relaxed);
                let n = entries.len().min(CLOCK_CAP);
                for (i, &(m, a, c)) in entries.iter().take(n).enumerate() {
                    seg.u64(event(s, R_CLOCK + i * 16))
                        .store(u64::from(m) << 32 | u64::from(a), Ordering::Relaxed);
                    seg.u64(event(s, R_CLOCK + i * 16 + 8))
                        .store(c, Ordering::Relaxed);
                }
                seg.u32(event(s, R_CLOCK_LEN))
                    .store(n as u32, Ordering::Relaxed);
                seg.u32(event(s, R_TIME_KNOWN)).store(1, Ordering::Release);
            }
        });
        self.bump();
    }

    fn bump(&self) {
        let seg = &self.link.seg;
        let v = seg.u32(event(self.slot, E_VERSION));
        v.fetch_add(1, Ordering::AcqRel);
        if seg.u32(event(self.slot, E_WAITERS)).load(Ordering::Acquire) > 0 {
            segment::futex_wake(v);
        }
    }

    /// The latest record (`None`: never recorded, or the slot is gone), every value bounded.
    pub fn latest(&self) -> Option<Latest> {
        let seg = &self.link.seg;
        let s = self.slot;
        self.link.with_word(event(s, E_LOCK), || {
            if seg.u32(event(s, E_GEN)).load(Ordering::Acquire) != self.generation_
                || seg.u32(event(s, R_PRESENT)).load(Ordering::Acquire) != 1
            {
                return None;
            }
            let n =
                (seg.u32(event(s, R_CLOCK_LEN)).load(Ordering::Relaxed) as usize).min(CLOCK_CAP);
            let clock = (0..n)
                .map(|i| {
                    let k = seg.u64(event(s, R_CLOCK + i * 16)).load(Ordering::Relaxed);
                    let c = seg
                        .u64(event(s, R_CLOCK + i * 16 + 8))
                        .load(Ordering::Relaxed);
                    ((k >> 32) as u32, k as u32, c)
                })
                .collect();
            let known = seg.u32(event(s, R_TIME_KNOWN)).load(Ordering::Acquire) == 1;
            Some(Latest {
                member_uid: seg.u32(event(s, R_MEMBER_UID)).load(Ordering::Relaxed),
                member_idx: seg.u32(event(s, R_MEMBER_IDX)).load(Ordering::Relaxed),
                pid: seg.u32(event(s, R_PID)).load(Ordering::Relaxed),
                stream_slot: seg.u32(event(s, R_STREAM_SLOT)).load(Ordering::Relaxed),
                stream_gen: seg.u32(event(s, R_STREAM_GEN)).load(Ordering::Relaxed),
                seq: seg.u64(event(s, R_SEQ)).load(Ordering::Relaxed),
                time: known.then(|| VirtualTime(seg.u64(event(s, R_TIME)).load(Ordering::Relaxed))),
                process: seg.u32(event(s, R_PROCESS)).load(Ordering::Relaxed),
                device: (seg.u32(event(s, R_DEVICE)).load(Ordering::Relaxed))
                    .min(self.devices.saturating_sub(1)),
                kind: kind_of(seg.u64(event(s, R_KIND)).load(Ordering::Relaxed)),
                clock,
            })
        })
    }

    /// The latest record, waiting (no lock held) while its time is not fixed yet and its recorder lives.
    pub fn latest_timed(&self) -> Option<Latest> {
        loop {
            let l = self.latest()?;
            if l.time.is_some() || l.member_uid == self.link.uid {
                return Some(l);
            }
            if !self.link.member_alive(l.member_idx, l.member_uid) {
                self.link.report_dead(l.pid);
                return Some(Latest {
                    time: Some(VirtualTime::ZERO),
                    ..l
                });
            }
            let seg = &self.link.seg;
            let v = seg.u32(event(self.slot, E_VERSION));
            let seen = v.load(Ordering::Acquire);
            seg.u32(event(self.slot, E_WAITERS))
                .fetch_add(1, Ordering::AcqRel);
            if self.latest().is_some_and(|x| x.time.is_none()) {
                segment::futex_wait(v, seen, LIVENESS_EVERY);
            }
            seg.u32(event(self.slot, E_WAITERS))
                .fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// The record `l` of another member as a point of this process: done locally at once, carrying its time
    /// and clock, and waiting for the other process's stream when waited on.
    pub fn point(&self, l: &Latest) -> Point {
        let exec = Arc::new(StreamExec::new(
            StreamId {
                process: ProcessId(l.process),
                device: l.device,
                kind: l.kind,
            },
            None,
        ));
        let vc = VectorClock::from_entries(self.link.uid, &l.clock);
        Point::new(exec, 0, l.time.unwrap_or(VirtualTime::ZERO))
            .with_vc(Some(Arc::new(vc)))
            .with_remote(Arc::new(RemoteRecord {
                link: self.link.clone(),
                slot: l.stream_slot,
                generation_: l.stream_gen,
                owner_idx: l.member_idx,
                owner_uid: l.member_uid,
                pid: l.pid,
                seq: l.seq,
            }))
    }
}

impl Drop for SharedEvent {
    fn drop(&mut self) {
        let mut held = self.link.held_events.lock();
        let n = held.entry(self.slot).or_insert(1);
        *n -= 1;
        if *n > 0 {
            return;
        }
        held.remove(&self.slot);
        drop(held);
        let seg = &self.link.seg;
        let (slot, generation_, bit) = (self.slot, self.generation_, 1u64 << self.link.index);
        self.link.with_table(|| {
            if seg.u32(event(slot, E_GEN)).load(Ordering::Acquire) == generation_ {
                let left = seg
                    .u64(event(slot, E_HOLDERS))
                    .fetch_and(!bit, Ordering::AcqRel)
                    & !bit;
                if left == 0 && seg.u32(event(slot, E_USED)).load(Ordering::Acquire) == 1 {
                    segment::free_event_slot(seg, slot);
                }
            }
        });
    }
}

/// The progress slot of the stream behind `exec`, made on its first record of a shared event.
pub(crate) fn attach(link: &Arc<HostLink>, exec: &StreamExec) -> Result<(), SimError> {
    if exec.remote.get().is_none() {
        let p = RemoteProgress::new(link, exec.id, exec.completed())?;
        // Another thread may have attached one meanwhile: then this one is freed again.
        if exec.remote.set(p).is_ok() {
            // The worker may wait for another process's record already.
            exec.publish_block();
        }
    }
    Ok(())
}
