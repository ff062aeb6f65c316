//! Truth-table tests: devices in both dialects, through the core API — `docs/semantics/acl.md` · Devices and
//! contexts (SetDevice, GetDevice, ResetDevice, ResetDeviceForce);
//! `docs/semantics/cuda-musa.md` · Devices and peers (SetDevice, DeviceReset) — plus device count and
//! attributes (the Ascend multi-device guide, "多Device选择"). Ownership is in `ownership.rs`, contexts in
//! `contexts.rs`, peers in `peers.rs`, IPC in `ipc.rs`, ACL deferred waits in `deferred_waits.rs`; the helpers
//! below are shared by those modules.
//!
//! Errors are asserted as the exact `SimError` (variant and fields) that the facade maps to the row's code.
//! Virtual times are computed by hand from the default cost model (`src/engine/core/time.rs`): every runtime call first
//! advances the calling thread's clock by 1 µs and acts at that `now`; an operation starts at
//! max(stream cursor, now + 2 µs, what it waits for) and ends start + cost. Comments give `now` of each call as
//! `(tN)` in µs. `now()`, `current_device()`, `stream_id`, `event_id`, `peer_access_enabled` and `Machine`
//! methods do not advance the clock. Each (host thread, process) pair has its own clock, starting at 0.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use streamsim::{
    AddressSpace, Attribute, DeviceConfig, Dialect, EventFlags, HandleProblem, Kernel, Machine,
    ObjectKind, ProcessId, SimError, Status, Stream, StreamFlags, StreamId, StreamKind, Trace,
    TraceEvent, VirtualTime,
};

/// Both dialects, for rules the two vendors share.
pub const DIALECTS: [Dialect; 2] = [Dialect::Cuda, Dialect::Acl];

/// A machine with `devices` devices in `dialect` (seed 0, tracing on, every pair of devices linked).
pub fn machine(dialect: Dialect, devices: u32) -> Machine {
    Machine::builder()
        .devices(devices)
        .dialect(dialect)
        .build()
        .expect("machine")
}

/// `n` microseconds of virtual time.
pub fn us(n: u64) -> VirtualTime {
    VirtualTime(n * 1_000)
}

/// A kernel of `micros` µs without a body.
pub fn kernel(name: &'static str, micros: u64) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(micros))
}

/// A kernel of `micros` µs whose body counts its runs in `counter`.
pub fn counting(name: &'static str, micros: u64, counter: &Arc<AtomicUsize>) -> Kernel {
    let c = counter.clone();
    kernel(name, micros).body(move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        Ok(())
    })
}

/// The operation labelled `label` (the first one), or a panic that prints the trace.
pub fn op<'a>(t: &'a Trace, label: &str) -> &'a TraceEvent {
    t.find(label)
        .unwrap_or_else(|| panic!("no operation {label:?} in the trace: {t:#?}"))
}

/// (start, end) of the operation labelled `label`.
pub fn span(t: &Trace, label: &str) -> (VirtualTime, VirtualTime) {
    let o = op(t, label);
    (o.start, o.end)
}

/// The error of a stream handle rejected for `problem`.
pub fn bad_stream(s: Stream, problem: HandleProblem) -> SimError {
    SimError::InvalidHandle {
        kind: ObjectKind::Stream,
        raw: s.to_raw(),
        problem,
    }
}

/// The error of an event handle rejected for `problem`.
pub fn bad_event(e: streamsim::Event, problem: HandleProblem) -> SimError {
    SimError::InvalidHandle {
        kind: ObjectKind::Event,
        raw: e.to_raw(),
        problem,
    }
}

/// ACL's "no current context" (107002) for the call `what`.
pub fn no_context(what: &'static str) -> SimError {
    SimError::NoContext { what }
}

// ---------------------------------------------------------------------------------------------------------
// The current device is per host thread.

