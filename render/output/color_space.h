// The working space the EXR frames are written in (output.color_space),
// through OpenColorIO. plume renders in it: the renderer's input colours
// (authored as linear Rec. 709) and its blackbody light are brought into it
// (render/renderer.cpp, render/light/planck.h), and the PNG and MP4 path takes
// it back to linear Rec. 709 before the tone map, so they stay sRGB. The only
// file that includes OpenColorIO is color_space.cpp.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "core/vec.h"

namespace plume {

struct Scene;

// A 3x3 matrix, row-major, acting on column vectors.
using Matrix3 = std::array<float, 9>;
Vec3f matrixTimes(const Matrix3& m, Vec3f c);

struct WorkingSpace {
    std::string name = "lin_rec709";
    std::string config;  // the config it came from: plume's, or $OCIO's file
    // True when it is linear Rec. 709 itself: nothing is converted, so the
    // default space gives the frames it always gave, bit for bit.
    bool rec709 = true;
    Matrix3 fromRec709{1, 0, 0, 0, 1, 0, 0, 0, 1};
    Matrix3 toRec709{1, 0, 0, 0, 1, 0, 0, 0, 1};
    // The EXR header's chromaticities: red, green, blue, white (x, y each).
    // A light's colour authored as linear Rec. 709 (a lamp's, the sky's) in this space.
    Vec3f in(Vec3f c) const { return rec709 ? c : matrixTimes(fromRec709, c); }
    // A reflectance (an albedo) the same way, white kept white: a space that
    // scales light (an exposure in a studio's config) scales no albedo.
    Vec3f albedo(Vec3f c) const { return rec709 ? c : matrixTimes(albedoFromRec709, c); }
    Matrix3 albedoFromRec709{1, 0, 0, 0, 1, 0, 0, 0, 1};  // fromRec709, each row over its sum
    std::array<float, 8> chromaticities{0.64f, 0.33f, 0.30f, 0.60f, 0.15f, 0.06f, 0.3127f, 0.3290f};
    // Working RGB to linear Rec. 709 in place, OpenColorIO's CPU processor
    // over `pixels` pixels of `channels` (3 or 4; alpha is left alone).
    void toRec709Pixels(float* data, long pixels, int channels) const;

    std::shared_ptr<const void> processor;  // OCIO::ConstCPUProcessorRcPtr (to Rec. 709)
};

// The working space `scene` names, from plume's config or the one $OCIO
// names; resolved once per name and config. A name the config does not
// hold is an InputError at output.color_space's place in the scene file.
std::shared_ptr<const WorkingSpace> workingSpace(const Scene& scene);

// The space of an EXR whose header has these chromaticities, from plume's
// config: linear Rec. 709, ACEScg (AP1) or ACES2065-1 (AP0); null for others.
std::shared_ptr<const WorkingSpace> workingSpaceOf(const std::array<float, 8>& chromaticities);

// plume's own config: share/plume/plume.ocio beside the executable (installed:
// PREFIX/bin/../share/plume; the build tree: BUILD/share/plume). "" when absent.
std::string shippedConfigPath();

}  // namespace plume
