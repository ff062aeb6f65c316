//! Access to a pool's memory from other devices (`cudaMemPoolSetAccess`, `cudaMemPoolGetAccess`). A pool's own
//! device always reads and writes its memory; another device may once it is given read-write access, and only
//! if it can access the pool's device at all (the machine's topology). Peer access enabled with
//! `enable_peer_access` does not reach pool memory, and pool access does not reach ordinary allocations
//! (Programming Guide §4.3, "Device Accessibility for Multi-GPU Support"). Copies between devices consult the
//! access of the pool that holds their memory where they consult the peer table for other memory
//! (`Process::route_path`, `memory/copies.rs`). The rows are in `docs/semantics/stream-ordered-memory.md` ·
//! Access from other devices.

use std::collections::BTreeSet;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{PoolProblem, Result};
use crate::engine::core::handle::MemPool;
use crate::engine::pools::calls::pool_err;
use crate::engine::process::{ProcState, Process};

/// What a device may do with a pool's memory (`cudaMemAccessFlags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolAccess {
    /// `cudaMemAccessFlagsProtNone` (0): no access.
    None,
    /// `cudaMemAccessFlagsProtRead` (1): read only (not simulated: setting it is refused).
    Read,
    /// `cudaMemAccessFlagsProtReadWrite` (3).
    ReadWrite,
}

impl PoolAccess {
    /// The access of a `cudaMemAccessFlags` value.
    pub fn from_flags(flags: u32) -> Option<PoolAccess> {
        Some(match flags {
            0 => PoolAccess::None,
            1 => PoolAccess::Read,
            3 => PoolAccess::ReadWrite,
            _ => return None,
        })
    }

    /// Its `cudaMemAccessFlags` value.
    pub fn flags(self) -> u32 {
        match self {
            PoolAccess::None => 0,
            PoolAccess::Read => 1,
            PoolAccess::ReadWrite => 3,
        }
    }
}

impl ProcState {
    /// If the live allocation starting at `base` is a pool's (also a destroyed pool's): its device and the other
    /// devices that may access it.
    pub(crate) fn pool_access_of(&self, base: u64) -> Option<(u32, &BTreeSet<u32>)> {
        self.pools
            .values()
            .chain(&self.retired_pools)
            .find(|p| p.live.contains_key(&base))
            .map(|p| (p.device, &p.access))
    }

    /// What a kernel launched now on `device` may reach of other devices' memory (see [`Reach`]): the peers
    /// it enabled, and the chunks of other devices' pools (also destroyed pools' that still hold allocations)
    /// with whether their access includes `device`. `None` on a machine of one device, where there is no
    /// other device's memory.
    ///
    /// [`Reach`]: crate::engine::kernels::kernel::Reach
    pub(crate) fn kernel_reach(
        &self,
        m: &crate::engine::machine::Shared,
        device: u32,
    ) -> Option<std::sync::Arc<crate::engine::kernels::kernel::Reach>> {
        if m.device_count() < 2 {
            return None;
        }
        let peers = self
            .peers
            .iter()
            .filter(|&&(a, _)| a == device)
            .map(|&(_, b)| b)
            .collect();
        let pool_chunks = self
            .pools
            .values()
            .chain(&self.retired_pools)
            .filter(|p| p.device != device)
            .flat_map(|p| {
                let ok = p.access.contains(&device);
                p.chunks.iter().map(move |(&base, c)| (base, c.len, ok))
            })
            .collect();
        Some(std::sync::Arc::new(crate::engine::kernels::kernel::Reach {
            peers,
            pool_chunks,
        }))
    }
}

impl Process {
    /// Sets the access of devices to `pool`'s memory (`cudaMemPoolSetAccess`): each `(device, access)` gives that
    /// device read-write access or takes it away. The whole list is checked before any of it applies: a device
    /// that is not one, the pool's own device with anything but read-write, a device without a link to the
    /// pool's, or read-only access, refuse it all.
    pub fn set_pool_access(&self, pool: MemPool, list: &[(i64, PoolAccess)]) -> Result<()> {
        let what = EngineCall::PoolSetAccess.name();
        self.call(what, |_| {
            let mut st = self.state();
            let home = st.pool(what, pool)?.device;
            let mut changes = Vec::with_capacity(list.len());
            for &(device, access) in list {
                let d = self.m.check_device(device)?;
                if d == home {
                    if access != PoolAccess::ReadWrite {
                        return Err(pool_err(what, PoolProblem::OwnDeviceAccess { device: d }));
                    }
                    continue;
                }
                if access == PoolAccess::Read {
                    return Err(pool_err(what, PoolProblem::AccessFlags(access.flags())));
                }
                if access == PoolAccess::ReadWrite && !self.m.linked(d, home) {
                    return Err(pool_err(
                        what,
                        PoolProblem::NoPeerLink {
                            device: d,
                            pool_device: home,
                        },
                    ));
                }
                changes.push((d, access == PoolAccess::ReadWrite));
            }
            let p = st.pool(what, pool)?;
            for (d, on) in changes {
                if on {
                    p.access.insert(d);
                } else {
                    p.access.remove(&d);
                }
            }
            Ok(())
        })
    }

    /// The access `device` has to `pool`'s memory (`cudaMemPoolGetAccess`): read-write for the pool's own device,
    /// else what [`Process::set_pool_access`] last gave it (none at first).
    pub fn pool_access(&self, pool: MemPool, device: i64) -> Result<PoolAccess> {
        let what = EngineCall::PoolGetAccess.name();
        self.call(what, |_| {
            let d = self.m.check_device(device)?;
            let mut st = self.state();
            let p = st.pool(what, pool)?;
            Ok(if d == p.device || p.access.contains(&d) {
                PoolAccess::ReadWrite
            } else {
                PoolAccess::None
            })
        })
    }
}
