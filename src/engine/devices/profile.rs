//! The default device profile and the devices' PCI locations.
//!
//! [`DEFAULT_PROFILE`] is what [`DeviceConfig::default`] holds beyond its memory, name and core counts: a
//! compute-capability 8.0 device of the A100 class. [`DeviceConfig::default`] gives it the A100-SXM4-40GB's
//! 108 multiprocessors and 40 GiB (the board's 40960 MiB of HBM2; the driver of the `deviceQuery` below reports
//! 42298834944 bytes of it as global memory); its name stays the machine's, since ACL reports the same name as
//! its SoC name. The profile has the architectural limits CUDA documents for compute capability 8.0 (CUDA C++
//! Programming Guide, "Compute Capabilities" table: 1024 threads per block, 2048 threads and 32 blocks per
//! multiprocessor, 64 K 32-bit registers per multiprocessor and per block, 164 KiB of shared memory per
//! multiprocessor, 48 KiB per block by default and 163 KiB when a kernel opts in, 1 KiB reserved per block by
//! the system) and the A100-SXM4-40GB's clock, memory and cache figures: 40 MB of L2 (NVIDIA A100 Tensor Core
//! GPU Architecture whitepaper), 30 MiB of it at most for persisting accesses (`persistingL2CacheMaxSize`), and
//! what `deviceQuery` prints on that board, as posted in bottlerocket-os/bottlerocket pull request #3873
//! (<https://github.com/bottlerocket-os/bottlerocket/pull/3873>): "CUDA Capability Major/Minor version number:
//! 8.0", "(108) Multiprocessors", "GPU Max Clock rate: 1410 MHz", "Memory Clock rate: 1215 Mhz", "Memory Bus
//! Width: 5120-bit", "L2 Cache Size: 41943040 bytes", "Total shared memory per multiprocessor: 167936 bytes",
//! "Concurrent copy and kernel execution: Yes with 3 copy engine(s)". They are what `cudaGetDeviceProperties`
//! and `cudaDeviceGetAttribute` report, and what the occupancy calculator computes with; none of them sets
//! virtual time, which comes from the cost model, except through the engine model (`AsyncEngineCount` 3: one
//! copy engine per direction; `ConcurrentKernels`). Any of them can be overridden per device with
//! [`DeviceConfig::attribute`].

use crate::engine::core::error::{Result, SimError};
use crate::engine::devices::config::{Attribute, DeviceConfig};

