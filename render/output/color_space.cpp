#include "render/output/color_space.h"

#include <OpenColorIO/OpenColorIO.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/error.h"
#include "scene/scene.h"

namespace OCIO = OCIO_NAMESPACE;

namespace plume {

namespace {

constexpr const char* kRec709 = "lin_rec709";

// Linear Rec. 709 to CIE XYZ (D65).
constexpr Matrix3 kRec709ToXyz{0.4123908f, 0.3575843f, 0.1804808f, 0.2126390f, 0.7151687f,
                               0.0721923f, 0.0193308f, 0.1191948f, 0.9505322f};

// Primaries and white (x, y) that name a space outright: a space whose
// matrix from Rec. 709 is one of these gets its standard chromaticities
// (ACEScg's white is ACES' D60, which no matrix through D65 reveals).
struct KnownPrimaries {
    Matrix3 fromRec709;
    std::array<float, 8> xy;
};
const KnownPrimaries kKnown[] = {
    {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0.64f, 0.33f, 0.30f, 0.60f, 0.15f, 0.06f, 0.3127f, 0.3290f}},
    // AP1 (ACEScg, ACEScct), D60.
    {{0.6130974f, 0.3395231f, 0.0473794f, 0.0701937f, 0.9163539f, 0.0134524f, 0.0206156f,
      0.1095698f, 0.8698147f},
     {0.713f, 0.293f, 0.165f, 0.830f, 0.128f, 0.044f, 0.32168f, 0.33767f}},
    // AP0 (ACES2065-1), D60.
    {{0.4396330f, 0.3829887f, 0.1773783f, 0.0897764f, 0.8134394f, 0.0967841f, 0.0175412f,
      0.1115466f, 0.8709123f},
     {0.7347f, 0.2653f, 0.0f, 1.0f, 0.0001f, -0.0770f, 0.32168f, 0.33767f}},
};

Matrix3 inverse(const Matrix3& m) {
    const double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7],
                 i = m[8];
    const double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    return {
        float((e * i - f * h) / det), float((c * h - b * i) / det), float((b * f - c * e) / det),
        float((f * g - d * i) / det), float((a * i - c * g) / det), float((c * d - a * f) / det),
        float((d * h - e * g) / det), float((b * g - a * h) / det), float((a * e - b * d) / det)};
}

Matrix3 multiply(const Matrix3& a, const Matrix3& b) {
    Matrix3 m{};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) m[r * 3 + c] += a[r * 3 + k] * b[k * 3 + c];
    return m;
}

bool near(const Matrix3& a, const Matrix3& b) {
    for (int k = 0; k < 9; ++k)
        if (std::fabs(a[k] - b[k]) > 2e-3f) return false;
    return true;
}

// The chromaticities of a space whose RGB is M times Rec. 709's: its
// primaries and white in XYZ are the columns (and row sums) of XYZ-from-Rec709
// times M's inverse.
std::array<float, 8> chromaticitiesOf(const Matrix3& fromRec709) {
    for (const KnownPrimaries& k : kKnown)
        if (near(fromRec709, k.fromRec709)) return k.xy;
    const Matrix3 toXyz = multiply(kRec709ToXyz, inverse(fromRec709));
    std::array<float, 8> xy{};
    for (int p = 0; p < 4; ++p) {
        Vec3f c;
        if (p < 3)
            c = Vec3f(toXyz[p], toXyz[3 + p], toXyz[6 + p]);
        else
            c = Vec3f(toXyz[0] + toXyz[1] + toXyz[2], toXyz[3] + toXyz[4] + toXyz[5],
                      toXyz[6] + toXyz[7] + toXyz[8]);
        const float sum = c.x + c.y + c.z;
        xy[size_t(2 * p)] = sum != 0.0f ? c.x / sum : 0.0f;
        xy[size_t(2 * p + 1)] = sum != 0.0f ? c.y / sum : 0.0f;
    }
    return xy;
}

// The 3x3 matrix a CPU processor applies, read off the unit vectors; empty
// when it is not one (a log or display space is not a working space).
bool matrixOf(const OCIO::ConstCPUProcessorRcPtr& cpu, Matrix3& m) {
    for (int c = 0; c < 3; ++c) {
        float v[3] = {0, 0, 0};
        v[c] = 1;
        cpu->applyRGB(v);
        for (int r = 0; r < 3; ++r) m[size_t(r * 3 + c)] = v[r];
    }
    const Vec3f probe(0.25f, 4.0f, 0.0625f);
    float v[3] = {probe.x, probe.y, probe.z};
    cpu->applyRGB(v);
    const Vec3f want = matrixTimes(m, probe);
    const Vec3f got(v[0], v[1], v[2]);
    return length(got - want) <= 1e-4f * (1.0f + length(want));
}

