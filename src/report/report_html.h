// The --report page: one self-contained HTML file (Chart.js inlined, the
// thumbnails as data: URIs, nothing fetched) with a chart per --stats column,
// the machine, the command line, a contact sheet and the resolved scene.
// Only the text of the page here; report_sink.h gathers what goes in it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace plume {

// A contact sheet's picture of one frame.
struct ReportThumbnail {
    int frame = 0;
    std::string png;  // the PNG file's bytes
    int width = 0, height = 0;
};

struct ReportPage {
    std::string title;              // "plume render scenes/plume.toml"
    std::string command;            // the command line as typed (quoted)
    std::string started, finished;  // utcNow()
    std::string outcome;            // "12 frames simulated", "interrupted after frame 6 ..."
    std::vector<std::pair<std::string, std::string>> machine;  // machineInfo()
    std::string scene;                                         // as plume check prints it
    std::vector<std::vector<double>> rows;                     // statsValues() per simulated frame
    std::string sheetNote;  // what the contact sheet's pictures are
    std::vector<ReportThumbnail> sheet;
};

// The page, with chartJs (the library's source) inlined in a <script>.
std::string reportHtml(const ReportPage& page, const std::string& chartJs);

// Helpers, exposed for tests.
std::string htmlEscape(const std::string& text);
std::string base64(const std::string& bytes);
// Text safe inside <script>...</script>: "</" becomes "<\/" (the same
// string to JavaScript and to JSON, never the end of the element).
std::string scriptSafe(const std::string& text);

}  // namespace plume
