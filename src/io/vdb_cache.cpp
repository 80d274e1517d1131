#include "io/vdb_cache.h"

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Dense.h>
#include <openvdb/tools/Interpolation.h>
#include <openvdb/tools/Prune.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "core/error.h"
#include "core/parallel.h"
#include "io/vdb_layout.h"

// OpenVDB keeps a file's grid descriptors (where each grid starts and ends)
// private and befriends only its own unit test, ::TestFile. We borrow that door
// for a read-only look: it is the only way to notice a file cut short inside a
// grid we never read, instead of rendering it as if it were whole.
class TestFile {
public:
    static int64_t lastGridEnd(const openvdb::io::File& file) {
        int64_t end = 0;
        for (const auto& [name, descriptor] : file.gridDescriptors())
            end = std::max(end, descriptor.getEndPos());
        return end;
    }
};

namespace plume {

namespace fs = std::filesystem;

namespace vdb_detail {

void initialize() {
    static std::once_flag once;
    std::call_once(once, [] { openvdb::initialize(); });
}

void writeAtomically(const std::string& path, const std::function<void(const std::string&)>& write) {
    const std::string tmp = path + ".tmp";
    auto discard = [&] {
        std::error_code ec;
        fs::remove(tmp, ec);
    };
    try {
        write(tmp);
    } catch (const RunError&) {
        discard();
        throw;
    } catch (const std::exception& e) {
        discard();
        throw RunError("cannot write '" + path + "': " + e.what());
    }
    std::error_code ec;
    if (fs::file_size(tmp, ec) == 0 || ec) {
        discard();
        throw RunError("cannot write '" + path + "': nothing was written (is the disk full?)");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        discard();
        throw RunError("cannot write '" + path + "': " + ec.message());
    }
}

uint32_t compressionFlags() {
    // Blosc is lossless and fast; Debian's OpenVDB has it, but a build without
    // it must still write readable files.
    return openvdb::io::COMPRESS_ACTIVE_MASK |
           (openvdb::io::Archive::hasBloscCompression() ? openvdb::io::COMPRESS_BLOSC
                                                        : openvdb::io::COMPRESS_ZIP);
}

std::string notReadable(const std::string& path, const std::string& why) {
    // OpenVDB reports garbage from a corrupt file verbatim (a "grid type" of
    // kilobytes of padding): keep the message to one short printable line.
    constexpr size_t kMaxWhy = 160;
    std::string clean;
    for (char c : why) {
        bool printable = c > ' ' && c < 127;
        if (printable) clean += c;
        else if (!clean.empty() && clean.back() != ' ') clean += ' ';
        if (clean.size() >= kMaxWhy) {
            clean += "...";
            break;
        }
    }
    while (!clean.empty() && clean.back() == ' ') clean.pop_back();
    return "'" + path + "' is not a readable VDB file (" + clean + ")";
}

void requireWhole(const openvdb::io::File& file, const std::string& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const int64_t end = TestFile::lastGridEnd(file);
    if (!ec && end > int64_t(size))
        throw RunError(notReadable(path, "cut short: its grids end at byte " + std::to_string(end) +
                                             ", the file has " + std::to_string(size)));
}

void requireFile(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw RunError("cannot read '" + path + "': no such file");
    if (fs::is_directory(path, ec)) throw RunError("cannot read '" + path + "': it is a directory");
    // Before OpenVDB opens it: a cut-short file makes OpenVDB allocate gigabytes.
    if (std::string why = vdbLayoutProblem(path); !why.empty()) throw RunError(notReadable(path, why));
}

// Writes grids and file metadata to path through a temporary and a rename,
// Blosc-compressed; any failure is a RunError naming path.
void writeGridsAtomically(const std::string& path, const openvdb::GridPtrVec& grids,
                          const openvdb::MetaMap& meta) {
    try {
        writeAtomically(path, [&](const std::string& tmp) {
            openvdb::io::File file(tmp);
            file.setCompression(compressionFlags());
            file.write(grids, meta);
            file.close();
            // OpenVDB does not report a failed write (a full disk leaves a
            // short file): check that every grid ends inside the file before
            // it takes the frame's name.
            if (!vdbLayoutProblem(tmp).empty()) {
                std::error_code ec;
                const auto space = fs::space(fs::path(tmp).parent_path(), ec);
                throw RunError("cannot write '" + path + "': the file came out incomplete" +
                               (!ec && space.available < (1u << 20) ? " (the disk is full)" : ""));
            }
        });
    } catch (const RunError&) {
        throw;
    } catch (const std::exception& e) {
        throw RunError("cannot write '" + path + "': " + e.what());
    }
}

}  // namespace vdb_detail

namespace {

using openvdb::Coord;
using openvdb::CoordBBox;
using DenseFloat = openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ>;
using DenseVec3 = openvdb::tools::Dense<openvdb::Vec3s, openvdb::tools::LayoutXYZ>;

// The "frame"/"dx"/... metadata of plume files, by name, so readers agree.
constexpr const char* kMetaCreator = "creator";
constexpr const char* kMetaFrame = "frame";
constexpr const char* kMetaDx = "dx";
constexpr const char* kMetaScene = "scene";
constexpr const char* kMetaResolution = "resolution";  // cells per axis of the domain

// Grids that can colour a volume as temperature, best first: plume's and
// Blender 2.92+'s "temperature", older Blender's "heat", other tools' "temp"
// and "flames", and last Mantaflow's "flame" (0..1 reaction), which then
// renders as emission.
const char* const kTemperatureNames[] = {"temperature", "heat", "temp", "flames", "flame"};

// Voxel (i, j, k) centred at origin + (i + 0.5, j + 0.5, k + 0.5) * dx.
openvdb::math::Transform::Ptr cellCentredTransform(float dx, Vec3f origin) {
    auto xform = openvdb::math::Transform::createLinearTransform(double(dx));
    xform->postTranslate(openvdb::Vec3d(double(origin.x) + 0.5 * dx, double(origin.y) + 0.5 * dx,
                                        double(origin.z) + 0.5 * dx));
    return xform;
}

CoordBBox cellBox(int nx, int ny, int nz) { return CoordBBox(Coord(0), Coord(nx - 1, ny - 1, nz - 1)); }

openvdb::FloatGrid::Ptr fogGrid(const std::string& name, const ScalarGrid& g,
                                openvdb::math::Transform::Ptr xform, float tolerance, bool half) {
    auto grid = openvdb::FloatGrid::create(0.0f);
    // Dense only reads here; its constructor wants a mutable pointer.
    DenseFloat dense(cellBox(g.nx(), g.ny(), g.nz()), const_cast<float*>(g.data()));
    openvdb::tools::copyFromDense(dense, *grid, tolerance);
    openvdb::tools::prune(grid->tree());
    grid->setName(name);
    grid->setGridClass(openvdb::GRID_FOG_VOLUME);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(half);
    return grid;
}

openvdb::Vec3SGrid::Ptr velocityGrid(const std::string& name, const Fields& f,
                                     openvdb::math::Transform::Ptr xform, float tolerance,
                                     bool half) {
    // Cell-centred average of the MAC faces: what Blender and Houdini expect of
    // a non-staggered vector grid. Copied a leaf-high slab at a time, so the
    // dense staging buffer is a slab, not a second copy of the whole field.
    auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    constexpr int kSlab = int(openvdb::Vec3STree::LeafNodeType::DIM);
    std::vector<openvdb::Vec3s> centred(size_t(f.n.x) * f.n.y * kSlab);
    for (int z0 = 0; z0 < f.n.z; z0 += kSlab) {
        const int z1 = std::min(z0 + kSlab, f.n.z);
        parallelForSlabs(z1 - z0, [&](int dz) {
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    Vec3f v = f.centredVelocity(i, j, z0 + dz);
                    centred[(size_t(dz) * f.n.y + j) * f.n.x + i] = openvdb::Vec3s(v.x, v.y, v.z);
                }
        });
        DenseVec3 dense(CoordBBox(Coord(0, 0, z0), Coord(f.n.x - 1, f.n.y - 1, z1 - 1)),
                        centred.data());
        openvdb::tools::copyFromDense(dense, *grid, openvdb::Vec3s(tolerance));
    }
    openvdb::tools::prune(grid->tree());
    grid->setName(name);
    grid->setGridClass(openvdb::GRID_UNKNOWN);  // cell-centred, not GRID_STAGGERED
    grid->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
    grid->setTransform(xform);
    grid->setSaveFloatAsHalf(half);
    return grid;
}

// An open VDB file; every OpenVDB failure becomes a one-line RunError naming it.
class VdbReader {
public:
    explicit VdbReader(const std::string& path) : path_(path), file_(path) {
        vdb_detail::initialize();
        vdb_detail::requireFile(path);
        try {
            file_.setCopyMaxBytes(0);  // read in place, never via a temporary copy
            file_.open(false);         // no delayed loading: a bad file fails here, not later
            for (auto it = file_.beginName(); it != file_.endName(); ++it) names_.push_back(it.gridName());
            meta_ = file_.getMetadata();
        } catch (const std::exception& e) {
            throw RunError(vdb_detail::notReadable(path_, e.what()));
        }
        vdb_detail::requireWhole(file_, path_);
    }
    ~VdbReader() {
        try {
            if (file_.isOpen()) file_.close();
        } catch (...) {
        }
    }

