//! Facade abuse: device management and peer access with bad device ids, flags and NULL out-pointers.

use super::*;

/// Bad device ids, NULL out-pointers and bad flags in the device calls.
#[test]
fn device_calls_with_bad_ids_flags_and_null_out_pointers() {
    for f in FAMILIES {
        let (_m, p) = machine(2);
        let _g = p.bind();
        let mut v: c_int = 7;
        for bad in [-1, 2, 3, 1_000, c_int::MAX, c_int::MIN] {
            check!(f, cudaErrorInvalidDevice, (f.set_device)(bad));
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_can_access_peer)(&mut v, bad, 0)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_can_access_peer)(&mut v, 0, bad)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_enable_peer_access)(bad, 0)
            );
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_enable_peer_access)(bad, 1)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_disable_peer_access)(bad)
            );
            check!(
                f,
                cudaErrorInvalidDevice,
                (f.device_get_attribute)(&mut v, cudaDevAttrWarpSize, bad)
            );
        }
        assert_eq!(v, 7, "nothing written on failure");
        check!(f, cudaErrorInvalidValue, (f.get_device_count)(null_mut()));
        check!(f, cudaErrorInvalidValue, (f.get_device)(null_mut()));
        check!(
            f,
            cudaErrorInvalidValue,
            (f.device_can_access_peer)(null_mut(), 0, 1)
        );
        check!(
            f,
            cudaErrorInvalidValue,
            (f.device_get_attribute)(null_mut(), cudaDevAttrWarpSize, 0)
        );
        for attr in [-1, 0, 9_999, c_int::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_get_attribute)(&mut v, attr, 0)
            );
        }
        check!(
            f,
            cudaSuccess,
            (f.device_get_attribute)(&mut v, cudaDevAttrWarpSize, 1)
        );
        assert_eq!(v, 32);
        check!(
            f,
            cudaSuccess,
            (f.device_get_attribute)(&mut v, cudaDevAttrMultiProcessorCount, 0)
        );
        assert_eq!(v, 108);
        for flags in [1, 2, 0x8000_0000, u32::MAX] {
            check!(
                f,
                cudaErrorInvalidValue,
                (f.device_enable_peer_access)(1, flags)
            );
        }
        check!(
            f,
            cudaErrorInvalidDevice,
            (f.device_enable_peer_access)(0, 0)
        );
        check!(f, cudaErrorInvalidDevice, (f.device_disable_peer_access)(0));
        check!(
            f,
            cudaErrorPeerAccessNotEnabled,
            (f.device_disable_peer_access)(1)
        );
        check!(
            f,
            cudaSuccess,
            (f.device_get_stream_priority_range)(null_mut(), null_mut())
        );
        let mut d = -1;
        check!(f, cudaSuccess, (f.get_device)(&mut d));
        assert_eq!(d, 0, "no failed call moved the current device");
        check!(f, cudaSuccess, (f.device_synchronize)());
        check!(f, cudaSuccess, (f.device_reset)());
        check!(f, cudaSuccess, (f.device_reset)());
    }
}
