//! A vector clock over actors (streams and host threads, numbered machine-wide), and the epoch of one event
//! on one actor. `a` happens before `b` iff `a.epoch <= b.clock[a.actor]`.
//!
//! A clock is sparse: it lists only the actors it knows a step of, in actor order, so its size follows what it
//! has learned (the host thread and the streams it synchronized with), not how many actors the machine has.
//!
//! Counts are `u64`: an actor that took one step per nanosecond would need 584 years to exhaust one, so a count
//! never wraps (a wrapped count would make a new step look older than the ones it follows, and hide or invent
//! races). Should one ever reach `u64::MAX`, the next tick is a panic (a broken invariant), never a wrap.
//!
//! # Actor numbers are reused ([`Actors`])
//! A destroyed stream takes no more steps, but its steps stay in the shadow memory of what it touched, and other
//! clocks keep their count of it. Its number is handed to a new actor only once no shadow record names one of
//! its steps any more (the shadow counts its records per actor, [`Actors::adjust`]), and the new actor counts on
//! from the highest count the number reached. That changes no verdict:
//! - a verdict only ever asks whether a clock knows a *recorded* step (`knows`), and no record of the old actor
//!   is left, so no question about it can be asked again;
//! - every count any clock holds for the number is at most the old actor's last count, which is below every
//!   step of the new actor: a clock that knew the old actor knows none of the new one's steps, exactly as if
//!   the new actor had a number of its own; a clock that learns a step of the new one holds that count.
//!
//! So clocks and the actor table stay as large as the actors alive at once (and the dead ones still named by a
//! record), whatever number of streams a program has made.

use std::sync::Arc;

use parking_lot::Mutex;

/// An actor's number on the machine (streams and host threads share the numbering; see [`Actors`]).
pub(crate) type Actor = u32;

/// The largest actor number a clock read from another process may name for this machine.
const MAX_DENSE: usize = 1 << 20;

/// One actor's `count`-th step (counted from its number's base: see [`Actors::acquire`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Epoch {
    pub actor: Actor,
    pub count: u64,
}

/// A vector clock: for each actor, how many of its steps are known to have happened (absent: none).
///
/// The first part counts this machine's own actors (sparse, in actor order). The second part, empty unless the
/// machine shares a host with other OS processes (`host/`), counts the actors of other members of the shared
/// host, keyed by (the member's id on the host, its actor): what records of interprocess events and imports of
/// IPC memory carried over from them. It is self-contained: joins merge it by key, [`VectorClock::entries`] /
/// [`VectorClock::from_entries`] carry it between processes, and nothing that renumbers or compacts this
/// machine's own actors needs to touch it — only an entry of this machine's own member comes back into the
/// first part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VectorClock(Vec<(Actor, u64)>, Option<Box<RemoteCounts>>);

/// The counts of other members' actors: (member id on the shared host, actor) → count.
pub(crate) type RemoteCounts = std::collections::BTreeMap<(u32, Actor), u64>;

impl VectorClock {
    /// A clock that knows `count` steps of `actor` (a new actor starts at its number's base).
    pub fn starting_at(actor: Actor, count: u64) -> VectorClock {
        if count == 0 {
            return VectorClock::default();
        }
        VectorClock(vec![(actor, count)], None)
    }

    /// The count known for `actor`.
    #[inline]
    pub fn get(&self, actor: Actor) -> u64 {
        // Clocks are short (a few actors): a scan beats a binary search.
        for &(a, c) in &self.0 {
            if a == actor {
                return c;
            }
            if a > actor {
                break;
            }
        }
        0
    }

    /// Advances `actor` by one step and returns the new epoch.
    #[inline(always)]
    pub fn tick(&mut self, actor: Actor) -> Epoch {
        let i = match self.0.iter().position(|&(a, _)| a >= actor) {
            Some(i) if self.0[i].0 == actor => i,
            other => self.insert(other.unwrap_or(self.0.len()), actor),
        };
        let count = &mut self.0[i].1;
        *count = count
            .checked_add(1)
            .expect("a u64 step count cannot be exhausted (584 years at one step per nanosecond)");
        Epoch {
            actor,
            count: *count,
        }
    }

    #[cold]
    fn insert(&mut self, at: usize, actor: Actor) -> usize {
        self.0.insert(at, (actor, 0));
        at
    }

    /// Learns everything `other` knows (element-wise maximum).
    pub fn join(&mut self, other: &VectorClock) {
        self.join_own(other);
        if let Some(theirs) = &other.1 {
            let mine = self.1.get_or_insert_with(Default::default);
            for (&k, &v) in theirs.iter() {
                let e = mine.entry(k).or_insert(0);
                *e = (*e).max(v);
            }
        }
    }

