//! acl.md rows through the ACL facade: Peers, memory, timeouts, init.

use super::*;

/// acl.md · Peers · DeviceCanAccessPeer · deviceId == peerDeviceId → 100000
#[test]
fn can_access_peer_same_device() {
    on_acl(2, |_| {
        let mut can = -1;
        // SAFETY: a valid out-pointer.
        unsafe {
            assert_eq!(aclrtDeviceCanAccessPeer(&mut can, 1, 1), 100000);
            ok(aclrtDeviceCanAccessPeer(&mut can, 0, 1));
            assert_eq!(can, 1, "all pairs are linked by default");
            assert_eq!(aclrtDeviceCanAccessPeer(&mut can, 0, 2), 107001);
        }
    });
    let m = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .peer_links([])
        .build()
        .unwrap();
    on_machine(&m, |_| {
        let mut can = -1;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtDeviceCanAccessPeer(&mut can, 1, 0) });
        assert_eq!(can, 0, "no link");
        ok(aclrtSetDevice(0));
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 207000, "sim: no link");
    });
}

/// acl.md · Peers · Enable/DisablePeerAccess · peer == current device → 100000
#[test]
fn peer_access_with_the_current_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 100000);
        assert_eq!(aclrtDeviceDisablePeerAccess(1), 100000);
        assert_eq!(
            aclrtDeviceEnablePeerAccess(1, 1),
            ACL_ERROR_FEATURE_UNSUPPORTED,
            "the flags are checked first (aclrtDeviceEnablePeerAccessImpl, memory.cpp)"
        );
    });
}

/// acl.md · Peers · EnablePeerAccess · flags != 0 → 200006
#[test]
fn enable_peer_access_with_flags() {
    on_acl(2, |p| {
        ok(aclrtSetDevice(0));
        for flags in [1, 2, u32::MAX] {
            assert_eq!(aclrtDeviceEnablePeerAccess(1, flags), 200006);
        }
        assert_eq!(ACL_ERROR_FEATURE_UNSUPPORTED, 200006);
        assert!(!p.peer_access_enabled(0, 1));
    });
}

/// acl.md · Peers · EnablePeerAccess · — → one direction (current → peer)
#[test]
fn enable_peer_access_is_one_direction() {
    on_acl(3, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtDeviceEnablePeerAccess(2, 0));
        assert!(p.peer_access_enabled(0, 2));
        assert!(!p.peer_access_enabled(2, 0));
        ok(aclrtDeviceDisablePeerAccess(2));
        assert!(!p.peer_access_enabled(0, 2));
    });
}

/// acl.md · Peers · Enable twice / Disable when not enabled · vendor: undefined → sim: 0 (idempotent), noted
/// in the trace
#[test]
fn peer_access_repeats_are_idempotent_and_traced() {
    let m = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .trace(true)
        .build()
        .unwrap();
    on_machine(&m, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtDeviceDisablePeerAccess(1));
        ok(aclrtDeviceEnablePeerAccess(1, 0));
        ok(aclrtDeviceEnablePeerAccess(1, 0));
        assert!(p.peer_access_enabled(0, 1));
        ok(aclrtDeviceDisablePeerAccess(1));
        ok(aclrtDeviceDisablePeerAccess(1));
    });
    let labels: Vec<String> = m.trace().host.iter().map(|h| h.label.clone()).collect();
    let noted = |what: &str| labels.iter().filter(|l| l.contains(what)).count();
    assert_eq!(noted("NotEnabled, no-op"), 2, "{labels:?}");
    assert_eq!(noted("AlreadyEnabled, no-op"), 1, "{labels:?}");
}

/// acl.md · Memory · Memcpy D2D across devices · peer access not enabled → docs: fails. sim: 107000 with a
/// message naming the missing EnablePeerAccess
#[test]
fn memcpy_across_devices_needs_peer_access() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let d0 = malloc(64);
        let host = [9u8; 64];
        // SAFETY: 64-byte buffers.
        unsafe {
            ok(aclrtMemcpy(
                d0,
                64,
                host.as_ptr().cast(),
                64,
                ACL_MEMCPY_HOST_TO_DEVICE,
            ));
            ok(aclrtSetDevice(1));
            let d1 = malloc(64);
            assert_eq!(
                aclrtMemcpy(d1, 64, d0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
                107000
            );
            let msg = last_msg();
            assert!(msg.contains("peer access"), "{msg}");
            assert_eq!(
                aclrtMemcpyAsync(d1, 64, d0, 64, ACL_MEMCPY_DEFAULT, NULL),
                107000,
                "async too"
            );
            ok(aclrtDeviceEnablePeerAccess(0, 0));
            ok(aclrtMemcpy(d1, 64, d0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
            let mut back = [0u8; 64];
            ok(aclrtMemcpy(
                back.as_mut_ptr().cast(),
                64,
                d1,
                64,
                ACL_MEMCPY_DEVICE_TO_HOST,
            ));
            assert_eq!(back, host);
        }
    });
}

