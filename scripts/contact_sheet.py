#!/usr/bin/env python3
"""A contact sheet of an animation's frames (animated WebP or APNG, read by Pillow): N frames
evenly spread over its length, side by side, scaled down. Usage: contact_sheet.py IN OUT.png [N]"""
import sys
from PIL import Image, ImageSequence

source, target = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 8
image = Image.open(source)
frames, times, clock = [], [], 0
for frame in ImageSequence.Iterator(image):
    frames.append(frame.convert("RGBA").copy())
    times.append(clock)
    clock += frame.info.get("duration", 0)
picks = [min(len(frames) - 1, round(i * (len(frames) - 1) / (count - 1))) for i in range(count)]
width = 240
height = round(frames[0].height * width / frames[0].width)
sheet = Image.new("RGBA", (count * (width + 8) + 8, height + 16), "white")
for slot, index in enumerate(picks):
    sheet.paste(frames[index].resize((width, height), Image.LANCZOS), (8 + slot * (width + 8), 8))
sheet.save(target)
print(f"{len(frames)} frames, {clock} ms; frames {picks} at ms {[times[i] for i in picks]}")
