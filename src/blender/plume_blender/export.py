"""A Blender scene as a plume scene file: the domain, emitters and colliders
(rigid meshes in object space, OBJ, with their keyframes; meshes that deform
and emitters' particles as sequences a frame, sequences.py), the camera and
lights (none when Blender has none), the World as plume's background and sky
light, frames and fps. Anything plume cannot take is refused in one line
naming the object, before anything is written; what a run leaves out or
ignores is said in one line each (Exported.warnings)."""
import json
import math
import os
import re

import bmesh
import bpy
from mathutils import Euler, Vector

from . import force_fields, properties, schema, sequences


class ExportError(Exception):
    """One line for Blender's report: what is wrong and which object."""


class Exported:
    """What a bake or render needs to know about the written scene."""

    def __init__(self, domain, name, toml_path, first, last, fps, warnings):
        self.domain, self.name, self.toml_path = domain, name, toml_path
        self.first, self.last, self.fps = first, last, fps
        self.warnings = warnings  # one line each, for the operator's report
        self.notes = []  # what was written as sequences, one line each (Info)


def scene_name(domain):
    """plume's scene (and cache) name: the domain's name, in letters plume and file systems take."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", domain.name).strip("._") or "plume"


def find_domain(scene):
    domains = [o for o in scene.objects if o.plume.role == "DOMAIN"]
    if not domains:
        raise ExportError("plume: the scene has no domain (Physics properties > plume: "
                          "set an object's role to Domain)")
    if len(domains) > 1:
        raise ExportError("plume: the scene has " + str(len(domains)) + " domains ("
                          + ", ".join(f"'{o.name}'" for o in domains) + "); plume bakes one")
    return domains[0]


# --- Values as TOML ---------------------------------------------------------

def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ExportError(f"plume: a value is not finite ({v})")
        r = repr(round(v, 7))
        return r if ("." in r or "e" in r) else r + ".0"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "[" + ", ".join(fmt(x) for x in v) + "]"


def prop_value(settings, k):
    """The property's value as plume's key takes it."""
    v = getattr(settings, k.prop)
    if k.type in ("vec3",):
        return [float(x) for x in v]
    if k.type == "frame_range":
        return [int(x) for x in v]
    if k.type == "float":
        return float(v)
    return v


def same_as_default(k, v):
    d = k.default
    if d is None:
        return False
    if isinstance(v, list):
        return all(abs(a - b) <= 1e-6 * max(1.0, abs(b)) for a, b in zip(v, d))
    if isinstance(v, float):
        return abs(v - d) <= 1e-6 * max(1.0, abs(d))
    return v == d


def settings_lines(settings, role, section, skip_defaults=True):
    """`key = value` lines of a section's keys shown for this role."""
    lines = []
    for k in properties.shown_keys(role):
        if k.section != section:
            continue
        v = prop_value(settings, k)
        if skip_defaults and same_as_default(k, v) and k.key != "resolution":
            continue
        lines.append(f"{k.key} = {fmt(v)}")
    return lines


# --- Checks before anything is written --------------------------------------

def evaluated_mesh(obj, depsgraph):
    ev = obj.evaluated_get(depsgraph)
    return ev, ev.to_mesh()


def gives_smoke(obj):
    """Whether an emitter makes smoke of its own: it gives no fuel, or its
    density was set (src/scene/loader.cpp: a fuel emitter's density is 0
    unless given)."""
    p = obj.plume
    return p.emitter_fuel <= 0.0 or p.is_property_set("emitter_density")


def check_closed(obj, depsgraph, what):
    """A mesh plume takes as a solid or a volume emitter must be closed."""
    if obj.type != "MESH":
        raise ExportError(f"plume: {what} '{obj.name}' is a {obj.type.lower()}, not a mesh; "
                          "plume takes mesh objects")
    ev, me = evaluated_mesh(obj, depsgraph)
    try:
        bm = bmesh.new()
        bm.from_mesh(me)
        faces = len(bm.faces)
        bad = sum(1 for e in bm.edges if not e.is_manifold)
        bm.free()
    finally:
        ev.to_mesh_clear()
    if faces == 0:
        raise ExportError(f"plume: {what} '{obj.name}' has no faces; plume needs a closed surface")
    if bad:
        raise ExportError(f"plume: {what} '{obj.name}' is not a closed mesh ({bad} non-manifold "
                          "or open edges); plume needs a closed surface to tell its inside")


