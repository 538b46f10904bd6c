#!/usr/bin/env python3
"""How far each frame of an animated WebP or APNG (read by Pillow, a decoder we did not
write) is from a still PNG inside given boxes: for every frame, the largest channel
difference in each box. Usage: animation_regions.py ANIMATION STILL.png "x,y,w,h;x,y,w,h" """
import json
import sys
from PIL import Image, ImageChops, ImageSequence

animation = Image.open(sys.argv[1])
still = Image.open(sys.argv[2]).convert("RGBA")
boxes = [[int(float(v)) for v in part.split(",")] for part in sys.argv[3].split(";")]
durations, regions = [], []
for frame in ImageSequence.Iterator(animation):
    durations.append(frame.info.get("duration", 0))
    pixels = frame.convert("RGBA")
    row = []
    for x, y, w, h in boxes:
        difference = ImageChops.difference(pixels.crop((x, y, x + w, y + h)), still.crop((x, y, x + w, y + h)))
        row.append(max(high for _, high in difference.getextrema()))
    regions.append(row)
print(json.dumps({"durations": durations, "regions": regions}))
