#!/usr/bin/env python3
"""Issue 27's two figures: render-vdb of a frame range against vdb_render, and the whole default job.

1. `plume render-vdb` of a 12-frame range (default 37-48) of a 128^3 bake of
   scenes/bench.toml at 1280x720 with 2 threads, one process for the range,
   its wall and CPU divided by the frames; against OpenVDB's `vdb_render`
   (Debian: `apt-get install libopenvdb-tools`) run once per frame on the same
   frames at the same size, from plume's camera (compare.py's vdb_camera).
   The bake is plume's own (`plume bake scenes/bench.toml --set
   domain.resolution=128`, made once into --work unless --bake names one):
   Blender's Mantaflow cache of the issue can be given with --bake DIR
   --pattern NAME_####.vdb.
2. The whole default job, `plume render scenes/plume.toml --set
   render.width=1920 --set render.height=1080` under /usr/bin/time, with its
   split from the --stats CSV (sim_s is simulation and upres together;
   render_s the frames' rendering; write_s tone mapping and encoding).

Prints medians over --reps runs (runs interleaved) and the ratios, and the
load average before and after (the machine is shared: compare figures of one
run only). --before OLD_PLUME adds the same rows for another build.
"""
import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import REPO, median, timed, vdb_camera  # noqa: E402


def load():
    return open("/proc/loadavg").read().split()[:3]


def frame_range(text):
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def ensure_bake(a):
    if a.bake:
        return a.bake
    bake = os.path.join(a.work, "bench128")
    if not glob.glob(os.path.join(bake, "*.vdb")):
        cmd = [a.plume, "bake", os.path.join(REPO, "scenes/bench.toml"), "--set",
               "domain.resolution=128", "--vdb", bake, "--quiet"]
        print("baking:", " ".join(cmd), flush=True)
        subprocess.check_call(cmd)
    return bake


def render_vdb_rows(a, bake, frames, rows):
    pattern = os.path.join(bake, a.pattern)
    builds = [("render-vdb", a.plume)] + ([("render-vdb (before)", a.before)] if a.before else [])
    out = os.path.join(a.work, "render")
    os.makedirs(out, exist_ok=True)
    for rep in range(a.reps):
        for label, plume in builds:
            cmd = [plume, "render-vdb", pattern, "--frames", f"{frames[0]}-{frames[-1]}",
                   "--threads", str(a.threads), "-o", os.path.join(out, "x.mp4"), "--quiet",
                   "--set", f"render.width={a.width}", "--set", f"render.height={a.height}"]
            wall, cpu, rss = timed(cmd, os.path.join(out, label.replace(" ", "_") + ".log"))
            rows.setdefault(label, []).append((wall / len(frames), cpu / len(frames), rss))
        if a.skip_vdb_render:
            continue
        # vdb_render: one process a frame, framed on that frame's box as
        # plume frames each frame (render/camera.cpp frameBox).
        for f in frames:
            path = pattern.replace("####", f"{f:04d}")
            cmd = (["vdb_render", path, os.path.join(out, "vdb_render.png"), "-name", "density",
                    "-res", f"{a.width}x{a.height}"] + vdb_camera(path))
            wall, cpu, rss = timed(cmd, os.path.join(out, "vdb_render.log"))
            rows.setdefault("vdb_render", []).append((wall, cpu, rss))


def job_rows(a, rows):
    out = os.path.join(a.work, "job")
    os.makedirs(out, exist_ok=True)
    builds = [("job", a.plume)] + ([("job (before)", a.before)] if a.before else [])
    for rep in range(a.job_reps):
        for label, plume in builds:
            stats = os.path.join(out, label.replace(" ", "_") + ".csv")
            cmd = [plume, "render", os.path.join(REPO, "scenes/plume.toml"), "--set",
                   f"render.width={a.job_width}", "--set", f"render.height={a.job_height}",
                   "-o", os.path.join(out, "job.mp4"), "--stats", stats, "--quiet"]
            wall, cpu, rss = timed(cmd, os.path.join(out, label.replace(" ", "_") + ".log"))
            with open(stats) as f:
                table = list(csv.DictReader(f))
            split = [sum(float(r[c]) for r in table) for c in ("sim_s", "render_s", "write_s")]
            rows.setdefault(label, []).append((wall, cpu, rss, *split, len(table)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--plume", default=os.path.join(REPO, "build/plume"))
    p.add_argument("--before", metavar="PLUME", help="another build to run beside it")
    p.add_argument("--work", default="/tmp/plume-render-speed")
    p.add_argument("--bake", metavar="DIR", help="a 128^3 bake of bench.toml (default: make one)")
    p.add_argument("--pattern", default="bench_####.vdb", help="file names in --bake")
    p.add_argument("--frames", default="37-48")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--reps", type=int, default=3, help="runs of the render-vdb range")
    p.add_argument("--skip-vdb-render", action="store_true")
    p.add_argument("--job-reps", type=int, default=1, help="runs of the whole job (0: none)")
    p.add_argument("--job-width", type=int, default=1920)
    p.add_argument("--job-height", type=int, default=1080)
    a = p.parse_args()
    if not a.skip_vdb_render and not shutil.which("vdb_render"):
        sys.exit("render_speed: no vdb_render (apt-get install libopenvdb-tools), or --skip-vdb-render")
    os.makedirs(a.work, exist_ok=True)
    print("load average before:", " ".join(load()), flush=True)
    frames = frame_range(a.frames)
    rows = {}
    render_vdb_rows(a, ensure_bake(a), frames, rows)
    job_rows(a, rows)
    print("load average after:", " ".join(load()))

    med = lambda label, col: median([r[col] for r in rows[label]])
    print(f"\nper frame, frames {a.frames} at {a.width}x{a.height}, {a.threads} threads "
          f"(medians of {a.reps} runs; vdb_render of {a.reps * len(frames)} frames)")
    print("| command | wall s/frame | CPU s/frame | peak RSS | vdb_render / this, wall | CPU |")
    print("|---|---|---|---|---|---|")
    for label in rows:
        if label.startswith("job"):
            continue
        ratio = ""
        if "vdb_render" in rows and label != "vdb_render":
            ratio = (f"{med('vdb_render', 0) / med(label, 0):.2f}x | "
                     f"{med('vdb_render', 1) / med(label, 1):.2f}x")
        else:
            ratio = " | "
        print(f"| {label} | {med(label, 0):.3f} | {med(label, 1):.3f} | {med(label, 2):.0f} MB | "
              f"{ratio} |")
    if a.job_reps:
        print(f"\nthe default job at {a.job_width}x{a.job_height} (medians of {a.job_reps})")
        print("| command | wall | CPU | peak RSS | sim_s (with upres) | render_s | write_s | frames |")
        print("|---|---|---|---|---|---|---|---|")
        for label in rows:
            if label.startswith("job"):
                print(f"| {label} | {med(label, 0):.1f} s | {med(label, 1):.1f} s | "
                      f"{med(label, 2):.0f} MB | {med(label, 3):.1f} s | {med(label, 4):.1f} s | "
                      f"{med(label, 5):.1f} s | {med(label, 6):.0f} |")


if __name__ == "__main__":
    main()
