//! Graph memory nodes: allocations a graph makes and frees (CUDA's `cudaGraphAddMemAllocNode` /
//! `cudaGraphAddMemFreeNode`, and `cudaMallocAsync` / `cudaFreeAsync` captured into a graph). Rows and sources:
//! `docs/semantics/graph-memory.md`.
//!
//! **Addresses and memory.** An allocation node takes its addresses when it is made, and keeps them for as long
//! as a graph or an executable graph holds the node, or the allocation is live ("the allocation's address
//! remains fixed across instantiations and launches"); the addresses take no capacity. Device memory behind them
//! is taken at the first launch that needs it, from the device's graph allocator: memory a released allocation
//! left there, else new device memory (counted as used). It stays with the allocation, or in the allocator,
//! until `cudaDeviceGraphMemTrim`.
//!
//! **Lifetime.** A launch installs each allocation as a live block at its address (a new allocation number), and
//! its allocation node is the block's stream-ordered allocation for the race detector; a free node is its
//! stream-ordered free, as `cudaFreeAsync`'s. An allocation the graph does not free stays live after the launch
//! until `cudaFree`, `cudaFreeAsync` or another graph's free node frees it; launching the graph again while it
//! is live is `cudaErrorInvalidValue`, unless the executable graph was instantiated with
//! `cudaGraphInstantiateFlagAutoFreeOnLaunch` (each launch then frees it first, as `cudaFreeAsync` on the
//! launch stream would).
//!
//! Everything here runs under the process's state lock.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::core::error::{Result, SimError};
use crate::engine::core::handle::ProcessId;
use crate::engine::core::pointers::DevicePtr;
use crate::engine::graph::node::{Node, NodeOp};
use crate::engine::machine::Shared;
use crate::engine::memory::block::{Block, Chunk};
use crate::engine::process::{Call, ProcState};

/// Whether `nodes` has an allocation or a free node.
pub(crate) fn has_mem_nodes(nodes: &[Node]) -> bool {
    nodes
        .iter()
        .any(|n| matches!(n.op, NodeOp::MemAlloc { .. } | NodeOp::MemFree { .. }))
}

/// The base addresses of the allocation nodes of `nodes`.
pub(crate) fn allocs_of(nodes: &[Node]) -> Vec<u64> {
    nodes
        .iter()
        .filter_map(|n| match n.op {
            NodeOp::MemAlloc { base, .. } => Some(base),
            _ => None,
        })
        .collect()
}

/// [`SimError::NotSupported`] if `nodes` has memory nodes: a graph with them cannot `do_what` ("Nodes and edges
/// of the graph cannot be deleted", "can only be used in a child node if the ownership is moved to the parent",
/// "cannot be cloned": `cudaGraphAddMemAllocNode`; hip-tests, built for CUDA, expects 801).
pub(crate) fn no_mem_nodes(what: &'static str, nodes: &[Node], do_what: &str) -> Result<()> {
    if has_mem_nodes(nodes) {
        return Err(SimError::NotSupported {
            what,
            reason: format!(
                "the graph has memory allocation or free nodes, and such a graph cannot {do_what}"
            ),
        });
    }
    Ok(())
}

fn invalid(what: &'static str, reason: impl Into<String>) -> SimError {
    SimError::InvalidValue {
        what,
        reason: reason.into(),
    }
}

impl ProcState {
    /// "Allocation and free nodes cannot be added to the returned graph" (`cudaGraphChildGraphNodeGetGraph`):
    /// [`SimError::InvalidValue`] for a child graph node's embedded graph (`child.rs`).
    fn not_embedded(&self, what: &'static str, graph: u64) -> Result<()> {
        if self.graphs.lineage.is_embedded(graph) {
            return Err(invalid(
                what,
                "the graph is a child graph node's embedded graph: memory allocation and free nodes cannot be \
                 added to it",
            ));
        }
        Ok(())
    }

