#!/usr/bin/env python3
"""Writes the PNG-encoding fixtures: one 16x8 gradient image stored several ways. Every file
decodes to the same 8-bit values when stored values are read (no gamma conversion), which is
what pixelmatch, odiff and Pillow do. Run from this folder; needs only the standard library."""
import struct, zlib

W, H = 16, 8

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(color_type, depth, rows, extra=b""):
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

def value(x, y):  # 8-bit grey level of the reference image
    return (x * 16 + y * 2) % 256

def rgb8(x, y):
    v = value(x, y)
    return (v, 255 - v, (v * 3) % 256)

rows8 = [b"".join(bytes(rgb8(x, y)) for x in range(W)) for y in range(H)]
# 16-bit samples v * 257 scale back to exactly v.
rows16 = [b"".join(struct.pack(">HHH", *(c * 257 for c in rgb8(x, y))) for x in range(W)) for y in range(H)]
grey8 = [bytes(value(x, y) for x in range(W)) for y in range(H)]
grey16 = [b"".join(struct.pack(">H", value(x, y) * 257) for x in range(W)) for y in range(H)]
gamma_1 = chunk(b"gAMA", struct.pack(">I", 100000))  # linear light

files = {
    "rgb8.png": png(2, 8, rows8),
    "rgb16.png": png(2, 16, rows16),
    "rgb8-gamma1.png": png(2, 8, rows8, gamma_1),
    "grey8.png": png(0, 8, grey8),
    "grey16.png": png(0, 16, grey16),
    "grey16-gamma1.png": png(0, 16, grey16, gamma_1),
}
for name, data in files.items():
    open(name, "wb").write(data)
