//! Pitched copy and memset nodes: a copy of rows apart (`cudaGraphAddMemcpyNode` with pitches, a captured
//! `cudaMemcpy2DAsync` / `cudaMemcpy3DAsync`) and a memset of 3-D slices apart (a captured `cudaMemset3DAsync`
//! whose slices are padded; other pitched memsets are memset nodes of rows, `MemsetShaped`). At each launch the
//! node resolves its sides again and moves, and is race-checked by, the bytes of its rows, as the pitched
//! operations of `memory/pitched.rs` do. Rows and sources: `docs/semantics/graph-building.md`,
//! `docs/semantics/pitched-memory.md`.

use std::borrow::Cow;

use super::node::RowsNode;
use super::node::{Endpoint, Node};
use crate::engine::core::handle::StreamId;
use crate::engine::core::time::CopyPath;
use crate::engine::exec::Work;
use crate::engine::memory::block::Region;
use crate::engine::memory::rows::{Extent, Pitch, RowSrc, RowWork, row_offsets, row_regions};
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, Process};

impl Process {
    /// One launch's operation of a pitched node (`replay.rs`): its sides resolved now, the accesses its rows.
    pub(crate) fn prepare_rows(
        &self,
        c: &Call,
        n: &Node,
        r: &RowsNode,
        lane: StreamId,
    ) -> crate::engine::core::error::Result<OpSpec> {
        let mem = &self.m.memory;
        let span =
            |p: Pitch, e: Extent| crate::engine::memory::rows::span("pitched node", "node", p, e);
        match *r {
            RowsNode::Copy {
                dst,
                dp,
                src,
                sp,
                extent: e,
                path,
            } => {
                let what = "memcpy node";
                let region =
                    |end: Endpoint,
                     bytes: u64|
                     -> crate::engine::core::error::Result<Option<Region>> {
                        Ok(match end {
                            Endpoint::Device(p) => {
                                Some(mem.device_region(what, p, bytes, c.process)?)
                            }
                            Endpoint::Pinned(p) => {
                                Some(mem.pinned_region(what, p, bytes, c.process)?)
                            }
                            Endpoint::Pageable(_) => None,
                        })
                    };
                let mut accesses = Vec::new();
                let source = match (region(src, span(sp, e)?)?, src) {
                    (Some(reg), _) => {
                        row_regions(&reg, sp, e, false, &mut accesses);
                        RowSrc::Region(reg, sp)
                    }
                    (None, Endpoint::Pageable(addr)) => {
                        let mut packed = Vec::with_capacity(r.bytes() as usize);
                        for off in row_offsets(sp, e) {
                            // SAFETY: a pageable side comes only from the C API, whose caller keeps the rows
                            // valid for as long as the graph may run (the vendor's contract).
                            let row = unsafe {
                                std::slice::from_raw_parts(
                                    (addr + off as usize) as *const u8,
                                    e.width as usize,
                                )
                            };
                            packed.extend_from_slice(row);
                        }
                        RowSrc::Staged(packed)
                    }
                    (None, _) => unreachable!("only pageable sides have no region"),
                };
                let work = match (region(dst, span(dp, e)?)?, dst) {
                    (Some(reg), _) => {
                        row_regions(&reg, dp, e, true, &mut accesses);
                        Work::Rows(Box::new(RowWork::Copy {
                            src: source,
                            dst: reg,
                            pitch: dp,
                            extent: e,
                        }))
                    }
                    (None, Endpoint::Pageable(addr)) => {
                        let body: crate::engine::kernels::kernel::KernelBody =
                            Box::new(move |_| {
                                let w = e.width as usize;
                                let mut row = vec![0u8; w];
                                let mut staged = match &source {
                                    RowSrc::Staged(b) => Some(b.chunks_exact(w)),
                                    RowSrc::Region(..) => None,
                                };
                                let mut from = match &source {
                                    RowSrc::Region(s, p) => Some((s, row_offsets(*p, e))),
                                    RowSrc::Staged(_) => None,
                                };
                                for off in row_offsets(dp, e) {
                                    if let Some(chunks) = staged.as_mut() {
                                        row.copy_from_slice(
                                            chunks.next().expect("one staged row per row"),
                                        );
                                    } else if let Some((s, offs)) = from.as_mut() {
                                        let so = offs.next().expect("one source row per row");
                                        s.block.read(s.offset + so, &mut row);
                                    }
                                    // SAFETY: as for the source: the C caller keeps the rows valid while the graph
                                    // may run.
                                    unsafe {
                                        std::ptr::copy_nonoverlapping(
                                            row.as_ptr(),
                                            (addr + off as usize) as *mut u8,
                                            w,
                                        )
                                    };
                                }
                                Ok(())
                            });
                        Work::Kernel(body, Vec::new(), None)
                    }
                    (None, _) => unreachable!("only pageable sides have no region"),
                };
                let who = self.node_who(lane, "memcpy", n, &accesses);
                let bytes = r.bytes();
                Ok(OpSpec::new(
                    self.m.cost.copy_nanos(path, bytes),
                    Cow::Borrowed(what),
                    OpKind::Memcpy { path, bytes },
                    work,
                )
                .accesses(accesses, who))
            }
            RowsNode::Fill {
                dst,
                p,
                value,
                extent: e,
            } => {
                let what = "memset node";
                let reg = mem.device_region(what, dst, span(p, e)?, c.process)?;
                let mut accesses = Vec::new();
                row_regions(&reg, p, e, true, &mut accesses);
                let who = self.node_who(lane, "memset", n, &accesses);
                let bytes = r.bytes();
                Ok(OpSpec::new(
                    self.m.cost.copy_nanos(CopyPath::OnDevice, bytes),
                    Cow::Borrowed(what),
                    OpKind::Memset { bytes },
                    Work::Rows(Box::new(RowWork::Fill {
                        dst: reg,
                        pitch: p,
                        extent: e,
                        value,
                    })),
                )
                .accesses(accesses, who))
            }
        }
    }
}
