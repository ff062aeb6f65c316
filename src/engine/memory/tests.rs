use super::*;

const P: ProcessId = ProcessId(0);

/// A device whose address range is used up (by malloc/free cycles: addresses are not reused before) reuses
/// the lowest free gap that fits — never an address of the next device; a block no gap can hold is out of
/// memory with `available` = the largest gap; a freed range is reused like any other.
#[test]
fn a_used_up_address_range_reuses_the_lowest_gap() {
    let m = Memory::new(&[u64::MAX, 1 << 20]);
    let (span_start, span_end) = device_span(0);
    let first = m.malloc(0, 1024, P).unwrap();
    assert_eq!(first.0, span_start);
    // Each allocation takes its bytes rounded up to 256 and a 256-byte guard (`footprint`).
    m.heaps[0].lock().next = span_end - 768;
    let last = m.malloc(0, 300, P).unwrap();
    assert_eq!(last.0, span_end - 768);
    // The range is used up: the lowest gap, right after `first` and its guard.
    let reused = m.malloc(0, 1, P).unwrap();
    assert_eq!(reused.0, span_start + 1024 + 256);
    assert_eq!(reused.device(), Some(0));
    // Larger than every gap (the largest runs from after `reused` and its guard to `last`).
    assert_eq!(
        m.malloc(0, 1 << DEVICE_SPAN_SHIFT, P),
        Err(SimError::OutOfMemory {
            device: 0,
            requested: 1 << DEVICE_SPAN_SHIFT,
            available: (span_end - 768) - (span_start + 1280 + 512),
        })
    );
    // A freed range is reused: the old pointer names the new block (as on hardware).
    m.free(first, P).unwrap();
    assert_eq!(m.malloc(0, 1000, P).unwrap(), first);
    // The next device's range is untouched.
    assert_eq!(m.malloc(1, 1, P).unwrap().device(), Some(1));
}

/// A heap remembers at most `freed_cap` freed allocations: a double free of a recent one is "already
/// freed", of a forgotten one "not allocated" (both InvalidAddress), and the record stays bounded.
#[test]
fn freed_allocations_are_remembered_up_to_a_cap() {
    let m = Memory::new(&[1 << 30]);
    m.heaps[0].lock().freed_cap = 4;
    let ptrs: Vec<DevicePtr> = (0..10).map(|_| m.malloc(0, 64, P).unwrap()).collect();
    for &p in &ptrs {
        m.free(p, P).unwrap();
    }
    assert_eq!(m.heaps[0].lock().freed.len(), 4);
    let problem = |p: DevicePtr| match m.free(p, P) {
        Err(SimError::InvalidAddress { problem, .. }) => problem,
        other => panic!("{other:?}"),
    };
    assert_eq!(problem(ptrs[9]), "already freed");
    assert_eq!(problem(ptrs[6]), "already freed");
    assert_eq!(problem(ptrs[5]), "not allocated");
    assert_eq!(problem(ptrs[0]), "not allocated");
}

/// A u64::MAX-byte malloc on a device with u64::MAX bytes of memory: out of memory, with no overflow in
/// the address arithmetic.
#[test]
fn a_malloc_of_u64_max_on_an_unbounded_device_is_out_of_memory() {
    let m = Memory::new(&[u64::MAX]);
    assert_eq!(
        m.malloc(0, u64::MAX, P),
        Err(SimError::OutOfMemory {
            device: 0,
            requested: u64::MAX,
            available: 1 << DEVICE_SPAN_SHIFT,
        })
    );
    assert_eq!(m.used(0), 0);
}

