#include "io/vdb_cache.h"

#include <openvdb/tools/Dense.h>
#include <openvdb/tools/Interpolation.h>
#include <openvdb/tools/Prune.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <new>
#include <optional>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/nvdb_private.h"
#include "io/spark_ply.h"
#include "io/vdb_private.h"
#include "io/vdb_sparks.h"
#include "io/vdb_sparks_grid.h"
#include "sim/smoke_color.h"
#include "sim/upres/upres.h"

namespace plume {

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;
using DenseFloat = openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ>;
using DenseVec3 = openvdb::tools::Dense<openvdb::Vec3s, openvdb::tools::LayoutXYZ>;

// Grids that can colour a volume as temperature, best first: plume's and
// Blender 2.92+'s "temperature", older Blender's "heat", other tools' "temp"
// and "flames", and last Mantaflow's "flame" (0..1 reaction), which then
// renders as emission.
const char* const kTemperatureNames[] = {"temperature", "heat", "temp", "flames", "flame"};

// Voxel (i, j, k) centred at world + origin + (i + 0.5, j + 0.5, k + 0.5) * dx:
// origin in the domain's frame, world the domain's place (domain.origin),
// added in double so the solver's floats come back from the file.
openvdb::math::Transform::Ptr cellCentredTransform(float dx, Vec3f origin, Vec3f world) {
    auto xform = openvdb::math::Transform::createLinearTransform(double(dx));
    xform->postTranslate(openvdb::Vec3d(double(world.x) + double(origin.x) + 0.5 * dx,
                                        double(world.y) + double(origin.y) + 0.5 * dx,
                                        double(world.z) + double(origin.z) + 0.5 * dx));
    return xform;
}

CoordBBox cellBox(int nx, int ny, int nz) {
    return CoordBBox(Coord(0), Coord(nx - 1, ny - 1, nz - 1));
}

// The voxels of a box of the domain that starts at cell `offset`.
CoordBBox cellBox(Vec3i offset, int nx, int ny, int nz) {
    return CoordBBox(Coord(offset.x, offset.y, offset.z),
                     Coord(offset.x + nx - 1, offset.y + ny - 1, offset.z + nz - 1));
}

// The voxels of slabs [z0, z1) of a box of the domain.
CoordBBox slabBox(const Box3i& box, int z0, int z1) {
    const Vec3i n = box.size();
    return CoordBBox(Coord(box.lo.x, box.lo.y, box.lo.z + z0),
                     Coord(box.lo.x + n.x - 1, box.lo.y + n.y - 1, box.lo.z + z1 - 1));
}

// Grid g of every island of a frame into `grid`, each run of slabs where it
// lies in the domain (copyFromDense merges a run into the leaves the runs
// before it began, so runs make the tree one copy of the whole would).
template <typename GridT, typename DenseT>
void addFed(GridT& grid, const FrameFeed& feed, FeedGrid g, float tolerance) {
    using Value = typename GridT::ValueType;
    const std::vector<Box3i> boxes = feed.boxes();
    for (size_t island = 0; island < boxes.size(); ++island)
        feed.read(island, g, [&](int z0, int z1, const void* values) {
            // Dense only reads here; its constructor wants a mutable pointer.
            DenseT dense(slabBox(boxes[island], z0, z1),
                         const_cast<Value*>(static_cast<const Value*>(values)));
            openvdb::tools::copyFromDense(dense, grid, Value(tolerance));
        });
}

// A cell-centred field of boxes of the domain (a sparse solve's islands, or
// one box), in the domain's voxel indices.
openvdb::FloatGrid::Ptr fogGrid(const std::string& name, const FrameFeed& feed, FeedGrid field,
                                openvdb::math::Transform::Ptr xform, float tolerance, bool half) {
    auto grid = openvdb::FloatGrid::create(0.0f);
    addFed<openvdb::FloatGrid, DenseFloat>(*grid, feed, field, tolerance);
    openvdb::tools::prune(grid->tree());
    grid->setName(name);
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(half);
    return grid;
}

// Copies the cell-centred vectors at(i, j, k) of the n cells from `offset`
// into grid, a leaf-high slab at a time, so the dense staging buffer is a
// slab, not a second copy of the whole field.
template <typename At>
void addCentred(openvdb::Vec3SGrid& grid, Vec3i offset, Vec3i n, float tolerance, const At& at) {
    constexpr int kSlab = int(openvdb::Vec3STree::LeafNodeType::DIM);
    std::vector<openvdb::Vec3s> centred(size_t(n.x) * n.y * kSlab);
    for (int z0 = 0; z0 < n.z; z0 += kSlab) {
        const int z1 = std::min(z0 + kSlab, n.z);
        parallelForSlabs(z1 - z0, [&](int dz) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Vec3f v = at(i, j, z0 + dz);
                    centred[(size_t(dz) * n.y + j) * n.x + i] = openvdb::Vec3s(v.x, v.y, v.z);
                }
        });
        const Vec3i o = offset;
        DenseVec3 dense(
            CoordBBox(Coord(o.x, o.y, o.z + z0), Coord(o.x + n.x - 1, o.y + n.y - 1, o.z + z1 - 1)),
            centred.data());
        openvdb::tools::copyFromDense(dense, grid, openvdb::Vec3s(tolerance));
    }
}

