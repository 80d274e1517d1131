// A first fire: an emitter that gives fuel, every look key at its default,
// rendered by the real binary and read back by stb_image, must read as fire
// (a yellow-white core, orange to red edges, dark soot above), not as the
// grey smoke or the white blob the old defaults gave.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using namespace test;

struct Rgb {
    float r, g, b;
    float luma() const { return 0.2126f * r + 0.7152f * g + 0.0722f * b; }
};

std::vector<Rgb> readPng(const fs::path& path, int& w, int& h) {
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 3);
    std::vector<Rgb> px;
    if (!data) return px;
    for (int i = 0; i < w * h; ++i)
        px.push_back({float(data[3 * i]), float(data[3 * i + 1]), float(data[3 * i + 2])});
    stbi_image_free(data);
    return px;
}

Rgb mean(const std::vector<Rgb>& px) {
    Rgb m{0, 0, 0};
    for (const Rgb& p : px) m = {m.r + p.r, m.g + p.g, m.b + p.b};
    const float n = float(std::max<std::size_t>(px.size(), 1));
    return {m.r / n, m.g / n, m.b / n};
}

TEST(FirstFire, AFuelEmitterAtDefaultsReadsAsFire) {
    const fs::path dir = scratchDir("first_fire");
    // Only the fuel; the grid and the frame small for the test's time.
    std::ofstream(dir / "first_fire.toml") << "[domain]\nresolution = 32\n\n"
                                              "[render]\nwidth = 192\nheight = 108\n\n"
                                              "[[emitter]]\nfuel = 1.0\n";
    const RunResult r =
        runPlume("render first_fire.toml --frames 24-24 --png png --no-video --quiet", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    int w = 0, h = 0;
    const std::vector<Rgb> px = readPng(dir / "png" / "first_fire_0024.png", w, h);
    ASSERT_EQ(px.size(), std::size_t(192 * 108));

    // The flame: warm pixels (red well above blue; the sky and grey smoke
    // are bluish or neutral). Measured (32 cells, frame 24): 602 of them,
    // the brightest tenth sRGB (215, 146, 66), the dimmest (66, 35, 19), 1105
    // soot pixels; the old defaults gave no warm pixel (grey smoke, and with
    // render.emission = 10 a white blob). At the default 64 cells the core
    // is (238, 199, 134).
    std::vector<Rgb> flame;
    for (const Rgb& p : px)
        if (p.r > p.b + 40.0f) flame.push_back(p);
    ASSERT_GE(flame.size(), 200u) << "no flame: " << flame.size() << " warm pixels";
    std::sort(flame.begin(), flame.end(),
              [](const Rgb& a, const Rgb& b) { return a.luma() > b.luma(); });
    const std::size_t tenth = flame.size() / 10;
    const Rgb core = mean({flame.begin(), flame.begin() + tenth});
    const Rgb edge = mean({flame.end() - tenth, flame.end()});
    // The core bright and yellow to white: blue above a deep red's, below
    // the old white blob's (about red's).
    EXPECT_GT(core.r, 180.0f) << "core " << core.r << " " << core.g << " " << core.b;
    EXPECT_GT(core.g, 0.5f * core.r) << "core " << core.r << " " << core.g << " " << core.b;
    EXPECT_GT(core.b, 0.15f * core.r) << "core " << core.r << " " << core.g << " " << core.b;
    EXPECT_LT(core.b, 0.75f * core.r) << "core " << core.r << " " << core.g << " " << core.b;
    // The edges orange to red: green well under red.
    EXPECT_LT(edge.g, 0.7f * edge.r) << "edge " << edge.r << " " << edge.g << " " << edge.b;

    // Soot: pixels far darker than the sky and the ground behind them.
    std::size_t soot = 0;
    for (const Rgb& p : px) soot += p.luma() < 50.0f;
    EXPECT_GE(soot, 200u) << "no dark soot";
}

}  // namespace
}  // namespace plume
