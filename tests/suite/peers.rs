//! Truth-table tests: peer access — `docs/semantics/cuda-musa.md` · Devices and peers (DeviceCanAccessPeer,
//! DeviceEnablePeerAccess, DeviceDisablePeerAccess, peer access, MemcpyPeer) and `docs/semantics/acl.md` ·
//! Peers, memory, timeouts, init (DeviceCanAccessPeer, Enable/DisablePeerAccess, Memcpy D2D across devices) —
//! through the core API in both dialects, with the topology from `MachineBuilder::peer_links`, the Ascend
//! multi-device guide's P2P sample, and the copy times of the cost model (`src/engine/core/time.rs`: peer link 3 µs +
//! bytes / 50 GB/s; staged through the host = device→host (2 µs + bytes / 16 GB/s) + host→device (the same)).
//! Conventions as in `multi_device.rs`.

use streamsim::{
    CopyPath, Dialect, Machine, OpKind, PeerProblem, Process, SimError, Stream, StreamFlags,
    VirtualTime,
};

use crate::multi_device::{DIALECTS, machine, us};

fn peer_err(what: &'static str, device: u32, peer: u32, problem: PeerProblem) -> SimError {
    SimError::PeerAccess {
        what,
        device,
        peer,
        problem,
    }
}

fn flags_err(flags: u32) -> SimError {
    SimError::InvalidFlags {
        what: "enable_peer_access",
        flags,
        reason: "peer access flags are reserved and must be 0",
    }
}

/// A machine with three devices where only 0–1 and 1–2 are linked.
fn chain(dialect: Dialect) -> Machine {
    Machine::builder()
        .devices(3)
        .dialect(dialect)
        .peer_links([(1, 0), (1, 2)])
        .build()
        .unwrap()
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer(d, d) · same device → 0 (Success, value 0)
#[test]
fn cuda_can_access_peer_of_the_same_device_is_false() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    assert_eq!(p.can_access_peer(0, 0), Ok(false));
    assert_eq!(p.can_access_peer(1, 1), Ok(false));
}

/// acl.md · Peers · DeviceCanAccessPeer · deviceId == peerDeviceId → 100000
#[test]
fn acl_can_access_peer_of_the_same_device_is_invalid() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    assert_eq!(
        p.can_access_peer(1, 1),
        Err(peer_err("can_access_peer", 1, 1, PeerProblem::SameDevice))
    );
}

/// cuda-musa.md · Devices and peers · DeviceCanAccessPeer · bad ordinal → 101 (ACL: the same InvalidDevice,
/// 107001; no row)
#[test]
fn can_access_peer_with_a_bad_ordinal_is_invalid_device() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        let bad = |device| SimError::InvalidDevice { device, count: 2 };
        assert_eq!(p.can_access_peer(0, 2), Err(bad(2)), "{dialect:?}");
        assert_eq!(p.can_access_peer(-1, 0), Err(bad(-1)), "{dialect:?}");
        assert_eq!(p.can_access_peer(5, 5), Err(bad(5)), "{dialect:?}");
    }
}