/// cuda-musa.md · Devices and peers · SetDevice · — → per host thread; no synchronization; device 0 is the
/// default
#[test]
fn cuda_set_device_is_per_host_thread_without_synchronization() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    assert_eq!(p.current_device(), Some(0), "device 0 is the default");
    assert_eq!(p.get_device(), Ok(0)); // (t1)
    p.launch(Stream::DEFAULT, kernel("long", 1_000)).unwrap(); // (t2) 4..1004 µs
    p.set_device(1).unwrap(); // (t3): no synchronization, the host clock only pays the call
    assert_eq!(p.now(), us(3));
    assert_eq!(p.get_device(), Ok(1));

    // Another host thread of the same process starts on device 0 and is not affected by this thread...
    let q = p.clone();
    let (before, after_own_set) = std::thread::spawn(move || {
        let before = (q.current_device(), q.get_device());
        let s = q.create_stream(StreamFlags::DEFAULT).unwrap();
        assert_eq!(
            q.stream_id(s).unwrap().device,
            0,
            "its work goes to device 0"
        );
        q.set_device(1).unwrap();
        q.set_device(0).unwrap();
        (before, q.get_device())
    })
    .join()
    .unwrap();
    assert_eq!(before, (Some(0), Ok(0)));
    assert_eq!(after_own_set, Ok(0));
    // ...and its set_device calls did not change this thread's device.
    assert_eq!(p.current_device(), Some(1));
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(p.stream_id(s).unwrap().device, 1);
}

/// acl.md · Devices and contexts · SetDevice · valid id → 0; for the calling thread only
#[test]
fn acl_set_device_is_for_the_calling_thread_only() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    assert_eq!(
        p.current_device(),
        None,
        "an ACL thread starts with no device"
    );
    p.set_device(1).unwrap();
    assert_eq!(p.get_device(), Ok(1));
    let q = p.clone();
    let seen = std::thread::spawn(move || {
        let before = (q.current_device(), q.get_device());
        q.set_device(0).unwrap();
        let s = q.create_stream(StreamFlags::DEFAULT).unwrap();
        (before, q.get_device(), q.stream_id(s).unwrap().device)
    })
    .join()
    .unwrap();
    assert_eq!(seen, ((None, Err(no_context("get_device"))), Ok(0), 0));
    assert_eq!(p.current_device(), Some(1));
    assert_eq!(p.get_device(), Ok(1));
}

/// acl.md · Devices and contexts · GetDevice · no device set on this thread → 107002
#[test]
fn acl_get_device_without_a_device_is_no_context() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    assert_eq!(p.get_device(), Err(no_context("get_device")));
    assert_eq!(p.take_last_error(), Some(no_context("get_device")));
    // Also on a thread of a process whose other threads have a device.
    p.set_device(0).unwrap();
    let q = p.clone();
    let r = std::thread::spawn(move || q.get_device()).join().unwrap();
    assert_eq!(r, Err(no_context("get_device")));
}

/// acl.md · Devices and contexts · SetDevice · id outside [0, count) → 107001;
/// cuda-musa.md · Devices and peers · SetDevice · id < 0 or >= count → 101 InvalidDevice
#[test]
fn set_device_out_of_range_is_invalid_device() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        let before = p.current_device();
        for bad in [-1, 2, 3, i64::from(i32::MAX), i64::MIN] {
            let err = SimError::InvalidDevice {
                device: bad,
                count: 2,
            };
            assert_eq!(p.set_device(bad), Err(err.clone()), "{dialect:?} {bad}");
            assert_eq!(
                p.take_last_error(),
                Some(err),
                "{dialect:?}: the last error"
            );
        }
        assert_eq!(
            p.current_device(),
            before,
            "{dialect:?}: a failed set changes nothing"
        );
    }
}

