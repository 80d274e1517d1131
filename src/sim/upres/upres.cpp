// Upres (sim/upres/upres.h): a frame (the box, the stirring, the substeps)
// and what a substep does to the fine scalars. The stirring is in
// upres_stirring.cpp, the feed from a cache in upres_feed.cpp, the resume
// state in upres_resume.cpp.
#include "sim/upres/upres.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/activity.h"
#include "core/parallel.h"
#include "sim/active_box.h"
#include "sim/combustion.h"
#include "sim/diffusion.h"
#include "sim/dissipation.h"
#include "sim/emitters.h"
#include "sim/obstacles.h"
#include "sim/smoke_color.h"
#include "sim/upres/upres_grids.h"

namespace plume {

namespace {

// Base cells of room the fine box takes beyond what the smoke needs.
constexpr int kBoxSlack = 4;

}  // namespace

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
    for (int a = 0; a < 3; ++a)
        upres::copyOver(in.velocity[a], in.box, base_.velocity[a], box_, 0.0f);

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
    // Only faces beside a solid cell change: those of the solids' box, a face
    // more along each axis (a small ball is a few percent of the grid).
    const Box3i solids = deterministicReduce(
        solid.nz(), Box3i{},
        [&](int k) {
            Box3i box;
            for (int j = 0; j < solid.ny(); ++j) {
                const uint8_t* row = &solid(0, j, k);
                const uint8_t* end = row + solid.nx();
                const uint8_t* first = std::find_if(row, end, [](uint8_t v) { return v != 0; });
                if (first == end) continue;
                const uint8_t* last = end - 1;
                while (*last == 0) --last;
                box = unite(box, Box3i{{int(first - row), j, k}, {int(last - row) + 1, j + 1, k + 1}});
            }
            return box;
        },
        [](const Box3i& a, const Box3i& b) { return unite(a, b); });
    if (solids.empty()) return;
    for (int a = 0; a < 3; ++a) {
        ScalarGrid& face = fineVelocity_.component(a);
        // Faces lo..hi along a border the box's cells; across it, its cells.
        Vec3i lo = solids.lo, hi = solids.hi;
        (a == 0 ? hi.x : a == 1 ? hi.y : hi.z) += 1;
        parallelForRange(hi.z - lo.z, [&](int k0, int k1) {
            for (int k = lo.z + k0; k < lo.z + k1; ++k)
                for (int j = lo.y; j < hi.y; ++j)
                    for (int i = lo.x; i < hi.x; ++i) {
                        // The cells on either side of face (i, j, k) along a.
                        const int at[3] = {i, j, k};
                        int below[3] = {i, j, k};
                        below[a] -= 1;
                        const bool under = below[a] >= 0 && solid(below[0], below[1], below[2]);
                        const bool over = at[a] < n[a] && solid(i, j, k);
                        if (under || over) face(i, j, k) = 0.0f;
                    }
        });
    }
}

// The base cells where some scalar differs from its background, grown by the
// farthest the flow carries anything in a frame and two cells more; at least
// one cell.
void Upres::fitBox(const UpresInput& in, int frame) {
    const Box3i active = smokeCells(in);
    // Each axis's fastest flow: a plume rises far faster than it spreads.
    Vec3i reach;
    for (int a = 0; a < 3; ++a) {
        const float speed = upres::maxAbs(in.velocity[a]);
        const int cells = 2 + int(std::ceil(speed / float(clock_.simFps(frame)) / in.dx));
        (a == 0 ? reach.x : a == 1 ? reach.y : reach.z) = cells;
    }
    const Box3i needed =
        active.empty() ? Box3i::at(in.box.lo, {1, 1, 1}) : grow(active, reach, in.domainCells);
    // The box changes only when the smoke leaves it or fills less than half of
    // it, and then with room to grow: moving the fine grids costs a copy of
    // them and, as they grow, new pages.
    if (!box_.empty() && box_.contains(needed) && needed.volume() * 2.0 > box_.volume()) return;
    moveFine(in, active.empty() ? needed : grow(needed, kBoxSlack, in.domainCells));
}

// The base cells (of the domain) where some scalar of the base or the fine
// grid differs from its background.
Box3i Upres::smokeCells(const UpresInput& in) const {
    const float ambient = ambient_;
    Box3i active = activeCells(in.density, [](float v) { return v != 0.0f; });
    active = unite(active, activeCells(in.temperature,
                                       [ambient](float v) { return v != ambient && v != 0.0f; }));
    if (in.burns()) {
        active = unite(active, activeCells(in.fuel, [](float v) { return v != 0.0f; }));
        active = unite(active, activeCells(in.flame, [](float v) { return v != 0.0f; }));
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
    return active;
}

// The fine grids over base box `box`: what the old box held, moved, and
// the background beyond it.
void Upres::moveFine(const UpresInput& in, const Box3i& box) {
    const int f = factor_;
    Fields fine = upres::fineLayout(box, f, in.dx, in.domainOrigin, in.domainCells);
    // Each grid through the spare: no new pages while the boxes stay within
    // the largest so far.
    auto move = [&](ScalarGrid& g, const Box3i& from, const Box3i& to, float outside) {
        spare_.swap(g);
        upres::copyOver(spare_, from, g, to, outside);
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

}  // namespace plume
