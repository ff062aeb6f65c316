//! Races of CPU-run kernels (`streamsim cc`) from the bytes they really touched, not from declarations: with
//! other kernels, and with copies, memsets and the host's accesses through the API.
//!
//! A tracked launch is stamped on the host thread, in program order, when its stream's clock steps for it
//! ([`stamp_pending`], called where the launch's race step is taken): its epoch, its whole clock, who it is
//! and its place in the machine's program order. The kernel runs later, on its stream's worker, and hands the
//! byte ranges it read, wrote and updated atomically, per allocation, to [`kernel_accessed`]. Those are kept
//! in the allocation's shadow beside the other records ([`KernelRecs`]), each with its launch's stamp.
//!
//! # Checked in program order
//! A kernel's accesses are checked as if they were made at its launch, among the other accesses in program
//! order, whenever the kernel really ran: the machine keeps a log ([`Log`]) of the launches whose kernels have
//! not run yet, and behind the first of them, every access checked since (copies, memsets, host accesses, with
//! their clocks, and the reports they found among themselves). When a kernel has run, the log is worked off
//! from its front as far as the next kernel that has not: each kernel is compared with the records made
//! before its launch that were live there (the shadow keeps superseded ones while a launch before their
//! supersession is unchecked: `shadow.rs`) and with the earlier kernels' records; each access with the
//! kernels' records as they stand at its place. So every pair is compared once, from its later side, against
//! the state at that place — the reports are the same, and in the same order, whichever kernel ran when, on
//! every run and under every schedule; and the host never waits for a kernel (under the serialize schedule
//! kernels run only while the host waits).
//!
//! Two records conflict when their bytes overlap, one of them writes (two reads never race, nor two atomic
//! updates; a copy reads or writes), and the later one's clock does not know the earlier one's epoch. Each
//! report names the earlier in program order first.
//!
//! Bounded: a kernel record is dropped when a later launch or access ordered after it covers its bytes (and
//! writes, or it only read), and an allocation keeps at most [`MAX_KERNEL_RECORDS`] of them (the oldest go
//! first); the log holds only what was enqueued while a kernel had not run yet.
//!
//! Lock order: the machine's log, then an allocation's shadow, then the machine's reports (as `mod.rs`);
//! reports are handed to the hook with only the announcing lock held (re-entrant: a hook may make calls).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

use super::clock::{ActorHold, Epoch, VectorClock};
use super::{RaceAccess, RaceKind, RaceReport, RaceState};
use crate::engine::core::races::{KernelThread, Who};
use crate::engine::memory::block::{Block, Region};

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
    /// Its place in the machine's program order of accesses and launches (on one host thread).
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
    /// Whether the kernel's ranges were handed over (the log waits for them until they are).
    done: AtomicBool,
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

    /// The ranges the kernel of the launch stamped `stamp` touched, to its machine's race detector (once).
    pub fn accessed(&self, stamp: &Arc<Stamp>, touched: &[Touched]) {
        if self.done.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(m) = self.machine.get().and_then(std::sync::Weak::upgrade) {
            kernel_accessed(&m.race, stamp, touched);
        }
    }

    /// The kernel of a stamped launch is over (it ran, faulted, or never will run): if it handed over no
    /// ranges, it touched none, and the log goes on past it.
    pub fn finish(&self) {
        if let Some(stamp) = self.stamp() {
            self.accessed(&stamp, &[]);
        }
    }
}

