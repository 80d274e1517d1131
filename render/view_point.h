// Where light scattered toward the camera goes, in any frame of axes (world
// or grid units): to one eye, or along one direction for an orthographic
// camera, whose rays are all parallel.
#pragma once

#include "core/vec.h"

namespace plume {

struct ViewPoint {
    Vec3f eye;
    Vec3f forward{0.0f, 0.0f, 0.0f};
    bool parallel = false;  // orthographic: every ray along forward

    ViewPoint(Vec3f e) : eye(e) {}  // NOLINT: a perspective eye reads as its point
    static ViewPoint along(Vec3f forward) {
        ViewPoint v(Vec3f(0.0f));
        v.forward = forward;
        v.parallel = true;
        return v;
    }

    // The camera's unit direction through p (straight up at the eye itself).
    Vec3f toward(Vec3f p) const {
        if (parallel) return forward;
        const Vec3f toCell = p - eye;
        const float distance = length(toCell);
        return distance > 0.0f ? toCell / distance : Vec3f(0.0f, 0.0f, 1.0f);
    }
};

}  // namespace plume
