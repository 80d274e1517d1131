// One output of a run (the VDB cache, PNG and EXR frames, the video, the
// stats table, the resume state): what it takes from each frame. FrameSinks (frame_sinks.h)
// owns a run's sinks and feeds them; a new output is one new FrameSink.
#pragma once

#include <string>
#include <vector>

#include "core/deep_image.h"
#include "core/image.h"
#include "render/output/render_passes.h"
#include "run/output_paths.h"
#include "sim/field_totals.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"

namespace plume {

// One frame as the sinks see it.
class FrameSource;

struct Frame {
    int index = 0;         // the solver's frame, from 1 (Scene's frames count so)
    int number = 0;        // the scene's frame number (time.start_frame on): names files
    bool written = false;  // false: only simulated (before --frames) or skipped
    const FrameSource* source = nullptr;  // what made it (run/frame_source.h)
    const Solver* solver = nullptr;       // the simulation; null when rendering a cache
    // Upres's fine scalars (sim/upres), which the cache writes in place of
    // the solver's; null when upres is off.
    const Fields* fine = nullptr;
    const Upres* upres = nullptr;  // its state, for the resume state
    const Image* image = nullptr;  // the rendered frame, opaque 8-bit sRGB (Takes::Image)
    // The rendered frame as premultiplied linear RGBA (Renderer::rgba; Takes::Rgba).
    const std::vector<float>* rgba = nullptr;
    // Its render passes beside the RGBA (render.passes, with EXR frames); null when none.
    const RenderPasses* passes = nullptr;
    // Its deep image (--deep; render/output/deep_image.h); null when not asked for.
    const DeepImage* deep = nullptr;
    FrameStats sim;  // the solver's numbers (zero when rendering a cache)
    // What the fields hold at the frame's end (smoke, fuel, peak speed):
    // summed once for --stats and --report, zero when neither asked.
    FieldTotals totals;
    double readSeconds = 0;    // wall time reading it from a cache
    double renderSeconds = 0;  // wall time rendering it
    double writeSeconds = 0;   // wall time in the sinks that wrote it
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
    // Whether this frame's output is already whole on disk (--skip-existing).
    // Every per-frame file is written under a temporary name and renamed, so
    // its existence is enough; a sink that is not one file per frame never has one.
    virtual bool hasFrame(int /*frame*/) const { return false; }
};

}  // namespace plume
