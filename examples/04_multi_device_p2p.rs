//! The Ascend multi-device guide — multi-device programming in ACL, on a simulated machine with two devices.
//!
//! Run with `cargo run --example 04_multi_device_p2p`. Three parts, in the ACL dialect through the core API,
//! with the CUDA dialect's different answers shown next to them:
//!
//! 1. **Device selection** (多Device选择): count the devices, query an attribute of each
//!    (`aclrtGetDeviceCount`, `aclrtGetDeviceInfo(ACL_DEV_ATTR_VECTOR_CORE_NUM)`), then set devices per thread.
//! 2. **Streams and events across devices** (Stream和Event的行为): a kernel launched on device 0's stream `s0`
//!    while device 1 is current fails; so do `aclrtMemcpyAsync` on `s0`, `aclrtRecordEvent` with event and
//!    stream on different devices, and `aclrtStreamWaitEvent` across devices; `aclrtSynchronizeEvent` and
//!    `aclrtQueryEventStatus` of another device's event work. CUDA allows more of these.
//! 3. **The P2P copy sample** (跨Device的数据交互), call for call, then the same copy without
//!    `aclrtDeviceEnablePeerAccess`: refused in ACL, staged through the host (and slower) in CUDA.

use std::time::Duration;

use streamsim::{
    Attribute, CopyPath, DeviceConfig, Dialect, EventFlags, Kernel, Machine, OpKind, Result,
    SimError, StreamFlags, VirtualTime,
};

/// A two-device machine in `dialect`; device 1 has fewer vector cores and less memory than device 0.
fn machine(dialect: Dialect) -> Result<Machine> {
    Machine::builder()
        .devices(2)
        .dialect(dialect)
        .device(
            1,
            DeviceConfig::default()
                .name("npu 1")
                .memory(32 << 30)
                .attribute(Attribute::VectorCoreCount, 40),
        )
        .seed(1)
        .build()
}

/// "ok" or the error, for the table.
fn answer<T>(r: Result<T>) -> String {
    match r {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{e}"),
    }
}

/// Part 1: device count, attributes, and set-device per host thread.
fn device_selection() -> Result<()> {
    println!("1. Device selection (ACL)\n");
    let machine = machine(Dialect::Acl)?;
    let p = machine.process();
    let count = p.device_count()?; // aclrtGetDeviceCount
    println!("  aclrtGetDeviceCount → {count}");
    for device in 0..count {
        // aclrtGetDeviceInfo(deviceId, attr, &value)
        let vector = machine.device_attribute(device, Attribute::VectorCoreCount)?;
        let aicore = machine.device_attribute(device, Attribute::AiCoreCount)?;
        let memory = machine.device_attribute(device, Attribute::TotalMemory)?;
        println!(
            "  device {device} ({}): VECTOR_CORE_NUM {vector}, AICORE_CORE_NUM {aicore}, TOTAL_GLOBAL_MEM_SIZE {} GiB",
            machine.device_config(device)?.name,
            memory >> 30
        );
    }
    // aclrtSetDevice switches the device of the calling thread only.
    p.set_device(1)?;
    let other = p.clone();
    let seen = std::thread::spawn(move || other.get_device())
        .join()
        .expect("thread");
    println!(
        "  after aclrtSetDevice(1) here: aclrtGetDevice → {:?} here",
        p.get_device()?
    );
    println!(
        "  and on another host thread:   aclrtGetDevice → {}",
        answer(seen)
    );
    // CUDA differs: every host thread starts on device 0.
    let cuda = machine_cuda_fresh_thread_device()?;
    println!("  (CUDA: a fresh host thread is on device {cuda})\n");
    p.reset_device(1)?;
    Ok(())
}

fn machine_cuda_fresh_thread_device() -> Result<u32> {
    let m = machine(Dialect::Cuda)?;
    m.process().get_device()
}

/// The reference tables' codes for the cases of part 2 (acl.md · Ownership; cuda-musa.md), in order. The
/// facades map the core's errors to these; this example prints the core's errors.
const REFERENCE: [&str; 6] = [
    "ACL 107003 / CUDA 400",
    "ACL 107003 / CUDA 0",
    "ACL 107003 (sim) / CUDA 400",
    "ACL 107003 (sim) / CUDA 0",
    "ACL 0 / CUDA 0",
    "ACL 0 / CUDA 0",
];

