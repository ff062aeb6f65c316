//! Random sequences of capture, graph and stream-ordered-memory calls (CUDA and MUSA) on good, destroyed,
//! forged and legacy handles: every call returns one of the codes the Runtime API documents for it (never
//! `cudaErrorUnknown`, the code a contained panic would give), nothing hangs, `cudaStreamIsCapturing` and
//! `cudaStreamGetCaptureInfo` always agree, a capture is only ever left by `cudaStreamEndCapture`, and once
//! every capture is ended the process works as if nothing had happened (a capture error is not sticky).
//! `docs/semantics/capture-and-graphs.md` · bad handles and states.

use std::ffi::{c_int, c_uint};
use std::ptr::null_mut;

use proptest::prelude::*;
use streamsim::cuda::{
    cudaErrorCapturedEvent, cudaErrorIllegalState, cudaErrorInvalidResourceHandle,
    cudaErrorInvalidValue, cudaErrorNotReady, cudaErrorNotSupported,
    cudaErrorStreamCaptureImplicit, cudaErrorStreamCaptureInvalidated,
    cudaErrorStreamCaptureIsolation, cudaErrorStreamCaptureMerge, cudaErrorStreamCaptureUnjoined,
    cudaErrorStreamCaptureUnmatched, cudaErrorStreamCaptureUnsupported,
    cudaErrorStreamCaptureWrongThread, cudaErrorUnknown, cudaStreamCaptureStatusActive,
    cudaStreamCaptureStatusInvalidated, cudaStreamCaptureStatusNone, cudaSuccess,
};
use streamsim::{Machine, cuda, musa};

use super::fam::{CUDA, Err, FAMILIES, Fam, H, MUSA, check};
use crate::common::with_watchdog;

/// The stream slots: the legacy NULL stream, three blocking streams, a non-blocking one, a destroyed one and a
/// forged handle.
const STREAMS: usize = 7;
/// Event slots: three events and a destroyed one.
const EVENTS: usize = 4;
/// Graph and executable-graph slots (each also has a NULL and a forged handle beyond the made ones).
const GRAPHS: usize = 3;

#[derive(Debug, Clone)]
enum Call {
    Begin(usize, c_int),
    End(usize, usize),
    Kernel(usize),
    Record(usize, usize),
    Wait(usize, usize),
    Status(usize),
    Sync(usize),
    Query(usize),
    DeviceSync,
    EventQuery(usize),
    EventSync(usize),
    Malloc,
    MallocAsync(usize),
    FreeAsync(usize, usize),
    Instantiate(usize, usize),
    Launch(usize, usize),
    DestroyGraph(usize),
    DestroyExec(usize),
    ExchangeMode(c_int),
}

/// A stream slot, mostly a good one (the legacy stream, the non-blocking one and the bad handles less often).
fn slot() -> impl Strategy<Value = usize> + Clone {
    prop_oneof![2 => Just(0usize), 12 => 1..4usize, 2 => Just(4usize), 1 => 5..STREAMS]
}

fn call() -> impl Strategy<Value = Call> {
    let s = slot();
    let e = prop_oneof![6 => 0..3usize, 1 => Just(3usize)];
    let g = prop_oneof![8 => 0..GRAPHS, 1 => GRAPHS..GRAPHS + 2];
    prop_oneof![
        3 => (s.clone(), 0..4i32).prop_map(|(s, m)| Call::Begin(s, m)),
        3 => (s.clone(), 0..GRAPHS).prop_map(|(s, g)| Call::End(s, g)),
        4 => s.clone().prop_map(Call::Kernel),
        3 => (e.clone(), s.clone()).prop_map(|(e, s)| Call::Record(e, s)),
        3 => (s.clone(), e.clone()).prop_map(|(s, e)| Call::Wait(s, e)),
        2 => s.clone().prop_map(Call::Status),
        1 => s.clone().prop_map(Call::Sync),
        1 => s.clone().prop_map(Call::Query),
        1 => Just(Call::DeviceSync),
        1 => e.clone().prop_map(Call::EventQuery),
        1 => e.prop_map(Call::EventSync),
        1 => Just(Call::Malloc),
        2 => s.clone().prop_map(Call::MallocAsync),
        2 => (0..4usize, s.clone()).prop_map(|(b, s)| Call::FreeAsync(b, s)),
        2 => (g.clone(), 0..GRAPHS).prop_map(|(g, x)| Call::Instantiate(g, x)),
        2 => (g.clone(), s).prop_map(|(x, s)| Call::Launch(x, s)),
        1 => g.clone().prop_map(Call::DestroyGraph),
        1 => g.prop_map(Call::DestroyExec),
        1 => (0..4i32).prop_map(Call::ExchangeMode),
    ]
}

