//! Rust kernel bodies that keep to what their launch declared (`KernelCtx::read_declared`,
//! `KernelCtx::write_declared`, the engine side of the C `…LaunchKernelCtx` stand-ins), and kernels declaring
//! pinned host memory (`Kernel::reads_pinned`, `Kernel::writes_pinned`; `Rules::kernel_pinned_access`).

use std::time::Duration;

use streamsim::{
    AddressSpace, DevicePtr, Dialect, FaultKind, Kernel, Machine, SimError, Stream, StreamFlags,
};

fn cuda() -> Machine {
    Machine::builder().devices(1).build().expect("machine")
}

/// The kernel fault a synchronize reports: its kind and message.
fn fault(e: SimError) -> (FaultKind, String) {
    match e {
        SimError::KernelFault { kind, message, .. } => (kind, message),
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}

/// Inside the declared ranges: reads anywhere (a written range too), writes in the written one; the bytes
/// reach device memory.
#[test]
fn a_body_reads_and_writes_what_it_declared() {
    let m = cuda();
    let p = m.process();
    let a = p.malloc(64).unwrap();
    let b = p.malloc(64).unwrap();
    p.memcpy(a, &[5u8; 64], 64).unwrap();
    let k = Kernel::new("copy")
        .reads(a, 64)
        .writes(b, 64)
        .body(move |ctx| {
            let mut v = [0u8; 64];
            ctx.read_declared(a, &mut v)?;
            ctx.write_declared(b, &v)?;
            let mut back = [0u8; 1];
            ctx.read_declared(b.offset(63), &mut back)?; // a written range may be read
            ctx.write_declared(b.offset(63), &[back[0] + 1])
        });
    p.launch(Stream::DEFAULT, k).unwrap();
    let mut out = [0u8; 64];
    p.memcpy(&mut out, b, 64).unwrap();
    assert_eq!(out[..63], [5u8; 63]);
    assert_eq!(out[63], 6);
}

/// Outside the declared ranges (an allocated but undeclared buffer, a declared buffer's undeclared tail, one
/// byte past the allocation) and a write into a read-only range: an `IllegalAddress` fault at the next
/// synchronize, with a message saying which.
#[test]
fn undeclared_and_read_only_accesses_fault_with_an_illegal_address() {
    for (case, message) in [
        (0, "outside the kernel's declared accesses"),
        (1, "outside the kernel's declared accesses"),
        (2, "runs past the end of the 64-byte allocation"),
        (3, "which the kernel declared read-only"),
    ] {
        let m = cuda();
        let p = m.process();
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
        let a = p.malloc(64).unwrap();
        let b = p.malloc(64).unwrap();
        let k = Kernel::new("stray")
            .reads(a, 32)
            .body(move |ctx| match case {
                0 => ctx.read_declared(b, &mut [0; 1]),
                1 => ctx.read_declared(a.offset(32), &mut [0; 1]),
                2 => ctx.read_declared(a, &mut [0; 65]),
                _ => ctx.write_declared(a, &[1; 4]),
            });
        p.launch(s, k).unwrap();
        let (kind, msg) = fault(p.stream_synchronize(s).unwrap_err());
        assert_eq!(kind, FaultKind::IllegalAddress, "case {case}");
        assert!(msg.contains(message), "case {case}: {msg}");
    }
}

/// CUDA: a kernel declares `cudaMallocHost` memory (unified addressing maps it for every device at its host
/// address); its body writes it with `write_declared` at the host address; the host reads it back after the
/// synchronize. Reading it from the host before the synchronize is a race the detector reports on pinned
/// host memory.
#[test]
fn cuda_kernels_reach_pinned_host_memory() {
    assert!(Dialect::Cuda.rules().kernel_pinned_access);
    let m = cuda();
    let p = m.process();
    let h = p.malloc_host(16).unwrap();
    let s = p.create_stream(StreamFlags::DEFAULT).unwrap();
    let k = Kernel::new("zeroCopy")
        .duration(Duration::from_micros(50))
        .writes_pinned(h, 16)
        .body(move |ctx| ctx.write_declared(DevicePtr(h.addr()), &[9u8; 16]));
    p.launch(s, k).unwrap();
    let mut early = [0u8; 16];
    p.host_read(h, &mut early).unwrap();
    p.stream_synchronize(s).unwrap();
    let mut seen = [0u8; 16];
    p.host_read(h, &mut seen).unwrap();
    assert_eq!(seen, [9u8; 16]);
    let races = m.race_reports();
    assert_eq!(races.len(), 1, "{races:#?}");
    assert_eq!(races[0].space, AddressSpace::PinnedHost);
    assert_eq!((races[0].offset, races[0].bytes), (0, 16));
}

/// ACL: `aclrtMallocHost` memory reaches a kernel only through `aclrtHostRegister` (not simulated), so a
/// launch declaring it is refused with an invalid address in pinned host memory (the facade's 107000).
#[test]
fn acl_kernels_cannot_declare_pinned_host_memory() {
    assert!(!Dialect::Acl.rules().kernel_pinned_access);
    let m = Machine::builder()
        .devices(1)
        .dialect(Dialect::Acl)
        .build()
        .unwrap();
    let p = m.process();
    p.set_device(0).unwrap();
    let h = p.malloc_host(16).unwrap();
    let r = p.launch(Stream::DEFAULT, Kernel::new("k").reads_pinned(h, 16));
    match r {
        Err(SimError::InvalidAddress {
            space: AddressSpace::PinnedHost,
            problem,
            ..
        }) => assert!(problem.contains("cannot access"), "{problem}"),
        other => panic!("{other:?}"),
    }
}
