#!/usr/bin/env bash
# bench/hostile_svg.sh: each hostile SVG of Tests/CLITests/Fixtures/hostile-svg in a card, with
# its wall time and peak memory (GNU time): each must be refused in under 1 s and 200 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HLRENDER_BIN_DIR:-.build/release}/hlrender
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-20s %8s %8s  %s\n' picture seconds "MB" verdict
worst_s=0; worst_mb=0
for svg in Tests/CLITests/Fixtures/hostile-svg/*.svg; do
  name=$(basename "$svg")
  cp "$svg" "$work/$name"
  printf '{"size": "600x400", "blocks": [{"type": "image", "src": "%s"}]}' "$name" > "$work/card.json"
  set +e
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" card "$work/card.json" -o "$work/out.png" 2> "$work/err"
  status=$?
  set -e
  read -r seconds kb < <(tail -1 "$work/time")
  mb=$((kb / 1024))
  verdict=$([ "$status" -eq 3 ] && echo refused || echo "NOT refused ($status)")
  printf '%-20s %8s %8s  %s\n' "$name" "$seconds" "$mb" "$verdict"
  worst_s=$(echo "$seconds $worst_s" | awk '{print ($1 > $2) ? $1 : $2}'); [ "$mb" -gt "$worst_mb" ] && worst_mb=$mb
done
echo "worst: $worst_s s, $worst_mb MB (target: under 1 s and 200 MB each)"
