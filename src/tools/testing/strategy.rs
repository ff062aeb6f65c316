//! The strategy for random [`Program`]s ([`program`]): raw steps, mapped into range so that every program and
//! every shrunk one is valid.

use proptest::prelude::*;

use super::{
    BUFFERS_PER_DEVICE, BufRef, EVENTS_PER_DEVICE, EventRef, PINNED_BUFFERS, POOL_SLOTS, PinnedRef,
    PoolRef, Program, Step, StreamRef, StreamSpec,
};

/// Bounds for [`program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most devices (at least 1).
    pub max_devices: u32,
    /// Most created streams (at least 1).
    pub max_streams: usize,
    /// Most steps.
    pub max_steps: usize,
    /// Longest kernel, in nanoseconds.
    pub max_kernel_ns: u64,
}

impl Default for Limits {
    /// 2 devices, 4 streams, 24 steps, 30 µs kernels.
    fn default() -> Self {
        Limits {
            max_devices: 2,
            max_streams: 4,
            max_steps: 24,
            max_kernel_ns: 30_000,
        }
    }
}

/// A step with raw indices (reduced modulo the program's counts by [`normalize`]).
#[derive(Debug, Clone)]
enum Raw {
    Launch(RawStream, u64, Vec<u8>, Vec<u8>),
    Memset(RawStream, u8),
    CopyD2D(RawStream, u8, u8),
    CopyH2D(RawStream, u8, u8),
    CopyD2H(RawStream, u8, u8),
    CopyD2HSync(u8, u8),
    CopyFromPageable(RawStream, u8),
    CopyToPageable(RawStream, u8),
    Record(u8, RawStream),
    Wait(RawStream, u8),
    StreamSync(RawStream),
    EventSync(u8),
    DeviceSync(u8),
    StreamQuery(RawStream),
    EventQuery(u8),
    Spin(u8),
    HostRead(u8),
    HostWrite(u8),
    Replace(u8),
    /// Allocates an empty slot, frees a live one; `true`: on the stream of the latest free (an allocation) or
    /// the slot's allocating stream (a free) instead.
    Pool(u8, RawStream, bool),
    /// Uses a slot (allocates it if it never was); the last `true`: on the slot's allocating stream.
    LaunchPooled(RawStream, u64, u8, bool, bool),
}

/// A stream with a raw index: legacy or created.
#[derive(Debug, Clone, Copy)]
struct RawStream {
    legacy: bool,
    index: u8,
}

fn raw_stream() -> impl Strategy<Value = RawStream> {
    (prop::bool::weighted(0.15), any::<u8>())
        .prop_map(|(legacy, index)| RawStream { legacy, index })
}

fn raw_step(max_kernel_ns: u64) -> impl Strategy<Value = Raw> {
    let byte = any::<u8>;
    let accesses = || prop::collection::vec(any::<u8>(), 0..=2);
    prop_oneof![
        8 => (raw_stream(), 0..=max_kernel_ns, accesses(), accesses())
            .prop_map(|(s, d, r, w)| Raw::Launch(s, d, r, w)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::Memset(s, b)),
        1 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyD2D(s, a, b)),
        2 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyH2D(s, a, b)),
        2 => (raw_stream(), byte(), byte()).prop_map(|(s, a, b)| Raw::CopyD2H(s, a, b)),
        1 => (byte(), byte()).prop_map(|(a, b)| Raw::CopyD2HSync(a, b)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::CopyFromPageable(s, b)),
        1 => (raw_stream(), byte()).prop_map(|(s, b)| Raw::CopyToPageable(s, b)),
        4 => (byte(), raw_stream()).prop_map(|(e, s)| Raw::Record(e, s)),
        4 => (raw_stream(), byte()).prop_map(|(s, e)| Raw::Wait(s, e)),
        1 => raw_stream().prop_map(Raw::StreamSync),
        1 => byte().prop_map(Raw::EventSync),
        1 => byte().prop_map(Raw::DeviceSync),
        1 => raw_stream().prop_map(Raw::StreamQuery),
        1 => byte().prop_map(Raw::EventQuery),
        1 => byte().prop_map(Raw::Spin),
        2 => byte().prop_map(Raw::HostRead),
        1 => byte().prop_map(Raw::HostWrite),
        1 => byte().prop_map(Raw::Replace),
        8 => (byte(), raw_stream(), any::<bool>()).prop_map(|(b, s, h)| Raw::Pool(b, s, h)),
        6 => (raw_stream(), 0..=max_kernel_ns, byte(), any::<bool>(), any::<bool>())
            .prop_map(|(s, d, b, w, h)| Raw::LaunchPooled(s, d, b, w, h)),
    ]
}

