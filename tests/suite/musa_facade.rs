//! The MUSA facade: the same names with the `musa` prefix and the same values (`musaX` = `cudaX`), and the
//! seeds' MUSA code ported line by line: the MUSA events article §2.1–2.3 (a Moore Threads blog post) and the
//! CANN stream-vs-event note's three scenarios (a CANN runtime FAQ entry), translated from `aclrt*`
//! to `musa*`. That every MUSA function has its CUDA twin's signature is checked by `facade_abuse`, which calls
//! both families through one table of function pointers.
//!
//! The C originals are quoted above each port; `kernel<<<…, stream>>>()` becomes `musasimLaunchKernel(Ex)`.
#![allow(
    non_upper_case_globals,
    reason = "the vendor's constant names in patterns"
)]

use std::ffi::{CStr, c_void};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use streamsim::musa::*;
use streamsim::{Machine, OpKind, Process, Trace, TraceEvent, cuda};

use crate::common::with_watchdog;

fn err_name(e: musaError_t) -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(musaGetErrorName(e)) }
        .to_string_lossy()
        .into_owned()
}

/// Calls a facade function and asserts its exact code.
macro_rules! check {
    ($want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: the test passes NULL or valid pointers, as the C contract requires.
        let got: musaError_t = unsafe { $call };
        let want: musaError_t = $want;
        assert_eq!(
            got,
            want,
            "`{}` returned {} ({}), expected {} ({})",
            stringify!($call),
            got,
            err_name(got),
            want,
            err_name(want)
        );
    }};
}

/// Asserts `cuda::cudaX == musa::musaX` for each pair.
macro_rules! twins {
    ($($c:ident = $m:ident),* $(,)?) => {{
        let mut n = 0;
        $(
            assert_eq!(cuda::$c, $m, "{} != {}", stringify!($c), stringify!($m));
            n += 1;
        )*
        n
    }};
}

/// Every MUSA constant equals its CUDA twin (error codes, flags, copy kinds, attributes, sizes, special
/// handles), and the types are the same.
#[test]
fn every_musa_constant_equals_its_cuda_twin() {
    let codes = twins!(
        cudaSuccess = musaSuccess,
        cudaErrorInvalidValue = musaErrorInvalidValue,
        cudaErrorMemoryAllocation = musaErrorMemoryAllocation,
        cudaErrorInitializationError = musaErrorInitializationError,
        cudaErrorInvalidConfiguration = musaErrorInvalidConfiguration,
        cudaErrorInvalidMemcpyDirection = musaErrorInvalidMemcpyDirection,
        cudaErrorNoDevice = musaErrorNoDevice,
        cudaErrorInvalidDevice = musaErrorInvalidDevice,
        cudaErrorDeviceUninitialized = musaErrorDeviceUninitialized,
        cudaErrorInvalidResourceHandle = musaErrorInvalidResourceHandle,
        cudaErrorNotReady = musaErrorNotReady,
        cudaErrorIllegalAddress = musaErrorIllegalAddress,
        cudaErrorPeerAccessAlreadyEnabled = musaErrorPeerAccessAlreadyEnabled,
        cudaErrorPeerAccessNotEnabled = musaErrorPeerAccessNotEnabled,
        cudaErrorContextIsDestroyed = musaErrorContextIsDestroyed,
        cudaErrorTooManyPeers = musaErrorTooManyPeers,
        cudaErrorLaunchFailure = musaErrorLaunchFailure,
        cudaErrorNotPermitted = musaErrorNotPermitted,
        cudaErrorNotSupported = musaErrorNotSupported,
        cudaErrorTimeout = musaErrorTimeout,
        cudaErrorUnknown = musaErrorUnknown,
    );
    let flags = twins!(
        cudaEventDefault = musaEventDefault,
        cudaEventBlockingSync = musaEventBlockingSync,
        cudaEventDisableTiming = musaEventDisableTiming,
        cudaEventInterprocess = musaEventInterprocess,
        cudaEventRecordDefault = musaEventRecordDefault,
        cudaEventWaitDefault = musaEventWaitDefault,
        cudaStreamDefault = musaStreamDefault,
        cudaStreamNonBlocking = musaStreamNonBlocking,
        cudaMemcpyHostToHost = musaMemcpyHostToHost,
        cudaMemcpyHostToDevice = musaMemcpyHostToDevice,
        cudaMemcpyDeviceToHost = musaMemcpyDeviceToHost,
        cudaMemcpyDeviceToDevice = musaMemcpyDeviceToDevice,
        cudaMemcpyDefault = musaMemcpyDefault,
        cudaDevAttrWarpSize = musaDevAttrWarpSize,
        cudaDevAttrMultiProcessorCount = musaDevAttrMultiProcessorCount,
        CUDA_IPC_HANDLE_SIZE = MUSA_IPC_HANDLE_SIZE,
        cudaStreamLegacy = musaStreamLegacy,
        cudaStreamPerThread = musaStreamPerThread,
    );
    assert_eq!((codes, flags), (21, 18));
    // The reference's values, through the MUSA names.
    assert_eq!(
        [
            musaSuccess,
            musaErrorInvalidValue,
            musaErrorInvalidDevice,
            musaErrorDeviceUninitialized,
            musaErrorInvalidResourceHandle,
            musaErrorNotReady,
            musaErrorIllegalAddress,
            musaErrorPeerAccessAlreadyEnabled,
            musaErrorPeerAccessNotEnabled,
            musaErrorLaunchFailure,
            musaErrorNotPermitted,
        ],
        [0, 1, 101, 201, 400, 600, 700, 704, 705, 719, 800]
    );
    assert_eq!(musaStreamLegacy as usize, 0x1);
    assert_eq!(musaStreamPerThread as usize, 0x2);
    // The same types (these lines only compile if they are).
    let same = |e: cuda::cudaError_t,
                s: cuda::cudaStream_t,
                v: cuda::cudaEvent_t|
     -> (musaError_t, musaStream_t, musaEvent_t) { (e, s, v) };
    let _ = same(0, null_mut(), null_mut());
    let h: musaIpcEventHandle_t = cuda::cudaIpcEventHandle_t { reserved: [0; 64] };
    assert_eq!(std::mem::size_of_val(&h), 64);
    let _: (musaMemcpyKind, musaDeviceAttr) = (cuda::cudaMemcpyDefault, cuda::cudaDevAttrWarpSize);
    let _: (musaHostFn_t, musaStreamCallback_t) = (None::<unsafe extern "C" fn(*mut c_void)>, None);
}

