// Four-wide float and int arithmetic through GCC/Clang vector extensions
// (SSE2 on x86-64, NEON on arm64; no -march needed). Arithmetic is
// element-wise IEEE with no reassociation or contraction, so a lane computes
// the same bits as the scalar formula written in the same order: four-wide
// kernels give the one-point results bit for bit.
#pragma once

#include <algorithm>
#include <cstdint>

namespace plume::simd {

typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef uint8_t U4 __attribute__((vector_size(4)));

inline F4 load(const float* p) {
    F4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline void store(float* p, F4 v) { __builtin_memcpy(p, &v, sizeof v); }
// {a[0], a[1], b[0], b[1]}: two 8-byte loads.
inline F4 loadPairs(const float* a, const float* b) {
    typedef float F2 __attribute__((vector_size(8)));
    F2 lo, hi;
    __builtin_memcpy(&lo, a, sizeof lo);
    __builtin_memcpy(&hi, b, sizeof hi);
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3);
}
inline F4 splat(float s) { return F4{s, s, s, s}; }

// a where mask is set, else b.
inline F4 select(I4 mask, F4 a, F4 b) { return F4((I4(a) & mask) | (I4(b) & ~mask)); }
inline F4 abs(F4 v) { return F4(I4(v) & I4{0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}); }
inline F4 max(F4 a, F4 b) { return select(a > b, a, b); }
// Lane by lane as std::clamp(x, lo, hi) picks.
inline F4 clamp(F4 x, F4 lo, F4 hi) { return x < lo ? lo : (hi < x ? hi : x); }
inline float hmax(F4 v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); }
inline float hsum(F4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

}  // namespace plume::simd
