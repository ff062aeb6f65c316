//! Races between CPU-run kernels (`streamsim cc`) from the bytes they really touched, not from declarations.
//!
//! A tracked launch is stamped on the host thread, in program order, when its stream's clock steps for it
//! ([`stamp_pending`], called where the launch's race step is taken): its epoch, its whole clock, who it is
//! and its place in the order of launches. The kernel runs later, on its stream's worker, and hands the byte
//! ranges it read, wrote and updated atomically, per allocation, to [`kernel_accessed`]. Those are kept in
//! the allocation's shadow beside the other records ([`KernelRecs`]), each with its launch's stamp.
//!
//! The records of two kernels arrive in whatever order their workers ran them, so the check is symmetric: two
//! records conflict when their bytes overlap, one of them writes (two reads never race, nor two atomic
//! updates), and neither launch's clock knows the other's epoch. The set of conflicting pairs is then the same
//! whichever kernel ran first, and each report names the earlier launch in program order first — so the
//! verdicts are the same on every run and under every schedule.
//!
//! Bounded: a record is dropped when a later launch ordered after it covers its bytes (and writes, or it only
//! read), and an allocation keeps at most [`MAX_KERNEL_RECORDS`] of them (the oldest go first).
//!
//! Lock order (as `mod.rs`): an allocation's shadow, then the machine's reports; reports are handed to the
//! hook after the shadow's lock is released.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use super::clock::{ActorHold, Epoch, VectorClock};
use super::{RaceAccess, RaceKind, RaceReport, RaceState};
use crate::engine::core::races::{KernelThread, Who};
use crate::engine::memory::block::Block;

/// The most kernel records an allocation keeps.
pub(crate) const MAX_KERNEL_RECORDS: usize = 256;

/// How a kernel touched a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Touch {
    Read,
    Write,
    Atomic,
}

impl Touch {
    /// Whether two touches of the same bytes by unordered kernels race.
    fn conflicts(self, other: Touch) -> bool {
        !matches!(
            (self, other),
            (Touch::Read, Touch::Read) | (Touch::Atomic, Touch::Atomic)
        )
    }

    fn writes(self) -> bool {
        self != Touch::Read
    }
}

/// A tracked launch as the host thread stamped it.
#[derive(Debug)]
pub(crate) struct Stamp {
    epoch: Epoch,
    clock: VectorClock,
    who: Who,
    /// Its place in the machine's order of tracked launches (program order on one host thread).
    order: u64,
    /// Keeps the epoch's actor number from being handed out again while a record names it.
    _hold: ActorHold,
}

/// The slot a tracked launch's stamp is put in (the launch holds it; the kernel's body reads it), and the
/// machine whose race detector gets the kernel's ranges.
#[derive(Debug, Default)]
pub(crate) struct LaunchTrack {
    stamp: Mutex<Option<Arc<Stamp>>>,
    machine: std::sync::OnceLock<std::sync::Weak<crate::engine::machine::Shared>>,
}

impl LaunchTrack {
    /// The stamp, once the launch was stamped (a launch that race detection does not check, or a captured
    /// one, never is).
    pub fn stamp(&self) -> Option<Arc<Stamp>> {
        self.stamp.lock().clone()
    }

    /// The machine the launch is made on.
    pub fn bind(&self, machine: &crate::Machine) {
        let _ = self.machine.set(Arc::downgrade(&machine.shared));
    }

    /// The ranges the kernel of the launch stamped `stamp` touched, to its machine's race detector.
    pub fn accessed(&self, stamp: &Arc<Stamp>, touched: &[Touched]) {
        if let Some(m) = self.machine.get().and_then(std::sync::Weak::upgrade) {
            kernel_accessed(&m.race, stamp, touched);
        }
    }
}

thread_local! {
    /// The slot of the launch this host thread is enqueueing (set around the enqueue by the launch's caller).
    static PENDING: RefCell<Option<Arc<LaunchTrack>>> = const { RefCell::new(None) };
}

/// Sets (or, with `None`, clears) the slot the next race step of this host thread stamps.
pub(crate) fn set_pending(track: Option<Arc<LaunchTrack>>) {
    PENDING.with(|p| *p.borrow_mut() = track);
}

/// Whether this host thread is enqueueing a tracked launch.
pub(crate) fn is_pending() -> bool {
    PENDING.with(|p| p.borrow().is_some())
}

/// The race step of an operation: stamps the pending launch, if this thread has one (then no longer pending).
pub(crate) fn stamp_pending(race: &RaceState, epoch: Epoch, clock: &VectorClock, who: &Who) {
    let Some(track) = PENDING.with(|p| p.borrow_mut().take()) else {
        return;
    };
    static ORDER: AtomicU64 = AtomicU64::new(0);
    *track.stamp.lock() = Some(Arc::new(Stamp {
        epoch,
        clock: clock.clone(),
        who: who.clone(),
        order: ORDER.fetch_add(1, Ordering::Relaxed),
        _hold: ActorHold::new(&race.actors, epoch.actor),
    }));
}

