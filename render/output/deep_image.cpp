#include "render/output/deep_image.h"

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

// Below this transmittance in front of a run, its colour (light / that
// transmittance) is left out: nothing of it shows.
constexpr float kHiddenBehind = 1e-12f;

// The run of parts [begin, end) as one sample.
DeepSample runSample(const std::vector<RaySegment>& parts, size_t begin, size_t end) {
    DeepSample s;
    const float front = parts[begin].before;
    const float back = parts[end - 1].before * parts[end - 1].transmittance;
    Vec3f light(0.0f);
    for (size_t i = begin; i < end; ++i) light += parts[i].added;
    s.a = front > 0.0f ? std::clamp(1.0f - back / front, 0.0f, 1.0f) : 1.0f;
    if (front > kHiddenBehind) {
        s.r = light.x / front;
        s.g = light.y / front;
        s.b = light.z / front;
    }
    s.z = parts[begin].z0;
    s.zBack = parts[end - 1].z1;
    return s;
}

}  // namespace

void mergeSegments(const std::vector<RaySegment>& parts, int maxSamples,
                   std::vector<DeepSample>& out) {
    if (parts.empty()) return;
    size_t solids = 0;
    for (const RaySegment& p : parts) solids += p.solid ? 1 : 0;
    const int smokeSamples = std::max(1, maxSamples - int(solids));
    // The smoke's opacity in front of each solid and in all.
    const float opacity = 1.0f - parts.back().before * parts.back().transmittance;
    const float share = std::max(opacity, 1e-6f) / float(smokeSamples);
    size_t begin = 0;
    int run = -1;  // the share the open run started in
    // A part's front and the one before's back are computed apart and can
    // differ by a rounding: samples never overlap, as a deep reader expects.
    float lastBack = -INFINITY;
    auto close = [&](size_t end) {
        if (end > begin) {
            DeepSample s = runSample(parts, begin, end);
            s.z = std::max(s.z, lastBack);
            s.zBack = std::max(s.zBack, s.z);
            if (s.a > 0.0f || s.r != 0.0f || s.g != 0.0f || s.b != 0.0f) {
                out.push_back(s);
                lastBack = s.zBack;
            }
        }
        begin = end;
    };
    for (size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].solid) {
            close(i);
            close(i + 1);
            run = -1;
            continue;
        }
        // Which share of the opacity the part starts in: a new share, a new run.
        const int at = std::min(smokeSamples - 1, int((1.0f - parts[i].before) / share));
        if (run >= 0 && at != run) close(i);
        run = at;
    }
    close(parts.size());
}

void flattenSamples(const DeepSample* samples, size_t n, float rgba[4]) {
    float t = 1.0f, r = 0, g = 0, b = 0;
    for (size_t i = 0; i < n; ++i) {
        r += t * samples[i].r;
        g += t * samples[i].g;
        b += t * samples[i].b;
        t *= 1.0f - samples[i].a;
    }
    rgba[0] = r;
    rgba[1] = g;
    rgba[2] = b;
    rgba[3] = 1.0f - t;
}

void conformToPixel(std::vector<DeepSample>& samples, size_t first, Vec3f radiance,
                    float transmittance, float entry) {
    DeepSample* s = samples.data() + first;
    size_t n = samples.size() - first;
    float flat[4];
    flattenSamples(s, n, flat);
    const float target = std::clamp(transmittance, 0.0f, 1.0f);
    const float have = 1.0f - flat[3];
    // Smoke: every sample's transmittance to the same power, its light in
    // proportion to its alpha, so the first m samples let `target` through.
    auto bend = [&](size_t m, float through, float target) {
        const float power = std::log(target) / std::log(through);
        for (size_t i = 0; i < m; ++i) {
            const float a = 1.0f - std::pow(1.0f - s[i].a, power);
            const float scale = s[i].a > 0.0f ? a / s[i].a : 0.0f;
            s[i].r *= scale, s[i].g *= scale, s[i].b *= scale;
            s[i].a = a;
        }
    };
    if (std::fabs(have - target) > 1e-6f) {
        if (n > 0 && s[n - 1].z == s[n - 1].zBack) {
            // A hard surface last: its alpha takes up the difference.
            float front = 1.0f;  // the transmittance in front of it
            for (size_t i = 0; i + 1 < n; ++i) front *= 1.0f - s[i].a;
            if (front > 0.0f) {
                const float a = std::clamp(1.0f - target / front, 0.0f, 1.0f);
                const float scale = s[n - 1].a > 0.0f ? a / s[n - 1].a : 0.0f;
                s[n - 1].r *= scale, s[n - 1].g *= scale, s[n - 1].b *= scale;
                s[n - 1].a = a;
                // The smoke in front already hides more than the pixel does (a
                // surface's edge the pixel only partly covers): it gives way too.
                if (front < target && front < 1.0f && target < 1.0f) bend(n - 1, front, target);
            }
        } else if (have > 0.0f && have < 1.0f && target > 0.0f) {
            bend(n, have, target);
        } else if (n == 0 || have >= 1.0f || target <= 0.0f) {
            // No smoke to bend (or none left to see through): one sample of
            // the missing opacity at the smoke's entry, behind the others.
            const float a = have > 0.0f ? std::clamp(1.0f - target / have, 0.0f, 1.0f) : 0.0f;
            if (a > 0.0f && have > 0.0f) {
                DeepSample add;
                add.a = a;
                add.z = add.zBack = n > 0 ? s[n - 1].zBack : entry;
                samples.push_back(add);
                s = samples.data() + first;
                ++n;
            }
        }
        flattenSamples(s, n, flat);
    }
    // The colour, channel by channel: scaled, or where the samples hold none
    // of it, added to the front.
    const float want[3] = {radiance.x, radiance.y, radiance.z};
    bool added = false;
    float extra[3] = {0, 0, 0};
    for (int c = 0; c < 3; ++c) {
        if (std::fabs(flat[c] - want[c]) <= 1e-7f * std::fabs(want[c])) continue;
        if (std::fabs(flat[c]) > 1e-12f) {
            const float scale = want[c] / flat[c];
            for (size_t i = 0; i < n; ++i) (&s[i].r)[c] *= scale;
        } else {
            extra[c] = want[c];
            added = true;
        }
    }
    if (!added) return;
    if (n == 0) {
        DeepSample add;
        add.z = add.zBack = entry;
        samples.push_back(add);
        s = samples.data() + first;
        n = 1;
    }
    // The front sample's light is seen through nothing.
    for (int c = 0; c < 3; ++c) (&s[0].r)[c] += extra[c];
}

}  // namespace plume
