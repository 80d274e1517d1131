#include "render/output/tone_map.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/parallel.h"
#include "render/march/hash.h"

namespace plume {

namespace {

constexpr uint32_t kDitherSeed = 0x5bd1e995u;

// sRGB to the ACES fit's working space (folds in the RRT saturation), and back.
Vec3f acesInput(Vec3f c) {
    return {0.59719f * c.x + 0.35458f * c.y + 0.04823f * c.z,
            0.07600f * c.x + 0.90834f * c.y + 0.01566f * c.z,
            0.02840f * c.x + 0.13383f * c.y + 0.83777f * c.z};
}
Vec3f acesOutput(Vec3f c) {
    return {1.60475f * c.x - 0.53108f * c.y - 0.07367f * c.z,
            -0.10208f * c.x + 1.10813f * c.y - 0.00605f * c.z,
            -0.00327f * c.x - 0.07276f * c.y + 1.07602f * c.z};
}
float rrtOdtFit(float v) {
    float a = v * (v + 0.0245786f) - 0.000090537f;
    float b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
    return a / b;
}

// srgbEncode on [0, 1] through a table: powf per channel per pixel is most of
// the tone-mapping time. Linear interpolation errs by < 0.01 of an 8-bit level.
class SrgbTable {
  public:
    SrgbTable() {
        for (int n = 0; n <= kSize; ++n) table_[n] = srgbEncode(float(n) / kSize);
    }
    float operator()(float v) const {
        float x = v * kSize;
        int n = std::min(int(x), kSize - 1);
        return table_[n] + (table_[n + 1] - table_[n]) * (x - float(n));
    }

  private:
    static constexpr int kSize = 4096;
    float table_[kSize + 1];
};

}  // namespace

Vec3f filmic(Vec3f linear, float exposure) {
    Vec3f c = acesInput(vmax(linear * exposure, Vec3f(0.0f)));
    c = acesOutput({rrtOdtFit(c.x), rrtOdtFit(c.y), rrtOdtFit(c.z)});
    return {std::clamp(c.x, 0.0f, 1.0f), std::clamp(c.y, 0.0f, 1.0f), std::clamp(c.z, 0.0f, 1.0f)};
}

float srgbEncode(float v) {
    return v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
}

namespace {

// Pixels' colours, tone-mapped, dithered and quantised. Remembers the last
// colour it mapped: the background repeats along a row, and its tone curve
// and sRGB levels are then reused as they are (the same bits).
class PixelEncoder {
  public:
    explicit PixelEncoder(float exposure) : exposure_(exposure) {}

    // One pixel into out[0..2].
    void operator()(Vec3f linear, int x, int y, uint8_t* out) {
        static const SrgbTable srgb;
        if (!(linear == last_)) {
            const Vec3f c = filmic(linear, exposure_);
            for (int ch = 0; ch < 3; ++ch) levels_[ch] = srgb(c[ch]) * 255.0f;
            last_ = linear;
        }
        float dither = hashToUnit(hashPixel(x, y, 0, kDitherSeed)) - 0.5f;
        for (int ch = 0; ch < 3; ++ch) {
            float level = levels_[ch] + dither + 0.5f;
            out[ch] = uint8_t(std::clamp(level, 0.0f, 255.0f));
        }
    }

  private:
    float exposure_;
    Vec3f last_{std::numeric_limits<float>::quiet_NaN()};  // equal to nothing
    float levels_[3] = {0.0f, 0.0f, 0.0f};
};

}  // namespace

void toneMap(const std::vector<float>& linear, float exposure, Image& image) {
    const int width = image.width;
    parallelForRange(image.height, [&](int y0, int y1) {
        PixelEncoder encode(exposure);
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < width; ++x) {
                size_t n = (size_t(y) * width + x) * 3;
                encode({linear[n], linear[n + 1], linear[n + 2]}, x, y, image.pixel(x, y));
            }
    });
}

void toneMapRows(float exposure, Image& image, FunctionRef<void(int, float*)> row) {
    const int width = image.width;
    parallelForRange(image.height, [&](int y0, int y1) {
        PixelEncoder encode(exposure);
        std::vector<float> linear(size_t(width) * 3);
        for (int y = y0; y < y1; ++y) {
            row(y, linear.data());
            for (int x = 0; x < width; ++x) {
                const size_t n = size_t(x) * 3;
                encode({linear[n], linear[n + 1], linear[n + 2]}, x, y, image.pixel(x, y));
            }
        }
    });
}

void toneMapStraightAlpha(const std::vector<float>& rgba, float exposure, Image& image) {
    const int width = image.width;
    parallelForRange(image.height, [&](int y0, int y1) {
        PixelEncoder encode(exposure);
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < width; ++x) {
                const size_t n = (size_t(y) * width + x) * 4;
                const float alpha = std::clamp(rgba[n + 3], 0.0f, 1.0f);
                uint8_t* out = image.pixel(x, y);
                out[3] = uint8_t(alpha * 255.0f + 0.5f);
                // Nothing there: black, fully transparent (no colour to divide out).
                if (out[3] == 0) {
                    out[0] = out[1] = out[2] = 0;
                    continue;
                }
                const Vec3f straight = Vec3f(rgba[n], rgba[n + 1], rgba[n + 2]) * (1.0f / alpha);
                encode(straight, x, y, out);
            }
    });
}

}  // namespace plume
