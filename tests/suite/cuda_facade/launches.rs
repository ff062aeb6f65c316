//! cuda-musa.md rows through the CUDA facade: launches.

use super::*;

/// `cudasimLaunchKernel` / `cudasimLaunchKernelEx`: a C body runs once with its argument, in stream order;
/// the Ex variant's declared accesses are checked at launch (1 InvalidValue for memory that is not a live
/// allocation of this process, or `flags` that are not READ, WRITE or both), NULL name and NULL body are allowed.
#[test]
fn launch_kernel_with_a_c_body_and_declared_accesses() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let s = stream(cudaStreamDefault);
    let d = dmalloc(1024);
    let log = new_log();
    check!(
        cudaSuccess,
        cudasimLaunchKernel(s, c"first".as_ptr(), 100_000, Some(log_tag), tag(log, "a"))
    );
    let acc = |ptr: *mut c_void, bytes, flags| streamsimAccess {
        ptr: ptr.cast_const(),
        bytes,
        flags,
    };
    let (read, write) = (
        streamsim::capi::STREAMSIM_ACCESS_READ,
        streamsim::capi::STREAMSIM_ACCESS_WRITE,
    );
    let ok = [acc(d, 512, read), acc(d.wrapping_byte_add(512), 512, write)];
    check!(
        cudaSuccess,
        cudasimLaunchKernelEx(
            s,
            c"ex".as_ptr(),
            1_000,
            Some(log_tag),
            tag(log, "b"),
            ok.as_ptr(),
            2
        )
    );
    check!(
        cudaSuccess,
        cudasimLaunchKernel(s, null(), 0, None, null_mut())
    );
    check!(
        cudaSuccess,
        cudasimLaunchKernelEx(s, null(), 0, None, null_mut(), null(), 0)
    );
    for bad in [
        acc(d, 1025, read),
        acc(d.wrapping_byte_add(1024), 1, write),
        acc(d, 16, 0),
        acc(d, 16, 4),
        acc(d, 16, -1),
        acc(null_mut(), 16, read),
        acc(d.wrapping_byte_add(1 << 30), 16, write),
    ] {
        let (hits, arg) = counter();
        check!(
            cudaErrorInvalidValue,
            cudasimLaunchKernelEx(s, c"bad".as_ptr(), 1_000, Some(bump), arg, &bad, 1)
        );
        check!(cudaSuccess, cudaStreamSynchronize(s));
        assert_eq!(
            hits.load(Ordering::SeqCst),
            0,
            "a refused launch does not run"
        );
    }
    check!(
        cudaErrorInvalidValue,
        cudasimLaunchKernelEx(s, c"null".as_ptr(), 1_000, None, null_mut(), null(), 3)
    );
    check!(cudaSuccess, cudaStreamSynchronize(s));
    assert_eq!(*log.lock().unwrap(), ["a", "b"]);
    let t = m.trace();
    let first = t.find("first").expect("traced");
    let ex = t.find("ex").expect("traced");
    assert_eq!(first.end.as_nanos() - first.start.as_nanos(), 100_000);
    assert_eq!(ex.start, first.end);
    assert_eq!(
        t.find("kernel")
            .map(|k| k.end.as_nanos() - k.start.as_nanos()),
        Some(0)
    );
}
