//! The capture rules of CUDA and MUSA, row by row, with their exact codes (`docs/semantics/
//! capture-and-graphs.md`, section "CUDA / MUSA: capture"). Every test runs in both families.

use std::ffi::{c_int, c_uint};
use std::ptr::{null, null_mut};

use streamsim::cuda::{
    cudaErrorCapturedEvent, cudaErrorIllegalState, cudaErrorInvalidResourceHandle,
    cudaErrorInvalidValue, cudaErrorNotReady, cudaErrorStreamCaptureImplicit,
    cudaErrorStreamCaptureInvalidated, cudaErrorStreamCaptureIsolation,
    cudaErrorStreamCaptureMerge, cudaErrorStreamCaptureUnjoined, cudaErrorStreamCaptureUnmatched,
    cudaErrorStreamCaptureUnsupported, cudaErrorStreamCaptureWrongThread, cudaEventWaitExternal,
    cudaGraphNodeTypeKernel, cudaGraphNodeTypeWaitEvent, cudaStreamCaptureModeGlobal,
    cudaStreamCaptureModeRelaxed, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureStatusActive,
    cudaStreamCaptureStatusInvalidated, cudaStreamCaptureStatusNone, cudaStreamLegacy,
    cudaStreamNonBlocking, cudaStreamPerThread, cudaSuccess,
};
use streamsim::{Machine, Process};

use super::fam::{FAMILIES, Fam, H, check};

const GLOBAL: c_int = cudaStreamCaptureModeGlobal;

fn machine() -> (Machine, Process) {
    let m = Machine::builder().devices(1).build().unwrap();
    let p = m.process();
    (m, p)
}

/// Ends the capture of `s`, expecting `code`; the graph it returned (NULL on failure).
fn end(f: &Fam, s: H, code: c_uint) -> H {
    let mut g: H = 0x1 as H;
    check!(f, code, (f.end_capture)(s, &mut g));
    if code != cudaSuccess {
        assert!(g.is_null(), "{}: a failed end returns a NULL graph", f.name);
    }
    g
}

/// capture-and-graphs.md · CUDA · BeginCapture · the NULL / legacy stream → 900; cudaStreamPerThread → 0; a
/// capturing stream (begun on it, or joined through an event) → 401 IllegalState; a bad mode → 1; a destroyed
/// stream → 400
#[test]
fn begin_capture_refusals() {
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        check!(
            f,
            cudaErrorStreamCaptureUnsupported,
            (f.begin_capture)(null_mut(), GLOBAL)
        );
        check!(
            f,
            cudaErrorStreamCaptureUnsupported,
            (f.begin_capture)(cudaStreamLegacy, GLOBAL)
        );
        check!(
            f,
            cudaSuccess,
            (f.begin_capture)(cudaStreamPerThread, GLOBAL)
        );
        check!(
            f,
            cudaErrorIllegalState,
            (f.begin_capture)(cudaStreamPerThread, GLOBAL)
        );
        end(&f, cudaStreamPerThread, cudaSuccess);
        let (a, b) = (f.stream(0), f.stream(0));
        let e = f.event();
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.event_record)(e, a));
        check!(f, cudaSuccess, (f.stream_wait_event)(b, e, 0));
        // hip-tests hipStreamBeginCapture.cc · DetectingInvalidCapture: b is capturing through the wait.
        check!(f, cudaErrorIllegalState, (f.begin_capture)(b, GLOBAL));
        for bad in [-1, 3, 99] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.begin_capture)(f.stream(0), bad)
            );
        }
        end(&f, a, cudaSuccess);
        let gone = f.stream(0);
        check!(f, cudaSuccess, (f.stream_destroy)(gone));
        check!(
            f,
            cudaErrorInvalidResourceHandle,
            (f.begin_capture)(gone, GLOBAL)
        );
    }
}

