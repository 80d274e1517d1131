// Outputs that are not regular files (core/atomic_file.h): a device or a FIFO
// given as an output is written in place, never replaced by a file; a format
// that seeks is refused for a FIFO up front in one line; and the temporaries
// a killed run left are removed by the next run into the same output, but
// never a live process's or another host's. Every device here is made by the
// test in its own folder (a char device 1,3, as /dev/null is), never the
// machine's /dev/null.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/atomic_file.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";
// Two small frames.
const std::string kSmall =
    " --set domain.resolution=12 --set render.width=32 --set render.height=18"
    " --set time.frames=2 -q";

// A char device 1,3 (what /dev/null is) at `path`, as root can make one.
// Returns why not when it cannot.
std::string makeNullDevice(const fs::path& path) {
    if (mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        return std::string("mknod: ") + std::strerror(errno);
    return {};
}

bool isNullDevice(const fs::path& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
           minor(st.st_rdev) == 3;
}

bool isFifo(const fs::path& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

void makeFifo(const fs::path& path) {
    ASSERT_EQ(mkfifo(path.c_str(), 0666), 0) << std::strerror(errno);
}

// The devices at `paths`, or the test skips (fails under PLUME_REQUIRE_ALL,
// as CI runs as root, where mknod is permitted).
#define MAKE_NULL_DEVICES(...)                                                     \
    for (const fs::path& device : std::vector<fs::path>{__VA_ARGS__}) {            \
        if (const std::string why = makeNullDevice(device); !why.empty()) {        \
            if (test::requireAll())                                                \
                FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)"; \
            GTEST_SKIP() << why << " (making a device needs root)";                \
        }                                                                          \
    }

// Reads a FIFO on a thread of its own while the run writes, as `cat fifo`
// beside it would. The FIFO is opened at once (not waiting for a writer), so
// the reader holds the FIFO itself even if a run replaced its name by a file.
class FifoReader {
  public:
    explicit FifoReader(const fs::path& path)
        : fd_(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)), thread_([this] { read(); }) {
        EXPECT_GE(fd_, 0) << path << ": " << std::strerror(errno);
    }
    // What came through: all a writer wrote, once it closed its end; call
    // after the run ended ("" if it never opened the FIFO).
    std::string text() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
        return text_;
    }
    ~FifoReader() {
        text();
        if (fd_ >= 0) close(fd_);
    }

  private:
    void read() {
        if (fd_ < 0) return;
        char buffer[65536];
        for (;;) {
            pollfd p{fd_, POLLIN, 0};
            poll(&p, 1, 20);
            const ssize_t n = ::read(fd_, buffer, sizeof buffer);
            if (n > 0) {
                text_.append(buffer, size_t(n));
                continue;
            }
            // Linux says POLLHUP only once a writer came and went.
            if ((n == 0 && (p.revents & POLLHUP)) || stop_) return;
        }
    }

    int fd_;
    std::string text_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

// `plume render -o DEV --stats DEV --report DEV` as users time a render:
// the whole run goes through, the output is discarded, and every device
// stays a device (it used to become a regular file).
TEST(OutputTargets, ADeviceTakesEveryOutputInPlace) {
    const fs::path dir = scratchDir("targets_device");
    MAKE_NULL_DEVICES(dir / "null_video", dir / "null_stats", dir / "null_report");
    auto r = runPlume(
        "render " + kScene + " -o null_video --stats null_stats --report null_report" + kSmall,
        dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    for (const char* name : {"null_video", "null_stats", "null_report"})
        EXPECT_TRUE(isNullDevice(dir / name)) << name << " is no longer the device";
    // Nothing beside them: no temporary, no file in their place.
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"null_report", "null_stats", "null_video",
                                                      "stderr.txt", "stdout.txt"}));
}

