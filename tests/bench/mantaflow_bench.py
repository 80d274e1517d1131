# Bakes scenes/bench.toml's setup with Blender's own Mantaflow, timed, for
# tests/bench/compare.py. A manual measurement, not a test.
#
# Usage: blender -b --factory-startup --python-exit-code 1 \
#            --python mantaflow_bench.py -- CACHE_DIR RES FRAMES [NOISE [SETUP]]
#
# NOISE (default 0, off): Mantaflow's noise (wavelet turbulence upres) with
# noise_scale NOISE, written as CACHE_DIR/noise/fluid_noise_####.vdb beside
# the base cache (tests/bench/detail.py bakes with NOISE = 2).
#
# SETUP (default bench): "plume" bakes the default scene's shot instead
# (scenes/plume.toml: its 2 x 2 x 3.2 m box open but for the floor, its hot
# sphere and the ball above it, vorticity), as `plume preview` does at RES;
# the preview's figure in tests/bench/README.md, "Preview", is set beside it.
#
# Prints one line:
#   mantaflow-bench: frames=F res=N bake_s=S first_s=R stepped_s=T substeps=K step_s=U
# bake_s: wall time of stepping all the frames (Blender's start-up and the
# scene's set-up not included). Substeps are counted from frame 2 on:
# first_s is the wall time to the first frame with smoke (frames 1 and 2);
# stepped_s is the wall time of frames 2..F (emission, the step, the cache
# write: what a frame of plume's bake does), substeps how many adaptive time
# steps Mantaflow took in them, step_s the time inside those steps alone.
# Frame 1 creates the solver, whose Python functions do not exist before it.
#
# How substeps are counted: Blender runs Mantaflow's Python in the module
# __mp_main__ and calls its functions by name, once per substep
# smoke_adaptive_step_<ID>(); wrapping that name counts and times the calls.
#
# The setup, key for key with scenes/bench.toml:
# - a 2 m cube domain from (0, 0, 0) to (2, 2, 2), Z up, resolution_max = RES,
#   every side open (no collision border);
# - 24 fps, adaptive time steps, CFL 4, 1 to 4 substeps a frame;
# - no vorticity, no noise, no dissolve; buoyancy alpha = beta = 1 (defaults);
# - one sphere of radius 0.2 m at (1, 1, 0.3) emitting smoke of density 1 and
#   temperature 1 through its whole volume (volume_density = 1: plume's
#   emitter fills the sphere; Blender's default emits from its surface only);
# - an OpenVDB cache of every frame, as plume's bake writes one.
# Cache type REPLAY stepped by frame_set(), as tests/blender/bake_mantaflow.py
# does and explains (a script-driven 'ALL' bake fails in Blender 3.4.1).
import os
import sys
import time

import bpy

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) not in (3, 4, 5):
    sys.exit("usage: blender -b --factory-startup --debug-fluid --python mantaflow_bench.py -- "
             "CACHE_DIR RES FRAMES [NOISE [SETUP]]")
cache_dir = os.path.abspath(args[0])
resolution = int(args[1])
frames = int(args[2])
noise = int(args[3]) if len(args) >= 4 else 0
setup = args[4] if len(args) == 5 else "bench"
if setup not in ("bench", "plume"):
    sys.exit(f"mantaflow-bench: SETUP is bench or plume, not {setup}")
# Mantaflow's noise writes its tile, waveletNoiseTile.bin, into the working
# directory: keep it beside the cache, out of the checkout.
os.makedirs(cache_dir, exist_ok=True)
os.chdir(cache_dir)

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 24, 1.0
scene.frame_start, scene.frame_end = 1, frames

# The domain: plume's [0, 2]^3 box.
if setup == "bench":
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(1.0, 1.0, 1.0))
else:  # plume.toml's tall box
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(1.0, 1.0, 1.6), scale=(2.0, 2.0, 3.2))
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
domain = bpy.context.active_object
domain.name = "BenchDomain"
domain.modifiers.new("Fluid", "FLUID").fluid_type = "DOMAIN"
ds = domain.modifiers["Fluid"].domain_settings
ds.domain_type = "GAS"
ds.resolution_max = resolution
for side in ("front", "back", "left", "right", "top", "bottom"):
    setattr(ds, "use_collision_border_" + side, False)
