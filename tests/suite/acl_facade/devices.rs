//! acl.md rows through the ACL facade: Devices and contexts.

use super::*;

/// acl.md · Devices and contexts · SetDevice · valid id → 0; for the calling thread only; creates (or shares)
/// the device's default context and default stream; per-process reference count +1
#[test]
fn set_device_is_per_thread_creates_the_default_context_and_counts() {
    on_acl(2, |p| {
        ok(aclrtSetDevice(1));
        assert_eq!(get_device(), Ok(1));
        let ctx = current_context();
        assert!(!ctx.is_null());
        // The default stream (NULL) exists.
        ok(kernel(NULL, 10));
        // Another thread of the same process has no device.
        let q = p.clone();
        let other = std::thread::spawn(move || {
            let _b = q.bind();
            let before = get_device();
            ok(aclrtSetDevice(1)); // shares the default context: count 2
            (before, current_context() as usize)
        })
        .join()
        .unwrap();
        assert_eq!(other, (Err(ACL_ERROR_RT_CONTEXT_NULL), ctx as usize));
        assert_eq!(get_device(), Ok(1), "the other thread did not change ours");
        // Two references: the first reset only counts down.
        ok(aclrtResetDevice(1));
        assert_eq!(get_device(), Ok(1));
        ok(aclrtSynchronizeDevice());
        ok(aclrtResetDevice(1));
        assert_eq!(get_device(), Err(ACL_ERROR_RT_CONTEXT_NULL));
    });
}

/// acl.md · Devices and contexts · SetDevice · id outside [0, count) → 107001
#[test]
fn set_device_out_of_range() {
    on_acl(2, |_| {
        for id in [2, 3, -1, i32::MAX, i32::MIN] {
            assert_eq!(aclrtSetDevice(id), 107001, "device {id}");
        }
        assert_eq!(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
    });
}

/// acl.md · Devices and contexts · GetDevice · no device set on this thread → 107002
#[test]
fn get_device_without_a_device() {
    on_acl(1, |_| {
        assert_eq!(get_device(), Err(107002));
        assert_eq!(ACL_ERROR_RT_CONTEXT_NULL, 107002);
    });
}

/// acl.md · Devices and contexts · ResetDevice · count > 0 → count −1; at 0 frees the default context, its
/// default stream and every stream created in it, after waiting for their pending tasks
#[test]
fn reset_device_counts_down_then_frees_after_pending_work() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        ok(aclrtSetDevice(0)); // count 2
        let ctx = current_context();
        let s = new_stream();
        let pr = probe();
        ok(kernel_with(s, 1_000, bump, arg(pr)));
        ok(kernel(NULL, 500));
        ok(aclrtResetDevice(0)); // count 1: nothing freed
        assert_eq!(stream_status(s), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtResetDevice(0)); // count 0: waits for the kernel, then frees
        assert_eq!(pr.count.load(SeqCst), 1, "pending work ran before the free");
        assert!(now_us(p) >= 1_000, "the reset waited for the 1 ms kernel");
        assert_eq!(
            get_device(),
            Err(107002),
            "the thread's default context is gone"
        );
        ok(aclrtSetDevice(0)); // a new default context
        assert_ne!(current_context(), ctx);
        assert_eq!(
            aclrtSynchronizeStream(s),
            107017,
            "streams of the old context are freed"
        );
        assert_eq!(aclrtDestroyStream(s), 107017);
        assert_eq!(
            aclrtSetCurrentContext(ctx),
            107017,
            "the old default context is freed"
        );
        ok(aclrtResetDevice(0));
    });
}

/// acl.md · Devices and contexts · ResetDeviceForce · any count → frees the device in one call, after pending
/// tasks finish
#[test]
fn reset_device_force_frees_at_once() {
    on_acl(1, |p| {
        for _ in 0..3 {
            ok(aclrtSetDevice(0));
        }
        let s = new_stream();
        let pr = probe();
        ok(kernel_with(s, 2_000, bump, arg(pr)));
        ok(aclrtResetDeviceForce(0));
        assert_eq!(pr.count.load(SeqCst), 1);
        assert!(now_us(p) >= 2_000);
        assert_eq!(aclrtSynchronizeStream(s), 107017);
        assert_eq!(get_device(), Err(107002));
        assert_eq!(aclrtResetDevice(0), 507007, "count 3 was dropped at once");
    });
}

/// acl.md · Devices and contexts · Reset / ResetForce · device not set, or already freed → 507007
#[test]
fn reset_of_a_device_not_set_or_freed() {
    on_acl(2, |_| {
        assert_eq!(aclrtResetDevice(0), 507007);
        assert_eq!(aclrtResetDeviceForce(1), 507007);
        ok(aclrtSetDevice(0));
        ok(aclrtResetDevice(0));
        assert_eq!(aclrtResetDevice(0), 507007);
        assert_eq!(aclrtResetDeviceForce(0), 507007);
        assert_eq!(aclrtResetDevice(7), 107001, "a bad id is still 107001");
        assert_eq!(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, 507007);
    });
}

