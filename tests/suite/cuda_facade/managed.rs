//! Managed (unified) memory through the CUDA and MUSA facades, with the exact codes, virtual times and race
//! verdicts. Rows: `docs/semantics/managed-memory.md`.

use streamsim::{Attribute, DeviceConfig, HostPtr, ManagedAttach, OpKind, RaceAccess};

use super::*;

const MIB: usize = 1 << 20;

/// A machine whose device 0 has (or lacks) concurrent managed access, and a second device that has it.
fn machine_ccma(ccma0: bool) -> (Machine, Process) {
    let m = Machine::builder()
        .devices(2)
        .device(0, DeviceConfig::default().concurrent_managed_access(ccma0))
        .build()
        .expect("machine");
    let p = m.process();
    (m, p)
}

fn managed(bytes: usize) -> *mut c_void {
    let mut p = null_mut();
    check!(
        cudaSuccess,
        cudaMallocManaged(&mut p, bytes, cudaMemAttachGlobal)
    );
    p
}

fn attr_int(attr: c_int, ptr: *const c_void, count: usize) -> c_int {
    let mut v: c_int = 99;
    check!(
        cudaSuccess,
        cudaMemRangeGetAttribute((&raw mut v).cast(), 4, attr, ptr, count)
    );
    v
}

/// The durations of the operations on stream `s`, in nanoseconds.
fn durations(m: &Machine, p: &Process, s: cudaStream_t) -> Vec<u64> {
    m.trace()
        .stream(p.stream_id(core_stream(s)).unwrap())
        .map(|op| op.end.as_nanos() - op.start.as_nanos())
        .collect()
}

/// managed-memory.md · MallocManaged · NULL devPtr, size 0, flags other than Global or Host → 1; a size the host
/// cannot back → 2; a device without managed memory → 801; Global and Host → 0, host memory the host
/// dereferences, zeroed.
#[test]
fn malloc_managed_codes() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut d = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaMallocManaged(null_mut(), 64, cudaMemAttachGlobal)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMallocManaged(&mut d, 0, cudaMemAttachGlobal)
    );
    for flags in [0, cudaMemAttachSingle, 0x3, 0x8] {
        check!(cudaErrorInvalidValue, cudaMallocManaged(&mut d, 64, flags));
    }
    check!(
        cudaErrorMemoryAllocation,
        cudaMallocManaged(&mut d, usize::MAX, cudaMemAttachGlobal)
    );
    check!(
        cudaSuccess,
        cudaMallocManaged(&mut d, 64, cudaMemAttachHost)
    );
    // SAFETY: 64 bytes of host memory.
    let bytes = unsafe { std::slice::from_raw_parts_mut(d.cast::<u8>(), 64) };
    assert_eq!(bytes, [0; 64]);
    bytes[3] = 7;
    check!(cudaSuccess, cudaFree(d));

    let m = Machine::builder()
        .device(
            0,
            DeviceConfig::default().attribute(Attribute::ManagedMemory, 0),
        )
        .build()
        .unwrap();
    let p = m.process();
    let _g = p.bind();
    check!(
        cudaErrorNotSupported,
        cudaMallocManaged(&mut d, 64, cudaMemAttachGlobal)
    );
}

