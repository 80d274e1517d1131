// Simulates and renders every frame of a scene, as `plume render` does
// without its sinks: for tests that compare frames.
#pragma once

#include <vector>

#include "core/image.h"
#include "render/renderer.h"
#include "scene/scene.h"
#include "sim/solver.h"

namespace plume::test {

inline std::vector<Image> renderEveryFrame(const Scene& scene) {
    Solver solver(scene);
    Renderer renderer(scene);
    std::vector<Image> frames;
    for (int frame = 1; frame <= scene.time.frames; ++frame) {
        solver.advanceFrame(frame);
        frames.push_back(renderer.render(solver.fields().view(), frame));
    }
    return frames;
}

}  // namespace plume::test
