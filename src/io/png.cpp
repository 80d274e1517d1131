#include "io/png.h"

#include <spng.h>
#include <zlib.h>  // Z_RLE, a strategy libspng passes to zlib

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "core/atomic_file.h"
#include "core/error.h"

// Reading stays with stb_image. Static: the tests compile stb_image into their
// own binary as well. Its readers for other formats are then unused functions.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace plume {

namespace {

// A PNG's header (IHDR: width, height, bit depth, colour type at fixed places)
// may promise more pixels than the file can hold: its rows are deflated, and
// deflate makes at most 1032 bytes of one. Refused before stb_image
// allocates the picture (a 2^24 x 2^24 header in a few bytes asks for
// petabytes). A file too short or without the signature is left to stb_image,
// which says why.
void checkPngHeader(const std::string& path) {
    unsigned char h[26];
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return;
    const size_t got = std::fread(h, 1, sizeof h, file);
    std::fclose(file);
    static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (got < sizeof h || !std::equal(kSignature, kSignature + 8, h) ||
        !std::equal(h + 12, h + 16, "IHDR"))
        return;
    auto be32 = [&](int at) {
        return std::uint64_t(h[at]) << 24 | std::uint64_t(h[at + 1]) << 16 |
               std::uint64_t(h[at + 2]) << 8 | std::uint64_t(h[at + 3]);
    };
    const std::uint64_t width = be32(16), height = be32(20), depth = h[24];
    const int samples[7] = {1, 0, 3, 1, 2, 0, 4};  // per pixel, by colour type
    const std::uint64_t perPixel = h[25] < 7 ? samples[h[25]] : 0;
    if (perPixel == 0) return;  // not a colour type: stb_image says so
    // Each row: a filter byte and its samples (the least an interlaced file holds too).
    const std::uint64_t rowBytes = 1 + (width * perPixel * depth + 7) / 8;
    const double bytes = double(rowBytes) * double(height);
    std::error_code ec;
    const double fileSize = double(std::filesystem::file_size(path, ec));
    if (ec || bytes <= fileSize * 1032) return;
    throw InputError(SourceLocation{path},
                     "cannot read PNG file (its header asks for " + std::to_string(width) + "x" +
                         std::to_string(height) + " pixels, " +
                         std::to_string(std::uint64_t(bytes)) + " bytes, more than its " +
                         std::to_string(std::uint64_t(fileSize)) + " bytes can hold)");
}

// libspng's encoder settings, chosen on 1280x720 frames of scenes/bench.toml
// (README "Performance"): rendered smoke is smooth, so after the Up filter a
// row is mostly runs of zeros that zlib's run-length strategy finds at a
// fraction of the cost of its match search. Against stb_image_write (level 8,
// a filter tried per row): about 5x less time and a third smaller files; zlib
// levels 1 to 6 with the default strategy were both slower and larger.
constexpr int kCompressionLevel = 1;
constexpr int kStrategy = Z_RLE;
constexpr int kFilters = SPNG_FILTER_CHOICE_UP;

struct SpngFree {
    void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};

// The bytes of image as a PNG; `what` names it in an error ("cannot write 'x.png'").
std::string encodePngFor(const Image& image, const std::string& what) {
    if (image.width <= 0 || image.height <= 0 || (image.channels != 3 && image.channels != 4) ||
        image.pixels.size() != size_t(image.width) * image.height * image.channels)
        throw RunError("cannot write " + what + ": the image is empty or malformed");
    auto failed = [&](int error) {
        return RunError("cannot write " + what + ": PNG encoding failed (" + spng_strerror(error) +
                        ")");
    };
    std::unique_ptr<spng_ctx, SpngFree> ctx(spng_ctx_new(SPNG_CTX_ENCODER));
    if (!ctx) throw failed(SPNG_EMEM);
    spng_ihdr ihdr{};
    ihdr.width = uint32_t(image.width);
    ihdr.height = uint32_t(image.height);
    ihdr.bit_depth = 8;
    ihdr.color_type =
        image.channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR;
    int error = spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
    if (!error) error = spng_set_ihdr(ctx.get(), &ihdr);
    // The pixels are display-referred sRGB (the tone map's curve): said so
    // with the sRGB chunk (perceptual intent) and, for readers that know only
    // those, the gAMA and cHRM the PNG specification pairs with it.
    spng_chrm srgbPrimaries{0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};
    if (!error) error = spng_set_srgb(ctx.get(), 0);
    if (!error) error = spng_set_gama(ctx.get(), 0.45455);
    if (!error) error = spng_set_chrm(ctx.get(), &srgbPrimaries);
    if (!error) error = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, kCompressionLevel);
    if (!error) error = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_STRATEGY, kStrategy);
    if (!error) error = spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, kFilters);
    if (!error)
        error = spng_encode_image(ctx.get(), image.pixels.data(), image.pixels.size(), SPNG_FMT_PNG,
                                  SPNG_ENCODE_FINALIZE);
    size_t size = 0;
    void* buffer = error ? nullptr : spng_get_png_buffer(ctx.get(), &size, &error);
    if (!buffer) throw failed(error ? error : SPNG_EMEM);
    std::string png(static_cast<const char*>(buffer), size);
    std::free(buffer);  // spng_get_png_buffer hands the caller a malloc'd buffer
    return png;
}

}  // namespace