/// Builder: the topology (which pairs have a link, in either order; default every pair) is what
/// can-access-peer reports (the Ascend multi-device guide: "根据硬件组网 … 查询两个Device之间是否支持数据交互")
#[test]
fn can_access_peer_follows_the_topology() {
    for dialect in DIALECTS {
        let m = chain(dialect);
        let p = m.process();
        let answers: Vec<_> = [(0, 1), (1, 0), (1, 2), (2, 1), (0, 2), (2, 0)]
            .into_iter()
            .map(|(a, b)| p.can_access_peer(a, b).unwrap())
            .collect();
        assert_eq!(
            answers,
            [true, true, true, true, false, false],
            "{dialect:?}"
        );
        let all = machine(dialect, 3).process();
        assert_eq!(all.can_access_peer(0, 2), Ok(true), "default: every pair");
    }
    for links in [vec![(0, 0)], vec![(0, 3)]] {
        let r = Machine::builder().devices(3).peer_links(links).build();
        assert!(
            matches!(
                r,
                Err(SimError::InvalidValue {
                    what: "peer_links",
                    ..
                })
            ),
            "{r:?}"
        );
    }
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · flags != 0 (checked first) → 1
#[test]
fn cuda_enable_peer_access_checks_flags_first() {
    let m = chain(Dialect::Cuda);
    let p = m.process();
    assert_eq!(p.enable_peer_access(1, 1), Err(flags_err(1)));
    assert_eq!(
        p.enable_peer_access(0, 2),
        Err(flags_err(2)),
        "before same device"
    );
    assert_eq!(
        p.enable_peer_access(2, 4),
        Err(flags_err(4)),
        "before no link"
    );
    assert_eq!(
        p.enable_peer_access(9, 8),
        Err(flags_err(8)),
        "before the ordinal"
    );
    assert!(!p.peer_access_enabled(0, 1));
}

/// acl.md · Peers · EnablePeerAccess · flags != 0 → 200006, checked before the peer (the runtime's
/// `aclrtDeviceEnablePeerAccessImpl` checks the reserved flags first, src/acl/aclrt_impl/memory.cpp)
#[test]
fn acl_enable_peer_access_checks_flags_first() {
    let m = chain(Dialect::Acl);
    let p = m.process();
    p.set_device(0).unwrap();
    assert_eq!(p.enable_peer_access(1, 1), Err(flags_err(1)));
    assert_eq!(
        p.enable_peer_access(0, 1),
        Err(flags_err(1)),
        "before same device"
    );
    assert_eq!(
        p.enable_peer_access(9, 1),
        Err(flags_err(1)),
        "before the ordinal"
    );
    assert_eq!(
        p.enable_peer_access(0, 0),
        Err(peer_err(
            "enable_peer_access",
            0,
            0,
            PeerProblem::SameDevice
        ))
    );
    assert_eq!(
        p.enable_peer_access(9, 0),
        Err(SimError::InvalidDevice {
            device: 9,
            count: 3
        })
    );
    assert!(!p.peer_access_enabled(0, 1));
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · peer == current device → 101;
/// acl.md · Peers · Enable/DisablePeerAccess · peer == current device → 100000
#[test]
fn enable_or_disable_peer_access_to_the_current_device_is_rejected() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(1).unwrap();
        assert_eq!(
            p.enable_peer_access(1, 0),
            Err(peer_err(
                "enable_peer_access",
                1,
                1,
                PeerProblem::SameDevice
            )),
            "{dialect:?}"
        );
        assert_eq!(
            p.disable_peer_access(1),
            Err(peer_err(
                "disable_peer_access",
                1,
                1,
                PeerProblem::SameDevice
            )),
            "{dialect:?}"
        );
    }
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · the topology has no link between them → 101
/// (ACL has no row; the simulator answers the same PeerAccess NoLink)
#[test]
fn enable_peer_access_without_a_link_is_rejected() {
    for dialect in DIALECTS {
        let m = chain(dialect);
        let p = m.process();
        p.set_device(0).unwrap();
        assert_eq!(
            p.enable_peer_access(2, 0),
            Err(peer_err("enable_peer_access", 0, 2, PeerProblem::NoLink)),
            "{dialect:?}"
        );
        assert!(!p.peer_access_enabled(0, 2));
        p.enable_peer_access(1, 0).unwrap();
        assert!(p.peer_access_enabled(0, 1));
    }
}

/// cuda-musa.md · Devices and peers · peer access · — → one direction only; acl.md · Peers · EnablePeerAccess ·
/// — → one direction (current → peer); both: per process (the Ascend multi-device guide: "开启当前Device到指定Device的数据交互")
#[test]
fn enable_peer_access_is_one_direction_in_one_process() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        let other = m.process();
        p.set_device(0).unwrap();
        p.enable_peer_access(1, 0).unwrap();
        assert!(p.peer_access_enabled(0, 1), "{dialect:?}");
        assert!(!p.peer_access_enabled(1, 0), "{dialect:?}: one direction");
        assert!(!other.peer_access_enabled(0, 1), "{dialect:?}: one process");
        // Another thread of the same process shares the process's table.
        let q = p.clone();
        let seen = std::thread::spawn(move || q.peer_access_enabled(0, 1))
            .join()
            .unwrap();
        assert!(seen, "{dialect:?}");
        p.set_device(1).unwrap();
        p.enable_peer_access(0, 0).unwrap();
        assert!(p.peer_access_enabled(1, 0));
        p.disable_peer_access(0).unwrap();
        assert!(!p.peer_access_enabled(1, 0));
        assert!(
            p.peer_access_enabled(0, 1),
            "disabling one direction keeps the other"
        );
    }
}

