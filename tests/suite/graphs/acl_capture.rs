//! ACL's capture into model runtime instances, row by row with the CANN codes (`docs/semantics/
//! capture-and-graphs.md`, section "ACL"; the runtime's checks are cited there).

use std::ffi::{CStr, c_void};
use std::ptr::null_mut;

use streamsim::acl::*;
use streamsim::{CaptureMode, Dialect, Machine, Process, Stream};

type H = *mut c_void;

macro_rules! ok {
    ($want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: NULL or valid pointers, as the C contract requires.
        let got = unsafe { $call };
        assert_eq!(got, $want, "`{}` returned {got}", stringify!($call));
    }};
}

fn machine() -> (Machine, Process) {
    let m = Machine::builder()
        .devices(1)
        .dialect(Dialect::Acl)
        .build()
        .unwrap();
    let p = m.process();
    (m, p)
}

fn stream() -> H {
    let mut s = null_mut();
    ok!(ACL_SUCCESS, aclrtCreateStream(&mut s));
    s
}

/// An event of aclrtCreateEventExWithFlag(ACL_EVENT_SYNC), as the cross-stream capture guide makes them.
fn event() -> H {
    let mut e = null_mut();
    ok!(
        ACL_SUCCESS,
        aclrtCreateEventExWithFlag(&mut e, ACL_EVENT_SYNC)
    );
    e
}

fn kernel(s: H, name: &CStr) -> aclError {
    // SAFETY: a static name, no body.
    unsafe { aclsimLaunchKernel(s, name.as_ptr(), 10_000, None, null_mut()) }
}

fn status(s: H) -> aclmdlRICaptureStatus {
    let mut st = 99;
    ok!(ACL_SUCCESS, aclmdlRICaptureGetInfo(s, &mut st, null_mut()));
    st
}

fn end(s: H, want: aclError) -> H {
    let mut m: H = 0x1 as H;
    ok!(want, aclmdlRICaptureEnd(s, &mut m));
    if want != ACL_SUCCESS {
        assert!(m.is_null(), "a failed end returns NULL");
    }
    m
}

const GLOBAL: aclmdlRICaptureMode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

/// capture-and-graphs.md · ACL · aclmdlRICaptureBegin · NULL stream → 100000 (ACL_REQUIRES_NOT_NULL); a mode
/// past RELAXED → 107000; a capturing stream (its own capture or a joined one) → 107027; the default stream →
/// 207000 ("The default stream … cannot be used in the ACL Graph"); another context's stream → 107003
#[test]
fn begin_refusals() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    ok!(
        ACL_ERROR_INVALID_PARAM,
        aclmdlRICaptureBegin(null_mut(), GLOBAL)
    );
    let (a, b) = (stream(), stream());
    ok!(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICaptureBegin(a, 3));
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(a, GLOBAL));
    ok!(
        ACL_ERROR_RT_STREAM_CAPTURED,
        aclmdlRICaptureBegin(a, GLOBAL)
    );
    let e = event();
    ok!(ACL_SUCCESS, aclrtRecordEvent(e, a));
    ok!(ACL_SUCCESS, aclrtStreamWaitEvent(b, e));
    ok!(
        ACL_ERROR_RT_STREAM_CAPTURED,
        aclmdlRICaptureBegin(b, GLOBAL)
    );
    end(a, ACL_SUCCESS);
    // The default stream has no handle in C (NULL is refused first): through the engine.
    let e = p
        .begin_capture(Stream::DEFAULT, CaptureMode::Global)
        .unwrap_err();
    assert_eq!(streamsim::export::acl_code(&e).0, 207_000, "{e}");
    let mut ctx = null_mut();
    ok!(ACL_SUCCESS, aclrtCreateContext(&mut ctx, 0));
    ok!(ACL_ERROR_RT_STREAM_CONTEXT, aclmdlRICaptureBegin(a, GLOBAL));
}

