/*
 * vector_types.h — CUDA's built-in vector types for host code: dim3 (grid and block dimensions, accepted for
 * source compatibility: the simulator does not model threads), uint3, and the int / uint / float / double
 * vectors of 2 to 4 components with the alignment of NVIDIA's header (included by cuda_runtime_api.h).
 */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

/* Under a CUDA compiler (streamsim cc) dim3's members are callable from device code too. */
#if defined(__CUDACC__) && defined(__cplusplus)
#define STREAMSIM_VECTOR_HD __host__ __device__
#else
#define STREAMSIM_VECTOR_HD
#endif

#if defined(__cplusplus)
#define STREAMSIM_VECTOR_ALIGN(n) alignas(n)
#else
#define STREAMSIM_VECTOR_ALIGN(n) _Alignas(n)
#endif

#define STREAMSIM_VECTOR_TYPES(T, name, a2, a4)                                                                \
    typedef struct name##1 { T x; } name##1;                                                                  \
    typedef struct name##2 { STREAMSIM_VECTOR_ALIGN(a2) T x; T y; } name##2;                                  \
    typedef struct name##3 { T x, y, z; } name##3;                                                            \
    typedef struct name##4 { STREAMSIM_VECTOR_ALIGN(a4) T x; T y, z, w; } name##4;
STREAMSIM_VECTOR_TYPES(int, int, 8, 16)
STREAMSIM_VECTOR_TYPES(unsigned int, uint, 8, 16)
STREAMSIM_VECTOR_TYPES(float, float, 8, 16)
#undef STREAMSIM_VECTOR_TYPES

typedef struct double1 { double x; } double1;
typedef struct double2 { STREAMSIM_VECTOR_ALIGN(16) double x; double y; } double2;
typedef struct double3 { double x, y, z; } double3;

/* Grid and block dimensions: accepted for source compatibility; the simulator does not model threads. */
#ifndef STREAMSIM_DIM3
#define STREAMSIM_DIM3
typedef struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    STREAMSIM_VECTOR_HD dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    STREAMSIM_VECTOR_HD dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    STREAMSIM_VECTOR_HD operator uint3() const { return uint3{x, y, z}; }
#endif
} dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
