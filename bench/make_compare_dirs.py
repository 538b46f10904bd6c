#!/usr/bin/env python3
"""Makes EXPECTED/ and ACTUAL/ for bench/compare_dirs.sh: PAIRS pairs of 1080x1920 PNG
"screenshots" (a header, text in the repository's Noto Sans, buttons, an avatar), 10% of them
changed in one known way each, the rest unchanged (two thirds byte-identical copies, one third
re-encoded at another zlib level: the same pixels in other bytes). kinds.json records what each
changed file is: shifted (with dx, dy), colour, anti-aliasing, size or changed.

usage: make_compare_dirs.py OUT_DIR [PAIRS]
"""
import json
import os
import shutil
import sys

from PIL import Image, ImageDraw, ImageFont

W, H = 1080, 1920
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT = os.path.join(ROOT, "fonts", "NotoSans-Regular.ttf")
BASES = 10


def screen(seed, supersample=2, shift=(0, 0), accent=(33, 110, 230), text_change=False, height=H, resample=Image.LANCZOS):
    """One screen drawn at `supersample`x and scaled down (the scaling makes the anti-aliasing)."""
    s = supersample
    img = Image.new("RGB", (W * s, height * s), (250, 250, 252))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 34 * s)
    small = ImageFont.truetype(FONT, 26 * s)
    d.rectangle([0, 0, W * s, 120 * s], fill=(30, 30, 40))
    d.text((40 * s, 34 * s), f"Inbox {seed}", font=font, fill=(255, 255, 255))
    dx, dy = shift[0] * s, shift[1] * s
    for row in range(12):
        y = (170 + row * 140) * s
        if y > (height - 140) * s:
            break
        d.ellipse([40 * s + dx, y + dy, 120 * s + dx, y + 80 * s + dy], fill=((seed * 40 + row * 20) % 255, 120, 160))
        words = f"Message {row} from person {seed * 7 + row}: lunch at {11 + row % 3}?"
        if text_change and row == 3:
            words = words.replace("lunch", "brunch")
        d.text((150 * s + dx, y + 4 * s + dy), words, font=small, fill=(20, 20, 30))
        d.text((150 * s + dx, y + 44 * s + dy), "Tap to open the conversation", font=small, fill=(120, 120, 130))
    d.rounded_rectangle([340 * s, (height - 150) * s, 740 * s, (height - 60) * s], radius=40 * s, fill=accent)
    d.text((440 * s, (height - 128) * s), "Compose", font=font, fill=(255, 255, 255))
    return img.resize((W, height), resample)


def antialiasing_variant(seed):
    """The base screen with each avatar's edge re-anti-aliased (drawn at 4x, box-filtered):
    the same shapes and colours, other edge pixels."""
    base, fine = screen(seed), screen(seed, supersample=4, resample=Image.BOX)
    for row in range(12):
        y = 170 + row * 140
        box = (36, y - 4, 124, y + 84)
        base.paste(fine.crop(box), box[:2])
    return base


def main():
    out = sys.argv[1]
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    expected, actual = os.path.join(out, "expected"), os.path.join(out, "actual")
    for folder in (expected, actual):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    cache = os.path.join(out, "cache")
    os.makedirs(cache, exist_ok=True)

    def made(name, build, level=6):
        path = os.path.join(cache, name + ".png")
        if not os.path.exists(path):
            build().save(path, compress_level=level)
        return path

    kinds = ["shifted", "colour", "anti-aliasing", "size", "changed"]
    record = {}
    for i in range(pairs):
        b = (i // 10 + i // 50) % BASES if i % 10 == 9 else i % BASES
        name = f"screens/{i // 100:02d}/screen-{i:04d}.png"
        base = made(f"base-{b}", lambda: screen(b))
        for folder in (expected, actual):
            os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
        shutil.copyfile(base, os.path.join(expected, name))
        target = os.path.join(actual, name)
        if i % 10 == 9:
            kind = kinds[(i // 10) % len(kinds)]
            if kind == "shifted":
                variant = made(f"shifted-{b}", lambda: screen(b, shift=(6, 4)))
                record[name] = {"why": "shifted", "dx": 6, "dy": 4}
            elif kind == "colour":
                variant = made(f"colour-{b}", lambda: screen(b, accent=(200, 60, 60)))
                record[name] = {"why": "colour"}
            elif kind == "anti-aliasing":
                variant = made(f"aa-{b}", lambda: antialiasing_variant(b))
                record[name] = {"why": "anti-aliasing"}
            elif kind == "size":
                variant = made(f"size-{b}", lambda: screen(b, height=1880))
                record[name] = {"why": "size"}
            else:
                variant = made(f"text-{b}", lambda: screen(b, text_change=True))
                record[name] = {"why": "changed"}
            shutil.copyfile(variant, target)
        elif i % 3 == 2:
            shutil.copyfile(made(f"reencoded-{b}", lambda: Image.open(base).copy(), level=1), target)
        else:
            shutil.copyfile(base, target)
    with open(os.path.join(out, "kinds.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    print(f"{pairs} pairs in {out}: {len(record)} changed")


if __name__ == "__main__":
    main()
