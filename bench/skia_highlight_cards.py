#!/usr/bin/env python3
"""The skia-python peer for the highlight card (bench/highlight-card.json): 1080x1920 #E9446A,
the text wrapped greedily at 860 px in Noto Sans 56 px, centred, black, a white rounded
rectangle padded 16,4 behind each line; JPEG q90 (or PNG). One process; run two, each on half
of the rows, beside `hlrender batch --jobs 2`.

usage: skia_highlight_cards.py ROWS.csv OUT_DIR FONT_DIR jpg|png [SHARD K/N]"""
import csv
import os
import sys

import skia

rows_path, out_dir, font_dir, fmt = sys.argv[1:5]
k, n = map(int, (sys.argv[5] if len(sys.argv) > 5 else "0/1").split("/"))
os.makedirs(out_dir, exist_ok=True)
W, H, SIZE, WIDTH = 1080, 1920, 56, 860
font = skia.Font(skia.Typeface.MakeFromFile(os.path.join(font_dir, "NotoSans-Regular.ttf")), SIZE)
metrics = font.getMetrics()
line_height = metrics.fDescent - metrics.fAscent + metrics.fLeading
white, black = skia.Paint(Color=skia.ColorWHITE, AntiAlias=True), skia.Paint(Color=skia.ColorBLACK, AntiAlias=True)


def wrap(text):
    lines, line = [], ""
    for word in text.split():
        trial = (line + " " + word).strip()
        if line and font.measureText(trial) > WIDTH:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


with open(rows_path, newline="") as f:
    rows = list(csv.DictReader(f))
for row in rows[k::n]:
    surface = skia.Surface(W, H)
    canvas = surface.getCanvas()
    canvas.clear(skia.Color(0xE9, 0x44, 0x6A))
    lines = wrap(row["text"])
    top = (H - line_height * len(lines)) / 2
    for i, line in enumerate(lines):
        w = font.measureText(line)
        x, y = (W - w) / 2, top + i * line_height
        canvas.drawRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x - 16, y - 4, w + 32, line_height + 8), 12, 12), white)
        canvas.drawString(line, x, y - metrics.fAscent, font, black)
    image = surface.makeImageSnapshot()
    data = image.encodeToData(skia.kJPEG, 90) if fmt == "jpg" else image.encodeToData(skia.kPNG, 100)
    with open(os.path.join(out_dir, f"{row['id']}.{fmt}"), "wb") as out:
        out.write(bytes(data))
