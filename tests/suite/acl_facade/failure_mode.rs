//! acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode, through the facade: the default
//! ACL_CONTINUE_ON_FAILURE (later tasks run, the fault is reported once by the next synchronize),
//! ACL_STOP_ON_FAILURE (the stream and its context stop, new tasks are refused once the fault is reported), the
//! rules of setting a mode, and aclrtSetStreamAttribute / aclrtGetStreamAttribute. Rows and sources:
//! docs/semantics/acl-runtime-api.md.
//!
//! Faulting kernels use the C API's `aclsimLaunchFallibleKernel` (its body returns non-zero to fault). Virtual
//! times: every call advances the host clock by 1 µs; an operation starts at max(stream cursor, call time + 2 µs,
//! what it waits for).

use streamsim::capi::aclsimLaunchFallibleKernel;

use super::*;

/// A kernel of `micros` µs whose body adds 1 to the probe's count and succeeds.
fn counted(s: Ptr, micros: u64, p: &'static Probe) -> aclError {
    unsafe extern "C" fn body(arg: *mut c_void) -> i32 {
        // SAFETY: `arg` is a leaked Probe.
        unsafe { &*(arg as *const Probe) }
            .count
            .fetch_add(1, SeqCst);
        0
    }
    // SAFETY: a static name; the body may run on another thread with the leaked probe.
    unsafe {
        aclsimLaunchFallibleKernel(s, c"counted".as_ptr(), micros * 1_000, Some(body), arg(p))
    }
}

/// A kernel of `micros` µs whose body faults.
fn faulting(s: Ptr, micros: u64) -> aclError {
    unsafe extern "C" fn body(_: *mut c_void) -> i32 {
        1
    }
    // SAFETY: a static name; the body touches nothing.
    unsafe { aclsimLaunchFallibleKernel(s, c"bad".as_ptr(), micros * 1_000, Some(body), NULL) }
}

fn set_mode(s: Ptr, mode: u64) -> aclError {
    aclrtSetStreamFailureMode(s, mode)
}

