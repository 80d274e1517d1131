"""plume's sparks back into Blender: one object, '<domain>_plume_sparks', a
mesh of one vertex a spark with the cache's attributes (v, age, temperature,
pscale), which a Geometry Nodes "Mesh to Points" (radius pscale) turns into
points that Cycles draws as small glowing spheres: an Emission whose colour is
Blackbody(temperature) and whose strength grows as temperature^4, as plume's
own streaks (render/sparks).

Blender 3.4 reads no OpenVDB points (its Volume object skips the `sparks`
grid, and its Python has no pyopenvdb), so plume writes each cache frame's
sparks again beside it as <name>_####_sparks.ply (io/spark_ply.h); a
frame-change handler loads the current frame's file, as the Volume object
follows the timeline through its sequence."""
import os

import bpy
import numpy as np
from bpy.app.handlers import persistent

# A spark's radiance per unit render.emission at 1500 K (kSparkGlowPerEmission
# and planck.h's kReferenceKelvin in render/sparks/renderer_sparks.cpp).
GLOW_PER_EMISSION = 0.4
REFERENCE_KELVIN = 1500.0
# The temperature as the points' material reads it (points_modifier).
KELVIN_ATTRIBUTE = "plume_kelvin"


def ply_path(cache_dir, name, frame):
    return os.path.join(cache_dir, f"{name}_{frame:04d}_sparks.ply")


def read_ply(path):
    """{property: float32 array} of a binary little-endian PLY of float
    vertex properties (the file plume writes); raises ValueError otherwise."""
    with open(path, "rb") as f:
        if f.readline().strip() != b"ply":
            raise ValueError(f"{path}: not a PLY file")
        count, names = None, []
        while True:
            line = f.readline()
            if not line:
                raise ValueError(f"{path}: no end_header")
            words = line.decode("ascii", "replace").split()
            if not words or words[0] == "comment":
                continue
            if words[0] == "end_header":
                break
            if words[0] == "format" and words[1] != "binary_little_endian":
                raise ValueError(f"{path}: format {words[1]}, not binary_little_endian")
            if words[0] == "element":
                if words[1] != "vertex" or count is not None:
                    raise ValueError(f"{path}: element {words[1]}; only one 'vertex' is read")
                count = int(words[2])
            if words[0] == "property":
                if words[1] != "float":
                    raise ValueError(f"{path}: property {words[-1]} is {words[1]}, not float")
                names.append(words[2])
        count = count or 0
        data = np.frombuffer(f.read(4 * len(names) * count), dtype="<f4")
    if data.size != len(names) * count:
        raise ValueError(f"{path}: {data.size // max(1, len(names))} of {count} vertices")
    table = data.reshape(count, len(names)) if names else data.reshape(count, 0)
    return {n: np.ascontiguousarray(table[:, i]) for i, n in enumerate(names)}


def fill(mesh, sparks):
    """The mesh's vertices and point attributes, one vertex a spark."""
    mesh.clear_geometry()
    for name in ("v", "age", "temperature", "pscale"):
        if name in mesh.attributes:
            mesh.attributes.remove(mesh.attributes[name])
    n = len(sparks["x"]) if sparks else 0
    if n:
        mesh.vertices.add(n)
        mesh.vertices.foreach_set("co", np.column_stack((sparks["x"], sparks["y"], sparks["z"])).ravel())
    v = mesh.attributes.new("v", "FLOAT_VECTOR", "POINT")
    if n:
        v.data.foreach_set("vector", np.column_stack((sparks["vx"], sparks["vy"], sparks["vz"])).ravel())
    for name in ("age", "temperature", "pscale"):
        a = mesh.attributes.new(name, "FLOAT", "POINT")
        if n:
            a.data.foreach_set("value", sparks[name])
    mesh.update()


def load_frame(obj, frame):
    """Fills the sparks object with its cache's sparks at `frame` (none when
    that frame has no file)."""
    path = ply_path(bpy.path.abspath(obj["plume_sparks_dir"]), obj["plume_sparks_name"], frame)
    sparks = read_ply(path) if os.path.isfile(path) else None
    fill(obj.data, sparks)


@persistent
def on_frame_change(scene, depsgraph=None):
    for obj in scene.objects:
        if obj.type == "MESH" and "plume_sparks_dir" in obj:
            try:
                load_frame(obj, scene.frame_current)
            except (OSError, ValueError) as e:
                print(f"plume: {e}")


