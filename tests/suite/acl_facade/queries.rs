//! acl-runtime-api.md · Device and stream queries: the queries of issue 13, through the facade:
//! aclrtSynchronizeDeviceWithTimeout, aclrtDeviceGetStreamPriorityRange, aclrtStreamGetId, aclrtGetSocName,
//! aclrtGetRunMode, aclrtQueryDeviceStatus, aclrtGetMemInfo. Rows and sources: docs/semantics/acl-runtime-api.md.
//! Conventions as in `mod.rs`.

use super::*;

/// acl-runtime-api.md · Device and stream queries · aclrtSynchronizeDeviceWithTimeout: −1 waits forever; 0 or below
/// −1 → 107000 (ACL layer: timeout ≥ −1; runtime: `(timeout < -1) || (timeout == 0)`); running out → 507046, the
/// documented ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (aclrtSynchronizeDeviceWithTimeout API page), the host clock at the
/// deadline
#[test]
fn synchronize_device_with_timeout() {
    on_acl(1, |p| {
        ok(aclrtSetDevice(0)); // t1
        let s = new_stream(); // t2
        ok(kernel(s, 10_000)); // t3: 5..10005
        // Refused by the argument check, before the runtime is called: the clock does not move.
        assert_eq!(aclrtSynchronizeDeviceWithTimeout(0), 107000);
        assert_eq!(aclrtSynchronizeDeviceWithTimeout(-2), 107000);
        assert_eq!(aclrtSynchronizeDeviceWithTimeout(2), 507046); // t4 → 2004
        assert_eq!(now_us(p), 2_004);
        ok(aclrtSynchronizeDeviceWithTimeout(9)); // t2005: the deadline 11005 is after 10005
        assert_eq!(now_us(p), 10_005);
        ok(kernel(s, 10)); // t10006: 10008..10018
        ok(aclrtSynchronizeDeviceWithTimeout(-1)); // → 10018
        assert_eq!(now_us(p), 10_018);
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtDeviceGetStreamPriorityRange → least 7, greatest 0
/// (`RT_STREAM_LEAST_PRIORITY` / `RT_STREAM_GREATEST_PRIORITY`, src/runtime/core/inc/spec/base_info.hpp); either
/// pointer may be NULL; it needs no current device (`ApiImpl::DeviceGetStreamPriorityRange`); streams are created
/// within it
#[test]
fn stream_priority_range() {
    on_acl(1, |p| {
        let (mut least, mut greatest) = (-9, -9);
        // SAFETY: valid out-pointers, or NULL.
        unsafe {
            ok(aclrtDeviceGetStreamPriorityRange(&mut least, &mut greatest));
            assert_eq!((least, greatest), (7, 0), "before any device is set");
            ok(aclrtDeviceGetStreamPriorityRange(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            ));
            let mut only = -9;
            ok(aclrtDeviceGetStreamPriorityRange(
                std::ptr::null_mut(),
                &mut only,
            ));
            assert_eq!(only, 0);
        }
        ok(aclrtSetDevice(0));
        let mut s = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateStreamWithConfig(&mut s, 5, 0) });
        assert_eq!(
            p.stream_priority(Stream::from_raw(s as usize as u64)),
            Ok(5)
        );
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateStreamWithConfig(&mut s, 50, 0) });
        assert_eq!(
            p.stream_priority(Stream::from_raw(s as usize as u64)),
            Ok(7)
        );
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtStreamGetId → sim: created streams 1, 2, … in creation
/// order; a context's default stream 65,536 + the context's ordinal; NULL is the current context's default stream
/// (107002 without one); NULL streamId 100000; destroyed / forged 107017
#[test]
fn stream_ids() {
    on_acl(1, |_| {
        let id = |s: Ptr| {
            let mut v = -1;
            // SAFETY: a valid out-pointer.
            match unsafe { aclrtStreamGetId(s, &mut v) } {
                ACL_SUCCESS => Ok(v),
                c => Err(c),
            }
        };
        assert_eq!(id(NULL), Err(107002));
        ok(aclrtSetDevice(0));
        let (a, b) = (new_stream(), new_stream());
        assert_eq!((id(a), id(b)), (Ok(1), Ok(2)));
        assert_eq!(id(NULL), Ok(65_537), "the default context is context 1");
        let first = current_context();
        let mut c = NULL;
        // SAFETY: a valid out-pointer.
        ok(unsafe { aclrtCreateContext(&mut c, 0) });
        assert_eq!(id(NULL), Ok(65_538));
        assert_eq!(id(new_stream()), Ok(3));
        assert_eq!(id(a), Ok(1), "a stream of another context");
        ok(aclrtDestroyContext(c));
        ok(aclrtSetCurrentContext(first));
        ok(aclrtDestroyStream(a));
        assert_eq!(id(a), Err(107017));
        assert_eq!(id(GARBAGE), Err(107017));
        // SAFETY: NULL is refused before use.
        assert_eq!(unsafe { aclrtStreamGetId(b, std::ptr::null_mut()) }, 100000);
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtGetSocName → the name of device 0 (the API page:
/// "固定返回Device 0的AI处理器版本名称"), sim: the name configured for it (`DeviceConfig::name`); the same pointer each time
#[test]
fn soc_name_is_device_0s_configured_name() {
    let m = Machine::builder()
        .dialect(Dialect::Acl)
        .devices(2)
        .device(0, streamsim::DeviceConfig::default().name("Ascend910B4"))
        .build()
        .unwrap();
    on_machine(&m, |_| {
        let a = aclrtGetSocName();
        assert!(!a.is_null());
        // SAFETY: a NUL-terminated string that lives as long as the library.
        assert_eq!(unsafe { CStr::from_ptr(a) }.to_str(), Ok("Ascend910B4"));
        assert_eq!(aclrtGetSocName(), a);
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtGetRunMode → ACL_HOST (1): the program runs on the host
/// (`aclrtGetRunModeImpl`: ACL_DEVICE only for the runtime's offline mode); NULL 100000. aclrtQueryDeviceStatus →
/// ACL_RT_DEVICE_STATUS_NORMAL (0) for a device of the machine, 107001 for another id, NULL 100000
#[test]
fn run_mode_and_device_status() {
    on_acl(2, |_| {
        let mut mode = 7;
        let mut status = 7;
        // SAFETY: valid out-pointers, or NULL.
        unsafe {
            ok(aclrtGetRunMode(&mut mode));
            assert_eq!(mode, ACL_HOST);
            assert_eq!(aclrtGetRunMode(std::ptr::null_mut()), 100000);
            for d in [0, 1] {
                ok(aclrtQueryDeviceStatus(d, &mut status));
                assert_eq!(status, ACL_RT_DEVICE_STATUS_NORMAL);
            }
            for d in [2, -1, i32::MIN] {
                assert_eq!(aclrtQueryDeviceStatus(d, &mut status), 107001, "{d}");
            }
            assert_eq!(aclrtQueryDeviceStatus(0, std::ptr::null_mut()), 100000);
        }
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtGetMemInfo → free and total of the current device (the API
/// page: a device must be set first, so no device id), sim: from the simulated allocations, every attribute the
/// same memory; NULL 100000; an unknown attribute 107000; no current device 107002
#[test]
fn mem_info_follows_the_allocations() {
    let m = Machine::builder()
        .dialect(Dialect::Acl)
        .device(0, streamsim::DeviceConfig::default().memory(1 << 20))
        .build()
        .unwrap();
    on_machine(&m, |_| {
        let info = |attr| {
            let (mut free, mut total) = (0usize, 0usize);
            // SAFETY: valid out-pointers.
            match unsafe { aclrtGetMemInfo(attr, &mut free, &mut total) } {
                ACL_SUCCESS => Ok((free, total)),
                c => Err(c),
            }
        };
        assert_eq!(info(ACL_HBM_MEM), Err(107002));
        ok(aclrtSetDevice(0));
        assert_eq!(info(ACL_HBM_MEM), Ok((1 << 20, 1 << 20)));
        let d = malloc(4096);
        for attr in [ACL_DDR_MEM, ACL_HBM_MEM, ACL_MEM_P2P_HUGE1G] {
            assert_eq!(info(attr), Ok(((1 << 20) - 4096, 1 << 20)), "{attr}");
        }
        assert_eq!(info(18), Err(107000));
        let mut x = 0usize;
        // SAFETY: NULL is refused before use.
        unsafe {
            assert_eq!(
                aclrtGetMemInfo(ACL_HBM_MEM, std::ptr::null_mut(), &mut x),
                100000
            );
            assert_eq!(
                aclrtGetMemInfo(ACL_HBM_MEM, &mut x, std::ptr::null_mut()),
                100000
            );
        }
        ok(aclrtFree(d));
        assert_eq!(info(ACL_HBM_MEM), Ok((1 << 20, 1 << 20)));
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtGetLastError / aclrtPeekAtLastError (ACL_RT_THREAD_LEVEL):
/// the code of the thread's last failed runtime call, ACL_SUCCESS if none; Peek reads, Get reads and clears
/// (`ApiImpl::GetLastErr` / `PeekLastErr`: `InnerThreadLocalContainer::GetGlobalErr` / `PeekGlobalErr`); a later
/// success does not clear it; the ACL layer's own checks (NULL → 100000) keep nothing; another thread's errors are
/// not seen; a level other than 0 → 100000 (`ACL_REQUIRES_PARAM_EQUAL_REPORT`)
#[test]
fn last_error_is_the_threads_and_get_clears_it() {
    on_acl(1, |p| {
        let mut status = 7;
        assert_eq!(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
        assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
        // SAFETY: valid out-pointers, or NULL.
        unsafe {
            assert_eq!(aclrtQueryDeviceStatus(5, &mut status), 107001);
            ok(aclrtQueryDeviceStatus(0, &mut status)); // a success keeps the error
            assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 107001);
            assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 107001);
            assert_eq!(aclrtGetLastError(ACL_RT_THREAD_LEVEL), 107001);
            assert_eq!(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
            assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
            // The ACL layer's NULL check returns before the runtime.
            assert_eq!(aclrtGetRunMode(std::ptr::null_mut()), 100000);
            assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
        }
        // The newest runtime error wins.
        ok(aclrtSetDevice(0));
        assert_eq!(aclrtSynchronizeDeviceWithTimeout(0), 107000);
        assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 107000);
        assert_eq!(aclrtDestroyStream(GARBAGE), 107017);
        assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 107017);
        // Another thread of the process has its own.
        let q = p.clone();
        std::thread::spawn(move || {
            let _bound = q.bind();
            assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
            assert_eq!(aclrtSetDevice(9), 107001);
            assert_eq!(aclrtGetLastError(ACL_RT_THREAD_LEVEL), 107001);
        })
        .join()
        .expect("the other thread");
        assert_eq!(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 107017);
        // Only the thread level is defined; the read is refused and the error kept.
        assert_eq!(aclrtGetLastError(1), 100000);
        assert_eq!(aclrtPeekAtLastError(1), 100000);
        assert_eq!(aclrtGetLastError(ACL_RT_THREAD_LEVEL), 107017);
    });
}

/// acl-runtime-api.md · Device and stream queries · aclrtGetVersion → ACL_MAJOR_VERSION.ACL_MINOR_VERSION.
/// ACL_PATCH_VERSION, 1.17.0 (`aclrtGetVersionImpl`, the constants of acl_rt.h); any NULL → 100000, nothing written
#[test]
fn get_version() {
    on_acl(1, |_| {
        let (mut major, mut minor, mut patch) = (-1, -1, -1);
        // SAFETY: valid out-pointers, or NULL.
        unsafe {
            ok(aclrtGetVersion(&mut major, &mut minor, &mut patch));
            assert_eq!((major, minor, patch), (1, 17, 0));
            assert_eq!(
                (ACL_MAJOR_VERSION, ACL_MINOR_VERSION, ACL_PATCH_VERSION),
                (1, 17, 0)
            );
            let mut m = -1;
            assert_eq!(
                aclrtGetVersion(&mut m, std::ptr::null_mut(), &mut patch),
                100000
            );
            assert_eq!(
                aclrtGetVersion(std::ptr::null_mut(), &mut minor, &mut patch),
                100000
            );
            assert_eq!(
                aclrtGetVersion(&mut m, &mut minor, std::ptr::null_mut()),
                100000
            );
            assert_eq!(m, -1);
        }
    });
}

/// acl-runtime-api.md · Device and stream queries · aclFloatToFloat16 / aclFloat16ToFloat: the runtime's
/// `acl::FloatToFp16` / `Fp16ToFloat` (src/acl/aclrt_impl/types/fp16_impl.cpp): to nearest even, saturating
/// (beyond the range, ±infinity and NaN → ±65504); back, the exponent 31 is finite (0x7C00 → 65536, 0x7E00 →
/// 98304)
#[test]
fn fp16_conversions_are_the_runtimes() {
    let to = |bits: u32| aclFloatToFloat16(f32::from_bits(bits));
    for (f, h) in [
        (0x3F80_0000, 0x3C00), // 1
        (0x3DCC_CCCD, 0x2E66), // 0.1
        (0xBDCC_CCCD, 0xAE66), // -0.1
        (0x3EAA_AAAB, 0x3555), // 1/3
        (0x477F_E000, 0x7BFF), // 65504
        (0x477F_F000, 0x7BFF), // 65520: saturates (IEEE: infinity)
        (0x4780_0000, 0x7BFF), // 65536
        (0xC77F_F000, 0xFBFF), // -65520
        (0x7F80_0000, 0x7BFF), // infinity
        (0xFF80_0000, 0xFBFF), // -infinity
        (0x7FC0_0000, 0x7BFF), // NaN
        (0x3F80_1000, 0x3C00), // 1 + 2^-11: a tie, to even
        (0x3F80_3000, 0x3C02), // 1 + 3·2^-11: a tie, to even
        (0x3380_0000, 0x0001), // 2^-24
        (0x3300_0000, 0x0000), // 2^-25: a tie, to even
        (0x3300_0001, 0x0001),
        (0x387F_E000, 0x0400), // rounds up into the smallest normal
        (0x3880_0000, 0x0400), // 2^-14
        (0x8000_0000, 0x8000), // -0
    ] {
        assert_eq!(to(f), h, "{f:#x}");
    }
    for (h, f) in [
        (0x3C00u16, 1.0f32),
        (0x0001, 5.960_464_5e-8),
        (0x03FF, 6.097_555e-5),
        (0x7BFF, 65504.0),
        (0x7C00, 65536.0),
        (0xFC00, -65536.0),
        (0x7E00, 98304.0),
        (0x8000, -0.0),
    ] {
        assert_eq!(aclFloat16ToFloat(h).to_bits(), f.to_bits(), "{h:#x}");
    }
    // Every finite half comes back.
    for h in 0..=u16::MAX {
        if h & 0x7C00 != 0x7C00 {
            assert_eq!(aclFloatToFloat16(aclFloat16ToFloat(h)), h, "{h:#x}");
        }
    }
}

/// acl-runtime-api.md · Device and stream queries · aclDataTypeSize: `aclDataTypeSizeImpl`
/// (src/acl/aclrt_impl/data_buffer.cpp): 0 for ACL_STRING and ACL_DT_UNDEFINED, 1 for the byte and sub-byte types,
/// 2, 4, 8, 16 for ACL_COMPLEX128, and 8 for any other value (the default of its switch)
#[test]
fn data_type_sizes_are_the_runtimes() {
    for (t, size) in [
        (ACL_DT_UNDEFINED, 0),
        (ACL_STRING, 0),
        (ACL_BOOL, 1),
        (ACL_INT4, 1),
        (ACL_UINT1, 1),
        (ACL_FLOAT8_E4M3FN, 1),
        (ACL_FLOAT16, 2),
        (ACL_BF16, 2),
        (ACL_FLOAT, 4),
        (ACL_COMPLEX32, 4),
        (ACL_INT64, 8),
        (ACL_DOUBLE, 8),
        (ACL_COMPLEX64, 8),
        (ACL_COMPLEX128, 16),
        (ACL_FLOAT4_E2M1, 8),
        (99, 8),
    ] {
        assert_eq!(aclDataTypeSize(t), size, "{t}");
    }
}

/// acl-runtime-api.md · Device and stream queries · aclsysGetVersionStr / aclsysGetVersionNum: refused, 207000
/// ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the runtime reads an installed package's version file; the simulator has no
/// package); a NULL pointer 100000 (`ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT`); nothing written. GetErrorVerbose:
/// 207000, errorInfo not written; NULL 100000
#[test]
fn package_versions_are_refused() {
    on_acl(1, |_| {
        let mut name = *b"runtime\0";
        let mut text = [7 as c_char; 64];
        let mut num = -7;
        let pkg = name.as_mut_ptr().cast::<c_char>();
        assert_eq!(aclsysGetVersionStr(pkg, text.as_mut_ptr()), 207000);
        assert_eq!(aclsysGetVersionNum(pkg, &mut num), 207000);
        assert_eq!((text[0], num), (7, -7));
        assert_eq!(
            aclsysGetVersionStr(std::ptr::null_mut(), text.as_mut_ptr()),
            100000
        );
        assert_eq!(aclsysGetVersionStr(pkg, std::ptr::null_mut()), 100000);
        assert_eq!(aclsysGetVersionNum(pkg, std::ptr::null_mut()), 100000);
        assert!(last_msg().contains("aclsysGetVersionNum"), "{}", last_msg());
        // aclrtGetErrorVerbose: refused the same way, the 1,3xx-byte aclrtErrorInfo left as it was.
        let mut info = [0xA5u8; 2048];
        assert_eq!(aclrtGetErrorVerbose(0, info.as_mut_ptr().cast()), 207000);
        assert!(info.iter().all(|b| *b == 0xA5));
        assert_eq!(aclrtGetErrorVerbose(0, std::ptr::null_mut()), 100000);
    });
}

/// acl-runtime-api.md · Device and stream queries · aclGetDeviceCapability: the AI core and vector core counts,
/// those aclrtGetDeviceInfo reports; ACL_DEVICE_INFO_L2_SIZE → 207000 (not modelled); a device beyond the
/// machine's, another kind or NULL → 100000 (`aclGetDeviceCapabilityImpl`). aclGetCannAttributeList,
/// aclGetCannAttribute, aclrtCheckArchCompatibility → 207000 (refused), NULL 100000, nothing written
#[test]
fn device_capability_and_the_refused_package_queries() {
    on_acl(2, |_| {
        let (mut v, mut want) = (-1i64, -2i64);
        // SAFETY: valid out-pointers, or NULL.
        unsafe {
            for (info, attr) in [
                (ACL_DEVICE_INFO_AI_CORE_NUM, ACL_DEV_ATTR_AICORE_CORE_NUM),
                (
                    ACL_DEVICE_INFO_VECTOR_CORE_NUM,
                    ACL_DEV_ATTR_VECTOR_CORE_NUM,
                ),
            ] {
                for d in [0, 1] {
                    ok(aclGetDeviceCapability(d, info, &mut v));
                    ok(aclrtGetDeviceInfo(d, attr, &mut want));
                    assert_eq!(v, want, "{info} on {d}");
                }
            }
            v = -1;
            assert_eq!(
                aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &mut v),
                207000
            );
            assert_eq!(
                aclGetDeviceCapability(2, ACL_DEVICE_INFO_AI_CORE_NUM, &mut v),
                100000
            );
            assert_eq!(
                aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &mut v),
                100000
            );
            assert_eq!(aclGetDeviceCapability(0, 7, &mut v), 100000);
            assert_eq!(
                aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, std::ptr::null_mut()),
                100000
            );
            assert_eq!(v, -1);
        }
        let mut list: *const aclCannAttr = std::ptr::null();
        let (mut n, mut value, mut compatible) = (7usize, 7i32, 7i32);
        assert_eq!(aclGetCannAttributeList(&mut list, &mut n), 207000);
        assert_eq!(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &mut value), 207000);
        let soc = c"Ascend910B4".as_ptr();
        assert_eq!(aclrtCheckArchCompatibility(soc, &mut compatible), 207000);
        assert_eq!((list.is_null(), n, value, compatible), (true, 7, 7, 7));
        assert_eq!(
            aclGetCannAttributeList(std::ptr::null_mut(), &mut n),
            100000
        );
        assert_eq!(
            aclGetCannAttribute(ACL_CANN_ATTR_BF16, std::ptr::null_mut()),
            100000
        );
        assert_eq!(
            aclrtCheckArchCompatibility(std::ptr::null(), &mut compatible),
            100000
        );
        assert_eq!(
            aclrtCheckArchCompatibility(soc, std::ptr::null_mut()),
            100000
        );
    });
}
