//! Virtual time: the [`VirtualTime`] type, the [`CostModel`] (with its [`EngineModel`]), and the two functions
//! that schedule an operation: `schedule` (when it is ready: after its stream's previous work, the enqueueing
//! call and what it waits for) and `place` (when it starts: when its copy engine or a kernel slot of its device
//! is free, `engines.rs`). Every start/end time in the simulator is computed here, on the host thread, at
//! enqueue, from program order alone.

use std::time::Duration;

/// Nanoseconds of `d`, saturating at `u64::MAX` (about 584 years) instead of keeping only the low 64 bits: a
/// huge duration (`Duration::MAX` as a kernel's duration, a cost, or a timeout) is "forever", never a short
/// time.
pub(crate) fn saturating_nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// A point on the virtual clock, in nanoseconds since the machine started. Virtual time saturates: every
/// addition to it ([`VirtualTime::plus`], costs, durations) stops at `u64::MAX` nanoseconds rather than
/// wrapping or panicking, so a program with absurd durations ends "at the end of time", in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct VirtualTime(pub u64);

impl VirtualTime {
    /// Time zero.
    pub const ZERO: VirtualTime = VirtualTime(0);

    /// Nanoseconds since the machine started.
    pub fn as_nanos(self) -> u64 {
        self.0
    }

    /// `self + ns`, saturating.
    pub fn plus(self, ns: u64) -> VirtualTime {
        VirtualTime(self.0.saturating_add(ns))
    }

    /// Milliseconds from `earlier` to `self` (negative if `self` is earlier), as the vendors' elapsed-time
    /// calls report them.
    pub fn ms_since(self, earlier: VirtualTime) -> f32 {
        ((self.0 as f64 - earlier.0 as f64) / 1e6) as f32
    }
}

impl std::fmt::Display for VirtualTime {
    /// Prints with a unit: `850 ns`, `12.500 µs`, `3.000 ms`, `2.000 s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fmt_nanos(self.0, f)
    }
}

pub(crate) fn fmt_nanos(ns: u64, f: &mut impl std::fmt::Write) -> std::fmt::Result {
    if ns < 1_000 {
        write!(f, "{ns} ns")
    } else if ns < 1_000_000 {
        write!(f, "{}.{:03} µs", ns / 1_000, ns % 1_000)
    } else if ns < 1_000_000_000 {
        write!(f, "{}.{:03} ms", ns / 1_000_000, (ns / 1_000) % 1_000)
    } else {
        write!(
            f,
            "{}.{:03} s",
            ns / 1_000_000_000,
            (ns / 1_000_000) % 1_000
        )
    }
}

/// The path a copy takes; each has its own latency and bandwidth in the [`CostModel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CopyPath {
    /// Host memory to device memory.
    HostToDevice,
    /// Device memory to host memory.
    DeviceToHost,
    /// Within one device (also used for memset).
    OnDevice,
    /// Between two devices over a peer link (peer access enabled).
    PeerLink,
    /// Between two devices without peer access: staged through host memory (device→host then host→device).
    StagedThroughHost,
    /// Host memory to host memory.
    HostToHost,
}

/// Latency and bandwidth of one copy path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkCost {
    /// Fixed cost of every copy on this path.
    pub latency: Duration,
    /// Bytes per second.
    pub bytes_per_sec: u64,
}

impl LinkCost {
    /// A link with the given latency (µs) and bandwidth (GB/s, 10^9 bytes per second; a bandwidth above
    /// `u64::MAX` bytes per second saturates there).
    pub const fn new(latency_us: u64, gb_per_sec: u64) -> LinkCost {
        LinkCost {
            latency: Duration::from_micros(latency_us),
            bytes_per_sec: gb_per_sec.saturating_mul(1_000_000_000),
        }
    }

    /// Virtual nanoseconds to move `bytes`: latency + bytes / bandwidth, rounded up, saturating at
    /// `u64::MAX`.
    pub fn nanos(&self, bytes: u64) -> u64 {
        let transfer = if self.bytes_per_sec == 0 {
            0
        } else {
            let ns = (bytes as u128 * 1_000_000_000).div_ceil(self.bytes_per_sec as u128);
            u64::try_from(ns).unwrap_or(u64::MAX)
        };
        saturating_nanos(self.latency).saturating_add(transfer)
    }
}