/// managed-memory.md · Free · managed memory → 0; twice, an interior pointer → 1; cudaFreeHost of it → 1.
/// PointerGetAttributes · managed memory → cudaMemoryTypeManaged, the device current at the allocation, both
/// pointers the pointer itself.
#[test]
fn free_and_pointer_attributes_of_managed_memory() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let d = managed(256);
    let mut a = cudaPointerAttributes {
        r#type: 0,
        device: 0,
        devicePointer: null_mut(),
        hostPointer: null_mut(),
    };
    check!(cudaSuccess, cudaPointerGetAttributes(&mut a, d));
    assert_eq!(
        (a.r#type, a.device, a.devicePointer, a.hostPointer),
        (cudaMemoryTypeManaged, 1, d, d)
    );
    // SAFETY: inside the allocation.
    let inner = unsafe { d.cast::<u8>().add(16) }.cast::<c_void>();
    check!(cudaSuccess, cudaPointerGetAttributes(&mut a, inner));
    assert_eq!(a.r#type, cudaMemoryTypeManaged);
    check!(cudaErrorInvalidValue, cudaFree(inner));
    check!(cudaErrorInvalidValue, cudaFreeHost(d));
    check!(cudaSuccess, cudaFree(d));
    check!(cudaErrorInvalidValue, cudaFree(d));
}

/// managed-memory.md · Memcpy / Memset · managed memory with any copy kind, and cudaMemcpyDefault, → 0; a
/// memset of it → 0.
#[test]
fn copies_of_any_kind_reach_managed_memory() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let a = managed(64);
    let dev = dmalloc(64);
    let src = [5u8; 64];
    check!(
        cudaSuccess,
        cudaMemcpy(a, src.as_ptr().cast(), 64, cudaMemcpyHostToDevice)
    );
    check!(
        cudaSuccess,
        cudaMemcpy(dev, a, 64, cudaMemcpyDeviceToDevice)
    );
    check!(cudaSuccess, cudaMemset(a, 1, 32));
    let mut back = [0u8; 64];
    check!(
        cudaSuccess,
        cudaMemcpy(back.as_mut_ptr().cast(), a, 64, cudaMemcpyHostToHost)
    );
    assert_eq!(&back[..32], [1; 32]);
    assert_eq!(&back[32..], [5; 32]);
    check!(
        cudaSuccess,
        cudaMemcpy(back.as_mut_ptr().cast(), dev, 64, cudaMemcpyDefault)
    );
    assert_eq!(back, [5; 64]);
    // Device memory with a kind that says host is still refused.
    check!(
        cudaErrorInvalidValue,
        cudaMemcpy(dev, a, 64, cudaMemcpyHostToHost)
    );
}

/// managed-memory.md · MemPrefetchAsync · a prefetch of pages elsewhere costs a copy of them over their path,
/// on the stream; of pages already there, nothing; the last prefetch location is the call's.
#[test]
fn a_prefetch_costs_the_pages_it_moves() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamNonBlocking);
    let a = managed(MIB);
    check!(cudaSuccess, cudaMemPrefetchAsync(a, MIB, 0, s));
    check!(cudaSuccess, cudaMemPrefetchAsync(a, MIB, 0, s));
    check!(
        cudaSuccess,
        cudaMemPrefetchAsync(a, MIB / 2, cudaCpuDeviceId, s)
    );
    check!(cudaSuccess, cudaStreamSynchronize(s));
    // 2 µs + 1 MiB at 16 GB/s; nothing; 2 µs + 512 KiB.
    assert_eq!(durations(&m, &p, s), [67_536, 0, 34_768]);
    let kinds: Vec<OpKind> = m
        .trace()
        .stream(p.stream_id(core_stream(s)).unwrap())
        .map(|op| op.kind.clone())
        .collect();
    assert!(matches!(
        kinds[0],
        OpKind::Memcpy {
            path: CopyPath::HostToDevice,
            bytes: 1_048_576
        }
    ));
    assert!(matches!(
        kinds[2],
        OpKind::Memcpy {
            path: CopyPath::DeviceToHost,
            bytes: 524_288
        }
    ));
    let last = cudaMemRangeAttributeLastPrefetchLocation;
    assert_eq!(attr_int(last, a, MIB / 2), cudaCpuDeviceId);
    assert_eq!(attr_int(last, a, MIB), cudaInvalidDeviceId, "two locations");
    // SAFETY: inside the allocation.
    let upper = unsafe { a.cast::<u8>().add(MIB / 2) }.cast::<c_void>();
    assert_eq!(attr_int(last, upper, MIB / 2), 0);
}