/// acl.md · Devices and contexts · SetDevice · valid id → creates (or shares) the device's default context and
/// default stream; per-process reference count +1 (and ResetDevice · count > 0 → count −1)
#[test]
fn acl_set_device_shares_the_default_context_and_counts_references() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    p.set_device(0).unwrap();
    p.set_device(0).unwrap(); // count 2 on this thread
    let ctx = p.current_context().unwrap();
    let default = p.stream_id(Stream::DEFAULT).unwrap();
    assert_eq!(
        default,
        StreamId {
            process: ProcessId(0),
            device: 0,
            kind: StreamKind::ContextDefault(1)
        }
    );
    let q = p.clone();
    let (q_ctx, q_default) = std::thread::spawn(move || {
        q.set_device(0).unwrap(); // count 3: the same default context and default stream
        (
            q.current_context().unwrap(),
            q.stream_id(Stream::DEFAULT).unwrap(),
        )
    })
    .join()
    .unwrap();
    assert_eq!((q_ctx, q_default), (ctx, default));

    // Another process has its own default context and its own count.
    let other = m.process();
    other.set_device(0).unwrap();
    let other_default = other.stream_id(Stream::DEFAULT).unwrap();
    assert_eq!(other_default.process, ProcessId(1));
    assert_eq!(other_default.kind, StreamKind::ContextDefault(1));
    other.reset_device(0).unwrap(); // the other process's count reaches 0: only its context goes
    assert_eq!(p.current_context(), Ok(ctx));

    // Count 3 → 2 → 1: the device stays; the last reset frees it.
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.reset_device(0).unwrap();
    p.reset_device(0).unwrap();
    assert_eq!(p.current_context(), Ok(ctx));
    p.launch(s, kernel("still set", 10)).unwrap();
    p.reset_device(0).unwrap();
    assert_eq!(
        p.stream_query(s),
        Err(bad_stream(s, HandleProblem::FreedByReset { device: 0 }))
    );
    assert_eq!(p.get_device(), Err(no_context("get_device")));
}

// ---------------------------------------------------------------------------------------------------------
// Resets.

/// acl.md · Devices and contexts · ResetDevice · count > 0 → count −1; at 0 frees the default context, its
/// default stream and every stream created in it, after waiting for their pending tasks (with the brief's
/// "later use is an error naming the reset": handles → FreedByReset, memory → "freed by a device reset")
#[test]
fn acl_reset_device_at_zero_waits_for_pending_tasks_then_frees_everything() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    let ran = Arc::new(AtomicUsize::new(0));
    p.set_device(0).unwrap(); // (t1)
    p.set_device(0).unwrap(); // (t2) count 2
    let ptr = p.malloc(64).unwrap(); // (t3)
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t4)
    let e = p.create_event(EventFlags::DEFAULT).unwrap(); // (t5)
    p.launch(s, counting("pending", 100, &ran)).unwrap(); // (t6) 8..108
    p.record_event(e, s).unwrap(); // (t7) at 108
    p.launch(Stream::DEFAULT, counting("on the default stream", 50, &ran))
        .unwrap(); // (t8) 10..60
    p.reset_device(0).unwrap(); // (t9) count 1: nothing is freed, nothing waits
    assert_eq!(p.now(), us(9));
    p.launch(s, counting("still alive", 10, &ran)).unwrap(); // (t10) 108..118
    assert_eq!(p.event_query(e), Ok(Status::NotReady)); // (t11)
    p.reset_device(0).unwrap(); // (t12) count 0: waits for everything pending, then frees
    assert_eq!(p.now(), us(118), "the reset waited for the pending tasks");
    assert_eq!(ran.load(Ordering::SeqCst), 3, "every pending body ran");
    let t = m.trace();
    assert_eq!(span(&t, "pending"), (us(8), us(108)));
    assert_eq!(span(&t, "on the default stream"), (us(10), us(60)));
    assert_eq!(span(&t, "still alive"), (us(108), us(118)));

    // Calls without an ownership check name the reset at once.
    let freed = HandleProblem::FreedByReset { device: 0 };
    assert_eq!(p.stream_query(s), Err(bad_stream(s, freed)));
    assert_eq!(p.stream_synchronize(s), Err(bad_stream(s, freed)));
    assert_eq!(p.event_query(e), Err(bad_event(e, freed)));
    assert_eq!(p.event_synchronize(e), Err(bad_event(e, freed)));
    assert_eq!(
        p.memcpy(ptr, &[0u8; 64], 64),
        Err(SimError::InvalidAddress {
            what: "memcpy",
            addr: ptr.addr(),
            space: AddressSpace::Device(0),
            problem: "freed by a device reset",
        })
    );
    assert_eq!(m.memory_used(0), Ok(0));
    // The thread's default context went with the reset: calls needing one fail until a device is set again.
    assert_eq!(p.get_device(), Err(no_context("get_device")));
    assert_eq!(
        p.create_stream(StreamFlags::DEFAULT),
        Err(no_context("create_stream"))
    );
    p.set_device(0).unwrap();
    let again = p.stream_id(Stream::DEFAULT).unwrap();
    assert_eq!(
        again.kind,
        StreamKind::ContextDefault(2),
        "a new default context"
    );
    // With a context again, the owned calls name the reset too.
    assert_eq!(p.launch(s, kernel("x", 1)), Err(bad_stream(s, freed)));
    assert_eq!(p.destroy_stream(s), Err(bad_stream(s, freed)));
    assert_eq!(p.record_event(e, Stream::DEFAULT), Err(bad_event(e, freed)));
}

