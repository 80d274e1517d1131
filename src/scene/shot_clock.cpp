#include "scene/shot_clock.h"

#include <algorithm>
#include <cmath>

namespace plume {

ShotClock::ShotClock(const Scene& scene)
    : fps_(scene.time.fps), constant_(scene.physics.timeScale) {
    for (const KeyTrack& track : scene.physicsAnimation.tracks)
        if (track.key == "time_scale") keys_ = track.real;
    interpolation_ = scene.physicsAnimation.interpolation;
    identity_ = keys_.empty() ? constant_ == 1.0f
                              : std::all_of(keys_.begin(), keys_.end(),
                                            [](const Key<float>& k) { return k.value == 1.0f; });
}

double ShotClock::scale(double shotSeconds) const {
    if (keys_.empty()) return constant_;
    return evaluateKeys(keys_, shotSeconds * fps_, interpolation_, constant_);
}

double ShotClock::maxScale(double a, double b) const {
    double m = std::max(scale(a), scale(b));
    // Between keys the curve never overshoots them (core/animation.h).
    for (const Key<float>& k : keys_)
        if (k.frame > a * fps_ && k.frame < b * fps_) m = std::max(m, double(k.value));
    return m;
}

float ShotClock::simDt(double a, float shotDt) const {
    if (identity_) return shotDt;
    return float(scale(a + 0.5 * double(shotDt)) * double(shotDt));
}

double ShotClock::integrate(double a, double b) const {
    if (keys_.empty()) return double(constant_) * (b - a);
    const int pieces = std::max(1, int(std::ceil((b - a) * fps_ * 8.0 - 1e-9)));
    const double h = (b - a) / pieces;
    double sum = 0.0;
    for (int p = 0; p < pieces; ++p) sum += scale(a + (p + 0.5) * h) * h;
    return sum;
}

double ShotClock::simTime(double shotSeconds) const {
    if (identity_) return shotSeconds;
    if (keys_.empty()) return shotSeconds * double(constant_);
    const int frame = int(std::floor(shotSeconds * fps_)) + 1;
    return simStart(frame) + integrate(frameStart(frame), shotSeconds);
}

double ShotClock::simStart(int frame) const {
    if (identity_ || keys_.empty()) return simTime(frameStart(frame));
    if (frame <= 1) return -integrate(frameStart(frame), 0.0);
    if (starts_.empty()) starts_.push_back(0.0);
    // Frame by frame from the first, so a frame's start is the same sum
    // whichever frame was asked for first.
    while (int(starts_.size()) < frame)
        starts_.push_back(starts_.back() + integrate(frameStart(int(starts_.size())),
                                                     frameStart(int(starts_.size()) + 1)));
    return starts_[size_t(frame - 1)];
}

double ShotClock::simFps(int frame) const {
    if (identity_) return fps_;
    if (keys_.empty()) return fps_ / double(constant_);
    return 1.0 / (simStart(frame + 1) - simStart(frame));
}

}  // namespace plume
