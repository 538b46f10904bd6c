#!/usr/bin/env bash
# The accessibility and archive checks of issue 38, by tools outside hlrender: `pdfua` (PyPI,
# the machine-checkable subset of PDF/UA-1 and WCAG 2.1, installed in a private venv here),
# qpdf --check, and pdfinfo -struct-text for the reading order. Three documents, each with
# --pdf-standard ua-1,a-2b: a card (heading, paragraph, a link, a picture with alt), a 50-page
# article with headings, lists and links, and mixed English, Arabic and Japanese paragraphs.
# Prints each checker's verdict; exits non-zero when one fails. The test command runs it after
# the suite (pdfua is on PyPI only, so it lives in a venv under .build, pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
venv=${PDFUA_VENV:-$PWD/.build/pdfua-venv}
if [ ! -x "$venv/bin/pdfua" ]; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q pdfua==0.1.3
fi

# The card: a logo drawn by hlrender itself, described; a heading block; a link.
"$bin" card - -o "$out/logo.png" <<< '{"size": "40x40", "padding": 0, "background": "#C62828", "blocks": []}'
cat > "$out/card.json" <<'EOF'
{"size": "800x500", "background": "#1E3C72", "color": "white",
 "blocks": [{"type": "text", "text": "Quarterly review", "role": "h1", "size": 48, "highlight": "#F9A825", "anchor": "top"},
            {"type": "text", "markup": "Numbers are up. Read <a href=\"https://example.com/report\">the full report</a>.", "anchor": "center"},
            {"type": "image", "src": "logo.png", "alt": "The company logo, a red square", "anchor": "bottom-right"}]}
EOF
"$bin" card "$out/card.json" --no-system-fonts --title "Quarterly review" --pdf-standard ua-1,a-2b -o "$out/card.pdf"

# The article: 50 pages of sections, paragraphs, lists and links.
python3 - "$out/article.markup" <<'EOF'
import random, sys
random.seed(7)
words = "golden pages keep their reading order across every page of a long article written for the audit".split()
out = []
for s in range(1, 72):
    out.append(f"# Section {s}")
    for p in range(5):
        text = " ".join(random.choice(words) for _ in range(70))
        out.append(f'{text} See <a href="https://example.com/s{s}/p{p}">reference {s}.{p}</a>.')
    out += [f"- point {s}.{k}, {' '.join(random.choice(words) for _ in range(8))}" for k in range(3)]
open(sys.argv[1], "w").write("\n".join(out))
EOF
"$bin" render --markup-file "$out/article.markup" --page a4 --page-numbers --no-system-fonts --title "Article" --lang en \
  --pdf-standard ua-1,a-2b -o "$out/article.pdf"

# A CommonMark document of 50-odd pages: headings at three levels, lists (nested), quotes,
# code, links and pictures with alt text.
python3 - "$out/guide.md" <<'EOF'
import random, sys
random.seed(11)
words = "the guide keeps its structure in the tagged file so a reader hears every heading list and picture".split()
say = lambda n: " ".join(random.choice(words) for _ in range(n))
out = []
for c in range(1, 15):
    out += [f"# Chapter {c}", say(60) + f" See [the notes](https://example.com/c{c}).", ""]
    for s in range(1, 4):
        out += [f"## Section {c}.{s}", say(80), "", f"### Detail {c}.{s}", "", f"- {say(12)}", f"- {say(10)}", f"  1. {say(6)}", f"  2. {say(6)}", f"- {say(9)}", ""]
        out += [f"> {say(30)}", "", "```", f"let chapter = {c}", f"print(chapter * {s})", "```", ""]
    out += [f"![Figure {c}: the logo, a red square](logo.png)", "", say(70), "", "---", ""]
open(sys.argv[1], "w").write("\n".join(out))
EOF
"$bin" render --markdown-file "$out/guide.md" --page a5 --page-numbers --no-system-fonts --title "Guide" --lang en \
  --pdf-standard ua-1,a-2b -o "$out/guide.pdf"

# Mixed scripts: one paragraph each, and one mixing two.
printf '# Three scripts\nEnglish comes first.\nمرحبا بالعالم، هذا نص عربي.\n日本語のテキストです。\nBack to English with العربية inside.\nEmoji 🎉 and 👩‍👩‍👧 read as text.\n' > "$out/mixed.txt"
"$bin" render --text-file "$out/mixed.txt" --page a5 --no-system-fonts --title "Mixed" --lang en --pdf-standard ua-1,a-2b -o "$out/mixed.pdf"

status=0
for name in card article guide mixed; do
  file="$out/$name.pdf"
  pages=$(pdfinfo "$file" | awk '/^Pages:/ {print $2}')
  verdict=$("$venv/bin/pdfua" check "$file" | awk '/result:/ {$1=""; print}')
  qpdf --check "$file" > /dev/null 2>&1 && qpdf_ok=clean || { qpdf_ok=FAILED; status=1; }
  case "$verdict" in *PASS*) ;; *) status=1 ;; esac
  echo "$name ($pages pages): pdfua$verdict; qpdf $qpdf_ok; $(pdfinfo -struct-text "$file" | grep -c '(block)') block elements"
done
# The Markdown guide's structure tree, read by pikepdf: element counts and outline entries.
echo "guide, structure (pikepdf): $(/usr/bin/python3 "$PWD/Tests/CLITests/Fixtures/structure_tree.py" "$out/guide.pdf" \
  | sed 's/^ *//; s/ alt=.*//; s/^outline:.*/bookmark/' | sort | uniq -c | sort -rn | awk '{printf "%s %s, ", $1, $2}')"
# Ligatures map through ToUnicode ("fi" is "fi"), so poppler's structure text is the whole
# paragraph (it stopped at the first nested ActualText span).
echo "mixed, reading order (pdfinfo -struct-text):"
pdfinfo -struct-text "$out/mixed.pdf" | sed 's/^/  /'
exit $status
