// Cache file names and the sequence patterns render-vdb accepts. The files are
// empty: expanding a pattern never opens them.
#include "io/sequence.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/error.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

// A folder holding `files`, removed afterwards.
class SequenceDir {
  public:
    explicit SequenceDir(std::initializer_list<std::string> files) : dir_("plume_seq_test") {
        for (const std::string& f : files) std::ofstream(dir_.path() / f) << "x";
    }
    std::string operator/(const std::string& name) const { return dir_.file(name); }
    std::string str() const { return dir_.path().string(); }

  private:
    test::TempDir dir_;
};

std::vector<int> frames(const std::vector<SequenceFile>& files) {
    std::vector<int> out;
    for (const SequenceFile& f : files) out.push_back(f.frame);
    return out;
}

TEST(Sequence, FramePathHasFourDigitsAndGrows) {
    EXPECT_EQ(cacheFramePath("cache", "smoke", 1), "cache/smoke_0001.vdb");
    EXPECT_EQ(cacheFramePath("cache/", "smoke", 42), "cache/smoke_0042.vdb");
    EXPECT_EQ(cacheFramePath("", "smoke", 7), "smoke_0007.vdb");
    EXPECT_EQ(cacheFramePath("c", "smoke", 12345), "c/smoke_12345.vdb");
}

TEST(Sequence, HashPatternSortsByFrame) {
    SequenceDir dir({"fluid_data_0010.vdb", "fluid_data_0002.vdb", "fluid_data_0001.vdb",
                     "fluid_data_10000.vdb", "fluid_data_00003.vdb", "fluid_data_7.vdb",
                     "fluid_noise_0001.vdb", "fluid_data_0004.vdb.tmp", "fluid.resume"});
    std::vector<SequenceFile> files = expandSequence(dir / "fluid_data_####.vdb");
    EXPECT_EQ(frames(files), (std::vector<int>{1, 2, 10, 10000}));
    EXPECT_EQ(files[0].path, dir / "fluid_data_0001.vdb");
    EXPECT_EQ(files[3].path, dir / "fluid_data_10000.vdb");
}

TEST(Sequence, PrintfPattern) {
    SequenceDir dir({"smoke_0003.vdb", "smoke_0001.vdb", "smoke_1.vdb"});
    EXPECT_EQ(frames(expandSequence(dir / "smoke_%04d.vdb")), (std::vector<int>{1, 3}));
    EXPECT_EQ(frames(expandSequence(dir / "smoke_%d.vdb")), (std::vector<int>{1}));
}

TEST(Sequence, SingleFileIsItself) {
    SequenceDir dir({"fluid_data_0007.vdb", "fluid_data_0008.vdb", "cloud.vdb"});
    std::vector<SequenceFile> files = expandSequence(dir / "fluid_data_0007.vdb");
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].path, dir / "fluid_data_0007.vdb");
    EXPECT_EQ(files[0].frame, 7);
    EXPECT_EQ(frames(expandSequence(dir / "cloud.vdb")), (std::vector<int>{1}));
}

TEST(Sequence, DirectoryTakesItsNumberedFiles) {
    SequenceDir dir({"smoke_0002.vdb", "smoke_0001.vdb", "smoke_0011.vdb", "smoke.resume",
                     "notes.txt", "smoke_0003.vdb.tmp"});
    std::vector<SequenceFile> files = expandSequence(dir.str());
    EXPECT_EQ(frames(files), (std::vector<int>{1, 2, 11}));
    EXPECT_EQ(files[2].path, dir / "smoke_0011.vdb");
}

TEST(Sequence, DirectoryWithTwoSequencesAsksForAPattern) {
    SequenceDir dir({"a_0001.vdb", "b_0001.vdb"});
    try {
        expandSequence(dir.str());
        FAIL() << "no error";
    } catch (const InputError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("a_####.vdb, b_####.vdb"), std::string::npos) << what;
    }
}

TEST(Sequence, NothingMatchingNamesThePattern) {
    SequenceDir dir({"smoke_0001.vdb"});
    for (std::string pattern : {dir / "fire_####.vdb", dir / "fire_%04d.vdb", dir / "fire_0001.vdb",
                                dir / "missing/smoke_####.vdb"}) {
        try {
            expandSequence(pattern);
            ADD_FAILURE() << "no error for " << pattern;
        } catch (const InputError& e) {  // a usage error: exit 2
            EXPECT_NE(std::string(e.what()).find("'" + pattern + "'"), std::string::npos)
                << e.what();
        }
    }
    SequenceDir empty({"readme.txt"});
    EXPECT_THROW(expandSequence(empty.str()), InputError);
}

}  // namespace
}  // namespace plume
