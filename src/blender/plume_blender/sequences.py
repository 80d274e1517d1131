"""Shapes that change from frame to frame, written one file a frame in world
space beside the scene file: a collider or mesh emitter whose mesh deforms
(armature, shape keys, cloth, soft body, any modifier that moves vertices) as
a mesh sequence, an emitter's particles as a points sequence (DESIGN.md,
"Shots (keys)": `file = "NAME_####.ply"`, shape "mesh" or "points").

Both are binary little-endian PLY, written from numpy arrays filled by
foreach_get (a 10k-vertex mesh a frame costs well under a millisecond to
write; evaluating the frame is the cost, tests/bench/README.md). One pass over
the frames in order writes every sequence, so particle, cloth and soft-body
caches simulate forward as in Blender's own playback."""
import os
import re

import bpy
import numpy as np

# Modifiers that build a mesh once and do not move it by themselves.
STATIC_MODIFIERS = {"SUBSURF", "MIRROR", "BEVEL", "SOLIDIFY", "TRIANGULATE", "WELD", "EDGE_SPLIT",
                    "REMESH", "DECIMATE", "ARRAY", "MULTIRES", "WEIGHTED_NORMAL", "SCREW",
                    "SKIN", "WIREFRAME", "PARTICLE_SYSTEM", "COLLISION"}


# Modifiers that move vertices and never change which vertices and faces
# there are; with shape keys and these (and a subdivision of them), one
# frame's triangles serve every frame (reading a mesh's triangles costs 25 ms
# at 10k vertices, its positions 0.05 ms).
DEFORM_ONLY = {"ARMATURE", "CAST", "CLOTH", "COLLISION", "CORRECTIVE_SMOOTH", "CURVE", "DISPLACE",
               "HOOK", "LAPLACIANDEFORM", "LAPLACIANSMOOTH", "LATTICE", "MESH_CACHE", "MESH_DEFORM",
               "SHRINKWRAP", "SIMPLE_DEFORM", "SMOOTH", "SOFT_BODY", "SURFACE_DEFORM", "WARP", "WAVE",
               "PARTICLE_SYSTEM", "VERTEX_WEIGHT_EDIT", "VERTEX_WEIGHT_MIX",
               "VERTEX_WEIGHT_PROXIMITY", "UV_PROJECT", "UV_WARP", "NORMAL_EDIT", "WEIGHTED_NORMAL",
               "DATA_TRANSFER"}
SAME_TOPOLOGY = DEFORM_ONLY | {"SUBSURF", "MULTIRES"}


def fixed_topology(obj):
    """Whether the evaluated mesh has the same vertices and faces in every frame."""
    return all(m.type in SAME_TOPOLOGY for m in obj.modifiers if m.show_viewport)


def deformers(obj):
    """What may change an object's shape over time: its modifiers (those that
    deform first), shape keys, an armature parent. Empty: the mesh is rigid."""
    mods = [m for m in obj.modifiers if m.show_viewport]
    moving = [m for m in mods if m.type not in STATIC_MODIFIERS]
    found = [f"modifier '{m.name}' ({m.type.lower().replace('_', ' ')})" for m in moving]
    keys = getattr(obj.data, "shape_keys", None)
    if keys is not None and len(keys.key_blocks) > 1:
        found.append("shape keys")
    if obj.parent is not None and obj.parent_type == "ARMATURE":
        found.append(f"armature '{obj.parent.name}'")
    return found


def emitting_systems(obj):
    """The object's particle systems whose particles emit: emitter-type
    (not hair), shown in the viewport (the depsgraph a bake evaluates)."""
    shown = {m.particle_system.name for m in obj.modifiers
             if m.type == "PARTICLE_SYSTEM" and m.show_viewport}
    return [p for p in obj.particle_systems if p.name in shown and p.settings.type == "EMITTER"]


def file_stem(obj):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", obj.name)


# --- PLY bytes ----------------------------------------------------------------

