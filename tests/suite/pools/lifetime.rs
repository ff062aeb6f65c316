//! Lifetime checks: an access not ordered after a stream-ordered allocation, or not ordered before the free of
//! its memory, is a report of its own kind; a properly ordered reuse never is.

use streamsim::{
    Accessor, EventFlags, Kernel, Machine, RaceDetection, RaceKind, SimError, StreamFlags,
    StreamKind,
};

use super::two_streams;

const N: u64 = 4096;

fn stream_of(a: &Accessor) -> StreamKind {
    match a {
        Accessor::Op { stream, .. } => stream.kind,
        Accessor::Host { .. } => panic!("a host access: {a:?}"),
    }
}

/// stream-ordered-memory.md · Lifetime · access on another stream not ordered after cudaMallocAsync → use
/// before allocation, naming the allocation and the access, with the fix.
#[test]
fn an_access_not_ordered_after_the_allocation_is_a_use_before_allocation() {
    let (m, p, s1, s2) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s2, Kernel::new("k").writes(a, N)).unwrap();
    p.device_synchronize().unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    let r = &r[0];
    assert_eq!(r.kind, RaceKind::UseBeforeAlloc);
    assert_eq!(stream_of(&r.first.who), StreamKind::Created(1));
    assert_eq!(stream_of(&r.second.who), StreamKind::Created(2));
    assert_eq!((r.first.verb(), r.second.verb()), ("allocates", "writes"));
    assert_eq!((r.offset, r.bytes, r.allocation), (0, N, 1));
    assert_eq!(
        r.fix(),
        "record an event on stream 1 after `malloc_async` and make stream 2 wait on it before `k`"
    );
    let text = r.text(false);
    assert!(
        text.starts_with(
            "use before allocation of 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("first:  alloc `malloc_async` on stream 1 (device 0, process 0) allocates"),
        "{text}"
    );
}

/// stream-ordered-memory.md · Lifetime · the same access after an event recorded after the allocation → no report.
#[test]
fn an_event_after_the_allocation_makes_the_access_legal() {
    let (m, p, s1, s2) = two_streams();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    p.launch(s2, Kernel::new("k").writes(a, N)).unwrap();
    p.record_event(e, s2).unwrap();
    p.stream_wait_event(s1, e).unwrap();
    p.free_async(a, s1).unwrap();
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
}

/// stream-ordered-memory.md · Lifetime · cudaFreeAsync not ordered after an access on another stream → use
/// after free: first the access, second the free, and the fix.
#[test]
fn a_free_not_ordered_after_an_access_is_a_use_after_free() {
    let (m, p, s1, s2) = two_streams();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    p.launch(s2, Kernel::new("k").writes(a, N)).unwrap();
    p.free_async(a, s1).unwrap();
    p.device_synchronize().unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    let r = &r[0];
    assert_eq!(r.kind, RaceKind::UseAfterFree);
    assert_eq!((r.first.verb(), r.second.verb()), ("writes", "frees"));
    assert_eq!(stream_of(&r.first.who), StreamKind::Created(2));
    assert_eq!(stream_of(&r.second.who), StreamKind::Created(1));
    assert_eq!(
        r.fix(),
        "record an event on stream 2 after `k` and make stream 1 wait on it before `free_async`"
    );
}

/// stream-ordered-memory.md · Lifetime · work enqueued after cudaFreeAsync returned → use after free, whatever
/// its order ("After this API returns, accessing the memory from any subsequent work … results in undefined
/// behavior"); the call itself succeeds, as on hardware.
#[test]
fn work_enqueued_after_the_free_is_a_use_after_free() {
    let (m, p, s1, _) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.free_async(a, s1).unwrap();
    p.launch(s1, Kernel::new("late").reads(a, N)).unwrap();
    p.stream_synchronize(s1).unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].kind, RaceKind::UseAfterFree);
    assert_eq!((r[0].first.verb(), r[0].second.verb()), ("frees", "reads"));
    assert_eq!(
        r[0].fix(),
        "`late` uses the memory after `free_async` freed it: enqueue it before the free (and order the free \
         after it), or allocate the memory again"
    );
}

