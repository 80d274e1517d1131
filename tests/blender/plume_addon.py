# The Blender add-on end to end, as a user drives it: install the zip, mark a
# domain, an emitter and a moving collider, bake through the operators, and
# check what comes back.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python plume_addon.py -- \
#            ADDON_ZIP PLUME WORK_DIR
#
# Checks, in order (exits 1 with a message on the first failed group):
# - the zip installs and enables as module plume_blender; obj.plume's defaults
#   are the schema's (`plume check --reference --reference-format json`);
# - the domain panel: sub-panels Settings, Gas (Fire and Detail inside, closed),
#   Cache as Blender's Fluid panels, plume's renderer in its own closed one
#   (its debugging views in a closed one inside it); every key placed once,
#   labelled in words;
# - a non-manifold collider is refused in one line naming it, before anything
#   is written; a scene without an emitter is refused by Bake in one line;
# - keyframes round trip: plume.export writes keys that `plume check` reads back
#   equal to Blender's values at each key (collider center and rotation, camera
#   focal length), with the domain's origin, start frame and fps;
# - plume.export maps an orthographic camera to plume's (camera.type, and
#   ortho_width from Orthographic Scale by the sensor fit: the larger side with
#   Auto, the width with Horizontal, the height with Vertical), which `plume
#   check` reads back;
# - Blender's force fields export as [[field]] tables, Mantaflow's scaling
#   (0.2 x strength a frame) on their strengths, keys and falloff kept;
# - plume.bake bakes with an area and a spot light and an orthographic camera in
#   the scene (a bake uses neither), and imports '<domain>_plume': a volume
#   sequence numbered as the scene (start 1001), grids density/temperature/velocity, bounds inside the
#   domain, half a voxel back (Cycles' offset), a Principled Volume material;
# - at a mid frame no smoke inside the collider, read from Blender's own grid
#   (a Volume to Mesh modifier on the density grid; points tested inside the
#   surface by ray parity), while the column under it is smoke (the control);
# - a small Cycles frame with the smoke differs clearly from one without it;
# - SIGINT (the modal operator's Esc) stops a bake after a frame, its frames
#   kept, and plume.bake(resume=True) bakes the rest;
# - plume.render refuses a panoramic camera in one line naming it, takes an
#   orthographic one, and with a perspective one writes plume's MP4 beside the
#   .blend, one frame per scene frame, saying in one line it leaves out the area
#   and spot lights.
import math
import os
import subprocess
import sys
import time
import tomllib

import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import SmokeProbe, captured, check, die, gate, say, warnings_of  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 3:
    sys.exit("usage: ... plume_addon.py -- ADDON_ZIP PLUME WORK_DIR")
addon_zip, plume, work = (os.path.abspath(a) for a in args)
os.makedirs(work, exist_ok=True)
t_start = time.monotonic()

# The scene: small and short, so the test stays a few seconds of baking.
RESOLUTION = 24
FIRST, LAST = 1001, 1012
MID = 1008
DOMAIN_MIN = Vector((2.0, -1.0, 0.5))  # anywhere in the world: domain.origin
DOMAIN_SIZE = Vector((1.0, 1.0, 1.5))


# --- Install the zip as a user does -------------------------------------------
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.preferences.addon_install(filepath=addon_zip, overwrite=True)
bpy.ops.preferences.addon_enable(module="plume_blender")
import plume_blender  # noqa: E402  (installed just now)
from plume_blender import schema  # noqa: E402

check("plume_blender" in bpy.context.preferences.addons, "the zip installs and enables plume_blender",
      plume_blender.__file__)
bpy.context.preferences.addons["plume_blender"].preferences.binary = plume

reference = subprocess.run([plume, "check", "--reference", "--reference-format", "json"],
                           capture_output=True, text=True, check=True).stdout
import json  # noqa: E402
ref = {f"{k['section']}.{k['key']}": k for k in json.loads(reference)["keys"]}
scene = bpy.context.scene
probe = bpy.data.objects.new("Probe", None)
scene.collection.objects.link(probe)
for dotted, prop in (("domain.resolution", "resolution"), ("physics.vorticity", "physics_vorticity"),
                     ("emitter.temperature", "emitter_temperature"),
                     ("domain.boundary.z_min", "boundary_z_min")):
    got, want = getattr(probe.plume, prop), ref[dotted]["default"]
    same = abs(got - want) <= 1e-6 * abs(want) if isinstance(want, float) else got == want  # Blender's floats are 32-bit
    check(same, f"obj.plume.{prop} defaults to plume's {dotted}",
          f"{getattr(probe.plume, prop)} vs {ref[dotted]['default']}")
prop_rna = probe.plume.bl_rna.properties["resolution"]
check((prop_rna.hard_min, prop_rna.hard_max) == (ref["domain.resolution"]["min"], ref["domain.resolution"]["max"]),
      "obj.plume.resolution's range is plume's", f"[{prop_rna.hard_min}, {prop_rna.hard_max}]")
