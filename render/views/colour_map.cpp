#include "render/views/colour_map.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace plume {

namespace {

// matplotlib's viridis (van der Walt and Smith, CC0) at t = 0, 0.1, ..., 1:
// between these the sRGB blend strays from the 256-entry table by under two
// levels in 255.
constexpr Vec3f kViridis[] = {{0.267004f, 0.004874f, 0.329415f}, {0.282623f, 0.140926f, 0.457517f},
                              {0.253935f, 0.265254f, 0.529983f}, {0.206756f, 0.371758f, 0.553117f},
                              {0.163625f, 0.471133f, 0.558148f}, {0.127568f, 0.566949f, 0.550556f},
                              {0.134692f, 0.658636f, 0.517649f}, {0.266941f, 0.748751f, 0.440573f},
                              {0.477504f, 0.821444f, 0.318195f}, {0.741388f, 0.873449f, 0.149561f},
                              {0.993248f, 0.906157f, 0.143936f}};

// Moreland's "Diverging Color Maps for Scientific Visualization" (2009),
// cool-warm, at t = 0, 0.125, ..., 1, 8-bit sRGB.
constexpr Vec3f kCoolWarm[] = {{59, 76, 192},   {98, 130, 234},  {141, 176, 254},
                               {184, 208, 249}, {221, 221, 221}, {245, 196, 173},
                               {244, 154, 123}, {222, 96, 77},   {180, 4, 38}};

template <size_t N>
Vec3f blendTable(const Vec3f (&table)[N], float t, float scale) {
    const float x = std::clamp(t, 0.0f, 1.0f) * float(N - 1);
    const size_t i = std::min(size_t(x), N - 2);
    const float f = x - float(i);
    return (table[i] * (1.0f - f) + table[i + 1] * f) * scale;
}

}  // namespace

Vec3f colourAt(ColourMap map, float t) {
    if (!std::isfinite(t)) t = 0.0f;
    return map == ColourMap::Viridis ? blendTable(kViridis, t, 1.0f)
                                     : blendTable(kCoolWarm, t, 1.0f / 255.0f);
}

}  // namespace plume
