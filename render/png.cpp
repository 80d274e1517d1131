#include "render/png.h"

#include <algorithm>
#include <string>

#include "core/atomic_file.h"
#include "core/error.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
// Static: the tests compile stb_image into their own binary as well. Its
// readers for other formats are then unused functions.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace plume {

void writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 || (image.channels != 3 && image.channels != 4) ||
        image.pixels.size() != size_t(image.width) * image.height * image.channels)
        throw RunError("cannot write '" + path + "': the image is empty or malformed");
    // Encode in memory, then write with every call checked: stb's own file
    // writer ignores fwrite's result, so a full disk would pass unnoticed.
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, image.channels,
                                image.pixels.data(), image.width * image.channels))
        throw RunError("cannot write '" + path + "': PNG encoding failed");
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
