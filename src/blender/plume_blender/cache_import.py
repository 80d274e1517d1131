"""plume's VDB sequence back into Blender: one Volume object, '<domain>_plume',
over the domain, with a Principled Volume material reading its grids."""
import math
import os

import bpy
from mathutils import Vector

from . import export, schema, sparks_import

def sequence_files(cache_dir, name, first, last):
    files = []
    for n in range(first, last + 1):
        f = f"{name}_{n:04d}.vdb"
        if os.path.isfile(os.path.join(cache_dir, f)):
            files.append(f)
    return files


def remove_previous(name):
    obj = bpy.data.objects.get(name)
    if obj is not None:
        data = obj.data
        bpy.data.objects.remove(obj, do_unlink=True)
        if data is not None and data.users == 0 and isinstance(data, bpy.types.Volume):
            bpy.data.volumes.remove(data)


def smoke_only_from_fire(scene):
    """True when an emitter gives fuel and none gives smoke of its own: the
    smoke is all soot, drawn in physics.flame_smoke_color (scene.h,
    Scene::smokeOnlyFromFire; export.gives_smoke)."""
    emitters = [o for o in scene.objects if o.plume.role == "EMITTER"]
    return (any(o.plume.emitter_fuel > 0.0 for o in emitters)
            and not any(export.gives_smoke(o) and o.plume.emitter_density > 0.0
                        for o in emitters))


def grid_names(path):
    """The grids of one VDB file, as Blender reads them."""
    vol = bpy.data.volumes.new("plume_probe")
    try:
        vol.filepath = path
        vol.grids.load()
        return {g.name for g in vol.grids} if vol.grids.is_loaded else set()
    finally:
        bpy.data.volumes.remove(vol)


# render.filter "auto" reads cubic above this many pixels a voxel at the
# volume's centre (render/march/filter.h, kCubicPixelsPerVoxel).
CUBIC_PIXELS_PER_VOXEL = 2.0


def pixels_per_voxel(scene, domain, voxel):
    """How many pixels of plume's frame one voxel spans at the domain's
    centre, from the scene's camera, or from the camera plume frames the
    domain with when the file has none (render/march/filter.cpp,
    pixelsPerVoxel; render/camera.cpp, frameBox)."""
    lo, size = export.domain_box(domain)
    centre = lo + 0.5 * size
    width, height = export.frame_size(scene)
    cam = scene.camera
    if cam is not None and export.left_out_camera(scene) is None:
        corners = cam.data.view_frame(scene=scene)  # camera space, at one depth
        if cam.data.type == "ORTHO":  # a pixel spans the same at every distance
            return voxel / (2.0 * max(abs(c.y) for c in corners) / height)
        half = max(abs(c.y) for c in corners) / abs(corners[0].z)
        distance = (centre - cam.matrix_world.translation).length
    else:
        half = math.tan(0.5 * math.radians(schema.load().default("camera.fov")))
        aspect, margin, h = width / height, 1.08, 0.5 * size
        distance = max([h.y + 1e-3] + [max(h.x * margin / (half * aspect), h.z * margin / half) - oy
                                       for oy in (-h.y, h.y)])
    return voxel / (max(distance, 1e-6) * 2.0 * half / height)


def volume_interpolation(scene, domain, voxel):
    """Cycles' Interpolation as plume's render.filter reads the density:
    "cubic" Cubic (plume's B-spline is Cycles' Cubic); "auto" Cubic where plume
    takes cubic, a voxel over two pixels from the camera, else Linear; "linear"
    and "sharp" (through every voxel's value, which Linear is and Cubic is not)
    Linear."""
    f = domain.plume.render_filter
    if f == "auto":
        f = "cubic" if pixels_per_voxel(scene, domain, voxel) > CUBIC_PIXELS_PER_VOXEL else "linear"
    return "CUBIC" if f == "cubic" else "LINEAR"


