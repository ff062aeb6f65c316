//! acl.md rows through the facade: every function of issue 13's ACL list with NULL and garbage arguments —
//! NULL out-pointers; NULL, forged, destroyed, another process's, wrong-kind and reset-freed handles; bad enum
//! values, flags and timeouts; and the same functions on a process bound to a CUDA machine. Every call returns
//! the vendor's code; nothing panics, crashes or hangs (the whole sweep runs under the watchdog).

use super::*;

/// The handles that name no stream / notify of the bound process: (what, handle).
struct Bad {
    streams: Vec<(&'static str, Ptr)>,
    notifies: Vec<(&'static str, Ptr)>,
}

/// Builds them in the bound process of `m` (which has 2 devices): destroyed, another process's, the other kind,
/// freed by a reset of device 1, forged, all ones.
fn bad_handles(m: &Machine) -> Bad {
    let q = m.process();
    let (qs, qn) = {
        let _b = q.bind();
        ok(aclrtSetDevice(0));
        let mut n = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateNotify(&mut n, 0) });
        (new_stream(), n)
    };
    ok(aclrtSetDevice(1));
    let reset_s = new_stream();
    let mut reset_n = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateNotify(&mut reset_n, 0) });
    ok(aclrtResetDeviceForce(1));
    ok(aclrtSetDevice(0));
    let dead_s = new_stream();
    ok(aclrtDestroyStream(dead_s));
    let mut dead_n = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateNotify(&mut dead_n, 0) });
    ok(aclrtDestroyNotify(dead_n));
    let e = new_event();
    let mut n = NULL;
    // SAFETY: a valid out-pointer.
    ok(unsafe { aclrtCreateNotify(&mut n, 0) });
    Bad {
        streams: vec![
            ("destroyed", dead_s),
            ("another process's", qs),
            ("freed by a reset", reset_s),
            ("an event", e),
            ("a notify", n),
            ("forged", GARBAGE),
            ("all ones", usize::MAX as Ptr),
        ],
        notifies: vec![
            ("destroyed", dead_n),
            ("another process's", qn),
            ("freed by a reset", reset_n),
            ("an event", e),
            ("a stream", new_stream()),
            ("forged", GARBAGE),
            ("all ones", usize::MAX as Ptr),
        ],
    }
}