std::string encodePng(const Image& image) { return encodePngFor(image, "a PNG image"); }

void writePng(const std::string& path, const Image& image) {
    // Encode in memory, then write with every call checked, through a
    // temporary and a rename.
    writeFileAtomically(path, encodePngFor(image, "'" + path + "'"));
}

void writePng16(const std::string& path, int width, int height,
                const std::vector<std::uint16_t>& values) {
    const std::string what = "'" + path + "'";
    if (width <= 0 || height <= 0 || values.size() != size_t(width) * height * 3)
        throw RunError("cannot write " + what + ": the image is empty or malformed");
    auto failed = [&](int error) {
        return RunError("cannot write " + what + ": PNG encoding failed (" + spng_strerror(error) +
                        ")");
    };
    std::unique_ptr<spng_ctx, SpngFree> ctx(spng_ctx_new(SPNG_CTX_ENCODER));
    if (!ctx) throw failed(SPNG_EMEM);
    spng_ihdr ihdr{};
    ihdr.width = uint32_t(width);
    ihdr.height = uint32_t(height);
    ihdr.bit_depth = 16;
    ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR;
    // libspng takes 16-bit samples in the machine's byte order and stores them big-endian.
    int error = spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
    if (!error) error = spng_set_ihdr(ctx.get(), &ihdr);
    if (!error) error = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, kCompressionLevel);
    if (!error)
        error = spng_encode_image(ctx.get(), values.data(), values.size() * 2, SPNG_FMT_PNG,
                                  SPNG_ENCODE_FINALIZE);
    size_t size = 0;
    void* buffer = error ? nullptr : spng_get_png_buffer(ctx.get(), &size, &error);
    if (!buffer) throw failed(error ? error : SPNG_EMEM);
    std::string png(static_cast<const char*>(buffer), size);
    std::free(buffer);
    writeFileAtomically(path, png);
}

Image readPng(const std::string& path) {
    checkPngHeader(path);
    int width = 0, height = 0, channels = 0;
    stbi_uc* pixels = stbi_load(path.c_str(), &width, &height, &channels, 3);
    if (!pixels)
        throw RunError("cannot read '" + path +
                       "': " + (stbi_failure_reason() ? stbi_failure_reason() : "not a PNG"));
    Image image(width, height, 3);
    std::copy(pixels, pixels + image.pixels.size(), image.pixels.begin());
    stbi_image_free(pixels);
    return image;
}

}  // namespace plume
