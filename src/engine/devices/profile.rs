//! The default device profile and the devices' PCI locations.
//!
//! [`DEFAULT_PROFILE`] is what [`DeviceConfig::default`] holds beyond its memory, name and core counts: a
//! compute-capability 7.0 device of the V100 class (80 multiprocessors and 16 GiB, the defaults the machine
//! already had), with the architectural limits CUDA documents for compute capability 7.0 (CUDA C++ Programming
//! Guide, "Compute Capabilities" table: 1024 threads per block, 2048 threads and 32 blocks per multiprocessor,
//! 64 K registers, 96 KiB of shared memory per multiprocessor, 48 KiB per block by default) and clock, memory and
//! cache figures of that class. The simulator uses none of them for timing (virtual time comes from the cost
//! model); they are what `cudaGetDeviceProperties` and `cudaDeviceGetAttribute` report, and what the occupancy
//! calculator computes with. Any of them can be overridden per device with [`DeviceConfig::attribute`].

use crate::engine::core::error::{Result, SimError};
use crate::engine::devices::config::{Attribute, DeviceConfig};

/// The default profile: (attribute, value).
pub(crate) const DEFAULT_PROFILE: &[(Attribute, i64)] = &[
    (Attribute::ComputeCapabilityMajor, 7),
    (Attribute::ComputeCapabilityMinor, 0),
    (Attribute::MaxThreadsPerBlock, 1024),
    (Attribute::MaxBlockDimX, 1024),
    (Attribute::MaxBlockDimY, 1024),
    (Attribute::MaxBlockDimZ, 64),
    (Attribute::MaxGridDimX, 2_147_483_647),
    (Attribute::MaxGridDimY, 65535),
    (Attribute::MaxGridDimZ, 65535),
    (Attribute::SharedMemoryPerBlock, 49152),
    (Attribute::SharedMemoryPerBlockOptin, 98304),
    (Attribute::SharedMemoryPerMultiprocessor, 98304),
    (Attribute::ReservedSharedMemoryPerBlock, 0),
    (Attribute::TotalConstantMemory, 65536),
    (Attribute::RegistersPerBlock, 65536),
    (Attribute::RegistersPerMultiprocessor, 65536),
    (Attribute::MaxThreadsPerMultiprocessor, 2048),
    (Attribute::MaxBlocksPerMultiprocessor, 32),
    (Attribute::MaxPitch, 2_147_483_647),
    (Attribute::ClockRateKhz, 1_530_000),
    (Attribute::MemoryClockRateKhz, 877_000),
    (Attribute::MemoryBusWidth, 4096),
    (Attribute::L2CacheSize, 6_291_456),
    (Attribute::MaxPersistingL2CacheSize, 0),
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
    (Attribute::AsyncEngineCount, 6),
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
