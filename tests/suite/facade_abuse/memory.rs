//! Facade abuse: allocations and copies with unknown, freed, foreign and out-of-range pointers and wrong copy kinds.

use super::*;

/// Allocation and free calls with NULL out-pointers, huge sizes and bad pointers.
#[test]
fn allocation_calls_with_bad_sizes_and_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let mut out = null_mut();
        check!(f, cudaErrorInvalidValue, (f.malloc)(null_mut(), 16));
        check!(f, cudaErrorInvalidValue, (f.malloc_host)(null_mut(), 16));
        for huge in [1_usize << 62, usize::MAX, (40 << 30) + 1] {
            check!(f, cudaErrorMemoryAllocation, (f.malloc)(&mut out, huge));
            assert!(out.is_null());
        }
        check!(f, cudaSuccess, (f.malloc)(&mut out, 0));
        assert!(out.is_null(), "a 0-byte allocation is NULL");
        let d = dmalloc(f, 256);
        let host = pinned(f, 64);
        let theirs = on(&m.process(), || dmalloc(f, 64));
        let their_pinned = on(&m.process(), || pinned(f, 64));
        let freed = dmalloc(f, 64);
        check!(f, cudaSuccess, (f.free)(freed));
        let freed_pinned = pinned(f, 64);
        check!(f, cudaSuccess, (f.free_host)(freed_pinned));
        for (what, bad) in [
            ("0xdeadbeef", 0xdead_beef_usize as H),
            ("unallocated", unallocated()),
            ("no such device", no_such_device()),
            ("interior", d.wrapping_byte_add(16)),
            ("freed", freed),
            ("pinned host", host),
            ("another process's", theirs),
            ("all ones", usize::MAX as H),
        ] {
            // SAFETY: the pointer is only looked up.
            let got = unsafe { (f.free)(bad) };
            assert_eq!(got, cudaErrorInvalidValue, "{}Free({what}): {got}", f.name);
        }
        for (what, bad) in [
            ("0xdeadbeef", 0xdead_beef_usize as H),
            ("device", d),
            ("interior", host.wrapping_byte_add(1)),
            ("freed", freed_pinned),
            ("another process's", their_pinned),
        ] {
            // SAFETY: the pointer is only looked up.
            let got = unsafe { (f.free_host)(bad) };
            assert_eq!(
                got, cudaErrorInvalidValue,
                "{}FreeHost({what}): {got}",
                f.name
            );
        }
        check!(f, cudaSuccess, (f.free)(null_mut()));
        check!(f, cudaSuccess, (f.free_host)(null_mut()));
        check!(f, cudaSuccess, (f.free)(d));
        check!(f, cudaSuccess, (f.free_host)(host));
        check!(f, cudaErrorInvalidValue, (f.free)(d));
        check!(f, cudaErrorInvalidValue, (f.free_host)(host));
        check!(f, cudaSuccess, (f.device_synchronize)());
    }
}

