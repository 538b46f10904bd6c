#!/usr/bin/env bash
# Paged PDF side by side with typst (PyPI `typst`, its Python API): the same article at 50, 500
# and 2,000 A4 pages (Noto Sans 11 pt from fonts/, page numbers), the two tools alternating,
# ROUNDS rounds (default 2); wall time (best of the rounds), peak RSS, pages and bytes of each,
# then the growth from 50 to 2,000 pages. Issue 38's targets (tagged, the default): 2,000
# pages in at most 0.40x typst's time, peak RSS at most 64 MB, time(2,000) <= 42 x time(50).
# Last, the 2,000 pages once more as PDF/UA-1 and PDF/A-2b (what the standards cost).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/.build/release/hlrender
rounds=${ROUNDS:-2}
python3 -c "import typst" 2>/dev/null || pip install -q typst
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() { sort -n | head -1; }
for pages in 50 500 2000; do
  python3 bench/make_article.py "$pages" > "$out/a$pages.txt"
  python3 bench/make_article.py "$pages" --typst > "$out/a$pages.typ"
  for round in $(seq "$rounds"); do
    /usr/bin/time -f "%e %M" -a -o "$out/h$pages" "$bin" render --text-file "$out/a$pages.txt" --font "Noto Sans" --size 11 \
      --page a4 --page-numbers --no-system-fonts -o "$out/h$pages.pdf"
    /usr/bin/time -f "%e %M" -a -o "$out/t$pages" python3 -c "import sys, typst
typst.compile(sys.argv[1], output=sys.argv[2], font_paths=[sys.argv[3]], ignore_system_fonts=True)" \
      "$out/a$pages.typ" "$out/t$pages.pdf" "$PWD/fonts"
  done
  for tool in h t; do
    name=$([ $tool = h ] && echo hlrender || echo "typst   ")
    seconds=$(cut -d' ' -f1 "$out/$tool$pages" | best)
    kb=$(cut -d' ' -f2 "$out/$tool$pages" | sort -n | tail -1)
    written=$(pdfinfo "$out/$tool$pages.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
    echo "$name $pages-page article: $written pages in $seconds s, peak RSS $((kb / 1024)) MiB, $(($(wc -c < "$out/$tool$pages.pdf") / 1024)) KiB PDF"
    echo "$seconds" > "$out/$tool$pages.best"
  done
done
for tool in h t; do
  name=$([ $tool = h ] && echo hlrender || echo typst)
  echo "$name: time(2000 pages) / time(50 pages) = $(echo "scale=1; $(cat "$out/${tool}2000.best") / $(cat "$out/${tool}50.best")" | bc)"
done
echo "hlrender / typst at 2000 pages: $(echo "scale=2; $(cat "$out/h2000.best") / $(cat "$out/t2000.best")" | bc)"
/usr/bin/time -f "%e %M" -o "$out/std" "$bin" render --text-file "$out/a2000.txt" --font "Noto Sans" --size 11 --page a4 \
  --page-numbers --no-system-fonts --title "Article" --pdf-standard ua-1,a-2b -o "$out/std.pdf"
echo "hlrender 2000 pages as ua-1,a-2b: $(cut -d' ' -f1 "$out/std") s, peak RSS $(($(cut -d' ' -f2 "$out/std") / 1024)) MiB"