/// A whole capture on one of the good streams: begin, kernels on it (and an allocation, refused as not
/// simulated without breaking the capture), a fork to another stream
/// and its join, end, instantiate and launch; random calls inserted between them by [`calls`] may break it.
fn episode() -> impl Strategy<Value = Vec<Call>> {
    (
        1..4usize,
        1..4usize,
        0..3i32,
        0..GRAPHS,
        1..4usize,
        0..3usize,
    )
        .prop_map(|(s, t, mode, g, k, e)| {
            let mut v = vec![Call::Begin(s, mode)];
            v.extend(std::iter::repeat_n(Call::Kernel(s), k));
            if t != s {
                v.extend([Call::Record(e, s), Call::Wait(t, e), Call::Kernel(t)]);
                v.extend([Call::Record(e, t), Call::Wait(s, e)]);
            }
            v.extend([
                Call::MallocAsync(s),
                Call::End(s, g),
                Call::Instantiate(g, g),
                Call::Launch(g, t),
                Call::Sync(t),
            ]);
            v
        })
}

/// Random calls and whole captures, interleaved.
fn calls() -> impl Strategy<Value = Vec<Call>> {
    proptest::collection::vec(
        prop_oneof![4 => call().prop_map(|c| vec![c]), 1 => episode()],
        1..40,
    )
    .prop_map(|v| v.into_iter().flatten().collect())
}

/// The stream-ordered allocator of a family (not in the capture table).
struct Pools {
    malloc_async: unsafe extern "C" fn(*mut H, usize, H) -> Err,
    free_async: unsafe extern "C" fn(H, H) -> Err,
}

fn pools(f: &Fam) -> Pools {
    if f.name == CUDA.name {
        Pools {
            malloc_async: cuda::cudaMallocAsync,
            free_async: cuda::cudaFreeAsync,
        }
    } else {
        assert_eq!(f.name, MUSA.name);
        Pools {
            malloc_async: musa::musaMallocAsync,
            free_async: musa::musaFreeAsync,
        }
    }
}

/// Every code a capture-era call may return by the Runtime API reference (the capture errors 900–908,
/// `cudaErrorCapturedEvent` for an event recorded in a capture, `cudaErrorIllegalState`, bad values and handles, not-ready answers, and `cudaErrorNotSupported` for what the
/// simulator documents it does not model).
const DOCUMENTED: [Err; 15] = [
    cudaSuccess,
    cudaErrorInvalidValue,
    cudaErrorInvalidResourceHandle,
    cudaErrorIllegalState,
    cudaErrorNotReady,
    cudaErrorNotSupported,
    cudaErrorStreamCaptureUnsupported,
    cudaErrorStreamCaptureInvalidated,
    cudaErrorStreamCaptureMerge,
    cudaErrorStreamCaptureUnmatched,
    cudaErrorStreamCaptureUnjoined,
    cudaErrorStreamCaptureIsolation,
    cudaErrorStreamCaptureImplicit,
    cudaErrorCapturedEvent,
    cudaErrorStreamCaptureWrongThread,
];

struct World {
    f: Fam,
    p: Pools,
    streams: [H; STREAMS],
    events: [H; EVENTS],
    graphs: [H; GRAPHS],
    execs: [H; GRAPHS],
    blocks: Vec<H>,
    /// Graph allocations made by a `cudaMallocAsync` in a capture (graph-memory.md).
    graph_blocks: Vec<H>,
    /// What each stream slot's capture status was at its last look (None, Active, Invalidated).
    seen: [c_uint; STREAMS],
}

const FORGED: H = 0xdead_beef as H;

impl World {
    fn new(f: Fam) -> World {
        let mut streams = [null_mut(); STREAMS];
        for (i, s) in streams.iter_mut().enumerate().skip(1).take(4) {
            *s = f.stream(if i == 4 { 1 } else { 0 });
        }
        let dead = f.stream(0);
        check!(f, cudaSuccess, (f.stream_destroy)(dead));
        streams[5] = dead;
        streams[6] = FORGED;
        let mut events = [null_mut(); EVENTS];
        for e in events.iter_mut().take(3) {
            *e = f.event();
        }
        let dead = f.event();
        check!(f, cudaSuccess, (f.event_destroy)(dead));
        events[3] = dead;
        World {
            p: pools(&f),
            f,
            streams,
            events,
            graphs: [null_mut(); GRAPHS],
            execs: [null_mut(); GRAPHS],
            blocks: Vec::new(),
            graph_blocks: Vec::new(),
            seen: [cudaStreamCaptureStatusNone; STREAMS],
        }
    }

