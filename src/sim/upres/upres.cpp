#include "sim/upres/upres.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/activity.h"
#include "core/error.h"
#include "core/interpolation.h"
#include "core/noise.h"
#include "core/parallel.h"
#include "sim/active_box.h"
#include "sim/combustion.h"
#include "sim/diffusion.h"
#include "sim/dissipation.h"
#include "sim/emitters.h"
#include "sim/obstacles.h"
#include "sim/smoke_color.h"
#include "sim/upres/pattern_weights.h"
#include "sim/upres/unresolved_speed.h"
#include "sim/upres/wavelet_noise.h"

namespace plume {

namespace {

// Below this a fine value is nothing, as the solver's dissipation floors it:
// the smooth corrections would otherwise leave faint values over the whole
// box, and the advection skips only what is exactly its background.
constexpr float kNegligible = 1e-6f;
// The second octave is half the size, and weaker by Kolmogorov's spectrum:
// energy falls as k^(-5/3), a swirl's speed as 2^(-5/6) per halving.
constexpr int kOctaves = 2;
constexpr float kOctaveSpeed = 0.5612310f;  // 2^(-5/6)
// Noise samples per `scale` metres: the tile's band is two to four samples
// long, so a swirl `scale` across is about two samples.
constexpr float kSamplesPerScale = 2.0f;
// Base cells beyond the fine smoke that the stirring is worked out for: a
// frame's travel at the speeds smoke has (a few cells), and one more.
constexpr int kStirReach = 4;
// Base cells of room the fine box takes beyond what the smoke needs.
constexpr int kBoxSlack = 4;

// Copies `from` (over box `fromBox` of the domain) into `to` (over `toBox`),
// where the two overlap; the rest of `to` is `outside`.
void copyOver(const ScalarGrid& from, const Box3i& fromBox, ScalarGrid& to, const Box3i& toBox,
              float outside) {
    const Vec3i n = toBox.size();
    to.reshape(n.x, n.y, n.z, Vec3f(0.5f));  // in the room it has, if enough
    to.fill(outside);
    const Box3i both = intersect(fromBox, toBox);
    if (both.empty() || from.size() == 0) return;
    parallelForRange(both.hi.z - both.lo.z, [&](int z0, int z1) {
        for (int z = z0; z < z1; ++z) {
            const int k = both.lo.z + z;
            for (int j = both.lo.y; j < both.hi.y; ++j) {
                const float* src =
                    &from(both.lo.x - fromBox.lo.x, j - fromBox.lo.y, k - fromBox.lo.z);
                float* dst = &to(both.lo.x - toBox.lo.x, j - toBox.lo.y, k - toBox.lo.z);
                std::copy(src, src + (both.hi.x - both.lo.x), dst);
            }
        }
    });
}

// How far (base cells) the fine smoke may differ from a cache it is fed
// from, without a scene: its mass follows the cache's over boxes this many
// cells each way, so eddies smaller than that (the detail) are its own.
constexpr int kFeedReach = 4;

// A box filter `reach` cells each way along x, y and z in turn (clamped at
// the grid's ends): each cell the mean of its window along the line, summed
// in a fixed order (the same bits for any thread count).
void boxBlur(ScalarGrid& g, int reach, ScalarGrid& scratch) {
    const int size[3] = {g.nx(), g.ny(), g.nz()};
    const ptrdiff_t step[3] = {1, ptrdiff_t(g.nx()), ptrdiff_t(g.nx()) * g.ny()};
    for (int axis = 0; axis < 3; ++axis) {
        scratch.reshape(g.nx(), g.ny(), g.nz(), Vec3f(0.5f));
        const int a1 = axis == 0 ? 1 : 0, a2 = axis == 2 ? 1 : 2;
        const int len = size[axis];
        parallelForSlabs(size[a2], [&](int q) {
            for (int p = 0; p < size[a1]; ++p) {
                const ptrdiff_t start = ptrdiff_t(p) * step[a1] + ptrdiff_t(q) * step[a2];
                const float* in = g.data() + start;
                float* out = scratch.data() + start;
                for (int x = 0; x < len; ++x) {
                    const int lo = std::max(0, x - reach), hi = std::min(len - 1, x + reach);
                    float sum = 0.0f;
                    for (int y = lo; y <= hi; ++y) sum += in[ptrdiff_t(y) * step[axis]];
                    out[ptrdiff_t(x) * step[axis]] = sum / float(hi - lo + 1);
                }
            }
        });
        g.swap(scratch);
    }
}

// The place in the noise tile pattern `p` starts from after its renewal
// `epoch`: hashed, so every renewal shows a new pattern, the same on every run.
Vec3f patternOffset(int p, long epoch) {
    const int e = int(epoch & 0x7fffffff);
    auto unit = [&](int axis) {
        return float(noise_detail::hash3(e, p, axis + 7) >> 8) * (1.0f / 16777216.0f);
    };
    return Vec3f(unit(0), unit(1), unit(2)) * float(WaveletNoise::kTile);
}

}  // namespace

UpresInput UpresInput::fromParts(const std::vector<const Fields*>& parts) {
    UpresInput in;
    in.assign(parts);
    return in;
}

void UpresInput::assign(const std::vector<const Fields*>& parts) {
    UpresInput& in = *this;
    const Fields& first = *parts.front();
    in.dx = first.dx;
    in.domainOrigin = first.domainOrigin();
    in.domainCells = first.domainSize();
    in.box = Box3i{};
    for (const Fields* p : parts) in.box = unite(in.box, p->box());
    const Vec3i n = in.box.size();
    // In the room the grids have (no new pages frame after frame); 0 between parts.
    auto grid = [&](ScalarGrid& g) {
        g.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        if (parts.size() > 1) g.fill(0.0f);
    };
    grid(in.density);
    grid(in.temperature);
    if (first.burns()) {
        grid(in.fuel);
        grid(in.flame);
    }
    if (first.colored())
        for (ScalarGrid& c : in.color) grid(c);
    for (ScalarGrid& c : in.velocity) grid(c);
    for (const Fields* p : parts) {
        const Fields& f = *p;
        const Vec3i o{f.offset.x - in.box.lo.x, f.offset.y - in.box.lo.y, f.offset.z - in.box.lo.z};
        parallelForSlabs(f.n.z, [&](int k) {
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    const int I = o.x + i, J = o.y + j, K = o.z + k;
                    in.density(I, J, K) = f.density(i, j, k);
                    in.temperature(I, J, K) = f.temperature(i, j, k);
                    if (in.burns()) {
                        in.fuel(I, J, K) = f.fuel(i, j, k);
                        in.flame(I, J, K) = f.flame(i, j, k);
                    }
                    if (in.colored() && f.colored())
                        for (int c = 0; c < 3; ++c) in.color[c](I, J, K) = f.color[c](i, j, k);
                    const Vec3f v = f.centredVelocity(i, j, k);
                    in.velocity[0](I, J, K) = v.x;
                    in.velocity[1](I, J, K) = v.y;
                    in.velocity[2](I, J, K) = v.z;
                }
        });
    }
}

