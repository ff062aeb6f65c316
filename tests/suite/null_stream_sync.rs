//! Truth-table tests: `shared/reference/cuda-musa.md` · Stream wait, streams, devices · StreamQuery /
//! StreamSynchronize · the NULL (legacy) stream → covers the legacy stream's own work and all earlier work of
//! the device's blocking streams (not NonBlocking ones): 600 while any of it runs; synchronize waits for all of
//! it (hip-tests `catch/unit/stream/hipStreamQuery.cc`, `hipStreamSynchronize.cc`; the CUDA "stream
//! synchronization behavior" page: the legacy default stream "is an implicit stream which synchronizes with all
//! other blocking streams in the same CUcontext"). Through the core API, CUDA dialect; conventions as in
//! `cuda_streams.rs`: `(tN)` is a call's `now` in µs, every call costs 1 µs, an operation starts at
//! max(stream cursor, now + 2 µs, what it waits for). The C ports are `tests/c/null_stream_sync.c`.

use streamsim::{Status, Stream, StreamFlags};

use crate::common::{cuda1, cuda2, kernel, span, us};

/// hip-tests `Unit_hipStreamSynchronize_SynchronizeStreamAndQueryNullStream` (the non-AMD branch): two blocking
/// streams with a 500 µs and a 2000 µs kernel. The NULL stream is not ready while either runs — also after
/// stream 1 was synchronized, since stream 2 still runs; synchronizing the NULL stream waits for both (the host
/// clock moves to the end of stream 2's kernel, exactly), after which every query is complete. The NULL stream
/// itself never had an operation.
#[test]
fn the_null_stream_covers_the_earlier_work_of_the_blocking_streams() {
    for null in [Stream::DEFAULT, Stream::LEGACY] {
        let (m, p) = cuda1();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t1)
        let s2 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
        p.launch(s1, kernel("k1", 500)).unwrap(); // (t3) 5..505
        p.launch(s2, kernel("k2", 2000)).unwrap(); // (t4) 6..2006
        assert_eq!(p.stream_query(null), Ok(Status::NotReady)); // (t5)
        assert_eq!(p.stream_query(s1), Ok(Status::NotReady)); // (t6)
        assert_eq!(p.stream_query(s2), Ok(Status::NotReady)); // (t7)
        p.stream_synchronize(s1).unwrap(); // (t8) → 505
        assert_eq!(p.now(), us(505));
        assert_eq!(p.stream_query(s1), Ok(Status::Complete)); // (506)
        assert_eq!(p.stream_query(s2), Ok(Status::NotReady)); // (507)
        assert_eq!(p.stream_query(null), Ok(Status::NotReady), "{null:?}"); // (508): s2 still runs
        p.stream_synchronize(null).unwrap(); // (509) → 2006
        assert_eq!(p.now(), us(2006), "{null:?}: waits for the 2000 µs kernel");
        assert_eq!(p.stream_query(null), Ok(Status::Complete)); // (2007)
        assert_eq!(p.stream_query(s2), Ok(Status::Complete)); // (2008)
        let t = m.trace();
        assert_eq!(span(&t, "k2"), (us(6), us(2006)));
        // The synchronize is one blocking host call from 509 to 2006.
        let sync = t
            .host
            .iter()
            .find(|h| h.label.starts_with("stream_synchronize(default stream"))
            .expect("the NULL-stream synchronize is in the trace");
        assert_eq!((sync.start, sync.end), (us(509), us(2006)));
    }
}

/// hip-tests `Unit_hipStreamSynchronize_NullStreamSynchronization` (10 blocking streams with a kernel each:
/// the NULL stream and every stream not ready; after synchronizing the NULL stream all are complete) — with
/// kernels of different lengths, so that the synchronize must wait for the longest, exactly.
#[test]
fn synchronizing_the_null_stream_waits_for_every_blocking_stream() {
    let (_m, p) = cuda1();
    let streams: Vec<Stream> = (0..10)
        .map(|_| p.create_stream(StreamFlags::DEFAULT).unwrap()) // (t1..t10)
        .collect();
    for (i, &s) in streams.iter().enumerate() {
        // (t11 + i) starts at 13 + i, lasts 1000 + 100 i
        p.launch(s, kernel("delay", 1000 + 100 * i as u64)).unwrap();
    }
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // (t21)
    for &s in &streams {
        assert_eq!(p.stream_query(s), Ok(Status::NotReady)); // (t22..t31)
    }
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (t32) → the last: 22 + 1900 = 1922
    assert_eq!(p.now(), us(1922));
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete));
    for &s in &streams {
        assert_eq!(p.stream_query(s), Ok(Status::Complete));
    }
}

