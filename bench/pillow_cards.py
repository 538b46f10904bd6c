#!/usr/bin/env python3
"""The peer for `hlrender batch`: a plain Pillow script rendering comparable story cards
(1080x1920, a three-stop vertical gradient, a wrapped bold headline, a caption with a rounded
rectangle behind each line), PNG out, one process. Run two of these at once, each on half of the
rows, to compare with `hlrender batch --jobs 2`.

usage: pillow_cards.py ROWS.csv OUT_DIR FONT_DIR [SHARD K/N]"""
import csv
import os
import sys

from PIL import Image, ImageDraw, ImageFont

from pillow_story import story_gradient

rows_path, out_dir, font_dir = sys.argv[1], sys.argv[2], sys.argv[3]
k, n = map(int, (sys.argv[4] if len(sys.argv) > 4 else "0/1").split("/"))
os.makedirs(out_dir, exist_ok=True)
W, H = 1080, 1920
bold = ImageFont.truetype(os.path.join(font_dir, "NotoSans-Bold.ttf"), 96)
regular = ImageFont.truetype(os.path.join(font_dir, "NotoSans-Regular.ttf"), 48)

# The gradient is made once, as a fair script would.
gradient = story_gradient(W, H)


def wrap(draw, text, font, width):
    lines, line = [], ""
    for word in text.split():
        candidate = (line + " " + word).strip()
        if draw.textlength(candidate, font=font) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


with open(rows_path, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
for index, row in enumerate(rows):
    if index % n != k:
        continue
    image = gradient.copy()
    draw = ImageDraw.Draw(image)
    y = 160
    for line in wrap(draw, row["title"], bold, 900):
        width = draw.textlength(line, font=bold)
        draw.text(((W - width) / 2, y), line, font=bold, fill="white")
        y += 120
    lines = wrap(draw, row["caption"], regular, 900)
    y = H - 200 - 70 * len(lines)
    for line in lines:
        width = draw.textlength(line, font=regular)
        x = (W - width) / 2
        draw.rounded_rectangle((x - 14, y - 4, x + width + 14, y + 66), radius=16, fill=(0, 0, 0, 170))
        draw.text((x, y), line, font=regular, fill="white")
        y += 70
    image.save(os.path.join(out_dir, row["id"] + ".png"))
