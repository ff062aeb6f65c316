//! Bad input to the stream-ordered allocation calls, with the engine's errors (the vendors' codes are checked
//! through the facades and the C programs).

use streamsim::{
    AddressSpace, DevicePtr, Dialect, HandleProblem, Machine, ObjectKind, PoolProblem, PoolProps,
    SimError, Stream, StreamFlags,
};

use super::two_streams;

const N: u64 = 4096;

fn problem(e: SimError) -> &'static str {
    match e {
        SimError::InvalidAddress { problem, .. } => problem,
        e => panic!("{e:?}"),
    }
}

/// stream-ordered-memory.md · Bad input · size 0 (cudaErrorInvalidValue), a size that cannot be rounded
/// (cudaErrorMemoryAllocation), a destroyed stream (400), a destroyed pool.
#[test]
fn allocation_arguments() {
    let (_m, p, s1, _) = two_streams();
    assert!(matches!(
        p.malloc_async(0, s1),
        Err(SimError::InvalidValue {
            what: "malloc_async",
            ..
        })
    ));
    assert!(matches!(
        p.malloc_async(u64::MAX, s1),
        Err(SimError::MemPool {
            problem: PoolProblem::Exhausted { .. },
            ..
        })
    ));
    // More than the device has.
    assert!(matches!(
        p.malloc_async(48 << 30, s1),
        Err(SimError::MemPool {
            problem: PoolProblem::Exhausted { .. },
            ..
        })
    ));
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.destroy_stream(s).unwrap();
    assert!(matches!(
        p.malloc_async(N, s),
        Err(SimError::InvalidHandle {
            kind: ObjectKind::Stream,
            problem: HandleProblem::Destroyed,
            ..
        })
    ));
    let pool = p.create_pool(PoolProps::new(0)).unwrap();
    p.destroy_pool(pool).unwrap();
    assert_eq!(
        p.malloc_from_pool_async(N, pool, s1),
        Err(SimError::MemPool {
            what: "malloc_from_pool_async",
            problem: PoolProblem::Handle(HandleProblem::Destroyed)
        })
    );
    assert_eq!(
        p.malloc_from_pool_async(N, streamsim::MemPool::from_raw(0), s1),
        Err(SimError::MemPool {
            what: "malloc_from_pool_async",
            problem: PoolProblem::Handle(HandleProblem::Unknown)
        })
    );
    assert!(
        p.create_pool(PoolProps::new(1)).is_err(),
        "device 1 does not exist"
    );
}

/// stream-ordered-memory.md · Bad input · frees: twice, of an address inside an allocation, of host memory,
/// of another process's memory, of nothing (all cudaErrorInvalidValue in the facade).
#[test]
fn free_arguments() {
    let (m, p, s1, _) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.free_async(a, s1).unwrap();
    assert_eq!(problem(p.free_async(a, s1).unwrap_err()), "already freed");
    assert_eq!(problem(p.free(a).unwrap_err()), "already freed");
    let b = p.malloc_async(N, s1).unwrap();
    assert_eq!(
        problem(p.free_async(b.offset(8), s1).unwrap_err()),
        "not the start of an allocation"
    );
    let host = p.malloc_host(64).unwrap();
    assert!(matches!(
        p.free_async(DevicePtr(host.addr()), s1),
        Err(SimError::InvalidAddress {
            space: AddressSpace::PageableHost,
            ..
        })
    ));
    assert_eq!(
        problem(
            p.free_async(DevicePtr(0x00D0_0000_8000_0000), s1)
                .unwrap_err()
        ),
        "not allocated"
    );
    let other = m.process();
    let s_other = other.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(
        problem(other.free_async(b, s_other).unwrap_err()),
        "owned by another process"
    );
    // Plain memory can be freed stream-ordered; a second time it is freed.
    let c = p.malloc(N).unwrap();
    p.free_async(c, s1).unwrap();
    assert_eq!(problem(p.free_async(c, s1).unwrap_err()), "already freed");
    p.device_synchronize().unwrap();
}

/// stream-ordered-memory.md · Bad input · CUDA: a free on a stream of another device than the memory's is
/// ordered on that stream (sim: the Runtime API lets the stream be any); ACL: the stream must be of the current
/// context (107003).
#[test]
fn frees_on_a_stream_of_another_device() {
    let m = Machine::builder().devices(2).build().unwrap();
    let p = m.process();
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.set_device(1).unwrap();
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s0).unwrap();
    p.stream_synchronize(s0).unwrap();
    p.free_async(a, s1).unwrap();
    p.stream_synchronize(s1).unwrap();

    let m = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .build()
        .unwrap();
    let p = m.process();
    p.set_device(0).unwrap();
    let s0 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let pool = p.create_pool(PoolProps::new(0)).unwrap();
    let a = p.malloc_from_pool_async(N, pool, s0).unwrap();
    p.set_device(1).unwrap();
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert!(matches!(
        p.free_async(a, s0),
        Err(SimError::WrongContext { .. })
    ));
    assert!(matches!(
        p.malloc_from_pool_async(N, pool, s0),
        Err(SimError::WrongContext { .. })
    ));
    // From the stream's own context, both work; the pool may be of another device than the stream.
    let b = p.malloc_from_pool_async(N, pool, s1).unwrap();
    assert_eq!(b.device(), Some(0));
    p.set_device(0).unwrap();
    p.free_async(a, s0).unwrap();
    p.free_async(b, Stream::DEFAULT).unwrap();
}