Upres::Upres(const Scene& scene)
    : scene_(scene),
      settings_(scene.upres),
      scheme_(scene.solver.advection),
      fps_(scene.time.fps),
      cfl_(scene.time.cfl),
      maxSubsteps_(scene.time.maxSubsteps),
      ambient_(scene.physics.ambientTemperature),
      factor_(std::max(1, scene.upres.factor)),
      clock_(scene) {
    if (scene.animated()) pose_ = scene;
}

VolumeView Upres::view() const {
    VolumeView v{&fine_.density, &fine_.temperature, fine_.origin, fine_.dx};
    v.flame = fine_.burns() ? &fine_.flame : nullptr;
    if (fine_.colored()) v.color = {&fine_.color[0], &fine_.color[1], &fine_.color[2]};
    return v;
}

void Upres::advance(const std::vector<const Fields*>& parts, int frame) {
    input_.assign(parts);
    advance(input_, frame);
}

void Upres::advance(const UpresInput& in, int frame) {
    fitBox(in, frame);
    // The base velocity over the fine grid's box, 0 where the input holds
    // nothing: the same values whether the input is the solver's islands or
    // a whole cache.
    base_.box = box_;
    base_.dx = in.dx;
    base_.domainOrigin = in.domainOrigin;
    base_.domainCells = in.domainCells;
    for (int a = 0; a < 3; ++a) copyOver(in.velocity[a], in.box, base_.velocity[a], box_, 0.0f);

    renewPatterns(frame);
    stir(base_, frame, stirring_);
    const int steps = fineVelocity(stirring_, frame);
    closeSolidFaces();
    // Substeps of equal length in the shot, each time_scale times as long in
    // simulated time (scene/shot_clock.h).
    const double frameDt = 1.0 / fps_, start = double(frame - 1) * frameDt;
    const float shotDt = float(frameDt / steps);
    for (int s = 0; s < steps; ++s) {
        const double at = start + double(s) * shotDt;
        fine_.time = clock_.simTime(at);
        substep(frame, clock_.simDt(at, shotDt), clock_.span(at, shotDt));
    }
    fine_.time = clock_.simTime(start + frameDt);
    carryPatterns(base_, frame);
    if (feed_) feed(in);
}

