// [guide] (sim/guide.h): a bake at 64 cells guided by the real plume
// binary's 32-cell bake of the same scene keeps the preview's shape (its
// smoke above a density of 0.1 against the preview's, upsampled:
// intersection over union) and height, where the unguided bake rises past
// it; what a guide cannot be is refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

// A hot puff in a gentle cross wind: a coarse grid's smoke rises slower and
// spreads wider than a fine grid's.
const std::string kScene =
    "[domain]\nsize = [1.0, 1.0, 2.0]\nresolution = 64\n"
    "boundary = { all = \"open\", z_min = \"wall\" }\n"
    "[time]\nfps = 24\nframes = 30\nmax_substeps = 4\n"
    "[physics]\nvorticity = 0.2\nbuoyancy_heat = 0.5\nwind = [0.15, 0.0, 0.0]\n"
    "[[emitter]]\nshape = \"sphere\"\ncenter = [0.4, 0.5, 0.25]\nradius = 0.12\n"
    "density = 1.0\ntemperature = 1.5\nnoise = 0.2\n";

fs::path writeScene(const fs::path& dir) {
    const fs::path path = dir / "puff.toml";
    std::ofstream(path) << kScene;
    return path;
}

// Smoke above 0.1 in both frames over smoke above 0.1 in either, on the
// domain's cells at `cells` along x (each volume sampled at every cell
// centre, nothing outside its box).
double iou(const fs::path& a, const fs::path& b, int cells) {
    const LoadedVolume va = readVdbVolume(a.string()), vb = readVdbVolume(b.string());
    auto at = [](const LoadedVolume& v, Vec3f p) {
        const Vec3f q = (p - v.origin) / v.dx;
        if (q.x < 0 || q.y < 0 || q.z < 0 || q.x > float(v.density.nx()) ||
            q.y > float(v.density.ny()) || q.z > float(v.density.nz()))
            return 0.0f;
        return v.density.sample(q);
    };
    const float dx = 1.0f / float(cells);
    long both = 0, either = 0;
    for (int k = 0; k < 2 * cells; ++k)
        for (int j = 0; j < cells; ++j)
            for (int i = 0; i < cells; ++i) {
                const Vec3f p((i + 0.5f) * dx, (j + 0.5f) * dx, (k + 0.5f) * dx);
                const bool in_a = at(va, p) > 0.1f, in_b = at(vb, p) > 0.1f;
                both += in_a && in_b;
                either += in_a || in_b;
            }
    return either ? double(both) / double(either) : 0.0;
}

// The height of the smoke's centre of mass (metres).
double centreHeight(const fs::path& path) {
    const LoadedVolume v = readVdbVolume(path.string());
    double mass = 0, moment = 0;
    for (int k = 0; k < v.density.nz(); ++k)
        for (int j = 0; j < v.density.ny(); ++j)
            for (int i = 0; i < v.density.nx(); ++i) {
                mass += v.density(i, j, k);
                moment += v.density(i, j, k) * (v.origin.z + (k + 0.5) * v.dx);
            }
    return mass > 0 ? moment / mass : 0.0;
}

