//! An event's record state, shared between the processes that opened it through IPC.

use std::sync::Arc;

use crate::engine::exec::point::Point;

/// An event's record state (shared between processes for IPC events).
#[derive(Debug, Default)]
pub(crate) struct EventState {
    /// The latest record made in this OS process.
    pub latest: Option<Point>,
    /// How many records have been issued here (a deferred wait waits for the next one).
    pub generation: u64,
    /// The event's slot on the shared host once exported or opened there (`host/events.rs`): its latest
    /// record may come from another OS process.
    pub shared: Option<Arc<crate::engine::host::events::SharedEvent>>,
}

impl EventState {
    /// The event's newest record, wherever it was made: the local one, or a record of another OS process of
    /// the shared host (its time, if not fixed yet, read as zero: see [`Process::settle_shared`]).
    pub fn newest(&self) -> Option<Point> {
        let Some(sh) = &self.shared else {
            return self.latest.clone();
        };
        match sh.latest() {
            Some(l) if l.member_uid != sh.link.uid => Some(sh.point(&l)),
            _ => self.latest.clone(),
        }
    }
}