/// Part 2: the seed's stream and event cases in `dialect`; returns (case, answer) pairs.
fn stream_event_cases(dialect: Dialect) -> Result<Vec<(&'static str, String)>> {
    let machine = machine(dialect)?;
    let p = machine.process();
    let kernel = || Kernel::new("myKernel").duration(Duration::from_micros(20));

    p.set_device(0)?; // aclrtSetDevice(0)
    let s0 = p.create_stream(StreamFlags::DEFAULT)?; // stream s0 on device 0
    let e0 = p.create_event(EventFlags::DEFAULT)?;
    let buf0 = p.malloc(64)?;
    p.launch(s0, kernel())?; // myKernel<<<8, nullptr, s0>>>() on device 0: fine
    p.record_event(e0, s0)?;
    p.set_device(1)?; // aclrtSetDevice(1)
    let s1 = p.create_stream(StreamFlags::DEFAULT)?; // stream s1 on device 1
    let e1 = p.create_event(EventFlags::DEFAULT)?;
    p.launch(s1, kernel())?; // myKernel<<<8, nullptr, s1>>>() on device 1: fine

    let mut rows = vec![
        (
            "myKernel<<<s0>>> while device 1 is current",
            answer(p.launch(s0, kernel())),
        ),
        (
            "MemcpyAsync on s0 while device 1 is current",
            answer(p.memcpy_async(buf0, &[0u8; 64], 64, s0)),
        ),
        (
            "RecordEvent(e1 of device 1, s0)",
            answer(p.record_event(e1, s0)),
        ),
        (
            "StreamWaitEvent(s1, e0 of device 0)",
            answer(p.stream_wait_event(s1, e0)),
        ),
    ];
    let before = p.now();
    let sync = p.event_synchronize(e0);
    rows.push((
        "SynchronizeEvent(e0 of device 0)",
        format!("{} (host clock {before} → {})", answer(sync), p.now()),
    ));
    rows.push((
        "QueryEventStatus(e0 of device 0)",
        format!("{:?}", p.event_status(e0)?),
    ));
    p.device_synchronize()?;
    Ok(rows)
}

/// Part 3: the seed's P2P copy sample, call for call (ACL), printing each step.
fn p2p_sample() -> Result<()> {
    println!("3. The P2P copy sample (ACL)\n");
    let machine = machine(Dialect::Acl)?;
    let p = machine.process();
    let step = |call: &str, r: Result<()>| -> Result<()> {
        println!(
            "  {:<62} {:>10}  {}",
            call,
            p.now().to_string(),
            answer(r.clone())
        );
        r
    };
    step("aclInit(NULL)", p.runtime_init())?;
    let can = p.can_access_peer(0, 1)?;
    step(
        &format!("aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1) → {can}"),
        Ok(()),
    )?;
    if !can {
        println!("current device doesn't support p2p feature");
        return Ok(());
    }
    step("aclrtSetDevice(0)", p.set_device(0))?;
    step(
        "aclrtDeviceEnablePeerAccess(1, 0)",
        p.enable_peer_access(1, 0),
    )?;
    let dev0 = p.malloc(10)?;
    step(
        "aclrtMalloc(&dev0Mem, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P)",
        Ok(()),
    )?;
    step(
        "(fill dev0Mem with \"0123456789\")",
        p.memcpy(dev0, b"0123456789", 10),
    )?;
    step("aclrtSetDevice(1)", p.set_device(1))?;
    step(
        "aclrtDeviceEnablePeerAccess(0, 0)",
        p.enable_peer_access(0, 0),
    )?;
    let dev1 = p.malloc(10)?;
    step(
        "aclrtMalloc(&dev1Mem, 10, ACL_MEM_MALLOC_HUGE_FIRST_P2P)",
        Ok(()),
    )?;
    step(
        "aclrtMemcpy(dev1Mem, 10, dev0Mem, 10, DEVICE_TO_DEVICE)",
        p.memcpy(dev1, dev0, 10),
    )?;
    let mut back = [0u8; 10];
    p.memcpy(&mut back, dev1, 10)?;
    step(
        &format!("(read dev1Mem back: {:?})", String::from_utf8_lossy(&back)),
        Ok(()),
    )?;
    step("aclrtDeviceDisablePeerAccess(0)", p.disable_peer_access(0))?;
    step("aclrtFree(dev1Mem)", p.free(dev1))?;
    step("aclrtResetDevice(1)", p.reset_device(1))?;
    step("aclrtSetDevice(0)", p.set_device(0))?;
    step("aclrtDeviceDisablePeerAccess(1)", p.disable_peer_access(1))?;
    step("aclrtFree(dev0Mem)", p.free(dev0))?;
    step("aclrtResetDeviceForce(0)", p.reset_device_force(0))?;
    step("aclFinalize()", p.runtime_finalize())?;
    println!("P2P copy success");
    // aclrtResetDevice(1) also cleared device 0's access to device 1, so the second disable had nothing to do.
    for h in machine
        .trace()
        .host
        .iter()
        .filter(|h| h.label.contains("no-op"))
    {
        println!("  (noted in the trace: {} at {})", h.label, h.start);
    }
    println!();
    Ok(())
}

