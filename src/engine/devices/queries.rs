//! The device calls of a process beyond the current device: flags and limits, the profiler switch, free
//! memory, the occupancy calculator (the settings themselves are `settings.rs`).
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::devices::config::Attribute;
use crate::engine::devices::settings::DeviceFlags;
use crate::engine::devices::settings::DeviceLimit;
use crate::engine::devices::settings::MAX_SYNC_DEPTH;
use crate::engine::process::Process;

/// Device settings, queries and the occupancy calculator.
impl Process {
    /// Sets the current device's flags for this process (every host thread sees them). It can be called at
    /// any time; work already queued is not affected.
    pub fn set_device_flags(&self, flags: DeviceFlags) -> Result<()> {
        self.call(EngineCall::SetDeviceFlags.name(), |c| {
            let mut st = self.state();
            let (d, _) = st.current(&self.m, c, EngineCall::SetDeviceFlags.name())?;
            st.devices[d as usize].settings.flags = flags;
            Ok(())
        })
    }

    /// The current device's flags for this process, with `map_host` always set.
    pub fn device_flags(&self) -> Result<DeviceFlags> {
        self.call(EngineCall::DeviceFlags.name(), |c| {
            let st = self.state();
            let (d, _) = st.current(&self.m, c, EngineCall::DeviceFlags.name())?;
            let mut f = st.devices[d as usize].settings.flags;
            f.map_host = true;
            Ok(f)
        })
    }

    /// The compute capability of `device` as (major, minor).
    fn compute_capability(&self, device: u32) -> Result<(i64, i64)> {
        let m = self.machine();
        Ok((
            m.device_attribute(device, Attribute::ComputeCapabilityMajor)?,
            m.device_attribute(device, Attribute::ComputeCapabilityMinor)?,
        ))
    }

    /// Whether the current device has `limit`: [`SimError::UnsupportedLimit`] if not.
    fn check_limit(&self, what: &'static str, device: u32, limit: DeviceLimit) -> Result<()> {
        let (major, minor) = self.compute_capability(device)?;
        let supported = match limit {
            DeviceLimit::SyncDepth => major < 9,
            DeviceLimit::PendingLaunchCount => (major, minor) >= (3, 5),
            _ => true,
        };
        if supported {
            Ok(())
        } else {
            Err(SimError::UnsupportedLimit {
                what,
                reason: format!(
                    "device {device} (compute capability {major}.{minor}) has no {limit:?} limit"
                ),
            })
        }
    }

