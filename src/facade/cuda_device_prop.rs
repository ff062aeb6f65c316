//! `struct cudaDeviceProp` (and `musaDeviceProp`) with CUDA 12's layout, filled from the machine's device
//! configuration, and `cudaDeviceGetAttribute`'s table of attributes, read from the same struct so that the two
//! calls can never disagree.
//!
//! Layout: CUDA 12.5 `driver_types.h` (`struct cudaDeviceProp`, 1008 bytes on LP64), field for field; see
//! <https://docs.nvidia.com/cuda/cuda-runtime-api/structcudaDeviceProp.html>. Fields the device profile does not
//! hold (mipmapped, linear, gather, cubemap and surface limits, NUMA and RDMA details) are 0.
#![allow(
    non_snake_case,
    reason = "the vendor's field names, which C code reads (prop.maxThreadsPerBlock)"
)]

use std::ffi::{c_char, c_int, c_uint};

use crate::engine::core::error::SimError;
use crate::engine::machine::{Attribute, Machine};

/// `cudaUUID_t` / `musaUUID_t`: 16 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uuid {
    /// The bytes.
    pub bytes: [c_char; 16],
}

/// `struct cudaDeviceProp` (CUDA 12), `struct musaDeviceProp`: a device's properties.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DeviceProp {
    /// The device name, NUL-terminated.
    pub name: [c_char; 256],
    /// A 16-byte unique identifier.
    pub uuid: Uuid,
    /// The Windows LUID (0 here).
    pub luid: [c_char; 8],
    /// The Windows LUID node mask (0 here).
    pub luidDeviceNodeMask: c_uint,
    /// Device memory in bytes.
    pub totalGlobalMem: usize,
    /// Shared memory a block can use, in bytes.
    pub sharedMemPerBlock: usize,
    /// 32-bit registers a block can use.
    pub regsPerBlock: c_int,
    /// Threads per warp.
    pub warpSize: c_int,
    /// Largest pitch of a pitched copy, in bytes.
    pub memPitch: usize,
    /// Most threads per block.
    pub maxThreadsPerBlock: c_int,
    /// Largest block dimensions (x, y, z).
    pub maxThreadsDim: [c_int; 3],
    /// Largest grid dimensions (x, y, z).
    pub maxGridSize: [c_int; 3],
    /// Peak clock rate in kHz.
    pub clockRate: c_int,
    /// Constant memory in bytes.
    pub totalConstMem: usize,
    /// Compute capability, major.
    pub major: c_int,
    /// Compute capability, minor.
    pub minor: c_int,
    /// Texture base alignment in bytes.
    pub textureAlignment: usize,
    /// Pitch alignment of 2D textures bound to pitched memory, in bytes.
    pub texturePitchAlignment: usize,
    /// 1 if copies can overlap kernels (deprecated in favour of asyncEngineCount).
    pub deviceOverlap: c_int,
    /// Multiprocessors.
    pub multiProcessorCount: c_int,
    /// 1 if kernels have a run-time limit.
    pub kernelExecTimeoutEnabled: c_int,
    /// 1 for an integrated GPU.
    pub integrated: c_int,
    /// 1 if pinned host memory can be mapped.
    pub canMapHostMemory: c_int,
    /// Compute mode (`enum cudaComputeMode`).
    pub computeMode: c_int,
    /// Largest 1D texture width.
    pub maxTexture1D: c_int,
    /// Largest mipmapped 1D texture width (0 here).
    pub maxTexture1DMipmap: c_int,
    /// Largest linear 1D texture width (0 here).
    pub maxTexture1DLinear: c_int,
    /// Largest 2D texture (width, height).
    pub maxTexture2D: [c_int; 2],
    /// Largest mipmapped 2D texture (0 here).
    pub maxTexture2DMipmap: [c_int; 2],
    /// Largest linear 2D texture (0 here).
    pub maxTexture2DLinear: [c_int; 3],
    /// Largest 2D gather texture (0 here).
    pub maxTexture2DGather: [c_int; 2],
    /// Largest 3D texture (width, height, depth).
    pub maxTexture3D: [c_int; 3],
    /// Alternate largest 3D texture (0 here).
    pub maxTexture3DAlt: [c_int; 3],
    /// Largest cubemap texture (0 here).
    pub maxTextureCubemap: c_int,
    /// Largest layered 1D texture (width, layers).
    pub maxTexture1DLayered: [c_int; 2],
    /// Largest layered 2D texture (width, height, layers).
    pub maxTexture2DLayered: [c_int; 3],
    /// Largest layered cubemap (0 here).
    pub maxTextureCubemapLayered: [c_int; 2],
    /// Largest 1D surface (0 here).
    pub maxSurface1D: c_int,
    /// Largest 2D surface (0 here).
    pub maxSurface2D: [c_int; 2],
    /// Largest 3D surface (0 here).
    pub maxSurface3D: [c_int; 3],
    /// Largest layered 1D surface (0 here).
    pub maxSurface1DLayered: [c_int; 2],
    /// Largest layered 2D surface (0 here).
    pub maxSurface2DLayered: [c_int; 3],
    /// Largest cubemap surface (0 here).
    pub maxSurfaceCubemap: c_int,
    /// Largest layered cubemap surface (0 here).
    pub maxSurfaceCubemapLayered: [c_int; 2],
    /// Surface alignment in bytes.
    pub surfaceAlignment: usize,
    /// 1 if kernels of several streams can run at once.
    pub concurrentKernels: c_int,
    /// 1 if ECC is on.
    pub ECCEnabled: c_int,
    /// PCI bus.
    pub pciBusID: c_int,
    /// PCI device (slot).
    pub pciDeviceID: c_int,
    /// PCI domain.
    pub pciDomainID: c_int,
    /// 1 with the TCC driver (Windows).
    pub tccDriver: c_int,
    /// Asynchronous copy engines.
    pub asyncEngineCount: c_int,
    /// 1 if the device shares an address space with the host.
    pub unifiedAddressing: c_int,
    /// Peak memory clock in kHz.
    pub memoryClockRate: c_int,
    /// Memory bus width in bits.
    pub memoryBusWidth: c_int,
    /// L2 cache in bytes.
    pub l2CacheSize: c_int,
    /// Largest persisting L2 cache in bytes.
    pub persistingL2CacheMaxSize: c_int,
    /// Most resident threads per multiprocessor.
    pub maxThreadsPerMultiProcessor: c_int,
    /// 1 if stream priorities are supported.
    pub streamPrioritiesSupported: c_int,
    /// 1 if global memory is cached in L1 (0 here).
    pub globalL1CacheSupported: c_int,
    /// 1 if local memory is cached in L1 (0 here).
    pub localL1CacheSupported: c_int,
    /// Shared memory per multiprocessor in bytes.
    pub sharedMemPerMultiprocessor: usize,
    /// 32-bit registers per multiprocessor.
    pub regsPerMultiprocessor: c_int,
    /// 1 if managed memory is supported.
    pub managedMemory: c_int,
    /// 1 on a multi-GPU board (0 here).
    pub isMultiGpuBoard: c_int,
    /// The multi-GPU board group (0 here).
    pub multiGpuBoardGroupID: c_int,
    /// 1 for native host atomics (0 here).
    pub hostNativeAtomicSupported: c_int,
    /// Single- to double-precision throughput ratio (0 here).
    pub singleToDoublePrecisionPerfRatio: c_int,
    /// 1 if the device can access pageable memory coherently (0 here).
    pub pageableMemoryAccess: c_int,
    /// 1 for concurrent managed access (the profile's `ConcurrentManagedAccess`, 1 by default).
    pub concurrentManagedAccess: c_int,
    /// 1 if compute preemption is supported.
    pub computePreemptionSupported: c_int,
    /// 1 if the device can use the host pointer of registered memory.
    pub canUseHostPointerForRegisteredMem: c_int,
    /// 1 if cooperative launches are supported.
    pub cooperativeLaunch: c_int,
    /// 1 if multi-device cooperative launches are supported.
    pub cooperativeMultiDeviceLaunch: c_int,
    /// Shared memory a block can opt in to, in bytes.
    pub sharedMemPerBlockOptin: usize,
    /// 1 if pageable access uses the host page tables (0 here).
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    /// 1 if the host can access managed memory directly (0 here).
    pub directManagedMemAccessFromHost: c_int,
    /// Most resident blocks per multiprocessor.
    pub maxBlocksPerMultiProcessor: c_int,
    /// Largest access-policy window (0 here).
    pub accessPolicyMaxWindowSize: c_int,
    /// Shared memory reserved per block, in bytes.
    pub reservedSharedMemPerBlock: usize,
    /// 1 if host memory can be registered.
    pub hostRegisterSupported: c_int,
    /// 1 for sparse arrays (0 here).
    pub sparseCudaArraySupported: c_int,
    /// 1 if host memory can be registered read-only.
    pub hostRegisterReadOnlySupported: c_int,
    /// 1 for timeline semaphore interop (0 here).
    pub timelineSemaphoreInteropSupported: c_int,
    /// 1 if memory pools are supported (1: `cudaMallocAsync` and the pools are simulated).
    pub memoryPoolsSupported: c_int,
    /// 1 for GPUDirect RDMA (0 here).
    pub gpuDirectRDMASupported: c_int,
    /// GPUDirect RDMA flush options (0 here).
    pub gpuDirectRDMAFlushWritesOptions: c_uint,
    /// GPUDirect RDMA write ordering (0 here).
    pub gpuDirectRDMAWritesOrdering: c_int,
    /// Pool IPC handle types (0 here).
    pub memoryPoolSupportedHandleTypes: c_uint,
    /// 1 for deferred array mapping (0 here).
    pub deferredMappingCudaArraySupported: c_int,
    /// 1 if IPC events are supported.
    pub ipcEventSupported: c_int,
    /// 1 for cluster launches (0 here).
    pub clusterLaunch: c_int,
    /// 1 for unified function pointers (0 here).
    pub unifiedFunctionPointers: c_int,
    /// Reserved (0).
    pub reserved2: [c_int; 2],
    /// Reserved (0).
    pub reserved1: [c_int; 1],
    /// Reserved (0).
    pub reserved: [c_int; 60],
}

