// The blackbody table: Planck's law through the CIE matching functions.
#include "render/light/planck.h"

#include <gtest/gtest.h>

namespace plume {
namespace {

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

TEST(Planck, KnownColours) {
    // 1000 K: a deep red (Charity's table: sRGB (255, 56, 0), a linear
    // green of about 0.04), no blue.
    const Vec3f ember = blackbodyColor(1000.0f);
    EXPECT_EQ(ember.x, 1.0f);
    EXPECT_LT(ember.y, 0.08f);
    EXPECT_LT(ember.z, 0.01f);
    // 6500 K: near white (D65 is the sRGB white; a blackbody is close to it).
    const Vec3f white = blackbodyColor(6500.0f);
    EXPECT_GT(white.x, 0.9f);
    EXPECT_GT(white.y, 0.9f);
    EXPECT_GT(white.z, 0.85f);
    // 1800 K (a candle): orange; Charity's table gives sRGB (255, 126, 0),
    // a linear green of about 0.2.
    const Vec3f candle = blackbodyColor(1800.0f);
    EXPECT_GT(candle.y, 0.15f);
    EXPECT_LT(candle.y, 0.3f);
    EXPECT_LT(candle.z, 0.02f);
}

TEST(Planck, HueAndBrightnessRiseWithTemperature) {
    float lastBlueToRed = -1.0f, lastLuminance = 0.0f;
    for (float k = 800.0f; k <= 10000.0f; k += 100.0f) {
        const Vec3f c = blackbody(k);
        const float blueToRed = c.z / c.x;
        EXPECT_GE(blueToRed, lastBlueToRed) << k;
        EXPECT_GT(luminance(c), lastLuminance) << k;
        lastBlueToRed = blueToRed;
        lastLuminance = luminance(c);
    }
    EXPECT_NEAR(luminance(blackbody(kReferenceKelvin)), 1.0f, 0.01f);
    // Stefan-Boltzmann-like growth: doubling the temperature from the
    // reference gives far more light (more than 2^4 in the visible band).
    EXPECT_GT(luminance(blackbody(2.0f * kReferenceKelvin)), 16.0f);
    EXPECT_EQ(blackbody(0.0f), Vec3f(0.0f));
}

// Every blackbody colour is inside Rec. 709's gamut (no negative channel,
// which would break a compositor's grades), with the luminance Planck's law
// gives: the chromaticity moved toward white, not a channel clipped. 1500 K
// lies outside the gamut (negative blue before the mapping).
TEST(Planck, ColoursAreInGamutWithTheirLuminanceKept) {
    for (float k = 100.0f; k <= kMaxKelvin; k += 50.0f) {
        const Vec3f flame = flameRadiance(k), glow = blackbody(k);
        for (const Vec3f& c : {flame, glow}) {
            EXPECT_GE(c.x, 0.0f) << k;
            EXPECT_GE(c.y, 0.0f) << k;
            EXPECT_GE(c.z, 0.0f) << k;
        }
        // The flame's light: luminance (T / 1500 K)^4 exactly as before the mapping.
        const float r = k / kReferenceKelvin;
        EXPECT_NEAR(luminance(flame) / (r * r * r * r), 1.0f, 2e-3f) << k;
    }
    // Clipped as Cycles' blackbody clips (1500 K's blue, -0.017, to 0), then
    // scaled back to its luminance: red and green keep Planck's ratio
    // (3.175 : 0.461), each a little under Planck's value.
    const Vec3f c = flameRadiance(1500.0f);
    EXPECT_EQ(c.z, 0.0f);
    EXPECT_NEAR(c.x / c.y, 3.175f / 0.461f, 0.02f);
    EXPECT_LT(c.x, 3.175f);
    EXPECT_GT(c.x, 3.1f);
    EXPECT_NEAR(luminance(c), 1.0f, 2e-3f);
}

}  // namespace
}  // namespace plume
