//! Shadow memory: for each allocation, the accesses that a later access may still race with, and its lifetime.
//!
//! A new access is checked against every recorded access that overlaps it and conflicts with it (at least one
//! write) and that its clock does not know (not ordered before it). Then the records it supersedes are dropped:
//! those inside its range that it is ordered after — all of them if it writes, only reads if it reads (a read
//! does not supersede an earlier write for the sake of later reads). A stream that keeps writing one buffer
//! therefore keeps one record.
//!
//! The lifetime of a stream-ordered allocation (`pool.rs`) is an allocation point and a free point, steps of
//! the streams that made them. An access its clock does not order after the allocation is a use before
//! allocation; any access after the free is a use after free, and so is, at the free, every recorded access
//! the free is not ordered after (by the argument above, an access superseded by one the free knows is known
//! too). A plain allocation has no allocation point (it is made by the host, before anything can use it).

//!
//! # Records kept for kernels that have not run yet
//! A CPU-run kernel's accesses are checked in program order, at its launch's place among the other accesses
//! (`kernel_ranges.rs`), but they are known only once it has run. So every record carries its place in the
//! machine's program order (`made`), and a record superseded while a launch made before the supersession has
//! not been checked yet is kept, marked `gone` at the place of the access that superseded it: such a kernel
//! compares its bytes with the records that were live at its launch ([`Shadow::records_at`]). A kept record
//! takes part in nothing else, and goes once every launch made before its `gone` has been checked.
//!
//! A shadow tells the machine's actor table which actors its records (and its allocation's lifetime points)
//! name (once per actor, when its first record of the actor is made and when its last one goes, also when the
//! allocation goes): a dead actor's number is reused only once no record names it (see `clock.rs`).

use std::sync::Arc;

use super::clock::{Actor, Actors, Epoch, VectorClock};
use super::{RaceKind, Who};

#[derive(Debug, Clone)]
struct Rec {
    start: u64,
    end: u64,
    write: bool,
    epoch: Epoch,
    who: Who,
    /// Its place in the machine's program order.
    made: u64,
    /// The place of the access that superseded it, if it is kept for unchecked kernels ([`LIVE`] if not).
    gone: u64,
}

/// [`Rec::gone`] of a record not superseded.
const LIVE: u64 = u64::MAX;

/// Where an access stands in the machine's program order: its own place, and the place of the earliest launch
/// whose kernel's accesses are not checked yet ([`LIVE`]: none).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Order {
    pub made: u64,
    pub frontier: u64,
}

impl Order {
    /// An access with no unchecked launch before it (nothing is kept for kernels).
    pub const NOW: Order = Order {
        made: 0,
        frontier: LIVE,
    };

    /// Whether records it supersedes are kept for a launch not checked yet.
    pub fn keeps(self) -> bool {
        self.frontier < self.made
    }

    /// Whether a kept record is still needed by a launch not checked yet.
    fn needs(self, r: &Rec) -> bool {
        r.gone == LIVE || self.frontier < r.gone
    }
}

/// A race found by [`Shadow::access`], [`Shadow::free`]: the earlier side (who, whether it wrote, its epoch),
/// the bytes both touch (offsets), and what kind of race it is.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub who: Who,
    pub write: bool,
    pub start: u64,
    pub end: u64,
    pub epoch: Epoch,
    pub kind: RaceKind,
}

/// An allocation's lifetime points: who made each, at which step (and the allocation's place in the program
/// order, for the kernels checked after it was made).
#[derive(Debug, Default)]
struct Life {
    alloc: Option<(Epoch, Who)>,
    alloc_made: u64,
    freed: Option<(Epoch, Who)>,
}

/// The access records of one allocation (offsets within it), and its lifetime.
#[derive(Debug, Default)]
pub(crate) struct Shadow {
    recs: Vec<Rec>,
    /// How many records name each actor (a few actors).
    named: Vec<(Actor, u32)>,
    /// The table told of `named` (the machine's; set at the first access that records).
    actors: Option<Arc<Actors>>,
    life: Option<Box<Life>>,
    /// What CPU-run kernels really touched (`kernel_ranges.rs`).
    pub(crate) kernels: super::kernel_ranges::KernelRecs,
}

