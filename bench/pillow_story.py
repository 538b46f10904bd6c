"""What the Pillow peers of the story benchmarks share: the story cards' three-stop vertical
gradient (#833AB4, #FD1D1D, #FCB045), made once per process as a fair script would."""
from PIL import Image

STOPS = [(0x83, 0x3A, 0xB4), (0xFD, 0x1D, 0x1D), (0xFC, 0xB0, 0x45)]


def story_gradient(width, height):
    """The gradient as an RGB image of width x height."""
    column = Image.new("RGB", (1, height))
    for y in range(height):
        t = y / (height - 1) * 2
        i = min(int(t), 1)
        a, b, f = STOPS[i], STOPS[i + 1], t - i
        column.putpixel((0, y), tuple(round(a[c] + (b[c] - a[c]) * f) for c in range(3)))
    return column.resize((width, height))
