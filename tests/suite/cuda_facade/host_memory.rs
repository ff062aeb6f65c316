//! Host memory (issue 13, item 2): cudaHostAlloc, cudaHostGetDevicePointer, cudaHostRegister /
//! cudaHostUnregister, cudaPointerGetAttributes. Rows: `docs/semantics/cuda-musa-runtime-api.md`.

use std::sync::mpsc;

use streamsim::{Attribute, DeviceConfig, HostPtr, RaceAccess};

use super::*;

fn host_alloc(bytes: usize, flags: c_uint) -> *mut c_void {
    let mut p = null_mut();
    check!(cudaSuccess, cudaHostAlloc(&mut p, bytes, flags));
    p
}

fn attributes(ptr: *const c_void) -> cudaPointerAttributes {
    let mut a = cudaPointerAttributes {
        r#type: 99,
        device: 99,
        devicePointer: 0x11 as *mut c_void,
        hostPointer: 0x11 as *mut c_void,
    };
    check!(cudaSuccess, cudaPointerGetAttributes(&mut a, ptr));
    a
}

/// cuda-musa-runtime-api.md · HostAlloc · every OR of Portable, Mapped and WriteCombined → pinned memory (the
/// host can write it, FreeHost frees it, copies read it); other bits → 1; NULL → 1.
#[test]
fn host_alloc_flags() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let d = dmalloc(64);
    for flags in 0..=7 {
        let h = host_alloc(64, flags);
        // SAFETY: 64 bytes of pinned memory just allocated.
        unsafe { std::ptr::write_bytes(h.cast::<u8>(), flags as u8 + 1, 64) };
        assert_eq!(attributes(h).r#type, cudaMemoryTypeHost);
        check!(cudaSuccess, cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice));
        let mut back = [0u8; 64];
        check!(
            cudaSuccess,
            cudaMemcpy(back.as_mut_ptr().cast(), d, 64, cudaMemcpyDeviceToHost)
        );
        assert_eq!(back, [flags as u8 + 1; 64]);
        check!(cudaSuccess, cudaFreeHost(h));
    }
    let mut h = null_mut();
    for bad in [8, 0x10, 0x80, u32::MAX] {
        check!(cudaErrorInvalidValue, cudaHostAlloc(&mut h, 64, bad));
    }
    assert!(h.is_null());
    check!(cudaErrorInvalidValue, cudaHostAlloc(null_mut(), 64, 0));
}

/// cuda-musa-runtime-api.md · HostGetDevicePointer · pinned memory (allocated or registered, interior pointers
/// too) → the same address; flags ≠ 0, pageable or device memory, another process's pinned memory, NULL → 1.
#[test]
fn host_get_device_pointer() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let h = host_alloc(256, cudaHostAllocMapped);
    let mut reg = vec![0u8; 4096];
    check!(
        cudaSuccess,
        cudaHostRegister(reg.as_mut_ptr().cast(), 4096, 0)
    );
    let dev = |host: *mut c_void| {
        let mut d = null_mut();
        check!(cudaSuccess, cudaHostGetDevicePointer(&mut d, host, 0));
        d
    };
    assert_eq!(dev(h), h);
    // SAFETY: inside the 256-byte buffer.
    let inside = unsafe { h.cast::<u8>().add(100) }.cast();
    assert_eq!(dev(inside), inside);
    assert_eq!(dev(reg.as_mut_ptr().cast()), reg.as_mut_ptr().cast());
    let mut d = null_mut();
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(&mut d, h, 1)
    );
    let mut pageable = [0u8; 16];
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(&mut d, pageable.as_mut_ptr().cast(), 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(&mut d, dmalloc(16), 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(&mut d, null_mut(), 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(null_mut(), h, 0)
    );
    let other = m.process();
    let theirs = other.malloc_host(16).unwrap().as_mut_ptr();
    check!(
        cudaErrorInvalidValue,
        cudaHostGetDevicePointer(&mut d, theirs.cast(), 0)
    );
    assert!(d.is_null());
    check!(cudaSuccess, cudaHostUnregister(reg.as_mut_ptr().cast()));
}

/// A gate that holds a stream's worker inside a kernel body until the test opens it: what runs after the
/// kernel on that stream then runs after whatever the host did meanwhile (deterministically).
struct Gate(mpsc::Receiver<()>);

unsafe extern "C" fn wait_at_gate(arg: *mut c_void) {
    // SAFETY: the tests pass a leaked Gate.
    let g = unsafe { &*arg.cast::<Gate>() };
    let _ = g.0.recv();
}

fn gate(s: cudaStream_t) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel();
    let g: &'static Gate = Box::leak(Box::new(Gate(rx)));
    check!(
        cudaSuccess,
        kernel_with(s, 10, wait_at_gate, g as *const Gate as *mut c_void)
    );
    tx
}

