#!/usr/bin/env bash
# Issue 52's speed target, side by side in one run: a 1080x1920, 3 s, 30 fps story (three lines,
# lines-in with a highlight sweep; bench/animation-story.json) written as animated WebP by the
# release hlrender (wall time and peak RSS, median of 5), the same frames drawn by Pillow and
# saved as animated WebP (bench/pillow_animation.py), and, in one process, the animation's time
# per frame against the still card's (hlbench animation).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/swift-release.sh --product hlrender >/dev/null 2>&1
scripts/swift-release.sh --product hlbench >/dev/null 2>&1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export HLRENDER_FONT_DIR="$PWD/fonts"
python=${PYTHON:-/usr/bin/python3}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() {  # label, command...: median seconds and peak RSS of 5 runs
  local label=$1; shift
  local times=() rss=()
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e %M" -o "$out/t" "$@" >/dev/null
    read -r s m < "$out/t"; times+=("$s"); rss+=("$m")
  done
  printf '%-44s %6.2f s  peak %4d MB\n' "$label" "$(printf '%s\n' "${times[@]}" | median)" \
    "$(( $(printf '%s\n' "${rss[@]}" | median) / 1024 ))"
}

echo "1080x1920, 3 s, 30 fps, lines-in + highlight-sweep, animated WebP q90 (2 cores)"
run "hlrender card (release)" .build/release/hlrender card bench/animation-story.json -o "$out/h.webp" --no-system-fonts
run "Pillow $($python -c 'import PIL; print(PIL.__version__)') (bench/pillow_animation.py)" "$python" bench/pillow_animation.py "$out/p.webp" fonts
ls -l "$out/h.webp" "$out/p.webp" | awk '{printf "  %s: %d bytes\n", $9, $5}' | sed "s|$out/||"
.build/release/hlbench animation bench/animation-story.json "$PWD/fonts"
