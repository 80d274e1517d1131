#include "io/mesh_sequence.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "io/mesh_file.h"
#include "io/scene_geometry.h"
#include "io/sequence.h"
#include "io/sequence_motion.h"

namespace plume {

namespace {

// What loading found out about one file.
struct FileCheck {
    std::string problem;  // why it cannot be used; "" when it can
    std::size_t openEdges = 0;
    Vec3f lo{1e30f}, hi{-1e30f};
};

FileCheck checkFile(const std::string& path) {
    FileCheck c;
    try {
        const TriangleMesh mesh = readMeshFile(path);
        if (mesh.triangles.empty()) {
            c.problem = "'" + path + "' has no triangles";
            return c;
        }
        c.openEdges = countOpenEdges(mesh);
        for (Vec3f p : mesh.points) c.lo = vmin(c.lo, p), c.hi = vmax(c.hi, p);
    } catch (const GeometryError& e) {
        c.problem = e.what();
    }
    return c;
}

std::string openEdgesText(std::size_t open) {
    return std::to_string(open) + (open == 1 ? " open edge" : " open edges");
}

class MeshSequence final : public ShapeSequence {
  public:
    MeshSequence(const MeshSequenceSettings& settings, std::vector<SequenceFile> files, Vec3f lo,
                 Vec3f hi)
        : settings_(settings), files_(std::move(files)), lo_(lo), hi_(hi) {}

    SolidPose solidAt(double frame) const override {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& [at, pose] : poses_)
            if (at == frame) return pose;
        const Moment m = where(frame);
        SolidPose pose;
        if (m.hold || m.s == 0.0f) {
            // A file's own frame (what the renderer asks for): its SDF as
            // built. The path turns there, so it has no one velocity; the
            // solver asks only between files (a substep's middle never falls
            // on a frame).
            pose.levelSet = file(m.a).levelSet;
        } else {
            const Interval in = interval(m.a);
            pose.velocity = in.velocity;
            if (in.displacement) {
                pose.levelSet = std::make_shared<LevelSet>(
                    warpBlend(*in.a.levelSet, *in.b.levelSet, *in.displacement, in.lattice, m.s));
            } else {
                pose.levelSet = m.s < 0.5f ? in.a.levelSet : in.b.levelSet;
            }
        }
        // The solver asks for a substep's middle and its start, the renderer for frames.
        poses_.insert(poses_.begin(), {frame, pose});
        if (poses_.size() > 4) poses_.pop_back();
        return pose;
    }

    std::shared_ptr<const TriangleMesh> surfaceAt(double frame) const override {
        std::lock_guard<std::mutex> lock(mutex_);
        const Moment m = where(frame);
        if (m.hold || m.s == 0.0f) return file(m.a).mesh;
        const Loaded a = file(m.a), b = file(m.a + 1);
        if (sameTopology(*a.mesh, *b.mesh))
            return std::make_shared<TriangleMesh>(interpolateMesh(*a.mesh, *b.mesh, m.s));
        return m.s < 0.5f ? a.mesh : b.mesh;
    }

    void bounds(Vec3f& lo, Vec3f& hi) const { lo = lo_, hi = hi_; }

  private:
    // A file's mesh and SDF, built once while it is near the moments asked for.
    struct Loaded {
        int number = 0;
        std::shared_ptr<const TriangleMesh> mesh;
        std::shared_ptr<const LevelSet> levelSet;
    };
    // Two consecutive files and what lies between them: the displacement
    // field where they share their topology, and the surface's velocity.
    struct Interval {
        Loaded a, b;
        Lattice lattice;
        std::shared_ptr<const Grid3<Vec3f>> displacement;  // null: topology differs
        std::shared_ptr<const SurfaceVelocity> velocity;
    };
    // A moment: file `a` and the fraction s of the way to the next; `hold`
    // before the first file and after the last.
    struct Moment {
        int a = 0;
        float s = 0.0f;
        bool hold = false;
    };

    Moment where(double frame) const {
        const double number = frame + double(settings_.startFrame - 1);
        const int first = files_.front().frame, last = files_.back().frame;
        if (number <= double(first)) return {first, 0.0f, true};
        if (number >= double(last)) return {last, 0.0f, true};
        const double a = std::floor(number);
        return {int(a), float(number - a), false};
    }

    Loaded file(int number) const {
        for (const Loaded& l : loaded_)
            if (l.number == number) return l;
        const std::string& path = files_[std::size_t(number - files_.front().frame)].path;
        Loaded l;
        l.number = number;
        try {
            auto mesh = std::make_shared<TriangleMesh>(readMeshFile(path));
            l.levelSet = std::make_shared<LevelSet>(
                levelSetFromMesh(*mesh, settings_.voxelSize, settings_.bandVoxels));
            l.mesh = std::move(mesh);
        } catch (const GeometryError& e) {
            throw RunError(std::string("mesh sequence: ") + e.what() +
                           " (it changed after loading)");
        }
        // The files either side of the moments asked for (they move forward).
        loaded_.insert(loaded_.begin(), l);
        if (loaded_.size() > 3) loaded_.pop_back();
        return l;
    }

