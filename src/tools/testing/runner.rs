//! Running a [`Program`] on a process: the set-up, the steps, the final synchronizes ([`Program::run`]).

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{
    Answer, BUFFER_BYTES, BUFFERS_PER_DEVICE, BufRef, EVENTS_PER_DEVICE, EventRef, Executed,
    MAX_POLLS, Outcome, PINNED_BUFFERS, POOL_SLOTS, PoolRef, Program, Step, StreamRef,
};
use crate::{
    DevicePtr, Event, EventFlags, HostPtr, Kernel, Process, Result, Status, Stream, StreamFlags,
};

/// A program being run.
pub(super) struct Runner<'a> {
    prog: &'a Program,
    p: &'a Process,
    current: u32,
    streams: Vec<Stream>,
    events: Vec<Vec<Event>>,
    buffers: Vec<Vec<DevicePtr>>,
    pinned: Vec<HostPtr>,
    /// Each slot's latest pointer.
    pooled: Vec<Option<DevicePtr>>,
    allocations: Vec<(usize, u64)>,
    log: Arc<Mutex<Vec<Executed>>>,
    answers: Vec<Answer>,
}

impl<'a> Runner<'a> {
    pub(super) fn new(prog: &'a Program, p: &'a Process) -> Result<Runner<'a>> {
        let mut r = Runner {
            prog,
            p,
            current: p.current_device().unwrap_or(0),
            streams: Vec::new(),
            events: Vec::new(),
            buffers: Vec::new(),
            pinned: Vec::new(),
            pooled: vec![None; POOL_SLOTS as usize],
            allocations: Vec::new(),
            log: Arc::new(Mutex::new(Vec::new())),
            answers: Vec::new(),
        };
        for s in &prog.streams {
            r.device(s.device)?;
            let flags = if s.non_blocking {
                StreamFlags::NON_BLOCKING
            } else {
                StreamFlags::DEFAULT
            };
            r.streams.push(p.create_stream(flags)?);
        }
        for d in 0..prog.devices {
            r.device(d)?;
            let events = (0..EVENTS_PER_DEVICE)
                .map(|_| p.create_event(EventFlags::DEFAULT))
                .collect::<Result<_>>()?;
            r.events.push(events);
        }
        for d in 0..prog.devices {
            r.device(d)?;
            let buffers = (0..BUFFERS_PER_DEVICE)
                .map(|_| p.malloc(BUFFER_BYTES))
                .collect::<Result<_>>()?;
            r.buffers.push(buffers);
        }
        r.pinned = (0..PINNED_BUFFERS)
            .map(|_| p.malloc_host(BUFFER_BYTES))
            .collect::<Result<_>>()?;
        if prog.uses_pools() {
            for d in 0..prog.devices {
                let pool = p.default_pool(i64::from(d))?;
                p.set_pool_attribute(pool, crate::PoolAttr::ReleaseThreshold, u64::MAX)?;
            }
        }
        Ok(r)
    }

    pub(super) fn run(mut self) -> Result<Outcome> {
        for (i, step) in self.prog.steps.iter().enumerate() {
            self.step(i, step)?;
            self.log.lock().expect("log").push(Executed::Host(i));
        }
        for d in 0..self.prog.devices {
            self.device(d)?;
            self.p.device_synchronize()?;
        }
        let executed = self.log.lock().expect("log").clone();
        Ok(Outcome {
            answers: self.answers,
            executed,
            end: self.p.now(),
            allocations: self.allocations,
        })
    }

    /// Makes `d` current if it is not.
    fn device(&mut self, d: u32) -> Result<()> {
        if self.current != d {
            self.p.set_device(i64::from(d))?;
            self.current = d;
        }
        Ok(())
    }

    /// Resolves a stream, making its device current.
    fn stream(&mut self, s: StreamRef) -> Result<Stream> {
        self.device(self.prog.device_of(s))?;
        Ok(match s {
            StreamRef::Created(n) => self.streams[n as usize],
            StreamRef::Legacy(_) => Stream::DEFAULT,
        })
    }

    fn buf(&self, b: BufRef) -> DevicePtr {
        self.buffers[b.device as usize][b.slot as usize]
    }

    /// A slot's latest pointer (the strategy only names slots allocated before).
    fn pool_ptr(&self, slot: PoolRef) -> DevicePtr {
        self.pooled[slot.0 as usize].expect("a program uses a slot only after allocating it")
    }

    fn event(&self, e: EventRef) -> Event {
        self.events[e.device as usize][e.slot as usize]
    }

    fn step(&mut self, i: usize, step: &Step) -> Result<()> {
        let p = self.p;
        let n = BUFFER_BYTES;
        match step {
            Step::Launch {
                stream,
                duration_ns,
                reads,
                writes,
            } => {
                let s = self.stream(*stream)?;
                let mut k = Kernel::new(Cow::Owned(format!("k{i}")))
                    .duration(Duration::from_nanos(*duration_ns));
                for &b in reads {
                    k = k.reads(self.buf(b), n);
                }
                for &b in writes {
                    k = k.writes(self.buf(b), n);
                }
                let log = self.log.clone();
                let k = k.body(move |_| {
                    log.lock().expect("log").push(Executed::Kernel(i));
                    Ok(())
                });
                p.launch(s, k)
            }
            Step::Memset { stream, dst } => {
                let s = self.stream(*stream)?;
                p.memset_async(self.buf(*dst), i as u8, n, s)
            }
            Step::CopyDeviceToDevice { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), self.buf(*src), n, s)
            }
            Step::CopyToDevice { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), self.pinned[src.0 as usize], n, s)
            }
            Step::CopyToHost { stream, src, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.pinned[dst.0 as usize], self.buf(*src), n, s)
            }
            Step::CopyFromPageable { stream, dst } => {
                let s = self.stream(*stream)?;
                p.memcpy_async(self.buf(*dst), &vec![i as u8; n as usize], n, s)
            }
            Step::CopyToPageable { stream, src } => {
                let s = self.stream(*stream)?;
                let mut out = vec![0u8; n as usize];
                p.memcpy_async(&mut out, self.buf(*src), n, s)
            }
            Step::CopyToHostSync { src, dst } => {
                self.device(src.device)?;
                p.memcpy(self.pinned[dst.0 as usize], self.buf(*src), n)
            }
            Step::Record { event, stream } => {
                let s = self.stream(*stream)?;
                p.record_event(self.event(*event), s)
            }
            Step::Wait { stream, event } => {
                let s = self.stream(*stream)?;
                p.stream_wait_event(s, self.event(*event))
            }
            Step::StreamSynchronize(s) => {
                let s = self.stream(*s)?;
                p.stream_synchronize(s)
            }
            Step::EventSynchronize(e) => p.event_synchronize(self.event(*e)),
            Step::DeviceSynchronize(d) => {
                self.device(*d)?;
                p.device_synchronize()
            }
            Step::StreamQuery(s) => {
                let s = self.stream(*s)?;
                let status = p.stream_query(s)?;
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls: 1,
                });
                Ok(())
            }
            Step::EventQuery(e) => {
                let status = p.event_query(self.event(*e))?;
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls: 1,
                });
                Ok(())
            }
            Step::SpinOnEvent(e) => {
                let e = self.event(*e);
                let mut polls = 0;
                let status = loop {
                    polls += 1;
                    let s = p.event_query(e)?;
                    if s == Status::Complete || polls == MAX_POLLS {
                        break s;
                    }
                };
                self.answers.push(Answer {
                    step: i,
                    status,
                    polls,
                });
                Ok(())
            }
            Step::HostRead(h) => {
                let mut out = vec![0u8; n as usize];
                p.host_read(self.pinned[h.0 as usize], &mut out)
            }
            Step::HostWrite(h) => {
                p.host_write(self.pinned[h.0 as usize], &[i as u8; BUFFER_BYTES as usize])
            }
            Step::ReplaceStream(n) => {
                let old = self.stream(StreamRef::Created(*n))?;
                p.destroy_stream(old)?;
                let flags = if self.prog.streams[*n as usize].non_blocking {
                    StreamFlags::NON_BLOCKING
                } else {
                    StreamFlags::DEFAULT
                };
                self.streams[*n as usize] = p.create_stream(flags)?;
                Ok(())
            }
            Step::MallocAsync { slot, stream } => {
                let s = self.stream(*stream)?;
                let ptr = p.malloc_async(n, s)?;
                self.pooled[slot.0 as usize] = Some(ptr);
                self.allocations.push((i, ptr.addr()));
                Ok(())
            }
            Step::FreeAsync { slot, stream } => {
                let s = self.stream(*stream)?;
                p.free_async(self.pool_ptr(*slot), s)
            }
            Step::LaunchPooled {
                stream,
                duration_ns,
                slot,
                write,
            } => {
                let s = self.stream(*stream)?;
                let ptr = self.pool_ptr(*slot);
                let mut k = Kernel::new(Cow::Owned(format!("k{i}")))
                    .duration(Duration::from_nanos(*duration_ns));
                k = if *write {
                    k.writes(ptr, n)
                } else {
                    k.reads(ptr, n)
                };
                let log = self.log.clone();
                let k = k.body(move |_| {
                    log.lock().expect("log").push(Executed::Kernel(i));
                    Ok(())
                });
                p.launch(s, k)
            }
        }
    }
}
