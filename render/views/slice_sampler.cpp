#include "render/views/slice_sampler.h"

#include <string>

#include "core/error.h"
#include "render/views/slice_view.h"

namespace plume {

namespace {

std::string missing(RenderView view, const std::string& grid) {
    return "render.view = \"" + viewName(view) + "\": the volume has no " + grid + " grid";
}

}  // namespace

SliceSampler::SliceSampler(const VolumeView& volume, RenderView view, int axis, bool needsVelocity)
    : view_(view), axis_(axis), origin_(volume.origin), dx_(volume.dx) {
    switch (view) {
        case RenderView::Shaded:
        case RenderView::Density:
            field_ = volume.density;
            break;
        case RenderView::Temperature:
            if (!(field_ = volume.temperature)) throw RunError(missing(view, "temperature"));
            break;
        case RenderView::Flame:
            if (!(field_ = volume.flame)) throw RunError(missing(view, "flame"));
            break;
        case RenderView::Pressure:
            if (!(field_ = volume.pressure)) throw RunError(missing(view, "pressure"));
            break;
        case RenderView::Divergence:
            if (!(field_ = volume.divergence)) throw RunError(missing(view, "divergence"));
            break;
        case RenderView::Speed:
        case RenderView::Vorticity:
            needsVelocity = true;
            break;
    }
    if (needsVelocity) {
        if (!volume.velocity[0] || !volume.velocity[1] || !volume.velocity[2])
            throw RunError(missing(view, "velocity"));
        for (int c = 0; c < 3; ++c) velocity_[c] = volume.velocity[c];
    }
}

Vec3f SliceSampler::velocityAtGrid(Vec3f pGrid) const {
    return {velocity_[0]->sample(pGrid), velocity_[1]->sample(pGrid), velocity_[2]->sample(pGrid)};
}

Vec3f SliceSampler::velocity(Vec3f pWorld) const { return velocityAtGrid(toGrid(pWorld)); }

float SliceSampler::vorticity(Vec3f pGrid) const {
    // The curl's component along the plane's normal, by central differences
    // a cell either side: (b, c) are the in-plane axes in right-handed order,
    // omega_axis = d v_c / d b - d v_b / d c.
    const int b = (axis_ + 1) % 3, c = (axis_ + 2) % 3;
    Vec3f eb(0.0f), ec(0.0f);
    eb[b] = 1.0f;
    ec[c] = 1.0f;
    const float dvcDb = velocity_[c]->sample(pGrid + eb) - velocity_[c]->sample(pGrid - eb);
    const float dvbDc = velocity_[b]->sample(pGrid + ec) - velocity_[b]->sample(pGrid - ec);
    return (dvcDb - dvbDc) / (2.0f * dx_);
}

float SliceSampler::value(Vec3f pWorld) const {
    const Vec3f pGrid = toGrid(pWorld);
    switch (view_) {
        case RenderView::Speed:
            return length(velocityAtGrid(pGrid));
        case RenderView::Vorticity:
            return vorticity(pGrid);
        default:
            return field_->sample(pGrid);
    }
}

}  // namespace plume
