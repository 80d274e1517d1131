// Frames of upres over a cache (plume upres): each base frame read, its
// detail added on the fine grid, the fine frame written with every other grid
// the base frame holds.
#pragma once

#include <string>

#include "io/vdb_cache.h"
#include "run/cache_sequence.h"
#include "run/frame_source.h"
#include "scene/scene.h"
#include "sim/upres/upres.h"

namespace plume {

class UpresSource : public FrameSource {
  public:
    // withScene: the scene the cache was baked from (its emitters run on the
    // fine grid); without one, the fine smoke is fed from the cache. first:
    // the cache's first frame, read and checked already.
    UpresSource(const CacheSequence& cache, const Scene& scene, bool withScene, CacheFrame first);

    void produce(Frame& frame, const char*& stage) override;
    VolumeView view() override { return upres_.view(); }

  private:
    const CacheSequence& cache_;
    const Scene& scene_;
    bool withScene_;
    Upres upres_;
    UpresInput in_;
    CacheFrame first_;  // until the first frame uses it
    std::string path_;  // the base frame upres read last
};

// Refuses (InputError naming the file) a cache frame upres cannot take: one
// with upres already, one without the velocity, and with the scene, one that
// is not a base cache of its domain or does not burn as it does.
void checkUpresInput(const CacheFrame& frame, const std::string& path, const Scene& scene,
                     bool withScene);

}  // namespace plume
