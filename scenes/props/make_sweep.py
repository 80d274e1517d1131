#!/usr/bin/env python3
"""Writes the moving props of scenes/sweep.toml beside this script:

- sweep/paddle_0001.obj ... paddle_0072.obj: a flexible paddle, one closed mesh
  a frame, as Blender exports an armature-driven or cloth mesh. It crosses the
  domain from left to right with its edges lagging behind like a cupped hand,
  while a wave runs up it; every file has the same vertices and triangles, so
  plume moves them on straight lines between frames.
- sweep/swirl_0001.ply ... swirl_0072.ply: a particle cache, as Blender's or
  Houdini's particle exports write it: points born at a nozzle on the floor that
  spiral upwards, with their velocity (vx, vy, vz) and radius.

Everything is a fixed function of the frame, so the files are the same on
every run and machine. Written for plume; CC0 1.0 (public domain).

    python3 scenes/props/make_sweep.py
"""
import math
import os

FPS = 24
FRAMES = 72

# The paddle, in metres: a plate in the y-z plane, pushing along +x.
WIDTH, HEIGHT, THICK = 1.3, 0.9, 0.12
NY, NZ = 12, 8  # segments across and up
START, END = 12, 56  # the frames it sweeps over
X0, X1 = 0.25, 2.75  # where it starts and ends
Y_MID, Z_MID = 1.0, 1.2


def ease(s):
    s = min(max(s, 0.0), 1.0)
    return s * s * (3.0 - 2.0 * s)


def paddle_x(frame):
    return X0 + (X1 - X0) * ease((frame - START) / (END - START))


def paddle_speed(frame):
    # How far through the sweep, as a 0..1 push: the edges lag by this much.
    s = (frame - START) / (END - START)
    return 6.0 * s * (1.0 - s) if 0.0 < s < 1.0 else 0.0


def paddle_vertex(frame, v, w, side):
    """The point at (v, w) in [-1, 1] x [-1, 1] of the paddle's back (side -1)
    or front (side +1) face at this frame, in world metres."""
    t = frame / FPS
    lag = 0.28 * paddle_speed(frame) * v * v  # the edges trail the middle
    wave = 0.07 * math.sin(2.0 * math.pi * (0.8 * w + 1.5 * t))  # runs up the paddle
    x = paddle_x(frame) - lag + wave + side * 0.5 * THICK
    return (x, Y_MID + 0.5 * WIDTH * v, Z_MID + 0.5 * HEIGHT * w)


def paddle_mesh(frame):
    """A closed box of (NY+1) x (NZ+1) vertices a face: both faces and the rim."""
    verts = []
    index = {}
    for side in (-1, 1):
        for j in range(NZ + 1):
            for i in range(NY + 1):
                index[(side, i, j)] = len(verts)
                verts.append(paddle_vertex(frame, -1.0 + 2.0 * i / NY, -1.0 + 2.0 * j / NZ, side))
    faces = []

    def quad(a, b, c, d):  # clockwise as listed: the triangles face outwards
        faces.append((a, c, b))
        faces.append((a, d, c))

    for j in range(NZ):
        for i in range(NY):
            f = [index[(1, i, j)], index[(1, i + 1, j)], index[(1, i + 1, j + 1)], index[(1, i, j + 1)]]
            b = [index[(-1, i, j)], index[(-1, i + 1, j)], index[(-1, i + 1, j + 1)], index[(-1, i, j + 1)]]
            quad(f[0], f[3], f[2], f[1])
            quad(b[0], b[1], b[2], b[3])
    # The rim: walk the border of the (i, j) grid and join the two faces.
    border = ([(i, 0) for i in range(NY)] + [(NY, j) for j in range(NZ)]
              + [(i, NZ) for i in range(NY, 0, -1)] + [(0, j) for j in range(NZ, 0, -1)])
    for k, (i, j) in enumerate(border):
        i2, j2 = border[(k + 1) % len(border)]
        quad(index[(-1, i, j)], index[(1, i, j)], index[(1, i2, j2)], index[(-1, i2, j2)])
    return verts, faces


def check_orientation(verts, faces):
    # Signed volume: positive when every triangle faces outwards.
    vol = 0.0
    for a, b, c in faces:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = verts[a], verts[b], verts[c]
        vol += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6.0
    return vol


# The swirl: points born at a nozzle, rising on a helix that widens.
NOZZLE = (2.1, 1.0, 0.12)
BIRTHS = 4  # a frame
LIFE = 1.6  # seconds
RISE = 0.9  # m/s
TURNS = 0.9  # turns a second
RADIUS0, GROWTH = 0.06, 0.12  # helix radius at birth, and its growth in m/s
POINT_RADIUS = 0.07


def swirl_point(age, phase):
    r = RADIUS0 + GROWTH * age
    a = phase + 2.0 * math.pi * TURNS * age
    x = NOZZLE[0] + r * math.cos(a)
    y = NOZZLE[1] + r * math.sin(a)
    z = NOZZLE[2] + RISE * age
    w = 2.0 * math.pi * TURNS
    vx = GROWTH * math.cos(a) - r * w * math.sin(a)
    vy = GROWTH * math.sin(a) + r * w * math.cos(a)
    return (x, y, z, vx, vy, RISE)


def swirl_points(frame):
    t = (frame - 1) / FPS
    points = []
    for born in range(0, frame * BIRTHS):
        tb = born / (BIRTHS * FPS)
        age = t - tb
        if 0.0 <= age < LIFE:
            phase = born * 2.399963  # the golden angle: births spread round the nozzle
            points.append(swirl_point(age, phase))
    return points


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "sweep")
    os.makedirs(out, exist_ok=True)
    for frame in range(1, FRAMES + 1):
        verts, faces = paddle_mesh(frame)
        assert check_orientation(verts, faces) > 0.0
        with open(os.path.join(out, "paddle_%04d.obj" % frame), "w") as f:
            f.write("# paddle frame %d: written by make_sweep.py (plume), CC0 1.0\n" % frame)
            for x, y, z in verts:
                f.write("v %.4f %.4f %.4f\n" % (x, y, z))
            for a, b, c in faces:
                f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
        points = swirl_points(frame)
        with open(os.path.join(out, "swirl_%04d.ply" % frame), "w") as f:
            f.write("ply\nformat ascii 1.0\ncomment swirl frame %d: written by make_sweep.py "
                    "(plume), CC0 1.0\n" % frame)
            f.write("element vertex %d\n" % len(points))
            for name in ("x", "y", "z", "vx", "vy", "vz", "radius"):
                f.write("property float %s\n" % name)
            f.write("end_header\n")
            for p in points:
                f.write("%.4f %.4f %.4f %.4f %.4f %.4f %.3f\n" % (p + (POINT_RADIUS,)))


if __name__ == "__main__":
    main()
