//! Executable graphs and their launches.
//!
//! Instantiation copies the graph's nodes and gives each one a *lane*: the lane of one of its direct
//! dependencies whose last node that dependency is, else a new one — so consecutive nodes of a lane are
//! always ordered by the DAG, and a lane adds no ordering (in virtual time or for race detection) that the DAG
//! does not have. The lanes' streams are made at the first launch.
//!
//! A launch on stream `S` at host time `now`: a marker on `S` (ordered after `S`'s earlier work and the legacy
//! stream's edges, like any operation of `S`); every node on its lane, depending on its DAG dependencies' points
//! of this launch, the roots on the marker and on the previous launch's sinks ("each launch is ordered behind
//! both any previous work in stream and any previous launches of graphExec", `cudaGraphLaunch`); then a join on
//! `S` after this launch's sinks. Times come from the one scheduling function: a node starts at
//! `max(its lane's previous end, now + launch latency, its dependencies' ends)`, so a launch lasts the DAG's
//! critical path under the cost model.

use std::borrow::Cow;
use std::sync::Arc;

use super::node::{Endpoint, Node, NodeOp};
use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::{EventId, GraphExec, Stream, StreamId, StreamKind};
use crate::engine::core::pointers::{DevicePtr, HostPtr};
use crate::engine::core::races::Accessor;
use crate::engine::core::races::LifePoint;
use crate::engine::core::races::Who;
use crate::engine::core::time::CopyPath;
use crate::engine::core::time::saturating_nanos;
use crate::engine::exec::point::Point;
use crate::engine::exec::{CopySource, Work};
use crate::engine::memory::block::{Block, Region};
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, ProcState, Process};

/// What one node does at one launch, resolved.
struct Prepared {
    spec: OpSpec,
    /// Dependencies besides the DAG's (an external wait's record).
    extra: Vec<Point>,
    /// An event to record with the node's point (an external record node).
    record: Option<u64>,
}