/// acl.md · Devices and contexts · ResetDevice · at 0 frees … — for every thread of the process: another
/// thread whose current context was the freed default context has no context afterwards
#[test]
fn acl_reset_frees_the_context_of_every_thread_of_the_process() {
    let m = machine(Dialect::Acl, 1);
    let p = m.process();
    let (to_main, from_helper) = std::sync::mpsc::channel();
    let (to_helper, from_main) = std::sync::mpsc::channel::<()>();
    let q = p.clone();
    let helper = std::thread::spawn(move || {
        q.set_device(0).unwrap();
        to_main.send(()).unwrap();
        from_main.recv().unwrap();
        (
            q.get_device(),
            q.create_event(EventFlags::DEFAULT).map(drop),
        )
    });
    from_helper.recv().unwrap();
    p.set_device(0).unwrap(); // count 2 (one per thread)
    p.reset_device_force(0).unwrap();
    to_helper.send(()).unwrap();
    assert_eq!(
        helper.join().unwrap(),
        (
            Err(no_context("get_device")),
            Err(no_context("create_event"))
        )
    );
}

/// acl.md · Devices and contexts · ResetDeviceForce · any count → frees the device in one call, after pending
/// tasks finish
#[test]
fn acl_reset_device_force_frees_at_any_count_after_pending_tasks() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..3 {
        p.set_device(0).unwrap(); // (t1..t3) count 3
    }
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t4)
    p.launch(s, counting("pending", 100, &ran)).unwrap(); // (t5) 7..107
    p.set_device(1).unwrap(); // (t6) device 1 is left alone
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t7)
    p.launch(s1, kernel("device 1", 500)).unwrap(); // (t8) 10..510
    p.reset_device_force(0).unwrap(); // (t9): waits for device 0's work only
    assert_eq!(p.now(), us(107));
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert_eq!(
        p.stream_query(s),
        Err(bad_stream(s, HandleProblem::FreedByReset { device: 0 }))
    );
    // Device 1 is still this thread's device, with its work still running.
    assert_eq!(p.get_device(), Ok(1));
    assert_eq!(p.stream_query(s1), Ok(Status::NotReady));
}

/// acl.md · Devices and contexts · Reset / ResetForce · device not set, or already freed → 507007
#[test]
fn acl_reset_of_a_device_not_set_or_already_freed_is_rejected() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    let not_set = |what, device| SimError::DeviceNotSet { what, device };
    assert_eq!(p.reset_device(1), Err(not_set("reset_device", 1)));
    assert_eq!(
        p.reset_device_force(1),
        Err(not_set("reset_device_force", 1))
    );
    p.set_device(0).unwrap();
    p.reset_device(0).unwrap();
    assert_eq!(p.reset_device(0), Err(not_set("reset_device", 0)));
    assert_eq!(
        p.reset_device_force(0),
        Err(not_set("reset_device_force", 0))
    );
    p.set_device(0).unwrap();
    p.set_device(0).unwrap();
    p.reset_device_force(0).unwrap();
    assert_eq!(p.reset_device(0), Err(not_set("reset_device", 0)));
    // Another process's set does not count for this one.
    let other = m.process();
    other.set_device(1).unwrap();
    assert_eq!(p.reset_device(1), Err(not_set("reset_device", 1)));
    // A bad ordinal is an invalid device first.
    assert_eq!(
        p.reset_device(2),
        Err(SimError::InvalidDevice {
            device: 2,
            count: 2
        })
    );
}

