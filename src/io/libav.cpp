#include "io/libav.h"

#include <dlfcn.h>

#include <string>

#include "core/error.h"

namespace plume {

namespace {

#define PLUME_STRING(x) #x
#define PLUME_SONAME(lib, major) "lib" lib ".so." PLUME_STRING(major)

Libav load() {
    // libavformat's own dependencies open with it; each is opened by name
    // too, so each symbol is found in the library that defines it.
    const char* names[] = {PLUME_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
                           PLUME_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
                           PLUME_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
                           PLUME_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR)};
    void* handles[4] = {};
    for (int i = 0; i < 4; ++i) {
        handles[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i])
            throw RunError(std::string("cannot encode video: ") + names[i] +
                           " cannot be opened (FFmpeg's libraries; on Debian, apt install "
                           "libavcodec59 libavformat59 libswscale6)");
    }
    Libav av;
    auto find = [&](const char* name) {
        for (void* h : handles)
            if (void* f = dlsym(h, name)) return f;
        throw RunError(std::string("cannot encode video: FFmpeg's libraries lack ") + name);
    };
#define PLUME_LIBAV_FIND(name) av.name = reinterpret_cast<decltype(av.name)>(find(#name));
    PLUME_LIBAV_FUNCTIONS(PLUME_LIBAV_FIND)
#undef PLUME_LIBAV_FIND
    return av;  // the libraries stay open for the process's life
}

}  // namespace

const Libav& libav() {
    static const Libav av = load();
    return av;
}

}  // namespace plume
