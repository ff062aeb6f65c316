//! Facade abuse: stream calls with bad handles, flags and priorities.

use super::*;

/// Every stream-taking call with garbage stream handles → 400; NULL out-pointers and bad flags → 1.
#[test]
fn stream_calls_with_garbage_handles_bad_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let good_e = new_event(f, 0);
        let d = dmalloc(f, 64);
        let host = pinned(f, 64);
        let g = garbage(f, &m, "stream");
        let (mut fl, mut prio, mut id) = (99_u32, 99, 99_u64);
        for (what, h) in &g.items {
            let h = *h;
            let acc = streamsimAccess {
                ptr: d,
                bytes: 64,
                flags: streamsim::capi::STREAMSIM_ACCESS_WRITE,
            };
            // SAFETY (all calls): valid out-pointers and buffers; the stream handle is the garbage.
            let codes = unsafe {
                [
                    ("StreamDestroy", (f.stream_destroy)(h)),
                    ("StreamSynchronize", (f.stream_synchronize)(h)),
                    ("StreamQuery", (f.stream_query)(h)),
                    ("StreamWaitEvent", (f.stream_wait_event)(h, good_e, 0)),
                    ("StreamGetFlags", (f.stream_get_flags)(h, &mut fl)),
                    ("StreamGetPriority", (f.stream_get_priority)(h, &mut prio)),
                    ("StreamGetId", (f.stream_get_id)(h, &mut id)),
                    ("StreamGetDevice", (f.stream_get_device)(h, &mut prio)),
                    (
                        "LaunchHostFunc",
                        (f.launch_host_func)(h, Some(nothing), null_mut()),
                    ),
                    (
                        "StreamAddCallback",
                        (f.stream_add_callback)(h, Some(no_callback), null_mut(), 0),
                    ),
                    ("EventRecord", (f.event_record)(good_e, h)),
                    (
                        "EventRecordWithFlags",
                        (f.event_record_with_flags)(good_e, h, 0),
                    ),
                    (
                        "MemcpyAsync",
                        (f.memcpy_async)(d, host, 64, cudaMemcpyHostToDevice, h),
                    ),
                    ("MemcpyPeerAsync", (f.memcpy_peer_async)(d, 0, d, 0, 64, h)),
                    ("MemsetAsync", (f.memset_async)(d, 0, 64, h)),
                    (
                        "LaunchKernel",
                        (f.launch_kernel)(h, null(), 10, Some(nothing), null_mut()),
                    ),
                    (
                        "LaunchKernelEx",
                        (f.launch_kernel_ex)(h, null(), 10, Some(nothing), null_mut(), &acc, 1),
                    ),
                ]
            };
            for (call, got) in codes {
                assert_eq!(
                    got,
                    cudaErrorInvalidResourceHandle,
                    "{}{call} with a {what} stream returned {got} ({})",
                    f.name,
                    f.err_name(got)
                );
            }
            assert_eq!(
                (fl, prio, id),
                (99, 99, 99),
                "nothing written through out-pointers"
            );
        }
        // The special handles cannot be destroyed.
        for special in [null_mut(), cudaStreamLegacy, cudaStreamPerThread] {
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.stream_destroy)(special)
            );
        }
        // NULL out-pointers, bad flags.
        let s = new_stream(f);
        check!(f, cudaErrorInvalidValue, (f.stream_create)(null_mut()));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_create_with_flags)(null_mut(), 0)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_create_with_priority)(null_mut(), 0, 0)
        );
        let mut out = null_mut();
        for flags in [2, 3, 0x100, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_create_with_flags)(&mut out, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_create_with_priority)(&mut out, flags, -1)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_wait_event)(s, good_e, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.stream_add_callback)(s, Some(no_callback), null_mut(), flags)
            );
        }
        assert!(out.is_null());
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_get_flags)(s, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_get_priority)(s, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.launch_host_func)(s, None, null_mut())
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.stream_add_callback)(s, None, null_mut(), 0)
        );
        // Extreme priorities are clamped, not refused.
        for prio in [c_int::MIN, c_int::MAX] {
            check!(
                f,
                cudaSuccess,
                (f.stream_create_with_priority)(&mut out, 1, prio)
            );
        }
        // After all that, the process works.
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(s, c"ok".as_ptr(), 10, None, null_mut())
        );
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.stream_destroy)(s));
        check!(f, cudaSuccess, (f.device_synchronize)());
    }
}
