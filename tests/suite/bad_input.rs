//! Extreme and impossible input that once reached a panic, an abort or a silent wrong answer, and the typed
//! answer it gets now. Each answer is checked through the core and, where a facade exposes the call, as the
//! vendor's code.
//!
//! - handles and streams: processes beyond what a handle can encode (id 4096 and up), and a stream whose
//!   worker thread the host refuses to start (a machine whose workers ask for a stack no host can give).
//! - virtual time: huge kernel durations, timeouts and costs saturate at `u64::MAX` ns, never wrap.
//! - memory and machines: huge device counts and memory sizes, kernel bodies reading more than `usize`
//!   can hold.
//! - the C boundary: copy counts and access arrays no host buffer can have.
//!
//! Exhausting a process's handle registry (2^22 live objects), the creation ordinals (2^32) or a handle
//! slot's epochs is tested on the registry itself (`src/engine/core/handle.rs`), and a device's used-up address range on
//! its heap (`src/engine/memory/mod.rs`): creating millions of objects here would be slow.

use std::ffi::c_void;
use std::ptr::null_mut;
use std::time::Duration;

use streamsim::acl::{
    ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_RT_PARAM_INVALID, ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_DEVICE_TO_HOST, ACL_SUCCESS, aclrtCreateEvent, aclrtMalloc, aclrtMemcpy,
    aclrtSetDevice,
};
use streamsim::cuda::{
    cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaEventCreate, cudaMalloc, cudaMemcpy,
    cudaMemcpyDeviceToHost, cudaMemcpyHostToHost, cudaStreamCreate, cudaSuccess,
    cudasimLaunchKernelEx, streamsimAccess,
};
use streamsim::{
    Attribute, CostModel, DeviceConfig, Dialect, EventFlags, FaultKind, Kernel, LinkCost, Machine,
    ObjectKind, ObjectLimit, Process, ProcessId, SimError, Stream, StreamFlags, StreamKind,
    VirtualTime,
};

use crate::common::{cuda1, kernel};

/// The 4097th process of a machine (id 4096), the first one a handle cannot name, with the 4,096 before it
/// kept alive (the id of a process that is gone is given again: `churn.rs`).
fn process_4096(m: &Machine) -> (Process, Vec<Process>) {
    let mut alive = Vec::new();
    let mut p = m.process();
    while p.id() < ProcessId(4096) {
        alive.push(p);
        p = m.process();
    }
    (p, alive)
}

/// What creating an object of `kind` in process 4096 fails with.
fn too_many(kind: ObjectKind) -> SimError {
    SimError::TooManyObjects {
        kind,
        process: ProcessId(4096),
        limit: ObjectLimit::ProcessId { max: 4095 },
    }
}

/// Process 4096 of a CUDA machine with 4,096 processes alive (a handle has 12 bits for the process): creating an event, a stream or
/// the legacy default stream is `TooManyObjects { limit: ProcessId { max: 4095 } }` — before, the handles were
/// made with the process bits cut off and every later use failed as "another process's". Through CUDA:
/// 2 `cudaErrorMemoryAllocation`. Process 4095 still works.
#[test]
fn a_cuda_process_beyond_what_a_handle_encodes_cannot_create_objects() {
    let (m, _) = cuda1();
    let (p, _alive) = process_4096(&m);
    assert_eq!(
        p.create_event(EventFlags::DEFAULT),
        Err(too_many(ObjectKind::Event))
    );
    assert_eq!(
        p.create_stream(StreamFlags::DEFAULT),
        Err(too_many(ObjectKind::Stream))
    );
    assert_eq!(
        p.launch(Stream::DEFAULT, kernel("k", 1)),
        Err(too_many(ObjectKind::Stream))
    );
    {
        let _g = p.bind();
        let mut h: *mut c_void = null_mut();
        // SAFETY: a valid out-pointer.
        unsafe {
            assert_eq!(cudaEventCreate(&mut h), cudaErrorMemoryAllocation);
            assert_eq!(cudaStreamCreate(&mut h), cudaErrorMemoryAllocation);
        }
        assert_eq!(p.peek_last_error(), Some(too_many(ObjectKind::Stream)));
    }
    // The process before it is the last one a handle can name.
    let m2 = Machine::builder().build().unwrap();
    let mut q = m2.process();
    while q.id() < ProcessId(4095) {
        q = m2.process();
    }
    let e = q.create_event(EventFlags::DEFAULT).unwrap();
    q.record_event(e, Stream::DEFAULT).unwrap();
    q.event_synchronize(e).unwrap();
}