    /// The allocation node of a new graph allocation of `bytes` on `device` in graph `graph` (of `graph_device`).
    #[allow(
        clippy::too_many_arguments,
        reason = "one allocation node, spelled out"
    )]
    pub(crate) fn mem_alloc_op(
        &mut self,
        m: &Shared,
        c: &Call,
        what: &'static str,
        graph: u64,
        graph_device: u32,
        device: u32,
        bytes: u64,
    ) -> Result<NodeOp> {
        self.not_embedded(what, graph)?;
        if bytes == 0 {
            return Err(invalid(what, "an allocation of 0 bytes"));
        }
        if device != graph_device {
            return Err(SimError::NotSupported {
                what,
                reason: format!(
                    "the allocation is on device {device} and the graph on device {graph_device}: \
                     multi-device graphs are not simulated"
                ),
            });
        }
        let base = self
            .graphs
            .mem
            .create(&m.memory, device, bytes, graph, c.process)?;
        Ok(NodeOp::MemAlloc { base, bytes })
    }

    /// The free node of the graph allocation at `ptr`, for graph `graph`: [`SimError::InvalidValue`] for an
    /// address no allocation node returned, an allocation this graph frees already, one its own graph frees
    /// (when `graph` is another), and one another graph frees (when `graph` is its own) ("It is not possible to
    /// free an allocation in both the owning graph and another graph", `cudaGraphAddMemAllocNode`).
    pub(crate) fn mem_free_op(
        &self,
        what: &'static str,
        graph: u64,
        ptr: DevicePtr,
    ) -> Result<NodeOp> {
        self.not_embedded(what, graph)?;
        let base = ptr.addr();
        let Some(a) = self.graphs.mem.get(base) else {
            return Err(invalid(
                what,
                format!("{base:#x} is not the address of a graph allocation"),
            ));
        };
        let frees = |g: &super::node::GraphEntry| {
            g.nodes
                .iter()
                .any(|n| matches!(n.op, NodeOp::MemFree { base: b } if b == base))
        };
        if self.graphs.graphs.get(graph).is_ok_and(frees) {
            return Err(invalid(
                what,
                format!("the graph frees the allocation at {base:#x} already"),
            ));
        }
        if a.graph == Some(graph) {
            let elsewhere = self.graphs.graphs.values().any(frees);
            if elsewhere {
                return Err(invalid(
                    what,
                    format!(
                        "another graph frees the allocation at {base:#x}: its own graph cannot free it too"
                    ),
                ));
            }
        } else if a.freed_in_owner {
            return Err(invalid(
                what,
                format!(
                    "the allocation at {base:#x} is freed by its own graph: another graph cannot free it"
                ),
            ));
        }
        Ok(NodeOp::MemFree { base })
    }

    /// A free node of the allocation at `base` was added to `graph`.
    pub(crate) fn mem_free_added(&mut self, graph: u64, base: u64) {
        if let Some(a) = self.graphs.mem.allocs.get_mut(&base)
            && a.graph == Some(graph)
        {
            a.freed_in_owner = true;
        }
    }
}

/// The granularity of graph allocations' addresses and memory (the pools' chunk: CUDA maps graph memory in
/// 2 MiB pages).
pub(crate) const GRANULE: u64 = 2 << 20;

/// One graph allocation.
pub(crate) struct GraphAlloc {
    pub device: u32,
    /// The bytes asked for.
    pub bytes: u64,
    /// Its addresses and memory: `bytes` rounded up to [`GRANULE`].
    pub len: u64,
    /// The graph holding its allocation node (`None` once that graph is destroyed).
    pub graph: Option<u64>,
    /// How many executable graphs hold its allocation node.
    pub execs: u32,
    /// Whether the graph holding its allocation node also frees it.
    pub freed_in_owner: bool,
    /// Its device memory, once a launch needed it (until a trim, or another allocation takes it).
    pub physical: Option<Arc<Chunk>>,
    /// Where its last free was ordered, while it is not live: `Some(h)` on stream `h` (a free node of a launch on
    /// `h`, `cudaFreeAsync` on `h`), `None` by the host (`cudaFree`) or never allocated. Another allocation may
    /// take its memory at a launch on that stream (any stream after a host free): stream order puts the launch
    /// after the free.
    pub freed_on: Option<u64>,
    /// The block installed by the launch that allocated it last, while it is live (not freed since).
    pub live: Option<Arc<Block>>,
}

