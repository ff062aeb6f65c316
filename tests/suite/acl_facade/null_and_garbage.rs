//! acl.md rows through the ACL facade: NULL and garbage.

use super::*;

/// Every acl function with NULL and garbage arguments (forged handles, destroyed handles, another process's
/// handles, handles of the wrong kind, unallocated device addresses): vendor codes, no panic, no crash.
#[test]
fn every_function_with_null_and_garbage_arguments() {
    let m = acl_machine(2);
    let q = m.process();
    on_machine(&m, move |p| {
        // Another process's stream, event, context and memory.
        let (qs, qe, qc, qd) = {
            let _b = q.bind();
            ok(aclrtSetDevice(0));
            (new_stream(), new_event(), current_context(), malloc(16))
        };
        ok(aclrtSetDevice(0));
        let (s, e, c, d) = (new_stream(), new_event(), current_context(), malloc(16));
        let (dead_s, dead_e) = (new_stream(), new_event());
        ok(aclrtDestroyStream(dead_s));
        ok(aclrtDestroyEvent(dead_e));
        let unallocated = (DEVICE_ADDRESS_BASE + 0x1234) as Ptr;
        let host = [0u8; 16];
        let hp = host.as_ptr() as *const c_void;
        let (mut x, mut st, mut v, mut i, mut u, mut ms, mut ts) =
            (NULL, 0u32, 0i64, 0i32, 0u32, 0f32, 0u64);
        let mut h = aclrtIpcEventHandle { reserved: [0; 64] };
        let bad_streams = [
            GARBAGE,
            dead_s,
            qs,
            e,
            c,
            1 as Ptr,
            2 as Ptr,
            usize::MAX as Ptr,
        ];
        let bad_events = [GARBAGE, dead_e, qe, s, c, usize::MAX as Ptr];
        let bad_contexts = [GARBAGE, qc, s, e, usize::MAX as Ptr];
        // SAFETY: every pointer that is read or written is NULL or valid; the garbage values are handles or
        // device addresses, which the simulator never dereferences.
        unsafe {
            // init and messages
            assert_eq!(
                aclInit(GARBAGE as *const c_char),
                0,
                "the config path is not read"
            );
            assert_eq!(aclInit(std::ptr::null()), 100002);
            assert!(!aclGetRecentErrMsg().is_null());
            assert_eq!(aclFinalize(), 0);
            // devices
            for id in [-1, 2, i32::MAX, i32::MIN] {
                assert_eq!(aclrtSetDevice(id), 107001);
                assert_eq!(aclrtResetDevice(id), 107001);
                assert_eq!(aclrtResetDeviceForce(id), 107001);
                assert_eq!(aclrtDeviceEnablePeerAccess(id, 0), 107001);
                assert_eq!(aclrtDeviceDisablePeerAccess(id), 107001);
                assert_eq!(aclrtDeviceCanAccessPeer(&mut i, id, 0), 107001);
                assert_eq!(aclrtDeviceCanAccessPeer(&mut i, 0, id), 107001);
                assert_eq!(aclrtCreateContext(&mut x, id), 107001);
            }
            assert_eq!(aclrtGetDevice(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtGetDeviceCount(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, std::ptr::null_mut()),
                100000
            );
            assert_eq!(
                aclrtGetDeviceInfo(u32::MAX, ACL_DEV_ATTR_WARP_SIZE, &mut v),
                107001
            );
            assert_eq!(aclrtGetDeviceInfo(0, u32::MAX, &mut v), 100000);
            assert_eq!(aclrtDeviceCanAccessPeer(std::ptr::null_mut(), 0, 1), 100000);
            // contexts
            assert_eq!(aclrtCreateContext(std::ptr::null_mut(), 0), 100000);
            assert_eq!(aclrtGetCurrentContext(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtDestroyContext(NULL), 100000);
            assert_eq!(aclrtSetCurrentContext(NULL), 100000);
            for bad in bad_contexts {
                assert_eq!(aclrtDestroyContext(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSetCurrentContext(bad), 107017, "{bad:?}");
            }
            // streams
            assert_eq!(aclrtCreateStream(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtCreateStreamWithConfig(std::ptr::null_mut(), 0, 0),
                100000
            );
            assert_eq!(aclrtCreateStreamWithConfig(&mut x, 0, 0x4000), 100000);
            ok(aclrtCreateStreamWithConfig(
                &mut x,
                u32::MAX,
                ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC,
            ));
            assert_eq!(aclrtDestroyStream(NULL), 100000);
            assert_eq!(aclrtDestroyStreamForce(NULL), 100000);
            assert_eq!(aclrtStreamQuery(s, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtSynchronizeStreamWithTimeout(s, 0), 107000);
            assert_eq!(aclrtLaunchHostFunc(s, None, NULL), 100000);
            for bad in bad_streams {
                assert_eq!(aclrtDestroyStream(bad), 107017, "{bad:?}");
                assert_eq!(aclrtDestroyStreamForce(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeStream(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeStreamWithTimeout(bad, 5), 107017, "{bad:?}");
                assert_eq!(aclrtStreamQuery(bad, &mut st), 107017, "{bad:?}");
                assert_eq!(aclrtStreamWaitEvent(bad, e), 107017, "{bad:?}");
                assert_eq!(aclrtRecordEvent(e, bad), 107017, "{bad:?}");
                assert_eq!(
                    aclrtLaunchHostFunc(bad, Some(noop), NULL),
                    107017,
                    "{bad:?}"
                );
                assert_eq!(kernel(bad, 1), 107017, "{bad:?}");
                assert_eq!(
                    aclrtMemcpyAsync(d, 16, hp, 16, ACL_MEMCPY_HOST_TO_DEVICE, bad),
                    107017
                );
                assert_eq!(aclrtMemsetAsync(d, 16, 0, 16, bad), 107017, "{bad:?}");
            }
            // kernels
            ok(aclsimLaunchKernel(s, std::ptr::null(), 0, None, NULL));
            let bad_access = streamsimAccess {
                ptr: unallocated,
                bytes: 8,
                flags: streamsim::capi::STREAMSIM_ACCESS_WRITE,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &bad_access, 1),
                107000
            );
            let bad_flag = streamsimAccess {
                ptr: d,
                bytes: 8,
                flags: 7,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &bad_flag, 1),
                100000
            );
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, std::ptr::null(), 3),
                100000
            );
            let fine = [
                streamsimAccess {
                    ptr: d,
                    bytes: 8,
                    flags: streamsim::capi::STREAMSIM_ACCESS_READ,
                },
                streamsimAccess {
                    ptr: d,
                    bytes: 16,
                    flags: streamsim::capi::STREAMSIM_ACCESS_READ
                        | streamsim::capi::STREAMSIM_ACCESS_WRITE,
                },
            ];
            ok(aclsimLaunchKernelEx(
                s,
                c"k".as_ptr(),
                5,
                Some(noop),
                NULL,
                fine.as_ptr(),
                2,
            ));
            let foreign = streamsimAccess {
                ptr: qd,
                bytes: 8,
                flags: streamsim::capi::STREAMSIM_ACCESS_READ,
            };
            assert_eq!(
                aclsimLaunchKernelEx(s, c"k".as_ptr(), 0, None, NULL, &foreign, 1),
                107000
            );
            // events
            assert_eq!(aclrtCreateEvent(std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtCreateEventWithFlag(std::ptr::null_mut(), ACL_EVENT_SYNC),
                100000
            );
            assert_eq!(
                aclrtCreateEventExWithFlag(std::ptr::null_mut(), ACL_EVENT_SYNC),
                100000
            );
            for flag in [0x4, 0x80, 0x100, u32::MAX] {
                assert_eq!(aclrtCreateEventWithFlag(&mut x, flag), 100000, "{flag:#x}");
                assert_eq!(
                    aclrtCreateEventExWithFlag(&mut x, flag),
                    100000,
                    "{flag:#x}"
                );
            }
            assert_eq!(aclrtQueryEvent(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtQueryEventStatus(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtEventElapsedTime(std::ptr::null_mut(), e, e), 100000);
            assert_eq!(aclrtEventGetTimestamp(e, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtIpcGetEventHandle(e, std::ptr::null_mut()), 100000);
            assert_eq!(
                aclrtIpcGetEventHandle(e, &mut h),
                107000,
                "not an IPC event"
            );
            assert_eq!(aclrtIpcOpenEventHandle(h, &mut x), 507022, "zeroed bytes");
            h.reserved = [0x41; 64];
            assert_eq!(aclrtIpcOpenEventHandle(h, &mut x), 507022, "forged bytes");
            assert_eq!(aclrtIpcOpenEventHandle(h, std::ptr::null_mut()), 100000);
            assert_eq!(aclrtSynchronizeEventWithTimeout(e, -7), 107000);
            for bad in bad_events {
                assert_eq!(aclrtDestroyEvent(bad), 107017, "{bad:?}");
                assert_eq!(aclrtRecordEvent(bad, s), 107017, "{bad:?}");
                assert_eq!(aclrtResetEvent(bad, s), 107017, "{bad:?}");
                assert_eq!(aclrtQueryEvent(bad, &mut u), 107017, "{bad:?}");
                assert_eq!(aclrtQueryEventStatus(bad, &mut u), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeEvent(bad), 107017, "{bad:?}");
                assert_eq!(aclrtSynchronizeEventWithTimeout(bad, 5), 107017, "{bad:?}");
                assert_eq!(aclrtEventElapsedTime(&mut ms, bad, e), 107017, "{bad:?}");
                assert_eq!(aclrtEventElapsedTime(&mut ms, e, bad), 107017, "{bad:?}");
                assert_eq!(aclrtEventGetTimestamp(bad, &mut ts), 107017, "{bad:?}");
                assert_eq!(aclrtStreamWaitEvent(s, bad), 107017, "{bad:?}");
                assert_eq!(aclrtIpcGetEventHandle(bad, &mut h), 107017, "{bad:?}");
            }
            // memory
            assert_eq!(
                aclrtMalloc(std::ptr::null_mut(), 16, ACL_MEM_MALLOC_HUGE_FIRST),
                100000
            );
            assert_eq!(aclrtMalloc(&mut x, 16, 8), 100000, "unknown policy");
            assert_eq!(
                aclrtMalloc(&mut x, 16, 0x2000_0000),
                100000,
                "unknown policy bit"
            );
            assert_eq!(
                aclrtMalloc(&mut x, 1 << 50, ACL_MEM_MALLOC_HUGE_FIRST),
                207001,
                "out of memory"
            );
            assert_eq!(aclrtMallocHost(std::ptr::null_mut(), 16), 100000);
            assert_eq!(aclrtFree(NULL), 100000);
            assert_eq!(aclrtFreeHost(NULL), 100000);
            for bad in [GARBAGE, unallocated, qd] {
                assert_eq!(aclrtFree(bad), 107000, "{bad:?}");
                assert_eq!(aclrtFreeHost(bad), 107000, "{bad:?}");
                assert_eq!(aclrtMemset(bad, 16, 0, 16), 107000, "{bad:?}");
            }
            let freed = malloc(16);
            ok(aclrtFree(freed));
            assert_eq!(aclrtFree(freed), 107000, "freed twice");
            for (dst, src) in [(unallocated, hp), (qd, hp), (freed, hp)] {
                assert_eq!(
                    aclrtMemcpy(dst, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE),
                    107000
                );
                assert_eq!(
                    aclrtMemcpyAsync(dst, 16, src, 16, ACL_MEMCPY_DEFAULT, s),
                    107000
                );
            }
            let mut out = [0u8; 16];
            let op = out.as_mut_ptr() as Ptr;
            assert_eq!(
                aclrtMemcpy(op, 16, unallocated, 16, ACL_MEMCPY_DEVICE_TO_HOST),
                107000
            );
            assert_eq!(
                aclrtMemcpy(NULL, 16, hp, 16, ACL_MEMCPY_HOST_TO_DEVICE),
                100000
            );
            assert_eq!(
                aclrtMemcpy(d, 16, std::ptr::null(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
                100000
            );
            assert_eq!(aclrtMemcpy(d, 16, hp, 16, 8), 100000, "unknown kind");
            assert_eq!(
                aclrtMemcpy(d, 16, hp, 16, ACL_MEMCPY_DEVICE_TO_HOST),
                107000,
                "kind vs pointers"
            );
            assert_eq!(
                aclrtMemcpy(op, 16, hp, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
                107000,
                "kind vs pointers"
            );
            ok(aclrtMemcpy(op, 16, hp, 16, ACL_MEMCPY_HOST_TO_HOST));
            ok(aclrtMemcpy(d, 16, hp, 16, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
            assert_eq!(aclrtMemset(NULL, 16, 0, 16), 100000);
            assert_eq!(aclrtMemsetAsync(NULL, 16, 0, 16, s), 100000);
            assert_eq!(aclrtMemset(d, 16, 0, 17), 107000);
            ok(aclrtMemset(d, 16, 0x1FF, 16));
            // A runtime call from inside a host function.
            let pr = probe();
            pr.code.store(-1, SeqCst);
            ok(aclrtLaunchHostFunc(s, Some(synchronize_inside), arg(pr)));
            ok(aclrtSynchronizeStream(s));
            assert_eq!(pr.code.load(SeqCst), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        }
        // The process still works after all that.
        ok(kernel(s, 10));
        ok(aclrtSynchronizeDevice());
        assert!(p.peek_last_error().is_some());
    });
    // Bound to a machine of another dialect: every ACL call says so.
    let cuda = Machine::builder().devices(1).build().unwrap();
    on_machine(&cuda, |_| {
        assert_eq!(aclrtSetDevice(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        // A launch too (its route lends the bound process rather than cloning it).
        assert_eq!(
            // SAFETY: a NUL-terminated name, no body.
            unsafe { aclsimLaunchKernel(NULL, c"k".as_ptr(), 0, None, NULL) },
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT
        );
        assert_eq!(aclrtSynchronizeDevice(), 207000);
        assert!(last_msg().contains("dialect"), "{}", last_msg());
    });
}
