#include "sim/sparks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "core/parallel.h"
#include "scene/shapes.h"

namespace plume {

namespace {

// SplitMix64's finaliser: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

// The hash of a birth: its source (0 the flame, e + 1 emitter e), its
// domain cell, frame, substep and number within the cell.
std::uint64_t birthHash(int source, Vec3i cell, int frame, int substep, int n) {
    std::uint64_t h = mix(std::uint64_t(source) + 0x9e3779b97f4a7c15ull);
    for (int x : {cell.x, cell.y, cell.z, frame, substep, n}) h = mix(h ^ std::uint32_t(x));
    return h;
}

// A number in [0, 1) from a hash and a salt.
float unit(std::uint64_t h, int salt) {
    return float(mix(h + std::uint64_t(salt) * 0x9e3779b97f4a7c15ull) >> 40) * 0x1p-24f;
}

// How many births of mean `expected` a cell has: its whole part, and one more
// with the chance of its fraction.
int birthCount(double expected, std::uint64_t h) {
    const double whole = std::floor(expected);
    return int(whole) + (double(unit(h, 7)) < expected - whole ? 1 : 0);
}

struct Vec3d {
    double x, y, z;
};

}  // namespace

SparkMotion SparkMotion::of(const Scene& scene) {
    SparkMotion m;
    m.drag = scene.sparks.drag;
    m.buoyancy = scene.sparks.buoyancy;
    m.cooling = scene.sparks.cooling;
    m.bounce = scene.sparks.bounce;
    m.gravity = scene.physics.gravity;
    m.ambient = scene.physics.ambientTemperature;
    m.kelvinPerUnit = scene.render.fireTemperature;
    const Vec3i n = scene.domain.cells();
    m.domainSize = Vec3f(float(n.x), float(n.y), float(n.z)) * scene.domain.dx();
    m.boundary = scene.domain.boundary;
    return m;
}

void SparkFlow::checkHeld(Vec3f p) const {
    if (domainSlabs_ == 0) return;
    // An interpolation reads the slab either side of the one holding p, and
    // the face above the one above.
    const float z = std::floor(p.z / dx_);
    const bool low = held_.begin == 0 || z - 1.0f >= float(held_.begin);
    const bool high = held_.end == domainSlabs_ || z + 2.0f <= float(held_.end);
    if (!low || !high) ++beyond_;
}

const Fields* SparkFlow::islandAt(Vec3f p, Vec3f& grid) const {
    checkHeld(p);
    for (const Fields* f : islands_) {
        grid = (p - f->origin) / f->dx;
        grid.z = f->gridZ(grid.z);  // a split solve's part of the island
        if (grid.x >= 0 && grid.y >= 0 && grid.z >= 0 && grid.x < float(f->n.x) &&
            grid.y < float(f->n.y) && grid.z < float(f->n.z))
            return f;
    }
    return nullptr;
}

void SparkFlow::sample(Vec3f p, Vec3f& velocity, float& temperature, float ambient) const {
    Vec3f grid;
    const Fields* f = islandAt(p, grid);
    if (!f) {
        velocity = Vec3f(0.0f);
        temperature = ambient;
        return;
    }
    velocity = f->velocityAt(grid);
    temperature = f->temperature.sample(grid);
}

bool SparkFlow::solidAt(Vec3f p) const {
    Vec3f grid;
    const Fields* f = islandAt(p, grid);
    if (!f) return false;
    return f->solid(std::min(int(grid.x), f->n.x - 1), std::min(int(grid.y), f->n.y - 1),
                    std::min(int(grid.z), f->n.z - 1)) != 0;
}

namespace {

// The air's temperature in kelvin where the grid holds `t`.
double airKelvin(const SparkMotion& m, float t) {
    return kSparkAirKelvin + std::max(0.0, double(t) - m.ambient) * m.kelvinPerUnit;
}

// Over t seconds with the flow u and the acceleration a held still, the drag
// D gives v(t) = v0 + (D (u - v0) + a) phi1(t) and x(t) = x0 + v0 t +
// (D (u - v0) + a) phi2(t): phi1 = (1 - e^-Dt) / D, phi2 = (t - phi1) / D
// (t and t^2 / 2 at D = 0; their series where Dt is too small to subtract).
void dragPhis(double drag, double t, double& phi1, double& phi2) {
    const double z = drag * t;
    if (z < 1e-4) {
        phi1 = t * (1.0 - z / 2.0 + z * z / 6.0);
        phi2 = t * t * (0.5 - z / 6.0 + z * z / 24.0);
        return;
    }
    phi1 = -std::expm1(-z) / drag;
    phi2 = (t - phi1) / drag;
}

// One spark over dt; false when it dies.
bool moveSpark(Spark& s, const SparkFlow& flow, const SparkMotion& m, float dt) {
    if (flow.solidAt(s.p)) return false;  // a moving solid swept over it
    const double g[3] = {m.gravity.x, m.gravity.y, m.gravity.z};
    auto accel = [&](double sparkK, double airK, int a) {
        return g[a] - g[a] * double(m.buoyancy) * (sparkK - airK) / 1000.0;
    };
    Vec3f u;
    float airT;
    // Half a step with the flow where the spark is, to the path's midpoint.
    flow.sample(s.p, u, airT, m.ambient);
    double p1h, p2h;
    dragPhis(m.drag, 0.5 * dt, p1h, p2h);
    Vec3f mid;
    for (int a = 0; a < 3; ++a) {
        const double force =
            m.drag * (double(u[a]) - s.v[a]) + accel(s.temperature, airKelvin(m, airT), a);
        mid[a] = float(double(s.p[a]) + double(s.v[a]) * 0.5 * dt + force * p2h);
    }
    // The whole step with the flow and the air at the midpoint.
    flow.sample(mid, u, airT, m.ambient);
    const double air = airKelvin(m, airT);
    double p1, p2;
    dragPhis(m.drag, dt, p1, p2);
    const Vec3f p0 = s.p;
    Vec3f p, v;
    for (int a = 0; a < 3; ++a) {
        const double force = m.drag * (double(u[a]) - s.v[a]) + accel(s.temperature, air, a);
        p[a] = float(double(s.p[a]) + double(s.v[a]) * dt + force * p2);
        v[a] = float(double(s.v[a]) + force * p1);
    }
    s.temperature = float(air + (double(s.temperature) - air) * std::exp(-double(m.cooling) * dt));
    s.age += dt;
    if (s.age >= s.life || s.temperature < kSparkColdKelvin) return false;
    // The domain's sides: a wall bounces it back (with bounce), else it leaves.
    for (int a = 0; a < 3; ++a) {
        const int side = p[a] < 0.0f ? 2 * a : (p[a] >= m.domainSize[a] ? 2 * a + 1 : -1);
        if (side < 0) continue;
        if (m.bounce <= 0.0f || m.boundary[side] != Boundary::Wall) return false;
        p[a] = p0[a];
        v[a] = -m.bounce * v[a];
    }
    // A solid: bounced back along each axis that enters it, from where it was.
    if (flow.solidAt(p)) {
        if (m.bounce <= 0.0f) return false;
        bool hit = false;
        for (int a = 0; a < 3; ++a) {
            Vec3f q = p0;
            q[a] = p[a];
            if (flow.solidAt(q)) v[a] = -m.bounce * v[a], hit = true;
        }
        if (!hit) v = v * -m.bounce;
        p = p0;
    }
    s.p = p;
    s.v = v;
    return true;
}

}  // namespace

void moveSparks(SparkList& sparks, const SparkFlow& flow, const SparkMotion& motion, float dt) {
    std::vector<std::uint8_t> alive(sparks.size());
    parallelForRange(int(sparks.size()), [&](int b, int e) {
        for (int i = b; i < e; ++i)
            alive[size_t(i)] = moveSpark(sparks[size_t(i)], flow, motion, dt);
    });
    size_t kept = 0;
    for (size_t i = 0; i < sparks.size(); ++i)
        if (alive[i]) sparks[kept++] = sparks[i];
    sparks.resize(kept);
}

Sparks::Sparks(const Scene& scene)
    : settings_(scene.sparks), motion_(SparkMotion::of(scene)), dx_(scene.domain.dx()) {}

void Sparks::step(const std::vector<const Fields*>& islands,
                  const std::vector<EmitterSettings>& emitters, int frame, float dt,
                  const SparkSplit* split) {
    if (frame != frame_) frame_ = frame, substep_ = 0;
    const SparkFlow flow(islands, split ? split->held : SlabRange{0, 0},
                         split ? split->domainSlabs : 0, dx_);
    if (split)
        moveSplit(flow, dt, frame, *split);
    else
        moveSparks(sparks_, flow, motion_, dt);
    std::vector<SparkList> born = bear(flow, islands, emitters, frame, substep_, dt, split);
    if (split) {
        // Each source's births, process after process: slab order, as one
        // process bears them.
        std::vector<char> mine;
        for (const SparkList& list : born) {
            const std::uint64_t count = list.size();
            mine.insert(mine.end(), reinterpret_cast<const char*>(&count),
                        reinterpret_cast<const char*>(&count + 1));
            mine.insert(mine.end(), reinterpret_cast<const char*>(list.data()),
                        reinterpret_cast<const char*>(list.data() + list.size()));
        }
        const std::vector<std::vector<char>> all = split->processes->allGatherBytes(mine);
        std::vector<size_t> at(all.size(), 0);
        for (size_t source = 0; source < born.size(); ++source)
            for (size_t p = 0; p < all.size(); ++p) {
                std::uint64_t count = 0;
                std::memcpy(&count, all[p].data() + at[p], sizeof count);
                at[p] += sizeof count;
                if (count == 0) continue;  // (an empty list may have no storage to copy into)
                const size_t first = sparks_.size();
                sparks_.resize(first + count);
                std::memcpy(static_cast<void*>(sparks_.data() + first), all[p].data() + at[p],
                            count * sizeof(Spark));
                at[p] += count * sizeof(Spark);
            }
    } else {
        for (const SparkList& list : born) sparks_.insert(sparks_.end(), list.begin(), list.end());
    }
    ++substep_;
}

void Sparks::moveSplit(const SparkFlow& flow, float dt, int frame, const SparkSplit& split) {
    // This process's: the sparks over the slabs it owns (one below or above
    // the domain goes with the first or last slab).
    const SlabRange mine = split.owned[size_t(split.processes->rank())];
    std::vector<std::uint32_t> index;
    for (size_t i = 0; i < sparks_.size(); ++i) {
        const int slab =
            std::clamp(int(std::floor(sparks_[i].p.z / dx_)), 0, split.domainSlabs - 1);
        if (slab >= mine.begin && slab < mine.end) index.push_back(std::uint32_t(i));
    }
    struct Moved {
        std::uint32_t index;
        std::uint32_t alive;
        Spark spark;
    };
    std::vector<Moved> moved(index.size());
    parallelForRange(int(index.size()), [&](int b, int e) {
        for (int n = b; n < e; ++n) {
            Moved& m = moved[size_t(n)];
            m.index = index[size_t(n)];
            m.spark = sparks_[m.index];
            m.alive = moveSpark(m.spark, flow, motion_, dt) ? 1 : 0;
        }
    });
    const std::vector<std::vector<char>> all = split.processes->allGatherBytes(
        {reinterpret_cast<const char*>(moved.data()), moved.size() * sizeof(Moved)});
    if (split.processes->max(float(flow.beyond())) > 0.0f) {
        char line[200];
        std::snprintf(line, sizeof line,
                      "frame %d: a spark of this split bake moves farther in a substep than its "
                      "halo holds; raise time.max_substeps, or bake it as one process",
                      frame);
        throw InputError(line);
    }
    std::vector<std::uint8_t> alive(sparks_.size(), 0);
    for (const std::vector<char>& theirs : all)
        for (size_t at = 0; at < theirs.size(); at += sizeof(Moved)) {
            Moved m;
            std::memcpy(static_cast<void*>(&m), theirs.data() + at, sizeof m);
            sparks_[m.index] = m.spark;
            alive[m.index] = std::uint8_t(m.alive);
        }
    size_t kept = 0;
    for (size_t i = 0; i < sparks_.size(); ++i)
        if (alive[i]) sparks_[kept++] = sparks_[i];
    sparks_.resize(kept);
}

std::vector<SparkList> Sparks::bear(const SparkFlow& flow,
                                    const std::vector<const Fields*>& islands,
                                    const std::vector<EmitterSettings>& emitters, int frame,
                                    int substep, float dt, const SparkSplit* split) {
    std::vector<SparkList> sources(islands.size() + emitters.size());
    // A split solve bears in the domain slabs this process owns.
    const SlabRange mine = split ? split->owned[size_t(split->processes->rank())]
                                 : SlabRange{std::numeric_limits<int>::min(),
                                             std::numeric_limits<int>::max()};
    const float life = settings_.lifetime, radius = 0.5f * settings_.size;
    auto born = [&](std::uint64_t h, Vec3f p, SparkList& out) {
        Spark s;
        s.p = p;
        float t;
        flow.sample(p, s.v, t, motion_.ambient);
        // Thrown, not placed: a hashed direction at a share of the flow's speed.
        const float z = 2.0f * unit(h, 5) - 1.0f, phi = 6.2831853f * unit(h, 6);
        const float ring = std::sqrt(std::max(0.0f, 1.0f - z * z));
        s.v += Vec3f(ring * std::cos(phi), ring * std::sin(phi), z) * (kSparkThrow * length(s.v));
        s.life = life * (0.5f + unit(h, 4));
        s.temperature = settings_.temperature;
        s.pscale = radius;
        s.id = h;
        out.push_back(s);
    };
    // The flame: each cell hotter than the threshold by its volume and dt.
    const double expected = double(settings_.rate) * dx_ * dx_ * dx_ * dt;
    for (size_t island = 0; island < islands.size(); ++island) {
        const Fields* f = islands[island];
        if (expected <= 0.0 || !f->burns()) break;
        std::vector<SparkList> slabs(size_t(f->n.z));
        parallelForSlabs(f->n.z, [&](int k) {
            if (f->offset.z + k < mine.begin || f->offset.z + k >= mine.end) return;
            for (int j = 0; j < f->n.y; ++j)
                for (int i = 0; i < f->n.x; ++i) {
                    if (f->flame(i, j, k) <= settings_.flameThreshold || f->solid(i, j, k))
                        continue;
                    const Vec3i cell{f->offset.x + i, f->offset.y + j, f->offset.z + k};
                    const int n = birthCount(expected, birthHash(0, cell, frame, substep, -1));
                    for (int m = 0; m < n; ++m) {
                        const std::uint64_t h = birthHash(0, cell, frame, substep, m);
                        born(h, f->point(i, j, k, Vec3f(unit(h, 1), unit(h, 2), unit(h, 3))),
                             slabs[size_t(k)]);
                    }
                }
        });
        for (const SparkList& s : slabs)
            sources[island].insert(sources[island].end(), s.begin(), s.end());
    }
    // Emitters: emitter.sparks a second over the cells inside it (of the
    // slabs this process owns, and counted over every process's).
    std::vector<std::vector<Vec3i>> inside(emitters.size());
    std::vector<std::int64_t> counts(emitters.size(), 0);
    for (size_t e = 0; e < emitters.size(); ++e) {
        const EmitterSettings& em = emitters[e];
        if (em.sparks <= 0.0f || em.shape == Shape::Points || frame < em.frames[0] ||
            frame > em.frames[1])
            continue;
        const PlacedShape shape(em);
        Vec3f lo, hi;
        shape.worldBounds(lo, hi);
        const Vec3f size = motion_.domainSize;
        Vec3i a, b;
        for (int ax = 0; ax < 3; ++ax) {
            const int n = int(std::lround(size[ax] / dx_));
            (&a.x)[ax] = std::clamp(int(std::floor(lo[ax] / dx_)), 0, n);
            (&b.x)[ax] = std::clamp(int(std::ceil(hi[ax] / dx_)), 0, n);
        }
        for (int k = std::max(a.z, mine.begin); k < std::min(b.z, mine.end); ++k)
            for (int j = a.y; j < b.y; ++j)
                for (int i = a.x; i < b.x; ++i) {
                    const Vec3f p = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * dx_;
                    if (shape.signedDistance(p) <= 0.0f && !flow.solidAt(p))
                        inside[e].push_back({i, j, k});
                }
        counts[e] = std::int64_t(inside[e].size());
    }
    if (split && !emitters.empty()) {
        const std::vector<std::vector<char>> all = split->processes->allGatherBytes(
            {reinterpret_cast<const char*>(counts.data()), counts.size() * sizeof(std::int64_t)});
        std::fill(counts.begin(), counts.end(), 0);
        for (const std::vector<char>& theirs : all)
            for (size_t e = 0; e < emitters.size(); ++e) {
                std::int64_t count = 0;
                std::memcpy(&count, theirs.data() + e * sizeof count, sizeof count);
                counts[e] += count;
            }
    }
    for (size_t e = 0; e < emitters.size(); ++e) {
        if (counts[e] == 0) continue;
        const double each = double(emitters[e].sparks) * dt / double(counts[e]);
        SparkList& out = sources[islands.size() + e];
        for (const Vec3i& c : inside[e]) {
            const int n = birthCount(each, birthHash(int(e) + 1, c, frame, substep, -1));
            for (int m = 0; m < n; ++m) {
                const std::uint64_t h = birthHash(int(e) + 1, c, frame, substep, m);
                born(h, Vec3f(c.x + unit(h, 1), c.y + unit(h, 2), c.z + unit(h, 3)) * dx_, out);
            }
        }
    }
    return sources;
}

}  // namespace plume
