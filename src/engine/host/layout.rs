//! The fixed layout of the shared segment: where every table and field is. Every offset is computed from these
//! constants and an index checked against its table's length, never from a value read out of the segment.

/// `SSIMHST1`, little-endian.
pub(crate) const MAGIC: u64 = u64::from_le_bytes(*b"SSIMHST1");
/// The layout's version: a segment of another version is not used (it is re-made when nobody is attached).
pub(crate) const VERSION: u32 = 1;

// The header.
pub(crate) const H_MAGIC: usize = 0;
pub(crate) const H_VERSION: usize = 8;
pub(crate) const H_READY: usize = 12;
pub(crate) const H_SIZE: usize = 16;
pub(crate) const H_EPOCH: usize = 24;
pub(crate) const H_SECRET: usize = 32;
pub(crate) const H_NEXT_UID: usize = 40;
pub(crate) const H_CONFIG_LEN: usize = 44;
pub(crate) const H_CONFIG_HASH: usize = 48;
pub(crate) const H_TABLE_LOCK: usize = 56;
pub(crate) const H_CONFIG: usize = 128;
pub(crate) const CONFIG_CAP: usize = 2048;
const HEADER_LEN: usize = 4096;

// Members: the OS processes' machines attached to the host.
pub(crate) const MEMBERS: usize = 64;
pub(crate) const MEMBER_BASE: usize = HEADER_LEN;
const MEMBER_LEN: usize = 64;
pub(crate) const M_UID: usize = 0;
pub(crate) const M_PID: usize = 4;

/// Member `i`'s field `f`.
pub(crate) fn member(i: u32, f: usize) -> usize {
    assert!((i as usize) < MEMBERS);
    MEMBER_BASE + i as usize * MEMBER_LEN + f
}

/// The record-lock byte of the segment object that guards joining and leaving.
pub(crate) const INIT_LOCK_BYTE: i64 = 0;

/// The record-lock byte member `i` holds while it lives.
pub(crate) fn liveness_byte(i: u32) -> i64 {
    1 + i64::from(i)
}

// Exported events.
pub(crate) const EVENTS: usize = 1024;
pub(crate) const EVENT_BASE: usize = MEMBER_BASE + MEMBERS * MEMBER_LEN;
const EVENT_LEN: usize = 4096;
pub(crate) const E_GEN: usize = 0;
pub(crate) const E_USED: usize = 4;
pub(crate) const E_EXPORTER: usize = 8;
pub(crate) const E_CONFIG: usize = 12;
pub(crate) const E_HOLDERS: usize = 16;
pub(crate) const E_VERSION: usize = 24;
pub(crate) const E_LOCK: usize = 28;
pub(crate) const E_RECORDS: usize = 32;
pub(crate) const E_WAITERS: usize = 40;
// The latest record.
pub(crate) const R_PRESENT: usize = 64;
pub(crate) const R_MEMBER_UID: usize = 68;
pub(crate) const R_MEMBER_IDX: usize = 72;
pub(crate) const R_STREAM_SLOT: usize = 76;
pub(crate) const R_STREAM_GEN: usize = 80;
pub(crate) const R_TIME_KNOWN: usize = 84;
pub(crate) const R_SEQ: usize = 88;
pub(crate) const R_TIME: usize = 96;
pub(crate) const R_LOCAL_GEN: usize = 104;
pub(crate) const R_PROCESS: usize = 112;
pub(crate) const R_DEVICE: usize = 116;
pub(crate) const R_KIND: usize = 120;
pub(crate) const R_CLOCK_LEN: usize = 128;
pub(crate) const R_PID: usize = 132;
pub(crate) const R_CLOCK: usize = 136;
/// How many (member, actor, count) entries a record's clock can carry.
pub(crate) const CLOCK_CAP: usize = (EVENT_LEN - R_CLOCK) / 16;

/// Event slot `i`'s field `f`.
pub(crate) fn event(i: u32, f: usize) -> usize {
    assert!((i as usize) < EVENTS && f < EVENT_LEN);
    EVENT_BASE + i as usize * EVENT_LEN + f
}

// Stream progress: how far a stream that recorded an exported event has run.
pub(crate) const STREAMS: usize = 1024;
pub(crate) const STREAM_BASE: usize = EVENT_BASE + EVENTS * EVENT_LEN;
const STREAM_LEN: usize = 64;
pub(crate) const S_GEN: usize = 0;
pub(crate) const S_USED: usize = 4;
pub(crate) const S_OWNER_IDX: usize = 8;
pub(crate) const S_OWNER_UID: usize = 12;
pub(crate) const S_WAKE: usize = 16;
pub(crate) const S_WAITERS: usize = 20;
pub(crate) const S_COMPLETED: usize = 24;

/// Stream slot `i`'s field `f`.
pub(crate) fn stream(i: u32, f: usize) -> usize {
    assert!((i as usize) < STREAMS && f < STREAM_LEN);
    STREAM_BASE + i as usize * STREAM_LEN + f
}

// Exported device memory.
pub(crate) const MEMS: usize = 256;
pub(crate) const MEM_BASE: usize = STREAM_BASE + STREAMS * STREAM_LEN;
const MEM_LEN: usize = 4096;
pub(crate) const X_GEN: usize = 0;
pub(crate) const X_USED: usize = 4;
pub(crate) const X_EXPORTER_IDX: usize = 12;
pub(crate) const X_LOCK: usize = 20;
pub(crate) const X_NAME_ID: usize = 32;
pub(crate) const X_HOLDERS: usize = 112;

/// Memory slot `i`'s field `f`.
pub(crate) fn mem(i: u32, f: usize) -> usize {
    assert!((i as usize) < MEMS && f < MEM_LEN);
    MEM_BASE + i as usize * MEM_LEN + f
}

/// The whole segment's length.
pub(crate) const SIZE: usize = MEM_BASE + MEMS * MEM_LEN;
