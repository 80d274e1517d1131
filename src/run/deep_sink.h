// --deep DIR: a deep scanline EXR a frame, DIR/NAME_0001.exr ...
// (io/deep_exr.h), from the renderer's deep image (Renderer::deep).
#pragma once

#include <array>
#include <string>

#include "run/frame_sink.h"
#include "scene/scene.h"

namespace plume {

class DeepExrSink : public FrameSink {
  public:
    // Refuses a view other than "shaded" (a slice view has no depth) and the
    // folder of the flat EXR frames (`exrDir`), whose files have the same names.
    DeepExrSink(std::string dir, const Scene& scene, const std::string& exrDir);
    // Those refusals alone, before any sink makes a folder (FrameSinks).
    static void refuseBadUse(const std::string& dir, const Scene& scene, const std::string& exrDir);
    Takes takes() const override { return Takes::Rgba; }
    unsigned needs() const override { return kDeep; }
    std::vector<std::string> folders() const override { return {dir_}; }
    void consume(const Frame& frame) override;
    bool hasFrame(int frame) const override;
    std::string wrote() const override;

  private:
    std::string dir_, sceneName_;
    double fps_;
    std::array<float, 8> chromaticities_;  // the working space's (output.color_space)
    int written_ = 0;
};

}  // namespace plume
