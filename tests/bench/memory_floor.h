// The memory floor beside the benchmarks (issue 56): the bytes a substep or
// a frame must read and write, over STREAM's triad bandwidth on the same
// threads, so each benchmark's distance to it is a number every change moves.
//
// "Must": each field a substep changes read once and written once over the
// solver's active box (velocity's three components, each scalar it carries,
// the kept pressure in double), as if every kernel met in one pass; a frame
// reads the volume it draws once and writes its image once. The real passes
// (CG's iterations, advection's traces, the march's samples) move many times
// that: the ratio is what a fused, tighter solver and renderer would gain.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <vector>

#include "core/box.h"
#include "core/parallel.h"
#include "sim/fields.h"

namespace plume::bench {

// STREAM's triad a[i] = b[i] + s c[i] over 3 arrays of 2^25 floats (128 MiB
// each, far past any cache) on the current thread count: the best of five
// passes, in bytes a second (12 bytes an element, as STREAM counts).
inline double triadBandwidth() {
    static std::map<int, double> measured;
    const int threads = threadCount();
    if (auto it = measured.find(threads); it != measured.end()) return it->second;
    constexpr int kN = 1 << 25, kSlabs = 256;
    std::vector<float> a(kN, 0.0f), b(kN, 1.0f), c(kN, 2.0f);
    double best = 1e30;
    for (int pass = 0; pass < 5; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        parallelForRange(kSlabs, [&](int s0, int s1) {
            const size_t i0 = size_t(s0) * (kN / kSlabs), i1 = size_t(s1) * (kN / kSlabs);
            for (size_t i = i0; i < i1; ++i) a[i] = b[i] + 3.0f * c[i];
        });
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    benchmark::DoNotOptimize(a.data());
    return measured[threads] = 12.0 * kN / best;
}

inline double cellsIn(const Box3i& box) {
    return box.empty() ? 0.0 : double(box.hi.x - box.lo.x) * (box.hi.y - box.lo.y) * (box.hi.z - box.lo.z);
}

// The bytes a substep must move over `active`: read and write each field once.
inline double substepFloorBytes(const Fields& f, const Box3i& active) {
    int floats = 3 + 2;  // velocity, density and temperature
    if (f.burns()) floats += 3;                 // fuel, flame, expansion
    if (f.color[0].size() == f.density.size()) floats += 3;
    const double bytesPerCell = 2.0 * (4.0 * floats + 8.0);  // and the pressure, in double
    return bytesPerCell * cellsIn(active);
}

// The bytes a frame must move: its volume's cells read once (a float each),
// its image written once (RGBA floats).
inline double frameFloorBytes(double volumeCells, int width, int height) {
    return 4.0 * volumeCells + 16.0 * double(width) * height;
}

// The counters: the floor's megabytes, its time at the triad's bandwidth,
// and the measured time a step over it.
inline void reportFloor(benchmark::State& state, double bytes, double secondsPerStep) {
    const double floor = bytes / triadBandwidth();
    state.counters["floor_MB"] = bytes / 1e6;
    state.counters["floor_ms"] = 1e3 * floor;
    state.counters["triad_GBps"] = triadBandwidth() / 1e9;
    state.counters["x_floor"] = secondsPerStep / floor;
}

}  // namespace plume::bench
