# A Blender scene set up for Mantaflow moves the same way through the add-on
# (issue 57, item 2): a ball of still smoke, no buoyancy, a Wind field blowing
# along +x at strength 1; baked by Blender's own Mantaflow, then by plume from
# the add-on's export of the same objects (the field with Mantaflow's 0.2 x
# strength a frame, only where there is smoke). Checks the smoke's mean
# velocity (density-weighted, where the density is over 0.1) gained from the
# first frame to the last is within 15% of Mantaflow's, and that the field
# moved it at all. From the first frame: Mantaflow pushes the smoke the frame
# before holds, so its first frame, whose smoke is just born, has none, and
# from then on it trails plume by a frame's push (0.141 m/s at frame 1).
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_fields.py -- \
#            ADDON_ZIP PLUME WORK_DIR
import glob
import math
import os
import sys

import bpy
import numpy as np
import pyopenvdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import add_shot, check, die, gate, install, say  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... addon_fields.py -- ADDON_ZIP PLUME WORK_DIR")
addon_zip, plume, work = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)

RESOLUTION = 32
FRAMES = 12
STRENGTH = 1.0
# Blender's Mantaflow keeps its velocity in cells per Mantaflow time unit, a
# frame being 0.1 x 25 / fps of them: m/s = value x dx x 2.5 (plume's
# src/io/vdb_cache_read.cpp reads its caches so).
MANTAFLOW_SECONDS_PER_UNIT = 2.5


def mean_velocity(path, scale=1.0):
    """Density-weighted mean velocity (m/s) over the voxels of density > 0.1."""
    density = pyopenvdb.read(path, "density")
    velocity = pyopenvdb.read(path, "velocity")
    lo, hi = density.evalActiveVoxelBoundingBox()
    shape = tuple(h - l + 1 for l, h in zip(lo, hi))
    d = np.zeros(shape, dtype=np.float32)
    density.copyToArray(d, ijk=lo)
    v = np.zeros(shape + (3,), dtype=np.float32)
    velocity.copyToArray(v, ijk=lo)
    mask = d > 0.1
    if not mask.any():
        die(f"{path}: no voxel of density over 0.1")
    w = d[mask]
    mean = (v[mask] * w[:, None]).sum(axis=0) / w.sum()
    return mean * scale, int(mask.sum()), density.transform.voxelSize()[0]


install(addon_zip, plume)
scene = add_shot(1, FRAMES)

# --- The scene, as set up for Mantaflow ---------------------------------------
bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 1.0))
domain = bpy.context.active_object
domain.name = "Domain"
fluid = domain.modifiers.new("Fluid", "FLUID")
fluid.fluid_type = "DOMAIN"
ds = fluid.domain_settings
ds.domain_type = "GAS"
ds.resolution_max = RESOLUTION
ds.cache_directory = os.path.join(work, "manta")
ds.cache_type = "REPLAY"
ds.cache_data_format = "OPENVDB"
ds.cache_frame_start, ds.cache_frame_end = 1, FRAMES
ds.alpha = 0.0  # no buoyancy from density
ds.beta = 0.0   # nor from heat
ds.vorticity = 0.0
ds.use_dissolve_smoke = False

bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(-0.3, 0.0, 1.0))
ball = bpy.context.active_object
ball.name = "Ball"
flow = ball.modifiers.new("Fluid", "FLUID")
flow.fluid_type = "FLOW"
fs = flow.flow_settings
fs.flow_type = "SMOKE"
fs.flow_behavior = "INFLOW"
fs.temperature = 0.0
fs.density = 1.0
fs.volume_density = 1.0  # the whole ball, as plume's mesh emitter fills it
fs.surface_distance = 0.0
fs.use_initial_velocity = False

bpy.ops.object.effector_add(type="WIND", location=(0.0, 0.0, 1.0))
wind = bpy.context.active_object
wind.name = "Wind"
wind.rotation_euler = (0.0, math.radians(90.0), 0.0)  # its +z along the world's +x
wind.field.strength = STRENGTH
wind.field.flow = 0.0
wind.field.falloff_power = 0.0

