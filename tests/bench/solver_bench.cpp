// Solver and renderer benchmarks on scenes/bench.toml, the Blender Mantaflow
// comparison setup. Reports per-stage milliseconds per substep, pressure
// iterations, cells x substeps per second, render milliseconds per frame and
// peak RSS as counters:
//     build/tests/plume_bench --benchmark_filter='Substep|Render' --benchmark_repetitions=3
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <memory>

#include "core/parallel.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

const std::string kBenchScene = std::string(PLUME_SOURCE_DIR) + "/scenes/bench.toml";

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

Scene benchScene(int resolution) {
    return loadScene(kBenchScene, {"domain.resolution=" + std::to_string(resolution)});
}

// A solver that has run long enough for the plume to fill part of the domain.
std::unique_ptr<Solver> warmSolver(const Scene& scene, int frames) {
    auto solver = std::make_unique<Solver>(scene);
    for (int frame = 1; frame <= frames; ++frame) solver->advanceFrame(frame);
    return solver;
}

void BM_Substep(benchmark::State& state) {
    const int n = int(state.range(0));
    setThreadCount(int(state.range(1)));
    Scene scene = benchScene(n);
    auto solver = warmSolver(scene, 12);
    const float dt = float(1.0 / scene.time.fps / scene.time.maxSubsteps);
    solver->resetStageTimes();
    int substeps = 0, iterations = 0;
    for (auto _ : state) {
        SolveStats s = solver->substep(dt);
        iterations += s.iterations;
        ++substeps;
    }
    const StageTimes& t = solver->stageTimes();
    auto perStep = [&](double seconds) { return benchmark::Counter(1e3 * seconds / substeps); };
    state.counters["emit_ms"] = perStep(t.emit);
    state.counters["advect_ms"] = perStep(t.advectVelocity);
    state.counters["forces_ms"] = perStep(t.forces());
    state.counters["project_ms"] = perStep(t.project);
    state.counters["scalars_ms"] = perStep(t.scalars());
    state.counters["pressure_iters"] = double(iterations) / substeps;
    state.counters["cell_substeps_per_s"] = benchmark::Counter(
        double(solver->fields().cellCount()) * substeps, benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peakRssMiB();
    state.counters["bytes_per_cell"] =
        peakRssMiB() * 1048576.0 / double(solver->fields().cellCount());
    setThreadCount(0);
}
BENCHMARK(BM_Substep)
    ->ArgsProduct({{64, 128}, {1, 2}})
    ->ArgNames({"res", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// A sphere obstacle in the plume's path, static (arg 0) or flying across the
// domain on keys (arg 1): what moving it costs per substep (rasterising it
// with its velocity and rebuilding the pressure grid each substep).
void BM_SubstepObstacle(benchmark::State& state) {
    Scene scene = benchScene(int(state.range(0)));
    ObstacleSettings ball;
    ball.radius = 0.25f;
    ball.center = {1.0f, 1.0f, 1.2f};
    if (state.range(1))
        ball.animation.tracks.push_back(
            {"center", {}, {{0.0, {0.3f, 1.0f, 1.2f}}, {48.0, {1.7f, 1.0f, 1.2f}}}});
    scene.obstacles.push_back(ball);
    setThreadCount(2);
    auto solver = warmSolver(scene, 12);
    const float dt = float(1.0 / scene.time.fps / scene.time.maxSubsteps);
    solver->resetStageTimes();
    int substeps = 0, iterations = 0;
    for (auto _ : state) {
        iterations += solver->substep(dt).iterations;
        ++substeps;
    }
    const StageTimes& t = solver->stageTimes();
    state.counters["emit_move_ms"] = benchmark::Counter(1e3 * t.emit / substeps);
    state.counters["project_ms"] = benchmark::Counter(1e3 * t.project / substeps);
    state.counters["pressure_iters"] = double(iterations) / substeps;
    setThreadCount(0);
}
BENCHMARK(BM_SubstepObstacle)
    ->ArgsProduct({{64, 128}, {0, 1}})
    ->ArgNames({"res", "moving"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// filter: 1 linear, 2 cubic (RenderFilter).
// The bench scene as smoke (fire:0) and with its emitter giving fuel
// (fire:1): what burning, and carrying fuel and flame, cost per substep.
void BM_SubstepFire(benchmark::State& state) {
    const bool fire = state.range(0) != 0;
    Scene scene = loadScene(kBenchScene, {"domain.resolution=64", fire ? "emitter[1].fuel=1.0"
                                                                        : "emitter[1].fuel=0"});
    auto solver = warmSolver(scene, 12);
    const float dt = float(1.0 / scene.time.fps / scene.time.maxSubsteps);
    for (auto _ : state) benchmark::DoNotOptimize(solver->substep(dt));
}
BENCHMARK(BM_SubstepFire)->Arg(0)->Arg(1)->ArgName("fire")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RenderFrame(benchmark::State& state) {
    const int n = int(state.range(0));
    Scene scene = benchScene(n);
    scene.render.width = 1280;
    scene.render.height = 720;
    scene.render.filter = RenderFilter(state.range(1));
    auto solver = warmSolver(scene, 24);
    Renderer renderer(scene);
    int frame = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(renderer.render(solver->fields().view(), ++frame));
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_RenderFrame)
    ->ArgsProduct({{128}, {int(RenderFilter::Linear), int(RenderFilter::Cubic)}})
    ->ArgNames({"res", "filter"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The default scene (scenes/plume.toml, 64^3) at 720p, frame 48: smoke only
// (solids:0, the ball hidden and no ground) against the ball and the ground
// drawn (solids:1), which is what drawing them costs.
void BM_RenderDefaultScene(benchmark::State& state) {
    const bool solids = state.range(0) != 0;
    std::vector<std::string> sets;
    if (!solids) sets = {"obstacle[1].visible=false", "ground.enabled=false"};
    const Scene scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/plume.toml", sets);
    auto solver = warmSolver(scene, 48);
    Renderer renderer(scene);
    int frame = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(renderer.render(solver->fields().view(), ++frame));
}
BENCHMARK(BM_RenderDefaultScene)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("solids")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace plume
