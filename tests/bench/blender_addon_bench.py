# The same Blender setup baked by Blender's Mantaflow and by plume through its
# add-on (build/plume_blender.zip), at 64^3 and 128^3 in one run, timed, with a
# Cycles still of each. A manual measurement, not a test (README: Blender).
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python blender_addon_bench.py -- \
#            ADDON_ZIP PLUME OUT_DIR [RES ...]
# (BLENDER_USER_SCRIPTS=... keeps the add-on out of your own Blender config.)
#
# The setup is scenes/bench.toml's (and tests/bench/mantaflow_bench.py's): a
# 2 m cube domain from (0, 0, 0), every side open, 48 frames at 24 fps, CFL 4
# and 1 to 4 substeps, no vorticity, buoyancy from heat that never cools; a
# sphere of radius 0.2 m at (1, 1, 0.3) emitting density 1 and temperature 1
# through its volume. Mantaflow: cache REPLAY stepped by frame_set (a scripted
# 'ALL' bake fails in 3.4.1, tests/blender/README.md). plume: the objects
# marked in obj.plume and bpy.ops.plume.bake(), which exports, bakes and
# imports. The times are wall seconds of the whole bake (for plume: export,
# bake and import of the sequence).
#
# Writes OUT_DIR/{mantaflow,plume}_RES.png: frame 48 in Cycles, both caches
# drawn with the add-on's material (Principled Volume, density x plume's
# render.extinction), the same camera and sun. Prints one line per bake:
#   blender-bench: solver=mantaflow res=64 frames=48 bake_s=25.1
import math
import os
import sys
import time

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) < 3:
    sys.exit("usage: ... blender_addon_bench.py -- ADDON_ZIP PLUME OUT_DIR [RES ...]")
addon_zip, plume, out_dir = (os.path.abspath(a) for a in args[:3])
resolutions = [int(a) for a in args[3:]] or [64, 128]
FRAMES = 48
STILL = (320, 400)
SAMPLES = 32
os.makedirs(out_dir, exist_ok=True)

bpy.ops.preferences.addon_install(filepath=addon_zip, overwrite=True)


def enable_addon():
    # Factory settings disable add-ons: enable it again after each reset.
    bpy.ops.preferences.addon_enable(module="plume_blender")
    bpy.context.preferences.addons["plume_blender"].preferences.binary = plume


enable_addon()
from plume_blender import cache_import  # noqa: E402


