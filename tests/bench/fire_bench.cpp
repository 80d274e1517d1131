// What a fire's light costs to render: scenes/campfire.toml at its own size
// (640x720, 64^3), simulated 36 frames, rendered with the flame lighting its
// smoke, logs and ground (fire_light:1) and without (fire_light:0):
//     build/tests/plume_bench --benchmark_filter=Campfire --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

void BM_RenderCampfire(benchmark::State& state) {
    Scene scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/campfire.toml",
                            {"render.fire_light=" + std::to_string(state.range(0))});
    Solver solver(scene);
    for (int frame = 1; frame <= 36; ++frame) solver.advanceFrame(frame);
    Renderer renderer(scene);
    int frame = 0;
    for (auto _ : state) benchmark::DoNotOptimize(renderer.trace(solver.fields().view(), ++frame));
}
BENCHMARK(BM_RenderCampfire)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("fire_light")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace plume
