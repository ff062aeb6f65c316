//! IPC memory between simulated processes of one machine (`src/engine/ipc/memory.rs`): the bytes are shared,
//! not copied; the documented rules of `cudaIpcGetMemHandle` / `cudaIpcOpenMemHandle` / `cudaIpcCloseMemHandle`
//! and of ACL's export key, allow list, import and close (`docs/semantics/ipc-between-processes.md` has each
//! rule with its source). Between real OS processes: `os_processes.rs`.

use streamsim::{DevicePtr, Dialect, IpcMemHandle, IpcProblem, Machine, SimError, Status};

const N: u64 = 64;

fn machine(dialect: Dialect, devices: u32) -> Machine {
    Machine::builder()
        .devices(devices)
        .dialect(dialect)
        .build()
        .unwrap()
}

fn ipc_err(e: SimError) -> IpcProblem {
    match e {
        SimError::Ipc { problem, .. } => problem,
        other => panic!("not an IPC error: {other:?}"),
    }
}

fn read(p: &streamsim::Process, ptr: DevicePtr) -> Vec<u8> {
    let mut out = vec![0u8; N as usize];
    p.memcpy(&mut out, ptr, N).unwrap();
    out
}

/// ipc-between-processes.md · Memory · OpenMemHandle: "a device pointer usable in the local process" to the
/// exporter's memory. A writes, B reads A's bytes through its mapping; B writes, A reads B's bytes: one
/// allocation, two addresses (B's pointer is not A's).
#[test]
fn an_opened_handle_maps_the_same_bytes_not_a_copy() {
    for dialect in [Dialect::Cuda, Dialect::Acl] {
        let m = machine(dialect, 1);
        let (a, b) = (m.process(), m.process());
        for p in [&a, &b] {
            p.set_device(0).unwrap();
        }
        let buf = a.malloc(N).unwrap();
        a.memcpy(buf, &[7u8; N as usize], N).unwrap();
        let h = a.ipc_get_mem_handle(buf).unwrap();
        assert_eq!(
            a.ipc_get_mem_handle(buf).unwrap(),
            h,
            "the same allocation, the same handle"
        );
        let mapped = b.ipc_open_mem_handle(&h, false).unwrap();
        assert_ne!(mapped, buf);
        assert_eq!(mapped.device(), Some(0));
        assert_eq!(read(&b, mapped), vec![7u8; N as usize]);
        b.memcpy(mapped.offset(8), &[9u8; 4], 4).unwrap();
        let mut want = vec![7u8; N as usize];
        want[8..12].fill(9);
        assert_eq!(read(&a, buf), want);
        b.ipc_close_mem_handle(mapped).unwrap();
    }
}

/// ipc-between-processes.md · Memory · OpenMemHandle · in the exporting process → SameProcess (CUDA 201
/// cudaErrorDeviceUninitialized, ACL 507022); a forged handle → InvalidHandle; a mapping cannot be exported
/// again (InvalidValue).
#[test]
fn the_exporter_cannot_open_its_own_handle_and_forged_handles_are_refused() {
    let m = machine(Dialect::Cuda, 1);
    let (a, b) = (m.process(), m.process());
    let buf = a.malloc(N).unwrap();
    let h = a.ipc_get_mem_handle(buf).unwrap();
    assert_eq!(
        ipc_err(a.ipc_open_mem_handle(&h, false).unwrap_err()),
        IpcProblem::SameProcess
    );
    let mut forged = h;
    forged.0[15] ^= 1;
    assert_eq!(
        ipc_err(b.ipc_open_mem_handle(&forged, false).unwrap_err()),
        IpcProblem::InvalidHandle
    );
    assert_eq!(
        ipc_err(
            b.ipc_open_mem_handle(&IpcMemHandle([0; 64]), false)
                .unwrap_err()
        ),
        IpcProblem::InvalidHandle
    );
    let mapped = b.ipc_open_mem_handle(&h, false).unwrap();
    assert!(matches!(
        b.ipc_get_mem_handle(mapped).unwrap_err(),
        SimError::InvalidValue {
            what: "ipc_get_mem_handle",
            ..
        }
    ));
}

/// ipc-between-processes.md · Memory · OpenMemHandle · opened again by the same process on the same device →
/// the same pointer, one reference more; CloseMemHandle drops one; the last unmaps (the pointer is then
/// refused, "unmapped"); a close of anything else → InvalidValue. A mapping is not freed with free.
#[test]
fn one_mapping_per_process_and_device_counted_and_closed() {
    let m = machine(Dialect::Cuda, 1);
    let (a, b) = (m.process(), m.process());
    let buf = a.malloc(N).unwrap();
    let h = a.ipc_get_mem_handle(buf).unwrap();
    let first = b.ipc_open_mem_handle(&h, false).unwrap();
    assert_eq!(b.ipc_open_mem_handle(&h, false).unwrap(), first);
    match b.free(first).unwrap_err() {
        SimError::InvalidAddress { problem, .. } => {
            assert!(problem.contains("IPC mapping"), "{problem}")
        }
        e => panic!("{e:?}"),
    }
    b.ipc_close_mem_handle(first).unwrap();
    assert_eq!(
        read(&b, first),
        vec![0u8; N as usize],
        "one reference left: still mapped"
    );
    b.ipc_close_mem_handle(first).unwrap();
    let mut out = [0u8; 4];
    match b.memcpy(&mut out[..], first, 4).unwrap_err() {
        SimError::InvalidAddress { problem, .. } => {
            assert_eq!(problem, "unmapped (its IPC handle was closed)")
        }
        e => panic!("{e:?}"),
    }
    assert!(matches!(
        b.ipc_close_mem_handle(first).unwrap_err(),
        SimError::InvalidValue {
            what: "ipc_close_mem_handle",
            ..
        }
    ));
    assert!(matches!(
        b.ipc_close_mem_handle(buf).unwrap_err(),
        SimError::InvalidValue {
            what: "ipc_close_mem_handle",
            ..
        }
    ));
}

