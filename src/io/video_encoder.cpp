#include "io/video_encoder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

extern "C" {
#include <libavutil/imgutils.h>
}

#include "core/atomic_file.h"
#include "core/disk_reserve.h"
#include "core/error.h"
#include "core/report.h"
#include "io/libav.h"

namespace plume {

namespace {

std::string avError(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    libav().av_strerror(code, text, sizeof text);
    return text;
}

// Frame rate as a rational: whole numbers exactly, NTSC rates (23.976, 29.97,
// 59.94) as n*1000/1001, anything else as the nearest fraction MPEG-4 accepts.
AVRational frameRate(double fps) {
    double whole = std::round(fps);
    if (std::fabs(fps - whole) < 1e-9) return {int(whole), 1};
    double ntsc = std::round(fps * 1.001);
    if (std::fabs(fps - ntsc * 1000.0 / 1001.0) < 2e-3) return {int(ntsc) * 1000, 1001};
    return libav().av_d2q(fps, 65535);
}

// Whether the disk holding the video has room for faststart's copy of it (the
// muxer writes the file again with its index in front, then removes the first).
bool roomToCopy(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    const auto space = std::filesystem::space(folder.empty() ? "." : folder, error);
    if (error) return false;
    return space.available > size + size / 4 + (4u << 20);
}

// MPEG-4 part 2 has no CRF; map it onto the fixed quantiser scale (2 best .. 31).
int mpeg4Quantiser(int crf) { return std::clamp(int(std::lround(crf / 6.0)), 2, 31); }

}  // namespace

struct VideoEncoder::Impl {
    std::string path;
    // "path.partial" until finish(); removed if the video never gets there.
    std::optional<AtomicFile> partial;
    // Room for what finish() writes: the packets the encoder still holds and
    // the index, so a run ended by a full disk leaves a video that plays.
    std::optional<DiskReserve> reserve;
    int width = 0, height = 0;
    int frames = 0;
    int packets = 0;
    std::uint64_t packetBytes = 0;
    std::string codecName;
    bool finished = false;

    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;

    ~Impl() {
        libav().sws_freeContext(sws);
        libav().av_packet_free(&packet);
        libav().av_frame_free(&frame);
        libav().avcodec_free_context(&codec);
        if (format) {
            if (format->pb) libav().avio_closep(&format->pb);
            libav().avformat_free_context(format);
        }
    }

    void check(int code, const char* what) const {
        if (code < 0) throw RunError("video " + path + ": " + what + ": " + avError(code));
    }

    // Moves every packet the encoder has ready into the file.
    void drain() {
        for (;;) {
            int r = libav().avcodec_receive_packet(codec, packet);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
            check(r, "encoding failed");
            if (packet->duration <= 0) packet->duration = 1;  // one frame in the codec time base
            libav().av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            const int size = packet->size;
            check(libav().av_interleaved_write_frame(format, packet), "writing a packet failed");
            ++packets;
            packetBytes += std::uint64_t(size);
        }
    }