LIGHT_TYPES = {"SUN": "directional", "POINT": "point"}


def an(word):
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def check_scene(scene, depsgraph):
    """The domain; refuses what no run can take (the objects of the simulation)."""
    domain = find_domain(scene)
    if domain.type != "MESH":
        raise ExportError(f"plume: domain '{domain.name}' is a {domain.type.lower()}, not a mesh")
    if not any(o.plume.role == "EMITTER" for o in scene.objects):
        raise ExportError("plume: no emitter: set an object's plume role to Emitter (Physics "
                          "properties > plume); the domain would stay empty")
    for obj in scene.objects:
        role = obj.plume.role
        if role == "COLLIDER":
            check_closed(obj, depsgraph, "collider")
        elif role == "EMITTER" and obj.plume.emitter_kind == "MESH" \
                and not (obj.type == "MESH" and sequences.emitting_systems(obj)):
            if obj.plume.emitter_mode == "volume":
                check_closed(obj, depsgraph, "emitter")
            elif obj.type != "MESH":
                raise ExportError(f"plume: emitter '{obj.name}' is a {obj.type.lower()}, not a "
                                  "mesh; plume takes mesh objects (or set its shape to Sphere)")
    domain_box(domain)
    return domain


def domain_box(domain):
    """The world bounding box of the domain object (lo, size); a flat one is refused."""
    corners = [domain.matrix_world @ Vector(c) for c in domain.bound_box]
    lo = Vector([min(c[i] for c in corners) for i in range(3)])
    hi = Vector([max(c[i] for c in corners) for i in range(3)])
    size = hi - lo
    if min(size) <= 0:
        raise ExportError(f"plume: domain '{domain.name}' is flat ({size.x:.3g} x {size.y:.3g} x "
                          f"{size.z:.3g} m); its bounding box is the domain")
    return lo, size


# --- What the file leaves out -------------------------------------------------
# A bake uses neither the camera nor the lights: what plume's renderer cannot
# take is left out of the file (a comment says so), and only "Render with
# plume" and Export say it, or refuse it.

def left_out_lights(scene):
    """Visible lights plume's renderer has no kind for (area, spot)."""
    return sorted((o for o in scene.objects if o.type == "LIGHT" and not o.hide_render
                   and o.data.type not in LIGHT_TYPES), key=lambda o: o.name)


def left_out_camera(scene):
    """The scene's camera when plume's (perspective or orthographic) cannot stand for it."""
    cam = scene.camera
    if cam is not None and (cam.type != "CAMERA" or cam.data.type not in ("PERSP", "ORTHO")):
        return cam
    return None


def camera_kind(cam):
    if cam.type != "CAMERA":
        return f"{an(cam.type.lower())} object"
    return {"ORTHO": "orthographic", "PANO": "panoramic"}.get(cam.data.type, cam.data.type.lower())


def view_notes(scene, purpose):
    """Warnings for what the file leaves out of the view; raises ExportError
    where a render without it would be another picture (the camera)."""
    notes = []
    cam = left_out_camera(scene)
    if cam is not None and purpose == "render":
        raise ExportError(f"plume: camera '{cam.name}' is {camera_kind(cam)}; plume renders through "
                          "a perspective or orthographic camera (set its type to one of them; "
                          "Bake does not need it)")
    if cam is not None and purpose == "export":
        notes.append(f"plume: the scene file leaves out camera '{cam.name}' ({camera_kind(cam)}; "
                     "plume's camera is perspective or orthographic): plume frames the domain "
                     "by itself")
    lights = left_out_lights(scene)
    if lights and purpose in ("render", "export"):
        what = "the render" if purpose == "render" else "the scene file"
        names = ", ".join(f"{o.data.type.lower()} light '{o.name}'" for o in lights)
        notes.append(f"plume: {what} leaves out {names} (plume's lights are sun and point)")
    return notes


# --- The World: plume's background and sky light -----------------------------
# Blender's World is the background the camera sees and the light from all
# around: radiance colour x strength (a World strength of 0 is black; a scene
# without a World renders black). plume's render.background is what the camera
# sees, render.ambient the sky's light on the smoke: both that radiance.