/// cuda-musa.md · Devices and peers · DeviceEnablePeerAccess · twice → 704; DeviceDisablePeerAccess · not
/// enabled → 705
#[test]
fn cuda_enable_twice_or_disable_when_not_enabled_are_errors() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    assert_eq!(
        p.disable_peer_access(1),
        Err(peer_err(
            "disable_peer_access",
            0,
            1,
            PeerProblem::NotEnabled
        ))
    );
    p.enable_peer_access(1, 0).unwrap();
    assert_eq!(
        p.enable_peer_access(1, 0),
        Err(peer_err(
            "enable_peer_access",
            0,
            1,
            PeerProblem::AlreadyEnabled
        ))
    );
    assert!(p.peer_access_enabled(0, 1));
    p.disable_peer_access(1).unwrap();
    assert_eq!(
        p.disable_peer_access(1),
        Err(peer_err(
            "disable_peer_access",
            0,
            1,
            PeerProblem::NotEnabled
        ))
    );
}

/// acl.md · Peers · Enable twice / Disable when not enabled · vendor: undefined → sim: 0 (idempotent), noted in
/// the trace
#[test]
fn acl_enable_twice_or_disable_when_not_enabled_are_idempotent_and_traced() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.set_device(0).unwrap(); // (t1)
    p.enable_peer_access(1, 0).unwrap(); // (t2)
    p.enable_peer_access(1, 0).unwrap(); // (t3)
    assert!(p.peer_access_enabled(0, 1));
    p.disable_peer_access(1).unwrap(); // (t4)
    p.disable_peer_access(1).unwrap(); // (t5)
    assert!(!p.peer_access_enabled(0, 1));
    let notes: Vec<_> = m
        .trace()
        .host
        .iter()
        .map(|h| (h.label.clone(), h.start))
        .collect();
    assert_eq!(
        notes,
        [
            (
                "enable_peer_access(0 → 1): AlreadyEnabled, no-op".to_string(),
                us(3)
            ),
            (
                "disable_peer_access(0 → 1): NotEnabled, no-op".to_string(),
                us(5)
            ),
        ]
    );
}

/// cuda-musa.md · Devices and peers · peer access · — → lasts until disabled or either device is reset;
/// the brief: "reset of either device clears access" (ACL too)
#[test]
fn reset_of_either_device_clears_peer_access() {
    for dialect in DIALECTS {
        for reset in [0, 1] {
            let m = machine(dialect, 3);
            let p = m.process();
            p.set_device(0).unwrap();
            p.enable_peer_access(1, 0).unwrap();
            p.enable_peer_access(2, 0).unwrap();
            p.set_device(1).unwrap();
            p.enable_peer_access(0, 0).unwrap();
            p.enable_peer_access(2, 0).unwrap();
            let other = m.process();
            other.set_device(0).unwrap();
            other.enable_peer_access(1, 0).unwrap();
            p.reset_device(reset).unwrap();
            let left: Vec<_> = [(0, 1), (1, 0), (0, 2), (1, 2)]
                .into_iter()
                .filter(|&(a, b)| p.peer_access_enabled(a, b))
                .collect();
            let expect = if reset == 0 { [(1, 2)] } else { [(0, 2)] };
            assert_eq!(left, expect, "{dialect:?}, reset of device {reset}");
            assert!(
                other.peer_access_enabled(0, 1),
                "another process keeps its access"
            );
            // Access can be enabled again (no AlreadyEnabled in CUDA).
            p.set_device(reset).unwrap();
            p.enable_peer_access(1 - reset, 0).unwrap();
        }
    }
}

const N: u64 = 1_000_000;