/// Process 4096 of an ACL machine with 4,096 processes alive: `aclrtSetDevice` (which creates the default context) and
/// `aclrtCreateEvent` give 207001 `ACL_ERROR_RT_MEMORY_ALLOCATION`; the core says `TooManyObjects`.
#[test]
fn an_acl_process_beyond_what_a_handle_encodes_cannot_create_objects() {
    let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
    let (p, _alive) = process_4096(&m);
    assert_eq!(p.set_device(0), Err(too_many(ObjectKind::Context)));
    assert_eq!(p.create_context(0), Err(too_many(ObjectKind::Context)));
    let _g = p.bind();
    assert_eq!(aclrtSetDevice(0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    let mut e: *mut c_void = null_mut();
    // SAFETY: a valid out-pointer.
    let code = unsafe { aclrtCreateEvent(&mut e) };
    // No context could be made, so the event has no current context: 107002.
    assert_eq!(code, 107002);
}

/// 2^64 + 5 ns: a duration whose nanoseconds, cut to 64 bits, are 5 ns.
fn past_u64_nanos() -> Duration {
    Duration::new(18_446_744_073, 709_551_621)
}

/// A kernel of 2^64 + 5 ns, and one of `Duration::MAX`: each ends at `u64::MAX` ns (saturated), not 5 ns
/// after its start; what follows on the stream ends there too, and the elapsed time is positive.
#[test]
fn kernel_durations_past_u64_nanos_saturate() {
    let (_m, p) = cuda1();
    let (start, stop) = (
        p.create_event(EventFlags::DEFAULT).unwrap(),
        p.create_event(EventFlags::DEFAULT).unwrap(),
    );
    p.record_event(start, Stream::DEFAULT).unwrap();
    p.launch(
        Stream::DEFAULT,
        Kernel::new("long").duration(past_u64_nanos()),
    )
    .unwrap();
    p.record_event(stop, Stream::DEFAULT).unwrap();
    assert_eq!(
        p.event_record_time(stop).unwrap(),
        Some(VirtualTime(u64::MAX))
    );
    p.launch(Stream::DEFAULT, Kernel::new("max").duration(Duration::MAX))
        .unwrap();
    p.launch(Stream::DEFAULT, kernel("after", 1)).unwrap();
    p.record_event(stop, Stream::DEFAULT).unwrap();
    p.event_synchronize(stop).unwrap();
    assert_eq!(
        p.event_record_time(stop).unwrap(),
        Some(VirtualTime(u64::MAX))
    );
    assert_eq!(p.now(), VirtualTime(u64::MAX));
    assert!(p.event_elapsed_ms(start, stop).unwrap() > 1.8e13);
}

/// A synchronize with a timeout of 2^64 + 5 ns, or `Duration::MAX`, on a 1 ms kernel: success (the timeout
/// is "forever"), not `Timeout` after 5 ns.
#[test]
fn timeouts_past_u64_nanos_are_forever() {
    let (_m, p) = cuda1();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    for timeout in [past_u64_nanos(), Duration::MAX] {
        p.launch(s, kernel("k", 1_000)).unwrap();
        p.stream_synchronize_timeout(s, timeout).unwrap();
        p.launch(s, kernel("k", 1_000)).unwrap();
        p.record_event(e, s).unwrap();
        p.event_synchronize_timeout(e, timeout).unwrap();
    }
}

/// A cost model whose call overhead is 2^64 + 5 ns: the first call moves the host clock to `u64::MAX` ns,
/// not 5 ns, and later calls stay there. `LinkCost::new(0, u64::MAX)` (GB/s) saturates its bandwidth at
/// `u64::MAX` bytes per second instead of overflowing.
#[test]
fn cost_model_values_past_u64_nanos_saturate() {
    let mut cost = CostModel::default();
    cost.api_call = past_u64_nanos();
    cost.launch_latency = Duration::MAX;
    let m = Machine::builder().cost_model(cost).build().unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(p.now(), VirtualTime(u64::MAX));
    p.launch(s, kernel("k", 1)).unwrap();
    p.stream_synchronize(s).unwrap();
    assert_eq!(p.now(), VirtualTime(u64::MAX));
    assert_eq!(LinkCost::new(0, u64::MAX).bytes_per_sec, u64::MAX);
}

/// `Machine::builder().devices(u32::MAX)` and `.device(u32::MAX, config)`: `InvalidValue` from `build`
/// ("… devices requested; at most 1024"), not an allocation of four billion device configurations.
#[test]
fn device_counts_past_the_limit_fail_at_build() {
    let err = Machine::builder().devices(u32::MAX).build().unwrap_err();
    assert_eq!(
        err,
        SimError::InvalidValue {
            what: "devices",
            reason: "4294967295 devices requested; at most 1024".into(),
        }
    );
    let err = Machine::builder()
        .device(u32::MAX, DeviceConfig::default())
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        SimError::InvalidValue {
            what: "devices",
            reason: "4294967296 devices requested; at most 1024".into(),
        }
    );
    // The largest index that fits still works, and a later `devices(n)` replaces a refused count.
    let m = Machine::builder()
        .device(1023, DeviceConfig::default())
        .build()
        .unwrap();
    assert_eq!(m.device_count(), 1024);
    let m = Machine::builder()
        .devices(u32::MAX)
        .devices(2)
        .build()
        .unwrap();
    assert_eq!(m.device_count(), 2);
}

/// A device of `u64::MAX` bytes: `TotalMemory` reports `i64::MAX` (not -1), and a malloc of `u64::MAX`
/// bytes is `OutOfMemory { available: 2^40 }` (the device's address range), not an overflow; through CUDA
/// it is 2 (`cudaErrorMemoryAllocation`), through ACL 207001.
#[test]
fn malloc_of_u64_max_on_a_device_of_u64_max_bytes_is_out_of_memory() {
    let oom = SimError::OutOfMemory {
        device: 0,
        requested: u64::MAX,
        available: 1 << 40,
    };
    for dialect in [Dialect::Cuda, Dialect::Acl] {
        let m = Machine::builder()
            .dialect(dialect)
            .device(0, DeviceConfig::default().memory(u64::MAX))
            .build()
            .unwrap();
        assert_eq!(
            m.device_attribute(0, Attribute::TotalMemory).unwrap(),
            i64::MAX
        );
        let p = m.process();
        p.set_device(0).unwrap();
        assert_eq!(p.malloc(u64::MAX), Err(oom.clone()));
        let _g = p.bind();
        let mut ptr: *mut c_void = null_mut();
        // SAFETY: a valid out-pointer.
        unsafe {
            match dialect {
                Dialect::Cuda => {
                    assert_eq!(cudaMalloc(&mut ptr, usize::MAX), cudaErrorMemoryAllocation)
                }
                _ => assert_eq!(
                    aclrtMalloc(&mut ptr, usize::MAX, ACL_MEM_MALLOC_HUGE_FIRST),
                    ACL_ERROR_RT_MEMORY_ALLOCATION
                ),
            }
        }
        assert_eq!(p.peek_last_error(), Some(oom.clone()));
        assert_eq!(m.memory_used(0).unwrap(), 0);
    }
}

/// A kernel body calling `read_f32(ptr, usize::MAX)` (a byte count that overflows): the kernel faults with
/// `IllegalAddress`, reported by the synchronize, instead of panicking on the overflow (a `LaunchFailure`).
#[test]
fn a_kernel_reading_more_floats_than_usize_holds_faults_with_illegal_address() {
    let (_m, p) = cuda1();
    let d = p.malloc(16).unwrap();
    p.launch(
        Stream::DEFAULT,
        Kernel::new("greedy").body(move |ctx| ctx.read_f32(d, usize::MAX).map(drop)),
    )
    .unwrap();
    let err = p.stream_synchronize(Stream::DEFAULT).unwrap_err();
    assert!(
        matches!(
            err,
            SimError::KernelFault {
                kind: FaultKind::IllegalAddress,
                ref label,
                ..
            } if label == "greedy"
        ),
        "{err:?}"
    );
}

/// `cudaMemcpy` / `aclrtMemcpy` of `usize::MAX` bytes with a pageable host endpoint: `InvalidValue` (CUDA 1,
/// ACL 107000), refused before a host slice of that length is made (which aborted the process).
#[test]
fn host_copies_longer_than_any_buffer_are_invalid() {
    let (_m, p) = cuda1();
    let d = p.malloc(64).unwrap();
    let mut host = [0u8; 64];
    let src = [0u8; 64];
    let _g = p.bind();
    let dst = host.as_mut_ptr().cast::<c_void>();
    let dev = d.addr() as usize as *const c_void;
    // SAFETY: valid pointers; the count is what is under test and is refused before any access.
    unsafe {
        assert_eq!(
            cudaMemcpy(dst, dev, usize::MAX, cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue
        );
        assert!(matches!(
            p.peek_last_error(),
            Some(SimError::InvalidValue { what: "Memcpy", .. })
        ));
        assert_eq!(
            cudaMemcpy(
                dst,
                src.as_ptr().cast(),
                isize::MAX as usize + 1,
                cudaMemcpyHostToHost
            ),
            cudaErrorInvalidValue
        );
        // The same buffers with a count that fits still work.
        assert_eq!(
            cudaMemcpy(dst, dev, 64, cudaMemcpyDeviceToHost),
            cudaSuccess
        );
    }
    drop(_g);
    let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
    let p = m.process();
    p.set_device(0).unwrap();
    let d = p.malloc(64).unwrap();
    let _g = p.bind();
    let dev = d.addr() as usize as *const c_void;
    // SAFETY: as above.
    unsafe {
        assert_eq!(
            aclrtMemcpy(dst, usize::MAX, dev, usize::MAX, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID
        );
        assert_eq!(
            aclrtMemcpy(dst, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS
        );
    }
}

/// `cudasimLaunchKernelEx` with `count = usize::MAX` accesses, or a misaligned accesses pointer:
/// 1 `cudaErrorInvalidValue`, refused before a slice of them is made (which aborted the process).
#[test]
fn kernel_access_arrays_that_cannot_exist_are_invalid() {
    let (_m, p) = cuda1();
    let _g = p.bind();
    let one = [streamsimAccess {
        ptr: null_mut::<c_void>(),
        bytes: 0,
        flags: streamsim::capi::STREAMSIM_ACCESS_READ,
    }];
    let misaligned = one
        .as_ptr()
        .cast::<u8>()
        .wrapping_add(1)
        .cast::<streamsimAccess>();
    // SAFETY: the arrays are what is under test and are refused before any access.
    unsafe {
        for (accesses, count) in [(one.as_ptr(), usize::MAX), (misaligned, 1)] {
            assert_eq!(
                cudasimLaunchKernelEx(
                    null_mut(),
                    c"k".as_ptr(),
                    1_000,
                    None,
                    null_mut(),
                    accesses,
                    count
                ),
                cudaErrorInvalidValue
            );
            assert!(matches!(
                p.peek_last_error(),
                Some(SimError::InvalidValue {
                    what: "LaunchKernelEx",
                    ..
                })
            ));
        }
    }
}

/// A stream whose worker thread the host refuses to start (a machine whose workers ask for a 2^62-byte stack,
/// which no address space holds): `create_stream` is `TooManyObjects { kind: Stream, limit: HostThreads }`
/// and `cudaStreamCreate` 2 `cudaErrorMemoryAllocation`, where the spawn used to panic; the NULL stream, made
/// on first use, fails the same way; the thread's last error says so; nothing hangs or leaks a worker.
#[test]
fn a_stream_whose_worker_thread_cannot_start_is_an_error() {
    let m = Machine::builder()
        .worker_stack_size(1 << 62)
        .build()
        .unwrap();
    let p = m.process();
    let limit = SimError::TooManyObjects {
        kind: ObjectKind::Stream,
        process: ProcessId(0),
        limit: ObjectLimit::HostThreads,
    };
    assert_eq!(p.create_stream(StreamFlags::DEFAULT), Err(limit.clone()));
    assert_eq!(
        p.launch(Stream::DEFAULT, kernel("k", 1)),
        Err(limit.clone())
    );
    let code = {
        let _g = p.bind();
        let mut h: *mut c_void = null_mut();
        // SAFETY: a valid out-pointer.
        unsafe { cudaStreamCreate(&mut h) }
    };
    assert_eq!(code, cudaErrorMemoryAllocation);
    assert_eq!(p.peek_last_error(), Some(limit));
    assert_eq!(p.device_synchronize(), Ok(()));
    drop(p);
    drop(m);
    // The same program with a stack the host can give works.
    let m = Machine::builder()
        .worker_stack_size(256 << 10)
        .build()
        .unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(p.stream_id(s).unwrap().kind, StreamKind::Created(1));
    p.launch(s, kernel("k", 1)).unwrap();
    p.launch(Stream::DEFAULT, kernel("k", 1)).unwrap();
    p.device_synchronize().unwrap();
}

/// A device attribute configured outside C's `int` (`DeviceConfig::attribute(MultiprocessorCount, i64::MAX)`,
/// or `i64::MIN`): `cudaDeviceGetAttribute` gives `INT_MAX` / `INT_MIN`, never a truncated (possibly
/// negative, possibly zero) count.
#[test]
fn device_attributes_beyond_int_saturate_in_the_facade() {
    for (configured, expected) in [
        (i64::MAX, std::ffi::c_int::MAX),
        (i64::from(u32::MAX) + 5, std::ffi::c_int::MAX),
        (i64::MIN, std::ffi::c_int::MIN),
        (40, 40),
    ] {
        let m = Machine::builder()
            .device(
                0,
                DeviceConfig::default().attribute(Attribute::MultiprocessorCount, configured),
            )
            .build()
            .unwrap();
        let p = m.process();
        let _g = p.bind();
        let mut v: std::ffi::c_int = 0;
        // SAFETY: a valid out-pointer.
        let code = unsafe {
            streamsim::cuda::cudaDeviceGetAttribute(
                &mut v,
                streamsim::cuda::cudaDevAttrMultiProcessorCount,
                0,
            )
        };
        assert_eq!(
            (code, v),
            (cudaSuccess, expected),
            "configured {configured}"
        );
    }
}

/// A long malloc/free loop: 1,100 rounds of a 1 GiB `malloc` and `free` on one device — more than the
/// device's 1 TiB address range in total. Every round succeeds (the range's free gaps are reused once it is
/// used up, as a real allocator would); the addresses stay on the device, and memory reads back as written.
#[test]
fn a_malloc_free_loop_past_the_address_range_keeps_working() {
    let m = Machine::builder()
        .device(0, DeviceConfig::default().memory(2 << 30))
        .build()
        .unwrap();
    let p = m.process();
    let mut seen_low = false;
    for round in 0..1_100u64 {
        let d = p
            .malloc(1 << 30)
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(d.device(), Some(0), "round {round}");
        p.memcpy(d, &round.to_le_bytes()[..], 8).unwrap();
        let mut back = [0u8; 8];
        p.memcpy(&mut back[..], d, 8).unwrap();
        assert_eq!(u64::from_le_bytes(back), round);
        seen_low |= round > 0 && d == streamsim::DevicePtr(streamsim::memory::DEVICE_ADDRESS_BASE);
        p.free(d).unwrap();
    }
    assert!(
        seen_low,
        "the first address was reused once the range was used up"
    );
}
