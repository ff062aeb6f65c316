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
//! | 28..64 | zero; on a shared host (`host/`): the exporting member's id (28..32), the run's epoch (32..40), the event's slot and its generation (40..48), the host's namespace (48..56), a check value keyed by the run's secret (56..64) |
//!
//! Bytes 0..24 depend on the seed and the exporting event only, so they are the same on every run of the same
//! program; bytes 24..64 are the only ones that differ between runs ([`IpcEventHandle::stable_bytes`] zeroes
//! them, for printing). Opening validates the handle against the machine's table of exported handles, then,
//! on a shared host, against the host: zeroed or forged bytes, handles of another machine, of another shared
//! host or of an earlier run are rejected, and so is a handle of another OS process whose machine (or this
//! one) is not on a shared host — its OS process id differs even when the rest of its bytes equal a local
//! export. A handle of another live OS process of the shared host opens: the event's records are shared
//! through the host (`host/events.rs`).

use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{IpcProblem, Result, SimError};
use crate::engine::core::handle::{Event, EventId};
use crate::engine::events::state::EventState;
use crate::engine::ipc::tables::Export;
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

    /// Where a handle of a shared host says the export lives on the host (member, epoch, slot, check value):
    /// bytes that differ between runs too (zero for a machine not on a shared host).
    pub const HOST_BYTES: std::ops::Range<usize> = 28..64;

    /// The bytes with the OS process id and the host bytes zeroed: the same on every run of the same program
    /// with the same seed (what to print or compare; opening needs the full bytes).
    pub fn stable_bytes(&self) -> [u8; 64] {
        let mut b = self.0;
        b[Self::OS_PROCESS_BYTES].fill(0);
        b[Self::HOST_BYTES].fill(0);
        b
    }
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
    let check = crate::engine::core::rng::mix(
        seed ^ (u64::from(id.process.0) << 32 | u64::from(id.ordinal)),
    );
    b[16..24].copy_from_slice(&check.to_le_bytes());
    b[IpcEventHandle::OS_PROCESS_BYTES].copy_from_slice(&std::process::id().to_le_bytes());
    b
}

/// Where a handle of a shared host says its export is: bytes 28..64 (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HostRef {
    pub member: u32,
    pub epoch: u64,
    pub slot: u32,
    pub generation_: u32,
    pub namespace: u64,
}

/// Writes `r` into bytes 28..64 of `b`, with a check value keyed by the run's secret over bytes 0..56.
pub(crate) fn put_host_ref(b: &mut [u8; 64], r: HostRef, secret: u64) {
    b[28..32].copy_from_slice(&r.member.to_le_bytes());
    b[32..40].copy_from_slice(&r.epoch.to_le_bytes());
    b[40..44].copy_from_slice(&r.slot.to_le_bytes());
    b[44..48].copy_from_slice(&r.generation_.to_le_bytes());
    b[48..56].copy_from_slice(&r.namespace.to_le_bytes());
    let mac = host_mac(b, secret);
    b[56..64].copy_from_slice(&mac.to_le_bytes());
}

fn host_mac(b: &[u8; 64], secret: u64) -> u64 {
    crate::engine::core::rng::mix(crate::engine::host::hash(&b[..56]) ^ secret)
}

/// Reads bytes 28..64 of a handle: `None` if they are all zero (a handle of an unshared machine).
pub(crate) fn host_ref(b: &[u8; 64]) -> Option<HostRef> {
    if b[28..64].iter().all(|&x| x == 0) {
        return None;
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let u64_at = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        u64::from_le_bytes(w)
    };
    Some(HostRef {
        member: u32_at(28),
        epoch: u64_at(32),
        slot: u32_at(40),
        generation_: u32_at(44),
        namespace: u64_at(48),
    })
}

/// Checks a handle of a shared host against this machine's link: its host, its run, its check value. The
/// reference, or why not.
pub(crate) fn check_host_ref(
    b: &[u8; 64],
    link: &crate::engine::host::HostLink,
) -> std::result::Result<HostRef, IpcProblem> {
    let r = host_ref(b).ok_or(IpcProblem::InvalidHandle)?;
    if r.namespace != link.namespace {
        return Err(IpcProblem::OtherHost);
    }
    if r.epoch != link.epoch {
        return Err(IpcProblem::StaleHandle);
    }
    let mac = u64::from_le_bytes(b[56..64].try_into().expect("8 bytes"));
    if mac != host_mac(b, link.secret) {
        return Err(IpcProblem::InvalidHandle);
    }
    Ok(r)
}