bpy.data.objects.remove(probe)
gate("install")


# --- The domain panel: Blender's Fluid grouping, labels in words ---------------
from plume_blender import panel_keys, ui  # noqa: E402

want_panels = {"settings": ("Settings", "PHYSICS_PT_plume", False),
               "gas": ("Gas", "PHYSICS_PT_plume", False),
               "fire": ("Fire", "PHYSICS_PT_plume_gas", True),
               "detail": ("Detail", "PHYSICS_PT_plume_gas", True),
               "cache": ("Cache", "PHYSICS_PT_plume", False),
               "renderer": ("plume Renderer", "PHYSICS_PT_plume", True),
               "views": ("Debug Views", "PHYSICS_PT_plume_renderer", True)}
for ident, (title, parent, closed) in want_panels.items():
    cls = getattr(bpy.types, f"PHYSICS_PT_plume_{ident}", None)
    got = None if cls is None else (cls.bl_label, cls.bl_parent_id, "DEFAULT_CLOSED" in cls.bl_options)
    check(got == (title, parent, closed), f"sub-panel PHYSICS_PT_plume_{ident} is '{title}' under {parent}"
          f"{', closed by default' if closed else ', open'}", str(got))
s_ = schema.load()
shown = [k.dotted for sec in schema.DOMAIN_SECTIONS for k in s_.shown(sec)]
placed = [d for p in panel_keys.DOMAIN_PANELS for d in p.keys]
check(sorted(shown) == sorted(placed), "every domain key the panel shows sits in exactly one sub-panel",
      f"unplaced {sorted(set(shown) - set(placed))}, twice or unknown "
      f"{sorted(r for r in set(placed) if placed.count(r) > 1 or r not in shown)}")
views = panel_keys.panel_of("render.view")
check(all(panel_keys.panel_of(d) is views for d in ("render.grid", "render.slice", "render.view_range"))
      and views.parent == "renderer", "Grid, View, Slice and View range sit in the renderer's Debug Views")
rna = bpy.types.Object.bl_rna.properties["plume"].fixed_type.bl_rna.properties
raw = []
for role in ("DOMAIN", "EMITTER", "COLLIDER"):
    for sec in schema.ROLE_SECTIONS[role]:
        for k in s_.shown(sec):
            name = rna[k.prop].name
            if name != panel_keys.LABELS.get(k.dotted):
                raw.append(f"{k.dotted}: '{name}'")
check(not raw, "every key's label is panel_keys.LABELS', in words", "; ".join(raw[:5]))
# A label's unit is the schema's: the unit in brackets is spelt in the key's
# doc, and a float key whose doc gives a physical unit has one in its label.
SPELLINGS = {"m/s²": ("m/s^2",), "m²/s": ("m^2/s",), "m/s": ("m/s",), "1/s": ("per second", "1/s"),
             "1/m": ("1/m",), "m": ("metres",), "K": ("kelvin",), "frames": ("frame",),
             "voxels": ("voxel",)}
PHYSICAL = ("m/s", "m^2/s", "1/m", "per second", "1/s", "metres", "kelvin")
astray = []
for role in ("DOMAIN", "EMITTER", "COLLIDER"):
    for sec in schema.ROLE_SECTIONS[role]:
        for k in s_.shown(sec):
            name = rna[k.prop].name
            unit = name[name.rindex("(") + 1:-1].split(" per ")[0] if name.endswith(")") else None
            if unit in SPELLINGS and not any(sp in k.doc for sp in SPELLINGS[unit]):
                astray.append(f"{k.dotted}: '{name}' but the doc says '{k.doc[:60]}'")
            if unit is None and k.type in ("float", "vec3") and any(u in k.doc for u in PHYSICAL):
                astray.append(f"{k.dotted}: '{name}' has no unit; the doc says '{k.doc[:60]}'")
check(not astray, "each label's unit is the one the schema's doc gives", "; ".join(astray[:4]))
check((rna["time_cfl"].name, rna["output_crf"].name, rna["physics_gravity"].name)
      == ("CFL Number", "Video Quality (CRF)", "Gravity (m/s²)"),
      "labels like 'CFL Number', 'Video Quality (CRF)', 'Gravity (m/s²)'",
      f"{rna['time_cfl'].name}, {rna['output_crf'].name}, {rna['physics_gravity'].name}")
gate("panel")

# --- The scene: a domain, a sphere emitter, a collider moving through the smoke -
scene.frame_start, scene.frame_end = FIRST, LAST
scene.render.fps, scene.render.fps_base = 24, 1.0
scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 64, 80, 100