/// Fills `N` bytes on device 0 with 7s, then copies them to device 1 (current device 1) with `memcpy`, before
/// and after enabling access 1 → 0. Returns the results of the two copies and the bytes that arrived.
fn peer_copy(p: &Process) -> (Result<(), SimError>, Result<(), SimError>, Vec<u8>) {
    p.set_device(0).unwrap(); // (t1)
    let a = p.malloc(N).unwrap(); // (t2)
    p.memset(a, 7, N).unwrap(); // (t3) 5..8 (1 µs + 1 MB / 500 GB/s), host → 8
    p.set_device(1).unwrap(); // (t9)
    let b = p.malloc(N).unwrap(); // (t10)
    let without = p.memcpy(b, a, N); // (t11)
    p.enable_peer_access(0, 0).unwrap();
    let with = p.memcpy(b, a, N);
    let mut out = vec![0u8; N as usize];
    p.memcpy(&mut out, b, N).unwrap();
    (without, with, out)
}

fn copies(m: &Machine) -> Vec<(CopyPath, VirtualTime, VirtualTime)> {
    m.trace()
        .ops
        .iter()
        .filter_map(|o| match o.kind {
            OpKind::Memcpy { path, bytes: N } if o.stream.device == 1 => {
                Some((path, o.start, o.end))
            }
            _ => None,
        })
        .collect()
}

/// cuda-musa.md · Devices and peers · MemcpyPeer · peer access not enabled → works (staged through the host,
/// slower); with access enabled the copy goes over the peer link
#[test]
fn cuda_peer_copy_is_staged_through_the_host_without_access_and_uses_the_link_with_it() {
    let m = machine(Dialect::Cuda, 2);
    let p = m.process();
    let (without, with, out) = peer_copy(&p);
    assert_eq!((without, with), (Ok(()), Ok(())));
    assert!(out.iter().all(|&b| b == 7), "the bytes arrived");
    let cost = m.cost_model();
    assert_eq!(cost.copy_nanos(CopyPath::StagedThroughHost, N), 129_000); // 2 × (2 µs + 62.5 µs)
    assert_eq!(cost.copy_nanos(CopyPath::PeerLink, N), 23_000); // 3 µs + 20 µs
    assert_eq!(cost.copy_nanos(CopyPath::DeviceToHost, N), 64_500);
    assert_eq!(
        copies(&m),
        [
            // (t11): staged, 13..142; host → 142
            (CopyPath::StagedThroughHost, us(13), us(142)),
            // enable (t143), copy (t144): 146..169; host → 169
            (CopyPath::PeerLink, us(146), us(169)),
            // read back (t170): 172..236.5
            (CopyPath::DeviceToHost, us(172), VirtualTime(236_500)),
        ]
    );
}

/// acl.md · Peers · Memcpy D2D across devices · peer access not enabled → docs: fails. sim: 107000 with a
/// message naming the missing EnablePeerAccess; with access enabled the copy goes over the peer link
#[test]
fn acl_peer_copy_is_refused_without_access_and_uses_the_link_with_it() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    let (without, with, out) = peer_copy(&p);
    let refused = SimError::PeerAccessRequired {
        what: "memcpy",
        src: 0,
        dst: 1,
    };
    assert_eq!(without, Err(refused.clone()));
    assert!(
        refused.to_string().contains("enable_peer_access"),
        "{refused}"
    );
    assert_eq!(with, Ok(()));
    assert!(out.iter().all(|&b| b == 7), "the bytes arrived");
    assert_eq!(
        copies(&m),
        [
            // the refused copy (t11) took no time; enable (t12), copy (t13): 15..38
            (CopyPath::PeerLink, us(15), us(38)),
            // read back (t39): 41..105.5
            (CopyPath::DeviceToHost, us(41), VirtualTime(105_500)),
        ]
    );
}

/// acl.md · Peers · Memcpy D2D across devices · peer access not enabled → 107000 (MemcpyAsync too); CUDA:
/// MemcpyPeerAsync works, staged through the host
#[test]
fn async_peer_copy_without_access_acl_refuses_cuda_stages() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(0).unwrap(); // (t1)
        let a = p.malloc(N).unwrap(); // (t2)
        p.set_device(1).unwrap(); // (t3)
        let b = p.malloc(N).unwrap(); // (t4)
        let s = p.create_stream(StreamFlags::DEFAULT).unwrap(); // (t5)
        let r = p.memcpy_async(b, a, N, s); // (t6)
        p.stream_synchronize(s).unwrap();
        match dialect {
            Dialect::Acl => {
                assert_eq!(
                    r,
                    Err(SimError::PeerAccessRequired {
                        what: "memcpy_async",
                        src: 0,
                        dst: 1
                    })
                );
                assert_eq!(copies(&m), []);
            }
            _ => {
                assert_eq!(r, Ok(()));
                assert_eq!(copies(&m), [(CopyPath::StagedThroughHost, us(8), us(137))]);
            }
        }
    }
}

