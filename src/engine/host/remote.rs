//! A stream's progress as the shared host publishes it ([`RemoteProgress`], once the stream recorded an
//! exported event), and a record of another OS process that a local point stands for ([`RemoteRecord`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::HostLink;
use super::layout::*;
use super::segment::{self};
use crate::engine::core::error::SimError;
use crate::engine::core::handle::{ProcessId, StreamId};
use crate::engine::core::hang::{RemoteState, WaitLink};
use crate::engine::host::segment::free_stream_slot;

/// How many processes a hang report's chain across OS processes follows at most.
const CHAIN_HOPS: usize = 16;

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
    /// A progress slot for stream `id`, which has completed `completed` operations.
    pub fn new(
        link: &Arc<HostLink>,
        id: StreamId,
        completed: u64,
    ) -> Result<RemoteProgress, SimError> {
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
                    seg.u32(stream(s, S_PROCESS))
                        .store(id.process.0, Ordering::Relaxed);
                    seg.u32(stream(s, S_DEVICE))
                        .store(id.device, Ordering::Relaxed);
                    seg.u64(stream(s, S_KIND))
                        .store(kind_bits(id.kind), Ordering::Relaxed);
                    seg.u64(stream(s, S_BLOCKED_OP)).store(0, Ordering::Relaxed);
                    seg.u64(stream(s, S_RUNNING_OP)).store(0, Ordering::Relaxed);
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

impl RemoteProgress {
    fn current(&self) -> bool {
        self.link
            .seg
            .u32(stream(self.slot, S_GEN))
            .load(Ordering::Acquire)
            == self.generation_
    }

    /// The stream's operation `op` waits for the record `r` of another member (for other processes' hang
    /// reports); `op` 0: it no longer does.
    pub fn blocked_on(&self, op: u64, r: Option<&RemoteRecord>) {
        if !self.current() {
            return;
        }
        let seg = &self.link.seg;
        if let Some(r) = r.filter(|r| Arc::ptr_eq(&r.link, &self.link)) {
            seg.u32(stream(self.slot, S_BLOCKED_SLOT))
                .store(r.slot, Ordering::Relaxed);
            seg.u32(stream(self.slot, S_BLOCKED_GEN))
                .store(r.generation_, Ordering::Relaxed);
            seg.u64(stream(self.slot, S_BLOCKED_SEQ))
                .store(r.seq, Ordering::Relaxed);
            seg.u64(stream(self.slot, S_BLOCKED_OP))
                .store(op, Ordering::Release);
        } else {
            seg.u64(stream(self.slot, S_BLOCKED_OP))
                .store(0, Ordering::Release);
        }
    }

    /// The stream's worker runs the program function (kernel body, host function, callback) of operation `op`
    /// (0: none now).
    pub fn running(&self, op: u64) {
        if self.current() {
            self.link
                .seg
                .u64(stream(self.slot, S_RUNNING_OP))
                .store(op, Ordering::Release);
        }
    }

    /// The operations of other members' streams whose workers wait for a record of this stream at or after
    /// operation `from` (for this process's hang report on the function that holds them).
    pub fn waiting_here(&self, from: u64) -> Vec<WaitLink> {
        let seg = &self.link.seg;
        let mut out = Vec::new();
        for s in 0..STREAMS as u32 {
            if s == self.slot || seg.u32(stream(s, S_USED)).load(Ordering::Acquire) != 1 {
                continue;
            }
            let op = seg.u64(stream(s, S_BLOCKED_OP)).load(Ordering::Acquire);
            if op == 0
                || seg.u32(stream(s, S_BLOCKED_SLOT)).load(Ordering::Relaxed) != self.slot
                || seg.u32(stream(s, S_BLOCKED_GEN)).load(Ordering::Relaxed) != self.generation_
                || seg.u64(stream(s, S_BLOCKED_SEQ)).load(Ordering::Relaxed) < from
            {
                continue;
            }
            if let Some(mut link) = slot_link(&self.link, s, op) {
                if let WaitLink::Remote { state, .. } = &mut link {
                    *state = RemoteState::WaitsForRecord;
                }
                out.push(link);
            }
        }
        out
    }
}

/// Operation `seq` of the stream behind slot `s`, as its member publishes it (`None`: the slot is free or its
/// member is not in the table).
fn slot_link(link: &HostLink, s: u32, seq: u64) -> Option<WaitLink> {
    let seg = &link.seg;
    if seg.u32(stream(s, S_USED)).load(Ordering::Acquire) != 1 {
        return None;
    }
    let owner = seg.u32(stream(s, S_OWNER_IDX)).load(Ordering::Relaxed);
    if owner as usize >= MEMBERS {
        return None;
    }
    let pid = seg.u32(member(owner, M_PID)).load(Ordering::Relaxed);
    let completed = seg.u64(stream(s, S_COMPLETED)).load(Ordering::Acquire);
    let blocked = seg.u64(stream(s, S_BLOCKED_OP)).load(Ordering::Acquire);
    let running = seg.u64(stream(s, S_RUNNING_OP)).load(Ordering::Acquire);
    // Only what holds the stream's next operation, which is at or before `seq`.
    let state = if blocked != 0 && blocked == completed + 1 && blocked <= seq {
        RemoteState::WaitsForRecord
    } else if running != 0 && running == completed + 1 && running <= seq {
        RemoteState::Running(running)
    } else {
        RemoteState::Held
    };
    Some(WaitLink::Remote {
        pid,
        stream: StreamId {
            process: ProcessId(seg.u32(stream(s, S_PROCESS)).load(Ordering::Relaxed)),
            device: seg.u32(stream(s, S_DEVICE)).load(Ordering::Relaxed),
            kind: kind_of(seg.u64(stream(s, S_KIND)).load(Ordering::Relaxed)),
        },
        seq,
        completed,
        state,
    })
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

    /// The shared host the record is on.
    pub fn link(&self) -> &Arc<HostLink> {
        &self.link
    }

    /// Whether the record has not run yet (and can still run: its stream and process are there). No lock, no
    /// sleep: a few loads and a record-lock query.
    pub fn pending(&self) -> bool {
        self.passed().is_none() && self.link.member_alive(self.owner_idx, self.owner_uid)
    }

    /// The chain across OS processes that holds the record, as the members publish it: the record's operation
    /// first, then, while the stream there waits for a record of another member, that record, and so on (at
    /// most [`CHAIN_HOPS`] links, never a slot twice). Empty once the record has run or cannot run.
    pub fn chain(&self) -> Vec<WaitLink> {
        let mut out = Vec::new();
        if !self.pending() {
            return out;
        }
        let seg = &self.link.seg;
        let (mut slot, mut generation_, mut seq) = (self.slot, self.generation_, self.seq);
        let mut seen = Vec::new();
        while out.len() < CHAIN_HOPS && (slot as usize) < STREAMS && !seen.contains(&slot) {
            seen.push(slot);
            if seg.u32(stream(slot, S_GEN)).load(Ordering::Acquire) != generation_ {
                break;
            }
            let Some(link) = slot_link(&self.link, slot, seq) else {
                break;
            };
            let waits = matches!(
                link,
                WaitLink::Remote {
                    state: RemoteState::WaitsForRecord,
                    ..
                }
            );
            out.push(link);
            if !waits {
                break;
            }
            (slot, generation_, seq) = (
                seg.u32(stream(slot, S_BLOCKED_SLOT))
                    .load(Ordering::Relaxed),
                seg.u32(stream(slot, S_BLOCKED_GEN)).load(Ordering::Relaxed),
                seg.u64(stream(slot, S_BLOCKED_SEQ)).load(Ordering::Relaxed),
            );
        }
        out
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
