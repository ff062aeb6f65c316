//! CUDA-family device and runtime queries: properties, free memory, versions, PCI bus ids, limits, device
//! flags, the occupancy calculator and the profiler switch. Rows and sources: `docs/semantics/
//! cuda-musa-runtime-api.md`.

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};

use super::binding::{Api, invalid, out};
use super::cuda_device_prop::{DeviceProp, device_prop};
use super::cuda_runtime::{Error, run};
use crate::engine::core::error::SimError;
use crate::engine::devices::settings::{DeviceFlags, DeviceLimit, WaitPolicy};
use crate::engine::machine::Attribute;
use crate::engine::process::Process;

/// The runtime version the simulator implements (`CUDART_VERSION` in `include/cuda_runtime_api.h`): 12.8, the
/// first with `cudaStreamGetDevice`.
pub(crate) const RUNTIME_VERSION: c_int = 12080;
/// The driver version reported: the same (sim: a driver that supports exactly this runtime).
pub(crate) const DRIVER_VERSION: c_int = 12080;

/// A device ordinal argument, checked against the machine.
fn device_of(p: &Process, device: c_int) -> Result<u32, SimError> {
    let count = p.machine().device_count();
    u32::try_from(device)
        .ok()
        .filter(|&d| d < count)
        .ok_or(SimError::InvalidDevice {
            device: i64::from(device),
            count,
        })
}

pub(crate) unsafe fn get_device_properties(
    api: Api,
    prop: *mut DeviceProp,
    device: c_int,
) -> Error {
    run(api, |p| {
        if prop.is_null() {
            return Err(invalid("GetDeviceProperties", "NULL output pointer"));
        }
        let d = device_of(p, device)?;
        let v = device_prop(&p.machine(), d)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("GetDeviceProperties", prop, v) }
    })
}

/// `cudaDeviceGetAttribute`: the value of `attr` in the device's properties (see `cuda_device_prop.rs`).
pub(crate) unsafe fn device_get_attribute(
    api: Api,
    value: *mut c_int,
    attr: c_int,
    device: c_int,
) -> Error {
    run(api, |p| {
        if value.is_null() {
            return Err(invalid("DeviceGetAttribute", "NULL output pointer"));
        }
        let d = device_of(p, device)?;
        let v = super::cuda_device_prop::attribute(&device_prop(&p.machine(), d)?, attr)
            .ok_or_else(|| {
                invalid(
                    "DeviceGetAttribute",
                    format!("{attr} is not a device attribute (enum cudaDeviceAttr)"),
                )
            })?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("DeviceGetAttribute", value, v) }
    })
}

pub(crate) unsafe fn mem_get_info(api: Api, free: *mut usize, total: *mut usize) -> Error {
    run(api, |p| {
        if free.is_null() || total.is_null() {
            return Err(invalid("MemGetInfo", "NULL output pointer"));
        }
        let (f, t) = p.memory_info()?;
        let size = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            out("MemGetInfo", free, size(f))?;
            out("MemGetInfo", total, size(t))
        }
    })
}

pub(crate) unsafe fn driver_get_version(api: Api, version: *mut c_int) -> Error {
    // SAFETY: C contract.
    run(api, |_| unsafe {
        out("DriverGetVersion", version, DRIVER_VERSION)
    })
}

pub(crate) unsafe fn runtime_get_version(api: Api, version: *mut c_int) -> Error {
    // SAFETY: C contract.
    run(api, |_| unsafe {
        out("RuntimeGetVersion", version, RUNTIME_VERSION)
    })
}

/// A device's PCI location as `(domain, bus, device)`.
fn pci_of(p: &Process, d: u32) -> Result<(i64, i64, i64), SimError> {
    let m = p.machine();
    Ok((
        m.device_attribute(d, Attribute::PciDomainId)?,
        m.device_attribute(d, Attribute::PciBusId)?,
        m.device_attribute(d, Attribute::PciDeviceId)?,
    ))
}

