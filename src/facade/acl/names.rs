//! The ACL function behind each engine call, for messages. The engine names its errors after its own methods
//! (`stream_wait_event: event 1 has never been recorded`); a program that called `aclrtStreamWaitEvent` should
//! read that name. The facade's functions know their own name and put it in the error they keep for
//! `aclGetRecentErrMsg` ([`name_the_call`]); the scenario runner, which calls the engine directly, looks the
//! engine's name up here ([`acl_function`]).

use crate::engine::core::calls::EngineCall;
use crate::engine::core::error::SimError;

/// The ACL function a program calls for the engine call `engine`, if there is one. Every engine call is listed:
/// a new one is a compile error here until it has its ACL function or is said to have none.
pub(crate) fn acl_function(engine: &str) -> Option<&'static str> {
    Some(match EngineCall::of(engine)? {
        EngineCall::BeginCapture => "aclmdlRICaptureBegin",
        EngineCall::CanAccessPeer => "aclrtDeviceCanAccessPeer",
        EngineCall::CaptureInfo => "aclmdlRICaptureGetInfo",
        EngineCall::CaptureStatus => "aclmdlRICaptureGetInfo",
        EngineCall::CreateContext => "aclrtCreateContext",
        EngineCall::CreateEvent => "aclrtCreateEventWithFlag",
        EngineCall::CreateNotify => "aclrtCreateNotify",
        EngineCall::CreateStream => "aclrtCreateStreamWithConfig",
        EngineCall::CurrentContext => "aclrtGetCurrentContext",
        EngineCall::DestroyContext => "aclrtDestroyContext",
        EngineCall::DestroyEvent => "aclrtDestroyEvent",
        EngineCall::DestroyGraphExec => "aclmdlRIDestroy",
        EngineCall::DestroyNotify => "aclrtDestroyNotify",
        EngineCall::DestroyStream => "aclrtDestroyStream",
        EngineCall::DeviceAttribute => "aclrtGetDeviceInfo",
        EngineCall::DeviceCount => "aclrtGetDeviceCount",
        EngineCall::DeviceMemoryInfo => "aclrtGetMemInfo",
        EngineCall::DeviceSynchronize => "aclrtSynchronizeDevice",
        EngineCall::DisablePeerAccess => "aclrtDeviceDisablePeerAccess",
        EngineCall::EnablePeerAccess => "aclrtDeviceEnablePeerAccess",
        EngineCall::EndCapture => "aclmdlRICaptureEnd",
        EngineCall::EventElapsedTime => "aclrtEventElapsedTime",
        EngineCall::EventQuery => "aclrtQueryEventStatus",
        EngineCall::EventStatus => "aclrtQueryEvent",
        EngineCall::EventSynchronize => "aclrtSynchronizeEvent",
        EngineCall::ExchangeCaptureMode => "aclmdlRICaptureThreadExchangeMode",
        EngineCall::Free => "aclrtFree",
        EngineCall::FreeAsync => "aclrtMemPoolFreeAsync",
        EngineCall::FreeHost => "aclrtFreeHost",
        EngineCall::GetDevice => "aclrtGetDevice",
        EngineCall::IpcGetEventHandle => "aclrtIpcGetEventHandle",
        EngineCall::IpcOpenEventHandle => "aclrtIpcOpenEventHandle",
        EngineCall::Launch => "aclsimLaunchKernel",
        EngineCall::LaunchCallback => "aclrtLaunchCallback",
        EngineCall::LaunchGraph => "aclmdlRIExecuteAsync",
        EngineCall::LaunchHostFunc => "aclrtLaunchHostFunc",
        EngineCall::Malloc => "aclrtMalloc",
        EngineCall::MallocFromPoolAsync => "aclrtMemPoolMallocAsync",
        EngineCall::MallocHost => "aclrtMallocHost",
        EngineCall::Memcpy => "aclrtMemcpy",
        EngineCall::MemcpyAsync => "aclrtMemcpyAsync",
        EngineCall::Memset => "aclrtMemset",
        EngineCall::MemsetAsync => "aclrtMemsetAsync",
        EngineCall::PoolCreate => "aclrtMemPoolCreate",
        EngineCall::PoolDestroy => "aclrtMemPoolDestroy",
        EngineCall::PoolGetAttribute => "aclrtMemPoolGetAttr",
        EngineCall::PoolSetAttribute => "aclrtMemPoolSetAttr",
        EngineCall::PoolTrim => "aclrtMemPoolTrimTo",
        EngineCall::ProcessReport => "aclrtProcessReport",
        EngineCall::RecordEvent => "aclrtRecordEvent",
        EngineCall::RecordNotify => "aclrtRecordNotify",
        EngineCall::ResetDevice => "aclrtResetDevice",
        EngineCall::ResetDeviceForce => "aclrtResetDeviceForce",
        EngineCall::ResetEvent => "aclrtResetEvent",
        EngineCall::RuntimeFinalize => "aclFinalize",
        EngineCall::RuntimeInit => "aclInit",
        EngineCall::SetCurrentContext => "aclrtSetCurrentContext",
        EngineCall::SetDevice => "aclrtSetDevice",
        EngineCall::SetOpWaitTimeout => "aclrtSetOpWaitTimeout",
        EngineCall::SetStreamFailureMode => "aclrtSetStreamFailureMode",
        EngineCall::SetStreamPriority => "aclrtSetStreamAttribute",
        EngineCall::StreamFailureMode => "aclrtGetStreamAttribute",
        EngineCall::StreamQuery => "aclrtStreamQuery",
        EngineCall::StreamSynchronize => "aclrtSynchronizeStream",
        EngineCall::StreamWaitEvent => "aclrtStreamWaitEvent",
        EngineCall::SubscribeReport => "aclrtSubscribeReport",
        EngineCall::UnsubscribeReport => "aclrtUnSubscribeReport",
        EngineCall::ValueWait => "aclrtValueWait",
        EngineCall::ValueWrite => "aclrtValueWrite",
        EngineCall::WaitNotify => "aclrtWaitAndResetNotify",
        EngineCall::Memcpy2D => "aclrtMemcpy2d",
        EngineCall::Memcpy2DAsync => "aclrtMemcpy2dAsync",
        // Calls of the CUDA family, or of the simulator, that no ACL function makes.
        EngineCall::MallocPitch
        | EngineCall::PoolSetAccess
        | EngineCall::PoolGetAccess
        | EngineCall::Malloc3D
        | EngineCall::Memcpy3D
        | EngineCall::Memcpy3DAsync
        | EngineCall::Memset2D
        | EngineCall::Memset2DAsync
        | EngineCall::Memset3D
        | EngineCall::Memset3DAsync
        | EngineCall::CloneGraph
        | EngineCall::CreateGraph
        | EngineCall::AddGraphNode
        | EngineCall::AddGraphDependencies
        | EngineCall::RemoveGraphDependencies
        | EngineCall::DestroyGraphNode
        | EngineCall::GraphNodeParams
        | EngineCall::SetGraphNodeParams
        | EngineCall::SetExecNodeParams
        | EngineCall::SetExecNodeEnabled
        | EngineCall::ExecNodeEnabled
        | EngineCall::UpdateGraphExec
        | EngineCall::UploadGraph
        | EngineCall::BeginCaptureToGraph
        | EngineCall::ChildGraph
        | EngineCall::SetExecChildGraph
        | EngineCall::NodeInClone
        | EngineCall::DestroyGraph
        | EngineCall::DeviceFlags
        | EngineCall::DevicePriorityRange
        | EngineCall::EventTimestamp
        | EngineCall::GraphDot
        | EngineCall::GraphEdges
        | EngineCall::GraphNodes
        | EngineCall::GraphRootNodes
        | EngineCall::HostRead
        | EngineCall::HostUnregister
        | EngineCall::HostWrite
        | EngineCall::InstantiateGraph
        | EngineCall::MallocAsync
        | EngineCall::NodeDependencies
        | EngineCall::NodeDependents
        | EngineCall::NodeType
        | EngineCall::RecordEventExternal
        | EngineCall::SetDeviceFlags
        | EngineCall::StreamAddCallback
        | EngineCall::StreamFlags
        | EngineCall::StreamPriority
        | EngineCall::StreamWaitEventExternal
        | EngineCall::UpdateCaptureDependencies => return None,
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
