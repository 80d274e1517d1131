#include "cli/encode.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/report.h"
#include "io/exr_file.h"
#include "io/png.h"
#include "io/sequence.h"
#include "io/video_encoder.h"
#include "render/output/color_space.h"
#include "render/output/tone_map.h"
#include "render/views/bitmap_font.h"
#include "run/frame_range.h"
#include "run/interrupt.h"
#include "run/output_paths.h"
#include "run/output_sinks.h"
#include "scene/loader.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

enum class FrameFormat { Png, Exr };

FrameFormat formatOf(const std::string& pattern) {
    std::string ext = fs::path(pattern).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".png") return FrameFormat::Png;
    if (ext == ".exr") return FrameFormat::Exr;
    throw InputError("'" + pattern +
                     "': error: neither a PNG nor an EXR sequence (expected NAME_####.png or "
                     ".exr, or a folder of them)");
}

// One frame as the video takes it. An EXR holds linear, premultiplied light:
// it is tone-mapped as render tone-maps its frames (exposure, filmic curve,
// sRGB, the same dither), over black where it is transparent. Its header's
// chromaticities say its space: ACEScg (output.color_space) goes back to
// linear Rec. 709 first, as render's own video does; an unknown space is
// taken as Rec. 709. The exposure is the one the user asked for (a scene,
// --set render.exposure), else the one the render wrote in the EXR's header
// (plume_exposure), else the default: sceneExposure is the scene's, `asked`
// whether the user gave it.
Image readFrame(const std::string& path, FrameFormat format, float sceneExposure, bool asked) {
    if (format == FrameFormat::Png) return readPng(path);
    const ExrImage exr = readExr(path);
    const float exposure = asked ? sceneExposure : exr.exposure.value_or(sceneExposure);
    std::vector<float> rgb(size_t(exr.width) * exr.height * 3);
    for (size_t i = 0; i < size_t(exr.width) * exr.height; ++i)
        for (int c = 0; c < 3; ++c) rgb[i * 3 + c] = exr.rgba[i * 4 + c];
    if (const auto space = workingSpaceOf(exr.chromaticities))
        space->toRec709Pixels(rgb.data(), long(exr.width) * exr.height, 3);
    Image image(exr.width, exr.height);
    toneMap(rgb, exposure, image);
    return image;
}

}  // namespace

std::string missingFrames(const std::vector<int>& present, int first, int last) {
    std::vector<bool> have(size_t(last - first + 1), false);
    for (int frame : present)
        if (frame >= first && frame <= last) have[size_t(frame - first)] = true;
    std::string text;
    for (int frame = first; frame <= last; ++frame) {
        if (have[size_t(frame - first)]) continue;
        int end = frame;
        while (end < last && !have[size_t(end + 1 - first)]) ++end;
        text += (text.empty() ? "" : ", ") + std::to_string(frame);
        if (end > frame) text += "-" + std::to_string(end);
        frame = end;
    }
    return text;
}

namespace {

// Several sequences' frames as one picture: a grid of tiles, row by row,
// each labelled in its top-left corner, one "key=value" a line, clipped to
// its tile; scaled down by a whole factor when the grid would be wider than
// 1920 pixels, so it stays a size players take.
Image tileFrames(const std::vector<Image>& frames, const std::vector<std::string>& labels) {
    const int n = int(frames.size());
    const int cols = int(std::ceil(std::sqrt(double(n)))), rows = (n + cols - 1) / cols;
    const int w = frames[0].width, h = frames[0].height;
    const int shrink = std::max(1, (cols * w + 1919) / 1920);
    const int tw = w / shrink, th = h / shrink;
    Image grid((cols * tw + 1) & ~1, (rows * th + 1) & ~1);
    for (int t = 0; t < n; ++t) {
        // Box filter over shrink x shrink source pixels.
        Image tile(tw, th);
        for (int y = 0; y < th; ++y)
            for (int x = 0; x < tw; ++x)
                for (int c = 0; c < 3; ++c) {
                    int sum = 0;
                    for (int j = 0; j < shrink; ++j)
                        for (int i = 0; i < shrink; ++i)
                            sum += frames[t].pixel(x * shrink + i, y * shrink + j)[c];
                    tile.pixel(x, y)[c] = uint8_t((sum + shrink * shrink / 2) / (shrink * shrink));
                }
        if (t < int(labels.size())) {
            const int scale = std::max(1, th / 100);
            std::istringstream words(labels[t]);
            int y = 2 * scale;
            for (std::string line; words >> line; y += textHeight(scale) + 3 * scale)
                drawLabel(tile, 2 * scale, y, line, scale);
        }
        const int x0 = (t % cols) * tw, y0 = (t / cols) * th;
        for (int y = 0; y < th; ++y)
            std::copy(tile.pixel(0, y), tile.pixel(0, y) + 3 * tw, grid.pixel(x0, y0 + y));
    }
    return grid;
}

}  // namespace