/// How long things take in virtual time. The defaults are documented in the README; every field can be set
/// through [`crate::MachineBuilder::cost_model`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CostModel {
    /// How far every runtime call advances the calling host thread's clock.
    pub api_call: Duration,
    /// The earliest an enqueued operation can start after the call that enqueued it.
    pub launch_latency: Duration,
    /// The duration of a kernel launched without one.
    pub default_kernel: Duration,
    /// How long a host function occupies its stream.
    pub host_function: Duration,
    /// Host memory to device memory.
    pub host_to_device: LinkCost,
    /// Device memory to host memory.
    pub device_to_host: LinkCost,
    /// Within one device, and memset.
    pub on_device: LinkCost,
    /// Between devices over an enabled peer link.
    pub peer_link: LinkCost,
    /// Host to host.
    pub host_to_host: LinkCost,
    /// How long a stream-ordered allocation (`cudaMallocAsync`, `aclrtMemPoolMallocAsync`) occupies its stream.
    pub pool_alloc: Duration,
    /// How long a stream-ordered free (`cudaFreeAsync`, `aclrtMemPoolFreeAsync`) occupies its stream.
    pub pool_free: Duration,
    /// Copy engines and kernel slots (on by default; [`EngineModel::OFF`]: every operation starts when it is
    /// ready, as before the model existed).
    pub engines: EngineModel,
}

/// The engine model: per device, copy engines per direction and a limit on concurrent kernels (see
/// `docs/semantics/engine-model.md`). How many copy engines a device has is its `AsyncEngineCount` attribute
/// (the default profile's 3: one for each direction); whether it runs kernels concurrently, its
/// `ConcurrentKernels` attribute; both can be set per device with [`crate::DeviceConfig::attribute`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineModel {
    /// Whether operations wait for their engine. Off: every operation starts when it is ready, and operations
    /// of different streams always overlap fully.
    pub enabled: bool,
    /// How many kernels a device with `ConcurrentKernels` 1 runs at once (the "maximum number of resident grids
    /// per device" of the CUDA C++ Programming Guide's table of compute capabilities: 128 for compute
    /// capability 7.0 and 8.0, the default profile's). A device with `ConcurrentKernels` 0 runs one at a time.
    pub kernel_slots: u32,
}

impl EngineModel {
    /// The model off: operations start when they are ready.
    pub const OFF: EngineModel = EngineModel {
        enabled: false,
        kernel_slots: 128,
    };

    /// The model on (the default), with 128 kernel slots.
    pub const ON: EngineModel = EngineModel {
        enabled: true,
        kernel_slots: 128,
    };

    /// With `n` kernel slots per device (at least 1).
    #[must_use]
    pub fn kernel_slots(mut self, n: u32) -> EngineModel {
        self.kernel_slots = n.max(1);
        self
    }
}

impl Default for EngineModel {
    fn default() -> Self {
        EngineModel::ON
    }
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel {
            api_call: Duration::from_micros(1),
            launch_latency: Duration::from_micros(2),
            default_kernel: Duration::from_micros(10),
            host_function: Duration::from_micros(1),
            host_to_device: LinkCost::new(2, 16),
            device_to_host: LinkCost::new(2, 16),
            on_device: LinkCost::new(1, 500),
            peer_link: LinkCost::new(3, 50),
            host_to_host: LinkCost::new(0, 20),
            pool_alloc: Duration::from_micros(1),
            pool_free: Duration::from_micros(1),
            engines: EngineModel::ON,
        }
    }
}

impl CostModel {
    /// With the engine model `engines` ([`EngineModel::OFF`] turns it off).
    #[must_use]
    pub fn with_engines(mut self, engines: EngineModel) -> CostModel {
        self.engines = engines;
        self
    }

    /// Virtual nanoseconds a copy of `bytes` on `path` takes.
    pub fn copy_nanos(&self, path: CopyPath, bytes: u64) -> u64 {
        match path {
            CopyPath::HostToDevice => self.host_to_device.nanos(bytes),
            CopyPath::DeviceToHost => self.device_to_host.nanos(bytes),
            CopyPath::OnDevice => self.on_device.nanos(bytes),
            CopyPath::PeerLink => self.peer_link.nanos(bytes),
            CopyPath::StagedThroughHost => self
                .device_to_host
                .nanos(bytes)
                .saturating_add(self.host_to_device.nanos(bytes)),
            CopyPath::HostToHost => self.host_to_host.nanos(bytes),
        }
    }

