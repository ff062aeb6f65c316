//! cuda-musa.md rows through the CUDA facade: devices.

use super::*;

/// cuda-musa.md · Devices and peers · SetDevice · id < 0 or >= count → 101 InvalidDevice
#[test]
fn set_device_out_of_range() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    for d in [-1, 2, 3, 1_024, c_int::MAX, c_int::MIN] {
        check!(cudaErrorInvalidDevice, cudaSetDevice(d));
    }
    let mut d = -1;
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 0, "a failed SetDevice changes nothing");
    let mut n = 0;
    check!(cudaSuccess, cudaGetDeviceCount(&mut n));
    assert_eq!(n, 2);
}

/// cuda-musa.md · Devices and peers · SetDevice · — → per host thread; no synchronization; device 0 is the
/// default
#[test]
fn set_device_is_per_thread_and_does_not_synchronize() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut d = -1;
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 0);
    check!(cudaSuccess, kernel(null_mut(), 5_000));
    let before = p.now();
    check!(cudaSuccess, cudaSetDevice(1));
    assert_eq!(p.now().as_nanos() - before.as_nanos(), 1_000, "no wait");
    let p2 = p.clone();
    let theirs = std::thread::spawn(move || {
        let _g = p2.bind();
        let mut d = -1;
        check!(cudaSuccess, cudaGetDevice(&mut d));
        d
    })
    .join()
    .unwrap();
    assert_eq!(theirs, 0, "another thread still starts on device 0");
    check!(cudaSuccess, cudaGetDevice(&mut d));
    assert_eq!(d, 1);
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaErrorNotReady, cudaStreamQuery(null_mut()));
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer(d, d) · same device → 0 (Success, value 0)
#[test]
fn device_can_access_peer_same_device() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    for d in [0, 1] {
        let mut can = 7;
        check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, d, d));
        assert_eq!(can, 0);
    }
    let mut can = 7;
    check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, 0, 1));
    assert_eq!(can, 1, "all pairs are linked by default");
    let m = Machine::builder()
        .devices(2)
        .peer_links([])
        .build()
        .unwrap();
    let q = m.process();
    let _g2 = q.bind();
    check!(cudaSuccess, cudaDeviceCanAccessPeer(&mut can, 0, 1));
    assert_eq!(can, 0, "no link");
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer · bad ordinal → 101
#[test]
fn device_can_access_peer_bad_ordinal() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    let mut can = 7;
    for (d, peer) in [(-1, 0), (0, -1), (2, 0), (0, 2), (c_int::MAX, c_int::MIN)] {
        check!(
            cudaErrorInvalidDevice,
            cudaDeviceCanAccessPeer(&mut can, d, peer)
        );
    }
    assert_eq!(can, 7, "nothing written on failure");
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · flags != 0 (checked first) → 1
#[test]
fn enable_peer_access_flags_are_checked_first() {
    let m = Machine::builder()
        .devices(2)
        .peer_links([])
        .build()
        .unwrap();
    let p = m.process();
    let _g = p.bind();
    // Valid peer, own device, bad ordinal, no link: the flags are reported first.
    for peer in [1, 0, 5, -1] {
        check!(cudaErrorInvalidValue, cudaDeviceEnablePeerAccess(peer, 1));
        check!(
            cudaErrorInvalidValue,
            cudaDeviceEnablePeerAccess(peer, u32::MAX)
        );
    }
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · peer == current device, or the topology has no
/// link between them → 101
#[test]
fn enable_peer_access_self_or_no_link() {
    let m = Machine::builder()
        .devices(3)
        .peer_links([(0, 1)])
        .build()
        .unwrap();
    let p = m.process();
    let _g = p.bind();
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(0, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(2, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(3, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(-1, 0));
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, cudaSetDevice(2));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(0, 0));
    check!(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(2, 0));
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · twice → 704
#[test]
fn enable_peer_access_twice() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(
        cudaErrorPeerAccessAlreadyEnabled,
        cudaDeviceEnablePeerAccess(1, 0)
    );
    check!(cudaErrorPeerAccessAlreadyEnabled, cudaPeekAtLastError());
}

/// cuda-musa.md · Devices and peers · DeviceDisablePeerAccess · not enabled → 705
#[test]
fn disable_peer_access_not_enabled() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, cudaDeviceDisablePeerAccess(1));
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
}

