#!/usr/bin/env python3
"""The peer side of bench/compare_dirs.sh: pixelmatch-fast (PyPI) over the pairs of two
folders matched by relative path, this process taking every Nth pair from K. Prints one JSON
object: relative path -> different pixels, or "size" when the sizes differ (pixelmatch
compares same-size images only).

usage: pixelmatch_dirs.py EXPECTED ACTUAL K N
"""
import json
import os
import sys

import numpy as np
import pixelmatch
from PIL import Image


def images(root):
    out = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.lower().endswith((".png", ".jpg", ".jpeg", ".webp")):
                out.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(out)


def main():
    expected, actual, k, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    counts = {}
    for i, path in enumerate(images(expected)):
        if i % n != k:
            continue
        a = Image.open(os.path.join(expected, path)).convert("RGBA")
        b = Image.open(os.path.join(actual, path)).convert("RGBA")
        if a.size != b.size:
            counts[path] = "size"
            continue
        counts[path] = pixelmatch.pixelmatch(a, b, threshold=0.1)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