void Upres::feed(const UpresInput& in) {
    const int f = factor_;
    const Vec3i n = box_.size();
    const float inv = 1.0f / float(f), cell = inv * inv * inv;
    ScalarGrid base, coarse, support, scratch;
    auto one = [&](const ScalarGrid& from, ScalarGrid& fine, float background) {
        if (from.size() == 0 || fine.size() == 0) return;
        // The base over the fine box and the fine cells' mean in each base
        // cell, both less the background and smoothed beyond the mid band.
        copyOver(from, in.box, base, box_, background);
        coarse.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    float sum = 0.0f;
                    for (int c = 0; c < f; ++c)
                        for (int b = 0; b < f; ++b)
                            for (int a = 0; a < f; ++a)
                                sum += fine(i * f + a, j * f + b, k * f + c) - background;
                    coarse(i, j, k) = sum * cell;
                    base(i, j, k) -= background;
                }
        });
        support = base;  // where the cache has any, before the smoothing spreads it
        boxBlur(base, kFeedReach, scratch);
        boxBlur(coarse, kFeedReach, scratch);
        // base becomes what to add (where the fine grid lacks smoke), coarse
        // the factor to keep (where it holds too much): the fine smoke's mass
        // follows the cache's at the scale of the smoothing, and what is
        // finer (the detail) is its own.
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const float want = base(i, j, k), have = coarse(i, j, k);
                    base(i, j, k) = want > have ? want - have : 0.0f;
                    coarse(i, j, k) = have > want && have > 0.0f ? std::max(want, 0.0f) / have
                                                                 : 1.0f;
                }
        });
        const Vec3i nf = fine_.n;
        parallelForSlabs(nf.z, [&](int k) {
            for (int j = 0; j < nf.y; ++j)
                for (int i = 0; i < nf.x; ++i) {
                    // The fine cell's centre in base cells of the box.
                    const Vec3f at{(float(i) + 0.5f) * inv, (float(j) + 0.5f) * inv,
                                   (float(k) + 0.5f) * inv};
                    // Smoke is put in only where the cache has some, so
                    // none shows beyond the cache's own.
                    const float keep = coarse.sample(at);
                    const float add = support.sample(at) > kNegligible ? base.sample(at) : 0.0f;
                    float& v = fine(i, j, k);
                    if (keep == 1.0f && add <= kNegligible) continue;
                    const float out = background + (v - background) * keep + add;
                    v = std::fabs(out - background) > kNegligible ? out : background;
                }
        });
    };
    one(in.density, fine_.density, 0.0f);
    one(in.temperature, fine_.temperature, ambient_);
    if (in.burns() && fine_.burns()) {
        one(in.fuel, fine_.fuel, 0.0f);
        one(in.flame, fine_.flame, 0.0f);
    }
    if (in.colored() && fine_.colored())
        for (int c = 0; c < 3; ++c) one(in.color[c], fine_.color[c], 0.0f);
}