    pub(crate) fn api_call_ns(&self) -> u64 {
        saturating_nanos(self.api_call)
    }

    pub(crate) fn launch_latency_ns(&self) -> u64 {
        saturating_nanos(self.launch_latency)
    }
}

/// When an operation enqueued at host time `now` on a stream whose previous work ends at `cursor`, and which
/// must also wait for every time in `deps`, starts: the maximum of them all (with the launch latency added to
/// `now`). Its end is `start + cost`.
#[inline]
pub(crate) fn schedule(
    cursor: VirtualTime,
    now: VirtualTime,
    launch_latency_ns: u64,
    deps: impl IntoIterator<Item = VirtualTime>,
) -> VirtualTime {
    deps.into_iter()
        .fold(cursor.max(now.plus(launch_latency_ns)), VirtualTime::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_cost_rounds_up_and_adds_latency() {
        let l = LinkCost::new(2, 16);
        assert_eq!(l.nanos(0), 2_000);
        assert_eq!(l.nanos(16), 2_001);
        assert_eq!(l.nanos(17), 2_002);
        assert_eq!(l.nanos(16_000_000), 2_000 + 1_000_000);
    }

    /// Huge durations, bandwidths and sizes saturate at `u64::MAX` nanoseconds; none wraps to a small time.
    #[test]
    fn huge_costs_saturate() {
        assert_eq!(saturating_nanos(Duration::MAX), u64::MAX);
        assert_eq!(saturating_nanos(Duration::from_nanos(u64::MAX)), u64::MAX);
        assert_eq!(
            saturating_nanos(Duration::from_nanos(u64::MAX) + Duration::from_nanos(1)),
            u64::MAX
        );
        assert_eq!(LinkCost::new(0, u64::MAX).bytes_per_sec, u64::MAX);
        // 1 byte per second: u64::MAX bytes take u64::MAX * 10^9 ns, which saturates.
        let slow = LinkCost {
            latency: Duration::ZERO,
            bytes_per_sec: 1,
        };
        assert_eq!(slow.nanos(u64::MAX), u64::MAX);
        let late = LinkCost {
            latency: Duration::MAX,
            bytes_per_sec: 1,
        };
        assert_eq!(late.nanos(0), u64::MAX);
        let cost = CostModel {
            api_call: Duration::MAX,
            launch_latency: Duration::MAX,
            ..CostModel::default()
        };
        assert_eq!(cost.api_call_ns(), u64::MAX);
        assert_eq!(cost.launch_latency_ns(), u64::MAX);
        let staged = CostModel {
            device_to_host: LinkCost::new(0, 1),
            host_to_device: LinkCost::new(0, 1),
            ..CostModel::default()
        };
        // At 1 GB/s each leg of u64::MAX bytes takes about 1.8e19 ns: the sum saturates.
        assert_eq!(
            staged.copy_nanos(CopyPath::StagedThroughHost, u64::MAX),
            u64::MAX
        );
        assert_eq!(VirtualTime(u64::MAX - 1).plus(5), VirtualTime(u64::MAX));
    }

    #[test]
    fn schedule_is_the_max_of_its_inputs() {
        let t = schedule(VirtualTime(10), VirtualTime(3), 2, [VirtualTime(7)]);
        assert_eq!(t, VirtualTime(10));
        let t = schedule(VirtualTime(1), VirtualTime(3), 2, [VirtualTime(4)]);
        assert_eq!(t, VirtualTime(5));
        let t = schedule(VirtualTime(1), VirtualTime(3), 2, [VirtualTime(40)]);
        assert_eq!(t, VirtualTime(40));
    }

    #[test]
    fn display_has_units() {
        assert_eq!(VirtualTime(850).to_string(), "850 ns");
        assert_eq!(VirtualTime(12_500).to_string(), "12.500 µs");
        assert_eq!(VirtualTime(3_000_000).to_string(), "3.000 ms");
        assert_eq!(VirtualTime(2_000_000_000).to_string(), "2.000 s");
        assert_eq!(VirtualTime(3_000_000).ms_since(VirtualTime(1_000_000)), 2.0);
        assert_eq!(
            VirtualTime(1_000_000).ms_since(VirtualTime(3_000_000)),
            -2.0
        );
    }
}