/// cuda-musa.md · Devices and peers · peer access · — → one direction only; lasts until disabled or either
/// device is reset
#[test]
fn peer_access_is_one_directional_and_ends_with_a_reset() {
    let (_m, p) = machine(2);
    let _g = p.bind();
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    assert!(p.peer_access_enabled(0, 1));
    check!(cudaSuccess, cudaSetDevice(1));
    // 1 → 0 is another direction: not enabled yet.
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(0)
    );
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(0, 0));
    // A reset of device 1 ends both directions that involve it.
    check!(cudaSuccess, cudaDeviceReset());
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(0)
    );
    check!(cudaSuccess, cudaSetDevice(0));
    check!(
        cudaErrorPeerAccessNotEnabled,
        cudaDeviceDisablePeerAccess(1)
    );
    // Enabled again, it lasts until disabled.
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaDeviceSynchronize());
    check!(
        cudaErrorPeerAccessAlreadyEnabled,
        cudaDeviceEnablePeerAccess(1, 0)
    );
    check!(cudaSuccess, cudaDeviceDisablePeerAccess(1));
}

/// cuda-musa.md · Devices and peers · MemcpyPeer · peer access not enabled → works (staged through the host,
/// slower)
#[test]
fn memcpy_peer_without_peer_access_is_staged() {
    const N: usize = 1 << 20;
    let (m, p) = machine(2);
    let _g = p.bind();
    let src: Vec<u8> = (0..N).map(|i| (i % 251) as u8).collect();
    let d0 = dmalloc(N);
    check!(
        cudaSuccess,
        cudaMemcpy(d0, src.as_ptr().cast(), N, cudaMemcpyHostToDevice)
    );
    check!(cudaSuccess, cudaSetDevice(1));
    let d1 = dmalloc(N);
    check!(cudaSuccess, cudaSetDevice(0));
    let cost = m.cost_model();
    let overhead = (cost.api_call + cost.launch_latency).as_nanos() as u64;
    let timed = |path| {
        let before = p.now().as_nanos();
        check!(cudaSuccess, cudaMemcpyPeer(d1, 1, d0, 0, N));
        let took = p.now().as_nanos() - before;
        assert_eq!(took, overhead + cost.copy_nanos(path, N as u64), "{path:?}");
        took
    };
    let staged = timed(CopyPath::StagedThroughHost);
    let mut back = vec![0u8; N];
    check!(
        cudaSuccess,
        cudaMemcpy(back.as_mut_ptr().cast(), d1, N, cudaMemcpyDeviceToHost)
    );
    assert!(back == src, "the staged copy moved the bytes");
    check!(cudaSuccess, cudaDeviceEnablePeerAccess(1, 0));
    let linked = timed(CopyPath::PeerLink);
    assert!(
        staged > linked,
        "staged {staged} ns vs peer link {linked} ns"
    );
}

/// cuda-musa.md · Devices and peers · DeviceReset · — → destroys all streams, events and memory of the current
/// device in this process; later use of them: sim 400 (streams and events)
#[test]
fn device_reset_destroys_streams_and_events() {
    let (m, p) = machine(2);
    let _g = p.bind();
    let (s0, e0) = (stream(cudaStreamDefault), event(cudaEventDefault));
    check!(cudaSuccess, cudaSetDevice(1));
    let (s1, e1) = (stream(cudaStreamDefault), event(cudaEventDefault));
    let (hits, arg) = counter();
    check!(cudaSuccess, kernel_with(s1, 500, bump, arg));
    check!(cudaSuccess, cudaEventRecord(e1, s1));
    let _d1 = dmalloc(4096);
    assert_eq!(m.memory_used(1).unwrap(), 4096);
    check!(cudaSuccess, cudaDeviceReset());
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "pending work finished first"
    );
    assert_eq!(m.memory_used(1).unwrap(), 0, "memory freed");
    check!(cudaErrorInvalidResourceHandle, cudaStreamQuery(s1));
    assert!(matches!(
        last(&p),
        SimError::InvalidHandle {
            problem: HandleProblem::FreedByReset { device: 1 },
            ..
        }
    ));
    check!(cudaErrorInvalidResourceHandle, cudaEventQuery(e1));
    check!(cudaErrorInvalidResourceHandle, kernel(s1, 1));
    check!(cudaErrorInvalidResourceHandle, cudaStreamDestroy(s1));
    check!(cudaErrorInvalidResourceHandle, cudaEventDestroy(e1));
    // The device works again, and device 0's objects are untouched.
    check!(cudaSuccess, kernel(null_mut(), 10));
    check!(cudaSuccess, cudaDeviceSynchronize());
    check!(cudaSuccess, cudaSetDevice(0));
    check!(cudaSuccess, cudaEventRecord(e0, s0));
    check!(cudaSuccess, cudaStreamSynchronize(s0));
}

/// cuda-musa.md · Devices and peers · DeviceReset · — → later use of its memory: sim 400 (the row's "them"
/// includes memory)
#[test]
fn device_reset_later_use_of_memory_is_400() {
    let (_m, p) = machine(1);
    let _g = p.bind();
    let d = dmalloc(256);
    check!(cudaSuccess, cudaDeviceReset());
    check!(cudaErrorInvalidResourceHandle, cudaMemset(d, 0, 256));
    check!(cudaErrorInvalidResourceHandle, cudaFree(d));
}