def world_output(world):
    """The World's active output node (Cycles' or All), or None."""
    outs = [n for n in world.node_tree.nodes if n.bl_idname == "ShaderNodeOutputWorld"]
    active = [n for n in outs if n.is_active_output and n.target in ("ALL", "CYCLES")]
    return (active or outs or [None])[0]


def world_look(scene):
    """({"background", "ambient"} in linear RGB, None), or (None, why) when
    the World is more than one colour (a texture, a sky, mixed shaders):
    then plume keeps its own sky and the render says so."""
    world = scene.world
    if world is None:
        radiance = [0.0, 0.0, 0.0]
    elif not world.use_nodes or world.node_tree is None:
        radiance = [float(c) for c in world.color]
    else:
        out = world_output(world)
        surface = out.inputs["Surface"] if out is not None else None
        if surface is None or not surface.is_linked:
            radiance = [0.0, 0.0, 0.0]  # Cycles draws a World with nothing to show black
        else:
            node = surface.links[0].from_node
            if node.bl_idname != "ShaderNodeBackground":
                return None, f"its {node.name} node ({node.bl_idname[len('ShaderNode'):]})"
            color, strength = node.inputs["Color"], node.inputs["Strength"]
            if strength.is_linked:
                return None, f"its Background's Strength from its {strength.links[0].from_node.name} node"
            if color.is_linked:
                env, why = environment_of(color.links[0].from_node)
                if env is None:
                    return None, why
                env["intensity"] = float(strength.default_value)
                env["visible"] = world_seen(world)
                return {"environment": env}, None
            radiance = [float(c) * float(strength.default_value) for c in color.default_value[:3]]
    seen = world_seen(world)
    return {"background": radiance if seen else [0.0, 0.0, 0.0], "ambient": radiance}, None


def world_seen(world):
    """Whether the camera sees the World (Ray Visibility's Camera)."""
    return world is None or getattr(world, "cycles_visibility", None) is None \
        or world.cycles_visibility.camera


def environment_of(node):
    """A Background's colour from an Environment Texture (equirectangular, an
    image file, its Vector from nothing or from a Mapping node of a Z rotation
    alone) as plume's [environment]: ({"file", "rotation"}, None), or (None, why)."""
    name = f"its {node.name} node ({node.bl_idname[len('ShaderNode'):]})"
    if node.bl_idname != "ShaderNodeTexEnvironment":
        return None, name
    if node.projection != "EQUIRECTANGULAR":
        return None, f"{name}: its {node.projection.lower()} projection (plume reads lat-long maps)"
    image = node.image
    if image is None or image.source != "FILE" or not image.filepath:
        return None, f"{name}: no image file"
    path = bpy.path.abspath(image.filepath, library=image.library)
    rotation = 0.0
    vector = node.inputs["Vector"]
    if vector.is_linked:
        mapping = vector.links[0].from_node
        if mapping.bl_idname != "ShaderNodeMapping" or mapping.vector_type != "POINT" or any(
                i.is_linked for i in mapping.inputs if i.name != "Vector"):
            return None, f"{name}: its Vector from the {mapping.name} node"
        loc, rot, scale = (mapping.inputs[k].default_value for k in ("Location", "Rotation", "Scale"))
        if any(abs(v) > 1e-6 for v in (*loc, rot[0], rot[1])) or any(abs(v - 1.0) > 1e-6 for v in scale) \
                or (mapping.inputs["Vector"].is_linked and mapping.inputs["Vector"].links[0].from_node.bl_idname
                    != "ShaderNodeTexCoord"):
            return None, f"{name}: its {mapping.name} node does more than turn about Z"
        rotation = math.degrees(rot[2])
    return {"file": os.path.abspath(path), "rotation": rotation}, None


def world_notes(scene, purpose):
    """What the render takes of the World, when not all of it."""
    if purpose not in ("render", "export"):
        return []
    look, why = world_look(scene)
    what = "the render" if purpose == "render" else "the scene file"
    if look is None:
        return [f"plume: {what} leaves out World '{scene.world.name}': {why}; plume's sky is one "
                "colour (render.background, render.ambient) or an Environment Texture ([environment]), so its "
                "own default sky stands in"]
    return []


def light_objects(scene):
    """The lights written as [[light]]: visible suns and points, by name."""
    return sorted((o for o in scene.objects if o.type == "LIGHT" and not o.hide_render
                   and o.data.type in LIGHT_TYPES), key=lambda o: o.name)


