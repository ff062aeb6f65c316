//! The stream calls of [`Process`]: create (with a priority), destroy, synchronize (with a timeout), query,
//! flags, priority and identity; and device synchronize.

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{HandleProblem, ObjectKind, Result, SimError};
use crate::engine::core::handle::StreamId;
use crate::engine::core::labels::StreamLabel;
use crate::engine::core::rules::FailureMode;
use crate::engine::core::status::Status;
use crate::engine::process::Process;
use crate::engine::process::thread::Call;
use crate::engine::streams::entry::StreamFlags;

/// Streams and devices.
impl Process {
    /// Creates a stream on the current device.
    pub fn create_stream(&self, flags: StreamFlags) -> Result<crate::Stream> {
        self.create_stream_with_priority(flags, 0)
    }

    /// Creates a stream with a priority, clamped to the device's range (lower number = higher priority).
    pub fn create_stream_with_priority(
        &self,
        flags: StreamFlags,
        priority: i32,
    ) -> Result<crate::Stream> {
        self.call(EngineCall::CreateStream.name(), |c| {
            if flags.0 & !1 != 0 {
                return Err(SimError::InvalidFlags {
                    what: EngineCall::CreateStream.name(),
                    flags: flags.0,
                    reason: "only NON_BLOCKING (0x1) is defined",
                });
            }
            let mut st = self.state();
            let (device, ctx) = st.current(&self.m, c, EngineCall::CreateStream.name())?;
            let (least, greatest) = self.m.devices[device as usize].priority_range;
            let priority = priority.clamp(greatest, least);
            let h = st.new_stream(&self.m, c.process, (device, ctx), None, flags, priority)?;
            Ok(crate::Stream(h))
        })
    }

    /// Destroys a stream. Work already queued still completes; the handle is dead at once.
    pub fn destroy_stream(&self, stream: crate::Stream) -> Result<()> {
        self.call(EngineCall::DestroyStream.name(), |c| {
            let mut st = self.state();
            if stream.0 <= 2 || st.streams.get(stream.0)?.special {
                return Err(SimError::InvalidHandle {
                    kind: ObjectKind::Stream,
                    raw: stream.0,
                    problem: HandleProblem::NotAllowed,
                });
            }
            let owned = self.m.rules.owned.destroy;
            st.check_owner(
                &self.m,
                c,
                EngineCall::DestroyStream.name(),
                owned,
                stream.0,
            )?;
            st.capture_stream_destroyed(&self.m, stream.0)?;
            let s = st.streams.remove(stream.0)?;
            st.holding.remove(&stream.0);
            let d = &mut st.devices[s.device as usize];
            if s.listed_unseen {
                d.unseen.remove(&stream.0);
            }
            if s.blocking() && s.seq > s.legacy_seen {
                d.retired.push(s.tail());
                d.retired_done.fold_finished(&mut d.retired);
            }
            // Its work a device synchronize has settled is summed up already.
            if s.listed_active {
                d.active.remove(&stream.0);
                d.orphans.push(s.tail());
                d.settled.fold_finished(&mut d.orphans);
            }
            if !s.held.is_empty() {
                // Work held behind a deferred wait still runs once its record is issued.
                st.zombies.push(s);
            }
            Ok(())
        })
    }

    /// Blocks until all work queued on `stream` has finished; reports the stream's fault if it has one. On the
    /// legacy default stream (CUDA's NULL stream, `cudaStreamLegacy`) it also waits for all earlier work of the
    /// device's blocking streams (not non-blocking ones), and the host acquires all of it.
    pub fn stream_synchronize(&self, stream: crate::Stream) -> Result<()> {
        self.call(EngineCall::StreamSynchronize.name(), |c| {
            self.sync_stream(c, stream, None)
        })
    }

    /// Like [`Process::stream_synchronize`], but gives up with [`SimError::Timeout`] once `timeout` of
    /// virtual time has passed (the host clock then stands at the call's time plus `timeout`).
    pub fn stream_synchronize_timeout(
        &self,
        stream: crate::Stream,
        timeout: std::time::Duration,
    ) -> Result<()> {
        self.call(EngineCall::StreamSynchronize.name(), |c| {
            self.sync_stream(c, stream, Some(timeout))
        })
    }

