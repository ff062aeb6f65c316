//! The machine's IPC tables: exported events ([`Export`]) and exported memory with its mappings
//! ([`IpcMemTable`]). The calls that fill them are `events.rs` and `memory.rs`.

use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::events::config::EventConfig;
use crate::engine::events::state::EventState;
use crate::engine::memory::block::Block;
use crate::engine::observe::race::clock::VectorClock;
use parking_lot::Mutex;

/// An exported event, as the machine's IPC table keeps it.
pub(crate) struct Export {
    pub(super) process: ProcessId,
    pub(super) config: EventConfig,
    pub(super) state: Arc<Mutex<EventState>>,
}

/// An exported range of an allocation, as the machine's table keeps it.
#[derive(Debug)]
pub(crate) struct MemExport {
    pub(super) process: ProcessId,
    pub(super) block: Weak<Block>,
    /// The exported bytes: offset in the allocation, length.
    pub(super) range: (u64, u64),
    pub(super) pid_check: bool,
    pub(super) pids: Vec<u32>,
    /// The exporter closed it (ACL) or freed the allocation.
    pub(super) closed: bool,
    /// The exporting host thread's race-detection clock at the (first) export: an open joins it, since it
    /// happens after the export. The first, not a later one: an importer may hold the first handle, and a
    /// later clock could hide a race from it.
    pub(super) clock: Option<VectorClock>,
}

/// A mapping of an importing process.
#[derive(Debug)]
pub(super) struct MemMap {
    pub(super) ptr: DevicePtr,
    pub(super) refs: u32,
}

/// The machine's IPC memory: exports by handle, and the importing processes' mappings.
#[derive(Debug, Default)]
pub(crate) struct IpcMemTable {
    pub(super) exports: BTreeMap<[u8; 64], MemExport>,
    /// (importing process, its device at the open, handle) → the mapping.
    pub(super) maps: BTreeMap<(ProcessId, u32, [u8; 64]), MemMap>,
    pub(super) next: u32,
}

impl IpcMemTable {
    /// Marks the exports of the allocation `block` closed (it was freed): no new open.
    pub fn freed(&mut self, block: &Arc<Block>) {
        for x in self.exports.values_mut() {
            if x.block.upgrade().is_some_and(|b| Arc::ptr_eq(&b, block)) {
                x.closed = true;
            }
        }
        if let Some(sh) = block.store.shared.get() {
            sh.close_export();
        }
    }
}
