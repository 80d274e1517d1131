// Upres's stirring (sim/upres/upres.h): the base velocity plus wavelet
// turbulence in two octaves, its patterns carried with the flow and renewed
// `speed` times a second, blended onto the fine faces.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/interpolation.h"
#include "core/noise.h"
#include "core/parallel.h"
#include "sim/upres/pattern_weights.h"
#include "sim/upres/unresolved_speed.h"
#include "sim/upres/upres.h"
#include "sim/upres/upres_grids.h"
#include "sim/upres/wavelet_noise.h"

namespace plume {

namespace {

// The second octave is half the size, and weaker by Kolmogorov's spectrum:
// energy falls as k^(-5/3), a swirl's speed as 2^(-5/6) per halving.
constexpr int kOctaves = 2;
constexpr float kOctaveSpeed = 0.5612310f;  // 2^(-5/6)
// Noise samples per `scale` metres: the tile's band is two to four samples
// long, so a swirl `scale` across is about two samples.
constexpr float kSamplesPerScale = 2.0f;
// Base cells beyond the fine smoke that the stirring is worked out for: a
// frame's travel at the speeds smoke has (a few cells), and one more.
constexpr int kStirReach = 4;

// The place in the noise tile pattern `p` starts from after its renewal
// `epoch`: hashed, so every renewal shows a new pattern, the same on every run.
Vec3f patternOffset(int p, long epoch) {
    const int e = int(epoch & 0x7fffffff);
    auto unit = [&](int axis) {
        return float(noise_detail::hash3(e, p, axis + 7) >> 8) * (1.0f / 16777216.0f);
    };
    return Vec3f(unit(0), unit(1), unit(2)) * float(WaveletNoise::kTile);
}

}  // namespace

// A pattern renews when its phase passes a whole number: its drift starts
// again from nothing (and its place in the tile moves, stir()).
void Upres::renewPatterns(int frame) {
    if (settings_.speed <= 0.0f) return;
    const double t = clock_.simTime(double(frame - 1) / fps_),
                 before = clock_.simTime(double(frame - 2) / fps_);
    for (int p = 0; p < 2; ++p) {
        if (frame == 1 || std::floor(upresPatternPhase(t * settings_.speed, p)) !=
                              std::floor(upresPatternPhase(before * settings_.speed, p)))
            for (ScalarGrid& c : drift_[p]) c.fill(0.0f);
    }
}

// The base cells within `reach` of a base cell whose fine cells hold smoke,
// fuel or flame: where the stirring can move anything this frame.
Grid3<uint8_t> Upres::nearSmoke(int reach) const {
    const Vec3i n = box_.size();
    const int f = factor_;
    Grid3<uint8_t> near(n.x, n.y, n.z, Vec3f(0.5f), 0);
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                bool any = false;
                for (int c = 0; c < f && !any; ++c)
                    for (int b = 0; b < f && !any; ++b)
                        for (int a = 0; a < f && !any; ++a) {
                            const int I = i * f + a, J = j * f + b, K = k * f + c;
                            any = fine_.density(I, J, K) != 0.0f ||
                                  (fine_.burns() &&
                                   (fine_.fuel(I, J, K) != 0.0f || fine_.flame(I, J, K) != 0.0f));
                        }
                near(i, j, k) = any;
            }
    });
    // Grown by `reach` along each axis in turn (a box around each such cell).
    Grid3<uint8_t> grown = near;
    const int step[3] = {1, n.x, n.x * n.y}, size[3] = {n.x, n.y, n.z};
    for (int axis = 0; axis < 3; ++axis) {
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const int at[3] = {i, j, k};
                    const size_t here = near.index(i, j, k);
                    uint8_t v = 0;
                    for (int d = -reach; d <= reach && !v; ++d) {
                        const int q = at[axis] + d;
                        if (q >= 0 && q < size[axis]) v = near[here + ptrdiff_t(d) * step[axis]];
                    }
                    grown[here] = v;
                }
        });
        near.swap(grown);
    }
    return near;
}

void Upres::stir(const UpresInput& base, int frame, ScalarGrid (&out)[3]) {
    ScalarGrid weight;
    unresolvedSpeed(base.velocity, weight);
    for (int a = 0; a < 3; ++a) out[a] = base.velocity[a];
    // The noise costs most: only where a frame's stirring reaches the smoke.
    const Grid3<uint8_t> near = nearSmoke(kStirReach);

    // Each pattern's weight over its life (sim/upres/pattern_weights.h): sin
    // and cos of the same phase, so the two keep one strength as they cross.
    const double t = clock_.simTime(double(frame - 1) / fps_);
    struct Pattern {
        float amplitude;
        Vec3f offset;
    };
    Pattern patterns[2];
    int count = 1;
    if (settings_.speed <= 0.0f) {
        patterns[0] = {1.0f, patternOffset(0, 0)};
    } else {
        count = 2;
        const double phase = t * settings_.speed;
        const std::array<float, 2> weights = upresPatternWeights(phase);
        for (int p = 0; p < 2; ++p) {
            const double whole = std::floor(upresPatternPhase(phase, p));
            patterns[p] = {weights[size_t(p)], patternOffset(p, long(whole))};
        }
    }
    const float scale = settings_.scale > 0.0f ? settings_.scale : 2.0f * base.dx;
    const float toSamples = kSamplesPerScale / scale;
    const WaveletNoise& noise = WaveletNoise::instance();
    const Vec3i n = box_.size();
    const float strength = settings_.strength;
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float w = weight(i, j, k) * strength;
                if (w == 0.0f || !near(i, j, k)) continue;
                const Vec3f x = base.domainOrigin + Vec3f(float(box_.lo.x + i) + 0.5f,
                                                          float(box_.lo.y + j) + 0.5f,
                                                          float(box_.lo.z + k) + 0.5f) *
                                                        base.dx;
                Vec3f swirl{0.0f, 0.0f, 0.0f};
                for (int p = 0; p < count; ++p) {
                    if (patterns[p].amplitude == 0.0f) continue;
                    const Vec3f from = x - Vec3f(drift_[p][0](i, j, k), drift_[p][1](i, j, k),
                                                 drift_[p][2](i, j, k));
                    float octave = patterns[p].amplitude, size = toSamples;
                    for (int o = 0; o < kOctaves; ++o) {
                        swirl = swirl + noise.curl(from * size + patterns[p].offset) * octave;
                        octave *= kOctaveSpeed;
                        size *= 2.0f;
                    }
                }
                out[0](i, j, k) += w * swirl.x;
                out[1](i, j, k) += w * swirl.y;
                out[2](i, j, k) += w * swirl.z;
            }
    });
}

