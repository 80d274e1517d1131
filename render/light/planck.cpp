#include "render/light/planck.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

namespace plume {

namespace {

// The CIE 1931 2-degree colour matching functions, as the multi-lobe
// Gaussian fit of Wyman, Sloan and Shirley (2013, "Simple Analytic
// Approximations to the CIE XYZ Color Matching Functions"), within a few
// percent of the tabulated curves; lambda in nanometres.
double lobe(double lambda, double mu, double s1, double s2) {
    const double t = (lambda - mu) / (lambda < mu ? s1 : s2);
    return std::exp(-0.5 * t * t);
}
double xBar(double l) {
    return 1.056 * lobe(l, 599.8, 37.9, 31.0) + 0.362 * lobe(l, 442.0, 16.0, 26.7) -
           0.065 * lobe(l, 501.1, 20.4, 26.2);
}
double yBar(double l) {
    return 0.821 * lobe(l, 568.8, 46.9, 40.5) + 0.286 * lobe(l, 530.9, 16.3, 31.1);
}
double zBar(double l) {
    return 1.217 * lobe(l, 437.0, 11.8, 36.0) + 0.681 * lobe(l, 459.0, 26.0, 13.8);
}

// Spectral radiance of a blackbody (Planck), W / (m^2 sr m), at lambda in nm.
double planck(double lambdaNm, double kelvin) {
    constexpr double h = 6.62607015e-34, c = 2.99792458e8, k = 1.380649e-23;
    const double l = lambdaNm * 1e-9;
    return 2.0 * h * c * c / (l * l * l * l * l) / std::expm1(h * c / (l * k * kelvin));
}

// XYZ of a blackbody: Planck times the matching functions, 380..780 nm.
Vec3f xyzOf(double kelvin) {
    double x = 0, y = 0, z = 0;
    for (double l = 380.0; l <= 780.0; l += 1.0) {
        const double p = planck(l, kelvin);
        x += p * xBar(l);
        y += p * yBar(l);
        z += p * zBar(l);
    }
    return Vec3f(float(x), float(y), float(z));
}

// XYZ to linear sRGB (IEC 61966-2-1).
Vec3f toSrgb(Vec3f c) {
    return {3.2404542f * c.x - 1.5371385f * c.y - 0.4985314f * c.z,
            -0.9692660f * c.x + 1.8760108f * c.y + 0.0415560f * c.z,
            0.0556434f * c.x - 0.2040259f * c.y + 1.0572252f * c.z};
}

constexpr float kStepKelvin = 25.0f;
constexpr int kEntries = int(kMaxKelvin / kStepKelvin) + 1;

// Linear sRGB's luminance (the Y row of its matrix to XYZ).
float luminance(Vec3f c) { return 0.2126729f * c.x + 0.7151522f * c.y + 0.0721750f * c.z; }

// A working space's RGB, its way back to Rec. 709 and its luminance.
struct Space {
    bool rec709 = true;
    Matrix3 from{}, to{};
    Vec3f in(Vec3f rec709) const { return this->rec709 ? rec709 : matrixTimes(from, rec709); }
    float y(Vec3f c) const { return luminance(rec709 ? c : matrixTimes(to, c)); }
};

// A colour outside Rec. 709's gamut (a blackbody below about 1900 K has
// negative blue, below about 850 K negative green too): each negative channel
// clipped to 0, as Cycles' blackbody does (so the flame's hue is Cycles'),
// then scaled back to its own luminance (a clipped channel alone would
// brighten it). A negative channel would break a compositor's grades and keys.
Vec3f intoGamut(Vec3f c, const Space& space) {
    const float y = space.y(c);
    const Vec3f clipped = vmax(c, Vec3f(0.0f));
    const float yc = space.y(clipped);
    if (c.x >= 0.0f && c.y >= 0.0f && c.z >= 0.0f) return c;
    return y > 0.0f && yc > 0.0f ? clipped * (y / yc) : Vec3f(0.0f);
}

// Radiance in linear sRGB per kStepKelvin, relative to the reference's
// luminance; and the colour at luminance 1. Both are brought into Rec. 709's
// gamut here, once, so every light made from them (the beauty, the emission
// and fire_light passes, solids lit by the fire) is in gamut, and the same.
struct Table {
    std::array<Vec3f, kEntries> rgb;
    std::array<Vec3f, kEntries> colour;
    explicit Table(const Space& space) {
        const float reference = xyzOf(kReferenceKelvin).y;
        rgb[0] = colour[0] = Vec3f(0.0f);
        for (int i = 1; i < kEntries; ++i) {
            const Vec3f xyz = xyzOf(double(i) * kStepKelvin);
            // XYZ to the working space, unclipped; then into its own gamut.
            const Vec3f c = intoGamut(space.in(toSrgb(xyz)), space);
            rgb[size_t(i)] = c / reference;
            colour[size_t(i)] = xyz.y > 0.0f ? c / xyz.y : Vec3f(0.0f);
        }
    }
};

// Linear Rec. 709's table, and the one the renderer last chose.
const Table& rec709Table() {
    static const Table t{Space{}};
    return t;
}
std::atomic<const Table*> current{nullptr};

const Table& table() {
    const Table* t = current.load(std::memory_order_acquire);
    return t ? *t : rec709Table();
}

}  // namespace

void useBlackbodySpace(const WorkingSpace& working) {
    static std::mutex mutex;
    static std::map<Matrix3, std::unique_ptr<const Table>> tables;  // kept: a trace may hold one
    const std::lock_guard lock(mutex);
    if (working.rec709) {
        current.store(&rec709Table(), std::memory_order_release);
        return;
    }
    auto& t = tables[working.fromRec709];
    if (!t) t = std::make_unique<const Table>(Space{false, working.fromRec709, working.toRec709});
    current.store(t.get(), std::memory_order_release);
}

Vec3f blackbody(float kelvin) {
    if (!(kelvin > 0.0f)) return Vec3f(0.0f);
    const float f = std::min(kelvin, kMaxKelvin) / kStepKelvin;
    const int i = std::min(int(f), kEntries - 2);
    const float t = f - float(i);
    const Table& tab = table();
    return tab.rgb[size_t(i)] * (1.0f - t) + tab.rgb[size_t(i) + 1] * t;
}

Vec3f flameRadiance(float kelvin) {
    if (!(kelvin > 0.0f)) return Vec3f(0.0f);
    // Below 800 K the colour is 800 K's, as Cycles' (and OSL's) blackbody
    // colour is: the light is dim there, and the visible part of Planck's
    // curve so small that its colour, divided by its luminance, would not
    // fit a float.
    const float f = std::min(std::max(kelvin, 800.0f), kMaxKelvin) / kStepKelvin;
    const int i = std::min(int(f), kEntries - 2);
    const float t = f - float(i);
    const Table& tab = table();
    const Vec3f c = tab.colour[size_t(i)] * (1.0f - t) + tab.colour[size_t(i) + 1] * t;
    const float r = std::min(kelvin, kMaxKelvin) / kReferenceKelvin;
    return c * (r * r * r * r);
}

Vec3f blackbodyColor(float kelvin) {
    const Vec3f c = blackbody(kelvin);
    const float m = std::max({c.x, c.y, c.z});
    return m > 0.0f ? c / m : c;
}

}  // namespace plume
