# The World and the lights through the Blender add-on, and the imported
# material's interpolation (issue 53, items 13 and 14): a night scene, a
# domain and a burner lit by nothing but a dark World.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_world.py -- \
#            ADDON_ZIP PLUME WORK_DIR
#
# Checks:
# - plume.export of a scene with no light writes no light, and plume reads it
#   so (`plume check`: no [[light]], not its default key light); a sun added is
#   written as the one light;
# - the World is plume's background and sky light, Blender's colour x strength
#   (render.background_top = background_bottom = ambient): a node World's
#   Background, a World without nodes (world.color), strength 0 (black), no
#   World (black); a World of more than one colour (a Sky Texture) keeps
#   plume's own sky and says so in one line; an Environment Texture (Blender's
#   forest.exr through a Mapping node's Z rotation) is plume's [environment];
# - Render with plume draws the night: the frame's corners are the World's
#   dark blue as plume tone-maps it, not plume's daytime sky;
# - the bake's imported material reads the grids with Cycles' Interpolation
#   where plume's render.filter would: Cubic for "cubic", Linear for "linear"
#   and "sharp", and for "auto" what plume itself picks, found by rendering
#   the baked frame with render.filter auto, cubic and linear (plume render-vdb
#   --scene of the export, PNGs compared byte for byte), with the camera close
#   (Cubic), far (Linear) and none (plume's own framing).
# Writes WORK_DIR/night.mp4 and the PNGs under WORK_DIR/filter_*.
import json
import os
import subprocess
import sys
import tomllib

import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import (add_burner, add_domain, add_front_camera, add_shot, captured, check,  # noqa: E402
                          die, gate, install, say, warnings_of)

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... addon_world.py -- ADDON_ZIP PLUME WORK_DIR")
addon_zip, plume, work = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)

RESOLUTION = 16
FIRST, LAST = 1, 3
WIDTH, HEIGHT = 160, 120
NIGHT, STRENGTH = (0.02, 0.03, 0.06), 0.5  # a dark blue sky, at half strength


def near(a, b, tol=1e-5):
    return all(abs(x - y) <= tol * max(1.0, abs(y)) for x, y in zip(a, b))


install(addon_zip, plume)
scene = add_shot(FIRST, LAST, size=(WIDTH, HEIGHT))
domain = add_domain(Vector((1.0, 1.0, 1.0)), RESOLUTION)
burner = add_burner((0.5, 0.5, 0.2))
burner.hide_render = True
cam = add_front_camera(scene, 40.0, (0.5, -1.4, 0.5))
domain.plume.cache_dir = os.path.join(work, "cache")

world = bpy.data.worlds.new("Night")
world.use_nodes = True
background = world.node_tree.nodes["Background"]
background.inputs["Color"].default_value = (*NIGHT, 1.0)
background.inputs["Strength"].default_value = STRENGTH
scene.world = world
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "world.blend"))


def exported(name):
    """(the file's text, `plume check`'s resolved scene, the warnings) of plume.export."""
    path = os.path.join(work, name + ".toml")
    result, lines = captured(lambda: bpy.ops.plume.export(filepath=path))
    if result != {"FINISHED"}:
        die(f"plume.export of {name} gave {result}")
    r = subprocess.run([plume, "check", path], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"plume check {path}: {r.stderr.strip()}")
    with open(path, encoding="utf-8") as f:
        return f.read(), tomllib.loads(r.stdout), warnings_of(lines)


def sky_of(resolved):
    rs = resolved["render"]
    return rs["background_top"], rs["background_bottom"], rs["ambient"]


def check_sky(resolved, want, what):
    top, bottom, ambient = sky_of(resolved)
    check(near(top, want) and near(bottom, want) and near(ambient, want),
          f"{what}: render.background_top, background_bottom and ambient are {want}",
          f"top {top}, bottom {bottom}, ambient {ambient}")


# --- No light in Blender: none in plume -----------------------------------------
text, resolved, warned = exported("night")
lights = resolved.get("light", [])
check(len(lights) == 0, "a scene with no light exports no light (plume adds no default key light)",
      f"{len(lights)} light(s): {lights}")
