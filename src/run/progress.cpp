#include "run/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "core/report.h"

namespace plume {

namespace {

std::string clock(double seconds) {
    int s = int(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%d:%02d", s / 60, s % 60);
    return buf;
}

}  // namespace

Progress::Progress(int firstFrame, int lastFrame, bool quiet, int numberOffset, int shotLast)
    : first_(firstFrame),
      last_(lastFrame),
      numberOffset_(numberOffset),
      shotLast_(std::max(lastFrame, shotLast)),
      quiet_(quiet),
      terminal_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { finish(); }

void Progress::frameDone(int frame, const std::string& did, int substeps) {
    if (quiet_) return;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    // Frames before `first` are simulated too, so the ETA counts from frame 1.
    double perFrame = elapsed / frame;
    double eta = perFrame * (last_ - frame);
    char line[512];
    if (terminal_) {
        const int width = 30;
        int filled = last_ > 0 ? width * frame / last_ : width;
        std::string bar(size_t(filled), '#');
        bar.resize(width, '.');
        const std::string steps = substeps > 0 ? "  substeps " + std::to_string(substeps) : "";
        std::snprintf(line, sizeof line, "[%s] frame %d/%d%s  elapsed %s  ETA %s", bar.c_str(),
                      frame + numberOffset_, shotLast_ + numberOffset_, steps.c_str(),
                      clock(elapsed).c_str(), clock(eta).c_str());
        drawStatus(line);
        barShown_ = true;
    } else {
        std::snprintf(line, sizeof line, "frame %d/%d: %s%s", frame + numberOffset_,
                      shotLast_ + numberOffset_, did.c_str(), frame < first_ ? " (not written)" : "");
        printMessage(line);
    }
}

void Progress::message(const std::string& line) {
    if (silent_) return;
    clearBar();
    printMessage(line);
}

void Progress::warning(const std::string& text) {
    if (!quiet_) message(warningLine(text));
}

void Progress::clearBar() {
    if (barShown_) clearStatus();
    barShown_ = false;
}

void Progress::finish() {
    if (barShown_) endStatus();
    barShown_ = false;
}

}  // namespace plume
