#include "core/loader_pages.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace plume {

long releaseLoaderPages() {
    FILE* smaps = std::fopen("/proc/self/smaps", "r");
    if (!smaps) return 0;
    // A file's read-only private mapping at offset 0 that holds no page of
    // its own (Anonymous: 0, so never written): dropping its pages loses
    // nothing, the next read maps the file's again.
    std::vector<std::pair<unsigned long, unsigned long>> ranges;
    unsigned long start = 0, end = 0;
    long rss = 0, released = 0;
    bool candidate = false;
    char line[4096];
    while (std::fgets(line, sizeof line, smaps)) {
        unsigned long a, b, offset, inode;
        char perms[8], dev[16];
        int path = 0;
        if (std::sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &a, &b, perms, &offset, dev, &inode,
                        &path) == 6) {
            start = a;
            end = b;
            candidate = std::strcmp(perms, "r--p") == 0 && offset == 0 && inode != 0 &&
                        line[path] == '/';
            rss = 0;
        } else if (candidate && std::sscanf(line, "Rss: %ld kB", &rss) == 1) {
        } else if (candidate && std::strncmp(line, "Anonymous:", 10) == 0) {
            long anonymous = 0;
            std::sscanf(line + 10, "%ld", &anonymous);
            if (anonymous == 0 && rss > 0) {
                ranges.emplace_back(start, end);
                released += rss;
            }
            candidate = false;
        }
    }
    std::fclose(smaps);
    for (const auto& [a, b] : ranges)
        if (madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED) != 0) released = 0;
    return released;
}

}  // namespace plume
