//! Pitched memory: allocations whose rows are padded to an alignment (`cudaMallocPitch`, `cudaMalloc3D`), and
//! copies and memsets of rectangles and boxes of rows (`cudaMemcpy2D`, `cudaMemcpy3D`, `cudaMemset2D`,
//! `cudaMemset3D`, their `Async` forms; the rows of `docs/semantics/pitched-memory.md`).
//!
//! A pitched operation is one operation on its stream, like a 1-D copy: it takes the path a 1-D copy between the
//! same memories would take (peer link or staged through the host, `copies.rs`), and costs what a 1-D copy of
//! the bytes it moves costs (one latency, then `width × height × depth` bytes at the path's bandwidth: the
//! padding between rows is not moved). The race detector sees the rows it touches, not their bounding box, so
//! two copies into interleaved rows of one allocation do not race. Pageable host memory is handled as for 1-D
//! copies: a source is staged at the call, a destination makes the call wait for the copy. An `Async` call on a
//! capturing stream makes a pitched node (`graph/rows.rs`; a memset of rows of one pitch, a memset node of
//! rows); the synchronous calls are refused in a capture (`CaptureProblem::Unsupported`).

use std::borrow::Cow;
use std::panic::Location;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::{CaptureProblem, Result, SimError};
use crate::engine::core::handle::Stream;
use crate::engine::core::pointers::{AddressSpace, DevicePtr, Dst, Src};
use crate::engine::core::time::CopyPath;
use crate::engine::devices::config::Attribute;
use crate::engine::exec::Work;
use crate::engine::graph::MemsetShape;
use crate::engine::graph::gate::Route;
use crate::engine::graph::node::RowsNode;
use crate::engine::graph::node::{Endpoint, NodeOp};
use crate::engine::memory::block::Region;
use crate::engine::memory::copies::host_range;
pub use crate::engine::memory::rows::{Extent, Pitch};
pub(crate) use crate::engine::memory::rows::{RowSrc, RowWork, row_offsets, row_regions, span};
use crate::engine::observe::trace::OpKind;
use crate::engine::process::{Call, OpSpec, Process};

/// A synchronous pitched copy or memset on a capturing stream: refused, invalidating the capture
/// (`docs/semantics/pitched-memory.md`).
fn refuse_in_capture(
    m: &crate::engine::machine::Shared,
    st: &mut crate::engine::process::ProcState,
    h: u64,
    what: &'static str,
) -> Result<()> {
    if let Route::Capture(cid) = st.capture_route(m, h, what)? {
        let id = st.streams.get(h)?.id;
        return Err(st.capture_refusal(m, &[cid], what, Some(id), CaptureProblem::Unsupported));
    }
    Ok(())
}

/// Where a pitched copy's destination is, resolved at the call.
enum RowOut<'a> {
    Region(Region),
    Host(&'a mut [u8]),
}

impl Process {
    /// Allocates `height` rows of `width` bytes on the current device, each row padded to the device's
    /// `TexturePitchAlignment` (32 bytes in the default profile): returns the memory and its pitch
    /// (`cudaMallocPitch`). Zero bytes is `InvalidValue`, as for [`Process::malloc`].
    pub fn malloc_pitch(&self, width: u64, height: u64) -> Result<(DevicePtr, u64)> {
        self.pitched_malloc(EngineCall::MallocPitch.name(), Extent::rows(width, height))
    }

    /// Allocates `depth` slices of `height` rows of `width` bytes, rows padded as by
    /// [`Process::malloc_pitch`] (`cudaMalloc3D`): returns the memory and its pitch.
    pub fn malloc_3d(&self, extent: Extent) -> Result<(DevicePtr, u64)> {
        self.pitched_malloc(EngineCall::Malloc3D.name(), extent)
    }

    /// The pitch `width`-byte rows get on `device` (`TexturePitchAlignment`), `None` if it overflows.
    pub fn pitch_for(&self, device: u32, width: u64) -> Option<u64> {
        let align = self.pitch_alignment(device);
        width.div_ceil(align).checked_mul(align)
    }

