// Reading plume's VDB cache and others' (Blender's Mantaflow, EmberGen's) to
// render (readVdbVolume, readVdbBounds), what a file says of itself
// (readVdbInfo), and what the readers share (io/vdb_cache_read_private.h).
// The whole frame read back is vdb_cache_frame.cpp's; the writer vdb_cache_write.cpp's.
#include <openvdb/tools/Interpolation.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>

#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/vdb_cache.h"
#include "io/vdb_cache_read_private.h"

namespace plume {

namespace vdb {

using openvdb::Coord;
using openvdb::CoordBBox;

CoordBBox cellBox(int nx, int ny, int nz) {
    return CoordBBox(Coord(0), Coord(nx - 1, ny - 1, nz - 1));
}

// The voxels of a box of the domain that starts at cell `offset`.
CoordBBox cellBox(Vec3i offset, int nx, int ny, int nz) {
    return CoordBBox(Coord(offset.x, offset.y, offset.z),
                     Coord(offset.x + nx - 1, offset.y + ny - 1, offset.z + nz - 1));
}

// Position of the min corner of voxel 'c', for cell-centred data, relative
// to the world point `from` (in double, then rounded once).
Vec3f cellCorner(const openvdb::math::Transform& xform, const Coord& c, Vec3f from) {
    openvdb::Vec3d p = xform.indexToWorld(c.asVec3d() - openvdb::Vec3d(0.5));
    return {float(p.x() - double(from.x)), float(p.y() - double(from.y)),
            float(p.z() - double(from.z))};
}

// The voxel size to render with: x's. Throws RunError for a transform plume cannot render.
float uniformVoxelSize(const openvdb::GridBase& grid, const std::string& path) {
    const openvdb::math::Transform& xform = grid.transform();
    if (!xform.isLinear())
        throw RunError("grid '" + grid.getName() + "' in '" + path + "' has a " + xform.mapType() +
                       " transform; plume renders only linear transforms");
    return float(grid.voxelSize().x());
}

// Warns about placements plume can only approximate: voxels that are not
// cubes, a rotated grid.
void warnApproximatePlacement(const openvdb::GridBase& grid, const std::string& path) {
    const std::string where = "'" + path + "': grid '" + grid.getName() + "'";
    openvdb::Vec3d vs = grid.voxelSize();
    if (std::abs(vs.x() - vs.y()) > 1e-6 * vs.x() || std::abs(vs.x() - vs.z()) > 1e-6 * vs.x()) {
        char size[128];
        std::snprintf(size, sizeof size, "%g x %g x %g; rendering with %g", vs.x(), vs.y(), vs.z(),
                      vs.x());
        warn(where + " has voxel size " + size + " on every axis");
    }
    if (!grid.transform().baseMap()->getAffineMap()->isScaleTranslate())
        warn(where + " is rotated; rendering it axis-aligned");
}

// The voxels readVdbVolume makes dense: the active box, or for an empty frame
// one clear voxel.
CoordBBox renderedBox(const CoordBBox& active) {
    return active.empty() ? CoordBBox(Coord(0), Coord(0)) : active;
}

// Copies 'grid' over 'box' into a dense x-fastest array.
void copyBox(const openvdb::FloatGrid& grid, const CoordBBox& box, ScalarGrid& out) {
    openvdb::Coord dim = box.dim();
    out = ScalarGrid(dim.x(), dim.y(), dim.z());
    DenseFloat dense(box, out.data());
    openvdb::tools::copyToDense(grid, dense);
}

// Samples 'grid' at the voxel centres of 'box' in 'target's index space: the
// same voxels when the transforms agree, trilinear resampling otherwise.
void sampleOnto(const openvdb::FloatGrid& grid, const openvdb::math::Transform& target,
                const CoordBBox& box, ScalarGrid& out) {
    if (grid.transform() == target) {
        copyBox(grid, box, out);
        return;
    }
    openvdb::Coord dim = box.dim();
    out = ScalarGrid(dim.x(), dim.y(), dim.z());
    parallelForSlabs(dim.z(), [&](int k) {
        // The sampler keeps a reference to the accessor: it must outlive it.
        const openvdb::FloatGrid::ConstAccessor accessor = grid.getConstAccessor();
        openvdb::tools::GridSampler<openvdb::FloatGrid::ConstAccessor, openvdb::tools::BoxSampler>
            sampler(accessor, grid.transform());
        for (int j = 0; j < dim.y(); ++j)
            for (int i = 0; i < dim.x(); ++i) {
                Coord c = box.min().offsetBy(i, j, k);
                out(i, j, k) = sampler.wsSample(target.indexToWorld(c));
            }
    });
}

// The same for a vector grid, one ScalarGrid a component.
void sampleOnto(const openvdb::Vec3SGrid& grid, const openvdb::math::Transform& target,
                const CoordBBox& box, ScalarGrid (&out)[3]) {
    const openvdb::Coord dim = box.dim();
    for (ScalarGrid& c : out) c = ScalarGrid(dim.x(), dim.y(), dim.z());
    if (grid.transform() == target) {
        std::vector<openvdb::Vec3s> values(out[0].size(), openvdb::Vec3s(0.0f));
        DenseVec3 dense(box, values.data());
        openvdb::tools::copyToDense(grid, dense);
        for (size_t n = 0; n < values.size(); ++n)
            for (int a = 0; a < 3; ++a) out[a][n] = values[n][a];
        return;
    }
    parallelForSlabs(dim.z(), [&](int k) {
        const openvdb::Vec3SGrid::ConstAccessor accessor = grid.getConstAccessor();
        openvdb::tools::GridSampler<openvdb::Vec3SGrid::ConstAccessor, openvdb::tools::BoxSampler>
            sampler(accessor, grid.transform());
        for (int j = 0; j < dim.y(); ++j)
            for (int i = 0; i < dim.x(); ++i) {
                const openvdb::Vec3s v =
                    sampler.wsSample(target.indexToWorld(box.min().offsetBy(i, j, k)));
                for (int a = 0; a < 3; ++a) out[a](i, j, k) = v[a];
            }
    });
}

bool hasMantaflowColor(Reader& file) {
    return std::all_of(std::begin(kMantaflowColorNames), std::end(kMantaflowColorNames),
                       [&](const char* name) { return file.has(name); });
}

namespace {

// Blender's Mantaflow writes its grids with the domain's resolution in each
// (file_base_resolution) and its velocity as it holds it: staggered (the
// class says so; the x component of voxel (i, j, k) sits on its low x face)
// and in cells per Mantaflow time unit, of which Blender makes a frame 0.1 *
// 25 / fps long (fluid.c: DT_DEFAULT * (25 / fps) * time_scale, time scale
// 1). So m/s = value * dx * 2.5 whatever the frame rate: on bench.toml's
// setup that gives Mantaflow's plume the speeds plume's has (peak 5.25
// against 5.33 m/s at frame 20), where the raw values are 13 times them.
constexpr float kMantaflowSecondsPerTimeUnit = 2.5f;  // per cell of dx metres: see above

bool isMantaflowGrid(const openvdb::GridBase& grid) {
    return bool(grid.getMetadata<openvdb::Vec3IMetadata>("file_base_resolution"));
}

}  // namespace

ForeignVelocity foreignVelocity(const openvdb::GridBase& velocity, float dx) {
    ForeignVelocity f;
    if (!isMantaflowGrid(velocity)) return f;
    f.scale = kMantaflowSecondsPerTimeUnit * dx;
    f.staggered = velocity.getGridClass() == openvdb::GRID_STAGGERED;
    return f;
}

}  // namespace vdb

std::vector<std::string> listGrids(const std::string& path) { return vdb::Reader(path).names(); }

VdbInfo readVdbInfo(const std::string& path) {
    vdb::Reader file(path);
    VdbInfo info;
    info.grids = file.names();
    info.creator =
        vdb::metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");
    info.sceneName =
        vdb::metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaScene, "");
    info.fps = vdb::metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaFps, 0.0);
    auto exact = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaExact);
    info.exact = exact && exact->value();
    auto soot = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaSootOnly);
    info.sootOnly = soot && soot->value();
    info.timeScale =
        vdb::metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaTimeScale, 0.0);
    info.upresFactor = std::max(
        1, vdb::metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaUpresFactor, 1));
    return info;
}

