// Warnings from library code. Library code never prints: it calls warn(), and
// the program decides where a warning goes (the command line: beside its
// progress display, nowhere with --quiet). With no sink installed a warning is
// one line on stderr, "plume: warning: ...", so tests and other programs that
// link the library still see it.
#pragma once

#include <functional>
#include <string>

namespace plume {

// Receives the warning text, without the "plume: warning: " prefix.
using WarningSink = std::function<void(const std::string& message)>;

void warn(const std::string& message);

// The line a warning prints as: "plume: warning: " + message.
std::string warningLine(const std::string& message);

// Routes warnings to sink while this object lives (an empty sink: to stderr);
// the sink installed before comes back afterwards.
class ScopedWarningSink {
  public:
    explicit ScopedWarningSink(WarningSink sink);
    ~ScopedWarningSink();
    ScopedWarningSink(const ScopedWarningSink&) = delete;
    ScopedWarningSink& operator=(const ScopedWarningSink&) = delete;

  private:
    WarningSink previous_;
};

}  // namespace plume
