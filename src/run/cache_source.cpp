#include "run/cache_source.h"

#include <filesystem>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/error.h"
#include "io/vdb_sparks.h"
#include "render/views/slice_view.h"
#include "run/frame_sink.h"

namespace plume {

namespace {

using Clock = std::chrono::steady_clock;

std::string viewError(RenderView view, const std::string& path, const std::string& grid,
                      const std::vector<std::string>& names) {
    std::string held;
    for (const std::string& n : names) held += (held.empty() ? "" : ", ") + n;
    std::string message = path + ": error: render.view = \"" + viewName(view) + "\": no " + grid +
                          " grid (the file holds " + held + ")";
    if (grid == "pressure" || grid == "divergence")
        message += "; plume render shows the solver's " + grid;
    return message;
}

}  // namespace

std::string viewGridName(RenderView view) {
    if (view == RenderView::Pressure) return "pressure";
    if (view == RenderView::Divergence) return "divergence";
    if (view == RenderView::Speed || view == RenderView::Vorticity) return "velocity";
    return {};
}

void checkViewGrid(const CacheSequence& cache, const Scene& scene) {
    const RenderView view = scene.render.view;
    if (view == RenderView::Shaded) return;
    const std::string grid = viewGridName(view);
    const std::string& path = cache.files().front().path;
    const std::vector<std::string>& names = cache.info().grids;
    if (grid == "velocity" || scene.render.viewVelocity) {
        const std::vector<std::string> velocity = cache.velocityNames(scene);
        if (std::none_of(velocity.begin(), velocity.end(),
                         [&](const std::string& n) { return cache.has(n); }))
            throw InputError(viewError(view, path, "velocity", names));
    }
    if ((grid == "pressure" || grid == "divergence") && !cache.has(grid))
        throw InputError(viewError(view, path, grid, names));
    if (view == RenderView::Flame && !cache.has("flame"))
        throw InputError(viewError(view, path, "flame", names));
    if (view == RenderView::Temperature &&
        std::none_of(names.begin(), names.end(), [](const std::string& n) {
            return n == "temperature" || n == "heat" || n == "temp" || n == "flames" ||
                   n == "flame";
        }))
        throw InputError(viewError(view, path, "temperature", names));
}

CacheSource::CacheSource(const CacheSequence& cache, const Scene& scene, std::string grid,
                         int firstIndex)
    : cache_(cache), scene_(scene), grid_(std::move(grid)), firstIndex_(firstIndex) {}

bool CacheSource::needs(const Frame& frame) const { return frame.written; }

void CacheSource::produce(Frame& f, const char*& stage) {
    stage = "reading the cache";
    const RenderView view = scene_.render.view;
    const SequenceFile* file = cache_.file(f.number);
    if (!file)  // refused before the run; a file deleted while it runs
        throw RunError("'" + cache_.pattern() + "': frame " + std::to_string(f.number) +
                       " is missing");
    const auto start = Clock::now();
    // Motion blur smears the smoke along the cache's velocity, when it has
    // one; speed, vorticity and streamlines show it; a flipbook's motion sheet is it.
    const bool viewsVelocity = viewGridName(view) == "velocity" ||
                               (view != RenderView::Shaded && scene_.render.viewVelocity);
    std::vector<std::string> velocityNames;
    if (scene_.render.motionBlur > 0.0f || viewsVelocity || scene_.render.wantsPass("motion") ||
        f.asks(kMotion))
        velocityNames = cache_.velocityNames(scene_);
    // Temperature and flame only colour a render that glows or a view of them.
    const bool withGlow = (cache_.has("flame") && scene_.render.emission > 0.0f) ||
                          scene_.render.heatGlow > 0.0f || view == RenderView::Temperature ||
                          view == RenderView::Flame;
    // A cache's pressure or divergence (Mantaflow's caches hold a pressure
    // grid) is read as the volume's own grid.
    const bool ownGrid = view == RenderView::Pressure || view == RenderView::Divergence;
    volume_ = readVdbVolume(file->path, ownGrid ? viewGridName(view) : grid_, velocityNames,
                            withGlow, scene_.domain.origin);
    std::error_code ec;
    sparks_ = view == RenderView::Shaded && (cache_.has(kSparksGrid) ||
                                             std::filesystem::exists(sparkVdbPath(file->path), ec))
                  ? readVdbSparks(file->path, scene_.domain.origin)
                  : SparkList{};
    if ((view == RenderView::Temperature && !volume_.hasTemperature) ||
        (view == RenderView::Flame && !volume_.hasFlame))
        throw InputError(viewError(view, file->path, viewName(view), volume_.gridNames));
    f.readSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    char did[64];
    std::snprintf(did, sizeof did, "read %.2f s", f.readSeconds);
    f.did = did;
}

VolumeView CacheSource::view() {
    VolumeView v = volume_.view();
    if (scene_.render.view == RenderView::Pressure) v.pressure = v.density;
    if (scene_.render.view == RenderView::Divergence) v.divergence = v.density;
    if (!sparks_.empty()) v.sparks = &sparks_;
    return v;
}

}  // namespace plume
