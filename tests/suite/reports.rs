//! What a program sees of its run besides the calls' answers: the names it gives streams and events in race
//! reports, the trace, the Chrome export and the timeline; the race hook ([`MachineBuilder::on_race`]);
//! failed calls and races in the Chrome trace; [`Machine::drain`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use streamsim::export::{ChromeTrace, Timeline, acl_code, cuda_code, musa_code};
use streamsim::{
    Accessor, Dialect, EventFlags, Kernel, Machine, RaceDetection, SimError, Stream, StreamFlags,
};

const N: u64 = 4096;

fn kernel(name: &'static str, us: u64) -> Kernel {
    Kernel::new(name).duration(Duration::from_micros(us))
}

/// A producer on one stream and a copy on another without an event: one race (the seed 004 mistake).
fn racy(m: &Machine) -> (streamsim::Process, Stream, Stream) {
    let p = m.process();
    let compute = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let copy = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let dev = p.malloc(N).unwrap();
    let host = p.malloc_host(N).unwrap();
    p.name_stream(compute, "compute").unwrap();
    p.name_stream(copy, "copy stream").unwrap();
    p.launch(compute, kernel("produce", 100).writes(dev, N))
        .unwrap();
    p.memcpy_async(host, dev, N, copy).unwrap();
    p.device_synchronize().unwrap();
    (p, compute, copy)
}

/// Names given with `name_stream` are what race reports, their fix and the stream's accessor show; the
/// ordinals (`stream 1`) are gone from the text.
#[test]
fn race_reports_show_the_names_given_to_streams() {
    let m = Machine::builder().build().unwrap();
    let (p, compute, _) = racy(&m);
    let reports = m.race_reports();
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(
        r.text(false),
        "data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory)\n\
         \x20 first:  kernel `produce` on stream `compute` (device 0, process 0) writes\n\
         \x20 second: memcpy `memcpy_async` on stream `copy stream` (device 0, process 0) reads\n\
         \x20 fix: record an event on stream `compute` after `produce` and make stream `copy stream` wait on it \
         before `memcpy_async`"
    );
    // With call sites, it is the Display.
    assert_eq!(r.text(true), r.to_string());
    assert!(
        r.to_string()
            .contains(&format!("writes — enqueued at {}", r.first.call_site))
    );
    let Accessor::Op { stream_name, .. } = &r.first.who else {
        panic!("an operation")
    };
    assert_eq!(stream_name.as_deref(), Some("compute"));
    assert_eq!(p.stream_name(compute).unwrap().as_deref(), Some("compute"));
    // The report's positions are the operations' in the trace.
    let t = m.trace();
    let first = t
        .ops
        .iter()
        .find(|o| Some(o.seq) == r.first.seq && o.label == "produce")
        .expect("the first access's operation is in the trace at its seq");
    assert_eq!(first.stream, p.stream_id(compute).unwrap());
    assert_eq!(r.second.seq, Some(1));
}

/// A renamed stream's later reports carry the new name (the cached identity is dropped); the empty name
/// removes it; a destroyed stream cannot be named; naming does not move the clock; naming from a kernel body
/// is NotPermitted.
#[test]
fn naming_streams_and_events() {
    let m = Machine::builder().build().unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let t = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    let before = p.now();
    p.name_stream(s, "first").unwrap();
    p.name_event(e, "done").unwrap();
    assert_eq!(p.now(), before, "naming is not a runtime call");
    assert_eq!(p.event_name(e).unwrap().as_deref(), Some("done"));
    let a = p.malloc(N).unwrap();
    p.launch(s, kernel("k", 10).writes(a, N)).unwrap();
    p.launch(t, kernel("k", 10).writes(a, N)).unwrap();
    p.name_stream(s, "second").unwrap();
    p.launch(s, kernel("k", 10).writes(a, N)).unwrap();
    p.device_synchronize().unwrap();
    let labels: Vec<Option<String>> = m
        .race_reports()
        .iter()
        .flat_map(|r| [r.first.who.stream_label(), r.second.who.stream_label()])
        .collect();
    assert_eq!(
        labels,
        [
            Some("stream `first`".to_string()),
            Some("stream 2".to_string()),
            Some("stream 2".to_string()),
            Some("stream `second`".to_string()),
        ]
    );
    p.name_stream(s, "").unwrap();
    assert_eq!(p.stream_name(s).unwrap(), None);
    // The default stream can be named too (the handle stands for the current device's).
    p.name_stream(Stream::DEFAULT, "main").unwrap();
    assert_eq!(
        p.stream_name(Stream::DEFAULT).unwrap().as_deref(),
        Some("main")
    );
    p.destroy_stream(t).unwrap();
    assert!(matches!(
        p.name_stream(t, "gone"),
        Err(SimError::InvalidHandle { .. })
    ));
    p.destroy_event(e).unwrap();
    assert!(matches!(
        p.name_event(e, "gone"),
        Err(SimError::InvalidHandle { .. })
    ));
    // From a kernel body: not permitted, like a runtime call.
    let got = Arc::new(Mutex::new(None));
    let (q, g) = (p.clone(), got.clone());
    p.launch(
        s,
        Kernel::new("body").body(move |_| {
            *g.lock().unwrap() = Some(q.name_stream(s, "x"));
            Ok(())
        }),
    )
    .unwrap();
    p.stream_synchronize(s).unwrap();
    assert_eq!(
        *got.lock().unwrap(),
        Some(Err(SimError::NotPermitted {
            what: "name_stream"
        }))
    );
}