/// The same row's "(not NonBlocking ones)": a non-blocking stream's work is not covered. Its 1000 µs kernel
/// runs while the NULL stream reports complete, and synchronizing the NULL stream returns at once.
#[test]
fn the_null_stream_does_not_cover_non_blocking_streams() {
    let (_m, p) = cuda1();
    let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap(); // (t1)
    p.launch(nb, kernel("nb", 1000)).unwrap(); // (t2) 4..1004
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete)); // (t3)
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (t4): nothing to wait for
    assert_eq!(p.now(), us(4));
    assert_eq!(p.stream_query(nb), Ok(Status::NotReady)); // (t5)
    // A blocking stream's work next to it is covered, the non-blocking one's still not.
    let b = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t6)
    p.launch(b, kernel("b", 100)).unwrap(); // (t7) 9..109
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (t8) → 109
    assert_eq!(p.now(), us(109));
    assert_eq!(p.stream_query(nb), Ok(Status::NotReady)); // (110)
}

/// hip-tests `Unit_hipStreamSynchronize_NullStreamAndStreamPerThread`: the per-thread default stream is a
/// blocking stream (cuda-musa.md · per-thread default stream (0x2) → synchronizes with the legacy stream): its
/// work makes the NULL stream not ready; after a kernel on the NULL stream (which waits for it) and a NULL-stream
/// synchronize, both are complete. Only earlier work is covered, and only of the current device.
#[test]
fn the_null_stream_covers_the_per_thread_stream_and_only_its_device() {
    let (_m, p) = cuda2();
    p.launch(Stream::PER_THREAD, kernel("pt", 500)).unwrap(); // (t1) 3..503
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // (t2)
    assert_eq!(p.stream_query(Stream::PER_THREAD), Ok(Status::NotReady)); // (t3)
    p.launch(Stream::DEFAULT, kernel("null", 500)).unwrap(); // (t4) waits for pt: 503..1003
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (t5) → 1003
    assert_eq!(p.now(), us(1003));
    assert_eq!(p.stream_query(Stream::PER_THREAD), Ok(Status::Complete));
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete));
    // Device 1's blocking stream is not covered by device 0's NULL stream.
    p.set_device(1).unwrap(); // (1006)
    let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (1007)
    p.launch(s1, kernel("dev1", 100)).unwrap(); // (1008) 1010..1110
    p.set_device(0).unwrap(); // (1009)
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::Complete)); // (1010)
    p.set_device(1).unwrap(); // (1011)
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // (1012)
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (1013) → 1110
    assert_eq!(p.now(), us(1110));
}

/// The same row, with a destroyed blocking stream: its pending work is still earlier work of the device's
/// blocking streams (cuda-musa.md · StreamDestroy · work pending → Success at once; work completes).
#[test]
fn the_null_stream_covers_a_destroyed_blocking_stream_s_work() {
    let (_m, p) = cuda1();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t1)
    p.launch(s, kernel("orphan", 300)).unwrap(); // (t2) 4..304
    p.destroy_stream(s).unwrap(); // (t3)
    assert_eq!(p.stream_query(Stream::DEFAULT), Ok(Status::NotReady)); // (t4)
    p.stream_synchronize(Stream::DEFAULT).unwrap(); // (t5) → 304
    assert_eq!(p.now(), us(304));
}

/// Synchronize with a timeout on the NULL stream uses the latest covered time: it times out when a blocking
/// stream's work ends after the deadline, even though the NULL stream itself is empty.
#[test]
fn a_null_stream_synchronize_with_a_timeout_counts_the_blocking_streams() {
    let (_m, p) = cuda1();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t1)
    p.launch(s, kernel("long", 1000)).unwrap(); // (t2) 4..1004
    assert!(matches!(
        p.stream_synchronize_timeout(Stream::DEFAULT, std::time::Duration::from_micros(500)), // (t3)
        Err(streamsim::SimError::Timeout { .. })
    ));
    assert_eq!(p.now(), us(503), "the host clock stands at the deadline");
    p.stream_synchronize_timeout(Stream::DEFAULT, std::time::Duration::from_millis(1))
        .unwrap(); // (504): deadline 1504 ≥ 1004
    assert_eq!(p.now(), us(1004));
}