    /// Sets a limit of the current device, as the driver would: `SyncDepth` above [`MAX_SYNC_DEPTH`] is
    /// refused; the L2 hints are clamped to what the device has. The value [`Process::device_limit`] returns is
    /// the one in effect.
    pub fn set_device_limit(&self, limit: DeviceLimit, value: u64) -> Result<()> {
        let what = "set_device_limit";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            self.check_limit(what, d, limit)?;
            let value = match limit {
                DeviceLimit::SyncDepth if value > MAX_SYNC_DEPTH => {
                    return Err(SimError::InvalidValue {
                        what,
                        reason: format!(
                            "a synchronize depth of {value}: the deepest launch nesting is {MAX_SYNC_DEPTH}"
                        ),
                    });
                }
                DeviceLimit::MaxL2FetchGranularity => value.min(128),
                DeviceLimit::PersistingL2CacheSize => {
                    let max = self
                        .machine()
                        .device_attribute(d, Attribute::MaxPersistingL2CacheSize)?;
                    value.min(u64::try_from(max).unwrap_or(0))
                }
                _ => value,
            };
            self.state().devices[d as usize]
                .settings
                .limits
                .insert(limit, value);
            Ok(())
        })
    }

    /// A limit of the current device (its default until this process sets it).
    pub fn device_limit(&self, limit: DeviceLimit) -> Result<u64> {
        let what = "device_limit";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            self.check_limit(what, d, limit)?;
            let st = self.state();
            let set = st.devices[d as usize].settings.limits.get(&limit).copied();
            Ok(set.unwrap_or_else(|| limit.default_value()))
        })
    }

    /// The current device's (free, total) memory in bytes: total is the device's memory, free what the
    /// allocations of every process on the machine leave of it.
    pub fn memory_info(&self) -> Result<(u64, u64)> {
        let what = "memory_info";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            let total = self.m.devices[d as usize].memory;
            let used = self.m.memory.used(d);
            Ok((total.saturating_sub(used), total))
        })
    }

    /// Turns profiling on for the current device (already on: no effect). The call is recorded in the trace
    /// as a host event `profiler_start(device N)`.
    pub fn profiler_start(&self) -> Result<()> {
        self.profiler("profiler_start", true)
    }

    /// Turns profiling off for the current device (already off: no effect); recorded as `profiler_stop`.
    pub fn profiler_stop(&self) -> Result<()> {
        self.profiler("profiler_stop", false)
    }

    fn profiler(&self, what: &'static str, on: bool) -> Result<()> {
        self.call(what, |c| {
            let d = {
                let mut st = self.state();
                let (d, _) = st.current(&self.m, c, what)?;
                st.devices[d as usize].settings.profiling = on;
                d
            };
            self.host_event(c, || format!("{what}(device {d})"));
            Ok(())
        })
    }

    /// Whether profiling is on for the current device. Does not advance the clock.
    pub fn profiling(&self) -> bool {
        let st = self.state();
        self.current_device()
            .and_then(|d| st.devices.get(d as usize))
            .is_some_and(|d| d.settings.profiling)
    }

    /// The occupancy calculator: how many blocks of `block_size` threads, each using `dynamic_shared`
    /// bytes of dynamic shared memory, can be resident on one multiprocessor of the current device, for a
    /// kernel with no static shared memory and no register limit (the simulator's kernels have neither). As
    /// CUDA's calculator: the minimum of the warp limit (`MaxThreadsPerMultiprocessor / WarpSize` warps, a block
    /// takes its threads rounded up to whole warps), the block limit (`MaxBlocksPerMultiprocessor`) and the
    /// shared-memory limit (`SharedMemoryPerMultiprocessor` over the block's shared memory, reserved part
    /// included, rounded up to the allocation granularity: 256 bytes before compute capability 8.0, 128 after);
    /// 0 for a block larger than `MaxThreadsPerBlock` or needing more than `SharedMemoryPerBlock` (from compute
    /// capability 8.0 plus the reserved part, as `cuda_occupancy.h`'s `cudaOccSMemPerBlock`: "Starting Ampere,
    /// CUDA driver reserves additional shared memory per block", so a block can still use all 48 KiB). A block
    /// size of 0 is [`SimError::InvalidValue`].
    pub fn max_active_blocks_per_multiprocessor(
        &self,
        block_size: u32,
        dynamic_shared: u64,
    ) -> Result<u32> {
        let what = "max_active_blocks_per_multiprocessor";
        self.call(what, |c| {
            let (d, _) = self.state().current(&self.m, c, what)?;
            if block_size == 0 {
                return Err(SimError::InvalidValue {
                    what,
                    reason: "a block size of 0".into(),
                });
            }
            let m = self.machine();
            let attr = |a| -> Result<u64> {
                let v = m.device_attribute(d, a)?;
                u64::try_from(v).map_err(|_| SimError::InvalidValue {
                    what,
                    reason: format!("device {d}'s {a:?} is negative ({v})"),
                })
            };
            let warp = attr(Attribute::WarpSize)?;
            if warp == 0 {
                return Err(SimError::InvalidValue {
                    what,
                    reason: format!("device {d}'s warp size is 0"),
                });
            }
            let block = u64::from(block_size);
            if block > attr(Attribute::MaxThreadsPerBlock)? {
                return Ok(0);
            }
            let warps_limit =
                (attr(Attribute::MaxThreadsPerMultiprocessor)? / warp) / block.div_ceil(warp);
            let blocks_limit = attr(Attribute::MaxBlocksPerMultiprocessor)?;
            let ampere = attr(Attribute::ComputeCapabilityMajor)? >= 8;
            let granularity = if ampere { 128 } else { 256 };
            let reserved = attr(Attribute::ReservedSharedMemoryPerBlock)?;
            let smem = dynamic_shared
                .saturating_add(reserved)
                .div_ceil(granularity)
                .saturating_mul(granularity);
            let per_block = attr(Attribute::SharedMemoryPerBlock)?.saturating_add(if ampere {
                reserved
            } else {
                0
            });
            // No shared memory: no limit from it.
            let smem_limit = if smem > per_block {
                0
            } else {
                attr(Attribute::SharedMemoryPerMultiprocessor)?
                    .checked_div(smem)
                    .unwrap_or(u64::MAX)
            };
            let n = warps_limit.min(blocks_limit).min(smem_limit);
            Ok(u32::try_from(n).unwrap_or(u32::MAX))
        })
    }
}
