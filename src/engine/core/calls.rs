//! The engine's calls, typed: every call of the engine names itself with an [`EngineCall`], whose text is the
//! `what` of the errors it returns ([`SimError`](crate::SimError)'s field stays `&'static str`, the public type:
//! the facades' own functions put their vendor names there). A facade that gives a call its own code or name
//! matches on [`EngineCall::of`] and an exhaustive `match` (see `src/facade/acl/names.rs`), so a new call
//! without a vendor name is a compile error, and no string has to agree between the layers.

/// Declares [`EngineCall`] from one list: each variant and the name it gives its errors.
macro_rules! engine_calls {
    ($($call:ident => $name:literal,)*) => {
        /// A call of the engine (a method of `Process`), by the name its errors carry.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub(crate) enum EngineCall {
            $(
                #[doc = concat!("`", $name, "`")]
                $call,
            )*
        }

        impl EngineCall {
            /// Every call.
            #[cfg(test)]
            pub(crate) const ALL: &'static [EngineCall] = &[$(EngineCall::$call),*];

            /// The name its errors carry (the `what` of a [`SimError`](crate::SimError)).
            pub(crate) const fn name(self) -> &'static str {
                match self {
                    $(EngineCall::$call => $name,)*
                }
            }

            /// The engine call whose errors carry `what`, if `what` is one (a facade's own name is not).
            pub(crate) fn of(what: &str) -> Option<EngineCall> {
                match what {
                    $($name => Some(EngineCall::$call),)*
                    _ => None,
                }
            }
        }
    };
}

engine_calls! {
    BeginCapture => "begin_capture",
    CanAccessPeer => "can_access_peer",
    CaptureInfo => "capture_info",
    CaptureStatus => "capture_status",
    CloneGraph => "clone_graph",
    CreateContext => "create_context",
    CreateEvent => "create_event",
    CreateNotify => "create_notify",
    CreateStream => "create_stream",
    CurrentContext => "current_context",
    DestroyContext => "destroy_context",
    DestroyEvent => "destroy_event",
    DestroyGraph => "destroy_graph",
    DestroyGraphExec => "destroy_graph_exec",
    DestroyNotify => "destroy_notify",
    DestroyStream => "destroy_stream",
    DeviceAttribute => "device_attribute",
    DeviceCount => "device_count",
    DeviceFlags => "device_flags",
    DeviceMemoryInfo => "device_memory_info",
    DevicePriorityRange => "device_priority_range",
    DeviceSynchronize => "device_synchronize",
    DisablePeerAccess => "disable_peer_access",
    EnablePeerAccess => "enable_peer_access",
    EndCapture => "end_capture",
    EventElapsedTime => "event_elapsed_time",
    EventQuery => "event_query",
    EventStatus => "event_status",
    EventSynchronize => "event_synchronize",
    EventTimestamp => "event_timestamp",
    ExchangeCaptureMode => "exchange_capture_mode",
    Free => "free",
    FreeAsync => "free_async",
    FreeHost => "free_host",
    GetDevice => "get_device",
    GraphDot => "graph_dot",
    GraphEdges => "graph_edges",
    GraphNodes => "graph_nodes",
    GraphRootNodes => "graph_root_nodes",
    HostRead => "host_read",
    HostUnregister => "host_unregister",
    HostWrite => "host_write",
    InstantiateGraph => "instantiate_graph",
    IpcGetEventHandle => "ipc_get_event_handle",
    IpcOpenEventHandle => "ipc_open_event_handle",
    Launch => "launch",
    LaunchCallback => "launch_callback",
    LaunchGraph => "launch_graph",
    LaunchHostFunc => "launch_host_func",
    Malloc => "malloc",
    MallocAsync => "malloc_async",
    MallocFromPoolAsync => "malloc_from_pool_async",
    MallocHost => "malloc_host",
    MallocPitch => "malloc_pitch",
    Malloc3D => "malloc_3d",
    Memcpy2D => "memcpy_2d",
    Memcpy2DAsync => "memcpy_2d_async",
    Memcpy3D => "memcpy_3d",
    Memcpy3DAsync => "memcpy_3d_async",
    Memset2D => "memset_2d",
    Memset2DAsync => "memset_2d_async",
    Memset3D => "memset_3d",
    Memset3DAsync => "memset_3d_async",
    Memcpy => "memcpy",
    MemcpyAsync => "memcpy_async",
    Memset => "memset",
    MemsetAsync => "memset_async",
    NodeDependencies => "node_dependencies",
    NodeDependents => "node_dependents",
    NodeType => "node_type",
    PoolCreate => "pool_create",
    PoolDestroy => "pool_destroy",
    PoolGetAccess => "pool_get_access",
    PoolGetAttribute => "pool_get_attribute",
    PoolSetAccess => "pool_set_access",
    PoolSetAttribute => "pool_set_attribute",
    PoolTrim => "pool_trim",
    ProcessReport => "process_report",
    RecordEvent => "record_event",
    RecordEventExternal => "record_event_external",
    RecordNotify => "record_notify",
    ResetDevice => "reset_device",
    ResetDeviceForce => "reset_device_force",
    ResetEvent => "reset_event",
    RuntimeFinalize => "runtime_finalize",
    RuntimeInit => "runtime_init",
    SetCurrentContext => "set_current_context",
    SetDevice => "set_device",
    SetDeviceFlags => "set_device_flags",
    SetOpWaitTimeout => "set_op_wait_timeout",
    SetStreamFailureMode => "set_stream_failure_mode",
    SetStreamPriority => "set_stream_priority",
    StreamAddCallback => "stream_add_callback",
    StreamFailureMode => "stream_failure_mode",
    StreamFlags => "stream_flags",
    StreamPriority => "stream_priority",
    StreamQuery => "stream_query",
    StreamSynchronize => "stream_synchronize",
    StreamWaitEvent => "stream_wait_event",
    StreamWaitEventExternal => "stream_wait_event_external",
    SubscribeReport => "subscribe_report",
    UnsubscribeReport => "unsubscribe_report",
    UpdateCaptureDependencies => "update_capture_dependencies",
    ValueWait => "value_wait",
    ValueWrite => "value_write",
    WaitNotify => "wait_notify",
    // Building graphs by hand (`graph/build.rs`, `params.rs`, `update.rs`).
    CreateGraph => "create_graph",
    AddGraphNode => "add_graph_node",
    AddGraphDependencies => "add_graph_dependencies",
    RemoveGraphDependencies => "remove_graph_dependencies",
    DestroyGraphNode => "destroy_graph_node",
    GraphNodeParams => "graph_node_params",
    SetGraphNodeParams => "set_graph_node",
    SetExecNodeParams => "set_exec_node",
    SetExecNodeEnabled => "set_exec_node_enabled",
    ExecNodeEnabled => "exec_node_enabled",
    UpdateGraphExec => "update_graph_exec",
    UploadGraph => "upload_graph",
    // Capture into a graph, child graphs, clones (`graph/api.rs`, `graph/child.rs`).
    BeginCaptureToGraph => "begin_capture_to_graph",
    ChildGraph => "child_graph",
    SetExecChildGraph => "set_exec_child_graph",
    NodeInClone => "node_in_clone",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_is_found_by_its_name() {
        for &c in EngineCall::ALL {
            assert_eq!(EngineCall::of(c.name()), Some(c));
        }
        assert_eq!(EngineCall::of("cudaMemcpy"), None);
    }
}
