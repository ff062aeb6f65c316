//! acl.md · Events · StreamWaitEvent · an ACL_EVENT_IPC event, local or opened with IpcOpenEventHandle → 0;
//! waits for its record (ACL_EVENT_IPC cannot be OR-ed with any other flag, so it never has SYNC; the docs of
//! aclrtIpcGetEventHandle prescribe exactly this wait in process B, on one device or across devices); and
//! acl.md · Events · opened IPC event → an event of the opener on its current device: RecordEvent on the
//! opener's stream works. Also what the CANN runtime docs say besides (docs/zh/api_ref/07_event_management.md,
//! aclrtCreateEventExWithFlag): an IPC event "不支持在以下接口或场景中使用：aclrtResetEvent、aclrtQueryEvent…" — both
//! are 207000 (the runtime's RT_ERROR_FEATURE_NOT_SUPPORT); IPC with another flag is 107000 (the runtime's
//! EventCreateEx: RT_ERROR_INVALID_VALUE); before its first record a wait does nothing and QueryEventStatus
//! says COMPLETE (the runtime's IpcEventWait / IpcEventQuery: "not record or record had been finished, return
//! success"). Times in comments are `(tN)`: the call's `now` in µs on the calling thread's clock.

use super::*;

/// The event's IPC handle.
fn handle_of(e: Ptr) -> aclrtIpcEventHandle {
    let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtIpcGetEventHandle(e, &mut h) });
    h
}

/// acl.md · Events · StreamWaitEvent · an ACL_EVENT_IPC event, local → 0; waits for its record (before the
/// first record: nothing waits); QueryEventStatus before the first record → COMPLETE.
#[test]
fn a_local_ipc_event_can_be_waited_on() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // (t1)
        let (s1, s2) = (new_stream(), new_stream()); // (t2, t3)
        let e = event_ex(ACL_EVENT_IPC); // (t4)
        assert_eq!(aclrtStreamWaitEvent(s2, e), ACL_SUCCESS); // (t5) never recorded: nothing waits
        ok(kernel(s2, 10)); // (t6) 8..18, not held back
        ok(kernel(s1, 100)); // (t7) 9..109
        ok(aclrtRecordEvent(e, s1)); // (t8) at 109
        assert_eq!(aclrtStreamWaitEvent(s2, e), ACL_SUCCESS); // (t9) waits for 109
        ok(kernel(s2, 10)); // (t10) 109..119
        ok(aclrtSynchronizeStream(s2)); // (t11) → 119
        assert_eq!(now_us(p), 119);
        let fresh = event_ex(ACL_EVENT_IPC);
        assert_eq!(recorded_status(fresh), ACL_EVENT_RECORDED_STATUS_COMPLETE);
        // A non-IPC event without SYNC still cannot be waited on.
        let no_sync = event_ex(ACL_EVENT_TIME_LINE);
        ok(aclrtRecordEvent(no_sync, s1));
        assert_eq!(aclrtStreamWaitEvent(s2, no_sync), 207000);
    });
}

