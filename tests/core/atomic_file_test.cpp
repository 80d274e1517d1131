// Files written through a temporary and a rename (core/atomic_file.h): the
// whole file or the old one, and never a temporary left behind.
#include "core/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/error.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> names(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(AtomicFile, WritesTheWholeFileAndNoTemporary) {
    const test::TempDir scratch("plume_atomic_whole");
    const fs::path& dir = scratch.path();
    const std::string path = (dir / "a.csv").string();
    writeFileAtomically(path, "old\n");
    writeFileAtomically(path, std::string("new\0bytes\n", 10));  // over an existing file
    EXPECT_EQ(slurp(path), std::string("new\0bytes\n", 10));
    EXPECT_EQ(names(dir), std::vector<std::string>{"a.csv"});
}

TEST(AtomicFile, AFailedWriteNamesThePathAndLeavesNothing) {
    const test::TempDir scratch("plume_atomic_missing");
    const fs::path& dir = scratch.path();
    const std::string path = (dir / "no_such_folder" / "a.png").string();
    try {
        writeFileAtomically(path, "x");
        FAIL() << "expected RunError";
    } catch (const RunError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write '" + path + "': No such file or directory");
    }
    EXPECT_TRUE(names(dir).empty());
}

TEST(AtomicFile, AnExceptionFromTheWriterRemovesTheTemporary) {
    const test::TempDir scratch("plume_atomic_throws");
    const fs::path& dir = scratch.path();
    const std::string path = (dir / "f.vdb").string();
    std::string temp;
    try {
        writeAtomically(path, [&](const std::string& tmp) {
            temp = tmp;
            std::ofstream(tmp) << "half a file";
            throw std::runtime_error("disk on fire");
        });
        FAIL() << "expected RunError";
    } catch (const RunError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write '" + path + "': disk on fire");
    }
    EXPECT_TRUE(temp.starts_with(path + ".tmp.")) << temp;
    EXPECT_TRUE(names(dir).empty()) << "left behind: " << names(dir).front();
}

TEST(AtomicFile, ARenameOverAFolderFailsAndRemovesTheTemporary) {
    const test::TempDir scratch("plume_atomic_folder");
    const fs::path& dir = scratch.path();
    fs::create_directories(dir / "out.mp4" / "inside");
    AtomicFile file((dir / "out.mp4").string(), ".partial");
    EXPECT_TRUE(file.tempPath().starts_with((dir / "out.mp4.partial.").string()))
        << file.tempPath();
    std::ofstream(file.tempPath()) << "video";
    EXPECT_THROW(file.commit(), RunError);
    EXPECT_FALSE(fs::exists(file.tempPath()));
}

TEST(AtomicFile, UncommittedIsRemovedCommittedStays) {
    const test::TempDir scratch("plume_atomic_scope");
    const fs::path& dir = scratch.path();
    {
        AtomicFile dropped((dir / "dropped").string());
        std::ofstream(dropped.tempPath()) << "x";
    }
    {
        AtomicFile kept((dir / "kept").string());
        std::ofstream(kept.tempPath()) << "y";
        kept.commit();
    }
    EXPECT_EQ(names(dir), std::vector<std::string>{"kept"});
    EXPECT_EQ(slurp(dir / "kept"), "y");
}

// Two writers of one output at once (a requeued farm task beside its
// straggler): each has a temporary of its own, and the last rename wins.
TEST(AtomicFile, EveryTemporaryNameIsItsWritersOwn) {
    const test::TempDir scratch("plume_atomic_two_writers");
    const fs::path& dir = scratch.path();
    const std::string path = (dir / "out.png").string();
    AtomicFile first(path), second(path);
    EXPECT_NE(first.tempPath(), second.tempPath());
    EXPECT_NE(temporaryPath(path), temporaryPath(path));
    // "path.tmp.<host>.<pid>.<n>": the process id keeps two runs apart.
    EXPECT_NE(first.tempPath().find("." + std::to_string(::getpid()) + "."), std::string::npos)
        << first.tempPath();
    std::ofstream(first.tempPath()) << "first";
    std::ofstream(second.tempPath()) << "second";
    first.commit();
    second.commit();  // the first's rename took nothing of the second's
    EXPECT_EQ(slurp(path), "second");
    EXPECT_EQ(names(dir), std::vector<std::string>{"out.png"});
}

// A killed run leaves its temporary; the next run removes it, but never one
// whose writer still runs (this process's own, a live one) or another host's.
TEST(AtomicFile, StaleTemporariesOfDeadWritersAreRemoved) {
    const test::TempDir scratch("plume_atomic_stale");
    const fs::path& dir = scratch.path();
    const std::string path = (dir / "a.resume").string();
    // A process that has exited and been reaped: its pid is free.
    const pid_t dead = fork();
    if (dead == 0) _exit(0);
    ASSERT_GT(dead, 0);
    int status = 0;
    waitpid(dead, &status, 0);

    // One that still runs (until the test ends).
    const pid_t live = fork();
    if (live == 0) {
        pause();
        _exit(0);
    }
    ASSERT_GT(live, 0);

    const std::string mine = temporaryPath(path);  // "<path>.tmp.<host>.<pid>.<n>"
    const std::string host = mine.substr(path.size() + 5, mine.find('.', path.size() + 5) -
                                                              path.size() - 5);
    const std::string stale = path + ".tmp." + host + "." + std::to_string(dead) + ".3";
    const std::string staleVdb = (dir / "a_0005.vdb").string() + ".tmp." + host + "." +
                                 std::to_string(dead) + ".1";
    const std::string otherHost = path + ".tmp.elsewhere-" + host + "." + std::to_string(dead) + ".1";
    const std::string running = path + ".tmp." + host + "." + std::to_string(live) + ".2";
    for (const std::string& p : {mine, stale, staleVdb, otherHost, running, path})
        std::ofstream(p) << "x";

    const int removed = removeStaleTemporaries(dir.string());
    kill(live, SIGKILL);
    waitpid(live, &status, 0);
    EXPECT_EQ(removed, 2);
    std::vector<std::string> kept = {"a.resume", fs::path(mine).filename().string(),
                                     fs::path(otherHost).filename().string(),
                                     fs::path(running).filename().string()};
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(names(dir), kept);
}

}  // namespace
}  // namespace plume
