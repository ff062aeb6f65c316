//! acl.md rows through the ACL facade: Ownership.

use super::*;

/// Every stream call with an ownership check on `s` (not of the current context): 107003.
pub(super) fn owned_calls_fail(s: Ptr, e: Ptr, d: Ptr) {
    let data = [0u8; 16];
    // SAFETY: `d` is 16 bytes of device memory, `data` 16 host bytes, `noop` a valid host function.
    unsafe {
        assert_eq!(kernel(s, 1), 107003, "launch");
        assert_eq!(
            aclrtMemcpyAsync(
                d,
                16,
                data.as_ptr().cast(),
                16,
                ACL_MEMCPY_HOST_TO_DEVICE,
                s
            ),
            107003,
            "MemcpyAsync"
        );
        assert_eq!(aclrtMemsetAsync(d, 16, 0, 16, s), 107003, "MemsetAsync");
        assert_eq!(
            aclrtLaunchHostFunc(s, Some(noop), NULL),
            107003,
            "LaunchHostFunc"
        );
    }
    assert_eq!(aclrtRecordEvent(e, s), 107003, "RecordEvent");
    assert_eq!(aclrtResetEvent(e, s), 107003, "ResetEvent");
    assert_eq!(aclrtStreamWaitEvent(s, e), 107003, "StreamWaitEvent");
    assert_eq!(aclrtDestroyStream(s), 107003, "DestroyStream");
    assert_eq!(aclrtDestroyStreamForce(s), 107003, "DestroyStreamForce");
    assert_eq!(ACL_ERROR_RT_STREAM_CONTEXT, 107003);
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another device) → 107003
#[test]
fn owned_calls_on_a_stream_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        let e0 = event_with_flag(ACL_EVENT_SYNC);
        let d0 = malloc(16);
        ok(aclrtSetDevice(1));
        owned_calls_fail(s0, e0, d0);
        // Back on device 0, all of them work.
        ok(aclrtSetDevice(0));
        ok(kernel(s0, 1));
        ok(aclrtRecordEvent(e0, s0));
        ok(aclrtStreamWaitEvent(s0, e0));
        ok(aclrtResetEvent(e0, s0));
        ok(aclrtDestroyStream(s0));
    });
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another context on the same device) →
/// 107003
#[test]
fn owned_calls_on_a_stream_of_another_context_same_device() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream(); // default context
        let d0 = malloc(16);
        let mut c1 = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c1, 0) });
        let e1 = event_with_flag(ACL_EVENT_SYNC); // c1, device 0
        owned_calls_fail(s0, e1, d0);
    });
}

/// acl.md · Ownership · RecordEvent · event and stream on different devices → docs: fails. sim: 107003
#[test]
fn record_event_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        let e1 = new_event();
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        assert_eq!(aclrtRecordEvent(e1, s0), 107003);
        assert_eq!(aclrtRecordEvent(e1, NULL), 107003);
    });
}

/// acl.md · Ownership · StreamWaitEvent · event and stream on different devices → docs: fails. sim: 107003
#[test]
fn stream_wait_event_of_another_device() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(1));
        let e1 = new_event();
        ok(kernel(NULL, 10));
        ok(aclrtRecordEvent(e1, NULL));
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        assert_eq!(aclrtStreamWaitEvent(s0, e1), 107003);
        assert_eq!(aclrtStreamWaitEvent(NULL, e1), 107003);
    });
}

/// acl.md · Ownership · SynchronizeEvent / QueryEvent / QueryEventStatus · event of another device → work
#[test]
fn event_sync_and_queries_of_another_device_work() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let e0 = new_event();
        ok(kernel(NULL, 1_000));
        ok(aclrtRecordEvent(e0, NULL));
        ok(aclrtSetDevice(1));
        assert_eq!(event_status(e0), ACL_EVENT_STATUS_NOT_READY);
        assert_eq!(event_status(e0), 1);
        assert_eq!(recorded_status(e0), ACL_EVENT_RECORDED_STATUS_NOT_READY);
        assert_eq!(recorded_status(e0), 0);
        ok(aclrtSynchronizeEvent(e0));
        assert_eq!(event_status(e0), 0, "ACL_EVENT_STATUS_COMPLETE");
        assert_eq!(recorded_status(e0), 1, "ACL_EVENT_RECORDED_STATUS_COMPLETE");
        assert_eq!(get_device(), Ok(1));
    });
}

/// acl.md · Ownership · SynchronizeStream / StreamQuery · stream of another context or device → work (no
/// ownership check)
#[test]
fn stream_sync_and_query_of_another_context_or_device_work() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let s0 = new_stream();
        ok(kernel(s0, 1_000));
        let mut c = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c, 0) }); // another context, same device
        assert_eq!(stream_status(s0), ACL_STREAM_STATUS_NOT_READY);
        ok(aclrtSetDevice(1)); // another device
        assert_eq!(stream_status(s0), 1);
        ok(aclrtSynchronizeStream(s0));
        assert_eq!(stream_status(s0), 0);
        ok(aclrtSynchronizeStreamWithTimeout(s0, 5));
    });
}