std::string vdbCreator(const std::string& path) {
    vdb::Reader file(path);
    return vdb::metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");
}

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;

// Grids that can colour a volume as temperature, best first: plume's and
// Blender 2.92+'s "temperature", older Blender's "heat", other tools' "temp"
// and "flames", and last Mantaflow's "flame" (0..1 reaction), which then
// renders as emission.
const char* const kTemperatureNames[] = {"temperature", "heat", "temp", "flames", "flame"};

std::string boxSize(const CoordBBox& box) {
    std::string size;
    for (int a = 0; a < 3; ++a)
        size += (a ? "x" : "") + std::to_string(std::int64_t(box.max()[a]) - box.min()[a] + 1);
    return size;
}

// readVdbVolume; box: the dense box, once it is known.
LoadedVolume readVolume(vdb::Reader& file, const std::string& gridName,
                        const std::vector<std::string>& velocityNames, bool withGlow,
                        Vec3f sceneOrigin, CoordBBox& box) {
    const std::string& path = file.path();
    LoadedVolume v;
    v.gridNames = file.names();

    // Density: dense over its active box, placed by the file's transform; over
    // the whole domain for plume's own exact cache, as plume render sees the
    // fields, so a frame renders bit for bit the same from either.
    auto density = file.readAs<openvdb::FloatGrid>(gridName);
    v.dx = vdb::uniformVoxelSize(*density, path);
    vdb::warnApproximatePlacement(*density, path);
    box = vdb::renderedBox(density->evalActiveVoxelBoundingBox());
    auto exact = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaExact);
    auto res = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaResolution);
    if (exact && exact->value() && res) {
        // What plume render drew: the whole domain, or the box a sparse
        // solve held that frame.
        const openvdb::Vec3i n = res->value();
        CoordBBox held = vdb::cellBox(n.x(), n.y(), n.z());
        auto boxMin = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxMin);
        auto boxSize = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxSize);
        if (boxMin && boxSize) {
            const openvdb::Vec3i m = boxMin->value(), s = boxSize->value();
            held = vdb::cellBox({m.x(), m.y(), m.z()}, s.x(), s.y(), s.z());
        }
        if (!held.empty() && held.isInside(box)) box = held;
    }
    vdb::copyBox(*density, box, v.density);
    v.origin = vdb::cellCorner(density->transform(), box.min(), sceneOrigin);

    // Temperature: the first temperature-like float grid, on the density's voxels
    for (const char* name : kTemperatureNames) {
        if (!withGlow) break;
        if (name == gridName || !file.has(name)) continue;
        auto heat = openvdb::gridPtrCast<openvdb::FloatGrid>(file.read(name));
        if (!heat) continue;
        vdb::sampleOnto(*heat, density->transform(), box, v.temperature);
        v.hasTemperature = true;
        v.temperatureName = name;
        break;
    }

    // Flame: a fire's glow, beside a temperature of its own (a plume fire
    // cache); Mantaflow's flame alone already stands in for temperature.
    if (v.hasTemperature && v.temperatureName != "flame" && gridName != "flame" &&
        file.has("flame")) {
        if (auto flame = openvdb::gridPtrCast<openvdb::FloatGrid>(file.read("flame"))) {
            vdb::sampleOnto(*flame, density->transform(), box, v.flame);
            v.hasFlame = true;
        }
    }

    // Colour (sim/smoke_color.h), of the smoke's density only: plume's
    // `color` (the colour itself), else Mantaflow's premultiplied channels.
    if (gridName == "density" && file.has("color")) {
        if (auto color = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.read("color"))) {
            vdb::sampleOnto(*color, density->transform(), box, v.color);
            v.hasColor = true;
        }
    }
    if (gridName == "density" && !v.hasColor && vdb::hasMantaflowColor(file)) {
        v.hasColor = v.colorPremultiplied = true;
        for (int a = 0; a < 3; ++a) {
            auto channel =
                openvdb::gridPtrCast<openvdb::FloatGrid>(file.read(vdb::kMantaflowColorNames[a]));
            if (!channel) {
                v.hasColor = false;
                break;
            }
            vdb::sampleOnto(*channel, density->transform(), box, v.color[a]);
        }
        if (!v.hasColor)
            for (ScalarGrid& c : v.color) c = ScalarGrid();
    }

    // Velocity: the first vector grid of the names asked for, on the same voxels.
    for (const std::string& name : velocityNames) {
        if (!file.has(name)) continue;
        auto vel = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.read(name));
        if (!vel) continue;
        const openvdb::Coord dim = box.dim();
        for (ScalarGrid& c : v.velocity) c = ScalarGrid(dim.x(), dim.y(), dim.z());
        const vdb::ForeignVelocity foreign = vdb::foreignVelocity(*vel, float(vel->voxelSize()[0]));
        // A staggered component is read half a voxel along its axis, at the
        // cell's centre.
        const double half = foreign.staggered ? 0.5 * vel->voxelSize()[0] : 0.0;
        parallelForSlabs(dim.z(), [&](int k) {
            const openvdb::Vec3SGrid::ConstAccessor accessor = vel->getConstAccessor();
            openvdb::tools::GridSampler<openvdb::Vec3SGrid::ConstAccessor,
                                        openvdb::tools::BoxSampler>
                sampler(accessor, vel->transform());
            for (int j = 0; j < dim.y(); ++j)
                for (int i = 0; i < dim.x(); ++i) {
                    const openvdb::Vec3d at =
                        density->transform().indexToWorld(box.min().offsetBy(i, j, k));
                    if (!foreign.staggered) {
                        const openvdb::Vec3s u = sampler.wsSample(at);
                        for (int a = 0; a < 3; ++a) v.velocity[a](i, j, k) = u[a] * foreign.scale;
                        continue;
                    }
                    for (int a = 0; a < 3; ++a) {
                        openvdb::Vec3d p = at;
                        p[a] += half;
                        v.velocity[a](i, j, k) = sampler.wsSample(p)[a] * foreign.scale;
                    }
                }
        });
        v.hasVelocity = true;
        break;
    }
    return v;
}

}  // namespace

