/*
 * vector_functions.h — CUDA's make_* functions for the vector types of vector_types.h (make_char1 …
 * make_double4), as NVIDIA's header defines them: each returns the vector of its arguments, component by
 * component. Callable from device code too when a CUDA compiler compiles them (see STREAMSIM_HD in
 * vector_types.h). Included by cuda_runtime.h; includes cuda_runtime_api.h, as NVIDIA's does.
 */
#ifndef __VECTOR_FUNCTIONS_H__
#define __VECTOR_FUNCTIONS_H__

#include "cuda_runtime_api.h"

static inline STREAMSIM_HD char1 make_char1(signed char x) {
    char1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD char2 make_char2(signed char x, signed char y) {
    char2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD char3 make_char3(signed char x, signed char y, signed char z) {
    char3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD char4 make_char4(signed char x, signed char y, signed char z, signed char w) {
    char4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD uchar1 make_uchar1(unsigned char x) {
    uchar1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD uchar2 make_uchar2(unsigned char x, unsigned char y) {
    uchar2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) {
    uchar3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) {
    uchar4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD short1 make_short1(short x) {
    short1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD short2 make_short2(short x, short y) {
    short2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD short3 make_short3(short x, short y, short z) {
    short3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD short4 make_short4(short x, short y, short z, short w) {
    short4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD ushort1 make_ushort1(unsigned short x) {
    ushort1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD ushort2 make_ushort2(unsigned short x, unsigned short y) {
    ushort2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) {
    ushort3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) {
    ushort4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD int1 make_int1(int x) {
    int1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD int2 make_int2(int x, int y) {
    int2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD int3 make_int3(int x, int y, int z) {
    int3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD int4 make_int4(int x, int y, int z, int w) {
    int4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD uint1 make_uint1(unsigned int x) {
    uint1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD uint2 make_uint2(unsigned int x, unsigned int y) {
    uint2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
    uint3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) {
    uint4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD long1 make_long1(long int x) {
    long1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD long2 make_long2(long int x, long int y) {
    long2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD long3 make_long3(long int x, long int y, long int z) {
    long3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD long4 make_long4(long int x, long int y, long int z, long int w) {
    long4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD ulong1 make_ulong1(unsigned long int x) {
    ulong1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD ulong2 make_ulong2(unsigned long int x, unsigned long int y) {
    ulong2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD ulong3 make_ulong3(unsigned long int x, unsigned long int y, unsigned long int z) {
    ulong3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD ulong4 make_ulong4(unsigned long int x, unsigned long int y, unsigned long int z, unsigned long int w) {
    ulong4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD float1 make_float1(float x) {
    float1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD float2 make_float2(float x, float y) {
    float2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD float3 make_float3(float x, float y, float z) {
    float3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD float4 make_float4(float x, float y, float z, float w) {
    float4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD longlong1 make_longlong1(long long int x) {
    longlong1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD longlong2 make_longlong2(long long int x, long long int y) {
    longlong2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD longlong3 make_longlong3(long long int x, long long int y, long long int z) {
    longlong3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD longlong4 make_longlong4(long long int x, long long int y, long long int z, long long int w) {
    longlong4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD ulonglong1 make_ulonglong1(unsigned long long int x) {
    ulonglong1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD ulonglong2 make_ulonglong2(unsigned long long int x, unsigned long long int y) {
    ulonglong2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD ulonglong3 make_ulonglong3(unsigned long long int x, unsigned long long int y, unsigned long long int z) {
    ulonglong3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD ulonglong4 make_ulonglong4(unsigned long long int x, unsigned long long int y, unsigned long long int z, unsigned long long int w) {
    ulonglong4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

static inline STREAMSIM_HD double1 make_double1(double x) {
    double1 t;
    t.x = x;
    return t;
}

static inline STREAMSIM_HD double2 make_double2(double x, double y) {
    double2 t;
    t.x = x; t.y = y;
    return t;
}

static inline STREAMSIM_HD double3 make_double3(double x, double y, double z) {
    double3 t;
    t.x = x; t.y = y; t.z = z;
    return t;
}

static inline STREAMSIM_HD double4 make_double4(double x, double y, double z, double w) {
    double4 t;
    t.x = x; t.y = y; t.z = z; t.w = w;
    return t;
}

#endif /* __VECTOR_FUNCTIONS_H__ */
