#!/usr/bin/env bash
# AVIF in batch, side by side in one run: hlrender batch writing 500 story cards (1080x1920) as
# WebP and as AVIF (two workers, quality 90, AVIF speed 8: the target is at least a third of
# the WebP rate), then Pillow's AVIF encoder (libavif in its wheel) on the same pixels at the
# same quality and speed, two processes, for time and size. Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
venv=.build/bench-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'from PIL import features; assert features.check("avif")' 2>/dev/null \
  || "$venv/bin/pip" install -q "pillow>=11.3"
n=${AVIF_CARDS:-500}
python3 bench/make_rows.py "$n" "$out/rows.csv"
clock() { python3 -c 'import time; print(time.monotonic())'; }
declare -A seconds
for format in webp avif png; do
  start=$(clock)
  "$bin" batch --template bench/story-card.json --data "$out/rows.csv" --output "{{id}}.$format" \
    --out-dir "$out/$format" --jobs 2 --quiet --no-system-fonts >/dev/null 2>&1
  seconds[$format]=$(python3 -c "print(round($(clock) - $start, 2))")
  bytes=$(du -sb "$out/$format" | cut -f1)
  printf 'hlrender batch --jobs 2, %d cards, %-4s  %6.2f s  %6.1f cards/s  %7d bytes/card\n' "$n" "$format" "${seconds[$format]}" \
    "$(python3 -c "print($n / ${seconds[$format]})")" $((bytes / n))
done
python3 -c "w, a = ${seconds[webp]}, ${seconds[avif]}; print(f'AVIF rate / WebP rate: {w / a:.2f} (target >= 0.33)')"
# Pillow on hlrender's PNGs (the same pixels), split over two processes as the batch's two workers.
mkdir -p "$out/png0" "$out/png1"
i=0; for f in "$out"/png/*.png; do mv "$f" "$out/png$((i % 2))/"; i=$((i + 1)); done
start=$(clock)
"$venv/bin/python" bench/pillow_avif.py "$out/png0" "$out/pil" 90 8 > "$out/p0" &
"$venv/bin/python" bench/pillow_avif.py "$out/png1" "$out/pil" 90 8 > "$out/p1" &
wait
wall=$(python3 -c "print(round($(clock) - $start, 2))")
read -r s0 b0 n0 < "$out/p0"; read -r s1 b1 n1 < "$out/p1"
python3 -c "
encode = max($s0, $s1); n = $n0 + $n1; size = ($b0 + $b1) // n
mine = sum(f.stat().st_size for f in __import__('pathlib').Path('$out/avif').iterdir()) // n
print(f'Pillow AVIF (q90, speed 8, 4:2:0, two processes) on the same {n} cards: encode only {encode:.2f} s '
      f'({n / encode:.1f} cards/s, decoding excluded; {$wall:.2f} s wall with start-up and decoding), {size} bytes/card')
print(f'hlrender AVIF {mine} bytes/card: {mine / size:.2f}x Pillow\'s size; hlrender renders and encodes in {${seconds[avif]}:.2f} s')
"