openvdb::Vec3SGrid::Ptr finishVelocityGrid(openvdb::Vec3SGrid::Ptr grid, const std::string& name,
                                           openvdb::math::Transform::Ptr xform, bool half) {
    openvdb::tools::prune(grid->tree());
    grid->setName(name);
    grid->setGridClass(openvdb::GRID_UNKNOWN);  // cell-centred, not GRID_STAGGERED
    grid->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(half);
    return grid;
}

openvdb::Vec3SGrid::Ptr velocityGrid(const std::string& name, const FrameFeed& feed,
                                     openvdb::math::Transform::Ptr xform, float tolerance,
                                     bool half) {
    // Cell-centred average of the MAC faces: what Blender and Houdini expect of
    // a non-staggered vector grid.
    auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    addFed<openvdb::Vec3SGrid, DenseVec3>(*grid, feed, FeedGrid::Velocity, tolerance);
    return finishVelocityGrid(grid, name, xform, half);
}

// The same from cell-centred grids over a box of the domain (upres's input).
openvdb::Vec3SGrid::Ptr velocityGrid(const std::string& name, const UpresInput& in,
                                     openvdb::math::Transform::Ptr xform, float tolerance,
                                     bool half) {
    auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    if (!in.box.empty())
        addCentred(*grid, in.box.lo, in.box.size(), tolerance, [&in](int i, int j, int k) {
            return Vec3f(in.velocity[0](i, j, k), in.velocity[1](i, j, k), in.velocity[2](i, j, k));
        });
    return finishVelocityGrid(grid, name, xform, half);
}

// The smoke's colour (sim/smoke_color.h) of the parts that have one: the
// colour itself, premultiplied over density, which Blender's Principled
// Volume takes for its Color attribute as it is (Mantaflow holds color_r,
// _g and _b premultiplied, and Blender divides by density before shading).
openvdb::Vec3SGrid::Ptr colorGrid(const FrameFeed& feed, openvdb::math::Transform::Ptr xform,
                                  float tolerance, bool half) {
    auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    addFed<openvdb::Vec3SGrid, DenseVec3>(*grid, feed, FeedGrid::Color, tolerance);
    openvdb::tools::prune(grid->tree());
    grid->setName("color");
    grid->setGridClass(openvdb::GRID_UNKNOWN);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(half);
    return grid;
}

