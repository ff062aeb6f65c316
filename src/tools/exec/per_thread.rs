//! The entry points of per-thread default stream builds (`nvcc --default-stream per-thread`, or
//! `CUDA_API_PER_THREAD_DEFAULT_STREAM`): NVIDIA's headers then call `X_ptsz` for each call that takes a stream
//! and `X_ptds` for each synchronous copy and memset (`__CUDART_API_PTSZ` / `__CUDART_API_PTDS` in
//! `cuda_runtime_api.h`), and in those calls the NULL stream is the calling thread's per-thread default stream
//! (`cudaStreamPerThread`), which streamsim simulates. The drop-in `libcudart.so.*` defines them as small C
//! functions calling its own exports: an `_ptsz` call is its base call with a NULL stream replaced by
//! `cudaStreamPerThread`; an `_ptds` call is the asynchronous form of its base call on `cudaStreamPerThread`,
//! then `cudaStreamSynchronize(cudaStreamPerThread)` (the synchronous call on that stream: it returns when the
//! work is done, with the first error).
//!
//! The calls streamsim does not simulate (the array copies, the batch copies, the stream attributes, the
//! external semaphores, …) have no entry point: a program calling one stops at that call with the loader's
//! "undefined symbol" naming it.

/// One entry point: (name, C parameter list, C body). The bodies use `PT(s)` (the stream `s`, or
/// `cudaStreamPerThread` for NULL), `PT_STREAM` and `SYNC(call)` (the call, then the synchronize).
pub(crate) type Entry = (&'static str, &'static str, &'static str);

/// The C declarations the entry points use: the drop-in's own exports, with the C library's parameter types,
/// the by-value structs as the C library lays them out, and the helpers.
pub(crate) const PRELUDE: &str = r#"
typedef struct { unsigned x, y, z; } ss_dim3;
typedef struct { unsigned type; int id; } ss_location;
typedef struct { void *ptr; size_t pitch, xsize, ysize; } ss_pitched_ptr;
typedef struct { size_t width, height, depth; } ss_extent;
#define PT_STREAM ((void *)0x2)
#define PT(s) ((s) ? (s) : PT_STREAM)
#define SYNC(call) do { int e_ = (call); return e_ ? e_ : cudaStreamSynchronize(PT_STREAM); } while (0)
int cudaMemcpyAsync(void *, const void *, size_t, int, void *);
int cudaMemsetAsync(void *, int, size_t, void *);
int cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, int, void *);
int cudaMemset2DAsync(void *, size_t, int, size_t, size_t, void *);
int cudaMemcpy3DAsync(const void *, void *);
int cudaMemcpy3DPeerAsync(const void *, void *);
int cudaMemset3DAsync(ss_pitched_ptr, int, ss_extent, void *);
int cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, int, void *);
int cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t, int, void *);
int cudaStreamQuery(void *);
int cudaStreamSynchronize(void *);
int cudaStreamGetFlags(void *, unsigned *);
int cudaStreamGetPriority(void *, int *);
int cudaStreamGetId(void *, unsigned long long *);
int cudaStreamGetDevice(void *, int *);
int cudaEventRecord(void *, void *);
int cudaEventRecordWithFlags(void *, void *, unsigned);
int cudaStreamWaitEvent(void *, void *, unsigned);
int cudaStreamAddCallback(void *, void *, void *, unsigned);
int cudaLaunchHostFunc(void *, void *, void *);
int cudaStreamAttachMemAsync(void *, void *, size_t, unsigned);
int cudaStreamBeginCapture(void *, int);
int cudaStreamBeginCaptureToGraph(void *, void *, void *const *, const void *, size_t, int);
int cudaStreamEndCapture(void *, void **);
int cudaStreamIsCapturing(void *, int *);
int cudaGraphLaunch(void *, void *);
int cudaGraphUpload(void *, void *);
typedef struct { unsigned long long flags; void *uploadStream; void *errNode_out; unsigned result_out; } ss_inst_params;
int cudaGraphInstantiateWithParams(void **, void *, ss_inst_params *);
int cudaMallocAsync(void **, size_t, void *);
int cudaFreeAsync(void *, void *);
int cudaMallocFromPoolAsync(void **, size_t, void *, void *);
int cudaLaunchKernel(const void *, ss_dim3, ss_dim3, void **, size_t, void *);
int cudaLaunchCooperativeKernel(const void *, ss_dim3, ss_dim3, void **, size_t, void *);
"#;

