// --report FILE.html (run/report_sink.h, report/report_html.h): a self-contained
// page with one chart per --stats column, the scene, the command line and a
// contact sheet; refused in one line, before any work, without Chart.js.
// tests/browser/check_report.mjs opens such a page in Chromium.
#include "report/report_html.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "report/stats_table.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::slurp;
using test::runPlume;
using test::scratchDir;

const std::string kGolden = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::vector<std::string> csvHeader(const fs::path& csv) {
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    std::stringstream ss(line);
    for (std::string name; std::getline(ss, name, ',');) names.push_back(name);
    return names;
}

// Nothing the page would fetch: no script, stylesheet, image or frame from
// anywhere but the page itself (a URL in the library's comments is no fetch).
void expectSelfContained(const std::string& html) {
    static const std::regex fetches(
        R"((src|href|srcset|action|data)\s*=\s*["']?\s*(https?:|//|file:))", std::regex::icase);
    EXPECT_FALSE(std::regex_search(html, fetches)) << "the page fetches something";
    EXPECT_EQ(count(html, "<link"), 0);
    EXPECT_EQ(count(html, "@import"), 0);
    EXPECT_EQ(count(html, "url("), 0);
    static const std::regex scriptSrc(R"(<script[^>]*\ssrc\s*=)", std::regex::icase);
    EXPECT_FALSE(std::regex_search(html, scriptSrc)) << "a <script src=...>";
}

TEST(ReportHtml, RenderPageIsSelfContainedWithAChartPerStatsColumn) {
    const fs::path dir = scratchDir("report_render");
    const std::string args = "render " + kGolden + "rising.toml --set time.frames=12 -o out.mp4 " +
                             "--stats stats.csv --report report.html -q";
    const auto r = runPlume(args, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = slurp(dir / "report.html");
    ASSERT_FALSE(html.empty());
    expectSelfContained(html);
    EXPECT_EQ(count(html, "Chart.js v"), 1) << "Chart.js inlined once";

    // One chart per CSV column after the frame, each named after its column.
    const std::vector<std::string> columns = csvHeader(dir / "stats.csv");
    ASSERT_GE(columns.size(), 5u);
    EXPECT_EQ(columns.front(), "frame");
    EXPECT_EQ(count(html, "<canvas"), int(columns.size()) - 1);
    for (size_t c = 1; c < columns.size(); ++c)
        EXPECT_EQ(count(html, "id=\"chart-" + columns[c] + "\""), 1) << columns[c];
    // Every frame's value in the data the charts draw (12 frames).
    EXPECT_NE(html.find("\"frame\":[1,2,3,4,5,6,7,8,9,10,11,12]"), std::string::npos);

    // The scene as plume check prints it, and the command line.
    const auto check = runPlume("check " + kGolden + "rising.toml --set time.frames=12", dir);
    ASSERT_EQ(check.status, 0);
    EXPECT_NE(html.find(htmlEscape(check.out)), std::string::npos) << "the resolved scene";
    EXPECT_NE(html.find("--stats stats.csv --report report.html -q"), std::string::npos);
    EXPECT_NE(html.find("Complete: 12 frames simulated."), std::string::npos);
    for (const char* key : {"<th>CPU</th>", "<th>Cores</th>", "<th>Memory</th>", "<th>OS</th>",
                            "<th>plume</th>", "<th>Started</th>"})
        EXPECT_EQ(count(html, key), 1) << key;

    // The contact sheet: frames 1 and 11 (every tenth) and 12 (the last), rendered.
    EXPECT_EQ(count(html, "src=\"data:image/png;base64,iVBORw0KGgo"), 3);
    for (const char* frame : {"alt=\"frame 1\"", "alt=\"frame 11\"", "alt=\"frame 12\""})
        EXPECT_EQ(count(html, frame), 1) << frame;
    EXPECT_NE(html.find("The rendered frames"), std::string::npos);
    EXPECT_EQ(test::listDir(dir), (std::vector<std::string>{"out.mp4", "report.html", "stats.csv",
                                                            "stderr.txt", "stdout.txt"}));
}

TEST(ReportHtml, BakeSheetShowsTheDensity) {
    const fs::path dir = scratchDir("report_bake");
    const auto r = runPlume(
        "bake " + kGolden + "rising.toml --vdb cache --frames 2-4 --report out/report.html", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("the report to out/report.html"), std::string::npos) << r.err;
    const std::string html = slurp(dir / "out" / "report.html");
    expectSelfContained(html);
    EXPECT_EQ(count(html, "<canvas"), int(statsColumns().size()) - 1);
    // Four frames simulated (1 only simulated), 2 and 4 on the sheet.
    EXPECT_NE(html.find("\"frame\":[1,2,3,4]"), std::string::npos);
    EXPECT_EQ(count(html, "data:image/png;base64,"), 2);
    EXPECT_EQ(count(html, "alt=\"frame 2\""), 1);
    EXPECT_EQ(count(html, "alt=\"frame 4\""), 1);
    EXPECT_NE(html.find("density summed along the y axis"), std::string::npos);
}

TEST(ReportHtml, WithoutChartJsNothingRuns) {
    const fs::path dir = scratchDir("report_no_chartjs");
    const auto r =
        runPlume("bake " + kGolden + "rising.toml --vdb cache --stats s.csv --report r.html", dir,
                 "PLUME_CHART_JS=" + (dir / "missing.js").string());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(count(r.err, "\n"), 1) << r.err;
    EXPECT_NE(r.err.find("Chart.js"), std::string::npos) << r.err;
    EXPECT_EQ(test::listDir(dir), (std::vector<std::string>{"stderr.txt", "stdout.txt"}));
}

TEST(ReportHtml, PageHelpers) {
    EXPECT_EQ(base64(""), "");
    EXPECT_EQ(base64("f"), "Zg==");
    EXPECT_EQ(base64("fo"), "Zm8=");
    EXPECT_EQ(base64("foo"), "Zm9v");
    EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
    EXPECT_EQ(htmlEscape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    // The end of a <script> element can never appear inside one.
    EXPECT_EQ(scriptSafe("x = '</script>';"), "x = '<\\/script>';");
    // A name with a quote or a '<' stays text on the page.
    ReportPage page;
    page.title = "plume: <smoke>";
    page.rows = {{1, 2}};
    const std::string html = reportHtml(page, "/* lib */ var s = '</script>';");
    EXPECT_EQ(count(html, "</script>"), 3);  // the library, the data, the charts
    EXPECT_NE(html.find("<title>plume: &lt;smoke&gt;</title>"), std::string::npos);
}

}  // namespace
}  // namespace plume
