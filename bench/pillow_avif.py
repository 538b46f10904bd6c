#!/usr/bin/env python3
"""Pillow's AVIF encoder on the same pixels as hlrender's AVIF cards: every PNG in IN_DIR,
decoded first (not timed), encoded as AVIF at the same quality and speed (timed), written to
OUT_DIR. Prints seconds and bytes. usage: pillow_avif.py IN_DIR OUT_DIR QUALITY SPEED"""
import os
import sys
import time

from PIL import Image, features

source, target, quality, speed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if not features.check("avif"):
    sys.exit("this Pillow has no AVIF support (Pillow 11.3 wheels do)")
os.makedirs(target, exist_ok=True)
names = sorted(n for n in os.listdir(source) if n.endswith(".png"))
images = [(n, Image.open(os.path.join(source, n)).convert("RGB")) for n in names]
for _, im in images:
    im.load()
start = time.monotonic()
total = 0
for name, im in images:
    out = os.path.join(target, name[:-4] + ".avif")
    im.save(out, "AVIF", quality=quality, speed=speed, subsampling="4:2:0", max_threads=1)
    total += os.path.getsize(out)
seconds = time.monotonic() - start
print(f"{seconds:.2f} {total} {len(images)}")