/// musaGetErrorName gives MUSA's enumerator names; musaGetErrorString the same descriptions as CUDA's.
#[test]
fn musa_error_names_and_strings() {
    for code in [
        0, 1, 2, 3, 9, 21, 100, 101, 201, 400, 600, 700, 704, 705, 709, 711, 719, 800, 801, 909,
        999,
    ] {
        let cuda_name = {
            // SAFETY: static strings.
            unsafe { CStr::from_ptr(cuda::cudaGetErrorName(code)) }
                .to_str()
                .unwrap()
                .to_owned()
        };
        let musa_name = err_name(code);
        assert_eq!(
            musa_name,
            cuda_name.replacen("cuda", "musa", 1),
            "code {code}"
        );
        // SAFETY: static strings.
        let (cs, ms) = unsafe {
            (
                CStr::from_ptr(cuda::cudaGetErrorString(code)),
                CStr::from_ptr(musaGetErrorString(code)),
            )
        };
        assert_eq!(cs, ms, "code {code}");
    }
    assert_eq!(err_name(600), "musaErrorNotReady");
}

/// The MUSA facade's calls go to a bound CUDA-dialect machine like the CUDA facade's, and share its state
/// (one implementation): a stream created with `musaStreamCreate` is a `cudaStream_t` of the same process.
#[test]
fn musa_and_cuda_calls_share_the_bound_process() {
    let m = Machine::builder().devices(2).build().unwrap();
    let p = m.process();
    let _g = p.bind();
    let mut s = null_mut();
    check!(musaSuccess, musaStreamCreate(&mut s));
    check!(
        musaSuccess,
        musasimLaunchKernel(s, c"k".as_ptr(), 1_000_000, None, null_mut())
    );
    // SAFETY: a live stream.
    assert_eq!(unsafe { cuda::cudaStreamQuery(s) }, cuda::cudaErrorNotReady);
    check!(musaErrorNotReady, musaPeekAtLastError());
    check!(musaSuccess, musaSetDevice(1));
    let mut d = -1;
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { cuda::cudaGetDevice(&mut d) }, 0);
    assert_eq!(d, 1);
}

// ----------------------------------------------------------------------------------- the MUSA events article

/// A CUDA-dialect machine (MUSA's semantics) and a process on it.
fn machine(devices: u32) -> (Machine, Process) {
    let m = Machine::builder().devices(devices).build().unwrap();
    let p = m.process();
    (m, p)
}