/// capture-and-graphs.md · CUDA · EndCapture · not capturing → 401 IllegalState; NULL pGraph → 1; a stream that
/// only joined the capture → 903 (the capture goes on); the origin → 0 and every stream leaves capture mode
#[test]
fn end_capture_refusals() {
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        end(&f, a, cudaErrorIllegalState);
        end(&f, null_mut(), cudaErrorIllegalState);
        let e = f.event();
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaErrorInvalidValue, (f.end_capture)(a, null_mut()));
        check!(f, cudaSuccess, (f.event_record)(e, a));
        check!(f, cudaSuccess, (f.stream_wait_event)(b, e, 0));
        assert_eq!(f.status(b), cudaStreamCaptureStatusActive);
        end(&f, b, cudaErrorStreamCaptureUnmatched);
        assert_eq!(f.status(a), cudaStreamCaptureStatusActive);
        let g = end(&f, a, cudaSuccess);
        assert!(!g.is_null());
        assert_eq!(
            (f.status(a), f.status(b)),
            (cudaStreamCaptureStatusNone, cudaStreamCaptureStatusNone)
        );
        check!(f, cudaSuccess, (f.graph_destroy)(g));
    }
}

/// capture-and-graphs.md · CUDA · EndCapture · from another thread, begun global or thread-local → 908, the
/// capture ended with no graph; begun relaxed → 0
#[test]
fn end_capture_from_another_thread() {
    for f in FAMILIES {
        for (mode, want) in [
            (
                cudaStreamCaptureModeGlobal,
                cudaErrorStreamCaptureWrongThread,
            ),
            (
                cudaStreamCaptureModeThreadLocal,
                cudaErrorStreamCaptureWrongThread,
            ),
            (cudaStreamCaptureModeRelaxed, cudaSuccess),
        ] {
            let (_m, p) = machine();
            let _g = p.bind();
            let s = f.stream(0);
            check!(f, cudaSuccess, (f.begin_capture)(s, mode));
            check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
            let (p2, raw) = (p.clone(), s as usize);
            let got = std::thread::spawn(move || {
                let _g = p2.bind();
                let mut g: H = null_mut();
                // SAFETY: a live stream, a valid out-pointer.
                let r = unsafe { (f.end_capture)(raw as H, &mut g) };
                (r, g as usize)
            })
            .join()
            .unwrap();
            assert_eq!(got.0, want, "{} mode {mode}", f.name);
            assert_eq!(got.1 != 0, want == cudaSuccess);
            // Either way the capture is over.
            assert_eq!(f.status(s), cudaStreamCaptureStatusNone);
        }
    }
}

/// capture-and-graphs.md · CUDA · during capture · a synchronize or query of the capturing stream, a device
/// synchronize → 900, in every mode; the capture is invalidated: its stream reports Invalidated, the next
/// operation on it is 901, the end is 901 with a NULL graph, after which the stream works again
#[test]
fn synchronize_and_query_invalidate() {
    for f in FAMILIES {
        for mode in [
            cudaStreamCaptureModeGlobal,
            cudaStreamCaptureModeThreadLocal,
            cudaStreamCaptureModeRelaxed,
        ] {
            for which in 0..3 {
                let (_m, p) = machine();
                let _g = p.bind();
                let s = f.stream(0);
                check!(f, cudaSuccess, (f.begin_capture)(s, mode));
                check!(f, cudaSuccess, f.kernel(s, c"before", 1000));
                match which {
                    0 => check!(
                        f,
                        cudaErrorStreamCaptureUnsupported,
                        (f.stream_synchronize)(s)
                    ),
                    1 => check!(f, cudaErrorStreamCaptureUnsupported, (f.stream_query)(s)),
                    _ => check!(
                        f,
                        cudaErrorStreamCaptureUnsupported,
                        (f.device_synchronize)()
                    ),
                }
                assert_eq!(f.status(s), cudaStreamCaptureStatusInvalidated);
                check!(
                    f,
                    cudaErrorStreamCaptureInvalidated,
                    f.kernel(s, c"after", 1000)
                );
                end(&f, s, cudaErrorStreamCaptureInvalidated);
                assert_eq!(f.status(s), cudaStreamCaptureStatusNone);
                check!(f, cudaSuccess, f.kernel(s, c"eager", 1000));
                check!(f, cudaSuccess, (f.stream_synchronize)(s));
            }
        }
    }
}

