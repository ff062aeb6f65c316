//! IPC memory: device memory exported by one process and mapped by others (`cudaIpcGetMemHandle` /
//! `cudaIpcOpenMemHandle` / `cudaIpcCloseMemHandle`, ACL's `aclrtIpcMemGetExportKey` / `…SetImportPid` /
//! `…ImportByKey` / `…Close`).
//!
//! An importing process gets a mapping: a block at an address of its own in the memory's device range whose
//! bytes *are* the exported allocation's (the two blocks share one `Store`), so a write in one process is read
//! by the other after the right wait, and one shadow sees both for race detection. Between simulated
//! processes of one machine the store is shared directly; between OS processes of a shared host the bytes move
//! into a shared-memory object at the export, and the import maps that object (`host/shared_mem.rs`).
//!
//! The rules (docs/semantics/ipc-between-processes.md has each with its source):
//! - opening in the exporting process is refused ([`IpcProblem::SameProcess`]);
//! - one mapping per importing process and device: opening again returns the same pointer and counts a
//!   reference; the close of the last reference unmaps it;
//! - a mapping is not an allocation: freeing it is refused, closing it is the way;
//! - the exporter may free the allocation while importers map it (CUDA calls it undefined; "sim": the
//!   importers' bytes stay valid until they close), and from then on the handle opens nowhere;
//! - ACL's allow list: an export made with pid validation opens only in the OS processes listed with
//!   `aclrtIpcMemSetImportPid` ([`IpcProblem::NotAllowed`]).
//!
//! # The handle
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | `SSIMIPM1` |
//! | 8..10 | the exporting (simulated) process, low 16 bits |
//! | 10..14 | the export's number on the machine |
//! | 14..18 | a check value of the seed, the process and the number |
//! | 18..22 | the exporting OS process's id: [`IpcMemHandle::OS_PROCESS_BYTES`] |
//! | 22..50 | zero; on a shared host: the exporting member (22..24), the run's epoch (24..32), the slot (32..34) and its generation (34..38), the host's namespace (38..42), a check value keyed by the run's secret (42..50): [`IpcMemHandle::HOST_BYTES`] |
//! | 50..64 | zero |
//!
//! ACL's key is the text form of bytes 8..50 ([`IpcMemHandle::key`]): 56 characters of URL-safe base64, so
//! with its NUL it fits the 65 bytes the CANN docs give the key.

use std::sync::Arc;