/// acl.md · Memory · Memcpy / MemcpyAsync · count > destMax → 107000
#[test]
fn memcpy_count_beyond_dest_max() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let d = malloc(64);
        let host = [1u8; 64];
        // SAFETY: 64-byte buffers.
        unsafe {
            assert_eq!(
                aclrtMemcpy(d, 32, host.as_ptr().cast(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
                107000
            );
            assert_eq!(
                aclrtMemcpyAsync(
                    d,
                    63,
                    host.as_ptr().cast(),
                    64,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                    NULL
                ),
                107000
            );
            ok(aclrtMemcpy(
                d,
                64,
                host.as_ptr().cast(),
                64,
                ACL_MEMCPY_HOST_TO_DEVICE,
            ));
            assert_eq!(aclrtMemset(d, 8, 0, 9), 107000, "memset: count > maxCount");
        }
        assert_eq!(ACL_ERROR_RT_PARAM_INVALID, 107000);
    });
}

/// acl.md · Memory · Memcpy / MemcpyAsync · count == 0 → 0, nothing checked
#[test]
fn memcpy_of_zero_bytes_checks_nothing() {
    on_acl(1, |_| {
        // SAFETY: nothing is read or written for 0 bytes.
        unsafe {
            // No context, NULL pointers, an unknown kind, a forged stream: all unchecked.
            ok(aclrtMemcpy(NULL, 0, NULL, 0, 99));
            ok(aclrtMemcpyAsync(NULL, 0, NULL, 0, 99, GARBAGE));
            ok(aclrtMemcpy(
                GARBAGE,
                0,
                GARBAGE,
                0,
                ACL_MEMCPY_DEVICE_TO_DEVICE,
            ));
        }
    });
}

/// acl.md · Memory · Malloc · size == 0 → 100000
#[test]
fn malloc_of_zero_bytes() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let mut d = NULL;
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(aclrtMalloc(&mut d, 0, ACL_MEM_MALLOC_HUGE_FIRST), 100000);
            assert_eq!(aclrtMallocHost(&mut d, 0), 100000);
            for policy in [
                ACL_MEM_MALLOC_HUGE_FIRST,
                ACL_MEM_MALLOC_HUGE_ONLY,
                ACL_MEM_MALLOC_NORMAL_ONLY,
                ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ACL_MEM_MALLOC_HUGE1G_ONLY_P2P | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
            ] {
                ok(aclrtMalloc(&mut d, 16, policy));
                ok(aclrtFree(d));
            }
        }
    });
}

/// acl.md · Timeouts · Synchronize*WithTimeout · timeout 0 or < −1 → 107000 (−1 = wait forever)
#[test]
fn synchronize_with_a_bad_timeout() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = new_event();
        ok(kernel(s, 10_000));
        ok(aclrtRecordEvent(e, s));
        for t in [0, -2, i32::MIN] {
            assert_eq!(aclrtSynchronizeStreamWithTimeout(s, t), 107000, "{t}");
            assert_eq!(aclrtSynchronizeEventWithTimeout(e, t), 107000, "{t}");
        }
        ok(aclrtSynchronizeEventWithTimeout(e, -1));
        ok(aclrtSynchronizeStreamWithTimeout(s, -1));
    });
}

/// acl.md · Timeouts · Synchronize*WithTimeout · runs out → 507046 (stream) / 507047 (event)
#[test]
fn synchronize_with_a_timeout_that_runs_out() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        let e = new_event(); // t3
        ok(kernel(s, 10_000)); // t4: 6 µs .. 10.006 ms
        ok(aclrtRecordEvent(e, s)); // t5
        assert_eq!(aclrtSynchronizeStreamWithTimeout(s, 1), 507046); // t6 → gives up at 1.006 ms
        assert_eq!(now_us(p), 1_006);
        assert_eq!(aclrtSynchronizeEventWithTimeout(e, 2), 507047); // t1007 → 3.007 ms
        assert_eq!(now_us(p), 3_007);
        assert_eq!(
            (
                ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
            ),
            (507046, 507047)
        );
        ok(aclrtSynchronizeEventWithTimeout(e, 100));
        assert_eq!(now_us(p), 10_006);
        ok(aclrtSynchronizeStreamWithTimeout(s, 1));
    });
}