bpy.ops.mesh.primitive_cube_add(size=1.0, location=DOMAIN_MIN + DOMAIN_SIZE / 2)
domain = bpy.context.object
domain.name = "Domain"
domain.scale = DOMAIN_SIZE
domain.plume.role = "DOMAIN"
domain.plume.resolution = RESOLUTION

centre_xy = DOMAIN_MIN + DOMAIN_SIZE / 2
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.15, segments=16, ring_count=8,
                                     location=(centre_xy.x, centre_xy.y, DOMAIN_MIN.z + 0.25))
emitter = bpy.context.object
emitter.name = "Emitter"
emitter.plume.role = "EMITTER"
emitter.plume.emitter_temperature = 2.0
emitter.plume.emitter_velocity = (0.0, 0.0, 2.0)
emitter.hide_render = True

# The collider crosses the column at z = 0.75 m above the floor, at the column
# at the mid frame; keyed location (linear) and a quarter turn about z.
z_col = DOMAIN_MIN.z + 0.8
bpy.ops.mesh.primitive_cube_add(size=0.4, location=(centre_xy.x - 0.35, centre_xy.y, z_col))
collider = bpy.context.object
collider.name = "Collider"
collider.plume.role = "COLLIDER"
for frame, dx_ in ((FIRST, -0.35), (MID, 0.0), (LAST, 0.2)):
    collider.location.x = centre_xy.x + dx_
    collider.rotation_euler.z = math.radians(90.0 * (frame - FIRST) / (LAST - FIRST))
    collider.keyframe_insert("location", index=0, frame=frame)
    collider.keyframe_insert("rotation_euler", index=2, frame=frame)
for fc in collider.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
collider.hide_render = True

cam_data = bpy.data.cameras.new("Camera")
cam_data.lens = 30.0
cam = bpy.data.objects.new("Camera", cam_data)
scene.collection.objects.link(cam)
cam.location = (centre_xy.x, DOMAIN_MIN.y - 1.0, DOMAIN_MIN.z + 0.6)
cam.rotation_euler = (math.radians(90), 0.0, 0.0)
cam_data.keyframe_insert("lens", frame=FIRST)
cam_data.lens = 35.0
cam_data.keyframe_insert("lens", frame=LAST)
scene.camera = cam
sun_data = bpy.data.lights.new("Sun", "SUN")
sun_data.energy = 4.0
sun = bpy.data.objects.new("Sun", sun_data)
scene.collection.objects.link(sun)
sun.rotation_euler = (math.radians(40), 0.0, math.radians(-30))
lamp = bpy.data.objects.new("Lamp", bpy.data.lights.new("Lamp", "POINT"))
lamp.data.energy = 100.0
lamp.location = (centre_xy.x + 1.0, DOMAIN_MIN.y - 0.5, DOMAIN_MIN.z + 1.0)
scene.collection.objects.link(lamp)
# An area and a spot light: a bake does not use them, plume's render leaves
# them out (faint, so Cycles' frame below is the sun's and the lamp's).
for name_, kind in (("AreaLamp", "AREA"), ("SpotLamp", "SPOT")):
    light = bpy.data.objects.new(name_, bpy.data.lights.new(name_, kind))
    light.data.energy = 1.0
    light.location = (centre_xy.x - 2.0, DOMAIN_MIN.y - 2.0, DOMAIN_MIN.z + 3.0)
    scene.collection.objects.link(light)
# The sun turns with a keyed parent: no F-curve of its own, so its keys are
# sampled on every frame.
rig = bpy.data.objects.new("Rig", None)
scene.collection.objects.link(rig)
sun.parent = rig
rig.keyframe_insert("rotation_euler", index=2, frame=FIRST)
rig.rotation_euler.z = math.radians(60.0)
rig.keyframe_insert("rotation_euler", index=2, frame=LAST)

blend = os.path.join(work, "addon.blend")
bpy.ops.wm.save_as_mainfile(filepath=blend)


def refused(what, name, path):
    """plume.export must fail naming `name`, writing nothing."""
    try:
        bpy.ops.plume.export(filepath=path)
    except RuntimeError as e:
        msg = str(e).strip()
        say(f"{what}: {msg}")
        check(f"'{name}'" in msg and "\n" not in msg.replace("Error: ", "").strip(),
              f"{what} refused in one line naming '{name}'")
        check(not os.path.exists(path), f"{what}: nothing written")
        return
    check(False, f"{what} refused", "plume.export finished")


# --- Refusals: a non-manifold collider, no emitter ------------------------------
bpy.ops.mesh.primitive_plane_add(size=0.3, location=(centre_xy.x, centre_xy.y, DOMAIN_MIN.z + 1.2))
plane = bpy.context.object
plane.name = "Sheet"
plane.plume.role = "COLLIDER"
refused("a non-manifold collider", "Sheet", os.path.join(work, "refused_sheet.toml"))
bpy.data.objects.remove(plane)
# No emitter: Bake refuses in one line, writing nothing (not even its folder).
emitter.plume.role = "NONE"
domain.plume.cache_dir = os.path.join(work, "no_emitter")
try:
    bpy.ops.plume.bake()
    check(False, "a scene without an emitter is refused by Bake", "plume.bake finished")
