// Moving a scene between the file's world and the domain's frame
// (placement.h), through the schema's Placement marks, so a new world
// position key moves by being marked there, with no code of its own here.
#include "scene/placement.h"

#include <string_view>

#include "scene/schema.h"

namespace plume {

namespace {

// In double, then rounded once: a world position far from the origin keeps
// every bit of its place in the domain that float can hold.
float moved(float v, float by) { return float(double(v) + double(by)); }
Vec3f moved(Vec3f v, Vec3f by) { return {moved(v.x, by.x), moved(v.y, by.y), moved(v.z, by.z)}; }

// One key's value and keyframes of element `index`, moved by `by` (a point)
// or by.z (a height).
void moveKey(Scene& s, const KeySpec& spec, std::size_t index, Animation* animation, Vec3f by) {
    const bool point = spec.placement == Placement::Point;
    SchemaValue v = spec.get(s, index);
    if (spec.kind == ValueKind::Points) {
        for (Vec3f& p : std::get<std::vector<Vec3f>>(v)) p = moved(p, by);
        spec.set(s, index, v);
    } else if (point)
        spec.set(s, index, moved(std::get<Vec3f>(v), by));
    else
        spec.set(s, index, double(moved(float(std::get<double>(v)), by.z)));
    if (!animation) return;
    for (KeyTrack& track : animation->tracks) {
        if (track.key != spec.key) continue;
        for (Key<Vec3f>& k : track.vec) k.value = moved(k.value, by);
        for (Key<float>& k : track.real) k.value = moved(k.value, by.z);
    }
}

void renumber(Animation& animation, int frames) {
    for (KeyTrack& track : animation.tracks) {
        for (Key<Vec3f>& k : track.vec) k.frame += frames;
        for (Key<float>& k : track.real) k.frame += frames;
    }
}

// Positions by `by`, frame numbers by `frames`.
void shift(Scene& s, Vec3f by, int frames) {
    for (const KeySpec& spec : sceneKeys()) {
        if (spec.alias || !spec.get) continue;
        const SectionSpec* section = findSection(spec.section);
        const std::size_t count = section->isArray ? elementCount(s, spec.section) : 1;
        const bool keyed = section->isArray || spec.section == "camera";
        for (std::size_t i = 0; i < count; ++i) {
            if (spec.placement != Placement::None)
                moveKey(s, spec, i, keyed ? &animationOf(s, spec.section, i) : nullptr, by);
            if (spec.kind == ValueKind::FrameRange) {
                auto range = std::get<std::array<int, 2>>(spec.get(s, i));
                spec.set(s, i, std::array<int, 2>{range[0] + frames, range[1] + frames});
            }
        }
    }
    for (EmitterSettings& e : s.emitters) renumber(e.animation, frames);
    for (ObstacleSettings& o : s.obstacles) renumber(o.animation, frames);
    for (LightSettings& l : s.lights) renumber(l.animation, frames);
    for (FieldSettings& f : s.fields) renumber(f.animation, frames);
    renumber(s.camera.animation, frames);
    renumber(s.physicsAnimation, frames);
}

}  // namespace

void toDomainFrame(Scene& scene) {
    shift(scene, -scene.domain.origin, -(scene.time.startFrame - 1));
}

void toFileFrame(Scene& scene) { shift(scene, scene.domain.origin, scene.time.startFrame - 1); }

}  // namespace plume