    fn graph(&self, i: usize) -> H {
        match i {
            i if i < GRAPHS => self.graphs[i],
            i if i == GRAPHS => null_mut(),
            _ => FORGED,
        }
    }

    fn exec(&self, i: usize) -> H {
        match i {
            i if i < GRAPHS => self.execs[i],
            i if i == GRAPHS => null_mut(),
            _ => FORGED,
        }
    }

    /// The status by `cudaStreamIsCapturing`, checked against `cudaStreamGetCaptureInfo` and against what was
    /// seen before (Active and Invalidated are left only by an end of capture).
    fn look(&mut self, s: usize, what: &str) -> (Err, c_uint) {
        let f = self.f;
        let h = self.streams[s];
        let mut st: c_uint = 99;
        // SAFETY: a valid out-pointer; the handle may be bad, which the call must answer.
        let got = unsafe { (f.is_capturing)(h, &mut st) };
        let (mut st2, mut id, mut g, mut deps, mut n) =
            (98, 0u64, null_mut(), std::ptr::null(), 0usize);
        // SAFETY: valid out-pointers.
        let got2 = unsafe { (f.get_capture_info)(h, &mut st2, &mut id, &mut g, &mut deps, &mut n) };
        assert_eq!(
            got, got2,
            "{}: {what}: IsCapturing and GetCaptureInfo disagree on the code",
            f.name
        );
        if got == cudaSuccess {
            assert_eq!(
                st, st2,
                "{}: {what}: IsCapturing and GetCaptureInfo disagree",
                f.name
            );
            assert!(
                [
                    cudaStreamCaptureStatusNone,
                    cudaStreamCaptureStatusActive,
                    cudaStreamCaptureStatusInvalidated
                ]
                .contains(&st),
                "{}: {what}: status {st}",
                f.name
            );
            if st == cudaStreamCaptureStatusNone {
                assert_eq!(
                    self.seen[s], cudaStreamCaptureStatusNone,
                    "{}: {what}: stream slot {s} left its capture without an end of capture",
                    f.name
                );
            } else {
                assert!(id > 0, "{}: {what}: a capture's id is never 0", f.name);
            }
            if self.seen[s] == cudaStreamCaptureStatusInvalidated {
                assert_ne!(
                    st, cudaStreamCaptureStatusActive,
                    "{}: {what}: an invalidated capture became active again",
                    f.name
                );
            }
            self.seen[s] = st;
        }
        (got, st)
    }

    /// After any call: every stream's status is consistent (a call on one stream can join or invalidate
    /// another's capture, so all are looked at).
    fn look_all(&mut self, what: &str) {
        for s in 0..STREAMS {
            let (got, _) = self.look(s, what);
            if s >= 5 {
                assert_ne!(
                    got, cudaSuccess,
                    "{}: {what}: a bad stream handle's status",
                    self.f.name
                );
            }
        }
    }