except RuntimeError as e:
    msg = str(e).strip()
    say(f"no emitter: {msg}")
    check("no emitter: set an object's plume role to Emitter" in msg and "\n" not in msg,
          "a scene without an emitter is refused by Bake in one line")
check(not os.path.exists(domain.plume.cache_dir), "no emitter: nothing written")
emitter.plume.role = "EMITTER"
domain.plume.cache_dir = ""
# A value Blender's property allows but plume refuses: plume's own line.
emitter.plume.emitter_frames = (1010, 1005)
try:
    bpy.ops.plume.export(filepath=os.path.join(work, "refused_frames.toml"))
    check(False, "plume check's error is the operator's", "plume.export finished")
except RuntimeError as e:
    msg = str(e).strip()
    say(f"frames 1010-1005: {msg}")
    check(".frames' = [1010, 1005]" in msg and "error:" in msg, "plume check's one-line error is the operator's error")
emitter.plume.emitter_frames = (1, 1000000)
gate("refusals")

# --- Keyframe round trip --------------------------------------------------------
toml = os.path.join(work, "roundtrip.toml")
result, lines = captured(lambda: bpy.ops.plume.export(filepath=toml))
warned = warnings_of(lines)
check(result == {"FINISHED"} and any("leaves out area light 'AreaLamp', spot light 'SpotLamp'" in w
                                     for w in warned),
      "Export leaves out the area and spot lights, saying so in one line", str(warned))
r = subprocess.run([plume, "check", toml], capture_output=True, text=True)
check(r.returncode == 0, "plume check accepts the export", r.stderr.strip())
resolved = tomllib.loads(r.stdout)
check(resolved["time"]["start_frame"] == FIRST and resolved["time"]["frames"] == LAST - FIRST + 1
      and abs(resolved["time"]["fps"] - 24.0) < 1e-6, "time.start_frame, frames and fps are the scene's",
      str(resolved["time"]))
check(all(abs(a - b) < 1e-5 for a, b in zip(resolved["domain"]["origin"], DOMAIN_MIN))
      and all(abs(a - b) < 1e-5 for a, b in zip(resolved["domain"]["size"], DOMAIN_SIZE)),
      "domain.origin and size are the domain's bounding box",
      f"{resolved['domain']['origin']} {resolved['domain']['size']}")
check(resolved["domain"]["resolution"] == RESOLUTION, "domain.resolution is obj.plume.resolution")
obstacles = resolved.get("obstacle", [])
check(len(obstacles) == 1 and len(resolved.get("emitter", [])) == 1, "one emitter and one obstacle")
keys = obstacles[0].get("key", []) if obstacles else []
check([k["frame"] for k in keys] == [FIRST, MID, LAST], "the collider's keys are at its F-curves' keys",
      str([k.get("frame") for k in keys]))
worst = 0.0
for k in keys:
    scene.frame_set(int(k["frame"]))
    want_c = list(collider.matrix_world.translation)
    want_r = [math.degrees(a) for a in collider.rotation_euler]
    worst = max([worst] + [abs(a - b) for a, b in zip(k["center"], want_c)]
                + [abs(a - b) / 100 for a, b in zip(k["rotation"], want_r)])
check(keys != [] and worst < 1e-4, "keyed center and rotation read back equal at each key", f"worst {worst:.2e}")
cam_keys = resolved.get("camera", {}).get("key", [])
check([(k["frame"], round(k["focal_length"], 4)) for k in cam_keys] == [(FIRST, 30.0), (LAST, 35.0)],
      "the camera's focal length keys read back", str([(k.get("frame"), k.get("focal_length")) for k in cam_keys]))
lights = resolved.get("light", [])
check([l["type"] for l in lights] == ["point", "directional"], "the point light and the sun (sorted by name)",
      str([l.get("type") for l in lights]))
point = lights[0] if lights else {}
check(all(abs(a - b) < 1e-5 for a, b in zip(point.get("position", []), lamp.location))
      and abs(point.get("intensity", 0) - 100.0 / (4 * math.pi)) < 1e-4,
      "the point light at its place, intensity = watts / 4 pi", str(point))
lights = lights[1:]
sun_keys = lights[0].get("key", []) if lights else []
check([k["frame"] for k in sun_keys] == list(range(FIRST, LAST + 1)),
      "the parented sun is keyed on every frame", str([k.get("frame") for k in sun_keys]))
