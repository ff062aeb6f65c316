//! C programs for the semantics of issue 12 (item 1) that real programs showed wrong, built and run like those
//! of `c_programs.rs` (C11 and C++17, `-Wall -Wextra -Werror`, under a time limit): ports of public programs
//! that exercise them — NVIDIA cuda-samples simpleIPC's event ring across 3 devices, hip-tests' NULL-stream
//! query / synchronize cases, the CANN runtime's IPC-event samples and its device_P2P sample (a memset of
//! aclrtMallocHost memory). Each file says where it came from and what was changed.

use crate::c_programs::build_and_run;

/// acl.md · Peers, memory · Memset / MemsetAsync · host memory from aclrtMallocHost → works: the CANN runtime's
/// device_P2P sample (example/1_basic_features/device/2_device_P2P) on 2 devices, its memset of pinned memory
/// a real write (read back), an asynchronous one after a kernel, and pageable memory refused with 107000.
#[test]
fn acl_memset_of_pinned_memory_sample() {
    for out in build_and_run(
        "acl_memset_pinned",
        "acl_memset_pinned",
        &[],
        &[("STREAMSIM_DEVICES", "2")],
    ) {
        assert!(
            out.contains("The data read from the memory is 103, verify success!"),
            "{out}"
        );
        assert!(
            out.trim_end()
                .ends_with("Run the device_P2P sample successfully."),
            "{out}"
        );
    }
}

/// cuda-musa.md · Stream wait, streams, devices · StreamQuery / StreamSynchronize · the NULL (legacy) stream →
/// 600 while any earlier work of the device's blocking streams runs; synchronize waits for all of it: hip-tests'
/// hipStreamQuery / hipStreamSynchronize cases translated to CUDA names (null stream, per-thread stream, ten
/// streams, the non-AMD SynchronizeStreamAndQueryNullStream branch with its three sections).
#[test]
fn hip_tests_null_stream_query_and_synchronize() {
    for out in build_and_run("null_stream_sync", "null_stream_sync", &[], &[]) {
        assert_eq!(out.trim(), "null stream query / synchronize: ok");
    }
}

/// acl.md · Events · StreamWaitEvent · an ACL_EVENT_IPC event, local or opened with IpcOpenEventHandle → 0;
/// waits for its record, on one device or across devices; opened IPC event → RecordEvent on the opener's stream
/// works: the CANN runtime's ipcevent samples (0_ipcevent: A and B on device 0; 1_ipcevent_multi_device: a
/// producer on device 0 and consumers on devices 1 and 2), each process a simulated process on its own thread.
/// B's stream waits for A's record exactly (a timed event after the wait is at 1007 µs).
#[test]
fn acl_ipc_event_samples() {
    for out in build_and_run("acl_ipc_wait", "acl_ipc_wait", &[], &[]) {
        assert!(
            out.contains("[SUCCESS] IPC event synchronization works correctly."),
            "{out}"
        );
        assert!(
            out.contains("[SUCCESS] IPC event multi-device synchronization works correctly."),
            "{out}"
        );
        for line in [
            "Consumer 1: IPC event opened on device 1",
            "Consumer 2: IPC event opened on device 2",
            "Consumer 2 (device 2) finished successfully.",
            "Process B: event status = 1 (1=completed)",
        ] {
            assert!(out.contains(line), "{line:?} in {out}");
        }
    }
}

/// cuda-musa.md · IPC · opened event · — → belongs to the opener's current device at the open (cuda-samples
/// simpleIPC records an opened event on a stream of another device than the exporter's): NVIDIA's simpleIPC
/// on 3 devices — the parent's events, one per device, opened by one child per device, recorded in a ring on
/// each child's own stream for three steps — with every child finding its buffer written by the next child.
/// The kernels write host stand-ins of the buffers (IPC memory is not simulated yet); nothing but the IPC
/// events orders them. (With the opened events on the exporter's device, every record of another device's
/// event on a child's stream was 400.)
#[test]
fn simple_ipc_event_ring_across_three_devices() {
    for out in build_and_run(
        "simple_ipc_ring",
        "simple_ipc_ring",
        &[],
        &[("STREAMSIM_DEVICES", "3")],
    ) {
        assert!(!out.contains("mismatch"), "{out}");
        assert!(!out.contains("not peer capable"), "{out}");
        for line in [
            "Process 0: Starting on device 0...",
            "Process 1: Starting on device 1...",
            "Process 2: Starting on device 2...",
            "Step 0 done",
            "Step 1 done",
            "Step 2 done",
            "Process 0 complete!",
            "Process 1 complete!",
            "Process 2 complete!",
        ] {
            assert!(out.contains(line), "{line:?} in {out}");
        }
        assert_eq!(out.matches("verifying...").count(), 3, "{out}");
    }
}

/// IPC handle bytes print nothing that differs between runs except the OS process id (issue 12, item 6): two
/// runs of one C program (two OS processes) export the same CUDA and ACL events; their handles' 64 bytes are
/// identical but for bytes 24..28 (`IpcEventHandle::OS_PROCESS_BYTES`), which hold each run's OS process id and
/// so differ — which is also what makes a handle of the other run refused
/// (`ipc_handle_from_another_os_process_is_refused*` in `c_programs.rs`).
#[test]
fn ipc_handles_of_two_runs_differ_only_in_the_os_process_id() {
    use crate::c_programs::{Lang, assert_success, build, run, toolchain};
    let exe = build(
        &toolchain().c_dir.join("ipc_foreign.c"),
        "ipc_foreign-two_runs",
        Lang::C,
        &[],
    );
    let limit = std::time::Duration::from_secs(60);
    let bytes: Vec<Vec<Vec<u8>>> = (0..2)
        .map(|run_no| {
            let prefix = toolchain()
                .out_dir
                .join(format!("ipc-two-runs-{}-{run_no}", std::process::id()));
            let prefix = prefix.to_str().expect("a UTF-8 path").to_string();
            assert_success("export", &run(&exe, &["export", &prefix], &[], limit));
            ["cuda", "acl"]
                .iter()
                .map(|suffix| {
                    let path = format!("{prefix}.{suffix}");
                    let b = std::fs::read(&path).expect("the exported handle");
                    let _ = std::fs::remove_file(&path);
                    b
                })
                .collect()
        })
        .collect();
    for (api, (first, second)) in ["cuda", "acl"].iter().zip(bytes[0].iter().zip(&bytes[1])) {
        assert_eq!(first.len(), 64, "{api}");
        let differing: Vec<usize> = (0..64).filter(|&i| first[i] != second[i]).collect();
        assert!(
            !differing.is_empty(),
            "{api}: two OS processes have two process ids"
        );
        // The OS process id (24..28) and, on the shared host of the default machines, where the export lives
        // there (28..64: the run's epoch, the check value; IpcEventHandle::HOST_BYTES).
        assert!(
            differing.iter().all(|i| (24..64).contains(i)),
            "{api}: bytes {differing:?} differ"
        );
        assert_eq!(&first[..8], b"SSIMIPC1", "{api}");
    }
}
