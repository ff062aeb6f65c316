//! Stream-ordered memory allocation (SOMA) through the ACL facade, with the runtime's codes. Rows:
//! `docs/semantics/stream-ordered-memory.md` · ACL.

use super::*;

const MIB2: u64 = 2 << 20;

fn props(device: u32, max_size: usize) -> aclrtMemPoolProps {
    aclrtMemPoolProps {
        allocType: ACL_MEM_ALLOCATION_TYPE_PINNED,
        handleType: ACL_MEM_HANDLE_TYPE_NONE,
        location: aclrtMemLocation {
            id: device,
            r#type: ACL_MEM_LOCATION_TYPE_DEVICE,
        },
        maxSize: max_size,
        reserved: [0; 32],
    }
}

fn create(device: u32, max_size: usize) -> Ptr {
    let mut pool = NULL;
    // SAFETY: valid pointers.
    ok(unsafe { aclrtMemPoolCreate(&mut pool, &props(device, max_size)) });
    pool
}

fn get64(pool: Ptr, attr: aclrtMemPoolAttr) -> u64 {
    let mut v = 0u64;
    // SAFETY: a u64 for a u64 attribute.
    ok(unsafe { aclrtMemPoolGetAttr(pool, attr, (&raw mut v).cast()) });
    v
}

/// stream-ordered-memory.md · ACL · aclrtMemPoolCreate: the ACL layer's checks (NULL, allocType, location type,
/// reserved: 100000), the runtime's (a device that does not exist: 107001; a size above the device's memory:
/// 107000); IPC pools are not simulated (207000).
#[test]
fn create_codes() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let mut pool = NULL;
        let good = props(0, 64 << 20);
        // SAFETY (all): valid or NULL pointers, as each row needs.
        unsafe {
            assert_eq!(
                aclrtMemPoolCreate(NULL.cast(), &good),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(
                aclrtMemPoolCreate(&mut pool, std::ptr::null()),
                ACL_ERROR_INVALID_PARAM
            );
            let mut p = good;
            p.allocType = 1;
            assert_eq!(aclrtMemPoolCreate(&mut pool, &p), ACL_ERROR_INVALID_PARAM);
            let mut p = good;
            p.location.r#type = ACL_MEM_LOCATION_TYPE_HOST;
            assert_eq!(aclrtMemPoolCreate(&mut pool, &p), ACL_ERROR_INVALID_PARAM);
            let mut p = good;
            p.reserved[0] = b't';
            assert_eq!(aclrtMemPoolCreate(&mut pool, &p), ACL_ERROR_INVALID_PARAM);
            assert_eq!(
                aclrtMemPoolCreate(&mut pool, &props(1, 0)),
                ACL_ERROR_RT_INVALID_DEVICEID
            );
            assert_eq!(
                aclrtMemPoolCreate(&mut pool, &props(0, 41 << 30)),
                ACL_ERROR_RT_PARAM_INVALID
            );
            let mut p = good;
            p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
            assert_eq!(
                aclrtMemPoolCreate(&mut pool, &p),
                ACL_ERROR_RT_FEATURE_NOT_SUPPORT
            );
            assert!(pool.is_null());
            // maxSize 0: the device's 40 GiB; 10 bytes: rounded up to 2 MiB (the runtime's unit test's size).
            let big = create(0, 0);
            let small = create(0, 10);
            let s = new_stream();
            let mut d = NULL;
            ok(aclrtMemPoolMallocAsync(&mut d, 1, small, s));
            assert_eq!(get64(small, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), MIB2);
            let mut e = NULL;
            assert_eq!(
                aclrtMemPoolMallocAsync(&mut e, 1, small, s),
                ACL_ERROR_RT_INTERNAL_ERROR,
                "full"
            );
            ok(aclrtMemPoolMallocAsync(&mut e, 8 << 30, big, s));
            ok(aclrtMemPoolFreeAsync(d, s));
            ok(aclrtMemPoolFreeAsync(e, s));
            ok(aclrtSynchronizeStream(s));
            ok(aclrtMemPoolDestroy(small));
            ok(aclrtMemPoolDestroy(big));
            assert_eq!(aclrtMemPoolDestroy(big), ACL_ERROR_RT_INTERNAL_ERROR);
            assert_eq!(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM);
        }
    });
}

