//! Race detection: iPC events order accesses across processes.

use super::*;

fn ipc_event(p: &Process) -> streamsim::Event {
    p.create_event(EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING)
        .unwrap()
}

/// Process A produces on its stream 1 and consumes on its stream 2; the only order between them goes through
/// process B: B waits on A's IPC event, records its own IPC event, and A's stream 2 waits on that. The
/// vector clocks carry across both processes: no race. Without B's wait, A's two accesses race (both sides
/// are A's: memory belongs to one process).
#[test]
fn ipc_events_order_accesses_through_another_process() {
    for b_waits in [true, false] {
        let reports = check(one_device, move |m| {
            let a = m.process();
            let b = m.process();
            let sa = streams(&a, 2, StreamFlags::NON_BLOCKING);
            let buf = a.malloc(N).unwrap();
            let ea = ipc_event(&a);
            let produce = line!() + 1;
            a.launch(sa[0], work("produce").writes(buf, N)).unwrap();
            a.record_event(ea, sa[0]).unwrap();
            let ha = a.ipc_get_event_handle(ea).unwrap();

            let sb = b.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let ea_in_b = b.ipc_open_event_handle(&ha).unwrap();
            if b_waits {
                b.stream_wait_event(sb, ea_in_b).unwrap();
            }
            b.launch(sb, work("relay")).unwrap();
            let eb = ipc_event(&b);
            b.record_event(eb, sb).unwrap();
            let hb = b.ipc_get_event_handle(eb).unwrap();

            let eb_in_a = a.ipc_open_event_handle(&hb).unwrap();
            a.stream_wait_event(sa[1], eb_in_a).unwrap();
            let consume = line!() + 1;
            a.launch(sa[1], work("consume").reads(buf, N)).unwrap();
            a.device_synchronize().unwrap();
            b.device_synchronize().unwrap();
            if b_waits {
                vec![]
            } else {
                vec![race(
                    (kernel(&a, sa[0], "produce"), true, produce),
                    (kernel(&a, sa[1], "consume"), false, consume),
                    1,
                    DEV0,
                )]
            }
        });
        if let Some(r) = reports.first() {
            assert_eq!(r.first.who.process(), ProcessId(0));
            assert_eq!(r.second.who.process(), ProcessId(0));
        }
    }
}

/// Device memory and pinned buffers belong to one process: another process's kernel, copy or host read of
/// them is refused (`InvalidAddress`, "owned by another process") before anything is enqueued, so no access
/// of one process can meet another's in the detector except through an IPC mapping of the memory (the next
/// test). What crosses processes otherwise is order (the test above).
#[test]
fn cross_process_accesses_are_refused_so_no_cross_process_race_exists() {
    check(one_device, |m| {
        let a = m.process();
        let b = m.process();
        let sa = a.create_stream(StreamFlags::DEFAULT).unwrap();
        let sb = b.create_stream(StreamFlags::DEFAULT).unwrap();
        let buf = a.malloc(N).unwrap();
        let h = a.malloc_host(N).unwrap();
        a.launch(sa, work("a writes").writes(buf, N)).unwrap();
        a.memcpy_async(h, buf, N, sa).unwrap();
        let owned = |e: SimError| {
            assert!(
                matches!(
                    e,
                    SimError::InvalidAddress {
                        problem: "owned by another process",
                        ..
                    }
                ),
                "{e:?}"
            )
        };
        owned(b.launch(sb, work("b reads").reads(buf, N)).unwrap_err());
        owned(b.memcpy_async(h, buf, N, sb).unwrap_err());
        owned(b.host_read(h, &mut [0; N as usize]).unwrap_err());
        owned(b.host_write(h, &[0; N as usize]).unwrap_err());
        b.device_synchronize().unwrap();
        assert!(m.trace().stream(b.stream_id(sb).unwrap()).next().is_none());
        a.device_synchronize().unwrap();
        vec![]
    });
}

