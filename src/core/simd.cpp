#include "core/simd.h"

#include <atomic>

namespace plume::simd {

namespace {

std::atomic<bool>& allowed() {
    static std::atomic<bool> allow{true};
    return allow;
}

bool cpuHasAvx2() {
#if PLUME_HAS_AVX2_PATHS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

}  // namespace

bool avx2() {
    static const bool has = cpuHasAvx2();
    return has && allowed().load(std::memory_order_relaxed);
}

void allowAvx2(bool allow) { allowed().store(allow, std::memory_order_relaxed); }

}  // namespace plume::simd
