//! Facade abuse: event calls with garbage handles, bad flags, NULL out-pointers and bad interprocess handles.

use super::*;

/// Every event-taking call with garbage event handles → 400; NULL out-pointers, bad flags, bad IPC handles
/// → 1.
#[test]
fn event_calls_with_garbage_handles_bad_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (m, p) = machine(2);
        let _g = p.bind();
        let s = new_stream(f);
        let good = new_event(f, 0);
        check!(f, cudaSuccess, (f.event_record)(good, s));
        let g = garbage(f, &m, "event");
        let mut ms = 12.5f32;
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        for (what, bad) in &g.items {
            let bad = *bad;
            // SAFETY (all calls): valid out-pointers; the event handle is the garbage.
            let codes = unsafe {
                [
                    ("EventRecord", (f.event_record)(bad, s)),
                    ("EventRecord NULL stream", (f.event_record)(bad, null_mut())),
                    (
                        "EventRecordWithFlags",
                        (f.event_record_with_flags)(bad, s, 0),
                    ),
                    ("EventQuery", (f.event_query)(bad)),
                    ("EventSynchronize", (f.event_synchronize)(bad)),
                    (
                        "EventElapsedTime start",
                        (f.event_elapsed_time)(&mut ms, bad, good),
                    ),
                    (
                        "EventElapsedTime end",
                        (f.event_elapsed_time)(&mut ms, good, bad),
                    ),
                    ("StreamWaitEvent", (f.stream_wait_event)(s, bad, 0)),
                    (
                        "StreamWaitEvent NULL stream",
                        (f.stream_wait_event)(null_mut(), bad, 0),
                    ),
                    ("IpcGetEventHandle", (f.ipc_get_event_handle)(&mut h, bad)),
                    ("EventDestroy", (f.event_destroy)(bad)),
                ]
            };
            for (call, got) in codes {
                assert_eq!(
                    got,
                    cudaErrorInvalidResourceHandle,
                    "{}{call} with a {what} event returned {got} ({})",
                    f.name,
                    f.err_name(got)
                );
            }
        }
        assert_eq!(ms, 12.5, "nothing written");
        assert_eq!(h.reserved, [0; 64]);
        // NULL out-pointers and bad flags.
        check!(f, cudaErrorInvalidValue, (f.event_create)(null_mut()));
        let mut e = null_mut();
        for flags in [0x4, 0x5, 0x8, 0x10, 0xff, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_create_with_flags)(&mut e, flags)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_create_with_flags)(null_mut(), flags)
            );
        }
        assert!(e.is_null());
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_create_with_flags)(null_mut(), 0)
        );
        // No bit but cudaEventRecordExternal (0x1) exists, and that one is invalid outside stream capture.
        for flags in [1, 2, 3, 0xff, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.event_record_with_flags)(good, s, flags)
            );
        }
        check!(f, cudaSuccess, (f.event_record_with_flags)(good, s, 0));
        // The refusals of the External flags say why, with the family's own constants.
        let says = |constant: &str| {
            let msg = p.peek_last_error().expect("the refusal").to_string();
            let why = format!("{}{constant} is only valid during stream capture", f.name);
            assert!(msg.contains(&why), "{}: {msg:?}", f.name);
        };
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_record_with_flags)(good, s, 1)
        );
        says("EventRecordExternal");
        check!(f, cudaErrorInvalidValue, (f.stream_wait_event)(s, good, 1));
        says("EventWaitExternal");
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_elapsed_time)(null_mut(), good, good)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.event_elapsed_time)(null_mut(), 0xdead_beef_usize as H, null_mut())
        );
        let ipc = new_event(f, cudaEventInterprocess | cudaEventDisableTiming);
        check!(
            f,
            cudaErrorInvalidValue,
            (f.ipc_get_event_handle)(null_mut(), ipc)
        );
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.ipc_get_event_handle)(&mut h, good)
        );
        check!(f, cudaSuccess, (f.ipc_get_event_handle)(&mut h, ipc));
        let exported = h;
        // IPC handles: zeroed, flipped bits, random bytes, NULL out-pointer; opened by another process.
        let q = m.process();
        on(&q, || {
            let mut opened = null_mut();
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(null_mut(), exported)
            );
            let zero = cudaIpcEventHandle_t { reserved: [0; 64] };
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(&mut opened, zero)
            );
            for i in [0, 8, 12, 16, 23, 24, 63] {
                let mut flipped = exported;
                flipped.reserved[i] ^= 0x40;
                check!(
                    f,
                    cudaErrorInvalidValue,
                    (f.ipc_open_event_handle)(&mut opened, flipped)
                );
            }
            let mut noise = zero;
            for (i, b) in noise.reserved.iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(151).wrapping_add(7) as c_char;
            }
            check!(
                f,
                cudaErrorInvalidValue,
                (f.ipc_open_event_handle)(&mut opened, noise)
            );
            assert!(opened.is_null());
            check!(
                f,
                cudaSuccess,
                (f.ipc_open_event_handle)(&mut opened, exported)
            );
            check!(f, cudaSuccess, (f.event_destroy)(opened));
            check!(f, cudaErrorInvalidResourceHandle, (f.event_destroy)(opened));
        });
        // After all that, the process works.
        check!(f, cudaSuccess, (f.event_synchronize)(good));
        check!(f, cudaSuccess, (f.event_elapsed_time)(&mut ms, good, good));
        assert_eq!(ms, 0.0);
    }
}
