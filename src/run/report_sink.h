// --report FILE.html on render and bake (report/report_html.h writes the page):
// the stats of every simulated frame, a contact sheet of every tenth written
// frame and the last, and the run's scene, command line and machine. Written
// when the run finishes or is interrupted, like every output through a
// temporary name and a rename.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "report/report_html.h"
#include "run/frame_sink.h"
#include "scene/scene.h"

namespace plume {

// Chart.js as Debian's libjs-chart.js installs it: $PLUME_CHART_JS when set,
// else the first of the package's files that exists (chart.umd.min.js from
// Chart.js 4, chart.min.js from 3). Throws InputError in one line naming the
// package when there is none.
std::string findChartJs();

// The frames a contact sheet shows: the first written, every tenth after it
// (with --frames 5-40: 5, 15, 25, 35) and, at the end, the last.
struct ContactSheet {
    explicit ContactSheet(int firstFrame) : firstFrame(firstFrame) {}
    bool wants(int frame) const { return (frame - firstFrame) % 10 == 0; }
    // Keeps t when the sheet wants its frame; holds it as the last one either way.
    void add(ReportThumbnail t);
    // The sheet's pictures, the last frame's among them.
    std::vector<ReportThumbnail> pictures() const;

    int firstFrame;
    std::vector<ReportThumbnail> kept;
    ReportThumbnail last;
};

// Thumbnails of the rendered frames, for a run that renders (its video or
// PNG frames): the tone-mapped picture, scaled down.
class ContactSheetSink : public FrameSink {
  public:
    explicit ContactSheetSink(std::shared_ptr<ContactSheet> sheet) : sheet_(std::move(sheet)) {}
    Takes takes() const override { return Takes::Image; }
    void consume(const Frame& frame) override;

  private:
    std::shared_ptr<ContactSheet> sheet_;
};

class ReportSink : public FrameSink {
  public:
    // Reads Chart.js now (InputError when missing: before any simulation)
    // and checks the path. `rendered`: a ContactSheetSink fills the sheet
    // with rendered frames; otherwise the sheet shows each written frame's
    // density summed along y (a bake renders nothing).
    ReportSink(std::string path, const Scene& scene, std::string command,
               std::shared_ptr<ContactSheet> sheet, bool rendered);
    Takes takes() const override { return Takes::EveryFrame; }
    // The totals for its charts; without rendered frames, the fields for its thumbnails.
    unsigned needs() const override { return rendered_ ? kTotals : kTotals | kFields; }
    std::vector<std::string> folders() const override { return {folderOfFile(path_)}; }
    void consume(const Frame& frame) override;
    void finish() override;
    std::string keptOnInterrupt() const override;
    std::string wrote() const override;

  private:
    std::string path_;
    float extinction_;  // render.extinction, for the density thumbnails
    std::string chartJs_;
    ReportPage page_;
    std::shared_ptr<ContactSheet> sheet_;
    bool rendered_;
    int lastFrame_ = 0;
};

// Thumbnails, exposed for tests: an image box-filtered down to at most
// maxWidth x maxHeight (never up); and the density of fields summed along y
// onto x (right) and z (up) as white smoke on a dark ground.
Image thumbnail(const Image& image, int maxWidth, int maxHeight);
Image densityThumbnail(const std::vector<const Fields*>& islands, float extinction, int maxSize);

}  // namespace plume
