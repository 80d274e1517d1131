// The OpenVDB cache: one file per frame that Blender, Houdini and plume's own
// render-vdb read, and the reader for those files and Blender's (Mantaflow)
// and EmberGen's caches. OpenVDB stays behind this header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/spark.h"
#include "core/vec.h"
#include "core/volume.h"
#include "io/nvdb_cache.h"
#include "sim/fields.h"
#include "sim/frame_feed.h"

namespace plume {

struct UpresInput;  // sim/upres/upres.h

struct CacheOptions {
    bool halfFloats = true;                 // 16-bit floats on disk; false: 32-bit
    std::string velocityName = "velocity";  // "vel" for Houdini
    float tolerance = 1e-4f;                // values with |v| <= tolerance are inactive (sparse)
    // The domain's world position (domain.origin): the solver's fields are
    // placed from the domain's min corner, the file's voxels in the world.
    Vec3f worldOrigin{0, 0, 0};
    double fps = 0;  // time.fps, recorded as the file's "plume_fps" (0: not recorded)
    // A VDB file whose grids the frame carries as they are, where it writes
    // none of that name (plume upres: the base cache's other grids).
    std::string carryFrom;
    bool sootOnly = false;  // Scene::smokeOnlyFromFire, recorded as "plume_soot_only"
    double timeScale = 0;   // physics.time_scale at the frame, as "plume_time_scale" (0: none)
    // The solver's sparks, written as the points grid `sparks` (io/vdb_sparks.h).
    const SparkList* sparks = nullptr;
    // Where the frame's grids also go as NanoVDB (--nvdb, io/nvdb_cache.h);
    // with an empty VDB path, only there.
    std::string nvdbPath;
    NvdbOptions nvdb;
};

// Writes density, temperature (fog volumes), flame and fuel when f burns,
// the smoke's colour as `color` when f has one (sim/smoke_color.h: the
// colour itself, premultiplied over density, a Vec3SGrid as Blender's
// Principled Volume takes for its Color attribute), and the cell-centred
// velocity of f
// to path, Blosc-compressed, through "path.tmp" and a rename so a reader never
// sees half a file.
// Voxel (i, j, k) sits at world opt.worldOrigin + f.origin + (i + 0.5, j + 0.5, k + 0.5) * f.dx.
// Throws RunError when the file cannot be written.
void writeVdbFrame(const std::string& path, const Fields& f, int frame,
                   const std::string& sceneName, const CacheOptions& opt = {});
// The same for a sparse solve's islands (Solver::islandFields): each part's
// voxels where it lies in the domain, still air (nothing stored) between, the
// box around them all recorded as what the frame held.
void writeVdbFrame(const std::string& path, const std::vector<const Fields*>& parts, int frame,
                   const std::string& sceneName, const CacheOptions& opt = {});
// The same from a frame fed a run of slabs at a time (sim/frame_feed.h): a
// bake split across processes writes its frame so, never holding it whole.
void writeVdbFrame(const std::string& path, const FrameFeed& feed, int frame,
                   const std::string& sceneName, const CacheOptions& opt = {});

// The same with upres (sim/upres): the scalars from `fine`, at its finer
// voxel size, the velocity from the solver's parts at theirs, so Blender
// imports the detail as it is and the flow as the solver made it.
void writeVdbFrame(const std::string& path, const std::vector<const Fields*>& parts,
                   const Fields& fine, int frame, const std::string& sceneName,
                   const CacheOptions& opt = {});
// The same with the velocity as cell-centred grids over a box of the domain
// (plume upres, from a cache it read): the very floats given, 0 outside the
// box, on the base voxels `base` describes. The file is the one the inline
// upres writes when those floats are the solver's (cell-centred) velocity.
void writeVdbFrame(const std::string& path, const UpresInput& base, const Fields& fine, int frame,
                   const std::string& sceneName, const CacheOptions& opt = {});

// A volume read back for rendering: dense grids over the active bounding box
// of the chosen density grid (over the whole domain for an exact plume cache:
// halfFloats false and tolerance 0, rendered bit for bit as plume render does).
struct LoadedVolume {
    ScalarGrid density;
    ScalarGrid temperature;  // same size as density when hasTemperature
    bool hasTemperature = false;
    std::string temperatureName;  // the grid it came from ("temperature", "heat", "flame", ...)
    ScalarGrid flame;             // a fire's flame ("flame"), when it has its own temperature
    bool hasFlame = false;
    ScalarGrid velocity[3];  // m/s on the density's voxels, when hasVelocity
    bool hasVelocity = false;
    // The smoke's colour on the density's voxels, when hasColor: from a
    // `color` vector grid (the colour itself, as plume writes it), or from
    // Mantaflow's color_r, color_g and color_b (premultiplied by density).
    ScalarGrid color[3];
    bool hasColor = false;
    bool colorPremultiplied = false;
    Vec3f origin;  // min corner of cell (0, 0, 0), from the sceneOrigin read with
    float dx = 1;  // voxel size, metres
    std::vector<std::string> gridNames;  // every grid in the file, sorted by name

