// The scene's keys, section by section: each key bound to the member it sets,
// with its range, its doc line and what it is beyond a value (animated, a
// world position, a frame size, unused one way or the other), said where the
// key is made. scene/schema.cpp serves the table; this file and
// schema_view_keys.cpp are the table.
#include "scene/schema_keys.h"

#include <algorithm>

#include "scene/flame_units.h"
#include "scene/schema_binding.h"

namespace plume {

namespace {

using namespace binding;

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
    // A points emitter's points are world positions: nothing places them.
    const bool emitter = section == "emitter";
    auto placement = [emitter](KeySpec k) {
        return emitter ? unusedWhen(std::move(k), pointsEmitter) : k;
    };
    KeySpec scale = key(section, "scale", part, &ShapeSettings::scale, kPositive,
                        "scale of the shape: a number, or [x, y, z] along its own axes");
    scale.kind = ValueKind::Scale;
    return {
        key(section, "shape", part, &ShapeSettings::shape, kAny, what, shapeChoices(section)),
        placement(placedAt(animated(key(section, "center", part, &ShapeSettings::center, kAny,
            "where the shape's origin goes, metres; a mesh without one stays where its file "
            "puts it (its file is in world metres)")), Placement::Point)),
        key(section, "radius", part, &ShapeSettings::radius, kPositive,
            section == "emitter" ? "sphere radius in metres; points: each point's radius where its "
                                   "file gives none (radius or pscale)"
                                 : "sphere radius in metres"),
        placement(key(section, "size", part, &ShapeSettings::size, kPositive,
            "box extents in metres [x, y, z]")),
        key(section, "file", part, &ShapeSettings::file, kAny,
            section == "emitter"
                ? "mesh: OBJ, PLY, STL, glTF/GLB or a .vdb level set, relative to the scene file; "
                  "\"NAME_####.obj\" (or %04d): one mesh a frame, numbered as the scene's frames; "
                  "points: PLY files a frame, \"parts_####.ply\" or \"parts_%04d.ply\" numbered "
                  "as the scene's frames (a name without a number: the same points every frame)"
                : "mesh: OBJ, PLY, STL, glTF/GLB or a .vdb level set, relative to the scene file; "
                  "\"NAME_####.obj\" (or %04d): one mesh a frame, numbered as the scene's frames"),
        placement(animated(key(section, "rotation", part, &ShapeSettings::rotation, kAny,
            "degrees, XYZ Euler as Blender shows it (R = Rz * Ry * Rx)"))),
        placement(animated(scale)),
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


// [[field]]'s keys (sim/force_fields.h).
std::vector<KeySpec> fieldKeys() {
    const ValueRange kSeed{0, 2147483647};
    return {
        key("field", "type", fieldPart, &FieldSettings::type, kAny,
            "what it does: wind pushes along direction; vortex turns the air about axis through "
            "center toward strength rad/s; turbulence stirs with divergence-free noise; attract "
            "pulls toward center (strength below 0 pushes away); drag slows the air at strength "
            "per second; curve pulls the smoke onto points and along them",
            {"wind", "vortex", "turbulence", "attract", "drag", "curve"}),
        animated(key("field", "strength", fieldPart, &FieldSettings::strength, kAny,
            "m/s^2 for wind, attract, turbulence and curve; the target angular speed in rad/s "
            "for vortex (reached at that rate per second); 1/s for drag")),
        placedAt(animated(key("field", "center", fieldPart, &FieldSettings::center, kAny,
            "where it sits, metres: the falloff's origin, the vortex's axis and attract's "
            "point go through it")), Placement::Point),
        animated(key("field", "direction", fieldPart, &FieldSettings::direction, kAny,
            "wind: the way it blows (any length, not 0); also its tube's and cone's axis")),
        animated(key("field", "axis", fieldPart, &FieldSettings::axis, kAny,
            "vortex: the axis it turns about, by the right hand (any length, not 0); the tube's "
            "and cone's axis of every type but wind")),
        key("field", "shape", fieldPart, &FieldSettings::shape, kAny,
            "where it acts and what distance its falloff takes: everywhere at full strength, "
            "from center (sphere), from the axis through center (tube), or in the 45-degree "
            "cone from center along the axis, by the distance from center (cone); a curve's "
            "distance is always from its points",
            {"everywhere", "sphere", "tube", "cone"}),
        key("field", "falloff.power", fieldPart, &FieldSettings::falloffPower, {0, 10},
            "as Blender's fields: full strength within falloff.min, then times "
            "(1 + d - min)^-power at d metres (0 = no falloff)"),
        key("field", "falloff.min", fieldPart, &FieldSettings::falloffMin, kNonNegative,
            "metres of full strength around the shape's center or axis"),
        key("field", "falloff.max", fieldPart, &FieldSettings::falloffMax, kNonNegative,
            "metres beyond which it does nothing (0 = no limit)"),
        animated(key("field", "size", fieldPart, &FieldSettings::size, kPositive,
            "turbulence: size of its swirls in metres")),
        animated(key("field", "speed", fieldPart, &FieldSettings::speed, {0, 1000},
            "turbulence: renewals of its pattern a second (0 = a still pattern)")),
        key("field", "seed", fieldPart, &FieldSettings::seed, kSeed,
            "turbulence: another number, another pattern"),
        placedAt(key("field", "points", fieldPart, &FieldSettings::points, kAny,
            "curve: the polyline the smoke follows, [[x, y, z], ...] in metres, from the first "
            "point to the last (at least 2)"), Placement::Point),
        animated(key("field", "radius", fieldPart, &FieldSettings::radius, kPositive,
            "curve: metres around its points within which it acts")),
        key("field", "smoke_only", fieldPart, &FieldSettings::smokeOnly, kAny,
            "act only in cells holding smoke or fuel, as Mantaflow applies Blender's fields (a "
            "face between smoke and clear air at half strength); the Blender add-on sets it, so "
            "a scene set up for Mantaflow moves the same way; false: in the air too"),
        interpolationKey("field", fieldPart),
    };
}

}  // namespace

std::vector<KeySpec> buildSceneKeys() {
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
        animated(key("physics", "wind", physicsPart, &PhysicsSettings::wind, kAny,
            "ambient wind velocity in m/s; the air relaxes toward it at 1 per second")),
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
        animated(key("physics", "time_scale", physicsPart, &PhysicsSettings::timeScale, {0, 100, true},
            "simulated seconds for each second of the shot: 0.25 is slow motion at the same "
            "frame rate (substeps, emission, dissipation, burning and upres follow; keyed shapes "
            "and points files keep their pace in the shot); keys on it give bullet time")),
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

        // [shaping] (sim/shaping.h)
        key("shaping", "disturbance", shapingPart, &ShapingSettings::disturbance, {0, 1000},
            "m/s^2 of a push in a random direction per block of the world, where there is "
            "smoke, renewed as the push moves the gas a block (0 = off)"),
        key("shaping", "disturbance_block", shapingPart, &ShapingSettings::disturbanceBlock,
            kPositive, "size in metres of the disturbance's largest blocks"),
        key("shaping", "disturbance_octaves", shapingPart, &ShapingSettings::disturbanceOctaves,
            {1, 4}, "octaves of blocks, each half the size and half the push of the one before"),
        key("shaping", "disturbance_cutoff", shapingPart, &ShapingSettings::disturbanceCutoff,
            kNonNegative,
            "density from which the push fades out: full at none, nothing at the cutoff and "
            "above, so only the thin edges break up (0 = the same push at any density)"),
        key("shaping", "disturbance_rotational", shapingPart,
            &ShapingSettings::disturbanceRotational, kAny,
            "turn the motion the disturbance finds instead of adding to it: each row of faces "
            "keeps its kinetic energy, so still air stays still"),
        key("shaping", "shredding", shapingPart, &ShapingSettings::shredding, {0, 100},
            "rate per second at which the velocity across the smoke's edge (density 0 to 1, "
            "along the temperature gradient) grows, tearing hot smoke's edge into streaks "
            "(0 = off)"),

        // [guide] (sim/guide.h)
        key("guide", "cache", guidePart, &GuideSettings::cache, kAny,
            "the guiding bake's VDB sequence, relative to the scene file "
            "(\"preview/shot_####.vdb\", a folder, Blender's fluid_data_####.vdb); its "
            "frame numbers are the shot's; \"\": no guide"),
        key("guide", "weight", guidePart, &GuideSettings::weight, {0, 1},
            "share of the difference between the guide's large-scale flow and the bake's "
            "taken each frame (1: all of it, the guide's shape exactly; 0: none)"),
        key("guide", "blur", guidePart, &GuideSettings::blur, {0, 10},
            "metres, the Gaussian's sigma that parts the guide's large scale (followed) from "
            "the bake's own detail (left as it is); about twice the guide's cell"),
        key("guide", "frames", guidePart, &GuideSettings::frames, kFrames,
            "inclusive range of frames [first, last] it guides in, as emitter.frames counts "
            "them; the bake is its own before and after"),

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
        animated(key("emitter", "density", emitterPart, &EmitterSettings::density, kNonNegative,
            "smoke density set inside the emitter; not given in an emitter that gives fuel, 0: "
            "a fire's smoke is the soot its burning makes (physics.flame_smoke)")),
        animated(key("emitter", "temperature", emitterPart, &EmitterSettings::temperature, kAny,
            "temperature set inside the emitter (above ambient rises)")),
        animated(key("emitter", "fuel", emitterPart, &EmitterSettings::fuel, kNonNegative,
            "fuel set inside the emitter; it burns where hotter than physics.ignition_temperature")),
        animated(key("emitter", "velocity", emitterPart, &EmitterSettings::velocity, kAny,
            "velocity in m/s imposed inside the emitter when non-zero")),
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
        animated(key("emitter", "color", emitterPart, &EmitterSettings::color, kUnit,
            "colour (linear RGB albedo) of the smoke it emits, which mixes by density with "
            "other smokes'; the cache's `color` grid. Given to no emitter: all smoke is "
            "render.albedo's grey; to another emitter only: this one's is")),

        key("emitter", "sparks", emitterPart, &EmitterSettings::sparks, kNonNegative,
            "sparks born a second inside it (the [sparks] table says how they move)"),

        // [[obstacle]]: the shape keys (buildKeys), then how it looks
        key("obstacle", "color", obstaclePart, &ObstacleSettings::color, kUnit,
            "diffuse albedo of its surface (linear RGB)"),
        key("obstacle", "visible", obstaclePart, &ObstacleSettings::visible, kAny,
            "drawn, casting shadows on smoke, ground and other solids (false: it only moves air)"),

    };

    // Shape keys lead the emitter's keys and follow the obstacle's looks.
    std::vector<KeySpec> emitterShape = shapeKeys("emitter", emitterShapePart, "emitter shape");
    keys.insert(std::find_if(keys.begin(), keys.end(),
                             [&](const KeySpec& k) { return k.section == "emitter"; }),
                emitterShape.begin(), emitterShape.end());
    for (KeySpec& k : shapeKeys("obstacle", obstacleShapePart, "obstacle shape"))
        keys.push_back(std::move(k));
    for (KeySpec& k : fieldKeys()) keys.push_back(std::move(k));
    // Then the frame's: camera, lights, ground, render and output (schema_view_keys.cpp).
    for (KeySpec& k : viewKeys()) keys.push_back(std::move(k));
    return keys;
}


}  // namespace plume