use crate::engine::core::error::{IpcProblem, Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::ipc::tables::IpcMemTable;
use crate::engine::ipc::tables::MemExport;
use crate::engine::ipc::tables::MemMap;
use crate::engine::memory::block::{Backing, Store};
use crate::engine::observe::race::clock::VectorClock;
use crate::engine::process::Process;

/// The first bytes of a memory handle.
pub(crate) const MEM_MAGIC: &[u8; 8] = b"SSIMIPM1";

/// The 64 opaque bytes of exported device memory (`cudaIpcMemHandle_t`; ACL's key is their text form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IpcMemHandle(pub [u8; 64]);

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl IpcMemHandle {
    /// Where the exporting OS process's id is (little-endian `u32`): bytes that differ between runs.
    pub const OS_PROCESS_BYTES: std::ops::Range<usize> = 18..22;
    /// Where a handle of a shared host says the export lives on the host: bytes that differ between runs too.
    pub const HOST_BYTES: std::ops::Range<usize> = 22..50;
    /// How long ACL's key is, without its NUL.
    pub const KEY_LEN: usize = 56;

    /// The bytes with the OS process id and the host bytes zeroed: the same on every run of the same program.
    pub fn stable_bytes(&self) -> [u8; 64] {
        let mut b = self.0;
        b[Self::OS_PROCESS_BYTES].fill(0);
        b[Self::HOST_BYTES].fill(0);
        b
    }

    /// The handle as ACL's key: bytes 8..50 in URL-safe base64 ([`IpcMemHandle::KEY_LEN`] characters).
    pub fn key(&self) -> String {
        let mut out = String::with_capacity(Self::KEY_LEN);
        for c in self.0[8..50].chunks(3) {
            let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
            for i in (0..4).rev() {
                out.push(B64[(n >> (6 * i) & 63) as usize] as char);
            }
        }
        out
    }

    /// The handle whose key is `key`, if it is one (any other text: `None`).
    pub fn from_key(key: &str) -> Option<IpcMemHandle> {
        let k = key.as_bytes();
        if k.len() != Self::KEY_LEN {
            return None;
        }
        let mut b = [0u8; 64];
        b[..8].copy_from_slice(MEM_MAGIC);
        for (i, quad) in k.chunks(4).enumerate() {
            let mut n = 0u32;
            for &ch in quad {
                n = n << 6 | B64.iter().position(|&x| x == ch)? as u32;
            }
            b[8 + 3 * i..11 + 3 * i].copy_from_slice(&n.to_be_bytes()[1..]);
        }
        Some(IpcMemHandle(b))
    }
}

/// How many exports the table keeps before it forgets those whose allocation is gone.
const REMEMBERED: usize = 1024;

fn encode(seed: u64, process: ProcessId, number: u32) -> [u8; 64] {
    let mut b = [0u8; 64];
    b[..8].copy_from_slice(MEM_MAGIC);
    b[8..10].copy_from_slice(&(process.0 as u16).to_le_bytes());
    b[10..14].copy_from_slice(&number.to_le_bytes());
    let check = crate::engine::core::rng::mix(
        seed ^ 0x4d45_4d00_0000_0000 ^ (u64::from(process.0) << 32 | u64::from(number)),
    );
    b[14..18].copy_from_slice(&(check as u32).to_le_bytes());
    b[IpcMemHandle::OS_PROCESS_BYTES].copy_from_slice(&std::process::id().to_le_bytes());
    b
}

/// Where a memory handle of a shared host says its export is.
#[derive(Debug, Clone, Copy)]
struct MemRef {
    member: u32,
    slot: u32,
    generation_: u32,
}

fn host_mac(b: &[u8; 64], secret: u64) -> u64 {
    crate::engine::core::rng::mix(crate::engine::host::hash(&b[..42]) ^ secret)
}

fn put_mem_ref(b: &mut [u8; 64], r: MemRef, link: &crate::engine::host::HostLink) {
    b[22..24].copy_from_slice(&(r.member as u16).to_le_bytes());
    b[24..32].copy_from_slice(&link.epoch.to_le_bytes());
    b[32..34].copy_from_slice(&(r.slot as u16).to_le_bytes());
    b[34..38].copy_from_slice(&r.generation_.to_le_bytes());
    b[38..42].copy_from_slice(&(link.namespace as u32).to_le_bytes());
    let mac = host_mac(b, link.secret);
    b[42..50].copy_from_slice(&mac.to_le_bytes());
}

fn has_host_part(b: &[u8; 64]) -> bool {
    b[IpcMemHandle::HOST_BYTES].iter().any(|&x| x != 0)
}

/// Checks a memory handle of a shared host against this machine's link.
fn check_mem_ref(
    b: &[u8; 64],
    link: &crate::engine::host::HostLink,
) -> std::result::Result<MemRef, IpcProblem> {
    if !has_host_part(b) {
        return Err(IpcProblem::InvalidHandle);
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let u16_at = |i: usize| u32::from(u16::from_le_bytes([b[i], b[i + 1]]));
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
    if u32_at(38) != link.namespace as u32 {
        return Err(IpcProblem::OtherHost);
    }
    if u64_at(24) != link.epoch {
        return Err(IpcProblem::StaleHandle);
    }
    if u64_at(42) != host_mac(b, link.secret) {
        return Err(IpcProblem::InvalidHandle);
    }
    Ok(MemRef {
        member: u16_at(22),
        slot: u16_at(32),
        generation_: u32_at(34),
    })
}

impl Process {
    /// Exports the device allocation holding `ptr` (`cudaIpcGetMemHandle`: the whole allocation). Exporting
    /// the same allocation again gives the same handle.
    pub fn ipc_get_mem_handle(&self, ptr: DevicePtr) -> Result<IpcMemHandle> {
        self.export_mem("ipc_get_mem_handle", ptr, None, false)
    }

    /// Exports `bytes` bytes of device memory from `ptr` (ACL `aclrtIpcMemGetExportKey`), with or without the
    /// importing-pid allow list (`pid_check`).
    pub fn ipc_export_mem(
        &self,
        ptr: DevicePtr,
        bytes: u64,
        pid_check: bool,
    ) -> Result<IpcMemHandle> {
        self.export_mem("ipc_export_mem", ptr, Some(bytes), pid_check)
    }

    fn export_mem(
        &self,
        what: &'static str,
        ptr: DevicePtr,
        bytes: Option<u64>,
        pid_check: bool,
    ) -> Result<IpcMemHandle> {
        self.call(what, |c| {
            self.m.check_not_forked()?;
            let region = self
                .m
                .memory
                .device_region(what, ptr, bytes.unwrap_or(1).max(1), c.process)?;
            let block = region.block.clone();
            let clock = self.state().host_clock(&self.m, c.thread);
            if block.mapping {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!("{ptr} is an IPC mapping of another process's memory, not an allocation of this one"),
                });
            }
            if block.pooled() {
                // cudaIpcGetMemHandle takes "an existing device memory allocation previously allocated by
                // cudaMalloc"; pool memory is shared through IPC pools, which are not simulated.
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "{ptr} is memory of a memory pool (cudaMallocAsync): IPC memory pools are not simulated"
                    ),
                });
            }
            let range = match bytes {
                Some(n) => (region.offset, n),
                None => (0, block.len),
            };
            if range.1 == 0 {
                return Err(SimError::InvalidValue {
                    what,
                    reason: "size 0".into(),
                });
            }
            let mut table = self.m.ipc_mem.lock();
            if let Some((h, _)) = table.exports.iter().find(|(_, x)| {
                x.process == c.process
                    && !x.closed
                    && x.range == range
                    && x.pid_check == pid_check
                    && x.block.upgrade().is_some_and(|b| Arc::ptr_eq(&b, &block))
            }) {
                return Ok(IpcMemHandle(*h));
            }
            if table.exports.len() >= REMEMBERED {
                // Exports of allocations that are gone are forgotten past the bound (their handles are then
                // refused as unknown rather than as gone).
                table.exports.retain(|_, x| x.block.strong_count() > 0);
            }
            table.next += 1;
            let mut b = encode(self.m.seed, c.process, table.next);
            if let Some(link) = self.m.host_link() {
                let link = link?;
                let sh = match block.store.shared.get() {
                    Some(sh) => {
                        if table.exports.values().any(|x| {
                            x.block.upgrade().is_some_and(|o| Arc::ptr_eq(&o, &block)) && x.range != range
                        }) {
                            return Err(SimError::NotSupported {
                                what,
                                reason: "on a shared host an allocation is exported as one range (sim): this \
                                         one is already exported with another offset or size"
                                    .into(),
                            });
                        }
                        sh.clone()
                    }
                    None => {
                        let device = match block.space {
                            crate::engine::core::pointers::AddressSpace::Device(d) => d,
                            _ => unreachable!("device_region gives device memory"),
                        };
                        let sh = block.store.with_backing(|backing| {
                            let (sh, mapping) = crate::engine::host::shared_mem::SharedMem::export(
                                &link,
                                block.len,
                                device,
                                block.ordinal,
                                range,
                                pid_check,
                                clock.as_ref(),
                                &backing[..],
                            )?;
                            *backing = crate::engine::memory::block::Backing::Shared(mapping);
                            Ok(sh)
                        })?;
                        let sh = Arc::new(sh);
                        sh.seed(block.store.shadow.lock().records());
                        let _ = block.store.shared.set(sh.clone());
                        sh
                    }
                };
                put_mem_ref(
                    &mut b,
                    MemRef {
                        member: link.uid,
                        slot: sh.slot,
                        generation_: sh.generation_,
                    },
                    &link,
                );
            }
            table.exports.insert(
                b,
                MemExport {
                    process: c.process,
                    block: Arc::downgrade(&block),
                    range,
                    pid_check,
                    pids: Vec::new(),
                    closed: false,
                    clock,
                },
            );
            Ok(IpcMemHandle(b))
        })
    }

    /// Adds OS process ids to the allow list of an export of this process (ACL `aclrtIpcMemSetImportPid`).
    pub fn ipc_allow_pids(&self, handle: &IpcMemHandle, pids: &[u32]) -> Result<()> {
        let what = "ipc_allow_pids";
        self.call(what, |c| {
            self.m.check_not_forked()?;
            let mut table = self.m.ipc_mem.lock();
            let Some(x) = table
                .exports
                .get_mut(&handle.0)
                .filter(|x| x.process == c.process)
            else {
                return Err(SimError::Ipc {
                    what,
                    problem: IpcProblem::InvalidHandle,
                });
            };
            if x.closed {
                return Err(SimError::Ipc {
                    what,
                    problem: IpcProblem::ExportGone,
                });
            }
            for p in pids {
                if !x.pids.contains(p) {
                    x.pids.push(*p);
                }
            }
            if let Some(sh) = x
                .block
                .upgrade()
                .and_then(|b| b.store.shared.get().cloned())
                && !sh.allow(pids)
            {
                return Err(SimError::HostUnavailable {
                    name: sh.link.name.clone(),
                    reason: format!(
                        "an export's allow list holds at most {} pids",
                        crate::engine::host::layout::PIDS_CAP
                    ),
                });
            }
            Ok(())
        })
    }

    /// Maps memory another process exported (`cudaIpcOpenMemHandle`, ACL `aclrtIpcMemImportByKey`) on the
    /// current device; `enable_peer`: enable peer access from the current device to the memory's, as
    /// `cudaIpcMemLazyEnablePeerAccess` does. Opening a handle this process already mapped on this device
    /// returns the same pointer (one more reference).
    pub fn ipc_open_mem_handle(
        &self,
        handle: &IpcMemHandle,
        enable_peer: bool,
    ) -> Result<DevicePtr> {
        let what = "ipc_open_mem_handle";
        self.call(what, |c| {
            self.m.check_not_forked()?;
            let (device, _) = self.state().current(&self.m, c, what)?;
            let key = (c.process, device, handle.0);
            let ipc = |problem| SimError::Ipc { what, problem };
            let mut table = self.m.ipc_mem.lock();
            if let Some(m) = table.maps.get_mut(&key) {
                let live =
                    self.m.memory.block_at(m.ptr.addr()).is_some_and(|b| {
                        b.mapping && b.owner == c.process && b.base == m.ptr.addr()
                    });
                if live {
                    m.refs += 1;
                    return Ok(m.ptr);
                }
                // Unmapped behind the table's back (a device reset freed it): a new mapping.
                table.maps.remove(&key);
            }
            let (mem_device, store, off, len, ordinal, clock) = match table.exports.get(&handle.0) {
                Some(x) => {
                    if x.process == c.process {
                        return Err(ipc(IpcProblem::SameProcess));
                    }
                    let block = x.block.upgrade().filter(|b| {
                        self.m
                            .memory
                            .block_at(b.base)
                            .is_some_and(|live| Arc::ptr_eq(&live, b))
                    });
                    let Some(block) = block.filter(|_| !x.closed) else {
                        return Err(ipc(IpcProblem::ExportGone));
                    };
                    if x.pid_check && !x.pids.contains(&std::process::id()) {
                        return Err(ipc(IpcProblem::NotAllowed));
                    }
                    let crate::engine::core::pointers::AddressSpace::Device(d) = block.space else {
                        unreachable!("exports are device memory")
                    };
                    (
                        d,
                        block.store.clone(),
                        block.store_off + x.range.0,
                        x.range.1,
                        block.ordinal,
                        x.clock.clone(),
                    )
                }
                None if let Some(b) = table
                    .maps
                    .iter()
                    .filter(|((p, _, h), _)| *p == c.process && *h == handle.0)
                    .find_map(|(_, m)| {
                        self.m.memory.block_at(m.ptr.addr()).filter(|b| b.mapping)
                    }) =>
                {
                    // Imported already, on another device: the same bytes and the same shadows.
                    let crate::engine::core::pointers::AddressSpace::Device(d) = b.space else {
                        unreachable!("mappings are device memory")
                    };
                    (d, b.store.clone(), b.store_off, b.len, b.ordinal, None)
                }
                None => {
                    drop(table);
                    let got = self.import_foreign(handle)?;
                    table = self.m.ipc_mem.lock();
                    // Another thread of this process mapped it meanwhile: that mapping it is (this import's
                    // hold goes with `got`).
                    if let Some(m) = table.maps.get_mut(&key) {
                        m.refs += 1;
                        return Ok(m.ptr);
                    }
                    got
                }
            };
            {
                let mut st = self.state();
                if enable_peer && mem_device != device && self.m.linked(device, mem_device) {
                    st.peers.insert((device, mem_device));
                }
                if let Some(vc) = &clock {
                    st.acquire_clock(&self.m, c.thread, vc);
                }
            }
            let ptr = self
                .m
                .memory
                .map(mem_device, store, off, len, c.process, ordinal)?;
            table.maps.insert(key, MemMap { ptr, refs: 1 });
            Ok(ptr)
        })
    }

    /// The store of memory exported by another OS process of the shared host, and where in it the export is.
    #[allow(clippy::type_complexity, reason = "the parts of one import, used once")]
    fn import_foreign(
        &self,
        handle: &IpcMemHandle,
    ) -> Result<(u32, Arc<Store>, u64, u64, u64, Option<VectorClock>)> {
        let what = "ipc_open_mem_handle";
        let b = &handle.0;
        let ipc = |problem| SimError::Ipc { what, problem };
        let (Some(link), true) = (self.m.host_link(), &b[..8] == MEM_MAGIC) else {
            let pid = u32::from_le_bytes(b[18..22].try_into().expect("4 bytes"));
            let foreign = &b[..8] == MEM_MAGIC && pid != std::process::id() && !has_host_part(b);
            return Err(ipc(if self.m.shared_host.is_some() && foreign {
                IpcProblem::ForeignUnshared
            } else {
                IpcProblem::InvalidHandle
            }));
        };
        let link = link?;
        let r = check_mem_ref(b, &link).map_err(ipc)?;
        if r.member == link.uid {
            return Err(ipc(IpcProblem::ExportGone));
        }
        let (hold, mapping, got) = crate::engine::host::shared_mem::SharedMem::import(
            &link,
            r.slot,
            r.generation_,
            self.m.device_count(),
        )
        .map_err(ipc)?;
        let store = Store::new(Backing::Shared(mapping));
        let _ = store.shared.set(Arc::new(hold));
        Ok((
            got.device,
            store,
            got.range_off,
            got.range_len,
            got.ordinal,
            Some(got.clock),
        ))
    }

    /// Unmaps one reference of the mapping at `ptr` (`cudaIpcCloseMemHandle`).
    pub fn ipc_close_mem_handle(&self, ptr: DevicePtr) -> Result<()> {
        let what = "ipc_close_mem_handle";
        self.call(what, |c| {
            self.m.check_not_forked()?;
            let mut table = self.m.ipc_mem.lock();
            let Some(key) = table
                .maps
                .iter()
                .find(|((p, _, _), m)| *p == c.process && m.ptr == ptr)
                .map(|(k, _)| *k)
            else {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!(
                        "{ptr} is not a pointer this process got from opening an IPC memory handle"
                    ),
                });
            };
            self.unref_map(&mut table, key, c.process);
            Ok(())
        })
    }

    /// ACL `aclrtIpcMemClose(key)`: in an importer, closes its mapping of the key; in the exporter, closes the
    /// export (no new import; mappings already made stay).
    pub fn ipc_close_mem_key(&self, handle: &IpcMemHandle) -> Result<()> {
        let what = "ipc_close_mem_key";
        self.call(what, |c| {
            self.m.check_not_forked()?;
            let mut table = self.m.ipc_mem.lock();
            if let Some(x) = table
                .exports
                .get_mut(&handle.0)
                .filter(|x| x.process == c.process)
            {
                x.closed = true;
                if let Some(sh) = x
                    .block
                    .upgrade()
                    .and_then(|b| b.store.shared.get().cloned())
                {
                    sh.close_export();
                }
                return Ok(());
            }
            let Some(key) = table
                .maps
                .keys()
                .find(|(p, _, h)| *p == c.process && *h == handle.0)
                .copied()
            else {
                return Err(SimError::Ipc {
                    what,
                    problem: IpcProblem::InvalidHandle,
                });
            };
            if let Some(m) = table.maps.get_mut(&key) {
                m.refs = 1;
            }
            self.unref_map(&mut table, key, c.process);
            Ok(())
        })
    }

    fn unref_map(
        &self,
        table: &mut IpcMemTable,
        key: (ProcessId, u32, [u8; 64]),
        process: ProcessId,
    ) {
        let Some(m) = table.maps.get_mut(&key) else {
            return;
        };
        m.refs -= 1;
        if m.refs == 0 {
            let ptr = m.ptr;
            table.maps.remove(&key);
            self.m.memory.unmap(ptr, process);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key is 56 characters and decodes to the same handle; other text is no key.
    #[test]
    fn keys_round_trip() {
        let mut b = [0u8; 64];
        b[..8].copy_from_slice(MEM_MAGIC);
        for (i, x) in b[8..50].iter_mut().enumerate() {
            *x = (i * 37 + 11) as u8;
        }
        let h = IpcMemHandle(b);
        let k = h.key();
        assert_eq!(k.len(), IpcMemHandle::KEY_LEN);
        assert_eq!(IpcMemHandle::from_key(&k), Some(h));
        assert_eq!(IpcMemHandle::from_key("name"), None);
        assert_eq!(IpcMemHandle::from_key(&"!".repeat(56)), None);
    }
}