impl GraphAlloc {
    fn held(&self) -> bool {
        self.graph.is_some() || self.execs > 0 || self.live.is_some()
    }
}

/// The graph allocator of one device: what `cudaDeviceGetGraphMemAttribute` reports, and memory released
/// allocations left for the next ones.
#[derive(Default)]
pub(crate) struct DeviceGraphMem {
    /// Bytes of device memory mapped to graph allocations, live or not (`cudaGraphMemAttrUsedMemCurrent`: "memory
    /// … currently associated with graphs"; freeing an allocation does not shrink it, a trim does).
    pub used: u64,
    pub used_high: u64,
    /// Bytes of device memory the allocator holds: mapped to allocations, or left by released ones
    /// (`ReservedMemCurrent`).
    pub reserved: u64,
    pub reserved_high: u64,
    /// Memory of released allocations: (length, memory).
    cache: Vec<(u64, Arc<Chunk>)>,
}

/// A process's graph allocations, by base address, and each device's graph allocator (a field of
/// `GraphState`).
#[derive(Default)]
pub(crate) struct GraphMem {
    pub allocs: BTreeMap<u64, GraphAlloc>,
    pub devices: BTreeMap<u32, DeviceGraphMem>,
}

/// The four attributes of `cudaGraphMemAttributeType`, with the vendor's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GraphMemAttr {
    /// 0: bytes of live graph allocations.
    UsedMemCurrent,
    /// 1: the high watermark of `UsedMemCurrent` since it was last reset.
    UsedMemHigh,
    /// 2: bytes of device memory the graphs' allocator holds.
    ReservedMemCurrent,
    /// 3: the high watermark of `ReservedMemCurrent` since it was last reset.
    ReservedMemHigh,
}

impl GraphMemAttr {
    /// The attribute with the vendor's number.
    pub fn from_raw(raw: u32) -> Option<GraphMemAttr> {
        Some(match raw {
            0 => GraphMemAttr::UsedMemCurrent,
            1 => GraphMemAttr::UsedMemHigh,
            2 => GraphMemAttr::ReservedMemCurrent,
            3 => GraphMemAttr::ReservedMemHigh,
            _ => return None,
        })
    }
}

impl GraphMem {
    /// The graph allocation whose first byte is `base`.
    pub fn get(&self, base: u64) -> Option<&GraphAlloc> {
        self.allocs.get(&base)
    }

    fn device(&mut self, device: u32) -> &mut DeviceGraphMem {
        self.devices.entry(device).or_default()
    }

    /// A new allocation of `bytes` on `device` held by `graph`; its base address.
    pub fn create(
        &mut self,
        memory: &crate::engine::memory::Memory,
        device: u32,
        bytes: u64,
        graph: u64,
        owner: ProcessId,
    ) -> Result<u64> {
        let oom = || SimError::OutOfMemory {
            device,
            requested: bytes,
            available: 0,
        };
        let len = bytes
            .max(1)
            .checked_next_multiple_of(GRANULE)
            .ok_or_else(oom)?;
        let base = memory.reserve_addresses(device, len, bytes, owner)?;
        self.allocs.insert(
            base,
            GraphAlloc {
                device,
                bytes,
                len,
                graph: Some(graph),
                execs: 0,
                freed_in_owner: false,
                physical: None,
                freed_on: None,
                live: None,
            },
        );
        Ok(base)
    }