// The stirring velocity on the fine faces, and the substeps: as many as the
// solver takes for the base flow (its CFL number in base cells, of the base
// velocity's speed). Not the CFL in fine cells of the stirring's speed: the
// turbulence's peaks would make that the cap, and every extra MacCormack
// step blurs the fine smoke a little more, for nothing: the advection is
// stable at any step, and the stirring is a random pattern whose exact path
// through a swirl no one sees (cost and detail: tests/bench/README.md,
// detail.py).
int Upres::fineVelocity(const ScalarGrid (&stirring)[3], int frame) {
    const Vec3i n = fine_.n;
    const float inv = 1.0f / float(factor_);
    if (fineVelocity_.w.nx() != n.x || fineVelocity_.w.ny() != n.y ||
        fineVelocity_.w.nz() != n.z + 1)
        fineVelocity_ = MacVelocity(n);
    float speed = 0.0f;
    for (int a = 0; a < 3; ++a) {
        ScalarGrid& face = fineVelocity_.component(a);
        const Vec3f at = face.offset();
        const ScalarGrid& from = stirring[a];
        // from.sample() at each face, its stencil split by axis once (the
        // same clamps, weights and blend, so the same bits) rather than
        // worked out again at every face.
        const SampleLayout layout = from.layout();
        const int count[3] = {face.nx(), face.ny(), face.nz()}, size[3] = {layout.nx, layout.ny,
                                                                              layout.nz};
        const ptrdiff_t stride[3] = {layout.sx, layout.sy, layout.sz};
        std::vector<Stencil> axis[3];
        for (int d = 0; d < 3; ++d) {
            axis[d].resize(size_t(count[d]));
            for (int q = 0; q < count[d]; ++q) {
                Stencil& st = axis[d][size_t(q)];
                stencilAxis((float(q) + at[d]) * inv - layout.offset[d], size[d], stride[d], st.fx,
                            st.dx, st.at);
            }
        }
        parallelForSlabs(face.nz(), [&](int k) {
            const Stencil& z = axis[2][size_t(k)];
            for (int j = 0; j < face.ny(); ++j) {
                const Stencil& y = axis[1][size_t(j)];
                float* out = &face(0, j, k);
                for (int i = 0; i < face.nx(); ++i) {
                    const Stencil& x = axis[0][size_t(i)];
                    Stencil st;
                    st.at = x.at + y.at + z.at;
                    st.dx = x.dx, st.dy = y.dx, st.dz = z.dx;
                    st.fx = x.fx, st.fy = y.fx, st.fz = z.fx;
                    out[i] = blend(from.data(), st);
                }
            }
        });
        speed = std::max(speed, upres::maxAbs(base_.velocity[a]));
    }
    const float frameDt = float(1.0 / clock_.simFps(frame));
    return std::clamp(int(std::ceil(speed * frameDt / (cfl_ * base_.dx))), 1, maxSubsteps_);
}

// Each pattern's drift moves with the base flow for the frame (a
// semi-Lagrangian step): drift(x) <- drift(x - u dt) + u dt.
void Upres::carryPatterns(const UpresInput& base, int frame) {
    const Vec3i n = box_.size();
    const float dt = float(1.0 / clock_.simFps(frame)), toCells = dt / base.dx;
    const int count = settings_.speed > 0.0f ? 2 : 1;
    for (int p = 0; p < count; ++p) {
        ScalarGrid(&moved)[3] = stirring_;  // free again once the fine grids moved
        for (ScalarGrid& c : moved) c.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Vec3f u{base.velocity[0](i, j, k), base.velocity[1](i, j, k),
                                  base.velocity[2](i, j, k)};
                    const Vec3f from =
                        Vec3f(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f) - u * toCells;
                    for (int a = 0; a < 3; ++a)
                        moved[a](i, j, k) = drift_[p][a].sample(from) + (a == 0   ? u.x
                                                                         : a == 1 ? u.y
                                                                                  : u.z) *
                                                                            dt;
                }
        });
        for (int a = 0; a < 3; ++a) drift_[p][a].swap(moved[a]);
    }
}

}  // namespace plume