check("light = []" in text.split("\n[", 1)[0], "the file says so before any table: light = []")
radiance = [c * STRENGTH for c in NIGHT]
check_sky(resolved, radiance, "the World's Background colour x strength")
check(not warned, "a one-colour World exports without a warning", str(warned))

sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
scene.collection.objects.link(sun)
text, resolved, _ = exported("with_sun")
check(len(resolved.get("light", [])) == 1 and "light = []" not in text,
      "a sun is the one light", str(resolved.get("light")))
sun.hide_render = True
_, resolved, _ = exported("sun_hidden")
check(len(resolved.get("light", [])) == 0, "a sun hidden from renders is no light",
      str(resolved.get("light")))

# --- The World's colour, as Blender means it ------------------------------------
background.inputs["Strength"].default_value = 0.0
check_sky(exported("strength_0")[1], [0.0, 0.0, 0.0], "World strength 0")
background.inputs["Strength"].default_value = STRENGTH
world.use_nodes = False
world.color = (0.1, 0.05, 0.02)
check_sky(exported("no_nodes")[1], [0.1, 0.05, 0.02], "a World without nodes: world.color")
scene.world = None
check_sky(exported("no_world")[1], [0.0, 0.0, 0.0], "no World (Blender renders it black)")
scene.world = world
world.use_nodes = True
sky = world.node_tree.nodes.new("ShaderNodeTexSky")
link = world.node_tree.links.new(sky.outputs["Color"], background.inputs["Color"])
_, resolved, warned = exported("sky_texture")
defaults = subprocess.run([plume, "check", "--reference", "--reference-format", "json"],
                          capture_output=True, text=True, check=True).stdout
keys = {f"{k['section']}.{k['key']}": k["default"] for k in json.loads(defaults)["keys"]}
top, bottom, ambient = sky_of(resolved)
check(near(top, keys["render.background_top"]) and near(ambient, keys["render.ambient"]),
      "a Sky Texture World keeps plume's own sky", f"top {top}, ambient {ambient}")
check(len(warned) == 1 and "World 'Night'" in warned[0] and "Sky Texture" in warned[0],
      "and says so in one line naming the World and its node", str(warned))
world.node_tree.links.remove(link)
world.node_tree.nodes.remove(sky)

# An Environment Texture (one of Blender's own studio HDRIs), turned about Z by
# a Mapping node: plume's [environment], its file, rotation and strength.
hdri = os.path.join(os.path.dirname(bpy.app.binary_path), "..", "share", "blender", "datafiles",
                    "studiolights", "world", "forest.exr")
hdri = next((p for p in (hdri, "/usr/share/blender/datafiles/studiolights/world/forest.exr")
             if os.path.isfile(p)), None)
if hdri is None:
    die("Blender's studio light forest.exr is not where Debian's blender package puts it")
nodes, links = world.node_tree.nodes, world.node_tree.links
texture = nodes.new("ShaderNodeTexEnvironment")
texture.image = bpy.data.images.load(hdri)
mapping = nodes.new("ShaderNodeMapping")
coords = nodes.new("ShaderNodeTexCoord")
mapping.inputs["Rotation"].default_value = (0.0, 0.0, 0.5235988)  # 30 degrees
links.new(coords.outputs["Generated"], mapping.inputs["Vector"])
links.new(mapping.outputs["Vector"], texture.inputs["Vector"])
env_link = links.new(texture.outputs["Color"], background.inputs["Color"])
text, resolved, warned = exported("environment")
env = resolved.get("environment", {})
check(os.path.samefile(env.get("file") or "/nonexistent", hdri) and abs(env.get("rotation", 0) - 30.0) < 1e-3
      and abs(env.get("intensity", 0) - STRENGTH) < 1e-6 and env.get("visible") is True,
      "an Environment Texture World is [environment]: its file, the Mapping node's Z rotation and "
      "the Background's strength", str(env))
