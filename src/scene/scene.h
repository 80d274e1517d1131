// Scene: everything a scene file says, validated and with defaults filled in.
// Units: metres, seconds, kelvin-like temperature offsets; Z is up.
// The keys, defaults and ranges live in one table (scene/schema.h) that the
// loader, `plume check` and the README reference share.
#pragma once

#include <array>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/animation.h"
#include "core/radiance_map.h"
#include "core/sides.h"
#include "core/vec.h"

namespace plume {

enum class Shape { Sphere, Box, Mesh, Points };
enum class EmitMode { Volume, Surface };
enum class PressureMethod { MGPCG, PCG, SOR };
// Reflection: the substep of Zehnder et al. 2018 (advection-reflection), its
// advection MacCormack's; see Solver::advanceVelocityReflected.
enum class AdvectionScheme { MacCormack, SemiLagrangian, Reflection };
enum class LightType { Directional, Point };
enum class CameraType { Perspective, Orthographic };
enum class Codec { H264, MPEG4 };
// Half: 16-bit floats; Full: 32-bit; Exact: 32-bit and no value dropped as
// inactive, so a render of the cache is bit-identical to plume render's frame.
enum class VdbPrecision { Half, Full, Exact };

// Positions in a loaded Scene are domain-local: relative to the domain's min
// corner, which sits at `origin` in the world (scene/placement.h). The file's
// world positions are moved there once, at load, so the solver and renderer
// work the same wherever the domain is.
struct DomainSettings {
    Vec3f origin{0, 0, 0};  // metres: the min corner's world position
    Vec3f size{2, 2, 2};    // metres; the domain spans origin .. origin + size
    int resolution = 64;    // cells along the longest axis
    std::array<Boundary, 6> boundary{Boundary::Open, Boundary::Open, Boundary::Open,
                                     Boundary::Open, Boundary::Wall, Boundary::Open};
    Vec3f inflowVelocity{0, 0, 0};  // m/s through every side marked inflow

    float dx() const;     // voxel size in metres
    Vec3i cells() const;  // cell counts per axis (each >= 1)
};

// Frames in a loaded Scene count from 1 (the solver's frame index); the
// file's frame numbers start at `startFrame` and are moved to that count once,
// at load (scene/placement.h). frameNumber() turns an index back for names.
struct TimeSettings {
    double fps = 24;
    int frames = 120;
    int startFrame = 1;   // the number of the first frame (1001 in many studios)
    float cfl = 3.0f;     // substep dt <= cfl * dx / max speed
    int maxSubsteps = 4;  // per frame