/// acl.md · kernel fault · — → reported at the next synchronize of that stream/device as 507015 (the CANN
/// stream-vs-event note's related issue #477: "aclrtSynchronizeStream报错507015"), and · aclrtSetStreamFailureMode ·
/// default ACL_CONTINUE_ON_FAILURE: reported once, then forgotten — later calls work (the runtime clears a stream's
/// error code once a synchronize has read it, `Stream::GetError`, src/runtime/core/src/stream/stream.cc; the
/// vendor's failure-mode sample copies its result back after the failed synchronize)
#[test]
fn kernel_fault_is_507015_at_the_next_synchronize() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        // The C stand-in cannot fail; a core kernel with a failing body on the facade's stream.
        p.launch(
            Stream::from_raw(s as usize as u64),
            Kernel::new("faulty")
                .duration(std::time::Duration::from_micros(100))
                .body(|_| Err(KernelError::from("bad access"))),
        )
        .unwrap();
        assert_eq!(aclrtSynchronizeStream(s), 507015);
        assert!(last_msg().contains("faulty"), "{}", last_msg());
        assert_eq!(aclrtSynchronizeDevice(), ACL_SUCCESS, "reported once");
        assert_eq!(aclrtSynchronizeStream(s), ACL_SUCCESS, "reported once");
        ok(kernel(s, 1));
        ok(aclrtSynchronizeStream(s));
        ok(aclrtResetDeviceForce(0));
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(kernel(s, 1));
        ok(aclrtSynchronizeStream(s));
    });
}

/// acl.md · Init · aclInit · second time → 100002; aclFinalize · second time → 100037
#[test]
fn init_and_finalize_twice() {
    on_acl(1, |_| {
        assert_eq!(
            aclFinalize(),
            ACL_ERROR_UNINITIALIZE,
            "finalize before init"
        );
        ok(aclInit(std::ptr::null()));
        assert_eq!(aclInit(std::ptr::null()), 100002);
        assert_eq!(aclInit(c"acl.json".as_ptr()), ACL_ERROR_REPEAT_INITIALIZE);
        ok(aclFinalize());
        assert_eq!(aclFinalize(), 100037);
        assert_eq!(ACL_ERROR_REPEAT_FINALIZE, 100037);
        assert_eq!(ACL_ERROR_UNINITIALIZE, 100001);
    });
}

/// acl.md · Prototypes · aclrtGetDeviceInfo and the device attributes (AICPU_CORE_NUM 1, AICORE_CORE_NUM 101,
/// CUBE_CORE_NUM 102, VECTOR_CORE_NUM 201, WARP_SIZE 202, TOTAL_GLOBAL_MEM_SIZE 301)
#[test]
fn device_info_attributes() {
    on_acl(2, |_| {
        let want = [
            (ACL_DEV_ATTR_AICPU_CORE_NUM, 1, 6),
            (ACL_DEV_ATTR_AICORE_CORE_NUM, 101, 24),
            (ACL_DEV_ATTR_CUBE_CORE_NUM, 102, 24),
            (ACL_DEV_ATTR_VECTOR_CORE_NUM, 201, 48),
            (ACL_DEV_ATTR_WARP_SIZE, 202, 32),
            (ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 301, 40 << 30),
        ];
        for (attr, number, value) in want {
            assert_eq!(attr, number);
            let mut v = -1;
            // SAFETY: a valid out-pointer.
            ok(unsafe { aclrtGetDeviceInfo(1, attr, &mut v) });
            assert_eq!(v, value, "attribute {attr}");
        }
        let mut v = -1;
        // SAFETY: a valid out-pointer.
        unsafe {
            assert_eq!(
                aclrtGetDeviceInfo(2, ACL_DEV_ATTR_WARP_SIZE, &mut v),
                107001
            );
            assert_eq!(aclrtGetDeviceInfo(0, 999, &mut v), 100000);
        }
    });
}