/// managed-memory.md · MemPrefetchAsync · not managed memory, count 0, past the allocation → 1; a device that
/// does not exist or lacks concurrent managed access, or a stream of such a device → 101; _v2: flags ≠ 0, an
/// invalid location type, a host NUMA node other than 0 → 1; HostNumaCurrent → 0; in a capture → 801 (not simulated; the capture goes on).
#[test]
fn prefetch_codes() {
    let (_m, p) = machine_ccma(false);
    let _g = p.bind();
    check!(cudaSuccess, cudaSetDevice(1));
    let s1 = stream(cudaStreamNonBlocking);
    let a = managed(4096);
    let plain = [0u8; 64];
    let dev = dmalloc(64);
    check!(
        cudaErrorInvalidValue,
        cudaMemPrefetchAsync(plain.as_ptr().cast(), 64, 1, s1)
    );
    check!(cudaErrorInvalidValue, cudaMemPrefetchAsync(dev, 64, 1, s1));
    check!(cudaErrorInvalidValue, cudaMemPrefetchAsync(a, 0, 1, s1));
    check!(cudaErrorInvalidValue, cudaMemPrefetchAsync(a, 4097, 1, s1));
    check!(cudaErrorInvalidDevice, cudaMemPrefetchAsync(a, 64, 2, s1));
    check!(cudaErrorInvalidDevice, cudaMemPrefetchAsync(a, 64, -2, s1));
    check!(cudaErrorInvalidDevice, cudaMemPrefetchAsync(a, 64, 0, s1));
    check!(cudaSuccess, cudaMemPrefetchAsync(a, 64, 1, s1));
    check!(cudaSuccess, cudaSetDevice(0));
    let s0 = stream(cudaStreamNonBlocking);
    check!(cudaErrorInvalidDevice, cudaMemPrefetchAsync(a, 64, 1, s0));
    let loc = |t, id| cudaMemLocation { r#type: t, id };
    check!(
        cudaErrorInvalidValue,
        cudaMemPrefetchAsync_v2(a, 64, loc(cudaMemLocationTypeDevice, 1), 1, s1)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPrefetchAsync_v2(a, 64, loc(cudaMemLocationTypeInvalid, 0), 0, s1)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemPrefetchAsync_v2(a, 64, loc(cudaMemLocationTypeHostNuma, 1), 0, s1)
    );
    check!(
        cudaSuccess,
        cudaMemPrefetchAsync_v2(a, 64, loc(cudaMemLocationTypeHostNumaCurrent, 5), 0, s1)
    );
    check!(
        cudaSuccess,
        cudaMemPrefetchAsync_v2(a, 64, loc(cudaMemLocationTypeDevice, 1), 0, s1)
    );
    check!(cudaSuccess, cudaSetDevice(1));
    check!(
        cudaSuccess,
        cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)
    );
    check!(cudaErrorNotSupported, cudaMemPrefetchAsync(a, 64, 1, s1));
    let mut g = null_mut();
    check!(cudaSuccess, cudaStreamEndCapture(s1, &mut g));
    check!(cudaSuccess, cudaGraphDestroy(g));
}

