// Frame file names (io/frame_name.h), the one place they are made: what the
// sinks write, the farm's scripts read back, and expandSequence finds.
#include "io/frame_name.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/sequence.h"
#include "support/run.h"

namespace plume {
namespace {

TEST(FrameName, FourDigitsMorePastTheirEnd) {
    EXPECT_EQ(frameFileName("frames", "smoke", 1, ".png"), "frames/smoke_0001.png");
    EXPECT_EQ(frameFileName("frames/", "smoke", 42, ".exr"), "frames/smoke_0042.exr");
    EXPECT_EQ(frameFileName("", "smoke", 7, ".vdb"), "smoke_0007.vdb");
    EXPECT_EQ(frameFileName("c", "smoke", 12345, ".vdb"), "c/smoke_12345.vdb");
    EXPECT_EQ(frameFilePattern("job/frames", "smoke", ".png"), "job/frames/smoke_####.png");
}

TEST(FrameName, ThePatternFindsTheNames) {
    const std::filesystem::path dir = test::scratchDir("frame_name_pattern");
    for (int frame : {1, 2, 10})
        std::ofstream(frameFileName(dir.string(), "smoke", frame, ".png")) << "x";
    const std::vector<SequenceFile> files =
        expandSequence(frameFilePattern(dir.string(), "smoke", ".png"), "PNG");
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[2].frame, 10);
    EXPECT_EQ(files[2].path, frameFileName(dir.string(), "smoke", 10, ".png"));
}

}  // namespace
}  // namespace plume
