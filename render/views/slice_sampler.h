// SliceSampler: a slice view's field at a world point, read trilinearly from
// the volume's grids (each grid knows where its samples sit, so the
// solver's face velocities and a cache's cell-centred ones read alike).
#pragma once

#include "core/grid3.h"
#include "core/vec.h"
#include "core/volume.h"
#include "scene/scene.h"

namespace plume {

class SliceSampler {
  public:
    // Throws RunError naming the grid the view needs and the volume lacks.
    // axis: the plane's normal, whose vorticity component the view shows.
    SliceSampler(const VolumeView& volume, RenderView view, int axis, bool needsVelocity);

    // The field at pWorld (metres); units as viewUnits says.
    float value(Vec3f pWorld) const;
    // The velocity at pWorld, m/s (only with needsVelocity).
    Vec3f velocity(Vec3f pWorld) const;

  private:
    Vec3f toGrid(Vec3f pWorld) const { return (pWorld - origin_) / dx_; }
    Vec3f velocityAtGrid(Vec3f pGrid) const;
    float vorticity(Vec3f pGrid) const;

    RenderView view_;
    int axis_;
    Vec3f origin_;
    float dx_;
    const ScalarGrid* field_ = nullptr;  // density, temperature, flame, pressure, divergence
    const ScalarGrid* velocity_[3] = {nullptr, nullptr, nullptr};
};

}  // namespace plume
