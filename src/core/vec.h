// Small fixed-size vectors for world points, velocities and colours.
#pragma once

#include <cmath>

namespace plume {

struct Vec3f {
    float x = 0, y = 0, z = 0;

    constexpr Vec3f() = default;
    constexpr Vec3f(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}
    constexpr explicit Vec3f(float s) : x(s), y(s), z(s) {}

    constexpr float operator[](int a) const { return a == 0 ? x : (a == 1 ? y : z); }
    constexpr float& operator[](int a) { return a == 0 ? x : (a == 1 ? y : z); }

    constexpr Vec3f operator+(Vec3f o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3f operator-(Vec3f o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3f operator-() const { return {-x, -y, -z}; }
    constexpr Vec3f operator*(float s) const { return {x * s, y * s, z * s}; }
    constexpr Vec3f operator/(float s) const { return {x / s, y / s, z / s}; }
    constexpr Vec3f operator*(Vec3f o) const { return {x * o.x, y * o.y, z * o.z}; }
    constexpr Vec3f& operator+=(Vec3f o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    constexpr Vec3f& operator-=(Vec3f o) {
        x -= o.x;
        y -= o.y;
        z -= o.z;
        return *this;
    }
    constexpr Vec3f& operator*=(float s) {
        x *= s;
        y *= s;
        z *= s;
        return *this;
    }
    constexpr bool operator==(const Vec3f&) const = default;
};

constexpr Vec3f operator*(float s, Vec3f v) { return v * s; }
constexpr float dot(Vec3f a, Vec3f b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3f cross(Vec3f a, Vec3f b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3f a) { return std::sqrt(dot(a, a)); }
inline Vec3f normalize(Vec3f a) {
    float l = length(a);
    return l > 0 ? a / l : a;
}
inline Vec3f vmin(Vec3f a, Vec3f b) {
    return {std::fmin(a.x, b.x), std::fmin(a.y, b.y), std::fmin(a.z, b.z)};
}
inline Vec3f vmax(Vec3f a, Vec3f b) {
    return {std::fmax(a.x, b.x), std::fmax(a.y, b.y), std::fmax(a.z, b.z)};
}

struct Vec3i {
    int x = 0, y = 0, z = 0;
    constexpr int operator[](int a) const { return a == 0 ? x : (a == 1 ? y : z); }
    constexpr int& operator[](int a) { return a == 0 ? x : (a == 1 ? y : z); }
    constexpr bool operator==(const Vec3i&) const = default;
};

}  // namespace plume
