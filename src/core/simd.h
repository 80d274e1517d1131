// Four- and eight-wide float and int arithmetic through GCC/Clang vector
// extensions. Four-wide is SSE2 on x86-64 and NEON on arm64, with no -march;
// eight-wide is used only inside functions built for AVX2 (PLUME_AVX2
// below) and chosen at run time when the CPU has it. Arithmetic is
// element-wise IEEE with no reassociation or contraction, so a lane computes
// the same bits as the scalar formula written in the same order: four- and
// eight-wide kernels give the one-point results bit for bit.
#pragma once

#include <algorithm>
#include <cstdint>

namespace plume::simd {

typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef uint8_t U4 __attribute__((vector_size(4)));
typedef float F8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));
typedef uint8_t U8 __attribute__((vector_size(8)));

// The lane mask (and int) type of a float vector.
template <typename V>
using Mask = decltype(V{} < V{});
template <typename V>
inline constexpr int kLanes = int(sizeof(V) / sizeof(float));

template <typename V>
[[gnu::always_inline]] inline V loadN(const float* p) {
    V v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
template <typename V>
[[gnu::always_inline]] inline void storeN(float* p, V v) {
    __builtin_memcpy(p, &v, sizeof v);
}
// Every lane s.
template <typename V, typename S>
[[gnu::always_inline]] inline V broadcast(S s) {
    V v;
    for (int l = 0; l < kLanes<V>; ++l) v[l] = s;
    return v;
}

inline F4 load(const float* p) { return loadN<F4>(p); }
inline void store(float* p, F4 v) { storeN(p, v); }
inline F4 splat(float s) { return F4{s, s, s, s}; }
// {a[0], a[1], b[0], b[1]}: two 8-byte loads.
[[gnu::always_inline]] inline F4 loadPairs(const float* a, const float* b) {
    typedef float F2 __attribute__((vector_size(8)));
    F2 lo, hi;
    __builtin_memcpy(&lo, a, sizeof lo);
    __builtin_memcpy(&hi, b, sizeof hi);
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3);
}
// Two four-wide halves as one eight-wide vector.
[[gnu::always_inline]] inline F8 concat(F4 lo, F4 hi) {
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

// a where mask is set, else b.
template <typename V>
[[gnu::always_inline]] inline V select(Mask<V> mask, V a, V b) {
    return V((Mask<V>(a) & mask) | (Mask<V>(b) & ~mask));
}
template <typename V>
[[gnu::always_inline]] inline V abs(V v) {
    return V(Mask<V>(v) & broadcast<Mask<V>>(0x7fffffff));
}
template <typename V>
[[gnu::always_inline]] inline V max(V a, V b) {
    return select<V>(a > b, a, b);
}
// Lane by lane as std::clamp(x, lo, hi) picks.
template <typename V>
[[gnu::always_inline]] inline V clamp(V x, V lo, V hi) {
    return x < lo ? lo : (hi < x ? hi : x);
}
inline float hmax(F4 v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); }
inline float hsum(F4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Whether the kernels take their AVX2 paths: the CPU has AVX2, unless
// allowAvx2(false) turned them off (tests compare the two paths). Both paths
// give the same bits.
bool avx2();
void allowAvx2(bool allow);

}  // namespace plume::simd

// Marks a function built for AVX2 (called only when simd::avx2()); everything
// it calls must be inlined into it or be built for every CPU.
#if defined(__x86_64__) || defined(__i386__)
#define PLUME_HAS_AVX2_PATHS 1
#define PLUME_AVX2 __attribute__((target("avx2")))
#else
#define PLUME_HAS_AVX2_PATHS 0
#define PLUME_AVX2
#endif
