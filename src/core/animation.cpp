#include "core/animation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

namespace plume {

namespace {

// Component `axis` of a key's value (floats have one).
inline double component(float v, int) { return v; }
inline double component(Vec3f v, int axis) { return v[axis]; }

// Slope of the smooth curve at key k (value per frame) for one component:
// 0 at the ends and where the values turn; else the weighted harmonic mean of
// the two neighbouring secants, which keeps each piece monotone.
template <typename T>
double smoothSlope(const std::vector<Key<T>>& keys, std::size_t k, int axis) {
    if (k == 0 || k + 1 >= keys.size()) return 0.0;
    const double h0 = keys[k].frame - keys[k - 1].frame, h1 = keys[k + 1].frame - keys[k].frame;
    const double d0 = (component(keys[k].value, axis) - component(keys[k - 1].value, axis)) / h0;
    const double d1 = (component(keys[k + 1].value, axis) - component(keys[k].value, axis)) / h1;
    if (d0 * d1 <= 0.0) return 0.0;
    const double w0 = 2.0 * h1 + h0, w1 = h1 + 2.0 * h0;
    return (w0 + w1) / (w0 / d0 + w1 / d1);
}

// One component between keys k and k + 1 at fraction t of the way.
template <typename T>
double between(const std::vector<Key<T>>& keys, std::size_t k, double t, Interpolation mode,
               int axis) {
    const double y0 = component(keys[k].value, axis), y1 = component(keys[k + 1].value, axis);
    if (mode == Interpolation::Linear) return y0 + (y1 - y0) * t;
    // Cubic Hermite with slopes in value per frame, scaled to the interval.
    const double h = keys[k + 1].frame - keys[k].frame;
    const double m0 = smoothSlope(keys, k, axis) * h, m1 = smoothSlope(keys, k + 1, axis) * h;
    const double t2 = t * t, t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * y1 +
           (t3 - t2) * m1;
}

template <typename T>
T evaluate(const std::vector<Key<T>>& keys, double frame, Interpolation mode, T fallback) {
    if (keys.empty()) return fallback;
    if (frame <= keys.front().frame) return keys.front().value;
    if (frame >= keys.back().frame) return keys.back().value;
    // The key at or before `frame`; exactly on a key, that key's value.
    auto after = std::upper_bound(keys.begin(), keys.end(), frame,
                                  [](double f, const Key<T>& key) { return f < key.frame; });
    const std::size_t k = std::size_t(after - keys.begin()) - 1;
    if (frame == keys[k].frame) return keys[k].value;
    const double t = (frame - keys[k].frame) / (keys[k + 1].frame - keys[k].frame);
    if constexpr (std::is_same_v<T, float>) {
        return float(between(keys, k, t, mode, 0));
    } else {
        return Vec3f(float(between(keys, k, t, mode, 0)), float(between(keys, k, t, mode, 1)),
                     float(between(keys, k, t, mode, 2)));
    }
}

}  // namespace

float evaluateKeys(const std::vector<Key<float>>& keys, double frame, Interpolation mode,
                   float fallback) {
    return evaluate(keys, frame, mode, fallback);
}

Vec3f evaluateKeys(const std::vector<Key<Vec3f>>& keys, double frame, Interpolation mode,
                   Vec3f fallback) {
    return evaluate(keys, frame, mode, fallback);
}

}  // namespace plume