/// Maps raw indices into range (so every shrunk program is still valid).
fn normalize(devices: u32, streams: Vec<(u8, bool)>, raw: Vec<Raw>) -> Program {
    let streams: Vec<StreamSpec> = streams
        .into_iter()
        .map(|(d, non_blocking)| StreamSpec {
            device: u32::from(d) % devices,
            non_blocking,
        })
        .collect();
    let ns = streams.len() as u32;
    let stream = |r: RawStream| {
        if r.legacy {
            StreamRef::Legacy(u32::from(r.index) % devices)
        } else {
            StreamRef::Created(u32::from(r.index) % ns)
        }
    };
    let device_of = |s: StreamRef| match s {
        StreamRef::Created(n) => streams[n as usize].device,
        StreamRef::Legacy(d) => d,
    };
    let n_buf = devices * BUFFERS_PER_DEVICE;
    let buf_any = |b: u8| {
        let b = u32::from(b) % n_buf;
        BufRef {
            device: b / BUFFERS_PER_DEVICE,
            slot: b % BUFFERS_PER_DEVICE,
        }
    };
    let buf_on = |d: u32, b: u8| BufRef {
        device: d,
        slot: u32::from(b) % BUFFERS_PER_DEVICE,
    };
    let event_any = |e: u8| {
        let e = u32::from(e) % (devices * EVENTS_PER_DEVICE);
        EventRef {
            device: e / EVENTS_PER_DEVICE,
            slot: e % EVENTS_PER_DEVICE,
        }
    };
    let pin = |h: u8| PinnedRef(u32::from(h) % PINNED_BUFFERS);
    // Each slot's state in program order: live, and the stream of its latest allocation; the latest free's
    // stream.
    let mut live = [false; POOL_SLOTS as usize];
    let mut home: [Option<StreamRef>; POOL_SLOTS as usize] = [None; POOL_SLOTS as usize];
    let mut last_free: Option<StreamRef> = None;
    let steps = raw
        .into_iter()
        .map(|r| match r {
            Raw::Pool(b, s, at_home) => {
                let slot = u32::from(b) % POOL_SLOTS;
                let i = slot as usize;
                if live[i] {
                    live[i] = false;
                    let stream = match home[i] {
                        Some(h) if at_home => h,
                        _ => stream(s),
                    };
                    last_free = Some(stream);
                    Step::FreeAsync {
                        slot: PoolRef(slot),
                        stream,
                    }
                } else {
                    let stream = match last_free {
                        Some(f) if at_home => f,
                        _ => stream(s),
                    };
                    live[i] = true;
                    home[i] = Some(stream);
                    Step::MallocAsync {
                        slot: PoolRef(slot),
                        stream,
                    }
                }
            }
            Raw::LaunchPooled(s, d, b, write, at_home) => {
                let slot = u32::from(b) % POOL_SLOTS;
                let (st, i) = (stream(s), slot as usize);
                match home[i] {
                    None => {
                        live[i] = true;
                        home[i] = Some(st);
                        Step::MallocAsync {
                            slot: PoolRef(slot),
                            stream: st,
                        }
                    }
                    Some(h) => {
                        let dev = device_of(h);
                        Step::LaunchPooled {
                            stream: if at_home {
                                h
                            } else if device_of(st) == dev {
                                st
                            } else {
                                StreamRef::Legacy(dev)
                            },
                            duration_ns: d,
                            slot: PoolRef(slot),
                            write,
                        }
                    }
                }
            }
            Raw::Launch(s, d, reads, writes) => {
                let s = stream(s);
                let dev = device_of(s);
                Step::Launch {
                    stream: s,
                    duration_ns: d,
                    reads: reads.into_iter().map(|b| buf_on(dev, b)).collect(),
                    writes: writes.into_iter().map(|b| buf_on(dev, b)).collect(),
                }
            }
            Raw::Memset(s, b) => {
                let s = stream(s);
                Step::Memset {
                    stream: s,
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyD2D(s, a, b) => Step::CopyDeviceToDevice {
                stream: stream(s),
                src: buf_any(a),
                dst: buf_any(b),
            },
            Raw::CopyH2D(s, h, b) => {
                let s = stream(s);
                Step::CopyToDevice {
                    stream: s,
                    src: pin(h),
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyD2H(s, b, h) => {
                let s = stream(s);
                Step::CopyToHost {
                    stream: s,
                    src: buf_on(device_of(s), b),
                    dst: pin(h),
                }
            }
            Raw::CopyD2HSync(b, h) => Step::CopyToHostSync {
                src: buf_any(b),
                dst: pin(h),
            },
            Raw::CopyFromPageable(s, b) => {
                let s = stream(s);
                Step::CopyFromPageable {
                    stream: s,
                    dst: buf_on(device_of(s), b),
                }
            }
            Raw::CopyToPageable(s, b) => {
                let s = stream(s);
                Step::CopyToPageable {
                    stream: s,
                    src: buf_on(device_of(s), b),
                }
            }
            Raw::Record(e, s) => {
                let s = stream(s);
                Step::Record {
                    event: EventRef {
                        device: device_of(s),
                        slot: u32::from(e) % EVENTS_PER_DEVICE,
                    },
                    stream: s,
                }
            }
            Raw::Wait(s, e) => Step::Wait {
                stream: stream(s),
                event: event_any(e),
            },
            Raw::StreamSync(s) => Step::StreamSynchronize(stream(s)),
            Raw::EventSync(e) => Step::EventSynchronize(event_any(e)),
            Raw::DeviceSync(d) => Step::DeviceSynchronize(u32::from(d) % devices),
            Raw::StreamQuery(s) => Step::StreamQuery(stream(s)),
            Raw::EventQuery(e) => Step::EventQuery(event_any(e)),
            Raw::Spin(e) => Step::SpinOnEvent(event_any(e)),
            Raw::HostRead(h) => Step::HostRead(pin(h)),
            Raw::HostWrite(h) => Step::HostWrite(pin(h)),
            Raw::Replace(n) => Step::ReplaceStream(u32::from(n) % ns),
        })
        .collect();
    Program {
        devices,
        streams,
        steps,
    }
}

/// A strategy for valid [`Program`]s within `limits`. Shrinking removes steps, streams and devices, shortens
/// kernels and moves references towards the first stream, buffer and event.
pub fn program(limits: Limits) -> impl Strategy<Value = Program> {
    let max_devices = limits.max_devices.max(1);
    let max_streams = limits.max_streams.max(1);
    (
        1..=max_devices,
        prop::collection::vec((any::<u8>(), any::<bool>()), 1..=max_streams),
        prop::collection::vec(raw_step(limits.max_kernel_ns), 0..=limits.max_steps),
    )
        .prop_map(|(devices, streams, raw)| normalize(devices, streams, raw))
}
