// Progress on stderr: a redrawn bar on a terminal, one plain line per frame
// otherwise, nothing when quiet. Errors are printed after clearing the bar.
#pragma once

#include <chrono>
#include <string>

namespace plume {

class Progress {
  public:
    // Frames are indices from 1; lines show index + numberOffset (the scene's
    // frame numbers) out of the shot's last (shotLast, at least lastFrame), so
    // "--frames 30-30" of a 48-frame shot reads "frame 30/48".
    Progress(int firstFrame, int lastFrame, bool quiet, int numberOffset = 0, int shotLast = 0);
    ~Progress();

    // Reports frame `frame` done (written, if outside [first, last] it was
    // only simulated): `did` says what the run did for it ("12 substeps, sim
    // 0.50 s, render 0.20 s"); the bar shows the substeps when there were any.
    void frameDone(int frame, const std::string& did, int substeps = 0);
    // Prints a message on its own line (never hidden behind the bar).
    void message(const std::string& line);
    // A library warning (core/report.h) as a message; nothing when quiet.
    void warning(const std::string& text);
    void finish();
    // Nothing at all from here on, messages too: a split bake's processes
    // but the first, which speaks for them.
    void silence() { silent_ = true; }

  private:
    void clearBar();

    int first_, last_, numberOffset_, shotLast_;
    bool quiet_, terminal_;
    bool barShown_ = false;
    bool silent_ = false;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace plume