// Position of the min corner of voxel 'c', for cell-centred data, relative
// to the world point `from` (in double, then rounded once).
Vec3f cellCorner(const openvdb::math::Transform& xform, const Coord& c, Vec3f from = {0, 0, 0}) {
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

// Mantaflow's colour channels (color_r, _g, _b: premultiplied by density).
constexpr const char* kMantaflowColorNames[] = {"color_r", "color_g", "color_b"};

bool hasMantaflowColor(vdb::Reader& file) {
    return std::all_of(std::begin(kMantaflowColorNames), std::end(kMantaflowColorNames),
                       [&](const char* name) { return file.has(name); });
}

template <typename T, typename MetaT>
T metaOr(const openvdb::MetaMap& meta, const char* name, T fallback) {
    auto m = meta.getMetadata<MetaT>(name);
    return m ? T(m->value()) : fallback;
}

// Blender's Mantaflow writes its grids with the domain's resolution in each
// (file_base_resolution) and its velocity as it holds it: staggered (the
// class says so; the x component of voxel (i, j, k) sits on its low x face)
// and in cells per Mantaflow time unit, of which Blender makes a frame 0.1 *
// 25 / fps long (fluid.c: DT_DEFAULT * (25 / fps) * time_scale, time scale
// 1). So m/s = value * dx * 2.5 whatever the frame rate: on bench.toml's
// setup that gives Mantaflow's plume the speeds plume's has (peak 5.25
// against 5.33 m/s at frame 20), where the raw values are 13 times them.
struct ForeignVelocity {
    float scale = 1.0f;      // to m/s
    bool staggered = false;  // face values, not cell-centred
};

constexpr float kMantaflowSecondsPerTimeUnit = 2.5f;  // per cell of dx metres: see above

bool isMantaflowGrid(const openvdb::GridBase& grid) {
    return bool(grid.getMetadata<openvdb::Vec3IMetadata>("file_base_resolution"));
}

ForeignVelocity foreignVelocity(const openvdb::GridBase& velocity, float dx) {
    ForeignVelocity f;
    if (!isMantaflowGrid(velocity)) return f;
    f.scale = kMantaflowSecondsPerTimeUnit * dx;
    f.staggered = velocity.getGridClass() == openvdb::GRID_STAGGERED;
    return f;
}

// Builds a frame's velocity grid, given its tolerance and precision.
using VelocityBuilder = std::function<openvdb::Vec3SGrid::Ptr(float tolerance, bool half)>;

// The scalars from `scalars` (the solver's islands, or upres's fine grid)
// on their voxels, the velocity from `velocity` on its own; flowCells: the
// velocity's domain cells along x when they are coarser than the scalars'
// (upres), else 0.
void writeFrame(const std::string& path, const VelocityBuilder& velocity, int flowCells,
                const FrameFeed& scalars, int frame, const std::string& sceneName,
                const CacheOptions& opt) {
    const Fields& f = scalars.frame();
    // The domain's voxels, wherever a sparse solve's boxes lie in it, so
    // every frame of a sequence shares one transform.
    auto xform = cellCentredTransform(f.dx, f.domainOrigin(), opt.worldOrigin);
    const float tol = opt.tolerance;
    const bool half = opt.halfFloats;
    // Made one at a time as the file takes them: a frame's writer holds one
    // grid, the largest, not all of them.
    std::vector<vdb::GridMaker> grids;
    auto fog = [&](const char* name, FeedGrid field) {
        grids.push_back({name, [&, name, field] {
                             return fogGrid(name, scalars, field, xform, tol, half);
                         }});
    };
    fog("density", FeedGrid::Density);
    fog("temperature", FeedGrid::Temperature);
    grids.push_back({opt.velocityName, [&] { return velocity(tol, half); }});
    // Fire: named as Blender's Mantaflow names them, so Blender's fire
    // shading (a Principled Volume's flame and blackbody) finds them.
    if (f.burns()) {
        fog("flame", FeedGrid::Flame);
        fog("fuel", FeedGrid::Fuel);
    }
    if (f.colored())
        grids.push_back({"color", [&] { return colorGrid(scalars, xform, tol, half); }});
    // The sparks go in a file of their own (io/vdb_sparks.h).
    const vdb::GridMaker sparks{kSparksGrid, [&] {
                                    return sparksGrid(*opt.sparks,
                                                      opt.worldOrigin + f.domainOrigin(), f.dx);
                                }};
    std::optional<vdb::Reader> from;
    if (!opt.carryFrom.empty()) {
        from.emplace(opt.carryFrom);
        for (const std::string& name : from->names()) {
            const bool written =
                name == kSparksGrid || std::any_of(grids.begin(), grids.end(), [&](const auto& g) {
                    return g.name == name;
                });
            if (!written) grids.push_back({name, [&from, name] { return from->read(name); }});
        }
    }
    openvdb::MetaMap meta;
    // The box around every part: what plume render drew.
    Box3i held;
    for (const Box3i& box : scalars.boxes()) held = unite(held, box);
    vdb::insertFrameMetadata(meta, f, held, frame, sceneName);
    if (flowCells > 0)
        meta.insertMeta(vdb::kMetaUpresFactor,
                        openvdb::Int32Metadata(f.domainSize().x / flowCells));
    if (!opt.halfFloats && opt.tolerance == 0.0f)
        meta.insertMeta(vdb::kMetaExact, openvdb::BoolMetadata(true));
    if (opt.fps > 0) meta.insertMeta(vdb::kMetaFps, openvdb::FloatMetadata(float(opt.fps)));
    if (opt.sootOnly) meta.insertMeta(vdb::kMetaSootOnly, openvdb::BoolMetadata(true));
    if (opt.timeScale > 0)
        meta.insertMeta(vdb::kMetaTimeScale, openvdb::FloatMetadata(float(opt.timeScale)));
    // Made once for the VDB file, the NanoVDB file, or both.
    openvdb::GridPtrVec built;
    const bool nvdb = !opt.nvdbPath.empty();
    if (!path.empty()) {
        vdb::writeFile(path, meta, grids, nvdb ? &built : nullptr);
    } else {
        vdb::initialize();
        for (const vdb::GridMaker& g : grids) built.push_back(g.make());
    }
    if (nvdb) {
        if (opt.sparks) built.push_back(sparks.make());  // NanoVDB keeps them in the frame
        writeNvdbFile(opt.nvdbPath, built, opt.nvdb);
    }
    // The sparks beside a frame file, as VDB points and again as a PLY for
    // Blender (io/spark_ply.h); a frame without sparks leaves no earlier
    // bake's files beside it. plume upres carries the base frame's sparks,
    // and so their files.
    if (path.empty() || outputTarget(path) != OutputTarget::File) return;
    if (!opt.sparks && !opt.carryFrom.empty()) {
        carrySparkPly(sparkVdbPath(opt.carryFrom), sparkVdbPath(path));
        carrySparkPly(sparkPlyPath(opt.carryFrom), sparkPlyPath(path));
        return;
    }
    if (opt.sparks) {
        vdb::writeFile(sparkVdbPath(path), meta, {sparks});
    } else {
        std::error_code ec;  // none there is the usual case
        std::filesystem::remove(sparkVdbPath(path), ec);
    }
    syncSparkPly(sparkPlyPath(path), opt.sparks, opt.worldOrigin + f.domainOrigin());
}

// writeFrame with the velocity of the frame `flow` feeds.
void writeFrame(const std::string& path, const FrameFeed& flow, const FrameFeed& scalars, int frame,
                const std::string& sceneName, const CacheOptions& opt) {
    const Fields& base = flow.frame();
    const bool upres = &base != &scalars.frame();
    writeFrame(
        path,
        [&](float tol, bool half) {
            return velocityGrid(opt.velocityName, flow,
                                cellCentredTransform(base.dx, base.domainOrigin(), opt.worldOrigin),
                                tol, half);
        },
        upres ? base.domainSize().x : 0, scalars, frame, sceneName, opt);
}

LocalFeed feedOf(const std::vector<const Fields*>& parts) {
    std::vector<LocalFeed::Part> fed;
    for (const Fields* p : parts) fed.push_back({p, nullptr});
    return LocalFeed(std::move(fed));
}

}  // namespace

