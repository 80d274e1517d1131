// The one door between a kernel's two builds: eight lanes in a function built
// for AVX2 when simd::avx2(), else four in a portable one. A kernel is a type
// with `template <typename V> static R run(args...)`, V the widest vector it
// may use (simd::F4 or simd::F8). Its run must be always inlined (and so must
// all it calls that touches vectors), so that each build compiles the body for
// its own instruction set; the two give the same bits (simd.h).
#pragma once

#include "core/simd.h"

namespace plume::simd {

namespace detail {

template <typename Kernel, typename... Args>
auto runPortable(const Args&... args) {
    return Kernel::template run<F4>(args...);
}
#if PLUME_HAS_AVX2_PATHS
template <typename Kernel, typename... Args>
PLUME_AVX2 auto runAvx2(const Args&... args) {
    return Kernel::template run<F8>(args...);
}
#endif

}  // namespace detail

// Kernel::run<F8>(args...) built for AVX2 on a CPU that takes it, else
// Kernel::run<F4>(args...).
template <typename Kernel, typename... Args>
inline auto dispatch(const Args&... args) {
#if PLUME_HAS_AVX2_PATHS
    if (avx2()) return detail::runAvx2<Kernel>(args...);
#endif
    return detail::runPortable<Kernel>(args...);
}

}  // namespace plume::simd
