// What a points emitter (shape = "points") adds to a substep: the bench
// scene at 64³ with 0, 10k or 100k points of about a cell's radius (dx =
// 3.1 cm) rising at 1 m/s through the plume's lower half, one PLY for every
// frame. Reports the emitters' milliseconds a substep beside the substep's:
//     build/tests/plume_bench --benchmark_filter=SubstepPoints
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "core/parallel.h"
#include "io/scene_geometry.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

// A binary PLY of `count` points in a 1 x 1 x 0.6 m box over the emitter.
std::string writeCloud(int count) {
    const auto dir = std::filesystem::temp_directory_path() / "plume_points_bench";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / ("cloud_" + std::to_string(count) + ".ply")).string();
    std::ofstream out(path, std::ios::binary);
    out << "ply\nformat binary_little_endian 1.0\nelement vertex " << count
        << "\nproperty float x\nproperty float y\nproperty float z\nproperty float radius\n"
           "property float vx\nproperty float vy\nproperty float vz\nend_header\n";
    std::uint32_t seed = 12345;
    auto unit = [&] {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1u << 24);
    };
    for (int n = 0; n < count; ++n) {
        const float p[7] = {0.5f + unit(),
                            0.5f + unit(),
                            0.2f + 0.6f * unit(),
                            0.02f + 0.02f * unit(),
                            0.2f * (unit() - 0.5f),
                            0.2f * (unit() - 0.5f),
                            1.0f};
        out.write(reinterpret_cast<const char*>(p), sizeof p);
    }
    return path;
}

void BM_SubstepPoints(benchmark::State& state) {
    const int count = int(state.range(0));
    std::vector<std::string> sets = {"domain.resolution=64"};
    Scene scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/bench.toml", sets);
    if (count > 0) {
        EmitterSettings points;
        points.shape = Shape::Points;
        points.filePath = writeCloud(count);
        points.line = 1;
        scene.emitters.push_back(points);
        loadSceneGeometry(scene);
    }
    setThreadCount(int(state.range(1)));
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
    state.counters["emit_ms"] = benchmark::Counter(1e3 * t.emit / substeps);
    state.counters["substep_ms"] = benchmark::Counter(1e3 * t.total() / substeps);
    setThreadCount(0);
}
BENCHMARK(BM_SubstepPoints)
    ->ArgsProduct({{0, 10000, 100000}, {1, 2}})
    ->ArgNames({"points", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

}  // namespace
}  // namespace plume