/// The error of an open of `b` that this machine's table does not have: another OS process's handle of an
/// unshared machine, a handle of a shared host opened on an unshared machine, or forged bytes.
pub(crate) fn not_local(what: &'static str, b: &[u8; 64], shared: bool) -> SimError {
    let pid = u32::from_le_bytes([b[24], b[25], b[26], b[27]]);
    let foreign = &b[..8] == MAGIC || &b[..8] == crate::engine::ipc::memory::MEM_MAGIC;
    // On a machine that is not shared, a handle of another OS process cannot be told from a forged one.
    let problem = if shared && foreign && pid != std::process::id() && host_ref(b).is_none() {
        IpcProblem::ForeignUnshared
    } else {
        IpcProblem::InvalidHandle
    };
    SimError::Ipc { what, problem }
}

impl Process {
    /// Exports an interprocess event's handle.
    pub fn ipc_get_event_handle(&self, event: Event) -> Result<IpcEventHandle> {
        self.call(EngineCall::IpcGetEventHandle.name(), |_| {
            self.m.check_not_forked()?;
            let st = self.state();
            let e = st.events.get(event.0)?;
            if !e.config.interprocess {
                return Err(SimError::Ipc {
                    what: EngineCall::IpcGetEventHandle.name(),
                    problem: IpcProblem::NotInterprocess,
                });
            }
            let mut bytes = encode(self.m.seed, e.id);
            if let Some(link) = self.m.host_link() {
                let link = link?;
                let mut es = e.state.lock();
                if es.shared.is_none() {
                    let sh = crate::engine::host::events::SharedEvent::export(
                        &link,
                        &e.config,
                        self.m.device_count(),
                    )?;
                    // A record made before the export is the event's latest for the other processes too.
                    if let Some(p) = es.latest.clone() {
                        crate::engine::host::events::attach(&link, &p.exec)?;
                        if let Some(progress) = p.exec.remote.get() {
                            sh.publish(progress, p.exec.id, p.seq, p.time(), p.vc(), es.generation);
                        }
                    }
                    es.shared = Some(Arc::new(sh));
                }
                let sh = es.shared.as_ref().expect("set above");
                put_host_ref(
                    &mut bytes,
                    HostRef {
                        member: link.uid,
                        epoch: link.epoch,
                        slot: sh.slot,
                        generation_: sh.generation_,
                        namespace: link.namespace,
                    },
                    link.secret,
                );
            }
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
        self.call(EngineCall::IpcOpenEventHandle.name(), |c| {
            let what = EngineCall::IpcOpenEventHandle.name();
            self.m.check_not_forked()?;
            let (config, state) = {
                let table = self.m.ipc.lock();
                let Some(x) = table.get(&handle.0) else {
                    drop(table);
                    return self.open_foreign_event(c, handle);
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

    /// Opens an event exported by another OS process of the shared host.
    fn open_foreign_event(
        &self,
        c: &crate::engine::process::Call,
        handle: &IpcEventHandle,
    ) -> Result<Event> {
        let what = EngineCall::IpcOpenEventHandle.name();
        let b = &handle.0;
        let (Some(link), true) = (self.m.host_link(), &b[..8] == MAGIC) else {
            return Err(not_local(what, b, self.m.shared_host.is_some()));
        };
        let link = link?;
        let r = check_host_ref(b, &link).map_err(|problem| SimError::Ipc { what, problem })?;
        if r.member == link.uid {
            // This machine's own export, no longer in its table: the event is gone.
            return Err(SimError::Ipc {
                what,
                problem: IpcProblem::ExportGone,
            });
        }
        let (sh, config) = crate::engine::host::events::SharedEvent::open(
            &link,
            r.slot,
            r.generation_,
            self.m.device_count(),
        )
        .map_err(|problem| SimError::Ipc { what, problem })?;
        let state = Arc::new(Mutex::new(EventState {
            shared: Some(Arc::new(sh)),
            ..EventState::default()
        }));
        let mut st = self.state();
        let at = st.current(&self.m, c, what)?;
        st.add_event(c.process, at, config, state)
    }
}