int runEncode(const RunOptions& opt) {
    if (opt.inputs.empty()) throw InputError("plume encode: error: no frame sequence given");
    if (!opt.labels.empty() && opt.labels.size() != opt.inputs.size())
        throw InputError("plume encode: error: " + std::to_string(opt.labels.size()) +
                         " --label for " + std::to_string(opt.inputs.size()) + " sequences");
    // Output settings (and time.fps, render.exposure) from the scene the frames
    // came from, or the defaults, with --set on top: checked like any scene.
    const Scene scene = opt.scenePath.empty() ? parseScene("", "<defaults>", opt.overrides)
                                              : loadScene(opt.scenePath, opt.overrides);
    const double fps = opt.fps > 0 ? opt.fps : videoFps(scene);
    const bool exposureSet =
        !opt.scenePath.empty() ||
        std::any_of(opt.overrides.begin(), opt.overrides.end(),
                    [](const std::string& o) { return o.starts_with("render.exposure="); });

    // Which frames: --frames, or the first to the last of the first sequence;
    // every one must be there in every sequence.
    std::vector<FrameFormat> formats;
    std::vector<std::vector<SequenceFile>> sequences;
    for (const std::string& pattern : opt.inputs) {
        std::error_code ec;
        if (fs::is_directory(pattern, ec)) {  // its one sequence, as render-vdb and upres take
            sequences.push_back(expandFolder(pattern, {".png", ".exr"}, "PNG or EXR"));
            formats.push_back(formatOf(sequences.back().front().path));
            continue;
        }
        formats.push_back(formatOf(pattern));
        sequences.push_back(
            expandSequence(pattern, formats.back() == FrameFormat::Png ? "PNG" : "EXR"));
    }
    int first = sequences[0].front().frame, last = sequences[0].back().frame;
    if (!opt.frames.empty()) parseFrameRange(opt.frames, 0, 1 << 30, first, last);
    for (size_t s = 0; s < sequences.size(); ++s) {
        std::vector<int> present;
        for (const SequenceFile& f : sequences[s]) present.push_back(f.frame);
        if (const std::string gaps = missingFrames(present, first, last); !gaps.empty())
            throw InputError("plume encode: error: '" + opt.inputs[s] + "' lacks frame" +
                             (gaps.find_first_of(",-") == std::string::npos ? " " : "s ") + gaps +
                             " (of " + std::to_string(first) + "-" + std::to_string(last) + ")");
        std::erase_if(sequences[s],
                      [&](const SequenceFile& f) { return f.frame < first || f.frame > last; });
    }

    const std::string& output = opt.output;
    if (output.empty()) throw InputError("plume encode: error: -o OUT.mp4 is required");
    ensureWritableFile(output, "an MP4");
    makeOutputDir(folderOfFile(output));

    // The encoder renames its ".partial" file into place even when stopped by
    // an error (so an interrupted render keeps a playable video); here the
    // video only counts when every frame is in, so it finishes under a second
    // temporary name that is renamed last. The encoder goes before the file.
    AtomicFile video(output, ".encoding");
    std::unique_ptr<VideoEncoder> encoder;
    int width = 0, height = 0, videoWidth = 0, videoHeight = 0;
    std::string firstPath;
    for (size_t n = 0; n < sequences[0].size(); ++n) {
        std::vector<Image> frames;
        for (size_t s = 0; s < sequences.size(); ++s) {
            const std::string& path = sequences[s][n].path;
            frames.push_back(readFrame(path, formats[s], scene.render.exposure, exposureSet));
            const Image& image = frames.back();
            if (firstPath.empty()) {
                width = image.width;
                height = image.height;
                firstPath = path;
            } else if (image.width != width || image.height != height) {
                throw InputError("plume encode: error: '" + path + "' is " +
                                 std::to_string(image.width) + "x" + std::to_string(image.height) +
                                 ", '" + firstPath + "' " + std::to_string(width) + "x" +
                                 std::to_string(height) + ": every frame must have one size");
            }
        }
        const Image image = frames.size() == 1 && opt.labels.empty()
                                ? std::move(frames[0])
                                : tileFrames(frames, opt.labels);
        if (!encoder) {
            encoder = std::make_unique<VideoEncoder>(video.tempPath(), image.width, image.height,
                                                     fps, scene.output);
            videoWidth = image.width;
            videoHeight = image.height;
        }
        encoder->add(image);
        if (interruptSignal()) {
            encoder.reset();
            return 128 + interruptSignal();
        }
    }
    encoder->finish();
    encoder.reset();
    video.commit();
    if (!opt.quiet)
        printMessage(
            wroteLine({videoWrote(output, int(sequences[0].size()), videoWidth, videoHeight) +
                       " from frames " + std::to_string(first) + "-" + std::to_string(last)},
                      secondsSinceStart()));
    return 0;
}

}  // namespace plume
