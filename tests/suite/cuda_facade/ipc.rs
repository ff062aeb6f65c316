//! cuda-musa.md rows through the CUDA facade: IPC.

use super::*;

/// Runs `f` with calls routed to `p`.
pub(super) fn on<T>(p: &Process, f: impl FnOnce() -> T) -> T {
    let _g = p.bind();
    f()
}

/// An interprocess event of `a` and its exported handle.
pub(super) fn exported(a: &Process) -> (cudaEvent_t, cudaIpcEventHandle_t) {
    on(a, || {
        let e = event(cudaEventDisableTiming | cudaEventInterprocess);
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        check!(cudaSuccess, cudaIpcGetEventHandle(&mut h, e));
        (e, h)
    })
}

/// cuda-musa.md · IPC · IpcGetEventHandle · event without Interprocess → 400
#[test]
fn ipc_get_handle_of_a_local_event() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    for flags in [0, cudaEventDisableTiming, cudaEventBlockingSync] {
        let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
        check!(
            cudaErrorInvalidResourceHandle,
            cudaIpcGetEventHandle(&mut h, event(flags))
        );
        assert_eq!(h.reserved, [0; 64]);
    }
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · in the exporting process → 201
#[test]
fn ipc_open_in_the_exporting_process() {
    let (_m, a) = machine(1);
    let (_, h) = exported(&a);
    on(&a, || {
        let mut e = null_mut();
        check!(
            cudaErrorDeviceUninitialized,
            cudaIpcOpenEventHandle(&mut e, h)
        );
        assert!(e.is_null());
    });
}

/// cuda-musa.md · IPC · IpcOpenEventHandle · zeroed or forged handle → 1
#[test]
fn ipc_open_zeroed_or_forged_handle() {
    let (m, a) = machine(1);
    let (_, h) = exported(&a);
    let b = m.process();
    // Another machine's handle (another seed: the same seed and ordinals would give the same bytes).
    let other_machine = Machine::builder().seed(1).build().unwrap().process();
    let (_, elsewhere) = exported(&other_machine);
    assert_ne!(elsewhere, h);
    let mut forged = h;
    forged.reserved[20] ^= 1;
    let mut garbage = cudaIpcEventHandle_t { reserved: [0; 64] };
    for (i, b) in garbage.reserved.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37) as c_char;
    }
    on(&b, || {
        for bad in [
            cudaIpcEventHandle_t { reserved: [0; 64] },
            forged,
            garbage,
            elsewhere,
        ] {
            let mut e = null_mut();
            check!(cudaErrorInvalidValue, cudaIpcOpenEventHandle(&mut e, bad));
        }
        let mut e = null_mut();
        check!(cudaSuccess, cudaIpcOpenEventHandle(&mut e, h));
    });
}

/// cuda-musa.md · IPC · opened event · — → behaves as a local DisableTiming event: Record, Query, Synchronize,
/// StreamWaitEvent work in either process; ElapsedTime → 400; freed with EventDestroy
#[test]
fn ipc_opened_event_works_in_both_processes() {
    let (m, a) = machine(1);
    let b = m.process();
    let (ea, h) = exported(&a);
    let (eb, sb) = on(&b, || {
        let mut eb = null_mut();
        check!(cudaSuccess, cudaIpcOpenEventHandle(&mut eb, h));
        (eb, stream(cudaStreamDefault))
    });
    let sa = on(&a, || {
        let sa = stream(cudaStreamDefault);
        check!(cudaSuccess, kernel(sa, 2_000));
        check!(cudaSuccess, cudaEventRecord(ea, sa));
        sa
    });
    let (hits, arg) = counter();
    on(&b, || {
        // A's record, seen from B.
        check!(cudaErrorNotReady, cudaEventQuery(eb));
        check!(cudaSuccess, cudaStreamWaitEvent(sb, eb, 0));
        check!(cudaSuccess, kernel_with(sb, 10, bump, arg));
        check!(cudaSuccess, cudaStreamSynchronize(sb));
        assert!(us(&b) > 2_000, "B's kernel waited for A's record");
        check!(cudaSuccess, cudaEventQuery(eb));
        // B records; A sees it.
        check!(cudaSuccess, kernel(sb, 50_000));
        check!(cudaSuccess, cudaEventRecord(eb, sb));
        let mut ms = 0.0f32;
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, eb, eb)
        );
        let timed = event(cudaEventDefault);
        check!(cudaSuccess, cudaEventRecord(timed, sb));
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, timed, eb)
        );
    });
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    on(&a, || {
        check!(cudaErrorNotReady, cudaEventQuery(ea));
        check!(cudaSuccess, cudaEventSynchronize(ea));
        assert!(us(&a) > 50_000, "A waited for B's record");
        check!(cudaSuccess, cudaStreamWaitEvent(sa, ea, 0));
        let mut ms = 0.0f32;
        check!(
            cudaErrorInvalidResourceHandle,
            cudaEventElapsedTime(&mut ms, ea, ea)
        );
    });
    on(&b, || {
        check!(cudaSuccess, cudaEventDestroy(eb));
        check!(cudaErrorInvalidResourceHandle, cudaEventQuery(eb));
    });
    on(&a, || check!(cudaSuccess, cudaEventQuery(ea)));
}
