//! Device and runtime queries (issue 13, item 1): cudaGetDeviceProperties, cudaDeviceGetAttribute,
//! cudaMemGetInfo, the versions, the PCI bus ids, the limits, the device flags, the occupancy calculator and the
//! profiler switch. Rows: `docs/semantics/cuda-musa-runtime-api.md`.

use streamsim::{Attribute, DeviceConfig};

use super::*;

/// The default profile's device (compute capability 8.0, A100-class: 108 SMs, 40 GiB) and a device overridden in the
/// builder.
fn two_device_machine() -> (Machine, Process) {
    let custom = DeviceConfig::default()
        .name("Custom accelerator")
        .memory(8 << 30)
        .attribute(Attribute::ComputeCapabilityMajor, 9)
        .attribute(Attribute::ComputeCapabilityMinor, 0)
        .attribute(Attribute::MultiprocessorCount, 132)
        .attribute(Attribute::ClockRateKhz, 1_980_000)
        .attribute(Attribute::PciBusId, 0x3b)
        .attribute(Attribute::AsyncEngineCount, 3);
    let m = Machine::builder()
        .devices(2)
        .device(1, custom)
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

fn props(device: c_int) -> cudaDeviceProp {
    // SAFETY: all-zero bytes are a valid cudaDeviceProp (integers and arrays of integers).
    let mut p: cudaDeviceProp = unsafe { std::mem::zeroed() };
    check!(cudaSuccess, cudaGetDeviceProperties(&mut p, device));
    p
}

fn name(p: &cudaDeviceProp) -> String {
    // SAFETY: the simulator NUL-terminates the name.
    unsafe { CStr::from_ptr(p.name.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn attr(a: c_int, device: c_int) -> c_int {
    let mut v = -7;
    check!(cudaSuccess, cudaDeviceGetAttribute(&mut v, a, device));
    v
}

/// cuda-musa-runtime-api.md · GetDeviceProperties · default profile → the configured values, field by field;
/// a device overridden in the builder → its values; NULL → 1; a bad ordinal → 101.
#[test]
fn get_device_properties_reports_the_configuration() {
    let (_m, p) = two_device_machine();
    let _g = p.bind();
    let d = props(0);
    assert_eq!(name(&d), "streamsim device");
    assert_eq!((d.major, d.minor), (8, 0));
    assert_eq!(d.totalGlobalMem, 40 << 30);
    assert_eq!(d.multiProcessorCount, 108);
    assert_eq!(d.warpSize, 32);
    assert_eq!(d.maxThreadsPerBlock, 1024);
    assert_eq!(d.maxThreadsDim, [1024, 1024, 64]);
    assert_eq!(d.maxGridSize, [2_147_483_647, 65535, 65535]);
    assert_eq!(d.sharedMemPerBlock, 49152);
    assert_eq!(d.sharedMemPerMultiprocessor, 167_936);
    assert_eq!(d.sharedMemPerBlockOptin, 166_912);
    assert_eq!(d.reservedSharedMemPerBlock, 1024);
    assert_eq!(d.regsPerBlock, 65536);
    assert_eq!(d.regsPerMultiprocessor, 65536);
    assert_eq!(d.maxThreadsPerMultiProcessor, 2048);
    assert_eq!(d.clockRate, 1_410_000);
    assert_eq!(d.memoryClockRate, 1_215_000);
    assert_eq!(d.memoryBusWidth, 5120);
    assert_eq!(d.l2CacheSize, 41_943_040);
    assert_eq!(d.persistingL2CacheMaxSize, 31_457_280);
    assert_eq!(d.totalConstMem, 65536);
    assert_eq!(d.asyncEngineCount, 3);
    assert_eq!(d.concurrentKernels, 1);
    assert_eq!(d.canMapHostMemory, 1);
    assert_eq!(d.unifiedAddressing, 1);
    assert_eq!(d.integrated, 0);
    assert_eq!(d.computeMode, cudaComputeModeDefault as c_int);
    assert_eq!((d.pciDomainID, d.pciBusID, d.pciDeviceID), (0, 1, 0));
    assert_eq!(d.maxTexture2D, [131_072, 65536]);
    assert_eq!(d.maxTexture2DLayered, [32768, 32768, 2048]);
    assert_eq!(d.maxBlocksPerMultiProcessor, 32);
    assert_eq!(d.hostRegisterSupported, 1);
    assert_eq!(d.memoryPoolsSupported, 1, "pools are simulated");
    assert_eq!(d.memoryPoolSupportedHandleTypes, 0, "IPC pools are not");
    assert_eq!(d.reserved, [0; 60]);

    let c = props(1);
    assert_eq!(name(&c), "Custom accelerator");
    assert_eq!((c.major, c.minor), (9, 0));
    assert_eq!(c.totalGlobalMem, 8 << 30);
    assert_eq!(c.multiProcessorCount, 132);
    assert_eq!(c.clockRate, 1_980_000);
    assert_eq!(c.asyncEngineCount, 3);
    assert_eq!((c.pciDomainID, c.pciBusID, c.pciDeviceID), (0, 0x3b, 0));
    assert_ne!(c.uuid, d.uuid, "each device has its own UUID");

    let mut q = d;
    check!(
        cudaErrorInvalidValue,
        cudaGetDeviceProperties(null_mut(), 0)
    );
    for bad in [-1, 2, c_int::MAX] {
        check!(cudaErrorInvalidDevice, cudaGetDeviceProperties(&mut q, bad));
    }
    assert_eq!(q.multiProcessorCount, 108, "nothing written on failure");
}

/// cuda-musa-runtime-api.md · DeviceGetAttribute · every attribute with a cudaDeviceProp field → that field's
/// value; an unknown attribute → 1; a bad ordinal → 101; NULL → 1.
#[test]
fn device_get_attribute_agrees_with_the_properties() {
    let (_m, p) = two_device_machine();
    let _g = p.bind();
    for device in [0, 1] {
        let d = props(device);
        let pairs = [
            (cudaDevAttrMaxThreadsPerBlock, d.maxThreadsPerBlock),
            (cudaDevAttrMaxBlockDimZ, d.maxThreadsDim[2]),
            (cudaDevAttrMaxGridDimX, d.maxGridSize[0]),
            (
                cudaDevAttrMaxSharedMemoryPerBlock,
                d.sharedMemPerBlock as c_int,
            ),
            (cudaDevAttrWarpSize, d.warpSize),
            (cudaDevAttrClockRate, d.clockRate),
            (cudaDevAttrGpuOverlap, d.deviceOverlap),
            (cudaDevAttrMultiProcessorCount, d.multiProcessorCount),
            (cudaDevAttrKernelExecTimeout, d.kernelExecTimeoutEnabled),
            (cudaDevAttrComputeMode, d.computeMode),
            (cudaDevAttrPciBusId, d.pciBusID),
            (cudaDevAttrPciDomainId, d.pciDomainID),
            (cudaDevAttrMemoryClockRate, d.memoryClockRate),
            (cudaDevAttrGlobalMemoryBusWidth, d.memoryBusWidth),
            (cudaDevAttrL2CacheSize, d.l2CacheSize),
            (cudaDevAttrAsyncEngineCount, d.asyncEngineCount),
            (cudaDevAttrUnifiedAddressing, d.unifiedAddressing),
            (cudaDevAttrComputeCapabilityMajor, d.major),
            (cudaDevAttrComputeCapabilityMinor, d.minor),
            (
                cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                d.sharedMemPerMultiprocessor as c_int,
            ),
            (
                cudaDevAttrMaxBlocksPerMultiprocessor,
                d.maxBlocksPerMultiProcessor,
            ),
            (cudaDevAttrHostRegisterSupported, d.hostRegisterSupported),
            (cudaDevAttrIpcEventSupport, d.ipcEventSupported),
        ];
        for (a, want) in pairs {
            assert_eq!(attr(a, device), want, "attribute {a} of device {device}");
        }
    }
    assert_eq!(attr(cudaDevAttrMultiProcessorCount, 1), 132);
    assert_eq!(attr(cudaDevAttrClockRate, 0), 1_410_000);
    let mut v = -7;
    for unknown in [0, 44, 92, 136, -1, c_int::MAX] {
        check!(
            cudaErrorInvalidValue,
            cudaDeviceGetAttribute(&mut v, unknown, 0)
        );
    }
    check!(
        cudaErrorInvalidDevice,
        cudaDeviceGetAttribute(&mut v, cudaDevAttrWarpSize, 2)
    );
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetAttribute(null_mut(), cudaDevAttrWarpSize, 0)
    );
    assert_eq!(v, -7, "nothing written on failure");
}

/// cuda-musa-runtime-api.md · MemGetInfo · total = the current device's memory; free = total − every
/// process's live allocations on it; NULL → 1.
#[test]
fn mem_get_info_follows_the_allocations() {
    let (m, p) = two_device_machine();
    let _g = p.bind();
    let info = || {
        let (mut free, mut total) = (0usize, 0usize);
        check!(cudaSuccess, cudaMemGetInfo(&mut free, &mut total));
        (free, total)
    };
    let total0 = 40usize << 30;
    assert_eq!(info(), (total0, total0));
    let a = dmalloc(1 << 20);
    assert_eq!(info(), (total0 - (1 << 20), total0));
    let other = m.process();
    let b = other.malloc(3 << 20).expect("another process allocates");
    assert_eq!(info(), (total0 - (4 << 20), total0));
    check!(cudaSuccess, cudaSetDevice(1));
    assert_eq!(info(), (8 << 30, 8 << 30), "device 1's own memory");
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaFree(a));
    other.free(b).expect("free");
    assert_eq!(info(), (total0, total0));
    let mut x = 0usize;
    check!(cudaErrorInvalidValue, cudaMemGetInfo(null_mut(), &mut x));
    check!(cudaErrorInvalidValue, cudaMemGetInfo(&mut x, null_mut()));
}

/// cuda-musa-runtime-api.md · DriverGetVersion / RuntimeGetVersion → 12080 (12.8); NULL → 1.
#[test]
fn versions() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (mut d, mut r) = (0, 0);
    check!(cudaSuccess, cudaDriverGetVersion(&mut d));
    check!(cudaSuccess, cudaRuntimeGetVersion(&mut r));
    assert_eq!((d, r), (12080, 12080));
    check!(cudaErrorInvalidValue, cudaDriverGetVersion(null_mut()));
    check!(cudaErrorInvalidValue, cudaRuntimeGetVersion(null_mut()));
}

fn bus_id(device: c_int, len: usize) -> String {
    let mut buf = vec![b'#' as c_char; len.max(1)];
    check!(
        cudaSuccess,
        cudaDeviceGetPCIBusId(buf.as_mut_ptr(), len as c_int, device)
    );
    // SAFETY: NUL-terminated within `len` bytes by the call.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn by_bus_id(text: &CStr) -> (cudaError_t, c_int) {
    let mut d = -7;
    // SAFETY: valid pointers.
    let e = unsafe { cudaDeviceGetByPCIBusId(&mut d, text.as_ptr()) };
    (e, d)
}

/// cuda-musa-runtime-api.md · DeviceGetPCIBusId → "dddd:bb:dd.f" from the configuration (13 bytes with the
/// NUL; shorter buffers truncate); DeviceGetByPCIBusId accepts the three documented forms; an unknown bus →
/// 101; a malformed string or NULL → 1.
#[test]
fn pci_bus_ids_round_trip() {
    let (_m, p) = two_device_machine();
    let _g = p.bind();
    assert_eq!(bus_id(0, 13), "0000:01:00.0");
    assert_eq!(bus_id(1, 64), "0000:3B:00.0");
    assert_eq!(bus_id(1, 5), "0000");
    assert_eq!(bus_id(1, 1), "");
    let mut buf = [0 as c_char; 16];
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetPCIBusId(buf.as_mut_ptr(), 0, 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetPCIBusId(null_mut(), 16, 0)
    );
    check!(
        cudaErrorInvalidDevice,
        cudaDeviceGetPCIBusId(buf.as_mut_ptr(), 16, 2)
    );
    assert_eq!(by_bus_id(c"0000:01:00.0"), (cudaSuccess, 0));
    assert_eq!(by_bus_id(c"0000:3b:00.0"), (cudaSuccess, 1));
    assert_eq!(by_bus_id(c"0000:3B:00"), (cudaSuccess, 1));
    assert_eq!(by_bus_id(c"3b:00.0"), (cudaSuccess, 1));
    assert_eq!(by_bus_id(c"0000:09:00.0"), (cudaErrorInvalidDevice, -7));
    for bad in [c"", c"0000:", c"3b:00", c"0000:zz:00.0", c"not a bus id"] {
        assert_eq!(by_bus_id(bad), (cudaErrorInvalidValue, -7), "{bad:?}");
    }
    let mut d = 0;
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetByPCIBusId(&mut d, null())
    );
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetByPCIBusId(null_mut(), c"0000:01:00.0".as_ptr())
    );
}

