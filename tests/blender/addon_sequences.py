# The add-on's shapes that change over a shot, as a user makes them: a
# collider grown by a keyed shape key, a cube bent by an armature, an
# emitter's particles, and a coloured emitter (issue 37, item 6).
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_sequences.py -- \
#            ADDON_ZIP PLUME WORK_DIR
#
# Checks, in order (exits 1 with a message on the first failed group):
# - export (export.write_scene, as plume.export writes): the grown sphere and
#   the bent cube are mesh sequences `file = "..._meshes/NAME_####.ply"` at
#   the origin, unrotated, unscaled, with no keys; a cube with an idle
#   armature (keyed location) and one with a static Subdivision stay rigid:
#   an OBJ each, the first keyed, and no frame files left; the particle
#   emitter is `shape = "points"` on its own sequence, with no placement; the coloured
#   emitter's `color` is written, and none for the emitter given none;
# - the files, read back with numpy (addon_common.read_ply): one a frame,
#   each mesh's vertices Blender's evaluated mesh in world space at that
#   frame and its triangles Blender's; each points file the alive particles
#   at that frame, their size as `radius`, and `vx, vy, vz` their motion
#   from frame to frame in m/s;
# - exporting again rewrites no file (each one's bytes are the same);
# - `plume check` takes the export;
# - bake through plume.bake: at the mid frame no smoke inside the grown
#   sphere between its first-frame radius and its mid-frame one (Blender's
#   own density grid, addon_common.SmokeProbe), while the gap between the
#   emitter and the sphere is smoke; the cache has a `color` grid and a
#   64x48 Cycles frame of the red emitter's smoke is red (R over smoke
#   pixels well above B), as it is not with the material's Color left at
#   render.albedo's grey (the control).
import math
import os
import subprocess
import sys
import time
import tomllib

import bpy
import numpy as np
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import (SmokeProbe, add_burner, add_domain, add_front_camera, add_shot,  # noqa: E402
                          captured, check, die, gate, install, read_ply, say, warnings_of)

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... addon_sequences.py -- ADDON_ZIP PLUME WORK_DIR")
addon_zip, plume, work = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)
t_start = time.monotonic()

RESOLUTION = 32
FIRST, LAST = 1, 16
MID = 8
FPS = 24
DOMAIN_SIZE = Vector((1.0, 1.0, 1.5))
DX = max(DOMAIN_SIZE) / RESOLUTION
R0, R1 = 0.1, 0.35           # the collider's radius at FIRST and from MID on
CENTRE = Vector((0.5, 0.5, 0.75))
RED = (1.0, 0.05, 0.05)
WIDTH, HEIGHT, SAMPLES = 48, 64, 8

install(addon_zip, plume)
from plume_blender import export  # noqa: E402

reference = subprocess.run([plume, "check", "--reference", "--reference-format", "json"],
                           capture_output=True, text=True, check=True).stdout
import json  # noqa: E402
ref = {f"{k['section']}.{k['key']}": k for k in json.loads(reference)["keys"]}
has_colour = "emitter.color" in ref
has_points = "points" in (ref["emitter.shape"].get("choices") or [])
say(f"plume: emitter.color {'yes' if has_colour else 'NO'}, shape points {'yes' if has_points else 'NO'}")
skipped = []


def skip(what, lacks):
    """A part this plume cannot run yet: said, and a failure under PLUME_REQUIRE_ALL=1 (CI)."""
    say(f"SKIP {what}: this plume has no {lacks}")
    skipped.append(what)

# --- The scene ------------------------------------------------------------------
scene = add_shot(FIRST, LAST, FPS, size=(WIDTH, HEIGHT))
domain = add_domain(DOMAIN_SIZE, RESOLUTION)
burner = add_burner((0.5, 0.5, 0.2))
burner.plume.emitter_temperature = 2.0
burner.plume.emitter_velocity = (0.0, 0.0, 2.0)
if has_colour:
    burner.plume.emitter_color = RED
burner.hide_render = True

