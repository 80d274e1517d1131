# Blender imports plume's OpenVDB cache the way a user does, and renders it.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python import_plume_cache.py -- \
#            CACHE_DIR SCENE_NAME FRAMES SIZE_X SIZE_Y SIZE_Z DX OUT_DIR
#
# Checks: Add > Volume > Import OpenVDB with every file selected and sequence
# detection on gives exactly one Volume object, a sequence of FRAMES frames,
# grids density/temperature/velocity, bounds inside the domain, tall along Z
# and as large as the domain within two voxels; then a tiny Cycles CPU render of
# a mid-sequence frame differs clearly from the same render with the volume
# hidden, inside the volume's screen rectangle. Exits 1 with a message on the
# first failed check.
import math
import os
import sys
import time

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 8:
    sys.exit("usage: ... import_plume_cache.py -- CACHE_DIR SCENE_NAME FRAMES SIZE_X SIZE_Y SIZE_Z DX OUT_DIR")
cache_dir = os.path.abspath(args[0])
name = args[1]
frames = int(args[2])
size = Vector((float(args[3]), float(args[4]), float(args[5])))
dx = float(args[6])
out_dir = os.path.abspath(args[7])
os.makedirs(out_dir, exist_ok=True)

failures = 0


def check(ok, what, detail=""):
    global failures
    print(f"plume-test: {'ok  ' if ok else 'FAIL'} {what}{(': ' + detail) if detail else ''}", flush=True)
    if not ok:
        failures += 1


def die(msg):
    print(f"plume-test: FAIL {msg}", flush=True)
    sys.stderr.write(f"plume-test: FAIL {msg}\n")
    sys.exit(1)


bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene

# --- Import, as Add > Volume > Import OpenVDB with all files selected --------
# Every .vdb in the folder, as a user selects them all: the bake's resume state
# (NAME.resume) must not be among them.
files = sorted(n for n in os.listdir(cache_dir) if n.endswith(".vdb"))
expected_files = [f"{name}_{i:04d}.vdb" for i in range(1, frames + 1)]
check(files == expected_files, f"cache holds {name}_0001.vdb .. {name}_{frames:04d}.vdb",
      f"found {len(files)} files" + ("" if files == expected_files else f": {files}"))
if not files:
    die(f"no {name}_####.vdb files in {cache_dir}")

result = bpy.ops.object.volume_import(
    filepath=os.path.join(cache_dir, files[0]),
    directory=cache_dir + os.sep,
    files=[{"name": n} for n in files],
    use_sequence_detection=True,
    align="WORLD", location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0))
check(result == {"FINISHED"}, "volume_import finished", str(result))

volumes = [o for o in scene.objects if o.type == "VOLUME"]
check(len(volumes) == 1, "exactly one Volume object", f"{len(volumes)}: {[o.name for o in volumes]}")
if not volumes:
    die("the import made no Volume object")
obj = volumes[0]
vol = obj.data
check(vol.is_sequence, "the volume is a sequence", f"is_sequence={vol.is_sequence}, filepath={vol.filepath}")
check(vol.frame_duration == len(files), "frame_duration equals the number of files",
      f"frame_duration={vol.frame_duration}, files={len(files)}, frame_start={vol.frame_start}")
check(tuple(obj.location) == (0.0, 0.0, 0.0) and tuple(obj.rotation_euler) == (0.0, 0.0, 0.0)
      and tuple(obj.scale) == (1.0, 1.0, 1.0), "object transform is identity (grids carry the metres)")

# --- Grids of a mid-sequence frame ------------------------------------------
mid = max(1, (frames + 1) // 2)
scene.frame_set(mid)
vol.grids.load()
grids = {g.name: g for g in vol.grids}
print(f"plume-test: frame {mid}: file '{vol.grids.frame_filepath}', grids "
      + ", ".join(f"{g.name} ({g.data_type}, {g.channels} ch)" for g in vol.grids), flush=True)
check(vol.grids.is_loaded, "grids load", vol.grids.error_message)
for g, dtype in (("density", "FLOAT"), ("temperature", "FLOAT"), ("velocity", "VECTOR_FLOAT")):
    check(g in grids, f"grid '{g}' present")
    if g in grids:
        check(grids[g].data_type == dtype, f"grid '{g}' is {dtype}", grids[g].data_type)

# --- Bounds in metres --------------------------------------------------------
# Blender's bounds are the union of the grids' active voxels. The last frame,
# when velocity has spread through the domain, must span the domain.
slack = 2.0 * dx + 1e-4


def world_bounds(o):
    ev = o.evaluated_get(bpy.context.evaluated_depsgraph_get())
    pts = [ev.matrix_world @ Vector(c) for c in ev.bound_box]
    return (Vector((min(p[i] for p in pts) for i in range(3))),
            Vector((max(p[i] for p in pts) for i in range(3))))


scene.frame_set(frames)
lo, hi = world_bounds(obj)
ext = hi - lo
dims = obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).dimensions
print(f"plume-test: frame {frames}: bounds min {tuple(round(v, 4) for v in lo)} max {tuple(round(v, 4) for v in hi)}, "
      f"dimensions {tuple(round(v, 4) for v in dims)} m; domain (0,0,0)-{tuple(size)} m, dx {dx} m", flush=True)
check(all(lo[i] >= -slack and hi[i] <= size[i] + slack for i in range(3)),
      "bounds lie inside the domain (within two voxels)")
check(all(abs(ext[i] - size[i]) <= slack for i in range(3)),
      "bounds match the domain size (within two voxels)",
      f"extent {tuple(round(v, 4) for v in ext)} vs {tuple(size)}")
