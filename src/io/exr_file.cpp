#include "io/exr_file.h"

#include <ImfChannelList.h>
#include <ImfChromaticities.h>
#include <ImfFloatAttribute.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfIntAttribute.h>
#include <ImfOutputFile.h>
#include <ImfStandardAttributes.h>
#include <ImfStdIO.h>
#include <ImfStringAttribute.h>
#include <ImfVersion.h>
#include <half.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/exr_private.h"

namespace plume {

namespace {

constexpr const char* kChannels[4] = {"R", "G", "B", "A"};

// The most one byte of a file can decode to under each compression, or 0
// where there is no simple limit (PIZ, DWA: left to OpenEXR).
double maxExpansion(Imf::Compression compression) {
    switch (compression) {
        case Imf::NO_COMPRESSION:
            return 1;
        case Imf::RLE_COMPRESSION:
            return 64;  // a run of 128 bytes in 2
        case Imf::ZIPS_COMPRESSION:
        case Imf::ZIP_COMPRESSION:
            return 1032;  // deflate's limit
        case Imf::PXR24_COMPRESSION:
            return 1032 * 4.0 / 3;  // deflate over 24 of each 32 bits
        case Imf::B44_COMPRESSION:
        case Imf::B44A_COMPRESSION:
            return 32.0 / 3;  // a flat 4x4 block of halfs in 3 bytes
        default:
            return 0;
    }
}

// Imf::InputFile sizes its line buffers from the header's data window, and
// readExr its pixels: a header asking for more than its file can hold (a
// few bytes claiming 10^8 pixels a line) is refused from the header alone.
void requirePixelsFit(const std::string& path) {
    Imf::StdIFStream stream(path.c_str());
    char magic[4], versionBytes[4];
    stream.read(magic, 4);
    stream.read(versionBytes, 4);
    int version = int(std::uint32_t(std::uint8_t(versionBytes[0])) |
                      std::uint32_t(std::uint8_t(versionBytes[1])) << 8 |
                      std::uint32_t(std::uint8_t(versionBytes[2])) << 16 |
                      std::uint32_t(std::uint8_t(versionBytes[3])) << 24);
    if (!Imf::isImfMagic(magic) || Imf::isMultiPart(version)) return;  // OpenEXR says why
    Imf::Header header;
    header.readFrom(stream, version);
    const Imath::Box2i window = header.dataWindow();
    const double width = double(window.max.x) - window.min.x + 1;
    const double height = double(window.max.y) - window.min.y + 1;
    double bytes = 0;
    for (auto c = header.channels().begin(); c != header.channels().end(); ++c) {
        const Imf::Channel& channel = c.channel();
        const double size = channel.type == Imf::HALF ? 2 : 4;
        bytes += size * width * height / (double(channel.xSampling) * channel.ySampling);
    }
    std::error_code ec;
    const double fileSize = double(std::filesystem::file_size(path, ec));
    const double expansion = maxExpansion(header.compression());
    if (ec || expansion == 0 || bytes <= fileSize * expansion) return;
    throw InputError(SourceLocation{path},
                     "cannot read EXR file (its header asks for " +
                         std::to_string(std::int64_t(width)) + "x" +
                         std::to_string(std::int64_t(height)) + " pixels, " +
                         std::to_string(std::uint64_t(bytes)) + " bytes, more than its " +
                         std::to_string(std::uint64_t(fileSize)) + " bytes can hold)");
}

}  // namespace

// The frame rate as the rational EXR stores: whole rates exactly, the NTSC
// ones (23.976, 29.97, 59.94) as n*1000/1001, as the MP4's time base has them.
Imf::Rational exrFramesPerSecond(double fps) {
    const double whole = std::round(fps);
    if (std::fabs(fps - whole) < 1e-9) return Imf::Rational(int(whole), 1);
    const double ntsc = std::round(fps * 1.001);
    if (std::fabs(fps - ntsc * 1000.0 / 1001.0) < 2e-3)
        return Imf::Rational(int(ntsc) * 1000, 1001);
    return Imf::Rational(fps);
}

void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame, double fps) {
    writeExr(path, width, height, rgba, frame, fps, {});
}

