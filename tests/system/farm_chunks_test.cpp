// Which frames each task of plume farm's render array renders (farm/farm_chunks.h):
// the tasks must cover frames 1..N exactly once, whether or not the chunk
// divides N. The ranges are computed in bash by the task itself, so the tests
// run that bash, and then the render.sh a dry run writes, task by task.
#include "farm/farm_chunks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

using Range = std::pair<int, int>;  // first, last (inclusive)

// "FIRST LAST" lines, one a task.
std::vector<Range> parseRanges(const std::string& out) {
    std::vector<Range> ranges;
    std::istringstream lines(out);
    for (Range r; lines >> r.first >> r.second;) ranges.push_back(r);
    return ranges;
}

// Every frame 1..frames in exactly one task's range, each task's range not
// empty, in task order.
testing::AssertionResult coverEachFrameOnce(const std::vector<Range>& ranges, int frames) {
    std::vector<int> renders(size_t(frames) + 2, 0);
    for (size_t t = 0; t < ranges.size(); ++t) {
        const auto [first, last] = ranges[t];
        if (first < 1 || last > frames || first > last)
            return testing::AssertionFailure() << "task " << t << " renders frames " << first << "-"
                                               << last << " of 1-" << frames;
        if (t > 0 && first != ranges[t - 1].second + 1)
            return testing::AssertionFailure()
                   << "task " << t << " starts at " << first << " after task " << t - 1
                   << " ended at " << ranges[t - 1].second;
        for (int f = first; f <= last; ++f) ++renders[size_t(f)];
    }
    for (int f = 1; f <= frames; ++f)
        if (renders[size_t(f)] != 1)
            return testing::AssertionFailure()
                   << "frame " << f << " is rendered by " << renders[size_t(f)] << " tasks";
    return testing::AssertionSuccess();
}

// (frames, chunk): chunks that divide N and that do not, a chunk of N, one
// larger than N, a chunk of 1, and a single frame.
const std::vector<std::pair<int, int>> kCases = {{8, 3},    {8, 4},    {12, 4}, {10, 3}, {97, 10},
                                                 {100, 10}, {7, 7},    {5, 10}, {6, 1},  {1, 1},
                                                 {1, 5},    {250, 24}, {24, 25}};

// The bash render.sh holds, run for every task of the array.
TEST(FarmChunks, EachTasksBashRangeCoversTheFramesOnce) {
    for (const auto& [frames, chunk] : kCases) {
        const FarmChunks chunks{frames, chunk};
        EXPECT_EQ(chunks.tasks(), (frames + chunk - 1) / chunk);
        std::string script = "set -uo pipefail\n";
        for (int task = 0; task < chunks.tasks(); ++task)
            script += "task=" + std::to_string(task) + "\n" + chunks.rangeBash() +
                      "echo \"$first $last\"\n";
        const fs::path file = test::scratchDir("farm_chunks") / "ranges.sh";
        std::ofstream(file) << script;
        const std::vector<Range> ranges =
            parseRanges(test::capture("bash '" + file.string() + "' 2>&1"));
        ASSERT_EQ(int(ranges.size()), chunks.tasks()) << frames << " frames, chunks of " << chunk;
        EXPECT_TRUE(coverEachFrameOnce(ranges, frames)) << frames << " frames, chunks of " << chunk;
    }
}

// A shot numbered from time.start_frame: the same chunks, renumbered.
TEST(FarmChunks, AShotFrom1001IsChunkedInItsNumbers) {
    const FarmChunks chunks{10, 4, 1001};
    std::string script = "set -uo pipefail\n";
    for (int task = 0; task < chunks.tasks(); ++task)
        script +=
            "task=" + std::to_string(task) + "\n" + chunks.rangeBash() + "echo \"$first $last\"\n";
    const fs::path file = test::scratchDir("farm_chunks_start") / "ranges.sh";
    std::ofstream(file) << script;
    EXPECT_EQ(parseRanges(test::capture("bash '" + file.string() + "' 2>&1")),
              (std::vector<Range>{{1001, 1004}, {1005, 1008}, {1009, 1010}}));
}

std::string text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The render.sh of `plume farm --dry-run`, run as Slurm would run each array
// task (SLURM_ARRAY_TASK_ID) up to the line that reports its frames. The
// farm's test hook PLUME_FARM_FAIL_ONCE=TASK then ends the task before it
// renders (outside Slurm nothing requeues it), so no plume runs.
TEST(FarmChunks, RenderScriptTasksCoverTheFramesOnce) {
    const std::string scene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";
    for (const auto& [frames, chunk] : {std::pair{8, 3}, {8, 4}, {1, 1}, {5, 10}, {9, 2}}) {
        const std::string what =
            std::to_string(frames) + " frames, chunks of " + std::to_string(chunk);
        const fs::path dir = test::scratchDir("farm_chunks_script");
        auto r = test::runPlume("farm " + scene + " --slurm -o shot.mp4 --dry-run --chunk " +
                                    std::to_string(chunk) +
                                    " --set time.frames=" + std::to_string(frames),
                                dir);
        ASSERT_EQ(r.status, 0) << r.err;
        const fs::path script = dir / "shot.farm" / "main" / "render.sh";
        const std::string body = text(script);
        const int tasks = FarmChunks{frames, chunk}.tasks();
        ASSERT_NE(body.find("#SBATCH --array=0-" + std::to_string(tasks - 1) + "\n"),
                  std::string::npos)
            << what << ":\n"
            << body;
        std::vector<Range> ranges;
        for (int task = 0; task < tasks; ++task) {
            const std::string t = std::to_string(task);
            const std::string out = test::capture(
                "cd '" + dir.string() +
                "' && env -u SLURM_ARRAY_JOB_ID -u SLURM_RESTART_COUNT SLURM_ARRAY_TASK_ID=" + t +
                " PLUME_FARM_FAIL_ONCE=" + t + " bash '" + script.string() + "' 2>/dev/null");
            const std::string said = "plume farm: task " + t + " renders frames ";
            const size_t at = out.find(said);
            ASSERT_NE(at, std::string::npos) << what << ", task " << t << ": " << out;
            Range range;
            char dash = 0;
            std::istringstream(out.substr(at + said.size())) >> range.first >> dash >> range.second;
            ASSERT_EQ(dash, '-') << out;
            ranges.push_back(range);
        }
        EXPECT_TRUE(coverEachFrameOnce(ranges, frames)) << what;
    }
}

}  // namespace
}  // namespace plume