    // The number a user sees (files, --frames, stats) of frame index `index`,
    // and back.
    int frameNumber(int index) const { return index + startFrame - 1; }
    int frameIndex(int number) const { return number - startFrame + 1; }
    int lastFrameNumber() const { return frameNumber(frames); }
};

struct PhysicsSettings {
    float buoyancyDensity = 0.1f;  // alpha: heavy smoke sinks, per unit density
    float buoyancyHeat = 0.5f;     // beta: hot smoke rises, per unit temperature
    float ambientTemperature = 0.0f;
    float vorticity = 0.3f;               // confinement epsilon, force eps * dx * (N x omega)
    float viscosity = 0.0f;               // kinematic, m^2/s (implicit)
    float diffusion = 0.0f;               // scalar diffusion, m^2/s (implicit)
    float densityDissipation = 0.0f;      // per second: exp(-rate * dt)
    float temperatureDissipation = 0.5f;  // per second
    Vec3f gravity{0, 0, -9.81f};          // m/s^2; buoyancy acts against it
    Vec3f wind{0, 0, 0};                  // m/s, ambient wind the air relaxes toward (kWindRate)
    float turbulence = 0.0f;              // m/s^2, curl-noise force (0 = off)
    float turbulenceScale = 0.5f;         // metres per turbulence feature
    // Fire: fuel hotter than ignitionTemperature burns at burnRate (fraction
    // per second), giving flameHeat of temperature, flameSmoke of density and
    // flameExpansion of divergence (1/s) per unit of fuel burnt, and a flame
    // that cools at flameCooling per second.
    float ignitionTemperature = 0.5f;
    float burnRate = 4.0f;
    float flameHeat = 1.5f;
    float flameSmoke = 0.5f;
    Vec3f flameSmokeColor{0.25f, 0.23f, 0.22f};  // the render's colour of smoke made by fire
    float flameExpansion = 1.0f;
    float flameCooling = 6.0f;
    // Flame forces (sim/forces.h), all off at 0: extra vorticity confinement
    // where it burns (Mantaflow's flame vorticity), a block disturbance of
    // flameDisturbance m/s^2 in blocks of flameDisturbanceScale metres, and a
    // shredding that stretches the velocity across the flame's edge at
    // flameShredding per second (Houdini Pyro's Disturbance and Shredding).
    float flameVorticity = 0.0f;
    float flameDisturbance = 0.0f;
    float flameDisturbanceScale = 0.15f;
    float flameShredding = 0.0f;
    // Simulated seconds per second of the shot (scene/shot_clock.h): 0.25 is
    // slow motion at the same frame rate. Keyed in [[physics.key]].
    float timeScale = 1.0f;
};

struct SolverSettings {
    PressureMethod pressure = PressureMethod::MGPCG;
    float tolerance = 1e-4f;  // relative residual |r| / |b| to stop at
    int maxIterations = 200;
    AdvectionScheme advection = AdvectionScheme::Reflection;
    bool sparse = true;  // hold only the active box of the domain (sim/active_box.h)
};

// Upres (sim/upres/): the scalars on a grid `factor` times finer than the
// velocity's, moved by the base velocity plus wavelet turbulence where the
// base grid's energy holds more than it resolves (Kim et al. 2008).
struct UpresSettings {
    int factor = 1;         // fine cells per base cell along an axis; 1 = off
    float strength = 3.0f;  // the turbulence's speed per unit of unresolved speed
    float scale = 0.0f;     // metres: the largest noise swirl; 0 = two base cells
    float speed = 1.0f;     // renewals of the noise pattern per second
    bool on() const { return factor > 1; }
};

// Shaping for all smoke (sim/shaping.h), as the flame's own disturbance and
// shredding are for fire: in metres and seconds, so the same at any resolution.
struct ShapingSettings {
    float disturbance = 0.0f;       // m/s^2 of the block push; 0 = off
    float disturbanceBlock = 0.2f;  // metres: the largest blocks
    int disturbanceOctaves = 1;     // each further octave half the block and half the push
    float disturbanceCutoff = 0.0f;  // density above which nothing is pushed; 0 = none
    bool disturbanceRotational = false;  // turn the motion found, keeping its kinetic energy
    float shredding = 0.0f;         // 1/s along the temperature gradient at the smoke's edge
    bool on() const { return disturbance != 0.0f || shredding != 0.0f; }
};

// [guide] (sim/guide.h): a bake that follows another bake's motion, its
// large scale by `blur` metres, taken by `weight` a frame.
struct GuideSettings {
    std::string cache;      // a VDB sequence as given ("preview/shot_####.vdb"); "": none
    std::string cachePath;  // resolved beside the scene file
    std::string cacheAt;    // where it is given: "file:line:col", or "--set guide.cache=..."
    float weight = 0.5f;    // share of the large-scale difference taken a frame (1: all)
    float blur = 0.2f;      // metres: the Gaussian's sigma that parts large from small
    std::array<int, 2> frames{1, 1000000};  // inclusive frames it guides in (as emitter.frames)
    bool on() const { return !cache.empty(); }
};

// Sparks (sim/sparks.h): points the flame throws, carried by the flow.
struct SparksSettings {
    float rate = 0.0f;            // births a second per m^3 of flame above flameThreshold
    float flameThreshold = 0.5f;  // flame (simulation units) a cell needs to throw sparks
    float lifetime = 1.5f;        // seconds, the mean (each spark lives 0.5 to 1.5 times it)
    float size = 0.01f;           // metres across
    float drag = 4.0f;            // 1/s toward the flow's velocity
    float buoyancy = 0.3f;        // upward g per 1000 K hotter than the air
    float cooling = 0.5f;         // 1/s toward the air's temperature
    float temperature = 1800.0f;  // kelvin at birth
    float bounce = 0.0f;          // velocity kept off a solid; 0: dies on it
};

struct LevelSet;         // core/level_set.h
struct TriangleMesh;     // core/triangle_mesh.h
class ShapeSequence;     // core/shape_sequence.h
struct SurfaceVelocity;  // core/shape_sequence.h
class PointSequence;     // core/point_sequence.h

// The keyframes of one element ([[obstacle.key]], [[emitter.key]],
// [[camera.key]], [[light.key]]): a curve per animated key, named as the
// schema names it relative to its section ("center", "look_at"). A key that
// is not animated keeps its one value; an animated one holds its first key's
// value before it and its last key's after.
struct KeyTrack {
    std::string key;
    std::vector<Key<float>> real;  // a Real key's curve
    std::vector<Key<Vec3f>> vec;   // a Vec3 key's curve
};
struct Animation {
    Interpolation interpolation = Interpolation::Linear;
    std::vector<KeyTrack> tracks;
    bool empty() const { return tracks.empty(); }
};

// What emitters and obstacles share: a shape in its own (local) frame, placed
// in the world by scale, then rotation, then translation to `center`.
struct ShapeSettings {
    Shape shape = Shape::Sphere;
    Vec3f center{1, 1, 1};         // metres: where the shape's origin goes
    float radius = 0.25f;          // sphere
    Vec3f size{0.5f, 0.5f, 0.5f};  // box extents
    Vec3f rotation{0, 0, 0};       // degrees, XYZ Euler as Blender shows it: R = Rz * Ry * Rx
    Vec3f scale{1, 1, 1};
    // shape = "mesh": the `file` key as written, the path it resolves to
    // (beside the scene file) and where the key sits, for messages. The SDF
    // and the surface the renderer draws are filled in by io
    // (loadSceneGeometry), since the scene cannot read meshes.
    std::string file;
    std::string filePath;
    int fileLine = 0, fileColumn = 0;
    std::shared_ptr<const LevelSet> levelSet;
    std::shared_ptr<const TriangleMesh> surface;
    // A mesh sequence (`file` names one file a frame): the files, which
    // Scene::poseSurfacesAt turns into levelSet, surface and the surface's
    // own velocity (local metres per second; null when it holds still).
    std::shared_ptr<const ShapeSequence> sequence;
    std::shared_ptr<const SurfaceVelocity> surfaceVelocity;
    Animation animation;  // center, rotation, scale (emitters also their amounts)
    // True when it moves: keys, or a mesh sequence.
    bool keyed() const { return !animation.empty() || sequence != nullptr; }
    int line = 0;  // line of its [[emitter]] / [[obstacle]] header, for messages
};

struct EmitterSettings : ShapeSettings {
    EmitterSettings() {
        center = {1, 1, 0.3f};
        radius = 0.2f;
        size = {0.4f, 0.4f, 0.4f};
    }
    EmitMode mode = EmitMode::Volume;
    float thickness = 0.05f;  // surface mode: metres of shell around the surface
    float density = 1.0f;
    float temperature = 1.0f;
    float fuel = 0.0f;                      // fuel set inside the emitter (burns when hot)
    Vec3f velocity{0, 0, 0};                // m/s imposed inside the emitter (when non-zero)
    std::array<int, 2> frames{1, 1000000};  // inclusive frame range it emits in
    float noise = 0.0f;                     // 0..1, deterministic variation of the emitted density
    float noiseScale = 0.0f;       // metres per noise feature; 0: a third of the emitter's size
    float noiseSpeed = 1.7f;       // 1/s: noise features drift up this many per second
    float inheritVelocity = 1.0f;  // fraction of a keyed emitter's motion its smoke takes
    // shape = "points": the PLY files a frame, filled in by io (loadScenePoints).
    std::shared_ptr<const PointSequence> points;
    // The colour (linear RGB albedo) its smoke scatters (sim/smoke_color.h);
    // colored: the scene gave it a `color` (or keys), so the smoke carries colour.
    Vec3f color{0.9f, 0.9f, 0.9f};
    bool colored = false;
    float sparks = 0.0f;  // sparks born a second in its volume (sim/sparks.h)
    // True when it gives fuel (at some frame).
    bool givesFuel() const;
};

// A force field ([[field]], sim/force_fields.h): a push on the air within a
// shape, weakened with distance as Blender's fields are (`falloff*`).
enum class FieldType { Wind, Vortex, Turbulence, Attract, Drag, Curve };
// Where a field acts and what its falloff's distance is: everywhere (no
// falloff), from its center (sphere), from the line through center along its
// axis (tube), or within the 45-degree cone from center along its axis, by the
// distance from center (cone).
enum class FieldShape { Everywhere, Sphere, Tube, Cone };

struct FieldSettings {
    FieldType type = FieldType::Wind;
    // m/s^2 (wind, attract, turbulence, curve); rad/s, the target angular
    // speed (vortex); 1/s (drag). Attract pulls toward center; below 0 it pushes.
    float strength = 1.0f;
    Vec3f center{1, 1, 1};     // metres
    Vec3f direction{1, 0, 0};  // wind: the way it blows; the tube's and cone's axis
    Vec3f axis{0, 0, 1};       // every other type's axis (vortex: turns by the right hand)
    FieldShape shape = FieldShape::Everywhere;
    // Blender's falloff: full strength within falloffMin metres, then
    // (1 + d - min)^-power, none beyond falloffMax (0: no limit).
    float falloffPower = 0.0f;
    float falloffMin = 0.0f;
    float falloffMax = 0.0f;
    float size = 0.5f;   // turbulence: metres per swirl
    float speed = 1.0f;  // turbulence: renewals of the pattern a second
    int seed = 0;        // turbulence: another pattern
    std::vector<Vec3f> points;  // curve: the polyline, metres, in the order the smoke follows
    float radius = 0.25f;       // curve: metres around it that it acts in
    // Only where there is smoke or fuel, as Mantaflow applies Blender's fields
    // (a face between smoke and clear air at half strength).
    bool smokeOnly = false;
    Animation animation;        // strength, center, direction, axis, size, speed, radius
    bool keyed() const { return !animation.empty(); }
    int line = 0;  // line of its [[field]] header, for messages
};

struct ObstacleSettings : ShapeSettings {
    Vec3f color{0.5f, 0.5f, 0.5f};  // diffuse albedo, linear RGB
    bool visible = true;            // drawn and casting shadows
};

struct GroundSettings {
    bool enabled = false;
    float height = 0.0f;            // z of the plane, metres
    Vec3f color{0.4f, 0.4f, 0.4f};  // diffuse albedo, linear RGB
    float size = 0.0f;              // half-extent around the domain's centre; 0: infinite
    bool shadowCatcher = false;     // only the shadow, into alpha
};

// The light around the scene ([environment]): a latitude-longitude image
// in place of the procedural sky (render.ambient and the background).
struct EnvironmentSettings {
    std::string file;      // as given; "": no environment
    std::string filePath;  // resolved beside the scene file
    int fileLine = 0, fileColumn = 0;
    float rotation = 0.0f;   // degrees about Z, as Blender's Mapping node's Z rotation
    float intensity = 1.0f;  // times the file's radiance
    bool visible = true;     // seen as the background, or only as light
    // The file's pixels (io/environment_file.h), read after the scene loads.
    std::shared_ptr<const RadianceMap> map;
    bool given() const { return !file.empty(); }
};

// Which integrator draws a shaded frame (render.integrator).
enum class Integrator { March, Path };

// The march's light of two and more bounces (render.multiple_scattering).
// Auto is the octaves under the procedural sky and transport under an
// [environment] map, whose light has directions the octaves cannot carry
// (multipleScatteringOf).
enum class MultipleScattering { Auto, Transport, Octaves, Off };

// How a frame reads density between voxels (render.filter, render/march/filter.h):
// Sharp is the B-spline through every voxel's value (render/march/cubic.h).
enum class RenderFilter { Auto, Linear, Cubic, Sharp };

// What a frame shows (render.view): the shaded smoke, or one field on a
// plane (render.slice) as a colour map (render/views/slice_view.h).
enum class RenderView {
    Shaded,
    Density,
    Temperature,
    Flame,
    Speed,
    Vorticity,
    Pressure,
    Divergence
};

struct CameraSettings {
    // Orthographic: every ray parallel to the view, from a plane ortho_width
    // wide through position (a flipbook's cells, or Blender's Orthographic).
    CameraType type = CameraType::Perspective;
    float orthoWidth = 2.0f;  // metres the image's width spans, orthographic
    Vec3f position{1, -3.2f, 1.2f};
    Vec3f lookAt{1, 1, 1};
    Vec3f up{0, 0, 1};
    float fov = 40.0f;  // vertical, degrees
    // A lens as Blender gives it, instead of fov when focalLength > 0: the
    // sensor's width spans the image's larger side (Blender's sensor fit Auto).
    float focalLength = 0.0f;   // mm; 0: fov
    float sensorWidth = 36.0f;  // mm
    bool given = false;         // false: frame the domain automatically
    Animation animation;        // position, look_at, up, fov or focal_length, ortho_width