def setup(res, work):
    """The shared scene: domain, emitter, camera, sun, world; saved in work."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    enable_addon()
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 24, 1.0
    scene.frame_start, scene.frame_end = 1, FRAMES
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(1.0, 1.0, 1.0))
    domain = bpy.context.active_object
    domain.name = "BenchDomain"
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.2, location=(1.0, 1.0, 0.3))
    flow = bpy.context.active_object
    flow.name = "BenchFlow"
    flow.hide_render = True
    cam = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(cam)
    cam.data.lens = 30.0
    cam.location = (1.0, -2.4, 1.0)
    cam.rotation_euler = (math.radians(90), 0.0, 0.0)
    scene.camera = cam
    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.0
    scene.collection.objects.link(sun)
    sun.rotation_euler = Vector((-0.5, 0.3, -0.8)).to_track_quat("-Z", "Y").to_euler()
    world = bpy.data.worlds.new("World")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.18, 0.2, 0.24, 1.0)
    scene.world = world
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = SAMPLES
    scene.cycles.use_denoising = False
    scene.render.resolution_x, scene.render.resolution_y = STILL
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Standard"
    os.makedirs(work, exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, f"bench_{res}.blend"))
    return scene, domain, flow


def still(scene, path):
    scene.frame_set(FRAMES)
    scene.render.filepath = path
    t = time.monotonic()
    bpy.ops.render.render(write_still=True)
    print(f"blender-bench: wrote {path} ({time.monotonic() - t:.1f} s)", flush=True)


def report(solver, res, seconds):
    print(f"blender-bench: solver={solver} res={res} frames={FRAMES} bake_s={seconds:.1f}", flush=True)


results = []
for res in resolutions:
    # --- Mantaflow --------------------------------------------------------
    work = os.path.join(out_dir, f"mantaflow_{res}")
    scene, domain, flow = setup(res, work)
    domain.modifiers.new("Fluid", "FLUID").fluid_type = "DOMAIN"
    ds = domain.modifiers["Fluid"].domain_settings
    ds.domain_type = "GAS"
    ds.resolution_max = res
    for side in ("front", "back", "left", "right", "top", "bottom"):
        setattr(ds, "use_collision_border_" + side, False)
    ds.use_adaptive_timesteps = True
    ds.cfl_condition = 4.0
    ds.timesteps_min, ds.timesteps_max = 1, 4
    ds.vorticity = 0.0
    ds.alpha, ds.beta = 1.0, 1.0
    ds.use_dissolve_smoke = False
    ds.cache_directory = work
    ds.cache_type = "REPLAY"
    ds.cache_data_format = "OPENVDB"
    ds.cache_frame_start, ds.cache_frame_end = 1, FRAMES
    flow.modifiers.new("Fluid", "FLUID").fluid_type = "FLOW"
    fs = flow.modifiers["Fluid"].flow_settings
    fs.flow_type, fs.flow_behavior = "SMOKE", "INFLOW"
    fs.density, fs.temperature, fs.volume_density = 1.0, 1.0, 1.0
    t = time.monotonic()
    for frame in range(1, FRAMES + 1):
        scene.frame_set(frame)
    manta_s = time.monotonic() - t
    report("mantaflow", res, manta_s)
    # Its last frame drawn as plume's is: the cache as a Volume with the
    # add-on's material (Mantaflow's grid already sits where Cycles wants it).
    domain.modifiers.clear()
    flow.modifiers.clear()
    domain.hide_render = True
    vdb = os.path.join(work, "data", f"fluid_data_{FRAMES:04d}.vdb")
    vol = bpy.data.volumes.new("Mantaflow")
    vol.filepath = vdb
    obj = bpy.data.objects.new("Mantaflow", vol)
    scene.collection.objects.link(obj)
    vol.materials.append(cache_import.material("Smoke", domain.plume.render_extinction,
                                               domain.plume.render_fire_temperature,
                                               domain.plume.render_albedo))
    still(scene, os.path.join(out_dir, f"mantaflow_{res}.png"))

    # --- plume, through the add-on -----------------------------------------
    work = os.path.join(out_dir, f"plume_{res}")
    scene, domain, flow = setup(res, work)
    p = domain.plume
    p.role = "DOMAIN"
    p.resolution = res
    for side in ("x_min", "x_max", "y_min", "y_max", "z_min", "z_max"):
        setattr(p, "boundary_" + side, "open")
    p.time_cfl, p.time_max_substeps = 4.0, 4
    p.physics_vorticity, p.physics_buoyancy_heat, p.physics_temperature_dissipation = 0.0, 1.0, 0.0
    p.solver_tolerance = 1e-4
    flow.plume.role = "EMITTER"
    flow.plume.emitter_kind = "SPHERE"
    flow.plume.emitter_density, flow.plume.emitter_temperature = 1.0, 1.0
    t = time.monotonic()
    result = bpy.ops.plume.bake()
    plume_s = time.monotonic() - t
    if result != {"FINISHED"}:
        sys.exit(f"blender-bench: plume.bake gave {result}")
    report("plume", res, plume_s)
    still(scene, os.path.join(out_dir, f"plume_{res}.png"))
    results.append((res, manta_s, plume_s))

print("blender-bench: | resolution | Mantaflow | plume (add-on) | ratio |")
for res, m, p in results:
    print(f"blender-bench: | {res}^3 | {m:.1f} s | {p:.1f} s | {m / p:.0f}x |")
