#include "io/solver_state.h"

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Dense.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "io/vdb_cache.h"

namespace plume {

namespace vdb_detail {
// In vdb_cache.cpp: RunError when the file ends before its last grid does.
void requireWhole(const openvdb::io::File& file, const std::string& path);
// In vdb_cache.cpp: grids and metadata to path through a temporary and a rename.
void writeGridsAtomically(const std::string& path, const openvdb::GridPtrVec& grids,
                          const openvdb::MetaMap& meta);
}  // namespace vdb_detail

namespace fs = std::filesystem;

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;

constexpr const char* kPrefix = "plume_state_";
constexpr const char* kMetaFrame = "frame";
constexpr const char* kMetaTime = "time";
constexpr const char* kMetaHash = "scene_hash";
constexpr const char* kMetaScene = "scene";
constexpr const char* kMetaResolution = "resolution";
constexpr const char* kMetaDx = "dx";

const char* const kScalarNames[] = {"u", "v", "w", "density", "temperature"};

const ScalarGrid& scalarField(const Fields& f, int m) {
    switch (m) {
        case 0: return f.u;
        case 1: return f.v;
        case 2: return f.w;
        case 3: return f.density;
        default: return f.temperature;
    }
}
ScalarGrid& scalarField(Fields& f, int m) {
    return const_cast<ScalarGrid&>(scalarField(static_cast<const Fields&>(f), m));
}

CoordBBox boxOf(int nx, int ny, int nz) { return CoordBBox(Coord(0), Coord(nx - 1, ny - 1, nz - 1)); }

// Places samples where they live (faces or centres), so the file can be
// inspected in Houdini or vdb_view; reading back ignores it.
openvdb::math::Transform::Ptr sampleTransform(const Fields& f, Vec3f offset) {
    auto xform = openvdb::math::Transform::createLinearTransform(double(f.dx));
    xform->postTranslate(openvdb::Vec3d(f.origin.x + double(offset.x) * f.dx,
                                        f.origin.y + double(offset.y) * f.dx,
                                        f.origin.z + double(offset.z) * f.dx));
    return xform;
}

// Every value bit for bit: tolerance 0 keeps all non-zero values active, and
// -0.0 (which copyFromDense folds into the +0 background) is set back by hand.
openvdb::FloatGrid::Ptr exactGrid(const std::string& name, const ScalarGrid& g,
                                  openvdb::math::Transform::Ptr xform) {
    auto grid = openvdb::FloatGrid::create(0.0f);
    openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ> dense(
        boxOf(g.nx(), g.ny(), g.nz()), const_cast<float*>(g.data()));
    openvdb::tools::copyFromDense(dense, *grid, 0.0f);
    auto acc = grid->getAccessor();
    for (int k = 0; k < g.nz(); ++k)
        for (int j = 0; j < g.ny(); ++j)
            for (int i = 0; i < g.nx(); ++i) {
                float value = g(i, j, k);
                if (value == 0.0f && std::signbit(value)) acc.setValueOn(Coord(i, j, k), value);
            }
    grid->setName(kPrefix + name);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(false);
    return grid;
}

openvdb::Int32Grid::Ptr solidGrid(const Fields& f) {
    auto grid = openvdb::Int32Grid::create(0);
    const Grid3<uint8_t>& s = f.solid;
    openvdb::tools::Dense<uint8_t, openvdb::tools::LayoutXYZ> dense(
        boxOf(s.nx(), s.ny(), s.nz()), const_cast<uint8_t*>(s.data()));
    openvdb::tools::copyFromDense(dense, *grid, 0);
    grid->setName(std::string(kPrefix) + "solid");
    grid->setTransform(sampleTransform(f, Vec3f(0.5f)));
    return grid;
}

// The warm-start pressure in double: tolerance 0 keeps every non-zero value.
openvdb::DoubleGrid::Ptr pressureGrid(const Fields& f, const Grid3<double>& p) {
    auto grid = openvdb::DoubleGrid::create(0.0);
    openvdb::tools::Dense<double, openvdb::tools::LayoutXYZ> dense(
        boxOf(p.nx(), p.ny(), p.nz()), const_cast<double*>(p.data()));
    openvdb::tools::copyFromDense(dense, *grid, 0.0);
    grid->setName(std::string(kPrefix) + "pressure");
    grid->setTransform(sampleTransform(f, Vec3f(0.5f)));
    return grid;
}

std::string dims(int nx, int ny, int nz) {
    return std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
}

// Reads one grid of the state file as GridT, or throws naming what is wrong.
template <typename GridT>
typename GridT::Ptr readStateGrid(openvdb::io::File& file, const std::string& path,
                                  const std::string& name) {
    if (!file.hasGrid(name))
        throw RunError("'" + path + "' has no grid '" + name + "'; it is not a plume resume state");
    openvdb::GridBase::Ptr base;
    try {
        base = file.readGrid(name);
    } catch (const std::exception& e) {
        throw RunError(vdb_detail::notReadable(path, e.what()));
    }
    auto grid = openvdb::gridPtrCast<GridT>(base);
    if (!grid)
        throw RunError("grid '" + name + "' in '" + path + "' holds " + base->valueType() +
                       " values, not " + openvdb::typeNameAsString<typename GridT::ValueType>());
    return grid;
}

// Copies grid into out over [0, size); refuses voxels outside (a different grid).
template <typename GridT, typename T>
void copyExact(const GridT& grid, const std::string& path, Grid3<T>& out) {
    CoordBBox box = boxOf(out.nx(), out.ny(), out.nz());
    CoordBBox active = grid.evalActiveVoxelBoundingBox();
    if (!active.empty() && !box.isInside(active))
        throw RunError("grid '" + grid.getName() + "' in '" + path + "' reaches outside " +
                       dims(out.nx(), out.ny(), out.nz()) + " samples");
    openvdb::tools::Dense<T, openvdb::tools::LayoutXYZ> dense(box, out.data());
    openvdb::tools::copyToDense(grid, dense);
}

}  // namespace