void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame, double fps, const std::vector<ExrLayer>& layers,
              const ExrChromaticities& xy, std::optional<float> exposure) {
    const size_t pixels = size_t(std::max(width, 0)) * size_t(std::max(height, 0));
    if (width <= 0 || height <= 0 || rgba.size() != pixels * 4)
        throw RunError("cannot write '" + path + "': the image is empty or malformed");
    for (const ExrLayer& layer : layers)
        if (layer.channels.empty() || layer.pixels.size() != pixels * layer.channels.size())
            throw RunError("cannot write '" + path + "': its layer '" + layer.name +
                           "' is empty or malformed");
    Imf::Header header(width, height);
    header.compression() = Imf::ZIP_COMPRESSION;
    header.insert("software", Imf::StringAttribute("plume " PLUME_VERSION));
    header.insert("frame", Imf::IntAttribute(frame));
    // The pixels' colour space, so a compositor need not assume it: linear
    // Rec. 709 with D65 white by default, AP1 with D60 for ACEScg.
    Imf::addChromaticities(header, Imf::Chromaticities(Imath::V2f(xy[0], xy[1]),
                                                       Imath::V2f(xy[2], xy[3]),
                                                       Imath::V2f(xy[4], xy[5]),
                                                       Imath::V2f(xy[6], xy[7])));
    if (fps > 0) Imf::addFramesPerSecond(header, exrFramesPerSecond(fps));
    if (exposure) header.insert("plume_exposure", Imf::FloatAttribute(*exposure));
    Imf::FrameBuffer buffer;
    // OpenEXR writes slices of the channel's own type only: round to half here.
    std::vector<Imath::half> halves(rgba.begin(), rgba.end());
    const size_t pixelStride = 4 * sizeof(Imath::half);
    for (int c = 0; c < 4; ++c) {
        header.channels().insert(kChannels[c], Imf::Channel(Imf::HALF));
        buffer.insert(kChannels[c],
                      Imf::Slice(Imf::HALF, reinterpret_cast<char*>(halves.data() + c), pixelStride,
                                 pixelStride * size_t(width)));
    }
    // Each layer's channels, interleaved as given: halves rounded here too.
    std::vector<std::vector<Imath::half>> layerHalves(layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
        const ExrLayer& layer = layers[l];
        const size_t n = layer.channels.size();
        char* base = nullptr;
        size_t size = sizeof(float);
        if (layer.half) {
            layerHalves[l].assign(layer.pixels.begin(), layer.pixels.end());
            base = reinterpret_cast<char*>(layerHalves[l].data());
            size = sizeof(Imath::half);
        } else {
            base = reinterpret_cast<char*>(const_cast<float*>(layer.pixels.data()));
        }
        const Imf::PixelType type = layer.half ? Imf::HALF : Imf::FLOAT;
        for (size_t c = 0; c < n; ++c) {
            const std::string name = layer.name + "." + layer.channels[c];
            header.channels().insert(name, Imf::Channel(type));
            buffer.insert(name, Imf::Slice(type, base + c * size, n * size, n * size * width));
        }
    }
    // OpenEXR's exceptions become "cannot write 'path': why" in writeAtomically.
    writeAtomically(path, "an EXR", [&](const std::string& tempPath) {
        Imf::OutputFile file(tempPath.c_str(), header);
        file.setFrameBuffer(buffer);
        file.writePixels(height);
    });
}

ExrChannels readExrChannels(const std::string& path) {
    try {
        requirePixelsFit(path);
        Imf::InputFile file(path.c_str());
        const Imf::Header& header = file.header();
        const Imath::Box2i window = header.dataWindow();
        ExrChannels out;
        out.width = window.max.x - window.min.x + 1;
        out.height = window.max.y - window.min.y + 1;
        const size_t pixels = size_t(out.width) * out.height;
        Imf::FrameBuffer buffer;
        for (auto c = header.channels().begin(); c != header.channels().end(); ++c) {
            std::vector<float>& values = out.channels[c.name()];
            values.assign(pixels, 0.0f);
            out.half[c.name()] = c.channel().type == Imf::HALF;
            const size_t rowStride = sizeof(float) * out.width;
            char* base = reinterpret_cast<char*>(values.data()) -
                         window.min.x * std::ptrdiff_t(sizeof(float)) -
                         window.min.y * std::ptrdiff_t(rowStride);
            buffer.insert(c.name(), Imf::Slice(Imf::FLOAT, base, sizeof(float), rowStride));
        }
        file.setFrameBuffer(buffer);
        file.readPixels(window.min.y, window.max.y);
        return out;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw RunError("cannot read '" + path + "': " + e.what());
    }
}

ExrImage readExr(const std::string& path) {
    try {
        requirePixelsFit(path);
        Imf::InputFile file(path.c_str());
        const Imf::Header& header = file.header();
        const Imath::Box2i window = header.dataWindow();
        ExrImage image;
        image.width = window.max.x - window.min.x + 1;
        image.height = window.max.y - window.min.y + 1;
        image.half = true;
        for (auto c = header.channels().begin(); c != header.channels().end(); ++c) {
            image.channels.push_back(c.name());
            image.half = image.half && c.channel().type == Imf::HALF;
        }
        if (auto* s = header.findTypedAttribute<Imf::StringAttribute>("software"))
            image.software = s->value();
        if (auto* f = header.findTypedAttribute<Imf::IntAttribute>("frame"))
            image.frame = f->value();
        if (auto* e = header.findTypedAttribute<Imf::FloatAttribute>("plume_exposure"))
            image.exposure = e->value();
        if (Imf::hasChromaticities(header)) {
            const Imf::Chromaticities& c = Imf::chromaticities(header);
            image.chromaticities = {c.red.x,  c.red.y,  c.green.x, c.green.y,
                                    c.blue.x, c.blue.y, c.white.x, c.white.y};
        }

        image.rgba.assign(size_t(image.width) * image.height * 4, 0.0f);
        // The slice base is shifted so the data window's corner lands on element 0.
        const size_t pixelStride = 4 * sizeof(float), rowStride = pixelStride * image.width;
        char* base = reinterpret_cast<char*>(image.rgba.data()) -
                     window.min.x * std::ptrdiff_t(pixelStride) -
                     window.min.y * std::ptrdiff_t(rowStride);
        Imf::FrameBuffer buffer;
        for (int c = 0; c < 4; ++c)
            buffer.insert(kChannels[c],
                          Imf::Slice(Imf::FLOAT, base + c * sizeof(float), pixelStride, rowStride,
                                     1, 1, c == 3 ? 1.0 : 0.0));
        file.setFrameBuffer(buffer);
        file.readPixels(window.min.y, window.max.y);
        return image;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw RunError("cannot read '" + path + "': " + e.what());
    }
}

}  // namespace plume
