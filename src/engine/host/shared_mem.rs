//! Exported device memory on a shared host: the slot of an exported allocation and the shared-memory object
//! that holds its bytes (named after the host, the slot's name id and the run's epoch).

use std::sync::atomic::Ordering;

use super::layout::*;
use super::segment::{self, Seg};

/// The shared-memory object holding the bytes of the allocation exported in slot `x` as `name_id`.
pub(crate) fn mem_object(object: &str, name_id: u64) -> String {
    format!("{object}.m{name_id:016x}")
}

/// Frees memory slot `x`: its object's name goes (importers keep their mappings).
pub(crate) fn free_mem_slot(seg: &Seg, object: &str, x: u32) {
    let id = seg.u64(mem(x, X_NAME_ID)).load(Ordering::Acquire);
    segment::unlink(&mem_object(object, id));
    seg.u32(mem(x, X_USED)).store(0, Ordering::Release);
    seg.u32(mem(x, X_GEN)).fetch_add(1, Ordering::AcqRel);
}