/// The trace keeps the names; the timeline's rows and the Chrome tracks, records, waits, flows and host
/// calls use them.
#[test]
fn traces_and_timelines_show_the_names() {
    let m = Machine::builder().build().unwrap();
    let p = m.process();
    let (a, b) = (
        p.create_stream(StreamFlags::DEFAULT).unwrap(),
        p.create_stream(StreamFlags::DEFAULT).unwrap(),
    );
    let e = p.create_event(EventFlags::DEFAULT).unwrap();
    p.name_stream(a, "producer").unwrap();
    p.name_stream(b, "consumer").unwrap();
    p.name_event(e, "ready").unwrap();
    p.launch(a, kernel("make", 20)).unwrap();
    p.record_event(e, a).unwrap();
    p.stream_wait_event(b, e).unwrap();
    p.launch(b, kernel("use", 20)).unwrap();
    p.stream_synchronize(b).unwrap();
    p.event_synchronize(e).unwrap();
    let t = m.trace();
    assert_eq!(t.names.stream(p.stream_id(a).unwrap()), Some("producer"));
    assert_eq!(t.names.event(p.event_id(e).unwrap()), Some("ready"));
    let labels: Vec<&str> = t.ops.iter().map(|o| &*o.label).collect();
    assert_eq!(
        labels,
        ["make", "record event `ready`", "wait event `ready`", "use"]
    );
    let host: Vec<&str> = t.host.iter().map(|h| h.label.as_str()).collect();
    assert_eq!(
        host,
        [
            "stream_synchronize(stream `consumer`)",
            "event_synchronize(event `ready`)"
        ]
    );
    let text = Timeline::new(&t).width(80).to_string();
    assert!(text.lines().any(|l| l.starts_with("producer |")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("consumer |")), "{text}");
    assert!(
        text.contains("event `ready` recorded on producer"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&ChromeTrace::new(&t).to_json()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let tracks: Vec<&str> = events
        .iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tracks,
        [
            "host thread 0",
            "dev0 · producer (stream 1)",
            "dev0 · consumer (stream 2)"
        ]
    );
    let flows: Vec<&str> = events
        .iter()
        .filter(|e| e["ph"] == "s" || e["ph"] == "f")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(flows, ["event `ready`", "event `ready`"]);
    // Without tracing, nothing is kept for the trace.
    let quiet = Machine::builder().trace(false).build().unwrap();
    let q = quiet.process();
    let s = q.create_stream(StreamFlags::DEFAULT).unwrap();
    q.name_stream(s, "unseen").unwrap();
    assert!(quiet.trace().names.streams.is_empty());
}

/// `on_race` is called once per new report, with the report as stored, and not again when the same pair
/// races again (the report's `occurrences` counts those); never with detection off.
#[test]
fn the_race_hook_sees_each_new_report_once() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let m = Machine::builder()
        .on_race(move |r| s2.lock().unwrap().push(r.text(false)))
        .build()
        .unwrap();
    let p = m.process();
    let (a, b) = (
        p.create_stream(StreamFlags::DEFAULT).unwrap(),
        p.create_stream(StreamFlags::DEFAULT).unwrap(),
    );
    let buf = p.malloc(N).unwrap();
    for _ in 0..3 {
        p.launch(a, kernel("w", 10).writes(buf, N)).unwrap();
        p.launch(b, kernel("r", 10).reads(buf, N)).unwrap();
    }
    p.device_synchronize().unwrap();
    let reports = m.race_reports();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), reports.len());
    // Each as it was first found: once.
    let first_found: Vec<String> = reports
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.occurrences = 1;
            r.text(false)
        })
        .collect();
    assert_eq!(seen, first_found);
    assert_eq!(
        reports.iter().map(|r| r.occurrences).collect::<Vec<_>>(),
        [3, 2],
        "repeats are counted, not handed to the hook"
    );
    assert_eq!(m.race_count(), reports.len());
    assert_eq!(m.race_report(0), Some(reports[0].clone()));
    assert_eq!(m.race_report(reports.len()), None);
    // Off: never called.
    let called = Arc::new(Mutex::new(0));
    let c2 = called.clone();
    let off = Machine::builder()
        .race_detection(RaceDetection::Off)
        .on_race(move |_| *c2.lock().unwrap() += 1)
        .build()
        .unwrap();
    racy(&off);
    assert_eq!(*called.lock().unwrap(), 0);
    assert_eq!(off.race_count(), 0);
}

