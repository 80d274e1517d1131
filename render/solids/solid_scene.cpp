#include "render/solids/solid_scene.h"

#include <embree3/rtcore.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/triangle_mesh.h"
#include "render/march/ray.h"
#include "scene/shapes.h"

namespace plume {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A world normal from a local one: the inverse transpose of scale then
// rotation is rotation times 1 / scale.
Vec3f normalToWorld(const Transform& t, Vec3f nLocal, Vec3f scale) {
    return normalize(t.toWorld({nLocal.x / (scale.x * scale.x), nLocal.y / (scale.y * scale.y),
                                nLocal.z / (scale.z * scale.z)}) -
                     t.center());
}

Vec3f facing(Vec3f n, Vec3f d) { return dot(n, d) > 0.0f ? -n : n; }

// The point of triangle abc nearest p (Ericson, Real-Time Collision
// Detection, 5.1.5): by the region of the triangle's plane p projects into.
Vec3f closestOnTriangle(Vec3f p, Vec3f a, Vec3f b, Vec3f c) {
    const Vec3f ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return a;
    const Vec3f bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return a + ab * (d1 / (d1 - d3));
    const Vec3f cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return a + ac * (d2 / (d2 - d6));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f)
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const float denom = 1.0f / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

// Faces meeting at less than this angle are shaded smooth across their edge;
// sharper edges stay hard (as Blender's Auto Smooth, at its 30 degrees).
const float kSmoothCos = std::cos(30.0f * 3.14159265f / 180.0f);

// A normal for each corner of each triangle (three a triangle): the faces
// around its vertex that lie within kSmoothCos of its own face, each weighted
// by its angle at the vertex, so a finely split face does not pull the normal
// its way. A box's flat faces come out flat, a tessellated sphere smooth.
std::vector<Vec3f> cornerNormals(const std::vector<Vec3f>& points,
                                 const std::vector<std::array<uint32_t, 3>>& triangles) {
    const size_t count = triangles.size();
    std::vector<Vec3f> face(count), angle(count);  // angle: the corners' angles in x, y, z
    std::vector<std::vector<uint32_t>> around(points.size());
    for (size_t f = 0; f < count; ++f) {
        const auto& tri = triangles[f];
        const Vec3f p[3] = {points[tri[0]], points[tri[1]], points[tri[2]]};
        face[f] = normalize(cross(p[1] - p[0], p[2] - p[0]));
        float a[3];
        for (int c = 0; c < 3; ++c) {
            const Vec3f e1 = normalize(p[(c + 1) % 3] - p[c]);
            const Vec3f e2 = normalize(p[(c + 2) % 3] - p[c]);
            a[c] = std::acos(std::clamp(dot(e1, e2), -1.0f, 1.0f));
            around[tri[c]].push_back(uint32_t(f));
        }
        angle[f] = {a[0], a[1], a[2]};
    }
    std::vector<Vec3f> normals(3 * count);
    for (size_t f = 0; f < count; ++f) {
        for (int c = 0; c < 3; ++c) {
            const uint32_t vertex = triangles[f][c];
            Vec3f sum(0.0f);
            for (uint32_t g : around[vertex]) {
                if (!(dot(face[g], face[f]) >= kSmoothCos)) continue;
                const auto& tri = triangles[g];
                const int k = tri[0] == vertex ? 0 : tri[1] == vertex ? 1 : 2;
                sum += face[g] * (k == 0 ? angle[g].x : k == 1 ? angle[g].y : angle[g].z);
            }
            const float len = length(sum);
            normals[3 * f + c] = len > 0.0f ? sum / len : face[f];
        }
    }
    return normals;
}

}  // namespace

// The meshes of one frame as world-space triangles in one Embree scene.
// Embree runs its BVH build on its own threads; the hits it returns do not
// depend on them (the nearest triangle is the nearest whatever the tree).
struct SolidScene::Meshes {
    struct Mesh {
        Vec3f center, rotation, scale;  // the placement it was built for
        const TriangleMesh* surface = nullptr;
        std::shared_ptr<const LevelSet> levelSet;  // the solver's SDF of it, for inside()
        Transform transform;
        Vec3f albedo;
        int id = 0;
        std::vector<Vec3f> points;   // world
        std::vector<Vec3f> normals;  // world, three a triangle (cornerNormals)
    };
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    std::vector<Mesh> meshes;  // by Embree geometry id