/// The aclrtIpcGetEventHandle docs' sequence (A: create with ACL_EVENT_IPC, get the handle, record; B: open,
/// aclrtStreamWaitEvent, destroy), on one device and across devices (A on device 0, B on device 0 or 1): B's
/// wait returns 0 and holds B's stream until A's record; B then records the opened event on its own stream
/// (acl.md · opened IPC event → RecordEvent on the opener's stream works), and A sees B's record as the newest.
#[test]
fn an_opened_ipc_event_is_waited_on_and_recorded_by_the_opener_on_one_or_two_devices() {
    for b_device in [0, 1] {
        let m = acl_machine(2);
        let q = m.process();
        on_machine(&m, move |p| {
            ok(aclrtSetDevice(0)); // (a1)
            let sa = new_stream(); // (a2)
            let e = event_ex(ACL_EVENT_IPC); // (a3)
            let h = handle_of(e); // (a4)
            ok(kernel(sa, 100)); // (a5) 7..107
            ok(aclrtRecordEvent(e, sa)); // (a6) at 107
            let b_now = std::thread::spawn(move || {
                let _b = q.bind();
                ok(aclrtSetDevice(b_device)); // (b1)
                let mut opened = NULL;
                // SAFETY: a valid out-pointer.
                ok(unsafe { aclrtIpcOpenEventHandle(h, &mut opened) }); // (b2)
                let sb = new_stream(); // (b3)
                assert_eq!(aclrtStreamWaitEvent(sb, opened), ACL_SUCCESS); // (b4) waits for 107
                ok(kernel(sb, 10)); // (b5) 107..117
                assert_eq!(aclrtRecordEvent(opened, sb), ACL_SUCCESS); // (b6) at 117
                ok(aclrtSynchronizeStream(sb)); // (b7) → 117
                let t = now_us(&q);
                ok(aclrtDestroyEvent(opened));
                t
            })
            .join()
            .unwrap();
            assert_eq!(b_now, 117, "device {b_device}");
            // A's handle sees B's record (the newest) at A's own time 7: not ready; synchronize → 117.
            assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY); // (a7)
            ok(aclrtSynchronizeEvent(e)); // (a8) → 117
            assert_eq!(now_us(p), 117);
            ok(aclrtDestroyEvent(e));
        });
    }
}

/// aclrtCreateEventExWithFlag · ACL_EVENT_IPC "不支持与其他flag进行位或操作" → 107000 (the runtime's
/// EventCreateEx, RT_ERROR_INVALID_VALUE); alone it works.
#[test]
fn ipc_with_another_flag_is_refused() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        for other in [
            ACL_EVENT_SYNC,
            ACL_EVENT_TIME_LINE,
            ACL_EVENT_CAPTURE_STREAM_PROGRESS,
            ACL_EVENT_EXTERNAL,
        ] {
            let mut e = NULL;
            // SAFETY: a valid out-pointer.
            let r = unsafe { aclrtCreateEventExWithFlag(&mut e, ACL_EVENT_IPC | other) };
            assert_eq!(r, ACL_ERROR_RT_PARAM_INVALID, "IPC | {other:#x}");
            assert!(e.is_null());
            assert!(last_msg().contains("cannot be OR-ed"), "{}", last_msg());
        }
        let mut e = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateEventExWithFlag(&mut e, ACL_EVENT_IPC) });
    });
}

/// aclrtCreateEventExWithFlag · ACL_EVENT_IPC events do not support aclrtResetEvent or aclrtQueryEvent → 207000
/// (local and opened); aclrtQueryEventStatus and aclrtSynchronizeEvent work.
#[test]
fn an_ipc_event_cannot_be_reset_nor_queried_with_the_deprecated_call() {
    let m = acl_machine(1);
    let q = m.process();
    on_machine(&m, move |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = event_ex(ACL_EVENT_IPC);
        let h = handle_of(e);
        ok(aclrtRecordEvent(e, s));
        let mut st = 0xAAAA;
        // SAFETY: a valid out-pointer.
        assert_eq!(unsafe { aclrtQueryEvent(e, &mut st) }, 207000);
        assert_eq!(st, 0xAAAA, "nothing written");
        assert!(
            last_msg().contains("aclrtQueryEventStatus"),
            "{}",
            last_msg()
        );
        assert_eq!(aclrtResetEvent(e, s), 207000);
        assert!(last_msg().contains("IPC event"), "{}", last_msg());
        ok(aclrtSynchronizeEvent(e));
        assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
        std::thread::spawn(move || {
            let _b = q.bind();
            ok(aclrtSetDevice(0));
            let mut opened = NULL;
            // SAFETY: valid out-pointers.
            unsafe {
                ok(aclrtIpcOpenEventHandle(h, &mut opened));
                let mut st = 0xAAAA;
                assert_eq!(aclrtQueryEvent(opened, &mut st), 207000);
            }
            let s = new_stream();
            assert_eq!(aclrtResetEvent(opened, s), 207000);
        })
        .join()
        .unwrap();
    });
}