/// acl.md · Prototypes · the enums' values and the opposite numbering of the status enums
#[test]
fn enum_values() {
    assert_eq!(
        [
            ACL_MEMCPY_HOST_TO_HOST,
            ACL_MEMCPY_HOST_TO_DEVICE,
            ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_DEVICE_TO_DEVICE,
            ACL_MEMCPY_DEFAULT
        ],
        [0, 1, 2, 3, 4]
    );
    assert_eq!(
        [
            ACL_MEM_MALLOC_HUGE_FIRST,
            ACL_MEM_MALLOC_HUGE_ONLY,
            ACL_MEM_MALLOC_NORMAL_ONLY,
            ACL_MEM_MALLOC_HUGE_FIRST_P2P
        ],
        [0, 1, 2, 3]
    );
    assert_eq!(
        [
            ACL_EVENT_SYNC,
            ACL_EVENT_CAPTURE_STREAM_PROGRESS,
            ACL_EVENT_TIME_LINE,
            ACL_EVENT_DEVICE_USE_ONLY,
            ACL_EVENT_EXTERNAL,
            ACL_EVENT_IPC
        ],
        [0x1, 0x2, 0x8, 0x10, 0x20, 0x40]
    );
    assert_eq!(
        (
            ACL_EVENT_RECORDED_STATUS_NOT_READY,
            ACL_EVENT_RECORDED_STATUS_COMPLETE
        ),
        (0, 1)
    );
    assert_eq!(
        (ACL_EVENT_STATUS_COMPLETE, ACL_EVENT_STATUS_NOT_READY),
        (0, 1)
    );
    assert_eq!(
        (ACL_STREAM_STATUS_COMPLETE, ACL_STREAM_STATUS_NOT_READY),
        (0, 1)
    );
    assert_eq!(std::mem::size_of::<aclrtIpcEventHandle>(), 64);
    assert_eq!(std::mem::size_of::<aclError>(), 4);
    assert_eq!(
        [
            ACL_SUCCESS,
            ACL_ERROR_INVALID_PARAM,
            ACL_ERROR_UNINITIALIZE,
            ACL_ERROR_REPEAT_INITIALIZE,
            ACL_ERROR_REPEAT_FINALIZE,
            ACL_ERROR_BAD_ALLOC,
            ACL_ERROR_FEATURE_UNSUPPORTED,
            ACL_ERROR_RT_PARAM_INVALID,
            ACL_ERROR_RT_INVALID_DEVICEID,
            ACL_ERROR_RT_CONTEXT_NULL,
            ACL_ERROR_RT_STREAM_CONTEXT,
            ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
            ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
            ACL_ERROR_RT_INVALID_HANDLE,
            ACL_ERROR_RT_WAIT_TIMEOUT,
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            ACL_ERROR_RT_MEMORY_ALLOCATION,
            ACL_ERROR_RT_DEVICE_OOM,
            ACL_ERROR_RT_INTERNAL_ERROR,
            ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
            ACL_ERROR_RT_AICORE_EXCEPTION,
            ACL_ERROR_RT_IPC_ERROR,
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
            ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
        ],
        [
            0, 100000, 100001, 100002, 100037, 200000, 200006, 107000, 107001, 107002, 107003,
            107006, 107007, 107017, 107019, 207000, 207001, 207018, 507000, 507007, 507015, 507022,
            507046, 507047
        ]
    );
}

/// IPC events between two processes of one machine: export, open, and the opened event's answers (record
/// state shared; elapsed time refused).
#[test]
fn ipc_event_between_processes() {
    let m = acl_machine(1);
    let q = m.process();
    on_machine(&m, move |_| {
        ok(aclrtSetDevice(0));
        let e = event_with_flag(ACL_EVENT_IPC | ACL_EVENT_SYNC);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        // SAFETY: valid out-pointers.
        unsafe {
            ok(aclrtIpcGetEventHandle(e, &mut h));
            let mut own = NULL;
            assert_eq!(
                aclrtIpcOpenEventHandle(h, &mut own),
                507022,
                "one's own handle"
            );
        }
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(e, NULL));
        let q_thread = q.clone();
        let (status, sync, elapsed_code) = std::thread::spawn(move || {
            let _b = q_thread.bind();
            ok(aclrtSetDevice(0));
            let mut opened = NULL;
            // SAFETY: a valid out-pointer.
            ok(unsafe { aclrtIpcOpenEventHandle(h, &mut opened) });
            let status = recorded_status(opened);
            let sync = aclrtSynchronizeEvent(opened);
            (status, sync, elapsed(opened, opened).unwrap_err())
        })
        .join()
        .unwrap();
        assert_eq!(
            (status, sync, elapsed_code),
            (ACL_EVENT_RECORDED_STATUS_NOT_READY, ACL_SUCCESS, 207000)
        );
    });
}

