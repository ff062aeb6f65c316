//! Notifies (ACL `aclrtCreateNotify`, `aclrtRecordNotify`, `aclrtWaitAndResetNotify`, `aclrtDestroyNotify`): a
//! one-to-one signal between streams. A record sets the notify when it runs; a wait holds its stream until the
//! notify is set, then resets it, so one record releases one wait ("一个Notify Record任务只能通知一个Notify Wait任务",
//! the CANN notify guide) — unlike an event, whose record releases every wait on it. A wait can be enqueued
//! before its record (the guide's own example does so): it is held, as an ACL deferred wait is (`gate.rs`), until
//! the record is issued.
//!
//! Which record releases which wait is decided in program order (sim): records and waits are paired first come,
//! first served. A record finds the earliest wait that has none yet, or else stays *unclaimed* for the next wait;
//! a record issued while another is unclaimed is merged with it (the notify is already set on the device, and
//! the vendor's flag does not count). On hardware the pairing follows execution order; it is the same for the
//! one-to-one use the vendor documents.
//!
//! A wait may have a timeout (seconds in the ACL call; 0: none): it then gives up at its deadline like a timed
//! event wait (`aclrtSetOpWaitTimeout`), and the record it would have been paired with goes to the next wait.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::time::Duration;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{ObjectKind, Result};
use crate::engine::core::handle::{Notify, NotifyId, Stream, next_ordinal};
use crate::engine::exec::Work;
use crate::engine::exec::gate::{Gate, Slot};
use crate::engine::notifies::state::NotifyEntry;
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{OpSpec, Process};

impl Process {
    /// Creates a notify on the current device (ACL `aclrtCreateNotify`).
    pub fn create_notify(&self) -> Result<Notify> {
        self.call(EngineCall::CreateNotify.name(), |c| {
            let mut st = self.state();
            let (device, _) = st.current(&self.m, c, EngineCall::CreateNotify.name())?;
            st.notifies.has_room()?;
            let ordinal = next_ordinal(&mut st.next_notify, ObjectKind::Notify, c.process)?;
            let h = st.notifies.insert(NotifyEntry {
                id: NotifyId {
                    process: c.process,
                    ordinal,
                },
                device,
                unclaimed: None,
                waiters: VecDeque::new(),
            })?;
            Ok(Notify(h))
        })
    }

    /// Destroys a notify. Work already queued still completes; a wait held for a record that can no longer be
    /// issued stays held (its timeout, if any, still applies).
    pub fn destroy_notify(&self, notify: Notify) -> Result<()> {
        self.call(EngineCall::DestroyNotify.name(), |_| {
            self.state().notifies.remove(notify.0).map(drop)
        })
    }

    /// The notify's identity. Does not advance the clock.
    pub fn notify_id(&self, notify: Notify) -> Result<NotifyId> {
        Ok(self.state().notifies.get(notify.0)?.id)
    }

    /// Records `notify` on `stream` (ACL `aclrtRecordNotify`): it is set when the stream reaches the record, and
    /// releases one wait (see the module).
    pub fn record_notify(&self, notify: Notify, stream: Stream) -> Result<()> {
        self.call(EngineCall::RecordNotify.name(), |c| {
            let what = EngineCall::RecordNotify.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let id = st.notifies.get(notify.0)?.id;
            st.check_owner(&self.m, c, what, self.m.rules.owned.record, h)?;
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    0,
                    Cow::Owned(format!("record notify {id}")),
                    OpKind::NotifyRecord { notify: id },
                    Work::Nothing,
                ),
            )?;
            let point = st.with_clock(h, point)?;
            let n = st.notifies.get_mut(notify.0)?;
            let mut given = false;
            while let Some(slot) = n.waiters.pop_front() {
                if slot.fill(point.clone()) {
                    given = true;
                    break;
                }
            }
            if !given && n.unclaimed.is_none() {
                n.unclaimed = Some(point);
            }
            st.pump(&self.m);
            Ok(())
        })
    }

    /// Makes later work on `stream` wait until `notify` is set, then resets it (ACL `aclrtWaitAndResetNotify`):
    /// paired with the unclaimed record if there is one, else held until the next record is issued (see the
    /// module). With `timeout`, the wait gives up at its own start plus `timeout` and is a fault of its stream,
    /// [`crate::SimError::WaitTimedOut`], reported by the next synchronize.
    pub fn wait_notify(
        &self,
        notify: Notify,
        stream: Stream,
        timeout: Option<Duration>,
    ) -> Result<()> {
        self.call(EngineCall::WaitNotify.name(), |c| {
            let what = EngineCall::WaitNotify.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let id = st.notifies.get(notify.0)?.id;
            st.check_owner(&self.m, c, what, self.m.rules.owned.wait, h)?;
            let n = st.notifies.get_mut(notify.0)?;
            let taken = n.unclaimed.take();
            let (deps, gate) = match taken.clone() {
                Some(p) => (vec![p], None),
                None => {
                    let slot = Slot::new();
                    n.waiters.retain(|s| !s.is_abandoned());
                    n.waiters.push_back(slot.clone());
                    (Vec::new(), Some(Gate::Slot(slot)))
                }
            };
            let spec = OpSpec::new(
                0,
                Cow::Owned(format!("wait notify {id}")),
                OpKind::NotifyWait { notify: id },
                Work::Nothing,
            )
            .deps(deps)
            .wait_timeout(timeout.map(crate::engine::core::time::saturating_nanos));
            match st.enqueue_with(&self.m, c, h, spec, gate.clone()) {
                Ok(_) => Ok(()),
                Err(e) => {
                    // Refused: the wait never existed, so it pairs with nothing.
                    if let Some(g) = gate {
                        g.abandon();
                    }
                    if taken.is_some() {
                        st.notifies.get_mut(notify.0)?.unclaimed = taken;
                    }
                    Err(e)
                }
            }
        })
    }
}