# --- Meshes -----------------------------------------------------------------

def write_obj(obj, depsgraph, path):
    """The evaluated mesh (modifiers applied) in object space, as triangles."""
    ev, me = evaluated_mesh(obj, depsgraph)
    try:
        me.calc_loop_triangles()
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"# {obj.name}, object space, written by plume's Blender add-on\n")
            for v in me.vertices:
                f.write("v %.7g %.7g %.7g\n" % tuple(v.co))
            for t in me.loop_triangles:
                a, b, c = t.vertices
                f.write(f"f {a + 1} {b + 1} {c + 1}\n")
    finally:
        ev.to_mesh_clear()


# --- Animation --------------------------------------------------------------

TRANSFORM_PATHS = ("location", "rotation_euler", "scale", "delta_location",
                   "delta_rotation_euler", "delta_scale", "rotation_quaternion",
                   "rotation_axis_angle")


def fcurves(id_data):
    ad = getattr(id_data, "animation_data", None)
    if ad is None or ad.action is None:
        return []
    return list(ad.action.fcurves)


def has_drivers(id_data):
    ad = getattr(id_data, "animation_data", None)
    return ad is not None and len(ad.drivers) > 0


def moves_by_itself(obj):
    """True when the object's world transform may change with time other than
    through its own F-curves: a parent, constraints, drivers."""
    if obj.constraints and any(c.enabled if hasattr(c, "enabled") else not c.mute
                               for c in obj.constraints):
        return True
    if has_drivers(obj):
        return True
    p = obj.parent
    while p is not None:
        if fcurves(p) or p.constraints or has_drivers(p) or p.parent is not None:
            return True
        p = p.parent
    return False


def key_plan(obj, scene, extra_paths=(), data=None):
    """(frames, interpolation) for an object's keys: the frames its F-curves
    have keys at (linear keys: linear; Bezier: plume's smooth cubic), or every
    frame of the range when it moves otherwise or its keys mix kinds; ([], _)
    when nothing is animated."""
    first, last = scene.frame_start, scene.frame_end
    curves = [c for c in fcurves(obj)
              if c.data_path in TRANSFORM_PATHS or c.data_path in extra_paths]
    if data is not None:
        curves += fcurves(data)
    if moves_by_itself(obj) or (data is not None and has_drivers(data)):
        return list(range(first, last + 1)), "linear"
    if not curves:
        return [], "linear"
    kinds = {k.interpolation for c in curves for k in c.keyframe_points}
    frames = sorted({round(k.co.x, 4) for c in curves for k in c.keyframe_points})
    has_modifiers = any(len(c.modifiers) for c in curves)
    if kinds <= {"LINEAR"} and not has_modifiers and frames[0] >= 0:
        return frames, "linear"
    if kinds <= {"BEZIER"} and not has_modifiers and frames[0] >= 0:
        return frames, "smooth"
    return list(range(first, last + 1)), "linear"


def set_frame(scene, f):
    whole = math.floor(f)
    scene.frame_set(int(whole), subframe=float(f - whole))


def placement(obj, previous=None):
    """World center, XYZ Euler rotation in degrees and scale of an object."""
    loc, rot, scale = obj.matrix_world.decompose()
    if obj.parent is None and obj.rotation_mode == "XYZ" and not obj.constraints:
        # The F-curves' own angles, whole turns and all (a matrix keeps none).
        e = Euler(obj.rotation_euler[:], "XYZ")
        d = obj.delta_rotation_euler
        e = Euler((e.x + d.x, e.y + d.y, e.z + d.z), "XYZ")
    else:
        e = rot.to_euler("XYZ", previous) if previous is not None else rot.to_euler("XYZ")
    return list(loc), e, list(scale)


def degrees(e):
    return [math.degrees(a) for a in e]


# --- Camera and lights ------------------------------------------------------

def frame_size(scene):
    """plume's frame (width, height) in pixels: Blender's output size, even."""
    pct = scene.render.resolution_percentage / 100.0
    even = lambda n: max(16, int(round(n * pct / 2.0)) * 2)
    return even(scene.render.resolution_x), even(scene.render.resolution_y)