check(not warned, "and exports without a warning", str(warned))
mapping.inputs["Scale"].default_value = (2.0, 1.0, 1.0)
_, resolved, warned = exported("environment_scaled")
check(resolved.get("environment", {}).get("file", "") == "" and len(warned) == 1
      and "does more than turn about Z" in warned[0],
      "a Mapping node that scales keeps plume's own sky and says so", str(warned))
links.remove(env_link)
for node in (texture, mapping, coords):
    nodes.remove(node)
gate("the World and the lights in the scene file")

# --- Render with plume: a night sky, not a day's ----------------------------------
video = os.path.join(work, "night.mp4")
result = bpy.ops.plume.render(filepath=video)
rgb = subprocess.run(["ffmpeg", "-v", "error", "-i", video, "-frames:v", "1", "-f", "rawvideo",
                      "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
w, h = WIDTH, HEIGHT
corners = [rgb[3 * (y * w + x):3 * (y * w + x) + 3] for x, y in ((2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3))]
say(f"Render with plume: corners {[tuple(c) for c in corners]}")
check(result == {"FINISHED"} and all(max(c) < 40 and c[2] >= c[0] for c in corners),
      "Render with plume draws the World's dark blue, not plume's daytime sky (sRGB levels < 40, blue)",
      str([tuple(c) for c in corners]))
gate("Render with plume")

# --- The imported material's interpolation: plume's render.filter -----------------
from plume_blender import cache_import  # noqa: E402

result = bpy.ops.plume.bake()
obj = bpy.data.objects.get("Domain_plume")
if result != {"FINISHED"} or obj is None:
    die(f"plume.bake gave {result} and no 'Domain_plume'")
mat = obj.data.materials[0]
voxel = obj["plume_voxel"]
check(mat.cycles.volume_interpolation == "CUBIC",
      "the bake's material reads the grids Cubic (render.filter auto, the camera close)",
      mat.cycles.volume_interpolation)
for f, want in (("cubic", "CUBIC"), ("linear", "LINEAR"), ("sharp", "LINEAR")):
    domain.plume.render_filter = f
    got = cache_import.volume_interpolation(scene, domain, voxel)
    check(got == want, f"render.filter \"{f}\": {want}", got)
domain.plume.render_filter = "auto"

cache = os.path.join(domain.plume.cache_dir, f"Domain_{LAST:04d}.vdb")


def plume_picks(name):
    """The filter plume's auto takes for the scene as exported now: the
    render-vdb PNG that is auto's, byte for byte (None: neither)."""
    path = os.path.join(work, name + ".toml")
    bpy.ops.plume.export(filepath=path)
    png = {}
    for f in ("auto", "cubic", "linear"):
        out = os.path.join(work, f"filter_{name}_{f}")
        subprocess.run([plume, "render-vdb", cache, "--scene", path, "--png", out, "--no-video",
                        "--set", f"render.filter={f}", "--quiet"], check=True)
        with open(os.path.join(out, f"Domain_{LAST:04d}.png"), "rb") as fh:
            png[f] = fh.read()
    if png["cubic"] == png["linear"]:
        die(f"{name}: cubic and linear give the same PNG; the check cannot tell them")
    return {png["cubic"]: "CUBIC", png["linear"]: "LINEAR"}.get(png["auto"])


for name, location in (("close", cam.location.copy()), ("far", Vector((0.5, -12.0, 0.5)))):
    cam.location = location
    picks = plume_picks(name)
    got = cache_import.volume_interpolation(scene, domain, voxel)
    check(picks is not None and got == picks,
          f"camera {name}: render.filter auto is {picks} in plume and {got} in the material", "")
check(got == "LINEAR", "the far camera's is Linear (the check sees both choices)", got)
scene.camera = None  # plume frames the domain itself
picks, got = plume_picks("no_camera"), cache_import.volume_interpolation(scene, domain, voxel)
check(picks is not None and got == picks,
      f"no camera (plume's framing): render.filter auto is {picks} in plume and {got} in the material")
gate("the material's interpolation")
say("PASS the World, the lights and the material's interpolation are plume's")
