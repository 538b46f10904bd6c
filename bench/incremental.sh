#!/usr/bin/env bash
# Issue 51's incremental suites: a 10,000-card golden suite (10 templates, 1,000 rows each, as
# one manifest), recorded once; then timed four ways, in rounds:
#   full         every card rendered and compared (--render-all): what a suite cost before;
#   unchanged    nothing changed: every card skipped on its stored inputs;
#   one template edited (its colour spelled another way): its 1,000 cards render and pass;
#   one template's look changed (another colour): its 1,000 cards render and fail (every pixel
#                differs, so each is compared in full and classified); the rest skip.
# Target: the one-template re-run in at most 15% of the full run. CARDS (default 10000) scales it;
# every run starts from the same recorded folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HLRENDER_BIN:-$PWD/.build/release/hlrender}
cards=${CARDS:-10000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
manifest() {  # manifest CHANGED_TEMPLATE_COLOUR FILE
  python3 - "$cards" "$1" > "$out/$2" <<'PY'
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
manifest - base.jsonl
manifest "#bf360c" edited.jsonl   # the same colour spelled another way: 1,000 cards render and pass
manifest "#FFEB3B" look.jsonl     # another colour: 1,000 cards render and fail
"$bin" batch "$out/base.jsonl" --expect-dir "$out/goldens" --update --quiet --no-system-fonts 2> /dev/null
rm -rf "$out/start" && cp -a "$out/goldens" "$out/start"

# One timed run from the recorded goldens and record: wall seconds appended to $out/NAME.times,
# stderr kept in $out/NAME.err (a failing suite is expected for "look").
run() {  # run NAME MANIFEST [FLAGS...]
  local name=$1 manifest=$2; shift 2
  rm -rf "$out/goldens" && cp -a "$out/start" "$out/goldens"
  /usr/bin/time -f "%e" -o "$out/time" "$bin" batch "$out/$manifest" --expect-dir "$out/goldens" \
    --quiet --no-system-fonts "$@" > /dev/null 2> "$out/$name.err" || true
  tail -1 "$out/time" >> "$out/$name.times"  # time's last line (a failing run's status line before it)
}
# ROUNDS rounds (default 3), each running the four one after the other, so that a ratio compares
# runs made in the same minutes (a shared machine's speed drifts by a third within minutes).
# Each time is the best of its runs; each ratio is given best to best and as the median of the
# rounds' own ratios.
rounds=${ROUNDS:-3}
for round in $(seq "$rounds"); do
  run full base.jsonl --render-all
  run same base.jsonl
  run edit edited.jsonl
  run look look.jsonl
done
best() { sort -n "$out/$1.times" | head -1; }
goldens() { grep -o 'goldens: .*' "$out/$1.err"; }
rendered() { grep -o 'rendered .*s,' "$out/$1.err" | head -1; }
median() {  # median over the rounds of NAME's time / full's time
  paste "$out/$1.times" "$out/full.times" | awk '{ print $1 / $2 }' | sort -n | awk -f bench/median.awk
}
echo "full run, $cards cards rendered and compared: $(best full) s ($(goldens full))"
echo "nothing changed: $(best same) s ($(goldens same))"
echo "one template edited, same look: $(best edit) s ($(rendered edit) $(goldens edit))"
echo "one template's look changed: $(best look) s ($(rendered look) $(goldens look))"
echo "incremental ratio, one template edited (passes) / full = $(echo "scale=3; $(best edit) / $(best full)" | bc) best to best, $(median edit) median of $rounds rounds (target <= 0.15)"
echo "incremental ratio, one template's look changed (fails) / full = $(echo "scale=3; $(best look) / $(best full)" | bc) best to best, $(median look) median of $rounds rounds"
