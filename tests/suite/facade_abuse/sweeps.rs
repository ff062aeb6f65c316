//! Facade abuse: every function with NULL and zero arguments, and every function bound to a machine of another dialect.

use super::*;

/// Every function with NULL / zero arguments on a fresh bound machine: the vendor's code for each.
#[test]
fn every_function_with_null_and_zero_arguments() {
    for f in FAMILIES {
        let (_m, p) = machine(1);
        let _g = p.bind();
        let zeroed = cudaIpcEventHandle_t { reserved: [0; 64] };
        let n: H = null_mut();
        // SAFETY (all calls): NULL arguments; nothing valid is required of them.
        let codes: Vec<(&str, Err, Err)> = unsafe {
            vec![
                ("GetDeviceCount", (f.get_device_count)(n.cast()), 1),
                ("SetDevice", (f.set_device)(0), 0),
                ("GetDevice", (f.get_device)(n.cast()), 1),
                ("DeviceSynchronize", (f.device_synchronize)(), 0),
                ("DeviceReset", (f.device_reset)(), 0),
                (
                    "DeviceCanAccessPeer",
                    (f.device_can_access_peer)(n.cast(), 0, 0),
                    1,
                ),
                (
                    "DeviceEnablePeerAccess",
                    (f.device_enable_peer_access)(0, 0),
                    101,
                ),
                (
                    "DeviceDisablePeerAccess",
                    (f.device_disable_peer_access)(0),
                    101,
                ),
                (
                    "DeviceGetStreamPriorityRange",
                    (f.device_get_stream_priority_range)(n.cast(), n.cast()),
                    0,
                ),
                (
                    "DeviceGetAttribute",
                    (f.device_get_attribute)(n.cast(), 0, 0),
                    1,
                ),
                ("StreamCreate", (f.stream_create)(n.cast()), 1),
                (
                    "StreamCreateWithFlags",
                    (f.stream_create_with_flags)(n.cast(), 0),
                    1,
                ),
                (
                    "StreamCreateWithPriority",
                    (f.stream_create_with_priority)(n.cast(), 0, 0),
                    1,
                ),
                ("StreamDestroy", (f.stream_destroy)(n), 400),
                ("StreamSynchronize", (f.stream_synchronize)(n), 0),
                ("StreamQuery", (f.stream_query)(n), 0),
                ("StreamWaitEvent", (f.stream_wait_event)(n, n, 0), 400),
                ("StreamGetFlags", (f.stream_get_flags)(n, n.cast()), 1),
                ("StreamGetPriority", (f.stream_get_priority)(n, n.cast()), 1),
                ("LaunchHostFunc", (f.launch_host_func)(n, None, n), 1),
                (
                    "StreamAddCallback",
                    (f.stream_add_callback)(n, None, n, 0),
                    1,
                ),
                ("EventCreate", (f.event_create)(n.cast()), 1),
                (
                    "EventCreateWithFlags",
                    (f.event_create_with_flags)(n.cast(), 0),
                    1,
                ),
                ("EventDestroy", (f.event_destroy)(n), 400),
                ("EventRecord", (f.event_record)(n, n), 400),
                (
                    "EventRecordWithFlags",
                    (f.event_record_with_flags)(n, n, 0),
                    400,
                ),
                ("EventQuery", (f.event_query)(n), 400),
                ("EventSynchronize", (f.event_synchronize)(n), 400),
                (
                    "EventElapsedTime",
                    (f.event_elapsed_time)(n.cast(), n, n),
                    1,
                ),
                (
                    "IpcGetEventHandle",
                    (f.ipc_get_event_handle)(n.cast(), n),
                    1,
                ),
                (
                    "IpcOpenEventHandle",
                    (f.ipc_open_event_handle)(n.cast(), zeroed),
                    1,
                ),
                ("Malloc", (f.malloc)(n.cast(), 0), 1),
                ("Free", (f.free)(n), 0),
                ("MallocHost", (f.malloc_host)(n.cast(), 0), 1),
                ("FreeHost", (f.free_host)(n), 0),
                ("Memcpy", (f.memcpy)(n, null(), 16, 0), 1),
                ("Memcpy count 0", (f.memcpy)(n, null(), 0, 0), 0),
                ("MemcpyAsync", (f.memcpy_async)(n, null(), 16, 0, n), 1),
                ("MemcpyPeer", (f.memcpy_peer)(n, 0, null(), 0, 16), 1),
                (
                    "MemcpyPeerAsync",
                    (f.memcpy_peer_async)(n, 0, null(), 0, 16, n),
                    1,
                ),
                ("Memset", (f.memset)(n, 0, 16), 1),
                ("Memset count 0", (f.memset)(n, 0, 0), 0),
                ("MemsetAsync", (f.memset_async)(n, 0, 16, n), 1),
                ("GetLastError", (f.get_last_error)(), 1),
                ("PeekAtLastError", (f.peek_at_last_error)(), 0),
                ("LaunchKernel", (f.launch_kernel)(n, null(), 0, None, n), 0),
                (
                    "LaunchKernelEx",
                    (f.launch_kernel_ex)(n, null(), 0, None, n, null(), 0),
                    0,
                ),
                ("StreamSynchronize after", (f.stream_synchronize)(n), 0),
                (
                    "GetDeviceProperties",
                    (f.get_device_properties)(n.cast(), 0),
                    1,
                ),
                ("MemGetInfo", (f.mem_get_info)(n.cast(), n.cast()), 1),
                ("DriverGetVersion", (f.driver_get_version)(n.cast()), 1),
                ("RuntimeGetVersion", (f.runtime_get_version)(n.cast()), 1),
                (
                    "DeviceGetPCIBusId",
                    (f.device_get_pci_bus_id)(n.cast(), 0, 0),
                    1,
                ),
                (
                    "DeviceGetByPCIBusId",
                    (f.device_get_by_pci_bus_id)(n.cast(), null()),
                    1,
                ),
                ("DeviceSetLimit", (f.device_set_limit)(0, 0), 0),
                ("DeviceGetLimit", (f.device_get_limit)(n.cast(), 0), 1),
                ("SetDeviceFlags", (f.set_device_flags)(0), 0),
                ("GetDeviceFlags", (f.get_device_flags)(n.cast()), 1),
                (
                    "OccupancyMaxActiveBlocksPerMultiprocessor",
                    (f.occupancy_max_active_blocks)(n.cast(), null(), 0, 0),
                    1,
                ),
                (
                    "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                    (f.occupancy_max_active_blocks_with_flags)(n.cast(), null(), 0, 0, 0),
                    1,
                ),
                ("ProfilerStart", (f.profiler_start)(), 0),
                ("ProfilerStop", (f.profiler_stop)(), 0),
                ("HostAlloc", (f.host_alloc)(n.cast(), 0, 0), 1),
                (
                    "HostGetDevicePointer",
                    (f.host_get_device_pointer)(n.cast(), n, 0),
                    1,
                ),
                ("HostRegister", (f.host_register)(n, 0, 0), 1),
                ("HostUnregister", (f.host_unregister)(n), 1),
                (
                    "PointerGetAttributes",
                    (f.pointer_get_attributes)(n.cast(), null()),
                    1,
                ),
                ("StreamGetId", (f.stream_get_id)(n, n.cast()), 1),
                ("StreamGetDevice", (f.stream_get_device)(n, n.cast()), 1),
            ]
        };
        let wrong: Vec<String> = codes
            .iter()
            .filter(|(_, got, want)| got != want)
            .map(|(call, got, want)| {
                format!(
                    "{}{call}: {got} ({}), expected {want}",
                    f.name,
                    f.err_name(*got)
                )
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
        for code in [0, 600, 12_345, u32::MAX] {
            assert!(!(f.get_error_name)(code).is_null());
            assert!(!(f.get_error_string)(code).is_null());
        }
    }
}

/// Every function on a process bound to an ACL machine: the CUDA-family facades refuse it with 801
/// NotSupported (no panic, no call reaches the wrong dialect), and the last error says so.
#[test]
fn every_function_bound_to_a_machine_of_another_dialect() {
    for f in FAMILIES {
        let m = Machine::builder().dialect(Dialect::Acl).build().unwrap();
        let p = m.process();
        let _g = p.bind();
        let zeroed = cudaIpcEventHandle_t { reserved: [0; 64] };
        let (mut s, mut e, mut d, mut v, mut fl) = (null_mut(), null_mut(), null_mut(), 0, 0);
        let (mut lo, mut hi, mut ms) = (0, 0, 0.0f32);
        let mut h = zeroed;
        let mut buf = [0u8; 16];
        let n: H = null_mut();
        // SAFETY: all-zero bytes are a valid value of these C structs of integers and pointers.
        let (mut prop, mut attrs): (cudaDeviceProp, cudaPointerAttributes) =
            unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
        let (mut free, mut total, mut id) = (7usize, 7usize, 7u64);
        let mut bus = [0 as c_char; 16];
        // SAFETY (all calls): valid out-pointers and host buffers.
        let codes: Vec<(&str, Err)> = unsafe {
            vec![
                ("GetDeviceCount", (f.get_device_count)(&mut v)),
                ("SetDevice", (f.set_device)(0)),
                ("GetDevice", (f.get_device)(&mut v)),
                ("DeviceSynchronize", (f.device_synchronize)()),
                ("DeviceReset", (f.device_reset)()),
                (
                    "DeviceCanAccessPeer",
                    (f.device_can_access_peer)(&mut v, 0, 0),
                ),
                (
                    "DeviceEnablePeerAccess",
                    (f.device_enable_peer_access)(0, 0),
                ),
                ("DeviceDisablePeerAccess", (f.device_disable_peer_access)(0)),
                (
                    "DeviceGetStreamPriorityRange",
                    (f.device_get_stream_priority_range)(&mut lo, &mut hi),
                ),
                (
                    "DeviceGetAttribute",
                    (f.device_get_attribute)(&mut v, 10, 0),
                ),
                ("StreamCreate", (f.stream_create)(&mut s)),
                (
                    "StreamCreateWithFlags",
                    (f.stream_create_with_flags)(&mut s, 0),
                ),
                (
                    "StreamCreateWithPriority",
                    (f.stream_create_with_priority)(&mut s, 0, 0),
                ),
                ("StreamDestroy", (f.stream_destroy)(n)),
                ("StreamSynchronize", (f.stream_synchronize)(n)),
                ("StreamQuery", (f.stream_query)(n)),
                ("StreamWaitEvent", (f.stream_wait_event)(n, n, 0)),
                ("StreamGetFlags", (f.stream_get_flags)(n, &mut fl)),
                ("StreamGetPriority", (f.stream_get_priority)(n, &mut v)),
                ("LaunchHostFunc", (f.launch_host_func)(n, Some(nothing), n)),
                (
                    "StreamAddCallback",
                    (f.stream_add_callback)(n, Some(no_callback), n, 0),
                ),
                ("EventCreate", (f.event_create)(&mut e)),
                (
                    "EventCreateWithFlags",
                    (f.event_create_with_flags)(&mut e, 0),
                ),
                ("EventDestroy", (f.event_destroy)(n)),
                ("EventRecord", (f.event_record)(n, n)),
                ("EventRecordWithFlags", (f.event_record_with_flags)(n, n, 0)),
                ("EventQuery", (f.event_query)(n)),
                ("EventSynchronize", (f.event_synchronize)(n)),
                ("EventElapsedTime", (f.event_elapsed_time)(&mut ms, n, n)),
                ("IpcGetEventHandle", (f.ipc_get_event_handle)(&mut h, n)),
                (
                    "IpcOpenEventHandle",
                    (f.ipc_open_event_handle)(&mut e, zeroed),
                ),
                ("Malloc", (f.malloc)(&mut d, 16)),
                ("Free", (f.free)(unallocated())),
                ("MallocHost", (f.malloc_host)(&mut d, 16)),
                ("FreeHost", (f.free_host)(unallocated())),
                (
                    "Memcpy",
                    (f.memcpy)(buf.as_mut_ptr().cast(), buf.as_ptr().cast(), 16, 0),
                ),
                (
                    "MemcpyAsync",
                    (f.memcpy_async)(buf.as_mut_ptr().cast(), buf.as_ptr().cast(), 16, 0, n),
                ),
                (
                    "MemcpyPeer",
                    (f.memcpy_peer)(unallocated(), 0, unallocated(), 0, 16),
                ),
                (
                    "MemcpyPeerAsync",
                    (f.memcpy_peer_async)(unallocated(), 0, unallocated(), 0, 16, n),
                ),
                ("Memset", (f.memset)(unallocated(), 0, 16)),
                ("MemsetAsync", (f.memset_async)(unallocated(), 0, 16, n)),
                ("LaunchKernel", (f.launch_kernel)(n, null(), 0, None, n)),
                (
                    "LaunchKernelEx",
                    (f.launch_kernel_ex)(n, null(), 0, None, n, null(), 0),
                ),
                ("GetLastError", (f.get_last_error)()),
                ("PeekAtLastError", (f.peek_at_last_error)()),
                (
                    "GetDeviceProperties",
                    (f.get_device_properties)(&mut prop, 0),
                ),
                ("MemGetInfo", (f.mem_get_info)(&mut free, &mut total)),
                ("DriverGetVersion", (f.driver_get_version)(&mut v)),
                ("RuntimeGetVersion", (f.runtime_get_version)(&mut v)),
                (
                    "DeviceGetPCIBusId",
                    (f.device_get_pci_bus_id)(bus.as_mut_ptr(), 16, 0),
                ),
                (
                    "DeviceGetByPCIBusId",
                    (f.device_get_by_pci_bus_id)(&mut v, c"0000:01:00.0".as_ptr()),
                ),
                ("DeviceSetLimit", (f.device_set_limit)(0, 2048)),
                ("DeviceGetLimit", (f.device_get_limit)(&mut free, 0)),
                ("SetDeviceFlags", (f.set_device_flags)(4)),
                ("GetDeviceFlags", (f.get_device_flags)(&mut fl)),
                (
                    "OccupancyMaxActiveBlocksPerMultiprocessor",
                    (f.occupancy_max_active_blocks)(&mut v, buf.as_ptr().cast(), 32, 0),
                ),
                (
                    "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                    (f.occupancy_max_active_blocks_with_flags)(
                        &mut v,
                        buf.as_ptr().cast(),
                        32,
                        0,
                        0,
                    ),
                ),
                ("ProfilerStart", (f.profiler_start)()),
                ("ProfilerStop", (f.profiler_stop)()),
                ("HostAlloc", (f.host_alloc)(&mut d, 16, 0)),
                (
                    "HostGetDevicePointer",
                    (f.host_get_device_pointer)(&mut d, buf.as_mut_ptr().cast(), 0),
                ),
                (
                    "HostRegister",
                    (f.host_register)(buf.as_mut_ptr().cast(), 16, 0),
                ),
                (
                    "HostUnregister",
                    (f.host_unregister)(buf.as_mut_ptr().cast()),
                ),
                (
                    "PointerGetAttributes",
                    (f.pointer_get_attributes)(&mut attrs, buf.as_ptr().cast()),
                ),
                ("StreamGetId", (f.stream_get_id)(n, &mut id)),
                ("StreamGetDevice", (f.stream_get_device)(n, &mut v)),
            ]
        };
        let wrong: Vec<String> = codes
            .iter()
            .filter(|(_, got)| *got != cudaErrorNotSupported)
            .map(|(call, got)| format!("{}{call}: {got} ({})", f.name, f.err_name(*got)))
            .collect();
        assert!(wrong.is_empty(), "expected 801 NotSupported: {wrong:#?}");
        assert!(s.is_null() && e.is_null() && d.is_null(), "nothing written");
        assert_eq!(h, zeroed);
        assert_eq!((free, total, id, prop.major, bus[0]), (7, 7, 7, 0, 0));
        assert_eq!(attrs.devicePointer, null_mut());
    }
}
