#include "run/report_sink.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/png.h"
#include "report/machine_info.h"
#include "report/stats_table.h"
#include "run/interrupt.h"
#include "run/memory_check.h"
#include "run/output_paths.h"
#include "run/output_sinks.h"
#include "scene/describe.h"

namespace plume {

namespace {

// Where Debian's libjs-chart.js puts the library: chart.umd.min.js from
// Chart.js 4 (Debian 13), chart.min.js from 3.9 (Debian 12). Both are UMD
// builds that define window.Chart from a plain <script>.
const char* const kChartJsPaths[] = {
    "/usr/share/javascript/chart.js/chart.umd.min.js",
    "/usr/share/javascript/chart.js/chart.umd.js",
    "/usr/share/javascript/chart.js/chart.min.js",
    "/usr/share/javascript/chart.js/chart.js",
};

// The contact sheet's pictures: small, so a long run's page stays a few MB.
constexpr int kThumbWidth = 240, kThumbHeight = 135;

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ReportThumbnail thumbnailOf(int frame, const Image& image) {
    return {frame, encodePng(image), image.width, image.height};
}

}  // namespace

std::string findChartJs() {
    if (const char* path = std::getenv("PLUME_CHART_JS"); path && *path) {
        if (!std::filesystem::is_regular_file(path))
            throw InputError(std::string("--report: error: no Chart.js at ") + path +
                             " (PLUME_CHART_JS)");
        return path;
    }
    for (const char* path : kChartJsPaths)
        if (std::filesystem::is_regular_file(path)) return path;
    throw InputError(
        "--report: error: the report's charts need Chart.js, which is not installed "
        "(apt-get install libjs-chart.js; looked in /usr/share/javascript/chart.js/)");
}

void ContactSheet::add(ReportThumbnail t) {
    if (wants(t.frame)) kept.push_back(t);
    last = std::move(t);
}

std::vector<ReportThumbnail> ContactSheet::pictures() const {
    std::vector<ReportThumbnail> all = kept;
    if (last.frame != 0 && (all.empty() || all.back().frame != last.frame)) all.push_back(last);
    return all;
}

Image thumbnail(const Image& image, int maxWidth, int maxHeight) {
    const double scale =
        std::min({1.0, double(maxWidth) / image.width, double(maxHeight) / image.height});
    const int w = std::max(1, int(std::lround(image.width * scale)));
    const int h = std::max(1, int(std::lround(image.height * scale)));
    Image out(w, h, 3);
    // Box filter: each thumbnail pixel averages the source pixels it covers.
    for (int y = 0; y < h; ++y) {
        const int y0 = y * image.height / h, y1 = std::max(y0 + 1, (y + 1) * image.height / h);
        for (int x = 0; x < w; ++x) {
            const int x0 = x * image.width / w, x1 = std::max(x0 + 1, (x + 1) * image.width / w);
            unsigned sum[3] = {0, 0, 0};
            for (int sy = y0; sy < y1; ++sy)
                for (int sx = x0; sx < x1; ++sx)
                    for (int c = 0; c < 3; ++c) sum[c] += image.pixel(sx, sy)[c];
            const unsigned n = unsigned((y1 - y0) * (x1 - x0));
            for (int c = 0; c < 3; ++c) out.pixel(x, y)[c] = uint8_t((sum[c] + n / 2) / n);
        }
    }
    return out;
}

Image densityThumbnail(const std::vector<const Fields*>& islands, float extinction, int maxSize) {
    if (islands.empty()) return Image(1, 1, 3);
    const Vec3i n = islands.front()->domainSize();
    const float dx = islands.front()->dx;
    // Optical depth through the domain along y, per (x, z) column.
    std::vector<double> depth(size_t(n.x) * n.z, 0.0);
    for (const Fields* f : islands)
        for (int k = 0; k < f->n.z; ++k)
            for (int j = 0; j < f->n.y; ++j)
                for (int i = 0; i < f->n.x; ++i) {
                    const int x = i + f->offset.x, z = k + f->offset.z;
                    if (x >= 0 && x < n.x && z >= 0 && z < n.z)
                        depth[size_t(z) * n.x + x] += double(f->density(i, j, k)) * extinction * dx;
                }
    // Integer scaling keeps the cells square and sharp; large grids are filtered down.
    const int up = std::max(1, maxSize / std::max(n.x, n.z));
    Image image(n.x * up, n.z * up, 3);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const int z = n.z - 1 - y / up;  // z up
            const double opacity = 1.0 - std::exp(-depth[size_t(z) * n.x + x / up]);
            const uint8_t ground[3] = {24, 28, 36};
            for (int c = 0; c < 3; ++c)
                image.pixel(x, y)[c] =
                    uint8_t(std::lround(ground[c] + (235 - ground[c]) * opacity));
        }
    return image.width > maxSize || image.height > maxSize ? thumbnail(image, maxSize, maxSize)
                                                           : image;
}

void ContactSheetSink::consume(const Frame& frame) {
    sheet_->add(thumbnailOf(frame.number, thumbnail(*frame.image, kThumbWidth, kThumbHeight)));
}

ReportSink::ReportSink(std::string path, const Scene& scene, std::string command,
                       std::shared_ptr<ContactSheet> sheet, bool rendered)
    : path_(std::move(path)),
      extinction_(scene.render.extinction),
      chartJs_(readTextFile(findChartJs())),
      sheet_(std::move(sheet)),
      rendered_(rendered) {
    ensureWritableFile(path_);
    if (chartJs_.empty()) throw InputError("--report: error: " + findChartJs() + " is empty");
    page_.title = "plume: " + scene.name;
    page_.command = std::move(command);
    page_.started = utcNow();
    page_.scene = describeScene(scene, estimateMemory(scene));
    page_.sheetNote =
        rendered_ ? "The rendered frames (every tenth and the last), scaled down."
                  : "This run renders nothing: each picture is the density summed along the y "
                    "axis (x to the right, z up), every tenth frame and the last; white is "
                    "opaque at render.extinction.";
}

void ReportSink::consume(const Frame& frame) {
    page_.rows.push_back(statsValues(frame));
    lastFrame_ = frame.number;
    // Every written frame's picture is made: the run may stop after any of
    // them, and the sheet ends with the last.
    if (!rendered_ && frame.written && !frame.grids.islands.empty())
        sheet_->add(thumbnailOf(frame.number,
                                densityThumbnail(frame.grids.islands, extinction_, kThumbHeight)));
}

void ReportSink::finish() {
    page_.finished = utcNow();
    page_.machine = machineInfo(threadCount());
    const std::string frames = countOf(int(page_.rows.size()), "frame") + " simulated";
    if (interruptSignal())
        page_.outcome = "Interrupted (signal " + std::to_string(interruptSignal()) +
                        ") after frame " + std::to_string(lastFrame_) + ": " + frames +
                        ", the frames done so far.";
    else
        page_.outcome = "Complete: " + frames + ".";
    page_.sheet = sheet_->pictures();
    writeFileAtomically(path_, reportHtml(page_, chartJs_));
}

std::string ReportSink::keptOnInterrupt() const { return path_ + " reports the frames done"; }

std::string ReportSink::wrote() const { return "the report to " + path_; }

}  // namespace plume