/// capture-and-graphs.md · ACL · aclmdlRICaptureEnd · NULL stream → 100000; NULL modelRI → 107000; not
/// capturing → 107029; a stream that only joined → 107036; another thread (not relaxed) → 107038 and the capture
/// is over; relaxed from another thread → 0
#[test]
fn end_refusals() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let (a, b) = (stream(), stream());
    ok!(
        ACL_ERROR_INVALID_PARAM,
        aclmdlRICaptureEnd(null_mut(), null_mut())
    );
    end(a, ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(a, GLOBAL));
    ok!(
        ACL_ERROR_RT_PARAM_INVALID,
        aclmdlRICaptureEnd(a, null_mut())
    );
    let e = event();
    ok!(ACL_SUCCESS, aclrtRecordEvent(e, a));
    ok!(ACL_SUCCESS, aclrtStreamWaitEvent(b, e));
    end(b, ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    let model = end(a, ACL_SUCCESS);
    ok!(ACL_SUCCESS, aclmdlRIDestroy(model));
    for (mode, want) in [
        (GLOBAL, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD),
        (
            ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
            ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
        ),
        (ACL_MODEL_RI_CAPTURE_MODE_RELAXED, ACL_SUCCESS),
    ] {
        ok!(ACL_SUCCESS, aclmdlRICaptureBegin(a, mode));
        ok!(ACL_SUCCESS, kernel(a, c"k"));
        let (p2, raw) = (p.clone(), a as usize);
        let got = std::thread::spawn(move || {
            let _g = p2.bind();
            // SAFETY: valid arguments.
            unsafe {
                assert_eq!(aclrtSetDevice(0), ACL_SUCCESS);
                let mut m = null_mut();
                aclmdlRICaptureEnd(raw as H, &mut m)
            }
        })
        .join()
        .unwrap();
        assert_eq!(got, want, "mode {mode}");
        assert_eq!(status(a), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    }
}

/// capture-and-graphs.md · ACL · during capture · a synchronize or query of the capturing stream, a
/// synchronize of its device, its destruction → 107027; the capture is not invalidated (the runtime's checks
/// return before the capture) and ends with its model
#[test]
fn synchronize_query_destroy() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let s = stream();
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(ACL_SUCCESS, kernel(s, c"k"));
    ok!(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(s));
    let mut st = 0;
    ok!(ACL_ERROR_RT_STREAM_CAPTURED, aclrtStreamQuery(s, &mut st));
    ok!(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeDevice());
    ok!(ACL_ERROR_RT_STREAM_CAPTURED, aclrtDestroyStream(s));
    assert_eq!(status(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    let model = end(s, ACL_SUCCESS);
    ok!(ACL_SUCCESS, aclmdlRIExecuteAsync(model, s));
    ok!(ACL_SUCCESS, aclrtSynchronizeStream(s));
    ok!(ACL_SUCCESS, aclmdlRIDestroy(model));
}

/// capture-and-graphs.md · ACL · during capture · status query, synchronize and elapsed time of an event
/// recorded in the capture → 107028; an event of aclrtCreateEvent recorded in a capture → 207000
#[test]
fn captured_events() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let s = stream();
    let (e, plain) = (event(), {
        let mut e = null_mut();
        ok!(ACL_SUCCESS, aclrtCreateEvent(&mut e));
        e
    });
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(ACL_SUCCESS, aclrtRecordEvent(e, s));
    let mut st = 0;
    ok!(
        ACL_ERROR_RT_EVENT_CAPTURED,
        aclrtQueryEventStatus(e, &mut st)
    );
    ok!(ACL_ERROR_RT_EVENT_CAPTURED, aclrtSynchronizeEvent(e));
    let mut ms = 0.0f32;
    ok!(
        ACL_ERROR_RT_EVENT_CAPTURED,
        aclrtEventElapsedTime(&mut ms, e, e)
    );
    ok!(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRecordEvent(plain, s));
    end(s, ACL_SUCCESS);
}

/// capture-and-graphs.md · ACL · capture modes · aclrtMemcpy and aclrtMemset during a GLOBAL capture → 107030;
/// after aclmdlRICaptureThreadExchangeMode(RELAXED) they run once, uncaptured (the single-stream capture
/// guide's example); the exchange returns the previous mode; NULL → 100000; mode 3 → 107000
#[test]
fn synchronous_copies_and_the_thread_mode() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let s = stream();
    let mut d = null_mut();
    ok!(ACL_SUCCESS, aclrtMalloc(&mut d, 64, 0));
    let host = [3u8; 64];
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(
        ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
        aclrtMemcpy(d, 64, host.as_ptr().cast(), 64, ACL_MEMCPY_HOST_TO_DEVICE)
    );
    ok!(
        ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
        aclrtMemset(d, 64, 0, 64)
    );
    let mut mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ok!(ACL_SUCCESS, aclmdlRICaptureThreadExchangeMode(&mut mode));
    assert_eq!(mode, GLOBAL);
    ok!(
        ACL_SUCCESS,
        aclrtMemcpy(d, 64, host.as_ptr().cast(), 64, ACL_MEMCPY_HOST_TO_DEVICE)
    );
    let mut back = [0u8; 64];
    ok!(
        ACL_SUCCESS,
        aclrtMemcpy(back.as_mut_ptr().cast(), 64, d, 64, 2)
    );
    assert_eq!(back, host, "the copy ran at once");
    ok!(ACL_SUCCESS, aclmdlRICaptureThreadExchangeMode(&mut mode));
    assert_eq!(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    ok!(
        ACL_ERROR_INVALID_PARAM,
        aclmdlRICaptureThreadExchangeMode(null_mut())
    );
    let mut bad = 3;
    ok!(
        ACL_ERROR_RT_PARAM_INVALID,
        aclmdlRICaptureThreadExchangeMode(&mut bad)
    );
    // The status is still active: nothing was invalidated.
    assert_eq!(status(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    end(s, ACL_SUCCESS);
}

/// capture-and-graphs.md · ACL · cross-stream capture · a sub stream not joined back → 107025; a wait on an
/// event recorded outside the capture → 107024; a wait joining two captures → 107032 and both are invalidated
/// (TerminateCapture): their ends → 507903; the default stream waiting on a captured event → 107031; an
/// asynchronous copy of pageable host memory → 107000
#[test]
fn cross_stream_rules() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let (a, b) = (stream(), stream());
    let (e1, e2) = (event(), event());
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(a, GLOBAL));
    ok!(ACL_SUCCESS, aclrtRecordEvent(e1, a));
    ok!(ACL_SUCCESS, aclrtStreamWaitEvent(b, e1));
    ok!(ACL_SUCCESS, kernel(b, c"sub"));
    end(a, ACL_ERROR_RT_STREAM_UNJOINED);

    ok!(ACL_SUCCESS, kernel(b, c"eager"));
    ok!(ACL_SUCCESS, aclrtRecordEvent(e2, b));
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(a, GLOBAL));
    ok!(ACL_ERROR_RT_CAPTURE_DEPENDENCY, aclrtStreamWaitEvent(a, e2));
    ok!(ACL_SUCCESS, aclrtRecordEvent(e1, a));
    ok!(
        ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
        aclrtStreamWaitEvent(null_mut(), e1)
    );
    let mut pinned = null_mut();
    ok!(ACL_SUCCESS, aclrtMallocHost(&mut pinned, 64));
    let mut d = null_mut();
    ok!(ACL_SUCCESS, aclrtMalloc(&mut d, 64, 0));
    let pageable = [0u8; 64];
    ok!(
        ACL_ERROR_RT_PARAM_INVALID,
        aclrtMemcpyAsync(
            d,
            64,
            pageable.as_ptr().cast(),
            64,
            ACL_MEMCPY_HOST_TO_DEVICE,
            a
        )
    );
    ok!(
        ACL_SUCCESS,
        aclrtMemcpyAsync(d, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, a)
    );
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(b, GLOBAL));
    ok!(
        ACL_ERROR_STREAM_CAPTURE_CONFLICT,
        aclrtStreamWaitEvent(b, e1)
    );
    assert_eq!(status(a), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    assert_eq!(status(b), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    end(a, ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    end(b, ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
}

/// capture-and-graphs.md · ACL · aclmdlRIExecuteAsync / aclmdlRIDestroy / aclmdlRICaptureGetInfo · a NULL model
/// → 100000; a destroyed one → 107017; on a capturing stream → 107027; from another context → 107004;
/// GetInfo with both outputs NULL → 100000, NULL stream → 100000, and during the capture the model handle that
/// aclmdlRICaptureEnd then returns
#[test]
fn execute_destroy_get_info() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let s = stream();
    ok!(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(null_mut(), s));
    ok!(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(null_mut()));
    ok!(
        ACL_ERROR_INVALID_PARAM,
        aclmdlRICaptureGetInfo(s, null_mut(), null_mut())
    );
    let mut st = 0;
    ok!(
        ACL_ERROR_INVALID_PARAM,
        aclmdlRICaptureGetInfo(null_mut(), &mut st, null_mut())
    );
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(ACL_SUCCESS, kernel(s, c"k"));
    let mut building: H = null_mut();
    ok!(
        ACL_SUCCESS,
        aclmdlRICaptureGetInfo(s, &mut st, &mut building)
    );
    assert_eq!(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    assert!(!building.is_null());
    let model = end(s, ACL_SUCCESS);
    assert_eq!(
        model, building,
        "GetInfo and End hand out the same aclmdlRI"
    );
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRIExecuteAsync(model, s));
    end(s, ACL_SUCCESS);
    ok!(ACL_SUCCESS, aclmdlRIExecuteAsync(model, null_mut()));
    ok!(ACL_SUCCESS, aclrtSynchronizeDevice());
    let mut ctx = null_mut();
    ok!(ACL_SUCCESS, aclrtCreateContext(&mut ctx, 0));
    ok!(
        ACL_ERROR_RT_MODEL_CONTEXT,
        aclmdlRIExecuteAsync(model, null_mut())
    );
    let mut dead = null_mut();
    ok!(ACL_SUCCESS, aclrtGetCurrentContext(&mut dead));
    ok!(ACL_SUCCESS, aclmdlRIDestroy(model));
    ok!(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIDestroy(model));
    ok!(
        ACL_ERROR_RT_INVALID_HANDLE,
        aclmdlRIExecuteAsync(model, null_mut())
    );
}

/// capture-and-graphs.md · ACL · aclmdlRICaptureThreadExchangeMode · without a current context → 107002
#[test]
fn exchange_needs_a_context() {
    let (_m, p) = machine();
    let _g = p.bind();
    let mut mode = GLOBAL;
    ok!(
        ACL_ERROR_RT_CONTEXT_NULL,
        aclmdlRICaptureThreadExchangeMode(&mut mode)
    );
}

/// capture-and-graphs.md · ACL · bad handles · every model call with a forged (0xdeadbeef), destroyed,
/// wrong-kind (a stream) or another process's or machine's model → 107017 ACL_ERROR_RT_INVALID_HANDLE; the
/// capture calls with a forged or destroyed stream → 107017, as every stream call (acl.md)
#[test]
fn bad_model_and_stream_handles() {
    // A model of another process and one of another machine.
    let foreign = |same_machine: Option<&Machine>| {
        let (m2, p2) = machine();
        let q = match same_machine {
            Some(m) => m.process(),
            None => p2,
        };
        let _g = q.bind();
        ok!(ACL_SUCCESS, aclrtSetDevice(0));
        let s = stream();
        ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
        ok!(ACL_SUCCESS, kernel(s, c"theirs"));
        let x = end(s, ACL_SUCCESS);
        drop(m2);
        x
    };
    let (m, p) = machine();
    let theirs = foreign(Some(&m));
    let elsewhere = foreign(None);
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let s = stream();
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    ok!(ACL_SUCCESS, kernel(s, c"k"));
    let dead = end(s, ACL_SUCCESS);
    ok!(ACL_SUCCESS, aclmdlRIDestroy(dead));
    let dead_stream = stream();
    ok!(ACL_SUCCESS, aclrtDestroyStream(dead_stream));
    for x in [0xdead_beef as H, dead, s, theirs, elsewhere] {
        ok!(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIExecuteAsync(x, s));
        ok!(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIDestroy(x));
    }
    for bad in [0xdead_beef as H, dead_stream] {
        let mut st = 0;
        let mut x: H = null_mut();
        ok!(
            ACL_ERROR_RT_INVALID_HANDLE,
            aclmdlRICaptureBegin(bad, GLOBAL)
        );
        ok!(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRICaptureEnd(bad, &mut x));
        ok!(
            ACL_ERROR_RT_INVALID_HANDLE,
            aclmdlRICaptureGetInfo(bad, &mut st, &mut x)
        );
        let model = {
            ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
            ok!(ACL_SUCCESS, kernel(s, c"k"));
            end(s, ACL_SUCCESS)
        };
        ok!(
            ACL_ERROR_RT_INVALID_HANDLE,
            aclmdlRIExecuteAsync(model, bad)
        );
        ok!(ACL_SUCCESS, aclmdlRIDestroy(model));
        assert!(x.is_null());
    }
}

/// capture-and-graphs.md · Not simulated · stream-ordered memory in a capture · `aclrtMemPoolMallocAsync` /
/// `aclrtMemPoolFreeAsync` on a capturing stream → 207000 (the runtime would capture its `SomaMemMng` task,
/// which the simulator does not model); nothing allocated or freed, the capture stays active and ends; the
/// free succeeds after the end
#[test]
fn pool_allocations_are_not_captured() {
    let (_m, p) = machine();
    let _g = p.bind();
    ok!(ACL_SUCCESS, aclrtSetDevice(0));
    let props = aclrtMemPoolProps {
        allocType: ACL_MEM_ALLOCATION_TYPE_PINNED,
        handleType: ACL_MEM_HANDLE_TYPE_NONE,
        location: aclrtMemLocation {
            id: 0,
            r#type: ACL_MEM_LOCATION_TYPE_DEVICE,
        },
        maxSize: 64 << 20,
        reserved: [0; 32],
    };
    let mut pool: H = null_mut();
    ok!(ACL_SUCCESS, aclrtMemPoolCreate(&mut pool, &props));
    let s = stream();
    let mut early: H = null_mut();
    ok!(
        ACL_SUCCESS,
        aclrtMemPoolMallocAsync(&mut early, 4096, pool, s)
    );
    ok!(ACL_SUCCESS, aclmdlRICaptureBegin(s, GLOBAL));
    assert_eq!(kernel(s, c"k"), ACL_SUCCESS);
    let mut d: H = null_mut();
    ok!(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        aclrtMemPoolMallocAsync(&mut d, 4096, pool, s)
    );
    assert!(d.is_null());
    ok!(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        aclrtMemPoolFreeAsync(early, s)
    );
    assert_eq!(status(s), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    let model = end(s, ACL_SUCCESS);
    ok!(ACL_SUCCESS, aclrtMemPoolFreeAsync(early, s));
    ok!(ACL_SUCCESS, aclrtSynchronizeStream(s));
    ok!(ACL_SUCCESS, aclmdlRIDestroy(model));
    ok!(ACL_SUCCESS, aclrtMemPoolDestroy(pool));
}
