//! Pool attributes, counters, trims, the release threshold, destroying pools, current pools.

use streamsim::{
    Dialect, HandleProblem, Kernel, Machine, PoolAttr, PoolProblem, PoolProps, SimError,
    StreamFlags,
};

use super::two_streams;

const N: u64 = 4096;
const CHUNK: u64 = 2 << 20;

fn attrs(p: &streamsim::Process, pool: streamsim::MemPool) -> [u64; 8] {
    [
        PoolAttr::ReuseFollowEventDependencies,
        PoolAttr::ReuseAllowOpportunistic,
        PoolAttr::ReuseAllowInternalDependencies,
        PoolAttr::ReleaseThreshold,
        PoolAttr::ReservedMemCurrent,
        PoolAttr::ReservedMemHigh,
        PoolAttr::UsedMemCurrent,
        PoolAttr::UsedMemHigh,
    ]
    .map(|a| p.pool_attribute(pool, a).unwrap())
}

/// stream-ordered-memory.md · Attributes · CUDA defaults: the three policies enabled, threshold 0; used counts
/// allocations (rounded to 256 bytes) from the call, reserved the pool's 2 MiB chunks; a synchronize gives
/// memory above the threshold back to the device (cudaMemGetInfo's free memory grows back).
#[test]
fn counters_follow_allocations_and_a_synchronize_releases_above_the_threshold() {
    let (m, p, s1, _) = two_streams();
    let pool = p.default_pool(0).unwrap();
    assert_eq!(attrs(&p, pool), [1, 1, 1, 0, 0, 0, 0, 0]);
    let a = p.malloc_async(N + 1, s1).unwrap();
    assert_eq!(attrs(&p, pool)[4..], [CHUNK, CHUNK, N + 256, N + 256]);
    assert_eq!(m.memory_used(0).unwrap(), CHUNK);
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free_async(a, s1).unwrap();
    // The free is not complete: nothing can go back yet.
    assert_eq!(attrs(&p, pool)[4..], [CHUNK, CHUNK, 0, N + 256]);
    p.stream_synchronize(s1).unwrap();
    assert_eq!(attrs(&p, pool)[4..], [0, CHUNK, 0, N + 256]);
    assert_eq!(m.memory_used(0).unwrap(), 0);
    // Resetting a watermark sets it to the current value.
    p.set_pool_attribute(pool, PoolAttr::ReservedMemHigh, 0)
        .unwrap();
    p.set_pool_attribute(pool, PoolAttr::UsedMemHigh, 0)
        .unwrap();
    assert_eq!(attrs(&p, pool)[4..], [0, 0, 0, 0]);
}

/// stream-ordered-memory.md · Attributes · a release threshold of UINT64_MAX keeps the memory across
/// synchronizes (the cuda-samples' streamOrderedAllocationPostSync); cudaMemPoolTrimTo(0) then gives it back,
/// but only memory whose frees the host has observed.
#[test]
fn a_high_threshold_keeps_memory_until_a_trim() {
    let (m, p, s1, _) = two_streams();
    let pool = p.default_pool(0).unwrap();
    p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, u64::MAX)
        .unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free_async(a, s1).unwrap();
    p.trim_pool(pool, 0).unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap(),
        CHUNK,
        "not observed yet"
    );
    p.stream_synchronize(s1).unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap(),
        CHUNK,
        "kept"
    );
    p.trim_pool(pool, CHUNK).unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap(),
        CHUNK
    );
    p.trim_pool(pool, 0).unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap(),
        0
    );
    assert_eq!(m.memory_used(0).unwrap(), 0);
}