/// cuda-musa.md · Devices and peers · DeviceReset · — → destroys all streams, events and memory of the current
/// device in this process; later use of them: vendor undefined, sim 400
#[test]
fn cuda_device_reset_destroys_the_devices_streams_events_and_memory() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    let other = m.process();
    let ran = Arc::new(AtomicUsize::new(0));
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t1)
    let e0 = p.create_event(EventFlags::DEFAULT).unwrap(); // (t2)
    let ptr0 = p.malloc(64).unwrap(); // (t3)
    p.set_device(1).unwrap(); // (t4)
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t5)
    let ptr1 = p.malloc(64).unwrap(); // (t6)
    p.set_device(0).unwrap(); // (t7)
    p.launch(s0, counting("pending", 100, &ran)).unwrap(); // (t8) 10..110
    let theirs = other.create_stream(StreamFlags::DEFAULT).unwrap(); // other process, device 0
    let their_ptr = other.malloc(64).unwrap();
    p.reset_device(0).unwrap(); // (t9): waits for the pending kernel, then destroys
    assert_eq!(p.now(), us(110));
    assert_eq!(ran.load(Ordering::SeqCst), 1);

    let freed = HandleProblem::FreedByReset { device: 0 };
    assert_eq!(p.launch(s0, kernel("x", 1)), Err(bad_stream(s0, freed)));
    assert_eq!(p.destroy_stream(s0), Err(bad_stream(s0, freed)));
    assert_eq!(p.event_query(e0), Err(bad_event(e0, freed)));
    assert_eq!(
        p.record_event(e0, Stream::DEFAULT),
        Err(bad_event(e0, freed))
    );
    assert_eq!(
        p.memcpy(ptr0, &[1u8; 64], 64),
        Err(SimError::InvalidAddress {
            what: "memcpy",
            addr: ptr0.addr(),
            space: AddressSpace::Device(0),
            problem: "freed by a device reset",
        })
    );
    // The device stays current and usable; device 1 and the other process are untouched.
    assert_eq!(p.current_device(), Some(0));
    let fresh = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.launch(fresh, kernel("after reset", 1)).unwrap();
    p.stream_synchronize(fresh).unwrap();
    assert_eq!(p.stream_query(s1), Ok(Status::Complete));
    p.memcpy(ptr1, &[1u8; 64], 64).unwrap();
    other.launch(theirs, kernel("theirs", 1)).unwrap();
    other.memcpy(their_ptr, &[1u8; 64], 64).unwrap();
    other.stream_synchronize(theirs).unwrap();
    // A reset of a device the process never used is not an error in CUDA (and is the same with force).
    p.reset_device(1).unwrap();
    p.reset_device_force(1).unwrap();
    assert_eq!(
        p.stream_query(s1),
        Err(bad_stream(s1, HandleProblem::FreedByReset { device: 1 }))
    );
}

// ---------------------------------------------------------------------------------------------------------
// Device count and attributes (acl.md prototypes: aclrtGetDeviceCount / aclrtGetDeviceInfo; the multi-device guide).

