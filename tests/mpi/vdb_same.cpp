// vdb_same A.vdb B.vdb: exit 0 when the two files hold the same grids, each
// with the same transform, active voxels and values bit for bit; else prints
// the first difference per grid and exits 1. Read with OpenVDB's own API and
// none of plume's code (the split bake's tests, tests/mpi/split_bake_test.sh).
#include <openvdb/openvdb.h>
#include <openvdb/points/PointDataGrid.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <string>

namespace {

// Every active voxel of a float or vector grid, as its bytes.
std::map<std::string, std::string> voxels(const openvdb::GridBase::Ptr& grid) {
    std::map<std::string, std::string> out;
    auto key = [](const openvdb::Coord& c) {
        return std::string(reinterpret_cast<const char*>(c.data()), sizeof(int) * 3);
    };
    auto bytes = [](const auto& v) {
        return std::string(reinterpret_cast<const char*>(&v), sizeof v);
    };
    if (auto f = openvdb::gridPtrCast<openvdb::FloatGrid>(grid)) {
        for (auto it = f->cbeginValueOn(); it; ++it) {
            if (it.isVoxelValue()) {
                out[key(it.getCoord())] = bytes(*it);
            } else {
                openvdb::CoordBBox box;
                it.getBoundingBox(box);
                for (auto c = box.begin(); c; ++c) out[key(*c)] = bytes(*it);
            }
        }
    } else if (auto v = openvdb::gridPtrCast<openvdb::Vec3SGrid>(grid)) {
        for (auto it = v->cbeginValueOn(); it; ++it) {
            openvdb::CoordBBox box;
            it.getBoundingBox(box);
            for (auto c = box.begin(); c; ++c) out[key(*c)] = bytes(*it);
        }
    } else if (auto points = openvdb::gridPtrCast<openvdb::points::PointDataGrid>(grid)) {
        // Every attribute of every point, leaf by leaf, in the order stored.
        for (auto leaf = points->tree().cbeginLeaf(); leaf; ++leaf) {
            const auto& set = leaf->attributeSet();
            for (const auto& [name, index] : set.descriptor().map()) {
                const auto& array = *set.getConst(index);
                const std::string type = array.valueType();
                std::string values;
                auto all = [&](auto zero) {
                    openvdb::points::AttributeHandle<decltype(zero)> handle(array);
                    for (openvdb::Index i = 0; i < handle.size(); ++i) values += bytes(handle.get(i));
                };
                if (type == "float") all(0.0f);
                else if (type == "vec3s") all(openvdb::Vec3f());
                else if (type == "int32") all(std::int32_t(0));
                else if (type == "int64") all(std::int64_t(0));
                else values = "type " + type;
                out[key(leaf->origin()) + name] = values;
            }
        }
    } else {
        out["type"] = grid->type();  // other grids: compared by their metadata only
        out["count"] = std::to_string(grid->activeVoxelCount());
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: vdb_same A.vdb B.vdb\n");
        return 2;
    }
    try {
        openvdb::initialize();
        openvdb::io::File a(argv[1]), b(argv[2]);
        a.open();
        b.open();
        auto gridsA = a.readAllGridMetadata(), gridsB = b.readAllGridMetadata();
        int differences = 0;
        if (gridsA->size() != gridsB->size()) {
            std::printf("%s has %zu grids, %s %zu\n", argv[1], gridsA->size(), argv[2],
                        gridsB->size());
            return 1;
        }
        for (const auto& meta : *gridsA) {
            const std::string name = meta->getName();
            if (!b.hasGrid(name)) {
                std::printf("%s: no grid '%s'\n", argv[2], name.c_str());
                ++differences;
                continue;
            }
            auto ga = a.readGrid(name), gb = b.readGrid(name);
            if (ga->transform() != gb->transform()) {
                std::printf("'%s': transforms differ\n", name.c_str());
                ++differences;
            }
            const auto va = voxels(ga), vb = voxels(gb);
            if (va.size() != vb.size()) {
                std::printf("'%s': %zu active voxels against %zu\n", name.c_str(), va.size(),
                            vb.size());
                ++differences;
                continue;
            }
            int shown = 0;
            for (auto ia = va.begin(), ib = vb.begin(); ia != va.end(); ++ia, ++ib) {
                if (ia->first == ib->first && ia->second == ib->second) continue;
                int c[3];
                std::memcpy(c, ia->first.data(), sizeof c);
                if (shown++ == 0)
                    std::printf("'%s': differs at voxel (%d, %d, %d)\n", name.c_str(), c[0], c[1],
                                c[2]);
            }
            if (shown) {
                std::printf("'%s': %d voxels differ\n", name.c_str(), shown);
                ++differences;
            }
        }
        return differences == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vdb_same: %s\n", e.what());
        return 1;
    }
}
