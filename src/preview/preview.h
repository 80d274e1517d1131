// plume preview SCENE.toml: watches the scene and every file it reads, and on
// each save re-renders a small preview, served as a page on 127.0.0.1.
#pragma once

#include <string>
#include <vector>

#include "preview/preview_runs.h"

namespace plume {

struct PreviewOptions {
    PreviewSettings run;
    std::string bind = "127.0.0.1";  // loopback unless --bind says otherwise
    int port = 8642;                 // 0: any free port
    int threads = 0;
};

int runPreview(const PreviewOptions& options);

}  // namespace plume
