#include "io/solver_state.h"

#include <openvdb/tools/Dense.h>

#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "io/vdb_private.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;

constexpr const char* kPrefix = "plume_state_";
// Beside the metadata of every plume file (vdb_private.h):
constexpr const char* kMetaTime = "time";
constexpr const char* kMetaHash = "scene_hash";

// The fields of a state: the last two only in a scene that burns fuel.
const char* const kScalarNames[] = {"u", "v", "w", "density", "temperature", "fuel", "flame"};
int scalarCount(const Fields& f) { return f.burns() ? 7 : 5; }

const ScalarGrid& scalarField(const Fields& f, int m) {
    switch (m) {
        case 0:
            return f.u;
        case 1:
            return f.v;
        case 2:
            return f.w;
        case 3:
            return f.density;
        case 4:
            return f.temperature;
        case 5:
            return f.fuel;
        default:
            return f.flame;
    }
}
ScalarGrid& scalarField(Fields& f, int m) {
    return const_cast<ScalarGrid&>(scalarField(static_cast<const Fields&>(f), m));
}

CoordBBox boxOf(int nx, int ny, int nz) {
    return CoordBBox(Coord(0), Coord(nx - 1, ny - 1, nz - 1));
}

// Places samples where they live (faces or centres), so the file can be
// inspected in Houdini or vdb_view; reading back ignores it.
openvdb::math::Transform::Ptr sampleTransform(const Fields& f, Vec3f offset) {
    auto xform = openvdb::math::Transform::createLinearTransform(double(f.dx));
    xform->postTranslate(openvdb::Vec3d(f.origin.x + double(offset.x) * f.dx,
                                        f.origin.y + double(offset.y) * f.dx,
                                        f.origin.z + double(offset.z) * f.dx));
    return xform;
}

// A state grid named kPrefix + name holding every value of g: tolerance 0
// keeps all non-zero values active.
template <typename GridT, typename T>
typename GridT::Ptr stateGrid(const std::string& name, const Grid3<T>& g,
                              openvdb::math::Transform::Ptr xform) {
    using Value = typename GridT::ValueType;
    auto grid = GridT::create(Value(0));
    // Dense only reads here; its constructor wants a mutable pointer.
    openvdb::tools::Dense<T, openvdb::tools::LayoutXYZ> dense(boxOf(g.nx(), g.ny(), g.nz()),
                                                              const_cast<T*>(g.data()));
    openvdb::tools::copyFromDense(dense, *grid, Value(0));
    grid->setName(kPrefix + name);
    grid->setTransform(xform);
    return grid;
}

// A float field bit for bit, at full precision: -0.0 (which copyFromDense
// folds into the +0 background) is set back by hand.
openvdb::FloatGrid::Ptr exactGrid(const std::string& name, const ScalarGrid& g,
                                  openvdb::math::Transform::Ptr xform) {
    auto grid = stateGrid<openvdb::FloatGrid>(name, g, xform);
    auto acc = grid->getAccessor();
    for (int k = 0; k < g.nz(); ++k)
        for (int j = 0; j < g.ny(); ++j)
            for (int i = 0; i < g.nx(); ++i) {
                float value = g(i, j, k);
                if (value == 0.0f && std::signbit(value)) acc.setValueOn(Coord(i, j, k), value);
            }
    grid->setSaveFloatAsHalf(false);
    return grid;
}

std::string dims(int nx, int ny, int nz) {
    return std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
}

// Reads one grid of the state file as GridT, or throws naming what is wrong.
template <typename GridT>
typename GridT::Ptr readStateGrid(vdb::Reader& file, const std::string& name) {
    if (!file.has(name))
        throw RunError("'" + file.path() + "' has no grid '" + name +
                       "'; it is not a plume resume state");
    return file.readAs<GridT>(name);
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
    vdb::writeFile(path, [&](openvdb::GridPtrVec& grids, openvdb::MetaMap& meta) {
        // Staggered components at their own offsets, then the cell-centred fields
        for (int m = 0; m < scalarCount(f); ++m) {
            const ScalarGrid& g = scalarField(f, m);
            grids.push_back(exactGrid(kScalarNames[m], g, sampleTransform(f, g.offset())));
        }
        // Solid cells as integers, the warm-start pressure in double, at cell centres
        grids.push_back(
            stateGrid<openvdb::Int32Grid>("solid", f.solid, sampleTransform(f, Vec3f(0.5f))));
        if (pressure)
            grids.push_back(stateGrid<openvdb::DoubleGrid>("pressure", *pressure,
                                                           sampleTransform(f, Vec3f(0.5f))));

        vdb::insertFrameMetadata(meta, f, frame, sceneName);
        meta.insertMeta(kMetaTime, openvdb::DoubleMetadata(f.time));
        meta.insertMeta(kMetaHash, openvdb::StringMetadata(sceneHash));
    });
}

