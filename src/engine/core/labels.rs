//! Labels: how reports, the trace and messages write a stream, an event and an operation (`stream \`copy\``,
//! `event 3`, a kernel's name), with the names a program gave them (see `observe/names.rs`).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::engine::core::handle::{EventId, StreamId};

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
