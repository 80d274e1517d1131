#include "render/solids/solid_motion_blur.h"

namespace plume {

BlurredSolids solidsOverShutter(const Scene& keyed, int frame, float shutterFrames,
                                const GroundSettings& ground, Vec3f center, float horizon,
                                const Camera& camera, int width, int height) {
    BlurredSolids out;
    std::vector<WorldBox> seen;
    for (int m = 0; m < kBlurTimes; ++m) {
        // Moments spread evenly over a shutter centred on the frame.
        const double at = double(frame) + shutterFrames * ((double(m) + 0.5) / kBlurTimes - 0.5);
        auto scene = std::make_unique<SolidScene>();
        scene->place(keyed.atFrame(at).obstacles, ground, center, horizon);
        if (scene->hasObstacles()) seen.push_back({scene->boundsMin(), scene->boundsMax()});
        out.scenes.push_back(std::move(scene));
    }
    out.pixels = screenBounds(camera, width, height, seen);
    return out;
}

}  // namespace plume
