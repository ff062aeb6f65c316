//! Address reuse: a freed block goes to a later allocation when the pool's reuse policies allow it, in program
//! order and virtual time only.

use std::time::Duration;

use streamsim::{
    EventFlags, Kernel, Machine, PoolAttr, PoolProblem, PoolProps, RaceDetection, SimError,
    StreamFlags, VirtualTime,
};

use super::two_streams;
use crate::common::{span, us};

const N: u64 = 4096;

/// stream-ordered-memory.md · Reuse · same stream → "memory freed in a stream can be reused immediately in a
/// subsequent allocation request on the same stream": the same address; the allocation and free are operations
/// of 1 µs on the stream.
#[test]
fn a_block_freed_on_a_stream_is_reused_by_the_next_allocation_on_it() {
    let (m, p, s1, _) = two_streams();
    let a = p.malloc_async(N, s1).unwrap(); // call at 3 µs: runs 5..6 µs
    p.launch(s1, Kernel::new("k").reads(a, N)).unwrap(); // 6..16 µs
    p.free_async(a, s1).unwrap(); // 16..17 µs
    let b = p.malloc_async(N, s1).unwrap(); // 17..18 µs
    assert_eq!(b, a);
    p.stream_synchronize(s1).unwrap();
    let t = m.trace();
    assert_eq!(span(&t, "malloc_async"), (us(5), us(6)));
    assert_eq!(span(&t, "free_async"), (us(16), us(17)));
    assert_eq!(t.ops.last().unwrap().start, us(17));
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
}

/// stream-ordered-memory.md · Reuse · another stream, no order, free not complete → a new address (the rest of
/// the pool's first chunk).
#[test]
fn another_stream_without_an_order_gets_other_memory() {
    let (m, p, s1, s2) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free_async(a, s1).unwrap(); // ends at 17 µs
    let b = p.malloc_async(N, s2).unwrap(); // called at 6 µs
    assert_eq!(b, a.offset(N));
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty());
}

/// stream-ordered-memory.md · Reuse · another stream, no order, free not complete → a new address, also when
/// the other stream is made after the freeing one is destroyed (sim: race detection reuses a destroyed
/// stream's actor number for the next stream, and a pending free keeps its number from being reused, so
/// the new stream is not taken as ordered after the free). With the free still pending, the new stream's
/// allocation gets the rest of the chunk, with detection on and off alike.
#[test]
fn a_stream_made_after_the_freeing_one_is_destroyed_is_not_after_its_free() {
    for mode in [RaceDetection::Collect, RaceDetection::Off] {
        let m = Machine::builder().race_detection(mode).build().unwrap();
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let a = p.malloc_async(N, s1).unwrap();
        p.launch(
            s1,
            Kernel::new("long")
                .writes(a, N)
                .duration(Duration::from_secs(1)),
        )
        .unwrap();
        p.free_async(a, s1).unwrap(); // ends after 1 s
        p.destroy_stream(s1).unwrap();
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let b = p.malloc_async(N, s2).unwrap();
        assert_eq!(b, a.offset(N), "{mode:?}");
        p.device_synchronize().unwrap();
        assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
    }
}

/// stream-ordered-memory.md · Reuse · ReuseAllowOpportunistic, free complete in virtual time → reused; the
/// allocation waits for the free in real time only: its virtual times do not change and no order is made (a
/// later race with the old allocation's stream is still reported).
#[test]
fn opportunistic_reuse_once_the_free_has_completed_in_virtual_time() {
    let (m, p, s1, s2) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap(); // 6..16 µs
    p.free_async(a, s1).unwrap(); // 16..17 µs
    p.host_sleep(Duration::from_micros(20)); // the clock: 5 + 20 = 25 µs
    let b = p.malloc_async(N, s2).unwrap(); // at 26 µs: runs 28..29 µs
    assert_eq!(b, a);
    p.device_synchronize().unwrap();
    let t = m.trace();
    let alloc2 = t
        .ops
        .iter()
        .filter(|o| o.label == "malloc_async")
        .nth(1)
        .unwrap();
    assert_eq!((alloc2.start, alloc2.end), (us(28), us(29)));
}

/// stream-ordered-memory.md · Reuse · ReuseFollowEventDependencies: an event recorded after the free, waited
/// on by the allocating stream → reused (the Programming Guide's §4.3.4.4.1 example).
#[test]
fn an_event_after_the_free_lets_another_stream_reuse_it() {
    let (m, p, s1, s2) = two_streams();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free_async(a, s1).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    let b = p.malloc_async(N, s2).unwrap();
    assert_eq!(b, a);
    p.launch(s2, Kernel::new("k2").writes(b, N)).unwrap();
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
}