/// capture-and-graphs.md · CUDA · during capture · query, synchronize or elapsed time of an event recorded in
/// the capture → 907 CapturedEvent (and the capture is invalidated); after the capture ends the event is still
/// a captured one (sim) until it is recorded outside a capture
#[test]
fn captured_events_cannot_be_queried() {
    for f in FAMILIES {
        for which in 0..3 {
            let (_m, p) = machine();
            let _g = p.bind();
            let s = f.stream(0);
            let (e, other) = (f.event(), f.event());
            check!(f, cudaSuccess, (f.event_record)(other, f.stream(0)));
            check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
            check!(f, cudaSuccess, (f.event_record)(e, s));
            let mut ms = 0.0f32;
            match which {
                0 => check!(f, cudaErrorCapturedEvent, (f.event_query)(e)),
                1 => check!(f, cudaErrorCapturedEvent, (f.event_synchronize)(e)),
                _ => check!(
                    f,
                    cudaErrorCapturedEvent,
                    (f.event_elapsed_time)(&mut ms, other, e)
                ),
            }
            assert_eq!(f.status(s), cudaStreamCaptureStatusInvalidated);
            end(&f, s, cudaErrorStreamCaptureInvalidated);
            check!(f, cudaErrorCapturedEvent, (f.event_query)(e));
            check!(f, cudaSuccess, (f.event_record)(e, s));
            check!(f, cudaSuccess, (f.event_synchronize)(e));
        }
    }
}

/// capture-and-graphs.md · CUDA · legacy stream · while a blocking stream captures: an operation on the NULL
/// stream, a synchronous cudaMemcpy / cudaMemset, a synchronize or query of the NULL stream → 906, invalidating
/// the capture; cudaStreamIsCapturing(NULL) → 906 without invalidating it (hip-tests hipStreamIsCapturing.cc)
#[test]
fn the_legacy_stream_while_a_blocking_stream_captures() {
    for f in FAMILIES {
        for which in 0..5 {
            let (_m, p) = machine();
            let _g = p.bind();
            let s = f.stream(0);
            let mut d: H = null_mut();
            check!(f, cudaSuccess, (f.malloc)(&mut d, 64));
            let host = [0u8; 64];
            check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
            let mut st = 0;
            check!(
                f,
                cudaErrorStreamCaptureImplicit,
                (f.is_capturing)(null_mut(), &mut st)
            );
            assert_eq!(
                f.status(s),
                cudaStreamCaptureStatusActive,
                "IsCapturing does not invalidate"
            );
            match which {
                0 => check!(
                    f,
                    cudaErrorStreamCaptureImplicit,
                    f.kernel(null_mut(), c"k", 1000)
                ),
                1 => check!(
                    f,
                    cudaErrorStreamCaptureImplicit,
                    (f.memcpy)(d, host.as_ptr().cast(), 64, 1)
                ),
                2 => check!(f, cudaErrorStreamCaptureImplicit, (f.memset)(d, 0, 64)),
                3 => check!(
                    f,
                    cudaErrorStreamCaptureImplicit,
                    (f.stream_synchronize)(null_mut())
                ),
                _ => check!(
                    f,
                    cudaErrorStreamCaptureImplicit,
                    (f.stream_query)(null_mut())
                ),
            }
            assert_eq!(
                f.status(s),
                cudaStreamCaptureStatusInvalidated,
                "case {which}"
            );
            end(&f, s, cudaErrorStreamCaptureInvalidated);
        }
    }
}

