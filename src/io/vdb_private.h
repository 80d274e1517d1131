// The seam between io's OpenVDB files (vdb_cache_*.cpp, solver_state.cpp):
// opening a file as one-line errors, writing one atomically, and the metadata
// every plume file carries. io-private: included only by io .cpp files, so
// OpenVDB stays behind io's public headers.
#pragma once

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/box.h"
#include "sim/fields.h"

namespace plume::vdb {

// File metadata of plume's files, by name, so writers and readers agree.
inline constexpr const char* kMetaCreator = "creator";
inline constexpr const char* kMetaFrame = "frame";
inline constexpr const char* kMetaDx = "dx";
inline constexpr const char* kMetaScene = "scene";
inline constexpr const char* kMetaResolution = "resolution";  // cells per axis of the domain
// The scene's frame rate (time.fps), so a tool importing the sequence can time it.
inline constexpr const char* kMetaFps = "plume_fps";
// True in a cache written exact (32-bit, nothing dropped): it is read back
// over the whole domain, as the solver's fields are rendered.
inline constexpr const char* kMetaExact = "plume_exact";
// A sparse solve's frame: the box of the domain it held (voxels min to
// min + size - 1; voxel indices are the domain's).
inline constexpr const char* kMetaBoxMin = "plume_box_min";
inline constexpr const char* kMetaBoxSize = "plume_box_size";
// A frame with upres: fine voxels per velocity voxel along an axis (the
// scalars' "resolution" and box are the fine grid's).
inline constexpr const char* kMetaUpresFactor = "plume_upres_factor";
// True when all the frame's smoke is a fire's soot (Scene::smokeOnlyFromFire):
// drawn in physics.flame_smoke_color, not render.albedo's grey.
inline constexpr const char* kMetaSootOnly = "plume_soot_only";
// physics.time_scale at the frame (simulated seconds per shot second), only
// where it is not 1: render-vdb and upres of the cache without its scene
// count the shutter and the fine steps in the cache's own time.
inline constexpr const char* kMetaTimeScale = "plume_time_scale";

void initialize();  // openvdb::initialize(), once per process

// The metadata every plume file carries: creator, frame, voxel size, scene
// name and resolution of f.
void insertFrameMetadata(openvdb::MetaMap& meta, const Fields& f, int frame,
                         const std::string& sceneName);
// The same, with `held` (domain cells) as the box the frame held, for f one
// of several parts.
void insertFrameMetadata(openvdb::MetaMap& meta, const Fields& f, const Box3i& held, int frame,
                         const std::string& sceneName);

// A grid of a file written a grid at a time: its name, and what makes it.
struct GridMaker {
    std::string name;
    std::function<openvdb::GridBase::Ptr()> make;
};

// Writes meta and the grids `grids` make to path, through a temporary and a
// rename (core/atomic_file.h), Blosc-compressed, and checks the file came out
// whole. Each grid is made, written and let go before the next is made, so
// the writer holds one grid of a frame at a time; `keep` (when not null)
// keeps them all, for a second file. Any failure is a RunError naming path.
void writeFile(const std::string& path, const openvdb::MetaMap& meta,
               const std::vector<GridMaker>& grids, openvdb::GridPtrVec* keep = nullptr);

// An open VDB file; every OpenVDB failure becomes a one-line RunError naming it.
// Refuses a missing, cut-short or corrupt file before OpenVDB reads it.
class Reader {
  public:
    explicit Reader(const std::string& path);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    const std::string& path() const { return path_; }
    const std::vector<std::string>& names() const { return names_; }
    bool has(const std::string& name) const;
    const openvdb::MetaMap& meta() const { return *meta_; }
    // "grids: a, b, c", or that the file holds none; for messages.
    std::string gridList() const;

    // The whole grid; RunError naming the grids there when it is missing.
    openvdb::GridBase::Ptr read(const std::string& name);
    // The grid's metadata and transform only, no voxels.
    openvdb::GridBase::Ptr readMetadata(const std::string& name);

    template <typename GridT>
    typename GridT::Ptr readAs(const std::string& name) {
        return cast<GridT>(read(name));
    }
    // RunError unless grid holds GridT's values ("... holds vec3s values, not float values").
    template <typename GridT>
    typename GridT::Ptr cast(const openvdb::GridBase::Ptr& grid) const {
        typename GridT::Ptr typed = openvdb::gridPtrCast<GridT>(grid);
        if (!typed)
            throw RunError("grid '" + grid->getName() + "' in '" + path_ + "' holds " +
                           grid->valueType() + " values, not " +
                           openvdb::typeNameAsString<typename GridT::ValueType>() + " values");
        return typed;
    }

  private:
    void requireGrid(const std::string& name) const;

    std::string path_;
    openvdb::io::File file_;
    std::vector<std::string> names_;
    openvdb::MetaMap::Ptr meta_;
};

}  // namespace plume::vdb
