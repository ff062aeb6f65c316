//! Value waits and writes (ACL `aclrtValueWait`, `aclrtValueWrite`): synchronization through a 64-bit word of
//! device memory. A write task stores a value when it runs; a wait task holds its stream until the word satisfies
//! a condition ([`ValueCondition`]). A wait can be enqueued before the write that satisfies it (the CANN guide's
//! own example does so): it is held, as an ACL deferred wait is (`gate.rs`), until such a write is issued.
//!
//! Which write releases a wait is decided in program order (sim): the word's value as the last value write
//! issued to that address left it, or — before any — the memory's contents when the wait is enqueued (what a
//! synchronous `aclrtMemset` / `aclrtMemcpy` left there; an asynchronous write not yet ordered before the call is
//! a race the detector reports on the wait's read). If that value satisfies the condition, the wait waits for
//! that write (or for nothing); otherwise it is held until the first later value write to the address whose
//! value does. Other writes to the word (copies, memsets, kernel bodies) do not release a held wait.
//!
//! The words a process has written are forgotten when their memory is freed.

use std::borrow::Cow;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::Result;
use crate::engine::core::handle::Stream;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::exec::gate::{Gate, Slot};
use crate::engine::exec::{CopySource, Work};
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{OpSpec, Process};
use crate::engine::value_waits::state::ValueCondition;

impl Process {
    /// Enqueues a write of `value` (8 bytes, little-endian) to device memory at `ptr` on `stream` (ACL
    /// `aclrtValueWrite`); it releases the value waits it satisfies (see the module).
    #[track_caller]
    pub fn value_write(&self, ptr: DevicePtr, value: u64, stream: Stream) -> Result<()> {
        let site = std::panic::Location::caller();
        self.call(EngineCall::ValueWrite.name(), |c| {
            let what = EngineCall::ValueWrite.name();
            let dst = self.m.memory.device_region(what, ptr, 8, c.process)?;
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            let accesses = vec![(dst.clone(), true)];
            let who = self.who(&mut st, h, "value write", what, site, &accesses)?;
            let point = st.enqueue(
                &self.m,
                c,
                h,
                // One word, written as a record is issued: no time of its own (sim).
                OpSpec::new(
                    0,
                    Cow::Owned(format!("value write {value:#x}")),
                    OpKind::ValueWrite { value },
                    Work::Copy {
                        src: CopySource::Staged(value.to_le_bytes().to_vec()),
                        dst,
                    },
                )
                .accesses(accesses, who),
            )?;
            let point = st.with_clock(h, point)?;
            let word = st.words.entry(ptr.0).or_default();
            word.waiters.retain(|(cond, v, slot)| {
                !(slot.is_abandoned() || cond.holds(value, *v) && slot.fill(point.clone()))
            });
            word.last = Some((value, point));
            st.pump(&self.m);
            Ok(())
        })
    }

    /// Makes later work on `stream` wait until the 64-bit word at `ptr` satisfies `condition` against `value`
    /// (ACL `aclrtValueWait`; see the module for which write releases it).
    #[track_caller]
    pub fn value_wait(
        &self,
        ptr: DevicePtr,
        value: u64,
        condition: ValueCondition,
        stream: Stream,
    ) -> Result<()> {
        let site = std::panic::Location::caller();
        self.call(EngineCall::ValueWait.name(), |c| {
            let what = EngineCall::ValueWait.name();
            let region = self.m.memory.device_region(what, ptr, 8, c.process)?;
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.wait, h)?;
            let current = match st.words.get(&ptr.0).and_then(|w| w.last.as_ref()) {
                Some((v, p)) => (*v, Some(p.clone())),
                None => {
                    let mut bytes = [0u8; 8];
                    region.block.read(region.offset, &mut bytes);
                    (u64::from_le_bytes(bytes), None)
                }
            };
            let (deps, gate) = if condition.holds(current.0, value) {
                (current.1.into_iter().collect(), None)
            } else {
                (Vec::new(), Some(Slot::new()))
            };
            let accesses = vec![(region, false)];
            let who = self.who(&mut st, h, "value wait", what, site, &accesses)?;
            let spec = OpSpec::new(
                0,
                Cow::Owned(format!("value wait {value:#x}")),
                OpKind::ValueWait { value },
                Work::Nothing,
            )
            .deps(deps)
            .accesses(accesses, who);
            st.enqueue_with(&self.m, c, h, spec, gate.clone().map(Gate::Slot))?;
            if let Some(slot) = gate {
                st.words
                    .entry(ptr.0)
                    .or_default()
                    .waiters
                    .push((condition, value, slot));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ValueCondition::*;

    /// The four comparisons of `ACL_STREAM_WAIT_VALUE_*` as the API page writes them, with the subtraction of
    /// GEQ wrapping as `(int64_t)(*devAddr - value)` does in C.
    #[test]
    fn the_conditions_are_the_documented_comparisons() {
        assert!(Geq.holds(5, 5) && Geq.holds(6, 5) && !Geq.holds(4, 5));
        assert!(!Geq.holds(0, 1), "(int64_t)(0 - 1) = -1");
        assert!(Geq.holds(1, u64::MAX), "(int64_t)(1 - UINT64_MAX) = 2");
        assert!(!Geq.holds(u64::MAX, 0), "(int64_t)UINT64_MAX = -1");
        assert!(Eq.holds(7, 7) && !Eq.holds(7, 8));
        assert!(And.holds(0b110, 0b010) && !And.holds(0b100, 0b010));
        assert!(Nor.holds(0b0001, 0b0010), "~(0b0011) != 0");
        assert!(!Nor.holds(u64::MAX, 0) && !Nor.holds(0, u64::MAX));
    }
}