# --- Mantaflow: each new frame steps it and writes its VDB -------------------
for frame in range(1, FRAMES + 1):
    scene.frame_set(frame)
manta_frames = sorted(glob.glob(os.path.join(work, "manta", "data", "fluid_data_*.vdb")))
if len(manta_frames) != FRAMES:
    die(f"Mantaflow wrote {len(manta_frames)} frames, not {FRAMES}: {manta_frames}")
dx = 2.0 / RESOLUTION
manta_first, _, _ = mean_velocity(manta_frames[0], MANTAFLOW_SECONDS_PER_UNIT * dx)
manta_last, manta_voxels, _ = mean_velocity(manta_frames[-1], MANTAFLOW_SECONDS_PER_UNIT * dx)
manta = manta_last - manta_first
say(f"Mantaflow: mean velocity {manta_first.round(4).tolist()} m/s at frame 1, "
    f"{manta_last.round(4).tolist()} at frame {FRAMES} ({manta_voxels} voxels)")

# --- plume, through the add-on, from the same objects ------------------------
scene.frame_set(1)
for obj in (domain, ball):
    obj.modifiers.remove(obj.modifiers["Fluid"])
domain.plume.role = "DOMAIN"
domain.plume.resolution = RESOLUTION
domain.plume.cache_dir = os.path.join(work, "plume") + os.sep
domain.plume.physics_buoyancy_density = 0.0
domain.plume.physics_buoyancy_heat = 0.0
domain.plume.physics_vorticity = 0.0
domain.plume.physics_density_dissipation = 0.0
ball.plume.role = "EMITTER"
ball.plume.emitter_temperature = 0.0
ball.plume.emitter_density = 1.0
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "fields.blend"))
result = bpy.ops.plume.bake()
if result != {"FINISHED"}:
    die(f"plume.bake gave {result}")
with open(sorted(glob.glob(os.path.join(work, "plume", "*.toml")))[0]) as f:
    exported = f.read()
check("[[field]]" in exported and 'type = "wind"' in exported,
      "the export holds the Wind field as a [[field]] of type wind")
plume_frames = sorted(glob.glob(os.path.join(work, "plume", "*_[0-9][0-9][0-9][0-9].vdb")))
if len(plume_frames) != FRAMES:
    die(f"plume wrote {len(plume_frames)} frames, not {FRAMES}: {plume_frames}")
our_first, _, _ = mean_velocity(plume_frames[0])
our_last, our_voxels, voxel = mean_velocity(plume_frames[-1])
ours = our_last - our_first
say(f"plume: mean velocity {our_first.round(4).tolist()} m/s at frame 1, "
    f"{our_last.round(4).tolist()} at frame {FRAMES} ({our_voxels} voxels of {voxel:.4f} m)")

# --- The same motion ----------------------------------------------------------
check(manta[0] > 0.5, "Mantaflow's wind sped the smoke up along +x", f"{manta[0]:.3f} m/s")
ratio = ours[0] / manta[0]
check(abs(ratio - 1.0) <= 0.15,
      f"the mean velocity plume's smoke gains along the wind over frames 1-{FRAMES} is "
      "Mantaflow's within 15%", f"{ours[0]:.3f} against {manta[0]:.3f} m/s ({ratio:.3f})")
across = float(np.hypot(our_last[1], our_last[2]))
check(across <= 0.15 * abs(our_last[0]), "and little across it", f"{across:.3f} m/s")
gate("fields")
say(f"PASS: wind {STRENGTH}, frames 1-{FRAMES}: plume gains {ours[0]:.3f} m/s, Mantaflow "
    f"{manta[0]:.3f} m/s ({ratio:.3f}); at frame {FRAMES} {our_last[0]:.3f} against "
    f"{manta_last[0]:.3f}")
