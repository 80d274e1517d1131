# Sparks through the Blender add-on: a fire emitter that throws sparks, Bake,
# and the sparks come back as points that follow the timeline and glow in
# Cycles.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_sparks.py -- \
#            ADDON_ZIP PLUME WORK_DIR VDB_POINT_COUNT
#
# Checks:
# - the bake imports '<domain>_plume_sparks', a mesh with a Geometry Nodes
#   Mesh to Points modifier and point attributes v, age, temperature, pscale;
# - on two frames its vertex count is the count of points in that frame's
#   `sparks` grid as OpenVDB itself reads it (VDB_POINT_COUNT, no plume code),
#   and it changes with the frame (the frame-change handler);
# - a Cycles frame (the volume hidden: the sparks alone) shows bright warm
#   pixels where the sparks project, which the same frame with the sparks
#   object hidden lacks.
# Writes WORK_DIR/sparks.png and WORK_DIR/no_sparks.png.
import math
import os
import subprocess
import sys
import time

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import (add_burner, add_domain, add_front_camera, add_shot, check, die,  # noqa: E402
                          gate, install, say)

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 4:
    sys.exit("usage: ... addon_sparks.py -- ADDON_ZIP PLUME WORK_DIR VDB_POINT_COUNT")
addon_zip, plume, work, point_count = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)

RESOLUTION = 24
FIRST, LAST = 1, 12
MID = 8
DOMAIN_SIZE = Vector((1.0, 1.0, 1.5))
WIDTH, HEIGHT, SAMPLES = 96, 128, 8
MIN_GLOW = 0.2        # a spark's pixel: brighter than this (linear luminance) than without sparks
MIN_RB = 1.5          # and warm: R > 1.5 B
NEAR_PIXELS = 2.5     # within this many pixels of a spark's projection
MIN_SPARK_PIXELS = 3

install(addon_zip, plume)
scene = add_shot(FIRST, LAST, size=(WIDTH, HEIGHT))
domain = add_domain(DOMAIN_SIZE, RESOLUTION)
emitter = add_burner((0.5, 0.5, 0.2))
emitter.plume.emitter_fuel = 1.0
emitter.plume.emitter_density = 0.0
emitter.plume.emitter_sparks = 400.0  # births a second from the burner
emitter.hide_render = True

distance = 1.15 * 0.75 / math.tan(math.radians(20.0)) + 0.5
cam = add_front_camera(scene, 40.0, (0.5, 0.5 - distance, 0.75))
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "sparks.blend"))

# --- Bake and import through the operator ------------------------------------
t = time.monotonic()
result = bpy.ops.plume.bake()
say(f"plume.bake: {result} in {time.monotonic() - t:.1f} s")
volume = bpy.data.objects.get("Domain_plume")
sparks = bpy.data.objects.get("Domain_plume_sparks")
if result != {"FINISHED"} or volume is None:
    die(f"plume.bake gave {result} and no 'Domain_plume'")
if sparks is None:
    die("the bake imported no 'Domain_plume_sparks'")
check(sparks.type == "MESH", "the sparks are a mesh object", sparks.type)
mod = next((m for m in sparks.modifiers if m.type == "NODES"), None)
check(mod is not None and mod.node_group is not None
      and any(n.bl_idname == "GeometryNodeMeshToPoints" for n in mod.node_group.nodes),
      "a Geometry Nodes modifier turns them into points (Mesh to Points)")
attributes = {a.name: (a.data_type, a.domain) for a in sparks.data.attributes}
for name, kind in (("v", "FLOAT_VECTOR"), ("age", "FLOAT"), ("temperature", "FLOAT"), ("pscale", "FLOAT")):
    check(attributes.get(name) == (kind, "POINT"), f"point attribute '{name}' is {kind}",
          str(attributes.get(name)))
gate("the sparks object")

# --- The timeline: each frame's count is its cache's --------------------------
cache = bpy.path.abspath(sparks["plume_sparks_dir"])
name = sparks["plume_sparks_name"]
counts = {}
for frame in (MID, LAST):
    vdb = os.path.join(cache, f"{name}_{frame:04d}_sparks.vdb")  # the sparks file beside the frame
    out = subprocess.run([point_count, vdb, "sparks"], capture_output=True, text=True)
    if out.returncode != 0:
        die(f"vdb_point_count {vdb}: {out.stderr.strip()}")
    want = int(out.stdout)
    scene.frame_set(frame)
    got = len(sparks.data.vertices)
    counts[frame] = got
    check(got == want and want > 0, f"frame {frame}: {got} points, the cache's sparks grid holds {want}")
    temps = [0.0] * got
    sparks.data.attributes["temperature"].data.foreach_get("value", temps)
    check(got > 0 and min(temps) > 0.0, f"frame {frame}: every spark has a temperature",
          f"{min(temps) if temps else None} to {max(temps) if temps else None} K")
check(counts[MID] != counts[LAST], "the points follow the timeline (another frame, another count)",
      str(counts))
gate("the sparks on the timeline")

# --- F12 in Cycles: the sparks glow where they are ----------------------------
scene.frame_set(LAST)
volume.hide_render = True  # the sparks alone: the flame's noise apart
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = SAMPLES
scene.cycles.use_adaptive_sampling = False
scene.cycles.use_denoising = False
scene.cycles.seed = 1
scene.render.threads_mode = "FIXED"
scene.render.threads = 2
scene.view_settings.view_transform = "Standard"
world = bpy.data.worlds.new("Night")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.005, 0.005, 0.008, 1.0)
scene.world = world


def render(name):
    """Linear RGB rows, bottom row first."""
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
    say(f"Cycles {name} {WIDTH}x{HEIGHT}, {SAMPLES} samples: {time.monotonic() - t:.1f} s")
    return [px[i:i + 3] for i in range(0, len(px), 4)]


def luma(c):
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


lit = render("sparks")
sparks.hide_render = True
dark = render("no_sparks")
sparks.hide_render = False

# Where the sparks project, in pixels (bottom row first, as the pixels are).
where = []
for v in sparks.data.vertices:
    p = world_to_camera_view(scene, cam, sparks.matrix_world @ v.co)
    if 0.0 <= p.x <= 1.0 and 0.0 <= p.y <= 1.0 and p.z > 0.0:
        where.append((p.x * WIDTH, p.y * HEIGHT))
glowing = []
for i, (a, b) in enumerate(zip(lit, dark)):
    if luma(a) - luma(b) > MIN_GLOW and a[0] > MIN_RB * max(a[2], 1e-6):
        glowing.append(((i % WIDTH) + 0.5, (i // WIDTH) + 0.5))
near = [g for g in glowing
        if any((g[0] - x) ** 2 + (g[1] - y) ** 2 <= NEAR_PIXELS ** 2 for x, y in where)]
say(f"{len(where)} sparks in view; {len(glowing)} pixels bright and warm with them and not without, "
    f"{len(near)} of them within {NEAR_PIXELS} pixels of a spark")
brightest = max((luma(a) for a in lit), default=0.0)
check(len(near) >= MIN_SPARK_PIXELS,
      f"Cycles shows at least {MIN_SPARK_PIXELS} bright warm pixels at the sparks",
      f"brightest pixel luminance {brightest:.3f}")
check(len(glowing) > 0 and len(near) >= 0.9 * len(glowing),
      "the glow is where the sparks are (90% of those pixels)", f"{len(near)} of {len(glowing)}")
gate("sparks in Cycles")
say("PASS")
