//! initcheck's record of the bytes of a device allocation written since it was made: one bit per byte, kept
//! with the allocation's bytes (`Store::init`) and dropped with them, made only while initcheck is on (a
//! process-wide switch the checks' configuration sets before the first allocation).
//!
//! Copies and memsets mark what they write ([`Block::write`](super::Block::write), `fill`, `copy`); a kernel
//! run on the CPU marks its stores and checks its loads through the words themselves (`kernel_rt.c`), with
//! atomic updates, since kernels on other streams may touch other bytes of the same words at once.
//! The semantics: `docs/semantics/sanitizer.md` (initcheck).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::engine::memory::block::Block;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Where a copy's report goes (the checks' reports: the facade sets it with the switch).
static REPORTER: OnceLock<fn(String)> = OnceLock::new();

/// Sets where a copy's report of unwritten bytes goes (the first call wins).
pub(crate) fn set_reporter(f: fn(String)) {
    let _ = REPORTER.set(f);
}

/// initcheck on a copy (its label `what`) that reads `[off, off + len)` of `block`: a report when some of
/// those bytes were never written since the allocation.
pub(crate) fn check_copy_read(block: &Block, off: u64, len: u64, what: &str) {
    let Some(bits) = &block.store.init else {
        return;
    };
    let (first, count) = bits.unwritten(block.store_off + off, len);
    let (Some(first), Some(report)) = (first, REPORTER.get()) else {
        return;
    };
    report(format!(
        "copy `{what}`: uninitialized read of {count} of its {len} bytes, the first at offset {} of {}, which \
         nothing wrote since it was allocated",
        first - block.store_off,
        block.name()
    ));
}

/// Turns the record on for allocations made from now on.
pub(crate) fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether allocations made now get a record.
pub(crate) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// One bit per byte: set once the byte was written.
#[derive(Debug)]
pub(crate) struct InitBits {
    words: Box<[AtomicU64]>,
}

impl InitBits {
    /// A record of `len` bytes, none written; `None` when initcheck is off.
    pub(crate) fn for_new(len: u64) -> Option<InitBits> {
        if !enabled() {
            return None;
        }
        let n = usize::try_from(len.div_ceil(64)).ok()?;
        Some(InitBits {
            words: (0..n).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// Marks `[off, off + len)` written.
    pub(crate) fn mark(&self, off: u64, len: u64) {
        let (mut i, end) = (off, off + len);
        while i < end {
            let w = (i / 64) as usize;
            let lo = i % 64;
            let hi = (end - (i - lo)).min(64);
            let mask = if hi - lo == 64 {
                u64::MAX
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            if let Some(word) = self.words.get(w) {
                word.fetch_or(mask, Ordering::Relaxed);
            }
            i = i - lo + hi;
        }
    }

    /// The first byte of `[off, off + len)` not written, if any, and how many are not.
    pub(crate) fn unwritten(&self, off: u64, len: u64) -> (Option<u64>, u64) {
        let (mut i, end) = (off, off + len);
        let (mut first, mut count) = (None, 0);
        while i < end {
            let lo = i % 64;
            let hi = (end - (i - lo)).min(64);
            let mask = if hi - lo == 64 {
                u64::MAX
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            let word = self
                .words
                .get((i / 64) as usize)
                .map_or(u64::MAX, |w| w.load(Ordering::Relaxed));
            let missing = !word & mask;
            if missing != 0 {
                first.get_or_insert(i - lo + u64::from(missing.trailing_zeros()));
                count += u64::from(missing.count_ones());
            }
            i = i - lo + hi;
        }
        (first, count)
    }

    /// The words, for a kernel run on the CPU (bit `b % 64` of word `b / 64` is byte `b`).
    pub(crate) fn words_ptr(&self) -> *const AtomicU64 {
        self.words.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_cover_exactly_the_bytes_written() {
        let bits = InitBits {
            words: (0..3).map(|_| AtomicU64::new(0)).collect(),
        };
        bits.mark(3, 70);
        assert_eq!(bits.unwritten(0, 192), (Some(0), 122));
        assert_eq!(bits.unwritten(3, 70), (None, 0));
        assert_eq!(bits.unwritten(3, 71), (Some(73), 1));
        bits.mark(0, 3);
        bits.mark(73, 119);
        assert_eq!(bits.unwritten(0, 192), (None, 0));
    }
}