// What the solver does to its scalars in a substep, on the fine grid: the
// emitters (at the fine cells' own resolution), burning, advection through
// the stirring velocity, diffusion and dissipation.
void Upres::substep(int frame, float dt, const ShotSpan& shot) {
    const std::vector<EmitterSettings>* emitters = &scene_.emitters;
    if (scene_.animated()) {
        scene_.poseAt((shot.start + 0.5 * shot.length) * fps_, pose_);
        scene_.poseSurfacesAt((shot.start + 0.5 * shot.length) * fps_, pose_, false);
        emitters = &pose_.emitters;
    }
    if (scene_.obstaclesMove()) placeSolids(fine_);  // where the pose puts them now
    applyEmitters(fine_, *emitters, frame, fine_.time, shot);
    if (fine_.burns() && scene_.burns()) burn(fine_, scene_.physics, dt);
    ScalarGrid* fields[Advector::kMaxFields] = {&fine_.density, &fine_.temperature, &fine_.fuel,
                                                &fine_.flame};
    const int count = fine_.burns() ? 4 : 2;
    const float background[Advector::kMaxFields] = {0.0f, ambient_, 0.0f, 0.0f};
    const unsigned sides = stillAirSides(box_, scene_.domain.cells(), scene_.domain.boundary);
    // Anew each substep: the smoke, and so the cells to trace, moved.
    advector_.setVelocity(fineVelocity_, fine_.dx);
    if (fine_.colored()) spare_ = fine_.density;
    advector_.advect(scheme_, fields, fields, count, dt, Advector::Limiter::Clamp, background,
                     sides);
    if (fine_.colored()) advectColor(advector_, fineVelocity_, nullptr, fine_, spare_, dt, sides);
    if (!scene_.obstacles.empty()) clearSolidScalars(fine_, ambient_);
    diffuseImplicit(fine_.density, scene_.physics.diffusion, dt, fine_.dx);
    diffuseImplicit(fine_.temperature, scene_.physics.diffusion, dt, fine_.dx);
    if (fine_.colored())
        for (ScalarGrid& c : fine_.color)
            diffuseImplicit(c, scene_.physics.diffusion, dt, fine_.dx);
    dissipate(fine_, scene_.physics, dt);
}

// The scene's obstacles on the fine cells, placed as the substep's pose puts
// them when they move: the stirring would otherwise carry fine smoke into a
// solid that the base flow goes around, and the smoke would show through it.
void Upres::placeSolids(Fields& fine) const {
    if (scene_.obstacles.empty()) return;
    rasterizeObstacles(fine, scene_.obstaclesMove() ? pose_.obstacles : scene_.obstacles);
}

// No flow through a face beside a still solid on the fine grid: the base
// velocity blended onto the fine faces and the turbulence both cross the
// solid's surface where the base grid's cells do not. (A moving solid keeps
// the blended flow, which carries its motion; clearSolidScalars() empties it
// each substep.)
void Upres::closeSolidFaces() {
    if (scene_.obstacles.empty() || scene_.obstaclesMove()) return;
    const Grid3<uint8_t>& solid = fine_.solid;
    const Vec3i n = fine_.n;
    for (int a = 0; a < 3; ++a) {
        ScalarGrid& face = fineVelocity_.component(a);
        parallelForSlabs(face.nz(), [&](int k) {
            for (int j = 0; j < face.ny(); ++j)
                for (int i = 0; i < face.nx(); ++i) {
                    // The cells on either side of face (i, j, k) along a.
                    const int at[3] = {i, j, k};
                    int lo[3] = {i, j, k};
                    lo[a] -= 1;
                    const bool below = lo[a] >= 0 && solid(lo[0], lo[1], lo[2]);
                    const bool above = at[a] < n[a] && solid(i, j, k);
                    if (below || above) face(i, j, k) = 0.0f;
                }
        });
    }
}