    fn pitch_alignment(&self, device: u32) -> u64 {
        self.m
            .devices
            .get(device as usize)
            .and_then(|d| d.attributes.get(&Attribute::TexturePitchAlignment))
            .map_or(1, |&a| a.max(1) as u64)
    }

    fn pitched_malloc(&self, what: &'static str, e: Extent) -> Result<(DevicePtr, u64)> {
        self.call(what, |c| {
            self.check_unsafe_call(c, what)?;
            if e.is_empty() {
                return Err(SimError::InvalidValue {
                    what,
                    reason: "size 0".into(),
                });
            }
            let (device, _) = self.state().current(&self.m, c, what)?;
            // A width whose padded pitch overflows is refused as a value (CUDA's answer: hip-tests'
            // hipMallocPitch.cc, its HT_NVIDIA sections); an overflowing size is more than any device
            // holds: the allocation reports it.
            let pitch = self
                .pitch_for(device, e.width)
                .ok_or_else(|| SimError::InvalidValue {
                    what,
                    reason: format!("a width of {} bytes has no pitch", e.width),
                })?;
            let bytes = pitch.saturating_mul(e.height).saturating_mul(e.depth);
            let ptr = self.m.memory.malloc(device, bytes, c.process)?;
            Ok((ptr, pitch))
        })
    }

