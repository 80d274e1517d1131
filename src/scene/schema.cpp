#include "scene/schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "scene/flame_units.h"

namespace plume {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Common ranges.
constexpr ValueRange kAny{};                    // finite, any sign
constexpr ValueRange kNonNegative{0, kInf};     // rates, colours, amounts
constexpr ValueRange kPositive{0, kInf, true};  // lengths
constexpr ValueRange kUnit{0, 1};

// The struct a key lives in, for scene s and (array sections) element i.
template <typename T>
using PartOf = T& (*)(Scene&, std::size_t);

DomainSettings& domainPart(Scene& s, std::size_t) { return s.domain; }
TimeSettings& timePart(Scene& s, std::size_t) { return s.time; }
PhysicsSettings& physicsPart(Scene& s, std::size_t) { return s.physics; }
SolverSettings& solverPart(Scene& s, std::size_t) { return s.solver; }
UpresSettings& upresPart(Scene& s, std::size_t) { return s.upres; }
SparksSettings& sparksPart(Scene& s, std::size_t) { return s.sparks; }
EmitterSettings& emitterPart(Scene& s, std::size_t i) { return s.emitters.at(i); }
ShapeSettings& emitterShapePart(Scene& s, std::size_t i) { return s.emitters.at(i); }
ShapeSettings& obstacleShapePart(Scene& s, std::size_t i) { return s.obstacles.at(i); }
CameraSettings& cameraPart(Scene& s, std::size_t) { return s.camera; }
LightSettings& lightPart(Scene& s, std::size_t i) { return s.lights.at(i); }
RenderSettings& renderPart(Scene& s, std::size_t) { return s.render; }
GroundSettings& groundPart(Scene& s, std::size_t) { return s.ground; }
ObstacleSettings& obstaclePart(Scene& s, std::size_t i) { return s.obstacles.at(i); }
OutputSettings& outputPart(Scene& s, std::size_t) { return s.output; }

// Conversions between a struct member and a SchemaValue. Enums are stored as
// the index of their name in the key's choices, which follow the enum order.
template <typename M>
SchemaValue toValue(const M& m, const std::vector<std::string_view>& choices) {
    if constexpr (std::is_same_v<M, bool>)
        return SchemaValue(std::in_place_type<bool>, m);
    else if constexpr (std::is_same_v<M, int>)
        return std::int64_t{m};
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        return double(m);
    else if constexpr (std::is_same_v<M, Vec3f> || std::is_same_v<M, std::array<int, 2>>)
        return m;
    else if constexpr (std::is_same_v<M, std::string> ||
                       std::is_same_v<M, std::vector<std::string>>)
        return m;
    else {
        static_assert(std::is_enum_v<M>);
        return std::string(choices.at(static_cast<std::size_t>(m)));
    }
}

template <typename M>
void fromValue(M& m, const SchemaValue& v, const std::vector<std::string_view>& choices) {
    if constexpr (std::is_same_v<M, bool>)
        m = std::get<bool>(v);
    else if constexpr (std::is_same_v<M, int>)
        m = static_cast<int>(std::get<std::int64_t>(v));
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        m = static_cast<M>(std::get<double>(v));
    else if constexpr (std::is_same_v<M, Vec3f> || std::is_same_v<M, std::array<int, 2>> ||
                       std::is_same_v<M, std::string> ||
                       std::is_same_v<M, std::vector<std::string>>)
        m = std::get<M>(v);
    else {
        const std::string& name = std::get<std::string>(v);
        auto it = std::find(choices.begin(), choices.end(), name);
        m = static_cast<M>(it - choices.begin());
    }
}

template <typename M>
constexpr ValueKind kindOf() {
    if constexpr (std::is_same_v<M, bool>)
        return ValueKind::Bool;
    else if constexpr (std::is_same_v<M, int>)
        return ValueKind::Integer;
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        return ValueKind::Real;
    else if constexpr (std::is_same_v<M, Vec3f>)
        return ValueKind::Vec3;
    else if constexpr (std::is_same_v<M, std::array<int, 2>>)
        return ValueKind::FrameRange;
    else if constexpr (std::is_same_v<M, std::string>)
        return ValueKind::Text;
    else if constexpr (std::is_same_v<M, std::vector<std::string>>)
        return ValueKind::ChoiceList;
    else
        return ValueKind::Choice;
}

// One key bound to a struct member.
template <typename T, typename M>
KeySpec key(std::string_view section, std::string_view name, PartOf<T> part, M T::*member,
            ValueRange range, std::string_view doc, std::vector<std::string_view> choices = {}) {
    KeySpec k;
    k.section = section;
    k.key = name;
    k.kind =
        choices.empty() || kindOf<M>() == ValueKind::ChoiceList ? kindOf<M>() : ValueKind::Choice;
    k.doc = doc;
    k.range = range;
    k.choices = choices;
    k.singlePrecision = !std::is_same_v<M, double>;
    k.get = [part, member, choices](const Scene& s, std::size_t i) {
        return toValue(part(const_cast<Scene&>(s), i).*member, choices);
    };
    k.set = [part, member, choices](Scene& s, std::size_t i, const SchemaValue& v) {
        fromValue(part(s, i).*member, v, choices);
    };
    return k;
}

// `interpolation`: how a section's keys ([[SECTION.key]]) blend between frames.
// The Animation is not a plain member of the part, so the key is bound by hand.
template <typename T>
KeySpec interpolationKey(std::string_view section, PartOf<T> part) {
    static const std::vector<std::string_view> choices{"linear", "smooth"};  // Interpolation
    KeySpec k;
    k.section = section;
    k.key = "interpolation";
    k.kind = ValueKind::Choice;
    k.doc = "between keys: straight lines, or a cubic through them that never overshoots";
    k.choices = choices;
    k.get = [part](const Scene& s, std::size_t i) {
        return toValue(part(const_cast<Scene&>(s), i).animation.interpolation, choices);
    };
    k.set = [part](Scene& s, std::size_t i, const SchemaValue& v) {
        fromValue(part(s, i).animation.interpolation, v, choices);
    };
    return k;
}

// `physics.interpolation`: how [[physics.key]] blends, for the Scene's
// physicsAnimation (physics keys are not a member of PhysicsSettings).
KeySpec physicsInterpolationKey() {
    static const std::vector<std::string_view> choices{"linear", "smooth"};  // Interpolation
    KeySpec k;
    k.section = "physics";
    k.key = "interpolation";
    k.kind = ValueKind::Choice;
    k.doc =
        "between [[physics.key]] keys: straight lines, or a cubic through them that never "
        "overshoots";
    k.choices = choices;
    k.get = [](const Scene& s, std::size_t) {
        return toValue(s.physicsAnimation.interpolation, choices);
    };
    k.set = [](Scene& s, std::size_t, const SchemaValue& v) {
        fromValue(s.physicsAnimation.interpolation, v, choices);
    };
    return k;
}

// Function-local, so the table is safe to build during static initialisation.
const std::vector<std::string_view>& boundaryChoices() {
    static const std::vector<std::string_view> choices{"wall", "open", "inflow"};
    return choices;
}
// An emitter may also be points (io/point_file.h); Shape::Points comes last,
// so both lists name the shapes at their enum's index.
const std::vector<std::string_view>& shapeChoices(std::string_view section) {
    static const std::vector<std::string_view> solids{"sphere", "box", "mesh"};
    static const std::vector<std::string_view> sources{"sphere", "box", "mesh", "points"};
    return section == "emitter" ? sources : solids;
}

// The keys every shape has, emitter or obstacle.
std::vector<KeySpec> shapeKeys(std::string_view section, PartOf<ShapeSettings> part,
                               std::string_view what) {
    KeySpec scale = key(section, "scale", part, &ShapeSettings::scale, kPositive,
                        "scale of the shape: a number, or [x, y, z] along its own axes");
    scale.kind = ValueKind::Scale;
    return {
        key(section, "shape", part, &ShapeSettings::shape, kAny, what, shapeChoices(section)),
        key(section, "center", part, &ShapeSettings::center, kAny,
            "where the shape's origin goes, metres; a mesh without one stays where its file "
            "puts it (its file is in world metres)"),
        key(section, "radius", part, &ShapeSettings::radius, kPositive,
            section == "emitter" ? "sphere radius in metres; points: each point's radius where its "
                                   "file gives none (radius or pscale)"
                                 : "sphere radius in metres"),
        key(section, "size", part, &ShapeSettings::size, kPositive,
            "box extents in metres [x, y, z]"),
        key(section, "file", part, &ShapeSettings::file, kAny,
            section == "emitter"
                ? "mesh: OBJ, PLY, STL, glTF/GLB or a .vdb level set, relative to the scene file; "
                  "\"NAME_####.obj\" (or %04d): one mesh a frame, numbered as the scene's frames; "
                  "points: PLY files a frame, \"parts_####.ply\" or \"parts_%04d.ply\" numbered "
                  "as the scene's frames (a name without a number: the same points every frame)"
                : "mesh: OBJ, PLY, STL, glTF/GLB or a .vdb level set, relative to the scene file; "
                  "\"NAME_####.obj\" (or %04d): one mesh a frame, numbered as the scene's frames"),
        key(section, "rotation", part, &ShapeSettings::rotation, kAny,
            "degrees, XYZ Euler as Blender shows it (R = Rz * Ry * Rx)"),
        scale,
        interpolationKey(section, part),
    };
}

// One side of the domain; the sides follow enum Side.
KeySpec boundarySide(Side side, std::string_view name, std::string_view doc) {
    KeySpec k;
    k.section = "domain";
    k.key = name;
    k.kind = ValueKind::Choice;
    k.doc = doc;
    k.choices = boundaryChoices();
    k.get = [side](const Scene& s, std::size_t) {
        return toValue(s.domain.boundary[side], boundaryChoices());
    };
    k.set = [side](Scene& s, std::size_t, const SchemaValue& v) {
        fromValue(s.domain.boundary[side], v, boundaryChoices());
    };
    return k;
}

// "domain.boundary = ..." and "domain.boundary.all = ...": every side at once.
KeySpec boundaryAll(std::string_view name, std::string_view doc) {
    KeySpec k;
    k.section = "domain";
    k.key = name;
    k.kind = ValueKind::Choice;
    k.doc = doc;
    k.choices = boundaryChoices();
    k.alias = true;
    k.set = [](Scene& s, std::size_t, const SchemaValue& v) {
        Boundary b{};
        fromValue(b, v, boundaryChoices());
        s.domain.boundary.fill(b);
    };
    return k;
}

// "render.background = [r, g, b]": both background colours at once.
KeySpec backgroundAlias() {
    KeySpec k;
    k.section = "render";
    k.key = "background";
    k.kind = ValueKind::Vec3;
    k.doc = "shorthand setting background_top and background_bottom to one colour";
    k.range = kNonNegative;
    k.alias = true;
    k.set = [](Scene& s, std::size_t, const SchemaValue& v) {
        s.render.backgroundTop = s.render.backgroundBottom = std::get<Vec3f>(v);
    };
    return k;
}

std::vector<KeySpec> buildKeys() {
    const ValueRange kFrames{0, 1e9};
    const ValueRange kSize{0, 1e4, true};
    std::vector<KeySpec> keys = {
        // [domain]
        key("domain", "origin", domainPart, &DomainSettings::origin, kAny,
            "world position in metres of the domain's min corner (Blender's domain object "
            "anywhere); every position a scene gives is in world metres, and the domain spans "
            "origin to origin + size"),
        key("domain", "size", domainPart, &DomainSettings::size, kSize,
            "domain extent in metres [x, y, z], Z up; domain.origin is its min corner"),
        key("domain", "resolution", domainPart, &DomainSettings::resolution, {8, 1024},
            "cells along the longest axis; dx = longest side / resolution"),
        boundaryAll("boundary", "every side at once (a string), or a table of sides as below"),
        boundaryAll("boundary.all", "every side at once; the per-side keys below win over it"),
        boundarySide(kXMin, "boundary.x_min", "side at x = origin.x"),
        boundarySide(kXMax, "boundary.x_max", "side at x = origin.x + size.x"),
        boundarySide(kYMin, "boundary.y_min", "side at y = origin.y"),
        boundarySide(kYMax, "boundary.y_max", "side at y = origin.y + size.y"),
        boundarySide(kZMin, "boundary.z_min", "floor (z = origin.z)"),
        boundarySide(kZMax, "boundary.z_max", "ceiling (z = origin.z + size.z)"),
        key("domain", "inflow_velocity", domainPart, &DomainSettings::inflowVelocity, kAny,
            "velocity in m/s through every side marked inflow"),

        // [time]
        key("time", "fps", timePart, &TimeSettings::fps, {1, 240},
            "frames per second of simulated time"),
        key("time", "frames", timePart, &TimeSettings::frames, {1, 100000},
            "number of frames; frame numbers start at time.start_frame"),
        key("time", "start_frame", timePart, &TimeSettings::startFrame, {0, 1000000},
            "number of the first frame (1001 in many studios): names cache, PNG and EXR "
            "files, and is what --frames, keys' frame, emitter.frames and --stats count in"),
        key("time", "cfl", timePart, &TimeSettings::cfl, {0.1, 20},
            "substep size: dt <= cfl * dx / max speed"),
        key("time", "max_substeps", timePart, &TimeSettings::maxSubsteps, {1, 64},
            "most substeps per frame (caps the CFL rule)"),

        // [physics]
        key("physics", "buoyancy_density", physicsPart, &PhysicsSettings::buoyancyDensity,
            {-100, 100}, "alpha: smoke sinks in proportion to its density"),
        key("physics", "buoyancy_heat", physicsPart, &PhysicsSettings::buoyancyHeat, {-100, 100},
            "beta: hot smoke rises in proportion to temperature above ambient"),
        key("physics", "ambient_temperature", physicsPart, &PhysicsSettings::ambientTemperature,
            kAny, "temperature of the surrounding air"),
        key("physics", "vorticity", physicsPart, &PhysicsSettings::vorticity, {0, 100},
            "vorticity confinement epsilon: restores small swirls (0 = off)"),
        key("physics", "viscosity", physicsPart, &PhysicsSettings::viscosity, kNonNegative,
            "kinematic viscosity in m^2/s (implicit; 0 = off)"),
        key("physics", "diffusion", physicsPart, &PhysicsSettings::diffusion, kNonNegative,
            "density and temperature diffusion in m^2/s (implicit; 0 = off)"),
        key("physics", "density_dissipation", physicsPart, &PhysicsSettings::densityDissipation,
            kNonNegative, "density fades as exp(-rate * t), rate per second"),
        key("physics", "temperature_dissipation", physicsPart,
            &PhysicsSettings::temperatureDissipation, kNonNegative,
            "temperature cools as exp(-rate * t), rate per second"),
        key("physics", "gravity", physicsPart, &PhysicsSettings::gravity, kAny,
            "gravity in m/s^2; buoyancy acts against it"),
        key("physics", "wind", physicsPart, &PhysicsSettings::wind, kAny,
            "ambient wind velocity in m/s; the air relaxes toward it at 1 per second"),
        key("physics", "turbulence", physicsPart, &PhysicsSettings::turbulence, kNonNegative,
            "strength in m/s^2 of a divergence-free curl-noise force (0 = off)"),
        key("physics", "turbulence_scale", physicsPart, &PhysicsSettings::turbulenceScale,
            kPositive, "size of the turbulence swirls in metres"),
        key("physics", "ignition_temperature", physicsPart, &PhysicsSettings::ignitionTemperature,
            kAny, "fuel hotter than this burns"),
        key("physics", "burn_rate", physicsPart, &PhysicsSettings::burnRate, kNonNegative,
            "fraction of the burning fuel consumed per second"),
        key("physics", "flame_heat", physicsPart, &PhysicsSettings::flameHeat, kNonNegative,
            "temperature released per unit of fuel burnt"),
        key("physics", "flame_smoke", physicsPart, &PhysicsSettings::flameSmoke, kNonNegative,
            "smoke density made per unit of fuel burnt"),
        key("physics", "flame_smoke_color", physicsPart, &PhysicsSettings::flameSmokeColor, kUnit,
            "colour (linear RGB albedo) of the smoke fire makes, drawn when no emitter gives "
            "smoke of its own (then render.albedo, grey) or when an emitter has a color"),
        key("physics", "flame_expansion", physicsPart, &PhysicsSettings::flameExpansion,
            kNonNegative, "gas expansion (divergence, 1/s) per unit of fuel burnt per second"),
        key("physics", "flame_cooling", physicsPart, &PhysicsSettings::flameCooling, kNonNegative,
            "the flame fades as exp(-rate * t) once its fuel is gone, rate per second"),
        key("physics", "flame_vorticity", physicsPart, &PhysicsSettings::flameVorticity, {0, 100},
            "extra vorticity confinement where it burns: epsilon is physics.vorticity plus this "
            "times the flame (at most 1) in each cell (0 = off)"),
        key("physics", "flame_disturbance", physicsPart, &PhysicsSettings::flameDisturbance,
            {0, 1000},
            "m/s^2 of a push in a random direction per block, times the flame (at most 1), "
            "renewed as the push moves the gas a block: breaks the flame into licks (0 = off)"),
        key("physics", "flame_disturbance_scale", physicsPart,
            &PhysicsSettings::flameDisturbanceScale, kPositive,
            "size in metres of the disturbance's blocks"),
        key("physics", "flame_shredding", physicsPart, &PhysicsSettings::flameShredding, {0, 100},
            "rate per second at which the velocity across the flame's thin edge (along the "
            "temperature gradient) grows, tearing the edge into streaks (0 = off)"),
        key("physics", "time_scale", physicsPart, &PhysicsSettings::timeScale, {0, 100, true},
            "simulated seconds for each second of the shot: 0.25 is slow motion at the same "
            "frame rate (substeps, emission, dissipation, burning and upres follow; keyed shapes "
            "and points files keep their pace in the shot); keys on it give bullet time"),
        physicsInterpolationKey(),

        // [solver]
        key("solver", "pressure", solverPart, &SolverSettings::pressure, kAny,
            "pressure solver: multigrid-preconditioned CG, plain CG, or SOR",
            {"mgpcg", "pcg", "sor"}),
        key("solver", "tolerance", solverPart, &SolverSettings::tolerance, {1e-8, 0.5},
            "relative residual norm(r) / norm(b) at which the pressure solve stops"),
        key("solver", "max_iterations", solverPart, &SolverSettings::maxIterations, {1, 100000},
            "most pressure iterations per solve"),
        key("solver", "advection", solverPart, &SolverSettings::advection, kAny,
            "advection scheme; MacCormack keeps more detail than semi-Lagrangian, and "
            "reflection (advection-reflection: MacCormack in two half steps, the first "
            "projection's correction reflected between them) more still, for one more velocity "
            "advection and pressure solve a substep",
            {"maccormack", "semi-lagrangian", "reflection"}),
        key("solver", "sparse", solverPart, &SolverSettings::sparse, kAny,
            "simulate only boxes around the smoke, heat and sources, one per cluster apart "
            "(grown ahead of them, open to the still air beyond); false: every cell of the "
            "domain"),

        // [upres]
        key("upres", "factor", upresPart, &UpresSettings::factor, {1, 4},
            "fine cells per base cell along each axis for the scalars (1 = off); the "
            "scalars take factor^3 times the cells"),
        key("upres", "strength", upresPart, &UpresSettings::strength, {0, 10},
            "the added turbulence's speed per unit of the speed the base grid cannot resolve"),
        key("upres", "scale", upresPart, &UpresSettings::scale, kNonNegative,
            "size in metres of the largest added swirls (a second octave at half); 0 = two "
            "base cells"),
        key("upres", "speed", upresPart, &UpresSettings::speed, {0, 100},
            "how often per second the added pattern renews (it also moves with the smoke; "
            "0 = never)"),

        // [sparks] (sim/sparks.h)
        key("sparks", "rate", sparksPart, &SparksSettings::rate, kNonNegative,
            "sparks born a second per m^3 of flame above flame_threshold (0 = none from the "
            "flame)"),
        key("sparks", "flame_threshold", sparksPart, &SparksSettings::flameThreshold, kNonNegative,
            "flame a cell needs to throw sparks"),
        key("sparks", "lifetime", sparksPart, &SparksSettings::lifetime, {0, 1e4, true},
            "mean seconds a spark lives (each lives 0.5 to 1.5 times it)"),
        key("sparks", "size", sparksPart, &SparksSettings::size, {0, 10, true},
            "a spark's size across in metres (its pscale is half)"),
        key("sparks", "drag", sparksPart, &SparksSettings::drag, {0, 1e6},
            "1/s: how fast a spark takes the flow's velocity (0 = ballistic, large = follows "
            "the flow)"),
        key("sparks", "buoyancy", sparksPart, &SparksSettings::buoyancy, {-100, 100},
            "upward acceleration in g per 1000 kelvin a spark is hotter than the air"),
        key("sparks", "cooling", sparksPart, &SparksSettings::cooling, {0, 1e4},
            "1/s: how fast a spark's temperature falls toward the air's; it dies below 700 "
            "kelvin"),
        key("sparks", "temperature", sparksPart, &SparksSettings::temperature, {0, 1e5, true},
            "a spark's temperature at birth in kelvin (its blackbody colour)"),
        key("sparks", "bounce", sparksPart, &SparksSettings::bounce, kUnit,
            "fraction of its speed into a solid or wall a spark keeps, bouncing off (0 = it "
            "dies there)"),

        // [[emitter]]: the shape keys come first (buildKeys)
        key("emitter", "mode", emitterPart, &EmitterSettings::mode, kAny,
            "emit inside the shape, or in a shell around its surface", {"volume", "surface"}),
        key("emitter", "thickness", emitterPart, &EmitterSettings::thickness, kPositive,
            "surface mode: thickness of the shell in metres"),
        key("emitter", "density", emitterPart, &EmitterSettings::density, kNonNegative,
            "smoke density set inside the emitter; not given in an emitter that gives fuel, 0: "
            "a fire's smoke is the soot its burning makes (physics.flame_smoke)"),
        key("emitter", "temperature", emitterPart, &EmitterSettings::temperature, kAny,
            "temperature set inside the emitter (above ambient rises)"),
        key("emitter", "fuel", emitterPart, &EmitterSettings::fuel, kNonNegative,
            "fuel set inside the emitter; it burns where hotter than physics.ignition_temperature"),
        key("emitter", "velocity", emitterPart, &EmitterSettings::velocity, kAny,
            "velocity in m/s imposed inside the emitter when non-zero"),
        key("emitter", "frames", emitterPart, &EmitterSettings::frames, kFrames,
            "inclusive range of frames [first, last] it emits in"),
        key("emitter", "noise", emitterPart, &EmitterSettings::noise, kUnit,
            "deterministic variation of the emitted density (0 = uniform)"),
        key("emitter", "noise_scale", emitterPart, &EmitterSettings::noiseScale, kNonNegative,
            "size of the noise features in metres (0 = a third of the emitter's size)"),
        key("emitter", "noise_speed", emitterPart, &EmitterSettings::noiseSpeed, kAny,
            "noise features drift upward this many per second"),
        key("emitter", "inherit_velocity", emitterPart, &EmitterSettings::inheritVelocity, {0, 10},
            "how much of its own motion a keyed emitter gives the smoke it emits; points: how "
            "much of each point's velocity (vx, vy, vz)"),
        key("emitter", "color", emitterPart, &EmitterSettings::color, kUnit,
            "colour (linear RGB albedo) of the smoke it emits, which mixes by density with "
            "other smokes'; the cache's `color` grid. Given to no emitter: all smoke is "
            "render.albedo's grey; to another emitter only: this one's is"),

        key("emitter", "sparks", emitterPart, &EmitterSettings::sparks, kNonNegative,
            "sparks born a second inside it (the [sparks] table says how they move)"),

        // [[obstacle]]: the shape keys (buildKeys), then how it looks
        key("obstacle", "color", obstaclePart, &ObstacleSettings::color, kUnit,
            "diffuse albedo of its surface (linear RGB)"),
        key("obstacle", "visible", obstaclePart, &ObstacleSettings::visible, kAny,
            "drawn, casting shadows on smoke, ground and other solids (false: it only moves air)"),

        // [camera]
        key("camera", "position", cameraPart, &CameraSettings::position, kAny,
            "eye position in metres"),
        key("camera", "look_at", cameraPart, &CameraSettings::lookAt, kAny,
            "point the camera looks at"),
        key("camera", "up", cameraPart, &CameraSettings::up, kAny, "up direction (Z up)"),
        key("camera", "fov", cameraPart, &CameraSettings::fov, {1, 179},
            "vertical field of view in degrees (or give focal_length)"),
        key("camera", "focal_length", cameraPart, &CameraSettings::focalLength, {1, 5000},
            "lens focal length in mm instead of fov (0 = not given: fov); the sensor's width "
            "spans the image's larger side, as Blender's sensor fit Auto"),
        key("camera", "sensor_width", cameraPart, &CameraSettings::sensorWidth, {1, 1000},
            "sensor width in mm, with focal_length (Blender's default 36)"),
        interpolationKey<CameraSettings>("camera", cameraPart),

        // [[light]]
        key("light", "type", lightPart, &LightSettings::type, kAny,
            "directional (sun-like) or point", {"directional", "point"}),
        key("light", "direction", lightPart, &LightSettings::direction, kAny,
            "directional: the way the light travels (need not be unit length)"),
        key("light", "position", lightPart, &LightSettings::position, kAny,
            "point: position in metres"),
        key("light", "color", lightPart, &LightSettings::color, kNonNegative, "linear RGB colour"),
        key("light", "intensity", lightPart, &LightSettings::intensity, kNonNegative,
            "brightness multiplier"),
        key("light", "name", lightPart, &LightSettings::name, kAny,
            "names the light's layer of the EXR's render passes (render.passes \"lights\"): "
            "letters, digits and _, not starting with a digit; empty: light_N, N its place "
            "among the lights from 1"),
        interpolationKey<LightSettings>("light", lightPart),

        // [ground]
        key("ground", "enabled", groundPart, &GroundSettings::enabled, kAny,
            "draw a ground plane that catches the shadows of smoke and solids"),
        key("ground", "height", groundPart, &GroundSettings::height, kAny,
            "world z of the plane in metres"),
        key("ground", "color", groundPart, &GroundSettings::color, kUnit,
            "diffuse albedo (linear RGB)"),
        key("ground", "size", groundPart, &GroundSettings::size, kNonNegative,
            "half-extent in metres around the domain's centre (0 = infinite, fading at the "
            "horizon)"),
        key("ground", "shadow_catcher", groundPart, &GroundSettings::shadowCatcher, kAny,
            "draw only the shadows, into alpha, for compositing over footage"),

        // [render]
        key("render", "width", renderPart, &RenderSettings::width, {16, 7680},
            "frame width in pixels (even: H.264 yuv420p)"),
        key("render", "height", renderPart, &RenderSettings::height, {16, 7680},
            "frame height in pixels (even: H.264 yuv420p)"),
        key("render", "step", renderPart, &RenderSettings::step, {0.05, 4},
            "ray-march step in voxels; smaller is slower and smoother"),
        key("render", "extinction", renderPart, &RenderSettings::extinction, kNonNegative,
            "extinction sigma_t per unit density, 1/m"),
        key("render", "albedo", renderPart, &RenderSettings::albedo, kUnit,
            "fraction of extinction that scatters"),
        key("render", "phase", renderPart, &RenderSettings::phase, {-0.99, 0.99},
            "Henyey-Greenstein g: > 0 scatters forward"),
        backgroundAlias(),
        key("render", "background_top", renderPart, &RenderSettings::backgroundTop, kNonNegative,
            "background colour at the top of the frame (linear RGB)"),
        key("render", "background_bottom", renderPart, &RenderSettings::backgroundBottom,
            kNonNegative, "background colour at the bottom of the frame (linear RGB)"),
        key("render", "ambient", renderPart, &RenderSettings::ambient, kNonNegative,
            "sky light radiance (linear RGB)"),
        key("render", "emission", renderPart, &RenderSettings::emission, kNonNegative,
            "a flame's light: a metre of flame of 1 at 1500 K gives off luminance this, hotter "
            "flames more (T^4) and yellower, cooler ones redder (0 = no flame drawn)"),
        key("render", "fire_temperature", renderPart, &RenderSettings::fireTemperature, kPositive,
            "kelvin per unit of simulation temperature: the flame's colour and brightness"),
        key("render", "heat_glow", renderPart, &RenderSettings::heatGlow, kNonNegative,
            "glow of hot smoke where nothing burns (a scene without fuel, a cache without a "
            "flame grid): a colour ramp on its temperature that lights nothing (0 = none)"),
        key("render", "fire_light", renderPart, &RenderSettings::fireLight, kNonNegative,
            "how strongly a flame lights the smoke, solids and ground around it (0 = not at "
            "all, 1 = as much light as it gives off)"),
        key("render", "exposure", renderPart, &RenderSettings::exposure, kPositive,
            "linear exposure multiplier before tone mapping"),
        key("render", "transparent", renderPart, &RenderSettings::transparent, kAny,
            "background of alpha 0 in EXR and PNG frames (the video stays opaque)"),
        key("render", "motion_blur", renderPart, &RenderSettings::motionBlur, {0, 1},
            "shutter as a fraction of a frame: smoke and solids blur along their motion"),
        key("render", "filter", renderPart, &RenderSettings::filter, kAny,
            "density reconstruction: cubic (smooth at any magnification, a little soft, as "
            "Cycles' Cubic), sharp (smooth, through every voxel's value) or linear; auto picks "
            "cubic when a voxel spans more than two pixels",
            {"auto", "linear", "cubic", "sharp"}),
        key("render", "adaptive", renderPart, &RenderSettings::adaptive, kAny,
            "where a voxel spans two pixels or more (cubic or sharp filter), trace every second "
            "or fourth pixel and fill those between by a smooth interpolation where their "
            "neighbours agree, tracing the rest; false: trace every pixel"),
        key("render", "grid", renderPart, &RenderSettings::grid, kAny,
            "grid that render-vdb renders as density"),
        key("render", "view", renderPart, &RenderSettings::view, kAny,
            "what a frame shows: shaded (the smoke, lit) or one field on the plane render.slice "
            "as a colour map with a colour bar: density, temperature, flame, speed (m/s), "
            "vorticity (its component across the plane, 1/s), pressure (Pa, for air of 1.2 "
            "kg/m^3) or divergence (1/s); pressure and divergence only from the solver (render)",
            {"shaded", "density", "temperature", "flame", "speed", "vorticity", "pressure",
             "divergence"}),
        key("render", "slice", renderPart, &RenderSettings::slice, kAny,
            "the plane a view other than shaded shows: an axis and a world position in metres, "
            "\"x=1.0\"; empty: the middle of the domain along the axis nearest the camera's "
            "view direction"),
        key("render", "view_velocity", renderPart, &RenderSettings::viewVelocity, kAny,
            "streamlines of the velocity in the plane over a view other than shaded, drawn "
            "brighter where the flow is faster"),
        key("render", "view_range", renderPart, &RenderSettings::viewRange, kNonNegative,
            "the colour bar's top (for signed fields, the largest |value|; the bar is centred "
            "on 0); 0: the frame's largest value on the plane, rounded up to 1, 1.5, 2, 3, 4, 5, 6 "
            "or 8 times a power of ten"),
        key("render", "passes", renderPart, &RenderSettings::passes, kAny,
            "layers the --exr frame holds beside the beauty (RGBA), which sum to it: emission "
            "(the fire's own light), lights (light_1, light_2 ... or each light's name), sky "
            "(with the background), fire_light (a flame's light on smoke and solids), sparks "
            "(their streaks, as the smoke hides them), depth (Z: metres to where the transmittance "
            "falls to 1/2), motion (motion.u, motion.v: the screen motion of what each pixel sees, "
            "pixels a frame, v up, as Nuke's VectorBlur reads it); \"all\" for every one",
            {"all", "emission", "lights", "sky", "fire_light", "depth", "sparks", "motion"}),

        // [output]
        key("output", "fps", outputPart, &OutputSettings::fps, {0, 240},
            "video frame rate (0 = time.fps)"),
        key("output", "crf", outputPart, &OutputSettings::crf, {0, 51},
            "H.264 constant rate factor: lower is better and larger"),
        key("output", "preset", outputPart, &OutputSettings::preset, kAny, "x264 speed preset",
            {"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
             "veryslow", "placebo"}),
        key("output", "codec", outputPart, &OutputSettings::codec, kAny,
            "video codec; mpeg4 when libx264 is missing", {"h264", "mpeg4"}),
        key("output", "vdb_precision", outputPart, &OutputSettings::vdbPrecision, kAny,
            "VDB float storage: half (smaller), full, or exact (full, no value dropped: "
            "render-vdb of it matches plume render bit for bit)",
            {"half", "full", "exact"}),
        key("output", "velocity_name", outputPart, &OutputSettings::velocityName, kAny,
            "name of the VDB velocity grid (vel for Houdini)", {"velocity", "vel"}),
        key("output", "nvdb_codec", outputPart, &OutputSettings::nvdbCodec, kAny,
            "--nvdb float grids: float (32-bit), fp16 (16 bits a voxel, quantized over each "
            "8^3 leaf's range) or fpN (the fewest bits a leaf that keep every voxel within "
            "output.nvdb_tolerance); vector grids stay 32-bit",
            {"float", "fp16", "fpN"}),
        key("output", "nvdb_tolerance", outputPart, &OutputSettings::nvdbTolerance, kPositive,
            "largest error of a voxel in an fpN --nvdb grid, absolute, in the grid's own units"),
        key("output", "color_space", outputPart, &OutputSettings::colorSpace, kAny,
            "the working space of the --exr frames (beauty and passes), through OpenColorIO: "
            "lin_rec709 (linear Rec. 709, D65) or acescg (ACES AP1, D60), from plume's config; "
            "with $OCIO set, a colour space of that config; PNG and MP4 stay sRGB"),
    };

    // Shape keys lead their sections.
    auto at = [&](std::string_view section) {
        return std::find_if(keys.begin(), keys.end(),
                            [&](const KeySpec& k) { return k.section == section; });
    };
    std::vector<KeySpec> emitterShape = shapeKeys("emitter", emitterShapePart, "emitter shape");
    keys.insert(at("emitter"), emitterShape.begin(), emitterShape.end());
    std::vector<KeySpec> obstacleShape = shapeKeys("obstacle", obstacleShapePart, "obstacle shape");
    keys.insert(at("camera"), obstacleShape.begin(), obstacleShape.end());

    // Frame sizes are even for yuv420p.
    for (KeySpec& k : keys)
        if (k.dotted() == "render.width" || k.dotted() == "render.height") k.even = true;

    // Keys that [[SECTION.key]] tables may set (Scene::atFrame applies them).
    const std::vector<std::string_view> animatable = {
        "obstacle.center",  "obstacle.rotation", "obstacle.scale",  "emitter.center",
        "emitter.rotation", "emitter.scale",     "emitter.density", "emitter.temperature",
        "emitter.fuel",     "emitter.velocity",  "emitter.color",   "camera.position",
        "camera.look_at",   "camera.up",         "camera.fov",      "camera.focal_length",
        "light.direction",  "light.position",    "light.color",     "light.intensity",
        "physics.time_scale"};
    for (KeySpec& k : keys)
        k.animatable =
            std::find(animatable.begin(), animatable.end(), k.dotted()) != animatable.end();

    // The field of view is fov or a lens: the one not taken is not written.
    for (KeySpec& k : keys) {
        if (k.dotted() == "camera.fov")
            k.unused = [](const Scene& s, std::size_t) { return s.camera.byLens(); };
        if (k.dotted() == "camera.focal_length")
            k.unused = [](const Scene& s, std::size_t) { return !s.camera.byLens(); };
        // A points emitter's points are world positions: nothing places them.
        if (k.dotted() == "emitter.center" || k.dotted() == "emitter.rotation" ||
            k.dotted() == "emitter.scale" || k.dotted() == "emitter.size")
            k.unused = [](const Scene& s, std::size_t i) {
                return s.emitters.at(i).shape == Shape::Points;
            };
    }

    // World positions and heights, which domain.origin moves (scene/placement.h).
    for (KeySpec& k : keys) {
        const std::string name = k.dotted();
        if (name == "emitter.center" || name == "obstacle.center" || name == "camera.position" ||
            name == "camera.look_at" || name == "light.position")
            k.placement = Placement::Point;
        if (name == "ground.height") k.placement = Placement::Height;
    }
    return keys;
}

}  // namespace

