// Mesh sequences: what a frame costs when an obstacle is a deforming sphere
// given as one OBJ a frame (about 10k or 100k triangles), in bench.toml's 64³
// domain. On one thread, so the CPU time is the whole cost even on a busy machine:
//     build/tests/plume_bench --benchmark_filter=Sequence
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <numbers>
#include <string>

#include "core/parallel.h"
#include "core/shape_sequence.h"
#include "io/scene_geometry.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

constexpr int kFiles = 14;

// Segments around and rings pole to pole of a UV sphere of about `triangles`
// (it has 2 * segments * (rings - 1)).
void sphereGrid(int triangles, int& segments, int& rings) {
    segments = int(std::lround(std::sqrt(double(triangles))));
    rings = triangles / (2 * segments) + 1;
}

// Frame `frame` of a sphere of radius 0.5 m about the origin whose surface
// wobbles: every vertex moves every frame, the topology stays.
void writeWobblySphere(const fs::path& path, int segments, int rings, int frame) {
    FILE* out = std::fopen(path.c_str(), "w");
    const double pi = std::numbers::pi, t = 0.4 * frame;
    auto vertex = [&](double theta, double phi) {
        const double r = 0.5 * (1.0 + 0.15 * std::sin(3.0 * phi + t) * std::sin(2.0 * theta));
        std::fprintf(out, "v %.6f %.6f %.6f\n", r * std::sin(theta) * std::cos(phi),
                     r * std::sin(theta) * std::sin(phi), r * std::cos(theta));
    };
    vertex(0.0, 0.0);  // 1: the north pole
    for (int ring = 1; ring < rings; ++ring)
        for (int s = 0; s < segments; ++s) vertex(pi * ring / rings, 2.0 * pi * s / segments);
    vertex(pi, 0.0);  // the south pole
    const int south = 2 + (rings - 1) * segments;
    auto at = [&](int ring, int s) { return 2 + (ring - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) {
        std::fprintf(out, "f 1 %d %d\n", at(1, s), at(1, s + 1));
        std::fprintf(out, "f %d %d %d\n", south, at(rings - 1, s + 1), at(rings - 1, s));
        for (int ring = 1; ring + 1 < rings; ++ring) {
            std::fprintf(out, "f %d %d %d\n", at(ring, s), at(ring + 1, s), at(ring + 1, s + 1));
            std::fprintf(out, "f %d %d %d\n", at(ring, s), at(ring + 1, s + 1), at(ring, s + 1));
        }
    }
    std::fclose(out);
}

// bench.toml's 64³ domain and emitter, with the sphere sequence as an
// obstacle above the source (none for triangles = 0; with `still`, its first
// file alone, a mesh that holds still), files written once.
Scene sequenceScene(int triangles, bool still = false) {
    const fs::path dir =
        fs::temp_directory_path() / ("plume_sequence_bench_" + std::to_string(triangles));
    const std::string bench = std::string(PLUME_SOURCE_DIR) + "/scenes/bench.toml";
    std::ifstream in(bench);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (triangles > 0) {
        int segments, rings;
        sphereGrid(triangles, segments, rings);
        if (!fs::exists(dir / "done")) {
            fs::create_directories(dir);
            for (int n = 1; n <= kFiles; ++n) {
                char name[32];
                std::snprintf(name, sizeof name, "wobble_%04d.obj", n);
                writeWobblySphere(dir / name, segments, rings, n);
            }
            std::ofstream(dir / "done") << "written\n";
        }
        const std::string file = still ? "wobble_0001.obj" : "wobble_####.obj";
        text += "\n[[obstacle]]\nshape = \"mesh\"\nfile = \"" + (dir / file).string() +
                "\"\ncenter = [1.0, 1.0, 1.1]\n";
    }
    return parseScene(text, bench);
}

// Loading the scene: every file (kFiles) read and checked, the first file's SDF built.
void BM_SequenceLoad(benchmark::State& state) {
    setThreadCount(1);
    const Scene scene = sequenceScene(int(state.range(0)));
    for (auto _ : state) {
        Scene s = scene;
        loadSceneGeometry(s);
        benchmark::DoNotOptimize(s.obstacles[0].levelSet);
    }
}
BENCHMARK(BM_SequenceLoad)
    ->Arg(10000)
    ->Arg(100000)
    ->ArgName("triangles")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

// What a frame of the sequence costs the solver alone: the moments it asks
// for in a frame of four substeps (each one's start and middle), the frame's
// file read and its SDF built, the displacement to the next, the warps.
void BM_SequenceFrame(benchmark::State& state) {
    setThreadCount(1);
    Scene scene = sequenceScene(int(state.range(0)));
    loadSceneGeometry(scene);
    const ShapeSequence& sequence = *scene.obstacles[0].sequence;
    int frame = 1;
    for (auto _ : state) {
        for (int s = 0; s < 4; ++s) {
            benchmark::DoNotOptimize(sequence.solidAt(frame - 1 + s / 4.0));
            benchmark::DoNotOptimize(sequence.solidAt(frame - 1 + (s + 0.5) / 4.0));
        }
        frame = frame + 1 < kFiles ? frame + 1 : 2;  // each frame's next file is new
    }
}
BENCHMARK(BM_SequenceFrame)
    ->Arg(10000)
    ->Arg(100000)
    ->ArgName("triangles")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(10);

// A whole solver frame, with the sequence (with its first file holding
// still: still = 1; with no obstacle: triangles = 0), after two warm-up frames.
void BM_SequenceSolverFrame(benchmark::State& state) {
    setThreadCount(1);
    Scene scene = sequenceScene(int(state.range(0)), state.range(1) != 0);
    loadSceneGeometry(scene);
    Solver solver(scene);
    int frame = 1;
    for (; frame <= 2; ++frame) solver.advanceFrame(frame);
    solver.resetStageTimes();
    for (auto _ : state) solver.advanceFrame(frame++);
    state.counters["solids_ms"] =
        benchmark::Counter(1e3 * solver.stageTimes().emit, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_SequenceSolverFrame)
    ->Args({0, 0})
    ->Args({10000, 1})
    ->Args({10000, 0})
    ->Args({100000, 1})
    ->Args({100000, 0})
    ->ArgNames({"triangles", "still"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(10);

}  // namespace
}  // namespace plume
