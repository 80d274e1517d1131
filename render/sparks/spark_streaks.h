// Sparks in the frame (sim/sparks.h): each one a glowing streak in its
// blackbody colour, as long as its path over the shutter (|v| x shutter),
// seen through the smoke between it and the camera (the transmittance
// along that line, as the smoke hides anything) and hidden where a solid
// (an obstacle or the ground) is nearer along the camera's ray. Drawn after
// the march, into the traced frame's light and the EXR's `sparks` layer.
#pragma once

#include <vector>

#include "core/image.h"
#include "core/spark.h"
#include "core/volume.h"
#include "render/camera.h"
#include "render/solids/solid_scene.h"

namespace plume {

struct SparkLook {
    float extinction = 40.0f;  // render.extinction: 1/m per unit density
    float glow = 2.0f;         // radiance of a spark at kReferenceKelvin, per unit blackbody
    float shutter = 0.0f;      // seconds the streak spans
};

// A spark's radiance per unit glow at `kelvin` (linear RGB).
Vec3f sparkRadiance(float kelvin);

// Adds the sparks' light to image.rgb (premultiplied, before the background;
// the transmittance is left alone: a spark lights, it does not cover), and
// the same to `layer` (width * height * 3) when given. With `solids`, the
// parts of a streak behind the nearest solid surface are not drawn. The same
// image for any thread count: the sparks are measured in parallel, drawn in
// order.
void drawSparks(const SparkList& sparks, const Camera& camera, const VolumeView& volume,
                const SparkLook& look, LinearImage& image, std::vector<float>* layer = nullptr,
                const SolidScene* solids = nullptr);

// The transmittance from `from` to `to` (the volume's frame) through its density.
float sparkTransmittance(const VolumeView& volume, float extinction, Vec3f from, Vec3f to);

}  // namespace plume
