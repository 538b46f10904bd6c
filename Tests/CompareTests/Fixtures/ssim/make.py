#!/usr/bin/env python3
"""Makes the SSIM fixtures: 20 pairs of 8-bit grey PNGs (a drawn screen, 192x160, against
itself distorted: noise, blur, shifts, JPEG, brightness, contrast, a changed word) and
skimage.json with scikit-image's structural_similarity(a, b, data_range=255) for each pair,
the reference SSIMTests holds hlrender's scores to. Run from this folder; needs Pillow, numpy,
scikit-image (the versions are written into skimage.json)."""
import io
import json

import numpy as np
import PIL
import skimage
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from skimage.metrics import structural_similarity

FONT = "../../../../fonts/NotoSans-Regular.ttf"


def base(word="lunch"):
    img = Image.new("L", (192, 160), 245)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 192, 28], fill=40)
    d.text((8, 4), "Inbox", font=ImageFont.truetype(FONT, 18), fill=255)
    d.ellipse([8, 40, 48, 80], fill=110)
    d.text((56, 44), f"Meet for {word}?", font=ImageFont.truetype(FONT, 15), fill=20)
    d.rounded_rectangle([40, 110, 150, 145], radius=14, fill=90)
    return img


def jpeg(img, quality):
    out = io.BytesIO()
    img.save(out, "JPEG", quality=quality)
    return Image.open(io.BytesIO(out.getvalue())).convert("L")


def noise(img, sigma, seed):
    a = np.asarray(img).astype(float) + np.random.default_rng(seed).normal(0, sigma, (img.height, img.width))
    return Image.fromarray(np.clip(a, 0, 255).round().astype(np.uint8))


def shifted(img, dx, dy):
    out = Image.new("L", img.size, 245)
    out.paste(img, (dx, dy))
    return out


def levels(img, scale, offset):
    a = np.asarray(img).astype(float) * scale + offset
    return Image.fromarray(np.clip(a, 0, 255).round().astype(np.uint8))


a = base()
variants = [
    ("same", a), ("noise2", noise(a, 2, 1)), ("noise8", noise(a, 8, 2)), ("noise25", noise(a, 25, 3)),
    ("blur05", a.filter(ImageFilter.GaussianBlur(0.5))), ("blur15", a.filter(ImageFilter.GaussianBlur(1.5))),
    ("box3", a.filter(ImageFilter.BoxBlur(1))), ("shift1", shifted(a, 1, 0)), ("shift3", shifted(a, 3, 2)),
    ("shift8", shifted(a, 0, 8)), ("jpeg90", jpeg(a, 90)), ("jpeg50", jpeg(a, 50)), ("jpeg10", jpeg(a, 10)),
    ("brighter", levels(a, 1, 20)), ("darker", levels(a, 1, -40)), ("contrast", levels(a, 0.7, 40)),
    ("word", base("brunch")), ("invert", levels(a, -1, 255)), ("flat", Image.new("L", a.size, 128)),
    ("sharpen", a.filter(ImageFilter.SHARPEN)),
]
a.save("a.png")
scores = {}
for name, b in variants:
    b.save(f"{name}.png")
    scores[name] = structural_similarity(np.asarray(a), np.asarray(b), data_range=255)
json.dump({"scikit-image": skimage.__version__, "numpy": np.__version__, "pillow": PIL.__version__, "scores": scores},
          open("skimage.json", "w"), indent=1)