/// Failed calls are in the trace with their error, and the Chrome export writes them on the host track with
/// the facade's code (CUDA, MUSA and ACL names from the facades' own mappings).
#[test]
fn failed_calls_are_in_the_trace_with_the_vendor_code() {
    let m = Machine::builder().devices(2).build().unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    p.set_device(1).unwrap();
    // A launch on a stream of another device: CUDA 400.
    let err = p.launch(s, kernel("k", 1)).unwrap_err();
    let t = m.trace();
    assert_eq!(t.failed.len(), 1);
    let f = &t.failed[0];
    assert_eq!(
        (f.call, f.thread, f.error.clone()),
        ("launch", 0, err.clone())
    );
    assert_eq!(
        f.at,
        streamsim::VirtualTime(3_000),
        "the third call, at 3 µs"
    );
    assert_eq!(cuda_code(&err), (400, "cudaErrorInvalidResourceHandle"));
    assert_eq!(musa_code(&err), (400, "musaErrorInvalidResourceHandle"));
    let json: Value =
        serde_json::from_str(&ChromeTrace::new(&t).error_codes(cuda_code).to_json()).unwrap();
    let errors: Vec<&Value> = json["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "error")
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0]["name"],
        "launch: 400 cudaErrorInvalidResourceHandle"
    );
    assert_eq!(errors[0]["ph"], "i");
    assert_eq!(errors[0]["ts"], 3.0);
    assert_eq!(errors[0]["args"]["code"], 400);
    assert_eq!(errors[0]["args"]["message"], err.stable_message());
    // Without a mapping: the error's variant.
    let plain = ChromeTrace::new(&t).to_json();
    assert!(
        plain.contains("\"name\":\"launch: WrongDevice\""),
        "{plain}"
    );
    // ACL's code for ACL's error.
    let acl = Machine::builder().dialect(Dialect::Acl).build().unwrap();
    let q = acl.process();
    let e = q.create_stream(StreamFlags::DEFAULT).unwrap_err();
    assert_eq!(acl_code(&e), (107002, "ACL_ERROR_RT_CONTEXT_NULL"));
    assert_eq!(acl.trace().failed[0].call, "create_stream");
    // Tracing off: not kept.
    let quiet = Machine::builder().trace(false).build().unwrap();
    let _ = quiet.process().destroy_stream(Stream::from_raw(99));
    assert!(quiet.trace().failed.is_empty());
}

/// `drain` waits for everything dispatched, without a runtime call: the trace then holds the work, and no
/// clock moved.
#[test]
fn drain_completes_the_trace_without_a_call() {
    let m = Machine::builder().build().unwrap();
    let p = m.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    for _ in 0..50 {
        p.launch(s, kernel("k", 1000)).unwrap();
    }
    let now = p.now();
    m.drain();
    assert_eq!(p.now(), now);
    let t = m.trace();
    assert_eq!(t.ops.len(), 50);
    assert!(t.host.is_empty() && t.failed.is_empty());
}