/// cuda-musa.md · IPC · opened event (on the opener's device; Record works in either process): the
/// happens-before edge also flows when the *opener* records the exporter's event. A (device 0) produces and
/// records its IPC event; B opens it on device 1, waits on it, relays, and records the same event on its own
/// device-1 stream; A's second stream waits on A's own handle — whose newest record is now B's — and consumes.
/// No race: the clock went A → B → A through one event. Without B's wait on the event, B's record orders
/// nothing of A's production, and the two kernels race.
#[test]
fn an_opener_s_record_of_the_exported_event_orders_the_exporter_s_later_work() {
    for b_waits in [true, false] {
        let reports = check(two_devices, move |m| {
            let a = m.process();
            let b = m.process();
            let sa = streams(&a, 2, StreamFlags::NON_BLOCKING);
            let buf = a.malloc(N).unwrap();
            let ea = ipc_event(&a);
            let produce = line!() + 1;
            a.launch(sa[0], work("produce").writes(buf, N)).unwrap();
            a.record_event(ea, sa[0]).unwrap();
            let h = a.ipc_get_event_handle(ea).unwrap();

            b.set_device(1).unwrap();
            let e_in_b = b.ipc_open_event_handle(&h).unwrap();
            let sb = b.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            if b_waits {
                b.stream_wait_event(sb, e_in_b).unwrap();
            }
            b.launch(sb, work("relay")).unwrap();
            b.record_event(e_in_b, sb).unwrap();

            a.stream_wait_event(sa[1], ea).unwrap();
            let consume = line!() + 1;
            a.launch(sa[1], work("consume").reads(buf, N)).unwrap();
            a.device_synchronize().unwrap();
            b.device_synchronize().unwrap();
            if b_waits {
                vec![]
            } else {
                vec![race(
                    (kernel(&a, sa[0], "produce"), true, produce),
                    (kernel(&a, sa[1], "consume"), false, consume),
                    1,
                    DEV0,
                )]
            }
        });
        assert_eq!(reports.len(), usize::from(!b_waits));
    }
}

/// IPC memory: B maps A's buffer (`ipc_open_mem_handle`: the same bytes and the same shadow). A's kernel writes
/// it; B's kernel reads its mapping. With B's stream waiting on A's IPC event the two are ordered (no report);
/// without the wait they race, and the report names A's writer (process 0) and B's reader (process 1) on
/// allocation #1, the whole buffer.
#[test]
fn a_missing_wait_between_a_writer_and_an_importing_reader_is_a_race_of_both_processes() {
    for b_waits in [true, false] {
        let reports = check(one_device, move |m| {
            let a = m.process();
            let b = m.process();
            let sa = a.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let buf = a.malloc(N).unwrap();
            let ea = ipc_event(&a);
            let produce = line!() + 1;
            a.launch(sa, work("produce").writes(buf, N)).unwrap();
            a.record_event(ea, sa).unwrap();
            let hm = a.ipc_get_mem_handle(buf).unwrap();
            let he = a.ipc_get_event_handle(ea).unwrap();

            let sb = b.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let mapped = b.ipc_open_mem_handle(&hm, false).unwrap();
            let e_in_b = b.ipc_open_event_handle(&he).unwrap();
            if b_waits {
                b.stream_wait_event(sb, e_in_b).unwrap();
            }
            let consume = line!() + 1;
            b.launch(sb, work("consume").reads(mapped, N)).unwrap();
            b.device_synchronize().unwrap();
            a.device_synchronize().unwrap();
            b.ipc_close_mem_handle(mapped).unwrap();
            if b_waits {
                vec![]
            } else {
                vec![race(
                    (kernel(&a, sa, "produce"), true, produce),
                    (kernel(&b, sb, "consume"), false, consume),
                    1,
                    DEV0,
                )]
            }
        });
        if let Some(r) = reports.first() {
            assert_eq!(r.first.who.process(), ProcessId(0));
            assert_eq!(r.second.who.process(), ProcessId(1));
            assert_eq!((r.first.os_process, r.second.os_process), (None, None));
        }
    }
}

/// IPC memory: the open of a memory handle happens after its export, so it carries the exporting host thread's
/// clock to the opener. A's kernel writes, A synchronizes its stream, A exports; B opens and reads with no event
/// at all: ordered (the CANN 10_ipc_memory_withpid shape, with A synchronized). Without A's synchronize the
/// export orders only A's enqueue, not the kernel: B's read races with it.
#[test]
fn an_export_after_a_synchronize_orders_the_importer_s_reads() {
    for synchronized in [true, false] {
        check(one_device, move |m| {
            let a = m.process();
            let b = m.process();
            let sa = a.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let buf = a.malloc(N).unwrap();
            let produce = line!() + 1;
            a.launch(sa, work("produce").writes(buf, N)).unwrap();
            if synchronized {
                a.stream_synchronize(sa).unwrap();
            }
            let hm = a.ipc_get_mem_handle(buf).unwrap();
            let sb = b.create_stream(StreamFlags::NON_BLOCKING).unwrap();
            let mapped = b.ipc_open_mem_handle(&hm, false).unwrap();
            let consume = line!() + 1;
            b.launch(sb, work("consume").reads(mapped, N)).unwrap();
            b.device_synchronize().unwrap();
            a.device_synchronize().unwrap();
            if synchronized {
                vec![]
            } else {
                vec![race(
                    (kernel(&a, sa, "produce"), true, produce),
                    (kernel(&b, sb, "consume"), false, consume),
                    1,
                    DEV0,
                )]
            }
        });
    }
}
