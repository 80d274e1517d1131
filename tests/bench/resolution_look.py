#!/usr/bin/python3
"""Does a scene look the same at any domain.resolution? (issue 57, item 1's measure)

A manual measurement, not a test and not run in CI (a 128-cell fire frame takes
minutes on 2 cores). Needs numpy and Pillow from Debian (python3-numpy,
python3-pil) and pyopenvdb (python3-openvdb), hence /usr/bin/python3.

    tests/bench/resolution_look.py [--plume build/plume] [--work /tmp/plume-res]
        [--res 32 64 128] [--frame 40] [--width 320] [--height 360] [--no-upres]
        [--reuse] SCENE [SCENE ...]

For each scene and resolution, one run:
    plume render SCENE --frames F --png DIR --vdb DIR --no-video --stats DIR/stats.csv
        --set domain.resolution=N --set render.width=W --set render.height=H
(the scene's upres kept as it is; --no-upres adds --set upres.factor=1, as the
preview does). Of frame F it measures:
  - flame: the share of the frame's pixels that are flame, 8-bit sRGB warm
    (R > G + 8, flame_colour.py's flame pixels), not blue (G >= B) and bright
    (luminance Y = 0.2126 R + 0.7152 G + 0.0722 B >= 48, which leaves out the
    fire-lit ground and smoke); and their mean luminance;
  - sparks: those alive at the frame's end (the --stats column);
  - smoke height: the height under which 95% of the smoke's density lies
    (density x cell volume summed over the VDB's `density` grid, world space),
    over the domain's height; spread: twice the density-weighted RMS
    horizontal distance from the smoke's vertical axis, over the domain's
    width (x); both are differences to the last resolution's, in % of the domain;
  - soot: the mean 8-bit luminance of the smoke's pixels that are not flame
    (|Y - the row's median| > 4 and not flame), the darkness of the smoke.
Prints one markdown table per scene, each figure beside its ratio to the last
(finest) resolution's. --reuse measures the runs already in --work and makes only those missing.
"""
import argparse
import csv
import glob
import os
import subprocess
import sys
import time

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(plume, scene, res, frame, width, height, no_upres, out):
    os.makedirs(out, exist_ok=True)
    cmd = [plume, "render", scene, "--frames", str(frame), "--png", out, "--vdb", out,
           "--no-video", "--stats", os.path.join(out, "stats.csv"), "-q",
           "--set", f"domain.resolution={res}",
           "--set", f"render.width={width}", "--set", f"render.height={height}"]
    if no_upres:
        cmd += ["--set", "upres.factor=1"]
    start = time.monotonic()
    subprocess.run(cmd, check=True)
    return time.monotonic() - start


def one(pattern):
    files = sorted(f for f in glob.glob(pattern) if "_sparks" not in f)
    if not files:
        sys.exit(f"nothing matches {pattern}")
    return files[-1]


def image_measures(path):
    rgb = np.asarray(Image.open(path).convert("RGB")).astype(np.float64)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    flame = (r > g + 8) & (g >= b) & (y >= 48)
    smoke = (np.abs(y - np.median(y, axis=1, keepdims=True)) > 4) & ~flame
    share = flame.mean()
    brightness = y[flame].mean() if flame.any() else 0.0
    soot = y[smoke].mean() if smoke.any() else 0.0
    return share, brightness, soot


