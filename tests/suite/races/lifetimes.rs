//! Race detection across stream lifetimes: a destroyed stream's accesses keep racing with what is not ordered
//! after them, however many streams come and go after it, and the numbers the detector reuses for new streams
//! (`src/engine/observe/race/clock.rs`) neither hide such a race nor invent one, and reports still give each access's
//! position in its stream.

use super::*;

/// `n` stream lifetimes: create a stream, launch a kernel writing `buf` on it, synchronize it, destroy it. Each
/// write is ordered after the previous one (the host synchronized it and enqueues the next), so none races, and
/// each supersedes the previous record: the numbers of these streams are free again at once.
fn lifetimes(p: &Process, buf: streamsim::DevicePtr, n: usize) {
    for _ in 0..n {
        let s = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(s, work("cycle").writes(buf, N)).unwrap();
        p.stream_synchronize(s).unwrap();
        p.destroy_stream(s).unwrap();
    }
}

/// A write by a stream destroyed without any synchronization still races with a read by a stream created 300
/// stream lifetimes later that nothing orders after it. (Had the writer's number been handed to one of the
/// 300 streams, which the host synchronized with, the reader — which joins the host's clock — would have looked
/// ordered after the write, and the race would be lost.)
#[test]
fn a_destroyed_streams_write_races_after_many_lifetimes() {
    check(one_device, |m| {
        let p = m.process();
        let (x, y) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let a = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let w = line!() + 1;
        p.launch(a, work("w").writes(x, N)).unwrap();
        let writer = kernel(&p, a, "w");
        p.destroy_stream(a).unwrap();
        lifetimes(&p, y, 300);
        let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let r = line!() + 1;
        p.launch(b, work("r").reads(x, N)).unwrap();
        p.device_synchronize().unwrap();
        let reports = m.race_reports();
        assert_eq!(reports.len(), 1, "{reports:#?}");
        assert_eq!(
            (reports[0].first.seq, reports[0].second.seq),
            (Some(1), Some(1))
        );
        vec![race(
            (writer, true, w),
            (kernel(&p, b, "r"), false, r),
            1,
            DEV0,
        )]
    });
}

/// The same write, but the host synchronized the writer before destroying it: the read 300 lifetimes later is
/// ordered after it (through the host's clock), and no race is reported — a retired writer's ordering is not
/// lost either.
#[test]
fn a_synchronized_destroyed_writer_stays_ordered() {
    check(one_device, |m| {
        let p = m.process();
        let (x, y) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let a = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(a, work("w").writes(x, N)).unwrap();
        p.stream_synchronize(a).unwrap();
        p.destroy_stream(a).unwrap();
        lifetimes(&p, y, 300);
        let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(b, work("r").reads(x, N)).unwrap();
        p.device_synchronize().unwrap();
        Vec::new()
    });
}

/// A stream created after 300 lifetimes (its number is one of theirs, counted on from their last step) races
/// with a stream it is not ordered after; the report gives each kernel's position in its stream (2 and 1), the
/// same as the trace's.
#[test]
fn reports_of_a_stream_on_a_reused_number_give_its_positions() {
    check(one_device, |m| {
        let p = m.process();
        let (y, z) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        lifetimes(&p, y, 300);
        let d = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let e = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(d, work("first")).unwrap();
        let w = line!() + 1;
        p.launch(d, work("w").writes(z, N)).unwrap();
        let r = line!() + 1;
        p.launch(e, work("r").reads(z, N)).unwrap();
        p.device_synchronize().unwrap();
        let reports = m.race_reports();
        assert_eq!(reports.len(), 1, "{reports:#?}");
        assert_eq!(
            (reports[0].first.seq, reports[0].second.seq),
            (Some(2), Some(1))
        );
        let t = m.trace();
        let in_trace = |s: Stream, label: &str| {
            t.stream(p.stream_id(s).unwrap())
                .find(|op| op.label == label)
                .map(|op| op.seq)
        };
        assert_eq!((in_trace(d, "w"), in_trace(e, "r")), (Some(2), Some(1)));
        vec![race(
            (kernel(&p, d, "w"), true, w),
            (kernel(&p, e, "r"), false, r),
            2,
            DEV0,
        )]
    });
}

