//! A device's configuration: the [`Attribute`]s the simulator models and a [`DeviceConfig`] holding their
//! values (memory, name, the profile of `profile.rs`), set per device in the [`MachineBuilder`].
//!
//! [`MachineBuilder`]: crate::engine::machine::MachineBuilder

use std::collections::BTreeMap;

/// A device attribute (the ones the simulator models; the facades map theirs onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Attribute {
    /// Streaming multiprocessors (CUDA `cudaDevAttrMultiProcessorCount`).
    MultiprocessorCount,
    /// Threads per warp.
    WarpSize,
    /// AI cores (ACL `ACL_DEV_ATTR_AICORE_CORE_NUM`).
    AiCoreCount,
    /// Cube cores (ACL).
    CubeCoreCount,
    /// Vector cores (ACL `ACL_DEV_ATTR_VECTOR_CORE_NUM`).
    VectorCoreCount,
    /// AI CPU cores (ACL).
    AiCpuCoreCount,
    /// Device memory in bytes.
    TotalMemory,
    // The attributes below are the device profile that CUDA's `cudaDeviceProp` and `cudaDeviceGetAttribute`
    // report (see `profile.rs` for the default values and their sources).
    /// Compute capability, major number.
    ComputeCapabilityMajor,
    /// Compute capability, minor number.
    ComputeCapabilityMinor,
    /// Most threads in one block.
    MaxThreadsPerBlock,
    /// Largest block dimension x.
    MaxBlockDimX,
    /// Largest block dimension y.
    MaxBlockDimY,
    /// Largest block dimension z.
    MaxBlockDimZ,
    /// Largest grid dimension x.
    MaxGridDimX,
    /// Largest grid dimension y.
    MaxGridDimY,
    /// Largest grid dimension z.
    MaxGridDimZ,
    /// Shared memory one block can use, in bytes.
    SharedMemoryPerBlock,
    /// Shared memory one block can use when it opts in, in bytes.
    SharedMemoryPerBlockOptin,
    /// Shared memory of one multiprocessor, in bytes.
    SharedMemoryPerMultiprocessor,
    /// Shared memory the system reserves per block, in bytes.
    ReservedSharedMemoryPerBlock,
    /// Constant memory, in bytes.
    TotalConstantMemory,
    /// 32-bit registers one block can use.
    RegistersPerBlock,
    /// 32-bit registers of one multiprocessor.
    RegistersPerMultiprocessor,
    /// Most resident threads per multiprocessor.
    MaxThreadsPerMultiprocessor,
    /// Most resident blocks per multiprocessor.
    MaxBlocksPerMultiprocessor,
    /// Largest pitch of a pitched copy, in bytes.
    MaxPitch,
    /// Peak clock rate, in kHz.
    ClockRateKhz,
    /// Peak memory clock rate, in kHz.
    MemoryClockRateKhz,
    /// Global memory bus width, in bits.
    MemoryBusWidth,
    /// L2 cache size, in bytes.
    L2CacheSize,
    /// Largest L2 persisting-lines cache size, in bytes (0: not supported).
    MaxPersistingL2CacheSize,
    /// Texture base alignment, in bytes.
    TextureAlignment,
    /// Texture pitch alignment, in bytes.
    TexturePitchAlignment,
    /// Surface alignment, in bytes.
    SurfaceAlignment,
    /// Largest 1D texture width.
    MaxTexture1DWidth,
    /// Largest 2D texture width.
    MaxTexture2DWidth,
    /// Largest 2D texture height.
    MaxTexture2DHeight,
    /// Largest 3D texture width.
    MaxTexture3DWidth,
    /// Largest 3D texture height.
    MaxTexture3DHeight,
    /// Largest 3D texture depth.
    MaxTexture3DDepth,
    /// Largest layered 1D texture width.
    MaxTexture1DLayeredWidth,
    /// Most layers of a layered 1D texture.
    MaxTexture1DLayeredLayers,
    /// Largest layered 2D texture width.
    MaxTexture2DLayeredWidth,
    /// Largest layered 2D texture height.
    MaxTexture2DLayeredHeight,
    /// Most layers of a layered 2D texture.
    MaxTexture2DLayeredLayers,
    /// Copy engines that can run concurrently with kernels (reported only: the simulator has no engine
    /// model).
    AsyncEngineCount,
    /// 1 if copies can overlap kernels (`deviceOverlap`).
    GpuOverlap,
    /// 1 if kernels from several streams can run concurrently.
    ConcurrentKernels,
    /// 1 if kernels have a run-time limit.
    KernelExecTimeout,
    /// 1 for an integrated GPU that shares host memory.
    Integrated,
    /// 1 if pinned host memory can be mapped into the device's address space.
    CanMapHostMemory,
    /// 1 if the device shares one address space with the host (unified addressing).
    UnifiedAddressing,
    /// 1 if the device can use the host pointer of registered memory.
    CanUseHostPointerForRegisteredMem,
    /// 1 if host memory can be registered (page-locked in place).
    HostRegisterSupported,
    /// 1 if host memory can be registered read-only.
    HostRegisterReadOnlySupported,
    /// 1 if managed (unified) memory is supported.
    ManagedMemory,
    /// 1 if the device can access managed memory concurrently with the host (`concurrentManagedAccess`):
    /// prefetches to it and advice naming it are allowed; 0 models a device before compute capability 6.x, on
    /// which the host must not touch managed memory while a kernel runs (`docs/semantics/managed-memory.md`).
    ConcurrentManagedAccess,
    /// The compute mode (0 default, 1 exclusive thread, 2 prohibited, 3 exclusive process).
    ComputeMode,
    /// 1 if ECC is enabled.
    EccEnabled,
    /// 1 if the device uses the TCC driver (Windows).
    TccDriver,
    /// 1 if compute preemption is supported.
    ComputePreemptionSupported,
    /// 1 if cooperative launches are supported.
    CooperativeLaunch,
    /// 1 if multi-device cooperative launches are supported.
    CooperativeMultiDeviceLaunch,
    /// 1 if stream priorities are supported.
    StreamPrioritiesSupported,
    /// 1 if the device supports IPC events.
    IpcEventSupported,
    /// PCI domain.
    PciDomainId,
    /// PCI bus.
    PciBusId,
    /// PCI device (slot).
    PciDeviceId,
}

