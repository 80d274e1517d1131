#include "io/guide_cache.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/sequence.h"
#include "io/vdb_cache.h"

namespace plume {

namespace {

class GuideCache : public GuideFrames {
  public:
    GuideCache(const Scene& scene, std::vector<SequenceFile> files)
        : files_(std::move(files)), origin_(scene.domain.origin), first_(scene.time.startFrame) {}

    const GuideFrame& frame(int index) override {
        if (index <= 0) return still_;
        const int number = first_ + index - 1;
        if (auto it = held_.find(number); it != held_.end()) return it->second;
        // A substep reads two frames, the next substeps the later of them: keep the two.
        while (held_.size() >= 2) held_.erase(held_.begin());
        const std::string* path = nullptr;
        for (const SequenceFile& f : files_)
            if (f.frame == number) path = &f.path;
        GuideFrame& g = held_[number];
        if (!path) return g;  // past the guide's last frame: nothing to follow
        LoadedVolume v = readVdbVolume(*path, "density", {"velocity", "vel"}, false, origin_);
        if (!v.hasVelocity)
            throw RunError(*path + ": guide.cache: the frame holds no velocity grid (velocity or "
                                   "vel) for the bake to follow");
        for (int a = 0; a < 3; ++a) g.velocity[a] = std::move(v.velocity[a]);
        g.origin = v.origin;
        g.dx = v.dx;
        return g;
    }

  private:
    std::vector<SequenceFile> files_;
    Vec3f origin_;
    int first_;
    GuideFrame still_;
    std::map<int, GuideFrame> held_;
};

}  // namespace

std::unique_ptr<GuideFrames> openGuideCache(const Scene& scene) {
    // Where the key is, and the way out when the guide is not baked yet (the
    // same scene baked small, without its guide).
    const std::string at = (scene.guide.cacheAt.empty() ? std::string("plume") : scene.guide.cacheAt) +
                           ": error: 'guide.cache' = \"" + scene.guide.cache + "\": ";
    std::vector<SequenceFile> files;
    try {
        files = expandSequence(scene.guide.cachePath);
    } catch (const std::exception& e) {
        throw InputError(at + e.what() +
                         "; bake the guide first, e.g. plume bake SCENE --vdb DIR --set "
                         "domain.resolution=32 --set 'guide.cache=\"\"'");
    }
    // The frames it guides in (indices, as emitter.frames), by their numbers in the
    // sequence; the frame before the first too, where a substep's guide starts.
    const int first = scene.time.frameNumber(std::max(1, scene.guide.frames[0] - 1)),
              last = scene.time.frameNumber(std::min(scene.time.frames, scene.guide.frames[1]));
    std::vector<int> missing;
    for (int n = first; n <= last; ++n) {
        bool found = false;
        for (const SequenceFile& f : files) found = found || f.frame == n;
        if (!found) missing.push_back(n);
    }
    if (!missing.empty())
        throw InputError(at + "the frames it guides are " +
                         std::to_string(first) + "-" + std::to_string(last) + ", and " +
                         std::to_string(missing.size()) + " of them are not there (the first: " +
                         std::to_string(missing.front()) +
                         "); bake the guide over them, or narrow guide.frames");
    return std::make_unique<GuideCache>(scene, std::move(files));
}

}  // namespace plume