void writeVdbFrame(const std::string& path, const Fields& f, int frame,
                   const std::string& sceneName, const CacheOptions& opt) {
    writeVdbFrame(path, std::vector<const Fields*>{&f}, frame, sceneName, opt);
}

void writeVdbFrame(const std::string& path, const std::vector<const Fields*>& parts, int frame,
                   const std::string& sceneName, const CacheOptions& opt) {
    writeVdbFrame(path, feedOf(parts), frame, sceneName, opt);
}

void writeVdbFrame(const std::string& path, const FrameFeed& feed, int frame,
                   const std::string& sceneName, const CacheOptions& opt) {
    writeFrame(path, feed, feed, frame, sceneName, opt);
}

void writeVdbFrame(const std::string& path, const std::vector<const Fields*>& parts,
                   const Fields& fine, int frame, const std::string& sceneName,
                   const CacheOptions& opt) {
    writeFrame(path, feedOf(parts), feedOf({&fine}), frame, sceneName, opt);
}

void writeVdbFrame(const std::string& path, const UpresInput& base, const Fields& fine, int frame,
                   const std::string& sceneName, const CacheOptions& opt) {
    writeFrame(
        path,
        [&](float tol, bool half) {
            return velocityGrid(opt.velocityName, base,
                                cellCentredTransform(base.dx, base.domainOrigin, opt.worldOrigin),
                                tol, half);
        },
        base.domainCells.x, feedOf({&fine}), frame, sceneName, opt);
}

