//! A stream's progress as the shared host publishes it ([`RemoteProgress`], once the stream recorded an
//! exported event), and a record of another OS process that a local point stands for ([`RemoteRecord`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::HostLink;
use super::layout::*;
use super::segment::{self};
use crate::engine::core::error::SimError;
use crate::engine::host::segment::free_stream_slot;

/// How often a waiter checks that the process it waits for is still alive.
pub(crate) const LIVENESS_EVERY: Duration = Duration::from_millis(20);

/// A stream's progress slot: its worker stores how far it has run, for waiters in other processes.
#[derive(Debug)]
pub(crate) struct RemoteProgress {
    pub link: Arc<HostLink>,
    pub slot: u32,
    pub generation_: u32,
}

impl RemoteProgress {
    /// A progress slot for a stream that has completed `completed` operations.
    pub fn new(link: &Arc<HostLink>, completed: u64) -> Result<RemoteProgress, SimError> {
        let seg = &link.seg;
        let found = link.with_table(|| {
            (0..STREAMS as u32).find(|&s| {
                let free = seg.u32(stream(s, S_USED)).load(Ordering::Acquire) == 0;
                if free {
                    seg.u32(stream(s, S_OWNER_IDX))
                        .store(link.index, Ordering::Relaxed);
                    seg.u32(stream(s, S_OWNER_UID))
                        .store(link.uid, Ordering::Relaxed);
                    seg.u64(stream(s, S_COMPLETED))
                        .store(completed, Ordering::Relaxed);
                    seg.u32(stream(s, S_USED)).store(1, Ordering::Release);
                }
                free
            })
        });
        let Some(slot) = found else {
            return Err(SimError::HostUnavailable {
                name: link.name.clone(),
                reason: format!("all {STREAMS} stream progress slots are in use"),
            });
        };
        let p = RemoteProgress {
            link: link.clone(),
            slot,
            generation_: seg.u32(stream(slot, S_GEN)).load(Ordering::Acquire),
        };
        link.fault().map_or(Ok(p), Err)
    }

    /// The stream has run its operations up to `seq`.
    pub fn publish(&self, seq: u64) {
        let seg = &self.link.seg;
        if seg.u32(stream(self.slot, S_GEN)).load(Ordering::Relaxed) != self.generation_ {
            return;
        }
        seg.u64(stream(self.slot, S_COMPLETED))
            .fetch_max(seq, Ordering::AcqRel);
        let w = seg.u32(stream(self.slot, S_WAKE));
        w.store(seq as u32, Ordering::Release);
        if seg
            .u32(stream(self.slot, S_WAITERS))
            .load(Ordering::Acquire)
            > 0
        {
            segment::futex_wake(w);
        }
    }
}

impl Drop for RemoteProgress {
    fn drop(&mut self) {
        let seg = &self.link.seg;
        let (slot, generation_) = (self.slot, self.generation_);
        self.link.with_table(|| {
            if seg.u32(stream(slot, S_GEN)).load(Ordering::Acquire) == generation_ {
                free_stream_slot(seg, slot);
            }
        });
    }
}

/// A record of another member: operation `seq` of the stream behind progress slot `slot`.
#[derive(Debug)]
pub(crate) struct RemoteRecord {
    pub(super) link: Arc<HostLink>,
    pub(super) slot: u32,
    pub(super) generation_: u32,
    pub(super) owner_idx: u32,
    pub(super) owner_uid: u32,
    pub(super) pid: u32,
    pub(super) seq: u64,
}

impl RemoteRecord {
    /// Whether the record has run (or can no longer run: its stream is gone, or its process is).
    fn passed(&self) -> Option<bool> {
        if self.slot as usize >= STREAMS {
            return Some(true);
        }
        let seg = &self.link.seg;
        if seg.u32(stream(self.slot, S_GEN)).load(Ordering::Acquire) != self.generation_ {
            return Some(true);
        }
        (seg.u64(stream(self.slot, S_COMPLETED))
            .load(Ordering::Acquire)
            >= self.seq)
            .then_some(true)
    }

    /// Whether the record has not run yet (and can still run: its stream and process are there). No lock, no
    /// sleep: a few loads and a record-lock query.
    pub fn pending(&self) -> bool {
        self.passed().is_none() && self.link.member_alive(self.owner_idx, self.owner_uid)
    }

    /// Blocks until the record has run in the other process, or that process is gone.
    pub fn wait(&self) {
        if self.passed().is_some() {
            return;
        }
        let seg = &self.link.seg;
        let w = seg.u32(stream(self.slot, S_WAKE));
        let waiters = seg.u32(stream(self.slot, S_WAITERS));
        for i in 0..64 {
            if self.passed().is_some() {
                return;
            }
            if i < 32 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        loop {
            // Liveness before the sleep, not after it: a recorder already dead (remembered by the link) costs
            // no sleep at all.
            if !self.link.member_alive(self.owner_idx, self.owner_uid) {
                self.link.report_dead(self.pid);
                return;
            }
            let seen = w.load(Ordering::Acquire);
            waiters.fetch_add(1, Ordering::AcqRel);
            if self.passed().is_none() {
                segment::futex_wait(w, seen, LIVENESS_EVERY);
            }
            waiters.fetch_sub(1, Ordering::AcqRel);
            if self.passed().is_some() {
                return;
            }
        }
    }
}
