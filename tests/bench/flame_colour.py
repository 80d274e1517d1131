#!/usr/bin/env python3
"""The colour of a fire still's flame cores, as issue 38 measures it.

Usage: flame_colour.py PNG...

Flame pixels are the warm ones (8-bit sRGB R > G + 8); of those, the
brightest 2% by luminance are the cores. Prints their mean sRGB and the
ratio of their mean blue to their mean red: a red-orange glow is about 0.3,
yellow-white cores 0.45 or more. Needs numpy and Pillow (Debian's
python3-numpy, python3-pil).
"""
import sys

import numpy as np
from PIL import Image


def cores(path):
    a = np.asarray(Image.open(path).convert("RGB")).astype(float)
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    flame = r > g + 8
    if not flame.any():
        sys.exit(f"{path}: no flame pixels")
    top = flame & (lum >= np.quantile(lum[flame], 0.98))
    return top.sum(), r[top].mean(), g[top].mean(), b[top].mean()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        n, r, g, b = cores(path)
        print(f"{path}: brightest 2% of flame pixels ({n}): sRGB {r:.0f} {g:.0f} {b:.0f}, blue/red {b / r:.3f}")
