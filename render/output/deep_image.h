// How the renderer makes a deep image (core/deep_image.h: each pixel a list
// of premultiplied RGBA samples over spans of depth, front to back). The
// march's parts are merged into a few samples a pixel (mergeSegments), and
// the samples conformed to the flat beauty (conformToPixel), so that the deep
// image flattened front to back is the beauty.
#pragma once

#include <cstdint>
#include <vector>

#include "core/deep_image.h"
#include "core/vec.h"

namespace plume {

// Samples a pixel at most: a solid's surface and the background take one
// each, the smoke the rest.
constexpr int kMaxDeepSamples = 16;

// One part of a ray as the march integrated it (render/march/segment_trace.h):
// [z0, z1] in metres along the ray, the radiance it added to the ray's sum
// (already dimmed by what lies in front), the transmittance in front of it
// and its own. A solid's surface is a part with z0 == z1.
struct RaySegment {
    float z0 = 0, z1 = 0;
    Vec3f added{0.0f};
    float before = 1.0f, transmittance = 1.0f;
    bool solid = false;
};

// Merges a ray's parts into at most `maxSamples` deep samples: the smoke in
// runs of about equal shares of its opacity, each solid surface a sample of
// its own. A run of parts is one sample exactly: alpha 1 - (the run's
// transmittance), colour the light the run adds divided by the
// transmittance in front of it; so the samples flatten to what the parts
// summed to, however they are merged. Appends to `out`.
void mergeSegments(const std::vector<RaySegment>& parts, int maxSamples,
                   std::vector<DeepSample>& out);

// Makes a pixel's samples flatten to the beauty's pixel (its radiance and
// transmittance): where the beauty was not the centre ray alone (a filled
// pixel, an anti-aliased edge, sparks drawn over it) the alphas are bent
// (a solid's, or the smoke's as a power) and the colours scaled to it;
// light with no sample to carry it gets one at `entry` metres.
void conformToPixel(std::vector<DeepSample>& samples, size_t first, Vec3f radiance,
                    float transmittance, float entry);

// Front-to-back "over" of n samples: premultiplied RGBA.
void flattenSamples(const DeepSample* samples, size_t n, float rgba[4]);

}  // namespace plume