fn op<'t>(t: &'t Trace, label: &str) -> &'t TraceEvent {
    t.find(label)
        .unwrap_or_else(|| panic!("no operation {label:?} in the trace"))
}

/// A C body: appends its tag to the log behind `arg`.
struct Tag {
    log: Arc<Mutex<Vec<&'static str>>>,
    tag: &'static str,
}

fn tag(log: &Arc<Mutex<Vec<&'static str>>>, tag: &'static str) -> *mut c_void {
    Box::leak(Box::new(Tag {
        log: log.clone(),
        tag,
    })) as *mut Tag as *mut c_void
}

unsafe extern "C" fn log_tag(arg: *mut c_void) {
    // SAFETY: the test passes a leaked Tag.
    let t = unsafe { &*arg.cast::<Tag>() };
    t.log.lock().unwrap().push(t.tag);
}

/// The MUSA events article §2.1 统计设备端耗时 (device-side timing), ported line by line:
///
/// ```c
/// musaEventRecord(event1);
/// kernel<<<1, 1>>>();
/// musaEventRecord(event2);
/// musaEventSynchronize(event2);
/// float time_ms;
/// musaEventElapsedTime(&time_ms, event1, event2);
/// ```
///
/// with the creation, the query the text describes (NotReady before the kernel ends, Success after) and the
/// destruction around it.
#[test]
fn seed000_2_1_elapsed_time_around_a_kernel() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let (mut event1, mut event2): (musaEvent_t, musaEvent_t) = (null_mut(), null_mut());
    check!(musaSuccess, musaEventCreate(&mut event1)); // t = 1 µs
    check!(musaSuccess, musaEventCreate(&mut event2)); // t = 2 µs

    check!(musaSuccess, musaEventRecord(event1, null_mut())); // t = 3 → recorded at 5 µs
    check!(
        musaSuccess,
        musasimLaunchKernel(null_mut(), c"kernel".as_ptr(), 250_000, None, null_mut())
    ); // t = 4 → runs 6 .. 256 µs
    check!(musaSuccess, musaEventRecord(event2, null_mut())); // t = 5 → at 256 µs
    check!(musaErrorNotReady, musaEventQuery(event2));
    check!(musaSuccess, musaEventSynchronize(event2));
    check!(musaSuccess, musaEventQuery(event2));
    let mut time_ms: f32 = 0.0;
    check!(
        musaSuccess,
        musaEventElapsedTime(&mut time_ms, event1, event2)
    );

    // The kernel's 250 µs plus the 1 µs between the launch and the first record: the same on every run.
    assert_eq!(time_ms, 0.251);
    check!(musaSuccess, musaEventDestroy(event1));
    check!(musaSuccess, musaEventDestroy(event2));
}

/// The MUSA events article §2.2 同步 stream (synchronizing streams), ported line by line:
///
/// ```c
/// kernel1<<<1, 1, 0, stream1>>>();
/// kernel2<<<1, 1, 0, stream2>>>();
/// musaEventRecord(event1, stream2);
/// musaStreamWaitEvent(stream1, event1);
/// kernel<<<1, 1, 0, stream1>>>();
/// ```
///
/// stream1's `kernel` starts when stream2's `kernel2` ends, with no host-side wait.
#[test]
fn seed000_2_2_two_streams_record_on_stream2_stream1_waits() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let (mut stream1, mut stream2): (musaStream_t, musaStream_t) = (null_mut(), null_mut());
    check!(musaSuccess, musaStreamCreate(&mut stream1));
    check!(musaSuccess, musaStreamCreate(&mut stream2));
    let mut event1: musaEvent_t = null_mut();
    check!(musaSuccess, musaEventCreate(&mut event1));
    let log = Arc::new(Mutex::new(Vec::new()));

    check!(
        musaSuccess,
        musasimLaunchKernel(
            stream1,
            c"kernel1".as_ptr(),
            20_000,
            Some(log_tag),
            tag(&log, "kernel1")
        )
    );
    check!(
        musaSuccess,
        musasimLaunchKernel(
            stream2,
            c"kernel2".as_ptr(),
            300_000,
            Some(log_tag),
            tag(&log, "kernel2")
        )
    );
    check!(musaSuccess, musaEventRecord(event1, stream2));
    check!(musaSuccess, musaStreamWaitEvent(stream1, event1, 0));
    check!(
        musaSuccess,
        musasimLaunchKernel(
            stream1,
            c"kernel".as_ptr(),
            10_000,
            Some(log_tag),
            tag(&log, "kernel")
        )
    );
    // The host did not wait: only the call overheads have passed.
    assert_eq!(p.now().as_nanos(), 8_000);

    check!(musaSuccess, musaStreamSynchronize(stream1));
    let t = m.trace();
    let (k1, k2, k) = (op(&t, "kernel1"), op(&t, "kernel2"), op(&t, "kernel"));
    assert!(k1.end < k2.end);
    assert_eq!(
        k.start, k2.end,
        "stream1's kernel waited for stream2's kernel2"
    );
    let order = log.lock().unwrap().clone();
    let pos = |name| order.iter().position(|&x| x == name).unwrap();
    assert!(pos("kernel") > pos("kernel2"), "{order:?}");
    assert_eq!(p.now(), k.end);
}