def camera_values(cam, scene):
    m = cam.matrix_world
    pos = m.translation
    forward = (m.to_3x3() @ Vector((0, 0, -1))).normalized()
    up = (m.to_3x3() @ Vector((0, 1, 0))).normalized()
    d = cam.data
    w = scene.render.resolution_x * scene.render.pixel_aspect_x
    h = scene.render.resolution_y * scene.render.pixel_aspect_y
    fit = d.sensor_fit
    if d.type == "ORTHO":
        # Blender's Orthographic Scale spans the larger side (fit Auto), the
        # width (Horizontal) or the height (Vertical); plume's ortho_width the width.
        spans_width = fit == "HORIZONTAL" or (fit == "AUTO" and w >= h)
        width = d.ortho_scale if spans_width else d.ortho_scale * w / h
        return {"type": "orthographic", "position": list(pos), "look_at": list(pos + forward),
                "up": list(up), "ortho_width": float(width)}
    # plume's sensor width spans the image's larger side (Blender's fit Auto).
    if fit == "AUTO":
        sensor = d.sensor_width
    elif fit == "HORIZONTAL":
        sensor = d.sensor_width * (max(w, h) / w)
    else:
        sensor = d.sensor_height * (max(w, h) / h)
    return {"position": list(pos), "look_at": list(pos + forward), "up": list(up),
            "focal_length": float(d.lens), "sensor_width": float(sensor)}


def light_values(obj):
    d = obj.data
    if d.type == "SUN":
        direction = (obj.matrix_world.to_3x3() @ Vector((0, 0, -1))).normalized()
        # A sun's strength is irradiance in W/m^2, as plume's intensity.
        return {"direction": list(direction), "color": list(d.color), "intensity": float(d.energy)}
    # A point light of P watts sends P / (4 pi) per steradian; plume's point
    # intensity is irradiance at one metre (render/light/in_scattering.h: intensity / d^2).
    return {"position": list(obj.matrix_world.translation), "color": list(d.color),
            "intensity": float(d.energy) / (4.0 * math.pi)}


# --- The scene file ---------------------------------------------------------

class Writer:
    def __init__(self):
        self.lines = []

    def table(self, header, values):
        self.lines.append("")
        self.lines.append(header)
        for k, v in values.items():
            self.lines.append(f"{k} = {fmt(v)}")

    def raw(self, header, lines):
        self.lines.append("")
        self.lines.append(header)
        self.lines.extend(lines)

    def text(self):
        return "\n".join(self.lines).lstrip("\n") + "\n"


def animated_props(obj, role):
    """Schema keys of the role whose obj.plume property has an F-curve."""
    paths = {c.data_path for c in fcurves(obj)}
    return [k for k in properties.shown_keys(role) if k.animatable and f"plume.{k.prop}" in paths]


def element_keys(obj, scene, role, frames, static):
    """[[...key]] tables' values, one dict per frame, for the shape's placement
    and its animated plume properties."""
    keys, prev = [], None
    props = animated_props(obj, role)
    for f in frames:
        set_frame(scene, f)
        center, rot, scale = placement(obj, prev)
        prev = rot
        v = {"frame": float(f) if f != int(f) else int(f), "center": center,
             "rotation": degrees(rot), "scale": scale}
        for k in props:
            v[k.key] = prop_value(obj.plume, k)
        keys.append(v)
    return keys


def element_settings(obj, role, section):
    values = settings_lines(obj.plume, role, section, skip_defaults=False)
    if role == "EMITTER" and not gives_smoke(obj):
        # As on the command line: a fuel emitter makes no smoke of its
        # own unless its density is set; its smoke is the fire's soot.
        values = [v for v in values if not v.startswith("density =")]
    if role == "EMITTER" and not has_colour(obj):
        # A colour given to no emitter leaves the smoke render.albedo's
        # grey, and the cache without a color grid, as before colours.
        values = [v for v in values if not v.startswith("color =")]
    return values


def has_colour(obj):
    """Whether the user gave the emitter a smoke colour (set or keyed)."""
    p = obj.plume
    return hasattr(p, "emitter_color") and (
        p.is_property_set("emitter_color")
        or any(c.data_path == "plume.emitter_color" for c in fcurves(obj)))


