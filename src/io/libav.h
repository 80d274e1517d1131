// FFmpeg's libraries, opened when a video is first encoded rather than when
// plume starts: a bake, a render to images or a farm task never maps them,
// nor the hundred-odd libraries Debian's libavcodec and libavformat load
// (about 19 MB a process, and the start-up they take).
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace plume {

// The functions the video encoder calls, by their own names.
#define PLUME_LIBAV_FUNCTIONS(X)                                                                 \
    X(av_d2q) X(av_dict_free) X(av_dict_set) X(av_frame_alloc) X(av_frame_free)                \
    X(av_frame_get_buffer) X(av_frame_make_writable) X(av_interleaved_write_frame)             \
    X(av_log_get_level) X(av_log_set_level) X(av_opt_set) X(av_opt_set_double)                \
    X(av_packet_alloc) X(av_packet_free) X(av_packet_rescale_ts) X(av_strerror)                \
    X(av_write_trailer) X(avcodec_alloc_context3) X(avcodec_find_encoder)                      \
    X(avcodec_find_encoder_by_name) X(avcodec_free_context) X(avcodec_open2)                   \
    X(avcodec_parameters_from_context) X(avcodec_receive_packet) X(avcodec_send_frame)         \
    X(avformat_alloc_output_context2) X(avformat_free_context) X(avformat_new_stream)          \
    X(avformat_write_header) X(avio_closep) X(avio_open) X(sws_freeContext)                    \
    X(sws_getCoefficients) X(sws_getContext) X(sws_scale) X(sws_setColorspaceDetails)

struct Libav {
#define PLUME_LIBAV_POINTER(name) decltype(&::name) name = nullptr;
    PLUME_LIBAV_FUNCTIONS(PLUME_LIBAV_POINTER)
#undef PLUME_LIBAV_POINTER
};

// The libraries of the major versions plume was built against, opened once;
// a RunError naming the one missing when they cannot be.
const Libav& libav();

}  // namespace plume
