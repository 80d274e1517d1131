// Reconstruction filter benchmarks: the default scene (scenes/plume.toml) at
// 720p with each render.filter, and the two ways to evaluate the tricubic
// B-spline on a CPU:
//     build/tests/plume_bench --benchmark_filter='Plume|Cubic' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <random>
#include <span>
#include <vector>

#include "core/interpolation.h"
#include "render/march/cubic.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

// The default scene, simulated 48 frames, rendered at 720p; filter: 1 linear,
// 2 cubic, 3 sharp (RenderFilter).
void BM_RenderPlume(benchmark::State& state) {
    Scene scene = loadScene(std::string(PLUME_SOURCE_DIR) + "/scenes/plume.toml",
                            {"domain.resolution=" + std::to_string(state.range(0)),
                             "render.step=0.5"});  // as measured; the scene ships 0.75
    scene.render.filter = RenderFilter(state.range(1));
    Solver solver(scene);
    for (int frame = 1; frame <= 48; ++frame) solver.advanceFrame(frame);
    Renderer renderer(scene);
    int frame = 0;
    for (auto _ : state) benchmark::DoNotOptimize(renderer.trace(solver.fields().view(), ++frame));
}
BENCHMARK(BM_RenderPlume)
    ->ArgsProduct({{64, 128},
                   {int(RenderFilter::Linear), int(RenderFilter::Cubic), int(RenderFilter::Sharp)}})
    ->ArgNames({"res", "filter"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A 64^3 density grid and random positions.
struct LookupFixture {
    ScalarGrid grid{64, 64, 64};
    std::vector<Vec3f> points;
    LookupFixture() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(0.0f, 1.0f), p(0.0f, 64.0f);
        for (float& v : std::span(grid.data(), size_t(64) * 64 * 64)) v = u(rng);
        for (int n = 0; n < 4096; ++n) points.push_back({p(rng), p(rng), p(rng)});
    }
};

// Direct 4x4x4 weights (render/march/cubic.h).
void BM_CubicLookupDirect(benchmark::State& state) {
    LookupFixture f;
    for (auto _ : state)
        for (Vec3f p : f.points)
            benchmark::DoNotOptimize(bsplineSample(f.grid.data(), {64, 64, 64}, p));
    state.SetItemsProcessed(state.iterations() * f.points.size());
}
BENCHMARK(BM_CubicLookupDirect);

// Sigg and Hadwiger: eight trilinear lookups at offset positions.
void BM_CubicLookupTrilinear8(benchmark::State& state) {
    LookupFixture f;
    const SampleLayout layout(64, 64, 64, Vec3f(0.5f));
    for (auto _ : state)
        for (Vec3f p : f.points) {
            // Per axis: two weights g and two positions h between sample pairs.
            float g[3][2], h[3][2];
            for (int a = 0; a < 3; ++a) {
                const float x = std::clamp(p[a] - 0.5f, 0.0f, 63.0f);
                const float fl = std::floor(x);
                float w[4];
                bsplineWeights(x - fl, w);
                g[a][0] = w[0] + w[1];
                g[a][1] = w[2] + w[3];
                h[a][0] = fl - 1.0f + w[1] / g[a][0] + 0.5f;
                h[a][1] = fl + 1.0f + w[3] / g[a][1] + 0.5f;
            }
            float sum = 0.0f;
            for (int c = 0; c < 8; ++c) {
                const int i = c & 1, j = (c >> 1) & 1, k = c >> 2;
                sum += g[0][i] * g[1][j] * g[2][k] *
                       blend(f.grid.data(), layout.stencil({h[0][i], h[1][j], h[2][k]}));
            }
            benchmark::DoNotOptimize(sum);
        }
    state.SetItemsProcessed(state.iterations() * f.points.size());
}
BENCHMARK(BM_CubicLookupTrilinear8);

}  // namespace
}  // namespace plume
