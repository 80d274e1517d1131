"""Blender's force fields as plume's [[field]] tables: Wind, Force (attract),
Vortex, Turbulence, Drag and Curve Guide, on any object, with their falloff
and their keys.

Strengths take Mantaflow's own scaling, so a scene set up for Mantaflow moves
the same way: Blender's fluid.cc (update_effectors_task_cb) scales an
effector's force by 0.2 and Mantaflow adds it once a frame, so a field of
strength S changes the velocity by 0.2 S a frame, an acceleration of
0.2 S fps m/s^2 (wind, force, turbulence; Force pushes away for S > 0, plume's
attract pulls, so its sign turns), and only in cells that hold smoke
(smoke_only: a wind of S = 1 at 24 fps then moves a puff of smoke in still air
0.130 m/s a frame in Mantaflow, 0.141 in plume; on all the air, 0.2). A vortex's 0.2 S fps is an angular
acceleration (rad/s^2) where plume's vortex has a target angular speed w
reached at |w| per second: the same start, |w| w = 0.2 S fps. A drag's linear
coefficient L slows by 0.2 L a frame: 0.2 L fps per second."""
import math

from mathutils import Vector, geometry

# Blender's field type -> plume's.
TYPES = {"WIND": "wind", "FORCE": "attract", "VORTEX": "vortex", "TURBULENCE": "turbulence",
         "DRAG": "drag", "GUIDE": "curve"}
SHAPES = {"SPHERE": "sphere", "TUBE": "tube", "CONE": "cone"}
# What Mantaflow adds of a field's force a frame (fluid.cc).
MANTAFLOW_SCALE = 0.2
# The Blender properties whose F-curves are a field's keys, beside its transform.
FIELD_PATHS = ("field.strength", "field.linear_drag", "field.size")


def field_objects(scene):
    """Objects with a force field plume takes, in the order of their names."""
    return sorted((o for o in scene.objects
                   if o.field is not None and o.field.type in TYPES
                   and (o.field.type != "GUIDE" or o.type == "CURVE")),
                  key=lambda o: o.name)


def left_out(scene):
    """Fields plume has no counterpart for (Magnetic, Harmonic, Charge, ...), one line each."""
    return [f"plume leaves out {o.field.type.lower()} field '{o.name}' (plume's fields are wind, "
            "force, vortex, turbulence, drag and curve guide)"
            for o in sorted(scene.objects, key=lambda o: o.name)
            if o.field is not None and o.field.type not in set(TYPES) | {"NONE"}]


def curve_points(obj):
    """A curve object's first spline as world points, Bezier segments sampled
    at the curve's own resolution."""
    m = obj.matrix_world
    spline = obj.data.splines[0]
    if spline.type == "BEZIER":
        bp = spline.bezier_points
        n = max(2, spline.resolution_u)
        pts = []
        pairs = list(zip(bp[:-1], bp[1:]))
        if spline.use_cyclic_u and len(bp) > 1:
            pairs.append((bp[-1], bp[0]))
        for a, b in pairs:
            seg = geometry.interpolate_bezier(a.co, a.handle_right, b.handle_left, b.co, n + 1)
            pts += seg if not pts else seg[1:]
        if not pts:
            pts = [bp[0].co]
    else:
        pts = [Vector(p.co[:3]) for p in spline.points]
    return [list(m @ Vector(p)) for p in pts]


def field_values(obj, fps):
    """The [[field]] keys of one field object as it is at the current frame."""
    fd = obj.field
    kind = TYPES[fd.type]
    m = obj.matrix_world
    z = (m.to_3x3() @ Vector((0, 0, 1))).normalized()
    per_second = MANTAFLOW_SCALE * fps
    v = {"type": kind}
    if kind in ("wind", "turbulence", "curve"):
        v["strength"] = float(fd.strength) * per_second
    elif kind == "attract":
        v["strength"] = -float(fd.strength) * per_second
    elif kind == "vortex":
        a = float(fd.strength) * per_second
        v["strength"] = math.copysign(math.sqrt(abs(a)), a)
    else:  # drag
        v["strength"] = float(fd.linear_drag) * per_second
    v["center"] = list(m.translation)
    if kind == "wind":
        v["direction"] = list(z)
    else:
        v["axis"] = list(z)
    falloff = {"power": float(fd.falloff_power),
               "min": float(fd.distance_min) if fd.use_min_distance else 0.0,
               "max": float(fd.distance_max) if fd.use_max_distance else 0.0}
    if kind == "curve":
        v["points"] = curve_points(obj)
        # Blender's guide acts fully within guide_minimum and fades beyond.
        falloff["min"] = float(fd.guide_minimum)
        v["radius"] = falloff["max"] if falloff["max"] > 0 else max(2.0 * falloff["min"], 0.5)
    else:
        v["shape"] = SHAPES.get(fd.falloff_type, "sphere")
    if kind == "turbulence":
        v["size"] = max(float(fd.size), 1e-3)
        v["seed"] = int(fd.seed)
    # The falloff's keys as a sub-table: falloff.max after min, or 0 for no limit.
    if falloff["max"] > 0 and falloff["max"] <= falloff["min"]:
        falloff["max"] = 0.0
    v["falloff"] = falloff
    # Mantaflow applies a field only in cells holding smoke or fuel.
    v["smoke_only"] = True
    return v


# Keys a [[field.key]] table may set (plume's animatable field keys).
KEYED = ("strength", "center", "direction", "axis", "size", "radius")