/// `cudaDeviceGetPCIBusId`: `[domain]:[bus]:[device].[function]` in hexadecimal, `0000:01:00.0` (12
/// characters and the NUL), truncated to `len` bytes with the NUL (sim: upper-case hex digits, function 0).
pub(crate) unsafe fn device_get_pci_bus_id(
    api: Api,
    bus_id: *mut c_char,
    len: c_int,
    device: c_int,
) -> Error {
    run(api, |p| {
        let what = "DeviceGetPCIBusId";
        if bus_id.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        if len <= 0 {
            return Err(invalid(what, format!("a length of {len}")));
        }
        let d = device_of(p, device)?;
        let (domain, bus, dev) = pci_of(p, d)?;
        let text = format!("{domain:04X}:{bus:02X}:{dev:02X}.0");
        let n = text.len().min(len as usize - 1);
        // SAFETY: the C caller's buffer holds `len` bytes; `n + 1 <= len`.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), bus_id, n);
            bus_id.add(n).write(0);
        }
        Ok(())
    })
}

/// Parses `[domain]:[bus]:[device].[function]`, `[domain]:[bus]:[device]` or `[bus]:[device].[function]`
/// (hexadecimal; the domain defaults to 0) into `(domain, bus, device)`.
fn parse_pci(text: &str) -> Option<(i64, i64, i64)> {
    let hex = |s: &str| {
        (!s.is_empty() && s.len() <= 8)
            .then(|| i64::from_str_radix(s, 16).ok())
            .flatten()
    };
    let (head, function) = match text.split_once('.') {
        Some((h, f)) => (h, Some(f)),
        None => (text, None),
    };
    if let Some(f) = function {
        hex(f)?;
    }
    let parts: Vec<&str> = head.split(':').collect();
    match (parts.as_slice(), function) {
        ([domain, bus, dev], _) => Some((hex(domain)?, hex(bus)?, hex(dev)?)),
        ([bus, dev], Some(_)) => Some((0, hex(bus)?, hex(dev)?)),
        _ => None,
    }
}

pub(crate) unsafe fn device_get_by_pci_bus_id(
    api: Api,
    device: *mut c_int,
    bus_id: *const c_char,
) -> Error {
    run(api, |p| {
        let what = "DeviceGetByPCIBusId";
        if device.is_null() || bus_id.is_null() {
            return Err(invalid(what, "NULL pointer"));
        }
        // SAFETY: a NUL-terminated string by the C contract.
        let text = unsafe { CStr::from_ptr(bus_id) }.to_string_lossy();
        let Some(want) = parse_pci(text.trim()) else {
            return Err(invalid(
                what,
                format!("{text:?} is not a PCI bus id ([domain]:[bus]:[device].[function])"),
            ));
        };
        let count = p.machine().device_count();
        for d in 0..count {
            if pci_of(p, d)? == want {
                // SAFETY: checked non-NULL; C contract.
                return unsafe { out(what, device, d as c_int) };
            }
        }
        Err(SimError::InvalidDevice { device: -1, count })
    })
}

/// `enum cudaLimit` → the engine's limit.
fn limit_of(what: &'static str, limit: c_uint) -> Result<DeviceLimit, SimError> {
    Ok(match limit {
        0 => DeviceLimit::StackSize,
        1 => DeviceLimit::PrintfFifoSize,
        2 => DeviceLimit::MallocHeapSize,
        3 => DeviceLimit::SyncDepth,
        4 => DeviceLimit::PendingLaunchCount,
        5 => DeviceLimit::MaxL2FetchGranularity,
        6 => DeviceLimit::PersistingL2CacheSize,
        _ => {
            return Err(SimError::UnsupportedLimit {
                what,
                reason: format!("{limit} is not a limit (enum cudaLimit)"),
            });
        }
    })
}

pub(crate) fn device_set_limit(api: Api, limit: c_uint, value: usize) -> Error {
    run(api, |p| {
        let l = limit_of("DeviceSetLimit", limit)?;
        p.set_device_limit(l, value as u64)
    })
}

