# Blender imports one frame of a plume fire cache the way a user does and
# renders its fire with a Principled Volume's blackbody emission in Cycles.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python import_plume_fire.py -- \
#            VDB_FILE FIRE_TEMPERATURE EXTINCTION EMISSION SCHEMA_JSON SIZE_X SIZE_Y SIZE_Z OUT_DIR
#
# Checks: Add > Volume > Import OpenVDB gives one Volume object whose grids
# Blender reads as density, flame, fuel and temperature (float) and velocity
# (vector). The material is the one a user sets up for fire: Principled
# Volume, Density Attribute "density" (Density = render.extinction, per metre
# per unit density, as plume's), Blackbody Intensity from an Attribute node
# reading "flame" (times cycles_blackbody_per_emission x render.emission, the
# constant from SCHEMA_JSON, `plume check --reference --reference-format
# json`), Temperature = render.fire_temperature (kelvin per unit, as
# plume's) times the Temperature Attribute "temperature". Cycles renders it
# twice at WIDTHxHEIGHT, few samples, Standard view: as imported, and with the
# Attribute node reading a grid the file does not have (the cache without its
# flame). Passes when the first shows orange light (the brightest pixels
# bright, R > G > B by the margins below) and the second does not; exits 1
# with a message otherwise. Writes OUT_DIR/fire.png and OUT_DIR/no_flame.png.
import json
import math
import os
import sys
import time

import bpy
from mathutils import Matrix, Vector

WIDTH, HEIGHT, SAMPLES = 96, 128, 16
TOP_FRACTION = 0.02     # the brightest 2% of pixels are "the flame"
MIN_TOP_LUMA = 0.05     # their mean linear luminance must exceed this
MIN_RG, MIN_GB = 1.3, 1.2  # and their mean colour R > 1.3 G, G > 1.2 B: orange (grey smoke: 1, 1)
args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 9:
    sys.exit("usage: ... import_plume_fire.py -- VDB_FILE FIRE_TEMPERATURE EXTINCTION EMISSION "
             "SCHEMA_JSON SIZE_X SIZE_Y SIZE_Z OUT_DIR")
vdb_file = os.path.abspath(args[0])
fire_temperature, extinction, emission = float(args[1]), float(args[2]), float(args[3])
with open(args[4], encoding="utf-8") as f:
    constants = json.load(f)["constants"]
# Blackbody Intensity = flame * FLAME_GAIN: plume's render.emission in
# Cycles' units (sigma T^4 / pi per unit, about 0.1 per metre at 1500 K).
FLAME_GAIN = constants["cycles_blackbody_per_emission"]["value"] * emission
size = Vector((float(args[5]), float(args[6]), float(args[7])))
out_dir = os.path.abspath(args[8])
os.makedirs(out_dir, exist_ok=True)
failures = 0


def say(msg):
    print(f"plume-test: {msg}", flush=True)


def check(ok, what, detail=""):
    global failures
    say(f"{'ok  ' if ok else 'FAIL'} {what}{(': ' + detail) if detail else ''}")
    if not ok:
        failures += 1


def die(msg):
    say(f"FAIL {msg}")
    sys.stderr.write(f"plume-test: FAIL {msg}\n")
    sys.exit(1)


bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene

# --- Import, as Add > Volume > Import OpenVDB with one file selected ---------
result = bpy.ops.object.volume_import(
    filepath=vdb_file, directory=os.path.dirname(vdb_file) + os.sep,
    files=[{"name": os.path.basename(vdb_file)}], use_sequence_detection=False,
    align="WORLD", location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0))
volumes = [o for o in scene.objects if o.type == "VOLUME"]
if result != {"FINISHED"} or len(volumes) != 1:
    die(f"volume_import gave {result} and {len(volumes)} Volume objects")
obj = volumes[0]
vol = obj.data
vol.grids.load()
check(vol.grids.is_loaded, "grids load", vol.grids.error_message)
grids = {g.name: g.data_type for g in vol.grids}
say(f"grids: {', '.join(f'{n} ({t})' for n, t in sorted(grids.items()))}")
for name, dtype in (("density", "FLOAT"), ("flame", "FLOAT"), ("fuel", "FLOAT"),
                    ("temperature", "FLOAT"), ("velocity", "VECTOR_FLOAT")):
    check(grids.get(name) == dtype, f"grid '{name}' is {dtype}", str(grids.get(name)))

# --- The fire material a user makes: Principled Volume, blackbody from flame -
mat = bpy.data.materials.new("PlumeFire")
mat.use_nodes = True
nt = mat.node_tree
nt.nodes.clear()
principled = nt.nodes.new("ShaderNodeVolumePrincipled")
principled.inputs["Color"].default_value = (0.8, 0.8, 0.8, 1.0)
principled.inputs["Density"].default_value = extinction
principled.inputs["Density Attribute"].default_value = "density"
principled.inputs["Temperature"].default_value = fire_temperature
principled.inputs["Temperature Attribute"].default_value = "temperature"
flame = nt.nodes.new("ShaderNodeAttribute")
flame.attribute_name = "flame"
gain = nt.nodes.new("ShaderNodeMath")
gain.operation = "MULTIPLY"
gain.inputs[1].default_value = FLAME_GAIN
nt.links.new(flame.outputs["Fac"], gain.inputs[0])
nt.links.new(gain.outputs[0], principled.inputs["Blackbody Intensity"])
out = nt.nodes.new("ShaderNodeOutputMaterial")
nt.links.new(principled.outputs["Volume"], out.inputs["Volume"])
vol.materials.append(mat)

