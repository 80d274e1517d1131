#!/usr/bin/env python3
"""plume side by side with Blender's Mantaflow and OpenVDB's vdb_render, measured
in one run on this machine: the README's Performance table (issue 16).

A manual measurement, not a test and not run in CI (it takes minutes and its
figures depend on the machine). Needs /usr/bin/time (GNU time), Blender 3.4
(`blender` on PATH, or --blender) and vdb_render (Debian: `apt-get install
libopenvdb-tools`).

    tests/bench/compare.py [--plume build/plume] [--work /tmp/plume-compare]

What it runs, each under `/usr/bin/time -v` (wall, user + system CPU, peak RSS):
  1. `plume bake scenes/bench.toml` at 64^3 and 128^3, --frames frames, with
     --stats: seconds per substep = simulation seconds / substeps;
  2. Blender's Mantaflow baking the same setup at the same resolution
     (tests/bench/mantaflow_bench.py): seconds per substep = the wall time of
     frames 2..F / the substeps Mantaflow took in them;
  3. `plume render-vdb` of the 128^3 bake's last frame at 1280x720 to MP4,
     the same with --png, and `vdb_render` of that frame to a PNG at 1280x720
     from plume's camera, interleaved, --render-reps times each.
Medians over the repetitions; a markdown table on stdout, the raw runs in
WORK/runs.csv. --plume takes any build, so the same command measures an old
and a new one.
"""
import argparse
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(cmd, log):
    """Runs cmd under GNU time -v; returns wall s, CPU s (user + sys), peak RSS MB."""
    stats = log + ".time"
    with open(log, "w") as out:
        rc = subprocess.call(["/usr/bin/time", "-v", "-o", stats] + cmd, stdout=out,
                             stderr=subprocess.STDOUT)
    if rc != 0:
        sys.exit(f"compare: failed ({rc}): {' '.join(cmd)}; see {log}")
    text = open(stats).read()

    def field(name):
        return re.search(re.escape(name) + r":\s*(\S+)", text).group(1)

    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, int(field("Maximum resident set size (kbytes)")) / 1000.0


def median(values):
    return statistics.median(values) if values else float("nan")


class Runs:
    """Every measured run, by label; written to runs.csv as it goes."""

    def __init__(self, path):
        self.rows = {}
        self.file = open(path, "w", newline="")
        self.csv = csv.writer(self.file)
        self.csv.writerow(["label", "wall_s", "cpu_s", "rss_mb", "substeps", "per_substep_s",
                           "load1"])

    def add(self, label, wall, cpu, rss, substeps=0, per_substep=float("nan")):
        self.rows.setdefault(label, []).append((wall, cpu, rss, substeps, per_substep))
        self.csv.writerow([label, f"{wall:.3f}", f"{cpu:.3f}", f"{rss:.1f}", substeps,
                           f"{per_substep:.4f}", f"{os.getloadavg()[0]:.2f}"])
        self.file.flush()

    def med(self, label, column):
        return median([r[column] for r in self.rows.get(label, [])])

    def count(self, label):
        return len(self.rows.get(label, []))


def bake_plume(a, runs, res, rep):
    out = os.path.join(a.work, f"plume{res}_{rep}")
    shutil.rmtree(out, ignore_errors=True)
    stats = out + ".csv"
    wall, cpu, rss = timed([a.plume, "bake", os.path.join(REPO, "scenes/bench.toml"), "--vdb", out,
                            "--set", f"domain.resolution={res}", "--set",
                            f"time.frames={a.frames}", "--stats", stats, "--quiet"],
                           out + ".log")
    rows = list(csv.DictReader(open(stats)))
    substeps = sum(int(r["substeps"]) for r in rows)
    sim = sum(float(r["sim_s"]) for r in rows)
    runs.add(f"plume{res}", wall, cpu, rss, substeps, sim / substeps)
    return out


