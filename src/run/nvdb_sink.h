// --nvdb DIR: DIR/NAME_0001.nvdb per written frame, the grids of the VDB
// frame as NanoVDB (io/nvdb_cache.h), with or without --vdb beside it.
#pragma once

#include <string>

#include "io/vdb_cache.h"
#include "run/frame_sink.h"
#include "scene/scene.h"

namespace plume {

class NvdbCacheSink : public FrameSink {
  public:
    NvdbCacheSink(std::string dir, const Scene& scene);
    Takes takes() const override { return Takes::Fields; }
    std::vector<std::string> folders() const override { return {dir_}; }
    void consume(const Frame& frame) override;
    bool hasFrame(int frame) const override;
    std::string wrote() const override;

  private:
    std::string dir_, sceneName_;
    CacheOptions options_;
    int written_ = 0;
};

}  // namespace plume
