//! Running a [`WorldProgram`]: one OS thread per host thread, a token handed from call to call.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::{IPC_SLOT, WEvent, WORLD_EVENTS_PER_DEVICE, WOp, WStream, WorldProgram};
use crate::testing::{BUFFER_BYTES, BUFFERS_PER_DEVICE};
use crate::{
    DevicePtr, Event, EventFlags, IpcEventHandle, Kernel, Machine, Process, Result, SimError,
    Status, Stream, StreamFlags, VirtualTime,
};

/// What one step answered: `Ok(Some(status))` for a query, `Ok(None)` for any other call that worked.
pub type WResult = std::result::Result<Option<Status>, SimError>;

/// What the host threads observed in a run of a [`WorldProgram`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldOutcome {
    /// Every step's answer, in program order.
    pub results: Vec<WResult>,
    /// The steps whose kernel body ran, in step order.
    pub kernels_ran: Vec<usize>,
    /// For each process, the answer of its final `device_synchronize` of each device.
    pub finals: Vec<Vec<WResult>>,
    /// For each process and host thread, the thread's virtual clock at the end.
    pub clocks: Vec<Vec<VirtualTime>>,
}

/// What a host thread does at one turn.
#[derive(Debug, Clone, Copy)]
enum Action {
    /// A process's set-up, on its thread 0: peers, streams, events, buffers (see [`WorldProgram::run`]).
    Setup,
    /// Exports the IPC handle of the process's interprocess event of `device`.
    IpcGet(u32),
    /// Opens process `owner`'s IPC handle of `device`.
    IpcOpen { owner: u32, device: u32 },
    /// Step `n`.
    Step(usize),
    /// A `device_synchronize` of every device.
    Final,
}

/// One process's handles (shared by its threads).
#[derive(Default)]
struct Handles {
    streams: Vec<Stream>,
    events: Vec<Vec<Event>>,
    buffers: Vec<Vec<DevicePtr>>,
}

#[derive(Default)]
struct Shared {
    handles: Vec<Handles>,
    exported: BTreeMap<(u32, u32), IpcEventHandle>,
    /// (importer, owner, device) → the importer's event.
    imported: BTreeMap<(u32, u32, u32), Event>,
    results: BTreeMap<usize, WResult>,
    finals: BTreeMap<u32, Vec<WResult>>,
    clocks: BTreeMap<(u32, u32), VirtualTime>,
    setup_error: Option<SimError>,
}

/// The token: which turn may run.
struct Turn {
    next: Mutex<usize>,
    cv: Condvar,
}

impl WorldProgram {
    /// The order of every host thread's turns: each process's set-up; then, for each importing process and
    /// each other process and device, the export (by the owner) and the open (by the importer); the steps;
    /// each process's final synchronizes. (process, thread, action).
    fn turns(&self) -> Vec<(u32, u32, Action)> {
        let np = self.processes.len() as u32;
        let mut out: Vec<(u32, u32, Action)> = (0..np).map(|p| (p, 0, Action::Setup)).collect();
        for q in 0..np {
            for owner in (0..np).filter(|&o| o != q) {
                for device in 0..self.devices {
                    out.push((owner, 0, Action::IpcGet(device)));
                    out.push((q, 0, Action::IpcOpen { owner, device }));
                }
            }
        }
        out.extend(
            self.steps
                .iter()
                .enumerate()
                .map(|(i, s)| (s.process, s.thread, Action::Step(i))),
        );
        out.extend((0..np).map(|p| (p, 0, Action::Final)));
        out
    }

