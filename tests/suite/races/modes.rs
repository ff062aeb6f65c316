//! Race detection: the modes (Off, Collect, FailFast), deduplication, the report's text, virtual times unchanged.

use super::*;

/// Fail-fast: the call that completes a race returns `SimError::Race` with the report, and its operation is
/// not enqueued (not in the trace; the stream's next operation takes its place). A racing host read fails
/// without reading.
#[test]
fn fail_fast_refuses_the_racing_call() {
    check(fail_fast, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        let w1 = line!() + 1;
        p.launch(s[0], work("w1").writes(a, N)).unwrap();
        let w2 = line!() + 1;
        let err = p.launch(s[1], work("w2").writes(a, N)).unwrap_err();
        let SimError::Race(r) = &err else {
            panic!("expected a race, got {err:?}")
        };
        let expected = race(
            (kernel(&p, s[0], "w1"), true, w1),
            (kernel(&p, s[1], "w2"), true, w2),
            1,
            DEV0,
        );
        assert_eq!(seen(r, file!()), expected);
        assert_eq!(err.to_string(), r.to_string());
        p.launch(s[1], work("next")).unwrap();
        // A racing host read.
        let copy = line!() + 1;
        p.memcpy_async(h, a, N, s[0]).unwrap();
        let mut out = vec![0xAA; N as usize];
        let read = line!() + 1;
        let err = p.host_read(h, &mut out).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        assert!(
            out.iter().all(|&x| x == 0xAA),
            "a refused host read reads nothing"
        );
        p.device_synchronize().unwrap();
        let t = m.trace();
        let on_s2: Vec<(u64, &str)> = t
            .stream(p.stream_id(s[1]).unwrap())
            .map(|e| (e.seq, &*e.label))
            .collect();
        assert_eq!(on_s2, [(1, "next")], "w2 was not enqueued");
        assert!(t.find("w2").is_none());
        vec![
            expected,
            race(
                (op(&p, s[0], "memcpy", "memcpy_async"), true, copy),
                (host(0, "host_read"), false, read),
                1,
                PINNED,
            ),
        ]
    });
}

/// Fail-fast on a blocking stream after a legacy-stream operation: the refused operation must not consume
/// the stream's legacy edge. The next operation on that stream must still wait for (and be ordered after) the
/// legacy operation: no race with it, and a start no earlier than its end.
#[test]
fn fail_fast_refused_operation_keeps_the_legacy_edges() {
    check(fail_fast, |m| {
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let by_nb = line!() + 1;
        p.launch(nb, work("nb writes b").writes(b, N)).unwrap();
        p.launch(
            Stream::DEFAULT,
            Kernel::new("legacy writes a")
                .duration(Duration::from_micros(100))
                .writes(a, N),
        )
        .unwrap();
        let refused = line!() + 1;
        let err = p.launch(s1, work("s1 writes b").writes(b, N)).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        p.launch(s1, work("s1 reads a").reads(a, N))
            .expect("ordered after the legacy kernel: no race");
        p.device_synchronize().unwrap();
        let t = m.trace();
        let legacy = t.find("legacy writes a").unwrap();
        let reader = t.find("s1 reads a").unwrap();
        assert!(
            reader.start >= legacy.end,
            "s1's next kernel starts at {} before the legacy kernel ends at {}",
            reader.start,
            legacy.end
        );
        vec![race(
            (kernel(&p, nb, "nb writes b"), true, by_nb),
            (kernel(&p, s1, "s1 writes b"), true, refused),
            2,
            DEV0,
        )]
    });
}

