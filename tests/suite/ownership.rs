//! Truth-table tests: `docs/semantics/acl.md` · Ownership: by CONTEXT, not device, against the CUDA dialect's
//! ownership by device (`docs/semantics/cuda-musa.md` · Stream wait, streams, devices · kernel launch /
//! MemcpyAsync; · Events · EventRecord / EventQuery / EventSynchronize across devices), through the core API.
//! The Ascend multi-device guide · Stream和Event的行为 lists the same cases. Conventions (times, `(tN)`) as in
//! `multi_device.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use streamsim::{Dialect, EventFlags, Process, SimError, Status, Stream, StreamFlags};

use crate::multi_device::{DIALECTS, kernel, machine, span, us};

/// Calls every stream call that ACL checks for ownership on `s` (of context 1, device 0, with event `e` and
/// memory `ptr` of device 0) and returns their results, in the row's order.
fn owned_calls(
    p: &Process,
    s: Stream,
    e: streamsim::Event,
    ptr: streamsim::DevicePtr,
    called: &Arc<AtomicUsize>,
) -> Vec<(&'static str, Result<(), SimError>)> {
    let c = called.clone();
    vec![
        ("launch", p.launch(s, kernel("k", 1))),
        ("memcpy_async", p.memcpy_async(ptr, &[0u8; 16], 16, s)),
        ("memset_async", p.memset_async(ptr, 0, 16, s)),
        (
            "launch_host_func",
            p.launch_host_func(s, move || {
                c.fetch_add(1, Ordering::SeqCst);
            }),
        ),
        ("record_event", p.record_event(e, s)),
        ("reset_event", p.reset_event(e, s)),
        ("stream_wait_event", p.stream_wait_event(s, e)),
        ("destroy_stream", p.destroy_stream(s)),
    ]
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another device) → 107003 (the Ascend
/// multi-device guide: "在Device 1上通过Stream s0下发算子 — 算子下发失败", and MemcpyAsync on another device's stream fails)
#[test]
fn acl_stream_calls_from_another_device_are_wrong_context() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap(); // default context 1
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e0 = p.create_event(EventFlags::DEFAULT).unwrap();
    let ptr0 = p.malloc(16).unwrap();
    p.launch(s0, kernel("on s0 from device 0", 1)).unwrap();
    p.record_event(e0, s0).unwrap();
    p.set_device(1).unwrap(); // default context 2
    let called = Arc::new(AtomicUsize::new(0));
    for (what, r) in owned_calls(&p, s0, e0, ptr0, &called) {
        assert_eq!(
            r,
            Err(SimError::WrongContext {
                what,
                object: "stream 1 (device 0)".to_string(),
                object_context: 1,
                current: 2,
            }),
            "{what}"
        );
    }
    // Nothing was enqueued on s0 by the refused calls.
    p.set_device(0).unwrap();
    p.stream_synchronize(s0).unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 0);
    let on_s0: Vec<_> = m
        .trace()
        .stream(p.stream_id(s0).unwrap())
        .map(|o| o.kind.name())
        .collect();
    assert_eq!(on_s0, ["kernel", "record"]);
}

/// acl.md · Ownership · kernel launch, MemcpyAsync, LaunchHostFunc, RecordEvent, ResetEvent, StreamWaitEvent,
/// DestroyStream · the stream's context is not the current context (another context on the same device) →
/// 107003
#[test]
fn acl_stream_calls_from_another_context_on_the_same_device_are_wrong_context() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // default context 1
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let ptr = p.malloc(16).unwrap();
    let explicit = p.create_context(0).unwrap(); // context 2, current
    let called = Arc::new(AtomicUsize::new(0));
    for (what, r) in owned_calls(&p, s, e, ptr, &called) {
        assert_eq!(
            r,
            Err(SimError::WrongContext {
                what,
                object: "stream 1 (device 0)".to_string(),
                object_context: 1,
                current: 2,
            }),
            "{what}"
        );
    }
    // The same calls work from the stream's own context.
    p.destroy_context(explicit).unwrap();
    p.set_device(0).unwrap();
    for (what, r) in owned_calls(&p, s, e, ptr, &called) {
        assert_eq!(r, Ok(()), "{what}");
    }
    p.device_synchronize().unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 1);
}

/// cuda-musa.md · Stream wait, streams, devices · kernel launch into a stream of another device → 400, while
/// MemcpyAsync (allowed), LaunchHostFunc, RecordEvent (event and stream on the same device), StreamWaitEvent and
/// StreamDestroy have no ownership check: CUDA's ownership is by device, ACL's (above) by context
#[test]
fn cuda_ownership_is_by_device_and_only_for_launches() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e0 = p.create_event(EventFlags::DEFAULT).unwrap();
    let ptr0 = p.malloc(16).unwrap();
    p.set_device(1).unwrap();
    let called = Arc::new(AtomicUsize::new(0));
    let c = called.clone();
    assert_eq!(
        p.launch(s0, kernel("k", 1)),
        Err(SimError::WrongDevice {
            what: "launch",
            object: "stream 1".to_string(),
            object_device: 0,
            expected: "the current device is 1".to_string(),
        })
    );
    p.memcpy_async(ptr0, &[0u8; 16], 16, s0).unwrap();
    p.memset_async(ptr0, 0, 16, s0).unwrap();
    p.launch_host_func(s0, move || {
        c.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    p.record_event(e0, s0).unwrap();
    p.stream_wait_event(s0, e0).unwrap();
    p.event_synchronize(e0).unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 1);
    p.destroy_stream(s0).unwrap();
}

