// The caches a run writes a frame's grids to: --vdb DIR, DIR/NAME_0001.vdb
// per written frame (io/vdb_cache.h), and --nvdb DIR, DIR/NAME_0001.nvdb, the
// same grids as NanoVDB (io/nvdb_cache.h), with or without --vdb beside it.
// Each takes the frame's grids (Frame::grids) before it is rendered.
#pragma once

#include <string>
#include <vector>

#include "io/vdb_cache.h"
#include "run/frame_sink.h"
#include "scene/scene.h"
#include "scene/shot_clock.h"

namespace plume {

// A folder of one file a written frame, DIR/NAME_0001.EXT.
class CacheSink : public FrameSink {
  public:
    Takes takes() const override { return Takes::Fields; }
    unsigned needs() const override { return kGrids; }
    std::vector<std::string> folders() const override { return {dir_}; }
    void consume(const Frame& frame) override;
    bool hasFrame(int frame) const override;
    std::string wrote() const override;

  protected:
    // `extension` ".vdb"; `kind` names the frames in the closing line ("VDB").
    // Checks the folder can be written.
    CacheSink(std::string dir, const Scene& scene, std::string extension, std::string kind);
    // Writes the frame's grids to `path`, the frame's file.
    virtual void write(const Frame& frame, const std::string& path) = 0;

    std::string dir_, sceneName_;
    CacheOptions options_;

  private:
    std::string extension_, kind_;
    int written_ = 0;
};

class VdbCacheSink : public CacheSink {
  public:
    VdbCacheSink(std::string dir, const Scene& scene);

  private:
    void write(const Frame& frame, const std::string& path) override;

    ShotClock clock_;  // each frame's time_scale, recorded in its file
};

class NvdbCacheSink : public CacheSink {
  public:
    NvdbCacheSink(std::string dir, const Scene& scene);

  private:
    void write(const Frame& frame, const std::string& path) override;
};

// Writes a frame's grids as one VDB file at `path` (none when "") and, when
// options.nvdbPath names one, as NanoVDB: the writer of io/vdb_cache.h the
// grids set calls for. InputError when the frame has none (a cache read to
// be rendered).
void writeFrameGrids(const std::string& path, const FrameGrids& grids, int frame,
                     const std::string& sceneName, CacheOptions options);

}  // namespace plume
