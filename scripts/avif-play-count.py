#!/usr/bin/env python3
"""How many times libavif 1.x (an independent reader: the one Chromium and Pillow use) says an
animated AVIF plays, as JSON: its repetitionCount (-1 for ever, -2 unknown: no edit list, n:
n + 1 plays), frame count, timescale and one play's duration. Debian 12's libavif (0.11) reads
no repetition count, so this loads the libavif 1.x that Pillow's wheel bundles, through ctypes.
The avifDecoder fields up to repetitionCount are libavif 1.0.0's ABI ("Version 1.0.0 ends here"
in avif.h); the frame count read from them must match Pillow's own, or the layout is wrong and
this says so. Usage: avif-play-count.py FILE.avif (scripts/avif-play-count.sh runs it in a venv)"""
import ctypes
import glob
import json
import os
import sys

import PIL
from PIL import Image


class ImageTiming(ctypes.Structure):
    _fields_ = [("timescale", ctypes.c_uint64), ("pts", ctypes.c_double), ("ptsInTimescales", ctypes.c_uint64),
                ("duration", ctypes.c_double), ("durationInTimescales", ctypes.c_uint64)]


class Decoder(ctypes.Structure):
    # avifDecoder's inputs (eleven 32-bit fields), then its outputs up to repetitionCount.
    _fields_ = [("inputs", ctypes.c_uint32 * 11), ("image", ctypes.c_void_p), ("imageIndex", ctypes.c_int),
                ("imageCount", ctypes.c_int), ("progressiveState", ctypes.c_int), ("imageTiming", ImageTiming),
                ("timescale", ctypes.c_uint64), ("duration", ctypes.c_double),
                ("durationInTimescales", ctypes.c_uint64), ("repetitionCount", ctypes.c_int)]


def libavif():
    wheel_libs = os.path.join(os.path.dirname(os.path.dirname(PIL.__file__)), "pillow.libs")
    for path in sorted(glob.glob(os.path.join(wheel_libs, "libavif*.so*"))) + ["libavif.so.16"]:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        lib.avifVersion.restype = ctypes.c_char_p
        if int(lib.avifVersion().decode().split(".")[0]) >= 1:
            return lib
    sys.exit("no libavif 1.x found (Pillow's wheel bundles one)")


lib = libavif()
lib.avifDecoderCreate.restype = ctypes.POINTER(Decoder)
lib.avifDecoderSetIOMemory.argtypes = [ctypes.POINTER(Decoder), ctypes.c_char_p, ctypes.c_size_t]
lib.avifDecoderParse.argtypes = [ctypes.POINTER(Decoder)]
lib.avifDecoderDestroy.argtypes = [ctypes.POINTER(Decoder)]
data = open(sys.argv[1], "rb").read()
decoder = lib.avifDecoderCreate()
if lib.avifDecoderSetIOMemory(decoder, data, len(data)) != 0 or lib.avifDecoderParse(decoder) != 0:
    sys.exit(f"libavif {lib.avifVersion().decode()} cannot parse {sys.argv[1]}")
fields = decoder.contents
frames = getattr(Image.open(sys.argv[1]), "n_frames", 1)
if fields.imageCount != frames or fields.timescale == 0:
    sys.exit(f"avifDecoder layout mismatch: imageCount {fields.imageCount}, Pillow {frames} frames")
print(json.dumps({"libavif": lib.avifVersion().decode(), "repetitionCount": fields.repetitionCount,
                  "frames": fields.imageCount, "timescale": fields.timescale,
                  "durationInTimescales": fields.durationInTimescales}))
lib.avifDecoderDestroy(decoder)
