#!/usr/bin/env bash
# Paged PDF: a 50-page and a 2,000-page article on A4 with page numbers; wall time and peak
# RSS of each (issue targets: 50 pages under 1 s, 2,000 pages under 512 MiB). Prints figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for pages in 50 2000; do
  python3 bench/make_article.py "$pages" > "$out/a$pages.txt"
  /usr/bin/time -f "%e %M" -o "$out/time" "$bin" render --text-file "$out/a$pages.txt" --font "Noto Sans" --size 11 \
    --page a4 --page-numbers --no-system-fonts -o "$out/a$pages.pdf"
  read -r seconds kb < "$out/time"
  written=$(pdfinfo "$out/a$pages.pdf" | awk '/^Pages:/ {print $2}')
  echo "render --page a4 --page-numbers, $(wc -c < "$out/a$pages.txt") bytes of text: $written pages in $seconds s, peak RSS $((kb / 1024)) MiB, $(($(wc -c < "$out/a$pages.pdf") / 1024)) KiB PDF"
done
