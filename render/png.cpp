#include "render/png.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
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
    // Encode in memory, then write with every call checked: stb's own file
    // writer ignores fwrite's result, so a full disk would pass unnoticed.
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, 3, image.rgb.data(),
                                image.width * 3))
        throw RunError("cannot write " + path + ": PNG encoding failed");
    const std::string tmp = path + ".tmp";
    auto fail = [&](const std::string& why) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw RunError("cannot write " + path + ": " + why);
    };
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) fail(std::strerror(errno));
    const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    const int writeErrno = errno;
    if (std::fclose(f) != 0 || !written) fail(std::strerror(written ? errno : writeErrno));
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) fail(ec.message());
}

}  // namespace plume