    const std::vector<std::string>& names() const { return names_; }
    bool has(const std::string& name) const {
        return std::find(names_.begin(), names_.end(), name) != names_.end();
    }
    const openvdb::MetaMap& meta() const { return *meta_; }

    std::string gridList() const {
        if (names_.empty()) return "the file holds no grids";
        std::string list = "grids: ";
        for (size_t n = 0; n < names_.size(); ++n) list += (n ? ", " : "") + names_[n];
        return list;
    }

    openvdb::GridBase::Ptr read(const std::string& name) {
        if (!has(name))
            throw RunError("'" + path_ + "' has no grid '" + name + "' (" + gridList() + ")");
        try {
            return file_.readGrid(name);
        } catch (const std::exception& e) {
            throw RunError(vdb_detail::notReadable(path_, e.what()));
        }
    }

    template <typename GridT>
    typename GridT::Ptr readAs(const std::string& name, const char* wanted) {
        openvdb::GridBase::Ptr base = read(name);
        typename GridT::Ptr grid = openvdb::gridPtrCast<GridT>(base);
        if (!grid)
            throw RunError("grid '" + name + "' in '" + path_ + "' holds " + base->valueType() +
                           " values, not " + wanted);
        return grid;
    }

private:
    std::string path_;
    openvdb::io::File file_;
    std::vector<std::string> names_;
    openvdb::MetaMap::Ptr meta_;
};

// World position of the min corner of voxel 'c', for cell-centred data.
Vec3f cellCorner(const openvdb::math::Transform& xform, const Coord& c) {
    openvdb::Vec3d p = xform.indexToWorld(c.asVec3d() - openvdb::Vec3d(0.5));
    return {float(p.x()), float(p.y()), float(p.z())};
}

// The voxel size to render with; warns on stderr about placements plume can only approximate.
float uniformVoxelSize(const openvdb::GridBase& grid, const std::string& path) {
    const openvdb::math::Transform& xform = grid.transform();
    if (!xform.isLinear())
        throw RunError("grid '" + grid.getName() + "' in '" + path + "' has a " +
                       xform.mapType() + " transform; plume renders only linear transforms");
    openvdb::Vec3d vs = grid.voxelSize();
    if (std::abs(vs.x() - vs.y()) > 1e-6 * vs.x() || std::abs(vs.x() - vs.z()) > 1e-6 * vs.x())
        std::fprintf(stderr,
                     "plume: warning: '%s': grid '%s' has voxel size %g x %g x %g; "
                     "rendering with %g on every axis\n",
                     path.c_str(), grid.getName().c_str(), vs.x(), vs.y(), vs.z(), vs.x());
    if (!xform.baseMap()->getAffineMap()->isScaleTranslate())
        std::fprintf(stderr,
                     "plume: warning: '%s': grid '%s' is rotated; rendering it axis-aligned\n",
                     path.c_str(), grid.getName().c_str());
    return float(vs.x());
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

template <typename T, typename MetaT>
T metaOr(const openvdb::MetaMap& meta, const char* name, T fallback) {
    auto m = meta.getMetadata<MetaT>(name);
    return m ? T(m->value()) : fallback;
}

}  // namespace

void writeVdbFrame(const std::string& path, const Fields& f, int frame,
                   const std::string& sceneName, const CacheOptions& opt) {
    vdb_detail::initialize();
    const bool half = opt.precision == VdbPrecision::Half;
    openvdb::GridPtrVec grids;
    openvdb::MetaMap meta;
    try {
        auto xform = cellCentredTransform(f.dx, f.origin);
        grids.push_back(fogGrid("density", f.density, xform, opt.tolerance, half));
        grids.push_back(fogGrid("temperature", f.temperature, xform, opt.tolerance, half));
        grids.push_back(velocityGrid(opt.velocityName, f, xform, opt.tolerance, half));

        meta.insertMeta(kMetaCreator, openvdb::StringMetadata(std::string("plume ") + PLUME_VERSION));
        meta.insertMeta(kMetaFrame, openvdb::Int32Metadata(frame));
        meta.insertMeta(kMetaDx, openvdb::FloatMetadata(f.dx));
        meta.insertMeta(kMetaScene, openvdb::StringMetadata(sceneName));
        meta.insertMeta(kMetaResolution, openvdb::Vec3IMetadata(openvdb::Vec3i(f.n.x, f.n.y, f.n.z)));

    } catch (const std::exception& e) {
        throw RunError("cannot write '" + path + "': " + e.what());
    }
    vdb_detail::writeGridsAtomically(path, grids, meta);
}

std::vector<std::string> listGrids(const std::string& path) { return VdbReader(path).names(); }

LoadedVolume readVdbVolume(const std::string& path, const std::string& gridName) {
    VdbReader file(path);
    LoadedVolume v;
    v.gridNames = file.names();

    // Density: dense over its active box, placed by the file's transform
    auto density = file.readAs<openvdb::FloatGrid>(gridName, "float values");
    v.dx = uniformVoxelSize(*density, path);
    CoordBBox box = density->evalActiveVoxelBoundingBox();
    if (box.empty()) box = CoordBBox(Coord(0), Coord(0));  // an empty frame: one clear voxel
    copyBox(*density, box, v.density);
    v.origin = cellCorner(density->transform(), box.min());

    // Temperature: the first temperature-like float grid, on the density's voxels
    for (const char* name : kTemperatureNames) {
        if (name == gridName || !file.has(name)) continue;
        auto heat = openvdb::gridPtrCast<openvdb::FloatGrid>(file.read(name));
        if (!heat) continue;
        sampleOnto(*heat, density->transform(), box, v.temperature);
        v.hasTemperature = true;
        v.temperatureName = name;
        break;
    }
    return v;
}

namespace {

CacheFrame readFrame(VdbReader& file, const std::string& path, const std::string& velocityName) {
    CacheFrame c;
    auto density = file.readAs<openvdb::FloatGrid>("density", "float values");
    c.dx = uniformVoxelSize(*density, path);
    c.origin = cellCorner(density->transform(), Coord(0));
    c.frame = metaOr<int, openvdb::Int32Metadata>(file.meta(), kMetaFrame, 0);
    c.sceneName = metaOr<std::string, openvdb::StringMetadata>(file.meta(), kMetaScene, "");
    c.creator = metaOr<std::string, openvdb::StringMetadata>(file.meta(), kMetaCreator, "");

    // Size: the domain's, as recorded, else what the active voxels reach
    openvdb::Vec3i n(0);
    if (auto res = file.meta().getMetadata<openvdb::Vec3IMetadata>(kMetaResolution)) {
        n = res->value();
    } else {
        CoordBBox active = density->evalActiveVoxelBoundingBox();
        if (!active.empty()) n = openvdb::Vec3i(active.max().x() + 1, active.max().y() + 1, active.max().z() + 1);
    }
    if (n.x() <= 0 || n.y() <= 0 || n.z() <= 0)
        throw RunError("'" + path + "' does not say its resolution and has no active voxels");
    c.n = {n.x(), n.y(), n.z()};
    const CoordBBox box = cellBox(c.n.x, c.n.y, c.n.z);

    copyBox(*density, box, c.density);
    c.temperature = ScalarGrid(c.n.x, c.n.y, c.n.z);
    if (file.has("temperature"))
        copyBox(*file.readAs<openvdb::FloatGrid>("temperature", "float values"), box, c.temperature);

    c.velocity = Grid3<Vec3f>(c.n.x, c.n.y, c.n.z);
    if (file.has(velocityName)) {
        auto vel = file.readAs<openvdb::Vec3SGrid>(velocityName, "vec3s values");
        std::vector<openvdb::Vec3s> values(c.velocity.size(), openvdb::Vec3s(0.0f));
        DenseVec3 dense(box, values.data());
        openvdb::tools::copyToDense(*vel, dense);
        for (size_t m = 0; m < values.size(); ++m)
            c.velocity[m] = {values[m].x(), values[m].y(), values[m].z()};
    }
    return c;
}

}  // namespace

CacheFrame readVdbFrame(const std::string& path, const std::string& velocityName) {
    VdbReader file(path);
    return readFrame(file, path, velocityName);
}

Grid3<Vec3f> readVdbVelocity(const std::string& path, const std::string& name) {
    VdbReader file(path);
    if (!file.has(name))
        throw RunError("'" + path + "' has no grid '" + name + "' (" + file.gridList() + ")");
    return readFrame(file, path, name).velocity;
}

}  // namespace plume
