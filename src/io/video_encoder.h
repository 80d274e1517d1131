// VideoEncoder: frames to an MP4 (H.264 through libx264, yuv420p, limited
// range, BT.709 primaries and matrix, sRGB's transfer), written as
// "path.partial" and renamed into place by finish() (core/atomic_file.h), so
// an interrupted run never leaves a half file at the path; a device that
// seeks (/dev/null) is written in place, a FIFO refused.
// libav stays behind this header: only video_encoder.cpp includes it.
#pragma once

#include <memory>
#include <string>

#include "core/image.h"
#include "scene/scene.h"

namespace plume {

class VideoEncoder {
  public:
    // Throws InputError for an odd frame size or a path that cannot seek (a
    // FIFO), RunError when the file or the encoder cannot be set up. Falls
    // back to MPEG-4 part 2 (with one warning, core/report.h) when libx264
    // is missing.
    VideoEncoder(const std::string& path, int width, int height, double fps,
                 const OutputSettings& out);
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;
    ~VideoEncoder();  // finishes if not finished; never throws

    void add(const Image& frame);
    // Flushes the encoder, writes the trailer and renames the file into place;
    // with no frame added, removes the temporary and leaves the path as it was.
    // Calling it again does nothing.
    void finish();

    int frames() const;
    std::string codecName() const;  // "libx264" or "mpeg4"

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace plume
