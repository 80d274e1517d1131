// FrameSinks: everything a run writes, in one place. The frame loop
// (run/frame_loop.h) takes every frame a source makes through the steps here
// (write the fields, render, write the pictures);
// this checks every output path before any simulation work, renders only
// when some sink takes a picture, feeds the sinks in order, shows progress,
// and finishes the outputs at the end or on an interrupt.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/report.h"
#include "core/volume.h"
#include "run/frame_sink.h"
#include "run/progress.h"
#include "run/run_outputs.h"
#include "scene/scene.h"

namespace plume {

class Renderer;
class FlipbookRenders;
class LoopBlend;

class FrameSinks {
  public:
    // Checks every output path (RunError naming the first that cannot be
    // written) and creates nothing else. Frames before firstFrame are only
    // simulated (with scene.loop, firstFrame is the first it reads: loopFrames
    // in run/loop_blend.h, and the pictures are the loop's frames alone); progress counts to lastFrame, out of the shot's shotLast
    // (the scene's or the cache's last; at least lastFrame). Frames here are
    // indices from 1, as a loaded Scene counts them; files, progress and stats
    // show their numbers (scene.time.frameNumber).
    FrameSinks(const Scene& scene, const RunOutputs& outputs, int firstFrame, int lastFrame,
               bool quiet, int shotLast = 0);
    ~FrameSinks();

    // A sink of the caller's own (plume preview's frames in memory), before open().
    void add(std::unique_ptr<FrameSink> sink) { sinks_.push_back(std::move(sink)); }

    // Opens the outputs (the video file) and the renderer, with the scene as
    // it is now: render-vdb frames its camera after the paths are checked.
    void open(const Scene& scene);

    // One frame, step by step, in the order the frame loop takes them:
    // frame(), then the simulation (or reading a cache), writeFields(),
    // render(), writePictures(), frameDone(). Each step does nothing for a
    // frame that is not written: one before --frames (only simulated) or one
    // whose outputs are all there already (--skip-existing).
    // Its `asked` names what the sinks that take it need (FrameNeeds).
    Frame frame(int index);
    // To the sinks that take the fields (the VDB cache), before rendering, so
    // a crash mid-render keeps the cache.
    void writeFields(Frame& frame);
    // Traces the frame when some sink takes a picture. renderIndex seeds the
    // render jitter (a cache's position in its sequence, so a re-render of
    // any range is identical).
    void render(Frame& frame, const VolumeView& volume, int renderIndex);
    // The traced frame to the sinks that take it: the tone-mapped image, then
    // the linear RGBA, each made only when some sink takes it and dropped
    // once they have.
    void writePictures(Frame& frame);
    // To the sinks that take every frame (stats, resume state); then the
    // progress, with what the source did (Frame::did).
    void frameDone(Frame& frame);

    // What the outputs keep when the run stops early ("" when nothing):
    // "cache/x.resume holds frame 6; ...".
    std::string kept() const;

    // After the frame the run stops on (an interrupt): finishes every
    // output and says what is kept.
    void interrupt(int frame);
    // After the last frame.
    void finish();
    // Whether some sink takes a rendered picture (the renderer runs).
    bool renders() const { return renderer_ != nullptr; }

    // A line on stderr, never hidden behind the progress bar.
    void message(const std::string& line);
    // No progress, messages or closing line (Progress::silence).
    void silence() { progress_.silence(); }

  private:
    // Whether frame is skipped: --skip-existing and every output of it exists.
    bool skips(int frame) const;
    void feed(FrameSink::Takes takes, const Frame& frame);
    void finishSinks();

    int firstFrame_;
    int numberOffset_;  // frame number - index (time.start_frame - 1)
    bool skipExisting_;
    bool quiet_;
    int skippedFrames_ = 0;
    Progress progress_;
    ScopedWarningSink warnings_;  // library warnings beside the progress display
    std::vector<std::unique_ptr<FrameSink>> sinks_;
    // Whether some sink takes frame `index`'s picture (FrameSink::takesFrame),
    // or a loop holds it for a frame some sink takes.
    bool pictured(int index) const;
    // Whether a picture of frame `index` goes to the picture sinks: not a
    // frame a loop only holds.
    bool shown(int index) const;
    bool takes(FrameSink::Takes takes) const;
    // What the sinks need, all together (FrameNeeds).
    unsigned needs() const;

    std::unique_ptr<Renderer> renderer_;  // when some sink takes an image or RGBA
    std::unique_ptr<FlipbookRenders> flipbookRenders_;  // kSixWay, kMotion
    std::unique_ptr<LoopBlend> loop_;                   // scene.loop, when pictured
    bool finished_ = false;
};

}  // namespace plume