/// The MUSA events article §2.3 IPC Event, ported line by line: two simulated processes, each on its own host
/// thread; the handle goes through host memory (`IPC_Shared`) as bytes.
///
/// ```c
/// // process A
/// musaEventCreateWithFlags(&event, musaEventDisableTiming | musaEventInterprocess);
/// musaIpcGetEventHandle(&handle, event);
/// memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t));
/// // process B
/// memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t));
/// musaIpcOpenEventHandle(&ipc_event, ipc_handle);
/// musaStreamWaitEvent(stream, ipc_event);
/// ```
///
/// A records the event after a kernel; B's stream waits for it; B cannot take timestamps from it ("如果你使用了
/// IPC类型的event，就无法通过这个event获取时间戳了").
#[test]
fn seed000_2_3_ipc_event_between_two_processes() {
    with_watchdog(20, || {
        let m = Machine::builder().build().unwrap();
        let (a, b) = (m.process(), m.process());
        let ipc_shared = Arc::new(Mutex::new([0u8; 64]));
        let handed_over = Arc::new(Barrier::new(2));
        let a_done: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
        let seen_by_b: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(99)));

        let process_a = {
            let (shared, barrier) = (ipc_shared.clone(), handed_over.clone());
            std::thread::spawn(move || {
                let _g = a.bind();
                let mut event: musaEvent_t = null_mut();
                check!(
                    musaSuccess,
                    musaEventCreateWithFlags(
                        &mut event,
                        musaEventDisableTiming | musaEventInterprocess
                    )
                );
                let mut handle = musaIpcEventHandle_t { reserved: [0; 64] };
                check!(musaSuccess, musaIpcGetEventHandle(&mut handle, event));
                {
                    let mut ipc = shared.lock().unwrap();
                    // SAFETY: both are 64 bytes: memcpy(IPC_Shared, &handle, sizeof(musaIpcEventHandle_t)).
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            (&handle as *const musaIpcEventHandle_t).cast::<u8>(),
                            ipc.as_mut_ptr(),
                            size_of::<musaIpcEventHandle_t>(),
                        );
                    }
                }
                let mut stream: musaStream_t = null_mut();
                check!(musaSuccess, musaStreamCreate(&mut stream));
                check!(
                    musaSuccess,
                    musasimLaunchKernel(
                        stream,
                        c"producer".as_ptr(),
                        1_000_000,
                        Some(mark),
                        a_done as *const AtomicU32 as *mut c_void
                    )
                );
                check!(musaSuccess, musaEventRecord(event, stream));
                barrier.wait(); // the record exists before B waits on it
                let mut ms = 0.0f32;
                check!(
                    musaErrorInvalidResourceHandle,
                    musaEventElapsedTime(&mut ms, event, event)
                );
                check!(musaSuccess, musaStreamSynchronize(stream));
                check!(musaSuccess, musaEventDestroy(event));
            })
        };
        let process_b = {
            let (shared, barrier) = (ipc_shared.clone(), handed_over.clone());
            std::thread::spawn(move || {
                let _g = b.bind();
                barrier.wait();
                let mut ipc_handle = musaIpcEventHandle_t { reserved: [0; 64] };
                {
                    let ipc = shared.lock().unwrap();
                    // SAFETY: memcpy(&ipc_handle, IPC_Shared, sizeof(musaIpcEventHandle_t)).
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            ipc.as_ptr(),
                            (&mut ipc_handle as *mut musaIpcEventHandle_t).cast::<u8>(),
                            size_of::<musaIpcEventHandle_t>(),
                        );
                    }
                }
                let mut ipc_event: musaEvent_t = null_mut();
                check!(
                    musaSuccess,
                    musaIpcOpenEventHandle(&mut ipc_event, ipc_handle)
                );
                let mut stream: musaStream_t = null_mut();
                check!(musaSuccess, musaStreamCreate(&mut stream));
                check!(musaSuccess, musaStreamWaitEvent(stream, ipc_event, 0));
                let probe = Box::leak(Box::new((a_done, seen_by_b)));
                check!(
                    musaSuccess,
                    musasimLaunchKernel(
                        stream,
                        c"consumer".as_ptr(),
                        10_000,
                        Some(observe),
                        probe as *mut (&AtomicU32, &AtomicU32) as *mut c_void
                    )
                );
                check!(musaSuccess, musaStreamSynchronize(stream));
                let returned = b.now();
                check!(musaSuccess, musaEventQuery(ipc_event));
                let mut ms = 0.0f32;
                check!(
                    musaErrorInvalidResourceHandle,
                    musaEventElapsedTime(&mut ms, ipc_event, ipc_event)
                );
                check!(musaSuccess, musaEventDestroy(ipc_event));
                returned
            })
        };
        process_a.join().unwrap();
        let b_returned = process_b.join().unwrap();
        assert_eq!(
            seen_by_b.load(Ordering::SeqCst),
            1,
            "B's kernel ran after A's kernel"
        );
        let t = m.trace();
        let (producer, consumer) = (op(&t, "producer"), op(&t, "consumer"));
        assert_eq!(
            consumer.start, producer.end,
            "B's stream waited for A's record"
        );
        assert_eq!(b_returned, consumer.end);
        assert!(
            t.ops
                .iter()
                .any(|o| matches!(o.kind, OpKind::Wait { .. }) && o.stream.process == b_id(&t)),
            "B's wait is in the trace"
        );
    });
}

