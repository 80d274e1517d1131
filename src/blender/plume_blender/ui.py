"""The plume panel in Physics properties, and the add-on's preferences."""
import bpy
from bpy.props import StringProperty

from . import properties, schema

SECTION_TITLES = {"domain": "Domain", "time": "Time", "physics": "Physics", "solver": "Solver",
                  "upres": "Detail (upres)", "render": "plume's render", "output": "Output",
                  "emitter": "Emitter", "obstacle": "Collider"}
# Sections drawn open; the others start folded behind a toggle.
OPEN = {"domain", "time", "physics", "emitter", "obstacle"}


class PlumePreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    binary: StringProperty(
        name="plume binary", subtype="FILE_PATH", default="plume",
        description="Path of the plume program (a bare name is looked up on PATH)")

    def draw(self, context):
        self.layout.prop(self, "binary")


class PHYSICS_PT_plume(bpy.types.Panel):
    bl_label = "plume"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"

    @classmethod
    def poll(cls, context):
        return context.object is not None

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        settings = context.object.plume
        layout.prop(settings, "role")
        role = settings.role
        if role == "NONE":
            return
        if role == "EMITTER":
            layout.prop(settings, "emitter_kind")
        wm = context.window_manager
        sections = schema.ROLE_SECTIONS[role]
        for section in sections:
            keys = [k for k in properties.shown_keys(role) if k.section == section]
            if not keys:
                continue
            box = layout.box()
            title = SECTION_TITLES.get(section, section)
            if section in OPEN:
                box.label(text=title)
            else:
                flag = f"plume_show_{section}"
                shown = getattr(wm, flag, False)
                box.prop(wm, flag, text=title, icon="TRIA_DOWN" if shown else "TRIA_RIGHT",
                         emboss=False)
                if not shown:
                    continue
            table = None
            for k in keys:
                if "." in k.key and k.key.split(".")[0] != table:
                    table = k.key.split(".")[0]
                    box.label(text=table.replace("_", " ").capitalize())
                box.prop(settings, k.prop)
        if role == "DOMAIN":
            layout.prop(settings, "cache_dir")
            row = layout.row(align=True)
            row.operator("plume.bake", text="Bake", icon="PHYSICS").resume = False
            row.operator("plume.bake", text="Resume").resume = True
            layout.operator("plume.render", text="Render with plume", icon="RENDER_ANIMATION")
            layout.operator("plume.export", text="Export scene…", icon="EXPORT")


def fold_flags():
    """Window-manager flags for the folded sections (UI state, not saved)."""
    return [f"plume_show_{s}" for s in schema.DOMAIN_SECTIONS if s not in OPEN]
