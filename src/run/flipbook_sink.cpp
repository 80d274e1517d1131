#include "run/flipbook_sink.h"

#include <filesystem>

#include "core/atomic_file.h"
#include "io/exr_file.h"
#include "io/png.h"
#include "io/tga.h"
#include "render/camera.h"
#include "render/output/tone_map.h"
#include "run/output_paths.h"
#include "run/output_sinks.h"

namespace plume {

namespace {

const char* flipbookExtension(FlipbookFormat format) {
    switch (format) {
        case FlipbookFormat::Exr:
            return ".exr";
        case FlipbookFormat::Tga:
            return ".tga";
        case FlipbookFormat::Png:
            break;
    }
    return ".png";
}

}  // namespace

void applyFlipbook(Scene& scene) {
    scene.render.width = scene.render.height = scene.flipbook.imageSize();
    scene.render.transparent = true;
}

FlipbookSink::FlipbookSink(std::string dir, const Scene& scene, int first, int last)
    : dir_(std::move(dir)),
      layout_(scene.flipbook, first, last),
      exposure_(scene.render.exposure),
      space_(workingSpace(scene)),
      done_(size_t(layout_.cells()), false) {
    ensureWritableDir(dir_);
    const FlipbookSettings& s = scene.flipbook;
    info_.name = scene.name;
    info_.image = std::filesystem::path(sheetPath()).filename().string();
    for (int c = 0; c < layout_.cells(); ++c)
        info_.numbers.push_back(scene.time.frameNumber(layout_.frameOf(c)));
    // Played at this rate the sheet lasts as long as the shot it samples.
    info_.fps = videoFps(scene) * double(layout_.cells()) / double(last - first + 1);
    info_.colorSpace = s.format == FlipbookFormat::Exr ? space_->name : "srgb";
    // The camera's axes, as the renderer frames a scene without one (its
    // first frame's, for a keyed camera).
    const CameraSettings settings =
        scene.camera.given
            ? scene.camera
            : frameBox(scene.domain.origin, scene.domain.origin + scene.domain.size, 1.0f);
    const Camera camera(settings, scene.render.width, scene.render.height);
    info_.right = camera.right();
    info_.up = camera.up();
    info_.back = camera.forward() * -1.0f;
    info_.orthographic = settings.orthographic();
    info_.orthoWidth = settings.orthoWidth;
    if (s.format == FlipbookFormat::Exr)
        sheetF_.assign(size_t(layout_.sheetWidth()) * layout_.sheetHeight() * 4, 0.0f);
    else
        sheet8_ = Image(layout_.sheetWidth(), layout_.sheetHeight(), 4);
}

std::string FlipbookSink::sheetPath() const {
    return (std::filesystem::path(dir_) /
            (info_.name + "_colour" + flipbookExtension(layout_.settings().format)))
        .string();
}

std::string FlipbookSink::sidecarPath() const {
    return (std::filesystem::path(dir_) / (info_.name + ".json")).string();
}

void FlipbookSink::consume(const Frame& frame) {
    const int cell = layout_.cellOf(frame.index);
    if (cell < 0 || done_[size_t(cell)]) return;
    const bool premultiplied = layout_.settings().alpha == FlipbookAlpha::Premultiplied;
    if (!sheetF_.empty()) {
        placeFlipbookCell(layout_, cell, *frame.rgba, premultiplied, sheetF_);
    } else {
        // As PngSink writes a transparent frame: straight alpha, Rec. 709, the curve.
        const int n = layout_.frameSize();
        Image image(n, n, 4);
        if (space_->rec709) {
            toneMapStraightAlpha(*frame.rgba, exposure_, image);
        } else {
            std::vector<float> rec709 = *frame.rgba;
            space_->toRec709Pixels(rec709.data(), long(n) * n, 4);
            toneMapStraightAlpha(rec709, exposure_, image);
        }
        placeFlipbookCell(layout_, cell, image, premultiplied, sheet8_);
    }
    done_[size_t(cell)] = true;
    ++placed_;
}

void FlipbookSink::finish() {
    if (placed_ < layout_.cells() || written_) return;  // interrupted: no sheet of a part
    const std::string sheet = sheetPath();
    switch (layout_.settings().format) {
        case FlipbookFormat::Png:
            writePng(sheet, sheet8_);
            break;
        case FlipbookFormat::Tga:
            writeTga(sheet, sheet8_);
            break;
        case FlipbookFormat::Exr:
            writeExr(sheet, layout_.sheetWidth(), layout_.sheetHeight(), sheetF_, info_.numbers[0],
                     info_.fps, {}, space_->chromaticities);
            break;
    }
    // The sidecar last: where it is, its sheet is whole.
    writeFileAtomically(sidecarPath(), flipbookSidecar(layout_, info_));
    written_ = true;
}

std::string FlipbookSink::keptOnInterrupt() const {
    if (written_) return {};
    return "no flipbook in " + dir_ + " (" + std::to_string(placed_) + " of its " +
           std::to_string(layout_.cells()) + " frames done)";
}

std::string FlipbookSink::wrote() const {
    if (!written_) return {};
    return "a " + std::to_string(layout_.settings().columns) + "x" +
           std::to_string(layout_.settings().rows) + " flipbook of " +
           std::to_string(layout_.cells()) + " frames to " + sheetPath();
}

}  // namespace plume