def material(name, emission):
    """Emission, colour Blackbody(temperature), strength render.emission x
    GLOW_PER_EMISSION x (temperature / REFERENCE_KELVIN)^4."""
    mat = bpy.data.materials.get(name) or bpy.data.materials.new(name)
    mat.use_nodes = True
    nt = mat.node_tree
    nt.nodes.clear()
    kelvin = nt.nodes.new("ShaderNodeAttribute")
    kelvin.attribute_type = "GEOMETRY"
    kelvin.attribute_name = KELVIN_ATTRIBUTE
    kelvin.location = (-800, 0)
    body = nt.nodes.new("ShaderNodeBlackbody")
    body.location = (-400, 100)
    nt.links.new(kelvin.outputs["Fac"], body.inputs["Temperature"])

    def math_node(op, a, b, x, y):
        m = nt.nodes.new("ShaderNodeMath")
        m.operation = op
        m.location = (x, y)
        for socket, v in zip(m.inputs, (a, b)):
            if isinstance(v, float):
                socket.default_value = v
            else:
                nt.links.new(v, socket)
        return m.outputs[0]

    ratio = math_node("DIVIDE", kelvin.outputs["Fac"], REFERENCE_KELVIN, -600, -150)
    strength = math_node("MULTIPLY", math_node("POWER", ratio, 4.0, -400, -150),
                         float(emission) * GLOW_PER_EMISSION, -200, -150)
    glow = nt.nodes.new("ShaderNodeEmission")
    glow.location = (0, 0)
    nt.links.new(body.outputs["Color"], glow.inputs["Color"])
    nt.links.new(strength, glow.inputs["Strength"])
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    out.location = (250, 0)
    nt.links.new(glow.outputs["Emission"], out.inputs["Surface"])
    return mat


def float_socket(sockets):
    """The float one of a node's typed sockets of one name (Named Attribute's
    output, Store Named Attribute's input)."""
    return next(x for x in sockets if x.enabled and x.type == "VALUE")


def points_modifier(obj, mat):
    """Geometry Nodes: Mesh to Points, radius the `pscale` attribute, and the material."""
    name = "plume_sparks_points"
    ng = bpy.data.node_groups.get(name)
    if ng is None:
        ng = bpy.data.node_groups.new(name, "GeometryNodeTree")
        ng.inputs.new("NodeSocketGeometry", "Geometry")
        ng.outputs.new("NodeSocketGeometry", "Geometry")
        gi = ng.nodes.new("NodeGroupInput")
        go = ng.nodes.new("NodeGroupOutput")
        to_points = ng.nodes.new("GeometryNodeMeshToPoints")
        radius = ng.nodes.new("GeometryNodeInputNamedAttribute")
        radius.data_type = "FLOAT"
        radius.inputs["Name"].default_value = "pscale"
        # Cycles takes an Attribute node's "temperature" for the volume's
        # temperature grid, whatever the object: the points carry it again
        # under a name of their own for the material.
        kelvin = ng.nodes.new("GeometryNodeInputNamedAttribute")
        kelvin.data_type = "FLOAT"
        kelvin.inputs["Name"].default_value = "temperature"
        store = ng.nodes.new("GeometryNodeStoreNamedAttribute")
        store.data_type, store.domain = "FLOAT", "POINT"
        store.inputs["Name"].default_value = KELVIN_ATTRIBUTE
        set_mat = ng.nodes.new("GeometryNodeSetMaterial")
        set_mat.name = "material"
        gi.location, radius.location, to_points.location = (-600, 0), (-600, -200), (-300, 0)
        kelvin.location, store.location = (-300, -200), (0, 0)
        set_mat.location, go.location = (250, 0), (500, 0)
        ng.links.new(gi.outputs[0], to_points.inputs["Mesh"])
        ng.links.new(float_socket(radius.outputs), to_points.inputs["Radius"])
        ng.links.new(to_points.outputs["Points"], store.inputs["Geometry"])
        ng.links.new(float_socket(kelvin.outputs), float_socket(store.inputs))
        ng.links.new(store.outputs["Geometry"], set_mat.inputs["Geometry"])
        ng.links.new(set_mat.outputs["Geometry"], go.inputs[0])
    ng.nodes["material"].inputs["Material"].default_value = mat
    mod = obj.modifiers.get("plume sparks") or obj.modifiers.new("plume sparks", "NODES")
    mod.node_group = ng


def remove_previous(name):
    obj = bpy.data.objects.get(name)
    if obj is not None:
        data = obj.data
        bpy.data.objects.remove(obj, do_unlink=True)
        if data is not None and data.users == 0 and isinstance(data, bpy.types.Mesh):
            bpy.data.meshes.remove(data)


def import_sparks(context, domain, cache_dir, name, first, last):
    """The sparks object when any frame first..last has a sparks file, else None."""
    obj_name = f"{domain.name}_plume_sparks"
    remove_previous(obj_name)
    if not any(os.path.isfile(ply_path(cache_dir, name, n)) for n in range(first, last + 1)):
        return None
    mesh = bpy.data.meshes.new(obj_name)
    obj = bpy.data.objects.new(obj_name, mesh)
    context.scene.collection.objects.link(obj)
    obj["plume_sparks_dir"] = cache_dir
    obj["plume_sparks_name"] = name
    points_modifier(obj, material(obj_name, domain.plume.render_emission))
    load_frame(obj, context.scene.frame_current)
    # The handler changes the mesh while an animation renders: Blender asks
    # for a locked interface then (bpy.app.handlers' notes on rendering).
    context.scene.render.use_lock_interface = True
    return obj


def register():
    if on_frame_change not in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.append(on_frame_change)


def unregister():
    if on_frame_change in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.remove(on_frame_change)
