//! acl.md rows through the ACL facade: the Ascend multi-device guide.

use super::*;

/// The Ascend multi-device guide · 多Device选择: device count and per-device attributes, then SetDevice / CreateStream
/// on each device and ResetDeviceForce of both
#[test]
fn seed001_device_selection() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers.
        unsafe {
            // 获取Device数量及其对应的属性信息
            let mut device_count: u32 = 0;
            ok(aclrtGetDeviceCount(&mut device_count));
            assert_eq!(device_count, 2);
            let mut device_id: u32 = 0;
            while device_id < device_count {
                // 按需查询设备属性信息
                let attr: aclrtDevAttr = ACL_DEV_ATTR_VECTOR_CORE_NUM;
                let mut value: i64 = 0;
                ok(aclrtGetDeviceInfo(device_id, attr, &mut value));
                assert_eq!(value, 48);
                device_id += 1;
            }
            // 指定Device 0作为计算设备，并将Device 0的默认Context作为当前线程的默认Context
            ok(aclrtSetDevice(0));
            let mut s0: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s0));
            ok(kernel(s0, 100)); // 执行任务1
            // 指定Device 1作为计算设备
            ok(aclrtSetDevice(1));
            let mut s1: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s1));
            ok(kernel(s1, 100)); // 执行任务2
            // 复位Device 1，释放计算资源，线程默认Context被释放
            ok(aclrtResetDeviceForce(1));
            // 如需继续运行任务，需要显式指定Device和Context
            assert_eq!(get_device(), Err(ACL_ERROR_RT_CONTEXT_NULL));
            let mut s = NULL;
            assert_eq!(aclrtCreateStream(&mut s), ACL_ERROR_RT_CONTEXT_NULL);
            // 复位device0，释放计算资源
            ok(aclrtResetDeviceForce(0));
            assert_eq!(aclrtSynchronizeStream(s0), ACL_ERROR_RT_INVALID_HANDLE);
            assert_eq!(aclrtSynchronizeStream(s1), ACL_ERROR_RT_INVALID_HANDLE);
        }
    });
}

/// The Ascend multi-device guide · Stream和Event的行为: a launch on s0 (device 0) from device 1 fails
#[test]
fn seed001_launch_on_a_stream_of_another_device_fails() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers.
        unsafe {
            ok(aclrtSetDevice(0)); // 指定Device 0作为计算设备
            let mut s0: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s0)); // 在Device 0上创建Stream s0
            ok(kernel(s0, 8)); // 在Device 0上通过Stream s0下发算子
            ok(aclrtSetDevice(1)); // 指定Device 1作为计算设备
            let mut s1: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut s1)); // 在Device 1上创建Stream s1
            ok(kernel(s1, 8)); // 在Device 1上通过Stream s1下发算子
            // 算子下发失败
            assert_eq!(kernel(s0, 8), ACL_ERROR_RT_STREAM_CONTEXT); // 在Device 1上通过Stream s0下发算子
        }
    });
}

/// The Ascend multi-device guide · Stream和Event的行为: MemcpyAsync on a stream of another device, RecordEvent and
/// StreamWaitEvent with event and stream on different devices fail; SynchronizeEvent and QueryEvent of an event of
/// another device succeed
#[test]
fn seed001_cross_device_stream_and_event_rules() {
    on_acl(2, |_| {
        // SAFETY: valid out-pointers and 64-byte buffers.
        unsafe {
            ok(aclrtSetDevice(0));
            let s0 = new_stream();
            let e0 = new_event();
            let d0 = malloc(64);
            let host = [3u8; 64];
            ok(kernel(s0, 500));
            ok(aclrtRecordEvent(e0, s0));
            ok(aclrtSetDevice(1));
            let s1 = new_stream();
            let e1 = new_event();
            // 当Stream所属的Device和当前操作的Device不相同时，在此Stream上调用aclrtMemcpyAsync会失败
            assert_eq!(
                aclrtMemcpyAsync(
                    d0,
                    64,
                    host.as_ptr().cast(),
                    64,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                    s0
                ),
                107003
            );
            // 当Event和Stream关联到不同的Device上时，调用aclrtRecordEvent会失败
            assert_eq!(aclrtRecordEvent(e0, s1), 107003);
            assert_eq!(aclrtRecordEvent(e1, s0), 107003);
            // 当Event和Stream关联到不同的Device上时，调用aclrtStreamWaitEvent会失败
            assert_eq!(aclrtStreamWaitEvent(s1, e0), 107003);
            // 当Event所属的Device和当前操作的Device不相同时，aclrtSynchronizeEvent和aclrtQueryEvent会成功
            let mut status: aclrtEventStatus = ACL_EVENT_STATUS_RESERVED;
            ok(aclrtQueryEvent(e0, &mut status));
            assert_eq!(status, ACL_EVENT_STATUS_NOT_READY);
            ok(aclrtSynchronizeEvent(e0));
            ok(aclrtQueryEvent(e0, &mut status));
            assert_eq!(status, ACL_EVENT_STATUS_COMPLETE);
        }
    });
}