    // Whether the lens gives the field of view: focal_length given or keyed.
    bool byLens() const;
    // Half the image's height per metre in front of the camera for an image
    // of width / height `aspect`: tan(fov / 2), or the lens's.
    float halfHeight(float aspect) const;
    bool orthographic() const { return type == CameraType::Orthographic; }
    bool keyed() const { return !animation.empty(); }
};

struct LightSettings {
    LightType type = LightType::Directional;
    Vec3f direction{-0.5f, 0.3f, -0.8f};  // directional: the way the light travels
    Vec3f position{3, -2, 4};             // point
    Vec3f color{1, 1, 1};
    float intensity = 3.0f;
    // Names its layer of the EXR's render passes (render.passes "lights");
    // "": light_N, N its place among the scene's lights from 1.
    std::string name;
    Animation animation;  // direction, position, color, intensity
    bool keyed() const { return !animation.empty(); }
};

struct RenderSettings {
    int width = 1280, height = 720;
    float step = 0.5f;         // ray-march step in voxels
    float extinction = 40.0f;  // sigma_t per unit density, 1/m
    float albedo = 0.9f;
    float phase = 0.3f;  // Henyey-Greenstein g
    Vec3f backgroundTop{0.32f, 0.36f, 0.42f};
    Vec3f backgroundBottom{0.08f, 0.085f, 0.09f};
    Vec3f ambient{0.18f, 0.2f, 0.24f};  // sky light, radiance
    // A first fire reads as fire (tests/system/first_fire_test.cpp): flames of 1 to
    // about 2.5 units, 1200 to 3000 K, red at their edges, yellow-white at
    // their cores.
    float emission = 5.0f;            // a flame's light per metre (README "Fire")
    float fireTemperature = 1200.0f;  // kelvin per unit of simulation temperature
    float heatGlow = 0.0f;            // hot smoke's glow where nothing burns (a colour ramp)
    float fireLight = 1.0f;           // scale of a flame's light on its surroundings
    float exposure = 1.0f;
    bool transparent = false;  // alpha 0 background in EXR and PNG
    float motionBlur = 0.0f;   // shutter, fraction of a frame
    RenderFilter filter = RenderFilter::Auto;
    Integrator integrator = Integrator::March;
    int samples = 64;  // path samples a pixel (render.integrator = "path")
    MultipleScattering multipleScattering = MultipleScattering::Auto;
    float lightCacheResolution = 0.5f;  // of the density's, per axis
    bool adaptive =
        true;  // trace a sparse grid of pixels, fill between (render/march/pixel_tracer.cpp)
    std::string grid = "density";  // grid rendered by render-vdb
    RenderView view = RenderView::Shaded;
    // "x=1.0": the slice view's plane, an axis and a world position in
    // metres (scene/slice_spec.h); "": the domain's middle across the view.
    std::string slice;
    bool viewVelocity = false;  // streamlines of the in-plane velocity over a slice view
    float viewRange = 0.0f;     // the colour bar's top (|value| for signed fields); 0: per frame
    // Layers of the --exr frame beside the beauty (render/output/render_passes.h):
    // "emission", "lights", "sky", "fire_light", "depth", or "all".
    std::vector<std::string> passes;
    // Whether render.passes asks for this pass (or "all").
    bool wantsPass(std::string_view pass) const;
};

struct OutputSettings {
    double fps = 0;  // 0: time.fps
    int crf = 18;
    std::string preset = "medium";
    Codec codec = Codec::H264;
    VdbPrecision vdbPrecision = VdbPrecision::Half;
    std::string velocityName = "velocity";  // "vel" for Houdini
    // --nvdb's float grids (io/nvdb_cache.h): "float", "fp16" or "fpN", and
    // fpN's largest error, absolute.
    std::string nvdbCodec = "float";
    float nvdbTolerance = 1e-3f;
    // The EXR frames' working space (render/output/color_space.h): a name in
    // plume's OpenColorIO config, or in $OCIO's.
    std::string colorSpace = "lin_rec709";
    // Where it is given: "file:line:col", or "--set output.color_space=..."; "" when not.
    std::string colorSpaceAt;
};

// A flipbook (--flipbook DIR): the shot's frames as cells of one texture
// sheet for game engines (render/output/flipbook.h).
enum class FlipbookKind { Colour, SixWay };
enum class FlipbookAlpha { Straight, Premultiplied };
enum class FlipbookFormat { Png, Exr, Tga };

struct FlipbookSettings {
    int columns = 8, rows = 8;
    int frameSize = 256;  // pixels, a square cell: the frame and its padding
    int frames = 0;       // sampled evenly from the shot; 0: columns * rows
    FlipbookKind kind = FlipbookKind::Colour;
    FlipbookAlpha alpha = FlipbookAlpha::Straight;
    FlipbookFormat format = FlipbookFormat::Png;
    int padding = 0;         // pixels of transparency around the frame, inside its cell
    bool powerOfTwo = true;  // refuse a sheet whose sides are not powers of two
    bool motion = false;     // a motion-vector sheet (NAME_motion)
    float motionScale = 0;   // sheet UV of the motion sheet's full range; 0: its largest motion