/// Every new function with every bad stream and notify handle: 107017; NULL arguments and bad values: the codes
/// of each function's rows.
#[test]
fn every_new_function_with_null_and_garbage_arguments() {
    let m = acl_machine(2);
    on_machine(&m.clone(), move |_| {
        ok(aclrtSetDevice(0));
        let bad = bad_handles(&m);
        let s = new_stream();
        let d = malloc(16);
        let n = new_event(); // reused below as "not a notify"
        let mut v = aclrtStreamAttrValue { reserve: [0; 4] };
        let (mut i, mut u, mut sz, mut sz2) = (0i32, 0u32, 0usize, 0usize);
        unsafe extern "C" fn cb(_: *mut c_void) {}
        // SAFETY: every pointer that is read or written is NULL or valid; the garbage is in handles and device
        // addresses, which the simulator never dereferences.
        unsafe {
            for (what, b) in &bad.streams {
                let b = *b;
                assert_eq!(aclrtSetStreamFailureMode(b, 1), 107017, "{what}");
                assert_eq!(
                    aclrtSetStreamAttribute(b, ACL_STREAM_ATTR_PRIORITY, &mut v),
                    107017,
                    "{what}"
                );
                assert_eq!(
                    aclrtGetStreamAttribute(b, ACL_STREAM_ATTR_FAILURE_MODE, &mut v),
                    107017,
                    "{what}"
                );
                assert_eq!(aclrtStreamGetId(b, &mut i), 107017, "{what}");
                assert_eq!(aclrtSubscribeReport(1, b), 107017, "{what}");
                assert_eq!(aclrtUnSubscribeReport(1, b), 107017, "{what}");
                assert_eq!(
                    aclrtLaunchCallback(Some(cb), NULL, ACL_CALLBACK_BLOCK, b),
                    107017,
                    "{what}"
                );
                assert_eq!(aclrtValueWrite(d, 1, 0, b), 107017, "{what}");
                assert_eq!(aclrtValueWait(d, 1, 0, b), 107017, "{what}");
            }
            let good_n = {
                let mut x = NULL;
                ok(aclrtCreateNotify(&mut x, 0));
                x
            };
            for (what, b) in &bad.streams {
                assert_eq!(aclrtRecordNotify(good_n, *b), 107017, "{what}");
                assert_eq!(aclrtWaitAndResetNotify(good_n, *b, 0), 107017, "{what}");
            }
            for (what, b) in &bad.notifies {
                let b = *b;
                assert_eq!(aclrtRecordNotify(b, s), 107017, "{what}");
                assert_eq!(aclrtWaitAndResetNotify(b, s, 1), 107017, "{what}");
                assert_eq!(aclrtDestroyNotify(b), 107017, "{what}");
            }
            // NULL handles and out-pointers.
            assert_eq!(aclrtCreateNotify(std::ptr::null_mut(), 0), 100000);
            assert_eq!(aclrtDestroyNotify(NULL), 100000);
            assert_eq!(aclrtRecordNotify(NULL, s), 100000);
            assert_eq!(aclrtWaitAndResetNotify(NULL, s, 0), 100000);
            assert_eq!(aclrtValueWrite(NULL, 0, 0, s), 100000);
            assert_eq!(aclrtValueWait(NULL, 0, 0, s), 100000);
            assert_eq!(aclrtStreamGetId(s, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtGetRunMode(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtQueryDeviceStatus(0, std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtGetMemInfo(ACL_HBM_MEM, std::ptr::null_mut(), &mut sz),
                100000
            );
            assert_eq!(
                aclrtGetMemInfo(ACL_HBM_MEM, &mut sz, std::ptr::null_mut()),
                100000
            );
            assert_eq!(aclrtSetStreamAttribute(s, 1, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtGetStreamAttribute(s, 1, std::ptr::null_mut()), 100000);
            ok(aclrtDeviceGetStreamPriorityRange(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            ));
            assert_eq!(
                aclrtLaunchCallback(None, NULL, ACL_CALLBACK_BLOCK, s),
                107000
            );
            // Bad values.
            for flag in [2u64, 4, u64::MAX] {
                let mut x = NULL;
                assert_eq!(aclrtCreateNotify(&mut x, flag), 107000, "{flag:#x}");
            }
            for flag in [1u32, 2, u32::MAX] {
                assert_eq!(aclrtValueWrite(d, 0, flag, s), 107000, "{flag}");
            }
            for flag in [4u32, 5, u32::MAX] {
                assert_eq!(aclrtValueWait(d, 0, flag, s), 107000, "{flag}");
            }
            for attr in [0u32, 6, u32::MAX] {
                assert_eq!(aclrtSetStreamAttribute(s, attr, &mut v), 107000, "{attr}");
                assert_eq!(aclrtGetStreamAttribute(s, attr, &mut v), 107000, "{attr}");
            }
            for attr in [18u32, 1000, u32::MAX] {
                assert_eq!(aclrtGetMemInfo(attr, &mut sz, &mut sz2), 107000, "{attr}");
            }
            for block in [2u32, u32::MAX] {
                assert_eq!(
                    aclrtLaunchCallback(Some(cb), NULL, block, s),
                    100000,
                    "{block}"
                );
            }
            for t in [0, -2, i32::MIN] {
                assert_eq!(aclrtProcessReport(t), 100000, "{t}");
                assert_eq!(aclrtSynchronizeDeviceWithTimeout(t), 107000, "{t}");
            }
            for dev in [-1, 2, i32::MAX, i32::MIN] {
                assert_eq!(aclrtQueryDeviceStatus(dev, &mut u), 107001, "{dev}");
            }
            let unallocated = (DEVICE_ADDRESS_BASE + 0x7_0000) as Ptr;
            for addr in [GARBAGE, unallocated, usize::MAX as Ptr] {
                assert_eq!(aclrtValueWait(addr, 0, 0, s), 107000, "{addr:?}");
            }
            for addr in [unallocated, (usize::MAX & !7) as Ptr] {
                assert_eq!(aclrtValueWrite(addr, 0, 0, s), 107000, "{addr:?}");
            }
            assert_eq!(aclrtRecordNotify(n, s), 107017, "an event is no notify");
            // The calls that need no handle still work, and nothing was left waiting.
            ok(aclrtGetRunMode(&mut u));
            ok(aclrtSynchronizeDeviceWithTimeout(1000));
            ok(aclrtDestroyNotify(good_n));
        }
    });
}

/// The new functions on a process bound to a CUDA machine: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), as for the
/// other ACL functions (`runtime::run`); aclrtGetSocName is NULL
#[test]
fn the_new_functions_bound_to_a_cuda_machine() {
    let m = Machine::builder().build().unwrap();
    on_machine(&m, |_| {
        let (mut i, mut u, mut sz, mut sz2, mut x) = (0i32, 0u32, 0usize, 0usize, NULL);
        let mut v = aclrtStreamAttrValue { reserve: [0; 4] };
        unsafe extern "C" fn cb(_: *mut c_void) {}
        // SAFETY: valid out-pointers and host pointers.
        let codes = unsafe {
            [
                aclrtSetStreamFailureMode(NULL, 1),
                aclrtSetStreamAttribute(NULL, 1, &mut v),
                aclrtGetStreamAttribute(NULL, 1, &mut v),
                aclrtSetOpWaitTimeout(1),
                aclrtSubscribeReport(1, NULL),
                aclrtLaunchCallback(Some(cb), NULL, 1, NULL),
                aclrtProcessReport(1),
                aclrtUnSubscribeReport(1, NULL),
                aclrtCreateNotify(&mut x, 0),
                aclrtDestroyNotify(GARBAGE),
                aclrtRecordNotify(GARBAGE, NULL),
                aclrtWaitAndResetNotify(GARBAGE, NULL, 0),
                aclrtValueWrite(GARBAGE, 0, 0, NULL),
                aclrtValueWait(GARBAGE, 0, 0, NULL),
                aclrtSynchronizeDeviceWithTimeout(5),
                aclrtDeviceGetStreamPriorityRange(&mut i, &mut i),
                aclrtStreamGetId(NULL, &mut i),
                aclrtGetRunMode(&mut u),
                aclrtQueryDeviceStatus(0, &mut u),
                aclrtGetMemInfo(0, &mut sz, &mut sz2),
            ]
        };
        assert_eq!(codes, [207000; 20]);
        assert!(aclrtGetSocName().is_null());
    });
}
