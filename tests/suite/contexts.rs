//! Truth-table tests: `docs/semantics/acl.md` · Devices and contexts — explicit contexts (CreateContext,
//! DestroyContext, SetCurrentContext), calls without a current context, and the NULL stream — through the core
//! API in the ACL dialect; and the CUDA dialect's refusal of explicit contexts. Conventions (times, `(tN)`) as
//! in `multi_device.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use streamsim::{
    Dialect, EventFlags, HandleProblem, ObjectKind, ProcessId, SimError, Status, Stream,
    StreamFlags, StreamId, StreamKind,
};

use crate::multi_device::{bad_event, bad_stream, counting, kernel, machine, no_context, span, us};

fn context_default(device: u32, ordinal: u32) -> StreamId {
    StreamId {
        process: ProcessId(0),
        device,
        kind: StreamKind::ContextDefault(ordinal),
    }
}

/// acl.md · Devices and contexts · CreateContext · — → the new context becomes the calling thread's current
/// context; it has its own default stream
#[test]
fn acl_create_context_becomes_current_with_its_own_default_stream() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1) default context 1
    let default_ctx = p.current_context().unwrap(); // (t2)
    p.launch(Stream::DEFAULT, kernel("in the default context", 100))
        .unwrap(); // (t3) 5..105
    let explicit = p.create_context(0).unwrap(); // (t4) context 2, current
    assert_ne!(explicit, default_ctx);
    assert_eq!(p.current_context(), Ok(explicit)); // (t5)
    assert_eq!(p.stream_id(Stream::DEFAULT), Ok(context_default(0, 2)));
    p.launch(Stream::DEFAULT, kernel("in the explicit context", 10))
        .unwrap(); // (t6) 8..18: its own stream, not behind the 100 µs kernel
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(
        crate::multi_device::op(&t, "in the default context").stream,
        context_default(0, 1)
    );
    assert_eq!(
        crate::multi_device::op(&t, "in the explicit context").stream,
        context_default(0, 2)
    );
    assert_eq!(span(&t, "in the default context"), (us(5), us(105)));
    assert_eq!(span(&t, "in the explicit context"), (us(8), us(18)));

    // A context on another device makes that device current, without any set_device.
    let on_1 = p.create_context(1).unwrap();
    assert_eq!(p.get_device(), Ok(1));
    assert_eq!(p.current_context(), Ok(on_1));
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(p.stream_id(s).unwrap().device, 1);
    // Creating a context needs no current context, but a valid device.
    assert_eq!(
        p.create_context(2),
        Err(SimError::InvalidDevice {
            device: 2,
            count: 2
        })
    );
    let q = p.clone();
    let fresh = std::thread::spawn(move || {
        let c = q.create_context(0).unwrap();
        (q.current_context(), c, q.get_device())
    })
    .join()
    .unwrap();
    assert_eq!(fresh.0, Ok(fresh.1));
    assert_eq!(fresh.2, Ok(0));
}

/// acl.md · Devices and contexts · SetCurrentContext · context of another device → the current device switches
/// with it
#[test]
fn acl_set_current_context_of_another_device_switches_the_device() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap();
    let c0 = p.current_context().unwrap();
    let c1 = p.create_context(1).unwrap();
    assert_eq!(p.get_device(), Ok(1));
    p.set_current_context(c0).unwrap();
    assert_eq!(p.get_device(), Ok(0));
    assert_eq!(p.current_device(), Some(0));
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(p.stream_id(s).unwrap().device, 0);
    assert_eq!(p.stream_id(Stream::DEFAULT), Ok(context_default(0, 1)));
    p.set_current_context(c1).unwrap();
    assert_eq!(p.get_device(), Ok(1));
    assert_eq!(p.stream_id(Stream::DEFAULT), Ok(context_default(1, 2)));
    // Only for the calling thread.
    let q = p.clone();
    let other = std::thread::spawn(move || q.get_device()).join().unwrap();
    assert_eq!(other, Err(no_context("get_device")));
    // A garbage context handle.
    let bogus = streamsim::Context::from_raw(0xdead_beef);
    assert!(matches!(
        p.set_current_context(bogus),
        Err(SimError::InvalidHandle {
            kind: ObjectKind::Context,
            raw: 0xdead_beef,
            ..
        })
    ));
    assert_eq!(p.get_device(), Ok(1), "a failed switch changes nothing");
}

/// acl.md · Devices and contexts · DestroyContext · the default context → 107002
#[test]
fn acl_destroy_default_context_is_rejected() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(1).unwrap();
    let default_ctx = p.current_context().unwrap();
    assert_eq!(
        p.destroy_context(default_ctx),
        Err(SimError::DefaultContext {
            what: "destroy_context",
            device: 1
        })
    );
    // It is still there and current.
    assert_eq!(p.current_context(), Ok(default_ctx));
    p.launch(Stream::DEFAULT, kernel("k", 1)).unwrap();
    p.stream_synchronize(Stream::DEFAULT).unwrap();
}

