// The only door to TBB. Loops split over z-slabs or image tiles; each index is
// written by exactly one task, and sums are formed per fixed block and added in
// block order, so results never depend on the thread count.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace plume {

// A non-owning callable reference: no allocation, one indirect call per range.
template <typename Sig>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
    FunctionRef(F&& f)  // NOLINT: implicit on purpose
        : obj_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, Args... a) -> R { return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(a)...); }) {}
    R operator()(Args... a) const { return call_(obj_, std::forward<Args>(a)...); }

private:
    void* obj_;
    R (*call_)(void*, Args...);
};

// Sets the number of worker threads for the whole process (0 = all cores).
// Held until the next call; results do not depend on it.
void setThreadCount(int threads);
int threadCount();

// Calls body(k0, k1) on disjoint ranges that cover [0, n).
void parallelForRange(int n, FunctionRef<void(int, int)> body);

// Calls body(k) for every z-slab k in [0, nz).
template <typename F>
void parallelForSlabs(int nz, F&& body) {
    parallelForRange(nz, [&](int k0, int k1) {
        for (int k = k0; k < k1; ++k) body(k);
    });
}

// Sum of term(k) over k in [0, n), added in index order from fixed per-index
// partials: bit-identical for any thread count.
double deterministicSum(int n, FunctionRef<double(int)> term);

// Calls body(x0, y0, x1, y1) for each tile of a width x height image.
void parallelForTiles(int width, int height, int tileSize,
                      FunctionRef<void(int, int, int, int)> body);

}  // namespace plume
