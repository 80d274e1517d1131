// What sparks (sim/sparks.h) cost: the campfire at 64^3 after 24 frames with
// 0, 10k or 100k sparks spread through its smoke, a 1280x720 frame traced
// with them (their streaks and each one's transmittance to the camera), and
// a substep's motion of them alone:
//     build/tests/plume_bench --benchmark_filter=Spark
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "sim/sparks.h"

namespace plume {
namespace {

struct Campfire {
    Scene scene;
    std::unique_ptr<Solver> solver;
    SparkList sparks;
    explicit Campfire(int count) {
        scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/campfire.toml",
                          {"render.width=1280", "sparks.rate=0"});
        solver = std::make_unique<Solver>(scene);
        for (int frame = 1; frame <= 24; ++frame) solver->advanceFrame(frame);
        // Hashed, so every run spreads the same sparks over the domain's lower half.
        std::uint32_t seed = 12345;
        auto unit = [&] {
            seed = seed * 1664525u + 1013904223u;
            return float(seed >> 8) / float(1u << 24);
        };
        const Vec3f size = scene.domain.size;
        for (int n = 0; n < count; ++n) {
            Spark s;
            s.p = Vec3f(unit() * size.x, unit() * size.y, unit() * 0.5f * size.z);
            s.v = Vec3f(unit() - 0.5f, unit() - 0.5f, 2.0f * unit());
            s.temperature = 1000.0f + 800.0f * unit();
            s.life = 10.0f;
            s.pscale = 0.004f;
            sparks.push_back(s);
        }
    }
};

void BM_SparkFrame(benchmark::State& state) {
    Campfire fire(int(state.range(0)));
    Renderer renderer(fire.scene);
    VolumeView view = fire.solver->fields().view();
    view.sparks = &fire.sparks;
    int frame = 0;
    for (auto _ : state) benchmark::DoNotOptimize(renderer.trace(view, 24 + (++frame % 2)));
}
BENCHMARK(BM_SparkFrame)
    ->Arg(0)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_SparkMove(benchmark::State& state) {
    Campfire fire(int(state.range(0)));
    const SparkMotion motion = SparkMotion::of(fire.scene);
    const SparkFlow flow(fire.solver->islandFields());
    for (auto _ : state) {
        state.PauseTiming();
        SparkList sparks = fire.sparks;
        state.ResumeTiming();
        moveSparks(sparks, flow, motion, 1.0f / 96.0f);
        benchmark::DoNotOptimize(sparks.data());
    }
}
BENCHMARK(BM_SparkMove)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace plume
