#include "render/png.h"

#include <spng.h>
#include <zlib.h>  // Z_RLE, a strategy libspng passes to zlib

#include <algorithm>
#include <cstdlib>
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

}  // namespace

void writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 || (image.channels != 3 && image.channels != 4) ||
        image.pixels.size() != size_t(image.width) * image.height * image.channels)
        throw RunError("cannot write '" + path + "': the image is empty or malformed");
    auto failed = [&](int error) {
        return RunError("cannot write '" + path + "': PNG encoding failed (" +
                        spng_strerror(error) + ")");
    };
    // Encode in memory, then write with every call checked, through a
    // temporary and a rename.
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
    if (!error) error = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, kCompressionLevel);
    if (!error) error = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_STRATEGY, kStrategy);
    if (!error) error = spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, kFilters);
    if (!error)
        error = spng_encode_image(ctx.get(), image.pixels.data(), image.pixels.size(), SPNG_FMT_PNG,
                                  SPNG_ENCODE_FINALIZE);
    size_t size = 0;
    void* buffer = error ? nullptr : spng_get_png_buffer(ctx.get(), &size, &error);
    if (!buffer) throw failed(error ? error : SPNG_EMEM);
    const std::string png(static_cast<const char*>(buffer), size);
    std::free(buffer);  // spng_get_png_buffer hands the caller a malloc'd buffer
    writeFileAtomically(path, png);
}

Image readPng(const std::string& path) {
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
