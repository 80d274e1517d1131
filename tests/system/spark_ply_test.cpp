// The sparks PLY beside each cache frame (io/spark_ply.h), read back with
// the test's own PLY parser: the same sparks as the frame's `sparks` grid,
// and gone when the scene is baked again without sparks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/vdb_sparks.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

constexpr const char* kScene = R"([domain]
size = [1.0, 1.0, 1.0]
resolution = 16
boundary.all = "open"

[time]
fps = 24
frames = 3

[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.4]
radius = 0.15
temperature = 0.5
density = 0.2
)";

struct Ply {
    std::vector<std::string> names;
    std::vector<float> values;  // vertex by vertex
    size_t count = 0;
};

// A binary little-endian PLY of float vertex properties, parsed here.
Ply readPly(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Ply ply;
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "ply");
    while (std::getline(in, line) && line != "end_header") {
        std::istringstream words(line);
        std::string word, type, name;
        words >> word;
        if (word == "format") {
            words >> type;
            EXPECT_EQ(type, "binary_little_endian");
        } else if (word == "element") {
            words >> name >> ply.count;
            EXPECT_EQ(name, "vertex");
        } else if (word == "property") {
            words >> type >> name;
            EXPECT_EQ(type, "float");
            ply.names.push_back(name);
        }
    }
    ply.values.resize(ply.count * ply.names.size());
    in.read(reinterpret_cast<char*>(ply.values.data()),
            std::streamsize(ply.values.size() * sizeof(float)));
    EXPECT_EQ(size_t(in.gcount()), ply.values.size() * sizeof(float));
    return ply;
}

TEST(SparkPly, BesideEachFrameAsTheGridHoldsThem) {
    test::TempDir dir("spark_ply");
    std::filesystem::create_directories(dir.path() / "with");
    std::filesystem::create_directories(dir.path() / "without");
    std::ofstream(dir.file("with/shot.toml"))
        << kScene << "sparks = 600.0\n\n[sparks]\ndrag = 1.0\n";
    std::ofstream(dir.file("without/shot.toml")) << kScene;
    ASSERT_EQ(test::runPlume("bake with/shot.toml --vdb cache --quiet", dir.path()).status, 0);
    for (int frame = 1; frame <= 3; ++frame) {
        const std::string stem =
            (dir.path() / "cache" / ("shot_000" + std::to_string(frame))).string();
        const Ply ply = readPly(stem + "_sparks.ply");
        EXPECT_EQ(ply.names, (std::vector<std::string>{"x", "y", "z", "vx", "vy", "vz", "age",
                                                       "temperature", "pscale"}));
        const SparkList grid = readVdbSparks(stem + ".vdb");
        ASSERT_EQ(ply.count, grid.size()) << "frame " << frame;
        EXPECT_GT(ply.count, 0u);
        // The same points, in any order: x y z and temperature, sorted by x.
        std::vector<std::array<float, 4>> a, b;
        for (size_t i = 0; i < ply.count; ++i) {
            const float* v = &ply.values[i * 9];
            a.push_back({v[0], v[1], v[2], v[7]});
        }
        for (const Spark& s : grid) b.push_back({s.p.x, s.p.y, s.p.z, s.temperature});
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        for (size_t i = 0; i < a.size(); ++i)
            for (int k = 0; k < 4; ++k)
                ASSERT_NEAR(a[i][k], b[i][k], k < 3 ? 1e-5f : 1.0f) << "frame " << frame;
    }
    // Baked again into the same folder without [sparks]: no stale sparks.
    ASSERT_EQ(test::runPlume("bake without/shot.toml --vdb cache --quiet", dir.path()).status, 0);
    for (int frame = 1; frame <= 3; ++frame)
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "cache" /
                                             ("shot_000" + std::to_string(frame) + "_sparks.ply")));
}

}  // namespace
}  // namespace plume
