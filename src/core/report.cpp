#include "core/report.h"

#include <cstdio>
#include <mutex>
#include <utility>

namespace plume {

namespace {

std::mutex gMutex;
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
        std::fprintf(stderr, "%s\n", warningLine(message).c_str());
}

ScopedWarningSink::ScopedWarningSink(WarningSink sink) {
    std::lock_guard<std::mutex> lock(gMutex);
    previous_ = std::exchange(gSink, std::move(sink));
}

ScopedWarningSink::~ScopedWarningSink() {
    std::lock_guard<std::mutex> lock(gMutex);
    gSink = std::move(previous_);
}

}  // namespace plume