/// the Ascend multi-device guide · 多Device选择: aclrtGetDeviceCount, then aclrtGetDeviceInfo per device (devices
/// numbered 0, 1, 2, …); attributes are configurable per device in the builder
#[test]
fn device_count_and_per_device_attributes() {
    for dialect in DIALECTS {
        let m = Machine::builder()
            .devices(3)
            .dialect(dialect)
            .device(
                1,
                DeviceConfig::default()
                    .name("small")
                    .memory(8 << 30)
                    .attribute(Attribute::VectorCoreCount, 40)
                    .attribute(Attribute::AiCoreCount, 20),
            )
            .build()
            .unwrap();
        let p = m.process();
        // No device or context is needed to count devices (ACL too).
        assert_eq!(p.device_count(), Ok(3), "{dialect:?}");
        assert_eq!(m.device_count(), 3);
        let vector: Vec<i64> = (0..3)
            .map(|d| m.device_attribute(d, Attribute::VectorCoreCount).unwrap())
            .collect();
        assert_eq!(vector, [48, 40, 48], "{dialect:?}");
        assert_eq!(m.device_attribute(1, Attribute::AiCoreCount), Ok(20));
        assert_eq!(m.device_attribute(0, Attribute::AiCoreCount), Ok(24));
        assert_eq!(m.device_attribute(0, Attribute::CubeCoreCount), Ok(24));
        assert_eq!(m.device_attribute(0, Attribute::AiCpuCoreCount), Ok(6));
        assert_eq!(m.device_attribute(0, Attribute::WarpSize), Ok(32));
        assert_eq!(
            m.device_attribute(0, Attribute::MultiprocessorCount),
            Ok(108)
        );
        assert_eq!(m.device_attribute(0, Attribute::TotalMemory), Ok(40 << 30));
        assert_eq!(m.device_attribute(1, Attribute::TotalMemory), Ok(8 << 30));
        assert_eq!(m.device_config(1).unwrap().name, "small");
        assert_eq!(
            m.device_attribute(3, Attribute::VectorCoreCount),
            Err(SimError::InvalidDevice {
                device: 3,
                count: 3
            })
        );
        // The memory size is enforced.
        p.set_device(1).unwrap();
        assert_eq!(
            p.malloc((8 << 30) + 1),
            Err(SimError::OutOfMemory {
                device: 1,
                requested: (8 << 30) + 1,
                available: 8 << 30
            })
        );
    }
    // An attribute the configuration leaves out.
    let mut cfg = DeviceConfig::default();
    cfg.attributes.remove(&Attribute::WarpSize);
    let m = Machine::builder().device(0, cfg).build().unwrap();
    assert!(matches!(
        m.device_attribute(0, Attribute::WarpSize),
        Err(SimError::InvalidValue {
            what: "device_attribute",
            ..
        })
    ));
}

/// cuda-musa.md · Errors that stick · a kernel fault is sticky: every later call in that process returns the same
/// error until the device is reset — whatever the calling thread's current device. (ACL's faults are not
/// sticky: acl.md · aclrtSetStreamFailureMode · default ACL_CONTINUE_ON_FAILURE, tested in
/// `acl_facade/failure_mode.rs`.)
#[test]
fn device_reset_clears_the_sticky_kernel_fault() {
    let dialect = Dialect::Cuda;
    {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(0).unwrap();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        p.launch(s, kernel("bad", 5).body(|_| Err("boom".into())))
            .unwrap();
        let fault = SimError::KernelFault {
            kind: streamsim::FaultKind::LaunchFailure,
            device: 0,
            stream: p.stream_id(s).unwrap(),
            label: "bad".to_string(),
            message: "boom".to_string(),
        };
        assert_eq!(p.stream_synchronize(s), Err(fault.clone()), "{dialect:?}");
        assert_eq!(
            p.create_stream(StreamFlags::DEFAULT).map(drop),
            Err(fault.clone()),
            "{dialect:?}: sticky"
        );
        // Another device of the same process is affected too ("every later call in that process"). Setting the
        // device works (it is how a program gets to the reset).
        p.set_device(1).unwrap();
        assert_eq!(
            p.launch(Stream::DEFAULT, kernel("on device 1", 1)),
            Err(fault.clone()),
            "{dialect:?}: sticky on every device of the process"
        );
        assert_eq!(p.device_synchronize(), Err(fault.clone()));
        p.set_device(0).unwrap();
        assert_eq!(
            p.device_synchronize(),
            Err(fault),
            "{dialect:?}: still sticky"
        );
        p.reset_device_force(0).unwrap();
        p.set_device(0).unwrap();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        p.launch(s, kernel("after reset", 1)).unwrap();
        assert_eq!(
            p.stream_synchronize(s),
            Ok(()),
            "{dialect:?}: cleared by the reset"
        );
        assert_eq!(p.device_synchronize(), Ok(()));
        // For the other device too.
        p.set_device(1).unwrap();
        p.launch(Stream::DEFAULT, kernel("device 1 after reset", 1))
            .unwrap();
        assert_eq!(p.device_synchronize(), Ok(()), "{dialect:?}");
    }
}
