# What the add-on's export of a deforming mesh costs: a 10k-vertex sphere
# rippled by a Wave modifier (it changes shape every frame), a collider over
# 100 frames, written as a PLY mesh sequence by export.write_scene (what
# plume.export and plume.bake run). A manual measurement, not a test.
#
# Usage: BLENDER_USER_SCRIPTS=/tmp/plume_addon blender -b --factory-startup --python-exit-code 1 \
#            --python addon_sequence_bench.py -- ADDON_ZIP PLUME OUT_DIR
#
# Prints wall seconds of: the export (every frame evaluated and written), the
# same frames only evaluated (frame_set and the evaluated mesh's vertices:
# Blender's share), a second export over unchanged files (nothing rewritten),
# and the written files' size.
import os
import sys
import time

import bpy
import numpy as np

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... addon_sequence_bench.py -- ADDON_ZIP PLUME OUT_DIR")
addon_zip, plume, out_dir = (os.path.abspath(a) for a in args)
FRAMES = 100
os.makedirs(out_dir, exist_ok=True)

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.preferences.addon_install(filepath=addon_zip, overwrite=True)
bpy.ops.preferences.addon_enable(module="plume_blender")
bpy.context.preferences.addons["plume_blender"].preferences.binary = plume
from plume_blender import export  # noqa: E402

scene = bpy.context.scene
scene.frame_start, scene.frame_end = 1, FRAMES
bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 1.0))
domain = bpy.context.object
domain.plume.role = "DOMAIN"
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.2, location=(0.0, 0.0, 0.3))
bpy.context.object.plume.role = "EMITTER"
# 200 segments x 51 rings: 10,002 vertices, 20,000 triangles.
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.4, segments=200, ring_count=51, location=(0.0, 0.0, 1.2))
body = bpy.context.object
body.name = "Body"
body.plume.role = "COLLIDER"
wave = body.modifiers.new("Wave", "WAVE")
wave.height, wave.width, wave.speed = 0.05, 0.3, 0.05
me = body.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh()
print(f"blender-bench: body {len(me.vertices)} vertices, {len(me.polygons)} faces", flush=True)
body.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh_clear()

toml = os.path.join(out_dir, "Bench.toml")
t = time.monotonic()
export.write_scene(bpy.context, toml, "export")
export_s = time.monotonic() - t

t = time.monotonic()
for f in range(1, FRAMES + 1):
    scene.frame_set(f)
    m = body.evaluated_get(bpy.context.evaluated_depsgraph_get()).data
    co = np.empty(3 * len(m.vertices), dtype=np.float32)
    m.vertices.foreach_get("co", co)
evaluate_s = time.monotonic() - t

t = time.monotonic()
export.write_scene(bpy.context, toml, "export")
again_s = time.monotonic() - t

folder = os.path.join(out_dir, "Bench_meshes")
files = [f for f in os.listdir(folder) if f.startswith("Body_")]
size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
print(f"blender-bench: export {FRAMES} frames {export_s:.2f} s ({1000 * export_s / FRAMES:.1f} ms a frame); "
      f"evaluation alone {evaluate_s:.2f} s; export again (unchanged) {again_s:.2f} s; "
      f"{len(files)} files, {size / 1e6:.1f} MB", flush=True)