/// The process of the "consumer" kernel.
fn b_id(t: &Trace) -> streamsim::ProcessId {
    op(t, "consumer").stream.process
}

unsafe extern "C" fn mark(arg: *mut c_void) {
    // SAFETY: the test passes a leaked AtomicU32.
    unsafe { &*arg.cast::<AtomicU32>() }.store(1, Ordering::SeqCst);
}

unsafe extern "C" fn observe(arg: *mut c_void) {
    // SAFETY: the test passes a leaked (&AtomicU32, &AtomicU32): (A's flag, what B saw).
    let (a_done, seen) = unsafe { *arg.cast::<(&AtomicU32, &AtomicU32)>() };
    seen.store(a_done.load(Ordering::SeqCst), Ordering::SeqCst);
}

// --------------------------------------------------------------------------- the CANN stream-vs-event note

const SIZE: usize = 1 << 20;

/// Pinned host memory filled with a pattern (what the C program writes before copying).
fn pinned_pattern(seed: u8) -> *mut c_void {
    let mut p = null_mut();
    check!(musaSuccess, musaMallocHost(&mut p, SIZE));
    // SAFETY: SIZE bytes of pinned memory, no copy in flight.
    let bytes = unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), SIZE) };
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(31).wrapping_add(seed);
    }
    p
}

fn pinned(bytes: usize) -> *mut c_void {
    let mut p = null_mut();
    check!(musaSuccess, musaMallocHost(&mut p, bytes));
    p
}

fn device(bytes: usize) -> *mut c_void {
    let mut p = null_mut();
    check!(musaSuccess, musaMalloc(&mut p, bytes));
    p
}

/// # Safety
/// Both are pinned buffers of SIZE bytes with no copy in flight.
unsafe fn same_bytes(a: *mut c_void, b: *mut c_void) -> bool {
    // SAFETY: the caller's contract.
    unsafe {
        std::slice::from_raw_parts(a.cast::<u8>(), SIZE)
            == std::slice::from_raw_parts(b.cast::<u8>(), SIZE)
    }
}

/// `myKernel<<<..., stream>>>()`: 30 µs, declared to read and write `dst`.
fn my_kernel(stream: musaStream_t, dst: *mut c_void) -> musaError_t {
    let accesses = [
        streamsimAccess {
            ptr: dst,
            bytes: SIZE,
            flags: streamsim::capi::STREAMSIM_ACCESS_READ,
        },
        streamsimAccess {
            ptr: dst,
            bytes: SIZE,
            flags: streamsim::capi::STREAMSIM_ACCESS_WRITE,
        },
    ];
    // SAFETY: a static name, two accesses, no body.
    unsafe {
        musasimLaunchKernelEx(
            stream,
            c"myKernel".as_ptr(),
            30_000,
            None,
            null_mut(),
            accesses.as_ptr(),
            accesses.len(),
        )
    }
}