def bake_mantaflow(a, runs, res, rep, frames):
    out = os.path.join(a.work, f"manta{res}_{rep}")
    shutil.rmtree(out, ignore_errors=True)
    log = out + ".log"
    wall, cpu, rss = timed([a.blender, "-b", "--factory-startup", "--python-exit-code", "1",
                            "--python", os.path.join(REPO, "tests/bench/mantaflow_bench.py"), "--",
                            out, str(res), str(frames)], log)
    line = [l for l in open(log) if l.startswith("mantaflow-bench:")][-1]
    f = dict(kv.split("=") for kv in line.split()[1:])
    substeps = int(f["substeps"])
    runs.add(f"manta{res}", wall, cpu, rss, substeps, float(f["stepped_s"]) / substeps)
    shutil.rmtree(out, ignore_errors=True)  # hundreds of MB at 128^3


def vdb_camera(path):
    """vdb_render options for plume's default camera (render/camera.cpp
    frameBox) on the density grid's active box: vertical fov 40 degrees at
    1280x720, looking +Y at the box's centre, Z up."""
    text = subprocess.run(["vdb_print", "-l", path], capture_output=True, text=True).stdout
    block = text[text.index("Name: density"):]
    lo, hi = re.search(r"Bounding box of active voxels: \[([^\]]*)\] -> \[([^\]]*)\]", block).groups()
    lo = [float(v) for v in lo.split(",")]
    hi = [float(v) for v in hi.split(",")]
    dx = float(re.search(r"voxel size: (\S+)", block).group(1))
    rows = re.findall(r"\[([-\d.e+, ]+)\]", block[block.index("index to world"):])[:4]
    shift = [float(v) for v in rows[3].split(",")[:3]]
    wmin = [(lo[i] - 0.5) * dx + shift[i] for i in range(3)]
    wmax = [(hi[i] + 0.5) * dx + shift[i] for i in range(3)]
    centre = [(wmin[i] + wmax[i]) / 2 for i in range(3)]
    half = [(wmax[i] - wmin[i]) / 2 for i in range(3)]
    tan_v = math.tan(math.radians(20.0))
    tan_h = tan_v * 1280 / 720
    distance = 0.0
    for oy in (-half[1], half[1]):
        distance = max(distance, half[0] * 1.08 / tan_h - oy, half[2] * 1.08 / tan_v - oy)
    eye = [centre[0], centre[1] - distance, centre[2]]
    fmt = lambda v: ",".join(f"{x:.5f}" for x in v)
    return ["-translate", fmt(eye), "-lookat", fmt(centre), "-up", "0,0,1",
            "-fov", f"{math.degrees(2 * math.atan(tan_h)):.4f}"]


