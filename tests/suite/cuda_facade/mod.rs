//! Truth-table tests: every row of `docs/semantics/cuda-musa.md`, through the CUDA facade's vendor-named
//! functions (`streamsim::cuda::*`), asserting the exact `cudaError_t` values.
//!
//! Calls are routed with [`Process::bind`] to machines built per test (two devices for cross-device rows,
//! `.peer_links([])` for "no link", two processes for IPC). Where two rows give the same code (several 400s in
//! EventElapsedTime's check order), the bound process's structured last error tells which check fired.
//! Kernels are `cudasimLaunchKernel` with `unsafe extern "C"` bodies; a C body cannot fail, so the kernel
//! faults of "Errors that stick" are launched with the core API on the bound process and observed through the
//! facade.
//!
//! The default machine (no binding) is a process-wide `OnceLock` configured from `STREAMSIM_DEVICES` /
//! `STREAMSIM_SEED`; tests run as threads of one process, so those tests re-run this test binary as a child
//! process with the environment set (see [`run_child`]) and never touch the default machine here.
#![allow(
    non_upper_case_globals,
    reason = "the vendor's constant names in patterns"
)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ptr::{null, null_mut};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use streamsim::cuda::*;
use streamsim::{CopyPath, Event, HandleProblem, Kernel, Machine, Process, SimError, Stream};

// ------------------------------------------------------------------------------------------------ helpers

/// The name of a code, for messages.
fn err_name(e: cudaError_t) -> String {
    // SAFETY: GetErrorName returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(cudaGetErrorName(e)) }
        .to_string_lossy()
        .into_owned()
}

