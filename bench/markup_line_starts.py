#!/usr/bin/env python3
"""Rich-text parity: how many line starts hlrender and pango-view agree on for markup texts
(the corpus's en, ru, ja, ar and mixed texts with bold, size and colour spans), at widths 240 to
600 and 940 px, Noto Sans 40 px from fonts/ only. pango-view runs with --wrap=word-char (it cuts
long words as hlrender does) and --subpixel-positions (else it rounds advances to whole
pixels). Prints per text and the total. usage: markup_line_starts.py HLRENDER

Emoji are measured alike by both (see pinned_fonts.py). The total is also given with the mixed
text's emoji taken out ("mixed-no-emoji")."""
import json
import os
import re
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pinned_fonts import write_conf  # noqa: E402

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(repo, "Tests", "Fixtures", "corpus")
binary = sys.argv[1]
work = tempfile.mkdtemp()
conf = write_conf(repo, work)
env = dict(os.environ, FONTCONFIG_FILE=conf)


def marked(text):
    """Every 4th word bold, every 7th larger (52 pt), every 5th coloured; texts without spaces
    (Japanese) get the same every few characters."""
    pieces = re.split(r"(\s+)", text) if " " in text else [text[i:i + 6] for i in range(0, len(text), 6)]
    out, n = [], 0
    for piece in pieces:
        if not piece.strip():
            out.append(escape(piece))
            continue
        n += 1
        body = escape(piece)
        if n % 4 == 0:
            body = f"<b>{body}</b>"
        if n % 7 == 0:
            body = f'<span size="52pt">{body}</span>'
        if n % 5 == 0:
            body = f'<span color="#C33764">{body}</span>'
        out.append(body)
    return "".join(out)


def pango_starts(path, width):
    out = os.path.join(work, "p.json")
    subprocess.run(["pango-view", "--markup", "--dpi=72", "--font=Noto Sans 40", f"--width={width}", "--wrap=word-char",
                    "--subpixel-positions", "-q", f"--serialize-to={out}", "-o", os.path.join(work, "p.png"), path],
                   env=env, check=True)
    return {line["start-index"] for line in json.load(open(out))["output"]["lines"]}


def hlrender_starts(path, width):
    result = subprocess.run([binary, "render", "--markup-file", path, "--size", "40", "--width", str(width),
                             "--no-system-fonts", "--dump-layout", "-"], capture_output=True, check=True)
    return {line["start"] for line in json.loads(result.stdout)["lines"]}


EMOJI = re.compile("[\U0001F000-\U0001FAFF\u200d\u2600-\u27BF\uFE0F] ?")
totals = {}
for name in ["en", "ru", "ja", "ar", "mixed", "mixed-no-emoji"]:
    with open(os.path.join(corpus, name.replace("-no-emoji", "") + ".txt"), encoding="utf-8") as f:
        text = f.read().rstrip("\n")
    if name.endswith("-no-emoji"):
        text = EMOJI.sub("", text)
    path = os.path.join(work, name + ".markup")
    with open(path, "w", encoding="utf-8") as f:
        f.write(marked(text))
    row = [name]
    for width in [240, 300, 420, 600, 780, 940]:
        reference, ours = pango_starts(path, width), hlrender_starts(path, width)
        agree = len(reference & ours)
        for key in (["with-emoji"] if name == "mixed" else ["no-emoji"] if name.endswith("-no-emoji") else ["with-emoji", "no-emoji"]):
            totals.setdefault(key, [0, 0])
            totals[key][0] += agree
            totals[key][1] += len(reference)
        row.append(f"{width}: {agree}/{len(reference)}")
    print("  ".join(row))
for key, (agree, total) in totals.items():
    print(f"markup line starts ({key}): {agree} of {total} pango lines agree ({100 * agree / total:.1f}%)")
