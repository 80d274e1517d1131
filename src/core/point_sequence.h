// A points emitter's points (emitter shape = "points"): a PLY file a frame,
// as Blender's and Houdini's particle exports write them. The files are read
// and checked once before a bake (io/point_file.h); while it runs, a frame's
// points are read again when the solver reaches it, so a long sequence of
// many points never sits in memory at once.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/vec.h"

namespace plume {

// One frame's points, in the domain's frame (metres from its min corner).
struct PointFrame {
    std::vector<Vec3f> position;
    std::vector<float> radius;    // metres, one a point; empty: the emitter's radius
    std::vector<Vec3f> velocity;  // metres per second of the shot; empty: at rest
};

class PointSequence {
  public:
    // What a check of a file found: its frame index (the scene's count from
    // 1), where it is, how many points, the box holding their spheres and
    // the fastest point's speed.
    struct File {
        int frame = 1;
        std::string path;
        std::size_t count = 0;
        Vec3f lo{0.0f}, hi{0.0f};
        float maxSpeed = 0.0f;
    };
    using Reader = std::function<PointFrame(const std::string& path)>;

    // `files` sorted by frame, one a frame from the first to the last; with
    // `everyFrame`, one file whose points emit at every frame.
    PointSequence(std::vector<File> files, bool everyFrame, Reader read);

    // The file of frame index `frame`, or null: before the first file and
    // after the last there are no points (particles not yet born, or dead).
    const File* file(int frame) const;
    // Its points (read on first use; the last few frames are kept).
    std::shared_ptr<const PointFrame> points(int frame) const;
    const std::vector<File>& files() const { return files_; }

  private:
    std::vector<File> files_;
    bool everyFrame_;
    Reader read_;
    mutable std::mutex mutex_;
    mutable std::vector<std::pair<const File*, std::shared_ptr<const PointFrame>>> kept_;
};

}  // namespace plume