def mesh_ply(points, triangles):
    """A binary PLY of float vertices and triangles (Assimp reads it in plume)."""
    header = ("ply\nformat binary_little_endian 1.0\n"
              "comment plume's Blender add-on: world space, metres\n"
              f"element vertex {len(points)}\n"
              "property float x\nproperty float y\nproperty float z\n"
              f"element face {len(triangles)}\n"
              "property list uchar int vertex_indices\nend_header\n")
    faces = np.empty(len(triangles), dtype=[("n", "u1"), ("v", "<i4", (3,))])
    faces["n"] = 3
    faces["v"] = triangles
    return header.encode("ascii") + points.astype("<f4").tobytes() + faces.tobytes()


POINT_FIELDS = ("x", "y", "z", "radius", "vx", "vy", "vz")


def points_ply(points, radius, velocity):
    """A binary PLY of points with a radius and a velocity each (m, m/s)."""
    header = ("ply\nformat binary_little_endian 1.0\n"
              "comment plume's Blender add-on: particles, world space, metres and m/s\n"
              f"element vertex {len(points)}\n"
              + "".join(f"property float {f}\n" for f in POINT_FIELDS) + "end_header\n")
    rows = np.empty((len(points), len(POINT_FIELDS)), dtype="<f4")
    rows[:, 0:3] = points
    rows[:, 3] = radius
    rows[:, 4:7] = velocity
    return header.encode("ascii") + rows.tobytes()


def write_if_changed(path, data):
    """Writes data to path (a temporary name, renamed), unless the file holds
    these bytes already: a re-export leaves the frames that did not change."""
    try:
        if os.path.getsize(path) == len(data):
            with open(path, "rb") as f:
                if f.read() == data:
                    return False
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return True


# --- What one frame holds -------------------------------------------------------

def world(matrix, co):
    m = np.array(matrix, dtype=np.float64)
    return co @ m[:3, :3].T + m[:3, 3]


def mesh_arrays(obj, depsgraph, triangles=None):
    """(object-space vertices, (vertex count, triangles)) of the evaluated
    mesh (modifiers and shape keys applied), and its world matrix; the
    `triangles` given are used when the vertex count is theirs."""
    ev = obj.evaluated_get(depsgraph)
    me = ev.data
    co = np.empty(3 * len(me.vertices), dtype=np.float32)
    me.vertices.foreach_get("co", co)
    if triangles is None or triangles[0] != len(me.vertices):
        me.calc_loop_triangles()
        tris = np.empty(3 * len(me.loop_triangles), dtype=np.int32)
        me.loop_triangles.foreach_get("vertices", tris)
        triangles = (len(me.vertices), tris.reshape(-1, 3))
    return co.reshape(-1, 3), triangles, [list(row) for row in ev.matrix_world]


def particle_arrays(obj, depsgraph, fps):
    """World positions, radii and velocities (m/s) of the alive particles of
    the object's emitting systems. Blender's particle velocity is per
    particle-second, a frame being settings.timestep of those seconds."""
    ev = obj.evaluated_get(depsgraph)
    wanted = {p.name for p in emitting_systems(obj)}
    alive_value = _alive_value()
    pos, rad, vel = [], [], []
    for psys in ev.particle_systems:
        if psys.name not in wanted:
            continue
        parts = psys.particles
        n = len(parts)
        state = np.empty(n, dtype=np.int32)
        p = np.empty(3 * n, dtype=np.float32)
        v = np.empty(3 * n, dtype=np.float32)
        s = np.empty(n, dtype=np.float32)
        parts.foreach_get("alive_state", state)
        parts.foreach_get("location", p)
        parts.foreach_get("velocity", v)
        parts.foreach_get("size", s)
        alive = state == alive_value
        pos.append(p.reshape(-1, 3)[alive])
        rad.append(s[alive])
        vel.append(v.reshape(-1, 3)[alive] * (psys.settings.timestep * fps))
    if not pos:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32), np.zeros((0, 3), np.float32)
    return np.concatenate(pos), np.concatenate(rad), np.concatenate(vel)


def _alive_value():
    """ParticleData.alive_state's number for ALIVE, as foreach_get gives it."""
    return bpy.types.Particle.bl_rna.properties["alive_state"].enum_items["ALIVE"].value