    /// [`VectorClock::join`] of this machine's own actors.
    #[inline]
    fn join_own(&mut self, other: &VectorClock) {
        // In place while every actor of `other` is already here (the common case: a stream joining a host
        // thread it has joined before).
        let mut i = 0;
        for &(a, c) in &other.0 {
            while i < self.0.len() && self.0[i].0 < a {
                i += 1;
            }
            match self.0.get_mut(i) {
                Some(mine) if mine.0 == a => {
                    mine.1 = mine.1.max(c);
                    i += 1;
                }
                _ => return self.merge(other),
            }
        }
    }

    /// Whether the step `count` of actor `actor` of member `member` of the shared host is known, where this
    /// clock's own actors are those of member `me`.
    pub fn knows_member(&self, me: u32, member: u32, actor: Actor, count: u64) -> bool {
        if member == me {
            return count <= self.get(actor);
        }
        count
            <= self
                .1
                .as_ref()
                .and_then(|r| r.get(&(member, actor)).copied())
                .unwrap_or(0)
    }

    /// The clock as (member, actor, count) entries, its own actors as member `me`'s; zero counts left out.
    pub fn entries(&self, me: u32) -> Vec<(u32, Actor, u64)> {
        let mut out: Vec<(u32, Actor, u64)> = self
            .0
            .iter()
            .filter(|&&(_, c)| c > 0)
            .map(|&(a, c)| (me, a, c))
            .collect();
        if let Some(r) = &self.1 {
            out.extend(r.iter().map(|(&(m, a), &c)| (m, a, c)));
        }
        out
    }

    /// The clock made of `entries` ([`VectorClock::entries`] of another member), seen by member `me`.
    pub fn from_entries(me: u32, entries: &[(u32, Actor, u64)]) -> VectorClock {
        let mut c = VectorClock::default();
        let mut own = std::collections::BTreeMap::<Actor, u64>::new();
        for &(m, a, n) in entries {
            if m == me {
                // An actor number from the segment is checked before it is believed.
                if (a as usize) < MAX_DENSE && n > 0 {
                    let e = own.entry(a).or_insert(0);
                    *e = (*e).max(n);
                }
            } else {
                let e =
                    c.1.get_or_insert_with(Default::default)
                        .entry((m, a))
                        .or_insert(0);
                *e = (*e).max(n);
            }
        }
        c.0 = own.into_iter().collect();
        c
    }

    #[cold]
    fn merge(&mut self, other: &VectorClock) {
        let mut out = Vec::with_capacity(self.0.len() + other.0.len());
        let (mut a, mut b) = (self.0.iter().peekable(), other.0.iter().peekable());
        loop {
            match (a.peek(), b.peek()) {
                (Some(&&x), Some(&&y)) => {
                    if x.0 < y.0 {
                        out.push(x);
                        a.next();
                    } else if y.0 < x.0 {
                        out.push(y);
                        b.next();
                    } else {
                        out.push((x.0, x.1.max(y.1)));
                        a.next();
                        b.next();
                    }
                }
                (Some(&&x), None) => {
                    out.push(x);
                    a.next();
                }
                (None, Some(&&y)) => {
                    out.push(y);
                    b.next();
                }
                (None, None) => break,
            }
        }
        self.0 = out;
    }

    /// Whether the step `e` is known to this clock (happened before what this clock describes).
    #[inline]
    pub fn knows(&self, e: Epoch) -> bool {
        e.count <= self.get(e.actor)
    }
}

/// A step of an actor recorded outside shadow memory (a pool's freed range waiting on its free, `pool.rs`):
/// while the hold lasts, the actor's number counts as named by a record, so it is not handed to a new actor
/// (whose clock would seem to know the step: see the module documentation).
#[derive(Debug)]
pub(crate) struct ActorHold {
    actors: Arc<Actors>,
    actor: Actor,
}

impl ActorHold {
    pub fn new(actors: &Arc<Actors>, actor: Actor) -> ActorHold {
        actors.adjust(&[actor], &[]);
        ActorHold {
            actors: actors.clone(),
            actor,
        }
    }
}

impl Clone for ActorHold {
    fn clone(&self) -> ActorHold {
        ActorHold::new(&self.actors, self.actor)
    }
}

impl Drop for ActorHold {
    fn drop(&mut self) {
        self.actors.adjust(&[], &[self.actor]);
    }
}