    /// Runs the program on `m` (CUDA dialect, at least [`WorldProgram::devices`] devices), making one
    /// simulated process per [`WorldProgram::processes`] entry and one OS thread per host thread; the calls
    /// are made in this order, each thread waiting for its turn:
    ///
    /// 1. each process's set-up on its thread 0: for each `(device, peer)` of [`super::WProcess::peers`],
    ///    `enable_peer_access`; the created streams; [`WORLD_EVENTS_PER_DEVICE`] events per device (slot
    ///    [`IPC_SLOT`] with `INTERPROCESS | DISABLE_TIMING`); [`BUFFERS_PER_DEVICE`] buffers per device;
    /// 2. for each process `q` and each other process and device, the owner's `ipc_get_event_handle` of its
    ///    interprocess event and `q`'s `ipc_open_event_handle` (both on thread 0; the device is not changed);
    /// 3. the steps;
    /// 4. each process's `device_synchronize` of every device, on its thread 0;
    /// 5. [`Machine::drain`] (not a runtime call), so that every dispatched operation has run and is in
    ///    `m.trace()` even where a sticky fault made the final synchronizes fail at once.
    ///
    /// Before a call that names a stream or a device, its device is made current with `set_device` if it is
    /// not (each thread starts on device 0 and keeps its own current device); those calls count on the
    /// thread's clock. A set-up call that fails is returned as the error; a step's failure is its answer.
    pub fn run(&self, m: &Machine) -> Result<WorldOutcome> {
        let procs: Vec<Process> = self.processes.iter().map(|_| m.process()).collect();
        let turns = self.turns();
        let shared = Mutex::new(Shared {
            handles: self.processes.iter().map(|_| Handles::default()).collect(),
            ..Shared::default()
        });
        let turn = Turn {
            next: Mutex::new(0),
            cv: Condvar::new(),
        };
        let ran = Arc::new(Mutex::new(Vec::new()));
        let total = turns.len();
        std::thread::scope(|scope| {
            for (p, spec) in self.processes.iter().enumerate() {
                for t in 0..spec.threads {
                    let mine: Vec<(usize, Action)> = turns
                        .iter()
                        .enumerate()
                        .filter(|(_, (tp, tt, _))| *tp == p as u32 && *tt == t)
                        .map(|(i, (_, _, a))| (i, *a))
                        .collect();
                    let (proc_, shared, turn, ran) = (&procs[p], &shared, &turn, ran.clone());
                    scope.spawn(move || {
                        let mut th = Thread {
                            prog: self,
                            p: proc_,
                            me: p as u32,
                            current: 0,
                            shared,
                            ran,
                        };
                        for (i, a) in mine {
                            {
                                let mut g = turn.next.lock().expect("turn");
                                while *g != i {
                                    g = turn.cv.wait(g).expect("turn");
                                }
                            }
                            th.act(a);
                            *turn.next.lock().expect("turn") += 1;
                            turn.cv.notify_all();
                        }
                        // Read the clock once every call has been made (a thread's first touch of the
                        // process gives it its ordinal: never before its turn).
                        {
                            let mut g = turn.next.lock().expect("turn");
                            while *g != total {
                                g = turn.cv.wait(g).expect("turn");
                            }
                        }
                        let now = proc_.now();
                        shared
                            .lock()
                            .expect("shared")
                            .clocks
                            .insert((p as u32, t), now);
                    });
                }
            }
        });
        // After a sticky fault the final synchronizes fail without waiting: wait until everything dispatched
        // has run (not a runtime call), so that which kernel bodies ran is complete, and so is `m.trace()`.
        m.drain();
        let mut sh = shared.into_inner().expect("shared");
        if let Some(e) = sh.setup_error.take() {
            return Err(e);
        }
        let mut kernels_ran = ran.lock().expect("ran").clone();
        kernels_ran.sort_unstable();
        Ok(WorldOutcome {
            results: (0..self.steps.len())
                .map(|i| sh.results.remove(&i).expect("every step ran"))
                .collect(),
            kernels_ran,
            finals: (0..self.processes.len() as u32)
                .map(|p| sh.finals.remove(&p).unwrap_or_default())
                .collect(),
            clocks: self
                .processes
                .iter()
                .enumerate()
                .map(|(p, s)| (0..s.threads).map(|t| sh.clocks[&(p as u32, t)]).collect())
                .collect(),
        })
    }
}

/// One host thread of a run.
struct Thread<'a> {
    prog: &'a WorldProgram,
    p: &'a Process,
    me: u32,
    current: u32,
    shared: &'a Mutex<Shared>,
    ran: Arc<Mutex<Vec<usize>>>,
}