// The base cells where some scalar differs from its background, grown by the
// farthest the flow carries anything in a frame and two cells more; at least
// one cell.
void Upres::fitBox(const UpresInput& in, int frame) {
    const float ambient = ambient_;
    Box3i active = activeCells(in.density, [](float v) { return v != 0.0f; });
    active = unite(active, activeCells(in.temperature,
                                       [ambient](float v) { return v != ambient && v != 0.0f; }));
    if (in.burns()) {
        active = unite(active, activeCells(in.fuel, [](float v) { return v != 0.0f; }));
        active = unite(active, activeCells(in.flame, [](float v) { return v != 0.0f; }));
    }
    // Each axis's fastest flow: a plume rises far faster than it spreads.
    float speeds[3] = {0.0f, 0.0f, 0.0f};
    for (int a = 0; a < 3; ++a) {
        const ScalarGrid& c = in.velocity[a];
        speeds[a] = deterministicReduce(
                                    c.nz(), 0.0f,
                                    [&](int k) {
                                        float m = 0.0f;
                                        const float* p = &c(0, 0, k);
                                        for (size_t n = 0; n < c.strideZ(); ++n)
                                            m = std::max(m, std::fabs(p[n]));
                                        return m;
                                    },
                                    maxOf<float>);
    }
    active = active.shifted(in.box.lo);
    // The fine smoke's own cells (the turbulence carries it beyond the
    // base's), in base cells.
    const int f = factor_;
    if (fine_.density.size() > 0) {
        Box3i fine = activeCells(fine_.density, [](float v) { return v != 0.0f; });
        if (fine_.burns()) {
            fine = unite(fine, activeCells(fine_.fuel, [](float v) { return v != 0.0f; }));
            fine = unite(fine, activeCells(fine_.flame, [](float v) { return v != 0.0f; }));
        }
        if (!fine.empty())
            active = unite(active, Box3i{{box_.lo.x + fine.lo.x / f, box_.lo.y + fine.lo.y / f,
                                          box_.lo.z + fine.lo.z / f},
                                         {box_.lo.x + (fine.hi.x + f - 1) / f,
                                          box_.lo.y + (fine.hi.y + f - 1) / f,
                                          box_.lo.z + (fine.hi.z + f - 1) / f}});
    }
    Vec3i reach;
    for (int a = 0; a < 3; ++a) {
        const int cells = 2 + int(std::ceil(speeds[a] / float(clock_.simFps(frame)) / in.dx));
        (a == 0 ? reach.x : a == 1 ? reach.y : reach.z) = cells;
    }
    const Box3i needed =
        active.empty() ? Box3i::at(in.box.lo, {1, 1, 1}) : grow(active, reach, in.domainCells);
    // The box changes only when the smoke leaves it or fills less than half of
    // it, and then with room to grow: moving the fine grids costs a copy of
    // them and, as they grow, new pages.
    if (!box_.empty() && box_.contains(needed) && needed.volume() * 2.0 > box_.volume()) return;
    const Box3i box = active.empty() ? needed : grow(needed, kBoxSlack, in.domainCells);

    // Move what the old box held into the new one.
    Fields fine;
    fine.n = times(box.size(), f);
    fine.dx = in.dx / float(f);
    fine.offset = times(box.lo, f);
    fine.domainCells = times(in.domainCells, f);
    fine.origin = in.domainOrigin +
                  Vec3f(float(fine.offset.x), float(fine.offset.y), float(fine.offset.z)) * fine.dx;
    // Each grid through the spare: no new pages while the boxes stay within
    // the largest so far.
    auto move = [&](ScalarGrid& g, const Box3i& from, const Box3i& to, float outside) {
        spare_.swap(g);
        copyOver(spare_, from, g, to, outside);
    };
    const Box3i oldFine = times(box_, f), newFine = times(box, f);
    fine.density.swap(fine_.density);
    fine.temperature.swap(fine_.temperature);
    fine.fuel.swap(fine_.fuel);
    fine.flame.swap(fine_.flame);
    for (int c = 0; c < 3; ++c) fine.color[c].swap(fine_.color[c]);
    move(fine.density, oldFine, newFine, 0.0f);
    move(fine.temperature, oldFine, newFine, ambient_);
    if (burns()) {
        move(fine.fuel, oldFine, newFine, 0.0f);
        move(fine.flame, oldFine, newFine, 0.0f);
        fine.expansion = ScalarGrid(fine.n.x, fine.n.y, fine.n.z);  // burn() writes it; unread
    }
    if (colored())
        for (ScalarGrid& c : fine.color) move(c, oldFine, newFine, 0.0f);
    fine.solid = Grid3<uint8_t>(fine.n.x, fine.n.y, fine.n.z, Vec3f(0.5f), 0);
    placeSolids(fine);
    fine.time = fine_.time;
    fine_ = std::move(fine);
    for (auto& pattern : drift_)
        for (ScalarGrid& c : pattern) move(c, box_, box, 0.0f);
    box_ = box;
}