    /// Forgets allocation `base` if nothing holds it any more: its addresses are released and its memory goes to
    /// its device's allocator.
    fn release_if_unheld(&mut self, memory: &crate::engine::memory::Memory, base: u64) {
        if self.allocs.get(&base).is_none_or(GraphAlloc::held) {
            return;
        }
        let a = self.allocs.remove(&base).expect("just looked up");
        memory.release_addresses(a.device, base);
        if let Some(chunk) = a.physical {
            let d = self.device(a.device);
            d.used = d.used.saturating_sub(a.len);
            d.cache.push((a.len, chunk));
        }
    }

    /// The graph `graph` holding the allocation nodes `bases` is gone.
    pub fn graph_gone(
        &mut self,
        memory: &crate::engine::memory::Memory,
        graph: u64,
        bases: &[u64],
    ) {
        for &b in bases {
            if let Some(a) = self.allocs.get_mut(&b)
                && a.graph == Some(graph)
            {
                a.graph = None;
            }
            self.release_if_unheld(memory, b);
        }
    }

    /// An executable graph holding the allocation nodes `bases` was made.
    pub fn exec_made(&mut self, bases: &[u64]) {
        for b in bases {
            if let Some(a) = self.allocs.get_mut(b) {
                a.execs += 1;
            }
        }
    }

    /// An executable graph holding the allocation nodes `bases` is gone.
    pub fn exec_gone(&mut self, memory: &crate::engine::memory::Memory, bases: &[u64]) {
        for &b in bases {
            if let Some(a) = self.allocs.get_mut(&b) {
                a.execs = a.execs.saturating_sub(1);
            }
            self.release_if_unheld(memory, b);
        }
    }

    /// Device memory for allocation `base` at a launch on stream `h`: its own; else that of an allocation of the
    /// same size that is not live and whose last free stream order puts before the launch (CUDA "reuses the same
    /// physical memory for allocations from separate graphs when the allocation lifetimes don't overlap", the
    /// graphMemoryFootprint sample), the lowest address first, and not one of `exclude` (the launch's own
    /// allocations, which may be live at the same time); else memory a released allocation left; else new device
    /// memory.
    pub fn ensure_physical(
        &mut self,
        memory: &crate::engine::memory::Memory,
        base: u64,
        h: u64,
        exclude: &[u64],
    ) -> Result<Arc<Chunk>> {
        let (device, len) = {
            let a = &self.allocs[&base];
            if let Some(p) = &a.physical {
                return Ok(p.clone());
            }
            (a.device, a.len)
        };
        let donor = self
            .allocs
            .iter()
            .find(|&(&b, a)| {
                b != base
                    && !exclude.contains(&b)
                    && a.device == device
                    && a.len == len
                    && a.live.is_none()
                    && a.physical.is_some()
                    && a.freed_on.is_none_or(|s| s == h)
            })
            .map(|(&b, _)| b);
        let chunk = match donor {
            Some(b) => self
                .allocs
                .get_mut(&b)
                .and_then(|a| a.physical.take())
                .expect("a donor has memory"),
            None => {
                let d = self.device(device);
                let chunk = match d.cache.iter().position(|(l, _)| *l == len) {
                    Some(i) => d.cache.swap_remove(i).1,
                    None => {
                        // Memory released allocations left, of other sizes, goes back to the device first if the
                        // device has no room (the cache never makes a launch fail).
                        let chunk = match memory.commit(device, len) {
                            Err(SimError::OutOfMemory { .. }) if !d.cache.is_empty() => {
                                let cached: u64 = d.cache.drain(..).map(|(l, _)| l).sum();
                                d.reserved -= cached;
                                memory.uncommit(device, cached);
                                memory.commit(device, len)?
                            }
                            r => r?,
                        };
                        d.reserved += len;
                        d.reserved_high = d.reserved_high.max(d.reserved);
                        chunk
                    }
                };
                d.used += len;
                d.used_high = d.used_high.max(d.used);
                chunk
            }
        };
        self.allocs.get_mut(&base).expect("looked up").physical = Some(chunk.clone());
        Ok(chunk)
    }

    /// Allocation `base` is live in `block` (installed by a launch).
    pub fn set_live(&mut self, base: u64, block: Arc<Block>) {
        if let Some(a) = self.allocs.get_mut(&base) {
            a.live = Some(block);
        }
    }

