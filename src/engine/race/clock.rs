//! A vector clock over actors (streams and host threads, numbered machine-wide), and the epoch of one event
//! on one actor. `a` happens before `b` iff `a.epoch <= b.clock[a.actor]`.
//!
//! Counts are `u64`: an actor that took one step per nanosecond would need 584 years to exhaust one, so a count
//! never wraps (a wrapped count would make a new step look older than the ones it follows, and hide or invent
//! races). Should one ever reach `u64::MAX`, the next tick is a panic (a broken invariant), never a wrap.

/// An actor's number on the machine (streams and host threads share the numbering).
pub(crate) type Actor = u32;

/// The largest actor number a clock read from another process may name for this machine (it sizes a vector).
const MAX_DENSE: usize = 1 << 20;

/// One actor's `count`-th step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Epoch {
    pub actor: Actor,
    pub count: u64,
}

/// A vector clock: for each actor, how many of its steps are known to have happened.
///
/// The dense part counts this machine's own actors. The second part, empty unless the machine shares a host
/// with other OS processes (`host/`), counts the actors of other members of the shared host, keyed by (the
/// member's id on the host, its actor): what records of interprocess events and imports of IPC memory carried
/// over from them. It is self-contained: joins merge it by key, [`VectorClock::entries`] /
/// [`VectorClock::from_entries`] carry it between processes, and nothing that renumbers or compacts this
/// machine's own actors (the dense part) needs to touch it — only an entry of this machine's own member comes
/// back dense.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VectorClock(Vec<u64>, Option<Box<RemoteCounts>>);

/// The counts of other members' actors: (member id on the shared host, actor) → count.
pub(crate) type RemoteCounts = std::collections::BTreeMap<(u32, Actor), u64>;

impl VectorClock {
    /// The count known for `actor`.
    pub fn get(&self, actor: Actor) -> u64 {
        self.0.get(actor as usize).copied().unwrap_or(0)
    }

    /// Advances `actor` by one step and returns the new epoch.
    #[inline(always)]
    pub fn tick(&mut self, actor: Actor) -> Epoch {
        let i = actor as usize;
        if self.0.len() <= i {
            self.grow(i + 1);
        }
        let count = &mut self.0[i];
        *count = count
            .checked_add(1)
            .expect("a u64 step count cannot be exhausted (584 years at one step per nanosecond)");
        Epoch {
            actor,
            count: *count,
        }
    }

    #[cold]
    fn grow(&mut self, len: usize) {
        self.0.resize(len, 0);
    }

    /// Learns everything `other` knows (element-wise maximum).
    pub fn join(&mut self, other: &VectorClock) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
        if let Some(theirs) = &other.1 {
            let mine = self.1.get_or_insert_with(Default::default);
            for (&k, &v) in theirs.iter() {
                let e = mine.entry(k).or_insert(0);
                *e = (*e).max(v);
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
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(a, &c)| (me, a as Actor, c))
            .collect();
        if let Some(r) = &self.1 {
            out.extend(r.iter().map(|(&(m, a), &c)| (m, a, c)));
        }
        out
    }

    /// The clock made of `entries` ([`VectorClock::entries`] of another member), seen by member `me`.
    pub fn from_entries(me: u32, entries: &[(u32, Actor, u64)]) -> VectorClock {
        let mut c = VectorClock::default();
        for &(m, a, n) in entries {
            if m == me {
                // An actor number from the segment is bounded before it sizes anything.
                if (a as usize) < MAX_DENSE {
                    let i = a as usize;
                    if c.0.len() <= i {
                        c.0.resize(i + 1, 0);
                    }
                    c.0[i] = c.0[i].max(n);
                }
            } else {
                let e =
                    c.1.get_or_insert_with(Default::default)
                        .entry((m, a))
                        .or_insert(0);
                *e = (*e).max(n);
            }
        }
        c
    }

    /// Whether the step `e` is known to this clock (happened before what this clock describes).
    pub fn knows(&self, e: Epoch) -> bool {
        e.count <= self.get(e.actor)
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

    /// A count past 2^32 − 1 keeps counting (with `u32` counts it wrapped to 0, so the next step looked older
    /// than everything and every later access of the actor seemed ordered before the others' — or the
    /// increment panicked in a debug build): the step after `u32::MAX` is newer, is not known to a clock that
    /// knew only `u32::MAX`, and happens-before still holds for both.
    #[test]
    fn counts_do_not_wrap_at_u32() {
        let mut c = VectorClock(vec![0, u64::from(u32::MAX) - 1], None);
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
        let mut c = VectorClock(vec![u64::MAX], None);
        c.tick(0);
    }
}