/// stream-ordered-memory.md · ACL · aclrtMemPoolMallocAsync / aclrtMemPoolFreeAsync: NULL ptr, pool or stream
/// (100000), size 0 (0, nothing written), an unknown pool (507000), a stream of another context (107003); a
/// NULL stream for the free (507000), a double free (107000), memory from aclrtMalloc (freed in stream order).
#[test]
fn malloc_and_free_codes() {
    on_acl(2, |_| {
        ok(aclrtSetDevice(0));
        let pool = create(0, 64 << 20);
        let s = new_stream();
        let mut d = GARBAGE;
        // SAFETY (all): valid or NULL pointers, as each row needs.
        unsafe {
            assert_eq!(
                aclrtMemPoolMallocAsync(NULL.cast(), 64, pool, s),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(
                aclrtMemPoolMallocAsync(&mut d, 64, NULL, s),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(
                aclrtMemPoolMallocAsync(&mut d, 64, pool, NULL),
                ACL_ERROR_INVALID_PARAM
            );
            ok(aclrtMemPoolMallocAsync(&mut d, 0, pool, s));
            assert_eq!(d, GARBAGE, "size 0 writes nothing");
            assert_eq!(
                aclrtMemPoolMallocAsync(&mut d, 64, GARBAGE, s),
                ACL_ERROR_RT_INTERNAL_ERROR
            );
            ok(aclrtMemPoolMallocAsync(&mut d, 64, pool, s));
            assert_eq!(get64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), MIB2);
            assert_eq!(aclrtMemPoolFreeAsync(NULL, s), ACL_ERROR_INVALID_PARAM);
            assert_eq!(aclrtMemPoolFreeAsync(d, NULL), ACL_ERROR_RT_INTERNAL_ERROR);
            // Another device's context is current: the stream is of another context.
            ok(aclrtSetDevice(1));
            let mut e = NULL;
            assert_eq!(
                aclrtMemPoolMallocAsync(&mut e, 64, pool, s),
                ACL_ERROR_RT_STREAM_CONTEXT
            );
            assert_eq!(aclrtMemPoolFreeAsync(d, s), ACL_ERROR_RT_STREAM_CONTEXT);
            ok(aclrtSetDevice(0));
            ok(aclrtMemPoolFreeAsync(d, s));
            assert_eq!(aclrtMemPoolFreeAsync(d, s), ACL_ERROR_RT_PARAM_INVALID);
            let mut plain = NULL;
            ok(aclrtMalloc(&mut plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
            ok(aclrtMemPoolFreeAsync(plain, s));
            ok(aclrtSynchronizeStream(s));
            assert_eq!(
                aclrtFree(plain),
                ACL_ERROR_RT_PARAM_INVALID,
                "already freed in stream order"
            );
        }
    });
}

/// stream-ordered-memory.md · ACL · attributes: NULL pool (100000), NULL value (107000), unknown pool (107000),
/// unknown attribute (507000), read-only counters (107000), a watermark set to non-zero (507000) or a threshold
/// above the pool (507000); the policies are uint32_t, default 0; a watermark resets to 0; trims below the
/// memory in use or above the pool (507000).
#[test]
fn attributes_and_trims() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let pool = create(0, 8 << 20);
        let s = new_stream();
        let mut v32 = [7u32; 2];
        let one = 1u64;
        // SAFETY (all): valid or NULL pointers of the attribute's type, as each row needs.
        unsafe {
            let v = (&raw const one).cast_mut().cast();
            assert_eq!(
                aclrtMemPoolGetAttr(NULL, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, v),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(
                aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, NULL),
                ACL_ERROR_RT_PARAM_INVALID
            );
            assert_eq!(
                aclrtMemPoolGetAttr(GARBAGE, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, v),
                ACL_ERROR_RT_PARAM_INVALID
            );
            assert_eq!(aclrtMemPoolGetAttr(pool, 9, v), ACL_ERROR_RT_INTERNAL_ERROR);
            assert_eq!(
                aclrtMemPoolSetAttr(GARBAGE, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, v),
                ACL_ERROR_RT_PARAM_INVALID
            );
            assert_eq!(aclrtMemPoolSetAttr(pool, 0, v), ACL_ERROR_RT_INTERNAL_ERROR);
            assert_eq!(
                aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, v),
                ACL_ERROR_RT_PARAM_INVALID
            );
            assert_eq!(
                aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, v),
                ACL_ERROR_RT_PARAM_INVALID
            );
            assert_eq!(
                aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, v),
                ACL_ERROR_RT_INTERNAL_ERROR
            );
            let too_big = (8u64 << 20) + 1;
            assert_eq!(
                aclrtMemPoolSetAttr(
                    pool,
                    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD,
                    (&raw const too_big).cast_mut().cast()
                ),
                ACL_ERROR_RT_INTERNAL_ERROR
            );
            ok(aclrtMemPoolGetAttr(
                pool,
                ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
                v32.as_mut_ptr().cast(),
            ));
            assert_eq!(v32, [0, 7], "a uint32_t, 0 by default");
            let mut d = NULL;
            ok(aclrtMemPoolMallocAsync(&mut d, 100, pool, s));
            assert_eq!(
                aclrtMemPoolTrimTo(pool, 0),
                ACL_ERROR_RT_INTERNAL_ERROR,
                "below the 2 MiB in use"
            );
            assert_eq!(
                aclrtMemPoolTrimTo(pool, (8 << 20) + 1),
                ACL_ERROR_RT_INTERNAL_ERROR
            );
            ok(aclrtMemPoolTrimTo(pool, 8 << 20));
            assert_eq!(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM);
            assert_eq!(aclrtMemPoolTrimTo(GARBAGE, 0), ACL_ERROR_RT_INTERNAL_ERROR);
            ok(aclrtMemPoolFreeAsync(d, s));
            let zero = 0u64;
            ok(aclrtMemPoolSetAttr(
                pool,
                ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH,
                (&raw const zero).cast_mut().cast(),
            ));
            assert_eq!(
                get64(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH),
                0,
                "reset to 0, not to the current value"
            );
            ok(aclrtSynchronizeStream(s));
            assert_eq!(
                get64(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
                0,
                "released at the synchronize"
            );
        }
    });
}

