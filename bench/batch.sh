#!/usr/bin/env bash
# hlrender batch against the Pillow peer, side by side in one run: cards/s with two workers,
# and peak RSS for 500 and 5,000 cards. Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 -c 'import PIL' 2>/dev/null || pip install -q pillow
python3 bench/make_rows.py 500 "$out/rows500.csv"
python3 bench/make_rows.py 5000 "$out/rows5000.csv"

rate() {  # label, seconds, cards
  python3 -c "import sys; print(f'{sys.argv[1]}: {int(sys.argv[3])/float(sys.argv[2]):.1f} cards/s ({float(sys.argv[2]):.2f} s for {sys.argv[3]})')" "$@"
}
clock() { python3 -c 'import time; print(time.monotonic())'; }

for format in png jpg; do
  start=$(clock)
  "$bin" batch --template bench/story-card.json --data "$out/rows500.csv" --output "{{id}}.$format" \
    --out-dir "$out/h-$format" --jobs 2 --quiet --no-system-fonts
  rate "hlrender batch --jobs 2, 500 cards, $format" "$(python3 -c "print($(clock) - $start)")" 500
done
start=$(clock)
python3 bench/pillow_cards.py "$out/rows500.csv" "$out/pillow" fonts 0/2 &
python3 bench/pillow_cards.py "$out/rows500.csv" "$out/pillow" fonts 1/2 &
wait
rate "Pillow script, two processes, 500 cards, png" "$(python3 -c "print($(clock) - $start)")" 500
echo "bytes per card: hlrender png $(du -sb "$out/h-png" | cut -f1 | awk '{print int($1/500)}'), jpg $(du -sb "$out/h-jpg" | cut -f1 | awk '{print int($1/500)}'), Pillow png $(du -sb "$out/pillow" | cut -f1 | awk '{print int($1/500)}')"

for n in 500 5000; do
  rm -rf "$out/rss"
  /usr/bin/time -f "%M" -o "$out/rss.txt" "$bin" batch --template bench/story-card.json --data "$out/rows$n.csv" \
    --output '{{id}}.png' --out-dir "$out/rss" --jobs 2 --quiet --no-system-fonts
  echo "peak RSS, $n cards, --jobs 2: $(( $(cat "$out/rss.txt") / 1024 )) MiB"
done
