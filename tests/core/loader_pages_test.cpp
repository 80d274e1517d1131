// The pages the dynamic linker read to load the libraries are let go, and
// every library still works after: OpenVDB writes and reads a grid back.
#include <gtest/gtest.h>

#include <openvdb/openvdb.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/loader_pages.h"

namespace plume {
namespace {

long residentFileKb() {
    FILE* status = std::fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status && std::fgets(line, sizeof line, status))
        if (std::strncmp(line, "RssFile:", 8) == 0) std::sscanf(line + 8, "%ld", &kb);
    if (status) std::fclose(status);
    return kb;
}

TEST(LoaderPages, AreLetGoAndTheLibrariesStillWork) {
    openvdb::initialize();
    const long before = residentFileKb();
    const long released = releaseLoaderPages();
    const long after = residentFileKb();
    // OpenVDB's symbol tables alone are some 25 MB.
    EXPECT_GT(released, 10000);
    EXPECT_LE(after, before - released / 2) << before << " KB before, " << released << " let go";

    auto grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("density");
    grid->tree().setValue(openvdb::Coord(1, 2, 3), 0.5f);
    const auto path = std::filesystem::path(PLUME_TEST_SCRATCH) / "loader_pages.vdb";
    std::filesystem::create_directories(path.parent_path());
    openvdb::io::File(path.string()).write({grid});
    openvdb::io::File file(path.string());
    file.open();
    auto back = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("density"));
    EXPECT_EQ(back->tree().getValue(openvdb::Coord(1, 2, 3)), 0.5f);
    // A second call finds the pages that came back for the write: few.
    EXPECT_LT(releaseLoaderPages(), released);
}

}  // namespace
}  // namespace plume