/// stream-ordered-memory.md · Trim · whole chunks, never below minBytesToKeep ("Otherwise the pool will be
/// guaranteed to have at least minBytesToKeep bytes reserved after the operation"); the release threshold at a
/// synchronize alike: the pool keeps at least the threshold.
#[test]
fn trims_and_thresholds_keep_at_least_what_they_are_given() {
    let (_m, p, s1, _) = two_streams();
    let pool = p.default_pool(0).unwrap();
    let reserved = |p: &streamsim::Process| {
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap()
    };
    p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, u64::MAX)
        .unwrap();
    // Two allocations of a whole chunk each: two chunks.
    let a = p.malloc_async(CHUNK, s1).unwrap();
    let b = p.malloc_async(CHUNK, s1).unwrap();
    p.free_async(a, s1).unwrap();
    p.free_async(b, s1).unwrap();
    p.stream_synchronize(s1).unwrap();
    assert_eq!(reserved(&p), 2 * CHUNK);
    p.trim_pool(pool, 3 << 20).unwrap();
    assert_eq!(
        reserved(&p),
        2 * CHUNK,
        "one chunk less would be below 3 MiB"
    );
    p.trim_pool(pool, CHUNK).unwrap();
    assert_eq!(reserved(&p), CHUNK);
    // 4 KiB in the kept chunk and 2 MiB in a new one; at a threshold of 1 MiB the synchronize releases one chunk
    // (releasing the other too would leave 0 bytes, below the threshold).
    let c = p.malloc_async(N, s1).unwrap();
    let d = p.malloc_async(CHUNK, s1).unwrap();
    p.free_async(c, s1).unwrap();
    p.free_async(d, s1).unwrap();
    p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, 1 << 20)
        .unwrap();
    p.stream_synchronize(s1).unwrap();
    assert_eq!(reserved(&p), CHUNK, "2 chunks → 1: at least 1 MiB kept");
    p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, 0)
        .unwrap();
    p.stream_synchronize(s1).unwrap();
    assert_eq!(reserved(&p), 0);
}

/// stream-ordered-memory.md · Attributes · the current counters are read-only and a watermark resets only to
/// 0 (cudaErrorInvalidValue in the facade).
#[test]
fn read_only_attributes_and_watermarks() {
    let (_m, p, _, _) = two_streams();
    let pool = p.default_pool(0).unwrap();
    for (attr, value, problem) in [
        (
            PoolAttr::ReservedMemCurrent,
            0,
            PoolProblem::ReadOnlyAttribute,
        ),
        (PoolAttr::UsedMemCurrent, 7, PoolProblem::ReadOnlyAttribute),
        (PoolAttr::ReservedMemHigh, 1, PoolProblem::WatermarkNotZero),
        (PoolAttr::UsedMemHigh, 1, PoolProblem::WatermarkNotZero),
    ] {
        let err = p.set_pool_attribute(pool, attr, value).unwrap_err();
        assert_eq!(
            err,
            SimError::MemPool {
                what: "pool_set_attribute",
                problem
            },
            "{attr:?}"
        );
    }
    // Any non-zero value enables a policy.
    p.set_pool_attribute(pool, PoolAttr::ReuseAllowOpportunistic, 0)
        .unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReuseAllowOpportunistic)
            .unwrap(),
        0
    );
    p.set_pool_attribute(pool, PoolAttr::ReuseAllowOpportunistic, 7)
        .unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReuseAllowOpportunistic)
            .unwrap(),
        1
    );
}

/// stream-ordered-memory.md · Pools · destroy: the handle is dead at once; memory still allocated stays until it
/// is freed and the free observed. A default pool cannot be destroyed; destroying the current pool makes the
/// default one current again.
#[test]
fn destroying_pools() {
    let (m, p, s1, _) = two_streams();
    let pool = p.create_pool(PoolProps::new(0)).unwrap();
    let default = p.default_pool(0).unwrap();
    assert_ne!(pool, default);
    assert_eq!(p.device_pool(0).unwrap(), default);
    p.set_device_pool(0, pool).unwrap();
    assert_eq!(p.device_pool(0).unwrap(), pool);
    let a = p.malloc_async(N, s1).unwrap(); // from `pool`, the current one
    p.destroy_pool(pool).unwrap();
    assert_eq!(p.device_pool(0).unwrap(), default);
    assert_eq!(
        p.destroy_pool(pool),
        Err(SimError::MemPool {
            what: "pool_destroy",
            problem: PoolProblem::Handle(HandleProblem::Destroyed)
        })
    );
    assert_eq!(
        p.destroy_pool(default),
        Err(SimError::MemPool {
            what: "pool_destroy",
            problem: PoolProblem::DefaultPool
        })
    );
    assert_eq!(m.memory_used(0).unwrap(), CHUNK);
    p.free_async(a, s1).unwrap();
    p.stream_synchronize(s1).unwrap();
    assert_eq!(m.memory_used(0).unwrap(), 0);
}