/// The entry points of both majors (the same signatures in CUDA 12 and 13).
pub(crate) const COMMON: &[Entry] = &[
    (
        "cudaMemcpyAsync_ptsz",
        "void *d, const void *s, size_t n, int k, void *st",
        "return cudaMemcpyAsync(d, s, n, k, PT(st));",
    ),
    (
        "cudaMemsetAsync_ptsz",
        "void *p, int v, size_t n, void *st",
        "return cudaMemsetAsync(p, v, n, PT(st));",
    ),
    (
        "cudaMemcpy2DAsync_ptsz",
        "void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int k, void *st",
        "return cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, PT(st));",
    ),
    (
        "cudaMemset2DAsync_ptsz",
        "void *p, size_t pitch, int v, size_t w, size_t h, void *st",
        "return cudaMemset2DAsync(p, pitch, v, w, h, PT(st));",
    ),
    (
        "cudaMemcpy3DAsync_ptsz",
        "const void *p, void *st",
        "return cudaMemcpy3DAsync(p, PT(st));",
    ),
    (
        "cudaMemcpy3DPeerAsync_ptsz",
        "const void *p, void *st",
        "return cudaMemcpy3DPeerAsync(p, PT(st));",
    ),
    (
        "cudaMemset3DAsync_ptsz",
        "ss_pitched_ptr p, int v, ss_extent e, void *st",
        "return cudaMemset3DAsync(p, v, e, PT(st));",
    ),
    (
        "cudaMemcpyToSymbolAsync_ptsz",
        "const void *sym, const void *s, size_t n, size_t off, int k, void *st",
        "return cudaMemcpyToSymbolAsync(sym, s, n, off, k, PT(st));",
    ),
    (
        "cudaMemcpyFromSymbolAsync_ptsz",
        "void *d, const void *sym, size_t n, size_t off, int k, void *st",
        "return cudaMemcpyFromSymbolAsync(d, sym, n, off, k, PT(st));",
    ),
    (
        "cudaStreamQuery_ptsz",
        "void *st",
        "return cudaStreamQuery(PT(st));",
    ),
    (
        "cudaStreamSynchronize_ptsz",
        "void *st",
        "return cudaStreamSynchronize(PT(st));",
    ),
    (
        "cudaStreamGetFlags_ptsz",
        "void *st, unsigned *f",
        "return cudaStreamGetFlags(PT(st), f);",
    ),
    (
        "cudaStreamGetPriority_ptsz",
        "void *st, int *p",
        "return cudaStreamGetPriority(PT(st), p);",
    ),
    (
        "cudaStreamGetId_ptsz",
        "void *st, unsigned long long *id",
        "return cudaStreamGetId(PT(st), id);",
    ),
    (
        "cudaStreamGetDevice_ptsz",
        "void *st, int *d",
        "return cudaStreamGetDevice(PT(st), d);",
    ),
    (
        "cudaEventRecord_ptsz",
        "void *ev, void *st",
        "return cudaEventRecord(ev, PT(st));",
    ),
    (
        "cudaEventRecordWithFlags_ptsz",
        "void *ev, void *st, unsigned f",
        "return cudaEventRecordWithFlags(ev, PT(st), f);",
    ),
    (
        "cudaStreamWaitEvent_ptsz",
        "void *st, void *ev, unsigned f",
        "return cudaStreamWaitEvent(PT(st), ev, f);",
    ),
    (
        "cudaStreamAddCallback_ptsz",
        "void *st, void *cb, void *ud, unsigned f",
        "return cudaStreamAddCallback(PT(st), cb, ud, f);",
    ),
    (
        "cudaLaunchHostFunc_ptsz",
        "void *st, void *fn, void *ud",
        "return cudaLaunchHostFunc(PT(st), fn, ud);",
    ),
    (
        "cudaStreamAttachMemAsync_ptsz",
        "void *st, void *p, size_t n, unsigned f",
        "return cudaStreamAttachMemAsync(PT(st), p, n, f);",
    ),
    (
        "cudaStreamBeginCapture_ptsz",
        "void *st, int mode",
        "return cudaStreamBeginCapture(PT(st), mode);",
    ),
    (
        "cudaStreamBeginCaptureToGraph_ptsz",
        "void *st, void *g, void *const *d, const void *dd, size_t n, int mode",
        "return cudaStreamBeginCaptureToGraph(PT(st), g, d, dd, n, mode);",
    ),
    (
        "cudaStreamEndCapture_ptsz",
        "void *st, void **g",
        "return cudaStreamEndCapture(PT(st), g);",
    ),
    (
        "cudaStreamIsCapturing_ptsz",
        "void *st, int *s",
        "return cudaStreamIsCapturing(PT(st), s);",
    ),
    (
        "cudaGraphLaunch_ptsz",
        "void *g, void *st",
        "return cudaGraphLaunch(g, PT(st));",
    ),
    (
        "cudaGraphUpload_ptsz",
        "void *g, void *st",
        "return cudaGraphUpload(g, PT(st));",
    ),
    (
        "cudaGraphInstantiateWithParams_ptsz",
        "void **x, void *g, ss_inst_params *p",
        "if (!p) return cudaGraphInstantiateWithParams(x, g, p); \
         ss_inst_params q = *p; q.uploadStream = PT(q.uploadStream); \
         int e = cudaGraphInstantiateWithParams(x, g, &q); \
         p->errNode_out = q.errNode_out; p->result_out = q.result_out; return e;",
    ),
    (
        "cudaMallocAsync_ptsz",
        "void **p, size_t n, void *st",
        "return cudaMallocAsync(p, n, PT(st));",
    ),
    (
        "cudaFreeAsync_ptsz",
        "void *p, void *st",
        "return cudaFreeAsync(p, PT(st));",
    ),
    (
        "cudaMallocFromPoolAsync_ptsz",
        "void **p, size_t n, void *pool, void *st",
        "return cudaMallocFromPoolAsync(p, n, pool, PT(st));",
    ),
    (
        "cudaLaunchKernel_ptsz",
        "const void *f, ss_dim3 g, ss_dim3 b, void **a, size_t sh, void *st",
        "return cudaLaunchKernel(f, g, b, a, sh, PT(st));",
    ),
    (
        "cudaLaunchCooperativeKernel_ptsz",
        "const void *f, ss_dim3 g, ss_dim3 b, void **a, size_t sh, void *st",
        "return cudaLaunchCooperativeKernel(f, g, b, a, sh, PT(st));",
    ),
    // The synchronous calls on the per-thread default stream.
    (
        "cudaMemcpy_ptds",
        "void *d, const void *s, size_t n, int k",
        "SYNC(cudaMemcpyAsync(d, s, n, k, PT_STREAM));",
    ),
    (
        "cudaMemset_ptds",
        "void *p, int v, size_t n",
        "SYNC(cudaMemsetAsync(p, v, n, PT_STREAM));",
    ),
    (
        "cudaMemcpy2D_ptds",
        "void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int k",
        "SYNC(cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, PT_STREAM));",
    ),
    (
        "cudaMemset2D_ptds",
        "void *p, size_t pitch, int v, size_t w, size_t h",
        "SYNC(cudaMemset2DAsync(p, pitch, v, w, h, PT_STREAM));",
    ),
    (
        "cudaMemcpy3D_ptds",
        "const void *p",
        "SYNC(cudaMemcpy3DAsync(p, PT_STREAM));",
    ),
    (
        "cudaMemcpy3DPeer_ptds",
        "const void *p",
        "SYNC(cudaMemcpy3DPeerAsync(p, PT_STREAM));",
    ),
    (
        "cudaMemset3D_ptds",
        "ss_pitched_ptr p, int v, ss_extent e",
        "SYNC(cudaMemset3DAsync(p, v, e, PT_STREAM));",
    ),
    (
        "cudaMemcpyToSymbol_ptds",
        "const void *sym, const void *s, size_t n, size_t off, int k",
        "SYNC(cudaMemcpyToSymbolAsync(sym, s, n, off, k, PT_STREAM));",
    ),
    (
        "cudaMemcpyFromSymbol_ptds",
        "void *d, const void *sym, size_t n, size_t off, int k",
        "SYNC(cudaMemcpyFromSymbolAsync(d, sym, n, off, k, PT_STREAM));",
    ),
];