std::uint64_t Upres::bytesFor(const Scene& scene, Vec3i cells, bool resume) {
    if (!scene.upres.on()) return 0;
    const int f = scene.upres.factor;
    const Vec3i fine = times(cells, f);
    const std::uint64_t c = std::uint64_t(cells.x) * cells.y * cells.z;
    const std::uint64_t C = std::uint64_t(fine.x) * fine.y * fine.z;
    const int fields = (scene.burns() ? 4 : 2) + (scene.colored() ? 3 : 0);
    const int advected = scene.burns() || scene.colored() ? 4 : 2;
    const std::uint64_t faces = 3 * C + std::uint64_t(fine.y) * fine.z +
                                std::uint64_t(fine.x) * fine.z + std::uint64_t(fine.x) * fine.y;
    // The fine scalars (and burn()'s expansion), their solid mask, the spare
    // grid they move through, the stirring velocity on the fine faces, and
    // the advection's scratch and regions.
    std::uint64_t bytes =
        (std::uint64_t(fields + (scene.burns() ? 1 : 0) + 1) * C + faces) * sizeof(float) +
        C * sizeof(uint8_t) + Advector::scratchBytesFor(fine, 1, scene.solver.advection, true) +
        Advector::regionBytesFor(fine, advected);
    // Base-sized: the input and its copy over the box (scalars and velocity),
    // the stirring, the drift of two patterns, and the energy estimate's four.
    bytes += std::uint64_t(fields + 3 + 3 + 3 + 6 + 4) * c * sizeof(float) + 2 * c;
    if (resume) bytes += (std::uint64_t(fields) * C + 6 * c) * sizeof(float);
    return bytes;
}

bool Upres::burns() const { return carryFire_ || scene_.burns(); }
bool Upres::colored() const { return carryColor_ || scene_.colored(); }

std::vector<const ScalarGrid*> Upres::fineGrids() const {
    std::vector<const ScalarGrid*> grids = {&fine_.density, &fine_.temperature};
    if (fine_.burns()) grids.insert(grids.end(), {&fine_.fuel, &fine_.flame});
    if (fine_.colored())
        grids.insert(grids.end(), {&fine_.color[0], &fine_.color[1], &fine_.color[2]});
    return grids;
}

std::vector<const ScalarGrid*> Upres::driftGrids() const {
    std::vector<const ScalarGrid*> grids;
    for (const auto& pattern : drift_)
        for (const ScalarGrid& c : pattern) grids.push_back(&c);
    return grids;
}

void Upres::restore(const Fields& base, const Box3i& box, double time, std::vector<ScalarGrid> fine,
                    std::vector<ScalarGrid> drift) {
    const int f = factor_;
    const Vec3i n = box.size(), nf = times(n, f);
    const size_t fields = (burns() ? 4 : 2) + (colored() ? 3 : 0);
    auto fits = [](const ScalarGrid& g, Vec3i size) {
        return g.nx() == size.x && g.ny() == size.y && g.nz() == size.z;
    };
    bool ok = fine.size() == fields && drift.size() == 6 &&
              Box3i::at({0, 0, 0}, base.domainSize()).contains(box);
    for (const ScalarGrid& g : fine) ok = ok && fits(g, nf);
    for (const ScalarGrid& g : drift) ok = ok && fits(g, n);
    if (!ok) throw RunError("the upres state is of another grid or scene");
    Fields grid;
    grid.n = nf;
    grid.dx = base.dx / float(f);
    grid.offset = times(box.lo, f);
    grid.domainCells = times(base.domainSize(), f);
    grid.origin = base.domainOrigin() +
                  Vec3f(float(grid.offset.x), float(grid.offset.y), float(grid.offset.z)) * grid.dx;
    grid.density = std::move(fine[0]);
    grid.temperature = std::move(fine[1]);
    if (burns()) {
        grid.fuel = std::move(fine[2]);
        grid.flame = std::move(fine[3]);
        grid.expansion = ScalarGrid(nf.x, nf.y, nf.z);
    }
    if (colored())
        for (int c = 0; c < 3; ++c) grid.color[c] = std::move(fine[fields - 3 + size_t(c)]);
    grid.solid = Grid3<uint8_t>(nf.x, nf.y, nf.z, Vec3f(0.5f), 0);
    placeSolids(grid);
    grid.time = time;
    fine_ = std::move(grid);
    for (int p = 0; p < 2; ++p)
        for (int a = 0; a < 3; ++a) drift_[p][a] = std::move(drift[size_t(p * 3 + a)]);
    box_ = box;
}

// A pattern renews when its phase passes a whole number: its drift starts
// again from nothing (and its place in the tile moves, stir()).
void Upres::renewPatterns(int frame) {
    if (settings_.speed <= 0.0f) return;
    const double t = clock_.simTime(double(frame - 1) / fps_),
                 before = clock_.simTime(double(frame - 2) / fps_);
    for (int p = 0; p < 2; ++p) {
        if (frame == 1 || std::floor(upresPatternPhase(t * settings_.speed, p)) !=
                              std::floor(upresPatternPhase(before * settings_.speed, p)))
            for (ScalarGrid& c : drift_[p]) c.fill(0.0f);
    }
}

