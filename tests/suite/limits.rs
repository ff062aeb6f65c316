//! Limits an adversarial review asked about (issue 27, item 11), each confirmed or ruled out by a test.

use streamsim::{Machine, StreamFlags};

fn machine_id(m: &Machine) -> u64 {
    let prefix = m.worker_name_prefix();
    prefix
        .trim_start_matches("ss")
        .trim_end_matches('-')
        .parse()
        .expect("ss<id>-")
}

/// Confirmed, and documented (`src/engine/core/handle.rs`): a handle carries its machine's id modulo 2^16, so a
/// handle of a machine validates on the machine made 65,536 machines later when the same slot holds an object
/// of the same kind there. (Within one machine, stale handles are refused by their epoch.) The loop builds
/// machines until one has the same 16 bits: at most 65,536 builds of an empty machine.
#[test]
fn a_handle_of_a_machine_65536_machines_earlier_validates() {
    let first = Machine::builder().trace(false).build().unwrap();
    let p = first.process();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let id = machine_id(&first);
    let later = loop {
        let m = Machine::builder().trace(false).build().unwrap();
        if machine_id(&m) % 65_536 == id % 65_536 {
            break m;
        }
    };
    assert_eq!(
        machine_id(&later) - id,
        65_536 * ((machine_id(&later) - id) / 65_536)
    );
    let q = later.process();
    let own = q.create_stream(StreamFlags::DEFAULT).unwrap();
    assert_eq!(
        own, s,
        "the same bits: the later machine cannot tell them apart"
    );
    q.stream_synchronize(s).unwrap();
    // A machine with another tag refuses it.
    let other = Machine::builder().trace(false).build().unwrap();
    let r = other.process();
    assert!(r.stream_synchronize(s).is_err());
}

/// `tests/c/os_atexit_ipc.c`: an `atexit` handler registered before the first IPC call records an exported
/// event and exports it again at exit, after the handler that leaves the shared host (registered at the
/// first IPC call, so run before it).
#[test]
fn ipc_calls_in_an_atexit_handler_registered_before_the_first_ipc_call() {
    use crate::c_programs::{Lang, assert_success, build, toolchain};
    let src = toolchain().c_dir.join("os_atexit_ipc.c");
    let exe = build(&src, "os_atexit_ipc", Lang::C, &[]);
    let mut run = crate::os_processes::Run::new("atexit");
    let i = run.spawn(&exe, &[]);
    let out = assert_success("os_atexit_ipc", &run.wait(&exe, i));
    assert!(out.contains("main: exported"), "{out}");
    assert!(out.contains("late: record 0, handle 0"), "{out}");
    assert_eq!(
        crate::os_processes::leftovers(&run.host),
        Vec::<String>::new()
    );
}

/// Confirmed and fixed: device memory's bytes live in the simulator's own heap memory, so a registration
/// (`cudaHostRegister`) of a heap range containing them gave those bytes a second block with its own lock (a
/// copy to the registered range and a kernel on the device memory then wrote them under two locks). Such a
/// registration is now `InvalidValue` (CUDA 1); a range next to them still registers.
#[test]
fn registering_the_simulators_own_bytes_is_refused() {
    let (m, p) = crate::common::cuda1();
    let d = p.malloc(64).unwrap();
    let own = m
        .own_bytes_of(d.0)
        .expect("device memory's bytes are the simulator's");
    // SAFETY: the call is refused before anything touches the range (the test checks that it is).
    let r = unsafe { p.host_register(own as usize as *mut u8, 16, false) };
    match r {
        Err(streamsim::SimError::InvalidValue { reason, .. }) => {
            assert!(
                reason.contains("the simulator allocated for device memory"),
                "{reason}"
            )
        }
        other => panic!("expected InvalidValue, got {other:?}"),
    }
    let mut mine = vec![0u8; 4096];
    // SAFETY: the program's own buffer, unregistered before it is dropped.
    unsafe { p.host_register(mine.as_mut_ptr(), 4096, false) }.unwrap();
    p.host_unregister(mine.as_mut_ptr()).unwrap();
}
