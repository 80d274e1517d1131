#include "run/frame_sinks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/error.h"
#include "render/renderer.h"
#include "run/cache_sinks.h"
#include "run/deep_sink.h"
#include "run/flipbook_renders.h"
#include "run/flipbook_sink.h"
#include "run/interrupt.h"
#include "run/loop_blend.h"
#include "run/output_paths.h"
#include "run/output_sinks.h"
#include "run/report_sink.h"
#include "run/resume.h"

namespace plume {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

FrameSinks::FrameSinks(const Scene& scene, const RunOutputs& out, int firstFrame, int lastFrame,
                       bool quiet, int shotLast)
    : firstFrame_(firstFrame),
      numberOffset_(scene.time.frameNumber(0)),
      skipExisting_(out.skipExisting),
      quiet_(quiet),
      progress_(firstFrame, lastFrame, quiet, scene.time.frameNumber(0), shotLast),
      warnings_([this](const std::string& text) { progress_.warning(text); }) {
    // output.color_space's name first: a bad one is refused before any folder is made.
    workingSpace(scene);
    if (!out.deepDir.empty()) DeepExrSink::refuseBadUse(out.deepDir, scene, out.exrDir);
    const bool pictures = out.pictures();
    if (scene.loop.on() && pictures) {
        loop_ = std::make_unique<LoopBlend>(scene.loop, lastFrame);
        if (!out.deepDir.empty())
            throw InputError(
                "--deep: error: a loop's frames are blends of two, and a deep image holds one "
                "frame's samples: leave out --deep or [loop]");
        if (skipExisting_)
            throw InputError(
                "--skip-existing: error: a loop's last frames are blends with frames before it, "
                "which a skipped run does not render: leave out --skip-existing");
    }
    // The pictures' first frame: a loop's own (the frames before it are read, not shown).
    const int pictureFirst = loop_ ? loop_->first() : firstFrame;
    // Each sink's constructor checks its path; none creates a file before open().
    // The report first: without Chart.js it is refused before any folder is made.
    if (!out.reportPath.empty()) {
        auto sheet = std::make_shared<ContactSheet>(pictureFirst);
        // A run that renders fills the sheet with its frames, scaled down.
        const bool renders = pictures;
        sinks_.push_back(
            std::make_unique<ReportSink>(out.reportPath, scene, out.commandLine, sheet, renders));
        if (renders) sinks_.push_back(std::make_unique<ContactSheetSink>(sheet));
    }
    if (!out.vdbDir.empty()) sinks_.push_back(std::make_unique<VdbCacheSink>(out.vdbDir, scene));
    if (!out.nvdbDir.empty()) sinks_.push_back(std::make_unique<NvdbCacheSink>(out.nvdbDir, scene));
    if (!out.pngDir.empty()) sinks_.push_back(std::make_unique<PngSink>(out.pngDir, scene));
    if (!out.exrDir.empty()) sinks_.push_back(std::make_unique<ExrSink>(out.exrDir, scene));
    if (!out.deepDir.empty())
        sinks_.push_back(std::make_unique<DeepExrSink>(out.deepDir, scene, out.exrDir));
    if (!out.flipbookDir.empty() && loop_ && scene.flipbook.frameCount() > scene.loop.frames) {
        // The sheet's cells are the loop's frames: say which sheet holds them.
        int columns = 1;
        while (columns * columns < scene.loop.frames) columns *= 2;
        int rows = 1;
        while (rows * columns < scene.loop.frames) rows *= 2;
        throw InputError("--flipbook: error: the sheet takes " +
                         std::to_string(scene.flipbook.frameCount()) +
                         " frames (flipbook.frames, or columns x rows) and the loop has " +
                         std::to_string(scene.loop.frames) + " (loop.frames): set flipbook.frames = " +
                         std::to_string(scene.loop.frames) + ", columns = " + std::to_string(columns) +
                         " and rows = " + std::to_string(rows) + ", or make the loop longer");
    }
    if (!out.flipbookDir.empty())
        sinks_.push_back(
            std::make_unique<FlipbookSink>(out.flipbookDir, scene, pictureFirst, lastFrame));
    if (!out.videoPath.empty()) sinks_.push_back(std::make_unique<VideoSink>(out.videoPath, scene));
    if (!out.statePath.empty())
        sinks_.push_back(std::make_unique<ResumeStateSink>(out.statePath, scene));
    if (!out.statsPath.empty()) sinks_.push_back(std::make_unique<StatsSink>(out.statsPath));
    if (skipExisting_ && !out.videoPath.empty())
        throw InputError(
            "--skip-existing: error: it writes no video (a video takes every frame): add "
            "--no-video");
}

FrameSinks::~FrameSinks() = default;

void FrameSinks::open(const Scene& scene) {
    for (const auto& sink : sinks_)
        for (const std::string& folder : sink->folders()) makeOutputDir(folder);
    if (takes(FrameSink::Takes::Image) || takes(FrameSink::Takes::Rgba))
        renderer_ = std::make_unique<Renderer>(scene);
    // Render passes are layers of the EXR frames: traced only when written.
    if (!scene.render.passes.empty() && renderer_) {
        if (needs() & kPasses)
            renderer_->enablePasses();
        else
            warn(
                "render.passes: they are layers of the EXR frames, and this run writes none "
                "(add --exr DIR)");
    }
    if (renderer_ && (needs() & kDeep)) renderer_->enableDeep();
    if (renderer_ && (needs() & (kSixWay | kMotion)))
        flipbookRenders_ = std::make_unique<FlipbookRenders>(scene, (needs() & kSixWay) != 0,
                                                             (needs() & kMotion) != 0);
    for (const auto& sink : sinks_) sink->open();
}

bool FrameSinks::skips(int frame) const {
    if (!skipExisting_ || frame < firstFrame_) return false;
    bool any = false;
    for (const auto& sink : sinks_) {
        if (sink->takes() == FrameSink::Takes::EveryFrame) continue;
        if (!sink->hasFrame(frame + numberOffset_)) return false;
        any = true;
    }
    return any;
}

Frame FrameSinks::frame(int index) {
    Frame f;
    f.index = index;
    f.number = index + numberOffset_;
    if (skips(index))
        ++skippedFrames_;
    else
        f.written = index >= firstFrame_;
    // What the sinks that take it need: every frame's, and a written frame's
    // (a frame a loop holds: what the loop frame it blends into needs).
    const int picture = loop_ && loop_->holds(index) ? index + loop_->frames() : index;
    for (const auto& sink : sinks_)
        if ((f.written && sink->takesFrame(picture)) ||
            sink->takes() == FrameSink::Takes::EveryFrame)
            f.asked |= sink->needs();
    return f;
}

void FrameSinks::writeFields(Frame& frame) {
    if (!frame.written) return;
    const auto t = Clock::now();
    feed(FrameSink::Takes::Fields, frame);
    frame.writeSeconds += secondsSince(t);
}

bool FrameSinks::shown(int index) const { return !loop_ || index >= loop_->first(); }

bool FrameSinks::pictured(int index) const {
    if (!shown(index)) return loop_->holds(index) && pictured(index + loop_->frames());
    for (const auto& sink : sinks_)
        if ((sink->takes() == FrameSink::Takes::Image || sink->takes() == FrameSink::Takes::Rgba) &&
            sink->takesFrame(index))
            return true;
    return false;
}

void FrameSinks::render(Frame& frame, const VolumeView& volume, int renderIndex) {
    if (!frame.written || !renderer_ || !pictured(frame.index)) return;
    const auto t = Clock::now();
    renderer_->trace(volume, renderIndex);
    if (flipbookRenders_ && frame.asks(kSixWay | kMotion))
        flipbookRenders_->trace(volume, renderIndex);
    frame.renderSeconds += secondsSince(t);
}

void FrameSinks::writePictures(Frame& frame) {
    if (!frame.written || !renderer_ || !pictured(frame.index)) return;
    const auto t = Clock::now();
    if (loop_) {
        const bool maps = flipbookRenders_ && frame.asks(kSixWay | kMotion);
        FlipbookMaps* traced = maps ? &flipbookRenders_->maps() : nullptr;
        if (!shown(frame.index)) {
            loop_->hold(frame.index, renderer_->traced(), renderer_->passes(), traced);
            frame.writeSeconds += secondsSince(t);
            return;
        }
        loop_->blend(frame.index, renderer_->traced(), renderer_->tracedPasses(), traced);
    }
    if (takes(FrameSink::Takes::Image)) {
        const Image image = renderer_->toneMapped();
        frame.image = &image;
        feed(FrameSink::Takes::Image, frame);
        frame.image = nullptr;
    }
    if (takes(FrameSink::Takes::Rgba)) {
        const std::vector<float> rgba = renderer_->rgba();
        frame.rgba = &rgba;
        frame.passes = renderer_->passes();
        frame.deep = renderer_->deep();
        if (flipbookRenders_ && frame.asks(kSixWay | kMotion))
            frame.maps = &flipbookRenders_->maps();
        feed(FrameSink::Takes::Rgba, frame);
        frame.maps = nullptr;
        frame.rgba = nullptr;
        frame.passes = nullptr;
        frame.deep = nullptr;
    }
    frame.writeSeconds += secondsSince(t);
}

void FrameSinks::frameDone(Frame& frame) {
    feed(FrameSink::Takes::EveryFrame, frame);
    std::string did = frame.did;
    if (frame.written && renderer_ && pictured(frame.index)) {
        char text[64];
        std::snprintf(text, sizeof text, "render %.2f s", frame.renderSeconds);
        did += (did.empty() ? "" : ", ") + std::string(text);
    }
    if (frame.written && frame.writeSeconds > 0.0) {
        char text[64];
        std::snprintf(text, sizeof text, "write %.2f s", frame.writeSeconds);
        did += (did.empty() ? "" : ", ") + std::string(text);
    }
    if (did.empty()) did = "skipped";
    progress_.frameDone(frame.index, did, frame.sim.substeps);
}

void FrameSinks::feed(FrameSink::Takes takes, const Frame& frame) {
    const bool picture = takes == FrameSink::Takes::Image || takes == FrameSink::Takes::Rgba;
    if (picture && !shown(frame.index)) return;
    for (const auto& sink : sinks_)
        if (sink->takes() == takes && (!picture || sink->takesFrame(frame.index)))
            sink->consume(frame);
}

bool FrameSinks::takes(FrameSink::Takes takes) const {
    for (const auto& sink : sinks_)
        if (sink->takes() == takes) return true;
    return false;
}

unsigned FrameSinks::needs() const {
    unsigned needs = 0;
    for (const auto& sink : sinks_) needs |= sink->needs();
    return needs;
}

void FrameSinks::interrupt(int frame) {
    finishSinks();
    const std::string keeps = kept();
    progress_.message("plume: interrupted after frame " + std::to_string(frame + numberOffset_) +
                      (keeps.empty() ? "" : "; " + keeps));
}

std::string FrameSinks::kept() const {
    std::string line;
    for (const auto& sink : sinks_)
        if (std::string kept = sink->keptOnInterrupt(); !kept.empty())
            line += (line.empty() ? "" : "; ") + kept;
    return line;
}

void FrameSinks::finish() {
    finishSinks();
    if (!quiet_) {
        if (skippedFrames_ > 0)
            progress_.message("plume: skipped " + std::to_string(skippedFrames_) +
                              " frame(s) whose outputs were already there (--skip-existing)");
        // The closing line names what was written, in the sinks' order
        // (FrameSink::wroteOrder: the video first).
        std::vector<const FrameSink*> order;
        for (const auto& sink : sinks_) order.push_back(sink.get());
        std::stable_sort(order.begin(), order.end(), [](const FrameSink* a, const FrameSink* b) {
            return a->wroteOrder() < b->wroteOrder();
        });
        std::vector<std::string> wrote;
        for (const FrameSink* sink : order) wrote.push_back(sink->wrote());
        progress_.message(wroteLine(wrote, secondsSinceStart()));
    }
    progress_.finish();
}

void FrameSinks::finishSinks() {
    if (finished_) return;
    finished_ = true;
    for (const auto& sink : sinks_) sink->finish();
}

void FrameSinks::message(const std::string& line) { progress_.message(line); }

}  // namespace plume