pub(crate) unsafe fn device_get_limit(api: Api, value: *mut usize, limit: c_uint) -> Error {
    run(api, |p| {
        if value.is_null() {
            return Err(invalid("DeviceGetLimit", "NULL output pointer"));
        }
        let v = p.device_limit(limit_of("DeviceGetLimit", limit)?)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe {
            out(
                "DeviceGetLimit",
                value,
                usize::try_from(v).unwrap_or(usize::MAX),
            )
        }
    })
}

/// `cudaDeviceScheduleMask`.
const SCHEDULE_MASK: c_uint = 0x07;
/// `cudaDeviceMapHost`.
const MAP_HOST: c_uint = 0x08;
/// `cudaDeviceLmemResizeToMax`.
const LMEM_RESIZE_TO_MAX: c_uint = 0x10;
/// `cudaDeviceSyncMemops`.
const SYNC_MEMOPS: c_uint = 0x80;

pub(crate) fn set_device_flags(api: Api, flags: c_uint) -> Error {
    run(api, |p| p.set_device_flags(device_flags_from_bits(flags)?))
}

/// `cudaSetDeviceFlags`'s argument as the engine's flags: at most one schedule flag, no unknown bit.
pub(crate) fn device_flags_from_bits(flags: c_uint) -> Result<DeviceFlags, SimError> {
    let what = "SetDeviceFlags";
    let known = SCHEDULE_MASK | MAP_HOST | LMEM_RESIZE_TO_MAX | SYNC_MEMOPS;
    if flags & !known != 0 {
        return Err(SimError::InvalidFlags {
            what,
            flags,
            reason: "unknown bits (cudaDeviceMask is 0xff, of which 0x20 and 0x40 are undefined)",
        });
    }
    let wait = match flags & SCHEDULE_MASK {
        0 => WaitPolicy::Auto,
        1 => WaitPolicy::Spin,
        2 => WaitPolicy::Yield,
        4 => WaitPolicy::BlockingSync,
        _ => {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "at most one of cudaDeviceScheduleSpin, Yield and BlockingSync",
            });
        }
    };
    Ok(DeviceFlags {
        wait,
        map_host: flags & MAP_HOST != 0,
        keep_local_memory: flags & LMEM_RESIZE_TO_MAX != 0,
        sync_memops: flags & SYNC_MEMOPS != 0,
    })
}

pub(crate) unsafe fn get_device_flags(api: Api, flags: *mut c_uint) -> Error {
    run(api, |p| {
        if flags.is_null() {
            return Err(invalid("GetDeviceFlags", "NULL output pointer"));
        }
        let bits = device_flags_bits(p.device_flags()?);
        // SAFETY: checked non-NULL; C contract.
        unsafe { out("GetDeviceFlags", flags, bits) }
    })
}

/// The engine's flags as `cudaGetDeviceFlags` returns them.
pub(crate) fn device_flags_bits(f: DeviceFlags) -> c_uint {
    let wait = match f.wait {
        WaitPolicy::Auto => 0,
        WaitPolicy::Spin => 1,
        WaitPolicy::Yield => 2,
        WaitPolicy::BlockingSync => 4,
    };
    let bit = |on: bool, b: c_uint| if on { b } else { 0 };
    wait | bit(f.map_host, MAP_HOST)
        | bit(f.keep_local_memory, LMEM_RESIZE_TO_MAX)
        | bit(f.sync_memops, SYNC_MEMOPS)
}

/// `cudaOccupancyDisableCachingOverride`.
const OCCUPANCY_DISABLE_CACHING_OVERRIDE: c_uint = 0x01;