def material(name, ds, soot, colour=False, interpolation="CUBIC"):
    """plume's look as a Principled Volume (README "Fire"): Density
    render.extinction x (density + flame_density x flame), Color the soot's
    (physics.flame_smoke_color) when all smoke is the fire's, else
    render.albedo grey; with a `color` grid in the cache (coloured emitters,
    or Mantaflow's), Color is that grid: the smoke's own albedo, which plume's
    renderer uses instead of render.albedo. Absorption Color black, Anisotropy render.phase,
    Blackbody Intensity cycles_blackbody_per_emission x render.emission x
    flame, Temperature render.fire_temperature x temperature; Cycles'
    Interpolation `interpolation` (volume_interpolation). The constants are
    plume's own, from the schema the add-on carries."""
    s = schema.load()
    mat = bpy.data.materials.get(name) or bpy.data.materials.new(name)
    mat.use_nodes = True
    if hasattr(mat, "cycles"):  # with Cycles enabled (it is by default)
        mat.cycles.volume_interpolation = interpolation
    nt = mat.node_tree
    nt.nodes.clear()

    def attribute(grid, y):
        a = nt.nodes.new("ShaderNodeAttribute")
        a.attribute_name = grid
        a.location = (-600, y)
        return a.outputs["Fac"]

    def math_node(op, inputs, x, y):
        m = nt.nodes.new("ShaderNodeMath")
        m.operation = op
        m.location = (x, y)
        for socket, v in zip(m.inputs, inputs):
            if isinstance(v, float):
                socket.default_value = v
            else:
                nt.links.new(v, socket)
        return m.outputs[0]

    pv = nt.nodes.new("ShaderNodeVolumePrincipled")
    pv.location = (0, 0)
    grey = tuple(ds.physics_flame_smoke_color) if soot else (ds.render_albedo,) * 3
    pv.inputs["Color"].default_value = (*grey, 1.0)
    if colour:
        # The smoke's own colour, mixed by density where smokes met.
        tint = nt.nodes.new("ShaderNodeAttribute")
        tint.attribute_name = "color"
        tint.location = (-600, 250)
        nt.links.new(tint.outputs["Color"], pv.inputs["Color"])
    pv.inputs["Absorption Color"].default_value = (0.0, 0.0, 0.0, 1.0)  # extinction = density
    pv.inputs["Anisotropy"].default_value = ds.render_phase
    flame = attribute("flame", -250)
    # The Density input is the whole of it: render.extinction per metre per
    # unit of density, plus the flame's own thin density.
    pv.inputs["Density Attribute"].default_value = ""
    rho = math_node("MULTIPLY_ADD", (flame, float(s.constant("flame_density")), attribute("density", 0)),
                    -400, 0)
    nt.links.new(math_node("MULTIPLY", (rho, float(ds.render_extinction)), -200, 0),
                 pv.inputs["Density"])
    gain = float(s.constant("cycles_blackbody_per_emission")) * ds.render_emission
    nt.links.new(math_node("MULTIPLY", (flame, gain), -200, -250), pv.inputs["Blackbody Intensity"])
    pv.inputs["Temperature"].default_value = ds.render_fire_temperature  # kelvin per unit
    pv.inputs["Temperature Attribute"].default_value = "temperature"
    pv.inputs["Emission Strength"].default_value = 0.0
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    out.location = (300, 0)
    nt.links.new(pv.outputs["Volume"], out.inputs["Volume"])
    return mat


def import_sequence(context, domain, cache_dir, name, first, last):
    """The Volume object, or raises RuntimeError when the cache has no frames."""
    files = sequence_files(cache_dir, name, first, last)
    if not files:
        raise RuntimeError(f"plume: no {name}_####.vdb files in {cache_dir}")
    obj_name = f"{domain.name}_plume"
    remove_previous(obj_name)
    # As Add > Volume > Import OpenVDB with every file selected: Blender 3.4
    # detects a sequence only then (tests/blender/README.md).
    scene = context.scene
    before = set(scene.objects)
    kw = dict(filepath=os.path.join(cache_dir, files[0]), directory=cache_dir + os.sep,
              files=[{"name": f} for f in files], use_sequence_detection=len(files) > 1,
              align="WORLD", location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0))
    with context.temp_override(**_override(context)) if hasattr(context, "temp_override") else _null():
        result = bpy.ops.object.volume_import(**kw)
    new = [o for o in scene.objects if o not in before and o.type == "VOLUME"]
    if result != {"FINISHED"} or len(new) != 1:
        raise RuntimeError(f"plume: Blender could not import {files[0]} ({result})")
    obj = new[0]
    obj.name = obj_name
    obj.data.name = obj_name
    vol = obj.data
    # The sequence plays at the scene's frame numbers: file N at frame N (the
    # importer maps scene frame 1 to the first file, whatever its number).
    # Blender reads file (frame - frame_start + 1 + frame_offset).
    number = int(files[0][len(name) + 1:-4])
    vol.frame_start = number
    vol.frame_offset = number - 1
    context.scene.frame_set(context.scene.frame_current)
    vol.grids.load()
    # Cycles draws voxel i over [i, i+1] of the grid's index space, half a voxel
    # along +x, +y, +z from OpenVDB's centre convention plume writes
    # (tests/blender/README.md, issue 13): move the object back by half the
    # density grid's voxel (finer than dx when upres'd).
    voxel = 0.0
    if vol.grids.is_loaded and "density" in vol.grids:
        voxel = vol.grids["density"].matrix_object.col[0].length
    obj.location = Vector((-0.5 * voxel,) * 3)
    obj["plume_voxel"] = voxel
    # The viewport's smoke: at Blender's default display density of 1 plume's
    # smoke (density about 1, drawn at render.extinction = 40 per metre in
    # renders) is a faint haze in Solid view; 10 reads as the render does (by
    # eye, against 1 and 40).
    vol.display.density = 10.0
    ds = domain.plume
    vol.materials.clear()
    colour = "color" in grid_names(os.path.join(cache_dir, files[-1]))
    vol.materials.append(material(obj_name, ds, smoke_only_from_fire(scene), colour,
                                  volume_interpolation(scene, domain, voxel or domain_dx(domain))))
    # The domain's box stays in the viewport as bounds, out of renders.
    domain.display_type = "BOUNDS"
    domain.hide_render = True
    # The sparks, when the cache has them, as points beside the volume.
    sparks_import.import_sparks(context, domain, cache_dir, name, first, last)
    return obj


def domain_dx(domain):
    """The voxel plume bakes at: the domain's longest side over its resolution."""
    return max(export.domain_box(domain)[1]) / domain.plume.resolution


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def _override(context):
    kw = {}
    if context.window is not None:
        kw["window"] = context.window
    return kw
