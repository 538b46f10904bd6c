#!/usr/bin/env bash
# bench/compare_pdf.sh: hlrender compare on the two 100-page PDFs of the golden tests (one word
# changed on page 37, a link moved on page 12, a page added), against the pipeline teams script
# today (pdftoppm at the same 72 dpi, pixelmatch-fast per page pair, pdftotext and a word diff
# per page), in one run. Prints wall-clock seconds and what each found.
set -euo pipefail
cd "$(dirname "$0")/.."
fixtures=Tests/GoldensTests/Fixtures/pdf
work=${TMPDIR:-/tmp}/hlrender-compare-pdf
rm -rf "$work"; mkdir -p "$work"
python3 -c "import pixelmatch, PIL" 2>/dev/null || pip install -q pixelmatch-fast pillow
[[ -x .build/release/hlrender ]] || scripts/swift-release.sh >/dev/null

now() { date +%s.%N; }
t0=$(now)
.build/release/hlrender compare "$fixtures/expected.pdf" "$fixtures/actual.pdf" --html-report "$work/report" >"$work/ours.txt" || [[ $? -eq 1 ]]
t1=$(now)
python3 - "$fixtures" "$work" <<'PY' >"$work/peer.txt"
import difflib, glob, os, subprocess, sys
import pixelmatch
from PIL import Image
fixtures, work = sys.argv[1], sys.argv[2]
pages = {}
for side in ("expected", "actual"):
    subprocess.run(["pdftoppm", "-r", "72", "-png", f"{fixtures}/{side}.pdf", f"{work}/{side}"], check=True)
    text = subprocess.run(["pdftotext", "-q", f"{fixtures}/{side}.pdf", "-"], capture_output=True, text=True).stdout
    pages[side] = (sorted(glob.glob(f"{work}/{side}-*.png")), [p.split() for p in text.split("\f")])
(ei, et), (ai, at) = pages["expected"], pages["actual"]
for n in range(max(len(ei), len(ai))):
    if n >= len(ei) or n >= len(ai):
        print(f"page {n + 1}: only in one document")
        continue
    a, b = Image.open(ei[n]).convert("RGBA"), Image.open(ai[n]).convert("RGBA")
    count = pixelmatch.pixelmatch(a, b) if a.size == b.size else "size"
    words = [d for d in difflib.ndiff(et[n], at[n]) if d[:1] in "+-"]
    if count or words:
        print(f"page {n + 1}: {count} pixels, words {words}")
PY
t2=$(now)
echo "hlrender compare (pages, words, links, outline, report)  $(python3 -c "print(f'{$t1 - $t0:.2f}')") s"
sed 's/^/    /' "$work/ours.txt"
echo "pdftoppm + pixelmatch-fast + pdftotext (no links)       $(python3 -c "print(f'{$t2 - $t1:.2f}')") s"
sed 's/^/    /' "$work/peer.txt"
