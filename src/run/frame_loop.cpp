#include "run/frame_loop.h"

#include <filesystem>
#include <new>

#include "core/loader_pages.h"
#include "run/interrupt.h"
#include "run/memory_check.h"
#include "run/resume.h"

namespace plume {

int runFrameLoop(const Scene& scene, FrameSinks& sinks, int lastIndex, const MakeSource& make,
                 const std::string& statePath) {
    int index = 0;  // before the first
    const char* stage = "setting up";
    try {
        std::unique_ptr<FrameSource> source = make(sinks, stage);
        stage = "opening the outputs";
        sinks.open(scene);
        // Every library is loaded and bound by now: the bake's memory is its fields.
        releaseLoaderPages();
        for (index = source->firstIndex(); index <= lastIndex; ++index) {
            Frame f = sinks.frame(index);
            if (source->needs(f)) {
                source->produce(f, stage);
                stage = "writing the fields";
                sinks.writeFields(f);
                stage = "rendering";
                if (f.written && sinks.renders())
                    sinks.render(f, source->view(), source->renderIndex(f));
                stage = "writing the pictures";
                sinks.writePictures(f);
            }
            stage = "writing the frame's statistics and state";
            sinks.frameDone(f);
            // Split across processes, all stop after the same frame.
            if (const int signal = source->endFrame(interruptSignal())) {
                sinks.interrupt(index);
                return 128 + signal;
            }
        }
        stage = "finishing the outputs";
        sinks.finish();
    } catch (const std::bad_alloc&) {
        std::string kept = sinks.kept();
        // The first frame after a resume: the state still holds the one before.
        if (kept.empty() && !statePath.empty() && index > 1 && std::filesystem::exists(statePath))
            kept = resumeStateKept(statePath, scene.time.frameNumber(index - 1));
        throw outOfMemory(scene, scene.time.frameNumber(index), stage, kept);
    }
    return 0;
}

}  // namespace plume