    fn run(&mut self, c: &Call) {
        let f = self.f;
        let what = format!("{c:?}");
        // SAFETY (every call below): out-pointers are valid; handles may be NULL, destroyed or forged, which
        // the facade must answer with a code.
        let got: Err = unsafe {
            match *c {
                Call::Begin(s, mode) => (f.begin_capture)(self.streams[s], mode),
                Call::End(s, g) => {
                    let mut out: H = null_mut();
                    let before = self.seen[s];
                    let got = (f.end_capture)(self.streams[s], &mut out);
                    if got == cudaSuccess {
                        assert!(
                            !out.is_null(),
                            "{}: {what}: success without a graph",
                            f.name
                        );
                        assert_eq!(
                            before, cudaStreamCaptureStatusActive,
                            "{}: {what}: an end of capture succeeded on a stream that was not capturing",
                            f.name
                        );
                        if !self.graphs[g].is_null() {
                            check!(f, cudaSuccess, (f.graph_destroy)(self.graphs[g]));
                        }
                        self.graphs[g] = out;
                    } else {
                        assert!(
                            out.is_null(),
                            "{}: {what}: a failed end left a graph",
                            f.name
                        );
                    }
                    if got == cudaSuccess || got == cudaErrorStreamCaptureInvalidated {
                        self.seen[s] = cudaStreamCaptureStatusNone;
                        // An end of capture also ends the streams joined to it.
                        for t in 0..STREAMS {
                            self.seen[t] = cudaStreamCaptureStatusNone;
                        }
                        let (got, st) = self.look(s, &what);
                        assert_eq!((got, st), (cudaSuccess, cudaStreamCaptureStatusNone));
                        // Re-seed the others from what they are now (joined ones ended too).
                        for t in 0..STREAMS {
                            self.resync(t);
                        }
                    }
                    got
                }
                Call::Kernel(s) => f.kernel(self.streams[s], c"k", 1_000),
                Call::Record(e, s) => (f.event_record)(self.events[e], self.streams[s]),
                Call::Wait(s, e) => (f.stream_wait_event)(self.streams[s], self.events[e], 0),
                Call::Status(s) => self.look(s, &what).0,
                Call::Sync(s) => (f.stream_synchronize)(self.streams[s]),
                Call::Query(s) => (f.stream_query)(self.streams[s]),
                Call::DeviceSync => (f.device_synchronize)(),
                Call::EventQuery(e) => (f.event_query)(self.events[e]),
                Call::EventSync(e) => (f.event_synchronize)(self.events[e]),
                Call::Malloc => {
                    let mut d: H = null_mut();
                    let got = (f.malloc)(&mut d, 256);
                    if got == cudaSuccess {
                        check!(f, cudaSuccess, (f.free)(d));
                    }
                    got
                }
                Call::MallocAsync(s) => {
                    let mut d: H = null_mut();
                    let capturing = self.seen[s] != cudaStreamCaptureStatusNone;
                    let got = (self.p.malloc_async)(&mut d, 4096, self.streams[s]);
                    if got == cudaSuccess {
                        assert!(!d.is_null());
                        if capturing {
                            // An allocation node: its graph allocates it at each launch.
                            self.graph_blocks.push(d);
                        } else {
                            self.blocks.push(d);
                        }
                    }
                    got
                }
                Call::FreeAsync(b, s) => {
                    let d = match self.blocks.get(b) {
                        Some(&d) => d,
                        None => FORGED,
                    };
                    let got = (self.p.free_async)(d, self.streams[s]);
                    if got == cudaSuccess {
                        self.blocks.retain(|&x| x != d);
                    }
                    got
                }
                Call::Instantiate(g, x) => {
                    let mut out: H = null_mut();
                    let got = (f.instantiate)(&mut out, self.graph(g), 0);
                    if got == cudaSuccess {
                        if !self.execs[x].is_null() {
                            check!(f, cudaSuccess, (f.exec_destroy)(self.execs[x]));
                        }
                        self.execs[x] = out;
                    }
                    got
                }
                Call::Launch(x, s) => (f.graph_launch)(self.exec(x), self.streams[s]),
                Call::DestroyGraph(g) => {
                    let got = (f.graph_destroy)(self.graph(g));
                    if got == cudaSuccess {
                        self.graphs[g] = null_mut();
                    }
                    got
                }
                Call::DestroyExec(x) => {
                    let got = (f.exec_destroy)(self.exec(x));
                    if got == cudaSuccess {
                        self.execs[x] = null_mut();
                    }
                    got
                }
                Call::ExchangeMode(mode) => {
                    let mut m = mode;
                    (f.exchange_capture_mode)(&mut m)
                }
            }
        };
        assert_ne!(
            got, cudaErrorUnknown,
            "{}: {what}: an internal error",
            f.name
        );
        assert!(
            DOCUMENTED.contains(&got),
            "{}: {what}: returned {got}, not a code the Runtime API documents for it",
            f.name
        );
        self.look_all(&what);
    }

    /// Takes a stream's current status as what was seen (after an end of capture changed several).
    fn resync(&mut self, s: usize) {
        let mut st: c_uint = 99;
        // SAFETY: a valid out-pointer.
        if unsafe { (self.f.is_capturing)(self.streams[s], &mut st) } == cudaSuccess {
            self.seen[s] = st;
        }
    }

