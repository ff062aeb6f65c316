//! The words value waits and writes use: what the last write issued, and the waits held for a later one.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::exec::gate::Slot;
use crate::engine::exec::point::Point;

/// What a value wait waits for, comparing the word `*addr` with `value` (ACL `ACL_STREAM_WAIT_VALUE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueCondition {
    /// `(int64_t)(*addr - value) >= 0` (wrapping subtraction).
    Geq,
    /// `*addr == value`.
    Eq,
    /// `(*addr & value) != 0`.
    And,
    /// `~(*addr | value) != 0`.
    Nor,
}

impl ValueCondition {
    /// Whether `word` satisfies the condition against `value`.
    pub fn holds(self, word: u64, value: u64) -> bool {
        match self {
            ValueCondition::Geq => (word.wrapping_sub(value) as i64) >= 0,
            ValueCondition::Eq => word == value,
            ValueCondition::And => word & value != 0,
            ValueCondition::Nor => !(word | value) != 0,
        }
    }
}

/// One word's state: the last value write issued to it, and the waits held for a later one.
#[derive(Default)]
pub(crate) struct WordState {
    pub(super) last: Option<(u64, Point)>,
    pub(super) waiters: Vec<(ValueCondition, u64, Arc<Slot>)>,
}

/// The words of a process, by device address.
pub(crate) type Words = BTreeMap<u64, WordState>;

/// Forgets the words in `[base, base + len)` (their memory was freed).
pub(crate) fn forget(words: &mut Words, base: u64, len: u64) {
    if !words.is_empty() {
        let end = base.saturating_add(len);
        words.retain(|&addr, _| addr < base || addr >= end);
    }
}
