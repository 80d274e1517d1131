#include "core/report.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <utility>

namespace plume {

namespace {

std::mutex gMutex;
// When the program started (static initialisation), for the closing line's time.
const std::chrono::steady_clock::time_point gStart = std::chrono::steady_clock::now();
WarningSink gSink;  // empty: stderr

}  // namespace

std::string warningLine(const std::string& message) { return "plume: warning: " + message; }

void warn(const std::string& message) {
    WarningSink sink;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        sink = gSink;
    }
    // Called outside the lock, so a sink may itself take a while (or warn).
    if (sink)
        sink(message);
    else
        printMessage(warningLine(message));
}

ScopedWarningSink::ScopedWarningSink(WarningSink sink) {
    std::lock_guard<std::mutex> lock(gMutex);
    previous_ = std::exchange(gSink, std::move(sink));
}

ScopedWarningSink::~ScopedWarningSink() {
    std::lock_guard<std::mutex> lock(gMutex);
    gSink = std::move(previous_);
}

void printMessage(const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}

void printOutput(const std::string& text) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
}

void drawStatus(const std::string& text) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
}

void clearStatus() { std::fputs("\r\033[K", stderr); }

void endStatus() { std::fputs("\n", stderr); }

std::string formatDuration(double seconds) {
    char text[32];
    if (seconds < 60)
        std::snprintf(text, sizeof text, "%.1f s", seconds);
    else if (seconds < 3600)
        std::snprintf(text, sizeof text, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
    else
        std::snprintf(text, sizeof text, "%d h %02d min", int(seconds) / 3600,
                      int(seconds) / 60 % 60);
    return text;
}

std::string countOf(int count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string videoWrote(const std::string& path, int frames, int width, int height) {
    return path + " (" + countOf(frames, "frame") + ", " + std::to_string(width) + "x" +
           std::to_string(height) + ")";
}

std::string wroteLine(const std::vector<std::string>& outputs, double seconds) {
    std::string line;
    for (const std::string& output : outputs)
        if (!output.empty()) line += (line.empty() ? "" : ", ") + output;
    return "plume: wrote " + (line.empty() ? std::string("nothing") : line) + " in " +
           formatDuration(seconds);
}

double secondsSinceStart() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - gStart).count();
}

}  // namespace plume
