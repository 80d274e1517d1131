// A killed bake resumes to the same cache; an interrupted render leaves a
// playable video. Both run the real binary and send it real signals.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "io/vdb_cache.h"
#include "support/run.h"

extern char** environ;

namespace plume {
namespace {

namespace fs = std::filesystem;
const std::string kGolden = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

// Starts plume in `dir` with stdout/stderr to files; returns its pid.
pid_t spawnPlume(std::vector<std::string> args, const fs::path& dir) {
    args.insert(args.begin(), PLUME_BINARY);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, (dir / "stdout.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, (dir / "stderr.txt").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string cwd = dir.string();
    posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    pid_t pid = -1;
    posix_spawn(&pid, PLUME_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

int waitStatus(pid_t pid) {
    int raw = 0;
    waitpid(pid, &raw, 0);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

// Waits up to a minute for `path` to exist.
bool waitFor(const fs::path& path) {
    for (int i = 0; i < 6000; ++i) {
        if (fs::exists(path)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// A file as it is on disk: a rewrite (through a temporary and a rename) gets a
// new inode and a new modification time even when its bytes come out the same.
struct FileIdentity {
    ino_t inode = 0;
    int64_t mtimeNs = 0;
    std::string bytes;
    bool operator==(const FileIdentity&) const = default;
};

FileIdentity identify(const fs::path& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return {};
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return {st.st_ino, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, ss.str()};
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string frameFile(const std::string& name, int frame) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s_%04d.vdb", name.c_str(), frame);
    return buf;
}

const std::vector<std::string> kSlowBake = {"--set", "domain.resolution=40", "--set",
                                            "time.frames=12", "-q"};

TEST(Interrupt, KilledBakeResumesBitIdentical) {
    fs::path dir = test::scratchDir("resume");
    std::vector<std::string> straight = {"bake", kGolden + "rising.toml", "--vdb", "straight"};
    straight.insert(straight.end(), kSlowBake.begin(), kSlowBake.end());
    ASSERT_EQ(waitStatus(spawnPlume(straight, dir)), 0);

    std::vector<std::string> killed = {"bake", kGolden + "rising.toml", "--vdb", "killed"};
    killed.insert(killed.end(), kSlowBake.begin(), kSlowBake.end());
    pid_t pid = spawnPlume(killed, dir);
    ASSERT_TRUE(waitFor(dir / "killed" / "rising_0004.vdb"));
    kill(pid, SIGKILL);
    ASSERT_EQ(waitStatus(pid), 128 + SIGKILL);
    ASSERT_FALSE(fs::exists(dir / "killed" / "rising_0012.vdb"))
        << "the bake finished before the kill";

    // Every frame the killed bake finished, as it is on disk before the resume.
    std::map<int, FileIdentity> before;
    for (int frame = 1; fs::exists(dir / "killed" / frameFile("rising", frame)); ++frame)
        before[frame] = identify(dir / "killed" / frameFile("rising", frame));

    std::vector<std::string> resumed = killed;
    resumed.push_back("--resume");
    ASSERT_EQ(waitStatus(spawnPlume(resumed, dir)), 0);

    // A resume, not a restart: it says where it starts, after the last frame
    // whose state was saved (that frame's file or the next may be on disk), and
    // leaves the frames before it as they were.
    const std::string err = slurp(dir / "stderr.txt");
    int saved = 0;
    ASSERT_EQ(std::sscanf(err.c_str(), "plume: resuming after frame %d", &saved), 1)
        << "no 'plume: resuming after frame N' first on stderr: '" << err << "'";
    EXPECT_GE(saved, 3) << err;
    EXPECT_GE(int(before.size()), saved) << "the state is ahead of the frames on disk: " << err;
    EXPECT_LE(int(before.size()), saved + 1) << "frames on disk beyond the saved state: " << err;
    for (int frame = 1; frame <= saved; ++frame)
        EXPECT_TRUE(identify(dir / "killed" / frameFile("rising", frame)) == before[frame])
            << frameFile("rising", frame) << " was rewritten by the resume (" << err << ")";
    for (int frame = 1; frame <= 12; ++frame) {
        const std::string name = frameFile("rising", frame);
        LoadedVolume a = readVdbVolume((dir / "straight" / name).string());
        LoadedVolume b = readVdbVolume((dir / "killed" / name).string());
        ASSERT_EQ(a.density.size(), b.density.size()) << name;
        EXPECT_EQ(a.density.values(), b.density.values()) << name;
        EXPECT_EQ(a.temperature.values(), b.temperature.values()) << name;
    }
    // Frames and the resume state; no temporary left behind by the kill.
    for (const auto& e : fs::directory_iterator(dir / "killed"))
        EXPECT_TRUE(e.path().extension() == ".vdb" || e.path().filename() == "rising.resume")
            << "left behind: " << e.path();
}

TEST(Interrupt, ResumeRefusesAChangedScene) {
    fs::path dir = test::scratchDir("resume_changed");
    auto r = test::runPlume("bake " + kGolden + "rising.toml --vdb cache --frames 1-2 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(
        "bake " + kGolden + "rising.toml --vdb cache --resume --set physics.vorticity=0.1 -q", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("scene changed"), std::string::npos) << r.err;
}

TEST(Interrupt, SigintDuringRenderLeavesAPlayableVideo) {
    fs::path dir = test::scratchDir("sigint");
    pid_t pid = spawnPlume(
        {"render", kGolden + "rising.toml", "-o", "out.mp4", "--png", "frames", "--report",
         "report.html", "--set", "domain.resolution=40", "--set", "time.frames=40", "-q"},
        dir);
    ASSERT_TRUE(waitFor(dir / "frames" / "rising_0003.png"));
    kill(pid, SIGINT);
    EXPECT_EQ(waitStatus(pid), 130);
    ASSERT_TRUE(fs::exists(dir / "out.mp4"));
    EXPECT_FALSE(fs::exists(dir / "frames" / "rising_0040.png"));
    std::string probe = test::capture(
        "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
        "stream=codec_name,nb_read_frames "
        "-of default=nw=1 '" +
        (dir / "out.mp4").string() + "' 2>&1");
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    int frames = 0;
    for (const auto& e : fs::directory_iterator(dir / "frames"))
        frames += e.path().extension() == ".png";
    EXPECT_NE(probe.find("nb_read_frames=" + std::to_string(frames)), std::string::npos)
        << probe << " (expected " << frames << " frames)";
    // The report too, with the frames done: the last of them ends its contact sheet.
    const std::string report = slurp(dir / "report.html");
    EXPECT_NE(report.find("Interrupted (signal 2) after frame " + std::to_string(frames) + ":"),
              std::string::npos);
    EXPECT_NE(report.find("alt=\"frame " + std::to_string(frames) + "\""), std::string::npos);
}

// Waits up to a minute for `path` to hold `text`.
bool waitForText(const fs::path& path, const std::string& text) {
    for (int i = 0; i < 6000; ++i) {
        if (slurp(path).find(text) != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TEST(Interrupt, BeforeTheFirstFrameLeavesTheVideoThatWasThere) {
    fs::path dir = test::scratchDir("sigint_before_first");
    auto r = test::runPlume("render " + kGolden + "rising.toml -o good.mp4 --set time.frames=3 -q",
                            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const FileIdentity before = identify(dir / "good.mp4");
    // Only the last of 200 frames is written: stopped while the ones before simulate.
    pid_t pid = spawnPlume({"render", kGolden + "rising.toml", "-o", "good.mp4", "--set",
                            "domain.resolution=48", "--set", "time.frames=200", "--frames",
                            "200-200"},
                           dir);
    ASSERT_TRUE(waitForText(dir / "stderr.txt", "frame 3/"));
    kill(pid, SIGINT);
    EXPECT_EQ(waitStatus(pid), 130);
    EXPECT_TRUE(identify(dir / "good.mp4") == before) << "the earlier video was replaced";
    const std::string err = slurp(dir / "stderr.txt");
    EXPECT_NE(err.find("; good.mp4 left as it was (no frame was finished)"), std::string::npos)
        << err;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"good.mp4", "stderr.txt", "stdout.txt"}));
}

TEST(Interrupt, SigtermDuringRenderVdbLeavesAPlayableVideo) {
    fs::path dir = test::scratchDir("sigterm_render_vdb");
    auto r = test::runPlume("bake " + kGolden + "rising.toml --vdb cache --frames 1-3 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // A long sequence for nothing: 300 frames hard-linked to the three baked ones
    // (about 5 s to render on one thread, so the signal comes well before the end).
    const int kFrames = 300;
    fs::create_directories(dir / "long");
    for (int frame = 1; frame <= kFrames; ++frame)
        fs::create_hard_link(dir / "cache" / frameFile("rising", 1 + (frame - 1) % 3),
                             dir / "long" / frameFile("rising", frame));
    pid_t pid =
        spawnPlume({"render-vdb", "long/rising_####.vdb", "-o", "out.mp4", "--png", "frames",
                    "--scene", kGolden + "rising.toml", "--set", "render.width=320", "--set",
                    "render.height=180", "--threads", "1", "-q"},
                   dir);
    ASSERT_TRUE(waitFor(dir / "frames" / "rising_0003.png"));
    kill(pid, SIGTERM);
    EXPECT_EQ(waitStatus(pid), 128 + SIGTERM);
    // The same message as render's: how far it got and where the frames are.
    const std::string err = slurp(dir / "stderr.txt");
    EXPECT_NE(err.find("plume: interrupted after frame "), std::string::npos) << err;
    EXPECT_NE(err.find("; out.mp4 holds the "), std::string::npos) << err;
    int frames = 0;
    for (const auto& e : fs::directory_iterator(dir / "frames"))
        frames += e.path().extension() == ".png";
    ASSERT_LT(frames, kFrames) << "render-vdb finished before the signal";
    std::string probe = test::capture(
        "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
        "stream=codec_name,nb_read_frames "
        "-of default=nw=1 '" +
        (dir / "out.mp4").string() + "' 2>&1");
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=" + std::to_string(frames)), std::string::npos)
        << probe << " (expected " << frames << " frames)";
}

}  // namespace
}  // namespace plume