pub(crate) unsafe fn occupancy_max_active_blocks(
    api: Api,
    num_blocks: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dynamic_smem: usize,
    flags: c_uint,
) -> Error {
    run(api, |p| {
        let what = "OccupancyMaxActiveBlocksPerMultiprocessor";
        if num_blocks.is_null() {
            return Err(invalid(what, "NULL output pointer"));
        }
        if func.is_null() {
            return Err(SimError::InvalidKernel {
                what,
                reason: "NULL kernel function".into(),
            });
        }
        if flags & !OCCUPANCY_DISABLE_CACHING_OVERRIDE != 0 {
            return Err(SimError::InvalidFlags {
                what,
                flags,
                reason: "only cudaOccupancyDisableCachingOverride (0x1) is defined",
            });
        }
        let Ok(block) = u32::try_from(block_size) else {
            return Err(invalid(what, format!("a block size of {block_size}")));
        };
        // A kernel built by `streamsim cc` brings its static shared memory (what cudaFuncGetAttributes says).
        let static_smem = crate::facade::cc_runtime::static_shared(func).unwrap_or(0);
        let n = p.max_active_blocks_per_multiprocessor(block, dynamic_smem as u64 + static_smem)?;
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(what, num_blocks, c_int::try_from(n).unwrap_or(c_int::MAX)) }
    })
}

/// `cudaDeviceGetP2PAttribute`: an attribute of the link from `src` to `dst`. With a link (the machine's
/// topology, as `cudaDeviceCanAccessPeer` answers): performance rank 0 (every simulated link is the same),
/// access, native atomics and CUDA-array access supported, not only partial atomics; without one, all 0 (the
/// rank too). Two valid devices that are the same, or an invalid one, are `cudaErrorInvalidDevice`; an
/// attribute outside 1–5 or a NULL `value`, `cudaErrorInvalidValue` (Runtime API, Device Management).
///
/// Note: the Runtime API describes `cudaDevP2PAttrAccessSupported` as "1 if peer access is enabled"; the
/// attribute's name, the driver's `CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED` and cuda-samples' topologyQuery
/// ("P2P access supported") read it as whether the link allows access, which is what is answered.
pub(crate) unsafe fn device_get_p2p_attribute(
    api: Api,
    value: *mut c_int,
    attr: c_uint,
    src: c_int,
    dst: c_int,
) -> Error {
    run(api, |p| {
        const WHAT: &str = "DeviceGetP2PAttribute";
        if value.is_null() {
            return Err(invalid(WHAT, "NULL output pointer"));
        }
        if !(1..=5).contains(&attr) {
            return Err(invalid(
                WHAT,
                format!("attribute {attr}: the cudaDeviceP2PAttr values are 1 to 5"),
            ));
        }
        let linked = p.can_access_peer(i64::from(src), i64::from(dst))?;
        if src == dst {
            return Err(SimError::InvalidDevice {
                device: i64::from(dst),
                count: p.machine().device_count(),
            });
        }
        let v = match attr {
            1 => 0,
            5 => 0,
            _ => c_int::from(linked),
        };
        // SAFETY: checked non-NULL; C contract.
        unsafe { out(WHAT, value, v) }
    })
}

pub(crate) fn profiler_start(api: Api) -> Error {
    run(api, |p| p.profiler_start())
}

pub(crate) fn profiler_stop(api: Api) -> Error {
    run(api, |p| p.profiler_stop())
}

#[cfg(test)]
mod tests {
    use super::parse_pci;

    /// cudaDeviceGetByPCIBusId's three forms, hexadecimal, and what is not a bus id.
    #[test]
    fn pci_bus_ids_parse_in_the_three_documented_forms() {
        assert_eq!(parse_pci("0000:01:00.0"), Some((0, 1, 0)));
        assert_eq!(parse_pci("0001:3B:1f"), Some((1, 0x3b, 0x1f)));
        assert_eq!(parse_pci("3b:00.0"), Some((0, 0x3b, 0)));
        for bad in [
            "",
            "0000:",
            "3b:00",
            "0000:01:00.",
            "0000:01:zz.0",
            ":01:00.0",
            "1:2:3:4",
        ] {
            assert_eq!(parse_pci(bad), None, "{bad:?}");
        }
    }
}
