#include "render/png.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/error.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace plume {

void writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() != size_t(image.width) * image.height * 3)
        throw RunError("cannot write " + path + ": the image is empty or malformed");
    std::string tmp = path + ".tmp";
    if (!stbi_write_png(tmp.c_str(), image.width, image.height, 3, image.rgb.data(),
                        image.width * 3)) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw RunError("cannot write " + path + ": writing " + tmp + " failed");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw RunError("cannot write " + path + ": " + ec.message());
    }
}

}  // namespace plume