    int frameCount() const { return frames > 0 ? frames : columns * rows; }
    int sheetWidth() const { return columns * frameSize; }
    int sheetHeight() const { return rows * frameSize; }
    int imageSize() const { return frameSize - 2 * padding; }  // the frame's, in its cell
};

// [loop]: the shot's last `frames` made to play in a loop (run/loop_blend.h):
// the last `overlap` of them crossfaded, in linear light, into the frames
// before the loop's first, so its last frame leads into its first.
enum class LoopMode { Blend, Periodic };

struct LoopSettings {
    int frames = 0;  // the loop's length; 0: no loop
    LoopMode mode = LoopMode::Blend;
    int overlap = 16;  // frames crossfaded at the loop's end (at most `frames`)

    bool on() const { return frames > 0; }
};

struct Scene {
    std::string name = "plume";  // file stem: names the cache and video
    std::string path;            // the file it came from
    DomainSettings domain;
    TimeSettings time;
    PhysicsSettings physics;
    SolverSettings solver;
    UpresSettings upres;
    ShapingSettings shaping;
    GuideSettings guide;
    SparksSettings sparks;
    std::vector<EmitterSettings> emitters;
    std::vector<ObstacleSettings> obstacles;
    std::vector<FieldSettings> fields;
    CameraSettings camera;
    std::vector<LightSettings> lights;
    Animation physicsAnimation;  // [[physics.key]]: time_scale, wind
    GroundSettings ground;
    EnvironmentSettings environment;
    RenderSettings render;
    OutputSettings output;
    FlipbookSettings flipbook;
    LoopSettings loop;
    // The dotted keys the scene file or a --set gave ("render.emission",
    // "emitter[1].fuel"); the rest are defaults.
    std::set<std::string> given;
    // A cache's own word that all its smoke is the fire's soot (plume's
    // "plume_soot_only"): render-vdb and upres of it without its scene.
    bool sootOnly = false;