// The base cells within `reach` of a base cell whose fine cells hold smoke,
// fuel or flame: where the stirring can move anything this frame.
Grid3<uint8_t> Upres::nearSmoke(int reach) const {
    const Vec3i n = box_.size();
    const int f = factor_;
    Grid3<uint8_t> near(n.x, n.y, n.z, Vec3f(0.5f), 0);
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                bool any = false;
                for (int c = 0; c < f && !any; ++c)
                    for (int b = 0; b < f && !any; ++b)
                        for (int a = 0; a < f && !any; ++a) {
                            const int I = i * f + a, J = j * f + b, K = k * f + c;
                            any = fine_.density(I, J, K) != 0.0f ||
                                  (fine_.burns() &&
                                   (fine_.fuel(I, J, K) != 0.0f || fine_.flame(I, J, K) != 0.0f));
                        }
                near(i, j, k) = any;
            }
    });
    // Grown by `reach` along each axis in turn (a box around each such cell).
    Grid3<uint8_t> grown = near;
    const int step[3] = {1, n.x, n.x * n.y}, size[3] = {n.x, n.y, n.z};
    for (int axis = 0; axis < 3; ++axis) {
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const int at[3] = {i, j, k};
                    const size_t here = near.index(i, j, k);
                    uint8_t v = 0;
                    for (int d = -reach; d <= reach && !v; ++d) {
                        const int q = at[axis] + d;
                        if (q >= 0 && q < size[axis]) v = near[here + ptrdiff_t(d) * step[axis]];
                    }
                    grown[here] = v;
                }
        });
        near.swap(grown);
    }
    return near;
}

void Upres::stir(const UpresInput& base, int frame, ScalarGrid (&out)[3]) {
    ScalarGrid weight;
    unresolvedSpeed(base.velocity, weight);
    for (int a = 0; a < 3; ++a) out[a] = base.velocity[a];
    // The noise costs most: only where a frame's stirring reaches the smoke.
    const Grid3<uint8_t> near = nearSmoke(kStirReach);

    // Each pattern's weight over its life (sim/upres/pattern_weights.h): sin
    // and cos of the same phase, so the two keep one strength as they cross.
    const double t = clock_.simTime(double(frame - 1) / fps_);
    struct Pattern {
        float amplitude;
        Vec3f offset;
    };
    Pattern patterns[2];
    int count = 1;
    if (settings_.speed <= 0.0f) {
        patterns[0] = {1.0f, patternOffset(0, 0)};
    } else {
        count = 2;
        const double phase = t * settings_.speed;
        const std::array<float, 2> weights = upresPatternWeights(phase);
        for (int p = 0; p < 2; ++p) {
            const double whole = std::floor(upresPatternPhase(phase, p));
            patterns[p] = {weights[size_t(p)], patternOffset(p, long(whole))};
        }
    }
    const float scale = settings_.scale > 0.0f ? settings_.scale : 2.0f * base.dx;
    const float toSamples = kSamplesPerScale / scale;
    const WaveletNoise& noise = WaveletNoise::instance();
    const Vec3i n = box_.size();
    const float strength = settings_.strength;
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float w = weight(i, j, k) * strength;
                if (w == 0.0f || !near(i, j, k)) continue;
                const Vec3f x = base.domainOrigin + Vec3f(float(box_.lo.x + i) + 0.5f,
                                                          float(box_.lo.y + j) + 0.5f,
                                                          float(box_.lo.z + k) + 0.5f) *
                                                        base.dx;
                Vec3f swirl{0.0f, 0.0f, 0.0f};
                for (int p = 0; p < count; ++p) {
                    if (patterns[p].amplitude == 0.0f) continue;
                    const Vec3f from = x - Vec3f(drift_[p][0](i, j, k), drift_[p][1](i, j, k),
                                                 drift_[p][2](i, j, k));
                    float octave = patterns[p].amplitude, size = toSamples;
                    for (int o = 0; o < kOctaves; ++o) {
                        swirl = swirl + noise.curl(from * size + patterns[p].offset) * octave;
                        octave *= kOctaveSpeed;
                        size *= 2.0f;
                    }
                }
                out[0](i, j, k) += w * swirl.x;
                out[1](i, j, k) += w * swirl.y;
                out[2](i, j, k) += w * swirl.z;
            }
    });
}