std::string resumeStatePath(const std::string& dir, const std::string& name) {
    std::string file = name + ".resume";
    return dir.empty() ? file : (fs::path(dir) / file).string();
}

void writeSolverState(const std::string& path, const Fields& f, int frame,
                      const std::string& sceneHash, const std::string& sceneName,
                      const Grid3<double>* pressure) {
    vdb_detail::initialize();
    openvdb::GridPtrVec grids;
    openvdb::MetaMap meta;
    try {
        // Staggered components at their own offsets, then the cell-centred fields
        for (int m = 0; m < 5; ++m) {
            const ScalarGrid& g = scalarField(f, m);
            grids.push_back(exactGrid(kScalarNames[m], g, sampleTransform(f, g.offset())));
        }
        grids.push_back(solidGrid(f));
        if (pressure) grids.push_back(pressureGrid(f, *pressure));

        meta.insertMeta("creator", openvdb::StringMetadata(std::string("plume ") + PLUME_VERSION));
        meta.insertMeta(kMetaFrame, openvdb::Int32Metadata(frame));
        meta.insertMeta(kMetaTime, openvdb::DoubleMetadata(f.time));
        meta.insertMeta(kMetaHash, openvdb::StringMetadata(sceneHash));
        meta.insertMeta(kMetaScene, openvdb::StringMetadata(sceneName));
        meta.insertMeta(kMetaResolution, openvdb::Vec3IMetadata(openvdb::Vec3i(f.n.x, f.n.y, f.n.z)));
        meta.insertMeta(kMetaDx, openvdb::FloatMetadata(f.dx));

    } catch (const std::exception& e) {
        throw RunError("cannot write '" + path + "': " + e.what());
    }
    vdb_detail::writeGridsAtomically(path, grids, meta);
}

SolverState readSolverState(const std::string& path, Fields& f, Grid3<double>* pressure) {
    vdb_detail::initialize();
    vdb_detail::requireFile(path);
    openvdb::io::File file(path);
    openvdb::MetaMap::Ptr meta;
    try {
        file.setCopyMaxBytes(0);
        file.open(false);
        meta = file.getMetadata();
    } catch (const std::exception& e) {
        throw RunError(vdb_detail::notReadable(path, e.what()));
    }
    vdb_detail::requireWhole(file, path);

    // The state must be of this very grid
    auto res = meta->getMetadata<openvdb::Vec3IMetadata>(kMetaResolution);
    auto frame = meta->getMetadata<openvdb::Int32Metadata>(kMetaFrame);
    auto hash = meta->getMetadata<openvdb::StringMetadata>(kMetaHash);
    if (!res || !frame || !hash)
        throw RunError("'" + path + "' is not a plume resume state (no resolution, frame or scene hash)");
    openvdb::Vec3i n = res->value();
    if (n.x() != f.n.x || n.y() != f.n.y || n.z() != f.n.z)
        throw RunError("'" + path + "' holds a " + dims(n.x(), n.y(), n.z()) + " state; the scene has " +
                       dims(f.n.x, f.n.y, f.n.z) + " cells");
    auto dx = meta->getMetadata<openvdb::FloatMetadata>(kMetaDx);
    if (dx && dx->value() != f.dx)
        throw RunError("'" + path + "' was saved with voxel size " + std::to_string(dx->value()) +
                       "; the scene has " + std::to_string(f.dx));

    // Grids, bit for bit
    for (int m = 0; m < 5; ++m) {
        auto grid = readStateGrid<openvdb::FloatGrid>(file, path, kPrefix + std::string(kScalarNames[m]));
        copyExact(*grid, path, scalarField(f, m));
    }
    auto solid = readStateGrid<openvdb::Int32Grid>(file, path, std::string(kPrefix) + "solid");
    copyExact(*solid, path, f.solid);
    if (pressure) {
        *pressure = Grid3<double>(f.n.x, f.n.y, f.n.z);
        const std::string name = std::string(kPrefix) + "pressure";
        if (file.hasGrid(name))
            copyExact(*readStateGrid<openvdb::DoubleGrid>(file, path, name), path, *pressure);
    }
    file.close();

    SolverState state;
    state.frame = frame->value();
    state.sceneHash = hash->value();
    if (auto scene = meta->getMetadata<openvdb::StringMetadata>(kMetaScene)) state.sceneName = scene->value();
    if (auto time = meta->getMetadata<openvdb::DoubleMetadata>(kMetaTime)) state.time = time->value();
    f.time = state.time;
    return state;
}

}  // namespace plume
