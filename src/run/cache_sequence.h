// A cache on disk, as the commands that read one see it (render-vdb, upres):
// its files by frame number, the gaps between them, and what its files say of
// themselves (the frame rate, the scene it was baked from, its creator, its
// grids and their other tools' names). It brings those facts into the scene a
// command runs with, and says so in one line where the user's options
// disagree with the cache.
#pragma once

#include <string>
#include <vector>

#include "core/vec.h"
#include "io/sequence.h"
#include "io/vdb_cache.h"
#include "scene/scene.h"

namespace plume {

class CacheSequence {
  public:
    // The files 'DIR/NAME_####.vdb' (or a folder, or one file) names; the
    // metadata of the first. Throws RunError when nothing matches.
    explicit CacheSequence(const std::string& pattern);

    const std::string& pattern() const { return pattern_; }
    const std::vector<SequenceFile>& files() const { return files_; }
    int firstFrame() const { return files_.front().frame; }
    int lastFrame() const { return files_.back().frame; }
    // The file of frame `number`; null in a gap.
    const SequenceFile* file(int number) const;
    // "fluid_data" of 'cache/fluid_data_####.vdb': the name outputs take.
    const std::string& name() const { return name_; }
    const VdbInfo& info() const { return info_; }
    bool has(const std::string& grid) const;
    // The velocity grid's names, the scene's output.velocity_name first.
    std::vector<std::string> velocityNames(const Scene& scene) const;

    // --frames A-B (or the whole sequence when empty), by the files' frame
    // numbers: InputError when the range leaves the sequence. requireWhole:
    // InputError naming the first frame of [first, last] that is missing,
    // before anything is written; `why` ends the message.
    void frameRange(const std::string& frames, int& first, int& last) const;
    void requireWhole(int first, int last, const std::string& why = {}) const;

    // The cache's facts in the scene the command runs with: the frame rate
    // (unless --set time.fps gives one), the name outputs are called by; and
    // a warning in one line when a --scene file is another scene's or its
    // frame rate differs from the cache's; without a scene file, its
    // time_scale. sceneFile: --scene ("" for none).
    // startsScene: the cache's first frame becomes time.start_frame when no
    // scene file or --set gives one (upres counts its frames from there).
    void applyTo(Scene& scene, const std::string& sceneFile,
                 const std::vector<std::string>& overrides, bool startsScene = false) const;

    // The world box frames [first, last] of `grid` cover, from the files'
    // metadata (placed relative to the scene's domain.origin); per file in
    // `boxes` when given. A file outside the range that cannot be read is
    // left out, with a warning: a farm chunk never needs it.
    struct FileBounds {
        std::string path;
        VolumeBounds bounds;
    };
    void bounds(const Scene& scene, const std::string& grid, int first, int last, Vec3f& lo,
                Vec3f& hi, std::vector<FileBounds>* boxes = nullptr) const;

    // Another tool's fire cache's look where the scene does not give one:
    // its heat read in its own units (render.fire_temperature), its flame's
    // strength (render.emission) to match. Nothing for plume's own caches,
    // a cache without flame, or when `grid` (drawn as density) is the flame.
    void fireDefaults(Scene& scene, const std::string& grid) const;

  private:
    void timeScaleOf(Scene& scene) const;

    std::string pattern_, name_;
    std::vector<SequenceFile> files_;
    VdbInfo info_;
};

}  // namespace plume
