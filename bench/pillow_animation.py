#!/usr/bin/env python3
"""The peer for bench/animation.sh: Pillow drawing the same story animation as
bench/animation-story.json (1080x1920, a three-stop vertical gradient, three centred lines of
72 px Noto Sans; each line fades in and rises 0.6 s with ease-out, 0.15 s apart; a rounded
#000000CC box behind each line sweeps left to right, 0.45 s a line, one after the other), 3 s at
30 fps, saved as an animated WebP (quality 90, method 2, as hlrender's), one process. Pillow has
no joined outline: one rounded rectangle a line.

usage: pillow_animation.py OUT.webp FONT_DIR"""
import os
import sys

from PIL import Image, ImageDraw, ImageFont

from pillow_story import story_gradient

out, font_dir = sys.argv[1], sys.argv[2]
W, H, FPS, SECONDS = 1080, 1920, 30, 3
font = ImageFont.truetype(os.path.join(font_dir, "NotoSans-Regular.ttf"), 72)
lines = ["Stories disappear after a day,", "but the way they look stays", "with the people who saw them"]

gradient = story_gradient(W, H).convert("RGBA")


def ease_out(x):
    """CSS ease-out, cubic-bezier(0, 0, 0.58, 1), by bisection."""
    x = min(max(x, 0.0), 1.0)
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        u = 1 - mid
        if 3 * u * mid * mid * 0.58 + mid ** 3 < x:
            lo = mid
        else:
            hi = mid
    t = (lo + hi) / 2
    u = 1 - t
    return 3 * u * t * t + t ** 3


def progress(t, begin, duration):
    return 0.0 if t <= begin else 1.0 if t >= begin + duration else ease_out((t - begin) / duration)


line_height = 98
top = (H - line_height * len(lines)) // 2
widths = [font.getlength(line) for line in lines]
frames = []
for frame in range(FPS * SECONDS):
    t = frame / FPS
    image = gradient.copy()
    boxes = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(boxes)
    for i, width in enumerate(widths):
        sweep = progress(t, 0.45 * i, 0.45)
        if sweep > 0:
            x = (W - width) / 2
            y = top + i * line_height
            draw.rounded_rectangle((x - 14, y, x - 14 + (width + 28) * sweep, y + line_height), radius=16, fill=(0, 0, 0, 204))
    image.alpha_composite(boxes)
    for i, line in enumerate(lines):
        p = progress(t, 0.15 * i, 0.6)
        if p <= 0:
            continue
        layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        ImageDraw.Draw(layer).text(((W - widths[i]) / 2, top + i * line_height + (1 - p) * 0.35 * line_height + 10), line,
                                   font=font, fill=(255, 255, 255, round(255 * p)))
        image.alpha_composite(layer)
    frames.append(image.convert("RGB"))
frames[0].save(out, save_all=True, append_images=frames[1:], duration=round(1000 / FPS), loop=0, quality=90, method=2)