/// One actor number.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// Whether an actor holds the number (a live stream or host thread).
    live: bool,
    /// How many shadow records name a step of the number's actors.
    refs: u64,
    /// The count the current (or last) actor's first step followed.
    base: u64,
    /// The highest count an actor of the number reached (set when it is released).
    top: u64,
}

/// The machine's actor numbers: which are held, which dead actors' steps are still recorded in shadow memory,
/// and which can be handed out again (see the module documentation).
///
/// Lock order: a leaf (taken under a process's state lock and under a shadow's lock).
#[derive(Debug, Default)]
pub(crate) struct Actors {
    inner: Mutex<ActorSlots>,
}

#[derive(Debug, Default)]
struct ActorSlots {
    slots: Vec<Slot>,
    /// Numbers whose actor is gone and that no record names: free for a new actor.
    free: Vec<Actor>,
}

impl Actors {
    /// A number for a new actor, and the count its steps follow (its first step is `base + 1`; 0 for a number
    /// never used before).
    pub fn acquire(&self) -> (Actor, u64) {
        let mut t = self.inner.lock();
        if let Some(a) = t.free.pop() {
            let s = &mut t.slots[a as usize];
            s.live = true;
            s.base = s.top;
            return (a, s.base);
        }
        let a = Actor::try_from(t.slots.len())
            .expect("fewer than 2^32 actors are alive or recorded at once");
        t.slots.push(Slot {
            live: true,
            refs: 0,
            base: 0,
            top: 0,
        });
        (a, 0)
    }

    /// Actor `a` takes no more steps; `last` is its last count. Its number is free once no record names it.
    pub fn release(&self, a: Actor, last: u64) {
        let mut t = self.inner.lock();
        let s = &mut t.slots[a as usize];
        debug_assert!(s.live, "actor {a} released twice");
        s.live = false;
        s.top = s.top.max(last);
        if s.refs == 0 {
            t.free.push(a);
        }
    }

    /// The count actor `a`'s first step followed: its `n`-th step has count `base + n`. Asked while a record
    /// names the actor (so its number is not handed out meanwhile).
    pub fn base(&self, a: Actor) -> u64 {
        self.inner
            .lock()
            .slots
            .get(a as usize)
            .map_or(0, |s| s.base)
    }

    /// Shadow records naming the actors in `added` were made, and records naming those in `removed` dropped
    /// (one entry per record).
    pub fn adjust(&self, added: &[Actor], removed: &[Actor]) {
        if added.is_empty() && removed.is_empty() {
            return;
        }
        let mut t = self.inner.lock();
        for &a in added {
            t.slots[a as usize].refs += 1;
        }
        for &a in removed {
            let s = &mut t.slots[a as usize];
            s.refs -= 1;
            if s.refs == 0 && !s.live {
                t.free.push(a);
            }
        }
    }

