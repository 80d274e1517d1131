#include "render/filter.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

float pixelsPerVoxel(const CameraSettings& camera, int height, const VolumeView& volume) {
    const Vec3f centre = (volume.worldMin() + volume.worldMax()) * 0.5f;
    // The image height spans 2 tan(fov / 2) per unit of distance.
    const float distance = length(centre - camera.position);
    const float halfHeight = std::tan(0.5f * camera.fov * std::numbers::pi_v<float> / 180.0f);
    const float pixelSize = std::max(distance, 1e-6f) * 2.0f * halfHeight / float(height);
    return volume.dx / pixelSize;
}

bool useCubicFilter(RenderFilter filter, const CameraSettings& camera, int height,
                    const VolumeView& volume) {
    switch (filter) {
        case RenderFilter::Linear:
            return false;
        case RenderFilter::Cubic:
        case RenderFilter::Sharp:
            return true;
        case RenderFilter::Auto:
            break;
    }
    return pixelsPerVoxel(camera, height, volume) > kCubicPixelsPerVoxel;
}

}  // namespace plume
