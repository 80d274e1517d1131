#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/video_encoder.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

fs::path testDir(const std::string& name) { return test::scratchDir(name); }

std::string run(const std::string& command) {
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return output;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    pclose(pipe);
    return output;
}

// The value of the first "key": value in ffprobe's JSON, without quotes.
std::string jsonValue(const std::string& json, const std::string& key) {
    size_t at = json.find("\"" + key + "\"");
    if (at == std::string::npos) return "<missing>";
    at = json.find(':', at) + 1;
    while (json[at] == ' ') ++at;
    bool quoted = json[at] == '"';
    if (quoted) ++at;
    size_t end = quoted ? json.find('"', at) : json.find_first_of(",\n}", at);
    return json.substr(at, end - at);
}

// A soft disc moving over a colour gradient: smooth, like rendered frames.
Image syntheticFrame(int width, int height, int index) {
    Image image(width, height);
    const float cx = 20.0f + 4.5f * index, cy = 45.0f + 15.0f * std::sin(index * 0.3f);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float r = std::hypot(x - cx, y - cy);
            float disc = std::clamp((18.0f - r) / 6.0f, 0.0f, 1.0f);
            float red = 40 + 150.0f * x / width, green = 60 + 120.0f * y / height, blue = 120;
            uint8_t* p = image.pixel(x, y);
            p[0] = uint8_t(red + (235 - red) * disc);
            p[1] = uint8_t(green + (200 - green) * disc);
            p[2] = uint8_t(blue + (90 - blue) * disc);
        }
    return image;
}

// Top-level MP4 boxes in file order.
std::vector<std::string> topLevelBoxes(const fs::path& path) {
    std::vector<std::string> boxes;
    std::ifstream in(path, std::ios::binary);
    const uint64_t fileSize = fs::file_size(path);
    uint64_t offset = 0;
    while (offset + 8 <= fileSize) {
        unsigned char header[16];
        in.seekg(std::streamoff(offset));
        in.read(reinterpret_cast<char*>(header), 8);
        uint64_t size =
            (uint64_t(header[0]) << 24) | (header[1] << 16) | (header[2] << 8) | header[3];
        boxes.emplace_back(reinterpret_cast<char*>(header + 4), 4);
        if (size == 1) {
            in.read(reinterpret_cast<char*>(header + 8), 8);
            size = 0;
            for (int b = 8; b < 16; ++b) size = (size << 8) | header[b];
        } else if (size == 0) {
            size = fileSize - offset;
        }
        if (size < 8) break;
        offset += size;
    }
    return boxes;
}