fn copies(t: &Trace) -> Vec<&TraceEvent> {
    t.ops
        .iter()
        .filter(|o| matches!(o.kind, OpKind::Memcpy { .. }))
        .collect()
}

/// The CANN stream-vs-event note · 场景1：单 Stream 等待整批任务 → Stream 同步 (one stream's batch → stream
/// synchronize), in MUSA:
///
/// ```c
/// aclrtStream stream; aclrtCreateStream(&stream);
/// aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
/// myKernel<<<..., stream>>>();
/// aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
/// aclrtSynchronizeStream(stream); // 推荐：等待整流完成
/// // 不推荐：aclrtRecordEvent(event, stream); aclrtSynchronizeEvent(event);
/// ```
///
/// Both ways return when the last of the three tasks ends; the data has made the round trip.
#[test]
fn seed004_scenario1_single_stream_batch_stream_synchronize() {
    let mut returned = Vec::new();
    for with_event in [false, true] {
        let (m, p) = machine(1);
        let _g = p.bind();
        let src = pinned_pattern(7);
        let host = pinned(SIZE);
        let dst = device(SIZE);
        let mut stream: musaStream_t = null_mut();
        check!(musaSuccess, musaStreamCreate(&mut stream));
        let mut event: musaEvent_t = null_mut();
        check!(musaSuccess, musaEventCreate(&mut event));

        check!(
            musaSuccess,
            musaMemcpyAsync(dst, src, SIZE, musaMemcpyHostToDevice, stream)
        );
        check!(musaSuccess, my_kernel(stream, dst));
        check!(
            musaSuccess,
            musaMemcpyAsync(host, dst, SIZE, musaMemcpyDeviceToHost, stream)
        );
        if with_event {
            check!(musaSuccess, musaEventRecord(event, stream));
            check!(musaSuccess, musaEventSynchronize(event));
        } else {
            check!(musaSuccess, musaStreamSynchronize(stream));
        }
        let after = p.now();

        check!(musaSuccess, musaStreamQuery(stream));
        // SAFETY: both SIZE-byte pinned buffers; the stream is idle.
        assert!(unsafe { same_bytes(src, host) });
        let t = m.trace();
        let last = copies(&t)[1];
        assert_eq!(after, last.end, "returned when the D2H copy ended");
        assert_eq!(op(&t, "myKernel").end, last.start);
        returned.push(after);
    }
    // The event way returns at exactly the same virtual time (the record sits at the end of the batch).
    assert_eq!(returned[0], returned[1]);
}

/// The CANN stream-vs-event note · 场景2：跨 Stream 协调 → Event 同步 (cross-stream coordination → events), in MUSA:
///
/// ```c
/// aclrtStream stream1, stream2; aclrtCreateStream(&stream1); aclrtCreateStream(&stream2);
/// aclrtMemcpyAsync(dst1, size, src1, size, ACL_MEMCPY_HOST_TO_DEVICE, stream1);
/// // 推荐：Event 同步
/// aclrtEvent event;
/// aclrtRecordEvent(event, stream1);       // stream1 记录时间点
/// aclrtStreamWaitEvent(stream2, event);   // stream2 等待该时间点
/// aclrtMemcpyAsync(dst2, size, src2, size, ACL_MEMCPY_HOST_TO_DEVICE, stream2);
/// // 不推荐：Stream 同步（会阻塞 stream1，影响并发）
/// aclrtSynchronizeStream(stream1);
/// aclrtMemcpyAsync(dst2, size, src2, size, ACL_MEMCPY_HOST_TO_DEVICE, stream2);
/// ```
///
/// Both order stream2's copy after stream1's; only the stream synchronize blocks the host.
#[test]
fn seed004_scenario2_cross_stream_event_instead_of_stream_synchronize() {
    let mut host_after_issue = Vec::new();
    for recommended in [true, false] {
        let (m, p) = machine(1);
        let _g = p.bind();
        let (src1, src2) = (pinned_pattern(1), pinned_pattern(2));
        let (dst1, dst2) = (device(SIZE), device(SIZE));
        let (mut stream1, mut stream2): (musaStream_t, musaStream_t) = (null_mut(), null_mut());
        check!(musaSuccess, musaStreamCreate(&mut stream1));
        check!(musaSuccess, musaStreamCreate(&mut stream2));
        let mut event: musaEvent_t = null_mut();
        check!(musaSuccess, musaEventCreate(&mut event));

        check!(
            musaSuccess,
            musaMemcpyAsync(dst1, src1, SIZE, musaMemcpyHostToDevice, stream1)
        );
        if recommended {
            check!(musaSuccess, musaEventRecord(event, stream1));
            check!(musaSuccess, musaStreamWaitEvent(stream2, event, 0));
        } else {
            check!(musaSuccess, musaStreamSynchronize(stream1));
        }
        check!(
            musaSuccess,
            musaMemcpyAsync(dst2, src2, SIZE, musaMemcpyHostToDevice, stream2)
        );
        host_after_issue.push(p.now());

        check!(musaSuccess, musaDeviceSynchronize());
        let t = m.trace();
        let c = copies(&t);
        assert_eq!(c.len(), 2);
        assert!(c[1].start >= c[0].end, "stream2's copy after stream1's");
        if recommended {
            assert_eq!(c[1].start, c[0].end, "ordered on the device, no gap");
        }
        // Round trip to check the bytes landed.
        let back = pinned(SIZE);
        check!(
            musaSuccess,
            musaMemcpy(back, dst2, SIZE, musaMemcpyDeviceToHost)
        );
        // SAFETY: SIZE-byte pinned buffers, nothing in flight.
        assert!(unsafe { same_bytes(back, src2) });
    }
    let (event_way, sync_way) = (host_after_issue[0], host_after_issue[1]);
    assert!(
        event_way.as_nanos() < 20_000 && sync_way.as_nanos() > 60_000,
        "the event way leaves the host free ({event_way}); the stream synchronize blocks it ({sync_way})"
    );
}