std::vector<std::string> listGrids(const std::string& path) { return vdb::Reader(path).names(); }

VdbInfo readVdbInfo(const std::string& path) {
    vdb::Reader file(path);
    VdbInfo info;
    info.grids = file.names();
    info.creator = metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");
    info.sceneName = metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaScene, "");
    info.fps = metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaFps, 0.0);
    auto exact = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaExact);
    info.exact = exact && exact->value();
    auto soot = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaSootOnly);
    info.sootOnly = soot && soot->value();
    info.timeScale = metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaTimeScale, 0.0);
    info.upresFactor =
        std::max(1, metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaUpresFactor, 1));
    return info;
}

std::string vdbCreator(const std::string& path) {
    vdb::Reader file(path);
    return metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");
}

namespace {

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
    v.dx = uniformVoxelSize(*density, path);
    warnApproximatePlacement(*density, path);
    box = renderedBox(density->evalActiveVoxelBoundingBox());
    auto exact = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaExact);
    auto res = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaResolution);
    if (exact && exact->value() && res) {
        // What plume render drew: the whole domain, or the box a sparse
        // solve held that frame.
        const openvdb::Vec3i n = res->value();
        CoordBBox held = cellBox(n.x(), n.y(), n.z());
        auto boxMin = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxMin);
        auto boxSize = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxSize);
        if (boxMin && boxSize) {
            const openvdb::Vec3i m = boxMin->value(), s = boxSize->value();
            held = cellBox({m.x(), m.y(), m.z()}, s.x(), s.y(), s.z());
        }
        if (!held.empty() && held.isInside(box)) box = held;
    }
    copyBox(*density, box, v.density);
    v.origin = cellCorner(density->transform(), box.min(), sceneOrigin);

    // Temperature: the first temperature-like float grid, on the density's voxels
    for (const char* name : kTemperatureNames) {
        if (!withGlow) break;
        if (name == gridName || !file.has(name)) continue;
        auto heat = openvdb::gridPtrCast<openvdb::FloatGrid>(file.read(name));
        if (!heat) continue;
        sampleOnto(*heat, density->transform(), box, v.temperature);
        v.hasTemperature = true;
        v.temperatureName = name;
        break;
    }

    // Flame: a fire's glow, beside a temperature of its own (a plume fire
    // cache); Mantaflow's flame alone already stands in for temperature.
    if (v.hasTemperature && v.temperatureName != "flame" && gridName != "flame" &&
        file.has("flame")) {
        if (auto flame = openvdb::gridPtrCast<openvdb::FloatGrid>(file.read("flame"))) {
            sampleOnto(*flame, density->transform(), box, v.flame);
            v.hasFlame = true;
        }
    }

    // Colour (sim/smoke_color.h), of the smoke's density only: plume's
    // `color` (the colour itself), else Mantaflow's premultiplied channels.
    if (gridName == "density" && file.has("color")) {
        if (auto color = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.read("color"))) {
            sampleOnto(*color, density->transform(), box, v.color);
            v.hasColor = true;
        }
    }
    if (gridName == "density" && !v.hasColor && hasMantaflowColor(file)) {
        v.hasColor = v.colorPremultiplied = true;
        for (int a = 0; a < 3; ++a) {
            auto channel =
                openvdb::gridPtrCast<openvdb::FloatGrid>(file.read(kMantaflowColorNames[a]));
            if (!channel) {
                v.hasColor = false;
                break;
            }
            sampleOnto(*channel, density->transform(), box, v.color[a]);
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
        const ForeignVelocity foreign = foreignVelocity(*vel, float(vel->voxelSize()[0]));
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
    const CoordBBox box = renderedBox(active);
    const float dx = uniformVoxelSize(*grid, path);
    VolumeBounds b;
    for (int a = 0; a < 3; ++a) b.voxels[a] = std::int64_t(box.max()[a]) - box.min()[a] + 1;
    b.worldMin = cellCorner(grid->transform(), box.min(), sceneOrigin);
    b.worldMax =
        b.worldMin + Vec3f(float(b.voxels[0]), float(b.voxels[1]), float(b.voxels[2])) * dx;
    return b;
}

namespace {

CacheFrame readFrame(vdb::Reader& file, const std::string& velocityName) {
    const std::string& path = file.path();
    CacheFrame c;
    auto density = file.readAs<openvdb::FloatGrid>("density");
    c.dx = uniformVoxelSize(*density, path);
    warnApproximatePlacement(*density, path);
    c.origin = cellCorner(density->transform(), Coord(0));
    c.frame = metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaFrame, 0);
    c.fps = metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaFps, 0.0);
    c.sceneName = metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaScene, "");
    c.creator = metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");

    // Size: the domain's, as recorded, else what the active voxels reach
    openvdb::Vec3i n(0);
    if (auto res = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaResolution)) {
        n = res->value();
    } else if (auto base = density->getMetadata<openvdb::Vec3IMetadata>("file_base_resolution")) {
        n = base->value();  // Mantaflow's domain
    } else {
        CoordBBox active = density->evalActiveVoxelBoundingBox();
        if (!active.empty())
            n = openvdb::Vec3i(active.max().x() + 1, active.max().y() + 1, active.max().z() + 1);
    }
    if (n.x() <= 0 || n.y() <= 0 || n.z() <= 0)
        throw RunError("'" + path + "' does not say its resolution and has no active voxels");
    c.n = {n.x(), n.y(), n.z()};
    const CoordBBox box = cellBox(c.n.x, c.n.y, c.n.z);

    copyBox(*density, box, c.density);
    c.temperature = ScalarGrid(c.n.x, c.n.y, c.n.z);
    if (file.has("temperature"))
        copyBox(*file.readAs<openvdb::FloatGrid>("temperature"), box, c.temperature);
    // A fire's: both or neither, as plume writes them.
    if (file.has("fuel") && file.has("flame")) {
        copyBox(*file.readAs<openvdb::FloatGrid>("fuel"), box, c.fuel);
        copyBox(*file.readAs<openvdb::FloatGrid>("flame"), box, c.flame);
    }
    // Colour, premultiplied as the solver holds it.
    if (file.has("color")) {
        sampleOnto(*file.readAs<openvdb::Vec3SGrid>("color"), density->transform(), box, c.color);
        for (ScalarGrid& channel : c.color)
            for (size_t m = 0; m < channel.size(); ++m) channel[m] *= c.density[m];
    } else if (hasMantaflowColor(file)) {
        for (int a = 0; a < 3; ++a)
            copyBox(*file.readAs<openvdb::FloatGrid>(kMantaflowColorNames[a]), box, c.color[a]);
    }
    c.held = Box3i::at({0, 0, 0}, c.n);
    auto boxMin = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxMin);
    auto boxSize = file.meta().getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxSize);
    if (boxMin && boxSize) {
        const openvdb::Vec3i m = boxMin->value(), s = boxSize->value();
        c.held = intersect(Box3i::at({m.x(), m.y(), m.z()}, {s.x(), s.y(), s.z()}), c.held);
    }
    auto exact = file.meta().getMetadata<openvdb::BoolMetadata>(vdb::kMetaExact);
    c.exact = exact && exact->value();

    // With upres the velocity is on the base grid's voxels, factor times coarser.
    c.upresFactor =
        std::max(1, metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaUpresFactor, 1));
    const Vec3i nv{c.n.x / c.upresFactor, c.n.y / c.upresFactor, c.n.z / c.upresFactor};
    c.velocity = Grid3<Vec3f>(nv.x, nv.y, nv.z);
    c.hasVelocity = file.has(velocityName);
    if (c.hasVelocity) {
        auto vel = file.readAs<openvdb::Vec3SGrid>(velocityName);
        std::vector<openvdb::Vec3s> values(c.velocity.size(), openvdb::Vec3s(0.0f));
        DenseVec3 dense(cellBox(nv.x, nv.y, nv.z), values.data());
        openvdb::tools::copyToDense(*vel, dense);
        const ForeignVelocity foreign = foreignVelocity(*vel, c.dx);
        for (size_t m = 0; m < values.size(); ++m)
            c.velocity[m] = Vec3f(values[m].x(), values[m].y(), values[m].z()) * foreign.scale;
        if (foreign.staggered) {
            // Each component the mean of the cell's two faces along its axis
            // (the high face is the next cell's low one; the last keeps its own).
            const Grid3<Vec3f> faces = c.velocity;
            parallelForSlabs(nv.z, [&](int k) {
                for (int j = 0; j < nv.y; ++j)
                    for (int i = 0; i < nv.x; ++i) {
                        const Vec3f lo = faces(i, j, k);
                        const float hx = i + 1 < nv.x ? faces(i + 1, j, k).x : lo.x;
                        const float hy = j + 1 < nv.y ? faces(i, j + 1, k).y : lo.y;
                        const float hz = k + 1 < nv.z ? faces(i, j, k + 1).z : lo.z;
                        c.velocity(i, j, k) =
                            Vec3f(0.5f * (lo.x + hx), 0.5f * (lo.y + hy), 0.5f * (lo.z + hz));
                    }
            });
        }
    }
    return c;
}

}  // namespace

CacheFrame readVdbFrame(const std::string& path, const std::string& velocityName) {
    vdb::Reader file(path);
    return readFrame(file, velocityName);
}

Grid3<Vec3f> readVdbVelocity(const std::string& path, const std::string& name) {
    vdb::Reader file(path);
    if (!file.has(name))
        throw RunError("'" + path + "' has no grid '" + name + "' (" + file.gridList() + ")");
    return readFrame(file, name).velocity;
}

}  // namespace plume
