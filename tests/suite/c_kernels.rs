//! C kernel bodies on device memory (`cudasimLaunchKernelCtx`, `musasimLaunchKernelCtx`,
//! `aclsimLaunchKernelCtx` and the `streamsimKernel*` accessors; `docs/semantics/kernel-bodies.md`): the C
//! programs of `tests/c/` that compute on the device and check their data, built as C11 and C++17 like those
//! of `c_programs.rs`, and the same calls made from Rust through the C ABI where a test needs what C cannot
//! see yet (the machine's race reports, schedule perturbation).

use std::time::Duration;

use streamsim::capi::{STREAMSIM_ACCESS_READ, STREAMSIM_ERROR_INVALID_HANDLE};

use crate::c_programs::{Lang, assert_success, build, run, toolchain};

const LIMIT: Duration = Duration::from_secs(60);

/// Builds `tests/c/<name>.c` as C11 and as C++17 (linked with libm) and runs both with `args` and `env`;
/// returns both standard outputs.
fn build_and_run(name: &str, args: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let src = toolchain().c_dir.join(format!("{name}.c"));
    [Lang::C, Lang::Cxx]
        .into_iter()
        .map(|lang| {
            let exe = build(&src, name, lang, &["-lm"]);
            assert_success(&format!("{name} ({lang:?})"), &run(&exe, args, env, LIMIT))
        })
        .collect()
}

/// cuda-samples vectorAdd, ported: two H2D copies, the kernel computes C = A + B through its context on
/// 50,000 floats, a D2H copy, and the sample's own check of every element (`fabs(A + B - C) > 1e-5` fails
/// it), then the frees. The output is the sample's, line for line.
#[test]
fn cuda_samples_vector_add_computes_on_device_memory() {
    for out in build_and_run("vector_add", &[], &[]) {
        assert_eq!(
            out,
            "[Vector addition of 50000 elements]\n\
             Copy input data from the host memory to the CUDA device\n\
             CUDA kernel launch with 196 blocks of 256 threads\n\
             Copy output data from the CUDA device to the host memory\n\
             Test PASSED\n\
             Done\n"
        );
    }
}

/// A C body with CUDA names (`tests/c/kernel_ctx_cuda.c`), each case on a machine of its own: reads, writes
/// and a read-modify-write map of what it declared (`b[0] == 1001`, `b[i] == 2i + 1`); a saved context after
/// the body, NULL and a forged one → `STREAMSIM_ERROR_INVALID_HANDLE`; an undeclared read, a write one int
/// past the allocation, a write of a read-only range → `STREAMSIM_ERROR_ILLEGAL_ADDRESS` in the body, then
/// every later access of the body too, `cudaStreamSynchronize` → 700 with a message naming the kernel, 700
/// from `cudaMalloc` and `cudaGetLastError` (sticky) until `cudaDeviceReset`; a map whose read-only bytes the
/// body changes → 700 when it returns; host-side mistakes → `STREAMSIM_ERROR_INVALID_VALUE` and no fault;
/// access flags 0 and 4 refused at the launch (1), READ | WRITE accepted; a kernel writing `cudaMallocHost`
/// memory through its context, read back by the host at the same address.
#[test]
fn cuda_kernel_bodies_touch_only_what_they_declared() {
    for out in build_and_run("kernel_ctx_cuda", &[], &[]) {
        assert_eq!(out, "kernel bodies (CUDA): ok\n");
    }
}

/// A C body with ACL names (`tests/c/kernel_ctx_acl.c`, `STREAMSIM_DEVICES=2`): `out[i] = in[i]²` on device 0
/// through maps, every element checked after the D2H copy; `aclrtMallocHost` memory declared → 107000 and
/// `aclGetRecentErrMsg` names `aclsimLaunchKernelCtx` and pinned host memory, the body never runs; on device
/// 1 an undeclared read → `STREAMSIM_ERROR_ILLEGAL_ADDRESS` (and the next access too), `aclrtSynchronizeStream`
/// → 507015 with a message about the declared accesses, then `aclrtSynchronizeDevice` → 0 (reported once: the
/// default failure mode ACL_CONTINUE_ON_FAILURE, acl-runtime-api.md); device 0 computes again afterwards.
#[test]
fn acl_kernel_bodies_compute_and_fault_on_their_device() {
    for out in build_and_run("kernel_ctx_acl", &[], &[("STREAMSIM_DEVICES", "2")]) {
        assert_eq!(out, "kernel bodies (ACL): ok\n");
    }
}