/// capture-and-graphs.md · CUDA · legacy stream · a non-blocking stream's capture does not involve the legacy
/// stream: the NULL stream's work and cudaMemcpy run, and the capture ends with its graph
#[test]
fn the_legacy_stream_while_a_non_blocking_stream_captures() {
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        let s = f.stream(cudaStreamNonBlocking);
        let mut d: H = null_mut();
        check!(f, cudaSuccess, (f.malloc)(&mut d, 64));
        let host = [7u8; 64];
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"captured", 1000));
        check!(f, cudaSuccess, f.kernel(null_mut(), c"eager", 1000));
        check!(f, cudaSuccess, (f.memcpy)(d, host.as_ptr().cast(), 64, 1));
        let mut st = 0;
        check!(f, cudaSuccess, (f.is_capturing)(null_mut(), &mut st));
        assert_eq!(st, cudaStreamCaptureStatusNone);
        let g = end(&f, s, cudaSuccess);
        assert_eq!(f.node_count(g), 1);
    }
}

/// capture-and-graphs.md · CUDA · EndCapture · a forked stream with captured work not joined back → 904
/// (hip-tests EndingCapwhenCapInProg: both sections); a fork that captured nothing needs no join → 0
#[test]
fn unjoined_work() {
    for f in FAMILIES {
        for case in 0..3 {
            let (_m, p) = machine();
            let _g = p.bind();
            let (a, b) = (f.stream(0), f.stream(0));
            let (e1, e2) = (f.event(), f.event());
            check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
            check!(f, cudaSuccess, f.kernel(a, c"a", 1000));
            check!(f, cudaSuccess, (f.event_record)(e1, a));
            check!(f, cudaSuccess, (f.stream_wait_event)(b, e1, 0));
            let want = match case {
                0 => {
                    check!(f, cudaSuccess, f.kernel(b, c"b", 1000));
                    cudaErrorStreamCaptureUnjoined
                }
                1 => {
                    check!(f, cudaSuccess, f.kernel(b, c"b", 1000));
                    check!(f, cudaSuccess, (f.event_record)(e2, b));
                    check!(f, cudaSuccess, (f.stream_wait_event)(a, e2, 0));
                    check!(f, cudaSuccess, f.kernel(b, c"after join", 1000));
                    cudaErrorStreamCaptureUnjoined
                }
                _ => cudaSuccess,
            };
            end(&f, a, want);
            assert_eq!(f.status(b), cudaStreamCaptureStatusNone, "case {case}");
        }
    }
}

/// capture-and-graphs.md · CUDA · StreamWaitEvent · a capturing stream waits on an event captured by another
/// capture → 902 Merge, invalidating both; on an event recorded outside the capture → 905 Isolation; with
/// cudaEventWaitExternal → 0, an event wait node; on a never-recorded event → 0, nothing
#[test]
fn waits_across_the_capture_boundary() {
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        let (a, b) = (f.stream(0), f.stream(0));
        let e = f.event();
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.begin_capture)(b, GLOBAL));
        check!(f, cudaSuccess, (f.event_record)(e, a));
        check!(
            f,
            cudaErrorStreamCaptureMerge,
            (f.stream_wait_event)(b, e, 0)
        );
        assert_eq!(f.status(a), cudaStreamCaptureStatusInvalidated);
        assert_eq!(f.status(b), cudaStreamCaptureStatusInvalidated);
        end(&f, a, cudaErrorStreamCaptureInvalidated);
        end(&f, b, cudaErrorStreamCaptureInvalidated);

        let (eager, never) = (f.event(), f.event());
        check!(f, cudaSuccess, f.kernel(b, c"eager", 1000));
        check!(f, cudaSuccess, (f.event_record)(eager, b));
        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(f, cudaSuccess, (f.stream_wait_event)(a, never, 0));
        check!(
            f,
            cudaSuccess,
            (f.stream_wait_event)(a, eager, cudaEventWaitExternal)
        );
        check!(f, cudaSuccess, f.kernel(a, c"k", 1000));
        let g = end(&f, a, cudaSuccess);
        let nodes = f.nodes(g);
        assert_eq!(nodes.len(), 2, "the wait node and the kernel");
        let mut t = 99;
        check!(f, cudaSuccess, (f.node_get_type)(nodes[0], &mut t));
        assert_eq!(t, cudaGraphNodeTypeWaitEvent);
        check!(f, cudaSuccess, (f.node_get_type)(nodes[1], &mut t));
        assert_eq!(t, cudaGraphNodeTypeKernel);

        check!(f, cudaSuccess, (f.begin_capture)(a, GLOBAL));
        check!(
            f,
            cudaErrorStreamCaptureIsolation,
            (f.stream_wait_event)(a, eager, 0)
        );
        assert_eq!(f.status(a), cudaStreamCaptureStatusInvalidated);
        end(&f, a, cudaErrorStreamCaptureInvalidated);
    }
}