    Interval interval(int a) const {
        for (const Interval& in : intervals_)
            if (in.a.number == a) return in;
        Interval in;
        in.a = file(a);
        in.b = file(a + 1);
        in.lattice = unite(latticeOf(*in.a.levelSet), latticeOf(*in.b.levelSet));
        const float seconds = float(1.0 / settings_.fps);
        auto velocity = std::make_shared<SurfaceVelocity>();
        if (sameTopology(*in.a.mesh, *in.b.mesh)) {
            float farthest = 0.0f;
            for (std::size_t v = 0; v < in.a.mesh->points.size(); ++v)
                farthest = std::max(farthest, length(in.b.mesh->points[v] - in.a.mesh->points[v]));
            // Wherever the warp samples: around either end's surface, and
            // all the way between them.
            const float reach =
                settings_.velocityThroughout
                    ? float(in.lattice.n.x + in.lattice.n.y + in.lattice.n.z) * settings_.voxelSize
                    : farthest + (settings_.bandVoxels + 1.0f) * settings_.voxelSize;
            auto displacement = std::make_shared<Grid3<Vec3f>>(
                displacementField(*in.a.mesh, *in.b.mesh, in.lattice, reach));
            velocity->velocity = *displacement;
            for (Vec3f& v : velocity->velocity.values()) v = v / seconds;
            velocity->origin = in.lattice.origin();
            velocity->voxelSize = in.lattice.voxelSize;
            in.displacement = std::move(displacement);
        } else {
            *velocity = levelSetVelocity(*in.a.levelSet, *in.b.levelSet, in.lattice, seconds);
        }
        in.velocity = std::move(velocity);
        intervals_.insert(intervals_.begin(), in);
        if (intervals_.size() > 2) intervals_.pop_back();
        return in;
    }

    MeshSequenceSettings settings_;
    std::vector<SequenceFile> files_;  // one a frame, consecutive
    Vec3f lo_, hi_;
    mutable std::mutex mutex_;
    mutable std::vector<Loaded> loaded_;
    mutable std::vector<Interval> intervals_;
    mutable std::vector<std::pair<double, SolidPose>> poses_;
};

}  // namespace

std::shared_ptr<const ShapeSequence> openMeshSequence(const MeshSequenceSettings& settings) {
    std::vector<SequenceFile> files;
    try {
        files = expandSequence(settings.pattern, "mesh");
    } catch (const std::exception& e) {  // RunError: nothing matches; InputError: not a file
        throw GeometryError(e.what());
    }
    for (std::size_t i = 1; i < files.size(); ++i)
        if (files[i].frame != files[i - 1].frame + 1)
            throw GeometryError("'" + framePatternFile(settings.pattern, files[i - 1].frame + 1) +
                                "' is missing (the sequence has files for frames " +
                                std::to_string(files.front().frame) + " to " +
                                std::to_string(files.back().frame) +
                                ": it needs every one between)");

    // Every file read and checked now, side by side; the first problem in
    // frame order is the one reported.
    std::vector<FileCheck> checks(files.size());
    parallelForRange(int(files.size()), [&](int f0, int f1) {
        for (int f = f0; f < f1; ++f)
            checks[std::size_t(f)] = checkFile(files[std::size_t(f)].path);
    });
    const auto closed = std::find_if(checks.begin(), checks.end(), [](const FileCheck& c) {
        return c.problem.empty() && c.openEdges == 0;
    });
    Vec3f lo(1e30f), hi(-1e30f);
    for (std::size_t f = 0; f < files.size(); ++f) {
        const FileCheck& c = checks[f];
        if (!c.problem.empty()) throw GeometryError(c.problem);
        if (c.openEdges) {
            std::string why =
                "'" + files[f].path + "' is not closed (" + openEdgesText(c.openEdges);
            if (closed != checks.end())
                why += "), while '" + files[std::size_t(closed - checks.begin())].path + "' is";
            else
                why += ")";
            throw GeometryError(why);
        }
        lo = vmin(lo, c.lo);
        hi = vmax(hi, c.hi);
    }
    return std::make_shared<MeshSequence>(settings, std::move(files), lo, hi);
}

void sequenceBounds(const ShapeSequence& sequence, Vec3f& lo, Vec3f& hi) {
    static_cast<const MeshSequence&>(sequence).bounds(lo, hi);
}

}  // namespace plume