/// One range a kernel touched, offsets in its allocation's store.
#[derive(Debug, Clone)]
struct KRec {
    start: u64,
    end: u64,
    touch: Touch,
    thread: KernelThread,
    stamp: Arc<Stamp>,
}

/// The kernel records of one allocation (in its shadow).
#[derive(Debug, Default)]
pub(crate) struct KernelRecs {
    recs: Vec<KRec>,
}

/// A range a kernel touched: its allocation, offsets in it, how, and the block and thread that began it.
#[derive(Debug, Clone)]
pub(crate) struct Touched {
    pub block: Arc<Block>,
    pub start: u64,
    pub end: u64,
    pub touch: Touch,
    pub thread: KernelThread,
}

fn side(race: &RaceState, r: &KRec) -> RaceAccess {
    RaceAccess {
        who: r.stamp.who.0.clone(),
        write: r.touch.writes(),
        call_site: r.stamp.who.1,
        seq: super::seq_of(race, &r.stamp.who.0, r.stamp.epoch),
        os_process: None,
        thread: Some(r.thread),
    }
}

/// Checks and records the ranges the launch `stamp` touched (grouped by allocation as they come), and counts
/// the races they complete with other kernels' records.
fn kernel_accessed(race: &RaceState, stamp: &Arc<Stamp>, touched: &[Touched]) {
    let mut found: Vec<RaceReport> = Vec::new();
    for t in touched {
        let block = &t.block;
        let (start, end) = (t.start + block.store_off, t.end + block.store_off);
        if start >= end {
            continue;
        }
        let new = KRec {
            start,
            end,
            touch: t.touch,
            thread: t.thread,
            stamp: stamp.clone(),
        };
        let mut shadow = block.store.shadow.lock();
        // A kernel touching an allocation freed before it (a stream-ordered free ahead of it on its stream):
        // a use after free, as for declared accesses.
        // (A free not ordered before the kernel was recorded at its enqueue, which can come before the kernel
        // runs: only a free the kernel's launch is ordered after counts.)
        if let Some((e, w)) = shadow.freed().filter(|(e, _)| stamp.clock.knows(*e)) {
            found.push(RaceReport {
                first: RaceAccess {
                    who: w.0.clone(),
                    write: true,
                    call_site: w.1,
                    seq: super::seq_of(race, &w.0, *e),
                    os_process: None,
                    thread: None,
                },
                second: side(race, &new),
                addr: (block.base + start).wrapping_sub(block.store_off),
                allocation: block.ordinal,
                offset: start,
                bytes: end - start,
                space: block.space,
                occurrences: 1,
                kind: RaceKind::UseAfterFree,
            });
        }
        let recs = &mut shadow.kernels.recs;
        for r in recs.iter() {
            if Arc::ptr_eq(&r.stamp, stamp) || !r.touch.conflicts(new.touch) {
                continue;
            }
            let (lo, hi) = (r.start.max(start), r.end.min(end));
            if lo >= hi || r.stamp.clock.knows(stamp.epoch) || stamp.clock.knows(r.stamp.epoch) {
                continue;
            }
            let (first, second) = if r.stamp.order <= stamp.order {
                (r, &new)
            } else {
                (&new, r)
            };
            found.push(RaceReport {
                first: side(race, first),
                second: side(race, second),
                addr: (block.base + lo).wrapping_sub(block.store_off),
                allocation: block.ordinal,
                offset: lo,
                bytes: hi - lo,
                space: block.space,
                occurrences: 1,
                kind: RaceKind::Data,
            });
        }
        // Records this one supersedes: ordered before it, inside its bytes, and no stronger than it.
        recs.retain(|r| {
            !(start <= r.start
                && r.end <= end
                && stamp.clock.knows(r.stamp.epoch)
                && (new.touch.writes() || !r.touch.writes()))
        });
        if recs.len() >= MAX_KERNEL_RECORDS {
            recs.remove(0);
        }
        recs.push(new);
    }
    for r in found {
        race.add(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_atomics_do_not_conflict_among_themselves() {
        assert!(!Touch::Read.conflicts(Touch::Read));
        assert!(!Touch::Atomic.conflicts(Touch::Atomic));
        assert!(Touch::Read.conflicts(Touch::Write));
        assert!(Touch::Atomic.conflicts(Touch::Read));
        assert!(Touch::Write.conflicts(Touch::Write));
    }
}
