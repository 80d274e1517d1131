#include "run/frame_range.h"

#include <stdexcept>

#include "core/error.h"

namespace plume {

void parseFrameRange(const std::string& text, int firstFrame, int lastFrame, int& first,
                     int& last) {
    auto fail = [&](const std::string& why) {
        throw InputError("--frames " + text + ": error: " + why);
    };
    size_t dash = text.find('-');
    try {
        size_t used = 0;
        first = std::stoi(text.substr(0, dash), &used);
        if (used != (dash == std::string::npos ? text.size() : dash))
            fail("expected A-B, e.g. 1-24");
        last = first;
        if (dash != std::string::npos) {
            std::string tail = text.substr(dash + 1);
            last = std::stoi(tail, &used);
            if (used != tail.size()) fail("expected A-B, e.g. 1-24");
        }
    } catch (const std::logic_error&) {
        fail("expected A-B, e.g. 1-24");
    }
    if (first < firstFrame)
        fail("frames start at " + std::to_string(firstFrame) +
             (firstFrame != 1 ? " (time.start_frame)" : ""));
    if (last < first) fail("the last frame comes before the first");
    if (last > lastFrame)
        fail(firstFrame == 1
                 ? "the scene has " + std::to_string(lastFrame) + " frames (time.frames)"
                 : "the scene's frames are " + std::to_string(firstFrame) + "-" +
                       std::to_string(lastFrame) + " (time.start_frame, time.frames)");
}

}  // namespace plume