impl Drop for Shadow {
    fn drop(&mut self) {
        if let Some(actors) = &self.actors {
            let gone: Vec<Actor> = self.named.iter().map(|&(a, _)| a).collect();
            actors.adjust(&[], &gone);
        }
    }
}

/// The actors a shadow update began and stopped naming.
#[derive(Default)]
struct Changes {
    added: Vec<Actor>,
    removed: Vec<Actor>,
}

/// One more record names actor `a`.
fn name(named: &mut Vec<(Actor, u32)>, a: Actor, ch: &mut Changes) {
    match named.iter_mut().find(|(x, _)| *x == a) {
        Some((_, n)) => *n += 1,
        None => {
            named.push((a, 1));
            ch.added.push(a);
        }
    }
}

/// One record fewer names actor `a`.
fn unname(named: &mut Vec<(Actor, u32)>, a: Actor, ch: &mut Changes) {
    let i = named
        .iter()
        .position(|(x, _)| *x == a)
        .expect("every record's actor is counted");
    named[i].1 -= 1;
    if named[i].1 == 0 {
        named.swap_remove(i);
        ch.removed.push(a);
    }
}

impl Shadow {
    /// Checks the access `[start, end)` made at `epoch` by an actor whose clock is `clock`, records it, and returns
    /// the races it completes (in the order the earlier accesses were made). With `dry_run`, records nothing.
    /// `actors` is the machine's actor table (told which actors the records name).
    #[cfg(test)]
    #[allow(clippy::too_many_arguments, reason = "one access, spelled out")]
    pub fn access(
        &mut self,
        range: (u64, u64),
        write: bool,
        epoch: Epoch,
        clock: &VectorClock,
        who: &Who,
        dry_run: bool,
        actors: &Arc<Actors>,
    ) -> Vec<Found> {
        self.access_at(
            range,
            write,
            (epoch, Order::NOW),
            clock,
            who,
            dry_run,
            actors,
        )
    }

    /// [`Shadow::access`] at its place `at` in the program order (see the module's doc on kept records).
    #[allow(clippy::too_many_arguments, reason = "one access, spelled out")]
    pub fn access_at(
        &mut self,
        (start, end): (u64, u64),
        write: bool,
        (epoch, at): (Epoch, Order),
        clock: &VectorClock,
        who: &Who,
        dry_run: bool,
        actors: &Arc<Actors>,
    ) -> Vec<Found> {
        let mut found = Vec::new();
        if let Some(life) = &self.life {
            if let Some((e, w)) = &life.alloc
                && !clock.knows(*e)
            {
                found.push(Found {
                    who: w.clone(),
                    write: true,
                    start,
                    end,
                    epoch: *e,
                    kind: RaceKind::UseBeforeAlloc,
                });
            }
            if let Some((e, w)) = &life.freed {
                found.push(Found {
                    who: w.clone(),
                    write: true,
                    start,
                    end,
                    epoch: *e,
                    kind: RaceKind::UseAfterFree,
                });
            }
        }
        for r in self.recs.iter().filter(|r| r.gone == LIVE) {
            let overlap = (r.start.max(start), r.end.min(end));
            if overlap.0 < overlap.1 && (r.write || write) && !clock.knows(r.epoch) {
                found.push(Found {
                    who: r.who.clone(),
                    write: r.write,
                    start: overlap.0,
                    end: overlap.1,
                    epoch: r.epoch,
                    kind: RaceKind::Data,
                });
            }
        }
        if dry_run {
            return found;
        }
        if self.actors.is_none() {
            self.actors = Some(actors.clone());
        }
        let superseded = |r: &Rec| {
            r.gone == LIVE
                && start <= r.start
                && r.end <= end
                && clock.knows(r.epoch)
                && (write || !r.write)
        };
        let keep = at.keeps();
        let mut ch = Changes::default();
        if !keep && !self.recs.is_empty() && self.recs.iter().all(|r| superseded(r) || !at.needs(r))
        {
            // The common case of a stream that keeps using a buffer: the access takes the place of every
            // record (reusing the first one's slot, and its `who` if it is the same).
            for r in self.recs.drain(1..) {
                unname(&mut self.named, r.epoch.actor, &mut ch);
            }
            let old = self.recs[0].epoch.actor;
            if old != epoch.actor {
                name(&mut self.named, epoch.actor, &mut ch);
                unname(&mut self.named, old, &mut ch);
            }
            let r = &mut self.recs[0];
            (r.start, r.end, r.write, r.epoch) = (start, end, write, epoch);
            (r.made, r.gone) = (at.made, LIVE);
            if !Arc::ptr_eq(&r.who, who) {
                r.who = who.clone();
            }
        } else {
            // Named before the superseded records go, so that an actor replacing its own record stays named.
            name(&mut self.named, epoch.actor, &mut ch);
            let named = &mut self.named;
            self.recs.retain_mut(|r| {
                if superseded(r) && keep {
                    r.gone = at.made;
                    return true;
                }
                let gone = superseded(r) || !at.needs(r);
                if gone {
                    unname(named, r.epoch.actor, &mut ch);
                }
                !gone
            });
            self.recs.push(Rec {
                start,
                end,
                write,
                epoch,
                who: who.clone(),
                made: at.made,
                gone: LIVE,
            });
        }
        actors.adjust(&ch.added, &ch.removed);
        found
    }