/// CUDA 13's: the plain names of the edge-data and location forms.
pub(crate) const CUDA13: &[Entry] = &[
    (
        "cudaStreamGetCaptureInfo_ptsz",
        "void *st, unsigned *cs, unsigned long long *id, void **g, const void ***deps, const void **edges, \
         size_t *n",
        "int cudaStreamGetCaptureInfo(void *, unsigned *, unsigned long long *, void **, const void ***, \
         const void **, size_t *);\n    return cudaStreamGetCaptureInfo(PT(st), cs, id, g, deps, edges, n);",
    ),
    (
        "cudaStreamUpdateCaptureDependencies_ptsz",
        "void *st, void **deps, const void *edges, size_t n, unsigned f",
        "int cudaStreamUpdateCaptureDependencies(void *, void **, const void *, size_t, unsigned);\n    \
         return cudaStreamUpdateCaptureDependencies(PT(st), deps, edges, n, f);",
    ),
    (
        "cudaMemPrefetchAsync_ptsz",
        "const void *p, size_t n, ss_location loc, unsigned f, void *st",
        "int cudaMemPrefetchAsync(const void *, size_t, ss_location, unsigned, void *);\n    \
         return cudaMemPrefetchAsync(p, n, loc, f, PT(st));",
    ),
];

/// CUDA 12's: the `_v2` / `_v3` names its headers select, and the device-ordinal prefetch.
pub(crate) const CUDA12: &[Entry] = &[
    (
        "cudaStreamGetCaptureInfo_v2_ptsz",
        "void *st, unsigned *cs, unsigned long long *id, void **g, const void ***deps, size_t *n",
        "int cudaStreamGetCaptureInfo_v2(void *, unsigned *, unsigned long long *, void **, const void ***, \
         size_t *);\n    return cudaStreamGetCaptureInfo_v2(PT(st), cs, id, g, deps, n);",
    ),
    (
        "cudaStreamGetCaptureInfo_v3_ptsz",
        "void *st, unsigned *cs, unsigned long long *id, void **g, const void ***deps, const void **edges, \
         size_t *n",
        "int cudaStreamGetCaptureInfo_v3(void *, unsigned *, unsigned long long *, void **, const void ***, \
         const void **, size_t *);\n    return cudaStreamGetCaptureInfo_v3(PT(st), cs, id, g, deps, edges, n);",
    ),
    (
        "cudaStreamUpdateCaptureDependencies_ptsz",
        "void *st, void **deps, size_t n, unsigned f",
        "int cudaStreamUpdateCaptureDependencies(void *, void **, size_t, unsigned);\n    \
         return cudaStreamUpdateCaptureDependencies(PT(st), deps, n, f);",
    ),
    (
        "cudaStreamUpdateCaptureDependencies_v2_ptsz",
        "void *st, void **deps, const void *edges, size_t n, unsigned f",
        "int cudaStreamUpdateCaptureDependencies_v2(void *, void **, const void *, size_t, unsigned);\n    \
         return cudaStreamUpdateCaptureDependencies_v2(PT(st), deps, edges, n, f);",
    ),
    (
        "cudaMemPrefetchAsync_ptsz",
        "const void *p, size_t n, int dev, void *st",
        "int cudaMemPrefetchAsync(const void *, size_t, int, void *);\n    \
         return cudaMemPrefetchAsync(p, n, dev, PT(st));",
    ),
    (
        "cudaMemPrefetchAsync_v2_ptsz",
        "const void *p, size_t n, ss_location loc, unsigned f, void *st",
        "int cudaMemPrefetchAsync_v2(const void *, size_t, ss_location, unsigned, void *);\n    \
         return cudaMemPrefetchAsync_v2(p, n, loc, f, PT(st));",
    ),
];
