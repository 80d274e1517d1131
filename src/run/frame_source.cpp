#include "run/frame_source.h"

#include "core/error.h"
#include "run/frame_sink.h"

namespace plume {

bool FrameSource::needs(const Frame& /*frame*/) const { return true; }

int FrameSource::renderIndex(const Frame& frame) const { return frame.index; }

void FrameSource::writeVdb(const std::string& path, const Frame& /*frame*/,
                           const std::string& /*sceneName*/,
                           const CacheOptions& /*options*/) const {
    throw InputError("--vdb " + path + ": error: this command writes no VDB cache");
}

}  // namespace plume