/// The Ascend multi-device guide · 跨Device的数据交互: the P2P copy sample, line by line (plus a check that the bytes
/// arrived)
#[test]
fn seed001_p2p_copy_sample() {
    let printed = on_machine(&acl_machine(2), |p| {
        // SAFETY: valid out-pointers; device buffers of 10 bytes.
        unsafe {
            ok(aclInit(std::ptr::null())); // 初始化
            let mut can_access_peer: i32 = 0;
            ok(aclrtDeviceCanAccessPeer(&mut can_access_peer, 0, 1)); // 查询Device 0和Device 1之间是否支持数据交互
            let printed = if can_access_peer == 1 {
                ok(aclrtSetDevice(0)); // Device 0下的操作
                let reserve_flag: u32 = 0;
                ok(aclrtDeviceEnablePeerAccess(1, reserve_flag)); // 开启当前Device(Device 0)到指定Device(Device 1）的数据交互
                let mut dev0_mem: Ptr = NULL;
                ok(aclrtMalloc(
                    &mut dev0_mem,
                    10,
                    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ));
                // (not in the sample: put known bytes in dev0Mem)
                let src: [u8; 10] = *b"0123456789";
                ok(aclrtMemcpy(
                    dev0_mem,
                    10,
                    src.as_ptr().cast(),
                    10,
                    ACL_MEMCPY_HOST_TO_DEVICE,
                ));
                ok(aclrtSetDevice(1)); // Device 1下的操作
                ok(aclrtDeviceEnablePeerAccess(0, reserve_flag)); // 开启当前Device(Device 1)到指定Device(Device 0）的数据交互
                let mut dev1_mem: Ptr = NULL;
                ok(aclrtMalloc(
                    &mut dev1_mem,
                    10,
                    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                ));
                ok(aclrtMemcpy(
                    dev1_mem,
                    10,
                    dev0_mem,
                    10,
                    ACL_MEMCPY_DEVICE_TO_DEVICE,
                )); // 将Device 0上的内存数据复制到Device 1上
                // (not in the sample: read dev1Mem back)
                let mut back = [0u8; 10];
                ok(aclrtMemcpy(
                    back.as_mut_ptr().cast(),
                    10,
                    dev1_mem,
                    10,
                    ACL_MEMCPY_DEVICE_TO_HOST,
                ));
                assert_eq!(&back, b"0123456789");
                ok(aclrtDeviceDisablePeerAccess(0)); // 关闭当前Device（Device 1）到指定Device（Device 0）的数据交互
                ok(aclrtFree(dev1_mem));
                ok(aclrtResetDevice(1)); // 释放Device 1的资源
                ok(aclrtSetDevice(0)); // 切换到Device 0上进行操作
                ok(aclrtDeviceDisablePeerAccess(1)); // 关闭当前Device（Device 0）到指定Device（Device 1）的数据交互
                ok(aclrtFree(dev0_mem));
                ok(aclrtResetDeviceForce(0)); // Device 0下的操作，调用aclrtResetDeviceForce接口释放Device 0的资源
                "P2P copy success"
            } else {
                "current device doesn't support p2p feature"
            };
            ok(aclFinalize()); // 去初始化
            assert!(!p.peer_access_enabled(0, 1) && !p.peer_access_enabled(1, 0));
            printed
        }
    });
    assert_eq!(printed, "P2P copy success");
    // The else branch, on a machine whose devices are not linked.
    let unlinked = Machine::builder()
        .devices(2)
        .dialect(Dialect::Acl)
        .peer_links([])
        .build()
        .unwrap();
    let printed = on_machine(&unlinked, |_| {
        let mut can_access_peer: i32 = 0;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtDeviceCanAccessPeer(&mut can_access_peer, 0, 1) });
        if can_access_peer == 1 {
            "P2P copy success"
        } else {
            "current device doesn't support p2p feature"
        }
    });
    assert_eq!(printed, "current device doesn't support p2p feature");
}