    /// Allocation `base` is freed (by a free node or an automatic free at a launch on stream `Some(h)`,
    /// `cudaFreeAsync` on `Some(h)`, `cudaFree` by the host: `None`): it is released if nothing holds it any more.
    /// Its memory stays mapped to it (used) until a trim or another allocation takes it.
    pub fn set_freed(
        &mut self,
        memory: &crate::engine::memory::Memory,
        base: u64,
        on: Option<u64>,
    ) {
        let Some(a) = self.allocs.get_mut(&base) else {
            return;
        };
        a.live = None;
        a.freed_on = on;
        self.release_if_unheld(memory, base);
    }

    /// `cudaDeviceGraphMemTrim`: the device memory of `device`'s graph allocator that no live allocation uses goes
    /// back to the device.
    pub fn trim(&mut self, memory: &crate::engine::memory::Memory, device: u32) {
        let mut unmapped = 0;
        for a in self.allocs.values_mut() {
            if a.device == device && a.live.is_none() && a.physical.take().is_some() {
                unmapped += a.len;
            }
        }
        let d = self.device(device);
        let freed = unmapped + d.cache.drain(..).map(|(l, _)| l).sum::<u64>();
        d.used = d.used.saturating_sub(unmapped);
        d.reserved = d.reserved.saturating_sub(freed);
        memory.uncommit(device, freed);
    }

    /// An attribute of `device`'s graph allocator.
    pub fn attribute(&self, device: u32, attr: GraphMemAttr) -> u64 {
        let Some(d) = self.devices.get(&device) else {
            return 0;
        };
        match attr {
            GraphMemAttr::UsedMemCurrent => d.used,
            GraphMemAttr::UsedMemHigh => d.used_high,
            GraphMemAttr::ReservedMemCurrent => d.reserved,
            GraphMemAttr::ReservedMemHigh => d.reserved_high,
        }
    }

    /// Resets a high watermark of `device` (set to 0, the only value the vendor accepts): to 0 where the dialect's
    /// pools reset theirs to 0 (`to_zero`), else to the current value.
    pub fn reset_high(&mut self, device: u32, attr: GraphMemAttr, to_zero: bool) {
        let d = self.device(device);
        match attr {
            GraphMemAttr::UsedMemHigh => d.used_high = if to_zero { 0 } else { d.used },
            GraphMemAttr::ReservedMemHigh => d.reserved_high = if to_zero { 0 } else { d.reserved },
            _ => {}
        }
    }

    /// A reset of `device`: its graph allocations and allocator are gone (their graphs went with the device).
    pub fn reset_device(&mut self, memory: &crate::engine::memory::Memory, device: u32) {
        let gone: Vec<u64> = self
            .allocs
            .iter()
            .filter(|(_, a)| a.device == device)
            .map(|(&b, _)| b)
            .collect();
        for b in gone {
            let a = self.allocs.remove(&b).expect("listed");
            memory.release_addresses(device, b);
            if a.physical.is_some() {
                memory.uncommit(device, a.len);
            }
        }
        if let Some(d) = self.devices.remove(&device) {
            memory.uncommit(device, d.cache.iter().map(|(l, _)| l).sum());
        }
    }
}

/// Graph memory: the device-wide calls, and frees of graph allocations outside graphs.
impl crate::engine::process::Process {
    /// The address and size of allocation node `node` (its address is fixed when the node is made), or the
    /// address a free node frees (size 0). [`SimError::InvalidValue`] for another node type.
    pub fn graph_mem_node(
        &self,
        node: crate::engine::core::handle::GraphNode,
    ) -> Result<(DevicePtr, u64)> {
        match self.graph_node_view(node)?.op {
            NodeOp::MemAlloc { base, bytes } => Ok((DevicePtr(base), bytes)),
            NodeOp::MemFree { base } => Ok((DevicePtr(base), 0)),
            op => Err(invalid(
                "graph_mem_node",
                format!(
                    "node {:#x} is a {} node, not a memory node",
                    node.0,
                    op.node_type().dot_name()
                ),
            )),
        }
    }