/// acl.md · Devices and contexts · CreateContext · — → the new context becomes the calling thread's current
/// context; it has its own default stream
#[test]
fn create_context_becomes_current_with_its_own_default_stream() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 0) });
        assert!(!c1.is_null());
        assert_ne!(c1, c0);
        assert_eq!(current_context(), c1);
        ok(kernel(NULL, 1_000)); // on c1's default stream
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(
            stream_status(NULL),
            ACL_STREAM_STATUS_COMPLETE,
            "c0's default stream is idle"
        );
        ok(aclrtSetCurrentContext(c1));
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtDestroyContext(c1));
        let mut c = NULL;
        // SAFETY: a valid out-pointer.
        assert_eq!(
            unsafe { aclrtGetCurrentContext(&mut c) },
            107002,
            "the current context was destroyed"
        );
        assert_eq!(aclrtSetCurrentContext(c1), 107017);
    });
}

/// acl.md · Devices and contexts · DestroyContext · the default context → 107002
#[test]
fn destroy_default_context() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        assert_eq!(aclrtDestroyContext(c0), 107002);
        assert_eq!(current_context(), c0, "still usable");
    });
}

/// acl.md · Devices and contexts · SetCurrentContext · context of another device → the current device
/// switches with it
#[test]
fn set_current_context_switches_the_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let c0 = current_context();
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 1) });
        assert_eq!(get_device(), Ok(1));
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(get_device(), Ok(0));
        ok(aclrtSetCurrentContext(c1));
        assert_eq!(get_device(), Ok(1));
        let s = new_stream();
        ok(aclrtSetCurrentContext(c0));
        assert_eq!(kernel(s, 1), 107003, "the stream belongs to c1 (device 1)");
    });
}

/// acl.md · Devices and contexts · any call needing a context · no current context → 107002
#[test]
fn calls_needing_a_context_without_one() {
    on_acl(2, |_| {
        let mut x = NULL;
        let mut st = 0;
        let mut h = [0u8; 4];
        let src = [1u8; 4];
        // SAFETY: valid out-pointers and host buffers of 4 bytes.
        unsafe {
            assert_eq!(aclrtCreateStream(&mut x), 107002);
            assert_eq!(aclrtCreateStreamWithConfig(&mut x, 0, 0), 107002);
            assert_eq!(aclrtCreateEvent(&mut x), 107002);
            assert_eq!(aclrtCreateEventWithFlag(&mut x, ACL_EVENT_SYNC), 107002);
            assert_eq!(aclrtCreateEventExWithFlag(&mut x, ACL_EVENT_SYNC), 107002);
            assert_eq!(aclrtMalloc(&mut x, 64, ACL_MEM_MALLOC_HUGE_FIRST), 107002);
            assert_eq!(aclrtGetCurrentContext(&mut x), 107002);
            assert_eq!(aclrtStreamQuery(NULL, &mut st), 107002);
            assert_eq!(
                aclrtMemcpy(
                    h.as_mut_ptr().cast(),
                    4,
                    src.as_ptr().cast(),
                    4,
                    ACL_MEMCPY_HOST_TO_HOST
                ),
                107002
            );
            assert_eq!(aclrtLaunchHostFunc(NULL, Some(noop), NULL), 107002);
        }
        assert_eq!(aclrtSynchronizeDevice(), 107002);
        assert_eq!(aclrtSynchronizeStream(NULL), 107002);
        assert_eq!(kernel(NULL, 1), 107002);
        assert_eq!(aclrtDeviceEnablePeerAccess(1, 0), 107002);
        assert_eq!(aclrtDeviceDisablePeerAccess(1), 107002);
    });
}

/// acl.md · Devices and contexts · NULL stream argument · — → the current context's default stream
#[test]
fn null_stream_is_the_context_default_stream() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let e = new_event(); // t2
        ok(kernel(NULL, 300)); // t3: 5..305 µs
        ok(aclrtRecordEvent(e, NULL)); // t4: at 305
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_NOT_READY);
        assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        let mut d = NULL;
        // SAFETY: a valid out-pointer; the host buffer has 8 bytes.
        unsafe {
            ok(aclrtMalloc(&mut d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
            let data = [7u8; 8];
            ok(aclrtMemcpyAsync(
                d,
                8,
                data.as_ptr().cast(),
                8,
                ACL_MEMCPY_HOST_TO_DEVICE,
                NULL,
            ));
        }
        ok(aclrtSynchronizeStream(NULL));
        assert!(now_us(p) >= 305);
        assert_eq!(stream_status(NULL), ACL_STREAM_STATUS_COMPLETE);
        assert_eq!(timestamp(e), Ok(305));
    });
}