/// capture-and-graphs.md · CUDA · thread capture modes · cudaMalloc while the thread's own capture is global or
/// thread-local → 900, invalidating it; the thread switched to relaxed (cudaThreadExchangeStreamCaptureMode) → 0
/// (hip-tests UnsafeCallsDuringCapture)
#[test]
fn malloc_during_capture_follows_the_thread_mode() {
    for f in FAMILIES {
        for begun in [
            cudaStreamCaptureModeGlobal,
            cudaStreamCaptureModeThreadLocal,
        ] {
            let (_m, p) = machine();
            let _g = p.bind();
            let s = f.stream(0);
            check!(f, cudaSuccess, (f.begin_capture)(s, begun));
            let mut mode = cudaStreamCaptureModeRelaxed;
            check!(f, cudaSuccess, (f.exchange_capture_mode)(&mut mode));
            assert_eq!(mode, cudaStreamCaptureModeGlobal, "a thread starts global");
            let mut d: H = null_mut();
            check!(f, cudaSuccess, (f.malloc)(&mut d, 64));
            check!(f, cudaSuccess, (f.exchange_capture_mode)(&mut mode));
            assert_eq!(mode, cudaStreamCaptureModeRelaxed);
            assert_eq!(f.status(s), cudaStreamCaptureStatusActive);
            check!(f, cudaErrorStreamCaptureUnsupported, (f.malloc)(&mut d, 64));
            assert_eq!(f.status(s), cudaStreamCaptureStatusInvalidated);
            end(&f, s, cudaErrorStreamCaptureInvalidated);
        }
        // A relaxed capture prohibits nothing.
        let (_m, p) = machine();
        let _g = p.bind();
        let s = f.stream(0);
        check!(
            f,
            cudaSuccess,
            (f.begin_capture)(s, cudaStreamCaptureModeRelaxed)
        );
        let mut d: H = null_mut();
        check!(f, cudaSuccess, (f.malloc)(&mut d, 64));
        check!(f, cudaSuccess, (f.free)(d));
        end(&f, s, cudaSuccess);
    }
}

/// capture-and-graphs.md · CUDA · thread capture modes · another thread's cudaEventQuery of an unrelated event
/// while a global capture is in progress → 900 in its default (global) mode, invalidating the capture (the NCCL
/// watchdog of pytorch/pytorch#104555); in thread-local or relaxed mode the query is answered (600 NotReady: the
/// watchdog thread's virtual clock, 2 µs, is before the record's end); a thread-local or relaxed capture does not
/// concern other threads
#[test]
fn other_threads_and_global_captures() {
    for f in FAMILIES {
        for (begun, watchdog, want) in [
            (GLOBAL, GLOBAL, cudaErrorStreamCaptureUnsupported),
            (GLOBAL, cudaStreamCaptureModeThreadLocal, cudaErrorNotReady),
            (GLOBAL, cudaStreamCaptureModeRelaxed, cudaErrorNotReady),
            (cudaStreamCaptureModeThreadLocal, GLOBAL, cudaErrorNotReady),
            (cudaStreamCaptureModeRelaxed, GLOBAL, cudaErrorNotReady),
        ] {
            let (_m, p) = machine();
            let _g = p.bind();
            let s = f.stream(0);
            let done = f.event();
            check!(f, cudaSuccess, (f.event_record)(done, f.stream(0)));
            check!(f, cudaSuccess, (f.begin_capture)(s, begun));
            let (p2, e) = (p.clone(), done as usize);
            let got = std::thread::spawn(move || {
                let _g = p2.bind();
                let mut mode: c_int = watchdog;
                // SAFETY: valid pointers and handles.
                unsafe {
                    assert_eq!((f.exchange_capture_mode)(&mut mode), 0);
                    (f.event_query)(e as H)
                }
            })
            .join()
            .unwrap();
            assert_eq!(got, want, "{} begun {begun}, watchdog {watchdog}", f.name);
            let end_code = if want == cudaErrorNotReady {
                cudaSuccess
            } else {
                cudaErrorStreamCaptureInvalidated
            };
            end(&f, s, end_code);
        }
    }
}