/// What an H2D cudaMemcpyAsync from `src` (registered or not) delivers when the host rewrites `src` after
/// the call but before the copy runs.
fn copy_after_host_rewrite(register: bool) -> [u8; 64] {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let d = dmalloc(64);
    let mut src = vec![1u8; 64];
    if register {
        check!(
            cudaSuccess,
            cudaHostRegister(src.as_mut_ptr().cast(), 64, cudaHostRegisterDefault)
        );
    }
    let open = gate(s);
    check!(
        cudaSuccess,
        cudaMemcpyAsync(d, src.as_ptr().cast(), 64, cudaMemcpyHostToDevice, s)
    );
    src.fill(2);
    open.send(()).unwrap();
    check!(cudaSuccess, cudaStreamSynchronize(s));
    let mut back = [0u8; 64];
    check!(
        cudaSuccess,
        cudaMemcpy(back.as_mut_ptr().cast(), d, 64, cudaMemcpyDeviceToHost)
    );
    if register {
        check!(cudaSuccess, cudaHostUnregister(src.as_mut_ptr().cast()));
    }
    back
}

/// cuda-musa-runtime-api.md · HostRegister · registered memory is pinned for async copies: an H2D copy reads it
/// when the copy runs (the host's later write arrives), where pageable memory is staged at the call (the old
/// bytes arrive).
#[test]
fn registered_memory_is_read_when_the_copy_runs() {
    let registered = crate::common::with_watchdog(30, || copy_after_host_rewrite(true));
    let pageable = crate::common::with_watchdog(30, || copy_after_host_rewrite(false));
    assert_eq!(registered, [2; 64]);
    assert_eq!(pageable, [1; 64]);
}

/// cuda-musa-runtime-api.md · HostRegister · a D2H cudaMemcpyAsync into registered memory returns at once
/// (the host clock moves by the call only); into pageable memory it waits for the copy.
#[test]
fn async_copies_into_registered_memory_do_not_block() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let d = dmalloc(1 << 20);
    let mut pageable = vec![0u8; 1 << 20];
    let mut reg = vec![0u8; 1 << 20];
    check!(
        cudaSuccess,
        cudaHostRegister(reg.as_mut_ptr().cast(), 1 << 20, 0)
    );
    check!(cudaSuccess, kernel(s, 500));
    let before = p.now();
    check!(
        cudaSuccess,
        cudaMemcpyAsync(
            reg.as_mut_ptr().cast(),
            d,
            1 << 20,
            cudaMemcpyDeviceToHost,
            s
        )
    );
    assert_eq!(
        p.now().as_nanos() - before.as_nanos(),
        1_000,
        "one call's overhead"
    );
    check!(
        cudaSuccess,
        cudaMemcpyAsync(
            pageable.as_mut_ptr().cast(),
            d,
            1 << 20,
            cudaMemcpyDeviceToHost,
            s
        )
    );
    check!(cudaSuccess, cudaStreamSynchronize(s));
    let ops: Vec<_> = m
        .trace()
        .stream(p.stream_id(core_stream(s)).unwrap())
        .cloned()
        .collect();
    assert_eq!(ops.len(), 3);
    assert!(matches!(
        ops[1].kind,
        streamsim::OpKind::Memcpy {
            path: CopyPath::DeviceToHost,
            ..
        }
    ));
    // Only the pageable copy's call blocked, until its copy ended.
    let blocking: Vec<_> = m
        .trace()
        .host
        .iter()
        .filter(|h| h.label == "memcpy_async")
        .map(|h| h.end)
        .collect();
    assert_eq!(blocking, [ops[2].end]);
    check!(cudaSuccess, cudaHostUnregister(reg.as_mut_ptr().cast()));
}

/// cuda-musa-runtime-api.md · HostRegister · registered memory is tracked by race detection like pinned
/// memory: a host write after an async copy that reads it, with no synchronize between, is a race; after the
/// synchronize it is not.
#[test]
fn registered_memory_is_race_checked() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let d = dmalloc(256);
    let mut buf = vec![0u8; 256];
    check!(
        cudaSuccess,
        cudaHostRegister(buf.as_mut_ptr().cast(), 256, 0)
    );
    check!(
        cudaSuccess,
        cudaMemcpyAsync(d, buf.as_ptr().cast(), 256, cudaMemcpyHostToDevice, s)
    );
    let host = HostPtr(buf.as_ptr() as u64);
    p.host_write(host, &[7; 16])
        .expect("collect mode: the write happens");
    let races = m.race_reports();
    assert_eq!(races.len(), 1, "{races:#?}");
    assert!(matches!(races[0].first, RaceAccess { write: false, .. }));
    assert!(races[0].second.write);
    check!(cudaSuccess, cudaStreamSynchronize(s));
    p.host_write(host.offset(16), &[8; 16]).unwrap();
    assert_eq!(m.race_reports().len(), 1, "ordered by the synchronize");
    check!(cudaSuccess, cudaHostUnregister(buf.as_mut_ptr().cast()));
}

