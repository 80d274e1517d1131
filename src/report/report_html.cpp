#include "report/report_html.h"

#include <cmath>
#include <cstdio>

#include "report/json_text.h"
#include "report/stats_table.h"

namespace plume {

namespace {

// One colour per chart, distinct enough side by side; the browser test looks
// for each chart's own colour in its pixels (data-color), so a chart that
// drew its axes but not its line is caught.
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                               "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

// The stats as one JSON object: the columns (name, title, unit, scale) and
// each column's values over the frames.
std::string statsJson(const ReportPage& page) {
    const std::vector<StatsColumn>& columns = statsColumns();
    std::string json = "{\"columns\":[";
    for (size_t c = 0; c < columns.size(); ++c) {
        json += (c ? "," : "") + std::string("{\"name\":") + jsonString(columns[c].name) +
                ",\"title\":" + jsonString(columns[c].title) +
                ",\"unit\":" + jsonString(columns[c].unit) +
                ",\"log\":" + (columns[c].logScale ? "true" : "false") + "}";
    }
    json += "],\"values\":{";
    for (size_t c = 0; c < columns.size(); ++c) {
        json += (c ? "," : "") + jsonString(columns[c].name) + ":[";
        for (size_t r = 0; r < page.rows.size(); ++r)
            json += (r ? "," : "") + jsonNumber(c < page.rows[r].size() ? page.rows[r][c] : NAN);
        json += "]";
    }
    return json + "}}";
}

// Draws every chart from the JSON above. No animation: the page is whole
// once it has loaded (a screenshot or a print shows the charts).
const char* const kChartScript = R"JS(
(function () {
  const stats = JSON.parse(document.getElementById('plume-stats').textContent);
  const frames = stats.values.frame;
  for (const column of stats.columns.slice(1)) {
    const canvas = document.getElementById('chart-' + column.name);
    const color = canvas.dataset.color;
    // A log axis has no place for 0: such values are left out of the line.
    const values = stats.values[column.name].map((v) => (column.log && !(v > 0) ? null : v));
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: frames,
        datasets: [{ label: column.title, data: values, borderColor: color, backgroundColor: color,
                     borderWidth: 2, pointRadius: frames.length <= 60 ? 2 : 0, spanGaps: true }],
      },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { legend: { display: false },
                   title: { display: true, text: column.title, font: { size: 14 } } },
        scales: {
          x: { title: { display: true, text: 'frame' }, ticks: { maxRotation: 0, autoSkipPadding: 8 } },
          y: { type: column.log ? 'logarithmic' : 'linear', beginAtZero: !column.log,
               title: { display: true, text: column.unit } },
        },
      },
    });
  }
})();
)JS";

const char* const kStyle = R"CSS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
table.info { border-collapse: collapse; }
table.info th { text-align: left; padding: 1px 12px 1px 0; font-weight: 600; vertical-align: top; }
table.info td { padding: 1px 0; }
code, pre { font: 12px/1.35 ui-monospace, monospace; }
pre.scene { background: #f6f6f6; padding: 8px 12px; max-height: 480px; overflow: auto; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 12px; }
.chart { position: relative; height: 220px; border: 1px solid #ddd; padding: 4px; }
.sheet { display: flex; flex-wrap: wrap; gap: 8px; }
.sheet figure { margin: 0; text-align: center; }
.sheet img { display: block; height: 120px; width: auto; image-rendering: pixelated; background: #000; }
.note { color: #555; }
)CSS";

}  // namespace

std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string base64(const std::string& bytes) {
    static const char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16 |
                           unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                           unsigned(static_cast<unsigned char>(bytes[i + 2]));
        out += kAlphabet[v >> 18];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    if (i < bytes.size()) {
        unsigned v = unsigned(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size()) v |= unsigned(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kAlphabet[v >> 18];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string scriptSafe(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
    }
    return out;
}

std::string reportHtml(const ReportPage& page, const std::string& chartJs) {
    std::string h;
    h += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    h += "<meta name=\"generator\" content=\"plume\">\n";
    h += "<title>" + htmlEscape(page.title) + "</title>\n<style>" + kStyle + "</style>\n";
    // Chart.js first, inline: the page is read offline and fetches nothing.
    h += "<script>\n" + scriptSafe(chartJs) + "\n</script>\n</head>\n<body>\n";

    // What ran, where and when.
    h += "<h1>" + htmlEscape(page.title) + "</h1>\n";
    h += "<p class=\"note\">" + htmlEscape(page.outcome) + "</p>\n<table class=\"info\">\n";
    auto row = [&](const std::string& key, const std::string& value, bool code = false) {
        h += "<tr><th>" + htmlEscape(key) + "</th><td>" + (code ? "<code>" : "") +
             htmlEscape(value) + (code ? "</code>" : "") + "</td></tr>\n";
    };
    row("Command", page.command, true);
    row("Started", page.started);
    row("Finished", page.finished);
    for (const auto& [key, value] : page.machine) row(key, value);
    h += "</table>\n";

    // One chart per statistic, over the frames.
    h += "<h2>Statistics per frame</h2>\n<div class=\"charts\">\n";
    const std::vector<StatsColumn>& columns = statsColumns();
    for (size_t c = 1; c < columns.size(); ++c) {
        const char* color = kColors[(c - 1) % (sizeof kColors / sizeof kColors[0])];
        h += std::string("<div class=\"chart\"><canvas id=\"chart-") + columns[c].name +
             "\" data-column=\"" + columns[c].name + "\" data-color=\"" + color +
             "\" role=\"img\" aria-label=\"" + htmlEscape(columns[c].title) +
             " per frame\"></canvas></div>\n";
    }
    h += "</div>\n";
    h += "<script type=\"application/json\" id=\"plume-stats\">" + scriptSafe(statsJson(page)) +
         "</script>\n";
    h += std::string("<script>") + kChartScript + "</script>\n";

    // The contact sheet.
    h += "<h2>Contact sheet</h2>\n<p class=\"note\">" + htmlEscape(page.sheetNote) + "</p>\n";
    h += "<div class=\"sheet\">\n";
    for (const ReportThumbnail& t : page.sheet)
        h += "<figure><img alt=\"frame " + std::to_string(t.frame) + "\" width=\"" +
             std::to_string(t.width) + "\" height=\"" + std::to_string(t.height) +
             "\" src=\"data:image/png;base64," + base64(t.png) + "\"><figcaption>frame " +
             std::to_string(t.frame) + "</figcaption></figure>\n";
    h += "</div>\n";

    // The scene, as plume check prints it (it reads back to the same scene).
    h += "<h2>Scene (as <code>plume check</code> prints it)</h2>\n<pre class=\"scene\">" +
         htmlEscape(page.scene) + "</pre>\n";
    h += "</body>\n</html>\n";
    return h;
}

}  // namespace plume
