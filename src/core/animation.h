// Keyframed values: a curve through keys at (possibly fractional) frames.
//
// Linear: straight lines between keys. Smooth: a piecewise cubic through the
// keys (monotone Hermite, Fritsch and Carlson 1980), flat at the first and
// last key and at every key where the values turn, so it never overshoots a
// key, at the ends or anywhere else, as Blender's "auto clamped" handles do.
// Before the first key and after the last the value holds. At a key's frame
// the curve is that key's value exactly, so a frame on a key matches the
// static scene that holds that value bit for bit. Vectors interpolate per
// component (Euler angles too, as Blender's F-curves do).
#pragma once

#include <vector>

#include "core/vec.h"

namespace plume {

enum class Interpolation { Linear, Smooth };

template <typename T>
struct Key {
    double frame = 1;
    T value{};
};

// The value of keys (sorted by frame, no two at one frame) at `frame`;
// `fallback` when there are none.
float evaluateKeys(const std::vector<Key<float>>& keys, double frame, Interpolation mode,
                   float fallback);
Vec3f evaluateKeys(const std::vector<Key<Vec3f>>& keys, double frame, Interpolation mode,
                   Vec3f fallback);

}  // namespace plume