    Meshes() {
        device = rtcNewDevice("verbose=0");
        if (!device) throw RunError("renderer: Embree could not start");
    }
    ~Meshes() {
        if (scene) rtcReleaseScene(scene);
        rtcReleaseDevice(device);
    }

    bool same(const std::vector<Mesh>& wanted) const {
        if (wanted.size() != meshes.size()) return false;
        for (size_t i = 0; i < wanted.size(); ++i) {
            const Mesh &a = wanted[i], &b = meshes[i];
            if (a.surface != b.surface || !(a.center == b.center) || !(a.rotation == b.rotation) ||
                !(a.scale == b.scale) || !(a.albedo == b.albedo) || a.id != b.id)
                return false;
        }
        return true;
    }

    void build(std::vector<Mesh> wanted) {
        if (same(wanted)) return;
        if (scene) rtcReleaseScene(scene);
        meshes = std::move(wanted);
        scene = rtcNewScene(device);
        rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_HIGH);
        for (Mesh& m : meshes) {
            const Transform t(m.center, m.rotation, m.scale);
            m.transform = t;
            const TriangleMesh& surface = *m.surface;
            m.points.resize(surface.points.size());
            for (size_t v = 0; v < surface.points.size(); ++v)
                m.points[v] = t.toWorld(surface.points[v]);
            m.normals = cornerNormals(m.points, surface.triangles);

            RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
            auto* vertices = static_cast<float*>(
                rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), m.points.size()));
            for (size_t v = 0; v < m.points.size(); ++v) {
                vertices[3 * v + 0] = m.points[v].x;
                vertices[3 * v + 1] = m.points[v].y;
                vertices[3 * v + 2] = m.points[v].z;
            }
            auto* indices = static_cast<unsigned*>(
                rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                        3 * sizeof(unsigned), surface.triangles.size()));
            for (size_t f = 0; f < surface.triangles.size(); ++f)
                for (int c = 0; c < 3; ++c) indices[3 * f + c] = surface.triangles[f][c];
            rtcCommitGeometry(geometry);
            rtcAttachGeometry(scene, geometry);  // ids 0, 1, ... in order
            rtcReleaseGeometry(geometry);
        }
        rtcCommitScene(scene);
    }

    // The distance from p to the nearest triangle of any mesh, up to `far`
    // (Embree's point query over the same BVH the rays use).
    float nearest(Vec3f p, float far) const {
        struct Search {
            const Meshes* meshes;
            Vec3f p;
            float best;
        } search{this, p, far};
        RTCPointQuery query;
        query.x = p.x, query.y = p.y, query.z = p.z;
        query.time = 0.0f;
        query.radius = far;
        RTCPointQueryContext context;
        rtcInitPointQueryContext(&context);
        rtcPointQuery(scene, &query, &context, [](RTCPointQueryFunctionArguments* args) {
            auto& s = *static_cast<Search*>(args->userPtr);
            const Mesh& m = s.meshes->meshes[args->geomID];
            const auto& tri = m.surface->triangles[args->primID];
            const Vec3f q = closestOnTriangle(s.p, m.points[tri[0]], m.points[tri[1]],
                                              m.points[tri[2]]);
            const float d = length(s.p - q);
            if (!(d < s.best)) return false;
            s.best = d;
            args->query->radius = d;  // the search shrinks to it
            return true;
        }, &search);
        return search.best;
    }

    static RTCRay ray(Vec3f o, Vec3f d, float tMax) {
        RTCRay r{};
        r.org_x = o.x, r.org_y = o.y, r.org_z = o.z;
        r.dir_x = d.x, r.dir_y = d.y, r.dir_z = d.z;
        r.tnear = 0.0f;
        r.tfar = tMax;
        r.mask = ~0u;
        return r;
    }

    bool intersect(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const {
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        RTCRayHit rh{};
        rh.ray = ray(o, d, tMax);
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene, &context, &rh);
        if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) return false;
        const Mesh& m = meshes[rh.hit.geomID];
        const Vec3f face = normalize(Vec3f(rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z));
        const float u = rh.hit.u, v = rh.hit.v;
        const Vec3f* corner = &m.normals[3 * size_t(rh.hit.primID)];
        Vec3f n = normalize(corner[0] * (1.0f - u - v) + corner[1] * u + corner[2] * v);
        if (!(dot(n, face) > 0.0f)) n = face;
        hit.t = rh.ray.tfar;
        hit.normal = facing(n, d);
        hit.albedo = m.albedo;
        hit.id = m.id;
        hit.coverage = 1.0f;
        return true;
    }

    bool occluded(Vec3f o, Vec3f d, float tMax) const {
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        RTCRay r = ray(o, d, tMax);
        rtcOccluded1(scene, &context, &r);
        return r.tfar < 0.0f;  // Embree sets tfar to -inf on a hit
    }
};

