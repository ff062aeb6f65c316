//! What a process sets on a device and what it asks of it: the device flags (how a host thread waits), the
//! resource limits, the profiler switch, free and total memory, and the occupancy calculator. Flags, limits and
//! the profiler switch are per process and device (CUDA: the primary context), shared by the host threads, and
//! forgotten by a reset of the device.

use std::collections::BTreeMap;

/// How a host thread waits for the device (CUDA `cudaDeviceSchedule*`). The simulator never spins and never
/// sleeps for virtual time, so the policy changes no result, no virtual time and no trace: it is stored and
/// reported, as the vendor's runtime reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WaitPolicy {
    /// The runtime chooses (`cudaDeviceScheduleAuto`, the default).
    #[default]
    Auto,
    /// Spin while waiting (`cudaDeviceScheduleSpin`).
    Spin,
    /// Yield the CPU while waiting (`cudaDeviceScheduleYield`).
    Yield,
    /// Block on a synchronization primitive (`cudaDeviceScheduleBlockingSync`).
    BlockingSync,
}

/// A device's flags for a process (CUDA `cudaSetDeviceFlags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DeviceFlags {
    /// How host threads wait.
    pub wait: WaitPolicy,
    /// Pinned host memory may be mapped into the device's address space (`cudaDeviceMapHost`). The runtime's
    /// contexts always have it, so [`Process::device_flags`](crate::Process::device_flags) reports it set whatever was asked.
    pub map_host: bool,
    /// Keep local memory after a launch resized it (`cudaDeviceLmemResizeToMax`, deprecated: the behaviour
    /// is always on).
    pub keep_local_memory: bool,
    /// Synchronous memory operations always synchronize (`cudaDeviceSyncMemops`).
    pub sync_memops: bool,
}

/// A device resource limit (CUDA `enum cudaLimit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeviceLimit {
    /// The stack size of each device thread, in bytes (default 1024).
    StackSize,
    /// The size of the FIFO of device-side `printf`, in bytes (default 1 MiB).
    PrintfFifoSize,
    /// The size of the heap of device-side `malloc`, in bytes (default 8 MiB).
    MallocHeapSize,
    /// The deepest grid nesting at which a device thread may synchronize on its children (default 2, at most
    /// 24; not on compute capability 9.0 and later).
    SyncDepth,
    /// The most outstanding device-side launches (default 2048; compute capability 3.5 and later).
    PendingLaunchCount,
    /// The L2 fetch granularity hint, 0 to 128 bytes (default 64; larger values are clamped).
    MaxL2FetchGranularity,
    /// The L2 persisting-lines cache size, in bytes (default 0; clamped to the device's
    /// [`Attribute::MaxPersistingL2CacheSize`](crate::Attribute::MaxPersistingL2CacheSize)).
    PersistingL2CacheSize,
}

impl DeviceLimit {
    /// The value a device starts with.
    pub fn default_value(self) -> u64 {
        match self {
            DeviceLimit::StackSize => 1024,
            DeviceLimit::PrintfFifoSize => 1 << 20,
            DeviceLimit::MallocHeapSize => 8 << 20,
            DeviceLimit::SyncDepth => 2,
            DeviceLimit::PendingLaunchCount => 2048,
            DeviceLimit::MaxL2FetchGranularity => 64,
            DeviceLimit::PersistingL2CacheSize => 0,
        }
    }
}

/// The deepest nesting [`DeviceLimit::SyncDepth`] can be set to.
pub const MAX_SYNC_DEPTH: u64 = 24;

/// A process's settings of one device.
#[derive(Debug, Clone, Default)]
pub(crate) struct DeviceSettings {
    pub flags: DeviceFlags,
    /// Limits set explicitly (the others have their default value).
    pub limits: BTreeMap<DeviceLimit, u64>,
    pub profiling: bool,
}
