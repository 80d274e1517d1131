#include "run/upres_source.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "io/upres_cache.h"
#include "run/frame_sink.h"

namespace plume {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string cells(Vec3i n) {
    return std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z);
}

}  // namespace

void checkUpresInput(const CacheFrame& c, const std::string& path, const Scene& scene,
                     bool withScene) {
    auto fail = [&](const std::string& why) { throw InputError(path + ": error: " + why); };
    if (c.upresFactor > 1)
        fail("already has upres (factor " + std::to_string(c.upresFactor) +
             "); upres reads a base cache");
    if (!c.hasVelocity)
        fail("has no velocity grid '" + scene.output.velocityName +
             "' (output.velocity_name); upres moves the smoke with it");
    if (!withScene) return;
    const Vec3i n = scene.domain.cells();
    const float dx = scene.domain.dx();
    if (!(c.n == n) || std::fabs(c.dx - dx) > 1e-5f * dx)
        fail("the cache is " + cells(c.n) + " cells of " + std::to_string(c.dx) +
             " m, the scene's domain " + cells(n) + " of " + std::to_string(dx) +
             " m; give the --scene (and --set) the cache was baked with");
    if (scene.burns() != c.burns())
        fail(scene.burns() ? "holds no fuel and flame, and the scene burns"
                           : "holds fuel and flame, and the scene does not burn");
}

UpresSource::UpresSource(const CacheSequence& cache, const Scene& scene, bool withScene,
                         CacheFrame first)
    : cache_(cache), scene_(scene), withScene_(withScene), upres_(scene), first_(std::move(first)) {
    // Without the scene the fine smoke's sources are the cache's own, fire
    // and all (Blender's fire cache keeps its flame).
    upres_.feedFromBase(!withScene);
    upres_.carryFire(!withScene && first_.burns());
    upres_.carryColor(!withScene && first_.colored());
}

void UpresSource::produce(Frame& f, const char*& stage) {
    stage = "reading the cache";
    const SequenceFile* file = cache_.file(f.number);
    if (!file)
        throw RunError("'" + cache_.pattern() + "': frame " + std::to_string(f.number) +
                       " is missing");
    auto t = Clock::now();
    if (first_.n.x > 0) {
        assignFromCache(in_, first_, scene_.domain.origin);
        first_ = CacheFrame();
    } else {
        const CacheFrame c = readVdbFrame(file->path, scene_.output.velocityName);
        checkUpresInput(c, file->path, scene_, withScene_);
        assignFromCache(in_, c, scene_.domain.origin);
    }
    path_ = file->path;
    f.readSeconds = secondsSince(t);
    stage = "adding detail (upres)";
    t = Clock::now();
    upres_.advance(in_, f.index);  // the solver's count, from 1
    f.sim.simSeconds = secondsSince(t);
    char did[96];
    std::snprintf(did, sizeof did, "read %.2f s, upres %.2f s", f.readSeconds, f.sim.simSeconds);
    f.did = did;
    if (f.asks(kGrids | kFields)) {
        f.grids.islands = {&upres_.fine()};
        f.grids.fine = &upres_.fine();
        f.grids.base = &in_;
        f.grids.carryFrom = path_;  // the base frame's other grids, as they are
    }
    if (f.asks(kTotals)) f.totals = fieldTotals(std::vector<const Fields*>{&upres_.fine()});
}

}  // namespace plume