worst = 0.0
for k in sun_keys:
    scene.frame_set(int(k["frame"]))
    want = (sun.matrix_world.to_3x3() @ Vector((0.0, 0.0, -1.0))).normalized()
    worst = max([worst] + [abs(a - b) for a, b in zip(Vector(k["direction"]).normalized(), want)])
check(sun_keys != [] and worst < 1e-5, "its direction reads back equal on every frame", f"worst {worst:.2e}")
gate("round trip")

# --- Force fields: Blender's as plume's [[field]], Mantaflow's scaling ----------
# Wind (keyed strength), Force, Vortex (tube falloff with min and max),
# Turbulence, Drag and a Curve Guide, and a Magnetic field plume leaves out;
# each read back by `plume check` with strength 0.2 x S x fps (Mantaflow's
# effector step), a vortex's sqrt of that, Force's sign turned.
FPS = 24.0
made = []


def field_object(name, kind, location, data=None):
    """A force field as Add > Force Field makes it (a Curve Guide is a curve)."""
    bpy.ops.object.effector_add(type=kind, location=location)
    obj = bpy.context.object
    obj.name = name
    if data is not None:
        obj.data = data
    made.append(obj)
    return obj


wind_f = field_object("FieldA_Wind", "WIND", (2.1, -0.9, 0.6))
wind_f.rotation_euler = (0.0, math.radians(90.0), 0.0)  # local +z onto world +x
wind_f.field.strength = 1.0
wind_f.field.keyframe_insert("strength", frame=FIRST)
wind_f.field.strength = 3.0
wind_f.field.keyframe_insert("strength", frame=LAST)
for fc in wind_f.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
force_f = field_object("FieldB_Force", "FORCE", (2.5, -0.5, 1.2))
force_f.field.strength = 2.0
vortex_f = field_object("FieldC_Vortex", "VORTEX", (2.5, -0.5, 1.0))
vortex_f.field.strength = 1.5
vortex_f.field.falloff_type = "TUBE"
vortex_f.field.falloff_power = 2.0
vortex_f.field.use_min_distance, vortex_f.field.distance_min = True, 0.1
vortex_f.field.use_max_distance, vortex_f.field.distance_max = True, 0.6
turb_f = field_object("FieldD_Turbulence", "TURBULENCE", (2.5, -0.5, 1.0))
turb_f.field.strength, turb_f.field.size, turb_f.field.seed = 0.5, 0.3, 7
drag_f = field_object("FieldE_Drag", "DRAG", (2.5, -0.5, 1.0))
drag_f.field.linear_drag = 0.25
curve_data = bpy.data.curves.new("Path", "CURVE")
curve_data.dimensions = "3D"
spline = curve_data.splines.new("POLY")
spline.points.add(2)
for p_, co in zip(spline.points, ((2.2, -0.5, 0.7), (2.5, -0.5, 1.2), (2.8, -0.4, 1.7))):
    p_.co = (*co, 1.0)
guide_f = field_object("FieldF_Guide", "GUIDE", (0.0, 0.0, 0.0), curve_data)
guide_f.field.strength = 1.0
guide_f.field.guide_minimum = 0.1
guide_f.field.use_max_distance, guide_f.field.distance_max = True, 0.3
field_object("FieldG_Magnet", "MAGNET", (2.5, -0.5, 1.0))

# physics.wind keyed on the domain: [[physics.key]] tables.
domain.plume.physics_wind = (0.0, 0.0, 0.0)
domain.keyframe_insert("plume.physics_wind", frame=FIRST)
domain.plume.physics_wind = (1.5, 0.0, 0.0)
domain.keyframe_insert("plume.physics_wind", frame=LAST)

ftoml = os.path.join(work, "fields.toml")
result, lines = captured(lambda: bpy.ops.plume.export(filepath=ftoml))
warned = warnings_of(lines)
check(result == {"FINISHED"} and any("leaves out magnet field 'FieldG_Magnet'" in w for w in warned),
      "Export leaves out the magnetic field, saying so in one line", str(warned))
r = subprocess.run([plume, "check", ftoml], capture_output=True, text=True)
check(r.returncode == 0, "plume check accepts the exported fields", r.stderr.strip())
fields = tomllib.loads(r.stdout).get("field", [])
check([f_["type"] for f_ in fields] == ["wind", "attract", "vortex", "turbulence", "drag", "curve"],
      "six fields, by name: wind, attract (Force), vortex, turbulence, drag, curve (Curve Guide)",
      str([f_.get("type") for f_ in fields]))
