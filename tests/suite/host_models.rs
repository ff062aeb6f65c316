//! The Ascend multi-device guide (多设备编程总述; `docs/semantics/README.md` says what it is): the four host models of
//! multi-device programs, each as a test in both dialects, through the core API:
//! 1. one host thread driving several devices;
//! 2. several host threads, each driving its own device;
//! 3. several single-threaded host processes, each driving its own device;
//! 4. several host processes with several threads each, each thread driving its own device.
//!
//! Every device runs the same small program: copy 256 floats in, a 50 µs kernel whose body doubles them, copy
//! them back (a pageable destination, so the call returns with the data), and release the device (ACL: the
//! reset that pairs with the set, as the seed asks). Because every (host thread, process) pair has its own
//! virtual clock, the models where each device has its own thread give every device the same times, whatever
//! the OS scheduling; the one-thread model shows the devices running side by side in virtual time.

use std::time::Duration;

use streamsim::{
    AddressSpace, DevicePtr, Dialect, Kernel, Machine, Process, SimError, Stream, StreamFlags,
    VirtualTime,
};

use crate::common::with_watchdog;
use crate::multi_device::{DIALECTS, machine, span};

const FLOATS: usize = 256;
const BYTES: u64 = (FLOATS * 4) as u64;

fn input(tag: usize) -> Vec<u8> {
    (0..FLOATS)
        .flat_map(|i| ((tag * 1000 + i) as f32).to_le_bytes())
        .collect()
}

fn doubled(tag: usize) -> Vec<u8> {
    (0..FLOATS)
        .flat_map(|i| ((tag * 1000 + i) as f32 * 2.0).to_le_bytes())
        .collect()
}

fn scale(label: String, buf: DevicePtr) -> Kernel {
    Kernel::new(label)
        .duration(Duration::from_micros(50))
        .reads(buf, BYTES)
        .writes(buf, BYTES)
        .body(move |ctx| {
            let v = ctx.read_f32(buf, FLOATS)?;
            let w: Vec<f32> = v.iter().map(|x| x * 2.0).collect();
            ctx.write_f32(buf, &w)
        })
}

/// The first half of the program on `device`: set it, make a stream, copy the input in, launch the kernel
/// (labelled `label`). Calls (t1)..(t5): the copy in runs 6..8.064 µs (2 µs + 1 KiB / 16 GB/s), the kernel
/// 8.064..58.064 µs.
fn start(p: &Process, device: u32, tag: usize, label: String) -> (Stream, DevicePtr) {
    p.set_device(device.into()).unwrap(); // (t1)
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t2)
    let buf = p.malloc(BYTES).unwrap(); // (t3)
    p.memcpy_async(buf, &input(tag), BYTES, s).unwrap(); // (t4)
    p.launch(s, scale(label, buf)).unwrap(); // (t5)
    (s, buf)
}

/// The second half: copy the result back on the same stream (the stream's device must be current in ACL), check
/// it, release the device.
fn finish(p: &Process, device: u32, tag: usize, (s, buf): (Stream, DevicePtr)) {
    p.set_device(device.into()).unwrap();
    let mut out = vec![0u8; BYTES as usize];
    p.memcpy_async(&mut out, buf, BYTES, s).unwrap();
    assert_eq!(out, doubled(tag), "device {device}, tag {tag}");
    p.free(buf).unwrap();
    p.destroy_stream(s).unwrap();
    // ACL: two sets on this device, so a forced reset (the seed's recommendation); CUDA: a plain reset.
    p.reset_device_force(device.into()).unwrap();
}

/// The whole program on one device, from one thread.
fn drive(p: &Process, device: u32, tag: usize, label: String) {
    let work = start(p, device, tag, label);
    finish(p, device, tag, work);
}

/// Virtual 8.064 µs .. 58.064 µs: the kernel of a device driven by its own thread.
fn own_thread_span() -> (VirtualTime, VirtualTime) {
    (VirtualTime(8_064), VirtualTime(58_064))
}

/// Model 1 — the Ascend multi-device guide · 单个主机线程驱动多个NPU: one host thread sets each device in turn (aclrtSetDevice
/// switches the thread's device), enqueues its work, and later collects every device's result.
#[test]
fn one_thread_drives_several_devices() {
    for dialect in DIALECTS {
        let m = machine(dialect, 3);
        let p = m.process();
        // Device d's calls are (t1+5d)..(t5+5d): its kernel starts 5 µs after the previous device's.
        let work: Vec<_> = (0..3u32)
            .map(|d| start(&p, d, d as usize, format!("scale d{d}")))
            .collect();
        for (d, w) in (0..3u32).zip(work) {
            finish(&p, d, d as usize, w);
        }
        let t = m.trace();
        let spans: Vec<_> = (0..3).map(|d| span(&t, &format!("scale d{d}"))).collect();
        assert_eq!(
            spans,
            [
                (VirtualTime(8_064), VirtualTime(58_064)),
                (VirtualTime(13_064), VirtualTime(63_064)),
                (VirtualTime(18_064), VirtualTime(68_064)),
            ],
            "{dialect:?}: the devices run side by side"
        );
        for d in 0..3 {
            assert_eq!(t.find(&format!("scale d{d}")).unwrap().stream.device, d);
        }
        if dialect == Dialect::Acl {
            assert_eq!(
                p.get_device(),
                Err(SimError::NoContext { what: "get_device" })
            );
        }
    }
}