def sequence_lines(obj, scene, role, section, seq):
    """A sequence's shape and file, in world space: the files hold the
    object's motion, so a mesh sits at the origin, unrotated, unscaled, with
    no keys of its placement (points have none: plume refuses one)."""
    lines = [f"# {'its particles' if seq.shape == 'points' else 'its evaluated mesh'}, "
             "one file a frame, world space",
             f'shape = "{seq.shape}"', f"file = {fmt(seq.file)}"]
    if seq.shape == "points":
        lines.append(f"radius = {fmt(seq.radius)}")  # for a point without a radius
    else:
        lines += [f"center = {fmt([0.0, 0.0, 0.0])}", f"rotation = {fmt([0.0, 0.0, 0.0])}",
                  f"scale = {fmt([1.0, 1.0, 1.0])}"]
    frames, interp = prop_key_plan(obj, scene, role)
    if frames:
        lines.append(f"interpolation = {fmt(interp)}")
    return lines + element_settings(obj, role, section)


def sequence_notes(seqs):
    notes = []
    for name in sorted(seqs):
        seq = seqs[name]
        if seq.shape == "points":
            notes.append(f"plume: emitter '{name}' emits from its particles: written as points a "
                         f"frame ({seq.file})")
        else:
            what = "collider" if seq.obj.plume.role == "COLLIDER" else "emitter"
            notes.append(f"plume: {what} '{name}' changes shape: written as a mesh a frame "
                         f"({seq.file})")
    return notes


def prop_key_plan(obj, scene, role, section=None):
    """(frames, interpolation) of the object's keyed plume properties alone
    (of one section, when given), as key_plan makes them for a placement."""
    props = {f"plume.{k.prop}" for k in animated_props(obj, role)
             if section is None or k.section == section}
    curves = [c for c in fcurves(obj) if c.data_path in props]
    if not curves:
        return [], "linear"
    kinds = {k.interpolation for c in curves for k in c.keyframe_points}
    frames = sorted({round(k.co.x, 4) for c in curves for k in c.keyframe_points})
    if any(len(c.modifiers) for c in curves) or frames[0] < 0 or not (
            kinds <= {"LINEAR"} or kinds <= {"BEZIER"}):
        return list(range(scene.frame_start, scene.frame_end + 1)), "linear"
    return frames, ("smooth" if kinds <= {"BEZIER"} else "linear")


def prop_keys(obj, scene, role, section=None):
    """A sequence's keys (or the domain's [[physics.key]]): its animated plume
    properties (of one section, when given), at their keys."""
    frames, _ = prop_key_plan(obj, scene, role, section)
    props = [k for k in animated_props(obj, role) if section is None or k.section == section]
    keys = []
    for f in frames:
        set_frame(scene, f)
        v = {"frame": float(f) if f != int(f) else int(f)}
        for k in props:
            v[k.key] = prop_value(obj.plume, k)
        keys.append(v)
    return keys


def field_lines(values):
    """`key = value` lines of a [[field]], its falloff as an inline table."""
    lines = []
    for k, v in values.items():
        if isinstance(v, dict):
            v = "{ " + ", ".join(f"{n} = {fmt(x)}" for n, x in v.items()) + " }"
            lines.append(f"{k} = {v}")
        else:
            lines.append(f"{k} = {fmt(v)}")
    return lines


def write_scene(context, toml_path, purpose="export"):
    """Writes the scene file and its meshes for a "bake", a "render" or an
    "export"; returns Exported. Raises ExportError, with nothing written, for
    anything plume cannot take for that purpose."""
    scene = context.scene
    depsgraph = context.evaluated_depsgraph_get()
    frame_now, subframe_now = scene.frame_current, scene.frame_subframe
    first, last = scene.frame_start, scene.frame_end
    if first < 0:
        raise ExportError(f"plume: the scene starts at frame {first}; plume's frames start at 0 or later")
    set_frame(scene, first)
    depsgraph = context.evaluated_depsgraph_get()
    domain = check_scene(scene, depsgraph)
    warnings = view_notes(scene, purpose) + world_notes(scene, purpose) + force_fields.left_out(scene)
    name = os.path.splitext(os.path.basename(toml_path))[0]
    out_dir = os.path.dirname(os.path.abspath(toml_path))
    mesh_dir_name = f"{name}_meshes"
    mesh_dir = os.path.join(out_dir, mesh_dir_name)
    try:
        # The sequences first, from the first frame on: particle and cloth
        # caches simulate forward, before anything else moves the frame.
        seqs = sequences.write_all(context, scene, elements_of(scene), mesh_dir, mesh_dir_name,
                                   first, last, set_frame)
        set_frame(scene, first)
        depsgraph = context.evaluated_depsgraph_get()
        ex = _write(context, scene, depsgraph, domain, name, toml_path, out_dir,
                    mesh_dir, mesh_dir_name, first, last, seqs)
        ex.warnings = warnings
        ex.notes = sequence_notes(seqs)
        return ex
    finally:
        scene.frame_set(frame_now, subframe=subframe_now)


