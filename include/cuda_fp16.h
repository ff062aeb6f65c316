/*
 * cuda_fp16.h — CUDA's half-precision type for host code: __half and __half2 (IEEE 754 binary16; 2 and 4 bytes,
 * aligned as NVIDIA's), their raw forms __half_raw / __half2_raw, and the host-side conversions of NVIDIA's header,
 * bit for bit as its host path (cuda_fp16.hpp, __internal_float2half / __internal_half2float):
 *   - float to half rounds to nearest even (__float2half, __float2half_rn), toward zero (_rz), down (_rd) or up
 *     (_ru); a NaN becomes 0x7FFF; a finite value beyond the range becomes infinity or 65504 as the rounding says;
 *   - half to float is exact; a NaN becomes 0x7FFFFFFF.
 * In C++ __half converts from and to float (as NVIDIA's header does unless __CUDA_NO_HALF_CONVERSIONS__). The
 * arithmetic of device code (__hadd, …) is not provided.
 */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

#include <string.h>

#if defined(__cplusplus)
#define STREAMSIM_HALF_ALIGN(n) alignas(n)
#else
#define STREAMSIM_HALF_ALIGN(n) _Alignas(n)
#endif

/* The bits of a half. */
typedef struct __half_raw {
    unsigned short x;
} __half_raw;

typedef struct __half2_raw {
    unsigned short x;
    unsigned short y;
} __half2_raw;

#if defined(__cplusplus)
struct __half;
static inline float __half2float(const struct __half h);
static inline struct __half __float2half(const float f);

struct __half {
    STREAMSIM_HALF_ALIGN(2) unsigned short __x;
    __half() = default;
    __half(const __half_raw &hr) : __x(hr.x) {}
    __half &operator=(const __half_raw &hr) {
        __x = hr.x;
        return *this;
    }
    operator __half_raw() const {
        __half_raw r;
        r.x = __x;
        return r;
    }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
    __half(const float f) : __x(__float2half(f).__x) {}
    __half &operator=(const float f) {
        __x = __float2half(f).__x;
        return *this;
    }
    operator float() const { return __half2float(*this); }
#endif
};

struct __half2 {
    STREAMSIM_HALF_ALIGN(4) __half x;
    __half y;
    __half2() = default;
    __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __half2(const __half2_raw &h2r) {
        __half_raw lo, hi;
        lo.x = h2r.x;
        hi.x = h2r.y;
        x = lo;
        y = hi;
    }
    operator __half2_raw() const {
        __half2_raw r;
        r.x = x.__x;
        r.y = y.__x;
        return r;
    }
};
#define __streamsim_half_t struct __half
#else
typedef struct __half {
    STREAMSIM_HALF_ALIGN(2) unsigned short __x;
} __half;

typedef struct __half2 {
    STREAMSIM_HALF_ALIGN(4) __half x;
    __half y;
} __half2;
#define __streamsim_half_t __half
#endif

/* Rounding of streamsim_float2half_bits: 0 to nearest even, 1 toward zero, 2 down, 3 up. */
static inline unsigned short streamsim_float2half_bits(const float f, const int rounding) {
    unsigned int x, remainder, result;
    memcpy(&x, &f, sizeof x);
    const unsigned int sign = (x >> 16U) & 0x8000U;
    const unsigned int u = x & 0x7FFFFFFFU;
    if (u >= 0x7F800000U) { /* infinity or NaN */
        remainder = 0U;
        result = (u == 0x7F800000U) ? (sign | 0x7C00U) : 0x7FFFU;
    } else if (u >= 0x477FF000U) { /* at least 65520: beyond the range for every rounding */
        remainder = 0x80000000U;
        result = sign | 0x7BFFU;
    } else if (u >= 0x38800000U) { /* a normal half */
        remainder = u << 19U;
        result = sign | (((u & 0x7F800000U) - 0x38000000U) >> 13U) | ((u & 0x7FFFFFU) >> 13U);
    } else if (u < 0x33000001U) { /* at most 2^-25: zero */
        remainder = u;
        result = sign;
    } else { /* a subnormal half */
        const unsigned int shift = 0x7EU - (u >> 23U);
        const unsigned int mantissa = (u & 0x7FFFFFU) | 0x800000U;
        remainder = mantissa << (32U - shift);
        result = (sign | (mantissa >> shift)) & 0xFFFFU;
    }
    if (rounding == 0) {
        if (remainder > 0x80000000U || (remainder == 0x80000000U && (result & 1U) != 0U)) {
            result++;
        }
    } else if (rounding == 1) {
        /* toward zero: the truncated bits (a finite value is at most 65504 here) */
    } else if (remainder != 0U && ((rounding == 2) == (sign != 0U))) {
        result++; /* away from zero: down for a negative value, up for a positive one */
    }
    return (unsigned short)result;
}