/// The CANN stream-vs-event note · 场景3：精细时间点控制 → Event 同步 (precise points in time → events), in MUSA:
///
/// ```c
/// aclrtEvent event1, event2, event3;
/// aclrtCreateEvent(&event1); aclrtCreateEvent(&event2); aclrtCreateEvent(&event3);
/// aclrtMemcpyAsync(dst, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
/// aclrtRecordEvent(event1, stream);  // 记录复制完成时间点
/// myKernel<<<..., stream>>>();
/// aclrtRecordEvent(event2, stream);  // 记录算子完成时间点
/// aclrtMemcpyAsync(host, size, dst, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
/// aclrtRecordEvent(event3, stream);  // 记录输出复制完成时间点
/// aclrtSynchronizeEvent(event2);     // 仅等待算子完成，不等待后续复制
/// ```
#[test]
fn seed004_scenario3_precise_points_in_time() {
    let (m, p) = machine(1);
    let _g = p.bind();
    let src = pinned_pattern(3);
    let host = pinned(SIZE);
    let dst = device(SIZE);
    let mut stream: musaStream_t = null_mut();
    check!(musaSuccess, musaStreamCreate(&mut stream));
    let (mut event1, mut event2, mut event3): (musaEvent_t, musaEvent_t, musaEvent_t) =
        (null_mut(), null_mut(), null_mut());
    check!(musaSuccess, musaEventCreate(&mut event1));
    check!(musaSuccess, musaEventCreate(&mut event2));
    check!(musaSuccess, musaEventCreate(&mut event3));

    check!(
        musaSuccess,
        musaMemcpyAsync(dst, src, SIZE, musaMemcpyHostToDevice, stream)
    );
    check!(musaSuccess, musaEventRecord(event1, stream));
    check!(musaSuccess, my_kernel(stream, dst));
    check!(musaSuccess, musaEventRecord(event2, stream));
    check!(
        musaSuccess,
        musaMemcpyAsync(host, dst, SIZE, musaMemcpyDeviceToHost, stream)
    );
    check!(musaSuccess, musaEventRecord(event3, stream));
    check!(musaSuccess, musaEventSynchronize(event2));

    // The kernel is done; the output copy is not.
    let t = m.trace();
    assert_eq!(p.now(), op(&t, "myKernel").end);
    check!(musaSuccess, musaEventQuery(event1));
    check!(musaErrorNotReady, musaEventQuery(event3));
    check!(musaErrorNotReady, musaStreamQuery(stream));
    let mut kernel_ms = 0.0f32;
    check!(
        musaSuccess,
        musaEventElapsedTime(&mut kernel_ms, event1, event2)
    );
    assert_eq!(kernel_ms, 0.03, "event1 → event2 is exactly the kernel");
    let mut copy_ms = 0.0f32;
    check!(
        musaErrorNotReady,
        musaEventElapsedTime(&mut copy_ms, event2, event3)
    );
    check!(musaSuccess, musaEventSynchronize(event3));
    check!(
        musaSuccess,
        musaEventElapsedTime(&mut copy_ms, event2, event3)
    );
    let t = m.trace();
    let d2h = copies(&t)[1];
    assert_eq!(copy_ms, d2h.end.ms_since(d2h.start));
    // SAFETY: SIZE-byte pinned buffers, the stream is idle.
    assert!(unsafe { same_bytes(src, host) });
}

