//! Managed memory through the Rust API ([`Process::malloc_managed`], [`Process::mem_prefetch_async`],
//! [`Process::mem_advise`], [`Process::mem_range_attributes`], [`Process::stream_attach_mem`]): typed errors,
//! virtual times and race verdicts. Rows: `docs/semantics/managed-memory.md`; the facades' codes are in
//! `cuda_facade/managed.rs`.

use streamsim::{
    DeviceConfig, DevicePtr, HostPtr, Kernel, MANAGED_PAGE, Machine, ManagedAdvice, ManagedAttach,
    ManagedLocation, MemoryKind, SimError, Stream, StreamFlags,
};

fn machine(ccma: bool) -> (Machine, streamsim::Process) {
    let m = Machine::builder()
        .device(0, DeviceConfig::default().concurrent_managed_access(ccma))
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

/// managed-memory.md · MallocManaged · Single is not an allocation's association; size 0; the memory is the
/// host's, at a host address, zeroed; its pointer attributes; Free frees it and a second free is refused.
#[test]
fn managed_allocations_are_host_memory_the_host_dereferences() {
    let (_m, p) = machine(true);
    assert!(matches!(
        p.malloc_managed(64, ManagedAttach::Single),
        Err(SimError::InvalidFlags { .. })
    ));
    assert!(matches!(
        p.malloc_managed(0, ManagedAttach::Global),
        Err(SimError::InvalidValue { .. })
    ));
    let h = p.malloc_managed(64, ManagedAttach::Global).unwrap();
    // SAFETY: 64 bytes of host memory, alive until the free below.
    let bytes = unsafe { std::slice::from_raw_parts_mut(h.as_mut_ptr(), 64) };
    assert_eq!(bytes, [0; 64]);
    bytes[0] = 9;
    let mut out = [0u8; 1];
    p.host_read(h, &mut out).unwrap();
    assert_eq!(out, [9]);
    let a = p.pointer_attributes(h.addr() + 10).unwrap();
    assert_eq!(
        (a.kind, a.device, a.base, a.len),
        (MemoryKind::Managed, Some(0), h.addr(), 64)
    );
    assert!(p.is_managed(h.addr() + 63));
    p.free(DevicePtr(h.addr())).unwrap();
    assert!(!p.is_managed(h.addr()));
    assert!(matches!(
        p.free(DevicePtr(h.addr())),
        Err(SimError::InvalidAddress { .. })
    ));
}

/// managed-memory.md · MemPrefetchAsync · the cost of the pages that move, on the stream, in virtual time: a
/// 64 KiB prefetch to the device is 2 µs + 64 KiB at 16 GB/s = 6.096 µs after the call; the same again costs
/// nothing; a kernel after it starts when it ends.
#[test]
fn a_prefetch_is_an_operation_of_its_stream() {
    let (m, p) = machine(true);
    let s = p.create_stream(StreamFlags::default()).unwrap();
    let h = p.malloc_managed(64 << 10, ManagedAttach::Global).unwrap();
    p.mem_prefetch_async(h.addr(), 64 << 10, ManagedLocation::Device(0), s)
        .unwrap();
    p.mem_prefetch_async(h.addr(), 64 << 10, ManagedLocation::Device(0), s)
        .unwrap();
    p.launch(
        s,
        Kernel::new("k").duration(std::time::Duration::from_micros(1)),
    )
    .unwrap();
    p.stream_synchronize(s).unwrap();
    let ops: Vec<(u64, u64)> = m
        .trace()
        .stream(p.stream_id(s).unwrap())
        .map(|op| (op.start.as_nanos(), op.end.as_nanos()))
        .collect();
    let start = ops[0].0;
    assert_eq!(
        ops.iter()
            .map(|(a, b)| (a - start, b - start))
            .collect::<Vec<_>>(),
        [(0, 6_096), (6_096, 6_096), (6_096, 7_096)]
    );
    let attrs = p.mem_range_attributes(h.addr(), 1).unwrap();
    assert_eq!(
        attrs.last_prefetch_location,
        Some(ManagedLocation::Device(0))
    );
}

/// managed-memory.md · MemAdvise / MemRangeGetAttribute · advice on part of a page covers the page; a range
/// attribute holds only where it holds for every page; a range past the allocation is refused.
#[test]
fn advice_is_kept_per_page() {
    let (_m, p) = machine(true);
    let h = p
        .malloc_managed(4 * MANAGED_PAGE, ManagedAttach::Global)
        .unwrap();
    p.mem_advise(h.addr() + MANAGED_PAGE + 5, 1, ManagedAdvice::SetReadMostly)
        .unwrap();
    let page = |i: u64| {
        p.mem_range_attributes(h.addr() + i * MANAGED_PAGE, MANAGED_PAGE)
            .unwrap()
    };
    assert!(!page(0).read_mostly);
    assert!(page(1).read_mostly);
    assert!(
        !p.mem_range_attributes(h.addr(), 2 * MANAGED_PAGE)
            .unwrap()
            .read_mostly
    );
    assert!(matches!(
        p.mem_advise(h.addr(), 4 * MANAGED_PAGE + 1, ManagedAdvice::SetReadMostly),
        Err(SimError::InvalidValue { .. })
    ));
    assert!(matches!(
        p.mem_advise(
            h.addr(),
            1,
            ManagedAdvice::SetPreferredLocation(ManagedLocation::Device(3))
        ),
        Err(SimError::InvalidDevice { .. })
    ));
}

/// managed-memory.md · races · without concurrent managed access, a host read of globally attached managed
/// memory while a kernel of the device runs is a race naming the kernel; attached singly to another stream it
/// is not; after the synchronize it is not.
#[test]
fn the_host_may_not_touch_managed_memory_while_a_kernel_runs_on_older_devices() {
    let (m, p) = machine(false);
    let (a, b) = (
        p.create_stream(StreamFlags::default()).unwrap(),
        p.create_stream(StreamFlags::default()).unwrap(),
    );
    let g = p.malloc_managed(16, ManagedAttach::Global).unwrap();
    let single = p.malloc_managed(16, ManagedAttach::Global).unwrap();
    p.stream_attach_mem(b, single.addr(), 0, ManagedAttach::Single)
        .unwrap();
    assert_eq!(
        p.managed_attach(single.addr()).unwrap(),
        (ManagedAttach::Single, Some(b))
    );
    p.launch(
        a,
        Kernel::new("busy").duration(std::time::Duration::from_micros(50)),
    )
    .unwrap();
    let mut out = [0u8; 4];
    p.host_read(single, &mut out).unwrap();
    assert!(m.race_reports().is_empty(), "{:#?}", m.race_reports());
    p.host_read(g, &mut out).unwrap();
    let races = m.race_reports();
    assert_eq!(races.len(), 1, "{races:#?}");
    assert!(format!("{races:?}").contains("busy"), "{races:#?}");
    p.device_synchronize().unwrap();
    p.host_write(HostPtr(g.addr()), &[1; 4]).unwrap();
    assert_eq!(m.race_reports().len(), 1);
    // A single association with the default stream is refused.
    assert!(matches!(
        p.stream_attach_mem(Stream::DEFAULT, g.addr(), 0, ManagedAttach::Single),
        Err(SimError::InvalidValue { .. })
    ));
}

unsafe extern "C" {
    /// nvcc's registration of a `__managed__` variable (`src/facade/cc_runtime.rs`).
    fn __cudaRegisterManagedVar(
        handle: *mut *mut std::ffi::c_void,
        host_var_ptr_address: *mut *mut std::ffi::c_void,
        device_address: *mut std::ffi::c_char,
        device_name: *const std::ffi::c_char,
        ext: std::ffi::c_int,
        size: usize,
        constant: std::ffi::c_int,
        global: std::ffi::c_int,
    );
}

/// managed-memory.md · `__cudaRegisterManagedVar` · no kernels library defines the variable: `size` bytes of
/// managed memory of the bound process, zeroed (nvcc passes the variable's name as `deviceAddress`, not its
/// initial bytes), their address stored at `*hostVarPtrAddress`.
#[test]
fn an_nvcc_style_managed_variable_without_a_kernels_library_is_allocated_zeroed() {
    let (_m, p) = machine(true);
    let _g = p.bind();
    let mut slot: *mut std::ffi::c_void = std::ptr::null_mut();
    // SAFETY: a valid slot; nvcc's `deviceAddress` and `deviceName` are both the NUL-terminated name.
    unsafe {
        __cudaRegisterManagedVar(
            std::ptr::null_mut(),
            &mut slot,
            c"var".as_ptr().cast_mut(),
            c"var".as_ptr(),
            0,
            4,
            0,
            0,
        );
    }
    assert!(!slot.is_null());
    assert!(p.is_managed(slot as usize as u64));
    // SAFETY: the 4 managed bytes just allocated.
    assert_eq!(
        unsafe { std::slice::from_raw_parts(slot.cast::<u8>(), 4) },
        [0, 0, 0, 0]
    );
    p.free(DevicePtr(slot as usize as u64)).unwrap();
}
