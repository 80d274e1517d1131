// Solver and renderer benchmarks on scenes/bench.toml, the Blender Mantaflow
// comparison setup. Reports per-stage milliseconds per substep, pressure
// iterations, cells x substeps per second, render milliseconds per frame and
// peak RSS as counters:
//     build/tests/plume_bench --benchmark_filter='Substep|Render' --benchmark_repetitions=3
// and beside each the memory floor (memory_floor.h): floor_MB, floor_ms, x_floor.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <memory>

#include "core/parallel.h"
#include "memory_floor.h"
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
    const auto t0 = std::chrono::steady_clock::now();
    for (auto _ : state) {
        SolveStats s = solver->substep(dt);
        iterations += s.iterations;
        ++substeps;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bench::reportFloor(state, bench::substepFloorBytes(solver->fields(), solver->activeBox()),
                       seconds / substeps);
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

// The bench scene with its emitter giving fuel (fire:1) against the same
// scene as smoke only (fire:0): what burning, and carrying fuel and flame,
// cost per substep.
//
// Like for like: burning heats the gas and makes smoke, so after the same
// warm-up the fire scene holds about 2.5 times the smoke cells and flows
// about 2.7 times as fast as the smoke scene, and its scalar advection covers
// a far larger box; timing each on its own warm state charged fire for a
// bigger plume, not for its own work (+47%). So both time the same substeps
// from the same state: the fire scene's after 12 frames (the smoke-only
// solver gets its velocity, density, temperature and pressure, without fuel
// and flame), restored outside the timing before each frame of 4 substeps.
// 16 substeps per run, so every run times the same four frames' worth.
// fire:2 is the fire with the flame's forces on (flame_vorticity 2,
// flame_disturbance 10, flame_shredding 2), from the same state.
void BM_SubstepFire(benchmark::State& state) {
    const bool fire = state.range(0) != 0;
    const Scene fireScene = loadScene(kBenchScene, {"domain.resolution=64", "emitter[1].fuel=1.0"});
    SolverSnapshot start = warmSolver(fireScene, 12)->snapshot();
    std::unique_ptr<Solver> solver;
    if (state.range(0) == 2) {
        solver = std::make_unique<Solver>(
            loadScene(kBenchScene,
                      {"domain.resolution=64", "emitter[1].fuel=1.0", "physics.flame_vorticity=2",
                       "physics.flame_disturbance=10", "physics.flame_shredding=2"}));
    } else if (fire) {
        solver = std::make_unique<Solver>(fireScene);
    } else {
        solver = std::make_unique<Solver>(
            loadScene(kBenchScene, {"domain.resolution=64", "emitter[1].fuel=0"}));
        start.fields.fuel = start.fields.flame = start.fields.expansion = ScalarGrid();
    }
    const int perFrame = fireScene.time.maxSubsteps;
    const float dt = float(1.0 / fireScene.time.fps / perFrame);
    solver->resetStageTimes();
    int substeps = 0, iterations = 0;
    for (auto _ : state) {
        if (substeps % perFrame == 0) {
            state.PauseTiming();
            solver->restore(start);
            state.ResumeTiming();
        }
        iterations += solver->substep(dt).iterations;
        ++substeps;
    }
    const StageTimes& t = solver->stageTimes();
    auto perStep = [&](double seconds) { return benchmark::Counter(1e3 * seconds / substeps); };
    state.counters["emit_burn_ms"] = perStep(t.emit + t.burn);
    state.counters["advect_ms"] = perStep(t.advectVelocity);
    state.counters["forces_ms"] = perStep(t.forces());
    state.counters["flame_forces_ms"] = perStep(t.flame);
    state.counters["project_ms"] = perStep(t.project);
    state.counters["scalars_ms"] = perStep(t.scalars());
    state.counters["pressure_iters"] = double(iterations) / substeps;
}
// Process CPU time: the figure to compare on a shared machine.
BENCHMARK(BM_SubstepFire)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("fire")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(16)
    ->UseRealTime()
    ->MeasureProcessCPUTime();

// filter: 1 linear, 2 cubic (RenderFilter).
void BM_RenderFrame(benchmark::State& state) {
    const int n = int(state.range(0));
    Scene scene = benchScene(n);
    scene.render.width = 1280;
    scene.render.height = 720;
    scene.render.filter = RenderFilter(state.range(1));
    auto solver = warmSolver(scene, 24);
    Renderer renderer(scene);
    int frame = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (auto _ : state)
        benchmark::DoNotOptimize(renderer.render(solver->fields().view(), ++frame));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bench::reportFloor(state,
                       bench::frameFloorBytes(bench::cellsIn(solver->activeBox()),
                                              scene.render.width, scene.render.height),
                       seconds / frame);
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
    // The step its figures were measured at (the scene ships 0.75, for its x4 grid).
    std::vector<std::string> sets = {"render.step=0.5"};
    if (!solids) sets.insert(sets.end(), {"obstacle[1].visible=false", "ground.enabled=false"});
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
