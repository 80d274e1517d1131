// The resume state of `plume bake --resume`: the solver's full state
// (Solver::snapshot, sim/solver.h) in one file beside the frames, with the
// hash of its scene, rewritten after every frame. A few lines of text say
// what it holds (scene, hash, frame, time, voxel size, domain, the sparse
// solve's box); the grids follow as the solver holds them, native-endian.
// Not VDB: building VDB trees of every field cost a bake a third of its
// peak memory each frame, and nothing but plume reads this file.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "core/box.h"
#include "core/slab_split.h"
#include "core/spark.h"
#include "sim/fields.h"
#include "sim/frame_feed.h"

namespace plume {

// DIR/NAME.resume, not *.vdb, so importers that take every .vdb in a folder
// (Blender's, with all files selected) skip it.
std::string resumeStatePath(const std::string& dir, const std::string& name);

// Writes the face velocities, density, temperature and solid cells of f bit for
// bit, with the last complete frame, f.time and the hash of the resolved scene,
// through a temporary file and a rename. `pressure`, when given, is the
// projection's warm start (SolverSnapshot::pressure), kept in double. Throws RunError.
void writeSolverState(const std::string& path, const Fields& f, int frame,
                      const std::string& sceneHash, const std::string& sceneName = "",
                      const Grid3<double>* pressure = nullptr);

// A sparse solve's island: its fields and the warm start of its pressure
// (null: none; then none for any part).
struct SolverStatePart {
    const Fields* fields;
    const Grid3<double>* pressure;
};
// The same for several islands, one after another: the file records the box
// around them all and lists theirs.
// `sparks`, when given and not empty, follow the grids (sim/sparks.h).
void writeSolverState(const std::string& path, const std::vector<SolverStatePart>& parts, int frame,
                      const std::string& sceneHash, const std::string& sceneName = "",
                      const SparkList* sparks = nullptr);
// The same from a frame fed a run of slabs at a time (sim/frame_feed.h),
// its warm start with it when `pressure`: a bake split across processes
// writes its state so.
void writeSolverState(const std::string& path, const FrameFeed& feed, bool pressure, int frame,
                      const std::string& sceneHash, const std::string& sceneName = "",
                      const SparkList* sparks = nullptr);

// What a state file says beside the fields.
struct SolverState {
    int frame = 0;          // last complete frame
    std::string sceneHash;  // the caller refuses to resume when it differs
    std::string sceneName;
    double time = 0;             // also stored in f.time
    std::vector<Box3i> islands;  // several, or none: the solve held f's box
    SparkList sparks;            // the sparks it held (sim/sparks.h)
    Box3i box;                   // the box the file holds (f's, but for a window)
};

// Fills f (already sized for the scene; reshaped to the file's box) from a
// state file; a state of several islands fills each one's box of f (and of
// the pressure) and lists them in SolverState::islands. Throws RunError for a missing, truncated or
// foreign file, or a grid size, voxel size or fire that does not match f. When `pressure` is given
// it is resized to the cells of f and filled with the saved warm start (zero when the file has
// none).
// `window` (domain z, [begin, end)) keeps only those slabs of the file's box
// in f and the pressure: a process of a split bake reads its part.
SolverState readSolverState(const std::string& path, Fields& f, Grid3<double>* pressure = nullptr,
                            SlabRange window = {0, std::numeric_limits<int>::max()});

}  // namespace plume
