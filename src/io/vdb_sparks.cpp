#include "io/vdb_sparks.h"

#include <filesystem>

#include <openvdb/points/PointConversion.h>
#include <openvdb/points/PointDataGrid.h>

#include "io/vdb_private.h"
#include "io/vdb_sparks_grid.h"

namespace plume {

namespace pts = openvdb::points;

namespace {

// Float attributes beside P, and what each spark holds of them.
struct FloatAttribute {
    const char* name;
    float Spark::*member;
};
constexpr FloatAttribute kFloats[] = {{"age", &Spark::age},
                                      {"life", &Spark::life},
                                      {"temperature", &Spark::temperature},
                                      {"pscale", &Spark::pscale}};

template <typename T>
void addAttribute(pts::PointDataGrid& grid, const openvdb::tools::PointIndexGrid& index,
                  const char* name, const std::vector<T>& values) {
    pts::appendAttribute<T>(grid.tree(), name);
    pts::populateAttribute<pts::PointDataTree, openvdb::tools::PointIndexTree,
                           pts::PointAttributeVector<T>>(grid.tree(), index.tree(), name,
                                                         pts::PointAttributeVector<T>(values));
}

}  // namespace

openvdb::GridBase::Ptr sparksGrid(const SparkList& sparks, Vec3f world, float dx) {
    auto xform = openvdb::math::Transform::createLinearTransform(double(dx));
    std::vector<openvdb::Vec3d> positions;
    std::vector<openvdb::Vec3f> velocities;
    std::vector<std::int64_t> ids;
    positions.reserve(sparks.size());
    for (const Spark& s : sparks) {
        positions.emplace_back(double(world.x) + s.p.x, double(world.y) + s.p.y,
                               double(world.z) + s.p.z);
        velocities.emplace_back(s.v.x, s.v.y, s.v.z);
        ids.push_back(std::int64_t(s.id));
    }
    const pts::PointAttributeVector<openvdb::Vec3d> wrapper(positions);
    auto index =
        openvdb::tools::createPointIndexGrid<openvdb::tools::PointIndexGrid>(wrapper, *xform);
    auto grid =
        pts::createPointDataGrid<pts::NullCodec, pts::PointDataGrid>(*index, wrapper, *xform);
    if (!sparks.empty()) {
        addAttribute(*grid, *index, "v", velocities);
        for (const FloatAttribute& a : kFloats) {
            std::vector<float> values;
            values.reserve(sparks.size());
            for (const Spark& s : sparks) values.push_back(s.*a.member);
            addAttribute(*grid, *index, a.name, values);
        }
        addAttribute(*grid, *index, "id", ids);
    }
    grid->setName(kSparksGrid);
    return grid;
}

std::string sparkVdbPath(const std::string& vdbPath) {
    const std::string ext = ".vdb";
    const bool vdb = vdbPath.size() > ext.size() &&
                     vdbPath.compare(vdbPath.size() - ext.size(), ext.size(), ext) == 0;
    return (vdb ? vdbPath.substr(0, vdbPath.size() - ext.size()) : vdbPath) + "_sparks.vdb";
}

SparkList readVdbSparks(const std::string& framePath, Vec3f sceneOrigin) {
    std::error_code ec;
    const std::string own = sparkVdbPath(framePath);
    const std::string& path = std::filesystem::exists(own, ec) ? own : framePath;
    vdb::Reader file(path);
    SparkList out;
    if (!file.has(kSparksGrid)) return out;
    openvdb::GridBase::Ptr base = file.read(kSparksGrid);
    auto grid = openvdb::gridPtrCast<pts::PointDataGrid>(base);
    if (!grid) throw RunError("'" + path + "': its grid 'sparks' is not a points grid");
    const openvdb::math::Transform& xform = grid->transform();
    for (auto leaf = grid->tree().cbeginLeaf(); leaf; ++leaf) {
        const pts::AttributeSet& set = leaf->attributeSet();
        pts::AttributeHandle<openvdb::Vec3f> p(leaf->constAttributeArray("P"));
        auto handle = [&](const char* name) {
            return set.find(name) == pts::AttributeSet::INVALID_POS
                       ? nullptr
                       : &leaf->constAttributeArray(name);
        };
        const auto* va = handle("v");
        const auto* ida = handle("id");
        std::unique_ptr<pts::AttributeHandle<openvdb::Vec3f>> v;
        std::unique_ptr<pts::AttributeHandle<std::int64_t>> id;
        if (va) v = std::make_unique<pts::AttributeHandle<openvdb::Vec3f>>(*va);
        if (ida) id = std::make_unique<pts::AttributeHandle<std::int64_t>>(*ida);
        std::vector<std::unique_ptr<pts::AttributeHandle<float>>> floats;
        for (const FloatAttribute& a : kFloats) {
            const auto* arr = handle(a.name);
            floats.push_back(arr ? std::make_unique<pts::AttributeHandle<float>>(*arr) : nullptr);
        }
        for (auto it = leaf->beginIndexOn(); it; ++it) {
            const openvdb::Vec3d voxel = it.getCoord().asVec3d() + p.get(*it);
            const openvdb::Vec3d w = xform.indexToWorld(voxel);
            Spark s;
            s.p = Vec3f(float(w.x() - sceneOrigin.x), float(w.y() - sceneOrigin.y),
                        float(w.z() - sceneOrigin.z));
            if (v) {
                const openvdb::Vec3f vel = v->get(*it);
                s.v = Vec3f(vel.x(), vel.y(), vel.z());
            }
            for (size_t a = 0; a < floats.size(); ++a)
                if (floats[a]) s.*kFloats[a].member = floats[a]->get(*it);
            if (id) s.id = std::uint64_t(id->get(*it));
            out.push_back(s);
        }
    }
    // The file's order is its voxels'; the solver's, by birth, is kept in no file.
    std::sort(out.begin(), out.end(), [](const Spark& a, const Spark& b) { return a.id < b.id; });
    return out;
}

}  // namespace plume
