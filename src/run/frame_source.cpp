#include "run/frame_source.h"

#include "run/frame_sink.h"

namespace plume {

bool FrameSource::needs(const Frame& /*frame*/) const { return true; }

int FrameSource::renderIndex(const Frame& frame) const { return frame.index; }

}  // namespace plume
