"""obj.plume: an object's role for plume and the scene keys of that role,
made at register time from plume's schema (schema.py)."""
import math

import bpy
from bpy.props import (BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty,
                       IntProperty, IntVectorProperty, StringProperty)

from . import panel_keys, preview, schema

ROLES = [
    ("NONE", "None", "Not part of plume's simulation"),
    ("DOMAIN", "Domain", "Its bounding box is the simulation domain"),
    ("EMITTER", "Emitter", "Emits smoke, heat and fuel"),
    ("COLLIDER", "Collider", "A solid the smoke flows around (a closed mesh)"),
]

# A float field shows this many decimals, more for small defaults (tolerance 1e-4).
def _precision(default):
    if default and 0 < abs(default) < 0.01:
        return 6
    return 3


def _bounds(k, integer):
    """Blender's min/max from plume's range; an open bound moves inside it."""
    kw = {}
    step = 1 if integer else 1e-6
    if k.min is not None and math.isfinite(k.min):
        kw["min"] = k.min + (step if k.min_open else 0)
    if k.max is not None and math.isfinite(k.max):
        kw["max"] = k.max - (step if k.max_open else 0)
    if integer:
        kw = {n: int(v) for n, v in kw.items()}
    return kw


def make_property(k):
    """The bpy property for one schema key."""
    name = panel_keys.label(k)
    desc = f"{k.dotted}: {k.doc}"
    if k.type == "integer":
        return IntProperty(name=name, description=desc, default=int(k.default), **_bounds(k, True))
    if k.type == "float":
        return FloatProperty(name=name, description=desc, default=float(k.default),
                             precision=_precision(k.default), **_bounds(k, False))
    if k.type == "vec3":
        colour = k.key.endswith("color") or k.key.startswith("background") or k.key == "ambient"
        return FloatVectorProperty(name=name, description=desc, size=3,
                                   default=tuple(float(v) for v in k.default),
                                   subtype="COLOR" if colour else "XYZ", **_bounds(k, False))
    if k.type == "frame_range":
        return IntVectorProperty(name=name, description=desc, size=2,
                                 default=tuple(int(v) for v in k.default), **_bounds(k, True))
    if k.type == "boolean":
        return BoolProperty(name=name, description=desc, default=bool(k.default))
    if k.type == "choice":
        return EnumProperty(name=name, description=desc,
                            items=[(c, panel_keys.choice_label(c), "") for c in k.choices],
                            default=k.default)
    if k.type == "string":
        return StringProperty(name=name, description=desc, default=k.default or "")
    raise ValueError(f"plume add-on: no Blender property for {k.dotted} of type {k.type}")


def shown_keys(role):
    s = schema.load()
    for section in schema.ROLE_SECTIONS.get(role, ()):
        yield from s.shown(section)


def make_settings_class():
    annotations = {
        "role": EnumProperty(name="plume", items=ROLES, default="NONE",
                             description="What this object is in plume's simulation"),
        "cache_dir": StringProperty(
            name="Cache", subtype="DIR_PATH", default="",
            description="Folder for the scene file, meshes and VDB cache (empty: //plume_cache/ "
                        "beside the .blend)"),
        "emitter_kind": EnumProperty(
            name="Shape", default="MESH",
            items=[("MESH", "Mesh", "The object's mesh, with its modifiers (a mesh a frame when it "
                                    "deforms)"),
                   ("SPHERE", "Sphere", "A sphere of the object's size (radius: half its largest "
                                        "dimension)")],
            description="What plume emits from (an object with a particle system emits from "
                        "its particles)"),
        # The domain's preview (preview.py): not scene keys, never exported.
        "preview_resolution": IntProperty(
            name="Preview Resolution", default=32, min=4, max=512,
            description="Cells along the domain's longest side in a preview, at most (upres off)"),
        "live": BoolProperty(
            name="Live", default=False, update=lambda self, context: preview.live_update(self, context),
            description="Bake a preview again whenever a plume property, an object's transform or "
                        "keys, or the frame range changes (in the background)"),
        "preview_status": StringProperty(name="Preview", default="",
                                         description="What the last preview did"),
    }
    for role in ("DOMAIN", "EMITTER", "COLLIDER"):
        for k in shown_keys(role):
            if k.prop in annotations:
                raise ValueError(f"plume add-on: two keys map to obj.plume.{k.prop}")
            annotations[k.prop] = make_property(k)
    return type("PlumeObjectSettings", (bpy.types.PropertyGroup,), {"__annotations__": annotations})
