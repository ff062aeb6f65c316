//! The CUDA and MUSA name sets, from one list: `cuda_family!(cuda)` in `src/cuda.rs` and
//! `cuda_family!(musa)` in `src/musa.rs` expand the same table of functions, constants and types, each with
//! its own vendor's names. The implementation is [`super::runtime`].

/// Expands the CUDA-family facade for `cuda` or `musa`.
macro_rules! cuda_family {
    ($which:ident) => {
        use std::ffi::{c_char, c_int, c_uint, c_void};

        use $crate::vendor::binding::Api;
        use $crate::vendor::cuda_runtime as rt;

        $crate::vendor::cuda_family::pick! { $which;
            types {
                (cudaError_t, musaError_t) = rt::Error, "An error code (`enum cudaError`).";
                (cudaStream_t, musaStream_t) = *mut c_void, "An opaque stream handle; NULL is the default stream.";
                (cudaEvent_t, musaEvent_t) = *mut c_void, "An opaque event handle.";
                (cudaMemcpyKind, musaMemcpyKind) = c_uint, "The direction of a copy (`enum cudaMemcpyKind`).";
                (cudaDeviceAttr, musaDeviceAttr) = c_int, "A device attribute (`enum cudaDeviceAttr`).";
                (cudaHostFn_t, musaHostFn_t) = rt::HostFn, "A host function: `void (*)(void *userData)`.";
                (cudaStreamCallback_t, musaStreamCallback_t) = rt::StreamCallback,
                    "A stream callback: `void (*)(cudaStream_t, cudaError_t, void *userData)`.";
                (cudaIpcEventHandle_t, musaIpcEventHandle_t) = rt::IpcEventHandleC,
                    "An IPC event handle: 64 opaque bytes.";
            }
            consts {
                (cudaEventDefault, musaEventDefault): c_uint = 0x0;
                (cudaEventBlockingSync, musaEventBlockingSync): c_uint = 0x1;
                (cudaEventDisableTiming, musaEventDisableTiming): c_uint = 0x2;
                (cudaEventInterprocess, musaEventInterprocess): c_uint = 0x4;
                (cudaEventRecordDefault, musaEventRecordDefault): c_uint = 0x0;
                (cudaEventWaitDefault, musaEventWaitDefault): c_uint = 0x0;
                (cudaStreamDefault, musaStreamDefault): c_uint = 0x0;
                (cudaStreamNonBlocking, musaStreamNonBlocking): c_uint = 0x1;
                (cudaMemcpyHostToHost, musaMemcpyHostToHost): c_uint = rt::MEMCPY_HOST_TO_HOST;
                (cudaMemcpyHostToDevice, musaMemcpyHostToDevice): c_uint = rt::MEMCPY_HOST_TO_DEVICE;
                (cudaMemcpyDeviceToHost, musaMemcpyDeviceToHost): c_uint = rt::MEMCPY_DEVICE_TO_HOST;
                (cudaMemcpyDeviceToDevice, musaMemcpyDeviceToDevice): c_uint = rt::MEMCPY_DEVICE_TO_DEVICE;
                (cudaMemcpyDefault, musaMemcpyDefault): c_uint = rt::MEMCPY_DEFAULT;
                (cudaDevAttrWarpSize, musaDevAttrWarpSize): c_int = rt::DEV_ATTR_WARP_SIZE;
                (cudaDevAttrMultiProcessorCount, musaDevAttrMultiProcessorCount): c_int =
                    rt::DEV_ATTR_MULTIPROCESSOR_COUNT;
                (CUDA_IPC_HANDLE_SIZE, MUSA_IPC_HANDLE_SIZE): usize = 64;
            }
            handles {
                (cudaStreamLegacy, musaStreamLegacy) = 0x1;
                (cudaStreamPerThread, musaStreamPerThread) = 0x2;
            }
            fns {
                (cudaGetDeviceCount, musaGetDeviceCount)(count: *mut c_int) => get_device_count(count);
                (cudaSetDevice, musaSetDevice)(device: c_int) => set_device(device);
                (cudaGetDevice, musaGetDevice)(device: *mut c_int) => get_device(device);
                (cudaDeviceSynchronize, musaDeviceSynchronize)() => device_synchronize();
                (cudaDeviceReset, musaDeviceReset)() => device_reset();
                (cudaDeviceCanAccessPeer, musaDeviceCanAccessPeer)(canAccessPeer: *mut c_int, device: c_int,
                    peerDevice: c_int) => device_can_access_peer(canAccessPeer, device, peerDevice);
                (cudaDeviceEnablePeerAccess, musaDeviceEnablePeerAccess)(peerDevice: c_int, flags: c_uint)
                    => device_enable_peer_access(peerDevice, flags);
                (cudaDeviceDisablePeerAccess, musaDeviceDisablePeerAccess)(peerDevice: c_int)
                    => device_disable_peer_access(peerDevice);
                (cudaDeviceGetStreamPriorityRange, musaDeviceGetStreamPriorityRange)(leastPriority: *mut c_int,
                    greatestPriority: *mut c_int) => device_get_stream_priority_range(leastPriority,
                    greatestPriority);
                (cudaDeviceGetAttribute, musaDeviceGetAttribute)(value: *mut c_int, attr: c_int, device: c_int)
                    => device_get_attribute(value, attr, device);
                (cudaStreamCreate, musaStreamCreate)(pStream: *mut *mut c_void)
                    => stream_create(pStream, 0, None);
                (cudaStreamCreateWithFlags, musaStreamCreateWithFlags)(pStream: *mut *mut c_void, flags: c_uint)
                    => stream_create(pStream, flags, None);
                (cudaStreamCreateWithPriority, musaStreamCreateWithPriority)(pStream: *mut *mut c_void,
                    flags: c_uint, priority: c_int) => stream_create(pStream, flags, Some(priority));
                (cudaStreamDestroy, musaStreamDestroy)(stream: *mut c_void) => stream_destroy(stream);
                (cudaStreamSynchronize, musaStreamSynchronize)(stream: *mut c_void) => stream_synchronize(stream);
                (cudaStreamQuery, musaStreamQuery)(stream: *mut c_void) => stream_query(stream);
                (cudaStreamWaitEvent, musaStreamWaitEvent)(stream: *mut c_void, event: *mut c_void, flags: c_uint)
                    => stream_wait_event(stream, event, flags);
                (cudaStreamGetFlags, musaStreamGetFlags)(hStream: *mut c_void, flags: *mut c_uint)
                    => stream_get_flags(hStream, flags);
                (cudaStreamGetPriority, musaStreamGetPriority)(hStream: *mut c_void, priority: *mut c_int)
                    => stream_get_priority(hStream, priority);
                (cudaLaunchHostFunc, musaLaunchHostFunc)(stream: *mut c_void, fn_: rt::HostFn,
                    userData: *mut c_void) => launch_host_func(stream, fn_, userData);
                (cudaStreamAddCallback, musaStreamAddCallback)(stream: *mut c_void, callback: rt::StreamCallback,
                    userData: *mut c_void, flags: c_uint) => stream_add_callback(stream, callback, userData, flags);
                (cudaEventCreate, musaEventCreate)(event: *mut *mut c_void) => event_create(event, 0);
                (cudaEventCreateWithFlags, musaEventCreateWithFlags)(event: *mut *mut c_void, flags: c_uint)
                    => event_create(event, flags);
                (cudaEventDestroy, musaEventDestroy)(event: *mut c_void) => event_destroy(event);
                (cudaEventRecord, musaEventRecord)(event: *mut c_void, stream: *mut c_void)
                    => event_record(event, stream, 0);
                (cudaEventRecordWithFlags, musaEventRecordWithFlags)(event: *mut c_void, stream: *mut c_void,
                    flags: c_uint) => event_record(event, stream, flags);
                (cudaEventQuery, musaEventQuery)(event: *mut c_void) => event_query(event);
                (cudaEventSynchronize, musaEventSynchronize)(event: *mut c_void) => event_synchronize(event);
                (cudaEventElapsedTime, musaEventElapsedTime)(ms: *mut f32, start: *mut c_void, end: *mut c_void)
                    => event_elapsed_time(ms, start, end);
                (cudaIpcGetEventHandle, musaIpcGetEventHandle)(handle: *mut rt::IpcEventHandleC,
                    event: *mut c_void) => ipc_get_event_handle(handle, event);
                (cudaIpcOpenEventHandle, musaIpcOpenEventHandle)(event: *mut *mut c_void,
                    handle: rt::IpcEventHandleC) => ipc_open_event_handle(event, handle);
                (cudaMalloc, musaMalloc)(devPtr: *mut *mut c_void, size: usize) => malloc(devPtr, size);
                (cudaFree, musaFree)(devPtr: *mut c_void) => free(devPtr);
                (cudaMallocHost, musaMallocHost)(ptr: *mut *mut c_void, size: usize) => malloc_host(ptr, size);
                (cudaFreeHost, musaFreeHost)(ptr: *mut c_void) => free_host(ptr);
                (cudaMemcpy, musaMemcpy)(dst: *mut c_void, src: *const c_void, count: usize, kind: c_uint)
                    => memcpy("Memcpy", dst, src, count, Some(kind), None);
                (cudaMemcpyAsync, musaMemcpyAsync)(dst: *mut c_void, src: *const c_void, count: usize,
                    kind: c_uint, stream: *mut c_void) => memcpy("MemcpyAsync", dst, src, count, Some(kind),
                    Some(stream));
                (cudaMemcpyPeer, musaMemcpyPeer)(dst: *mut c_void, dstDevice: c_int, src: *const c_void,
                    srcDevice: c_int, count: usize) => memcpy_peer(dst, dstDevice, src, srcDevice, count, None);
                (cudaMemcpyPeerAsync, musaMemcpyPeerAsync)(dst: *mut c_void, dstDevice: c_int,
                    src: *const c_void, srcDevice: c_int, count: usize, stream: *mut c_void)
                    => memcpy_peer(dst, dstDevice, src, srcDevice, count, Some(stream));
                (cudaMemset, musaMemset)(devPtr: *mut c_void, value: c_int, count: usize)
                    => memset(devPtr, value, count, None);
                (cudaMemsetAsync, musaMemsetAsync)(devPtr: *mut c_void, value: c_int, count: usize,
                    stream: *mut c_void) => memset(devPtr, value, count, Some(stream));
                (cudaGetLastError, musaGetLastError)() => get_last_error(true);
                (cudaPeekAtLastError, musaPeekAtLastError)() => get_last_error(false);
                (cudasimLaunchKernel, musasimLaunchKernel)(stream: *mut c_void, name: *const c_char,
                    durationNs: u64, fn_: rt::HostFn, arg: *mut c_void)
                    => launch_kernel(stream, name, durationNs, fn_, arg, std::ptr::null(), 0);
                (cudasimLaunchKernelEx, musasimLaunchKernelEx)(stream: *mut c_void, name: *const c_char,
                    durationNs: u64, fn_: rt::HostFn, arg: *mut c_void, accesses: *const rt::streamsimAccess,
                    count: usize) => launch_kernel(stream, name, durationNs, fn_, arg, accesses, count);
                (cudasimLaunchKernelCtx, musasimLaunchKernelCtx)(stream: *mut c_void, name: *const c_char,
                    durationNs: u64, body: rt::KernelCtxBody, arg: *mut c_void,
                    accesses: *const rt::streamsimAccess, count: usize)
                    => launch_kernel_ctx(stream, name, durationNs, body, arg, accesses, count);
            }
            strings {
                (cudaGetErrorName, musaGetErrorName) => get_error_name;
                (cudaGetErrorString, musaGetErrorString) => get_error_string;
            }
        }

        /// The simulated kernel's declared access (`streamsimAccess`).
        pub use $crate::vendor::cuda_runtime::streamsimAccess;
        /// The context and body of a Ctx kernel (`streamsimKernelCtx`, `streamsimKernelCtxBody`; the accessors
        /// are in [`crate::capi`]).
        pub use $crate::vendor::kernel_ctx::{streamsimKernelCtx, streamsimKernelCtxBody};
    };
}
pub(crate) use cuda_family;