fn get_mode(s: Ptr) -> Result<u64, aclError> {
    let mut v = aclrtStreamAttrValue { reserve: [7; 4] };
    // SAFETY: a valid out-pointer.
    match unsafe { aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &mut v) } {
        // SAFETY: the failure mode was written.
        ACL_SUCCESS => Ok(unsafe { v.failureMode }),
        c => Err(c),
    }
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · default ACL_CONTINUE_ON_FAILURE → after a fault
/// the stream's later tasks still run; the fault is reported at the next synchronize (507015), once: the runtime
/// clears a stream's error when a synchronize has read it (`Stream::GetError`,
/// src/runtime/core/src/stream/stream.cc)
#[test]
fn continue_on_failure_runs_later_tasks_and_reports_the_fault_once() {
    on_acl(1, |p| {
        let ran = probe();
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        assert_eq!(get_mode(s), Ok(ACL_CONTINUE_ON_FAILURE), "the default"); // t3
        ok(counted(s, 10, ran)); // t4: 6..16
        ok(faulting(s, 10)); // t5: 16..26
        ok(counted(s, 10, ran)); // t6: 26..36, runs
        assert_eq!(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION); // t7
        assert_eq!(now_us(p), 36);
        assert_eq!(ran.count.load(SeqCst), 2, "the task after the fault ran");
        assert!(last_msg().contains("bad"), "{}", last_msg());
        ok(aclrtSynchronizeStream(s)); // t37: reported once
        ok(aclrtSynchronizeDevice()); // t38
        ok(counted(s, 10, ran)); // t39: 41..51, accepted
        ok(aclrtSynchronizeStream(s)); // t40 → 51
        assert_eq!((ran.count.load(SeqCst), now_us(p)), (3, 51));
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · ACL_CONTINUE_ON_FAILURE → the fault is the
/// stream's: an event recorded after it completes (aclrtSynchronizeEvent 0: the runtime reports an event's stream
/// error only for an aborted stream, `Event::GetFailureStatus`, src/runtime/core/src/event/event.cc), and a stream
/// that waits on it runs
#[test]
fn continue_on_failure_does_not_travel_to_waiting_streams() {
    on_acl(1, |p| {
        let ran = probe();
        ok(aclrtSetDevice(0)); // t1
        let (s1, s2) = (new_stream(), new_stream()); // t2, t3
        let e = new_event(); // t4
        ok(faulting(s1, 10)); // t5: 7..17
        ok(aclrtRecordEvent(e, s1)); // t6: 17
        ok(aclrtStreamWaitEvent(s2, e)); // t7: 17
        ok(counted(s2, 10, ran)); // t8: 17..27
        ok(aclrtSynchronizeEvent(e)); // t9 → 17
        assert_eq!(recorded_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE); // t18
        ok(aclrtSynchronizeStream(s2)); // t19 → 27
        assert_eq!((ran.count.load(SeqCst), now_us(p)), (1, 27));
        assert_eq!(aclrtSynchronizeStream(s1), ACL_ERROR_RT_AICORE_EXCEPTION); // t28
        ok(aclrtSynchronizeStream(s1)); // t29
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · ACL_STOP_ON_FAILURE (1) → after a fault the
/// stream stops its later tasks; every synchronize and query reports the fault (the aborted stream keeps its
/// error); once reported, new tasks are refused with it on every stream of the context (`Context::CheckTaskSend`),
/// while a synchronous copy still works (the vendor's stream_with_failure_mode sample copies its result back); a
/// device reset clears it
#[test]
fn stop_on_failure_stops_the_stream_and_refuses_new_tasks() {
    on_acl(1, |p| {
        let ran = probe();
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        let d = malloc(8); // t3
        let e = new_event(); // t4
        ok(set_mode(s, ACL_STOP_ON_FAILURE)); // t5
        assert_eq!(get_mode(s), Ok(ACL_STOP_ON_FAILURE)); // t6
        ok(counted(s, 10, ran)); // t7: 9..19
        ok(faulting(s, 10)); // t8: 19..29
        ok(counted(s, 10, ran)); // t9: 29..39, stopped
        ok(aclrtRecordEvent(e, s)); // t10: 39
        assert_eq!(aclrtSynchronizeStream(s), 507015); // t11 → 39
        assert_eq!(now_us(p), 39);
        assert_eq!(
            ran.count.load(SeqCst),
            1,
            "the task after the fault did not run"
        );
        assert_eq!(
            aclrtSynchronizeStream(s),
            507015,
            "the stream keeps its error"
        );
        assert_eq!(
            aclrtSynchronizeEvent(e),
            507015,
            "an event recorded after the fault"
        );
        assert_eq!(aclrtSynchronizeDevice(), 507015);
        let mut st = 0xAAAA;
        // SAFETY: a valid out-pointer.
        assert_eq!(unsafe { aclrtStreamQuery(s, &mut st) }, 507015);
        assert_eq!(counted(s, 1, ran), 507015, "refused");
        let s2 = new_stream(); // a new stream of the context is created ...
        assert_eq!(kernel(s2, 1), 507015, "... and refuses tasks");
        assert_eq!(aclrtRecordEvent(e, s2), 507015);
        // SAFETY: a valid host buffer of 8 bytes.
        unsafe {
            let host = [7u8; 8];
            ok(aclrtMemcpy(
                d,
                8,
                host.as_ptr().cast(),
                8,
                ACL_MEMCPY_HOST_TO_DEVICE,
            ));
            let mut back = [0u8; 8];
            ok(aclrtMemcpy(
                back.as_mut_ptr().cast(),
                8,
                d,
                8,
                ACL_MEMCPY_DEVICE_TO_HOST,
            ));
            assert_eq!(back, host);
        }
        ok(aclrtResetDeviceForce(0));
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(counted(s, 1, ran));
        ok(aclrtSynchronizeStream(s));
        assert_eq!(
            ran.count.load(SeqCst),
            2,
            "a reset clears the context's failure"
        );
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · ACL_STOP_ON_FAILURE → "the other streams of its
/// context" stop too: set on one stream, the mode is the context's ("该Stream所在的Context下的其它Stream也是遇错即停",
/// aclrtSetStreamFailureMode API page; `Stream::SetFailMode` sets the context's mode); sim: a stream of the context
/// stops at its first task ordered after the fault; a stream of another context is not affected
#[test]
fn stop_on_failure_stops_the_streams_of_the_context_ordered_after_the_fault() {
    on_acl(1, |_| {
        let ran = probe();
        ok(aclrtSetDevice(0));
        let (s1, s2) = (new_stream(), new_stream());
        let e = new_event();
        ok(set_mode(s1, ACL_STOP_ON_FAILURE));
        assert_eq!(
            get_mode(s2),
            Ok(ACL_CONTINUE_ON_FAILURE),
            "set on s1 only ..."
        );
        ok(faulting(s1, 10));
        ok(aclrtRecordEvent(e, s1));
        // Another context on the same device, in the default mode, waits on the same record.
        let a = current_context();
        let mut b = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut b, 0) });
        let s3 = new_stream();
        ok(aclrtStreamWaitEvent(s3, e));
        ok(counted(s3, 10, ran));
        ok(aclrtSynchronizeStream(s3));
        assert_eq!(ran.count.load(SeqCst), 1, "another context runs on");
        ok(aclrtSetCurrentContext(a));
        ok(aclrtStreamWaitEvent(s2, e));
        ok(counted(s2, 10, ran));
        assert_eq!(aclrtSynchronizeStream(s2), 507015, "... but s2 stops too");
        assert_eq!(ran.count.load(SeqCst), 1);
        ok(aclrtDestroyContext(b));
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · default ACL_CONTINUE_ON_FAILURE → tasks take
/// the mode in force when they are enqueued: a fault enqueued before the stream is set to stop is reported once and
/// stops nothing
#[test]
fn the_mode_applies_to_tasks_enqueued_after_it_is_set() {
    on_acl(1, |_| {
        let ran = probe();
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(faulting(s, 10));
        ok(set_mode(s, ACL_STOP_ON_FAILURE));
        ok(counted(s, 10, ran));
        assert_eq!(aclrtSynchronizeStream(s), 507015);
        assert_eq!(ran.count.load(SeqCst), 1);
        ok(aclrtSynchronizeStream(s));
        ok(counted(s, 1, ran));
        ok(aclrtSynchronizeStream(s));
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamFailureMode · "only one call per stream": the runtime keeps
/// the lowest bit of the mode (`stmMode & 0x1U`), accepts the mode a stream already has, refuses stop → continue
/// with 207000, and checks the stream's context (107003) (`ApiImpl::StreamSetMode`,
/// src/runtime/api/impl/api_impl.cc); NULL is the default stream (allowed on A2/A3 products); a destroyed or forged
/// handle is 107017
#[test]
fn setting_a_failure_mode_follows_the_runtime_checks() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        ok(set_mode(s, 2)); // the low bit is 0: continue
        assert_eq!(get_mode(s), Ok(ACL_CONTINUE_ON_FAILURE));
        ok(set_mode(s, ACL_CONTINUE_ON_FAILURE));
        ok(set_mode(s, 3)); // the low bit is 1: stop
        assert_eq!(get_mode(s), Ok(ACL_STOP_ON_FAILURE));
        ok(set_mode(s, ACL_STOP_ON_FAILURE));
        assert_eq!(set_mode(s, ACL_CONTINUE_ON_FAILURE), 207000);
        assert!(last_msg().contains("cannot be undone"), "{}", last_msg());
        ok(set_mode(NULL, ACL_STOP_ON_FAILURE));
        assert_eq!(get_mode(NULL), Ok(ACL_STOP_ON_FAILURE));
        let dead = new_stream();
        ok(aclrtDestroyStream(dead));
        assert_eq!(set_mode(dead, 1), 107017);
        assert_eq!(set_mode(GARBAGE, 1), 107017);
        let mut other = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut other, 0) });
        assert_eq!(set_mode(s, 1), 107003, "a stream of another context");
        ok(aclrtDestroyContext(other));
    });
}

/// acl-runtime-api.md · Failure modes · aclrtSetStreamAttribute / aclrtGetStreamAttribute:
/// ACL_STREAM_ATTR_FAILURE_MODE as aclrtSetStreamFailureMode; ACL_STREAM_ATTR_PRIORITY clamped to [0, 7] as an
/// int32 (`ApiErrorDecorator::SetStreamPriorityValue`); the overflow-check, custom-tag and op-info-cache attributes
/// are not simulated (sim: 207000); another attribute is 107000 (`rtsStreamSetAttribute`); NULL value 100000
#[test]
fn stream_attributes() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let set = |attr, mut v: aclrtStreamAttrValue| {
            // SAFETY: a valid pointer.
            unsafe { aclrtSetStreamAttribute(s, attr, &mut v) }
        };
        let get_priority = || {
            let mut v = aclrtStreamAttrValue { reserve: [9; 4] };
            // SAFETY: a valid pointer; the priority was written.
            ok(unsafe { aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &mut v) });
            unsafe { v.streamPriority }
        };
        assert_eq!(get_priority(), 0);
        ok(set(
            ACL_STREAM_ATTR_PRIORITY,
            aclrtStreamAttrValue { streamPriority: 3 },
        ));
        assert_eq!(get_priority(), 3);
        ok(set(
            ACL_STREAM_ATTR_PRIORITY,
            aclrtStreamAttrValue { streamPriority: 9 },
        ));
        assert_eq!(get_priority(), 7);
        ok(set(
            ACL_STREAM_ATTR_PRIORITY,
            aclrtStreamAttrValue {
                streamPriority: u32::MAX,
            },
        ));
        assert_eq!(get_priority(), 0, "u32::MAX is -1 as an int32");
        ok(set(
            ACL_STREAM_ATTR_FAILURE_MODE,
            aclrtStreamAttrValue {
                failureMode: ACL_STOP_ON_FAILURE,
            },
        ));
        assert_eq!(get_mode(s), Ok(ACL_STOP_ON_FAILURE));
        for attr in [
            ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
            ACL_STREAM_ATTR_USER_CUSTOM_TAG,
            ACL_STREAM_ATTR_CACHE_OP_INFO,
        ] {
            assert_eq!(
                set(attr, aclrtStreamAttrValue { overflowSwitch: 1 }),
                207000
            );
            let mut v = aclrtStreamAttrValue { reserve: [0; 4] };
            // SAFETY: a valid pointer.
            assert_eq!(unsafe { aclrtGetStreamAttribute(s, attr, &mut v) }, 207000);
        }
        for attr in [0, 6, u32::MAX] {
            assert_eq!(set(attr, aclrtStreamAttrValue { reserve: [0; 4] }), 107000);
            let mut v = aclrtStreamAttrValue { reserve: [0; 4] };
            // SAFETY: a valid pointer.
            assert_eq!(unsafe { aclrtGetStreamAttribute(s, attr, &mut v) }, 107000);
        }
        // SAFETY: NULL values are refused before use.
        unsafe {
            assert_eq!(
                aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, std::ptr::null_mut()),
                100000
            );
            assert_eq!(
                aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, std::ptr::null_mut()),
                100000
            );
            let mut v = aclrtStreamAttrValue { reserve: [0; 4] };
            assert_eq!(
                aclrtGetStreamAttribute(GARBAGE, ACL_STREAM_ATTR_FAILURE_MODE, &mut v),
                107017
            );
        }
    });
}