# Grow: a sphere whose shape key makes it R1/R0 times as large, keyed from 0
# at FIRST to 1 at MID (linear), held after.
bpy.ops.mesh.primitive_uv_sphere_add(radius=R0, segments=24, ring_count=12, location=CENTRE)
grow = bpy.context.object
grow.name = "Grow"
grow.plume.role = "COLLIDER"
grow.shape_key_add(name="Basis")
key = grow.shape_key_add(name="Grown")
for p in key.data:
    p.co *= R1 / R0
for frame, value in ((FIRST, 0.0), (MID, 1.0)):
    key.value = value
    key.keyframe_insert("value", frame=frame)
for fc in grow.data.shape_keys.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
grow.hide_render = True


def armature(name, at):
    rig = bpy.data.objects.new(name, bpy.data.armatures.new(name))
    scene.collection.objects.link(rig)
    rig.location = at
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    bone = rig.data.edit_bones.new("Bone")
    bone.head, bone.tail = (0.0, 0.0, 0.0), (0.0, 0.0, 0.2)
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def rigged_cube(name, at, rig):
    bpy.ops.mesh.primitive_cube_add(size=0.15, location=at)
    cube = bpy.context.object
    cube.name = name
    group = cube.vertex_groups.new(name="Bone")
    group.add([v.index for v in cube.data.vertices if v.co.z > 0], 1.0, "REPLACE")
    cube.modifiers.new("Armature", "ARMATURE").object = rig
    cube.plume.role = "COLLIDER"
    cube.hide_render = True
    return cube


# Bent: its armature bends it over the frames (a sequence). Still: an armature
# that never moves, and a keyed location (rigid, keyed). Smooth: a static
# Subdivision (rigid).
corner = Vector((0.15, 0.15, 1.3))
bend_rig = armature("BendRig", corner)
bent = rigged_cube("Bent", corner, bend_rig)
pose = bend_rig.pose.bones["Bone"]
pose.rotation_mode = "XYZ"
pose.keyframe_insert("rotation_euler", frame=FIRST)
pose.rotation_euler.x = math.radians(40.0)
pose.keyframe_insert("rotation_euler", frame=LAST)
idle_rig = armature("IdleRig", corner + Vector((0.7, 0.0, 0.0)))
still = rigged_cube("Still", corner + Vector((0.7, 0.0, 0.0)), idle_rig)
still.keyframe_insert("location", index=1, frame=FIRST)
still.location.y += 0.2
still.keyframe_insert("location", index=1, frame=LAST)
bpy.ops.mesh.primitive_cube_add(size=0.15, location=corner + Vector((0.7, 0.7, 0.0)))
smooth = bpy.context.object
smooth.name = "Smooth"
smooth.modifiers.new("Subdivision", "SUBSURF")
smooth.plume.role = "COLLIDER"

# Sparks: an emitter with a particle system (no gravity: each particle keeps
# its velocity, so its motion from frame to frame is that velocity; a
# timestep of its own, so Blender's velocity is not already per 1/24 s).
bpy.ops.mesh.primitive_ico_sphere_add(radius=0.05, subdivisions=1, location=(0.15, 0.85, 0.3))
sparks = bpy.context.object
sparks.name = "Sparks"
sparks.plume.role = "EMITTER"
sparks.modifiers.new("Sparks", "PARTICLE_SYSTEM")
part = sparks.particle_systems[0].settings
part.count, part.frame_start, part.frame_end, part.lifetime = 40, FIRST, FIRST + 8, 6
part.normal_factor = 1.0
part.particle_size, part.size_random = 0.03, 0.5
part.effector_weights.gravity = 0.0
part.timestep = 0.06  # particle seconds a frame (Blender's 0.04 is near 1/24)
sparks.hide_render = True

bpy.ops.wm.save_as_mainfile(filepath=os.path.join(work, "sequences.blend"))

# --- Export ------------------------------------------------------------------------
toml = os.path.join(work, "export", "Shot.toml")
os.makedirs(os.path.dirname(toml), exist_ok=True)
t = time.monotonic()
ex = export.write_scene(bpy.context, toml, "export")
say(f"export: {time.monotonic() - t:.2f} s")
with open(toml, "rb") as f:
    written = tomllib.load(f)
