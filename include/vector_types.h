/*
 * vector_types.h — CUDA's built-in vector types for host code, as NVIDIA's header declares them (CUDA 12):
 * dim3 (grid and block dimensions, accepted for source compatibility: the simulator does not model threads) and
 * the vectors of 1 to 4 components of char, uchar, short, ushort, int, uint, long, ulong, longlong, ulonglong,
 * float and double, with NVIDIA's alignment (2-component vectors of 2 or 4 times the component's size, 4-component
 * ones of 4 times it and at most 16 bytes, 1- and 3-component ones of the component's). Included by
 * cuda_runtime_api.h; the make_* functions are in vector_functions.h (included by cuda_runtime.h).
 */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#if defined(__cplusplus)
#define STREAMSIM_VECTOR_ALIGN(n) alignas(n)
#else
#define STREAMSIM_VECTOR_ALIGN(n) _Alignas(n)
#endif

/* The functions of these headers (dim3's constructors, the make_* functions) are callable from host and device
 * code when a CUDA compiler compiles them (__CUDACC__, or clang's __CUDA__ of CUDA mode without its CUDA
 * wrapper headers), plain functions otherwise. */
#ifndef STREAMSIM_HD
#if (defined(__CUDACC__) || defined(__CUDA__)) && defined(__host__) && defined(__device__)
#define STREAMSIM_HD __host__ __device__
#elif defined(__CUDACC__) || defined(__CUDA__)
#define STREAMSIM_HD __attribute__((host)) __attribute__((device))
#else
#define STREAMSIM_HD
#endif
#endif

/* name1 … name4 of component type T; a2 and a4: the alignment of name2 and name4. */
#define STREAMSIM_VECTOR_TYPES(T, name, a2, a4)                                                                \
    typedef struct name##1 { T x; } name##1;                                                                  \
    typedef struct name##2 { STREAMSIM_VECTOR_ALIGN(a2) T x; T y; } name##2;                                  \
    typedef struct name##3 { T x, y, z; } name##3;                                                            \
    typedef struct name##4 { STREAMSIM_VECTOR_ALIGN(a4) T x; T y, z, w; } name##4;
STREAMSIM_VECTOR_TYPES(signed char, char, 2, 4)
STREAMSIM_VECTOR_TYPES(unsigned char, uchar, 2, 4)
STREAMSIM_VECTOR_TYPES(short, short, 4, 8)
STREAMSIM_VECTOR_TYPES(unsigned short, ushort, 4, 8)
STREAMSIM_VECTOR_TYPES(int, int, 8, 16)
STREAMSIM_VECTOR_TYPES(unsigned int, uint, 8, 16)
STREAMSIM_VECTOR_TYPES(long int, long, 2 * sizeof(long int), 16)
STREAMSIM_VECTOR_TYPES(unsigned long int, ulong, 2 * sizeof(unsigned long int), 16)
STREAMSIM_VECTOR_TYPES(float, float, 8, 16)
STREAMSIM_VECTOR_TYPES(long long int, longlong, 16, 16)
STREAMSIM_VECTOR_TYPES(unsigned long long int, ulonglong, 16, 16)
STREAMSIM_VECTOR_TYPES(double, double, 16, 16)
#undef STREAMSIM_VECTOR_TYPES

/* Grid and block dimensions: accepted for source compatibility; the simulator does not model threads. In C++, as
 * NVIDIA's: constexpr constructors (each dimension defaults to 1, or from a uint3) and the conversion to uint3. */
#ifndef STREAMSIM_DIM3
#define STREAMSIM_DIM3
typedef struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    STREAMSIM_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    STREAMSIM_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    STREAMSIM_HD constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
} dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
