//! The geometry of pitched memory: the extent of a pitched copy or memset and the pitches of its sides, the rows
//! and runs of bytes they make, the span a side covers, the regions the race detector sees, and what a pitched
//! operation does when it runs (`RowWork`). Used by the pitched calls (`pitched.rs`) and the pitched graph nodes
//! (`graph/rows.rs`).

use std::sync::Arc;

use parking_lot::Mutex;

use crate::engine::core::error::{Result, SimError};
use crate::engine::memory::block::{Block, Region};

/// The size of a pitched copy or memset: `depth` slices of `height` rows of `width` bytes (`cudaExtent` of
/// linear memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extent {
    /// Bytes per row.
    pub width: u64,
    /// Rows per slice.
    pub height: u64,
    /// Slices.
    pub depth: u64,
}

impl Extent {
    /// `depth` slices of `height` rows of `width` bytes.
    pub const fn new(width: u64, height: u64, depth: u64) -> Extent {
        Extent {
            width,
            height,
            depth,
        }
    }

    /// One slice of `height` rows of `width` bytes (a 2-D copy).
    pub const fn rows(width: u64, height: u64) -> Extent {
        Extent::new(width, height, 1)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0 || self.depth == 0
    }
}

/// How one side of a pitched copy lays out its rows: `pitch` bytes from the start of a row to the start of the
/// next, `slice` bytes from the start of a slice to the start of the next (`pitch × rows per slice`; unused when
/// the copy has one slice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pitch {
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// Bytes from one slice to the next.
    pub slice: u64,
}

impl Pitch {
    /// Rows `pitch` bytes apart, one slice (a 2-D layout).
    pub const fn rows(pitch: u64) -> Pitch {
        Pitch { pitch, slice: 0 }
    }

    /// Rows `pitch` bytes apart, slices of `rows_per_slice` rows (a `cudaPitchedPtr` with `ysize`).
    pub const fn slices(pitch: u64, rows_per_slice: u64) -> Pitch {
        Pitch {
            pitch,
            slice: pitch.saturating_mul(rows_per_slice),
        }
    }
}

/// The byte offset of every row of `e` in a side laid out as `p`, from the first row's first byte, in order.
pub(crate) fn row_offsets(p: Pitch, e: Extent) -> impl Iterator<Item = u64> {
    rows(p, e)
}

fn rows(p: Pitch, e: Extent) -> impl Iterator<Item = u64> {
    (0..e.depth).flat_map(move |z| (0..e.height).map(move |y| z * p.slice + y * p.pitch))
}

/// The runs of contiguous bytes the rows of `e` make in a side laid out as `p` (offset, length): one run when
/// the rows are packed, one per row when there is padding.
pub(crate) fn runs(p: Pitch, e: Extent) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for off in rows(p, e) {
        match out.last_mut() {
            Some(last) if last.0 + last.1 == off => last.1 += e.width,
            _ => out.push((off, e.width)),
        }
    }
    out
}

/// Checks one side's layout against the extent and returns its span: the bytes from the first row's first byte
/// to the last row's last byte.
/// An empty extent spans nothing.
pub(crate) fn span(what: &'static str, side: &str, p: Pitch, e: Extent) -> Result<u64> {
    if e.width > p.pitch {
        return Err(SimError::InvalidPitch {
            what,
            reason: format!(
                "the {side} pitch ({} bytes) is smaller than the width ({} bytes)",
                p.pitch, e.width
            ),
        });
    }
    if e.depth > 1 && p.slice < p.pitch.saturating_mul(e.height) {
        return Err(SimError::InvalidValue {
            what,
            reason: format!(
                "the {side}'s slices ({} bytes apart) are smaller than {} rows of {} bytes",
                p.slice, e.height, p.pitch
            ),
        });
    }
    if e.is_empty() {
        return Ok(0);
    }
    (e.depth - 1)
        .checked_mul(p.slice)
        .and_then(|a| {
            (e.height - 1)
                .checked_mul(p.pitch)
                .and_then(|b| a.checked_add(b))
        })
        .and_then(|a| a.checked_add(e.width))
        .ok_or_else(|| SimError::InvalidValue {
            what,
            reason: format!("the {side}'s rows run past the end of the address space"),
        })
}

/// The regions of `r` (a side's span) that the rows touch, for the race detector.
pub(crate) fn row_regions(
    r: &Region,
    p: Pitch,
    e: Extent,
    write: bool,
    out: &mut Vec<(Region, bool)>,
) {
    for (off, len) in runs(p, e) {
        out.push((
            Region {
                block: r.block.clone(),
                offset: r.offset + off,
                len,
            },
            write,
        ));
    }
}

/// Where a pitched copy's rows come from when it runs.
pub(crate) enum RowSrc {
    /// The rows of a region (a side's span) laid out as the pitch says.
    Region(Region, Pitch),
    /// Rows staged at the call from pageable memory, packed.
    Staged(Vec<u8>),
}

/// What a pitched copy or memset does when it runs (`Work::Rows`).
pub(crate) enum RowWork {
    /// Rows into a region (a side's span).
    Copy {
        src: RowSrc,
        dst: Region,
        pitch: Pitch,
        extent: Extent,
    },
    /// Rows of a region read, packed, and handed to the waiting host call (a pageable destination).
    Out {
        src: Region,
        pitch: Pitch,
        extent: Extent,
        out: Arc<Mutex<Vec<u8>>>,
    },
    /// Rows of a region set to a value.
    Fill {
        dst: Region,
        pitch: Pitch,
        extent: Extent,
        value: u8,
    },
}

impl RowWork {
    /// Moves the bytes (on the stream's worker).
    pub(crate) fn run(self) {
        match self {
            RowWork::Copy {
                src,
                dst,
                pitch,
                extent,
            } => {
                let w = extent.width;
                match src {
                    RowSrc::Region(s, sp) => {
                        for (so, d) in rows(sp, extent).zip(rows(pitch, extent)) {
                            Block::copy(&s.block, s.offset + so, &dst.block, dst.offset + d, w);
                        }
                    }
                    RowSrc::Staged(bytes) => {
                        for (row, d) in bytes.chunks_exact(w as usize).zip(rows(pitch, extent)) {
                            dst.block.write(dst.offset + d, row);
                        }
                    }
                }
            }
            RowWork::Out {
                src,
                pitch,
                extent,
                out,
            } => {
                let w = extent.width as usize;
                let mut buf = vec![0u8; w * (extent.height * extent.depth) as usize];
                for (row, so) in buf.chunks_exact_mut(w).zip(rows(pitch, extent)) {
                    src.block.read(src.offset + so, row);
                }
                *out.lock() = buf;
            }
            RowWork::Fill {
                dst,
                pitch,
                extent,
                value,
            } => {
                for d in rows(pitch, extent) {
                    dst.block.fill(dst.offset + d, extent.width, value);
                }
            }
        }
    }
}