/// cuda-musa-runtime-api.md · DeviceConfig · two devices with the same PCI location → the machine is not
/// built (InvalidValue); a bus above 0xff → not built.
#[test]
fn pci_locations_must_be_distinct_and_in_range() {
    let same = Machine::builder()
        .devices(2)
        .device(1, DeviceConfig::default().attribute(Attribute::PciBusId, 1))
        .build();
    assert!(matches!(
        same,
        Err(SimError::InvalidValue {
            what: "DeviceConfig PCI location",
            ..
        })
    ));
    let big = Machine::builder()
        .device(
            0,
            DeviceConfig::default().attribute(Attribute::PciBusId, 0x100),
        )
        .build();
    assert!(matches!(
        big,
        Err(SimError::InvalidValue {
            what: "DeviceConfig PCI location",
            ..
        })
    ));
}

fn limit(l: c_uint) -> usize {
    let mut v = 7;
    check!(cudaSuccess, cudaDeviceGetLimit(&mut v, l));
    v
}

/// cuda-musa-runtime-api.md · DeviceSetLimit / DeviceGetLimit · defaults; set values read back per device;
/// SyncDepth above 24 → 1; the L2 hints clamp; an unknown limit → 215 for both calls; NULL → 1; a device
/// reset restores the defaults.
#[test]
fn limits_store_validate_and_reset() {
    let (_m, p) = two_device_machine();
    let _g = p.bind();
    let defaults = [
        (cudaLimitStackSize, 1024),
        (cudaLimitPrintfFifoSize, 1 << 20),
        (cudaLimitMallocHeapSize, 8 << 20),
        (cudaLimitDevRuntimeSyncDepth, 2),
        (cudaLimitDevRuntimePendingLaunchCount, 2048),
        (cudaLimitMaxL2FetchGranularity, 64),
        (cudaLimitPersistingL2CacheSize, 0),
    ];
    for (l, v) in defaults {
        assert_eq!(limit(l), v, "limit {l}");
    }
    check!(cudaSuccess, cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    check!(
        cudaSuccess,
        cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20)
    );
    check!(
        cudaSuccess,
        cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 24)
    );
    assert_eq!(limit(cudaLimitStackSize), 4096);
    assert_eq!(limit(cudaLimitMallocHeapSize), 64 << 20);
    assert_eq!(limit(cudaLimitDevRuntimeSyncDepth), 24);
    check!(
        cudaErrorInvalidValue,
        cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 25)
    );
    assert_eq!(limit(cudaLimitDevRuntimeSyncDepth), 24, "unchanged");
    check!(
        cudaSuccess,
        cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 1000)
    );
    assert_eq!(limit(cudaLimitMaxL2FetchGranularity), 128);
    check!(
        cudaSuccess,
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20)
    );
    assert_eq!(
        limit(cudaLimitPersistingL2CacheSize),
        1 << 20,
        "within the 8.0 device's 30 MiB of persisting L2"
    );
    check!(
        cudaSuccess,
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 64 << 20)
    );
    assert_eq!(
        limit(cudaLimitPersistingL2CacheSize),
        30 << 20,
        "clamped to persistingL2CacheMaxSize"
    );
    for unknown in [7, 0xffff, u32::MAX] {
        let mut v = 7;
        check!(cudaErrorUnsupportedLimit, cudaDeviceSetLimit(unknown, 1));
        check!(
            cudaErrorUnsupportedLimit,
            cudaDeviceGetLimit(&mut v, unknown)
        );
        assert_eq!(v, 7);
    }
    check!(
        cudaErrorInvalidValue,
        cudaDeviceGetLimit(null_mut(), cudaLimitStackSize)
    );

    // Device 1 (compute capability 9.0): its own values, and no synchronize depth.
    check!(cudaSuccess, cudaSetDevice(1));
    assert_eq!(limit(cudaLimitStackSize), 1024);
    let mut v = 7;
    check!(
        cudaErrorUnsupportedLimit,
        cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4)
    );
    check!(
        cudaErrorUnsupportedLimit,
        cudaDeviceGetLimit(&mut v, cudaLimitDevRuntimeSyncDepth)
    );

    // A reset forgets what this process set on the device.
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaDeviceReset());
    assert_eq!(limit(cudaLimitStackSize), 1024);
    assert_eq!(limit(cudaLimitDevRuntimeSyncDepth), 2);
}

