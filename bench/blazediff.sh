#!/usr/bin/env bash
# bench/blazediff.sh [RUNS] [WORK_DIR]: `hlrender compare` on same-size pairs (a 3840x2160
# screen and a 1080x1920 story, 40 discs drawn over the actual one; the story again with every
# pixel changed, its colours inverted) against blazediff 6 (PyPI, Rust SIMD) over the same
# files, side by side in one run. blazediff is timed inside one Python process (its own figure,
# no interpreter start); hlrender as a whole process (start, both PNG decodes, the count and
# why it differs), with --count-aa (every pixel over the threshold counted, as blazediff's
# antialiasing=False) and by default (anti-aliasing told apart, as blazediff's
# antialiasing=True); the counts are checked equal in both modes.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
work=${2:-${TMPDIR:-/tmp}/hlrender-blazediff}
python3 -c "import blazediff, PIL" 2>/dev/null || pip install -q blazediff pillow
[[ -x .build/release/hlrender ]] || scripts/swift-release.sh --product hlrender >/dev/null
mkdir -p "$work"
python3 - "$work" <<'PY'
import random, sys
from PIL import Image, ImageDraw
work = sys.argv[1]
random.seed(3)
for name, (w, h) in [("4k", (3840, 2160)), ("story", (1080, 1920))]:
    a = Image.new("RGB", (w, h), (240, 240, 236))
    d = ImageDraw.Draw(a)
    for _ in range(300):
        x, y = random.randrange(w), random.randrange(h)
        d.rectangle([x, y, x + random.randrange(20, 200), y + random.randrange(10, 60)],
                    fill=(random.randrange(256), random.randrange(256), random.randrange(256)))
    a.save(f"{work}/{name}-a.png")
    d = ImageDraw.Draw(a)
    for _ in range(40):
        x, y, r = random.randrange(w), random.randrange(h), random.randrange(10, 40)
        d.ellipse([x - r, y - r, x + r, y + r], fill=(200, 30, 30))
    a.save(f"{work}/{name}-b.png")
a = Image.open(f"{work}/story-a.png")
a.save(f"{work}/inverted-a.png")
Image.eval(a, lambda v: 255 - v).save(f"{work}/inverted-b.png")
PY
for name in 4k story inverted; do
    a="$work/$name-a.png" b="$work/$name-b.png"
    count_of() { .build/release/hlrender compare "$a" "$b" --json "$@" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["different_pixels"], r.get("why", ""))' || true; }
    ours=$(count_of --count-aa)
    ours_default=$(count_of)
    time_of() {
        local best=999
        for _ in $(seq "$runs"); do
            t0=$(date +%s.%N); .build/release/hlrender compare "$a" "$b" --json "$@" >/dev/null || true; t1=$(date +%s.%N)
            best=$(python3 -c "print(min($best, $t1 - $t0))")
        done
        echo "$best"
    }
    counted=$(time_of --count-aa)
    default=$(time_of)
    python3 - "$a" "$b" "$runs" "$counted" "$ours" "$name" "$default" "$ours_default" <<'PY'
import sys, time, blazediff
a, b, runs, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[6]
def peer(antialiasing):
    best, count = 1e9, None
    for _ in range(runs):
        t0 = time.perf_counter(); r = blazediff.compare(a, b, antialiasing=antialiasing); best = min(best, time.perf_counter() - t0)
        count = r.diff_count
    return best, count
def line(label, ours_s, ours, peer_label, antialiasing):
    best, count = peer(antialiasing)
    ours_count, why = (ours.split() + [""])[:2]
    same = "same count" if int(ours_count) == count else f"COUNTS DIFFER ({ours_count} vs {count})"
    print(f"{name:8} {label:34} {ours_s:6.3f} s   {peer_label:34} {best:6.3f} s   "
          f"hlrender/blazediff {ours_s / best:4.2f}x   {same}: {count} px, why: {why}")
# Every pixel over the threshold counted, then anti-aliasing told apart (pixelmatch's test in both).
line("hlrender compare --count-aa", float(sys.argv[4]), sys.argv[5], "blazediff antialiasing=False", False)
line("hlrender compare (default)", float(sys.argv[7]), sys.argv[8], "blazediff antialiasing=True", True)
PY
done