    /// The allocation point of a stream-ordered allocation: step `epoch` of `who`, at place `made` of the
    /// program order.
    pub fn allocated(&mut self, (epoch, made): (Epoch, u64), who: &Who, actors: &Arc<Actors>) {
        let mut ch = Changes::default();
        name(&mut self.named, epoch.actor, &mut ch);
        let life = self.life.get_or_insert_with(Box::default);
        life.alloc_made = made;
        if let Some((old, _)) = life.alloc.replace((epoch, who.clone())) {
            unname(&mut self.named, old.actor, &mut ch);
        }
        self.tell(actors, &ch);
    }

    /// Tells the actor table what `ch` changed (and remembers the table).
    fn tell(&mut self, actors: &Arc<Actors>, ch: &Changes) {
        if self.actors.is_none() {
            self.actors = Some(actors.clone());
        }
        actors.adjust(&ch.added, &ch.removed);
    }

    /// The free of the allocation (`len` bytes) at step `epoch` of `who`, whose clock is `clock`: the races it
    /// completes — every remembered access it is not ordered after, and the allocation point if it is not
    /// ordered after that — in the order they were made; then it is the free point, and the records are
    /// dropped. With `dry_run`, records nothing.
    /// At its place `at` in the program order, the records are kept for launches not checked yet.
    #[allow(clippy::too_many_arguments, reason = "one free, spelled out")]
    pub fn free(
        &mut self,
        len: u64,
        (epoch, at): (Epoch, Order),
        clock: &VectorClock,
        who: &Who,
        dry_run: bool,
        actors: &Arc<Actors>,
    ) -> Vec<Found> {
        let mut found = Vec::new();
        if let Some((e, w)) = self.life.as_ref().and_then(|l| l.alloc.as_ref())
            && !clock.knows(*e)
        {
            found.push(Found {
                who: w.clone(),
                write: true,
                start: 0,
                end: len,
                epoch: *e,
                kind: RaceKind::UseBeforeAlloc,
            });
        }
        for r in self.recs.iter().filter(|r| r.gone == LIVE) {
            if !clock.knows(r.epoch) {
                found.push(Found {
                    who: r.who.clone(),
                    write: r.write,
                    start: r.start,
                    end: r.end,
                    epoch: r.epoch,
                    kind: RaceKind::UseAfterFree,
                });
            }
        }
        if !dry_run {
            let mut ch = Changes::default();
            name(&mut self.named, epoch.actor, &mut ch);
            let named = &mut self.named;
            self.recs.retain_mut(|r| {
                if at.keeps() && r.gone == LIVE {
                    r.gone = at.made;
                    return true;
                }
                if at.keeps() && at.needs(r) {
                    return true;
                }
                unname(named, r.epoch.actor, &mut ch);
                false
            });
            let life = self.life.get_or_insert_with(Box::default);
            if let Some((old, _)) = life.freed.replace((epoch, who.clone())) {
                unname(&mut self.named, old.actor, &mut ch);
            }
            self.tell(actors, &ch);
        }
        found
    }

    /// The free point of the allocation, if it was freed (stream-ordered or by the host): its step and who.
    pub fn freed(&self) -> Option<&(Epoch, Who)> {
        self.life.as_ref()?.freed.as_ref()
    }

