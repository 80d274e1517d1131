// The blackbody table: Planck's law through the CIE matching functions.
#include "render/light/planck.h"

#include <gtest/gtest.h>

#include <cmath>

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
// gives: a negative channel clipped as Cycles clips it, the colour then
// scaled back to its luminance. 1500 K lies outside the gamut (negative blue
// before the mapping).
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

// Planck's law integrated over every wavelength, W / (m^2 sr), by the
// midpoint rule in log wavelength from 10 nm to 10 mm (the tails beyond
// hold under 1e-6 of it from 500 K up).
double planckIntegral(double kelvin) {
    constexpr double h = 6.62607015e-34, c = 2.99792458e8, k = 1.380649e-23;
    const double lo = std::log(1e-8), hi = std::log(1e-2);
    constexpr int kSteps = 200000;
    const double step = (hi - lo) / kSteps;
    double sum = 0.0;
    for (int s = 0; s < kSteps; ++s) {
        const double l = std::exp(lo + (s + 0.5) * step);
        const double radiance =
            2.0 * h * c * c / std::pow(l, 5.0) / std::expm1(h * c / (l * k * kelvin));
        sum += radiance * l * step;  // d lambda = lambda d(log lambda)
    }
    return sum;
}

// The flame's light grows as the whole of Planck's curve does (Stefan and
// Boltzmann's T^4): its luminance at T over that at 1500 K is the ratio of
// Planck's integrals, and the Cycles scale planck.h documents (sigma T^4 /
// pi * 1e-6 a unit of Blackbody Intensity) is that integral's.
TEST(Planck, FlameRadianceFollowsPlancksIntegral) {
    const double reference = planckIntegral(kReferenceKelvin);
    // The integral is sigma T^4 / pi: the quadrature is right.
    constexpr double sigma = 5.670374419e-8, pi = 3.14159265358979;
    EXPECT_NEAR(reference, sigma * std::pow(1500.0, 4.0) / pi, 1e-6 * reference);
    EXPECT_NEAR(luminance(flameRadiance(kReferenceKelvin)), 1.0f, 1e-3f);
    for (float kelvin : {600.0f, 900.0f, 1200.0f, 2100.0f, 3000.0f, 4500.0f, 6500.0f, 9000.0f}) {
        const double planck = planckIntegral(kelvin) / reference;
        EXPECT_NEAR(luminance(flameRadiance(kelvin)) / planck, 1.0, 2e-3) << kelvin << " K";
    }
    // Cycles' blackbody emission at 1500 K per unit intensity, over which
    // kCyclesBlackbodyPerEmission is one.
    EXPECT_NEAR(kCyclesBlackbodyPerEmission * reference * 1e-6, 1.0, 1e-3);
}

}  // namespace
}  // namespace plume
