#include "io/exr_file.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfIntAttribute.h>
#include <ImfOutputFile.h>
#include <ImfStringAttribute.h>
#include <half.h>

#include <exception>

#include "core/atomic_file.h"
#include "core/error.h"

namespace plume {

namespace {

constexpr const char* kChannels[4] = {"R", "G", "B", "A"};

}  // namespace

void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame) {
    if (width <= 0 || height <= 0 || rgba.size() != size_t(width) * height * 4)
        throw RunError("cannot write '" + path + "': the image is empty or malformed");
    Imf::Header header(width, height);
    header.compression() = Imf::ZIP_COMPRESSION;
    header.insert("software", Imf::StringAttribute("plume " PLUME_VERSION));
    header.insert("frame", Imf::IntAttribute(frame));
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
    // OpenEXR's exceptions become "cannot write 'path': why" in writeAtomically.
    writeAtomically(path, [&](const std::string& tempPath) {
        Imf::OutputFile file(tempPath.c_str(), header);
        file.setFrameBuffer(buffer);
        file.writePixels(height);
    });
}

ExrImage readExr(const std::string& path) {
    try {
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
    } catch (const std::exception& e) {
        throw RunError("cannot read '" + path + "': " + e.what());
    }
}

}  // namespace plume
