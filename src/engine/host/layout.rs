//! The fixed layout of the shared segment: where every table and field is. Every offset is computed from these
//! constants and an index checked against its table's length, never from a value read out of the segment.
use crate::engine::core::handle::StreamKind;

/// `SSIMHST1`, little-endian.
pub(crate) const MAGIC: u64 = u64::from_le_bytes(*b"SSIMHST1");
/// The layout's version: a segment of another version is not used (it is re-made when nobody is attached).
pub(crate) const VERSION: u32 = 3;

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
const STREAM_LEN: usize = 128;
pub(crate) const S_GEN: usize = 0;
pub(crate) const S_USED: usize = 4;
pub(crate) const S_OWNER_IDX: usize = 8;
pub(crate) const S_OWNER_UID: usize = 12;
pub(crate) const S_WAKE: usize = 16;
pub(crate) const S_WAITERS: usize = 20;
pub(crate) const S_COMPLETED: usize = 24;
// Who the stream is in its process (hang reports of other processes name it).
pub(crate) const S_PROCESS: usize = 32;
pub(crate) const S_DEVICE: usize = 36;
pub(crate) const S_KIND: usize = 40;
// What the stream's worker is held by now, for the hang reports of other processes: the position of the
// operation that waits on a record of another member (0: none), and that record (stream slot, generation,
// position); the position of the program function (kernel body, host function, callback) running now (0: none).
pub(crate) const S_BLOCKED_OP: usize = 48;
pub(crate) const S_BLOCKED_SLOT: usize = 56;
pub(crate) const S_BLOCKED_GEN: usize = 60;
pub(crate) const S_BLOCKED_SEQ: usize = 64;
pub(crate) const S_RUNNING_OP: usize = 72;

/// Stream slot `i`'s field `f`.
pub(crate) fn stream(i: u32, f: usize) -> usize {
    assert!((i as usize) < STREAMS && f < STREAM_LEN);
    STREAM_BASE + i as usize * STREAM_LEN + f
}

// Exported device memory: one slot per exported allocation, with the shadow of its accesses.
pub(crate) const MEMS: usize = 256;
pub(crate) const MEM_BASE: usize = STREAM_BASE + STREAMS * STREAM_LEN;
const MEM_LEN: usize = 16384;
pub(crate) const X_GEN: usize = 0;
pub(crate) const X_USED: usize = 4;
pub(crate) const X_EXPORTER_UID: usize = 8;
pub(crate) const X_EXPORTER_IDX: usize = 12;
pub(crate) const X_DEVICE: usize = 16;
pub(crate) const X_LOCK: usize = 20;
/// The allocation's length: the length of its shared-memory object.
pub(crate) const X_LEN: usize = 24;
/// The id in the name of the shared-memory object holding the bytes.
pub(crate) const X_NAME_ID: usize = 32;
/// The allocation's number on its device in the exporting machine (race reports name it).
pub(crate) const X_ORDINAL: usize = 40;
/// 1 once the exporter freed the allocation or closed its export: no new import.
pub(crate) const X_CLOSED: usize = 48;
/// 1 if importers must be on the allow list (ACL pid validation).
pub(crate) const X_PID_CHECK: usize = 52;
pub(crate) const X_PIDS_N: usize = 56;
/// How many shadow records are in use.
pub(crate) const X_SH_N: usize = 60;
/// How many shadow records were forgotten because the shadow was full.
pub(crate) const X_SH_FORGOTTEN: usize = 64;
/// The exported range within the allocation (ACL exports a range; CUDA the whole allocation).
pub(crate) const X_RANGE_OFF: usize = 72;
pub(crate) const X_RANGE_LEN: usize = 80;
/// The OS pid of the exporter.
pub(crate) const X_EXPORTER_PID: usize = 88;
/// Which members hold the slot (bit per member index): the exporter and every importer with a mapping.
pub(crate) const X_HOLDERS: usize = 112;
/// The allow list: importing OS pids (u32 each).
pub(crate) const X_PIDS: usize = 128;
pub(crate) const PIDS_CAP: usize = 32;
/// How many entries the export's clock has.
pub(crate) const X_CLOCK_N: usize = 96;
/// The exporting host thread's clock at the export, as (member, actor, count) entries of 16 bytes: an import
/// joins it (the import happens after the export).
pub(crate) const X_CLOCK: usize = 512;
/// How many entries an export's clock can carry.
pub(crate) const X_CLOCK_CAP: usize = 128;
/// The shadow: [`SHADOW_CAP`] records of [`SH_LEN`] bytes.
pub(crate) const X_SHADOW: usize = X_CLOCK + 16 * X_CLOCK_CAP;
pub(crate) const SH_LEN: usize = 128;
pub(crate) const SHADOW_CAP: usize = (MEM_LEN - X_SHADOW) / SH_LEN;
// A shadow record's fields.
pub(crate) const SH_START: usize = 0;
pub(crate) const SH_END: usize = 8;
pub(crate) const SH_COUNT: usize = 16;
pub(crate) const SH_MEMBER: usize = 24;
pub(crate) const SH_ACTOR: usize = 28;
pub(crate) const SH_FLAGS: usize = 32;
pub(crate) const SH_PID: usize = 36;
pub(crate) const SH_PROCESS: usize = 40;
pub(crate) const SH_DEVICE: usize = 44;
pub(crate) const SH_KIND: usize = 48;
pub(crate) const SH_THREAD: usize = 56;
pub(crate) const SH_LABEL_LEN: usize = 60;
pub(crate) const SH_LABEL: usize = 64;
pub(crate) const SH_LABEL_CAP: usize = SH_LEN - SH_LABEL;

/// Memory slot `i`'s field `f`.
pub(crate) fn mem(i: u32, f: usize) -> usize {
    assert!((i as usize) < MEMS && f < MEM_LEN);
    MEM_BASE + i as usize * MEM_LEN + f
}

/// Shadow record `r` of memory slot `i`, field `f`.
pub(crate) fn shadow_rec(i: u32, r: usize, f: usize) -> usize {
    assert!(r < SHADOW_CAP && f < SH_LEN);
    mem(i, X_SHADOW + r * SH_LEN + f)
}

/// The whole segment's length.
pub(crate) const SIZE: usize = MEM_BASE + MEMS * MEM_LEN;

pub(crate) fn kind_bits(k: StreamKind) -> u64 {
    match k {
        StreamKind::Legacy => 0,
        StreamKind::PerThread(t) => 1 << 32 | u64::from(t),
        StreamKind::Created(n) => 2 << 32 | u64::from(n),
        StreamKind::ContextDefault(c) => 3 << 32 | u64::from(c),
        // A graph's lane (an event record node of an exported event): the top bit, the executable graph's
        // ordinal in bits 16..48, the lane in bits 0..16.
        StreamKind::Graph { exec, lane } => {
            1 << 63 | u64::from(exec) << 16 | u64::from(lane & 0xffff)
        }
    }
}

pub(crate) fn kind_of(b: u64) -> StreamKind {
    let n = b as u32;
    if b >> 63 == 1 {
        return StreamKind::Graph {
            exec: (b >> 16) as u32,
            lane: (b & 0xffff) as u32,
        };
    }
    match b >> 32 {
        1 => StreamKind::PerThread(n),
        2 => StreamKind::Created(n),
        3 => StreamKind::ContextDefault(n),
        _ => StreamKind::Legacy,
    }
}