/// stream-ordered-memory.md · ACL · reuse: on the same stream at once; on another stream only with a policy
/// enabled (ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES with an event after the free).
#[test]
fn reuse_follows_the_pool_policies() {
    on_acl(1, |_| {
        ok(aclrtSetDevice(0));
        let pool = create(0, 64 << 20);
        let (s1, s2) = (new_stream(), new_stream());
        let e = new_event();
        // SAFETY (all): valid pointers.
        unsafe {
            let (mut a, mut b) = (NULL, NULL);
            ok(aclrtMemPoolMallocAsync(&mut a, 4096, pool, s1));
            ok(aclrtMemPoolFreeAsync(a, s1));
            ok(aclrtMemPoolMallocAsync(&mut b, 4096, pool, s1));
            assert_eq!(b, a, "the same stream");
            ok(aclrtMemPoolFreeAsync(b, s1));
            ok(aclrtRecordEvent(e, s1));
            ok(aclrtStreamWaitEvent(s2, e));
            ok(aclrtMemPoolMallocAsync(&mut b, 4096, pool, s2));
            assert_ne!(b, a, "no policy: another block");
            let on = 1u32;
            ok(aclrtMemPoolSetAttr(
                pool,
                ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
                (&raw const on).cast_mut().cast(),
            ));
            let mut c = NULL;
            ok(aclrtMemPoolMallocAsync(&mut c, 4096, pool, s2));
            assert_eq!(c, a, "the event orders s2 after the free on s1");
            ok(aclrtMemPoolFreeAsync(b, s2));
            ok(aclrtMemPoolFreeAsync(c, s2));
            ok(aclrtSynchronizeDevice());
        }
    });
}
