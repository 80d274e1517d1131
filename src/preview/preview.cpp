#include "preview/preview.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "preview/file_watch.h"
#include "preview/http_server.h"
#include "preview/preview_page.h"
#include "run/interrupt.h"
#include "run/report_sink.h"

namespace plume {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Chart.js for the page's chart, when Debian's libjs-chart.js is installed
// (the page plays its frames without it).
std::string chartJsOrNothing() {
    try {
        return readFile(findChartJs());
    } catch (const InputError&) {
        return "";
    }
}

void routes(HttpServer& server, PreviewRuns& runs, const std::string& chartJs) {
    server.get("/", [](const std::string&) {
        return HttpReply{200, "text/html; charset=utf-8", previewPage()};
    });
    server.get("/state", [&runs](const std::string&) {
        return HttpReply{200, "application/json", runs.stateJson()};
    });
    server.get(R"(/frame/(\d{1,9}/\d{1,9})\.png)", [&runs](const std::string& which) {
        const size_t slash = which.find('/');
        std::string png;
        if (!runs.framePng(std::stoi(which.substr(0, slash)), std::stoi(which.substr(slash + 1)),
                           png))
            return HttpReply{404, "text/plain; charset=utf-8", "no such frame\n"};
        return HttpReply{200, "image/png", std::move(png)};
    });
    server.get("/chart.js", [chartJs](const std::string&) {
        if (chartJs.empty())
            return HttpReply{404, "text/plain; charset=utf-8",
                             "no Chart.js (apt-get install libjs-chart.js)\n"};
        return HttpReply{200, "text/javascript; charset=utf-8", chartJs};
    });
}

}  // namespace

int runPreview(const PreviewOptions& opt) {
    if (opt.run.scenePath.empty())
        throw InputError("plume preview: error: a scene file is required");
    if (!std::ifstream(opt.run.scenePath))
        throw InputError(opt.run.scenePath + ": error: cannot read the scene file");
    setThreadCount(opt.threads);

    PreviewRuns runs(opt.run);
    HttpServer server;
    routes(server, runs, chartJsOrNothing());
    const int port = server.bind(opt.bind, opt.port);
    const std::string host = opt.bind.find(':') != std::string::npos ? "[" + opt.bind + "]" : opt.bind;
    printOutput("plume preview: http://" + host + ":" + std::to_string(port) + "/ (" +
                opt.run.scenePath + ", at most " + std::to_string(opt.run.resolution) +
                " cells; Ctrl-C stops)\n");
    std::thread serving([&] { server.serve(); });

    // The first preview now, then one a save; a scene that reads other files
    // is watched through them too, as the last run loaded it.
    FileWatch watch;
    watch.watch(runs.watchedFiles());
    runs.request(std::chrono::system_clock::now());
    while (!interruptSignal()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (const std::string news = runs.takeNews(); !news.empty()) {
            printOutput(news + "\n");
        }
        const std::vector<std::string> files = runs.watchedFiles();
        if (files != watch.paths()) watch.watch(files);
        if (watch.changed()) runs.request(watch.newest());
    }
    server.stop();
    serving.join();
    printOutput("plume preview: stopped\n");
    return 0;
}

}  // namespace plume
