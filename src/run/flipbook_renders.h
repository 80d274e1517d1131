// The renders a six-way or motion flipbook takes beside the frame: the six
// lightmaps and the emission (render/output/six_way.h), and the motion pass
// of the unlit smoke. Each is plume's own Renderer of a modified scene,
// made for each frame in turn, so at most one is beside the frame's own.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "core/volume.h"
#include "render/output/six_way.h"
#include "scene/scene.h"

namespace plume {

// One frame's maps, premultiplied linear RGBA (Renderer::rgba) each; empty
// when not asked for.
struct FlipbookMaps {
    std::array<std::vector<float>, kSixWayLights> light;  // in SixWayLight's order
    std::vector<float> emission;
    // The motion pass: pixels a frame, u right and v up, two floats a pixel.
    std::vector<float> motion;
};

class FlipbookRenders {
  public:
    FlipbookRenders(const Scene& scene, bool sixWay, bool motion);
    ~FlipbookRenders();
    void trace(const VolumeView& volume, int renderIndex);
    const FlipbookMaps& maps() const { return maps_; }
    FlipbookMaps& maps() { return maps_; }  // a loop blends them (run/loop_blend.h)

  private:
    std::vector<Scene> lights_;  // in SixWayLight's order
    std::unique_ptr<Scene> emission_, motion_;
    FlipbookMaps maps_;
};

}  // namespace plume