/// acl.md · Devices and contexts · DestroyContext (an explicit context; sim: like a reset of the context) — waits
/// for its pending work, then frees its streams and events; the thread has no current context afterwards
#[test]
fn acl_destroy_explicit_context_waits_then_frees_its_streams_and_events() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    let ran = Arc::new(AtomicUsize::new(0));
    p.set_device(0).unwrap(); // (t1)
    let kept = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2) in the default context
    let ctx = p.create_context(0).unwrap(); // (t3)
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t4)
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // (t5)
    p.launch(s, counting("pending", 100, &ran)).unwrap(); // (t6) 8..108
    p.launch(Stream::DEFAULT, counting("default stream", 150, &ran))
        .unwrap(); // (t7) 9..159
    p.destroy_context(ctx).unwrap(); // (t8) waits for both
    assert_eq!(p.now(), us(159));
    assert_eq!(ran.load(Ordering::SeqCst), 2);
    assert_eq!(
        p.stream_query(s),
        Err(bad_stream(s, HandleProblem::Destroyed))
    );
    assert_eq!(
        p.event_query(e),
        Err(bad_event(e, HandleProblem::Destroyed))
    );
    assert_eq!(p.get_device(), Err(no_context("get_device")));
    assert_eq!(
        p.destroy_context(ctx),
        Err(SimError::InvalidHandle {
            kind: ObjectKind::Context,
            raw: ctx.to_raw(),
            problem: HandleProblem::Destroyed
        })
    );
    // The default context's stream is untouched.
    assert_eq!(p.stream_query(kept), Ok(Status::Complete));
}

/// acl.md · Devices and contexts · any call needing a context · no current context → 107002
#[test]
fn acl_calls_without_a_current_context_are_no_context() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    let e = no_context;
    assert_eq!(
        p.create_stream(StreamFlags::DEFAULT),
        Err(e("create_stream"))
    );
    assert_eq!(p.create_event(EventFlags::DEFAULT), Err(e("create_event")));
    assert_eq!(p.malloc(16), Err(e("malloc")));
    assert_eq!(p.launch(Stream::DEFAULT, kernel("k", 1)), Err(e("stream")));
    assert_eq!(p.stream_synchronize(Stream::DEFAULT), Err(e("stream")));
    assert_eq!(p.stream_query(Stream::DEFAULT), Err(e("stream")));
    assert_eq!(p.device_synchronize(), Err(e("device_synchronize")));
    assert_eq!(p.current_context(), Err(e("current_context")));
    assert_eq!(p.enable_peer_access(1, 0), Err(e("enable_peer_access")));
    assert_eq!(p.disable_peer_access(1), Err(e("disable_peer_access")));
    assert_eq!(p.device_priority_range(), Err(e("device_priority_range")));
    assert_eq!(p.memcpy(&mut [0u8; 4][..], &[1u8; 4], 4), Err(e("stream")));
    // Calls that need no context: device count, peer topology.
    assert_eq!(p.device_count(), Ok(2));
    assert_eq!(p.can_access_peer(0, 1), Ok(true));
}

/// acl.md · Devices and contexts · NULL stream argument · — → the current context's default stream (an
/// ordinary stream: unlike CUDA's legacy default stream, other streams do not wait for it)
#[test]
fn acl_null_stream_is_the_current_contexts_default_stream() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1)
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
    p.launch(Stream::DEFAULT, kernel("null stream", 100))
        .unwrap(); // (t3) 5..105
    p.launch(s, kernel("created stream", 10)).unwrap(); // (t4) 6..16: no implicit wait
    let c2 = p.create_context(0).unwrap(); // (t5)
    p.launch(Stream::DEFAULT, kernel("null stream of context 2", 10))
        .unwrap(); // (t6) 8..18
    p.set_device(0).unwrap(); // (t7) back to the default context
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // (t8)
    p.record_event(e, Stream::DEFAULT).unwrap(); // (t9) on context 1's default stream: at 105
    assert_eq!(p.event_record_time(e), Ok(Some(us(105))));
    p.device_synchronize().unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "null stream"), (us(5), us(105)));
    assert_eq!(span(&t, "created stream"), (us(6), us(16)));
    assert_eq!(span(&t, "null stream of context 2"), (us(8), us(18)));
    assert_eq!(
        crate::multi_device::op(&t, "null stream").stream,
        context_default(0, 1)
    );
    assert_eq!(
        crate::multi_device::op(&t, "null stream of context 2").stream,
        context_default(0, 2)
    );
    p.destroy_context(c2).unwrap();
}

/// acl.md · Devices and contexts · ResetDevice · at 0 frees the default context … (sim, beyond the row: explicit
/// contexts on the device go too, and their handles then name the reset)
#[test]
fn acl_reset_frees_explicit_contexts_of_the_device() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap();
    let explicit = p.create_context(0).unwrap();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let on_1 = p.create_context(1).unwrap();
    p.reset_device(0).unwrap(); // count 1 → 0, from a thread whose current context is on device 1
    let freed = HandleProblem::FreedByReset { device: 0 };
    assert_eq!(
        p.set_current_context(explicit),
        Err(SimError::InvalidHandle {
            kind: ObjectKind::Context,
            raw: explicit.to_raw(),
            problem: freed
        })
    );
    assert_eq!(p.stream_query(s), Err(bad_stream(s, freed)));
    assert_eq!(
        p.current_context(),
        Ok(on_1),
        "device 1's context is untouched"
    );
}

/// Not a row: CUDA has one primary context per device and no explicit contexts; the context calls are refused.
#[test]
fn cuda_has_no_explicit_contexts() {
    let m = machine(Dialect::Cuda, 1);
    let p = m.process();
    for (what, r) in [
        ("create_context", p.create_context(0).map(drop)),
        ("current_context", p.current_context().map(drop)),
    ] {
        assert!(
            matches!(r, Err(SimError::NotSupported { what: w, .. }) if w == what),
            "{what}: {r:?}"
        );
    }
}
