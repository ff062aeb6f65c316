//! Facade abuse: the simulator's kernel launch calls with bad streams, NULL names and bodies, extreme durations and bad
//! declared accesses.

use super::*;

/// Kernel launches with bad streams, NULL names / bodies, extreme durations and bad declared accesses.
#[test]
fn kernel_launches_with_bad_arguments() {
    for f in FAMILIES {
        let (m, p) = machine(1);
        let _g = p.bind();
        let s = new_stream(f);
        let d = dmalloc(f, 256);
        let freed = dmalloc(f, 64);
        check!(f, cudaSuccess, (f.free)(freed));
        let theirs = on(&m.process(), || dmalloc(f, 64));
        let acc = |ptr: H, bytes: usize, flags: c_int| streamsimAccess { ptr, bytes, flags };
        let (read, write) = (
            streamsim::capi::STREAMSIM_ACCESS_READ,
            streamsim::capi::STREAMSIM_ACCESS_WRITE,
        );
        for (what, a, want) in [
            ("valid read", acc(d, 256, read), 0),
            ("valid write", acc(d, 256, write), 0),
            ("valid read | write", acc(d, 256, read | write), 0),
            ("flags = 0", acc(d, 16, 0), 1),
            ("flags = 4", acc(d, 16, 4), 1),
            ("flags = -1", acc(d, 16, -1), 1),
            ("flags = MAX", acc(d, 16, c_int::MAX), 1),
            ("NULL ptr", acc(null_mut(), 16, read), 1),
            ("0xdeadbeef", acc(0xdead_beef_usize as H, 16, write), 1),
            ("unallocated", acc(unallocated(), 16, read), 1),
            ("no such device", acc(no_such_device(), 16, read), 1),
            ("freed", acc(freed, 16, write), 1),
            ("another process's", acc(theirs, 16, write), 1),
            ("out of range", acc(d, 257, read), 1),
            ("bytes usize::MAX", acc(d, usize::MAX, write), 1),
        ] {
            // SAFETY: one valid access struct; its pointer is only checked by the simulator.
            let got = unsafe {
                (f.launch_kernel_ex)(s, c"k".as_ptr(), 10, Some(nothing), null_mut(), &a, 1)
            };
            assert_eq!(
                got,
                want,
                "{}simLaunchKernelEx ({what}): {got} ({})",
                f.name,
                f.err_name(got)
            );
        }
        // NULL accesses with a count; a dangling pointer with count 0 is never read.
        check!(
            f,
            cudaErrorInvalidValue,
            (f.launch_kernel_ex)(s, null(), 10, None, null_mut(), null(), 3)
        );
        let dangling = NonNull::<streamsimAccess>::dangling().as_ptr();
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel_ex)(s, null(), 10, None, null_mut(), dangling, 0)
        );
        // NULL name, NULL body, zero duration.
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(s, null(), 0, None, null_mut())
        );
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(null_mut(), null(), 0, None, null_mut())
        );
        // Garbage streams.
        for bad in [0xdead_beef_usize as H, usize::MAX as H, 3_usize as H] {
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.launch_kernel)(bad, null(), 10, Some(nothing), null_mut())
            );
        }
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        // The longest possible kernel: accepted, forever not ready (virtual time saturates, nothing waits).
        let forever = new_stream(f);
        check!(
            f,
            cudaSuccess,
            (f.launch_kernel)(forever, c"forever".as_ptr(), u64::MAX, None, null_mut())
        );
        check!(f, cudaErrorNotReady, (f.stream_query)(forever));
        check!(f, cudaSuccess, (f.stream_query)(s));
    }
}