impl Process {
    /// Launches executable graph `exec` on `stream` (CUDA `cudaGraphLaunch`, ACL `aclmdlRIExecuteAsync`): its
    /// nodes run as operations on the graph's lanes with times from the DAG, ordered after `stream`'s earlier work
    /// and the graph's previous launch; `stream`'s later work is ordered after all of them. A race between the
    /// graph's nodes, or with other work, is reported (never refused: fail-fast detection does not stop a launch
    /// half way).
    pub fn launch_graph(&self, exec: GraphExec, stream: Stream) -> Result<()> {
        self.call(EngineCall::LaunchGraph.name(), |c| {
            let what = EngineCall::LaunchGraph.name();
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.0)?;
            let (ordinal, ctx) = {
                let x = st.graphs.execs.get(exec.0)?;
                (x.ordinal, x.ctx)
            };
            if self.m.rules.owned.capture {
                st.check_owner(&self.m, c, what, true, h)?;
                let (_, current) = st.current(&self.m, c, what)?;
                if current != ctx {
                    return Err(SimError::WrongContext {
                        what,
                        object: format!("graph exec {ordinal}"),
                        object_context: st.context_ordinal(ctx),
                        current: st.context_ordinal(current),
                    });
                }
            }
            if st.graphs.captures.of_stream(h).is_some() {
                let id = st.streams.get(h)?.id;
                return Err(if self.m.rules.capture.launch_refused_in_capture {
                    SimError::Capture {
                        what,
                        stream: Some(id),
                        problem: crate::engine::core::error::CaptureProblem::Unsupported,
                    }
                } else {
                    SimError::NotSupported {
                        what,
                        reason: format!(
                            "{id} is capturing: capturing a graph launch (a child graph node) is not simulated"
                        ),
                    }
                });
            }
            st.capture_route(&self.m, h, what)?;
            // Everything that can fail is checked before anything is enqueued; the graph's allocations are
            // installed for this launch (and put back as they were if the launch fails).
            let mem = self.launch_memory(&mut st, c, exec, h)?;
            let prepared = match self
                .prepare_launch(&st, c, exec, &mem)
                .and_then(|p| self.ensure_lanes(&mut st, c, exec).map(|()| p))
            {
                Ok(p) => p,
                Err(e) => {
                    mem.undo(&self.m.memory);
                    return Err(e);
                }
            };
            // cudaGraphInstantiateFlagAutoFreeOnLaunch: the allocations still live are freed on the launch
            // stream first, as cudaFreeAsync would free them.
            for (_, block) in &mem.auto_freed {
                let what = "graph allocation freed at launch";
                let who = self.life_who(&st, h, "free", what, std::panic::Location::caller())?;
                let spec = OpSpec::new(
                    saturating_nanos(self.m.cost.pool_free),
                    Cow::Borrowed(what),
                    OpKind::MemFree { bytes: block.len },
                    Work::Nothing,
                )
                .life(block.clone(), LifePoint::Free, who);
                st.enqueue(&self.m, c, h, spec)?;
            }
            // The lanes run at the launching stream's priority (the engine model's tie rule; `live.rs`).
            let priority = st.streams.get(h)?.priority;
            for lane in &mut st.graphs.execs.get_mut(exec.0)?.lanes {
                lane.priority = priority;
            }
            let marker = st.enqueue_checked(
                &self.m,
                c,
                h,
                OpSpec::new(
                    0,
                    Cow::Owned(format!("graph exec {ordinal} launch")),
                    OpKind::GraphLaunch { exec: ordinal },
                    Work::Nothing,
                ),
                None,
                None,
            )?;
            let marker = st.with_clock(h, marker)?;
            let sinks = dispatch_nodes(&self.m, &mut st, c, exec, marker, prepared)?;
            st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    0,
                    Cow::Owned(format!("graph exec {ordinal} end")),
                    OpKind::GraphEnd { exec: ordinal },
                    Work::Nothing,
                )
                .deps(sinks.clone()),
            )?;
            let x = st.graphs.execs.get_mut(exec.0)?;
            x.last = sinks;
            x.launches += 1;
            mem.commit(&self.m, &mut st);
            Ok(())
        })
    }

    /// The graph allocations of `exec` for one launch, checked and installed: [`SimError::InvalidValue`] for an
    /// allocation still live from an earlier launch (without `cudaGraphInstantiateFlagAutoFreeOnLaunch`) and for
    /// a free node whose allocation is not live; [`SimError::OutOfMemory`] if the device has no memory for
    /// them.
    fn launch_memory(
        &self,
        st: &mut ProcState,
        c: &Call,
        exec: GraphExec,
        h: u64,
    ) -> Result<LaunchMem> {
        let what = EngineCall::LaunchGraph.name();
        let x = st.graphs.execs.get(exec.0)?;
        let (allocs, auto_free, ordinal) = (x.allocs(), x.auto_free, x.ordinal);
        let frees: Vec<u64> = x
            .nodes
            .iter()
            .filter_map(|n| match n.op {
                NodeOp::MemFree { base } => Some(base),
                _ => None,
            })
            .collect();
        let mut out = LaunchMem {
            stream: h,
            ..LaunchMem::default()
        };
        if allocs.is_empty() && frees.is_empty() {
            return Ok(out);
        }
        let invalid = |reason: String| SimError::InvalidValue { what, reason };
        for b in &allocs {
            let a = st
                .graphs
                .mem
                .get(*b)
                .expect("an executable graph holds its allocations");
            if a.live.is_some() && !auto_free {
                return Err(invalid(format!(
                    "graph exec {ordinal}: its allocation at {b:#x} from an earlier launch is not freed (free \
                     it, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch)"
                )));
            }
        }
        for b in &frees {
            let live = st.graphs.mem.get(*b).is_some_and(|a| a.live.is_some());
            if !allocs.contains(b) && !live {
                return Err(invalid(format!(
                    "graph exec {ordinal}: its free node frees the graph allocation at {b:#x}, which is not \
                     allocated (freed already, or its graph not launched since)"
                )));
            }
        }
        for b in &allocs {
            st.graphs
                .mem
                .ensure_physical(&self.m.memory, *b, h, &allocs)?;
        }
        for &b in &allocs {
            let a = st.graphs.mem.get(b).expect("checked above");
            if let Some(live) = &a.live {
                out.auto_freed.push((b, live.clone()));
            }
            let chunk = a.physical.clone().expect("ensured above");
            let before = self.m.memory.block_at(b);
            let block = self
                .m
                .memory
                .install(a.device, b, a.bytes, c.process, chunk, 0);
            out.installed.push((b, block, before));
        }
        for &b in &frees {
            let block = match out.installed.iter().find(|(a, ..)| *a == b) {
                Some((_, block, _)) => block.clone(),
                None => st
                    .graphs
                    .mem
                    .get(b)
                    .and_then(|a| a.live.clone())
                    .expect("checked above"),
            };
            out.frees.push((b, block));
        }
        Ok(out)
    }

    /// Makes the lanes' streams of `exec` if it has none yet.
    fn ensure_lanes(&self, st: &mut ProcState, c: &Call, exec: GraphExec) -> Result<()> {
        let x = st.graphs.execs.get(exec.0)?;
        if !x.lanes.is_empty() || x.lane_count == 0 {
            return Ok(());
        }
        let (ordinal, device, ctx, count) = (x.ordinal, x.device, x.ctx, x.lane_count);
        let mut lanes = Vec::with_capacity(count as usize);
        for lane in 0..count {
            let id = StreamId {
                process: c.process,
                device,
                kind: StreamKind::Graph {
                    exec: ordinal,
                    lane,
                },
            };
            lanes.push(st.new_lane(&self.m, id, ctx)?);
        }
        st.graphs.execs.get_mut(exec.0)?.lanes = lanes;
        Ok(())
    }

    /// Resolves every node of `exec` for one launch: addresses to live regions, events to live events.
    fn prepare_launch(
        &self,
        st: &ProcState,
        c: &Call,
        exec: GraphExec,
        mem: &LaunchMem,
    ) -> Result<Vec<Prepared>> {
        let x = st.graphs.execs.get(exec.0)?;
        let mut out = Vec::with_capacity(x.nodes.len());
        for (i, n) in x.nodes.iter().enumerate() {
            let lane = StreamId {
                process: c.process,
                device: x.device,
                kind: StreamKind::Graph {
                    exec: x.ordinal,
                    lane: x.lane_of[i],
                },
            };
            if x.enabled[i] {
                out.push(self.prepare_node(st, c, n, lane, mem)?);
            } else {
                // A disabled node runs as an empty node (`cudaGraphNodeSetEnabled`).
                out.push(Prepared {
                    spec: OpSpec::new(0, n.op.label(), OpKind::Kernel, Work::Nothing),
                    extra: Vec::new(),
                    record: None,
                });
            }
        }
        Ok(out)
    }

    /// Who a graph node's lifetime point is (race detection on).
    fn lane_life_who(&self, lane: StreamId, kind: &'static str, n: &Node) -> Option<Who> {
        self.m.race.on().then(|| {
            Arc::new((
                Accessor::Op {
                    stream: lane,
                    stream_name: None,
                    kind,
                    label: n.op.label().into_owned(),
                },
                n.site,
            ))
        })
    }

    pub(super) fn node_who(
        &self,
        lane: StreamId,
        kind: &'static str,
        n: &Node,
        accesses: &[(Region, bool)],
    ) -> Option<Who> {
        (self.m.race.on() && !accesses.is_empty()).then(|| {
            Arc::new((
                Accessor::Op {
                    stream: lane,
                    stream_name: None,
                    kind,
                    label: n.op.label().into_owned(),
                },
                n.site,
            ))
        })
    }

    fn region(
        &self,
        c: &Call,
        what: &'static str,
        e: Endpoint,
        bytes: u64,
    ) -> Result<Option<Region>> {
        let mem = &self.m.memory;
        Ok(match e {
            Endpoint::Device(p) => Some(mem.device_region(what, p, bytes, c.process)?),
            Endpoint::Pinned(p) => Some(mem.pinned_region(what, p, bytes, c.process)?),
            Endpoint::Pageable(_) => None,
        })
    }

    fn prepare_node(
        &self,
        st: &ProcState,
        c: &Call,
        n: &Node,
        lane: StreamId,
        mem: &LaunchMem,
    ) -> Result<Prepared> {
        let mut record = None;
        let mut extra = Vec::new();
        let spec = match &n.op {
            NodeOp::Kernel {
                name,
                cost_ns,
                accesses,
                body,
            } => {
                let mut regions = Vec::with_capacity(accesses.len());
                for a in accesses {
                    regions.push((self.declared_region(a, c)?, a.write));
                }
                let work = match body {
                    Some(b) => {
                        let b = b.clone();
                        Work::Kernel(
                            Box::new(move |ctx| b(ctx)),
                            regions.clone(),
                            st.kernel_reach(&self.m, lane.device),
                        )
                    }
                    None => Work::Nothing,
                };
                let who = self.node_who(lane, "kernel", n, &regions);
                OpSpec::new(*cost_ns, name.clone(), OpKind::Kernel, work).accesses(regions, who)
            }
            NodeOp::Copy {
                what,
                dst,
                src,
                bytes,
                path,
            } => {
                let mut accesses = Vec::new();
                let source = match (self.region(c, what, *src, *bytes)?, src) {
                    (Some(r), _) => {
                        accesses.push((r.clone(), false));
                        CopySource::Region(r)
                    }
                    (None, Endpoint::Pageable(addr)) => {
                        // SAFETY: a pageable endpoint comes only from the C API, whose caller keeps the memory
                        // valid for as long as the graph may run (the vendor's contract).
                        let bytes = unsafe {
                            std::slice::from_raw_parts(*addr as *const u8, *bytes as usize)
                        };
                        CopySource::Staged(bytes.to_vec())
                    }
                    (None, _) => unreachable!("only pageable endpoints have no region"),
                };
                let work = match (self.region(c, what, *dst, *bytes)?, dst) {
                    (Some(r), _) => {
                        accesses.push((r.clone(), true));
                        Work::Copy {
                            src: source,
                            dst: r,
                        }
                    }
                    (None, Endpoint::Pageable(addr)) => Work::CopyToHost {
                        src: source,
                        addr: *addr,
                        len: *bytes,
                    },
                    (None, _) => unreachable!("only pageable endpoints have no region"),
                };
                let who = self.node_who(lane, "memcpy", n, &accesses);
                OpSpec::new(
                    self.m.cost.copy_nanos(*path, *bytes),
                    Cow::<'static, str>::Borrowed(what),
                    OpKind::Memcpy {
                        path: *path,
                        bytes: *bytes,
                    },
                    work,
                )
                .accesses(accesses, who)
            }
            NodeOp::Memset {
                what,
                dst,
                value,
                bytes,
                path,
            } => {
                let r = self
                    .region(c, what, *dst, *bytes)?
                    .expect("a memset writes device or pinned memory");
                let accesses = vec![(r.clone(), true)];
                let who = self.node_who(lane, "memset", n, &accesses);
                OpSpec::new(
                    self.m.cost.copy_nanos(*path, *bytes),
                    Cow::<'static, str>::Borrowed(what),
                    OpKind::Memset { bytes: *bytes },
                    Work::Fill {
                        dst: r,
                        value: *value,
                    },
                )
                .accesses(accesses, who)
            }
            NodeOp::MemsetShaped { dst, shape } => {
                let what = "memset node";
                let mem = &self.m.memory;
                // Device memory, or managed memory (a host address in the pinned table).
                let managed = mem.is_managed(dst.addr());
                let region = |p: DevicePtr, bytes: u64| {
                    if managed {
                        mem.pinned_region(what, HostPtr(p.addr()), bytes, c.process)
                    } else {
                        mem.device_region(what, p, bytes, c.process)
                    }
                };
                let r = region(*dst, shape.span())?;
                let bytes = shape.height * shape.row_bytes();
                let cost = self.m.cost.copy_nanos(CopyPath::OnDevice, bytes);
                let kind = OpKind::Memset { bytes };
                let label = Cow::<'static, str>::Borrowed(what);
                if shape.is_plain() {
                    let r = region(*dst, bytes)?;
                    let accesses = vec![(r.clone(), true)];
                    let who = self.node_who(lane, "memset", n, &accesses);
                    let value = shape.element()[0];
                    OpSpec::new(cost, label, kind, Work::Fill { dst: r, value })
                        .accesses(accesses, who)
                } else {
                    // Rows of a repeated element: each row is its own access, written when the node runs.
                    let mut rows = Vec::with_capacity(shape.height as usize);
                    for k in 0..shape.height {
                        let p = DevicePtr(dst.0 + k * shape.pitch);
                        rows.push((region(p, shape.row_bytes())?, true));
                    }
                    drop(r);
                    let row: Vec<u8> = shape
                        .element()
                        .iter()
                        .copied()
                        .cycle()
                        .take(shape.row_bytes() as usize)
                        .collect();
                    let targets: Vec<Region> = rows.iter().map(|(r, _)| r.clone()).collect();
                    let body: crate::engine::kernels::kernel::KernelBody = Box::new(move |_| {
                        for t in &targets {
                            t.block.write(t.offset, &row);
                        }
                        Ok(())
                    });
                    let who = self.node_who(lane, "memset", n, &rows);
                    OpSpec::new(cost, label, kind, Work::Kernel(body, Vec::new(), None))
                        .accesses(rows, who)
                }
            }
            NodeOp::Child(_) => unreachable!("instantiation inlines child graphs"),
            NodeOp::Rows(r) => self.prepare_rows(c, n, r, lane)?,
            NodeOp::Host(f) => {
                let f = f.clone();
                OpSpec::new(
                    saturating_nanos(self.m.cost.host_function),
                    Cow::Borrowed("host function"),
                    OpKind::HostFunction,
                    Work::Host(Box::new(move || f())),
                )
            }
            NodeOp::EventRecord { event, id } => {
                st.events.get(*event)?;
                record = Some(*event);
                OpSpec::new(
                    0,
                    n.op.label(),
                    OpKind::Record { event: *id },
                    Work::Nothing,
                )
            }
            NodeOp::EventWait { event, id } => {
                let e = st.events.get(*event)?;
                let latest = e.state.lock().newest();
                let (spec, deps) = wait_spec(n, *id, latest);
                extra = deps;
                spec
            }
            NodeOp::Empty => OpSpec::new(0, n.op.label(), OpKind::Kernel, Work::Nothing),
            NodeOp::MemAlloc { base, bytes } => {
                let block = mem.block(*base);
                let who = self.lane_life_who(lane, "alloc", n);
                OpSpec::new(
                    saturating_nanos(self.m.cost.pool_alloc),
                    n.op.label(),
                    OpKind::MemAlloc { bytes: *bytes },
                    Work::Nothing,
                )
                .life(block, LifePoint::Alloc, who)
            }
            NodeOp::MemFree { base } => {
                let block = mem.freed(*base);
                let who = self.lane_life_who(lane, "free", n);
                OpSpec::new(
                    saturating_nanos(self.m.cost.pool_free),
                    n.op.label(),
                    OpKind::MemFree { bytes: block.len },
                    Work::Nothing,
                )
                .life(block, LifePoint::Free, who)
            }
        };
        Ok(Prepared {
            spec,
            extra,
            record,
        })
    }
}