/// stream-ordered-memory.md · Reuse · policies disabled: the event no longer lets another stream reuse the
/// block; a synchronize of the freeing stream does ("memory made available when a stream is synchronized with
/// the CPU", "regardless of … disabled allocation policies").
#[test]
fn with_the_policies_disabled_only_a_synchronize_releases_the_block_to_other_streams() {
    let (_m, p, s1, s2) = two_streams();
    let pool = p.default_pool(0).unwrap();
    for attr in [
        PoolAttr::ReuseFollowEventDependencies,
        PoolAttr::ReuseAllowOpportunistic,
        PoolAttr::ReuseAllowInternalDependencies,
    ] {
        p.set_pool_attribute(pool, attr, 0).unwrap();
    }
    // A high release threshold: the synchronize must not give the chunk back to the device.
    p.set_pool_attribute(pool, PoolAttr::ReleaseThreshold, u64::MAX)
        .unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.free_async(a, s1).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    p.host_sleep(Duration::from_secs(1));
    let b = p.malloc_async(N, s2).unwrap();
    assert_eq!(b, a.offset(N), "no policy allows it");
    p.stream_synchronize(s1).unwrap();
    let c = p.malloc_async(N, s2).unwrap();
    assert_eq!(c, a, "the synchronize made it available to any stream");
}

/// stream-ordered-memory.md · Reuse · ReuseAllowInternalDependencies: when the pool cannot grow, the allocation
/// waits for the free (its start is the free's end, and it is ordered after it); disabled, it is out of memory
/// (cudaErrorMemoryAllocation).
#[test]
fn a_full_pool_makes_the_allocation_wait_for_a_pending_free() {
    let (m, p, s1, s2) = two_streams();
    let pool = p.create_pool(PoolProps::new(0).max_size(2 << 20)).unwrap();
    let a = p.malloc_from_pool_async(2 << 20, pool, s1).unwrap(); // at 4 µs: 6..7
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap(); // 7..17
    p.free_async(a, s1).unwrap(); // 17..18
    let b = p.malloc_from_pool_async(2 << 20, pool, s2).unwrap(); // at 7 µs, waits: 18..19
    assert_eq!(b, a);
    p.launch(s2, Kernel::new("k2").writes(b, N)).unwrap();
    p.device_synchronize().unwrap();
    let t = m.trace();
    let alloc2 = t
        .ops
        .iter()
        .filter(|o| o.label == "malloc_from_pool_async")
        .nth(1)
        .unwrap();
    assert_eq!((alloc2.start, alloc2.end), (us(18), us(19)));
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());

    p.set_pool_attribute(pool, PoolAttr::ReuseAllowInternalDependencies, 0)
        .unwrap();
    p.launch(s2, Kernel::new("k3").writes(b, N)).unwrap();
    p.free_async(b, s2).unwrap();
    let err = p.malloc_from_pool_async(2 << 20, pool, s1).unwrap_err();
    assert!(
        matches!(
            err,
            SimError::MemPool {
                problem: PoolProblem::Exhausted {
                    requested: 2097152,
                    reserved: 2097152
                },
                ..
            }
        ),
        "{err:?}"
    );
}

/// stream-ordered-memory.md · Reuse · deterministic: the same program gets the same addresses with race
/// detection on and off, and under schedule perturbation.
#[test]
fn addresses_do_not_depend_on_race_detection_or_scheduling() {
    let run = |mode: RaceDetection, perturb: bool| {
        let m = Machine::builder()
            .race_detection(mode)
            .perturb(perturb)
            .seed(3)
            .build()
            .unwrap();
        let p = m.process();
        let s: Vec<_> = (0..3)
            .map(|_| p.create_stream(StreamFlags::NON_BLOCKING).unwrap())
            .collect();
        let e = p.create_event(EventFlags::DEFAULT).unwrap();
        let mut out = Vec::new();
        for i in 0..30u64 {
            let st = s[(i % 3) as usize];
            let ptr = p.malloc_async(N * (1 + i % 4), st).unwrap();
            out.push(ptr.addr());
            p.launch(st, Kernel::new("k").writes(ptr, N)).unwrap();
            p.free_async(ptr, st).unwrap();
            if i % 5 == 0 {
                p.record_event(e, st).unwrap();
                p.stream_wait_event(s[((i + 1) % 3) as usize], e).unwrap();
            }
        }
        p.device_synchronize().unwrap();
        (out, p.now())
    };
    let base = run(RaceDetection::Collect, false);
    assert_eq!(run(RaceDetection::Off, false), base);
    assert_eq!(run(RaceDetection::Collect, true), base);
    assert_eq!(run(RaceDetection::Off, true), base);
    assert!(base.1 > VirtualTime::ZERO);
}

/// stream-ordered-memory.md · Reuse · the bytes: an allocation that reuses a block sees what the earlier one
/// left (the pool does not clear memory).
#[test]
fn a_reused_block_holds_the_bytes_the_last_allocation_left() {
    let (_m, p, s1, _) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.memset_async(a, 0x5a, N, s1).unwrap();
    p.free_async(a, s1).unwrap();
    let b = p.malloc_async(N, s1).unwrap();
    assert_eq!(b, a);
    let mut out = vec![0u8; N as usize];
    p.memcpy_async(&mut out, b, N, s1).unwrap();
    assert!(out.iter().all(|&x| x == 0x5a));
}
