// plume preview's runs (preview/preview_runs.h): a newer save cancels the run in
// flight at its next frame, so the page shows the newest scene soon, not
// after the stale run has rendered to its end.
#include "preview/preview_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "support/temp_dir.h"

namespace plume {
namespace {

using Clock = std::chrono::steady_clock;

// The integer after "NAME": in the runs' state JSON.
int field(const std::string& json, const std::string& name) {
    const size_t at = json.find("\"" + name + "\":");
    return at == std::string::npos ? -1 : std::stoi(json.substr(at + name.size() + 3));
}

// A run of 120 small frames is under way (its first frames shown) when the
// scene is saved again: from the save on, the stale run adds no frame (the
// one it is rendering is its last), and the newer run starts.
TEST(PreviewRuns, ANewerSaveCancelsTheStaleRunAtItsNextFrame) {
    test::TempDir dir("preview_runs");
    const std::string scene = dir.file("live.toml");
    std::ofstream(scene) << "[domain]\nsize = [1.0, 1.0, 1.0]\nresolution = 12\n[time]\n"
                            "frames = 120\n[[emitter]]\ncenter = [0.5, 0.5, 0.3]\nradius = 0.2\n"
                            "[render]\nwidth = 32\nheight = 24\n";
    PreviewSettings settings;
    settings.scenePath = scene;
    settings.resolution = 12;
    settings.width = 32;
    PreviewRuns runs(settings);
    runs.request(std::chrono::system_clock::now());
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(60);
    std::string state = runs.stateJson();
    while (!(field(state, "generation") == 1 && field(state, "frames") >= 2) &&
           Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        state = runs.stateJson();
    }
    ASSERT_EQ(field(state, "generation"), 1) << state;
    ASSERT_EQ(field(state, "total"), 120) << state;
    runs.request(std::chrono::system_clock::now());
    // The stale run's frames, as long as the page still shows it.
    state = runs.stateJson();
    const int shown = field(state, "frames");
    if (field(state, "generation") == 1)
        ASSERT_LT(shown, 100) << "the run was nearly done before the second save: " << state;
    int most = shown;
    while (field(state, "generation") == 1 && Clock::now() < deadline) {
        most = std::max(most, field(state, "frames"));
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        state = runs.stateJson();
    }
    EXPECT_EQ(most, shown) << "the stale run went on after the save";
    // The newer run shows its own frames, to its end.
    while (!(field(state, "generation") == 2 &&
             state.find("\"running\":false") != std::string::npos) &&
           Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        state = runs.stateJson();
    }
    EXPECT_EQ(field(state, "generation"), 2) << state;
    EXPECT_EQ(field(state, "frames"), 120) << state;
    EXPECT_EQ(runs.takeNews().rfind("preview 2: 120 frames", 0), 0u);
}

}  // namespace
}  // namespace plume