# --- The sequences ----------------------------------------------------------------

class Sequence:
    """One object's files: shape "mesh" or "points", `file` as the scene
    writes it (relative to the scene file), the radius a points emitter falls
    back on."""

    def __init__(self, obj, shape, folder, folder_name):
        self.obj, self.shape = obj, shape
        self.stem = file_stem(obj)
        self.folder = folder
        self.file = f"{folder_name}/{self.stem}_####.ply"
        self.radius = None
        self.base = None      # the first frame's object-space vertices and triangles
        self.triangles = None  # (vertex count, triangles) kept while the topology is fixed
        self.deforms = False  # seen to change shape (mesh candidates)
        self.written = 0      # files written (not already there)

    def path(self, frame):
        return os.path.join(self.folder, f"{self.stem}_{frame:04d}.ply")

    def remove_files(self, keep=None):
        """This object's frame files outside `keep` (frame numbers); all when None."""
        pat = re.compile(re.escape(self.stem) + r"_(\d+)\.ply(\.tmp)?$")
        if not os.path.isdir(self.folder):
            return
        for f in os.listdir(self.folder):
            m = pat.match(f)
            if m and (keep is None or m.group(2) or int(m.group(1)) not in keep):
                os.remove(os.path.join(self.folder, f))


def candidates(elements):
    """{name: "mesh" | "points"}: emitters with particles, and colliders or
    mesh emitters that may deform."""
    found = {}
    for obj in elements:
        role = obj.plume.role
        if role == "EMITTER" and obj.type == "MESH" and emitting_systems(obj):
            found[obj.name] = "points"
        elif obj.type == "MESH" and (role == "COLLIDER" or obj.plume.emitter_kind == "MESH") \
                and deformers(obj):
            found[obj.name] = "mesh"
    return found


def write_all(context, scene, elements, folder, folder_name, first, last, set_frame):
    """Steps the scene from `first` to `last` writing every candidate's frame
    files; returns {object name: Sequence} of those that are sequences: every
    points emitter, and each mesh that did change shape (object space) in some
    frame (the others' files are removed: they stay rigid and keyed)."""
    kinds = candidates(elements)
    if not kinds:
        return {}
    os.makedirs(folder, exist_ok=True)
    by_name = {o.name: o for o in elements}
    seqs = {n: Sequence(by_name[n], k, folder, folder_name) for n, k in kinds.items()}
    fps = scene.render.fps / scene.render.fps_base
    for seq in seqs.values():
        if seq.shape == "points":
            seq.radius = max(float(p.settings.particle_size) for p in emitting_systems(seq.obj))
    for frame in range(first, last + 1):
        set_frame(scene, frame)
        depsgraph = context.evaluated_depsgraph_get()
        for seq in seqs.values():
            if seq.shape == "points":
                data = points_ply(*particle_arrays(seq.obj, depsgraph, fps))
            else:
                co, triangles, matrix = mesh_arrays(seq.obj, depsgraph, seq.triangles)
                if fixed_topology(seq.obj):
                    seq.triangles = triangles
                tris = triangles[1]
                if seq.base is None:
                    seq.base = (co, tris)
                elif not seq.deforms:
                    seq.deforms = changed(seq.base, co, tris)
                data = mesh_ply(world(matrix, co), tris)
            seq.written += write_if_changed(seq.path(frame), data)
    frames = set(range(first, last + 1))
    for name, seq in list(seqs.items()):
        if seq.shape == "mesh" and not seq.deforms:
            seq.remove_files()
            del seqs[name]
        else:
            seq.remove_files(keep=frames)  # a longer range exported before
    return seqs


def changed(base, co, tris):
    """Whether a frame's object-space mesh differs from the first frame's."""
    co0, tris0 = base
    if co.shape != co0.shape or tris.shape != tris0.shape or not np.array_equal(tris, tris0):
        return True
    size = max(float(np.abs(co0).max(initial=0.0)), 1e-9)
    return bool(np.abs(co - co0).max(initial=0.0) > 1e-6 * size)