/// The same for the legacy stream itself: a refused legacy operation must not consume its edges to the
/// blocking streams.
#[test]
fn fail_fast_refused_legacy_operation_keeps_its_edges() {
    check(fail_fast, |m| {
        let p = m.process();
        let s1 = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let nb = p.create_stream(StreamFlags::NON_BLOCKING).unwrap();
        let (a, b) = (p.malloc(N).unwrap(), p.malloc(N).unwrap());
        let by_nb = line!() + 1;
        p.launch(nb, work("nb writes b").writes(b, N)).unwrap();
        p.launch(
            s1,
            Kernel::new("s1 writes a")
                .duration(Duration::from_micros(100))
                .writes(a, N),
        )
        .unwrap();
        let k = work("legacy writes b").writes(b, N);
        let refused = line!() + 1;
        let err = p.launch(Stream::DEFAULT, k).unwrap_err();
        assert!(matches!(err, SimError::Race(_)), "{err:?}");
        p.launch(Stream::DEFAULT, work("legacy reads a").reads(a, N))
            .expect("ordered after s1's kernel: no race");
        p.device_synchronize().unwrap();
        let t = m.trace();
        let writer = t.find("s1 writes a").unwrap();
        let reader = t.find("legacy reads a").unwrap();
        assert!(
            reader.start >= writer.end,
            "the legacy kernel starts at {} before s1's kernel ends at {}",
            reader.start,
            writer.end
        );
        vec![race(
            (kernel(&p, nb, "nb writes b"), true, by_nb),
            (
                kernel(&p, Stream::DEFAULT, "legacy writes b"),
                true,
                refused,
            ),
            2,
            DEV0,
        )]
    });
}

/// Off: nothing is tracked, nothing is reported, nothing fails.
#[test]
fn off_reports_nothing() {
    check(
        || Machine::builder().race_detection(RaceDetection::Off),
        |m| {
            assert_eq!(m.race_detection(), RaceDetection::Off);
            let p = m.process();
            let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
            let a = p.malloc(N).unwrap();
            let h = p.malloc_host(N).unwrap();
            p.launch(s[0], work("w1").writes(a, N)).unwrap();
            p.launch(s[1], work("w2").writes(a, N)).unwrap();
            p.memcpy_async(h, a, N, s[0]).unwrap();
            p.host_read(h, &mut [0; N as usize]).unwrap();
            p.device_synchronize().unwrap();
            vec![]
        },
    );
}

/// The default mode collects.
#[test]
fn collect_is_the_default() {
    let m = Machine::builder().build().unwrap();
    assert_eq!(m.race_detection(), RaceDetection::Collect);
}

/// A racy loop of 1000 iterations (produce on stream 1, consume on stream 2, device synchronize) is one
/// report with 1000 occurrences.
#[test]
fn a_racy_loop_is_one_report_counted() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let (mut produce, mut consume) = (0, 0);
        for _ in 0..1000 {
            produce = line!() + 1;
            p.launch(s[0], Kernel::new("produce").writes(a, N)).unwrap();
            consume = line!() + 1;
            p.launch(s[1], Kernel::new("consume").reads(a, N)).unwrap();
            p.device_synchronize().unwrap();
        }
        vec![Seen {
            occurrences: 1000,
            ..race(
                (kernel(&p, s[0], "produce"), true, produce),
                (kernel(&p, s[1], "consume"), false, consume),
                1,
                DEV0,
            )
        }]
    });
    assert!(reports[0].to_string().starts_with(
        "data race on 4096 bytes at offset 0 of allocation #1 (device 0 memory), 1000 times\n"
    ));
}

