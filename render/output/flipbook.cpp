#include "render/output/flipbook.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "scene/schema.h"

namespace plume {

FlipbookLayout::FlipbookLayout(const FlipbookSettings& settings, int first, int last)
    : settings_(settings) {
    const long shot = long(last) - first + 1;
    const int cells = settings.frameCount();
    if (shot < cells)
        throw InputError("--flipbook: error: the sheet takes " + std::to_string(cells) +
                         " frames (flipbook.frames) and the shot has " + std::to_string(shot) +
                         ": give fewer frames or a longer shot");
    // Integer steps: the same frames on every machine, the first cell the
    // shot's first frame, the cells a whole shot apart when the sheet loops.
    for (int c = 0; c < cells; ++c) frames_.push_back(first + int(long(c) * shot / cells));
}

int FlipbookLayout::cellOf(int index) const {
    const auto it = std::lower_bound(frames_.begin(), frames_.end(), index);
    return it != frames_.end() && *it == index ? int(it - frames_.begin()) : -1;
}

int FlipbookLayout::frameX(int cell) const {
    return (cell % settings_.columns) * settings_.frameSize + settings_.padding;
}

int FlipbookLayout::frameY(int cell) const {
    return (cell / settings_.columns) * settings_.frameSize + settings_.padding;
}

void placeFlipbookCell(const FlipbookLayout& layout, int cell, const Image& frame,
                       bool premultiplied, Image& sheet) {
    const int x0 = layout.frameX(cell), y0 = layout.frameY(cell), n = layout.frameSize();
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const uint8_t* from = frame.pixel(x, y);
            uint8_t* to = sheet.pixel(x0 + x, y0 + y);
            const unsigned a = from[3];
            for (int c = 0; c < 3; ++c)
                to[c] = premultiplied ? uint8_t((from[c] * a + 127) / 255) : from[c];
            to[3] = from[3];
        }
}

void placeFlipbookCell(const FlipbookLayout& layout, int cell, const std::vector<float>& frame,
                       bool premultiplied, std::vector<float>& sheet) {
    const int x0 = layout.frameX(cell), y0 = layout.frameY(cell), n = layout.frameSize();
    const size_t width = size_t(layout.sheetWidth());
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const float* from = &frame[(size_t(y) * n + x) * 4];
            float* to = &sheet[((size_t(y0) + y) * width + size_t(x0) + x) * 4];
            const float a = from[3];
            const float scale = premultiplied ? 1.0f : a > 0.0f ? 1.0f / a : 0.0f;
            for (int c = 0; c < 3; ++c) to[c] = from[c] * scale;
            to[3] = a;
        }
}

