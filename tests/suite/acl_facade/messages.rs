//! `aclGetRecentErrMsg` names the ACL function the program called, not the simulator's method behind it
//! (issue 12, item 8: "aclGetRecentErrMsg says `aclrtStreamWaitEvent: …`, not `stream_wait_event: …`").

use super::*;
use streamsim::capi::{STREAMSIM_API_ACL, streamsimGetLastErrorMessage};

/// The message `streamsimGetLastErrorMessage(STREAMSIM_API_ACL)` gives: the same as `aclGetRecentErrMsg`.
fn streamsim_msg() -> String {
    let m = streamsimGetLastErrorMessage(STREAMSIM_API_ACL);
    assert!(!m.is_null(), "no message");
    // SAFETY: a NUL-terminated string valid until the next call on this thread.
    unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned()
}

/// acl.md · Events · StreamWaitEvent · never-recorded event → 107000, and the message starts with the ACL
/// function's name; a launch on a stream of another context (107003) names `aclsimLaunchKernel`, a copy of
/// an unallocated device address names `aclrtMemcpy`, a bad access list `aclsimLaunchKernelEx`.
#[test]
fn messages_name_the_acl_function() {
    on_acl(1, |_| unsafe {
        ok(aclrtSetDevice(0));
        let s = new_stream();
        let e = new_event();
        assert_eq!(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_PARAM_INVALID);
        let msg = last_msg();
        assert!(msg.starts_with("aclrtStreamWaitEvent: event "), "{msg}");
        assert!(!msg.contains("stream_wait_event"), "{msg}");
        assert_eq!(streamsim_msg(), msg);

        let mut ctx = NULL;
        ok(aclrtCreateContext(&mut ctx, 0));
        assert_eq!(kernel(s, 1), ACL_ERROR_RT_STREAM_CONTEXT);
        let msg = last_msg();
        assert!(msg.starts_with("aclsimLaunchKernel: stream "), "{msg}");

        let mut host = [0u8; 16];
        let nowhere = (DEVICE_ADDRESS_BASE + (1 << 30)) as Ptr;
        assert_eq!(
            aclrtMemcpy(
                host.as_mut_ptr().cast(),
                16,
                nowhere,
                16,
                ACL_MEMCPY_DEVICE_TO_HOST
            ),
            ACL_ERROR_RT_PARAM_INVALID
        );
        let msg = last_msg();
        assert!(msg.starts_with("aclrtMemcpy: address "), "{msg}");

        let bad = streamsimAccess {
            ptr: nowhere,
            bytes: 8,
            flags: streamsim::capi::STREAMSIM_ACCESS_READ,
        };
        let s2 = new_stream();
        assert_eq!(
            aclsimLaunchKernelEx(s2, c"k".as_ptr(), 0, None, NULL, &bad, 1),
            ACL_ERROR_RT_PARAM_INVALID
        );
        let msg = last_msg();
        assert!(msg.starts_with("aclsimLaunchKernelEx: address "), "{msg}");
    });
}