    /// Ends every capture, frees what is left, and checks the process works as before.
    fn finish(mut self) {
        let f = self.f;
        let mut mode: c_int = 0;
        // SAFETY: a valid pointer; back to the global mode.
        unsafe { (f.exchange_capture_mode)(&mut mode) };
        for s in 0..5 {
            let mut g: H = null_mut();
            // SAFETY: a valid out-pointer.
            let got = unsafe { (f.end_capture)(self.streams[s], &mut g) };
            assert!(
                [
                    cudaSuccess,
                    cudaErrorStreamCaptureInvalidated,
                    cudaErrorIllegalState,
                    cudaErrorStreamCaptureUnjoined,
                    cudaErrorStreamCaptureUnmatched,
                    cudaErrorStreamCaptureWrongThread,
                    cudaErrorInvalidValue,
                ]
                .contains(&got),
                "{}: final end of capture of slot {s}: {got}",
                f.name
            );
            if got == cudaSuccess {
                check!(f, cudaSuccess, (f.graph_destroy)(g));
            }
        }
        // An unjoined capture ends from its origin; what is still capturing now ends on a second round.
        for s in 0..5 {
            let mut g: H = null_mut();
            // SAFETY: a valid out-pointer.
            let got = unsafe { (f.end_capture)(self.streams[s], &mut g) };
            if got == cudaSuccess {
                check!(f, cudaSuccess, (f.graph_destroy)(g));
            }
        }
        for s in 0..5 {
            assert_eq!(
                f.status(self.streams[s]),
                cudaStreamCaptureStatusNone,
                "{}: slot {s} still captures after every end",
                f.name
            );
        }
        check!(f, cudaSuccess, (f.device_synchronize)());
        for d in std::mem::take(&mut self.blocks) {
            // SAFETY: a block of this process's pool.
            check!(f, cudaSuccess, (self.p.free_async)(d, self.streams[1]));
        }
        for d in std::mem::take(&mut self.graph_blocks) {
            // A graph allocation is live only if a launch of its graph allocated it and nothing freed it since.
            // SAFETY: an address an allocation node returned.
            let got = unsafe { (self.p.free_async)(d, self.streams[1]) };
            assert!(
                [cudaSuccess, cudaErrorInvalidValue].contains(&got),
                "{}: free of a graph allocation: {got}",
                f.name
            );
        }
        for x in self.execs {
            if !x.is_null() {
                check!(f, cudaSuccess, (f.exec_destroy)(x));
            }
        }
        for g in self.graphs {
            if !g.is_null() {
                check!(f, cudaSuccess, (f.graph_destroy)(g));
            }
        }
        // A capture error is not sticky: fresh work on a fresh stream and the legacy stream succeeds.
        let s = f.stream(0);
        check!(f, cudaSuccess, f.kernel(s, c"after", 1_000));
        check!(f, cudaSuccess, f.kernel(null_mut(), c"after-legacy", 1_000));
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.device_synchronize)());
        check!(f, cudaSuccess, (f.stream_query)(s));
        check!(f, cudaSuccess, (f.stream_destroy)(s));
        for s in &self.streams[1..5] {
            check!(f, cudaSuccess, (f.stream_destroy)(*s));
        }
        for e in &self.events[..3] {
            check!(f, cudaSuccess, (f.event_destroy)(*e));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// capture-and-graphs.md · CUDA · bad handles and states: random capture, graph and stream-ordered
    /// memory calls, both families.
    #[test]
    fn random_capture_calls_answer_documented_codes(calls in calls()) {
        with_watchdog(60, move || {
            for f in FAMILIES {
                let m = Machine::builder().devices(1).build().unwrap();
                let p = m.process();
                let _g = p.bind();
                let mut w = World::new(f);
                for c in &calls {
                    w.run(c);
                }
                w.finish();
            }
        });
    }
}

/// graph-memory.md · capture · `cudaMallocAsync` / `cudaFreeAsync` on a capturing stream are an allocation node
/// and a free node of the graph; a free of memory no allocation node returned (a pool allocation made before
/// the capture) → 1, the capture stays active; the pool allocation is freed after the end as before
#[test]
fn stream_ordered_memory_in_a_capture_makes_memory_nodes() {
    for f in FAMILIES {
        let m = Machine::builder().devices(1).build().unwrap();
        let p = m.process();
        let _g = p.bind();
        let pl = pools(&f);
        let s = f.stream(0);
        let mut early: H = null_mut();
        check!(f, cudaSuccess, (pl.malloc_async)(&mut early, 4096, s));
        check!(f, cudaSuccess, (f.begin_capture)(s, 0));
        check!(f, cudaSuccess, f.kernel(s, c"k", 1_000));
        let mut d: H = null_mut();
        check!(f, cudaSuccess, (pl.malloc_async)(&mut d, 4096, s));
        assert!(!d.is_null(), "{}: the allocation's address", f.name);
        check!(f, cudaErrorInvalidValue, (pl.free_async)(early, s));
        assert_eq!(f.status(s), cudaStreamCaptureStatusActive, "{}", f.name);
        check!(f, cudaSuccess, (pl.free_async)(d, s));
        let mut g: H = null_mut();
        check!(f, cudaSuccess, (f.end_capture)(s, &mut g));
        assert_eq!(
            f.nodes(g).len(),
            3,
            "{}: the kernel, the allocation and the free",
            f.name
        );
        check!(f, cudaSuccess, (pl.free_async)(early, s));
        check!(f, cudaSuccess, (f.stream_synchronize)(s));
        check!(f, cudaSuccess, (f.graph_destroy)(g));
    }
}