SolverState readSolverState(const std::string& path, Fields& f, Grid3<double>* pressure) {
    vdb::Reader file(path);
    const openvdb::MetaMap& meta = file.meta();

    // The state must be of this very grid
    auto res = meta.getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaResolution);
    auto frame = meta.getMetadata<openvdb::Int32Metadata>(vdb::kMetaFrame);
    auto hash = meta.getMetadata<openvdb::StringMetadata>(kMetaHash);
    if (!res || !frame || !hash)
        throw RunError("'" + path +
                       "' is not a plume resume state (no resolution, frame or scene hash)");
    openvdb::Vec3i n = res->value();
    const Vec3i domain = f.domainSize();
    if (n.x() != domain.x || n.y() != domain.y || n.z() != domain.z)
        throw RunError("'" + path + "' holds a " + dims(n.x(), n.y(), n.z()) +
                       " state; the scene has " + dims(domain.x, domain.y, domain.z) + " cells");
    auto dx = meta.getMetadata<openvdb::FloatMetadata>(vdb::kMetaDx);
    if (dx && dx->value() != f.dx)
        throw RunError("'" + path + "' was saved with voxel size " + std::to_string(dx->value()) +
                       "; the scene has " + std::to_string(f.dx));
    // A sparse solve's state holds its box: the fields take its shape.
    Vec3i boxMin{0, 0, 0}, boxSize = domain;
    auto lo = meta.getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxMin);
    auto size = meta.getMetadata<openvdb::Vec3IMetadata>(vdb::kMetaBoxSize);
    if (lo && size) {
        boxMin = {lo->value().x(), lo->value().y(), lo->value().z()};
        boxSize = {size->value().x(), size->value().y(), size->value().z()};
        for (int a = 0; a < 3; ++a)
            if (boxMin[a] < 0 || boxSize[a] < 1 || boxMin[a] + boxSize[a] > domain[a])
                throw RunError("'" + path + "' holds a box outside its domain");
    }
    if (!(boxMin == f.offset) || !(boxSize == f.n)) {
        Fields box(boxSize, f.dx,
                   f.domainOrigin() +
                       Vec3f(float(boxMin.x), float(boxMin.y), float(boxMin.z)) * f.dx);
        box.offset = boxMin;
        box.domainCells = f.domainCells;
        if (f.burns()) box.enableFire();
        f = std::move(box);
    }

    // Grids, bit for bit
    for (int m = 0; m < scalarCount(f); ++m) {
        auto grid = readStateGrid<openvdb::FloatGrid>(file, kPrefix + std::string(kScalarNames[m]));
        copyExact(*grid, path, scalarField(f, m));
    }
    auto solid = readStateGrid<openvdb::Int32Grid>(file, std::string(kPrefix) + "solid");
    copyExact(*solid, path, f.solid);
    if (pressure) {
        *pressure = Grid3<double>(f.n.x, f.n.y, f.n.z);
        const std::string name = std::string(kPrefix) + "pressure";
        if (file.has(name))
            copyExact(*readStateGrid<openvdb::DoubleGrid>(file, name), path, *pressure);
    }

    SolverState state;
    state.frame = frame->value();
    state.sceneHash = hash->value();
    if (auto scene = meta.getMetadata<openvdb::StringMetadata>(vdb::kMetaScene))
        state.sceneName = scene->value();
    if (auto time = meta.getMetadata<openvdb::DoubleMetadata>(kMetaTime))
        state.time = time->value();
    f.time = state.time;
    return state;
}

}  // namespace plume
