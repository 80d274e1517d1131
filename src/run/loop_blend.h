// [loop] mode = "blend" (scene.h's LoopSettings): the pictures of a loop of
// the shot's frames first..last, its last `overlap` crossfaded in linear
// light into the frames before `first`, as Houdini's Labs Flipbook looper and
// Unity's VFX Toolbox loop a sequence. Loop frame first + k, for the last
// overlap of them (k = frames - overlap + j), is
//   (1 - w) * its own + w * the frame `frames` before it,  w = (j + 1) / overlap,
// so the loop's last frame is the one just before its first and the seam is
// an ordinary step. The frames before `first` are held as traced, in memory,
// until the loop frame that takes them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/image.h"
#include "scene/scene.h"

namespace plume {

struct RenderPasses;  // render/output/render_passes.h
struct FlipbookMaps;  // run/flipbook_renders.h

class LoopBlend {
  public:
    // The loop ending at frame index `last` (indices from 1, as Scene counts them).
    LoopBlend(const LoopSettings& loop, int last);
    ~LoopBlend();

    int frames() const { return frames_; }
    int first() const { return last_ - frames_ + 1; }  // the loop's first frame
    int heldFirst() const { return first() - overlap_; }  // the first frame it reads
    // Whether frame `index` is read only to blend into the loop frame `frames` after it.
    bool holds(int index) const { return index >= heldFirst() && index < first(); }
    // The weight of the held frame in loop frame `index` (0: its own alone).
    float weight(int index) const;

    // Keeps frame `index`'s traced pictures (passes and maps, when traced)
    // for the loop frame that takes them.
    void hold(int index, const LinearImage& frame, const RenderPasses* passes,
              const FlipbookMaps* maps);
    // Blends loop frame `index`'s pictures, in place, with the held frame
    // they take (none before the overlap), and lets that one go.
    void blend(int index, LinearImage& frame, RenderPasses* passes, FlipbookMaps* maps);

    // Bytes the held frames take at most: the overlap's traced frames and
    // their passes.
    static std::uint64_t bytesFor(const Scene& scene);

  private:
    struct Held;
    int frames_, overlap_, last_;
    std::vector<std::unique_ptr<Held>> held_;  // by index - heldFirst()
};

// The frames a run with scene.loop writes, indices from 1: the loop ending
// at `last` and the overlap before it; `first` becomes the first the loop
// reads. Throws InputError when --frames is given (`framesGiven`) or the run
// has too few frames before `last` (its first would be before `shotFirst`).
void loopFrames(const Scene& scene, bool framesGiven, int shotFirst, int& first, int last);

}  // namespace plume
