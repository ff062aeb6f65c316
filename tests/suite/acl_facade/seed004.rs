//! acl.md rows through the ACL facade: the CANN stream-vs-event note (stream vs event sync).

use super::*;

pub(super) const SIZE: usize = 1 << 20;

/// Pinned host buffer filled with `byte`.
pub(super) fn pinned(byte: u8) -> Ptr {
    let h = malloc_host(SIZE);
    // SAFETY: SIZE bytes of pinned host memory, not in use by any copy yet.
    unsafe { std::ptr::write_bytes(h.cast::<u8>(), byte, SIZE) };
    h
}

/// The first and last byte of a pinned buffer.
pub(super) fn ends(h: Ptr) -> (u8, u8) {
    // SAFETY: SIZE bytes of pinned host memory; the copies into it have finished.
    unsafe { (*h.cast::<u8>(), *h.cast::<u8>().add(SIZE - 1)) }
}

/// The CANN stream-vs-event note · 场景1：单 Stream 等待整批任务 → Stream 同步 (and the not-recommended event variant)
#[test]
fn seed004_scenario1_single_stream_batch() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (src, host) = (pinned(0x5A), pinned(0));
        let dst = malloc(SIZE);
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let mut stream: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut stream));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(kernel(stream, 200)); // myKernel<<<..., stream>>>();
            ok(aclrtMemcpyAsync(
                host,
                SIZE,
                dst,
                SIZE,
                ACL_MEMCPY_DEVICE_TO_HOST,
                stream,
            ));
            // 推荐：Stream 同步
            ok(aclrtSynchronizeStream(stream)); // 等待整流完成
            assert_eq!(ends(host), (0x5A, 0x5A));
            // 不推荐：Event 同步（过度设计）
            let mut event: aclrtEvent = NULL;
            ok(aclrtCreateEvent(&mut event));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(aclrtRecordEvent(event, stream));
            ok(aclrtSynchronizeEvent(event)); // 多了一步 RecordEvent，复杂度高
            assert_eq!(stream_status(stream), ACL_STREAM_STATUS_COMPLETE);
        }
    });
}

/// The CANN stream-vs-event note · 场景2：跨 Stream 协调 → Event 同步; and 现象1: aclrtSynchronizeStream(stream1) does not
/// wait for stream2
#[test]
fn seed004_scenario2_cross_stream_coordination() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0));
        let (src1, src2) = (pinned(1), pinned(2));
        let (dst1, dst2) = (malloc(SIZE), malloc(SIZE));
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let mut stream1: aclrtStream = NULL;
            let mut stream2: aclrtStream = NULL;
            ok(aclrtCreateStream(&mut stream1));
            ok(aclrtCreateStream(&mut stream2));
            ok(aclrtMemcpyAsync(
                dst1,
                SIZE,
                src1,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream1,
            ));
            // 推荐：Event 同步
            let mut event: aclrtEvent = NULL;
            ok(aclrtCreateEvent(&mut event));
            ok(aclrtRecordEvent(event, stream1)); // stream1 记录时间点
            ok(aclrtStreamWaitEvent(stream2, event)); // stream2 等待该时间点
            ok(aclrtMemcpyAsync(
                dst2,
                SIZE,
                src2,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream2,
            ));
            // (not in the sample: when did stream2's copy end?)
            let after2 = new_event();
            ok(aclrtRecordEvent(after2, stream2));
            ok(aclrtSynchronizeEvent(after2));
            // 1 MiB at 16 GB/s + 2 µs latency, starting when stream1's copy ended.
            let ms = elapsed(event, after2).unwrap();
            assert!((ms - 0.067_536).abs() < 1e-6, "{ms}");
            // 不推荐：Stream 同步（会阻塞 stream1，影响并发）
            ok(kernel(stream1, 5_000));
            ok(kernel(stream2, 5_000));
            ok(aclrtSynchronizeStream(stream1)); // 阻塞 stream1 全部任务
            let t = now_us(p);
            ok(aclrtMemcpyAsync(
                dst2,
                SIZE,
                src2,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream2,
            ));
            assert!(t >= 5_000);
            // 现象1: stream1's synchronize did not wait for stream2.
            let mut st = ACL_STREAM_STATUS_RESERVED;
            ok(aclrtStreamQuery(stream2, &mut st));
            assert_eq!(st, ACL_STREAM_STATUS_NOT_READY);
            ok(aclrtSynchronizeDevice());
        }
    });
}

/// The CANN stream-vs-event note · 场景3：精细时间点控制 → Event 同步: waiting for event2 does not wait for the copy after it
#[test]
fn seed004_scenario3_fine_grained_time_points() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let (src, host) = (pinned(7), pinned(0));
        let dst = malloc(SIZE);
        // SAFETY: valid out-pointers; SIZE-byte buffers.
        unsafe {
            let stream = new_stream();
            let (mut event1, mut event2, mut event3): (aclrtEvent, aclrtEvent, aclrtEvent) =
                (NULL, NULL, NULL);
            ok(aclrtCreateEvent(&mut event1));
            ok(aclrtCreateEvent(&mut event2));
            ok(aclrtCreateEvent(&mut event3));
            ok(aclrtMemcpyAsync(
                dst,
                SIZE,
                src,
                SIZE,
                ACL_MEMCPY_HOST_TO_DEVICE,
                stream,
            ));
            ok(aclrtRecordEvent(event1, stream)); // 记录复制完成时间点
            ok(kernel(stream, 500)); // myKernel<<<..., stream>>>();
            ok(aclrtRecordEvent(event2, stream)); // 记录算子完成时间点
            ok(aclrtMemcpyAsync(
                host,
                SIZE,
                dst,
                SIZE,
                ACL_MEMCPY_DEVICE_TO_HOST,
                stream,
            ));
            ok(aclrtRecordEvent(event3, stream)); // 记录输出复制完成时间点
            // 灵活等待特定时间点
            ok(aclrtSynchronizeEvent(event2)); // 仅等待算子完成，不等待后续复制
            assert_eq!(recorded_status(event2), ACL_EVENT_RECORDED_STATUS_COMPLETE);
            assert_eq!(recorded_status(event3), ACL_EVENT_RECORDED_STATUS_NOT_READY);
            assert_eq!(elapsed(event1, event2), Ok(0.5), "the kernel alone");
            ok(aclrtSynchronizeEvent(event3));
            assert_eq!(ends(host), (7, 7));
        }
    });
}
