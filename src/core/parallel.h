// The only door to TBB. Loops split over z-slabs or image tiles; each index is
// written by exactly one task, and sums are formed per fixed block and added in
// block order, so results never depend on the thread count.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace plume {

// A non-owning callable reference: no allocation, one indirect call per range.
template <typename Sig>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
  public:
    template <typename F,
              typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
    FunctionRef(F&& f)  // NOLINT: implicit on purpose
        : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_([](void* o, Args... a) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(a)...);
          }) {}
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

// combine(...combine(combine(identity, term(0)), term(1))..., term(n-1)):
// the terms are formed in parallel, one per index, and combined in index
// order, so the result is bit-identical for any thread count and any split,
// even for a combine that is not associative (a floating-point sum). For
// per-slab maxima, sums and box unions.
template <typename T, typename Term, typename Combine>
T deterministicReduce(int n, T identity, Term&& term, Combine&& combine) {
    if (n <= 0) return identity;
    std::vector<T> partial(static_cast<size_t>(n), identity);
    parallelForRange(n, [&](int k0, int k1) {
        for (int k = k0; k < k1; ++k) partial[size_t(k)] = term(k);
    });
    T result = identity;
    for (const T& p : partial) result = combine(result, p);
    return result;
}

// Combines for deterministicReduce.
template <typename T>
T maxOf(T a, T b) {
    return a < b ? b : a;
}

// Sum of term(k) over k in [0, n), added in index order.
double deterministicSum(int n, FunctionRef<double(int)> term);

// Calls body(x0, y0, x1, y1) for each tile of a width x height image.
void parallelForTiles(int width, int height, int tileSize,
                      FunctionRef<void(int, int, int, int)> body);

}  // namespace plume