/// The graph allocations of one launch (`launch_memory`).
#[derive(Default)]
struct LaunchMem {
    /// The launch stream.
    stream: u64,
    /// Allocations installed for this launch: (base, its block, the block it replaced at its address).
    installed: Vec<(u64, Arc<Block>, Option<Arc<Block>>)>,
    /// Allocations still live from an earlier launch, freed first (`cudaGraphInstantiateFlagAutoFreeOnLaunch`).
    auto_freed: Vec<(u64, Arc<Block>)>,
    /// The allocations the launch's free nodes free, with their blocks.
    frees: Vec<(u64, Arc<Block>)>,
}

impl LaunchMem {
    fn block(&self, base: u64) -> Arc<Block> {
        self.installed
            .iter()
            .find(|(b, ..)| *b == base)
            .map(|(_, block, _)| block.clone())
            .expect("an allocation node's block is installed for its launch")
    }

    fn freed(&self, base: u64) -> Arc<Block> {
        self.frees
            .iter()
            .find(|(b, _)| *b == base)
            .map(|(_, block)| block.clone())
            .expect("a free node's block is found for its launch")
    }

    /// The launch failed: the blocks installed for it are removed and those they replaced put back.
    fn undo(self, memory: &crate::engine::memory::Memory) {
        for (_, block, before) in self.installed {
            memory.forget_block(&block);
            if let Some(b) = before {
                memory.put_back(&b);
            }
        }
    }

