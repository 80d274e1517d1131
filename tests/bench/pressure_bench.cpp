// Pressure projection on an open box of random velocities, per method.
// Reports iterations per solve and the final relative residual as counters.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "sim/pressure/projection.h"

namespace plume {
namespace {

void randomize(ScalarGrid& g, uint64_t seed) {
    for (size_t n = 0; n < g.size(); ++n) {
        uint64_t x = n * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
        x ^= x >> 30, x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 27, x *= 0x94D049BB133111EBull;
        x ^= x >> 31;
        g[n] = float(x >> 40) / float(1 << 23) - 1.0f;
    }
}

void BM_Project(benchmark::State& state, PressureMethod method) {
    const int size = int(state.range(0));
    const Vec3i n{size, size, size};
    Fields start(n, 1.0f / size);
    randomize(start.u, 1), randomize(start.v, 2), randomize(start.w, 3);
    Fields f = start;
    const Boundary o = Boundary::Open;
    Projection proj(n, {o, o, o, o, o, o}, {}, method);
    proj.project(f, 0.01f, 1e-4f, 10000);  // first call builds the hierarchy
    SolveStats s;
    for (auto _ : state) {
        state.PauseTiming();
        f.u = start.u, f.v = start.v, f.w = start.w;
        proj.resetWarmStart();
        state.ResumeTiming();
        s = proj.project(f, 0.01f, 1e-4f, 10000);
    }
    state.counters["iterations"] = s.iterations;
    state.counters["residual"] = s.residual;
}

BENCHMARK_CAPTURE(BM_Project, mgpcg, PressureMethod::MGPCG)
    ->Arg(32)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Project, pcg, PressureMethod::PCG)
    ->Arg(64)
    ->Arg(128)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Project, sor, PressureMethod::SOR)
    ->Arg(64)
    ->Arg(128)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace plume

BENCHMARK_MAIN();
