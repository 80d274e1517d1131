// The PLY points reader (io/point_file.h): the three formats, the property
// types and names Blender and Houdini write, other elements skipped, and any
// damaged file refused in words, never a crash, a hang or a huge allocation.
#include "io/point_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/ply_writer.h"

namespace plume {
namespace {

using test::plyBytes;
using test::PlyLayout;

const std::vector<std::vector<double>> kRows = {{0.5, 1.0, 1.5, 0.1, 2.0, 0.0, -1.0},
                                                {-2.0, 0.25, 3.0, 0.3, 0.0, 0.5, 0.0}};

PlyLayout moving(const std::string& format, const std::string& size = "radius") {
    PlyLayout l;
    l.format = format;
    l.properties = {"x", "y", "z", size, "vx", "vy", "vz"};
    return l;
}

TEST(PointFile, ReadsAsciiAndBothByteOrders) {
    for (const std::string format : {"ascii", "binary_little_endian", "binary_big_endian"}) {
        for (const std::string type : {"float", "double"}) {
            PlyLayout layout = moving(format);
            layout.type = type;
            const PointFrame p = parsePlyPoints(plyBytes(kRows, layout), "p.ply");
            ASSERT_EQ(p.position.size(), 2u) << format << " " << type;
            EXPECT_EQ(p.position[1], Vec3f(-2.0f, 0.25f, 3.0f)) << format << " " << type;
            EXPECT_EQ(p.radius, (std::vector<float>{0.1f, 0.3f})) << format << " " << type;
            EXPECT_EQ(p.velocity[0], Vec3f(2.0f, 0.0f, -1.0f)) << format << " " << type;
        }
    }
}

TEST(PointFile, PscaleIsTheRadiusAndVelocityIsOptional) {
    PlyLayout layout;
    layout.properties = {"x", "y", "z", "pscale"};
    const PointFrame p = parsePlyPoints(plyBytes({{1, 2, 3, 0.25}}, layout), "p.ply");
    EXPECT_EQ(p.radius, std::vector<float>{0.25f});
    EXPECT_TRUE(p.velocity.empty());
    const PointFrame bare = parsePlyPoints(plyBytes({{1, 2, 3}}), "p.ply");
    EXPECT_TRUE(bare.radius.empty());
    EXPECT_TRUE(bare.velocity.empty());
}

TEST(PointFile, IntegerPropertiesAndElementsBeforeTheVerticesAreRead) {
    // Little-endian: an edge element of two int pairs and a list before the
    // vertices, vertices of int x and short y, a double z and a uchar flag.
    std::string bytes =
        "ply\nformat binary_little_endian 1.0\nobj_info made by hand\n"
        "element edge 2\nproperty int a\nproperty list uchar int b\n"
        "element vertex 1\nproperty int x\nproperty short y\nproperty double z\n"
        "property uchar flag\nend_header\n";
    auto put = [&](const void* v, std::size_t n) { bytes.append(static_cast<const char*>(v), n); };
    for (int e = 0; e < 2; ++e) {
        const std::int32_t a = 7, b0 = 1, b1 = 2;
        const std::uint8_t count = 2;
        put(&a, 4), put(&count, 1), put(&b0, 4), put(&b1, 4);
    }
    const std::int32_t x = -3;
    const std::int16_t y = 4;
    const double z = 0.5;
    const std::uint8_t flag = 1;
    put(&x, 4), put(&y, 2), put(&z, 8), put(&flag, 1);
    const PointFrame p = parsePlyPoints(bytes, "p.ply");
    ASSERT_EQ(p.position.size(), 1u);
    EXPECT_EQ(p.position[0], Vec3f(-3.0f, 4.0f, 0.5f));
}

TEST(PointFile, AnElementOfNoPropertiesIsSkippedWhateverItsCount) {
    // Found by the PLY fuzzer: its trillions of empty rows were stepped one
    // by one (a 10 s timeout); they hold no bytes, so they are passed at once.
    const std::string bytes =
        "ply\nformat ascii 1.0\nelement nothing 8088888888888\nelement vertex 1\n"
        "property float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n";
    const PointFrame p = parsePlyPoints(bytes, "p.ply");
    ASSERT_EQ(p.position.size(), 1u);
    EXPECT_EQ(p.position[0], Vec3f(1.0f, 2.0f, 3.0f));
}

TEST(PointFile, NoVerticesIsAFrameWithoutParticles) {
    const PointFrame p = parsePlyPoints(plyBytes({}), "p.ply");
    EXPECT_TRUE(p.position.empty());
}

// Each damaged file gets its own words, naming the file.
TEST(PointFile, DamagedFilesAreRefusedInWords) {
    const std::string good = plyBytes(kRows, moving("binary_little_endian"));
    auto error = [](const std::string& bytes) {
        try {
            parsePlyPoints(bytes, "bad.ply");
        } catch (const GeometryError& e) {
            return std::string(e.what());
        }
        return std::string("(read)");
    };
    EXPECT_EQ(error(good.substr(0, good.size() - 3)), "'bad.ply': the data ends in vertex 1 of 2");
    EXPECT_EQ(error("solid cube\nfacet normal 0 0 1\n"),
              "'bad.ply': not a PLY file (it does not start with 'ply')");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"),
              "'bad.ply': not a PLY file (no end_header after 4 header lines)");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement face 0\nend_header\n"),
              "'bad.ply': the PLY file has no vertex element");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float "
                    "y\nend_header\n1 2\n"),
              "'bad.ply': the PLY vertex element has no x, y and z");
    EXPECT_EQ(error("ply\nformat binary_middle_endian 1.0\nend_header\n"),
              "'bad.ply': unknown format 'binary_middle_endian' (PLY header line 2)");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float128 x\nend_header\n"),
              "'bad.ply': unknown property type 'float128' (PLY header line 4)");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float "
                    "y\nproperty float z\nend_header\n1 two 3\n"),
              "'bad.ply': a value that is not a number in vertex 0 of 1");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float "
                    "y\nproperty float z\nend_header\n1 nan 3\n"),
              "'bad.ply': vertex 0 has y = nan (not a finite number)");
    EXPECT_EQ(error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float "
                    "y\nproperty float z\nproperty float radius\nend_header\n1 2 3 -1\n"),
              "'bad.ply': vertex 0 has a negative radius (-1.000000)");
    // A count the data cannot hold is refused before anything is allocated.
    EXPECT_EQ(error("ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty "
                    "float x\nproperty float y\nproperty float z\nend_header\n1234"),
              "'bad.ply': the data ends before vertex 4 of 4000000000");
}

