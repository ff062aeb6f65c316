//! The ACL function behind each engine call, for messages. The engine names its errors after its own methods
//! (`stream_wait_event: event 1 has never been recorded`); a program that called `aclrtStreamWaitEvent` should
//! read that name. The facade's functions know their own name and put it in the error they keep for
//! `aclGetRecentErrMsg` ([`name_the_call`]); the scenario runner, which calls the engine directly, looks the
//! engine's name up here ([`acl_function`]).

use crate::engine::core::error::SimError;

/// The ACL function a program calls for the engine call `engine`, if there is one.
pub(crate) fn acl_function(engine: &str) -> Option<&'static str> {
    Some(match engine {
        "runtime_init" => "aclInit",
        "runtime_finalize" => "aclFinalize",
        "set_device" => "aclrtSetDevice",
        "get_device" => "aclrtGetDevice",
        "device_count" => "aclrtGetDeviceCount",
        "device_attribute" => "aclrtGetDeviceInfo",
        "reset_device" => "aclrtResetDevice",
        "reset_device_force" => "aclrtResetDeviceForce",
        "device_synchronize" => "aclrtSynchronizeDevice",
        "create_context" => "aclrtCreateContext",
        "destroy_context" => "aclrtDestroyContext",
        "set_current_context" => "aclrtSetCurrentContext",
        "current_context" => "aclrtGetCurrentContext",
        "create_stream" => "aclrtCreateStreamWithConfig",
        "destroy_stream" => "aclrtDestroyStream",
        "stream_synchronize" => "aclrtSynchronizeStream",
        "stream_query" => "aclrtStreamQuery",
        "stream_wait_event" => "aclrtStreamWaitEvent",
        "create_event" => "aclrtCreateEventWithFlag",
        "destroy_event" => "aclrtDestroyEvent",
        "record_event" => "aclrtRecordEvent",
        "reset_event" => "aclrtResetEvent",
        "event_query" => "aclrtQueryEventStatus",
        "event_status" => "aclrtQueryEvent",
        "event_synchronize" => "aclrtSynchronizeEvent",
        "event_elapsed_time" => "aclrtEventElapsedTime",
        "launch" => "aclsimLaunchKernel",
        "launch_host_func" => "aclrtLaunchHostFunc",
        "memcpy" => "aclrtMemcpy",
        "memcpy_async" => "aclrtMemcpyAsync",
        "memset" => "aclrtMemset",
        "memset_async" => "aclrtMemsetAsync",
        "malloc" => "aclrtMalloc",
        "free" => "aclrtFree",
        "malloc_host" => "aclrtMallocHost",
        "free_host" => "aclrtFreeHost",
        "can_access_peer" => "aclrtDeviceCanAccessPeer",
        "enable_peer_access" => "aclrtDeviceEnablePeerAccess",
        "disable_peer_access" => "aclrtDeviceDisablePeerAccess",
        "ipc_get_event_handle" => "aclrtIpcGetEventHandle",
        "ipc_open_event_handle" => "aclrtIpcOpenEventHandle",
        "set_stream_failure_mode" => "aclrtSetStreamFailureMode",
        "stream_failure_mode" => "aclrtGetStreamAttribute",
        "set_stream_priority" => "aclrtSetStreamAttribute",
        "device_memory_info" => "aclrtGetMemInfo",
        "set_op_wait_timeout" => "aclrtSetOpWaitTimeout",
        "create_notify" => "aclrtCreateNotify",
        "destroy_notify" => "aclrtDestroyNotify",
        "record_notify" => "aclrtRecordNotify",
        "wait_notify" => "aclrtWaitAndResetNotify",
        "value_write" => "aclrtValueWrite",
        "value_wait" => "aclrtValueWait",
        "subscribe_report" => "aclrtSubscribeReport",
        "unsubscribe_report" => "aclrtUnSubscribeReport",
        "launch_callback" => "aclrtLaunchCallback",
        "process_report" => "aclrtProcessReport",
        "begin_capture" => "aclmdlRICaptureBegin",
        "end_capture" => "aclmdlRICaptureEnd",
        "capture_info" => "aclmdlRICaptureGetInfo",
        "capture_status" => "aclmdlRICaptureGetInfo",
        "exchange_capture_mode" => "aclmdlRICaptureThreadExchangeMode",
        "launch_graph" => "aclmdlRIExecuteAsync",
        "destroy_graph_exec" => "aclmdlRIDestroy",
        "pool_create" => "aclrtMemPoolCreate",
        "pool_destroy" => "aclrtMemPoolDestroy",
        "pool_set_attribute" => "aclrtMemPoolSetAttr",
        "pool_get_attribute" => "aclrtMemPoolGetAttr",
        "pool_trim" => "aclrtMemPoolTrimTo",
        "malloc_from_pool_async" => "aclrtMemPoolMallocAsync",
        "free_async" => "aclrtMemPoolFreeAsync",
        _ => return None,
    })
}

