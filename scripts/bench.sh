#!/usr/bin/env bash
# Benchmarks, side by side with the peers, in one run (needs hyperfine and pango-view:
# `make bench` installs them). Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${CORPUS:-Tests/Fixtures/corpus}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Static Swift runtime: dynamic linking of the Swift libraries costs ~4 ms per start.
scripts/swift-release.sh --product hlrender >/dev/null
scripts/swift-release.sh --product hlbench >/dev/null  # build's flags: no rebuild
scripts/swift-release.sh --product hlrender-serve >/dev/null
bin=.build/release/hlrender

echo "== highlight outline"
.build/release/hlbench outline

echo "== start cost: the CLI (no NIO) beside the service binary (NIO, Hummingbird)"
hyperfine -N --warmup 5 -r 100 "$bin --version" ".build/release/hlrender-serve --version" 2>&1 | grep -E "Benchmark|Time"

echo "== serve: wrk against POST /v1/card, cache off and on, and a process per request"
bench/serve.sh

echo "== golden suite: 500 cards, --jobs 2 (render only, render + compare, + reports)"
bench/goldens.sh

echo "== paged PDF: 50, 500 and 2,000 A4 pages with page numbers, hlrender and typst alternating"
bench/pages.sh

echo "== highlight cards: 500 solid-colour cards, PNG and JPEG q90, hlrender --jobs 2 and skia-python x2"
bench/highlight_cards.sh

echo "== one render: ja, en and ru paragraphs, 64 px, width 940, alternating with pango-view --dpi=72"
python3 bench/one_render.py "$bin"

echo "== rich text: 20 spans against the same text plain (hlrender and pango-view --markup)"
bench/spans.sh

echo "== rich text parity: markup line starts against pango-view --markup"
python3 bench/markup_line_starts.py "$bin"

echo "== encoders on the example cards"
.build/release/hlbench encode examples fonts

echo "== batch: 500 story cards, two workers (hlrender vs a Pillow script in two processes)"
bench/batch.sh

echo "== AVIF: 500 story cards as WebP and AVIF, and Pillow's AVIF encoder on the same pixels"
bench/avif.sh

echo "== hostile SVG pictures: each refused, its time and memory"
bench/hostile_svg.sh

echo "== typeset + render: $corpus/ja.txt, 64 px, width 940 (hlrender vs pango-view --dpi=72)"
hyperfine --warmup 3 --runs 30 -N \
  -n hlrender "$bin render --text-file $corpus/ja.txt --font 'Noto Sans CJK JP' --size 64 --width 940 -o $out/h.png" \
  -n pango-view "pango-view --dpi=72 --font='Noto Sans CJK JP 64' --width=940 -q -o $out/p.png $corpus/ja.txt"

echo "== compare: two 1080x1920 PNGs differing in a 100x100 block (hlrender vs ImageMagick)"
.build/release/hlbench compare-pair "$out"
"$bin" compare "$out/expected.png" "$out/actual.png" || true
compare-im6 -metric AE "$out/expected.png" "$out/actual.png" null: 2>&1 || true; echo
hyperfine --warmup 3 --runs 20 -N -i \
  -n "hlrender compare" "$bin compare $out/expected.png $out/actual.png" \
  -n "compare-im6 -metric AE" "compare-im6 -metric AE $out/expected.png $out/actual.png null:"

echo "== blur: 1080x1920 ARGB32 at sigma 11, one core (hlrender kernel vs vips gaussblur)"
.build/release/hlbench blur "$out"
# vips' kernel time = its gaussblur run minus a copy of the same file (load + save).
hyperfine --warmup 3 --runs 20 -N \
  -n "vips gaussblur" "vips gaussblur $out/blur-input.png $out/blurred.v 11" \
  -n "vips copy" "vips copy $out/blur-input.png $out/copied.v"

echo "== line breaks: line starts that agree with pango-view (corpus, widths 300/600/940)"
python3 bench/line_starts.py "$bin"
