// Everything plume prints goes through here. Library code never prints: it
// calls warn(), and the program decides where a warning goes (the command
// line: beside its progress display, nowhere with --quiet). With no sink
// installed a warning is one line on stderr, "plume: warning: ...", so tests
// and other programs that link the library still see it. The command line
// prints its messages, progress and results with the functions at the end.
#pragma once

#include <functional>
#include <string>
#include <vector>

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

// A line on stderr: an error, a message, the closing "plume: wrote ..." line.
void printMessage(const std::string& line);
// Text on stdout as it is (plume check's scene, the farm's job ids).
void printOutput(const std::string& text);
// The progress bar on a terminal: text drawn over the current line of
// stderr, without a newline. clearStatus() blanks that line, endStatus()
// moves past it.
void drawStatus(const std::string& text);
void clearStatus();
void endStatus();

// "48.6 s", "2 min 05 s", "1 h 02 min": a duration as the closing line says it.
std::string formatDuration(double seconds);
// "1 frame", "24 frames": a count and its noun, plural with an s.
std::string countOf(int count, const std::string& noun);
// "out.mp4 (120 frames, 1280x720)": a video, as the closing line names it.
std::string videoWrote(const std::string& path, int frames, int width, int height);
// The closing line of a command that wrote files, as ffmpeg and Blender end:
// "plume: wrote out.mp4 (120 frames, 1280x720), 24 VDB frames to cache/ in
// 48.6 s"; each of outputs one thing written, empty ones left out.
std::string wroteLine(const std::vector<std::string>& outputs, double seconds);
// Wall seconds since the program started.
double secondsSinceStart();

}  // namespace plume