if len(fields) == 6:
    wind_t, force_t, vortex_t, turb_t, drag_t, curve_t = fields
    near = lambda a, b, tol=1e-4: abs(a - b) <= tol * max(1.0, abs(b))  # noqa: E731
    check(near(wind_t["strength"], 0.2 * 1.0 * FPS)
          and all(near(a, b) for a, b in zip(wind_t["direction"], (1.0, 0.0, 0.0)))
          and all(near(a, b) for a, b in zip(wind_t["center"], (2.1, -0.9, 0.6))),
          "wind: 0.2 x strength x fps m/s^2 along the object's +z, at its place", str(wind_t))
    wkeys = wind_t.get("key", [])
    check([(k["frame"], round(k["strength"], 4)) for k in wkeys]
          == [(FIRST, round(0.2 * 1.0 * FPS, 4)), (LAST, round(0.2 * 3.0 * FPS, 4))]
          and wind_t.get("interpolation") == "linear",
          "the wind's keyed strength reads back at its keys, scaled", str(wkeys))
    check(near(force_t["strength"], -0.2 * 2.0 * FPS), "Force 2 pushes away: attract -0.2 x 2 x fps",
          str(force_t["strength"]))
    check(all(f_["smoke_only"] for f_ in fields), "every field acts where the smoke is, as Mantaflow's",
          str([f_["smoke_only"] for f_ in fields]))
    check(near(vortex_t["strength"], math.sqrt(0.2 * 1.5 * FPS)) and vortex_t["shape"] == "tube"
          and near(vortex_t["falloff"]["power"], 2.0) and near(vortex_t["falloff"]["min"], 0.1)
          and near(vortex_t["falloff"]["max"], 0.6),
          "vortex: sqrt(0.2 x strength x fps) rad/s, its tube falloff's power, min and max", str(vortex_t))
    check(near(turb_t["strength"], 0.2 * 0.5 * FPS) and near(turb_t["size"], 0.3) and turb_t["seed"] == 7,
          "turbulence: 0.2 x strength x fps, its size and seed", str(turb_t))
    check(near(drag_t["strength"], 0.2 * 0.25 * FPS), "drag: 0.2 x linear drag x fps per second",
          str(drag_t["strength"]))
    pts = curve_t.get("points", [])
    check(len(pts) == 3 and all(near(a, b) for a, b in zip(pts[2], (2.8, -0.4, 1.7)))
          and near(curve_t["radius"], 0.3) and near(curve_t["falloff"]["min"], 0.1),
          "curve: the guide's points in the world, radius its max distance", str(curve_t))
pkeys = tomllib.loads(r.stdout).get("physics", {}).get("key", [])
check([(k["frame"], [round(x, 4) for x in k["wind"]]) for k in pkeys]
      == [(FIRST, [0.0, 0.0, 0.0]), (LAST, [1.5, 0.0, 0.0])],
      "the domain's keyed wind reads back as [[physics.key]]", str(pkeys))
for obj in made:
    bpy.data.objects.remove(obj)
action = domain.animation_data.action
for fc in [c for c in action.fcurves if c.data_path == "plume.physics_wind"]:
    action.fcurves.remove(fc)
domain.plume.physics_wind = (0.0, 0.0, 0.0)
gate("force fields")

# --- Bake and import through the operator ------------------------------------
# An orthographic camera (and the area and spot lights): exported as plume's;
# a bake needs neither. The frame is 64 x 80: Auto fits the scale to the height.
cam_data.type = "ORTHO"
cam_data.ortho_scale = 2.5
ortho_widths = {}
for fit, want in (("AUTO", 2.5 * 64 / 80), ("HORIZONTAL", 2.5), ("VERTICAL", 2.5 * 64 / 80)):
    cam_data.sensor_fit = fit
    ortho_toml = os.path.join(work, f"ortho_{fit.lower()}.toml")
    result, lines = captured(lambda: bpy.ops.plume.export(filepath=ortho_toml))
    warned = warnings_of(lines)
    r = subprocess.run([plume, "check", ortho_toml], capture_output=True, text=True)
    back = tomllib.loads(r.stdout).get("camera", {}) if r.returncode == 0 else {}
    ortho_widths[fit] = (back.get("type"), back.get("ortho_width"), want)
    check(result == {"FINISHED"} and r.returncode == 0 and back.get("type") == "orthographic"
          and abs(back.get("ortho_width", 0) - want) < 1e-5
          and not any("'Camera'" in w for w in warned),
          f"Export maps the orthographic camera (sensor fit {fit}): ortho_width {want:g}, read back",
          f"{back.get('type')}, {back.get('ortho_width')}; {r.stderr.strip()} {warned}")
say(f"orthographic camera: {ortho_widths}")
cam_data.sensor_fit = "AUTO"
scene.frame_set(FIRST)
t = time.monotonic()
try:
    result, lines = captured(lambda: bpy.ops.plume.bake())
except RuntimeError as e:
    die(f"plume.bake refused a scene with an area and a spot light and an orthographic camera: {e}")