def render(a, runs, frame):
    out = os.path.join(a.work, "render")
    os.makedirs(out, exist_ok=True)
    png = os.path.join(out, "png")
    commands = {}
    builds = [("", a.plume)] + ([(" (before)", a.before)] if a.before else [])
    for tag, plume in builds:
        commands["render-vdb" + tag] = [plume, "render-vdb", frame, "-o",
                                        os.path.join(out, "x.mp4"), "--quiet"]
        commands["render-vdb --png" + tag] = [plume, "render-vdb", frame, "-o",
                                              os.path.join(out, "x.mp4"), "--png", png, "--quiet"]
    if not a.skip_vdb_render:
        commands["vdb_render"] = (["vdb_render", frame, os.path.join(out, "vdb_render.png"),
                                   "-name", "density", "-res", "1280x720"] + vdb_camera(frame))
    for rep in range(a.render_reps):
        for label, cmd in commands.items():
            shutil.rmtree(png, ignore_errors=True)
            wall, cpu, rss = timed(cmd, os.path.join(out, label.replace(" ", "_") + ".log"))
            runs.add(label, wall, cpu, rss)
    return commands


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--plume", default=os.path.join(REPO, "build/plume"))
    p.add_argument("--blender", default=shutil.which("blender") or "/usr/bin/blender")
    p.add_argument("--work", default="/tmp/plume-compare")
    p.add_argument("--frames", type=int, default=48, help="frames per bake (default 48)")
    p.add_argument("--manta-frames-128", type=int, default=0,
                   help="frames of the 128^3 Mantaflow bake (default --frames; it takes minutes)")
    p.add_argument("--reps", type=int, default=3, help="repetitions of each 64^3 bake")
    p.add_argument("--reps-128", type=int, default=1, help="repetitions of each 128^3 bake")
    p.add_argument("--render-reps", type=int, default=5)
    p.add_argument("--skip-mantaflow", action="store_true")
    p.add_argument("--skip-vdb-render", action="store_true")
    p.add_argument("--render-only", metavar="VDB", help="only the render comparison, of this frame")
    p.add_argument("--before", metavar="PLUME",
                   help="another build's plume, rendered interleaved with --plume's")
    a = p.parse_args()
    a.plume = os.path.abspath(a.plume)
    a.before = os.path.abspath(a.before) if a.before else None
    a.manta_frames_128 = a.manta_frames_128 or a.frames
    os.makedirs(a.work, exist_ok=True)
    runs = Runs(os.path.join(a.work, "runs.csv"))
    load0 = os.getloadavg()
    started = time.monotonic()

    # Bakes, plume and Mantaflow in turn so both see the same load.
    frame = a.render_only
    if not frame:
        for rep in range(a.reps):
            bake_plume(a, runs, 64, rep)
            if not a.skip_mantaflow:
                bake_mantaflow(a, runs, 64, rep, a.frames)
        for rep in range(a.reps_128):
            out = bake_plume(a, runs, 128, rep)
            if not a.skip_mantaflow:
                bake_mantaflow(a, runs, 128, rep, a.manta_frames_128)
        frame = os.path.join(out, f"bench_{a.frames:04d}.vdb")
    commands = render(a, runs, frame)
    load1 = os.getloadavg()

    # The table.
    print(f"plume: {a.plume}; {os.cpu_count()} CPUs; load average {load0[0]:.2f} before, "
          f"{load1[0]:.2f} after; {time.monotonic() - started:.0f} s in all.\n")
    if not a.render_only:
        print(f"Bakes of scenes/bench.toml, {a.frames} frames (Mantaflow at 128^3: "
              f"{a.manta_frames_128}); medians of {a.reps} (64^3) and {a.reps_128} (128^3) runs:\n")
        # s/substep: wall, as defined above. CPU/substep: the whole process's
        # CPU time over its substeps (start-up and cache writes included),
        # the steadier figure on a shared machine.
        print("| bake | | wall | CPU | substeps | s/substep | CPU/substep | peak RSS |")
        print("|---|---|---|---|---|---|---|---|")
        for res in (64, 128):
            for name, label in (("plume", f"plume{res}"), ("Mantaflow", f"manta{res}")):
                cpu_per = median([r[1] / r[3] for r in runs.rows.get(label, [])])
                print(f"| {res}³ | {name} | {runs.med(label, 0):.1f} s | {runs.med(label, 1):.1f} s | "
                      f"{runs.med(label, 3):.0f} | {runs.med(label, 4):.3f} s | {cpu_per:.3f} s | "
                      f"{runs.med(label, 2):.0f} MB |")
            per = lambda label: median([r[1] / r[3] for r in runs.rows.get(label, [])])
            print(f"| {res}³ | Mantaflow / plume | | | | "
                  f"{runs.med(f'manta{res}', 4) / runs.med(f'plume{res}', 4):.1f}x | "
                  f"{per(f'manta{res}') / per(f'plume{res}'):.1f}x | |")
        print()
    print(f"The 128^3 frame ({frame}) at 1280x720, whole process, medians of "
          f"{a.render_reps} interleaved runs:\n")
    print("| command | wall | CPU | peak RSS | vdb_render / this, wall | CPU |")
    print("|---|---|---|---|---|---|")
    for label in commands:
        print(f"| {label} | {runs.med(label, 0):.3f} s | {runs.med(label, 1):.3f} s | "
              f"{runs.med(label, 2):.0f} MB | {runs.med('vdb_render', 0) / runs.med(label, 0):.2f}x | "
              f"{runs.med('vdb_render', 1) / runs.med(label, 1):.2f}x |")
    print("\nCommands:")
    for label, cmd in commands.items():
        print("  " + " ".join(cmd))
    print(f"\nEvery run: {os.path.join(a.work, 'runs.csv')}")


if __name__ == "__main__":
    main()