/// Calls a facade function and asserts its exact code.
macro_rules! check {
    ($want:expr, $call:expr) => {{
        #[allow(unused_unsafe, reason = "some calls are safe")]
        // SAFETY: the test passes NULL or valid pointers, as the C contract requires.
        let got: cudaError_t = unsafe { $call };
        let want: cudaError_t = $want;
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

/// A CUDA machine with `n` devices (all pairs linked) and a process on it.
fn machine(n: u32) -> (Machine, Process) {
    let m = Machine::builder().devices(n).build().expect("machine");
    let p = m.process();
    (m, p)
}

/// A stream of the current device.
fn stream(flags: c_uint) -> cudaStream_t {
    let mut s = null_mut();
    check!(cudaSuccess, cudaStreamCreateWithFlags(&mut s, flags));
    s
}

/// An event of the current device.
fn event(flags: c_uint) -> cudaEvent_t {
    let mut e = null_mut();
    check!(cudaSuccess, cudaEventCreateWithFlags(&mut e, flags));
    e
}

/// Launches a body-less kernel of `micros` µs.
fn kernel(s: cudaStream_t, micros: u64) -> cudaError_t {
    // SAFETY: a static name, no body.
    unsafe { cudasimLaunchKernel(s, c"kernel".as_ptr(), micros * 1_000, None, null_mut()) }
}

/// Launches a kernel of `micros` µs whose C body is `f(arg)`.
fn kernel_with(
    s: cudaStream_t,
    micros: u64,
    f: unsafe extern "C" fn(*mut c_void),
    arg: *mut c_void,
) -> cudaError_t {
    // SAFETY: `arg` is what `f` expects (the callers pass leaked objects).
    unsafe { cudasimLaunchKernel(s, c"body".as_ptr(), micros * 1_000, Some(f), arg) }
}

/// A leaked counter and its address as a C `void *`.
fn counter() -> (&'static AtomicU32, *mut c_void) {
    let c: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
    (c, c as *const AtomicU32 as *mut c_void)
}

/// A C body / host function: adds one to the `AtomicU32` behind `arg`.
unsafe extern "C" fn bump(arg: *mut c_void) {
    // SAFETY: every caller passes a leaked AtomicU32.
    unsafe { &*arg.cast::<AtomicU32>() }.fetch_add(1, Ordering::SeqCst);
}

/// What [`log_tag`] appends to.
struct Tag {
    log: &'static Mutex<Vec<&'static str>>,
    tag: &'static str,
}

fn tag(log: &'static Mutex<Vec<&'static str>>, tag: &'static str) -> *mut c_void {
    Box::leak(Box::new(Tag { log, tag })) as *mut Tag as *mut c_void
}

fn new_log() -> &'static Mutex<Vec<&'static str>> {
    Box::leak(Box::new(Mutex::new(Vec::new())))
}

/// A C body / host function: appends its tag to its log.
unsafe extern "C" fn log_tag(arg: *mut c_void) {
    // SAFETY: every caller passes a leaked Tag.
    let t = unsafe { &*arg.cast::<Tag>() };
    t.log.lock().unwrap().push(t.tag);
}

/// Device memory of the current device.
fn dmalloc(bytes: usize) -> *mut c_void {
    let mut p = null_mut();
    check!(cudaSuccess, cudaMalloc(&mut p, bytes));
    p
}

fn core_stream(s: cudaStream_t) -> Stream {
    Stream::from_raw(s as usize as u64)
}

fn core_event(e: cudaEvent_t) -> Event {
    Event::from_raw(e as usize as u64)
}

/// Virtual microseconds.
fn us(p: &Process) -> u64 {
    p.now().as_nanos() / 1_000
}

/// A kernel (core API) whose body fails: a 719 LaunchFailure when it runs.
fn failing(micros: u64) -> Kernel {
    Kernel::new("faulty")
        .duration(Duration::from_micros(micros))
        .body(|_| Err("device-side assert".into()))
}

/// A kernel (core API) whose body writes to an unallocated device address: a 700 IllegalAddress when it runs.
fn illegal_access() -> Kernel {
    let nowhere = streamsim::DevicePtr(streamsim::memory::DEVICE_ADDRESS_BASE + (1 << 39));
    Kernel::new("oob").body(move |ctx| ctx.write(nowhere, &[1]))
}

/// A C host function that does nothing.
unsafe extern "C" fn nothing(_: *mut c_void) {}

/// The bound process's last error, structured (to tell the 400s apart).
fn last(p: &Process) -> SimError {
    p.peek_last_error().expect("the call set the last error")
}

// ------------------------------------------------------------------------------------------------ codes

/// cuda-musa.md · Error codes: every listed value, and the flags, special handles and IPC handle size.
#[test]
fn error_codes_flags_and_special_handles_have_the_vendor_values() {
    let codes: &[(cudaError_t, cudaError_t)] = &[
        (cudaSuccess, 0),
        (cudaErrorInvalidValue, 1),
        (cudaErrorMemoryAllocation, 2),
        (cudaErrorInvalidConfiguration, 9),
        (cudaErrorNoDevice, 100),
        (cudaErrorInvalidDevice, 101),
        (cudaErrorDeviceUninitialized, 201),
        (cudaErrorInvalidResourceHandle, 400),
        (cudaErrorNotReady, 600),
        (cudaErrorIllegalAddress, 700),
        (cudaErrorPeerAccessAlreadyEnabled, 704),
        (cudaErrorPeerAccessNotEnabled, 705),
        (cudaErrorContextIsDestroyed, 709),
        (cudaErrorTooManyPeers, 711),
        (cudaErrorLaunchFailure, 719),
        (cudaErrorNotPermitted, 800),
        (cudaErrorNotSupported, 801),
        (cudaErrorTimeout, 909),
        (cudaErrorUnknown, 999),
    ];
    for &(c, v) in codes {
        assert_eq!(c, v, "{}", err_name(c));
    }
    assert_eq!(cudaEventDefault, 0x0);
    assert_eq!(cudaEventBlockingSync, 0x1);
    assert_eq!(cudaEventDisableTiming, 0x2);
    assert_eq!(cudaEventInterprocess, 0x4);
    assert_eq!(cudaStreamDefault, 0x0);
    assert_eq!(cudaStreamNonBlocking, 0x1);
    assert_eq!(cudaStreamLegacy as usize, 0x1);
    assert_eq!(cudaStreamPerThread as usize, 0x2);
    assert_eq!(CUDA_IPC_HANDLE_SIZE, 64);
    assert_eq!(std::mem::size_of::<cudaIpcEventHandle_t>(), 64);
    assert_eq!(
        std::mem::size_of::<cudaStream_t>(),
        std::mem::size_of::<usize>()
    );
}

/// GetErrorName / GetErrorString: the vendor's enumerator names and descriptions, static strings.
#[test]
fn get_error_name_and_string() {
    let names: &[(cudaError_t, &str)] = &[
        (0, "cudaSuccess"),
        (1, "cudaErrorInvalidValue"),
        (2, "cudaErrorMemoryAllocation"),
        (9, "cudaErrorInvalidConfiguration"),
        (100, "cudaErrorNoDevice"),
        (101, "cudaErrorInvalidDevice"),
        (201, "cudaErrorDeviceUninitialized"),
        (400, "cudaErrorInvalidResourceHandle"),
        (600, "cudaErrorNotReady"),
        (700, "cudaErrorIllegalAddress"),
        (704, "cudaErrorPeerAccessAlreadyEnabled"),
        (705, "cudaErrorPeerAccessNotEnabled"),
        (709, "cudaErrorContextIsDestroyed"),
        (711, "cudaErrorTooManyPeers"),
        (719, "cudaErrorLaunchFailure"),
        (800, "cudaErrorNotPermitted"),
        (801, "cudaErrorNotSupported"),
        (909, "cudaErrorTimeout"),
        (999, "cudaErrorUnknown"),
    ];
    for &(c, n) in names {
        assert_eq!(err_name(c), n);
    }
    let string = |c| {
        // SAFETY: a static NUL-terminated string.
        unsafe { CStr::from_ptr(cudaGetErrorString(c)) }
            .to_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(string(0), "no error");
    assert_eq!(string(1), "invalid argument");
    assert_eq!(string(101), "invalid device ordinal");
    assert_eq!(string(201), "invalid device context");
    assert_eq!(string(400), "invalid resource handle");
    assert_eq!(string(600), "device not ready");
    assert_eq!(string(700), "an illegal memory access was encountered");
    assert_eq!(string(719), "unspecified launch failure");
    assert_eq!(string(800), "operation not permitted");
    // Unknown codes still get a string; the pointers are static (the same on every call).
    for c in [3_u32, 12_345, u32::MAX] {
        assert!(!cudaGetErrorName(c).is_null());
        assert!(!string(c).is_empty());
    }
    assert_eq!(cudaGetErrorName(600), cudaGetErrorName(600));
    assert_eq!(cudaGetErrorString(600), cudaGetErrorString(600));
}

mod device_queries;
mod devices;
mod events;
mod host_memory;
mod ipc;
mod launches;
mod managed;
mod pools;
mod sticky;
mod stream_info;
mod streams;

use {ipc::*, streams::*};

// ------------------------------------------------------------------------------------------------ defaults

const CHILD_VAR: &str = "STREAMSIM_FACADE_TEST_CHILD";

/// Runs the `#[ignore]`d test `test` of this binary in a child process with `CHILD_VAR=scenario` and `env`
/// (and no inherited `STREAMSIM_*`); returns its output after checking that exactly that test ran.
pub(crate) fn run_child(test: &str, scenario: &str, env: &[(&str, &str)]) -> std::process::Output {
    let exe = std::env::current_exe().expect("the test binary");
    let host = format!("cf-{}-{scenario}", std::process::id());
    // Whatever of the child's host is left in /dev/shm goes once it has ended (also if this test fails).
    let _clean = crate::c_programs::HostCleanup(host.clone());
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        test,
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env_remove("STREAMSIM_DEVICES")
    .env_remove("STREAMSIM_SEED")
    // A shared host of its own (its IPC calls must not meet another test's children).
    .env("STREAMSIM_MACHINE", &host)
    .env(CHILD_VAR, scenario);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("1 passed") || !out.status.success(),
        "the child did not run {test}: {stdout}"
    );
    out
}

/// Asserts that a child run passed, showing its output otherwise.
fn child_passed(scenario: &str, env: &[(&str, &str)]) -> std::process::Output {
    let out = run_child("cuda_facade::default_machine_child", scenario, env);
    assert!(
        out.status.success(),
        "child scenario {scenario} with {env:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The first interprocess event's handle on a process: its bytes depend on the machine seed only.
fn first_ipc_handle_bytes() -> [c_char; 64] {
    let e = event(cudaEventDisableTiming | cudaEventInterprocess);
    let mut h = cudaIpcEventHandle_t { reserved: [0; 64] };
    check!(cudaSuccess, cudaIpcGetEventHandle(&mut h, e));
    h.reserved
}

/// The same handle from an explicitly built machine.
fn reference_handle_bytes(devices: u32, seed: u64) -> [c_char; 64] {
    let m = Machine::builder()
        .devices(devices)
        .seed(seed)
        .build()
        .unwrap();
    let p = m.process();
    on(&p, first_ipc_handle_bytes)
}

/// The child side of the default-machine tests: does nothing unless started by one of them.
#[test]
#[ignore = "runs in a child process started by the default_machine_* tests"]
fn default_machine_child() {
    let Ok(scenario) = std::env::var(CHILD_VAR) else {
        return;
    };
    let mut n = -1;
    match scenario.as_str() {
        "configured" => {
            // STREAMSIM_DEVICES=3 STREAMSIM_SEED=42, no binding.
            let bytes = first_ipc_handle_bytes();
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 3);
            check!(cudaSuccess, cudaSetDevice(2));
            check!(cudaErrorInvalidDevice, cudaSetDevice(3));
            // Bytes 28..64: where the export lives on the default machine's shared host.
            assert_eq!(bytes[..28], reference_handle_bytes(3, 42)[..28], "seed 42");
            assert_ne!(bytes[..28], reference_handle_bytes(3, 0)[..28]);
            // MUSA has its own default machine, configured the same way.
            let mut d = -1;
            // SAFETY: valid out-pointers.
            unsafe {
                assert_eq!(streamsim::musa::musaGetDeviceCount(&mut n), 0);
                assert_eq!(streamsim::musa::musaGetDevice(&mut d), 0);
            }
            assert_eq!(
                (n, d),
                (3, 0),
                "cudaSetDevice(2) did not move the MUSA machine"
            );
            // A binding takes precedence over the default machine.
            let (_m, p) = machine(1);
            on(&p, || {
                check!(cudaSuccess, cudaGetDeviceCount(&mut n));
                assert_eq!(n, 1);
            });
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 3);
        }
        "unset" => {
            let bytes = first_ipc_handle_bytes();
            check!(cudaSuccess, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 1);
            // The default machine is on a shared host: bytes 28..64 say where the export lives there (they
            // differ between runs); the rest is the unshared machine's handle.
            assert_eq!(bytes[..28], reference_handle_bytes(1, 0)[..28], "seed 0");
            check!(cudaSuccess, kernel(null_mut(), 10));
            check!(cudaSuccess, cudaDeviceSynchronize());
        }
        "zero" => {
            check!(cudaErrorNoDevice, cudaGetDeviceCount(&mut n));
            assert_eq!(n, 0);
            check!(cudaErrorInvalidDevice, cudaSetDevice(0));
        }
        "bad" => {
            let mut p = null_mut();
            let mut s = null_mut();
            check!(cudaErrorNoDevice, cudaGetDeviceCount(&mut n));
            check!(cudaErrorNoDevice, cudaMalloc(&mut p, 16));
            check!(cudaErrorNoDevice, cudaStreamCreate(&mut s));
            check!(cudaErrorNoDevice, kernel(null_mut(), 1));
            check!(cudaErrorNoDevice, cudaGetLastError());
            // SAFETY: a valid out-pointer.
            assert_eq!(
                unsafe { streamsim::musa::musaGetDeviceCount(&mut n) },
                cudaErrorNoDevice
            );
            // A bound process is unaffected.
            let (_m, q) = machine(2);
            on(&q, || {
                check!(cudaSuccess, cudaGetDeviceCount(&mut n));
                assert_eq!(n, 2);
            });
        }
        "bad_host_fn" => {
            // A call from inside a host function is 800 whatever the environment says.
            let (_m, q) = machine(1);
            let codes: &'static Codes = Box::leak(Box::new(Mutex::new(Vec::new())));
            on(&q, || {
                check!(
                    cudaSuccess,
                    cudaLaunchHostFunc(
                        null_mut(),
                        Some(call_the_runtime),
                        codes as *const Codes as *mut c_void
                    )
                );
                check!(cudaSuccess, cudaDeviceSynchronize());
            });
            all_not_permitted(codes, 17);
        }
        other => panic!("unknown child scenario {other}"),
    }
}

/// facade · default machine: `STREAMSIM_DEVICES` sets the device count and `STREAMSIM_SEED` the seed (seen in
/// the IPC handle bytes, which depend on the seed only); MUSA has its own default machine; a binding wins.
#[test]
fn default_machine_is_configured_from_the_environment() {
    child_passed(
        "configured",
        &[("STREAMSIM_DEVICES", "3"), ("STREAMSIM_SEED", "42")],
    );
}

/// facade · default machine: without the variables, one device and seed 0.
#[test]
fn default_machine_defaults() {
    child_passed("unset", &[]);
}

/// facade · default machine: `STREAMSIM_DEVICES=0` is a machine without devices (GetDeviceCount → 100 and 0).
#[test]
fn default_machine_without_devices() {
    child_passed("zero", &[("STREAMSIM_DEVICES", "0")]);
}

/// facade · default machine: a bad value is a clear error, not a silent default: every call → 100 NoDevice,
/// and the message naming the variable is printed once per facade.
#[test]
fn default_machine_with_a_bad_environment() {
    for (var, value) in [
        ("STREAMSIM_DEVICES", "abc"),
        ("STREAMSIM_DEVICES", "-1"),
        ("STREAMSIM_DEVICES", "1.5"),
        ("STREAMSIM_DEVICES", ""),
        ("STREAMSIM_DEVICES", "5000"),
        ("STREAMSIM_SEED", "x"),
        ("STREAMSIM_SEED", "-1"),
        ("STREAMSIM_SEED", "18446744073709551616"),
    ] {
        let out = child_passed("bad", &[(var, value)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<_> = stderr.lines().filter(|l| l.contains(var)).collect();
        assert_eq!(
            lines.len(),
            2,
            "{var}={value:?}: one message per facade (CUDA, MUSA), got {stderr:?}"
        );
    }
}

/// cuda-musa.md · Stream wait, streams, devices · any runtime call · made from inside a host function → 800,
/// even when the default machine's environment is bad (the host function's calls must not be routed to it)
#[test]
fn calls_from_a_host_function_are_800_whatever_the_environment() {
    child_passed("bad_host_fn", &[("STREAMSIM_DEVICES", "abc")]);
}
