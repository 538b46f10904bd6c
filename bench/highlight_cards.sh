#!/usr/bin/env bash
# The solid-colour highlight card (bench/highlight-card.json: 7 lines of 56 px Noto Sans in a
# white highlight on #E9446A, 1080x1920), 500 cards, hlrender batch --jobs 2 beside two
# skia-python processes (PyPI), PNG and JPEG q90: cards/s and bytes per card, then both JPEG
# encoders on the same pixels (hlrender's PNGs re-encoded by skia at q90). Issue targets:
# >= 200 cards/s as PNG; JPEG files no larger than skia's.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 -c 'import skia' 2>/dev/null || pip install -q skia-python
python3 bench/make_highlight_rows.py 500 "$out/rows.csv"
clock() { python3 -c 'import time; print(time.monotonic())'; }
report() {  # label, start, dir
  python3 -c "import sys, os; s = float(sys.argv[2]); d = sys.argv[3]; files = os.listdir(d)
print(f'{sys.argv[1]}: {len(files) / s:.0f} cards/s ({s:.2f} s for {len(files)}), {sum(os.path.getsize(os.path.join(d, f)) for f in files) // len(files)} bytes a card')" \
    "$1" "$(python3 -c "print($(clock) - $2)")" "$3"
}
for format in png jpg; do
  start=$(clock)
  "$bin" batch --template bench/highlight-card.json --data "$out/rows.csv" --output "{{id}}.$format" \
    --out-dir "$out/h-$format" --jobs 2 --quiet --no-system-fonts --quality 90
  report "hlrender batch --jobs 2, $format" "$start" "$out/h-$format"
  start=$(clock)
  python3 bench/skia_highlight_cards.py "$out/rows.csv" "$out/s-$format" fonts "$format" 0/2 2>/dev/null &
  python3 bench/skia_highlight_cards.py "$out/rows.csv" "$out/s-$format" fonts "$format" 1/2 2>/dev/null &
  wait
  report "skia-python x2, $format" "$start" "$out/s-$format"
done
python3 - "$out" <<'PY'
import os, sys, skia
out = sys.argv[1]
names = sorted(os.listdir(os.path.join(out, "h-png")))[:100]
ours = sum(os.path.getsize(os.path.join(out, "h-jpg", n[:-3] + "jpg")) for n in names)
theirs = sum(len(bytes(skia.Image.open(os.path.join(out, "h-png", n)).encodeToData(skia.kJPEG, 90))) for n in names)
print(f"JPEG q90 of the same pixels (100 cards): hlrender {ours // len(names)} bytes a card, skia {theirs // len(names)}")
PY