namespace {

// The shortest text that reads back as the same number, as the scene reference writes it.
std::string flipbookNumber(double v) { return formatNumber(v); }

std::string flipbookVector(Vec3f v) {
    v = v + Vec3f(0.0f);  // no -0
    return "[" + formatFloat(v.x) + ", " + formatFloat(v.y) + ", " + formatFloat(v.z) + "]";
}

std::string flipbookRect(int x, int y, int w, int h) {
    return "{\"x\": " + std::to_string(x) + ", \"y\": " + std::to_string(y) +
           ", \"w\": " + std::to_string(w) + ", \"h\": " + std::to_string(h) + "}";
}

std::string cellName(const std::string& name, int cell) {
    char text[16];
    std::snprintf(text, sizeof text, "_%04d", cell);
    return name + text;
}

// A name as a JSON string: the scene's stem may hold quotes or backslashes.
std::string jsonText(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
            continue;
        }
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string flipbookSidecar(const FlipbookLayout& layout, const FlipbookInfo& info) {
    const FlipbookSettings& s = layout.settings();
    const int n = layout.frameSize();
    std::string out = "{\n  \"frames\": {\n";
    for (int c = 0; c < layout.cells(); ++c) {
        const std::string rect = flipbookRect(layout.frameX(c), layout.frameY(c), n, n);
        out += "    " + jsonText(cellName(info.name, c)) + ": {\"frame\": " + rect +
               ", \"rotated\": false, \"trimmed\": false, \"spriteSourceSize\": " +
               flipbookRect(0, 0, n, n) + ", \"sourceSize\": {\"w\": " + std::to_string(n) +
               ", \"h\": " + std::to_string(n) +
               "}, \"plume_frame\": " + std::to_string(info.numbers.at(size_t(c))) + "}" +
               (c + 1 < layout.cells() ? ",\n" : "\n");
    }
    out += "  },\n  \"animations\": {\n    " + jsonText(info.name) + ": [";
    for (int c = 0; c < layout.cells(); ++c)
        out += (c ? ", " : "") + jsonText(cellName(info.name, c));
    out += "]\n  },\n";
    const bool exr = s.format == FlipbookFormat::Exr;
    out += "  \"meta\": {\n";
    out += "    \"app\": \"plume\",\n";
    out += "    \"image\": " + jsonText(info.image) + ",\n";
    out += std::string("    \"format\": \"") + (exr ? "RGBA16F" : "RGBA8888") + "\",\n";
    out += "    \"size\": {\"w\": " + std::to_string(layout.sheetWidth()) +
           ", \"h\": " + std::to_string(layout.sheetHeight()) + "},\n";
    out += "    \"scale\": \"1\",\n";
    out += std::string("    \"kind\": \"") + (info.sixWay ? "six_way" : "colour") + "\",\n";
    if (info.sixWay) {
        // Unity's layout (VFX Graph's Six-way Smoke Lit, URP's Six Way shader
        // graph): each light of irradiance pi, white, relative to the camera.
        out += "    \"sheets\": {\n";
        out += "      \"positive\": {\"image\": " + jsonText(info.positive) +
               ", \"R\": \"light from the right (+right)\", \"G\": \"light from the top "
               "(+up)\", \"B\": \"light from the back (behind the smoke, travelling toward the "
               "camera)\", \"A\": \"alpha (1 - transmittance)\"},\n";
        out += "      \"negative\": {\"image\": " + jsonText(info.negative) +
               ", \"R\": \"light from the left (-right)\", \"G\": \"light from the bottom "
               "(-up)\", \"B\": \"light from the front (the camera's side)\", \"A\": "
               "\"emission (the flame's luminance)\"}\n";
        out += "    },\n";
        out +=
            "    \"lightmaps\": {\"irradiance\": \"pi\", \"white_diffuser\": 1, "
            "\"values\": " +
            std::string(exr ? "\"linear\""
                            : "\"linear light, RGB through the sRGB curve, A linear\"") +
            ", \"emission\": \"negative.A\"},\n";
    }
    if (!info.motion.empty()) {
        out += "    \"motion\": {\"image\": " + jsonText(info.motion) +
               ", \"format\": " + jsonText(info.motionFormat) +
               ", \"encoding\": \"sidefx\", \"R\": \"u / columns / motion_scale * 0.5 + "
               "0.5, u to the right\", \"G\": \"v / rows / motion_scale * 0.5 + 0.5, v up "
               "(flipped from the image's rows)\", \"units\": \"the cell's UV from each cell "
               "to the next\"},\n";
    }
    out += "    \"columns\": " + std::to_string(s.columns) + ",\n";
    out += "    \"rows\": " + std::to_string(s.rows) + ",\n";
    out += "    \"frames\": " + std::to_string(layout.cells()) + ",\n";
    out += "    \"frame_size\": " + std::to_string(s.frameSize) + ",\n";
    out += "    \"padding\": " + std::to_string(s.padding) + ",\n";
    out += "    \"fps\": " + flipbookNumber(info.fps) + ",\n";
    out += "    \"color_space\": " + jsonText(info.colorSpace) + ",\n";
    out += std::string("    \"alpha\": \"") +
           (s.alpha == FlipbookAlpha::Premultiplied ? "premultiplied" : "straight") + "\",\n";
    out += "    \"axes\": {\"right\": " + flipbookVector(info.right) +
           ", \"up\": " + flipbookVector(info.up) + ", \"back\": " + flipbookVector(info.back) +
           "},\n";
    out += std::string("    \"camera\": \"") +
           (info.orthographic ? "orthographic" : "perspective") + "\",\n";
    out += "    \"ortho_width\": " +
           (info.orthographic ? formatFloat(info.orthoWidth) : std::string("null")) + ",\n";
    out += "    \"motion_scale\": " +
           (info.motion.empty() ? std::string("null") : flipbookNumber(info.motionScale)) + ",\n";
    out += "    \"loop\": " +
           (info.loopFrames > 0
                ? "{\"frames\": " + std::to_string(info.loopFrames) +
                      ", \"mode\": \"blend\", \"overlap\": " + std::to_string(info.loopOverlap) +
                      ", \"blend\": \"the last cells crossfaded in linear light into the frames "
                      "before the first: the last cell leads into the first\"}"
                : std::string("null")) +
           "\n";
    out += "  }\n}\n";
    return out;
}

}  // namespace plume
