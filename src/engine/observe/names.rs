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

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{Event, EventId, Stream, StreamId};
use crate::engine::core::time::VirtualTime;
use crate::engine::process::{Call, Process};

/// A stream as reports and labels write it: `stream \`name\`` if it has a name, else its id's text
/// (`stream 2`, `default stream of device 0`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StreamLabel<'a>(pub StreamId, pub Option<&'a str>);

impl fmt::Display for StreamLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(name) => write!(f, "stream `{name}`"),
            None => write!(f, "{}", self.0),
        }
    }
}

/// An event as reports and labels write it: `event \`name\`` if it has a name, else `event 3`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventLabel<'a>(pub EventId, pub Option<&'a str>);

impl fmt::Display for EventLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(name) => write!(f, "event `{name}`"),
            None => write!(f, "event {}", self.0),
        }
    }
}

/// What an event operation does, as its label says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventVerb {
    Record,
    Wait,
    Reset,
}

/// An operation's label as it travels to the worker and the trace, made into text only when it is read: a
/// record's or a wait's label (`record event 3`, ``wait event `done` ``) is the event's id and the name it has
/// at the call (the `Arc` the event's entry keeps), so that those calls format nothing. A record needs nothing
/// else: its label says what it is (see [`Label::record_of`]).
#[derive(Debug, Clone)]
pub(crate) enum Label {
    Text(Cow<'static, str>),
    Event {
        verb: EventVerb,
        id: EventId,
        name: Option<Arc<str>>,
    },
}

impl Label {
    /// The text, as the trace and messages show it.
    pub fn text(&self) -> Cow<'static, str> {
        match self {
            Label::Text(t) => t.clone(),
            Label::Event { .. } => Cow::Owned(self.to_string()),
        }
    }

    /// The event a record's label names (`None`: not a record).
    pub fn record_of(&self) -> Option<EventId> {
        match self {
            Label::Event {
                verb: EventVerb::Record,
                id,
                ..
            } => Some(*id),
            _ => None,
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Text(t) => f.write_str(t),
            Label::Event { verb, id, name } => {
                let verb = match verb {
                    EventVerb::Record => "record",
                    EventVerb::Wait => "wait",
                    EventVerb::Reset => "reset",
                };
                write!(f, "{verb} {}", EventLabel(*id, name.as_deref()))
            }
        }
    }
}

impl From<Cow<'static, str>> for Label {
    fn from(t: Cow<'static, str>) -> Label {
        Label::Text(t)
    }
}

impl From<&'static str> for Label {
    fn from(t: &'static str) -> Label {
        Label::Text(Cow::Borrowed(t))
    }
}

impl From<String> for Label {
    fn from(t: String) -> Label {
        Label::Text(Cow::Owned(t))
    }
}

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
        if crate::engine::process::on_worker_thread() {
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
