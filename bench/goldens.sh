#!/usr/bin/env bash
# Golden suite: 500 story cards recorded, then checked (render + compare) with --jobs 2, beside
# the same batch rendering the cards only. Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 bench/make_rows.py 500 "$out/rows.csv"
run() { "$bin" batch --template bench/story-card.json --data "$out/rows.csv" --output "{{id}}.png" --jobs 2 --quiet "$@" 2>/dev/null; }
clock() { python3 -c 'import time; print(time.monotonic())'; }
run --expect-dir "$out/goldens" --update
for label in "render only (--out-dir)" "render + compare (--expect-dir)" "render + compare + HTML/JUnit"; do
  start=$(clock)
  case $label in
    render\ only*) run --out-dir "$out/cards" ;;
    *HTML*) run --expect-dir "$out/goldens" --html-report "$out/report" --junit "$out/junit.xml" ;;
    *) run --expect-dir "$out/goldens" ;;
  esac
  python3 -c "import sys; s=float(sys.argv[2]); print(f'{sys.argv[1]}: 500 cards in {s:.2f} s, {500/s:.0f} cards/s')" "$label" "$(python3 -c "print($(clock) - $start)")"
done