impl Thread<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().expect("shared")
    }

    fn device(&mut self, d: u32) -> Result<()> {
        if self.current != d {
            self.p.set_device(i64::from(d))?;
            self.current = d;
        }
        Ok(())
    }

    fn act(&mut self, a: Action) {
        let me = self.me;
        match a {
            Action::Setup => {
                if let Err(e) = self.setup() {
                    self.lock().setup_error.get_or_insert(e);
                }
            }
            Action::IpcGet(device) => {
                let e = self.lock().handles[me as usize].events[device as usize][IPC_SLOT as usize];
                match self.p.ipc_get_event_handle(e) {
                    Ok(h) => {
                        self.lock().exported.insert((me, device), h);
                    }
                    Err(e) => {
                        self.lock().setup_error.get_or_insert(e);
                    }
                }
            }
            Action::IpcOpen { owner, device } => {
                let Some(h) = self.lock().exported.get(&(owner, device)).copied() else {
                    return;
                };
                match self.p.ipc_open_event_handle(&h) {
                    Ok(e) => {
                        self.lock().imported.insert((me, owner, device), e);
                    }
                    Err(e) => {
                        self.lock().setup_error.get_or_insert(e);
                    }
                }
            }
            Action::Step(i) => {
                let r = self.step(i);
                self.lock().results.insert(i, r);
            }
            Action::Final => {
                let finals = (0..self.prog.devices)
                    .map(|d| {
                        self.device(d)?;
                        self.p.device_synchronize().map(|()| None)
                    })
                    .collect();
                self.lock().finals.insert(me, finals);
            }
        }
    }

    fn setup(&mut self) -> Result<()> {
        let spec = &self.prog.processes[self.me as usize];
        let p = self.p;
        for &(d, peer) in &spec.peers {
            self.device(d)?;
            p.enable_peer_access(i64::from(peer), 0)?;
        }
        let mut h = Handles::default();
        for s in &spec.streams {
            self.device(s.device)?;
            let flags = if s.non_blocking {
                StreamFlags::NON_BLOCKING
            } else {
                StreamFlags::DEFAULT
            };
            h.streams.push(p.create_stream(flags)?);
        }
        for d in 0..self.prog.devices {
            self.device(d)?;
            let events = (0..WORLD_EVENTS_PER_DEVICE)
                .map(|slot| {
                    p.create_event(if slot == IPC_SLOT {
                        EventFlags::INTERPROCESS | EventFlags::DISABLE_TIMING
                    } else {
                        EventFlags::DEFAULT
                    })
                })
                .collect::<Result<_>>()?;
            h.events.push(events);
        }
        for d in 0..self.prog.devices {
            self.device(d)?;
            let buffers = (0..BUFFERS_PER_DEVICE)
                .map(|_| p.malloc(BUFFER_BYTES))
                .collect::<Result<_>>()?;
            h.buffers.push(buffers);
        }
        self.lock().handles[self.me as usize] = h;
        Ok(())
    }

    fn stream(&mut self, s: WStream) -> Result<Stream> {
        self.device(self.prog.device_of(self.me, s))?;
        Ok(match s {
            WStream::Created(n) => self.lock().handles[self.me as usize].streams[n as usize],
            WStream::Legacy(_) => Stream::LEGACY,
            WStream::PerThread(_) => Stream::PER_THREAD,
        })
    }

    fn event(&self, e: WEvent) -> Event {
        let sh = self.lock();
        if e.owner == self.me {
            sh.handles[self.me as usize].events[e.device as usize][e.slot as usize]
        } else {
            sh.imported[&(self.me, e.owner, e.device)]
        }
    }

    fn buf(&self, b: super::WBuf) -> DevicePtr {
        self.lock().handles[self.me as usize].buffers[b.device as usize][b.slot as usize]
    }

    fn step(&mut self, i: usize) -> WResult {
        let p = self.p;
        let n = BUFFER_BYTES;
        let done = |r: Result<()>| r.map(|()| None);
        match &self.prog.steps[i].op {
            WOp::Launch {
                stream,
                duration_ns,
                reads,
                writes,
                fault,
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
                let (ran, fault) = (self.ran.clone(), *fault);
                let k = k.body(move |_| {
                    ran.lock().expect("ran").push(i);
                    if fault { Err("boom".into()) } else { Ok(()) }
                });
                done(p.launch(s, k))
            }
            WOp::Copy { stream, src, dst } => {
                let s = self.stream(*stream)?;
                done(p.memcpy_async(self.buf(*dst), self.buf(*src), n, s))
            }
            WOp::Record { slot, stream } => {
                let s = self.stream(*stream)?;
                let e = WEvent {
                    owner: self.me,
                    device: self.prog.device_of(self.me, *stream),
                    slot: *slot,
                };
                done(p.record_event(self.event(e), s))
            }
            WOp::Wait { stream, event } => {
                let s = self.stream(*stream)?;
                done(p.stream_wait_event(s, self.event(*event)))
            }
            WOp::StreamSynchronize(s) => {
                let s = self.stream(*s)?;
                done(p.stream_synchronize(s))
            }
            WOp::EventSynchronize(e) => done(p.event_synchronize(self.event(*e))),
            WOp::DeviceSynchronize(d) => {
                self.device(*d)?;
                done(p.device_synchronize())
            }
            WOp::StreamQuery(s) => {
                let s = self.stream(*s)?;
                p.stream_query(s).map(Some)
            }
            WOp::EventQuery(e) => p.event_query(self.event(*e)).map(Some),
            WOp::EnablePeer { device, peer } => {
                self.device(*device)?;
                done(p.enable_peer_access(i64::from(*peer), 0))
            }
            WOp::DisablePeer { device, peer } => {
                self.device(*device)?;
                done(p.disable_peer_access(i64::from(*peer)))
            }
        }
    }
}
