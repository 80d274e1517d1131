// Mesh files for tests, as OBJ text: an icosphere and a box, placed and sized
// as a frame of a sequence needs them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/vec.h"

namespace plume::test {

// The unit icosphere subdivided `levels` times (20 * 4^levels triangles).
inline void unitIcosphere(int levels, std::vector<Vec3f>& v, std::vector<std::array<int, 3>>& f) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    f = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
         {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
         {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    for (Vec3f& p : v) p = normalize(p);
    for (int l = 0; l < levels; ++l) {
        std::map<std::pair<int, int>, int> mid;
        auto middle = [&](int a, int b) {
            auto key = std::minmax(a, b);
            auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            v.push_back(normalize((v[a] + v[b]) * 0.5f));
            return mid[key] = int(v.size()) - 1;
        };
        std::vector<std::array<int, 3>> next;
        for (auto [a, b, c] : f) {
            int ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
            next.insert(next.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
        }
        f = next;
    }
}

// OBJ text of points (scaled by `scale`, moved by `offset`) and triangles; `drop`
// triangles left out of the end (a hole).
inline std::string objText(const std::vector<Vec3f>& v, const std::vector<std::array<int, 3>>& f,
                           float scale = 1.0f, Vec3f offset = Vec3f(0.0f), int drop = 0) {
    std::string s;
    for (Vec3f p : v) {
        const Vec3f q = p * scale + offset;
        s += "v " + std::to_string(q.x) + " " + std::to_string(q.y) + " " + std::to_string(q.z) +
             "\n";
    }
    for (std::size_t n = 0; n + std::size_t(drop) < f.size(); ++n)
        s += "f " + std::to_string(f[n][0] + 1) + " " + std::to_string(f[n][1] + 1) + " " +
             std::to_string(f[n][2] + 1) + "\n";
    return s;
}

// An icosphere of `radius` about `center`.
inline std::string icosphereText(float radius, int levels, Vec3f center = Vec3f(0.0f),
                                 int drop = 0) {
    std::vector<Vec3f> v;
    std::vector<std::array<int, 3>> f;
    unitIcosphere(levels, v, f);
    return objText(v, f, radius, center, drop);
}

// A box of `size` about `center`, two triangles a face, outward.
inline std::string boxText(Vec3f size, Vec3f center = Vec3f(0.0f)) {
    std::vector<Vec3f> v;
    for (int c = 0; c < 8; ++c)
        v.push_back(Vec3f(c & 1 ? 0.5f : -0.5f, c & 2 ? 0.5f : -0.5f, c & 4 ? 0.5f : -0.5f) * size +
                    center);
    const std::vector<std::array<int, 3>> f = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},
                                               {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                               {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    return objText(v, f);
}

}  // namespace plume::test
