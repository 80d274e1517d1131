# A fire through the Blender add-on, as a user makes one: a domain and an
# emitter that gives fuel, every fire and look setting at its default, Bake,
# then F12 in Cycles.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_fire.py -- \
#            ADDON_ZIP PLUME WORK_DIR
#
# Checks:
# - the imported volume's material is plume's look as README "Fire" gives it,
#   with plume's own constants (`plume check --reference --reference-format
#   json`, run here, not the add-on's copy): Blackbody Intensity = the flame
#   attribute x cycles_blackbody_per_emission x render.emission, Density =
#   render.extinction x (density + flame_density x flame), Color
#   physics.flame_smoke_color (all the smoke is the fire's), Absorption Color
#   black, Anisotropy render.phase, Temperature render.fire_temperature with
#   the temperature attribute;
# - a Cycles frame of the last baked frame shows flame: its brightest 2% of
#   pixels bright and orange to yellow; with Blackbody Intensity at 0 (what
#   the material gave at the old render.emission default) they are not.
# Writes WORK_DIR/fire.png and WORK_DIR/no_flame.png.
import json
import math
import os
import subprocess
import sys
import time

import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import (add_burner, add_domain, add_front_camera, add_shot, check, die,  # noqa: E402
                          gate, install, say)

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... addon_fire.py -- ADDON_ZIP PLUME WORK_DIR")
addon_zip, plume, work = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)

RESOLUTION = 32
FIRST, LAST = 1, 24
DOMAIN_SIZE = Vector((1.0, 1.0, 1.5))
WIDTH, HEIGHT, SAMPLES = 96, 128, 16
TOP_FRACTION = 0.02       # the brightest 2% of pixels are "the flame"
MIN_TOP_LUMA = 0.1        # their mean linear luminance
MIN_RG, MIN_GB = 1.2, 1.5  # and colour: R > 1.2 G, G > 1.5 B (grey smoke: 1, 1)


def near(a, b):
    return abs(a - b) <= 1e-5 * max(1.0, abs(b))  # Blender's sockets are 32-bit floats


# --- Install the zip as a user does -------------------------------------------
install(addon_zip, plume)
reference = json.loads(subprocess.run([plume, "check", "--reference", "--reference-format", "json"],
                                      capture_output=True, text=True, check=True).stdout)
constants = {name: c["value"] for name, c in reference["constants"].items()}
say(f"plume's constants: {constants}")

# --- A domain and a fire emitter, everything else at its default -------------
scene = add_shot(FIRST, LAST, size=(WIDTH, HEIGHT))
domain = add_domain(DOMAIN_SIZE, RESOLUTION)
emitter = add_burner((0.5, 0.5, 0.2))
emitter.plume.emitter_fuel = 1.0
# A fire emitter (Blender's Flow Type Fire): fuel and no smoke of its own,
# as plume takes an emitter that gives fuel and no density.
emitter.plume.emitter_density = 0.0
emitter.hide_render = True

distance = 1.15 * 0.75 / math.tan(math.radians(20.0)) + 0.5
add_front_camera(scene, 40.0, (0.5, 0.5 - distance, 0.75))
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "fire.blend"))

# --- Bake and import through the operator ------------------------------------
t = time.monotonic()
result = bpy.ops.plume.bake()
say(f"plume.bake: {result} in {time.monotonic() - t:.1f} s")
obj = bpy.data.objects.get("Domain_plume")
if result != {"FINISHED"} or obj is None:
    die(f"plume.bake gave {result} and no 'Domain_plume'")

# --- The material: plume's mapping, plume's constants -------------------------
ds = domain.plume
nt = obj.data.materials[0].node_tree
pv = next(n for n in nt.nodes if n.bl_idname == "ShaderNodeVolumePrincipled")


def source(socket):
    """The node feeding an input socket, or None."""
    return socket.links[0].from_node if socket.is_linked else None


def attribute_of(socket):
    n = source(socket)
    return n.attribute_name if n is not None and n.bl_idname == "ShaderNodeAttribute" else None


