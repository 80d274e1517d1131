// RayMarcher: integrates one camera ray through a frame's ShadingGrid
// (grid units): empty blocks skipped, every interval of render.step sampled at
// one offset (the ray's hashed jitter, or the midpoint in a B-spline frame:
// render/march/pixel_tracer.cpp rayOffset), dense intervals split so none is
// optically thick. A
// sample reads density trilinear, or through the tricubic B-spline
// (render/march/cubic.h) where a voxel covers several pixels, over the values or
// ("sharp") over their coefficients, and then temperature and flame the same way; the light it
// sends toward the camera, worked out per cell once a frame (InScattering::fillSource), the same
// way too, but for a fire's light, which the B-spline reads through Catmull-Rom. Worked out per
// sample instead (two exps and two divisions for a sun and the sky), that light would be a fifth of
// render-vdb's CPU time on the 128^3 bench frame.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/simd.h"
#include "render/light/in_scattering.h"
#include "render/light/planck.h"
#include "render/march/empty_space.h"
#include "render/march/ray.h"
#include "render/march/shading_grid.h"
#include "scene/scene.h"

namespace plume {

constexpr float kMinTransmittance = 1e-3f;  // a ray stops once the rest is invisible
constexpr float kMaxStepDepth = 0.25f;      // optical depth of one sample's interval, at most
// Behind this much smoke (transmittance below it) an interval may be twice
// as thick: what it gets wrong shows through at most a tenth. A ray through
// dense smoke splits its intervals to kMaxStepDepth all the way down to
// kMinTransmittance, and two thirds of those parts lie below 0.1: 40% of
// the 128^3 bench frames' samples. (Not stopping at 0.01 with the rest taken
// as the last part's light: the jitter of where each ray stops would show as
// grain over a dense close-up, RenderFilter.CubicCloseUpHasNoVoxelCreases.)
constexpr float kDeepTransmittance = 0.1f;
constexpr int kMaxSubsamples = 8;
// Intervals inside a flame (above this much of it) take this many samples.
constexpr float kFlameSplitAbove = 0.01f;
constexpr int kFlameSubsamples = 4;

// What a camera ray has gathered: radiance toward the camera, and the
// transmittance left for whatever lies behind the smoke.
struct RaySum {
    Vec3f radiance{0.0f};
    float transmittance = 1.0f;
};

// What a march tells a segment sink (marchSegments) of each part it
// integrates: the part [t0, t1] (grid units along the ray), the radiance it
// added to the ray's sum, the transmittance in front of it and its own. The
// beauty's march takes NoSegments, which compiles to nothing.
struct NoSegments {
    static constexpr bool kNone = true;
    void operator()(float, float, Vec3f, float, float) const {}
};

// How a sample reads the ShadingGrid: the weights type and where to get them.
// at() may first ask the empty space whether the lookup can see any density,
// and returns false, without weights, when it cannot.
struct LinearDensity {
    Trilinear light;
    GridPoint at;
    float operator()(const float* channel) const { return light(channel); }
    float density(const float* data) const { return light(data); }
    float glow(const float*, const float* channel) const { return light(channel); }
    simd::F4 source(const ShadingGrid& grid) const { return grid.sourceAt(at); }
};
struct LinearLookup {
    using Weights = LinearDensity;
    static bool at(const ShadingGrid& grid, const EmptySpace&, Vec3f pGrid, LinearDensity& w) {
        // The GridPoint gives weights(pGrid) bit for bit, and the source's too.
        w.at = grid.gridPoint(pGrid);
        w.light = grid.weights(w.at);
        return true;
    }
};
// Density and the light toward the camera through the B-spline, other
// channels trilinear (render/march/cubic.h says why), read only when asked for: a
// plain smoke reads none.
struct CubicDensity {
    float rho;
    GridPoint at;
    const ShadingGrid* grid;
    bool packed;  // source holds the light, read with the density (packsDensity)
    simd::F4 packedSource;
    float operator()(const float* channel) const { return grid->weights(at)(channel); }
    float density(const float*) const { return rho; }
    // A glowing field through the B-spline, like density, and like it at
    // least 0.
    float glow(const float* coefficients, const float*) const {
        return std::max(0.0f, bsplineSample(coefficients, grid->n(), at));
    }
    simd::F4 source(const ShadingGrid&) const {
        return packed ? packedSource : grid->smoothSourceAt(at);
    }
};
struct CubicLookup {
    using Weights = CubicDensity;
    static bool at(const ShadingGrid& grid, const EmptySpace& e, Vec3f pGrid, CubicDensity& w) {
        // One clamp and cell per axis serves the empty-space flag, the
        // density, the light and the trilinear weights.
        const GridPoint g = grid.gridPoint(pGrid);
        if (!e.cubicSeesDensity(g)) return false;
        w.at = g;
        w.grid = &grid;
        w.packed = grid.packsDensity();
        if (w.packed) {
            // Density in the fourth lane; no fire's light apart to add.
            const simd::F4 s = grid.bsplineSourceAt(g);
            w.rho = std::max(0.0f, s[3]);
            w.packedSource = simd::F4{s[0], s[1], s[2], 0.0f};
        } else {
            w.rho = grid.cubicDensity(g);
        }
        return true;
    }
};

// Marches camera rays through one frame's ShadingGrid (grid units), reading
// it through Lookup (LinearLookup or CubicLookup).
template <typename Lookup>
struct RayMarcher {
    using Weights = typename Lookup::Weights;