impl Drop for LaunchTrack {
    fn drop(&mut self) {
        // A launch dropped unrun (its stream destroyed, the machine shut down) or a kernel without CPU code.
        self.finish();
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

/// The race step of an operation: stamps the pending launch, if this thread has one (then no longer pending),
/// and puts it in the machine's log until its kernel has run.
pub(crate) fn stamp_pending(race: &RaceState, epoch: Epoch, clock: &VectorClock, who: &Who) {
    let Some(track) = PENDING.with(|p| p.borrow_mut().take()) else {
        return;
    };
    let mut log = race.log.lock();
    let order = race.order.fetch_add(1, Ordering::Relaxed);
    let stamp = Arc::new(Stamp {
        epoch,
        clock: clock.clone(),
        who: who.clone(),
        order,
        _hold: ActorHold::new(&race.actors, epoch.actor),
    });
    if log.entries.is_empty() {
        race.frontier.store(order, Ordering::Release);
    }
    log.entries.push_back(Entry::Kernel {
        stamp: stamp.clone(),
        touched: None,
    });
    race.tracked.store(true, Ordering::Release);
    *track.stamp.lock() = Some(stamp);
    drop(log);
    // From here the kernel may run: the host's next access to each page of managed memory is seen.
    crate::engine::memory::watch::arm();
}

/// The machine's log: tracked launches whose kernels have not run yet, and behind the first of them the
/// accesses checked since, in program order (see the module's doc). Its front is always a launch.
#[derive(Debug, Default)]
pub(crate) struct Log {
    entries: VecDeque<Entry>,
}

#[derive(Debug)]
enum Entry {
    /// A launch, with its kernel's ranges once it has run.
    Kernel {
        stamp: Arc<Stamp>,
        touched: Option<Vec<Touched>>,
    },
    /// An access waiting for the kernels launched before it.
    Access(Box<Access>),
}

/// An access (one step's regions) as it waits in the log.
#[derive(Debug)]
struct Access {
    accesses: Vec<(Region, bool)>,
    clock: VectorClock,
    who: Who,
    /// Its operation's place in its stream (asked at its step, while its records name its actor).
    seq: Option<u64>,
    /// Whether it is the free of the allocation (`accesses` is all of it).
    free: bool,
    /// The races it completed with other accesses (`mod.rs`), counted when it is worked off.
    held: Vec<RaceReport>,
}

/// The accesses of one step (step `epoch` of `who`, whose clock is `clock`) against what kernels did: now if
/// no kernel launched before it is still to run, else once they have run. With `free`, the step is the free
/// of the allocation `accesses` covers. `held` are the races it completed with other accesses, counted then,
/// in program order.
pub(crate) fn accessed(
    race: &RaceState,
    accesses: &[(Region, bool)],
    epoch: Epoch,
    clock: &VectorClock,
    who: &Who,
    (free, held): (bool, Vec<RaceReport>),
) {
    let seq = super::seq_of(race, &who.0, epoch);
    let mut log = race.log.lock();
    if !log.entries.is_empty() {
        log.entries.push_back(Entry::Access(Box::new(Access {
            accesses: accesses.to_vec(),
            clock: clock.clone(),
            who: who.clone(),
            seq,
            free,
            held,
        })));
        return;
    }
    let mut found = held;
    against_kernels(race, accesses, (seq, free), clock, who, &mut found);
    announce(race, log, found);
}

/// Counts `found` in order, the log's lock handed over to the announcing lock (so that reports of two
/// threads' turns through the log keep the log's order).
fn announce(race: &RaceState, log: parking_lot::MutexGuard<'_, Log>, found: Vec<RaceReport>) {
    if found.is_empty() {
        return;
    }
    let turn = race.announcing.lock();
    drop(log);
    for r in found {
        race.add(r);
    }
    drop(turn);
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

/// The kernel of the launch `stamp` has run and touched `touched`: its entry in the log gets them, and the log
/// is worked off from its front as far as the next launch whose kernel has not run.
fn kernel_accessed(race: &RaceState, stamp: &Arc<Stamp>, touched: &[Touched]) {
    let mut log = race.log.lock();
    let Some(slot) = log.entries.iter_mut().find_map(|e| match e {
        Entry::Kernel { stamp: s, touched } if Arc::ptr_eq(s, stamp) => Some(touched),
        _ => None,
    }) else {
        return;
    };
    *slot = Some(touched.to_vec());
    let mut found: Vec<RaceReport> = Vec::new();
    while let Some(front) = log.entries.front() {
        if matches!(front, Entry::Kernel { touched: None, .. }) {
            break;
        }
        match log.entries.pop_front() {
            Some(Entry::Kernel {
                stamp,
                touched: Some(t),
            }) => kernel_checked(race, &stamp, &t, &mut found),
            Some(Entry::Access(a)) => {
                let a = *a;
                found.extend(a.held);
                against_kernels(
                    race,
                    &a.accesses,
                    (a.seq, a.free),
                    &a.clock,
                    &a.who,
                    &mut found,
                );
            }
            _ => unreachable!("the front was looked at"),
        }
    }
    let next = match log.entries.front() {
        Some(Entry::Kernel { stamp, .. }) => stamp.order,
        _ => u64::MAX,
    };
    race.frontier.store(next, Ordering::Release);
    announce(race, log, found);
}

/// The side of a report that an access of the API is (a copy, a memset, a host access).
fn access_side(who: &Who, write: bool, seq: Option<u64>) -> RaceAccess {
    RaceAccess {
        who: who.0.clone(),
        write,
        call_site: who.1,
        seq,
        os_process: None,
        thread: None,
    }
}

/// A data race on `[lo, hi)` (offsets in the store of `block`) between `first` and `second`.
fn data_race(
    block: &Block,
    (lo, hi): (u64, u64),
    first: RaceAccess,
    second: RaceAccess,
) -> RaceReport {
    RaceReport {
        first,
        second,
        addr: (block.base + lo).wrapping_sub(block.store_off),
        allocation: block.ordinal,
        offset: lo,
        bytes: hi - lo,
        space: block.space,
        occurrences: 1,
        kind: RaceKind::Data,
    }
}

/// The accesses of one step (its operation's place `seq` in its stream) against the kernels' records of the
/// allocations they touch, as they stand at its place in the program order; the records it supersedes go.
fn against_kernels(
    race: &RaceState,
    accesses: &[(Region, bool)],
    (seq, free): (Option<u64>, bool),
    clock: &VectorClock,
    who: &Who,
    found: &mut Vec<RaceReport>,
) {
    for (r, write) in accesses {
        let block = &r.block;
        let (start, end) = (
            r.offset + block.store_off,
            r.offset + block.store_off + r.len,
        );
        if start >= end {
            continue;
        }
        let touch = if *write { Touch::Write } else { Touch::Read };
        let mut shadow = block.store.shadow.lock();
        let recs = &mut shadow.kernels.recs;
        if free {
            // Every kernel that touched the allocation and that the free is not ordered after: a use after
            // free (the kernel may still run when the memory goes). Then the allocation has no more uses.
            for k in recs.iter().filter(|k| !clock.knows(k.stamp.epoch)) {
                let mut rep = data_race(
                    block,
                    (k.start, k.end),
                    side(race, k),
                    access_side(who, true, seq),
                );
                rep.kind = RaceKind::UseAfterFree;
                found.push(rep);
            }
            recs.clear();
            continue;
        }
        for k in recs.iter() {
            let (lo, hi) = (k.start.max(start), k.end.min(end));
            if lo >= hi || !k.touch.conflicts(touch) || clock.knows(k.stamp.epoch) {
                continue;
            }
            found.push(data_race(
                block,
                (lo, hi),
                side(race, k),
                access_side(who, *write, seq),
            ));
        }
        recs.retain(|k| {
            !(start <= k.start
                && k.end <= end
                && clock.knows(k.stamp.epoch)
                && (*write || !k.touch.writes()))
        });
    }
}

/// Checks and records the ranges the launch `stamp` touched (grouped by allocation as they come), at its
/// place in the program order: against the accesses made before it and live there, and the earlier kernels'
/// records.
fn kernel_checked(
    race: &RaceState,
    stamp: &Arc<Stamp>,
    touched: &[Touched],
    found: &mut Vec<RaceReport>,
) {
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
        // A stream-ordered allocation made before the launch that the launch is not ordered after: a use before
        // allocation, as for declared accesses.
        if let Some((e, w)) = shadow
            .allocated_before(stamp.order)
            .filter(|(e, _)| !stamp.clock.knows(*e))
        {
            let first = access_side(w, true, super::seq_of(race, &w.0, *e));
            let mut rep = data_race(block, (start, end), first, side(race, &new));
            rep.kind = RaceKind::UseBeforeAlloc;
            found.push(rep);
        }
        // The copies, memsets and host accesses made before the launch.
        for (s, e, write, epoch, who) in shadow.records_at(stamp.order) {
            let (lo, hi) = (s.max(start), e.min(end));
            if lo >= hi || !(write || new.touch.writes()) || stamp.clock.knows(epoch) {
                continue;
            }
            found.push(data_race(
                block,
                (lo, hi),
                access_side(who, write, super::seq_of(race, &who.0, epoch)),
                side(race, &new),
            ));
        }
        let recs = &mut shadow.kernels.recs;
        for r in recs.iter() {
            if Arc::ptr_eq(&r.stamp, stamp) || !r.touch.conflicts(new.touch) {
                continue;
            }
            let (lo, hi) = (r.start.max(start), r.end.min(end));
            if lo >= hi || stamp.clock.knows(r.stamp.epoch) {
                continue;
            }
            found.push(data_race(block, (lo, hi), side(race, r), side(race, &new)));
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