say(f"plume.bake: {result} in {time.monotonic() - t:.1f} s")
check(result == {"FINISHED"}, "plume.bake finishes with an area and a spot light and an orthographic camera")
warned = warnings_of(lines)
check(not any(n in w for w in warned for n in ("AreaLamp", "SpotLamp", "'Camera'")),
      "Bake says nothing of the lights and camera it does not use", str(warned))
cam_data.type = "PERSP"
cache = os.path.join(work, "plume_cache")
files = sorted(f for f in os.listdir(cache) if f.endswith(".vdb")) if os.path.isdir(cache) else []
check(files == [f"Domain_{n}.vdb" for n in range(FIRST, LAST + 1)], "//plume_cache/ holds Domain_1001.vdb ..",
      f"{len(files)} files")
obj = bpy.data.objects.get("Domain_plume")
if obj is None or obj.type != "VOLUME":
    die("no Volume object 'Domain_plume' after plume.bake")
vol = obj.data
check(vol.is_sequence and vol.frame_duration == LAST - FIRST + 1,
      "a volume sequence of every frame", f"is_sequence {vol.is_sequence}, {vol.frame_duration} frames")
scene.frame_set(MID)
vol.grids.load()
check(vol.grids.frame_filepath.endswith(f"Domain_{MID}.vdb"), f"scene frame {MID} shows file {MID}",
      vol.grids.frame_filepath)
grids = {g.name: g.data_type for g in vol.grids}
for g, dtype in (("density", "FLOAT"), ("temperature", "FLOAT"), ("velocity", "VECTOR_FLOAT")):
    check(grids.get(g) == dtype, f"grid '{g}' is {dtype}", str(grids.get(g)))
dx = max(DOMAIN_SIZE) / RESOLUTION
voxel = vol.grids["density"].matrix_object.col[0].length
check(abs(voxel - dx) < 1e-6, "the density voxel is dx", f"{voxel} vs {dx}")
check((obj.location - Vector((-dx / 2,) * 3)).length < 1e-6, "the object sits half a voxel back (Cycles' offset)",
      str(tuple(obj.location)))
mats = [m.name for m in vol.materials if m]
nodes = {n.bl_idname for n in vol.materials[0].node_tree.nodes} if mats else set()
check("ShaderNodeVolumePrincipled" in nodes and "ShaderNodeAttribute" in nodes,
      "a Principled Volume material reading the grids", str(mats))

depsgraph = bpy.context.evaluated_depsgraph_get()


def world_bounds(o):
    ev = o.evaluated_get(bpy.context.evaluated_depsgraph_get())
    pts = [ev.matrix_world @ Vector(c) for c in ev.bound_box]
    return (Vector([min(p[i] for p in pts) for i in range(3)]), Vector([max(p[i] for p in pts) for i in range(3)]))


scene.frame_set(LAST)
lo, hi = world_bounds(obj)
dom_hi = DOMAIN_MIN + DOMAIN_SIZE
say(f"frame {LAST}: bounds {tuple(round(v, 3) for v in lo)} - {tuple(round(v, 3) for v in hi)}; "
    f"domain {tuple(DOMAIN_MIN)} - {tuple(dom_hi)}")
# Blender's bounds span the active voxel centres (less half a voxel of shift).
check(all(lo[i] >= DOMAIN_MIN[i] - dx - 1e-4 and hi[i] <= dom_hi[i] + 1e-4 for i in range(3)),
      "the smoke's bounds lie inside the domain")
check(hi.z - lo.z > 0.5 and lo.z < DOMAIN_MIN.z + 0.3, "smoke from the emitter up the domain",
      f"z {lo.z:.3f} - {hi.z:.3f}")
gate("bake and import")

# --- No smoke inside the collider, from Blender's own density grid -------------
# Blender 3.4's Python cannot read a volume's voxels; a Volume to Mesh modifier
# turns Blender's own density grid (the imported object, transform and all)
# into the surface density = THRESHOLD, and points are tested inside it by the
# parity of a ray's crossings.
THRESHOLD = 0.02
scene.frame_set(MID)
in_smoke = SmokeProbe(scene, obj, THRESHOLD)
say(f"frame {MID}: the density > {THRESHOLD} surface has {in_smoke.vertices} vertices")

inner = 0.2 - 2 * dx  # the 0.4 m cube less two voxels on each side
c = collider.matrix_world.translation.copy()
inside_pts = [collider.matrix_world @ Vector((i * inner / 0.2 * 0.5, j * inner / 0.2 * 0.5, k * inner / 0.2 * 0.5))
              for i in (-0.2, 0, 0.2) for j in (-0.2, 0, 0.2) for k in (-0.2, 0, 0.2)]
smoky = [tuple(round(v, 3) for v in p) for p in inside_pts if in_smoke(p)]
check(not smoky, f"no smoke inside the collider at frame {MID} ({len(inside_pts)} points)", f"smoke at {smoky[:3]}")
below = [Vector((c.x, c.y, DOMAIN_MIN.z + z)) for z in (0.45, 0.5)]
check(all(in_smoke(p) for p in below), "the control: the column under the collider is smoke",
      str([in_smoke(p) for p in below]))