    // Twice the packets the encoder holds (at the mean size so far, or a
    // twentieth of a raw frame before the first), and the index.
    std::uint64_t endBytes() const {
        const std::uint64_t held = std::uint64_t(std::max(0, frames - packets) + 8);
        const std::uint64_t mean =
            packets > 0 ? packetBytes / std::uint64_t(packets) : std::uint64_t(width) * height * 3 / 40;
        return 2 * held * mean + 32 * std::uint64_t(frames) + (64u << 10);
    }
};

VideoEncoder::VideoEncoder(const std::string& path, int width, int height, double fps,
                           const OutputSettings& out)
    : impl_(std::make_unique<Impl>()) {
    if (width % 2 != 0 || height % 2 != 0) {
        int w = std::max(2, width & ~1), h = std::max(2, height & ~1);
        throw InputError("render.width and render.height must be even for H.264 (got " +
                         std::to_string(width) + "x" + std::to_string(height) + "; try " +
                         std::to_string(w) + "x" + std::to_string(h) + ")");
    }
    if (width <= 0 || height <= 0)
        throw InputError("render.width and render.height must be positive");
    if (!(fps > 0)) throw InputError("output.fps must be positive");
    Impl& m = *impl_;
    m.path = path;
    m.width = width;
    m.height = height;

    // libx264 prints its settings and statistics at the default level.
    if (libav().av_log_get_level() == AV_LOG_INFO) libav().av_log_set_level(AV_LOG_ERROR);

    // Pick the codec.
    const AVCodec* codec = nullptr;
    if (out.codec == Codec::H264) {
        codec = libav().avcodec_find_encoder_by_name("libx264");
        if (!codec) warn("libx264 is not available; writing MPEG-4 part 2 video instead of H.264");
    }
    if (!codec) codec = libav().avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    if (!codec)
        throw RunError("video " + path + ": neither libx264 nor an MPEG-4 encoder is available");
    m.codecName = codec->name;

    m.partial.emplace(path, ".partial", "an MP4");
    const std::string& partialPath = m.partial->tempPath();
    // The muxer cannot guess "mp4" from the temporary name.
    m.check(libav().avformat_alloc_output_context2(&m.format, nullptr, "mp4", partialPath.c_str()),
            "cannot create the MP4 muxer");
    m.stream = libav().avformat_new_stream(m.format, nullptr);
    m.codec = libav().avcodec_alloc_context3(codec);
    m.frame = libav().av_frame_alloc();
    m.packet = libav().av_packet_alloc();
    if (!m.stream || !m.codec || !m.frame || !m.packet)
        throw RunError("video " + path + ": out of memory");

    // Encoder: yuv420p, limited range, BT.709 primaries and matrix. The
    // pixels are sRGB-encoded (render/output/tone_map.h), so the transfer tagged is
    // sRGB's (IEC 61966-2-1), not BT.709's camera curve: a player that
    // honours the tag shows the frames as the PNGs look.
    const AVRational rate = frameRate(fps);
    AVCodecContext* c = m.codec;
    c->width = width;
    c->height = height;
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->time_base = av_inv_q(rate);
    c->framerate = rate;
    c->color_primaries = AVCOL_PRI_BT709;
    c->color_trc = AVCOL_TRC_IEC61966_2_1;
    c->colorspace = AVCOL_SPC_BT709;
    c->color_range = AVCOL_RANGE_MPEG;
    if (m.format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (m.codecName == "libx264") {
        m.check(libav().av_opt_set(c->priv_data, "preset", out.preset.c_str(), 0), "unknown output.preset");
        m.check(libav().av_opt_set_double(c->priv_data, "crf", out.crf, 0), "invalid output.crf");
    } else {
        c->flags |= AV_CODEC_FLAG_QSCALE;
        c->global_quality = FF_QP2LAMBDA * mpeg4Quantiser(out.crf);
        c->gop_size = std::max(1, int(std::lround(2 * fps)));
    }
    int r = libav().avcodec_open2(c, codec, nullptr);
    if (r < 0)
        throw RunError("video " + path + ": cannot open the " + m.codecName +
                       " encoder (preset \"" + out.preset + "\", crf " + std::to_string(out.crf) +
                       "): " + avError(r));
    m.check(libav().avcodec_parameters_from_context(m.stream->codecpar, c), "cannot copy codec parameters");
    m.stream->time_base = c->time_base;
    m.stream->avg_frame_rate = rate;

    // RGB -> BT.709 limited-range YUV 4:2:0.
    m.sws = libav().sws_getContext(width, height, AV_PIX_FMT_RGB24, width, height, AV_PIX_FMT_YUV420P,
                           SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr,
                           nullptr);
    if (!m.sws) throw RunError("video " + path + ": cannot create the colour converter");
    const int* bt709 = libav().sws_getCoefficients(SWS_CS_ITU709);
    if (libav().sws_setColorspaceDetails(m.sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) < 0)
        throw RunError("video " + path + ": the colour converter does not support BT.709");
    m.frame->format = AV_PIX_FMT_YUV420P;
    m.frame->width = width;
    m.frame->height = height;
    m.frame->color_primaries = AVCOL_PRI_BT709;
    m.frame->color_trc = AVCOL_TRC_IEC61966_2_1;
    m.frame->colorspace = AVCOL_SPC_BT709;
    m.frame->color_range = AVCOL_RANGE_MPEG;
    m.check(libav().av_frame_get_buffer(m.frame, 0), "cannot allocate a frame");

    // Open the temporary file and write the header; from here on a failure
    // must not leave the partial file behind.
    try {
        m.check(libav().avio_open(&m.format->pb, partialPath.c_str(), AVIO_FLAG_WRITE),
                ("cannot open " + partialPath + " for writing").c_str());
        AVDictionary* options = nullptr;
        // faststart moves the index to the front by reading the file back,
        // which a device written in place (/dev/null) cannot give.
        if (!m.partial->inPlace()) libav().av_dict_set(&options, "movflags", "+faststart", 0);
        r = libav().avformat_write_header(m.format, &options);
        libav().av_dict_free(&options);
        m.check(r, "cannot write the MP4 header");
        if (!m.partial->inPlace()) {
            m.reserve.emplace(std::filesystem::path(partialPath).parent_path().string());
            m.reserve->grow(m.endBytes());
        }
    } catch (...) {
        if (m.format->pb) libav().avio_closep(&m.format->pb);
        m.partial->discard();
        throw;
    }
}

VideoEncoder::~VideoEncoder() {
    try {
        finish();
    } catch (const std::exception& e) {
        warn(e.what());
    } catch (...) {
    }
}

void VideoEncoder::add(const Image& image) {
    Impl& m = *impl_;
    if (m.finished) throw RunError("video " + m.path + ": frame added after finish()");
    if (image.width != m.width || image.height != m.height)
        throw RunError("video " + m.path + ": frame is " + std::to_string(image.width) + "x" +
                       std::to_string(image.height) + ", the video " + std::to_string(m.width) +
                       "x" + std::to_string(m.height));
    if (image.channels != 3) throw RunError("video " + m.path + ": frames must be RGB");
    m.check(libav().av_frame_make_writable(m.frame), "cannot write to the frame");
    const uint8_t* src[1] = {image.pixels.data()};
    const int srcStride[1] = {3 * image.width};
    libav().sws_scale(m.sws, src, srcStride, 0, m.height, m.frame->data, m.frame->linesize);
    m.frame->pts = m.frames;
    m.check(libav().avcodec_send_frame(m.codec, m.frame), "encoding failed");
    m.drain();
    ++m.frames;
    if (m.reserve) m.reserve->grow(m.endBytes());
}

void VideoEncoder::finish() {
    Impl& m = *impl_;
    if (m.finished) return;
    m.finished = true;
    if (m.reserve) m.reserve->release();
    // A video of no frame plays nothing: whatever was at the path stays.
    if (m.frames == 0 && !m.partial->inPlace()) {
        if (m.format->pb) libav().avio_closep(&m.format->pb);
        m.partial->discard();
        return;
    }
    try {
        m.check(libav().avcodec_send_frame(m.codec, nullptr), "flushing the encoder failed");
        m.drain();
        // On a disk that filled (which may be why the run ends here) the index
        // stays at the end: a video that plays, if not from a web server before
        // it has loaded, rather than none.
        if (!m.partial->inPlace() && !roomToCopy(m.partial->tempPath())) {
            libav().av_opt_set(m.format->priv_data, "movflags", "-faststart", 0);
            warn("video " + m.path + ": the disk is nearly full, so the video's index is at its end");
        }
        m.check(libav().av_write_trailer(m.format), "cannot write the MP4 trailer");
        m.check(libav().avio_closep(&m.format->pb), "cannot close the file");
    } catch (...) {
        if (m.format->pb) libav().avio_closep(&m.format->pb);
        m.partial->discard();
        throw;
    }
    m.partial->commit();
}

int VideoEncoder::frames() const { return impl_->frames; }

std::string VideoEncoder::codecName() const { return impl_->codecName; }

}  // namespace plume