    const ShadingGrid& shading;
    const EmptySpace& emptySpace;
    const RenderSettings& settings;
    float sigmaPerVoxel;     // extinction per unit density times dx
    int temperatureChannel;  // -1: no emission
    int flameChannel;        // -1: glow wherever it is hot; else only where the flame is
    // The fire's light per unit of the source's fourth lane (its colour times
    // the smoke's), where fillSource put it apart; else 0.
    Vec3f fireLight{0.0f};
    float voxelMetres = 0.0f;  // dx: a flame's light is per metre

    // [t0, t1] of the ray in intervals of render.step, each sampled at the same
    // offset `jitter` inside it, until the smoke hides whatever is left.
    // Built twice, for every CPU and for AVX2 (its three-operand forms spare
    // the register copies of the 4x4x4 lookups; no FMA, so the same bits),
    // and chosen per ray.
    RaySum march(const Ray& ray, float t0, float t1, float jitter) const {
#if PLUME_HAS_AVX2_PATHS
        if (simd::avx2()) return marchAvx2(ray, t0, t1, jitter);
#endif
        return marchPortable(ray, t0, t1, jitter);
    }

    // Flattened: a call left on the per-sample path (trilinear weights,
    // in-scattering) spills every live float register and cost a quarter of
    // the frame time.
    [[gnu::flatten]] RaySum marchPortable(const Ray& ray, float t0, float t1, float jitter) const {
        return marchSteps(ray, t0, t1, jitter);
    }
#if PLUME_HAS_AVX2_PATHS
    [[gnu::flatten]] PLUME_AVX2 RaySum marchAvx2(const Ray& ray, float t0, float t1,
                                                 float jitter) const {
        return marchSteps(ray, t0, t1, jitter);
    }
#endif

    // march, telling `sink` every part (render/march/segment_trace.h: the deep
    // image and the motion pass). The same samples, in the same order.
    template <typename Sink>
    RaySum marchSegments(const Ray& ray, float t0, float t1, float jitter, Sink& sink) const {
        return marchSteps(ray, t0, t1, jitter, sink);
    }

    template <typename Sink = const NoSegments>
    RaySum marchSteps(const Ray& ray, float t0, float t1, float jitter,
                      Sink& sink = kNoSegments) const {
        RaySum sum;
        const float step = settings.step;
        for (int k = 0;;) {
            const float tk = t0 + float(k) * step;
            if (tk >= t1) break;
            const float t = std::min(tk + jitter * step, t1);
            const Vec3f p = ray.at(t);

            // Skip a block no sample inside can see density in.
            const Vec3i block = emptySpace.blockAt(p);
            if (emptySpace.empty(block)) {
                k = std::max(k + 1, int((emptySpace.exit(ray, block, t1) - t0) / step));
                continue;
            }
            const float ds = std::min(step, t1 - tk);
            ++k;

            integrateInterval(ray, tk, ds, jitter, p, sum, sink);
            if (sum.transmittance < kMinTransmittance) break;
        }
        return sum;
    }

    // The interval [tk, tk + ds] whose sample is at p. Dense smoke: split the
    // interval so no part is optically thicker than kMaxStepDepth; else the
    // jittered sample position shows as per-pixel noise on the surface of
    // thick puffs. The parts are fresh lookups: reusing p as one of them
    // (the sample that chose to split) showed as grain in a dense stem.
    template <typename Sink>
    void integrateInterval(const Ray& ray, float tk, float ds, float jitter, Vec3f p, RaySum& sum,
                           Sink& sink) const {
        const float* data = shading.data();
        Weights w0;
        if (!Lookup::at(shading, emptySpace, p, w0)) return;
        const float rho0 = w0.density(data);
        if (rho0 <= kEmptyDensity) return;
        const float depth = rho0 * sigmaPerVoxel * ds;
        const float maxDepth =
            sum.transmittance < kDeepTransmittance ? 2.0f * kMaxStepDepth : kMaxStepDepth;
        int parts =
            depth > maxDepth ? std::min(kMaxSubsamples, int(std::ceil(depth / maxDepth))) : 1;
        // A flame: blackbody light climbs steeply with temperature, so one
        // jittered sample per step shows its hot cores as grain.
        if (flameChannel >= 0 && w0(data + flameChannel) > kFlameSplitAbove)
            parts = std::max(parts, kFlameSubsamples);
        if (parts == 1) return addPart(w0, rho0, ds, sum, tk, sink);
        const float dsPart = ds / float(parts);
        for (int part = 0; part < parts; ++part) {
            const Vec3f pp = ray.at(tk + (float(part) + jitter) * dsPart);
            Weights w;
            if (!Lookup::at(shading, emptySpace, pp, w)) continue;
            const float rho = w.density(data);
            if (rho <= kEmptyDensity) continue;
            addPart(w, rho, dsPart, sum, tk + float(part) * dsPart, sink);
            if (sum.transmittance < kMinTransmittance) break;
        }
    }

