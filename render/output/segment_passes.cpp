// Renderer's deep image (--deep) and motion pass (render.passes "motion"):
// every pixel's centre ray marched once more through the beauty's grid, at
// the beauty's samples, with the parts it integrates kept
// (render/march/segment_trace.h).
#include <cmath>
#include <optional>

#include "render/march/segment_trace.h"
#include "render/output/compositing.h"
#include "render/output/deep_image.h"
#include "render/renderer.h"

namespace plume {

namespace {

// The screen motion of one frame of a point at `p` (metres) moving `moved`
// metres over the frame, seen by `before` at the shutter's opening and
// `after` at its close: pixels, u to the right, v up.
bool screenMotionOf(const Camera& before, const Camera& after, Vec3f p, Vec3f moved, float& u,
                    float& v) {
    float ax, ay, bx, by;
    if (!before.project(p - moved * 0.5f, ax, ay) || !after.project(p + moved * 0.5f, bx, by))
        return false;
    u = bx - ax;
    v = ay - by;  // image rows grow downward, Nuke's y upward
    return true;
}

float lightWeight(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

}  // namespace

void Renderer::traceSegmentPasses(const FrameRays& rays, const VolumeView& volume, int frame) {
    const size_t pixels = size_t(width_) * height_;
    const bool motion = passesOn_ && settings_.wantsPass("motion");
    if (motion) passes_.motion.assign(pixels * 2, 0.0f);

    // The camera at the shutter's ends (a keyed camera moves over the frame).
    const Camera& camera = rays.camera;
    std::optional<Camera> opening, closing;
    if (motion && keyed_ && camera_.given) {
        opening.emplace(keyed_->atFrame(double(frame) - 0.5).camera, width_, height_);
        closing.emplace(keyed_->atFrame(double(frame) + 0.5).camera, width_, height_);
    }
    const Camera& before = opening ? *opening : camera;
    const Camera& after = closing ? *closing : camera;
    // Metres the smoke moves a frame per m/s: the velocity is per simulated second.
    const float perFrame = float(clock_.scale(double(frame) / fps_) / fps_);
    const bool moving = volume.velocity[0] && volume.velocity[1] && volume.velocity[2];

    // The background, as composite() puts it behind the frame, is the deep
    // image's last sample (none with render.transparent).
    const bool background = !settings_.transparent;
    std::vector<float> over;
    if (deepOn_ && background) over = plume::composite(frame_, settings_);
    std::vector<std::vector<DeepSample>> rowSamples(deepOn_ ? size_t(height_) : 0);
    std::vector<std::vector<uint32_t>> rowCounts(deepOn_ ? size_t(height_) : 0);
    const int smokeSamples = kMaxDeepSamples - (background ? 1 : 0);

    auto perRow = [&](int y, const std::vector<PixelSegments>& row) {
        for (int x = 0; x < width_; ++x) {
            const PixelSegments& px = row[size_t(x)];
            const size_t i = size_t(y) * width_ + x;
            if (deepOn_) {
                std::vector<DeepSample>& samples = rowSamples[size_t(y)];
                const size_t first = samples.size();
                mergeSegments(px.parts, smokeSamples, samples);
                const Vec3f radiance(frame_.rgb[i * 3], frame_.rgb[i * 3 + 1],
                                     frame_.rgb[i * 3 + 2]);
                const float t = frame_.transmittance[i];
                conformToPixel(samples, first, radiance, t, px.entry);
                if (background && t > 0.0f) {
                    DeepSample bg;
                    bg.r = (over[i * 3] - radiance.x) / t;
                    bg.g = (over[i * 3 + 1] - radiance.y) / t;
                    bg.b = (over[i * 3 + 2] - radiance.z) / t;
                    bg.a = 1.0f;
                    bg.z = bg.zBack = kNoDepth;
                    samples.push_back(bg);
                }
                rowCounts[size_t(y)].push_back(uint32_t(samples.size() - first));
            }
            if (motion && !px.parts.empty()) {
                // Each part's motion, weighted by the light it adds to the
                // pixel (by its opacity where the pixel has no light).
                double u = 0, v = 0, lit = 0, ou = 0, ov = 0, opaque = 0;
                for (const RaySegment& part : px.parts) {
                    const float z = 0.5f * (part.z0 + part.z1);
                    const Vec3f p = camera.origin(x, y) + px.direction * z;
                    Vec3f moved(0.0f);
                    if (moving && !part.solid) {
                        const Vec3f g = (p - volume.origin) / volume.dx;
                        moved = Vec3f(volume.velocity[0]->sample(g), volume.velocity[1]->sample(g),
                                      volume.velocity[2]->sample(g)) *
                                perFrame;
                    }
                    float pu, pv;
                    if (!screenMotionOf(before, after, p, moved, pu, pv)) continue;
                    const double w = std::max(0.0f, lightWeight(part.added));
                    const double a = part.before * (1.0f - part.transmittance);
                    u += w * pu, v += w * pv, lit += w;
                    ou += a * pu, ov += a * pv, opaque += a;
                }
                float* out = &passes_.motion[i * 2];
                if (lit > 0.0) {
                    out[0] = float(u / lit), out[1] = float(v / lit);
                } else if (opaque > 0.0) {
                    out[0] = float(ou / opaque), out[1] = float(ov / opaque);
                }
            }
        }
    };

    // The marcher traceImage used: its lookup, emission and the fire's light apart.
    const bool fireApart = cubic_ && !fire_.empty() && !colored_;
    const Vec3f fireLight = fireApart ? fire_.color() * albedo_ : Vec3f(0.0f);
    withMarcher(cubic_, shading_, emptySpace_, settings_, volume.dx, temperatureChannel_,
                flameChannel_, fireLight, [&](const auto& marcher) {
                    traceSegments(rays, marcher, width_, height_, perRow);
                });

    if (!deepOn_) return;
    deep_.width = width_;
    deep_.height = height_;
    deep_.offsets.assign(pixels + 1, 0);
    deep_.samples.clear();
    size_t i = 0;
    for (int y = 0; y < height_; ++y) {
        for (uint32_t n : rowCounts[size_t(y)]) {
            deep_.offsets[i + 1] = deep_.offsets[i] + n;
            ++i;
        }
        deep_.samples.insert(deep_.samples.end(), rowSamples[size_t(y)].begin(),
                             rowSamples[size_t(y)].end());
    }
}

}  // namespace plume