    VolumeView view() const {
        VolumeView view{&density, hasTemperature ? &temperature : nullptr, origin, dx};
        view.flame = hasFlame ? &flame : nullptr;
        if (hasVelocity) view.velocity = {&velocity[0], &velocity[1], &velocity[2]};
        if (hasColor) {
            view.color = {&color[0], &color[1], &color[2]};
            view.colorPremultiplied = colorPremultiplied;
        }
        return view;
    }
};

// Reads the named float grid and, when present, a temperature-like grid
// ("temperature", "heat", "temp", "flames", or Mantaflow's "flame" as emission)
// sampled on the same voxels. Throws RunError (one line, naming the file) for a
// missing, truncated or corrupt file, a missing grid (listing the grids there),
// or a grid that is not a float grid, and when the dense box cannot be
// allocated (naming the box). With velocityNames, also the first vector grid
// of those names (for motion blur), on the same voxels. withGlow false skips
// the temperature and flame grids (a render without emission never reads
// them): hasTemperature and hasFlame stay false. The volume is placed
// relative to the world point sceneOrigin (a scene's domain.origin: the
// scene's frame), subtracted in double so a plume cache lands on the very
// floats the solver's fields had.
LoadedVolume readVdbVolume(const std::string& path, const std::string& gridName = "density",
                           const std::vector<std::string>& velocityNames = {}, bool withGlow = true,
                           Vec3f sceneOrigin = {0, 0, 0});

// The world box readVdbVolume(path, gridName) covers, found without reading
// the voxels when the file records the grid's active box (OpenVDB does by
// default), so a sequence can be framed before it is rendered. Refuses what
// readVdbVolume refuses about the grid, with the same messages; does not warn.
struct VolumeBounds {
    Vec3f worldMin, worldMax;
    // Voxels along x, y and z of the dense box readVdbVolume allocates; 64-bit,
    // since a sparse grid's box can be wider than an int counts.
    std::int64_t voxels[3] = {1, 1, 1};
};
// Relative to sceneOrigin, as readVdbVolume.
VolumeBounds readVdbBounds(const std::string& path, const std::string& gridName = "density",
                           Vec3f sceneOrigin = {0, 0, 0});

// Names of every grid in a VDB file, sorted by name. Throws RunError.
std::vector<std::string> listGrids(const std::string& path);

// What a cache file says of itself, from its metadata alone (no voxels).
struct VdbInfo {
    std::vector<std::string> grids;  // every grid, sorted by name
    std::string creator;             // "plume 0.1.0", "" (Blender writes none)
    std::string sceneName;           // plume's "scene" ("" when none)
    double fps = 0;                  // plume's "plume_fps" (0: none)
    int upresFactor = 1;             // plume's "plume_upres_factor"
    bool exact = false;              // plume's "plume_exact": 32-bit, nothing dropped
    bool sootOnly = false;           // plume's "plume_soot_only": all smoke is the fire's
    double timeScale = 0;            // plume's "plume_time_scale" (0: none, time ran at 1)
    bool plume() const { return creator.starts_with("plume"); }
};
VdbInfo readVdbInfo(const std::string& path);

// The file's "creator" metadata ("plume 0.1.0", ...), empty when it has none
// (Blender's Mantaflow writes none). Throws RunError.
std::string vdbCreator(const std::string& path);

// A whole plume cache frame read back, shaped like Fields: cell-centred grids
// of n cells over index box [0, n), with the file's placement. For tests and tools.
struct CacheFrame {
    Vec3i n;
    float dx = 1;
    Vec3f origin;  // world min corner of cell (0, 0, 0)
    int frame = 0;
    double fps = 0;  // the file's "plume_fps" (0: it has none)
    std::string sceneName, creator;
    ScalarGrid density, temperature;
    // A fire's fuel and flame, when the file has them (else empty).
    ScalarGrid fuel, flame;
    // The smoke's colour, premultiplied by density (sim/smoke_color.h), when
    // the file has a `color` grid (or Mantaflow's color_r, _g and _b); else empty.
    ScalarGrid color[3];
    // Cell-centred, m/s; with upres on the base grid: n / upresFactor cells.
    Grid3<Vec3f> velocity;
    bool hasVelocity = false;  // the file had the velocity grid asked for
    int upresFactor = 1;       // fine scalar voxels per velocity voxel along an axis
    // The box of the domain the frame held (a sparse solve's boxes around
    // them all), in the scalars' cells: nothing is stored outside it.
    Box3i held;
    bool exact = false;  // written exact: 32-bit, nothing dropped as inactive

    bool burns() const { return fuel.size() == density.size() && density.size() > 0; }
    bool colored() const { return color[0].size() == density.size() && density.size() > 0; }
};
CacheFrame readVdbFrame(const std::string& path, const std::string& velocityName = "velocity");

// The cell-centred velocity grid of a plume cache file over [0, n) (n from the
// file's "resolution" metadata, else the active box from index 0).
Grid3<Vec3f> readVdbVelocity(const std::string& path, const std::string& name = "velocity");

}  // namespace plume