fn flags() -> c_uint {
    let mut f = 0xdead;
    check!(cudaSuccess, cudaGetDeviceFlags(&mut f));
    f
}

/// cuda-musa-runtime-api.md · SetDeviceFlags / GetDeviceFlags · the flags set are read back with
/// cudaDeviceMapHost, by every thread of the process, per device; two schedule flags or unknown bits → 1 and
/// nothing changes; NULL → 1; another process and a reset see the defaults (hip-tests
/// `Unit_hipGetSetDeviceFlags_*`, `Unit_hipDeviceReset_Positive_Basic`).
#[test]
fn device_flags_store_validate_and_reset() {
    let (m, p) = two_device_machine();
    let _g = p.bind();
    assert_eq!(flags(), cudaDeviceMapHost);
    check!(
        cudaSuccess,
        cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync)
    );
    assert_eq!(flags(), cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
    check!(
        cudaSuccess,
        cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceMapHost | cudaDeviceLmemResizeToMax)
    );
    assert_eq!(flags(), 0x19);
    check!(
        cudaSuccess,
        cudaSetDeviceFlags(cudaDeviceScheduleYield | cudaDeviceSyncMemops)
    );
    assert_eq!(flags(), 0x8a);
    for bad in [0x3, 0x5, 0x6, 0x7, 0x20, 0x40, 0x100, 0xffff] {
        check!(cudaErrorInvalidValue, cudaSetDeviceFlags(bad));
    }
    assert_eq!(flags(), 0x8a, "unchanged");
    check!(cudaErrorInvalidValue, cudaGetDeviceFlags(null_mut()));
    // Another host thread of the process sees them; device 1 has its own.
    let q = p.clone();
    let seen = std::thread::spawn(move || {
        let _g = q.bind();
        let on0 = flags();
        check!(cudaSuccess, cudaSetDevice(1));
        (on0, flags())
    })
    .join()
    .unwrap();
    assert_eq!(seen, (0x8a, cudaDeviceMapHost));
    // Another process has its own.
    let other = m.process();
    {
        let _g = other.bind();
        assert_eq!(flags(), cudaDeviceMapHost);
    }
    check!(cudaSuccess, cudaDeviceReset());
    assert_eq!(flags(), cudaDeviceMapHost);
}

