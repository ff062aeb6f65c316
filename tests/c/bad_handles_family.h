/*
 * bad_handles_family.h — the CUDA-family part of bad_handles.c, included once with cuda names and once with
 * musa names: FAM(X) is cudaX / musaX, SIM(X) is cudasimX / musasimX.
 */

/* Every stream- and event-taking function with NULL, destroyed, garbage and wrong-kind handles, and NULL
 * out-pointers: 400 InvalidResourceHandle for a handle that names nothing, 1 InvalidValue for a NULL
 * out-pointer. */
static void FAM(_bad_handles)(void) {
    FAM(Stream_t) live_s, dead_s;
    FAM(Event_t) live_e, dead_e;
    EXPECT(FAM(StreamCreate)(&live_s), FAM(Success));
    EXPECT(FAM(StreamCreate)(&dead_s), FAM(Success));
    EXPECT(FAM(StreamDestroy)(dead_s), FAM(Success));
    EXPECT(FAM(EventCreate)(&live_e), FAM(Success));
    EXPECT(FAM(EventCreate)(&dead_e), FAM(Success));
    EXPECT(FAM(EventDestroy)(dead_e), FAM(Success));

    int host_variable = 0;
    FAM(Stream_t) bad_s[] = {
        dead_s,
        (FAM(Stream_t))(uintptr_t)0xdeadbeef,
        (FAM(Stream_t))(uintptr_t)0xA123456789ABCDEFull, /* a stream handle's tag with garbage fields */
        (FAM(Stream_t))(uintptr_t)UINTPTR_MAX,
        (FAM(Stream_t))(void *)&host_variable, /* a real address: handles are never dereferenced */
        (FAM(Stream_t))(void *)live_e,          /* an event handle */
    };
    FAM(Event_t) bad_e[] = {
        NULL,
        dead_e,
        (FAM(Event_t))(uintptr_t)0xdeadbeef,
        (FAM(Event_t))(uintptr_t)0xE123456789ABCDEFull, /* an event handle's tag with garbage fields */
        (FAM(Event_t))(uintptr_t)UINTPTR_MAX,
        (FAM(Event_t))(void *)&host_variable,
        (FAM(Event_t))(void *)live_s, /* a stream handle */
    };
    const FAM(Error_t) bad = FAM(ErrorInvalidResourceHandle);

    for (size_t i = 0; i < sizeof bad_s / sizeof bad_s[0]; i++) {
        FAM(Stream_t) s = bad_s[i];
        unsigned int flags;
        int priority;
        void *d = NULL;
        char host[8] = {0};
        EXPECT(FAM(Malloc)(&d, 8), FAM(Success));
        EXPECT(FAM(StreamDestroy)(s), bad);
        EXPECT(FAM(StreamSynchronize)(s), bad);
        EXPECT(FAM(StreamQuery)(s), bad);
        EXPECT(FAM(StreamWaitEvent)(s, live_e, 0), bad);
        EXPECT(FAM(StreamGetFlags)(s, &flags), bad);
        EXPECT(FAM(StreamGetPriority)(s, &priority), bad);
        unsigned long long stream_id = 7;
        int stream_device = 7;
        EXPECT(FAM(StreamGetId)(s, &stream_id), bad);
        EXPECT(FAM(StreamGetDevice)(s, &stream_device), bad);
        CHECK_EQ(stream_id + (unsigned long long)stream_device, 14);
        EXPECT(FAM(LaunchHostFunc)(s, noop_host_fn, NULL), bad);
        EXPECT(FAM(StreamAddCallback)(s, FAM(noop_callback), NULL, 0), bad);
        EXPECT(FAM(EventRecord)(live_e, s), bad);
        EXPECT(FAM(EventRecordWithFlags)(live_e, s, 0), bad);
        EXPECT(FAM(MemcpyAsync)(d, host, 8, FAM(MemcpyHostToDevice), s), bad);
        EXPECT(FAM(MemcpyPeerAsync)(d, 0, d, 0, 8, s), bad);
        EXPECT(FAM(MemsetAsync)(d, 0, 8, s), bad);
        EXPECT(SIM(LaunchKernel)(s, "k", 1000, NULL, NULL), bad);
        EXPECT(SIM(LaunchKernelEx)(s, "k", 1000, NULL, NULL, NULL, 0), bad);
        EXPECT(SIM(LaunchFallibleKernel)(s, "k", 1000, NULL, NULL), bad);
        EXPECT(FAM(GetLastError)(), bad);
        EXPECT(FAM(Free)(d), FAM(Success));
    }
    for (size_t i = 0; i < sizeof bad_e / sizeof bad_e[0]; i++) {
        FAM(Event_t) e = bad_e[i];
        float ms;
        FAM(IpcEventHandle_t) h;
        EXPECT(FAM(EventDestroy)(e), bad);
        EXPECT(FAM(EventRecord)(e, live_s), bad);
        EXPECT(FAM(EventRecordWithFlags)(e, NULL, 0), bad);
        EXPECT(FAM(EventQuery)(e), bad);
        EXPECT(FAM(EventSynchronize)(e), bad);
        EXPECT(FAM(StreamWaitEvent)(live_s, e, 0), bad);
        EXPECT(FAM(EventElapsedTime)(&ms, e, live_e), bad);
        EXPECT(FAM(EventElapsedTime)(&ms, live_e, e), bad);
        EXPECT(FAM(IpcGetEventHandle)(&h, e), bad);
    }
    /* The special stream handles are streams, but not destroyable ones. */
    EXPECT(FAM(StreamDestroy)(NULL), bad);
    EXPECT(FAM(StreamDestroy)(FAM(StreamLegacy)), bad);
    EXPECT(FAM(StreamDestroy)(FAM(StreamPerThread)), bad);
    EXPECT(FAM(StreamQuery)(FAM(StreamPerThread)), FAM(Success));

    /* NULL out-pointers. */
    FAM(IpcEventHandle_t) zero;
    memset(&zero, 0, sizeof zero);
    EXPECT(FAM(GetDeviceCount)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(GetDevice)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(DeviceCanAccessPeer)(NULL, 0, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(DeviceGetAttribute)(NULL, FAM(DevAttrWarpSize), 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamCreate)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamCreateWithFlags)(NULL, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamCreateWithPriority)(NULL, 0, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamGetFlags)(live_s, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamGetPriority)(live_s, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(EventCreate)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(EventCreateWithFlags)(NULL, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(EventElapsedTime)(NULL, live_e, live_e), FAM(ErrorInvalidValue));
    EXPECT(FAM(IpcGetEventHandle)(NULL, live_e), FAM(ErrorInvalidValue));
    EXPECT(FAM(IpcOpenEventHandle)(NULL, zero), FAM(ErrorInvalidValue));
    EXPECT(FAM(Malloc)(NULL, 8), FAM(ErrorInvalidValue));
    EXPECT(FAM(MallocHost)(NULL, 8), FAM(ErrorInvalidValue));
    EXPECT(FAM(LaunchHostFunc)(live_s, NULL, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamAddCallback)(live_s, NULL, NULL, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamGetId)(live_s, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(StreamGetDevice)(live_s, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(GetDeviceProperties)(NULL, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(MemGetInfo)(NULL, NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(DriverGetVersion)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(RuntimeGetVersion)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(DeviceGetPCIBusId)(NULL, 16, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(DeviceGetByPCIBusId)(NULL, "0000:01:00.0"), FAM(ErrorInvalidValue));
    EXPECT(FAM(DeviceGetLimit)(NULL, FAM(LimitStackSize)), FAM(ErrorInvalidValue));
    EXPECT(FAM(GetDeviceFlags)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(HostAlloc)(NULL, 8, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(HostGetDevicePointer)(NULL, NULL, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(HostRegister)(NULL, 8, 0), FAM(ErrorInvalidValue));
    EXPECT(FAM(HostUnregister)(NULL), FAM(ErrorInvalidValue));
    EXPECT(FAM(PointerGetAttributes)(NULL, &host_variable), FAM(ErrorInvalidValue));
    /* Garbage IPC handles. */
    FAM(Event_t) opened;
    EXPECT(FAM(IpcOpenEventHandle)(&opened, zero), FAM(ErrorInvalidValue));
    memset(&zero, 0xA5, sizeof zero);
    EXPECT(FAM(IpcOpenEventHandle)(&opened, zero), FAM(ErrorInvalidValue));

    /* The live handles still work after all that. */
    EXPECT(FAM(EventRecord)(live_e, live_s), FAM(Success));
    EXPECT(FAM(EventSynchronize)(live_e), FAM(Success));
    EXPECT(FAM(StreamSynchronize)(live_s), FAM(Success));
    EXPECT(FAM(EventDestroy)(live_e), FAM(Success));
    EXPECT(FAM(StreamDestroy)(live_s), FAM(Success));
    EXPECT(FAM(GetLastError)(), FAM(ErrorInvalidValue));
    EXPECT(FAM(GetLastError)(), FAM(Success));
}
