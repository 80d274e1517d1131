#include "run/flipbook_sink.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/atomic_file.h"
#include "io/exr_file.h"
#include "io/png.h"
#include "io/tga.h"
#include "render/camera.h"
#include "render/output/six_way.h"
#include "render/output/tone_map.h"
#include "run/flipbook_renders.h"
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
    if (scene.loop.on()) info_.loopFrames = scene.loop.frames, info_.loopOverlap = scene.loop.overlap;
    info_.sixWay = s.kind == FlipbookKind::SixWay;
    info_.image = std::filesystem::path(sheetPath()).filename().string();
    const size_t sheetFloats = size_t(layout_.sheetWidth()) * layout_.sheetHeight() * 4;
    if (info_.sixWay) {
        info_.positive = info_.image;
        info_.negative = std::filesystem::path(pathOf("Negative")).filename().string();
        positive_.assign(sheetFloats, 0.0f);
        negative_.assign(sheetFloats, 0.0f);
    }
    if (s.motion) {
        info_.motion = std::filesystem::path(motionPath()).filename().string();
        info_.motionFormat = s.format == FlipbookFormat::Exr ? "RGBA16F" : "RGB16";
        motion_.assign(sheetFloats / 2, 0.0f);
    }
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
    if (info_.sixWay) {
        // The lightmaps in place of the colour sheet.
    } else if (s.format == FlipbookFormat::Exr) {
        sheetF_.assign(sheetFloats, 0.0f);
    } else {
        sheet8_ = Image(layout_.sheetWidth(), layout_.sheetHeight(), 4);
    }
}

unsigned FlipbookSink::needs() const {
    return (info_.sixWay ? kSixWay : 0u) | (layout_.settings().motion ? kMotion : 0u);
}

std::string FlipbookSink::pathOf(const std::string& suffix) const {
    return (std::filesystem::path(dir_) /
            (info_.name + "_" + suffix + flipbookExtension(layout_.settings().format)))
        .string();
}

std::string FlipbookSink::sheetPath() const {
    return pathOf(layout_.settings().kind == FlipbookKind::SixWay ? "Positive" : "colour");
}

std::string FlipbookSink::motionPath() const {
    // 16-bit: mid-grey exactly enough that still pixels stay still (TGA has no 16 bits).
    const bool exr = layout_.settings().format == FlipbookFormat::Exr;
    return (std::filesystem::path(dir_) / (info_.name + "_motion" + (exr ? ".exr" : ".png")))
        .string();
}

std::string FlipbookSink::sidecarPath() const {
    return (std::filesystem::path(dir_) / (info_.name + ".json")).string();
}

void FlipbookSink::consume(const Frame& frame) {
    const int cell = layout_.cellOf(frame.index);
    if (cell < 0 || done_[size_t(cell)]) return;
    const bool premultiplied = layout_.settings().alpha == FlipbookAlpha::Premultiplied;
    placeMaps(cell, frame);
    if (info_.sixWay) {
        // The lightmaps only.
    } else if (!sheetF_.empty()) {
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

namespace {

float luminanceOf(const float* rgb) {
    return 0.2126f * rgb[0] + 0.7152f * rgb[1] + 0.0722f * rgb[2];
}

}  // namespace

void FlipbookSink::placeMaps(int cell, const Frame& frame) {
    if (!frame.maps) return;
    const FlipbookMaps& maps = *frame.maps;
    const int x0 = layout_.frameX(cell), y0 = layout_.frameY(cell), n = layout_.frameSize();
    const size_t width = size_t(layout_.sheetWidth());
    const bool straight = layout_.settings().alpha == FlipbookAlpha::Straight;
    if (info_.sixWay) {
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const size_t i = size_t(y) * n + x;
                // Every render sees the same smoke: the frame's alpha is each map's.
                const float a = (*frame.rgba)[i * 4 + 3];
                const float divide = straight ? (a > 0.0f ? 1.0f / a : 0.0f) : 1.0f;
                float* pos = &positive_[((size_t(y0) + y) * width + size_t(x0) + x) * 4];
                float* neg = &negative_[((size_t(y0) + y) * width + size_t(x0) + x) * 4];
                for (int c = 0; c < 3; ++c) {
                    pos[c] = luminanceOf(&maps.light[size_t(c)][i * 4]) * divide;
                    neg[c] = luminanceOf(&maps.light[size_t(c) + 3][i * 4]) * divide;
                }
                pos[3] = a;
                // Light the flame gives off, not hidden by its own alpha.
                neg[3] = luminanceOf(&maps.emission[i * 4]);
            }
    }
    if (!motion_.empty() && !maps.motion.empty()) {
        // The pass is pixels a frame; the cells are `step` frames apart (the
        // last as far as the one before it), and a sheet's UV spans its width.
        const int last = layout_.cells() - 1;
        const int step = last == 0     ? 1
                         : cell < last ? layout_.frameOf(cell + 1) - layout_.frameOf(cell)
                                       : layout_.frameOf(cell) - layout_.frameOf(cell - 1);
        const float su = float(step) / float(layout_.sheetWidth());
        const float sv = float(step) / float(layout_.sheetHeight());
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const size_t i = size_t(y) * n + x;
                float* to = &motion_[((size_t(y0) + y) * width + size_t(x0) + x) * 2];
                to[0] = maps.motion[i * 2] * su;
                to[1] = maps.motion[i * 2 + 1] * sv;
            }
    }
}