/// `e` as the ACL function `function` reports it: a call name that is not already an ACL name (the engine's
/// method, or a sub-step such as `kernel declared access`) becomes `function`. Names the facade chose itself
/// (`aclrtMemcpy kind`) stay. The vendor's code must be taken from `e` before: [`super::runtime::code`] reads
/// some engine names.
pub(crate) fn name_the_call(e: &mut SimError, function: &'static str) {
    if let Some(what) = e.what_mut()
        && !what.starts_with("acl")
    {
        *what = function;
    }
}

/// `e` with the engine's call name replaced by its ACL function's, where [`acl_function`] knows it.
pub(crate) fn with_acl_names(e: &SimError) -> SimError {
    let mut e = e.clone();
    if let Some(what) = e.what_mut()
        && let Some(f) = acl_function(what)
    {
        *what = f;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name of the table is an `acl*` function of the facade's header.
    #[test]
    fn the_table_names_functions_of_the_acl_header() {
        // The headers of the set that declare the aclrt* and aclmdlRI* calls (acl/acl.h includes them).
        let header = [
            include_str!("../../../include/acl/acl_rt.h"),
            include_str!("../../../include/acl/acl_base_rt.h"),
            include_str!("../../../include/acl/acl_rt_memory_soma.h"),
        ]
        .concat();
        let streamsim = include_str!("../../../include/streamsim.h");
        for engine in [
            "runtime_init",
            "set_device",
            "stream_wait_event",
            "create_event",
            "event_status",
            "launch",
            "memcpy_async",
            "ipc_open_event_handle",
            "set_stream_failure_mode",
            "stream_failure_mode",
            "set_stream_priority",
            "device_memory_info",
            "set_op_wait_timeout",
            "create_notify",
            "destroy_notify",
            "record_notify",
            "wait_notify",
            "value_write",
            "value_wait",
            "subscribe_report",
            "unsubscribe_report",
            "launch_callback",
            "process_report",
            "begin_capture",
            "end_capture",
            "capture_info",
            "exchange_capture_mode",
            "launch_graph",
            "destroy_graph_exec",
        ] {
            let f = acl_function(engine).expect("in the table");
            let decl = format!(" {f}(");
            assert!(
                header.contains(&decl) || streamsim.contains(&decl),
                "{f} is not declared"
            );
        }
        assert_eq!(acl_function("no_such_call"), None);
    }

    #[test]
    fn the_call_name_is_replaced_unless_it_is_already_acl() {
        let mut e = SimError::EventNotRecorded {
            what: "stream_wait_event",
            event: crate::engine::core::handle::EventId {
                process: crate::engine::core::handle::ProcessId(0),
                ordinal: 1,
            },
        };
        name_the_call(&mut e, "aclrtStreamWaitEvent");
        assert!(e.to_string().starts_with("aclrtStreamWaitEvent: "), "{e}");
        let mut kept = SimError::InvalidValue {
            what: "aclrtMemcpy kind",
            reason: "x".into(),
        };
        name_the_call(&mut kept, "aclrtMemcpyAsync");
        assert_eq!(kept.to_string(), "invalid value for aclrtMemcpy kind: x");
    }
}