gain = source(pv.inputs["Blackbody Intensity"])
want_gain = constants["cycles_blackbody_per_emission"] * ds.render_emission
check(gain is not None and gain.operation == "MULTIPLY" and attribute_of(gain.inputs[0]) == "flame"
      and near(gain.inputs[1].default_value, want_gain),
      f"Blackbody Intensity = flame x {constants['cycles_blackbody_per_emission']} x render.emission "
      f"({ds.render_emission})", f"{gain.inputs[1].default_value if gain else None} vs {want_gain}")
check(ds.render_emission > 0.0, "render.emission's default draws a flame", str(ds.render_emission))
dens = source(pv.inputs["Density"])
rho = source(dens.inputs[0]) if dens is not None else None
check(dens is not None and dens.operation == "MULTIPLY" and near(dens.inputs[1].default_value, ds.render_extinction)
      and rho is not None and rho.operation == "MULTIPLY_ADD" and attribute_of(rho.inputs[0]) == "flame"
      and near(rho.inputs[1].default_value, constants["flame_density"])
      and attribute_of(rho.inputs[2]) == "density" and pv.inputs["Density Attribute"].default_value == "",
      f"Density = render.extinction x (density + {constants['flame_density']} flame)")
colour = tuple(pv.inputs["Color"].default_value)[:3]
check(all(near(a, b) for a, b in zip(colour, ds.physics_flame_smoke_color)),
      "Color is physics.flame_smoke_color", f"{colour}")
check(tuple(pv.inputs["Absorption Color"].default_value)[:3] == (0.0, 0.0, 0.0), "Absorption Color black")
check(near(pv.inputs["Anisotropy"].default_value, ds.render_phase), "Anisotropy is render.phase",
      f"{pv.inputs['Anisotropy'].default_value} vs {ds.render_phase}")
check(near(pv.inputs["Temperature"].default_value, ds.render_fire_temperature)
      and pv.inputs["Temperature Attribute"].default_value == "temperature",
      "Temperature = render.fire_temperature x the temperature grid")

# --- F12 in Cycles: flame ----------------------------------------------------
scene.frame_set(LAST)
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = SAMPLES
scene.cycles.use_adaptive_sampling = False
scene.cycles.use_denoising = False
scene.cycles.seed = 1
scene.render.threads_mode = "FIXED"
scene.render.threads = 2
scene.view_settings.view_transform = "Standard"


def render(name):
    path = os.path.join(work, name + ".exr")
    settings = scene.render.image_settings
    settings.file_format, settings.color_mode, settings.color_depth = "OPEN_EXR", "RGB", "32"
    scene.render.filepath = path
    t = time.monotonic()
    bpy.ops.render.render(write_still=True)
    bpy.data.images["Render Result"].save_render(os.path.join(work, name + ".png"))
    img = bpy.data.images.load(path)
    img.colorspace_settings.name = "Non-Color"
    px = list(img.pixels)
    bpy.data.images.remove(img)
    say(f"Cycles {WIDTH}x{HEIGHT}, {SAMPLES} samples: {time.monotonic() - t:.1f} s")
    rgb = [px[i:i + 3] for i in range(0, len(px), 4)]
    luma = sorted(((0.2126 * r + 0.7152 * g + 0.0722 * b, (r, g, b)) for r, g, b in rgb), reverse=True)
    top = luma[:max(1, int(TOP_FRACTION * len(luma)))]
    mean = [sum(c[k] for _, c in top) / len(top) for k in range(3)]
    return mean, sum(v for v, _ in top) / len(top)


def flame_like(mean, luma):
    r, g, b = mean
    return luma > MIN_TOP_LUMA and r > MIN_RG * g and g > MIN_GB * b


def describe(mean, luma):
    r, g, b = mean
    return (f"brightest {100 * TOP_FRACTION:.0f}%: RGB ({r:.4f}, {g:.4f}, {b:.4f}), luminance {luma:.4f}, "
            f"R/G {r / max(g, 1e-9):.2f}, G/B {g / max(b, 1e-9):.2f}")


fire = render("fire")
check(flame_like(*fire), f"Cycles shows the flame (luminance > {MIN_TOP_LUMA}, R > {MIN_RG} G, G > {MIN_GB} B)",
      describe(*fire))
gain.inputs[1].default_value = 0.0  # the material as the old default (render.emission 0) made it
dark = render("no_flame")
check(not flame_like(*dark), "with Blackbody Intensity 0 it does not (control)", describe(*dark))
gate("flame")
say("PASS")
