//! Host code that dereferences a device pointer (`src/facade/host_deref.rs`): the process dies of the
//! segmentation fault, as on a GPU, after streamsim says which allocation the pointer is in. A fault that is
//! not a device address is left alone. `docs/semantics/sanitizer.md` ("memcheck").

use std::os::unix::process::ExitStatusExt as _;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use crate::cc_programs::cc;

/// Runs the corpus program in `mode`: (the signal that ended it, stdout, stderr).
fn deref(mode: &str) -> (Option<i32>, String, String) {
    // Built once: the tests run in parallel.
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    let exe = EXE.get_or_init(|| cc("host_deref", &["tests/cu/streamsim/host_deref.cu"], &[]));
    let o = crate::c_programs::run(exe, &[mode], &[], Duration::from_secs(60));
    (
        o.status.signal(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const ADVICE: &str = "A device pointer is not a host address (on a GPU this access is a segmentation fault \
                      too): copy the bytes with cudaMemcpy or allocate it with cudaMallocManaged\n";

#[test]
fn a_host_read_of_device_memory_names_the_allocation_and_crashes() {
    let (signal, out, err) = deref("read");
    assert_eq!(signal, Some(libc::SIGSEGV), "{out}{err}");
    assert_eq!(out, "allocated\n");
    assert_eq!(
        err,
        format!(
            "streamsim: host code read device memory at 0xd0000000000210: offset 16 of allocation #2 (4096 \
             bytes at 0xd0000000000200 on device 0, cudaMalloc at line 10 of host_deref.cu). {ADVICE}"
        )
    );
}

#[test]
fn a_host_write_of_device_memory_names_the_allocation_and_crashes() {
    let (signal, out, err) = deref("write");
    assert_eq!(signal, Some(libc::SIGSEGV), "{out}{err}");
    assert_eq!(
        err,
        format!(
            "streamsim: host code wrote device memory at 0xd00000000011a0: offset 4000 of allocation #2 (4096 \
             bytes at 0xd0000000000200 on device 0, cudaMalloc at line 10 of host_deref.cu). {ADVICE}"
        )
    );
}

#[test]
fn a_host_read_of_freed_device_memory_says_it_was_freed() {
    let (signal, _, err) = deref("freed");
    assert_eq!(signal, Some(libc::SIGSEGV), "{err}");
    assert_eq!(
        err,
        format!(
            "streamsim: host code read device memory at 0xd0000000000208: inside the 4096-byte allocation at \
             0xd0000000000200 (cudaMalloc at line 10 of host_deref.cu), at offset 8, which was freed (cudaFree at \
             line 22 of host_deref.cu). {ADVICE}"
        )
    );
}

#[test]
fn a_fault_that_is_not_device_memory_is_left_to_the_crash() {
    let (signal, out, err) = deref("null");
    assert_eq!(signal, Some(libc::SIGSEGV), "{out}{err}");
    assert_eq!(out, "allocated\n");
    assert_eq!(err, "");
}
