#!/usr/bin/env python3
"""What Pillow (an independent decoder) reads from an animated WebP or APNG, as JSON:
frame count, each frame's duration, the loop count, and the largest channel difference
between the last frame and a still PNG. With a box (x,y,w,h), also the largest difference
between horizontal neighbours inside it in any frame: sharp text has steep edges, a blur
does not. Usage: animation_frames.py ANIMATION STILL.png [x,y,w,h]"""
import json
import sys
from PIL import Image, ImageChops, ImageSequence

animation = Image.open(sys.argv[1])
still = Image.open(sys.argv[2]).convert("RGBA")
box = [int(float(v)) for v in sys.argv[3].split(",")] if len(sys.argv) > 3 else None
durations, last, steepest = [], None, 0
for frame in ImageSequence.Iterator(animation):
    durations.append(frame.info.get("duration", 0))
    last = frame.convert("RGBA").copy()
    if box:
        x, y, w, h = box
        region = last.crop((x, y, x + w, y + h)).convert("L")
        shifted = region.crop((1, 0, w, h))
        edges = ImageChops.difference(region.crop((0, 0, w - 1, h)), shifted)
        steepest = max(steepest, edges.getextrema()[1])
difference = ImageChops.difference(last, still)
print(json.dumps({
    "format": animation.format, "frames": len(durations), "durations": durations,
    "loop": animation.info.get("loop"), "size": list(animation.size),
    "lastVsStill": max(high for _, high in difference.getextrema()), "steepest": steepest,
}))