/// Reports are bounded: a racy loop (two streams take turns writing one buffer, unordered, under a new kernel
/// name each time: a new pair each time) keeps the first `MAX_REPORTS` (4,096) distinct reports, each seen
/// once, hands exactly those to `on_race`, and counts the 10 later ones in `race_reports_dropped`. Fail-fast
/// (one stream writes, racing with the other's first write, each time under a new name) refuses every call,
/// also those of the dropped pairs, with their report.
#[test]
fn reports_are_bounded() {
    with_watchdog(120, || {
        for mode in [RaceDetection::Collect, RaceDetection::FailFast] {
            let announced = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let seen = announced.clone();
            let m = Machine::builder()
                .race_detection(mode)
                .on_race(move |_| {
                    seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                })
                .build()
                .unwrap();
            let p = m.process();
            let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
            let a = p.malloc(N).unwrap();
            // Fail-fast refuses every write but the first: the record stays stream 0's first write.
            p.launch(s[0], Kernel::new("first").writes(a, N)).unwrap();
            let mut refused = 0;
            for i in 0..streamsim::race::MAX_REPORTS + 10 {
                let turn = if mode == RaceDetection::FailFast {
                    0
                } else {
                    i % 2
                };
                let (st, name) = (s[1 - turn], format!("w{i}"));
                match p.launch(st, Kernel::new(name.clone()).writes(a, N)) {
                    Ok(()) => {}
                    Err(SimError::Race(r)) => {
                        assert_eq!(r.second.who, kernel(&p, st, &name));
                        refused += 1;
                    }
                    Err(e) => panic!("{e:?}"),
                }
            }
            let expected = match mode {
                RaceDetection::FailFast => streamsim::race::MAX_REPORTS + 10,
                _ => 0,
            };
            assert_eq!(refused, expected, "{mode:?}");
            assert_eq!(m.race_count(), streamsim::race::MAX_REPORTS, "{mode:?}");
            assert_eq!(m.race_reports_dropped(), 10, "{mode:?}");
            assert_eq!(
                announced.load(std::sync::atomic::Ordering::Relaxed),
                streamsim::race::MAX_REPORTS
            );
            assert_eq!(m.race_report(0).unwrap().occurrences, 1);
            p.device_synchronize().unwrap();
        }
    });
}

/// A kept pair racing again is counted on its report, also once the list is full.
#[test]
fn a_kept_pair_is_counted_when_the_list_is_full() {
    with_watchdog(120, || {
        let m = Machine::builder().build().unwrap();
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::NON_BLOCKING);
        let fresh = p.malloc(N).unwrap();
        // The same pair each time: stream 0 then stream 1 write a buffer of their own.
        let pair = |p: &Process| {
            let kept = p.malloc(N).unwrap();
            p.launch(s[0], Kernel::new("kept").writes(kept, N)).unwrap();
            p.launch(s[1], Kernel::new("kept").writes(kept, N)).unwrap();
        };
        pair(&p);
        // 4,096 new pairs: 4,095 kept, 1 dropped.
        for i in 0..=streamsim::race::MAX_REPORTS {
            p.launch(s[i % 2], Kernel::new(format!("w{i}")).writes(fresh, N))
                .unwrap();
        }
        assert_eq!(m.race_count(), streamsim::race::MAX_REPORTS);
        assert_eq!(m.race_reports_dropped(), 1);
        pair(&p);
        pair(&p);
        assert_eq!(m.race_report(0).unwrap().occurrences, 3);
        assert_eq!(m.race_reports_dropped(), 1);
        p.device_synchronize().unwrap();
    });
}

/// The report's text: what, where, both sides with their call sites, and the fix.
#[test]
fn report_display() {
    let reports = check(one_device, |m| {
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let d = p.malloc(N).unwrap();
        let h = p.malloc_host(64).unwrap();
        let produce = line!() + 1;
        p.launch(s[1], work("produce").writes(d.offset(64), 128))
            .unwrap();
        let consume = line!() + 1;
        p.launch(s[0], work("consume").reads(d, 256)).unwrap();
        let copy = line!() + 1;
        p.memcpy_async(h, d, 64, s[0]).unwrap();
        let write = line!() + 1;
        p.host_write(h.offset(16), &[1; 8]).unwrap();
        vec![
            Seen {
                first: (kernel(&p, s[1], "produce"), true, produce),
                second: (kernel(&p, s[0], "consume"), false, consume),
                range: (1, 64, 128, DEV0),
                occurrences: 1,
            },
            Seen {
                first: (op(&p, s[0], "memcpy", "memcpy_async"), true, copy),
                second: (host(0, "host_write"), true, write),
                range: (1, 16, 8, PINNED),
                occurrences: 1,
            },
        ]
    });
    let r = &reports[0];
    assert_eq!(
        r.to_string(),
        format!(
            "data race on 128 bytes at offset 64 of allocation #1 (device 0 memory)\n\
             \x20 first:  kernel `produce` on stream 2 (device 0, process 0) writes — enqueued at {}\n\
             \x20 second: kernel `consume` on stream 1 (device 0, process 0) reads — enqueued at {}\n\
             \x20 fix: record an event on stream 2 after `produce` and make stream 1 wait on it before `consume`",
            r.first.call_site, r.second.call_site
        )
    );
    assert!(
        r.first
            .call_site
            .to_string()
            .starts_with("tests/suite/races/modes.rs:")
    );
    let r = &reports[1];
    assert_eq!(
        r.to_string(),
        format!(
            "data race on 8 bytes at offset 16 of allocation #1 (pinned host memory)\n\
             \x20 first:  memcpy `memcpy_async` on stream 1 (device 0, process 0) writes — enqueued at {}\n\
             \x20 second: `host_write` on host thread 0 of process 0 writes — enqueued at {}\n\
             \x20 fix: synchronize stream 1 (or an event recorded after `memcpy_async`) before `host_write`",
            r.first.call_site, r.second.call_site
        )
    );
}