bool ValueRange::contains(double v) const {
    bool aboveLo = loOpen ? v > lo : v >= lo;
    bool belowHi = hiOpen ? v < hi : v <= hi;
    return aboveLo && belowHi;
}

std::string ValueRange::str() const {
    bool openLo = loOpen || std::isinf(lo), openHi = hiOpen || std::isinf(hi);
    return std::string(openLo ? "(" : "[") + formatNumber(lo) + ", " + formatNumber(hi) +
           (openHi ? ")" : "]");
}

std::string KeySpec::dotted() const { return std::string(section) + "." + std::string(key); }

const std::vector<SectionSpec>& sceneSections() {
    static const std::vector<SectionSpec> sections = {
        {"domain", false, "The simulation box: size, resolution, what happens at each side"},
        {"time", false, "Frame rate, length and substep control"},
        {"physics", false, "Forces and dissipation; every rate is per second"},
        {"solver", false, "Pressure projection and advection"},
        {"upres", false,
         "Detail: density, temperature, fuel and flame on a grid `factor` times finer than "
         "the velocity's, stirred by wavelet turbulence where the base grid cannot resolve "
         "its own energy"},
        {"sparks", false,
         "Sparks and embers: points the flame (and emitter.sparks) throws, carried by the "
         "flow, cooling until they wink out; the cache's `sparks` points"},
        {"emitter", true, "Sources of smoke and heat, one [[emitter]] table each"},
        {"obstacle", true, "Solid shapes the smoke flows around, one [[obstacle]] table each"},
        {"camera", false, "The view; without [camera] plume frames the whole domain automatically"},
        {"light", true,
         "Lights, one [[light]] table each; without any, one warm directional key light "
         "(direction [-0.4, 0.5, -0.75], intensity 3) is added; `light = []`, before any "
         "table, for no light at all"},
        {"ground", false, "A ground plane under the smoke; off unless enabled"},
        {"render", false, "Image size and the look of the smoke"},
        {"output", false, "Video encoding and VDB cache format"},
    };
    return sections;
}

