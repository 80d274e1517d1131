# What the add-on's Blender tests share (plume_addon.py, addon_sequences.py,
# addon_fire.py, addon_sparks.py, addon_preview.py): installing the zip as a
# user does, the shot's domain, burner and camera, checks that count failures,
# an operator's report lines, Blender's own density grid probed at points, and
# PLY files read back with numpy. Imported by those scripts from their folder.
import math
import os
import sys
import tempfile

import bpy
import numpy as np
from mathutils import Vector
from mathutils.bvhtree import BVHTree

failures = 0


def say(msg):
    print(f"plume-test: {msg}", flush=True)


def check(ok, what, detail=""):
    global failures
    say(f"{'ok  ' if ok else 'FAIL'} {what}{(': ' + detail) if detail else ''}")
    if not ok:
        failures += 1
    return ok


def die(msg):
    say(f"FAIL {msg}")
    sys.stderr.write(f"plume-test: FAIL {msg}\n")
    sys.exit(1)


def gate(what):
    """Stops at the first group of checks with a failure."""
    if failures:
        die(f"{failures} check(s) failed ({what})")


def install(addon_zip, plume):
    """An empty scene, the zip installed and enabled as module plume_blender,
    the add-on pointed at PLUME."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_install(filepath=addon_zip, overwrite=True)
    bpy.ops.preferences.addon_enable(module="plume_blender")
    bpy.context.preferences.addons["plume_blender"].preferences.binary = plume


def add_shot(first, last, fps=24, size=None):
    """The scene's frame range and rate, and its render size (width, height)."""
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = first, last
    scene.render.fps, scene.render.fps_base = fps, 1.0
    if size:
        scene.render.resolution_x, scene.render.resolution_y = size
        scene.render.resolution_percentage = 100
    return scene


def add_domain(size, resolution):
    """A plume domain named Domain: a box from the origin to `size`."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=size / 2)
    domain = bpy.context.view_layer.objects.active
    domain.name = "Domain"
    domain.scale = size
    domain.plume.role = "DOMAIN"
    domain.plume.resolution = resolution
    return domain


def add_burner(location):
    """A plume emitter named Burner: a small sphere at `location`."""
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.15, segments=16, ring_count=8, location=location)
    burner = bpy.context.view_layer.objects.active
    burner.name = "Burner"
    burner.plume.role = "EMITTER"
    return burner


def add_front_camera(scene, fov_degrees, location):
    """The scene's camera at `location`, looking along +y, with a vertical
    field of view of `fov_degrees`."""
    cam = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(cam)
    cam.data.sensor_fit = "VERTICAL"
    cam.data.lens = 0.5 * cam.data.sensor_height / math.tan(0.5 * math.radians(fov_degrees))
    cam.location = location
    cam.rotation_euler = (math.radians(90), 0.0, 0.0)
    scene.camera = cam
    return cam


def captured(op):
    """(result, Blender's report lines) of an operator call: an operator run
    from Python prints its reports on stdout ("Warning: ..."). An ERROR
    report raises RuntimeError, as in Blender."""
    sys.stdout.flush()
    with tempfile.TemporaryFile(mode="w+") as f:
        saved = os.dup(1)
        os.dup2(f.fileno(), 1)
        try:
            result = op()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        out = f.read()
    sys.stdout.write(out)
    return result, out.splitlines()


def warnings_of(lines):
    return [l[len("Warning: "):] for l in lines if l.startswith("Warning: ")]


class SmokeProbe:
    """Whether points are in smoke, from Blender's own density grid of a
    Volume object at the scene's current frame. Blender 3.4's Python cannot
    read a volume's voxels: a Volume to Mesh modifier turns the grid
    (transform and all) into the surface density = threshold, and a point is
    inside it when a ray from it crosses that surface an odd number of times."""

    def __init__(self, scene, volume_obj, threshold):
        mesh = bpy.data.meshes.new("iso")
        self.obj = bpy.data.objects.new("Iso", mesh)
        scene.collection.objects.link(self.obj)
        mod = self.obj.modifiers.new("smoke", "VOLUME_TO_MESH")
        mod.object, mod.grid_name, mod.threshold = volume_obj, "density", threshold
        mod.resolution_mode = "GRID"
        depsgraph = bpy.context.evaluated_depsgraph_get()
        ev = self.obj.evaluated_get(depsgraph)
        self.vertices = len(ev.data.vertices)
        self.bvh = BVHTree.FromObject(ev, depsgraph)

    def __call__(self, p):
        crossings, origin, d = 0, Vector(p), Vector((0.0, 0.0, 1.0))
        while True:
            hit = self.bvh.ray_cast(origin, d)
            if hit[0] is None:
                return crossings % 2 == 1
            crossings += 1
            origin = hit[0] + d * 1e-5

    def remove(self):
        bpy.data.objects.remove(self.obj)


PLY_TYPES = {"char": "i1", "uchar": "u1", "short": "<i2", "ushort": "<u2", "int": "<i4",
             "uint": "<u4", "float": "<f4", "double": "<f8"}


def read_ply(path):
    """{element: numpy structured array} of a binary little-endian PLY. A
    list property (faces) must hold the same count in every row, read as a
    sub-array ('vertex_indices' of shape (n, 3) for triangles)."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    lines = data[:end].decode("ascii").splitlines()
    if lines[0] != "ply" or lines[1] != "format binary_little_endian 1.0":
        raise ValueError(f"{path}: not a binary little-endian PLY ({lines[1]})")
    elements = []
    for line in lines[2:]:
        w = line.split()
        if w[0] == "element":
            elements.append((w[1], int(w[2]), []))
        elif w[0] == "property":
            elements[-1][2].append(w[1:])
    out, offset = {}, end
    for name, count, props in elements:
        fields = []
        for p in props:
            if p[0] == "list":
                before = np.dtype([tuple(f) for f in fields]).itemsize if fields else 0
                if PLY_TYPES[p[1]] != "u1":
                    raise ValueError(f"{path}: list counts of type {p[1]}, not uchar")
                n = data[offset + before] if count else 0
                fields.append(("n_" + p[3], PLY_TYPES[p[1]]))
                fields.append((p[3], PLY_TYPES[p[2]], (n,)))
            else:
                fields.append((p[1], PLY_TYPES[p[0]]))
        dtype = np.dtype([tuple(f) for f in fields])
        rows = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
        for f in fields:
            if len(f) == 3 and count and not (rows["n_" + f[0]] == f[2][0]).all():
                raise ValueError(f"{path}: rows of '{f[0]}' of different lengths")
        out[name] = rows
        offset += dtype.itemsize * count
    if offset != len(data):
        raise ValueError(f"{path}: {len(data) - offset} bytes after the last element")
    return out
