//! A vector clock over actors (streams and host threads, numbered machine-wide), and the epoch of one event
//! on one actor. `a` happens before `b` iff `a.epoch <= b.clock[a.actor]`.
//!
//! Counts are `u64`: an actor that took one step per nanosecond would need 584 years to exhaust one, so a count
//! never wraps (a wrapped count would make a new step look older than the ones it follows, and hide or invent
//! races). Should one ever reach `u64::MAX`, the next tick is a panic (a broken invariant), never a wrap.

/// An actor's number on the machine (streams and host threads share the numbering).
pub(crate) type Actor = u32;

/// One actor's `count`-th step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Epoch {
    pub actor: Actor,
    pub count: u64,
}

/// A vector clock: for each actor, how many of its steps are known to have happened.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VectorClock(Vec<u64>);

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
        let mut c = VectorClock(vec![0, u64::from(u32::MAX) - 1]);
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

    /// At `u64::MAX` the next tick panics rather than wrapping.
    #[test]
    #[should_panic(expected = "cannot be exhausted")]
    fn a_u64_count_never_wraps() {
        let mut c = VectorClock(vec![u64::MAX]);
        c.tick(0);
    }
}