/// Two streams destroyed after unordered accesses to one buffer (a read, then a write: a race, reported when it
/// happened), then 300 lifetimes writing another buffer, then a write of the first buffer ordered after the
/// writer only: it races with the reader (its record is still there) and not with the writer.
#[test]
fn only_the_unordered_dead_writer_races() {
    check(one_device, |m| {
        let p = m.process();
        let (x, y) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let s1 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let s2 = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let done = p.create_event(EventFlags::DISABLE_TIMING).unwrap();
        let r1 = line!() + 1;
        p.launch(s1, work("r1").reads(x, N)).unwrap();
        let w2 = line!() + 1;
        p.launch(s2, work("w2").writes(x, N)).unwrap();
        p.record_event(done, s2).unwrap();
        let (first, second) = (kernel(&p, s1, "r1"), kernel(&p, s2, "w2"));
        p.destroy_stream(s1).unwrap();
        p.destroy_stream(s2).unwrap();
        lifetimes(&p, y, 300);
        let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.stream_wait_event(b, done).unwrap();
        let w = line!() + 1;
        p.launch(b, work("w").writes(x, N)).unwrap();
        p.device_synchronize().unwrap();
        vec![
            race((first.clone(), false, r1), (second, true, w2), 1, DEV0),
            race((first, false, r1), (kernel(&p, b, "w"), true, w), 1, DEV0),
        ]
    });
}

/// A device synchronize covers the work of streams destroyed before it, also when that work has finished in
/// virtual time and in fact by then: the host acquires it, and a later read on a new stream is ordered after
/// it. (cudaStreamDestroy: "the resources associated with stream will be released automatically once the
/// device has completed all work in stream" — the work is the device's until then; cudaDeviceSynchronize
/// waits for all of it. The simulator used to forget such a stream's tail at a device synchronize once the
/// caller's clock had passed it, without acquiring it, and reported a race here; the property tests'
/// `ReplaceStream` step found it.)
#[test]
fn a_device_synchronize_orders_a_destroyed_streams_finished_work() {
    check(one_device, |m| {
        let p = m.process();
        let x = p.malloc(N).unwrap();
        let a = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let long = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(a, work("w").writes(x, N)).unwrap();
        p.destroy_stream(a).unwrap();
        // The host's clock passes the write's end (and waits for the long kernel), without acquiring `a`.
        p.launch(long, Kernel::new("long").duration(Duration::from_millis(1)))
            .unwrap();
        p.stream_synchronize(long).unwrap();
        m.drain();
        p.device_synchronize().unwrap();
        let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        p.launch(b, work("r").reads(x, N)).unwrap();
        p.device_synchronize().unwrap();
        Vec::new()
    });
}

/// The same without the device synchronize: the read races with the destroyed stream's write (the host's
/// clock passing it orders nothing).
#[test]
fn without_it_the_destroyed_streams_write_races() {
    check(one_device, |m| {
        let p = m.process();
        let x = p.malloc(N).unwrap();
        let a = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let long = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let w = line!() + 1;
        p.launch(a, work("w").writes(x, N)).unwrap();
        let writer = kernel(&p, a, "w");
        p.destroy_stream(a).unwrap();
        p.launch(long, Kernel::new("long").duration(Duration::from_millis(1)))
            .unwrap();
        p.stream_synchronize(long).unwrap();
        let b = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let r = line!() + 1;
        p.launch(b, work("r").reads(x, N)).unwrap();
        p.device_synchronize().unwrap();
        vec![race(
            (writer, true, w),
            (kernel(&p, b, "r"), false, r),
            1,
            DEV0,
        )]
    });
}
