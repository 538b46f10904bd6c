#!/usr/bin/env bash
# Issue 51's incremental suites: a 10,000-card golden suite (10 templates, 1,000 rows each, as
# one manifest), recorded once; then timed three ways, one after the other in one run:
#   full         every card rendered and compared (--render-all): what a suite cost before;
#   unchanged    nothing changed: every card skipped on its stored inputs;
#   one template edited (its colour spelled another way): its 1,000 cards render and pass;
#   one template's look changed (another colour): its 1,000 cards render and fail (every pixel
#                differs, so each is compared in full and classified); the rest skip.
# Target: the one-template re-run in at most 15% of the full run. CARDS (default 10000) scales it;
# each figure is the best of ROUNDS runs (default 3) from the same starting folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HLRENDER_BIN:-$PWD/.build/release/hlrender}
cards=${CARDS:-10000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
manifest() {  # manifest CHANGED_TEMPLATE_COLOUR
  python3 - "$cards" "$1" > "$out/cards.jsonl" <<'PY'
import json, sys
cards, changed = int(sys.argv[1]), sys.argv[2]
colours = ["#1E3C72", "#7B1FA2", "#00796B", "#BF360C", "#37474F", "#283593", "#AD1457", "#2E7D32", "#4E342E", "#0277BD"]
if changed != "-":
    colours[3] = changed
words = "launch team notes story week review market garden river city light paper".split()
for i in range(cards):
    t = i % 10
    title = " ".join(words[(i * 7 + k) % len(words)] for k in range(3)).title()
    print(json.dumps({"output": f"t{t}/card{i:05}.png", "size": "400x240", "padding": 16, "background": colours[t],
                      "color": "white", "blocks": [
                          {"type": "text", "text": title, "size": 30, "align": "center", "anchor": "top"},
                          {"type": "text", "text": f"Row {i} of template {t}", "size": 18, "highlight": "#000000AA",
                           "anchor": "bottom"}]}))
PY
}
# Best wall seconds of ROUNDS runs (default 3; a shared machine's neighbours only ever add
# time), each from the same goldens folder and record (its stderr kept in $out/err; a failing
# suite is expected here).
rounds=${ROUNDS:-3}
seconds() {
  rm -rf "$out/start" && cp -a "$out/goldens" "$out/start"
  local best=""
  for round in $(seq "$rounds"); do
    rm -rf "$out/goldens" && cp -a "$out/start" "$out/goldens"
    /usr/bin/time -f "%e" -o "$out/time" "$@" > /dev/null 2> "$out/err" || true
    t=$(tail -1 "$out/time")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
manifest -
"$bin" batch "$out/cards.jsonl" --expect-dir "$out/goldens" --update --quiet --no-system-fonts 2> /dev/null
full=$(seconds "$bin" batch "$out/cards.jsonl" --expect-dir "$out/goldens" --render-all --quiet --no-system-fonts)
echo "full run, $cards cards rendered and compared: $full s ($(grep -o 'goldens: .*' "$out/err"))"
same=$(seconds "$bin" batch "$out/cards.jsonl" --expect-dir "$out/goldens" --quiet --no-system-fonts)
echo "nothing changed: $same s ($(grep -o 'goldens: .*' "$out/err"))"
# The same colour spelled another way: the template's 1,000 cards render again and pass.
manifest "#bf360c"
edit=$(seconds "$bin" batch "$out/cards.jsonl" --expect-dir "$out/goldens" --quiet --no-system-fonts)
echo "one template edited, same look: $edit s ($(grep -o 'rendered .*s,' "$out/err" | head -1) $(grep -o 'goldens: .*' "$out/err"))"
manifest "#FFEB3B"
one=$(seconds "$bin" batch "$out/cards.jsonl" --expect-dir "$out/goldens" --quiet --no-system-fonts)
echo "one template's look changed: $one s ($(grep -o 'rendered .*s,' "$out/err" | head -1) $(grep -o 'goldens: .*' "$out/err"))"
echo "incremental ratio, one template edited (passes) / full = $(echo "scale=3; $edit / $full" | bc) (target <= 0.15)"
echo "incremental ratio, one template's look changed (fails) / full = $(echo "scale=3; $one / $full" | bc)"