ds.use_collision_border_bottom = setup == "plume"
ds.use_adaptive_timesteps = True
ds.cfl_condition = 4.0
ds.timesteps_min, ds.timesteps_max = 1, 4
ds.time_scale = 1.0
ds.vorticity = 0.0 if setup == "bench" else 0.4
ds.alpha, ds.beta = 1.0, 1.0
ds.use_noise = noise > 0
if noise > 0:
    ds.noise_scale = noise
ds.use_dissolve_smoke = False
ds.cache_directory = cache_dir
ds.cache_type = "REPLAY"
ds.cache_data_format = "OPENVDB"
ds.cache_frame_start, ds.cache_frame_end = 1, frames

# The emitter: bench.toml's sphere, filled.
if setup == "bench":
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.2, location=(1.0, 1.0, 0.3))
else:
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.22, location=(1.0, 1.0, 0.35))
flow = bpy.context.active_object
flow.name = "BenchFlow"
flow.modifiers.new("Fluid", "FLUID").fluid_type = "FLOW"
fs = flow.modifiers["Fluid"].flow_settings
fs.flow_type = "SMOKE"
fs.flow_behavior = "INFLOW"
fs.density, fs.temperature = 1.0, (1.0 if setup == "bench" else 1.5)
fs.volume_density = 1.0
if setup == "plume":  # the ball the plume curls around
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3, location=(1.32, 1.0, 1.35))
    ball = bpy.context.active_object
    ball.modifiers.new("Fluid", "FLUID").fluid_type = "EFFECTOR"

# Count and time every substep: wrap the solver's step function by name.
substeps, step_s = 0, 0.0


def wrap_steps():
    module = sys.modules.get("__mp_main__")
    if module is None:
        return
    names = module.__dict__
    for name, fn in list(names.items()):
        if not name.startswith("smoke_adaptive_step_") or getattr(fn, "counted", False):
            continue

        def counted(*a, _fn=fn, **kw):
            global substeps, step_s
            t = time.monotonic()
            try:
                return _fn(*a, **kw)
            finally:
                step_s += time.monotonic() - t
                substeps += 1
        counted.counted = True
        names[name] = counted


t0 = time.monotonic()
scene.frame_set(1)
t1 = time.monotonic()
for frame in range(2, frames + 1):
    wrap_steps()
    scene.frame_set(frame)
    if frame == 2:
        first_s = time.monotonic() - t0
t2 = time.monotonic()
bake_s, stepped_s = t2 - t0, t2 - t1

data = os.path.join(cache_dir, "data")
written = [n for n in os.listdir(data) if n.startswith("fluid_data_")] if os.path.isdir(data) else []
if len(written) != frames:
    sys.exit(f"mantaflow-bench: Mantaflow wrote {len(written)} files into {data}, expected {frames}")
if noise > 0:
    noise_dir = os.path.join(cache_dir, "noise")
    made = [n for n in os.listdir(noise_dir) if n.startswith("fluid_noise_")] \
        if os.path.isdir(noise_dir) else []
    if len(made) != frames:
        sys.exit(f"mantaflow-bench: Mantaflow wrote {len(made)} noise files into {noise_dir}, "
                 f"expected {frames}")
if substeps < frames - 1:
    sys.exit(f"mantaflow-bench: counted {substeps} substeps in {frames - 1} frames; "
             "Blender no longer calls smoke_adaptive_step_<ID> by name?")
print(f"mantaflow-bench: frames={frames} res={resolution} noise={noise} bake_s={bake_s:.3f} "
      f"first_s={first_s:.3f} setup={setup} stepped_s={stepped_s:.3f} substeps={substeps} step_s={step_s:.3f}", flush=True)
