#include "io/deep_exr.h"

#include <ImfChannelList.h>
#include <ImfChromaticities.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineOutputFile.h>
#include <ImfHeader.h>
#include <ImfIntAttribute.h>
#include <ImfPartType.h>
#include <ImfStandardAttributes.h>
#include <ImfStringAttribute.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parallel.h"
#include "io/exr_private.h"

namespace plume {

void writeDeepExr(const std::string& path, const DeepImage& image, int frame, double fps,
                  const std::array<float, 8>& chromaticities) {
    const int width = image.width, height = image.height;
    const size_t pixels = size_t(std::max(width, 0)) * size_t(std::max(height, 0));
    if (width <= 0 || height <= 0 || image.offsets.size() != pixels + 1 ||
        image.offsets.back() != image.samples.size())
        throw RunError("cannot write '" + path + "': the deep image is empty or malformed");
    Imf::Header header(width, height);
    header.setType(Imf::DEEPSCANLINE);
    header.compression() = Imf::ZIPS_COMPRESSION;  // deep files take none, RLE or ZIPS
    header.insert("software", Imf::StringAttribute("plume " PLUME_VERSION));
    header.insert("frame", Imf::IntAttribute(frame));
    const auto& c = chromaticities;
    Imf::addChromaticities(header, Imf::Chromaticities({c[0], c[1]}, {c[2], c[3]}, {c[4], c[5]},
                                                       {c[6], c[7]}));
    if (fps > 0) Imf::addFramesPerSecond(header, exrFramesPerSecond(fps));
    static const char* const kNames[6] = {"R", "G", "B", "A", "Z", "ZBack"};
    for (const char* name : kNames) header.channels().insert(name, Imf::Channel(Imf::FLOAT));

    // OpenEXR reads a deep slice through a pointer per pixel to its first
    // sample; the samples are DeepSamples, six floats apart.
    std::vector<unsigned int> counts(pixels);
    std::vector<char*> first(pixels);
    char* base = reinterpret_cast<char*>(const_cast<DeepSample*>(image.samples.data()));
    for (size_t i = 0; i < pixels; ++i) {
        counts[i] = image.count(i);
        first[i] = base + size_t(image.offsets[i]) * sizeof(DeepSample);
    }
    Imf::DeepFrameBuffer buffer;
    buffer.insertSampleCountSlice(Imf::Slice(Imf::UINT, reinterpret_cast<char*>(counts.data()),
                                             sizeof(unsigned int),
                                             sizeof(unsigned int) * size_t(width)));
    const size_t offsets[6] = {offsetof(DeepSample, r), offsetof(DeepSample, g),
                               offsetof(DeepSample, b), offsetof(DeepSample, a),
                               offsetof(DeepSample, z), offsetof(DeepSample, zBack)};
    // Each channel's pointers: the first sample's plus the channel's offset.
    std::vector<std::vector<char*>> pointers(6, std::vector<char*>(pixels));
    for (int c = 0; c < 6; ++c) {
        for (size_t i = 0; i < pixels; ++i) pointers[c][i] = first[i] + offsets[c];
        buffer.insert(
            kNames[c],
            Imf::DeepSlice(Imf::FLOAT, reinterpret_cast<char*>(pointers[c].data()), sizeof(char*),
                           sizeof(char*) * size_t(width), sizeof(DeepSample)));
    }
    // OpenEXR's exceptions become "cannot write 'path': why" in writeAtomically.
    writeAtomically(path, "an EXR", [&](const std::string& tempPath) {
        // Deep frames are tens of MB: compressed on the run's threads.
        Imf::DeepScanLineOutputFile file(tempPath.c_str(), header, threadCount());
        file.setFrameBuffer(buffer);
        file.writePixels(height);
    });
}

}  // namespace plume
