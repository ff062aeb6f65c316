//! The C programs of `tests/c` about stream capture and graphs (ported public programs), built as C11 and C++17
//! and run with the helpers of [`crate::c_programs`].

use crate::c_programs::build_and_run;

/// ROCm hip-tests' stream-capture tests (hipStreamBeginCapture / EndCapture / IsCapturing / GetCaptureInfo /
/// GraphLaunch), translated to the CUDA names: every check passes, in both languages. The unordered increments
/// of the two incrementKernel tests are atomic on the GPU: races are collected, not printed.
#[test]
fn hip_tests_stream_capture() {
    for out in build_and_run(
        "hip_tests_stream_capture",
        "hip_tests_stream_capture",
        &[],
        &[("STREAMSIM_RACES", "collect")],
    ) {
        assert!(
            out.contains("hip-tests stream capture: all checks passed"),
            "{out}"
        );
    }
}
