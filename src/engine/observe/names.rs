//! Names a program gives its streams and events ([`Process::name_stream`], [`Process::name_event`]), so that
//! race reports, the trace, the Chrome export and the timeline show `stream \`copy\`` and `event \`done\``
//! instead of `stream 2` and `event 3` — what NVTX's resource naming (`nvtxNameCudaStreamA`,
//! <https://docs.nvidia.com/gameworks/content/gameworkslibrary/nvtx/nvtx_resource_naming.htm>) does for
//! NVIDIA's profilers.
//!
//! A name is an `Arc<str>` kept in the stream's or event's registry entry; race reports and the stream's
//! cached race-detection identity share it, so naming costs one allocation when it is given and nothing per
//! operation. It goes with its stream or event when that is destroyed. With tracing on, the trace also keeps
//! it (in [`Trace::names`](crate::Trace::names)), for the operations of the stream or event it already holds.

use std::sync::Arc;

use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Event, Stream};
use crate::engine::core::time::VirtualTime;
use crate::engine::process::{Call, Process};

/// A name as kept: `None` for the empty string (no name).
fn kept(name: &str) -> Option<Arc<str>> {
    (!name.is_empty()).then(|| Arc::from(name))
}

/// Names.
impl Process {
    /// Gives `stream` a name for race reports, the trace, the Chrome export and the timeline (`stream
    /// \`copy\``); the empty string removes it. [`Stream::DEFAULT`] and the other special handles name the
    /// stream they stand for on the calling thread (which may create it, as its first use would). Not a
    /// runtime call: the clock does not move. Like one, it is [`SimError::NotPermitted`] inside a kernel body
    /// or host function.
    pub fn name_stream(&self, stream: Stream, name: &str) -> Result<()> {
        let c = self.probe("name_stream")?;
        let name = kept(name);
        let mut st = self.p.state.lock();
        let h = st.resolve_stream(&self.m, &c, stream.0)?;
        let s = st.streams.get_mut(h)?;
        let id = s.id;
        s.name = name.clone();
        // The race-detection identity the stream keeps carries the old name.
        s.last_who = None;
        drop(st);
        if self.m.trace_on {
            let mut names = self.m.trace_names.lock();
            match name {
                Some(n) => names.streams.insert(id, n),
                None => names.streams.remove(&id),
            };
        }
        Ok(())
    }

    /// Gives `event` a name for race reports, the trace, the Chrome export and the timeline (`event
    /// \`done\``); the empty string removes it. An event opened from an IPC handle is the opener's own: its
    /// name is not the exporter's. Not a runtime call: the clock does not move.
    pub fn name_event(&self, event: Event, name: &str) -> Result<()> {
        self.probe("name_event")?;
        let name = kept(name);
        let mut st = self.p.state.lock();
        let e = st.events.get_mut(event.0)?;
        let id = e.id;
        e.name = name.clone();
        drop(st);
        if self.m.trace_on {
            let mut names = self.m.trace_names.lock();
            match name {
                Some(n) => names.events.insert(id, n),
                None => names.events.remove(&id),
            };
        }
        Ok(())
    }

    /// The name given to `stream` with [`Process::name_stream`], if any. Does not advance the clock.
    pub fn stream_name(&self, stream: Stream) -> Result<Option<Arc<str>>> {
        let c = self.probe("stream_name")?;
        let mut st = self.p.state.lock();
        let h = st.resolve_stream(&self.m, &c, stream.0)?;
        Ok(st.streams.get(h)?.name.clone())
    }

    /// The name given to `event` with [`Process::name_event`], if any. Does not advance the clock.
    pub fn event_name(&self, event: Event) -> Result<Option<Arc<str>>> {
        Ok(self.state().events.get(event.0)?.name.clone())
    }

    /// The calling thread's state as a call would see it, without advancing its clock (for accessors that
    /// resolve the special stream handles); [`SimError::NotPermitted`] on a stream worker.
    pub(crate) fn probe(&self, what: &'static str) -> Result<Call> {
        if crate::engine::exec::workers::on_worker_thread() {
            return Err(SimError::NotPermitted { what });
        }
        let (thread, device, ctx) = self.thread_identity();
        Ok(Call {
            process: self.p.id,
            thread,
            device,
            ctx,
            now: VirtualTime::ZERO,
            clock: VirtualTime::ZERO,
        })
    }
}