std::shared_ptr<const WorkingSpace> resolve(const std::string& name, const std::string& studio,
                                            const SourceLocation& where) {
    const std::string shipped = shippedConfigPath();
    if (shipped.empty())
        throw RunError("plume's OpenColorIO config (share/plume/plume.ocio) is missing beside " +
                       std::filesystem::read_symlink("/proc/self/exe").string() +
                       ": reinstall plume");
    try {
        const OCIO::ConstConfigRcPtr ours = OCIO::Config::CreateFromFile(shipped.c_str());
        const OCIO::ConstConfigRcPtr config =
            studio.empty() ? ours : OCIO::Config::CreateFromFile(studio.c_str());
        const std::string from = studio.empty() ? "plume's config" : "$OCIO's " + studio;
        if (!config->getColorSpace(name.c_str()))
            throw InputError(where, "'output.color_space' = \"" + name + "\": " + from +
                                        " has no such colour space");
        // Rec. 709 to the space: within plume's config, or across to the
        // studio's through their aces_interchange roles.
        OCIO::ConstProcessorRcPtr there, back;
        if (studio.empty()) {
            there = ours->getProcessor(kRec709, name.c_str());
            back = ours->getProcessor(name.c_str(), kRec709);
        } else {
            there = OCIO::Config::GetProcessorFromConfigs(ours, kRec709, config, name.c_str());
            back = OCIO::Config::GetProcessorFromConfigs(config, name.c_str(), ours, kRec709);
        }
        auto space = std::make_shared<WorkingSpace>();
        space->name = name;
        space->config = studio.empty() ? shipped : studio;
        if (!matrixOf(there->getDefaultCPUProcessor(), space->fromRec709))
            throw InputError(where, "'output.color_space' = \"" + name +
                                        "\": not a scene-linear space (" + from +
                                        " relates it to linear Rec. 709 by more than a matrix)");
        const OCIO::ConstCPUProcessorRcPtr cpu = back->getDefaultCPUProcessor();
        matrixOf(cpu, space->toRec709);
        space->rec709 = there->isNoOp() || near(space->fromRec709, kKnown[0].fromRec709);
        space->chromaticities = chromaticitiesOf(space->fromRec709);
        for (int r = 0; r < 3; ++r) {
            const float* row = &space->fromRec709[size_t(r * 3)];
            const float sum = row[0] + row[1] + row[2];
            for (int c = 0; c < 3; ++c)
                space->albedoFromRec709[size_t(r * 3 + c)] = sum != 0.0f ? row[c] / sum : 0.0f;
        }
        space->processor = std::make_shared<const OCIO::ConstCPUProcessorRcPtr>(cpu);
        return space;
    } catch (const OCIO::Exception& e) {
        std::string why = e.what();
        for (char& c : why)
            if (c == '\n') c = ' ';
        throw InputError(where, "'output.color_space' = \"" + name + "\": OpenColorIO: " + why);
    }
}

}  // namespace

Vec3f matrixTimes(const Matrix3& m, Vec3f c) {
    return {m[0] * c.x + m[1] * c.y + m[2] * c.z, m[3] * c.x + m[4] * c.y + m[5] * c.z,
            m[6] * c.x + m[7] * c.y + m[8] * c.z};
}

void WorkingSpace::toRec709Pixels(float* data, long pixels, int channels) const {
    if (rec709 || pixels <= 0) return;
    const auto& cpu = *static_cast<const OCIO::ConstCPUProcessorRcPtr*>(processor.get());
    OCIO::PackedImageDesc image(data, pixels, 1, channels);
    cpu->apply(image);
}

std::shared_ptr<const WorkingSpace> workingSpaceOf(const std::array<float, 8>& xy) {
    const char* names[] = {kRec709, "acescg", "aces2065_1"};
    for (size_t k = 0; k < std::size(kKnown); ++k) {
        bool same = true;
        for (size_t i = 0; i < 8; ++i) same = same && std::fabs(xy[i] - kKnown[k].xy[i]) < 1e-3f;
        if (!same) continue;
        if (k == 0) return std::make_shared<const WorkingSpace>();
        static std::mutex mutex;
        static std::map<size_t, std::shared_ptr<const WorkingSpace>> spaces;
        const std::lock_guard lock(mutex);
        auto& space = spaces[k];
        if (!space) space = resolve(names[k], "", SourceLocation{"plume's config"});
        return space;
    }
    return nullptr;
}

std::string shippedConfigPath() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path dir = exe.parent_path();
    for (const auto& candidate :
         {dir / ".." / "share" / "plume" / "plume.ocio", dir / "share" / "plume" / "plume.ocio"})
        if (std::filesystem::is_regular_file(candidate, ec))
            return std::filesystem::weakly_canonical(candidate, ec).string();
    return {};
}

std::shared_ptr<const WorkingSpace> workingSpace(const Scene& scene) {
    const std::string& name = scene.output.colorSpace;
    const char* env = std::getenv("OCIO");
    const std::string studio = env ? env : "";
    const bool given = !scene.output.colorSpaceAt.empty();
    // Linear Rec. 709 by default: nothing to convert, no config to read.
    static const auto identity = std::make_shared<const WorkingSpace>();
    if (name == kRec709 && (studio.empty() || !given)) return identity;

    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, std::shared_ptr<const WorkingSpace>>
        resolved;
    const std::lock_guard lock(mutex);
    auto& space = resolved[{studio, name}];
    if (!space) {
        const SourceLocation where{given ? scene.output.colorSpaceAt : scene.path};
        space = resolve(name, studio, where);
    }
    return space;
}

}  // namespace plume