check(ex.notes == ["plume: collider 'Bent' changes shape: written as a mesh a frame (Shot_meshes/Bent_####.ply)",
                   "plume: collider 'Grow' changes shape: written as a mesh a frame (Shot_meshes/Grow_####.ply)",
                   "plume: emitter 'Sparks' emits from its particles: written as points a frame "
                   "(Shot_meshes/Sparks_####.ply)"], "the export says which objects are sequences", str(ex.notes))
meshes = os.path.join(work, "export", "Shot_meshes")


def element(section, name):
    """The [[section]] table whose file names the object."""
    found = [e for e in written.get(section, []) if f"/{name}" in e.get("file", "")]
    return found[0] if len(found) == 1 else {}


for name in ("Grow", "Bent"):
    e = element("obstacle", name)
    check(e.get("shape") == "mesh" and e.get("file") == f"Shot_meshes/{name}_####.ply",
          f"'{name}' is a mesh sequence", str(e.get("file")))
    check(e.get("center") == [0.0, 0.0, 0.0] and e.get("rotation") == [0.0, 0.0, 0.0]
          and e.get("scale") == [1.0, 1.0, 1.0] and "key" not in e,
          f"'{name}' sits in world space: no placement, no keys", str({k: e.get(k) for k in ("center", "key")}))
still_e, smooth_e = element("obstacle", "Still"), element("obstacle", "Smooth")
check(still_e.get("file") == "Shot_meshes/Still.obj" and [k["frame"] for k in still_e.get("key", [])] == [FIRST, LAST],
      "'Still' (an armature that never moves) stays a rigid OBJ, keyed", str(still_e.get("file")))
check(smooth_e.get("file") == "Shot_meshes/Smooth.obj", "'Smooth' (static Subdivision) stays a rigid OBJ")
spark_e = element("emitter", "Sparks")
check(spark_e.get("shape") == "points" and spark_e.get("file") == "Shot_meshes/Sparks_####.ply"
      and not any(k in spark_e for k in ("key", "center", "rotation", "scale")),
      "the particle emitter is a points sequence, with no placement", str(spark_e))
burner_e = element("emitter", "Burner")
if has_colour:
    check(burner_e.get("color") == list(RED), "the emitter's colour is written", str(burner_e.get("color")))
    check("color" not in spark_e, "an emitter given no colour has none in the file", str(spark_e.get("color")))
want = {f"{n}_{f:04d}.ply" for n in ("Grow", "Bent", "Sparks") for f in range(FIRST, LAST + 1)}
want |= {"Burner.obj", "Still.obj", "Smooth.obj"}
have = set(os.listdir(meshes)) if os.path.isdir(meshes) else set()
check(have == want, "one PLY a frame for each sequence, an OBJ for each rigid mesh, nothing else",
      f"missing {sorted(want - have)[:4]}, extra {sorted(have - want)[:4]}")
gate("export")

# --- The files against Blender, frame by frame ----------------------------------------
alive = bpy.types.Particle.bl_rna.properties["alive_state"].enum_items["ALIVE"].value
worst = {"Grow": 0.0, "Bent": 0.0}
bad_tris, radii, particles = [], {}, {}
for frame in range(FIRST, LAST + 1):
    scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for obj in (grow, bent):
        ev = obj.evaluated_get(depsgraph)
        me = ev.to_mesh()
        want_v = np.array([tuple(ev.matrix_world @ v.co) for v in me.vertices])
        me.calc_loop_triangles()
        want_t = np.array([tuple(t.vertices) for t in me.loop_triangles])
        ev.to_mesh_clear()
        ply = read_ply(os.path.join(meshes, f"{obj.name}_{frame:04d}.ply"))
        v = np.stack([ply["vertex"][c] for c in "xyz"], axis=1)
        if v.shape != want_v.shape:
            worst[obj.name] = math.inf
            continue
        worst[obj.name] = max(worst[obj.name], float(np.abs(v - want_v).max()))
        if not np.array_equal(ply["face"]["vertex_indices"], want_t):
            bad_tris.append(f"{obj.name} {frame}")
        if obj is grow:
            radii[frame] = float(np.linalg.norm(v - np.array(CENTRE), axis=1).mean())
    psys = sparks.evaluated_get(depsgraph).particle_systems[0]
    live = [(i, tuple(p.location), p.size) for i, p in enumerate(psys.particles)
            if p.alive_state == "ALIVE"]
    particles[frame] = live
