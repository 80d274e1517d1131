#include "render/march/filter.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

float pixelsPerVoxel(const CameraSettings& camera, int height, const VolumeView& volume,
                     float aspect) {
    // Orthographic: the image width spans ortho_width at every distance.
    if (camera.orthographic()) return volume.dx / (camera.orthoWidth / (aspect * float(height)));
    const Vec3f centre = (volume.worldMin() + volume.worldMax()) * 0.5f;
    // The image height spans 2 tan(fov / 2) per unit of distance.
    const float distance = length(centre - camera.position);
    const float halfHeight = camera.halfHeight(aspect);
    const float pixelSize = std::max(distance, 1e-6f) * 2.0f * halfHeight / float(height);
    return volume.dx / pixelSize;
}

bool useCubicFilter(RenderFilter filter, const CameraSettings& camera, int height,
                    const VolumeView& volume, float aspect) {
    switch (filter) {
        case RenderFilter::Linear:
            return false;
        case RenderFilter::Cubic:
        case RenderFilter::Sharp:
            return true;
        case RenderFilter::Auto:
            break;
    }
    return pixelsPerVoxel(camera, height, volume, aspect) > kCubicPixelsPerVoxel;
}

int fillStride(float pixelsPerVoxel) {
    int stride = 1;
    while (stride < kMaxFillStride && float(2 * stride) <= pixelsPerVoxel) stride *= 2;
    return stride;
}

}  // namespace plume