LoadedVolume readVdbVolume(const std::string& path, const std::string& gridName,
                           const std::vector<std::string>& velocityNames, bool withGlow,
                           Vec3f sceneOrigin) {
    vdb::Reader file(path);
    // The grids are dense over the density's active box: a sparse grid with
    // smoke far apart can need more than there is (render-vdb checks the box
    // against the machine first; this is the last line, one line naming the file).
    CoordBBox box;
    try {
        return readVolume(file, gridName, velocityNames, withGlow, sceneOrigin, box);
    } catch (const std::bad_alloc&) {
        throw RunError("cannot read '" + path + "': grid '" + gridName + "' spans " + boxSize(box) +
                       " voxels, more than can be allocated as a dense box");
    }
}

VolumeBounds readVdbBounds(const std::string& path, const std::string& gridName,
                           Vec3f sceneOrigin) {
    vdb::Reader file(path);
    // OpenVDB records each grid's active box when it writes a file; without
    // that record the voxels must be read to find it.
    auto grid = file.cast<openvdb::FloatGrid>(file.readMetadata(gridName));
    auto lo = grid->getMetadata<openvdb::Vec3IMetadata>(openvdb::GridBase::META_FILE_BBOX_MIN);
    auto hi = grid->getMetadata<openvdb::Vec3IMetadata>(openvdb::GridBase::META_FILE_BBOX_MAX);
    const CoordBBox active =
        lo && hi ? CoordBBox(Coord(lo->value()), Coord(hi->value()))
                 : file.readAs<openvdb::FloatGrid>(gridName)->evalActiveVoxelBoundingBox();
    // Placed as readVdbVolume places it, so framing by either gives the same camera.
    const CoordBBox box = vdb::renderedBox(active);
    const float dx = vdb::uniformVoxelSize(*grid, path);
    VolumeBounds b;
    for (int a = 0; a < 3; ++a) b.voxels[a] = std::int64_t(box.max()[a]) - box.min()[a] + 1;
    b.worldMin = vdb::cellCorner(grid->transform(), box.min(), sceneOrigin);
    b.worldMax =
        b.worldMin + Vec3f(float(b.voxels[0]), float(b.voxels[1]), float(b.voxels[2])) * dx;
    return b;
}

}  // namespace plume