/// The CANN stream-vs-event note · 现象1 (the typical error the scenarios fix), in MUSA:
///
/// ```c
/// // 需要等待跨Stream任务完成，但使用了Stream同步
/// aclrtSynchronizeStream(stream1); // 仅等待 stream1，不等待 stream2
/// ```
///
/// The host needs data produced on stream2 but synchronizes stream1: stream2's copy is still running.
#[test]
fn seed004_typical_error_synchronizing_the_wrong_stream() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let src = pinned_pattern(9);
    let host = pinned(SIZE);
    let dst = device(SIZE);
    let (mut stream1, mut stream2): (musaStream_t, musaStream_t) = (null_mut(), null_mut());
    check!(musaSuccess, musaStreamCreate(&mut stream1));
    check!(musaSuccess, musaStreamCreate(&mut stream2));
    check!(
        musaSuccess,
        musaMemcpyAsync(dst, src, SIZE, musaMemcpyHostToDevice, stream2)
    );
    check!(
        musaSuccess,
        musaMemcpyAsync(host, dst, SIZE, musaMemcpyDeviceToHost, stream2)
    );
    check!(
        musaSuccess,
        musasimLaunchKernel(stream1, c"other".as_ptr(), 20_000, None, null_mut())
    );
    check!(musaSuccess, musaStreamSynchronize(stream1)); // the mistake
    check!(musaErrorNotReady, musaStreamQuery(stream2));
    check!(musaSuccess, musaStreamSynchronize(stream2)); // the fix
    // SAFETY: SIZE-byte pinned buffers, nothing in flight.
    assert!(unsafe { same_bytes(src, host) });
    check!(musaSuccess, musaFreeHost(host));
    check!(musaSuccess, musaFreeHost(src));
    check!(musaSuccess, musaFree(dst));
}

/// What [`musa_callback`] records.
type Statuses = Mutex<Vec<musaError_t>>;

unsafe extern "C" fn musa_callback(_: musaStream_t, status: musaError_t, data: *mut c_void) {
    // SAFETY: the test passes a leaked `Statuses`.
    unsafe { &*data.cast::<Statuses>() }
        .lock()
        .unwrap()
        .push(status);
}

/// cuda-musa.md · StreamAddCallback · — → the callback runs exactly once with the stream's status (MUSA the
/// same): musaSuccess on a healthy stream, musaErrorLaunchFailure (719) after a failing kernel, while
/// musaLaunchHostFunc's function is not called (LaunchHostFunc · not called if the context has a sticky error).
#[test]
fn musa_stream_callback_runs_once_with_the_stream_s_status() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let mut s = null_mut();
    check!(musaSuccess, musaStreamCreate(&mut s));
    let got: &'static Statuses = Box::leak(Box::default());
    let arg = got as *const Statuses as *mut c_void;
    check!(
        musaSuccess,
        musaStreamAddCallback(s, Some(musa_callback), arg, 0)
    );
    check!(musaSuccess, musaStreamSynchronize(s));
    assert_eq!(*got.lock().unwrap(), [musaSuccess]);
    p.launch(
        streamsim::Stream::from_raw(s as usize as u64),
        streamsim::Kernel::new("faulty").body(|_| Err("assert".into())),
    )
    .unwrap();
    let hits: &'static AtomicU32 = Box::leak(Box::default());
    check!(
        musaSuccess,
        musaLaunchHostFunc(s, Some(count_hit), hits as *const AtomicU32 as *mut c_void)
    );
    check!(
        musaSuccess,
        musaStreamAddCallback(s, Some(musa_callback), arg, 0)
    );
    check!(musaErrorLaunchFailure, musaStreamSynchronize(s));
    assert_eq!(*got.lock().unwrap(), [musaSuccess, musaErrorLaunchFailure]);
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

unsafe extern "C" fn count_hit(arg: *mut c_void) {
    // SAFETY: the test passes a leaked AtomicU32.
    unsafe { &*arg.cast::<AtomicU32>() }.fetch_add(1, Ordering::SeqCst);
}