# --- A dim grey world and a faint sun, so smoke without flame shows grey -----
world = bpy.data.worlds.new("Night")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.01, 0.01, 0.01, 1.0)
scene.world = world
sun_data = bpy.data.lights.new("Sun", "SUN")
sun_data.energy = 0.5
sun = bpy.data.objects.new("Sun", sun_data)
scene.collection.objects.link(sun)
sun.rotation_euler = Vector((0.3, 0.6, -0.7)).to_track_quat("-Z", "Y").to_euler()

# --- Camera: in front (-Y), looking at the domain's centre, all of it in view -
fov = math.radians(40.0)
centre = size / 2
distance = 1.15 * (0.5 * size.z) / math.tan(0.5 * fov) + 0.5 * size.y
cam_data = bpy.data.cameras.new("Camera")
cam_data.sensor_fit = "VERTICAL"
cam_data.lens = 0.5 * cam_data.sensor_height / math.tan(0.5 * fov)
cam = bpy.data.objects.new("Camera", cam_data)
scene.collection.objects.link(cam)
cam.matrix_world = Matrix(((1, 0, 0, centre.x), (0, 0, -1, centre.y - distance),
                           (0, 1, 0, centre.z), (0, 0, 0, 1)))  # looks along +Y, Z up
scene.camera = cam

scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = SAMPLES
scene.cycles.use_adaptive_sampling = False
scene.cycles.use_denoising = False
scene.cycles.seed = 1
scene.cycles.volume_bounces = 2
scene.render.threads_mode = "FIXED"
scene.render.threads = 2
scene.render.resolution_x, scene.render.resolution_y = WIDTH, HEIGHT
scene.render.resolution_percentage = 100
scene.view_settings.view_transform = "Standard"
scene.view_settings.look = "None"


def render(name):
    """Renders to OUT_DIR/NAME.exr (linear) and NAME.png (sRGB); the linear pixels, bottom row first."""
    t = time.monotonic()
    bpy.ops.render.render()
    result = bpy.data.images["Render Result"]
    exr, png = (os.path.join(out_dir, name + ext) for ext in (".exr", ".png"))
    settings = scene.render.image_settings
    settings.file_format, settings.color_mode, settings.color_depth = "OPEN_EXR", "RGB", "32"
    result.save_render(exr)
    settings.file_format, settings.color_mode, settings.color_depth = "PNG", "RGB", "8"
    result.save_render(png)
    img = bpy.data.images.load(exr)
    img.colorspace_settings.name = "Non-Color"  # the numbers as stored
    px = list(img.pixels)
    bpy.data.images.remove(img)
    say(f"Cycles rendered {exr} ({SAMPLES} samples, {WIDTH}x{HEIGHT}) in {time.monotonic() - t:.1f} s")
    return [px[4 * i:4 * i + 3] for i in range(WIDTH * HEIGHT)]


def flame_colour(pixels):
    """Mean linear RGB and luminance of the brightest TOP_FRACTION of pixels."""
    luma = sorted(((0.2126 * r + 0.7152 * g + 0.0722 * b, (r, g, b)) for r, g, b in pixels),
                  reverse=True)
    top = luma[:max(1, int(TOP_FRACTION * len(luma)))]
    mean = [sum(c[k] for _, c in top) / len(top) for k in range(3)]
    return mean, sum(l for l, _ in top) / len(top)


def is_orange(mean, luma):
    r, g, b = mean
    return luma > MIN_TOP_LUMA and r > MIN_RG * g and g > MIN_GB * b


def describe(mean, luma):
    r, g, b = mean
    return (f"brightest {100 * TOP_FRACTION:.0f}%: mean RGB ({r:.4f}, {g:.4f}, {b:.4f}), "
            f"luminance {luma:.4f}, R/G {r / max(g, 1e-9):.2f}, G/B {g / max(b, 1e-9):.2f}")


# --- The fire, then the same without its flame --------------------------------
fire = flame_colour(render("fire"))
check(is_orange(*fire), f"Cycles shows orange emission (luminance > {MIN_TOP_LUMA}, "
      f"R > {MIN_RG} G, G > {MIN_GB} B)", describe(*fire))
flame.attribute_name = "no_such_grid"  # as if the cache had no flame grid
plain = flame_colour(render("no_flame"))
check(not is_orange(*plain), "without the flame grid Cycles shows no orange emission (control)",
      describe(*plain))
if failures:
    die(f"{failures} check(s) failed")
say("PASS")