/// A configured value as C's `int`: saturated (a value outside `int` is never truncated to a wrong one).
fn int(v: i64) -> c_int {
    c_int::try_from(v).unwrap_or(if v < 0 { c_int::MIN } else { c_int::MAX })
}

/// A configured value as `size_t` (negative: 0).
fn size(v: i64) -> usize {
    usize::try_from(v).unwrap_or(0)
}

/// The 16 bytes of device `d`'s UUID: derived from the machine's seed and the device ordinal, so stable
/// from run to run (sim: the vendor's is the board's).
fn uuid(seed: u64, d: u32) -> Uuid {
    let mut x = seed ^ 0x5353_494d_0000_0000 ^ (u64::from(d) << 8);
    let mut bytes = [0 as c_char; 16];
    for chunk in bytes.chunks_mut(8) {
        // splitmix64, one step per 8 bytes.
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        for (b, v) in chunk.iter_mut().zip(z.to_le_bytes()) {
            *b = v as c_char;
        }
    }
    Uuid { bytes }
}

/// Device `d`'s properties.
pub(crate) fn device_prop(m: &Machine, d: u32) -> Result<DeviceProp, SimError> {
    let cfg = m.device_config(d)?;
    let a = |attr: Attribute| m.device_attribute(d, attr).unwrap_or(0);
    let i = |attr: Attribute| int(a(attr));
    let z = |attr: Attribute| size(a(attr));
    // SAFETY: every field is an integer or an array of integers, for which all-zero bytes are a valid value.
    let mut p: DeviceProp = unsafe { std::mem::zeroed() };
    for (dst, src) in p.name.iter_mut().zip(cfg.name.bytes().take(255)) {
        *dst = src as c_char;
    }
    p.uuid = uuid(m.seed(), d);
    p.totalGlobalMem = z(Attribute::TotalMemory);
    p.sharedMemPerBlock = z(Attribute::SharedMemoryPerBlock);
    p.regsPerBlock = i(Attribute::RegistersPerBlock);
    p.warpSize = i(Attribute::WarpSize);
    p.memPitch = z(Attribute::MaxPitch);
    p.maxThreadsPerBlock = i(Attribute::MaxThreadsPerBlock);
    p.maxThreadsDim = [
        i(Attribute::MaxBlockDimX),
        i(Attribute::MaxBlockDimY),
        i(Attribute::MaxBlockDimZ),
    ];
    p.maxGridSize = [
        i(Attribute::MaxGridDimX),
        i(Attribute::MaxGridDimY),
        i(Attribute::MaxGridDimZ),
    ];
    p.clockRate = i(Attribute::ClockRateKhz);
    p.totalConstMem = z(Attribute::TotalConstantMemory);
    p.major = i(Attribute::ComputeCapabilityMajor);
    p.minor = i(Attribute::ComputeCapabilityMinor);
    p.textureAlignment = z(Attribute::TextureAlignment);
    p.texturePitchAlignment = z(Attribute::TexturePitchAlignment);
    p.deviceOverlap = i(Attribute::GpuOverlap);
    p.multiProcessorCount = i(Attribute::MultiprocessorCount);
    p.kernelExecTimeoutEnabled = i(Attribute::KernelExecTimeout);
    p.integrated = i(Attribute::Integrated);
    p.canMapHostMemory = i(Attribute::CanMapHostMemory);
    p.computeMode = i(Attribute::ComputeMode);
    p.maxTexture1D = i(Attribute::MaxTexture1DWidth);
    p.maxTexture2D = [
        i(Attribute::MaxTexture2DWidth),
        i(Attribute::MaxTexture2DHeight),
    ];
    p.maxTexture3D = [
        i(Attribute::MaxTexture3DWidth),
        i(Attribute::MaxTexture3DHeight),
        i(Attribute::MaxTexture3DDepth),
    ];
    p.maxTexture1DLayered = [
        i(Attribute::MaxTexture1DLayeredWidth),
        i(Attribute::MaxTexture1DLayeredLayers),
    ];
    p.maxTexture2DLayered = [
        i(Attribute::MaxTexture2DLayeredWidth),
        i(Attribute::MaxTexture2DLayeredHeight),
        i(Attribute::MaxTexture2DLayeredLayers),
    ];
    p.surfaceAlignment = z(Attribute::SurfaceAlignment);
    p.concurrentKernels = i(Attribute::ConcurrentKernels);
    p.ECCEnabled = i(Attribute::EccEnabled);
    p.pciBusID = i(Attribute::PciBusId);
    p.pciDeviceID = i(Attribute::PciDeviceId);
    p.pciDomainID = i(Attribute::PciDomainId);
    p.tccDriver = i(Attribute::TccDriver);
    p.asyncEngineCount = i(Attribute::AsyncEngineCount);
    p.unifiedAddressing = i(Attribute::UnifiedAddressing);
    p.memoryClockRate = i(Attribute::MemoryClockRateKhz);
    p.memoryBusWidth = i(Attribute::MemoryBusWidth);
    p.l2CacheSize = i(Attribute::L2CacheSize);
    p.persistingL2CacheMaxSize = i(Attribute::MaxPersistingL2CacheSize);
    p.maxThreadsPerMultiProcessor = i(Attribute::MaxThreadsPerMultiprocessor);
    p.streamPrioritiesSupported = i(Attribute::StreamPrioritiesSupported);
    p.sharedMemPerMultiprocessor = z(Attribute::SharedMemoryPerMultiprocessor);
    p.regsPerMultiprocessor = i(Attribute::RegistersPerMultiprocessor);
    p.managedMemory = i(Attribute::ManagedMemory);
    p.concurrentManagedAccess = i(Attribute::ConcurrentManagedAccess);
    p.computePreemptionSupported = i(Attribute::ComputePreemptionSupported);
    p.canUseHostPointerForRegisteredMem = i(Attribute::CanUseHostPointerForRegisteredMem);
    p.cooperativeLaunch = i(Attribute::CooperativeLaunch);
    p.cooperativeMultiDeviceLaunch = i(Attribute::CooperativeMultiDeviceLaunch);
    p.sharedMemPerBlockOptin = z(Attribute::SharedMemoryPerBlockOptin);
    p.maxBlocksPerMultiProcessor = i(Attribute::MaxBlocksPerMultiprocessor);
    p.reservedSharedMemPerBlock = z(Attribute::ReservedSharedMemoryPerBlock);
    p.hostRegisterSupported = i(Attribute::HostRegisterSupported);
    p.hostRegisterReadOnlySupported = i(Attribute::HostRegisterReadOnlySupported);
    p.ipcEventSupported = i(Attribute::IpcEventSupported);
    // docs/semantics/stream-ordered-memory.md: pools are simulated (IPC pools are not: no handle types).
    p.memoryPoolsSupported = 1;
    Ok(p)
}