/// managed-memory.md · MemAdvise / MemRangeGetAttribute(s) · advice per page; each attribute as it holds for
/// every page of the range; the size rules and the codes of bad arguments.
#[test]
fn advice_and_range_attributes() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let a = managed(2 * 4096);
    // SAFETY: inside the allocation.
    let page1 = unsafe { a.cast::<u8>().add(4096) }.cast::<c_void>();
    let whole = 2 * 4096;
    check!(
        cudaSuccess,
        cudaMemAdvise(a, 10, cudaMemAdviseSetReadMostly, 0)
    );
    assert_eq!(attr_int(cudaMemRangeAttributeReadMostly, a, 4096), 1);
    assert_eq!(attr_int(cudaMemRangeAttributeReadMostly, a, whole), 0);
    check!(
        cudaSuccess,
        cudaMemAdvise(a, whole, cudaMemAdviseSetPreferredLocation, 1)
    );
    check!(
        cudaSuccess,
        cudaMemAdvise(
            page1,
            4096,
            cudaMemAdviseSetPreferredLocation,
            cudaCpuDeviceId
        )
    );
    assert_eq!(attr_int(cudaMemRangeAttributePreferredLocation, a, 4096), 1);
    assert_eq!(
        attr_int(cudaMemRangeAttributePreferredLocation, a, whole),
        cudaInvalidDeviceId
    );
    assert_eq!(
        attr_int(cudaMemRangeAttributePreferredLocationType, page1, 1),
        cudaMemLocationTypeHost as c_int
    );
    assert_eq!(
        attr_int(cudaMemRangeAttributePreferredLocationType, a, 1),
        cudaMemLocationTypeDevice as c_int
    );
    assert_eq!(attr_int(cudaMemRangeAttributePreferredLocationId, a, 1), 1);
    check!(
        cudaSuccess,
        cudaMemAdvise_v2(
            a,
            whole,
            cudaMemAdviseSetAccessedBy,
            cudaMemLocation {
                r#type: cudaMemLocationTypeDevice,
                id: 1
            }
        )
    );
    check!(
        cudaSuccess,
        cudaMemAdvise(a, whole, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId)
    );
    let mut by = [7 as c_int; 3];
    check!(
        cudaSuccess,
        cudaMemRangeGetAttribute(
            by.as_mut_ptr().cast(),
            12,
            cudaMemRangeAttributeAccessedBy,
            a,
            whole
        )
    );
    assert_eq!(by, [cudaCpuDeviceId, 1, cudaInvalidDeviceId]);
    let mut one = [7 as c_int; 1];
    check!(
        cudaSuccess,
        cudaMemRangeGetAttribute(
            one.as_mut_ptr().cast(),
            4,
            cudaMemRangeAttributeAccessedBy,
            a,
            whole
        )
    );
    assert_eq!(one, [cudaCpuDeviceId]);
    check!(
        cudaSuccess,
        cudaMemAdvise(a, whole, cudaMemAdviseUnsetAccessedBy, cudaCpuDeviceId)
    );
    check!(
        cudaSuccess,
        cudaMemAdvise(a, whole, cudaMemAdviseUnsetPreferredLocation, 0)
    );
    // All at once.
    let (mut rm, mut pl, mut lp) = (9 as c_int, 9 as c_int, 9 as c_int);
    let mut data = [
        (&raw mut rm).cast::<c_void>(),
        (&raw mut pl).cast(),
        (&raw mut lp).cast(),
    ];
    let mut sizes = [4usize, 4, 4];
    let mut attrs = [
        cudaMemRangeAttributeReadMostly,
        cudaMemRangeAttributePreferredLocation,
        cudaMemRangeAttributeLastPrefetchLocation,
    ];
    check!(
        cudaSuccess,
        cudaMemRangeGetAttributes(
            data.as_mut_ptr(),
            sizes.as_mut_ptr(),
            attrs.as_mut_ptr(),
            3,
            a,
            4096
        )
    );
    assert_eq!((rm, pl, lp), (1, cudaInvalidDeviceId, cudaInvalidDeviceId));
    // Bad arguments: nothing written.
    sizes[2] = 8;
    rm = 9;
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttributes(
            data.as_mut_ptr(),
            sizes.as_mut_ptr(),
            attrs.as_mut_ptr(),
            3,
            a,
            4096
        )
    );
    assert_eq!(rm, 9);
    let mut v: c_int = 0;
    let pv = (&raw mut v).cast::<c_void>();
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttribute(pv, 8, cudaMemRangeAttributeReadMostly, a, 4)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttribute(pv, 0, cudaMemRangeAttributeAccessedBy, a, 4)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttribute(pv, 4, 9, a, 4)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttribute(null_mut(), 4, cudaMemRangeAttributeReadMostly, a, 4)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemRangeGetAttribute(pv, 4, cudaMemRangeAttributeReadMostly, a, 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemAdvise(a, whole + 1, cudaMemAdviseSetReadMostly, 0)
    );
    check!(cudaErrorInvalidValue, cudaMemAdvise(a, 4, 7, 0));
    check!(
        cudaErrorInvalidDevice,
        cudaMemAdvise(a, 4, cudaMemAdviseSetPreferredLocation, 5)
    );
    check!(
        cudaErrorInvalidValue,
        cudaMemAdvise_v2(
            a,
            4,
            cudaMemAdviseSetAccessedBy,
            cudaMemLocation {
                r#type: cudaMemLocationTypeHostNuma,
                id: 0
            }
        )
    );
    let plain = [0u8; 8];
    check!(
        cudaErrorInvalidValue,
        cudaMemAdvise(plain.as_ptr().cast(), 8, cudaMemAdviseSetReadMostly, 0)
    );
}