SolidScene::SolidScene() = default;
SolidScene::~SolidScene() = default;

void SolidScene::place(const std::vector<ObstacleSettings>& obstacles, const GroundSettings& ground,
                       Vec3f center, float horizon) {
    shapes_.clear();
    ground_ = ground;
    center_ = center;
    horizon_ = horizon;
    lo_ = Vec3f(kInf);
    hi_ = Vec3f(-kInf);
    std::vector<Meshes::Mesh> meshes;
    for (size_t i = 0; i < obstacles.size(); ++i) {
        const ObstacleSettings& o = obstacles[i];
        if (!o.visible) continue;
        Vec3f lo, hi;
        if (o.shape == Shape::Mesh) {
            if (!o.surface) throw RunError("renderer: a mesh obstacle has no surface");
            Meshes::Mesh m;
            m.center = o.center, m.rotation = o.rotation, m.scale = o.scale;
            m.surface = o.surface.get();
            m.levelSet = o.levelSet;
            m.albedo = o.color;
            m.id = int(i) + 1;
            meshes.push_back(m);
            // Its world bounds, from its triangles' local box.
            Vec3f localLo(kInf), localHi(-kInf);
            for (Vec3f p : o.surface->points)
                localLo = vmin(localLo, p), localHi = vmax(localHi, p);
            Transform(o.center, o.rotation, o.scale).worldBounds(localLo, localHi, lo, hi);
        } else {
            const PlacedShape placed(o);
            placed.worldBounds(lo, hi);
            shapes_.push_back({o, placed.transform(), o.color, lo, hi, int(i) + 1});
        }
        lo_ = vmin(lo_, lo);
        hi_ = vmax(hi_, hi);
    }
    meshCount_ = int(meshes.size());
    if (meshCount_ > 0) {
        if (!meshes_) meshes_ = std::make_unique<Meshes>();
        meshes_->build(std::move(meshes));
    } else {
        meshes_.reset();
    }
}

