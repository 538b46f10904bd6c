#!/usr/bin/env bash
# The cost of rich text: the same English text (the corpus paragraph four times) rendered plain and with 20 spans (bold,
# colour, a larger size, a span highlight, an underline), 48 px, 900 px wide, to PNG; pango-view
# --markup beside it on the same text. Prints hyperfine's figures and the ratio; asserts nothing.
# The plain baseline is set in a dark blue, not black: black text on white is a gray image, which
# hlrender writes as a one-channel PNG (a third of the bytes to encode), and the spans' colours
# make an RGB one; the ratio is the cost of the spans, not of the encoding. The black baseline
# is shown too.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=${HLRENDER:-.build/release/hlrender}
python3 - "$out" <<'PY'
import sys, re
from xml.sax.saxutils import escape
out = sys.argv[1]
text = " ".join([open("Tests/Fixtures/corpus/en.txt", encoding="utf-8").read().strip()] * 4)
words = text.split(" ")
kinds = ['<b>{}</b>', '<span color="#C33764">{}</span>', '<span size="60pt">{}</span>',
         '<span highlight="#FFE066">{}</span>', '<u>{}</u>']
step = max(1, len(words) // 20)
marked, spans = [], 0
for i, word in enumerate(words):
    body = escape(word)
    if i % step == 0 and spans < 20:
        body = kinds[spans % len(kinds)].format(body)
        spans += 1
    marked.append(body)
open(f"{out}/plain.txt", "w").write(text)
open(f"{out}/marked.txt", "w").write(" ".join(marked))
# pango has no highlight: its background attribute stands in.
open(f"{out}/pango.txt", "w").write(" ".join(marked).replace("highlight=", "background="))
print(f"{len(text)} characters, {spans} spans")
PY
conf=$out/fonts.conf
echo "<?xml version=\"1.0\"?><fontconfig><dir>$PWD/fonts</dir><cachedir>$out/cache</cachedir></fontconfig>" > "$conf"
hyperfine -N --warmup 5 --runs 40 --export-json "$out/h.json" \
  -n plain "$bin render --no-system-fonts --text-file $out/plain.txt --size 48 --width 900 --color midnightblue -o $out/p.png" \
  -n plain-black "$bin render --no-system-fonts --text-file $out/plain.txt --size 48 --width 900 -o $out/pb.png" \
  -n 20-spans "$bin render --no-system-fonts --markup-file $out/marked.txt --size 48 --width 900 -o $out/m.png" \
  -n pango-view-plain "env FONTCONFIG_FILE=$conf pango-view --dpi=72 --font='Noto Sans 48' --width=900 -q -o $out/pp.png $out/plain.txt" \
  -n pango-view-markup "env FONTCONFIG_FILE=$conf pango-view --markup --dpi=72 --font='Noto Sans 48' --width=900 -q -o $out/pm.png $out/pango.txt" \
  2>&1 | grep -E "Benchmark|Time"
python3 - "$out/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"hlrender 20 spans / plain: {r['20-spans'] / r['plain']:.3f}x (/ plain in black, a gray PNG: {r['20-spans'] / r['plain-black']:.3f}x)   "
      f"pango-view markup / plain: {r['pango-view-markup'] / r['pango-view-plain']:.3f}x")
PY