#[test]
fn device_addresses_are_not_host_addresses_and_never_reused() {
    let m = Memory::new(&[1 << 20, 1 << 20]);
    let a = m.malloc(0, 100, P).unwrap();
    let b = m.malloc(1, 100, P).unwrap();
    assert_eq!(a.device(), Some(0));
    assert_eq!(b.device(), Some(1));
    assert!(a.0 >= DEVICE_ADDRESS_BASE);
    m.free(a, P).unwrap();
    let c = m.malloc(0, 100, P).unwrap();
    assert_ne!(a, c);
    let err = m.device_region("read", a, 1, P).unwrap_err();
    assert!(matches!(
        err,
        SimError::InvalidAddress {
            problem: "freed",
            ..
        }
    ));
    assert!(matches!(
        m.free(a, P),
        Err(SimError::InvalidAddress {
            problem: "already freed",
            ..
        })
    ));
}

#[test]
fn bounds_and_ownership_are_checked() {
    let m = Memory::new(&[1 << 20]);
    let a = m.malloc(0, 100, P).unwrap();
    assert!(m.device_region("x", a, 100, P).is_ok());
    assert!(m.device_region("x", a.offset(50), 50, P).is_ok());
    assert!(matches!(
        m.device_region("x", a.offset(50), 51, P),
        Err(SimError::OutOfRange {
            bytes: 51,
            len: 100,
            ..
        })
    ));
    assert!(matches!(
        m.device_region("x", a, u64::MAX, P),
        Err(SimError::OutOfRange { .. })
    ));
    assert!(matches!(
        m.device_region("x", a, 1, ProcessId(1)),
        Err(SimError::InvalidAddress {
            problem: "owned by another process",
            ..
        })
    ));
    assert!(matches!(
        m.malloc(0, 2 << 20, P),
        Err(SimError::OutOfMemory { .. })
    ));
}

/// A freed block that a queued copy still holds and a new block at the same, reused, base (a device whose
/// address range is used up reuses the lowest gap): copies in both directions between them, on two threads,
/// must not deadlock. With the old order (by simulated base, equal here) each copy took its destination's
/// lock first, so the two copies locked the blocks in opposite orders. Under a watchdog.
#[test]
fn copies_between_blocks_with_the_same_base_do_not_deadlock() {
    let m = Memory::new(&[1 << 20]);
    let (_, span_end) = device_span(0);
    let first = m.malloc(0, 1024, P).unwrap();
    let old = m.device_region("copy", first, 1024, P).unwrap();
    m.heaps[0].lock().next = span_end; // the range is used up: the next malloc takes the lowest gap
    m.free(first, P).unwrap();
    let reused = m.malloc(0, 1024, P).unwrap();
    assert_eq!(
        reused, first,
        "the base is reused while the old block is still held"
    );
    let new = m.device_region("copy", reused, 1024, P).unwrap();
    assert_eq!(old.block.base, new.block.base);
    assert!(!Arc::ptr_eq(&old.block, &new.block));
    assert_ne!(
        Block::lock_first(&old.block, &new.block),
        Block::lock_first(&new.block, &old.block),
        "one order for the pair, whichever is the source"
    );
    let (done, rx) = std::sync::mpsc::channel();
    for (src, dst) in [(old.clone(), new.clone()), (new, old)] {
        let done = done.clone();
        std::thread::spawn(move || {
            for _ in 0..20_000 {
                Block::copy(&src.block, 0, &dst.block, 0, 1024);
            }
            done.send(()).unwrap();
        });
    }
    for _ in 0..2 {
        rx.recv_timeout(std::time::Duration::from_secs(60))
            .expect("watchdog: two copies between same-base blocks deadlocked");
    }
}

#[test]
fn pinned_buffers_are_real_memory() {
    let m = Memory::new(&[1 << 20]);
    let h = m.malloc_host(16, P, None).unwrap();
    assert_eq!(m.classify(h.0 + 15), AddressSpace::PinnedHost);
    assert_eq!(m.classify(h.0 + 16), AddressSpace::PageableHost);
    let r = m.pinned_region("w", h, 16, P).unwrap();
    r.block.write(r.offset, &[7; 16]);
    // SAFETY: the buffer is live and 16 bytes long; nothing else touches it.
    let seen = unsafe { *h.as_mut_ptr().add(3) };
    assert_eq!(seen, 7);
    m.free_host(h, P).unwrap();
    assert!(m.free_host(h, P).is_err());
}
