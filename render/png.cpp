#include "render/png.h"

#include <string>

#include "core/atomic_file.h"
#include "core/error.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

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

}  // namespace plume