    /// The launch is enqueued: the allocations freed at its start are freed, those it allocates are live, and
    /// those its free nodes free are freed.
    fn commit(self, m: &crate::engine::machine::Shared, st: &mut ProcState) {
        for (b, _) in &self.auto_freed {
            st.graphs.mem.set_freed(&m.memory, *b, Some(self.stream));
        }
        for (b, block, _) in self.installed {
            st.graphs.mem.set_live(b, block);
        }
        for (b, block) in self.frees {
            st.graphs.mem.set_freed(&m.memory, b, Some(self.stream));
            crate::engine::value_waits::state::forget(&mut st.words, block.base, block.len);
        }
    }
}

/// An external wait node's operation and what it waits for: the event's record current at the launch (nothing
/// if it has none).
fn wait_spec(n: &Node, id: EventId, latest: Option<Point>) -> (OpSpec, Vec<Point>) {
    match latest {
        Some(p) => {
            let kind = OpKind::Wait {
                event: id,
                on: p.exec.id,
                seq: p.seq,
            };
            (OpSpec::new(0, n.op.label(), kind, Work::Nothing), vec![p])
        }
        None => (
            OpSpec::new(0, n.op.label(), OpKind::Kernel, Work::Nothing),
            Vec::new(),
        ),
    }
}

