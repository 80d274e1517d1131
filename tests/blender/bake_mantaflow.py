# Bakes a tiny smoke or fire domain with Blender's own Mantaflow into an
# OpenVDB cache: CACHE_DIR/data/fluid_data_0001.vdb ... fluid_data_NNNN.vdb
# (grids density, flame, shadow, temperature, velocity; a fire's also fuel and
# react), as a user gets it with the domain's default cache type.
#
# Usage: blender -b --factory-startup --python-exit-code 1 \
#            --python bake_mantaflow.py -- CACHE_DIR [RES] [FRAMES] [SMOKE|FIRE|BOTH|COLORS]
#
# The flow type is the flow object's (Fluid > Settings > Flow Type); FIRE
# emits fuel that burns into flame, heat and smoke. COLORS is two smoke flows
# side by side, red on the left (-x) and blue on the right: Mantaflow then
# carries the smoke's colour and writes it as color_r, color_g and color_b.
#
# Cache type REPLAY, stepped by frame_set(), not 'ALL'/'MODULAR' + bake_all():
# in Blender 3.4.1 (Debian, Python 3.11) a script-driven bake of a smoke domain
# with a smoke flow fails on the first evaluation with
#   AttributeError: 'NoneType' object has no attribute 'getDataPointer'
#   SystemError: <bpy_func Scene.frame_set()> returned a result with an exception set
# MANTA::updatePointers() asks every grid for getDataPointer(); the heat grid
# (heat_s<ID> = None, "allocated dynamically") is still None when the smoke flow
# has just switched heat on, and MANTA's callPythonFunction() returns NULL
# without PyErr_Clear(). Called from C that stale error is harmless; inside a
# bpy call from a script CPython reports it. The same scene bakes with 'ALL'
# when it has no flow object (no heat), and with 'REPLAY' also with the flow,
# which is what this script uses. tests/blender/README.md has the evidence.
import os
import sys
import time

import bpy

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if not args:
    sys.exit("usage: blender -b --factory-startup --python bake_mantaflow.py -- "
             "CACHE_DIR [RES] [FRAMES] [SMOKE|FIRE|BOTH|COLORS]")
cache_dir = os.path.abspath(args[0])
resolution = int(args[1]) if len(args) > 1 else 32
frames = int(args[2]) if len(args) > 2 else 10
flow_type = args[3] if len(args) > 3 else "SMOKE"
colors = flow_type == "COLORS"
if colors:
    flow_type = "SMOKE"

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.frame_start, scene.frame_end = 1, frames

# The domain: a 2 m cube standing on the ground, Z up.
bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 1.0))
domain = bpy.context.active_object
domain.name = "SmokeDomain"
domain.modifiers.new("Fluid", "FLUID").fluid_type = "DOMAIN"
ds = domain.modifiers["Fluid"].domain_settings
ds.domain_type = "GAS"
ds.resolution_max = resolution
ds.cache_directory = cache_dir
ds.cache_type = "REPLAY"
ds.cache_data_format = "OPENVDB"
ds.cache_frame_start, ds.cache_frame_end = 1, frames

# The source: a small sphere near the floor emitting hot smoke (with
# COLORS, a red one and a blue one).
for x, color in ([(-0.45, (1.0, 0.0, 0.0)), (0.45, (0.0, 0.0, 1.0))] if colors
                 else [(0.0, None)]):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3, location=(x, 0.0, 0.4))
    flow = bpy.context.active_object
    flow.name = "SmokeFlow"
    flow.modifiers.new("Fluid", "FLUID").fluid_type = "FLOW"
    fs = flow.modifiers["Fluid"].flow_settings
    fs.flow_type = flow_type
    fs.flow_behavior = "INFLOW"
    if color:
        fs.smoke_color = color

# Play the frames in order: each new frame steps Mantaflow and writes its VDB.
t0 = time.monotonic()
for frame in range(1, frames + 1):
    scene.frame_set(frame)

data = os.path.join(cache_dir, "data")
written = sorted(n for n in os.listdir(data) if n.startswith("fluid_data_") and n.endswith(".vdb")) \
    if os.path.isdir(data) else []
expected = [f"fluid_data_{i:04d}.vdb" for i in range(1, frames + 1)]
if written != expected:
    sys.stderr.write(f"plume-test: FAIL: Mantaflow wrote {written} into {data}, expected "
                     f"fluid_data_0001.vdb .. fluid_data_{frames:04d}.vdb\n")
    sys.exit(1)
print(f"plume-test: Mantaflow baked {frames} frames of {flow_type.lower()}, {resolution} cells, into {data} "
      f"in {time.monotonic() - t0:.1f} s", flush=True)