/// The default profile: (attribute, value).
pub(crate) const DEFAULT_PROFILE: &[(Attribute, i64)] = &[
    (Attribute::ComputeCapabilityMajor, 8),
    (Attribute::ComputeCapabilityMinor, 0),
    (Attribute::MaxThreadsPerBlock, 1024),
    (Attribute::MaxBlockDimX, 1024),
    (Attribute::MaxBlockDimY, 1024),
    (Attribute::MaxBlockDimZ, 64),
    (Attribute::MaxGridDimX, 2_147_483_647),
    (Attribute::MaxGridDimY, 65535),
    (Attribute::MaxGridDimZ, 65535),
    (Attribute::SharedMemoryPerBlock, 49152),
    (Attribute::SharedMemoryPerBlockOptin, 166_912),
    (Attribute::SharedMemoryPerMultiprocessor, 167_936),
    (Attribute::ReservedSharedMemoryPerBlock, 1024),
    (Attribute::TotalConstantMemory, 65536),
    (Attribute::RegistersPerBlock, 65536),
    (Attribute::RegistersPerMultiprocessor, 65536),
    (Attribute::MaxThreadsPerMultiprocessor, 2048),
    (Attribute::MaxBlocksPerMultiprocessor, 32),
    (Attribute::MaxPitch, 2_147_483_647),
    (Attribute::ClockRateKhz, 1_410_000),
    (Attribute::MemoryClockRateKhz, 1_215_000),
    (Attribute::MemoryBusWidth, 5120),
    (Attribute::L2CacheSize, 41_943_040),
    (Attribute::MaxPersistingL2CacheSize, 31_457_280),
    (Attribute::TextureAlignment, 512),
    (Attribute::TexturePitchAlignment, 32),
    (Attribute::SurfaceAlignment, 512),
    (Attribute::MaxTexture1DWidth, 131_072),
    (Attribute::MaxTexture2DWidth, 131_072),
    (Attribute::MaxTexture2DHeight, 65536),
    (Attribute::MaxTexture3DWidth, 16384),
    (Attribute::MaxTexture3DHeight, 16384),
    (Attribute::MaxTexture3DDepth, 16384),
    (Attribute::MaxTexture1DLayeredWidth, 32768),
    (Attribute::MaxTexture1DLayeredLayers, 2048),
    (Attribute::MaxTexture2DLayeredWidth, 32768),
    (Attribute::MaxTexture2DLayeredHeight, 32768),
    (Attribute::MaxTexture2DLayeredLayers, 2048),
    (Attribute::AsyncEngineCount, 3),
    (Attribute::GpuOverlap, 1),
    (Attribute::ConcurrentKernels, 1),
    (Attribute::KernelExecTimeout, 0),
    (Attribute::Integrated, 0),
    (Attribute::CanMapHostMemory, 1),
    (Attribute::UnifiedAddressing, 1),
    (Attribute::CanUseHostPointerForRegisteredMem, 1),
    (Attribute::HostRegisterSupported, 1),
    (Attribute::HostRegisterReadOnlySupported, 0),
    (Attribute::ManagedMemory, 1),
    (Attribute::ConcurrentManagedAccess, 1),
    (Attribute::ComputeMode, 0),
    (Attribute::EccEnabled, 1),
    (Attribute::TccDriver, 0),
    (Attribute::ComputePreemptionSupported, 1),
    (Attribute::CooperativeLaunch, 1),
    (Attribute::CooperativeMultiDeviceLaunch, 1),
    (Attribute::StreamPrioritiesSupported, 1),
    (Attribute::IpcEventSupported, 1),
];

/// The largest PCI domain, bus and device numbers.
const PCI_LIMITS: [(Attribute, i64); 3] = [
    (Attribute::PciDomainId, 0xFFFF),
    (Attribute::PciBusId, 0xFF),
    (Attribute::PciDeviceId, 0x1F),
];

/// Gives every device without a PCI location the default one (device `i`: domain `i / 255`, bus
/// `i % 255 + 1`, device 0), and checks that the locations are in range and distinct (a bus id names one
/// device: `cudaDeviceGetByPCIBusId`).
pub(crate) fn assign_pci(devices: &mut [DeviceConfig]) -> Result<()> {
    let mut seen = std::collections::BTreeMap::new();
    for (i, d) in devices.iter_mut().enumerate() {
        let i = i as i64;
        let defaults = [(i / 255), (i % 255 + 1), 0];
        for ((attr, max), default) in PCI_LIMITS.iter().zip(defaults) {
            let v = *d.attributes.entry(*attr).or_insert(default);
            if !(0..=*max).contains(&v) {
                return Err(SimError::InvalidValue {
                    what: "DeviceConfig PCI location",
                    reason: format!("device {i}: {attr:?} {v} is outside 0..={max:#x}"),
                });
            }
        }
        let at = |a| d.attributes[&a];
        let loc = (
            at(Attribute::PciDomainId),
            at(Attribute::PciBusId),
            at(Attribute::PciDeviceId),
        );
        if let Some(other) = seen.insert(loc, i) {
            return Err(SimError::InvalidValue {
                what: "DeviceConfig PCI location",
                reason: format!(
                    "devices {other} and {i} have the same PCI location {:04x}:{:02x}:{:02x}",
                    loc.0, loc.1, loc.2
                ),
            });
        }
    }
    Ok(())
}