/// The racy two-stream program (`tests/c/racy_kernels.c`): fixed (an event between the streams) → every
/// element fresh; the bug with the losing schedule forced (produce's body waits for consume's through a flag
/// the simulator cannot see) → every element of `out` stale and every element of `buf` written; the bug as
/// the OS schedules it → each element 0 or i + 1, never anything else (how many are stale varies between
/// runs: the OS threads of the two streams decide, not the seed).
#[test]
fn a_racy_c_program_reads_stale_device_data() {
    for out in build_and_run("racy_kernels", &["fixed"], &[]) {
        assert_eq!(out, "fixed: every element is fresh\n");
    }
    for out in build_and_run("racy_kernels", &["forced"], &[]) {
        assert_eq!(out, "forced: every element is stale\n");
    }
    for out in build_and_run("racy_kernels", &["racy"], &[]) {
        let stale: u32 = out
            .strip_prefix("racy: ")
            .and_then(|r| r.strip_suffix(" of 4096 elements stale\n"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected output {out:?}"));
        assert!(stale <= 4096);
    }
}

/// The same calls from Rust, through the C ABI: helpers, the racy program, and probe bodies.
mod abi {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use std::sync::atomic::{AtomicI32, Ordering::SeqCst};

    use streamsim::capi::*;
    use streamsim::cuda::*;
    use streamsim::race::Accessor;
    use streamsim::{AddressSpace, Machine, Process};

    use crate::common::with_watchdog;

    pub const N: usize = 4096;
    pub const BYTES: usize = N * 4;

    /// A CUDA machine of one device, bound on a fresh thread under a watchdog, running `f`.
    pub fn on_cuda<T: Send + 'static>(
        m: &Machine,
        f: impl FnOnce(&Process) -> T + Send + 'static,
    ) -> T {
        let p = m.process();
        with_watchdog(30, move || {
            let _bound = p.bind();
            f(&p)
        })
    }

    pub fn dmalloc(bytes: usize) -> *mut c_void {
        let mut p = null_mut();
        // SAFETY: a valid out-pointer.
        assert_eq!(unsafe { cudaMalloc(&mut p, bytes) }, cudaSuccess);
        p
    }

    pub fn access(ptr: *mut c_void, bytes: usize, flags: i32) -> streamsimAccess {
        streamsimAccess {
            ptr: ptr.cast_const(),
            bytes,
            flags,
        }
    }

    /// The two device buffers of the racy program.
    #[repr(C)]
    pub struct Bufs {
        pub buf: *mut c_void,
        pub out: *mut c_void,
    }

    /// `produce`: buf[i] = i + 1 through a map.
    pub unsafe extern "C" fn produce(ctx: *mut streamsimKernelCtx, arg: *mut c_void) {
        // SAFETY: `arg` is the `Bufs` the test launched with; it outlives the kernel.
        let b = unsafe { &*arg.cast::<Bufs>() };
        let mut m = null_mut();
        // SAFETY: a valid out-pointer; the map holds BYTES bytes aligned as the 256-aligned device pointer.
        unsafe {
            assert_eq!(
                streamsimKernelMap(ctx, b.buf, BYTES, &mut m),
                STREAMSIM_SUCCESS
            );
            let v = std::slice::from_raw_parts_mut(m.cast::<u32>(), N);
            for (i, x) in v.iter_mut().enumerate() {
                *x = i as u32 + 1;
            }
        }
    }

    /// `consume`: out = buf, through the read and write calls.
    pub unsafe extern "C" fn consume(ctx: *mut streamsimKernelCtx, arg: *mut c_void) {
        // SAFETY: as in `produce`.
        let b = unsafe { &*arg.cast::<Bufs>() };
        let mut v = vec![0u8; BYTES];
        // SAFETY: `v` holds BYTES bytes.
        unsafe {
            assert_eq!(
                streamsimKernelRead(ctx, v.as_mut_ptr().cast(), b.buf, BYTES),
                STREAMSIM_SUCCESS
            );
            assert_eq!(
                streamsimKernelWrite(ctx, b.out, v.as_ptr().cast(), BYTES),
                STREAMSIM_SUCCESS
            );
        }
    }

    /// Runs the two-stream program on `m` (`fixed`: with the event between the streams); returns `out`.
    pub fn two_streams(m: &Machine, fixed: bool) -> Vec<u32> {
        on_cuda(m, move |_| unsafe {
            let b = Box::leak(Box::new(Bufs {
                buf: dmalloc(BYTES),
                out: dmalloc(BYTES),
            }));
            let (mut s1, mut s2, mut e) = (null_mut(), null_mut(), null_mut());
            assert_eq!(cudaStreamCreate(&mut s1), cudaSuccess);
            assert_eq!(cudaStreamCreate(&mut s2), cudaSuccess);
            assert_eq!(
                cudaEventCreateWithFlags(&mut e, cudaEventDisableTiming),
                cudaSuccess
            );
            let arg = (b as *mut Bufs).cast::<c_void>();
            let w = [access(b.buf, BYTES, STREAMSIM_ACCESS_WRITE)];
            let rw = [
                access(b.buf, BYTES, STREAMSIM_ACCESS_READ),
                access(b.out, BYTES, STREAMSIM_ACCESS_WRITE),
            ];
            let produce_name = c"produce".as_ptr();
            assert_eq!(
                cudasimLaunchKernelCtx(
                    s1,
                    produce_name,
                    500_000,
                    Some(produce),
                    arg,
                    w.as_ptr(),
                    1
                ),
                cudaSuccess
            );
            if fixed {
                assert_eq!(cudaEventRecord(e, s1), cudaSuccess);
                assert_eq!(cudaStreamWaitEvent(s2, e, 0), cudaSuccess);
            }
            let consume_name = c"consume".as_ptr();
            assert_eq!(
                cudasimLaunchKernelCtx(
                    s2,
                    consume_name,
                    10_000,
                    Some(consume),
                    arg,
                    rw.as_ptr(),
                    2
                ),
                cudaSuccess
            );
            assert_eq!(cudaDeviceSynchronize(), cudaSuccess);
            let mut out = vec![0u32; N];
            assert_eq!(
                cudaMemcpy(
                    out.as_mut_ptr().cast(),
                    b.out,
                    BYTES,
                    cudaMemcpyDeviceToHost
                ),
                cudaSuccess
            );
            out
        })
    }

    /// Checks that every element is 0 (stale) or i + 1 (fresh); returns how many are stale.
    pub fn stale(out: &[u32]) -> usize {
        for (i, &x) in out.iter().enumerate() {
            assert!(x == 0 || x == i as u32 + 1, "element {i} is {x}");
        }
        out.iter().filter(|&&x| x == 0).count()
    }

    pub use streamsim::race::RaceReport;

    /// The one race of the racy program: `produce` (stream 1) writes the first allocation's 16 KiB,
    /// `consume` (stream 2) reads them; the fix is the event.
    pub fn assert_the_race(reports: &[RaceReport]) {
        assert_eq!(reports.len(), 1, "{reports:#?}");
        let r = &reports[0];
        let op = |a: &Accessor| match a {
            Accessor::Op { stream, label, .. } => (stream.to_string(), label.clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(op(&r.first.who), ("stream 1".into(), "produce".into()));
        assert_eq!(op(&r.second.who), ("stream 2".into(), "consume".into()));
        assert!(r.first.write);
        assert!(!r.second.write);
        assert_eq!((r.allocation, r.offset, r.bytes), (1, 0, BYTES as u64));
        assert_eq!(r.space, AddressSpace::Device(0));
        assert_eq!(
            r.fix(),
            "record an event on stream 1 after `produce` and make stream 2 wait on it before `consume`"
        );
    }

    /// The codes a probe body saw, in order.
    pub static CODES: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

    pub fn note(code: i32) {
        CODES.lock().unwrap().push(code);
    }

    pub fn take_codes() -> Vec<i32> {
        std::mem::take(&mut *CODES.lock().unwrap())
    }

    /// What a probe body is given: a buffer, and what to do.
    #[repr(C)]
    pub struct Probe {
        pub d: *mut c_void,
        pub step: i32,
    }

    /// The probe bodies, by `step`.
    pub unsafe extern "C" fn probe(ctx: *mut streamsimKernelCtx, arg: *mut c_void) {
        // SAFETY: the `Probe` the test launched with, alive until the kernel ran.
        let p = unsafe { &*arg.cast::<Probe>() };
        let at = |off: usize| p.d.wrapping_byte_add(off);
        // SAFETY (all calls): valid out-pointers and host buffers of the sizes given.
        unsafe {
            match p.step {
                // Maps: a range inside an earlier map is a pointer into it; a partial overlap is refused; a
                // map keeps the device address's alignment modulo 64.
                0 => {
                    let (mut whole, mut inner, mut partial, mut odd) =
                        (null_mut(), null_mut(), null_mut(), null_mut());
                    note(streamsimKernelMap(ctx, p.d, 256, &mut whole));
                    note(streamsimKernelMap(ctx, at(16), 32, &mut inner));
                    note((inner == whole.wrapping_byte_add(16)) as i32);
                    note(streamsimKernelMap(ctx, at(200), 100, &mut partial));
                    note(streamsimKernelMap(ctx, at(260), 8, &mut odd));
                    note((odd as usize % 64) as i32);
                }
                // Coherence: a read sees the map's bytes; a write is seen through the map, and is not
                // overwritten by the map's old bytes at the end.
                1 => {
                    let mut m = null_mut();
                    note(streamsimKernelMap(ctx, p.d, 16, &mut m));
                    *m.cast::<u8>() = 7;
                    let mut back = [0u8; 2];
                    note(streamsimKernelRead(ctx, back.as_mut_ptr().cast(), p.d, 2));
                    note(back[0] as i32);
                    let nine = [9u8];
                    note(streamsimKernelWrite(ctx, at(1), nine.as_ptr().cast(), 1));
                    note(*m.cast::<u8>().add(1) as i32);
                }
                // The context from another thread: refused; zero bytes: nothing to check.
                2 => {
                    let token = ctx as usize;
                    let d = p.d as usize;
                    let code = std::thread::spawn(move || {
                        let mut x = 0u8;
                        streamsimKernelRead(
                            token as *mut streamsimKernelCtx,
                            (&raw mut x).cast(),
                            d as *const c_void,
                            1,
                        )
                    })
                    .join()
                    .unwrap();
                    note(code);
                    note(streamsimKernelRead(ctx, null_mut(), null(), 0));
                }
                // Read what the launch declared, after the program freed it.
                _ => {
                    let mut v = [0u8; 4];
                    note(streamsimKernelRead(ctx, v.as_mut_ptr().cast(), p.d, 4));
                    note(i32::from_le_bytes(v));
                }
            }
        }
    }

    /// Launches the probe `step` on `stream` with `d` declared read-write for `bytes`; waits for it.
    pub fn run_probe(stream: cudaStream_t, d: *mut c_void, bytes: usize, step: i32) -> cudaError_t {
        let arg = Box::into_raw(Box::new(Probe { d, step })).cast::<c_void>();
        let acc = [access(
            d,
            bytes,
            STREAMSIM_ACCESS_READ | STREAMSIM_ACCESS_WRITE,
        )];
        // SAFETY: `arg` lives until the kernel ran (leaked); one access.
        unsafe {
            let r = cudasimLaunchKernelCtx(
                stream,
                c"probe".as_ptr(),
                1_000,
                Some(probe),
                arg,
                acc.as_ptr(),
                1,
            );
            assert_eq!(r, cudaSuccess);
            cudaStreamSynchronize(stream)
        }
    }

    pub static FAULTS: AtomicI32 = AtomicI32::new(0);

    /// A body that reads one byte past its declared range.
    pub unsafe extern "C" fn overreach(ctx: *mut streamsimKernelCtx, arg: *mut c_void) {
        let mut x = 0u8;
        // SAFETY: a valid host byte; `arg` is the device pointer the kernel declared 8 bytes of.
        let r =
            unsafe { streamsimKernelRead(ctx, (&raw mut x).cast(), arg.wrapping_byte_add(8), 1) };
        if r == STREAMSIM_ERROR_ILLEGAL_ADDRESS {
            FAULTS.fetch_add(1, SeqCst);
        }
    }
}

/// Maps: a range inside an earlier map gives a pointer into it (`inner == whole + 16`), a range that only
/// partly overlaps one is `STREAMSIM_ERROR_INVALID_VALUE` (1), and a map of `d + 260` is at 260 % 64 = 4
/// modulo 64; coherence: a read sees a byte written through a map (7), a write is seen through the map (9)
/// and both reach the device memory when the body returns.
#[test]
fn maps_nest_keep_alignment_and_stay_coherent_with_reads_and_writes() {
    use streamsim::cuda::*;
    let m = streamsim::Machine::builder().devices(1).build().unwrap();
    abi::on_cuda(&m, |_| unsafe {
        let d = abi::dmalloc(512);
        let mut s = std::ptr::null_mut();
        assert_eq!(cudaStreamCreate(&mut s), cudaSuccess);
        abi::take_codes();
        assert_eq!(abi::run_probe(s, d, 512, 0), cudaSuccess);
        assert_eq!(abi::take_codes(), [0, 0, 1, 1, 0, 4]);
        assert_eq!(abi::run_probe(s, d, 16, 1), cudaSuccess);
        assert_eq!(abi::take_codes(), [0, 0, 7, 0, 9]);
        let mut host = [0u8; 2];
        assert_eq!(
            cudaMemcpy(host.as_mut_ptr().cast(), d, 2, cudaMemcpyDeviceToHost),
            cudaSuccess
        );
        assert_eq!(host, [7, 9]);
    });
}

/// The context used from another thread while its body runs → `STREAMSIM_ERROR_INVALID_HANDLE` (2); an
/// access of zero bytes checks nothing (0); memory freed after the launch is still there for the body (the
/// ranges resolved at the launch, as for copies): it reads the 0x2a the program copied in.
#[test]
fn contexts_are_per_thread_and_declared_ranges_are_resolved_at_the_launch() {
    use streamsim::cuda::*;
    let m = streamsim::Machine::builder().devices(1).build().unwrap();
    abi::on_cuda(&m, |_| unsafe {
        let d = abi::dmalloc(64);
        let mut s = std::ptr::null_mut();
        assert_eq!(cudaStreamCreate(&mut s), cudaSuccess);
        abi::take_codes();
        assert_eq!(abi::run_probe(s, d, 64, 2), cudaSuccess);
        assert_eq!(abi::take_codes(), [STREAMSIM_ERROR_INVALID_HANDLE, 0]);

        let v = 42i32.to_le_bytes();
        assert_eq!(
            cudaMemcpy(d, v.as_ptr().cast(), 4, cudaMemcpyHostToDevice),
            cudaSuccess
        );
        // A long kernel first, so the probe runs after the free.
        assert_eq!(
            cudasimLaunchKernel(s, c"long".as_ptr(), 1_000_000, None, std::ptr::null_mut()),
            cudaSuccess
        );
        let arg = Box::into_raw(Box::new(abi::Probe { d, step: 3 })).cast();
        let acc = [abi::access(d, 4, STREAMSIM_ACCESS_READ)];
        let r = cudasimLaunchKernelCtx(
            s,
            c"probe".as_ptr(),
            1_000,
            Some(abi::probe),
            arg,
            acc.as_ptr(),
            1,
        );
        assert_eq!(r, cudaSuccess);
        assert_eq!(cudaFree(d), cudaSuccess);
        assert_eq!(cudaStreamSynchronize(s), cudaSuccess);
        assert_eq!(abi::take_codes(), [0, 42]);
    });
}

/// `musasimLaunchKernelCtx`: a read one byte past the declared 8 → the body sees
/// `STREAMSIM_ERROR_ILLEGAL_ADDRESS`, `musaStreamSynchronize` → `musaErrorIllegalAddress` (700), sticky
/// (`musaGetLastError` → 700), and a later kernel of the stream does not run its body.
#[test]
fn musa_kernel_bodies_fault_with_musa_codes() {
    use streamsim::musa::*;
    let m = streamsim::Machine::builder().devices(1).build().unwrap();
    abi::on_cuda(&m, |_| unsafe {
        let mut d = std::ptr::null_mut();
        assert_eq!(musaMalloc(&mut d, 64), musaSuccess);
        let mut s = std::ptr::null_mut();
        assert_eq!(musaStreamCreate(&mut s), musaSuccess);
        let acc = [abi::access(d, 8, STREAMSIM_ACCESS_READ)];
        for _ in 0..2 {
            assert_eq!(
                musasimLaunchKernelCtx(
                    s,
                    c"overreach".as_ptr(),
                    1_000,
                    Some(abi::overreach),
                    d,
                    acc.as_ptr(),
                    1
                ),
                musaSuccess
            );
        }
        assert_eq!(musaStreamSynchronize(s), musaErrorIllegalAddress);
        assert_eq!(musaErrorIllegalAddress, 700);
        assert_eq!(musaGetLastError(), musaErrorIllegalAddress);
        assert_eq!(abi::FAULTS.load(std::sync::atomic::Ordering::SeqCst), 1);
    });
}

/// The racy program's calls from Rust, on machines with schedule perturbation and seeds 0 to 7: the race
/// detector reports the one race the same way on every seed (produce on stream 1 writes 16384 bytes at
/// offset 0 of allocation #1, consume on stream 2 reads them, the event is the fix), whatever data the
/// schedule gave (each element 0 or i + 1); with the event there is no report and every element is fresh.
#[test]
fn the_racy_program_is_reported_on_every_seed() {
    use streamsim::Machine;
    for seed in 0..8 {
        let m = Machine::builder()
            .devices(1)
            .seed(seed)
            .perturb(true)
            .build()
            .expect("machine");
        let out = abi::two_streams(&m, false);
        abi::stale(&out);
        abi::assert_the_race(&m.race_reports());

        let m = Machine::builder()
            .devices(1)
            .seed(seed)
            .perturb(true)
            .build()
            .expect("machine");
        let out = abi::two_streams(&m, true);
        assert_eq!(abi::stale(&out), 0);
        assert!(m.race_reports().is_empty(), "{:#?}", m.race_reports());
    }
}
