//! The CUDA and MUSA name sets, from one list: `cuda_family!(cuda)` in `src/facade/cuda.rs` and
//! `cuda_family!(musa)` in `src/facade/musa.rs` expand the same table of functions, constants and types, each
//! with its own vendor's names. The implementation is `src/facade/cuda_runtime.rs`.

/// Expands the CUDA-family facade for `cuda` or `musa`.
macro_rules! cuda_family {
    ($which:ident) => {
        use std::ffi::{c_char, c_int, c_uint, c_void};

        use $crate::facade::binding::Api;
        use $crate::facade::cuda_runtime as rt;

        $crate::facade::cuda_family::pick! { $which;
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
                (cudaIpcMemHandle_t, musaIpcMemHandle_t) = rt::IpcMemHandleC,
                    "An IPC memory handle: 64 opaque bytes.";
                (cudaDeviceProp, musaDeviceProp) = rt::DeviceProp,
                    "A device's properties (`struct cudaDeviceProp`, CUDA 12 layout).";
                (cudaUUID_t, musaUUID_t) = rt::Uuid, "A device UUID: 16 bytes.";
                (cudaPointerAttributes, musaPointerAttributes) = rt::PointerAttributesC,
                    "What a pointer points into (`struct cudaPointerAttributes`).";
                (cudaLimit, musaLimit) = c_uint, "A device limit (`enum cudaLimit`).";
                (cudaMemoryType, musaMemoryType) = c_uint, "A kind of memory (`enum cudaMemoryType`).";
                (cudaComputeMode, musaComputeMode) = c_uint, "A compute mode (`enum cudaComputeMode`).";
                (cudaGraph_t, musaGraph_t) = *mut c_void, "An opaque graph handle (the DAG a stream capture built).";
                (cudaGraphExec_t, musaGraphExec_t) = *mut c_void, "An opaque executable graph handle.";
                (cudaGraphNode_t, musaGraphNode_t) = *mut c_void, "An opaque graph node handle.";
                (cudaStreamCaptureStatus, musaStreamCaptureStatus) = c_uint,
                    "A stream's capture status (`enum cudaStreamCaptureStatus`).";
                (cudaStreamCaptureMode, musaStreamCaptureMode) = c_int,
                    "A capture mode (`enum cudaStreamCaptureMode`).";
                (cudaGraphNodeType, musaGraphNodeType) = c_uint, "A graph node's type (`enum cudaGraphNodeType`).";
                (cudaMemAllocNodeParams, musaMemAllocNodeParams) = rt::MemAllocNodeParams,
                    "An allocation node's parameters (`struct cudaMemAllocNodeParams`).";
                (cudaMemAllocNodeParamsV2, musaMemAllocNodeParamsV2) = rt::MemAllocNodeParams,
                    "An allocation node's parameters in `cudaGraphNodeParams` (`struct cudaMemAllocNodeParamsV2`).";
                (cudaMemFreeNodeParams, musaMemFreeNodeParams) = *mut c_void,
                    "A free node's parameters: the address (`struct cudaMemFreeNodeParams`).";
                (cudaGraphMemAttributeType, musaGraphMemAttributeType) = c_int,
                    "A graph memory attribute (`enum cudaGraphMemAttributeType`).";
                (cudaMemPool_t, musaMemPool_t) = *mut c_void, "An opaque memory pool handle.";
                (cudaMemPoolAttr, musaMemPoolAttr) = c_int, "A memory pool attribute (`enum cudaMemPoolAttr`).";
                (cudaMemPoolProps, musaMemPoolProps) = rt::MemPoolProps,
                    "What a memory pool is made with (`struct cudaMemPoolProps`, CUDA 12 layout).";
                (cudaMemLocation, musaMemLocation) = rt::MemLocation, "Where memory lives (`struct cudaMemLocation`).";
                (cudaMemAllocationType, musaMemAllocationType) = c_uint,
                    "A pool's allocation type (`enum cudaMemAllocationType`).";
                (cudaMemAllocationHandleType, musaMemAllocationHandleType) = c_uint,
                    "A pool's export handle types (`enum cudaMemAllocationHandleType`).";
                (cudaMemLocationType, musaMemLocationType) = c_uint, "A kind of location (`enum cudaMemLocationType`).";
                (cudaMemoryAdvise, musaMemoryAdvise) = c_int, "Advice about managed memory (`enum cudaMemoryAdvise`).";
                (cudaMemRangeAttribute, musaMemRangeAttribute) = c_int,
                    "An attribute of a managed range (`enum cudaMemRangeAttribute`).";
                (cudaPitchedPtr, musaPitchedPtr) = rt::PitchedPtr, "Pitched memory (`struct cudaPitchedPtr`).";
                (cudaExtent, musaExtent) = rt::Extent, "The size of a 3-D copy (`struct cudaExtent`).";
                (cudaPos, musaPos) = rt::Pos, "An offset into a 3-D object (`struct cudaPos`).";
                (cudaMemcpy3DParms, musaMemcpy3DParms) = rt::Memcpy3DParms,
                    "The parameters of a 3-D copy (`struct cudaMemcpy3DParms`).";
                (cudaMemcpy3DPeerParms, musaMemcpy3DPeerParms) = rt::Memcpy3DPeerParms,
                    "The parameters of a 3-D copy between devices (`struct cudaMemcpy3DPeerParms`).";
                (cudaMemAccessFlags, musaMemAccessFlags) = c_uint, "A device's access to a pool (`enum cudaMemAccessFlags`).";
                (cudaMemAccessDesc, musaMemAccessDesc) = rt::MemAccessDesc,
                    "A device and the access it gets to a pool (`struct cudaMemAccessDesc`).";
                (cudaMemPoolPtrExportData, musaMemPoolPtrExportData) = rt::MemPoolPtrExportData,
                    "What exporting a pool pointer writes (`struct cudaMemPoolPtrExportData`).";
                // Graphs built by hand (`cuda_graph_build.rs`).
                (dim3, dim3) = $crate::facade::cc_runtime::Dim3, "Grid and block dimensions (`dim3`).";
                (cudaLaunchConfig_t, musaLaunchConfig_t) = $crate::facade::cc_runtime::LaunchConfig,
                    "An extensible launch's configuration (`cudaLaunchConfig_t`).";
                (cudaLaunchAttribute, musaLaunchAttribute) = $crate::facade::cc_runtime::LaunchAttribute,
                    "A launch attribute (`cudaLaunchAttribute`).";
                (cudaKernelNodeParams, musaKernelNodeParams) = rt::KernelNodeParams,
                    "A kernel node's parameters (`struct cudaKernelNodeParams`).";
                (cudaMemsetParams, musaMemsetParams) = rt::MemsetParams,
                    "A memset node's parameters (`struct cudaMemsetParams`).";
                (cudaHostNodeParams, musaHostNodeParams) = rt::HostNodeParams,
                    "A host node's parameters (`struct cudaHostNodeParams`).";
                (cudaMemcpyNodeParams, musaMemcpyNodeParams) = rt::MemcpyNodeParams,
                    "A memcpy node's parameters in `cudaGraphNodeParams` (`struct cudaMemcpyNodeParams`).";
                (cudaGraphNodeParams, musaGraphNodeParams) = rt::GraphNodeParams,
                    "A node's type and parameters (`struct cudaGraphNodeParams`).";
                (cudaGraphExecUpdateResultInfo, musaGraphExecUpdateResultInfo) = rt::GraphExecUpdateResultInfo,
                    "What an executable graph update reports (`cudaGraphExecUpdateResultInfo`).";
                (cudaGraphInstantiateParams, musaGraphInstantiateParams) = rt::GraphInstantiateParams,
                    "How to instantiate a graph (`cudaGraphInstantiateParams`).";
                (cudaGraphExecUpdateResult, musaGraphExecUpdateResult) = c_uint,
                    "An executable graph update's result (`enum cudaGraphExecUpdateResult`).";
                // Capture into a graph (`cuda_graph_child.rs`).
                (cudaGraphEdgeData, musaGraphEdgeData) = rt::GraphEdgeData,
                    "An edge's data (`cudaGraphEdgeData`; all zeros is a default edge).";
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
                (cudaDevAttrMaxThreadsPerBlock, musaDevAttrMaxThreadsPerBlock): c_int = 1;
                (cudaDevAttrMaxBlockDimX, musaDevAttrMaxBlockDimX): c_int = 2;
                (cudaDevAttrMaxBlockDimY, musaDevAttrMaxBlockDimY): c_int = 3;
                (cudaDevAttrMaxBlockDimZ, musaDevAttrMaxBlockDimZ): c_int = 4;
                (cudaDevAttrMaxGridDimX, musaDevAttrMaxGridDimX): c_int = 5;
                (cudaDevAttrMaxGridDimY, musaDevAttrMaxGridDimY): c_int = 6;
                (cudaDevAttrMaxGridDimZ, musaDevAttrMaxGridDimZ): c_int = 7;
                (cudaDevAttrMaxSharedMemoryPerBlock, musaDevAttrMaxSharedMemoryPerBlock): c_int = 8;
                (cudaDevAttrTotalConstantMemory, musaDevAttrTotalConstantMemory): c_int = 9;
                (cudaDevAttrMaxPitch, musaDevAttrMaxPitch): c_int = 11;
                (cudaDevAttrMaxRegistersPerBlock, musaDevAttrMaxRegistersPerBlock): c_int = 12;
                (cudaDevAttrClockRate, musaDevAttrClockRate): c_int = 13;
                (cudaDevAttrTextureAlignment, musaDevAttrTextureAlignment): c_int = 14;
                (cudaDevAttrGpuOverlap, musaDevAttrGpuOverlap): c_int = 15;
                (cudaDevAttrKernelExecTimeout, musaDevAttrKernelExecTimeout): c_int = 17;
                (cudaDevAttrIntegrated, musaDevAttrIntegrated): c_int = 18;
                (cudaDevAttrCanMapHostMemory, musaDevAttrCanMapHostMemory): c_int = 19;
                (cudaDevAttrComputeMode, musaDevAttrComputeMode): c_int = 20;
                (cudaDevAttrMaxTexture1DWidth, musaDevAttrMaxTexture1DWidth): c_int = 21;
                (cudaDevAttrMaxTexture2DWidth, musaDevAttrMaxTexture2DWidth): c_int = 22;
                (cudaDevAttrMaxTexture2DHeight, musaDevAttrMaxTexture2DHeight): c_int = 23;
                (cudaDevAttrMaxTexture3DWidth, musaDevAttrMaxTexture3DWidth): c_int = 24;
                (cudaDevAttrMaxTexture3DHeight, musaDevAttrMaxTexture3DHeight): c_int = 25;
                (cudaDevAttrMaxTexture3DDepth, musaDevAttrMaxTexture3DDepth): c_int = 26;
                (cudaDevAttrMaxTexture2DLayeredWidth, musaDevAttrMaxTexture2DLayeredWidth): c_int = 27;
                (cudaDevAttrMaxTexture2DLayeredHeight, musaDevAttrMaxTexture2DLayeredHeight): c_int = 28;
                (cudaDevAttrMaxTexture2DLayeredLayers, musaDevAttrMaxTexture2DLayeredLayers): c_int = 29;
                (cudaDevAttrSurfaceAlignment, musaDevAttrSurfaceAlignment): c_int = 30;
                (cudaDevAttrConcurrentKernels, musaDevAttrConcurrentKernels): c_int = 31;
                (cudaDevAttrEccEnabled, musaDevAttrEccEnabled): c_int = 32;
                (cudaDevAttrPciBusId, musaDevAttrPciBusId): c_int = 33;
                (cudaDevAttrPciDeviceId, musaDevAttrPciDeviceId): c_int = 34;
                (cudaDevAttrTccDriver, musaDevAttrTccDriver): c_int = 35;
                (cudaDevAttrMemoryClockRate, musaDevAttrMemoryClockRate): c_int = 36;
                (cudaDevAttrGlobalMemoryBusWidth, musaDevAttrGlobalMemoryBusWidth): c_int = 37;
                (cudaDevAttrL2CacheSize, musaDevAttrL2CacheSize): c_int = 38;
                (cudaDevAttrMaxThreadsPerMultiProcessor, musaDevAttrMaxThreadsPerMultiProcessor): c_int = 39;
                (cudaDevAttrAsyncEngineCount, musaDevAttrAsyncEngineCount): c_int = 40;
                (cudaDevAttrUnifiedAddressing, musaDevAttrUnifiedAddressing): c_int = 41;
                (cudaDevAttrMaxTexture1DLayeredWidth, musaDevAttrMaxTexture1DLayeredWidth): c_int = 42;
                (cudaDevAttrMaxTexture1DLayeredLayers, musaDevAttrMaxTexture1DLayeredLayers): c_int = 43;
                (cudaDevAttrMaxTexture2DGatherWidth, musaDevAttrMaxTexture2DGatherWidth): c_int = 45;
                (cudaDevAttrMaxTexture2DGatherHeight, musaDevAttrMaxTexture2DGatherHeight): c_int = 46;
                (cudaDevAttrMaxTexture3DWidthAlt, musaDevAttrMaxTexture3DWidthAlt): c_int = 47;
                (cudaDevAttrMaxTexture3DHeightAlt, musaDevAttrMaxTexture3DHeightAlt): c_int = 48;
                (cudaDevAttrMaxTexture3DDepthAlt, musaDevAttrMaxTexture3DDepthAlt): c_int = 49;
                (cudaDevAttrPciDomainId, musaDevAttrPciDomainId): c_int = 50;
                (cudaDevAttrTexturePitchAlignment, musaDevAttrTexturePitchAlignment): c_int = 51;
                (cudaDevAttrMaxTextureCubemapWidth, musaDevAttrMaxTextureCubemapWidth): c_int = 52;
                (cudaDevAttrMaxTextureCubemapLayeredWidth, musaDevAttrMaxTextureCubemapLayeredWidth): c_int =
                    53;
                (cudaDevAttrMaxTextureCubemapLayeredLayers, musaDevAttrMaxTextureCubemapLayeredLayers): c_int =
                    54;
                (cudaDevAttrMaxSurface1DWidth, musaDevAttrMaxSurface1DWidth): c_int = 55;
                (cudaDevAttrMaxSurface2DWidth, musaDevAttrMaxSurface2DWidth): c_int = 56;
                (cudaDevAttrMaxSurface2DHeight, musaDevAttrMaxSurface2DHeight): c_int = 57;
                (cudaDevAttrMaxSurface3DWidth, musaDevAttrMaxSurface3DWidth): c_int = 58;
                (cudaDevAttrMaxSurface3DHeight, musaDevAttrMaxSurface3DHeight): c_int = 59;
                (cudaDevAttrMaxSurface3DDepth, musaDevAttrMaxSurface3DDepth): c_int = 60;
                (cudaDevAttrMaxSurface1DLayeredWidth, musaDevAttrMaxSurface1DLayeredWidth): c_int = 61;
                (cudaDevAttrMaxSurface1DLayeredLayers, musaDevAttrMaxSurface1DLayeredLayers): c_int = 62;
                (cudaDevAttrMaxSurface2DLayeredWidth, musaDevAttrMaxSurface2DLayeredWidth): c_int = 63;
                (cudaDevAttrMaxSurface2DLayeredHeight, musaDevAttrMaxSurface2DLayeredHeight): c_int = 64;
                (cudaDevAttrMaxSurface2DLayeredLayers, musaDevAttrMaxSurface2DLayeredLayers): c_int = 65;
                (cudaDevAttrMaxSurfaceCubemapWidth, musaDevAttrMaxSurfaceCubemapWidth): c_int = 66;
                (cudaDevAttrMaxSurfaceCubemapLayeredWidth, musaDevAttrMaxSurfaceCubemapLayeredWidth): c_int =
                    67;
                (cudaDevAttrMaxSurfaceCubemapLayeredLayers, musaDevAttrMaxSurfaceCubemapLayeredLayers): c_int =
                    68;
                (cudaDevAttrMaxTexture1DLinearWidth, musaDevAttrMaxTexture1DLinearWidth): c_int = 69;
                (cudaDevAttrMaxTexture2DLinearWidth, musaDevAttrMaxTexture2DLinearWidth): c_int = 70;
                (cudaDevAttrMaxTexture2DLinearHeight, musaDevAttrMaxTexture2DLinearHeight): c_int = 71;
                (cudaDevAttrMaxTexture2DLinearPitch, musaDevAttrMaxTexture2DLinearPitch): c_int = 72;
                (cudaDevAttrMaxTexture2DMipmappedWidth, musaDevAttrMaxTexture2DMipmappedWidth): c_int = 73;
                (cudaDevAttrMaxTexture2DMipmappedHeight, musaDevAttrMaxTexture2DMipmappedHeight): c_int = 74;
                (cudaDevAttrComputeCapabilityMajor, musaDevAttrComputeCapabilityMajor): c_int = 75;
                (cudaDevAttrComputeCapabilityMinor, musaDevAttrComputeCapabilityMinor): c_int = 76;
                (cudaDevAttrMaxTexture1DMipmappedWidth, musaDevAttrMaxTexture1DMipmappedWidth): c_int = 77;
                (cudaDevAttrStreamPrioritiesSupported, musaDevAttrStreamPrioritiesSupported): c_int = 78;
                (cudaDevAttrGlobalL1CacheSupported, musaDevAttrGlobalL1CacheSupported): c_int = 79;
                (cudaDevAttrLocalL1CacheSupported, musaDevAttrLocalL1CacheSupported): c_int = 80;
                (cudaDevAttrMaxSharedMemoryPerMultiprocessor, musaDevAttrMaxSharedMemoryPerMultiprocessor): c_int =
                    81;
                (cudaDevAttrMaxRegistersPerMultiprocessor, musaDevAttrMaxRegistersPerMultiprocessor): c_int =
                    82;
                (cudaDevAttrManagedMemory, musaDevAttrManagedMemory): c_int = 83;
                (cudaDevAttrIsMultiGpuBoard, musaDevAttrIsMultiGpuBoard): c_int = 84;
                (cudaDevAttrMultiGpuBoardGroupID, musaDevAttrMultiGpuBoardGroupID): c_int = 85;
                (cudaDevAttrHostNativeAtomicSupported, musaDevAttrHostNativeAtomicSupported): c_int = 86;
                (cudaDevAttrSingleToDoublePrecisionPerfRatio, musaDevAttrSingleToDoublePrecisionPerfRatio): c_int =
                    87;
                (cudaDevAttrPageableMemoryAccess, musaDevAttrPageableMemoryAccess): c_int = 88;
                (cudaDevAttrConcurrentManagedAccess, musaDevAttrConcurrentManagedAccess): c_int = 89;
                (cudaDevAttrComputePreemptionSupported, musaDevAttrComputePreemptionSupported): c_int = 90;
                (cudaDevAttrCanUseHostPointerForRegisteredMem, musaDevAttrCanUseHostPointerForRegisteredMem): c_int =
                    91;
                (cudaDevAttrCooperativeLaunch, musaDevAttrCooperativeLaunch): c_int = 95;
                (cudaDevAttrCooperativeMultiDeviceLaunch, musaDevAttrCooperativeMultiDeviceLaunch): c_int =
                    96;
                (cudaDevAttrMaxSharedMemoryPerBlockOptin, musaDevAttrMaxSharedMemoryPerBlockOptin): c_int =
                    97;
                (cudaDevAttrCanFlushRemoteWrites, musaDevAttrCanFlushRemoteWrites): c_int = 98;
                (cudaDevAttrHostRegisterSupported, musaDevAttrHostRegisterSupported): c_int = 99;
                (cudaDevAttrPageableMemoryAccessUsesHostPageTables, musaDevAttrPageableMemoryAccessUsesHostPageTables): c_int =
                    100;
                (cudaDevAttrDirectManagedMemAccessFromHost, musaDevAttrDirectManagedMemAccessFromHost): c_int =
                    101;
                (cudaDevAttrMaxBlocksPerMultiprocessor, musaDevAttrMaxBlocksPerMultiprocessor): c_int = 106;
                (cudaDevAttrMaxPersistingL2CacheSize, musaDevAttrMaxPersistingL2CacheSize): c_int = 108;
                (cudaDevAttrMaxAccessPolicyWindowSize, musaDevAttrMaxAccessPolicyWindowSize): c_int = 109;
                (cudaDevAttrSparseCudaArraySupported, musaDevAttrSparseCudaArraySupported): c_int = 112;
                (cudaDevAttrHostRegisterReadOnlySupported, musaDevAttrHostRegisterReadOnlySupported): c_int =
                    113;
                (cudaDevAttrTimelineSemaphoreInteropSupported, musaDevAttrTimelineSemaphoreInteropSupported): c_int =
                    114;
                (cudaDevAttrMaxTimelineSemaphoreInteropSupported, musaDevAttrMaxTimelineSemaphoreInteropSupported): c_int =
                    114;
                (cudaDevAttrMemoryPoolsSupported, musaDevAttrMemoryPoolsSupported): c_int = 115;
                (cudaDevAttrGPUDirectRDMASupported, musaDevAttrGPUDirectRDMASupported): c_int = 116;
                (cudaDevAttrGPUDirectRDMAFlushWritesOptions, musaDevAttrGPUDirectRDMAFlushWritesOptions): c_int =
                    117;
                (cudaDevAttrGPUDirectRDMAWritesOrdering, musaDevAttrGPUDirectRDMAWritesOrdering): c_int = 118;
                (cudaDevAttrMemoryPoolSupportedHandleTypes, musaDevAttrMemoryPoolSupportedHandleTypes): c_int =
                    119;
                (cudaDevAttrClusterLaunch, musaDevAttrClusterLaunch): c_int = 120;
                (cudaDevAttrDeferredMappingCudaArraySupported, musaDevAttrDeferredMappingCudaArraySupported): c_int =
                    121;
                (cudaDevAttrIpcEventSupport, musaDevAttrIpcEventSupport): c_int = 125;
                (cudaIpcMemLazyEnablePeerAccess, musaIpcMemLazyEnablePeerAccess): c_uint = 0x01;
                (cudaDevAttrMemSyncDomainCount, musaDevAttrMemSyncDomainCount): c_int = 126;
                (cudaDevAttrNumaConfig, musaDevAttrNumaConfig): c_int = 130;
                (cudaDevAttrNumaId, musaDevAttrNumaId): c_int = 131;
                (cudaDevAttrMpsEnabled, musaDevAttrMpsEnabled): c_int = 133;
                (cudaDevAttrHostNumaId, musaDevAttrHostNumaId): c_int = 134;
                (cudaDevAttrD3D12CigSupported, musaDevAttrD3D12CigSupported): c_int = 135;
                (cudaHostAllocDefault, musaHostAllocDefault): c_uint = 0x00;
                (cudaHostAllocPortable, musaHostAllocPortable): c_uint = 0x01;
                (cudaHostAllocMapped, musaHostAllocMapped): c_uint = 0x02;
                (cudaHostAllocWriteCombined, musaHostAllocWriteCombined): c_uint = 0x04;
                (cudaHostRegisterDefault, musaHostRegisterDefault): c_uint = 0x00;
                (cudaHostRegisterPortable, musaHostRegisterPortable): c_uint = 0x01;
                (cudaHostRegisterMapped, musaHostRegisterMapped): c_uint = 0x02;
                (cudaHostRegisterIoMemory, musaHostRegisterIoMemory): c_uint = 0x04;
                (cudaHostRegisterReadOnly, musaHostRegisterReadOnly): c_uint = 0x08;
                (cudaEventRecordExternal, musaEventRecordExternal): c_uint = 0x01;
                (cudaEventWaitExternal, musaEventWaitExternal): c_uint = 0x01;
                (cudaDeviceScheduleAuto, musaDeviceScheduleAuto): c_uint = 0x00;
                (cudaDeviceScheduleSpin, musaDeviceScheduleSpin): c_uint = 0x01;
                (cudaDeviceScheduleYield, musaDeviceScheduleYield): c_uint = 0x02;
                (cudaDeviceScheduleBlockingSync, musaDeviceScheduleBlockingSync): c_uint = 0x04;
                (cudaDeviceBlockingSync, musaDeviceBlockingSync): c_uint = 0x04;
                (cudaDeviceScheduleMask, musaDeviceScheduleMask): c_uint = 0x07;
                (cudaDeviceMapHost, musaDeviceMapHost): c_uint = 0x08;
                (cudaDeviceLmemResizeToMax, musaDeviceLmemResizeToMax): c_uint = 0x10;
                (cudaDeviceSyncMemops, musaDeviceSyncMemops): c_uint = 0x80;
                (cudaDeviceMask, musaDeviceMask): c_uint = 0xff;
                (cudaOccupancyDefault, musaOccupancyDefault): c_uint = 0x00;
                (cudaOccupancyDisableCachingOverride, musaOccupancyDisableCachingOverride): c_uint = 0x01;
                (cudaLimitStackSize, musaLimitStackSize): c_uint = 0x00;
                (cudaLimitPrintfFifoSize, musaLimitPrintfFifoSize): c_uint = 0x01;
                (cudaLimitMallocHeapSize, musaLimitMallocHeapSize): c_uint = 0x02;
                (cudaLimitDevRuntimeSyncDepth, musaLimitDevRuntimeSyncDepth): c_uint = 0x03;
                (cudaLimitDevRuntimePendingLaunchCount, musaLimitDevRuntimePendingLaunchCount): c_uint = 0x04;
                (cudaLimitMaxL2FetchGranularity, musaLimitMaxL2FetchGranularity): c_uint = 0x05;
                (cudaLimitPersistingL2CacheSize, musaLimitPersistingL2CacheSize): c_uint = 0x06;
                (cudaMemoryTypeUnregistered, musaMemoryTypeUnregistered): c_uint = 0;
                (cudaMemoryTypeHost, musaMemoryTypeHost): c_uint = 1;
                (cudaMemoryTypeDevice, musaMemoryTypeDevice): c_uint = 2;
                (cudaMemoryTypeManaged, musaMemoryTypeManaged): c_uint = 3;
                (cudaComputeModeDefault, musaComputeModeDefault): c_uint = 0;
                (cudaComputeModeExclusive, musaComputeModeExclusive): c_uint = 1;
                (cudaComputeModeProhibited, musaComputeModeProhibited): c_uint = 2;
                (cudaComputeModeExclusiveProcess, musaComputeModeExclusiveProcess): c_uint = 3;
                (cudaCpuDeviceId, musaCpuDeviceId): c_int = -1;
                (cudaInvalidDeviceId, musaInvalidDeviceId): c_int = -2;
                (cudaStreamCaptureModeGlobal, musaStreamCaptureModeGlobal): c_int = 0;
                (cudaStreamCaptureModeThreadLocal, musaStreamCaptureModeThreadLocal): c_int = 1;
                (cudaStreamCaptureModeRelaxed, musaStreamCaptureModeRelaxed): c_int = 2;
                (cudaDevP2PAttrPerformanceRank, musaDevP2PAttrPerformanceRank): c_uint = 1;
                (cudaDevP2PAttrAccessSupported, musaDevP2PAttrAccessSupported): c_uint = 2;
                (cudaDevP2PAttrNativeAtomicSupported, musaDevP2PAttrNativeAtomicSupported): c_uint = 3;
                (cudaDevP2PAttrCudaArrayAccessSupported, musaDevP2PAttrCudaArrayAccessSupported): c_uint = 4;
                (cudaDevP2PAttrOnlyPartialNativeAtomicSupported, musaDevP2PAttrOnlyPartialNativeAtomicSupported): c_uint = 5;
                (cudaFuncAttributeMaxDynamicSharedMemorySize, musaFuncAttributeMaxDynamicSharedMemorySize): c_int = 8;
                (cudaFuncAttributePreferredSharedMemoryCarveout, musaFuncAttributePreferredSharedMemoryCarveout): c_int = 9;
                (cudaStreamCaptureStatusNone, musaStreamCaptureStatusNone): c_uint = 0;
                (cudaStreamCaptureStatusActive, musaStreamCaptureStatusActive): c_uint = 1;
                (cudaStreamCaptureStatusInvalidated, musaStreamCaptureStatusInvalidated): c_uint = 2;
                (cudaStreamAddCaptureDependencies, musaStreamAddCaptureDependencies): c_uint = 0x0;
                (cudaStreamSetCaptureDependencies, musaStreamSetCaptureDependencies): c_uint = 0x1;
                (cudaGraphNodeTypeKernel, musaGraphNodeTypeKernel): c_uint = 0x00;
                (cudaGraphNodeTypeMemcpy, musaGraphNodeTypeMemcpy): c_uint = 0x01;
                (cudaGraphNodeTypeMemset, musaGraphNodeTypeMemset): c_uint = 0x02;
                (cudaGraphNodeTypeHost, musaGraphNodeTypeHost): c_uint = 0x03;
                (cudaGraphNodeTypeGraph, musaGraphNodeTypeGraph): c_uint = 0x04;
                (cudaGraphNodeTypeEmpty, musaGraphNodeTypeEmpty): c_uint = 0x05;
                (cudaGraphNodeTypeWaitEvent, musaGraphNodeTypeWaitEvent): c_uint = 0x06;
                (cudaGraphNodeTypeEventRecord, musaGraphNodeTypeEventRecord): c_uint = 0x07;
                (cudaGraphNodeTypeMemAlloc, musaGraphNodeTypeMemAlloc): c_uint = 0x0a;
                (cudaGraphNodeTypeMemFree, musaGraphNodeTypeMemFree): c_uint = 0x0b;
                (cudaGraphMemAttrUsedMemCurrent, musaGraphMemAttrUsedMemCurrent): c_int = 0x0;
                (cudaGraphMemAttrUsedMemHigh, musaGraphMemAttrUsedMemHigh): c_int = 0x1;
                (cudaGraphMemAttrReservedMemCurrent, musaGraphMemAttrReservedMemCurrent): c_int = 0x2;
                (cudaGraphMemAttrReservedMemHigh, musaGraphMemAttrReservedMemHigh): c_int = 0x3;
                (cudaGraphInstantiateFlagAutoFreeOnLaunch, musaGraphInstantiateFlagAutoFreeOnLaunch): u64 = 1;
                (cudaGraphInstantiateFlagUpload, musaGraphInstantiateFlagUpload): u64 = 2;
                (cudaGraphInstantiateFlagDeviceLaunch, musaGraphInstantiateFlagDeviceLaunch): u64 = 4;
                (cudaGraphInstantiateFlagUseNodePriority, musaGraphInstantiateFlagUseNodePriority): u64 = 8;
                (cudaGraphDebugDotFlagsVerbose, musaGraphDebugDotFlagsVerbose): c_uint = 1;
                (cudaMemPoolReuseFollowEventDependencies, musaMemPoolReuseFollowEventDependencies): c_int = 1;
                (cudaMemPoolReuseAllowOpportunistic, musaMemPoolReuseAllowOpportunistic): c_int = 2;
                (cudaMemPoolReuseAllowInternalDependencies, musaMemPoolReuseAllowInternalDependencies): c_int = 3;
                (cudaMemPoolAttrReleaseThreshold, musaMemPoolAttrReleaseThreshold): c_int = 4;
                (cudaMemPoolAttrReservedMemCurrent, musaMemPoolAttrReservedMemCurrent): c_int = 5;
                (cudaMemPoolAttrReservedMemHigh, musaMemPoolAttrReservedMemHigh): c_int = 6;
                (cudaMemPoolAttrUsedMemCurrent, musaMemPoolAttrUsedMemCurrent): c_int = 7;
                (cudaMemPoolAttrUsedMemHigh, musaMemPoolAttrUsedMemHigh): c_int = 8;
                (cudaMemAllocationTypeInvalid, musaMemAllocationTypeInvalid): c_uint = 0;
                (cudaMemAllocationTypePinned, musaMemAllocationTypePinned): c_uint = rt::MEM_ALLOCATION_TYPE_PINNED;
                (cudaMemAllocationTypeManaged, musaMemAllocationTypeManaged): c_uint = rt::MEM_ALLOCATION_TYPE_MANAGED;
                (cudaMemAllocationTypeMax, musaMemAllocationTypeMax): c_uint = 0x7FFF_FFFF;
                (cudaMemHandleTypeNone, musaMemHandleTypeNone): c_uint = rt::MEM_HANDLE_TYPE_NONE;
                (cudaMemHandleTypePosixFileDescriptor, musaMemHandleTypePosixFileDescriptor): c_uint = 0x1;
                (cudaMemHandleTypeWin32, musaMemHandleTypeWin32): c_uint = 0x2;
                (cudaMemHandleTypeWin32Kmt, musaMemHandleTypeWin32Kmt): c_uint = 0x4;
                (cudaMemHandleTypeFabric, musaMemHandleTypeFabric): c_uint = 0x8;
                (cudaMemLocationTypeInvalid, musaMemLocationTypeInvalid): c_uint = 0;
                (cudaMemLocationTypeDevice, musaMemLocationTypeDevice): c_uint = rt::MEM_LOCATION_TYPE_DEVICE;
                (cudaMemLocationTypeHost, musaMemLocationTypeHost): c_uint = 2;
                (cudaMemLocationTypeHostNuma, musaMemLocationTypeHostNuma): c_uint = 3;
                (cudaMemLocationTypeHostNumaCurrent, musaMemLocationTypeHostNumaCurrent): c_uint = 4;
                // Managed memory (cuda_managed.rs).
                (cudaMemAttachGlobal, musaMemAttachGlobal): c_uint = rt::MEM_ATTACH_GLOBAL;
                (cudaMemAttachHost, musaMemAttachHost): c_uint = rt::MEM_ATTACH_HOST;
                (cudaMemAttachSingle, musaMemAttachSingle): c_uint = rt::MEM_ATTACH_SINGLE;
                (cudaMemAdviseSetReadMostly, musaMemAdviseSetReadMostly): c_int = 1;
                (cudaMemAdviseUnsetReadMostly, musaMemAdviseUnsetReadMostly): c_int = 2;
                (cudaMemAdviseSetPreferredLocation, musaMemAdviseSetPreferredLocation): c_int = 3;
                (cudaMemAdviseUnsetPreferredLocation, musaMemAdviseUnsetPreferredLocation): c_int = 4;
                (cudaMemAdviseSetAccessedBy, musaMemAdviseSetAccessedBy): c_int = 5;
                (cudaMemAdviseUnsetAccessedBy, musaMemAdviseUnsetAccessedBy): c_int = 6;
                (cudaMemRangeAttributeReadMostly, musaMemRangeAttributeReadMostly): c_int = 1;
                (cudaMemRangeAttributePreferredLocation, musaMemRangeAttributePreferredLocation): c_int = 2;
                (cudaMemRangeAttributeAccessedBy, musaMemRangeAttributeAccessedBy): c_int = 3;
                (cudaMemRangeAttributeLastPrefetchLocation, musaMemRangeAttributeLastPrefetchLocation): c_int = 4;
                (cudaMemRangeAttributePreferredLocationType, musaMemRangeAttributePreferredLocationType): c_int = 5;
                (cudaMemRangeAttributePreferredLocationId, musaMemRangeAttributePreferredLocationId): c_int = 6;
                (cudaMemRangeAttributeLastPrefetchLocationType, musaMemRangeAttributeLastPrefetchLocationType): c_int = 7;
                (cudaMemRangeAttributeLastPrefetchLocationId, musaMemRangeAttributeLastPrefetchLocationId): c_int = 8;
                (cudaMemAccessFlagsProtNone, musaMemAccessFlagsProtNone): c_uint = 0;
                (cudaMemAccessFlagsProtRead, musaMemAccessFlagsProtRead): c_uint = 1;
                (cudaMemAccessFlagsProtReadWrite, musaMemAccessFlagsProtReadWrite): c_uint = 3;
                // Launch attributes (`cc_runtime.rs`, cudaLaunchKernelExC).
                (cudaLaunchAttributeIgnore, musaLaunchAttributeIgnore): c_uint = 0;
                (cudaLaunchAttributeAccessPolicyWindow, musaLaunchAttributeAccessPolicyWindow): c_uint = 1;
                (cudaLaunchAttributeCooperative, musaLaunchAttributeCooperative): c_uint = 2;
                (cudaLaunchAttributeSynchronizationPolicy, musaLaunchAttributeSynchronizationPolicy): c_uint = 3;
                (cudaLaunchAttributeClusterDimension, musaLaunchAttributeClusterDimension): c_uint = 4;
                (cudaLaunchAttributeClusterSchedulingPolicyPreference, musaLaunchAttributeClusterSchedulingPolicyPreference): c_uint = 5;
                (cudaLaunchAttributeProgrammaticStreamSerialization, musaLaunchAttributeProgrammaticStreamSerialization): c_uint = 6;
                (cudaLaunchAttributeProgrammaticEvent, musaLaunchAttributeProgrammaticEvent): c_uint = 7;
                (cudaLaunchAttributePriority, musaLaunchAttributePriority): c_uint = 8;
                (cudaLaunchAttributeMemSyncDomainMap, musaLaunchAttributeMemSyncDomainMap): c_uint = 9;
                (cudaLaunchAttributeMemSyncDomain, musaLaunchAttributeMemSyncDomain): c_uint = 10;
                // Graphs built by hand (`cuda_graph_build.rs`).
                (cudaGraphExecUpdateSuccess, musaGraphExecUpdateSuccess): c_uint = 0x0;
                (cudaGraphExecUpdateError, musaGraphExecUpdateError): c_uint = 0x1;
                (cudaGraphExecUpdateErrorTopologyChanged, musaGraphExecUpdateErrorTopologyChanged): c_uint = 0x2;
                (cudaGraphExecUpdateErrorNodeTypeChanged, musaGraphExecUpdateErrorNodeTypeChanged): c_uint = 0x3;
                (cudaGraphExecUpdateErrorFunctionChanged, musaGraphExecUpdateErrorFunctionChanged): c_uint = 0x4;
                (cudaGraphExecUpdateErrorParametersChanged, musaGraphExecUpdateErrorParametersChanged): c_uint = 0x5;
                (cudaGraphExecUpdateErrorNotSupported, musaGraphExecUpdateErrorNotSupported): c_uint = 0x6;
                (cudaGraphExecUpdateErrorUnsupportedFunctionChange, musaGraphExecUpdateErrorUnsupportedFunctionChange):
                    c_uint = 0x7;
                (cudaGraphExecUpdateErrorAttributesChanged, musaGraphExecUpdateErrorAttributesChanged): c_uint = 0x8;
                (cudaGraphInstantiateSuccess, musaGraphInstantiateSuccess): c_uint = 0;
                (cudaGraphInstantiateError, musaGraphInstantiateError): c_uint = 1;
                (cudaGraphInstantiateInvalidStructure, musaGraphInstantiateInvalidStructure): c_uint = 2;
                (cudaGraphInstantiateNodeOperationNotSupported, musaGraphInstantiateNodeOperationNotSupported):
                    c_uint = 3;
                (cudaGraphInstantiateMultipleDevicesNotSupported, musaGraphInstantiateMultipleDevicesNotSupported):
                    c_uint = 4;
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
                (cudaDeviceGetP2PAttribute, musaDeviceGetP2PAttribute)(value: *mut c_int, attr: c_uint,
                    srcDevice: c_int, dstDevice: c_int) => device_get_p2p_attribute(value, attr, srcDevice, dstDevice);
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
                    => stream_wait_event_with_flags(stream, event, flags);
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
                    flags: c_uint) => event_record_with_flags(event, stream, flags);
                (cudaEventQuery, musaEventQuery)(event: *mut c_void) => event_query(event);
                (cudaEventSynchronize, musaEventSynchronize)(event: *mut c_void) => event_synchronize(event);
                (cudaEventElapsedTime, musaEventElapsedTime)(ms: *mut f32, start: *mut c_void, end: *mut c_void)
                    => event_elapsed_time(ms, start, end);
                (cudaIpcGetEventHandle, musaIpcGetEventHandle)(handle: *mut rt::IpcEventHandleC,
                    event: *mut c_void) => ipc_get_event_handle(handle, event);
                (cudaIpcOpenEventHandle, musaIpcOpenEventHandle)(event: *mut *mut c_void,
                    handle: rt::IpcEventHandleC) => ipc_open_event_handle(event, handle);
                (cudaIpcGetMemHandle, musaIpcGetMemHandle)(handle: *mut rt::IpcMemHandleC,
                    devPtr: *mut c_void) => ipc_get_mem_handle(handle, devPtr);
                (cudaIpcOpenMemHandle, musaIpcOpenMemHandle)(devPtr: *mut *mut c_void,
                    handle: rt::IpcMemHandleC, flags: c_uint) => ipc_open_mem_handle(devPtr, handle, flags);
                (cudaIpcCloseMemHandle, musaIpcCloseMemHandle)(devPtr: *mut c_void)
                    => ipc_close_mem_handle(devPtr);
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
                (cudaGetDeviceProperties, musaGetDeviceProperties)(prop: *mut rt::DeviceProp, device: c_int)
                    => get_device_properties(prop, device);
                (cudaMemGetInfo, musaMemGetInfo)(free: *mut usize, total: *mut usize) => mem_get_info(free, total);
                (cudaDriverGetVersion, musaDriverGetVersion)(driverVersion: *mut c_int)
                    => driver_get_version(driverVersion);
                (cudaRuntimeGetVersion, musaRuntimeGetVersion)(runtimeVersion: *mut c_int)
                    => runtime_get_version(runtimeVersion);
                (cudaDeviceGetPCIBusId, musaDeviceGetPCIBusId)(pciBusId: *mut c_char, len: c_int, device: c_int)
                    => device_get_pci_bus_id(pciBusId, len, device);
                (cudaDeviceGetByPCIBusId, musaDeviceGetByPCIBusId)(device: *mut c_int, pciBusId: *const c_char)
                    => device_get_by_pci_bus_id(device, pciBusId);
                (cudaDeviceSetLimit, musaDeviceSetLimit)(limit: c_uint, value: usize) => device_set_limit(limit, value);
                (cudaDeviceGetLimit, musaDeviceGetLimit)(pValue: *mut usize, limit: c_uint)
                    => device_get_limit(pValue, limit);
                (cudaSetDeviceFlags, musaSetDeviceFlags)(flags: c_uint) => set_device_flags(flags);
                (cudaGetDeviceFlags, musaGetDeviceFlags)(flags: *mut c_uint) => get_device_flags(flags);
                (cudaOccupancyMaxActiveBlocksPerMultiprocessor, musaOccupancyMaxActiveBlocksPerMultiprocessor)(
                    numBlocks: *mut c_int, func: *const c_void, blockSize: c_int, dynamicSMemSize: usize)
                    => occupancy_max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);
                (cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)(
                    numBlocks: *mut c_int, func: *const c_void, blockSize: c_int, dynamicSMemSize: usize, flags: c_uint)
                    => occupancy_max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
                (cudaProfilerStart, musaProfilerStart)() => profiler_start();
                (cudaProfilerStop, musaProfilerStop)() => profiler_stop();
                (cudaHostAlloc, musaHostAlloc)(pHost: *mut *mut c_void, size: usize, flags: c_uint)
                    => host_alloc(pHost, size, flags);
                (cudaHostGetDevicePointer, musaHostGetDevicePointer)(pDevice: *mut *mut c_void, pHost: *mut c_void,
                    flags: c_uint) => host_get_device_pointer(pDevice, pHost, flags);
                (cudaHostRegister, musaHostRegister)(ptr: *mut c_void, size: usize, flags: c_uint)
                    => host_register(ptr, size, flags);
                (cudaHostUnregister, musaHostUnregister)(ptr: *mut c_void) => host_unregister(ptr);
                (cudaPointerGetAttributes, musaPointerGetAttributes)(attributes: *mut rt::PointerAttributesC,
                    ptr: *const c_void) => pointer_get_attributes(attributes, ptr);
                (cudaStreamGetId, musaStreamGetId)(hStream: *mut c_void, streamId: *mut u64)
                    => stream_get_id(hStream, streamId);
                (cudaStreamGetDevice, musaStreamGetDevice)(hStream: *mut c_void, device: *mut c_int)
                    => stream_get_device(hStream, device);
                (cudaStreamBeginCapture, musaStreamBeginCapture)(stream: *mut c_void, mode: c_int)
                    => stream_begin_capture(stream, mode);
                (cudaStreamEndCapture, musaStreamEndCapture)(stream: *mut c_void, pGraph: *mut *mut c_void)
                    => stream_end_capture(stream, pGraph);
                (cudaStreamIsCapturing, musaStreamIsCapturing)(stream: *mut c_void, pCaptureStatus: *mut c_uint)
                    => stream_is_capturing(stream, pCaptureStatus);
                (cudaStreamGetCaptureInfo, musaStreamGetCaptureInfo)(stream: *mut c_void,
                    captureStatus_out: *mut c_uint, id_out: *mut u64, graph_out: *mut *mut c_void,
                    dependencies_out: *mut *const *mut c_void, numDependencies_out: *mut usize)
                    => stream_get_capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                    numDependencies_out);
                (cudaStreamUpdateCaptureDependencies, musaStreamUpdateCaptureDependencies)(stream: *mut c_void,
                    dependencies: *mut *mut c_void, numDependencies: usize, flags: c_uint)
                    => stream_update_capture_dependencies(stream, dependencies, numDependencies, flags);
                (cudaThreadExchangeStreamCaptureMode, musaThreadExchangeStreamCaptureMode)(mode: *mut c_int)
                    => thread_exchange_stream_capture_mode(mode);
                (cudaGraphInstantiate, musaGraphInstantiate)(pGraphExec: *mut *mut c_void, graph: *mut c_void,
                    flags: u64) => graph_instantiate(pGraphExec, graph, flags);
                (cudaGraphInstantiateWithFlags, musaGraphInstantiateWithFlags)(pGraphExec: *mut *mut c_void,
                    graph: *mut c_void, flags: u64) => graph_instantiate(pGraphExec, graph, flags);
                (cudaGraphLaunch, musaGraphLaunch)(graphExec: *mut c_void, stream: *mut c_void)
                    => graph_launch(graphExec, stream);
                (cudaGraphExecDestroy, musaGraphExecDestroy)(graphExec: *mut c_void) => graph_exec_destroy(graphExec);
                (cudaGraphDestroy, musaGraphDestroy)(graph: *mut c_void) => graph_destroy(graph);
                (cudaGraphClone, musaGraphClone)(pGraphClone: *mut *mut c_void, originalGraph: *mut c_void)
                    => graph_clone(pGraphClone, originalGraph);
                (cudaGraphGetNodes, musaGraphGetNodes)(graph: *mut c_void, nodes: *mut *mut c_void,
                    numNodes: *mut usize) => graph_get_nodes(graph, nodes, numNodes);
                (cudaGraphGetRootNodes, musaGraphGetRootNodes)(graph: *mut c_void, pRootNodes: *mut *mut c_void,
                    pNumRootNodes: *mut usize) => graph_get_root_nodes(graph, pRootNodes, pNumRootNodes);
                (cudaGraphGetEdges, musaGraphGetEdges)(graph: *mut c_void, from: *mut *mut c_void,
                    to: *mut *mut c_void, numEdges: *mut usize) => graph_get_edges(graph, from, to, numEdges);
                (cudaGraphNodeGetType, musaGraphNodeGetType)(node: *mut c_void, pType: *mut c_uint)
                    => graph_node_get_type(node, pType);
                (cudaGraphNodeGetDependencies, musaGraphNodeGetDependencies)(node: *mut c_void,
                    pDependencies: *mut *mut c_void, pNumDependencies: *mut usize)
                    => graph_node_get_dependencies(node, pDependencies, pNumDependencies);
                (cudaGraphNodeGetDependentNodes, musaGraphNodeGetDependentNodes)(node: *mut c_void,
                    pDependentNodes: *mut *mut c_void, pNumDependentNodes: *mut usize)
                    => graph_node_get_dependent_nodes(node, pDependentNodes, pNumDependentNodes);
                (cudaGraphDebugDotPrint, musaGraphDebugDotPrint)(graph: *mut c_void, path: *const c_char,
                    flags: c_uint) => graph_debug_dot_print(graph, path, flags);
                // Graphs built by hand (`cuda_graph_build.rs`).
                (cudaGraphCreate, musaGraphCreate)(pGraph: *mut *mut c_void, flags: c_uint) => graph_create(pGraph, flags);
                (cudaGraphAddKernelNode, musaGraphAddKernelNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, pNodeParams: *const rt::KernelNodeParams)
                    => graph_add_kernel_node(pGraphNode, graph, pDependencies, numDependencies, pNodeParams);
                (cudaGraphAddMemcpyNode, musaGraphAddMemcpyNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, pCopyParams: *const rt::Memcpy3DParms)
                    => graph_add_memcpy_node(pGraphNode, graph, pDependencies, numDependencies, pCopyParams);
                (cudaGraphAddMemcpyNode1D, musaGraphAddMemcpyNode1D)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, dst: *mut c_void, src: *const c_void,
                    count: usize, kind: c_uint)
                    => graph_add_memcpy_node_1d(pGraphNode, graph, pDependencies, numDependencies, dst, src, count, kind);
                (cudaGraphAddMemsetNode, musaGraphAddMemsetNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, pMemsetParams: *const rt::MemsetParams)
                    => graph_add_memset_node(pGraphNode, graph, pDependencies, numDependencies, pMemsetParams);
                (cudaGraphAddHostNode, musaGraphAddHostNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, pNodeParams: *const rt::HostNodeParams)
                    => graph_add_host_node(pGraphNode, graph, pDependencies, numDependencies, pNodeParams);
                (cudaGraphAddEventRecordNode, musaGraphAddEventRecordNode)(pGraphNode: *mut *mut c_void,
                    graph: *mut c_void, pDependencies: *const *mut c_void, numDependencies: usize, event: *mut c_void)
                    => graph_add_event_record_node(pGraphNode, graph, pDependencies, numDependencies, event);
                (cudaGraphAddEventWaitNode, musaGraphAddEventWaitNode)(pGraphNode: *mut *mut c_void,
                    graph: *mut c_void, pDependencies: *const *mut c_void, numDependencies: usize, event: *mut c_void)
                    => graph_add_event_wait_node(pGraphNode, graph, pDependencies, numDependencies, event);
                (cudaGraphAddEmptyNode, musaGraphAddEmptyNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize)
                    => graph_add_empty_node(pGraphNode, graph, pDependencies, numDependencies);
                (cudaGraphAddChildGraphNode, musaGraphAddChildGraphNode)(pGraphNode: *mut *mut c_void,
                    graph: *mut c_void, pDependencies: *const *mut c_void, numDependencies: usize,
                    childGraph: *mut c_void)
                    => graph_add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies, childGraph);
                (cudaGraphAddNode, musaGraphAddNode)(pGraphNode: *mut *mut c_void, graph: *mut c_void,
                    pDependencies: *const *mut c_void, numDependencies: usize, nodeParams: *mut rt::GraphNodeParams)
                    => graph_add_node(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
                (cudaGraphAddDependencies, musaGraphAddDependencies)(graph: *mut c_void, from: *const *mut c_void,
                    to: *const *mut c_void, numDependencies: usize)
                    => graph_add_dependencies(graph, from, to, numDependencies);
                (cudaGraphRemoveDependencies, musaGraphRemoveDependencies)(graph: *mut c_void,
                    from: *const *mut c_void, to: *const *mut c_void, numDependencies: usize)
                    => graph_remove_dependencies(graph, from, to, numDependencies);
                (cudaGraphDestroyNode, musaGraphDestroyNode)(node: *mut c_void) => graph_destroy_node(node);
                (cudaGraphKernelNodeGetParams, musaGraphKernelNodeGetParams)(node: *mut c_void,
                    pNodeParams: *mut rt::KernelNodeParams) => graph_kernel_node_get_params(node, pNodeParams);
                (cudaGraphKernelNodeSetParams, musaGraphKernelNodeSetParams)(node: *mut c_void,
                    pNodeParams: *const rt::KernelNodeParams) => graph_kernel_node_set_params(node, pNodeParams);
                (cudaGraphMemcpyNodeGetParams, musaGraphMemcpyNodeGetParams)(node: *mut c_void,
                    pNodeParams: *mut rt::Memcpy3DParms) => graph_memcpy_node_get_params(node, pNodeParams);
                (cudaGraphMemcpyNodeSetParams, musaGraphMemcpyNodeSetParams)(node: *mut c_void,
                    pNodeParams: *const rt::Memcpy3DParms) => graph_memcpy_node_set_params(node, pNodeParams);
                (cudaGraphMemcpyNodeSetParams1D, musaGraphMemcpyNodeSetParams1D)(node: *mut c_void, dst: *mut c_void,
                    src: *const c_void, count: usize, kind: c_uint)
                    => graph_memcpy_node_set_params_1d(node, dst, src, count, kind);
                (cudaGraphMemsetNodeGetParams, musaGraphMemsetNodeGetParams)(node: *mut c_void,
                    pNodeParams: *mut rt::MemsetParams) => graph_memset_node_get_params(node, pNodeParams);
                (cudaGraphMemsetNodeSetParams, musaGraphMemsetNodeSetParams)(node: *mut c_void,
                    pNodeParams: *const rt::MemsetParams) => graph_memset_node_set_params(node, pNodeParams);
                (cudaGraphHostNodeGetParams, musaGraphHostNodeGetParams)(node: *mut c_void,
                    pNodeParams: *mut rt::HostNodeParams) => graph_host_node_get_params(node, pNodeParams);
                (cudaGraphHostNodeSetParams, musaGraphHostNodeSetParams)(node: *mut c_void,
                    pNodeParams: *const rt::HostNodeParams) => graph_host_node_set_params(node, pNodeParams);
                (cudaGraphEventRecordNodeGetEvent, musaGraphEventRecordNodeGetEvent)(node: *mut c_void,
                    event_out: *mut *mut c_void) => graph_event_record_node_get_event(node, event_out);
                (cudaGraphEventRecordNodeSetEvent, musaGraphEventRecordNodeSetEvent)(node: *mut c_void,
                    event: *mut c_void) => graph_event_record_node_set_event(node, event);
                (cudaGraphEventWaitNodeGetEvent, musaGraphEventWaitNodeGetEvent)(node: *mut c_void,
                    event_out: *mut *mut c_void) => graph_event_wait_node_get_event(node, event_out);
                (cudaGraphEventWaitNodeSetEvent, musaGraphEventWaitNodeSetEvent)(node: *mut c_void,
                    event: *mut c_void) => graph_event_wait_node_set_event(node, event);
                (cudaGraphNodeGetParams, musaGraphNodeGetParams)(node: *mut c_void,
                    nodeParams: *mut rt::GraphNodeParams) => graph_node_get_params(node, nodeParams);
                (cudaGraphNodeSetParams, musaGraphNodeSetParams)(node: *mut c_void,
                    nodeParams: *mut rt::GraphNodeParams) => graph_node_set_params(node, nodeParams);
                (cudaGraphExecKernelNodeSetParams, musaGraphExecKernelNodeSetParams)(hGraphExec: *mut c_void,
                    node: *mut c_void, pNodeParams: *const rt::KernelNodeParams)
                    => graph_exec_kernel_node_set_params(hGraphExec, node, pNodeParams);
                (cudaGraphExecMemcpyNodeSetParams, musaGraphExecMemcpyNodeSetParams)(hGraphExec: *mut c_void,
                    node: *mut c_void, pNodeParams: *const rt::Memcpy3DParms)
                    => graph_exec_memcpy_node_set_params(hGraphExec, node, pNodeParams);
                (cudaGraphExecMemcpyNodeSetParams1D, musaGraphExecMemcpyNodeSetParams1D)(hGraphExec: *mut c_void,
                    node: *mut c_void, dst: *mut c_void, src: *const c_void, count: usize, kind: c_uint)
                    => graph_exec_memcpy_node_set_params_1d(hGraphExec, node, dst, src, count, kind);
                (cudaGraphExecMemsetNodeSetParams, musaGraphExecMemsetNodeSetParams)(hGraphExec: *mut c_void,
                    node: *mut c_void, pNodeParams: *const rt::MemsetParams)
                    => graph_exec_memset_node_set_params(hGraphExec, node, pNodeParams);
                (cudaGraphExecHostNodeSetParams, musaGraphExecHostNodeSetParams)(hGraphExec: *mut c_void,
                    node: *mut c_void, pNodeParams: *const rt::HostNodeParams)
                    => graph_exec_host_node_set_params(hGraphExec, node, pNodeParams);
                (cudaGraphExecEventRecordNodeSetEvent, musaGraphExecEventRecordNodeSetEvent)(hGraphExec: *mut c_void,
                    hNode: *mut c_void, event: *mut c_void)
                    => graph_exec_event_record_node_set_event(hGraphExec, hNode, event);
                (cudaGraphExecEventWaitNodeSetEvent, musaGraphExecEventWaitNodeSetEvent)(hGraphExec: *mut c_void,
                    hNode: *mut c_void, event: *mut c_void)
                    => graph_exec_event_wait_node_set_event(hGraphExec, hNode, event);
                (cudaGraphExecNodeSetParams, musaGraphExecNodeSetParams)(graphExec: *mut c_void, node: *mut c_void,
                    nodeParams: *mut rt::GraphNodeParams) => graph_exec_node_set_params(graphExec, node, nodeParams);
                (cudaGraphExecUpdate, musaGraphExecUpdate)(hGraphExec: *mut c_void, hGraph: *mut c_void,
                    resultInfo: *mut rt::GraphExecUpdateResultInfo) => graph_exec_update(hGraphExec, hGraph, resultInfo);
                (cudaGraphNodeSetEnabled, musaGraphNodeSetEnabled)(hGraphExec: *mut c_void, hNode: *mut c_void,
                    isEnabled: c_uint) => graph_node_set_enabled(hGraphExec, hNode, isEnabled);
                (cudaGraphNodeGetEnabled, musaGraphNodeGetEnabled)(hGraphExec: *mut c_void, hNode: *mut c_void,
                    isEnabled: *mut c_uint) => graph_node_get_enabled(hGraphExec, hNode, isEnabled);
                (cudaGraphUpload, musaGraphUpload)(graphExec: *mut c_void, stream: *mut c_void)
                    => graph_upload(graphExec, stream);
                (cudaGraphInstantiateWithParams, musaGraphInstantiateWithParams)(pGraphExec: *mut *mut c_void,
                    graph: *mut c_void, instantiateParams: *mut rt::GraphInstantiateParams)
                    => graph_instantiate_with_params(pGraphExec, graph, instantiateParams);
                // Capture into a graph, child graphs' embedded graphs, clones (`cuda_graph_child.rs`).
                (cudaStreamBeginCaptureToGraph, musaStreamBeginCaptureToGraph)(stream: *mut c_void,
                    graph: *mut c_void, dependencies: *const *mut c_void, dependencyData: *const rt::GraphEdgeData,
                    numDependencies: usize, mode: c_int)
                    => stream_begin_capture_to_graph(stream, graph, dependencies, dependencyData, numDependencies,
                    mode);
                (cudaGraphChildGraphNodeGetGraph, musaGraphChildGraphNodeGetGraph)(node: *mut c_void,
                    pGraph: *mut *mut c_void) => graph_child_graph_node_get_graph(node, pGraph);
                (cudaGraphExecChildGraphNodeSetParams, musaGraphExecChildGraphNodeSetParams)(hGraphExec: *mut c_void,
                    node: *mut c_void, childGraph: *mut c_void)
                    => graph_exec_child_graph_node_set_params(hGraphExec, node, childGraph);
                (cudaGraphNodeFindInClone, musaGraphNodeFindInClone)(pNode: *mut *mut c_void,
                    originalNode: *mut c_void, clonedGraph: *mut c_void)
                    => graph_node_find_in_clone(pNode, originalNode, clonedGraph);
                (cudaMallocAsync, musaMallocAsync)(devPtr: *mut *mut c_void, size: usize, hStream: *mut c_void)
                    => malloc_async(devPtr, size, hStream);
                (cudaFreeAsync, musaFreeAsync)(devPtr: *mut c_void, hStream: *mut c_void)
                    => free_async(devPtr, hStream);
                (cudaMallocFromPoolAsync, musaMallocFromPoolAsync)(ptr: *mut *mut c_void, size: usize,
                    memPool: *mut c_void, stream: *mut c_void) => malloc_from_pool_async(ptr, size, memPool, stream);
                (cudaMemPoolCreate, musaMemPoolCreate)(memPool: *mut *mut c_void, poolProps: *const rt::MemPoolProps)
                    => mem_pool_create(memPool, poolProps);
                (cudaMemPoolDestroy, musaMemPoolDestroy)(memPool: *mut c_void) => mem_pool_destroy(memPool);
                (cudaDeviceGetDefaultMemPool, musaDeviceGetDefaultMemPool)(memPool: *mut *mut c_void, device: c_int)
                    => device_get_default_mem_pool(memPool, device);
                (cudaDeviceSetMemPool, musaDeviceSetMemPool)(device: c_int, memPool: *mut c_void)
                    => device_set_mem_pool(device, memPool);
                (cudaDeviceGetMemPool, musaDeviceGetMemPool)(memPool: *mut *mut c_void, device: c_int)
                    => device_get_mem_pool(memPool, device);
                (cudaMemPoolSetAttribute, musaMemPoolSetAttribute)(memPool: *mut c_void, attr: c_int,
                    value: *mut c_void) => mem_pool_set_attribute(memPool, attr, value);
                (cudaMemPoolGetAttribute, musaMemPoolGetAttribute)(memPool: *mut c_void, attr: c_int,
                    value: *mut c_void) => mem_pool_get_attribute(memPool, attr, value);
                (cudaMemPoolTrimTo, musaMemPoolTrimTo)(memPool: *mut c_void, minBytesToKeep: usize)
                    => mem_pool_trim_to(memPool, minBytesToKeep);
                // Managed memory (cuda_managed.rs): the CUDA 12 forms, and the _v2 forms CUDA 13 names without
                // the suffix.
                (cudaMallocManaged, musaMallocManaged)(devPtr: *mut *mut c_void, size: usize, flags: c_uint)
                    => malloc_managed(devPtr, size, flags);
                (cudaMemPrefetchAsync, musaMemPrefetchAsync)(devPtr: *const c_void, count: usize,
                    dstDevice: c_int, stream: *mut c_void) => mem_prefetch_async(devPtr, count, dstDevice, stream);
                (cudaMemPrefetchAsync_v2, musaMemPrefetchAsync_v2)(devPtr: *const c_void, count: usize,
                    location: rt::MemLocation, flags: c_uint, stream: *mut c_void)
                    => mem_prefetch_async_v2(devPtr, count, location, flags, stream);
                (cudaMemAdvise, musaMemAdvise)(devPtr: *const c_void, count: usize, advice: c_int, device: c_int)
                    => mem_advise(devPtr, count, advice, device);
                (cudaMemAdvise_v2, musaMemAdvise_v2)(devPtr: *const c_void, count: usize, advice: c_int,
                    location: rt::MemLocation) => mem_advise_v2(devPtr, count, advice, location);
                (cudaStreamAttachMemAsync, musaStreamAttachMemAsync)(stream: *mut c_void, devPtr: *mut c_void,
                    length: usize, flags: c_uint) => stream_attach_mem_async(stream, devPtr, length, flags);
                (cudaMemRangeGetAttribute, musaMemRangeGetAttribute)(data: *mut c_void, dataSize: usize,
                    attribute: c_int, devPtr: *const c_void, count: usize)
                    => mem_range_get_attribute(data, dataSize, attribute, devPtr, count);
                (cudaMemRangeGetAttributes, musaMemRangeGetAttributes)(data: *mut *mut c_void,
                    dataSizes: *mut usize, attributes: *mut c_int, numAttributes: usize, devPtr: *const c_void,
                    count: usize) => mem_range_get_attributes(data, dataSizes, attributes, numAttributes, devPtr,
                    count);
                (cudaMemPoolSetAccess, musaMemPoolSetAccess)(memPool: *mut c_void, descList: *const rt::MemAccessDesc,
                    count: usize) => mem_pool_set_access(memPool, descList, count);
                (cudaMemPoolGetAccess, musaMemPoolGetAccess)(flags: *mut c_uint, memPool: *mut c_void,
                    location: *mut rt::MemLocation) => mem_pool_get_access(flags, memPool, location);
                (cudaMemPoolExportToShareableHandle, musaMemPoolExportToShareableHandle)(shareableHandle: *mut c_void,
                    memPool: *mut c_void, handleType: c_uint, flags: c_uint)
                    => mem_pool_export_to_shareable_handle(shareableHandle, memPool, handleType, flags);
                (cudaMemPoolImportFromShareableHandle, musaMemPoolImportFromShareableHandle)(
                    memPool: *mut *mut c_void, shareableHandle: *mut c_void, handleType: c_uint, flags: c_uint)
                    => mem_pool_import_from_shareable_handle(memPool, shareableHandle, handleType, flags);
                (cudaMemPoolExportPointer, musaMemPoolExportPointer)(exportData: *mut rt::MemPoolPtrExportData,
                    ptr: *mut c_void) => mem_pool_export_pointer(exportData, ptr);
                (cudaMemPoolImportPointer, musaMemPoolImportPointer)(ptr: *mut *mut c_void, memPool: *mut c_void,
                    exportData: *mut rt::MemPoolPtrExportData) => mem_pool_import_pointer(ptr, memPool, exportData);
                (cudaMallocPitch, musaMallocPitch)(devPtr: *mut *mut c_void, pitch: *mut usize, width: usize,
                    height: usize) => malloc_pitch(devPtr, pitch, width, height);
                (cudaMalloc3D, musaMalloc3D)(pitchedDevPtr: *mut rt::PitchedPtr, extent: rt::Extent)
                    => malloc_3d(pitchedDevPtr, extent);
                (cudaMemcpy2D, musaMemcpy2D)(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize,
                    width: usize, height: usize, kind: c_uint)
                    => memcpy_2d("Memcpy2D", dst, dpitch, src, spitch, width, height, kind, None);
                (cudaMemcpy2DAsync, musaMemcpy2DAsync)(dst: *mut c_void, dpitch: usize, src: *const c_void,
                    spitch: usize, width: usize, height: usize, kind: c_uint, stream: *mut c_void)
                    => memcpy_2d("Memcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, Some(stream));
                (cudaMemcpy3D, musaMemcpy3D)(p: *const rt::Memcpy3DParms) => memcpy_3d("Memcpy3D", p, None);
                (cudaMemcpy3DAsync, musaMemcpy3DAsync)(p: *const rt::Memcpy3DParms, stream: *mut c_void)
                    => memcpy_3d("Memcpy3DAsync", p, Some(stream));
                (cudaMemcpy3DPeer, musaMemcpy3DPeer)(p: *const rt::Memcpy3DPeerParms)
                    => memcpy_3d_peer("Memcpy3DPeer", p, None);
                (cudaMemcpy3DPeerAsync, musaMemcpy3DPeerAsync)(p: *const rt::Memcpy3DPeerParms,
                    stream: *mut c_void) => memcpy_3d_peer("Memcpy3DPeerAsync", p, Some(stream));
                (cudaMemset2D, musaMemset2D)(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize,
                    height: usize) => memset_2d(devPtr, pitch, value, width, height, None);
                (cudaMemset2DAsync, musaMemset2DAsync)(devPtr: *mut c_void, pitch: usize, value: c_int,
                    width: usize, height: usize, stream: *mut c_void)
                    => memset_2d(devPtr, pitch, value, width, height, Some(stream));
                (cudaMemset3D, musaMemset3D)(pitchedDevPtr: rt::PitchedPtr, value: c_int, extent: rt::Extent)
                    => memset_3d(pitchedDevPtr, value, extent, None);
                (cudaMemset3DAsync, musaMemset3DAsync)(pitchedDevPtr: rt::PitchedPtr, value: c_int,
                    extent: rt::Extent, stream: *mut c_void) => memset_3d(pitchedDevPtr, value, extent, Some(stream));
                // Graph memory nodes (`cuda_graph_mem.rs`).
                (cudaGraphAddMemAllocNode, musaGraphAddMemAllocNode)(pGraphNode: *mut *mut c_void,
                    graph: *mut c_void, pDependencies: *const *mut c_void, numDependencies: usize,
                    nodeParams: *mut rt::MemAllocNodeParams)
                    => graph_add_mem_alloc_node(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
                (cudaGraphAddMemFreeNode, musaGraphAddMemFreeNode)(pGraphNode: *mut *mut c_void,
                    graph: *mut c_void, pDependencies: *const *mut c_void, numDependencies: usize, dptr: *mut c_void)
                    => graph_add_mem_free_node(pGraphNode, graph, pDependencies, numDependencies, dptr);
                (cudaGraphMemAllocNodeGetParams, musaGraphMemAllocNodeGetParams)(node: *mut c_void,
                    params_out: *mut rt::MemAllocNodeParams) => graph_mem_alloc_node_get_params(node, params_out);
                (cudaGraphMemFreeNodeGetParams, musaGraphMemFreeNodeGetParams)(node: *mut c_void,
                    dptr_out: *mut c_void) => graph_mem_free_node_get_params(node, dptr_out);
                (cudaDeviceGraphMemTrim, musaDeviceGraphMemTrim)(device: c_int) => device_graph_mem_trim(device);
                (cudaDeviceGetGraphMemAttribute, musaDeviceGetGraphMemAttribute)(device: c_int, attr: c_int,
                    value: *mut c_void) => device_get_graph_mem_attribute(device, attr, value);
                (cudaDeviceSetGraphMemAttribute, musaDeviceSetGraphMemAttribute)(device: c_int, attr: c_int,
                    value: *mut c_void) => device_set_graph_mem_attribute(device, attr, value);
            }
            strings {
                (cudaGetErrorName, musaGetErrorName) => get_error_name;
                (cudaGetErrorString, musaGetErrorString) => get_error_string;
            }
        }

        /// The simulated kernel's declared access (`streamsimAccess`).
        pub use $crate::facade::cuda_runtime::streamsimAccess;
        /// The context and body of a Ctx kernel (`streamsimKernelCtx`, `streamsimKernelCtxBody`; the accessors
        /// are in [`crate::capi`]).
        pub use $crate::facade::kernel_ctx::{streamsimKernelCtx, streamsimKernelCtxBody};
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
        $crate::facade::cuda_family::pick!(@types $which; $(($tc, $tm) = $tty, $tdoc;)*);
        $crate::facade::cuda_family::pick!(@consts $which; $(($cc, $cm): $cty = $cval;)*);
        $crate::facade::cuda_family::pick!(@handles $which; $(($hc, $hm) = $hval;)*);
        $crate::facade::cuda_family::pick!(@fns $which; $(($fc, $fm)($($a: $t),*) => $imp($($x),*);)*);
        $crate::facade::cuda_family::pick!(@strings $which; $(($sc, $sm) => $simp;)*);
        $crate::facade::cuda_family::pick!(@codes $which);
    };
    (@codes cuda) => { $crate::facade::cuda_runtime::with_error_codes!($crate::facade::cuda_family::emit_codes_cuda); };
    (@codes musa) => { $crate::facade::cuda_runtime::with_error_codes!($crate::facade::cuda_family::emit_codes_musa); };
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
        $crate::facade::cuda_family::pick!(@emit Api::Cuda; $($c($($a: $t),*) => $imp($($x),*);)*);
    };
    (@fns musa; $(($c:ident, $m:ident)($($a:ident: $t:ty),*) => $imp:ident($($x:expr),*);)*) => {
        $crate::facade::cuda_family::pick!(@emit Api::Musa; $($m($($a: $t),*) => $imp($($x),*);)*);
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
        $crate::facade::cuda_family::pick!(@str Api::Cuda; $($c => $imp;)*);
    };
    (@strings musa; $(($c:ident, $m:ident) => $imp:ident;)*) => {
        $crate::facade::cuda_family::pick!(@str Api::Musa; $($m => $imp;)*);
    };
    (@str $api:expr; $($f:ident => $imp:ident;)*) => {
        $(
            #[doc = concat!("`", stringify!($f), "`: a static NUL-terminated string.")]
            #[unsafe(no_mangle)]
            pub extern "C" fn $f(error: rt::Error) -> *const c_char {
                $crate::facade::cuda_family::pick!(@strcall $imp, $api, error)
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
