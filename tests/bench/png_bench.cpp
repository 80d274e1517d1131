// PNG writing (io/png.cpp) of a real 1280x720 frame: scenes/bench.toml at
// 64^3, 24 frames simulated, rendered at 720p, written opaque (RGB) and
// transparent (RGBA). The file size is reported as a counter:
//     build/tests/plume_bench --benchmark_filter=WritePng --benchmark_repetitions=5
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "io/png.h"
#include "render/output/tone_map.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

// The frame, made once for every run of the benchmark; channels 3 or 4.
const Image& benchFrame(int channels) {
    static const auto frames = [] {
        Scene scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/bench.toml",
                                {"render.width=1280", "render.height=720", "time.frames=24"});
        Solver solver(scene);
        for (int frame = 1; frame <= 24; ++frame) solver.advanceFrame(frame);
        Renderer renderer(scene);
        renderer.trace(solver.fields().view(), 24);
        std::pair<Image, Image> images{renderer.toneMapped(), Image(1280, 720, 4)};
        toneMapStraightAlpha(renderer.rgba(), scene.render.exposure, images.second);
        return images;
    }();
    return channels == 4 ? frames.second : frames.first;
}

void BM_WritePng(benchmark::State& state) {
    const Image& image = benchFrame(int(state.range(0)));
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("plume_bench_" + std::to_string(::getpid()) + ".png"))
                                 .string();
    for (auto _ : state) writePng(path, image);
    state.counters["bytes"] = double(std::filesystem::file_size(path));
    std::filesystem::remove(path);
}
BENCHMARK(BM_WritePng)->Arg(3)->Arg(4)->ArgName("channels")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace plume
