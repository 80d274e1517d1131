// Frames read from a cache to be rendered (render-vdb): plume's own, Blender's
// (Mantaflow) or EmberGen's, each file read when its frame is written.
#pragma once

#include <string>

#include "io/vdb_cache.h"
#include "run/cache_sequence.h"
#include "run/frame_source.h"
#include "scene/scene.h"

namespace plume {

class CacheSource : public FrameSource {
  public:
    // Reads the files of `cache` named by frame, the float grid `grid` as
    // the density, with what the scene's look and view need beside it.
    CacheSource(const CacheSequence& cache, const Scene& scene, std::string grid, int firstIndex);

    int firstIndex() const override { return firstIndex_; }
    bool needs(const Frame& frame) const override;
    void produce(Frame& frame, const char*& stage) override;
    VolumeView view() override;

  private:
    const CacheSequence& cache_;
    const Scene& scene_;
    std::string grid_;
    int firstIndex_;
    LoadedVolume volume_;
    SparkList sparks_;  // the frame's `sparks` points (io/vdb_sparks.h)
};

// The grid a slice view of a cache needs beyond density: "velocity" for
// speed, vorticity and streamlines, "pressure", "divergence"; "" for none.
std::string viewGridName(RenderView view);

// A view of a grid the cache lacks, refused before anything is written.
void checkViewGrid(const CacheSequence& cache, const Scene& scene);

}  // namespace plume