/// Copies and memsets with NULL, unknown, freed, foreign and out-of-range device pointers, wrong kinds and
/// unknown kinds (21 InvalidMemcpyDirection).
#[test]
fn copies_with_bad_pointers_and_kinds() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let s = new_stream(f);
        let d = dmalloc(f, 256);
        let d2 = dmalloc(f, 256);
        let pin = pinned(f, 256);
        let pin2 = pinned(f, 256);
        let mut page = [0u8; 256];
        let pg = page.as_mut_ptr().cast::<c_void>();
        let freed = dmalloc(f, 256);
        check!(f, cudaSuccess, (f.free)(freed));
        let theirs = on(&m.process(), || dmalloc(f, 256));
        check!(f, cudaSuccess, (f.set_device)(1));
        let d1 = dmalloc(f, 256);
        check!(f, cudaSuccess, (f.set_device)(0));
        let (h2d, d2h, d2d, h2h, dflt) = (
            cudaMemcpyHostToDevice,
            cudaMemcpyDeviceToHost,
            cudaMemcpyDeviceToDevice,
            cudaMemcpyHostToHost,
            cudaMemcpyDefault,
        );
        // (what, dst, src, count, kind, expected)
        let cases: Vec<(&str, H, H, usize, c_uint, Err)> = vec![
            ("NULL dst", null_mut(), pin, 16, h2d, 1),
            ("NULL src", d, null_mut(), 16, h2d, 1),
            ("NULL both, default", null_mut(), null_mut(), 16, dflt, 1),
            ("NULL both, count 0", null_mut(), null_mut(), 0, h2d, 0),
            ("kind 99", d, pin, 16, 99, 21),
            ("kind 5", d, pin, 16, 5, 21),
            ("kind u32::MAX", d, pin, 16, u32::MAX, 21),
            ("H2D with device src", d, d2, 16, h2d, 1),
            ("H2D with host dst", pin2, pin, 16, h2d, 1),
            ("D2H with host src", pg, pin, 16, d2h, 1),
            ("D2H with device dst", d2, d, 16, d2h, 1),
            ("D2D with host src", d, pin, 16, d2d, 1),
            ("D2D with pageable dst", pg, d, 16, d2d, 1),
            ("H2H with device dst", d, pin, 16, h2h, 1),
            ("H2H with device src", pin, d, 16, h2h, 1),
            ("device out of range", d2, d, 257, d2d, 1),
            (
                "device offset out of range",
                d.wrapping_byte_add(200),
                d2,
                100,
                d2d,
                1,
            ),
            ("pinned out of range", d, pin, 257, h2d, 1),
            ("count usize::MAX", d2, d, usize::MAX, d2d, 1),
            ("unallocated src", d, unallocated(), 16, d2d, 1),
            ("unallocated dst", unallocated(), d, 16, dflt, 1),
            ("freed src", d, freed, 16, dflt, 1),
            ("freed dst", freed, pin, 16, h2d, 1),
            ("another process's src", d, theirs, 16, d2d, 1),
            ("another process's dst", theirs, pin, 16, dflt, 1),
            ("no such device, H2D", no_such_device(), pin, 16, h2d, 1),
            ("no such device, D2H", pin, no_such_device(), 16, d2h, 1),
            ("valid default", d, pin, 16, dflt, 0),
            ("valid cross-device", d1, d, 16, dflt, 0),
        ];
        for &(what, dst, src, count, kind, want) in &cases {
            // SAFETY: host pointers are valid 256-byte buffers; the rest is checked by the simulator.
            let (sync, asy) = unsafe {
                (
                    (f.memcpy)(dst, src, count, kind),
                    (f.memcpy_async)(dst, src, count, kind, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}Memcpy / MemcpyAsync ({what}): {sync} ({}) / {asy} ({}), expected {want}",
                f.name,
                f.err_name(sync),
                f.err_name(asy)
            );
        }
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.memcpy_async)(d, pin, 16, h2d, 0xdead_beef_usize as H)
        );
        // Peer copies: bad ids, pointers that are not the named devices' memory, NULL, unknown, too long.
        let peer: Vec<(&str, H, c_int, H, c_int, usize, Err)> = vec![
            ("dst device -1", d1, -1, d, 0, 16, 101),
            ("src device 2", d1, 1, d, 2, 16, 101),
            ("dst device MAX", d1, c_int::MAX, d, 0, 16, 101),
            ("swapped devices", d1, 0, d, 1, 16, 1),
            ("NULL dst", null_mut(), 1, d, 0, 16, 1),
            ("NULL src", d1, 1, null_mut(), 0, 16, 1),
            ("pinned src", d1, 1, pin, 0, 16, 1),
            ("unallocated src", d1, 1, unallocated(), 0, 16, 1),
            ("freed src", d1, 1, freed, 0, 16, 1),
            ("another process's src", d1, 1, theirs, 0, 16, 1),
            ("out of range", d1, 1, d, 0, 257, 1),
            ("count 0", null_mut(), 1, null_mut(), 0, 0, 0),
            ("valid", d1, 1, d, 0, 256, 0),
        ];
        for &(what, dst, dd, src, sd, count, want) in &peer {
            // SAFETY: device-range pointers only.
            let (sync, asy) = unsafe {
                (
                    (f.memcpy_peer)(dst, dd, src, sd, count),
                    (f.memcpy_peer_async)(dst, dd, src, sd, count, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}MemcpyPeer(Async) ({what}): {sync} ({}) / {asy} ({}), expected {want}",
                f.name,
                f.err_name(sync),
                f.err_name(asy)
            );
        }
        // Memset: NULL, host, unknown, freed, foreign, out of range.
        let sets: Vec<(&str, H, usize, Err)> = vec![
            ("NULL", null_mut(), 16, 1),
            ("NULL count 0", null_mut(), 0, 0),
            ("pinned host", pin, 16, 1),
            ("0xdeadbeef", 0xdead_beef_usize as H, 16, 1),
            ("unallocated", unallocated(), 16, 1),
            ("no such device", no_such_device(), 16, 1),
            ("freed", freed, 16, 1),
            ("another process's", theirs, 16, 1),
            ("out of range", d, 257, 1),
            ("count usize::MAX", d, usize::MAX, 1),
            ("valid", d, 256, 0),
        ];
        for &(what, ptr, count, want) in &sets {
            // SAFETY: the pointer is only checked by the simulator.
            let (sync, asy) = unsafe {
                (
                    (f.memset)(ptr, 0x5a, count),
                    (f.memset_async)(ptr, -1, count, s),
                )
            };
            assert_eq!(
                (sync, asy),
                (want, want),
                "{}Memset(Async) ({what}): {sync} / {asy}, expected {want}",
                f.name
            );
        }
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.memset_async)(d, 0, 16, usize::MAX as H)
        );
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.device_synchronize)());
        std::hint::black_box(&page); // the pageable buffer outlived every copy that named it
    }
}