/// One program: two streams, events, a copy and a synchronize of each kind; returns its elapsed times and the
/// trace.
fn flags_program(schedule: c_uint) -> (Vec<f32>, streamsim::Trace) {
    let (m, p) = machine(1);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDeviceFlags(schedule));
    let (s1, s2) = (stream(cudaStreamDefault), stream(cudaStreamNonBlocking));
    let (a, b, c) = (
        event(cudaEventDefault),
        event(cudaEventBlockingSync),
        event(cudaEventDefault),
    );
    let d = dmalloc(1 << 20);
    let mut host = vec![0u8; 1 << 20];
    check!(cudaSuccess, cudaEventRecord(a, s1));
    check!(cudaSuccess, kernel(s1, 300));
    check!(cudaSuccess, cudaEventRecord(b, s1));
    check!(cudaSuccess, cudaStreamWaitEvent(s2, b, 0));
    check!(cudaSuccess, kernel(s2, 200));
    check!(
        cudaSuccess,
        cudaMemcpyAsync(
            host.as_mut_ptr().cast(),
            d,
            1 << 20,
            cudaMemcpyDeviceToHost,
            s2
        )
    );
    check!(cudaSuccess, cudaEventRecord(c, s2));
    check!(cudaSuccess, cudaEventSynchronize(b));
    check!(cudaSuccess, cudaStreamSynchronize(s2));
    check!(cudaSuccess, cudaDeviceSynchronize());
    let mut ms = [0f32; 2];
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms[0], a, b));
    check!(cudaSuccess, cudaEventElapsedTime(&mut ms[1], a, c));
    (ms.to_vec(), m.trace())
}

