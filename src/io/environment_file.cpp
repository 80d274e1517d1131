#include "io/environment_file.h"

#include <ImfTestFile.h>

#include <cmath>
#include <exception>
#include <filesystem>
#include <memory>

#include "core/error.h"
#include "io/exr_file.h"

// Radiance .hdr through stb_image, its HDR reader alone (png.cpp has its own
// static copy for PNG).
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO_FAILURE_STRINGS
#include <stb_image.h>

namespace plume {

namespace {

// Through io's EXR reader (exr_file.h), which refuses a header asking for
// more pixels than the file can hold.
RadianceMap readLatLongExr(const std::string& path) {
    const ExrChannels exr = readExrChannels(path);
    const char* rgb[3] = {"R", "G", "B"};
    const bool colour = exr.channels.contains("R") && exr.channels.contains("G") &&
                        exr.channels.contains("B");
    if (!colour && !exr.channels.contains("Y"))
        throw RunError("'" + path + "' has no R, G and B channels (nor Y)");
    RadianceMap map;
    map.width = exr.width;
    map.height = exr.height;
    map.rgb.resize(size_t(map.width) * map.height * 3);
    for (int c = 0; c < 3; ++c) {
        const std::vector<float>& values = exr.channels.at(colour ? rgb[c] : "Y");
        for (size_t n = 0; n < values.size(); ++n) map.rgb[n * 3 + c] = values[n];
    }
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
        map = readLatLongExr(path);
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
    } catch (const std::runtime_error& e) {  // RunError, or InputError for an oversized header
        throw InputError(SourceLocation{scene.path, env.fileLine, env.fileColumn},
                         std::string("environment.file: ") + e.what());
    }
}

}  // namespace plume
