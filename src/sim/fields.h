// Fields: the solver's state on a staggered (MAC) grid.
//
// Scalars live at cell centres; velocity components live on the faces normal
// to their axis: u on x-faces (nx+1, ny, nz), v on y-faces (nx, ny+1, nz),
// w on z-faces (nx, ny, nz+1). Velocities are in metres per second.
#pragma once

#include <cstdint>

#include "core/box.h"
#include "core/grid3.h"
#include "core/vec.h"
#include "core/volume.h"

namespace plume {

// The staggered velocity: three face grids, m/s. Swapped as one, so a stage
// that reads the old velocity while writing the new needs no three-way swap.
struct MacVelocity {
    ScalarGrid u, v, w;

    MacVelocity() = default;
    explicit MacVelocity(Vec3i cells)
        : u(cells.x + 1, cells.y, cells.z, {0.0f, 0.5f, 0.5f}),
          v(cells.x, cells.y + 1, cells.z, {0.5f, 0.0f, 0.5f}),
          w(cells.x, cells.y, cells.z + 1, {0.5f, 0.5f, 0.0f}) {}

    // Velocity at a point in grid units (cells from the min corner).
    Vec3f velocityAt(Vec3f pGrid) const {
        return {u.sample(pGrid), v.sample(pGrid), w.sample(pGrid)};
    }
    // Velocity at the centre of cell (i, j, k): the mean of its two faces per axis.
    Vec3f centredVelocity(int i, int j, int k) const {
        return {0.5f * (u(i, j, k) + u(i + 1, j, k)), 0.5f * (v(i, j, k) + v(i, j + 1, k)),
                0.5f * (w(i, j, k) + w(i, j, k + 1))};
    }
    ScalarGrid& component(int axis) { return axis == 0 ? u : (axis == 1 ? v : w); }
    const ScalarGrid& component(int axis) const { return axis == 0 ? u : (axis == 1 ? v : w); }

    void swap(MacVelocity& other) noexcept {
        u.swap(other.u);
        v.swap(other.v);
        w.swap(other.w);
    }
};

struct Fields : MacVelocity {
    Vec3i n;          // cells per axis
    float dx = 1.0f;  // metres
    Vec3f origin{0, 0, 0};
    // Where cell (0, 0, 0) is in the domain, in cells: not 0 when a sparse
    // solve holds a box of the domain (sim/active_box.h); origin is then the
    // domain's origin moved by offset * dx.
    Vec3i offset{0, 0, 0};
    Vec3i domainCells{0, 0, 0};  // cells of the whole domain; 0 when these are all of it
    // A process's part of a box split across processes (sim/solver_split.cpp):
    // the slabs from the box's first to this part's. origin stays the box's,
    // so every position is formed as one process holding the whole box forms
    // it, bit for bit (point()). 0 for fields that hold their whole box.
    int partZ = 0;
    ScalarGrid density, temperature;  // cell-centred
    Grid3<uint8_t> solid;             // 1 where an obstacle covers the cell centre
    // The solids' velocity (m/s) on every face touching a solid cell: what
    // the projection holds those faces to. Empty while no solid moves (the
    // faces are then held at 0).
    MacVelocity solidVelocity;
    // Fire (Scene::burns): fuel and the flame it makes, cell-centred, and the
    // gas's own expansion (1/s) where it burned this substep, which the
    // projection keeps as the divergence there. Empty in a scene without fuel.
    ScalarGrid fuel, flame, expansion;
    // The smoke's colour (sim/smoke_color.h), premultiplied: colour times
    // density per linear RGB channel, cell-centred, moved as density is so
    // its mass keeps pace with the smoke's. Empty unless an emitter has a
    // colour (Scene::colored).
    ScalarGrid color[3];
    double time = 0.0;  // simulated seconds since frame 1 began

    Fields() = default;
    Fields(Vec3i cells, float dx_, Vec3f origin_ = {0, 0, 0})
        : MacVelocity(cells),
          n(cells),
          dx(dx_),
          origin(origin_),
          density(cells.x, cells.y, cells.z),
          temperature(cells.x, cells.y, cells.z),
          solid(cells.x, cells.y, cells.z, Vec3f(0.5f), 0) {}

    size_t cellCount() const { return size_t(n.x) * n.y * n.z; }
    // The whole domain these fields are (part of): its cells and min corner.
    Vec3i domainSize() const { return domainCells == Vec3i{} ? n : domainCells; }
    // The cells of the domain these fields cover.
    Box3i box() const { return Box3i::at(offset, n); }
    Vec3f domainOrigin() const {
        return origin - Vec3f(float(offset.x), float(offset.y), float(offset.z - partZ)) * dx;
    }
    // Point (i, j, k) + at of the grid, in metres.
    Vec3f point(int i, int j, int k, Vec3f at) const {
        return origin + Vec3f(i + at.x, j + at.y, (k + partZ) + at.z) * dx;
    }
    Vec3f cellCentre(int i, int j, int k) const { return point(i, j, k, Vec3f(0.5f)); }
    // Grid z (cells from slab 0 of these fields) of a position whose z is
    // `boxZ` cells from the box's first slab: exact, an integer moved.
    float gridZ(float boxZ) const { return boxZ - float(partZ); }
    bool holdsDomain() const { return offset == Vec3i{} && domainSize() == n; }
    // (Shapes compared too: a part of no slabs holds grids of no values.)
    bool solidsMove() const {
        return solidVelocity.u.size() == u.size() && solidVelocity.u.nx() == u.nx();
    }
    bool burns() const { return fuel.size() == density.size(); }
    void enableFire() {
        fuel = ScalarGrid(n.x, n.y, n.z);
        flame = ScalarGrid(n.x, n.y, n.z);
        expansion = ScalarGrid(n.x, n.y, n.z);
    }

    bool colored() const { return density.size() > 0 && color[0].size() == density.size(); }
    void enableColor() {
        for (ScalarGrid& c : color) c = ScalarGrid(n.x, n.y, n.z);
    }

    // Bytes the grids above hold for `cells`: three face grids, two scalars
    // and the solid mask.
    static std::uint64_t bytesFor(Vec3i cells) {
        const std::uint64_t c = std::uint64_t(cells.x) * cells.y * cells.z;
        const std::uint64_t faces = 3 * c + std::uint64_t(cells.y) * cells.z +
                                    std::uint64_t(cells.x) * cells.z +
                                    std::uint64_t(cells.x) * cells.y;
        return (faces + 2 * c) * sizeof(float) + c * sizeof(uint8_t);
    }

    MacVelocity& velocity() { return *this; }
    const MacVelocity& velocity() const { return *this; }

    VolumeView view() const {
        VolumeView out{&density, &temperature, origin,
                       dx,       {&u, &v, &w}, burns() ? &flame : nullptr};
        if (colored()) out.color = {&color[0], &color[1], &color[2]};
        return out;
    }
};

}  // namespace plume