/// cuda-musa-runtime-api.md · HostRegister / HostUnregister · the error rows: a range overlapping a
/// registration or a pinned allocation (any process) → 712; NULL, size 0, a device address, unknown flags,
/// read-only or unmapped memory → 1; IoMemory → 801; ReadOnly on a device without read-only registration → 801; a device without host
/// registration → 801. Unregister: not the start of a registration (never registered, interior, twice,
/// cudaMallocHost memory, another process's) → 713; NULL → 1. FreeHost of registered memory → 1.
#[test]
fn host_register_error_rows() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let mut buf = vec![0u8; 8192];
    let base: *mut u8 = buf.as_mut_ptr();
    // SAFETY: offsets inside the buffer.
    let at = |off: usize| unsafe { base.add(off) }.cast::<c_void>();
    check!(
        cudaSuccess,
        cudaHostRegister(
            at(1024),
            4096,
            cudaHostRegisterPortable | cudaHostRegisterMapped
        )
    );
    check!(
        cudaErrorHostMemoryAlreadyRegistered,
        cudaHostRegister(at(1024), 4096, 0)
    );
    check!(
        cudaErrorHostMemoryAlreadyRegistered,
        cudaHostRegister(at(0), 1025, 0)
    );
    check!(
        cudaErrorHostMemoryAlreadyRegistered,
        cudaHostRegister(at(5119), 10, 0)
    );
    check!(
        cudaErrorHostMemoryAlreadyRegistered,
        cudaHostRegister(at(2048), 16, 0)
    );
    check!(cudaSuccess, cudaHostRegister(at(0), 1024, 0));
    check!(cudaSuccess, cudaHostRegister(at(5120), 3072, 0));
    let pinned = host_alloc(64, 0);
    check!(
        cudaErrorHostMemoryAlreadyRegistered,
        cudaHostRegister(pinned, 64, 0)
    );
    let other = m.process();
    {
        let _g = other.bind();
        check!(
            cudaErrorHostMemoryAlreadyRegistered,
            cudaHostRegister(at(1024), 16, 0)
        );
        check!(
            cudaErrorHostMemoryNotRegistered,
            cudaHostUnregister(at(1024))
        );
    }
    let mut spare = vec![0u8; 64];
    let spare_ptr: *mut c_void = spare.as_mut_ptr().cast();
    check!(cudaErrorInvalidValue, cudaHostRegister(null_mut(), 64, 0));
    check!(cudaErrorInvalidValue, cudaHostRegister(spare_ptr, 0, 0));
    check!(cudaErrorInvalidValue, cudaHostRegister(dmalloc(64), 64, 0));
    check!(cudaErrorInvalidValue, cudaHostRegister(spare_ptr, 64, 0x10));
    // Memory the program cannot write (read-only data), or a range running past its mappings: the driver
    // cannot page-lock it; the simulator checks the OS's mappings.
    static READ_ONLY: [u8; 4096] = [3; 4096];
    check!(
        cudaErrorInvalidValue,
        cudaHostRegister(READ_ONLY.as_ptr().cast_mut().cast(), 4096, 0)
    );
    check!(
        cudaErrorInvalidValue,
        cudaHostRegister(spare_ptr, 1 << 46, 0)
    );
    check!(
        cudaErrorNotSupported,
        cudaHostRegister(spare_ptr, 64, cudaHostRegisterIoMemory)
    );
    check!(
        cudaErrorNotSupported,
        cudaHostRegister(spare_ptr, 64, cudaHostRegisterReadOnly)
    );
    assert_eq!(
        attributes(spare_ptr).r#type,
        cudaMemoryTypeUnregistered,
        "none of those registered it"
    );

    check!(
        cudaErrorHostMemoryNotRegistered,
        cudaHostUnregister(spare_ptr)
    );
    check!(
        cudaErrorHostMemoryNotRegistered,
        cudaHostUnregister(at(1025))
    );
    check!(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(pinned));
    check!(cudaErrorInvalidValue, cudaHostUnregister(null_mut()));
    check!(cudaErrorInvalidValue, cudaFreeHost(at(1024)));
    for off in [0, 1024, 5120] {
        check!(cudaSuccess, cudaHostUnregister(at(off)));
        check!(
            cudaErrorHostMemoryNotRegistered,
            cudaHostUnregister(at(off))
        );
    }
    assert_eq!(attributes(base.cast()).r#type, cudaMemoryTypeUnregistered);
    drop(buf);
    check!(cudaSuccess, cudaFreeHost(pinned));

    let no_register = Machine::builder()
        .device(
            0,
            DeviceConfig::default().attribute(Attribute::HostRegisterSupported, 0),
        )
        .build()
        .unwrap();
    let q = no_register.process();
    let _g = q.bind();
    check!(cudaErrorNotSupported, cudaHostRegister(spare_ptr, 64, 0));
}