/// Picks the CUDA or MUSA name of every entry and emits the items.
macro_rules! pick {
    ($which:ident;
        types { $(($tc:ident, $tm:ident) = $tty:ty, $tdoc:literal;)* }
        consts { $(($cc:ident, $cm:ident): $cty:ty = $cval:expr;)* }
        handles { $(($hc:ident, $hm:ident) = $hval:literal;)* }
        fns { $(($fc:ident, $fm:ident)($($a:ident: $t:ty),*) => $imp:ident($($x:expr),*);)* }
        strings { $(($sc:ident, $sm:ident) => $simp:ident;)* }
    ) => {
        $crate::vendor::cuda_family::pick!(@types $which; $(($tc, $tm) = $tty, $tdoc;)*);
        $crate::vendor::cuda_family::pick!(@consts $which; $(($cc, $cm): $cty = $cval;)*);
        $crate::vendor::cuda_family::pick!(@handles $which; $(($hc, $hm) = $hval;)*);
        $crate::vendor::cuda_family::pick!(@fns $which; $(($fc, $fm)($($a: $t),*) => $imp($($x),*);)*);
        $crate::vendor::cuda_family::pick!(@strings $which; $(($sc, $sm) => $simp;)*);
        $crate::vendor::cuda_family::pick!(@codes $which);
    };
    (@codes cuda) => { $crate::vendor::cuda_runtime::with_error_codes!($crate::vendor::cuda_family::emit_codes_cuda); };
    (@codes musa) => { $crate::vendor::cuda_runtime::with_error_codes!($crate::vendor::cuda_family::emit_codes_musa); };
    (@types cuda; $(($c:ident, $m:ident) = $ty:ty, $doc:literal;)*) => { $(#[doc = $doc] pub type $c = $ty;)* };
    (@types musa; $(($c:ident, $m:ident) = $ty:ty, $doc:literal;)*) => { $(#[doc = $doc] pub type $m = $ty;)* };
    (@consts cuda; $(($c:ident, $m:ident): $ty:ty = $v:expr;)*) => {
        $(#[doc = concat!("`", stringify!($c), "`.")] pub const $c: $ty = $v;)*
    };
    (@consts musa; $(($c:ident, $m:ident): $ty:ty = $v:expr;)*) => {
        $(#[doc = concat!("`", stringify!($m), "`.")] pub const $m: $ty = $v;)*
    };
    (@handles cuda; $(($c:ident, $m:ident) = $v:literal;)*) => {
        $(#[doc = concat!("`", stringify!($c), "`: a special stream handle.")]
          #[allow(clippy::manual_dangling_ptr, reason = "the vendor's special handle value")]
          pub const $c: *mut c_void = $v as *mut c_void;)*
    };
    (@handles musa; $(($c:ident, $m:ident) = $v:literal;)*) => {
        $(#[doc = concat!("`", stringify!($m), "`: a special stream handle.")]
          #[allow(clippy::manual_dangling_ptr, reason = "the vendor's special handle value")]
          pub const $m: *mut c_void = $v as *mut c_void;)*
    };
    (@fns cuda; $(($c:ident, $m:ident)($($a:ident: $t:ty),*) => $imp:ident($($x:expr),*);)*) => {
        $crate::vendor::cuda_family::pick!(@emit Api::Cuda; $($c($($a: $t),*) => $imp($($x),*);)*);
    };
    (@fns musa; $(($c:ident, $m:ident)($($a:ident: $t:ty),*) => $imp:ident($($x:expr),*);)*) => {
        $crate::vendor::cuda_family::pick!(@emit Api::Musa; $($m($($a: $t),*) => $imp($($x),*);)*);
    };
    (@emit $api:expr; $($f:ident($($a:ident: $t:ty),*) => $imp:ident($($x:expr),*);)*) => {
        $(
            #[doc = concat!("`", stringify!($f), "`, simulated: see the crate documentation for the vendor's ",
                "semantics and codes.")]
            ///
            /// # Safety
            /// The vendor's contract: pointers are NULL or valid for what the call reads or writes.
            #[allow(non_snake_case, reason = "the vendor's parameter names")]
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn $f($($a: $t),*) -> rt::Error {
                // SAFETY: forwarded C contract.
                #[allow(unused_unsafe, reason = "some implementations are safe functions")]
                unsafe { rt::$imp($api, $($x),*) }
            }
        )*
    };
    (@strings cuda; $(($c:ident, $m:ident) => $imp:ident;)*) => {
        $crate::vendor::cuda_family::pick!(@str Api::Cuda; $($c => $imp;)*);
    };
    (@strings musa; $(($c:ident, $m:ident) => $imp:ident;)*) => {
        $crate::vendor::cuda_family::pick!(@str Api::Musa; $($m => $imp;)*);
    };
    (@str $api:expr; $($f:ident => $imp:ident;)*) => {
        $(
            #[doc = concat!("`", stringify!($f), "`: a static NUL-terminated string.")]
            #[unsafe(no_mangle)]
            pub extern "C" fn $f(error: rt::Error) -> *const c_char {
                $crate::vendor::cuda_family::pick!(@strcall $imp, $api, error)
            }
        )*
    };
    (@strcall get_error_name, $api:expr, $e:ident) => { rt::get_error_name($api, $e) };
    (@strcall get_error_string, $api:expr, $e:ident) => { rt::get_error_string($e) };
}
pub(crate) use pick;

/// The error constants with CUDA names.
macro_rules! emit_codes_cuda {
    ($(($c:ident, $m:ident, $name:ident) = $value:literal, $desc:literal;)*) => {
        $(#[doc = concat!("`", stringify!($c), "` (", $desc, ").")] pub const $c: rt::Error = $value;)*
    };
}
pub(crate) use emit_codes_cuda;

/// The error constants with MUSA names.
macro_rules! emit_codes_musa {
    ($(($c:ident, $m:ident, $name:ident) = $value:literal, $desc:literal;)*) => {
        $(#[doc = concat!("`", stringify!($m), "` (", $desc, ").")] pub const $m: rt::Error = $value;)*
    };
}
pub(crate) use emit_codes_musa;
