//! IPC events: an interprocess event exports a 64-byte handle that another simulated process on the same
//! machine opens. The opened event is an event of the opener on the opener's current device (and, in ACL, its
//! current context) at the open — "it behaves like a locally created event" (CUDA), `IpcEvent(dev, …, curCtx)`
//! (the CANN runtime's `IpcOpenEventHandle`) — and shares the exporter's record state: a record issued in any
//! of the processes is the event's newest record for all of them, and record, wait, query and synchronize
//! work in each; elapsed time never does (interprocess events have no timing). A record releases the
//! recording stream's race-detection clock and a wait acquires it, whichever process made either, so
//! happens-before edges flow through IPC events as through local ones.
//!
//! The handle is opaque. Its layout (what `encode` writes):
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | the magic `SSIMIPC1` |
//! | 8..12 | the exporting process's id (little-endian) |
//! | 12..16 | the exporting event's ordinal (little-endian) |
//! | 16..24 | a check value derived from the machine seed, the process and the event |
//! | 24..28 | the exporting OS process's id (little-endian): [`IpcEventHandle::OS_PROCESS_BYTES`] |
//! | 28..64 | zero |
//!
//! Bytes 0..24 depend on the seed and the exporting event only, so they are the same on every run of the same
//! program; bytes 24..28 are the only ones that differ between runs ([`IpcEventHandle::stable_bytes`] zeroes
//! them, for printing). Opening validates the handle against the machine's table of exported handles: zeroed
//! or forged bytes, handles of another machine, and handles of another OS process (IPC between OS processes is
//! not simulated) — whose OS process id differs even when the rest of their bytes equal a local export — are
//! rejected.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::error::{IpcProblem, Result, SimError};
use crate::engine::event::{EventConfig, EventState};
use crate::engine::handle::{Event, EventId, ProcessId};
use crate::engine::process::Process;

/// The 64 opaque bytes of an exported interprocess event (`cudaIpcEventHandle_t`, `aclrtIpcEventHandle`).
///
/// Bytes [`IpcEventHandle::OS_PROCESS_BYTES`] hold the exporting OS process's id; every other byte depends
/// only on the machine seed and the exporting event, so [`IpcEventHandle::stable_bytes`] is identical on
/// every run of the same program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpcEventHandle(pub [u8; 64]);

impl IpcEventHandle {
    /// Where the exporting OS process's id is (a little-endian `u32`): the only bytes of a handle that differ
    /// between runs of the same program.
    pub const OS_PROCESS_BYTES: std::ops::Range<usize> = 24..28;

    /// The bytes with the OS process id zeroed: the same on every run of the same program with the same seed
    /// (what to print or compare; opening needs the full bytes).
    pub fn stable_bytes(&self) -> [u8; 64] {
        let mut b = self.0;
        b[Self::OS_PROCESS_BYTES].fill(0);
        b
    }
}

/// An exported event, as the machine's IPC table keeps it.
pub(crate) struct Export {
    process: ProcessId,
    config: EventConfig,
    state: Arc<Mutex<EventState>>,
}

const MAGIC: &[u8; 8] = b"SSIMIPC1";

/// The handle's bytes (layout in the module documentation). The OS process id is kept apart from the rest,
/// so that a handle copied from another OS process never matches an export of this one — even when that other
/// process ran the same program with the same seed — while every other byte stays the same between runs.
fn encode(seed: u64, id: EventId) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[..8].copy_from_slice(MAGIC);
    b[8..12].copy_from_slice(&id.process.0.to_le_bytes());
    b[12..16].copy_from_slice(&id.ordinal.to_le_bytes());
    let check =
        crate::engine::rng::mix(seed ^ (u64::from(id.process.0) << 32 | u64::from(id.ordinal)));
    b[16..24].copy_from_slice(&check.to_le_bytes());
    b[IpcEventHandle::OS_PROCESS_BYTES].copy_from_slice(&std::process::id().to_le_bytes());
    b
}

impl Process {
    /// Exports an interprocess event's handle.
    pub fn ipc_get_event_handle(&self, event: Event) -> Result<IpcEventHandle> {
        self.call("ipc_get_event_handle", |_| {
            let st = self.state();
            let e = st.events.get(event.0)?;
            if !e.config.interprocess {
                return Err(SimError::Ipc {
                    what: "ipc_get_event_handle",
                    problem: IpcProblem::NotInterprocess,
                });
            }
            let bytes = encode(self.m.seed, e.id);
            self.m.ipc.lock().entry(bytes).or_insert_with(|| Export {
                process: self.p.id,
                config: e.config,
                state: e.state.clone(),
            });
            Ok(IpcEventHandle(bytes))
        })
    }

    /// Opens an event exported by another process of this machine. The result is a handle of this process, on
    /// the calling thread's current device (and context) — the opener's, not the exporter's — sharing the
    /// exported event's records; it is freed with [`Process::destroy_event`]. Without a current context (ACL)
    /// the open fails with [`SimError::NoContext`].
    pub fn ipc_open_event_handle(&self, handle: &IpcEventHandle) -> Result<Event> {
        self.call("ipc_open_event_handle", |c| {
            let what = "ipc_open_event_handle";
            let (config, state) = {
                let table = self.m.ipc.lock();
                let Some(x) = table.get(&handle.0) else {
                    return Err(SimError::Ipc {
                        what,
                        problem: IpcProblem::InvalidHandle,
                    });
                };
                if x.process == self.p.id {
                    return Err(SimError::Ipc {
                        what,
                        problem: IpcProblem::SameProcess,
                    });
                }
                (x.config, x.state.clone())
            };
            let mut st = self.state();
            let at = st.current(&self.m, c, what)?;
            st.add_event(c.process, at, config, state)
        })
    }
}