def elements_of(scene):
    """Emitters and colliders, in the scene's order of names (stable files)."""
    return sorted((o for o in scene.objects if o.plume.role in ("EMITTER", "COLLIDER")),
                  key=lambda o: o.name)


def _write(context, scene, depsgraph, domain, name, toml_path, out_dir, mesh_dir, mesh_dir_name,
           first, last, seqs):
    fps = scene.render.fps / scene.render.fps_base
    w = Writer()
    w.lines.append(f"# plume scene written by plume's Blender add-on from '{bpy.data.filepath or 'unsaved'}'")
    ds = domain.plume

    # Domain: the world bounding box of the domain object at the first frame.
    lo, size = domain_box(domain)
    lines = [f"origin = {fmt(list(lo))}", f"size = {fmt(list(size))}"]
    lines += settings_lines(ds, "DOMAIN", "domain")
    w.raw("[domain]", lines)
    w.raw("[time]", [f"fps = {fmt(float(fps))}", f"frames = {last - first + 1}",
                     f"start_frame = {first}"] + settings_lines(ds, "DOMAIN", "time"))
    for section in ("physics", "solver", "upres", "shaping", "sparks"):
        lines = settings_lines(ds, "DOMAIN", section)
        # Keyed domain properties of [physics] (wind, time scale): [[physics.key]].
        keys = prop_keys(domain, scene, "DOMAIN", "physics") if section == "physics" else []
        set_frame(scene, first)
        if keys:
            _, interp = prop_key_plan(domain, scene, "DOMAIN", "physics")
            lines.append(f"interpolation = {fmt(interp)}")
        if lines:
            w.raw(f"[{section}]", lines)
        for key in keys:
            w.table("[[physics.key]]", key)
    width, height = frame_size(scene)
    look, _ = world_look(scene)
    sky = []
    if look is not None and "environment" not in look:
        what = (f"Blender World '{scene.world.name}': its colour x strength" if scene.world is not None
                else "no Blender World: black, as Blender renders it")
        sky = [f"# the background and the sky light: {what}",
               f"background = {fmt(look['background'])}", f"ambient = {fmt(look['ambient'])}"]
    w.raw("[render]", [f"width = {width}", f"height = {height}"]
          + sky + settings_lines(ds, "DOMAIN", "render"))
    if look is not None and "environment" in look:
        env = look["environment"]
        w.raw("[environment]", [f"# Blender World '{scene.world.name}': its Environment Texture",
                                f"file = {json.dumps(env['file'])}", f"rotation = {fmt(env['rotation'])}",
                                f"intensity = {fmt(env['intensity'])}",
                                f"visible = {'true' if env['visible'] else 'false'}"])
    lines = settings_lines(ds, "DOMAIN", "output")
    if lines:
        w.raw("[output]", lines)

    elements = elements_of(scene)
    os.makedirs(out_dir, exist_ok=True)
    if any((o.plume.role == "COLLIDER" or o.plume.emitter_kind == "MESH") and o.name not in seqs
           for o in elements):
        os.makedirs(mesh_dir, exist_ok=True)
    set_frame(scene, first)
    for obj in elements:
        role = obj.plume.role
        section = "emitter" if role == "EMITTER" else "obstacle"
        lines = [f"# Blender object '{obj.name}'"]
        seq = seqs.get(obj.name)
        if seq is not None:
            lines += sequence_lines(obj, scene, role, section, seq)
            w.raw(f"[[{section}]]", lines)
            for key in prop_keys(obj, scene, role):
                w.table(f"[[{section}.key]]", key)
            set_frame(scene, first)
            continue
        if role == "EMITTER" and obj.plume.emitter_kind == "SPHERE":
            # The sphere's radius in object space: half the largest side of its local box.
            box = [Vector(c) for c in obj.bound_box]
            ext = [max(c[i] for c in box) - min(c[i] for c in box) for i in range(3)]
            radius = max(ext) / 2 if max(ext) > 0 else 1.0
            lines += ['shape = "sphere"', f"radius = {fmt(radius)}"]
        else:
            fname = re.sub(r"[^A-Za-z0-9_.-]+", "_", obj.name) + ".obj"
            write_obj(obj, depsgraph, os.path.join(mesh_dir, fname))
            lines += ['shape = "mesh"', f"file = {fmt(mesh_dir_name + '/' + fname)}"]
        frames, interp = key_plan(obj, scene,
                                  extra_paths=tuple(f"plume.{k.prop}" for k in properties.shown_keys(role)))
        set_frame(scene, first)
        center, rot, scale = placement(obj)
        lines += [f"center = {fmt(center)}", f"rotation = {fmt(degrees(rot))}",
                  f"scale = {fmt(scale)}"]
        if frames:
            lines.append(f"interpolation = {fmt(interp)}")
        lines += element_settings(obj, role, section)
        w.raw(f"[[{section}]]", lines)
        for key in element_keys(obj, scene, role, frames, static=False):
            w.table(f"[[{section}.key]]", key)
        set_frame(scene, first)

    # Force fields: Blender's, with Mantaflow's scaling (force_fields.py).
    for obj in force_fields.field_objects(scene):
        frames, interp = key_plan(obj, scene, extra_paths=force_fields.FIELD_PATHS)
        set_frame(scene, first)
        w.raw("[[field]]", [f"# Blender {obj.field.type.lower()} field '{obj.name}'"]
              + field_lines(force_fields.field_values(obj, fps))
              + ([f"interpolation = {fmt(interp)}"] if frames else []))
        for f in frames:
            set_frame(scene, f)
            v = {"frame": float(f) if f != int(f) else int(f)}
            now = force_fields.field_values(obj, fps)
            v.update({k: now[k] for k in force_fields.KEYED if k in now})
            w.table("[[field.key]]", v)
        set_frame(scene, first)
    for line in force_fields.left_out(scene):
        w.lines += ["", "# " + line]

    # Camera.
    cam = scene.camera
    if cam is not None and left_out_camera(scene) is not None:
        w.lines += ["", f"# Blender camera '{cam.name}' left out: {camera_kind(cam)} "
                        "(plume's is perspective or orthographic)"]
        cam = None
    if cam is not None:
        w.table("[camera]", camera_values(cam, scene))
        frames, interp = key_plan(cam, scene, data=cam.data)
        if frames:
            w.lines.append(f"interpolation = {fmt(interp)}")
            for f in frames:
                set_frame(scene, f)
                v = {"frame": float(f) if f != int(f) else int(f)}
                v.update(camera_values(cam, scene))
                v.pop("sensor_width", None)  # not animatable in plume
                v.pop("type", None)
                w.table("[[camera.key]]", v)
            set_frame(scene, first)

    # Lights: sun -> directional, point -> point; the others left out.
    for obj in left_out_lights(scene):
        w.lines += ["", f"# Blender {obj.data.type.lower()} light '{obj.name}' left out (plume's lights are "
                        "sun and point)"]
    if not light_objects(scene):
        # Before any table, where a top-level key must be: without it plume
        # would add its default key light to a scene Blender lights by its World alone.
        w.lines[1:1] = ["# no sun or point light in the Blender scene: none in plume either",
                        "light = []"]
    for obj in light_objects(scene):
        vals = {"type": LIGHT_TYPES[obj.data.type]}
        vals.update(light_values(obj))
        w.table("[[light]]", vals)
        w.lines.insert(len(w.lines) - len(vals), f"# Blender light '{obj.name}'")
        frames, interp = key_plan(obj, scene, data=obj.data)
        if frames:
            w.lines.append(f"interpolation = {fmt(interp)}")
            for f in frames:
                set_frame(scene, f)
                v = {"frame": float(f) if f != int(f) else int(f)}
                v.update(light_values(obj))
                w.table("[[light.key]]", v)
            set_frame(scene, first)

    tmp = toml_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(w.text())
    os.replace(tmp, toml_path)
    return Exported(domain, name, toml_path, first, last, fps, [])