/// managed-memory.md · StreamAttachMemAsync · flags other than Global, Host, Single → 1; a pointer that is not
/// the start of a managed allocation, a length other than 0 or its size, Single with the NULL stream → 1; a
/// destroyed stream → 400; the association reverts when its stream is destroyed.
#[test]
fn stream_attach_codes() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamNonBlocking);
    let a = managed(64);
    let addr = a as usize as u64;
    // SAFETY: inside the allocation.
    let inner = unsafe { a.cast::<u8>().add(8) }.cast::<c_void>();
    check!(cudaErrorInvalidValue, cudaStreamAttachMemAsync(s, a, 0, 0));
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(s, a, 0, 0x8)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(s, inner, 0, cudaMemAttachSingle)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(s, a, 32, cudaMemAttachSingle)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(null_mut(), a, 0, cudaMemAttachSingle)
    );
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(cudaStreamLegacy, a, 0, cudaMemAttachSingle)
    );
    let mut plain = [0u8; 8];
    check!(
        cudaErrorInvalidValue,
        cudaStreamAttachMemAsync(s, plain.as_mut_ptr().cast(), 0, cudaMemAttachSingle)
    );
    check!(
        cudaSuccess,
        cudaStreamAttachMemAsync(null_mut(), a, 64, cudaMemAttachHost)
    );
    assert_eq!(p.managed_attach(addr).unwrap(), (ManagedAttach::Host, None));
    check!(
        cudaSuccess,
        cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachSingle)
    );
    assert_eq!(
        p.managed_attach(addr).unwrap(),
        (ManagedAttach::Single, Some(core_stream(s)))
    );
    check!(cudaSuccess, cudaStreamDestroy(s));
    assert_eq!(
        p.managed_attach(addr).unwrap(),
        (ManagedAttach::Global, None),
        "the allocation's own association"
    );
    check!(
        cudaErrorInvalidResourceHandle,
        cudaStreamAttachMemAsync(s, a, 0, cudaMemAttachSingle)
    );
}

/// managed-memory.md · races · with concurrent managed access, accesses the runtime sees are checked like
/// pinned memory's: a host write while a copy reads the allocation is a race, after the synchronize it is not.
#[test]
fn managed_memory_is_race_checked_like_pinned_memory() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamNonBlocking);
    let a = managed(256);
    let dev = dmalloc(256);
    check!(
        cudaSuccess,
        cudaMemcpyAsync(dev, a, 256, cudaMemcpyDefault, s)
    );
    // A kernel that does not declare the memory is not taken to touch it on this device.
    check!(cudaSuccess, kernel(s, 10));
    let host = HostPtr(a as usize as u64);
    p.host_write(host, &[7; 16]).unwrap();
    let races = m.race_reports();
    assert_eq!(races.len(), 1, "{races:#?}");
    assert!(matches!(races[0].first, RaceAccess { write: false, .. }));
    assert!(races[0].second.write);
    check!(cudaSuccess, cudaStreamSynchronize(s));
    p.host_write(host.offset(16), &[8; 16]).unwrap();
    assert_eq!(m.race_reports().len(), 1, "ordered by the synchronize");
}