    // True when some obstacle, emitter, field, the camera or a light has
    // keys, or physics.wind has.
    bool animated() const;
    // True when some field or physics.wind has keys: the solver then poses
    // them every substep.
    bool forcesMove() const;
    // True when some obstacle has keys: the solver then places solids every
    // substep and holds their face velocities.
    bool obstaclesMove() const;
    // True when a solid the frame shows (a visible obstacle) has keys.
    bool shownSolidsMove() const;
    // True when the picture's setup changes over time: the camera, a light,
    // or a solid the frame shows has keys.
    bool viewMoves() const;
    // True when some emitter emits fuel (at some frame): the solver then
    // carries fuel and flame.
    bool burns() const;
    // True when the scene burns and no emitter gives smoke of its own: all
    // its smoke is the fire's, drawn in physics.flame_smoke_color.
    bool smokeOnlyFromFire() const;
    // True when some emitter has a colour: the solver then carries the
    // smoke's colour (sim/smoke_color.h) and the cache its `color` grid.
    bool colored() const;
    // True when sparks are born (sparks.rate or an emitter's sparks above 0).
    bool hasSparks() const;
    // render.multiple_scattering with "auto" decided: transport under an
    // [environment] map, else the octaves.
    MultipleScattering multipleScatteringOf() const {
        if (render.multipleScattering != MultipleScattering::Auto) return render.multipleScattering;
        return environment.given() ? MultipleScattering::Transport : MultipleScattering::Octaves;
    }
    // This scene with every animated key set to its value at `frame`
    // (fractional frames between keys; frame f is the state at time f / fps).
    Scene atFrame(double frame) const;
    // The same, written into `pose`: a copy of this scene made once, whose
    // keyed keys are set anew on every call (no other key is touched), so a
    // solver or renderer that poses its scene every substep copies nothing.
    void poseAt(double frame, Scene& pose) const;
    // The mesh sequences' SDFs and velocities at `frame` (and with `surfaces`
    // their triangles, for the renderer) into `pose`; atFrame does both. The
    // velocities are per second of the shot times perShotSecond (1 / the
    // time scale gives them per simulated second).
    void poseSurfacesAt(double frame, Scene& pose, bool surfaces, double perShotSecond = 1.0) const;
};

}  // namespace plume