    /// How many numbers are in use (held, or still named by a record), and how many exist.
    #[cfg(test)]
    pub fn in_use(&self) -> (usize, usize) {
        let t = self.inner.lock();
        (t.slots.len() - t.free.len(), t.slots.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_ordered_within_an_actor() {
        let mut c = VectorClock::default();
        let a1 = c.tick(0);
        let a2 = c.tick(0);
        assert!(c.knows(a1) && c.knows(a2));
        assert!(a1 < a2);
        let mut other = VectorClock::default();
        assert!(!other.knows(a1));
        other.join(&c);
        assert!(other.knows(a2));
    }

    #[test]
    fn join_is_an_elementwise_max_and_concurrency_is_detected() {
        let (mut s1, mut s2) = (VectorClock::default(), VectorClock::default());
        let w1 = s1.tick(1);
        let w2 = s2.tick(2);
        assert!(
            !s2.knows(w1) && !s1.knows(w2),
            "independent steps are concurrent"
        );
        // A record on s1 released, then acquired by s2 (stream wait).
        let released = s1.clone();
        s2.join(&released);
        let after = s2.tick(2);
        assert!(s2.knows(w1));
        assert!(!s1.knows(after), "the acquire goes one way only");
        assert_eq!(s2.get(1), 1);
        assert_eq!(s2.get(7), 0, "unknown actors count 0");
    }

    /// The sparse clock against a dense one, over a seeded mix of ticks and joins among 6 clocks of 9 actors:
    /// every count agrees after every step, and the entries stay sorted and unique.
    #[test]
    fn sparse_joins_and_ticks_agree_with_a_dense_clock() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u64| {
            x = crate::engine::core::rng::mix(x);
            x % n
        };
        let mut sparse = vec![VectorClock::default(); 6];
        let mut dense = vec![[0u64; 9]; 6];
        for _ in 0..5_000 {
            let (i, j, a) = (next(6) as usize, next(6) as usize, next(9) as Actor);
            if next(3) == 0 {
                let e = sparse[i].tick(a);
                dense[i][a as usize] += 1;
                assert_eq!(e.count, dense[i][a as usize]);
            } else {
                let other = sparse[j].clone();
                sparse[i].join(&other);
                let other = dense[j];
                for (d, o) in dense[i].iter_mut().zip(other) {
                    *d = (*d).max(o);
                }
            }
            for (s, d) in sparse.iter().zip(&dense) {
                for a in 0..9 {
                    assert_eq!(s.get(a), d[a as usize]);
                }
                assert!(s.0.windows(2).all(|w| w[0].0 < w[1].0), "sorted, unique");
                assert!(s.0.iter().all(|&(_, c)| c > 0), "only known actors");
            }
        }
    }

    /// A count past 2^32 − 1 keeps counting (with `u32` counts it wrapped to 0, so the next step looked older
    /// than everything and every later access of the actor seemed ordered before the others' — or the
    /// increment panicked in a debug build): the step after `u32::MAX` is newer, is not known to a clock that
    /// knew only `u32::MAX`, and happens-before still holds for both.
    #[test]
    fn counts_do_not_wrap_at_u32() {
        let mut c = VectorClock::starting_at(1, u64::from(u32::MAX) - 1);
        let last32 = c.tick(1);
        assert_eq!(last32.count, u64::from(u32::MAX));
        let seen = c.clone();
        let next = c.tick(1);
        assert_eq!(next.count, 1 << 32);
        assert!(last32 < next);
        assert!(seen.knows(last32) && !seen.knows(next));
        assert!(c.knows(last32) && c.knows(next));
        let mut other = VectorClock::default();
        other.join(&c);
        assert_eq!(other.get(1), 1 << 32);
    }

    /// Clocks carried to another member of a shared host: its own actors come back dense, the others' are kept
    /// by member, and joins and `knows_member` see both.
    #[test]
    fn entries_travel_between_members() {
        let mut a = VectorClock::default();
        a.tick(0);
        a.tick(2);
        let carried = a.entries(7);
        assert_eq!(carried, vec![(7, 0, 1), (7, 2, 1)]);
        // Member 9 receives it.
        let seen = VectorClock::from_entries(9, &carried);
        assert!(seen.knows_member(9, 7, 2, 1) && !seen.knows_member(9, 7, 2, 2));
        assert!(
            !seen.knows_member(9, 9, 2, 1),
            "member 9's own actor 2 is another actor"
        );
        let mut b = VectorClock::default();
        b.tick(1);
        b.join(&seen);
        // Back at member 7, through member 9's clock: its own counts are dense again.
        let back = VectorClock::from_entries(7, &b.entries(9));
        assert!(back.knows(Epoch { actor: 2, count: 1 }));
        assert!(back.knows_member(7, 9, 1, 1));
    }

    /// At `u64::MAX` the next tick panics rather than wrapping.
    #[test]
    #[should_panic(expected = "cannot be exhausted")]
    fn a_u64_count_never_wraps() {
        let mut c = VectorClock::starting_at(0, u64::MAX);
        c.tick(0);
    }

    /// A released number is handed out again only once no record names it, and its next actor counts on from
    /// the highest count it reached: a clock that knew the old actor's last step knows none of the new one's.
    #[test]
    fn a_number_is_reused_after_its_last_record_and_counts_on() {
        let actors = Actors::default();
        let (a, base) = actors.acquire();
        assert_eq!((a, base), (0, 0));
        let mut old = VectorClock::starting_at(a, base);
        let mut step = old.tick(a);
        for _ in 0..4 {
            step = old.tick(a);
        }
        assert_eq!(step.count, 5);
        actors.adjust(&[a], &[]);
        // Someone else learned the old actor's last step.
        let mut host = VectorClock::default();
        host.join(&old);
        actors.release(a, old.get(a));
        let (b, _) = actors.acquire();
        assert_ne!(b, a, "a record still names actor 0's step");
        actors.adjust(&[], &[a]);
        let (c, base) = actors.acquire();
        assert_eq!(
            (c, base),
            (a, 5),
            "free now; the next actor counts on from 5"
        );
        assert_eq!(actors.in_use(), (2, 2));
        let mut new = VectorClock::starting_at(c, base);
        let first = new.tick(c);
        assert_eq!(first.count, 6);
        assert_eq!(actors.base(c), 5);
        assert!(
            !host.knows(first),
            "knowing the old actor is not knowing the new one"
        );
        host.join(&new);
        assert!(host.knows(first));
    }
}
