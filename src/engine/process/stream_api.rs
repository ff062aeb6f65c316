//! The stream calls of [`Process`]: create (with a priority), destroy, synchronize (with a timeout), query,
//! flags, priority and identity; and device synchronize.

use super::{Call, Process, Status, StreamFlags};
use crate::engine::error::{HandleProblem, ObjectKind, Result, SimError};
use crate::engine::handle::StreamId;
use crate::engine::names::StreamLabel;
use crate::engine::time::VirtualTime;

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
        self.call("create_stream", |c| {
            if flags.0 & !1 != 0 {
                return Err(SimError::InvalidFlags {
                    what: "create_stream",
                    flags: flags.0,
                    reason: "only NON_BLOCKING (0x1) is defined",
                });
            }
            let mut st = self.state();
            let (device, ctx) = st.current(&self.m, c, "create_stream")?;
            let (least, greatest) = self.m.devices[device as usize].priority_range;
            let priority = priority.clamp(greatest, least);
            let h = st.new_stream(&self.m, c.process, (device, ctx), None, flags, priority)?;
            Ok(crate::Stream(h))
        })
    }

    /// Destroys a stream. Work already queued still completes; the handle is dead at once.
    pub fn destroy_stream(&self, stream: crate::Stream) -> Result<()> {
        self.call("destroy_stream", |c| {
            let mut st = self.state();
            if stream.0 <= 2 || st.streams.get(stream.0)?.special {
                return Err(SimError::InvalidHandle {
                    kind: ObjectKind::Stream,
                    raw: stream.0,
                    problem: HandleProblem::NotAllowed,
                });
            }
            let owned = self.m.rules.owned.destroy;
            st.check_owner(&self.m, c, "destroy_stream", owned, stream.0)?;
            let s = st.streams.remove(stream.0)?;
            if s.blocking() && s.seq > s.legacy_seen {
                st.devices[s.device as usize].retired.push(s.tail());
            }
            if s.seq > 0 {
                st.devices[s.device as usize].orphans.push(s.tail());
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
        self.call("stream_synchronize", |c| self.sync_stream(c, stream, None))
    }

    /// Like [`Process::stream_synchronize`], but gives up with [`SimError::Timeout`] once `timeout` of
    /// virtual time has passed (the host clock then stands at the call's time plus `timeout`).
    pub fn stream_synchronize_timeout(
        &self,
        stream: crate::Stream,
        timeout: std::time::Duration,
    ) -> Result<()> {
        self.call("stream_synchronize", |c| {
            self.sync_stream(c, stream, Some(timeout))
        })
    }

    fn sync_stream(
        &self,
        c: &mut Call,
        stream: crate::Stream,
        timeout: Option<std::time::Duration>,
    ) -> Result<()> {
        let what = "stream_synchronize";
        let (points, device, id, name) = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let points = st.covered(h)?;
            let s = st.streams.get(h)?;
            (points, s.device, s.id, s.name.clone())
        };
        // The latest of the covered points' times, or none if one is not fixed yet.
        let done = points
            .iter()
            .try_fold(VirtualTime::ZERO, |t, p| p.time().map(|pt| t.max(pt)));
        crate::engine::event::check_timeout(c, what, done, timeout)?;
        self.block_on(c, what, device, &points, || {
            format!("stream_synchronize({})", StreamLabel(id, name.as_deref()))
        })
    }

    /// Whether all work queued on `stream` has finished at the calling thread's virtual time. On the legacy
    /// default stream this covers the earlier work of the device's blocking streams too (as synchronize does).
    pub fn stream_query(&self, stream: crate::Stream) -> Result<Status> {
        self.call("stream_query", |c| {
            let points = {
                let mut st = self.state();
                let h = st.resolve_stream(&self.m, c, stream.0)?;
                st.covered(h)?
            };
            self.settle_all(c, &points)
        })
    }

    /// A stream's flags.
    pub fn stream_flags(&self, stream: crate::Stream) -> Result<StreamFlags> {
        self.call("stream_flags", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.flags)
        })
    }

    /// A stream's priority (after clamping).
    pub fn stream_priority(&self, stream: crate::Stream) -> Result<i32> {
        self.call("stream_priority", |c| {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            Ok(st.streams.get(h)?.priority)
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
        self.call("device_synchronize", |c| {
            let (device, points) = {
                let mut st = self.state();
                let (device, _) = st.current(&self.m, c, "device_synchronize")?;
                (device, st.device_tails(device, c.now))
            };
            self.block_on(c, "device_synchronize", device, &points, || {
                format!("device_synchronize({device})")
            })
        })
    }
}