// A per-frame path that is a device: the PNG, EXR and VDB frames and the
// resume state of a bake go into it, and it stays the device.
TEST(OutputTargets, PerFrameFilesThatAreDevicesStayDevices) {
    const fs::path dir = scratchDir("targets_frames");
    for (const char* sub : {"png", "exr", "cache"}) fs::create_directories(dir / sub);
    MAKE_NULL_DEVICES(dir / "png" / "rising_0001.png", dir / "exr" / "rising_0001.exr",
                      dir / "cache" / "rising_0001.vdb", dir / "cache" / "rising.resume");
    auto r = runPlume("render " + kScene + " --no-video --png png --exr exr" + kSmall, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(isNullDevice(dir / "png" / "rising_0001.png"));
    EXPECT_TRUE(isNullDevice(dir / "exr" / "rising_0001.exr"));
    EXPECT_EQ(listDir(dir / "png"),
              (std::vector<std::string>{"rising_0001.png", "rising_0002.png"}));
    EXPECT_EQ(listDir(dir / "exr"),
              (std::vector<std::string>{"rising_0001.exr", "rising_0002.exr"}));
    EXPECT_TRUE(fs::is_regular_file(dir / "exr" / "rising_0002.exr"));

    r = runPlume("bake " + kScene + " --vdb cache" + kSmall, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(isNullDevice(dir / "cache" / "rising_0001.vdb"));
    EXPECT_TRUE(isNullDevice(dir / "cache" / "rising.resume"));
    EXPECT_TRUE(fs::is_regular_file(dir / "cache" / "rising_0002.vdb"));
    EXPECT_EQ(listDir(dir / "cache"),
              (std::vector<std::string>{"rising.resume", "rising_0001.vdb", "rising_0002.vdb"}));
}

// --stats and --report into FIFOs: streams, read by whoever holds the other
// end, and the FIFOs stay FIFOs.
TEST(OutputTargets, StatsAndReportStreamIntoFifos) {
    const fs::path dir = scratchDir("targets_fifo_stream");
    makeFifo(dir / "stats");
    makeFifo(dir / "report");
    FifoReader stats(dir / "stats"), report(dir / "report");
    auto r = runPlume(
        "render " + kScene + " --no-video --png png --stats stats --report report" + kSmall, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string csv = stats.text(), html = report.text();
    EXPECT_TRUE(csv.starts_with("frame,")) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;  // the header and two frames
    EXPECT_NE(html.find("<html"), std::string::npos) << html.substr(0, 200);
    EXPECT_TRUE(isFifo(dir / "stats"));
    EXPECT_TRUE(isFifo(dir / "report"));
}

// An MP4 (and an EXR or VDB frame) is written with seeks, which a FIFO cannot
// take: refused before any work, in one line, exit 2, the FIFO left as it is.
TEST(OutputTargets, ASeekingFormatIntoAFifoIsRefusedUpFront) {
    const fs::path dir = scratchDir("targets_fifo_refused");
    makeFifo(dir / "video.mp4");
    fs::create_directories(dir / "exr");
    fs::create_directories(dir / "cache");
    makeFifo(dir / "exr" / "rising_0002.exr");
    makeFifo(dir / "cache" / "rising_0001.vdb");
    // Readers at the other ends, so that a plume that did open a FIFO would
    // write into it and fail the test rather than wait for a reader forever.
    FifoReader video(dir / "video.mp4"), exr(dir / "exr" / "rising_0002.exr"),
        vdb(dir / "cache" / "rising_0001.vdb");
    struct Case {
        std::string args, path, format;
    };
    for (const Case& c :
         {Case{"render " + kScene + " -o video.mp4", "video.mp4", "an MP4"},
          Case{"render " + kScene + " --no-video --exr exr", "exr/rising_0002.exr", "an EXR"},
          Case{"bake " + kScene + " --vdb cache", "cache/rising_0001.vdb", "a VDB"}}) {
        auto r = runPlume(c.args + kSmall, dir);
        EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(r.err, "plume: error: cannot write '" + c.path + "': " + c.format +
                             " is written with seeks, and a FIFO cannot seek (write it to a "
                             "file)\n");
        EXPECT_TRUE(isFifo(dir / c.path));
    }
    // Up front: no frame was rendered before the refusal.
    EXPECT_EQ(listDir(dir / "exr"), std::vector<std::string>{"rising_0002.exr"});
    EXPECT_EQ(listDir(dir / "cache"), std::vector<std::string>{"rising_0001.vdb"});
    EXPECT_EQ(video.text() + exr.text() + vdb.text(), "") << "a FIFO was written";
}

// plume encode into a FIFO: refused the same way; into a device: written.
TEST(OutputTargets, EncodeIntoAFifoIsRefusedAndIntoADeviceWritten) {
    const fs::path dir = scratchDir("targets_encode");
    auto r = runPlume("render " + kScene + " --no-video --png png" + kSmall, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    makeFifo(dir / "video.mp4");
    FifoReader reader(dir / "video.mp4");
    r = runPlume("encode 'png/rising_####.png' -o video.mp4 -q", dir);
    EXPECT_EQ(reader.text(), "") << "the FIFO was written";
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err,
              "plume: error: cannot write 'video.mp4': an MP4 is written with seeks, and a FIFO "
              "cannot seek (write it to a file)\n");
    EXPECT_TRUE(isFifo(dir / "video.mp4"));
    MAKE_NULL_DEVICES(dir / "null");
    r = runPlume("encode 'png/rising_####.png' -o null -q", dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(isNullDevice(dir / "null"));
    EXPECT_EQ(listDir(dir),
              (std::vector<std::string>{"null", "png", "stderr.txt", "stdout.txt", "video.mp4"}));
}

// This host's tag in temporary names, as plume makes it.
std::string hostTag() {
    const std::string mine = temporaryPath("x");  // "x.tmp.<host>.<pid>.<n>"
    const size_t from = std::string("x.tmp.").size();
    return mine.substr(from, mine.find('.', from) - from);
}

// A process id free now: a child that has exited and been reaped.
pid_t deadPid() {
    const pid_t pid = fork();
    if (pid == 0) _exit(0);
    int status = 0;
    waitpid(pid, &status, 0);
    return pid;
}

// A run SIGKILLed while writing leaves its temporaries; the next run into
// the same outputs removes those of processes gone from this host, and
// leaves a live process's and another host's.
TEST(OutputTargets, TheNextRunRemovesAKilledRunsTemporaries) {
    const fs::path dir = scratchDir("targets_stale");
    fs::create_directories(dir / "png");
    const std::string host = hostTag();
    const pid_t dead = deadPid();
    const pid_t live = fork();
    if (live == 0) {
        pause();
        _exit(0);
    }
    ASSERT_GT(live, 0);
    auto temporary = [&](const std::string& path, const char* suffix, const std::string& h,
                         pid_t pid) {
        return path + suffix + "." + h + "." + std::to_string(pid) + ".1";
    };
    const std::vector<std::string> stale = {temporary("shot.mp4", ".partial", host, dead),
                                            temporary("stats.csv", ".tmp", host, dead),
                                            temporary("png/rising_0001.png", ".tmp", host, dead)};
    const std::vector<std::string> kept = {
        temporary("shot.mp4", ".partial", host, live),
        temporary("shot.mp4", ".partial", "elsewhere", dead),
        temporary("png/rising_0002.png", ".tmp", host, live),
        // Another output's, in the same folder: not this run's to clear.
        temporary("other.mp4", ".partial", host, dead)};
    for (const std::string& name : stale) std::ofstream(dir / name) << "half";
    for (const std::string& name : kept) std::ofstream(dir / name) << "half";

    auto r =
        runPlume("render " + kScene + " -o shot.mp4 --png png --stats stats.csv" + kSmall, dir);
    kill(live, SIGKILL);
    int status = 0;
    waitpid(live, &status, 0);
    EXPECT_EQ(r.status, 0) << r.err;
    for (const std::string& name : stale) EXPECT_FALSE(fs::exists(dir / name)) << name;
    for (const std::string& name : kept) EXPECT_TRUE(fs::exists(dir / name)) << name;
    EXPECT_TRUE(fs::is_regular_file(dir / "shot.mp4"));
}

// The same with a real plume run killed by SIGKILL in the middle of its
// video: its partial MP4 stays until the next run into that output.
TEST(OutputTargets, ASigkilledRunsPartialGoesWithTheNextRun) {
    const fs::path dir = scratchDir("targets_sigkill");
    const std::string cmd = "cd '" + dir.string() + "' && exec '" PLUME_BINARY "' render " +
                            kScene +
                            " -o shot.mp4 --set time.frames=400 --set domain.resolution=12"
                            " --set render.width=32 --set render.height=18 -q";
    const pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    ASSERT_GT(child, 0);
    // Until its partial MP4 is there (the header written), then SIGKILL.
    std::string partial;
    for (int i = 0; i < 600 && partial.empty(); ++i) {
        for (const std::string& name : listDir(dir))
            if (name.starts_with("shot.mp4.partial.")) partial = name;
        if (partial.empty()) usleep(50 * 1000);
    }
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_FALSE(partial.empty()) << "the run never started its video";
    ASSERT_TRUE(fs::exists(dir / partial)) << "SIGKILL leaves the partial";

    auto r = runPlume("render " + kScene + " -o shot.mp4" + kSmall, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"shot.mp4", "stderr.txt", "stdout.txt"}));
}

}  // namespace
}  // namespace plume
