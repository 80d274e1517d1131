// The frame's keys: the camera, the lights, the ground, the render and the
// output (scene/schema_keys.cpp has the simulation's and the shapes').
#include "scene/flame_units.h"
#include "scene/schema_binding.h"
#include "scene/schema_keys.h"

namespace plume {

namespace {

using namespace binding;

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

}  // namespace

std::vector<KeySpec> viewKeys() {
    return {
        // [camera]
        key("camera", "type", cameraPart, &CameraSettings::type, kAny,
            "perspective (a pinhole: fov or focal_length) or orthographic (every ray parallel "
            "to the view, over ortho_width; for flipbooks and Blender's Orthographic)",
            {"perspective", "orthographic"}),
        unusedWhen(animated(key("camera", "ortho_width", cameraPart, &CameraSettings::orthoWidth,
            kPositive, "orthographic: metres the image's width spans (its height: times "
            "height / width), at any distance; the rays start on the plane through position "
            "across the view, so nothing behind it is seen")), perspective),
        placedAt(animated(key("camera", "position", cameraPart, &CameraSettings::position, kAny,
            "eye position in metres")), Placement::Point),
        placedAt(animated(key("camera", "look_at", cameraPart, &CameraSettings::lookAt, kAny,
            "point the camera looks at")), Placement::Point),
        animated(key("camera", "up", cameraPart, &CameraSettings::up, kAny, "up direction (Z up)")),
        unusedWhen(animated(key("camera", "fov", cameraPart, &CameraSettings::fov, {1, 179},
            "vertical field of view in degrees (or give focal_length)")), byLens),
        unusedWhen(animated(key("camera", "focal_length", cameraPart, &CameraSettings::focalLength, {1, 5000},
            "lens focal length in mm instead of fov (0 = not given: fov); the sensor's width "
            "spans the image's larger side, as Blender's sensor fit Auto")), byFov),
        key("camera", "sensor_width", cameraPart, &CameraSettings::sensorWidth, {1, 1000},
            "sensor width in mm, with focal_length (Blender's default 36)"),
        interpolationKey<CameraSettings>("camera", cameraPart),

        // [[light]]
        key("light", "type", lightPart, &LightSettings::type, kAny,
            "directional (sun-like) or point", {"directional", "point"}),
        animated(key("light", "direction", lightPart, &LightSettings::direction, kAny,
            "directional: the way the light travels (need not be unit length)")),
        placedAt(animated(key("light", "position", lightPart, &LightSettings::position, kAny,
            "point: position in metres")), Placement::Point),
        animated(key("light", "color", lightPart, &LightSettings::color, kNonNegative, "linear RGB colour")),
        animated(key("light", "intensity", lightPart, &LightSettings::intensity, kNonNegative,
            "brightness multiplier")),
        key("light", "name", lightPart, &LightSettings::name, kAny,
            "names the light's layer of the EXR's render passes (render.passes \"lights\"): "
            "letters, digits and _, not starting with a digit; empty: light_N, N its place "
            "among the lights from 1"),
        interpolationKey<LightSettings>("light", lightPart),

        // [ground]
        key("ground", "enabled", groundPart, &GroundSettings::enabled, kAny,
            "draw a ground plane that catches the shadows of smoke and solids"),
        placedAt(key("ground", "height", groundPart, &GroundSettings::height, kAny,
            "world z of the plane in metres"), Placement::Height),
        key("ground", "color", groundPart, &GroundSettings::color, kUnit,
            "diffuse albedo (linear RGB)"),
        key("ground", "size", groundPart, &GroundSettings::size, kNonNegative,
            "half-extent in metres around the domain's centre (0 = infinite, fading at the "
            "horizon)"),
        key("ground", "shadow_catcher", groundPart, &GroundSettings::shadowCatcher, kAny,
            "draw only the shadows, into alpha, for compositing over footage"),

        // [render]
        even(key("render", "width", renderPart, &RenderSettings::width, {16, 7680},
            "frame width in pixels (even: H.264 yuv420p)")),
        even(key("render", "height", renderPart, &RenderSettings::height, {16, 7680},
            "frame height in pixels (even: H.264 yuv420p)")),
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
        key("render", "integrator", renderPart, &RenderSettings::integrator, kAny,
            "march (the fast ray-marcher) or path (an unbiased volumetric path tracer, for "
            "reference and hero frames: render.samples paths a pixel, light of every bounce, "
            "the ground and solids diffuse)",
            {"march", "path"}),
        key("render", "samples", renderPart, &RenderSettings::samples, {1, 65536},
            "path samples a pixel with integrator = \"path\"; the noise falls as one over "
            "its square root"),
        key("render", "multiple_scattering", renderPart, &RenderSettings::multipleScattering,
            kAny,
            "the march's light of two and more bounces: transport (shadows by rays, the sky "
            "from 24 directions, paths through the real density fill a light cache each frame; "
            "about 4x the octaves' time), octaves (an approximation: shadows seen through less "
            "smoke), off (single scattering only), or auto: transport under an [environment] "
            "map, else octaves",
            {"auto", "transport", "octaves", "off"}),
        key("render", "light_cache_resolution", renderPart, &RenderSettings::lightCacheResolution,
            {0.05, 1},
            "the transport light cache's cells per density cell along each axis"),
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

        // [environment]
        key("environment", "file", environmentPart, &EnvironmentSettings::file, kAny,
            "a latitude-longitude OpenEXR or Radiance .hdr, relative to the scene file, mapped "
            "as Blender's Environment Texture maps it (Z up, its middle toward +X); it lights "
            "the smoke, the ground and the solids in place of render.ambient"),
        key("environment", "rotation", environmentPart, &EnvironmentSettings::rotation, kAny,
            "degrees about Z, as the Z rotation of a Mapping node before Blender's "
            "Environment Texture"),
        key("environment", "intensity", environmentPart, &EnvironmentSettings::intensity,
            kNonNegative, "times the file's radiance (Blender's Background strength)"),
        key("environment", "visible", environmentPart, &EnvironmentSettings::visible, kAny,
            "seen as the background behind the smoke (false: it only lights the scene, the "
            "background stays render.background_*)"),

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

        // [flipbook]
        key("flipbook", "columns", flipbookPart, &FlipbookSettings::columns, {1, 64},
            "cells across the sheet"),
        key("flipbook", "rows", flipbookPart, &FlipbookSettings::rows, {1, 64},
            "cells down the sheet"),
        even(key("flipbook", "frame_size", flipbookPart, &FlipbookSettings::frameSize,
            {16, 4096}, "a cell's side in pixels (square); the frame is rendered this size "
            "less twice the padding, whatever render.width and height say")),
        key("flipbook", "frames", flipbookPart, &FlipbookSettings::frames, {0, 4096},
            "how many frames, sampled evenly from the shot (or --frames); 0: columns x rows"),
        key("flipbook", "kind", flipbookPart, &FlipbookSettings::kind, kAny,
            "what the sheets hold: colour (the lit frame, NAME_colour); six_way (Unity's "
            "six-way lightmaps: NAME_Positive RGB lit from the right, top and back, A alpha; "
            "NAME_Negative from the left, bottom and front, A the flame's emission; each by "
            "one light of irradiance pi relative to the camera, no sky, linear)",
            {"colour", "six_way"}),
        key("flipbook", "alpha", flipbookPart, &FlipbookSettings::alpha, kAny,
            "straight (colour not multiplied by alpha, as PNG holds it) or premultiplied "
            "(colour times alpha, for additive and premultiplied blending)",
            {"straight", "premultiplied"}),
        key("flipbook", "format", flipbookPart, &FlipbookSettings::format, kAny,
            "png (8-bit sRGB), exr (16-bit half linear, output.color_space) or tga (8-bit "
            "sRGB, uncompressed)", {"png", "exr", "tga"}),
        key("flipbook", "padding", flipbookPart, &FlipbookSettings::padding, {0, 512},
            "transparent pixels around each frame inside its cell, so mipmaps do not bleed "
            "between frames; the frame is frame_size - 2 x padding"),
        key("flipbook", "power_of_two", flipbookPart, &FlipbookSettings::powerOfTwo, kAny,
            "refuse a sheet whose width or height is not a power of two (columns x frame_size, "
            "rows x frame_size), as engines' mipmaps and compression want"),
        key("flipbook", "motion", flipbookPart, &FlipbookSettings::motion, kAny,
            "a motion-vector sheet beside it, NAME_motion (16-bit PNG, or EXR): each cell's "
            "screen motion to the next as the SideFX game tools' shader reads it, for frame "
            "blending"),
        key("flipbook", "motion_scale", flipbookPart, &FlipbookSettings::motionScale, {0, 1},
            "sheet UV (1 = the sheet's width) the motion sheet's full range stands for: RG = "
            "motion / motion_scale x 0.5 + 0.5; 0: the sheet's largest motion (the sidecar "
            "says which)"),

        // [loop]
        key("loop", "frames", loopPart, &LoopSettings::frames, {0, 4096},
            "the loop's length: the pictures (frames, video, flipbook) are the shot's last "
            "`frames` frames, made to play in a loop; 0: no loop"),
        key("loop", "mode", loopPart, &LoopSettings::mode, kAny,
            "blend: the loop's last `overlap` frames crossfaded in linear light into the "
            "frames before its first (Houdini's and Unity's loops), so its last frame leads "
            "into its first; periodic: not yet", {"blend", "periodic"}),
        key("loop", "overlap", loopPart, &LoopSettings::overlap, {1, 4096},
            "frames of the blend: the shot needs loop.frames + overlap frames; longer is a "
            "slower, less visible crossfade"),
    };
}

}  // namespace plume
