#!/usr/bin/env python3
"""Two hlrender binaries side by side in one run (issue 36: renders within 5% of an earlier
build): bench/one_render.py's short render (the corpus's ja, en and ru paragraphs, 64 px, width
940, PNG), `steps` and `card` of examples/, a 20-page article on A4 pages (bench/make_article.py,
`render --page a4`), and bench/highlight_cards.sh's batch of 500
highlight cards (PNG and JPEG, --jobs 2). The binaries alternate run by run; medians and the
new/old ratio are printed. usage: versus.py OLD NEW [PAIRS] [BATCH_ROUNDS]"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
old, new = sys.argv[1], sys.argv[2]
pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 40
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 6
work = tempfile.mkdtemp()
text = os.path.join(work, "three.txt")
with open(text, "w", encoding="utf-8") as out:
    for name in ["ja", "en", "ru"]:
        with open(os.path.join(repo, "Tests", "Fixtures", "corpus", name + ".txt"), encoding="utf-8") as f:
            out.write(f.read())
article = os.path.join(work, "article.txt")
with open(article, "w", encoding="utf-8") as out:
    subprocess.run([sys.executable, os.path.join(repo, "bench", "make_article.py"), "20"], check=True, stdout=out)
rows = os.path.join(work, "rows.csv")
subprocess.run([sys.executable, os.path.join(repo, "bench", "make_highlight_rows.py"), "500", rows], check=True)
env = dict(os.environ, HLRENDER_FONT_DIR=os.path.join(repo, "fonts"))


def clock(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=repo)
    return time.perf_counter() - start


def cpu(command):
    """User + system seconds of the command and its threads: steadier than the wall clock on a
    shared 2-core VM, where another tenant's load moves a batch's wall time by 10-20%."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = clock(command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


jobs = {
    "render (one_render.py)": lambda b, t: [b, "render", "--text-file", text, "--size", "64", "--width", "940", "-o", f"{work}/{t}.png"],
    "steps": lambda b, t: [b, "steps", "--step", "Order placed", "--step", "Packed", "--step", "Shipped", "--current", "2",
                           "--highlight", "#FFE08A", "-o", f"{work}/{t}-steps.png"],
    "card examples/headline-gradient": lambda b, t: [b, "card", "examples/headline-gradient.json", "-o", f"{work}/{t}-card.png"],
    "pages (20-page article, A4)": lambda b, t: [b, "render", "--text-file", article, "--page", "a4", "-o", f"{work}/{t}-article.pdf"],
}
print(f"old: {old}\nnew: {new}")
for label, make in jobs.items():
    times = {"old": [], "new": []}
    for i in range(pairs):
        for tag, binary in (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old)):
            times[tag].append(clock(make(binary, tag)))
    o, n = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"{label}: old {o * 1000:.1f} ms, new {n * 1000:.1f} ms, new/old {n / o:.3f} (median of {pairs})")

for fmt in ["png", "jpg"]:
    walls = {"old": [], "new": []}
    cpus = {"old": [], "new": []}
    for i in range(rounds):
        for tag, binary in (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old)):
            folder = os.path.join(work, f"{tag}-{fmt}-{i}")
            wall, used = cpu([binary, "batch", "--template", "bench/highlight-card.json", "--data", rows,
                              "--output", "{{id}}." + fmt, "--out-dir", folder, "--jobs", "2", "--quiet",
                              "--no-system-fonts", "--quality", "90"])
            walls[tag].append(wall)
            cpus[tag].append(used)
    o, n = min(walls["old"]), min(walls["new"])
    co, cn = statistics.mean(cpus["old"]), statistics.mean(cpus["new"])
    print(f"highlight cards batch x500 {fmt}: old {500 / o:.0f} cards/s, new {500 / n:.0f} cards/s (best of {rounds}); "
          f"CPU old {co:.2f} s, new {cn:.2f} s, new/old {cn / co:.3f} (mean of {rounds})")
