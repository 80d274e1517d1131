"""plume inside Blender: mark a domain, emitters and colliders in Physics
properties, bake with plume (a fast offline smoke and fire solver) and get the
smoke back as a Volume object; or render the shot with plume's own renderer."""

bl_info = {
    "name": "plume",
    "author": "plume",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "Properties > Physics > plume",
    "description": "Bake smoke and fire with plume and import the OpenVDB cache",
    "category": "Physics",
}

import bpy
from bpy.props import PointerProperty

from . import operators, preview, properties, sparks_import, ui

_classes = []


def register():
    settings = properties.make_settings_class()
    _classes[:] = [ui.PlumePreferences, settings, *operators.classes, *preview.classes,
                   ui.PHYSICS_PT_plume,
                   *ui.panel_classes()]
    for cls in _classes:
        bpy.utils.register_class(cls)
    bpy.types.Object.plume = PointerProperty(type=settings)
    sparks_import.register()


def unregister():
    preview.unregister()
    sparks_import.unregister()
    del bpy.types.Object.plume
    for cls in reversed(_classes):
        bpy.utils.unregister_class(cls)
    _classes.clear()
