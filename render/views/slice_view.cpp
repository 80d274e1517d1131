#include "render/views/slice_view.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <memory>

#include "core/error.h"
#include "core/parallel.h"
#include "render/camera.h"
#include "render/views/colour_bar.h"
#include "render/views/slice_sampler.h"
#include "render/views/streamlines.h"
#include "scene/shapes.h"

namespace plume {

namespace {

// Off the plane: a dark neutral, so the plane's edge reads against it.
constexpr float kBackground = 0.12f;
// Obstacles the plane cuts: mid grey, outside both maps' colours.
constexpr float kSolid = 0.5f;

// 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten, at least v: the bar's
// top moves in these steps only, so a sequence's bar holds still while its
// peak drifts, and the map still spans two thirds of the range or more.
float niceCeil(float v) {
    if (!(v > 0.0f) || !std::isfinite(v)) return 1.0f;
    const double decade = std::pow(10.0, std::floor(std::log10(double(v))));
    for (double m : {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
        if (m * decade >= double(v) * (1.0 - 1e-6)) return float(m * decade);
    return float(10.0 * decade);
}

Vec3f forwardOf(const CameraSettings& camera) {
    if (!camera.given) return {0.0f, 1.0f, 0.0f};  // frameBox looks along +y
    return camera.lookAt - camera.position;
}

void put(Image& image, int x, int y, Vec3f srgb) {
    uint8_t* p = image.pixel(x, y);
    p[0] = uint8_t(std::lround(std::clamp(srgb.x, 0.0f, 1.0f) * 255.0f));
    p[1] = uint8_t(std::lround(std::clamp(srgb.y, 0.0f, 1.0f) * 255.0f));
    p[2] = uint8_t(std::lround(std::clamp(srgb.z, 0.0f, 1.0f) * 255.0f));
}

std::string upper(std::string s) {
    for (char& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

}  // namespace

bool signedView(RenderView view) {
    return view == RenderView::Vorticity || view == RenderView::Pressure ||
           view == RenderView::Divergence;
}

std::string viewName(RenderView view) {
    static const char* names[] = {"shaded", "density",   "temperature", "flame",
                                  "speed",  "vorticity", "pressure",    "divergence"};
    return names[int(view)];
}

std::string viewUnits(RenderView view) {
    switch (view) {
        case RenderView::Speed:
            return "m/s";
        case RenderView::Vorticity:
        case RenderView::Divergence:
            return "1/s";
        case RenderView::Pressure:
            return "Pa";
        default:
            return "";  // density, temperature, flame: the scene's own units
    }
}

SliceSpec defaultSlice(const CameraSettings& camera, Vec3f lo, Vec3f hi) {
    const Vec3f f = forwardOf(camera);
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (std::fabs(f[a]) > std::fabs(f[axis])) axis = a;
    return {axis, 0.5f * (lo[axis] + hi[axis])};
}

SliceView::SliceView(const Scene& scene)
    : view_(scene.render.view),
      velocity_(scene.render.viewVelocity),
      fixedRange_(scene.render.viewRange),
      planeGiven_(!scene.render.slice.empty()),
      domainGiven_(scene.path != "<defaults>"),
      origin_(scene.domain.origin),
      domainLo_(scene.domain.origin),
      domainHi_(scene.domain.origin + scene.domain.size) {
    if (planeGiven_) {
        std::string why;
        const std::optional<SliceSpec> plane = parseSlice(scene.render.slice, &why);
        if (!plane) throw InputError("render.slice = \"" + scene.render.slice + "\": " + why);
        plane_ = *plane;
    } else if (domainGiven_) {
        // The middle across the view as the scene first shows it.
        plane_ = defaultSlice(scene.viewMoves() ? scene.atFrame(1.0).camera : scene.camera,
                              domainLo_, domainHi_);
        planeGiven_ = true;
    }
}

void SliceView::draw(const VolumeView& volume, const CameraSettings& cameraSettings,
                     const std::vector<ObstacleSettings>& obstacles, Image& image) {
    // The camera, volume and obstacles are in the domain's frame (positions
    // from its min corner, scene/placement.h); the plane is in the world's.
    const Vec3f lo = domainGiven_ ? domainLo_ - origin_ : volume.worldMin();
    const Vec3f hi = domainGiven_ ? domainHi_ - origin_ : volume.worldMax();
    if (!planeGiven_) {  // render-vdb without a scene: the first frame's volume
        plane_ = defaultSlice(cameraSettings, lo, hi);
        plane_.position += origin_[plane_.axis];
        planeGiven_ = true;
    }
    const int a = plane_.axis;
    const float at = plane_.position - origin_[a];  // the plane in the domain's frame
    const SliceSampler sampler(volume, view_, a, velocity_);
    const Camera camera(cameraSettings, image.width, image.height);

    // The obstacles where they are now; a mesh without its SDF (render-vdb
    // does not load meshes) is left out.
    std::vector<std::unique_ptr<PlacedShape>> shapes;
    for (const ObstacleSettings& o : obstacles)
        if (o.shape != Shape::Mesh || o.levelSet)
            shapes.push_back(std::make_unique<PlacedShape>(o));
    auto insideSolid = [&](Vec3f p) {
        for (const auto& s : shapes)
            if (s->signedDistance(p) < 0.0f) return true;
        return false;
    };

    // Each pixel's ray meets the plane; the field there, NaN off the plane.
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // the plane's own axes
    const int w = image.width, h = image.height;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    values_.assign(size_t(w) * h, nan);
    solid_.assign(size_t(w) * h, 0);
    parallelForRange(h, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x) {
                const Vec3f d = camera.direction(x, y);
                const Vec3f eye = camera.origin(x, y);
                if (std::fabs(d[a]) < 1e-8f) continue;
                const float t = (at - eye[a]) / d[a];
                if (!(t > 0.0f)) continue;
                Vec3f p = eye + d * t;
                p[a] = at;
                if (p[b] < lo[b] || p[b] > hi[b] || p[c] < lo[c] || p[c] > hi[c]) continue;
                const size_t n = size_t(y) * w + x;
                if (insideSolid(p)) {
                    solid_[n] = 1;
                    continue;
                }
                values_[n] = sampler.value(p);
            }
    });

    // The range: fixed by the scene, or the frame's peak rounded up.
    range_ = ViewRange{};
    range_.isSigned = signedView(view_);
    for (float v : values_)
        if (std::isfinite(v))
            range_.peak = std::max(range_.peak, range_.isSigned ? std::fabs(v) : v);
    range_.hi = fixedRange_ > 0.0f ? fixedRange_ : niceCeil(range_.peak);
    range_.lo = range_.isSigned ? -range_.hi : 0.0f;

    // Colour every pixel.
    const ColourMap map = range_.isSigned ? ColourMap::CoolWarm : ColourMap::Viridis;
    const float scale = 1.0f / (range_.hi - range_.lo);
    image = Image(w, h, 3);
    parallelForRange(h, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < w; ++x) {
                const size_t n = size_t(y) * w + x;
                const float v = values_[n];
                if (solid_[n])
                    put(image, x, y, Vec3f(kSolid));
                else if (std::isnan(v))
                    put(image, x, y, Vec3f(kBackground));
                else
                    put(image, x, y, colourAt(map, (v - range_.lo) * scale));
            }
    });

    // Streamlines over it: white over viridis' dark end, near-black over
    // cool-warm's light middle.
    if (velocity_) {
        const StreamlinePlane plane{a, at, lo, hi};
        drawStreamlines(image, camera, plane, sampler, insideSolid,
                        range_.isSigned ? Vec3f(0.08f) : Vec3f(1.0f));
    }

    // The colour bar, its title naming the field and units, the plane under it.
    std::string title = upper(viewName(view_));
    if (view_ == RenderView::Vorticity) title += " " + std::string(1, char('X' + a));
    const std::string units = viewUnits(view_);
    if (!units.empty()) title += ", " + upper(units);
    const std::string caption =
        upper(std::string(1, char('x' + a))) + " = " + barNumber(plane_.position) + " M";
    drawColourBar(image, map, range_.lo, range_.hi, title, caption);
}

}  // namespace plume