// Fuzz-style: every cut and many random byte changes of valid files, ascii
// and binary, give points or a GeometryError (under the sanitizers in CI:
// no overflow, no huge allocation, no hang).
TEST(PointFile, DamagedBytesNeverCrash) {
    std::vector<std::string> seeds = {plyBytes(kRows, moving("ascii")),
                                      plyBytes(kRows, moving("binary_little_endian", "pscale")),
                                      plyBytes(kRows, moving("binary_big_endian"))};
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    int read = 0, refused = 0;
    auto tryParse = [&](const std::string& bytes) {
        try {
            parsePlyPoints(bytes, "fuzz.ply");
            ++read;
        } catch (const GeometryError&) {
            ++refused;
        }
    };
    for (const std::string& seed : seeds) {
        for (std::size_t cut = 0; cut < seed.size(); ++cut) tryParse(seed.substr(0, cut));
        for (int n = 0; n < 3000; ++n) {
            std::string bytes = seed;
            const int changes = 1 + int(next() % 4);
            for (int c = 0; c < changes; ++c) {
                const std::size_t at = next() % bytes.size();
                switch (next() % 3) {
                    case 0:
                        bytes[at] = char(next());
                        break;  // any byte
                    case 1:
                        bytes[at] = "0123456789 \n-.e"[next() % 15];
                        break;  // a digit or space
                    case 2:
                        bytes.insert(at, 1, char(next()));
                        break;
                }
            }
            tryParse(bytes);
        }
    }
    EXPECT_GT(read, 0);
    EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace plume
