// A whole plume cache frame read back, shaped like Fields (readVdbFrame,
// readVdbVelocity): for plume upres, the tests and tools.
#include <algorithm>

#include "core/error.h"
#include "core/parallel.h"
#include "io/vdb_cache.h"
#include "io/vdb_cache_read_private.h"

namespace plume {

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;

CacheFrame readFrame(vdb::Reader& file, const std::string& velocityName) {
    const std::string& path = file.path();
    CacheFrame c;
    auto density = file.readAs<openvdb::FloatGrid>("density");
    c.dx = vdb::uniformVoxelSize(*density, path);
    vdb::warnApproximatePlacement(*density, path);
    c.origin = vdb::cellCorner(density->transform(), Coord(0));
    c.frame = vdb::metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaFrame, 0);
    c.fps = vdb::metaOr<double, openvdb::FloatMetadata>(file.meta(), vdb::kMetaFps, 0.0);
    c.sceneName =
        vdb::metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaScene, "");
    c.creator =
        vdb::metaOr<std::string, openvdb::StringMetadata>(file.meta(), vdb::kMetaCreator, "");

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
    const CoordBBox box = vdb::cellBox(c.n.x, c.n.y, c.n.z);

    vdb::copyBox(*density, box, c.density);
    c.temperature = ScalarGrid(c.n.x, c.n.y, c.n.z);
    if (file.has("temperature"))
        vdb::copyBox(*file.readAs<openvdb::FloatGrid>("temperature"), box, c.temperature);
    // A fire's: both or neither, as plume writes them.
    if (file.has("fuel") && file.has("flame")) {
        vdb::copyBox(*file.readAs<openvdb::FloatGrid>("fuel"), box, c.fuel);
        vdb::copyBox(*file.readAs<openvdb::FloatGrid>("flame"), box, c.flame);
    }
    // Colour, premultiplied as the solver holds it.
    if (file.has("color")) {
        vdb::sampleOnto(*file.readAs<openvdb::Vec3SGrid>("color"), density->transform(), box,
                        c.color);
        for (ScalarGrid& channel : c.color)
            for (size_t m = 0; m < channel.size(); ++m) channel[m] *= c.density[m];
    } else if (vdb::hasMantaflowColor(file)) {
        for (int a = 0; a < 3; ++a)
            vdb::copyBox(*file.readAs<openvdb::FloatGrid>(vdb::kMantaflowColorNames[a]), box,
                         c.color[a]);
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
    c.upresFactor = std::max(
        1, vdb::metaOr<int, openvdb::Int32Metadata>(file.meta(), vdb::kMetaUpresFactor, 1));
    const Vec3i nv{c.n.x / c.upresFactor, c.n.y / c.upresFactor, c.n.z / c.upresFactor};
    c.velocity = Grid3<Vec3f>(nv.x, nv.y, nv.z);
    c.hasVelocity = file.has(velocityName);
    if (c.hasVelocity) {
        auto vel = file.readAs<openvdb::Vec3SGrid>(velocityName);
        std::vector<openvdb::Vec3s> values(c.velocity.size(), openvdb::Vec3s(0.0f));
        vdb::DenseVec3 dense(vdb::cellBox(nv.x, nv.y, nv.z), values.data());
        openvdb::tools::copyToDense(*vel, dense);
        const vdb::ForeignVelocity foreign = vdb::foreignVelocity(*vel, c.dx);
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
