// Glow of hot smoke: a colour ramp standing in for blackbody radiation.
#pragma once

#include "core/vec.h"

namespace plume {

// Radiance of opaque smoke at temperature t (per unit render.emission): dark
// red, orange, yellow, then white-hot, brightening all the way.
inline Vec3f blackbodyRamp(float t) {
    struct Key {
        float t;
        Vec3f c;
    };
    static constexpr Key kKeys[] = {{0.0f, {0.0f, 0.0f, 0.0f}},
                                    {0.2f, {0.12f, 0.008f, 0.0f}},
                                    {0.45f, {0.9f, 0.18f, 0.015f}},
                                    {0.7f, {2.2f, 0.9f, 0.18f}},
                                    {1.0f, {4.0f, 3.0f, 1.6f}}};
    if (t <= 0.0f) return {};
    if (t >= 1.0f) return kKeys[4].c * t;
    int i = 1;
    while (t > kKeys[i].t) ++i;
    float f = (t - kKeys[i - 1].t) / (kKeys[i].t - kKeys[i - 1].t);
    return kKeys[i - 1].c + (kKeys[i].c - kKeys[i - 1].c) * f;
}

}  // namespace plume