/// One device's configuration. `Default` is a 40 GiB device with CUDA's stream priority range and the
/// compute-capability 8.0, A100-class profile of `profile.rs` (108 multiprocessors, warp size 32, …). The PCI
/// location (`PciDomainId`, `PciBusId`, `PciDeviceId`) defaults to `0000:<ordinal + 1>:00.0`, assigned when
/// the machine is built; locations must be distinct.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceConfig {
    /// A name for messages and traces.
    pub name: String,
    /// Device memory in bytes.
    pub memory: u64,
    /// Stream priorities: (least, greatest). Lower numbers are higher priorities; CUDA's range is (0, -5).
    pub priority_range: (i32, i32),
    /// Attribute values (`TotalMemory` is always `memory`).
    pub attributes: BTreeMap<Attribute, i64>,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            name: "streamsim device".to_string(),
            memory: 40 << 30,
            priority_range: (0, -5),
            attributes: BTreeMap::from([
                (Attribute::MultiprocessorCount, 108),
                (Attribute::WarpSize, 32),
                (Attribute::AiCoreCount, 24),
                (Attribute::CubeCoreCount, 24),
                (Attribute::VectorCoreCount, 48),
                (Attribute::AiCpuCoreCount, 6),
            ])
            .into_iter()
            .chain(
                crate::engine::devices::profile::DEFAULT_PROFILE
                    .iter()
                    .copied(),
            )
            .collect(),
        }
    }
}

impl DeviceConfig {
    /// Sets the memory size in bytes.
    #[must_use]
    pub fn memory(mut self, bytes: u64) -> Self {
        self.memory = bytes;
        self
    }

    /// Sets an attribute.
    #[must_use]
    pub fn attribute(mut self, attr: Attribute, value: i64) -> Self {
        self.attributes.insert(attr, value);
        self
    }

    /// Sets [`Attribute::ConcurrentManagedAccess`] (1 by default): `false` models a device before compute
    /// capability 6.x, where the host must not touch managed memory while a kernel runs.
    #[must_use]
    pub fn concurrent_managed_access(self, on: bool) -> Self {
        self.attribute(Attribute::ConcurrentManagedAccess, i64::from(on))
    }

    /// Sets the name.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Sets the stream priority range (least, greatest).
    #[must_use]
    pub fn priority_range(mut self, least: i32, greatest: i32) -> Self {
        self.priority_range = (least, greatest);
        self
    }
}