/// A `size_t` field as an attribute's `int` (saturated).
fn sz(v: usize) -> c_int {
    c_int::try_from(v).unwrap_or(c_int::MAX)
}

/// `cudaDeviceGetAttribute`'s value of attribute `code` (`enum cudaDeviceAttr`, CUDA 12.5 `driver_types.h`),
/// read from the properties: `None` for a code that is not a `cudaDeviceAttr` with a `cudaDeviceProp` field.
pub(crate) fn attribute(p: &DeviceProp, code: c_int) -> Option<c_int> {
    Some(match code {
        1 => p.maxThreadsPerBlock,
        2..=4 => p.maxThreadsDim[(code - 2) as usize],
        5..=7 => p.maxGridSize[(code - 5) as usize],
        8 => sz(p.sharedMemPerBlock),
        9 => sz(p.totalConstMem),
        10 => p.warpSize,
        11 => sz(p.memPitch),
        12 => p.regsPerBlock,
        13 => p.clockRate,
        14 => sz(p.textureAlignment),
        15 => p.deviceOverlap,
        16 => p.multiProcessorCount,
        17 => p.kernelExecTimeoutEnabled,
        18 => p.integrated,
        19 => p.canMapHostMemory,
        20 => p.computeMode,
        21 => p.maxTexture1D,
        22 | 23 => p.maxTexture2D[(code - 22) as usize],
        24..=26 => p.maxTexture3D[(code - 24) as usize],
        27..=29 => p.maxTexture2DLayered[(code - 27) as usize],
        30 => sz(p.surfaceAlignment),
        31 => p.concurrentKernels,
        32 => p.ECCEnabled,
        33 => p.pciBusID,
        34 => p.pciDeviceID,
        35 => p.tccDriver,
        36 => p.memoryClockRate,
        37 => p.memoryBusWidth,
        38 => p.l2CacheSize,
        39 => p.maxThreadsPerMultiProcessor,
        40 => p.asyncEngineCount,
        41 => p.unifiedAddressing,
        42 | 43 => p.maxTexture1DLayered[(code - 42) as usize],
        45 | 46 => p.maxTexture2DGather[(code - 45) as usize],
        47..=49 => p.maxTexture3DAlt[(code - 47) as usize],
        50 => p.pciDomainID,
        51 => sz(p.texturePitchAlignment),
        52 => p.maxTextureCubemap,
        53 | 54 => p.maxTextureCubemapLayered[(code - 53) as usize],
        55 => p.maxSurface1D,
        56 | 57 => p.maxSurface2D[(code - 56) as usize],
        58..=60 => p.maxSurface3D[(code - 58) as usize],
        61 | 62 => p.maxSurface1DLayered[(code - 61) as usize],
        63..=65 => p.maxSurface2DLayered[(code - 63) as usize],
        66 => p.maxSurfaceCubemap,
        67 | 68 => p.maxSurfaceCubemapLayered[(code - 67) as usize],
        69 => p.maxTexture1DLinear,
        70..=72 => p.maxTexture2DLinear[(code - 70) as usize],
        73 | 74 => p.maxTexture2DMipmap[(code - 73) as usize],
        75 => p.major,
        76 => p.minor,
        77 => p.maxTexture1DMipmap,
        78 => p.streamPrioritiesSupported,
        79 => p.globalL1CacheSupported,
        80 => p.localL1CacheSupported,
        81 => sz(p.sharedMemPerMultiprocessor),
        82 => p.regsPerMultiprocessor,
        83 => p.managedMemory,
        84 => p.isMultiGpuBoard,
        85 => p.multiGpuBoardGroupID,
        86 => p.hostNativeAtomicSupported,
        87 => p.singleToDoublePrecisionPerfRatio,
        88 => p.pageableMemoryAccess,
        89 => p.concurrentManagedAccess,
        90 => p.computePreemptionSupported,
        91 => p.canUseHostPointerForRegisteredMem,
        95 => p.cooperativeLaunch,
        96 => p.cooperativeMultiDeviceLaunch,
        97 => sz(p.sharedMemPerBlockOptin),
        99 => p.hostRegisterSupported,
        100 => p.pageableMemoryAccessUsesHostPageTables,
        101 => p.directManagedMemAccessFromHost,
        106 => p.maxBlocksPerMultiProcessor,
        108 => p.persistingL2CacheMaxSize,
        109 => p.accessPolicyMaxWindowSize,
        111 => sz(p.reservedSharedMemPerBlock),
        112 => p.sparseCudaArraySupported,
        113 => p.hostRegisterReadOnlySupported,
        114 => p.timelineSemaphoreInteropSupported,
        115 => p.memoryPoolsSupported,
        116 => p.gpuDirectRDMASupported,
        117 => p.gpuDirectRDMAFlushWritesOptions as c_int,
        118 => p.gpuDirectRDMAWritesOrdering,
        119 => p.memoryPoolSupportedHandleTypes as c_int,
        120 => p.clusterLaunch,
        121 => p.deferredMappingCudaArraySupported,
        125 => p.ipcEventSupported,
        _ => return None,
    })
}