check(ext.z > 1.5 * max(ext.x, ext.y), "tall along Z (Z up, no axis swap)",
      f"z {ext.z:.3f} m vs x {ext.x:.3f}, y {ext.y:.3f}")

# --- Cycles render of a mid-sequence frame, with and without the volume -------
scene.frame_set(mid)
lo, hi = world_bounds(obj)
centre = (lo + hi) / 2
print(f"plume-test: frame {mid}: smoke bounds {tuple(round(v, 3) for v in lo)} - {tuple(round(v, 3) for v in hi)}",
      flush=True)
print(f"plume-test: materials after import: {[m.name if m else None for m in vol.materials]}", flush=True)

mat = bpy.data.materials.new("PlumeSmoke")
mat.use_nodes = True
nt = mat.node_tree
nt.nodes.clear()
pv = nt.nodes.new("ShaderNodeVolumePrincipled")
pv.inputs["Color"].default_value = (0.9, 0.9, 0.9, 1.0)
pv.inputs["Density"].default_value = 8.0
pv.inputs["Density Attribute"].default_value = "density"
mo = nt.nodes.new("ShaderNodeOutputMaterial")
nt.links.new(pv.outputs["Volume"], mo.inputs["Volume"])
vol.materials.clear()
vol.materials.append(mat)

# Camera on -Y looking at +Y, the domain's front face filling about 85% of the
# frame, a sun from the front-left.
scene.render.resolution_x, scene.render.resolution_y = 160, 120
dom_centre = size / 2
cam_data = bpy.data.cameras.new("Cam")
cam_data.lens = 35.0
cam_data.sensor_fit = "HORIZONTAL"
tan_half_x = 0.5 * cam_data.sensor_width / cam_data.lens
tan_half_y = tan_half_x * scene.render.resolution_y / scene.render.resolution_x
distance = max(size.x / tan_half_x, size.z / tan_half_y) / (2 * 0.85) + size.y / 2
cam = bpy.data.objects.new("Cam", cam_data)
scene.collection.objects.link(cam)
cam.location = (dom_centre.x, dom_centre.y - distance, dom_centre.z)
cam.rotation_euler = (math.pi / 2, 0.0, 0.0)
scene.camera = cam
sun_data = bpy.data.lights.new("Sun", "SUN")
sun_data.energy = 8.0
sun = bpy.data.objects.new("Sun", sun_data)
scene.collection.objects.link(sun)
sun.rotation_euler = (math.radians(50), 0.0, math.radians(-30))
world = bpy.data.worlds.new("World")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.05, 0.05, 0.06, 1.0)
world.node_tree.nodes["Background"].inputs["Strength"].default_value = 1.0
scene.world = world

scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 12
scene.cycles.use_denoising = False
scene.cycles.seed = 1
scene.render.threads_mode = "FIXED"
scene.render.threads = 2
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGB"
scene.view_settings.view_transform = "Standard"


def render(path, hide):
    obj.hide_render = hide
    scene.render.filepath = path
    t = time.monotonic()
    bpy.ops.render.render(write_still=True)
    print(f"plume-test: rendered {path} ({'volume hidden' if hide else 'with smoke'}) in {time.monotonic() - t:.1f} s",
          flush=True)
    img = bpy.data.images.load(path)
    w, h = img.size
    px = list(img.pixels)  # RGBA floats, bottom row first
    bpy.data.images.remove(img)
    return w, h, px


with_smoke = os.path.join(out_dir, f"blender_{name}_{mid:04d}.png")
without = os.path.join(out_dir, f"blender_{name}_{mid:04d}_hidden.png")
w, h, a = render(with_smoke, False)
_, _, b = render(without, True)

# The volume's screen rectangle, from its bounding box corners.
corners = [Vector((x, y, z)) for x in (lo.x, hi.x) for y in (lo.y, hi.y) for z in (lo.z, hi.z)]
uv = [world_to_camera_view(scene, cam, c) for c in corners]
x0 = max(0, int(math.floor(min(p.x for p in uv) * w)))
x1 = min(w, int(math.ceil(max(p.x for p in uv) * w)))
y0 = max(0, int(math.floor(min(p.y for p in uv) * h)))
y1 = min(h, int(math.ceil(max(p.y for p in uv) * h)))
check(x1 - x0 >= 4 and y1 - y0 >= 4, "the volume is in the camera's view", f"pixels x {x0}..{x1}, y {y0}..{y1}")


def luma(px, i):
    return 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2]


inside, outside = [], []
for y in range(h):
    for x in range(w):
        i = y * w + x
        d = abs(luma(a, i) - luma(b, i))
        (inside if x0 <= x < x1 and y0 <= y < y1 else outside).append(d)
mean_in = sum(inside) / max(1, len(inside))
frac_in = sum(1 for d in inside if d > 0.03) / max(1, len(inside))
max_in = max(inside) if inside else 0.0
mean_out = sum(outside) / max(1, len(outside))
print(f"plume-test: |smoke - hidden| luma in the volume's {x1 - x0}x{y1 - y0} px rectangle: mean {mean_in:.4f}, "
      f"max {max_in:.4f}, {100 * frac_in:.1f}% of pixels > 0.03; outside: mean {mean_out:.4f}", flush=True)
check(mean_in >= 0.02 and frac_in >= 0.10 and max_in >= 0.15,
      "the render shows smoke (differs substantially from the render without the volume)")

if failures:
    die(f"{failures} check(s) failed")
print("plume-test: PASS Blender imports plume's cache as one tall volume sequence and renders smoke", flush=True)