in_smoke.remove()
gate("collider")

# --- A small Cycles frame shows the smoke ---------------------------------------
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 8
scene.cycles.use_denoising = False
scene.render.threads_mode = "FIXED"
scene.render.threads = 2
scene.render.image_settings.file_format = "PNG"
scene.view_settings.view_transform = "Standard"
world = bpy.data.worlds.new("World")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.05, 0.05, 0.06, 1.0)
scene.world = world


def render(path, hide):
    obj.hide_render = hide
    scene.render.filepath = path
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(path)
    px = list(img.pixels)
    bpy.data.images.remove(img)
    return [0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2] for i in range(0, len(px), 4)]


t = time.monotonic()
with_smoke = render(os.path.join(work, f"addon_{MID}.png"), False)
without = render(os.path.join(work, f"addon_{MID}_hidden.png"), True)
diff = [abs(a - b) for a, b in zip(with_smoke, without)]
frac = sum(1 for d in diff if d > 0.03) / len(diff)
say(f"Cycles {scene.render.resolution_x}x{scene.render.resolution_y}, {scene.cycles.samples} samples: "
    f"{time.monotonic() - t:.1f} s; {100 * frac:.1f}% of pixels differ by > 0.03, max {max(diff):.3f}")
check(frac > 0.05 and max(diff) > 0.15, "F12 in Cycles shows the smoke")

# --- Esc: plume stops cleanly on SIGINT, keeps its frames; Resume goes on -----
# The modal operator's Esc sends SIGINT through runner.Process; drive the same
# class here (a headless Blender has no events), at a resolution slow enough
# to stop mid-bake, into a folder of its own.
from plume_blender import export as plume_export, runner  # noqa: E402

stop_dir = os.path.join(work, "stopped")
domain.plume.cache_dir = stop_dir
domain.plume.resolution = 48
os.makedirs(stop_dir, exist_ok=True)
ex = plume_export.write_scene(bpy.context, os.path.join(stop_dir, "Domain.toml"))
proc = runner.Process([plume, "bake", ex.toml_path, "--vdb", stop_dir], FIRST, LAST)
while proc.running() and proc.done_frame is None:
    proc.poll_lines()
    time.sleep(0.01)
proc.cancel()
status = proc.finish()
kept = sorted(f for f in os.listdir(stop_dir) if f.endswith(".vdb"))
say(f"stopped after frame {proc.done_frame} with status {status}: {len(kept)} frames kept; "
    f"last line '{proc.lines[-1] if proc.lines else ''}'")
check(proc.cancelled and 1 <= len(kept) < LAST - FIRST + 1, "SIGINT stops plume mid-bake, its frames kept",
      f"{len(kept)} frames")
result = bpy.ops.plume.bake(resume=True)
kept = sorted(f for f in os.listdir(stop_dir) if f.endswith(".vdb"))
check(result == {"FINISHED"} and len(kept) == LAST - FIRST + 1, "Resume bakes the rest", f"{len(kept)} frames")
gate("stop and resume")

# --- Render with plume: plume's own MP4 beside the .blend ------------------------
cam_data.type = "PANO"
try:
    bpy.ops.plume.render()
    check(False, "Render with plume refuses a panoramic camera", "plume.render finished")
except RuntimeError as e:
    msg = str(e).strip()
    say(f"panoramic camera: {msg}")
    check("'Camera'" in msg and "panoramic" in msg and "\n" not in msg,
          "Render with plume refuses the panoramic camera in one line naming it")
cam_data.type = "ORTHO"
notes = plume_export.view_notes(scene, "render")  # raises for a camera plume cannot take
check(not any("'Camera'" in n for n in notes), "Render with plume takes the orthographic camera",
      str(notes))
cam_data.type = "PERSP"
result, lines = captured(lambda: bpy.ops.plume.render())
warned = warnings_of(lines)
check(any("plume: the render leaves out area light 'AreaLamp', spot light 'SpotLamp'" in w for w in warned),
      "Render with plume says in one line it leaves out the area and spot lights", str(warned))
video = os.path.join(work, "Domain.mp4")
probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                        "stream=nb_read_frames", "-of", "default=nw=1:nk=1", video], capture_output=True, text=True)
check(result == {"FINISHED"} and probe.stdout.strip() == str(LAST - FIRST + 1),
      "plume.render writes //Domain.mp4 of every frame", f"{result}, {probe.stdout.strip() or probe.stderr.strip()}")

gate("render")
say(f"PASS the add-on exports, bakes and imports plume's smoke ({time.monotonic() - t_start:.1f} s)")
