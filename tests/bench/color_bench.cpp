// What the smoke's colour costs (sim/smoke_color.h): the bench scene at 64^3
// with its emitter coloured (color:1) against the same scene as grey smoke
// (color:0), a substep from the same state, one thread; and a frame of it
// in the renderer (the colour packed and spread past the smoke's edge):
//     build/tests/plume_bench --benchmark_filter=Color --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include "core/parallel.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

Scene colorScene(bool colored) {
    std::vector<std::string> sets = {"domain.resolution=64", "render.width=640",
                                     "render.height=360"};
    if (colored) sets.push_back("emitter[1].color=[0.9, 0.3, 0.1]");
    return loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/bench.toml", sets);
}

void BM_SubstepColor(benchmark::State& state) {
    setThreadCount(1);
    const Scene scene = colorScene(state.range(0) != 0);
    Solver solver(scene);
    for (int frame = 1; frame <= 12; ++frame) solver.advanceFrame(frame);
    const float dt = float(1.0 / scene.time.fps / scene.time.maxSubsteps);
    solver.resetStageTimes();
    int substeps = 0;
    for (auto _ : state) {
        solver.substep(dt);
        ++substeps;
    }
    const StageTimes& t = solver.stageTimes();
    state.counters["scalars_ms"] = benchmark::Counter(1e3 * t.scalars() / substeps);
    setThreadCount(0);
}
BENCHMARK(BM_SubstepColor)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("color")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

void BM_RenderColor(benchmark::State& state) {
    setThreadCount(1);
    const Scene scene = colorScene(state.range(0) != 0);
    Solver solver(scene);
    for (int frame = 1; frame <= 24; ++frame) solver.advanceFrame(frame);
    Renderer renderer(scene);
    int frame = 0;
    for (auto _ : state) benchmark::DoNotOptimize(renderer.trace(solver.fields().view(), ++frame));
    setThreadCount(0);
}
BENCHMARK(BM_RenderColor)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("color")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace plume
