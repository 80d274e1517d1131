#include "io/environment_file.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfTestFile.h>

#include <cmath>
#include <exception>
#include <filesystem>
#include <memory>

#include "core/error.h"

// Radiance .hdr through stb_image, its HDR reader alone (png.cpp has its own
// static copy for PNG).
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO_FAILURE_STRINGS
#include <stb_image.h>

namespace plume {

namespace {

RadianceMap readExr(const std::string& path) {
    Imf::InputFile file(path.c_str());
    const Imf::Header& header = file.header();
    const Imath::Box2i window = header.dataWindow();
    RadianceMap map;
    map.width = window.max.x - window.min.x + 1;
    map.height = window.max.y - window.min.y + 1;
    const Imf::ChannelList& channels = header.channels();
    const bool rgb = channels.findChannel("R") && channels.findChannel("G") &&
                     channels.findChannel("B");
    if (!rgb && !channels.findChannel("Y"))
        throw RunError("'" + path + "' has no R, G and B channels (nor Y)");
    map.rgb.assign(size_t(map.width) * map.height * 3, 0.0f);
    // The frame buffer addresses pixel (x, y) of the data window at
    // base + x * xStride + y * yStride.
    char* base = reinterpret_cast<char*>(map.rgb.data()) -
                 (ptrdiff_t(window.min.x) + ptrdiff_t(window.min.y) * map.width) * 3 *
                     ptrdiff_t(sizeof(float));
    Imf::FrameBuffer buffer;
    const size_t xStride = 3 * sizeof(float), yStride = xStride * map.width;
    const char* names[3] = {"R", "G", "B"};
    for (int c = 0; c < 3; ++c)
        buffer.insert(rgb ? names[c] : "Y",
                      Imf::Slice(Imf::FLOAT, base + c * sizeof(float), xStride, yStride));
    file.setFrameBuffer(buffer);
    file.readPixels(window.min.y, window.max.y);
    return map;
}

RadianceMap readHdr(const std::string& path) {
    int width = 0, height = 0, components = 0;
    std::unique_ptr<float, void (*)(void*)> pixels(
        stbi_loadf(path.c_str(), &width, &height, &components, 3), stbi_image_free);
    if (!pixels) throw RunError("'" + path + "' is not a Radiance .hdr image");
    RadianceMap map;
    map.width = width;
    map.height = height;
    map.rgb.assign(pixels.get(), pixels.get() + size_t(width) * height * 3);
    return map;
}

}  // namespace

RadianceMap readRadianceMap(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw RunError("'" + path + "' is not a file");
    const std::string ext = fs::path(path).extension().string();
    RadianceMap map;
    if (ext == ".exr" || ext == ".EXR") {
        if (!Imf::isOpenExrFile(path.c_str()))
            throw RunError("'" + path + "' is not an OpenEXR file");
        try {
            map = readExr(path);
        } catch (const RunError&) {
            throw;
        } catch (const std::exception& e) {
            throw RunError("'" + path + "': " + e.what());
        }
    } else if (ext == ".hdr" || ext == ".HDR") {
        map = readHdr(path);
    } else {
        throw RunError("'" + path + "' is neither .exr nor .hdr");
    }
    if (map.width < 2 || map.height < 1)
        throw RunError("'" + path + "' is too small for a latitude-longitude map");
    for (float& v : map.rgb)
        if (!std::isfinite(v) || v < 0.0f) v = 0.0f;  // no light from a NaN or a negative
    return map;
}

void loadEnvironment(Scene& scene) {
    EnvironmentSettings& env = scene.environment;
    if (!env.given() || env.map) return;
    try {
        env.map = std::make_shared<RadianceMap>(readRadianceMap(env.filePath));
    } catch (const RunError& e) {
        throw InputError(SourceLocation{scene.path, env.fileLine, env.fileColumn},
                         std::string("environment.file: ") + e.what());
    }
}

}  // namespace plume
