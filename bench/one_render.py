#!/usr/bin/env python3
"""One short render against pango-view, as issue 23 measures it: the corpus's ja, en and ru
paragraphs, 64 px, width 940, system fonts on, PNG out; the two commands alternate for PAIRS
pairs (default 40) and the median of the per-pair ratios is printed (target: hlrender at most
0.3x pango-view). usage: one_render.py HLRENDER [PAIRS]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary, pairs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
work = tempfile.mkdtemp()
text = os.path.join(work, "three.txt")
with open(text, "w", encoding="utf-8") as out:
    for name in ["ja", "en", "ru"]:
        with open(os.path.join(repo, "Tests", "Fixtures", "corpus", name + ".txt"), encoding="utf-8") as f:
            out.write(f.read())
ours = [binary, "render", "--text-file", text, "--size", "64", "--width", "940", "-o", os.path.join(work, "h.png")]
peer = ["pango-view", "--dpi=72", "--font=Noto Sans 64", "--width=940", "-q", "-o", os.path.join(work, "p.png"), text]


def clock(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


for _ in range(5):  # warm the page cache and font caches
    clock(ours), clock(peer)
times = [(clock(ours), clock(peer)) for _ in range(pairs)]
h = statistics.median(t[0] for t in times) * 1000
p = statistics.median(t[1] for t in times) * 1000
ratio = statistics.median(t[0] / t[1] for t in times)
print(f"one render (ja+en+ru, 64 px, width 940), {pairs} alternating pairs: hlrender {h:.1f} ms, pango-view {p:.1f} ms, "
      f"median ratio {ratio:.2f}x")
