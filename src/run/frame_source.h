// Where a command's frames come from: the solver (with upres inline), a
// cache, or upres over a cache. The frame loop (run/frame_loop.h) asks a
// source for each frame in turn and hands what it made to the sinks; the
// source owns what its frames are (their numbers, their time, their grids),
// the sinks own where they go. A frame is data (run/frame_sink.h): no sink
// calls back into the source.
#pragma once

#include "core/volume.h"

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
    // Makes frame.index: simulates it, or reads it from the cache. Fills
    // the frame's timings, statistics and what it did (Frame::did), and of
    // its data what frame.asked names (FrameNeeds): the grids, the resume
    // state's parts, the totals. `stage` names what it is doing, for a
    // message should memory run out.
    virtual void produce(Frame& frame, const char*& stage) = 0;
    // What the renderer draws of the frame just produced.
    virtual VolumeView view() = 0;
    // The render jitter's seed for the frame: its index in the scene's count.
    virtual int renderIndex(const Frame& frame) const;
    // Called after every frame on every process of a bake split across
    // processes, with this process's interrupt signal (0: none); returns the
    // signal all of them stop on (0: go on): the largest of theirs.
    virtual int endFrame(int signal) { return signal; }
};

}  // namespace plume