void FlipbookSink::writeSixWay() {
    const int w = layout_.sheetWidth(), h = layout_.sheetHeight();
    for (const auto& [suffix, sheet] :
         {std::pair<const char*, const std::vector<float>*>{"Positive", &positive_},
          {"Negative", &negative_}}) {
        const std::string path = pathOf(suffix);
        if (layout_.settings().format == FlipbookFormat::Exr) {
            writeExr(path, w, h, *sheet, info_.numbers[0], info_.fps, {}, space_->chromaticities);
            continue;
        }
        // 8-bit: the light through the sRGB curve (no tone curve: a white
        // diffuser is 255), the alpha and the emission linear.
        Image image(w, h, 4);
        for (size_t p = 0; p < size_t(w) * h; ++p) {
            for (int c = 0; c < 4; ++c) {
                const float v = std::clamp((*sheet)[p * 4 + c], 0.0f, 1.0f);
                const float level = c < 3 ? srgbEncode(v) : v;
                image.pixels[p * 4 + c] = uint8_t(level * 255.0f + 0.5f);
            }
        }
        if (layout_.settings().format == FlipbookFormat::Tga)
            writeTga(path, image);
        else
            writePng(path, image);
    }
}

void FlipbookSink::writeMotion() {
    const int w = layout_.sheetWidth(), h = layout_.sheetHeight();
    const size_t pixels = size_t(w) * h;
    double scale = layout_.settings().motionScale;
    if (!(scale > 0.0)) {
        // Auto: the sheet's largest motion fills the encoding (at least a
        // pixel's, so a still sheet has a scale).
        float most = 0.0f;
        for (float v : motion_) most = std::max(most, std::fabs(v));
        scale = std::max(double(most), 1.0 / double(std::max(w, h)));
    }
    info_.motionScale = scale;
    auto encoded = [&](size_t p, int c) {
        return std::clamp(float(double(motion_[p * 2 + c]) / scale * 0.5 + 0.5), 0.0f, 1.0f);
    };
    const std::string path = motionPath();
    if (layout_.settings().format == FlipbookFormat::Exr) {
        std::vector<float> rgba(pixels * 4, 0.0f);
        for (size_t p = 0; p < pixels; ++p) {
            rgba[p * 4] = encoded(p, 0);
            rgba[p * 4 + 1] = encoded(p, 1);
            rgba[p * 4 + 3] = 1.0f;
        }
        writeExr(path, w, h, rgba, info_.numbers[0], info_.fps, {}, space_->chromaticities);
        return;
    }
    std::vector<std::uint16_t> rgb(pixels * 3, 0);
    for (size_t p = 0; p < pixels; ++p)
        for (int c = 0; c < 2; ++c)
            rgb[p * 3 + c] = std::uint16_t(std::lround(double(encoded(p, c)) * 65535.0));
    writePng16(path, w, h, rgb);
}

void FlipbookSink::finish() {
    if (placed_ < layout_.cells() || written_) return;  // interrupted: no sheet of a part
    if (!motion_.empty()) writeMotion();
    if (info_.sixWay) {
        writeSixWay();
        writeFileAtomically(sidecarPath(), flipbookSidecar(layout_, info_));
        written_ = true;
        return;
    }
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