/// stream-ordered-memory.md · Pools · a pool must be of the device it is made current on; a device reset
/// destroys the device's pools (their handles name the reset) and its memory.
#[test]
fn current_pools_and_device_resets() {
    let m = Machine::builder().devices(2).build().unwrap();
    let p = m.process();
    let pool1 = p.create_pool(PoolProps::new(1)).unwrap();
    assert_eq!(
        p.set_device_pool(0, pool1),
        Err(SimError::MemPool {
            what: "device_set_pool",
            problem: PoolProblem::OtherDevice { pool_device: 1 }
        })
    );
    // cudaMallocAsync follows the stream's device, not the current one.
    p.set_device(1).unwrap();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.set_device(0).unwrap();
    let a = p.malloc_async(N, s).unwrap();
    assert_eq!(a.device(), Some(1));
    let b = p
        .malloc_from_pool_async(N, pool1, streamsim::Stream::DEFAULT)
        .unwrap();
    assert_eq!(b.device(), Some(1));
    p.set_device(1).unwrap();
    p.reset_device(1).unwrap();
    assert_eq!(
        p.pool_attribute(pool1, PoolAttr::UsedMemCurrent),
        Err(SimError::MemPool {
            what: "pool_get_attribute",
            problem: PoolProblem::Handle(HandleProblem::FreedByReset { device: 1 })
        })
    );
    assert_eq!(m.memory_used(1).unwrap(), 0);
}

/// stream-ordered-memory.md · ACL · the runtime's defaults: no reuse policy enabled, no default pool; a
/// watermark resets to 0; a trim below the memory in use, or a threshold or trim above the pool's size, is
/// refused (SegmentManager::TrimTo / SetAttribute).
#[test]
fn acl_pools_follow_the_runtime_source() {
    let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
    let p = m.process();
    p.set_device(0).unwrap();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(
        p.default_pool(0),
        Err(SimError::MemPool {
            what: "device_default_pool",
            problem: PoolProblem::NoDefaultPool
        })
    );
    let pool = p
        .create_pool(PoolProps::new(0).max_size(8 * CHUNK))
        .unwrap();
    assert_eq!(attrs(&p, pool), [0, 0, 0, 0, 0, 0, 0, 0]);
    let a = p.malloc_from_pool_async(N, pool, s).unwrap();
    // ACL rounds every allocation to 2 MiB.
    assert_eq!(attrs(&p, pool)[4..], [CHUNK, CHUNK, CHUNK, CHUNK]);
    assert_eq!(
        p.trim_pool(pool, 0),
        Err(SimError::MemPool {
            what: "pool_trim",
            problem: PoolProblem::TrimBelowUsed { used: CHUNK }
        })
    );
    assert_eq!(
        p.trim_pool(pool, 9 * CHUNK),
        Err(SimError::MemPool {
            what: "pool_trim",
            problem: PoolProblem::TrimAbovePool { size: 8 * CHUNK }
        })
    );
    assert_eq!(
        p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, 8 * CHUNK + 1),
        Err(SimError::MemPool {
            what: "pool_set_attribute",
            problem: PoolProblem::ThresholdAbovePool { size: 8 * CHUNK }
        })
    );
    p.free_async(a, s).unwrap();
    p.set_pool_attribute(pool, PoolAttr::UsedMemHigh, 0)
        .unwrap();
    assert_eq!(p.pool_attribute(pool, PoolAttr::UsedMemHigh).unwrap(), 0);
    p.stream_synchronize(s).unwrap();
    assert_eq!(
        p.pool_attribute(pool, PoolAttr::ReservedMemCurrent)
            .unwrap(),
        0
    );
}