/// cuda-musa-runtime-api.md · SetDeviceFlags · blocking sync vs spin (or yield) → the same results, the same
/// virtual times, the same trace: only the host's CPU use would differ, and the simulator never spins.
#[test]
fn device_schedule_flags_change_no_result() {
    let (spin_ms, spin_trace) = flags_program(cudaDeviceScheduleSpin);
    assert_eq!(
        spin_ms[0], 0.301,
        "the 300 µs kernel and the 1 µs call between the record and the launch"
    );
    for schedule in [
        cudaDeviceScheduleAuto,
        cudaDeviceScheduleYield,
        cudaDeviceScheduleBlockingSync,
    ] {
        let (ms, trace) = flags_program(schedule);
        assert_eq!(ms, spin_ms, "schedule {schedule}");
        assert_eq!(trace, spin_trace, "schedule {schedule}");
    }
}

unsafe extern "C" fn kernel_body(_: *mut c_void) {}

fn occupancy(block: c_int, smem: usize) -> c_int {
    let mut n = -7;
    check!(
        cudaSuccess,
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &mut n,
            kernel_body as *const c_void,
            block,
            smem
        )
    );
    n
}

/// cuda-musa-runtime-api.md · OccupancyMaxActiveBlocksPerMultiprocessor · the minimum of the warp limit (2048
/// threads = 64 warps per SM), the block limit (32) and the shared-memory limit (164 KiB per SM, 1 KiB reserved
/// per block, 128-byte granularity on 8.0; more than a block's 48 KiB plus the reserved 1 KiB → 0); a block over 1024 threads → 0; block size 0 or negative → 1;
/// NULL output → 1; NULL kernel → 98; unknown flags → 1 (CUDA 12.5 `cuda_occupancy.h`; hip-tests
/// `Unit_hipOccupancyMaxActiveBlocksPerMultiprocessor_Negative_Parameters`).
#[test]
fn occupancy_from_the_attributes() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    assert_eq!(occupancy(256, 0), 8);
    assert_eq!(occupancy(1024, 0), 2);
    assert_eq!(occupancy(32, 0), 32, "the block limit");
    assert_eq!(occupancy(33, 0), 32, "two warps each: 64 / 2");
    assert_eq!(occupancy(96, 0), 21, "three warps each: 64 / 3");
    assert_eq!(occupancy(1025, 0), 0);
    assert_eq!(occupancy(64, 49152), 3, "164 KiB / (48 + 1) KiB");
    assert_eq!(
        occupancy(64, 1000),
        32,
        "1000 B + 1 KiB reserved rounds to 2 KiB: 82 blocks, then the warp and block limits"
    );
    assert_eq!(
        occupancy(64, 4096),
        32,
        "164 KiB / 5 KiB = 32, the block limit too"
    );
    assert_eq!(occupancy(64, 8192), 18, "164 KiB / 9 KiB");
    assert_eq!(
        occupancy(64, 49153),
        0,
        "over the 48 KiB (+ 1 KiB reserved) of a block"
    );
    let mut n = -7;
    let f = kernel_body as *const c_void;
    for bad in [0, -1, c_int::MIN] {
        check!(
            cudaErrorInvalidValue,
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, bad, 0)
        );
    }
    check!(
        cudaErrorInvalidValue,
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(null_mut(), f, 256, 0)
    );
    check!(
        cudaErrorInvalidDeviceFunction,
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, null(), 256, 0)
    );
    check!(
        cudaSuccess,
        cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &mut n,
            f,
            256,
            0,
            cudaOccupancyDisableCachingOverride
        )
    );
    assert_eq!(n, 8);
    check!(
        cudaErrorInvalidValue,
        cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&mut n, f, 256, 0, 2)
    );
}

/// cuda-musa-runtime-api.md · ProfilerStart / ProfilerStop → 0, twice too (no effect), each recorded in the
/// trace as a host event of its device.
#[test]
fn profiler_calls_are_recorded_in_the_trace() {
    let (m, p) = machine(2);
    let _g = p.bind();
    assert!(!p.profiling());
    check!(cudaSuccess, cudaProfilerStart());
    check!(cudaSuccess, cudaProfilerStart());
    assert!(p.profiling());
    check!(cudaSuccess, cudaSetDevice(1));
    assert!(!p.profiling(), "per device");
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaProfilerStop());
    check!(cudaSuccess, cudaProfilerStop());
    assert!(!p.profiling());
    let labels: Vec<(String, u64)> = m
        .trace()
        .host
        .iter()
        .map(|h| (h.label.clone(), h.start.as_nanos() / 1000))
        .collect();
    assert_eq!(
        labels,
        [
            ("profiler_start(device 0)".to_string(), 1),
            ("profiler_start(device 0)".to_string(), 2),
            ("profiler_stop(device 0)".to_string(), 5),
            ("profiler_stop(device 0)".to_string(), 6),
        ]
    );
}