/// A pinned buffer freed with cudaFreeHost / musaFreeHost is remembered as freed, not read as ordinary host
/// memory afterwards (sim: the vendors leave a use of freed memory undefined; on hardware its pages are
/// unmapped): a copy from or to it, with any kind that admits host memory, is cudaErrorInvalidValue (1) with a
/// message saying "freed" — it used to succeed as a pageable copy of freed memory — and freeing it again is 1
/// ("already freed"). A live pinned buffer allocated afterwards works as usual.
#[test]
fn a_freed_pinned_buffer_is_not_pageable_memory() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let s = new_stream(f);
        let d = dmalloc(f, 256);
        let freed = pinned(f, 256);
        check!(f, cudaSuccess, (f.free_host)(freed));
        for (what, dst, src, kind) in [
            ("H2D from it", d, freed, cudaMemcpyHostToDevice),
            ("default from it", d, freed, cudaMemcpyDefault),
            ("D2H into it", freed, d, cudaMemcpyDeviceToHost),
            ("default into it", freed, d, cudaMemcpyDefault),
            (
                "H2H inside it",
                freed.wrapping_byte_add(128),
                freed,
                cudaMemcpyHostToHost,
            ),
        ] {
            // SAFETY: the freed pointer is only looked up (it is refused before any byte is touched).
            let (sync, asy) = unsafe {
                (
                    (f.memcpy)(dst, src, 64, kind),
                    (f.memcpy_async)(dst, src, 64, kind, s),
                )
            };
            assert_eq!((sync, asy), (1, 1), "{}Memcpy(Async) ({what})", f.name);
            assert!(
                p.peek_last_error()
                    .unwrap()
                    .to_string()
                    .contains("(pinned host memory) is freed"),
                "{what}: {}",
                p.peek_last_error().unwrap()
            );
        }
        check!(f, cudaErrorInvalidValue, (f.free_host)(freed));
        assert!(
            p.peek_last_error()
                .unwrap()
                .to_string()
                .contains("already freed")
        );
        let live = pinned(f, 256);
        check!(
            f,
            cudaSuccess,
            (f.memcpy)(d, live, 64, cudaMemcpyHostToDevice)
        );
        check!(f, cudaSuccess, (f.free_host)(live));
    }
}

/// The host-memory calls with garbage pointers: unallocated, freed and absent-device device-range addresses, and
/// another process's pinned buffer. cudaHostRegister of a device address → 1; cudaHostUnregister of anything not
/// registered → 713; cudaHostGetDevicePointer of memory that is not this process's pinned memory → 1;
/// cudaPointerGetAttributes of a device-range address with no live allocation of this process → 1 (another
/// process's pinned buffer is ordinary host memory to this process: Unregistered).
#[test]
fn host_memory_calls_with_garbage_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let freed = dmalloc(f, 64);
        check!(f, cudaSuccess, (f.free)(freed));
        let theirs = on(&m.process(), || pinned(f, 64));
        let mut d = null_mut();
        // SAFETY: all-zero bytes are a valid cudaPointerAttributes.
        let mut a: cudaPointerAttributes = unsafe { std::mem::zeroed() };
        for bad in [unallocated(), no_such_device(), freed] {
            check!(f, cudaErrorInvalidValue, (f.host_register)(bad, 64, 0));
            check!(
                f,
                cudaErrorHostMemoryNotRegistered,
                (f.host_unregister)(bad)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.host_get_device_pointer)(&mut d, bad, 0)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.pointer_get_attributes)(&mut a, bad)
            );
        }
        check!(
            f,
            cudaErrorHostMemoryNotRegistered,
            (f.host_unregister)(theirs)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.host_get_device_pointer)(&mut d, theirs, 0)
        );
        check!(f, cudaSuccess, (f.pointer_get_attributes)(&mut a, theirs));
        assert_eq!(a.r#type, cudaMemoryTypeUnregistered);
        assert!(d.is_null());
    }
}
