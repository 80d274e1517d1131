// One output of a run (the VDB cache, PNG and EXR frames, the video, the
// stats table, the resume state): what it takes from each frame. FrameSinks (frame_sinks.h)
// owns a run's sinks and feeds them; a new output is one new FrameSink.
// A frame is data the source makes once (the grids, the totals, the state a
// resume needs, the pictures): no sink calls back into the source or reads
// the solver.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/box.h"
#include "core/deep_image.h"
#include "core/grid3.h"
#include "core/image.h"
#include "core/spark.h"
#include "render/output/render_passes.h"
#include "run/output_paths.h"
#include "sim/field_totals.h"
#include "sim/fields.h"
#include "sim/frame_feed.h"
#include "sim/solver.h"

namespace plume {

struct UpresInput;    // sim/upres/upres.h
struct FlipbookMaps;  // run/flipbook_renders.h

// What the sinks ask of a frame (FrameSink::needs, or-ed together), so the
// source makes only that and the renderer traces only what is written.
enum FrameNeeds : unsigned {
    kGrids = 1u << 0,   // Frame::grids, to be written (the VDB and NanoVDB caches)
    kFields = 1u << 1,  // Frame::grids.islands, to be looked at (the report's thumbnails)
    kResume = 1u << 2,  // Frame::resume (the resume state)
    kTotals = 1u << 3,  // Frame::totals (--stats, --report)
    kPasses = 1u << 4,  // the render passes beside the RGBA (EXR frames)
    kDeep = 1u << 5,    // the deep image (--deep)
    kSixWay = 1u << 6,  // Frame::maps' lightmaps and emission (a six-way flipbook)
    kMotion = 1u << 7,  // Frame::maps' motion pass (a flipbook's motion vectors)
};

// A frame's grids as the cache writers take them (io/vdb_cache.h), views
// into the source's own, valid until its next frame. Which are set says
// which writer applies: the feed alone (the solver's frame), the islands and
// fine (upres inline), base and fine (upres over a cache).
struct FrameGrids {
    // The solver's frame a run of slabs at a time (a split bake's process 0
    // never holds it whole); null with upres.
    const FrameFeed* feed = nullptr;
    // The frame's fields, island by island: the solver's (with upres, the
    // coarse grids its velocity is written from), or for upres over a cache
    // its fine grid alone. The report's density thumbnails read them.
    std::vector<const Fields*> islands;
    const Fields* fine = nullptr;       // upres's fine scalars, written in place of the solver's
    const UpresInput* base = nullptr;   // upres over a cache: the base frame's velocity
    std::string carryFrom;              // ... and the base file whose other grids it carries
    const SparkList* sparks = nullptr;  // the solver's sparks (null: none)
};

// Upres's part of the resume state: views of its grids, copied only by the
// sink that writes them (io/upres_state.h).
struct UpresResume {
    double time = 0;
    int factor = 1;
    Box3i box;
    std::vector<const ScalarGrid*> fine, drift;
};

// What a resume state holds of the frame (run/resume.h).
struct FrameResume {
    const FrameFeed* feed = nullptr;  // the solver's fields with their warm start
    const SparkList* sparks = nullptr;
    std::optional<UpresResume> upres;  // none when upres is off
};

// One frame as the sinks see it.
struct Frame {
    int index = 0;                 // the solver's frame, from 1 (Scene's frames count so)
    int number = 0;                // the scene's frame number (time.start_frame on): names files
    bool written = false;          // false: only simulated (before --frames) or skipped
    unsigned asked = 0;            // FrameNeeds: what the sinks that take this frame need of it
    FrameGrids grids;              // with kGrids or kFields
    FrameResume resume;            // with kResume
    const Image* image = nullptr;  // the rendered frame, opaque 8-bit sRGB (Takes::Image)
    // The rendered frame as premultiplied linear RGBA (Renderer::rgba; Takes::Rgba).
    const std::vector<float>* rgba = nullptr;
    // Its render passes beside the RGBA (render.passes, with EXR frames); null when none.
    const RenderPasses* passes = nullptr;
    // Its deep image (--deep; render/output/deep_image.h); null when not asked for.
    const DeepImage* deep = nullptr;
    // Its six-way lightmaps and motion pass (kSixWay, kMotion); null when not asked for.
    const FlipbookMaps* maps = nullptr;
    FrameStats sim;  // the solver's numbers (zero when rendering a cache)
    // What the fields hold at the frame's end (smoke, fuel, peak speed):
    // summed once, with kTotals (--stats and --report); zero otherwise.
    FieldTotals totals;
    // What the source did, for the progress line ("12 substeps, 40 pressure
    // iterations, sim 0.50 s"; "" when it made nothing).
    std::string did;
    double readSeconds = 0;    // wall time reading it from a cache
    double renderSeconds = 0;  // wall time rendering it
    double writeSeconds = 0;   // wall time in the sinks that wrote it

    bool asks(unsigned needs) const { return (asked & needs) != 0; }
};

class FrameSink {
  public:
    // What a sink takes from a frame, in the order they are fed: the fields
    // before rendering (a crash mid-render keeps the cache), the tone-mapped
    // image after it, then the linear RGBA (Renderer::rgba, made only when
    // some sink takes it), and last the sinks that take every frame, also the
    // frames before --frames, which are simulated but not written.
    enum class Takes { Fields, Image, Rgba, EveryFrame };

    virtual ~FrameSink() = default;
    virtual Takes takes() const = 0;
    // What it needs of the frames it takes beyond their numbers, timings and
    // pictures (FrameNeeds).
    virtual unsigned needs() const { return 0; }
    // Whether it takes the picture of written frame `index` (a flipbook takes
    // the frames of its cells): a frame no picture sink takes is not rendered.
    virtual bool takesFrame(int /*index*/) const { return true; }
    // The folders it writes into, made (FrameSinks::open) once every sink's
    // path was checked, so a refused run leaves none behind.
    virtual std::vector<std::string> folders() const { return {}; }
    // Creates what the sink writes into; called once its folders are made.
    virtual void open() {}
    virtual void consume(const Frame& frame) = 0;
    // Completes the output after the last frame or an interrupt (not after an error).
    virtual void finish() {}
    // What an interrupted run keeps here, for the message ("" when nothing to say).
    virtual std::string keptOnInterrupt() const { return {}; }
    // What the run's closing line says this sink wrote, e.g. "24 VDB frames to
    // cache/" ("" when nothing to say).
    virtual std::string wrote() const { return {}; }
    // Where in the closing line: lowest first, in the sinks' order among
    // equals (the video is 0, named first as ffmpeg names its output).
    virtual int wroteOrder() const { return 1; }
    // Whether this frame's output is already whole on disk (--skip-existing).
    // Every per-frame file is written under a temporary name and renamed, so
    // its existence is enough; a sink that is not one file per frame never has one.
    virtual bool hasFrame(int /*frame*/) const { return false; }
};

}  // namespace plume