def smoke_measures(path):
    import pyopenvdb as vdb
    grid = vdb.read(path, "density")
    lo, hi = grid.evalActiveVoxelBoundingBox()
    shape = tuple(h - l + 1 for l, h in zip(lo, hi))
    a = np.zeros(shape, dtype=np.float32)
    grid.copyToArray(a, ijk=lo)
    a = np.maximum(a, 0).astype(np.float64)
    m = grid.transform.voxelSize()[0]
    i, j, k = np.meshgrid(*(np.arange(l, h + 1) for l, h in zip(lo, hi)), indexing="ij")
    w = a.ravel()
    total = w.sum()
    if total <= 0:
        return 0.0, 0.0
    # World positions of the voxel centres (a plume cache's transform is a scale
    # and a translation: index + 0.5 .. as voxelSize; only differences matter
    # below but for the height, which is measured from the domain's floor).
    x = grid.transform.indexToWorld((0, 0, 0))
    x0, z0 = x[0], x[2]
    xs = x0 + i.ravel() * m
    ys = x[1] + j.ravel() * m
    zs = z0 + k.ravel() * m
    order = np.argsort(zs, kind="stable")
    cum = np.cumsum(w[order])
    height = zs[order][np.searchsorted(cum, 0.95 * total)]
    cx, cy = (w * xs).sum() / total, (w * ys).sum() / total
    spread = 2 * np.sqrt((w * ((xs - cx) ** 2 + (ys - cy) ** 2)).sum() / total)
    return height, spread


def domain_of(scene):
    """(origin z, size x, size z) of the scene's domain (scenes/README.md's defaults)."""
    import tomllib
    with open(scene, "rb") as f:
        dom = tomllib.load(f).get("domain", {})
    origin = dom.get("origin", [0.0, 0.0, 0.0])
    size = dom.get("size", [2.0, 2.0, 2.0])
    return origin[2], size[0], size[2]


def sparks_of(out, frame):
    with open(os.path.join(out, "stats.csv")) as f:
        for row in csv.DictReader(f):
            if int(row["frame"]) == frame:
                return int(float(row.get("sparks", 0) or 0))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenes", nargs="+")
    p.add_argument("--plume", default=os.path.join(REPO, "build", "plume"))
    p.add_argument("--work", default="/tmp/plume-res")
    p.add_argument("--res", type=int, nargs="+", default=[32, 64, 128])
    p.add_argument("--frame", type=int, default=40)
    p.add_argument("--width", type=int, default=320)
    p.add_argument("--height", type=int, default=360)
    p.add_argument("--no-upres", action="store_true")
    p.add_argument("--reuse", action="store_true")
    a = p.parse_args()

    for scene in a.scenes:
        name = os.path.splitext(os.path.basename(scene))[0]
        z0, size_x, size_z = domain_of(scene)
        rows = []
        for res in a.res:
            out = os.path.join(a.work, name, str(res))
            wall = float("nan")
            if not (a.reuse and glob.glob(os.path.join(out, f"*{a.frame:04d}.png"))):
                wall = run(a.plume, scene, res, a.frame, a.width, a.height, a.no_upres, out)
            share, bright, soot = image_measures(one(os.path.join(out, f"*{a.frame:04d}.png")))
            height, spread = smoke_measures(one(os.path.join(out, f"*{a.frame:04d}.vdb")))
            rows.append(dict(res=res, share=share, bright=bright, sparks=sparks_of(out, a.frame),
                             height=(height - z0) / size_z, spread=spread / size_x, soot=soot,
                             wall=wall))
        ref = rows[-1]

        def ratio(v, key):
            return f"{v / ref[key]:.2f}" if ref[key] else "-"

        print(f"\n### {name}, frame {a.frame}{' (no upres)' if a.no_upres else ''}\n")
        print("| cells | flame share | x | flame mean Y | x | sparks | x "
              "| smoke height | Δ | spread | Δ | soot Y | x | wall s |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['res']} | {100 * r['share']:.2f}% | {ratio(r['share'], 'share')} "
                  f"| {r['bright']:.0f} | {ratio(r['bright'], 'bright')} "
                  f"| {r['sparks']} | {ratio(r['sparks'], 'sparks')} "
                  f"| {100 * r['height']:.1f}% | {100 * (r['height'] - ref['height']):+.1f} "
                  f"| {100 * r['spread']:.1f}% | {100 * (r['spread'] - ref['spread']):+.1f} "
                  f"| {r['soot']:.0f} | {ratio(r['soot'], 'soot')} | {r['wall']:.0f} |")


if __name__ == "__main__":
    main()
