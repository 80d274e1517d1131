// render-vdb and sparse VDBs: the renderer holds a volume densely over its
// active box, so a sparse grid whose smoke is far apart would need that whole
// box. One that fits renders; one that cannot is refused in one line naming
// the file, before any output is written, never with std::bad_alloc.
#include <gtest/gtest.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/png.h"
#include "support/run.h"
#include "support/sanitizer.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::scratchDir;

// A sparse density grid: two cubes of smoke 8 voxels wide, the second offset
// from the first by 'apart' voxels.
void writeTwoBlobs(const fs::path& path, openvdb::Coord apart) {
    openvdb::initialize();
    auto grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("density");
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    grid->setTransform(openvdb::math::Transform::createLinearTransform(0.01));
    grid->fill(openvdb::CoordBBox(openvdb::Coord(0), openvdb::Coord(7)), 2.0f);
    grid->fill(openvdb::CoordBBox(apart, apart.offsetBy(7)), 2.0f);
    openvdb::io::File file(path.string());
    file.write({grid});
    file.close();
}

// Under ASan the binary runs uncapped (tests/support/sanitizer.h): its
// allocator then refuses a huge allocation at once by itself.
using test::kAddressSanitizer;

// Runs plume with its address space capped (4 GiB unless said), so a dense
// allocation of a huge box fails at once instead of pushing the machine into swap.
test::RunResult runPlumeCapped(const std::string& args, const fs::path& dir, int capKiB = 4 << 20) {
    const fs::path outFile = dir / "stdout.txt", errFile = dir / "stderr.txt";
    const std::string cap = kAddressSanitizer ? "" : "ulimit -v " + std::to_string(capKiB) + " && ";
    const std::string cmd = "cd '" + dir.string() + "' && " + cap + "'" PLUME_BINARY "' " + args +
                            " > '" + outFile.string() + "' 2> '" + errFile.string() +
                            "' < /dev/null";
    const int raw = std::system(cmd.c_str());
    test::RunResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.err = test::capture("cat '" + errFile.string() + "'");
    return r;
}

// 100008 voxels a side: about 4 PB of floats as one dense box.
TEST(RenderVdbMemory, RefusesABoxTooLargeToHoldInOneLine) {
    const fs::path dir = scratchDir("render_vdb_huge_box");
    writeTwoBlobs(dir / "far.vdb", openvdb::Coord(100000));
    const test::RunResult r = runPlumeCapped(
        "render-vdb far.vdb -o out.mp4 --png frames --set render.width=64 --set "
        "render.height=36 -q",
        dir);
    EXPECT_EQ(r.status, 2) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
    EXPECT_EQ(r.err.rfind("far.vdb: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("100008x100008x100008 voxels"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" GiB"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
    // Refused before anything was written.
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"far.vdb", "stderr.txt", "stdout.txt"}));
}

// A 500^3 box (500 MB of density) fits this machine, so render-vdb tries it;
// with the process held to 512 MiB the dense copy fails, and says so in one line
// naming the file and the box.
TEST(RenderVdbMemory, AFailedAllocationNamesTheFileAndBox) {
    if (kAddressSanitizer)
        GTEST_SKIP() << "needs an address-space cap, which AddressSanitizer cannot run under "
                        "(the Release build runs it)";
    const fs::path dir = scratchDir("render_vdb_failed_allocation");
    writeTwoBlobs(dir / "wide.vdb", openvdb::Coord(492));
    const test::RunResult r = runPlumeCapped(
        "render-vdb wide.vdb -o out.mp4 --set render.width=64 --set render.height=36 -q", dir,
        512 << 10);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.err,
              "plume: error: cannot read 'wide.vdb': grid 'density' spans 500x500x500 voxels, "
              "more than can be allocated as a dense box\n");
}

// Two blobs 300 voxels apart along x: a sparse grid whose dense box fits
// renders both, as before.
TEST(RenderVdbMemory, RendersASparseBoxThatFits) {
    const fs::path dir = scratchDir("render_vdb_sparse_box");
    writeTwoBlobs(dir / "pair.vdb", openvdb::Coord(300, 0, 0));
    const test::RunResult r = runPlumeCapped(
        "render-vdb pair.vdb -o out.mp4 --png frames --set render.width=160 --set "
        "render.height=90 -q",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(listDir(dir / "frames"), (std::vector<std::string>{"pair_0001.png"}));
    // The camera frames the box from -Y: one blob near each side of the frame,
    // clear background (the same on a whole row) between them.
    const Image image = readPng((dir / "frames" / "pair_0001.png").string());
    const int y = image.height / 2;
    auto differsFromGap = [&](int x0, int x1) {
        const uint8_t* gap = image.pixel(image.width / 2, y);
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 3; ++c)
                if (image.pixel(x, y)[c] != gap[c]) return true;
        return false;
    };
    EXPECT_TRUE(differsFromGap(0, image.width / 4));
    EXPECT_TRUE(differsFromGap(3 * image.width / 4, image.width));
}

}  // namespace
}  // namespace plume