check(worst["Grow"] < 1e-5 and worst["Bent"] < 1e-5,
      "each frame's vertices are Blender's evaluated mesh in world space",
      f"worst {worst['Grow']:.2e} (Grow), {worst['Bent']:.2e} (Bent)")
check(not bad_tris, "each frame's triangles are Blender's", str(bad_tris[:3]))
check(abs(radii[FIRST] - R0) < 0.01 * R0 and abs(radii[MID] - R1) < 0.01 * R1,
      f"Grow's radius is {R0} m at frame {FIRST} and {R1} m at frame {MID}",
      f"{radii[FIRST]:.4f}, {radii[MID]:.4f}")

worst_p, worst_r, worst_v, counts, moving = 0.0, 0.0, 0.0, [], 0
for frame in range(FIRST, LAST + 1):
    ply = read_ply(os.path.join(meshes, f"Sparks_{frame:04d}.ply"))["vertex"]
    live = particles[frame]
    counts.append((len(ply), len(live)))
    if len(ply) != len(live):
        continue
    if not live:
        continue
    p = np.stack([ply[c] for c in "xyz"], axis=1)
    worst_p = max(worst_p, float(np.abs(p - np.array([l[1] for l in live])).max()))
    worst_r = max(worst_r, float(np.abs(ply["radius"] - np.array([l[2] for l in live])).max()))
    # Velocity: the motion to the next frame, for particles alive in both.
    after = {i: loc for i, loc, _ in particles.get(frame + 1, [])}
    for row, (i, loc, _) in enumerate(live):
        if i in after:
            step = (np.array(after[i]) - np.array(loc)) * FPS
            worst_v = max(worst_v, float(np.abs(np.array([ply[c][row] for c in ("vx", "vy", "vz")]) - step).max()))
            moving += 1
check(all(a == b for a, b in counts) and max(b for _, b in counts) > 10,
      "each points file holds that frame's alive particles", str(counts))
check(worst_p < 1e-5 and worst_r < 1e-6, "at their positions, their size as radius",
      f"worst {worst_p:.2e} m, radius {worst_r:.2e}")
check(moving > 50 and worst_v < 1e-3, "vx, vy, vz: their motion from frame to frame, m/s",
      f"{moving} particle steps, worst {worst_v:.2e} m/s")
gate("files")

# --- Again: nothing rewritten --------------------------------------------------------
stamps = {f: os.stat(os.path.join(meshes, f)).st_mtime_ns for f in os.listdir(meshes) if f.endswith(".ply")}
time.sleep(0.05)
export.write_scene(bpy.context, toml, "export")
again = {f: os.stat(os.path.join(meshes, f)).st_mtime_ns for f in os.listdir(meshes) if f.endswith(".ply")}
check(again == stamps, "a second export rewrites none of the unchanged frames",
      f"{sum(1 for f in stamps if again.get(f) != stamps[f])} of {len(stamps)} rewritten")
gate("export again")
if has_points:
    r = subprocess.run([plume, "check", toml], capture_output=True, text=True)
    check(r.returncode == 0, "plume check takes the export", r.stderr.strip())
    gate("plume check")
else:
    skip("plume check of the export", 'shape = "points"')

# --- Bake: the grown collider keeps the smoke out; the red smoke in Cycles ------------
for o in (bent, still, smooth, sparks, bend_rig, idle_rig):
    bpy.data.objects.remove(o)
scene.frame_set(FIRST)
t = time.monotonic()
result, lines = captured(lambda: bpy.ops.plume.bake())
say(f"plume.bake: {result} in {time.monotonic() - t:.1f} s")
vol_obj = bpy.data.objects.get("Domain_plume")
if result != {"FINISHED"} or vol_obj is None:
    die(f"plume.bake gave {result} and no 'Domain_plume'")
check(not warnings_of(lines), "the bake warns of nothing", str(warnings_of(lines)))
scene.frame_set(MID)
vol_obj.data.grids.load()
grids = {g.name: g.data_type for g in vol_obj.data.grids}
if has_colour:
    check(grids.get("color") == "VECTOR_FLOAT", "the cache has a colour grid", str(grids))