    /// `cudaFree` of a graph allocation: `Ok(false)` if `ptr` is none. As `cudaFree` of pool memory, the work the
    /// calling thread has not observed is a use after free.
    pub(crate) fn free_graph_alloc_by_host(
        &self,
        c: &Call,
        site: &'static std::panic::Location<'static>,
        ptr: DevicePtr,
    ) -> Result<bool> {
        let what = crate::engine::core::calls::EngineCall::Free.name();
        let mut st = self.state();
        let Some(block) = st.graph_alloc_to_free(what, ptr.addr())? else {
            return Ok(false);
        };
        self.host_free_check(&mut st, c, site, &block)?;
        st.graphs.mem.set_freed(&self.m.memory, ptr.addr(), None);
        crate::engine::value_waits::state::forget(&mut st.words, block.base, block.len);
        Ok(true)
    }

    /// Gives device `device`'s graph memory that no live graph allocation uses back to the device
    /// (`cudaDeviceGraphMemTrim`).
    pub fn graph_mem_trim(&self, device: i64) -> Result<()> {
        self.call("device_graph_mem_trim", |_| {
            let d = self.m.check_device(device)?;
            self.state().graphs.mem.trim(&self.m.memory, d);
            Ok(())
        })
    }

    /// An attribute of device `device`'s graph memory (`cudaDeviceGetGraphMemAttribute`).
    pub fn graph_mem_attribute(&self, device: i64, attr: GraphMemAttr) -> Result<u64> {
        self.call("device_graph_mem_attribute", |_| {
            let d = self.m.check_device(device)?;
            Ok(self.state().graphs.mem.attribute(d, attr))
        })
    }

    /// Resets a high watermark of device `device`'s graph memory (`cudaDeviceSetGraphMemAttribute` with 0):
    /// [`SimError::InvalidValue`] for the current values, which cannot be set.
    pub fn reset_graph_mem_high(&self, device: i64, attr: GraphMemAttr) -> Result<()> {
        let what = "device_set_graph_mem_attribute";
        self.call(what, |_| {
            let d = self.m.check_device(device)?;
            if matches!(
                attr,
                GraphMemAttr::UsedMemCurrent | GraphMemAttr::ReservedMemCurrent
            ) {
                return Err(invalid(
                    what,
                    format!("{attr:?} cannot be set (only the high watermarks can be reset)"),
                ));
            }
            let to_zero = self.m.rules.pools.watermark_reset_to_zero;
            self.state().graphs.mem.reset_high(d, attr, to_zero);
            Ok(())
        })
    }
}

impl ProcState {
    /// A free of graph allocation `base` by the host or a stream (`cudaFree`, `cudaFreeAsync`) — `Ok(None)` if
    /// `base` is no graph allocation's address. [`SimError::InvalidAddress`] ("already freed") if it is not live,
    /// and [`SimError::InvalidValue`] if its own graph frees it ("These allocations cannot be freed outside the
    /// owning graph"). Gives the live block, which the caller frees in its way and then reports with
    /// [`GraphMem::set_freed`].
    pub(crate) fn graph_alloc_to_free(
        &self,
        what: &'static str,
        base: u64,
    ) -> Result<Option<Arc<Block>>> {
        let Some(a) = self.graphs.mem.get(base) else {
            return Ok(None);
        };
        if a.freed_in_owner {
            return Err(invalid(
                what,
                format!(
                    "the graph allocation at {base:#x} is freed by its own graph: it cannot be freed outside it"
                ),
            ));
        }
        match &a.live {
            Some(b) => Ok(Some(b.clone())),
            None => Err(SimError::InvalidAddress {
                what,
                addr: base,
                space: crate::engine::core::pointers::AddressSpace::Device(a.device),
                problem: "a graph allocation that is not allocated (freed already, or its graph not launched since)",
            }),
        }
    }
}