/// Verdicts are computed at enqueue: the trace of a racy program is the same with and without detection,
/// and with perturbation (virtual times do not depend on it).
#[test]
fn detection_does_not_change_virtual_times() {
    let program = |mode: RaceDetection, perturb: Option<u64>| {
        let mut b = Machine::builder().race_detection(mode);
        if let Some(s) = perturb {
            b = b.perturb(true).seed(s);
        }
        let m = b.build().unwrap();
        let p = m.process();
        let s = streams(&p, 2, StreamFlags::DEFAULT);
        let a = p.malloc(N).unwrap();
        let h = p.malloc_host(N).unwrap();
        p.launch(s[0], work("w").writes(a, N)).unwrap();
        p.memcpy_async(h, a, N, s[1]).unwrap();
        p.launch(Stream::DEFAULT, work("legacy")).unwrap();
        p.host_read(h, &mut [0; N as usize]).unwrap();
        p.device_synchronize().unwrap();
        let t = m.trace();
        assert!(
            t.ops
                .iter()
                .any(|e| matches!(e.kind, OpKind::Memcpy { .. }))
        );
        format!("{t:?}")
    };
    let base = program(RaceDetection::Off, None);
    assert_eq!(program(RaceDetection::Collect, None), base);
    for seed in 0..10 {
        assert_eq!(
            program(RaceDetection::Collect, Some(seed)),
            base,
            "seed {seed}"
        );
    }
}

/// With detection off a kernel's declared accesses are still checked (nothing else keeps them): an unknown
/// address, a range past its allocation and another process's allocation are refused exactly as with
/// detection on, and nothing is enqueued.
#[test]
fn declared_accesses_are_checked_with_detection_off_too() {
    let mut answers = Vec::new();
    for mode in [RaceDetection::Off, RaceDetection::Collect] {
        let m = Machine::builder().race_detection(mode).build().unwrap();
        let p = m.process();
        let q = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let mine = p.malloc(N).unwrap();
        let theirs = q.malloc(N).unwrap();
        let unknown = streamsim::DevicePtr(mine.0 + (1 << 30));
        let refused = [
            p.launch(s, work("unknown").reads(unknown, 8)),
            p.launch(s, work("past the end").writes(mine, N + 1)),
            p.launch(s, work("theirs").reads(theirs, 8)),
        ];
        for (i, r) in refused.iter().enumerate() {
            assert!(
                matches!(
                    r,
                    Err(SimError::InvalidAddress { .. } | SimError::OutOfRange { .. })
                ),
                "{mode:?}, launch {i}: {r:?}"
            );
        }
        p.launch(s, work("fine").reads(mine, N).writes(mine, N))
            .unwrap();
        p.stream_synchronize(s).unwrap();
        let labels: Vec<_> = m.trace().ops.iter().map(|e| e.label.to_string()).collect();
        assert_eq!(labels, ["fine"], "{mode:?}");
        answers.push(refused);
    }
    assert_eq!(
        answers[0], answers[1],
        "the same errors with detection off and on"
    );
}