/// acl.md · Ownership · RecordEvent · event and stream on different devices → docs: fails. sim: 107003;
/// cuda-musa.md · Events · EventRecord · event and stream on different devices → 400
#[test]
fn record_with_event_and_stream_on_different_devices_is_rejected() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(0).unwrap();
        let e0 = p.create_event(EventFlags::DEFAULT).unwrap();
        p.set_device(1).unwrap();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        assert_eq!(
            p.record_event(e0, s1),
            Err(SimError::WrongDevice {
                what: "record_event",
                object: "event 1".to_string(),
                object_device: 0,
                expected: "stream 1 is on device 1".to_string(),
            }),
            "{dialect:?}"
        );
        assert_eq!(
            p.event_record_time(e0),
            Ok(None),
            "{dialect:?}: not recorded"
        );
    }
}

/// acl.md · Ownership · StreamWaitEvent · event and stream on different devices → docs: fails. sim: 107003;
/// cuda-musa.md · Stream wait · StreamWaitEvent · event from another device → allowed (unlike ACL)
#[test]
fn stream_wait_on_an_event_of_another_device_acl_rejects_cuda_allows() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(0).unwrap(); // (t1)
        let e0 = p.create_event(EventFlags::DEFAULT).unwrap(); // (t2)
        p.launch(Stream::DEFAULT, kernel("producer", 100)).unwrap(); // (t3) 5..105
        p.record_event(e0, Stream::DEFAULT).unwrap(); // (t4) at 105
        p.set_device(1).unwrap(); // (t5)
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t6)
        let r = p.stream_wait_event(s1, e0); // (t7)
        match dialect {
            Dialect::Acl => assert_eq!(
                r,
                Err(SimError::WrongDevice {
                    what: "stream_wait_event",
                    object: "event 1".to_string(),
                    object_device: 0,
                    expected: "stream 1 is on device 1".to_string(),
                })
            ),
            _ => assert_eq!(r, Ok(())),
        }
        p.launch(s1, kernel("consumer", 10)).unwrap(); // (t8)
        p.stream_synchronize(s1).unwrap();
        let consumer = span(&m.trace(), "consumer");
        match dialect {
            // No wait: the consumer starts as soon as it can.
            Dialect::Acl => assert_eq!(consumer, (us(10), us(20))),
            _ => assert_eq!(consumer, (us(105), us(115))),
        }
    }
}

/// acl.md · Ownership · SynchronizeEvent / QueryEvent / QueryEventStatus · event of another device → work;
/// cuda-musa.md · Events · EventQuery / EventSynchronize · event of a device other than the current one → works
#[test]
fn event_query_and_synchronize_of_another_device_work() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(0).unwrap(); // (t1)
        let e0 = p.create_event(EventFlags::DEFAULT).unwrap(); // (t2)
        p.launch(Stream::DEFAULT, kernel("k", 100)).unwrap(); // (t3) 5..105
        p.record_event(e0, Stream::DEFAULT).unwrap(); // (t4) at 105
        p.set_device(1).unwrap(); // (t5)
        assert_eq!(p.event_query(e0), Ok(Status::NotReady), "{dialect:?}"); // (t6)
        assert_eq!(
            p.event_status(e0),
            Ok(streamsim::RecordStatus::NotReady),
            "{dialect:?}"
        ); // (t7)
        p.event_synchronize(e0).unwrap(); // (t8) → 105
        assert_eq!(p.now(), us(105));
        assert_eq!(p.event_query(e0), Ok(Status::Complete));
        assert_eq!(p.event_status(e0), Ok(streamsim::RecordStatus::Complete));
        assert_eq!(p.get_device(), Ok(1), "the current device did not change");
    }
}

/// acl.md · Ownership · SynchronizeStream / StreamQuery · stream of another context or device → work (no
/// ownership check)
#[test]
fn acl_stream_query_and_synchronize_of_another_context_or_device_work() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1)
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
    p.launch(s0, kernel("k", 100)).unwrap(); // (t3) 5..105
    p.launch(Stream::DEFAULT, kernel("d", 200)).unwrap(); // (t4) 6..206
    p.create_context(0).unwrap(); // (t5) another context on the same device
    assert_eq!(p.stream_query(s0), Ok(Status::NotReady)); // (t6)
    p.stream_synchronize(s0).unwrap(); // (t7) → 105
    assert_eq!(p.now(), us(105));
    p.set_device(1).unwrap(); // (t106) another device
    assert_eq!(p.stream_query(s0), Ok(Status::Complete));
    // Stream::DEFAULT now names device 1's default stream, not context 1's.
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete));
}
