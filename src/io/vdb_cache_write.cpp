// Writing plume's VDB cache (writeVdbFrame): a frame's grids, a grid at a
// time as the file takes them, beside its NanoVDB file and its sparks. The
// readers are vdb_cache_read.cpp's and vdb_cache_frame.cpp's.
#include <openvdb/tools/Dense.h>
#include <openvdb/tools/Prune.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parallel.h"
#include "io/nvdb_private.h"
#include "io/spark_ply.h"
#include "io/vdb_cache.h"
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
        grids.push_back(
            {name, [&, name, field] { return fogGrid(name, scalars, field, xform, tol, half); }});
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
    const vdb::GridMaker sparks{
        kSparksGrid,
        [&] { return sparksGrid(*opt.sparks, opt.worldOrigin + f.domainOrigin(), f.dx); }};
    std::optional<vdb::Reader> from;
    if (!opt.carryFrom.empty()) {
        from.emplace(opt.carryFrom);
        for (const std::string& name : from->names()) {
            const bool written =
                name == kSparksGrid || std::any_of(grids.begin(), grids.end(),
                                                   [&](const auto& g) { return g.name == name; });
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

}  // namespace plume
