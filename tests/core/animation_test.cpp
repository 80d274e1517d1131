// Keyframe curves: hold outside the keys, exact on them, linear and smooth between.
#include "core/animation.h"

#include <gtest/gtest.h>

namespace plume {
namespace {

using Keys = std::vector<Key<float>>;

TEST(Animation, NoKeysGiveTheFallbackAndEndsHold) {
    EXPECT_EQ(evaluateKeys(Keys{}, 3.0, Interpolation::Linear, 7.5f), 7.5f);
    const Keys keys{{2.0, 1.0f}, {6.5, 3.0f}};
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Smooth}) {
        EXPECT_EQ(evaluateKeys(keys, -4.0, mode, 0.0f), 1.0f);
        EXPECT_EQ(evaluateKeys(keys, 2.0, mode, 0.0f), 1.0f);
        EXPECT_EQ(evaluateKeys(keys, 6.5, mode, 0.0f), 3.0f);
        EXPECT_EQ(evaluateKeys(keys, 100.0, mode, 0.0f), 3.0f);
    }
}

TEST(Animation, OnAKeyTheValueIsThatKeysExactly) {
    // Values that no arithmetic would give back exactly.
    const Keys keys{{1.0, 0.1f}, {2.5, 0.7f}, {4.0, -0.3f}, {9.0, 1.0f / 3.0f}};
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Smooth})
        for (const Key<float>& k : keys)
            EXPECT_EQ(evaluateKeys(keys, k.frame, mode, 0.0f), k.value);
}

TEST(Animation, LinearIsAStraightLine) {
    const Keys keys{{1.0, 0.0f}, {5.0, 2.0f}, {7.0, -2.0f}};
    EXPECT_FLOAT_EQ(evaluateKeys(keys, 2.0, Interpolation::Linear, 0.0f), 0.5f);
    EXPECT_FLOAT_EQ(evaluateKeys(keys, 6.5, Interpolation::Linear, 0.0f), -1.0f);
    const std::vector<Key<Vec3f>> v{{1.0, {0, 0, 0}}, {3.0, {2, -4, 1}}};
    const Vec3f mid = evaluateKeys(v, 2.0, Interpolation::Linear, Vec3f(9));
    EXPECT_EQ(mid, Vec3f(1, -2, 0.5f));
}

TEST(Animation, SmoothEasesInAndOutBetweenTwoKeys) {
    // Flat at both ends: the smoothstep 3t^2 - 2t^3.
    const Keys keys{{10.0, 0.0f}, {14.0, 8.0f}};
    EXPECT_FLOAT_EQ(evaluateKeys(keys, 11.0, Interpolation::Smooth, 0.0f), 8.0f * 0.15625f);
    EXPECT_FLOAT_EQ(evaluateKeys(keys, 12.0, Interpolation::Smooth, 0.0f), 4.0f);
    EXPECT_FLOAT_EQ(evaluateKeys(keys, 13.0, Interpolation::Smooth, 0.0f), 8.0f * 0.84375f);
}

TEST(Animation, SmoothNeverOvershootsAndHasNoKinks) {
    const Keys keys{{1.0, 0.0f}, {2.0, 1.0f}, {2.5, 1.2f}, {6.0, 1.2f}, {7.0, -1.0f}, {9.5, 3.0f}};
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
        const float lo = std::min(keys[k].value, keys[k + 1].value);
        const float hi = std::max(keys[k].value, keys[k + 1].value);
        for (int s = 1; s < 50; ++s) {
            const double f = keys[k].frame + (keys[k + 1].frame - keys[k].frame) * s / 50.0;
            const float v = evaluateKeys(keys, f, Interpolation::Smooth, 0.0f);
            EXPECT_GE(v, lo) << "frame " << f;
            EXPECT_LE(v, hi) << "frame " << f;
        }
    }
    // The slope is continuous through an interior key (it is not with linear).
    auto slopeAround = [&](double f, Interpolation mode) {
        const double h = 1e-3;
        const double left =
            (evaluateKeys(keys, f, mode, 0.0f) - evaluateKeys(keys, f - h, mode, 0.0f)) / h;
        const double right =
            (evaluateKeys(keys, f + h, mode, 0.0f) - evaluateKeys(keys, f, mode, 0.0f)) / h;
        return std::pair{left, right};
    };
    const auto [l, r] = slopeAround(2.0, Interpolation::Smooth);
    EXPECT_NEAR(l, r, 0.05 * std::fabs(l) + 1e-2);
    const auto [ll, lr] = slopeAround(2.0, Interpolation::Linear);
    EXPECT_GT(std::fabs(ll - lr), 0.5);
}

}  // namespace
}  // namespace plume