    /// Copies `height` rows of `width` bytes, `spitch` bytes apart in the source and `dpitch` in the
    /// destination, and returns when they have arrived (`cudaMemcpy2D`; ordered on the default stream).
    #[track_caller]
    pub fn memcpy_2d<'a>(
        &self,
        dst: impl Into<Dst<'a>>,
        dpitch: u64,
        src: impl Into<Src<'a>>,
        spitch: u64,
        width: u64,
        height: u64,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        let what = EngineCall::Memcpy2D.name();
        let e = Extent::rows(width, height);
        self.call(what, |c| {
            let (dp, sp) = (Pitch::rows(dpitch), Pitch::rows(spitch));
            self.copy_rows(c, (what, site), (dst, dp), (src, sp), e, None, false)
        })
    }

    /// Enqueues a 2-D copy on `stream` (`cudaMemcpy2DAsync`; see [`Process::memcpy_2d`]).
    #[track_caller]
    #[allow(
        clippy::too_many_arguments,
        reason = "the vendor's argument list (cudaMemcpy2DAsync)"
    )]
    pub fn memcpy_2d_async<'a>(
        &self,
        dst: impl Into<Dst<'a>>,
        dpitch: u64,
        src: impl Into<Src<'a>>,
        spitch: u64,
        width: u64,
        height: u64,
        stream: Stream,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        let what = EngineCall::Memcpy2DAsync.name();
        let e = Extent::rows(width, height);
        self.call(what, |c| {
            let (dp, sp) = (Pitch::rows(dpitch), Pitch::rows(spitch));
            self.copy_rows(
                c,
                (what, site),
                (dst, dp),
                (src, sp),
                e,
                Some(stream),
                false,
            )
        })
    }

    /// Copies a box of `extent` from `src` (laid out as `sp`) to `dst` (laid out as `dp`), and returns when it
    /// has arrived (`cudaMemcpy3D` of linear memory; ordered on the default stream). `dst` and `src` are the
    /// first byte of the box on each side (the `cudaPos` already applied).
    #[track_caller]
    pub fn memcpy_3d<'a>(
        &self,
        (dst, dp): (impl Into<Dst<'a>>, Pitch),
        (src, sp): (impl Into<Src<'a>>, Pitch),
        extent: Extent,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        let what = EngineCall::Memcpy3D.name();
        self.call(what, |c| {
            self.copy_rows(c, (what, site), (dst, dp), (src, sp), extent, None, false)
        })
    }

    /// Enqueues a 3-D copy on `stream` (`cudaMemcpy3DAsync`; see [`Process::memcpy_3d`]).
    #[track_caller]
    pub fn memcpy_3d_async<'a>(
        &self,
        (dst, dp): (impl Into<Dst<'a>>, Pitch),
        (src, sp): (impl Into<Src<'a>>, Pitch),
        extent: Extent,
        stream: Stream,
    ) -> Result<()> {
        let (dst, src, site) = (dst.into(), src.into(), Location::caller());
        let what = EngineCall::Memcpy3DAsync.name();
        self.call(what, |c| {
            self.copy_rows(
                c,
                (what, site),
                (dst, dp),
                (src, sp),
                extent,
                Some(stream),
                false,
            )
        })
    }

    /// [`Process::memcpy_2d_async`] / [`Process::memcpy_3d_async`] for the C API (`what` says which): a
    /// capturing stream may keep pageable host memory in its graph (a node that reads the source rows at each
    /// launch and writes the destination rows when it runs).
    ///
    /// # Safety
    /// The pageable rows of `dst` and `src` stay valid for as long as a graph captured from this call can run
    /// (the vendor's contract for a captured copy).
    #[track_caller]
    pub(crate) unsafe fn memcpy_rows_async_c<'a>(
        &self,
        what: EngineCall,
        (dst, dp): (Dst<'a>, Pitch),
        (src, sp): (Src<'a>, Pitch),
        extent: Extent,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        let what = what.name();
        self.call(what, |c| {
            self.copy_rows(
                c,
                (what, site),
                (dst, dp),
                (src, sp),
                extent,
                Some(stream),
                true,
            )
        })
    }

    /// Sets `height` rows of `width` bytes, `pitch` bytes apart, to `value` and returns when done
    /// (`cudaMemset2D`; ordered on the default stream).
    #[track_caller]
    pub fn memset_2d(
        &self,
        ptr: DevicePtr,
        pitch: u64,
        value: u8,
        width: u64,
        height: u64,
    ) -> Result<()> {
        let site = Location::caller();
        let what = EngineCall::Memset2D.name();
        let e = Extent::rows(width, height);
        self.call(what, |c| {
            self.fill_rows(c, (what, site), ptr, Pitch::rows(pitch), value, e, None)
        })
    }

    /// Enqueues a 2-D memset on `stream` (`cudaMemset2DAsync`).
    #[track_caller]
    pub fn memset_2d_async(
        &self,
        ptr: DevicePtr,
        pitch: u64,
        value: u8,
        width: u64,
        height: u64,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        let what = EngineCall::Memset2DAsync.name();
        let e = Extent::rows(width, height);
        self.call(what, |c| {
            let p = Pitch::rows(pitch);
            self.fill_rows(c, (what, site), ptr, p, value, e, Some(stream))
        })
    }

    /// Sets a box of `extent` laid out as `p` to `value` and returns when done (`cudaMemset3D`).
    #[track_caller]
    pub fn memset_3d(&self, ptr: DevicePtr, p: Pitch, value: u8, extent: Extent) -> Result<()> {
        let site = Location::caller();
        let what = EngineCall::Memset3D.name();
        self.call(what, |c| {
            self.fill_rows(c, (what, site), ptr, p, value, extent, None)
        })
    }

    /// Enqueues a 3-D memset on `stream` (`cudaMemset3DAsync`).
    #[track_caller]
    pub fn memset_3d_async(
        &self,
        ptr: DevicePtr,
        p: Pitch,
        value: u8,
        extent: Extent,
        stream: Stream,
    ) -> Result<()> {
        let site = Location::caller();
        let what = EngineCall::Memset3DAsync.name();
        self.call(what, |c| {
            self.fill_rows(c, (what, site), ptr, p, value, extent, Some(stream))
        })
    }

    /// The device's largest pitch (`MaxPitch`, `cudaDevAttrMaxPitch`); `pitch` above it is refused.
    fn check_max_pitch(&self, what: &'static str, device: u32, pitch: u64) -> Result<()> {
        let max = self
            .m
            .devices
            .get(device as usize)
            .and_then(|d| d.attributes.get(&Attribute::MaxPitch))
            .map_or(u64::MAX, |&m| m.max(0) as u64);
        if pitch > max {
            return Err(SimError::InvalidPitch {
                what,
                reason: format!(
                    "a pitch of {pitch} bytes exceeds device {device}'s maximum pitch ({max} bytes)"
                ),
            });
        }
        Ok(())
    }

    /// One entry for the pitched copies: `stream` `None` is the synchronous call on the default stream; `raw`:
    /// the C API's call, whose pageable memory a capture may keep.
    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for five calls"
    )]
    fn copy_rows(
        &self,
        c: &mut Call,
        (what, site): (&'static str, &'static Location<'static>),
        (dst, dp): (Dst<'_>, Pitch),
        (src, sp): (Src<'_>, Pitch),
        e: Extent,
        stream: Option<Stream>,
        raw: bool,
    ) -> Result<()> {
        let sync = stream.is_none();
        // Device to device on one device, the synchronous call does not make the host wait ([API-SYNC]: "no
        // host-side synchronization is performed"); it is still ordered as a legacy-stream operation. Across
        // devices the call still waits (sim): the simulator orders the copy on one device's legacy stream, where
        // CUDA serializes it with both devices' work, so a later call on the other device must find it done.
        let same_device = matches!((&dst, &src), (Dst::Device(d), Src::Device(s))
            if d.device().is_some() && d.device() == s.device());
        let host_waits = sync && !same_device;
        // The sides as a graph node keeps them (a capture).
        let ends = (
            match &dst {
                Dst::Device(p) => Endpoint::Device(*p),
                Dst::Pinned(p) => Endpoint::Pinned(*p),
                Dst::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
            },
            match &src {
                Src::Device(p) => Endpoint::Device(*p),
                Src::Pinned(p) => Endpoint::Pinned(*p),
                Src::Host(s) => Endpoint::Pageable(s.as_ptr() as usize),
            },
        );
        let (dspan, sspan) = (
            span(what, "destination", dp, e)?,
            span(what, "source", sp, e)?,
        );
        if e.is_empty() {
            return Ok(());
        }
        if sync {
            self.check_unsafe_call(c, what)?;
        }
        let mem = &self.m.memory;
        let total = e.width * e.height * e.depth;
        let (source, sspace) = match src {
            Src::Device(p) => {
                let r = mem.device_region(what, p, sspan, c.process)?;
                let space = r.block.space;
                (RowSrc::Region(r, sp), space)
            }
            Src::Pinned(p) => (
                RowSrc::Region(mem.pinned_region(what, p, sspan, c.process)?, sp),
                AddressSpace::PinnedHost,
            ),
            Src::Host(s) => {
                host_range(what, s.as_ptr() as usize, s.len(), sspan)?;
                let mut packed = Vec::with_capacity(total as usize);
                for off in row_offsets(sp, e) {
                    packed.extend_from_slice(&s[off as usize..(off + e.width) as usize]);
                }
                (RowSrc::Staged(packed), AddressSpace::PageableHost)
            }
        };
        let (out, dspace) = match dst {
            Dst::Device(p) => {
                let r = mem.device_region(what, p, dspan, c.process)?;
                let space = r.block.space;
                (RowOut::Region(r), space)
            }
            Dst::Pinned(p) => (
                RowOut::Region(mem.pinned_region(what, p, dspan, c.process)?),
                AddressSpace::PinnedHost,
            ),
            Dst::Host(s) => {
                host_range(what, s.as_ptr() as usize, s.len(), dspan)?;
                (RowOut::Host(s), AddressSpace::PageableHost)
            }
        };
        let mut accesses = Vec::new();
        if let RowSrc::Region(r, p) = &source {
            row_regions(r, *p, e, false, &mut accesses);
        }
        if let RowOut::Region(r) = &out {
            row_regions(r, dp, e, true, &mut accesses);
        }
        let bases = (
            match &source {
                RowSrc::Region(r, _) => Some(r.block.base),
                RowSrc::Staged(_) => None,
            },
            match &out {
                RowOut::Region(r) => Some(r.block.base),
                RowOut::Host(_) => None,
            },
        );
        let back = Arc::new(Mutex::new(Vec::new()));
        let (work, host_out) = match (out, source) {
            (RowOut::Region(dst), src) => (
                Work::Rows(Box::new(RowWork::Copy {
                    src,
                    dst,
                    pitch: dp,
                    extent: e,
                })),
                None,
            ),
            (RowOut::Host(slice), RowSrc::Region(src, pitch)) => (
                Work::Rows(Box::new(RowWork::Out {
                    src,
                    pitch,
                    extent: e,
                    out: back.clone(),
                })),
                Some(slice),
            ),
            (RowOut::Host(slice), RowSrc::Staged(bytes)) => {
                // Pageable to pageable: the bytes move on the host, once the copy is accepted.
                *back.lock() = bytes;
                (Work::Nothing, Some(slice))
            }
        };
        let point = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.unwrap_or(Stream::DEFAULT).0)?;
            if !sync {
                st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            }
            let device = st.streams.get(h)?.device;
            self.check_max_pitch(what, device, dp.pitch.max(sp.pitch))?;
            let path = self.route_path(&st, h, what, (sspace, bases.0), (dspace, bases.1))?;
            if sync {
                refuse_in_capture(&self.m, &mut st, h, what)?;
            } else if let Route::Capture(cid) = st.capture_route(&self.m, h, what)? {
                let pageable = |e: Endpoint| matches!(e, Endpoint::Pageable(_));
                if pageable(ends.0) || pageable(ends.1) {
                    if !self.m.rules.capture.pageable_copies {
                        let id = st.streams.get(h)?.id;
                        return Err(SimError::Capture {
                            what,
                            stream: Some(id),
                            problem: CaptureProblem::PageableCopy,
                        });
                    }
                    if !raw {
                        return Err(SimError::NotSupported {
                            what,
                            reason: "a copy of pageable host memory (a borrowed slice) cannot be captured \
                                     through the Rust API: the graph would outlive the borrow (use pinned \
                                     memory; the C API captures it)"
                                .into(),
                        });
                    }
                }
                let op = NodeOp::Rows(RowsNode::Copy {
                    dst: ends.0,
                    dp,
                    src: ends.1,
                    sp,
                    extent: e,
                    path,
                });
                return st.capture_node(cid, h, op, site).map(drop);
            }
            let who = self.who(&mut st, h, "memcpy", what, site, &accesses)?;
            Self::who_back(&mut st, h, who.clone());
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    self.m.cost.copy_nanos(path, total),
                    Cow::Borrowed(what),
                    OpKind::Memcpy { path, bytes: total },
                    work,
                )
                .accesses(accesses, who)
                .synchronous(sync),
            )?;
            if host_waits || host_out.is_some() {
                st.with_clock(h, point)?
            } else {
                point
            }
        };
        if host_waits || host_out.is_some() {
            self.wait_for_copy(c, what, &point)?;
        }
        if let Some(slice) = host_out {
            let data = back.lock();
            let w = e.width as usize;
            for (row, off) in data.chunks_exact(w).zip(row_offsets(dp, e)) {
                slice[off as usize..off as usize + w].copy_from_slice(row);
            }
        }
        Ok(())
    }

    /// One entry for the pitched memsets of device memory.
    #[allow(
        clippy::too_many_arguments,
        reason = "one internal entry for four public calls"
    )]
    fn fill_rows(
        &self,
        c: &mut Call,
        (what, site): (&'static str, &'static Location<'static>),
        ptr: DevicePtr,
        p: Pitch,
        value: u8,
        e: Extent,
        stream: Option<Stream>,
    ) -> Result<()> {
        let sync = stream.is_none();
        let dspan = span(what, "destination", p, e)?;
        if e.is_empty() {
            return Ok(());
        }
        if sync {
            self.check_unsafe_call(c, what)?;
        }
        let dst = self.m.memory.device_region(what, ptr, dspan, c.process)?;
        let total = e.width * e.height * e.depth;
        let mut accesses = Vec::new();
        row_regions(&dst, p, e, true, &mut accesses);
        let point = {
            let mut st = self.state();
            let h = st.resolve_stream(&self.m, c, stream.unwrap_or(Stream::DEFAULT).0)?;
            if !sync {
                st.check_owner(&self.m, c, what, self.m.rules.owned.memcpy_async, h)?;
            }
            let device = st.streams.get(h)?.device;
            self.check_max_pitch(what, device, p.pitch)?;
            // As a 1-D memset: on the device (`copies.rs`).
            let path = CopyPath::OnDevice;
            if sync {
                refuse_in_capture(&self.m, &mut st, h, what)?;
            } else if let Route::Capture(cid) = st.capture_route(&self.m, h, what)? {
                // Rows of one pitch are a memset node of rows; slices padded apart, a pitched node.
                let op = if e.depth <= 1 || p.slice == p.pitch * e.height {
                    NodeOp::MemsetShaped {
                        dst: ptr,
                        shape: MemsetShape {
                            pitch: p.pitch,
                            value: u32::from(value),
                            element_size: 1,
                            width: e.width,
                            height: e.height * e.depth,
                        },
                    }
                } else {
                    NodeOp::Rows(RowsNode::Fill {
                        dst: ptr,
                        p,
                        value,
                        extent: e,
                    })
                };
                return st.capture_node(cid, h, op, site).map(drop);
            }
            let who = self.who(&mut st, h, "memset", what, site, &accesses)?;
            Self::who_back(&mut st, h, who.clone());
            let point = st.enqueue(
                &self.m,
                c,
                h,
                OpSpec::new(
                    self.m.cost.copy_nanos(path, total),
                    Cow::Borrowed(what),
                    OpKind::Memset { bytes: total },
                    Work::Rows(Box::new(RowWork::Fill {
                        dst,
                        pitch: p,
                        extent: e,
                        value,
                    })),
                )
                .accesses(accesses, who)
                .synchronous(sync),
            )?;
            if sync {
                st.with_clock(h, point)?
            } else {
                point
            }
        };
        if sync {
            self.wait_for_copy(c, what, &point)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::memory::rows::runs;

    #[test]
    fn rows_merge_into_runs_only_when_packed() {
        let e = Extent::new(4, 3, 2);
        assert_eq!(runs(Pitch::slices(4, 3), e), vec![(0, 24)]);
        assert_eq!(
            runs(Pitch::slices(8, 3), e),
            vec![(0, 4), (8, 4), (16, 4), (24, 4), (32, 4), (40, 4)]
        );
        // Packed rows, padded slices: one run per slice.
        assert_eq!(runs(Pitch::slices(4, 4), e), vec![(0, 12), (16, 12)]);
    }

    #[test]
    fn span_checks_pitch_and_slices() {
        let w = "t";
        assert_eq!(
            span(w, "s", Pitch::rows(8), Extent::rows(4, 3)).unwrap(),
            20
        );
        assert!(matches!(
            span(w, "s", Pitch::rows(3), Extent::rows(4, 3)),
            Err(SimError::InvalidPitch { .. })
        ));
        assert!(matches!(
            span(w, "s", Pitch::slices(8, 2), Extent::new(4, 3, 2)),
            Err(SimError::InvalidValue { .. })
        ));
        assert_eq!(
            span(w, "s", Pitch::slices(8, 3), Extent::new(4, 3, 2)).unwrap(),
            24 + 16 + 4
        );
    }
}