/// Enqueues every node of `exec` on its lane after `marker`; the sinks' points.
fn dispatch_nodes(
    m: &crate::engine::machine::Shared,
    st: &mut ProcState,
    c: &Call,
    exec: GraphExec,
    marker: Point,
    prepared: Vec<Prepared>,
) -> Result<Vec<Point>> {
    st.ensure_host(m, c.thread);
    let ProcState {
        graphs,
        hosts,
        events,
        ..
    } = st;
    let x = graphs.execs.get_mut(exec.0)?;
    let mut roots_after = vec![marker];
    roots_after.append(&mut x.last);
    if x.nodes.is_empty() {
        return Ok(roots_after);
    }
    let mut points: Vec<Point> = Vec::with_capacity(prepared.len());
    for (i, p) in prepared.into_iter().enumerate() {
        let node = &x.nodes[i];
        let mut deps: Vec<Point> = if node.deps.is_empty() {
            roots_after.clone()
        } else {
            node.deps
                .iter()
                .map(|&d| points[d as usize].clone())
                .collect()
        };
        let mut extra = p.extra;
        deps.append(&mut extra);
        let spec = p.spec.deps(deps);
        let lane = &mut x.lanes[x.lane_of[i] as usize];
        let point = ProcState::push_lane(lane, hosts.get_mut(c.thread as usize), m, c.now, spec);
        if let Some(e) = p.record
            && let Ok(e) = events.get_mut(e)
        {
            let mut es = e.state.lock();
            es.latest = Some(point.clone());
            es.generation += 1;
            e.captured = None;
        }
        points.push(point);
    }
    Ok(x.sinks
        .iter()
        .map(|&s| points[s as usize].clone())
        .collect())
}