/// the Ascend multi-device guide · 跨Device的数据交互: the P2P sample, call for call (ACL), with every call succeeding and
/// the bytes arriving over the peer link
#[test]
fn acl_seed_001_p2p_copy_sample() {
    let m = machine(Dialect::Acl, 2);
    let p = m.process();
    p.runtime_init().unwrap(); // aclInit(NULL)
    assert_eq!(p.can_access_peer(0, 1), Ok(true));
    p.set_device(0).unwrap();
    p.enable_peer_access(1, 0).unwrap(); // Device 0 → Device 1
    let dev0 = p.malloc(10).unwrap(); // ACL_MEM_MALLOC_HUGE_FIRST_P2P
    p.memcpy(dev0, b"0123456789", 10).unwrap();
    p.set_device(1).unwrap();
    p.enable_peer_access(0, 0).unwrap(); // Device 1 → Device 0
    let dev1 = p.malloc(10).unwrap();
    p.memcpy(dev1, dev0, 10).unwrap(); // Device 0 → Device 1
    p.disable_peer_access(0).unwrap();
    let mut back = [0u8; 10];
    p.memcpy(&mut back, dev1, 10).unwrap();
    assert_eq!(&back, b"0123456789");
    p.free(dev1).unwrap();
    p.reset_device(1).unwrap();
    p.set_device(0).unwrap();
    p.disable_peer_access(1).unwrap();
    p.free(dev0).unwrap();
    p.reset_device_force(0).unwrap();
    p.runtime_finalize().unwrap();
    let paths: Vec<_> = m
        .trace()
        .ops
        .iter()
        .filter_map(|o| match o.kind {
            OpKind::Memcpy { path, .. } => Some(path),
            _ => None,
        })
        .collect();
    assert_eq!(
        paths,
        [
            CopyPath::HostToDevice,
            CopyPath::PeerLink,
            CopyPath::DeviceToHost
        ]
    );
    // Stream::DEFAULT after the resets: no context.
    assert_eq!(
        p.stream_query(Stream::DEFAULT),
        Err(SimError::NoContext { what: "stream" })
    );
}

/// cuda-musa.md · Devices and peers · peer access · — → one direction only; acl.md · Peers · EnablePeerAccess ·
/// — → one direction (current → peer): for copies too, the device that runs the copy (its stream's) must have
/// enabled access to the other device (sim: the rule the reference implies; the Ascend multi-device guide's sample
/// enables 1 → 0 and copies 0 → 1 on device 1)
#[test]
fn a_peer_copy_needs_access_from_the_device_that_runs_it() {
    for dialect in DIALECTS {
        let m = machine(dialect, 2);
        let p = m.process();
        p.set_device(1).unwrap();
        let b = p.malloc(64).unwrap();
        p.set_device(0).unwrap();
        let a = p.malloc(64).unwrap();
        p.enable_peer_access(1, 0).unwrap(); // 0 → 1 only
        // Run by device 0 (its default stream): over the link, in both directions of data.
        p.memcpy(b, a, 64).unwrap();
        p.memcpy(a, b, 64).unwrap();
        // Run by device 1, which has not enabled access to device 0.
        p.set_device(1).unwrap();
        let r = p.memcpy(b, a, 64);
        let paths: Vec<_> = m
            .trace()
            .ops
            .iter()
            .filter_map(|o| match o.kind {
                OpKind::Memcpy { path, .. } => Some((o.stream.device, path)),
                _ => None,
            })
            .collect();
        let link = (0, CopyPath::PeerLink);
        match dialect {
            Dialect::Acl => {
                assert_eq!(
                    r,
                    Err(SimError::PeerAccessRequired {
                        what: "memcpy",
                        src: 0,
                        dst: 1
                    })
                );
                assert_eq!(paths, [link, link]);
            }
            _ => {
                assert_eq!(r, Ok(()));
                assert_eq!(paths, [link, link, (1, CopyPath::StagedThroughHost)]);
            }
        }
    }
}
