// The files a run writes frame by frame beside its caches (run/cache_sinks.h):
// PNG and EXR frames, the video and the stats table. Each constructor checks its path before any
// simulation work and throws RunError naming it.
#pragma once

#include <array>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "render/output/color_space.h"
#include "run/frame_sink.h"
#include "scene/scene.h"

namespace plume {

class VideoEncoder;

// The video's frame rate: output.fps, or time.fps when it is 0.
double videoFps(const Scene& scene);

// DIR/NAME_0001.png per written frame: the video's opaque frame, or with
// render.transparent an RGBA PNG of what is in front of the background.
class PngSink : public FrameSink {
  public:
    PngSink(std::string dir, const Scene& scene);
    ~PngSink() override;
    Takes takes() const override { return transparent_ ? Takes::Rgba : Takes::Image; }
    std::vector<std::string> folders() const override { return {dir_}; }
    // Compresses and writes the frame on a thread of its own, beside the
    // video's encoding and the next frame's rendering (libspng is serial);
    // a failed write is thrown by the next consume or by finish.
    void consume(const Frame& frame) override;
    void finish() override;
    bool hasFrame(int frame) const override;
    std::string wrote() const override;

  private:
    void waitForWrite();

    std::string dir_, sceneName_;
    bool transparent_;
    int width_, height_;
    float exposure_;
    std::shared_ptr<const WorkingSpace> space_;  // the straight-alpha path's way back to Rec. 709
    int written_ = 0;
    Image writing_;              // the frame being written
    std::future<void> pending_;  // its write
};

// DIR/NAME_0001.exr per written frame: linear half-float RGBA, premultiplied,
// not tone-mapped (io/exr_file.h); alpha 0 background with render.transparent.
// Its header carries the video's frame rate (videoFps).
class ExrSink : public FrameSink {
  public:
    ExrSink(std::string dir, const Scene& scene);
    Takes takes() const override { return Takes::Rgba; }
    unsigned needs() const override { return kPasses; }  // render.passes are its layers
    std::vector<std::string> folders() const override { return {dir_}; }
    void consume(const Frame& frame) override;
    bool hasFrame(int frame) const override;
    std::string wrote() const override;

  private:
    std::string dir_, sceneName_;
    int width_, height_;
    double fps_;
    float exposure_;  // render.exposure, in the header for plume encode
    std::array<float, 8> chromaticities_;  // output.color_space's, for the header
    int written_ = 0;
};

// The MP4: created by open(), completed (and renamed into place) by finish().
class VideoSink : public FrameSink {
  public:
    VideoSink(std::string path, const Scene& scene);
    ~VideoSink() override;
    Takes takes() const override { return Takes::Image; }
    std::vector<std::string> folders() const override { return {folderOfFile(path_)}; }
    void open() override;
    void consume(const Frame& frame) override;
    void finish() override;
    std::string keptOnInterrupt() const override;
    std::string wrote() const override;
    int wroteOrder() const override { return 0; }  // first, as ffmpeg names its output

  private:
    std::string path_;
    int width_, height_;
    double fps_;
    OutputSettings settings_;
    bool hadFile_ = false;   // a file was at the path before the run: kept unless frames replace it
    bool finished_ = false;
    std::unique_ptr<VideoEncoder> video_;
};

// --stats FILE.csv: one row per simulated frame (the columns of
// report/stats_table.h), written when the run finishes or is interrupted.
// One frame's value per --stats column (report/stats_table.h's statsColumns).
std::vector<double> statsValues(const Frame& frame);

class StatsSink : public FrameSink {
  public:
    explicit StatsSink(std::string path);
    Takes takes() const override { return Takes::EveryFrame; }
    unsigned needs() const override { return kTotals; }
    std::vector<std::string> folders() const override { return {folderOfFile(path_)}; }
    void consume(const Frame& frame) override;
    void finish() override;
    std::string wrote() const override;

  private:
    std::string path_;
    std::string rows_;  // CSV lines, header first
};

}  // namespace plume