double psnr(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    double se = 0.0;
    for (size_t n = 0; n < a.size(); ++n) se += (double(a[n]) - b[n]) * (double(a[n]) - b[n]);
    double mse = se / a.size();
    return mse == 0.0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

const int kWidth = 160, kHeight = 90, kFrames = 24;

fs::path encode(const fs::path& dir, double fps, const OutputSettings& out,
                std::string* codec = nullptr) {
    fs::path path = dir / "out.mp4";
    VideoEncoder video(path.string(), kWidth, kHeight, fps, out);
    for (int n = 0; n < kFrames; ++n) video.add(syntheticFrame(kWidth, kHeight, n));
    EXPECT_EQ(video.frames(), kFrames);
    EXPECT_FALSE(fs::exists(path)) << "the video appears only when finished";
    video.finish();
    video.finish();  // idempotent
    if (codec) *codec = video.codecName();
    for (const auto& e : fs::directory_iterator(dir))  // no temporary left (out.mp4.partial.*)
        EXPECT_FALSE(e.path().filename().string().starts_with("out.mp4.")) << e.path();
    return path;
}

TEST(Video, H264StreamIsTaggedAndComplete) {
    fs::path dir = testDir("video_h264");
    std::string codec;
    fs::path path = encode(dir, 24.0, OutputSettings{}, &codec);
    EXPECT_EQ(codec, "libx264");
    std::string json =
        run("ffprobe -v error -show_streams -show_format -of json '" + path.string() + "'");
    EXPECT_EQ(jsonValue(json, "codec_name"), "h264") << json;
    EXPECT_EQ(jsonValue(json, "pix_fmt"), "yuv420p");
    EXPECT_EQ(jsonValue(json, "color_range"), "tv");
    EXPECT_EQ(jsonValue(json, "color_space"), "bt709");
    // The pixels are sRGB-encoded: the transfer is sRGB's, not BT.709's.
    EXPECT_EQ(jsonValue(json, "color_transfer"), "iec61966-2-1");
    EXPECT_EQ(jsonValue(json, "color_primaries"), "bt709");
    EXPECT_EQ(jsonValue(json, "width"), "160");
    EXPECT_EQ(jsonValue(json, "height"), "90");
    EXPECT_EQ(jsonValue(json, "nb_frames"), "24");
    EXPECT_EQ(jsonValue(json, "r_frame_rate"), "24/1");
    size_t format = json.find("\"format\"");
    ASSERT_NE(format, std::string::npos);
    EXPECT_NEAR(std::stod(jsonValue(json.substr(format), "duration")), 1.0, 1e-3);
}

TEST(Video, MoovComesBeforeMdat) {
    fs::path dir = testDir("video_faststart");
    fs::path path = encode(dir, 24.0, OutputSettings{});
    std::vector<std::string> boxes = topLevelBoxes(path);
    auto moov = std::find(boxes.begin(), boxes.end(), "moov");
    auto mdat = std::find(boxes.begin(), boxes.end(), "mdat");
    ASSERT_NE(moov, boxes.end());
    ASSERT_NE(mdat, boxes.end());
    EXPECT_LT(moov - boxes.begin(), mdat - boxes.begin());
}

TEST(Video, DecodedFramesMatchTheSource) {
    fs::path dir = testDir("video_decode");
    fs::path path = encode(dir, 24.0, OutputSettings{});
    for (int n : {0, 11, 23}) {
        fs::path raw = dir / ("frame" + std::to_string(n) + ".rgb");
        std::string command =
            "ffmpeg -v error -y -i '" + path.string() + "' -vf 'select=eq(n\\," +
            std::to_string(n) +
            "),scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgb24' "
            "-frames:v 1 -f rawvideo '" +
            raw.string() + "'";
        ASSERT_EQ(std::system(command.c_str()), 0) << command;
        std::ifstream in(raw, std::ios::binary);
        std::vector<uint8_t> decoded((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
        Image source = syntheticFrame(kWidth, kHeight, n);
        ASSERT_EQ(decoded.size(), source.pixels.size()) << "frame " << n;
        EXPECT_GE(psnr(decoded, source.pixels), 35.0) << "frame " << n;
    }
}

TEST(Video, FractionalFrameRate) {
    fs::path dir = testDir("video_ntsc");
    fs::path path = encode(dir, 23.976, OutputSettings{});
    std::string json = run("ffprobe -v error -show_streams -of json '" + path.string() + "'");
    EXPECT_EQ(jsonValue(json, "r_frame_rate"), "24000/1001") << json;
    EXPECT_EQ(jsonValue(json, "nb_frames"), "24");
    EXPECT_NEAR(std::stod(jsonValue(json, "duration")), 24 * 1001 / 24000.0, 2e-3);
}

TEST(Video, Mpeg4WhenAskedFor) {
    fs::path dir = testDir("video_mpeg4");
    OutputSettings out;
    out.codec = Codec::MPEG4;
    std::string codec;
    fs::path path = encode(dir, 30.0, out, &codec);
    EXPECT_EQ(codec, "mpeg4");
    std::string json = run("ffprobe -v error -show_streams -of json '" + path.string() + "'");
    EXPECT_EQ(jsonValue(json, "codec_name"), "mpeg4") << json;
    EXPECT_EQ(jsonValue(json, "nb_frames"), "24");
    EXPECT_EQ(jsonValue(json, "r_frame_rate"), "30/1");
}

TEST(Video, DestructorFinishesTheFile) {
    fs::path dir = testDir("video_destructor");
    fs::path path = dir / "out.mp4";
    {
        VideoEncoder video(path.string(), kWidth, kHeight, 24.0, OutputSettings{});
        for (int n = 0; n < 5; ++n) video.add(syntheticFrame(kWidth, kHeight, n));
    }
    ASSERT_TRUE(fs::exists(path));
    std::string json = run("ffprobe -v error -show_streams -of json '" + path.string() + "'");
    EXPECT_EQ(jsonValue(json, "nb_frames"), "5") << json;
}

TEST(Video, NoFrameLeavesWhatWasAtThePath) {
    // A run stopped (an error, Ctrl-C) before its first frame: the video the
    // user had there stays as it was, and no temporary is left beside it.
    fs::path dir = testDir("video_no_frame");
    fs::path path = dir / "out.mp4";
    { std::ofstream(path) << "the video of an earlier run"; }
    {
        VideoEncoder video(path.string(), kWidth, kHeight, 24.0, OutputSettings{});
        video.finish();
    }
    {
        VideoEncoder video(path.string(), kWidth, kHeight, 24.0, OutputSettings{});
    }  // destroyed unfinished, as by an exception
    std::ifstream in(path);
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "the video of an earlier run");
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename(), "out.mp4") << "left behind: " << e.path();
}

TEST(Video, OddSizeIsRefused) {
    fs::path dir = testDir("video_odd");
    try {
        VideoEncoder video((dir / "odd.mp4").string(), 1281, 720, 24.0, OutputSettings{});
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_STREQ(
            e.what(),
            "render.width and render.height must be even for H.264 (got 1281x720; try 1280x720)");
    }
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST(Video, UnwritableFolderIsARunError) {
    fs::path dir = testDir("video_unwritable");
    EXPECT_THROW(VideoEncoder((dir / "missing" / "out.mp4").string(), kWidth, kHeight, 24.0,
                              OutputSettings{}),
                 RunError);
}

}  // namespace
}  // namespace plume
