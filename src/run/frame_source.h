// Where a command's frames come from: the solver (with upres inline), a
// cache, or upres over a cache. The frame loop (run/frame_loop.h) asks a
// source for each frame in turn and hands what it made to the sinks; the
// source owns what its frames are (their numbers, their time, their grids),
// the sinks own where they go.
#pragma once

#include <string>
#include <vector>

#include "core/volume.h"
#include "io/vdb_cache.h"
#include "sim/field_totals.h"

namespace plume {

struct Frame;

class FrameSource {
  public:
    virtual ~FrameSource() = default;

    // The first frame index (from 1) the loop asks for: after a resume the
    // one after the state's, for a cache the first file the run needs.
    virtual int firstIndex() const { return 1; }
    // Whether the source makes this frame at all: a solver simulates every
    // frame from its first, a cache reads only the frames written.
    virtual bool needs(const Frame& frame) const;
    // Makes frame.index: simulates it, or reads it from the cache. Fills the
    // frame's timings and statistics; `stage` names what it is doing, for a
    // message should memory run out.
    virtual void produce(Frame& frame, const char*& stage) = 0;
    // What the renderer draws of the frame just produced.
    virtual VolumeView view() = 0;
    // The render jitter's seed for the frame: its index in the scene's count.
    virtual int renderIndex(const Frame& frame) const;
    // Writes the frame's grids as one VDB file (the cache sink); a source
    // with nothing to write refuses in words.
    virtual void writeVdb(const std::string& path, const Frame& frame, const std::string& sceneName,
                          const CacheOptions& options) const;
    // The fields the frame holds, for the statistics' totals and the
    // report's thumbnails (none for a cache read to render).
    virtual std::vector<const Fields*> fields() const { return {}; }
    // What the frame's fields hold in all (--stats, --report); false for a
    // source with no fields.
    virtual bool totals(FieldTotals& out) const {
        const std::vector<const Fields*> parts = fields();
        if (parts.empty()) return false;
        out = fieldTotals(parts);
        return true;
    }
    // What the per-frame progress line says the source did ("12 substeps,
    // 40 pressure iterations, sim 0.50 s").
    virtual std::string describe(const Frame& frame) const = 0;
    // Called after every frame on every process of a bake split across
    // processes, with this process's interrupt signal (0: none); returns the
    // signal all of them stop on (0: go on): the largest of theirs.
    virtual int endFrame(int signal) { return signal; }
};

}  // namespace plume