/// capture-and-graphs.md · CUDA · during capture · cudaStreamAddCallback on a capturing stream → 900 ("not
/// supported with cudaStreamBeginCapture", the function's note), invalidating the capture
#[test]
fn stream_callbacks_cannot_be_captured() {
    unsafe extern "C" fn cb(_: H, _: c_uint, _: H) {}
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(
            f,
            cudaErrorStreamCaptureUnsupported,
            (f.stream_add_callback)(s, Some(cb), null_mut(), 0)
        );
        end(&f, s, cudaErrorStreamCaptureInvalidated);
        let _ = null::<u8>();
    }
}

/// capture-and-graphs.md · CUDA · StreamDestroy · a capturing origin stream can be destroyed (hip-tests
/// hipStreamEndCapture.cc): its capture ends without a graph; ending it is then 400 (HIP: 709)
#[test]
fn destroying_the_origin_stream_ends_its_capture() {
    for f in FAMILIES {
        let (_m, p) = machine();
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        check!(f, cudaSuccess, (f.stream_destroy)(s));
        end(&f, s, cudaErrorInvalidResourceHandle);
        // Nothing is left that captures: a device synchronize works.
        check!(f, cudaSuccess, (f.device_synchronize)());
    }
}

/// capture-and-graphs.md · CUDA · bad handles · the capture calls and a graph launch with a forged
/// (0xdeadbeef), destroyed or another process's stream → 400 cudaErrorInvalidResourceHandle, as every stream
/// call (cuda-musa.md); nothing begins, and the launch enqueues nothing
#[test]
fn capture_calls_with_bad_streams() {
    for f in FAMILIES {
        let (m, p) = machine();
        let theirs = {
            let q = m.process();
            let _g = q.bind();
            f.stream(0)
        };
        let _g = p.bind();
        let s = f.stream(0);
        check!(f, cudaSuccess, (f.begin_capture)(s, GLOBAL));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1000));
        let g = end(&f, s, cudaSuccess);
        let mut x: H = null_mut();
        check!(f, cudaSuccess, (f.instantiate)(&mut x, g, 0));
        let dead = f.stream(0);
        check!(f, cudaSuccess, (f.stream_destroy)(dead));
        for bad in [0xdead_beef as H, dead, theirs] {
            let mut status: c_uint = 7;
            let mut id = 0u64;
            let mut graph: H = null_mut();
            let mut deps: *const H = null();
            let mut n = 0usize;
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.begin_capture)(bad, GLOBAL)
            );
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.end_capture)(bad, &mut graph)
            );
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.is_capturing)(bad, &mut status)
            );
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.get_capture_info)(bad, &mut status, &mut id, &mut graph, &mut deps, &mut n)
            );
            check!(
                f,
                cudaErrorInvalidResourceHandle,
                (f.update_capture_dependencies)(bad, null_mut(), 0, 0)
            );
            check!(f, cudaErrorInvalidResourceHandle, (f.graph_launch)(x, bad));
            assert!(graph.is_null());
        }
        check!(f, cudaSuccess, (f.device_synchronize)());
        assert!(m.trace().ops.is_empty(), "{}: {:#?}", f.name, m.trace().ops);
    }
}
