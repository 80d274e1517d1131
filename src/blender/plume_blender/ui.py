"""The plume panel in Physics properties, its domain sub-panels (laid out in
panel_keys.py), and the add-on's preferences."""
import bpy
from bpy.props import StringProperty

from . import force_fields, panel_keys, schema, sequences


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
        layout.prop(settings, "role", text="Type")
        role = settings.role
        obj = context.object
        if obj in force_fields.field_objects(context.scene):
            # Blender's own Force Field panel sets it; plume says what it becomes.
            fps = context.scene.render.fps / context.scene.render.fps_base
            v = force_fields.field_values(obj, fps)
            unit = {"vortex": "rad/s", "drag": "1/s"}.get(v["type"], "m/s²")
            layout.label(text=f"Force field: exported as plume's {v['type']}, strength "
                              f"{v['strength']:.3g} {unit} (Mantaflow's 0.2 x strength x fps)",
                         icon="FORCE_" + ("WIND" if v["type"] == "wind" else "FORCE"))
        particles = role == "EMITTER" and obj.type == "MESH" and sequences.emitting_systems(obj)
        if particles:
            # Blender's Flow Source "Particle System": the particles emit, not the mesh.
            names = ", ".join(f"'{p.name}'" for p in particles)
            col = layout.column(align=True)
            col.label(text=f"Emits from its particles ({names}): each a sphere of its size",
                      icon="PARTICLES")
            col.label(text="moving at its velocity (hide the particle system in the viewport to "
                           "emit from the mesh)")
        elif role == "EMITTER":
            layout.prop(settings, "emitter_kind")
        shaped = role == "COLLIDER" or (role == "EMITTER" and not particles
                                        and settings.emitter_kind == "MESH")
        if shaped and obj.type == "MESH":
            found = sequences.deformers(obj)
            if found:
                layout.label(text=f"Deformed ({', '.join(found)}): exported as a mesh a frame "
                                  "when its shape changes", icon="MOD_ARMATURE")
        if role in ("EMITTER", "COLLIDER"):
            s = schema.load()
            for section in schema.ROLE_SECTIONS[role]:
                for k in s.shown(section):
                    row = layout.row()
                    # The shell's thickness means something for a surface emitter only;
                    # a particle emits a sphere, through its volume.
                    row.active = (k.dotted != "emitter.thickness" or settings.emitter_mode == "surface") \
                        and not (particles and k.dotted in ("emitter.mode", "emitter.thickness"))
                    row.prop(settings, k.prop)


def draw_keys(layout, settings, keys):
    s = schema.load()
    for dotted in keys:
        if dotted in s.by_dotted:
            layout.prop(settings, s.by_dotted[dotted].prop)


def unplaced():
    """Shown domain keys no sub-panel lists."""
    placed = {d for p in panel_keys.DOMAIN_PANELS for d in p.keys}
    s = schema.load()
    return [k.dotted for section in schema.DOMAIN_SECTIONS for k in s.shown(section)
            if k.dotted not in placed]


class DomainSubPanel:
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"
    sub = None  # a panel_keys.Sub

    @classmethod
    def poll(cls, context):
        return context.object is not None and context.object.plume.role == "DOMAIN"

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        settings = context.object.plume
        self.draw_top(layout, settings)
        draw_keys(layout, settings, self.sub.keys)
        if self.sub.ident == "settings":
            # A key the schema gained and panel_keys.py does not place yet.
            draw_keys(layout, settings, unplaced())
        self.draw_bottom(layout, settings)

    def draw_top(self, layout, settings):
        pass

    def draw_bottom(self, layout, settings):
        pass


class CachePanel(DomainSubPanel):
    """The cache folder, its format, and the buttons that fill it (as
    Blender's Fluid Cache panel holds Bake)."""

    def draw_top(self, layout, settings):
        layout.prop(settings, "cache_dir", text="Directory")

    def draw_bottom(self, layout, settings):
        row = layout.row(align=True)
        row.operator("plume.bake", text="Bake", icon="PHYSICS").resume = False
        row.operator("plume.bake", text="Resume").resume = True
        layout.operator("plume.export", text="Export Scene…", icon="EXPORT")
        # The preview: a small bake in place of the cache's volume (preview.py).
        row = layout.row(align=True)
        row.operator("plume.preview", text="Preview", icon="HIDE_OFF")
        row.prop(settings, "live", toggle=True, icon="REC" if settings.live else "PLAY")
        layout.prop(settings, "preview_resolution")
        # The final at the domain's resolution, following the preview's motion ([guide]).
        op = layout.operator("plume.bake", text="Bake Final from Preview", icon="PHYSICS")
        op.resume, op.from_preview = False, True
        if settings.preview_status:
            error = "error:" in settings.preview_status
            layout.label(text=settings.preview_status, icon="ERROR" if error else "INFO")


class RendererPanel(DomainSubPanel):
    def draw_top(self, layout, settings):
        layout.operator("plume.render", text="Render with plume", icon="RENDER_ANIMATION")
        # The background and sky light are the World's (export.world_look).
        world = bpy.context.scene.world
        layout.label(text=f"Background and sky light: World '{world.name}'" if world is not None
                     else "Background and sky light: no World (black)", icon="WORLD")


KINDS = {"cache": CachePanel, "renderer": RendererPanel}


def panel_classes():
    """The domain's sub-panels, parents before children (Blender's order)."""
    classes = []
    for sub in panel_keys.DOMAIN_PANELS:
        parent = f"PHYSICS_PT_plume_{sub.parent}" if sub.parent else "PHYSICS_PT_plume"
        attrs = {"bl_label": sub.title, "bl_parent_id": parent, "sub": sub,
                 "bl_options": {"DEFAULT_CLOSED"} if sub.closed else set()}
        base = KINDS.get(sub.ident, DomainSubPanel)
        classes.append(type(f"PHYSICS_PT_plume_{sub.ident}", (base, bpy.types.Panel), attrs))
    return classes