    // One part of length ds with density rho, read through weights w.
    //
    // Two kinds of light leave it. The light the smoke scatters (and the
    // glow of hot smoke in a scene that burns nothing) is a source function:
    // so much per unit of the smoke's extinction, so thick smoke shows its
    // surface. A flame is an emitter of its own, thin (its own extinction,
    // kFlameDensity, is small): so much light per metre of flame, whatever
    // the soot around it, which only absorbs it on the way out, as Cycles'
    // Principled Volume emits (README "Fire"). Shaded as a source function
    // too, a flame came out only at the surface of its soot: a smooth,
    // evenly lit blob.
    template <typename Sink>
    void addPart(const Weights& w, float rho, float ds, RaySum& sum, float tStart,
                 Sink& sink) const {
        // Light the sample scatters and emits toward the camera.
        const float* data = shading.data();
        const simd::F4 scattered = w.source(shading);
        Vec3f source(scattered[0], scattered[1], scattered[2]);
        // Catmull-Rom overshoots below 0 beside a lone peak.
        source += fireLight * std::max(scattered[3], 0.0f);
        Vec3f emitted(0.0f);  // per grid unit of path
        if (temperatureChannel >= 0) {
            const float kelvin =
                w.glow(shading.temperatureCoefficients(), data + temperatureChannel) *
                settings.fireTemperature;
            if (flameChannel < 0) {
                // Hot smoke's glow, without a flame.
                source += blackbody(kelvin) * settings.heatGlow;
            } else {
                // Only where the flame burns, so cooled smoke stops glowing.
                const float flame = w.glow(shading.flameCoefficients(), data + flameChannel);
                if (flame > 0.0f)
                    emitted = flameRadiance(kelvin) * (settings.emission * flame * voxelMetres);
            }
        }

        // Exact integrals over the part: of a constant source, and of a
        // constant emission seen through the part's own smoke.
        const float depth = rho * sigmaPerVoxel * ds;
        const float stepTransmittance = std::exp(-depth);
        [[maybe_unused]] const Vec3f radianceBefore = sum.radiance;
        [[maybe_unused]] const float transmittanceBefore = sum.transmittance;
        sum.radiance += source * (sum.transmittance * (1.0f - stepTransmittance));
        if (emitted.x > 0.0f || emitted.y > 0.0f || emitted.z > 0.0f) {
            const float through = depth > 1e-4f ? (1.0f - stepTransmittance) / depth * ds : ds;
            sum.radiance += emitted * (sum.transmittance * through);
        }
        sum.transmittance *= stepTransmittance;
        if constexpr (!std::remove_cvref_t<Sink>::kNone)
            sink(tStart, tStart + ds, sum.radiance - radianceBefore, transmittanceBefore,
                 stepTransmittance);
    }

    static constexpr NoSegments kNoSegments{};
};

// Calls f with the frame's RayMarcher: the lookup traceImage chose (cubic:
// the B-spline's, else trilinear), its emission from `temperatureChannel`
// (-1: none) and the fire's light apart (ShadingGrid::smoothSourceAt; 0 in a
// trilinear frame, whose fire light is in the grid's light with the rest).
template <typename F>
void withMarcher(bool cubic, const ShadingGrid& shading, const EmptySpace& emptySpace,
                 const RenderSettings& settings, float dx, int temperatureChannel, int flameChannel,
                 Vec3f fireLight, F f) {
    const float sigmaPerVoxel = settings.extinction * dx;
    if (cubic)
        f(RayMarcher<CubicLookup>{shading, emptySpace, settings, sigmaPerVoxel, temperatureChannel,
                                  flameChannel, fireLight, dx});
    else
        f(RayMarcher<LinearLookup>{shading, emptySpace, settings, sigmaPerVoxel, temperatureChannel,
                                   flameChannel, fireLight, dx});
}

}  // namespace plume
