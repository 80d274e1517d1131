#include "run/loop_blend.h"

#include <optional>
#include <string>

#include "core/error.h"
#include "render/output/render_passes.h"
#include "run/flipbook_renders.h"

namespace plume {

namespace {

// a + w (b - a), element by element: the crossfade in linear light. Where
// one of the two has none (a frame without a visible environment), a's own.
void mix(std::vector<float>& a, const std::vector<float>& b, float w) {
    if (a.size() != b.size()) return;
    if (w >= 1.0f) {
        a = b;  // the loop's last frame: the one before its first, exactly
        return;
    }
    for (size_t i = 0; i < a.size(); ++i) a[i] += w * (b[i] - a[i]);
}

}  // namespace

struct LoopBlend::Held {
    LinearImage frame;
    std::optional<RenderPasses> passes;
    std::optional<FlipbookMaps> maps;
};

LoopBlend::LoopBlend(const LoopSettings& loop, int last)
    : frames_(loop.frames), overlap_(loop.overlap), last_(last), held_(size_t(loop.overlap)) {}

LoopBlend::~LoopBlend() = default;

float LoopBlend::weight(int index) const {
    const int j = index - (last_ - overlap_ + 1);  // the frame's place in the overlap
    if (j < 0 || index > last_) return 0.0f;
    return float(j + 1) / float(overlap_);
}

void LoopBlend::hold(int index, const LinearImage& frame, const RenderPasses* passes,
                     const FlipbookMaps* maps) {
    if (!holds(index)) return;
    auto held = std::make_unique<Held>();
    held->frame = frame;
    if (passes) held->passes = *passes;
    if (maps) held->maps = *maps;
    held_[size_t(index - heldFirst())] = std::move(held);
}

void LoopBlend::blend(int index, LinearImage& frame, RenderPasses* passes, FlipbookMaps* maps) {
    const float w = weight(index);
    if (w <= 0.0f) return;
    std::unique_ptr<Held> held = std::move(held_[size_t(index - frames_ - heldFirst())]);
    if (!held) return;  // a frame no picture takes (a flipbook's sampling)
    mix(frame.rgb, held->frame.rgb, w);
    mix(frame.transmittance, held->frame.transmittance, w);
    mix(frame.background, held->frame.background, w);
    if (passes && held->passes) {
        for (size_t l = 0; l < passes->layers.size() && l < held->passes->layers.size(); ++l)
            mix(passes->layers[l].rgb, held->passes->layers[l].rgb, w);
        mix(passes->motion, held->passes->motion, w);
        // A depth is where one frame's smoke is: the nearer frame in the blend's.
        if (w > 0.5f) passes->depth = held->passes->depth;
    }
    if (maps && held->maps) {
        for (size_t l = 0; l < maps->light.size(); ++l) mix(maps->light[l], held->maps->light[l], w);
        mix(maps->emission, held->maps->emission, w);
        mix(maps->motion, held->maps->motion, w);
    }
}

std::uint64_t LoopBlend::bytesFor(const Scene& scene) {
    if (!scene.loop.on()) return 0;
    const std::uint64_t pixels = std::uint64_t(scene.render.width) * scene.render.height;
    // RGB, transmittance and a visible environment's background; each pass layer's RGB.
    std::uint64_t floats = pixels * (3 + 1 + (scene.environment.given() ? 3 : 0));
    floats += pixels * 3 * scene.render.passes.size();
    return std::uint64_t(scene.loop.overlap) * floats * sizeof(float);
}

void loopFrames(const Scene& scene, bool framesGiven, int shotFirst, int& first, int last) {
    if (!scene.loop.on()) return;
    const LoopSettings& l = scene.loop;
    if (framesGiven)
        throw InputError(
            "--frames: error: [loop] makes the pictures the shot's last " +
            std::to_string(l.frames) + " frames and reads the " + std::to_string(l.overlap) +
            " before them; leave out --frames");
    first = last - l.frames - l.overlap + 1;
    if (first < shotFirst)
        throw InputError("loop.frames = " + std::to_string(l.frames) + ": the loop and its overlap (" +
                         std::to_string(l.overlap) + ") take " +
                         std::to_string(l.frames + l.overlap) + " frames, and the run has " +
                         std::to_string(last - shotFirst + 1));
}

}  // namespace plume
