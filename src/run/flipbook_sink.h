// --flipbook DIR: the sampled frames of the run in one texture sheet,
// DIR/NAME_colour.png (or .exr, .tga), or with flipbook.kind = "six_way"
// Unity's lightmaps DIR/NAME_Positive.* and NAME_Negative.*
// (render/output/six_way.h); with flipbook.motion the motion vectors
// DIR/NAME_motion.png (16-bit) or .exr; and the sidecar DIR/NAME.json
// (render/output/flipbook.h). The sheet is written once, whole, after the
// last frame: an interrupted run leaves none.
#pragma once

#include <string>
#include <vector>

#include "core/image.h"
#include "render/output/color_space.h"
#include "render/output/flipbook.h"
#include "run/frame_sink.h"
#include "scene/scene.h"

namespace plume {

// The scene as a flipbook renders it: each frame its cell's frame, square,
// on a transparent background (what --png then writes too).
void applyFlipbook(Scene& scene);

class FlipbookSink : public FrameSink {
  public:
    // The shot is frames first..last (indices from 1); throws InputError when
    // the sheet wants more frames than that.
    FlipbookSink(std::string dir, const Scene& scene, int first, int last);
    Takes takes() const override { return Takes::Rgba; }
    unsigned needs() const override;
    bool takesFrame(int index) const override { return layout_.cellOf(index) >= 0; }
    std::vector<std::string> folders() const override { return {dir_}; }
    void consume(const Frame& frame) override;
    void finish() override;
    std::string keptOnInterrupt() const override;
    std::string wrote() const override;

    std::string sheetPath() const;
    // NAME_<suffix>.<the sheet's extension> in DIR.
    std::string pathOf(const std::string& suffix) const;
    std::string motionPath() const;
    std::string sidecarPath() const;

  private:
    // The six-way maps and the motion of cell `cell` into their sheets.
    void placeMaps(int cell, const Frame& frame);
    void writeSixWay();
    void writeMotion();

    std::string dir_;
    FlipbookLayout layout_;
    FlipbookInfo info_;
    float exposure_;
    std::shared_ptr<const WorkingSpace> space_;
    Image sheet8_;               // PNG and TGA
    std::vector<float> sheetF_;  // EXR
    // Six-way: the lightmaps' sheets as linear floats, RGBA, whatever the format.
    std::vector<float> positive_, negative_;
    // Motion: sheet UV from each cell to the next, u right and v up, two floats a pixel.
    std::vector<float> motion_;
    std::vector<bool> done_;
    int placed_ = 0;
    bool written_ = false;
};

}  // namespace plume