/// cuda-musa-runtime-api.md · HostUnregister · work still queued on a range when it is unregistered touches no
/// memory (the vendor leaves it undefined; the simulator never writes memory the program may have freed).
#[test]
fn work_queued_on_an_unregistered_range_touches_no_memory() {
    crate::common::with_watchdog(30, || {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = stream(cudaStreamDefault);
        let d = dmalloc(64);
        check!(cudaSuccess, cudaMemset(d, 9, 64));
        let mut dst = vec![1u8; 64];
        check!(
            cudaSuccess,
            cudaHostRegister(dst.as_mut_ptr().cast(), 64, 0)
        );
        let open = gate(s);
        check!(
            cudaSuccess,
            cudaMemcpyAsync(dst.as_mut_ptr().cast(), d, 64, cudaMemcpyDeviceToHost, s)
        );
        check!(cudaSuccess, cudaHostUnregister(dst.as_mut_ptr().cast()));
        open.send(()).unwrap();
        check!(cudaSuccess, cudaStreamSynchronize(s));
        assert_eq!(dst, [1; 64]);
    });
}

/// cuda-musa-runtime-api.md · PointerGetAttributes · device memory → (Device, its device, the pointer, NULL);
/// pinned and registered memory → (Host, the device current when allocated or registered, the pointer, the
/// pointer); ordinary host memory → (Unregistered, -2, NULL, NULL); interior pointers keep their offset; NULL,
/// a freed or unallocated device address, another process's device memory → 1 (hip-tests
/// `Unit_hipPointerGetAttributes_Basic`, `_GpuIter`, `_Negative`).
#[test]
fn pointer_attributes() {
    let (m, p) = machine(2);
    let _g = p.bind();
    let d0 = dmalloc(1000);
    check!(cudaSuccess, cudaSetDevice(1));
    let d1 = dmalloc(1000);
    let pinned1 = host_alloc(100, 0);
    let mut reg = vec![0u8; 100];
    check!(
        cudaSuccess,
        cudaHostRegister(reg.as_mut_ptr().cast(), 100, 0)
    );
    check!(cudaSuccess, cudaSetDevice(0));
    let pinned0 = host_alloc(100, cudaHostAllocMapped);

    let a = attributes(d0);
    assert_eq!(
        (a.r#type, a.device, a.devicePointer, a.hostPointer),
        (cudaMemoryTypeDevice, 0, d0, null_mut())
    );
    // SAFETY (pointer arithmetic): inside the allocations.
    let d1_end = unsafe { d1.cast::<u8>().add(999) }.cast::<c_void>();
    let a = attributes(d1_end);
    assert_eq!(
        (a.r#type, a.device, a.devicePointer),
        (cudaMemoryTypeDevice, 1, d1_end)
    );
    for (ptr, device) in [(pinned0, 0), (pinned1, 1), (reg.as_mut_ptr().cast(), 1)] {
        let a = attributes(ptr);
        assert_eq!(
            (a.r#type, a.device, a.devicePointer, a.hostPointer),
            (cudaMemoryTypeHost, device, ptr, ptr)
        );
    }
    let inside = unsafe { pinned0.cast::<u8>().add(50) }.cast::<c_void>();
    assert_eq!(attributes(inside).hostPointer, inside);
    let stack = [0u8; 8];
    let a = attributes(stack.as_ptr().cast());
    assert_eq!(
        (a.r#type, a.device, a.devicePointer, a.hostPointer),
        (
            cudaMemoryTypeUnregistered,
            cudaInvalidDeviceId,
            null_mut(),
            null_mut()
        )
    );

    let mut a = attributes(d0);
    check!(
        cudaErrorInvalidValue,
        cudaPointerGetAttributes(&mut a, null())
    );
    check!(
        cudaErrorInvalidValue,
        cudaPointerGetAttributes(null_mut(), d0)
    );
    // Just past the 1000-byte allocation: no allocation there.
    let past = unsafe { d0.cast::<u8>().add(1000) }.cast::<c_void>();
    check!(
        cudaErrorInvalidValue,
        cudaPointerGetAttributes(&mut a, past)
    );
    check!(cudaSuccess, cudaFree(d0));
    check!(cudaErrorInvalidValue, cudaPointerGetAttributes(&mut a, d0));
    let theirs = m.process();
    let their_dev = {
        let _g = theirs.bind();
        dmalloc(64)
    };
    check!(
        cudaErrorInvalidValue,
        cudaPointerGetAttributes(&mut a, their_dev)
    );
    check!(cudaSuccess, cudaHostUnregister(reg.as_mut_ptr().cast()));
}