/// stream-ordered-memory.md · Lifetime · reuse by a properly ordered later allocation is never reported, while
/// the stale use of the old pointer by a stream that did not wait is.
#[test]
fn a_properly_ordered_reuse_is_not_reported() {
    let (m, p, s1, s2) = two_streams();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    for _ in 0..10 {
        let a = p.malloc_async(N, s1).unwrap();
        p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
        p.free_async(a, s1).unwrap();
        p.record_event(e, s1).unwrap();
        p.stream_wait_event(s2, e).unwrap();
        let b = p.malloc_async(N, s2).unwrap();
        assert_eq!(b, a);
        p.launch(s2, Kernel::new("k2").writes(b, N)).unwrap();
        p.free_async(b, s2).unwrap();
        p.record_event(e, s2).unwrap();
        p.stream_wait_event(s1, e).unwrap();
    }
    p.device_synchronize().unwrap();
    assert!(m.race_reports().is_empty(), "{:?}", m.race_reports());
}

/// stream-ordered-memory.md · Lifetime · cudaFree of pool memory: "the driver assumes that all accesses to the
/// allocation are complete" — a kernel the host has not observed is a use after free (second side: the host's
/// free); after a synchronize it is not.
#[test]
fn the_hosts_free_of_pool_memory_with_work_pending_is_a_use_after_free() {
    let (m, p, s1, _) = two_streams();
    let a = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free(a).unwrap();
    // The host has observed neither the allocation nor the kernel.
    let r = m.race_reports();
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[0].kind, RaceKind::UseBeforeAlloc);
    assert_eq!(
        (r[0].first.verb(), r[0].second.verb()),
        ("allocates", "frees")
    );
    assert_eq!(r[1].kind, RaceKind::UseAfterFree);
    assert!(matches!(
        r[1].second.who,
        Accessor::Host { call: "free", .. }
    ));
    assert_eq!(
        r[1].fix(),
        "synchronize stream 1 (or an event recorded after `k`) before `free`"
    );
    let b = p.malloc_async(N, s1).unwrap();
    p.launch(s1, Kernel::new("k").writes(b, N)).unwrap();
    p.stream_synchronize(s1).unwrap();
    p.free(b).unwrap();
    assert_eq!(m.race_reports().len(), 2, "{:#?}", m.race_reports());
}

/// stream-ordered-memory.md · Lifetime · cudaFree of cudaMalloc memory while a kernel on a non-blocking stream
/// still uses it → use after free ("may perform implicit synchronization": not promised); after the kernel's
/// stream is synchronized, no report.
#[test]
fn a_plain_free_with_queued_work_is_a_use_after_free() {
    let (m, p, s1, _) = two_streams();
    let a = p.malloc(N).unwrap();
    p.launch(s1, Kernel::new("k").writes(a, N)).unwrap();
    p.free(a).unwrap();
    let r = m.race_reports();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].kind, RaceKind::UseAfterFree);
    let b = p.malloc(N).unwrap();
    p.launch(s1, Kernel::new("k2").writes(b, N)).unwrap();
    p.stream_synchronize(s1).unwrap();
    p.free(b).unwrap();
    assert_eq!(m.race_reports().len(), 1);
}

/// stream-ordered-memory.md · Lifetime · fail-fast detection: the free that completes a use after free fails
/// with the report and frees nothing (a second free, ordered, then works).
#[test]
fn fail_fast_refuses_the_free() {
    let m = Machine::builder()
        .race_detection(RaceDetection::FailFast)
        .build()
        .unwrap();
    let p = m.process();
    let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let a = p.malloc_async(N, s1).unwrap();
    p.record_event(e, s1).unwrap();
    p.stream_wait_event(s2, e).unwrap();
    p.launch(s2, Kernel::new("k").writes(a, N)).unwrap();
    let err = p.free_async(a, s1).unwrap_err();
    let SimError::Race(r) = err else {
        panic!("{err:?}")
    };
    assert_eq!(r.kind, RaceKind::UseAfterFree);
    p.record_event(e, s2).unwrap();
    p.stream_wait_event(s1, e).unwrap();
    p.free_async(a, s1).unwrap();
    p.device_synchronize().unwrap();
}