/// managed-memory.md · races · without concurrent managed access, a kernel may touch every allocation attached
/// globally, or singly to its stream: a host access the runtime sees before the synchronize is a race; an
/// allocation attached to the host, or singly to another stream, is not touched.
#[test]
fn without_concurrent_access_a_kernel_may_touch_reachable_managed_memory() {
    let (m, p) = machine_ccma(false);
    let _g = p.bind();
    let (s1, s2) = (stream(cudaStreamNonBlocking), stream(cudaStreamNonBlocking));
    let global = managed(64);
    let single = managed(64);
    let host_only = managed(64);
    check!(
        cudaSuccess,
        cudaStreamAttachMemAsync(s2, single, 0, cudaMemAttachSingle)
    );
    check!(
        cudaSuccess,
        cudaStreamAttachMemAsync(s1, host_only, 0, cudaMemAttachHost)
    );
    check!(cudaSuccess, kernel(s1, 100));
    let at = |ptr: *mut c_void| HostPtr(ptr as usize as u64);
    p.host_write(at(single), &[1; 8]).unwrap();
    p.host_write(at(host_only), &[1; 8]).unwrap();
    assert_eq!(m.race_reports().len(), 0, "not reachable from s1's kernel");
    p.host_write(at(global), &[1; 8]).unwrap();
    assert_eq!(m.race_reports().len(), 1);
    check!(cudaSuccess, kernel(s2, 100));
    let mut out = [0u8; 8];
    p.host_read(at(single), &mut out).unwrap();
    assert_eq!(m.race_reports().len(), 2, "s2's kernel may write `single`");
    check!(cudaSuccess, cudaDeviceSynchronize());
    p.host_write(at(global), &[2; 8]).unwrap();
    p.host_write(at(single), &[2; 8]).unwrap();
    assert_eq!(m.race_reports().len(), 2, "after the synchronize");
}

/// managed-memory.md · device attributes · ManagedMemory 1, ConcurrentManagedAccess 1 (the DeviceConfig's
/// value), PageableMemoryAccess 0, and the same in cudaDeviceProp.
#[test]
fn managed_device_attributes() {
    let (_m, p) = machine_ccma(false);
    let _g = p.bind();
    let get = |attr: c_int, device: c_int| {
        let mut v = -1;
        check!(cudaSuccess, cudaDeviceGetAttribute(&mut v, attr, device));
        v
    };
    assert_eq!(get(cudaDevAttrManagedMemory, 0), 1);
    assert_eq!(get(cudaDevAttrConcurrentManagedAccess, 0), 0);
    assert_eq!(get(cudaDevAttrConcurrentManagedAccess, 1), 1);
    assert_eq!(get(cudaDevAttrPageableMemoryAccess, 1), 0);
    assert_eq!(get(cudaDevAttrDirectManagedMemAccessFromHost, 1), 0);
    // SAFETY: a plain C struct, filled by the call.
    let mut prop: cudaDeviceProp = unsafe { std::mem::zeroed() };
    check!(cudaSuccess, cudaGetDeviceProperties(&mut prop, 1));
    assert_eq!(
        (
            prop.managedMemory,
            prop.concurrentManagedAccess,
            prop.pageableMemoryAccess
        ),
        (1, 1, 0)
    );
    assert!(matches!(
        p.mem_range_attributes(0, 1),
        Err(SimError::InvalidValue { .. })
    ));
}

/// managed-memory.md · MUSA · the twins answer as CUDA's.
#[test]
fn musa_twins() {
    use streamsim::musa::*;
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut a = null_mut();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            musaMallocManaged(&mut a, 4096, musaMemAttachGlobal),
            musaSuccess
        );
        assert_eq!(musaMallocManaged(&mut a, 4096, 0), musaErrorInvalidValue);
        assert_eq!(musaMemPrefetchAsync(a, 4096, 0, null_mut()), musaSuccess);
        assert_eq!(
            musaMemAdvise(a, 4096, musaMemAdviseSetReadMostly, 0),
            musaSuccess
        );
        let mut v: c_int = 0;
        assert_eq!(
            musaMemRangeGetAttribute(
                (&raw mut v).cast(),
                4,
                musaMemRangeAttributeLastPrefetchLocation,
                a,
                4096
            ),
            musaSuccess
        );
        assert_eq!(v, 0);
        assert_eq!(musaFree(a), musaSuccess);
    }
    assert!(!p.is_managed(a as usize as u64), "freed");
}