/// Copies 1 MB from device 0 to device 1, without and then with peer access; returns what each copy
/// answered and how long it took in virtual time.
fn peer_copy(dialect: Dialect) -> Result<Vec<(String, String)>> {
    const N: u64 = 1_000_000;
    let machine = machine(dialect)?;
    let p = machine.process();
    p.set_device(0)?;
    let a = p.malloc(N)?;
    p.memset(a, 7, N)?;
    p.set_device(1)?;
    let b = p.malloc(N)?;
    let without = p.memcpy(b, a, N);
    p.enable_peer_access(0, 0)?;
    let with = p.memcpy(b, a, N);
    let took: Vec<(CopyPath, VirtualTime)> = machine
        .trace()
        .ops
        .iter()
        .filter_map(|o| match o.kind {
            OpKind::Memcpy { path, .. } => Some((path, VirtualTime(o.end.0 - o.start.0))),
            _ => None,
        })
        .collect();
    let describe = |r: &Result<()>, path: CopyPath| match r {
        Ok(()) => {
            let t = took.iter().find(|(p, _)| *p == path).map(|(_, t)| *t);
            format!("ok: {path:?}, {}", t.map_or("?".into(), |t| t.to_string()))
        }
        Err(e) => format!("{e}"),
    };
    Ok(vec![
        (
            "Memcpy D2D 1 MB without EnablePeerAccess".to_string(),
            describe(&without, CopyPath::StagedThroughHost),
        ),
        (
            "Memcpy D2D 1 MB after EnablePeerAccess(0)".to_string(),
            describe(&with, CopyPath::PeerLink),
        ),
    ])
}

fn print_side_by_side(rows: &[(String, String, String)], reference: &[&str]) {
    for (i, (case, acl, cuda)) in rows.iter().enumerate() {
        match reference.get(i) {
            Some(r) => println!("  {case}   [reference: {r}]"),
            None => println!("  {case}"),
        }
        println!("      ACL:  {acl}");
        if cuda != acl {
            println!("      CUDA: {cuda}");
        } else {
            println!("      CUDA: (the same)");
        }
    }
    println!();
}

fn main() -> Result<(), SimError> {
    device_selection()?;

    println!("2. Streams and events across devices (ACL, with CUDA's answers)\n");
    let acl = stream_event_cases(Dialect::Acl)?;
    let cuda = stream_event_cases(Dialect::Cuda)?;
    let rows: Vec<_> = acl
        .into_iter()
        .zip(cuda)
        .map(|((case, a), (_, c))| (case.to_string(), a, c))
        .collect();
    print_side_by_side(&rows, &REFERENCE);

    p2p_sample()?;

    println!("4. The same copy without peer access (ACL, with CUDA's answers)\n");
    let rows: Vec<_> = peer_copy(Dialect::Acl)?
        .into_iter()
        .zip(peer_copy(Dialect::Cuda)?)
        .map(|((case, a), (_, c))| (case, a, c))
        .collect();
    print_side_by_side(
        &rows,
        &["ACL 107000 (sim) / CUDA 0, staged", "ACL 0 / CUDA 0"],
    );
    Ok(())
}
