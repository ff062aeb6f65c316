//! A notify's state: the record no wait has claimed yet and the waits issued before their record.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::engine::core::handle::NotifyId;
use crate::engine::exec::gate::Slot;
use crate::engine::exec::point::Point;

/// A notify of a process: its device and context, and its pairing state.
pub(crate) struct NotifyEntry {
    pub id: NotifyId,
    /// The device it was created on (a reset of that device frees it).
    pub device: u32,
    /// The record no wait has claimed yet.
    pub(super) unclaimed: Option<Point>,
    /// Waits issued before their record, in order.
    pub(super) waiters: VecDeque<Arc<Slot>>,
}
