// plume preview's runs: the scene simulated and rendered small, in the
// background, anew on every save. A newer save cancels the run before it at
// its next frame; the page reads the newest run's frames as they arrive.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace plume {

struct PreviewSettings {
    std::string scenePath;
    std::vector<std::string> overrides;  // --set
    int resolution = 32;                 // the domain's cells along its longest side, at most
    int width = 480;                     // the frame's width, at most (the scene's aspect)
    std::string frames;                  // --frames A-B ("" : every frame)
};

class PreviewRuns {
  public:
    explicit PreviewRuns(PreviewSettings settings);
    ~PreviewRuns();
    PreviewRuns(const PreviewRuns&) = delete;
    PreviewRuns& operator=(const PreviewRuns&) = delete;

    // A save at `savedAt` (the file's time): cancels the run in flight and
    // starts another; the time to its first frame counts from the save.
    void request(std::chrono::system_clock::time_point savedAt);
    // Every file the last loaded scene reads (the scene file first), to watch.
    std::vector<std::string> watchedFiles() const;
    // The newest run as JSON: its number, frames so far, error, statistics.
    std::string stateJson() const;
    // Frame `frame` (from 1) of run `generation` as PNG bytes; false when the
    // run is not the newest or the frame is not there yet.
    bool framePng(int generation, int frame, std::string& png) const;
    // A line for the terminal when a run finished since the last call ("" if none).
    std::string takeNews();

    // Called by the run's frame sink (preview_runs.cpp).
    void addFrame(int generation, std::string png, double simSeconds, double renderSeconds,
                  int substeps, int iterations);

  private:
    using Clock = std::chrono::system_clock;
    struct FrameStats {
        double sim = 0, render = 0;
        int substeps = 0, iterations = 0;
    };
    void work();
    void runOnce(int generation);

    PreviewSettings settings_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    int wanted_ = 0;      // the newest save's run
    int generation_ = 0;  // the run the page shows (its frames below)
    bool running_ = false, stopping_ = false;
    Clock::time_point requested_;
    double firstFrameSeconds_ = -1;  // from the save to the run's first frame
    double allFramesSeconds_ = -1;
    std::string error_, sceneName_, news_;
    int total_ = 0, width_ = 0, height_ = 0;
    double fps_ = 24;
    std::vector<std::string> pngs_;
    std::vector<FrameStats> stats_;
    std::vector<std::string> watched_;
    std::thread worker_;
};

}  // namespace plume