const std::vector<KeySpec>& sceneKeys() {
    static const std::vector<KeySpec> keys = buildKeys();
    return keys;
}

const SectionSpec* findSection(std::string_view name) {
    for (const SectionSpec& s : sceneSections())
        if (s.name == name) return &s;
    return nullptr;
}

const KeySpec* findKey(std::string_view section, std::string_view key) {
    for (const KeySpec& k : sceneKeys())
        if (k.section == section && k.key == key) return &k;
    return nullptr;
}

void appendElement(Scene& scene, std::string_view section) {
    if (section == "emitter")
        scene.emitters.emplace_back();
    else if (section == "obstacle")
        scene.obstacles.emplace_back();
    else if (section == "light")
        scene.lights.emplace_back();
}

std::size_t elementCount(const Scene& scene, std::string_view section) {
    if (section == "emitter") return scene.emitters.size();
    if (section == "obstacle") return scene.obstacles.size();
    if (section == "light") return scene.lights.size();
    return 0;
}

Animation& animationOf(Scene& scene, std::string_view section, std::size_t index) {
    if (section == "emitter") return scene.emitters.at(index).animation;
    if (section == "obstacle") return scene.obstacles.at(index).animation;
    if (section == "light") return scene.lights.at(index).animation;
    if (section == "physics") return scene.physicsAnimation;
    return scene.camera.animation;
}

