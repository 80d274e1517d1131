#!/usr/bin/env python3
"""Writes rock.obj beside this script: a closed, lumpy boulder for
scenes/mesh_collider.toml. An icosphere (subdivided 4 times, 5120 triangles)
whose vertices are pushed in and out by a few fixed sine waves, so the rock is
the same on every run and machine. Written for plume; CC0 1.0 (public domain).

    python3 scenes/props/make_rock.py
"""
import math
import os


def icosphere(levels):
    t = (1.0 + math.sqrt(5.0)) / 2.0
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]

    def unit(v):
        n = math.sqrt(sum(c * c for c in v))
        return tuple(c / n for c in v)

    verts = [unit(v) for v in verts]
    for _ in range(levels):
        cache = {}

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in cache:
                verts.append(unit(tuple((p + q) / 2 for p, q in zip(verts[a], verts[b]))))
                cache[key] = len(verts) - 1
            return cache[key]

        next_faces = []
        for a, b, c in faces:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            next_faces += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = next_faces
    return verts, faces


def lumpiness(x, y, z):
    # A few fixed waves: broad lumps plus smaller knobs, no randomness.
    return (0.12 * math.sin(3.1 * x + 1.3) * math.sin(2.7 * y + 0.4)
            + 0.08 * math.sin(4.3 * z + 2.1 * x)
            + 0.04 * math.sin(9.7 * y + 5.3 * z + 0.7))


def main():
    verts, faces = icosphere(4)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rock.obj")
    with open(out, "w") as f:
        f.write("# rock.obj: written by make_rock.py (plume), CC0 1.0\n")
        for x, y, z in verts:
            r = 1.0 + lumpiness(x, y, z)
            # Flattened a little in z, so it sits like a boulder; 1 m across.
            f.write("v %.6f %.6f %.6f\n" % (0.5 * r * x, 0.5 * r * y, 0.38 * r * z))
        for a, b, c in faces:
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))


if __name__ == "__main__":
    main()
