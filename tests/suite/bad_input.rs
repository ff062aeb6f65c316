//! Extreme and impossible input that once reached a panic, an abort or a silent wrong answer, and the typed
//! answer it gets now. Each answer is checked through the core and, where a facade exposes the call, as the
//! vendor's code.
//!
//! - handles: processes beyond what a handle can encode (id 4096 and up).
//!
//! Exhausting a process's handle registry (2^22 live objects), the creation ordinals (2^32) or a handle
//! slot's epochs is tested on the registry itself (`src/handle.rs`): creating millions of objects here would
//! be slow.

use std::ffi::c_void;
use std::ptr::null_mut;

use streamsim::acl::{ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtCreateEvent, aclrtSetDevice};
use streamsim::cuda::{cudaErrorMemoryAllocation, cudaEventCreate, cudaStreamCreate};
use streamsim::{
    Dialect, EventFlags, Machine, ObjectKind, ObjectLimit, Process, ProcessId, SimError, Stream,
    StreamFlags,
};

use crate::common::{cuda1, kernel};

/// The 4097th process of a machine (id 4096), the first one a handle cannot name.
fn process_4096(m: &Machine) -> Process {
    let mut p = m.process();
    while p.id() < ProcessId(4096) {
        p = m.process();
    }
    p
}

/// What creating an object of `kind` in process 4096 fails with.
fn too_many(kind: ObjectKind) -> SimError {
    SimError::TooManyObjects {
        kind,
        process: ProcessId(4096),
        limit: ObjectLimit::ProcessId { max: 4095 },
    }
}

/// Process 4096 of a CUDA machine (a handle has 12 bits for the process): creating an event, a stream or
/// the legacy default stream is `TooManyObjects { limit: ProcessId { max: 4095 } }` — before, the handles were
/// made with the process bits cut off and every later use failed as "another process's". Through CUDA:
/// 2 `cudaErrorMemoryAllocation`. Process 4095 still works.
#[test]
fn a_cuda_process_beyond_what_a_handle_encodes_cannot_create_objects() {
    let (m, _) = cuda1();
    let p = process_4096(&m);
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

/// Process 4096 of an ACL machine: `aclrtSetDevice` (which creates the default context) and
/// `aclrtCreateEvent` give 207001 `ACL_ERROR_RT_MEMORY_ALLOCATION`; the core says `TooManyObjects`.
#[test]
fn an_acl_process_beyond_what_a_handle_encodes_cannot_create_objects() {
    let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
    let p = process_4096(&m);
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