const Animation& animationOf(const Scene& scene, std::string_view section, std::size_t index) {
    return animationOf(const_cast<Scene&>(scene), section, index);
}

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    // Whole numbers in full ("100000", not "1e+05"): they are counts and sizes.
    if (v == std::trunc(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string formatFloat(float v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

namespace {

// A TOML float literal: keep a decimal point or exponent so it reads back as a float.
std::string tomlFloat(std::string s) {
    if (s.find_first_of(".einf") == std::string::npos) s += ".0";
    return s;
}

// A double-quoted string with quotes and backslashes escaped and control
// characters as \uXXXX, so it stays one line: a TOML basic string (which
// escapes DEL too) or a JSON string (which need not).
std::string quoted(std::string_view s, bool escapeDelete) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || (escapeDelete && c == 0x7f)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string tomlString(std::string_view s) { return quoted(s, true); }

}  // namespace

std::string formatTomlValue(const KeySpec& spec, const SchemaValue& value) {
    switch (spec.kind) {
        case ValueKind::Integer:
            return std::to_string(std::get<std::int64_t>(value));
        case ValueKind::Real: {
            double v = std::get<double>(value);
            return tomlFloat(spec.singlePrecision ? formatFloat(static_cast<float>(v))
                                                  : formatNumber(v));
        }
        case ValueKind::Vec3:
        case ValueKind::Scale: {
            Vec3f v = std::get<Vec3f>(value);
            return "[" + tomlFloat(formatFloat(v.x)) + ", " + tomlFloat(formatFloat(v.y)) + ", " +
                   tomlFloat(formatFloat(v.z)) + "]";
        }
        case ValueKind::FrameRange: {
            auto f = std::get<std::array<int, 2>>(value);
            return "[" + std::to_string(f[0]) + ", " + std::to_string(f[1]) + "]";
        }
        case ValueKind::Text:
        case ValueKind::Choice:
            return tomlString(std::get<std::string>(value));
        case ValueKind::Bool:
            return std::get<bool>(value) ? "true" : "false";
        case ValueKind::ChoiceList: {
            std::string s = "[";
            for (const std::string& e : std::get<std::vector<std::string>>(value))
                s += (s.size() > 1 ? ", " : "") + tomlString(e);
            return s + "]";
        }
    }
    return {};
}

namespace {

std::string jsonString(std::string_view s) { return quoted(s, false); }

// A bound as JSON: infinities as null (JSON has no inf).
std::string jsonBound(double v) { return std::isfinite(v) ? formatNumber(v) : "null"; }

const char* kindName(ValueKind kind) {
    switch (kind) {
        case ValueKind::Integer:
            return "integer";
        case ValueKind::Real:
            return "float";
        case ValueKind::Vec3:
            return "vec3";
        case ValueKind::Scale:
            return "scale";
        case ValueKind::FrameRange:
            return "frame_range";
        case ValueKind::Text:
            return "string";
        case ValueKind::Bool:
            return "boolean";
        case ValueKind::Choice:
            return "choice";
        case ValueKind::ChoiceList:
            return "choice_list";
    }
    return "";
}

// The default as JSON: TOML's numbers, arrays, strings and booleans are JSON's too.
std::string jsonDefault(const KeySpec& spec, const SchemaValue& value) {
    if (spec.kind == ValueKind::Text || spec.kind == ValueKind::Choice)
        return jsonString(std::get<std::string>(value));
    if (spec.kind == ValueKind::ChoiceList) {
        std::string s = "[";
        for (const std::string& e : std::get<std::vector<std::string>>(value))
            s += (s.size() > 1 ? ", " : "") + jsonString(e);
        return s + "]";
    }
    std::string s = formatTomlValue(spec, value);
    return s.find_first_of("in") == std::string::npos || s == "true" ? s : "null";
}

}  // namespace

std::string sceneReferenceJson() {
    // Defaults come from a default Scene, with one default element per array.
    Scene defaults;
    for (const SectionSpec& section : sceneSections())
        if (section.isArray) appendElement(defaults, section.name);

    std::string out = "{\n  \"sections\": [";
    bool first = true;
    for (const SectionSpec& section : sceneSections()) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    {\"name\": " + jsonString(section.name) +
               ", \"array\": " + (section.isArray ? "true" : "false") +
               ", \"doc\": " + jsonString(section.doc) + "}";
    }
    out += "\n  ],\n  \"keys\": [";
    first = true;
    for (const KeySpec& spec : sceneKeys()) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    {\"section\": " + jsonString(spec.section) +
               ", \"key\": " + jsonString(spec.key) + ", \"type\": \"" + kindName(spec.kind) + "\"";
        out += ", \"default\": " + (spec.get ? jsonDefault(spec, spec.get(defaults, 0)) : "null");
        out += ", \"min\": " + jsonBound(spec.range.lo) + ", \"max\": " + jsonBound(spec.range.hi);
        out += std::string(", \"min_open\": ") + (spec.range.loOpen ? "true" : "false") +
               ", \"max_open\": " + (spec.range.hiOpen ? "true" : "false");
        out += ", \"choices\": [";
        for (std::size_t i = 0; i < spec.choices.size(); ++i)
            out += (i ? ", " : "") + jsonString(spec.choices[i]);
        out += std::string("], \"animatable\": ") + (spec.animatable ? "true" : "false") +
               ", \"alias\": " + (spec.alias ? "true" : "false") +
               ", \"doc\": " + jsonString(spec.doc) + "}";
    }
    // The numbers behind the fire keys another renderer needs (scene/flame_units.h).
    out += "\n  ],\n  \"constants\": {";
    const struct {
        const char* name;
        float value;
        const char* doc;
    } constants[] = {
        {"flame_density", kFlameDensity,
         "density a flame of 1 adds to the smoke: Density = render.extinction * (density + "
         "this * flame)"},
        {"cycles_blackbody_per_emission", kCyclesBlackbodyPerEmission,
         "Cycles' Principled Volume Blackbody Intensity per unit of render.emission * flame"},
    };
    first = true;
    for (const auto& c : constants) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    " + jsonString(c.name) + ": {\"value\": " + formatFloat(c.value) +
               ", \"doc\": " + jsonString(c.doc) + "}";
    }
    return out + "\n  }\n}\n";
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string_view nearestName(std::string_view name,
                             const std::vector<std::string_view>& candidates) {
    std::string_view best;
    std::size_t bestDistance = std::numeric_limits<std::size_t>::max();
    for (std::string_view c : candidates) {
        std::size_t d = editDistance(name, c);
        if (d < bestDistance) bestDistance = d, best = c;
    }
    // A typo changes a few letters; beyond that the suggestion would be noise.
    std::size_t limit = std::max<std::size_t>(2, std::max(name.size(), best.size()) / 3);
    return bestDistance <= limit ? best : std::string_view();
}

std::string suggestTopLevel(std::string_view name, bool isTable) {
    std::vector<std::string_view> sections;
    for (const SectionSpec& s : sceneSections()) sections.push_back(s.name);
    std::string_view section = nearestName(name, sections);
    if (!section.empty() || isTable) return std::string(section);
    // A key written outside its section: match its last part.
    std::vector<std::string_view> leaves;
    for (const KeySpec& k : sceneKeys()) leaves.push_back(k.key.substr(k.key.rfind('.') + 1));
    std::string_view leaf = nearestName(name, leaves);
    for (const KeySpec& k : sceneKeys())
        if (!leaf.empty() && k.key.substr(k.key.rfind('.') + 1) == leaf) return k.dotted();
    return {};
}

std::string suggestKey(std::string_view section, std::string_view key) {
    std::vector<std::string_view> keys;
    for (const KeySpec& k : sceneKeys())
        if (k.section == section) keys.push_back(k.key);
    return std::string(nearestName(key, keys));
}

std::string didYouMean(std::string_view prefix, std::string_view suggestion) {
    if (suggestion.empty()) return {};
    std::string full = prefix.empty() ? std::string(suggestion)
                                      : std::string(prefix) + "." + std::string(suggestion);
    return " (did you mean '" + full + "'?)";
}

}  // namespace plume