    fn sync_stream(
        &self,
        c: &mut Call,
        stream: crate::Stream,
        timeout: Option<std::time::Duration>,
    ) -> Result<()> {
        let what = EngineCall::StreamSynchronize.name();
        let (points, device, id, name) = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_stream_sync(&self.m, h, what)?;
            let points = st.covered(h)?;
            let s = st.streams.get(h)?;
            (points, s.device, s.id, s.name.clone())
        };
        let r = self.block_on_until(
            c,
            what,
            device,
            &points,
            crate::engine::exec::faults::Observe::Sync,
            timeout,
            || format!("stream_synchronize({})", StreamLabel(id, name.as_deref())),
        );
        self.pools_after_sync(c);
        r
    }

    /// Whether all work queued on `stream` has finished at the calling thread's virtual time. On the legacy
    /// default stream this covers the earlier work of the device's blocking streams too (as synchronize does).
    pub fn stream_query(&self, stream: crate::Stream) -> Result<Status> {
        self.call(EngineCall::StreamQuery.name(), |c| {
            let points = {
                let mut st = self.state();
                let h = st.resolve_stream(&self.m, c, stream.0)?;
                st.check_stream_sync(&self.m, h, EngineCall::StreamQuery.name())?;
                st.covered(h)?
            };
            self.settle_all(c, EngineCall::StreamQuery.name(), &points)
        })
    }

    /// A stream's flags.
    pub fn stream_flags(&self, stream: crate::Stream) -> Result<StreamFlags> {
        self.call(EngineCall::StreamFlags.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.flags)
        })
    }

    /// A stream's priority (after clamping).
    pub fn stream_priority(&self, stream: crate::Stream) -> Result<i32> {
        self.call(EngineCall::StreamPriority.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.priority)
        })
    }

    /// Sets what `stream` does after a fault (ACL `aclrtSetStreamFailureMode`): see [`FailureMode`]. Setting the
    /// mode the stream already has does nothing; `Stop` applies to every stream of the stream's context, from the
    /// next operation each one enqueues, and cannot be undone ([`SimError::NotSupported`], the vendor's "changing
    /// stream from stop mode to continue mode is not supported", `ApiImpl::StreamSetMode` of the runtime source).
    /// The stream must belong to the current context; only dialects whose rules let a program choose (ACL) accept it.
    pub fn set_stream_failure_mode(&self, stream: crate::Stream, mode: FailureMode) -> Result<()> {
        self.call(EngineCall::SetStreamFailureMode.name(), |c| {
            let what = EngineCall::SetStreamFailureMode.name();
            if !self.m.rules.settable_failure_mode || mode == FailureMode::Sticky {
                return Err(SimError::NotSupported {
                    what,
                    reason: format!(
                        "the {:?} dialect does not let a program choose the failure mode {mode:?}",
                        self.m.dialect
                    ),
                });
            }
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.attributes, h)?;
            let s = st.streams.get(h)?;
            if s.failure_mode == mode {
                return Ok(());
            }
            if s.failure_mode == FailureMode::Stop {
                return Err(SimError::NotSupported {
                    what,
                    reason: format!(
                        "{} is in the failure mode Stop, which cannot be undone",
                        s.id
                    ),
                });
            }
            let ctx = s.ctx;
            st.streams.get_mut(h)?.failure_mode = mode;
            // `Stop` is the context's: every stream of it is in the mode from its next operation on.
            if let Some(ctx) = ctx {
                st.contexts.get_mut(ctx)?.stop_on_failure = true;
                for (_, s) in st.streams.iter_mut() {
                    if s.ctx == Some(ctx) {
                        s.exec.stop_from(s.seq + 1);
                    }
                }
            } else {
                let s = st.streams.get_mut(h)?;
                s.exec.stop_from(s.seq + 1);
            }
            Ok(())
        })
    }

    /// The failure mode set on `stream` ([`Process::set_stream_failure_mode`]; the dialect's default if none was).
    pub fn stream_failure_mode(&self, stream: crate::Stream) -> Result<FailureMode> {
        self.call(EngineCall::StreamFailureMode.name(), |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.failure_mode)
        })
    }

    /// A stream's identity (for finding its operations in the trace). Does not advance the clock. Like a runtime
    /// call, it is [`SimError::NotPermitted`] inside a kernel body or host function (resolving the NULL stream
    /// may create it).
    pub fn stream_id(&self, stream: crate::Stream) -> Result<StreamId> {
        let c = self.probe("stream_id")?;
        let mut st = self.p.state.lock();
        let h = st.resolve_stream(&self.m, &c, stream.0)?;
        Ok(st.streams.get(h)?.id)
    }

    /// Blocks until all work of every stream of the current device in this process (from any host thread) has
    /// finished; reports the device's first fault.
    pub fn device_synchronize(&self) -> Result<()> {
        self.call(EngineCall::DeviceSynchronize.name(), |c| {
            self.sync_device(c, None)
        })
    }

    /// Like [`Process::device_synchronize`], but gives up with [`SimError::Timeout`] once `timeout` of virtual
    /// time has passed (ACL `aclrtSynchronizeDeviceWithTimeout`; the host clock then stands at the call's time plus
    /// `timeout`).
    pub fn device_synchronize_timeout(&self, timeout: std::time::Duration) -> Result<()> {
        self.call(EngineCall::DeviceSynchronize.name(), |c| {
            self.sync_device(c, Some(timeout))
        })
    }

    fn sync_device(&self, c: &mut Call, timeout: Option<std::time::Duration>) -> Result<()> {
        let what = EngineCall::DeviceSynchronize.name();
        let (device, work) = {
            let mut st = self.state();
            let (device, _) = st.current(&self.m, c, what)?;
            st.check_device_sync(&self.m, device, what)?;
            (device, st.device_tails(c.process, device))
        };
        let r = self
            .wait_points_until(c, what, &work.points, timeout, || {
                format!("device_synchronize({device})")
            })
            .and_then(|()| {
                // What it covered need not be covered point by point again (see `live.rs`).
                self.state().settle_device(device, &work);
                self.observe(
                    device,
                    &work.points,
                    crate::engine::exec::faults::Observe::Sync,
                )
            });
        self.pools_after_sync(c);
        r
    }

    /// Sets a stream's priority (ACL `aclrtSetStreamAttribute(ACL_STREAM_ATTR_PRIORITY)`), clamped to the
    /// device's range as at creation. It orders the stream's later releases of held operations against other
    /// streams' (the engine model, `docs/semantics/engine-model.md` · Priorities).
    pub fn set_stream_priority(&self, stream: crate::Stream, priority: i32) -> Result<()> {
        self.call(EngineCall::SetStreamPriority.name(), |c| {
            let what = EngineCall::SetStreamPriority.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            st.check_owner(&self.m, c, what, self.m.rules.owned.attributes, h)?;
            let s = st.streams.get_mut(h)?;
            let (least, greatest) = self.m.devices[s.device as usize].priority_range;
            s.priority = priority.clamp(greatest, least);
            Ok(())
        })
    }
}