/// acl.md · Peers, memory · Memset / MemsetAsync · host memory from aclrtMallocHost → works (docs: host or
/// device memory, host memory from the ACL APIs; the vendor's own device_P2P sample does it): a real write,
/// synchronous or queued on the stream, with exact times — a memset of pinned memory costs a device-to-host copy
/// of its size (2 µs + bytes / 16 GB/s, sim). `count > maxCount` is still 107000, and so is a pageable host
/// pointer (not ACL memory), with a message that calls it what it is.
#[test]
fn memset_of_pinned_host_memory_works() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // (t1)
        let h = malloc_host(64); // (t2)
        let bytes = |h: Ptr| {
            // SAFETY: 64 bytes of pinned memory, no work in flight on them.
            unsafe { std::slice::from_raw_parts(h.cast::<u8>(), 64) }.to_vec()
        };
        assert_eq!(aclrtMemset(h, 64, 0x5A, 64), ACL_SUCCESS); // (t3) 5 µs .. 5 µs + 2004 ns
        assert_eq!(p.now().as_nanos(), 7_004);
        assert_eq!(bytes(h), [0x5A; 64]);
        let s = new_stream(); // (8.004 µs)
        ok(kernel(s, 100)); // (9.004) 11.004 .. 111.004
        assert_eq!(aclrtMemsetAsync(h, 64, 0x1A5, 32, s), ACL_SUCCESS); // (10.004) after the kernel
        assert_eq!(stream_status(s), ACL_STREAM_STATUS_NOT_READY); // (11.004)
        ok(aclrtSynchronizeStream(s)); // (12.004) → 111.004 + 2.002 = 113.006 µs
        assert_eq!(p.now().as_nanos(), 113_006);
        let mut want = [0x5A; 64];
        want[..32].fill(0xA5);
        assert_eq!(
            bytes(h),
            want,
            "the low byte of the value, on the first 32 bytes"
        );
        assert_eq!(
            aclrtMemset(h, 32, 0, 33),
            ACL_ERROR_RT_PARAM_INVALID,
            "count > maxCount"
        );
        let mut pageable = [7u8; 16];
        assert_eq!(
            aclrtMemset(pageable.as_mut_ptr().cast(), 16, 0, 16),
            ACL_ERROR_RT_PARAM_INVALID
        );
        assert_eq!(pageable, [7; 16], "nothing written");
        assert!(
            last_msg().contains("neither device memory nor host memory from aclrtMallocHost"),
            "{}",
            last_msg()
        );
        // Past the end of the pinned buffer: out of range, named as pinned memory.
        assert_eq!(aclrtMemset(h, 65, 0, 65), ACL_ERROR_RT_PARAM_INVALID);
        assert!(!last_msg().contains("pageable"), "{}", last_msg());
        ok(aclrtFreeHost(h));
    });
}

/// A buffer freed with aclrtFreeHost is remembered as freed (sim), not read as ordinary host memory: a copy or a
/// memset of it is 107000 with a message saying "freed" (the memset used to be refused as "pageable", the copy
/// to succeed as a pageable copy of freed memory); aclrtFreeHost again is 107000.
#[test]
fn a_buffer_freed_with_acl_free_host_is_refused_as_freed() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let d = malloc(64);
        let h = malloc_host(64);
        ok(aclrtFreeHost(h));
        // SAFETY: the freed pointer is refused before any byte is touched.
        unsafe {
            assert_eq!(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), 107000);
            assert!(
                last_msg().contains("(pinned host memory) is freed"),
                "{}",
                last_msg()
            );
            assert_eq!(aclrtMemcpy(h, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST), 107000);
        }
        assert_eq!(aclrtMemset(h, 64, 0, 64), 107000);
        assert!(matches!(
            p.peek_last_error(),
            Some(streamsim::SimError::InvalidAddress {
                problem: "freed",
                ..
            })
        ));
        assert_eq!(aclrtFreeHost(h), 107000);
        assert!(last_msg().contains("already freed"), "{}", last_msg());
    });
}