THRESHOLD = 0.02
probe = SmokeProbe(scene, vol_obj, THRESHOLD)
say(f"frame {MID}: the density > {THRESHOLD} surface has {probe.vertices} vertices")
# Inside the grown sphere, outside its first frame's: below and beside its centre.
dirs = [Vector(d).normalized() for d in ((0, 0, -1), (1, 0, -1), (-1, 0, -1), (0, 1, -1), (0, -1, -1),
                                         (1, 0, -0.3), (-1, 0, -0.3), (0, 1, -0.3), (0, -1, -0.3))]
shell = [CENTRE + d * r for d in dirs for r in (R0 + DX, 0.5 * (R0 + R1), R1 - 2 * DX)]
smoky = [tuple(round(v, 3) for v in p) for p in shell if probe(p)]
check(not smoky, f"no smoke inside the grown collider at frame {MID} ({len(shell)} points between "
      f"{R0 + DX:.3f} and {R1 - 2 * DX:.3f} m from its centre)", f"smoke at {len(smoky)}: {smoky[:3]}")
below = [Vector((0.5, 0.5, z)) for z in (0.36, 0.38)]
check(all(probe(p) for p in below), "the control: the gap between the emitter and the collider is smoke",
      str([probe(p) for p in below]))
probe.remove()

gate("collider")
if not has_colour:
    skip("the red emitter in Cycles", "emitter.color")
    if os.environ.get("PLUME_REQUIRE_ALL") == "1":
        die(f"skipped under PLUME_REQUIRE_ALL=1: {', '.join(skipped)}")
    say(f"PASS the add-on's sequences and particles, without {', '.join(skipped)} "
        f"({time.monotonic() - t_start:.1f} s)")
    sys.exit(0)

# Cycles: the smoke of the red emitter, lit by a white sky, in front of nothing.
import cycles_common  # noqa: E402

add_front_camera(scene, 50.0, (0.5, -1.4, 0.75))
world = bpy.data.worlds.new("Sky")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (1.0, 1.0, 1.0, 1.0)
scene.world = world
scene.frame_set(LAST)


def smoke_colour(name):
    """Mean linear R, G, B over pixels of alpha > 0.3, and their count."""
    path = os.path.join(work, name + ".exr")
    cycles_common.set_up_cycles(scene, SAMPLES, WIDTH, HEIGHT, path)
    scene.cycles.max_bounces = scene.cycles.volume_bounces = 4
    t = time.monotonic()
    bpy.ops.render.render(write_still=True)
    px = np.array(cycles_common.load_rgba(path, WIDTH, HEIGHT)).reshape(-1, 4)
    smoke = px[px[:, 3] > 0.3]
    say(f"Cycles {WIDTH}x{HEIGHT}, {SAMPLES} samples: {time.monotonic() - t:.1f} s")
    return (smoke[:, :3].mean(axis=0) if len(smoke) else np.zeros(3)), len(smoke)


def describe(rgb, n):
    return f"{n} smoke pixels, mean RGB ({rgb[0]:.3f}, {rgb[1]:.3f}, {rgb[2]:.3f})"


red, n = smoke_colour("red")
check(n > 50 and red[0] > 2.0 * red[2] and red[0] > 2.0 * red[1], "Cycles draws the emitter's smoke red",
      describe(red, n))
pv = next(nd for nd in vol_obj.data.materials[0].node_tree.nodes if nd.bl_idname == "ShaderNodeVolumePrincipled")
for link in list(pv.inputs["Color"].links):
    vol_obj.data.materials[0].node_tree.links.remove(link)
grey, n = smoke_colour("grey")
check(n > 50 and grey[0] < 1.2 * grey[2], "the control: with Color at the albedo's grey it is not red",
      describe(grey, n))
gate("colour")
if skipped and os.environ.get("PLUME_REQUIRE_ALL") == "1":
    die(f"skipped under PLUME_REQUIRE_ALL=1: {', '.join(skipped)}")
say(f"PASS the add-on's sequences, particles and colour ({time.monotonic() - t_start:.1f} s)")
