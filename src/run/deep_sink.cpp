#include "run/deep_sink.h"

#include <filesystem>
#include <system_error>

#include "core/error.h"
#include "io/deep_exr.h"
#include "io/frame_name.h"
#include "render/output/color_space.h"
#include "run/output_paths.h"
#include "run/output_sinks.h"

namespace plume {

void DeepExrSink::refuseBadUse(const std::string& dir, const Scene& scene,
                               const std::string& exrDir) {
    if (scene.render.view != RenderView::Shaded)
        throw InputError(
            "--deep: error: a deep image is of the shaded frame; render.view is not \"shaded\"");
    if (scene.render.integrator == Integrator::Path)
        throw InputError(
            "--deep: error: a deep image is the march's samples; render.integrator is \"path\"");
    if (exrDir.empty()) return;
    std::error_code ec;
    if (std::filesystem::weakly_canonical(dir, ec) == std::filesystem::weakly_canonical(exrDir, ec))
        throw InputError("--deep: error: '" + dir +
                         "' is the --exr folder too, and the deep frames would replace the flat "
                         "ones (same names): give it a folder of its own");
}

DeepExrSink::DeepExrSink(std::string dir, const Scene& scene, const std::string& exrDir)
    : dir_(std::move(dir)),
      sceneName_(scene.name),
      fps_(videoFps(scene)),
      chromaticities_(workingSpace(scene)->chromaticities) {
    refuseBadUse(dir_, scene, exrDir);
    ensureWritableDir(dir_);
    refuseUnseekableFrames(dir_, sceneName_ + "_", ".exr", "an EXR");
}

void DeepExrSink::consume(const Frame& frame) {
    if (!frame.deep) throw RunError("--deep: the renderer made no deep image for this frame");
    writeDeepExr(frameFileName(dir_, sceneName_, frame.number, ".exr"), *frame.deep, frame.number,
                 fps_, chromaticities_);
    ++written_;
}

bool DeepExrSink::hasFrame(int frame) const {
    return std::filesystem::exists(frameFileName(dir_, sceneName_, frame, ".exr"));
}

std::string DeepExrSink::wrote() const { return framesTo(written_, "deep EXR", dir_); }

}  // namespace plume