static inline float streamsim_half_bits2float(const unsigned short h) {
    unsigned int sign = (h >> 15U) & 1U;
    unsigned int exponent = (h >> 10U) & 0x1FU;
    unsigned int mantissa = (h & 0x3FFU) << 13U;
    if (exponent == 0x1FU) { /* infinity or NaN */
        if (mantissa != 0U) {
            sign = 0U;
            mantissa = 0x7FFFFFU;
        }
        exponent = 0xFFU;
    } else if (exponent == 0U) { /* zero or subnormal */
        if (mantissa != 0U) {
            unsigned int msb;
            exponent = 0x71U;
            do {
                msb = mantissa & 0x400000U;
                mantissa <<= 1U;
                --exponent;
            } while (msb == 0U);
            mantissa &= 0x7FFFFFU;
        }
    } else {
        exponent += 0x70U;
    }
    const unsigned int u = (sign << 31U) | (exponent << 23U) | mantissa;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline __streamsim_half_t streamsim_half_of_bits(const unsigned short bits) {
    __streamsim_half_t h;
    h.__x = bits;
    return h;
}

static inline __streamsim_half_t __float2half(const float f) {
    return streamsim_half_of_bits(streamsim_float2half_bits(f, 0));
}
static inline __streamsim_half_t __float2half_rn(const float f) {
    return streamsim_half_of_bits(streamsim_float2half_bits(f, 0));
}
static inline __streamsim_half_t __float2half_rz(const float f) {
    return streamsim_half_of_bits(streamsim_float2half_bits(f, 1));
}
static inline __streamsim_half_t __float2half_rd(const float f) {
    return streamsim_half_of_bits(streamsim_float2half_bits(f, 2));
}
static inline __streamsim_half_t __float2half_ru(const float f) {
    return streamsim_half_of_bits(streamsim_float2half_bits(f, 3));
}
static inline float __half2float(const __streamsim_half_t h) {
    return streamsim_half_bits2float(h.__x);
}
static inline unsigned short __half_as_ushort(const __streamsim_half_t h) {
    return h.__x;
}
static inline __streamsim_half_t __ushort_as_half(const unsigned short i) {
    return streamsim_half_of_bits(i);
}
static inline short __half_as_short(const __streamsim_half_t h) {
    short s;
    memcpy(&s, &h.__x, sizeof s);
    return s;
}
static inline __streamsim_half_t __short_as_half(const short i) {
    unsigned short u;
    memcpy(&u, &i, sizeof u);
    return streamsim_half_of_bits(u);
}

#if defined(__cplusplus)
#define __streamsim_half2_t struct __half2
#else
#define __streamsim_half2_t __half2
#endif

static inline __streamsim_half2_t streamsim_half2_of(const __streamsim_half_t a, const __streamsim_half_t b) {
    __streamsim_half2_t h2;
    h2.x = a;
    h2.y = b;
    return h2;
}
/* Both halves the same value, rounded to nearest even. */
static inline __streamsim_half2_t __float2half2_rn(const float f) {
    return streamsim_half2_of(__float2half_rn(f), __float2half_rn(f));
}
static inline __streamsim_half2_t __floats2half2_rn(const float a, const float b) {
    return streamsim_half2_of(__float2half_rn(a), __float2half_rn(b));
}
static inline __streamsim_half2_t __halves2half2(const __streamsim_half_t a, const __streamsim_half_t b) {
    return streamsim_half2_of(a, b);
}
static inline __streamsim_half_t __low2half(const __streamsim_half2_t h2) {
    return h2.x;
}
static inline __streamsim_half_t __high2half(const __streamsim_half2_t h2) {
    return h2.y;
}
static inline float __low2float(const __streamsim_half2_t h2) {
    return __half2float(h2.x);
}
static inline float __high2float(const __streamsim_half2_t h2) {
    return __half2float(h2.y);
}

#undef STREAMSIM_HALF_ALIGN

#endif /* __CUDA_FP16_H__ */
