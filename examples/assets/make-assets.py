#!/usr/bin/env python3
"""Draws the example cards' pictures (no third-party images): a dusk landscape as a JPEG and a
round logo as a PNG with transparency. Needs Pillow. Run from this folder."""
from PIL import Image, ImageDraw, ImageFilter

W, H = 1080, 1350
sky = Image.new("RGB", (W, H))
d = ImageDraw.Draw(sky)
top, bottom = (38, 52, 112), (244, 151, 102)
for y in range(H):
    t = y / (H - 1)
    d.line([(0, y), (W, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom)))
d.ellipse([640, 640, 900, 900], fill=(255, 214, 140))
for i, (color, base) in enumerate([((92, 62, 96), 930), ((60, 40, 70), 1030), ((30, 24, 40), 1150)]):
    points = [(0, H)] + [(x, base - 90 * abs(((x / W) * (3 + i) + i * 0.37) % 2 - 1)) for x in range(0, W + 1, 40)] + [(W, H)]
    d.polygon(points, fill=color)
sky = sky.filter(ImageFilter.GaussianBlur(1.2))
sky.save("dusk.jpg", quality=85, optimize=True)

logo = Image.new("RGBA", (320, 320), (0, 0, 0, 0))
d = ImageDraw.Draw(logo)
d.ellipse([8, 8, 312, 312], fill=(255, 255, 255, 235))
d.ellipse([60, 60, 260, 260], fill=(233, 68, 106, 255))
d.polygon([(130, 105), (130, 215), (220, 160)], fill=(255, 255, 255, 255))
logo.save("logo.png", optimize=True)