/// ipc-between-processes.md · Memory · Free while mapped ("undefined behavior" in CUDA; sim): the importer's
/// mapping keeps the bytes; the handle opens nowhere afterwards (ExportGone: CUDA 205); the next allocation
/// gets another handle.
#[test]
fn freeing_exported_memory_leaves_the_mappings_and_ends_the_handle() {
    let m = machine(Dialect::Cuda, 1);
    let (a, b, c) = (m.process(), m.process(), m.process());
    let buf = a.malloc(N).unwrap();
    a.memcpy(buf, &[3u8; N as usize], N).unwrap();
    let h = a.ipc_get_mem_handle(buf).unwrap();
    let mapped = b.ipc_open_mem_handle(&h, false).unwrap();
    a.free(buf).unwrap();
    assert_eq!(read(&b, mapped), vec![3u8; N as usize]);
    assert_eq!(
        ipc_err(c.ipc_open_mem_handle(&h, false).unwrap_err()),
        IpcProblem::ExportGone
    );
    let again = a.malloc(N).unwrap();
    assert_ne!(a.ipc_get_mem_handle(again).unwrap(), h);
    b.ipc_close_mem_handle(mapped).unwrap();
}

/// ipc-between-processes.md · Memory · cudaIpcMemLazyEnablePeerAccess: B opens on device 1 memory of device 0;
/// with the flag, peer access 1 → 0 is enabled as cudaDeviceEnablePeerAccess would, and a copy from the
/// mapping to B's device-1 buffer takes the peer link; without it, nothing is enabled.
#[test]
fn the_lazy_flag_enables_peer_access_from_the_current_device() {
    for lazy in [true, false] {
        let m = machine(Dialect::Cuda, 2);
        let (a, b) = (m.process(), m.process());
        let buf = a.malloc(N).unwrap();
        a.memcpy(buf, &[5u8; N as usize], N).unwrap();
        let h = a.ipc_get_mem_handle(buf).unwrap();
        b.set_device(1).unwrap();
        let mapped = b.ipc_open_mem_handle(&h, lazy).unwrap();
        assert_eq!(
            mapped.device(),
            Some(0),
            "the memory stays on the exporter's device"
        );
        assert_eq!(b.peer_access_enabled(1, 0), lazy);
        let mine = b.malloc(N).unwrap();
        b.memcpy(mine, mapped, N).unwrap();
        assert_eq!(read(&b, mine), vec![5u8; N as usize]);
    }
}

/// ipc-between-processes.md · Memory · ACL: an export with pid validation opens only in a listed OS process
/// (NotAllowed, 507022, before `ipc_allow_pids`); the key is 56 characters and decodes to the handle; the
/// exporter's close ends the export (a later import: ExportGone) and leaves the mapping made; an exported
/// range maps from its offset.
#[test]
fn acl_allow_list_key_range_and_close() {
    let m = machine(Dialect::Acl, 1);
    let (a, b, c) = (m.process(), m.process(), m.process());
    for p in [&a, &b, &c] {
        p.set_device(0).unwrap();
    }
    let buf = a.malloc(N).unwrap();
    let bytes: Vec<u8> = (0..N as u8).collect();
    a.memcpy(buf, &bytes, N).unwrap();
    let h = a.ipc_export_mem(buf.offset(16), 32, true).unwrap();
    let key = h.key();
    assert_eq!(key.len(), 56);
    assert_eq!(IpcMemHandle::from_key(&key), Some(h));
    assert_eq!(
        ipc_err(b.ipc_open_mem_handle(&h, false).unwrap_err()),
        IpcProblem::NotAllowed
    );
    a.ipc_allow_pids(&h, &[std::process::id()]).unwrap();
    let mapped = b.ipc_open_mem_handle(&h, false).unwrap();
    let mut got = [0u8; 32];
    b.memcpy(&mut got[..], mapped, 32).unwrap();
    assert_eq!(&got[..], &bytes[16..48]);
    match b.memcpy(&mut got[..], mapped.offset(8), 32).unwrap_err() {
        SimError::OutOfRange { len: 32, .. } => {}
        e => panic!("the mapping is the 32 exported bytes: {e:?}"),
    }
    a.ipc_close_mem_key(&h).unwrap();
    assert_eq!(
        ipc_err(c.ipc_open_mem_handle(&h, false).unwrap_err()),
        IpcProblem::ExportGone
    );
    b.memcpy(&mut got[..], mapped, 32).unwrap();
    b.ipc_close_mem_key(&h).unwrap();
    assert_eq!(
        ipc_err(b.ipc_close_mem_key(&h).unwrap_err()),
        IpcProblem::InvalidHandle
    );
    assert_eq!(
        b.stream_query(streamsim::Stream::DEFAULT).unwrap(),
        Status::Complete
    );
}