bool SolidScene::hitShape(const Primitive& s, Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const {
    // In the shape's own frame the ray is o' + t d' with the same t.
    const Vec3f ol = s.transform.toLocal(o);
    const Vec3f dl = s.transform.toLocal(o + d) - ol;
    const ShapeSettings& shape = s.settings;
    float t;
    Vec3f nLocal;
    if (shape.shape == Shape::Sphere) {
        const float a = dot(dl, dl), b = dot(ol, dl), c = dot(ol, ol) - shape.radius * shape.radius;
        const float disc = b * b - a * c;
        if (disc < 0.0f || a == 0.0f) return false;
        const float root = std::sqrt(disc);
        t = (-b - root) / a;
        if (t <= 0.0f) t = (-b + root) / a;  // from inside
        if (t <= 0.0f || t >= tMax) return false;
        nLocal = ol + dl * t;
    } else {
        const Vec3f half = shape.size * 0.5f;
        const Ray local(ol, dl);
        float t0, t1;
        if (!clipRay(local, -half, half, t0, t1)) return false;
        t = t0 > 0.0f ? t0 : t1;
        if (t <= 0.0f || t >= tMax) return false;
        // The face hit: the axis on which the point is farthest out.
        const Vec3f p = ol + dl * t;
        const Vec3f q(std::fabs(p.x) / half.x, std::fabs(p.y) / half.y, std::fabs(p.z) / half.z);
        const int axis = q.x >= q.y && q.x >= q.z ? 0 : (q.y >= q.z ? 1 : 2);
        nLocal = Vec3f(0.0f);
        nLocal[axis] = p[axis] >= 0.0f ? 1.0f : -1.0f;
    }
    hit.t = t;
    hit.normal = facing(normalToWorld(s.transform, nLocal, shape.scale), d);
    hit.albedo = s.albedo;
    hit.id = s.id;
    hit.coverage = 1.0f;
    return true;
}

bool SolidScene::hitGround(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const {
    if (!ground_.enabled || d.z == 0.0f) return false;
    const float t = (ground_.height - o.z) / d.z;
    if (!(t > 0.0f && t < tMax)) return false;
    const Vec3f p = o + d * t;
    float coverage = 1.0f;
    if (ground_.size > 0.0f) {
        if (std::fabs(p.x - center_.x) > ground_.size || std::fabs(p.y - center_.y) > ground_.size)
            return false;
    } else {
        // An infinite plane fades into the background from `horizon` away to
        // three times that, so its far edge is not a hard, aliased line.
        const float f = std::clamp((t - horizon_) / (2.0f * horizon_), 0.0f, 1.0f);
        coverage = 1.0f - f * f * (3.0f - 2.0f * f);
        if (coverage <= 0.0f) return false;
    }
    hit.t = t;
    hit.normal = Vec3f(0.0f, 0.0f, o.z >= ground_.height ? 1.0f : -1.0f);
    hit.albedo = ground_.color;
    hit.id = kGroundId;
    hit.coverage = coverage;
    return true;
}

bool SolidScene::intersect(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const {
    bool any = false;
    if (hasObstacles()) {
        float t0, t1;
        if (clipRay(Ray(o, d), lo_, hi_, t0, t1) && t0 < tMax) {
            for (const Primitive& s : shapes_)
                if (hitShape(s, o, d, tMax, hit)) {
                    tMax = hit.t;
                    any = true;
                }
            if (meshes_ && meshes_->intersect(o, d, tMax, hit)) {
                tMax = hit.t;
                any = true;
            }
        }
    }
    if (hitGround(o, d, tMax, hit)) any = true;
    return any;
}

bool SolidScene::occluded(Vec3f o, Vec3f d, float tMax) const {
    if (!hasObstacles()) return false;
    float t0, t1;
    if (!clipRay(Ray(o, d), lo_, hi_, t0, t1) || t0 >= tMax) return false;
    SurfaceHit hit;
    for (const Primitive& s : shapes_)
        if (hitShape(s, o, d, tMax, hit)) return true;
    return meshes_ && meshes_->occluded(o, d, tMax);
}

float SolidScene::distance(Vec3f p, float far) const {
    if (!hasObstacles() || p.x < lo_.x - far || p.y < lo_.y - far || p.z < lo_.z - far ||
        p.x > hi_.x + far || p.y > hi_.y + far || p.z > hi_.z + far)
        return far;
    // In each shape's frame, scaled back to world metres (a lower bound for
    // a non-uniform scale, exact enough near the surface).
    float d = far;
    for (const Primitive& s : shapes_) {
        const ShapeSettings& shape = s.settings;
        d = std::min(d, s.transform.distanceToWorld(analyticDistance(
                            shape.shape, shape.radius, shape.size, s.transform.toLocal(p))));
    }
    // A mesh: the distance to its triangles, as the camera sees them; the
    // solver's SDF of it says only which side p is on (the SDF's own
    // distance bends near flat faces and would shade them in spots).
    if (meshes_ && !meshes_->meshes.empty()) {
        const float surface = meshes_->nearest(p, far);
        if (surface < far) {
            bool inside = false;
            for (const Meshes::Mesh& m : meshes_->meshes)
                inside = inside ||
                         (m.levelSet && m.levelSet->sample(m.transform.toLocal(p)) < 0.0f);
            d = std::min(d, inside ? -surface : surface);
        }
    }
    return d;
}

}  // namespace plume