// The stirring velocity on the fine faces, and the substeps: as many as the
// solver takes for the base flow (its CFL number in base cells, of the base
// velocity's speed). Not the CFL in fine cells of the stirring's speed: the
// turbulence's peaks would make that the cap, and every extra MacCormack
// step blurs the fine smoke a little more, for nothing: the advection is
// stable at any step, and the stirring is a random pattern whose exact path
// through a swirl no one sees (cost and detail: tests/bench/README.md,
// detail.py).
int Upres::fineVelocity(const ScalarGrid (&stirring)[3], int frame) {
    const Vec3i n = fine_.n;
    const float inv = 1.0f / float(factor_);
    if (fineVelocity_.w.nx() != n.x || fineVelocity_.w.ny() != n.y ||
        fineVelocity_.w.nz() != n.z + 1)
        fineVelocity_ = MacVelocity(n);
    float speed = 0.0f;
    for (int a = 0; a < 3; ++a) {
        ScalarGrid& face = fineVelocity_.component(a);
        const Vec3f at = face.offset();
        const ScalarGrid& from = stirring[a];
        // from.sample() at each face, its stencil split by axis once (the
        // same clamps, weights and blend, so the same bits) rather than
        // worked out again at every face.
        const SampleLayout layout = from.layout();
        const int count[3] = {face.nx(), face.ny(), face.nz()}, size[3] = {layout.nx, layout.ny,
                                                                              layout.nz};
        const ptrdiff_t stride[3] = {layout.sx, layout.sy, layout.sz};
        std::vector<Stencil> axis[3];
        for (int d = 0; d < 3; ++d) {
            axis[d].resize(size_t(count[d]));
            for (int q = 0; q < count[d]; ++q) {
                Stencil& st = axis[d][size_t(q)];
                stencilAxis((float(q) + at[d]) * inv - layout.offset[d], size[d], stride[d], st.fx,
                            st.dx, st.at);
            }
        }
        parallelForSlabs(face.nz(), [&](int k) {
            const Stencil& z = axis[2][size_t(k)];
            for (int j = 0; j < face.ny(); ++j) {
                const Stencil& y = axis[1][size_t(j)];
                float* out = &face(0, j, k);
                for (int i = 0; i < face.nx(); ++i) {
                    const Stencil& x = axis[0][size_t(i)];
                    Stencil st;
                    st.at = x.at + y.at + z.at;
                    st.dx = x.dx, st.dy = y.dx, st.dz = z.dx;
                    st.fx = x.fx, st.fy = y.fx, st.fz = z.fx;
                    out[i] = blend(from.data(), st);
                }
            }
        });
        const ScalarGrid& src = base_.velocity[a];
        speed = std::max(speed, deterministicReduce(
                                    src.nz(), 0.0f,
                                    [&](int k) {
                                        float m = 0.0f;
                                        const float* p = &src(0, 0, k);
                                        for (size_t c = 0; c < src.strideZ(); ++c)
                                            m = std::max(m, std::fabs(p[c]));
                                        return m;
                                    },
                                    maxOf<float>));
    }
    const float frameDt = float(1.0 / clock_.simFps(frame));
    return std::clamp(int(std::ceil(speed * frameDt / (cfl_ * base_.dx))), 1, maxSubsteps_);
}

// Each pattern's drift moves with the base flow for the frame (a
// semi-Lagrangian step): drift(x) <- drift(x - u dt) + u dt.
void Upres::carryPatterns(const UpresInput& base, int frame) {
    const Vec3i n = box_.size();
    const float dt = float(1.0 / clock_.simFps(frame)), toCells = dt / base.dx;
    const int count = settings_.speed > 0.0f ? 2 : 1;
    for (int p = 0; p < count; ++p) {
        ScalarGrid(&moved)[3] = stirring_;  // free again once the fine grids moved
        for (ScalarGrid& c : moved) c.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Vec3f u{base.velocity[0](i, j, k), base.velocity[1](i, j, k),
                                  base.velocity[2](i, j, k)};
                    const Vec3f from =
                        Vec3f(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f) - u * toCells;
                    for (int a = 0; a < 3; ++a)
                        moved[a](i, j, k) = drift_[p][a].sample(from) + (a == 0   ? u.x
                                                                         : a == 1 ? u.y
                                                                                  : u.z) *
                                                                            dt;
                }
        });
        for (int a = 0; a < 3; ++a) drift_[p][a].swap(moved[a]);
    }
}

}  // namespace plume