TEST(Guide, TheGuidedBakeKeepsThePreviewsShape) {
    const fs::path dir = scratchDir("guide_shape");
    writeScene(dir);
    auto r = runPlume("bake puff.toml --vdb preview -q --set domain.resolution=32", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("bake puff.toml --vdb plain -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("bake puff.toml --vdb guided -q --set 'guide.cache=\"preview/puff_####.vdb\"' "
                 "--set guide.weight=1 --set guide.blur=0.06",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path preview = dir / "preview/puff_0030.vdb";
    const double plain = iou(preview, dir / "plain/puff_0030.vdb", 64);
    const double guided = iou(preview, dir / "guided/puff_0030.vdb", 64);
    const double height = centreHeight(preview), plainHeight = centreHeight(dir / "plain/puff_0030.vdb"),
                 guidedHeight = centreHeight(dir / "guided/puff_0030.vdb");
    std::printf("frame 30 against the 32-cell preview: IoU unguided %.3f, guided %.3f; centre "
                "height %.3f m, unguided %.3f, guided %.3f\n",
                plain, guided, height, plainHeight, guidedHeight);
    EXPECT_GT(guided, plain + 0.06);
    EXPECT_GE(guided, 0.65);
    // Within a preview cell of its height, where the unguided bake is three above.
    EXPECT_LT(std::abs(guidedHeight - height), 1.0 / 32);
    EXPECT_GT(std::abs(plainHeight - height), 2.0 / 32);
}

TEST(Guide, TheSameForAnyThreadCount) {
    const fs::path dir = scratchDir("guide_threads");
    writeScene(dir);
    auto r = runPlume("bake puff.toml --vdb preview -q --set domain.resolution=32 --set "
                      "time.frames=12",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string guided =
        " -q --set time.frames=12 --set 'guide.cache=\"preview/puff_####.vdb\"' --set "
        "'output.vdb_precision=\"exact\"'";
    r = runPlume("bake puff.toml --vdb one --threads 1" + guided, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("bake puff.toml --vdb two --threads 2" + guided, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const LoadedVolume a = readVdbVolume((dir / "one/puff_0012.vdb").string(), "density", {"velocity"});
    const LoadedVolume b = readVdbVolume((dir / "two/puff_0012.vdb").string(), "density", {"velocity"});
    ASSERT_EQ(a.density.size(), b.density.size());
    EXPECT_TRUE(std::equal(a.density.data(), a.density.data() + a.density.size(), b.density.data()));
    for (int c = 0; c < 3; ++c)
        EXPECT_TRUE(std::equal(a.velocity[c].data(), a.velocity[c].data() + a.velocity[c].size(),
                               b.velocity[c].data()));
}

TEST(Guide, WhatCannotGuideIsRefused) {
    const fs::path dir = scratchDir("guide_refused");
    writeScene(dir);
    auto r = runPlume("bake puff.toml --vdb preview -q --set domain.resolution=32 --frames 1-10 "
                      "--set time.frames=10",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("bake puff.toml --vdb out -q --set 'guide.cache=\"preview/puff_####.vdb\"'", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("the frames it guides are 1-30, and 20 of them are not there (the "
                         "first: 11)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "puff_0001.vdb"));
    // Guiding frames 1-10 alone needs those frames alone.
    r = runPlume("bake puff.toml --vdb out -q --set time.frames=12 --set "
                 "'guide.cache=\"preview/puff_####.vdb\"' --set 'guide.frames=[1, 10]'",
                 dir);
    EXPECT_EQ(r.status, 0) << r.err;
    r = runPlume("bake puff.toml --vdb out -q --set 'guide.cache=\"none/puff_####.vdb\"'", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("--set guide.cache=\"none/puff_####.vdb\": error: 'guide.cache' = ", 0), 0u)
        << r.err;
    EXPECT_NE(r.err.find("bake the guide first"), std::string::npos) << r.err;
    // In the scene file: its line and column.
    std::ofstream(dir / "guided.toml") << kScene << "[guide]\ncache = \"later/puff_####.vdb\"\n";
    r = runPlume("bake guided.toml --vdb out -q", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("guided.toml:21:9: error: 'guide.cache'"), std::string::npos) << r.err;
    r = runPlume("bake puff.toml --vdb out -q --set guide.weight=2", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    // Into the guide's own folder: the bake would write over what it follows.
    r = runPlume("bake puff.toml --vdb preview -q --set time.frames=10 --set "
                 "'guide.cache=\"preview/puff_####.vdb\"'",
                 dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--vdb preview: error: it is the folder of the guide"), std::string::npos)
        << r.err;
}

}  // namespace
}  // namespace plume