    /// The allocation point of a stream-ordered allocation, if it was made before place `at` of the program
    /// order: its step and who.
    pub fn allocated_before(&self, at: u64) -> Option<&(Epoch, Who)> {
        let life = self.life.as_ref()?;
        life.alloc.as_ref().filter(|_| life.alloc_made < at)
    }

    /// The records: (start, end, write, epoch, who), oldest first.
    pub fn records(&self) -> impl Iterator<Item = (u64, u64, bool, Epoch, &super::Accessor)> {
        self.recs
            .iter()
            .filter(|r| r.gone == LIVE)
            .map(|r| (r.start, r.end, r.write, r.epoch, &r.who.0))
    }

    /// The records made before place `at` of the program order and live there (kept ones included), as a
    /// kernel launched at `at` sees them: (start, end, write, epoch, who), oldest first.
    pub fn records_at(&self, at: u64) -> impl Iterator<Item = (u64, u64, bool, Epoch, &Who)> {
        self.recs
            .iter()
            .filter(move |r| r.made < at && at < r.gone)
            .map(|r| (r.start, r.end, r.write, r.epoch, &r.who))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.recs.len()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::core::races::Accessor;

    /// A table in which actors 0 to 7 are alive.
    fn actors() -> Arc<Actors> {
        let t = Arc::new(Actors::default());
        for _ in 0..8 {
            t.acquire();
        }
        t
    }

    fn who(label: &str) -> Who {
        Arc::new((
            Accessor::Host {
                process: crate::ProcessId(0),
                thread: 0,
                call: if label.is_empty() { "x" } else { "y" },
            },
            std::panic::Location::caller(),
        ))
    }

    #[test]
    fn ordered_writes_supersede_and_do_not_race() {
        let t = actors();
        let mut sh = Shadow::default();
        let mut s = VectorClock::default();
        for _ in 0..100 {
            let e = s.tick(0);
            assert!(
                sh.access((0, 64), true, e, &s, &who(""), false, &t)
                    .is_empty()
            );
        }
        assert_eq!(sh.len(), 1);
    }

    #[test]
    fn unordered_conflicts_race_and_reads_do_not() {
        let t = actors();
        let mut sh = Shadow::default();
        let (mut a, mut b) = (VectorClock::default(), VectorClock::default());
        let ea = a.tick(1);
        assert!(
            sh.access((0, 100), false, ea, &a, &who(""), false, &t)
                .is_empty()
        );
        let eb = b.tick(2);
        assert!(
            sh.access((50, 150), false, eb, &b, &who(""), false, &t)
                .is_empty(),
            "two reads never race"
        );
        let eb2 = b.tick(2);
        let found = sh.access((90, 95), true, eb2, &b, &who("w"), false, &t);
        assert_eq!(
            found.len(),
            1,
            "the write races with a's read, not with b's own read"
        );
        assert_eq!((found[0].start, found[0].end), (90, 95));
        // Once b learns a's clock, a later write is ordered.
        b.join(&a);
        let eb3 = b.tick(2);
        assert!(
            sh.access((0, 10), true, eb3, &b, &who(""), false, &t)
                .is_empty()
        );
    }

    /// The fast path (an access ordered after every record takes the first one's place) keeps the newest
    /// access: a later unordered access reports the second write, not the first, and a read joins a write.
    #[test]
    fn a_superseding_access_replaces_the_records_and_names_the_newest() {
        let t = actors();
        let mut sh = Shadow::default();
        let (mut a, mut b) = (VectorClock::default(), VectorClock::default());
        let first = who("");
        let second = who("w");
        let e1 = a.tick(1);
        assert!(
            sh.access((0, 64), true, e1, &a, &first, false, &t)
                .is_empty()
        );
        let e2 = a.tick(1);
        assert!(
            sh.access((0, 64), true, e2, &a, &second, false, &t)
                .is_empty()
        );
        assert_eq!(sh.len(), 1);
        // A read by the same stream does not supersede its write: two records.
        let e3 = a.tick(1);
        assert!(
            sh.access((0, 64), false, e3, &a, &second, false, &t)
                .is_empty()
        );
        assert_eq!(sh.len(), 2);
        // A later read supersedes the earlier read, not the write.
        let third = who("r");
        let e4 = a.tick(1);
        assert!(
            sh.access((0, 64), false, e4, &a, &third, false, &t)
                .is_empty()
        );
        assert_eq!(sh.len(), 2);
        let eb = b.tick(2);
        let found = sh.access((0, 8), true, eb, &b, &who(""), false, &t);
        assert_eq!(
            found.len(),
            2,
            "b's write races with a's last write and last read"
        );
        assert!(Arc::ptr_eq(&found[0].who, &second) && found[0].write);
        assert!(Arc::ptr_eq(&found[1].who, &third) && !found[1].write);
    }

    #[test]
    fn a_read_does_not_supersede_a_write() {
        let t = actors();
        let mut sh = Shadow::default();
        let (mut a, mut b, mut c) = (
            VectorClock::default(),
            VectorClock::default(),
            VectorClock::default(),
        );
        let w = a.tick(1);
        sh.access((0, 8), true, w, &a, &who(""), false, &t);
        b.join(&a);
        let r = b.tick(2);
        assert!(
            sh.access((0, 8), false, r, &b, &who(""), false, &t)
                .is_empty()
        );
        // c is ordered after neither: its read still races with a's write.
        let rc = c.tick(3);
        assert_eq!(
            sh.access((0, 8), false, rc, &c, &who(""), false, &t).len(),
            1
        );
    }

    /// A dead actor's number stays taken while a record names its step (superseded, the record goes; with the
    /// allocation, all of them go), and not a moment longer.
    #[test]
    fn records_keep_a_dead_actors_number_taken() {
        let t = actors();
        let mut sh = Shadow::default();
        let (mut a, mut b) = (VectorClock::default(), VectorClock::default());
        let w = a.tick(3);
        sh.access((0, 8), true, w, &a, &who(""), false, &t);
        let r = a.tick(3);
        sh.access((0, 8), false, r, &a, &who(""), false, &t);
        t.release(3, a.get(3));
        assert_eq!(t.in_use(), (8, 8), "two records name actor 3");
        // b learns a's clock and overwrites the buffer: both of a's records are superseded.
        b.join(&a);
        let w2 = b.tick(5);
        assert!(
            sh.access((0, 8), true, w2, &b, &who(""), false, &t)
                .is_empty()
        );
        assert_eq!(t.in_use(), (7, 8), "no record names actor 3 any more");
        assert_eq!(
            t.acquire(),
            (3, 2),
            "its number counts on from its last step, 2"
        );
        t.release(5, b.get(5));
        assert_eq!(t.in_use(), (8, 8), "b's write still names actor 5");
        drop(sh);
        assert_eq!(t.in_use(), (7, 8), "the allocation went with its records");
    }
    /// A record superseded while a launch before the supersession is unchecked is kept for that launch (and
    /// only for it), and goes once no such launch is left.
    #[test]
    fn a_superseded_record_is_kept_for_a_launch_not_checked_yet() {
        let t = actors();
        let mut sh = Shadow::default();
        let mut a = VectorClock::default();
        let (first, second, third) = (who(""), who("w"), who("r"));
        let e1 = a.tick(1);
        let at = |made, frontier| Order { made, frontier };
        sh.access_at((0, 8), true, (e1, at(1, LIVE)), &a, &first, false, &t);
        // A launch at place 2 has not run: the write at 3 supersedes the first, which is kept for it.
        let e3 = a.tick(1);
        sh.access_at((0, 8), true, (e3, at(3, 2)), &a, &second, false, &t);
        let seen = |sh: &Shadow, place| -> Vec<bool> {
            sh.records_at(place)
                .map(|(.., w)| Arc::ptr_eq(w, &first))
                .collect()
        };
        assert_eq!(
            seen(&sh, 2),
            vec![true],
            "the launch at 2 sees the first write only"
        );
        assert_eq!(
            seen(&sh, 4),
            vec![false],
            "a launch at 4 sees the second only"
        );
        assert_eq!(sh.records().count(), 1, "accesses see the second only");
        // Every launch checked: the kept record goes at the next access.
        let e5 = a.tick(1);
        sh.access_at((0, 8), true, (e5, at(5, LIVE)), &a, &third, false, &t);
        assert_eq!(sh.len(), 1);
        assert!(sh.records_at(2).next().is_none());
    }
}