/// Model 2 — the Ascend multi-device guide · 多个主机线程，每个线程驱动自己的NPU: one host thread per device; setting the device on
/// one thread does not affect the others.
#[test]
fn one_thread_per_device() {
    with_watchdog(60, || {
        for dialect in DIALECTS {
            let m = machine(dialect, 3);
            let p = m.process();
            let threads: Vec<_> = (0..3u32)
                .map(|d| {
                    let p = p.clone();
                    std::thread::spawn(move || drive(&p, d, d as usize, format!("scale d{d}")))
                })
                .collect();
            for h in threads {
                h.join().unwrap();
            }
            let t = m.trace();
            for d in 0..3u32 {
                let label = format!("scale d{d}");
                assert_eq!(span(&t, &label), own_thread_span(), "{dialect:?} {label}");
                assert_eq!(t.find(&label).unwrap().stream.device, d);
            }
        }
    });
}

/// Model 3 — the Ascend multi-device guide · 多个单线程主机进程，每个进程驱动自己的NPU: one simulated process per device, each on its
/// own host thread; a process's memory and handles are its own.
#[test]
fn one_process_per_device() {
    with_watchdog(60, || {
        for dialect in DIALECTS {
            let m = machine(dialect, 3);
            let procs: Vec<Process> = (0..3).map(|_| m.process()).collect();
            let threads: Vec<_> = procs
                .iter()
                .enumerate()
                .map(|(d, p)| {
                    let p = p.clone();
                    std::thread::spawn(move || {
                        drive(&p, d as u32, d, format!("scale p{d}"));
                        // Keep one stream and one buffer for the isolation checks below.
                        p.set_device(d as i64).unwrap();
                        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
                        (s, p.malloc(16).unwrap())
                    })
                })
                .collect();
            let kept: Vec<_> = threads.into_iter().map(|h| h.join().unwrap()).collect();
            let t = m.trace();
            for (d, p) in procs.iter().enumerate() {
                let o = t.find(&format!("scale p{d}")).unwrap();
                assert_eq!(
                    (o.start, o.end),
                    own_thread_span(),
                    "{dialect:?} process {d}"
                );
                assert_eq!((o.stream.process, o.stream.device), (p.id(), d as u32));
            }
            // Process 1 cannot use process 0's stream or memory.
            let (s0, buf0) = kept[0];
            let p1 = &procs[1];
            p1.set_device(0).unwrap();
            assert_eq!(
                p1.stream_query(s0),
                Err(SimError::InvalidHandle {
                    kind: streamsim::ObjectKind::Stream,
                    raw: s0.to_raw(),
                    problem: streamsim::HandleProblem::Foreign {
                        owner: procs[0].id()
                    },
                })
            );
            assert_eq!(
                p1.memcpy(buf0, &[0u8; 16], 16),
                Err(SimError::InvalidAddress {
                    what: "memcpy",
                    addr: buf0.addr(),
                    space: AddressSpace::Device(0),
                    problem: "owned by another process",
                })
            );
        }
    });
}

/// Model 4 — the Ascend multi-device guide · 多个主机进程，每个进程包含多个线程，每个线程驱动自己的NPU: two processes with two host
/// threads each, each thread driving its own device (so both processes use both devices, each with its own
/// contexts and reference counts in ACL).
#[test]
fn processes_with_several_threads_each_driving_its_own_device() {
    with_watchdog(60, || {
        for dialect in DIALECTS {
            let m: Machine = machine(dialect, 2);
            let procs = [m.process(), m.process()];
            let threads: Vec<_> = (0..2)
                .flat_map(|k| (0..2u32).map(move |d| (k, d)))
                .map(|(k, d)| {
                    let p = procs[k].clone();
                    std::thread::spawn(move || {
                        drive(&p, d, 10 * k + d as usize, format!("scale p{k} d{d}"))
                    })
                })
                .collect();
            for h in threads {
                h.join().unwrap();
            }
            let t = m.trace();
            for (k, p) in procs.iter().enumerate() {
                for d in 0..2u32 {
                    let o = t.find(&format!("scale p{k} d{d}")).unwrap();
                    assert_eq!((o.start, o.end), own_thread_span(), "{dialect:?} p{k} d{d}");
                    assert_eq!((o.stream.process, o.stream.device), (p.id(), d));
                }
            }
            assert_eq!(m.memory_used(0), Ok(0));
            assert_eq!(m.memory_used(1), Ok(0));
        }
    });
}
